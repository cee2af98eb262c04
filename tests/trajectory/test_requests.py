"""A multi-turn user's next request, parsed into the step whose tool results it follows, under a budget."""

import json

from relaykit import tokens
from relaykit.text import words
from relaykit.trajectory import compress_trajectory, parse, validate
from relaykit.trajectory.budget import minimum_budget
from relaykit.trajectory.facts import number_key, pending_items
from relaykit.trajectory.parse import Trajectory, requests_only
from relaykit.trajectory.plan import Masker, TrajectorySettings

REQUEST = ("Now log in to the ticket system as 'mthompson' with password 'securePass123', and create a ticket "
           "titled 'Urgent Flight Issue' with priority 4.")


def call(k: int, name: str, args: dict) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": f"c{k}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]}


def result(k: int, value: dict) -> dict:
    return {"role": "tool", "tool_call_id": f"c{k}", "content": json.dumps(value)}


def multi_turn() -> list[dict]:
    """Book a flight; then the user asks for a ticket; the agent has just logged in (the current step)."""
    trip = {"travel_from": "SFO", "travel_to": "LAX", "travel_date": "2026-10-15", "travel_class": "first"}
    return [{"role": "system", "content": "You are an agent that works by calling tools."},
            {"role": "user", "content": "Book me a first-class flight from SFO to LAX on 2026-10-15 with card "
                                        "travel_card_12345 and token abc123xyz456."},
            call(0, "get_flight_cost", trip), result(0, {"travel_cost_list": [1000.0]}),
            call(1, "book_flight", {"access_token": "abc123xyz456", "card_id": "travel_card_12345", **trip}),
            result(1, {"booking_id": "3426812", "transaction_id": "45451592", "booking_status": True}),
            {"role": "user", "content": REQUEST},
            call(2, "ticket_login", {"username": "mthompson", "password": "securePass123"}),
            result(2, {"success": True})]


def test_a_step_cut_to_its_request_keeps_only_the_users_turn() -> None:
    t = parse(multi_turn())
    request = requests_only(t.steps[1])
    assert request is not None and request.masked and request.messages == ({"role": "user", "content": REQUEST},)
    assert requests_only(t.steps[0]) is None  # no user turn after its result
    assert requests_only(request) is None


def test_a_floor_step_holding_the_users_request_is_cut_to_it_before_it_is_dropped() -> None:
    msgs = multi_turn()
    request_cost = tokens.count_messages([{"role": "user", "content": REQUEST}])
    budget = minimum_budget(parse(msgs)) + request_cost + 4  # the request fits, its call and result do not
    out = compress_trajectory(msgs, method="agora", budget=budget, dropped="placeholder", facts_share=0.0)
    assert out.accounting.tokens_out <= budget and validate(out.messages) == []
    assert {"role": "user", "content": REQUEST} in out.messages  # the ticket's title survives
    assert 1 in out.accounting.masked and any("to the user's request" in n for n in out.accounting.notices)
    with_block = compress_trajectory(msgs, method="agora", budget=budget, dropped="placeholder")
    assert validate(with_block.messages) == [] and "Urgent Flight Issue" in json.dumps(with_block.messages)
    plain = compress_trajectory(msgs, method="recency", budget=budget, dropped="remove")
    assert {"role": "user", "content": REQUEST} not in plain.messages  # the plain baselines stay plain


def test_what_the_user_asked_for_and_no_action_passed_yet_is_pending() -> None:
    t = parse(multi_turn())
    acted: dict[str, int] = {}
    for step in t.steps:
        acted.update(dict.fromkeys(words(step.action_text), step.index))
    pending = pending_items(t.steps[1], acted)
    assert "urgent flight issue" in pending  # quoted, not passed yet
    assert "mthompson" not in pending and "securepass123" not in pending  # the login (a later action) passed them
    assert pending_items(t.steps[0], acted) == frozenset()  # no request in the step


