"""Reading a compact evidence table (``relaykit.handoff.compact``) back into labelled rows.

``parse_compact`` gives each row its values with the header's labels and units (``GV02 1.5`` under
``rate USD`` is ``rate 1.5 USD``; ``=`` is the column's bound, ``.5`` is 0.5), its verdict (``+``, ``-``,
``?``; ``ok`` and ``out`` of the earlier form too), the words of the header's limits a passing row meets
without writing them (see ``relaykit.handoff.compact_promise``) and its reasons: a marked value ``1.5!``, a
value beyond its column's bound, a wanted word of the ``constraints:`` line the row lacks, and what ``out:`` says.
``expand`` writes them as ``ID: evidence | verdict (reason)`` lines, which is how the audit reads a payload.
Text that does not fit the format exactly is not a compact table (None): it is read as ordinary text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from relaykit.handoff.compact import MISSING, OTHER
from relaykit.handoff.compact_header import SHORT_START, header_cells
from relaykit.handoff.compact_promise import PASS, implied
from relaykit.handoff.compact_rules import (
    EQUAL,
    Wanted,
    alias,
    applying,
    bound_value,
    full_number,
    read_constraint,
    read_constraint_line,
    violates,
    wanted,
)
from relaykit.handoff.schema import Constraint
from relaykit.handoff.text import CURRENCY_CODES, UNITS

_BOUND = re.compile(r"(?:<=|>=|==)\S+$")
Column = tuple[str, str, str]  # (label, unit, bound such as "<=305" or "")
_VERDICT_CELL = re.compile(r"(?:[+?-]|ok|out(?::\S.*)?)$")  # "ok" and "out" alone: the earlier form


@dataclass(frozen=True)
class ParsedRow:
    """One row of a compact payload read back: its labelled evidence, verdict and reason."""

    id: str
    body: str
    verdict: str | None
    reason: str


def _column(name: str) -> Column:
    """(label, unit, bound) of a header cell: the unit is its last word when that word is a unit or currency;
    the bound (``<=305``) is read off, not part of the label."""
    words = [w for w in name.split(" ") if not _BOUND.match(w)]
    bound = next((w for w in name.split(" ") if _BOUND.match(w)), "")
    last = words[-1] if words else ""
    if last in CURRENCY_CODES or last in UNITS.values() or last == "%":
        return " ".join(words[:-1]), last, bound
    return " ".join(words), "", bound


def _unit_name(unit: str) -> str:
    """What a column named by its unit alone holds, as a reason says it (``USD <=6.8`` -> "price"): the names
    the goal reader gives an unnamed bound (money -> price, a length -> distance), else the unit."""
    return "price" if unit in CURRENCY_CODES else "distance" if unit in ("km", "miles", "m") else unit


def _value_text(label: str, value: str, unit: str) -> str:
    written = value + ("%" if unit == "%" else f" {unit}" if unit else "")
    return f"{label} {written}".strip()


@dataclass
class _Read:
    """A row read off its line, before its family's wanted words are known."""

    id: str
    body: str
    verdict: str | None
    words: list[str]
    why: list[str]  # its columns that say why it is out (marked or beyond their bound)
    said: str  # the reason it states itself (``out:REASON``)

    def parsed(self, wants: list[Wanted], given: Sequence[Wanted] = ()) -> ParsedRow:
        """The row, with a wanted word it lacks as a reason when it is out (the constraints line says it), and
        when it passed, the words of the header's limits ``given`` (it meets them; see ``compact_promise``)."""
        lacking = [w.name for w in wants if w.lacking(self.words)] if self.verdict == "eliminated" else []
        body = self.body
        if self.verdict == PASS and given:
            body = " ".join([body, *(word for w in given for word in w.spelled())]).strip()
        return ParsedRow(self.id, body, self.verdict, ",".join([*self.why, *lacking,
                                                                *([self.said] if self.said else [])]))


def _row(line: str, columns: list[Column], same: str | None = None) -> _Read | None:
    cells = line.split(" ")
    at = next((k for k in range(len(columns) + 1, len(cells)) if _VERDICT_CELL.match(cells[k])), None)
    if at is None or len(cells) < len(columns) + 2:
        return None
    verdict_text = " ".join(cells[at:])
    verdict = "pass" if verdict_text in ("+", "ok") else None if verdict_text == "?" else "eliminated"
    given = [bound_value(bound) if cell == EQUAL and bound else full_number(cell)
             for cell, (_, _, bound) in zip(cells[1:1 + len(columns)], columns, strict=False)]
    values = [_value_text(label, cell.rstrip("!"), unit)
              for cell, (label, unit, _) in zip(given, columns, strict=True) if cell != MISSING]
    # a reason is a marked value (``1.5!``) or, in an eliminated row, a value beyond its column's bound
    why = [label or _unit_name(unit) for cell, (label, unit, bound) in zip(given, columns, strict=True)
           if cell.endswith("!") or (verdict == "eliminated" and cell != MISSING and bound
                                     and violates(cell, bound))]
    words = [same if w == EQUAL and same else w for w in cells[1 + len(columns):at]]  # "=": the wanted word
    return _Read(cells[0], " ".join([*values, *words]), verdict, words, why, verdict_text.partition(":")[2])


