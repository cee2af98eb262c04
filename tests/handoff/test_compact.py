"""The compact evidence table of extract-rules: its format, reading it back, auditing it, and its size."""

import statistics

import pytest

from relaykit.handoff import Fact, audit, compress_handoff, read_evidence
from relaykit.handoff.compact_header import header_cells
from relaykit.handoff.compact_read import expand, parse_compact
from relaykit.handoff.constraints import parse_constraints
from relaykit.handoff.corpus import DEV_STYLES, DOMAINS, corpus, generate
from relaykit.handoff.reasons import reason_of

CLOUD = """GV01 bills $2.70 an hour with 48GB of memory, hosted in us-east, promising 99.99% uptime. It passes.
GV02 bills 1.50 dollars an hour with 96 GB of memory, hosted in ap-south, promising 99.5 percent uptime. It is
ruled out on region.
GV03 bills USD 4.60 an hour with 80 GB of memory, hosted in us-east, promising 99.0% uptime. It drops out on SLA.
GV04 bills $1,250.00 an hour with 48 GB of memory, hosted in eu-west, promising 99.9% uptime. It is rejected on
rate and region."""
CLOUD_GOAL = ("Pick a GPU vendor in region us-east with at least 48 GB, an SLA of at least 99.5% and a rate "
              "below 6.8 USD.")


def test_one_header_names_units_and_bounds_and_rows_carry_normalised_values() -> None:
    payload = read_evidence(CLOUD.replace("\nrate", " rate").replace("\nruled", " ruled"), CLOUD_GOAL).text()
    assert "\nGV01 " in payload  # every row starts with the option's whole id
    lines = payload.split("\n")
    header = next(line for line in lines if line.startswith("id "))
    assert "USD <=6.8" in header and "GB >=48" in header and "% >=99.5" in header and "verdict" not in header
    rows = {line.split(" ")[0]: line for line in lines if line[:2] == "GV"}
    # 48 GB is the bound itself (>=48): "=" says it in one token
    # numbers as written (never scaled): 2.7 under USD
    assert rows["GV01"].startswith("GV01 2.7 = 99.99") and rows["GV01"].endswith(" +")
    # the reason "rate" needs no mark: 1250 breaks the header's bound <=6.8, the reader re-derives it; "region" stays
    assert rows["GV04"].startswith("GV04 1250 = 99.9")
    # "region" too: the header's constraint cell wants us-east, which the row lacks
    assert rows["GV04"].endswith(" -") and "eu-west" in rows["GV04"]
    assert payload.split("\n")[0] == "id USD <=6.8 GB >=48 % >=99.5 region == us-east"  # the short header
    assert "$" not in payload and "dollars" not in payload and "percent" not in payload


def test_reading_the_payload_back_restores_labels_units_verdicts_and_reasons() -> None:
    trace = CLOUD.replace("\nrate", " rate").replace("\nruled", " ruled")
    table = read_evidence(trace, CLOUD_GOAL)
    back = read_evidence(table.text(), CLOUD_GOAL)
    assert list(back.rows) == list(table.rows)
    assert [r.verdict for r in back.rows.values()] == [r.verdict for r in table.rows.values()]
    assert "1250 USD" in back.rows["GV04"].evidence and "99.9%" in back.rows["GV04"].evidence
    # a value beyond its bound is a reason: the column "USD <=6.8" holds money, a price; "region" is the
    # constraints line's wanted word the row lacks
    assert back.rows["GV04"].reason.split(",") == ["price", "region"]


@pytest.mark.parametrize("domain", [d.name for d in DOMAINS])
def test_round_trip_keeps_every_fact_in_every_dev_style(domain: str) -> None:
    chosen = next(d for d in DOMAINS if d.name == domain)
    for style in DEV_STYLES:
        sample = generate(style, chosen, seed=5)
        payload = read_evidence(sample.trace, sample.goal).text()
        again = read_evidence(payload, sample.goal)
        report = audit(again.labelled_text(), sample.facts)
        assert report.recall == 1.0, (style, report.lost)
        assert audit(payload, sample.facts, trace=sample.trace).invented == []