def test_the_facts_block_ranks_what_the_user_asked_for_and_no_action_passed_first() -> None:
    from relaykit.trajectory.facts import rank_items
    from relaykit.trajectory.plan import Masker, TrajectorySettings

    t = parse(multi_turn())
    masker = Masker(t, TrajectorySettings(dropped="placeholder"))
    known = frozenset(words(t.steps[-1].action_text))  # the current step is in every result
    items = rank_items(t.past, len(t.steps), known, masker.frequencies(), masker.actionable(), masker.acted())
    assert items[0] == "Urgent Flight Issue"  # ahead of the ids the calls returned, which recur


LONG = "Off to Rome! Can't wait to explore the ancient wonders and dive into Italian cuisine, friends!"


def test_a_long_message_the_user_quoted_is_one_pending_item_of_the_facts_block() -> None:
    from relaykit.trajectory.facts import long_quotes, rank_items, step_items
    from relaykit.trajectory.plan import Masker, TrajectorySettings

    msgs = multi_turn()
    msgs[6] = {"role": "user", "content": f"Log in as 'mthompson' with 'securePass123' and post \"{LONG}\" for me."}
    t = parse(msgs)
    assert len(LONG) > 60 and long_quotes(msgs[6]["content"]) == [LONG]  # longer than a digest's quoted item
    assert LONG in step_items(t.steps[1])
    acted: dict[str, int] = {}
    for step in t.steps:
        acted.update(dict.fromkeys(words(step.action_text), step.index))
    assert LONG.lower() in pending_items(t.steps[1], acted)
    masker = Masker(t, TrajectorySettings(dropped="placeholder"))
    known = frozenset(words(t.steps[-1].action_text))
    items = rank_items(t.past, len(t.steps), known, masker.frequencies(), masker.actionable(), masker.acted(),
                       masker.passed())
    assert items[0] == LONG  # ahead of the ids the calls passed and returned
    budget = minimum_budget(t) + tokens.count(LONG) + 16
    out = compress_trajectory(msgs, method="agora", budget=budget)
    assert out.accounting.tokens_out <= budget and validate(out.messages) == [] and LONG in json.dumps(out.messages)


def test_long_quotes_keep_an_apostrophe_inside_a_word_and_skip_short_or_unclosed_ones() -> None:
    from relaykit.trajectory.facts import long_quotes

    text = "Send 'Hi Sam, my travel plans have changed and I'll update you about the new dates soon.' and 'ok'."
    assert long_quotes(text) == ["Hi Sam, my travel plans have changed and I'll update you about the new dates soon."]
    assert long_quotes("Post 'short one' and \"x" + "y" * 80) == []
    assert long_quotes("no quotes at all") == []


def test_degrade_choices_count_the_long_message_a_users_turn_quotes() -> None:
    """The degrade's judge (FactWords) counts a quoted message the facts block would take: a step cut to a request
    quoting it is worth every word of it, not only the digest-sized items around it."""
    from relaykit.trajectory.factwords import FactWords, fact_items

    msgs = multi_turn()
    msgs[6] = {"role": "user", "content": f"Log in as 'mthompson' with 'securePass123' and post \"{LONG}\" for me."}
    t = parse(msgs)
    request = requests_only(t.steps[1])
    assert request is not None and LONG in fact_items(request)
    facts = FactWords(frozenset())
    without = facts.score(t.with_steps([t.steps[-1]]))
    with_request = facts.score(t.with_steps([request, t.steps[-1]]))
    assert with_request - without >= len({w for w in words(LONG) if len(w) > 1}) - 2  # ancient, wonders, cuisine...


def test_an_ordinal_the_user_wrote_is_named_by_a_call_passing_its_number() -> None:
    """"Aug 10th" is done once a call passed 2026-08-10 (the words 2026, 08, 10): it is no longer pending, so the
    facts block does not put it ahead of what is still to do."""
    msgs = multi_turn()
    msgs[6] = {"role": "user", "content": "Book it for Aug 10th and ask for seat 12C."}
    msgs[7] = call(2, "book_flight", {"travel_date": "2026-08-10"})
    t = parse(msgs)
    acted: dict[str, int] = {}
    for step in t.steps:
        acted.update(dict.fromkeys(words(step.action_text), step.index))
    pending = pending_items(t.steps[1], acted)
    assert "10th" not in pending and "12c" in pending  # the seat is still to ask for


