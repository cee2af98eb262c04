"""Verdicts, pronouns, speaker labels, decision columns and continuations in phrasings the corpus never uses.

Every trace here is written for these tests (ids, numbers and wording of their own): the general mechanism is
what is checked, not any audit text."""

from __future__ import annotations

import pytest

from relaykit.handoff import Fact, audit
from relaykit.handoff.constraints import parse_constraints
from relaykit.handoff.evidence import read_evidence
from relaykit.handoff.lexicon import verdict_of


@pytest.mark.parametrize(("clause", "expected"), [
    ("We keep it.", "pass"), ("Kept it on the list", "pass"), ("keeping", "pass"), ("Looks good to me", "pass"),
    ("A fit for the team.", "pass"), ("good to go", "pass"), ("that works for us", "pass"),
    ("Only ZQ8 remains.", "pass"), ("👍", "pass"), ("✔️ fine", "pass"), ("✅", "pass"),
    ("we reject it", "fail"), ("rejected outright", "fail"), ("so we crossed it off", "fail"),
    ("cross it off", "fail"), ("strike it", "fail"), ("not usable for us", "fail"), ("plainly unsuitable", "fail"),
    ("no good", "fail"), ("too expensive", "fail"), ("too far from the port", "fail"), ("too small, out.", "fail"),
    ("the van is slow - out", "fail"), ("wrong colour, so no.", "fail"), ("so that's a no", "fail"),
    ("which puts ZQ3 out", "fail"), ("that rules ZQ4 out", "fail"), ("we crossed ZQ5 off", "fail"),
    ("so we drop it", "fail"), ("keeps the lights off", None),
    ("selected", "pass"), ("is retained", "pass"), ("decision: accept", "pass"), ("our top pick", "pass"),
    ("that is a dealbreaker", "fail"), ("declined", "fail"), ("skipped", "fail"), ("set aside", "fail"),
    ("insufficient memory", "fail"), ("over our limit", "fail"), ("above the 20 EUR cap", "fail"),
    ("it is therefore not acceptable", "fail"), ("Too heavy - no.", "fail"), ("too bulky for the van", "fail"),
    ("we keep ZQ6 for now", "pass"), ("we drop ZQ7", "fail"), ("which we can't afford", "fail"),
    ("it would only pass with a bigger budget", None), ("it does not.", "fail"),
    ("it clears everything", "pass"), ("only VX1 is still standing", "pass"), ("Too expensive, I'm afraid.", "fail"),
    ("well below the cap", None), ("it has a sauna too.", None), ("too many seats to count", None),
    ("👎", "fail"), ("✖️", "fail"), ("❌ late", "fail"),
    ("not a fit", "fail"), ("ZQ2 is no longer on the shortlist", "fail"), ("isn't a good fit", "fail"),
    ("looks good but too pricey", "fail"),  # fail wins
    ("so no dogs allowed", None), ("works remotely", None), ("3 out of 5 stars", None), ("keeps a log", None),
    ("sold out of stock", None),
])
def test_verdict_words_beyond_pass_and_fail(clause: str, expected: str | None) -> None:
    assert verdict_of(clause) == expected


def test_the_former_and_the_latter_inside_one_sentence_after_two_ids() -> None:
    trace = ("KT5 and KT6 both ship to Lisbon; the former asks €14 per crate with a €30 fee, the latter €19 per crate "
             "with a €45 fee, which puts KT6 out.")
    table = read_evidence(trace, "Pick a carrier under 15 EUR per crate.")
    assert "14 EUR" in table.rows["KT5"].evidence and "30 EUR" in table.rows["KT5"].evidence
    assert "19 EUR" in table.rows["KT6"].evidence and "14 EUR" not in table.rows["KT6"].evidence
    assert table.rows["KT6"].verdict == "eliminated" and table.rows["KT5"].verdict is None


def test_the_latter_and_that_one_across_dialogue_turns() -> None:
    trace = ("Client: Can you compare VX3 and VX4?\nBot: VX3 takes 30 minutes each way. The latter takes 55 minutes, "
             "too slow.\nClient: And VX9?\nBot: That one takes 25 minutes. Good to go.")
    table = read_evidence(trace, "A commute under 40 minutes.")
    assert table.rows["VX4"].verdict == "eliminated" and "55" in table.rows["VX4"].evidence
    assert table.rows["VX9"].verdict == "pass" and "25" in table.rows["VX9"].evidence
    assert "55" not in table.rows["VX3"].evidence


