import pytest
from tracegen import SCHEDULING_GOAL, SCHEDULING_TRACE, VENDOR_GOAL, VENDOR_TRACE, auditor_trace

from relaykit.errors import UsageError
from relaykit.handoff.audit import value_matches
from relaykit.handoff.rules import extract_rules
from relaykit.handoff.schema import Extraction

GOAL = ("Goal G07: Priya, a consultant, flies to London. Constraints: total budget at most 420 USD; "
        "hotel amenity gym; hotel distance at most 3.0 km; departure window morning; cabin economy.")
CONTRACT_TRACE = GOAL + """
Hotel H01 (Kensington Rooms): price 145 USD per night; distance 2.4 km; stars 3; amenities wifi, breakfast, gym.
H01 amenity check: gym is present, pass.
H01 distance check: 2.4 km is at most 3.0 km, pass.
H01 verdict: pass.
Hotel H02 (Thames View): price 210 USD per night; distance 5.1 km; stars 4; amenities wifi, pool.
H02 amenity check: gym is missing, fail.
H02 distance check: 5.1 km exceeds 3.0 km, fail.
H02 verdict: eliminated (amenity, distance).
Flight F01: airline BA; departure window morning; cabin economy; price 260 USD; layovers 0; refundable yes.
F01 window check: morning matches morning, pass.
F01 cabin check: economy matches economy, pass.
F01 verdict: pass.
Flight F03: airline LH; departure window evening; cabin premium economy; price $300.00; layovers 1; refundable no.
Pair H01 + F01: total 145 USD + 260 USD = 405 USD; budget 420 USD; pass.
Pair H01 + F03: total 145 USD + 300 USD = 445 USD; budget 420 USD; fail."""


def test_contract_example_is_read_exactly() -> None:
    e = extract_rules(CONTRACT_TRACE, GOAL)
    assert [(c.name, c.operator, c.threshold) for c in e.constraints] == [
        ("budget", "<=", "420 USD"), ("amenity", "contains", "gym"), ("distance", "<=", "3.0 km"),
        ("departure window", "==", "morning"), ("cabin", "==", "economy")]
    assert [o.id for o in e.options] == ["H01", "H02", "F01", "F03"]  # the goal's own G07 is not an option
    h01, h02, f01, f03 = e.options
    assert h01.attributes == {"name": "Kensington Rooms", "price": "145 USD", "distance": "2.4 km", "stars": "3",
                              "amenities": "wifi, breakfast, gym"}
    assert f01.attributes == {"airline": "BA", "departure window": "morning", "cabin": "economy",
                              "price": "260 USD", "layovers": "0", "refundable": "yes"}
    assert f03.attributes["cabin"] == "premium economy" and f03.attributes["price"] == "300 USD"
    assert [(c.constraint, c.value, c.verdict) for c in h02.checks] == [
        ("amenity", "gym", "fail"), ("distance", "5.1 km", "fail"), ("verdict", None, "fail")]
    assert h02.eliminated and h02.elimination_evidence == "H02 verdict: eliminated (amenity, distance)."
    assert not h01.eliminated and h01.checks[1].evidence == "H01 distance check: 2.4 km is at most 3.0 km, pass."
    assert [c.constraint for c in f01.checks][:2] == ["departure window", "cabin"]
    # F03 has no stated checks: its values decide them against the goal's constraints
    assert {(c.constraint, c.verdict) for c in f03.checks} == {("departure window", "fail"), ("cabin", "fail")}
    assert e.feasible_ids == ["H01", "F01"] and e.empty_result is None


def test_scheduling_audit_it_was_not_written_for() -> None:
    e = extract_rules(SCHEDULING_TRACE, SCHEDULING_GOAL)
    assert [c.name for c in e.constraints] == ["duration", "room capacity", "day"]
    s1 = e.option("S1")
    assert s1 is not None and s1.attributes["start"] == "09:00" and s1.attributes["duration"] == "90 min"
    assert e.feasible_ids == ["S1"]
    s2 = e.option("S2")
    assert s2 is not None and s2.eliminated and "cut short" in (s2.elimination_evidence or "")


