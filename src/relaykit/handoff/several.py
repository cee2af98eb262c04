"""Clauses of the hand-off reader (``relaykit.handoff.evidence``) that name several options, and id-less ones that
name an option by its place ("the second one").

- A clause that names an option twice holds two statements ("ZB1 and ZB2 have 8 GB and 16 GB respectively, so ZB1
  fails and ZB2 passes"): it is read as two, cut at the last separator before the repeat (``repeat_cut``).
- A verdict verb before an id belongs to that id and the ids joined to it ("We reject SK1 and keep SK2 and SK3":
  "keep" is SK2's and SK3's; ``shifted``).
- Ids named bare before a plural predicate share it ("VD1 and VD2 are in": ``shared_predicates``).
- Verdicts given "respectively" go one to each id in order ("were accepted and rejected, respectively").
- "The second one, though, we had to drop", "the third is over budget", "as for the first plan": an ordinal at a
  clause start names the option at that place among those just named together, else among the paragraph's
  (``ordinal_reference``); a place that does not exist names nobody, and the verdict stays unknown.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from mypy_extensions import trait

from relaykit.handoff.lexicon import verdict_of
from relaykit.handoff.lists import implied_list
from relaykit.handoff.reading import CONNECTORS, RESPECTIVELY
from relaykit.handoff.table import typed

_SEPARATOR = re.compile(r",\s+|;\s*|:\s+|\s+[-–—]\s+|\s+(?:and|but|while|whereas)\s+", re.IGNORECASE)
_REPEAT_SEPARATOR = re.compile(r"[,;:]\s+|\s+[-–—]\s+")

_PLURAL = re.compile(r"\s*(?:are|were|have|had|both|all|each|do|did|don't|didn't|qualify|pass|fail|meet|get|go"
                     r"|remain|stay)\b", re.IGNORECASE)
_RESPECTIVE = re.compile(r",?\s*" + RESPECTIVELY.pattern, re.IGNORECASE)
_VERDICT_PARTS = re.compile(r",\s*|\s+(?:and|or|then|et|und|y)\s+|;\s*", re.IGNORECASE)


def repeat_cut(clause: str, id_re: re.Pattern[str], ids: Collection[str]) -> int | None:
    """Where to cut a clause that names one of its ``ids`` twice: at the last separator before the first
    repeat, after the id named before it; None when no id repeats or no separator stands there."""
    seen: set[str] = set()
    before = 0
    for m in id_re.finditer(clause):
        name = m.group(0)
        if name not in ids:
            continue
        if name in seen:
            found = [s.end() for s in _REPEAT_SEPARATOR.finditer(clause, before, m.start())]
            return found[-1] if found else None
        seen.add(name)
        before = m.start()
    return None


def shifted(pieces: list[str], id_re: re.Pattern[str]) -> tuple[list[str], list[str]]:
    """The pieces of a several-id clause (each opens with its id) without a verdict verb that stands before the
    next id, and for each piece the verb it takes from the piece before: "SK1 and keep " + "SK2" -> pieces
    "SK1 and ", "SK2" and verbs "", "keep "; only words after a separator that end in a word and judge the id
    they precede."""
    out, verbs = list(pieces), [""] * len(pieces)
    for k in range(len(out) - 1):
        piece = out[k]
        named = id_re.match(piece)
        cuts = [m.end() for m in _SEPARATOR.finditer(piece, named.end() if named else 0)]
        if not cuts or cuts[-1] >= len(piece):
            continue
        segment = piece[cuts[-1]:]
        following = id_re.match(out[k + 1])
        if following is None or not segment.endswith(" ") or not segment.rstrip()[-1:].isalpha():
            continue  # the id must follow the verb right away ("keep SK2")
        if verdict_of(segment + following.group(0)) is not None and verdict_of(out[k + 1]) is None:
            out[k], verbs[k + 1] = piece[:cuts[-1]], segment
    for k in range(1, len(out) - 1):  # "drop E2 and E3": the ids joined to the one after the verb take it too
        named = id_re.match(out[k])
        if verbs[k] and not verbs[k + 1] and named and not CONNECTORS.sub("", out[k][named.end():]) \
                and verdict_of(out[k + 1]) is None:
            verbs[k + 1] = verbs[k]
    return out, verbs


def shared_predicates(pieces: list[str], id_re: re.Pattern[str]) -> list[str]:
    """Pieces named bare ("VD1 and ") before a piece with a plural predicate ("VD2 are in, ") take that
    predicate: "VD1 are in, " (not when it lists one value per id: ``reading.implied_list``)."""
    out = list(pieces)
    waiting: list[int] = []
    for k, piece in enumerate(pieces):
        named = id_re.match(piece)
        rest = piece[named.end():] if named else piece
        if not CONNECTORS.sub("", rest):
            waiting.append(k)
            continue
        if waiting and named is not None and _PLURAL.match(rest) and not RESPECTIVELY.search(rest) \
                and not implied_list(rest, len(waiting) + 1):  # "VD1 and VD2 are 4 km and 6 km away": one each
            for w in waiting:
                said = id_re.match(pieces[w])
                out[w] = (said.group(0) if said else "") + rest
        waiting = []
    return out


_SAME_NEXT = re.compile(r"(?:,\s*)?(?:as\s+(?:is|are|was|were|does|do|did)|and\s+so\s+(?:is|are|was|were|does|do|did)"
                        r"|as\s+well\s+as|just\s+like|and\s+likewise|and\s+also)\s*$", re.IGNORECASE)
_UNLIKE_NEXT = re.compile(r"(?:,\s*)?(?:unlike|in\s+contrast\s+to|as\s+opposed\s+to|rather\s+than|instead\s+of)\s*$",
                          re.IGNORECASE)
_BUT_NOT = re.compile(r"\s*,?\s*(?:but|and)?\s*not\s*,?\s*$", re.IGNORECASE)
_NEITHER = re.compile(r"(?:^|\s)neither\s*$", re.IGNORECASE)
_LINK_HINT = re.compile(r"\b(?:not|as|so|like|likewise|also|unlike|contrast|opposed|rather|instead|neither)\b",
                        re.IGNORECASE)
"""A word every link ``linked_verdicts`` reads holds: a clause without one is not read further."""
_OPPOSITE = {"pass": "fail", "fail": "pass"}
FORCED = "!"
"""Before a verdict ``linked_verdicts`` gives: it holds whatever verdict the piece's own words state."""


