"""Scoring one Booker decision against the exact ground truth, and the facts the evidence audit looks for.

Outcomes are exclusive: ``ok`` (the pair is in F_g, or NONE when F_g is empty), ``false_none`` (NONE
although a feasible pair exists), ``wrong_pair`` (a grounded answer outside F_g, including half-NONE
answers and pairs for unsatisfiable goals), ``ungrounded`` (an identifier the payload never mentions;
rejected, so never feasible) and ``error`` (no valid answer at all).
"""

from __future__ import annotations

from typing import Any

from relaykit.bench.relay.booker import NONE, Booking, grounded
from relaykit.bench.relay.truth import Inventory, Truth
from relaykit.bench.relay.world import Goal, World, format_km

OUTCOMES = ("ok", "false_none", "wrong_pair", "ungrounded", "error")


def _outcome(inv: Inventory, goal: Goal, truth: Truth, booking: Booking, payload_text: str) -> str:
    if booking.error is not None:
        return "error"
    if not (grounded(booking.hotel_id, payload_text) and grounded(booking.flight_id, payload_text)):
        return "ungrounded"
    if booking.is_none:
        return "false_none" if truth.satisfiable else "ok"
    if NONE in booking.pair:
        return "wrong_pair"
    return "ok" if inv.is_feasible(goal, booking.pair) else "wrong_pair"


def score(inv: Inventory, goal: Goal, truth: Truth, booking: Booking, payload_text: str) -> dict[str, Any]:
    """Feasible, optimal, gap (USD, feasible answers to satisfiable goals only) and the outcome."""
    outcome = _outcome(inv, goal, truth, booking, payload_text)
    feasible = outcome == "ok"
    if truth.satisfiable:
        optimal = feasible and booking.pair == truth.optimal
        gap = inv.cost(booking.pair) - truth.optimal_cost if feasible and truth.optimal_cost is not None else None
    else:
        optimal, gap = feasible, None
    return {"answer": list(booking.pair), "feasible": feasible, "optimal": optimal, "gap": gap,
            "outcome": outcome, "satisfiable": truth.satisfiable,
            "optimal_pair": list(truth.optimal) if truth.optimal else [NONE, NONE]}


def audit_facts(world: World, goal: Goal) -> list[tuple[str, str, str]]:
    """(id, attribute, value) facts a payload should keep: every price, every constrained value, every verdict.

    Values are written as the auditor writes them, so the evidence audit can find them verbatim.
    """
    facts: list[tuple[str, str, str]] = []
    for h in world.hotels:
        ok = goal.amenity in h.amenities and h.distance_km <= goal.max_distance_km
        facts += [(h.id, "price", f"{h.price} USD"), (h.id, "distance", f"{format_km(h.distance_km)} km"),
                  (h.id, "verdict", "pass" if ok else "eliminated")]
    for f in world.flights:
        ok = f.window == goal.window and f.cabin == goal.cabin
        facts += [(f.id, "price", f"{f.price} USD"), (f.id, "departure window", f.window), (f.id, "cabin", f.cabin),
                  (f.id, "verdict", "pass" if ok else "eliminated")]
    return facts
