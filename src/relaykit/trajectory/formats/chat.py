"""OpenAI Chat Completions messages: relaykit's own working form (the chat view is the list itself)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from relaykit.trajectory.formats.base import SOURCE_KEY, ChatView, MessageFormat, register_format, tag
from relaykit.trajectory.validate import Violation
from relaykit.trajectory.validate import validate as validate_chat


def detect(obj: Any) -> bool:
    return isinstance(obj, list) and bool(obj) and all(isinstance(m, Mapping) and "role" in m for m in obj)


def to_chat(obj: Any) -> ChatView:
    return ChatView([tag(dict(m), [i]) for i, m in enumerate(obj)], obj)


def from_chat(messages: Sequence[Mapping[str, Any]], view: ChatView) -> Any:
    return [{k: v for k, v in m.items() if k != SOURCE_KEY} for m in messages]


def validate(obj: Any) -> list[Violation]:
    return validate_chat(obj)


CHAT = register_format(MessageFormat("chat", "OpenAI Chat Completions messages", detect, to_chat, from_chat,
                                     validate))

__all__ = ["CHAT"]
