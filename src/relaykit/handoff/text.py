"""Text primitives shared by the hand-off methods: sentences, quantities, identifiers, verdict words.

Everything here is a pure function over strings, linear in the input, and safe on multi-megabyte traces.
Sentences come from ``relaykit.text`` (one splitter for every package).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from relaykit import tokens
from relaykit.errors import UsageError
from relaykit.memo import remembered
from relaykit.text import iter_sentences, split_sentences  # the shared splitter (re-exported)

DEFAULT_ID_PATTERN = r"\b[A-Z]{1,3}-?\d{1,4}\b"
"""Option identifiers: one to three capitals, an optional hyphen, one to four digits (H03, F-12, VND7)."""

CURRENCY_CODES = ("USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "NZD", "INR", "CNY", "SEK", "NOK", "DKK",
                  "SGD", "HKD")
CURRENCY_SYMBOLS = {"$": "USD", "£": "GBP", "€": "EUR", "¥": "JPY"}
UNITS = {
    "km": "km", "kms": "km", "kilometer": "km", "kilometers": "km", "kilometre": "km", "kilometres": "km",
    "mi": "miles", "mile": "miles", "miles": "miles", "m": "m", "meter": "m", "meters": "m", "metre": "m",
    "metres": "m", "h": "h", "hr": "h", "hrs": "h", "hour": "h", "hours": "h", "min": "min", "mins": "min",
    "minute": "min", "minutes": "min", "%": "%", "percent": "%", "star": "stars", "stars": "stars",
    "night": "nights", "nights": "nights", "day": "days", "days": "days", "kg": "kg", "gb": "GB", "tb": "TB",
    "ms": "ms", "seats": "seats", "people": "people", "users": "users", "year": "years", "years": "years",
    "yr": "years", "yrs": "years", "week": "weeks", "weeks": "weeks", "month": "months", "months": "months",
    "bedroom": "bedrooms", "bedrooms": "bedrooms", "mb": "MB", "gbps": "Gbps", "mbps": "Mbps",
    "cm": "cm", "centimeters": "cm", "centimetres": "cm", "mm": "mm", "millimeters": "mm", "millimetres": "mm",
    "inch": "inches", "inches": "inches", "ft": "ft", "feet": "ft", "kgs": "kg", "kilograms": "kg", "lb": "lb",
    "lbs": "lb", "m2": "m2", "m²": "m2", "sqm": "m2", "m3": "m3", "m³": "m3",
    "ghz": "GHz", "mhz": "MHz", "mah": "mAh", "kwh": "kWh", "kw": "kW", "sec": "s", "secs": "s", "seconds": "s",
    "second": "s", "litre": "l", "litres": "l", "liter": "l", "liters": "l", "l": "l", "ml": "ml",
    "guests": "guests", "rooms": "rooms", "beds": "beds", "cores": "cores",
    # spelled out, singular and plural: "an 80 gigabyte card", "5 per cent", "3 milliseconds"
    "gigabyte": "GB", "gigabytes": "GB", "terabyte": "TB", "terabytes": "TB", "megabyte": "MB", "megabytes": "MB",
    "gbs": "GB", "tbs": "TB", "millisecond": "ms", "milliseconds": "ms", "per cent": "%", "pct": "%",
    "kilogram": "kg", "kilo": "kg", "kilos": "kg", "gigahertz": "GHz", "megahertz": "MHz",
    "kilowatt": "kW", "kilowatts": "kW", "watt": "W", "watts": "W",
    "square metres": "m2", "square meters": "m2", "sq m": "m2", "sq ft": "sqft", "square feet": "sqft",
    "sqft": "sqft", "guest": "guests", "seat": "seats", "person": "people", "persons": "people",
    "user": "users", "room": "rooms", "bed": "beds", "core": "cores", "gpu": "GPUs", "gpus": "GPUs",
    "vcpu": "vCPUs", "vcpus": "vCPUs", "unit": "units", "units": "units", "pcs": "pcs", "pieces": "pcs",
    "wk": "weeks", "wks": "weeks", "mo": "months", "mos": "months",
    "mth": "months", "mths": "months",
    "°c": "°C", "ºc": "°C", "°f": "°F", "ºf": "°F", "degrees celsius": "°C", "degrees fahrenheit": "°F",
}
_CODES = "|".join(CURRENCY_CODES)


def phrase_trie(phrases: Iterable[str]) -> str:
    """Lower-case phrases as one regex shaped like a trie ("k(?:g|m|w)..."): the engine tries a few branches per
    position instead of every phrase in turn, and a longer phrase before its prefix (as a longest-first list)."""
    root: dict[str, Any] = {}
    for phrase in phrases:
        node = root
        for char in phrase.lower():
            node = node.setdefault(char, {})
        node[""] = {}
    return _trie_branch(root)


def _trie_branch(node: dict[str, Any]) -> str:
    parts = [re.escape(c) + _trie_branch(sub) for c, sub in sorted(node.items()) if c]
    if not parts:
        return ""
    body = parts[0] if len(parts) == 1 and "" not in node else "(?:" + "|".join(parts) + ")"
    return body + "?" if "" in node else body


_UNIT_ALT = phrase_trie(UNITS)
_MONEY_AFTER = rf"(?=\s?(?:[$£€¥]|(?:{_CODES})(?![A-Za-z])|(?:dollars?|euros?|pounds?)(?![A-Za-z])))"
_MONEY = rf"(?(sym)|(?(pre)|{_MONEY_AFTER}))"
"""Succeeds only in a money amount: a currency sign or code before the number, or one right after it."""
_MEASURED = rf"(?(sym)|(?(pre)|(?:{_MONEY_AFTER}|(?=[\s-]?(?:{_UNIT_ALT})(?![A-Za-z])))))"
"""Succeeds only in an amount of money or of a unit ("2,5 km")."""
_SPACED = r"(?(sym)|(?(pre)|(?=\s?[$£€¥])))"
"""A number grouped by spaces is one amount only with a currency sign before or after it ("€ 1 250", "1 250 €"),
or with decimals ("1 250,00 EUR"): a payload's cells "7 920 USD" (7, then 920 USD) stay two numbers."""
_NUMBER = (
    r"(?=\d+[,. \u00a0\u202f'\u2019]\d)(?:"  # a separator between digits: the grouped and decimal shapes, only here
    r"\d{1,3}(?:,\d{3})+(?:\.\d+)?"  # 1,250.00
    r"|\d{1,3}(?:['\u2019]\d{3})+(?:\.\d{1,2})?(?![\d.,'\u2019])"  # 1'250.50 (Swiss)
    r"|\d{1,3}(?:\.\d{3})+,\d{1,2}(?!\d)"  # 1.250,00 (European)
    rf"|\d{{1,3}}(?:[ \u00a0\u202f]\d{{3}})+(?:[.,]\d{{1,2}}(?![\d.,]){_MONEY}|(?![\d,]|\.\d){_SPACED})"  # 1 250,00 €
    rf"|[1-9]\d{{0,2}}(?:\.\d{{3}})+(?![\d.,]){_MONEY}"  # €8.500, 1.050 EUR: thousands in a money amount
    r"|[1-9]\d{0,2}(?:\.\d{3}){2,}(?![\d.,])"  # 1.250.000
    rf"|\d+,\d{{1,2}}(?![\d.,]){_MEASURED}"  # 0,72 €, EUR 3,40, 2,5 km: a decimal comma in an amount
    r"|\d+\.\d+)"
    r"|\d+"
)
"""The number shapes: by digit groups. A dot or space before exactly three digits, or a comma before one or
two, is read the European way only in a money amount; elsewhere "1.050 km" stays 1.05 and "3,4" two numbers."""
_MULTIPLIER = rf"(?P<mult>k(?![A-Za-z])|(?:bn|mn|m)(?![A-Za-z]){_MONEY}|\s?(?:thousand|million|billion)(?![A-Za-z]))"
QUANTITY_PATTERN = (
    rf"(?:(?<![\w.])|(?<=\bUS)(?=\$))(?<![A-Za-z]-)(?P<neg>[-\u2212](?=[$£€¥]?\d))?(?:(?P<sym>[$£€¥])\s?|(?P<pre>{_CODES})\s?)?"
    rf"(?P<num>{_NUMBER})(?![\d])"
    rf"{_MULTIPLIER}?"
    rf"(?:\s?(?P<code>{_CODES})(?![A-Za-z])|\s?(?P<word>dollars?|euros?|pounds?)(?![A-Za-z])"
    rf"|\s?(?P<post>[$£€¥])(?!\s?\d)|[\s-]?(?P<unit>{_UNIT_ALT})(?![A-Za-z]))?"
)
"""A number with its sign, currency (symbol, code or word; "US$") or unit; named groups neg, sym, pre, num, mult, code,
word, post, unit. A minus sign counts only right before the number (or its currency sign) and not after a
letter, digit or dot: "-20 °C" and "−3.5%" are negative, "10-20" and "HT-20" are not.
``mult`` is a thousands or millions suffix ("$92k", "1.5k GB", "EUR 2.4m")."""
_QUANTITY = re.compile(QUANTITY_PATTERN, re.IGNORECASE)
_MONEY_WORDS = {"dollar": "USD", "euro": "EUR", "pound": "GBP"}

