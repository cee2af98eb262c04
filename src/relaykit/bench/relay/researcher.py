"""Researchers write the audit trace that the hand-off compresses.

Two kinds behind one protocol: the deterministic ``Auditor`` writes the exhaustive per-option audit
(every hotel and flight against every constraint, values, arithmetic, pass/fail) in the clause style
``relaykit.handoff.evidence.read_evidence`` reads (other styles:
``styles.py``); ``ModelResearcher`` asks a model for the same audit
under closed-world instructions.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from relaykit import tokens
from relaykit.bench.relay.world import Flight, Goal, Hotel, World, format_km
from relaykit.models import Model, Usage

RESEARCHER_SYSTEM = (
    "You are the Researcher in a two-agent travel relay. Work strictly in a closed world: use only the "
    "inventory given below and assume nothing else. Audit every hotel and every flight against the "
    "traveller's hard constraints (total budget for one hotel night plus one flight, a must-have hotel "
    "amenity, a maximum hotel distance to the centre, a departure window and a cabin). Write one statement "
    "per sentence with clauses separated by '; ' in the form 'label value unit', for example "
    "'Hotel H01 (Name): price 145 USD per night; distance 2.4 km; stars 3; amenities wifi, gym.' then "
    "'H01 amenity check: gym is present, pass.' and 'H01 verdict: pass.' or 'H01 verdict: eliminated "
    "(distance).' Do the same for flights (window and cabin checks), then check the total of every pair of "
    "passing options against the budget: 'Pair H01 + F01: total 145 USD + 260 USD = 405 USD; budget 420 USD; "
    "pass.' Do not recommend a booking; another agent decides."
)


@dataclass(frozen=True)
class Research:
    """A Researcher's trace and what it cost (``model_calls`` 0 for the deterministic auditor)."""

    trace: str
    prompt_tokens: int
    completion_tokens: int
    model_calls: int
    seconds: float

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class Researcher(Protocol):
    """Writes the audit trace of one goal over the whole inventory."""

    name: str

    def research(self, world: World, goal: Goal) -> Research: ...


def hotel_line(h: Hotel) -> str:
    return (f"Hotel {h.id} ({h.name}): price {h.price} USD per night; distance {format_km(h.distance_km)} km; "
            f"stars {h.stars}; amenities {', '.join(h.amenities)}.")


def flight_line(f: Flight) -> str:
    return (f"Flight {f.id}: airline {f.airline}; departure window {f.window}; cabin {f.cabin}; "
            f"price {f.price} USD; layovers {f.layovers}; refundable {'yes' if f.refundable else 'no'}.")


def researcher_messages(world: World, goal: Goal) -> list[dict[str, Any]]:
    """The prompt a model Researcher receives: the instructions, the goal and the full inventory."""
    inventory = "\n".join([hotel_line(h) for h in world.hotels] + [flight_line(f) for f in world.flights])
    user = f"{goal.text}\n\nClosed-world inventory for {world.city}:\n{inventory}\n\nWrite the audit."
    return [{"role": "system", "content": RESEARCHER_SYSTEM}, {"role": "user", "content": user}]


def _verdict(option_id: str, failed: Sequence[str]) -> str:
    return f"{option_id} verdict: " + (f"eliminated ({', '.join(failed)})." if failed else "pass.")


def audit_hotel(h: Hotel, goal: Goal) -> tuple[list[str], bool]:
    has = goal.amenity in h.amenities
    near = h.distance_km <= goal.max_distance_km
    lines = [
        hotel_line(h),
        f"{h.id} amenity check: {goal.amenity} is {'present' if has else 'missing'}, {'pass' if has else 'fail'}.",
        f"{h.id} distance check: {format_km(h.distance_km)} km "
        + (f"is at most {format_km(goal.max_distance_km)} km, pass." if near
           else f"exceeds {format_km(goal.max_distance_km)} km, fail."),
    ]
    failed = [name for name, ok in (("amenity", has), ("distance", near)) if not ok]
    return [*lines, _verdict(h.id, failed)], not failed


