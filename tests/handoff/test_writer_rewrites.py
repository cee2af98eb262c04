"""The compact writer's speed rewrites (fourteenth wave) give what the forms they replace gave: each old form is
kept here and compared with the new one, on random rows and on every row the corpus' payloads write."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Iterator
from copy import deepcopy
from typing import Any

import pytest

from relaykit.handoff import compact
from relaykit.handoff.compact_body import BREAK, SEP, Item, items_of, keys_of, parse_row, side_run, sides
from relaykit.handoff.compact_labels import _BARE, Key, Labelling, Moved
from relaykit.handoff.compact_rules import (
    MONEY_LABELS,
    RATE_ADJECTIVES,
    RATE_WORDS,
    Wanted,
    filler_form,
    named_in,
    singular,
    stems,
)
from relaykit.handoff.corpus import STYLES, corpus
from relaykit.handoff.evidence import read_evidence
from relaykit.handoff.text import CURRENCY_CODES

_TOKENS = ["Rate", "rate", "night", "km", "a", "B", ";", "", f"5{SEP}USD", f"7{SEP}km", f"1{SEP}#", f"2{SEP};",
           f"{SEP}", "x", "X", f"5{SEP}USD{SEP}km"]
_NONE: frozenset[str] = frozenset()


def _bodies(seed: int, n: int = 3000) -> Iterator[str]:
    rng = random.Random(seed)
    for _ in range(n):
        yield " ".join(rng.choice(_TOKENS) for _ in range(rng.randrange(14)))


def test_parse_row_parses_as_items_of_then_keys_of() -> None:
    for body in _bodies(5):
        items = items_of(body)
        assert parse_row(body) == (items, keys_of(items)), body


def _old_sides(items: list[Item], i: int) -> tuple[list[int], list[int]]:
    """``compact_body.sides`` as it was written: word by word."""
    before: list[int] = []
    j = i - 1
    while j >= 0 and items[j][1] is None and len(before) < 3:
        before.append(j)
        j -= 1
    after: list[int] = []
    j, end = i + 1, len(items)
    while j < end and items[j][1] is None and len(after) < 2:
        after.append(j)
        j += 1
    return before, after


def test_sides_are_the_words_the_old_walk_found() -> None:
    for body in _bodies(6):
        items = items_of(body)
        for i in range(len(items)):
            assert sides(items, i) == _old_sides(items, i), (body, i)


def _old_strip(self: Labelling, items: list[Item], keys: dict[int, Key]) -> tuple[set[int], dict[Key, Moved]]:
    """``Labelling._strip`` as it was written (before the fourteenth wave)."""
    gone: set[int] = set()
    near = {i: _old_sides(items, i) for i in keys}
    money = [(i, key) for i, key in keys.items() if key[0] in CURRENCY_CODES]
    said: dict[Key, list[int]] = {key: [] for _, key in money}
    for side in (1, 0):
        for i, key in money:
            if near[i][side]:
                moved = side_run(items, near[i][side], gone, RATE_WORDS, _NONE, _NONE, _NONE)
                gone.update(moved)
                said[key] += moved
    for before in (True, False):
        names, at_side = (self.names, 0) if before else (_NONE, 1)
        for i, key in keys.items():
            moved = said.setdefault(key, [])
            if near[i][at_side]:
                labels, bound = self.side_words.get((key, before)) or self._side_words(key, before)
                per = RATE_ADJECTIVES if before and key[0] in CURRENCY_CODES else _NONE
                run = side_run(items, near[i][at_side], gone, labels, names, bound, per)
            else:
                run = []
            if before:
                run += self._written(items, i, gone)
            gone.update(run)
            moved += run
    at = {key: i for i, key in keys.items()}
    return gone, {key: tuple((items[j][0].lower(), j - at[key]) for j in sorted(set(js))) if js else ()
                  for key, js in said.items()}


def _checked(monkeypatch: pytest.MonkeyPatch, name: str, old: Callable[..., Any]) -> list[int]:
    """Wrap ``_Group.<name>`` so every call also runs ``old`` and asserts the same answer; counts the calls."""
    new = getattr(compact._Group, name)
    calls: list[int] = []

    def both(self: compact._Group, *args: Any) -> Any:
        got = new(self, *args)
        assert got == old(self, *args), args
        calls.append(1)
        return got

    monkeypatch.setattr(compact._Group, name, both)
    return calls


def _old_bare_labels(self: Labelling, items: list[Item]) -> set[int]:
    """``Labelling._bare_labels`` as it was written: each word's tests made in the loop (``label_words`` is set)."""
    assert self.label_words is not None
    out: set[int] = set()
    start, bare = 0, True
    priced = per = last = False
    for j, (word, unit) in enumerate([*items, (BREAK, BREAK)]):
        if unit == BREAK:
            if bare and j > start and (priced or not (per or last)):
                out.update(range(start, min(j, len(items))))
            start, bare, priced, per, last = j + 1, True, False, False, False
        elif bare:
            low = word.lower()
            priced = priced or low in MONEY_LABELS
            rate = low in RATE_WORDS and low not in self.protected
            per = per or (rate and low not in RATE_ADJECTIVES)
            last = rate and low not in self.priced_rates
            bare = unit is None and (low in self.label_words or singular(low) in self.label_words
                                     or (low[:5] in self.goal_stems and low not in self.protected)
                                     or (low in RATE_WORDS and low not in self.protected))
    return out


