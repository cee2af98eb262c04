"""The placeholder path's shortcuts (issue 13, linear memory and time): same output, less work."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from relaykit import tokens
from relaykit.trajectory import BudgetTooSmall, MemoryReferenceStore, TrajectorySettings, compress_trajectory, parse
from relaykit.trajectory import budget as budget_module
from relaykit.trajectory import digest as digest_module
from relaykit.trajectory import plan as plan_module
from relaykit.trajectory.plan import Cost, Masker
from relaykit.trajectory.recall import SQLiteReferenceStore

PIECES = ["ORD-4471", "order #W2890", "the red box", "a door to the kitchen", "4.5 kg", "$19.99", "user_id alex_9",
          "/srv/app/main.py", '"blue lamp"', "'key'", "Ivan Petrov", "flight HAT298", "the metal pot", "12 items",
          "a@b.io", "notes.txt", "camelCase", "ok", "You look around.", "nothing here", "It is quiet.", "x"]
TEXT = st.lists(st.sampled_from(PIECES), min_size=1, max_size=8).map(" ".join)


@st.composite
def histories(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Chat histories mixing tool calls and text commands, with short observations (some shorter than a
    placeholder) and fact-rich ones."""
    ids = itertools.count()
    msgs: list[dict[str, Any]] = [{"role": "system", "content": "You are an agent."},
                                  {"role": "user", "content": draw(TEXT)}]
    for _ in range(draw(st.integers(2, 14))):
        if draw(st.booleans()):
            cid = f"c{next(ids)}"
            msgs += [{"role": "assistant", "content": None, "tool_calls": [{"id": cid, "type": "function",
                      "function": {"name": "look", "arguments": f'{{"q": "{draw(st.sampled_from(PIECES))}"}}'}}]},
                     {"role": "tool", "tool_call_id": cid, "content": draw(TEXT)}]
        else:
            msgs += [{"role": "assistant", "content": f"take {draw(st.sampled_from(PIECES))}"},
                     {"role": "user", "content": draw(TEXT)}]
    return msgs


def long_history(n: int) -> list[dict[str, Any]]:
    msgs: list[dict[str, Any]] = [{"role": "system", "content": "You are an agent."},
                                  {"role": "user", "content": "Find the coin."}]
    for i in range(n):
        msgs += [{"role": "assistant", "content": f"go to room_{i % 7} and take item_{i}"},
                 {"role": "user", "content": f"You are in room_{i % 7}. You see a red key (item_{i + 1}) and "
                                             f"a door. " * (1 + i % 3)}]
    return msgs


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories(), st.sampled_from(["placeholder", "reference"]), st.sampled_from([0, 4, 32]),
       st.sampled_from(["[observation omitted to save context]", "(omitted)", "omitted "]))
def test_the_least_cost_of_a_masked_step_is_a_lower_bound(msgs: list[dict[str, Any]], dropped: str, digest_tokens: int,
                                                          placeholder: str) -> None:
    t = parse(msgs)
    s = TrajectorySettings(dropped=dropped, digest_tokens=digest_tokens, placeholder=placeholder)  # type: ignore[arg-type]
    masker, cost = Masker(t, s), Cost(t.form, s.encoding)
    for step in t.past:
        least = masker.least(step, cost)
        assert least <= cost.step(masker.mask(step))
        assert masker.least(step, cost) == cost.step(masker.mask(step))  # once masked, the bound is exact


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(PIECES), TEXT), min_size=2, max_size=10),
       st.sampled_from(["placeholder", "reference"]))
def test_the_lower_bound_holds_for_react_text(steps: list[tuple[str, str]], dropped: str) -> None:
    text = "Task: open the chest.\n" + "".join(f"Thought: next\nAction: take {a}\nObservation: {o}\n" for a, o in steps)
    t = parse(text)
    masker, cost = Masker(t, TrajectorySettings(dropped=dropped)), Cost(t.form, "o200k_base")  # type: ignore[arg-type]
    assert t.form == "react" and t.past
    for step in t.past:
        assert masker.least(step, cost) <= cost.step(masker.mask(step))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories(), st.floats(0.05, 0.9), st.sampled_from(["placeholder", "reference"]),
       st.sampled_from(["agora", "recency", "obs-mask"]))