def test_speaker_labels_are_not_attribute_labels() -> None:
    trace = ("Dana: What about PL2?\nSam: PL2 seats 8 and costs 300 USD, so that's a no.\nDana: PL3?\n"
             "Sam: PL3 seats 12 for 280 USD. Keep it.")
    table = read_evidence(trace, "A venue for 10 people.")
    text = table.text()
    assert "sam" not in table.labels and "dana" not in table.labels
    assert "Sam" not in text and "Dana" not in text
    assert table.rows["PL2"].verdict == "eliminated" and table.rows["PL3"].verdict == "pass"


def test_a_key_value_block_keeps_its_capitalised_labels() -> None:
    trace = "- WB1\n  Colour: teal, grey, black\n  Weight: 2 kg\n  Verdict: ✓"
    table = read_evidence(trace, "A bag under 3 kg.")
    assert "Colour" in table.rows["WB1"].evidence and "teal" in table.rows["WB1"].evidence


def test_a_typed_clause_without_an_id_continues_the_option_of_the_sentence_before() -> None:
    trace = ("First up, RM4: does it sleep four? Actually - the listing says 6 beds, 130 USD a night, check-in 15:00. "
             "Works for us.\nRM5 charges 90 USD a night, too small.\nThe deposit everywhere is 300 USD.")
    table = read_evidence(trace, "A flat for 5 people under 150 USD a night.")
    rm4 = table.rows["RM4"]
    assert {"6 beds", "130 USD", "15:00"} <= set(rm4.evidence.replace(" beds", "_beds").replace("_", " ").split(" ")) \
        or ("130 USD" in rm4.evidence and "15:00" in rm4.evidence)
    assert rm4.verdict == "pass" and table.rows["RM5"].verdict == "eliminated"
    assert table.notes == ["The deposit everywhere is 300 USD."]  # another line: no option to continue
    facts = [Fact("RM4", "rate", "130 USD"), Fact("RM4", "check-in", "15:00")]
    assert audit(table.text(), facts, trace=trace).recall == 1.0


def test_yes_no_under_a_decision_header_is_the_verdict_in_csv_and_tables() -> None:
    csv_trace = "code,weight,price,status\nBX1,2 kg,12 USD,yes\nBX2,5 kg,9 USD,no\nBX3,1 kg,30 USD,drop (price, weight)"
    table = read_evidence(csv_trace, "A box under 20 USD.")
    assert [table.rows[i].verdict for i in ("BX1", "BX2", "BX3")] == ["pass", "eliminated", "eliminated"]
    assert "12 USD" in table.rows["BX1"].evidence and "2 kg" in table.rows["BX1"].evidence
    assert "status" not in table.rows["BX1"].evidence  # the decision column's label is not evidence
    md = "| option | speed | result |\n|---|---|---|\n| NX1 | 40 km | ✅ |\n| NX2 | 25 km | no |"
    md_table = read_evidence(md, "A speed of at least 30 km.")
    assert md_table.rows["NX1"].verdict == "pass" and md_table.rows["NX2"].verdict == "eliminated"


def test_a_sentence_with_commas_is_not_a_csv_header() -> None:
    trace = "Checked today, quickly, by phone\nFV1, 20 USD, fine.\nFV2 costs 25 USD, so no."
    table = read_evidence(trace, "Under 30 USD.")
    assert "20 USD" in table.rows["FV1"].evidence and table.rows["FV2"].verdict == "eliminated"


@pytest.mark.parametrize(("goal", "expected"), [
    ("Buy a tablet with at least 64 GB storage below 500 USD.", ["storage >= 64 GB", "price <= 500 USD"]),
    ("Pick a probe with drift within 0.2% and a battery of at least 9 months.",
     ["drift <= 0.2%", "battery >= 9 months"]),  # "with drift within": a measured attribute, not an amenity
    ("Pick a hall for 40 guests within 15 km.", ["capacity >= 40 guests", "distance <= 15 km"]),  # not its name
    ("A fund with APR under 4.5% and fees below 30 USD.", ["apr <= 4.5%", "fees <= 30 USD"]),
    ("Pick a jug under 25 GBP holding at least 2 litres.", ["price <= 25 GBP", "l >= 2 litres"]),
    ("Choose a van arriving within 36 hours for under 70 EUR per trip.", ["van arriving <= 36 hours",
                                                                          "price <= 70 EUR per trip"]),
])
def test_goals_with_two_comparisons_or_measured_attributes(goal: str, expected: list[str]) -> None:
    assert [f"{c.name} {c.operator} {c.threshold}" for c in parse_constraints(goal)] == expected


