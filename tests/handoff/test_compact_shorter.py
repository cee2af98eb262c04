"""The compact table's shorter forms (issue 12): no category-label cell beside columns, a bound's own words left
out of the rows, constraints as header cells; and what stays readable: whole ids, values as written."""

from relaykit.handoff import Fact, audit, compress_handoff, invented_values, read_evidence
from relaykit.handoff.compact_read import parse_compact
from relaykit.handoff.compact_rules import bound_words
from relaykit.handoff.schema import Constraint

TRACE = """Vendor GV01: rate 4.10 USD; memory 96 GB; region us-east. GV01 verdict: pass.
Vendor GV02: rate 6.60 USD; memory 141 GB; region eu-central. GV02 verdict: eliminated (region).
Vendor GV03: rate 7.50 USD; memory 24 GB; region us-east. GV03 verdict: eliminated (rate, memory).
Vendor GV10: rate 3.20 USD; memory 48 GB; region us-east. GV10 verdict: pass."""
GOAL = "A GPU vendor in region us-east with at least 48 GB and a rate below 6.8 USD."


def test_every_row_starts_with_the_whole_id_and_values_are_written_as_they_read() -> None:
    payload = compress_handoff(TRACE, GOAL, "extract-rules").payload_text
    lines = payload.split("\n")
    header = lines[0]
    assert header == "id USD <=6.8 GB >=48 region == us-east"
    assert [line.split(" ")[0] for line in lines[1:]] == ["GV01", "GV02", "GV03", "GV10"]
    # a reader finds every id and value as written: no prefix header, no scaled or hour-only cells
    for written in ("4.1", "6.6", "7.5", "3.2", "96", "141", "24"):
        assert f" {written} " in payload
    assert "/10" not in payload and "/100" not in payload and "HH" not in payload
    parsed = parse_compact(payload)
    assert parsed is not None and [r.id for r in parsed[0]] == ["GV01", "GV02", "GV03", "GV10"]
    assert [r.verdict for r in parsed[0]] == ["pass", "eliminated", "eliminated", "pass"]
    facts = [Fact("GV10", "rate", "3.20 USD"), Fact("GV02", "region", "eu-central"), Fact("GV03", "verdict", "fail")]
    assert audit(payload, facts, trace=TRACE).recall == 1.0
    assert invented_values(payload, TRACE, GOAL) == []
    assert set(read_evidence(payload, GOAL).rows) == {"GV01", "GV02", "GV03", "GV10"}


def test_a_header_that_states_an_id_prefix_is_not_a_compact_table() -> None:
    assert parse_compact("id GV | USD\n01 4.1 +\n02 6.6 -") is None
    assert parse_compact("id | USD\nGV01 4.1 +\nGV02 6.6 -") is not None


def test_the_relay_lab_grounds_a_whole_id_written_in_the_payload() -> None:
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
    assert bare.split("\n")[0].startswith("id | other")  # no column: the header still says what the rows hold
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

    assert _with_constraints(["id | USD <=400", "H1 180 +"], ["region == north"]) == [
        "id | USD <=400 | region == north", "H1 180 +"]
    assert _with_constraints([], ["region == north"]) == ["constraints: region == north"]
    assert _with_constraints(["id | USD", "H1 180 +"], ["region == a | b"])[0] == "constraints: region == a | b"
    assert _with_constraints(["id | check in time", "H1 9 +"], ["x == y"])[0] == "constraints: x == y"
    old = "constraints: region == north\nid | seats\nR1 12 north +\nR2 8 south -"
    parsed = parse_compact(old)  # the earlier form: a line of its own
    assert parsed is not None and [r.reason for r in parsed[0]] == ["", "region"]


def test_decimals_and_clock_times_are_never_scaled() -> None:
    trace = "\n".join(f"Hotel H{i}: {p} USD a night, {d} km from the centre, check-in {t}. H{i} verdict: {v}."
                      for i, (p, d, t, v) in enumerate([(120, 5.1, "15:00", "eliminated"), (90, 2.3, "14:00", "pass"),
                                                        (150, 7.4, "16:00", "eliminated"), (80, 0.9, "15:00", "pass")],
                                                       start=1))
    goal = "A hotel under 200 USD at most 4.5 km from the centre."
    payload = compress_handoff(trace, goal, "extract-rules").payload_text
    assert "km <=4.5" in payload and "\nH1 120 5.1 15:00 -" in payload and "\nH4 80 .9 15:00 +" in payload
    assert "/10" not in payload and "HH" not in payload
    facts = [Fact("H1", "distance", "5.1 km"), Fact("H4", "distance", "0.9 km"), Fact("H3", "verdict", "fail"),
             Fact("H2", "check-in", "2 pm")]
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


