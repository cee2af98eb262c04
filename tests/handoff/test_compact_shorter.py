"""The compact table's shorter forms (issue 12): a family's id prefix stated once in its header (rows write their
digits alone, every reader gets the whole ids back), no category-label cell beside columns, and a bound's own
words left out of the rows, decimals written in tenths or hundredths."""

from relaykit import tokens
from relaykit.handoff import Fact, audit, compress_handoff, invented_values, read_evidence
from relaykit.handoff.compact_read import parse_compact, with_whole_ids
from relaykit.handoff.compact_rules import HOURS, SCALES, Scaling, bound_words, cell_cost, id_prefix, scaled, unscaled
from relaykit.handoff.schema import Constraint

TRACE = """Vendor GV01: rate 4.10 USD; memory 96 GB; region us-east. GV01 verdict: pass.
Vendor GV02: rate 6.60 USD; memory 141 GB; region eu-central. GV02 verdict: eliminated (region).
Vendor GV03: rate 7.50 USD; memory 24 GB; region us-east. GV03 verdict: eliminated (rate, memory).
Vendor GV10: rate 3.20 USD; memory 48 GB; region us-east. GV10 verdict: pass."""
GOAL = "A GPU vendor in region us-east with at least 48 GB and a rate below 6.8 USD."


def test_id_prefix_is_what_every_id_shares_before_its_digits() -> None:
    assert id_prefix(["GV01", "GV02", "GV10"]) == "GV" and id_prefix(["VND-1", "VND-22"]) == "VND-"
    assert id_prefix(["GV01", "GX02"]) == "" and id_prefix(["GV01", "GV"]) == "" and id_prefix(["01", "02"]) == ""


def test_rows_write_digits_under_a_header_that_states_the_prefix_and_read_back_whole() -> None:
    payload = compress_handoff(TRACE, GOAL, "extract-rules").payload_text
    lines = payload.split("\n")
    header = next(line for line in lines if line.startswith("id "))
    assert header.startswith("id GV | ") and "GV01" not in payload
    assert [line.split(" ")[0] for line in lines[lines.index(header) + 1:]] == ["01", "02", "03", "10"]
    parsed = parse_compact(payload)
    assert parsed is not None and [r.id for r in parsed[0]] == ["GV01", "GV02", "GV03", "GV10"]
    assert [r.verdict for r in parsed[0]] == ["pass", "eliminated", "eliminated", "pass"]
    whole = with_whole_ids(payload)
    assert "\nGV10 " in whole and "id | " in whole and parse_compact(whole) == parsed
    assert tokens.count(payload) < tokens.count(whole)  # the point of it
    facts = [Fact("GV10", "rate", "3.20 USD"), Fact("GV02", "region", "eu-central"), Fact("GV03", "verdict", "fail")]
    assert audit(payload, facts, trace=TRACE).recall == 1.0
    assert invented_values(payload, TRACE, GOAL) == []  # a row's digits are an id, not a value
    assert set(read_evidence(payload, GOAL).rows) == {"GV01", "GV02", "GV03", "GV10"}


def test_families_whose_ids_differ_before_the_digits_keep_whole_ids() -> None:
    trace = TRACE.replace("GV03", "GV-03")  # one family (GV), two spellings before the digits
    payload = compress_handoff(trace, GOAL, "extract-rules").payload_text
    assert "GV-03" in payload and "GV10" in payload and "id | " in payload
    parsed = parse_compact(payload)
    assert parsed is not None and [r.id for r in parsed[0]] == ["GV01", "GV02", "GV-03", "GV10"]


def test_a_row_that_is_not_digits_under_a_prefix_header_is_not_a_compact_table() -> None:
    assert parse_compact("id GV | USD\n01 4.1 +\nGV02 6.6 -") is None
    assert parse_compact("id GV | USD\n01 4.1 +\n02 6.6 -") is not None


