"""What a compact evidence table states once for every row, so that a row need not repeat it, and how its
header names a column.

A column's bound (``price USD <=305``) says which values break it, and a ``constraints:`` line's wanted
word (``region == us-east``) says which rows lack it. The writer (``relaykit.handoff.compact``) leaves out
a reason those already state; the reader (``relaykit.handoff.compact_read``) derives it back with the same
rules, so a reason the trace gave is never lost on the way.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from relaykit.handoff.constraints import singular as _singular
from relaykit.handoff.lexicon import COMPARATORS, DROP_WORDS, FILLER, TOKEN
from relaykit.handoff.schema import Constraint
from relaykit.handoff.text import CURRENCY_CODES, format_number, normal_date, normal_time, quantity_of

singular = functools.lru_cache(maxsize=16384)(_singular)
"""``relaykit.handoff.constraints.singular``, remembered: the table asks it of the same words row after row."""

_BOUND_TEXT = re.compile(r"(<=|>=|==)(\S+)$")
_WORDS = re.compile(r"[A-Za-z][\w-]*")


EQUAL = "="
"""A cell whose value is its column's bound (``=`` under ``start ==09:00``): one token, where ``09:00`` takes three
and the space before it a fourth."""


def short_number(value: str) -> str:
    """A cell's number as the table writes it: ``.8`` for ``0.8`` (" .8" is two tokens, " 0.8" four)."""
    return value[1:] if value.startswith("0.") else value


def full_number(cell: str) -> str:
    """A cell as written back to its number: ``0.8`` for ``.8`` (a mark ``!`` stays)."""
    return "0" + cell if cell[:1] == "." and cell[1:2].isdigit() else cell


@functools.lru_cache(maxsize=1024)
def _bound_parts(bound: str) -> tuple[str, str] | None:
    m = _BOUND_TEXT.match(bound)
    return (m.group(1), m.group(2)) if m else None


def bound_value(bound: str) -> str:
    """The value of a header bound (``09:00`` of ``==09:00``), or "" when ``bound`` is not one."""
    parts = _bound_parts(bound)
    return parts[1] if parts else ""


def violates(value: str, bound: str) -> bool:
    """Whether a cell's value (``9.8``, ``14:00``) breaks a header bound (``<=8``, ``==15:00``); False when
    either cannot be read (a reader must then rely on the row's own marks)."""
    parts = _bound_parts(bound)
    if parts is None:
        return False
    op, limit = parts
    if ":" in limit or ":" in value:  # clock times, both "HH:MM": their order is the text's order
        return value > limit if op == "<=" else value < limit if op == ">=" else value != limit
    try:
        number, ceiling = float(value), float(limit)
    except ValueError:
        return False
    return number > ceiling if op == "<=" else number < ceiling if op == ">=" else number != ceiling


@dataclass(frozen=True)
class Wanted:
    """A constraint that wants a word among a row's words (``region == us-east``, ``amenity contains gym``)."""

    name: str
    words: tuple[str, ...]
    equal: bool = False  # ``==`` (else ``contains``)
    written: str = ""  # the threshold as the constraint wrote it ("ISO-9001")

    def lacking(self, row_words: Iterable[str]) -> bool:
        """Whether a row whose words are ``row_words`` lacks the wanted word(s)."""
        return self.lacks({w.lower() for w in row_words})

    def lacks(self, have: set[str]) -> bool:
        """``lacking`` of a row whose lower-case words are ``have`` (a writer makes the set once per row)."""
        return not have.issuperset(self.words)

    def spelled(self) -> list[str]:
        """The wanted words as the constraint wrote them (``ISO-9001``; ``words`` are lower case)."""
        return _WORDS.findall(self.written) if self.written else list(self.words)

    def named_by(self, item: str) -> bool:
        """Whether a reason item ("pet policy", "certification") names this constraint ("pets",
        "certified"): a word in common, singular or cut to its first five letters."""
        return bool(stems(item) & stems(self.name))


@functools.lru_cache(maxsize=4096)
def stems(text: str) -> frozenset[str]:
    """The words of ``text`` as a reason and a label are compared: singular, and cut to five letters."""
    words = [singular(w) for w in _WORDS.findall(text.lower())]
    return frozenset({*words, *(w[:5] for w in words if len(w) >= 5)})


