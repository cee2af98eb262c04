"""Options of one list whose ids differ only in their letters share one header (issue 12, red-team group 16), and
a comparison ("$60 cheaper than X") gives neither option a value and leaves X out of the clause (group 8).
Wordings and domains differ from the probes'."""

from __future__ import annotations

from relaykit.handoff import compress_handoff, read_evidence
from relaykit.handoff.compact_header import header_cells
from relaykit.handoff.compact_read import parse_compact


def _headers(text: str) -> list[str]:
    return [line for line in text.split("\n") if header_cells(line) is not None]  # either header form


def test_lone_ids_of_one_shape_share_one_header() -> None:
    trace = "- KA-310: 64 GB, 1,900 USD\n- PX-52: 32 GB, 1,200 USD\n- ZR-771: 128 GB, 2,600 USD\n"
    text = read_evidence(trace, "A workstation under 2,000 USD with at least 64 GB.").text()
    assert len(_headers(text)) == 1
    rows = {row.id: row for row in parse_compact(text)[0]}  # the shared header still reads back per option
    assert set(rows) == {"KA-310", "PX-52", "ZR-771"} and "64" in rows["KA-310"].body


def test_families_of_several_options_keep_their_own_headers() -> None:
    trace = ("H1 costs 120 USD a night, 2 km out.\nH2 costs 90 USD a night, 6 km out.\n"
             "F1 takes 7 hours for 450 USD.\nF2 takes 9 hours for 380 USD.\n")
    assert len(_headers(read_evidence(trace, "A hotel under 100 USD and a flight under 400 USD.").text())) == 2


def test_a_short_list_of_lone_ids_does_not_grow_past_its_trace() -> None:
    trace = "1. TQ-4: 18 EUR.\n2. RB-91: 24 EUR.\n3. MZ-60: 31 EUR.\n4. Only TQ-4 fits."
    h = compress_handoff(trace, "A ticket under 20 EUR.", "extract-rules")
    assert h.tokens_out < h.tokens_in and len(_headers(h.payload_text)) == 1


def _row(text: str, option: str) -> list[str]:
    return next(line for line in text.split("\n") if line.startswith(option + " ")).split()


def test_a_relative_amount_is_no_value_and_the_subject_keeps_the_clause() -> None:
    trace = "CH-2 has a 14 month payback. CH-7 is 3,000 EUR dearer than CH-2 but pays back in 9 months."
    text = read_evidence(trace, "A chiller with payback under 12 months.").text()
    assert "9" in _row(text, "CH-7") and "9" not in _row(text, "CH-2")
    assert "3000" not in " ".join(_row(text, "CH-7") + _row(text, "CH-2"))
    assert "note: CH-7 is 3,000 EUR dearer than CH-2" in text  # the amount travels verbatim


def test_the_object_of_a_comparison_gets_nothing_from_it() -> None:
    trace = "RT-5 rents at 40 USD. RT-8 is cheaper than RT-5 and has 12 GB at 32 USD."
    text = read_evidence(trace, "A box under 35 USD.").text()
    assert "32" in _row(text, "RT-8") and "12" in _row(text, "RT-8")
    assert "32" not in _row(text, "RT-5") and "12" not in _row(text, "RT-5") and "note:" not in text
    plain = read_evidence("RT-5 costs 40 USD rather than RT-8's 52 USD.", "A box under 45 USD.").text()
    assert "40" in _row(plain, "RT-5")  # "rather than" is no comparison of amounts


def test_other_comparison_forms() -> None:
    goal = "A lens under 900 USD."
    for said in ("LN-8 is cheaper by $120 than LN-2 but weighs 610 g.",
                 "LN-8 comes in $120 under LN-2 but weighs 610 g.",
                 "LN-8 weighs 610 g, 90 g lighter than the LN-2 lens."):
        text = read_evidence(f"LN-2 costs 880 USD. {said}", goal).text()
        assert "610" in _row(text, "LN-8") and "610" not in _row(text, "LN-2"), said
        assert "120" not in " ".join(_row(text, "LN-8")) and "90" not in _row(text, "LN-8"), said
        assert "note:" in text, said
    budget = read_evidence("LN-2 costs 880 USD, 20 USD under budget.", goal).text()
    assert "note:" not in budget  # "under budget" compares with no option
