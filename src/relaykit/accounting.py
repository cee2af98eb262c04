"""The one accounting record every compressor result carries, and the one ``Usage`` counter.

``ratio`` means the same thing everywhere in relaykit: ``tokens_out / tokens_in``. 1.0 is unchanged, below
1.0 is smaller. ``compression_factor`` is the inverse (2.0 = half the size) for people who think that way.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, fields, replace
from typing import Any, Protocol


@dataclass(frozen=True)
class Usage:
    """What producing a result cost: model calls, their tokens, embedding calls and wall-clock seconds.

    Values add up with ``+``; ``Usage()`` is the zero.
    """

    model_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    embedding_calls: int = 0
    seconds: float = 0.0

    def __add__(self, other: Usage) -> Usage:
        if not isinstance(other, Usage):
            return NotImplemented
        return Usage(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def with_seconds(self, seconds: float) -> Usage:
        return replace(self, seconds=seconds)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)} | {"total_tokens": self.total_tokens}


class _Response(Protocol):
    """What ``Tally.add`` reads from a model answer (``relaykit.models.ChatResponse`` has these)."""

    @property
    def prompt_tokens(self) -> int: ...

    @property
    def completion_tokens(self) -> int: ...


class _TallyField:
    """One ``Usage`` field read and written through a ``Tally`` (``tally.prompt_tokens += n`` works)."""

    def __init__(self, field_name: str) -> None:
        self.field_name = field_name

    def __get__(self, tally: Tally | None, owner: type | None = None) -> int:
        return 0 if tally is None else int(getattr(tally.usage, self.field_name))

    def __set__(self, tally: Tally, value: int) -> None:
        tally._set(**{self.field_name: value})


class Tally:
    """A running ``Usage`` total that a caller passes in to have model calls added to (thread-safe).

    ``add`` takes a model answer (one model call with its tokens) or a ``Usage``; ``usage`` is the total so
    far as the one frozen ``Usage`` record.
    """

    def __init__(self, start: Usage | None = None) -> None:
        self.usage = start or Usage()
        self._lock = threading.Lock()

    def add(self, item: Usage | _Response) -> None:
        step = item if isinstance(item, Usage) else Usage(
            model_calls=1, prompt_tokens=item.prompt_tokens, completion_tokens=item.completion_tokens)
        with self._lock:
            self.usage = self.usage + step

    def _set(self, **values: int) -> None:
        with self._lock:
            self.usage = replace(self.usage, **values)

    model_calls = _TallyField("model_calls")
    prompt_tokens = _TallyField("prompt_tokens")
    completion_tokens = _TallyField("completion_tokens")
    requests = _TallyField("model_calls")
    """Deprecated name of ``model_calls`` (kept while hand-off and the labs' runners move over)."""

    @property
    def total_tokens(self) -> int:
        return self.usage.total_tokens

    def __repr__(self) -> str:
        return f"Tally({self.usage!r})"


@dataclass(frozen=True)
class Accounting:
    """Tokens in and out of one compression, the units it kept, dropped or masked, and what it cost.

    Units are whatever the method works on (sentences of a hand-off trace, past steps of a trajectory,
    items of an arrangement), named by their index in the input. ``budget`` is the token ceiling the caller
    gave (None when the caller gave a keep ratio instead); a result is never returned over it.
    """

    tokens_in: int
    tokens_out: int
    method: str = ""
    encoding: str = "o200k_base"
    budget: int | None = None
    kept: tuple[int, ...] = ()
    dropped: tuple[int, ...] = ()
    masked: tuple[int, ...] = ()
    notices: tuple[str, ...] = ()
    usage: Usage = field(default_factory=Usage)

    @property
    def ratio(self) -> float:
        """tokens_out / tokens_in: 1.0 unchanged, below 1.0 smaller (1.0 for an empty input)."""
        return self.tokens_out / self.tokens_in if self.tokens_in else 1.0

    @property
    def compression_factor(self) -> float:
        """tokens_in / tokens_out, the inverse of ``ratio`` (2.0 = half the size)."""
        return self.tokens_in / self.tokens_out if self.tokens_out else float("inf") if self.tokens_in else 1.0

    @property
    def over_budget(self) -> bool:
        return self.budget is not None and self.tokens_out > self.budget

    def with_notices(self, *notices: str) -> Accounting:
        return replace(self, notices=(*self.notices, *notices))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready keys; the same keys on every ``--json`` output that reports a compression."""
        return {
            "method": self.method,
            "tokens_in": self.tokens_in,
            "tokens_out": self.tokens_out,
            "ratio": round(self.ratio, 4),
            "encoding": self.encoding,
            "budget": self.budget,
            "over_budget": self.over_budget,
            "kept": list(self.kept),
            "dropped": list(self.dropped),
            "masked": list(self.masked),
            "notices": list(self.notices),
            "usage": self.usage.to_dict(),
        }


ACCOUNTING_KEYS = ("method", "tokens_in", "tokens_out", "ratio", "encoding", "budget", "over_budget", "kept",
                   "dropped", "masked", "notices", "usage")
"""The keys of ``Accounting.to_dict()``: every compress/validate ``--json`` output carries them under
``"accounting"``."""

__all__ = ["ACCOUNTING_KEYS", "Accounting", "Tally", "Usage"]
