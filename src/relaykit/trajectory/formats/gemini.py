"""Google Gemini ``contents``: turns with role ``user`` or ``model`` made of ``parts`` — ``text``,
``functionCall`` and ``functionResponse`` — with the system instruction outside the list.

Input is a request body (``{"contents": [...], "systemInstruction": ...}``; snake_case keys accepted too) or
the bare contents list. Function calls may carry an ``id``; when they do not, calls and responses pair by
position within their turns, as the API pairs them.

Chat view: the system instruction becomes a system message; a model turn becomes one assistant turn whose tool
calls are its ``functionCall`` parts (ids ``TURN:PART`` when the call has none); in a user turn each
``functionResponse`` part becomes a tool message and the other parts one user message.

Rules checked: roles are ``user`` / ``model``; parts have a known kind; ``functionCall`` parts appear only in
model turns and ``functionResponse`` parts only in user turns; every model turn with calls is followed by a user
turn holding exactly one response per call (same name, same id when ids are used) and no response answers
anything else.
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
    tag,
    text_of,
    tool_call,
    user_rest,
    violation,
)
from relaykit.trajectory.validate import Violation

PART_KINDS = ("text", "functionCall", "functionResponse", "function_call", "function_response", "inlineData",
              "inline_data", "fileData", "file_data", "thought", "thoughtSignature", "thought_signature",
              "executableCode", "executable_code", "codeExecutionResult", "code_execution_result")
SYSTEM_KEYS = ("systemInstruction", "system_instruction")


def _contents(obj: Any) -> list[Any] | None:
    if isinstance(obj, Mapping) and isinstance(obj.get("contents"), list):
        return list(obj["contents"])
    return list(obj) if isinstance(obj, list) else None


def _parts(turn: Mapping[str, Any]) -> list[Any]:
    parts = turn.get("parts")
    return list(parts) if isinstance(parts, list) else []


def call_of(part: Any) -> Mapping[str, Any] | None:
    if not isinstance(part, Mapping):
        return None
    call = part.get("functionCall", part.get("function_call"))
    return call if isinstance(call, Mapping) else None


def response_of(part: Any) -> Mapping[str, Any] | None:
    if not isinstance(part, Mapping):
        return None
    resp = part.get("functionResponse", part.get("function_response"))
    return resp if isinstance(resp, Mapping) else None


def detect(obj: Any) -> bool:
    if isinstance(obj, Mapping) and isinstance(obj.get("contents"), list):
        return True
    contents = _contents(obj) or []
    return bool(contents) and all(isinstance(t, Mapping) and isinstance(t.get("parts"), list) for t in contents)


def part_text(part: Any) -> str:
    if not isinstance(part, Mapping):
        return ""
    if isinstance(part.get("text"), str):
        return str(part["text"])
    resp = response_of(part)
    if resp is not None:
        body = resp.get("response")
        if isinstance(body, Mapping) and len(body) == 1 and isinstance(next(iter(body.values())), str):
            return str(next(iter(body.values())))  # {"result": "text"} reads as its text
        return body if isinstance(body, str) else json.dumps(body, ensure_ascii=False)
    return ""


def _system(obj: Any) -> Any:
    if isinstance(obj, Mapping):
        return next((obj[k] for k in SYSTEM_KEYS if obj.get(k)), None)
    return None


def call_ids(turn_index: int, turn: Mapping[str, Any]) -> list[str]:
    """The id of each functionCall part of a turn: its own ``id``, else ``TURN:PART``."""
    return [str(call.get("id") or f"{turn_index}:{j}") for j, p in enumerate(_parts(turn))
            if (call := call_of(p)) is not None]


def to_chat(obj: Any) -> ChatView:
    out: list[Msg] = []
    system = _system(obj)
    if system is not None:
        text = system if isinstance(system, str) else "\n".join(part_text(p) for p in _parts(system))
        out.append(tag({"role": "system", "content": text}, ["system"]))
    pending: list[str] = []
    for i, turn in enumerate(_contents(obj) or []):
        parts = _parts(turn)
        if turn.get("role") == "model":
            pending = call_ids(i, turn)
            out.append(tag(_assistant(parts, pending), [(i, j) for j in range(len(parts))]))
            continue
        rest = [j for j, p in enumerate(parts) if response_of(p) is None]
        answered = 0
        for j, part in enumerate(parts):
            resp = response_of(part)
            if resp is None:
                continue
            cid = str(resp.get("id") or (pending[answered] if answered < len(pending) else f"{i}:{j}"))
            answered += 1
            out.append(tag({"role": "tool", "tool_call_id": cid, "content": part_text(part)}, [(i, j)]))
        if rest or not parts:
            out.append(user_rest(i, parts, rest, part_text))
        pending = []
    return ChatView(out, obj)


def _assistant(parts: Sequence[Any], ids: list[str]) -> Msg:
    texts = [part_text(p) for p in parts if call_of(p) is None]
    made = [c for c in map(call_of, parts) if c is not None]
    calls = [tool_call(cid, str(call.get("name")), json.dumps(call.get("args", {}))) for cid, call in zip(ids, made)]
    return assistant_message(texts, calls)


def from_chat(messages: Sequence[Mapping[str, Any]], view: ChatView) -> Any:
    originals = _contents(view.original) or []
    groups = regroup(messages, to_chat(view.original).messages, lambda i: _parts(originals[i]), _edited)
    contents = [_restore(i, parts, originals) for i, parts in groups]
    if isinstance(view.original, Mapping):
        return {**view.original, "contents": contents}
    return contents


def _edited(part: Mapping[str, Any], text: str) -> dict[str, Any]:
    for key in ("functionResponse", "function_response"):
        if key in part:
            body = part[key].get("response")
            field = next(iter(body)) if isinstance(body, Mapping) and len(body) == 1 else "content"
            return {**part, key: {**part[key], "response": {field: text}}}
    return {**part, "text": text}


def _restore(i: int, parts: list[Any], originals: Sequence[Any]) -> dict[str, Any]:
    if i < 0:  # a message relaykit made itself
        return {"role": "user", "parts": [{"text": text_of(parts[0])}]}
    source = originals[i]
    return dict(source) if _parts(source) == parts else {**source, "parts": parts}


def validate(obj: Any) -> list[Violation]:
    contents = _contents(obj)
    if contents is None:
        return not_a_list("Gemini contents")
    if not contents:
        return [violation(-1, "empty", "the contents list is empty")]
    out = [v for i, t in enumerate(contents) for v in _shape(i, t)]
    return out or _pairing(contents)


def _shape(i: int, turn: Any) -> list[Violation]:
    if not isinstance(turn, Mapping) or not isinstance(turn.get("parts"), list):
        return [violation(i, "not-a-dict", "is not a turn object with a 'parts' list")]
    role = turn.get("role")
    if role not in ("user", "model"):
        return [violation(i, "unknown-role", f"has role {role!r}; Gemini accepts only 'user' and 'model'")]
    out = []
    for j, part in enumerate(_parts(turn)):
        if not isinstance(part, Mapping) or not any(k in part for k in PART_KINDS):
            out.append(violation(i, "bad-part", f"part {j} is not a known part kind"))
        elif (call := call_of(part)) is not None and (role != "model" or not isinstance(call.get("name"), str)):
            out.append(violation(i, "bad-tool-calls", f"part {j} is a functionCall outside a model turn or "
                                                      "without a name"))
        elif response_of(part) is not None and role != "user":
            out.append(violation(i, "orphan-tool-result", f"part {j} is a functionResponse outside a user turn"))
    return out


def _pairing(contents: Sequence[Mapping[str, Any]]) -> list[Violation]:
    out: list[Violation] = []
    for i, turn in enumerate(contents):
        calls = [c for p in _parts(turn) if (c := call_of(p)) is not None]
        nxt = contents[i + 1] if i + 1 < len(contents) else None
        responses = [r for p in _parts(nxt) if (r := response_of(p)) is not None] if nxt is not None and \
            nxt.get("role") == "user" else []
        if turn.get("role") == "model" and calls:
            out.extend(_match(i, calls, responses))
        prev_model = i > 0 and contents[i - 1].get("role") == "model"
        if turn.get("role") == "user" and not prev_model and any(response_of(p) for p in _parts(turn)):
            out.append(violation(i, "orphan-tool-result", "functionResponse parts must follow a model turn's calls"))
    return out


def _match(i: int, calls: list[Mapping[str, Any]], responses: list[Mapping[str, Any]]) -> list[Violation]:
    if len(responses) != len(calls):
        return [violation(i, "call-without-result", f"{len(calls)} functionCall part(s) answered by "
                                                    f"{len(responses)} functionResponse part(s) in the next turn")]
    with_ids = all(c.get("id") for c in calls)
    if with_ids:
        missing = {str(c["id"]) for c in calls} - {str(r.get("id")) for r in responses}
        return [violation(i, "call-without-result", f"functionCall {cid!r} has no response") for cid in missing]
    names = sorted(str(c.get("name")) for c in calls)
    if names != sorted(str(r.get("name")) for r in responses):
        return [violation(i + 1, "orphan-tool-result", "functionResponse names do not match the calls")]
    return []


GEMINI = register_format(MessageFormat("gemini", "Google Gemini contents", detect, to_chat, from_chat, validate))

__all__ = ["GEMINI", "call_of", "detect", "from_chat", "part_text", "response_of", "to_chat", "validate"]