def test_audit_reads_units_through_the_header() -> None:
    payload = "id | price night USD <=400 | distance km | verdict\nH1 180 1.2 ok\nH2 450! - out"
    assert expand(payload) == ("H1: price night 180 USD distance 1.2 km | pass\n"
                               "H2: price night 450 USD | eliminated (price night)")
    kept = audit(payload, [Fact("H1", "price", "$180.00"), Fact("H2", "verdict", "eliminated"),
                           Fact("H1", "verdict", "pass"), Fact("H1", "distance", "1.2 km")])
    assert kept.recall == 1.0
    wrong_unit = audit(payload, [Fact("H1", "price", "180 EUR"), Fact("H1", "distance", "1.2 mi")])
    assert wrong_unit.recall == 0.0
    trace = "H1 costs $180 a night, 1.2 km out; it passes. H2 costs $450, so it is eliminated."
    assert audit(payload, [], trace=trace).invented == []
    assert audit(payload.replace("450!", "455!"), [], trace=trace).invented == ["455 USD"]


def test_text_that_only_looks_like_a_header_is_read_as_text() -> None:
    assert parse_compact("id | price | verdict\nH1 | 180 | ok") is None
    assert parse_compact("H1 costs 180 USD and passes.") is None
    table = read_evidence("id | price | verdict\nH1 | $180 | ✓\nH2 | $450 | ✗", "Find a hotel under 400 USD.")
    assert table.rows["H1"].verdict == "pass" and "180 USD" in table.rows["H1"].evidence


def test_a_value_shared_by_every_row_or_by_some_rows_is_never_lost() -> None:
    same = "\n".join(f"V{i}: rate ${i}.50 an hour; region us-east; memory {16 * i} GB; verdict pass."
                     for i in range(1, 6))
    some = "\n".join(f"H{i} costs ${100 + i} breakfast included, {i}.5 km out; it passes." if i % 2 else
                     f"H{i} costs ${100 + i}, {i}.5 km out; it passes." for i in range(1, 7))
    for trace, word in ((same, "us-east"), (some, "breakfast")):
        h = compress_handoff(trace, "Pick one.", "extract-rules")
        facts = [Fact(f"{trace[0]}{i}", "x", word) for i in range(1, 6) if trace is same or i % 2]
        assert audit(h, facts).recall == 1.0, h.payload


def test_a_column_mark_is_only_set_by_a_reason_naming_that_column() -> None:
    trace = ("Hotel H01: price 288 USD per night; distance 7.4 km; stars 5; amenities wifi, gym.\n"
             "H01 verdict: eliminated (amenity, distance).\n"
             "Hotel H02: price 161 USD per night; distance 1.3 km; stars 3; amenities bar, gym.\n"
             "H02 verdict: pass.\n"
             "Hotel H03: price 311 USD per night; distance 5.3 km; stars 4; amenities pool, bar.\n"
             "H03 verdict: eliminated (distance).")
    payload = read_evidence(trace, "Find a hotel.").text()  # no constraint: the marks say the reasons
    rows = {line.split(" ")[0]: line.split(" ") for line in payload.split("\n") if line[:2] == "H0"}
    assert rows["H01"][1:4] == ["288", "7.4!", "5"] and rows["H01"][-1] == "out:amenity"
    assert rows["H03"][1:4] == ["311", "5.3!", "4"] and rows["H03"][-1] == "-"
    goal = "Find a hotel with a bar, distance at most 4.5 km."
    bounded = read_evidence(trace, goal).text()  # the header's bound <=4.5 says it: no mark
    rows = {line.split(" ")[0]: line.split(" ") for line in bounded.split("\n") if line[:2] == "H0"}
    assert "km <=4.5" in bounded and rows["H01"][1:4] == ["288", "7.4", "5"] and rows["H03"][-1] == "-"
    back = read_evidence(bounded, goal).rows
    assert back["H03"].reason == "distance" and back["H01"].reason.split(",") == ["distance", "amenities"]
    assert back["H02"].verdict == "pass" and not back["H02"].reason


