"""The compact evidence table of ``extract-rules``: one header per option family, one short line per option.

    constraints: amenity contains pool
    id | price USD <=305 | km <=8 | stars
    HT01 255 = 3 gym spa pool bar +
    HT03 280 .5 4 bar parking -

Each typed value of a row goes to a column keyed by its unit and its rank among the row's values of that
unit (the first USD value, the second USD value...), written as a normalised number (``$1,250.00`` ->
``1250``, ``2 pm`` -> ``14:00``, ``0.5`` -> ``.5``; ``=`` for the column's bound itself) whose unit the header
states once. A label word is moved into the header only where it stands next to that column's value in most
rows (so "price" and "night" go, "us-east" and "pool" stay); a word that the goal's constraints name as a
value never moves. The words left over follow the values in the row, and the verdict ends it: ``+``, ``-``
(``out:REASON`` when the trace names a reason the header and the ``constraints:`` line do not state) or
``?``. Missing values are ``-``. ``relaykit.handoff.compact_read`` reads such a payload back into labelled
rows (the audit and the reference reader use it), so nothing the header carries is lost on the way; the
rules both sides share are in ``relaykit.handoff.compact_rules``.
"""

from __future__ import annotations

import contextlib
import gc
import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from relaykit import tokens
from relaykit.handoff.compact_rules import (
    EQUAL,
    OUT_CELL,
    PASS_CELL,
    UNITLESS,
    Wanted,
    alias,
    applying,
    bound_value,
    column_name,
    column_of,
    header_bound,
    named_column,
    short_label,
    short_number,
    singular,
    stems,
    verdict_cell,
    violates,
    wanted,
)
from relaykit.handoff.lexicon import TOKEN
from relaykit.handoff.schema import Constraint
from relaykit.handoff.text import CURRENCY_CODES, format_number, normal_time, quantity_of

HEADER_START = "id | "
HEADER_END = " | verdict"
OTHER = "other"
MISSING = "-"
_UNITLESS = UNITLESS
_LABEL_SHARE = 0.6  # a word moves to the header when it stands next to the column's value in this share of rows
_MIN_ROWS = 3
_CACHE_ROWS = 300  # parsed rows held at once; beyond this a table is re-read per pass (memory over speed)
_NONE: frozenset[str] = frozenset()
BREAK = ";"
"""Between the clauses of a row body: words on either side of it are not each other's neighbours."""
SEP = "\x1f"
"""Joins a typed value to its unit inside a row body (``2.7\x1fUSD``); the text forms never show it."""
_BARE = frozenset({"yes", "no", "none", "not", "true", "false", "y", "n"})  # values that need their label
RATE_WORDS = frozenset({"night", "nightly", "hour", "hourly", "hr", "day", "daily", "week", "weekly", "month",
                        "monthly", "year", "yearly", "annual", "annually", "unit", "item", "piece", "person",
                        "head", "seat", "user", "gpu-hour", "card", "visit", "call"})
"""What a price is per: next to a money value they are its unit's denominator, never a value of their own."""


class RowLike(Protocol):
    id: str
    body: str
    reason: str

    @property
    def verdict(self) -> str | None: ...


def family(identifier: str) -> str:
    """The letter prefix of an id (``H`` for ``H07``, ``VND-`` stripped to ``VND``)."""
    return re.sub(r"[-\d]+$", "", identifier)


Item = tuple[str, str | None]  # (normalised value or word, column unit; None for a word)


def encode(value: str, unit: str) -> str:
    """One typed value as a row body holds it: normalised, joined to its unit by ``SEP`` (no space)."""
    return f"{value}{SEP}{unit}"


def decode(token: str) -> str:
    """A body token as text: ``2.7 USD``, ``99.5%``, ``14:00``, ``5``; words as they are."""
    value, sep, unit = token.partition(SEP)
    if not sep or unit in _UNITLESS:
        return value
    return value + unit if unit == "%" else f"{value} {unit}"


def encode_text(text: str) -> str:
    """Text (a compact payload's expanded row) as an encoded row body."""
    out = []
    for m in TOKEN.finditer(text):
        kind = m.lastgroup
        if kind == "qty":
            q = quantity_of(m)
            out.append(encode(format_number(q.value), q.unit or "#"))
        elif kind == "time":
            out.append(encode(normal_time(m.group(0)), "time"))
        elif kind == "date":
            out.append(encode(m.group(0), "date"))
        elif kind == "w":
            out.append(m.group(0))
    return " ".join(out)


