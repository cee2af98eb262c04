"""A history that is due for compression is compressed in a worker thread (the event loop keeps serving other
requests); one that needs none, or a route without compression, stays on the loop (no thread hop)."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from typing import Any

from relaykit.serve.app import Gateway
from relaykit.serve.config import Route
from relaykit.serve.endpoints import CHAT
from relaykit.serve.policy import Shaped, shape

HISTORY: list[dict[str, Any]] = [{"role": "system", "content": "Agent."}, {"role": "user", "content": "Find the key."}]
for _step in range(12):
    HISTORY += [{"role": "assistant", "content": f"look in room {_step}"},
                {"role": "user", "content": f"Room {_step}: " + " ".join(f"object{_step}x{k}" for k in range(40))}]


def threads_used(route: Route) -> tuple[bool, Shaped]:
    seen: list[int] = []

    def recording(route: Route, body: dict[str, Any], before: int | None) -> Shaped:
        seen.append(threading.get_ident())
        return shape(route, body, before)

    endpoint = dataclasses.replace(CHAT, shape=recording)

    async def main() -> tuple[bool, Shaped]:
        shaped = await Gateway._shape(endpoint, route, {"messages": HISTORY}, HISTORY)
        return seen != [threading.get_ident()], shaped
    return asyncio.run(main())


def route(**compression: Any) -> Route:
    spec: dict[str, Any] = {"upstreams": [{"base_url": "http://127.0.0.1:9/v1", "model": "m"}]}
    return Route.model_validate({**spec, "compression": compression} if compression else spec)


def test_compression_that_is_due_runs_off_the_event_loop() -> None:
    off_loop, shaped = threads_used(route(budget=400))
    assert off_loop and shaped.tokens_before > 1000 and shaped.tokens_after <= 400


def test_no_compression_due_or_configured_stays_on_the_loop() -> None:
    fits = route(budget="fit")  # the history fits a 128k-token window
    for each in (fits, route()):
        off_loop, shaped = threads_used(each)
        assert not off_loop and shaped.messages is HISTORY and shaped.tokens_before == shaped.tokens_after
