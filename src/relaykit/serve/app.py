"""The gateway's ASGI app: ``POST /v1/chat/completions`` and ``POST /v1/responses`` (plain and streaming),
``GET /v1/models``, ``GET /healthz`` and ``GET /metrics``.

Every answer carries headers that say what happened: ``x-relaykit-tokens-before`` / ``-after`` (the history's
tokens before and after compression), ``x-relaykit-cache`` (hit, miss or off) and ``x-relaykit-upstream`` (which
upstream answered, or ``cache``). Errors use the OpenAI error shape, with a message that says what to fix.
"""

from __future__ import annotations

import gc
import os
import random
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import aiohttp
import anyio.to_thread
import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route as HttpRoute
from starlette.types import ASGIApp

from relaykit import tokens
from relaykit.errors import UsageError
from relaykit.serve.asgi import Answer, ClientGone, GatewayError, Headers, Receive, Scope, Send, header, read_body
from relaykit.serve.config import GatewayConfig, Route, Tenant, hash_key, load_config
from relaykit.serve.endpoints import CHAT, RESPONSES, Endpoint
from relaykit.serve.events import GatewayEvents, RequestRecord
from relaykit.serve.metrics import Metrics
from relaykit.serve.policy import Shaped, budget_for
from relaykit.serve.pool import Pool
from relaykit.serve.semantic import SemanticCache
from relaykit.serve.state import ExactCache, cache_key, open_rate_limiter
from relaykit.serve.upstream import AllUpstreamsFailed, UpstreamReply, forward, open_session
from relaykit.settings import private_file

CONFIG_ENV = "RELAYKIT_GATEWAY_CONFIG"
JSON = "application/json"


@dataclass
class Call:
    """One request on its way through the gateway."""

    endpoint: Endpoint
    tenant: Tenant
    route_name: str
    route: Route
    body: dict[str, Any]
    started: float
    record: RequestRecord
    headers: Headers

    @property
    def labels(self) -> dict[str, str]:
        return {"route": self.route_name, "tenant": self.tenant.name}


def _request_id() -> str:
    """16 hex characters, unique enough to find a request's events (no system call, unlike uuid4)."""
    return f"{random.getrandbits(64):016x}"


