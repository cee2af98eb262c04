"""The compact table's cheaper encodings (issue 12): verdict signs, reasons the header or the constraints line
already state, bare label clauses, and reading each of them back without losing a fact."""

from types import SimpleNamespace

from relaykit import tokens
from relaykit.handoff import Fact, audit, compress_handoff, read_evidence
from relaykit.handoff.compact_read import expand, parse_compact
from relaykit.handoff.compact_rules import Wanted, applying, read_constraint_line, violates, wanted
from relaykit.handoff.corpus import DEV_STYLES, DOMAINS, generate

ROOMS = """Room R01: 12 seats; rate 95 EUR; region north. R01 verdict: pass.
Room R02: 4 seats; rate 80 EUR; region north. R02 verdict: eliminated (capacity).
Room R03: 10 seats; rate 240 EUR; region north. R03 verdict: eliminated (budget).
Room R04: 16 seats; rate 70 EUR; region south. R04 verdict: eliminated (area).
Room R05: 8 seats; rate 60 EUR; region north. R05 verdict: eliminated (noise)."""
ROOMS_GOAL = "A room for at least 8 seats, at most 150 EUR, region north."


def _rows(payload: str) -> dict[str, str]:
    return {line.split(" ")[0]: line for line in payload.split("\n") if line[:1] == "R"}


def test_verdicts_are_signs_that_share_the_line_break_token() -> None:
    payload = read_evidence(ROOMS, ROOMS_GOAL).text()
    rows = _rows(payload)
    assert rows["R01"].endswith(" +") and rows["R02"].endswith(" -")
    assert tokens.count("R01 12 95 north +\nR02") == tokens.count("R01 12 95 north\nR02")
    assert tokens.count("R01 12 95 north ok\nR02") > tokens.count("R01 12 95 north +\nR02")
    back = read_evidence(payload, ROOMS_GOAL).rows
    assert [back[i].verdict for i in ("R01", "R02", "R05")] == ["pass", "eliminated", "eliminated"]


def test_reasons_the_header_or_the_constraints_line_state_are_left_out_and_read_back() -> None:
    payload = read_evidence(ROOMS, ROOMS_GOAL).text()
    rows = _rows(payload)
    assert payload.split("\n")[0] == "id seats >=8 EUR <=150 region == north"
    # R02: 4 seats break >=8 ("capacity" names nothing, but it is the one broken bound); R03: 240 > 150;
    # R04: the row lacks the wanted "north" ("area"); R05 breaks nothing stated: its reason stays
    assert rows["R02"].endswith(" -") and rows["R03"].endswith(" -") and rows["R04"].endswith(" -")
    assert "!" not in payload and rows["R05"].endswith("out:noise")
    back = read_evidence(payload, ROOMS_GOAL).rows
    assert back["R02"].reason == "seats" and back["R03"].reason == "price"
    assert back["R04"].reason == "region" and back["R05"].reason == "noise" and back["R01"].reason == ""
    facts = [Fact("R04", "region", "south"), Fact("R03", "rate", "240 EUR"), Fact("R02", "verdict", "eliminated")]
    assert audit(payload, facts, trace=ROOMS).recall == 1.0


def test_a_reason_that_names_a_column_within_its_bound_keeps_its_mark() -> None:
    trace = ROOMS.replace("(budget)", "(rate)").replace("rate 240 EUR", "rate 140 EUR")  # within <=150
    payload = read_evidence(trace, ROOMS_GOAL).text()
    assert _rows(payload)["R03"].split(" ")[2] == "140!"
    assert read_evidence(payload, ROOMS_GOAL).rows["R03"].reason == "price"


