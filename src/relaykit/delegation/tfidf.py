"""The TF-IDF re-encoding baseline: keep the most distinctive words of a prose delegation.

A schema-unaware re-encoding of the protocol comparison: the prose plan is reduced to its
top-weighted terms, kept in the order they first appear. The IDF comes from a corpus of other
delegations when given (the lab passes every NL plan of the run), else from the plan's sentences.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from relaykit.errors import UsageError

WORD = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)*|#?[A-Z]?\d[\w.-]*\w|#?[A-Z]?\d|[A-Za-z_][A-Za-z0-9_']*")
_STOP_TEXT = (
    "a an the and or of to in on for with by at from is are be was were it its this that these those as "
    "then than so do does not no yes you your we our they their he she his her i me my will would should "
    "can could may might must have has had into about over after before if when which who whom what"
)
STOPWORDS = frozenset(_STOP_TEXT.split())


def terms(text: str) -> list[str]:
    return [w for w in WORD.findall(text) if w.lower() not in STOPWORDS]


def tfidf_reencode(text: str, corpus: Sequence[str] = (), *, keep: float = 0.5) -> str:
    """The top ``keep`` share of distinct terms of ``text`` by TF-IDF, in first-appearance order."""
    if not 0.0 < keep <= 1.0:
        raise UsageError(f"keep must be in (0, 1], not {keep}")
    words = terms(text)
    if not words:
        return text.strip()
    docs = list(corpus) or [s for s in re.split(r"(?<=[.!?])\s+|\n+", text) if s.strip()]
    doc_terms = [{w.lower() for w in terms(d)} for d in docs]
    tf = Counter(w.lower() for w in words)
    n_docs = len(doc_terms)

    def weight(term: str) -> float:
        df = sum(1 for d in doc_terms if term in d)
        return tf[term] * math.log((1 + n_docs) / max(1, df))

    distinct = list(dict.fromkeys(w.lower() for w in words))
    n_keep = max(1, round(len(distinct) * keep))
    kept = set(sorted(distinct, key=lambda t: (-weight(t), distinct.index(t)))[:n_keep])
    out, seen = [], set()
    for word in words:
        if word.lower() in kept and word.lower() not in seen:
            out.append(word)
            seen.add(word.lower())
    return " ".join(out)
