"""OpenAI Responses API input items: ``message``, ``function_call`` / ``function_call_output`` paired by
``call_id``, and ``reasoning`` items.

Chat view: user, system and developer messages map one to one; a run of assistant-side items (reasoning,
assistant messages, function calls and any other output item) is one assistant turn whose tool calls are the
function calls; each ``function_call_output`` is a tool message. A reasoning item therefore always travels with
the call or message it precedes: both sit in the same assistant turn, which relaykit keeps or drops whole.

Rules checked (the ones the API enforces): items are objects of a known shape; call ids are unique; every
``function_call_output`` answers an earlier, unanswered ``function_call``; every call gets an output; a
``reasoning`` item is followed by the assistant output item it belongs to.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from relaykit.trajectory.formats.base import (
    ChatView,
    MessageFormat,
    Msg,
    assistant_message,
    changed,
    not_a_list,
    register_format,
    source_of,
    tag,
    text_of,
    tool_call,
    violation,
)
from relaykit.trajectory.validate import Violation

CALL_TYPES = frozenset({"function_call", "custom_tool_call"})
OUTPUT_TYPES = frozenset({"function_call_output", "custom_tool_call_output"})
INPUT_ROLES = frozenset({"user", "system", "developer"})


def _items(obj: Any) -> list[Any] | None:
    if isinstance(obj, Mapping) and isinstance(obj.get("input"), list):
        return list(obj["input"])
    return list(obj) if isinstance(obj, list) else None


def kind(item: Any) -> str:
    """``message``, a call type, an output type, ``reasoning``, or the item's own type."""
    if not isinstance(item, Mapping):
        return "invalid"
    typ = item.get("type")
    if typ is None and "role" in item:
        return "message"
    return str(typ)


def detect(obj: Any) -> bool:
    items = _items(obj)
    if not items:
        return False
    return any(kind(i) in CALL_TYPES | OUTPUT_TYPES | {"reasoning"} or (kind(i) == "message" and "type" in i)
               or _typed_parts(i.get("content")) for i in items if isinstance(i, Mapping))


def _typed_parts(content: Any) -> bool:
    """Content parts only the Responses API uses (``input_text``, ``output_text``...)."""
    return isinstance(content, list) and any(
        isinstance(p, Mapping) and str(p.get("type", "")).startswith(("input_", "output_")) for p in content)


def content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [str(p.get("text", "")) for p in content if isinstance(p, Mapping) and "text" in p]
        return "\n".join(parts)
    return "" if content is None else json.dumps(content)


def _reasoning_text(item: Mapping[str, Any]) -> str:
    return content_text(item.get("summary")) or content_text(item.get("content"))


def to_chat(obj: Any) -> ChatView:
    items = _items(obj) or []
    out: list[Msg] = []
    turn: list[int] = []
    for i, item in enumerate(items):
        k = kind(item)
        if k == "message" and item.get("role") in INPUT_ROLES:
            _flush(out, turn, items)
            out.append(tag({"role": item["role"], "content": content_text(item.get("content"))}, [i]))
        elif k in OUTPUT_TYPES:
            _flush(out, turn, items)
            out.append(tag({"role": "tool", "tool_call_id": str(item.get("call_id")),
                            "content": content_text(item.get("output"))}, [i]))
        else:
            turn.append(i)
    _flush(out, turn, items)
    return ChatView(out, obj)


def _flush(out: list[Msg], turn: list[int], items: Sequence[Any]) -> None:
    if not turn:
        return
    texts, calls = [], []
    for i in turn:
        item = items[i]
        k = kind(item)
        if k in CALL_TYPES:
            args = item.get("arguments", item.get("input", ""))
            calls.append(tool_call(str(item.get("call_id")), str(item.get("name")), content_text(args)))
        elif k == "reasoning":
            texts.append(_reasoning_text(item))
        elif k == "message":
            texts.append(content_text(item.get("content")))
    out.append(tag(assistant_message(texts, calls), list(turn)))
    turn.clear()


