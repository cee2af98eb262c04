"""Sentence units for the extractive methods: selection under a keep ratio or a token budget, and the payload."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from relaykit.errors import UsageError
from relaykit.handoff.base import Compressed
from relaykit.handoff.text import compile_id_pattern, count_tokens
from relaykit.text import pack

SEPARATOR = "\n"


def target_tokens(settings: Mapping[str, Any], tokens_in: int) -> int:
    """The token target: ``budget`` when set (a hard ceiling), else ``ratio`` x the trace's tokens."""
    budget, ratio = settings.get("budget"), settings.get("ratio")
    if budget is not None:
        if int(budget) < 1:
            raise UsageError(f"budget must be a positive number of tokens, not {budget}")
        return int(budget)
    if ratio is None or not 0.0 < float(ratio) <= 1.0:
        raise UsageError(f"ratio must be in (0, 1], not {ratio}; or give budget=TOKENS")
    return max(1, int(float(ratio) * tokens_in))


def sentence_tokens(sentences: Sequence[str]) -> list[int]:
    return [count_tokens(s) for s in sentences]


def selection(sentences: Sequence[str], keep: Iterable[int], warnings: Iterable[str] = ()) -> Compressed:
    """The payload of the kept sentence indices, in their original order, one per line; a trace with sentences of
    which none was kept gets a warning too (an empty payload hands the next agent nothing)."""
    kept = sorted(set(keep))
    kept_set = set(kept)
    dropped = tuple(i for i in range(len(sentences)) if i not in kept_set)
    payload = SEPARATOR.join(sentences[i] for i in kept)
    notes = tuple(warnings)
    if not payload.strip() and any(s.strip() for s in sentences):
        count = f"{len(sentences)} sentence{'' if len(sentences) == 1 else 's'}"
        notes += (f"nothing of the trace ({count}) was kept: the payload is empty",)
    return Compressed(payload, kept_units=tuple(kept), dropped_units=dropped, warnings=notes)


def identifier_warnings(trace: str, id_pattern: str | None) -> tuple[str, ...]:
    """A warning when the trace names no option identifier: the payload cannot support a choice."""
    if compile_id_pattern(id_pattern).search(trace):
        return ()
    return ("no option identifiers were found in the trace, so the payload cannot say which option is which; "
            "pass id_pattern=REGEX if the trace names options another way",)


def fill_budget(order: Iterable[int], costs: Sequence[int], budget: int) -> list[int]:
    """Indices taken from ``order`` while their tokens (plus a separator each) fit in ``budget``."""
    return pack(order, costs.__getitem__, budget, separator=1)


__all__ = ["SEPARATOR", "fill_budget", "identifier_warnings", "selection", "sentence_tokens", "target_tokens"]
