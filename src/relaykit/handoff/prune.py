"""``prune``: embedding-based sentence pruning (paper 000).

Sentences, the goal and an elimination-oriented query are embedded; a sentence is kept when its cosine
similarity to the goal or to the query reaches ``threshold``, and always when it names an option
identifier together with a verdict word. Kept sentences stay in their original order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from relaykit.handoff.base import Compressed, FunctionCompressor, Job, register_compressor
from relaykit.handoff.text import compile_id_pattern, has_verdict, iter_sentences
from relaykit.handoff.units import identifier_warnings, selection

ELIMINATION_QUERY = ("Which options were eliminated or failed a hard constraint, and the evidence: the price, "
                     "distance, amenity or schedule value that broke the limit.")
DEFAULT_THRESHOLD = 0.30
"""Chosen for MiniLM-L6 by a sweep on auditor-style traces (docs/handoff.md); the paper's 0.75 was for
text-embedding-3-small, whose similarities sit on another scale."""


def prune(job: Job) -> Compressed:
    sentences = list(iter_sentences(job.trace))
    threshold = float(job.settings["threshold"])
    id_re = compile_id_pattern(job.settings["id_pattern"])
    keep = {i for i, s in enumerate(sentences) if job.settings["keep_verdicts"] and id_re.search(s) and has_verdict(s)}
    # pinned sentences are kept anyway, and a repeated sentence is embedded once
    pending = list(dict.fromkeys(s for i, s in enumerate(sentences) if i not in keep))
    similar = _similar(job, pending, threshold)
    keep.update(i for i, s in enumerate(sentences) if s in similar)
    return selection(sentences, keep, identifier_warnings(job.trace, job.settings["id_pattern"]))


def _similar(job: Job, texts: list[str], threshold: float) -> set[str]:
    """The texts whose cosine similarity to the goal or to the elimination query reaches ``threshold``."""
    if not texts:
        return set()
    anchors = job.embed([job.goal, str(job.settings["query"])])
    batch = int(job.settings["batch_size"])
    found: set[str] = set()
    for start in range(0, len(texts), batch):
        chunk = texts[start:start + batch]
        similarity = np.asarray(job.embed(chunk) @ anchors.T).max(axis=1)
        found.update(text for text, sim in zip(chunk, similarity, strict=True) if sim >= threshold)
    return found


@dataclass(frozen=True)
class PruneSettings:
    """The settings of ``prune`` (defaults as shown)."""

    threshold: float = DEFAULT_THRESHOLD
    query: str = ELIMINATION_QUERY
    keep_verdicts: bool = True
    id_pattern: str | None = None
    batch_size: int = 256


register_compressor("prune", FunctionCompressor.of(prune, PruneSettings, needs_embedder=True))
