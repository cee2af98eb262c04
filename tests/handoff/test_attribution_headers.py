"""An id on a line of its own heads the id-less lines after it (issue 12, red-team group 13), and a payload never
comes out larger than its trace without saying so (group 22). Wordings and domains differ from the probes'."""

from __future__ import annotations

from relaykit.handoff import compress_handoff, read_evidence

VANS = """Van VX-3
Daily hire costs 74 EUR.
Cargo space: 11 m3.

Van VX-8
Daily hire costs 66 EUR.
Cargo space: 6 m3.
"""

CANDIDATES = """Candidate CD12
Has 9 years of Go.
Notice period is 4 weeks.
Decision: yes.

Candidate CD15
Has 3 years of Go.
Notice period is 12 weeks.
Decision: no.
"""


def _row(trace: str, goal: str, option: str) -> str:
    return next(line for line in read_evidence(trace, goal).text().split("\n") if line.startswith(option + " "))


def test_lines_under_an_id_heading_are_its_evidence() -> None:
    goal = "Hire a van under 80 EUR a day with at least 10 m3 of cargo space."
    first, second = _row(VANS, goal, "VX-3"), _row(VANS, goal, "VX-8")
    assert "74" in first and "11" in first and "66" not in first and "6" not in first.split()
    assert "66" in second and "6" in second.split() and "74" not in second
    assert "note:" not in read_evidence(VANS, goal).text()


def test_an_id_heading_survives_blank_lines_and_carries_its_verdict() -> None:
    goal = "Hire an engineer with at least 5 years of Go and notice under 8 weeks."
    first, second = _row(CANDIDATES, goal, "CD12"), _row(CANDIDATES, goal, "CD15")
    assert "9" in first.split() and "4" in first.split() and first.endswith("+")
    assert "3" in second.split() and "12" in second.split() and second.endswith("-")


def test_a_line_naming_another_id_ends_the_heading() -> None:
    trace = "Plot PT-1\nArea is 420 m2.\nPT-2 is the corner plot.\nFrontage: 18 m.\n"
    text = read_evidence(trace, "A plot of at least 400 m2.").text()
    assert "18" not in _row(trace, "A plot of at least 400 m2.", "PT-1")  # the frontage is not PT-1's
    assert "420" in _row(trace, "A plot of at least 400 m2.", "PT-1") and "18" in text


def test_a_bullet_id_heads_its_block_only() -> None:
    trace = "- KB4\n  weight: 620 g\n\nShipping adds 12 USD to any order.\n"
    row = _row(trace, "A keyboard under 700 g.", "KB4")
    assert "620" in row and "12" not in row  # the id-less remark after the block stays unattributed


def test_a_payload_larger_than_its_trace_gives_way_to_the_trace_and_says_so() -> None:
    trace = "tier,eur_month,seats,ok\nT1,9,5,yes\nT2,14,25,no"
    h = compress_handoff(trace, "A tier under 10 EUR a month with at least 5 seats, SSO, audit logs, EU hosting "
                         "and phone support.", "extract-rules")
    assert h.payload == trace and h.tokens_out == h.tokens_in and h.ratio == 1.0
    assert any("larger than the trace" in w and "verbatim" in w for w in h.warnings)
    assert h.accounting.notices == h.warnings


def test_a_json_payload_larger_than_its_trace_stays_and_warns() -> None:
    trace = "B1 40 USD ok\nB2 90 USD no-go\n"
    h = compress_handoff(trace, "A bag under 50 USD.", "extract-rules", format="json")
    assert isinstance(h.payload, dict) and h.tokens_out > h.tokens_in
    assert any("larger than the trace" in w and "another method" in w for w in h.warnings)


def test_a_smaller_payload_carries_no_size_warning() -> None:
    trace = VANS * 3
    h = compress_handoff(trace, "Hire a van under 80 EUR a day.", "extract-rules")
    assert h.tokens_out < h.tokens_in and not any("larger than the trace" in w for w in h.warnings)


def test_a_title_of_no_option_ends_the_heading() -> None:
    trace = "Room RM-2\nSeats 14 people.\n\nNext steps\nBudget is 300 USD in total.\n"
    goal = "A room for 10 people."
    assert "300" not in _row(trace, goal, "RM-2") and "14" in _row(trace, goal, "RM-2")
    assert "note: Budget is 300 USD in total." in read_evidence(trace, goal).text()


def test_a_bold_or_underlined_id_heading_heads_its_lines() -> None:
    goal = "A studio under 900 EUR."
    for trace in ("**Studio SD-1**\nAsking 850 EUR.\n\n**Studio SD-4**\nAsking 990 EUR.",
                  "SD-1\n-----\nAsking 850 EUR.\n\nSD-4\n-----\nAsking 990 EUR."):
        assert "850" in _row(trace, goal, "SD-1") and "990" in _row(trace, goal, "SD-4")
        assert "990" not in _row(trace, goal, "SD-1")