READING_GUIDE = (
    "The hand-off is an evidence table. Each `id ...` header starts one family of options and names its columns "
    "in order, each by a unit or label and its bound if any (`id USD <=400 km <=8 stars`, or cells split by `|`). "
    "A trailing `region == us-east` is a goal limit no column states, for every family (also on a `constraints:` "
    "line). Each line below is one option: its id, "
    "its values in column order (`-` missing, `=` equal to the column's bound, `.8` is 0.8), other words, then "
    "the verdict: `+` passed (it has every word a header limit wants that no `+` row of its family writes), "
    "`-` eliminated (a value beyond its column's bound, or a wanted word it "
    "lacks, is the reason), `out:REASON` eliminated for that reason, `?` no verdict. `note:` lines are evidence no "
    "option claimed."
)
"""How to read a compact payload, for the model that reads one: give it in that model's instructions (paid
once per call, not per option); ``reading_guide`` gives it for a payload that is compact."""


def reading_guide(text: str) -> str | None:
    """``READING_GUIDE`` when ``text`` is a compact payload, else None."""
    return READING_GUIDE if is_compact(text) else None


def is_compact(text: str) -> bool:
    """Whether ``text`` starts like a compact payload (a ``constraints:`` line or a header of either form, see
    ``relaykit.handoff.compact_header``);
    ``parse_compact`` then reads every line strictly."""
    head = text.lstrip()[:4096]
    first = head.split("\n", 1)[0]
    if first.startswith("constraints:"):
        first = head.split("\n", 2)[1] if head.count("\n") >= 1 else ""
    return first.startswith(SHORT_START) and header_cells(first) is not None


def parse_compact(text: str) -> tuple[list[ParsedRow], list[str]] | None:
    """The rows and notes of a compact payload, or None when ``text`` is not one (any line that does not
    fit the format makes it ordinary text)."""
    if not is_compact(text):
        return None
    families: list[tuple[list[_Read], list[Wanted], list[Wanted]]] = []
    notes: list[str] = []
    columns: list[Column] = []
    stated: list[Constraint] = []  # from a ``constraints:`` line and the headers' constraint cells
    promised: list[Constraint] = []  # the headers' constraint cells: a passing row meets them
    wants: list[Wanted] = []
    promises: list[Wanted] = []
    family: list[_Read] = []
    for line in _lines(text):
        names = header_cells(line)
        if names is not None:  # either form: ``id USD <=305 km <=8 stars`` or ``id | price USD <=305 | ...``
            families.append((family, wants, promises))
            family = []
            said = [read_constraint(n) for n in names]
            stated += [c for c in said if c is not None]
            promised += [c for c in said if c is not None]
            wants, promises = wanted(stated), wanted(promised)
            columns = [_column(n) for n, c in zip(names, said, strict=True) if n and c is None
                       and n.split(" ")[0] != OTHER]
        elif line.startswith("note: "):
            notes.append(line[6:])
        elif line.startswith("constraints:"):
            stated += read_constraint_line(line)
            wants = wanted(stated)
        else:
            row = _row(line, columns, alias(wants)) if "|" not in line else None
            if row is None:
                return None
            family.append(row)
    families = [(rows, said, kept) for rows, said, kept in [*families, (family, wants, promises)] if rows]
    one = len(families) == 1  # a table of one family: every wanted word speaks of it
    return [row for rows, said, kept in families for row in _family_rows(rows, said, one, kept)], notes


def _family_rows(family: list[_Read], wants: list[Wanted], every: bool = False,
                 promises: list[Wanted] | None = None) -> list[ParsedRow]:
    """The rows under one header, each with the wanted words that speak of this family (``every``: all), and
    each passing row with the words of the header's limits (``promises``) that no passing row writes."""
    fitting = wants if every else applying(wants, (row.words for row in family))
    kept = [w for w in fitting if w in (promises or [])]
    given = implied(kept, [(row.verdict, row.words) for row in family]) if kept else []
    return [row.parsed(fitting, given) for row in family]


def _lines(text: str) -> Iterator[str]:
    for line in text.split("\n"):
        if line.strip():
            yield line.strip()


def expand(text: str) -> str | None:
    """A compact payload as labelled lines (``GV02: rate 1.5 USD memory 96 GB ap-south | eliminated
    (region)``), or None when ``text`` is not one: how the audit reads it."""
    parsed = parse_compact(text)
    if parsed is None:
        return None
    rows, notes = parsed
    lines = []
    for row in rows:
        verdict = f" | {row.verdict}" + (f" ({row.reason})" if row.reason else "") if row.verdict else ""
        lines.append(f"{row.id}: {row.body}{verdict}")
    return "\n".join([*lines, *notes])



__all__ = ["ParsedRow", "expand", "is_compact", "parse_compact"]
