"""The relay lab's pure readers, their answers kept between runs: the reference reader's facts per payload and the
evidence audit per hand-off.

A repeated run reads the same 250 payloads and audits the same hand-offs again. ``open_reading_cache`` keeps the
answers (and the token count of the reader's prompt) in an SQLite file (``RELAYKIT_HOME/readings.sqlite`` for
the CLI) under a digest of relaykit's and bpe-openai's versions, the source of every module that decides them
(``READING_CODE``) and the whole input, so that a changed payload, goal, trace, reader, tokenizer or release
computes afresh (``Kept``). Only deterministic, model-free readings are kept; compression, the Booker's decision,
scoring, the diagnostics and every timing run each time.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sqlite3
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from relaykit.bench.relay.evidence import OptionFacts
from relaykit.bench.relay.world import Goal
from relaykit.settings import private_file

T = TypeVar("T")


def source_digest(modules: Iterable[str], version: str) -> str:
    """A digest of ``version`` (relaykit's) and the source of ``modules`` (dotted names; a package stands for
    every ``.py`` file under it), read from disk, so that an edited reader never meets its old answers."""
    digest = hashlib.sha256(version.encode())
    for name in sorted(modules):
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            raise ValueError(f"no source for module {name!r}")
        origin = Path(spec.origin)
        files = sorted(origin.parent.rglob("*.py")) if origin.name == "__init__.py" else [origin]
        for file in files:
            digest.update(f"\0{name}:{file.relative_to(origin.parent)}\0".encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()


class Kept:
    """JSON answers of pure readers kept between runs in the SQLite file ``path`` (created 0600).

    ``salt`` names the readers and their code (see ``source_digest``); an answer is stored under the digest of
    the salt and the input text, so any change to either misses. Opening the file with a new salt drops the
    answers of every other one (an edited reader's old answers are never read again, so the file does not
    grow with each edit). New answers are written together by ``flush``; a cache, so a write that fails is
    dropped (computed again next time). Thread-safe.
    """

    def __init__(self, path: Path | str, salt: str) -> None:
        self.path = private_file(path)
        self.salt = salt
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=OFF")
        self._db.execute("CREATE TABLE IF NOT EXISTS readings (digest TEXT PRIMARY KEY, salt TEXT, answer TEXT)")
        self._salt_id = hashlib.blake2b(salt.encode(), digest_size=8).hexdigest()
        self._db.execute("DELETE FROM readings WHERE salt != ?", (self._salt_id,))
        self._pending: dict[str, str] = {}
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def digest(self, text: str) -> str:
        return hashlib.blake2b(f"{self.salt}\0{text}".encode(), digest_size=20).hexdigest()

    def get(self, text: str) -> Any | None:
        """The answer kept for ``text``, or None."""
        key = self.digest(text)
        with self._lock:
            stored = self._pending.get(key)
            if stored is None:
                row = self._db.execute("SELECT answer FROM readings WHERE digest = ?", (key,)).fetchone()
                stored = row[0] if row else None
            if stored is None:
                self.misses += 1
                return None
            self.hits += 1
        return json.loads(stored)

    def remembered(self, text: str, kind: type[T], compute: Callable[[], T]) -> T:
        """The answer kept for ``text`` when it is a ``kind``; else ``compute()``'s, kept for next time."""
        stored = self.get(text)
        if isinstance(stored, kind):
            return stored
        answer = compute()
        self.put(text, answer)
        return answer

    def put(self, text: str, answer: Any) -> None:
        encoded = json.dumps(answer, separators=(",", ":"))
        with self._lock:
            self._pending[self.digest(text)] = encoded

    def flush(self) -> None:
        """Write the new answers in one transaction."""
        with self._lock:
            rows, self._pending = list(self._pending.items()), {}
            if not rows:
                return
            try:
                with self._db:
                    self._db.execute("BEGIN")
                    self._db.executemany("INSERT OR REPLACE INTO readings VALUES (?, ?, ?)",
                                         [(key, self._salt_id, answer) for key, answer in rows])
            except sqlite3.Error:  # a full disk or a locked file: the answers are read afresh next time
                pass

    def close(self) -> None:
        self.flush()
        with self._lock:
            self._db.close()


READING_CODE = ("relaykit.handoff", "relaykit.text", "relaykit.memo", "relaykit.tokens",
                "relaykit.bench.relay.evidence", "relaykit.bench.relay.booker", "relaykit.bench.relay.reading",
                "relaykit.bench.relay.world")
"""The modules whose source decides what the reader and the audit answer (a package: every file under it)."""


def open_reading_cache(path: Path | str) -> Kept | None:
    """The reference reader's and the evidence audit's answers kept between runs in ``path``; None (read
    everything afresh) when the file cannot be used as one (not SQLite, not writable)."""
    from importlib.metadata import PackageNotFoundError, version

    from relaykit.bench.htmlpage import relaykit_version

    try:
        tokenizer = version("bpe-openai")
    except PackageNotFoundError:  # pragma: no cover - relaykit.tokens needs it
        tokenizer = "none"
    try:
        return Kept(path, "relay-readings\0" + source_digest(READING_CODE, f"{relaykit_version()}/{tokenizer}"))
    except (sqlite3.Error, OSError):
        return None


def kept_facts(kept: Kept, goal: Goal, payload_text: str, read: Callable[[], dict[str, OptionFacts]]
               ) -> dict[str, OptionFacts]:
    """The facts ``read()`` finds in a text payload, read once per goal and payload text."""
    key = "reader\0" + json.dumps([goal.text, goal.amenity, payload_text])
    stored = kept.get(key)
    if isinstance(stored, list):
        return {o["id"]: OptionFacts(o["id"], o["attributes"], o["verdicts"], o["eliminated"]) for o in stored}
    facts = read()
    kept.put(key, [{"id": f.id, "attributes": dict(f.attributes), "verdicts": dict(f.verdicts),
                    "eliminated": f.eliminated} for f in facts.values()])
    return facts


def kept_prompt_tokens(kept: Kept, goal: Goal, payload_text: str, count: Callable[[], int]) -> int:
    """The tokens of the reader's prompt (``count()``: the goal and the payload in the Booker's messages), counted
    once per goal and payload text (a repeated run would put 250 whole payloads through the tokenizer again)."""
    return kept.remembered("prompt-tokens\0" + json.dumps([goal.text, payload_text]), int, count)


def kept_audit(kept: Kept, handoff: Any, facts: list[tuple[str, str, str]], trace: str,
               audit: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The evidence audit's figures (``audit()``) of a hand-off, once per payload, goal, facts and trace; a
    payload that JSON cannot state exactly (not a text or a plain dict) is audited every time."""
    if not isinstance(handoff.payload, (str, dict)):
        return audit()
    try:
        key = "audit\0" + json.dumps([handoff.payload, handoff.goal, facts, trace])
    except (TypeError, ValueError):
        return audit()
    return kept.remembered(key, dict, audit)


__all__ = ["READING_CODE", "Kept", "kept_audit", "kept_facts", "kept_prompt_tokens", "open_reading_cache",
           "source_digest"]
