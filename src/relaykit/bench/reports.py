"""Reports per run kind: each lab registers how its runs print, render to HTML and summarize as JSON data."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from relaykit.bench.store import RunInfo, RunStore
from relaykit.registry import Registry

TerminalRenderer = Callable[[RunStore, RunInfo], None]
HtmlRenderer = Callable[[RunStore, RunInfo], str]
JsonSummary = Callable[[RunStore, RunInfo], Any]


@dataclass(frozen=True)
class ReportKind:
    kind: str
    terminal: TerminalRenderer
    html: HtmlRenderer
    summary: JsonSummary | None = None

    def to_json(self, store: RunStore, run: RunInfo) -> dict[str, Any]:
        """What ``relaykit report RUN_ID --json`` prints: the run's record and the lab's summary data."""
        return {"run_id": run.run_id, "kind": run.kind, "status": run.status, "created_at": run.created_at,
                "finished_at": run.finished_at, "config": run.config,
                "summary": self.summary(store, run) if self.summary is not None else None}


REPORTS: Registry[ReportKind] = Registry("report kind")
"""How ``relaykit report`` shows each run kind, registered by the labs."""


def register_report(kind: str, terminal: TerminalRenderer, html: HtmlRenderer,
                    summary: JsonSummary | None = None) -> None:
    """Make ``relaykit report`` able to show runs of ``kind`` (``summary``: the data behind ``--json``)."""
    REPORTS.register(kind, ReportKind(kind, terminal, html, summary))


def report_for(run: RunInfo) -> ReportKind:
    return REPORTS.get(run.kind)
