"""The header line of a compact evidence table (``relaykit.handoff.compact``): how it is written and read.

A header names the columns of the rows under it, in their order, and may carry the goal's constraints that
no column states. It has two forms.

The **short form** (issue 12, ninth wave) writes the header like the rows: words separated by spaces, a
column by its unit (or, without a unit, its label), perhaps label words before the unit (``property stars``,
``premium GBP``, ``notice period weeks``), and its bound (``<=305``, glued to its value); a column ends at
its unit or its bound. A goal constraint that no column states follows (``amenities contains pool``), and
more of them after `` | ``. The bars between cells cost a token each; here each header word stands over
what it names:

    id USD <=305 km <=8 stars amenities contains pool
    HT01 255 = 3 gym spa pool bar +

The **long form** separates every cell by `` | `` (``id | price USD <=305 | walk distance m``). The writer
uses it wherever the short form would read back otherwise (three label words, a label-only column before
another, no column at all); the reader reads both (and the earlier ``... | verdict`` form).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from relaykit import tokens
from relaykit.handoff.compact_rules import LABEL_WORDS, read_constraint, singular, wanted
from relaykit.handoff.schema import Constraint
from relaykit.handoff.text import CURRENCY_CODES, UNITS

SHORT_START = "id "
LONG_START = "id | "
LONG_END = " | verdict"  # the earlier form ended each header with it
OPERATORS = frozenset({"==", "contains"})  # of a constraint written in the short form's words
_BOUND = re.compile(r"(?:<=|>=|==)\S+$")
_UNITS = frozenset(UNITS.values())
_NOT_NAMES = frozenset({"==", "contains", "in", "<=", ">=", "|", "=", "-", "+", "?", "other"})


def _name(word: str) -> bool:
    """Whether ``word`` can name a column in the short form: a plain word (no sentence mark after it), not a
    bound or an operator."""
    return bool(word) and word not in _NOT_NAMES and "|" not in word and word[-1] not in ".,;:!?" \
        and not _BOUND.match(word)


def short_header(heads: Sequence[str]) -> str | None:
    """The short form of a header whose column cells are ``heads`` (``["USD <=305", "km <=8", "stars"]``),
    or None where a cell is not one name word and at most one bound, or the line would read back otherwise."""
    words: list[str] = []
    for head in heads:
        parts = head.split(" ")
        names = parts[:-1] if _BOUND.match(parts[-1]) else parts
        if not 1 <= len(names) <= 1 + LABEL_WORDS or not all(map(_name, names)) \
                or (len(names) > 1 and not _unit(names[-1])):
            return None  # a column of its unit or label, label words only before a unit
        words += parts
    line = SHORT_START + " ".join(words)
    return line if words and header_cells(line) == list(heads) else None


def with_constraint(line: str, constraint: str) -> str | None:
    """A short header with one constraint as its last words (``amenity contains pool``: its name and its
    wanted word one word each), or None where that would not read back as the same cells."""
    if not line.startswith(SHORT_START) or line.startswith(LONG_START) or " | " in line:
        return None
    parts = constraint.split(" ")
    if len(parts) != 3 or parts[1] not in OPERATORS or not _name(parts[0]) or not _name(parts[2]) \
            or read_constraint(constraint) is None:
        return None
    cells = header_cells(line)
    joined = f"{line} {constraint}"
    return joined if cells is not None and header_cells(joined) == [*cells, constraint] else None


def inline_constraint(lines: list[str], left: list[Constraint]) -> tuple[list[str], list[Constraint]]:
    """The table's ``lines`` with the one constraint no column states (``left``) as the last words of a short
    first header (``id USD <=305 km <=8 stars amenities contains pool``: no bar before it), where it reads back
    so; the constraints still to be written after the table's bars (none, or ``left``)."""
    if len(left) != 1 or not lines or not wanted(left):
        return lines, left
    c = left[0]
    joined = with_constraint(lines[0], f"{cheapest_name(c.name)} {c.operator} {c.threshold}")
    return ([joined, *lines[1:]], []) if joined else (lines, left)


def cheapest_name(name: str) -> str:
    """A one-word constraint name in the spelling of fewest tokens, singular or plural (" amenities" is one
    token, " amenity" two): the reader compares names as singular words, so either reads the same."""
    if " " in name or not name.isalpha():
        return name
    forms = [name, f"{name}s", f"{name}es", f"{name[:-1]}ies" if name.endswith("y") else name, singular(name)]
    same = [f for f in forms if singular(f) == singular(name)]
    return min(same, key=lambda f: (tokens.count(f" {f}"), f != name))


def header_cells(line: str) -> list[str] | None:
    """The cells of a header line in the long form's terms (``["USD <=305", "km <=8", "amenity contains
    pool"]``: column cells, then constraint cells), or None when ``line`` is no header."""
    if line.startswith(LONG_START):
        return line.removesuffix(LONG_END)[len(LONG_START):].split(" | ")
    if not line.startswith(SHORT_START):
        return None
    first, *rest = line[len(SHORT_START):].split(" | ")
    words = first.split(" ")
    tail: list[str] = []
    if len(words) >= 3 and words[-2] in OPERATORS and _name(words[-3]) and _name(words[-1]):
        tail, words = [" ".join(words[-3:])], words[:-3]
    cells = _columns(words) if words != [""] else []
    return None if cells is None else [*cells, *tail, *rest]


def _columns(words: list[str]) -> list[str] | None:
    """The column cells of a short header's words: a column ends at its unit or at its bound (None when a
    word is no name or a bound has no column)."""
    cells: list[str] = []
    column: list[str] = []
    for k, word in enumerate(words):
        if _BOUND.match(word):
            if not column:
                return None  # a bound with no column of its own
            cells.append(" ".join([*column, word]))
            column = []
            continue
        if not _name(word):
            return None
        column.append(word)
        following = words[k + 1] if k + 1 < len(words) else ""
        if not following or (_unit(word) and not _BOUND.match(following)):
            cells.append(" ".join(column))
            column = []
    return cells


def _unit(word: str) -> bool:
    """Whether ``word`` is a unit a column's values carry (``USD``, ``km``, ``%``, ``stars``)."""
    return word in CURRENCY_CODES or word in _UNITS or word == "%"


def is_header(line: str) -> bool:
    """Whether ``line`` is a header of either form."""
    return header_cells(line) is not None


__all__ = ["LONG_END", "LONG_START", "OPERATORS", "SHORT_START", "cheapest_name", "header_cells", "inline_constraint",
           "is_header", "short_header", "with_constraint"]
