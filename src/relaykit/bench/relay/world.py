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

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, model_validator

from relaykit.errors import UsageError

FORMAT = "relaykit.relay-world"
VERSION = 1
WINDOWS = ("morning", "afternoon", "evening", "night")
CABINS = ("economy", "premium", "business", "first")
AMENITIES = ("wifi", "breakfast", "gym", "pool", "spa", "parking", "bar", "restaurant", "laundry", "shuttle")
TIE_AMENITIES = ("valet", "rooftop")  # planted on the generator's twin hotels only, so tie goals reach just them

HOTEL_ID = re.compile(r"^H\d+$")
FLIGHT_ID = re.compile(r"^F\d+$")
GOAL_ID = re.compile(r"^G\d+$")
AMENITY_TOKEN = re.compile(r"^[a-z][a-z0-9-]*$")

Window = Literal["morning", "afternoon", "evening", "night"]
Cabin = Literal["economy", "premium", "business", "first"]


def format_km(value: float) -> str:
    """A distance at the precision that decides a check: one decimal when that is exact, else every digit.

    2.5 prints "2.5"; 2.54 prints "2.54" (never "2.5", which would contradict a 2.5 km cap's verdict).
    """
    short = f"{value:.1f}"
    return short if float(short) == value else repr(float(value))


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
    _city: str = PrivateAttr(default="London")  # set from the world that holds the goal

    @property
    def city(self) -> str:
        """The destination: the city of the world this goal belongs to."""
        return self._city

    @property
    def text(self) -> str:
        """The goal as the agents read it (who travels where, then one sentence of constraints)."""
        return f"Goal {self.id}: {self.persona}, flies to {self.city}. {self.constraints_text}"

    @property
    def constraints_text(self) -> str:
        """The goal's five hard constraints alone (no persona, so no identifiers but the ones in values)."""
        return (
            f"Constraints: total budget at most {self.budget} USD; hotel amenity {self.amenity}; "
            f"hotel distance at most {format_km(self.max_distance_km)} km; departure window {self.window}; "
            f"cabin {self.cabin}."
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

    @model_validator(mode="after")
    def _goals_fly_to_this_city(self) -> World:
        goals = []
        for goal in self.goals:
            if goal.city != self.city:
                goal = goal.model_copy()
                goal._city = self.city
            goals.append(goal)
        object.__setattr__(self, "goals", tuple(goals))
        return self

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


def _entries(data: Any, where: str) -> list[tuple[int, dict[str, Any]]]:
    """The object entries of ``data[where]`` with their positions (whatever the rest of the file holds)."""
    items = data.get(where) if isinstance(data, dict) else None
    if not isinstance(items, list):
        return []
    return [(i, item) for i, item in enumerate(items) if isinstance(item, dict)]


def _id_problems(data: Any, where: str, pattern: re.Pattern[str]) -> list[Problem]:
    problems, seen = [], set()
    for i, item in _entries(data, where):
        value = item.get("id")
        if not isinstance(value, str):
            continue  # the schema reports a missing or non-text id
        if not pattern.match(value):
            problems.append(Problem(f"$.{where}[{i}].id", f"{value!r} does not match {pattern.pattern}"))
        if value in seen:
            problems.append(Problem(f"$.{where}[{i}].id", f"duplicate id {value!r}"))
        seen.add(value)
    return problems


def _token_problems(data: Any) -> list[Problem]:
    problems = []
    for i, hotel in _entries(data, "hotels"):
        amenities = hotel.get("amenities")
        for j, token in enumerate(amenities if isinstance(amenities, list) else []):
            if isinstance(token, str) and not AMENITY_TOKEN.match(token):
                problems.append(Problem(f"$.hotels[{i}].amenities[{j}]", f"{token!r} is not a lower-case token"))
    for i, goal in _entries(data, "goals"):
        amenity = goal.get("amenity")
        if isinstance(amenity, str) and not AMENITY_TOKEN.match(amenity):
            problems.append(Problem(f"$.goals[{i}].amenity", f"{amenity!r} is not a lower-case token"))
    return problems


def semantic_problems(world: World | Any) -> list[Problem]:
    """Checks a schema cannot express: id forms, unique ids, amenity tokens, a non-empty inventory.

    ``world`` may be a ``World`` or raw parsed JSON: these checks run on whatever entries are readable,
    so they are reported together with the schema's problems in one pass.
    """
    data = world.model_dump(mode="json") if isinstance(world, World) else world
    problems = _id_problems(data, "hotels", HOTEL_ID)
    problems += _id_problems(data, "flights", FLIGHT_ID)
    problems += _id_problems(data, "goals", GOAL_ID)
    for name in ("hotels", "flights", "goals"):
        if isinstance(data, dict) and isinstance(data.get(name), list) and not data[name]:
            problems.append(Problem(f"$.{name}", "must hold at least one entry"))
    return problems + _token_problems(data)


def _path_order(problem: Problem) -> list[tuple[int, int | str]]:
    parts = re.findall(r"\[(\d+)\]|\.([^.\[]+)", problem.path)
    return [(0, int(index)) if index else (1, name) for index, name in parts]


def validate_world(data: Any) -> World:
    """A checked ``World`` from parsed JSON; ``UsageError`` lists every problem with its JSON path.

    Schema problems (types, ranges, missing fields) and semantic ones (id forms, duplicate ids,
    amenity tokens, empty lists) are found in the same pass and reported together, in file order.
    """
    problems: list[Problem] = []
    world: World | None = None
    try:
        world = World.model_validate(data)
    except ValidationError as exc:
        problems = [Problem(_json_path(e["loc"]), e["msg"]) for e in exc.errors()]
    problems += semantic_problems(data)
    if problems:
        problems.sort(key=_path_order)
        raise UsageError(_problem_message([str(p) for p in problems]))
    assert world is not None
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
    except RecursionError:
        raise UsageError(f"{file} is not a world file: its JSON is nested too deeply") from None
    return validate_world(data)


def save_world(world: World, path: Path | str) -> None:
    Path(path).write_text(world.to_json(), encoding="utf-8")
