"""Redaction: message content becomes a short hash unless content recording is asked for; secrets never pass."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

CONTENT_KEYS = frozenset({"messages", "prompt", "content", "text", "completion", "response", "output", "input"})
SECRET_KEY = re.compile(r"(api[_-]?key|secret|token_value|password|authorization|bearer)", re.IGNORECASE)
# Strings that look like credentials wherever they appear (OpenAI-style keys, bearer headers).
SECRET_VALUE = re.compile(r"(sk-[A-Za-z0-9_\-]{8,}|Bearer\s+[A-Za-z0-9._\-]{8,})")


def content_hash(value: Any) -> str:
    """A stable 16-hex-digit hash of any JSON-able value (lets you join events without the content)."""
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def scrub_secrets(text: str) -> str:
    return SECRET_VALUE.sub("[redacted]", text)


def redact(fields: Mapping[str, Any], include_content: bool = False) -> dict[str, Any]:
    """A copy of ``fields`` safe to record.

    Secret-named keys are dropped and credential-looking strings masked, always. Content keys
    (messages, prompt, text, ...) are replaced by ``<key>_hash`` unless ``include_content`` is set.
    """
    out: dict[str, Any] = {}
    for key, value in fields.items():
        if SECRET_KEY.search(key):
            continue
        if key in CONTENT_KEYS and not include_content:
            out[f"{key}_hash"] = content_hash(value)
        elif isinstance(value, Mapping):
            out[key] = redact(value, include_content)
        elif isinstance(value, str):
            out[key] = scrub_secrets(value)
        else:
            out[key] = value
    return out
