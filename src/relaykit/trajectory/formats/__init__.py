"""Provider message formats: OpenAI Chat Completions, OpenAI Responses, Anthropic Messages, Gemini contents.

``detect_format(obj)`` names the format of a history; ``compress_formatted(obj, ...)`` compresses it in its own
format (through the chat view of ``base``) and checks the result against that provider's rules.
"""

from __future__ import annotations

from relaykit.trajectory.formats import anthropic, chat, gemini, responses
from relaykit.trajectory.formats.base import FORMATS, SOURCE_KEY, ChatView, MessageFormat, register_format
from relaykit.trajectory.formats.compress import (
    FormattedCompression,
    compress_formatted,
    detect_format,
    get_format,
    validate_formatted,
)

__all__ = [
    "FORMATS",
    "SOURCE_KEY",
    "ChatView",
    "FormattedCompression",
    "MessageFormat",
    "anthropic",
    "chat",
    "compress_formatted",
    "detect_format",
    "gemini",
    "get_format",
    "register_format",
    "responses",
    "validate_formatted",
]