_PASS = frozenset({"pass", "passes", "passed", "meets", "met", "satisfies", "satisfied", "qualifies", "qualified",
                   "feasible", "accepted", "matches", "compliant", "eligible", "ok", "okay", "valid"})
_FAIL = frozenset({"fail", "fails", "failed", "exceeds", "exceeded", "violates", "violated", "missing",
                   "eliminated", "rejected", "excluded", "disqualified", "infeasible", "ineligible", "invalid",
                   "unavailable"})
_NEGATED = frozenset({"meet", "met", "satisfy", "satisfied", "available", "qualify", "pass", "match"})
_NEGATIONS = frozenset({"not", "doesn't", "didn't", "never", "cannot"})
_ELIMINATION = frozenset({"eliminated", "eliminate", "rejected", "excluded", "disqualified", "dropped",
                          "discarded"})
_WORDS = re.compile(r"[a-z']+")
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = (r"(?-i:(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
          r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)(?![A-Za-z])\.?)")
_NO_MAY = _MONTH.replace("May|", "")  # "3 May" without a year may be a verb ("option 3 may fail")
_ORDINAL = r"(?:st|nd|rd|th)?"
MONTH_START = "(?-i:(?:Jan|Feb|Ma[ry]|Apr|Ju[nl]|Aug|Sep|Oct|Nov|Dec))"
"""What a date written with its month's name can open with (a cheap guard before ``DATE_PATTERN``)."""
TIME_PATTERN = (
    r"\b(?:[01]?\d|2[0-3]):[0-5]\d(?:\s?[ap]\.?m\.?)?\b|\b(?:1[0-2]|0?[1-9])(?:\.[0-5]\d)?\s?[ap]\.?m\.?(?![a-z])"
    r"|(?=\d{1,2}h)(?:\b(?:[01]?\d|2[0-3])h[0-5]\d\b"  # 13h10 (French, German)
    r"|\b(?:[01]?\d|2[0-3])h(?=[-\u2013](?:[01]?\d|2[0-3])h\b)"  # 14h-17h
    r"|(?:(?<=\bfrom\s)|(?<=\bat\s)|(?<=\buntil\s)|(?<=\btill\s)|(?<=\bby\s)|(?<=\bbefore\s)"
    r"|(?<=\bafter\s)|(?<=\bsince\s)|(?<=\dh\sto\s)|(?<=\dh[-\u2013]))(?:[01]?\d|2[0-3])h(?![\w:]))"
)
"""A clock time: "14:00", "2 pm", "13h10"; a bare "14h" only after "from", "at", "until", "by", "before"... (else it is
a number of hours)."""
DATE_PATTERN = (
    r"\b\d{4}-\d{2}-\d{2}\b|\b\d{4}/\d{1,2}/\d{1,2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b|\b\d{1,2}\.\d{1,2}\.\d{4}\b"
    r"|\b\d{1,2}-\d{1,2}-\d{4}\b"
    rf"|\b\d{{1,2}}{_ORDINAL}\s(?:of\s)?(?:{_MONTH},?\s\d{{4}}\b|{_NO_MAY}(?![\w-]))"  # 12 March 2026, 5th Feb
    rf"|\b{_MONTH}\s\d{{1,2}}{_ORDINAL},?\s\d{{4}}\b"  # March 13, 2026
    rf"|\b{_NO_MAY}\s\d{{1,2}}{_ORDINAL}\b(?![.,:]?\d)"  # March 13
)
"""A date: ISO, d/m/y or m/d/y, d.m.y, or with the month's name (a year is needed after a month-first date)."""
_DATE_PARTS = re.compile(r"(?P<a>\d{1,4})[-/.](?P<b>\d{1,2})[-/.](?P<c>\d{2,4})|(?P<word>[A-Za-z]+)|(?P<n>\d+)")


