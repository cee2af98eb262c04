"""``relaykit delegation validate`` and ``relaykit bench delegation``."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.markup import escape

from relaykit.cli._common import (
    TIMEOUT_OPTION,
    check_at_least,
    console,
    open_run_store,
    print_json,
    read_json,
    report_hint,
    use_timeout,
)
from relaykit.cli.groups import bench_app
from relaykit.errors import UsageError

# Each command imports what it runs when it runs (starting the CLI loads no lab).

delegation_app = typer.Typer(help="Typed delegation graphs: validate them.\n\nExample: relaykit delegation validate "
                             "examples/delegation/graph.json", no_args_is_help=True)


@delegation_app.command("validate")
def validate(
    graph: str = typer.Argument(..., help="A delegation graph JSON file, or - for standard input."),
    tools: str | None = typer.Option(None, "--tools", help="A JSON list of tools the graph must call from."),
    as_json: bool = typer.Option(False, "--json", help="Print {valid, violations, order, accounting} as JSON."),
) -> None:
    """Check GRAPH: ids, edges, acyclic ordering, tools and arguments; print the execution order.

    Exits 0 when the graph is valid and 1 when it has violations.

    Example: relaykit delegation validate examples/delegation/graph.json --tools examples/delegation/tools.json
    """
    from relaykit.delegation import check_graph_data, load_tools
    from relaykit.tokens import count

    specs = load_tools(read_json(tools)) if tools else None
    data = read_json(graph)
    if not isinstance(data, dict):
        raise UsageError(f"{graph} holds a JSON {type(data).__name__}, not a graph: give a JSON object "
                         '{"nodes": [...], "edges": [...]}')
    report = check_graph_data(data, specs)
    if as_json:
        print_json({**report.to_dict(), "accounting": report.accounting(count(json.dumps(data))).to_dict()})
    elif report.valid:
        console.print(f"[green]valid[/green]; execution order: {' -> '.join(report.order)}", highlight=False)
    else:
        console.print(f"[red]{len(report.violations)} violation(s)[/red]", highlight=False)
        for v in report.violations:
            where = f"node {v.node}" if v.node else (f"edge {v.edge}" if v.edge is not None else "graph")
            console.print(f"  [bold]{v.code}[/bold] ({escape(where)}): {escape(v.message)}", highlight=False)
    if not report.valid:
        raise typer.Exit(1)


def _check_names(suite: str, router: str) -> None:
    """The suite and router exist (checked before the run store is opened or a run is created)."""
    from relaykit.bench.delegation.suites import SUITES
    from relaykit.delegation.routing import ROUTERS

    if suite not in SUITES:
        raise UsageError(SUITES.unknown_message(suite))
    if router not in ROUTERS:
        raise UsageError(ROUTERS.unknown_message(router))


@bench_app.command("delegation")
def bench_delegation(
    suite: str = typer.Option(..., "--suite", help="tau2-retail, tau2-airline or bfcl-multi-turn."),
    planner: str = typer.Option("local", "--planner", help="Model spec of the planner (and router)."),
    executor: str = typer.Option("local", "--executor", help="Model spec of the executor."),
    formats: list[str] = typer.Option(["routed"], "--format",
                                      help="nl, graph, routed, oracle, tfidf-terms or all; repeat or comma-separate."),
    router: str = typer.Option("model", "--router", help="Router of the routed format: model or heuristic."),
    limit: int = typer.Option(5, "--limit", help="Number of tasks."),
    offset: int = typer.Option(0, "--offset", help="Skip this many tasks first."),
    max_steps: int = typer.Option(12, "--max-steps", help="Executor steps per delegation."),
    direct: bool = typer.Option(True, "--direct/--no-direct",
                                help="Run graphs whose tool calls have every argument without the executor."),
    plan_repairs: int = typer.Option(2, "--plan-repairs", help="Repairs allowed for an invalid planned graph."),
    plan_tokens: int = typer.Option(512, "--plan-tokens", help="Token limit of one planner answer."),
    step_tokens: int = typer.Option(256, "--step-tokens", help="Token limit of one executor step."),
    resume: str | None = typer.Option(None, "--resume", help="Continue this run id, skipping finished units."),
    store: Path | None = typer.Option(None, "--store", help="Run store file."),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
    timeout: float | None = TIMEOUT_OPTION,
) -> None:
    """Run the delegation lab: plan, (route,) hand off and execute each task, scoring the end state.

    Example: relaykit bench delegation --suite tau2-retail --format nl,graph --limit 3
    """
    from relaykit.bench.delegation import LabConfig, run_lab, summarize
    from relaykit.bench.delegation.report import print_summary

    for option, value, minimum in (("--limit", limit, 1), ("--offset", offset, 0), ("--max-steps", max_steps, 1),
                                   ("--plan-repairs", plan_repairs, 0), ("--plan-tokens", plan_tokens, 1),
                                   ("--step-tokens", step_tokens, 1)):
        check_at_least(value, minimum, option)
    _check_names(suite, router)
    use_timeout(timeout)
    config = LabConfig.build(suite=suite, planner=planner, executor=executor, formats=formats, router=router,
                             limit=limit, offset=offset, max_steps=max_steps, direct=direct,
                             plan_repairs=plan_repairs, plan_tokens=plan_tokens, step_tokens=step_tokens)
    runs = open_run_store(store, resume)
    run_id = run_lab(config, runs, resume=resume)
    summary = summarize(runs, run_id)
    if as_json:
        print_json(summary)
    else:
        print_summary(summary)
        for line in report_hint(run_id):
            console.print(line, highlight=False, soft_wrap=True)
