"""``relaykit serve``: run the OpenAI-compatible gateway."""

from __future__ import annotations

import os

import typer

from relaykit.errors import UsageError


def serve(
    config: str = typer.Option("gateway.toml", "--config", help="The gateway's TOML file (see examples/gateway.toml)."),
    host: str = typer.Option("127.0.0.1", help="Address to listen on."),
    port: int = typer.Option(8080, help="Port to listen on."),
    workers: int = typer.Option(1, help="Worker processes (share state through Redis: cache/rate_store redis://)."),
    hash_key: str | None = typer.Option(None, "--hash-key", help="Print the key_sha256 for a tenant key and exit."),
) -> None:
    """Serve POST /v1/chat/completions and /v1/responses, GET /v1/models, /healthz and /metrics in front of your
    upstream models.

    Example: relaykit serve --config examples/gateway.toml --port 8080
    """
    from relaykit.serve.config import hash_key as digest
    from relaykit.serve.config import load_config

    if hash_key is not None:
        typer.echo(digest(hash_key))
        return
    if not 0 < port < 65536:
        raise UsageError(f"--port must be between 1 and 65535, not {port}")
    if workers < 1:
        raise UsageError(f"--workers must be at least 1, not {workers}")
    parsed = load_config(config)  # every mistake in the file is reported before anything listens
    if workers > 1 and "memory" in (parsed.server.cache, parsed.server.rate_store):
        typer.echo("note: with several workers, a memory cache and rate limit are per worker; "
                   "use redis://... to share them", err=True)
    import uvicorn

    from relaykit.serve.app import CONFIG_ENV

    os.environ[CONFIG_ENV] = os.path.abspath(config)
    uvicorn.run("relaykit.serve.app:from_environment", factory=True, host=host, port=port, workers=workers,
                log_level="warning", access_log=False)


__all__ = ["serve"]
