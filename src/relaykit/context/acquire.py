"""Fetch once, process locally: a per-run memo so each source is acquired once and shared by every stage."""

from __future__ import annotations

import contextvars
import threading
from collections import Counter
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from relaykit.errors import UsageError
from relaykit.telemetry import Telemetry

T = TypeVar("T")


class AcquisitionMemo:
    """Per-run memo of acquired sources.

    ``get(source, fetch)`` calls ``fetch`` the first time a source is asked for and hands the same
    value to every later caller, including callers in other threads that ask while the first fetch
    runs. A fetch that raises is not remembered, so the next caller tries again. ``fetches`` counts
    real fetches per source and ``reuses`` the calls served from the memo.
    """

    def __init__(self, telemetry: Telemetry | None = None) -> None:
        self.telemetry = telemetry
        self.fetches: Counter[str] = Counter()
        self.reuses: Counter[str] = Counter()
        self._futures: dict[str, Future[Any]] = {}
        self._lock = threading.Lock()

    def get(self, source: str, fetch: Callable[[], T]) -> T:
        with self._lock:
            future = self._futures.get(source)
            owner = future is None
            if future is None:
                future = self._futures[source] = Future()
                self.fetches[source] += 1
            else:
                self.reuses[source] += 1
        if not owner:
            value: T = future.result()
            return value
        try:
            value = self._fetch(source, fetch)
        except BaseException as exc:
            with self._lock:
                del self._futures[source]
            future.set_exception(exc)
            raise
        future.set_result(value)
        return value

    def _fetch(self, source: str, fetch: Callable[[], T]) -> T:
        if self.telemetry is None:
            return fetch()
        with self.telemetry.stage("acquire", source=source) as stage:
            value = fetch()
            stage.results["source"] = source
            return value

    def acquire_all(self, fetchers: Mapping[str, Callable[[], Any]], *, max_workers: int = 4) -> dict[str, Any]:
        """Acquire several independent sources concurrently (each still at most once)."""
        if max_workers < 1:
            raise UsageError(f"max_workers must be at least 1, not {max_workers}")
        with ThreadPoolExecutor(max_workers=max_workers) as pool:
            # each worker runs in a copy of the caller's context, so events keep the caller's run id
            futures = {name: pool.submit(contextvars.copy_context().run, self.get, name, fetch)
                       for name, fetch in fetchers.items()}
            return {name: future.result() for name, future in futures.items()}

    def forget(self, source: str | None = None) -> None:
        """Drop one source (or all) so the next ``get`` fetches it again."""
        with self._lock:
            if source is None:
                self._futures.clear()
            else:
                self._futures.pop(source, None)

    def stats(self) -> dict[str, int]:
        return {"sources": len(self.fetches), "fetches": sum(self.fetches.values()),
                "reuses": sum(self.reuses.values())}
