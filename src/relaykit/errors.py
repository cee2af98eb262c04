"""The exception tree of relaykit, split by who must act.

- ``UsageError``: the caller must change what they passed (bad input, bad spec, missing key).
- ``ModelError``: a model backend failed; wrappers such as fallback chains may retry or move on.

Every message says what went wrong and, where possible, how to fix it.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

if sys.version_info >= (3, 11):  # pragma: no cover - version switch
    _ExceptionGroup = ExceptionGroup  # noqa: F821 - a builtin from 3.11
else:  # pragma: no cover
    from exceptiongroup import ExceptionGroup as _ExceptionGroup


class RelaykitError(Exception):
    """Root of every error relaykit raises on purpose."""


class UsageError(RelaykitError, ValueError):
    """The input or configuration is wrong; the message says how to fix it."""


class ModelError(RelaykitError):
    """A model backend could not produce an answer."""

    retryable: bool = False


class RateLimited(ModelError):
    """The backend answered 429; ``retry_after`` is in seconds when the server said."""

    retryable = True

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class ModelTimeout(ModelError):
    """The backend did not answer within the timeout."""

    retryable = True


class ServerError(ModelError):
    """The backend answered with a server error (5xx) or a malformed body."""

    retryable = True

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class ContextWindowExceeded(ModelError, UsageError):
    """The request cannot fit the model's context window; raised before any call is made."""

    def __init__(self, message: str, needed: int, window: int) -> None:
        super().__init__(message)
        self.needed = needed
        self.window = window


class InvalidOutput(ModelError):
    """The model's output did not validate against the requested schema, after every repair."""

    retryable = True

    def __init__(self, message: str, raw_text: str = "", errors: Sequence[Any] = ()) -> None:
        super().__init__(message)
        self.raw_text = raw_text
        self.errors = list(errors)


class AllModelsFailed(ModelError, _ExceptionGroup):  # type: ignore[misc]
    """Every model of a fallback chain failed; ``exceptions`` holds each attempt's error."""

    def __new__(cls, message: str, errors: Sequence[Exception]) -> AllModelsFailed:
        return super().__new__(cls, message, list(errors))

    def __init__(self, message: str, errors: Sequence[Exception]) -> None:
        super().__init__(message, list(errors))

    def derive(self, excs: Sequence[Exception]) -> AllModelsFailed:  # type: ignore[override]
        return AllModelsFailed(self.message, excs)


def unknown_name(kind: str, name: object, known: Sequence[str], shown: Sequence[str] | None = None) -> UsageError:
    """The one "unknown name" error: ``unknown KIND 'x'; did you mean 'y'? choose one of: a, b, c``.

    ``known`` are the accepted names (matched for the hint); ``shown`` how they are listed (default ``known``).
    """
    import difflib

    close = difflib.get_close_matches(str(name), list(known), n=1, cutoff=0.6)
    hint = f"did you mean {close[0]!r}? " if close else ""
    listed = ", ".join(shown if shown is not None else known) or "none registered"
    return UsageError(f"unknown {kind} {name!r}; {hint}choose one of: {listed}")


__all__ = [
    "AllModelsFailed",
    "ContextWindowExceeded",
    "InvalidOutput",
    "ModelError",
    "ModelTimeout",
    "RateLimited",
    "RelaykitError",
    "ServerError",
    "UsageError",
    "unknown_name",
]
