"""Verdicts that speak of several options at once, resolved against the options mentioned before them.

"The last two fail", "the first three are out", "all others pass", "the other two are out", "neither works",
"none of them qualifies", "only HS3 survives", "SU-1 is the only one left": the reader (``relaykit.handoff.
evidence``) keeps the ids of the current paragraph in the order they were first named, and these helpers say
which of them a sentence judges, and how. A selector that does not fit the options known (three named where
"the other two" are meant) judges nobody: the verdict stays unknown rather than guessed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mypy_extensions import trait

from relaykit.handoff.lexicon import verdict_of
from relaykit.handoff.table import Row

_COUNTS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
           "ten": 10, "both": 2}
_COUNT = r"(?P<n>one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2})"
_SELECTOR = re.compile(
    r"^(?:(?:so|and|but|then|thus|hence|therefore|while|whereas),?\s+)?(?:"
    rf"(?:the\s+)?(?P<end>first|last|final|top|bottom)\s+{_COUNT}(?:\s+(?:ones?|options?|of them|candidates?))?"
    r"|(?P<others>(?:all\s+(?:the\s+)?)?(?:the\s+)?(?:others?|rest|remaining(?:\s+ones?)?)"
    rf"(?:\s+{_COUNT.replace('?P<n>', '?P<m>')})?(?:\s+(?:ones?|options?|candidates?))?"
    r"|(?:all|every|each)\s+(?:the\s+)?other(?:\s+(?:ones?|options?|candidates?))?"
    r"|(?:everything|everyone|everybody|all)\s+else)"
    r"|(?P<ordinals>(?:the\s+)?(?:first|second|third|fourth|fifth|last)"
    r"(?:(?:\s*,\s*|\s+and\s+|\s*&\s*)(?:the\s+)?(?:first|second|third|fourth|fifth|last))+(?:\s+(?:ones|options))?)"
    r"|(?P<all>all\s+" + _COUNT.replace("?P<n>", "?P<k>") + r"(?:\s+of\s+them)?|all(?:\s+of\s+(?:them|these|those))?"
    r"|they\s+all)"
    r"|(?P<neither>neither(?:\s+(?:one|of them|option))?|none(?:\s+of\s+(?:them|these|those|the\s+\w+))?"
    r"|(?:no|not one)\s+other(?:\s+(?:one|option|candidate|offer)s?)?"
    r"|nothing(?:\s+else)?(?=\s+(?:works|passes|qualifies|fits|survives)))"
    r")(?=\s|[,:.!]|$)",
    re.IGNORECASE)
"""The start of a clause that names a group of options by position or as "the others", "neither", "none"."""
GROUP_START = _SELECTOR
"""``_SELECTOR`` for the reader: tested before a clause's options in order are even listed."""
GROUP_OPENERS = frozenset({"so ", "so,", "and", "but", "the", "thu", "hen", "whi", "whe", "fir", "las", "fin", "top",
                           "bot", "all", "eve", "eac", "oth", "res", "rem", "sec", "thi", "fou", "fif", "nei", "non",
                           "no ", "not"})
"""The first three letters (lower case) of every clause ``GROUP_START`` may match: a set test before the regex."""
_ONLY_BEFORE = re.compile(r"(?:^|\b(?:so|and|but|then|thus|hence|therefore|that)\s+|[,:;]\s*)"
                          r"(?:only|none but|nothing but|no one but|nobody but)\s+$", re.IGNORECASE)
_ONLY_AFTER = re.compile(r"^\s+(?:is|was|remains|stays)\s+(?:the\s+)?only\s+(?:one|option|candidate)\b"
                         r"|^\s+alone\b", re.IGNORECASE)
""""Only SU-1 ..." and "SU-1 is the only one ..." / "SU-1 alone ...": one option passes, so the others fail."""


