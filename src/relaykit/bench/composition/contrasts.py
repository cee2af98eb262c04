"""The pre-specified contrasts C1-C5 of paper 002, as paired comparisons with Holm correction.

The unit of pairing is one (model, trial block): every condition of a block reuses the same drawn items,
so a contrast is the mean over units of a per-unit difference. Each contrast reports that mean, a
percentile bootstrap CI, Cohen's d of the paired differences (mean / sd), and a two-sided paired
sign-flip permutation p-value (exact up to 16 units, 20,000 random flips above); Holm adjusts the five
p-values together. The paper does not name its paired test; the sign-flip test is relaykit's choice
because it needs no normality assumption and stays defined when every difference is equal.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from relaykit.bench.composition.design import BY_NAME
from relaykit.bench.stats import bootstrap_ci, holm

Unit = tuple[str, int]  # (model label, block)
Table = Mapping[Unit, Mapping[str, float]]  # unit -> condition -> metric value
UnitDiff = Callable[[Mapping[str, float]], float]

RATIO = ("signal_100", "signal_80", "signal_50", "signal_30", "signal_10")
SCATTER = ("pos_scatter_even", "pos_scatter_shifted", "pos_scatter_random")
CONTIGUOUS = ("pos_start", "pos_middle", "pos_end")


@dataclass(frozen=True)
class Contrast:
    name: str
    question: str
    needs: tuple[str, ...]
    diff: UnitDiff


def _mean(row: Mapping[str, float], names: Sequence[str]) -> float:
    return float(np.mean([row[n] for n in names]))


def ratio_slope(row: Mapping[str, float]) -> float:
    """Least-squares slope of the metric on the noise percentage (0, 20, 50, 70, 90) of the ratio conditions."""
    x = np.array([BY_NAME[n].noise_percent for n in RATIO], dtype=float)
    y = np.array([row[n] for n in RATIO], dtype=float)
    return float(np.polyfit(x, y, 1)[0])


CONTRASTS: tuple[Contrast, ...] = (
    Contrast("C1", "50:50 signal/noise beats 100% signal", ("signal_50", "signal_100"),
             lambda r: r["signal_50"] - r["signal_100"]),
    Contrast("C2", "positive trend as noise rises (slope per % noise)", RATIO, ratio_slope),
    Contrast("C3", "scattered signal beats contiguous signal", SCATTER + CONTIGUOUS,
             lambda r: _mean(r, SCATTER) - _mean(r, CONTIGUOUS)),
    Contrast("C4", "middle placement differs from start/end (negative: a middle penalty)", CONTIGUOUS,
             lambda r: r["pos_middle"] - _mean(r, ("pos_start", "pos_end"))),
    Contrast("C5", "end placement beats start placement", ("pos_start", "pos_end"),
             lambda r: r["pos_end"] - r["pos_start"]),
)


@dataclass(frozen=True)
class ContrastResult:
    name: str
    question: str
    n: int
    mean: float
    ci_low: float
    ci_high: float
    cohens_d: float
    p_value: float
    p_holm: float = float("nan")
    positive_units: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    as_dict = to_dict  # deprecated: the lab's report still calls it; the one verb is to_dict()


def sign_flip_p(diffs: Sequence[float], *, resamples: int = 20_000, seed: int = 0) -> float:
    """Two-sided paired permutation p-value for ``mean(diffs) != 0`` by flipping the signs of differences."""
    d = np.asarray(diffs, dtype=np.float64)
    if d.size == 0:
        return float("nan")
    observed = abs(d.mean()) - 1e-12
    if d.size <= 16:
        signs = np.array(list(itertools.product((1.0, -1.0), repeat=d.size)))
        return float(np.mean(np.abs(signs @ d / d.size) >= observed))
    rng = np.random.default_rng(seed)
    signs = rng.choice((1.0, -1.0), size=(resamples, d.size))
    hits = int(np.sum(np.abs(signs @ d / d.size) >= observed))
    return (hits + 1) / (resamples + 1)


def cohens_d(diffs: Sequence[float]) -> float:
    d = np.asarray(diffs, dtype=np.float64)
    if d.size < 2:
        return float("nan")
    sd = float(d.std(ddof=1))
    if sd == 0.0:
        return float("nan") if d.mean() == 0 else float("inf") * float(np.sign(d.mean()))
    return float(d.mean() / sd)


def evaluate(contrast: Contrast, table: Table, seed: int = 0) -> ContrastResult | None:
    """One contrast over every unit that has all the conditions it needs (``None`` if no unit has)."""
    diffs = [contrast.diff(row) for row in table.values() if all(n in row for n in contrast.needs)]
    if not diffs:
        return None
    lo, hi = bootstrap_ci(diffs, seed=seed)
    return ContrastResult(
        name=contrast.name,
        question=contrast.question,
        n=len(diffs),
        mean=float(np.mean(diffs)),
        ci_low=lo,
        ci_high=hi,
        cohens_d=cohens_d(diffs),
        p_value=sign_flip_p(diffs, seed=seed),
        positive_units=sum(1 for d in diffs if d > 0),
    )


def evaluate_all(table: Table, seed: int = 0) -> list[ContrastResult]:
    """C1-C5 (those estimable from ``table``), Holm-adjusted together."""
    found = [r for r in (evaluate(c, table, seed) for c in CONTRASTS) if r is not None]
    adjusted = holm([r.p_value for r in found]) if found else []
    return [ContrastResult(**{**asdict(r), "p_holm": p}) for r, p in zip(found, adjusted)]
