import pytest
from pydantic import BaseModel

from relaykit.accounting import Tally
from relaykit.errors import ContextWindowExceeded, InvalidOutput, UsageError
from relaykit.models import ChatRequest, complete_structured, open_model
from relaykit.testing import ScriptedModel


class Booking(BaseModel):
    hotel_id: str
    flight_id: str


def test_empty_messages_and_unknown_role_are_usage_errors() -> None:
    with pytest.raises(UsageError, match="empty"):
        ChatRequest.of([])
    with pytest.raises(UsageError, match="unknown role 'robot'"):
        ChatRequest.of([{"role": "robot", "content": "hi"}])
    with pytest.raises(UsageError, match="message 0"):
        ChatRequest.of(["just a string"])  # type: ignore[list-item]


def test_invalid_json_schema_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="not a valid JSON schema"):
        ChatRequest.of("hi", schema={"type": "no-such-type"})


def test_scripted_model_records_requests_and_answers_in_order() -> None:
    model = ScriptedModel(["one", "two"])
    assert model.complete("a").text == "one"
    assert model.complete([{"role": "user", "content": "b"}]).text == "two"
    assert [r.messages[-1]["content"] for r in model.requests] == ["a", "b"]


def test_context_window_is_checked_before_any_call() -> None:
    model = ScriptedModel(["never"], context_window=50)
    with pytest.raises(ContextWindowExceeded) as info:
        model.complete("word " * 100, max_tokens=10)
    assert model.calls == 0
    assert info.value.window == 50 and info.value.needed > 50


def test_structured_output_repairs_then_succeeds_and_sums_usage() -> None:
    model = ScriptedModel(['{"hotel_id": "H1"}', "not json", '{"hotel_id": "H1", "flight_id": "F2"}'])
    usage = Tally()
    value = complete_structured(model, "book", Booking, usage=usage)
    assert value == Booking(hotel_id="H1", flight_id="F2")
    assert usage.model_calls == 3
    # the second request carries the validation errors of the first answer
    repair = model.requests[1].messages[-1]["content"]
    assert "flight_id" in repair and "not valid" in repair
    assert usage.prompt_tokens == sum(model.count_messages(r.messages) for r in model.requests)


def test_structured_output_gives_up_with_the_raw_text() -> None:
    model = ScriptedModel(["nope"] * 3)
    with pytest.raises(InvalidOutput) as info:
        complete_structured(model, "book", Booking, max_repairs=2)
    assert info.value.raw_text == "nope"
    assert model.calls == 3


def test_structured_output_with_a_json_schema_dict() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    model = ScriptedModel(['{"n": "x"}', '{"n": 3}'])
    assert complete_structured(model, "count", schema) == {"n": 3}


def test_open_model_specs() -> None:
    with pytest.raises(UsageError) as info:
        open_model("gpt4")
    for form in ("local", "openai:MODEL", "openai-compat:BASE_URL#MODEL", "scripted"):
        assert form in str(info.value)
    with pytest.raises(UsageError, match="BASE_URL#MODEL"):
        open_model("openai-compat:http://localhost:1234")
    assert open_model("scripted").name == "scripted"


def test_missing_api_key_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(UsageError, match="OPENAI_API_KEY"):
        open_model("openai:gpt-4.1-nano")


def test_the_guard_refuses_the_embedded_model() -> None:
    model = open_model("local")
    with pytest.raises(pytest.fail.Exception, match="embedded_model"):
        model.complete("hi")


def test_async_complete_answers_like_sync() -> None:
    import asyncio

    model = ScriptedModel(["async answer"])
    response = asyncio.run(model.acomplete("hi"))
    assert response.text == "async answer" and model.calls == 1


def test_structured_usage_sums_completion_tokens_of_every_attempt() -> None:
    from relaykit.tokens import count

    answers = ["oops", '{"hotel_id": "H1", "flight_id": "F1"}']
    model = ScriptedModel(list(answers))
    usage = Tally()
    complete_structured(model, "book", Booking, usage=usage)
    assert usage.completion_tokens == sum(count(a) for a in answers)
