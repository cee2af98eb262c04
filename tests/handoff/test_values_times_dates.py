"""Clock times in the French/German style and dates written with the month's name (issue 12, red-team groups
17 and 18): one value each, normalised in the payload, equal across forms in the audit."""

from __future__ import annotations

import pytest

from relaykit.handoff import Fact, audit, compress_handoff
from relaykit.handoff.audit import value_matches
from relaykit.handoff.evidence import read_evidence
from relaykit.handoff.lexicon import TOKEN
from relaykit.handoff.text import date_readings, normal_date, normal_time


def _typed(text: str) -> list[tuple[str | None, str]]:
    return [(m.lastgroup, m.group(0)) for m in TOKEN.finditer(text) if m.lastgroup in ("qty", "time", "date")]


@pytest.mark.parametrize(("text", "expected"), [
    ("the ferry docks 9h45", [("time", "9h45")]),
    ("open until 18h, 6 desks", [("time", "18h"), ("qty", "6")]),
    ("staffed 8h-12h", [("time", "8h"), ("time", "12h")]),
    ("the shuttle takes 3h", [("qty", "3h")]),  # a duration stays a number of hours
    ("support within 48h", [("qty", "48h")]),
])
def test_clock_times_and_durations(text: str, expected: list[tuple[str, str]]) -> None:
    assert _typed(text) == expected


@pytest.mark.parametrize(("written", "normal"), [("9h45", "09:45"), ("18h", "18:00"), ("20h05", "20:05")])
def test_clock_times_normalise(written: str, normal: str) -> None:
    assert normal_time(written) == normal


@pytest.mark.parametrize(("text", "normal"), [
    ("April 4, 2027", "2027-04-04"),
    ("4 April 2027", "2027-04-04"),
    ("4th of Apr 2027", "2027-04-04"),
    ("Sept 30 2026", "2026-09-30"),
    ("30.09.2026", "2026-09-30"),
    ("30/09/2026", "2026-09-30"),  # a day above 12: the day comes first
    ("09/30/2026", "2026-09-30"),  # a second number above 12: the month comes first
    ("04/05/2026", "04/05/2026"),  # either way readable: kept as written
    ("22 Oct", "22-Oct"),
])
def test_dates_are_one_value(text: str, normal: str) -> None:
    found = _typed(f"sails {text} from pier 3")
    assert found[0] == ("date", text)
    assert normal_date(text) == normal


def test_may_as_a_verb_is_not_a_date() -> None:
    assert _typed("berth 3 may open") == [("qty", "3")]
    assert _typed("on 3 May 2027") == [("date", "3 May 2027")]


def test_an_ambiguous_date_has_both_readings() -> None:
    assert set(date_readings("04/05/2026")) == {"2026-05-04", "2026-04-05"}


@pytest.mark.parametrize(("found", "wanted"), [
    ("sails April 4, 2027", "2027-04-04"),
    ("sails 4.04.2027", "2027-04-04"),
    ("sails 04/05/2026", "2026-05-04"),  # either reading of an ambiguous date
    ("docks 9h45", "09:45"),
])
def test_audit_matches_dates_and_times_across_forms(found: str, wanted: str) -> None:
    assert value_matches(found, wanted)


def test_audit_tells_different_dates_apart() -> None:
    assert not value_matches("sails April 5, 2027", "2027-04-04")


CASES = [
    ("Take a ferry that docks before 11:00.",
     "FY-3 docks 9h45, fine.\nFY-8 docks 12h20, too late.",
     [("FY-3", "arrival", "09:45"), ("FY-8", "arrival", "12:20")]),
    ("Book a desk open from 08:00.",
     "DK4 is open from 8h, 6 desks -> take it.\nDK7 is open from 10h, 9 desks -> no.",
     [("DK4", "opens", "08:00"), ("DK7", "opens", "10:00")]),
    ("Ship on or after 2 April 2027.",
     "SH-20 sails April 4, 2027. Good.\nSH-21 sails 30 March 2027. Too early.",
     [("SH-20", "date", "2027-04-04"), ("SH-21", "date", "2027-03-30")]),
    ("Check in on 5 October 2026.",
     "PR-1 has a slot on 05.10.2026, accepted.\nPR-2 has a slot on Oct 7, 2026, rejected.",
     [("PR-1", "date", "2026-10-05"), ("PR-2", "date", "2026-10-07")]),
]


@pytest.mark.parametrize(("goal", "trace", "facts"), CASES)
def test_every_time_and_date_survives(goal: str, trace: str, facts: list[tuple[str, str, str]]) -> None:
    handoff = compress_handoff(trace, goal, method="extract-rules")
    report = audit(handoff, [Fact(*f) for f in facts], trace=trace)
    assert report.lost == [] and report.invented == []
    table = read_evidence(trace, goal).text()  # the compact table (the payload may be the trace, when smaller)
    assert "April 4" not in table and "Oct 7" not in table  # one normal form


@pytest.mark.parametrize(("text", "kind", "normal"), [
    ("boards 3.15pm", "time", "15:15"),
    ("sails 2027/04/04", "date", "2027-04-04"),
    ("sails 24-12-2026", "date", "2026-12-24"),
    ("sails Oct 7.", "date", "07-Oct"),
])
def test_more_time_and_date_forms(text: str, kind: str, normal: str) -> None:
    ((found_kind, written),) = _typed(text)
    assert found_kind == kind
    assert (normal_time(written) if kind == "time" else normal_date(written)) == normal


def test_a_date_bound_heads_its_date_column() -> None:
    trace = "SH-20 sails April 4, 2027. Good.\nSH-21 sails 30 March 2027. Too early.\nSH-22 sails 2027-04-02, fine."
    handoff = compress_handoff(trace, "Ship on or after 2 April 2027.", method="extract-rules")
    assert ">=2027-04-02" in handoff.payload_text.split("\n")[0]  # in the column's header, not a register cell
    facts = [Fact("SH-20", "date", "2027-04-04"), Fact("SH-21", "date", "2027-03-30"),
             Fact("SH-22", "date", "2027-04-02")]
    assert audit(handoff, facts, trace=trace).lost == []