AUDITS = {  # whole audits in phrasings of their own: every fact kept, every verdict found, nothing invented
    "chat": ("Buy a drone with at least 20 min flight time under 900 EUR.",
             "Kim: How about DR4?\nLee: DR4 flies 18 min for €640. Not enough, strike it.\nKim: DR5 or DR6?\n"
             "Lee: DR5 flies 25 min, €860. The latter flies 31 min but costs €1,240 - too expensive.\n"
             "Kim: So DR5?\nLee: Yes, DR5 is good to go 👍",
             [("DR4", "flight", "18 min"), ("DR4", "price", "640 EUR"), ("DR5", "price", "860 EUR"),
              ("DR6", "flight", "31 min"), ("DR6", "price", "1240 EUR")],
             {"DR4": "eliminated", "DR5": "pass", "DR6": "eliminated"}),
    "pipe-table": ("Pick a hall for 80 guests within 20 km, at most 3,000 GBP.",
                   "hall | guests | distance | cost | outcome\nHL1 | 120 | 12 km | £2,800 | yes\n"
                   "HL2 | 60 | 5 km | £1,900 | no - too small\nHL3 | 90 | 31 km | £2,400 | no",
                   [("HL1", "distance", "12 km"), ("HL1", "cost", "2800 GBP"), ("HL3", "distance", "31 km")],
                   {"HL1": "pass", "HL2": "eliminated", "HL3": "eliminated"}),
    "prose": ("Choose a courier delivering within 48 hours for under 25 USD per parcel.",
              "Three couriers quoted. CX2 and CX7 both deliver next day; the former charges $22 per parcel, the "
              "latter $29, which rules CX7 out. CX9 takes 72 hours at $15. That is far too slow, so we drop it. "
              "CX2 it is: a fit on every count.",
              [("CX2", "price", "22 USD"), ("CX7", "price", "29 USD"), ("CX9", "time", "72 hours"),
               ("CX9", "price", "15 USD")],
              {"CX2": "pass", "CX7": "eliminated", "CX9": "eliminated"}),
    "log": ("Pick a sensor with accuracy within 0.5% and a battery of at least 12 months.",
            "2026-03-02 SQ31 accuracy=0.3% battery=18 months :: keep\n"
            "2026-03-02 SQ32 accuracy=0.9% battery=24 months :: reject, accuracy\n"
            "2026-03-03 SQ33 accuracy=0.4% battery=6 months :: unsuitable (battery)",
            [("SQ31", "accuracy", "0.3%"), ("SQ32", "accuracy", "0.9%"), ("SQ33", "battery", "6 months")],
            {"SQ31": "pass", "SQ32": "eliminated", "SQ33": "eliminated"}),
}


@pytest.mark.parametrize("name", sorted(AUDITS))
def test_whole_audits_in_unseen_phrasing_keep_facts_and_verdicts(name: str) -> None:
    goal, trace, facts, verdicts = AUDITS[name]
    table = read_evidence(trace, goal)
    assert {i: table.rows[i].verdict for i in verdicts} == verdicts
    payload = table.text()
    report = audit(payload, [Fact(*f) for f in facts], trace=trace)
    assert report.recall == 1.0 and report.invented == []
    back = read_evidence(payload, goal)  # the reader of the payload sees the same verdicts
    assert {i: back.rows[i].verdict for i in verdicts} == verdicts


def test_list_numbers_and_keyed_decisions() -> None:
    trace = ("1. QP1 - 300 GB, $8.50/month -> chosen\n2. QP2 - 40 GB, $3/month -> skipped\n"
             "- id: QP3\n  size: 500 GB\n  status: drop")
    table = read_evidence(trace, "A plan with at least 100 GB under 10 USD a month.")
    assert [table.rows[i].verdict for i in ("QP1", "QP2", "QP3")] == ["pass", "eliminated", "eliminated"]
    assert table.notes == []  # "1." and "2." are list numbers, not values


def test_values_given_in_order_for_several_ids_and_verdicts_for_both() -> None:
    trace = ("RB1 and RB2 are both beyond 4 km (6.5 km and 7.25 km), so both are out. RB3 and RB4 sit 1.5 km and "
             "2.75 km away respectively. Both pass.")
    table = read_evidence(trace, "A rink within 4 km.")
    assert "6.5 km" in table.rows["RB1"].evidence and "6.5 km" not in table.rows["RB2"].evidence
    assert "7.25 km" in table.rows["RB2"].evidence
    assert "1.5 km" in table.rows["RB3"].evidence and "2.75 km" in table.rows["RB4"].evidence
    assert [table.rows[i].verdict for i in ("RB1", "RB2", "RB3", "RB4")] == ["eliminated"] * 2 + ["pass"] * 2


