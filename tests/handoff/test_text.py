from relaykit.handoff.text import (
    count_tokens,
    find_quantities,
    last_verdict,
    mentions_elimination,
    parse_quantity,
    split_sentences,
)
from relaykit.tokens import count


def test_sentences_split_at_lines_and_full_stops_but_not_decimals() -> None:
    text = "H01 distance 2.4 km. It passes! Next one?\nF01 price $1,200.50 total. e.g. done"
    assert split_sentences(text) == ["H01 distance 2.4 km.", "It passes!", "Next one?",
                                     "F01 price $1,200.50 total. e.g. done"]


def test_money_is_read_in_every_written_form() -> None:
    forms = ["$182", "182 USD", "USD 182.00", "182.0 usd"]
    values = [find_quantities(f"price {f} per night")[0] for f in forms]
    assert {v.normalised() for v in values} == {"182 USD"}
    assert find_quantities("£150")[0].normalised() == "150 GBP"
    assert find_quantities("cost 2,400 EUR")[0].normalised() == "2400 EUR"


def test_units_and_identifiers() -> None:
    assert [q.normalised() for q in find_quantities("H01 is 1.4 km away, 3km by road, 2 miles, 4-star")] == [
        "1.4 km", "3 km", "2 miles", "4 stars"]
    assert find_quantities("H01 and F-12") == []


def test_numbers_compare_as_numbers() -> None:
    a, b, c = parse_quantity("$180"), parse_quantity("180 USD"), parse_quantity("180.00")
    assert a is not None and b is not None and c is not None
    assert a.same_as(b) and a.same_as(c) and c.same_as(b)
    km, mi = parse_quantity("2 km"), parse_quantity("2 miles")
    assert km is not None and mi is not None and not km.same_as(mi)
    assert parse_quantity("gym") is None and parse_quantity("2 km or 3 km") is None


def test_verdicts_take_the_conclusion() -> None:
    assert last_verdict("H02 distance check: 5.1 km exceeds 3.0 km, fail.") == "fail"
    assert last_verdict("H01 distance check: 2.4 km is at most 3.0 km, pass.") == "pass"
    assert last_verdict("It does not meet the cap") == "fail"
    assert last_verdict("Hotel H01: price 145 USD; stars 3.") is None
    assert mentions_elimination("H02 verdict: eliminated (amenity).") and mentions_elimination("V-2 is ruled out")


def test_long_texts_are_counted_in_chunks() -> None:
    unit = "Hotel H01 has a gym and costs 145 USD per night. "
    text = unit * 8000
    per_unit = count(unit * 3) - count(unit * 2)  # tokens a repeated unit adds
    assert len(text) > 300_000
    assert abs(count_tokens(text) - per_unit * 8000) <= 10
    assert count_tokens("hello world") == count("hello world")
