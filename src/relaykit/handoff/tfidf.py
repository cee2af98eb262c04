"""``tfidf``: keep the sentences with the highest mean TF-IDF weight (a schema-unaware baseline, paper 004)."""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

from relaykit.handoff.base import Compressed, FunctionCompressor, Job, register_compressor
from relaykit.handoff.text import split_sentences
from relaykit.handoff.units import fill_budget, identifier_warnings, selection, sentence_tokens, target_tokens

_TERM = re.compile(r"[a-z0-9$£€]+(?:[.,][0-9]+)*")


def tfidf_scores(sentences: list[str]) -> list[float]:
    """Each sentence's mean TF-IDF weight; sentences are the documents (two passes, vocabulary-sized memory)."""
    doc_freq: Counter[str] = Counter()
    for sentence in sentences:
        doc_freq.update(set(_TERM.findall(sentence.lower())))
    n = len(sentences)
    idf = {term: math.log((1 + n) / (1 + df)) + 1.0 for term, df in doc_freq.items()}
    scores = []
    for sentence in sentences:
        terms = _TERM.findall(sentence.lower())
        counts = Counter(terms)
        scores.append(sum(c * idf[t] for t, c in counts.items()) / len(terms) if terms else 0.0)
    return scores


def tfidf(job: Job) -> Compressed:
    sentences = split_sentences(job.trace)
    costs = sentence_tokens(sentences)
    target = target_tokens(job.settings, sum(costs))
    scores = tfidf_scores(sentences)
    order = sorted(range(len(sentences)), key=lambda i: (-scores[i], i))
    warnings = identifier_warnings(job.trace, job.settings["id_pattern"])
    return selection(sentences, fill_budget(order, costs, target), warnings)


@dataclass(frozen=True)
class TfidfSettings:
    """The settings of ``tfidf`` (defaults as shown)."""

    ratio: float = 0.5
    budget: int | None = None
    id_pattern: str | None = None


register_compressor("tfidf", FunctionCompressor.of(tfidf, TfidfSettings))