def from_chat(messages: Sequence[Mapping[str, Any]], view: ChatView) -> Any:
    items = _items(view.original) or []
    originals = {i: m for m in to_chat(view.original).messages for i in (source_of(m) or [])}
    rendered: list[Any] = []
    for message in messages:
        source = source_of(message)
        if not source:
            rendered.append({"type": "message", "role": message.get("role", "user"), "content": text_of(message)})
            continue
        first = items[source[0]]
        if len(source) == 1 and changed(message, originals[source[0]]):
            rendered.append(_replaced(first, text_of(message)))
        else:
            rendered.extend(items[i] for i in source)
    if isinstance(view.original, Mapping):
        return {**view.original, "input": rendered}
    return rendered


def _replaced(item: Mapping[str, Any], text: str) -> dict[str, Any]:
    if kind(item) in OUTPUT_TYPES:
        return {**item, "output": text}
    content = item.get("content")
    if isinstance(content, list):
        part_type = "output_text" if item.get("role") == "assistant" else "input_text"
        return {**item, "content": [{"type": part_type, "text": text}]}
    return {**item, "content": text}


def validate(obj: Any) -> list[Violation]:
    items = _items(obj)
    if items is None:
        return not_a_list("Responses input")
    if not items:
        return [violation(-1, "empty", "the input list is empty")]
    out = [v for i, item in enumerate(items) for v in _shape(i, item)]
    if out:
        return out
    return _pairing(items) + _reasoning(items)


def _shape(i: int, item: Any) -> list[Violation]:
    k = kind(item)
    if k == "invalid":
        return [violation(i, "not-a-dict", f"is {type(item).__name__}, not an input item object")]
    if k == "message":
        if item.get("role") not in INPUT_ROLES | {"assistant"}:
            return [violation(i, "unknown-role", f"message has unknown role {item.get('role')!r}")]
        if not isinstance(item.get("content"), (str, list)):
            return [violation(i, "bad-content", "message content must be a string or a list of parts")]
    if k in CALL_TYPES | OUTPUT_TYPES and not isinstance(item.get("call_id"), str):
        return [violation(i, "missing-call-id", f"{k} has no string 'call_id'")]
    if k in CALL_TYPES and not isinstance(item.get("name"), str):
        return [violation(i, "bad-tool-calls", f"{k} has no string 'name'")]
    return []


def _pairing(items: Sequence[Any]) -> list[Violation]:
    out: list[Violation] = []
    calls: dict[str, int] = {}
    answered: set[str] = set()
    for i, item in enumerate(items):
        k, cid = kind(item), str(item.get("call_id"))
        if k in CALL_TYPES:
            if cid in calls:
                out.append(violation(i, "duplicate-call-id", f"reuses call_id {cid!r}"))
            calls[cid] = i
        elif k in OUTPUT_TYPES:
            if cid not in calls or cid in answered:
                detail = "answers a call already answered" if cid in answered else \
                    f"answers call_id {cid!r}, which no earlier function_call made"
                out.append(violation(i, "orphan-tool-result", detail))
            answered.add(cid)
    out.extend(violation(i, "call-without-result", f"function call {cid!r} has no function_call_output")
               for cid, i in calls.items() if cid not in answered)
    return out


def _reasoning(items: Sequence[Any]) -> list[Violation]:
    out = []
    for i, item in enumerate(items):
        if kind(item) != "reasoning":
            continue
        nxt = items[i + 1] if i + 1 < len(items) else None
        ok = nxt is not None and (kind(nxt) in CALL_TYPES or kind(nxt) == "reasoning" or
                                  (kind(nxt) == "message" and nxt.get("role") == "assistant"))
        if not ok:
            out.append(violation(i, "reasoning-without-output",
                                 "a reasoning item must be followed by the call or assistant message it precedes"))
    return out


RESPONSES = register_format(MessageFormat(
    "responses", "OpenAI Responses API input items", detect, to_chat, from_chat, validate))

__all__ = ["RESPONSES", "content_text", "detect", "from_chat", "kind", "to_chat", "validate"]
