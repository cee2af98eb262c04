"""Verdicts far from their option, given "respectively", said in idioms or in another language (issue 12, wave 6):
the development probes of ``verdict_probes`` and the rules behind them; the last tests say what stays unjudged."""

from __future__ import annotations

import re

import pytest
from verdict_probes import GROUPS, Probe

from relaykit.handoff.evidence import read_evidence
from relaykit.handoff.lexicon import verdict_of
from relaykit.handoff.several import ordinal_reference, repeat_cut, respective_verdicts, shifted

UNSOLVED = {"BK7"}
"""Options named only by a description ("the lighter bike"): no verdict is guessed for them."""


def verdicts(trace: str, goal: str = "Pick one under the limit.") -> dict[str, str | None]:
    return {option_id: row.verdict for option_id, row in read_evidence(trace, goal).rows.items()}


@pytest.mark.parametrize(("group", "probe"), [(g, p) for g, probes in GROUPS.items() for p in probes],
                         ids=[f"{g}-{k}" for g, probes in GROUPS.items() for k in range(len(probes))])
def test_probe_verdicts(group: str, probe: Probe) -> None:
    trace, expected = probe
    got = verdicts(trace)
    for option_id, verdict in expected.items():
        if option_id in UNSOLVED:
            assert got.get(option_id) in (verdict, None), option_id  # never a wrong verdict
        else:
            assert got.get(option_id) == verdict, (group, option_id)


@pytest.mark.parametrize(("clause", "expected"), [
    ("the deposit sinks AN6", "fail"), ("which kills it", "fail"), ("we toss VA1 out", "fail"),
    ("PR-4 is off the table", "fail"), ("LP3 falls short on battery", "fail"), ("AG9 gets the axe", "fail"),
    ("let's keep DK-5", "pass"), ("we move HQ2 forward", "pass"), ("we'll go ahead with CR2", "pass"),
    ("VE-2 is a no-brainer", "pass"), ("RT-3 passes muster", "pass"), ("VN8 comes out on top", "pass"),
    ("GY3 does not make the cut", "fail"), ("PH8 did not get the nod", "fail"), ("it didn't pass muster", "fail"),
    ("the second option we cannot use", "fail"), ("though, we had to drop.", "fail"),
    # other languages, with their negations
    ("Passt.", "pass"), ("passt nicht ins Budget", "fail"), ("zu klein, raus", "fail"), ("abgelehnt", "fail"),
    ("nicht geeignet", "fail"), ("Retenu.", "pass"), ("non retenue", "fail"), ("Écarté.", "fail"),
    ("ne convient pas", "fail"), ("descartado", "fail"), ("aprobado", "pass"), ("no cumple", "fail"),
    ("neither qualifies", "fail"),
    # awards: the option that gets the contract or the job passes; not getting it fails
    ("LM7 gets the contract", "pass"), ("LM7 is awarded the contract", "pass"), ("NA3 got the job", "pass"),
    ("LM8 does not get the contract", "fail"), ("NA4 did not get the job", "fail"),
    # evidence, not verdicts
    ("the flat has 2 sinks and a bath", None), ("advanced features such as SSO", None), ("cut flowers daily", None),
    ("oficina fuera de la ciudad", None), ("price drops 10.", None), ("we cannot use cash there", None),
    ("HT1 is a no smoking hotel", None), ("the first floor has a gym", None), ("drop-off at 10:00", None),
    ("the van can take 3 pallets", None), ("keep in mind the 5 km bound", None), ("running with 4 cores", None),
    ("priced at 300 USD", None), ("That prices HX9 out.", "fail"), ("We'll run with FT2.", "pass"),
    ("No nos sirve.", "fail"),
])
def test_idioms_and_other_languages(clause: str, expected: str | None) -> None:
    assert verdict_of(clause) == expected


_ID = re.compile(r"[A-Z]{1,3}-?\d{1,4}")


def test_a_clause_naming_an_option_twice_is_cut_before_the_repeat() -> None:
    clause = "ZB1 and ZB2 have 8 GB and 16 GB respectively, so ZB1 fails and ZB2 passes"
    cut = repeat_cut(clause, _ID, ["ZB1", "ZB2"])
    assert cut is not None and clause[cut:] == "so ZB1 fails and ZB2 passes"
    assert repeat_cut("ZB1 and ZB2 pass", _ID, ["ZB1", "ZB2"]) is None
    assert verdicts(clause + ".") == {"ZB1": "eliminated", "ZB2": "pass"}
    assert read_evidence(clause + ".", "8 GB at least.").rows["ZB2"].evidence.startswith("16 GB")


def test_a_verdict_verb_before_an_id_is_that_ids() -> None:
    assert shifted(["SK1 and keep ", "SK2"], _ID) == (["SK1 and ", "SK2"], ["", "keep "])
    assert shifted(["SK1 and ", "SK2 passes"], _ID) == (["SK1 and ", "SK2 passes"], ["", ""])
    assert verdicts("We reject SK1 and keep SK2.") == {"SK1": "eliminated", "SK2": "pass"}
    assert verdicts("SK1 costs 40 USD, so we keep SK2.") == {"SK1": None, "SK2": "pass"}


def test_verdicts_given_respectively_go_in_order() -> None:
    assert respective_verdicts(" were accepted and rejected, respectively.", 2) is not None
    assert respective_verdicts(" were accepted and rejected, respectively.", 2)[0] == ["pass", "fail"]  # type: ignore[index]
    assert respective_verdicts(" come in at 220 USD and 310 USD respectively, so neither qualifies", 2) is None
    assert respective_verdicts(" were accepted and rejected.", 2) is None  # no "respectively": no order


def test_an_ordinal_names_the_option_at_its_place_or_nobody() -> None:
    assert ordinal_reference("the second one, though, we had to drop.", set()) == (1, 14)
    assert ordinal_reference("the first plan, we're keeping it", {"plan"}) is not None
    assert ordinal_reference("the first floor has a gym", {"plan"}) is None
    assert ordinal_reference("the first two pass", set()) is None  # a group (``collective``)
    # a third among two options names nobody: no verdict is guessed, for either
    assert verdicts("Van VN-3 costs 120 EUR. Van VN-5 costs 150 EUR. The third one is out.") == {"VN-3": None,
                                                                                                "VN-5": None}


def test_a_description_is_not_guessed() -> None:
    trace = "Bike BK7 weighs 9.8 kg for 1,400 EUR. Bike BK9 weighs 11.2 kg for 990 EUR. The lighter bike is too dear."
    assert verdicts(trace) == {"BK7": None, "BK9": None}


@pytest.mark.parametrize("word", ["respectively", "respectivement", "respectivamente"])
def test_respectively_in_other_languages(word: str) -> None:
    trace = f"Offres OF1 et OF2 : 300 EUR et 250 EUR {word}, écartée et retenue {word}."
    table = read_evidence(trace, "Moins de 280 EUR.")
    assert {i: r.verdict for i, r in table.rows.items()} == {"OF1": "eliminated", "OF2": "pass"}
    assert table.rows["OF1"].evidence.startswith("300 EUR") and table.rows["OF2"].evidence.startswith("250 EUR")
