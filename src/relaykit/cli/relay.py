"""``relaykit bench relay``: the closed-world travel relay (Researcher -> compression -> Booker)."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from relaykit.bench.lab import RunOptions, StderrProgress
from relaykit.bench.relay import report as _relay_report  # registers `relaykit report` for relay runs
from relaykit.bench.relay.generate import WorldSpec, generate_world
from relaykit.bench.relay.runner import RelayConfig, file_sha256, open_lab, run_relay
from relaykit.bench.relay.similarity import CachedEmbedder, VectorStore
from relaykit.bench.relay.summary import summarize
from relaykit.bench.relay.terminal import print_summary
from relaykit.bench.relay.truth import truth_table
from relaykit.bench.relay.world import World, load_world, save_world
from relaykit.bench.store import RunStore
from relaykit.cli._common import console, err_console, multi, print_json, report_hint
from relaykit.cli.groups import bench_app
from relaykit.embeddings import open_embedder
from relaykit.telemetry import JsonlSink, Telemetry

del _relay_report

relay_app = typer.Typer(help="The closed-world travel relay of paper 000.", invoke_without_command=True)

WORLD = typer.Option(None, "--world", help="A world file (see export-world); default: a generated world.")
GOALS = typer.Option(50, "--goals", help="Goals in a generated world.")
HOTELS = typer.Option(10, "--hotels", help="Hotels in a generated world (up to 100000).")
FLIGHTS = typer.Option(10, "--flights", help="Flights in a generated world (up to 100000).")
SEED = typer.Option(0, "--seed", help="Seed of the generated world and of model calls.")


def _world(world: Path | None, goals: int, hotels: int, flights: int, seed: int) -> World:
    return load_world(world) if world else generate_world(WorldSpec(hotels, flights, goals, seed))


@relay_app.callback()
def relay(
    ctx: typer.Context,
    methods: list[str] = typer.Option(None, "--methods", help="Hand-off methods, comma-separated or repeated, "
                                      "e.g. passthrough,extract-rules,prune:threshold=0.6 (default: every "
                                      "registered one)."),
    researcher: str = typer.Option("auditor", "--researcher", help="auditor (deterministic) or model."),
    booker: list[str] = typer.Option(None, "--booker", help="reader, model, or reader,model for both "
                                     "(comma-separated or repeated; default: reader)."),
    model: list[str] = typer.Option(None, "--model", help="Model spec for summary, extract and model agents "
                                    "(default: local); several (comma-separated or repeated) form a token-aware "
                                    "fallback chain."),
    goals: int = GOALS, hotels: int = HOTELS, flights: int = FLIGHTS, seed: int = SEED,
    world: Path | None = WORLD,
    model_goals: int = typer.Option(None, "--model-goals", help="Run the model-dependent parts on the first N "
                                    "goals at most (default: all)."),
    model_budget: float = typer.Option(None, "--model-budget", help="Seconds of model-dependent work before "
                                       "further goals' model parts are left out; the first goal's always run "
                                       "(default: 60 with the embedded model, else no limit; 0 = no limit)."),
    embedder: str = typer.Option("minilm", "--embedder", help="Embedder for prune and the diagnostics."),
    concurrency: int = typer.Option(1, "--concurrency", help="Goals worked on at once (threads)."),
    cache: str = typer.Option(None, "--cache", help="Cache model answers: memory, sqlite, sqlite:PATH or "
                              "redis://HOST:PORT/DB; a repeated identical run then makes no model calls."),
    trace: Path | None = typer.Option(None, "--trace", help="Write telemetry events (paper 002, Appendix B) "
                                      "to this JSONL file; read it with `relaykit trace summarize`."),
    resume: str = typer.Option(None, "--resume", help="Continue a stopped run (its stored settings are used)."),
    store: Path | None = typer.Option(None, "--store", help="Run store (default: $RELAYKIT_HOME/runs.sqlite)."),
    all_pairs: bool = typer.Option(False, "--all-pairs", help="List every McNemar pair, not only those that "
                                   "disagreed on some goal."),
    as_json: bool = typer.Option(False, "--json", help="Print the results as JSON."),
) -> None:
    """Run every hand-off method on every goal and print the paper's tables (Table I-III, McNemar).

    Example: relaykit bench relay --goals 50 --methods passthrough,extract-rules,prune,truncate,tfidf
    """
    if ctx.invoked_subcommand is not None:
        return
    chosen = multi(methods, "--methods")
    config = RelayConfig(
        methods=chosen or (), researcher=researcher, bookers=multi(booker, "--booker") or ("reader",),
        model=",".join(multi(model, "--model") or ("local",)), goals=goals, hotels=hotels, flights=flights,
        seed=seed, world_file=str(world) if world else None,
        world_sha256=file_sha256(str(world)) if world and world.is_file() else None,
        model_goals=model_goals, model_budget_s=model_budget, embedder=embedder, cache=cache,
    )
    RunOptions(concurrency=concurrency)  # checked before anything is stored
    runs = RunStore(store)
    telemetry = Telemetry(JsonlSink(trace)) if trace is not None else None
    embedder_cache = CachedEmbedder(open_embedder(embedder), VectorStore(runs.path.with_name("embeddings.sqlite")))
    lab, run_id = open_lab(runs, config if resume is None else None, resume=resume, telemetry=telemetry,
                           embedder=embedder_cache)
    err_console.print(f"run {run_id}: {len(lab.world.goals)} goals x {len(lab.methods)} methods x "
                      f"{len(lab.config.bookers)} booker(s); resume with --resume {run_id}", highlight=False)
    run_relay(runs, lab, run_id, concurrency=concurrency, telemetry=telemetry,
              progress=StderrProgress("relay (goals x methods x bookers)"))
    summary = summarize(runs, runs.get_run(run_id))
    if as_json:
        print_json(summary.as_json())
    else:
        print_summary(summary, console, all_pairs=all_pairs)
        for line in report_hint(run_id):
            console.print(line, highlight=False, soft_wrap=True)


@relay_app.command("export-world")
def export_world(
    out: Path = typer.Argument(..., help="Where to write the world JSON."),
    goals: int = GOALS, hotels: int = HOTELS, flights: int = FLIGHTS, seed: int = SEED,
) -> None:
    """Write the generated world (inventory and goals) as an editable, versioned JSON file."""
    save_world(generate_world(WorldSpec(hotels, flights, goals, seed)), out)
    console.print(f"wrote {out}")


@relay_app.command("export-truth")
def export_truth(
    out: Path = typer.Argument(..., help="Where to write the ground truth JSON."),
    world: Path | None = WORLD, goals: int = GOALS, hotels: int = HOTELS, flights: int = FLIGHTS, seed: int = SEED,
) -> None:
    """Write, per goal, every feasible hotel-flight pair and the optimal pair (NONE when none is feasible)."""
    table = truth_table(_world(world, goals, hotels, flights, seed))
    out.write_text(json.dumps(table) + "\n", encoding="utf-8")
    console.print(f"wrote {out}")


bench_app.add_typer(relay_app, name="relay")
