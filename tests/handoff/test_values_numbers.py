"""Numbers written the European way, with a thousands suffix, or with a spelled unit (issue 12, red-team groups
1, 2, 3 and 19): one value each, read by the digit-group shape, in wordings and domains of their own."""

from __future__ import annotations

import pytest

from relaykit.handoff import Fact, audit, compress_handoff
from relaykit.handoff.audit import value_matches
from relaykit.handoff.text import find_quantities


def _read(text: str) -> list[tuple[float, str | None]]:
    return [(q.value, q.unit) for q in find_quantities(text)]


@pytest.mark.parametrize(("text", "expected"), [
    ("the courier asks 1,35 € a parcel", [(1.35, "EUR")]),  # group 1: a decimal comma, the sign after
    ("quoted CHF 12,5 per licence", [(12.5, "CHF")]),
    ("a 2,75 km walk", [(2.75, "km")]),  # a decimal comma before a unit
    ("tender at 3.250 EUR per lot", [(3250.0, "EUR")]),  # group 2: a dot before three digits in money
    ("stand fee €12.400", [(12400.0, "EUR")]),
    ("deposit 2.300,50 €", [(2300.5, "EUR")]),
    ("lease 2 150,00 € monthly", [(2150.0, "EUR")]),  # a space before three digits, with decimals
    ("a $140k offer", [(140000.0, "USD")]),  # group 3: a thousands suffix
    ("budget 60K EUR", [(60000.0, "EUR")]),
    ("a 2.5k GB archive", [(2500.0, "GB")]),
    ("a fund of €3.5m", [(3500000.0, "EUR")]),
    ("a 16 gigabyte module", [(16.0, "GB")]),  # group 19: spelled, singular units
    ("a deductible of 7 per cent", [(7.0, "%")]),
    ("jitter of 2 milliseconds", [(2.0, "ms")]),
    ("a 4 terabyte disk", [(4.0, "TB")]),
])
def test_one_value_per_amount(text: str, expected: list[tuple[float, str | None]]) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("a cable of 1.250 m", [(1.25, "m")]),  # not money: a dot is a decimal point
    ("steps 3,4 and 5", [(3.0, None), (4.0, None), (5.0, None)]),  # a list, not a decimal
    ("SP1,19,200,yes", [(19200.0, None)]),  # unchanged: three digits after a comma group thousands
    ("rows 7 920 USD", [(7.0, None), (920.0, "USD")]),  # a payload's cells: two numbers
    ("2 m tall", [(2.0, "m")]),  # "m" is metres without money
    ("lane 3 may close", [(3.0, None)]),
])
def test_shapes_outside_money_stay_as_they_were(text: str, expected: list[tuple[float, str | None]]) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize(("found", "wanted"), [
    ("asks $140k", "140000 USD"),
    ("asks 140000 USD", "$140,000"),
    ("tender 3.250 EUR", "3250 EUR"),
    ("courier 1,35 €", "1.35 EUR"),
    ("lease 2 150,00 €", "2150 EUR"),
])
def test_audit_matches_values_across_formats(found: str, wanted: str) -> None:
    assert value_matches(found, wanted)


def test_audit_does_not_match_a_different_amount() -> None:
    assert not value_matches("tender 3.250 EUR", "3.25 EUR")
    assert not value_matches("courier 1,35 €", "35 EUR")


CASES = [  # (goal, trace, facts) in wordings and domains of their own
    ("Hire a courier at most 1,50 EUR per parcel.",
     "CR-4 charges 1,35 € per parcel. Accepted.\nCR-9 charges 1,80 € per parcel. Rejected.",
     [("CR-4", "price", "1.35 EUR"), ("CR-9", "price", "1.80 EUR")]),
    ("Book a stand under 15.000 EUR.",
     "| Stand | Fee |\n|---|---|\n| ST-2 | €12.400 |\n| ST-5 | €16.900 |",
     [("ST-2", "fee", "12400 EUR"), ("ST-5", "fee", "16900 EUR")]),
    ("Lease an office under 2 500,00 € a month.",
     "OF-11 lease: 2 150,00 €\nOF-12 lease: 2 740,00 €",
     [("OF-11", "lease", "2150 EUR"), ("OF-12", "lease", "2740 EUR")]),
    ("Pick a designer asking under 150k USD.",
     "D-71 asks $140k. D-72 asks $165k.",
     [("D-71", "salary", "140000 USD"), ("D-72", "salary", "165000 USD")]),
    ("Archive with at least 2 terabytes.",
     "AR1 offers 2.5k GB. AR2 offers 4 terabytes.",
     [("AR1", "storage", "2500 GB"), ("AR2", "storage", "4 TB")]),
]


