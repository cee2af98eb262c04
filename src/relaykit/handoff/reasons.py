"""Why a failing clause fails, as the hand-off reader (``relaykit.handoff.evidence``) keeps it: the words after
the clause's fail phrase (``lexicon``'s fail matches; "drops out on price and distance" -> ``"price,distance"``),
or the words in parentheses of a piece that inherits its verdict from a shared head ("H03 (distance)").
"""

from __future__ import annotations

import re

from relaykit.handoff.guards import _NOT_BEFORE
from relaykit.handoff.lexicon import _fail_matches
from relaykit.handoff.phrases import DROP_WORDS

_REASON = re.compile(r"\s*(?:on|for|over|due to|because of|because|as|:|-|\()?\s*(?P<why>[^.;:()\d$£€¥]*)",
                     re.IGNORECASE)
_REASON_END = re.compile(r",\s*(?:so|and so|thus|hence|which|it|this)\b|\b(?:so|thus|hence)\b"
                         r"|,?\s*\b(?:though|although|even if|even though|albeit|yet)\b", re.IGNORECASE)
"""Where a reason ends: a consequence, or a concession ("pets forbidden, though the rent is fine")."""
_COMPARED = re.compile(r"(?:does not|doesn.t) (?:match|meet)", re.IGNORECASE)
_REASON_SPLIT = re.compile(r",|\band\b|&|\+|/", re.IGNORECASE)
_REASON_WORDS = re.compile(r"[A-Za-z][\w'-]*")
_PARENTHESISED_WORDS = re.compile(r"\(([^()\d]*)\)")


def _reason_items(text: str) -> list[str]:
    items = []
    for part in _REASON_SPLIT.split(text):
        words = [w for w in _REASON_WORDS.findall(part) if w.lower() not in DROP_WORDS and len(w) > 1]
        if words and len(words) <= 3 and " ".join(words).lower() not in ("no", "nope", "yes", "not"):
            items.append(" ".join(words).lower())
    return items


def reason_of(text: str) -> tuple[str, int, int] | None:
    """Why a failing clause fails, as the words after its fail phrase name it ("drops out on price and
    distance" -> ``"price,distance"``, "✗ region", "eliminated (amenity)"): the reason and its span in
    ``text``. None when the clause names no reason in words (a value or nothing follows the phrase)."""
    for match in _fail_matches(text):
        if _NOT_BEFORE.before(text, match.start()) or _COMPARED.match(text[match.start():match.end()]):
            continue  # "does not match night": what follows is the wanted value, not a reason
        found = _REASON.match(text, match.end())
        if found is None:
            continue
        why = found.group("why")
        end = _REASON_END.search(why)
        why = why[:end.start()] if end else why
        if text[found.start("why") + len(why):][:1].isdigit():  # "ruled out: CA04 (...)": an id, not a reason
            why = re.sub(r"[A-Za-z-]+$", "", why)
        items = _reason_items(why)
        if items:
            return ",".join(dict.fromkeys(items)), found.start("why"), found.start("why") + len(why)
    return None


def parenthesised_reason(text: str) -> tuple[str, int, int] | None:
    """The reason of a piece that inherits its verdict from a shared head ("H03 (distance)")."""
    found = _PARENTHESISED_WORDS.search(text)
    items = _reason_items(found.group(1)) if found else []
    return (",".join(items), found.start(1), found.end(1)) if found and items else None


__all__ = ["parenthesised_reason", "reason_of"]