_LIST_HEAD = re.compile(r"^(?:in (?:that |this |the same )?order|respectively|in turn|verdicts?|decisions?|results?)"
                        r"\s*[:,–—-]?\s*", re.IGNORECASE)
_LIST_ITEM = re.compile(r"\s*(?:,|;|/|\band\b|\bthen\b)\s*")
_LIST_WORDS = {"yes": "pass", "ok": "pass", "pass": "pass", "in": "pass", "keep": "pass", "go": "pass", "✓": "pass",
               "no": "fail", "fail": "fail", "out": "fail", "drop": "fail", "no-go": "fail", "nok": "fail",
               "✗": "fail"}


def listed_verdicts(clause: str, count: int) -> list[str] | None:
    """The verdicts of an id-less list "In order: no, no, yes, no." (one per option of the group named before,
    in turn); None unless the clause is such a list of ``count`` verdicts."""
    head = _LIST_HEAD.match(clause)
    if head is None:
        return None
    said = [_LIST_WORDS.get(w.strip(" .!").lower()) for w in _LIST_ITEM.split(clause[head.end():].strip(" .!"))]
    verdicts = [v for v in said if v]
    return verdicts if len(verdicts) == len(said) == count else None


def _count(said: str | None) -> int | None:
    if said is None:
        return None
    return int(said) if said.isdigit() else _COUNTS.get(said.lower())


def group_verdict(clause: str, order: Sequence[str], named: Sequence[str], pair: Sequence[str] | None,
                  subject: str | None) -> tuple[list[str], str] | None:
    """The options an id-less clause judges together, and the verdict ("the last two fail" -> the last two of
    ``order``, ``"fail"``). ``order``: the ids of the paragraph (or trace) in the order first named; ``named``:
    the ids of the same sentence; ``pair``: the two ids a clause named together last; ``subject``: the option
    spoken of last. None when the clause is no such verdict; no ids when its group does not fit ``order``
    (the verdict then stays unknown: "the other one is out" among three)."""
    found = _SELECTOR.match(clause)
    # the group's own predicate: "Neither works: the first covers too little ..." is judged by "works"
    verdict = verdict_of(_EXPLAINED.split(clause[found.end():], 1)[0]) if found is not None else None
    if found is None or verdict is None:
        return None
    said = found.group(0).lower()
    if found.group("ordinals"):  # "the first and third fail"
        at = [_ORDINALS[w] for w in _ORDINAL_WORDS.findall(said)]
        return ([order[k] for k in at] if all(-len(order) <= k < len(order) for k in at) else []), verdict
    if found.group("all"):  # "all three are out", "all of them pass"
        n = _count(found.group("k"))
        return (list(order) if n is None or n == len(order) else []), verdict
    if found.group("neither"):
        if verdict == "fail":  # "neither is over budget" says less than a verdict
            return [], verdict
        verdict = "fail"  # "neither works", "none of them qualifies": a pass word negated
        if _OTHER.search(said) is None:  # "none of the others", "nothing else", "no other option": the others
            neither = "neither" in said
            ids = list(pair) if neither and pair else list(order) if not neither or len(order) == 2 else []
            return ids, verdict
    elif found.group("end"):
        n = _count(found.group("n"))
        if n is None or n > len(order) or n == 0:
            return [], verdict
        first = found.group("end").lower() in ("first", "top")
        return (list(order[:n]) if first else list(order[-n:])), verdict
    return _others(said, _count(found.group("m")), order, named, subject), verdict


def _others(said: str, wanted: int | None, order: Sequence[str], named: Sequence[str],
            subject: str | None) -> list[str]:
    """The options other than those of the sentence (or, when it names none, than the one spoken of last);
    none when they are not as many as said ("the other two", "the other" for one)."""
    excluded = set(named) or ({subject} if subject else set())
    others = [i for i in order if i not in excluded]
    single = said.rstrip().endswith("other") and wanted is None  # "the other is our pick"
    if not excluded or (wanted is not None and wanted != len(others)) or (single and len(others) != 1):
        return []
    return others


