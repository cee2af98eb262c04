"""One generic registry for every kind of plugin: compressors, trajectory methods, model backends, stores...

Built-ins register through the same call a plugin uses. Third-party packages add entries through the
entry-point group ``relaykit.<kind>`` (for example ``relaykit.handoff``): each entry point names an object
(or a zero-argument callable returning one) that is registered under the entry point's name the first time
the registry is asked for a name it does not hold, or for its list of names.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import metadata
from typing import Generic, TypeVar

from relaykit.errors import UsageError, unknown_name

T = TypeVar("T")

ENTRY_POINT_PREFIX = "relaykit."


class Registry(Generic[T]):
    """Named entries of one kind. ``kind`` is the word used in messages ("hand-off method", "model spec")."""

    def __init__(self, kind: str, group: str | None = None, *, check: Callable[[object], T] | None = None,
                 describe: Callable[[str, T], str] | None = None) -> None:
        self.kind = kind
        self.group = group
        self._check = check
        self._describe = describe  # how a name is shown in the "choose one of" list (e.g. "openai:MODEL")
        self._items: dict[str, T] = {}
        self._lock = threading.RLock()
        self._plugins_loaded = group is None

    def register(self, name: str, item: T) -> T:
        """Add ``item`` under ``name`` (a later registration replaces an earlier one) and return it."""
        if not isinstance(name, str) or not name.strip():
            raise UsageError(f"a {self.kind} needs a non-empty string name, not {name!r}")
        checked = self._check(item) if self._check else item
        with self._lock:
            self._items[name] = checked
        return checked

    def unregister(self, name: str) -> None:
        with self._lock:
            self._items.pop(name, None)

    def get(self, name: str) -> T:
        """The entry called ``name``; an unknown name raises ``UsageError`` with a "did you mean" hint."""
        with self._lock:
            if name not in self._items:
                self.load_plugins()
            if name in self._items:
                return self._items[name]
        raise UsageError(self.unknown_message(name))

    def unknown_message(self, name: str) -> str:
        known = self.names()
        shown = [self._describe(n, self._items[n]) for n in known] if self._describe else known
        return str(unknown_name(self.kind, name, known, shown))

    def names(self) -> list[str]:
        """Registered names in registration order (plugins included)."""
        self.load_plugins()
        with self._lock:
            return list(self._items)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self.names()

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self.names())

    @contextmanager
    def override(self, name: str, item: T) -> Iterator[T]:
        """Register ``item`` under ``name`` for the duration of a ``with`` block (tests), then restore."""
        with self._lock:
            previous = self._items.get(name)
            had = name in self._items
        registered = self.register(name, item)
        try:
            yield registered
        finally:
            with self._lock:
                if had:
                    self._items[name] = previous  # type: ignore[assignment]
                else:
                    self._items.pop(name, None)

    def load_plugins(self, *, refresh: bool = False) -> None:
        """Register the entry points of ``group`` once (again with ``refresh=True``, e.g. after installing a
        plugin in a running process); a broken plugin is a ``UsageError`` naming it."""
        if self.group is None or (self._plugins_loaded and not refresh):
            return
        self._plugins_loaded = True
        for ep in metadata.entry_points(group=self.group):
            if ep.name in self._items:
                continue
            try:
                loaded = ep.load()
            except Exception as exc:  # a third-party import failure must name the plugin
                raise UsageError(f"the {self.kind} plugin {ep.name!r} ({ep.value}) failed to load: {exc}") from exc
            self.register(ep.name, loaded() if _is_factory(loaded) else loaded)


def _is_factory(obj: object) -> bool:
    """A plugin may point its entry point at a zero-argument factory marked ``relaykit_factory = True``."""
    return bool(getattr(obj, "relaykit_factory", False))


def plugin_factory(fn: Callable[[], T]) -> Callable[[], T]:
    """Mark a zero-argument function as an entry-point factory: the registry calls it and registers the result."""
    fn.relaykit_factory = True  # type: ignore[attr-defined]
    return fn


__all__ = ["ENTRY_POINT_PREFIX", "Registry", "plugin_factory"]
