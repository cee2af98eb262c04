"""Shortening oversized observations so the facts survive, and the budget around it (property tests)."""

import json
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from relaykit import tokens
from relaykit.text import STOPWORDS, words
from relaykit.trajectory import BudgetTooSmall, compress_trajectory, parse, validate
from relaykit.trajectory.budget import minimum_budget
from relaykit.trajectory.digest import action_shapes, block_frequencies, digest, shape
from relaykit.trajectory.parse import PLACEHOLDER, mask_observation
from relaykit.trajectory.shorten import shorten, units

FILLER = st.sampled_from(["nothing happens here", "the room is quiet and dark", "all is well", "you wait a while",
                          "ok", "the wind blows through the open window of the hall"])
FACT = st.one_of(
    st.from_regex(r"ORD-[0-9]{4}", fullmatch=True),
    st.from_regex(r"[a-z]{3,6}_[a-z]{2,4}_[0-9]{4}", fullmatch=True),
    st.from_regex(r"[0-9]{1,3}\.[0-9] kg", fullmatch=True),
    st.sampled_from(["a brass key", "the Red Door", "/var/log/app.log", '"blue sweater"', "$19.99"]))


@st.composite
def observations(draw: st.DrawFn) -> str:
    lines = draw(st.lists(st.one_of(FILLER, FACT.map(lambda f: f"you notice {f} nearby")), min_size=1,
                          max_size=60))
    if draw(st.booleans()):
        return json.dumps({"items": lines, "id": draw(FACT)})
    return draw(st.sampled_from(["\n", ". ", " "])).join(lines)


@settings(max_examples=120, deadline=None)
@given(observations(), st.integers(0, 400))
def test_shorten_never_exceeds_its_bound_and_always_says_it_cut(text: str, max_tokens: int) -> None:
    out = shorten(text, max_tokens)
    assert tokens.count(out) <= max_tokens
    if tokens.count(text) <= max_tokens:
        assert out == text
    elif out:
        assert re.search(r"\[\.\.\. \d+ tokens cut", out)


@settings(max_examples=60, deadline=None)
@given(st.lists(FILLER, min_size=30, max_size=80), FACT, st.integers(0, 29))
def test_a_lone_fact_in_filler_survives(filler: list[str], fact: str, at: int) -> None:
    line = f"The crate {fact} is here."
    text = "\n".join([*filler[:at], line, *filler[at:]])
    room = 3 * tokens.count(line) + 20
    out = shorten(text, room)
    assert tokens.count(out) <= room
    assert set(words(fact)) - STOPWORDS <= set(words(out))  # in a kept line or in the marker's facts


@st.composite
def histories(draw: st.DrawFn) -> tuple[list[dict[str, Any]], int]:
    msgs: list[dict[str, Any]] = [{"role": "system", "content": "You are an agent."},
                                  {"role": "user", "content": "Find the crate and report its weight."}]
    tool = draw(st.booleans())
    for k in range(draw(st.integers(1, 12))):
        obs = draw(observations())
        if tool:
            msgs.append({"role": "assistant", "content": None, "tool_calls": [{
                "id": f"c{k}", "type": "function", "function": {"name": "look", "arguments": json.dumps({"n": k})}}]})
            msgs.append({"role": "tool", "tool_call_id": f"c{k}", "content": obs})
        else:
            msgs += [{"role": "assistant", "content": f"look {k}"}, {"role": "user", "content": obs}]
    budget = draw(st.integers(minimum_budget(parse(msgs)) - 5, minimum_budget(parse(msgs)) + 300))
    return msgs, max(1, budget)


@settings(max_examples=80, deadline=None)
@given(histories(), st.sampled_from(["agora", "floor", "recency", "head-tail", "obs-mask", "truncate"]),
       st.sampled_from(["remove", "placeholder"]))
def test_output_fits_or_budget_too_small_with_the_true_minimum(case: tuple[list[dict[str, Any]], int],
                                                               method: str, dropped: str) -> None:
    msgs, budget = case
    minimum = minimum_budget(parse(msgs))
    try:
        out = compress_trajectory(msgs, method=method, budget=budget, dropped=dropped)
    except BudgetTooSmall as exc:
        assert budget < minimum and exc.minimum == minimum
        return
    assert budget >= minimum  # a feasible budget never raises
    assert out.accounting.tokens_out <= budget and tokens.count_messages(out.messages) == out.accounting.tokens_out
    assert validate(out.messages) == [] and out.messages[:2] == msgs[:2]
    assert out.messages[-2] == msgs[-2]  # the current action is kept


def test_units_split_lines_sentences_and_json_fields() -> None:
    assert units("a\n\nb", 50) == ["a", "b"]
    record = json.dumps({"order_id": "#W1", "items": [{"id": "9"}, {"id": "10"}], "note": "x " * 100})
    pieces = units(record, 10)
    assert len(pieces) > 3 and any('"order_id": "#W1"' in p for p in pieces)
    long_line = "word " * 400
    assert all(tokens.count(p) <= 40 for p in units(long_line, 20))
    ids = " ".join(f"user_{k}_abcdefghij_{k * 7919}" for k in range(60))  # long words: never cut inside one
    assert " ".join(p.strip() for p in units(ids, 8)).split() == ids.split()


