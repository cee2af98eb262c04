"""The gateway's ASGI app: ``POST /v1/chat/completions`` (plain and streaming), ``GET /v1/models``,
``GET /healthz`` and ``GET /metrics``.

Every answer carries headers that say what happened: ``x-relaykit-tokens-before`` / ``-after`` (the history's
tokens before and after compression), ``x-relaykit-cache`` (hit, miss or off) and ``x-relaykit-upstream`` (which
upstream answered, or ``cache``). Errors use the OpenAI error shape, with a message that says what to fix.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio.to_thread
import httpx2
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route as HttpRoute

from relaykit.errors import UsageError
from relaykit.serve.config import GatewayConfig, Route, Tenant, load_config
from relaykit.serve.metrics import Metrics
from relaykit.serve.policy import Shaped, check, shape
from relaykit.serve.state import ExactCache, cache_key, cacheable, open_rate_limiter
from relaykit.serve.upstream import AllUpstreamsFailed, UpstreamReply, forward
from relaykit.settings import private_file

CONFIG_ENV = "RELAYKIT_GATEWAY_CONFIG"


class GatewayError(Exception):
    def __init__(self, status: int, message: str, kind: str = "invalid_request_error",
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.kind, self.headers = status, kind, headers or {}

    def response(self) -> JSONResponse:
        body = {"error": {"message": str(self), "type": self.kind, "code": self.status}}
        return JSONResponse(body, status_code=self.status, headers=self.headers)


class Gateway:
    def __init__(self, config: GatewayConfig) -> None:
        self.config = config
        self.metrics = Metrics()
        self.limiter = open_rate_limiter(config.server.rate_store)
        self.cache = ExactCache(config.server.cache)
        self.threaded = not (config.server.cache == "memory" and config.server.rate_store == "memory")
        self.client: httpx2.AsyncClient | None = None

    @asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        limits = httpx2.Limits(max_connections=512, max_keepalive_connections=128)
        async with httpx2.AsyncClient(timeout=None, limits=limits) as client:
            self.client = client
            yield

    async def blocking(self, fn: Any, *args: Any) -> Any:
        return await anyio.to_thread.run_sync(fn, *args) if self.threaded else fn(*args)

    async def chat(self, request: Request) -> Response:
        started = time.perf_counter()
        try:
            tenant = self._tenant(request)
            route_name, route, body = await self._read(request, tenant)
            return await self._serve(tenant, route_name, route, body, started)
        except GatewayError as exc:
            self.metrics.add("relaykit_gateway_requests_total", route="-", tenant="-", status=str(exc.status))
            return exc.response()

    def _tenant(self, request: Request) -> Tenant:
        auth = request.headers.get("authorization", "")
        key = auth[7:].strip() if auth.lower().startswith("bearer ") else ""
        tenant = self.config.tenant_for(key) if key else None
        if tenant is None:
            raise GatewayError(401, "unknown or missing API key: send 'Authorization: Bearer KEY' with a tenant key",
                               "authentication_error")
        return tenant

    async def _read(self, request: Request, tenant: Tenant) -> tuple[str, Route, dict[str, Any]]:
        limit = self.config.server.max_request_bytes
        declared = request.headers.get("content-length")
        if declared and declared.isdigit() and int(declared) > limit:
            raise GatewayError(413, f"the request is larger than this gateway's limit of {limit} bytes")
        raw = bytearray()
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > limit:
                raise GatewayError(413, f"the request is larger than this gateway's limit of {limit} bytes")
        wait = await self.blocking(self.limiter.hit, tenant.name, tenant.requests_per_minute, time.time())
        if wait is not None:
            raise GatewayError(429, f"tenant {tenant.name!r} is over {tenant.requests_per_minute} requests a minute",
                               "rate_limit_error", {"retry-after": str(max(1, round(wait)))})
        body = _json_body(bytes(raw))
        route_name = body.get("model")
        route = self.config.routes.get(route_name) if isinstance(route_name, str) else None
        if route is None:
            known = ", ".join(sorted(self.config.routes))
            raise GatewayError(404, f"unknown model {route_name!r}; this gateway serves: {known}", "not_found_error")
        return str(route_name), route, body

    async def _serve(self, tenant: Tenant, route_name: str, route: Route, body: dict[str, Any],
                     started: float) -> Response:
        problems = check(route, body["messages"])
        if problems:
            raise GatewayError(400, f"the message history is invalid ({len(problems)} violation(s)): "
                                    + "; ".join(problems[:5]))
        try:
            shaped = shape(route, body)
        except UsageError as exc:
            raise GatewayError(400, str(exc)) from None
        outgoing = {**body, "messages": shaped.messages}
        headers = {"x-relaykit-tokens-before": str(shaped.tokens_before),
                   "x-relaykit-tokens-after": str(shaped.tokens_after)}
        labels = {"route": route_name, "tenant": tenant.name}
        self.metrics.add("relaykit_gateway_tokens_before_total", shaped.tokens_before, **labels)
        self.metrics.add("relaykit_gateway_tokens_after_total", shaped.tokens_after, **labels)
        if body.get("stream"):
            return await self._stream(route, outgoing, headers, labels)
        return await self._plain(tenant, route_name, route, outgoing, headers, labels, started, shaped)

    async def _plain(self, tenant: Tenant, route_name: str, route: Route, outgoing: dict[str, Any],
                     headers: dict[str, str], labels: dict[str, str], started: float, shaped: Shaped) -> Response:
        key = cache_key(tenant.name, route_name, outgoing) if route.cache == "exact" else None
        if key is not None:
            cached = await self.blocking(self.cache.get, key)
            self.metrics.add("relaykit_gateway_cache_total", result="hit" if cached else "miss")
            if cached is not None:
                self._done(labels, 200, started, 0.0, shaped)
                return JSONResponse(cached, headers={**headers, "x-relaykit-cache": "hit",
                                                     "x-relaykit-upstream": "cache"})
        reply, upstream_s = await self._forward(route, outgoing, stream=False)
        payload = _reply_json(reply)
        if key is not None and reply.status == 200 and payload is not None and cacheable(payload):
            await self.blocking(self.cache.put, key, tenant.name, payload)
        self._done(labels, reply.status, started, upstream_s, shaped)
        out_headers = {**reply.headers, **headers, "x-relaykit-cache": "miss" if key else "off",
                       "x-relaykit-upstream": reply.upstream}
        out_headers.pop("content-type", None)
        return Response(reply.body, status_code=reply.status, headers=out_headers, media_type="application/json")

    async def _stream(self, route: Route, outgoing: dict[str, Any], headers: dict[str, str],
                      labels: dict[str, str]) -> Response:
        reply, _ = await self._forward(route, outgoing, stream=True)
        self.metrics.add("relaykit_gateway_requests_total", status=str(reply.status), **labels)
        out = {**headers, "x-relaykit-cache": "off", "x-relaykit-upstream": reply.upstream}
        if reply.chunks is None:
            return Response(reply.body, status_code=reply.status, headers=out, media_type="application/json")
        return StreamingResponse(reply.chunks, media_type="text/event-stream", headers=out)

    async def _forward(self, route: Route, outgoing: dict[str, Any], stream: bool) -> tuple[UpstreamReply, float]:
        assert self.client is not None, "the gateway's HTTP client starts with the app"
        upstream_started = time.perf_counter()
        try:
            reply = await forward(self.client, route, outgoing, self.config.server.deadline_s, stream)
        except AllUpstreamsFailed as exc:
            for attempt in exc.attempts:
                self.metrics.add("relaykit_gateway_fallbacks_total", upstream=attempt.upstream)
            status = 504 if exc.timed_out else 502
            raise GatewayError(status, str(exc), "upstream_error") from None
        for attempt in reply.attempts:
            self.metrics.add("relaykit_gateway_fallbacks_total", upstream=attempt.upstream)
        return reply, time.perf_counter() - upstream_started

    def _done(self, labels: dict[str, str], status: int, started: float, upstream_s: float, shaped: Shaped) -> None:
        total = time.perf_counter() - started
        self.metrics.add("relaykit_gateway_requests_total", status=str(status), **labels)
        self.metrics.add("relaykit_gateway_upstream_seconds_sum", upstream_s, **labels)
        self.metrics.add("relaykit_gateway_overhead_seconds_sum", max(0.0, total - upstream_s), **labels)
        path = self.config.server.telemetry_jsonl
        if path:
            event = {"ts": time.time(), **labels, "status": status, "tokens_before": shaped.tokens_before,
                     "tokens_after": shaped.tokens_after, "seconds": round(total, 6)}
            _append_private(path, json.dumps(event) + "\n")

    async def models(self, request: Request) -> Response:
        data = [{"id": name, "object": "model", "owned_by": "relaykit"} for name in sorted(self.config.routes)]
        return JSONResponse({"object": "list", "data": data})

    async def healthz(self, request: Request) -> Response:
        return JSONResponse({"status": "ok", "routes": len(self.config.routes)})

    async def prometheus(self, request: Request) -> Response:
        return PlainTextResponse(self.metrics.render(), media_type="text/plain; version=0.0.4")


def _json_body(raw: bytes) -> dict[str, Any]:
    try:
        body = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise GatewayError(400, f"the request body is not valid JSON: {exc}") from None
    if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
        raise GatewayError(400, "the request body must be a JSON object with a 'messages' list and a 'model'")
    return body


def _reply_json(reply: UpstreamReply) -> dict[str, Any] | None:
    try:
        payload = json.loads(reply.body)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    return payload if isinstance(payload, dict) else None


def _append_private(path: str, line: str) -> None:
    with private_file(path).open("a", encoding="utf-8") as fh:  # created 0600 in 0700 folders
        fh.write(line)


def create_app(config: GatewayConfig) -> Starlette:
    gateway = Gateway(config)
    routes = [
        HttpRoute("/v1/chat/completions", gateway.chat, methods=["POST"]),
        HttpRoute("/v1/models", gateway.models, methods=["GET"]),
        HttpRoute("/healthz", gateway.healthz, methods=["GET"]),
        HttpRoute("/metrics", gateway.prometheus, methods=["GET"]),
    ]
    app = Starlette(routes=routes, lifespan=gateway.lifespan)
    app.state.gateway = gateway
    return app


def from_environment() -> Starlette:
    """The app for ``uvicorn --factory``: the configuration file named by ``RELAYKIT_GATEWAY_CONFIG``."""
    path = os.environ.get(CONFIG_ENV)
    if not path:
        raise UsageError(f"set {CONFIG_ENV} to the gateway's TOML configuration")
    return create_app(load_config(path))


__all__ = ["CONFIG_ENV", "Gateway", "create_app", "from_environment"]
