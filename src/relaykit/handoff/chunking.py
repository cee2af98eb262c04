"""Splitting a trace into pieces that fit a model's context window next to a prompt."""

from __future__ import annotations

from relaykit.errors import UsageError
from relaykit.handoff.text import iter_sentences
from relaykit.models.base import Model

MARGIN = 32


def fit_chunks(model: Model, trace: str, room: int) -> list[str]:
    """``trace`` as one piece if it fits in ``room`` tokens of ``model``, else whole-sentence pieces that do."""
    if room < 64:
        raise UsageError(f"{model.name} leaves only {room} tokens for the trace; use a model with a larger "
                         "context window or lower max_tokens")
    if model.count_tokens(trace) <= room:
        return [trace]
    chunks: list[str] = []
    current: list[str] = []
    used = 0
    for sentence in iter_sentences(trace):
        cost = model.count_tokens(sentence) + 1
        if current and used + cost > room:
            chunks.append("\n".join(current))
            current, used = [], 0
        current.append(sentence[: room * 3] if cost > room else sentence)
        used += min(cost, room)
    if current:
        chunks.append("\n".join(current))
    return chunks


def room_for_trace(model: Model, prompt_without_trace: list[dict[str, str]], max_tokens: int) -> int:
    """Tokens left for the trace once the prompt's fixed text and the answer are accounted for."""
    return model.context_window - model.count_messages(prompt_without_trace) - max_tokens - MARGIN


__all__ = ["fit_chunks", "room_for_trace"]
