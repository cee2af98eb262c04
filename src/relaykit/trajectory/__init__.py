"""AGORA step-level trajectory compression: parse, floor, score, keep; never break the message structure."""

from relaykit.trajectory.compress import CompressedTrajectory, TrajectoryAccounting, compress_trajectory
from relaykit.trajectory.floor import floor_steps
from relaykit.trajectory.methods import METHODS, Plan, TrajectorySettings, get_method, register_method
from relaykit.trajectory.parse import PLACEHOLDER, Step, Trajectory, mask_observation, parse, render
from relaykit.trajectory.scorer import (
    FunctionScorer,
    LinearScorer,
    RecencyScorer,
    Scorer,
    default_scorer,
    load_scorer,
)
from relaykit.trajectory.validate import Violation, is_valid, validate

__all__ = [
    "METHODS",
    "PLACEHOLDER",
    "CompressedTrajectory",
    "FunctionScorer",
    "LinearScorer",
    "Plan",
    "RecencyScorer",
    "Scorer",
    "Step",
    "Trajectory",
    "TrajectoryAccounting",
    "TrajectorySettings",
    "Violation",
    "compress_trajectory",
    "default_scorer",
    "floor_steps",
    "get_method",
    "is_valid",
    "load_scorer",
    "mask_observation",
    "parse",
    "register_method",
    "render",
    "validate",
]
