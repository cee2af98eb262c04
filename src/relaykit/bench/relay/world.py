"""The closed world of the relay lab: hotels, flights and goals, stored as a versioned JSON file.

A world file is what ``relaykit bench relay export-world`` writes and ``--world FILE`` reads. It is
validated in full before use: every problem is reported with its JSON path, not just the first.
Prices are whole US dollars (one hotel night plus one flight, for one traveller); distances are km.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from relaykit.errors import UsageError

FORMAT = "relaykit.relay-world"
VERSION = 1
WINDOWS = ("morning", "afternoon", "evening", "night")
CABINS = ("economy", "premium", "business", "first")
AMENITIES = ("wifi", "breakfast", "gym", "pool", "spa", "parking", "bar", "restaurant", "laundry", "shuttle")

HOTEL_ID = re.compile(r"^H\d+$")
FLIGHT_ID = re.compile(r"^F\d+$")
GOAL_ID = re.compile(r"^G\d+$")
AMENITY_TOKEN = re.compile(r"^[a-z][a-z0-9-]*$")

Window = Literal["morning", "afternoon", "evening", "night"]
Cabin = Literal["economy", "premium", "business", "first"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Hotel(_Strict):
    """One hotel: a night's price in USD, distance to the centre in km, stars, amenity tokens."""

    id: str
    name: str
    price: int = Field(gt=0)
    distance_km: float = Field(ge=0)
    stars: int = Field(ge=1, le=5)
    amenities: tuple[str, ...]


class Flight(_Strict):
    """One flight; ``layovers`` and ``refundable`` are distractors, never constraints."""

    id: str
    airline: str
    window: Window
    cabin: Cabin
    price: int = Field(gt=0)
    layovers: int = Field(ge=0)
    refundable: bool


class Goal(_Strict):
    """A persona with five hard constraints."""

    id: str
    persona: str
    budget: int = Field(gt=0)
    amenity: str
    max_distance_km: float = Field(ge=0)
    window: Window
    cabin: Cabin
    tightness: str = "comfortable"

    @property
    def text(self) -> str:
        """The goal as the agents read it (one sentence of constraints)."""
        return (
            f"Goal {self.id}: {self.persona}, flies to London. Constraints: total budget at most {self.budget} USD; "
            f"hotel amenity {self.amenity}; hotel distance at most {self.max_distance_km:.1f} km; "
            f"departure window {self.window}; cabin {self.cabin}."
        )


class World(_Strict):
    """A closed-world inventory and its goals; ``seed`` records how it was generated (if it was)."""

    format: Literal["relaykit.relay-world"] = "relaykit.relay-world"
    version: Literal[1] = 1
    city: str = "London"
    seed: int | None = None
    hotels: tuple[Hotel, ...]
    flights: tuple[Flight, ...]
    goals: tuple[Goal, ...]

    def hotel(self, hotel_id: str) -> Hotel:
        return next(h for h in self.hotels if h.id == hotel_id)

    def flight(self, flight_id: str) -> Flight:
        return next(f for f in self.flights if f.id == flight_id)

    def goal(self, goal_id: str) -> Goal:
        return next(g for g in self.goals if g.id == goal_id)

    def to_json(self) -> str:
        return json.dumps(self.model_dump(mode="json"), indent=1) + "\n"


@dataclass(frozen=True)
class Problem:
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def _json_path(loc: Iterable[int | str]) -> str:
    out = "$"
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _unique(items: Iterable[Any], where: str, pattern: re.Pattern[str]) -> list[Problem]:
    problems, seen = [], set()
    for i, item in enumerate(items):
        if not pattern.match(item.id):
            problems.append(Problem(f"$.{where}[{i}].id", f"{item.id!r} does not match {pattern.pattern}"))
        if item.id in seen:
            problems.append(Problem(f"$.{where}[{i}].id", f"duplicate id {item.id!r}"))
        seen.add(item.id)
    return problems


def semantic_problems(world: World) -> list[Problem]:
    """Checks a schema cannot express: id forms, unique ids, amenity tokens, a non-empty inventory."""
    problems = _unique(world.hotels, "hotels", HOTEL_ID)
    problems += _unique(world.flights, "flights", FLIGHT_ID)
    problems += _unique(world.goals, "goals", GOAL_ID)
    for name in ("hotels", "flights", "goals"):
        if not getattr(world, name):
            problems.append(Problem(f"$.{name}", "must hold at least one entry"))
    for i, hotel in enumerate(world.hotels):
        for j, token in enumerate(hotel.amenities):
            if not AMENITY_TOKEN.match(token):
                problems.append(Problem(f"$.hotels[{i}].amenities[{j}]", f"{token!r} is not a lower-case token"))
    for i, goal in enumerate(world.goals):
        if not AMENITY_TOKEN.match(goal.amenity):
            problems.append(Problem(f"$.goals[{i}].amenity", f"{goal.amenity!r} is not a lower-case token"))
    return problems


def validate_world(data: Any) -> World:
    """A checked ``World`` from parsed JSON; ``UsageError`` lists every problem with its JSON path."""
    try:
        world = World.model_validate(data)
    except ValidationError as exc:
        lines = [str(Problem(_json_path(e["loc"]), e["msg"])) for e in exc.errors()]
        raise UsageError(_problem_message(lines)) from None
    problems = semantic_problems(world)
    if problems:
        raise UsageError(_problem_message([str(p) for p in problems]))
    return world


def _problem_message(lines: list[str]) -> str:
    return f"the world file is invalid ({len(lines)} problem{'s' * (len(lines) != 1)}): " + "; ".join(lines)


def load_world(path: Path | str) -> World:
    """Read and validate a world file written by ``export-world`` (and perhaps edited by hand)."""
    file = Path(path)
    if not file.is_file():
        raise UsageError(f"no world file at {file}; write one with: relaykit bench relay export-world {file}")
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise UsageError(f"{file} is not a JSON world file: {exc}") from None
    return validate_world(data)


def save_world(world: World, path: Path | str) -> None:
    Path(path).write_text(world.to_json(), encoding="utf-8")
