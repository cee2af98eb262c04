"""The experiment design of paper 002: 10-item prompts in 11 conditions, repeated over trial blocks.

Ratio conditions vary how many of the 10 items are signal (10, 8, 5, 3, 1) with the items in shuffled
order; position conditions hold the mix at 5:5 and place the signal at the start, middle or end or
scatter it (see :mod:`relaykit.context.positions`). Each block draws 10 signal and 9 noise items at
random; smaller conditions use prefixes of those draws, so the signal sets are nested as in the paper,
and all position conditions of a block share the items of its 50:50 ratio condition.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from relaykit.bench.composition.corpus import Corpus, CorpusItem
from relaykit.context.positions import place
from relaykit.errors import UsageError, unknown_name

PROMPT_ITEMS = 10


@dataclass(frozen=True)
class Condition:
    name: str
    n_signal: int
    position: str | None  # None: shuffled order (the ratio conditions)

    @property
    def family(self) -> str:
        return "ratio" if self.position is None else "position"

    @property
    def noise_percent(self) -> int:
        return round(100 * (PROMPT_ITEMS - self.n_signal) / PROMPT_ITEMS)


CONDITIONS: tuple[Condition, ...] = (
    Condition("signal_100", 10, None),
    Condition("signal_80", 8, None),
    Condition("signal_50", 5, None),
    Condition("signal_30", 3, None),
    Condition("signal_10", 1, None),
    Condition("pos_start", 5, "start"),
    Condition("pos_middle", 5, "middle"),
    Condition("pos_end", 5, "end"),
    Condition("pos_scatter_even", 5, "scatter_even"),
    Condition("pos_scatter_shifted", 5, "scatter_shifted"),
    Condition("pos_scatter_random", 5, "scatter_random"),
)
BY_NAME = {c.name: c for c in CONDITIONS}


@dataclass(frozen=True)
class Trial:
    block: int
    condition: Condition
    items: tuple[CorpusItem, ...]

    @property
    def targets(self) -> tuple[CorpusItem, ...]:
        return tuple(item for item in self.items if item.is_signal)


def conditions_named(names: Sequence[str] | None) -> tuple[Condition, ...]:
    if not names:
        return CONDITIONS
    unknown = [n for n in names if n not in BY_NAME]
    if unknown:
        raise unknown_name("condition", unknown[0], list(BY_NAME))
    return tuple(BY_NAME[n] for n in names)


def check_corpus(corpus: Corpus, conditions: Sequence[Condition]) -> None:
    """``UsageError`` naming the condition and how many signal or noise items are missing."""
    n_signal, n_noise = len(corpus.signal), len(corpus.noise)
    for cond in conditions:
        need_s, need_n = cond.n_signal, PROMPT_ITEMS - cond.n_signal
        if n_signal < need_s:
            raise UsageError(
                f"{corpus.source} has {n_signal} signal items (label 2 or 3) but condition {cond.name} needs "
                f"{need_s}: add at least {need_s - n_signal} more, or leave that condition out"
            )
        if n_noise < need_n:
            raise UsageError(
                f"{corpus.source} has {n_noise} noise items (label 0) but condition {cond.name} needs "
                f"{need_n}: add at least {need_n - n_noise} more, or leave that condition out"
            )


def block_trials(corpus: Corpus, block: int, seed: int, conditions: Sequence[Condition]) -> list[Trial]:
    """The trials of one block; the same ``(seed, block)`` always gives the same prompts."""
    check_corpus(corpus, conditions)
    rng = random.Random(f"composition:{seed}:{block}")
    max_s = max(c.n_signal for c in conditions)
    max_n = max(PROMPT_ITEMS - c.n_signal for c in conditions)
    signal = rng.sample(corpus.signal, max_s)
    noise = rng.sample(corpus.noise, max_n)
    trials = []
    for cond in conditions:
        chosen_s, chosen_n = signal[: cond.n_signal], noise[: PROMPT_ITEMS - cond.n_signal]
        if cond.position is None:
            ordered = chosen_s + chosen_n
            random.Random(f"order:{seed}:{block}:{cond.name}").shuffle(ordered)
        else:
            ordered = place(chosen_s, chosen_n, cond.position, seed=seed * 1000 + block)
        trials.append(Trial(block, cond, tuple(ordered)))
    return trials
