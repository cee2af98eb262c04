"""A seeded generator of relay worlds; the default reproduces the paper's setup (10 x 10, 50 goals).

Goals are spread over constraint tightness on purpose: comfortable budgets, tight ones, near misses
that are feasible or infeasible by a few dollars, and goals whose categorical constraints nothing meets.
A share of goals (``TIE_SHARE`` per ranking key) has an optimum decided by a tie-break: the cheapest
pairs tie on cost and the optimum is decided by distance, by stars, or by the ids. The generator plants
the twin hotels and flights those goals need (see ``plant_twins``) and checks every such goal with
``relaykit.bench.relay.truth.decided_by``; a goal that does not check out is generated as a comfortable one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from relaykit.bench.relay.world import AMENITIES, CABINS, TIE_AMENITIES, WINDOWS, Flight, Goal, Hotel, World
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
TIE_SHARE = 0.04  # per tie-break key (distance, stars, ids): 12% of the goals in all
TIGHTNESS: tuple[tuple[str, float, tuple[int, int]], ...] = (
    ("comfortable", 0.36 - 3 * TIE_SHARE, (60, 400)),
    ("tight", 0.20, (6, 40)),
    ("near-miss-feasible", 0.20, (0, 5)),
    ("near-miss-infeasible", 0.16, (-5, -1)),
    ("unsatisfiable", 0.08, (0, 300)),
    ("tie-distance", TIE_SHARE, (0, 40)),
    ("tie-stars", TIE_SHARE, (0, 40)),
    ("tie-ids", TIE_SHARE, (0, 40)),
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




@dataclass(frozen=True)
class Twins:
    """Planted ties. ``base``, ``far`` and ``starred`` cost the same; ``far`` lies farther than ``base``
    and shares ``distance_amenity`` with it; ``starred`` lies as far as ``base`` with other stars and
    shares ``stars_amenity``; ``flight`` is a (window, cabin) whose two cheapest flights cost the same."""

    base: Hotel
    far: Hotel
    distance_amenity: str
    stars_amenity: str
    flight: tuple[str, str]


def plant_twins(rng: np.random.Generator, hotels: list[Hotel], flights: list[Flight]) -> Twins | None:
    """Overwrite three hotels and one flight (in place) so that tie-break goals can be built; None if too small."""
    if len(hotels) < 3 or len(flights) < 2:
        return None
    base_i, far_i, starred_i = (int(i) for i in rng.choice(len(hotels), 3, replace=False))
    valet, rooftop = TIE_AMENITIES
    base = hotels[base_i] = hotels[base_i].model_copy(update={
        "amenities": (*hotels[base_i].amenities, valet, rooftop)})
    far = hotels[far_i] = hotels[far_i].model_copy(update={
        "price": base.price, "amenities": (*hotels[far_i].amenities, valet),
        "distance_km": round(base.distance_km + float(rng.uniform(0.6, 2.5)), 1)})
    hotels[starred_i] = hotels[starred_i].model_copy(update={
        "price": base.price, "amenities": (*hotels[starred_i].amenities, rooftop),
        "distance_km": base.distance_km, "stars": base.stars - 1 if base.stars > 1 else base.stars + 1})
    source_i, twin_i = (int(i) for i in rng.choice(len(flights), 2, replace=False))
    source = flights[source_i]
    kind = (source.window, source.cabin)
    low = min(f.price for j, f in enumerate(flights) if j != twin_i and (f.window, f.cabin) == kind)
    flights[twin_i] = flights[twin_i].model_copy(update={"window": source.window, "cabin": source.cabin,
                                                         "price": low})
    return Twins(base, far, valet, rooftop, (source.window, source.cabin))


def _unique_cheapest_categories(flights: list[Flight]) -> list[tuple[str, str]]:
    lows: dict[tuple[str, str], list[int]] = {}
    for f in flights:
        lows.setdefault((f.window, f.cabin), []).append(f.price)
    return sorted(k for k, prices in lows.items() if prices.count(min(prices)) == 1)


def _tie_anchor(rng: np.random.Generator, category: str, twins: Twins, flights: list[Flight]) -> Anchor | None:
    """The constraints of a goal whose optimum the ``category``'s key decides (checked by the caller)."""
    base = twins.base
    if category == "tie-ids":
        window, cabin = twins.flight
        cap = math.ceil(base.distance_km * 2) / 2  # below the far twin (at least 0.6 km farther)
        return twins.distance_amenity, cap, window, cabin
    choices = _unique_cheapest_categories(flights)
    if not choices:
        return None
    window, cabin = choices[int(rng.integers(len(choices)))]
    if category == "tie-distance":
        cap = math.ceil((twins.far.distance_km + float(rng.uniform(0.0, 1.5))) * 2) / 2
        return twins.distance_amenity, cap, window, cabin
    cap = math.ceil((base.distance_km + float(rng.uniform(0.0, 0.5))) * 2) / 2
    return twins.stars_amenity, cap, window, cabin