class Gateway:
    def __init__(self, config: GatewayConfig) -> None:
        self.config = config
        self.tenants = config.tenants_by_digest()
        self.metrics = Metrics()
        self.limiter = open_rate_limiter(config.server.rate_store)
        self.cache = ExactCache(config.server.cache)
        self.semantic = {name: SemanticCache(self.cache.store, route.embedder, route.threshold)
                         for name, route in config.routes.items() if route.cache == "semantic"}
        self.events = GatewayEvents(config.telemetry)
        self.threaded = not (config.server.cache == "memory" and config.server.rate_store == "memory")
        self.session: aiohttp.ClientSession | None = None
        self.pool = Pool()

    @asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        await anyio.to_thread.run_sync(tokens.count, "warm up")  # load the vocabulary before the first request
        for semantic in self.semantic.values():
            await anyio.to_thread.run_sync(semantic.warm)
        self.session = open_session()
        gc.collect()
        gc.freeze()  # what start-up built lives for good: later collections skip it (shorter pauses, better p99)
        try:
            yield
        finally:
            await self.session.close()
            self.pool.close()
            self.events.close()

    async def blocking(self, fn: Any, *args: Any) -> Any:
        return await anyio.to_thread.run_sync(fn, *args) if self.threaded else fn(*args)

    async def chat(self, request: Request) -> ASGIApp:
        return await self.handle(request.scope, request.receive, CHAT)

    async def responses(self, request: Request) -> ASGIApp:
        return await self.handle(request.scope, request.receive, RESPONSES)

    async def handle(self, scope: Scope, receive: Receive, endpoint: Endpoint) -> ASGIApp:
        """The answer to one POST on ``endpoint`` (an ASGI app to call with the same scope)."""
        record = RequestRecord(request_id=_request_id(), endpoint=endpoint.name)
        try:
            tenant = self._tenant(header(scope, b"authorization"))
            record.tenant = tenant.name
            raw = await read_body(scope, receive, self.config.server.max_request_bytes)
            route_name, route, body = await self._read(raw, tenant, endpoint)
            record.route = route_name
            call = Call(endpoint, tenant, route_name, route, body, time.perf_counter(), record, [])
            return await self._serve(call)
        except GatewayError as exc:
            self.metrics.add("relaykit_gateway_requests_total", route="-", tenant="-", status=str(exc.status))
            record.status = exc.status
            self.events.record(record)
            return exc.answer()

    def _tenant(self, auth: bytes | None) -> Tenant:
        key = auth[7:].strip() if auth is not None and auth[:7].lower() == b"bearer " else b""
        tenant = self.tenants.get(hash_key(key.decode("latin-1"))) if key else None
        if tenant is None:
            raise GatewayError(401, "unknown or missing API key: send 'Authorization: Bearer KEY' with a tenant key",
                               "authentication_error")
        return tenant

    async def _read(self, raw: bytes, tenant: Tenant, endpoint: Endpoint) -> tuple[str, Route, dict[str, Any]]:
        wait = await self.blocking(self.limiter.hit, tenant.name, tenant.requests_per_minute, time.time())
        if wait is not None:
            raise GatewayError(429, f"tenant {tenant.name!r} is over {tenant.requests_per_minute} requests a minute",
                               "rate_limit_error", {"retry-after": str(max(1, round(wait)))})
        body = _json_body(raw, endpoint)
        route_name = body.get("model")
        route = self.config.routes.get(route_name) if isinstance(route_name, str) else None
        if route is None:
            known = ", ".join(sorted(self.config.routes))
            raise GatewayError(404, f"unknown model {route_name!r}; this gateway serves: {known}", "not_found_error")
        return str(route_name), route, body

    async def _serve(self, call: Call) -> ASGIApp:
        endpoint, route, body = call.endpoint, call.route, call.body
        history = body[endpoint.field]
        problems = endpoint.check(route, history)
        if problems:
            raise GatewayError(400, f"the message history is invalid ({len(problems)} violation(s)): "
                                    + "; ".join(problems[:5]))
        try:
            shaped = await self._shape(endpoint, route, body, history)
        except UsageError as exc:
            raise GatewayError(400, str(exc)) from None
        outgoing = body if shaped.messages is history else {**body, endpoint.field: shaped.messages}
        call.record.tokens_before, call.record.tokens_after = shaped.tokens_before, shaped.tokens_after
        call.headers = [(b"x-relaykit-tokens-before", b"%d" % shaped.tokens_before),
                        (b"x-relaykit-tokens-after", b"%d" % shaped.tokens_after),
                        (b"x-relaykit-request-id", call.record.request_id.encode())]
        self.metrics.add("relaykit_gateway_tokens_before_total", shaped.tokens_before, **call.labels)
        self.metrics.add("relaykit_gateway_tokens_after_total", shaped.tokens_after, **call.labels)
        if body.get("stream"):
            return await self._stream(call, outgoing)
        return await self._plain(call, outgoing)

    @staticmethod
    async def _shape(endpoint: Endpoint, route: Route, body: dict[str, Any], history: Any) -> Shaped:
        """The history to send. Compressing is CPU work (ms to 100s of ms): when it is due, it runs in a worker
        thread, so the event loop keeps serving other requests; a history that needs none stays on the loop."""
        if route.compression is None:
            return endpoint.shape(route, body, None)
        before = tokens.count_messages(endpoint.chat_view(history))
        if budget_for(route, body, before) is None:
            return endpoint.shape(route, body, before)
        return await anyio.to_thread.run_sync(endpoint.shape, route, body, before)

    async def _plain(self, call: Call, outgoing: dict[str, Any]) -> Answer:
        lookup = await self._lookup(call, outgoing)
        if lookup.reply is not None:
            call.record.cache_match = lookup.match
            self._done(call, 200, "cache", cache="hit")
            return Answer.json(200, orjson.dumps(lookup.reply), call.headers + lookup.headers)
        reply, upstream_s = await self._forward(call, outgoing, stream=False)
        call.record.upstream_s = upstream_s
        if lookup.state != "off" or self.events.enabled:
            payload = _reply_json(reply)
            if payload is not None and isinstance(payload.get("usage"), dict):
                call.record.usage = payload["usage"]
            if lookup.state != "off" and reply.status == 200 and payload is not None:
                await self._store(call, lookup, payload)
        self._done(call, reply.status, reply.upstream, upstream_s, cache=lookup.state)
        kept = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in reply.headers.items() if k != "content-type"]
        return Answer.json(reply.status, reply.body, kept + call.headers + [
            (b"x-relaykit-cache", lookup.state.encode()), (b"x-relaykit-upstream", reply.upstream.encode("latin-1"))])

    async def _lookup(self, call: Call, outgoing: dict[str, Any]) -> Lookup:
        """The cached answer (exact or semantic) in the tenant's namespace, or what a miss needs to store one."""
        kind = call.route.cache
        if kind == "off":
            return Lookup("off")
        if kind == "exact":
            scope = call.route_name if call.endpoint is CHAT else f"{call.route_name}:{call.endpoint.name}"
            key = cache_key(call.tenant.name, scope, outgoing)
            found = await self.blocking(self.cache.get, key)
            return self._counted(Lookup("hit" if found else "miss", key=key, reply=found, match="exact"))
        semantic = self.semantic[call.route_name]
        request = semantic.request(call.endpoint, outgoing, outgoing[call.endpoint.field])
        if request is None:
            return Lookup("off")
        cached = semantic.cached(call.tenant.name, call.route_name)
        exact, similar = await anyio.to_thread.run_sync(semantic.get, cached, request)  # embedding is CPU work
        reply, match, similarity = exact, "exact", 1.0
        if exact is None and similar is not None:
            model = str(similar.model)
            reply = call.endpoint.from_text(similar.text, model, similar.finish_reason or "stop")
            match, similarity = "semantic", float(similar.metadata.get("similarity", 0.0))
        return self._counted(Lookup("hit" if reply is not None else "miss", reply=reply, match=match,
                                    similarity=similarity, semantic=(semantic, cached, request)))

    def _counted(self, lookup: Lookup) -> Lookup:
        self.metrics.add("relaykit_gateway_cache_total", result=lookup.state)
        return lookup

    async def _store(self, call: Call, lookup: Lookup, payload: dict[str, Any]) -> None:
        if not call.endpoint.cacheable(payload):
            return
        if lookup.semantic is not None:
            semantic, cached, request = lookup.semantic
            await anyio.to_thread.run_sync(semantic.put, cached, request, payload, call.endpoint.text_of(payload))
        elif lookup.key is not None:
            text = call.endpoint.text_of(payload) or ""
            await self.blocking(self.cache.put, lookup.key, call.tenant.name, payload, text)

    async def _stream(self, call: Call, outgoing: dict[str, Any]) -> ASGIApp:
        call.record.stream = True
        reply, upstream_s = await self._forward(call, outgoing, stream=True)
        self._done(call, reply.status, reply.upstream, upstream_s)
        out = [*call.headers, (b"x-relaykit-cache", b"off"), (b"x-relaykit-upstream", reply.upstream.encode("latin-1"))]
        if reply.chunks is None:
            return Answer.json(reply.status, reply.body, out)
        response = StreamingResponse(reply.chunks, media_type="text/event-stream")
        response.raw_headers += out
        return response

    async def _forward(self, call: Call, outgoing: dict[str, Any], stream: bool) -> tuple[UpstreamReply, float]:
        assert self.session is not None, "the gateway's HTTP client starts with the app"
        upstream_started = time.perf_counter()
        try:
            reply = await forward(self.session, call.route, outgoing, self.config.server.deadline_s, stream,
                                  call.endpoint.path, self.pool)
        except AllUpstreamsFailed as exc:
            self._failed(call, exc.attempts)
            status = 504 if exc.timed_out else 502
            raise GatewayError(status, str(exc), "upstream_error") from None
        self._failed(call, reply.attempts)
        return reply, time.perf_counter() - upstream_started

    def _failed(self, call: Call, attempts: list[Any]) -> None:
        for attempt in attempts:
            self.metrics.add("relaykit_gateway_fallbacks_total", upstream=attempt.upstream)
            call.record.failed.append((attempt.upstream, attempt.outcome))

    def _done(self, call: Call, status: int, upstream: str, upstream_s: float = 0.0, cache: str = "off") -> None:
        total = time.perf_counter() - call.started
        labels = call.labels
        self.metrics.add("relaykit_gateway_requests_total", status=str(status), **labels)
        self.metrics.add("relaykit_gateway_upstream_seconds_sum", upstream_s, **labels)
        self.metrics.add("relaykit_gateway_overhead_seconds_sum", max(0.0, total - upstream_s), **labels)
        record = call.record
        record.status, record.upstream, record.cache = status, upstream if upstream != "cache" else "", cache
        self.events.record(record)
        path = self.config.server.telemetry_jsonl
        if path:
            event = {"ts": time.time(), **labels, "status": status, "tokens_before": record.tokens_before,
                     "tokens_after": record.tokens_after, "seconds": round(total, 6)}
            _append_private(path, orjson.dumps(event).decode() + "\n")

    async def models(self, request: Request) -> Response:
        data = [{"id": name, "object": "model", "owned_by": "relaykit"} for name in sorted(self.config.routes)]
        return Response(orjson.dumps({"object": "list", "data": data}), media_type=JSON)

    async def healthz(self, request: Request) -> Response:
        return Response(orjson.dumps({"status": "ok", "routes": len(self.config.routes)}), media_type=JSON)

    async def prometheus(self, request: Request) -> Response:
        return PlainTextResponse(self.metrics.render(), media_type="text/plain; version=0.0.4")