def test_wanted_words_speak_only_of_the_families_that_have_them() -> None:
    trace = ("H1 costs 100 USD, 2 km out, with a gym; it passes. H2 costs 120 USD, 3 km out, with a spa; it "
             "is ruled out on amenity. H3 costs 90 USD, 1 km out, with a gym; it passes.\n"
             "F1 costs 300 USD, cabin economy; it is ruled out on cabin. F2 costs 500 USD, cabin business; it "
             "passes. F3 costs 450 USD, cabin business; it passes.")
    goal = "Constraints: hotel amenity gym; cabin business."
    payload = compress_handoff(trace, goal, "extract-rules").payload_text
    assert "out:" not in payload  # each reason is a wanted word its row lacks
    back = read_evidence(payload, goal).rows
    assert back["H2"].reason == "hotel amenity" and back["F1"].reason == "cabin"
    assert applying([Wanted("cabin", ("business",))], [["gym"], ["spa"]]) == []


def test_clauses_of_bare_label_words_go_and_values_stay() -> None:
    trace = "\n".join(f"Room R0{i}: seats {6 + 2 * i} seats; rate {50 + 10 * i} EUR; walk {100 * i} m.\n"
                      f"R0{i} capacity check: {6 + 2 * i} seats, pass.\nR0{i} hourly rate check: {50 + 10 * i} EUR, "
                      f"pass.\nR0{i} verdict: pass." for i in range(1, 5))
    payload = read_evidence(trace, "A room with a capacity of at least 6 seats, at most 200 EUR an hour.").text()
    assert "capacity" not in payload.split("\n", 1)[1]
    assert "hourly" in _rows(payload)["R01"]  # a word that says what a price is per may be a value: it stays
    kept = read_evidence(trace, "A room for at least 6 seats at most 200 EUR an hour.").text()
    assert "capacity" in _rows(kept)["R01"]  # a word that labels nothing the goal or the table knows stays
    facts = [Fact(f"R0{i}", "rate", f"{50 + 10 * i} EUR") for i in range(1, 5)]
    assert audit(payload, facts, trace=trace).recall == 1.0


def test_violates_reads_numbers_and_clock_times() -> None:
    assert violates("9.8", "<=8") and not violates("8", "<=8") and violates("40", ">=48")
    assert violates("14:00", "==15:00") and not violates("09:00", "<=10:00") and violates("11:00", "<=10:00")
    assert not violates("abc", "<=8") and not violates("9", "8")
    parsed = read_constraint_line("constraints: region == us-east; amenity contains pool; price <= 300 USD")
    assert [w.name for w in wanted(parsed)] == ["region", "amenity"]  # a bound with a number is no wanted word


def test_the_earlier_form_with_a_verdict_column_is_still_read() -> None:
    old = "id | price night USD <=400 | distance km | other | verdict\nH1 180 1.2 gym ok\nH2 450 - spa out"
    parsed = parse_compact(old)
    assert parsed is not None and [r.verdict for r in parsed[0]] == ["pass", "eliminated"]
    assert expand(old) == ("H1: price night 180 USD distance 1.2 km gym | pass\n"
                           "H2: price night 450 USD spa | eliminated (price night)")


def test_every_dev_style_round_trips_through_the_new_form() -> None:
    for domain in DOMAINS:
        for style in DEV_STYLES:
            sample = generate(style, domain, seed=11)
            payload = read_evidence(sample.trace, sample.goal).text()
            assert "| verdict" not in payload and " ok\n" not in payload
            again = read_evidence(payload, sample.goal)
            assert audit(again.labelled_text(), sample.facts).recall == 1.0, (domain.name, style)
            verdicts = {r.id: r.verdict for r in read_evidence(sample.trace, sample.goal).rows.values()}
            assert {r.id: r.verdict for r in again.rows.values()} == verdicts


