import pytest
from pydantic import BaseModel

from relaykit.errors import AllModelsFailed, InvalidOutput, ModelTimeout, RateLimited, ServerError, UsageError
from relaykit.models import ChatRequest
from relaykit.models.fallback import Backoff, FallbackChain
from relaykit.telemetry import FALLBACK, MemorySink, Telemetry
from relaykit.testing import ScriptedModel


class Answer(BaseModel):
    value: int


def chain(*models: ScriptedModel, **kwargs: object) -> tuple[FallbackChain, list[float]]:
    waits: list[float] = []
    return FallbackChain(list(models), sleep=waits.append, seed=1, **kwargs), waits  # type: ignore[arg-type]


def test_first_model_answers_without_fallback() -> None:
    a, b = ScriptedModel(["hi"], name="a"), ScriptedModel(["no"], name="b")
    fc, waits = chain(a, b)
    response = fc.complete("hello")
    assert response.text == "hi" and response.metadata["fallback_count"] == 0
    assert b.calls == 0 and waits == []


def test_skips_models_whose_window_cannot_hold_the_request() -> None:
    small = ScriptedModel(["small"], name="small", context_window=60)
    big = ScriptedModel(["big"], name="big", context_window=100_000)
    sink = MemorySink()
    fc, _ = chain(small, big, telemetry=Telemetry(sink))
    response = fc.complete("word " * 100, max_tokens=16)
    assert response.text == "big" and response.metadata["served_by"] == "big"
    assert small.calls == 0, "the oversized payload must never be forwarded to the small model"
    [event] = sink.of(FALLBACK)
    assert event.fields["reason"] == "ContextWindowExceeded" and event.fields["to_model"] == "big"
    # a short request still goes to the small model first
    assert fc.complete("hi", max_tokens=16).text == "small"


def test_retries_with_backoff_then_falls_back_and_honours_retry_after() -> None:
    a = ScriptedModel([RateLimited("429", retry_after=3.0), ModelTimeout("slow"), ServerError("500")], name="a")
    b = ScriptedModel(["ok"], name="b")
    fc, waits = chain(a, b, retries=2, backoff=Backoff(base_s=0.1, cap_s=1.0))
    assert fc.complete("q").text == "ok"
    assert a.calls == 3 and b.calls == 1
    assert len(waits) == 2
    assert waits[0] >= 3.0, "a server's retry-after must be honoured"
    assert 0.1 <= waits[1] <= 0.2, "second wait is jittered within base*2"


def test_long_retry_after_moves_on_instead_of_hanging() -> None:
    a = ScriptedModel([RateLimited("429", retry_after=600.0)], name="a")
    b = ScriptedModel(["ok"], name="b")
    fc, waits = chain(a, b)
    assert fc.complete("q").text == "ok"
    assert waits == [] and a.calls == 1


def test_invalid_structured_output_falls_back_without_retrying_same_model() -> None:
    a = ScriptedModel(["not json"], name="a")
    b = ScriptedModel([{"value": 3}], name="b")
    fc, waits = chain(a, b)
    response = fc.complete(ChatRequest.of("give a number", schema=Answer))
    assert response.parsed == Answer(value=3)
    assert a.calls == 1 and waits == []


def test_all_models_failed_lists_every_attempt() -> None:
    a = ScriptedModel(fail_with=ServerError("boom"), name="a")
    b = ScriptedModel(name="b", context_window=10)
    c = ScriptedModel(["garbage"], name="c")
    fc, _ = chain(a, b, c, retries=1)
    with pytest.raises(AllModelsFailed) as info:
        fc.complete(ChatRequest.of("give a number please", schema=Answer, max_tokens=32))
    group = info.value
    kinds = [type(e).__name__ for e in group.exceptions]
    assert kinds == ["ServerError", "ServerError", "ContextWindowExceeded", "InvalidOutput"]
    assert "a#1: ServerError" in str(group) and "b#0" in str(group) and "c#1: InvalidOutput" in str(group)
    assert isinstance(group, BaseExceptionGroup)  # noqa: F821 - a builtin from 3.11


def test_other_errors_propagate_immediately() -> None:
    a = ScriptedModel([UsageError("bad input")], name="a")
    b = ScriptedModel(["ok"], name="b")
    fc, _ = chain(a, b)
    with pytest.raises(UsageError, match="bad input"):
        fc.complete("q")
    assert b.calls == 0


def test_fallback_on_is_configurable() -> None:
    a = ScriptedModel([InvalidOutput("x")], name="a")
    fc, _ = chain(a, ScriptedModel(["ok"], name="b"), fallback_on=(RateLimited,))
    with pytest.raises(InvalidOutput):
        fc.complete("q")


def test_bad_configuration_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="at least one model"):
        FallbackChain([])
    with pytest.raises(UsageError, match="retries"):
        FallbackChain([ScriptedModel()], retries=-1)


def test_check_fits_uses_each_members_window() -> None:
    from relaykit.errors import ContextWindowExceeded

    fc, _ = chain(ScriptedModel(name="s", context_window=50), ScriptedModel(name="b", context_window=400))
    assert fc.check_fits(ChatRequest.of("word " * 100, max_tokens=16)) > 100
    with pytest.raises(ContextWindowExceeded, match="no model of fallback"):
        fc.check_fits(ChatRequest.of("word " * 1000, max_tokens=16))


def test_a_request_over_a_million_characters_moves_to_the_larger_window() -> None:
    small = ScriptedModel(["small"], name="small-8k", context_window=8_192)
    large = ScriptedModel(["large"], name="large-2m", context_window=2_000_000)
    fc, _ = chain(small, large)
    response = fc.complete("The hotel H07 costs $180 per night. " * 40_000, max_tokens=64)  # 1.44 M characters
    assert response.text == "large" and response.metadata["served_by"] == "large-2m"
    assert small.calls == 0


def test_backoff_never_waits_past_the_deadline() -> None:
    a = ScriptedModel([ServerError("500"), ServerError("500")], name="a")
    b = ScriptedModel(["ok"], name="b")
    fc, waits = chain(a, b, deadline=5.0, retries=3, backoff=Backoff(base_s=30.0, cap_s=60.0))
    assert fc.complete("q").text == "ok"
    assert waits == [] and a.calls == 1, "a 15-30 s wait cannot fit a 5 s deadline: move on at once"
