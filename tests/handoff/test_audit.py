import pytest
from test_evidence import CONTRACT_TRACE, GOAL

from relaykit.errors import UsageError
from relaykit.handoff import Fact, audit, compress_handoff, read_evidence

FACTS = [
    Fact("H01", "price", "$145"),
    Fact("H02", "distance", "5.1 km"),
    Fact("H02", "verdict", "eliminated"),
    Fact("F01", "cabin", "economy"),
    Fact("F01", "verdict", "pass"),
]


def test_text_payload_keeps_facts_whose_id_and_value_share_a_sentence() -> None:
    payload = ("H01 costs 145.00 USD a night.\nH02 is 5.1 km out. It was eliminated.\n"
               "F01 flies economy and passes.")
    report = audit(payload, FACTS)
    # H02's verdict stands in a sentence without its id: lost.
    assert report.lost == [Fact("H02", "verdict", "eliminated")]
    assert report.recall == pytest.approx(4 / 5)
    assert report.kept == [f for f in FACTS if f != Fact("H02", "verdict", "eliminated")]


def test_numbers_are_compared_as_numbers_not_strings() -> None:
    facts = [Fact("H01", "price", "180 USD"), Fact("H09", "price", "180"), Fact("H03", "price", "18")]
    report = audit("H01 costs $180. H09 costs 180.00 USD. H03 costs 180 USD.", facts)
    assert report.lost == [Fact("H03", "price", "18")]


def test_ids_match_whole_identifiers_only() -> None:
    report = audit("H10 costs 145 USD.", [Fact("H1", "price", "145 USD")])
    assert report.recall == 0.0 and report.lost == [Fact("H1", "price", "145 USD")]


def test_structured_payload_is_audited_by_structure() -> None:
    extraction = read_evidence(CONTRACT_TRACE, GOAL).to_extraction()
    assert audit(extraction.model_dump(), FACTS).recall == 1.0
    wrong = [Fact("H01", "price", "210 USD"), Fact("H02", "verdict", "pass"), Fact("H01", "verdict", "fail"),
             Fact("F09", "price", "1 USD"), Fact("H01", "amenities", "gym"), Fact("H01", "distance", "2.40 km")]
    report = audit(extraction, wrong)
    # the value 210 USD exists in the payload (H02), but not in H01's record; H01 has gym; 2.40 km = 2.4 km
    assert report.kept == [Fact("H01", "amenities", "gym"), Fact("H01", "distance", "2.40 km")]
    assert len(report.lost) == 4


def test_lost_facts_after_compression_are_named() -> None:
    handoff = compress_handoff(CONTRACT_TRACE, GOAL, "truncate", budget=60)
    report = audit(handoff, FACTS)
    assert report.kept + report.lost and set(report.kept) | set(report.lost) == set(FACTS)
    for fact in report.lost:
        assert fact.id not in handoff.payload_text or fact.attribute == "verdict" or \
            fact.value.strip("$") not in handoff.payload_text


def test_facts_from_a_file_and_bad_facts() -> None:
    report = audit("H01 costs 145 USD.", [{"id": "H01", "attribute": "price", "value": "145"}])
    assert report.recall == 1.0
    assert audit("anything", []).recall == 1.0
    with pytest.raises(UsageError, match="id, attribute and value"):
        audit("x", [{"id": "H01"}])
    with pytest.raises(UsageError, match="verdict"):
        audit("x", [{"id": "H01", "attribute": "verdict", "value": "maybe"}])


def test_json_evidence_table_is_audited_row_by_row() -> None:
    h = compress_handoff(CONTRACT_TRACE, GOAL, "extract-rules", format="json")
    assert isinstance(h.payload, dict) and "null" not in h.payload_text
    assert audit(h, FACTS).recall == 1.0
    assert all(isinstance(i, int) for o in h.payload["options"] for i in o["sentences"])


def test_invented_values_are_those_the_trace_never_states() -> None:
    trace = "H01 costs $180 a night, 2.4 km out; check-in from 2 pm."
    assert audit("H01: 180.00 USD, 2.4 km, 14:00", [], trace=trace).invented == []
    report = audit("H01 is a luxury hotel at 250 USD, 2.4 km out, check-in 15:00.", [], trace=trace)
    assert report.invented == ["250 USD", "15:00"]
    assert audit("anything 99 USD", []).invented == []  # no trace given: not checked


def test_times_and_money_formats_match() -> None:
    facts = [Fact("R1", "start", "14:00"), Fact("R1", "rate", "1250 EUR"), Fact("R2", "start", "09:00")]
    report = audit("R1 opens at 2 pm for €1,250.00.\nR2 opens at 9 am.", facts)
    assert report.recall == 1.0
