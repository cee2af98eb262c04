"""``relaykit report RUN_ID [--html OUT]`` and ``relaykit runs``: show what a lab run stored."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from relaykit.bench.reports import report_for
from relaykit.bench.store import RunStore, default_store_path
from relaykit.cli._common import check_output_path, console, existing_sqlite

STORE_OPTION = typer.Option(None, "--store", help="Run store file (default: $RELAYKIT_HOME/runs.sqlite).")


def report(
    run_id: str = typer.Argument(..., help="The run to report (see `relaykit runs`)."),
    html: Path | None = typer.Option(None, "--html", help="Also write a self-contained HTML report here."),
    store: Path | None = STORE_OPTION,
) -> None:
    """Print a run's tables; with --html, write them and the charts to one self-contained file."""
    if html is not None:
        check_output_path(html, "--html")
    runs = RunStore(existing_sqlite(store or default_store_path(), "run store"))
    run = runs.get_run(run_id)
    kind = report_for(run)
    kind.terminal(runs, run)
    if html is not None:
        html.write_text(kind.html(runs, run), encoding="utf-8")
        console.print(f"wrote {html}")


def runs(store: Path | None = STORE_OPTION) -> None:
    """List the runs in the store."""
    table = Table(title="runs")
    for column in ("run id", "kind", "status", "results"):
        table.add_column(column)
    if store is None and not default_store_path().exists():
        console.print(table)  # no run yet: nothing to list, and a read-only command creates no store
        return
    runs_store = RunStore(existing_sqlite(store or default_store_path(), "run store"))
    for run in runs_store.list_runs():
        table.add_row(run.run_id, run.kind, run.status, str(len(runs_store.done_keys(run.run_id))))
    console.print(table)
