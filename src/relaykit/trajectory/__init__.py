"""AGORA step-level trajectory compression: parse, floor, score, keep; never break the message structure."""

from relaykit.trajectory.budget import BudgetTooSmall, resolve_budget
from relaykit.trajectory.compress import CompressedTrajectory, compress_trajectory
from relaykit.trajectory.floor import floor_steps
from relaykit.trajectory.methods import METHODS, Method, get_method, register_method
from relaykit.trajectory.parse import PLACEHOLDER, Step, Trajectory, mask_observation, parse, render
from relaykit.trajectory.plan import Plan, TrajectorySettings
from relaykit.trajectory.recall import (
    RECALL_TOOL,
    MemoryReferenceStore,
    ReferenceStore,
    SQLiteReferenceStore,
    recall,
    recall_handler,
    recall_step,
)
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
    "RECALL_TOOL",
    "BudgetTooSmall",
    "CompressedTrajectory",
    "FunctionScorer",
    "LinearScorer",
    "MemoryReferenceStore",
    "Method",
    "Plan",
    "RecencyScorer",
    "ReferenceStore",
    "SQLiteReferenceStore",
    "Scorer",
    "Step",
    "Trajectory",
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
    "recall",
    "recall_handler",
    "recall_step",
    "register_method",
    "render",
    "resolve_budget",
    "validate",
]