def test_a_value_that_is_its_columns_bound_is_written_as_equals_and_read_back() -> None:
    trace = "\n".join(f"Room R{i}: {s} seats; rate {r} EUR; free from {t}. R{i} verdict: {v}."
                      for i, (s, r, t, v) in enumerate([(8, 90, "9 am", "pass"), (12, 150, "09:00", "pass"),
                                                        (10, 120, "11:00", "eliminated"), (8, 70, "9:00", "pass")]))
    goal = "A room for at least 8 seats, at most 150 EUR, starting at 09:00."
    payload = read_evidence(trace, goal).text()
    rows = {line.split(" ")[0]: line.split(" ") for line in payload.split("\n") if line[:1] == "R"}
    assert rows["R0"][1:4] == ["=", "90", "="] and rows["R1"][1:4] == ["12", "=", "="]
    assert rows["R2"][3] == "11:00" and "==09:00" in payload and tokens.count(" =") == 1  # times as written
    facts = [Fact("R0", "seats", "8 seats"), Fact("R1", "rate", "150 EUR"), Fact("R3", "start", "9 am"),
             Fact("R2", "verdict", "eliminated")]
    assert audit(payload, facts, trace=trace).recall == 1.0 and audit(payload, [], trace=trace).invented == []
    back = read_evidence(payload, goal).rows
    assert "8 seats" in back["R0"].evidence and "09:00" in back["R3"].evidence and back["R2"].reason


def test_a_number_below_one_drops_its_leading_zero_and_reads_back() -> None:
    trace = "\n".join(f"Supplier S{i}: unit price {p} EUR; defect rate {d}%. S{i} verdict: pass."
                      for i, (p, d) in enumerate([(4.5, 0.8), (0.95, 1.2), (3.1, 0.25)]))
    payload = read_evidence(trace, "A supplier with unit price at most 9 EUR.").text()
    rows = {line.split(" ")[0]: line.split(" ") for line in payload.split("\n") if line[:1] == "S"}
    assert rows["S0"][2] == ".8" and rows["S1"][1] == ".95" and rows["S2"][2] == ".25"  # never scaled
    assert "EUR <=9" in payload and "/100" not in payload
    assert tokens.count(" .8") < tokens.count(" 0.8")
    facts = [Fact("S0", "defect rate", "0.8%"), Fact("S1", "unit price", "0.95 EUR"), Fact("S2", "defects", "0.25%")]
    assert audit(payload, facts, trace=trace).recall == 1.0 and audit(payload, [], trace=trace).invented == []


def test_the_one_wanted_code_is_written_as_equals_and_read_back() -> None:
    trace = "\n".join(f"Supplier S{i}: unit price {p} EUR; certification {c}. S{i} verdict: {v}."
                      for i, (p, c, v) in enumerate([(4.5, "ISO-9001", "pass"), (3.5, "ISO-14001", "eliminated"),
                                                     (6.0, "ISO-9001", "pass"), (12.0, "ISO-9001", "eliminated")]))
    goal = "Choose a supplier certified ISO-9001, unit price at most 9 EUR."
    payload = read_evidence(trace, goal).text()
    rows = {line.split(" ")[0]: line.split(" ") for line in payload.split("\n") if line[:1] == "S"}
    # a row that is out writes it "="; a passing one not at all (it meets the header's limit)
    assert "certified == ISO-9001" in payload and rows["S3"][-2] == "=" and "ISO-14001" in rows["S1"]
    assert rows["S0"] == ["S0", "4.5", "+"]
    facts = [Fact("S0", "certification", "ISO-9001"), Fact("S2", "certification", "ISO-9001"),
             Fact("S1", "certification", "ISO-14001"), Fact("S3", "certification", "ISO-9001")]
    assert audit(payload, facts, trace=trace).recall == 1.0
    back = read_evidence(payload, goal).rows
    assert "ISO-9001" in back["S0"].evidence and "ISO-9001" in back["S3"].evidence
    assert back["S1"].reason == "certified"
    two = read_evidence(trace, goal + " Region us-east.").text()  # two wanted words: none is written "="
    assert " = " not in two.replace("==", "")


