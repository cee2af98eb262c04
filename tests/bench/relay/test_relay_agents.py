import json
import re

import pytest

from relaykit.bench.relay import generate_world, ground_truth
from relaykit.bench.relay.booker import NONE, BookingAnswer, ModelBooker, Reader, grounded
from relaykit.bench.relay.researcher import Auditor, ModelResearcher, audit_trace
from relaykit.bench.relay.scoring import score
from relaykit.bench.relay.truth import inventory
from relaykit.errors import InvalidOutput
from relaykit.handoff import compress_handoff, read_evidence
from relaykit.testing import ScriptedModel


@pytest.fixture(scope="module")
def world():  # type: ignore[no-untyped-def]
    return generate_world()


def test_audit_covers_every_option_and_constraint_in_clause_style(world) -> None:  # type: ignore[no-untyped-def]
    goal = world.goals[0]
    trace = audit_trace(world, goal)
    lines = trace.splitlines()
    assert lines[0] == goal.text
    for h in world.hotels:
        assert f"Hotel {h.id} ({h.name}): price {h.price} USD per night; distance {h.distance_km:.1f} km; " in trace
        assert sum(line.startswith(f"{h.id} ") for line in lines) == 3  # amenity, distance, verdict
    for f in world.flights:
        assert f"Flight {f.id}: airline {f.airline}; departure window {f.window}; cabin {f.cabin}; " in trace
        assert sum(line.startswith(f"{f.id} ") for line in lines) == 3  # window, cabin, verdict
    assert "recommend" not in trace.lower()


def test_audit_pairs_are_the_passing_options_with_arithmetic(world) -> None:  # type: ignore[no-untyped-def]
    for goal in world.goals[:10]:
        trace = audit_trace(world, goal)
        truth = ground_truth(world, goal)
        passing = {line.split(":")[0].removeprefix("Pair ") for line in trace.splitlines()
                   if line.startswith("Pair ") and line.endswith("; pass.")}
        assert passing == {f"{h} + {f}" for h, f in truth.pairs(world)}


def test_reader_on_passthrough_is_perfect(world) -> None:  # type: ignore[no-untyped-def]
    """A perfect reader with the full trace cannot fail: feasibility and optimality 1.0 on all 50 goals."""
    inv, reader = inventory(world), Reader()
    for goal in world.goals:
        trace = Auditor().research(world, goal).trace
        handoff = compress_handoff(trace, goal.text, "passthrough")
        booking = reader.book(goal, handoff.payload, handoff.payload_text)
        result = score(inv, goal, ground_truth(world, goal), booking, handoff.payload_text)
        assert result["feasible"] and result["optimal"], (goal.id, booking)


def test_reader_reads_json_evidence_tables_and_is_evidence_bound(world) -> None:  # type: ignore[no-untyped-def]
    goal = next(g for g in world.goals if ground_truth(world, g).satisfiable)
    truth = ground_truth(world, goal)
    payload = json.loads(json.dumps(read_evidence(audit_trace(world, goal), goal.text).to_json()))
    booking = Reader().book(goal, payload, json.dumps(payload))
    assert booking.pair == truth.optimal
    # Remove the optimal hotel's price: it becomes unverifiable and may no longer be chosen.
    hotel_id = truth.optimal[0]  # type: ignore[index]
    for option in payload["options"]:
        if option["id"] == hotel_id:
            option["evidence"] = re.sub(r"\d+ USD", "", option["evidence"])
    booking = Reader().book(goal, payload, json.dumps(payload))
    assert booking.hotel_id != hotel_id and booking.notes["unverifiable"] >= 1


def test_reader_answers_none_when_evidence_is_gone(world) -> None:  # type: ignore[no-untyped-def]
    goal = next(g for g in world.goals if ground_truth(world, g).satisfiable)
    booking = Reader().book(goal, goal.text, goal.text)
    assert booking.is_none
    result = score(inventory(world), goal, ground_truth(world, goal), booking, goal.text)
    assert result["outcome"] == "false_none" and not result["feasible"]


def test_reader_rejects_eliminated_and_failed_checks(world) -> None:  # type: ignore[no-untyped-def]
    goal = next(g for g in world.goals if ground_truth(world, g).satisfiable)
    trace = audit_trace(world, goal)
    only_verdicts = "\n".join(line for line in trace.splitlines() if "verdict" in line or line.startswith("Goal"))
    booking = Reader().book(goal, only_verdicts, only_verdicts)
    assert booking.is_none  # verdicts without prices cannot be ranked or checked against the budget