def wanted(constraints: Sequence[Constraint]) -> list[Wanted]:
    """The constraints that want plain words (no number, time or date in the threshold)."""
    out = []
    for c in constraints:
        if c.operator not in ("==", "contains"):
            continue
        if any(m.lastgroup in ("qty", "time", "date") for m in TOKEN.finditer(c.threshold)):
            continue
        words = tuple(w.lower() for w in _WORDS.findall(c.threshold))
        if words and _WORDS.findall(c.name):
            out.append(Wanted(c.name, words, c.operator == "==", c.threshold.strip()))
    return out


def alias(wants: Sequence[Wanted]) -> str | None:
    """The word a row may write as ``=``: the wanted word of the only ``==`` constraint of the ``constraints:``
    line (``certified == ISO-9001``: " ISO-9001" is four tokens, " =" one); None when there are more."""
    equal = [w for w in wants if w.equal]
    return equal[0].written if len(equal) == 1 and len(equal[0].words) == 1 and " " not in equal[0].written else None


def applying(wants: Sequence[Wanted], rows: Iterable[Iterable[str]]) -> list[Wanted]:
    """The ``wants`` that speak of a family of rows: some row of it has the wanted word(s). A hotel that
    lacks the flights' cabin "premium" is not out for it; a family where no row has the word says its
    reasons itself."""
    left = list(wants)
    found: list[Wanted] = []
    for words in rows:
        row = list(words)
        hits = [w for w in left if not w.lacking(row)]
        found += hits
        left = [w for w in left if w not in hits]
        if not left:
            break
    return [w for w in wants if w in found]


_CONSTRAINT = re.compile(r"\s*(.+?) (==|contains|<=|>=|in) (.+?)\s*$")


def read_constraint(text: str) -> Constraint | None:
    """A constraint written ``name op threshold`` (``region == us-east``: spaces around the operator, where a
    column's bound is glued to its value: ``USD <=305``), or None."""
    m = _CONSTRAINT.match(text)
    if m is None:
        return None
    return Constraint.model_validate({"name": m.group(1), "operator": m.group(2), "threshold": m.group(3)})


def read_constraint_line(line: str) -> list[Constraint]:
    """The constraints of a ``constraints: name op threshold; ...`` line (the ones it can read)."""
    read = (read_constraint(part) for part in line.removeprefix("constraints:").split(";"))
    return [c for c in read if c is not None]


LABEL_WORDS = 2  # a header names a column by at most this many words (its unit and bound come on top)


def short_label(words: list[str], lead: set[str], named: list[str]) -> list[str]:
    """A column's header words, shortened: the last word of the goal's name for it (the word that ties it to
    its bound), else the two that stand nearest before its values ("unit price", "notice period"), else the
    first that follows them. The header is a label for a reader; the audit and the reference reader need
    only its unit and bound."""
    if named:  # its head word: "distance" of "hotel distance"
        return named[-1:]
    before = [w for w in words if w in lead]
    return before[-LABEL_WORDS:] or words[:1]


def column_words(heads: list[list[str]], stem: Callable[[str], frozenset[str]] | None = None) -> list[frozenset[str]]:
    """Each column's label words as ``named_in`` compares them (``stem`` of the words joined, else their
    singulars): a table writer works them out once, not once per row and reason."""
    return [stem(" ".join(words)) if stem else frozenset(singular(w) for w in words) for words in heads]


def named_in(item: str, columns: list[frozenset[str]],
             stem: Callable[[str], frozenset[str]] | None = None) -> int | None:
    """The one column whose label words a reason item shares ("distance centre" -> ``hotel distance km``), compared
    as ``stem`` gives them (singular words by default), ``columns`` being ``column_words(heads, stem)``; None when no
    column or several do."""
    said = stem(item) if stem else {singular(w) for w in item.split(" ")}
    fits = [k for k, words in enumerate(columns) if said & words]
    return fits[0] if len(fits) == 1 else None


UNITLESS = ("#", "time", "date")
"""Column units the header does not write (counts, clock times, dates)."""


_VALUE_FORMS = frozenset({"covered", "seated", "heated", "sold"})  # they describe an option ("covered parking")


LINKING_VERBS = frozenset({"take", "takes", "took", "taking", "get", "gets", "got", "measure", "measures",
                           "measuring", "total", "totals", "totalling", "totaling", "amount", "amounts", "stand",
                           "stands", "lie", "lies", "come", "comes", "sit", "sat", "sits", "held", "include",
                           "includes"})
