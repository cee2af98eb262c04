"""``relaykit compress trajectory``, ``relaykit bench trajectory`` and ``relaykit trajectory train``."""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer

from relaykit.cli._common import (
    TIMEOUT_OPTION,
    check_output_path,
    check_utf8_file,
    console,
    err_console,
    loads_json,
    multi,
    open_run_store,
    print_json,
    read_text,
    report_hint,
    use_timeout,
)
from relaykit.cli.groups import bench_app, compress_app
from relaykit.errors import UsageError

# The lab and its report kinds are imported when a command runs (`relaykit report` imports every lab's report).
trajectory_app = typer.Typer(help="Train and inspect the AGORA step scorer.\n\nExample: relaykit trajectory train "
                             "--envs twx --out scorer.json", no_args_is_help=True)
DEFAULT_LAB_METHODS = "none,agora,floor,truncate,obs-mask,selective-context"
STORE_OPTION = typer.Option(None, "--store", help="Run store file (default: $RELAYKIT_HOME/runs.sqlite).")


FORMATS = ("auto", "chat", "react", "responses", "anthropic", "gemini")


@dataclass(frozen=True)
class _Formatted:
    """A history in a provider format other than chat messages (compressed in that format)."""

    name: str
    data: Any


def _load_trajectory(file: str, history_format: str = "auto") -> list[dict[str, Any]] | str | _Formatted:
    if history_format not in FORMATS:
        raise UsageError(f"unknown --format {history_format!r}; use one of: {', '.join(FORMATS)}")
    text = read_text(file)
    stripped = text.lstrip()
    if not stripped:
        raise UsageError(f"{file} is empty; give a JSON chat-message list or a ReAct transcript")
    if not stripped.startswith(("[", "{")):
        if stripped.startswith(('"', "-")) or stripped[:1].isdigit() or stripped.rstrip() in ("null", "true", "false"):
            _refuse_json_scalar(stripped, file)
        if history_format not in ("auto", "react"):
            raise UsageError(f"{file} is not JSON, so it cannot be --format {history_format}; give a JSON history")
        return text  # a ReAct transcript
    if history_format == "react":
        raise UsageError(f"{file} is JSON, not a ReAct transcript; leave --format at auto or name its format")
    data = loads_json(text, file)
    name = history_format
    if name == "auto":
        from relaykit.trajectory.formats import detect_format

        name = detect_format(data) if not _plain_chat(data) else "chat"
    if name != "chat":
        return _Formatted(name, data)
    if isinstance(data, dict) and isinstance(data.get("messages"), list):
        data = data["messages"]
    if not isinstance(data, list):
        raise UsageError(f"{file} must hold a JSON list of chat messages (or {{'messages': [...]}})")
    return data


def _plain_chat(data: Any) -> bool:
    """A chat list, or a chat request body (``{"messages": [...]}`` without a provider's other keys)."""
    if isinstance(data, dict) and set(data) <= {"messages", "model", "tools", "temperature"}:
        data = data.get("messages")
    return isinstance(data, list) and (not data or all(isinstance(m, dict) and "role" in m for m in data)) and not \
        any(isinstance(m.get("content"), list) and any(isinstance(b, dict) and b.get("type") in (
            "tool_use", "tool_result", "thinking", "redacted_thinking", "input_text", "output_text") for b in
            m["content"]) for m in data if isinstance(m, dict))


def _refuse_json_scalar(text: str, file: str) -> None:
    """Text that is one JSON scalar (3, "x", null) is neither a message list nor a transcript."""

    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return
    raise UsageError(f"{file} holds a JSON {type(value).__name__}, not a chat-message list or a ReAct transcript")


