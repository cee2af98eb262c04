"""The delegation lab: routed graph hand-off measured on τ²-bench and BFCL multi-turn."""

from relaykit.bench.delegation import report as _report  # noqa: F401  (registers `relaykit report`)
from relaykit.bench.delegation.lab import ARMS, KIND, LabConfig, run_lab, run_unit
from relaykit.bench.delegation.suites import Episode, Suite, SuiteTask, open_suite, register_suite, suite_names
from relaykit.bench.delegation.summary import summarize

__all__ = ["ARMS", "KIND", "Episode", "LabConfig", "Suite", "SuiteTask", "open_suite", "register_suite",
           "run_lab", "run_unit", "suite_names", "summarize"]