def items_of(body: str) -> list[Item]:
    """An encoded row body as values (normalised, with their unit), words (unit None) and clause breaks."""
    out: list[Item] = []
    for token in body.split(" "):
        if token == BREAK:
            out.append((BREAK, BREAK))
        elif SEP in token:
            value, _, unit = token.partition(SEP)
            out.append((value, unit))
        elif token:
            out.append((token, None))
    return out


Key = tuple[str, int]  # (unit, rank of the value among the row's values of that unit)
Moved = tuple[tuple[str, int], ...]  # words moved off a value, with their place relative to it


def _keys(items: list[Item]) -> dict[int, Key]:
    seen: dict[str, int] = {}  # a plain dict: a Counter's missing key costs a Python call (once per row)
    keys = {}
    for i, (_, unit) in enumerate(items):
        if unit is not None and unit != BREAK:
            rank = seen.get(unit, 0)
            keys[i] = (unit, rank)
            seen[unit] = rank + 1
    return keys


def _sides(items: list[Item], i: int) -> tuple[list[int], list[int]]:
    """The words touching value ``i``: before it (nearest first, up to 3) and after it (up to 2)."""
    near = _near(items, i)
    return [j for j in reversed(near) if j < i], [j for j in near if j > i]


def _near(items: list[Item], i: int) -> list[int]:
    """Indices of the words right before value ``i`` (up to 3) and right after it (up to 2), in order."""
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