def normal_date(text: str) -> str:
    """A date as ``YYYY-MM-DD`` where its reading is certain ("March 13, 2026", "13.03.2026", "25/12/2026"),
    ``13-Mar`` without a year; a numeric date both ways readable ("11/03/2026") stays as written."""
    readings = date_readings(text)
    return readings[0] if len(readings) == 1 else text


def date_readings(text: str) -> tuple[str, ...]:
    """Every ``YYYY-MM-DD`` (or ``DD-Mon``) reading of a date: two for "11/03/2026" (day or month first)."""
    m = _DATE_PARTS.match(text.strip())
    if m is None:
        return (text,)
    if m.group("a"):
        a, b, c = m.group("a", "b", "c")
        if len(a) == 4:
            return (f"{a}-{int(b):02d}-{int(c):02d}",)
        if len(c) != 4:
            return (text,)
        first = [] if int(b) > 12 else [f"{c}-{int(b):02d}-{int(a):02d}"]  # day first
        second = [] if int(a) > 12 or "." in text else [f"{c}-{int(a):02d}-{int(b):02d}"]  # month first
        return tuple(dict.fromkeys(first + second)) or (text,)
    return _named_date(text)


def _named_date(text: str) -> tuple[str, ...]:
    month = next((i for i, name in enumerate(_MONTHS, 1) for w in re.findall(r"[A-Za-z]+", text)
                  if w.lower()[:3] == name and w.lower() not in ("st", "nd", "rd", "th", "of")), 0)
    numbers = [n for n in re.findall(r"\d+", text)]
    day = next((int(n) for n in numbers if len(n) <= 2), 0)
    year = next((n for n in numbers if len(n) == 4), None)
    if not month or not day:
        return (text,)
    return (f"{year}-{month:02d}-{day:02d}" if year else f"{day:02d}-{_MONTHS[month - 1].title()}",)


