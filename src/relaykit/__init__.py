"""relaykit: compress what passes between LLM agents without losing the facts, and measure it.

The public names load on first use (PEP 562), so a command that needs one part of relaykit does not pay for
importing every part: ``import relaykit`` is cheap, ``relaykit.compress_handoff`` imports the hand-off package.
"""

import importlib as _importlib
import typing as _typing

if _typing.TYPE_CHECKING:
    from relaykit.accounting import Accounting, Tally, Usage
    from relaykit.context.arrange import arrange
    from relaykit.context.fusion import fuse
    from relaykit.delegation import DelegationGraph, execute_direct, plan_graph, plan_nl, route, validate_graph
    from relaykit.embeddings import Embedder, open_embedder
    from relaykit.errors import (
        AllModelsFailed,
        ContextWindowExceeded,
        InvalidOutput,
        ModelError,
        ModelTimeout,
        RateLimited,
        RelaykitError,
        ServerError,
        UsageError,
    )
    from relaykit.handoff import Fact, Handoff, compress_handoff, compressors, register_compressor
    from relaykit.handoff.audit import audit
    from relaykit.models import (
        Cached,
        ChatRequest,
        ChatResponse,
        FallbackChain,
        Instrumented,
        Model,
        complete_structured,
        open_model,
        open_store,
        register_model,
    )
    from relaykit.registry import Registry
    from relaykit.telemetry import Telemetry
    from relaykit.tokens import count, count_messages
    from relaykit.trajectory import compress_trajectory
    from relaykit.trajectory.validate import validate as validate_messages

__version__ = "0.1.0"

_WHERE: dict[str, tuple[str, str]] = {
    "Accounting": ("relaykit.accounting", "Accounting"),
    "Tally": ("relaykit.accounting", "Tally"),
    "Usage": ("relaykit.accounting", "Usage"),
    "arrange": ("relaykit.context.arrange", "arrange"),
    "fuse": ("relaykit.context.fusion", "fuse"),
    "DelegationGraph": ("relaykit.delegation", "DelegationGraph"),
    "execute_direct": ("relaykit.delegation", "execute_direct"),
    "plan_graph": ("relaykit.delegation", "plan_graph"),
    "plan_nl": ("relaykit.delegation", "plan_nl"),
    "route": ("relaykit.delegation", "route"),
    "validate_graph": ("relaykit.delegation", "validate_graph"),
    "Embedder": ("relaykit.embeddings", "Embedder"),
    "open_embedder": ("relaykit.embeddings", "open_embedder"),
    "AllModelsFailed": ("relaykit.errors", "AllModelsFailed"),
    "ContextWindowExceeded": ("relaykit.errors", "ContextWindowExceeded"),
    "InvalidOutput": ("relaykit.errors", "InvalidOutput"),
    "ModelError": ("relaykit.errors", "ModelError"),
    "ModelTimeout": ("relaykit.errors", "ModelTimeout"),
    "RateLimited": ("relaykit.errors", "RateLimited"),
    "RelaykitError": ("relaykit.errors", "RelaykitError"),
    "ServerError": ("relaykit.errors", "ServerError"),
    "UsageError": ("relaykit.errors", "UsageError"),
    "Fact": ("relaykit.handoff", "Fact"),
    "Handoff": ("relaykit.handoff", "Handoff"),
    "audit": ("relaykit.handoff.audit", "audit"),
    "compress_handoff": ("relaykit.handoff", "compress_handoff"),
    "compressors": ("relaykit.handoff", "compressors"),
    "register_compressor": ("relaykit.handoff", "register_compressor"),
    "Cached": ("relaykit.models", "Cached"),
    "ChatRequest": ("relaykit.models", "ChatRequest"),
    "ChatResponse": ("relaykit.models", "ChatResponse"),
    "FallbackChain": ("relaykit.models", "FallbackChain"),
    "Instrumented": ("relaykit.models", "Instrumented"),
    "Model": ("relaykit.models", "Model"),
    "complete_structured": ("relaykit.models", "complete_structured"),
    "open_model": ("relaykit.models", "open_model"),
    "open_store": ("relaykit.models", "open_store"),
    "register_model": ("relaykit.models", "register_model"),
    "Registry": ("relaykit.registry", "Registry"),
    "Telemetry": ("relaykit.telemetry", "Telemetry"),
    "count": ("relaykit.tokens", "count"),
    "count_messages": ("relaykit.tokens", "count_messages"),
    "compress_trajectory": ("relaykit.trajectory", "compress_trajectory"),
    "validate_messages": ("relaykit.trajectory.validate", "validate"),
}


def __getattr__(name: str) -> _typing.Any:
    """Import a public name's module the first time the name is used."""
    if name not in _WHERE:
        return _subpackage(name)
    module, attribute = _WHERE[name]
    value = getattr(_importlib.import_module(module), attribute)
    globals()[name] = value
    return value


def _subpackage(name: str) -> _typing.Any:
    """``relaykit.handoff`` and the other subpackages, as an eager ``import relaykit`` used to give them."""
    missing = AttributeError(f"module 'relaykit' has no attribute {name!r}")
    if name.startswith("_"):
        raise missing
    try:
        return _importlib.import_module(f"relaykit.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"relaykit.{name}":
            raise
        raise missing from None


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])


__all__ = [
    "Accounting",
    "AllModelsFailed",
    "Cached",
    "ChatRequest",
    "ChatResponse",
    "ContextWindowExceeded",
    "DelegationGraph",
    "Embedder",
    "Fact",
    "FallbackChain",
    "Handoff",
    "Instrumented",
    "InvalidOutput",
    "Model",
    "ModelError",
    "ModelTimeout",
    "RateLimited",
    "Registry",
    "RelaykitError",
    "ServerError",
    "Tally",
    "Telemetry",
    "Usage",
    "UsageError",
    "__version__",
    "arrange",
    "audit",
    "complete_structured",
    "compress_handoff",
    "compress_trajectory",
    "compressors",
    "count",
    "count_messages",
    "execute_direct",
    "fuse",
    "open_embedder",
    "open_model",
    "open_store",
    "plan_graph",
    "plan_nl",
    "register_compressor",
    "register_model",
    "route",
    "validate_graph",
    "validate_messages",
]
