"""Offline token counting through ``bpe-openai`` (vocabularies ship inside its wheel)."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Protocol

from relaykit.errors import unknown_name
from relaykit.memo import MEMO_CHARS, remembered, remembered_whole

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


class _Counter(Protocol):
    def count(self, text: str) -> int: ...


@functools.cache
def _counter(name: str) -> _Counter:
    """bpe-openai's Rust tokenizer for one encoding, loaded on its own: importing the ``bpe_openai`` package
    reads every vocabulary it ships in Python first (about a second), and counting needs none of that. Falls
    back to the package's ``Encoding`` if the extension cannot be loaded by itself."""
    if name not in ENCODINGS:
        raise unknown_name("encoding", name, list(ENCODINGS))
    try:
        backend = _rust_bindings().tokenizer_for_encoding(name)
    except (ImportError, OSError, AttributeError, ValueError):
        enc = get_encoding(name)
        return _EncodeCounter(enc)
    return _RustCounter(backend)


def _rust_bindings() -> Any:
    import importlib.machinery
    import importlib.util
    import sys

    name = "bpe_openai._bindings"
    if name in sys.modules:
        return sys.modules[name]
    package = importlib.util.find_spec("bpe_openai")
    folders = list(package.submodule_search_locations or []) if package else []
    for folder in folders:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = f"{folder}/_bindings{suffix}"
            spec = importlib.util.spec_from_file_location(name, path)
            if spec is None or spec.loader is None or not Path(path).is_file():
                continue
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            sys.modules[name] = module
            return module
    raise ImportError("bpe-openai's compiled tokenizer was not found; pip install bpe-openai")


class _RustCounter:
    def __init__(self, backend: Any) -> None:
        self._backend = backend

    def count(self, text: str) -> int:
        try:
            return int(self._backend.count(text))
        except UnicodeEncodeError:  # lone surrogates: counted as bpe-openai's Encoding counts them
            return int(self._backend.count(text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")))


class _EncodeCounter:
    def __init__(self, enc: Encoding) -> None:
        self._enc = enc

    def count(self, text: str) -> int:
        return len(self._enc.encode(text))


def count(text: str, encoding: str = "o200k_base") -> int:
    """Number of tokens in ``text``, of any length (long texts are counted chunk by chunk). Text that spells a
    special token ("<|endoftext|>") is counted as the plain text it is."""
    if not text:
        return 0
    if len(text) <= CHUNK_CHARS:
        return _count(text, encoding) if len(text) <= MEMO_CHARS else _count_whole(text, encoding)
    return sum(_count_whole(piece, encoding) for piece in iter_chunks(text, CHUNK_CHARS))


# inside a benchmark run (relaykit.memo), which counts the same lines, and each goal's trace, many times
@remembered
def _count(text: str, encoding: str) -> int:
    return _counter(encoding).count(text)


@remembered_whole
def _count_whole(text: str, encoding: str) -> int:
    return _counter(encoding).count(text)


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