def test_a_word_that_repeats_its_columns_unit_and_a_rate_adjective_leave_the_rows() -> None:
    rows = [("rate", 290, 2, "bar"), ("nightly rate", 135, 5, "pool"), ("rate", 230, 3, "gym"),
            ("rate", 195, 3, "bar"), ("rate", 165, 4, "spa")]
    trace = " ".join(f"HT0{i} has a {label} of {p} USD and a stars of {s} stars, facilities {a}."
                     for i, (label, p, s, a) in enumerate(rows, start=1))
    payload = compress_handoff(trace, "A hotel with a bar under 305 USD.", "extract-rules").payload_text
    body = payload.split("\n", 1)[1]
    assert "stars" not in body and "nightly" not in body and "rate" not in body  # the header says them
    facts = [Fact(f"HT0{i}", "stars", f"{s} stars") for i, (_, _, s, _) in enumerate(rows, start=1)]
    facts += [Fact(f"HT0{i}", "price", f"{p} USD") for i, (_, p, _, _) in enumerate(rows, start=1)]
    assert audit(payload, facts, trace=trace).recall == 1.0
    night = compress_handoff("F1 departure window night, price 89 USD. F1 passes. F2 departure window morning, "
                             "price 120 USD. F2 passes. F3 departure window night, price 99 USD. F3 passes.",
                             "A flight under 200 USD.", "extract-rules").payload_text
    assert night.count("night") == 2  # a value, not what a price is per


def test_a_bare_category_in_the_goal_is_a_wanted_word_and_its_reasons_leave_the_rows() -> None:
    from relaykit.handoff.constraints import parse_constraints

    found = parse_constraints("Hire an engineer with at least 4 years of experience, onsite, under 150000 USD.")
    assert ("work mode", "==", "onsite") in [(c.name, c.operator, c.threshold) for c in found]
    assert "pet-friendly" in [c.threshold for c in parse_constraints("A flat, pet-friendly, under 900 USD.")]
    assert [c.operator for c in parse_constraints("A remote-controlled drone under 90 USD.")] == ["<="]  # one word
    trace = "\n".join(f"CA0{i}: salary {s} USD; work mode of {m}. CA0{i} {v}."
                      for i, (s, m, v) in enumerate([(120000, "onsite", "passes"), (99000, "hybrid", "drops out "
                                                     "on location"), (130000, "remote", "is ruled out on location"),
                                                     (90000, "onsite", "passes")], start=1))
    goal = "Hire an engineer, onsite, for no more than 140000 USD."
    payload = compress_handoff(trace, goal, "extract-rules").payload_text
    head, body = payload.split("\n", 1)
    assert "work mode == onsite" in head and "out:" not in payload and "mode" not in body
    back = read_evidence(payload, goal).rows
    assert back["CA02"].verdict == "eliminated" and back["CA02"].reason == "work mode" and not back["CA01"].reason
    facts = [Fact(f"CA0{i}", "mode", m) for i, m in enumerate(["onsite", "hybrid", "remote", "onsite"], start=1)]
    assert audit(payload, [*facts, Fact("CA03", "verdict", "eliminated")], trace=trace).recall == 1.0


def test_in_a_table_of_one_family_a_wanted_word_no_row_has_still_gives_the_reason() -> None:
    trace = "\n".join(f"Supplier SP0{i}: unit price {p} EUR; certification {c}. SP0{i} verdict: eliminated "
                      f"(certification)." for i, (p, c) in enumerate([(7.65, "ISO-9001"), (6.85, "IATF-16949"),
                                                                       (6.5, "ISO-9001")], start=1))
    goal = "Choose a supplier certified ISO-14001, unit price at most 9.7 EUR."
    payload = compress_handoff(trace, goal, "extract-rules").payload_text
    assert "out:" not in payload and payload.count(" -\n") + payload.endswith(" -") == 3
    back = read_evidence(payload, goal).rows
    assert all(back[f"SP0{i}"].reason == "certified" for i in (1, 2, 3))
    facts = [Fact("SP02", "certification", "IATF-16949"), Fact("SP01", "verdict", "eliminated")]
    assert audit(payload, facts, trace=trace).recall == 1.0


def test_other_forms_of_the_verbs_rows_leave_out_leave_too_but_values_stay() -> None:
    trace = ("A rate of 4.10 USD per hour is charged by GV01, which offers 96 GB cards in us-east. GV01 is kept.\n"
             "GV02 is offered at 6.60 USD per hour with 141 GB in eu-central and covered support. GV02 is ruled out.\n"
             "For GV03, 7.50 USD per hour is asked, with 24 GB cards in us-east. GV03 is rejected.")
    goal = "Pick a GPU vendor in region us-east with at least 48 GB and a rate below 6.8 USD per hour."
    payload = compress_handoff(trace, goal, "extract-rules").payload_text
    assert "charged" not in payload and "offered" not in payload and "asked" not in payload
    commute = compress_handoff("AP1: the commute takes 4.2 km. AP1 passes. AP2: the commute takes 8 km. AP2 fails.",
                               "An apartment.", "extract-rules").payload_text
    assert "takes" not in commute and "4.2" in commute  # a verb that only ties a value to its option
    assert "covered" in payload and "eu-central" in payload  # a word that describes an option stays
    facts = [Fact("GV02", "region", "eu-central"), Fact("GV03", "rate", "7.50 USD"), Fact("GV01", "memory", "96 GB")]
    assert audit(payload, facts, trace=trace).recall == 1.0


