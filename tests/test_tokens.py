import pytest

from relaykit import tokens
from relaykit.errors import UsageError


def test_count_is_offline_and_sensible() -> None:
    assert tokens.count("") == 0
    assert tokens.count("hello world") == 2
    assert tokens.count("hello world", "cl100k_base") == 2
    long = "The hotel H07 costs $180 per night. " * 50
    assert 400 < tokens.count(long) < 600


def test_unknown_encoding_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="o200k_base"):
        tokens.count("x", "p50k_nope")


def test_model_name_map() -> None:
    assert tokens.encoding_for_model("gpt-4o-mini") == "o200k_base"
    assert tokens.encoding_for_model("gpt-4-0613") == "cl100k_base"
    assert tokens.encoding_for_model("gpt-4.1-nano") == "o200k_base"
    assert tokens.encoding_for_model("openai/gpt-3.5-turbo") == "cl100k_base"
    assert tokens.encoding_for_model("some-local-model") == "o200k_base"


def test_count_messages_adds_chat_overhead() -> None:
    messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hello world"}]
    content = tokens.count("Be brief.") + tokens.count("hello world")
    roles = tokens.count("system") + tokens.count("user")
    assert tokens.count_messages(messages) == content + roles + 2 * 3 + 3


def test_count_messages_counts_tool_calls() -> None:
    call = {"role": "assistant", "content": None,
            "tool_calls": [{"id": "c1", "type": "function",
                            "function": {"name": "book_hotel", "arguments": '{"id": "H07"}'}}]}
    assert tokens.count_messages([call]) > tokens.count_messages([{"role": "assistant", "content": ""}])
