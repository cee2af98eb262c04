"""Recoverable compression: handles for dropped or masked steps, a store for their originals, a recall tool.

With ``dropped="reference"`` every past step that a compression masks or drops gets a handle (``step-`` and
12 hex digits of a hash of its original messages, so the same step gets the same handle in every call); the
placeholder of a masked step names it, and the original messages are written to a :class:`ReferenceStore`.
An agent given :data:`RECALL_TOOL` can call ``recall_step(handle)``; :func:`recall_handler` answers that
call with the exact original observation text.

Stores: :class:`MemoryReferenceStore` (one process) and :class:`SQLiteReferenceStore`
(``$RELAYKIT_HOME/references.sqlite`` by default, created readable by its owner only).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from relaykit.errors import UsageError
from relaykit.settings import load_settings

Msg = dict[str, Any]

RECALL_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "recall_step",
        "description": ("Get back the full original output of an earlier step whose output was omitted from "
                        "the conversation to save context. Pass the handle named in its placeholder."),
        "parameters": {
            "type": "object",
            "properties": {"handle": {"type": "string", "description": "The handle, e.g. step-1a2b3c4d5e6f."}},
            "required": ["handle"],
            "additionalProperties": False,
        },
    },
}
"""An OpenAI-style tool definition for ``recall_step``; add it to the ``tools`` of the agent's request."""


@runtime_checkable
class ReferenceStore(Protocol):
    """Keeps the original messages of elided steps under their handles."""

    def put(self, handle: str, messages: Sequence[Mapping[str, Any]]) -> None: ...

    def get(self, handle: str) -> list[Msg] | None: ...


def put_all(store: ReferenceStore, items: Sequence[tuple[str, Sequence[Mapping[str, Any]]]]) -> None:
    """Every ``(handle, messages)`` into ``store``: in one batch when it has ``put_many`` (the SQLite store
    writes one transaction, not one commit and sync per step: 7,000 masked steps took ~10 s), else one by one."""
    put_many = getattr(store, "put_many", None)
    if callable(put_many):
        put_many(items)
        return
    for handle, messages in items:
        store.put(handle, messages)


def handle_for(messages: Sequence[Mapping[str, Any]]) -> str:
    """The handle of a step: the same original messages always give the same handle."""
    blob = json.dumps(list(messages), sort_keys=True, default=str, ensure_ascii=False)
    return "step-" + hashlib.sha256(blob.encode("utf-8")).hexdigest()[:12]


class MemoryReferenceStore:
    """A dict in this process."""

    def __init__(self) -> None:
        self._items: dict[str, list[Msg]] = {}

    def put(self, handle: str, messages: Sequence[Mapping[str, Any]]) -> None:
        self._items[handle] = [dict(m) for m in messages]

    def get(self, handle: str) -> list[Msg] | None:
        found = self._items.get(handle)
        return [dict(m) for m in found] if found is not None else None

    def __len__(self) -> int:
        return len(self._items)


class SQLiteReferenceStore:
    """A SQLite file (WAL), created with mode 0600 because it holds whatever the agent saw."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else load_settings().home / "references.sqlite"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not self.path.exists():
            os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))
        os.chmod(self.path, 0o600)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False)
        with self._lock, self._db:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("CREATE TABLE IF NOT EXISTS steps (handle TEXT PRIMARY KEY, messages TEXT NOT NULL)")

    def put(self, handle: str, messages: Sequence[Mapping[str, Any]]) -> None:
        blob = json.dumps(list(messages), ensure_ascii=False, default=str)
        with self._lock, self._db:
            self._db.execute("INSERT OR REPLACE INTO steps (handle, messages) VALUES (?, ?)", (handle, blob))

    def put_many(self, items: Sequence[tuple[str, Sequence[Mapping[str, Any]]]]) -> None:
        """Like ``put`` for each item, in one transaction."""
        rows = [(handle, json.dumps(list(messages), ensure_ascii=False, default=str)) for handle, messages in items]
        with self._lock, self._db:
            self._db.executemany("INSERT OR REPLACE INTO steps (handle, messages) VALUES (?, ?)", rows)

    def get(self, handle: str) -> list[Msg] | None:
        with self._lock:
            row = self._db.execute("SELECT messages FROM steps WHERE handle = ?", (handle,)).fetchone()
        return None if row is None else list(json.loads(row[0]))

    def close(self) -> None:
        self._db.close()


def recall(store: ReferenceStore, handle: str) -> list[Msg]:
    """The original messages (action first, then its observation) stored under ``handle``."""
    found = store.get(str(handle).strip())
    if found is None:
        raise UsageError(f"no step is stored under the handle {handle!r}; handles come from placeholders written "
                         "with dropped='reference', into this same store")
    return found


def original_observation(messages: Sequence[Mapping[str, Any]]) -> str:
    """The exact text of a stored step's observation (its messages after the action, joined by newlines)."""
    from relaykit.tokens import message_text

    return "\n".join(message_text(m) for m in messages[1:])


def recall_step(handle: str, store: ReferenceStore) -> str:
    """The tool's answer: the step's original observation, exactly as the agent first saw it."""
    return original_observation(recall(store, handle))


def recall_handler(store: ReferenceStore) -> Callable[[str | Mapping[str, Any]], str]:
    """A handler for ``recall_step`` tool calls: takes the call's arguments (JSON text or a dict), returns
    the tool result text; an unknown handle answers with a message instead of raising."""

    def handle(arguments: str | Mapping[str, Any]) -> str:
        try:
            args = json.loads(arguments) if isinstance(arguments, str) else dict(arguments)
            return recall_step(str(args["handle"]), store)
        except (json.JSONDecodeError, KeyError, TypeError):
            return "recall_step needs arguments like {\"handle\": \"step-...\"}"
        except UsageError as exc:
            return str(exc)

    return handle


__all__ = ["RECALL_TOOL", "MemoryReferenceStore", "ReferenceStore", "SQLiteReferenceStore", "handle_for",
           "original_observation", "put_all", "recall", "recall_handler", "recall_step"]