def test_a_number_the_user_wrote_is_named_by_a_call_passing_its_value() -> None:
    """"20,000" is done once a call passed 20000.0, and "Dec 1st" once a call passed 2026-12-01 (the word 01): numbers
    compare by value, not as words, so neither stays pending ahead of what is still to do."""
    msgs = multi_turn()
    msgs[6] = {"role": "user", "content": "Convert 20,000 RMB to USD, book it for Dec 1st and ask for seat 12C."}
    msgs[7] = call(2, "convert", {"value": 20000.0, "travel_date": "2026-12-01"})
    t = parse(msgs)
    acted = Masker(t, TrajectorySettings(dropped="placeholder")).acted()
    pending = pending_items(t.steps[1], acted)
    assert "20,000" not in pending and "1st" not in pending
    assert "12c" in pending  # the seat is still to ask for
    assert number_key("20000.0") == number_key("020000") == "=20000" and number_key("01") == "=1"
    assert number_key("1.50") == number_key("1.5") and number_key("12c") is None


def test_hashtags_and_mentions_a_user_asks_for_are_pending() -> None:
    """"#TravelBlog" and "@AirlineSupport" are values the user spelled out for the next call, as a quoted text is;
    plain capitalised words of the same request are not (bfcl-dev 30%: two more tweets keep their tags)."""
    msgs = [
        *multi_turn()[:6],
        {"role": "user", "content": "Post a tweet with hashtags #TravelBlog, #PlansChanged and mention @AirlineSupport "
                                    "about Tokyo; my email is ann@example.com."},
        call(2, "authenticate_twitter", {"username": "john"}), result(2, {"ok": True})]
    t = parse(msgs)
    acted: dict[str, int] = {}
    for step in t.steps:
        acted.update(dict.fromkeys(words(step.action_text), step.index))
    pending = pending_items(t.steps[1], acted)
    assert {"travelblog", "planschanged", "airlinesupport"} <= pending
    assert "tokyo" not in pending and "example" not in pending  # a plain name, and a domain is no mention


def test_degrade_choices_weigh_what_the_user_asked_for_and_no_call_passed_yet() -> None:
    """The facts block ranks a pending request's items first, and the degrade's judge (FactWords) now weighs their
    words more too: a masked step's digest of eleven airport codes, shaped like the ids calls pass, outweighed a block
    holding the tweet, the hashtag and the mention the user asked for (bfcl-mp 30%, 2 cases)."""
    from relaykit.trajectory.factwords import FactWords

    codes = ["RMS", "SBK", "MPC", "SVP", "SHD", "CDG", "LHR", "SSV", "OKD", "WLB", "SFO"]
    msgs = [{"role": "system", "content": "You call tools."},
            {"role": "user", "content": "Which airports can I fly from?"},
            call(0, "list_all_airports", {}), result(0, {"airports": codes}),
            {"role": "user", "content": "Please post the tweet 'Counting the days to my next trip!' with the hashtag "
                                        "'#TripMode' and a mention of '@RoadPals'."},
            call(1, "authenticate_twitter", {"username": "mia_jones", "password": "pw_mia_123"}),
            result(1, {"authentication_status": False})]
    t = parse(msgs)
    masker = Masker(t, TrajectorySettings(dropped="placeholder"))
    asked = masker.asked()
    assert {"counting", "trip", "tripmode", "roadpals"} <= asked and not {"rms", "sbk"} & asked

    def ending(observation: str, digest: str) -> Trajectory:
        """The history cut to the first step masked with ``digest`` (its request elided) and the current step ending
        in ``observation``."""
        cut = [*msgs[:3], {**msgs[3], "content": f"[observation omitted; facts: {digest}]"}, msgs[5],
               {**msgs[6], "content": observation}]
        return parse(cut)

    with_digest = ending('{"authentication_status": false}', ", ".join(codes))
    with_block = ending('{"authentication_status": false} (facts from elided steps: Counting the days to my next '
                        'trip!, #TripMode, @RoadPals)', "RMS")
    plain, weighed = FactWords(masker.actionable()), FactWords(masker.actionable(), asked)
    assert plain.score(with_digest) > plain.score(with_block)  # as any word, the codes win
    assert weighed.score(with_block) > weighed.score(with_digest)  # the user's request, weighed, wins


