"""What keeps a verdict phrase of the hand-off reader (``relaykit.handoff.lexicon``) from judging an option: the
words around it. A negation or a condition before it ("not a fit", "would only pass if", "there is no reason to
drop HP1"), something other than an option for its object ("we keep 2 spare keys", "dropped its price", "passes
the savings on"), a phrasal verb ("pays out on"), a ticket ("a day pass"), a capacity ("fits 60 people"), an
action that failed ("failed to call back"). ``lexicon``'s fail and pass verdicts ask these before they judge.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from relaykit.handoff.idioms import NEGATED_AFTER, NEGATED_BEFORE


@dataclass(frozen=True)
class _Tail:
    """A pattern that only matches the last few words before a place ("not" before a pass word), and how many
    whitespace-separated words a match spans at most."""

    pattern: re.Pattern[str]
    words: int

    def before(self, text: str, end: int) -> re.Match[str] | None:
        """``pattern.search(text[:end])``, searched from where the last ``words`` words before ``end`` start, not
        from every position of the text (no match can start before; ``\\b`` still sees the text before)."""
        head = text[:end].rsplit(None, self.words)
        return self.pattern.search(text, len(head[0]) if len(head) > self.words else 0, end)


_WOULD_BEFORE = _Tail(re.compile(r"\b(?:would|could|might|may)\s+(?:only\s+|still\s+|have\s+)?"
                                 r"(?:be\s+|been\s+)?$", re.IGNORECASE), 3)  # "would only be"
_MODALS = frozenset({"would", "could", "might", "may"})
_CONDITION = re.compile(r"\b(?:if|unless|should|once)\b", re.IGNORECASE)
_NOT_BEFORE = _Tail(re.compile(r"\b(?:not|never|no longer|isn't|isn’t|aren't|wasn't|doesn't|don't|didn't|won't|"
                               r"can't|cannot|hardly|" + NEGATED_BEFORE + r")\s+"
                               r"(?:(?:be|been|being|get|make|makes|made)\s+)?(?:an?\s+|the\s+)?$",
                               re.IGNORECASE), 4)  # "no longer be a"
_NEGATED_SCOPE = re.compile(
    r"\b(?:nothing|nobody|no one|none of (?:the |our |these |its |their )?[a-z]+|no (?:reason|grounds?|need|cause|"
    r"basis|point|justification)|(?:[a-z]+n['’]t|not|never|cannot)\b[^,;]{0,20}\b(?:any|a) (?:reason|grounds?|"
    r"need|cause|basis)|[a-z]+n['’]t|far from|wrong|premature|too early|never|not)"
    r"\s+(?:(?:to|be|been|being|have|has|yet|really|actually|anyone|anything|so|far|here|we|i|us|for|it|going|gonna|would|could|will|should|can|may|might|ever|even)\s+)*$",
    re.IGNORECASE)
"""A negation a few words before a fail ("there is no reason to drop", "nothing rules out", "should not be ruled
out", "none of the checks excluded"): the option is not eliminated."""
_NEGATIONS = frozenset({"nothing", "nobody", "no", "none", "not", "never", "wrong", "premature", "early", "cannot",
                        "far", "necessary", "needed", "warranted", "justified", "called", "unnecessary",
                        "unwarranted", "unjustified", "unneeded"})
"""The words ``_NEGATED_SCOPE`` and ``_NEEDLESS_AFTER`` need (or "n't"): without them they are not run."""
_NEEDLESS_AFTER = re.compile(r"[^,;.]{0,30}?\b(?:is|was|are|were|seems|would be)\s+(?:not\s+|un)"
                             r"(?:necessary|needed|warranted|justified|called for)\b", re.IGNORECASE)
"""A fail said to be needless after it ("dropping MR7 is not necessary")."""
_JUDGED_OBJECT = frozenset({"keep", "keeps", "we keep", "rejects", "rejected", "reject", "dropped", "drops", "drop",
                            "pass on", "passed on", "passes on"})
"""Verdict words that judge only when their object is an option: "we keep 2 spare keys", "rejects claims over
5,000 USD", "dropped its price", "passed on the savings" judge nothing."""
_OTHER_OBJECT = re.compile(
    r"\s+(?:\d|(?:its|their|his|her|our|my|your|us|me|some|spare|extra|several|many|more|claims)\b"
    r"|(?P<the>the\s+(?!(?:former|latter|first|second|third|last|other|one|ones|rest|remaining|option|offer)\b)"
    r"(?!\w*\d)[a-z]+(?:\s+[a-z]+)?(?=\s+(?:to|on|for|from|in|at|of|with)\b|\s*[,;.]|\s*$)))", re.IGNORECASE)
"""What follows such a word where it acts on something else than an option (a number, a possessive, a noun)."""
_WRITER = re.compile(r"\b(?:we|i|let['’]s|we['’]ll|we['’]ve|we['’]re|i['’]ll)\s+(?:\w+\s+)?$", re.IGNORECASE)
"""The writer as the subject: "we reject the hotel on price" judges the option a noun names."""

_FAIL_TO = frozenset({"fail", "fails", "failed"})
_FAILED_ACTION = re.compile(r"\s+to\s+(?!(?:meet|satisfy|clear|qualify|match|make|fit|pass|comply|reach|stay|"
                            r"keep|be|get|come|deliver|provide|offer|cover|hit)\b)[a-z]", re.IGNORECASE)
"""After "failed": an action it failed at, no verdict ("the driver failed to call back"); "failed to meet the
budget" stays one."""
_PASS_ON = frozenset({"pass", "passes", "passed"})
_ON = re.compile(r"\s+(?:on\b|by\b|(?:every|each)\s+\d|(?:\S+\s+){1,5}on\s+to\b)", re.IGNORECASE)
"""After "passes": a pass-on, a passing-by or a frequency ("passes the savings on to guests", "every 20 minutes")."""
_PASS_NOUNS = frozenset({"pass", "passes"})
_TICKET_BEFORE = _Tail(re.compile(r"\b(?:day|week|weekly|month|monthly|season|annual|ski|bus|boarding|train|rail|"
                                  r"metro|museum|city|travel|guest|visitor|backstage|gym|parking|press|access|"
                                  r"transit|\d+-day|multi-day|hall|free|spa|pool)\s+$", re.IGNORECASE), 1)
"""Before "pass": a ticket ("a day pass", "the ski pass"), not a verdict."""
_RELATIVE_BEFORE = re.compile(r"\b(?:anything|everything|whatever|what|than)\s+(?:[a-z]+\s+){1,3}$", re.IGNORECASE)
"""Before a pass word: what someone else approved or accepts ("beyond anything finance approved")."""
_RELATIVES = frozenset({"anything", "everything", "whatever", "what", "than"})
_PRESENT = frozenset({"keep", "keeps", "we keep", "rejects", "reject", "drops", "drop"})
_BARE_OBJECT = re.compile(
    r"\s+(?!(?:it|them|this|that|these|those|both|all|either|neither|one|ones|options?|candidates?|the|a|an|and|or|"
    r"but|for|on|in|at|as|out|off|now|too|also|instead|again|entirely|outright|anyway|then|here|back|aside|because|"
    r"since|due|after|before|until|altogether|immediately|straight|right|first|second|last|former|latter|other|"
    r"others|rest|remaining|only|just|him|her|us|me|you|everything|everyone|every|each|which|what|off|down|"
    r"to|from|with|without|unless|if|so|though)\b)[a-z]+\b(?![-\d])")
"""A bare noun after a present-tense keep / reject / drop: what the option keeps or rejects ("G7 rejects pets"),
no verdict on it (an id has capitals or digits)."""


def _other_object(said: str, text: str, start: int, end: int) -> bool:
    """Whether a verdict word that needs an option for its object acts on something else ("keep 2 spare keys");
    a noun after "the" is something else unless the writer is the one acting ("we drop the hotel")."""
    if said not in _JUDGED_OBJECT:
        return False
    other = _OTHER_OBJECT.match(text, end)
    if other is not None and (other.group("the") is None or _WRITER.search(text[:start]) is None):
        return True
    return said in _PRESENT and _BARE_OBJECT.match(text, end) is not None


_NOT_AFTER = re.compile(NEGATED_AFTER, re.IGNORECASE)  # "passt nicht", "convient pas"
_COUNTED = re.compile(r"\s*(?:up to\s+|about\s+|around\s+)?\d")
_APOSTROPHE_WORDS = re.compile(r"[A-Za-z']+")

_PHRASAL_OUT = frozenset({
    "pay", "pays", "paid", "paying", "carry", "carries", "carried", "work", "works", "worked", "check", "checks",
    "checked", "roll", "rolls", "rolled", "point", "points", "pointed", "figure", "figured", "hand", "hands",
    "handed", "give", "gives", "gave", "cash", "cashes", "cashed", "find", "finds", "found", "reach", "reaches",
    "reached", "sort", "sorted", "print", "prints", "printed", "stand", "stands", "standing", "stood", "spell",
    "spells", "lay", "lays", "laid", "set", "sets", "sell", "sells", "opt", "opts", "branch", "branches"})
"""Verbs that make "out" part of an action, not a verdict ("pays out on 94% of claims", "stands out on price")."""


def _phrasal_out(text: str, match: re.Match[str]) -> bool:
    if not text[match.start():match.end()].lower().startswith("out"):
        return False
    before = _APOSTROPHE_WORDS.findall(text[max(0, match.start() - 24):match.start()])
    return bool(before) and before[-1].lower() in _PHRASAL_OUT

