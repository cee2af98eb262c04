from __future__ import annotations

import pytest

from relaykit.context import ArrangeConfig, Item, arrange
from relaykit.errors import UsageError


def items(kind: str, n_signal: int, n_noise: int, tokens: int = 10) -> list[Item]:
    out = [Item(f"{kind}-s{i}", f"signal {i}", kind, relevance=3, tokens=tokens) for i in range(n_signal)]
    out += [Item(f"{kind}-n{i}", f"noise {i}", kind, relevance=0, tokens=tokens) for i in range(n_noise)]
    return out


def test_batches_reach_the_target_signal_share() -> None:
    result = arrange(items("email", 10, 30), signal_share=0.5)
    assert [len(b.items) for b in result] == [10, 10]
    assert all(b.signal_share == 0.5 for b in result)
    assert len(result.left_out) == 20
    assert result.signal_ids == {f"email-s{i}" for i in range(10)}


@pytest.mark.parametrize(("share", "signal_per_batch"), [(1.0, 10), (0.8, 8), (0.3, 3), (0.1, 1)])
def test_signal_share_sets_the_mix(share: float, signal_per_batch: int) -> None:
    result = arrange(items("email", 2 * signal_per_batch, 90), signal_share=share)
    assert all(len(b.signal_ids) == signal_per_batch and len(b.items) == 10 for b in result)
    assert sum(len(b.signal_ids) for b in result) == 2 * signal_per_batch  # no signal item is ever dropped


def test_signal_is_spread_evenly_over_batches() -> None:
    result = arrange(items("email", 11, 40))
    assert sorted(len(b.signal_ids) for b in result) == [3, 4, 4]


def test_too_little_noise_is_reported_not_hidden() -> None:
    result = arrange(items("email", 10, 2))
    assert sum(len(b.items) for b in result) == 12
    assert any("add 8 same-domain" in note for note in result.notices)


def test_noise_lowest_relevance_first() -> None:
    pool = [
        *items("email", 2, 0),
        Item("marginal", "x", "email", relevance=1, tokens=5),
        Item("clear", "y", "email", relevance=0, tokens=5),
    ]
    result = arrange(pool, batch_size=4, signal_share=0.5, route_by_type=False)
    assert "clear" in result.batches[0].ids and "marginal" in result.batches[0].ids
    result = arrange(pool, batch_size=3, signal_share=0.67)
    assert "clear" in result.batches[0].ids and [i.id for i in result.left_out] == ["marginal"]


def test_type_routing_is_automatic_when_densities_differ() -> None:
    pool = items("meeting", 8, 2) + items("email", 2, 30)
    routed = arrange(pool)
    assert routed.routed and {b.source_type for b in routed} == {"meeting", "email"}
    assert all(len({i.source_type for i in b.items}) == 1 for b in routed)
    mixed = arrange(items("meeting", 5, 5) + items("email", 5, 5))
    assert not mixed.routed and {b.source_type for b in mixed} == {"mixed"}


def test_small_types_are_pooled() -> None:
    result = arrange(items("meeting", 8, 2) + items("email", 2, 30) + items("chat", 1, 1), route_by_type=True)
    assert "mixed" in {b.source_type for b in result}
    assert any("pooled" in note for note in result.notices)


@pytest.mark.parametrize(
    ("position", "expected"),
    [
        ("start", "SSNN"),
        ("end", "NNSS"),
        ("middle", "NSSN"),
        ("scatter_even", "SNSN"),
        ("scatter_shifted", "NSNS"),
    ],
)
def test_positions(position: str, expected: str) -> None:
    result = arrange(items("email", 2, 2), batch_size=4, position=position)
    (batch,) = result.batches
    assert "".join("S" if i.id in batch.signal_ids else "N" for i in batch.items) == expected


def test_long_prompts_use_the_models_preference() -> None:
    pool = items("email", 2, 2, tokens=3000)
    short = arrange(pool, batch_size=4, model="llama-3.3-70b", long_context_tokens=50_000)
    long = arrange(pool, batch_size=4, model="openai-compat:http://x#Llama-3.3-70B-Instruct")
    assert short.batches[0].position == "end" and long.batches[0].position == "start"
    assert arrange(pool, batch_size=4, model="unknown-model").batches[0].position == "end"


def test_token_budget_is_never_exceeded() -> None:
    pool = [Item(f"s{i}", "x", relevance=3, tokens=30 + i) for i in range(6)]
    pool += [Item(f"n{i}", "y", relevance=0, tokens=25 + 3 * i) for i in range(10)]
    result = arrange(pool, max_tokens=100, keep_surplus=True)
    assert all(b.tokens <= 100 for b in result)
    assert sorted(i.id for b in result for i in b.items) == sorted(i.id for i in pool)


def test_an_item_over_budget_is_named() -> None:
    with pytest.raises(UsageError, match=r"'huge' has 500 tokens.*budget of 100"):
        arrange([Item("huge", "x", relevance=3, tokens=500)], max_tokens=100)


def test_tokens_are_counted_when_missing() -> None:
    result = arrange([Item("a", "one two three four", relevance=3)])
    assert result.batches[0].tokens > 0


def test_bad_input_names_the_items() -> None:
    with pytest.raises(UsageError, match="no text: b"):
        arrange([Item("a", "x", relevance=3), Item("b", "  ", relevance=0)])
    with pytest.raises(UsageError, match=r"0-3 scale.*a=5"):
        arrange([Item("a", "x", relevance=5)])
    with pytest.raises(UsageError, match=r"must be numbers.*: a"):
        arrange([{"id": "a", "text": "x", "relevance": "high"}])
    with pytest.raises(UsageError, match="no text: a"):
        arrange([{"id": "a", "text": 5}])
    with pytest.raises(UsageError, match="repeated: a"):
        arrange([Item("a", "x"), Item("a", "y")])
    with pytest.raises(UsageError, match="unknown arrange option"):
        arrange([Item("a", "x")], batchsize=3)
    with pytest.raises(UsageError, match="unknown position"):
        ArrangeConfig(position="left")
    with pytest.raises(UsageError, match="signal_share"):
        ArrangeConfig(signal_share=0)


def test_fallback_and_scores_decide_without_hints() -> None:
    pool = [
        {"id": "a", "text": "We decided to ship on Friday; action item for Dana.", "type": "email"},
        {"id": "b", "text": "Lunch on Friday? Happy hour after.", "type": "email"},
        {"id": "c", "text": "retrieved passage", "score": 0.9},
        {"id": "d", "text": "retrieved passage", "score": 0.1},
    ]
    result = arrange(pool, route_by_type=False)
    assert result.signal_ids == {"a", "c"}
    assert set(result.fallback_ids) == {"a", "b"}
    assert any("unvalidated" in note for note in result.notices)


def test_render_shows_ids_and_types() -> None:
    (batch,) = arrange([Item("a", "hello", "chat", relevance=3)]).batches
    assert batch.render() == "[a] (chat)\nhello"
