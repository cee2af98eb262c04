import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from trajectory_strategies import chat_trajectories, react_transcripts

from relaykit.errors import UsageError
from relaykit.trajectory import METHODS, BudgetTooSmall, FunctionScorer, compress_trajectory, parse, validate
from relaykit.trajectory.selective import word_info


def tool_trajectory(n: int) -> list[dict]:
    msgs = [{"role": "system", "content": "You are an agent."}, {"role": "user", "content": "Find the key."}]
    for i in range(n):
        msgs.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": f"c{i}", "type": "function", "function": {"name": "look", "arguments": f'{{"room": {i}}}'}}]})
        msgs.append({"role": "tool", "tool_call_id": f"c{i}", "content": f"Room {i} has a chair and a lamp. " * 4})
    return msgs


def fixed(*scores: float) -> FunctionScorer:
    return FunctionScorer(lambda t: list(scores))


def test_floor_keeps_recent_and_confident_steps_and_keep_picks_by_score() -> None:
    msgs = tool_trajectory(8)  # 7 past steps + the current one
    scorer = fixed(0.1, 0.95, 0.2, 0.8, 0.3, 0.0, 0.0)
    result = compress_trajectory(msgs, keep=0.25, scorer=scorer)
    out = result.accounting
    assert result.floor_steps == (1, 5, 6)  # theta_hi=0.9 catches step 1; the last two are recent
    assert out.kept == (1, 3, 5, 6)  # one of the 4 remaining steps (0.25 * 4): the best, step 3
    assert out.dropped == (0, 2, 4) and result.valid and out.tokens_out < out.tokens_in
    assert out.ratio == out.tokens_out / out.tokens_in < 1  # ratio = out / in everywhere in relaykit
    everything = compress_trajectory(msgs, keep=1.0, scorer=scorer).accounting
    assert everything.dropped == () and everything.tokens_out == everything.tokens_in


def test_placeholder_keeps_the_action_and_masks_the_observation() -> None:
    msgs = tool_trajectory(5)
    out = compress_trajectory(msgs, keep=0.0, dropped="placeholder", scorer=fixed(0, 0, 0, 0))
    assert out.accounting.masked == (0, 1) and out.accounting.dropped == ()
    result = out.messages
    assert isinstance(result, list) and len(result) == len(msgs) and validate(result) == []
    assert result[2] == msgs[2] and result[3]["tool_call_id"] == "c0" and "omitted" in result[3]["content"]


def test_budget_is_a_ceiling_when_the_floor_fits() -> None:
    msgs = tool_trajectory(10)
    ok = compress_trajectory(msgs, budget=400).accounting
    assert ok.tokens_out <= 400 and not ok.over_budget and ok.budget == 400
    masked = compress_trajectory(msgs, budget=400, dropped="placeholder").accounting
    assert masked.tokens_out <= 400 and masked.masked


def test_baselines() -> None:
    msgs = tool_trajectory(12)
    assert compress_trajectory(msgs, method="none").messages == msgs
    trunc = compress_trajectory(msgs, method="truncate", truncate_tokens=300).accounting
    assert trunc.tokens_out <= 300 and trunc.kept == tuple(range(11 - len(trunc.kept), 11))
    assert compress_trajectory(msgs, method="floor").accounting.kept == (9, 10)
    mask = compress_trajectory(msgs, method="obs-mask", mask_window=3).accounting
    assert mask.masked == tuple(range(9)) and mask.kept == (9, 10)
    assert compress_trajectory(msgs, method="recency", keep=0.25).accounting.kept == (8, 9, 10)
    assert compress_trajectory(msgs, method="head-tail", keep=0.25).accounting.kept == (0, 9, 10)
    everything = compress_trajectory(tool_trajectory(3), method="truncate")
    assert everything.accounting.ratio == 1.0 and "nothing was cut" in everything.accounting.notices[0]


def test_selective_context_breaks_the_action_grammar_but_not_the_structure() -> None:
    msgs = [{"role": "user", "content": "Heat the soup."}]
    for i in range(4):
        msgs += [{"role": "assistant", "content": f"open door {i}"},
                 {"role": "user", "content": f"The door {i} opens onto a corridor."}]
    out = compress_trajectory(msgs, method="selective-context", keep=0.3, token_info=word_info)
    actions = [m["content"] for m in out.messages if m["role"] == "assistant"]
    assert actions == ["open"] * 4 and out.valid  # the object id is gone from every action


