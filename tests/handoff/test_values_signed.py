"""Negative values keep their sign through extract-rules, the compact table and the audit (a dropped minus
turns "-20 °C" into a different fact), while ranges, ids and dates with hyphens stay as they were."""

from __future__ import annotations

import pytest

from relaykit.handoff import Fact, audit, compress_handoff
from relaykit.handoff.compact_read import parse_compact
from relaykit.handoff.lexicon import TOKEN
from relaykit.handoff.text import quantity_of

FREEZERS = ("Unit CB1 holds -20 °C and costs 310 EUR; verdict: pass.\n"
            "Unit CB2 holds -12 °C for 280 EUR. It fails the temperature limit.\n"
            "Unit CB3 reaches −25°C at 400 EUR and passes.\n")


def quantities(text: str) -> list[tuple[float, str | None]]:
    return [(q.value, q.unit) for q in (quantity_of(m) for m in TOKEN.finditer(text) if m.lastgroup == "qty")]


@pytest.mark.parametrize(("text", "expected"), [
    ("holds -20 °C", [(-20.0, "°C")]),
    ("holds \u221225°C", [(-25.0, "°C")]),
    ("a balance of -1,250 USD", [(-1250.0, "USD")]),
    ("a balance of -$40", [(-40.0, "USD")]),
    ("changed by -3.5% this year", [(-3.5, "%")]),
    ("(-7 km)", [(-7.0, "km")]),
])
def test_a_minus_right_before_a_number_is_its_sign(text: str, expected: list[tuple[float, str | None]]) -> None:
    assert quantities(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("between 10-20 km", [(10.0, None), (20.0, "km")]),
    ("room B-12 costs 80 EUR", [(80.0, "EUR")]),
    ("pass - 20 USD over", [(20.0, "USD")]),
    ("x-5 rated", []),
])
def test_hyphens_that_are_not_signs_stay_out(text: str, expected: list[tuple[float, str | None]]) -> None:
    assert quantities(text) == expected


def test_negative_values_survive_the_compact_table_and_read_back() -> None:
    handoff = compress_handoff(FREEZERS, "A unit at most -18 °C, under 450 EUR", "extract-rules")
    assert "°C <=-18" in handoff.payload_text
    rows = {row.id: row for row in parse_compact(handoff.payload_text)[0]}
    assert rows["CB1"].body.startswith("-20 °C") and rows["CB3"].body.startswith("-25 °C")
    assert rows["CB2"].verdict == "eliminated" and rows["CB1"].verdict == rows["CB3"].verdict == "pass"
    facts = [Fact("CB1", "temperature", "-20 °C"), Fact("CB2", "temperature", "-12 °C"),
             Fact("CB3", "temperature", "-25 °C")]
    report = audit(handoff, facts, trace=FREEZERS)
    assert report.recall == 1.0 and not report.invented


def test_the_audit_catches_a_lost_sign() -> None:
    unsigned = FREEZERS.replace("-20", "20").replace("-12", "12").replace("\u221225", "25")
    lossy = compress_handoff(unsigned, "a unit", "passthrough")
    report = audit(lossy, [Fact("CB1", "temperature", "-20 °C"), Fact("CB2", "temperature", "-12 °C")],
                   trace=FREEZERS)
    assert report.recall == 0.0
    assert {"20 °C", "12 °C"} <= set(map(str, report.invented))
