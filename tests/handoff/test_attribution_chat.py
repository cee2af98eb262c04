"""A chat line's time stamp does not break question / answer attribution (issue 12, red-team group 15): the id-less
answer to a question about one option is that option's evidence, stamped or not. Wordings differ from the probe's."""

from __future__ import annotations

import pytest

from relaykit.handoff import read_evidence

LINES = ["Lena: what about VN-3?", "Omar: 2 tonnes only, 80 EUR a day", "Lena: and VN-9, any good?",
         "Omar: carries 4 tonnes for 95 EUR a day"]
GOAL = "A van for 3 tonnes under 100 EUR a day."


def _row(text: str, option: str) -> list[str]:
    return next(line for line in text.split("\n") if line.startswith(option + " ")).split()


@pytest.mark.parametrize("stamp", ["", "[14:02] ", "14:02 ", "[2026-03-01 14:02] ", "[2:02 pm] "])
def test_an_answer_belongs_to_the_option_asked_about(stamp: str) -> None:
    text = read_evidence("\n".join(stamp + line for line in LINES), GOAL).text()
    assert {"2", "80"} <= set(_row(text, "VN-3")) and {"4", "95"} <= set(_row(text, "VN-9"))
    assert "80" not in _row(text, "VN-9") and "note:" not in text and "14:02" not in text


def test_a_stamped_answer_after_a_bare_id_question() -> None:
    trace = ("[08:40] kim: DK-12?\n[08:41] Raj: desk is 160 cm, 240 USD\n[08:41] kim: DK-15?\n"
             "[08:42] Raj: 120 cm, 199 USD")
    text = read_evidence(trace, "A desk of at least 140 cm under 250 USD.").text()
    assert {"160", "240"} <= set(_row(text, "DK-12")) and {"120", "199"} <= set(_row(text, "DK-15"))


def test_a_line_naming_another_option_ends_the_question() -> None:
    trace = "[10:00] Ana: PB-1?\n[10:01] Bo: 500 W\n[10:02] Bo: PB-4 is 900 W.\n[10:03] Bo: shipping 30 USD extra"
    text = read_evidence(trace, "A power bank of at least 600 W.").text()
    assert "500" in _row(text, "PB-1") and "30" not in _row(text, "PB-1")


@pytest.mark.parametrize("form", ["({t}) {who}: ", "{t} - {who}: ", "{who} ({t}): ", "[Tue {t}] {who}: "])
def test_other_stamp_forms(form: str) -> None:
    said = [("ana", "SC-5?"), ("bo", "seats 30, 450 EUR"), ("ana", "SC-7?"), ("bo", "seats 55, 700 EUR")]
    trace = "\n".join(form.format(t=f"16:{k:02d}", who=who) + text for k, (who, text) in enumerate(said))
    text = read_evidence(trace, "A hall for 40 people under 800 EUR.").text()
    assert {"30", "450"} <= set(_row(text, "SC-5")) and {"55", "700"} <= set(_row(text, "SC-7"))
    assert "bo" not in _row(text, "SC-7") and "16:01" not in text


def test_a_first_unknown_speaker_before_an_option_sentence_is_no_label() -> None:
    trace = ("mira: KB-12 is a 75 percent board at 129 USD\ntom: ok\nmira: KB-30 has a full layout, 189 USD\n"
             "winner: KB-12 because it is cheaper")
    text = read_evidence(trace, "A keyboard under 150 USD.").text()
    assert "mira" not in text and {"129"} <= set(_row(text, "KB-12")) and "189" in _row(text, "KB-30")
    assert _row(text, "KB-12")[-1] == "+"  # "winner:" is a verdict label, not a speaker
