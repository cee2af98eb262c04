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
sides share are in ``relaykit.handoff.compact_rules``. A row's encoded body (typed values joined to their
units) and the words touching a value are read with ``relaykit.handoff.compact_body``.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from relaykit import tokens
from relaykit.handoff.compact_body import BREAK, Item
from relaykit.handoff.compact_body import count_near as _count_near
from relaykit.handoff.compact_body import parse_row as _parse_row
from relaykit.handoff.compact_body import side_run as _side_run
from relaykit.handoff.compact_body import sides as _sides
from relaykit.handoff.compact_header import LONG_END, LONG_START, inline_constraint, short_header
from relaykit.handoff.compact_promise import Promise, leave_out, promise
from relaykit.handoff.compact_rules import (
    EQUAL,
    GENERIC_LABELS,
    MEASURE_NOUNS,
    MONEY_LABELS,
    MONEY_REASONS,
    OUT_CELL,
    PASS_CELL,
    RATE_ADJECTIVES,
    RATE_WORDS,
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
    filler_form,
    header_bound,
    known_labels,
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
_ANY_VALUE = MONEY_LABELS | GENERIC_LABELS | RATE_WORDS  # they stand next to any value, so they name no column
_BARE = frozenset({"yes", "no", "none", "not", "true", "false", "y", "n"})  # values that need their label


class RowLike(Protocol):
    id: str
    body: str
    reason: str

    @property
    def verdict(self) -> str | None: ...


_FAMILY_TAIL = re.compile(r"[-\d]+$")


def family(identifier: str) -> str:
    """The letter prefix of an id (``H`` for ``H07``, ``VND-`` stripped to ``VND``). An ASCII id is stripped
    with ``str.rstrip`` (the same answer, without a regex call: a large trace has many ids)."""
    if identifier.isascii() and not identifier.endswith("\n"):
        return identifier.rstrip("-0123456789")
    return _FAMILY_TAIL.sub("", identifier)


Key = tuple[str, int]  # (unit, rank of the value among the row's values of that unit)
Moved = tuple[tuple[str, int], ...]  # words moved off a value, with their place relative to it


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
    freed: list[list[str]] | None = None  # each cached row's words as prepare() found them (see lines())
    before: list[set[str]] = field(default_factory=list)  # per column, its header words that lead its values

    near_words: dict[Key, set[str]] = field(default_factory=dict)  # every word seen touching a column's values
    label_words: frozenset[str] | None = None  # every word that labels something here (see _bare_labels)
    priced_rates: frozenset[str] = frozenset()  # rate adjectives seen next to a price (see _bare_labels)
    goal_names: frozenset[str] = frozenset()  # the goal's attribute names, singular (``names`` adds reasons)
    pairs: set[tuple[str, str]] = field(default_factory=set)  # two-word labels (see _pair_labels)
    phrases: frozenset[tuple[str, str]] = frozenset()  # the goal's two-word attribute names ("work mode")
    valued: dict[Key, set[str]] = field(default_factory=dict)  # see _note_valued
    goal_stems: frozenset[str] = frozenset()  # the first five letters of the longer goal names
    bound_words: dict[Key, frozenset[str]] = field(default_factory=dict)  # see bound_words()
    side_words: dict[tuple[Key, bool], tuple[frozenset[str], frozenset[str]]] = field(default_factory=dict)
    touching: dict[Key, tuple[int, Counter[str], Counter[str]]] = field(default_factory=dict)  # see _stand_in
    keep: bool = False  # hold the rows parsed by _labels for load() (see _HELD_ROWS)

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
            self.columns += [k for k in keys.values() if k not in self.columns]
            for i, key in keys.items():
                having[key] += 1
                _count_near(items, i, slots[key], near[key])
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

    def _note_valued(self, items: list[Item], i: int, key: Key) -> None:
        """Remember the word right before value ``i`` when a label or name stands before it ("location
        hybrid 6 weeks"): it is the value of that label, never a label of ``i``."""
        if i >= 2 and items[i - 1][1] is None and items[i - 2][1] is None \
                and (items[i - 2][0].lower() in self.names or items[i - 2][0].lower() in self.written_labels):
            self.valued.setdefault(key, set()).add(items[i - 1][0].lower())

    def _synonyms(self, slots: dict[int, Counter[str]], word: str, rows: int, valued: Iterable[str],
                  unit: str) -> set[str]:
        """The labels that stand right before the value where a label does in other rows ("price 288" /
        "rate 311"): every row has a word there, each in two rows at least (a value seen once is a value),
        plain lower-case words, none the goal wants, none after a label (``valued``). A word in every row is
        a label already; this takes its synonyms too. Beside a word that names any value ("price"), only
        words known to name this one ("rate", the goal's names): "premium 300 USD" / "price 120 USD" keeps
        "premium", which may be a cabin."""
        here = slots.get(-1, Counter())
        if here[word] == 0 or sum(here.values()) < rows or any(
                n < 2 or not w.isalpha() or not w.islower() or w in self.protected for w, n in here.items()) \
                or not set(here).isdisjoint(valued):
            return set()
        if word in _ANY_VALUE:
            known = known_labels(unit, True) | MEASURE_NOUNS.get(unit, _NONE) | unit_words(unit)
            if any(w not in known and w not in self.names and w not in self.written_labels for w in here):
                return set()
        return set(here)

    @staticmethod
    def _alone(slots: dict[int, Counter[str]], word: str, candidates: set[str], rows: int) -> bool:
        """At the word's usual place, only label candidates stand, and some stands in every row (a word
        that some rows lack with nothing in its place might be an optional value: "breakfast")."""
        place = max(slots, key=lambda s: slots[s][word])
        return all(other in candidates for other in slots[place]) and sum(slots[place].values()) >= rows

    def _strip(self, items: list[Item], keys: dict[int, Key]) -> tuple[set[int], dict[Key, Moved]]:
        """The word indices that move to the header, and each value's moved words (its label here)."""
        gone: set[int] = set()
        sides = {i: _sides(items, i) for i in keys}
        # what a price is per binds to the price (after it, then before it)
        money = [(i, key) for i, key in keys.items() if key[0] in CURRENCY_CODES]
        said: dict[Key, list[int]] = {key: [] for _, key in money}
        for side in (1, 0):
            for i, key in money:
                if sides[i][side]:
                    moved = _side_run(items, sides[i][side], gone, RATE_WORDS, _NONE, _NONE, _NONE)
                    gone.update(moved)
                    said[key] += moved
        # then a word before a value is its label, then one after
        known = self.side_words
        for before in (True, False):
            names, side = (self.names, 0) if before else (_NONE, 1)
            for i, key in keys.items():
                moved = said.setdefault(key, [])
                if sides[i][side]:
                    labels, bound = known.get((key, before)) or self._side_words(key, before)
                    # "nightly" of "nightly rate of USD 270": past a price's label, what it is per goes with it
                    per = RATE_ADJECTIVES if before and key[0] in CURRENCY_CODES else _NONE
                    run = _side_run(items, sides[i][side], gone, labels, names, bound, per)
                else:
                    run = []
                if before:
                    run += self._written(items, i, gone)  # may take the run's words again: the set drops them
                gone.update(run)
                moved += run
        at = {key: i for i, key in keys.items()}
        return gone, {key: tuple((items[j][0].lower(), j - at[key]) for j in sorted(set(js))) if js else ()
                      for key, js in said.items()}

    def _side_words(self, key: Key, before: bool) -> tuple[frozenset[str], frozenset[str]]:
        """The words that label a value of column ``key`` on one side, and the words its bound and unit say
        (remembered per column: ``labels`` and ``bound_words`` are fixed before any row is stripped)."""
        found = self.side_words.get((key, before))
        if found is None:
            labels = frozenset(self.labels.get(key, _NONE) | known_labels(key[0], before) | self._measure(key))
            bound = frozenset(self.bound_words.get(key, _NONE) | unit_words(key[0]))
            found = (labels | self._stand_in(key, before, labels, bound), bound)
            self.side_words[(key, before)] = found
        return found

    def _measure(self, key: Key) -> frozenset[str]:
        """The noun that says what the column's unit measures ("memory" of "48 GB memory", "uptime" of "99.9%
        uptime"), where the column is the only one of its unit and no other such noun touches its values ("16
        GB memory" / "512 GB storage" might be two attributes in one column)."""
        nouns = MEASURE_NOUNS.get(key[0], _NONE)
        found = nouns & self.near_words.get(key, set()) - self.protected
        if len(found) != 1 or any(k[0] == key[0] and k != key for k in self.columns):
            return _NONE
        return frozenset(found)

    def _stand_in(self, key: Key, before: bool, labels: frozenset[str], bound: frozenset[str]) -> set[str]:
        """The word that stands right next to the column's values where other rows hold its name there ("48 GB
        cards" / "48 GB memory": "cards" says the bound, so "memory" names the column too): every row has a word
        at that place, all of them the column's bound or unit words (before the value, its labels too) but one
        plain lower-case word, in two rows at least, that the goal does not want. A place where some rows hold
        nothing ("120 USD breakfast" / "130 USD") or two other words take turns ("premium" / "economy") holds
        values; so does one beside a word that names any value or what a price is per ("premium 300 USD" /
        "price 120 USD", "150 USD breakfast" / "120 USD night")."""
        rows, before_counts, after_counts = self.touching.get(key, (0, Counter(), Counter()))
        here = before_counts if before else after_counts
        if sum(here.values()) < rows:
            return set()
        # after a value, not its labels: the next clause's label stands there too
        free = [w for w in here if w in _ANY_VALUE or not (singular(w) in bound or (before and w in labels))]
        if len(free) != 1 or here[free[0]] < 2 or here[free[0]] == rows:
            return set()
        word = free[0]
        if not (word.isalpha() and word.islower()) or word in self.protected or word in _ANY_VALUE \
                or word in self.valued.get(key, _NONE):
            return set()
        return {word}

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
                for word, place in label:
                    places[key][word][0] += place
                    places[key][word][1] += 1
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
        for k, (row, (items, keys)) in enumerate(zip(self.rows, self._parsed(), strict=True)):
            gone = self.stripped[k] if self.stripped is not None \
                else self._strip(items, keys)[0] | self._bare_labels(items)
            # the words prepare() kept are the same unless two-word labels were found since (see _labels_too)
            words = self.freed[k] if self.freed is not None and not self.pairs else self._free(items, gone, {})
            cells = {key: items[i][0] for i, key in keys.items()}
            left = self._unstated(row, cells, words, heads_of, bounds, wants)
            if drop and row.verdict == "pass":
                words = leave_out(words, drop, self.protected)
            if same:
                words = self._aliased(words, *same)
            yield self._line(row, cells, words, left, bounds)

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
        derived = bool(broken or lacking)  # the reader states these reasons whatever the row says
        for item in row.reason.split(",") if row.reason and row.verdict == "eliminated" else []:
            if derived and vacuous_reason(item):
                continue  # "above the limit", "too high": says only that some bound is broken
            at = named_in(item, heads[0])
            if at is not None and self.columns[at] in cells:
                if at not in broken:
                    marked.add(self.columns[at])
                broken.discard(at)
                continue
            at = named_in(item, heads[1], stems)
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
              bounds: dict[int, str]) -> str:
        """One row: its values (``=`` for a column's bound itself, ``.8`` for 0.8, ``!`` after a marked one,
        ``-`` for none), its words, its verdict."""
        marked, left = said
        values = [MISSING if k not in cells else EQUAL if c in bounds and cells[k] == bound_value(bounds[c])
                  else short_number(cells[k])
                  + ("!" if k in marked else "") for c, k in enumerate(self.columns)]
        return " ".join([row.id, *values, *words, verdict_cell(row.verdict, ",".join(left))])

    def _pair_labels(self, seen: dict[str, list[tuple[str, str]]]) -> None:
        """Two-word labels (``departure window``): a goal attribute name that follows a label taken out in
        every row where that label stands (two at least), before words that differ from row to row, or
        that the goal names as one ("work mode of hybrid"). So "cabin premium economy" keeps "premium"
        (other rows say "cabin business"), and "facilities spa pool" keeps "spa" (no goal name)."""
        for first, after in seen.items():
            seconds = {n for n, _ in after}
            values = {m for _, m in after}
            second = next(iter(seconds))
            if len(after) >= 2 and len(seconds) == 1 and singular(second) in self.goal_names \
                    and "" not in values and (len(values) >= 2 or (first, second) in self.phrases) \
                    and second not in self.protected:
                self.pairs.add((first, second))
                self.labelled[second] = None

    def _free(self, items: list[Item], gone: set[int], labelled: dict[str, None],
              seen: dict[str, list[tuple[str, str]]] | None = None) -> list[str]:
        """The row's words that stay: not moved or bare labels (``gone``, see ``_bare_labels``), and not the
        label that leads a clause naming a category (``region us-east``, ``pets allowed``); such labels go once
        into the ``other`` header. ``seen`` gathers the two words after each label taken out (for
        ``_pair_labels``)."""
        out: list[str] = []
        leading = True  # nothing of this clause kept yet
        stripped = ""  # the word before, when it was a label taken out
        last = len(items) - 1
        for j, (word, unit) in enumerate(items):
            if unit == BREAK:
                leading = True
                continue
            if unit is not None or j in gone:
                continue
            lowered = word.lower()
            if filler_form(lowered) and lowered not in self.protected:
                continue  # "charged", "offered": how the trace said it, not what it said
            named = singular(lowered) in self.goal_names
            goal_name = named or lowered[:5] in self.goal_stems
            label = (goal_name or lowered in self.names or lowered in self.written_labels) if leading else \
                self._labels_too(lowered, goal_name, stripped)
            after = items[j + 1][0].lower() if label and j < last and items[j + 1][1] is None else ""
            if label and lowered not in self.protected and after and after not in _BARE:
                # a clause's leading label, or the goal's name for an attribute before a word elsewhere in it
                # ("airline easyJet window night cabin economy"): said once in the header
                labelled[lowered] = None
                # one label word at a time ("cabin premium economy" keeps "premium"), but for a label the
                # trace wrote as one ("Departure Window" over a table column) or a pair (_pair_labels)
                if seen is not None:
                    then = items[j + 2][0].lower() if j + 1 < last and items[j + 2][1] is None else ""
                    seen[lowered].append((after, then))
                leading = False
                stripped = lowered
                continue
            if not leading and out and out[-1].lower() not in _BARE and named \
                    and lowered not in self.protected and items[j + 1:j + 2] in ([], [(BREAK, BREAK)]):
                continue  # the goal's name after the clause's value ("national network"): the header says it
            out.append(word)
            leading, stripped = False, ""
        return out

    def _labels_too(self, word: str, goal_name: bool, stripped: str) -> bool:
        """Whether a word past a clause's start labels too: the goal's name for an attribute (right after a label
        taken out only where the trace wrote it as a label or it pairs with that label), or the second word of
        a label the trace wrote ("work mode: onsite")."""
        if goal_name and (not stripped or word in self.written_labels or (stripped, word) in self.pairs):
            return True
        return stripped in self.written_labels and word in self.written_labels

    def _bare_labels(self, items: list[Item]) -> set[int]:
        """The words of clauses that hold no value and only label words (``capacity ;`` left over from
        "MR02 capacity check: 6 seats", whose value the row already holds; ``price hour ;``): they say nothing."""
        if self.label_words is None:  # not the reasons' words: "drops out because of us-west" names a value
            # not RATE_WORDS on their own: "departure window night", "| night |", "billed monthly" are values
            found = self.written_labels | self.goal_names
            sides = (self._side_words(key, before)[0] for key in self.columns for before in (True, False))
            self.label_words = frozenset(found.union(*self.labels.values(), *sides) - self.protected - RATE_WORDS)
            # a rate adjective seen next to a price of this family ("hourly rate 4.10 USD") is that price's label
            self.priced_rates = frozenset(w for key, near in self.near_words.items() if key[0] in CURRENCY_CODES
                                          for w in near) & RATE_ADJECTIVES
        out: set[int] = set()
        start, bare = 0, True  # where the clause began, and whether all of it so far is label words
        # a money label in the clause; what a price is per ("price hour": a label too); a rate adjective last
        # ("billed monthly": a value), where before a label it only qualifies it ("hourly uptime", left over
        # from "hourly rate and uptime SLA" once the row holds both values)
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
                last = rate and low not in self.priced_rates  # "hourly" alone, left over from "hourly rate"
                bare = unit is None and (low in self.label_words or singular(low) in self.label_words
                                         or (low[:5] in self.goal_stems and low not in self.protected)
                                         or (low in RATE_WORDS and low not in self.protected))
        return out


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


def _lone_families(rows: Sequence[RowLike]) -> dict[str, str]:
    """Families of one option each whose ids differ only in their letters ("LH-401", "EW-77", "FR-930": flights
    of three carriers), mapped to one shared family: one list of one kind of option gets one header, not one
    each. The shape is the prefix's length and separator; families of two or more options keep their own."""
    first: dict[str, str] = {}
    counts: Counter[str] = Counter()
    for row in rows:
        name = family(row.id)
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
    merged = _lone_families(rows)
    for row in rows:
        name = family(row.id)
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
    if kept.broken:
        return out, left, kept  # on a constraints: line, which promises nothing
    return (*inline_constraint(out, left), kept)


__all__ = ["HEADER_END", "HEADER_START", "MISSING", "OTHER", "OUT_CELL", "PASS_CELL", "family", "render"]
