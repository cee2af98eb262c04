"""The row body of a compact evidence table as the writer holds it, and the words that touch a value in it.

The reader of a trace (``relaykit.handoff.evidence``) keeps each option's evidence as one encoded body: its
words as they are, each typed value normalised and joined to its unit by ``SEP`` (``2.7\x1fUSD``,
``14:00\x1ftime``), ``BREAK`` between clauses (``decode`` writes a token back as text). The compact writer
(``relaykit.handoff.compact``) parses a body into items (a value with its unit, a word, a clause break), keys
each value by its unit and its rank among the row's values of that unit (its column), and looks at the words
on either side of a value to find its labels (``relaykit.handoff.compact_labels``).
"""

from __future__ import annotations

from collections import Counter, defaultdict

from relaykit.handoff.compact_rules import UNITLESS
from relaykit.handoff.constraints import singular as _singular
from relaykit.handoff.lexicon import TOKEN
from relaykit.handoff.text import format_number, normal_date, normal_time, quantity_of

BREAK = ";"
"""Between the clauses of a row body: words on either side of it are not each other's neighbours."""
SEP = "\x1f"
"""Joins a typed value to its unit inside a row body (``2.7\x1fUSD``); the text forms never show it."""


Item = tuple[str, str | None]  # (normalised value or word, column unit; None for a word)


def encode(value: str, unit: str) -> str:
    """One typed value as a row body holds it: normalised, joined to its unit by ``SEP`` (no space)."""
    return f"{value}{SEP}{unit}"


def decode(token: str) -> str:
    """A body token as text: ``2.7 USD``, ``99.5%``, ``14:00``, ``5``; words as they are."""
    value, sep, unit = token.partition(SEP)
    if not sep or unit in UNITLESS:
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
            out.append(encode(normal_date(m.group(0)), "date"))
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


def parse_row(body: str) -> tuple[list[Item], dict[int, tuple[str, int]]]:
    """``items_of`` and ``keys_of`` of a row body in one pass (the compact writer parses every row twice)."""
    items: list[Item] = []
    append = items.append  # (a row has dozens of tokens: the method is looked up once)
    keys: dict[int, tuple[str, int]] = {}
    seen: dict[str, int] = {}
    for token in body.split(" "):
        if token == BREAK:
            append(_BREAK_ITEM)
        elif SEP in token:
            value, _, unit = token.partition(SEP)
            if unit != BREAK:
                rank = seen.get(unit, 0)
                keys[len(items)] = (unit, rank)
                seen[unit] = rank + 1
            append((value, unit))
        elif token:
            append((token, None))
    return items, keys


_BREAK_ITEM: Item = (BREAK, BREAK)  # one tuple for every clause break (equal to a fresh one; never changed)


def keys_of(items: list[Item]) -> dict[int, tuple[str, int]]:
    seen: dict[str, int] = {}  # a plain dict: a Counter's missing key costs a Python call (once per row)
    keys = {}
    for i, (_, unit) in enumerate(items):
        if unit is not None and unit != BREAK:
            rank = seen.get(unit, 0)
            keys[i] = (unit, rank)
            seen[unit] = rank + 1
    return keys


def touching(items: list[Item], i: int) -> tuple[int, int]:
    """``(start, end)``: the words touching value ``i`` are ``items[start:i]`` (up to 3) and ``items[i + 1:end]``
    (up to 2), runs of words that stop at a value or a clause break."""
    start, end, size = i, i + 1, len(items)
    while start > 0 and i - start < 3 and items[start - 1][1] is None:
        start -= 1
    while end < size and end - i <= 2 and items[end][1] is None:
        end += 1
    return start, end


def sides(items: list[Item], i: int) -> tuple[list[int], list[int]]:
    """The words touching value ``i`` (``touching``): before it (nearest first) and after it."""
    start, end = touching(items, i)
    return list(range(i - 1, start - 1, -1)), list(range(i + 1, end))


def count_near(items: list[Item], i: int, slots: defaultdict[int, Counter[str]], seen: Counter[str]) -> None:
    """Count each word touching value ``i`` at its place (``slots``, by offset) and once in ``seen``."""
    start, end = touching(items, i)  # up to 3 words before (in order), then up to 2 after
    if end - start == 2:  # one word touches the value (often): no set of words needed
        j = start if start < i else end - 1
        word = items[j][0].lower()
        slot = slots[j - i]
        slot[word] = slot.get(word, 0) + 1
        seen[word] = seen.get(word, 0) + 1
        return
    words: set[str] = set()
    for j in (*range(start, i), *range(i + 1, end)):
        word = items[j][0].lower()
        slot = slots[j - i]
        slot[word] = slot.get(word, 0) + 1
        words.add(word)
    for word in words:
        seen[word] = seen.get(word, 0) + 1


def side_run(items: list[Item], side: list[int], gone: set[int], labels: frozenset[str], names: frozenset[str],
             bound: frozenset[str], per: frozenset[str]) -> list[int]:
    """The words of ``side`` (indices, from the value outwards) that move with a value: a run of its labels,
    names, bound or unit words, and words what a price is per (``per``, past a label), and words already moved."""
    moved: list[int] = []
    for j in side:  # only words that touch the value, in a run
        if j not in gone:
            word = items[j][0].lower()
            if word not in labels and word not in names and _singular(word) not in bound \
                    and not (moved and word in per):
                break
        moved.append(j)
    return [j for j in moved if j not in gone] if moved and gone else moved


__all__ = ["BREAK", "SEP", "Item", "count_near", "decode", "encode", "encode_text", "items_of", "keys_of", "parse_row",
           "side_run", "sides", "touching"]
