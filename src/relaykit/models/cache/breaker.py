"""A circuit breaker: after a failure a store is skipped for a cool-down, so a dead cache costs one timeout."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from relaykit.models.cache.entry import CacheStoreError


class StoreSkipped(CacheStoreError):
    """The store failed recently and is skipped until its cool-down ends (no network call was made)."""


class CircuitBreaker:
    """Closed: every call goes through. A failure opens it for ``cooldown_s``: calls are refused at once.
    When the cool-down ends one call probes the store (the others are still refused); its success closes
    the breaker, its failure opens it for another cool-down."""

    def __init__(self, cooldown_s: float = 30.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.cooldown_s = cooldown_s
        self._clock = clock
        self._open_until = 0.0  # 0: closed
        self._lock = threading.Lock()

    @property
    def is_open(self) -> bool:
        return self._open_until != 0.0

    def allow(self) -> bool:
        """May a call go to the store now? (Claims the one probe when the cool-down has ended.)"""
        with self._lock:
            if self._open_until == 0.0:
                return True
            now = self._clock()
            if now < self._open_until:
                return False
            self._open_until = now + self.cooldown_s
            return True

    def success(self) -> None:
        if self._open_until != 0.0:
            with self._lock:
                self._open_until = 0.0

    def failure(self) -> None:
        with self._lock:
            self._open_until = self._clock() + self.cooldown_s
