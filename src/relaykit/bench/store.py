"""The run store: an append-only SQLite (WAL) log of every lab run, its calls and its results.

Results are keyed per unit of work (``goal=7/method=prune``), written the moment they finish and
never overwritten, so a run that crashed or was interrupted resumes without recomputing or losing
anything. Schema changes are named migrations, applied once, in order.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from relaykit.errors import UsageError
from relaykit.settings import load_settings

MIGRATIONS: list[tuple[str, str]] = [
    (
        "001_runs_results_events",
        """
        CREATE TABLE runs (
            run_id TEXT PRIMARY KEY, kind TEXT NOT NULL, created_at REAL NOT NULL,
            config TEXT NOT NULL, status TEXT NOT NULL, finished_at REAL
        );
        CREATE TABLE results (
            run_id TEXT NOT NULL REFERENCES runs(run_id), key TEXT NOT NULL,
            value TEXT NOT NULL, created_at REAL NOT NULL, PRIMARY KEY (run_id, key)
        );
        CREATE TABLE events (
            id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL REFERENCES runs(run_id),
            kind TEXT NOT NULL, payload TEXT NOT NULL, created_at REAL NOT NULL
        );
        CREATE INDEX events_run ON events(run_id, kind);
        """,
    ),
    (
        "002_run_locks",
        """
        CREATE TABLE locks (
            run_id TEXT PRIMARY KEY, owner TEXT NOT NULL, host TEXT NOT NULL, pid INTEGER NOT NULL,
            acquired_at REAL NOT NULL, heartbeat REAL NOT NULL
        );
        """,
    ),
]
# A lock held by a process on another host counts as abandoned when it has not been refreshed for this long.
LOCK_STALE_S = 600.0


@dataclass(frozen=True)
class RunInfo:
    run_id: str
    kind: str
    created_at: float
    config: dict[str, Any]
    status: str
    finished_at: float | None


def default_store_path() -> Path:
    return load_settings().home / "runs.sqlite"


def _private_file(path: Path) -> None:
    """Create ``path``'s folder 0700 (when relaykit makes it) and the file itself 0600."""
    if not path.parent.exists():
        path.parent.mkdir(parents=True, mode=0o700, exist_ok=True)
    if not path.exists():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    for suffix in ("", "-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists() and side.stat().st_mode & 0o077 and side.stat().st_uid == os.getuid():
            side.chmod(0o600)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/@\s]*@")
_SECRET_PARAM = re.compile(r"(?i)([?&](?:api[_-]?key|key|token|access_token|password)=)[^&#\s]*")


