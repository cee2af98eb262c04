"""Offline token counting through ``bpe-openai`` (vocabularies ship inside its wheel)."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Protocol

from relaykit.errors import unknown_name

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
        raise unknown_name("encoding", name, list(ENCODINGS))
    import bpe_openai

    enc: Encoding = bpe_openai.get_encoding(name)
    return enc


def encoding_for_model(model: str) -> str:
    """The encoding a model name uses (o200k_base for names we do not know)."""
    name = model.split("/")[-1].lower()
    matches = [p for p in MODEL_ENCODINGS if name.startswith(p)]
    return MODEL_ENCODINGS[max(matches, key=len)] if matches else "o200k_base"


CHUNK_CHARS = 100_000
"""Texts longer than this are counted in whitespace-aligned chunks: the tokenizer refuses very long inputs,
and a chunk boundary at whitespace changes the count by at most a token or two per chunk."""


def count(text: str, encoding: str = "o200k_base") -> int:
    """Number of tokens in ``text``, of any length (long texts are counted chunk by chunk)."""
    if not text:
        return 0
    enc = get_encoding(encoding)
    if len(text) <= CHUNK_CHARS:
        return len(enc.encode(text))
    total = 0
    for piece in iter_chunks(text, CHUNK_CHARS):
        total += len(enc.encode(piece))
    return total


def iter_chunks(text: str, size: int = CHUNK_CHARS) -> Iterator[str]:
    """``text`` in pieces of at most ``size`` characters, cut just before whitespace where there is any."""
    start, length = 0, len(text)
    while start < length:
        end = min(start + size, length)
        if end < length:
            space = max(text.rfind(" ", start + size // 2, end), text.rfind("\n", start + size // 2, end))
            end = space if space > start else end
        yield text[start:end]
        start = end


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


__all__ = [
    "CHUNK_CHARS",
    "count",
    "count_messages",
    "encoding_for_model",
    "get_encoding",
    "iter_chunks",
    "message_text",
]
