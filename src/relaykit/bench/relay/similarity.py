"""Embedding diagnostics with a shared cache: fidelity (trace vs payload) and goal similarity (payload vs goal).

Long texts are embedded as the normalised mean of their chunks (lines, or runs of at most ``CHUNK_WORDS``
words), because MiniLM reads only a few hundred word pieces at once. The cache is keyed by chunk text, so
the audit lines that recur across goals and payloads are embedded once per run, and the same cached
embedder is handed to the compressors (``prune`` embeds the same sentences). ``diagnostics`` embeds every
chunk of one goal's trace, payloads and goal text in a single batch. With a ``VectorStore`` (an SQLite file
next to the run store) vectors also persist between runs, so a repeated run loads no embedding model at all.
"""

from __future__ import annotations

import functools
import hashlib
import os
import sqlite3
import threading
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np

from relaykit.embeddings import Embedder
from relaykit.embeddings.base import Vectors, normalise

CHUNK_WORDS = 48
CALL_TEXTS = 2048  # texts per call to the inner embedder (OpenAI's embeddings endpoint takes at most 2,048)


class VectorStore:
    """Embeddings kept on disk between runs, keyed by embedder name and text digest (file created 0600)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        if not self.path.parent.exists():
            self.path.parent.mkdir(parents=True, mode=0o700, exist_ok=True)
        if not self.path.exists():
            os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=OFF")  # a cache: a lost write is embedded again next time
        self._db.execute("CREATE TABLE IF NOT EXISTS vectors (embedder TEXT, digest TEXT, vector BLOB, "
                         "PRIMARY KEY (embedder, digest))")
        self._lock = threading.Lock()

    @staticmethod
    def digest(text: str) -> str:
        return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()

    def get(self, embedder: str, texts: Sequence[str]) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        by_digest = {self.digest(t): t for t in texts}
        keys = list(by_digest)
        with self._lock:
            for i in range(0, len(keys), 500):
                part = keys[i:i + 500]
                marks = ",".join("?" * len(part))
                rows = self._db.execute(
                    f"SELECT digest, vector FROM vectors WHERE embedder = ? AND digest IN ({marks})",
                    (embedder, *part)).fetchall()
                for digest, blob in rows:
                    found[by_digest[digest]] = np.frombuffer(blob, dtype=np.float32)
        return found

    def put(self, embedder: str, vectors: Mapping[str, np.ndarray]) -> None:
        rows = [(embedder, self.digest(t), np.asarray(v, dtype=np.float32).tobytes()) for t, v in vectors.items()]
        with self._lock:
            self._db.executemany("INSERT OR IGNORE INTO vectors VALUES (?, ?, ?)", rows)

    def close(self) -> None:
        with self._lock:
            self._db.close()


class CachedEmbedder:
    """An ``Embedder`` that remembers every text it embedded (thread-safe; calls are serialised).

    Texts are embedded once each, the missing ones of a call together (MiniLM sorts them by length into
    batches, so that a batch is not padded to a much longer text); with a ``store``, vectors are
    read from and written to disk too. ``calls`` counts calls to the inner embedder, ``embedded`` the texts
    it embedded, ``seconds`` the time spent in it.
    """

    def __init__(self, inner: Embedder, store: VectorStore | None = None) -> None:
        self.inner = inner
        self.name = f"cached:{inner.name}"
        self.store = store
        self._cache: dict[str, np.ndarray] = {}
        self.text_vectors: dict[str, np.ndarray] = {}  # whole texts (chunk means), see text_vector
        self._lock = threading.Lock()
        self.calls = self.embedded = 0
        self.seconds = 0.0

    def embed(self, texts: Sequence[str]) -> Vectors:
        with self._lock:
            self._fill(texts)
            if not texts:
                return np.zeros((0, 1), dtype=np.float32)
            return np.stack([self._cache[t] for t in texts]).astype(np.float32)

    def _fill(self, texts: Iterable[str]) -> None:
        import time

        missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if missing and self.store is not None:
            self._cache.update(self.store.get(self.inner.name, missing))
            missing = [t for t in missing if t not in self._cache]
        if not missing:
            return
        started = time.perf_counter()
        fresh: dict[str, np.ndarray] = {}
        for start in range(0, len(missing), CALL_TEXTS):  # MiniLM sorts a call's texts by length itself
            part = missing[start:start + CALL_TEXTS]
            fresh.update(zip(part, self.inner.embed(part)))
        self.seconds += time.perf_counter() - started
        self.calls, self.embedded = self.calls + 1, self.embedded + len(missing)
        self._cache.update(fresh)
        if self.store is not None:
            self.store.put(self.inner.name, fresh)

    def warm(self, texts: Iterable[str]) -> None:
        """Embed every text not yet known, in one batch."""
        with self._lock:
            self._fill(texts)


def chunks(text: str) -> list[str]:
    """``text`` as the pieces it is embedded in: each line, in runs of at most ``CHUNK_WORDS`` words."""
    return list(_remembered_chunks(text) if len(text) <= REMEMBER_CHARS else _chunks(text))


REMEMBER_CHARS = 200_000


@functools.lru_cache(maxsize=512)
def _remembered_chunks(text: str) -> tuple[str, ...]:
    """A goal's trace and payloads are cut up for the embedding batch and again for their means."""
    return _chunks(text)


def _chunks(text: str) -> tuple[str, ...]:
    out: list[str] = []
    for line in text.splitlines():
        words = line.split()
        out += [" ".join(words[i:i + CHUNK_WORDS]) for i in range(0, len(words), CHUNK_WORDS)]
    return tuple(out or [text])


def text_vector(embedder: Embedder, text: str) -> np.ndarray:
    """The normalised mean of ``text``'s chunk vectors (remembered by a ``CachedEmbedder``: a goal's trace and
    goal text take part in every method's diagnostics)."""
    known = embedder.text_vectors if isinstance(embedder, CachedEmbedder) else {}
    row = known.get(text)
    if row is None:
        row = known[text] = normalise(embedder.embed(chunks(text)).mean(axis=0))[0]
    return row


def diagnostics(embedder: CachedEmbedder, trace: str, goal: str, payloads: Mapping[str, str]
                ) -> dict[str, dict[str, float]]:
    """Per payload label: ``fidelity`` (trace vs payload) and ``goal_similarity`` (payload vs goal), all the
    chunks involved embedded in one batch."""
    embedder.warm(c for text in (trace, goal, *payloads.values()) if text.strip() for c in chunks(text))
    return {label: {"fidelity": similarity(embedder, trace, text), "goal_similarity": similarity(embedder, text, goal)}
            for label, text in payloads.items()}


def similarity(embedder: Embedder, a: str, b: str) -> float:
    """Cosine of the two texts' (chunk-mean) embeddings; 0.0 when either text is empty."""
    if not a.strip() or not b.strip():
        return 0.0
    return float(np.dot(text_vector(embedder, a), text_vector(embedder, b)))