def test_labels_that_take_turns_before_a_value_leave_the_rows_but_values_after_a_label_stay() -> None:
    labels = ["price", "nightly rate", "price", "rate", "price", "price", "rate", "price"]
    trace = "\n".join(f"Hotel H{i}: {label} {100 + 7 * i} USD; star rating {3 + i % 3} stars; "
                      f"location of {'downtown' if i % 2 else 'airport'} {2 + i}.5 km. H{i} verdict: pass."
                      for i, label in enumerate(labels, start=1))
    payload = compress_handoff(trace, "A hotel.", "extract-rules").payload_text
    body = payload.split("\n", 1)[1]
    assert "price" not in body and "rate" not in body and "rating" not in body and "star" not in body
    assert body.count("downtown") == 4 and body.count("airport") == 4  # a value after a label: never a label
    facts = [Fact(f"H{i}", "area", "downtown" if i % 2 else "airport") for i in range(1, 9)]
    facts += [Fact(f"H{i}", "price", f"{100 + 7 * i} USD") for i in range(1, 9)]
    assert audit(payload, facts, trace=trace).recall == 1.0
    fares = "\n".join(f"F{i}: {'fare' if i % 2 else 'price'} {80 + i} USD. F{i} passes." for i in range(1, 5))
    assert "fare" not in compress_handoff(fares, "A flight.", "extract-rules").payload_text.split("\n", 1)[1]


def test_a_clause_led_by_a_form_of_a_goal_name_loses_that_label() -> None:
    windows = ["night", "morning", "night", "evening"]
    trace = "\n".join(f"Flight F{i}: departs {w}; fare {90 + i} USD. F{i} departs check: {w}, "
                      f"{'pass' if w == 'night' else 'fail'}. F{i} verdict: {'pass' if w == 'night' else 'eliminated'}."
                      for i, w in enumerate(windows, start=1))
    goal = "Constraints: departure window night."
    payload = compress_handoff(trace, goal, "extract-rules").payload_text
    assert "departs" not in payload and payload.count("morning") == 1 and "evening" in payload
    facts = [Fact(f"F{i}", "window", w) for i, w in enumerate(windows, start=1)]
    assert audit(payload, facts, trace=trace).recall == 1.0


def test_a_reason_that_names_the_money_bound_in_other_words_is_the_broken_bound() -> None:
    trace = ("HT01 costs $180, 5.7 km out, with gym. HT01 ✓\n"
             "HT02 costs $320, 2.1 km out, with gym. HT02 ✗ over budget\n"
             "HT03 costs $150, 9.1 km out, with gym. HT03 ✗ too far")
    goal = "Find a hotel with a gym under 300 USD, no more than 8 km from the centre."
    payload = compress_handoff(trace, goal, "extract-rules").payload_text
    assert "out:" not in payload and "budget" not in payload
    back = read_evidence(payload, goal).rows
    assert back["HT02"].verdict == "eliminated" and back["HT02"].reason == "price" and back["HT01"].verdict == "pass"


def test_vague_reasons_and_a_goal_name_after_its_value_leave_the_rows() -> None:
    from relaykit.handoff.compact_rules import vacuous_reason

    assert vacuous_reason("above limit") and vacuous_reason("too high") and vacuous_reason("over the cap")
    assert not vacuous_reason("too far") and not vacuous_reason("premium") and not vacuous_reason("region")
    options = [(120, 450, "", "national", "passes"), (89, 1200, " (above the limit)", "regional", "rejected"),
               (101, 700, "", "national", "passes"), (95, 300, "", "no", "passes")]
    trace = "\n".join(f"* **IP0{i}**: premium {p} GBP; excess {e} GBP{note}; {n} network → {v}"
                      for i, (p, e, note, n, v) in enumerate(options, start=1))
    goal = "Find a policy with a national network, premium at most 125 GBP a month and an excess under 1000 GBP."
    payload = compress_handoff(trace, goal, "extract-rules").payload_text
    body = payload.split("\n", 1)[1]
    assert "out:" not in body and "limit" not in body and body.count("network") == 1  # "no network" keeps it
    back = read_evidence(payload, goal).rows
    assert back["IP02"].verdict == "eliminated" and back["IP02"].reason == "excess,network"  # 1200 > 1000 GBP
    facts = [Fact("IP02", "network", "regional"), Fact("IP02", "excess", "1,200 GBP"),
             Fact("IP01", "network", "national")]
    assert audit(payload, facts, trace=trace).recall == 1.0
