"""The default cache store: one SQLite file in WAL mode, safe for several threads and processes."""

from __future__ import annotations

import itertools
import os
import sqlite3
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext, suppress
from pathlib import Path
from typing import Any

from relaykit.embeddings.base import Vectors
from relaykit.errors import UsageError
from relaykit.models.cache.entry import CacheEntry, CacheStoreError, NamespaceStats
from relaykit.models.cache.integrity import decode, encode
from relaykit.models.cache.store import decode_vectors
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
# columns added after the first release: (name, declaration); added to older files when they open
MIGRATIONS = [("checksum", "TEXT"), ("seq", "INTEGER NOT NULL DEFAULT 0"), ("writer", "TEXT")]
COLUMNS = "key, namespace, grp, response, query, vector, created_at, expires_at, checksum, seq"
# ``writer``: the semantic index of the process that wrote the entry and filed it there as it wrote it (NULL:
# none did); that index's reads of the group's changes skip the entry (see ``LOOKUP``)
WRITTEN = "key, namespace, grp, response, query, vector, created_at, expires_at, checksum, writer"
# every insert takes its namespace's next version as its sequence number and bumps it, in one statement: a
# write is one statement, so the write lock is never held while Python code runs between statements (with
# several writer threads, a lock held across a wait for the GIL made every other writer back off and sleep)
SEQUENCE_TRIGGER = """
CREATE TRIGGER IF NOT EXISTS entries_version AFTER INSERT ON entries BEGIN
    INSERT INTO counters (namespace, version) VALUES (NEW.namespace, 1)
        ON CONFLICT (namespace) DO UPDATE SET version = version + 1;
END;
"""
# the entry's sequence number: its namespace's version after this insert (the trigger above bumps it)
NEXT_SEQ = "(SELECT coalesce((SELECT version FROM counters WHERE namespace = ?2), 0) + 1)"
INSERT = (f"INSERT OR REPLACE INTO entries ({WRITTEN}, seq) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
          f"{NEXT_SEQ})")
NO_WRITER = ""  # what reads that skip no writer's rows pass (``writer IS NOT ''`` holds for every row)


# the namespace's version (the row whose key is NULL: keys never are) and the group's live rows after a cursor,
# but those written by writer ?5
REFRESH = """
SELECT version, NULL, NULL FROM counters WHERE namespace = ?1
UNION ALL
SELECT * FROM (SELECT seq, key, vector FROM entries WHERE namespace = ?1 AND grp = ?2 AND seq > ?3
               AND vector IS NOT NULL AND (expires_at IS NULL OR expires_at > ?4) AND writer IS NOT ?5 ORDER BY seq)
"""
# whether the key has an entry, and ``REFRESH``'s answer, in one statement, rows of two columns told apart by the
# first one's type: (NULL, NULL) when the key has an entry (read then by ``get``); (the namespace's version, NULL),
# always, the version an integer (0 without a counters row); then the group's live rows after the cursor as (key,
# vector), a key being text, in order, but those written by writer ?6 (the reader's own: filed as they were
# written). The cursor to pass next time is the version: every entry's sequence number is at most its namespace's
# version, and the statement reads both in one snapshot (see ``SQLiteStore.lookup``).
# Narrow rows on purpose: Python's sqlite3 (3.11) gives the GIL up and takes it back once per row and once per
# column it reads, and among busy threads each of those is a chance to lose the GIL for another thread's whole
# turn (the entry's ten columns padded with NULLs were most of a semantic miss's GIL hand-overs, 24 of 36; three
# columns, the sequence number on every row, gave it up once more per row than these two).
LOOKUP = """
SELECT NULL, NULL FROM entries WHERE key = ?5
UNION ALL
SELECT coalesce((SELECT version FROM counters WHERE namespace = ?1), 0), NULL
UNION ALL
SELECT * FROM (SELECT key, vector FROM entries WHERE namespace = ?1 AND grp = ?2 AND seq > ?3
               AND vector IS NOT NULL AND (expires_at IS NULL OR expires_at > ?4) AND writer IS NOT ?6 ORDER BY seq)
"""

CHECKPOINT_EVERY = 256  # writes (of this process, to one file) between two WAL checkpoints
WAL_LIMIT = 64 * 2**20
"""Bytes the write-ahead log keeps after a checkpoint. A process that ends without closing the file (killed,
``os._exit``) leaves its writes in the log; opening the file checkpoints them, so the log stays bounded by about
one process's ``CHECKPOINT_EVERY`` writes instead of growing with every such run."""


