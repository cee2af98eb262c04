"""``relaykit runs`` (list stored lab runs, with dates) and ``relaykit runs delete RUN_ID``.

Both only read or change an existing run store: a missing ``--store`` file is a usage error, never a new file.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from relaykit.bench.store import RunInfo, RunStore, default_store_path
from relaykit.cli._common import console, err_console, existing_sqlite, print_json
from relaykit.errors import UsageError

STORE_OPTION = typer.Option(None, "--store", help="Run store file (default: $RELAYKIT_HOME/runs.sqlite).")
runs_app = typer.Typer(invoke_without_command=True)  # help: the callback's docstring


def existing_store(path: Path | None) -> RunStore | None:
    """The run store at ``path`` if it exists; None when the default store does not exist yet.

    A ``--store`` path that does not exist is a ``UsageError``: read-only commands never create a store.
    """
    target = path if path is not None else default_store_path()
    if target.is_file():
        return RunStore(existing_sqlite(target, "run store"))  # a text file is never turned into a store
    if path is not None:
        raise UsageError(f"no run store at {path}; check the path (this command reads a store, it never creates "
                         "one)")
    return None


def require_store(path: Path | None) -> RunStore:
    found = existing_store(path)
    if found is None:
        raise UsageError(f"no runs yet: there is no run store at {default_store_path()}; run a lab first "
                         "(e.g. `relaykit bench relay`) or pass --store FILE")
    return found


def _iso(timestamp: float | None) -> str | None:
    return None if timestamp is None else time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(timestamp))


def _row(run: RunInfo, results: int) -> dict[str, Any]:
    seconds = None if run.finished_at is None else round(run.finished_at - run.created_at, 1)
    return {"run_id": run.run_id, "kind": run.kind, "status": run.status, "started": _iso(run.created_at),
            "finished": _iso(run.finished_at), "seconds": seconds, "results": results}


@runs_app.callback()
def runs(
    ctx: typer.Context,
    store: Path | None = STORE_OPTION,
    kind: str | None = typer.Option(None, "--kind", help="Only runs of this kind (relay, trajectory, ...)."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON list: run_id, kind, status, started, "
                                 "finished, seconds, results."),
) -> None:
    """List the stored lab runs, oldest first, with their dates (UTC) and number of results.

    Example: relaykit runs --kind relay --json
    """
    if ctx.invoked_subcommand is not None:
        ctx.obj = store  # `relaykit runs --store F delete ID` works too
        return
    found = existing_store(store)
    rows = [] if found is None else [_row(r, len(found.done_keys(r.run_id))) for r in found.list_runs(kind)]
    if as_json:
        print_json(rows)
        return
    if not rows:
        console.print(f"no runs yet in {store or default_store_path()}", highlight=False)
        return
    table = Table(title=f"runs in {found.path if found else store}")
    for column in ("run id", "kind", "status", "started (UTC)", "took", "results"):
        table.add_column(column, no_wrap=column in ("run id", "started (UTC)"))
    for row in rows:
        took = "" if row["seconds"] is None else f"{row['seconds']:.0f} s"
        table.add_row(row["run_id"], row["kind"], row["status"], str(row["started"]).replace("T", " ").rstrip("Z"),
                      took, str(row["results"]))
    console.print(table)


@runs_app.command("delete")
def delete(
    ctx: typer.Context,
    run_id: str = typer.Argument(..., help="The run to delete (see `relaykit runs`)."),
    store: Path | None = STORE_OPTION,
) -> None:
    """Delete one run with its results and events from the store.

    Example: relaykit runs delete relay-20260101-120000-ab12
    """
    found = require_store(store if store is not None else ctx.obj)
    removed = found.delete_run(run_id)
    err_console.print(f"deleted run {run_id} ({removed} results)", highlight=False)
