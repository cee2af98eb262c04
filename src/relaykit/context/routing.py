"""Type routing (context stratification): split items by type and give each type its own calls."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from relaykit.errors import UsageError
from relaykit.text import runs

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class TypeBatch(Generic[T]):
    """Items of one type that go into one call; ``tokens`` is their counted size (0 when not counted)."""

    kind: str
    items: tuple[T, ...]
    tokens: int = 0


def stratify(items: Iterable[T], type_of: Callable[[T], str]) -> dict[str, list[T]]:
    """Items grouped by type, in first-seen type order, keeping each item's order within its type."""
    groups: dict[str, list[T]] = {}
    for item in items:
        groups.setdefault(type_of(item), []).append(item)
    return groups


def batches(
    items: Iterable[T],
    type_of: Callable[[T], str],
    *,
    max_items: int | None = None,
    max_tokens: int | None = None,
    count: Callable[[T], int] | None = None,
) -> list[TypeBatch[T]]:
    """Per-type batches no larger than ``max_items`` items and ``max_tokens`` tokens (by ``count``).

    An item bigger than ``max_tokens`` on its own gets a batch of its own rather than being dropped.
    """
    if max_items is not None and max_items < 1:
        raise UsageError(f"max_items must be at least 1, not {max_items}")
    if max_tokens is not None and count is None:
        raise UsageError("max_tokens needs count=, a function giving each item's token count")
    size = count or (lambda _item: 0)
    out: list[TypeBatch[T]] = []
    for kind, group in stratify(items, type_of).items():
        sized = [(item, size(item)) for item in group]  # each item counted once
        for run in runs(sized, lambda pair: pair[1], max_tokens, max_items=max_items):
            out.append(TypeBatch(kind, tuple(item for item, _ in run), sum(n for _, n in run)))
    return out


def route_by_type(
    items: Iterable[T],
    type_of: Callable[[T], str],
    handlers: Mapping[str, Callable[[Sequence[T]], R]],
    *,
    default: Callable[[Sequence[T]], R] | None = None,
    max_items: int | None = None,
    max_tokens: int | None = None,
    count: Callable[[T], int] | None = None,
) -> dict[str, list[R]]:
    """Call each type's handler once per batch of that type's items; results grouped by type.

    A type without a handler goes to ``default``; with no default it is a ``UsageError`` naming it.
    """
    plan = batches(items, type_of, max_items=max_items, max_tokens=max_tokens, count=count)
    missing = sorted({b.kind for b in plan if b.kind not in handlers} if default is None else set())
    if missing:
        raise UsageError(f"no handler for item type(s) {', '.join(missing)}; add handlers or pass default=")
    results: dict[str, list[R]] = {}
    for batch in plan:
        handler = handlers.get(batch.kind, default)
        assert handler is not None
        results.setdefault(batch.kind, []).append(handler(batch.items))
    return results
