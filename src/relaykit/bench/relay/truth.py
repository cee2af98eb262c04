"""Exact ground truth by enumerating every hotel-flight pair, vectorised with numpy.

A pair is feasible when the hotel has the amenity (exact token), lies within the distance, the flight
has the window and the cabin, and one night plus the flight costs at most the budget. The optimal pair
t* is the feasible pair with the lowest total, then the shortest distance, then the most stars, then
the smallest (hotel_id, flight_id). ``brute_force_truth`` is the plain double loop the tests compare to.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from relaykit.bench.relay.world import Flight, Goal, Hotel, World

Pair = tuple[str, str]
NONE_PAIR: Pair = ("NONE", "NONE")


@dataclass(frozen=True)
class Truth:
    """Ground truth of one goal: its feasible pairs (as index arrays) and the optimal pair."""

    goal_id: str
    hotel_index: npt.NDArray[np.int64]
    flight_index: npt.NDArray[np.int64]
    optimal: Pair | None
    optimal_cost: int | None

    @property
    def satisfiable(self) -> bool:
        return self.optimal is not None

    @property
    def n_feasible(self) -> int:
        return int(self.hotel_index.size)

    def pairs(self, world: World) -> list[Pair]:
        return [(world.hotels[h].id, world.flights[f].id) for h, f in zip(self.hotel_index, self.flight_index)]


class Inventory:
    """The world's attributes as arrays, built once per world."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.hotel_ids = [h.id for h in world.hotels]
        self.flight_ids = [f.id for f in world.flights]
        self.hotel_pos = {h: i for i, h in enumerate(self.hotel_ids)}
        self.flight_pos = {f: i for i, f in enumerate(self.flight_ids)}
        self.hotel_price = np.array([h.price for h in world.hotels], dtype=np.int64)
        self.hotel_dist = np.array([h.distance_km for h in world.hotels], dtype=np.float64)
        self.hotel_stars = np.array([h.stars for h in world.hotels], dtype=np.int64)
        self.flight_price = np.array([f.price for f in world.flights], dtype=np.int64)
        self.flight_window = np.array([f.window for f in world.flights])
        self.flight_cabin = np.array([f.cabin for f in world.flights])
        self._amenity_masks: dict[str, npt.NDArray[np.bool_]] = {}
        # Rank of each id in sorted order, for the final lexicographic tie-break.
        self.hotel_rank = np.argsort(np.argsort(np.array(self.hotel_ids)))
        self.flight_rank = np.argsort(np.argsort(np.array(self.flight_ids)))

    def amenity_mask(self, amenity: str) -> npt.NDArray[np.bool_]:
        if amenity not in self._amenity_masks:
            self._amenity_masks[amenity] = np.array([amenity in h.amenities for h in self.world.hotels])
        return self._amenity_masks[amenity]

    def hotel_mask(self, goal: Goal) -> npt.NDArray[np.bool_]:
        return self.amenity_mask(goal.amenity) & (self.hotel_dist <= goal.max_distance_km)

    def flight_mask(self, goal: Goal) -> npt.NDArray[np.bool_]:
        mask: npt.NDArray[np.bool_] = (self.flight_window == goal.window) & (self.flight_cabin == goal.cabin)
        return mask

    def cost(self, pair: Pair) -> int:
        return int(self.hotel_price[self.hotel_pos[pair[0]]] + self.flight_price[self.flight_pos[pair[1]]])

    def is_feasible(self, goal: Goal, pair: Pair) -> bool:
        """Whether ``pair`` (ids) is in F_g; unknown ids are never feasible."""
        h, f = self.hotel_pos.get(pair[0]), self.flight_pos.get(pair[1])
        if h is None or f is None:
            return False
        return bool(self.hotel_mask(goal)[h] and self.flight_mask(goal)[f]
                    and self.hotel_price[h] + self.flight_price[f] <= goal.budget)


_INVENTORIES: dict[int, Inventory] = {}


def inventory(world: World) -> Inventory:
    """The world's arrays, cached per world object (a few at most)."""
    inv = _INVENTORIES.get(id(world))
    if inv is None or inv.world is not world:
        if len(_INVENTORIES) >= 8:
            _INVENTORIES.clear()
        inv = _INVENTORIES[id(world)] = Inventory(world)
    return inv


