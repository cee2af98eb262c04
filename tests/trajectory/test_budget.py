import json
import re

import pytest

from relaykit import tokens
from relaykit.errors import UsageError
from relaykit.models.base import ChatResponse
from relaykit.testing import ScriptedModel
from relaykit.trajectory import (
    METHODS,
    RECALL_TOOL,
    BudgetTooSmall,
    FunctionScorer,
    MemoryReferenceStore,
    SQLiteReferenceStore,
    compress_trajectory,
    parse,
    recall_handler,
    resolve_budget,
    validate,
)
from relaykit.trajectory.budget import minimum_budget, shorten
from relaykit.trajectory.digest import block_frequencies, candidates, digest
from relaykit.trajectory.plan import TrajectorySettings
from relaykit.trajectory.selective import word_info

ROOM = "The {room} has a table, a lamp and a brass key {n} under the rug. The order ORD-{n}1 weighs 4.{n} kg. "


def text_trajectory(n: int, long_last: int = 1) -> list[dict]:
    msgs = [{"role": "system", "content": "You are an agent. Reply with one action."},
            {"role": "user", "content": "Find the brass key and open the chest."}]
    for i in range(n):
        obs = ROOM.format(room=f"room{i}", n=i) * (3 if i < n - 1 else 3 * long_last)
        msgs += [{"role": "assistant", "content": f"go to room{i}"}, {"role": "user", "content": obs}]
    return msgs


def tool_trajectory(n: int) -> list[dict]:
    msgs = [{"role": "system", "content": "You are an agent."}, {"role": "user", "content": "Find the key."}]
    for i in range(n):
        msgs.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": f"c{i}", "type": "function", "function": {"name": "look", "arguments": f'{{"room": {i}}}'}}]})
        msgs.append({"role": "tool", "tool_call_id": f"c{i}", "content": ROOM.format(room=f"room{i}", n=i) * 4})
    return msgs


def test_budget_forms() -> None:
    assert resolve_budget(1200, 10_000) == 1200 and resolve_budget("1200", 5) == 1200
    assert resolve_budget("30%", 1000) == 300 and resolve_budget(" 2.5 % ", 1000) == 25
    assert resolve_budget(None, 100) is None and resolve_budget("1%", 10) == 1
    for bad in ("lots", "0%", "150%", 0, -3, True, 2.5):
        with pytest.raises(UsageError, match="budget"):
            resolve_budget(bad, 100)  # type: ignore[arg-type]


@pytest.mark.parametrize("method", ["agora", "floor", "truncate", "obs-mask", "selective-context", "recency",
                                    "head-tail", "none"])
@pytest.mark.parametrize("budget", ["30%", "50%", 400])
def test_every_method_keeps_the_budget_exactly_as_the_accounting_counts(method: str, budget: int | str) -> None:
    for msgs in (text_trajectory(12), tool_trajectory(12)):
        out = compress_trajectory(msgs, method=method, budget=budget, token_info=word_info)
        acc = out.accounting
        assert acc.budget == resolve_budget(budget, acc.tokens_in) and acc.tokens_out <= acc.budget
        assert tokens.count_messages(out.messages) == acc.tokens_out and not acc.over_budget
        assert validate(out.messages) == []
        if method != "selective-context":  # the token-level baseline prunes the task too
            assert out.messages[:2] == msgs[:2]  # system + task survive


def test_react_text_keeps_the_budget_too() -> None:
    text = "Task: open the chest.\n" + "".join(
        f"Thought: next\nAction: go to room{i}\nObservation: {ROOM.format(room=f'room{i}', n=i) * 2}\n"
        for i in range(10))
    for budget in (150, "30%"):
        out = compress_trajectory(text, budget=budget)
        assert isinstance(out.messages, str) and tokens.count(out.messages) == out.accounting.tokens_out
        assert out.accounting.tokens_out <= out.accounting.budget  # type: ignore[operator]


