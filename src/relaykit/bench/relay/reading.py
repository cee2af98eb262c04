"""The relay lab's pure readers, their answers kept between runs: the reference reader's facts per payload and the
evidence audit per hand-off.

A repeated run reads the same 250 payloads and audits the same hand-offs again. ``open_reading_cache`` keeps the
answers in an SQLite file (``RELAYKIT_HOME/readings.sqlite`` for the CLI) under a digest of relaykit's version,
the source of every module that decides them (``READING_CODE``) and the whole input, so that a changed payload,
goal, trace, reader or release computes afresh (``relaykit.memo.Kept``). Only deterministic, model-free readings
are kept; compression, the Booker's decision, scoring and every timing run each time.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from relaykit.bench.relay.evidence import OptionFacts
from relaykit.bench.relay.world import Goal
from relaykit.memo import Kept, source_digest

READING_CODE = ("relaykit.handoff", "relaykit.text", "relaykit.memo", "relaykit.bench.relay.evidence",
                "relaykit.bench.relay.booker", "relaykit.bench.relay.reading", "relaykit.bench.relay.world")
"""The modules whose source decides what the reader and the audit answer (a package: every file under it)."""


def open_reading_cache(path: Path | str) -> Kept:
    """The reference reader's and the evidence audit's answers kept between runs in ``path``."""
    from relaykit.bench.htmlpage import relaykit_version

    return Kept(path, "relay-readings\0" + source_digest(READING_CODE, relaykit_version()))


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
    stored = kept.get(key)
    if isinstance(stored, dict):
        return stored
    answer = audit()
    kept.put(key, answer)
    return answer


__all__ = ["READING_CODE", "kept_audit", "kept_facts", "open_reading_cache"]