class _File:
    """What the stores of one process share about one database file.

    ``writing``: threads of the process queue on it for the write lock, woken the moment it is free, instead
    of each hitting SQLITE_BUSY and sleeping 1, 2, 5, 10... ms in SQLite's busy handler (other processes still
    meet the busy timeout). ``wrote`` counts writes: SQLite's automatic checkpoint would run inside the
    committing statement, with the write lock held here, and once the log outgrows its limit while readers
    keep it from restarting, after every commit (two fsyncs each); instead a checkpoint (PASSIVE: it blocks
    nobody) runs every ``CHECKPOINT_EVERY`` writes, outside the write lock.
    """

    def __init__(self) -> None:
        self.writing = threading.Lock()
        self._count = itertools.count(1)

    def wrote(self) -> bool:
        """Count one write; True when a checkpoint is due."""
        return next(self._count) % CHECKPOINT_EVERY == 0


_FILES: weakref.WeakValueDictionary[str, _File] = weakref.WeakValueDictionary()  # kept while a store holds it
_FILES_LOCK = threading.Lock()


def _file(path: Path) -> _File:
    name = str(path.resolve())
    with _FILES_LOCK:
        found = _FILES.get(name)
        if found is None:
            found = _FILES[name] = _File()
        return found


def default_path() -> Path:
    return load_settings().home / "cache.sqlite"


def private_file(path: Path) -> None:
    """Create ``path`` readable by its owner only (0600), in a folder created 0700 when missing."""
    missing = [p for p in [path.parent, *path.parent.parents] if not p.exists()]
    for folder in reversed(missing):
        folder.mkdir(mode=0o700, exist_ok=True)
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        return


