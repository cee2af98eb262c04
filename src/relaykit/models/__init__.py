"""One small model interface, its backends, and structured output."""

from relaykit.models.base import ChatRequest, ChatResponse, Message, Model, TokenLogprob, Usage
from relaykit.models.registry import accepted_forms, open_model, register_model
from relaykit.models.structured import complete_structured, validate_output

__all__ = [
    "ChatRequest",
    "ChatResponse",
    "Message",
    "Model",
    "TokenLogprob",
    "Usage",
    "accepted_forms",
    "complete_structured",
    "open_model",
    "register_model",
    "validate_output",
]
