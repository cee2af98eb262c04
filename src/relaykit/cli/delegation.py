"""``relaykit delegation validate`` and ``relaykit bench delegation``."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.markup import escape

from relaykit.bench.delegation import LabConfig, run_lab, summarize
from relaykit.bench.delegation.report import print_summary
from relaykit.bench.store import RunStore
from relaykit.cli._common import console, print_json, read_json, report_hint
from relaykit.cli.groups import bench_app
from relaykit.delegation import check_graph_data, load_tools

delegation_app = typer.Typer(help="Typed delegation graphs: validate them.", no_args_is_help=True)


@delegation_app.command("validate")
def validate(
    graph: str = typer.Argument(..., help="A delegation graph JSON file, or - for standard input."),
    tools: str | None = typer.Option(None, "--tools", help="A JSON list of tools the graph must call from."),
    as_json: bool = typer.Option(False, "--json", help="Print {valid, violations, order} as JSON."),
) -> None:
    """Check GRAPH: ids, edges, acyclic ordering, tools and arguments; print the execution order.

    Exits 0 when the graph is valid and 1 when it has violations.
    """
    specs = load_tools(read_json(tools)) if tools else None
    report = check_graph_data(read_json(graph), specs)
    if as_json:
        print_json(report.as_dict())
    elif report.valid:
        console.print(f"[green]valid[/green]; execution order: {' -> '.join(report.order)}", highlight=False)
    else:
        console.print(f"[red]{len(report.violations)} violation(s)[/red]", highlight=False)
        for v in report.violations:
            where = f"node {v.node}" if v.node else (f"edge {v.edge}" if v.edge is not None else "graph")
            console.print(f"  [bold]{v.code}[/bold] ({escape(where)}): {escape(v.message)}", highlight=False)
    if not report.valid:
        raise typer.Exit(1)


@bench_app.command("delegation")
def bench_delegation(
    suite: str = typer.Option(..., "--suite", help="tau2-retail, tau2-airline or bfcl-multi-turn."),
    planner: str = typer.Option("local", "--planner", help="Model spec of the planner (and router)."),
    executor: str = typer.Option("local", "--executor", help="Model spec of the executor."),
    formats: list[str] = typer.Option(["routed"], "--format",
                                      help="nl, graph, routed, oracle, tfidf or all; repeat or comma-separate."),
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
) -> None:
    """Run the delegation lab: plan, (route,) hand off and execute each task, scoring the end state.

    Example: relaykit bench delegation --suite bfcl-multi-turn --format nl,graph --limit 2
    """

    config = LabConfig.build(suite=suite, planner=planner, executor=executor, formats=formats, router=router,
                             limit=limit, offset=offset, max_steps=max_steps, direct=direct,
                             plan_repairs=plan_repairs, plan_tokens=plan_tokens, step_tokens=step_tokens)
    runs = RunStore(store)
    run_id = run_lab(config, runs, resume=resume)
    summary = summarize(runs, run_id)
    if as_json:
        print_json(summary)
    else:
        print_summary(summary)
        for line in report_hint(run_id):
            console.print(line, highlight=False, soft_wrap=True)
