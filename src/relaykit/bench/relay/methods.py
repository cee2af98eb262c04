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
        from relaykit.handoff.base import get_compressor, needs_model

        return needs_model(get_compressor(self.compressor))

    @property
    def kwargs(self) -> dict[str, Any]:
        return dict(self.settings)


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
        settings.append((key, _value(raw)))
    return MethodSpec(item.strip(), name, tuple(settings))


# The paper's four conditions first (control first), then the other built-ins, then any plugin's.
PREFERRED_ORDER = ("passthrough", "summary", "extract", "prune", "extract-rules", "tfidf", "truncate", "selective")


def default_methods(known: list[str]) -> list[str]:
    """Every registered compressor, in a reading order that starts with the paper's conditions."""
    return [m for m in PREFERRED_ORDER if m in known] + sorted(m for m in known if m not in PREFERRED_ORDER)


def parse_methods(text: str | None, known: list[str]) -> tuple[MethodSpec, ...]:
    """A comma-separated method list (default: every registered compressor)."""
    items = [i for i in (text or "").split(",") if i.strip()] or default_methods(known)
    specs = tuple(parse_method(i, known) for i in items)
    labels = [s.label for s in specs]
    duplicates = sorted({label for label in labels if labels.count(label) > 1})
    if duplicates:
        raise UsageError(f"method listed twice: {', '.join(duplicates)}")
    return specs
