"""Provider message formats: exact round trip, detection, provider rules, and compression that stays valid."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from format_strategies import WRITERS, histories
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from relaykit import tokens
from relaykit.errors import UsageError
from relaykit.trajectory import BudgetTooSmall
from relaykit.trajectory.formats import compress_formatted, detect_format, get_format, validate_formatted

METHODS = ("agora", "none", "truncate", "floor", "obs-mask")
FORMATS = tuple(WRITERS)


@pytest.mark.parametrize("name", FORMATS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(history=histories())
def test_round_trip_is_exact_and_valid(name: str, history: Any) -> None:
    obj = WRITERS[name](history)
    fmt = get_format(name)
    assert detect_format(obj) == name
    assert fmt.validate(obj) == []
    view = fmt.to_chat(copy.deepcopy(obj))
    assert fmt.from_chat(view.messages, view) == obj


@pytest.mark.parametrize("name", FORMATS)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(history=histories(), method=st.sampled_from(METHODS), keep=st.floats(0.0, 1.0),
       placeholder=st.booleans())
def test_every_method_keeps_the_provider_rules(name: str, history: Any, method: str, keep: float,
                                               placeholder: bool) -> None:
    obj = WRITERS[name](history)
    before = copy.deepcopy(obj)
    dropped = "placeholder" if placeholder else "remove"
    out = compress_formatted(obj, method, keep=keep, dropped=dropped)
    assert out.format == name
    assert validate_formatted(out.messages, name) == []
    assert obj == before  # the input is never modified
    assert out.accounting.tokens_out <= out.accounting.tokens_in


@pytest.mark.parametrize("name", FORMATS)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(history=histories(), method=st.sampled_from((*METHODS, "recency", "head-tail")), share=st.integers(5, 100),
       placeholder=st.booleans())
def test_every_method_keeps_a_budget_in_every_format(name: str, history: Any, method: str, share: int,
                                                     placeholder: bool) -> None:
    obj = WRITERS[name](history)
    dropped = "placeholder" if placeholder else "remove"
    try:
        out = compress_formatted(obj, method, budget=f"{share}%", dropped=dropped)
    except BudgetTooSmall as exc:  # the floor cannot fit: a clear error with the minimum, never an overrun
        assert exc.minimum > exc.budget
        return
    assert validate_formatted(out.messages, name) == []
    assert out.accounting.budget is not None and out.accounting.tokens_out <= out.accounting.budget
    view = get_format(name).to_chat(out.messages)
    assert tokens.count_messages(view.messages) == out.accounting.tokens_out  # counted as reported


def test_thinking_blocks_travel_unmodified_with_their_turn() -> None:
    body = {"system": "You book hotels.", "max_tokens": 100, "messages": [
        {"role": "user", "content": "Find a hotel under 200 USD."},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "search first", "signature": "sig-1"},
            {"type": "tool_use", "id": "t1", "name": "search", "input": {"max": 200}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "H07 180 USD " * 50}]},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "book H07", "signature": "sig-2"},
            {"type": "tool_use", "id": "t2", "name": "book", "input": {"id": "H07"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t2", "content": "booked"}]},
    ]}
    out = compress_formatted(body, "floor", k_recent=0, dropped="placeholder")
    assert validate_formatted(out.messages) == []
    thinking = [b for m in out.messages["messages"] if m["role"] == "assistant" for b in m["content"]
                if b["type"] == "thinking"]
    originals = [b for m in body["messages"] if m["role"] == "assistant" for b in m["content"]
                 if b["type"] == "thinking"]
    assert all(block in originals for block in thinking)
    assert out.messages["system"] == "You book hotels."


def test_reasoning_item_never_separated_from_its_call() -> None:
    items: list[dict[str, Any]] = [{"role": "user", "content": "task"}]
    for k in range(6):
        items += [{"type": "reasoning", "id": f"rs_{k}", "summary": []},
                  {"type": "function_call", "call_id": f"c{k}", "name": "look", "arguments": "{}"},
                  {"type": "function_call_output", "call_id": f"c{k}", "output": "room " * 40}]
    for keep in (0.0, 0.5):
        out = compress_formatted(items, "agora", keep=keep)
        kept = out.messages
        for i, item in enumerate(kept):
            if item.get("type") == "reasoning":
                assert kept[i + 1]["type"] == "function_call"


@pytest.mark.parametrize(("name", "obj", "rule"), [
    ("responses", [{"role": "user", "content": "x"},
                   {"type": "function_call_output", "call_id": "nope", "output": "y"}], "orphan-tool-result"),
    ("responses", [{"role": "user", "content": "x"},
                   {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}], "call-without-result"),
    ("responses", [{"role": "user", "content": "x"}, {"type": "reasoning", "id": "r", "summary": []}],
     "reasoning-without-output"),
    ("anthropic", [{"role": "user", "content": "x"},
                   {"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "f", "input": {}}]},
                   {"role": "user", "content": [{"type": "text", "text": "hi"},
                                                {"type": "tool_result", "tool_use_id": "a", "content": "r"}]}],
     "tool-result-not-first"),
    ("anthropic", [{"role": "user", "content": [{"type": "thinking", "thinking": "t", "signature": "s"}]}],
     "thinking-outside-assistant"),
    ("anthropic", [{"role": "assistant", "content": "hi"}], "first-turn-not-user"),
    ("gemini", [{"role": "user", "parts": [{"text": "x"}]},
                {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]},
                {"role": "user", "parts": [{"text": "no answer"}]}], "call-without-result"),
    ("gemini", [{"role": "assistant", "parts": [{"text": "x"}]}], "unknown-role"),
])
def test_provider_rules_are_enforced(name: str, obj: Any, rule: str) -> None:
    assert rule in {v.rule for v in validate_formatted(obj, name)}
    with pytest.raises(UsageError, match="already invalid"):
        compress_formatted(obj, "agora", format=name)


def test_unknown_shape_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="cannot tell the message format"):
        detect_format({"foo": 1})


@pytest.mark.parametrize("name", FORMATS)
def test_cli_compresses_a_history_in_its_own_format(name: str, tmp_path: Any, capsys: Any) -> None:
    import json

    from format_strategies import AbstractHistory, AbstractStep

    from relaykit.cli.app import main

    long = "record R7 price 180 USD " * 30
    steps = tuple(AbstractStep(((f"c{k}", "look", long),), "go", "", "think") for k in range(6))
    obj = WRITERS[name](AbstractHistory("sys", "task", steps, ""))
    path = tmp_path / "history.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    with pytest.raises(SystemExit) as done:
        main(["compress", "trajectory", str(path), "--budget", "40%", "--json"])
    assert done.value.code in (0, None)
    out = json.loads(capsys.readouterr().out)
    assert out["format"] == name and validate_formatted(out["messages"], name) == []
    assert out["accounting"]["tokens_out"] <= out["accounting"]["budget"] < out["accounting"]["tokens_in"]
    with pytest.raises(SystemExit) as bad:
        main(["compress", "trajectory", str(path), "--format", "nosuch"])
    assert bad.value.code == 2


def test_a_masked_result_never_counts_more_tokens_than_its_original() -> None:
    # found by the test above (anthropic): the step's digest "H07" written over a 12-token "door door ..." result
    # is shorter in characters but one token longer
    from relaykit.trajectory import compress_trajectory

    call = {"role": "assistant", "content": None, "tool_calls": [
        {"id": f"c{k}", "type": "function", "function": {"name": "look", "arguments": "{}"}} for k in (0, 1)]}
    msgs = [{"role": "user", "content": "key"}, call,
            {"role": "tool", "tool_call_id": "c0", "content": "H07"},
            {"role": "tool", "tool_call_id": "c1", "content": " ".join(["door"] * 12)}]
    for _ in range(3):
        msgs += [{"role": "assistant", "content": "key"}, {"role": "user", "content": "key"}]
    out = compress_trajectory(msgs, method="agora", keep=0.0, dropped="placeholder")
    assert out.accounting.tokens_out <= out.accounting.tokens_in
