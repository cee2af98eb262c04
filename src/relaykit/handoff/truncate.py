"""``truncate``: keep whole sentences from the head and the tail of the trace within a token target."""

from __future__ import annotations

from dataclasses import dataclass

from relaykit.handoff.base import Compressed, FunctionCompressor, Job, register_compressor
from relaykit.handoff.text import count_tokens, split_sentences
from relaykit.handoff.units import identifier_warnings, selection, target_tokens


def _take(indices: range, sentences: list[str], budget: int) -> tuple[list[int], int]:
    taken, used = [], 0
    for i in indices:
        cost = count_tokens(sentences[i]) + 1
        if used + cost > budget:
            break
        taken.append(i)
        used += cost
    return taken, used


def truncate(job: Job) -> Compressed:
    """Head gets ``head`` (a fraction) of the target, the tail the rest; only boundary sentences are counted."""
    sentences = split_sentences(job.trace)
    target = target_tokens(job.settings, count_tokens(job.trace))
    head_share = float(job.settings["head"])
    head, used = _take(range(len(sentences)), sentences, int(target * head_share))
    first_free = head[-1] + 1 if head else 0
    tail, _ = _take(range(len(sentences) - 1, first_free - 1, -1), sentences, target - used)
    return selection(sentences, head + tail, identifier_warnings(job.trace, job.settings["id_pattern"]))


@dataclass(frozen=True)
class TruncateSettings:
    """The settings of ``truncate`` (defaults as shown)."""

    ratio: float = 0.5
    budget: int | None = None
    head: float = 0.5
    id_pattern: str | None = None


register_compressor("truncate", FunctionCompressor.of(truncate, TruncateSettings))
