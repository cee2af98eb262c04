"""Text primitives shared by the hand-off methods: sentences, quantities, identifiers, verdict words.

Everything here is a pure function over strings, linear in the input, and safe on multi-megabyte traces.
Sentences come from ``relaykit.text`` (one splitter for every package).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

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
}
_CODES = "|".join(CURRENCY_CODES)
_UNIT_ALT = "|".join(sorted((re.escape(u) for u in UNITS), key=len, reverse=True))
_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
QUANTITY_PATTERN = (
    rf"(?<![\w.])(?<![A-Za-z]-)(?:(?P<sym>[$£€¥])\s?|(?P<pre>{_CODES})\s?)?(?P<num>{_NUMBER})(?![\d])"
    rf"(?:\s?(?P<code>{_CODES})(?![A-Za-z])|\s?(?P<word>dollars?|euros?|pounds?)(?![A-Za-z])"
    rf"|[\s-]?(?P<unit>{_UNIT_ALT})(?![A-Za-z]))?"
)
"""A number with its currency (symbol, code or word) or unit; named groups sym, pre, num, code, word, unit."""
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
_CLOCK = re.compile(r"(\d{1,2})(?::(\d{2}))?\s*([ap])?")


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


def quantity_parts(m: re.Match[str]) -> tuple[float, str | None]:
    """The value and unit of a match of ``QUANTITY_PATTERN`` (``quantity_of`` without building a ``Quantity``)."""
    sym, pre, num, code, word, unit_word = m.group("sym", "pre", "num", "code", "word", "unit")
    code = code or pre
    unit = CURRENCY_SYMBOLS[sym] if sym else code.upper() if code else None
    if unit is None and word:
        unit = _MONEY_WORDS[word.lower().rstrip("s")]
    if unit is None and unit_word:
        unit = UNITS[unit_word.lower()]
    return float(num.replace(",", "")), unit


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
    "DEFAULT_ID_PATTERN",
    "DEFAULT_ID_RE",
    "QUANTITY_PATTERN",
    "Quantity",
    "as_text",
    "check_inputs",
    "compile_id_pattern",
    "count_tokens",
    "find_quantities",
    "format_number",
    "has_verdict",
    "iter_sentences",
    "last_verdict",
    "mentions_elimination",
    "normal_time",
    "parse_quantity",
    "quantity_of",
    "quantity_parts",
    "split_sentences",
]
