"""The hand-off value, the compressor protocol, the registry, and ``compress_handoff``."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from relaykit.accounting import Accounting, Usage
from relaykit.errors import UsageError
from relaykit.handoff.text import as_text, check_inputs, count_tokens
from relaykit.models.base import ChatResponse, Model
from relaykit.registry import Registry

if TYPE_CHECKING:
    from relaykit.embeddings.base import Embedder, Vectors

Payload = str | dict[str, Any]


CompressionCost = Usage
"""Deprecated name of ``relaykit.accounting.Usage`` (what a compression cost)."""


@dataclass(frozen=True)
class Handoff:
    """A compressed hand-off: the payload the next agent receives, with its ``accounting``.

    ``accounting`` is the shared ``relaykit.accounting.Accounting`` (ratio = tokens_out / tokens_in; kept and
    dropped sentence units; notices; usage). ``tokens_in``, ``ratio``, ``cost``, ``warnings``... are
    conveniences that read it.
    """

    goal: str
    payload: Payload
    method: str
    settings: Mapping[str, Any]
    accounting: Accounting
    units_reported: bool = False

    @property
    def tokens_in(self) -> int:
        return self.accounting.tokens_in

    @property
    def tokens_out(self) -> int:
        return self.accounting.tokens_out

    @property
    def ratio(self) -> float:
        """tokens_out / tokens_in: lower is smaller (the paper's compression ratio)."""
        return self.accounting.ratio

    @property
    def cost(self) -> Usage:
        return self.accounting.usage

    @property
    def warnings(self) -> tuple[str, ...]:
        return self.accounting.notices

    @property
    def kept_units(self) -> tuple[int, ...] | None:
        return self.accounting.kept if self.units_reported else None

    @property
    def dropped_units(self) -> tuple[int, ...] | None:
        return self.accounting.dropped if self.units_reported else None

    @property
    def payload_text(self) -> str:
        """The exact text the next agent receives (compact JSON for structured payloads)."""
        return payload_text(self.payload)

    def to_dict(self) -> dict[str, Any]:
        return {"method": self.method, "payload": self.payload, "accounting": self.accounting.to_dict()}


def payload_text(payload: Payload) -> str:
    if isinstance(payload, str):
        return payload
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)


class Meter:
    """Counts what one compression spends (handed to a compressor through its ``Job``); ``usage()`` is the
    ``Usage`` it adds up to."""

    def __init__(self) -> None:
        self.model_calls = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.embedding_calls = 0

    def add_response(self, response: ChatResponse) -> None:
        self.model_calls += 1
        self.prompt_tokens += response.prompt_tokens
        self.completion_tokens += response.completion_tokens

    def usage(self, seconds: float) -> Usage:
        return Usage(self.model_calls, self.prompt_tokens, self.completion_tokens, self.embedding_calls, seconds)


class Job:
    """One compression request as a compressor sees it: inputs, resolved settings, and its resources.

    Resources are resolved once, by ``compress_handoff``, before the compressor runs: a compressor whose
    ``needs_model`` is true gets the model given or the embedded default, one whose ``needs_embedder`` is
    true the embedder given or MiniLM. Nothing is opened behind the caller's back while a method runs.
    """

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
        """The model resolved for this job; a ``UsageError`` when the compressor did not declare it needs one."""
        if self._model is None:
            raise UsageError("this hand-off method did not declare needs_model = True, so no model was resolved")
        return self._model

    @property
    def embedder(self) -> Embedder:
        """The embedder resolved for this job (see ``needs_embedder``)."""
        if self._embedder is None:
            raise UsageError("this hand-off method did not declare needs_embedder = True, so no embedder was "
                             "resolved")
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
    """A hand-off method. ``defaults`` lists every setting it accepts, with its default value.

    Optional attributes: ``needs_model`` / ``needs_embedder`` (default False) say which resources
    ``compress_handoff`` must resolve for it; ``name`` labels it when passed as an object.
    """

    @property
    def defaults(self) -> Mapping[str, Any]: ...

    def __call__(self, job: Job) -> Compressed: ...


@dataclass(frozen=True)
class FunctionCompressor:
    """A compressor made of a function and its default settings (how the built-ins are written)."""

    function: Callable[[Job], Compressed]
    defaults: Mapping[str, Any] = field(default_factory=dict)
    needs_model: bool = False
    needs_embedder: bool = False
    settings_type: type | None = None

    @classmethod
    def of(cls, function: Callable[[Job], Compressed], settings_type: type, **traits: bool) -> FunctionCompressor:
        """A compressor whose settings are the frozen dataclass ``settings_type`` (its field defaults)."""
        return cls(function, asdict(settings_type()), settings_type=settings_type, **traits)

    def __call__(self, job: Job) -> Compressed:
        return self.function(job)


def _as_compressor(impl: object) -> Compressor:
    if isinstance(impl, Compressor):
        return impl
    if callable(impl):
        return FunctionCompressor(impl)  # type: ignore[arg-type]
    raise UsageError(f"a hand-off method must be callable on a Job, not {type(impl).__name__}")


