"""The wrappers compose as Models: Cached(Instrumented(FallbackChain([...]))) inside a telemetry run."""

from pathlib import Path

from relaykit.errors import RateLimited
from relaykit.models import ChatRequest, Model
from relaykit.models.cache import Cached
from relaykit.models.cache.sqlite import SQLiteStore
from relaykit.models.fallback import FallbackChain
from relaykit.models.instrumented import Instrumented
from relaykit.telemetry import CACHE_HIT, FALLBACK, LLM_CALL, RUN_END, MemorySink, Telemetry, summarize
from relaykit.testing import ScriptedModel


def relay(model: Model, telemetry: Telemetry) -> list[str]:
    """A toy three-hop relay: each hop's answer becomes the next hop's input."""
    text = "the vendor must ship by Friday; budget 1200 EUR"
    outputs = []
    with telemetry.run({"lab": "toy"}):
        for hop in range(3):
            with telemetry.stage(f"hop{hop}"):
                text = model.complete(ChatRequest.of(f"relay this: {text}", max_tokens=64)).text
                outputs.append(text)
    return outputs


def test_second_identical_run_makes_no_model_calls(tmp_path: Path) -> None:
    primary = ScriptedModel([RateLimited("429", retry_after=0.0)], name="primary",
                            default="unused")
    backup = ScriptedModel(lambda r: "ok: " + str(r.messages[-1]["content"])[-30:], name="backup")
    sink = MemorySink()
    telemetry = Telemetry(sink)
    chain = FallbackChain([primary, backup], retries=0, telemetry=telemetry, sleep=lambda s: None)
    store = SQLiteStore(tmp_path / "cache.sqlite")
    model = Cached(Instrumented(chain, telemetry), store, namespace="relay", telemetry=telemetry)
    first = relay(model, telemetry)
    calls_after_first = primary.calls + backup.calls
    second = relay(model, telemetry)
    assert second == first
    assert primary.calls + backup.calls == calls_after_first, "the cached rerun must not reach any model"
    assert len(sink.of(FALLBACK)) == 1 and len(sink.of(LLM_CALL)) == 3 and len(sink.of(CACHE_HIT)) == 3
    ends = sink.of(RUN_END)
    assert ends[0].fields["summary"]["model_calls"] == 3 and ends[1].fields["summary"]["model_calls"] == 0
    assert ends[1].fields["summary"]["cache_hits"] == 3
    summary = summarize(sink.events)
    assert summary["models"]["fallback(primary,backup)"]["model_calls"] == 3
    assert set(summary["stages"]) == {"hop0", "hop1", "hop2"}
    # a fresh process over the same file replays the run offline
    offline = ScriptedModel(fail_with=AssertionError("no calls in replay"), name="stand-in")
    replay = Cached(offline, SQLiteStore(tmp_path / "cache.sqlite"), namespace="relay", mode="replay",
                    key_name="fallback(primary,backup)")
    assert relay(replay, Telemetry()) == first


def test_lookup_never_calls_the_model() -> None:
    from relaykit.models.cache import MemoryStore

    model = ScriptedModel(lambda r: "x")
    cached = Cached(model, MemoryStore())
    assert cached.lookup("q") is None
    cached.complete("q")
    hit = cached.lookup("q")
    assert hit is not None and hit.text == "x" and model.calls == 1
