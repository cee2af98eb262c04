"""``FallbackChain``: a token-aware chain of models that is itself a ``Model``.

Before calling a member it counts the request with that member's own tokenizer and skips it when
the prompt plus ``max_tokens`` cannot fit its window, so a long payload is never forwarded to a
smaller model only to fail there. Transient failures are retried a bounded number of times with
exponential backoff and jitter (a server's retry-after wins when it is longer); then the chain moves
on. When every member has failed, ``AllModelsFailed`` lists each attempt and why.

An overall ``deadline`` bounds one call of the chain, every member, retry and wait included: each member
call gets what is left of it (backends such as ``OpenAICompatModel`` end their HTTP call then; any other
is abandoned in its worker thread), no wait runs past it, and members not reached in time are listed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from relaykit.errors import (
    AllModelsFailed,
    ContextWindowExceeded,
    InvalidOutput,
    ModelError,
    ModelTimeout,
    RateLimited,
    ServerError,
    UsageError,
)
from relaykit.models.base import ChatRequest, ChatResponse, Message, Model
from relaykit.models.deadline import GRACE_S, deadline_scope, remaining, run_with_deadline
from relaykit.models.structured import parsed_or_validate
from relaykit.telemetry import FALLBACK, Telemetry

DEFAULT_FALLBACK_ON: tuple[type[ModelError], ...] = (RateLimited, ModelTimeout, ServerError, InvalidOutput)
DEFAULT_RETRY_ON: tuple[type[ModelError], ...] = (RateLimited, ModelTimeout, ServerError)


@dataclass(frozen=True)
class Backoff:
    """Exponential backoff with full jitter: try ``n`` waits up to ``base * 2**n`` seconds, capped."""

    base_s: float = 0.25
    cap_s: float = 8.0
    max_wait_s: float = 30.0  # a retry-after longer than this moves on to the next model instead

    def delay(self, attempt: int, rng: random.Random, retry_after: float | None = None) -> float:
        ceiling = min(self.cap_s, self.base_s * (2**attempt))
        wait = rng.uniform(ceiling / 2, ceiling)
        return max(wait, retry_after or 0.0)


@dataclass(frozen=True)
class Attempt:
    """One try of one member: which model, which try, and what went wrong."""

    model: str
    attempt: int
    error: Exception

    @property
    def reason(self) -> str:
        return type(self.error).__name__


class FallbackChain(Model):
    """Try ``models`` in order; fall back on the errors in ``fallback_on`` (rate limits, timeouts,
    server errors and invalid structured output by default).

    ``retries`` extra tries per member are made for errors in ``retry_on``, waiting per ``backoff``.
    A request with a schema whose answer does not validate counts as ``InvalidOutput``.
    Each move to the next member emits ``pipeline.fallback`` on ``telemetry``.
    ``deadline`` (seconds) bounds one whole call of the chain; ``None`` leaves each member's own timeout.
    """

    def __init__(
        self,
        models: Sequence[Model],
        *,
        fallback_on: Sequence[type[Exception]] = DEFAULT_FALLBACK_ON,
        retry_on: Sequence[type[Exception]] = DEFAULT_RETRY_ON,
        retries: int = 2,
        backoff: Backoff | None = None,
        telemetry: Telemetry | None = None,
        sleep: Callable[[float], None] = time.sleep,
        seed: int | None = None,
        name: str | None = None,
        deadline: float | None = None,
    ) -> None:
        if not models:
            raise UsageError("a FallbackChain needs at least one model")
        if retries < 0:
            raise UsageError(f"retries must be 0 or more, not {retries}")
        if deadline is not None and not 0 < deadline < float("inf"):
            raise UsageError(f"deadline must be a positive number of seconds (or None), not {deadline}")
        self.deadline = deadline
        self.models = list(models)
        self.fallback_on = tuple(fallback_on)
        self.retry_on = tuple(retry_on)
        self.retries = retries
        self.backoff = backoff or Backoff()
        self.telemetry = telemetry
        self._sleep = sleep
        self._rng = random.Random(seed)
        self.name = name or "fallback(" + ",".join(m.name for m in self.models) + ")"
        self.context_window = max(m.context_window for m in self.models)
        self.encoding = self.models[0].encoding

    def count_messages(self, messages: Sequence[Message]) -> int:
        return self.models[0].count_messages(messages)

    def check_fits(self, request: ChatRequest) -> int:
        """Prompt tokens by the first member that can hold ``request``; raises when none can."""
        errors = []
        for model in self.models:
            try:
                return model.check_fits(request)
            except ContextWindowExceeded as exc:
                errors.append(exc)
        largest = max(errors, key=lambda e: e.window)
        raise ContextWindowExceeded(f"no model of {self.name} can hold the request: {largest}",
                                    needed=largest.needed, window=largest.window)

    def complete(self, request: ChatRequest | Sequence[Message] | str, **params: Any) -> ChatResponse:
        req = request if isinstance(request, ChatRequest) else ChatRequest.of(request, **params)
        return self._complete(req)

    def _complete(self, request: ChatRequest) -> ChatResponse:
        attempts: list[Attempt] = []
        with deadline_scope(self.deadline):
            for index, model in enumerate(self.models):
                if _expired():
                    attempts.extend(Attempt(m.name, 0, self._not_reached()) for m in self.models[index:])
                    break
                response = self._try_model(model, request, attempts)
                if response is not None:
                    meta = {**response.metadata, "fallback_count": index, "served_by": model.name}
                    return _with_metadata(response, meta)
                self._emit_fallback(index, attempts[-1])
            ran_out = _expired()
        message = _failure_message(attempts, self.deadline if ran_out else None)
        raise AllModelsFailed(message, [_annotated(a) for a in attempts])

    def _deadline_words(self) -> str:
        own = f"the {self.deadline:g} s deadline of {self.name}" if self.deadline is not None else ""
        return own or f"the caller's deadline around {self.name}"

    def _not_reached(self) -> ModelTimeout:
        return ModelTimeout(f"not tried: {self._deadline_words()} had passed")

    def _call(self, model: Model, request: ChatRequest) -> ChatResponse:
        """One member call, bounded by what is left of the chain's deadline."""
        left = remaining()
        if left is None:
            return model.complete(request)

        def late() -> str:
            return f"{model.name} did not answer within the {left:.3g} s left of {self._deadline_words()}"

        if left <= 0:
            raise ModelTimeout(late())
        return run_with_deadline(lambda: model.complete(request), left + GRACE_S, late)

    def _try_model(self, model: Model, request: ChatRequest, attempts: list[Attempt]) -> ChatResponse | None:
        try:
            model.check_fits(request)
        except ContextWindowExceeded as exc:
            attempts.append(Attempt(model.name, 0, exc))
            return None
        for attempt in range(self.retries + 1):
            try:
                return _checked(self._call(model, request), request)
            except self.fallback_on as exc:
                attempts.append(Attempt(model.name, attempt + 1, exc))
                if not isinstance(exc, self.retry_on) or attempt == self.retries:
                    return None
                retry_after = exc.retry_after if isinstance(exc, RateLimited) else None
                if retry_after is not None and retry_after > self.backoff.max_wait_s:
                    return None
                wait = self.backoff.delay(attempt, self._rng, retry_after)
                left = remaining()
                if left is not None and wait >= left:
                    return None  # waiting would use up the deadline: move on to the next member
                self._sleep(wait)
        return None

    def _emit_fallback(self, index: int, last: Attempt) -> None:
        if self.telemetry is None:
            return
        to_model = self.models[index + 1].name if index + 1 < len(self.models) else None
        self.telemetry.emit(FALLBACK, from_model=last.model, to_model=to_model, reason=last.reason,
                            error=str(last.error)[:200], fallback_count=index + 1)

    def score_continuation(self, messages: Sequence[Message], continuation: str) -> Any:
        return self.models[0].score_continuation(messages, continuation)


