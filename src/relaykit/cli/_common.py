"""Shared CLI helpers: reading input files, printing JSON, one-line errors."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from relaykit.errors import UsageError

console = Console()
err_console = Console(stderr=True)


def read_text(path: str) -> str:
    """Read a UTF-8 file (``-`` reads stdin); a ``UsageError`` names the byte offset of bad bytes."""
    if path == "-":
        data = sys.stdin.buffer.read()
        where = "standard input"
    else:
        file = Path(path)
        if not file.is_file():
            raise UsageError(f"no such file: {path}")
        data = file.read_bytes()
        where = path
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{where} is not UTF-8: invalid byte 0x{data[exc.start]:02x} at offset {exc.start}") from None


def read_json(path: str) -> Any:
    text = read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None


def _finite(value: Any) -> Any:
    """NaN and infinities become null: they are not JSON, and an undefined figure (no data) is null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def print_json(value: Any) -> None:
    """Print strict JSON (undefined figures as null)."""
    sys.stdout.write(json.dumps(_finite(value), indent=2, default=str, allow_nan=False) + "\n")


def multi(values: str | list[str] | tuple[str, ...] | None, flag: str) -> tuple[str, ...] | None:
    """One convention for multi-value flags: comma-separated, repeatable, or both (``--model a,b --model c``).

    None when the flag was not given; a flag given with nothing in it (``--methods ""``) is a ``UsageError``.
    """
    if values is None or (not isinstance(values, str) and len(values) == 0):
        return None
    given = [values] if isinstance(values, str) else list(values)
    items = tuple(part.strip() for value in given for part in value.split(",") if part.strip())
    if not items:
        raise UsageError(f"{flag} was given but names nothing; give at least one value (comma-separated or "
                         f"repeated: {flag} A,B or {flag} A {flag} B), or leave it out for the default")
    return items


def report_hint(run_id: str) -> list[str]:
    """The last lines of a lab command: the run id and the exact command that writes its HTML report."""
    return [f"run id: {run_id}", f"HTML report: relaykit report {run_id} --html {run_id}.html"]
