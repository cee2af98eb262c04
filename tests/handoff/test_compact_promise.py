"""A passing row leaves out the words the header's limits want; the reader gives them back, and only to rows
whose trace gave them (``relaykit.handoff.compact_promise``)."""

from __future__ import annotations

from dataclasses import dataclass

from relaykit.handoff import Fact, audit, compress_handoff
from relaykit.handoff.compact_promise import leave_out, promise
from relaykit.handoff.compact_read import expand, parse_compact
from relaykit.handoff.compact_rules import Wanted
from relaykit.handoff.evidence import read_evidence
from relaykit.handoff.schema import Constraint

GOAL = "Pick a GPU vendor in region eu-west with a rate below 6.8 USD per hour."


def _trace(rows: list[tuple[str, float, str, str]]) -> str:
    return "\n".join(f"Vendor {i}: hourly rate {r} USD" + (f"; region {g}" if g else "") + f". {i} verdict: {v}."
                     for i, r, g, v in rows)


def _bodies(payload: str) -> dict[str, str]:
    parsed = parse_compact(payload)
    assert parsed is not None
    return {row.id: row.body for row in parsed[0]}


def test_passing_rows_leave_out_the_wanted_word_and_read_it_back() -> None:
    trace = _trace([("GV01", 4.1, "eu-west", "pass"), ("GV02", 5.2, "us-east", "eliminated"),
                    ("GV03", 3.3, "eu-west", "pass")])
    handoff = compress_handoff(trace, GOAL, "extract-rules")
    lines = handoff.payload_text.split("\n")
    assert lines == ["id USD <=6.8 region == eu-west", "GV01 4.1 +", "GV02 5.2 us-east -", "GV03 3.3 +"]
    bodies = _bodies(handoff.payload_text)
    assert "eu-west" in bodies["GV01"] and "eu-west" in bodies["GV03"] and "eu-west" not in bodies["GV02"]
    facts = [Fact(i, "region", g) for i, g in (("GV01", "eu-west"), ("GV02", "us-east"), ("GV03", "eu-west"))]
    report = audit(handoff, facts, trace=trace)
    assert report.recall == 1.0 and report.invented == []
    # the reference reader reads the same rows as it reads the trace
    rows = read_evidence(handoff.payload_text, GOAL).rows
    assert rows["GV01"].verdict == "pass" and "eu-west" in rows["GV01"].evidence
    assert rows["GV02"].verdict == "eliminated" and rows["GV02"].reason == "region"


def test_a_passing_row_the_trace_gave_no_word_never_gains_it() -> None:
    # one passing row has the word: it is written there, so the reader gives it to no other row
    trace = _trace([("GV01", 4.1, "eu-west", "pass"), ("GV02", 5.2, "us-east", "eliminated"),
                    ("GV03", 3.3, "", "pass")])
    payload = compress_handoff(trace, GOAL, "extract-rules").payload_text
    assert "GV01 4.1 = +" in payload.split("\n")
    assert "eu-west" in _bodies(payload)["GV01"] and "eu-west" not in _bodies(payload)["GV03"]
    # no passing row has it: the limit goes on a constraints: line, which gives nothing
    trace = _trace([("GV01", 4.1, "", "pass"), ("GV02", 5.2, "us-east", "eliminated"), ("GV03", 3.3, "", "pass")])
    payload = compress_handoff(trace, GOAL, "extract-rules").payload_text
    assert payload.split("\n")[:2] == ["constraints: region == eu-west", "id USD <=6.8"]
    bodies = _bodies(payload)
    assert "eu-west" not in bodies["GV01"] and "eu-west" not in bodies["GV03"]
    assert read_evidence(payload, GOAL).rows["GV02"].reason == "region"