"""Verbs that only tie a value to its option ("the commute takes 4.2 km", "the bill totals 90 EUR")."""


@functools.lru_cache(maxsize=4096)
def filler_form(word: str) -> bool:
    """Whether ``word`` is another form of a verb the evidence rows already leave out ("charged", "offered" of
    "charging", "offers"): a verb of telling, not a value."""
    if word in _VALUE_FORMS:
        return False
    if word in LINKING_VERBS:
        return True
    for end in ("ed", "d", "s", "ing"):
        stem = word.removesuffix(end)
        # "runs" of "running", "promises" of "promising": a doubled last letter, a silent e
        forms = {stem + "ing", stem + "s", stem + "es", stem + stem[-1:] + "ing", stem.removesuffix("e") + "ing"}
        if stem != word and len(stem) >= 3 and not forms.isdisjoint(FILLER):
            return True
    return False


_VAGUE = frozenset({"too", "high", "higher", "low", "lower", "much", "limit", "limits", "bound", "bounds"})


@functools.lru_cache(maxsize=1024)
def vacuous_reason(item: str) -> bool:
    """Whether a reason item says only that some bound is broken ("above limit", "too high", "over the cap",
    "brings"): comparators, filler and linking verbs, no attribute."""
    words = [w.lower() for w in _WORDS.findall(item)]
    return bool(words) and all(w in COMPARATORS or w in DROP_WORDS or w in _VAGUE or filler_form(w) for w in words)


@functools.lru_cache(maxsize=256)
def unit_words(unit: str) -> frozenset[str]:
    """The word of a column's unit as a row may write it next to a value ("stars" of ``2 stars``): the header
    says it, so a row need not."""
    if unit in UNITLESS or unit in CURRENCY_CODES or not unit.isalpha():
        return frozenset()
    return frozenset({singular(unit.lower())})


RATE_WORDS = frozenset({"night", "nightly", "hour", "hourly", "hr", "day", "daily", "week", "weekly", "month",
                        "monthly", "year", "yearly", "annual", "annually", "unit", "item", "piece", "person",
                        "head", "seat", "user", "gpu-hour", "card", "visit", "call"})
"""What a price is per: next to a money value they are its unit's denominator, never a value of their own."""
MONEY_LABELS = frozenset({"price", "prices", "rate", "rates", "fare", "fares", "cost", "fee", "fees", "rent",
                          "salary", "charge", "tariff"})
"""Words that name a money value right before it ("fare 89 USD", "rate 311 USD"): its label, never a value."""
MONEY_REASONS = frozenset({"budget", "price", "cost", "costly", "expensive", "pricey", "pricy", "afford", "rate",
                           "fare", "rent", "salary", "money"})
"""Reason words (as ``stems`` gives them) that name a money bound ("over budget", "too pricey")."""
GENERIC_LABELS = frozenset({"rating", "score", "amount", "number", "level"})
"""Words that name any value right before it ("star rating 4 stars"): a label, never a value."""
DISTANCE_LABELS = frozenset({"distance"})
"""Words that name a length right before it ("distance 1.2 km")."""


MEASURE_NOUNS: dict[str, frozenset[str]] = {
    **dict.fromkeys(("GB", "TB", "MB"), frozenset({"memory", "ram", "vram", "storage", "disk"})),
    "%": frozenset({"uptime", "availability"}),
    **dict.fromkeys(("km", "miles", "m"), frozenset({"distance"})),
    "ms": frozenset({"latency"}),
    **dict.fromkeys(("Gbps", "Mbps"), frozenset({"bandwidth"})),
    **dict.fromkeys(("kg", "lb"), frozenset({"weight"})),
    **dict.fromkeys(("m2", "sqft"), frozenset({"area"})),
}
"""Nouns that say what a unit measures ("48 GB memory", "99.9% uptime"): next to the only column of that unit,
on either side, they name it (``column_of`` and the writer's ``_measure`` say when)."""


def known_labels(unit: str, before: bool) -> frozenset[str]:
    """The words known to label a value of ``unit`` when they stand right before it."""
    if not before:
        return frozenset()
    if unit in CURRENCY_CODES:
        return MONEY_LABELS | GENERIC_LABELS
    return DISTANCE_LABELS | GENERIC_LABELS if unit in ("km", "miles", "m") else GENERIC_LABELS


