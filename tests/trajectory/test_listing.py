"""An older step's observation cut to its listed items (relaykit.trajectory.listing) and its place in stage 1."""

from relaykit.trajectory import compress_trajectory, parse, validate
from relaykit.trajectory.factwords import FactWords, fact_items
from relaykit.trajectory.listing import LISTING, listed_step, take_listing
from relaykit.trajectory.plan import Cost, Masker, TrajectorySettings

KITCHEN = ("You are in the kitchen. In one part of the room you see a stove. There is also an oven. You also see a "
           "fridge that is closed. In another part of the room you see a counter, that has nothing on it. In one "
           "part of the room you see a kitchen cupboard that is closed. There is also a cutlery drawer that is "
           "closed. You also see a trash can that is closed. In another part of the room you see a dishwasher "
           "that is closed. To the West you see the pantry.")


def rooms() -> list[dict]:
    msgs = [{"role": "system", "content": "You are an agent in a text environment. Reply with one action."},
            {"role": "user", "content": "Put the objects away."},
            {"role": "assistant", "content": "move east"}, {"role": "user", "content": KITCHEN}]
    for thing in ("teapot", "soap", "tomato", "spoon"):
        msgs += [{"role": "assistant", "content": f"take {thing}"},
                 {"role": "user", "content": f"You take the {thing}."}]
    return msgs


def test_listed_step_keeps_the_items_within_the_room_counted_exactly() -> None:
    t = parse(rooms())
    masker, cost = Masker(t, TrajectorySettings()), Cost(t.form, "o200k_base")
    step = t.steps[0]
    for room in (30, 45, 60):
        short = listed_step(step, room, cost, masker)
        assert short is not None and cost.step(short) <= room
        content = short.observation[0]["content"]
        assert "listed: " in content and "oven" in content and "is closed" not in content
        assert short.action == step.action
    assert "kitchen cupboard" in listed_step(step, 45, cost, masker).observation[0]["content"]
    assert listed_step(step, 8, cost, masker) is None  # not even the bare marker and one item


def test_listed_step_leaves_a_user_request_after_a_tool_result_alone() -> None:
    msgs = [{"role": "system", "content": "s"}, {"role": "user", "content": "task"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "look", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "short"},
            {"role": "user", "content": KITCHEN},
            {"role": "assistant", "content": "done"}, {"role": "user", "content": "ok"}]
    t = parse(msgs)
    masker, cost = Masker(t, TrajectorySettings()), Cost(t.form, "o200k_base")
    short = listed_step(t.steps[0], 30, cost, masker)
    assert short is None or short.observation[1]["content"] == KITCHEN


def test_take_listing_shortens_the_best_step_that_does_not_fit_whole() -> None:
    t = parse(rooms())
    masker, cost = Masker(t, TrajectorySettings()), Cost(t.form, "o200k_base")
    present = {s.index: s for s in t.past}
    order = [0, 4, 3, 2, 1]  # the listing ranked first, too big to go whole
    room = 40
    chosen: dict = {}
    left = take_listing(order, chosen, present, room, cost, masker, 1.0)
    assert left is not None and left >= 0 and list(chosen) == [0]
    assert chosen[0].observation[0]["content"].startswith(LISTING.split("{")[0])
    assert sum(cost.step(s) for s in chosen.values()) == room - left
    assert take_listing(order, {}, present, 10, cost, masker, 1.0) is None


def test_fact_words_count_the_items_of_a_listing() -> None:
    t = parse(rooms())
    masker, cost = Masker(t, TrajectorySettings()), Cost(t.form, "o200k_base")
    short = listed_step(t.steps[0], 60, cost, masker)
    assert short is not None
    assert {"kitchen cupboard", "cutlery drawer"} <= set(fact_items(short))
    assert FactWords(frozenset()).step(short).keys() >= {"cupboard", "cutlery", "drawer"}


def test_a_budget_keeps_an_older_listing_shortened_instead_of_dropping_it() -> None:
    msgs = rooms()
    full = compress_trajectory(msgs, method="agora", budget=10**6, dropped="placeholder")
    kept = []
    for budget in range(full.accounting.tokens_in // 3, full.accounting.tokens_in, 4):
        out = compress_trajectory(msgs, method="agora", budget=budget, dropped="placeholder")
        assert out.accounting.tokens_out <= budget and not validate(out.messages)
        kept += [m["content"] for m in out.messages if "listed: " in str(m.get("content"))]
    assert any("kitchen cupboard" in c for c in kept)


def test_take_listing_gives_a_listing_at_most_its_cap_however_much_room_is_left() -> None:
    # a huge listing under a large budget: packing every item into the room left was quadratic in the items
    # (a 1.4 MB tool result under a 30% budget ran for over 10 minutes)
    from relaykit.trajectory.listing import LISTING_MAX_TOKENS

    huge = " ".join(f"There is a box{i} and a crate{i} here." for i in range(3000))
    msgs = rooms()
    msgs[3] = {"role": "user", "content": huge}
    t = parse(msgs)
    masker, cost = Masker(t, TrajectorySettings()), Cost(t.form, "o200k_base")
    present = {s.index: s for s in t.past}
    chosen: dict = {}
    room = 10 * LISTING_MAX_TOKENS
    left = take_listing([0, 1, 2, 3, 4], chosen, present, room, cost, masker, 1.0)
    assert left is not None and 0 in chosen
    assert cost.step(chosen[0]) <= LISTING_MAX_TOKENS + 8 < cost.step(present[0])


def test_a_listing_too_long_for_its_room_keeps_the_siblings_of_what_a_later_action_named() -> None:
    hall = ("You are in the hall. You see a lamp, a rug, a vase, a clock, a mirror, a shelf, a candle and a basket. "
            "Nothing else here looks useful to you at all, as far as you can tell from where you stand now. "
            "On the table: a red key and a blue key.")
    msgs = [{"role": "system", "content": "You are an agent. Reply with one action."},
            {"role": "user", "content": "Open the chest."},
            {"role": "assistant", "content": "look"}, {"role": "user", "content": hall},
            {"role": "assistant", "content": "wait"}, {"role": "user", "content": "Time passes."},
            {"role": "assistant", "content": "take red key"}, {"role": "user", "content": "You take the red key."}]
    t = parse(msgs)
    masker, cost = Masker(t, TrajectorySettings()), Cost(t.form, "o200k_base")
    short = listed_step(t.steps[0], 30, cost, masker)
    assert short is not None
    content = short.observation[0]["content"]
    assert "blue key" in content and "basket" not in content  # beside the key taken, though listed last
