"""``relaykit report RUN_ID [--html OUT] [--json]``: show what a lab run stored."""

from __future__ import annotations

import importlib
from pathlib import Path

import typer

from relaykit.cli._common import check_output_path, console, err_console, print_json
from relaykit.cli.runs import STORE_OPTION, require_store

REPORT_MODULES = ("relaykit.bench.relay.report", "relaykit.bench.trajectory.report",
                  "relaykit.bench.trajectory.decisions_report", "relaykit.bench.composition.report",
                  "relaykit.bench.delegation.report")
"""The labs' report modules, each registering how its runs print (imported when a report is asked for, so that
starting the CLI loads no lab)."""


def report(
    run_id: str = typer.Argument(..., help="The run to report (see `relaykit runs`)."),
    html: Path | None = typer.Option(None, "--html", help="Also write a self-contained HTML report here."),
    store: Path | None = STORE_OPTION,
    as_json: bool = typer.Option(False, "--json", help="Print the run (run_id, kind, status, created_at, "
                                 "finished_at, config) and its lab's summary as JSON instead of tables."),
) -> None:
    """Print a run's tables; with --html, write them and the charts to one self-contained file.

    Example: relaykit report relay-20260101-120000-ab12 --html report.html
    """
    if html is not None:
        check_output_path(html, "--html")
    from relaykit.bench.reports import report_for

    for module in REPORT_MODULES:
        importlib.import_module(module)
    runs = require_store(store)
    run = runs.get_run(run_id)
    kind = report_for(run)
    if as_json:
        print_json(kind.to_json(runs, run))
    else:
        kind.terminal(runs, run)
    if html is not None:
        html.write_text(kind.html(runs, run), encoding="utf-8")
        (err_console if as_json else console).print(f"wrote {html}", highlight=False)
