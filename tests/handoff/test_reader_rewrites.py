"""The thirteenth wave's speed-ups of extract-rules keep its answers: each is checked against the form it replaces."""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable

import pytest

from relaykit.handoff import evidence, lexicon
from relaykit.handoff.compact_body import SEP, Item, count_near, items_of, keys_of, parse_row
from relaykit.handoff.compact_rules import column_words, named_in, singular, stems
from relaykit.handoff.corpus import STYLES, corpus
from relaykit.handoff.evidence import _Reader, read_evidence
from relaykit.handoff.reading import _OPENER, clauses_of, without_opener
from relaykit.handoff.table import Row
from relaykit.handoff.text import DEFAULT_ID_RE
from relaykit.text import iter_sentences


def test_row_add_clause_is_add_break_then_extend() -> None:
    rng = random.Random(13)
    words = ["a", "ab", "b", ";", "180\x1fUSD", "ab-c", "c", "a;", "USD", " ;", ""]
    bodies = ["", ";", "a ;", "a", "a ; b", " ;"]
    for _ in range(4000):
        body = rng.choice(bodies) if rng.random() < 0.2 else " ".join(rng.choice(words)
                                                                      for _ in range(rng.randrange(6)))
        tokens = [rng.choice(words) for _ in range(rng.randrange(7))]
        one, two = Row("X1", body=body), Row("X1", body=body)
        one.add_break()
        one.extend(tokens)
        two.add_clause(tokens)
        assert two.body == one.body, (body, tokens)


def test_without_opener_cuts_what_the_opener_substitution_cut() -> None:
    clauses = [c for t in corpus(STYLES, seeds=1) for s in iter_sentences(t.trace) for c in clauses_of(s)]
    clauses += ["Starting with MR3: 40 seats", "AS FOR MR8, it is out", "as to HT1", "Next up, HT2", "next up HT2",
                "First off, x", "Then, HT4 fails", "then then HT4", "on to HT5", "Moving on to X1", "going on with",
                "x as for y", "", "then", "Then,", "ſtarting with X1", "As for as for HT1"]
    for clause in clauses:
        assert without_opener(clause) == _OPENER.sub("", clause), clause


def _named_column(item: str, heads: list[list[str]], stem: Callable[[str], frozenset[str]] | None = None) -> int | None:
    """``compact_rules.named_column`` as it was written: each column's words worked out again for every item."""
    said = stem(item) if stem else {singular(w) for w in item.split(" ")}
    fits = [k for k, words in enumerate(heads)
            if said & (stem(" ".join(words)) if stem else {singular(w) for w in words})]
    return fits[0] if len(fits) == 1 else None


def test_named_in_precomputed_columns_is_named_column() -> None:
    rng = random.Random(5)
    vocabulary = ["price", "prices", "rate", "distance", "centre", "stars", "star", "amenities", "amenity", "night",
                  "nightly", "USD", "km", "Distances", "facilities", "certification", "certified", "x", "pet"]
    for _ in range(3000):
        heads = [[rng.choice(vocabulary) for _ in range(rng.randrange(4))] for _ in range(rng.randrange(5))]
        item = " ".join(rng.choice(vocabulary) for _ in range(1 + rng.randrange(3)))
        for stem in (None, stems):
            assert named_in(item, column_words(heads, stem), stem) == _named_column(item, heads, stem), (item, heads)


def _near(items: list[Item], i: int) -> list[int]:
    """The indices ``count_near`` once read through a list: the words right before value ``i`` (up to 3) and right
    after it (up to 2), in order."""
    before: list[int] = []
    j = i - 1
    while j >= 0 and items[j][1] is None and len(before) < 3:
        before.insert(0, j)
        j -= 1
    after: list[int] = []
    j = i + 1
    while j < len(items) and items[j][1] is None and len(after) < 2:
        after.append(j)
        j += 1
    return before + after


