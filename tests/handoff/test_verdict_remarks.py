"""Short verdict remarks without an id, speakers who judge what another speaker described, and elimination
verbs (shelve, park, set aside, pass on): the mechanisms, in sentences written for these tests."""

from __future__ import annotations

import pytest

from relaykit.handoff.evidence import read_evidence
from relaykit.handoff.lexicon import verdict_of
from relaykit.handoff.remarks import is_remark, opens_with_verdict, without_interjection


@pytest.mark.parametrize(("clause", "expected"), [
    ("We shelved that one.", "fail"), ("Shelve it for now", "fail"), ("parked it until spring", "fail"),
    ("we park the second bid", "fail"), ("Setting it aside.", "fail"), ("they set the quote aside", "fail"),
    ("putting QD2 aside for later", "fail"), ("passing on it", "fail"), ("That's out.", "fail"),
    ("they’re out", "fail"), ("out of the running now", "fail"), ("not really an option", "fail"),
    ("no longer viable", "fail"), ("hardly a contender", "fail"), ("Not a viable pick.", "fail"),
    ("Not for us.", "fail"), ("Didn't make the cut.", "fail"), ("Nixed.", "fail"), ("Bin it.", "fail"),
    ("Veto.", "fail"), ("We'll pass.", "fail"), ("Doesn't cut it.", "fail"), ("Taken off the shortlist.", "fail"),
    ("Good enough.", "pass"), ("Made the cut.", "pass"), ("Back in.", "pass"), ("Keep it as a backup.", "pass"),
    ("She's in.", "pass"), ("it's still in, then", "pass"), ("still in the running", "pass"), ("viable", "pass"),
    ("Kept on the list.", "pass"), ("stays on the list for now", "pass"), ("still in contention", "pass"),
    # negation flips a pass, and a fail phrase wins over a pass in the same clause
    ("not in the running any more", "fail"), ("keep it on the list - no, set it aside", "fail"),
    # not verdicts: "in" that is a place, a list that is only a list, a park that is a place
    ("the depot is in Leeds", None), ("it is in the old town", None), ("third on the list by price", None),
    ("parking for 12 vans", None), ("no way to reach it by rail", None), ("cut flowers in the lobby", None),
    ("near the park", None), ("an option for weekend delivery", None),
])
def test_elimination_and_keep_phrases(clause: str, expected: str | None) -> None:
    assert verdict_of(clause) == expected


@pytest.mark.parametrize("remark", ["Fine, keep it on the list.", "Nah - pass on it.", "Sadly, shelved.",
                                    "Right - still in.", "No, set it aside."])
def test_a_remark_may_open_with_an_interjection(remark: str) -> None:
    assert opens_with_verdict(remark)
    assert without_interjection(remark) != remark and verdict_of(without_interjection(remark)) == verdict_of(remark)


def test_without_interjection_leaves_other_text_alone() -> None:
    assert without_interjection("No pets are allowed.") == "No pets are allowed."
    assert without_interjection("No-go.") == "No-go."  # the first word is the verdict itself
    assert without_interjection("Yes, it has a lift.") == "Yes, it has a lift."


def test_a_short_remark_judges_the_option_of_the_sentence_before() -> None:
    trace = ("MZ14 quotes 2,300 GBP for 6 weeks of work. Not viable.\n"
             "MZ15 quotes 1,650 GBP for 5 weeks.\n"
             "Stays on the list.\n"
             "MZ16 quotes 1,480 GBP for 9 weeks. Sadly, set it aside.\n"
             "MZ17 quotes 1,720 GBP for 4 weeks. Fine, kept on the list.")
    table = read_evidence(trace, "Hire a contractor for under 2,000 GBP who finishes within 8 weeks.")
    verdicts = {k: r.verdict for k, r in table.rows.items()}
    assert verdicts == {"MZ14": "eliminated", "MZ15": "pass", "MZ16": "eliminated", "MZ17": "pass"}
    assert "2300 GBP" in table.rows["MZ14"].evidence and "9 weeks" in table.rows["MZ16"].evidence
    # the remark's own words are no evidence: the interjection and the verdict phrase stay out of the row
    assert "Fine" not in table.rows["MZ17"].evidence and "Sadly" not in table.rows["MZ16"].evidence


def test_a_negated_remark_flips_and_a_fail_wins() -> None:
    trace = "RB2 charges 38 EUR a night for a double room.\nNo longer in the running.\n" \
            "RB3 charges 31 EUR a night. Keep on the list. Actually, hardly a contender after the noise report."
    table = read_evidence(trace, "A room under 40 EUR a night.")
    assert table.rows["RB2"].verdict == "eliminated"
    assert table.rows["RB3"].verdict == "eliminated"


