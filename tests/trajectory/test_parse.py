from hypothesis import given, settings
from hypothesis import strategies as st
from trajectory_strategies import chat_trajectories, react_transcripts

from relaykit.trajectory import parse, render

REACT = """You are in a kitchen. Task: heat the soup.
Thought: I should find the soup.
Action: look
Observation: You see a pot and a stove.
Thought 2: take it
Action 2: take pot
Observation 2: You take the pot.
Observation 2b: It is heavy.
Thought:"""


def test_chat_blocks() -> None:
    msgs = [{"role": "system", "content": "s"}, {"role": "user", "content": "task"},
            {"role": "assistant", "content": None,
             "tool_calls": [{"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "a", "content": "r"},
            {"role": "assistant", "content": "go north"}, {"role": "user", "content": "You are north."},
            {"role": "assistant", "content": "Thought: next"}]
    t = parse(msgs)
    assert [m["content"] for m in t.system] == ["s"] and [m["content"] for m in t.task] == ["task"]
    assert len(t.steps) == 2 and len(t.past) == 1 and t.current is not None
    assert t.current.observation_text == "You are north." and t.pending[0]["content"] == "Thought: next"
    assert render(t) == msgs


def test_react_blocks() -> None:
    t = parse(REACT)
    assert t.form == "react" and t.task[0]["content"].startswith("You are in a kitchen")
    assert len(t.steps) == 2 and "take pot" in t.steps[1].action_text
    assert "heavy" in t.steps[1].observation_text and t.pending[0]["content"] == "Thought:"
    assert render(t) == REACT


@settings(max_examples=80, deadline=None)
@given(chat_trajectories())
def test_chat_round_trip_is_exact(msgs: list) -> None:
    assert render(parse(msgs)) == msgs


@settings(max_examples=80, deadline=None)
@given(st.one_of(react_transcripts(), st.text(max_size=200)))
def test_react_round_trip_is_exact_for_any_text(text: str) -> None:
    assert render(parse(text)) == text