def test_the_users_new_request_after_the_current_tool_result_is_never_cut() -> None:
    """A multi-turn user's new request, the last message after the current tool result, is what the next call answers:
    the current observation's shortening leaves it whole (it cut it to a marker: at BFCL turn boundaries 84 of 119
    requests at 30%), and the minimum counts it whole, so a budget below that raises instead of cutting it."""
    from relaykit.trajectory import BudgetTooSmall

    tickets = [f"TCK-{k} open, low priority" for k in range(12)]
    msgs = [*multi_turn()[:-1], result(2, {"success": True, "tickets": tickets}), {"role": "user", "content": REQUEST}]
    t = parse(msgs)
    assert t.steps[-1].observation[-1] == {"role": "user", "content": REQUEST}
    minimum = minimum_budget(t)
    assert minimum >= tokens.count_messages([*msgs[:2], msgs[-1]])  # the request is in the minimum, whole
    for budget in (minimum, minimum + 10, minimum + 40):
        out = compress_trajectory(msgs, method="agora", budget=budget)
        assert out.accounting.tokens_out <= budget and validate(out.messages) == []
        assert out.messages[-1] == {"role": "user", "content": REQUEST}
    try:
        compress_trajectory(msgs, method="agora", budget=minimum - 1)
    except BudgetTooSmall as exc:
        assert exc.minimum == minimum
    else:
        raise AssertionError("a budget below the minimum must raise")


def test_the_users_turn_after_a_text_reply_in_a_tool_using_chat_is_never_cut() -> None:
    """In a chat that calls tools, the agent may answer in text and the user write again: that user turn, parsed as
    the current step's observation, is the user's new request. It is kept whole (it was cut like a tool result:
    ``… Constraint 10: seat 10A …``) and the minimum counts it; a budget below raises with that minimum."""
    from relaykit.trajectory import BudgetTooSmall

    ask = "Now find me a direct morning flight from Berlin on 12 May. " + " ".join(
        f"Constraint {i}: seat {i}A near row {i}, under {100 + i} EUR." for i in range(25))
    msgs = [*multi_turn(), {"role": "assistant", "content": "Logged in as mthompson; the ticket comes next."},
            {"role": "user", "content": ask}]
    t = parse(msgs)
    assert t.steps[-1].replies and not any(step.replies for step in t.past)
    minimum = minimum_budget(t)
    assert minimum >= tokens.count_messages([*msgs[:2], *msgs[-2:]])
    for method in ("agora", "truncate", "recency"):
        for budget in (minimum, minimum + 40):
            out = compress_trajectory(msgs, method=method, budget=budget)
            assert out.accounting.tokens_out <= budget and validate(out.messages) == []
            assert out.messages[-1] == {"role": "user", "content": ask}
        try:
            compress_trajectory(msgs, method=method, budget=minimum - 1)
        except BudgetTooSmall as exc:
            assert exc.minimum >= minimum
        else:
            raise AssertionError("a budget below the minimum must raise")


def test_in_a_chat_without_tools_a_user_turn_is_the_environments_answer() -> None:
    """A text game in chat form: the agent's commands are text, the environment answers as the user. Those answers
    are observations, shortened to fit as before (no step is a reply)."""
    room = "You are in the kitchen. " + " ".join(f"On shelf {i} there is a jar labelled J{i}." for i in range(40))
    msgs = [{"role": "system", "content": "You play a text game."}, {"role": "user", "content": "Find the red jar."},
            {"role": "assistant", "content": "look"}, {"role": "user", "content": room},
            {"role": "assistant", "content": "open shelf 3"}, {"role": "user", "content": room}]
    t = parse(msgs)
    assert not any(step.replies for step in t.steps)
    budget = tokens.count_messages(msgs) // 3
    out = compress_trajectory(msgs, method="agora", budget=budget)
    assert out.accounting.tokens_out <= budget and out.messages[-1]["content"] != room
