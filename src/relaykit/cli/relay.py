"""``relaykit bench relay``: the closed-world travel relay (Researcher -> compression -> Booker)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from relaykit.cli._common import (
    TIMEOUT_OPTION,
    check_at_least,
    check_cache_spec,
    check_method_settings,
    check_output_path,
    console,
    err_console,
    multi,
    open_run_store,
    print_json,
    report_hint,
    use_timeout,
)
from relaykit.cli.groups import bench_app
from relaykit.errors import UsageError

if TYPE_CHECKING:
    from relaykit.bench.relay.runner import RelayConfig
    from relaykit.bench.relay.world import World

# The lab is imported when a command runs, not when the CLI starts (`relaykit --help` and the other labs'
# commands do not load it).

relay_app = typer.Typer(invoke_without_command=True)  # help: the callback's docstring

WORLD = typer.Option(None, "--world", help="A world file (see export-world); default: a generated world.")
GOALS = typer.Option(50, "--goals", help="Goals in a generated world.")
HOTELS = typer.Option(10, "--hotels", help="Hotels in a generated world (up to 100000).")
FLIGHTS = typer.Option(10, "--flights", help="Flights in a generated world (up to 100000).")
SEED = typer.Option(0, "--seed", min=0, help="Seed of the generated world and of model calls.")


def _world(world: Path | None, goals: int, hotels: int, flights: int, seed: int) -> World:
    from relaykit.bench.relay.generate import WorldSpec, generate_world
    from relaykit.bench.relay.world import load_world

    return load_world(world) if world else generate_world(WorldSpec(hotels, flights, goals, seed))


SIZE_OPTIONS = ("goals", "hotels", "flights")


def _given(ctx: typer.Context, names: tuple[str, ...] | None = None) -> list[str]:
    """The options (among ``names``; default all) that the command line set explicitly."""
    from typer._click.core import ParameterSource

    return [param.opts[0] for param in ctx.command.params if param.name and (names is None or param.name in names)
            and param.opts and ctx.get_parameter_source(param.name) == ParameterSource.COMMANDLINE]


def _check_sizes_with_world(ctx: typer.Context, world: Path | None) -> None:
    """--goals/--hotels/--flights size a generated world: with --world FILE they would be ignored."""
    ignored = _given(ctx, SIZE_OPTIONS) if world is not None else []
    if ignored:
        raise UsageError(f"{', '.join(ignored)} size a generated world and do nothing with --world {world}; "
                         "leave them out, or edit the world file (export-world writes one of any size)")


def _check_run_options(methods: tuple[str, ...] | None, model_goals: int | None, model_budget: float | None,
                       concurrency: int, cache: str | None, trace: Path | None) -> None:
    """Everything a relay run is given, checked before the run is created (nothing is stored on a mistake)."""
    from relaykit.bench.relay.methods import parse_methods
    from relaykit.handoff import compressors

    for spec in parse_methods(",".join(methods) if methods is not None else None, compressors()):
        check_method_settings(spec.compressor, spec.kwargs)
    check_at_least(model_goals, 0, "--model-goals")
    check_at_least(model_budget, 0, "--model-budget", " (0 removes the limit)")
    check_at_least(concurrency, 1, "--concurrency")
    if cache is not None:
        check_cache_spec(cache)
    if trace is not None:
        check_output_path(trace, "--trace")


@relay_app.callback()
def relay(
    ctx: typer.Context,
    methods: list[str] = typer.Option(None, "--methods", help="Hand-off methods, comma-separated or repeated, "
                                      "e.g. passthrough,extract-rules,prune:threshold=0.6 (default: every "
                                      "registered one)."),
    researcher: str = typer.Option("auditor", "--researcher", help="auditor (deterministic) or model."),
    style: str = typer.Option("auditor", "--style", help="The auditor's writing style: auditor (the lab's own), "
                              "a hand-off corpus style (table, passive, pronouns...), or dev, held-out or mixed "
                              "(cycle through a group of styles goal by goal)."),
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
    timeout: float | None = TIMEOUT_OPTION,
) -> None:
    """Run every hand-off method on every goal and print the paper's tables (Table I-III, McNemar).

    Example: relaykit bench relay --goals 20 --methods passthrough,extract-rules,prune
    """
    use_timeout(timeout)
    if ctx.invoked_subcommand is not None:
        misplaced = _given(ctx)
        if misplaced:
            raise UsageError(f"{', '.join(misplaced)} given before {ctx.invoked_subcommand!r} would be ignored; put "
                             f"them after it: relaykit bench relay {ctx.invoked_subcommand} ... {misplaced[0]} VALUE")
        return
    from relaykit.bench.relay.generate import WorldSpec
    from relaykit.bench.relay.runner import RelayConfig, file_sha256
    from relaykit.bench.relay.world import load_world

    chosen = multi(methods, "--methods")
    _check_sizes_with_world(ctx, world)
    if resume is None:
        _check_run_options(chosen, model_goals, model_budget, concurrency, cache, trace)
        if world is None:
            WorldSpec(hotels, flights, goals, seed)  # sizes out of range are refused before a run exists
        else:
            load_world(world)  # so is a world file that does not validate
    config = RelayConfig(
        methods=chosen or (), researcher=researcher, bookers=multi(booker, "--booker") or ("reader",),
        model=",".join(multi(model, "--model") or ("local",)), goals=goals, hotels=hotels, flights=flights,
        seed=seed, world_file=str(world) if world else None,
        world_sha256=file_sha256(str(world)) if world and world.is_file() else None,
        model_goals=model_goals, model_budget_s=model_budget, embedder=embedder, cache=cache, style=style,
    )
    config.check()  # researcher, bookers, counts and style, before the run store is opened
    _run(config, resume=resume, store=store, trace=trace, embedder=embedder, concurrency=concurrency,
         all_pairs=all_pairs, as_json=as_json)


def _run(config: RelayConfig, *, resume: str | None, store: Path | None, trace: Path | None, embedder: str,
         concurrency: int, all_pairs: bool, as_json: bool) -> None:
    """Open (or resume) the run, compute what is missing, print the tables and the report command."""
    from relaykit.bench.lab import RunOptions, StderrProgress
    from relaykit.bench.relay import report as _relay_report  # registers `relaykit report` for relay runs
    from relaykit.bench.relay.reading import open_reading_cache
    from relaykit.bench.relay.runner import open_lab, run_relay
    from relaykit.bench.relay.similarity import CachedEmbedder, VectorStore
    from relaykit.bench.relay.summary import summarize
    from relaykit.bench.relay.terminal import print_summary
    from relaykit.embeddings import open_embedder
    from relaykit.telemetry import JsonlSink, Telemetry

    del _relay_report
    RunOptions(concurrency=concurrency)
    runs = open_run_store(store, resume)
    telemetry = Telemetry(JsonlSink(trace)) if trace is not None else None
    embedder_cache = CachedEmbedder(open_embedder(embedder), VectorStore(runs.path.with_name("embeddings.sqlite")))
    reading = open_reading_cache(runs.path.with_name("readings.sqlite"))
    if reading is None:
        err_console.print(f"note: {runs.path.with_name('readings.sqlite')} cannot be used as a cache; every "
                          "payload is read afresh (move the file aside to keep readings again)", highlight=False)
    try:
        lab, run_id = open_lab(runs, config if resume is None else None, resume=resume, telemetry=telemetry,
                               embedder=embedder_cache, reading=reading)
        err_console.print(f"run {run_id}: {len(lab.world.goals)} goals x {len(lab.methods)} methods x "
                          f"{len(lab.config.bookers)} booker(s); resume with --resume {run_id}", highlight=False)
        run_relay(runs, lab, run_id, concurrency=concurrency, telemetry=telemetry,
                  progress=StderrProgress("relay (goals x methods x bookers)"))
    finally:
        if reading is not None:
            reading.close()
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
    """Write the generated world (inventory and goals) as an editable, versioned JSON file.

    Example: relaykit bench relay export-world world.json --goals 20
    """
    from relaykit.bench.relay.generate import WorldSpec, generate_world
    from relaykit.bench.relay.world import save_world

    check_output_path(out, "export-world")
    save_world(generate_world(WorldSpec(hotels, flights, goals, seed)), out)
    console.print(f"wrote {out}")


@relay_app.command("export-truth")
def export_truth(
    ctx: typer.Context,
    out: Path = typer.Argument(..., help="Where to write the ground truth JSON."),
    world: Path | None = WORLD, goals: int = GOALS, hotels: int = HOTELS, flights: int = FLIGHTS, seed: int = SEED,
) -> None:
    """Write, per goal, every feasible hotel-flight pair and the optimal pair (NONE when none is feasible).

    Example: relaykit bench relay export-truth truth.json --world world.json
    """
    from relaykit.bench.relay.truth import truth_table

    _check_sizes_with_world(ctx, world)
    check_output_path(out, "export-truth")
    table = truth_table(_world(world, goals, hotels, flights, seed))
    out.write_text(json.dumps(table) + "\n", encoding="utf-8")
    console.print(f"wrote {out}")


bench_app.add_typer(relay_app, name="relay")