HANDOFF_METHODS: Registry[Compressor] = Registry("hand-off method", "relaykit.handoff", check=_as_compressor)
"""Every hand-off method by name; plugins register through the entry-point group ``relaykit.handoff``."""


def register_compressor(name: str, impl: Compressor | Callable[[Job], Compressed]) -> None:
    """Make ``compress_handoff(..., method=name)`` use ``impl`` (a later registration replaces an earlier one).

    ``impl`` is a ``Compressor`` (callable on a ``Job``, with a ``defaults`` mapping of its settings) or a
    plain function of a ``Job``, which then accepts no settings.
    """
    HANDOFF_METHODS.register(name, impl)  # type: ignore[arg-type]


def compressors() -> list[str]:
    """The registered method names, in registration order (plugins included)."""
    return HANDOFF_METHODS.names()


def get_compressor(name: str) -> Compressor:
    return HANDOFF_METHODS.get(name)


def needs_model(impl: Compressor) -> bool:
    """Whether a compressor calls a generative model (its ``needs_model`` attribute, default False)."""
    return bool(getattr(impl, "needs_model", False))


def needs_embedder(impl: Compressor) -> bool:
    return bool(getattr(impl, "needs_embedder", False))


def resolve_settings(name: str, defaults: Mapping[str, Any], given: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults overlaid with ``given``; an unknown setting raises ``UsageError`` listing the known ones."""
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        known = ", ".join(sorted(defaults)) or "none"
        raise UsageError(f"method {name!r} has no setting {', '.join(unknown)}; its settings are: {known}")
    return {**defaults, **given}


def _resolve(method: str | Compressor) -> tuple[str, Compressor]:
    if isinstance(method, str):
        return method, get_compressor(method)
    impl = _as_compressor(method)
    return str(getattr(method, "name", type(method).__name__)), impl


def _resources(impl: Compressor, model: Model | None, embedder: Embedder | None) -> tuple[Model | None,
                                                                                         Embedder | None]:
    """The model and embedder a compressor declared it needs: the ones given, else the defaults (once)."""
    if model is None and needs_model(impl):
        from relaykit.models.registry import open_model

        model = open_model("local")
    if embedder is None and needs_embedder(impl):
        from relaykit.embeddings.base import open_embedder

        embedder = open_embedder("minilm")
    return model, embedder


LARGER_THAN_TRACE = "is larger than the trace"
"""The words of the notice a hand-off carries when its payload came out larger than its trace."""


def _no_larger(trace: str, result: Compressed, name: str, tokens_in: int, tokens_out: int) -> Compressed:
    """A payload larger than its trace: a text payload gives way to the trace itself (every fact kept, fewer
    tokens) and says so; a JSON payload (asked for by its shape) stays, with a warning."""
    said = f"the {name} payload ({tokens_out} tokens) {LARGER_THAN_TRACE} ({tokens_in} tokens)"
    if isinstance(result.payload, str):
        return Compressed(trace, warnings=(*result.warnings, f"{said}: the trace is passed on verbatim instead"))
    return Compressed(result.payload, result.kept_units, result.dropped_units,
                      (*result.warnings, f"{said}: pass the trace on as it is, or try another method"))


def compress_handoff(trace: str | bytes, goal: str, method: str | Compressor = "prune", *,
                     model: Model | None = None, embedder: Embedder | None = None, **settings: Any) -> Handoff:
    """Compress an upstream ``trace`` for the next agent, which also receives ``goal``.

    ``method`` names a registered compressor (see ``compressors()``) or is a compressor object; ``settings``
    are its settings. A method that declares ``needs_model`` gets ``model`` or else the embedded default,
    one that declares ``needs_embedder`` gets ``embedder`` or else MiniLM; both are resolved here, once.
    """
    trace, goal = as_text(trace, "trace"), as_text(goal, "goal")
    check_inputs(trace, goal)
    name, impl = _resolve(method)
    resolved = resolve_settings(name, impl.defaults, settings)
    settings_type = getattr(impl, "settings_type", None)
    if settings_type is not None:
        resolved = asdict(settings_type(**resolved))  # the frozen dataclass checks what it can
    model, embedder = _resources(impl, model, embedder)
    job = Job(trace, goal, MappingProxyType(dict(resolved)), model=model, embedder=embedder)
    started = time.perf_counter()
    result = impl(job)
    seconds = time.perf_counter() - started
    tokens_in = count_tokens(trace)
    tokens_out = tokens_in if result.payload is trace else count_tokens(payload_text(result.payload))
    if tokens_out > tokens_in:
        result = _no_larger(trace, result, name, tokens_in, tokens_out)
        tokens_out = tokens_in if result.payload is trace else count_tokens(payload_text(result.payload))
    accounting = Accounting(tokens_in, tokens_out, method=name, kept=result.kept_units or (),
                            dropped=result.dropped_units or (), notices=result.warnings,
                            usage=job.meter.usage(seconds))
    return Handoff(goal=goal, payload=result.payload, method=name, settings=resolved, accounting=accounting,
                   units_reported=result.kept_units is not None)


__all__ = [
    "HANDOFF_METHODS",
    "LARGER_THAN_TRACE",
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
    "needs_embedder",
    "needs_model",
    "register_compressor",
    "resolve_settings",
]
