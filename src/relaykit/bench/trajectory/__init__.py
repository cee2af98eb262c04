"""The trajectory lab: compression methods on real text and tool environments (``relaykit bench trajectory``)."""

from relaykit.bench.trajectory import report as _report  # registers the report kind
from relaykit.bench.trajectory.envs import ADAPTERS, Episode, GoldStep, episode_messages, open_env, register_env
from relaykit.bench.trajectory.lab import DEFAULT_METHODS, LabConfig, run_lab

__all__ = ["ADAPTERS", "DEFAULT_METHODS", "Episode", "GoldStep", "LabConfig", "episode_messages", "open_env",
           "register_env", "run_lab"]
del _report
