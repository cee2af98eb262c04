"""Goals that put the count before its noun, bound a date or a clock time with a preposition, or write an
amount the European way (issue 12, red-team group 20): each clause parses into its attribute and bound."""

from __future__ import annotations

import pytest

from relaykit.handoff.constraints import evaluate, parse_constraints
from relaykit.handoff.schema import Constraint


def _parsed(goal: str) -> list[str]:
    return [f"{c.name} {c.operator} {c.threshold}" for c in parse_constraints(goal)]


@pytest.mark.parametrize(("goal", "expected"), [
    ("Reserve a cabin for 6 persons.", ["capacity >= 6 persons"]),
    ("Find a hall for 250 attendees under 4,000 GBP.", ["capacity >= 250 attendees", "price <= 4,000 GBP"]),
    ("A table for 4.", ["capacity >= 4"]),
    ("Need a van for 9 near the station.", ["capacity >= 9"]),
    ("Rent a boat for at least 12 people.", ["people >= 12 people"]),  # a comparison: read as before
])
def test_head_counts_before_their_noun(goal: str, expected: list[str]) -> None:
    assert _parsed(goal) == expected


@pytest.mark.parametrize(("goal", "expected"), [
    ("Sail on 4 April 2027.", ["date == 2027-04-04"]),
    ("Depart on or after April 2, 2027 for under 300 EUR.", ["date >= 2027-04-02", "price <= 300 EUR"]),
    ("Deliver no later than 15.06.2026.", ["date <= 2026-06-15"]),
    ("Land before 9h30.", ["land <= 09:30"]),
    ("Finish by 6 pm.", ["finish <= 18:00"]),
    ("A studio free from 10am to 1pm.", ["free from <= 10:00", "free until >= 13:00"]),
])
def test_dates_and_times_bounded_by_a_preposition(goal: str, expected: list[str]) -> None:
    assert _parsed(goal) == expected


@pytest.mark.parametrize(("goal", "expected"), [
    ("Pay at most 2,40 EUR per litre.", 2.4),
    ("A bid below 12.500 EUR.", 12500.0),
    ("Offer under 120k USD.", 120000.0),
])
def test_european_and_suffixed_thresholds(goal: str, expected: float) -> None:
    from relaykit.handoff.text import find_quantities

    (constraint,) = parse_constraints(goal)
    assert constraint.operator == "<=" and find_quantities(constraint.threshold)[0].value == expected


@pytest.mark.parametrize(("operator", "threshold", "value", "verdict"), [
    (">=", "2027-04-02", "April 4, 2027", "pass"),
    (">=", "2027-04-02", "30.03.2027", "fail"),
    ("==", "2027-04-04", "4 April 2027", "pass"),
    ("<=", "09:30", "9h10", "pass"),
    ("<=", "09:30", "10:05", "fail"),
    ("==", "2027-04-04", "04/05/2027", "unknown"),  # an ambiguous date is not judged
    ("<=", "09:30", "2027-04-04", "unknown"),  # a date against a time
    ("<=", "120000 USD", "$95k", "pass"),
])
def test_evaluate_dates_times_and_suffixes(operator: str, threshold: str, value: str, verdict: str) -> None:
    constraint = Constraint.model_validate({"name": "x", "operator": operator, "threshold": threshold})
    assert evaluate(constraint, value) == verdict


def test_a_window_and_a_head_count_leave_no_stray_constraint() -> None:
    assert _parsed("Hire a hall free from 9am to 5pm for 80 guests.") == [
        "capacity >= 80 guests", "free from <= 09:00", "free until >= 17:00"]


@pytest.mark.parametrize(("goal", "expected"), [
    ("Choose a mill with minimum batch size at most 40 pallets.", ["batch size <= 40 pallets"]),
    ("A lender whose maximum loan term is at least 20 years.", ["loan term >= 20 years"]),
    ("Stay minimum 3 nights.", ["stay >= 3 nights"]),  # a number follows: still a bound
])
def test_minimum_and_maximum_in_a_name_are_not_bounds(goal: str, expected: list[str]) -> None:
    assert _parsed(goal) == expected


@pytest.mark.parametrize(("goal", "expected"), [
    ("Book a studio that seats 30.", ["capacity >= 30"]),
    ("A chalet sleeping 8 under 1.200 EUR.", ["capacity >= 8", "price <= 1.200 EUR"]),
    ("A table for a party of 5.", ["capacity >= 5"]),
    ("A coach for up to 40 passengers.", ["capacity >= 40 passengers"]),  # fits up to 40: at least 40 seats
    ("Check out no later than 11h.", ["check out <= 11:00"]),
    ("Support for up to 24 hours", ["h <= 24 hours"]),  # not a head count: unchanged
])
def test_more_head_count_and_hour_forms(goal: str, expected: list[str]) -> None:
    assert _parsed(goal) == expected


