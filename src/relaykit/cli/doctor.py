"""``relaykit doctor``: run every component once, for real, and say what works."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata

import typer
from rich.table import Table

from relaykit.cli._common import TIMEOUT_OPTION, console, print_json, use_timeout


@dataclass
class Check:
    name: str
    ok: bool
    detail: str
    seconds: float


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def _check_tokens() -> str:
    from relaykit.tokens import count

    n = count("relaykit counts tokens offline")
    return f"bpe-openai {_version('bpe-openai')}: o200k_base, {n} tokens in a probe sentence"


def _check_generation() -> str:
    from relaykit.models import open_model

    model = open_model("local")
    response = model.complete("Say hello.", max_tokens=10)
    return f"llama-cpp-python {_version('llama-cpp-python')}: {model.name}, {response.completion_tokens} tokens"


def _check_structured() -> str:
    from pydantic import BaseModel

    from relaykit.models import complete_structured, open_model

    class _Probe(BaseModel):  # defined here: starting the CLI does not import pydantic
        city: str
        nights: int

    value = complete_structured(
        open_model("local"), "A trip to London for 3 nights. Give the city and the nights as JSON.", _Probe,
        max_tokens=40,
    )
    return f"grammar-constrained JSON parsed: {value.model_dump_json()}"


def _check_embedder() -> str:
    from relaykit.embeddings import open_embedder

    vectors = open_embedder("minilm").embed(["a hotel near the centre", "a flight in the morning"])
    return f"MiniLM-L6 (NumPy, tokenizers {_version('tokenizers')}), dim {vectors.shape[1]}"


CHECKS: list[tuple[str, Callable[[], str]]] = [
    ("token counter", _check_tokens),
    ("embedded model: generation", _check_generation),
    ("embedded model: schema-constrained", _check_structured),
    ("embedder", _check_embedder),
]


def run_checks() -> list[Check]:
    results = []
    for name, fn in CHECKS:
        started = time.perf_counter()
        try:
            detail, ok = fn(), True
        except Exception as exc:  # doctor reports every failure instead of stopping
            detail, ok = f"{type(exc).__name__}: {exc}", False
        results.append(Check(name, ok, detail, round(time.perf_counter() - started, 3)))
    return results


def doctor(as_json: bool = typer.Option(False, "--json", help="Print a JSON object instead of a table."),
           timeout: float | None = TIMEOUT_OPTION) -> None:
    """Run each component once for real and report status, version and time.

    Example: relaykit doctor --json
    """
    use_timeout(timeout)
    results = run_checks()
    ok = all(r.ok for r in results)
    if as_json:
        print_json({"components": [r.__dict__ for r in results], "ok": ok})
    else:
        table = Table(title=f"relaykit {_version('relaykit')} doctor")
        for column in ("component", "status", "detail", "time"):
            table.add_column(column)
        for r in results:
            status = "[green]ok[/green]" if r.ok else "[red]FAILED[/red]"
            table.add_row(r.name, status, r.detail, f"{r.seconds:.2f}s")
        console.print(table)
    if not ok:
        raise typer.Exit(1)