def test_the_relay_lab_grounds_a_whole_id_in_a_payload_that_writes_digits() -> None:
    from relaykit.bench.relay.booker import grounded

    payload = compress_handoff(TRACE, GOAL, "extract-rules").payload_text
    assert grounded("GV10", payload) and grounded("NONE", payload)
    assert not grounded("GV04", payload) and not grounded("GV1", payload)


def test_category_labels_the_rows_lost_are_not_repeated_in_a_header_with_columns() -> None:
    trace = "\n".join(f"Candidate CA0{i}: salary ask {s} USD; work mode {m}; location {m}. CA0{i} verdict: {v}."
                      for i, (s, m, v) in enumerate([(120000, "remote", "pass"), (99000, "hybrid", "pass"),
                                                     (130000, "onsite", "eliminated"), (90000, "remote", "pass")]))
    payload = compress_handoff(trace, "A candidate asking at most 140000 USD.", "extract-rules").payload_text
    assert "other" not in payload and "hybrid" in payload and "onsite" in payload
    facts = [Fact(f"CA0{i}", "mode", m) for i, m in enumerate(["remote", "hybrid", "onsite", "remote"])]
    assert audit(payload, facts, trace=trace).recall == 1.0
    bare = compress_handoff("H1 region north; H1 passes. H2 region south; H2 is ruled out.", "A hotel.",
                            "extract-rules").payload_text
    assert bare.split("\n")[0].startswith("id H | other")  # no column: the header still says what the rows hold
    parsed = parse_compact(bare)
    assert parsed is not None and [(r.id, r.verdict) for r in parsed[0]] == [("H1", "pass"), ("H2", "eliminated")]


def test_words_of_a_bound_that_touch_its_columns_values_go_but_wanted_values_stay() -> None:
    trace = "\n".join(f"Vendor GV0{i}: {gb} GB cards, {sla}% SLA, {region}, rate {rate} USD. GV0{i} verdict: {v}."
                      for i, (gb, sla, region, rate, v) in enumerate([
                          (80, 99.9, "us-east", 2.5, "pass"), (96, 99.99, "us-east", 3.1, "pass"),
                          (24, 99.5, "eu-west", 1.5, "eliminated"), (141, 99.0, "us-east", 6.2, "eliminated")]))
    goal = "A vendor in region us-east with at least 48 GB per card, an SLA of at least 99.5% and a rate below 6.8 USD."
    payload = compress_handoff(trace, goal, "extract-rules").payload_text
    assert "cards" not in payload and "SLA" not in payload and "GB >=48" in payload and "% >=99.5" in payload
    assert "eu-west" in payload  # a value, never a bound's word
    facts = [Fact("GV02", "region", "eu-west"), Fact("GV03", "sla", "99.0%"), Fact("GV01", "memory", "96 GB")]
    assert audit(payload, facts, trace=trace).recall == 1.0
    back = read_evidence(payload, goal).rows
    assert back["GV03"].verdict == "eliminated" and back["GV03"].reason == "%"  # 99.0 breaks >=99.5
    memory = Constraint(name="gb", operator=">=", threshold="48 GB per card")
    assert bound_words(memory, [memory]) == {"gb", "per", "card"}
    wanted_card = Constraint(name="extras", operator="contains", threshold="cards")
    assert "card" not in bound_words(memory, [memory, wanted_card])  # a value the goal wants never goes


def test_constraints_no_column_states_are_cells_of_the_first_header_and_speak_of_every_family() -> None:
    trace = ("H1 costs 100 USD, 2 km out, with a gym; it passes. H2 costs 120 USD, 3 km out, with a spa; it "
             "is ruled out on amenity. H3 costs 90 USD, 1 km out, with a gym; it passes.\n"
             "F1 costs 300 USD, cabin economy; it is ruled out on cabin. F2 costs 500 USD, cabin business; it "
             "passes. F3 costs 450 USD, cabin business; it passes.")
    goal = "Constraints: hotel amenity gym; cabin business."
    payload = compress_handoff(trace, goal, "extract-rules").payload_text
    first = payload.split("\n")[0]
    assert "constraints:" not in payload and "hotel amenity contains gym" in first and "cabin == business" in first
    assert "out:" not in payload  # each reason is a wanted word its row lacks, in its own family or another
    back = read_evidence(payload, goal).rows
    assert back["H2"].reason == "hotel amenity" and back["F1"].reason == "cabin" and not back["F2"].reason
    parsed = parse_compact(payload)
    assert parsed is not None and len(parsed[0]) == 6  # a constraint cell is no column: rows keep their values
    assert [r.body for r in parsed[0]][:1] == ["100 USD 2 km gym"]


