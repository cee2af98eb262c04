"""Bookers choose a hotel-flight pair from the goal and the hand-off payload alone.

``Reader`` is the deterministic reference: it reads the facts out of the payload (JSON through the
shared ``Extraction`` schema or the evidence table, text through ``extract-rules``' reader), treats an option whose
evidence is missing as unverifiable, and ranks like the ground truth; it measures what a perfect
reader could still decide. ``ModelBooker`` asks a model through schema-constrained output.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel, Field

from relaykit import tokens
from relaykit.bench.relay.evidence import (
    OptionFacts,
    facts_from_extraction,
    facts_from_row,
    flight_status,
    hotel_status,
    number,
)
from relaykit.bench.relay.world import Goal
from relaykit.errors import InvalidOutput
from relaykit.handoff.compact_read import reading_guide
from relaykit.models import Model, Usage, complete_structured

if TYPE_CHECKING:
    from relaykit.bench.relay.reading import Kept

NONE = "NONE"

BOOKER_SYSTEM = (
    "You are the Booker in a two-agent travel relay. You see only the traveller's goal and the Researcher's "
    "hand-off below; nothing else exists. Consider only hotels and flights whose facts in the hand-off show "
    "that they meet every hard constraint, and pairs whose hotel night plus flight fits the total budget. "
    "Among those pairs pick the one with the lowest total cost, then the shortest hotel distance, then the "
    "most stars, then the smallest hotel id and flight id. Use only identifiers that appear in the hand-off. "
    "If no pair is supported by the evidence, answer NONE for both identifiers."
)


class BookingAnswer(BaseModel):
    """The Booker's answer: one hotel and one flight, or NONE for both."""

    hotel_id: str = Field(pattern=r"^(H[0-9]+|NONE)$", description="a hotel id from the hand-off, or NONE")
    flight_id: str = Field(pattern=r"^(F[0-9]+|NONE)$", description="a flight id from the hand-off, or NONE")


@dataclass(frozen=True)
class Booking:
    """What a Booker decided, what it cost, and (for the reader) how much it could verify."""

    hotel_id: str
    flight_id: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    model_calls: int = 0
    seconds: float = 0.0
    error: str | None = None
    notes: Mapping[str, Any] = field(default_factory=dict)

    @property
    def pair(self) -> tuple[str, str]:
        return (self.hotel_id, self.flight_id)

    @property
    def is_none(self) -> bool:
        return self.hotel_id == NONE and self.flight_id == NONE


class Booker(Protocol):
    """Chooses a pair for ``goal`` from the payload (a dict for JSON payloads, else text)."""

    name: str

    def book(self, goal: Goal, payload: str | Mapping[str, Any], payload_text: str) -> Booking: ...


def booker_messages(goal: Goal, payload_text: str) -> list[dict[str, Any]]:
    user = (f"{goal.text}\n\nHand-off from the Researcher:\n{payload_text}\n\n"
            "Answer with the hotel_id and flight_id to book, or NONE for both.")
    guide = reading_guide(payload_text)
    system = f"{BOOKER_SYSTEM}\n\n{guide}" if guide else BOOKER_SYSTEM
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def grounded(identifier: str, payload_text: str) -> bool:
    """Whether ``identifier`` is NONE or occurs as a whole word in the payload."""
    return identifier == NONE or re.search(rf"(?<![A-Za-z0-9]){re.escape(identifier)}(?![A-Za-z0-9])",
                                           payload_text) is not None


def read_payload(goal: Goal, payload: str | Mapping[str, Any], payload_text: str) -> dict[str, OptionFacts]:
    """The options and their facts as the payload states them (empty if a JSON payload is unreadable).

    A JSON ``Extraction`` (the ``extract`` method) is read through its schema; a JSON evidence table
    (``extract-rules --format json``) row by row; any text through ``read_evidence``, the same reader
    ``extract-rules`` uses, whatever its phrasing.
    """
    from relaykit.handoff.evidence import read_evidence
    from relaykit.handoff.schema import Extraction

    if isinstance(payload, Mapping):
        options = payload.get("options")
        if isinstance(options, list) and all(isinstance(o, Mapping) and "evidence" in o for o in options):
            return {str(o["id"]): facts_from_row(str(o["id"]), str(o["evidence"]), o.get("verdict"), (goal.amenity,))
                    for o in options}
        try:
            extraction = Extraction.model_validate(dict(payload))
        except ValueError:
            return {}
        return facts_from_extraction(extraction)
    # Option ids come from the inventory part of the payload: the goal line (whose persona may mention "H9"
    # or "F10") is left out, and only the goal's own id is excluded from the options.
    # the goal line is passed as the goal (whose persona may mention "H9": the evidence reader keeps such an
    # id an option while other ids of its family name options)
    table = read_evidence(payload_text, goal.text)
    return {row.id: facts_from_row(row.id, row.body, row.verdict, (goal.amenity,)) for row in table.rows.values()}


