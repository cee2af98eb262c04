"""Train the linear step scorer on counterfactual labels: split by episode, fit, report held-out AUC.

Pure numpy: standardise the features, fit an L2-regularised logistic regression with Newton steps,
and measure the area under the ROC curve on episodes the fit never saw.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from relaykit.errors import UsageError
from relaykit.trajectory.features import FEATURES
from relaykit.trajectory.scorer import LinearScorer


@dataclass(frozen=True)
class LabelledSet:
    """Rows of step features, a 0/1 label each, and the episode each row came from (for the split)."""

    x: np.ndarray
    y: np.ndarray
    groups: tuple[str, ...]

    @classmethod
    def stack(cls, parts: Sequence[tuple[np.ndarray, Sequence[int], str]]) -> LabelledSet:
        rows = [p for p in parts if len(p[1])]
        if not rows:
            return cls(np.zeros((0, len(FEATURES))), np.zeros(0), ())
        x = np.vstack([p[0] for p in rows])
        y = np.concatenate([np.asarray(p[1], dtype=np.float64) for p in rows])
        groups = tuple(g for p in rows for g in [p[2]] * len(p[1]))
        return cls(x, y, groups)


@dataclass(frozen=True)
class TrainReport:
    scorer: LinearScorer
    train_rows: int
    test_rows: int
    train_positive: float
    test_positive: float
    train_auc: float
    test_auc: float
    test_episodes: tuple[str, ...]


def auc(scores: Sequence[float] | np.ndarray, labels: Sequence[float] | np.ndarray) -> float:
    """ROC AUC by the rank-sum formula (ties share ranks); NaN when one class is missing."""
    s, y = np.asarray(scores, dtype=np.float64), np.asarray(labels) > 0.5
    pos, neg = int(y.sum()), int((~y).sum())
    if pos == 0 or neg == 0:
        return float("nan")
    from scipy.stats import rankdata

    ranks = rankdata(s)
    return float((ranks[y].sum() - pos * (pos + 1) / 2) / (pos * neg))


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 1.0, iterations: int = 50) -> tuple[np.ndarray, float]:
    """Weights and bias of an L2-regularised logistic regression (Newton-Raphson)."""
    n, d = x.shape
    design = np.hstack([x, np.ones((n, 1))])
    w = np.zeros(d + 1)
    reg = np.full(d + 1, l2)
    reg[-1] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(design @ w, -40, 40)))
        grad = design.T @ (p - y) + reg * w
        hess = (design * (p * (1 - p))[:, None]).T @ design + np.diag(reg) + 1e-9 * np.eye(d + 1)
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.abs(step).max()) < 1e-8:
            break
    return w[:-1], float(w[-1])


def split_groups(groups: Sequence[str], test_share: float, seed: int) -> set[str]:
    unique = sorted(set(groups))
    rng = np.random.default_rng(seed)
    rng.shuffle(unique)
    n_test = max(1, round(test_share * len(unique))) if len(unique) > 1 else 0
    return set(unique[:n_test])


def train_scorer(data: LabelledSet, *, test_share: float = 0.25, seed: int = 0, l2: float = 1.0,
                 meta: dict[str, Any] | None = None) -> TrainReport:
    """Fit on the training episodes, evaluate on the held-out ones, return the scorer and the figures."""
    if data.x.shape[0] < 4 or len(set(data.y.tolist())) < 2:
        raise UsageError(f"too few labels to train on ({data.x.shape[0]} rows, classes {sorted(set(data.y))}); "
                         "label more episodes (--episodes) or longer prefixes")
    test = split_groups(data.groups, test_share, seed)
    is_test = np.array([g in test for g in data.groups])
    x_tr, y_tr, x_te, y_te = data.x[~is_test], data.y[~is_test], data.x[is_test], data.y[is_test]
    if len(set(y_tr.tolist())) < 2:
        raise UsageError(f"the training episodes hold only one label class ({len(y_tr)} rows, all {y_tr[0]:.0f}); "
                         "label more episodes or prefixes, or lower --threshold")
    mean = x_tr.mean(axis=0)
    scale = x_tr.std(axis=0)
    scale[scale < 1e-9] = 1.0
    w, b = fit_logistic((x_tr - mean) / scale, y_tr, l2=l2)
    scorer = LinearScorer(tuple(float(v) for v in w), b, tuple(float(v) for v in mean),
                          tuple(float(v) for v in scale), FEATURES, {})

    def probs(x: np.ndarray) -> np.ndarray:
        return np.asarray(1.0 / (1.0 + np.exp(-(((x - mean) / scale) @ w + b))))

    report = TrainReport(scorer, len(y_tr), len(y_te), float(y_tr.mean()) if len(y_tr) else 0.0,
                         float(y_te.mean()) if len(y_te) else 0.0, auc(probs(x_tr), y_tr),
                         auc(probs(x_te), y_te) if len(y_te) else float("nan"), tuple(sorted(test)))
    full_meta = {**(meta or {}), "seed": seed, "train_rows": report.train_rows, "test_rows": report.test_rows,
                 "train_auc": round(report.train_auc, 4), "test_auc": round(report.test_auc, 4),
                 "test_episodes": list(report.test_episodes)}
    return TrainReport(**{**report.__dict__, "scorer": LinearScorer(**{**scorer.__dict__, "meta": full_meta})})


def save_scorer(scorer: LinearScorer, path: str | Path) -> Path:
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(scorer.to_json(), indent=1) + "\n", encoding="utf-8")
    return out


__all__ = ["LabelledSet", "TrainReport", "auc", "fit_logistic", "save_scorer", "train_scorer"]