@dataclass
class _Group:
    """The rows of one id family and what their columns look like."""

    rows: list[RowLike]
    protected: frozenset[str]
    written_labels: frozenset[str] = frozenset()
    names: frozenset[str] = frozenset()
    columns: list[Key] = field(default_factory=list)
    labels: dict[Key, set[str]] = field(default_factory=dict)
    labelled: dict[str, None] = field(default_factory=dict)
    other: bool = False
    cache: list[tuple[list[Item], dict[int, Key]]] | None = None
    stripped: list[set[int]] | None = None
    before: list[set[str]] = field(default_factory=list)  # per column, its header words that lead its values

    near_words: dict[Key, set[str]] = field(default_factory=dict)  # every word seen touching a column's values
    label_words: frozenset[str] | None = None  # every word that labels something here (see _bare_labels)
    goal_names: frozenset[str] = frozenset()  # the goal's attribute names, singular (``names`` adds reasons)
    pairs: set[tuple[str, str]] = field(default_factory=set)  # two-word labels (see _pair_labels)

    def __post_init__(self) -> None:
        self.labels = self._labels()
        self.goal_names = frozenset(singular(w) for w in self.names - self.protected)
        named = {w for r in self.rows for w in re.findall(r"[a-z][\w-]*", r.reason)} | self.names
        self.names = frozenset(named - self.protected)

    def _parsed(self) -> Iterator[tuple[list[Item], dict[int, Key]]]:
        if self.cache is not None:
            yield from self.cache
        else:
            for row in self.rows:
                items = items_of(row.body)
                yield items, _keys(items)

    def _labels(self) -> dict[Key, set[str]]:
        """Per column, the words that label it: next to the column's value in most rows, and where a row
        lacks the word, the place holds nothing or another such word ("notice period" / "notice"). A word
        whose place holds other words in other rows is a value ("us-east" in 4 rows, "ap-south" in one)."""
        slots: dict[Key, dict[int, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
        near: dict[Key, Counter[str]] = defaultdict(Counter)
        having: Counter[Key] = Counter()
        for items, keys in self._parsed():
            self.columns += [k for k in keys.values() if k not in self.columns]
            for i, key in keys.items():
                having[key] += 1
                words = {(j - i, items[j][0].lower()) for j in _near(items, i)}
                near[key].update({w for _, w in words})
                for slot, word in words:
                    slots[key][slot][word] += 1
        out: dict[Key, set[str]] = {}
        self.near_words = {key: set(counts) for key, counts in near.items()}
        for key, counts in near.items():
            need = max(_MIN_ROWS, math.ceil(_LABEL_SHARE * having[key]))
            candidates = {w for w, n in counts.items() if n >= need and w not in self.protected}
            # a word next to the value in every row is safe to state once in the header, whatever it is
            out[key] = {w for w in candidates if counts[w] == having[key]
                        or self._alone(slots[key], w, candidates, having[key])}
        return out

    @staticmethod
    def _alone(slots: dict[int, Counter[str]], word: str, candidates: set[str], rows: int) -> bool:
        """At the word's usual place, only label candidates stand, and some stands in every row (a word
        that some rows lack with nothing in its place might be an optional value: "breakfast")."""
        place = max(slots, key=lambda s: slots[s][word])
        return all(other in candidates for other in slots[place]) and sum(slots[place].values()) >= rows

    def _strip(self, items: list[Item], keys: dict[int, Key]) -> tuple[set[int], dict[Key, Moved]]:
        """The word indices that move to the header, and each value's moved words (its label here)."""
        gone: set[int] = set()
        said: dict[Key, list[int]] = defaultdict(list)
        sides = {i: _sides(items, i) for i in keys}
        for rates, before in ((True, False), (True, True), (False, True), (False, False)):
            # what a price is per binds to the price; then a word before a value is its label, then one after
            for i, key in keys.items():
                if rates and key[0] not in CURRENCY_CODES:
                    continue
                labels = RATE_WORDS if rates else self.labels.get(key, _NONE)
                names = self.names if before and not rates else _NONE
                moved = []
                for j in sides[i][0 if before else 1]:  # only words that touch the value, in a run
                    word = items[j][0].lower()
                    if j not in gone and word not in labels and word not in names:
                        break
                    moved.append(j)
                moved = [j for j in moved if j not in gone]
                if before and not rates:
                    moved += self._written(items, i, gone)
                gone.update(moved)
                said[key] += moved
        at = {key: i for i, key in keys.items()}
        return gone, {key: tuple((items[j][0].lower(), j - at[key]) for j in sorted(set(js)))
                      for key, js in said.items()}

    def _written(self, items: list[Item], i: int, gone: set[int]) -> list[int]:
        """The words right before value ``i`` that the trace wrote as a label ("hourly rate: €100")."""
        moved = []
        j = i - 1
        while j >= 0 and items[j][1] is None and j not in gone:
            word = items[j][0].lower()
            if word not in self.written_labels or word in self.protected:
                break
            moved.append(j)
            j -= 1
        return moved

    def load(self) -> None:
        """Hold this family's rows parsed for the next passes (one family at a time, and not a huge one)."""
        if len(self.rows) <= _CACHE_ROWS:
            self.cache = [(items, _keys(items)) for items in (items_of(r.body) for r in self.rows)]

    def prepare(self) -> list[list[str]]:
        """The header words of each column (nearest-before first), from the labels stripped off every row."""
        places: dict[Key, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
        seen: dict[str, list[tuple[str, str]]] = defaultdict(list)
        self.stripped = [] if self.cache is not None else None
        for items, keys in self._parsed():
            gone, said = self._strip(items, keys)
            if self.stripped is not None:
                self.stripped.append(gone)
            for key, label in said.items():
                for word, place in label:
                    places[key][word][0] += place
                    places[key][word][1] += 1
            self.other = bool(self._free(items, gone, self.labelled, seen)) or self.other
        self._pair_labels(seen)
        self.before = [{w for w, (total, _) in places[k].items() if total < 0} for k in self.columns]
        return [sorted(places[k], key=lambda w: places[k][w][0] / places[k][w][1]) for k in self.columns]

    def lines(self, order: list[list[str]], bounds: dict[int, str], named: dict[int, list[str]],
              wants: Sequence[Wanted] = (), stated: frozenset[str] = frozenset(), same: str | None = None
              ) -> Iterator[str]:
        """The header (column words, unit, bound; then ``other`` and the category labels the rows' words
        lost that the ``constraints:`` line does not name (``stated``, as ``stems``), when there are any) and
        the row lines; a row's word ``same`` (the one ``==`` wanted word, when it costs more than one token)
        is written ``=``."""
        said = [short_label(words, self.before[c], named.get(c, [])) for c, words in enumerate(order)]
        # a bounded column with a unit is named by its unit and bound alone (``USD <=6.8``): the bound is
        # the goal's, which says what it bounds; a label would repeat it
        heads = [column_name([] if c in bounds and k[0] not in _UNITLESS else words, k[0])
                 + (f" {bounds[c]}" if c in bounds else "") for c, (words, k) in enumerate(zip(said, self.columns,
                                                                                             strict=True))]
        shown = [[*words, *named.get(c, ()), *self.near_words.get(key, ())]
                 for c, (words, key) in enumerate(zip(said, self.columns, strict=True))]
        other = [w for w in self.labelled if not stems(w) & stated]
        if other or not heads:
            heads.append(" ".join([OTHER, *other]))
        yield HEADER_START + " | ".join(heads)
        # a reason marks a column only by labels that lead its values (by place, or written as labels) or by
        # the name of its bound ("distance"); never by a word that trails them ("stars 5; amenities wifi") or
        # by a goal name that merely stands before them ("economy cabin, $89")
        marks = [sorted({w for w in lead if w in self.labels.get(key, _NONE) or w in self.written_labels}
                        | set(named.get(c, ()))) for c, (lead, key) in enumerate(zip(self.before, self.columns,
                                                                                     strict=True))]
        for k, (row, (items, keys)) in enumerate(zip(self.rows, self._parsed(), strict=True)):
            gone = self.stripped[k] if self.stripped is not None else self._strip(items, keys)[0]
            words = self._free(items, gone, {})
            left = self._unstated(row, {key: items[i][0] for i, key in keys.items()}, words, (marks, shown), bounds,
                                  wants)
            if same:
                words = [EQUAL if w.lower() == same.lower() else w for w in words]
            yield self._line(row, {key: items[i][0] for i, key in keys.items()}, words, left, bounds)

    def _unstated(self, row: RowLike, cells: dict[Key, str], words: list[str],
                  heads: tuple[list[list[str]], list[list[str]]], bounds: dict[int, str],
                  wants: Sequence[Wanted]) -> tuple[set[Key], list[str]]:
        """The columns whose value a reason marks (``11.15!``) and the reason items the row must still say.
        A reason the header or the ``constraints:`` line already states is left out, for the reader derives
        it back: a column (by its label or a word next to its values) whose value breaks its bound, or a
        wanted word the row lacks; and where the reasons left name nothing known but are exactly as many as
        the stated bounds and wanted words the row breaks that no reason named ("facilities" for
        ``amenity contains pool``), they go too."""
        marked: set[Key] = set()
        left = []
        broken = {c for c, key in enumerate(self.columns) if key in cells and c in bounds
                  and violates(cells[key], bounds[c])}
        lacking = {i for i, w in enumerate(wants) if w.lacking(words)}
        for item in row.reason.split(",") if row.reason and row.verdict == "eliminated" else []:
            at = named_column(item, heads[0])
            if at is not None and self.columns[at] in cells:
                if at not in broken:
                    marked.add(self.columns[at])
                broken.discard(at)
                continue
            at = named_column(item, heads[1], stems)
            if at in broken:
                broken.discard(at)
                continue
            named = {i for i in lacking if wants[i].named_by(item)}
            lacking -= named
            if not named:
                left.append(item)
        return marked, [] if len(left) == len(broken) + len(lacking) else left

    def _line(self, row: RowLike, cells: dict[Key, str], words: list[str], said: tuple[set[Key], list[str]],
              bounds: dict[int, str]) -> str:
        """One row: its values (``=`` for a column's bound itself, ``.8`` for 0.8, ``!`` after a marked one,
        ``-`` for none), its words, its verdict."""
        marked, left = said
        values = [MISSING if k not in cells else EQUAL if c in bounds and cells[k] == bound_value(bounds[c])
                  else short_number(cells[k]) + ("!" if k in marked else "") for c, k in enumerate(self.columns)]
        return " ".join([row.id, *values, *words, verdict_cell(row.verdict, ",".join(left))])

    def _pair_labels(self, seen: dict[str, list[tuple[str, str]]]) -> None:
        """Two-word labels (``departure window``): a goal attribute name that follows a label taken out in
        every row where that label stands (two at least), before words that differ from row to row. So
        "cabin premium economy" keeps "premium" (other rows say "cabin business"), and "facilities spa
        pool" keeps "spa" (no goal name)."""
        for first, after in seen.items():
            seconds = {n for n, _ in after}
            values = {m for _, m in after}
            second = next(iter(seconds))
            if len(after) >= 2 and len(seconds) == 1 and singular(second) in self.goal_names \
                    and "" not in values and len(values) >= 2 and second not in self.protected:
                self.pairs.add((first, second))
                self.labelled[second] = None

    def _free(self, items: list[Item], gone: set[int], labelled: dict[str, None],
              seen: dict[str, list[tuple[str, str]]] | None = None) -> list[str]:
        """The row's words that stay: not moved, and not the label that leads a clause naming a category
        (``region us-east``, ``pets allowed``); such labels go once into the ``other`` header. ``seen``
        gathers the two words after each label taken out (for ``_pair_labels``)."""
        out = []
        leading = True  # nothing of this clause kept yet
        stripped = ""  # the word before, when it was a label taken out
        bare = self._bare_labels(items)
        for j, (word, unit) in enumerate(items):
            if unit == BREAK:
                leading = True
                continue
            if unit is not None or j in gone or j in bare:
                continue
            lowered = word.lower()
            after = next((w.lower() for w, u in items[j + 1:j + 2] if u is None), "")
            goal_name = singular(lowered) in self.goal_names
            label = (goal_name or lowered in self.names or lowered in self.written_labels) if leading else \
                goal_name and (not stripped or lowered in self.written_labels or (stripped, lowered) in self.pairs)
            if label and lowered not in self.protected and after and after not in _BARE:
                # a clause's leading label, or the goal's name for an attribute before a word elsewhere in it
                # ("airline easyJet window night cabin economy"): said once in the header
                labelled[lowered] = None
                # one label word at a time ("cabin premium economy" keeps "premium"), but for a label the
                # trace wrote as one ("Departure Window" over a table column) or a pair (_pair_labels)
                if seen is not None:
                    then = next((w.lower() for w, u in items[j + 2:j + 3] if u is None), "")
                    seen[lowered].append((after, then))
                leading = False
                stripped = lowered
                continue
            out.append(word)
            leading, stripped = False, ""
        return out

    def _bare_labels(self, items: list[Item]) -> set[int]:
        """The words of clauses that hold no value and only label words (``capacity ;`` left over from
        "MR02 capacity check: 6 seats", whose value the row already holds): they say nothing."""
        if self.label_words is None:  # not the reasons' words: "drops out because of us-west" names a value
            # not RATE_WORDS on their own: "departure window night", "| night |", "billed monthly" are values
            found = self.written_labels | self.goal_names
            self.label_words = frozenset(found.union(*self.labels.values()) - self.protected)
        out: set[int] = set()
        start, bare = 0, True  # where the clause began, and whether all of it so far is label words
        for j, (word, unit) in enumerate(items):
            if unit == BREAK:
                if bare and j > start:
                    out.update(range(start, j))
                start, bare = j + 1, True
            elif bare:
                bare = unit is None and (word.lower() in self.label_words or singular(word.lower()) in self.label_words)
        if bare and len(items) > start:
            out.update(range(start, len(items)))
        return out


def render(rows: Iterable[RowLike], protected: frozenset[str] = frozenset(),
           labels: frozenset[str] = frozenset(), names: frozenset[str] = frozenset(),
           constraints: Sequence[Constraint] = ()) -> tuple[list[str], list[Constraint]]:
    """The compact lines of ``rows``: a header and the rows of each id family, families in order of first
    appearance, and the ``constraints`` that no column states (a bound on one column is written in its
    header: ``price USD <=305``). ``protected`` words (lower case) never move into a header; ``labels`` are
    words the trace wrote as labels, which move wherever they stand right before a value; ``names`` (the
    goal's attribute names) and the words of the rows' reasons move wherever they stand next to a value."""
    with _collector_paused():
        return _render(rows, protected, labels, names, constraints)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while the table is written: it makes only short-lived acyclic
    tuples and lists, and on a table of 100k options the collector's scans of the live rows cost a third."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _render(rows: Iterable[RowLike], protected: frozenset[str], labels: frozenset[str], names: frozenset[str],
            constraints: Sequence[Constraint]) -> tuple[list[str], list[Constraint]]:
    families: dict[str, list[RowLike]] = defaultdict(list)
    for row in rows:
        families[family(row.id)].append(row)
    groups = [_Group(group, protected, labels, names) for group in families.values()]
    bounds: list[dict[int, str]] = [{} for _ in groups]
    names_of: list[dict[int, list[str]]] = [{} for _ in groups]
    left = []
    for constraint in constraints:
        place = column_of(constraint, groups)
        if place is None or place[1] in bounds[place[0]]:
            left.append(constraint)
            continue
        g, c = place
        bounds[g][c] = header_bound(constraint)
        names_of[g][c] = constraint.name.lower().split()
    out: list[str] = []
    stated = frozenset(stem for c in left for stem in stems(c.name))
    same = alias(wanted(left))
    same = same if same and tokens.count(f" {same}") > 1 else None
    for group, bound, named in zip(groups, bounds, names_of, strict=True):
        group.load()
        head = group.prepare()
        for c, words in named.items():
            head[c] = [*dict.fromkeys([*words, *head[c]])]
        wants = applying(wanted(left), (row.body.split(" ") for row in group.rows))
        out += group.lines(head, bound, named, wants, stated, same)
        group.cache = group.stripped = None
    return out, left


__all__ = ["BREAK", "HEADER_END", "HEADER_START", "MISSING", "OTHER", "OUT_CELL", "PASS_CELL", "SEP", "decode",
           "encode", "encode_text", "family", "items_of", "render"]
