"""Verdicts said of several options at once ("the last two fail", "only X survives", "all others pass",
"neither works"), resolved against the options named before them; written for these tests, in other domains and
wordings than the red-team probes."""

from __future__ import annotations

import pytest

from relaykit.handoff.collective import group_verdict
from relaykit.handoff.evidence import read_evidence


def verdicts(trace: str, goal: str = "Pick one under the limit.") -> dict[str, str | None]:
    return {option_id: row.verdict for option_id, row in read_evidence(trace, goal).rows.items()}


@pytest.mark.parametrize(("trace", "expected"), [
    # by position, in the paragraph's order
    ("Boat BT-10 sleeps 4 for 300 GBP.\nBoat BT-12 sleeps 6 for 420 GBP.\nBoat BT-15 sleeps 2 for 210 GBP.\n"
     "The final two are rejected.", {"BT-10": None, "BT-12": "eliminated", "BT-15": "eliminated"}),
    ("WX1 ships in 3 days; WX2 in 9 days; WX3 in 12 days; WX4 in 2 days.\nThe first 2 qualify, the last two don't "
     "make the cut.", {"WX1": "pass", "WX2": "pass", "WX3": "eliminated", "WX4": "eliminated"}),
    # options under block headings ("- CX1" then its lines), and markdown sections
    ("Options:\n- CX1\n  load: 2 t\n- CX2\n  load: 5 t\n- CX3\n  load: 7 t\nThe final two pass.",
     {"CX1": None, "CX2": "pass", "CX3": "pass"}),
    ("### CX1\nload: 2 t\n### CX2\nload: 5 t\n### CX3\nload: 7 t\nThe first one fails.",
     {"CX1": "eliminated", "CX2": None, "CX3": None}),
    # the others, named against the option(s) of the same sentence
    ("Tutor T7 charges 30 EUR an hour.\nTutor T8 charges 55 EUR an hour.\nTutor T9 charges 28 EUR an hour.\n"
     "T8 is rejected on price, every other one passes.", {"T7": "pass", "T8": "eliminated", "T9": "pass"}),
    ("Kiln K-2 reaches 1,280 C. Kiln K-5 reaches 1,100 C. Kiln K-9 reaches 1,000 C.\nWe go with K-2; the remaining "
     "two are ruled out.", {"K-2": "pass", "K-5": "eliminated", "K-9": "eliminated"}),
    # only X
    ("Checked GYM4 (22 EUR a month), GYM6 (35 EUR) and GYM8 (19 EUR). Only GYM8 qualifies.",
     {"GYM4": "eliminated", "GYM6": "eliminated", "GYM8": "pass"}),
    ("1. Call DC-3: 2 vans, 180 USD.\n2. Call DC-8: 1 van, 95 USD.\n3. DC-8 is the only option left.",
     {"DC-3": "eliminated", "DC-8": "pass"}),
    # the others, as "everything else", "nothing else", "no other", "none but"
    ("Tent TN2 weighs 1.9 kg, TN4 2.6 kg, TN7 3.1 kg. TN2 is kept; everything else is out.",
     {"TN2": "pass", "TN4": "eliminated", "TN7": "eliminated"}),
    ("Router RT-1: 4 ports. Router RT-2: 8 ports. Router RT-3: 2 ports.\nRT-2 fits. Nothing else works.",
     {"RT-1": "eliminated", "RT-2": "pass", "RT-3": "eliminated"}),
    ("Guides GD5 (French, 80 EUR), GD6 (German, 75 EUR), GD9 (French, 95 EUR). None but GD5 qualifies.",
     {"GD5": "pass", "GD6": "eliminated", "GD9": "eliminated"}),
    # ordinals named one by one, and "all three"
    ("Drone DR1 flies 20 min, DR2 35 min, DR3 12 min, DR4 41 min.\nThe first and third are rejected; the second "
     "and the last pass.", {"DR1": "eliminated", "DR2": "pass", "DR3": "eliminated", "DR4": "pass"}),
    ("Mic MC-1: 120 EUR. Mic MC-2: 140 EUR. Mic MC-3: 99 EUR.\nAll three are acceptable.",
     {"MC-1": "pass", "MC-2": "pass", "MC-3": "pass"}),
    # neither / none
    ("Plan Z1 gives 20 GB for 12 USD. Plan Z2 gives 50 GB for 31 USD. Neither one qualifies.",
     {"Z1": "eliminated", "Z2": "eliminated"}),
    ("Lens LS-2 costs 610 EUR and weighs 900 g. Lens LS-5 costs 480 EUR and weighs 1,400 g. Neither fits: the "
     "first is over budget and the second is too heavy.", {"LS-2": "eliminated", "LS-5": "eliminated"}),
    ("Quotes: RF1 at 900 EUR, RF2 at 1,150 EUR, RF3 at 980 EUR. None of them fits.",
     {"RF1": "eliminated", "RF2": "eliminated", "RF3": "eliminated"}),
])
def test_a_group_verdict_judges_the_options_it_names(trace: str, expected: dict[str, str | None]) -> None:
    assert verdicts(trace) == expected