@pytest.mark.parametrize(("goal", "trace", "facts"), CASES)
def test_every_amount_survives_without_invention(goal: str, trace: str, facts: list[tuple[str, str, str]]) -> None:
    handoff = compress_handoff(trace, goal, method="extract-rules")
    report = audit(handoff, [Fact(*f) for f in facts], trace=trace)
    assert report.lost == [] and report.invented == []


def test_a_european_thousands_amount_is_not_read_as_a_small_one() -> None:
    """"1.850 EUR" is 1850: under a 1,000 EUR bound it must not pass as 1.85."""
    from relaykit.handoff.constraints import evaluate
    from relaykit.handoff.schema import Constraint

    bound = Constraint(name="rent", operator="<=", threshold="1,000 EUR")
    assert evaluate(bound, "1.850 EUR") == "fail"
    assert evaluate(bound, "0,95 €") == "pass"


def test_the_unit_trie_reads_as_a_longest_first_list() -> None:
    """Units are one trie-shaped regex: a longer unit wins over its prefix, a unit glued to more letters is none."""
    assert _read("5 kmh, 3 mins, 10 sq m, 9 mos, 2 gbps") == [(5.0, None), (3.0, "min"), (10.0, "m2"), (9.0, "months"),
                                                            (2.0, "Gbps")]


def test_a_csv_row_states_each_of_its_cells() -> None:
    """"PX4,15,300,yes" reads as 15,300 in prose; a payload that keeps 15 and 300 as cells invents nothing."""
    from relaykit.handoff.audit import invented_values

    trace = "plan,price,gb,ok\nPX4,15,300,yes\nPX5,22,120,no"
    assert invented_values("PX4 15 300 +\nPX5 22 120 -", trace) == []
    assert invented_values("PX4 16 300 +", trace) == ["16"]


def test_counted_units_bind_like_any_unit() -> None:
    assert _read("an order of 250 units, 40 pieces") == [(250.0, "units"), (40.0, "pcs")]


def test_hours_spelled_singular_stay_hours() -> None:
    assert _read("a 4 hour trip, 2 hours back") == [(4.0, "h"), (2.0, "h")]


@pytest.mark.parametrize(("text", "expected"), [
    ("CHF 1'480.50 per seat", [(1480.5, "CHF")]),  # Swiss thousands
    ("a grant of EUR 2 million", [(2000000.0, "EUR")]),
    ("about 3 thousand users", [(3000.0, "users")]),
])
def test_more_grouping_and_multiplier_words(text: str, expected: list[tuple[float, str | None]]) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize(("found", "wanted"), [("asks 92,000", "$92k"), ("rent 1050 EUR", "1.050 EUR")])
def test_audit_matches_a_wanted_value_written_in_another_form(found: str, wanted: str) -> None:
    assert value_matches(found, wanted)


@pytest.mark.parametrize(("text", "value"), [("$3.499 per gallon", 3.499), ("£1.050 a litre", 1.05),
                                             ("€8.500 a month", 8500.0), ("CHF 1.200", 1200.0)])
def test_a_dot_groups_thousands_only_in_currencies_written_the_european_way(text: str, value: float) -> None:
    (found,) = find_quantities(text)
    assert found.value == pytest.approx(value)


@pytest.mark.parametrize(("text", "value"), [("1.850 USD in total", 1850.0), ("98.000 km on the clock", 98000.0),
                                             ("1.850 dollars", 1850.0), ("USD 1.850", 1.85), ("1.050 km", 1.05),
                                             ("US$ 1 899", 1899.0), ("US$5", 5.0), ("costs US$ 2 150.", 2150.0),
                                             ("costs € 1 250.", 1250.0)])
def test_a_dot_groups_thousands_before_a_currency_or_before_000(text: str, value: float) -> None:
    (found,) = find_quantities(text)
    assert found.value == pytest.approx(value)