def test_reasons_are_read_from_many_phrasings() -> None:
    said = {"It misses on price and distance, so it is crossed off.": "price,distance",
            "✗ region and SLA": "region,sla", "FAIL(rate,region)": "rate,region",
            "verdict: eliminated (price, distance).": "price,distance", "is out on amenities": "amenities",
            "SP04 is rejected on price per unit and certification.": "price unit,certification"}
    for text, reason in said.items():
        found = reason_of(text)
        assert found is not None and found[0] == reason, text
    assert reason_of("F01 cabin check: economy does not match premium, fail.") is None  # premium is the goal's
    assert reason_of("GV01 rate check: $2.70, fail.") is None


def test_enumerated_goal_constraints() -> None:
    found = {(c.name, c.operator, c.threshold) for c in parse_constraints(
        "Pick a GPU vendor in region us-east with at least 48 GB per card, certified ISO-9001.")}
    assert ("region", "==", "us-east") in found and ("certified", "==", "ISO-9001") in found
    network = parse_constraints("Find a policy with a national network, premium at most 125 GBP a month.")
    assert ("network", "==", "national") in {(c.name, c.operator, c.threshold) for c in network}


def test_the_compact_table_is_far_smaller_than_verbose_traces_and_loses_nothing() -> None:
    ratios = []
    for sample in corpus(("narrative", "bullets", "clause"), seeds=1):
        h = compress_handoff(sample.trace, sample.goal, "extract-rules")
        assert audit(h, sample.facts, trace=sample.trace).recall == 1.0
        ratios.append(h.ratio)
    assert statistics.median(ratios) < 0.45 and max(ratios) < 0.6


def test_marks_name_only_columns_the_option_failed_on() -> None:
    """Relay lab worlds in every corpus style: hotels fail only on amenity or distance, flights only on window
    or cabin, so a marked value is always a hotel's distance and never a price, a star count or a layover."""
    from relaykit.bench.relay import generate_world
    from relaykit.bench.relay.styles import styled_trace
    from relaykit.handoff.corpus import STYLES

    world = generate_world(0)
    for k, style in enumerate(STYLES):
        goal = world.goals[k]
        payload = compress_handoff(styled_trace(world, goal, style), goal.text, "extract-rules").payload
        assert isinstance(payload, str)
        header: list[str] = []
        for line in payload.split("\n"):
            cells = header_cells(line)  # either form of a header
            if cells is not None:
                header = cells
                continue
            marked = [header[c] for c, cell in enumerate(line.split(" ")[1:len(header)]) if cell.endswith("!")]
            assert all("km" in name and line.startswith("H") for name in marked), (style, line, header)


def test_a_verdict_sentence_without_an_id_belongs_to_the_option_just_described() -> None:
    trace = ("Then B9: 2 bedrooms, $2,350 per month, 0.8 miles, no pets allowed. Crossed off because of the pets.\n"
             "B10 has 4 bedrooms for 3,100 USD monthly. It passes. Rejected: none of the others.")
    table = read_evidence(trace, "Rent an apartment with pets allowed.")
    assert table.rows["B9"].verdict == "eliminated" and table.rows["B9"].reason == "pets"
    assert table.rows["B10"].verdict == "pass"  # "Rejected: none of the others" speaks of no one option


def test_free_stays_in_a_row_beside_what_it_qualifies() -> None:
    """"free parking" against "paid parking": the word that tells them apart is evidence, not filler."""
    trace = ("HT01: 420 USD a night, free parking, 2.1 km. HT02 costs 180 USD, no parking, 3 km - ruled out. "
             "HT03: 190 USD with free parking, 1.2 km, keep. HT04: 150 USD, paid parking, 1 km.")
    for goal in ("a hotel with free parking under 200 USD", "a hotel under 200 USD"):
        read = expand(compress_handoff(trace, goal, "extract-rules").payload_text)  # as the audit reads it
        assert read is not None
        rows = {line.split(":")[0]: line for line in read.splitlines()}
        assert "free" in rows["HT01"] and "free" in rows["HT03"], goal
        assert "paid" in rows["HT04"] and "free" not in rows["HT04"], goal
