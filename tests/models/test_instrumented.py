import pytest

from relaykit.errors import ServerError
from relaykit.models.instrumented import Instrumented, model_family
from relaykit.telemetry import LLM_CALL, MemorySink, Telemetry
from relaykit.testing import ScriptedModel


def test_each_call_emits_an_llm_call_event_without_content() -> None:
    sink = MemorySink()
    model = Instrumented(ScriptedModel(["four"], name="gpt-4o-mini"), Telemetry(sink))
    with model.telemetry.run(), model.telemetry.stage("extract"):
        response = model.complete("what is two plus two, secretly?")
    [event] = sink.of(LLM_CALL)
    f = event.fields
    assert f["model"] == "gpt-4o-mini" and f["model_family"] == "gpt-4o" and f["stage"] == "extract"
    assert f["prompt_tokens"] == response.prompt_tokens and f["completion_tokens"] == response.completion_tokens
    assert f["input_tokens_est"] > 0 and f["latency_ms"] >= 0 and len(f["cache_key_hash"]) == 16
    assert "secretly" not in str(event.to_dict())


def test_failed_call_is_reported_and_reraised() -> None:
    sink = MemorySink()
    model = Instrumented(ScriptedModel(fail_with=ServerError("500"), name="m"), Telemetry(sink))
    with pytest.raises(ServerError):
        model.complete("x")
    assert sink.of(LLM_CALL)[0].fields["error_type"] == "ServerError"


@pytest.mark.parametrize(("name", "family"), [
    ("gpt-4o-mini", "gpt-4o"), ("openai:gpt-4.1-nano", "gpt-4.1"), ("meta/Llama-3.3-70B", "llama"),
    ("DeepSeek-V3-0324", "deepseek"), ("smollm2-135m", "smollm"), ("acme-7b", "acme"),
])
def test_model_family(name: str, family: str) -> None:
    assert model_family(name) == family