def test_skipping_steps_that_cannot_fit_changes_no_output(msgs: list[dict[str, Any]], share: float, dropped: str,
                                                         method: str) -> None:
    budget = max(1, int(tokens.count_messages(msgs) * share))

    def run() -> Any:
        try:
            out = compress_trajectory(msgs, method=method, budget=budget, dropped=dropped, store=MemoryReferenceStore())
        except BudgetTooSmall as exc:
            return exc.minimum
        return out.messages, out.accounting.tokens_out

    fast = run()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Masker, "least", lambda self, step, cost: 0)  # every candidate built and priced
        assert run() == fast


def test_a_tight_budget_computes_no_digest_for_steps_that_cannot_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    msgs = long_history(300)
    monkeypatch.setattr(budget_module, "BREADTH_MAX_STEPS", 100)  # as on a long run: no masked-first packing
    calls = []
    real = plan_module.digest
    monkeypatch.setattr(plan_module, "digest", lambda *a, **k: calls.append(1) or real(*a, **k))
    out = compress_trajectory(msgs, budget="50%", dropped="placeholder")
    assert out.accounting.tokens_out <= out.accounting.budget  # type: ignore[operator]
    elided = len(out.accounting.dropped) + len(out.accounting.masked)
    assert elided > 100 and len(calls) < elided // 10  # whole steps fill the room: few masked ones are priced


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([*PIECES, "\n", "The", "It", "said \"yes\"", "", "ID 42", "a", "path/to"]),
                max_size=12).map(" ".join))
def test_candidates_skip_only_scans_that_cannot_match(text: str) -> None:
    fast = digest_module._candidates(text)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(digest_module, "_NEEDS", {})  # every pattern scans
        assert digest_module._candidates(text) == fast


def test_the_per_message_cost_memo_matches_the_count() -> None:
    t = parse(long_history(20))
    cost = Cost(t.form, "o200k_base")
    for step in t.steps:
        for m in step.messages:
            assert cost.known(m) == cost.message(m) == tokens.count_messages([m]) - tokens.TOKENS_REPLY_PRIMER


def test_reference_mode_writes_the_sqlite_store_in_one_transaction(tmp_path: Any) -> None:
    class Counting(SQLiteReferenceStore):
        def __init__(self, path: Any) -> None:
            super().__init__(path)
            self.calls: list[str] = []

        def put(self, handle: str, messages: Any) -> None:
            self.calls.append("put")
            super().put(handle, messages)

        def put_many(self, items: Any) -> None:
            self.calls.append("put_many")
            super().put_many(items)

    store = Counting(tmp_path / "references.sqlite")
    msgs = long_history(60)
    out = compress_trajectory(msgs, budget="30%", dropped="reference", store=store)
    assert store.calls == ["put_many"] and len(out.references) > 30
    original = parse(msgs)
    for handle, i in out.references.items():
        assert store.get(handle) == [dict(m) for m in original.steps[i].messages]  # the exact original


def test_a_long_texts_scan_is_shared_within_a_call_and_forgotten_after_it() -> None:
    # a 2.5 MB tool result was scanned 23 times in one call under a budget (21 s of CPU; 11 s memoised)
    from relaykit.trajectory import digest as digest_module

    long_text = " ".join(f"ITM-{i:05d} part {i}" for i in range(3000))
    assert len(long_text) > 20_000
    digest_module.forget_long_texts()
    first = digest_module.spotted(long_text)
    assert digest_module.spotted(long_text) is first and first == digest_module._candidates(long_text)
    msgs = [{"role": "system", "content": "You are an agent."}, {"role": "user", "content": "Find part 42."},
            {"role": "assistant", "content": "list parts"}, {"role": "user", "content": long_text},
            {"role": "assistant", "content": "get ITM-00042"}, {"role": "user", "content": "part 42: 3 in stock"}]
    from relaykit.trajectory import compress_trajectory

    out = compress_trajectory(msgs, budget="30%", dropped="placeholder")
    assert out.accounting.tokens_out <= out.accounting.budget
    assert digest_module._memo_long.cache_info().currsize == 0  # nothing long kept alive between calls