_CLOCK = re.compile(r"(\d{1,2})(?:[:h.](\d{2}))?\s*([ap])?")


@dataclass(frozen=True)
class Quantity:
    """A number read from text, with its unit (a currency code for money) when one was written."""

    value: float
    unit: str | None
    text: str
    start: int = field(default=-1, compare=False)

    @property
    def is_money(self) -> bool:
        return self.unit in CURRENCY_CODES

    def normalised(self) -> str:
        """``"182 USD"``, ``"1.4 km"``, ``"4"``: the number without trailing zeros, then the unit."""
        number = format_number(self.value)
        return f"{number} {self.unit}" if self.unit else number

    def same_as(self, other: Quantity) -> bool:
        """Equal as numbers; units must agree when both sides state one."""
        close = abs(self.value - other.value) <= 1e-9 * max(1.0, abs(self.value))
        return close and (self.unit is None or other.unit is None or self.unit == other.unit)


def format_number(value: float) -> str:
    if value == int(value):
        return str(int(value))
    return f"{value:.10g}"


def normal_time(text: str) -> str:
    """"2 pm", "14:00", "2:30pm" -> "14:00" / "14:30"."""
    m = _CLOCK.match(text.strip().lower())
    if not m:
        return text
    hour, minute = int(m.group(1)), int(m.group(2) or 0)
    if m.group(3) == "p" and hour < 12:
        hour += 12
    if m.group(3) == "a" and hour == 12:
        hour = 0
    return f"{hour:02d}:{minute:02d}"