@dataclass(frozen=True)
class _Candidate:
    id: str
    price: float
    distance: float = 0.0
    stars: float = 0.0


def _verified(goal: Goal, facts: dict[str, OptionFacts]) -> tuple[list[_Candidate], list[_Candidate], int]:
    hotels, flights, unverifiable = [], [], 0
    for option in facts.values():
        is_hotel = option.id.startswith("H")
        status = hotel_status(option, goal) if is_hotel else flight_status(option, goal)
        price = number(option.attribute("price"))
        if status is False:
            continue
        if status is None or price is None:
            unverifiable += 1
            continue
        if is_hotel:
            distance = number(option.attribute("distance"))
            stars = number(option.attribute("stars"))
            hotels.append(_Candidate(option.id, price, distance if distance is not None else float("inf"),
                                     stars or 0.0))
        else:
            flights.append(_Candidate(option.id, price))
    return hotels, flights, unverifiable


def rank_pairs(goal: Goal, hotels: list[_Candidate], flights: list[_Candidate]) -> tuple[str, str] | None:
    """The best affordable pair under the ground truth's ranking, or None."""
    best: tuple[Any, ...] | None = None
    for h in hotels:
        for f in flights:
            total = h.price + f.price
            if total <= goal.budget + 1e-9:
                key = (total, h.distance, -h.stars, h.id, f.id)
                best = key if best is None or key < best else best
    return None if best is None else (best[3], best[4])


class Reader:
    """The deterministic, evidence-bound reference Booker (``kept``: what it read from text payloads kept between
    runs, see ``relaykit.bench.relay.reading``)."""

    name = "reader"

    def __init__(self, kept: Kept | None = None) -> None:
        self.kept = kept

    def book(self, goal: Goal, payload: str | Mapping[str, Any], payload_text: str) -> Booking:
        started = time.perf_counter()
        facts = self._facts(goal, payload, payload_text)
        hotels, flights, unverifiable = _verified(goal, facts)
        pair = rank_pairs(goal, hotels, flights) or (NONE, NONE)
        prompt = self._prompt_tokens(goal, payload_text)
        answer = BookingAnswer(hotel_id=pair[0], flight_id=pair[1]).model_dump_json()
        notes = {"options_read": len(facts), "hotels_verified": len(hotels), "flights_verified": len(flights),
                 "unverifiable": unverifiable}
        return Booking(pair[0], pair[1], prompt, tokens.count(answer), 0, time.perf_counter() - started,
                       notes=notes)

    def _facts(self, goal: Goal, payload: str | Mapping[str, Any], payload_text: str) -> dict[str, OptionFacts]:
        if self.kept is None or not isinstance(payload, str):
            return read_payload(goal, payload, payload_text)
        from relaykit.bench.relay.reading import kept_facts

        return kept_facts(self.kept, goal, payload_text, lambda: read_payload(goal, payload, payload_text))

    def _prompt_tokens(self, goal: Goal, payload_text: str) -> int:
        def count() -> int:
            return tokens.count_messages(booker_messages(goal, payload_text))

        if self.kept is None:
            return count()
        from relaykit.bench.relay.reading import kept_prompt_tokens

        return kept_prompt_tokens(self.kept, goal, payload_text, count)


class ModelBooker:
    """A model chooses through schema-constrained output (temperature 0, fixed seed)."""

    def __init__(self, model: Model, *, seed: int = 0, max_repairs: int = 1) -> None:
        self.model = model
        self.name = f"model:{model.name}"
        self.seed = seed
        self.max_repairs = max_repairs

    def book(self, goal: Goal, payload: str | Mapping[str, Any], payload_text: str) -> Booking:
        usage = Usage()
        started = time.perf_counter()
        try:
            answer = complete_structured(self.model, booker_messages(goal, payload_text), BookingAnswer,
                                         max_repairs=self.max_repairs, usage=usage, temperature=0.0,
                                         seed=self.seed, max_tokens=60)
        except InvalidOutput as exc:
            return Booking(NONE, NONE, usage.prompt_tokens, usage.completion_tokens, usage.requests,
                           time.perf_counter() - started, error=f"invalid output: {exc}")
        return Booking(answer.hotel_id, answer.flight_id, usage.prompt_tokens, usage.completion_tokens,
                       usage.requests, time.perf_counter() - started)
