"""The run store: an append-only SQLite (WAL) log of every lab run, its calls and its results.

Results are keyed per unit of work (``goal=7/method=prune``), written the moment they finish and
never overwritten, so a run that crashed or was interrupted resumes without recomputing or losing
anything. Schema changes are named migrations, applied once, in order.
"""

from __future__ import annotations

import json
import secrets
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
]


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


class RunStore:
    """Append-only run log; safe to share between threads of one process."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_store_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._migrate()
        except sqlite3.DatabaseError as exc:
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
        with self._lock:
            self._db.close()

    def create_run(self, kind: str, config: Mapping[str, Any]) -> str:
        run_id = f"{kind}-{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(2)}"
        with self._tx() as db:
            db.execute(
                "INSERT INTO runs VALUES (?, ?, ?, ?, 'running', NULL)",
                (run_id, kind, time.time(), json.dumps(dict(config), sort_keys=True, default=str)),
            )
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
        with self._tx() as db:
            cursor = db.execute(
                "INSERT OR IGNORE INTO results VALUES (?, ?, ?, ?)",
                (run_id, key, json.dumps(dict(value), sort_keys=True, default=str), time.time()),
            )
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
                (run_id, kind, json.dumps(dict(payload), default=str), time.time()),
            )

    def events(self, run_id: str, kind: str | None = None) -> list[dict[str, Any]]:
        sql = "SELECT kind, payload, created_at FROM events WHERE run_id = ?"
        args: tuple[str, ...] = (run_id,)
        if kind:
            sql, args = sql + " AND kind = ?", (run_id, kind)
        with self._lock:
            rows = self._db.execute(sql + " ORDER BY id", args).fetchall()
        return [{"kind": k, "payload": json.loads(p), "created_at": t} for k, p, t in rows]

    def delete_run(self, run_id: str) -> int:
        """Remove a run with its results and events; returns how many results went. Unknown ids: ``UsageError``."""
        self.get_run(run_id)
        with self._tx() as db:
            results = db.execute("DELETE FROM results WHERE run_id = ?", (run_id,)).rowcount
            db.execute("DELETE FROM events WHERE run_id = ?", (run_id,))
            db.execute("DELETE FROM runs WHERE run_id = ?", (run_id,))
        return int(results)

    def finish(self, run_id: str, status: str = "finished") -> None:
        with self._tx() as db:
            db.execute("UPDATE runs SET status = ?, finished_at = ? WHERE run_id = ?", (status, time.time(), run_id))
