"""Redaction of telemetry fields: message content becomes a short hash unless content recording is asked
for; secrets never pass (the patterns live in :mod:`relaykit.redact`, shared with every other writer)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from relaykit.redact import is_secret_key, scrub

CONTENT_KEYS = frozenset({"messages", "prompt", "content", "text", "completion", "response", "output", "input"})


def content_hash(value: Any) -> str:
    """A stable 16-hex-digit hash of any JSON-able value (lets you join events without the content)."""
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def scrub_secrets(text: str) -> str:
    """``text`` with credential-looking substrings masked (see :func:`relaykit.redact.scrub`)."""
    return scrub(text)


def redact(fields: Mapping[str, Any], include_content: bool = False) -> dict[str, Any]:
    """A copy of ``fields`` safe to record.

    Secret-named keys are dropped and credential-looking strings masked, always and at any depth (inside
    dicts, lists and tuples). Content keys (messages, prompt, text, ...) are replaced by ``<key>_hash``
    unless ``include_content`` is set.
    """
    out: dict[str, Any] = {}
    for key, value in fields.items():
        if is_secret_key(str(key)):
            continue
        if key in CONTENT_KEYS and not include_content:
            out[f"{key}_hash"] = content_hash(value)
        else:
            out[key] = _redact_value(value, include_content)
    return out


def _redact_value(value: Any, include_content: bool) -> Any:
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, Mapping):
        return redact(value, include_content)
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_redact_value(item, include_content) for item in value]
    return value
