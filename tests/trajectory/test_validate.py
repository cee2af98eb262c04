from relaykit.trajectory import validate


def call(cid: str, name: str = "look") -> dict:
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": "{}"}}


BASE = [{"role": "system", "content": "s"}, {"role": "user", "content": "task"}]


def rules(messages: list) -> list[str]:
    return [v.rule for v in validate(messages)]


def test_a_well_formed_tool_conversation_is_valid() -> None:
    msgs = [*BASE, {"role": "assistant", "content": None, "tool_calls": [call("a"), call("b")]},
            {"role": "tool", "tool_call_id": "b", "content": "x"},
            {"role": "tool", "tool_call_id": "a", "content": "y"},
            {"role": "assistant", "content": "done"}]
    assert validate(msgs) == []


def test_every_violation_is_listed_not_just_the_first() -> None:
    msgs = [*BASE, {"role": "assistant", "content": None, "tool_calls": [call("a")]},
            {"role": "user", "content": "hi"}, {"role": "tool", "tool_call_id": "zzz", "content": "x"}]
    assert rules(msgs) == ["call-without-result", "orphan-tool-result"]
    found = validate(msgs)
    assert found[0].index == 2 and found[1].index == 4 and "zzz" in str(found[1])


def test_tool_result_must_directly_follow_its_call_block() -> None:
    msgs = [*BASE, {"role": "assistant", "content": None, "tool_calls": [call("a")]},
            {"role": "user", "content": "interrupt"}, {"role": "tool", "tool_call_id": "a", "content": "late"}]
    assert set(rules(msgs)) == {"call-without-result", "orphan-tool-result"}


def test_duplicates_and_double_answers() -> None:
    msgs = [*BASE, {"role": "assistant", "content": None, "tool_calls": [call("a")]},
            {"role": "tool", "tool_call_id": "a", "content": "1"},
            {"role": "tool", "tool_call_id": "a", "content": "2"},
            {"role": "assistant", "content": None, "tool_calls": [call("a")]},
            {"role": "tool", "tool_call_id": "a", "content": "3"}]
    assert rules(msgs) == ["orphan-tool-result", "duplicate-call-id"]


def test_shape_errors_empty_and_unknown_roles() -> None:
    assert rules([]) == ["empty"]
    assert rules("hello") == ["not-a-list"]
    assert rules([{"role": "robot", "content": "x"}]) == ["unknown-role"]
    assert rules([{"role": "user"}]) == ["missing-content"]
    assert rules([{"role": "user", "content": 3}]) == ["bad-content"]
    assert "first-turn-not-user" in rules([{"role": "system", "content": "s"}, {"role": "assistant", "content": "x"}])
    assert "missing-call-id" in rules([*BASE, {"role": "tool", "content": "x"}])
    assert "bad-tool-calls" in rules([*BASE, {"role": "assistant", "content": "", "tool_calls": [{"id": "a"}]}])