def test_a_second_speaker_judges_what_the_first_described() -> None:
    trace = ("Quartermaster: KX3 ships 500 crates at 7.20 USD each within 10 days.\n"
             "Dana: fine, he's in.\n"
             "Quartermaster: KX4 ships 300 crates at 6.10 USD each within 21 days.\n"
             "Dana: nah - pass on it.\n"
             "logistics: KX5 ships 800 crates at 8.90 USD each within 6 days.\n"
             "ops: that's out.")
    table = read_evidence(trace, "A shipper for at least 400 crates at under 8 USD each.")
    verdicts = {k: r.verdict for k, r in table.rows.items()}
    assert verdicts == {"KX3": "pass", "KX4": "eliminated", "KX5": "eliminated"}
    assert "6.1 USD" in table.rows["KX4"].evidence and "21 days" in table.rows["KX4"].evidence
    assert "8.9 USD" in table.rows["KX5"].evidence
    assert not any(w in table.rows["KX3"].evidence.lower() for w in ("dana", "fine"))


def test_a_key_value_line_is_not_taken_for_a_speaker() -> None:
    trace = "PL7\n- status: rejected\n- rate: 45 USD\nPL8\n- status: kept\n- rate: 39 USD"
    table = read_evidence(trace, "A plan under 40 USD.")
    assert table.rows["PL7"].verdict == "eliminated" and table.rows["PL8"].verdict == "pass"
    assert "45 USD" in table.rows["PL7"].evidence and "39 USD" in table.rows["PL8"].evidence


def test_one_word_remarks_on_their_own_lines() -> None:
    trace = ("TW1 - 14 kg, 3 year warranty, 210 USD.\nDrop.\nTW2 - 11 kg, 5 year warranty, 260 USD.\nGood enough.\n"
             "TW3 - 9 kg, 2 year warranty, 240 USD.\nNope.")
    table = read_evidence(trace, "A tent under 12 kg with at least a 3 year warranty.")
    verdicts = {k: r.verdict for k, r in table.rows.items()}
    assert verdicts == {"TW1": "eliminated", "TW2": "pass", "TW3": "eliminated"}
    assert "14 kg" in table.rows["TW1"].evidence and "9 kg" in table.rows["TW3"].evidence


@pytest.mark.parametrize(("remark", "expected"), [
    ("this one is out.", True), ("let's drop it.", True), ("right, that works.", True), ("she's a yes.", True),
    ("he's a no.", True), ("Only one passes.", False), ("The rest are out.", False), ("It has a gym.", False),
    ("Both fail.", False), ("it fails at 40 kg", False), ("Recommendation: go with the cheapest.", False),
    ("Overall, keep it simple.", False),
])
def test_a_short_verdict_sentence_is_a_remark(remark: str, expected: bool) -> None:
    assert is_remark(remark) is expected


def test_a_short_remark_after_a_line_break_goes_to_the_option_before() -> None:
    trace = "GZ4 offers 64 GB at 1.10 EUR an hour in eu-north.\nthis one is out.\n" \
            "GZ5 offers 80 GB at 1.60 EUR an hour in eu-west.\nlet's go with it."
    table = read_evidence(trace, "A GPU with at least 80 GB under 2 EUR an hour.")
    assert table.rows["GZ4"].verdict == "eliminated" and table.rows["GZ5"].verdict == "pass"


@pytest.mark.parametrize(("clause", "expected"), [
    ("fits 45 people", None), ("it fits up to 30 guests", None), ("fits the budget", "pass"),
    ("sadly that's out of the running", "fail"), ("it's out of stock in May", None), ("they're out", "fail"),
])
def test_capacity_and_place_are_no_verdicts(clause: str, expected: str | None) -> None:
    assert verdict_of(clause) == expected


def test_a_time_stamped_chat_with_lower_case_names() -> None:
    trace = ("[08:41] rui: BK2 sleeps 6, asks 310 CHF a night\n"
             "[08:42] ines: cool, a keeper\n"
             "[08:44] rui: BK3 sleeps 4 for 260 CHF a night\n"
             "[08:44] ines: too cramped - nope\n"
             "[08:46] rui: BK5 sleeps 8, 455 CHF a night\n"
             "[08:47] ines: beyond what we can spend, park it")
    table = read_evidence(trace, "A chalet for at least 5 people under 400 CHF a night.")
    verdicts = {k: r.verdict for k, r in table.rows.items()}
    assert verdicts == {"BK2": "pass", "BK3": "eliminated", "BK5": "eliminated"}
    assert "260 CHF" in table.rows["BK3"].evidence and "455 CHF" in table.rows["BK5"].evidence
    assert not table.notes
    assert "cool" not in table.rows["BK2"].evidence.lower()
