"""Verdicts in phrasings and formats the reader did not read before: boolean decision keys in JSON / YAML /
key=value, a table column headed only by marks, short approvals ("Good.", "- fine.", "X is my choice"), short
rejections ("Wrong size.", a bare "No."), a pick with "the other(s)" out. Written for these tests, in other
domains, ids and wordings than the red-team probes; the last tests say what must stay unjudged."""

from __future__ import annotations

import pytest

from relaykit.handoff import compress_handoff
from relaykit.handoff.evidence import read_evidence
from relaykit.handoff.lexicon import verdict_of
from relaykit.handoff.reading import boolean_decision


def verdicts(trace: str, goal: str = "Pick one under the limit.") -> dict[str, str | None]:
    return {option_id: row.verdict for option_id, row in read_evidence(trace, goal).rows.items()}


@pytest.mark.parametrize(("trace", "expected"), [
    ('{"offers": [{"id": "BK-31", "rate": "72 USD", "eligible": false},\n'
     '            {"id": "BK-32", "rate": "64 USD", "eligible": true}]}', {"BK-31": "eliminated", "BK-32": "pass"}),
    ("- sku: PW7\n  watts: 650\n  feasible: no\n- sku: PW9\n  watts: 850\n  feasible: yes",
     {"PW7": "eliminated", "PW9": "pass"}),
    ("KB1 price=49 layout=ISO approved=False\nKB2 price=59 layout=ANSI approved=True",
     {"KB1": "eliminated", "KB2": "pass"}),
    ("CR-5:\n  fee: 12 EUR\n  ok: false  # too slow\nCR-6:\n  fee: 14 EUR\n  ok: true",
     {"CR-5": "eliminated", "CR-6": "pass"}),
])
def test_a_boolean_decision_key_is_the_rows_verdict(trace: str, expected: dict[str, str]) -> None:
    assert verdicts(trace) == expected


def test_a_boolean_key_is_no_evidence_and_a_plain_boolean_is_no_verdict() -> None:
    table = read_evidence('[{"id": "BK-31", "passes": false, "wifi": true}, {"id": "BK-32", "passes": true}]',
                          "Under 80 USD.")
    assert table.rows["BK-31"].verdict == "eliminated" and "false" not in table.rows["BK-31"].evidence
    assert boolean_decision('"wifi": true, "parking": false') is None  # attributes, not decisions
    assert boolean_decision("pets_ok: true") is None and boolean_decision("ok: maybe") is None
    assert boolean_decision('"excluded": true') == ("fail", 0, 16)
    assert boolean_decision("ruled_out: false") == (None, 0, 16)  # not ruled out says no verdict either way


def test_an_elimination_key_set_to_false_is_no_fail() -> None:
    trace = '[{"ref": "GX-10", "mbps": 300, "dropped": false}, {"ref": "GX-11", "mbps": 90, "dropped": true}]'
    assert verdicts(trace) == {"GX-10": None, "GX-11": "eliminated"}


@pytest.mark.parametrize("header", ["✓/✗", "✅ / ❌", "✔"])
def test_a_column_headed_by_marks_holds_the_verdicts(header: str) -> None:
    yes, no = ("✅", "❌") if "✅" in header else ("✓", "✗") if "✗" in header else ("✔", "✘")
    trace = (f"| Ref | Tutor | Rate | {header} |\n|---|---|---|---|\n| a | TU-5 | 28 EUR | {yes} |\n"
             f"| b | TU-9 | 41 EUR | {no} |")
    assert verdicts(trace) == {"TU-5": "pass", "TU-9": "eliminated"}


