"""Where signal items sit inside a batch: placement patterns and a per-model preference table.

A pattern turns ``(n_signal, n_noise)`` into a slot layout (``True`` marks a signal slot). The six
patterns are the position conditions of paper 002: a contiguous signal block at the start, in the
middle or at the end, and three ways of scattering signal through the batch. The paper does not
spell its three scatter patterns out; relaykit's are documented on each function.

The preference table holds the per-model end-minus-start RelAcc differences the paper reports in its
technical appendix (exploratory, unadjusted, measured on 10-item prompts). relaykit only consults it
for prompts above a long-context threshold, where burying signal in the middle is the known risk.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from relaykit.errors import UsageError
from relaykit.registry import Registry

T = TypeVar("T")
Layout = list[bool]
Pattern = Callable[[int, int, random.Random], Layout]

POSITIONS: Registry[Pattern] = Registry("position")
"""Position patterns by name: ``start``, ``middle``, ``end``, ``scatter_even``, ``scatter_shifted``,
``scatter_random``."""


def register_position(name: str, pattern: Pattern) -> None:
    """Make ``name`` usable wherever a position is accepted (``arrange(position=...)``, the runner)."""
    POSITIONS.register(name, pattern)


def position_names() -> list[str]:
    return POSITIONS.names()


def get_pattern(name: str) -> Pattern:
    return POSITIONS.get(name)


def layout(name: str, n_signal: int, n_noise: int, seed: int = 0) -> Layout:
    """The slot layout of pattern ``name`` for ``n_signal`` signal and ``n_noise`` noise items."""
    if n_signal < 0 or n_noise < 0:
        raise UsageError(f"item counts must be 0 or more, not {n_signal} signal and {n_noise} noise")
    slots = get_pattern(name)(n_signal, n_noise, random.Random(seed))
    assert sum(slots) == n_signal and len(slots) == n_signal + n_noise, f"pattern {name} is inconsistent"
    return slots


def place(signal: Sequence[T], noise: Sequence[T], position: str, seed: int = 0) -> list[T]:
    """Interleave ``signal`` and ``noise`` (each kept in its own order) following ``position``."""
    sig, noi = iter(signal), iter(noise)
    return [next(sig) if is_signal else next(noi) for is_signal in layout(position, len(signal), len(noise), seed)]


def _start(s: int, n: int, _rng: random.Random) -> Layout:
    return [True] * s + [False] * n


def _end(s: int, n: int, _rng: random.Random) -> Layout:
    return [False] * n + [True] * s


def _middle(s: int, n: int, _rng: random.Random) -> Layout:
    before = n // 2
    return [False] * before + [True] * s + [False] * (n - before)


def _spread(s: int, total: int, offset: float) -> set[int]:
    """``s`` slot indices spread evenly over ``total`` slots; ``offset`` in [0, 1) shifts them right."""
    if s == 0:
        return set()
    step = total / s
    return {min(total - 1, int(i * step + offset * step)) for i in range(s)}


def _scatter_even(s: int, n: int, _rng: random.Random) -> Layout:
    """Signal at evenly spaced slots, the first one in slot 0 (S N S N ... for a 50:50 batch)."""
    chosen = _spread(s, s + n, 0.0)
    return [i in chosen for i in range(s + n)]


def _scatter_shifted(s: int, n: int, _rng: random.Random) -> Layout:
    """Evenly spaced signal shifted to the right, so the last slot is signal (N S N S ... for 50:50)."""
    total = s + n
    chosen = {total - 1 - i for i in _spread(s, total, 0.0)}
    return [i in chosen for i in range(total)]


def _scatter_random(s: int, n: int, rng: random.Random) -> Layout:
    """Signal at seeded random slots (a fresh draw per seed, so per trial block)."""
    chosen = set(rng.sample(range(s + n), s))
    return [i in chosen for i in range(s + n)]


register_position("start", _start)
register_position("middle", _middle)
register_position("end", _end)
register_position("scatter_even", _scatter_even)
register_position("scatter_shifted", _scatter_shifted)
register_position("scatter_random", _scatter_random)

SCATTER_POSITIONS = ("scatter_even", "scatter_shifted", "scatter_random")
CONTIGUOUS_POSITIONS = ("start", "middle", "end")


@dataclass(frozen=True)
class PositionPreference:
    """One model's measured end-minus-start RelAcc difference and the position relaykit derives from it."""

    model: str
    end_minus_start: float
    p_value: float

    @property
    def preferred(self) -> str | None:
        """``"end"`` or ``"start"`` when the difference is at least ``PREFERENCE_MIN_GAP``, else no preference."""
        if self.end_minus_start >= PREFERENCE_MIN_GAP:
            return "end"
        if self.end_minus_start <= -PREFERENCE_MIN_GAP:
            return "start"
        return None


PREFERENCE_MIN_GAP = 0.04

# Paper 002, technical appendix D, "per-model position sensitivity" (10-item prompts, unadjusted p).
# Keys are lower-case name fragments; the longest fragment found in a model name wins.
POSITION_PREFERENCES: dict[str, PositionPreference] = {
    p.model: p
    for p in (
        PositionPreference("deepseek-v3.2", 0.125, 0.0004),
        PositionPreference("gpt-5.4", 0.070, 0.049),
        PositionPreference("grok-4", 0.045, 0.046),
        PositionPreference("kimi-k2.6", 0.045, 0.046),
        PositionPreference("claude-opus-4.7-xhigh", 0.025, 0.367),
        PositionPreference("gemini-3.1-pro", 0.010, 0.733),
        PositionPreference("gpt-5.5", 0.005, 0.874),
        PositionPreference("gpt-4o", 0.0, 1.0),
        PositionPreference("claude-opus-4.7", -0.005, 0.924),
        PositionPreference("claude-opus-4.7-high", -0.010, 0.804),
        PositionPreference("llama-3.3-70b", -0.065, 0.199),
    )
}


def _normalise(name: str) -> str:
    """Lower-case letters and digits only, after any provider prefix: ``openai:GPT-5.4`` -> ``gpt54``."""
    tail = name.rsplit("/", 1)[-1].rsplit(":", 1)[-1].rsplit("#", 1)[-1]
    return "".join(ch for ch in tail.lower() if ch.isalnum())


def position_preference(model: str | None) -> PositionPreference | None:
    """The table entry for ``model`` (matched by name fragment), or ``None`` for a model not in it."""
    if not model:
        return None
    name = _normalise(model)
    matches = [key for key in POSITION_PREFERENCES if _normalise(key) in name]
    return POSITION_PREFERENCES[max(matches, key=len)] if matches else None


def preferred_position(model: str | None, default: str = "end") -> str:
    """The position to use for ``model`` on a long prompt: its table preference, else ``default``."""
    pref = position_preference(model)
    return (pref.preferred if pref else None) or default
