"""Grammar-shaped readings of the hand-off reader (``relaykit.handoff.evidence``) for wordings outsiders use
(issue 12, wave 9): a verdict written as a label before its option ("In: HT02.", "Out: HT01 (distance)"), a
verdict verb whose subject is a third party ("the fire inspector approved the layout"), the second value of a
comparison that belongs to the option compared with ("FL3 is cheaper than FL2: 1,250 EUR versus 1,480 EUR",
"MR9 seats 20, against 12 in MR8") and "only the first" among the options just listed.

Each is tried only where a cheap test finds the words it needs, so the reader's hot path stays as it was.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from relaykit.handoff.lexicon import verdict_of

_LEAD = re.compile(r"^[-*•\s]*(?P<label>[A-Za-z][A-Za-z-]*(?: [A-Za-z-]+)?)\s*(?::|\s[-–—]|=|→|->)\s*"
                   r"(?=[\w-]*\d)")
"""A short label and a separator right before an option id ("In: HT02", "Accepted - SU2")."""
_LEAD_WORDS = {"in": "pass", "keep": "pass", "kept": "pass", "yes": "pass", "go": "pass", "take": "pass",
               "out": "fail", "drop": "fail", "no": "fail", "no-go": "fail", "cut": "fail", "skip": "fail",
               "nope": "fail", "nah": "fail"}
"""One-word verdicts that say so only as such a label ("In:", "Out:"); other labels are read as verdicts are."""


def lead_verdict(clause: str) -> tuple[str, int] | None:
    """The verdict a label before the clause's option states ("Out: HT04 (price)" -> fail) and where the option
    starts; None when the clause opens with no such label ("Price: HT04 ..." is a label of no verdict)."""
    found = _LEAD.match(clause)
    if found is None:
        return None
    label = found.group("label").lower()
    verdict = _LEAD_WORDS.get(label) or (verdict_of(label) if label not in _NOT_LEADS else None)
    return (verdict, found.end()) if verdict is not None else None


_NOT_LEADS = frozenset({"note", "notes", "status", "verdict", "decision", "result", "outcome", "update", "option",
                        "options", "next", "then", "also"})

_THIRD_PARTY = re.compile(
    r"\bthe\s+(?P<who>(?:[a-z-]+\s+){0,2}?[a-z-]+)\s+(?:has\s+|had\s+|also\s+|just\s+|already\s+)?"
    r"(?:approved|approves|rejected|rejects|passes|passed|qualifies|qualified|accepted|accepts|declined|declines|"
    r"failed|fails|refused|refuses|okayed|cleared|clears|signed off)\s+(?:on\s+)?"
    r"(?:the|a|an|two|three|four|several|some|for|our|all|most|its|their|his|her|\d)\b", re.IGNORECASE)
"""A verdict verb with "the <noun>" for its subject and something else for its object ("the catering passes the
security check", "the shuttle qualifies for a discount", "the courier rejected two parcels")."""
_NOT_THIRD = frozenset({"option", "one", "former", "latter", "first", "second", "third", "last", "other", "offer",
                        "candidate", "proposal", "bid", "quote", "choice", "alternative", "winner", "rest"})


def third_party(text: str, kinds: Collection[str]) -> bool:
    """Whether the clause's verdict verb is a third party's act on something else, not a verdict on the option:
    its subject is "the" and a noun that is no kind of option ("the hotel passes the check" where hotels are the
    options still judges)."""
    found = _THIRD_PARTY.search(text)
    if found is None:
        return False
    who = found.group("who").lower().split()
    return not any(w in kinds or w in _NOT_THIRD or w.rstrip("s") in kinds for w in who)


_VALUE = r"(?:[$€£¥]\s?)?\d(?:[\d,.]*\d)?(?:\s?(?:%|[A-Za-z$€£/²]{1,8}(?:\s?/\s?[a-z]{1,6})?))?"
_VERSUS = re.compile(rf"(?P<first>{_VALUE})\s+(?:versus|vs\.?|against|v\.?)\s+(?P<second>{_VALUE})(?!\w)",
                     re.IGNORECASE)
_THAN_ID = re.compile(r"\bthan\s+")


def versus_object(clause: str, id_re: re.Pattern[str]) -> tuple[str, str, str] | None:
    """For a comparison of two options whose values follow as a pair ("FL3 is cheaper than FL2: 1,250 EUR versus
    1,480 EUR"): the clause without the second value, the option compared with and that value (its own)."""
    if "vs" not in clause and "versus" not in clause and "against" not in clause:
        return None
    than = _THAN_ID.search(clause)
    other = id_re.match(clause, than.end()) if than is not None else None
    pair = _VERSUS.search(clause, other.end()) if other is not None else None
    if other is None or pair is None:
        return None
    return clause[:pair.end("first")] + clause[pair.end("second"):], other.group(0), pair.group("second")


_AGAINST_END = re.compile(rf",?\s*\b(?:against|versus|vs\.?|compared (?:with|to)|as opposed to)\s+(?P<value>{_VALUE})"
                          r"\s+(?:in|on|at|for|of|with|from)\s*$", re.IGNORECASE)


def moved_values(pieces: list[str], id_re: re.Pattern[str]) -> list[str]:
    """The pieces of a clause cut at its ids, each value that a comparison gives to the next option moved there
    ("MR9 seats 20, against 12 in " / "MR8." -> "MR9 seats 20" / "MR8 12.")."""
    if not any("against" in p or "vs" in p or "compared" in p or "opposed" in p for p in pieces[:-1]):
        return pieces
    out = list(pieces)
    for k in range(len(out) - 1):
        found = _AGAINST_END.search(out[k])
        named = id_re.match(out[k + 1]) if found is not None else None
        if found is not None and named is not None:
            out[k] = out[k][:found.start()]
            out[k + 1] = f"{out[k + 1][:named.end()]} {found.group('value')}{out[k + 1][named.end():]}"
    return out


_ONLY_PLACE = re.compile(r"^(?:only|just|solely)\s+the\s+(?P<nth>first|second|third|fourth|fifth|middle|last)"
                         r"(?:\s+(?:one|option|candidate))?\b", re.IGNORECASE)
_PLACES = {"first": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4, "last": -1}


def only_placed(clause: str, order: Sequence[str]) -> tuple[str | None, str] | None:
    """"only the first qualifies" after a list of options: the option at that place (None for a place no option
    holds: "the middle one" of two) and the rest of the clause; None for no such clause."""
    found = _ONLY_PLACE.match(clause)
    if found is None:
        return None
    nth = found.group("nth").lower()
    place = (len(order) // 2 if len(order) % 2 else None) if nth == "middle" else _PLACES[nth]
    if place is None or not -len(order) <= place < len(order):
        return None, clause[found.end():]
    return order[place], clause[found.end():]


__all__ = ["lead_verdict", "moved_values", "only_placed", "third_party", "versus_object"]
