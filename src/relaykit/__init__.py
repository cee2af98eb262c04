"""relaykit: compress what passes between LLM agents without losing the facts, and measure it."""

from relaykit.accounting import Accounting, Tally, Usage
from relaykit.context import arrange, fuse
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
from relaykit.handoff import Fact, Handoff, audit, compress_handoff, compressors, register_compressor
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
from relaykit.trajectory import validate as validate_messages

__version__ = "0.1.0"

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
