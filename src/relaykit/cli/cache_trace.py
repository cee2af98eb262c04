"""``relaykit cache stats|clear`` and ``relaykit trace summarize``: the CLI side of the cost patterns."""

from __future__ import annotations

from typing import Any

import typer
from rich.table import Table

from relaykit.cli._common import console, print_json

cache_app = typer.Typer(help="Inspect or clear the model-answer cache.\n\nExample: relaykit cache stats",
                        no_args_is_help=True)
trace_app = typer.Typer(help="Read telemetry traces (JSONL files written by JsonlSink).\n\nExample: relaykit trace "
                        "summarize trace.jsonl", no_args_is_help=True)

STORE_HELP = ("The cache store: memory, sqlite (RELAYKIT_HOME/cache.sqlite), sqlite:PATH or redis://HOST:PORT/DB "
              "(--store is the old name of this flag).")


def register(app: typer.Typer) -> None:
    """Add ``cache`` and ``trace`` to the main app."""
    app.add_typer(cache_app, name="cache")
    app.add_typer(trace_app, name="trace")


@cache_app.command("stats")
def cache_stats(
    store: str = typer.Option("sqlite", "--cache", "--store", help=STORE_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print entries, hits, misses, saved_tokens as JSON."),
) -> None:
    """Entries, hits, misses and saved tokens, overall and per namespace.

    Example: relaykit cache stats --store sqlite --json
    """
    from relaykit.models.cache import open_store

    if not _readable_cache(store):
        if as_json:
            print_json({"entries": 0, "hits": 0, "misses": 0, "saved_tokens": 0, "namespaces": {}})
        else:
            console.print(f"cache ({store}): empty (no cache file yet)")
        return
    opened = open_store(store)
    try:
        per_ns = opened.stats()
    finally:
        opened.close()
    rows = {ns: {"entries": s.entries, "hits": s.hits, "misses": s.misses, "saved_tokens": s.saved_tokens}
            for ns, s in sorted(per_ns.items())}
    totals = {key: sum(r[key] for r in rows.values()) for key in ("entries", "hits", "misses", "saved_tokens")}
    if as_json:
        print_json({**totals, "namespaces": rows})
        return
    table = Table(title=f"cache ({store})")
    for column in ("namespace", "entries", "hits", "misses", "hit rate", "saved tokens"):
        table.add_column(column, justify="left" if column == "namespace" else "right")
    for ns, r in [*rows.items(), ("total", totals)]:
        lookups = r["hits"] + r["misses"]
        rate = f"{r['hits'] / lookups:.1%}" if lookups else "-"
        table.add_row(ns, str(r["entries"]), str(r["hits"]), str(r["misses"]), rate, str(r["saved_tokens"]))
    console.print(table)


def _readable_cache(store: str) -> bool:
    """For ``cache stats``: False when the default SQLite cache does not exist yet; a given path must exist."""
    from pathlib import Path

    from relaykit.cli._common import existing_sqlite
    from relaykit.models.cache.sqlite import default_path

    scheme, _, rest = store.partition(":")
    if scheme != "sqlite":
        return True
    if not rest and not default_path().exists():
        return False
    existing_sqlite(Path(rest) if rest else default_path(), "cache")
    return True


@cache_app.command("clear")
def cache_clear(
    namespace: str = typer.Option(None, "--namespace", help="Clear only this namespace."),
    store: str = typer.Option("sqlite", "--cache", "--store", help=STORE_HELP),
    rebuild: bool = typer.Option(False, "--rebuild", help="Move a corrupt SQLite cache file aside and start afresh."),
) -> None:
    """Delete cached answers (all, or one namespace) and reset their counters.

    Example: relaykit cache clear --namespace relay
    """
    from relaykit.models.cache import open_store

    if not rebuild and not _readable_cache(store):
        console.print(f"nothing to clear: no cache file yet ({store})")
        return
    options: dict[str, Any] = {"rebuild": True} if rebuild and store.startswith("sqlite") else {}
    opened = open_store(store, **options)
    try:
        moved = getattr(opened, "moved_to", None)
        if moved is not None:
            console.print(f"the corrupt cache file was moved to {moved}; a fresh cache was created")
        deleted = opened.clear(namespace)
    finally:
        opened.close()
    where = f"namespace {namespace!r}" if namespace else "all namespaces"
    console.print(f"cleared {deleted} entries from {where} of {store}")


@trace_app.command("summarize")
def trace_summarize(
    file: str = typer.Argument(..., help="A JSONL trace written by relaykit.telemetry.JsonlSink."),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Latency and tokens per stage and per model, with cache hits and fallbacks.

    Example: relaykit trace summarize trace.jsonl --json
    """
    from pathlib import Path

    from relaykit.cli._common import check_utf8_file
    from relaykit.telemetry import read_jsonl, summarize

    if Path(file).is_file():
        check_utf8_file(file)  # bad bytes are one clear line (read_jsonl names a missing file)
    summary = summarize(read_jsonl(file))
    if as_json:
        print_json(summary)
        return
    console.print(f"{summary['runs']} run(s), {summary['run_elapsed_ms']:.0f} ms in runs, "
                  f"{summary['cache_hits']} cache hit(s), {summary['fallbacks']} fallback(s)")
    for title in ("stages", "models"):
        table = Table(title=title)
        columns = (title[:-1], "count", "llm calls", "total ms", "p50 ms", "p95 ms", "prompt tok", "completion tok")
        for column in columns:
            table.add_column(column, justify="left" if column == title[:-1] else "right")
        for name, row in summary[title].items():
            table.add_row(name, str(row["count"]), str(row["model_calls"]), f"{row['total_ms']:.1f}",
                          f"{row['p50_ms']:.1f}", f"{row['p95_ms']:.1f}", str(row["prompt_tokens"]),
                          str(row["completion_tokens"]))
        console.print(table)
