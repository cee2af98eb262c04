"""Hypothesis strategies: random but valid agent trajectories in both input forms."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

TEXT = st.lists(st.sampled_from([*"abcdef xyz()[]{}:,.\n0123", "Action: ", "Observation: "]), max_size=30).map("".join)
WORDS = st.lists(st.sampled_from(["key", "door", "open", "go north", "take lamp", "error", "look", "box", "a"]),
                 min_size=0, max_size=8).map(" ".join)
CONTENT = st.one_of(WORDS, TEXT)


@st.composite
def tool_step(draw: st.DrawFn, ids: Any) -> list[dict[str, Any]]:
    n = draw(st.integers(1, 3))
    calls = [{"id": f"call_{next(ids)}", "type": "function",
              "function": {"name": draw(st.sampled_from(["look", "take", "search"])), "arguments": "{}"}}
             for _ in range(n)]
    content = draw(st.one_of(st.none(), CONTENT))
    msgs: list[dict[str, Any]] = [{"role": "assistant", "content": content, "tool_calls": calls}]
    msgs += [{"role": "tool", "tool_call_id": c["id"], "content": draw(CONTENT)} for c in calls]
    if draw(st.booleans()):
        msgs.append({"role": "user", "content": draw(CONTENT)})
    return msgs


@st.composite
def text_step(draw: st.DrawFn) -> list[dict[str, Any]]:
    msgs: list[dict[str, Any]] = [{"role": "assistant", "content": draw(CONTENT)}]
    if draw(st.integers(0, 4)):
        msgs.append({"role": "user", "content": draw(CONTENT)})
    return msgs


@st.composite
def chat_trajectories(draw: st.DrawFn) -> list[dict[str, Any]]:
    import itertools

    ids = itertools.count()
    msgs: list[dict[str, Any]] = []
    if draw(st.booleans()):
        msgs.append({"role": "system", "content": draw(CONTENT)})
    msgs.append({"role": "user", "content": draw(CONTENT)})
    for _ in range(draw(st.integers(0, 14))):
        msgs += draw(st.one_of(tool_step(ids), text_step()))
    if draw(st.integers(0, 3)) == 0:
        msgs.append({"role": "assistant", "content": draw(CONTENT)})
    return msgs


@st.composite
def react_transcripts(draw: st.DrawFn) -> str:
    parts = [draw(WORDS) + "\n"]
    for i in range(draw(st.integers(0, 10))):
        parts.append(f"Thought {i}: {draw(WORDS)}\nAction {i}: {draw(WORDS)}\n")
        parts.append(f"Observation {i}: {draw(CONTENT)}\n")
    if draw(st.booleans()):
        parts.append("Thought:")
    return "".join(parts)
