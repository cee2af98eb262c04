"""``relaykit compress trajectory``, ``relaykit bench trajectory`` and ``relaykit trajectory train``."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import typer
from rich.progress import Progress

from relaykit.bench.trajectory import report as _trajectory_report  # registers `relaykit report` for lab runs
from relaykit.cli._common import console, err_console, multi, print_json, read_text, report_hint
from relaykit.cli.groups import bench_app, compress_app
from relaykit.errors import UsageError

del _trajectory_report
trajectory_app = typer.Typer(help="Train and inspect the AGORA step scorer.", no_args_is_help=True)
STORE_OPTION = typer.Option(None, "--store", help="Run store file (default: $RELAYKIT_HOME/runs.sqlite).")
JSON_KEYS = ("method", "messages", "tokens_in", "tokens_out", "ratio", "kept_steps", "dropped_steps", "valid",
             "violations")


def _load_trajectory(file: str) -> list[dict[str, Any]] | str:
    text = read_text(file)
    stripped = text.lstrip()
    if not stripped.startswith(("[", "{")):
        return text  # a ReAct transcript
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{file} looks like JSON but is not valid: {exc.msg} at line {exc.lineno}") from None
    if isinstance(data, dict) and isinstance(data.get("messages"), list):
        data = data["messages"]
    if not isinstance(data, list):
        raise UsageError(f"{file} must hold a JSON list of chat messages (or {{'messages': [...]}})")
    return data


@compress_app.command("trajectory")
def compress_trajectory_command(
    file: str = typer.Argument(..., help="A JSON chat-message list or a ReAct transcript; - reads stdin."),
    method: str = typer.Option("agora", "--method", help="agora, none, truncate, floor, obs-mask, selective-context."),
    keep: float = typer.Option(0.3, "--keep", help="Share of past steps beyond the floor to keep (0..1)."),
    budget: int | None = typer.Option(None, "--budget", help="Token ceiling instead of a keep ratio."),
    dropped: str = typer.Option("remove", "--dropped", help="remove, or placeholder (keep the action, mask the "
                                                            "observation)."),
    scorer: Path | None = typer.Option(None, "--scorer", help="A scorer JSON from `relaykit trajectory train`."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """Compress an agent trajectory step by step without breaking its tool-call structure."""
    from relaykit.trajectory import compress_trajectory, load_scorer

    options: dict[str, Any] = {"budget": budget, "dropped": dropped}
    if scorer is not None:
        options["scorer"] = load_scorer(scorer)
    out = compress_trajectory(_load_trajectory(file), method=method, keep=keep, **options)
    acc = out.accounting.to_dict()
    if as_json:
        print_json({k: (out.messages if k == "messages" else acc[k]) for k in JSON_KEYS})
        return
    if isinstance(out.messages, str):
        typer.echo(out.messages)
    else:
        print_json(out.messages)
    err_console.print(f"[dim]{method}: {acc['tokens_in']} -> {acc['tokens_out']} tokens ({acc['ratio']:.2f}x), "
                      f"kept steps {list(acc['kept_steps'])}, dropped {list(acc['dropped_steps'])}, "
                      f"masked {list(acc['masked_steps'])}[/dim]", highlight=False)


@bench_app.command("trajectory")
def bench_trajectory(
    env: str = typer.Option(..., "--env", help="twx, scienceworld, bfcl, textworld, tau2-retail or tau2-airline."),
    policy: str | None = typer.Option(None, "--policy", help="A model spec (e.g. local) to play episodes with."),
    methods: list[str] = typer.Option(None, "--methods", help="Methods, comma-separated or repeated (default: "
                                      "none, agora, floor, truncate, obs-mask, selective-context)."),
    episodes: int = typer.Option(5, "--episodes", min=1),
    keep: float = typer.Option(0.3, "--keep"),
    dropped: str = typer.Option("remove", "--dropped", help="remove or placeholder."),
    max_steps: int = typer.Option(30, "--max-steps", min=1, help="Step limit per played episode."),
    seed: int = typer.Option(100, "--seed", help="First episode seed (training labels use 0 upwards)."),
    resume: str | None = typer.Option(None, "--resume", help="Continue this run id, skipping finished units."),
    store: Path | None = STORE_OPTION,
) -> None:
    """Every method on a real environment: validity, grounding recall, compression; reward with --policy."""
    from relaykit.bench.lab import StderrProgress
    from relaykit.bench.store import RunStore
    from relaykit.bench.trajectory import LabConfig, run_lab
    from relaykit.bench.trajectory.lab import DEFAULT_METHODS
    from relaykit.bench.trajectory.report import terminal
    from relaykit.trajectory import METHODS

    chosen = multi(methods, "--methods") or DEFAULT_METHODS
    unknown = [m for m in chosen if m not in METHODS]
    if unknown or not chosen:
        raise UsageError(f"unknown method(s) {unknown or methods!r}; use: {', '.join(METHODS)}")
    runs = RunStore(store)
    cfg = LabConfig(env=env, methods=chosen, episodes=episodes, seed=seed, keep=keep, dropped=dropped,
                    policy=policy, max_steps=max_steps)  # a resume uses the stored settings instead
    run_id = run_lab(cfg, runs, run_id=resume, progress=StderrProgress(f"trajectory lab on {cfg.env}"))
    terminal(runs, runs.get_run(run_id))
    for line in report_hint(run_id):
        console.print(line, highlight=False, soft_wrap=True)


@trajectory_app.command("train")
def train(
    policy: str = typer.Option("grounded", "--policy", help="grounded (scripted oracle policy) or a model spec "
                                                           "(e.g. local) whose log-prob drops grade each step."),
    envs: str = typer.Option("twx,scienceworld,bfcl", "--envs", help="Comma-separated environments."),
    episodes: int = typer.Option(12, "--episodes", min=1, help="Gold episodes per environment."),
    prefixes: int = typer.Option(6, "--prefixes", min=1, help="Prefixes labelled per episode."),
    threshold: float = typer.Option(0.5, "--threshold", help="Log-prob drop (nats) that labels a step as needed."),
    seed: int = typer.Option(0, "--seed"),
    test_share: float = typer.Option(0.25, "--test-share", help="Share of episodes held out for the AUC."),
    out: Path = typer.Option(Path("agora_scorer.json"), "--out", help="Where to write the scorer JSON."),
) -> None:
    """Label gold trajectories counterfactually, fit the step scorer, print the held-out AUC, save it."""
    from relaykit.bench.trajectory.labelset import LabelPlan, collect
    from relaykit.models import open_model
    from relaykit.trajectory.train import save_scorer, train_scorer

    plan = LabelPlan(envs=tuple(e.strip() for e in envs.split(",") if e.strip()), episodes=episodes,
                     prefixes=prefixes, seed=seed, policy=policy, threshold=threshold)
    model = None if policy == "grounded" else open_model(policy)
    started = time.perf_counter()
    with Progress(console=err_console) as progress:
        task = progress.add_task("labelling", total=episodes * len(plan.envs))
        data, n_episodes = collect(plan, model, on_episode=lambda _: progress.advance(task))
    labelled_s = time.perf_counter() - started
    report = train_scorer(data, test_share=test_share, seed=seed, meta={
        "policy": policy, "envs": list(plan.envs), "episodes": n_episodes, "prefixes_per_episode": prefixes,
        "threshold": threshold if model is not None else None, "label_seconds": round(labelled_s, 1)})
    save_scorer(report.scorer, out)
    console.print(f"labels: {report.train_rows + report.test_rows} steps from {n_episodes} episodes in "
                  f"{labelled_s:.1f}s ({report.train_positive:.1%} / {report.test_positive:.1%} positive)")
    console.print(f"train AUC {report.train_auc:.3f}   held-out AUC {report.test_auc:.3f} "
                  f"({report.test_rows} steps, {len(report.test_episodes)} episodes)")
    console.print(f"wrote {out}")
