"""Values given one per id, in order, by the evidence reader (``relaykit.handoff.evidence``): a parenthesised
list ("(4.2 km and 5.5 km)"), a clause that says "respectively", a slash list ("40/55/70 USD") or a plain list of
one amount per id ("HT1, HT2 and HT3 cost 40, 55 and 70 USD"), with a list's last unit given to all of it."""

from __future__ import annotations

import re
from itertools import pairwise

from relaykit.handoff.lexicon import TOKEN
from relaykit.handoff.reading import CONNECTORS, RESPECTIVELY
from relaykit.handoff.text import find_quantities

_GROUPED = re.compile(r"\(([^()]*)\)")


def respective(tail: str, count: int) -> list[tuple[str, int, int]] | None:
    """The values a clause about ``count`` ids gives one per id, in order: a parenthesised list of exactly
    that many values ("(4.2 km and 5.5 km)") or a clause that says "respectively" (with as many values per id
    as it lists: "cost 40 and 55 EUR and take 3 and 5 hours", id ``k`` has values ``k``, ``k + count``, ...).
    None otherwise."""
    spans: list[tuple[int, int]] = []
    for group in _GROUPED.finditer(tail):
        found = [m.span() for m in TOKEN.finditer(group.group(1)) if m.lastgroup in ("qty", "time", "date")]
        rest = CONNECTORS.sub("", "".join(group.group(1)[e:s] for (_, e), (s, _) in pairwise([(0, 0), *found,
                                                                                          (len(group.group(1)),) * 2])))
        if len(found) == count and not rest:
            spans = [(group.start(1) + a, group.start(1) + b) for a, b in found]
            break
    if not spans:
        spans = _slash_list(tail, count)
    if not spans and RESPECTIVELY.search(tail):
        spans = [m.span() for m in TOKEN.finditer(tail) if m.lastgroup in ("qty", "time", "date")]
    elif not spans:
        spans = implied_list(tail, count)
    if not spans or len(spans) % count or (len(spans) > count and any(
            CONNECTORS.sub("", tail[b:c]) for k, ((_, b), (c, _)) in enumerate(pairwise(spans)) if (k + 1) % count)):
        return None  # several values per id: each round a plain list ("40 and 55 EUR", not "40 EUR for 2 nights")
    values = [tail[a:b] for a, b in spans]
    for start in range(0, len(values), count):  # "40, 55 and 70 USD": the unit of a list's last value is all of it
        values[start:start + count] = shared_unit(values[start:start + count])
    return [(value, a, b) for value, (a, b) in zip(values, spans, strict=True)]


_LISTED_AMOUNT = re.compile(r"^[-−]?\d[\d.,]*(?:\s*(?P<unit>\S.*))?$")
_LIST_GLUE = re.compile(r"^(?:\s*,\s*|\s*,?\s+and\s+|\s*&\s*)$", re.IGNORECASE)
_RANGE_BEFORE = re.compile(r"\b(?:between|from|range|ranging|ranges|either|to)\s*$", re.IGNORECASE)


def shared_unit(values: list[str]) -> list[str]:
    """A list whose last value alone writes its unit after it ("40, 55 and 70 USD", "5, 12 and 20 days"): the
    unit goes to every bare number before it; any other list is left as it is."""
    last = _LISTED_AMOUNT.match(values[-1].strip())
    unit = last.group("unit") if last else None
    if not unit or len(values) < 2 or not all((m := _LISTED_AMOUNT.match(v.strip())) and not m.group("unit")
                                              for v in values[:-1]):
        return values
    return [f"{v.strip()} {unit}" for v in values[:-1]] + [values[-1]]


_SLASHED = re.compile(r"(?<![\w./-])(?P<run>\d[\d.,]*(?:/\d[\d.,]*)+)(?P<unit>\s?(?:%|[A-Za-z€$£]{1,8}))?(?![\w/])")


def _slash_list(tail: str, count: int) -> list[tuple[int, int]]:
    """The values of a slash list of exactly ``count`` amounts after ``count`` ids ("HT1/HT2/HT3 cost 40/55/70
    USD"), the unit with the last; without a unit after it, none of two parts ("4.5/5", "24/7") nor one that can be
    a date ("10/11/12")."""
    for m in _SLASHED.finditer(tail):
        parts = m.group("run").split("/")
        if len(parts) != count:
            continue
        numbers = [float(p.replace(",", "")) if p.replace(",", "").replace(".", "", 1).isdigit() else -1.0
                   for p in parts]
        bare = m.group("unit") is None
        if min(numbers) < 0 or (bare and len(parts) == 2) or (bare and numbers[0] <= 31 and numbers[1] <= 31
                                                              and all(n.is_integer() for n in numbers)):
            return []  # "4.5/5", "24/7", "3/4" or "10/11/12": a score, a fraction or a date, left to the tokens
        spans, at = [], m.start()
        for k, part in enumerate(parts):
            end = m.end() if k == count - 1 else at + len(part)
            spans.append((at, end))
            at += len(part) + 1
        return spans
    return []


def implied_list(tail: str, count: int) -> list[tuple[int, int]]:
    """The values of a plain list of exactly ``count`` amounts of one kind after ``count`` ids, with nothing else
    typed in the clause ("HT1, HT2 and HT3 cost 40, 55 and 70 USD": one each, in order, as "respectively" says);
    no range ("between 40 and 55 USD") and no "or" ("40 or 55 USD" is no list of one per id)."""
    found = [m for m in TOKEN.finditer(tail) if m.lastgroup in ("qty", "time", "date")]
    if len(found) != count or count < 2 or _RANGE_BEFORE.search(tail[:found[0].start()]):
        return []
    if not all(_LIST_GLUE.match(tail[a.end():b.start()]) for a, b in pairwise(found)):
        return []
    units = {q[0].unit if (q := find_quantities(v)) else "" for v in shared_unit([m.group(0) for m in found])}
    return [m.span() for m in found] if len(units) == 1 and units != {None} else []


__all__ = ["implied_list", "respective", "shared_unit"]