def test_a_limit_of_another_family_is_written_where_only_passing_rows_have_its_word() -> None:
    trace = ("Hotel H01: price 120 USD; amenities gym, pool. H01 verdict: pass.\n"
             "Hotel H02: price 150 USD; amenities gym. H02 verdict: eliminated (amenity).\n"
             "Hotel H03: price 410 USD; amenities pool. H03 verdict: eliminated (price).\n"
             "Flight F01: fare 90 USD; cabin economy. F01 verdict: pass.\n"
             "Flight F02: fare 95 USD; cabin business. F02 verdict: pass.")
    goal = "A hotel with a pool under 400 USD and a flight."
    payload = compress_handoff(trace, goal, "extract-rules").payload_text
    rows = {line.split(" ")[0]: line for line in payload.split("\n")}
    assert "pool" not in rows["H01"].split(" ") and "pool" in rows["H03"].split(" ")  # H03 says it speaks of hotels
    bodies = _bodies(payload)
    assert "pool" in bodies["H01"] and "pool" not in bodies["F01"] and "pool" not in bodies["F02"]
    facts = [Fact("H01", "amenities", "gym, pool"), Fact("H03", "amenities", "pool"), Fact("F02", "cabin", "business")]
    assert audit(payload, facts, trace=trace).recall == 1.0
    assert "pool" not in (expand(payload) or "").split("\n")[-1]
    # only the passing hotel has a pool: it writes it, or nothing would say the limit speaks of hotels
    payload = compress_handoff(trace.replace("410 USD; amenities pool", "410 USD; amenities gym"), goal,
                               "extract-rules").payload_text
    assert "H01 120 gym pool +" in payload.split("\n") and "pool" in _bodies(payload)["H01"]


@dataclass
class _Row:
    body: str
    verdict: str | None


def test_promise_drops_only_what_reads_back() -> None:
    region = Wanted("region", ("eu-west",), True, "eu-west")
    both = [_Row("4.1\x1fUSD eu-west", "pass"), _Row("5\x1fUSD us-east", "eliminated")]
    assert promise([region], [both]).dropped == [[region]]
    # two families: the word only in passing rows would no longer say the limit speaks of this family
    alone = [_Row("4.1\x1fUSD eu-west", "pass")]
    kept = promise([region], [alone, [_Row("90\x1fUSD economy", "pass")]])
    assert kept.dropped == [[], []] and not kept.broken
    # passing rows that all lack the word: the promise is off everywhere
    lacking = promise([region], [[_Row("4.1\x1fUSD", "pass"), _Row("5\x1fUSD us-east", "eliminated")]])
    assert lacking.broken and lacking.dropped == [[]]
    # no passing row at all: nothing to leave out, nothing broken
    out = promise([region], [[_Row("5\x1fUSD us-east", "eliminated")]])
    assert out.dropped == [[]] and not out.broken


def test_leave_out_takes_the_label_of_the_limit_with_its_word() -> None:
    none = Wanted("certified", ("none",), True, "none")
    assert leave_out(["certification", "none", "spare"], [none]) == ["spare"]
    assert leave_out(["certification", "none"], [none], frozenset({"certification"})) == ["certification"]
    assert leave_out(["ISO-9001"], [none]) == ["ISO-9001"]


def test_json_keeps_every_word() -> None:
    trace = _trace([("GV01", 4.1, "eu-west", "pass"), ("GV02", 5.2, "us-east", "eliminated")])
    handoff = compress_handoff(trace, GOAL, "extract-rules", format="json")
    assert isinstance(handoff.payload, dict)
    assert "eu-west" in handoff.payload["options"][0]["evidence"]


def test_limits_that_must_go_on_a_constraints_line_keep_every_word_in_the_rows() -> None:
    trace = _trace([("GV01", 4.1, "eu-west", "pass"), ("GV02", 5.2, "us-east", "eliminated")])
    table = read_evidence(trace, GOAL)
    # a limit with a bar in it cannot be a header cell: all the limits go on a constraints: line
    table.constraints = [*table.constraints, Constraint(name="note", operator="<=", threshold="5 km | 6 km")]
    lines = table.text().split("\n")
    assert lines[0].startswith("constraints: region == eu-west;") and "GV01 4.1 = +" in lines
    assert "eu-west" in _bodies(table.text())["GV01"]