_EXPLAINED = re.compile(r"[:;,(]|\s[-–—]\s")
_ORDINALS = {"first": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4, "last": -1}
_ORDINAL_WORDS = re.compile(r"first|second|third|fourth|fifth|last")
_OTHER = re.compile(r"\bother|\belse\b|\brest\b|\bremaining\b")


def only_one(clause: str, option_id: str) -> bool:
    """Whether ``clause`` (naming ``option_id``) says that option alone is left ("Only HS3 survives.", "SU-1 is
    the only one left", "none but LH-401 makes it"): with a pass verdict, the others fail."""
    if "nly " not in clause and "alone" not in clause and "ne but" not in clause and "ng but" not in clause \
            and "dy but" not in clause:
        return False  # most clauses, decided without a regex ("none but", "nothing but", "nobody but")
    at = clause.find(option_id)
    if _ONLY_BEFORE.search(clause[:at]) is None and _ONLY_AFTER.match(clause[at + len(option_id):]) is None:
        return False
    return verdict_of(clause) == "pass"


_EXCEPT_BEFORE = re.compile(r"\b(?:except(?:\s+for)?|but|apart\s+from|other\s+than|save(?:\s+for)?|besides|"
                            r"with\s+the\s+exception\s+of)\s+$", re.IGNORECASE)
_EXCEPT_PART = re.compile(r"\b(?:except(?:\s+for)?|but|apart\s+from|other\s+than|save(?:\s+for)?|besides|"
                          r"with\s+the\s+exception\s+of)\s+\S+", re.IGNORECASE)
_EVERY = re.compile(r"\b(?P<no>none|nothing|no\s+(?:other\s+)?(?:option|one|candidate)s?|neither)\b"
                    r"|\b(?:every|all|each|everything|everyone|the\s+(?:rest|others))\b", re.IGNORECASE)


def may_except(clause: str) -> bool:
    """Whether ``clause`` holds part of an exception word ``excepted`` reads (substring tests: most clauses)."""
    return "xcept" in clause or "but " in clause or "part " in clause or "ther than" in clause \
        or "save" in clause or "esides" in clause


def excepted(clause: str, option_id: str) -> tuple[str, str] | None:
    """The verdicts of "every option fails except LM6" / "Except for LM6, all pass" / "none qualifies but LM6": the
    one the others take and the opposite one the excepted option takes; None for any other clause."""
    at = clause.find(option_id)
    if at < 0 or _EXCEPT_BEFORE.search(clause[:at]) is None:
        return None
    every = _EVERY.search(clause)
    if every is None:
        return None
    if every.group("no"):
        return "fail", "pass"
    said = verdict_of(_EXCEPT_PART.sub("", clause, count=1))
    return (said, "pass" if said == "fail" else "fail") if said else None


_STRUCK = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~|<(?:s|del|strike)>(.+?)</(?:s|del|strike)>", re.IGNORECASE)
_STRIKE_MARKS = re.compile(r"~~|</?(?:s|del|strike)>", re.IGNORECASE)


