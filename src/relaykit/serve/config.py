"""The gateway's configuration file (TOML), validated up front: every mistake is named with its place."""

from __future__ import annotations

import hashlib
import re
import sys
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from relaykit.errors import UsageError
from relaykit.redact import strip_url_credentials

if sys.version_info >= (3, 11):  # pragma: no cover - version switch
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

_SHARE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*%\s*$")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Upstream(_Strict):
    """One OpenAI-compatible server and the model name it is asked for."""

    base_url: str
    model: str
    api_key_env: str | None = None
    context_window: int = Field(128_000, ge=256)
    deadline_s: float | None = Field(None, gt=0)

    @cached_property
    def label(self) -> str:
        """How the upstream is named in headers and metrics: the model and host, never credentials."""
        host = strip_url_credentials(self.base_url).split("://", 1)[-1].split("/")[0]
        return f"{self.model}@{host}"


class Compression(_Strict):
    """How a route compresses histories: ``budget`` in tokens, a share (``"30%"``) or ``"fit"`` (only when the
    request would not fit the smallest upstream window)."""

    method: str = "agora"
    budget: int | str = "fit"
    options: dict[str, Any] = Field(default_factory=dict)

    @field_validator("budget")
    @classmethod
    def _budget(cls, value: int | str) -> int | str:
        if isinstance(value, int):
            if value < 1:
                raise ValueError("a token budget must be a positive number")
            return value
        if value == "fit" or _SHARE.match(value):
            return value
        raise ValueError(f"budget must be tokens, a share like '30%', or 'fit', not {value!r}")


class Route(_Strict):
    """What clients reach by sending ``model = ALIAS``."""

    upstreams: list[Upstream] = Field(min_length=1)
    compression: Compression | None = None
    structure_check: Literal["reject", "pass"] = "reject"
    cache: Literal["exact", "semantic", "off"] = "exact"
    default_max_tokens: int = Field(1024, ge=1)
    embedder: str = "minilm"  # semantic cache only: an embedder spec (minilm, hashing[:DIM], openai:MODEL...)
    threshold: float = Field(0.92, gt=0, le=1)  # semantic cache only: the least cosine similarity of a hit

    @field_validator("embedder")
    @classmethod
    def _embedder(cls, value: str) -> str:
        from relaykit.embeddings.base import EMBEDDERS

        try:
            EMBEDDERS.get(value.partition(":")[0])
        except UsageError as exc:
            raise ValueError(str(exc)) from None
        return value


class Tenant(_Strict):
    """A client team: its API key is stored only as a SHA-256 hex digest."""

    name: str = Field(min_length=1)
    key_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    requests_per_minute: int = Field(600, ge=1)


class Server(_Strict):
    max_request_bytes: int = Field(2_000_000, ge=1024)
    deadline_s: float = Field(60.0, gt=0)
    cache: str = "memory"
    rate_store: str = "memory"
    telemetry_jsonl: str | None = None


class TelemetryConfig(_Strict):
    """Where the gateway's events go: sink specs of ``relaykit.telemetry.SINKS`` (``jsonl:PATH``, ``otel``,
    ``otel:http://HOST:4318``...). Content is never recorded unless ``include_content``; secrets never are."""

    sinks: list[str] = Field(default_factory=list)
    include_content: bool = False


class GatewayConfig(_Strict):
    server: Server = Server.model_validate({})
    telemetry: TelemetryConfig = TelemetryConfig()
    tenants: list[Tenant] = Field(min_length=1)
    routes: dict[str, Route] = Field(min_length=1)

    def tenant_for(self, key: str) -> Tenant | None:
        digest = hash_key(key)
        return next((t for t in self.tenants if t.key_sha256 == digest), None)

    def tenants_by_digest(self) -> dict[str, Tenant]:
        """Each tenant under its key's digest (one dictionary look-up per request)."""
        return {t.key_sha256: t for t in self.tenants}


def hash_key(key: str) -> str:
    """The SHA-256 hex digest a tenant's ``key_sha256`` holds: ``relaykit serve hash-key KEY`` prints it."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def parse_config(data: dict[str, Any], source: str = "the configuration") -> GatewayConfig:
    try:
        return GatewayConfig.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or '(top)'}: {e['msg']}" for e in exc.errors())
        raise UsageError(f"{source} is not a valid gateway configuration: {problems}") from None


def load_config(path: str | Path) -> GatewayConfig:
    """Read and validate a gateway TOML file; ``UsageError`` names every problem."""
    file = Path(path)
    if not file.is_file():
        raise UsageError(f"no gateway configuration at {file}; copy examples/gateway.toml and edit it")
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UsageError(f"{file} is not valid TOML: {exc}") from None
    return parse_config(data, str(file))


__all__ = ["Compression", "GatewayConfig", "Route", "Server", "TelemetryConfig", "Tenant", "Upstream", "hash_key",
           "load_config", "parse_config"]
