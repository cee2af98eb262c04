"""Offline token counting through ``bpe-openai`` (vocabularies ship inside its wheel)."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from relaykit.errors import UsageError

ENCODINGS = ("o200k_base", "cl100k_base")

# Model-name prefixes to encodings; the longest matching prefix wins.
MODEL_ENCODINGS: dict[str, str] = {
    "gpt-4o": "o200k_base",
    "gpt-4.1": "o200k_base",
    "gpt-4.5": "o200k_base",
    "gpt-5": "o200k_base",
    "o1": "o200k_base",
    "o3": "o200k_base",
    "o4": "o200k_base",
    "gpt-4": "cl100k_base",
    "gpt-3.5": "cl100k_base",
    "text-embedding-3": "cl100k_base",
    "text-embedding-ada": "cl100k_base",
}

# Chat-format overhead, as OpenAI documents it for its chat models.
TOKENS_PER_MESSAGE = 3
TOKENS_PER_NAME = 1
TOKENS_REPLY_PRIMER = 3


class Encoding(Protocol):
    def encode(self, text: str) -> list[int]: ...


@functools.cache
def get_encoding(name: str = "o200k_base") -> Encoding:
    """The tokenizer for an encoding name; raises ``UsageError`` for an unknown one."""
    if name not in ENCODINGS:
        raise UsageError(f"unknown encoding {name!r}; use one of: {', '.join(ENCODINGS)}")
    import bpe_openai

    enc: Encoding = bpe_openai.get_encoding(name)
    return enc


def encoding_for_model(model: str) -> str:
    """The encoding a model name uses (o200k_base for names we do not know)."""
    name = model.split("/")[-1].lower()
    matches = [p for p in MODEL_ENCODINGS if name.startswith(p)]
    return MODEL_ENCODINGS[max(matches, key=len)] if matches else "o200k_base"


def count(text: str, encoding: str = "o200k_base") -> int:
    """Number of tokens in ``text``."""
    if not text:
        return 0
    return len(get_encoding(encoding).encode(text))


def message_text(message: Mapping[str, Any]) -> str:
    """All the text a chat message carries: content (string or parts) and tool calls."""
    parts: list[str] = []
    content = message.get("content")
    if isinstance(content, str):
        parts.append(content)
    elif isinstance(content, list):
        parts.extend(str(p.get("text", "")) for p in content if isinstance(p, Mapping))
    for call in message.get("tool_calls") or ():
        fn = call.get("function", {}) if isinstance(call, Mapping) else {}
        parts.append(f"{fn.get('name', '')}({fn.get('arguments', '')})")
    return "\n".join(p for p in parts if p)


def count_messages(messages: Iterable[Mapping[str, Any]], encoding: str = "o200k_base") -> int:
    """Tokens a chat request takes, with the per-message and reply-primer overhead."""
    total = TOKENS_REPLY_PRIMER
    for message in messages:
        total += TOKENS_PER_MESSAGE + count(message_text(message), encoding)
        total += count(str(message.get("role", "")), encoding)
        if message.get("name"):
            total += TOKENS_PER_NAME + count(str(message["name"]), encoding)
    return total


__all__ = ["count", "count_messages", "encoding_for_model", "get_encoding", "message_text"]
