"""What every message format provides: detection, a lossless view as chat messages, rendering back, rules.

relaykit compresses one structure (the chat-completions message list of ``trajectory.parse``). A provider
format is converted to that view with every chat message tagged by the provider items it came from (the
``SOURCE_KEY`` entry, which no provider API sees), compressed, and rendered back from the surviving tags:
an unchanged message gives back its original items byte for byte, a shortened or masked observation gives
back its original item with only the text replaced. Rendering the uncompressed view gives the input back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from relaykit.registry import Registry
from relaykit.trajectory.validate import Violation

Msg = dict[str, Any]
SOURCE_KEY = "_relaykit_source"
"""Key on a chat-view message naming the provider items it came from; removed again on rendering."""


@dataclass(frozen=True)
class ChatView:
    """A provider history seen as chat messages, plus what rendering back needs (the original container)."""

    messages: list[Msg]
    original: Any


@dataclass(frozen=True)
class MessageFormat:
    """One provider's message format: ``detect`` it, view it as chat, render a compressed view back, check it."""

    name: str
    description: str
    detect: Callable[[Any], bool]
    to_chat: Callable[[Any], ChatView]
    from_chat: Callable[[Sequence[Mapping[str, Any]], ChatView], Any]
    validate: Callable[[Any], list[Violation]]


FORMATS: Registry[MessageFormat] = Registry("message format", "relaykit.formats")


def register_format(fmt: MessageFormat) -> MessageFormat:
    return FORMATS.register(fmt.name, fmt)


def tag(message: Msg, source: Any) -> Msg:
    """``message`` with the provider items it came from attached."""
    return {**message, SOURCE_KEY: source}


def source_of(message: Mapping[str, Any]) -> Any:
    return message.get(SOURCE_KEY)


def text_of(message: Mapping[str, Any]) -> str:
    """The text content of a chat-view message (the compressor may have replaced it)."""
    content = message.get("content")
    return content if isinstance(content, str) else ""


def changed(message: Mapping[str, Any], original: Mapping[str, Any]) -> bool:
    return message.get("content") != original.get("content")


def tool_call(call_id: str, name: str, arguments: str) -> Msg:
    """One chat-completions tool call."""
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def assistant_message(texts: Iterable[str], calls: list[Msg]) -> Msg:
    """The chat assistant message a provider turn stands for: its texts joined, its tool calls if any."""
    message: Msg = {"role": "assistant", "content": "\n".join(t for t in texts if t)}
    if calls:
        message["tool_calls"] = calls
    return message


def user_rest(i: int, parts: Sequence[Any], rest: list[int], text: Callable[[Any], str]) -> Msg:
    """The user message made of the parts ``rest`` of turn ``i`` that are not tool results (tagged with them,
    or with the turn itself when it has no parts)."""
    return tag({"role": "user", "content": "\n".join(text(parts[j]) for j in rest)},
               [(i, j) for j in rest] or [(i, None)])


def regroup(messages: Sequence[Mapping[str, Any]], view: Sequence[Mapping[str, Any]],
            parts_of: Callable[[int], list[Any]], edited: Callable[[Any, str], Any]) -> list[tuple[int, list[Any]]]:
    """The provider turns a compressed chat view stands for, for formats whose turns hold parts (blocks).

    Each entry is (index of the original turn, its surviving parts in order); consecutive parts of one turn
    stay together. A message relaykit made itself is ``(-1, [message])``. A changed message (a shortened or
    masked observation) keeps its first part only, carrying the new text (``edited(part, text)``). ``view`` is
    the uncompressed chat view, to tell changed messages from unchanged ones.
    """
    before = {str(source_of(m)): m for m in view}
    groups: list[tuple[int, list[Any]]] = []
    for message in messages:
        source = source_of(message)
        if source == ["system"]:
            continue
        if not source:
            groups.append((-1, [message]))
            continue
        edit = changed(message, before[str(source)])
        for n, (i, j) in enumerate(source):
            if not groups or groups[-1][0] != i:
                groups.append((i, []))
            if j is None or (edit and n > 0):
                continue
            part = parts_of(i)[j]
            groups[-1][1].append(edited(part, text_of(message)) if edit else part)
    return groups


def violation(index: int, rule: str, detail: str) -> Violation:
    return Violation(index, rule, detail)


def not_a_list(kind: str) -> list[Violation]:
    return [Violation(-1, "not-a-list", f"{kind} must be a list")]


__all__ = [
    "FORMATS",
    "SOURCE_KEY",
    "ChatView",
    "MessageFormat",
    "Msg",
    "assistant_message",
    "changed",
    "register_format",
    "regroup",
    "source_of",
    "tag",
    "text_of",
    "tool_call",
    "user_rest",
    "violation",
]
