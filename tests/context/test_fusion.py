from __future__ import annotations

import pytest

from relaykit.accounting import Tally
from relaykit.context import fuse
from relaykit.errors import UsageError
from relaykit.testing import ScriptedModel

SAMPLES = [["a", "b"], ["b", "c"], ["b", "d", "a"]]


def test_union_is_the_default_and_counts_support() -> None:
    fused = fuse(SAMPLES)
    assert fused.method == "union" and fused.ids == ("a", "b", "c", "d")
    assert fused.support == {"a": 2, "b": 3, "c": 1, "d": 1} and fused.n == 3


def test_k_of_n_threshold() -> None:
    assert fuse(SAMPLES, k=2).ids == ("a", "b")
    assert fuse(SAMPLES, k=3).ids == ("b",)
    with pytest.raises(UsageError, match="between 1 and the number of samples"):
        fuse(SAMPLES, k=4)


def test_payloads_are_kept() -> None:
    fused = fuse([{"a": None}, {"a": {"title": "ship"}, "b": 1}])
    assert fused.payloads == {"a": {"title": "ship"}, "b": 1}


def test_best_of_n_uses_the_judge() -> None:
    judge = ScriptedModel([{"best": 3, "reason": "most complete"}])
    usage = Tally()
    fused = fuse(SAMPLES, "best_of_n", model=judge, task="find action items", usage=usage)
    assert fused.chosen == 2 and fused.ids == ("b", "d", "a") and fused.support["b"] == 3
    assert usage.model_calls == 1 and "find action items" in judge.requests[0].messages[0]["content"]


def test_best_of_n_repairs_an_out_of_range_pick() -> None:
    judge = ScriptedModel([{"best": 9}, {"best": 1}])
    assert fuse(SAMPLES, "best_of_n", model=judge).chosen == 0 and judge.calls == 2


def test_model_fusion_keeps_only_known_ids() -> None:
    fuser = ScriptedModel([{"ids": ["b", "a"]}])
    fused = fuse(SAMPLES, "model", model=fuser)
    assert fused.ids == ("b", "a") and fused.support["c"] == 1 and "c" not in fused


def test_model_methods_need_a_model() -> None:
    with pytest.raises(UsageError, match="needs a model"):
        fuse(SAMPLES, "model")


def test_bad_samples() -> None:
    with pytest.raises(UsageError, match="at least one"):
        fuse([])
    with pytest.raises(UsageError, match="sample 1 is int"):
        fuse([["a"], 3])  # type: ignore[list-item]
    with pytest.raises(UsageError, match="unknown fusion method"):
        fuse(SAMPLES, "vote")
