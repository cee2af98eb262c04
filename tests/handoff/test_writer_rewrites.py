"""The compact writer's speed rewrites give what the forms they replace gave (on varied inputs)."""

from __future__ import annotations

import random

from relaykit.handoff.compact_body import SEP, Item, items_of, keys_of, parse_row

_TOKENS = ["Rate", "rate", "night", "km", "a", "B", ";", "", f"5{SEP}USD", f"7{SEP}km", f"1{SEP}#", f"2{SEP};",
           f"{SEP}", "x", "X", f"5{SEP}USD{SEP}km"]


def test_parse_row_with_shared_items_parses_as_items_of_then_keys_of() -> None:
    rng = random.Random(5)
    memo: dict[str, Item] = {}
    for _ in range(3000):
        body = " ".join(rng.choice(_TOKENS) for _ in range(rng.randrange(14)))
        items = items_of(body)
        assert parse_row(body, memo) == (items, keys_of(items)) == parse_row(body), body
