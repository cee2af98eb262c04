"""Compress a history in its own provider format and check the result against that provider's rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from relaykit.errors import UsageError
from relaykit.trajectory.compress import compress_trajectory
from relaykit.trajectory.formats.base import FORMATS, MessageFormat
from relaykit.trajectory.validate import Violation

DETECTION_ORDER = ("anthropic", "responses", "gemini", "chat")


def get_format(name: str) -> MessageFormat:
    return FORMATS.get(name)


def detect_format(obj: Any) -> str:
    """The name of ``obj``'s format; ``UsageError`` when it is none of them."""
    for name in DETECTION_ORDER:
        if FORMATS.get(name).detect(obj):
            return name
    for name in FORMATS.names():
        if name not in DETECTION_ORDER and FORMATS.get(name).detect(obj):
            return name
    raise UsageError("cannot tell the message format: expected an OpenAI chat message list, OpenAI Responses input "
                     "items, an Anthropic Messages body or list, or Gemini contents; name it with format=...")


def _resolve(obj: Any, format: str) -> MessageFormat:
    return get_format(detect_format(obj) if format == "auto" else format)


def validate_formatted(obj: Any, format: str = "auto") -> list[Violation]:
    """Every rule of the provider's API that ``obj`` breaks (empty: the provider accepts it)."""
    return _resolve(obj, format).validate(obj)


@dataclass(frozen=True)
class FormattedCompression:
    """The compressed history in the input's own format, with the chat-view compression that produced it."""

    format: str
    messages: Any
    result: Any

    @property
    def accounting(self) -> Any:
        return self.result.accounting


def compress_formatted(obj: Any, method: Any = "agora", *, format: str = "auto",
                       **options: Any) -> FormattedCompression:
    """Compress a history given in any supported provider format; the result is in that same format.

    Options are those of ``compress_trajectory``. Tokens are counted on the chat view (the text the provider
    sees, with the chat per-message overhead). Invalid input raises ``UsageError`` listing the provider's rules
    it breaks; the output is checked against the same rules.
    """
    fmt = _resolve(obj, format)
    problems = fmt.validate(obj)
    if problems:
        listed = "; ".join(str(v) for v in problems[:10])
        raise UsageError(f"the {fmt.description} history is already invalid ({len(problems)} violation(s)): "
                         f"{listed}. relaykit never repairs input silently; fix these first")
    view = fmt.to_chat(obj)
    result = compress_trajectory(view.messages, method, **options)
    rendered = fmt.from_chat(cast("list[dict[str, Any]]", result.messages), view)
    after = fmt.validate(rendered)
    if after:  # a bug in relaykit, never the user's input: say so loudly
        raise AssertionError(f"relaykit produced an invalid {fmt.name} history: {after[:3]}")
    return FormattedCompression(fmt.name, rendered, result)


__all__ = ["FormattedCompression", "compress_formatted", "detect_format", "get_format", "validate_formatted"]