class SQLiteStore:
    """Entries and counters in one SQLite file (WAL).

    A file that is not a healthy SQLite database is reported when the store opens, with its path and
    the fix; with ``rebuild=True`` it is moved aside (``*.corrupt-<time>``) and a fresh cache created.
    """

    name = "sqlite"
    skips_writers = True
    """``put`` takes a ``writer`` to tag an entry with, and ``lookup`` / ``refresh`` a ``skip`` whose entries they
    leave out: a process's semantic index files what its caches write as they write it, and never reads it back
    (``Cached`` uses this where a store declares it; a subclass that overrides ``put``, ``lookup`` or ``refresh``
    without those arguments sets it to False)."""

    def __init__(self, path: str | Path, *, rebuild: bool = False, timeout_s: float = 10.0) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        self._file = _file(self.path)
        try:
            private_file(self.path)
        except OSError as exc:
            raise UsageError(f"cannot create the cache file {self.path}: {exc.strerror}") from None
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
            private_file(self.path)
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
            db.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints: see _File
            db.execute(f"PRAGMA journal_size_limit={WAL_LIMIT}")
            with suppress(sqlite3.Error):  # fold in what processes that never closed the file left in the log
                db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            db.executescript(SCHEMA)
            have = {row[1] for row in db.execute("PRAGMA table_info(entries)")}
            for column, declaration in MIGRATIONS:
                if column not in have:
                    db.execute(f"ALTER TABLE entries ADD COLUMN {column} {declaration}")
            # a group's changes in order, with their writer: a read that skips its own writer's rows skips them
            # in the index, without reading them from the table (the index before it lacked ``writer``)
            db.execute("CREATE INDEX IF NOT EXISTS entries_changes ON entries (namespace, grp, seq, writer)")
            db.execute("DROP INDEX IF EXISTS entries_seq")
            db.executescript(SEQUENCE_TRIGGER)
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
    def _guard(self, write: bool = False) -> Iterator[sqlite3.Connection]:
        """The connection, held by this thread; with ``write``, after this process's other writers to the file."""
        with self._file.writing if write else nullcontext(), self._lock:
            try:
                yield self._db
            except sqlite3.Error as exc:
                raise CacheStoreError(f"the cache file {self.path} failed: {exc}") from exc

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """The connection for one write, held after this process's other writers to the file; every
        ``CHECKPOINT_EVERY`` writes a checkpoint follows, once the write lock is free (see ``_File``)."""
        with self._guard(write=True) as db:
            yield db
        if self._file.wrote():
            # housekeeping only: the write is committed, and a failed checkpoint is retried by the next one
            with self._lock, suppress(sqlite3.Error):
                self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    def get(self, key: str, now: float) -> CacheEntry | None:
        with self._guard() as db:
            row = db.execute(f"SELECT {COLUMNS} FROM entries WHERE key = ?", (key,)).fetchone()
        return self._entry(row, now)

    def _entry(self, row: tuple[Any, ...] | None, now: float) -> CacheEntry | None:
        if row is None or (isinstance(row[7], float) and now >= row[7]):
            return None
        names = ("key", "namespace", "group", "response", "query", "vector", "created_at", "expires_at", "checksum")
        return decode(self.name, dict(zip(names, row)))

    def lookup(self, key: str, now: float, namespace: str, group: str, since: int,
               skip: str | None = None) -> tuple[CacheEntry | None, tuple[int, list[str], Vectors, int]]:
        """``get(key, now)`` and ``refresh(namespace, group, since, now)``: on a miss in one statement (a semantic
        lookup would otherwise run two, and with several writer threads each statement is one more wait for the
        GIL); a key with an entry reads it with ``get`` after (see ``LOOKUP``: a hit costs one more statement so
        that a miss reads two columns a row, not eleven). The cursor returned is the namespace's version (or
        ``since``, when larger): the statement read every live row of the group up to it, and a row left out
        (expired, or without a vector) is never read later either; in a file whose entries lack a counters row
        (version 0) the rows after ``since`` are read again each time (``GroupIndex.add`` skips them). Rows
        written by writer ``skip`` are left out (see ``skips_writers``)."""
        with self._guard() as db:
            rows = db.execute(LOOKUP, (namespace, group, since, now, key, NO_WRITER if skip is None else skip)
                              ).fetchall()
        stored, version, cursor, keys, blobs = False, 0, since, [], []
        for first, second in rows:  # one pass: the entry's mark (at most once), the version row (once), new rows
            if first is None:
                stored = True
            elif type(first) is int:
                version, cursor = first, max(since, first)
            else:
                keys.append(str(first))
                blobs.append(second)
        return (self.get(key, now) if stored else None), (version, *decode_vectors(self.name, keys, blobs), cursor)

    def put(self, entry: CacheEntry, writer: str | None = None) -> None:
        self.put_many([entry], writer)

    def put_many(self, entries: list[CacheEntry], writer: str | None = None) -> None:
        """Store entries atomically (one statement for one entry, one transaction for several); each gets the
        namespace's next sequence number, and is tagged with ``writer`` (see ``skips_writers``)."""
        rows = [(entry.key, entry.namespace, entry.group, response_json, entry.query, blob or None, entry.created_at,
                 entry.expires_at, digest, writer) for entry in entries
                for response_json, blob, digest in [encode(entry)]]
        with self._write() as db:
            if len(rows) == 1:
                db.execute(INSERT, rows[0])
                return
            db.execute("BEGIN IMMEDIATE")
            try:
                db.executemany(INSERT, rows)
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    @staticmethod
    def _bump(db: sqlite3.Connection, namespace: str, **deltas: int) -> None:
        """Add ``deltas`` to the namespace's counters in one statement (an upsert: one short write, where an
        insert-then-update took two). No ``RETURNING``: a statement that returns a row holds the write lock
        until Python fetches past that row, i.e. across a wait for the GIL, and every other writer backs off
        and sleeps meanwhile; without it the lock is taken and released inside one GIL-free step."""
        names = ", ".join(deltas)
        sets = ", ".join(f"{k} = {k} + excluded.{k}" for k in deltas)
        db.execute(f"INSERT INTO counters (namespace, {names}) VALUES (?{', ?' * len(deltas)}) "
                   f"ON CONFLICT (namespace) DO UPDATE SET {sets}", (namespace, *deltas.values()))

    def vectors(self, namespace: str, group: str, now: float) -> tuple[list[str], Vectors]:
        keys, matrix, _ = self.changes(namespace, group, 0, now)
        return keys, matrix

    def changes(self, namespace: str, group: str, since: int, now: float) -> tuple[list[str], Vectors, int]:
        return self.refresh(namespace, group, since, now)[1:]

    def refresh(self, namespace: str, group: str, since: int, now: float,
                skip: str | None = None) -> tuple[int, list[str], Vectors, int]:
        """The namespace's version and ``changes(...)`` read in one statement (a semantic lookup would otherwise
        run two, and with several writer threads each statement is one more wait for the GIL); rows written by
        writer ``skip`` are left out (see ``skips_writers``)."""
        with self._guard() as db:
            rows = db.execute(REFRESH, (namespace, group, since, now, NO_WRITER if skip is None else skip)).fetchall()
        version = next((int(r[0]) for r in rows if r[1] is None), 0)
        return self._changes(version, [r for r in rows if r[1] is not None], since)

    def _changes(self, version: int, rows: list[tuple[Any, ...]], since: int) -> tuple[int, list[str], Vectors, int]:
        """``refresh``'s answer from (seq, key, vector) rows; the cursor as ``lookup``'s (the version), or the
        largest sequence number read when larger (a file whose entries lack a counters row)."""
        cursor = max([since, version, *(int(r[0]) for r in rows)])
        return (version, *decode_vectors(self.name, [str(r[1]) for r in rows], [r[2] for r in rows]), cursor)

    def version(self, namespace: str) -> int:
        with self._guard() as db:
            row = db.execute("SELECT version FROM counters WHERE namespace = ?", (namespace,)).fetchone()
        return int(row[0]) if row else 0

    def count(self, namespace: str, *, hits: int = 0, misses: int = 0, saved_tokens: int = 0) -> None:
        with self._write() as db:
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
        with self._write() as db:
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
