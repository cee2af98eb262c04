"""The TF-IDF re-encoding baseline: keep the most distinctive words of a prose delegation.

A schema-unaware re-encoding of the protocol comparison: the prose plan is reduced to its
top-weighted terms, kept in the order they first appear. The IDF comes from a corpus of other
delegations when given (the lab passes every NL plan of the run), else from the plan's sentences.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from relaykit.errors import UsageError
from relaykit.text import STOPWORDS, idf_weights, split_sentences, terms


def content_terms(text: str) -> list[str]:
    """Words and identifiers of ``text`` in their original case, without stop words."""
    return [w for w in terms(text) if w.lower() not in STOPWORDS]


def tfidf_reencode(text: str, corpus: Sequence[str] = (), *, keep: float = 0.5) -> str:
    """The top ``keep`` share of distinct terms of ``text`` by TF-IDF, in first-appearance order.

    IDF is ``relaykit.text.idf_weights(form="plain")`` over ``corpus`` (else the plan's own sentences), so a
    term in every document weighs close to zero; identifiers (#W123, e-mail addresses) stay whole.
    """
    if not 0.0 < keep <= 1.0:
        raise UsageError(f"keep must be in (0, 1], not {keep}")
    found = content_terms(text)
    if not found:
        return text.strip()
    docs = list(corpus) or split_sentences(text)
    idf = idf_weights(([w.lower() for w in content_terms(d)] for d in docs), form="plain")
    unseen = math.log(1 + len(docs))  # a term no document holds counts as held by one
    tf = Counter(w.lower() for w in found)
    distinct = list(tf)  # first-appearance order
    n_keep = max(1, round(len(distinct) * keep))
    ranked = sorted(range(len(distinct)), key=lambda i: (-tf[distinct[i]] * idf.get(distinct[i], unseen), i))
    kept = {distinct[i] for i in ranked[:n_keep]}
    out: dict[str, str] = {}
    for word in found:
        if word.lower() in kept:
            out.setdefault(word.lower(), word)
    return " ".join(out.values())