@dataclass
class Lookup:
    """The outcome of a cache look-up: ``state`` (hit, miss, off), the reply on a hit, what to store on a miss."""

    state: str
    key: str | None = None
    reply: dict[str, Any] | None = None
    match: str = "exact"
    similarity: float = 1.0
    semantic: tuple[SemanticCache, Any, Any] | None = None

    @property
    def headers(self) -> Headers:
        out = [(b"x-relaykit-cache", self.state.encode()), (b"x-relaykit-upstream", b"cache"),
               (b"x-relaykit-cache-match", self.match.encode())]
        if self.match == "semantic":
            out.append((b"x-relaykit-cache-similarity", b"%.4f" % self.similarity))
        return out


def _json_body(raw: bytes, endpoint: Endpoint) -> dict[str, Any]:
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise GatewayError(400, f"the request body is not valid JSON: {exc}") from None
    if not isinstance(body, dict) or not endpoint.accepts(body.get(endpoint.field)):
        kind = "a 'messages' list" if endpoint is CHAT else "an 'input' (a string or a list of items)"
        raise GatewayError(400, f"the request body must be a JSON object with {kind} and a 'model'")
    return body


def _reply_json(reply: UpstreamReply) -> dict[str, Any] | None:
    try:
        payload = orjson.loads(reply.body)
    except orjson.JSONDecodeError:
        return None
    return payload if isinstance(payload, dict) else None


