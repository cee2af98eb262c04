"""The compact table's short header (issue 12, ninth wave): columns by their unit, label and bound, separated by
spaces like the row cells under them; the long ``id | ...`` form where a column needs more words."""

from relaykit import tokens
from relaykit.handoff import Fact, audit, compress_handoff, read_evidence
from relaykit.handoff.compact_header import header_cells, short_header, with_constraint
from relaykit.handoff.compact_read import expand, is_compact, parse_compact

HOTELS = "\n".join(
    f"HT0{i}: price {p} USD; distance from the centre {d} km; star rating {s} stars; amenities {a}. HT0{i} {v}."
    for i, (p, d, s, a, v) in enumerate([(180, 2.1, 4, "gym, pool", "passes"), (320, 5.2, 3, "pool", "fails"),
                                         (150, 9.1, 5, "spa, pool", "fails"), (210, 1.4, 2, "wifi", "fails")], 1))
HOTEL_GOAL = "Find a hotel with a pool under 300 USD, no more than 8 km from the centre."


def test_a_header_of_one_word_columns_is_written_like_its_rows() -> None:
    payload = compress_handoff(HOTELS, HOTEL_GOAL, "extract-rules").payload_text
    lines = payload.split("\n")
    # no bar between cells (one token each), the one constraint no column states as the last words
    assert lines[0] == "id USD <=300 km <=8 stars amenities contains pool"
    # HT01 passed, so it has the pool the header wants: it need not write it (the reader gives it back)
    assert lines[1:] == ["HT01 180 2.1 4 gym +", "HT02 320 5.2 3 pool -", "HT03 150 9.1 5 spa pool -",
                         "HT04 210 1.4 2 wifi -"]
    long = "id | USD <=300 | km <=8 | stars | amenities contains pool\n" + "\n".join(lines[1:])
    assert tokens.count(payload) <= tokens.count(long) - 4
    # read back as the long form reads: units, bounds, derived reasons, the wanted word
    assert expand(payload) == expand(long)
    rows = read_evidence(payload, HOTEL_GOAL).rows
    # "amenities": the goal's "amenity" spelt in one token; names are compared as singular words
    assert rows["HT02"].reason == "price" and rows["HT03"].reason == "distance" and rows["HT04"].reason == "amenities"
    facts = [Fact("HT03", "distance", "9.1 km"), Fact("HT04", "stars", "2 stars"), Fact("HT02", "price", "320 USD"),
             Fact("HT01", "verdict", "pass")]
    assert audit(payload, facts, trace=HOTELS).recall == 1.0


def test_header_cells_read_both_forms_alike() -> None:
    short = "id premium GBP <=125 excess GBP <=1000 % >=90 network == national"
    assert header_cells(short) == ["premium GBP <=125", "excess GBP <=1000", "% >=90", "network == national"]
    assert header_cells("id | premium GBP <=125 | % >=90 | network == national") == [
        "premium GBP <=125", "% >=90", "network == national"]
    assert header_cells("id | price | verdict") == ["price"]  # the earlier form
    # a column ends at its unit or its bound: labels go with the unit after them
    assert header_cells("id seats >=8 starting ==10:00 walk distance m | work mode == hybrid") == [
        "seats >=8", "starting ==10:00", "walk distance m", "work mode == hybrid"]
    for no in ("id", "id <=5 USD", "id USD <=5 <=6", "HT01 180 +", "identity check passed", "id USD - 5"):
        assert header_cells(no) is None, no