@pytest.mark.parametrize(("goal", "expected"), [
    # a wish of its own clause, or after the bound, is an amenity; the option an article names is no attribute
    ("A hotel with a gym, under 400 USD.", ["amenity contains gym", "price <= 400 USD"]),
    ("A hotel with a gym and under 400 USD.", ["amenity contains gym", "price <= 400 USD"]),
    ("A hotel under 400 USD with a gym.", ["price <= 400 USD", "amenity contains gym"]),
    ("A room with a projector.", ["amenity contains projector"]),
    ("A room with a projector for under 200 EUR.", ["amenity contains projector", "price <= 200 EUR"]),
    ("A room for 10 people with a whiteboard.", ["capacity >= 10 people", "amenity contains whiteboard"]),
    ("A hotel with a pool within 5 km of the centre.", ["amenity contains pool", "centre <= 5 km"]),
    ("A hotel under 300 USD.", ["price <= 300 USD"]),
    # what a bound measures is no amenity; a number names nothing
    ("A vendor with a rate below 6.8 USD per hour.", ["rate <= 6.8 USD per hour"]),
    ("A vendor with a rate below 6.8 USD per hour and 99.9% uptime.", ["rate <= 6.8 USD per hour"]),
    ("A hotel with a gym under 400 USD.", ["amenity contains gym", "price <= 400 USD"]),
    ("An hourly rate under 7 USD.", ["hourly rate <= 7 USD"]),
    ("A lab with accuracy within 0.5%.", ["accuracy <= 0.5%"]),
    ("A flight with us.", []),
    ("A flight with Lufthansa.", []),
    ("A hotel under 400 USD with Lufthansa.", ["price <= 400 USD"]),  # no wish: the clause stays whole
    ("A hotel under 400 USD with us.", ["price <= 400 USD"]),
    # a wish of two words, before or after the bound; the option an article names may take two words too
    ("A quiet room with free parking under 200 USD.", ["amenity contains free parking", "price <= 200 USD"]),
    ("An apartment with a sea view under 900 EUR.", ["amenity contains sea view", "price <= 900 EUR"]),
    ("A hotel under 200 USD with free parking.", ["price <= 200 USD", "amenity contains free parking"]),
    ("A hotel with free parking.", ["amenity contains free parking"]),
    ("A hotel with a gym for under 400 USD.", ["amenity contains gym", "price <= 400 USD"]),
    ("A hotel with a gym no more than 3 km away.", ["amenity contains gym", "distance <= 3 km away"]),
    ("A sea view flat under 900 EUR.", ["price <= 900 EUR"]),
    ("A sea view under 900 EUR.", ["price <= 900 EUR"]),  # not "sea view <= 900 EUR"
    ("A vendor with monthly rent under 900 EUR.", ["monthly rent <= 900 EUR"]),  # a measured word ends it
    ("A flat with no parking.", []),
    ("Find a policy with a national network.", ["network == national"]),  # a kind, as before
])
def test_wishes_around_a_bound(goal: str, expected: list[str]) -> None:
    assert _parsed(goal) == expected


@pytest.mark.parametrize(("goal", "expected"), [
    ("A flat with 2 bedrooms.", ["bedrooms >= 2 bedrooms"]),
    ("A flat with 2 bedrooms under 1200 EUR.", ["bedrooms >= 2 bedrooms", "price <= 1200 EUR"]),
    ("A GPU node with 48 GB memory, under 3 USD per hour.", ["memory >= 48 GB", "price <= 3 USD per hour"]),
    ("A vendor with 99.9% uptime.", ["uptime >= 99.9%"]),
    ("A room with 12 seats.", ["seats >= 12 seats"]),
    # no floor: money, a clock time, things one wants few of, a bound already written after the value
    ("A hotel with 400 USD budget.", []),
    ("A meeting with 2 pm start.", []),
    ("A flight with 1 stop.", []),
    ("A flat with 60 m2 or more.", []),
    ("A room with 12 seats or more.", ["seats >= 12 seats"]),
])
def test_an_amount_wanted_with_an_option_is_a_floor(goal: str, expected: list[str]) -> None:
    assert _parsed(goal) == expected
