"""Hand-off methods as the lab names them: a compressor name plus optional settings.

``prune:threshold=0.6`` runs the ``prune`` compressor with ``threshold=0.6``; several variants of one
compressor can run side by side (a threshold sweep). Whether a method calls a generative model is the
compressor's own ``needs_model`` attribute.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from relaykit.errors import UsageError


@dataclass(frozen=True)
class MethodSpec:
    """One hand-off condition: its label in tables, the compressor and its settings."""

    label: str
    compressor: str
    settings: tuple[tuple[str, Any], ...] = ()

    @property
    def needs_model(self) -> bool:
        return method_needs_model(self.compressor)

    @property
    def kwargs(self) -> dict[str, Any]:
        return dict(self.settings)


def method_needs_model(label: str) -> bool:
    """Whether the method labelled ``label`` (``name`` or ``name:key=value``) calls a generative model: the
    compressor's own ``needs_model`` attribute (False for a name no longer registered)."""
    import relaykit.handoff  # noqa: F401 - registers the built-in methods
    from relaykit.handoff.base import get_compressor, needs_model

    try:
        return needs_model(get_compressor(label.split(":")[0].strip()))
    except UsageError:
        return False


def check_setting(method: str, key: str, value: Any, item: str) -> None:
    """A ``UsageError`` unless ``key`` is one of the method's settings and ``value`` has its default's type."""
    import relaykit.handoff  # noqa: F401 - registers the built-in methods
    from relaykit.handoff.base import get_compressor

    defaults = dict(getattr(get_compressor(method), "defaults", {}))
    if key not in defaults:
        known = ", ".join(sorted(defaults)) or "none"
        raise UsageError(f"method {method!r} has no setting {key!r} (in {item!r}); its settings are: {known}")
    default = defaults[key]
    if isinstance(default, bool) or isinstance(value, bool):
        ok = isinstance(value, bool) == isinstance(default, bool) or default is None
    elif isinstance(default, (int, float)):
        ok = isinstance(value, (int, float)) and (isinstance(value, int) or isinstance(default, float))
    else:
        ok = True
    if not ok:
        raise UsageError(f"{method} setting {key} must be like its default {default!r}, not {value!r} (in {item!r})")


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def parse_method(item: str, known: list[str]) -> MethodSpec:
    """``name`` or ``name:key=value[:key=value]``; an unknown name lists the registered compressors."""
    name, *parts = item.strip().split(":")
    if name not in known:
        raise UsageError(f"unknown hand-off method {name!r}; registered: {', '.join(sorted(known))}")
    settings = []
    for part in parts:
        key, sep, raw = part.partition("=")
        if not sep or not key:
            raise UsageError(f"method setting {part!r} in {item!r} must look like key=value, e.g. prune:threshold=0.6")
        check_setting(name, key, _value(raw), item.strip())
        settings.append((key, _value(raw)))
    return MethodSpec(item.strip(), name, tuple(settings))


# The paper's four conditions first (control first), then the other built-ins, then any plugin's.
PREFERRED_ORDER = ("passthrough", "summary", "extract", "prune", "extract-rules", "tfidf", "truncate", "selective")


def default_methods(known: list[str]) -> list[str]:
    """Every registered compressor, in a reading order that starts with the paper's conditions."""
    return [m for m in PREFERRED_ORDER if m in known] + sorted(m for m in known if m not in PREFERRED_ORDER)


def parse_methods(text: str | None, known: list[str]) -> tuple[MethodSpec, ...]:
    """A comma-separated method list (None: every registered compressor; an empty list is a usage error)."""
    items = default_methods(known) if text is None else [i for i in text.split(",") if i.strip()]
    if not items:
        raise UsageError("--methods lists no method; name at least one, e.g. --methods passthrough,prune "
                         "(or leave --methods out for every registered one)")
    specs = tuple(parse_method(i, known) for i in items)
    labels = [s.label for s in specs]
    duplicates = sorted({label for label in labels if labels.count(label) > 1})
    if duplicates:
        raise UsageError(f"method listed twice: {', '.join(duplicates)}")
    return specs
