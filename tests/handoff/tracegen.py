"""Deterministic auditor-style traces (the relay contract's clause style) with their decision-critical facts.

Used by the tests and by benchmarks/handoff_bench.py; independent of the relay lab.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from relaykit.handoff.audit import Fact

AMENITIES = ("wifi", "gym", "breakfast", "pool", "spa", "parking")
WINDOWS = ("morning", "afternoon", "evening")
CABINS = ("economy", "premium economy", "business")
AIRLINES = ("BA", "LH", "AF", "KL", "VS")
NAMES = ("Kensington Rooms", "Thames View", "Camden Lodge", "Soho House", "Mayfair Court", "Baker Inn")
FILLER = (
    "I now move on to the next candidate in the inventory.",
    "The inventory is closed, so only the listed options are considered.",
    "Each option is checked against every hard constraint before any pairing is attempted.",
    "This completes the review of this section of the inventory.",
)


@dataclass(frozen=True)
class SampleTrace:
    goal: str
    trace: str
    facts: list[Fact]


def _width(n: int) -> int:
    return max(2, len(str(n)))


def _hotel_lines(rng: random.Random, i: int, w: int, limits: dict[str, object]) -> tuple[list[str], list[Fact], int]:
    hid = f"H{i:0{w}d}"
    price = rng.randrange(90, 320, 5)
    dist = round(rng.uniform(0.3, 8.0), 1)
    stars = rng.randint(2, 5)
    amen = sorted(rng.sample(AMENITIES, rng.randint(1, 4)), key=AMENITIES.index)
    lines = [f"Hotel {hid} ({rng.choice(NAMES)}): price {price} USD per night; distance {dist} km; stars {stars}; "
             f"amenities {', '.join(amen)}."]
    gym = str(limits["amenity"]) in amen
    near = dist <= float(limits["distance"])  # type: ignore[arg-type]
    lines.append(f"{hid} amenity check: {limits['amenity']} is {'present' if gym else 'missing'}, "
                 f"{'pass' if gym else 'fail'}.")
    lines.append(f"{hid} distance check: {dist} km {'is at most' if near else 'exceeds'} {limits['distance']} km, "
                 f"{'pass' if near else 'fail'}.")
    failed = [n for n, ok in (("amenity", gym), ("distance", near)) if not ok]
    lines.append(f"{hid} verdict: " + (f"eliminated ({', '.join(failed)})." if failed else "pass."))
    facts = [Fact(hid, "price", f"{price} USD"), Fact(hid, "distance", f"{dist} km"),
             Fact(hid, "verdict", "eliminated" if failed else "pass")]
    return lines, facts, price if not failed else -1


def _flight_lines(rng: random.Random, i: int, w: int, limits: dict[str, object]) -> tuple[list[str], list[Fact], int]:
    fid = f"F{i:0{w}d}"
    price = rng.randrange(120, 420, 5)
    window, cabin = rng.choice(WINDOWS), rng.choice(CABINS)
    lines = [f"Flight {fid}: airline {rng.choice(AIRLINES)}; departure window {window}; cabin {cabin}; "
             f"price {price} USD; layovers {rng.randint(0, 2)}; refundable {rng.choice(('yes', 'no'))}."]
    ok_w, ok_c = window == limits["window"], cabin == limits["cabin"]
    lines.append(f"{fid} window check: {window} {'matches' if ok_w else 'does not match'} {limits['window']}, "
                 f"{'pass' if ok_w else 'fail'}.")
    lines.append(f"{fid} cabin check: {cabin} {'matches' if ok_c else 'does not match'} {limits['cabin']}, "
                 f"{'pass' if ok_c else 'fail'}.")
    failed = [n for n, ok in (("window", ok_w), ("cabin", ok_c)) if not ok]
    lines.append(f"{fid} verdict: " + (f"eliminated ({', '.join(failed)})." if failed else "pass."))
    facts = [Fact(fid, "price", f"{price} USD"), Fact(fid, "cabin", cabin),
             Fact(fid, "verdict", "eliminated" if failed else "pass")]
    return lines, facts, price if not failed else -1


def auditor_trace(hotels: int, flights: int, seed: int = 0, filler: bool = True) -> SampleTrace:
    """An audit of ``hotels`` x ``flights`` options, with pair totals for the options that pass."""
    rng = random.Random(seed)
    limits: dict[str, object] = {"budget": rng.randrange(380, 520, 10), "amenity": rng.choice(AMENITIES[:3]),
                                 "distance": rng.choice((2.0, 3.0, 4.5)), "window": rng.choice(WINDOWS),
                                 "cabin": rng.choice(CABINS[:2])}
    goal = (f"Goal G{seed % 100:02d}: Priya, a consultant, flies to London. Constraints: total budget at most "
            f"{limits['budget']} USD; hotel amenity {limits['amenity']}; hotel distance at most "
            f"{limits['distance']} km; departure window {limits['window']}; cabin {limits['cabin']}.")
    lines, facts = [goal], []
    passing: dict[str, list[tuple[str, int]]] = {"H": [], "F": []}
    for kind, count, make in (("H", hotels, _hotel_lines), ("F", flights, _flight_lines)):
        w = _width(count)
        for i in range(1, count + 1):
            block, block_facts, price = make(rng, i, w, limits)
            lines += block + ([rng.choice(FILLER)] if filler and rng.random() < 0.5 else [])
            facts += block_facts
            if price >= 0:
                passing[kind].append((f"{kind}{i:0{w}d}", price))
    for hid, hp in passing["H"][:20]:
        for fid, fp in passing["F"][:20]:
            total = hp + fp
            verdict = "pass" if total <= int(limits["budget"]) else "fail"  # type: ignore[call-overload]
            lines.append(f"Pair {hid} + {fid}: total {hp} USD + {fp} USD = {total} USD; "
                         f"budget {limits['budget']} USD; {verdict}.")
    return SampleTrace(goal, "\n".join(lines), facts)


SCHEDULING_GOAL = ("Schedule the quarterly review. Constraints: duration at least 60 min; room capacity at least "
                   "8 people; day Tuesday.")
SCHEDULING_TRACE = """Slot S1: day Tuesday; start 09:00; duration 90 min; room capacity 10 people.
S1 capacity check: 10 people is at least 8 people, pass.
S1 verdict: pass.
Slot S2: day Tuesday; start 14:00; duration 45 min; room capacity 12 people.
S2 duration check: 45 min is below 60 min, fail.
S2 is eliminated because the meeting would be cut short.
Slot S3: day Wednesday; start 10:00; duration 120 min; room capacity 6 people.
S3 capacity check: 6 people is below 8 people, fail.
S3 verdict: rejected (capacity, day)."""

VENDOR_GOAL = "Pick a logging vendor with monthly cost under $2,000, uptime at least 99.9% and region EU."
VENDOR_TRACE = """Vendor V-1 (LogCo) quotes a monthly cost of $1,850.00 with uptime 99.95% and region EU.
V-1 meets the budget and the uptime target.
Vendor V-2 (TraceHub): monthly cost EUR 1,200; uptime 99.5%; region EU.
V-2 fails the uptime requirement, so it is ruled out.
Vendor V-3 (Obsly): monthly cost 2,400 USD; uptime 99.99%; region US.
V-3 exceeds the budget."""

__all__ = ["SCHEDULING_GOAL", "SCHEDULING_TRACE", "VENDOR_GOAL", "VENDOR_TRACE", "SampleTrace", "auditor_trace"]