@pytest.mark.parametrize(("trace", "expected"), [
    ("DK2 has 4 seats at 55 USD. Great.\nDK3 has 2 seats at 40 USD. No.", {"DK2": "pass", "DK3": "eliminated"}),
    ("BR-4 brews 12 cups for 89 EUR - good.\nBR-6 brews 8 cups for 60 EUR - too small.",
     {"BR-4": "pass", "BR-6": "eliminated"}),
    ("lin: what about HX-2? 3 bedrooms, 1,900 GBP\nmo: perfect\nlin: HX-3? 2 bedrooms, 1,500 GBP\nmo: too small",
     {"HX-2": "pass", "HX-3": "eliminated"}),
    ("Studio ST9 faces the park, 640 EUR. Satisfies both.\nStudio ST11 is 880 EUR. Wrong district.",
     {"ST9": "pass", "ST11": "eliminated"}),
    ("Courier QC1 quotes 14 USD. Courier QC4 quotes 22 USD.\nQC1 is our choice.", {"QC1": "pass", "QC4": None}),
    ("PT3 costs 31 USD and PT5 costs 38 USD. The former stays and the latter is dropped.",
     {"PT3": "pass", "PT5": "eliminated"}),
    ("Paint PN-20: 2 coats, 44 EUR. PN-21: 1 coat, 52 EUR. Final choice: PN-20.", {"PN-20": "pass", "PN-21": None}),
    ("We priced LN2 at 700 USD, LN5 at 820 USD and LN7 at 910 USD. We'll book LN2, the other two are out.",
     {"LN2": "pass", "LN5": "eliminated", "LN7": "eliminated"}),
    ("Cottage CG-3 sleeps 6 for 140 GBP; cottage CG-8 sleeps 4 for 120 GBP. The former is dropped and the latter "
     "is our pick.", {"CG-3": "eliminated", "CG-8": "pass"}),
    ("ana: DR5?\nben: 7 drawers, 210 EUR, fine\nana: DR6?\nben: 3 drawers, nope", {"DR5": "pass", "DR6": "eliminated"}),
    ("Shuttles SH1 (9 seats) and SH2 (12 seats) were compared. Neither qualifies.",
     {"SH1": "eliminated", "SH2": "eliminated"}),
])
def test_short_approvals_and_rejections(trace: str, expected: dict[str, str | None]) -> None:
    assert verdicts(trace) == expected


@pytest.mark.parametrize(("clause", "expected"), [
    ("Good.", "pass"), ("that's great then", "pass"), ("VX-4 looks fine", "pass"), ("so PR2 it is", "pass"),
    ("the latter is what we'll take", "pass"), ("Nah.", "fail"), ("Ideal.", "pass"), ("All good.", "pass"),
    ("TB-4 gets my vote", "pass"), ("the others don't fit", "fail"),
    ("it is not the right size", "fail"), ("the only option left", "pass"), ("Wrong colour.", "fail"),
    ("it's the wrong model", "fail"), ("No.", "fail"),
    # not verdicts: an attribute that is fine, nothing wrong, a good view
    ("the view is fine", None), ("nothing wrong with the roof", None), ("a good location near the bay", None),
    ("fine dining on site", None), ("the pick-up point is on Elm St", None), ("it is in the wrong part of town", None),
])
def test_verdict_words_of_short_clauses(clause: str, expected: str | None) -> None:
    assert verdict_of(clause) == expected


def test_an_answer_to_a_question_is_no_verdict() -> None:
    assert verdicts("Flat FL4 is 1,050 GBP. Garden? No.\nFlat FL6 is 990 GBP. Lift? Yes.") == {"FL4": None,
                                                                                                "FL6": None}


def test_the_compact_payload_carries_the_new_verdicts() -> None:
    trace = ("- IC-1: 3 scoops, 4 EUR\n- ~~IC-2: 2 scoops, 6 EUR~~\n- IC-3: 1 scoop, 3 EUR\n"
             "Only IC-1 survives.")
    payload = compress_handoff(trace, "Ice cream under 5 EUR.", method="extract-rules").payload_text
    marks = {line.split(" ")[0]: line.rsplit(" ", 1)[-1] for line in payload.split("\n") if line[:3] == "IC-"}
    assert marks == {"IC-1": "+", "IC-2": "-", "IC-3": "-"}