@trait
class GroupVerdicts:
    """The evidence reader's part that judges several options at once (a mixin of ``evidence._Reader``)."""

    rows: dict[str, Row]
    paragraph: dict[str, None]  # the paragraph's ids, in the order first named
    named_ids: list[str]  # the ids of the sentence being read
    listed: str | None  # the verdict of the heading the list being read sits under ("Rejected:")
    pair: tuple[str, str] | None
    group: list[str] | None
    subject: str | None

    def ids(self, text: str) -> list[str]:
        raise NotImplementedError

    def _row(self, option_id: str) -> Row:
        raise NotImplementedError

    def marked_line(self, line: str) -> None:
        """Read a line with what only whole lines say (``line`` reads the rest): options struck through and
        lists under a verdict heading."""
        struck = self.struck(line) if "~~" in line or "</" in line else []
        if (self.listed is not None or line[-1:] == ":") and self._listed(line):
            return  # "Rejected:" heads a list: no remark on the option before
        self.line(_STRIKE_MARKS.sub("", line) if struck else line, plain=True)
        for option_id in struck:  # "- ~~ST-41: 780 EUR~~": an option struck through is crossed off
            self._row(option_id).verdicts += "f"
        if self.listed is not None and line.strip():
            self._judge(self.ids(line), self.listed)

    def line(self, line: str, plain: bool = False) -> None:
        raise NotImplementedError

    def struck(self, line: str) -> list[str]:
        """The ids inside ``~~...~~`` spans of ``line``: options struck through (crossed off)."""
        return [i for m in _STRUCK.finditer(line) for i in self.ids(m.group(1) or m.group(2))]

    def _listed(self, line: str) -> bool:
        """A list under a verdict heading ("Shortlist:", "Rejected:") until a blank line: its options take
        the heading's verdict (unless they have one of their own). True for such a heading line."""
        said = line.strip().rstrip(":")
        if not said:
            self.listed = None
        elif line.rstrip().endswith(":") and len(said.split()) <= 3 and not self.ids(said):
            self.listed = verdict_of(said)
            return self.listed is not None
        return False

    def _order(self) -> list[str]:
        """The options a collective verdict may speak of: the paragraph's (else the trace's) in order."""
        named = self.named_ids
        return list(self.paragraph if any(i not in named for i in self.paragraph) else self.rows)

    def _judged_together(self, clause: str) -> bool:
        """Judge the options an id-less clause speaks of together ("the last two fail"); False when it is no
        such verdict (most clauses: decided by their first letters, then ``GROUP_START``)."""
        only = clause[:5].lower() == "only "  # "only the first one qualifies": the others fail
        if only:
            clause = clause[5:]
        if clause[:3].lower() not in GROUP_OPENERS or GROUP_START.match(clause) is None:
            return False
        pair = self.pair if self.group and len(self.group) == 2 else None
        found = group_verdict(clause, self._order(), self.named_ids, pair, self.subject)
        if found is not None:
            self._judge(*found)
            if only and found[1] == "pass":
                self._judge([i for i in self._order() if i not in found[0]], "fail")
        return found is not None

    def _listed_in_turn(self, clause: str) -> bool:
        """Judge the group named before by an id-less list of verdicts ("In order: no, no, yes, no.")."""
        group = self.group or []
        said = listed_verdicts(clause, len(group)) if len(group) > 1 else None
        for option_id, verdict in zip(group, said or (), strict=False):
            self._row(option_id).verdicts += verdict[0]
        return said is not None

    def _only_one(self, clause: str, ids: list[str]) -> None:
        """After a clause naming one option: when it says that option alone is left, the others fail."""
        if len(ids) == 1 and ("nly " in clause or " but" in clause or "alone" in clause) and only_one(clause, ids[0]):
            self._judge([i for i in self._order() if i != ids[0]], "fail")

    def _excepted(self, clause: str, ids: list[str]) -> str | None:
        """After a clause naming one option as the exception to a group verdict ("all pass but LM6"): the others
        take the group's verdict; the excepted option's verdict is returned."""
        said = excepted(clause, ids[0]) if len(ids) == 1 else None
        if said is None:
            return None
        self._judge([i for i in self._order() if i != ids[0]], said[0])
        return said[1]

    def _judge(self, ids: list[str], verdict: str) -> None:
        """A verdict said of several options at once: it goes to those without a verdict of their own."""
        for option_id in ids:
            row = self._row(option_id)
            if not row.verdicts:
                row.verdicts = verdict[0]


__all__ = ["GROUP_OPENERS", "GROUP_START", "GroupVerdicts", "excepted", "group_verdict", "listed_verdicts",
           "may_except", "only_one"]
