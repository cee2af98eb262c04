"""Shared CLI helpers: reading input files, printing JSON, one-line errors."""

from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path
from typing import Any

import typer
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


TIMEOUT_OPTION: Any = typer.Option(
    None, "--timeout", metavar="SECONDS",
    help="Total seconds one call to a model endpoint may take: connect, headers and body together "
         "(default: $RELAYKIT_TIMEOUT, else 60). The embedded model runs in-process and is not bounded.")


def use_timeout(seconds: float | None) -> None:
    """Make ``--timeout`` the total deadline of every model call this command makes (via RELAYKIT_TIMEOUT)."""
    if seconds is None:
        return
    if not 0 < seconds < math.inf:
        raise UsageError(f"--timeout must be a positive number of seconds, not {seconds:g}")
    os.environ["RELAYKIT_TIMEOUT"] = repr(float(seconds))
