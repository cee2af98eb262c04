from hypothesis import given, settings
from hypothesis import strategies as st

from relaykit.bench.relay import brute_force_truth, generate_world, ground_truth, truth_table
from relaykit.bench.relay.generate import WorldSpec
from relaykit.bench.relay.world import Flight, Goal, Hotel, World


def _world(hotels: list[Hotel], flights: list[Flight], goal: Goal) -> World:
    return World(hotels=tuple(hotels), flights=tuple(flights), goals=(goal,))


def test_hand_example_ranking_and_ties() -> None:
    hotels = [
        Hotel(id="H1", name="a", price=100, distance_km=2.0, stars=3, amenities=("gym",)),
        Hotel(id="H2", name="b", price=100, distance_km=1.0, stars=3, amenities=("gym",)),  # nearer: wins the tie
        Hotel(id="H3", name="c", price=90, distance_km=1.0, stars=5, amenities=("pool",)),  # no gym
        Hotel(id="H4", name="d", price=80, distance_km=9.0, stars=5, amenities=("gym",)),  # too far
    ]
    flights = [
        Flight(id="F1", airline="BA", window="morning", cabin="economy", price=200, layovers=0, refundable=True),
        Flight(id="F2", airline="BA", window="evening", cabin="economy", price=50, layovers=0, refundable=True),
        Flight(id="F3", airline="BA", window="morning", cabin="economy", price=260, layovers=0, refundable=True),
    ]
    goal = Goal(id="G1", persona="x", budget=300, amenity="gym", max_distance_km=3.0, window="morning",
                cabin="economy")
    world = _world(hotels, flights, goal)
    truth = ground_truth(world, goal)
    assert set(truth.pairs(world)) == {("H1", "F1"), ("H2", "F1")}
    assert truth.optimal == ("H2", "F1") and truth.optimal_cost == 300
    tighter = goal.model_copy(update={"budget": 299})
    assert ground_truth(_world(hotels, flights, tighter), tighter).optimal is None


def test_final_tie_break_is_hotel_then_flight_id() -> None:
    hotels = [Hotel(id=i, name="h", price=100, distance_km=1.0, stars=4, amenities=("wifi",)) for i in ("H2", "H1")]
    flights = [Flight(id=i, airline="BA", window="night", cabin="first", price=100, layovers=1, refundable=False)
               for i in ("F9", "F3")]
    goal = Goal(id="G1", persona="x", budget=200, amenity="wifi", max_distance_km=1.0, window="night", cabin="first")
    assert ground_truth(_world(hotels, flights, goal), goal).optimal == ("H1", "F3")


hotel_st = st.builds(
    lambda i, p, d, s, a: Hotel(id=f"H{i}", name="h", price=p, distance_km=d, stars=s, amenities=tuple(a)),
    st.integers(), st.integers(50, 60), st.sampled_from([0.5, 1.0, 1.5]), st.integers(1, 5),
    st.lists(st.sampled_from(["gym", "pool", "spa"]), max_size=3, unique=True),
)
flight_st = st.builds(
    lambda i, w, c, p: Flight(id=f"F{i}", airline="BA", window=w, cabin=c, price=p, layovers=0, refundable=True),
    st.integers(), st.sampled_from(["morning", "night"]), st.sampled_from(["economy", "first"]), st.integers(40, 50),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(hotel_st, min_size=1, max_size=8), st.lists(flight_st, min_size=1, max_size=8),
       st.integers(80, 115), st.sampled_from(["gym", "pool", "spa"]), st.sampled_from([0.5, 1.0, 1.5]),
       st.sampled_from(["morning", "night"]), st.sampled_from(["economy", "first"]))
def test_vectorised_truth_equals_brute_force(hotels, flights, budget, amenity, dist, window, cabin) -> None:  # type: ignore[no-untyped-def]
    hotels = [h.model_copy(update={"id": f"H{n}"}) for n, h in enumerate(hotels)]  # unique ids, many ties
    flights = [f.model_copy(update={"id": f"F{n}"}) for n, f in enumerate(flights)]
    goal = Goal(id="G1", persona="x", budget=budget, amenity=amenity, max_distance_km=dist, window=window, cabin=cabin)
    world = _world(hotels, flights, goal)
    truth = ground_truth(world, goal)
    pairs, optimal = brute_force_truth(world, goal)
    assert set(truth.pairs(world)) == pairs
    assert truth.optimal == optimal


def test_generated_worlds_agree_with_brute_force() -> None:
    for seed in range(3):
        world = generate_world(WorldSpec(hotels=30, flights=25, goals=20, seed=seed))
        for goal in world.goals:
            truth = ground_truth(world, goal)
            pairs, optimal = brute_force_truth(world, goal)
            assert set(truth.pairs(world)) == pairs and truth.optimal == optimal


def test_thousand_by_thousand_matches_brute_force() -> None:
    world = generate_world(WorldSpec(hotels=1000, flights=1000, goals=2))
    for goal in world.goals:
        truth = ground_truth(world, goal)
        pairs, optimal = brute_force_truth(world, goal)
        assert set(truth.pairs(world)) == pairs and truth.optimal == optimal


def test_truth_table_lists_pairs_and_none() -> None:
    world = generate_world()
    table = truth_table(world)
    assert len(table["goals"]) == 50
    for entry in table["goals"]:
        if entry["satisfiable"]:
            assert entry["optimal"] in entry["feasible"] and entry["n_feasible"] == len(entry["feasible"])
        else:
            assert entry["optimal"] == ["NONE", "NONE"] and entry["feasible"] == []
