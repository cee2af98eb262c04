from typing import Any

import pytest

from relaykit.bench.relay.booker import BookingAnswer
from relaykit.bench.relay.runner import KIND, RelayConfig, open_lab, run_relay
from relaykit.bench.relay.summary import summarize
from relaykit.bench.store import RunStore
from relaykit.errors import ModelTimeout, UsageError
from relaykit.models import ChatRequest
from relaykit.testing import ScriptedModel

FAST = ("passthrough", "extract-rules", "truncate")


class _Seen:
    def start(self, total: int, done: int) -> None:
        self.total, self.done = total, done

    def advance(self, n: int = 1) -> None:
        self.done += n

    def close(self) -> None:
        pass


def _config(**changes: Any) -> RelayConfig:
    base: dict[str, Any] = {"methods": FAST, "goals": 8, "embedder": "hashing"}
    return RelayConfig(**{**base, **changes})


def test_run_records_every_unit_and_summarizes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = RunStore(tmp_path / "runs.sqlite")
    lab, run_id = open_lab(store, _config())
    seen = _Seen()
    run_relay(store, lab, run_id, progress=seen)
    assert seen.total == 8 * 3 and seen.done == 8 * 3
    keys = store.done_keys(run_id)
    assert len([k for k in keys if k.startswith("score/")]) == 24
    assert len([k for k in keys if k.startswith("trace/")]) == 8
    run = store.get_run(run_id)
    assert run.kind == KIND and run.status == "finished" and run.config["methods"] == list(FAST)
    summary = summarize(store, run)
    rows = {r.name: r for r in summary.rows}
    assert rows["passthrough"].feasible_accuracy == 1.0 and rows["passthrough"].ratio == 1.0
    assert rows["passthrough"].evidence_recall == 1.0 and rows["truncate"].ratio < 1.0
    assert len(summary.mcnemar) == 3
    out = summary.as_json()
    assert set(out) == {"run_id", "full_n", "methods", "mcnemar"}
    assert set(out["methods"]["truncate"]) == {
        "n", "partial", "reason", "feasible_accuracy", "feasible_ci", "optimal_accuracy", "mean_gap", "ratio",
        "tokens_per_run",
        "evidence_recall", "false_none", "wrong_pair", "ungrounded"}
    assert store.events(run_id, "booker") and store.events(run_id, "compression")
    handoffs = [v for k, v in store.results(run_id).items() if k.startswith("handoff/")]
    assert handoffs and all(h["invented_facts"] == [] for h in handoffs)  # no method here makes values up


def test_resume_computes_only_what_is_missing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = RunStore(tmp_path / "runs.sqlite")
    lab, run_id = open_lab(store, _config(goals=6))
    run_relay(store, lab, run_id)
    first = summarize(store, store.get_run(run_id)).as_json()
    # Forget nothing, rerun: nothing is recomputed (no new events).
    events = len(store.events(run_id))
    lab2, same = open_lab(store, resume=run_id)
    run_relay(store, lab2, same)
    assert same == run_id and len(store.events(run_id)) == events
    assert summarize(store, store.get_run(run_id)).as_json() == first


