"""The invented-value audit reads a CSV row's numbers cell by cell (issue 12, red-team group 21): a payload that
writes "14 350" for the row "KT2,14,350,no" invents nothing. Wordings and domains differ from the probe's."""

from __future__ import annotations

from relaykit.handoff import audit, compress_handoff, invented_values

KETTLES = ("model,eur,watts,litres,ok\nKT1,29,2200,17,yes\nKT2,14,350,9,no\nKT3,45,3000,15,no\n"
           "KT4,31,1800,12,no\nKT5,22,2400,10,yes\n")
GOAL = "A kettle under 35 EUR with at least 2000 watts."


def test_a_csv_rows_bare_numbers_are_not_invented() -> None:
    h = compress_handoff(KETTLES * 2, GOAL, "extract-rules")
    assert h.tokens_out < h.tokens_in and "14" in h.payload_text and "350" in h.payload_text
    assert audit(h, [], trace=KETTLES * 2).invented == []
    assert invented_values("KT2 14 350 9", "id,rooms,sqm,floor\nKT2,14,350,9\nKT3,2,40,1") == []


def test_a_number_the_csv_does_not_hold_is_still_invented() -> None:
    assert invented_values("KT2 14 360", KETTLES) == ["360"]
    assert invented_values("KT1 29 2300", KETTLES) == ["2300"]


def test_a_thousands_comma_in_prose_is_still_one_number() -> None:
    prose = "The loft LF-2 rents at 2,450 EUR a month."
    assert invented_values("LF-2 2450 EUR", prose) == []
    assert invented_values("LF-2 450 EUR", prose) == ["450 EUR"]


def test_a_verbatim_payload_is_audited_as_the_reader_reads_it() -> None:
    from relaykit.handoff import Fact

    trace = "tier,eur_month,seats,ok\nT1,9,5,yes\nT2,14,25,no"
    h = compress_handoff(trace, "A tier under 10 EUR a month with at least 5 seats, SSO, audit logs, EU hosting "
                         "and phone support.", "extract-rules")
    facts = [Fact("T1", "price", "9"), Fact("T2", "seats", "25"), Fact("T1", "verdict", "pass"),
             Fact("T2", "verdict", "eliminated")]
    assert h.payload == trace and audit(h, facts, trace=trace).recall == 1.0
    assert audit(h, [Fact("T2", "seats", "30")], trace=trace).recall == 0.0  # a value it never stated stays lost


def test_a_semicolon_csv_is_read_as_rows() -> None:
    from relaykit.handoff import read_evidence

    trace = "bike;price_eur;range_km;ok\nEB-2;1890;70;yes\nEB-5;2450;110;no\nEB-6;1500;40;no"
    h = compress_handoff(trace, "An e-bike under 2,000 EUR with at least 60 km range.", "extract-rules")
    assert h.tokens_out < h.tokens_in and audit(h, [], trace=trace).invented == []
    row = next(line for line in h.payload_text.split("\n") if line.startswith("EB-5 "))
    assert row.split()[1:3] == ["2450", "110"] and row.endswith("-")
    prose = read_evidence("seat; legroom; meal\nFL-1 is roomy; FL-2 is tight; FL-3 is fine", "A flight.").text()
    assert "tight" not in next(line for line in prose.split("\n") if line.startswith("FL-1 "))