def audit_flight(f: Flight, goal: Goal) -> tuple[list[str], bool]:
    window_ok, cabin_ok = f.window == goal.window, f.cabin == goal.cabin
    lines = [
        flight_line(f),
        f"{f.id} window check: {f.window} " + (f"matches {goal.window}, pass." if window_ok
                                               else f"does not match {goal.window}, fail."),
        f"{f.id} cabin check: {f.cabin} " + (f"matches {goal.cabin}, pass." if cabin_ok
                                             else f"does not match {goal.cabin}, fail."),
    ]
    failed = [name for name, ok in (("window", window_ok), ("cabin", cabin_ok)) if not ok]
    return [*lines, _verdict(f.id, failed)], not failed


def pair_lines(hotels: Sequence[Hotel], flights: Sequence[Flight], goal: Goal) -> tuple[list[str], int]:
    lines, within = [], 0
    for h in hotels:
        for f in flights:
            total = h.price + f.price
            ok = total <= goal.budget
            within += ok
            lines.append(f"Pair {h.id} + {f.id}: total {h.price} USD + {f.price} USD = {total} USD; "
                         f"budget {goal.budget} USD; {'pass' if ok else 'fail'}.")
    return lines, within


def audit_trace(world: World, goal: Goal) -> str:
    """The exhaustive, deterministic audit of ``goal`` over ``world`` (one statement per line)."""
    lines = [goal.text, f"Closed-world audit of {len(world.hotels)} hotels and {len(world.flights)} flights "
                        f"in {world.city}."]
    passing_hotels, passing_flights = [], []
    for h in world.hotels:
        block, ok = audit_hotel(h, goal)
        lines += block
        passing_hotels += [h] if ok else []
    for f in world.flights:
        block, ok = audit_flight(f, goal)
        lines += block
        passing_flights += [f] if ok else []
    pairs, within = pair_lines(passing_hotels, passing_flights, goal)
    lines += pairs
    if not pairs:
        lines.append(f"No pair can be formed: {len(passing_hotels)} hotels and {len(passing_flights)} flights "
                     "pass their checks.")
    lines.append(f"Audit summary: {len(passing_hotels)} of {len(world.hotels)} hotels and {len(passing_flights)} "
                 f"of {len(world.flights)} flights pass; {within} of {len(pairs)} pairs are within the budget "
                 f"of {goal.budget} USD.")
    return "\n".join(lines)


class Auditor:
    """The deterministic Researcher. Its token cost is counted as what a model call would read and write.

    ``style`` is ``auditor`` (the clause style above) or a style of ``relaykit.bench.relay.styles``.
    """

    name = "auditor"

    def __init__(self, style: str = "auditor") -> None:
        from relaykit.bench.relay.styles import check_style

        self.style = check_style(style)

    def research(self, world: World, goal: Goal) -> Research:
        from relaykit.bench.relay.styles import style_for, styled_trace

        started = time.perf_counter()
        index = next((i for i, g in enumerate(world.goals) if g.id == goal.id), 0)
        style = style_for(self.style, index)
        trace = audit_trace(world, goal) if style == "auditor" else styled_trace(world, goal, style)
        prompt = tokens.count_messages(researcher_messages(world, goal))
        return Research(trace, prompt, tokens.count(trace), 0, time.perf_counter() - started)


class ModelResearcher:
    """A model writes the audit under the closed-world instructions (temperature 0, fixed seed)."""

    def __init__(self, model: Model, *, max_tokens: int = 4000, seed: int = 0) -> None:
        self.model = model
        self.name = f"model:{model.name}"
        self.max_tokens = max_tokens
        self.seed = seed

    def research(self, world: World, goal: Goal) -> Research:
        messages = researcher_messages(world, goal)
        room = self.model.context_window - self.model.count_messages(messages) - 16
        usage = Usage()
        started = time.perf_counter()
        response = self.model.complete(messages, max_tokens=max(64, min(self.max_tokens, room)), temperature=0.0,
                                       seed=self.seed)
        usage.add(response)
        return Research(response.text, usage.prompt_tokens, usage.completion_tokens, usage.requests,
                        time.perf_counter() - started)
