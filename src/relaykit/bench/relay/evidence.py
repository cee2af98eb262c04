"""What a payload says about each option, in a form the reference reader can check against a goal.

An ``Extraction`` (from a JSON payload or from ``extract_rules`` on a text payload) becomes one
``OptionFacts`` per identifier. A constraint is decided from a stated value when there is one, else
from a stated per-constraint verdict; an explicit elimination fails the option; anything else is
unknown, and an option with an unknown constraint is unverifiable.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from relaykit.bench.relay.world import Goal

# Words that identify an attribute or a check's constraint, whatever exact label the payload used.
ATTRIBUTE_WORDS: dict[str, tuple[str, ...]] = {
    "price": ("price",),
    "distance": ("distance",),
    "stars": ("star",),
    "amenities": ("amenit",),
    "window": ("window", "departure"),
    "cabin": ("cabin", "class"),
}
CONSTRAINT_WORDS: dict[str, tuple[str, ...]] = {
    "amenity": ("amenit",),
    "distance": ("distance",),
    "window": ("window", "departure"),
    "cabin": ("cabin", "class"),
}
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
_FILLER = re.compile(r"\b(class|cabin|departure|window|flight)\b")


@dataclass(frozen=True)
class OptionFacts:
    """One option as a payload states it: attributes by normalised label, check verdicts, elimination."""

    id: str
    attributes: Mapping[str, str]
    verdicts: Mapping[str, str]  # constraint key -> "pass" | "fail" | "unknown"
    eliminated: bool

    def attribute(self, key: str) -> str | None:
        words = ATTRIBUTE_WORDS[key]
        for label, value in self._labels:
            if any(w in label for w in words):
                return value
        return None

    @functools.cached_property
    def _labels(self) -> tuple[tuple[str, str], ...]:
        """(normalised label, value) per attribute, worked out once (the reader asks for several attributes)."""
        return tuple((label.lower().replace("_", " "), value) for label, value in self.attributes.items())


def _constraint_key(name: str) -> str | None:
    lowered = name.lower()
    return next((key for key, words in CONSTRAINT_WORDS.items() if any(w in lowered for w in words)), None)


def facts_from_extraction(extraction: Any) -> dict[str, OptionFacts]:
    """``OptionFacts`` per option id of an ``Extraction`` (later mentions of an id add to earlier ones)."""
    out: dict[str, OptionFacts] = {}
    for option in extraction.options:
        verdicts: dict[str, str] = {}
        for check in option.checks:
            key = _constraint_key(check.constraint)
            if key is not None and check.verdict in ("pass", "fail"):
                verdicts[key] = check.verdict
        previous = out.get(option.id)
        if previous is not None:
            verdicts = {**previous.verdicts, **verdicts}
            attributes = {**previous.attributes, **option.attributes}
            eliminated = previous.eliminated or option.eliminated
        else:
            attributes, eliminated = dict(option.attributes), bool(option.eliminated)
        out[option.id] = OptionFacts(option.id, attributes, verdicts, eliminated)
    return out


def number(text: str | None) -> float | None:
    """The first number in ``text`` (thousands separators allowed), or None."""
    if not text:
        return None
    match = _NUMBER.search(text)
    return float(match.group().replace(",", "")) if match else None


def distance_km(text: str | None) -> float | None:
    value = number(text)
    if value is not None and text and re.search(r"\bmi(les?)?\b", text.lower()):
        return value * 1.609344
    return value


def tokens_of(text: str) -> set[str]:
    parts = re.split(r"[,;/|]|\band\b", text.lower())
    return {p.strip(" []'\"().") for p in parts if p.strip(" []'\"().")}


def same_category(stated: str, wanted: str) -> bool:
    cleaned = _FILLER.sub(" ", stated.lower())
    return " ".join(re.findall(r"[a-z0-9-]+", cleaned)) == wanted.lower()


def _decide(checks: Iterable[tuple[bool | None, str]], option: OptionFacts) -> bool | None:
    """Combine per-constraint results: any fail -> False; all pass -> True; else None (unverifiable)."""
    if option.eliminated:
        return False
    results = []
    for from_value, key in checks:
        verdict = from_value
        if verdict is None and key in option.verdicts:
            verdict = option.verdicts[key] == "pass"
        results.append(verdict)
    if any(r is False for r in results):
        return False
    return None if any(r is None for r in results) else True


def hotel_status(option: OptionFacts, goal: Goal) -> bool | None:
    amenities = option.attribute("amenities")
    distance = distance_km(option.attribute("distance"))
    has = None if amenities is None else goal.amenity.lower() in tokens_of(amenities)
    near = None if distance is None else distance <= goal.max_distance_km + 1e-9
    return _decide([(has, "amenity"), (near, "distance")], option)


def _category(stated: str | None, wanted: str) -> bool | None:
    """A stated category matches; from an evidence row (several words, comma-joined) any of them may."""
    if stated is None:
        return None
    return same_category(stated, wanted) or wanted.lower() in tokens_of(stated)


def flight_status(option: OptionFacts, goal: Goal) -> bool | None:
    window_ok = _category(option.attribute("window"), goal.window)
    cabin_ok = _category(option.attribute("cabin"), goal.cabin)
    return _decide([(window_ok, "window"), (cabin_ok, "cabin")], option)


_STARS = re.compile(r"\b(\d)\s*-?\s*stars?\b|\bstars?\s*:?\s*(\d)\b", re.IGNORECASE)


def _first(quantities: list[Any], units: tuple[str, ...]) -> Any:
    return next((q for q in quantities if q.unit in units), None)


def facts_from_row(option_id: str, text: str, verdict: str | None, amenities: tuple[str, ...] = ()) -> OptionFacts:
    """What one evidence-table row (``extract-rules``) says, read with the lab's vocabulary: the first
    money value is the price, the first length the distance, window/cabin/amenity words their values.
    ``amenities`` adds amenity tokens beyond the generator's list (the goal's own, for a world file's tokens)."""
    from relaykit.bench.relay.world import AMENITIES, CABINS, TIE_AMENITIES, WINDOWS
    from relaykit.handoff.text import find_quantities

    quantities = find_quantities(text)
    words = re.findall(r"[a-z]+", text.lower())
    attributes: dict[str, str] = {}
    money = next((q for q in quantities if q.is_money), None)
    if money is not None:
        attributes["price"] = f"{money.value:g} USD"
    length = _first(quantities, ("km", "miles", "m"))
    if length is not None:
        km = length.value * {"km": 1.0, "miles": 1.609344, "m": 0.001}[length.unit]
        attributes["distance"] = f"{km:g} km"
    stars = _STARS.search(text)
    if stars:
        attributes["stars"] = stars.group(1) or stars.group(2)
    known = (*AMENITIES, *TIE_AMENITIES, *amenities)
    for key, vocabulary in (("amenities", known), ("window", WINDOWS), ("cabin", CABINS)):
        found = [w for w in dict.fromkeys(words) if w in vocabulary]
        if found:
            attributes[key] = ", ".join(found)
    verdicts = {key: "pass" for key in CONSTRAINT_WORDS} if verdict == "pass" else {}
    return OptionFacts(option_id, attributes, verdicts, verdict == "eliminated")
