"""Every environment variable relaykit reads, read here and nowhere else; and how relaykit creates its files.

Files relaykit writes (traces, run stores, caches) may hold prompts and answers: :func:`private_file`
creates them readable by their owner only (0600), and :func:`private_dir` creates missing folders, such as
``RELAYKIT_HOME``, as 0700.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from relaykit.errors import UsageError

PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600


@dataclass(frozen=True)
class Settings:
    """Frozen process settings; build with :func:`load_settings`."""

    home: Path
    default_model: str
    openai_api_key: str | None
    openai_base_url: str | None
    local_gguf: Path | None
    threads: int
    timeout: float | None = None
    """Total seconds one model call may take (connect, headers and body), from ``RELAYKIT_TIMEOUT``."""
    pure_python: bool = False
    """Run the hand-off reader's Python source and the cache index's numpy search even where they are compiled
    (``RELAYKIT_PURE_PYTHON=1``)."""


def load_settings(environ: dict[str, str] | None = None) -> Settings:
    """Read relaykit's settings from the environment (or the mapping given)."""
    env = dict(os.environ if environ is None else environ)
    home = Path(env.get("RELAYKIT_HOME") or Path.cwd() / ".relaykit")
    gguf = env.get("RELAYKIT_LOCAL_GGUF")
    return Settings(
        home=home,
        default_model=env.get("RELAYKIT_MODEL", "local"),
        openai_api_key=env.get("OPENAI_API_KEY"),
        openai_base_url=env.get("OPENAI_BASE_URL"),
        local_gguf=Path(gguf) if gguf else None,
        threads=int(env.get("RELAYKIT_THREADS") or min(4, os.cpu_count() or 2)),
        timeout=_seconds(env, "RELAYKIT_TIMEOUT"),
        pure_python=env.get("RELAYKIT_PURE_PYTHON", "").strip().lower() in ("1", "true", "yes"),
    )


def _seconds(env: dict[str, str], name: str) -> float | None:
    raw = env.get(name)
    if not raw:
        return None
    try:
        value = float(raw)
    except ValueError:
        value = float("nan")
    if not value > 0 or value == float("inf"):
        raise UsageError(f"{name} must be a positive number of seconds, not {raw!r}")
    return value


def env_value(name: str) -> str | None:
    """One named variable, for backends that take their key's name as a setting."""
    return os.environ.get(name)


def private_dir(path: str | Path) -> Path:
    """Create ``path`` and any missing parents as 0700 (owner only); an existing folder is left as it is."""
    folder = Path(path)
    missing = []
    for candidate in (folder, *folder.parents):
        if candidate.exists():
            break
        missing.append(candidate)
    for candidate in reversed(missing):
        try:
            candidate.mkdir(mode=PRIVATE_DIR_MODE)
        except FileExistsError:
            continue  # created meanwhile by another process
    return folder


def private_file(path: str | Path) -> Path:
    """Make sure ``path`` exists, created as 0600 (owner only) in 0700 folders when relaykit creates them.

    Call it before opening a file relaykit writes (SQLite databases, JSONL traces): the file then keeps
    these permissions, and SQLite gives its -wal and -shm files the same ones. An existing file is neither
    changed nor truncated.
    """
    file = Path(path)
    private_dir(file.parent)
    fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_APPEND, PRIVATE_FILE_MODE)
    os.close(fd)
    return file