@pytest.mark.parametrize(("trace", "expected"), [
    # the group does not fit the options known: nobody is judged
    ("Van VN1 costs 60 EUR. Van VN2 costs 70 EUR. Van VN3 costs 80 EUR.\nWe take VN1; the other one is out.",
     {"VN1": "pass", "VN2": None, "VN3": None}),
    ("Loft LF2 is 40 m2. Loft LF3 is 55 m2.\nThe first three are out.", {"LF2": None, "LF3": None}),
    # neither among three options, with no pair named together: ambiguous
    ("CP1 is 5 km out. CP2 is 8 km out. CP3 is 2 km out. Neither works.", {"CP1": None, "CP2": None, "CP3": None}),
    ("Mic MC-1: 120 EUR. Mic MC-2: 140 EUR. Mic MC-3: 99 EUR.\nAll four are acceptable.",
     {"MC-1": None, "MC-2": None, "MC-3": None}),
    # "neither is over budget" negates a fail: less than a verdict
    ("Plan Z1 gives 20 GB for 12 USD. Plan Z2 gives 50 GB for 31 USD. Neither is over budget.",
     {"Z1": None, "Z2": None}),
    # "only" without a verdict is evidence, not a verdict
    ("Only HB1 has a sauna. HB2 costs 80 USD.", {"HB1": None, "HB2": None}),
    # an option's own verdict is not overruled by a group verdict
    ("MK1 passes. MK2 costs 9 USD. MK3 costs 7 USD.\nThe last two fail.", {"MK1": "pass", "MK2": "eliminated",
                                                                          "MK3": "eliminated"}),
    ("MK1 passes. MK2 passes. MK3 costs 7 USD.\nThe first two fail.", {"MK1": "pass", "MK2": "pass", "MK3": None}),
])
def test_a_group_verdict_that_does_not_fit_judges_nobody(trace: str, expected: dict[str, str | None]) -> None:
    assert verdicts(trace) == expected


def test_the_group_is_the_paragraphs_options_and_the_traces_when_the_paragraph_names_none() -> None:
    trace = ("We also looked at OS1 and OS2 last spring.\n\nAR5 has 3 seats. AR6 has 5 seats. AR7 has 8 seats.\n"
             "The first two are out.\n\nOnly AR7 remains.")
    assert verdicts(trace) == {"OS1": "eliminated", "OS2": "eliminated", "AR5": "eliminated", "AR6": "eliminated",
                               "AR7": "pass"}


@pytest.mark.parametrize("clause", ["the other two are out", "the first two pass", "neither works",
                                    "all the others fail"])
def test_group_verdict_needs_a_verdict_and_options(clause: str) -> None:
    judged = group_verdict(clause, [], [], None, None)  # no option known: a group verdict, of nobody
    assert judged is not None and judged[0] == []
    assert group_verdict(clause.rsplit(" ", 1)[0] + " face north", ["A1", "A2", "A3"], [], None, "A1") is None


def test_a_struck_through_option_is_crossed_off_and_a_verdict_heading_judges_its_list() -> None:
    trace = ("Candidates:\n* JR-7: 4 years, Lisbon\n* ~~JR-8: 1 year, Porto~~\n\nShortlisted:\n- SE-1: 6 years\n"
             "- ~~SE-2 - 2 years~~\n- SE-3 (7 years)\n\nRejected:\n- SE-4: 1 year\n- SE-5: no visa")
    table = read_evidence(trace, "At least 3 years.")
    assert {i: r.verdict for i, r in table.rows.items()} == {
        "JR-7": None, "JR-8": "eliminated", "SE-1": "pass", "SE-2": "eliminated", "SE-3": "pass",
        "SE-4": "eliminated", "SE-5": "eliminated"}
    assert "1 year" in table.rows["JR-8"].evidence  # a struck option keeps its values


def test_html_strikethrough_crosses_an_option_off() -> None:
    table = read_evidence("<li>PX2 - 4 cores, 60 USD</li>\n<li><del>PX3 - 2 cores, 35 USD</del></li>", "4 cores.")
    assert table.rows["PX3"].verdict == "eliminated" and table.rows["PX2"].verdict is None
    assert "35 USD" in table.rows["PX3"].evidence


def test_a_struck_value_is_a_correction_not_a_verdict() -> None:
    table = read_evidence("DK1 costs ~~45 USD~~ 39 USD.\nDK2 costs 52 USD.", "Under 50 USD.")
    assert table.rows["DK1"].verdict is None
