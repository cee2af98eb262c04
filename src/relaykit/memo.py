"""Run-scoped memory for pure readers of short texts.

A benchmark run reads the same lines again and again: every method's payload repeats the trace's lines, every
audit rereads the trace, and the goals of one world share most of their lines. Functions decorated with
``@remembered`` (token counts, quantities, verdicts, the evidence reader's clause tokens) remember their
answers for short texts, but only inside a ``remembering()`` block, so that a library call on a 100 MB trace
keeps its memory bound and a finished run leaves nothing behind.

``Kept`` goes one step further for a few pure, deterministic readers whose answers a repeated run asks for
again (the relay lab's reference reader): answers kept between runs in an SQLite file under ``RELAYKIT_HOME``,
keyed by relaykit's version, a digest of the source of the code that computes them and the input itself, so
that a changed input, a changed reader or another release computes afresh.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

R = TypeVar("R")

MEMO_CHARS = 4000
"""Texts longer than this are never remembered."""
MAX_ENTRIES = 200_000
"""Entries a block keeps per function before it starts afresh (a bound for very long runs)."""
WHOLE_ENTRIES = 64
"""The same bound for ``remembered_whole`` functions, whose arguments may be long."""

_lock = threading.Lock()
_depth = 0
_tables: list[dict[Any, Any]] = []  # one per remembered function, emptied when the outermost block ends


@contextmanager
def remembering() -> Iterator[None]:
    """Within this block (nestable, across threads), ``@remembered`` functions remember their answers."""
    global _depth
    with _lock:
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                for table in _tables:
                    table.clear()


def active() -> bool:
    return _depth > 0


def remembered(fn: Callable[..., R]) -> Callable[..., R]:
    """Remember ``fn``'s answers inside ``remembering()`` blocks, for arguments of at most ``MEMO_CHARS``
    characters; ``fn`` must be pure, its arguments hashable, its answer immutable (a tuple, a frozen dataclass,
    a frozenset, a number or a string)."""
    return _remember(fn, MEMO_CHARS, MAX_ENTRIES)


def remembered_whole(fn: Callable[..., R]) -> Callable[..., R]:
    """``remembered`` for texts of any length (a whole trace read once per goal and reused by each method), for
    a few dozen distinct arguments at a time."""
    return _remember(fn, None, WHOLE_ENTRIES)


def _remember(fn: Callable[..., R], max_chars: int | None, max_entries: int) -> Callable[..., R]:
    table: dict[Any, Any] = {}
    _tables.append(table)
    limit = max_chars if max_chars is not None else -1

    @functools.wraps(fn)
    def wrapper(*args: Any) -> R:
        if not _depth:
            return fn(*args)
        if limit >= 0:
            for arg in args:
                if isinstance(arg, str) and len(arg) > limit:
                    return fn(*args)
        try:
            value: R = table[args]
        except KeyError:
            value = fn(*args)
            if len(table) >= max_entries:
                table.clear()
            table[args] = value
        return value

    return wrapper


def source_digest(modules: Iterable[str], version: str) -> str:
    """A digest of ``version`` (relaykit's) and the source of ``modules`` (dotted names; a package stands for
    every ``.py`` file under it), read from disk, so that an edited reader never meets its old answers."""
    import importlib.util

    digest = hashlib.sha256(version.encode())
    for name in sorted(modules):
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            raise ValueError(f"no source for module {name!r}")
        origin = Path(spec.origin)
        files = sorted(origin.parent.rglob("*.py")) if origin.name == "__init__.py" else [origin]
        for file in files:
            digest.update(f"\0{name}:{file.relative_to(origin.parent)}\0".encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()


class Kept:
    """JSON answers of one pure reader kept between runs (``path`` is an SQLite file, created 0600).

    ``salt`` names the reader and its code (see ``source_digest``); an answer is stored under the digest of
    the salt and the input text, so any change to either misses. New answers are written together by
    ``flush`` (a cache: a lost write is computed again next time). Thread-safe.
    """

    def __init__(self, path: Path | str, salt: str) -> None:
        self.path = Path(path)
        if not self.path.parent.exists():
            self.path.parent.mkdir(parents=True, mode=0o700, exist_ok=True)
        if not self.path.exists():
            os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))
        self.salt = salt
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=OFF")
        self._db.execute("CREATE TABLE IF NOT EXISTS kept (digest TEXT PRIMARY KEY, answer TEXT)")
        self._pending: dict[str, str] = {}
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def digest(self, text: str) -> str:
        return hashlib.blake2b(f"{self.salt}\0{text}".encode(), digest_size=20).hexdigest()

    def get(self, text: str) -> Any | None:
        """The answer kept for ``text``, or None."""
        key = self.digest(text)
        with self._lock:
            stored = self._pending.get(key)
            if stored is None:
                row = self._db.execute("SELECT answer FROM kept WHERE digest = ?", (key,)).fetchone()
                stored = row[0] if row else None
            if stored is None:
                self.misses += 1
                return None
            self.hits += 1
        return json.loads(stored)

    def put(self, text: str, answer: Any) -> None:
        encoded = json.dumps(answer, separators=(",", ":"))
        with self._lock:
            self._pending[self.digest(text)] = encoded

    def flush(self) -> None:
        """Write the new answers in one transaction."""
        with self._lock:
            rows, self._pending = list(self._pending.items()), {}
            if rows:
                with self._db:
                    self._db.execute("BEGIN")
                    self._db.executemany("INSERT OR REPLACE INTO kept VALUES (?, ?)", rows)

    def close(self) -> None:
        self.flush()
        with self._lock:
            self._db.close()


__all__ = ["MEMO_CHARS", "Kept", "active", "remembered", "remembered_whole", "remembering", "source_digest"]
