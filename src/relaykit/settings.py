"""Every environment variable relaykit reads, read here and nowhere else."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    """Frozen process settings; build with :func:`load_settings`."""

    home: Path
    default_model: str
    openai_api_key: str | None
    openai_base_url: str | None
    local_gguf: Path | None
    threads: int


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
    )


def env_value(name: str) -> str | None:
    """One named variable, for backends that take their key's name as a setting."""
    return os.environ.get(name)
