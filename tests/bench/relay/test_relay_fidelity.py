"""Issue 18: the relay lab is faithful to paper 000 and to its own docs (ids, city, precision, validation, ties)."""

import json
from collections import Counter

import pytest

from relaykit.bench.relay import brute_force_truth, generate_world, ground_truth, validate_world
from relaykit.bench.relay.booker import Reader
from relaykit.bench.relay.generate import TIE_SHARE, WorldSpec
from relaykit.bench.relay.researcher import audit_trace, researcher_messages
from relaykit.bench.relay.truth import decided_by
from relaykit.bench.relay.world import Flight, Goal, Hotel, World, format_km
from relaykit.errors import UsageError


def _reader_scores(world: World, method: str = "passthrough") -> tuple[float, float]:
    from relaykit.handoff import compress_handoff

    feasible = optimal = 0
    for goal in world.goals:
        trace = audit_trace(world, goal)
        handoff = compress_handoff(trace, goal.text, method=method)
        booking = Reader().book(goal, handoff.payload, handoff.payload_text)
        pairs, best = brute_force_truth(world, goal)
        feasible += (booking.pair in pairs) if best else booking.is_none
        optimal += booking.pair == (best or ("NONE", "NONE"))
    return feasible / len(world.goals), optimal / len(world.goals)


def test_ids_in_the_persona_do_not_hide_options_from_the_reader() -> None:
    world = generate_world(WorldSpec(goals=12, seed=1))
    ids = [h.id for h in world.hotels] + [f.id for f in world.flights]
    goals = tuple(g.model_copy(update={"persona": f"Mia, who once stayed at {ids[i % len(ids)]} and flew "
                                                  f"{ids[-1 - i % len(ids)]}"}) for i, g in enumerate(world.goals))
    hostile = world.model_copy(update={"goals": goals})
    assert all(any(i in g.text for i in ids) for g in hostile.goals)
    assert _reader_scores(hostile) == (1.0, 1.0)
    assert _reader_scores(hostile, "extract-rules") == (1.0, 1.0)  # the extractor keeps those options too


def test_goal_text_names_the_worlds_city() -> None:
    world = generate_world(WorldSpec(goals=3))
    lisbon = World.model_validate({**json.loads(world.to_json()), "city": "Lisbon"})
    goal = lisbon.goals[0]
    assert "flies to Lisbon" in goal.text and "London" not in goal.text
    trace = audit_trace(lisbon, goal)
    assert "London" not in trace and "in Lisbon." in trace
    assert "London" not in researcher_messages(lisbon, goal)[1]["content"]
    assert World(city="Porto", hotels=world.hotels, flights=world.flights, goals=world.goals).goals[0].city == "Porto"
    assert world.goals[0].city == "London"  # building another world from these goals did not change them


def test_numbers_are_printed_at_the_precision_that_decides_the_check() -> None:
    assert (format_km(2.5), format_km(2.54), format_km(3.0), format_km(2.5000001)) == ("2.5", "2.54", "3.0",
                                                                                       "2.5000001")
    hotel = Hotel(id="H1", name="Edge Inn", price=100, distance_km=2.54, stars=3, amenities=("wifi",))
    flight = Flight(id="F1", airline="BA", window="morning", cabin="economy", price=100, layovers=0,
                    refundable=True)
    goals = (Goal(id="G1", persona="Ana", budget=500, amenity="wifi", max_distance_km=2.5, window="morning",
                  cabin="economy"),
             Goal(id="G2", persona="Ben", budget=500, amenity="wifi", max_distance_km=2.54, window="morning",
                  cabin="economy"))
    world = World(hotels=(hotel,), flights=(flight,), goals=goals)
    first = audit_trace(world, goals[0])
    assert "2.54 km exceeds 2.5 km, fail" in first and "distance 2.54 km" in first and "2.5 km exceeds 2.5" not in first
    second = audit_trace(world, goals[1])
    assert "at most 2.54 km" in goals[1].text and "2.54 km is at most 2.54 km, pass" in second
    assert _reader_scores(world) == (1.0, 1.0)


def test_world_validation_reports_schema_and_semantic_problems_in_one_pass() -> None:
    data = json.loads(generate_world(WorldSpec(goals=3)).to_json())
    data["hotels"][2]["price"] = -5  # schema
    data["flights"][0]["id"] = data["flights"][1]["id"]  # duplicate (the docs' example)
    data["hotels"][4]["id"] = "X4"  # malformed
    data["hotels"][3]["amenities"] = ["Free WiFi"]  # not a lower-case token
    data["goals"][1]["cabin"] = "galley"  # schema
    with pytest.raises(UsageError) as info:
        validate_world(data)
    message = str(info.value)
    assert "5 problems" in message
    for path in ("$.hotels[2].price", "$.flights[1].id: duplicate id", "$.hotels[4].id", "$.hotels[3].amenities[0]",
                 "$.goals[1].cabin"):
        assert path in message
    assert message.index("$.flights[1].id") < message.index("$.goals[1].cabin")  # file order


def test_world_validation_survives_any_shape() -> None:
    for data in (None, [], "x", {"hotels": "no"}, {"hotels": [1, {"id": 3}], "flights": [], "goals": [{}]}):
        with pytest.raises(UsageError, match="the world file is invalid"):
            validate_world(data)


@pytest.mark.parametrize("spec", [WorldSpec(10, 10, 50, s) for s in range(4)] + [WorldSpec(30, 30, 200, 1),
                                                                                 WorldSpec(100, 100, 300, 2)])
def test_generated_worlds_have_goals_decided_by_every_tie_break(spec: WorldSpec) -> None:
    world = generate_world(spec)
    share = Counter(g.tightness for g in world.goals)
    for key in ("distance", "stars", "ids"):
        tie_goals = [g for g in world.goals if g.tightness == f"tie-{key}"]
        assert len(tie_goals) == int(TIE_SHARE * spec.goals) == share[f"tie-{key}"]
        for goal in tie_goals:
            assert decided_by(world.hotels, world.flights, goal) == key
    for goal in world.goals:  # truth, decision and a brute-force full sort agree on every goal
        feasible = sorted((h.price + f.price, h.distance_km, -h.stars, h.id, f.id) for h in world.hotels
                          for f in world.flights if goal.amenity in h.amenities
                          and h.distance_km <= goal.max_distance_km and f.window == goal.window
                          and f.cabin == goal.cabin and h.price + f.price <= goal.budget)
        truth = ground_truth(world, goal)
        assert truth.optimal == (feasible[0][3:] if feasible else None)
        expected = None if not feasible else "cost" if len(feasible) == 1 or feasible[0][0] != feasible[1][0] \
            else "distance" if feasible[0][1] != feasible[1][1] else "stars" if feasible[0][2] != feasible[1][2] \
            else "ids"
        assert decided_by(world.hotels, world.flights, goal) == expected


def test_reader_ranks_like_the_truth_on_tie_break_goals() -> None:
    world = generate_world(WorldSpec(30, 30, 200, 1))
    ties = world.model_copy(update={"goals": tuple(g for g in world.goals if g.tightness.startswith("tie-"))})
    assert len(ties.goals) == 24
    assert _reader_scores(ties) == (1.0, 1.0)
