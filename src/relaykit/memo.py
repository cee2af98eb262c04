"""Run-scoped memory for pure readers of short texts.

A benchmark run reads the same lines again and again: every method's payload repeats the trace's lines, every
audit rereads the trace, and the goals of one world share most of their lines. Functions decorated with
``@remembered`` (token counts, quantities, verdicts, the evidence reader's clause tokens) remember their
answers for short texts, but only inside a ``remembering()`` block, so that a library call on a 100 MB trace
keeps its memory bound and a finished run leaves nothing behind.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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


__all__ = ["MEMO_CHARS", "active", "remembered", "remembered_whole", "remembering"]