def test_degrade_order_masks_then_shares_then_lowers_k_then_shortens_the_current_observation() -> None:
    msgs = text_trajectory(6, long_last=8)
    scorer = FunctionScorer(lambda t: [0.1] * len(t.past))
    full = compress_trajectory(msgs, method="floor", scorer=scorer).accounting.tokens_out
    floor_steps = (3, 4)
    masked_cost = compress_trajectory(msgs, method="floor", budget=full - 1, dropped="remove").accounting
    assert masked_cost.masked and set(masked_cost.masked) <= set(floor_steps)  # stage 2: masked, action kept
    assert masked_cost.masked[0] == 3  # the older floor step first
    assert "over the budget" in masked_cost.notices[0]
    tight = compress_trajectory(msgs, method="floor", budget=full // 3, dropped="placeholder")
    acc, current = tight.accounting, tight.messages[-1]["content"]
    assert acc.kept == () and set(floor_steps) <= set(acc.masked)  # masked floor steps keep their share
    assert re.search(r"\[\.\.\. \d+ tokens cut", current) and current.startswith("The room5 has")  # stage 4
    assert acc.tokens_out <= full // 3
    minimum = minimum_budget(parse(msgs))
    tighter = compress_trajectory(msgs, method="floor", budget=minimum + 8)
    assert tighter.accounting.kept == tighter.accounting.masked == ()  # stage 3: K lowered to 0
    assert set(tighter.accounting.dropped) == set(range(5)) and tighter.accounting.tokens_out <= minimum + 8


def test_budget_too_small_states_the_minimum_and_the_minimum_works() -> None:
    msgs = text_trajectory(6, long_last=8)
    with pytest.raises(BudgetTooSmall) as info:
        compress_trajectory(msgs, budget=10)
    minimum = info.value.minimum
    assert isinstance(info.value, UsageError) and str(minimum) in str(info.value)
    assert minimum_budget(parse(msgs)) == minimum  # what the lab calls feasible is what the error states
    out = compress_trajectory(msgs, budget=minimum)
    assert out.accounting.tokens_out <= minimum and "tokens cut" in out.messages[-1]["content"]
    with pytest.raises(BudgetTooSmall):
        compress_trajectory(msgs, budget=minimum - 1)


def test_shorten_keeps_head_tail_and_the_ids_and_numbers_of_the_cut_part() -> None:
    text = "Start of log. " + " ".join(f"entry {i} ok" for i in range(300)) + " job JOB-4471 used 12.5 GB " + \
        " ".join(f"line {i} fine" for i in range(300)) + " End of log."
    short = shorten(text, 80)
    assert tokens.count(short) <= 80 and short.startswith("Start of log")
    assert re.search(r"\[\.\.\. \d+ tokens cut; kept: ", short) and "JOB-4471" in short
    assert shorten("tiny", 10) == "tiny" and shorten(text, 3) == ""


def test_shorten_keeps_the_lines_and_json_fields_that_carry_facts() -> None:
    filler = "\n".join(f"nothing to report on this line, all is well and quiet here ({k})" for k in range(40))
    text = f"Inventory report\n{filler}\nThe blue crate ORD-7731 holds 42 kg of copper wire.\n{filler}\nend"
    short = shorten(text, 60)
    assert tokens.count(short) <= 60 and short.startswith("Inventory report")
    assert "The blue crate ORD-7731 holds 42 kg of copper wire." in short  # the line with the facts, whole
    assert re.search(r"\[\.\.\. \d+ tokens cut", short) and " … " in short  # gaps and one marker
    record = json.dumps({"user_id": "mia_li_3668", "notes": "x " * 200, "order_ids": ["#W1182", "#W5521"],
                         "address": {"city": "Austin", "zip": "78701"}})
    short = shorten(record, 50)
    assert tokens.count(short) <= 50
    for fact in ("mia_li_3668", "#W1182", "#W5521", "78701"):
        assert fact.lstrip("#") in short, fact  # in a kept field, or in the marker's facts
    known = shorten(record, 50, known={"mia_li_3668"})  # what the context holds anyway is not kept twice
    assert "mia_li_3668" not in known and "W1182" in known


def test_digest_keeps_ids_numbers_paths_quotes_and_names_ranked_by_recurrence() -> None:
    text = ("Order ORD-1182 for user_id mia_li_3668 costs $19.99 and weighs 4.5 kg. See /var/log/app.log and "
            '"blue sweater". {"name": "Alice Smith"} Bob left. You see a red apple and the fridge.')
    found = candidates(text)
    for item in ("ORD-1182", "mia_li_3668", "$19.99", "4.5 kg", "/var/log/app.log", "blue sweater", "Alice Smith",
                 "Bob", "red apple", "fridge"):
        assert item in found, item
    assert "name" not in found  # a JSON key is not a quoted fact
    df = block_frequencies([text, "ship to Bob", "Bob and the fridge", "fridge", "a cold fridge"])
    short = digest(text, 6, df)
    assert short.split(", ")[0] == "fridge" and tokens.count(short) <= 6
    assert digest(text, 0, df) == ""


def test_masked_placeholders_carry_the_digest_and_plain_masking_does_not() -> None:
    msgs = tool_trajectory(8)
    with_digest = compress_trajectory(msgs, keep=0.0, dropped="placeholder")
    plain = compress_trajectory(msgs, keep=0.0, dropped="placeholder", digest_tokens=0)
    first = with_digest.messages[3]["content"]
    assert "facts:" in first and "ORD-01" in first and plain.messages[3]["content"] == "[observation omitted to " \
        "save context]"
    assert tokens.count(first) <= tokens.count(plain.messages[3]["content"]) + 48 + 4


def test_reference_mode_stores_originals_in_sqlite_with_owner_only_permissions(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("RELAYKIT_HOME", str(tmp_path / "home"))
    msgs = tool_trajectory(6)
    out = compress_trajectory(msgs, keep=0.0, dropped="reference")
    db = tmp_path / "home" / "references.sqlite"
    assert db.is_file() and db.stat().st_mode & 0o777 == 0o600
    assert sorted(out.references.values()) == list(out.accounting.masked)
    store = SQLiteReferenceStore(db)
    for handle, index in out.references.items():
        assert store.get(handle) == msgs[2 + 2 * index: 4 + 2 * index]


def test_an_agent_loop_recalls_the_exact_original_through_the_tool() -> None:
    msgs = tool_trajectory(6)
    store = MemoryReferenceStore()
    out = compress_trajectory(msgs, keep=0.0, dropped="reference", store=store)
    handler = recall_handler(store)
    handles = re.findall(r'recall_step\("(step-[0-9a-f]{12})"\)', json.dumps(out.messages).replace('\\"', '"'))
    assert handles and len(store) == len(out.references)

    def agent(request):  # type: ignore[no-untyped-def]
        last = request.messages[-1]
        if last.get("tool_call_id") == "r1":  # the recall came back
            return f"The key is under the rug: {last['content'][:40]}"
        text = " ".join(str(m.get("content")) for m in request.messages)
        handle = re.search(r'recall_step\("(step-[0-9a-f]{12})"\)', text).group(1)
        call = {"id": "r1", "type": "function",
                "function": {"name": "recall_step", "arguments": json.dumps({"handle": handle})}}
        return ChatResponse(text="", model="scripted", metadata={"tool_calls": [call]})

    assert RECALL_TOOL["function"]["name"] == "recall_step"
    model = ScriptedModel(agent)
    conversation = list(out.messages)
    for _ in range(3):
        reply = model.complete(conversation)  # relaykit's Model has no tools= yet: RECALL_TOOL is what a
        # provider request would carry
        calls = reply.metadata.get("tool_calls")
        if not calls:
            conversation.append({"role": "assistant", "content": reply.text})
            break
        conversation.append({"role": "assistant", "content": None, "tool_calls": calls})
        for call in calls:
            result = handler(call["function"]["arguments"])
            conversation.append({"role": "tool", "tool_call_id": call["id"], "content": result})
    recalled = conversation[-2]["content"]
    index = out.references[handles[0]]
    assert recalled == msgs[3 + 2 * index]["content"]  # exactly what the agent first saw
    assert validate(conversation) == [] and model.calls == 2
    assert "unknown" not in handler('{"handle": "step-000000000000"}') and "no step" in handler(
        '{"handle": "step-000000000000"}')
    assert "needs arguments" in handler("not json")


def test_methods_are_a_registry_and_accept_objects() -> None:
    assert {"agora", "recency", "head-tail"} <= set(METHODS.names())
    msgs = tool_trajectory(5)
    by_object = compress_trajectory(msgs, method=METHODS.get("floor"))
    assert by_object.accounting.kept == (2, 3) and by_object.accounting.method == "floor_k"
    with pytest.raises(UsageError, match="did you mean 'agora'"):
        compress_trajectory(msgs, method="agorra")


def test_memory_is_linear_in_steps() -> None:
    """The quadratic later-action sets of the old feature code took ~300 MB at 2,500 steps of this shape."""
    import tracemalloc

    from relaykit.trajectory.features import step_features

    def long_run(n: int) -> list[dict]:
        msgs = [{"role": "user", "content": "Collect every item."}]
        for i in range(n):
            msgs += [{"role": "assistant", "content": f"take item_{i} from shelf_{i % 97}"},
                     {"role": "user", "content": f"You take item_{i}. Next you see item_{i + 1} and box_{i}."}]
        return msgs

    peaks = []
    for n in (500, 2000):
        trajectory = parse(long_run(n))
        tracemalloc.start()
        step_features(trajectory)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    assert peaks[1] < 6 * peaks[0] and peaks[1] < 30e6  # 4x the steps: about 4x the memory, not 16x


def test_the_facts_block_share_grows_as_the_budget_tightens() -> None:
    from relaykit.trajectory.budget import block_share

    assert block_share(0.25, 600, 1000) == 0.25  # keeps more than half: the base share
    assert block_share(0.25, 500, 1000) == 0.25
    shares = [block_share(0.25, b, 1000) for b in (400, 300, 200, 100)]
    assert shares == sorted(shares) and shares[0] > 0.25
    assert abs(block_share(0.25, 300, 1000) - 0.4) < 1e-9
    assert block_share(0.25, 10, 1000) == 0.5  # at most twice the base
    assert block_share(0.0, 100, 1000) == 0.0  # off stays off
    assert block_share(0.9, 100, 1000) == 0.9  # never above the base past BLOCK_SHARE_MAX, never below it


def test_the_recency_prior_moves_newer_steps_up_the_scorer_order() -> None:
    from relaykit.trajectory.methods import recency_blend

    order = (0, 2, 1, 5, 3, 4)  # the scorer's order, best first
    assert recency_blend(order, 0.0) == order
    assert recency_blend(order, 0.3) == (0, 2, 5, 1, 3, 4)  # the newest step passes one a rank ahead of it
    assert recency_blend(order, 10.0) == (5, 4, 3, 2, 1, 0)  # a strong prior is the recency order
    with pytest.raises(UsageError, match="recency_prior"):
        compress_trajectory(text_trajectory(4), budget="50%", recency_prior=-1)


def test_degrade_choices_count_the_items_a_digest_or_facts_block_lists() -> None:
    from relaykit.trajectory.factwords import FactWords, fact_items
    from relaykit.trajectory.parse import PLACEHOLDER, mask_observation

    t = parse(text_trajectory(3))
    step = t.steps[0]
    masked = mask_observation(step, t.form, f"{PLACEHOLDER[:-1]}; facts: table lamp, TV remote control; "
                                            "facts from elided steps: kitchen cupboard]")
    items = fact_items(masked)
    assert {"table lamp", "TV remote control", "kitchen cupboard"} <= set(items)  # objects: no id or name shape
    plain = mask_observation(step, t.form, PLACEHOLDER)
    facts = FactWords(frozenset())
    gain = facts.score(t.with_steps([masked, *t.steps[1:]])) - facts.score(t.with_steps([plain, *t.steps[1:]]))
    assert gain >= 4  # tv, remote, control, kitchen, cupboard (table and lamp are in other steps already)
    assert not set(fact_items(plain)) & {"table lamp", "kitchen cupboard"}


def test_under_a_budget_elided_steps_are_masked_by_default_and_removed_with_keep() -> None:
    """Left unset, ``dropped`` is "placeholder" under a budget (the digests and the facts block need masks) and
    "remove" with a keep ratio (the paper's AGORA); an explicit choice always wins."""
    assert TrajectorySettings().dropped == "remove"
    assert TrajectorySettings(budget="30%").dropped == "placeholder"
    assert TrajectorySettings(budget=500, dropped="remove").dropped == "remove"
    msgs = tool_trajectory(12)
    default = compress_trajectory(msgs, budget="40%")
    assert default.accounting.masked and "omitted" in json.dumps(default.messages)
    removed = compress_trajectory(msgs, budget="40%", dropped="remove")
    assert not removed.accounting.masked
    assert not compress_trajectory(msgs, keep=0.3).accounting.masked