def test_a_two_word_goal_label_leaves_the_rows_but_a_value_after_a_label_stays() -> None:
    rows = [("F1", 89, "night", "premium economy"), ("F2", 502, "morning", "business"),
            ("F3", 433, "night", "premium economy"), ("F4", 120, "evening", "economy")]
    trace = "\n".join(f"Flight {i}: fare {p} USD; departure window {w}; cabin {c}; facilities spa "
                      f"{'pool' if p > 200 else 'bar'}. {i} verdict: pass." for i, p, w, c in rows)
    goal = "Constraints: departure window night; cabin premium economy."
    payload = read_evidence(trace, goal).text()
    lines = {line.split(" ")[0]: line for line in payload.split("\n") if line[:1] == "F"}
    assert "window" not in lines["F1"] and "departure" not in lines["F1"]  # "departure window": one label
    assert "premium economy" in lines["F1"] and "spa" in lines["F2"]  # a value after a label stays
    facts = [Fact(i, "cabin", c) for i, _, _, c in rows] + [Fact(i, "window", w) for i, _, w, _ in rows]
    facts += [Fact("F2", "facilities", "spa, pool")]
    assert audit(payload, facts, trace=trace).recall == 1.0


def test_a_model_that_reads_a_compact_payload_is_told_how_and_others_are_not() -> None:
    from relaykit.bench.relay.booker import BOOKER_SYSTEM, booker_messages
    from relaykit.handoff import READING_GUIDE, reading_guide

    payload = read_evidence(ROOMS, ROOMS_GOAL).text()
    assert reading_guide(payload) == READING_GUIDE and reading_guide(ROOMS) is None
    for sign in ("`+` passed", "`-` eliminated", "`=`", "`?`", "`out:REASON`", "`constraints:`", "`note:`"):
        assert sign in READING_GUIDE
    goal = SimpleNamespace(text=ROOMS_GOAL)  # booker_messages reads only the goal's text
    compact, plain = booker_messages(goal, payload), booker_messages(goal, ROOMS)
    assert compact[0]["content"] == f"{BOOKER_SYSTEM}\n\n{READING_GUIDE}" and plain[0]["content"] == BOOKER_SYSTEM
    assert payload in compact[1]["content"]


def test_a_word_that_can_label_a_price_is_kept_where_it_is_a_value() -> None:
    # "night" says what a price is per ("$180 a night"), but here it is a departure window: a lost fact once
    flights = "\n".join([
        "Flight Q1: carrier Skyway; departure window night; cabin economy; price 92 USD. Q1 verdict: eliminated.",
        "Flight Q2: carrier Jetline; departure window morning; cabin premium; price 410 USD. Q2 verdict: pass.",
        "Flight Q3: carrier Skyway; departure window night; cabin premium; price 388 USD. Q3 verdict: eliminated.",
        "Flight Q4: carrier Aerio; departure window evening; cabin economy; price 120 USD. Q4 verdict: eliminated.",
    ])
    piped = "\n".join(["Q1 | Skyway | night | economy | USD 92 | NO-GO window", "Q2 | Jetline | morning | premium | "
                       "USD 410 | OK", "Q3 | Skyway | night | premium | USD 388 | NO-GO window",
                       "Q4 | Aerio | evening | economy | USD 120 | NO-GO window"])
    goal = "A flight with departure window morning, cabin premium, at most 450 USD."
    facts = [Fact(q, "departure window", w) for q, w in (("Q1", "night"), ("Q2", "morning"), ("Q3", "night"))]
    for trace in (flights, piped):
        handoff = compress_handoff(trace, goal, method="extract-rules")
        assert "night" in _rows_of(handoff.payload_text, "Q1") and "night" in _rows_of(handoff.payload_text, "Q3")
        assert audit(handoff, facts, trace=trace).recall == 1.0


def _rows_of(payload: str, identifier: str) -> str:
    return next(line for line in payload.split("\n") if line.startswith(identifier + " "))
