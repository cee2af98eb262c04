from dataclasses import dataclass

import pytest

from relaykit.context import batches, route_by_type, stratify
from relaykit.errors import UsageError


@dataclass(frozen=True)
class Msg:
    kind: str
    text: str


ITEMS = [Msg("email", "e1"), Msg("meeting", "m1"), Msg("email", "e2"), Msg("chat", "c1"), Msg("email", "e3")]


def kind(m: Msg) -> str:
    return m.kind


def test_stratify_keeps_order_within_types() -> None:
    groups = stratify(ITEMS, kind)
    assert list(groups) == ["email", "meeting", "chat"]
    assert [m.text for m in groups["email"]] == ["e1", "e2", "e3"]


def test_batches_respect_item_and_token_limits() -> None:
    plan = batches(ITEMS, kind, max_items=2)
    assert [(b.kind, len(b.items)) for b in plan] == [("email", 2), ("email", 1), ("meeting", 1), ("chat", 1)]
    sized = batches(ITEMS, kind, max_tokens=5, count=lambda m: 3)
    assert all(b.tokens <= 5 for b in sized) and sum(len(b.items) for b in sized) == 5
    big = batches([Msg("email", "x")], kind, max_tokens=1, count=lambda m: 10)
    assert len(big) == 1 and big[0].tokens == 10


def test_route_calls_each_type_separately() -> None:
    seen: list[tuple[str, ...]] = []

    def handler(items: object) -> int:
        seen.append(tuple(m.text for m in items))  # type: ignore[attr-defined]
        return len(seen)

    out = route_by_type(ITEMS, kind, {"email": handler, "meeting": handler}, default=handler)
    assert seen == [("e1", "e2", "e3"), ("m1",), ("c1",)]
    assert out == {"email": [1], "meeting": [2], "chat": [3]}
    with pytest.raises(UsageError, match="no handler for item type"):
        route_by_type(ITEMS, kind, {"email": handler})
    with pytest.raises(UsageError, match="count="):
        batches(ITEMS, kind, max_tokens=3)
