"""The one small model interface every backend and wrapper implements."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import BaseModel

from relaykit import tokens
from relaykit.accounting import Tally
from relaykit.errors import ContextWindowExceeded, ModelError, UsageError

ROLES = frozenset({"system", "developer", "user", "assistant", "tool"})

Message = Mapping[str, Any]
SchemaLike = type[BaseModel] | Mapping[str, Any]


def json_schema_of(schema: SchemaLike) -> dict[str, Any]:
    """The JSON schema of a pydantic model class, or a checked copy of a JSON-schema mapping."""
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        return schema.model_json_schema()
    if isinstance(schema, Mapping):
        from jsonschema import Draft202012Validator
        from jsonschema.exceptions import SchemaError

        try:
            Draft202012Validator.check_schema(dict(schema))
        except SchemaError as exc:
            raise UsageError(f"the output schema is not a valid JSON schema: {exc.message}") from None
        return dict(schema)
    raise UsageError(f"an output schema must be a pydantic model class or a JSON-schema dict, not {schema!r}")


def schema_name(schema: SchemaLike) -> str:
    if isinstance(schema, type):
        return schema.__name__
    return str(schema.get("title") or "output")


def check_chat_messages(messages: Sequence[Message]) -> tuple[dict[str, Any], ...]:
    """Checked, copied messages; raises ``UsageError`` naming the first problem."""
    if isinstance(messages, (str, bytes)) or not isinstance(messages, Sequence):
        raise UsageError("messages must be a list of {'role': ..., 'content': ...} dicts")
    if not messages:
        raise UsageError("the message list is empty; give at least one message")
    out = []
    for i, message in enumerate(messages):
        if not isinstance(message, Mapping):
            raise UsageError(f"message {i} is {type(message).__name__}, not a dict with 'role' and 'content'")
        role = message.get("role")
        if role not in ROLES:
            raise UsageError(f"message {i} has unknown role {role!r}; use one of: {', '.join(sorted(ROLES))}")
        out.append(dict(message))
    return tuple(out)


@dataclass(frozen=True)
class ChatRequest:
    """One chat call: messages, sampling settings and an optional output schema."""

    messages: tuple[dict[str, Any], ...]
    temperature: float = 0.0
    max_tokens: int = 512
    seed: int | None = None
    stop: tuple[str, ...] = ()
    schema: SchemaLike | None = None
    logprobs: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "messages", check_chat_messages(self.messages))
        if self.max_tokens < 1:
            raise UsageError(f"max_tokens must be at least 1, not {self.max_tokens}")
        if not 0.0 <= self.temperature <= 2.0:
            raise UsageError(f"temperature must be between 0 and 2, not {self.temperature}")
        if self.schema is not None:
            json_schema_of(self.schema)

    @classmethod
    def of(cls, messages: Sequence[Message] | str, **params: Any) -> ChatRequest:
        """Build a request from messages, or from one user prompt string."""
        if isinstance(messages, str):
            messages = [{"role": "user", "content": messages}]
        if "stop" in params and params["stop"] is not None:
            params["stop"] = tuple([params["stop"]] if isinstance(params["stop"], str) else params["stop"])
        checked = check_chat_messages(messages)  # raises UsageError naming the bad message
        return cls(messages=checked, **{k: v for k, v in params.items() if v is not None})

    def with_messages(self, messages: Sequence[Message]) -> ChatRequest:
        return replace(self, messages=check_chat_messages(messages))

    def json_schema(self) -> dict[str, Any] | None:
        return None if self.schema is None else json_schema_of(self.schema)

    def cache_key_material(self) -> dict[str, Any]:
        """Everything that decides the answer, in a JSON-able form (for cache keys)."""
        return {
            "messages": list(self.messages),
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "seed": self.seed,
            "stop": list(self.stop),
            "schema": self.json_schema(),
        }


@dataclass(frozen=True)
class TokenLogprob:
    token: str
    logprob: float


@dataclass(frozen=True)
class ChatResponse:
    """What a model answered, with its usage."""

    text: str
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    finish_reason: str = "stop"
    parsed: Any = None
    logprobs: tuple[TokenLogprob, ...] | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


Usage = Tally
"""Deprecated alias of ``relaykit.accounting.Tally`` (the running total); the one value record is
``relaykit.accounting.Usage``. Kept importable from here while hand-off and the relay lab move over."""


class Model:
    """Base class of every backend and wrapper.

    Subclasses implement :meth:`_complete`; :meth:`complete` validates the request and checks the
    context window first, so no call is made for a request that cannot fit.
    """

    name: str = "model"
    context_window: int = 8192
    encoding: str = "o200k_base"

    def count_tokens(self, text: str) -> int:
        return tokens.count(text, self.encoding)

    def count_messages(self, messages: Sequence[Message]) -> int:
        return tokens.count_messages(messages, self.encoding)

    def check_fits(self, request: ChatRequest) -> int:
        """Prompt tokens of ``request``; raises ``ContextWindowExceeded`` if it cannot fit."""
        prompt = self.count_messages(request.messages)
        needed = prompt + request.max_tokens
        if needed > self.context_window:
            raise ContextWindowExceeded(
                f"{self.name}: the request needs {prompt} prompt + {request.max_tokens} completion tokens "
                f"= {needed}, but the context window is {self.context_window}; shorten or compress the "
                "messages, lower max_tokens, or use a model with a larger window",
                needed=needed,
                window=self.context_window,
            )
        return prompt

    def complete(self, request: ChatRequest | Sequence[Message] | str, **params: Any) -> ChatResponse:
        """Answer one request (a ``ChatRequest``, a message list or a prompt string)."""
        req = request if isinstance(request, ChatRequest) else ChatRequest.of(request, **params)
        self.check_fits(req)
        return self._complete(req)

    async def acomplete(self, request: ChatRequest | Sequence[Message] | str, **params: Any) -> ChatResponse:
        """Async form of :meth:`complete`; backends without native async run in a thread."""
        return await asyncio.to_thread(self.complete, request, **params)

    def _complete(self, request: ChatRequest) -> ChatResponse:
        raise NotImplementedError

    def score_continuation(self, messages: Sequence[Message], continuation: str) -> list[TokenLogprob]:
        """Log-probability of each token of ``continuation`` as the assistant's reply to ``messages``."""
        raise ModelError(
            f"{self.name} cannot score continuations (no log-probabilities); use the embedded "
            "model ('local') or a server that returns logprobs"
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"


class ModelWrapper(Model):
    """Base of wrappers that are themselves Models (``Cached``, ``Instrumented``): token counting,
    the context-window check and log-probabilities are the wrapped model's own."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.name, self.context_window, self.encoding = model.name, model.context_window, model.encoding

    def count_tokens(self, text: str) -> int:
        return self.model.count_tokens(text)

    def count_messages(self, messages: Sequence[Message]) -> int:
        return self.model.count_messages(messages)

    def check_fits(self, request: ChatRequest) -> int:
        return self.model.check_fits(request)

    def complete(self, request: ChatRequest | Sequence[Message] | str, **params: Any) -> ChatResponse:
        req = request if isinstance(request, ChatRequest) else ChatRequest.of(request, **params)
        return self._complete(req)  # the wrapped model checks the window itself when it is called

    def score_continuation(self, messages: Sequence[Message], continuation: str) -> list[TokenLogprob]:
        return self.model.score_continuation(messages, continuation)


def parse_json_text(text: str) -> Any:
    """Parse a model's JSON answer, tolerating a fenced code block around it."""
    stripped = text.strip()
    if stripped.startswith("```"):
        stripped = stripped.strip("`")
        stripped = stripped.split("\n", 1)[1] if "\n" in stripped else stripped
        stripped = stripped.rsplit("```", 1)[0]
    return json.loads(stripped)
