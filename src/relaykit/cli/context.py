"""``relaykit context arrange|fuse|corpus`` and ``relaykit bench composition``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from relaykit.bench.composition import (
    CompositionConfig,
    SyntheticSpec,
    execute,
    generate_corpus,
    load_corpus,
    resume_config,
    start_run,
    summarize,
    write_corpus,
)
from relaykit.bench.composition.report import print_report
from relaykit.bench.lab import LabModels, StderrProgress
from relaykit.bench.store import RunStore
from relaykit.cli._common import console, err_console, multi, print_json, read_json, read_text, report_hint
from relaykit.cli.groups import bench_app
from relaykit.context import Arrangement, arrange, fuse
from relaykit.errors import UsageError
from relaykit.models import open_model

context_app = typer.Typer(
    help="Arrange context for model calls, fuse extraction samples, generate a labelled corpus.", no_args_is_help=True
)


def _read_items(path: str) -> list[dict[str, Any]]:
    items = []
    for number, line in enumerate(read_text(path).splitlines(), 1):
        if line.strip():
            try:
                items.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise UsageError(f"{path} line {number} is not JSON: {exc.msg}") from None
    return items


def _arrangement_json(result: Arrangement) -> dict[str, Any]:
    return {
        "batches": [
            {"source_type": b.source_type, "position": b.position, "tokens": b.tokens,
             "signal_share": round(b.signal_share, 3), "ids": list(b.ids), "signal_ids": sorted(b.signal_ids)}
            for b in result.batches
        ],
        "left_out": [item.id for item in result.left_out],
        "routed": result.routed,
        "notes": list(result.notes),
    }


@context_app.command("arrange")
def arrange_command(
    items: str = typer.Argument(..., help="JSONL items: id, text, and optional source_type, relevance|label, score."),
    batch_size: int = typer.Option(10, help="Items per batch."),
    signal_share: float = typer.Option(0.5, help="Target share of signal items per batch (plateau 0.3-0.5)."),
    max_tokens: int | None = typer.Option(None, help="Token budget per batch."),
    position: str | None = typer.Option(None, help="start, middle, end, scatter_even, ... (default: auto)."),
    model: str | None = typer.Option(None, help="Model name for the per-model position preference (long prompts)."),
    route: bool | None = typer.Option(None, "--route/--no-route", help="Force type routing on or off (default: auto)."),
    keep_surplus: bool = typer.Option(False, help="Batch the noise items not needed for calibration too."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON: batches, left_out, routed, notes."),
) -> None:
    """Arrange ITEMS into batches at a calibrated signal share, routed by source type."""
    result = arrange(
        _read_items(items), batch_size=batch_size, signal_share=signal_share, max_tokens=max_tokens,
        position=position, model=model, route_by_type=route, keep_surplus=keep_surplus,
    )
    if as_json:
        print_json(_arrangement_json(result))
        return
    table = Table(title=f"{len(result.batches)} batches ({'routed by type' if result.routed else 'not routed'})")
    for column in ("#", "type", "position", "items", "signal", "tokens", "ids"):
        table.add_column(column)
    for i, b in enumerate(result.batches, 1):
        table.add_row(str(i), b.source_type, b.position, str(len(b.items)), f"{b.signal_share:.0%}", str(b.tokens),
                      " ".join(b.ids))
    console.print(table)
    console.print(f"left out: {len(result.left_out)} noise item(s)")
    for note in result.notes:
        console.print(f"[yellow]note:[/yellow] {note}")


@context_app.command("fuse")
def fuse_command(
    samples: str = typer.Argument(..., help="JSON list of samples: each a list of ids or an {id: payload} object."),
    method: str = typer.Option("union", help="union, best_of_n or model."),
    k: int = typer.Option(1, help="union: keep ids found in at least k samples."),
    model: str | None = typer.Option(None, help="Judge or fuser model spec (best_of_n, model)."),
    task: str = typer.Option("", help="What the samples extracted (shown to the judge or fuser)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON: ids, support, method, n."),
) -> None:
    """Fuse N extraction samples; prints each id's support count."""
    data = read_json(samples)
    if not isinstance(data, list):
        raise UsageError(f"{samples} must hold a JSON list of samples")
    fused = fuse(data, method, k=k, model=open_model(model) if model else None, task=task)
    if as_json:
        print_json({"ids": list(fused.ids), "support": dict(fused.support), "method": fused.method, "n": fused.n})
        return
    table = Table(title=f"{fused.method}: {len(fused.ids)} of {len(fused.support)} ids kept from {fused.n} samples")
    table.add_column("id")
    table.add_column("support")
    table.add_column("kept")
    for item_id, support in fused.support.items():
        table.add_row(item_id, f"{support}/{fused.n}", "yes" if item_id in fused else "")
    console.print(table)


