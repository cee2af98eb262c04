"""Row and step numbers are not values (issue 12, red-team group 14): a table's "#" / "No." column, a headerless
column that counts the rows, and "Step N -" / "Stage N:" markers. Wordings and domains differ from the probe's."""

from __future__ import annotations

from relaykit.handoff import read_evidence
from relaykit.handoff.compact_header import header_cells


def _row(trace: str, goal: str, option: str) -> list[str]:
    line = next(line for line in read_evidence(trace, goal).text().split("\n") if line.startswith(option + " "))
    return line.split()


def test_a_number_column_of_a_markdown_table_is_not_a_value() -> None:
    trace = ("| No. | Courier | Days | Fee |\n|---|---|---|---|\n| 1 | CX-12 | 3 days | 14 USD |\n"
             "| 2 | CX-40 | 5 days | 9 USD |\n| 3 | CX-77 | 2 days | 21 USD |")
    goal = "A courier under 20 USD delivering within 4 days."
    assert _row(trace, goal, "CX-12")[1:3] == ["3", "14"]
    assert "2" not in _row(trace, goal, "CX-40") and "3" not in _row(trace, goal, "CX-77")


def test_a_headerless_counting_column_is_not_a_value_but_a_real_small_number_is() -> None:
    trace = "| 1 | LB-5 | 4 seats | 300 EUR |\n| 2 | LB-9 | 2 seats | 250 EUR |"
    goal = "A lab booth for 3 people."
    assert _row(trace, goal, "LB-5").count("1") == 0 and "4" in _row(trace, goal, "LB-5")
    assert _row(trace, goal, "LB-9").count("2") == 1  # its 2 seats stay; its row number 2 goes
    csv = "rank,vendor,stars\n7,VD-1,4\n3,VD-2,5"  # "rank" is no row number: 7 and 3 are facts
    assert "7" in _row(csv, "A vendor.", "VD-1") and "3" in _row(csv, "A vendor.", "VD-2")


def test_step_and_stage_markers_are_not_values() -> None:
    trace = ("Stage 1: shortlist GR-2, GR-5.\nStage 2 - GR-2: 40 kg payload, 35 minutes flight.\n"
             "Stage 3 - GR-5: 15 kg payload, 50 minutes flight.")
    goal = "A drone carrying at least 20 kg."
    assert _row(trace, goal, "GR-2")[1:3] == ["40", "35"] and "2" not in _row(trace, goal, "GR-2")
    assert "3" not in _row(trace, goal, "GR-5") and "stage" not in " ".join(_row(trace, goal, "GR-5")).lower()
    steps = "step 4) BX-10 holds 12 litres.\nstep 5) BX-11 holds 30 litres."
    assert _row(steps, "A box of at least 20 litres.", "BX-11")[1] == "30"
    assert "5" not in _row(steps, "A box of at least 20 litres.", "BX-11")


def test_a_header_naming_a_unit_types_its_bare_numbers() -> None:
    trace = "unit,rent_eur,area_m2,balcony\nU-4,980,54,yes\nU-7,1120,71,no\nU-9,870,38,yes"
    text = read_evidence(trace, "A flat under 1,000 EUR with at least 50 m2.").text()
    header = text.split("\n")[0]
    assert "EUR <=1000" in header and "m2 >=50" in header  # the bounds sit on their columns
    assert _row(trace, "A flat under 1,000 EUR with at least 50 m2.", "U-7")[1:3] == ["1120", "71"]
    tsv = "id\tweight kg\tmin order\nPL-1\t12\t40\nPL-2\t9\t100"  # "min order" names no minutes
    text = read_evidence(tsv, "A pallet under 10 kg.").text()
    assert "kg <=10" in text.split("\n")[0] and "min" not in (header_cells(text.split("\n")[0]) or [""])[0]


def test_letter_markers_and_row_cells_are_not_values() -> None:
    goal = "A mixer of at least 20 litres."
    lettered = "a) MX-3: bowl 18 litres.\nb) MX-8: bowl 25 litres."
    assert "b" not in _row(lettered, goal, "MX-8") and "25" in _row(lettered, goal, "MX-8")
    rows = "Row 1 | MX-3 | 18 litres\nRow 2 | MX-8 | 25 litres"
    assert "2" not in _row(rows, goal, "MX-8") and "25" in _row(rows, goal, "MX-8")
