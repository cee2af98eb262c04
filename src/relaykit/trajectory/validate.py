"""Structural validity of a chat message list, as provider APIs check it.

``validate(messages)`` lists every violation instead of stopping at the first, so a caller (or the
``UsageError`` relaykit raises for invalid input) can show them all. The rules:

- the list is non-empty and every item is a dict with a known role;
- after any leading system/developer messages, the conversation opens with a user message;
- an assistant message's ``tool_calls`` are well formed, with ids unique in the list;
- every tool call is answered by exactly one ``tool`` message, in the block of tool messages that
  immediately follows its assistant message;
- every ``tool`` message answers a call of the assistant message right before its block.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

ROLES = ("system", "developer", "user", "assistant", "tool")
SYSTEM_ROLES = frozenset({"system", "developer"})


@dataclass(frozen=True)
class Violation:
    """One rule a message list breaks; ``index`` is the offending message (-1: the whole list)."""

    index: int
    rule: str
    detail: str

    def __str__(self) -> str:
        where = "the list" if self.index < 0 else f"message {self.index}"
        return f"{where}: {self.detail} [{self.rule}]"


def call_ids(message: Mapping[str, Any]) -> list[str]:
    """The ids of an assistant message's tool calls (empty when it has none)."""
    calls = message.get("tool_calls") or ()
    return [str(c.get("id")) for c in calls if isinstance(c, Mapping) and c.get("id")]


def _shape(i: int, message: Any) -> list[Violation]:
    if not isinstance(message, Mapping):
        return [Violation(i, "not-a-dict", f"is {type(message).__name__}, not a dict with 'role' and 'content'")]
    role = message.get("role")
    if role not in ROLES:
        return [Violation(i, "unknown-role", f"has unknown role {role!r}; use one of: {', '.join(ROLES)}")]
    content = message.get("content")
    if content is not None and not isinstance(content, (str, list)):
        return [Violation(i, "bad-content", f"content is {type(content).__name__}; use a string or a list of parts")]
    if content is None and not (role == "assistant" and message.get("tool_calls")):
        return [Violation(i, "missing-content", "has no content (only an assistant turn with tool_calls may omit it)")]
    if role == "tool" and not isinstance(message.get("tool_call_id"), str):
        return [Violation(i, "missing-call-id", "is a tool result without a 'tool_call_id'")]
    return _call_shape(i, message) if role == "assistant" else []


def _call_shape(i: int, message: Mapping[str, Any]) -> list[Violation]:
    calls = message.get("tool_calls")
    if calls is None:
        return []
    if not isinstance(calls, list):
        return [Violation(i, "bad-tool-calls", "tool_calls is not a list")]
    out = []
    for j, call in enumerate(calls):
        fn = call.get("function") if isinstance(call, Mapping) else None
        if not isinstance(call, Mapping) or not isinstance(call.get("id"), str) or not call.get("id"):
            out.append(Violation(i, "bad-tool-calls", f"tool call {j} has no string 'id'"))
        elif not isinstance(fn, Mapping) or not isinstance(fn.get("name"), str):
            out.append(Violation(i, "bad-tool-calls", f"tool call {call.get('id')!r} has no function name"))
    return out


def _order(messages: Sequence[Mapping[str, Any]]) -> list[Violation]:
    first = next((i for i, m in enumerate(messages) if m.get("role") not in SYSTEM_ROLES), None)
    if first is not None and messages[first].get("role") != "user":
        role = messages[first].get("role")
        return [Violation(first, "first-turn-not-user", f"the conversation opens with {role!r}, not 'user'")]
    return []


def _pairing(messages: Sequence[Mapping[str, Any]]) -> list[Violation]:
    out: list[Violation] = []
    seen_ids: set[str] = set()
    open_calls: dict[str, int] = {}  # call id -> index of its assistant message, awaiting a result
    block_owner: int | None = None  # the assistant message whose tool-result block we are in
    for i, m in enumerate(messages):
        role = m.get("role")
        if role == "tool":
            cid = str(m.get("tool_call_id"))
            if block_owner is None or open_calls.get(cid) != block_owner:
                answered = cid in seen_ids and cid not in open_calls
                detail = ("answers a call already answered" if answered
                          else f"answers call id {cid!r}, which the assistant turn right before it did not make")
                out.append(Violation(i, "orphan-tool-result", detail))
            else:
                del open_calls[cid]
            continue
        out.extend(_unanswered(open_calls))
        open_calls.clear()
        block_owner = None
        if role == "assistant":
            for cid in call_ids(m):
                if cid in seen_ids:
                    out.append(Violation(i, "duplicate-call-id", f"reuses tool call id {cid!r}"))
                seen_ids.add(cid)
                open_calls[cid] = i
            block_owner = i if open_calls else None
    out.extend(_unanswered(open_calls))
    return out


def _unanswered(open_calls: Mapping[str, int]) -> list[Violation]:
    return [Violation(i, "call-without-result", f"tool call {cid!r} has no tool result right after it")
            for cid, i in open_calls.items()]


def validate(messages: Any) -> list[Violation]:
    """Every structural violation in ``messages`` (an empty list means provider APIs accept it)."""
    if isinstance(messages, (str, bytes)) or not isinstance(messages, Sequence):
        return [Violation(-1, "not-a-list", "messages must be a list of {'role': ..., 'content': ...} dicts")]
    if not messages:
        return [Violation(-1, "empty", "the message list is empty")]
    shape = [v for i, m in enumerate(messages) for v in _shape(i, m)]
    if any(v.rule in {"not-a-dict", "unknown-role"} for v in shape):
        return shape
    return sorted(shape + _order(messages) + _pairing(messages), key=lambda v: (v.index, v.rule))


def is_valid(messages: Any) -> bool:
    return not validate(messages)


__all__ = ["Violation", "call_ids", "is_valid", "validate"]