@context_app.command("corpus")
def corpus_command(
    out: Path = typer.Option(..., "--out", help="Where to write the JSONL corpus."),
    meetings: int = typer.Option(30, help="Number of meeting items."),
    emails: int = typer.Option(200, help="Number of email items."),
    chats: int = typer.Option(40, help="Number of chat items."),
    meeting_rate: float = typer.Option(0.733, help="Signal rate of meetings (the paper's 73.3%)."),
    email_rate: float = typer.Option(0.10, help="Signal rate of emails (the paper's was 5.1%)."),
    chat_rate: float = typer.Option(0.632, help="Signal rate of chats (the paper's 63.2%)."),
    seed: int = typer.Option(0, help="Random seed."),
) -> None:
    """Write a SYNTHETIC labelled workplace corpus (for trying the composition lab, not for findings)."""
    spec = SyntheticSpec(
        counts={"meeting": meetings, "email": emails, "chat": chats},
        signal_rates={"meeting": meeting_rate, "email": email_rate, "chat": chat_rate}, seed=seed,
    )
    corpus = generate_corpus(spec)
    write_corpus(corpus.items, out)
    counts = ", ".join(f"{k}: {v['items']} ({v['signal']} signal)" for k, v in corpus.summary().items())
    console.print(f"wrote {len(corpus.items)} SYNTHETIC items to {out} — {counts}")


@bench_app.command("composition")
def composition_command(
    corpus: str | None = typer.Option(None, "--corpus", help="Labelled JSONL corpus (id, source_type, text, label, "
                                      "fact_types); see `relaykit context corpus`."),
    model: list[str] = typer.Option([], "--model", help="Model specs, comma-separated or repeated."),
    blocks: int = typer.Option(20, help="Trial blocks (each draws fresh items for all conditions)."),
    condition: list[str] = typer.Option([], "--condition", help="Run only these conditions (comma-separated or "
                                        "repeated)."),
    seed: int = typer.Option(0, help="Seed of the item draws."),
    max_tokens: int = typer.Option(700, help="Completion budget per call."),
    max_repairs: int = typer.Option(1, help="Repair attempts after an answer that does not match the schema."),
    resume: str | None = typer.Option(None, "--resume", help="Resume this run id (its stored settings are used)."),
    store: Path | None = typer.Option(None, "--store", help="Run store file (default: $RELAYKIT_HOME/runs.sqlite)."),
    as_json: bool = typer.Option(False, "--json", help="Print the run summary as JSON."),
) -> None:
    """The relevance-contrast experiment of paper 002: ratio and position conditions, RelAcc, C1-C5.

    Example: relaykit bench composition --corpus corpus.jsonl --model local --blocks 2
    """
    runs = RunStore(store)
    lab_models = LabModels(namespace="composition")
    if resume:
        config, loaded = resume_config(runs, resume)
        run_id = resume
    else:
        if corpus is None:
            raise UsageError("give --corpus FILE (make one: `relaykit context corpus --out FILE`) or --resume RUN_ID")
        loaded = load_corpus(corpus)
        config = CompositionConfig(corpus=str(Path(corpus).resolve()), models=multi(model, "--model") or (),
                                   blocks=blocks, seed=seed, conditions=multi(condition, "--condition") or (),
                                   max_tokens=max_tokens, max_repairs=max_repairs)
        for spec in config.models:
            lab_models.get(spec)  # a bad model spec fails before the run is registered
        run_id = start_run(runs, loaded, config)
    if loaded.synthetic:
        err_console.print("[yellow]corpus is SYNTHETIC: figures test the pipeline, not real communication[/yellow]")
    err_console.print(f"run {run_id}", highlight=False)
    execute(runs, run_id, loaded, config, lab_models, progress=StderrProgress("composition trials"))
    run = runs.get_run(run_id)
    if as_json:
        print_json(summarize(runs, run))
    else:
        print_report(runs, run, console)
        for line in report_hint(run_id):
            console.print(line, highlight=False, soft_wrap=True)