def ground_truth(world: World, goal: Goal, inv: Inventory | None = None) -> Truth:
    """F_g and t*_g for ``goal`` by vectorised enumeration of every pair."""
    inv = inv or inventory(world)
    hotels = np.flatnonzero(inv.hotel_mask(goal))
    flights = np.flatnonzero(inv.flight_mask(goal))
    total = inv.hotel_price[hotels][:, None] + inv.flight_price[flights][None, :]
    hi, fi = np.nonzero(total <= goal.budget)
    if hi.size == 0:
        empty = np.zeros(0, dtype=np.int64)
        return Truth(goal.id, empty, empty, None, None)
    costs = total[hi, fi]
    best = costs == costs.min()
    bh, bf = hotels[hi[best]], flights[fi[best]]
    # Among the cheapest pairs: nearest, then most stars, then smallest (hotel_id, flight_id).
    order = np.lexsort((inv.flight_rank[bf], inv.hotel_rank[bh], -inv.hotel_stars[bh], inv.hotel_dist[bh]))
    h0, f0 = int(bh[order[0]]), int(bf[order[0]])
    return Truth(goal.id, hotels[hi].astype(np.int64), flights[fi].astype(np.int64),
                 (inv.hotel_ids[h0], inv.flight_ids[f0]), int(costs.min()))


def brute_force_truth(world: World, goal: Goal) -> tuple[set[Pair], Pair | None]:
    """The same truth by a plain loop over every pair and a full sort (for tests and the benchmark)."""
    feasible = []
    for h in world.hotels:
        for f in world.flights:
            if (goal.amenity in h.amenities and h.distance_km <= goal.max_distance_km and f.window == goal.window
                    and f.cabin == goal.cabin and h.price + f.price <= goal.budget):
                feasible.append((h.price + f.price, h.distance_km, -h.stars, h.id, f.id))
    feasible.sort()
    pairs = {(row[3], row[4]) for row in feasible}
    return pairs, ((feasible[0][3], feasible[0][4]) if feasible else None)


Decision = Literal["cost", "distance", "stars", "ids"]


def decided_by(hotels: Sequence[Hotel], flights: Sequence[Flight], goal: Goal) -> Decision | None:
    """Which ranking key picks ``goal``'s optimal pair out of the runner-up (None when nothing is feasible).

    "cost" when one feasible pair is strictly cheapest; otherwise the first of distance, stars, ids on
    which the two best pairs of equal cost differ. Only the cheapest pairs can tie, and a pair is
    cheapest exactly when its hotel and its flight are each the cheapest that match, so this looks at
    those alone (fast on any world size).
    """
    hs = [h for h in hotels if goal.amenity in h.amenities and h.distance_km <= goal.max_distance_km]
    fs = [f for f in flights if f.window == goal.window and f.cabin == goal.cabin]
    if not hs or not fs or min(h.price for h in hs) + min(f.price for f in fs) > goal.budget:
        return None
    low_h, low_f = min(h.price for h in hs), min(f.price for f in fs)
    best = sorted((h.distance_km, -h.stars, h.id, f.id) for h in hs if h.price == low_h
                  for f in fs if f.price == low_f)
    if len(best) == 1:
        return "cost"
    first, second = best[0], best[1]
    if first[0] != second[0]:
        return "distance"
    return "stars" if first[1] != second[1] else "ids"


def truth_table(world: World) -> dict[str, Any]:
    """What ``export-truth`` writes: per goal, every feasible pair, the optimal pair and its cost."""
    inv = inventory(world)
    goals = []
    for goal in world.goals:
        truth = ground_truth(world, goal, inv)
        goals.append({
            "goal": goal.id, "satisfiable": truth.satisfiable, "n_feasible": truth.n_feasible,
            "optimal": list(truth.optimal or NONE_PAIR), "optimal_cost": truth.optimal_cost,
            "feasible": [list(p) for p in truth.pairs(world)],
        })
    return {"format": "relaykit.relay-truth", "version": 1, "city": world.city, "goals": goals}
