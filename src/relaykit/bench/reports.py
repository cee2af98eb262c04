"""Reports per run kind: each lab registers how its runs print and how they render to HTML."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from relaykit.bench.store import RunInfo, RunStore
from relaykit.errors import UsageError

TerminalRenderer = Callable[[RunStore, RunInfo], None]
HtmlRenderer = Callable[[RunStore, RunInfo], str]


@dataclass(frozen=True)
class ReportKind:
    kind: str
    terminal: TerminalRenderer
    html: HtmlRenderer


_REPORTS: dict[str, ReportKind] = {}


def register_report(kind: str, terminal: TerminalRenderer, html: HtmlRenderer) -> None:
    """Make ``relaykit report`` able to show runs of ``kind``."""
    _REPORTS[kind] = ReportKind(kind, terminal, html)


def report_for(run: RunInfo) -> ReportKind:
    if run.kind not in _REPORTS:
        raise UsageError(f"no report is registered for runs of kind {run.kind!r}; known: {', '.join(_REPORTS)}")
    return _REPORTS[run.kind]