def linked_verdicts(head: str, pieces: list[str], id_re: re.Pattern[str]) -> list[str | None]:
    """For each piece of a several-id clause, the verdict a link to the piece before gives it: "LN7 is rejected,
    as is LN8" (the same), "LN5 passes, unlike LN6" (the opposite), "Neither LN1 nor LN2 qualifies" (every id
    fails what the last piece passes, whatever its words say: ``FORCED``), "LN3 but not LN4 passes" (LN4 the
    opposite, ``FORCED``); None where no link says one (else a piece's own verdict comes first)."""
    linked: list[str | None] = [None] * len(pieces)
    if _LINK_HINT.search(head) is None and not any(_LINK_HINT.search(piece) for piece in pieces[:-1]):
        return linked  # most clauses: no word a link needs
    if _NEITHER.search(head):
        said = verdict_of(pieces[-1])
        return [FORCED + "fail" if said == "pass" else None] * len(pieces)
    for k in range(1, len(pieces)):
        before = pieces[k - 1]
        named = id_re.match(before)
        if _BUT_NOT.match(before, named.end() if named else 0):  # "LN3 but not LN4 passes"
            said = verdict_of(pieces[k])
            if said is not None:
                linked[k - 1], linked[k] = said, FORCED + _OPPOSITE[said]
            continue
        same, unlike = _SAME_NEXT.search(before), _UNLIKE_NEXT.search(before)
        if same is None and unlike is None:
            continue
        link = same or unlike
        said = linked[k - 1] or verdict_of(before[named.end() if named else 0:link.start() if link else None])
        if said is not None:
            linked[k] = said if same is not None else _OPPOSITE[said]
    return linked


def respective_verdicts(tail: str, count: int) -> tuple[list[str], str] | None:
    """The verdicts a clause gives ``count`` ids "respectively" ("were accepted and rejected, respectively"),
    in order, and the tail without them; None unless it says "respectively" and judges exactly that often."""
    if not RESPECTIVELY.search(tail):
        return None
    plain = _RESPECTIVE.sub("", tail)
    verdicts: list[str] = []
    kept: list[str] = []
    for part in _VERDICT_PARTS.split(plain):
        said = verdict_of(part) if part.strip() else None
        if said is not None:
            verdicts.append(said)
        else:
            kept.append(part)
    if len(verdicts) != count:
        return None
    return verdicts, " ".join(kept)


_ORDINAL_WORDS = {"first": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4, "last": -1}
_ORDINAL_REF = re.compile(
    r"^(?:[a-z][a-z' ]{0,30},\s+|(?:and|but|so|then|now|finally|however|still|in the end|eventually|ultimately"
    r"|as for|as to)\s+)?"  # a lead-in ("After some debate, the second ...", "In the end the first ...")
    r"the (?P<nth>first|second|third|fourth|fifth|last)(?:\s+(?P<noun>[a-z]+))?(?=\s*[,:(.!]|\s+(?P<next>[a-z']+))",
    re.IGNORECASE)
