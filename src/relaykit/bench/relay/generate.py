"""A seeded generator of relay worlds; the default reproduces the paper's setup (10 x 10, 50 goals).

Goals are spread over constraint tightness on purpose: comfortable budgets, tight ones, near misses
that are feasible or infeasible by a few dollars, and goals whose categorical constraints nothing meets.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from relaykit.bench.relay.world import AMENITIES, CABINS, WINDOWS, Flight, Goal, Hotel, World
from relaykit.errors import UsageError

HOTEL_WORDS = (
    "Kensington", "Thames", "Camden", "Soho", "Mayfair", "Shoreditch", "Holborn", "Bloomsbury", "Chelsea",
    "Greenwich", "Paddington", "Southwark", "Islington", "Marylebone", "Covent", "Fitzrovia", "Battersea",
)
HOTEL_KINDS = ("Rooms", "View", "Lodge", "House", "Inn", "Suites", "Hotel", "Residence", "Court", "Arms")
AIRLINES = ("BA", "Virgin", "easyJet", "Ryanair", "Lufthansa", "KLM", "AirFrance", "Iberia", "Aer Lingus")
NAMES = (
    "Priya", "Tom", "Amara", "Lukas", "Mei", "Diego", "Sofia", "Omar", "Hana", "Jonas", "Aisha", "Mateo",
    "Elena", "Kwame", "Yuki", "Noah", "Leila", "Ravi", "Ines", "Felix",
)
JOBS = (
    "consultant", "nurse", "architect", "student", "journalist", "engineer", "teacher", "photographer",
    "lawyer", "chef", "researcher", "designer", "accountant", "musician",
)
CABIN_PRICES = {"economy": (70, 320), "premium": (260, 520), "business": (520, 1200), "first": (1200, 2400)}

# (category, share of goals, budget margin range over the cheapest categorical match in USD)
TIGHTNESS: tuple[tuple[str, float, tuple[int, int]], ...] = (
    ("comfortable", 0.36, (60, 400)),
    ("tight", 0.20, (6, 40)),
    ("near-miss-feasible", 0.20, (0, 5)),
    ("near-miss-infeasible", 0.16, (-5, -1)),
    ("unsatisfiable", 0.08, (0, 300)),
)


@dataclass(frozen=True)
class WorldSpec:
    """Sizes and seed of a generated world (the paper's defaults)."""

    hotels: int = 10
    flights: int = 10
    goals: int = 50
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("hotels", "flights", "goals"):
            value = getattr(self, name)
            if not 1 <= value <= 100_000:
                raise UsageError(f"--{name} must be between 1 and 100000, not {value}")


def _width(n: int) -> int:
    return max(2, len(str(n)))


def make_hotels(rng: np.random.Generator, n: int) -> list[Hotel]:
    hotels = []
    for i in range(n):
        stars = int(rng.integers(2, 6))
        price = int(rng.integers(50, 110) + stars * rng.integers(20, 60))
        k = int(rng.integers(2, 7))
        amenities = tuple(str(a) for a in rng.choice(AMENITIES, size=k, replace=False))
        name = f"{HOTEL_WORDS[int(rng.integers(len(HOTEL_WORDS)))]} {HOTEL_KINDS[int(rng.integers(len(HOTEL_KINDS)))]}"
        hotels.append(Hotel(id=f"H{i + 1:0{_width(n)}d}", name=name, price=price,
                            distance_km=round(float(rng.uniform(0.3, 12.0)), 1), stars=stars, amenities=amenities))
    return hotels


def make_flights(rng: np.random.Generator, n: int) -> list[Flight]:
    flights = []
    for i in range(n):
        cabin = str(rng.choice(CABINS, p=[0.55, 0.2, 0.18, 0.07]))
        lo, hi = CABIN_PRICES[cabin]
        flights.append(Flight(
            id=f"F{i + 1:0{_width(n)}d}", airline=str(rng.choice(AIRLINES)), window=str(rng.choice(WINDOWS)),  # type: ignore[arg-type]
            cabin=cabin, price=int(rng.integers(lo, hi)), layovers=int(rng.choice([0, 0, 1, 2])),  # type: ignore[arg-type]
            refundable=bool(rng.integers(2)),
        ))
    return flights


def _cheapest_match(hotels: list[Hotel], flights: list[Flight], amenity: str, dist: float, window: str,
                    cabin: str) -> int | None:
    hp = [h.price for h in hotels if amenity in h.amenities and h.distance_km <= dist]
    fp = [f.price for f in flights if f.window == window and f.cabin == cabin]
    return min(hp) + min(fp) if hp and fp else None


def _categories(n: int) -> list[tuple[str, tuple[int, int]]]:
    counts = [math.floor(share * n) for _, share, _ in TIGHTNESS]
    for i in range(n - sum(counts)):
        counts[i % len(counts)] += 1
    return [(name, margin) for (name, _, margin), c in zip(TIGHTNESS, counts) for _ in range(c)]


Anchor = tuple[str, float, str, str]


def _feasible_anchor(rng: np.random.Generator, hotels: list[Hotel], flights: list[Flight]) -> Anchor:
    hotel = hotels[int(rng.integers(len(hotels)))]
    flight = flights[int(rng.integers(len(flights)))]
    amenity = str(rng.choice(hotel.amenities))
    dist = math.ceil((hotel.distance_km + float(rng.uniform(0.0, 3.0))) * 2) / 2
    return amenity, dist, flight.window, flight.cabin


def _unsatisfiable_anchor(rng: np.random.Generator, hotels: list[Hotel], flights: list[Flight]) -> Anchor:
    for _ in range(200):
        amenity = str(rng.choice(AMENITIES))
        dist = float(rng.choice([0.5, 1.0, 1.5, 2.0, 3.0]))
        window, cabin = str(rng.choice(WINDOWS)), str(rng.choice(CABINS))
        if _cheapest_match(hotels, flights, amenity, dist, window, cabin) is None:
            return amenity, dist, window, cabin
    return "rooftop-cinema", 0.1, "night", "first"  # no generated hotel has this amenity


def make_goals(rng: np.random.Generator, hotels: list[Hotel], flights: list[Flight], n: int) -> list[Goal]:
    goals = []
    categories = _categories(n)
    order = rng.permutation(len(categories))
    for index, k in enumerate(order):
        category, (lo, hi) = categories[int(k)]
        if category == "unsatisfiable":
            amenity, dist, window, cabin = _unsatisfiable_anchor(rng, hotels, flights)
            budget = 400 + int(rng.integers(lo, hi + 1))
        else:
            amenity, dist, window, cabin = _feasible_anchor(rng, hotels, flights)
            cheapest = _cheapest_match(hotels, flights, amenity, dist, window, cabin)
            assert cheapest is not None  # the anchor pair itself matches
            budget = max(1, cheapest + int(rng.integers(lo, hi + 1)))
        job = JOBS[int(rng.integers(len(JOBS)))]
        persona = f"{NAMES[int(rng.integers(len(NAMES)))]}, {'an' if job[0] in 'aeiou' else 'a'} {job}"
        goals.append(Goal(id=f"G{index + 1:0{_width(n)}d}", persona=persona, budget=budget,
                          amenity=amenity, max_distance_km=dist, window=window,  # type: ignore[arg-type]
                          cabin=cabin, tightness=category))  # type: ignore[arg-type]
    return goals


def generate_world(spec: WorldSpec | None = None) -> World:
    """The world for ``spec`` (the same seed always gives the same world)."""
    spec = spec or WorldSpec()
    rng = np.random.default_rng(spec.seed)
    hotels = make_hotels(rng, spec.hotels)
    flights = make_flights(rng, spec.flights)
    goals = make_goals(rng, hotels, flights, spec.goals)
    return World(seed=spec.seed, hotels=tuple(hotels), flights=tuple(flights), goals=tuple(goals))