def test_the_long_form_stays_where_the_short_one_would_read_otherwise() -> None:
    assert short_header(["USD <=300", "km <=8", "stars"]) == "id USD <=300 km <=8 stars"
    assert short_header(["premium GBP <=125", "walk distance m"]) == "id premium GBP <=125 walk distance m"
    # a label-only column before another: its words would join the next column
    assert short_header(["departure", "USD <=300"]) is None
    assert short_header(["USD <=300", "departure"]) == "id USD <=300 departure"  # the last column: no doubt
    assert short_header(["check in time"]) is None and short_header(["other region"]) is None
    assert short_header(["walk very long distance m"]) is None  # three label words: the bars say it better
    assert short_header([]) is None
    # a constraint joins as the last words only when it reads back as the same cell
    assert with_constraint("id USD <=300", "region == us-east") == "id USD <=300 region == us-east"
    assert with_constraint("id USD <=300", "work mode == hybrid") is None
    assert with_constraint("id USD <=300", "region == us east") is None
    assert with_constraint("id | USD <=300", "region == us-east") is None
    assert with_constraint("id USD <=300 | a == b", "region == us-east") is None


def test_a_goal_constraint_of_two_words_follows_a_bar() -> None:
    trace = "\n".join(f"CA0{i}: salary {s} USD, {y} years of experience, location {m}. CA0{i} {v}."
                      for i, (s, y, m, v) in enumerate([(90000, 5, "hybrid", "passes"), (95000, 6, "remote", "fails"),
                                                       (160000, 8, "hybrid", "fails")], 1))
    payload = compress_handoff(trace, "Hire an engineer with at least 4 years of experience, work mode hybrid, for "
                                      "no more than 150000 USD.", "extract-rules").payload_text
    header = payload.split("\n")[0]
    assert header.startswith("id USD <=150000 years >=4 | work mode == hybrid"), header
    parsed = parse_compact(payload)
    assert parsed is not None and [r.verdict for r in parsed[0]] == ["pass", "eliminated", "eliminated"]


def test_a_trace_that_starts_with_id_is_read_as_a_table_only_when_every_line_fits() -> None:
    trace = "id check first.\nHT01 costs 180 USD and passes.\nHT02 costs 320 USD and fails."
    assert not is_compact(trace) and parse_compact(trace) is None
    table = read_evidence(trace, "Find a hotel under 300 USD.")
    assert table.rows["HT01"].verdict == "pass" and table.rows["HT02"].verdict == "eliminated"



def test_a_rate_adjective_before_a_label_only_qualifies_it_but_one_at_a_clause_end_may_be_a_value() -> None:
    rows = [("GV01", "4.10", "99.9", "passes"), ("GV02", "7.20", "99.0", "fails"), ("GV03", "3.30", "99.0", "fails")]
    trace = "\n".join(f"{i}: rate {p} USD; {'uptime ' if i == 'GV01' else ''}SLA {s}%. {i} {v}."
                      for i, p, s, v in rows)
    # the reasons' words are left over once the row holds both values ("hourly" of "hourly rate")
    trace += "\nRuled out: GV02 (hourly rate and uptime SLA), GV03 (uptime SLA)."
    goal = "A GPU vendor with an SLA of at least 99.5% and a rate below 6.8 USD per hour."
    payload = compress_handoff(trace, goal, "extract-rules").payload_text
    assert "hourly" not in payload and "uptime" not in payload, payload
    # a rate word last in its clause may say how something is billed: it stays
    billed = compress_handoff(trace.replace("SLA 99.0%.", "SLA 99.0%; billed monthly."), goal,
                              "extract-rules").payload_text
    assert billed.count("monthly") == 2, billed


def test_a_rate_adjective_alone_is_a_label_where_it_stands_next_to_a_price_of_its_family() -> None:
    rows = [("GV01", "hourly rate 4.10 USD", "passes"), ("GV02", "rate 7.20 USD", "fails"),
            ("GV03", "rate 8.30 USD", "fails")]
    trace = "\n".join(f"{i}: {p}; region us-east. {i} {v}." for i, p, v in rows)
    trace += "\nRuled out: GV02 (hourly rate), GV03 (hourly rate)."
    goal = "A GPU vendor in region us-east under 6.8 USD per hour."
    assert "hourly" not in compress_handoff(trace, goal, "extract-rules").payload_text
    # never next to a price here: "hourly" may say how it is billed
    alone = trace.replace("hourly rate 4.10", "rate 4.10").replace("(hourly rate)", "(rate) hourly")
    assert "hourly" in compress_handoff(alone, goal, "extract-rules").payload_text
