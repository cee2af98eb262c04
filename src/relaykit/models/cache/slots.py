"""Typed slots of a request: the values two requests must share, in their roles, to share an answer.

A slot is a number (with its sign and unit), a date, a clock time, an ordinal, an identifier mixing letters
and digits, a month, a weekday, a secret placeholder or a name (a capitalised word). Each slot carries its
*role*: the role preposition in front of it ("from 3 pm", "to account 200") and its nearest content word
("account 200"). Words a slot consumed (units, signs, number words) are not seen again by the word guards.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any

from relaykit.models.cache.lexicon import (
    BOUNDARIES,
    FILLERS,
    MONTHS,
    MULTIPLIERS,
    NUMBER_WORDS,
    ORDINALS,
    POLES,
    ROLE_PREPOSITIONS,
    ROUTE_PREPOSITIONS,
    UNITS,
    WEEKDAYS,
)

TOKEN = re.compile(
    r"(?P<secret>\[secret:[0-9a-f]{8}\])"
    r"|(?P<iso>\b\d{4}-\d{1,2}-\d{1,2}\b)"
    r"|(?P<slash>\b\d{1,4}/\d{1,2}/\d{1,4}\b)"
    r"|(?P<clock>\b\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\b\.?)?)"
    r"|(?P<ampm>\b\d{1,2}\s*[ap]\.?m\b\.?)"
    r"|(?P<ordnum>\b\d+(?:st|nd|rd|th)\b)"
    r"|(?P<kilo>\b\d+(?:\.\d+)?k\b)"
    r"|(?P<ident>\b(?=[\w\-]*[A-Za-z])(?=[\w\-]*\d)\w[\w\-]*\w\b)"
    r"|(?P<number>(?:(?<![\w.\-−])[-−+])?\d(?:[\d,]*\d)?(?:\.\d+)?)"
    r"|(?P<symbol>[$€£¥₹%°#])"
    r"|(?P<word>[A-Za-z][A-Za-z'’\-]*)"
    r"|(?P<punct>[,;.?!:()&\"])"
)
SENTENCE_END = frozenset({".", "?", "!", ":", '"', "("})
PREPOSITION_SYNONYMS = {"till": "until", "til": "until", "towards": "toward", "vs": "versus", "into": "to",
                        "onto": "to"}
ONE_DETERMINERS = frozenset({"the", "this", "that", "which", "each", "any", "every", "no", "another", "one"})
# after "one", these mark the pronoun ("the cheapest one you sell"), not the number ("one tablet")
NOT_COUNTED = frozenset({"you", "i", "we", "they", "he", "she", "it", "that", "which", "who", "is", "was", "will",
                         "can", "please", "of", "or", "and", "for", "in", "on", "at", "with", "to", "from"})
TIME_WORDS = {"noon": 720, "midday": 720, "midnight": 0}


@dataclass
class Token:
    kind: str
    text: str
    low: str
    slot: Any = None  # (kind, value) once this token is (part of) a slot
    consumed: bool = False  # folded into a neighbouring slot (a unit, a sign word, a number word)


@dataclass(frozen=True)
class Slot:
    kind: str
    value: Any
    prep: str | None  # the role preposition in front ("from", "to", "until", ...)
    prev: str | None  # the nearest content word in front
    pos: int = field(compare=False)


NUMBER_HYPHEN_WORD = re.compile(r"(\d)-([A-Za-z]+)\b")


def tokenize(text: str) -> list[Token]:
    text = NUMBER_HYPHEN_WORD.sub(lambda m: f"{m.group(1)} {m.group(2)}" if m.group(2).lower() in UNITS
                                  else m.group(0), text.replace("’", "'"))
    out = []
    for match in TOKEN.finditer(text):
        kind = match.lastgroup or "punct"
        out.append(Token(kind, match.group(0), match.group(0).lower()))
    return out


def _number(text: str) -> float | str:
    raw = text.replace("−", "-").lstrip("+")
    if re.fullmatch(r"-?\d{1,3}(,\d{3})+(\.\d+)?", raw):
        raw = raw.replace(",", "")
    try:
        return float(raw)
    except ValueError:
        return raw  # "1,5" or "1.2.3": compared as written


def _clock(text: str) -> int:
    low = text.lower().replace(".", "").replace(" ", "")
    digits = re.match(r"(\d{1,2})(?::(\d{2}))?", low)
    assert digits is not None
    hours, minutes = int(digits.group(1)), int(digits.group(2) or 0)
    if low.endswith("pm") and hours < 12:
        hours += 12
    elif low.endswith("am") and hours == 12:
        hours = 0
    return hours * 60 + minutes


def _date(tok: Token) -> tuple[Any, ...]:
    parts = [int(p) for p in re.split(r"[-/]", tok.text)]
    if tok.kind == "iso" or parts[0] > 31:
        return (parts[0], parts[1], parts[2])
    return ("/", *parts)  # 01/02/2024: day-first or month-first is unknowable; compared as written


def _word_number(tokens: list[Token], i: int) -> tuple[float, int] | None:
    """A number spelled in words starting at ``i`` ("twenty-five", "two hundred") and how many tokens it uses."""
    low = tokens[i].low
    if low == "one" and ((i > 0 and tokens[i - 1].low in ONE_DETERMINERS) or i + 1 >= len(tokens)
                         or tokens[i + 1].kind != "word" or tokens[i + 1].low in NOT_COUNTED):
        return None
    if not any(part in NUMBER_WORDS for part in low.split("-")):
        return None
    total, current, j = 0.0, 0.0, i
    while j < len(tokens) and tokens[j].kind == "word":
        parts = tokens[j].low.split("-")
        if all(p in NUMBER_WORDS for p in parts):
            current += sum(NUMBER_WORDS[p] for p in parts)
        elif tokens[j].low == "hundred" and j > i:
            current *= 100
        elif tokens[j].low in ("thousand", "million", "billion") and j > i:
            total, current = total + current * MULTIPLIERS[tokens[j].low], 0.0
        elif not (tokens[j].low == "and" and j + 1 < len(tokens) and tokens[j + 1].low in NUMBER_WORDS):
            break
        j += 1
    return total + current, j - i


def _unit_after(tokens: list[Token], i: int) -> tuple[str | None, int]:
    """The unit right after a number at ``i`` (and how many tokens it spans), normalised."""
    if i + 1 >= len(tokens):
        return None, 0
    nxt = tokens[i + 1].low
    if nxt in ("°", "deg", "degree", "degrees") and i + 2 < len(tokens) and tokens[i + 2].low in (
            "c", "celsius", "f", "fahrenheit", "centigrade"):
        return ("f" if tokens[i + 2].low[0] == "f" else "c"), 2
    if nxt == "°":
        return "deg", 1
    if nxt in UNITS and tokens[i + 1].kind in ("word", "symbol"):
        return UNITS[nxt], 1
    return None, 0


def _mark_numbers(tokens: list[Token]) -> None:
    for i, tok in enumerate(tokens):
        if tok.consumed or tok.slot is not None:
            continue
        value: Any = None
        if tok.kind == "number":
            value = _number(tok.text)
        elif tok.kind == "kilo":
            value = float(tok.low[:-1]) * 1e3
        elif tok.kind == "word" and any(p in NUMBER_WORDS for p in tok.low.split("-")):
            found = _word_number(tokens, i)
            if found is not None:
                value = found[0]
                for extra in tokens[i + 1: i + found[1]]:
                    extra.consumed = True
        if value is None:
            continue
        _attach_number(tokens, i, value)


def _unit_before(tok: Token) -> bool:
    if tok.low not in UNITS:
        return False
    return tok.kind == "symbol" or (len(tok.low) == 3 and UNITS[tok.low] == tok.low)


def _attach_number(tokens: list[Token], i: int, value: Any) -> None:
    tok = tokens[i]
    last = i
    while last + 1 < len(tokens) and tokens[last + 1].consumed:
        last += 1
    if isinstance(value, float) and last + 1 < len(tokens) and tokens[last + 1].low in MULTIPLIERS:
        value *= MULTIPLIERS[tokens[last + 1].low]
        tokens[last + 1].consumed = True
        last += 1
    unit, span = _unit_after(tokens, last)
    for extra in tokens[last + 1: last + 1 + span]:
        extra.consumed = True
    if i > 0 and tokens[i - 1].low in ("minus", "negative") and isinstance(value, float):
        value, tokens[i - 1].consumed = -value, True
    if unit is None and i > 0 and _unit_before(tokens[i - 1]):  # "$100", "USD 100"
        unit, tokens[i - 1].consumed = UNITS[tokens[i - 1].low], True
    tok.slot = ("number", (value, unit))


def _mark_dates(tokens: list[Token]) -> None:
    """Month-name dates ("January 2, 2024", "2nd of March") become one date slot; a lone month stays a month.
    "may", "march" and abbreviations count as months only when capitalised or next to a day."""
    for i, tok in enumerate(tokens):
        if tok.kind != "word" or tok.low not in MONTHS or tok.consumed:
            continue
        capitalised = tok.text[0].isupper()
        if tok.low == "may" and not capitalised:
            continue
        found = _day_after(tokens, i) or _day_before(tokens, i)
        if found is not None:
            tok.slot = ("date", (found[1], MONTHS[tok.low], found[0]))
        elif capitalised or (len(tok.low) > 3 and tok.low != "march"):
            tok.slot = ("month", MONTHS[tok.low])


def _day_value(tok: Token) -> int | None:
    text = re.sub(r"(st|nd|rd|th)$", "", tok.low)
    if tok.kind in ("number", "ordnum") and text.isdigit() and 1 <= int(text) <= 31:
        return int(text)
    return None


def _year_at(tokens: list[Token], j: int) -> tuple[int | None, int]:
    if j < len(tokens) and tokens[j].low == ",":
        j += 1
    if j < len(tokens) and tokens[j].kind == "number" and re.fullmatch(r"\d{4}", tokens[j].text):
        tokens[j].consumed = True
        return int(tokens[j].text), j
    return None, j


def _day_after(tokens: list[Token], i: int) -> tuple[int, int | None] | None:
    if i + 1 < len(tokens) and (day := _day_value(tokens[i + 1])) is not None and not tokens[i + 1].consumed:
        tokens[i + 1].consumed = True
        return day, _year_at(tokens, i + 2)[0]
    return None


def _day_before(tokens: list[Token], i: int) -> tuple[int, int | None] | None:
    j = i - 2 if i >= 2 and tokens[i - 1].low == "of" else i - 1
    if j >= 0 and (day := _day_value(tokens[j])) is not None and not tokens[j].consumed:
        tokens[j].consumed = True
        return day, _year_at(tokens, i + 1)[0]
    return None


def _mark_simple(tokens: list[Token]) -> None:
    for i, tok in enumerate(tokens):
        if tok.consumed or tok.slot is not None:
            continue
        if tok.kind == "secret":
            tok.slot = ("secret", tok.low)
        elif tok.kind in ("iso", "slash"):
            tok.slot = ("date", _date(tok))
        elif tok.kind in ("clock", "ampm"):
            tok.slot = ("time", _clock(tok.text))
        elif tok.low in TIME_WORDS:
            tok.slot = ("time", TIME_WORDS[tok.low])
        elif tok.kind == "ordnum":
            tok.slot = ("ordinal", int(re.sub(r"\D", "", tok.low)))
        elif tok.kind == "ident":
            tok.slot = ("ident", tok.low)
        elif tok.kind == "word" and tok.low in ORDINALS:
            tok.slot = ("ordinal", ORDINALS[tok.low])
        elif tok.kind == "word" and tok.low in WEEKDAYS and (len(tok.low) > 4 or tok.text[0].isupper()):
            tok.slot = ("weekday", WEEKDAYS[tok.low])
        elif tok.kind == "word" and tok.low in UNITS and len(tok.low) > 2 and UNITS[tok.low] not in ("x", "pcs"):
            tok.slot = ("unit", UNITS[tok.low])
        elif tok.kind == "word" and _is_name(tokens, i):
            tok.slot = ("name", tok.low)


def _mark_routes(tokens: list[Token]) -> None:
    """In a text that says "from", the first content word after "from" and "to" is a role slot."""
    if not any(t.low == "from" for t in tokens):
        return
    for i, tok in enumerate(tokens):
        if tok.low not in ROUTE_PREPOSITIONS:
            continue
        for j in range(i + 1, min(i + 4, len(tokens))):
            nxt = tokens[j]
            if nxt.slot is not None or nxt.consumed or nxt.kind != "word" or nxt.low in BOUNDARIES:
                break
            if nxt.low not in FILLERS:
                after = tokens[j + 1] if j + 1 < len(tokens) else None
                if after is None or after.slot is None or after.consumed:  # "account 3": the 3 takes the role
                    nxt.slot = ("route", nxt.low)
                break


def _is_name(tokens: list[Token], i: int) -> bool:
    """A capitalised word inside a sentence, or an acronym anywhere, that is not a known word of the guards."""
    tok = tokens[i]
    if tok.low in UNITS or tok.low in POLES or tok.low in MONTHS or tok.low == "i" or len(tok.low) < 2:
        return False
    if tok.text.isupper() and len(tok.text) >= 2:
        return True
    initial = i == 0 or tokens[i - 1].low in SENTENCE_END
    return tok.text[0].isupper() and not initial


def _role(tokens: list[Token], i: int) -> tuple[str | None, str | None]:
    """(role preposition, nearest content word) in front of token ``i``, within its clause."""
    prep: str | None = None
    prev: str | None = None
    content = 0
    for j in range(i - 1, -1, -1):
        tok = tokens[j]
        if tok.slot is not None and not tok.consumed:
            prev = prev or f"<{tok.slot[0]}:{tok.slot[1]}>"  # a value right after another is anchored to it
            break
        if tok.low in BOUNDARIES or tok.kind == "punct":
            break
        if tok.consumed or tok.low in FILLERS or tok.kind == "symbol":
            continue
        if tok.low in ROLE_PREPOSITIONS:
            prep = PREPOSITION_SYNONYMS.get(tok.low, tok.low)
            break
        prev = prev or tok.low
        content += 1
        if content >= 2:
            break
    return prep, prev


@functools.lru_cache(maxsize=4096)
def analyse(text: str) -> tuple[list[Token], list[Slot]]:
    """The tokens of ``text`` and its typed slots in order (cached: treat the result as read-only)."""
    tokens = tokenize(text)
    _mark_dates(tokens)
    _mark_numbers(tokens)
    _mark_simple(tokens)
    _mark_routes(tokens)
    slots = []
    for i, tok in enumerate(tokens):
        if tok.slot is not None and not tok.consumed:
            prep, prev = _role(tokens, i)
            slots.append(Slot(tok.slot[0], tok.slot[1], None if tok.slot[0] == "unit" else prep, prev, pos=i))
    return tokens, slots


def name_occurrences(tokens: list[Token], names: set[str]) -> list[Slot]:
    """Slots for every occurrence of one of ``names`` (any case) that was not already a slot."""
    return [Slot("name", tok.low, *_role(tokens, i), pos=i) for i, tok in enumerate(tokens)
            if tok.kind == "word" and tok.slot is None and not tok.consumed and tok.low in names]
