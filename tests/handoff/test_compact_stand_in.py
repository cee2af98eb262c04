"""Issue 12, eighth wave: label words that stand in for a column's label leave the rows, a second bound of a
unit finds its column when the first took the other, and more forms of telling verbs leave the rows. Each
rule keeps what might be a value."""

from relaykit.handoff import Fact, audit, compress_handoff, read_evidence
from relaykit.handoff.compact_rules import filler_form

GOAL = "A GPU vendor in region us-east with at least 48 GB per card and a rate below 6.8 USD."


def _payload(rows: list[tuple[str, str, str, str]], goal: str = GOAL) -> str:
    trace = "\n".join(f"{i} costs {price}, {memory}, region us-east. {i} {verdict}."
                      for i, price, memory, verdict in rows)
    return compress_handoff(trace, goal, "extract-rules").payload_text


def test_a_word_that_takes_turns_with_the_bound_word_after_a_value_names_the_column() -> None:
    rows = [("GV01", "$4.10", "96 GB cards", "passes"), ("GV02", "$5.20", "80 GB memory", "passes"),
            ("GV03", "$3.30", "24 GB cards", "fails"), ("GV04", "$6.40", "141 GB memory", "passes"),
            ("GV05", "$2.50", "48 GB cards", "passes")]
    payload = _payload(rows)
    assert "memory" not in payload and "cards" not in payload
    assert "GB >=48" in payload.split("\n")[0]
    facts = [Fact("GV02", "memory", "80 GB"), Fact("GV04", "memory", "141 GB"), Fact("GV03", "verdict", "fail")]
    assert audit(payload, facts).recall == 1.0


def test_words_that_may_be_values_stay_next_to_the_value() -> None:
    # two words take turns where the bound word stands elsewhere: kinds of memory, not its name
    rows = [("GV01", "$4.10", "96 GB cards", "passes"), ("GV02", "$5.20", "80 GB ecc", "passes"),
            ("GV03", "$3.30", "24 GB hbm", "fails"), ("GV04", "$6.40", "141 GB ecc", "passes"),
            ("GV05", "$2.50", "48 GB hbm", "passes")]
    payload = _payload(rows)
    assert payload.count(" ecc") == 2 and payload.count(" hbm") == 2
    # some rows hold nothing there: an optional feature ("breakfast"), not a label
    rows = [("GV01", "$4.10", "96 GB", "passes"), ("GV02", "$5.20", "80 GB spare", "passes"),
            ("GV03", "$3.30", "24 GB cards", "fails"), ("GV04", "$6.40", "141 GB spare", "passes"),
            ("GV05", "$2.50", "48 GB cards", "passes")]
    assert _payload(rows).count(" spare") == 2
    # beside a word that names any value, a word may be a value too: a cabin, not a fare's label
    fares = [("F01", "premium 300 USD"), ("F02", "price 120 USD"), ("F03", "premium 310 USD"),
             ("F04", "price 130 USD"), ("F05", "price 150 USD")]
    trace = "\n".join(f"{i}: {fare}; 2 stops. {i} passes." for i, fare in fares)
    assert compress_handoff(trace, "A flight under 400 USD.", "extract-rules").payload_text.count("premium") == 2
    # beside what a price is per, a word may be a value too
    stays = [("HT01", "120 USD night"), ("HT02", "150 USD breakfast"), ("HT03", "130 USD night"),
             ("HT04", "140 USD breakfast")]
    trace = "\n".join(f"{i}: {price}; 3 stars. {i} passes." for i, price in stays)
    payload = compress_handoff(trace, "A hotel under 200 USD a night.", "extract-rules").payload_text
    assert payload.count("breakfast") == 2
    # a word the goal wants is never a label
    rows = [("GV01", "$4.10", "96 GB cards", "passes"), ("GV02", "$5.20", "80 GB shared", "passes"),
            ("GV03", "$3.30", "24 GB cards", "fails"), ("GV04", "$6.40", "141 GB shared", "passes")]
    assert _payload(rows, GOAL.replace("per card", "per card, shared")).count(" shared") == 2


INSURANCE = """IP01 premium=£31 excess=£850 network=regional -> FAIL(network)
IP02 premium=GBP 147 excess=GBP 650 network=national -> FAIL(premium)
IP03 premium=52 GBP excess=£1,200 network=national -> FAIL(excess)
IP04 premium=GBP 98 excess=GBP 550 network=national -> PASS"""
POLICY = "Find a policy with a national network, premium at most 125 GBP a month and an excess under 1000 GBP."


def test_a_second_bound_of_a_unit_takes_the_column_the_first_left() -> None:
    # "excess" stands next to both GBP values (after the premium, before the excess); "premium" only before the
    # first: the premium takes the first column, so the excess bound goes to the second
    payload = compress_handoff(INSURANCE, POLICY, "extract-rules").payload_text
    header = payload.split("\n")[0]
    assert "premium GBP <=125" in header and "excess GBP <=1000" in header and "excess <=" not in header
    back = read_evidence(payload, POLICY).rows
    assert back["IP03"].verdict == "eliminated" and back["IP03"].reason == "excess"
    assert back["IP02"].reason == "premium"


