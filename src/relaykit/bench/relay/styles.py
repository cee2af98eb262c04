"""The auditor Researcher in other writing styles: the same exhaustive audit, phrased like other people write.

``auditor`` is the lab's own clause style (paper 000's contract). Every style of the hand-off corpus
(``relaykit.handoff.corpus.STYLES``) is available too, over the lab's hotels and flights; ``dev`` and
``held-out`` cycle through the corpus's style groups goal by goal, and ``mixed`` through all of them.
Verdicts and values are exact (prices in several money formats, distances in km); pair totals are left
out, as a person summarising an audit would leave them out.
"""

from __future__ import annotations

import random

from relaykit.bench.relay.world import Flight, Goal, Hotel, World
from relaykit.errors import UsageError
from relaykit.handoff.corpus import DEV_STYLES, HELD_OUT_STYLES, STYLES, Attribute, Domain, Option, Value, money
from relaykit.handoff.corpus_styles import RENDERERS

OWN = "auditor"
GROUPS = {"mixed": STYLES, "dev": DEV_STYLES, "held-out": HELD_OUT_STYLES}
STYLE_NAMES = (OWN, *GROUPS, *STYLES)

HOTELS = Domain("relay-hotels", "H", "hotel", "USD", (
    Attribute("price", "money", (), ("price", "nightly rate"), ("charging {v} a night", "at {v} per night")),
    Attribute("distance", "distance", (), ("distance", "distance to centre"), ("{v} from the centre", "{v} out"),
              op="<="),
    Attribute("stars", "count", (), ("stars", "star rating"), ("a {v} property",)),
    Attribute("amenities", "list", (), ("amenities", "facilities"), ("with {v}", "offering {v}"), op="contains"),
), "")
FLIGHTS = Domain("relay-flights", "F", "flight", "USD", (
    Attribute("airline", "enum", (), ("airline", "carrier"), ("flown by {v}", "operated by {v}")),
    Attribute("window", "enum", (), ("departure window", "departs"), ("leaving in the {v}", "departing {v}"),
              op="=="),
    Attribute("cabin", "enum", (), ("cabin", "cabin class"), ("in {v} cabin", "seated in {v}"), op="=="),
    Attribute("price", "money", (), ("price", "fare"), ("priced at {v}", "for {v}")),
    Attribute("layovers", "count", (), ("layovers", "stops"), ("with {v} layovers",)),
), "")


def check_style(style: str) -> str:
    if style not in STYLE_NAMES:
        raise UsageError(f"unknown researcher style {style!r}; use one of: {', '.join(STYLE_NAMES)}")
    return style


def style_for(style: str, goal_index: int) -> str:
    """The concrete style of one goal: ``style`` itself, or the group member for this goal."""
    group = GROUPS.get(check_style(style))
    return group[goal_index % len(group)] if group else style


def _hotel(h: Hotel, goal: Goal, rng: random.Random) -> Option:
    failed = tuple(n for n, ok in (("amenities", goal.amenity in h.amenities),
                                   ("distance", h.distance_km <= goal.max_distance_km)) if not ok)
    values = {"price": money(h.price, "USD", rng), "distance": Value(f"{h.distance_km:.1f} km", ""),
              "stars": Value(f"{h.stars} stars", ""), "amenities": Value(", ".join(h.amenities), "")}
    return Option(h.id, values, failed)


def _flight(f: Flight, goal: Goal, rng: random.Random) -> Option:
    failed = tuple(n for n, ok in (("window", f.window == goal.window), ("cabin", f.cabin == goal.cabin)) if not ok)
    values = {"airline": Value(f.airline, ""), "window": Value(f.window, ""), "cabin": Value(f.cabin, ""),
              "price": money(f.price, "USD", rng), "layovers": Value(str(f.layovers), "")}
    return Option(f.id, values, failed)


def styled_trace(world: World, goal: Goal, style: str, seed: int = 0) -> str:
    """The audit of ``goal`` in corpus style ``style`` (not ``auditor``: see ``researcher.audit_trace``)."""
    rng = random.Random(f"{style}/{goal.id}/{seed}")
    render = RENDERERS[style]
    hotels = render(HOTELS, [_hotel(h, goal, rng) for h in world.hotels], rng)
    flights = render(FLIGHTS, [_flight(f, goal, rng) for f in world.flights], rng)
    return f"{goal.text}\n{hotels}\n\n{flights}"


__all__ = ["STYLE_NAMES", "check_style", "style_for", "styled_trace"]