def _plain_count_near(items: list[Item], i: int, slots: defaultdict[int, Counter[str]], seen: Counter[str]) -> None:
    """``compact_body.count_near`` as it was written: through the list ``_near`` builds."""
    words: set[str] = set()
    for j in _near(items, i):
        word = items[j][0].lower()
        slot = slots[j - i]
        slot[word] = slot.get(word, 0) + 1
        words.add(word)
    for word in words:
        seen[word] = seen.get(word, 0) + 1


def test_count_near_counts_what_the_near_list_gave() -> None:
    rng = random.Random(11)
    tokens = ["Rate", "rate", "night", "km", "a", "B", ";", f"5{SEP}USD", f"7{SEP}km", f"1{SEP}#", "x", "X"]
    for _ in range(3000):
        body = " ".join(rng.choice(tokens) for _ in range(rng.randrange(12)))
        items, keys = parse_row(body)
        assert (items, keys) == (items_of(body), keys_of(items_of(body)))
        fast: tuple[defaultdict[int, Counter[str]], Counter[str]] = (defaultdict(Counter), Counter())
        plain: tuple[defaultdict[int, Counter[str]], Counter[str]] = (defaultdict(Counter), Counter())
        for i in keys:
            count_near(items, i, *fast)
            _plain_count_near(items, i, *plain)
        assert fast == plain, body
        assert [list(s) for s in fast[0].values()] == [list(s) for s in plain[0].values()]  # the same order
        assert list(fast[0]) == list(plain[0]) and list(fast[1]) == list(plain[1])


def test_a_verdict_mark_is_never_ascii() -> None:
    # verdict_of looks for a mark only in a text that is not all ASCII
    assert lexicon._MARKS and all(not mark.isascii() for mark in lexicon._MARKS)
    assert not any(lexicon._MARK_RE.match(chr(c)) for c in range(128))


def test_a_clause_naming_options_targets_its_first_id_as_target_did() -> None:
    reader = _Reader(DEFAULT_ID_RE, None, "a hotel under 200 USD", [])
    clauses = [c for t in corpus(STYLES, seeds=1) for s in iter_sentences(t.trace) for c in clauses_of(s)]
    for clause in clauses:
        ids = reader.ids(clause)
        if ids:
            for previous in (None, "ZZ9"):
                assert reader._target(clause, ids, previous) == (ids[0], clause, False), clause


def _tables(traces: list[tuple[str, str]]) -> list[tuple[str, list[tuple[str, str, str, str, list[int]]], list[str]]]:
    out = []
    for trace, goal in traces:
        table = read_evidence(trace, goal)
        rows = [(r.id, r.body, r.verdicts, r.reason, list(r.sentences)) for r in table.rows.values()]
        out.append((table.text(), rows, table.notes))
    return out


@pytest.mark.pure_python
def test_the_clause_memory_bounds_change_no_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    traces = [(t.trace, t.goal) for t in corpus(STYLES, seeds=1)]
    remembered = _tables(traces)
    monkeypatch.setattr(evidence, "CLAUSE_MEMORY", 3)  # a generation change every few clauses
    monkeypatch.setattr(evidence, "NAMED_MEMORY", 2)
    assert _tables(traces) == remembered


@pytest.mark.pure_python
def test_a_clause_read_before_a_full_memory_is_not_read_again_after(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(evidence, "CLAUSE_MEMORY", 4)
    reader = _Reader(DEFAULT_ID_RE, None, "a hotel under 200 USD", [])
    read: list[str] = []
    plain = reader._read
    monkeypatch.setattr(reader, "_read", lambda text, shared: read.append(text) or plain(text, shared))
    clauses = [f"it has {n} stars" for n in range(1, 6)]  # the fifth fills the memory: a new generation
    for clause in [*clauses, clauses[0], clauses[4], clauses[1]]:
        reader._apply("HT01", clause)
    assert read == clauses  # each read once (a memory emptied when full read the first two again)
    assert reader.rows["HT01"].body.split(" ;")[0] == "1\x1fstars"
