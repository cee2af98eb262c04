"""``relaykit context arrange|fuse|corpus`` and ``relaykit bench composition``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from relaykit.cli._common import (
    TIMEOUT_OPTION,
    check_at_least,
    check_output_path,
    check_utf8_file,
    console,
    err_console,
    loads_json,
    multi,
    open_run_store,
    print_json,
    read_json,
    read_text,
    report_hint,
    use_timeout,
)
from relaykit.cli.groups import bench_app
from relaykit.errors import UsageError

# Each command imports what it runs when it runs (starting the CLI loads no lab, model or context module).

MAX_CORPUS_ITEMS = 100_000  # per source type: a larger synthetic corpus tests nothing more and takes minutes

context_app = typer.Typer(
    help="Arrange context for model calls, fuse extraction samples, generate a labelled corpus.\n\n"
    "Example: relaykit context arrange examples/context/corpus.jsonl --batch-size 8", no_args_is_help=True
)


def _read_items(path: str) -> list[dict[str, Any]]:
    items = []
    for number, line in enumerate(read_text(path).splitlines(), 1):
        if line.strip():
            items.append(loads_json(line, f"{path} line {number}"))
    return items


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
    as_json: bool = typer.Option(False, "--json", help="Print JSON: batches, left_out, routed, notices, accounting."),
) -> None:
    """Arrange ITEMS into batches at a calibrated signal share, routed by source type.

    Example: relaykit context arrange examples/context/corpus.jsonl --batch-size 8 --json
    """
    from relaykit.context import arrange

    result = arrange(
        _read_items(items), batch_size=batch_size, signal_share=signal_share, max_tokens=max_tokens,
        position=position, model=model, route_by_type=route, keep_surplus=keep_surplus,
    )
    if as_json:
        print_json(result.to_dict())
        return
    table = Table(title=f"{len(result.batches)} batches ({'routed by type' if result.routed else 'not routed'})")
    for column in ("#", "type", "position", "items", "signal", "tokens", "ids"):
        table.add_column(column)
    for i, b in enumerate(result.batches, 1):
        table.add_row(str(i), b.source_type, b.position, str(len(b.items)), f"{b.signal_share:.0%}", str(b.tokens),
                      " ".join(b.ids))
    console.print(table)
    console.print(f"left out: {len(result.left_out)} noise item(s)")
    for note in result.notices:
        console.print(f"[yellow]note:[/yellow] {note}")


@context_app.command("fuse")
def fuse_command(
    samples: str = typer.Argument(..., help="JSON list of samples: each a list of ids or an {id: payload} object."),
    method: str = typer.Option("union", help="union, best_of_n or model."),
    k: int = typer.Option(1, help="union: keep ids found in at least k samples."),
    model: str | None = typer.Option(None, help="Judge or fuser model spec (best_of_n, model)."),
    task: str = typer.Option("", help="What the samples extracted (shown to the judge or fuser)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON: ids, support, method, n."),
    timeout: float | None = TIMEOUT_OPTION,
) -> None:
    """Fuse N extraction samples; prints each id's support count.

    Example: relaykit context fuse samples.json --method union --k 2
    """
    from relaykit.context import fuse
    from relaykit.models import open_model

    use_timeout(timeout)
    data = read_json(samples)
    if not isinstance(data, list):
        raise UsageError(f"{samples} must hold a JSON list of samples")
    if any(isinstance(s, dict) and "role" in s and "content" in s for s in data):
        raise UsageError(f"{samples} looks like a chat message list; fuse takes extraction samples: a JSON list "
                         "whose items are lists of ids or {id: payload} objects")
    fused = fuse(data, method, k=k, model=open_model(model) if model else None, task=task)
    if as_json:
        print_json(fused.to_dict())
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
    """Write a SYNTHETIC labelled workplace corpus (for trying the composition lab, not for findings).

    Example: relaykit context corpus --out corpus.jsonl --emails 50
    """
    from relaykit.bench.composition import SyntheticSpec, generate_corpus, write_corpus

    for option, n in (("--meetings", meetings), ("--emails", emails), ("--chats", chats)):
        if not 0 <= n <= MAX_CORPUS_ITEMS:
            raise UsageError(f"{option} must be between 0 and {MAX_CORPUS_ITEMS:,} (the corpus generator's limit), "
                             f"not {n:,}")
    check_output_path(out, "--out")
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
    timeout: float | None = TIMEOUT_OPTION,
) -> None:
    """The relevance-contrast experiment of paper 002: ratio and position conditions, RelAcc, C1-C5.

    Example: relaykit bench composition --corpus examples/context/corpus.jsonl --model local --blocks 2
    """
    from relaykit.bench.composition import CompositionConfig, execute, load_corpus, resume_config, start_run, summarize
    from relaykit.bench.composition.report import print_report
    from relaykit.bench.lab import LabModels, StderrProgress

    check_at_least(blocks, 1, "--blocks")
    check_at_least(max_tokens, 1, "--max-tokens")
    check_at_least(max_repairs, 0, "--max-repairs")
    use_timeout(timeout)
    lab_models = LabModels(namespace="composition")
    if resume:
        runs = open_run_store(store, resume)
        config, loaded = resume_config(runs, resume)
        run_id = resume
    else:
        if corpus is None:
            raise UsageError("give --corpus FILE (make one: `relaykit context corpus --out FILE`) or --resume RUN_ID")
        check_utf8_file(corpus, "--corpus")
        loaded = load_corpus(corpus)  # a bad corpus is refused before the run store is opened
        config = CompositionConfig(corpus=str(Path(corpus).resolve()), models=multi(model, "--model") or (),
                                   blocks=blocks, seed=seed, conditions=multi(condition, "--condition") or (),
                                   max_tokens=max_tokens, max_repairs=max_repairs)
        for spec in config.models:
            lab_models.get(spec)  # a bad model spec fails before the run is registered
        runs = open_run_store(store)
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