def find_quantities(text: str) -> list[Quantity]:
    """Every number in ``text`` with its currency or unit: "$180", "180 USD", "USD 180.00", "1.4 km"."""
    return list(_quantities(text))


@remembered  # inside a benchmark run (relaykit.memo): the same lines recur in every payload, audit and goal
def _quantities(text: str) -> tuple[Quantity, ...]:
    return tuple(quantity_of(m) for m in _QUANTITY.finditer(text))


def quantity_of(m: re.Match[str]) -> Quantity:
    """The ``Quantity`` of a match of ``QUANTITY_PATTERN`` (inside any larger pattern that embeds it)."""
    value, unit = quantity_parts(m)
    return Quantity(value, unit, m.group(0).strip(), m.start())


_DOT_DECIMAL_CURRENCIES = frozenset({"USD", "GBP", "CAD", "AUD", "NZD", "JPY", "CNY", "INR", "SGD", "HKD", "MXN"})
"""Currencies whose amounts write the dot as the decimal mark: a dot before three digits stays a decimal there."""


def quantity_parts(m: re.Match[str]) -> tuple[float, str | None]:
    """The value and unit of a match of ``QUANTITY_PATTERN`` (``quantity_of`` without building a ``Quantity``)."""
    sym, pre, num, code, word, unit_word = m.group("sym", "pre", "num", "code", "word", "unit")
    code = code or pre
    sym = sym or m.group("post")
    unit = CURRENCY_SYMBOLS[sym] if sym else code.upper() if code else None
    if unit is None and word:
        unit = _MONEY_WORDS[word.lower().rstrip("s")]
    if unit is None and unit_word:
        unit = UNITS[unit_word.lower()]
    mult = m.group("mult")
    # a dot before three digits groups thousands in currencies written the European way, in any amount whose
    # currency follows it ("1.850 USD") and before "000" with a unit ("98.000 km"): "$3.499" and "£1.050" keep
    # the dot as the decimal mark (fuel prices, exchange rates), "€8.500" is 8500
    after = bool(m.group("code") or word or m.group("post"))
    money = unit in CURRENCY_CODES and (unit not in _DOT_DECIMAL_CURRENCIES or after)
    value = number_value(num, money=money or (unit is not None and _ROUND_THOUSANDS.fullmatch(num) is not None))
    if mult:
        value *= _MULTIPLIERS[mult.strip().lower()]
    return (-value if m.group("neg") else value), unit


_GROUPING = str.maketrans("", "", " \u00a0\u202f'\u2019")
_MULTIPLIERS = {"k": 1e3, "m": 1e6, "mn": 1e6, "bn": 1e9, "thousand": 1e3, "million": 1e6, "billion": 1e9}
_EUROPEAN_THOUSANDS = re.compile(r"[1-9]\d{0,2}(?:\.\d{3})+")
_ROUND_THOUSANDS = re.compile(r"[1-9]\d{0,2}(?:\.000)+")


def number_value(num: str, *, money: bool = False) -> float:
    """The value of a number as ``QUANTITY_PATTERN`` matched it: "1,250.00", "1.250,00", "1 250,00", "0,72",
    "1.05"; "8.500" is 8500 in a money amount (``money``: a dot before exactly three digits groups thousands
    there), else 8.5."""
    num = num.translate(_GROUPING)
    comma, dot = num.rfind(","), num.rfind(".")
    if comma > dot:  # the comma is the decimal mark when one or two digits follow it, else a thousands mark
        whole, decimals = num[:comma].replace(".", "").replace(",", ""), num[comma + 1:]
        return float(f"{whole}.{decimals}") if len(decimals) <= 2 else float(whole + decimals)
    if comma < 0 < dot and (money or num.count(".") > 1) and _EUROPEAN_THOUSANDS.fullmatch(num):
        return float(num.replace(".", ""))
    return float(num.replace(",", ""))