RATE_ADJECTIVES = frozenset(w for w in RATE_WORDS if w.endswith("ly")) | {"annual"}


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while a table is written or a trace read: neither makes reference
    cycles, and on 100k options the collector's scans of the live rows cost a third of the writing and a tenth
    of the reading. Nestable; the collector's state is restored."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


PASS_CELL = "+"
OUT_CELL = "-"
"""A row's verdict: ``+`` passes, ``-`` is eliminated (``out:REASON`` where the row must say why), ``?``
unknown. A sign before the line break costs no token of its own (``" +\n"`` is one token), a word does."""


def verdict_cell(verdict: str | None, reason: str) -> str:
    if verdict == "pass":
        return PASS_CELL
    if verdict == "eliminated":
        return f"out:{reason}" if reason else OUT_CELL
    return "?"


def column_name(label: Sequence[str], unit: str) -> str:
    """``"price night USD"``: every word moved off the column's values (nearest-before first), then the
    unit (unless a label word already says it)."""
    words = [w for w in dict.fromkeys(label) if unit in UNITLESS or w != unit.lower()]
    if unit not in UNITLESS:
        words.append(unit)
    return " ".join(words) or ("time" if unit == "time" else "date" if unit == "date" else "value")


class _Columns(Protocol):
    columns: list[tuple[str, int]]
    near_words: dict[tuple[str, int], set[str]]


def bound_words(constraint: Constraint, constraints: Sequence[Constraint]) -> frozenset[str]:
    """The words (singular) of a bound's name and threshold ("sla", "card" of ``gb >= 48 GB per card``): where
    they touch a value of the column the header bounds ("99.9% SLA", "80 GB cards") they only say what the
    header says, so they go. Never a value some constraint wants ("us-east", "pool")."""
    wants = {singular(w.lower()) for c in constraints if c.operator in ("==", "contains", "in")
             for w in _WORDS.findall(c.threshold)}
    said = {singular(w.lower()) for w in _WORDS.findall(f"{constraint.name} {constraint.threshold}")}
    return frozenset(said - wants)




def column_of(constraint: Constraint, groups: Sequence[_Columns],
              taken: Collection[tuple[int, int]] = ()) -> tuple[int, int] | None:
    """(group, column) whose values ``constraint`` bounds: the only column of its unit, or the only one of
    its unit with a word of its name next to its values, leaving out the columns another bound ``taken``
    ("58 GBP monthly premium, 150 GBP excess": "premium" touches both, "excess" took the second); None when
    it is not clear."""
    if constraint.operator not in ("<=", ">=", "=="):
        return None
    found = [m for m in TOKEN.finditer(constraint.threshold) if m.lastgroup in ("qty", "time", "date")]
    if len(found) != 1:
        return None
    kind = found[0].lastgroup
    unit = kind if kind in ("time", "date") else (quantity_of(found[0]).unit or "#")
    places = [(g, c) for g, group in enumerate(groups) for c, key in enumerate(group.columns) if key[0] == unit]
    if len(places) > 1:
        name = {singular(w) for w in constraint.name.lower().split()}
        places = [(g, c) for g, c in places
                  if name & {singular(w) for w in groups[g].near_words.get(groups[g].columns[c], ())}]
        places = [p for p in places if p not in taken]
    return places[0] if len(places) == 1 else None


def header_bound(constraint: Constraint) -> str:
    """A constraint as its column's header writes it: ``<=305``, ``==14:00``."""
    match = next(m for m in TOKEN.finditer(constraint.threshold) if m.lastgroup in ("qty", "time", "date"))
    value = normal_time(match.group(0)) if match.lastgroup == "time" else normal_date(match.group(0)) \
        if match.lastgroup == "date" else format_number(quantity_of(match).value)
    return f"{constraint.operator}{value}"


__all__ = ["DISTANCE_LABELS", "EQUAL", "GENERIC_LABELS", "LABEL_WORDS", "LINKING_VERBS", "MEASURE_NOUNS",
           "MONEY_LABELS", "MONEY_REASONS", "OUT_CELL", "PASS_CELL", "RATE_ADJECTIVES", "RATE_WORDS", "UNITLESS",
           "Wanted", "alias", "applying", "bound_value", "bound_words", "collector_paused", "column_name",
           "column_of", "column_words", "filler_form", "full_number", "header_bound",
           "known_labels", "named_in", "read_constraint", "read_constraint_line",
           "short_label", "short_number", "singular", "stems", "unit_words", "vacuous_reason",
           "verdict_cell", "violates", "wanted"]