@compress_app.command("trajectory")
def compress_trajectory_command(
    file: str = typer.Argument(..., help="A JSON chat-message list or a ReAct transcript; - reads stdin."),
    method: str = typer.Option("agora", "--method", help="agora, none, truncate, floor, obs-mask, selective-context, "
                                                         "recency, head-tail (or a plugin's name)."),
    keep: float = typer.Option(0.3, "--keep", help="Share of past steps beyond the floor to keep (0..1)."),
    budget: str | None = typer.Option(None, "--budget", help="Hard token ceiling: 1200 tokens or 30% of the input "
                                                             "(replaces --keep)."),
    dropped: str | None = typer.Option(None, "--dropped", help="remove; placeholder (keep the action, mask the "
                                                                   "observation with a digest); reference (placeholder "
                                                                   "+ a recall_step handle, originals stored). "
                                                                   "Default: placeholder with --budget, else remove."),
    digest_tokens: int = typer.Option(32, "--digest-tokens", min=0, help="Token bound of a masked step's digest "
                                                                         "(0: plain placeholder)."),
    store: Path | None = typer.Option(None, "--store", help="Reference store for --dropped reference (default: "
                                                            "$RELAYKIT_HOME/references.sqlite)."),
    scorer: Path | None = typer.Option(None, "--scorer", help="A scorer JSON from `relaykit trajectory train`."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON (messages, accounting, ...)."),
    history_format: str = typer.Option("auto", "--format", help="auto, chat, react, responses (OpenAI Responses "
                                                                "input), anthropic (Messages) or gemini (contents)."),
) -> None:
    """Compress an agent trajectory step by step without breaking its tool-call structure.

    Example: relaykit compress trajectory examples/trajectory/messages.json --keep 0.3 --json
    """
    from relaykit.trajectory import SQLiteReferenceStore, compress_trajectory, load_scorer

    options: dict[str, Any] = {"budget": budget, "dropped": dropped, "digest_tokens": digest_tokens}
    if scorer is not None:
        check_utf8_file(str(scorer), "--scorer")
        options["scorer"] = load_scorer(scorer)
    if dropped == "reference":
        options["store"] = SQLiteReferenceStore(store)
    source = _load_trajectory(file, history_format)
    if not isinstance(source, _Formatted):
        out = compress_trajectory(source, method=method, keep=keep, **options)
        if as_json:
            print_json(out.to_dict())
            return
    else:
        from relaykit.trajectory.formats import compress_formatted

        formatted = compress_formatted(source.data, method, format=source.name, keep=keep, **options)
        out = formatted.result
        if as_json:
            print_json({**out.to_dict(), "format": source.name, "messages": formatted.messages})
            return
        print_json(formatted.messages)
        _summary(out.accounting)
        return
    if isinstance(out.messages, str):
        sys.stdout.write(out.messages if out.messages.endswith("\n") else out.messages + "\n")
    else:
        print_json(out.messages)
    _summary(out.accounting)


def _summary(acc: Any) -> None:
    """The accounting line (and notices) on stderr, so stdout stays the compressed history alone."""
    ceiling = f", budget {acc.budget}" if acc.budget is not None else ""
    err_console.print(f"[dim]{acc.method}: {acc.tokens_in} -> {acc.tokens_out} tokens (ratio {acc.ratio:.2f}"
                      f"{ceiling}), kept steps {list(acc.kept)}, dropped {list(acc.dropped)}, masked "
                      f"{list(acc.masked)}[/dim]", highlight=False)
    for notice in acc.notices:
        err_console.print(f"[yellow]note:[/yellow] {notice}", highlight=False)


@trajectory_app.command("recall")
def recall_command(
    handle: str = typer.Argument(..., help="A handle from a placeholder (step-...)."),
    store: Path | None = typer.Option(None, "--store", help="Reference store (default: "
                                                            "$RELAYKIT_HOME/references.sqlite)."),
    as_json: bool = typer.Option(False, "--json", help="Print the step's original messages as JSON."),
) -> None:
    """Print the original observation of a step elided with --dropped reference.

    Example: relaykit trajectory recall step-3f9a2c1d --json
    """
    from relaykit.trajectory import SQLiteReferenceStore, recall
    from relaykit.trajectory.recall import original_observation

    messages = recall(SQLiteReferenceStore(store), handle)
    if as_json:
        print_json(messages)
    else:
        sys.stdout.write(original_observation(messages) + "\n")


@bench_app.command("trajectory")
def bench_trajectory(
    env: str = typer.Option(..., "--env", help="twx, twx-rooms, scienceworld, bfcl, textworld, tau2-retail or "
                                               "tau2-airline (comma-separated with --decision-points)."),
    policy: str | None = typer.Option(None, "--policy", help="A model spec (e.g. local) to play episodes with."),
    methods: list[str] = typer.Option(None, "--methods", help="Methods, comma-separated or repeated (default: "
                                      "none, agora, floor, truncate, obs-mask, selective-context; with "
                                      "--decision-points: agora, its ablations, the recency / head-tail "
                                      "baselines and 'ceiling', a bound on what any method could keep)."),
    episodes: int = typer.Option(5, "--episodes", min=1),
    keep: float | None = typer.Option(None, "--keep", help="Share of steps kept (default 0.3; not with "
                                                           "--decision-points, which compresses to --budget)."),
    dropped: str | None = typer.Option(None, "--dropped", help="remove or placeholder (default remove)."),
    max_steps: int | None = typer.Option(None, "--max-steps", min=1, help="Step limit per played episode "
                                                                          "(default 30)."),
    seed: int | None = typer.Option(None, "--seed", help="First episode seed (default 100; 105 with "
                                                         "--decision-points; training labels use 0 to 11)."),
    resume: str | None = typer.Option(None, "--resume", help="Continue this run id, skipping finished units."),
    store: Path | None = STORE_OPTION,
    decision_points: bool = typer.Option(False, "--decision-points", help="Compress before every gold step t >= 3 "
                                         "to each --budget: validity, within budget, floor kept, entity recall."),
    budget: str | None = typer.Option(None, "--budget", help="With --decision-points: comma-separated budgets "
                                                                  "(shares like 30% or token counts; default "
                                                                  "30%,50%)."),
    as_json: bool = typer.Option(False, "--json", help="Print {run_id, methods: [per-method rows]} as JSON (the "
                                 "summary rows with --decision-points)."),
    timeout: float | None = TIMEOUT_OPTION,
) -> None:
    """Every method on a real environment: validity, grounding recall, compression; reward with --policy.

    Example: relaykit bench trajectory --env twx --episodes 3 --json
    """
    use_timeout(timeout)
    if decision_points:
        unused = [name for name, value in (("--keep", keep), ("--dropped", dropped), ("--policy", policy),
                                           ("--max-steps", max_steps)) if value is not None]
        if unused:
            verb = "does" if len(unused) == 1 else "do"
            raise UsageError(f"{' and '.join(unused)} {verb} not apply with --decision-points, which compresses the "
                             "recorded gold histories to each --budget; leave it out")
        _decision_points(env, multi(methods, "--methods"), episodes, seed, budget or "30%,50%", resume, store,
                         as_json)
        return
    if budget is not None:
        raise UsageError("--budget applies with --decision-points; the plain lab keeps a share of each history's "
                         "steps: give --keep (for example --keep 0.3)")
    keep = 0.3 if keep is None else keep
    dropped = dropped or "remove"
    max_steps = 30 if max_steps is None else max_steps
    from relaykit.bench.lab import StderrProgress
    from relaykit.bench.trajectory import LabConfig, run_lab
    from relaykit.bench.trajectory.lab import DEFAULT_METHODS
    from relaykit.bench.trajectory.report import terminal
    from relaykit.trajectory import METHODS

    chosen = multi(methods, "--methods") or DEFAULT_METHODS
    unknown = [m for m in chosen if m not in METHODS]
    if unknown:
        raise UsageError(f"unknown method(s) {', '.join(unknown)}; use: {', '.join(METHODS.names())}")
    if resume is None:
        from relaykit.bench.trajectory.envs import ADAPTERS

        if env not in ADAPTERS:
            raise UsageError(ADAPTERS.unknown_message(env))
        if not 0.0 <= keep <= 1.0 or dropped not in ("remove", "placeholder"):
            raise UsageError(f"--keep must be in [0, 1] (not {keep:g}) and --dropped remove or placeholder "
                             f"(not {dropped!r})")
    runs = open_run_store(store, resume)
    cfg = LabConfig(env=env, methods=chosen, episodes=episodes, seed=100 if seed is None else seed, keep=keep,
                    dropped=dropped, policy=policy, max_steps=max_steps)  # a resume uses the stored settings
    run_id = run_lab(cfg, runs, run_id=resume, progress=StderrProgress(f"trajectory lab on {cfg.env}"))
    if as_json:
        from relaykit.bench.trajectory.report import summarize

        print_json({"run_id": run_id, "methods": summarize(runs.results(run_id))})
        return
    terminal(runs, runs.get_run(run_id))
    for line in report_hint(run_id):
        console.print(line, highlight=False, soft_wrap=True)


def _decision_points(env: str, methods: tuple[str, ...] | None, episodes: int, seed: int | None, budget: str,
                     resume: str | None, store: Path | None, as_json: bool) -> None:
    from relaykit.bench.lab import StderrProgress
    from relaykit.bench.trajectory.decisions import DEFAULT_METHODS, DecisionConfig, run_decisions
    from relaykit.bench.trajectory.decisions_report import json_summary, terminal

    runs = open_run_store(store, resume)
    cfg = DecisionConfig(envs=tuple(e.strip() for e in env.split(",") if e.strip()),
                         methods=methods or DEFAULT_METHODS,
                         budgets=tuple(b.strip() for b in budget.split(",") if b.strip()), episodes=episodes,
                         seed=DecisionConfig.seed if seed is None else seed)  # a resume uses the stored settings
    run_id = run_decisions(cfg, runs, run_id=resume, progress=StderrProgress("decision points"))
    if as_json:
        run = runs.get_run(run_id)
        print_json({"run_id": run_id, "config": run.config, **json_summary(runs, run)})
        return
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
    seed: int = typer.Option(0, "--seed", min=0),
    test_share: float = typer.Option(0.25, "--test-share", help="Share of episodes held out for the AUC."),
    out: Path = typer.Option(Path("agora_scorer.json"), "--out", help="Where to write the scorer JSON."),
    as_json: bool = typer.Option(False, "--json", help="Print {out, episodes, train_rows, test_rows, train_auc, "
                                 "test_auc, label_seconds} as JSON."),
    timeout: float | None = TIMEOUT_OPTION,
) -> None:
    """Label gold trajectories counterfactually, fit the step scorer, print the held-out AUC, save it.

    Example: relaykit trajectory train --envs twx --episodes 4 --out scorer.json
    """
    use_timeout(timeout)
    from relaykit.bench.trajectory.labelset import LabelPlan, collect
    from relaykit.models import open_model
    from relaykit.trajectory.train import save_scorer, train_scorer

    if not 0.0 < test_share < 1.0:
        raise UsageError(f"--test-share must be above 0 and below 1 (a share of the episodes), not {test_share:g}")
    check_output_path(out, "--out")
    plan = LabelPlan(envs=tuple(e.strip() for e in envs.split(",") if e.strip()), episodes=episodes,
                     prefixes=prefixes, seed=seed, policy=policy, threshold=threshold)
    model = None if policy == "grounded" else open_model(policy)
    started = time.perf_counter()
    from rich.progress import Progress

    with Progress(console=err_console) as progress:  # stdout carries only results
        task = progress.add_task("labelling", total=episodes * len(plan.envs))
        data, n_episodes = collect(plan, model, on_episode=lambda _: progress.advance(task))
    labelled_s = time.perf_counter() - started
    report = train_scorer(data, test_share=test_share, seed=seed, meta={
        "policy": policy, "envs": list(plan.envs), "episodes": n_episodes, "prefixes_per_episode": prefixes,
        "threshold": threshold if model is not None else None, "label_seconds": round(labelled_s, 1)})
    save_scorer(report.scorer, out)
    if as_json:
        print_json({"out": str(out), "episodes": n_episodes, "train_rows": report.train_rows,
                    "test_rows": report.test_rows, "train_auc": report.train_auc, "test_auc": report.test_auc,
                    "label_seconds": round(labelled_s, 1)})
        return
    console.print(f"labels: {report.train_rows + report.test_rows} steps from {n_episodes} episodes in "
                  f"{labelled_s:.1f}s ({report.train_positive:.1%} / {report.test_positive:.1%} positive)")
    console.print(f"train AUC {report.train_auc:.3f}   held-out AUC {report.test_auc:.3f} "
                  f"({report.test_rows} steps, {len(report.test_episodes)} episodes)")
    console.print(f"wrote {out}")
