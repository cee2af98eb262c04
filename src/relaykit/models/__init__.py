"""One small model interface, its backends, and structured output."""

from relaykit.models.base import ChatRequest, ChatResponse, Message, Model, TokenLogprob, check_chat_messages
from relaykit.models.base import Usage as Usage  # deprecated alias of relaykit.accounting.Tally, not in __all__
from relaykit.models.registry import MODELS, SpecForm, accepted_forms, open_model, register_model
from relaykit.models.structured import complete_structured, validate_output

__all__ = [
    "MODELS",
    "ChatRequest",
    "ChatResponse",
    "Message",
    "Model",
    "SpecForm",
    "TokenLogprob",
    "accepted_forms",
    "check_chat_messages",
    "complete_structured",
    "open_model",
    "register_model",
    "validate_output",
]

# Wrappers that are themselves Models (issue 7: cost patterns of paper 002).
from relaykit.models.cache import Cached, CacheMiss, MemoryStore, open_store
from relaykit.models.fallback import Backoff, FallbackChain
from relaykit.models.instrumented import Instrumented, model_family

__all__ += [
    "Backoff",
    "CacheMiss",
    "Cached",
    "FallbackChain",
    "Instrumented",
    "MemoryStore",
    "model_family",
    "open_store",
]
