"""``prune``: embedding-based sentence pruning (paper 000).

Sentences, the goal and an elimination-oriented query are embedded; a sentence is kept when its cosine
similarity to the goal or to the query reaches ``threshold``, and always when it names an option
identifier together with a verdict word. Kept sentences stay in their original order.
"""

from __future__ import annotations

import numpy as np

from relaykit.handoff.base import Compressed, FunctionCompressor, Job, register_compressor
from relaykit.handoff.text import compile_id_pattern, has_verdict, iter_sentences
from relaykit.handoff.units import selection

ELIMINATION_QUERY = ("Which options were eliminated or failed a hard constraint, and the evidence: the price, "
                     "distance, amenity or schedule value that broke the limit.")
DEFAULT_THRESHOLD = 0.35
"""Chosen for MiniLM-L6 by a sweep on auditor-style traces (docs/handoff.md); the paper's 0.75 was for
text-embedding-3-small, whose similarities sit on another scale."""


def prune(job: Job) -> Compressed:
    sentences = list(iter_sentences(job.trace))
    threshold = float(job.settings["threshold"])
    batch = int(job.settings["batch_size"])
    id_re = compile_id_pattern(job.settings["id_pattern"])
    anchors = job.embed([job.goal, str(job.settings["query"])])
    keep = []
    for start in range(0, len(sentences), batch):
        chunk = sentences[start:start + batch]
        similarity = np.asarray(job.embed(chunk) @ anchors.T).max(axis=1)
        for offset, sentence in enumerate(chunk):
            pinned = job.settings["keep_verdicts"] and id_re.search(sentence) and has_verdict(sentence)
            if pinned or similarity[offset] >= threshold:
                keep.append(start + offset)
    warnings = [] if any(id_re.search(s) for s in sentences) else [
        "no option identifiers were found, so no verdict sentence was pinned; pass id_pattern=REGEX"]
    return selection(sentences, keep, warnings)


register_compressor("prune", FunctionCompressor(prune, {
    "threshold": DEFAULT_THRESHOLD, "query": ELIMINATION_QUERY, "keep_verdicts": True, "id_pattern": None,
    "batch_size": 256,
}))
