"""The default cache store: one SQLite file in WAL mode, safe for several threads and processes."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from relaykit.embeddings.base import Vectors
from relaykit.errors import UsageError
from relaykit.models.cache.store import CacheEntry, CacheStoreError, NamespaceStats, stack
from relaykit.settings import load_settings

SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    key TEXT PRIMARY KEY, namespace TEXT NOT NULL, grp TEXT NOT NULL, response TEXT NOT NULL,
    query TEXT NOT NULL, vector BLOB, created_at REAL NOT NULL, expires_at REAL);
CREATE INDEX IF NOT EXISTS entries_group ON entries (namespace, grp);
CREATE TABLE IF NOT EXISTS counters (
    namespace TEXT PRIMARY KEY, hits INTEGER NOT NULL DEFAULT 0, misses INTEGER NOT NULL DEFAULT 0,
    saved_tokens INTEGER NOT NULL DEFAULT 0, version INTEGER NOT NULL DEFAULT 0);
"""


def default_path() -> Path:
    return load_settings().home / "cache.sqlite"


class SQLiteStore:
    """Entries and counters in one SQLite file (WAL).

    A file that is not a healthy SQLite database is reported when the store opens, with its path and
    the fix; with ``rebuild=True`` it is moved aside (``*.corrupt-<time>``) and a fresh cache created.
    """

    name = "sqlite"

    def __init__(self, path: str | Path, *, rebuild: bool = False, timeout_s: float = 10.0) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"cannot create the cache folder {self.path.parent}: {exc.strerror}") from None
        try:
            self._db = self._open(timeout_s)
        except sqlite3.DatabaseError as exc:
            if not rebuild:
                raise UsageError(
                    f"the cache file {self.path} is corrupt or not a relaykit cache ({exc}); rebuild it with "
                    f"`relaykit cache clear --rebuild --store sqlite:{self.path}` "
                    "(or SQLiteStore(path, rebuild=True)), or delete the file"
                ) from None
            self.moved_to: Path | None = self._move_aside()
            self._db = self._open(timeout_s)
        else:
            self.moved_to = None

    def _open(self, timeout_s: float) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=timeout_s, check_same_thread=False, isolation_level=None)
        try:
            row = db.execute("PRAGMA quick_check").fetchone()
            if row is None or row[0] != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {row[0] if row else 'no answer'}")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.executescript(SCHEMA)
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _move_aside(self) -> Path:
        target = self.path.with_name(f"{self.path.name}.corrupt-{int(time.time())}")
        self.path.rename(target)
        for suffix in ("-wal", "-shm"):
            Path(str(self.path) + suffix).unlink(missing_ok=True)
        return target

    @contextmanager
    def _guard(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                yield self._db
            except sqlite3.Error as exc:
                raise CacheStoreError(f"the cache file {self.path} failed: {exc}") from exc

    def get(self, key: str, now: float) -> CacheEntry | None:
        with self._guard() as db:
            row = db.execute("SELECT key, namespace, grp, response, query, vector, created_at, expires_at "
                             "FROM entries WHERE key = ?", (key,)).fetchone()
        if row is None or (row[7] is not None and now >= row[7]):
            return None
        vector = None if row[5] is None else np.frombuffer(row[5], dtype=np.float32)
        return CacheEntry(key=row[0], namespace=row[1], group=row[2], response=json.loads(row[3]), query=row[4],
                          vector=vector, created_at=row[6], expires_at=row[7])

    def put(self, entry: CacheEntry) -> None:
        blob = None if entry.vector is None else np.asarray(entry.vector, dtype=np.float32).tobytes()
        with self._guard() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute("INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           (entry.key, entry.namespace, entry.group, json.dumps(entry.response), entry.query, blob,
                            entry.created_at, entry.expires_at))
                self._bump(db, entry.namespace, version=1)
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def put_many(self, entries: list[CacheEntry]) -> None:
        """Store many entries in one transaction (for warming a cache or benchmarks)."""
        with self._guard() as db:
            db.execute("BEGIN IMMEDIATE")
            for entry in entries:
                blob = None if entry.vector is None else np.asarray(entry.vector, dtype=np.float32).tobytes()
                db.execute("INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           (entry.key, entry.namespace, entry.group, json.dumps(entry.response), entry.query,
                            blob, entry.created_at, entry.expires_at))
                self._bump(db, entry.namespace, version=1)
            db.execute("COMMIT")

    @staticmethod
    def _bump(db: sqlite3.Connection, namespace: str, **deltas: int) -> None:
        db.execute("INSERT OR IGNORE INTO counters (namespace) VALUES (?)", (namespace,))
        sets = ", ".join(f"{k} = {k} + ?" for k in deltas)
        db.execute(f"UPDATE counters SET {sets} WHERE namespace = ?", (*deltas.values(), namespace))

    def vectors(self, namespace: str, group: str, now: float) -> tuple[list[str], Vectors]:
        with self._guard() as db:
            rows = db.execute("SELECT key, vector FROM entries WHERE namespace = ? AND grp = ? AND vector IS NOT NULL "
                              "AND (expires_at IS NULL OR expires_at > ?)", (namespace, group, now)).fetchall()
        return [r[0] for r in rows], stack([np.frombuffer(r[1], dtype=np.float32) for r in rows])

    def version(self, namespace: str) -> int:
        with self._guard() as db:
            row = db.execute("SELECT version FROM counters WHERE namespace = ?", (namespace,)).fetchone()
        return int(row[0]) if row else 0

    def count(self, namespace: str, *, hits: int = 0, misses: int = 0, saved_tokens: int = 0) -> None:
        with self._guard() as db:
            self._bump(db, namespace, hits=hits, misses=misses, saved_tokens=saved_tokens)

    def stats(self) -> dict[str, NamespaceStats]:
        with self._guard() as db:
            counters = db.execute("SELECT namespace, hits, misses, saved_tokens FROM counters").fetchall()
            sizes = dict(db.execute("SELECT namespace, COUNT(*) FROM entries GROUP BY namespace").fetchall())
        out = {ns: NamespaceStats(sizes.get(ns, 0), h, m, s) for ns, h, m, s in counters}
        for ns, size in sizes.items():
            out.setdefault(ns, NamespaceStats(entries=size))
        return out

    def clear(self, namespace: str | None = None) -> int:
        where, args = ("", ()) if namespace is None else (" WHERE namespace = ?", (namespace,))
        with self._guard() as db:
            deleted = db.execute("DELETE FROM entries" + where, args).rowcount
            db.execute("UPDATE counters SET hits = 0, misses = 0, saved_tokens = 0, version = version + 1" + where,
                       args)
        return int(deleted)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> SQLiteStore:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
