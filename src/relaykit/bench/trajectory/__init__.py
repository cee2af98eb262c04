"""The trajectory lab: compression methods on real text and tool environments (``relaykit bench trajectory``)."""

from relaykit.bench.trajectory import decisions_report as _decisions_report  # registers decision-point reports
from relaykit.bench.trajectory import envs_built as _envs_built  # registers textworld and the τ² adapters
from relaykit.bench.trajectory import report as _report  # registers the report kind
from relaykit.bench.trajectory.envs import ADAPTERS, Episode, GoldStep, episode_messages, open_env, register_env
from relaykit.bench.trajectory.lab import DEFAULT_METHODS, LabConfig, run_lab

__all__ = ["ADAPTERS", "DEFAULT_METHODS", "Episode", "GoldStep", "LabConfig", "episode_messages", "open_env",
           "register_env", "run_lab"]
del _decisions_report, _envs_built, _report