def _checked(response: ChatResponse, request: ChatRequest) -> ChatResponse:
    """The response, with ``parsed`` filled; raises ``InvalidOutput`` when a schema answer is invalid."""
    if request.schema is None:
        return response
    parsed = parsed_or_validate(response, request.schema)
    return response if response.parsed is not None else _with_parsed(response, parsed)


def _with_parsed(response: ChatResponse, parsed: Any) -> ChatResponse:
    return replace(response, parsed=parsed)


def _with_metadata(response: ChatResponse, metadata: dict[str, Any]) -> ChatResponse:
    return replace(response, metadata=metadata)


def _annotated(attempt: Attempt) -> Exception:
    error = attempt.error
    note = f"model {attempt.model}, attempt {attempt.attempt}"
    if hasattr(error, "add_note") and note not in getattr(error, "__notes__", ()):
        error.add_note(note)
    return error


def _expired() -> bool:
    left = remaining()
    return left is not None and left <= 0


def _failure_message(attempts: list[Attempt], deadline: float | None = None) -> str:
    def why(a: Attempt) -> str:
        head = f"{a.model}#{a.attempt}: {a.reason}"
        if a.attempt:
            return head
        if isinstance(a.error, ContextWindowExceeded):
            return head + " (does not fit its context window)"
        return head + " (not tried: the deadline had passed)"

    tried = sum(1 for a in attempts if a.attempt)
    listed = "; ".join(why(a) for a in attempts)
    if deadline is not None:
        return (f"the chain's {deadline:g} s deadline passed after {tried} attempts ({listed}); raise the deadline, "
                "add a faster model, or retry later")
    return (f"every model of the chain failed after {tried} attempts ({listed}); add a model with a "
            "larger window or more capacity, or retry later")