def strip_credentials(value: Any) -> Any:
    """``value`` with URL credentials removed from every string in it: userinfo and key/token parameters."""
    if isinstance(value, str):
        return _SECRET_PARAM.sub(r"\1***", _USERINFO.sub(r"\1", value))
    if isinstance(value, Mapping):
        return {k: strip_credentials(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [strip_credentials(v) for v in value]
    return value


class RunBusy(UsageError):
    """Another process is running (or resuming) the same run."""


class RunStore:
    """Append-only run log; safe to share between threads of one process."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_store_path()
        self._lock = threading.RLock()
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self._held: set[str] = set()
        try:
            _private_file(self.path)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._migrate()
            _private_file(self.path)  # the WAL side files, now that they exist
        except (sqlite3.DatabaseError, OSError) as exc:
            raise UsageError(
                f"the run store {self.path} cannot be read ({exc}); move it aside or pass another --store"
            ) from None

    def _migrate(self) -> None:
        with self._tx() as db:
            db.execute("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at REAL)")
            done = {row[0] for row in db.execute("SELECT name FROM migrations")}
            for name, sql in MIGRATIONS:
                if name not in done:
                    for statement in filter(str.strip, sql.split(";")):
                        db.execute(statement)
                    db.execute("INSERT INTO migrations VALUES (?, ?)", (name, time.time()))

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def close(self) -> None:
        for run_id in list(self._held):
            self.release(run_id)
        with self._lock:
            self._db.close()

    # -- one process per run -------------------------------------------------------------------------
    def acquire(self, run_id: str) -> None:
        """Take the run's lock; ``RunBusy`` if a live process (or a fresh lock from another host) holds it."""
        host, now = socket.gethostname(), time.time()
        with self._tx() as db:
            row = db.execute("SELECT owner, host, pid, heartbeat FROM locks WHERE run_id = ?", (run_id,)).fetchone()
            if row is not None and row[0] != self.owner and self._lock_live(row[1], row[2], row[3], host, now):
                raise RunBusy(f"run {run_id} is being run by process {row[2]} on {row[1]}; wait for it to "
                              "finish (or stop it) before resuming this run")
            db.execute("INSERT OR REPLACE INTO locks VALUES (?, ?, ?, ?, ?, ?)",
                       (run_id, self.owner, host, os.getpid(), now, now))
        self._held.add(run_id)

    @staticmethod
    def _lock_live(host: str, pid: int, heartbeat: float, my_host: str, now: float) -> bool:
        if host == my_host:
            return pid != os.getpid() and _pid_alive(pid)
        return now - heartbeat < LOCK_STALE_S

    def release(self, run_id: str) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM locks WHERE run_id = ? AND owner = ?", (run_id, self.owner))
        self._held.discard(run_id)

    def delete_run(self, run_id: str) -> int:
        """Remove a run with its results and events; returns how many results went. Unknown ids: ``UsageError``;
        ``RunBusy`` while a process runs it."""
        self.get_run(run_id)
        self.acquire(run_id)
        results = 0
        with self._tx() as db:
            for table in ("results", "events", "locks", "runs"):
                count = db.execute(f"DELETE FROM {table} WHERE run_id = ?", (run_id,)).rowcount
                results = count if table == "results" else results
        self._held.discard(run_id)
        return int(results)

    def create_run(self, kind: str, config: Mapping[str, Any]) -> str:
        """Register a new run (credentials in URLs are never stored) and take its lock."""
        run_id = f"{kind}-{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(2)}"
        stored = json.dumps(strip_credentials(dict(config)), sort_keys=True, default=str)
        with self._tx() as db:
            db.execute("INSERT INTO runs VALUES (?, ?, ?, ?, 'running', NULL)", (run_id, kind, time.time(), stored))
        self.acquire(run_id)
        return run_id

    def list_runs(self, kind: str | None = None) -> list[RunInfo]:
        sql = "SELECT * FROM runs" + (" WHERE kind = ?" if kind else "") + " ORDER BY created_at"
        with self._lock:
            rows = self._db.execute(sql, (kind,) if kind else ()).fetchall()
        return [RunInfo(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5]) for r in rows]

    def get_run(self, run_id: str) -> RunInfo:
        """The run's record; an unknown id is a ``UsageError`` that lists the known runs."""
        for run in self.list_runs():
            if run.run_id == run_id:
                return run
        known = ", ".join(r.run_id for r in self.list_runs()[-10:]) or "none yet"
        raise UsageError(f"no run {run_id!r} in {self.path}; known runs: {known}")

    def record(self, run_id: str, key: str, value: Mapping[str, Any]) -> bool:
        """Store one finished unit of work; returns False (and keeps the first) if the key exists."""
        now = time.time()
        with self._tx() as db:
            cursor = db.execute(
                "INSERT OR IGNORE INTO results VALUES (?, ?, ?, ?)",
                (run_id, key, json.dumps(dict(value), sort_keys=True, default=str), now),
            )
            if run_id in self._held:
                db.execute("UPDATE locks SET heartbeat = ? WHERE run_id = ? AND owner = ?", (now, run_id, self.owner))
            return cursor.rowcount == 1

    def results(self, run_id: str) -> dict[str, dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT key, value FROM results WHERE run_id = ? ORDER BY created_at, key", (run_id,)
            ).fetchall()
        return {key: json.loads(value) for key, value in rows}

    def result(self, run_id: str, key: str) -> dict[str, Any]:
        """One stored result; a ``UsageError`` when the key was never recorded."""
        with self._lock:
            row = self._db.execute("SELECT value FROM results WHERE run_id = ? AND key = ?", (run_id, key)).fetchone()
        if row is None:
            raise UsageError(f"run {run_id} has no result {key!r}")
        value: dict[str, Any] = json.loads(row[0])
        return value

    def done_keys(self, run_id: str) -> set[str]:
        with self._lock:
            rows = self._db.execute("SELECT key FROM results WHERE run_id = ?", (run_id,)).fetchall()
        return {row[0] for row in rows}

    def log_event(self, run_id: str, kind: str, payload: Mapping[str, Any]) -> None:
        """Append one call or note to the run's log (model calls, failures, warnings)."""
        with self._tx() as db:
            db.execute(
                "INSERT INTO events (run_id, kind, payload, created_at) VALUES (?, ?, ?, ?)",
                (run_id, kind, json.dumps(strip_credentials(dict(payload)), default=str), time.time()),
            )

    def events(self, run_id: str, kind: str | None = None) -> list[dict[str, Any]]:
        sql = "SELECT kind, payload, created_at FROM events WHERE run_id = ?"
        args: tuple[str, ...] = (run_id,)
        if kind:
            sql, args = sql + " AND kind = ?", (run_id, kind)
        with self._lock:
            rows = self._db.execute(sql + " ORDER BY id", args).fetchall()
        return [{"kind": k, "payload": json.loads(p), "created_at": t} for k, p, t in rows]

    def finish(self, run_id: str, status: str = "finished") -> None:
        with self._tx() as db:
            db.execute("UPDATE runs SET status = ?, finished_at = ? WHERE run_id = ?", (status, time.time(), run_id))
        if run_id in self._held:
            self.release(run_id)

    def log_events(self, run_id: str, kind: str, payloads: list[Mapping[str, Any]]) -> None:
        """Append several events in one transaction."""
        now = time.time()
        with self._tx() as db:
            db.executemany("INSERT INTO events (run_id, kind, payload, created_at) VALUES (?, ?, ?, ?)",
                           [(run_id, kind, json.dumps(strip_credentials(dict(p)), default=str), now) for p in payloads])
