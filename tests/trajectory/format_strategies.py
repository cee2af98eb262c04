"""Hypothesis strategies: random valid histories in the OpenAI Responses, Anthropic and Gemini formats.

One abstract history (task, steps of tool calls or plain replies, an optional pending reply) is drawn, then
written in the provider's own shapes, including reasoning items and thinking blocks with signatures.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

WORDS = st.lists(st.sampled_from(["key", "door", "H07", "180 USD", "open", "/tmp/a.txt", "error", "look", "12:00",
                                  "order #4411", "box", "the"]), min_size=1, max_size=10).map(" ".join)
RESULT = st.one_of(WORDS, WORDS.map(lambda s: " ".join([s] * 12)))  # long results make masking bite


@dataclass(frozen=True)
class AbstractStep:
    calls: tuple[tuple[str, str, str], ...]  # (id, name, result)
    text: str
    reply: str  # user text after the step ("" for none)
    thinking: str


@dataclass(frozen=True)
class AbstractHistory:
    system: str
    task: str
    steps: tuple[AbstractStep, ...]
    pending: str


@st.composite
def histories(draw: st.DrawFn, max_steps: int = 12) -> AbstractHistory:
    ids = itertools.count()
    steps = []
    for _ in range(draw(st.integers(0, max_steps))):
        n_calls = draw(st.integers(0, 3))
        calls = tuple((f"call_{next(ids)}", draw(st.sampled_from(["look", "take", "search"])), draw(RESULT))
                      for _ in range(n_calls))
        reply = draw(WORDS) if not calls or draw(st.booleans()) else ""
        steps.append(AbstractStep(calls, draw(WORDS) if draw(st.booleans()) or not calls else "", reply,
                                  draw(WORDS) if draw(st.booleans()) else ""))
    pending = draw(WORDS) if draw(st.integers(0, 3)) == 0 else ""
    return AbstractHistory(draw(WORDS) if draw(st.booleans()) else "", draw(WORDS), tuple(steps), pending)


def to_responses(h: AbstractHistory) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    if h.system:
        items.append({"type": "message", "role": "developer", "content": h.system})
    items.append({"role": "user", "content": [{"type": "input_text", "text": h.task}]})
    for k, step in enumerate(h.steps):
        if step.thinking:
            items.append({"type": "reasoning", "id": f"rs_{k}", "summary": [{"type": "summary_text",
                                                                               "text": step.thinking}],
                          "encrypted_content": "gAAAA" + str(k)})
        if step.text:
            items.append({"type": "message", "role": "assistant", "id": f"msg_{k}",
                          "content": [{"type": "output_text", "text": step.text}]})
        items += [{"type": "function_call", "call_id": cid, "name": name, "arguments": json.dumps({"q": k})}
                  for cid, name, _ in step.calls]
        items += [{"type": "function_call_output", "call_id": cid, "output": result} for cid, _, result in step.calls]
        if step.reply:
            items.append({"role": "user", "content": step.reply})
    if h.pending:
        items.append({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": h.pending}]})
    return items


def to_anthropic(h: AbstractHistory) -> dict[str, Any]:
    messages: list[dict[str, Any]] = [{"role": "user", "content": h.task}]
    for step in h.steps:
        blocks: list[dict[str, Any]] = []
        if step.thinking:
            blocks.append({"type": "thinking", "thinking": step.thinking, "signature": "EqQBCgIYAhIM" + step.thinking})
        if step.text:
            blocks.append({"type": "text", "text": step.text})
        blocks += [{"type": "tool_use", "id": cid, "name": name, "input": {"q": cid}} for cid, name, _ in step.calls]
        messages.append({"role": "assistant", "content": blocks})
        answer: list[dict[str, Any]] = [{"type": "tool_result", "tool_use_id": cid, "content": result}
                                        for cid, _, result in step.calls]
        if step.reply:
            answer.append({"type": "text", "text": step.reply})
        if answer:
            messages.append({"role": "user", "content": answer})
        else:  # keep the turns alternating as the API expects
            messages.append({"role": "user", "content": "continue"})
    if h.pending:
        messages.append({"role": "assistant", "content": [{"type": "text", "text": h.pending}]})
    body: dict[str, Any] = {"model": "claude-x", "max_tokens": 1024, "messages": messages}
    if h.system:
        body["system"] = h.system
    return body


def to_gemini(h: AbstractHistory) -> dict[str, Any]:
    contents: list[dict[str, Any]] = [{"role": "user", "parts": [{"text": h.task}]}]
    for step in h.steps:
        parts: list[dict[str, Any]] = [{"text": step.text}] if step.text else []
        parts += [{"functionCall": {"name": name, "args": {"q": cid}}} for cid, name, _ in step.calls]
        if not parts:
            parts = [{"text": "ok"}]
        contents.append({"role": "model", "parts": parts})
        answer: list[dict[str, Any]] = [{"functionResponse": {"name": name, "response": {"result": result}}}
                                        for _, name, result in step.calls]
        if step.reply:
            answer.append({"text": step.reply})
        contents.append({"role": "user", "parts": answer or [{"text": "continue"}]})
    if h.pending:
        contents.append({"role": "model", "parts": [{"text": h.pending}]})
    body: dict[str, Any] = {"contents": contents}
    if h.system:
        body["systemInstruction"] = {"parts": [{"text": h.system}]}
    return body


WRITERS = {"responses": to_responses, "anthropic": to_anthropic, "gemini": to_gemini}