def test_a_shared_predicate_after_both_goes_to_every_id() -> None:
    table = read_evidence("KM7 and KM8 both ship from Porto; the former asks €9, the latter €12.", "Under 10 EUR.")
    assert "Porto" in table.rows["KM7"].evidence and "Porto" in table.rows["KM8"].evidence
    assert "9 EUR" in table.rows["KM7"].evidence and "12 EUR" in table.rows["KM8"].evidence


def test_the_first_and_the_second_after_two_ids() -> None:
    trace = ("We met SH3 and SH4. The first has 6 years and asks £52 an hour; the second has 1 year at £33. "
             "We go with SH3; SH4 lacks experience.")
    table = read_evidence(trace, "A coach with at least 3 years of experience.")
    assert "52 GBP" in table.rows["SH3"].evidence and "33 GBP" in table.rows["SH4"].evidence
    assert "first" not in table.rows["SH3"].evidence and "second" not in table.rows["SH4"].evidence
    assert table.rows["SH3"].verdict == "pass" and table.rows["SH4"].verdict == "eliminated"


def test_lengths_and_volumes_are_typed_values() -> None:
    table = read_evidence("TB1: 140 cm wide, 0.5 m3, 12 kg. Accepted.\nTB2: 90 cm wide. Rejected.", "At least 120 cm.")
    assert "140 cm" in table.rows["TB1"].evidence and "0.5 m3" in table.rows["TB1"].evidence


def test_tab_separated_rows_possessive_ids_and_stays() -> None:
    tsv = "id\trate\tyears\tok?\nMG1\t3.1%\t25 years\tyes\nMG2\t3.9%\t10 years\tno"
    table = read_evidence(tsv, "A mortgage under 3.5%.")
    assert table.rows["MG1"].verdict == "pass" and table.rows["MG2"].verdict == "eliminated"
    assert "3.9%" in table.rows["MG2"].evidence
    prose = read_evidence("JG4 costs £19. Its volume is 2.2 l, so it stays. JG5's price (£31) is past our cap.",
                          "A jug under 25 GBP.")
    assert prose.rows["JG4"].verdict == "pass" and "2.2 l" in prose.rows["JG4"].evidence
    assert prose.rows["JG5"].verdict == "eliminated" and "JG5's" not in prose.rows["JG5"].evidence


def test_a_markdown_section_belongs_to_the_option_of_its_heading() -> None:
    trace = ("## Shortlist\n### LM1 - rejected\nBrightness 800 lm, $95. Too dim.\n\n### LM2\nBrightness 1,600 lm, "
             "$120.\n**Verdict:** ✅\n### LM3\nBrightness 2,000 lm, $210.\n**Status:** ❌ over budget")
    table = read_evidence(trace, "A lamp under 150 USD.")
    assert [table.rows[i].verdict for i in ("LM1", "LM2", "LM3")] == ["eliminated", "pass", "eliminated"]
    assert "120 USD" in table.rows["LM2"].evidence and "210 USD" in table.rows["LM3"].evidence
    assert table.notes == []


def test_a_condition_is_not_a_verdict_but_its_denial_is() -> None:
    trace = "CZ2 has 7 seats at $31,900, which would only pass if the cap were higher; it does not. CZ3 (5 seats) fits."
    table = read_evidence(trace, "A car under 30,000 USD.")
    assert table.rows["CZ2"].verdict == "eliminated" and table.rows["CZ3"].verdict == "pass"


def test_bare_keep_and_drop_cells_and_reasons_without_filler() -> None:
    trace = ("DP1 | data 40 GB | 20 USD/mo | keep\nDP2 | data 8 GB | 12 USD/mo | drop\n"
             "DP3 costs 90 USD. Too pricey, I'm afraid.")
    table = read_evidence(trace, "A plan under 30 USD.")
    assert [table.rows[i].verdict for i in ("DP1", "DP2", "DP3")] == ["pass", "eliminated", "eliminated"]
    assert table.rows["DP3"].reason == ""  # "I'm afraid" is no reason


def test_a_relative_clause_ends_a_threshold() -> None:
    found = parse_constraints("A hall within 6 km that seats 90 guests.")
    names = [f"{c.name} {c.operator} {c.threshold}" for c in found]
    assert names == ["capacity >= 90 guests", "distance <= 6 km"]  # a head count is its own bound


@pytest.mark.parametrize(("clause", "expected"), [
    ("QX7 pays out on 61% of claims for 30 GBP, so it passes", "pass"),  # "out" of an action, not a verdict
    ("ZZ4 stands out on price and stays on the shortlist", "pass"),
    ("the fund paid out on the first day", None),
    ("HT2 out on price", "fail"),
    ("The latter is out on network", "fail"),
])
def test_out_after_a_verb_that_takes_it_is_not_a_verdict(clause: str, expected: str | None) -> None:
    assert verdict_of(clause) == expected