def test_digest_ranks_items_shaped_like_the_values_actions_pass() -> None:
    text = "Passengers Ivan Brown, Emma Li; reservations MFRB94, PUNERT, HSR97W, 5BGGWZ"
    df = block_frequencies([text, "Ivan Brown", "Emma Li", "MFRB94"])  # each mentioned once elsewhere
    shapes = action_shapes(['get_reservation_details({"reservation_id": "MFRB94"})'])
    assert shape("5BGGWZ") in shapes and shape("Ivan") not in shapes
    ranked = digest(text, 30, df, actionable=shapes).split(", ")
    assert ranked[:3] == ["MFRB94", "HSR97W", "5BGGWZ"]  # acted on, then its siblings, ahead of the names
    assert digest(text, 12, df).split(", ")[0] in {"Ivan Brown", "Emma Li", "Ivan", "Emma"}  # recurrence alone


def test_a_plain_lower_case_word_has_no_telling_shape() -> None:
    # a shape is character classes and length: "freezer" matched the "kitchen" of "go to kitchen" and ranked ahead of
    # "cupboard" as if shaped like an id the agent passes; plain words and phrases give no shape, ids still do
    shapes = action_shapes(["go to kitchen", "pick up metal pot", 'cancel_order("ORD-1182")', "take W2890"])
    assert shape("freezer") not in shapes and shape("glass jar") not in shapes
    assert shape("ORD-7731") in shapes and shape("W4410") in shapes
    df = block_frequencies(["a cupboard. The cupboard is closed. a freezer. The freezer is closed."])
    text = "a cupboard. The cupboard is closed. a freezer. The freezer is closed."
    assert digest(text, 3, df, actionable=shapes) == "cupboard"  # in the order of the text, no bonus for either


def test_masking_keeps_a_user_turn_that_follows_the_tool_results() -> None:
    msgs = [{"role": "user", "content": "Book it."},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "search", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "many results " * 30},
            {"role": "user", "content": "Now cancel order ORD-1182 instead."}]
    step = parse(msgs).steps[0]
    masked = mask_observation(step, "chat", PLACEHOLDER)
    assert masked.observation[0]["content"] == PLACEHOLDER and masked.observation[1] == msgs[3]
    text = parse([{"role": "user", "content": "go"}, {"role": "assistant", "content": "look"},
                  {"role": "user", "content": "a long room description " * 10}]).steps[0]
    assert mask_observation(text, "chat").observation[0]["content"] == PLACEHOLDER  # text envs: still masked


def test_when_no_part_fits_beside_its_marker_the_marker_still_lists_the_facts() -> None:
    # a tool result too small to keep a field of: a bare marker kept nothing of the order id the next call passes
    text = '{"order_id": 12446, "order_type": "Buy", "status": "Pending", "price": 667.92, "amount": 150}'
    known = {"buy", "667", "92", "150", "price", "amount", "order", "type"}
    for room in range(16, 21):
        out = shorten(text, room, known=known)
        assert tokens.count(out) <= room and "12446" in out and out.startswith("[... 35 tokens cut; kept: ")


def test_a_tight_room_goes_to_facts_before_the_texts_first_and_last_lines() -> None:
    """The first and last lines are kept for their place only when small beside the room (an eighth of it each): in a
    tight room, a closing line without facts ("End of list") cost the room of one more order id."""
    text = "Lookup done\n" + "\n".join(f"ORD-{1000 + k} BAY{k}" for k in range(12)) + "\nEnd of list"
    out = shorten(text, 48)
    assert tokens.count(out) <= 48 and "End of list" not in out
    assert len({k for k in range(12) if f"ORD-{1000 + k}" in out}) >= 5
    roomy = shorten(text, 80)  # with room to spare, both stay: what the text is, how it ended
    assert roomy.startswith("Lookup done\n") and "End of list" in roomy


KITCHEN_LOOK = """This room is called the kitchen. In it, you see:
\tthe agent
\ta substance called air
\ta chair. On the chair is: nothing.
\ta counter. On the counter is: a bowl (containing a red apple, a banana, an orange, a potato), a drawer.
\ta cupboard. The cupboard door is closed.
\ta freezer. The freezer door is closed.
\ta fridge. The fridge door is closed.
\ta glass jar (containing a substance called sodium chloride)
\ta lighter
\ta oven, which is turned off. The oven door is closed.
\ta painting
\ta sink, which is turned off. In the sink is: nothing.
\ta substance called soap
\ta stopwatch, which is deactivated.
\ta stove, which is turned off. On the stove is: nothing.
\ta table. On the table is: a glass cup (containing nothing).
\ta thermometer, currently reading a temperature of 10 degrees celsius
You also see:
\tA door to the bathroom (that is closed)
\tA door to the hallway (that is open)
\tA door to the outside (that is closed)"""


def test_a_kept_reading_has_its_cut_subject_named_first_in_the_marker() -> None:
    """A long line cut into windows can keep its number ("temperature of 10 degrees celsius") and lose the thing that
    reads it ("a thermometer, currently"): the marker then names that thing before the other facts of the cut parts
    (it came last of a dozen, past the room, and the next action picks the thermometer up)."""
    for room in (34, 38):
        out = shorten(KITCHEN_LOOK, room)
        assert tokens.count(out) <= room and "10" in out.split("[...")[0]
        assert "a thermometer" not in out and out.split("kept: ")[1].startswith("thermometer, ")
