"""The model a lab runs on: a spec, or several as a fallback chain, optionally cached and traced.

``--model local`` is one model; ``--model openai:gpt-4.1-nano,local`` is a token-aware ``FallbackChain``;
``--cache sqlite`` puts a ``Cached`` wrapper outermost, so that a repeated identical run is answered from
the cache without a single model call; a ``Telemetry`` adds ``Instrumented`` so every real call is an event.
"""

from __future__ import annotations

from relaykit.errors import UsageError
from relaykit.models import Cached, FallbackChain, Instrumented, Model, open_model, open_store
from relaykit.models.cache.store import CacheStore
from relaykit.telemetry import Telemetry


def model_specs(spec: str) -> list[str]:
    specs = [part.strip() for part in spec.split(",") if part.strip()]
    if not specs:
        raise UsageError("--model needs a model spec, e.g. local or openai:gpt-4.1-nano (comma-separated for a chain)")
    return specs


def open_lab_model(spec: str) -> Model:
    """One model, or a ``FallbackChain`` over comma-separated specs (tried in order)."""
    models = [open_model(s) for s in model_specs(spec)]
    return models[0] if len(models) == 1 else FallbackChain(models)


def wrap_lab_model(model: Model, *, cache: str | CacheStore | None = None, namespace: str = "lab",
                   telemetry: Telemetry | None = None) -> Model:
    """Add telemetry (``Instrumented``) and then the cache (``Cached``, outermost) around ``model``."""
    if telemetry is not None:
        model = Instrumented(model, telemetry)
    if cache:
        store = open_store(cache) if isinstance(cache, str) else cache
        model = Cached(model, store, namespace=namespace, telemetry=telemetry)
    return model
