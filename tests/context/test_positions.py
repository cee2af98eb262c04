from __future__ import annotations

import pytest

from relaykit.context import layout, place, position_names, position_preference, preferred_position
from relaykit.errors import UsageError


@pytest.mark.parametrize("name", position_names())
@pytest.mark.parametrize(("s", "n"), [(0, 4), (1, 9), (3, 7), (5, 5), (8, 2), (10, 0)])
def test_every_layout_keeps_the_counts(name: str, s: int, n: int) -> None:
    slots = layout(name, s, n, seed=3)
    assert len(slots) == s + n and sum(slots) == s


def test_scatter_random_depends_on_the_seed() -> None:
    draws = {tuple(layout("scatter_random", 5, 5, seed=k)) for k in range(10)}
    assert len(draws) > 1


def test_place_keeps_each_groups_order() -> None:
    assert place(["s1", "s2"], ["n1", "n2", "n3"], "middle") == ["n1", "s1", "s2", "n2", "n3"]


def test_preference_table() -> None:
    assert preferred_position("deepseek-v3.2") == "end"
    assert preferred_position("openai:gpt-4o") == "end"  # no preference -> default
    assert preferred_position("gpt-4o", default="start") == "start"
    assert preferred_position("meta-llama/Llama-3.3-70B-Instruct") == "start"
    high = position_preference("claude-opus-4.7-high")
    xhigh = position_preference("claude-opus-4.7-xhigh")
    assert high is not None and xhigh is not None and high.end_minus_start == -0.010 and xhigh.p_value == 0.367
    assert position_preference("my-own-model") is None


def test_unknown_position() -> None:
    with pytest.raises(UsageError, match="choose one of"):
        layout("left", 1, 1)
