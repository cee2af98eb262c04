"""Shared CLI helpers: reading input files, printing JSON, one-line errors."""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Mapping
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
        try:
            if not file.is_file():
                raise UsageError(missing_file(path))
            data = file.read_bytes()
        except OSError as exc:  # a name too long, no permission, a broken disk: the system's reason
            raise UsageError(f"cannot read {path[:200]}: {exc.strerror or exc}") from None
        where = path
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{where} is not UTF-8: invalid byte 0x{data[exc.start]:02x} at offset {exc.start}") from None


def missing_file(path: str, option: str = "") -> str:
    """The one-line error for an input path that is not a readable file: a folder is named as one."""
    where = f"{option} {path}" if option else path
    try:
        folder = Path(path).is_dir()
    except OSError as exc:
        return f"cannot use {where[:200]}: {exc.strerror or exc}"
    if folder:
        return f"{where} is a folder; give the path of a file inside it"
    return f"no such file: {where}"


def read_json(path: str) -> Any:
    return loads_json(read_text(path), path)


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


# --- Input validation shared by the commands: every check runs before any work or any file is written. ---


def loads_json(text: str, where: str) -> Any:
    """Parse JSON text; bad or absurdly nested JSON is a ``UsageError`` naming ``where``."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{where} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except RecursionError:
        raise UsageError(f"{where} is JSON nested too deeply to read; flatten it") from None


def check_output_path(path: Path | str, option: str) -> Path:
    """``path`` can be written as a file: not a folder, and its folder exists (checked before any work)."""
    file = Path(path)
    if file.is_dir():
        raise UsageError(f"{option} {file} is a folder; give a file path such as {file / 'out.json'}")
    parent = file.parent
    if not parent.is_dir():
        raise UsageError(f"{option} {file}: the folder {parent} does not exist; create it first or choose another path")
    if (file.exists() and not os.access(file, os.W_OK)) or not os.access(parent, os.W_OK):
        raise UsageError(f"{option} {file} cannot be written (permission denied); choose another path")
    return file


def check_at_least(value: float | None, minimum: float, option: str, hint: str = "") -> None:
    """``value`` (when given) is at least ``minimum``."""
    if value is not None and (value != value or value < minimum):
        raise UsageError(f"{option} must be at least {minimum:g}, not {value:g}{hint}")


def check_utf8_file(path: str, option: str = "") -> None:
    """``path`` is an existing UTF-8 file (read once and decoded, so bad bytes are named before any work)."""
    if path != "-" and not Path(path).is_file():
        raise UsageError(missing_file(path, option))
    read_text(path)


def check_method_settings(method: str, settings: Mapping[str, Any]) -> None:
    """Settings of a hand-off method: known names, and values of the type (and range) the method takes."""
    from relaykit.handoff.base import get_compressor, resolve_settings

    defaults = get_compressor(method).defaults
    resolve_settings(method, defaults, settings)
    for key, value in settings.items():
        problem = _setting_problem(key, value, defaults[key])
        if problem:
            raise UsageError(f"method {method!r}: setting {key}={value!r} {problem}")


_UNIT_SETTINGS = {"ratio", "head", "threshold"}
_POSITIVE_SETTINGS = {"budget", "batch_size", "max_tokens", "chunk_tokens", "max_words"}


def _setting_problem(key: str, value: Any, default: Any) -> str | None:
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if isinstance(default, bool):
        return None if isinstance(value, bool) else "must be true or false"
    if key in _UNIT_SETTINGS or key in _POSITIVE_SETTINGS or isinstance(default, (int, float)):
        if not number or value != value:
            return "must be a number"
        whole = key in ("budget",) or (isinstance(default, int) and not isinstance(default, bool))
        if whole and float(value) != int(value):
            return "must be a whole number"
        if key in _UNIT_SETTINGS and not (0.0 <= value <= 1.0 and (key != "ratio" or value > 0)):
            return "must be between 0 and 1" + (" (above 0)" if key == "ratio" else "")
        if key in _POSITIVE_SETTINGS and value < 1:
            return "must be 1 or more"
        if key == "max_repairs" and value < 0:
            return "must be 0 or more"
        return None
    if key == "id_pattern" and value is not None:
        if not isinstance(value, str):
            return "must be a regular expression"
        from relaykit.handoff.text import compile_id_pattern

        compile_id_pattern(value)
    if isinstance(default, str) and not isinstance(value, str):
        return "must be text"
    return None


def check_cache_spec(spec: str) -> None:
    """A ``--cache`` spec that names a known store and, for Redis, one that answers now (before any run)."""
    scheme, _, rest = spec.partition(":")
    if scheme == "sqlite" and rest:
        check_output_path(rest, "--cache sqlite:")
        return
    if scheme in ("sqlite", "memory") and not (scheme == "memory" and rest):
        return
    from relaykit.models.cache import open_store

    open_store(spec).close()  # unknown schemes and unreachable servers raise UsageError here


def existing_sqlite(path: Path, what: str) -> Path:
    """For read-only commands: ``path`` is an existing SQLite file (nothing is created or converted)."""
    if not path.is_file():
        raise UsageError(f"no {what} at {path}; check the path (this command reads a store, it never creates one)")
    with path.open("rb") as handle:
        header = handle.read(16)
    if header != b"SQLite format 3\x00":
        raise UsageError(f"{path} is not a {what} (not an SQLite file); check the path")
    return path


def open_run_store(store: Path | None, resume: str | None = None) -> Any:
    """The run store of a lab command; resuming needs an existing store (a mistyped path creates nothing)."""
    from relaykit.bench.store import RunStore, default_store_path

    if resume is not None:
        path = store or default_store_path()
        if not path.is_file():
            raise UsageError(f"cannot resume {resume}: no run store at {path}; check --store (`relaykit runs "
                             "--store PATH` lists a store's runs)")
        existing_sqlite(path, "run store")
    return RunStore(store)


TIMEOUT_OPTION: Any = typer.Option(
    None, "--timeout", metavar="SECONDS",
    help="Total seconds one call to a model endpoint may take: connect, headers and body together "
         "(default: $RELAYKIT_TIMEOUT, else 60; the embedded model keeps it once its prompt is read).")


def use_timeout(seconds: float | None) -> None:
    """Make ``--timeout`` the total deadline of every model call this command makes (via RELAYKIT_TIMEOUT)."""
    if seconds is None:
        return
    if not 0 < seconds < math.inf:
        raise UsageError(f"--timeout must be a positive number of seconds, not {seconds:g}")
    os.environ["RELAYKIT_TIMEOUT"] = repr(float(seconds))


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