def test_bad_input_is_a_usage_error_listing_every_violation() -> None:
    bad = [{"role": "user", "content": "x"}, {"role": "tool", "tool_call_id": "nope", "content": "r"},
           {"role": "assistant", "content": None,
            "tool_calls": [{"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}]
    with pytest.raises(UsageError, match=r"2 violation.*nope.*'a'"):
        compress_trajectory(bad)
    with pytest.raises(UsageError, match="empty"):
        compress_trajectory([])
    with pytest.raises(UsageError, match="unknown role"):
        compress_trajectory([{"role": "bot", "content": "x"}])
    with pytest.raises(UsageError, match="unknown trajectory method"):
        compress_trajectory(tool_trajectory(3), method="magic")
    with pytest.raises(UsageError, match="keep"):
        compress_trajectory(tool_trajectory(3), keep=2)
    with pytest.raises(UsageError, match="scorer returned 1 scores"):
        compress_trajectory(tool_trajectory(4), scorer=fixed(0.5))


def test_react_without_steps_is_returned_unchanged_with_a_warning() -> None:
    with pytest.warns(UserWarning, match="no Thought/Action/Observation"):
        out = compress_trajectory("just some prose")
    assert out.messages == "just some prose"


def test_react_compression_keeps_text_form() -> None:
    text = "Task: open the box.\n" + "".join(
        f"Thought: step {i}\nAction: look {i}\nObservation: you see item {i} here, by a table, a chair and a rug\n"
        for i in range(6))
    out = compress_trajectory(text, keep=0.0, dropped="placeholder")
    assert isinstance(out.messages, str) and "Action: look 0" in out.messages and "item 0" not in out.messages
    assert out.messages.endswith("item 5 here, by a table, a chair and a rug\n") and out.accounting.masked


@st.composite
def method_settings(draw: st.DrawFn, n_scores: int) -> dict:
    options: dict = {"keep": draw(st.floats(0, 1)), "dropped": draw(st.sampled_from(["remove", "placeholder"])),
                     "k_recent": draw(st.integers(0, 4)), "theta_hi": draw(st.floats(0, 1.5)),
                     "mask_window": draw(st.integers(1, 5)), "truncate_tokens": draw(st.integers(1, 400)),
                     "token_info": word_info}
    if draw(st.booleans()):
        options["budget"] = draw(st.integers(1, 600))
    if draw(st.booleans()):
        scores = draw(st.lists(st.floats(0, 1), min_size=n_scores, max_size=n_scores))
        options["scorer"] = fixed(*scores)
    return options


@settings(max_examples=150, deadline=None)
@given(chat_trajectories(), st.sampled_from(sorted(METHODS)), st.data())
def test_no_method_and_no_setting_ever_returns_an_invalid_list(msgs: list, method: str, data: st.DataObject) -> None:
    options = data.draw(method_settings(len(parse(msgs).past)))
    try:
        out = compress_trajectory(msgs, method=method, **options)
    except BudgetTooSmall as exc:  # the stated minimum is right: it fits, and one token less does not
        assert exc.minimum > options["budget"]
        out = compress_trajectory(msgs, method=method, **{**options, "budget": exc.minimum})
        assert out.accounting.tokens_out <= exc.minimum
        with pytest.raises(BudgetTooSmall):
            compress_trajectory(msgs, method=method, **{**options, "budget": exc.minimum - 1})
    assert isinstance(out.messages, list)
    assert validate(out.messages) == [] and out.valid
    acc = out.accounting
    n_past = len(parse(msgs).past)
    assert sorted(acc.kept + acc.dropped + acc.masked) == list(range(n_past))
    assert not acc.over_budget


@settings(max_examples=60, deadline=None)
@given(react_transcripts(), st.sampled_from(sorted(METHODS)), st.data())
def test_react_compression_never_fails(text: str, method: str, data: st.DataObject) -> None:
    options = data.draw(method_settings(len(parse(text).past)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            out = compress_trajectory(text, method=method, **options)
        except BudgetTooSmall as exc:
            assert exc.minimum > options["budget"]
            return
    assert isinstance(out.messages, str) and out.accounting.tokens_out <= out.accounting.tokens_in + 50
    assert not out.accounting.over_budget


def test_a_placeholder_never_lengthens_a_step() -> None:
    msgs = [{"role": "user", "content": "go"}] + [m for i in range(5) for m in (
        {"role": "assistant", "content": f"a{i}"}, {"role": "user", "content": "ok"})]
    out = compress_trajectory(msgs, method="obs-mask", mask_window=1)
    assert out.messages == msgs and out.accounting.tokens_out == out.accounting.tokens_in


def test_floor_k_masks_instead_of_dropping_in_placeholder_mode() -> None:
    acc = compress_trajectory(tool_trajectory(6), method="floor", dropped="placeholder").accounting
    assert acc.masked == (0, 1, 2) and acc.kept == (3, 4) and acc.dropped == ()


def test_the_stated_minimum_fits_where_the_exact_count_outruns_the_packers_estimate() -> None:
    """Empty turns cost framing tokens the packer does not see: its estimate (38 here) is short of what fits."""
    def call(i: int) -> dict:
        return {"id": f"call_{i}", "type": "function", "function": {"name": "look", "arguments": "{}"}}
    msgs = [{"role": "user", "content": ""}, {"role": "assistant", "content": None, "tool_calls": [call(0)]},
            {"role": "tool", "tool_call_id": "call_0", "content": ""}, {"role": "assistant", "content": ""},
            {"role": "assistant", "content": None, "tool_calls": [call(1), call(2), call(3)]},
            *({"role": "tool", "tool_call_id": f"call_{i}", "content": ""} for i in (1, 2, 3)),
            {"role": "user", "content": ""}, {"role": "assistant", "content": ""}]
    options = {"keep": 0.0, "dropped": "remove", "k_recent": 0, "theta_hi": 0.0, "mask_window": 1,
               "truncate_tokens": 1, "token_info": word_info}
    with pytest.raises(BudgetTooSmall) as small:
        compress_trajectory(msgs, method="agora", budget=1, **options)
    least = small.value.minimum
    out = compress_trajectory(msgs, method="agora", budget=least, **options)
    assert out.accounting.tokens_out <= least and out.valid
    with pytest.raises(BudgetTooSmall):
        compress_trajectory(msgs, method="agora", budget=least - 1, **options)