def test_model_booker_grounded_answer_is_scored(world) -> None:  # type: ignore[no-untyped-def]
    goal = next(g for g in world.goals if ground_truth(world, g).satisfiable)
    truth = ground_truth(world, goal)
    trace = audit_trace(world, goal)
    model = ScriptedModel([BookingAnswer(hotel_id=truth.optimal[0], flight_id=truth.optimal[1])])  # type: ignore[index]
    booking = ModelBooker(model).book(goal, trace, trace)
    assert booking.pair == truth.optimal and booking.model_calls == 1 and booking.prompt_tokens > 0
    request = model.requests[0]
    assert request.schema is BookingAnswer and request.temperature == 0.0
    assert goal.text in request.messages[1]["content"] and trace in request.messages[1]["content"]
    assert score(inventory(world), goal, truth, booking, trace)["optimal"]


def test_model_booker_ungrounded_ids_are_rejected(world) -> None:  # type: ignore[no-untyped-def]
    goal = world.goals[0]
    payload = "H01 verdict: pass. F02 verdict: pass."
    booking = ModelBooker(ScriptedModel([{"hotel_id": "H07", "flight_id": "F02"}])).book(goal, payload, payload)
    result = score(inventory(world), goal, ground_truth(world, goal), booking, payload)
    assert result["outcome"] == "ungrounded" and not result["feasible"]
    assert grounded("H01", payload) and not grounded("H0", payload) and grounded(NONE, payload)


def test_model_booker_invalid_output_is_an_error_outcome(world) -> None:  # type: ignore[no-untyped-def]
    goal = world.goals[0]
    model = ScriptedModel(["no json", "still none"])
    booking = ModelBooker(model, max_repairs=1).book(goal, "x", "x")
    assert booking.error is not None and booking.model_calls == 2
    assert score(inventory(world), goal, ground_truth(world, goal), booking, "x")["outcome"] == "error"


def test_model_researcher_sends_instructions_and_inventory(world) -> None:  # type: ignore[no-untyped-def]
    model = ScriptedModel(["H01 verdict: pass."])
    research = ModelResearcher(model).research(world, world.goals[0])
    assert research.trace == "H01 verdict: pass." and research.model_calls == 1
    system, user = model.requests[0].messages
    assert "closed world" in system["content"] and world.goals[0].text in user["content"]
    assert all(h.id in user["content"] for h in world.hotels)
    with pytest.raises(InvalidOutput):
        raise InvalidOutput("x")


def test_scoring_outcomes(world) -> None:  # type: ignore[no-untyped-def]
    inv = inventory(world)
    sat = next(g for g in world.goals if ground_truth(world, g).n_feasible >= 2)
    unsat = next(g for g in world.goals if not ground_truth(world, g).satisfiable)
    text = " ".join(h.id for h in world.hotels) + " " + " ".join(f.id for f in world.flights)
    from relaykit.bench.relay.booker import Booking

    truth = ground_truth(world, sat)
    other = next(p for p in truth.pairs(world) if p != truth.optimal)
    got = score(inv, sat, truth, Booking(*other), text)
    assert got["feasible"] and not got["optimal"] and got["gap"] == inv.cost(other) - truth.optimal_cost
    assert score(inv, unsat, ground_truth(world, unsat), Booking(NONE, NONE), text)["optimal"]
    assert score(inv, sat, truth, Booking(truth.optimal[0], NONE), text)["outcome"] == "wrong_pair"  # type: ignore[index]
    assert score(inv, unsat, ground_truth(world, unsat), Booking("H01", "F01"), text)["outcome"] == "wrong_pair"


@pytest.mark.parametrize("style", ["table", "pronouns", "comparison", "passive"])
def test_reader_decides_from_extract_rules_in_held_out_styles(world, style) -> None:  # type: ignore[no-untyped-def]
    from relaykit.bench.relay.styles import styled_trace
    from relaykit.handoff import compress_handoff

    for goal in world.goals[:4]:
        trace = styled_trace(world, goal, style)
        handoff = compress_handoff(trace, goal.text, "extract-rules")
        booking = Reader().book(goal, handoff.payload, handoff.payload_text)
        result = score(inventory(world), goal, ground_truth(world, goal), booking, handoff.payload_text)
        assert result["feasible"] and result["optimal"], (style, goal.id, booking)
