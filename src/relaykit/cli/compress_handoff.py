"""``relaykit compress handoff FILE --goal TEXT``: compress a trace for the next agent, optionally audited."""

from __future__ import annotations

import json
import sys
from typing import Any

import typer
from rich.markup import escape

from relaykit.cli._common import (
    TIMEOUT_OPTION,
    check_method_settings,
    err_console,
    print_json,
    read_json,
    read_text,
    use_timeout,
)
from relaykit.errors import UsageError


def parse_setting(item: str) -> tuple[str, Any]:
    """``key=value`` with the value read as JSON when it is (numbers, true/false, null), else as text."""
    key, sep, raw = item.partition("=")
    if not sep or not key.strip():
        raise UsageError(f"--setting takes key=value, not {item!r}")
    try:
        value: Any = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key.strip().replace("-", "_"), value


def _facts(path: str | None) -> list[Any] | None:
    if path is None:
        return None
    data = read_json(path)
    if not isinstance(data, list):
        raise UsageError(f"{path} must hold a JSON list of {{\"id\", \"attribute\", \"value\"}} objects")
    return data


def compress_handoff(
    file: str = typer.Argument(..., help="The upstream trace: a UTF-8 text file, or - for standard input."),
    goal: str = typer.Option(..., "--goal", help="The goal the next agent works on."),
    method: str = typer.Option("prune", "--method", help="passthrough, summary, extract, extract-rules, prune, "
                               "truncate, tfidf, selective, or a plugin's name."),
    setting: list[str] = typer.Option([], "--setting", help="A method setting as key=value (repeatable)."),
    facts: str | None = typer.Option(None, "--facts", help="JSON list of {id, attribute, value} to audit."),
    model: str | None = typer.Option(None, "--model", help="Model spec for summary/extract/selective "
                                     "(default: the embedded model)."),
    embedder: str | None = typer.Option(None, "--embedder", help="Embedder spec for prune (default: minilm)."),
    payload_format: str | None = typer.Option(None, "--format", help="extract-rules payload: text (the "
                                              "compact evidence table, default) or json."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of text."),
    timeout: float | None = TIMEOUT_OPTION,
) -> None:
    """Compress a hand-off trace with one method; print the payload and the token accounting.

    Example: relaykit compress handoff examples/handoff/trace.txt --goal "a gym" --facts examples/handoff/facts.json
    """
    use_timeout(timeout)
    from relaykit.embeddings import open_embedder
    from relaykit.handoff import audit, invented_values
    from relaykit.handoff import compress_handoff as compress
    from relaykit.handoff.base import LARGER_THAN_TRACE
    from relaykit.models import open_model

    settings = dict(parse_setting(s) for s in setting)
    if payload_format is not None:
        settings["format"] = payload_format
    check_method_settings(method, settings)  # before reading, opening a model or an embedder
    fact_list = _facts(facts)
    trace = read_text(file)
    handoff = compress(trace, goal, method, model=open_model(model) if model else None,
                       embedder=open_embedder(embedder) if embedder else None, **settings)
    report = audit(handoff, fact_list) if fact_list is not None else None
    lost = [vars(f) for f in report.lost] if report else []
    invented = invented_values(handoff.payload, trace, goal)
    warnings = list(handoff.warnings)
    if as_json:  # the hand-off's notices travel in the JSON; the one about its size is also said on stderr
        for warning in (w for w in warnings if LARGER_THAN_TRACE in w):
            err_console.print(f"[yellow]warning:[/yellow] {escape(warning)}", highlight=False)
        print_json({"method": method, "payload": handoff.payload, "accounting": handoff.accounting.to_dict(),
                    "tokens_in": handoff.tokens_in, "tokens_out": handoff.tokens_out, "ratio": handoff.ratio,
                    "evidence_recall": report.recall if report else None, "lost_facts": lost,
                    "invented_facts": invented})
        return
    sys.stdout.write(handoff.payload_text + "\n")
    for warning in warnings:
        err_console.print(f"[yellow]warning:[/yellow] {escape(warning)}", highlight=False)
    line = f"{method}: {handoff.tokens_in} → {handoff.tokens_out} tokens, ratio {handoff.ratio:.3f}"
    if report is not None:
        line += f", evidence recall {report.recall:.3f} ({len(report.lost)} lost)"
    if invented:
        line += f", {len(invented)} invented value(s): {', '.join(invented[:5])}"
    err_console.print(line, highlight=False)