@pytest.mark.pure_python
@pytest.mark.parametrize(("name", "old"), [("_strip", _old_strip), ("_bare_labels", _old_bare_labels)])
def test_the_writer_step_answers_as_its_old_form(monkeypatch: pytest.MonkeyPatch, name: str,
                                                 old: Callable[..., Any]) -> None:
    """``_strip`` moves what the old ``_strip`` moved; ``_bare_labels`` finds the clauses the old loop found."""
    calls = _checked(monkeypatch, name, old)
    for t in corpus(STYLES, seeds=2):
        read_evidence(t.trace, t.goal).text()
    assert len(calls) > 1000


def _old_free(self: Labelling, items: list[Item], gone: set[int], labelled: dict[str, None],
              seen: dict[str, list[tuple[str, str]]] | None = None) -> list[str]:
    """``Labelling._free`` as it was written: each word's tests made in the loop."""
    out: list[str] = []
    leading = True
    stripped = ""
    last = len(items) - 1
    for j, (word, unit) in enumerate(items):
        if unit == BREAK:
            leading = True
            continue
        if unit is not None or j in gone:
            continue
        lowered = word.lower()
        if filler_form(lowered) and lowered not in self.protected:
            continue
        named = singular(lowered) in self.goal_names
        goal_name = named or lowered[:5] in self.goal_stems
        label = (goal_name or lowered in self.names or lowered in self.written_labels) if leading else \
            self._labels_too(lowered, goal_name, stripped)
        after = items[j + 1][0].lower() if label and j < last and items[j + 1][1] is None else ""
        if label and lowered not in self.protected and after and after not in _BARE:
            labelled[lowered] = None
            if seen is not None:
                then = items[j + 2][0].lower() if j + 1 < last and items[j + 2][1] is None else ""
                seen[lowered].append((after, then))
            leading = False
            stripped = lowered
            continue
        if not leading and out and out[-1].lower() not in _BARE and named \
                and lowered not in self.protected and items[j + 1:j + 2] in ([], [(BREAK, BREAK)]):
            continue
        out.append(word)
        leading, stripped = False, ""
    return out


@pytest.mark.pure_python
def test_free_keeps_the_words_the_old_loop_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    new = compact._Group._free
    calls: list[int] = []

    def both(self: compact._Group, items: list[Item], gone: set[int], labelled: dict[str, None],
             seen: dict[str, list[tuple[str, str]]] | None = None) -> list[str]:
        old_labelled, old_seen = dict(labelled), None if seen is None else defaultdict(list, deepcopy(seen))
        got = new(self, items, gone, labelled, seen)
        assert got == _old_free(self, items, gone, old_labelled, old_seen)
        assert list(old_labelled) == list(labelled) and (seen is None or old_seen == seen)
        calls.append(1)
        return got

    monkeypatch.setattr(compact._Group, "_free", both)
    for t in corpus(STYLES, seeds=2):
        read_evidence(t.trace, t.goal).text()
    assert len(calls) > 1000


def test_lacks_is_the_old_lacking() -> None:
    rng = random.Random(9)
    pool = ["pool", "Pool", "gym", "wifi", "us-east", "none", ""]
    for _ in range(2000):
        want = Wanted("amenity", tuple(w.lower() for w in rng.sample(pool, rng.randrange(3))))
        words = rng.sample(pool, rng.randrange(5))
        old = not all(w in {x.lower() for x in words} for w in want.words)
        assert want.lacking(words) == want.lacks({x.lower() for x in words}) == old, (want, words)


@pytest.mark.pure_python
def test_named_once_is_named_in(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def plain(item: str, heads: tuple[list[frozenset[str]], list[frozenset[str]]], which: int,
              found: dict[tuple[str, int], int | None]) -> int | None:
        calls.append(1)
        return named_in(item, heads[which], stems if which else None)

    traces = list(corpus(STYLES, seeds=2))
    fast = [read_evidence(t.trace, t.goal).text() for t in traces]
    monkeypatch.setattr(compact, "_named_once", plain)
    assert [read_evidence(t.trace, t.goal).text() for t in traces] == fast
    assert len(calls) > 1000