def test_a_second_bound_stays_a_cell_where_a_passing_row_breaks_it() -> None:
    trace = INSURANCE.replace("excess=GBP 550", "excess=GBP 1,550")  # IP04 passes beyond 1000 GBP
    payload = compress_handoff(trace, POLICY, "extract-rules").payload_text
    assert "excess <= 1000 GBP" in payload.split("\n")[0]


def test_other_forms_of_telling_verbs_are_filler() -> None:
    assert filler_form("runs") and filler_form("promises") and filler_form("promised")
    assert not filler_form("covered") and not filler_form("heated") and not filler_form("sold")
    trace = ("GV01 runs in us-east, charges $4.10 an hour and promises 99.9% uptime: passes.\n"
             "GV02 runs in eu-west, charges $5.10 an hour and promises 99.5% uptime: fails.")
    payload = compress_handoff(trace, "A GPU vendor in region us-east.", "extract-rules").payload_text
    assert "runs" not in payload and "promises" not in payload and "eu-west" in payload


def test_the_wanted_word_and_its_label_are_written_as_one_equal_sign() -> None:
    trace = ("SP01: unit price 5.95 EUR; certification none. SP01 verdict: pass.\n"
             "SP02: unit price 7.10 EUR; certification none. SP02 verdict: pass.\n"
             "SP03: unit price 6.20 EUR; certification ISO-9001. SP03 verdict: eliminated (certification).\n"
             "SP04: unit price 12.40 EUR; certification none. SP04 verdict: eliminated (price).")
    goal = "Choose a supplier certified none, unit price at most 9.7 EUR."
    payload = compress_handoff(trace, goal, "extract-rules").payload_text
    rows = payload.split("\n")[1:]
    # a passing row meets the header's limit: neither the word nor its label is written (the reader gives
    # the word back); a row that is out writes both as "="
    assert rows[0] == "SP01 5.95 +" and rows[1] == "SP02 7.1 +" and "ISO-9001" in rows[2]
    assert rows[3] == "SP04 12.4 = -"
    back = read_evidence(payload, goal).rows
    assert "none" in back["SP01"].body and "none" in back["SP04"].body and back["SP03"].verdict == "eliminated"
    facts = [Fact("SP01", "certification", "none"), Fact("SP03", "certification", "ISO-9001"),
             Fact("SP04", "certification", "none")]
    assert audit(payload, facts, trace=trace).recall == 1.0


def test_a_header_names_a_unit_column_without_repeating_its_unit_or_another_bound() -> None:
    trace = "\n".join(f"HT0{i}: price {p} USD; distance from the centre {d} km, star rating {s} stars. HT0{i} {v}."
                      for i, (p, d, s, v) in enumerate([(180, 2.1, 4, "passes"), (320, 5.2, 3, "fails"),
                                                        (150, 9.1, 5, "fails"), (210, 1.4, 2, "passes")], 1))
    goal = "Find a hotel under 300 USD, no more than 8 km from the centre."
    header = compress_handoff(trace, goal, "extract-rules").payload_text.split("\n")[0]
    assert header == "id USD <=300 km <=8 stars"


def test_a_noun_that_says_what_the_unit_measures_names_its_only_column() -> None:
    trace = ("FAIL - GV01: $7.30/hour, 48 GB memory, eu-west, 99.9% uptime.\n"
             "PASS - GV02: $5.10/hour, 80 GB, eu-west, 99.95% SLA.\n"
             "FAIL - GV03: $4.20/hour, 24 GB memory, eu-west, 99.0% uptime.\n"
             "PASS - GV04: $6.60/hour, 96 GB, eu-west, 99.99% SLA.")
    goal = "Pick a GPU vendor in region eu-west with at least 48 GB per card, an SLA of at least 99.5%."
    payload = compress_handoff(trace, goal, "extract-rules").payload_text
    assert "memory" not in payload and "uptime" not in payload
    facts = [Fact("GV01", "memory", "48 GB"), Fact("GV03", "sla", "99.0%"), Fact("GV03", "verdict", "fail")]
    assert audit(payload, facts, trace=trace).recall == 1.0
    # two such nouns by one unit may be two attributes: both stay
    mixed = trace.replace("24 GB memory", "24 GB storage")
    payload = compress_handoff(mixed, goal, "extract-rules").payload_text
    assert "memory" in payload and "storage" in payload


def test_a_clause_of_a_price_label_and_what_it_is_per_says_nothing_but_a_lone_rate_word_stays() -> None:
    trace = ("GV01: price per hour 4.10 USD; region us-east. GV01 hourly rate check: pass.\n"
             "GV02: price per hour 7.20 USD; region us-east. GV02 hourly rate check: fail.\n"
             "GV03: price per hour 3.30 USD; region us-east; night.")
    payload = compress_handoff(trace, "A vendor in region us-east under 6.8 USD per hour.", "extract-rules")
    rows = payload.payload_text.split("\n")[1:]
    assert "hourly" not in payload.payload_text and rows[2].endswith(" night ?")


def test_held_and_include_are_telling_verbs() -> None:
    trace = ("SP01: EUR 6.40 per unit; ISO-9001 certification is held; facilities include a lab. SP01 is accepted.\n"
             "SP02: EUR 7.50 per unit; ISO-14001 certification is held. SP02 is rejected.")
    payload = compress_handoff(trace, "A supplier certified ISO-9001.", "extract-rules").payload_text
    assert " held" not in payload and "include" not in payload and "lab" in payload
