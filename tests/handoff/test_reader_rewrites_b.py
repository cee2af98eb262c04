"""More of the thirteenth wave's speed-ups of extract-rules, each checked against the form it replaces."""

from __future__ import annotations

import random

import pytest

from relaykit.handoff import compact
from relaykit.handoff.compact import family
from relaykit.handoff.compact_body import Item, parse_row
from relaykit.handoff.corpus import STYLES, corpus
from relaykit.handoff.evidence import read_evidence
from relaykit.handoff.options import _CHUNK, _rated_near, _ratings
from relaykit.handoff.text import DEFAULT_ID_RE

_PIECES = ["rated ", "Rated: ", "RATING ", "rating of ", "class ", "Class A ", "grade=", "certified ", "standard ",
           "protection an ", "ratingrade ", "claſs ", "ratings  ", "xclass ", "upgrade ", "standards ", "IP67",
           "IP68", "IP-7", "A2", "B3", "HT01", "HT02", "ISO-9001", "ISO9001", "AB12x", "AB12-", "aIP6", " ",
           "  ", " " * 9, "\t" * 13, ", ", ". ", "\n", "with ", "the ", "of ", "a ", "-", "é", "İ", "9"]


def _rated_near_of(trace: str) -> set[str]:
    found = DEFAULT_ID_RE.findall(trace)
    return _rated_near(trace, found, {i: family(i) for i in set(found)})


def _ratings_of(trace: str) -> set[str]:
    return _ratings(trace, DEFAULT_ID_RE, {i: family(i) for i in set(DEFAULT_ID_RE.findall(trace))})


def test_rated_near_gives_what_the_walk_over_every_id_gave() -> None:
    rng = random.Random(12)
    for _ in range(6000):
        trace = "".join(rng.choice(_PIECES) for _ in range(rng.randrange(1, 30)))
        assert _rated_near_of(trace) == _ratings_of(trace), trace


def test_rated_near_on_the_corpus_and_across_chunks() -> None:
    traces = [t.trace for t in corpus(STYLES, seeds=1)]
    traces += ["Sealed units: rated IP67, IP68 for X1 and X2.", "X1 rated IP67; the IP67 pump, X2 class A2.",
               "x" * (_CHUNK - 8) + " rated IP67 and rated IP68, " + "y" * _CHUNK + " rated IP69 X1 X2"]
    for far in range(_CHUNK - 40, _CHUNK + 20, 3):  # a rating word or its id on a chunk's edge
        traces.append("z" * far + " rated IP67 H1 H2 class A2 " + "w" * 30 + " Class\tA3")
    for word in ("rated", "Classification", "ratingrade", "protection an", "grade="):  # every distance to the id
        traces += [f"{lead}{word}{gap * ' '}IP67" for gap in range(34) for lead in ("", "x", "X1 ", "no ")]
    for trace in traces:
        assert _rated_near_of(trace) == _ratings_of(trace), trace
    edge = "z" * _CHUNK + " rated IP67 H1 H2 class A2 " + "w" * 30 + " Class\tA3"
    assert _rated_near_of(edge) == {"IP67", "A2", "A3"}


@pytest.mark.pure_python
def test_held_rows_change_no_payload_and_are_parsed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    traces = corpus(STYLES, seeds=1)
    tables = [read_evidence(t.trace, t.goal) for t in traces]
    monkeypatch.setattr(compact, "_HELD_ROWS", 0)  # the form it replaces: every row parsed again by load()
    before = [table.text() for table in tables]
    parses: list[str] = []

    def counted(body: str) -> tuple[list[Item], dict[int, tuple[str, int]]]:
        parses.append(body)
        return parse_row(body)

    monkeypatch.setattr(compact, "_parse_row", counted)
    for held in (3, 2048):
        monkeypatch.setattr(compact, "_HELD_ROWS", held)
        assert [table.text() for table in tables] == before
    parses.clear()
    small = next(table for table in tables if 2 <= len(table.rows) <= 20)
    small.text()
    assert sorted(parses) == sorted(row.body for row in small.rows.values())  # each row once
