import json
from collections import Counter

import pytest

from relaykit.bench.relay import generate_world, load_world, save_world, validate_world
from relaykit.bench.relay.generate import WorldSpec
from relaykit.bench.relay.truth import ground_truth
from relaykit.errors import UsageError


def test_default_world_is_the_papers_setup() -> None:
    world = generate_world()
    assert (len(world.hotels), len(world.flights), len(world.goals)) == (10, 10, 50)
    assert world.city == "London"
    assert all(f.layovers >= 0 and isinstance(f.refundable, bool) for f in world.flights)
    tightness = Counter(g.tightness for g in world.goals)
    assert set(tightness) == {"comfortable", "tight", "near-miss-feasible", "near-miss-infeasible", "unsatisfiable",
                              "tie-distance", "tie-stars", "tie-ids"}


def test_goals_span_tightness_and_near_misses_hold() -> None:
    world = generate_world()
    truths = {g.id: ground_truth(world, g) for g in world.goals}
    unsat = [g for g in world.goals if not truths[g.id].satisfiable]
    assert 5 <= len(unsat) <= 25
    for goal in world.goals:
        truth = truths[goal.id]
        if goal.tightness == "near-miss-feasible":
            assert truth.satisfiable and goal.budget - (truth.optimal_cost or 0) <= 5
        if goal.tightness in ("near-miss-infeasible", "unsatisfiable"):
            assert not truth.satisfiable


def test_same_seed_same_world_other_seed_other_world() -> None:
    assert generate_world(WorldSpec(seed=3)) == generate_world(WorldSpec(seed=3))
    assert generate_world(WorldSpec(seed=3)) != generate_world(WorldSpec(seed=4))


def test_sizes_are_settings() -> None:
    world = generate_world(WorldSpec(hotels=120, flights=80, goals=7, seed=1))
    assert (len(world.hotels), len(world.flights), len(world.goals)) == (120, 80, 7)
    assert world.hotels[0].id == "H001" and world.flights[-1].id == "F80"
    with pytest.raises(UsageError, match="--hotels"):
        WorldSpec(hotels=0)


def test_export_edit_load_round_trip(tmp_path) -> None:  # type: ignore[no-untyped-def]
    world = generate_world(WorldSpec(goals=5))
    path = tmp_path / "world.json"
    save_world(world, path)
    data = json.loads(path.read_text())
    assert data["format"] == "relaykit.relay-world" and data["version"] == 1
    data["hotels"][0]["price"] = 999
    path.write_text(json.dumps(data))
    loaded = load_world(path)
    assert loaded.hotels[0].price == 999 and loaded.goals == world.goals


def test_validation_lists_every_problem_with_its_json_path() -> None:
    data = json.loads(generate_world(WorldSpec(goals=3)).to_json())
    data["hotels"][2]["price"] = -5
    data["flights"][1]["cabin"] = "galley"
    data["goals"][0].pop("budget")
    with pytest.raises(UsageError) as info:
        validate_world(data)
    message = str(info.value)
    assert "3 problems" in message
    for path in ("$.hotels[2].price", "$.flights[1].cabin", "$.goals[0].budget"):
        assert path in message


def test_semantic_problems_duplicate_and_malformed_ids() -> None:
    data = json.loads(generate_world(WorldSpec(goals=3)).to_json())
    data["hotels"][1]["id"] = data["hotels"][0]["id"]
    data["flights"][0]["id"] = "X1"
    data["hotels"][3]["amenities"] = ["Free WiFi"]
    with pytest.raises(UsageError) as info:
        validate_world(data)
    message = str(info.value)
    assert "$.hotels[1].id: duplicate id" in message and "$.flights[0].id" in message
    assert "$.hotels[3].amenities[0]" in message


def test_missing_and_non_json_world_files(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(UsageError, match="export-world"):
        load_world(tmp_path / "none.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(UsageError, match="not a JSON world file"):
        load_world(bad)
