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


def results_console(width: int = 180, console: Any = None) -> Any:
    """A rich console for result tables (``console``, else one on stdout): when it does not write to a terminal
    (a log, a pipe), ``width`` columns rather than rich's 80, which would cut every cell of a wide table to
    "ag…"."""
    from rich.console import Console

    console = console or Console()
    if not console.is_terminal and console.width < width:
        console = Console(file=console.file, width=width, no_color=console.no_color)
    return console


def register_report(kind: str, terminal: TerminalRenderer, html: HtmlRenderer,
                    summary: JsonSummary | None = None) -> None:
    """Make ``relaykit report`` able to show runs of ``kind`` (``summary``: the data behind ``--json``)."""
    REPORTS.register(kind, ReportKind(kind, terminal, html, summary))


def report_for(run: RunInfo) -> ReportKind:
    return REPORTS.get(run.kind)
