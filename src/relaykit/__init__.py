"""relaykit: compress what passes between LLM agents without losing the facts, and measure it."""

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
from relaykit.models import (
    ChatRequest,
    ChatResponse,
    Model,
    Usage,
    complete_structured,
    open_model,
    register_model,
)
from relaykit.tokens import count, count_messages

__version__ = "0.1.0"

__all__ = [
    "AllModelsFailed",
    "ChatRequest",
    "ChatResponse",
    "ContextWindowExceeded",
    "InvalidOutput",
    "Model",
    "ModelError",
    "ModelTimeout",
    "RateLimited",
    "RelaykitError",
    "ServerError",
    "Usage",
    "UsageError",
    "__version__",
    "complete_structured",
    "count",
    "count_messages",
    "open_model",
    "register_model",
]
