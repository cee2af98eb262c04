"""The always-kept floor: what no keep ratio or budget may drop.

System, task, the current step (its action and the current observation) and the pending turn are
kept by construction (they are not past steps). Among past steps, the floor holds the last
``k_recent`` and any the scorer rates above ``theta_hi``.
"""

from __future__ import annotations

from collections.abc import Sequence


def floor_steps(scores: Sequence[float], k_recent: int = 2, theta_hi: float = 0.9) -> frozenset[int]:
    """Indices of the past steps that are always kept, given one score per past step."""
    n = len(scores)
    recent = range(max(0, n - k_recent), n)
    confident = (i for i, s in enumerate(scores) if s > theta_hi)
    return frozenset((*recent, *confident))


__all__ = ["floor_steps"]