def test_the_constraints_line_stays_where_a_header_cell_could_be_misread() -> None:
    from relaykit.handoff.table import _with_constraints

    assert _with_constraints(["id H | USD <=400", "1 180 +"], ["region == north"]) == [
        "id H | USD <=400 | region == north", "1 180 +"]
    assert _with_constraints([], ["region == north"]) == ["constraints: region == north"]
    assert _with_constraints(["id H | USD", "1 180 +"], ["region == a | b"])[0] == "constraints: region == a | b"
    assert _with_constraints(["id H | check in time", "1 9 +"], ["x == y"])[0] == "constraints: x == y"
    old = "constraints: region == north\nid | seats\nR1 12 north +\nR2 8 south -"
    parsed = parse_compact(old)  # the earlier form: a line of its own
    assert parsed is not None and [r.reason for r in parsed[0]] == ["", "region"]


def test_a_column_of_decimals_is_written_in_tenths_or_hundredths_where_that_costs_fewer_tokens() -> None:
    for value in ("5.1", "99.99", "0.8", "1250", "4.15", "12"):
        shown = value[1:] if value.startswith("0.") else value
        assert cell_cost(value) == tokens.count(" " + shown)  # the estimate is the tokenizer's count
        for scale in SCALES:
            if len(value.partition(".")[2]) <= len(str(scale)) - 1:
                assert float(unscaled(scaled(value, scale), scale)) == float(value)
    tenths, mixed, whole, small = Scaling(), Scaling(), Scaling(), Scaling()
    for v in ("5.1", "2.3", "7.4", "0.9"):
        tenths.add(v)
    for v in ("5.1", "abc"):
        mixed.add(v)
    for v in ("5", "23"):
        whole.add(v)
    for v in ("0.5", "0.8", "0.3"):  # " .5" is two tokens already, as " 5" is: nothing to save
        small.add(v)
    assert tenths.scale() == 10 and tenths.scale("8") == 10 and tenths.scale("4.25") == 100
    assert tenths.scale("4.125") == 1 and tenths.scale("near") == 1  # a bound that cannot be written so
    assert mixed.scale() == 1 and whole.scale() == 1 and small.scale() == 1
    trace = "\n".join(f"Hotel H{i}: {p} USD a night, {d} km from the centre. H{i} verdict: {v}."
                      for i, (p, d, v) in enumerate([(120, 5.1, "eliminated"), (90, 2.3, "pass"), (150, 7.4,
                                                     "eliminated"), (80, 0.9, "pass")], start=1))
    goal = "A hotel under 200 USD at most 4.5 km from the centre."
    payload = compress_handoff(trace, goal, "extract-rules").payload_text
    assert "km/10 <=45" in payload and "\n1 120 51 -" in payload and "\n4 80 9 +" in payload
    facts = [Fact("H1", "distance", "5.1 km"), Fact("H4", "distance", "0.9 km"), Fact("H3", "verdict", "fail")]
    assert audit(payload, facts, trace=trace).recall == 1.0 and invented_values(payload, trace, goal) == []
    back = read_evidence(payload, goal).rows
    assert "5.1 km" in back["H1"].evidence and back["H1"].reason == "distance" and back["H2"].verdict == "pass"


