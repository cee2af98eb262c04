"""The hand-off value, the compressor protocol, the registry, and ``compress_handoff``."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from relaykit.errors import UsageError
from relaykit.handoff.text import as_text, check_inputs, count_tokens
from relaykit.models.base import ChatResponse, Model

if TYPE_CHECKING:
    from relaykit.embeddings.base import Embedder, Vectors

Payload = str | dict[str, Any]


@dataclass(frozen=True)
class CompressionCost:
    """What the compression itself cost: extra model calls, their tokens, embedding calls, wall time."""

    model_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    embedding_calls: int = 0
    seconds: float = 0.0


@dataclass(frozen=True)
class Handoff:
    """A compressed hand-off: the payload the next agent receives, with its accounting."""

    goal: str
    payload: Payload
    method: str
    settings: Mapping[str, Any]
    tokens_in: int
    tokens_out: int
    cost: CompressionCost = field(default_factory=CompressionCost)
    kept_units: tuple[int, ...] | None = None
    dropped_units: tuple[int, ...] | None = None
    warnings: tuple[str, ...] = ()

    @property
    def ratio(self) -> float:
        """tokens_out / tokens_in: lower is smaller (the paper's compression ratio)."""
        return self.tokens_out / self.tokens_in if self.tokens_in else 0.0

    @property
    def payload_text(self) -> str:
        """The exact text the next agent receives (compact JSON for structured payloads)."""
        return payload_text(self.payload)


def payload_text(payload: Payload) -> str:
    if isinstance(payload, str):
        return payload
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)


class Meter:
    """Counts what one compression spends; handed to a compressor through its ``Job``."""

    def __init__(self) -> None:
        self.model_calls = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.embedding_calls = 0

    def add_response(self, response: ChatResponse) -> None:
        self.model_calls += 1
        self.prompt_tokens += response.prompt_tokens
        self.completion_tokens += response.completion_tokens

    def cost(self, seconds: float) -> CompressionCost:
        return CompressionCost(self.model_calls, self.prompt_tokens, self.completion_tokens,
                               self.embedding_calls, seconds)


class Job:
    """One compression request as a compressor sees it: inputs, resolved settings, and lazy resources."""

    def __init__(self, trace: str, goal: str, settings: Mapping[str, Any], *,
                 model: Model | None = None, embedder: Embedder | None = None) -> None:
        self.trace = trace
        self.goal = goal
        self.settings = settings
        self.meter = Meter()
        self._model = model
        self._embedder = embedder

    @property
    def model(self) -> Model:
        """The model given, else the embedded default (``open_model("local")``), opened on first use."""
        if self._model is None:
            from relaykit.models.registry import open_model

            self._model = open_model("local")
        return self._model

    @property
    def embedder(self) -> Embedder:
        """The embedder given, else MiniLM (``open_embedder("minilm")``), opened on first use."""
        if self._embedder is None:
            from relaykit.embeddings.base import open_embedder

            self._embedder = open_embedder("minilm")
        return self._embedder

    def embed(self, texts: list[str]) -> Vectors:
        """Embed through the job's embedder and count the call."""
        self.meter.embedding_calls += 1
        return self.embedder.embed(texts)


@dataclass(frozen=True)
class Compressed:
    """What a compressor returns; ``compress_handoff`` adds the token accounting and cost."""

    payload: Payload
    kept_units: tuple[int, ...] | None = None
    dropped_units: tuple[int, ...] | None = None
    warnings: tuple[str, ...] = ()


@runtime_checkable
class Compressor(Protocol):
    """A hand-off method. ``defaults`` lists every setting it accepts, with its default value."""

    @property
    def defaults(self) -> Mapping[str, Any]: ...

    def __call__(self, job: Job) -> Compressed: ...


@dataclass(frozen=True)
class FunctionCompressor:
    """A compressor made of a function and its default settings (how the built-ins are written)."""

    function: Callable[[Job], Compressed]
    defaults: Mapping[str, Any] = field(default_factory=dict)

    def __call__(self, job: Job) -> Compressed:
        return self.function(job)


_REGISTRY: dict[str, Compressor] = {}


def register_compressor(name: str, impl: Compressor | Callable[[Job], Compressed]) -> None:
    """Make ``compress_handoff(..., method=name)`` use ``impl`` (a later registration replaces an earlier one).

    ``impl`` is a ``Compressor`` (callable on a ``Job``, with a ``defaults`` mapping of its settings) or a
    plain function of a ``Job``, which then accepts no settings.
    """
    if not name or not isinstance(name, str):
        raise UsageError("a compressor needs a non-empty string name")
    if not callable(impl):
        raise UsageError(f"compressor {name!r} must be callable on a Job, not {type(impl).__name__}")
    _REGISTRY[name] = impl if isinstance(impl, Compressor) else FunctionCompressor(impl)


def compressors() -> list[str]:
    """The registered method names, in registration order."""
    return list(_REGISTRY)


def get_compressor(name: str) -> Compressor:
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UsageError(f"unknown hand-off method {name!r}; choose one of: {', '.join(_REGISTRY)}") from None


def resolve_settings(name: str, defaults: Mapping[str, Any], given: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults overlaid with ``given``; an unknown setting raises ``UsageError`` listing the known ones."""
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        known = ", ".join(sorted(defaults)) or "none"
        raise UsageError(f"method {name!r} has no setting {', '.join(unknown)}; its settings are: {known}")
    return {**defaults, **given}


def compress_handoff(trace: str | bytes, goal: str, method: str = "prune", *, model: Model | None = None,
                     embedder: Embedder | None = None, **settings: Any) -> Handoff:
    """Compress an upstream ``trace`` for the next agent, which also receives ``goal``.

    ``method`` names a registered compressor (see ``compressors()``); ``settings`` are its settings.
    ``model`` defaults to the embedded model and ``embedder`` to MiniLM, opened only by methods that need them.
    """
    trace, goal = as_text(trace, "trace"), as_text(goal, "goal")
    check_inputs(trace, goal)
    impl = get_compressor(method)
    resolved = resolve_settings(method, impl.defaults, settings)
    job = Job(trace, goal, MappingProxyType(dict(resolved)), model=model, embedder=embedder)
    started = time.perf_counter()
    result = impl(job)
    seconds = time.perf_counter() - started
    tokens_in = count_tokens(trace)
    return Handoff(
        goal=goal,
        payload=result.payload,
        method=method,
        settings=resolved,
        tokens_in=tokens_in,
        tokens_out=tokens_in if result.payload is trace else count_tokens(payload_text(result.payload)),
        cost=job.meter.cost(seconds),
        kept_units=result.kept_units,
        dropped_units=result.dropped_units,
        warnings=result.warnings,
    )


__all__ = [
    "Compressed",
    "CompressionCost",
    "Compressor",
    "FunctionCompressor",
    "Handoff",
    "Job",
    "Meter",
    "compress_handoff",
    "compressors",
    "get_compressor",
    "register_compressor",
    "resolve_settings",
]
