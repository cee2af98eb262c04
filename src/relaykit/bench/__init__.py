"""The lab: worlds and tasks with exact ground truth, runners, the run store, statistics, reports."""

from relaykit.bench.store import RunInfo, RunStore

__all__ = ["RunInfo", "RunStore"]
