"""Anthropic Messages: ``user`` / ``assistant`` messages of content blocks — ``text``, ``tool_use`` /
``tool_result``, ``thinking`` / ``redacted_thinking`` — with the system prompt outside the list.

Input is a request body (``{"system": ..., "messages": [...]}``) or the bare message list.

Chat view: the system prompt becomes a system message; in a user message each ``tool_result`` block becomes a
tool message and the remaining blocks one user message; an assistant message becomes one assistant turn whose
tool calls are its ``tool_use`` blocks. Thinking blocks stay inside their assistant turn, so they are kept or
dropped with it and never edited (signature included); their text counts towards the turn's tokens.

Rules checked (the ones the API enforces): roles are ``user`` / ``assistant`` and the list opens with a user
message; blocks have known types and their required fields; ``tool_use`` ids are unique; every ``tool_use`` is
answered by one ``tool_result`` in the very next message, which is a user message whose content starts with its
tool results; every ``tool_result`` answers a ``tool_use`` of the assistant message right before it; thinking
blocks appear only in assistant messages.
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
    not_a_list,
    register_format,
    regroup,
    source_of,
    tag,
    text_of,
    tool_call,
    user_rest,
    violation,
)
from relaykit.trajectory.validate import Violation

BLOCK_TYPES = frozenset({"text", "image", "document", "tool_use", "tool_result", "thinking", "redacted_thinking",
                         "server_tool_use", "web_search_tool_result", "search_result"})
THINKING = frozenset({"thinking", "redacted_thinking"})


def _messages(obj: Any) -> list[Any] | None:
    if isinstance(obj, Mapping) and isinstance(obj.get("messages"), list):
        return list(obj["messages"])
    return list(obj) if isinstance(obj, list) else None


def blocks(message: Mapping[str, Any]) -> list[Any]:
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return list(content) if isinstance(content, list) else []


def detect(obj: Any) -> bool:
    messages = _messages(obj)
    if isinstance(obj, Mapping) and ("system" in obj or "max_tokens" in obj) and messages and all(
            isinstance(m, Mapping) and m.get("role") in ("user", "assistant") and "tool_calls" not in m
            for m in messages):
        return True  # a request body; an OpenAI body has system or tool messages, or tool_calls, instead

    if not messages:
        return False
    return any(isinstance(m, Mapping) and isinstance(m.get("content"), list) and
               any(isinstance(b, Mapping) and b.get("type") in {"tool_use", "tool_result", *THINKING}
                   for b in m["content"]) for m in messages)


def block_text(block: Any) -> str:
    if not isinstance(block, Mapping):
        return ""
    typ = block.get("type")
    if typ == "text":
        return str(block.get("text", ""))
    if typ == "thinking":
        return str(block.get("thinking", ""))
    if typ == "tool_result":
        content = block.get("content")
        if isinstance(content, list):
            return "\n".join(block_text(b) for b in content)
        return "" if content is None else str(content)
    return ""


def _system_text(system: Any) -> str:
    if isinstance(system, list):
        return "\n".join(block_text(b) for b in system)
    return str(system or "")


def to_chat(obj: Any) -> ChatView:
    out: list[Msg] = []
    if isinstance(obj, Mapping) and obj.get("system"):
        out.append(tag({"role": "system", "content": _system_text(obj["system"])}, ["system"]))
    for i, message in enumerate(_messages(obj) or []):
        parts = blocks(message)
        if message.get("role") == "assistant":
            out.append(tag(_assistant(parts), [(i, j) for j in range(len(parts))]))
            continue
        rest = [j for j, b in enumerate(parts) if not (isinstance(b, Mapping) and b.get("type") == "tool_result")]
        for j, block in enumerate(parts):
            if j not in rest:
                out.append(tag({"role": "tool", "tool_call_id": str(block.get("tool_use_id")),
                                "content": block_text(block)}, [(i, j)]))
        if rest or not parts:
            out.append(user_rest(i, parts, rest, block_text))
    return ChatView(out, obj)


def _assistant(parts: Sequence[Any]) -> Msg:
    texts = [block_text(b) for b in parts if isinstance(b, Mapping) and b.get("type") != "tool_use"]
    calls = [tool_call(str(b.get("id")), str(b.get("name")), json.dumps(b.get("input", {})))
             for b in parts if isinstance(b, Mapping) and b.get("type") == "tool_use"]
    return assistant_message(texts, calls)


def from_chat(messages: Sequence[Mapping[str, Any]], view: ChatView) -> Any:
    originals = _messages(view.original) or []
    groups = regroup(messages, to_chat(view.original).messages, lambda i: blocks(originals[i]), _edited)
    rebuilt = [_restore(i, parts, originals) for i, parts in groups]
    if isinstance(view.original, Mapping):
        body = {**view.original, "messages": rebuilt}
        if not any(source_of(m) == ["system"] for m in messages):
            body.pop("system", None)
        return body
    return rebuilt


def _edited(block: Mapping[str, Any], text: str) -> dict[str, Any]:
    if block.get("type") == "tool_result":
        return {**block, "content": text}
    return {"type": "text", "text": text}


def _restore(i: int, parts: list[Any], originals: Sequence[Any]) -> dict[str, Any]:
    """The original message when all its blocks survived unchanged, else a copy holding the surviving blocks."""
    if i < 0:  # a message relaykit made itself
        return {"role": str(parts[0].get("role", "user")), "content": [{"type": "text", "text": text_of(parts[0])}]}
    source = originals[i]
    return dict(source) if blocks(source) == parts else {**source, "content": parts}


def validate(obj: Any) -> list[Violation]:
    messages = _messages(obj)
    if messages is None:
        return not_a_list("Anthropic messages")
    if not messages:
        return [violation(-1, "empty", "the message list is empty")]
    out = [v for i, m in enumerate(messages) for v in _shape(i, m)]
    if out:
        return out
    if messages[0].get("role") != "user":
        out.append(violation(0, "first-turn-not-user", "the conversation must open with a user message"))
    return out + _pairing(messages)


def _shape(i: int, message: Any) -> list[Violation]:
    if not isinstance(message, Mapping):
        return [violation(i, "not-a-dict", f"is {type(message).__name__}, not a message object")]
    role = message.get("role")
    if role not in ("user", "assistant"):
        return [violation(i, "unknown-role", f"has role {role!r}; Anthropic accepts only 'user' and 'assistant'")]
    content = message.get("content")
    if not isinstance(content, (str, list)):
        return [violation(i, "bad-content", "content must be a string or a list of blocks")]
    out = []
    for j, block in enumerate(blocks(message)):
        typ = block.get("type") if isinstance(block, Mapping) else None
        if typ not in BLOCK_TYPES:
            out.append(violation(i, "bad-block", f"block {j} has unknown type {typ!r}"))
        elif typ in THINKING and role != "assistant":
            out.append(violation(i, "thinking-outside-assistant", f"block {j} is {typ} in a {role} message"))
        elif typ == "tool_use" and (role != "assistant" or not isinstance(block.get("id"), str)):
            out.append(violation(i, "bad-tool-calls", f"block {j} is a tool_use without an id or outside an "
                                                      "assistant message"))
        elif typ == "tool_result" and (role != "user" or not isinstance(block.get("tool_use_id"), str)):
            out.append(violation(i, "missing-call-id", f"block {j} is a tool_result without a tool_use_id or "
                                                       "outside a user message"))
    return out


def _pairing(messages: Sequence[Mapping[str, Any]]) -> list[Violation]:
    out: list[Violation] = []
    seen: set[str] = set()
    for i, message in enumerate(messages):
        parts = blocks(message)
        if message.get("role") == "assistant":
            uses = [str(b["id"]) for b in parts if b.get("type") == "tool_use"]
            for cid in uses:
                if cid in seen:
                    out.append(violation(i, "duplicate-call-id", f"reuses tool_use id {cid!r}"))
                seen.add(cid)
            out.extend(_answered(i, uses, messages[i + 1] if i + 1 < len(messages) else None))
        elif i == 0 or messages[i - 1].get("role") != "assistant":
            out.extend(violation(i, "orphan-tool-result", f"tool_result {b.get('tool_use_id')!r} does not follow "
                                 "an assistant tool_use") for b in parts if b.get("type") == "tool_result")
    return out


def _answered(i: int, uses: list[str], nxt: Mapping[str, Any] | None) -> list[Violation]:
    parts = blocks(nxt) if nxt is not None and nxt.get("role") == "user" else []
    results = [str(b.get("tool_use_id")) for b in parts if b.get("type") == "tool_result"]
    leading = 0
    while leading < len(parts) and parts[leading].get("type") == "tool_result":
        leading += 1
    out = [violation(i, "call-without-result", f"tool_use {cid!r} has no tool_result in the next user message")
           for cid in uses if cid not in results]
    out += [violation(i + 1, "orphan-tool-result", f"tool_result {cid!r} answers no tool_use of the message "
                      "before it") for cid in results if cid not in uses]
    out += [violation(i + 1, "duplicate-tool-result", f"tool_use {cid!r} is answered more than once")
            for cid in set(results) if results.count(cid) > 1]
    if leading < len(results):
        out.append(violation(i + 1, "tool-result-not-first", "tool_result blocks must come first in the user "
                                                             "message's content"))
    return out


ANTHROPIC = register_format(MessageFormat(
    "anthropic", "Anthropic Messages API", detect, to_chat, from_chat, validate))

__all__ = ["ANTHROPIC", "block_text", "blocks", "detect", "from_chat", "to_chat", "validate"]
