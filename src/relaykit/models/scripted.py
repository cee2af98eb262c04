"""The scripted model: answers from a queue or a function and records requests (re-exported by relaykit.testing)."""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pydantic import BaseModel

from relaykit import tokens
from relaykit.errors import InvalidOutput, ModelError, UsageError
from relaykit.models.base import ChatRequest, ChatResponse, Message, Model, TokenLogprob
from relaykit.models.structured import validate_output

Answer = str | ChatResponse | BaseModel | dict[str, Any] | Exception
Responder = Callable[[ChatRequest], Answer]


class ScriptedModel(Model):
    """A model that answers from a queue of scripted answers or from a function, and records requests.

    Answers may be strings, ``ChatResponse`` objects, pydantic instances or dicts (sent as JSON),
    or exceptions (raised). With ``fail_with`` set, every call raises that error instead.
    When a request has a schema, a valid answer is parsed into ``ChatResponse.parsed``.
    """

    def __init__(
        self,
        answers: Iterable[Answer] | Responder | None = None,
        *,
        name: str = "scripted",
        context_window: int = 8192,
        fail_with: Exception | None = None,
        default: Answer | None = None,
        logprob: Callable[[Sequence[Message], str], float] | None = None,
    ) -> None:
        self.name = name
        self.context_window = context_window
        self.fail_with = fail_with
        self.default = default
        self._function: Responder | None = answers if callable(answers) else None
        self._queue: deque[Answer] = deque() if callable(answers) or answers is None else deque(answers)
        self._logprob = logprob
        self._lock = threading.Lock()
        self.requests: list[ChatRequest] = []

    @property
    def model_calls(self) -> int:
        """How many requests reached this model."""
        return len(self.requests)

    @property
    def calls(self) -> int:
        """Older name of ``model_calls``."""
        return len(self.requests)

    def push(self, *answers: Answer) -> None:
        self._queue.extend(answers)

    def _next_answer(self, request: ChatRequest) -> Answer:
        with self._lock:
            self.requests.append(request)
            if self.fail_with is not None:
                return self.fail_with
            if self._function is not None:
                return self._function(request)
            if self._queue:
                return self._queue.popleft()
        if self.default is not None:
            return self.default
        raise ModelError(f"{self.name} has no scripted answer left for request #{len(self.requests)}")

    def _complete(self, request: ChatRequest) -> ChatResponse:
        answer = self._next_answer(request)
        if isinstance(answer, Exception):
            raise answer
        if isinstance(answer, ChatResponse):
            return answer
        if isinstance(answer, BaseModel):
            text = answer.model_dump_json()
        elif isinstance(answer, dict):
            text = json.dumps(answer)
        else:
            text = str(answer)
        parsed = None
        if request.schema is not None:
            try:
                parsed = validate_output(text, request.schema)
            except InvalidOutput:
                parsed = None
        return ChatResponse(
            text=text,
            model=self.name,
            prompt_tokens=self.count_messages(request.messages),
            completion_tokens=tokens.count(text),
            parsed=parsed,
        )

    def score_continuation(self, messages: Sequence[Message], continuation: str) -> list[TokenLogprob]:
        if self._logprob is None:
            raise UsageError("ScriptedModel scores continuations only when given logprob=...")
        with self._lock:
            self.requests.append(ChatRequest.of(messages))
        return [TokenLogprob(continuation, self._logprob(messages, continuation))]


__all__ = ["ScriptedModel"]
