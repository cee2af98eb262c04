"""Checksums for stored cache entries: a damaged entry is a miss and a warning, never served, never raised.

Every store writes ``checksum(...)`` next to an entry and passes what it reads back through ``decode``:
flipped bytes, broken JSON, a vector blob of the wrong length or a missing checksum (a row written by an
older relaykit) make ``decode`` warn with ``DamagedEntryWarning`` and return ``None``.
"""

from __future__ import annotations

import hashlib
import json
import math
import warnings
import zlib
from typing import Any

import numpy as np

from relaykit.embeddings.base import Vectors
from relaykit.models.cache.entry import CacheEntry


class DamagedEntryWarning(RuntimeWarning):
    """A stored cache entry failed its checksum or could not be decoded; it was treated as a miss."""


CHECKSUM_BYTES = 17
"""The digest size of the checksums written now (34 hex characters): BLAKE2b over the text fields and, when there is
a vector, its length and CRC-32. The checksums of earlier releases (16 bytes, 32 hex characters: BLAKE2b over the
vector's bytes too) still verify; the length tells the two apart."""


def checksum(key: str, namespace: str, group: str, response_json: str, query: str, vector: bytes,
             created_at: float, expires_at: float | None, legacy: bool = False) -> str:
    """A 136-bit BLAKE2b digest over every stored field of one entry, the vector through its length and CRC-32
    (a 1,536-byte vector cost BLAKE2b ~20k instructions a write, CRC-32 ~2k; a damaged byte changes the CRC-32
    as surely, and no adversary writes the store: whoever can write it can write a matching checksum too).
    ``legacy``: the checksum of earlier releases, 128 bits of BLAKE2b over the vector's bytes."""
    head = [key, namespace, group, response_json, query, repr(float(created_at)),
            None if expires_at is None else repr(float(expires_at))]
    digest = hashlib.blake2b(json.dumps(head, ensure_ascii=True).encode(), digest_size=16 if legacy else CHECKSUM_BYTES)
    if legacy:
        digest.update(vector)
        return digest.hexdigest()
    if vector:  # (an entry without one, an exact entry, costs no more than before)
        digest.update(b"%d:%d" % (len(vector), zlib.crc32(vector)))
    return digest.hexdigest()


def intact(stored: str, key: str, namespace: str, group: str, response_json: str, query: str, vector: bytes,
           created_at: float, expires_at: float | None) -> bool:
    """Whether ``stored`` is the checksum of these fields, in this release's form or in the earlier releases'."""
    fields = (key, namespace, group, response_json, query, vector, created_at, expires_at)
    return stored == checksum(*fields, legacy=len(stored) != 2 * CHECKSUM_BYTES)


def vector_bytes(vector: Vectors | None) -> bytes:
    return b"" if vector is None else np.asarray(vector, dtype=np.float32).tobytes()


def encode(entry: CacheEntry) -> tuple[str, bytes, str]:
    """(response JSON, vector bytes, checksum) of ``entry``, as a store writes them."""
    response_json = json.dumps(entry.response, sort_keys=True)
    blob = vector_bytes(entry.vector)
    return response_json, blob, checksum(entry.key, entry.namespace, entry.group, response_json, entry.query, blob,
                                         entry.created_at, entry.expires_at)


def damaged(store: str, key: str, reason: str) -> None:
    """Warn that one entry is damaged (it is then treated as a miss)."""
    warnings.warn(f"damaged cache entry {key[:16]} in the {store} store ({reason}); treated as a miss",
                  DamagedEntryWarning, stacklevel=3)


def decode_vector(blob: bytes | None) -> Vectors | None:
    """The float32 vector in ``blob``; ``None`` for no vector; ValueError when the blob cannot be one."""
    if not blob:
        return None
    if len(blob) % 4:
        raise ValueError(f"a vector blob of {len(blob)} bytes is not float32")
    vector = np.frombuffer(blob, dtype=np.float32)
    if not np.all(np.isfinite(vector)):
        raise ValueError("the vector holds non-finite values")
    return vector


def decode(store: str, fields: dict[str, Any]) -> CacheEntry | None:
    """The entry stored as ``fields`` (key, namespace, group, response, query, vector, created_at, expires_at,
    checksum: strings, bytes and floats as the store read them), or ``None`` with a warning when damaged."""
    key = str(fields.get("key", "?"))
    try:
        entry = _decode(fields)
    except (ValueError, TypeError, KeyError, UnicodeDecodeError, AttributeError) as exc:
        damaged(store, key, str(exc) or type(exc).__name__)
        return None
    return entry


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _decode(fields: dict[str, Any]) -> CacheEntry:
    key, namespace, group = _text(fields["key"]), _text(fields["namespace"]), _text(fields["group"])
    response_json, query = _text(fields["response"]), _text(fields["query"])
    blob = bytes(fields.get("vector") or b"")
    created_at = float(fields["created_at"])
    raw_expires = fields.get("expires_at")
    expires_at = float(raw_expires) if raw_expires not in (None, "", b"") else None
    stored = fields.get("checksum")
    if not stored:
        raise ValueError("no checksum: written by an older relaykit, or damaged")
    if not intact(_text(stored), key, namespace, group, response_json, query, blob, created_at, expires_at):
        raise ValueError("checksum mismatch")
    response = json.loads(response_json)
    if not isinstance(response, dict) or not isinstance(response.get("text"), str):
        raise ValueError("the stored response is not an answer")
    if not math.isfinite(created_at):
        raise ValueError("bad creation time")
    return CacheEntry(key=key, namespace=namespace, group=group, response=response, created_at=created_at,
                      expires_at=expires_at, query=query, vector=decode_vector(blob))
