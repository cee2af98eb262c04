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