def test_a_label_the_trace_wrote_in_two_words_leaves_the_rows_whole() -> None:
    trace = "\n\n".join(f"id: CA0{i}\nsalary: {s} USD\n{label}: {mode}\nstatus: {v}" for i, (s, label, mode, v) in
                        enumerate([(112000, "work mode", "onsite", "ok"), (134500, "location", "hybrid", "ok"),
                                   (94500, "work mode", "remote", "ok"), (99000, "work mode", "hybrid", "ok")]))
    payload = compress_handoff(trace, "Hire an engineer for no more than 152000 USD.", "extract-rules").payload_text
    assert "mode" not in payload and "work" not in payload and "onsite" in payload  # "work mode:" is one label
    facts = [Fact(f"CA0{i}", "location", m) for i, m in enumerate(["onsite", "hybrid", "remote", "hybrid"])]
    assert audit(payload, facts, trace=trace).recall == 1.0


def test_a_column_of_clock_times_on_the_hour_is_written_in_whole_hours() -> None:
    assert scaled("15:00", HOURS) == "15" and scaled("09:30", HOURS) == "09:30" and unscaled("9", HOURS) == "09:00"
    assert tokens.count(" 15") < tokens.count(" 15:00")
    rows = [(8, "9 am", "pass"), (12, "14:00", "eliminated"), (10, "11:00", "eliminated"), (9, "9:00", "pass")]
    trace = "\n".join(f"Room R{i}: {s} seats; free from {t}. R{i} verdict: {v}." for i, (s, t, v) in enumerate(rows))
    goal = "A room for at least 8 seats, starting at 09:00."
    payload = compress_handoff(trace, goal, "extract-rules").payload_text
    assert "HH ==9" in payload and "\n1 12 14 -" in payload and "\n0 = = +" in payload
    facts = [Fact("R1", "start", "2 pm"), Fact("R2", "start", "11:00"), Fact("R3", "start", "9 am")]
    assert audit(payload, facts, trace=trace).recall == 1.0 and invented_values(payload, trace, goal) == []
    back = read_evidence(payload, goal).rows
    assert "14:00" in back["R1"].evidence and back["R1"].reason and back["R3"].verdict == "pass"
    half = compress_handoff(trace.replace("11:00", "11:30"), goal, "extract-rules").payload_text
    assert "HH" not in half and "11:30" in half  # a time off the hour: every time as it is


def test_a_label_in_most_rows_moves_where_the_others_stand_a_goal_name_in_its_place() -> None:
    rows = [("rate", 290, 2, "bar"), ("rate", 135, 5, "pool, bar"), ("rate", 230, 3, "gym"), ("price", 195, 3, "spa"),
            ("rate", 165, 4, "gym, bar"), ("rate", 270, 3, "wifi, bar")]
    trace = " ".join(f"HT0{i} has a {label} of {p} USD, {s} stars and facilities {a}." for i, (label, p, s, a) in
                     enumerate(rows, start=1))
    goal = "A hotel with a price of at most 305 USD."
    payload = compress_handoff(trace, goal, "extract-rules").payload_text
    assert "rate" not in payload and "price" not in payload.split("\n", 1)[1]  # "price" is the goal's: a label
    assert "facilities" not in payload.split("\n", 1)[1]
    facts = [Fact(f"HT0{i}", "amenities", a) for i, (_, _, _, a) in enumerate(rows, start=1)]
    facts += [Fact(f"HT0{i}", "stars", str(s)) for i, (_, _, s, _) in enumerate(rows, start=1)]
    assert audit(payload, facts, trace=trace).recall == 1.0
    regions = [("us-east", 4.5), ("us-east", 5.1), ("ap-south", 3.5), ("us-east", 2.3), ("us-east", 6.1)]
    cloud = " ".join(f"GV0{i}: {r} {rate} USD. GV0{i} passes." for i, (r, rate) in enumerate(regions, start=1))
    kept = compress_handoff(cloud, "A vendor at most 6.8 USD.", "extract-rules").payload_text
    assert kept.count("us-east") == 4 and "ap-south" in kept  # a value in most rows is no label
