"""``selective``: token-level self-information pruning (Selective Context), a baseline.

The model scores the trace piece by piece (``Model.score_continuation``); a token's self-information is
its negative log-probability. Token scores are spread over the words they overlap, and the words with
the least information are deleted until ``ratio`` of the words remain. Kept to show what deleting
predictable tokens does to identifiers and numbers: they are often the predictable part.
"""

from __future__ import annotations

import bisect
import itertools
from dataclasses import dataclass

from relaykit.errors import UsageError
from relaykit.handoff.base import Compressed, FunctionCompressor, Job, register_compressor
from relaykit.handoff.text import split_sentences
from relaykit.handoff.units import SEPARATOR
from relaykit.models.base import TokenLogprob
from relaykit.selective import most_informative, spread_over_words

PROMPT = "Continue the agent's working notes for this goal:\n{goal}"


def _chunks(sentences: list[str], limit: int, count: object) -> list[list[int]]:
    counter = count if callable(count) else len
    groups: list[list[int]] = [[]]
    used = 0
    for i, sentence in enumerate(sentences):
        cost = int(counter(sentence)) + 1
        if groups[-1] and used + cost > limit:
            groups.append([])
            used = 0
        groups[-1].append(i)
        used += cost
    return [g for g in groups if g]


def word_information(text: str, scored: list[TokenLogprob]) -> list[tuple[int, int, float]]:
    """(start, end, self-information) per word of ``text`` (``relaykit.selective.spread_over_words``)."""
    return spread_over_words(text, [(t.token, -t.logprob) for t in scored])


def selective(job: Job) -> Compressed:
    sentences = split_sentences(job.trace)
    model = job.model
    messages = [{"role": "user", "content": PROMPT.format(goal=job.goal)}]
    scored_words: list[tuple[int, int, int, float]] = []
    for group in _chunks(sentences, int(job.settings["chunk_tokens"]), model.count_tokens):
        text = SEPARATOR.join(sentences[i] for i in group)
        scored = model.score_continuation(messages, text)
        job.meter.model_calls += 1
        job.meter.prompt_tokens += model.count_messages(messages) + model.count_tokens(text)
        bounds = list(itertools.accumulate((len(sentences[i]) + 1 for i in group[:-1]), initial=0))
        for start, end, info in word_information(text, scored):
            j = bisect.bisect_right(bounds, start) - 1
            scored_words.append((group[j], start - bounds[j], end - bounds[j], info))
    return _keep_informative(sentences, scored_words, float(job.settings["ratio"]))


def _keep_informative(sentences: list[str], scored: list[tuple[int, int, int, float]], ratio: float) -> Compressed:
    if not 0.0 < ratio <= 1.0:
        raise UsageError(f"ratio must be in (0, 1], not {ratio}")
    total = len(scored)
    keep_n = max(1, int(ratio * total)) if total else 0
    kept = most_informative([s[3] for s in scored], keep_n)
    lines: dict[int, list[str]] = {}
    for k in kept:
        unit, start, end, _ = scored[k]
        lines.setdefault(unit, []).append(sentences[unit][start:end])
    payload = SEPARATOR.join(" ".join(words) for _, words in sorted(lines.items()))
    return Compressed(payload, warnings=(f"kept {keep_n} of {total} words by self-information",))


@dataclass(frozen=True)
class SelectiveSettings:
    """The settings of ``selective`` (defaults as shown)."""

    ratio: float = 0.5
    chunk_tokens: int = 384


register_compressor("selective", FunctionCompressor.of(selective, SelectiveSettings, needs_model=True))