def parse_quantity(text: str) -> Quantity | None:
    """The single quantity ``text`` states (e.g. a fact's value), or None when it is not one number."""
    found = find_quantities(text)
    if len(found) != 1:
        return None
    rest = text.replace(found[0].text, "", 1).strip(" .,;:")
    return found[0] if not rest or rest.lower() in UNITS or rest.upper() in CURRENCY_CODES else None


def last_verdict(text: str) -> str | None:
    """``"pass"`` or ``"fail"`` from the last verdict word in ``text`` (the conclusion), else None.

    Negated passes ("does not meet", "not available") and "ruled out" count as fail.
    """
    words = _WORDS.findall(text.lower())
    for i in range(len(words) - 1, -1, -1):
        word = words[i]
        previous = words[i - 1] if i else ""
        if (word in _NEGATED and previous in _NEGATIONS) or (word == "out" and previous == "ruled"):
            return "fail"
        if word in _FAIL:
            return "fail"
        if word in _PASS:
            return "pass"
    return None


def has_verdict(text: str) -> bool:
    return last_verdict(text) is not None


def mentions_elimination(text: str) -> bool:
    lowered = text.lower()
    return "ruled out" in lowered or not _ELIMINATION.isdisjoint(_WORDS.findall(lowered))


DEFAULT_ID_RE = re.compile(r"[A-Z](?<!\w[A-Z])[A-Z]{0,2}-?\d{1,4}\b")
"""``DEFAULT_ID_PATTERN`` written to open with its first capital (the regex engine then skips straight to
capitals; ``\b`` first made it try every position): the same matches, about twice as fast."""


def compile_id_pattern(pattern: str | None) -> re.Pattern[str]:
    """The option-identifier regex; a ``UsageError`` explains a pattern that does not compile."""
    if not pattern or pattern == DEFAULT_ID_PATTERN:
        return DEFAULT_ID_RE
    try:
        return re.compile(pattern or DEFAULT_ID_PATTERN)
    except re.error as exc:
        raise UsageError(f"id_pattern {pattern!r} is not a valid regular expression: {exc}") from None


def count_tokens(text: str, encoding: str = "o200k_base") -> int:
    """Token count of ``text``, of any length (``tokens.count`` counts long texts chunk by chunk)."""
    return tokens.count(text, encoding)


def check_inputs(trace: str, goal: str) -> None:
    """``UsageError`` for an empty trace or goal, or for bytes instead of text."""
    for name, value in (("trace", trace), ("goal", goal)):
        if isinstance(value, (bytes, bytearray)):
            _decode_or_raise(bytes(value), name)
        if not isinstance(value, str):
            raise UsageError(f"the {name} must be a string, not {type(value).__name__}")
        if not value.strip():
            raise UsageError(f"the {name} is empty; give the upstream agent's {name} text")


def _decode_or_raise(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(
            f"the {name} is not UTF-8: invalid byte 0x{data[exc.start]:02x} at offset {exc.start}; "
            "decode it with the right encoding first"
        ) from None


def as_text(value: str | bytes, name: str) -> str:
    """``value`` as text: bytes are decoded as UTF-8, and bad bytes raise ``UsageError`` naming the offset."""
    return _decode_or_raise(bytes(value), name) if isinstance(value, (bytes, bytearray)) else value


__all__ = [
    "DATE_PATTERN",
    "DEFAULT_ID_PATTERN",
    "DEFAULT_ID_RE",
    "MONTH_START",
    "QUANTITY_PATTERN",
    "TIME_PATTERN",
    "Quantity",
    "as_text",
    "check_inputs",
    "compile_id_pattern",
    "count_tokens",
    "date_readings",
    "find_quantities",
    "format_number",
    "has_verdict",
    "iter_sentences",
    "last_verdict",
    "mentions_elimination",
    "normal_date",
    "normal_time",
    "number_value",
    "parse_quantity",
    "quantity_of",
    "quantity_parts",
    "split_sentences",
]
