"""Embedding diagnostics with a shared cache: fidelity (trace vs payload) and goal similarity (payload vs goal).

Long texts are embedded as the normalised mean of their chunks (lines, or runs of at most ``CHUNK_WORDS``
words), because MiniLM reads only a few hundred word pieces at once. The cache is keyed by chunk text, so
the audit lines that recur across goals and payloads are embedded once per run, and the same cached
embedder is handed to the compressors (``prune`` embeds the same sentences).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from relaykit.embeddings import Embedder
from relaykit.embeddings.base import Vectors, normalise

CHUNK_WORDS = 48


class CachedEmbedder:
    """An ``Embedder`` that remembers every text it embedded (thread-safe; calls are serialised)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name = f"cached:{inner.name}"
        self._cache: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> Vectors:
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
            if missing:
                self.calls += 1
                for text, row in zip(missing, self.inner.embed(missing)):
                    self._cache[text] = row
            if not texts:
                return np.zeros((0, 1), dtype=np.float32)
            return np.stack([self._cache[t] for t in texts]).astype(np.float32)


def chunks(text: str) -> list[str]:
    out: list[str] = []
    for line in text.splitlines():
        words = line.split()
        out += [" ".join(words[i:i + CHUNK_WORDS]) for i in range(0, len(words), CHUNK_WORDS)]
    return out or [text]


def text_vector(embedder: Embedder, text: str) -> np.ndarray:
    vectors = embedder.embed(chunks(text))
    row: np.ndarray = normalise(vectors.mean(axis=0))[0]
    return row


def similarity(embedder: Embedder, a: str, b: str) -> float:
    """Cosine of the two texts' (chunk-mean) embeddings; 0.0 when either text is empty."""
    if not a.strip() or not b.strip():
        return 0.0
    return float(np.dot(text_vector(embedder, a), text_vector(embedder, b)))
