"""Statistics shared by every lab: bootstrap CIs, exact McNemar, Bonferroni and Holm corrections."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb

import numpy as np

from relaykit.errors import UsageError


def bootstrap_ci(
    values: Sequence[float], *, resamples: int = 10_000, seed: int = 0, level: float = 0.95
) -> tuple[float, float]:
    """Percentile bootstrap CI of the mean, resampling units (goals) with replacement."""
    data = np.asarray(values, dtype=np.float64)
    if data.size == 0:
        return (float("nan"), float("nan"))
    rng = np.random.default_rng(seed)
    index = rng.integers(0, data.size, size=(resamples, data.size))
    means = data[index].mean(axis=1)
    tail = (1.0 - level) / 2.0
    lo, hi = np.quantile(means, [tail, 1.0 - tail])
    return (float(lo), float(hi))


def paired_bootstrap_ci(
    a: Sequence[float], b: Sequence[float], *, resamples: int = 10_000, seed: int = 0, level: float = 0.95
) -> tuple[float, float]:
    """Bootstrap CI of the mean paired difference a - b (same units in both)."""
    if len(a) != len(b):
        raise UsageError(f"paired samples differ in length: {len(a)} and {len(b)}")
    diff = np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)
    return bootstrap_ci(list(diff), resamples=resamples, seed=seed, level=level)


@dataclass(frozen=True)
class McNemar:
    a: str
    b: str
    a_only: int  # units where a succeeded and b failed
    b_only: int
    p_value: float
    p_bonferroni: float = float("nan")
    p_holm: float = float("nan")


def mcnemar_exact(a: Sequence[bool], b: Sequence[bool]) -> tuple[int, int, float]:
    """Exact (binomial) two-sided McNemar test on paired successes; returns (a_only, b_only, p)."""
    if len(a) != len(b):
        raise UsageError(f"paired outcomes differ in length: {len(a)} and {len(b)}")
    a_only = sum(1 for x, y in zip(a, b) if x and not y)
    b_only = sum(1 for x, y in zip(a, b) if y and not x)
    n = a_only + b_only
    if n == 0:
        return a_only, b_only, 1.0
    k = min(a_only, b_only)
    p = 2.0 * sum(comb(n, i) for i in range(k + 1)) / 2.0**n
    return a_only, b_only, min(1.0, p)


def bonferroni(p_values: Sequence[float]) -> list[float]:
    m = len(p_values)
    return [min(1.0, p * m) for p in p_values]


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm step-down adjusted p-values, in the input order."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def pairwise_mcnemar(outcomes: dict[str, Sequence[bool]]) -> list[McNemar]:
    """Exact McNemar for every pair of methods, with Bonferroni and Holm over the family."""
    names = list(outcomes)
    raw = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            a_only, b_only, p = mcnemar_exact(outcomes[a], outcomes[b])
            raw.append((a, b, a_only, b_only, p))
    ps = [r[4] for r in raw]
    return [
        McNemar(a, b, ao, bo, p, pb, ph)
        for (a, b, ao, bo, p), pb, ph in zip(raw, bonferroni(ps), holm(ps))
    ]


def pairwise_mcnemar_by_unit(groups: Sequence[dict[str, dict[str, bool]]]) -> list[McNemar]:
    """Exact McNemar per pair of methods within each group, paired on the units both methods have.

    ``groups`` is a list of ``{method: {unit: success}}`` (e.g. one per Booker); methods are compared only
    within their group. Bonferroni and Holm are applied over every test of every group together.
    """
    raw = []
    for outcomes in groups:
        names = list(outcomes)
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                common = sorted(set(outcomes[a]) & set(outcomes[b]))
                a_only, b_only, p = mcnemar_exact([outcomes[a][u] for u in common], [outcomes[b][u] for u in common])
                raw.append((a, b, a_only, b_only, p))
    ps = [r[4] for r in raw]
    return [
        McNemar(a, b, ao, bo, p, pb, ph)
        for (a, b, ao, bo, p), pb, ph in zip(raw, bonferroni(ps), holm(ps))
    ]