def test_resume_unknown_run_lists_runs(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = RunStore(tmp_path / "runs.sqlite")
    _, run_id = open_lab(store, _config(goals=1))
    with pytest.raises(UsageError, match=run_id):
        open_lab(store, resume="relay-nope")


def test_unknown_method_lists_registered_ones(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(UsageError, match=r"registered: .*passthrough"):
        open_lab(RunStore(tmp_path / "r.sqlite"), _config(methods=("shrink",)))
    with pytest.raises(UsageError, match="booker"):
        open_lab(RunStore(tmp_path / "r.sqlite"), _config(bookers=("oracle",)))


def test_method_variants_run_side_by_side(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = RunStore(tmp_path / "runs.sqlite")
    lab, run_id = open_lab(store, _config(goals=3, methods=("truncate", "truncate:ratio=0.9")))
    run_relay(store, lab, run_id)
    rows = {r.name: r for r in summarize(store, store.get_run(run_id)).rows}
    assert set(rows) == {"truncate", "truncate:ratio=0.9"}
    assert rows["truncate:ratio=0.9"].ratio > rows["truncate"].ratio


def _booker_answers(request: ChatRequest) -> Any:
    text = request.messages[-1]["content"]
    if "Goal G02" in text:
        raise ModelTimeout("the server did not answer")
    return BookingAnswer(hotel_id="NONE", flight_id="NONE")


def test_model_booker_limited_goals_and_failures_go_on(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = RunStore(tmp_path / "runs.sqlite")
    model = ScriptedModel(_booker_answers)
    config = _config(goals=5, methods=("passthrough",), bookers=("reader", "model"), model="scripted",
                     model_goals=3)
    lab, run_id = open_lab(store, config, model=model)
    run_relay(store, lab, run_id)
    results = store.results(run_id)
    reader = [k for k in results if k.endswith("/reader")]
    booked = [k for k in results if k.endswith("/model")]
    assert len(reader) == 5 and sorted(booked) == ["score/G01/passthrough/model", "score/G03/passthrough/model"]
    failures = store.events(run_id, "failure")
    assert len(failures) == 1 and failures[0]["payload"]["unit"] == "score/G02/passthrough/model"
    assert store.get_run(run_id).status == "incomplete"
    summary = summarize(store, store.get_run(run_id))
    assert {r.name for r in summary.rows} == {"passthrough [reader]", "passthrough [model]"}
    rows = {r.name: r for r in summary.rows}
    reason = rows["passthrough [model]"].reason
    assert rows["passthrough [model]"].partial and "1 goal(s) failed: ModelTimeout" in reason
    assert "first 3 goal(s) only" in reason and not summary.mcnemar
    assert any("failed on model errors" in n for n in summary.notes)
    assert any("first 3 goals at most" in n for n in summary.notes)
    # The model answers now: a resume fills in the missing goal only.
    model2 = ScriptedModel(lambda r: BookingAnswer(hotel_id="NONE", flight_id="NONE"))
    lab2, _ = open_lab(store, resume=run_id, model=model2)
    run_relay(store, lab2, run_id)
    assert model2.calls == 1 and store.get_run(run_id).status == "finished"


def test_model_dependent_methods_use_the_model(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = RunStore(tmp_path / "runs.sqlite")
    model = ScriptedModel(lambda r: "The traveller should take H01 and F01 within budget.")
    lab, run_id = open_lab(store, _config(goals=4, methods=("summary", "passthrough"), model="scripted",
                                         model_goals=2), model=model)
    run_relay(store, lab, run_id)
    rows = {r.name: r for r in summarize(store, store.get_run(run_id)).rows}
    assert rows["summary"].n == 2 and rows["passthrough"].n == 4
    assert rows["summary"].tokens_per_run > 0 and model.calls >= 2
    handoff = store.result(run_id, "handoff/G01/summary")
    assert handoff["compression_calls"] >= 1 and handoff["compression_tokens"] > 0


def test_model_time_budget_keeps_the_first_goal_and_says_so(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = RunStore(tmp_path / "runs.sqlite")
    model = ScriptedModel(lambda r: BookingAnswer(hotel_id="NONE", flight_id="NONE"))
    config = _config(goals=4, methods=("passthrough", "truncate"), bookers=("reader", "model"), model="scripted",
                     model_budget_s=1e-9)
    lab, run_id = open_lab(store, config, model=model)
    run_relay(store, lab, run_id)
    booked = sorted(k for k in store.done_keys(run_id) if k.endswith("/model"))
    assert booked == ["score/G01/passthrough/model", "score/G01/truncate/model"]  # the first goal always runs
    assert len([k for k in store.done_keys(run_id) if k.endswith("/reader")]) == 8
    run = store.get_run(run_id)
    assert run.status == "incomplete"
    notes = summarize(store, run).notes
    assert any("time budget" in n and "6 units left out" in n for n in notes)
    # Without a limit, a resume completes the model Booker's goals.
    lab2, _ = open_lab(store, resume=run_id, model=model)
    lab2.model_budget = None
    run_relay(store, lab2, run_id)
    assert store.get_run(run_id).status == "finished" and model.calls == 8


def test_default_methods_are_every_compressor_control_first() -> None:
    from relaykit.bench.relay.methods import parse_methods
    from relaykit.handoff import compressors

    labels = [m.label for m in parse_methods(None, compressors())]
    assert labels[:4] == ["passthrough", "summary", "extract", "prune"] and set(labels) == set(compressors())
    needs = {m.label for m in parse_methods(None, compressors()) if m.needs_model}
    assert needs == {"summary", "extract", "selective"}


def test_concurrency_gives_the_same_tables(tmp_path) -> None:  # type: ignore[no-untyped-def]
    outs = []
    for k in (1, 3):
        store = RunStore(tmp_path / f"runs{k}.sqlite")
        lab, run_id = open_lab(store, _config(goals=6))
        run_relay(store, lab, run_id, concurrency=k)
        out = summarize(store, store.get_run(run_id)).as_json()
        out.pop("run_id")
        outs.append(out)
    assert outs[0] == outs[1]
    with pytest.raises(UsageError, match="concurrency"):
        run_relay(store, lab, run_id, concurrency=0)


def test_default_methods_are_every_method_with_a_budget_for_the_embedded_model(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = RunStore(tmp_path / "runs.sqlite")
    lab, run_id = open_lab(store, RelayConfig(methods=(), goals=2, embedder="hashing", model="local"))
    labels = [m.label for m in lab.methods]
    assert labels[0] == "passthrough" and {"summary", "extract", "selective"} <= set(labels)
    assert lab.model_budget == 60.0
    assert store.get_run(run_id).config["methods"] == labels
    served, _ = open_lab(store, RelayConfig(methods=(), goals=2, embedder="hashing", model="scripted"))
    assert [m.label for m in served.methods] == labels and served.model_budget is None


def test_terminal_tables_keep_booker_suffixes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import io

    from rich.console import Console

    from relaykit.bench.relay.terminal import print_summary

    store = RunStore(tmp_path / "runs.sqlite")
    model = ScriptedModel(lambda r: BookingAnswer(hotel_id="NONE", flight_id="NONE"))
    lab, run_id = open_lab(store, _config(goals=2, methods=("passthrough",), bookers=("reader", "model"),
                                         model="scripted"), model=model)
    run_relay(store, lab, run_id)
    buffer = io.StringIO()
    print_summary(summarize(store, store.get_run(run_id)), Console(file=buffer, width=160))
    text = buffer.getvalue()
    assert "passthrough [reader]" in text and "passthrough [model]" in text


def _booker_and_summary(request: ChatRequest) -> Any:
    if request.schema is not None:
        return BookingAnswer(hotel_id="NONE", flight_id="NONE")
    return "The traveller should take H01 and F01 within budget."


def test_a_second_identical_cached_run_makes_no_model_calls_and_traces_its_stages(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from relaykit.telemetry import EVENT_NAMES, JsonlSink, Telemetry, read_jsonl

    store = RunStore(tmp_path / "runs.sqlite")
    config = _config(goals=3, methods=("summary", "passthrough"), bookers=("reader", "model"), model="scripted",
                     cache=f"sqlite:{tmp_path / 'cache.sqlite'}")
    first = ScriptedModel(_booker_and_summary)
    lab, run1 = open_lab(store, config, model=first, telemetry=Telemetry(JsonlSink(tmp_path / "trace.jsonl")))
    run_relay(store, lab, run1)
    assert first.calls > 0
    second = ScriptedModel(_booker_and_summary)
    lab2, run2 = open_lab(store, config, model=second)
    run_relay(store, lab2, run2)
    assert second.calls == 0, "every answer of an identical run must come from the cache"
    table = [(r.name, r.feasible_accuracy, r.ratio) for r in summarize(store, store.get_run(run1)).rows]
    assert table == [(r.name, r.feasible_accuracy, r.ratio) for r in summarize(store, store.get_run(run2)).rows]
    names = [e.name for e in read_jsonl(tmp_path / "trace.jsonl")]
    assert names[0] == "pipeline.run.start" and names[-1] == "pipeline.run.end" and set(names) <= set(EVENT_NAMES)
    stages = {e.fields.get("stage") for e in read_jsonl(tmp_path / "trace.jsonl") if e.name == "pipeline.stage.end"}
    assert stages == {"researcher", "compression", "booker"}
    assert names.count("pipeline.llm.call") == first.calls


def _no_room(request: ChatRequest) -> Any:
    from relaykit.errors import ContextWindowExceeded

    raise ContextWindowExceeded("6281 prompt + 2048 completion > 8192", 8329, 8192)


def test_a_method_that_cannot_run_is_a_row_with_n_0_and_the_reason(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import io

    from rich.console import Console

    from relaykit.bench.relay.terminal import print_summary

    store = RunStore(tmp_path / "runs.sqlite")
    lab, run_id = open_lab(store, _config(goals=3, methods=("passthrough", "truncate", "summary"), model="scripted"),
                           model=ScriptedModel(_no_room))
    outcome = run_relay(store, lab, run_id)  # not an unreachable endpoint: the run ends normally
    assert outcome.status == "incomplete" and len(outcome.failures) == 3
    summary = summarize(store, store.get_run(run_id))
    rows = {r.name: r for r in summary.rows}
    assert rows["summary"].n == 0 and rows["summary"].partial
    assert "3 goal(s) failed: ContextWindowExceeded" in rows["summary"].reason
    assert not rows["truncate"].partial and [(m.a, m.b) for m in summary.mcnemar] == [("passthrough", "truncate")]
    assert summary.as_json()["methods"]["summary"]["n"] == 0
    buffer = io.StringIO()
    print_summary(summary, Console(file=buffer, width=200))
    text = buffer.getvalue()
    assert "rows with fewer goals" in text and "ContextWindowExceeded" in text.split("Table II")[0]


def test_a_repeated_run_embeds_nothing_again(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from relaykit.bench.relay.similarity import CachedEmbedder, VectorStore
    from relaykit.embeddings import HashingEmbedder

    vectors = VectorStore(tmp_path / "embeddings.sqlite")
    outs = []
    for _ in range(2):
        store = RunStore(tmp_path / "runs.sqlite")
        embedder = CachedEmbedder(HashingEmbedder(), vectors)
        lab, run_id = open_lab(store, _config(goals=3, methods=("passthrough", "prune", "truncate")),
                               embedder=embedder)
        run_relay(store, lab, run_id)
        outs.append((embedder.embedded, embedder.calls, summarize(store, store.get_run(run_id)).as_json()))
    (first, calls, a), (second, _, b) = outs
    assert first > 0 and calls <= 3 * 3 and second == 0  # diagnostics: one batch a goal (prune: two); then disk
    a.pop("run_id"), b.pop("run_id")
    assert a == b