def _append_private(path: str, line: str) -> None:
    with private_file(path).open("a", encoding="utf-8") as fh:  # created 0600 in 0700 folders
        fh.write(line)


class GatewayApp:
    """The ASGI app: the two POST endpoints are dispatched straight to the gateway (no middleware or route
    matching on the hot path); everything else (models, health, metrics, lifespan) goes through Starlette."""

    def __init__(self, gateway: Gateway, app: Starlette) -> None:
        self.gateway, self.app, self.state = gateway, app, app.state
        self.fast = {"/v1/chat/completions": CHAT, "/v1/responses": RESPONSES}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        endpoint = self.fast.get(scope.get("path", "")) if scope["type"] == "http" else None
        if endpoint is None or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        try:
            answer = await self.gateway.handle(scope, receive, endpoint)
        except ClientGone:
            return  # the client left before its request arrived: nobody to answer
        await answer(scope, receive, send)


def create_app(config: GatewayConfig) -> GatewayApp:
    gateway = Gateway(config)
    routes = [
        HttpRoute("/v1/chat/completions", gateway.chat, methods=["POST"]),
        HttpRoute("/v1/responses", gateway.responses, methods=["POST"]),
        HttpRoute("/v1/models", gateway.models, methods=["GET"]),
        HttpRoute("/healthz", gateway.healthz, methods=["GET"]),
        HttpRoute("/metrics", gateway.prometheus, methods=["GET"]),
    ]
    app = Starlette(routes=routes, lifespan=gateway.lifespan)
    app.state.gateway = gateway
    return GatewayApp(gateway, app)


def from_environment() -> GatewayApp:
    """The app for ``uvicorn --factory``: the configuration file named by ``RELAYKIT_GATEWAY_CONFIG``."""
    path = os.environ.get(CONFIG_ENV)
    if not path:
        raise UsageError(f"set {CONFIG_ENV} to the gateway's TOML configuration")
    return create_app(load_config(path))


__all__ = ["CONFIG_ENV", "Gateway", "GatewayApp", "create_app", "from_environment"]
