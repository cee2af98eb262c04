"""The compact evidence table of ``extract-rules``: one header per option family, one short line per option.

    id | USD <=305 | km <=8 | stars | amenity contains pool
    HT01 255 = 3 gym spa pool bar +
    HT03 280 5.1 4 bar parking -

Every row starts with the option's whole id; the first header also holds the goal's constraints no column
states. Each typed value of a row goes to a column keyed by its unit and its rank among the row's values of
that unit (the first USD value, the second USD value...), written as a normalised number (``$1,250.00`` ->
``1250``, ``2 pm`` -> ``14:00``, ``0.5`` -> ``.5``; ``=`` for the column's bound itself; never scaled) whose
unit the header states once. A label word is moved into the header only where it stands next to that
column's value in most rows (so "price" and "night" go, "us-east" and "pool" stay); a word that the goal's
constraints name as a value never moves. The words left over follow the values in the row, and the verdict
ends it: ``+``, ``-`` (``out:REASON`` when the trace names a reason the header does not state) or ``?``.
Missing values are ``-``. A passing row leaves out the words the header's limits want (``pool`` under
``amenity contains pool``: it passed, so it has one; ``relaykit.handoff.compact_promise``).
``relaykit.handoff.compact_read`` reads such a payload back into labelled rows (the audit and the reference
reader use it), so nothing the header carries is lost on the way; the rules both
sides share are in ``relaykit.handoff.compact_rules``. Which words label a column and move into its header
is decided in ``relaykit.handoff.compact_labels``; a row's encoded body (typed values joined to their units)
and the words touching a value are read with ``relaykit.handoff.compact_body``.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from relaykit import tokens
from relaykit.handoff.compact_body import Item
from relaykit.handoff.compact_body import count_near as _count_near
from relaykit.handoff.compact_body import parse_row as _parse_row
from relaykit.handoff.compact_header import LONG_END, LONG_START, inline_constraint, short_header
from relaykit.handoff.compact_labels import Key, Labelling, RowLike
from relaykit.handoff.compact_promise import Promise, leave_out, promise
from relaykit.handoff.compact_rules import (
    EQUAL,
    GENERIC_LABELS,
    MONEY_REASONS,
    OUT_CELL,
    PASS_CELL,
    UNITLESS,
    Wanted,
    alias,
    applying,
    bound_value,
    bound_words,
    collector_paused,
    column_name,
    column_of,
    column_words,
    header_bound,
    named_in,
    short_label,
    short_number,
    singular,
    stems,
    unit_words,
    vacuous_reason,
    verdict_cell,
    violates,
    wanted,
)
from relaykit.handoff.schema import Constraint
from relaykit.handoff.text import CURRENCY_CODES

HEADER_START = LONG_START
HEADER_END = LONG_END
OTHER = "other"
MISSING = "-"
_UNITLESS = UNITLESS
_LABEL_SHARE = 0.6  # a word moves to the header when it stands next to the column's value in this share of rows
_MIN_ROWS = 3
_CACHE_ROWS = 300  # parsed rows held at once; beyond this a table is re-read per pass (memory over speed)
_HELD_ROWS = 2048  # rows of the first families held parsed from their labels' pass to their turn (~1.6 kB each)
_NONE: frozenset[str] = frozenset()


_FAMILY_TAIL = re.compile(r"[-\d]+$")


def family(identifier: str) -> str:
    """The letter prefix of an id (``H`` for ``H07``, ``VND-`` stripped to ``VND``). An ASCII id is stripped
    with ``str.rstrip`` (the same answer, without a regex call: a large trace has many ids)."""
    if identifier.isascii() and not identifier.endswith("\n"):
        return identifier.rstrip("-0123456789")
    return _FAMILY_TAIL.sub("", identifier)


@dataclass
class _Group(Labelling):
    """The rows of one id family and what their columns look like (the fields, and the rules that say which
    words label the columns: ``relaykit.handoff.compact_labels``), as the writer passes over them."""

    def __post_init__(self) -> None:
        self.goal_names = frozenset(singular(w) for w in self.names - self.protected)
        # "departs" for the goal's "departure": a word of five letters or more that starts as a goal name does
        self.goal_stems = frozenset(w[:5] for w in self.goal_names if len(w) >= 5)
        named = {w for r in self.rows for w in re.findall(r"[a-z][\w-]*", r.reason)} | self.names
        self.names = frozenset(named - self.protected)
        self.labels = self._labels()

    def _parsed(self) -> Iterator[tuple[list[Item], dict[int, Key]]]:
        if self.cache is not None:
            yield from self.cache
        else:
            for row in self.rows:
                yield _parse_row(row.body)

    def _labels(self) -> dict[Key, set[str]]:
        """Per column, the words that label it: next to the column's value in most rows, and where a row
        lacks the word, the place holds nothing or another such word ("notice period" / "notice"). A word
        whose place holds other words in other rows is a value ("us-east" in 4 rows, "ap-south" in one)."""
        slots: defaultdict[Key, defaultdict[int, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
        near: dict[Key, Counter[str]] = defaultdict(Counter)
        having: Counter[Key] = Counter()
        if self.keep:
            self.cache = [_parse_row(row.body) for row in self.rows]
        for items, keys in self._parsed():
            for i, key in keys.items():
                if key not in self.columns:  # (a row's keys are distinct: one test per key is the list's)
                    self.columns.append(key)
                having[key] += 1
                _count_near(items, i, slots[key], near[key])
                if i >= 2:  # (_note_valued looks at the two items before the value)
                    self._note_valued(items, i, key)
        out: dict[Key, set[str]] = {}
        self.near_words = {key: set(counts) for key, counts in near.items()}
        for key, counts in near.items():
            self.touching[key] = (having[key], slots[key][-1], slots[key][1])
            need = max(_MIN_ROWS, math.ceil(_LABEL_SHARE * having[key]))
            candidates = {w for w, n in counts.items() if n >= need and w not in self.protected}
            # a word next to the value in every row is safe to state once in the header, whatever it is
            # where a row lacks it, a goal attribute name or a reason word may stand instead ("rate" / "price")
            out[key] = {w for w in candidates if counts[w] == having[key]
                        or self._alone(slots[key], w, candidates | self.names, having[key])}
            for w in candidates:
                out[key] |= self._synonyms(slots[key], w, having[key], self.valued.get(key, _NONE), key[0])
        return out

    def obeys(self, c: int, bound: str) -> bool:
        """Whether every row whose value in column ``c`` breaks ``bound`` is eliminated."""
        key = self.columns[c]
        return all(row.verdict == "eliminated" for row, (items, keys) in zip(self.rows, self._parsed(), strict=True)
                   for i, k in keys.items() if k == key and violates(items[i][0], bound))

    def load(self) -> None:
        """Hold this family's rows parsed for the next passes (one family at a time, and not a huge one)."""
        if self.cache is None and len(self.rows) <= _CACHE_ROWS:
            self.cache = [_parse_row(r.body) for r in self.rows]

    def prepare(self) -> list[list[str]]:
        """The header words of each column (nearest-before first), from the labels stripped off every row."""
        places: dict[Key, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
        seen: dict[str, list[tuple[str, str]]] = defaultdict(list)
        self.stripped = [] if self.cache is not None else None
        self.freed = [] if self.cache is not None else None
        for items, keys in self._parsed():
            gone, said = self._strip(items, keys)
            gone |= self._bare_labels(items)  # what _free leaves out: moved words and bare label clauses
            if self.stripped is not None:
                self.stripped.append(gone)
            for key, label in said.items():
                if label:  # (an empty one adds no entry)
                    at = places[key]
                    for word, place in label:
                        count = at[word]
                        count[0] += place
                        count[1] += 1
            free = self._free(items, gone, self.labelled, seen)
            if self.freed is not None:
                self.freed.append(free)
            self.other = bool(free) or self.other
        self._pair_labels(seen)
        self.before = [{w for w, (total, _) in places[k].items() if total < 0} for k in self.columns]
        return [sorted(places[k], key=lambda w: places[k][w][0] / places[k][w][1]) for k in self.columns]

    def lines(self, order: list[list[str]], bounds: dict[int, str], named: dict[int, list[str]],
              wants: Sequence[Wanted] = (), stated: frozenset[str] = frozenset(),
              same: tuple[str, bool, frozenset[str]] | None = None, drop: Sequence[Wanted] = ()) -> Iterator[str]:
        """The header (column words, unit, bound; ``other`` and the category labels the rows' words lost that
        the ``constraints:`` line does not name (``stated``, as ``stems``) only where there is no column: the
        goal names what a reader looks for, and these labels cost tokens in every hand-off) and the row lines;
        a row's word ``same`` (the one ``==`` wanted word, see ``_aliased``) is written ``=``, and a passing
        row leaves out the words of the limits ``drop`` (see ``relaykit.handoff.compact_promise``)."""
        # a column with a unit is never named by the name of another attribute that follows its values
        # ("2 stars facilities bar": the unit says it, "facilities" labels the bar)
        said = [short_label([w for w in words if w in self.before[c] or w not in self.names
                             or self.columns[c][0] in _UNITLESS], self.before[c], named.get(c, []))
                for c, words in enumerate(order)]
        # a bounded column with a unit is named by its unit and bound alone (``USD <=6.8``): the bound is
        # the goal's, which says what it bounds; a label would repeat it (unless another column has its unit)
        heads = [self._head(c, words, bounds) for c, words in enumerate(said)]
        shown = [[*words, *named.get(c, ()), *self.near_words.get(key, ())]
                 for c, (words, key) in enumerate(zip(said, self.columns, strict=True))]
        other = [w for w in self.labelled if not stems(w) & stated]
        if not heads:
            heads.append(" ".join([OTHER, *other]))
        # the short form where every column is one word and its bound: the bars between cells cost a token each
        yield short_header(heads) or HEADER_START + " | ".join(heads)
        # a reason marks a column only by labels that lead its values (by place, or written as labels) or by
        # the name of its bound ("distance"); never by a word that trails them ("stars 5; amenities wifi") or
        # by a goal name that merely stands before them ("economy cabin, $89")
        marks = [sorted({w for w in lead if w in self.labels.get(key, _NONE) or w in self.written_labels}
                        | set(named.get(c, ()))) for c, (lead, key) in enumerate(zip(self.before, self.columns,
                                                                                     strict=True))]
        # what a reason item is compared with, per column: the same for every row (see ``named_in``)
        heads_of = (column_words(marks), column_words(shown, stems))
        found: dict[tuple[str, int], int | None] = {}  # reason items repeat from row to row: see _named_once
        limits = {c: bound_value(bound) for c, bound in bounds.items()}  # what ``=`` stands for, per column
        for k, (row, (items, keys)) in enumerate(zip(self.rows, self._parsed(), strict=True)):
            gone = self.stripped[k] if self.stripped is not None \
                else self._strip(items, keys)[0] | self._bare_labels(items)
            # the words prepare() kept are the same unless two-word labels were found since (see _labels_too)
            words = self.freed[k] if self.freed is not None and not self.pairs else self._free(items, gone, {})
            cells = {key: items[i][0] for i, key in keys.items()}
            left = self._unstated(row, cells, words, heads_of, bounds, wants, found)
            if drop and row.verdict == "pass":
                words = leave_out(words, drop, self.protected)
            if same:
                words = self._aliased(words, *same)
            yield self._line(row, cells, words, left, limits)

    def _aliased(self, words: list[str], same: str, long: bool, named: frozenset[str]) -> list[str]:
        """``words`` with the one ``==`` wanted word written ``=`` where it costs more than one token (``long``),
        or where a label of the constraint's name (``named``, as ``stems``) stands before it and goes with it
        ("certification none" under ``certified == none``: a bare "none" keeps its label, ``=`` needs none)."""
        out: list[str] = []
        for word in words:
            if word.lower() != same.lower():
                out.append(word)
                continue
            labelled = bool(out) and bool(stems(out[-1]) & named) and out[-1].lower() not in self.protected
            if labelled:
                out.pop()
            out.append(EQUAL if long or labelled else word)
        return out

    def _unstated(self, row: RowLike, cells: dict[Key, str], words: list[str],
                  heads: tuple[list[frozenset[str]], list[frozenset[str]]], bounds: dict[int, str],
                  wants: Sequence[Wanted], found: dict[tuple[str, int], int | None]) -> tuple[set[Key], list[str]]:
        """The columns whose value a reason marks (``11.15!``) and the reason items the row must still say.
        A reason the header or the ``constraints:`` line already states is left out, for the reader derives
        it back: a column (by its label or a word next to its values) whose value breaks its bound, or a
        wanted word the row lacks; and where the reasons left name nothing known but are exactly as many as
        the stated bounds and wanted words the row breaks that no reason named ("facilities" for
        ``amenity contains pool``), they go too. ``found`` holds what ``named_in`` said of each reason item
        (see ``_named_once``)."""
        marked: set[Key] = set()
        left = []
        broken = {c for c, bound in bounds.items() if self.columns[c] in cells
                  and violates(cells[self.columns[c]], bound)}
        have = {w.lower() for w in words} if wants else set()  # (``Wanted.lacking`` of each, one set made)
        lacking = {i for i, w in enumerate(wants) if w.lacks(have)}
        derived = bool(broken or lacking)  # the reader states these reasons whatever the row says
        for item in row.reason.split(",") if row.reason and row.verdict == "eliminated" else []:
            if derived and vacuous_reason(item):
                continue  # "above the limit", "too high": says only that some bound is broken
            at = _named_once(item, heads, 0, found)
            if at is not None and self.columns[at] in cells:
                if at not in broken:
                    marked.add(self.columns[at])
                broken.discard(at)
                continue
            at = _named_once(item, heads, 1, found)
            money = [c for c in broken if self.columns[c][0] in CURRENCY_CODES]
            if at is None and len(money) == 1 and stems(item) & MONEY_REASONS:
                at = money[0]  # "over budget", "too pricey": the one money bound the row breaks
            if at in broken:
                broken.discard(at)
                continue
            named = {i for i in lacking if wants[i].named_by(item)}
            lacking -= named
            if not named:
                left.append(item)
        return marked, [] if len(left) == len(broken) + len(lacking) else left

    def _head(self, c: int, words: list[str], bounds: dict[int, str]) -> str:
        """A column's header cell: its words and unit, and its bound (``km <=8``)."""
        unit = self.columns[c][0]
        # its name stays where another column has the same unit (``premium GBP <=125 | excess GBP <=1000``)
        alone = sum(key[0] == unit for key in self.columns) == 1
        # not a word that only repeats a unit that names its attribute ("star rating" of ``stars``), nor one
        # that another column's bound says ("centre" of ``km <=8``, seen before "3 stars")
        said = unit_words(unit)
        others = {w for key, ws in self.bound_words.items() if key != self.columns[c] for w in ws}
        words = [w for w in words if not (said and (w in GENERIC_LABELS or singular(w) in said))
                 and (singular(w) not in others or singular(w) in self.bound_words.get(self.columns[c], _NONE))]
        name = column_name([] if c in bounds and unit not in _UNITLESS and alone else words, unit)
        return f"{name} {bounds[c]}" if c in bounds else name

    def _line(self, row: RowLike, cells: dict[Key, str], words: list[str], said: tuple[set[Key], list[str]],
              limits: dict[int, str]) -> str:
        """One row: its values (``=`` for a column's bound itself, its ``bound_value`` in ``limits``; ``.8`` for
        0.8, ``!`` after a marked one, ``-`` for none), its words, its verdict."""
        marked, left = said
        values = [MISSING if k not in cells else EQUAL if c in limits and cells[k] == limits[c]
                  else short_number(cells[k])
                  + ("!" if k in marked else "") for c, k in enumerate(self.columns)]
        return " ".join([row.id, *values, *words, verdict_cell(row.verdict, ",".join(left))])


def _named_once(item: str, heads: tuple[list[frozenset[str]], list[frozenset[str]]], which: int,
                found: dict[tuple[str, int], int | None]) -> int | None:
    """``named_in`` of a reason item and a family's marks (``which`` 0) or its columns' words as ``stems`` (1),
    worked out once per family (``found``): the item and the columns' words decide it."""
    key = (item, which)
    if key not in found:
        found[key] = named_in(item, heads[which], stems if which else None)
    return found[key]


def render(rows: Iterable[RowLike], protected: frozenset[str] = frozenset(),
           labels: frozenset[str] = frozenset(), names: frozenset[str] = frozenset(),
           constraints: Sequence[Constraint] = (),
           promising: bool = True) -> tuple[list[str], list[Constraint], Promise]:
    """The compact lines of ``rows``: a header and the rows of each id family, families in order of first
    appearance, and the ``constraints`` that no column states (a bound on one column is written in its
    header: ``price USD <=305``). ``protected`` words (lower case) never move into a header; ``labels`` are
    words the trace wrote as labels, which move wherever they stand right before a value; ``names`` (the
    goal's attribute names) and the words of the rows' reasons move wherever they stand next to a value.
    With ``promising``, passing rows leave out the words the header's limits want; the ``Promise`` says where
    (and, ``broken``, that the constraints left must go on a ``constraints:`` line: see ``compact_promise``)."""
    with collector_paused():
        return _render(rows, protected, labels, names, constraints, promising)


_SHAPE = re.compile(r"([A-Za-z]+)(\W?)\d")


def _lone_families(rows: Sequence[RowLike], names: Sequence[str]) -> dict[str, str]:
    """Families of one option each whose ids differ only in their letters ("LH-401", "EW-77", "FR-930": flights
    of three carriers), mapped to one shared family: one list of one kind of option gets one header, not one
    each. The shape is the prefix's length and separator; families of two or more options keep their own."""
    first: dict[str, str] = {}
    counts: Counter[str] = Counter()
    for row, name in zip(rows, names, strict=True):  # ``names``: each row's family
        first.setdefault(name, row.id)
        counts[name] += 1
    if len(counts) < 2 or len(rows) > 4 * len(counts):  # most traces: few families, several options each
        return {}
    shapes: dict[str, list[str]] = defaultdict(list)
    for name, n in counts.items():
        shape = _SHAPE.match(first[name]) if n == 1 else None
        if shape is not None:
            shapes[f"{len(shape.group(1))}{shape.group(2)}"].append(name)
    return {name: names[0] for names in shapes.values() if len(names) >= 2 for name in names}


def _render(rows: Iterable[RowLike], protected: frozenset[str], labels: frozenset[str], names: frozenset[str],
            constraints: Sequence[Constraint], promising: bool) -> tuple[list[str], list[Constraint], Promise]:
    families: dict[str, list[RowLike]] = defaultdict(list)
    rows = list(rows)
    names_of_rows = [family(row.id) for row in rows]
    merged = _lone_families(rows, names_of_rows)
    for row, name in zip(rows, names_of_rows, strict=True):
        families[merged.get(name, name)].append(row)
    groups: list[_Group] = []
    room = _HELD_ROWS
    for members in families.values():  # the first families' rows are parsed once (at most _HELD_ROWS held)
        keep = len(members) <= min(room, _CACHE_ROWS)
        room -= len(members) if keep else 0
        groups.append(_Group(members, protected, labels, names, keep=keep))
    phrases = frozenset((words[0], words[1]) for c in constraints if len(words := c.name.lower().split()) == 2)
    for group in groups:  # a goal's two-word name ("work mode"): see _pair_labels
        group.phrases = phrases
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
        groups[g].bound_words[groups[g].columns[c]] = bound_words(constraint, constraints)
    # a bound whose name touches two columns of its unit, one bounded already: the other one, where every row
    # whose value breaks it is out (a passing row beyond it would say the bound is not that column's)
    for constraint in list(left):
        place = column_of(constraint, groups, {(g, c) for g, bound in enumerate(bounds) for c in bound})
        if place is None or not groups[place[0]].obeys(place[1], header_bound(constraint)):
            continue
        left.remove(constraint)
        g, c = place
        bounds[g][c] = header_bound(constraint)
        names_of[g][c] = constraint.name.lower().split()
        groups[g].bound_words[groups[g].columns[c]] = bound_words(constraint, constraints)
    out: list[str] = []
    stated = frozenset(stem for c in left for stem in stems(c.name))
    wants_all = wanted(left)  # ``left`` is final from here on
    word = alias(wants_all)
    # a word of one token is written ``=`` only with the label before it ("certification none": two tokens)
    same = (word, tokens.count(f" {word}") > 1, next(stems(w.name) for w in wants_all if w.equal)) \
        if word else None
    kept = promise(wants_all, [g.rows for g in groups]) if promising else Promise([[] for _ in groups])
    for group, bound, named, drop in zip(groups, bounds, names_of, kept.dropped, strict=True):
        group.load()
        head = group.prepare()
        for c, words in named.items():
            head[c] = [*dict.fromkeys([*words, *head[c]])]
        # one family: every wanted word speaks of it (no row need have it); else only where some row has it
        wants = wants_all if len(groups) == 1 else applying(wants_all, (r.body.split(" ") for r in group.rows))
        out += group.lines(head, bound, named, wants, stated, same, drop)
        group.cache = group.stripped = group.freed = None
        group.side_words.clear()  # a group done holds nothing it no longer needs (memory at 100k options)
        group.bare_kinds.clear()
        group.free_kinds.clear()
    if kept.broken:
        return out, left, kept  # on a constraints: line, which promises nothing
    return (*inline_constraint(out, left), kept)


__all__ = ["HEADER_END", "HEADER_START", "MISSING", "OTHER", "OUT_CELL", "PASS_CELL", "family", "render"]