def _persona(rng: np.random.Generator) -> str:
    job = JOBS[int(rng.integers(len(JOBS)))]
    return f"{NAMES[int(rng.integers(len(NAMES)))]}, {'an' if job[0] in 'aeiou' else 'a'} {job}"


def _goal(rng: np.random.Generator, category: str, margin: tuple[int, int], hotels: list[Hotel],
          flights: list[Flight], twins: Twins | None) -> tuple[str, int, Anchor]:
    """(category, budget, anchor) of one goal; a tie-break goal that cannot be built becomes comfortable."""
    lo, hi = margin
    if category.startswith("tie-"):
        anchor = _tie_anchor(rng, category, twins, flights) if twins else None
        if anchor is not None:
            budget = _cheapest_match(hotels, flights, *anchor)
            if budget is not None:
                return category, budget + int(rng.integers(lo, hi + 1)), anchor
        category, (lo, hi) = "comfortable", TIGHTNESS[0][2]
    if category == "unsatisfiable":
        return category, 400 + int(rng.integers(lo, hi + 1)), _unsatisfiable_anchor(rng, hotels, flights)
    anchor = _feasible_anchor(rng, hotels, flights)
    cheapest = _cheapest_match(hotels, flights, *anchor)
    assert cheapest is not None  # the anchor pair itself matches
    return category, max(1, cheapest + int(rng.integers(lo, hi + 1))), anchor


def make_goals(rng: np.random.Generator, hotels: list[Hotel], flights: list[Flight], n: int,
               twins: Twins | None = None) -> list[Goal]:
    from relaykit.bench.relay.truth import decided_by

    goals = []
    categories = _categories(n)
    order = rng.permutation(len(categories))
    for index, k in enumerate(order):
        category, budget, (amenity, dist, window, cabin) = _goal(rng, *categories[int(k)], hotels, flights, twins)
        goal = Goal(id=f"G{index + 1:0{_width(n)}d}", persona=_persona(rng), budget=budget, amenity=amenity,
                    max_distance_km=dist, window=window, cabin=cabin, tightness=category)  # type: ignore[arg-type]
        if category.startswith("tie-") and decided_by(hotels, flights, goal) != category[4:]:
            goal = goal.model_copy(update={"tightness": "comfortable"})  # a coincidental tie spoilt it
        goals.append(goal)
    return goals


def generate_world(spec: WorldSpec | None = None) -> World:
    """The world for ``spec`` (the same seed always gives the same world)."""
    spec = spec or WorldSpec()
    rng = np.random.default_rng(spec.seed)
    hotels = make_hotels(rng, spec.hotels)
    flights = make_flights(rng, spec.flights)
    twins = plant_twins(np.random.default_rng([spec.seed, 18]), hotels, flights)
    goals = make_goals(rng, hotels, flights, spec.goals, twins)
    return World(seed=spec.seed, hotels=tuple(hotels), flights=tuple(flights), goals=tuple(goals))