def test_vendor_comparison_in_prose() -> None:
    e = extract_rules(VENDOR_TRACE, VENDOR_GOAL)
    assert [(c.name, c.operator) for c in e.constraints] == [("monthly cost", "<="), ("uptime", ">="),
                                                             ("region", "==")]
    v1 = e.option("V-1")
    assert v1 is not None and v1.attributes["monthly cost"] == "1850 USD" and v1.attributes["name"] == "LogCo"
    v3 = e.option("V-3")
    assert v3 is not None and v3.eliminated and v3.attributes["region"] == "US"
    assert e.feasible_ids == ["V-1"]


def test_attribute_forms_of_the_contract() -> None:
    trace = ("Hotel H05: cost USD 182.00; 2 miles from the centre; 4-star; amenities: wifi, gym.\n"
             "Hotel H06: price £150; distance 0.8 km; stars 5; amenities spa.")
    e = extract_rules(trace, "Find a hotel.")
    h5, h6 = e.option("H05"), e.option("H06")
    assert h5 is not None and h6 is not None
    assert h5.attributes == {"price": "182 USD", "distance": "2 miles", "stars": "4", "amenities": "wifi, gym"}
    assert h6.attributes == {"price": "150 GBP", "distance": "0.8 km", "stars": "5", "amenities": "spa"}


def test_no_identifiers_gives_a_valid_empty_payload() -> None:
    e = extract_rules("We looked at several hotels. None were good.", "Find a hotel under 200 USD.")
    assert e.options == [] and e.feasible_ids == [] and "no option identifiers" in (e.empty_result or "")
    assert Extraction.model_validate(e.model_dump()) == e


def test_all_eliminated_states_why_nothing_qualifies() -> None:
    e = extract_rules("H1 verdict: eliminated (price).\nH2 fails the budget.", "Find a hotel.")
    assert e.feasible_ids == [] and e.empty_result is not None and "2 options" in e.empty_result


def test_custom_id_pattern() -> None:
    trace = "Candidate alpha-7: price 10 USD. alpha-7 verdict: pass. Candidate beta-2 verdict: rejected."
    e = extract_rules(trace, "Pick one.", id_pattern=r"\b(?:alpha|beta)-\d\b")
    assert [o.id for o in e.options] == ["alpha-7", "beta-2"] and e.feasible_ids == ["alpha-7"]
    with pytest.raises(UsageError, match="not a valid regular expression"):
        extract_rules(trace, "Pick one.", id_pattern="(")


def test_generated_audit_matches_its_facts() -> None:
    sample = auditor_trace(8, 8, seed=3)
    e = extract_rules(sample.trace, sample.goal)
    for fact in sample.facts:
        option = e.option(fact.id)
        assert option is not None, fact
        if fact.attribute == "verdict":
            assert (fact.id in e.feasible_ids) == (fact.value == "pass"), fact
        else:
            assert value_matches(option.attributes[fact.attribute], fact.value), fact


def test_verdict_words_before_the_colon_are_not_a_constraint_name() -> None:
    e = extract_rules("Hotel H01 eliminated: gym missing.\nH02 passes: all checks.", "Find a hotel.")
    h1, h2 = e.option("H01"), e.option("H02")
    assert h1 is not None and h1.eliminated and h1.checks[0].constraint == "verdict"
    assert h2 is not None and h2.checks[0].constraint == "verdict" and e.feasible_ids == ["H02"]


def test_long_amenity_lists_stay_one_attribute() -> None:
    e = extract_rules("Hotel H03 (Inn): price 99 USD per night; amenities pool, shuttle, gym, spa, wifi, bar.", "x")
    h3 = e.option("H03")
    assert h3 is not None and h3.attributes["amenities"] == "pool, shuttle, gym, spa, wifi, bar"
