"""Step scorers: a protocol, the shipped linear scorer, and simple ones for baselines and tests.

A scorer rates each *past* step of a trajectory (all steps but the current one) with the probability
that removing it would change the agent's next action. The shipped scorer is a logistic regression
over :mod:`relaykit.trajectory.features`, trained by ``relaykit trajectory train`` and stored as JSON
inside the package (``data/agora_scorer.json``).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from relaykit.errors import UsageError
from relaykit.trajectory.features import FEATURES, step_features
from relaykit.trajectory.parse import Trajectory

ARTIFACT = "agora_scorer.json"


@runtime_checkable
class Scorer(Protocol):
    """Rates past steps: ``score(trajectory)`` returns one value in [0, 1] per past step, in order."""

    def score(self, trajectory: Trajectory) -> Sequence[float]: ...


@dataclass(frozen=True)
class LinearScorer:
    """Logistic regression over standardised step features."""

    weights: tuple[float, ...]
    bias: float
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    features: tuple[str, ...] = FEATURES
    meta: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if self.features != FEATURES:
            raise UsageError(f"this scorer was trained on features {list(self.features)}, but relaykit computes "
                             f"{list(FEATURES)}; retrain it with `relaykit trajectory train`")
        if not len(self.weights) == len(self.mean) == len(self.scale) == len(FEATURES):
            raise UsageError("a linear scorer needs one weight, mean and scale per feature")

    def score(self, trajectory: Trajectory) -> Sequence[float]:
        x = step_features(trajectory)
        if x.shape[0] == 0:
            return []
        z = (x - np.asarray(self.mean)) / np.asarray(self.scale)
        logits = z @ np.asarray(self.weights) + self.bias
        return [float(v) for v in 1.0 / (1.0 + np.exp(-np.clip(logits, -40, 40)))]

    def to_json(self) -> dict[str, Any]:
        return {"kind": "linear", "features": list(self.features), "weights": list(self.weights),
                "bias": self.bias, "mean": list(self.mean), "scale": list(self.scale), "meta": self.meta}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LinearScorer:
        try:
            return cls(tuple(data["weights"]), float(data["bias"]), tuple(data["mean"]), tuple(data["scale"]),
                       tuple(data["features"]), dict(data.get("meta") or {}))
        except (KeyError, TypeError, ValueError) as exc:
            raise UsageError(f"not a relaykit linear scorer file ({exc}); write one with "
                             "`relaykit trajectory train --out FILE`") from None


@dataclass(frozen=True)
class RecencyScorer:
    """Newer steps score higher; a scorer-free ordering (what Floor-K and truncation assume)."""

    def score(self, trajectory: Trajectory) -> Sequence[float]:
        n = len(trajectory.past)
        return [(i + 1) / (n + 1) for i in range(n)]


@dataclass(frozen=True)
class FunctionScorer:
    """Wraps a function of the trajectory (handy in tests and for user experiments)."""

    fn: Callable[[Trajectory], Sequence[float]]

    def score(self, trajectory: Trajectory) -> Sequence[float]:
        return self.fn(trajectory)


def load_scorer(path: str | Path) -> LinearScorer:
    file = Path(path)
    if not file.is_file():
        raise UsageError(f"no scorer file at {file}; train one with `relaykit trajectory train --out {file}`")
    try:
        return LinearScorer.from_json(json.loads(file.read_text(encoding="utf-8")))
    except json.JSONDecodeError as exc:
        raise UsageError(f"{file} is not JSON: {exc.msg}") from None


@functools.cache
def default_scorer() -> Scorer:
    """The scorer shipped with relaykit (recency order if the artifact is missing from the install)."""
    ref = resources.files("relaykit.trajectory").joinpath("data", ARTIFACT)
    if not ref.is_file():
        return RecencyScorer()
    return LinearScorer.from_json(json.loads(ref.read_text(encoding="utf-8")))


def checked_scores(scorer: Scorer, trajectory: Trajectory) -> list[float]:
    """The scorer's values, checked: one finite number per past step."""
    scores = [float(s) for s in scorer.score(trajectory)]
    if len(scores) != len(trajectory.past):
        raise UsageError(f"the scorer returned {len(scores)} scores for {len(trajectory.past)} past steps; "
                         "a scorer must rate every past step")
    if not all(np.isfinite(scores)):
        raise UsageError("the scorer returned a NaN or infinite score")
    return scores


__all__ = ["FunctionScorer", "LinearScorer", "RecencyScorer", "Scorer", "checked_scores", "default_scorer",
           "load_scorer"]