_NOUNS = frozenset({"one", "option", "candidate", "offer", "choice", "entry", "quote", "proposal", "alternative"})
_VERBS = frozenset({
    "is", "was", "are", "has", "had", "have", "gets", "got", "get", "makes", "made", "falls", "fell", "we", "i",
    "they", "you", "can", "cannot", "can't", "will", "won't", "would", "did", "didn't", "does", "doesn't", "costs",
    "charges", "offers", "comes", "takes", "passes", "fails", "works", "looks", "seems", "stays", "remains",
    "qualifies", "meets", "misses", "lacks", "goes", "went", "needs", "sits", "runs", "holds", "seats", "sleeps",
    "isn't", "wasn't", "should", "must", "also", "though", "however", "clearly", "just", "still", "then"})


def ordinal_reference(clause: str, kinds: Collection[str]) -> tuple[int, int] | None:
    """The place (0-based, -1 for "last") an id-less clause names its option by, and where the rest of the
    clause starts: "the second one, though, we had to drop" -> (1, 14). A noun after the ordinal must be a kind
    of option ("the first plan" where plans are named "Plan IN-2") or "one" / "option"; the word after must be a
    verb or a pronoun, or punctuation ("the first floor" names no option; "the first two pass" is a group)."""
    found = _ORDINAL_REF.match(clause)
    if found is None:
        return None
    noun, following = (found.group("noun") or "").lower(), (found.group("next") or "").lower()
    end = found.end()
    if noun and noun not in _NOUNS and noun not in kinds:
        if noun not in _VERBS:
            return None
        end, following = found.start("noun"), ""
    elif following and following not in _VERBS:
        return None
    return _ORDINAL_WORDS[found.group("nth").lower()], end


_DESCRIBED = re.compile(r"^(?:[a-z][a-z' ]{0,30},\s+)?the ((?:[a-z-]+ ){1,3})", re.IGNORECASE)
_NOT_DESCRIPTIONS = frozenset({"other", "former", "latter", "first", "second", "third", "fourth", "fifth", "last"})


def described(clause: str, kinds: Collection[str]) -> bool:
    """Whether a clause names its option by a description ("The lighter bike is too dear.", "the cheaper
    one"): among several options, which one it means is not read, so its verdict goes to none."""
    found = _DESCRIBED.match(clause)
    if found is None:
        return False
    words = found.group(1).lower().split()
    return words[0] not in _NOT_DESCRIPTIONS and any(w in kinds or w in _NOUNS for w in words[1:])


def at_place(order: Sequence[str], place: int) -> str | None:
    """The option at ``place`` of ``order``, or None when there is no such place (no guess)."""
    return order[place] if -len(order) <= place < len(order) else None


@trait
class PlacedVerdicts:
    """The evidence reader's part that finds the option of an id-less clause by its place or sees that it names
    one by a description (a mixin of ``evidence._Reader``)."""

    kinds: set[str]
    group: list[str] | None  # the ids the last clause naming several spoke of
    paragraph: dict[str, None]  # the paragraph's ids, in the order first named
    notes: list[str]

    def _resolve(self, clause: str) -> str | None:
        raise NotImplementedError

    def _target(self, clause: str, ids: list[str], previous: str | None) -> tuple[str | None, str, bool]:
        """The option a clause is about so far (its id, an ordinal's place, a pronoun's option, or the option
        of the clause before), the clause without an ordinal, and whether it names a place no option has or an
        option by a description (then it judges nobody)."""
        place = ordinal_reference(clause, self.kinds) if not ids and "the " in clause[:40].lower() else None
        if place is None:
            target = ids[0] if ids else self._resolve(clause) or previous
            # "The lighter bike is too dear." among several options: which one is not read, none is judged
            unsure = target is None and len(self.paragraph) > 1 and described(clause, self.kinds)
            if unsure and typed(clause):
                self.notes.append(clause)
            return target, clause, unsure
        # "the second has 2 years", "the third is over budget": the ordinal is no evidence
        target = at_place(self.group or list(self.paragraph), place[0])
        if target is None:  # a place among no options named: nobody is judged
            if typed(clause):
                self.notes.append(clause)
            return None, clause, True
        return target, clause[place[1]:], False


__all__ = ["PlacedVerdicts", "at_place", "described", "ordinal_reference", "repeat_cut", "respective_verdicts",
           "shared_predicates", "shifted"]
