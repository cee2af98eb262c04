"""Word lists and token patterns of the inference-free hand-off reader (``relaykit.handoff.evidence``).

Nothing here names a domain's values: verdict words, narration filler and the shape of typed values
(money, number + unit, percent, clock time, date, hyphenated codes) are the same in every domain. The words
around a verdict phrase that keep it from judging are in ``guards``; the reason a fail names, in ``reasons``.
"""

from __future__ import annotations

import re

from relaykit.handoff.guards import (
    _CONDITION,
    _COUNTED,
    _FAIL_TO,
    _FAILED_ACTION,
    _MODALS,
    _NEEDLESS_AFTER,
    _NEGATED_SCOPE,
    _NEGATIONS,
    _NOT_AFTER,
    _NOT_BEFORE,
    _ON,
    _PASS_NOUNS,
    _PASS_ON,
    _RELATIVE_BEFORE,
    _RELATIVES,
    _TICKET_BEFORE,
    _WOULD_BEFORE,
    _other_object,
    _phrasal_out,
)
from relaykit.handoff.idioms import (
    EXTRA_TRIGGERS,
    FOREIGN_EXTRA_FAIL,
    FOREIGN_FAIL,
    FOREIGN_PASS,
    IDIOM_FAIL,
    IDIOM_PASS,
    VERB_FAIL,
    VERB_FAIL_TRIGGERS,
    VERB_PASS,
    VERB_PASS_TRIGGERS,
)
from relaykit.handoff.phrases import (
    COMPARATORS,
    DROP_WORDS,
    FAIL_PHRASES,
    FILLER,
    PASS_PHRASES,
    REMARK_FAIL_PHRASES,
    REMARK_PASS_PHRASES,
    VERDICT_WORDS,
)
from relaykit.handoff.text import (
    CURRENCY_CODES,
    DATE_PATTERN,
    MONTH_START,
    QUANTITY_PATTERN,
    TIME_PATTERN,
    phrase_trie,
)
from relaykit.memo import remembered
from relaykit.text import STOPWORDS

LETTER = ("A-Za-z\u00aa\u00b5\u00ba\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02af\u0345\u0370-\u03ff\u0400-\u052f"
          "\u1c80-\u1c88\u1d00-\u1dbf\u1e00-\u1fff\u2126\u212a\u212b\u2c60-\u2c7f")
"""The letters a word is made of: Latin (with its accented and extended letters), Greek and Cyrillic, and the
signs that case-fold to one of them (Ohm, Kelvin, Angstrom). Ranges, not ``[^\\W\\d_]``: faster to match."""
_CODE_START = "(?=[" + "".join(sorted({code[0] for code in CURRENCY_CODES})) + "])" + phrase_trie(CURRENCY_CODES)
"""A quantity that opens with a letter opens with a currency code, then at most one space and a digit ("USD 180"):
the guard before ``QUANTITY_PATTERN`` (its first letter tested as a set, then the codes as a trie), so other
words ("distance", "dish", "users") never try it."""
TOKEN = re.compile(
    r"(?=[\w$£€¥✓✔✗✘❌✅✖👍👎\-\u2212])(?:"  # every token starts so: other positions are passed over at once
    # the same matches as the plain alternation (time|date|qty|w|mark) compiled case-insensitively, only
    # faster: case is ignored only where a letter is literal (units, codes, "pm"), and a branch is tried only
    # where its first character can stand (a digit for a time or date; a digit, a currency sign or a currency
    # code before a digit for a quantity)
    rf"(?=\d|(?i:{MONTH_START}))(?:(?P<time>(?i:{TIME_PATTERN}))|(?P<date>{DATE_PATTERN}))"
    rf"|(?=[$£€¥\d]|[-\u2212][$£€¥]?\d|(?i:{_CODE_START}\s?\d))(?P<qty>(?i:{QUANTITY_PATTERN}))"
    rf"|(?P<w>[{LETTER}][{LETTER}0-9]*(?:[-_./'+][{LETTER}0-9]+)*)|"  # "étage", "Müller", "Łódź"
    r"(?P<mark>[✓✔✗✘❌✅✖👍👎]\uFE0F?))",
)
"""One token of a clause: a typed value (time, date, quantity) or a word or a verdict symbol."""

_ID_LEAD = r"(?:[\w-]*\d[\w-]*\s*(?:[:→=–—-]|->)?\s*)?"
"""An option id (and a separator) before a one-word verdict ("TK4 → go", "TK1: nok", "FJ-2 no")."""
_FAIL_EXTRA = (r"too (?:pricey|expensive|costly|dear|far|distant|small|big|large|slow|junior|old|late|early|few|"
               r"little|short|long|noisy|cramped|high|low|remote)"
               r"|too (?!many\b|much\b)[a-z]+(?=\s*(?:[,.;:!)]|$|[-–—]|(?:for|to|and|so|but|anyway)\b))"
               r"|(?:over|above|exceeds?|exceeding|past) (?:(?:our|the|my|their|its) )?(?:[\w.,-]+ ){0,2}"
               r"(?:limit|budget|cap|ceiling|maximum|max)\b"  # "over our limit", "above the 10 USD cap"
               r"|(?<=[-–—,] )(?:no|nope)(?=\s*[.!]?\s*$)"  # "Too heavy - no.", "3 drawers, nope"
               r"|(?:does|do|did|is|are|was|were)(?: not|n['’]t)(?=\s*[.!]?\s*$)"  # "...; it does not.", "X don't"
               r"|(?:put|rule|knock|count|leave|cross|strike|struck)(?:s|ting|ing|ed)? (?:[\w-]+ ){1,2}"
               r"(?:out|off)\b(?! of)"  # "which puts IP42 out", "rules CR7 out", "crossed VX2 off"
               r"|(?:so|so,|that's|that is|it's|it is|thus|hence|he's|she's|they're|he is|she is|they are|is|was)"
               r"(?: a| an)? (?:clear |firm |definite |hard )?no"
               r"(?![\w-]|\s*(?!(?:from|for) (?:me|us)\b)[A-Za-z0-9])"  # "so that's a no", "a no from me"
               r"|(?:^|(?<=[,;:]\s)|(?<=[-–—]\s)|(?<=[,;:=]))out(?=\s*[.!]?\s*$)"  # "..., too pricey, out."
               r"|(?:set|sets|setting|put|puts|putting|lay|lays|laying|laid) (?:[\w-]+ ){1,2}aside"  # "set KX8 aside"
               r"|(?:not|no longer|hardly) (?:really |quite |exactly |truly |much of )?(?:an? )?"
               r"(?:option|viable|contender)"  # "not really an option"
               r"|(?:^|(?<=[–—] ))(?:drop|cut|veto|reject|nix|scrap|ditch|skip|bin|nope|nah|no way)"
               r"(?=\s*[.!]*\s*$)"  # "Drop." alone, "... — drop."
               r"|(?:he|she|it|they|that)(?:['’]s|['’]re) out(?! of)"  # "she's out" ("that's out of the running")
               # a bare "No." after what an option offers (not after a question: evidence); "TK1: nok", "ko"
               r"|^" + _ID_LEAD + r"(?:no|nok|ko)(?=\s*[.!,;]*\s*$)"
               r"|(?:verdict|decision|status|outcome)\s*[:=]\s*(?:out|no|nok|ko|drop|reject)(?![\w-])"
               r"|(?:clears|meets|satisfies|passes|fits) [^,;]{0,40}\bbut not\b"  # "meets the budget but not ..."
               r"|^not [\w-]*\d[\w-]*(?=\s*[:.!,;–—-]|\s*$)"  # "Not HW4: 12 km out."
               r"|^(?:dropping|rejecting|excluding|eliminating|scrapping|ditching|removing|cutting) "
               r"[\w-]*\d[\w-]*(?= (?:seems|is|looks|sounds|makes|was)\b)"  # "Dropping HW9 seems wise"
               r"|(?:^|(?<=[,;] ))(?:[\w-]*\d[\w-]*|it|this one|that one) (?:goes|(?:has|have|had) to go|"
               r"(?:must|should|can|will) go)(?=\s*[.!]?\s*$)"  # "HV5 goes.", "it has to go"
               "|" + VERB_FAIL + "|" + FOREIGN_EXTRA_FAIL)  # "which sinks AN6", "zu klein" (see ``idioms``)
# "Wrong day.", "it's the wrong region", "not the right size" (not "nothing wrong with it"): run only on clauses
# with "wrong" or "right"
_WRONG = (r"(?:(?:^|(?<=[-–—,:;] )|(?<=is )|(?<=are )|(?<=was )|(?<=['’]s ))(?:the )?wrong [a-z]+(?: [a-z]+)?"
          r"|not (?:the )?right [a-z]+)(?=\s*[.!]*\s*$)")


_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s"})


def folded(text: str) -> str:
    """``text`` in lower case, character for character (the same length, so a match's place is the place in
    ``text``): the phrase patterns below read it, compiled case-sensitively, which is several times faster
    than ignoring case and matches the same (İ, ı and ſ fold to i and s, as case-insensitive matching takes
    them; the Kelvin sign lower-cases to k)."""
    if text.isascii() or not ("\u0130" in text or "\u0131" in text or "\u017f" in text):
        return text.lower()  # (``translate`` goes through the text a character at a time: only where it must)
    return text.translate(_FOLD).lower()


_MORE_FAIL = IDIOM_FAIL + FOREIGN_FAIL
_MORE_PASS = IDIOM_PASS + FOREIGN_PASS
FAIL_PHRASE_PATTERN = r"(?<![\w-])(?:" + phrase_trie(FAIL_PHRASES + REMARK_FAIL_PHRASES + _MORE_FAIL) + r")(?![\w-])"
FAIL_EXTRA_PATTERN = r"(?<![\w-])(?:" + _FAIL_EXTRA + r")(?![\w-])"
_FAIL_PHRASE_RE = re.compile(FAIL_PHRASE_PATTERN)  # on folded text, as every phrase pattern here
_FAIL_EXTRA_RE = re.compile(FAIL_EXTRA_PATTERN)
_WRONG_RE = re.compile(r"(?<![\w-])(?:" + _WRONG + r")(?![\w-])")
_RARE = (r"not (?:[a-z-]+ )?enough\b(?! (?:to|of)\b)"  # "not senior enough"
         r"|(?:breaks|busts|blows|broke|bust|blew|break) (?:the|our|my|their) (?:budget|limit|cap|bank)\b"
         r"|(?:^|(?<=[,;] ))(?:[a-z]+ )?[\w-]*\d[\w-]* (?:is |are |was |were |gets |got )?"
         r"(?:marked |listed |shown |flagged |reported )?(?:as )?(?:unavailable|not available)\b")
"""Rarer fail forms (issue 12, wave 9): "not senior enough", "breaks the budget", "HT09 was marked unavailable" (the
option itself, not "the gym is unavailable"). A pattern of its own, run only on clauses with one of its words, so
the common fail pattern does not grow."""
_FAIL_RARE_RE = re.compile(r"(?<![\w-])(?:" + _RARE + r")(?![\w-])")
_RARE_TRIGGERS = frozenset({"unavailable", "available", "enough", "breaks", "busts", "blows", "broke", "bust", "blew",
                            "break"})
_EXTRA_TRIGGERS = frozenset({"goes", "go", "nah", "too", "limit", "budget", "cap", "ceiling", "maximum", "max", "no",
                             "nope", "out", "off", "not", "aside", "longer", "hardly", "drop", "cut", "veto",
                             "reject", "nix", "scrap", "ditch", "skip", "bin", "nok", "ko", "don't", "doesn't",
                             "didn't", "isn't", "aren't", "wasn't", "weren't"}) \
    | VERB_FAIL_TRIGGERS | EXTRA_TRIGGERS
"""Words one of the ``_FAIL_EXTRA`` patterns needs: without them that (slower) regex is not run."""


_last_fail: tuple[str, tuple[re.Match[str], ...]] = ("", ())


def _fail_matches(text: str, words: set[str] | None = None) -> tuple[re.Match[str], ...]:
    """The fail phrases and patterns of ``text`` in order of position. The answer for the last text is kept:
    the reader asks for the verdict, the reason and the spans of one clause in turn."""
    global _last_fail
    last = _last_fail
    if last[0] == text:
        return last[1]
    low = folded(text)  # the matches are of this text: read what they matched from ``text`` by their span
    found = tuple(_FAIL_PHRASE_RE.finditer(low))
    said = words if words is not None else set(_TOKENS.findall(text.lower()))
    if not _EXTRA_TRIGGERS.isdisjoint(said):
        found = tuple(sorted([*found, *_FAIL_EXTRA_RE.finditer(low)], key=lambda m: m.start()))
    if "wrong" in said or "right" in said:
        found = tuple(sorted([*found, *_WRONG_RE.finditer(low)], key=lambda m: m.start()))
    if not _RARE_TRIGGERS.isdisjoint(said):
        found = tuple(sorted([*found, *_FAIL_RARE_RE.finditer(low)], key=lambda m: m.start()))
    _last_fail = (text, found)
    return found
# "keep.", "works for us", "so it stays."; "she's in.", "still in" (at a clause's end only: "is in the centre")
_PASS_EXTRA = (r"(?:keep|keeping|works|stays)(?=\s*(?:[.!,;)]|$|for (?:us|me|the)|fine|well|great))"
               r"|(?:(?:she|he|it|they|that|this one)(?:['’]s|['’]re| is| are)|stays|remains|still|is|are|back)"
               r" (?:still )?in"
               r"(?=(?: again| too| after all)?\s*(?:[.!,;)]|$))"  # "back in after all"
               r"|(?:motion|resolution|proposal)\b[^.;:]{0,60}?\s(?:carried|adopted)(?![\w-])"  # minutes
               r"|wins(?=\s*(?:[.!,;)]|$|(?:on|out|overall|hands down)\b))")  # "TL2 wins.", "wins on price"
# "Good.", "that's fine then", "... per day - fine.", "seats 12, fine", "SA1 is fine", "so R4 it is",
# "Recommendation: LH-401.": a clause that only approves (a bare word, after a dash or comma, or after an id-like
# word; "the view is fine" is not one).
# A pattern of its own, run only on clauses with one of its words: its alternatives are anchored at a clause start.
_APPROVAL = (r"(?:^(?:(?:so|ok|okay|then|for us|for me),? )?(?:(?:that|it|this|this one|that one)(?:['’]s| is) "
             r"|the (?:former|latter|first|second|third|last|other)(?: one)? (?:is|looks|seems) "
             r"|(?:all|looks|seems|sounds|very) |(?:[a-z]+ )?[\w-]*\d[\w-]* (?:is|looks|seems) )?"
             r"|(?<=[-–—,] )(?:[\w-]*\d[\w-]* (?:is|looks|seems) )?)"  # "at 1.1 km, HX2 is fine"
             r"(?:fine|good|great|perfect|ideal|excellent|nice)(?= then| too| by me| for us| with me|\s*[.!]*\s*$"
             r"|,? (?:and )?not (?:[a-z-]+ )?[a-z-]+\s*[.!]*\s*$)"  # "CX9 is fine, not out"
             r"|^(?:(?:so|ok|okay|then),? )?[\w-]*\d[\w-]* it is(?=\s*[.!]*\s*$)"
             r"|^(?:(?:so|ok|okay|then),? )?(?:this|that|it|[\w-]*\d[\w-]*)(?:['’]s| is) the one(?=\s*[.!]*\s*$)"
             r"|^(?:our |my |the |final |top )?(?:recommendation|choice|pick|winner|selection)"
             r"(?=(?:\s*[:=–—-]|\s+(?:is|goes to|would be))\s*[\w-]*\d[\w-]*\s*[.!]*\s*$)"
             r"|^" + _ID_LEAD + r"(?:go|booked)(?=\s*[.!]*\s*$)"  # "TK4 → go", "BK5: Booked."
             r"|^[\w-]*\d[\w-]*\s*(?:[:→=–—-]|->)?\s*yes(?=\s*[.!,;]*\s*$)"  # "FJ-1 yes,"
             r"|(?:verdict|decision|status|outcome)\s*[:=]\s*(?:go|in|yes|keep|good|fine|pass|accepted|approved)"
             r"(?![\w-])")  # "verdict=in", "Verdict: good."
_APPROVAL_RE = re.compile(_APPROVAL)  # on folded text
_APPROVAL_WORDS = frozenset({"fine", "good", "great", "perfect", "ideal", "excellent", "nice", "recommendation",
                             "choice", "pick", "winner", "selection", "go", "booked", "yes", "verdict", "decision",
                             "status", "outcome"})
PASS_PATTERN = (r"(?<![\w-])(?:" + phrase_trie(PASS_PHRASES + REMARK_PASS_PHRASES + _MORE_PASS) + "|" + _PASS_EXTRA
                + "|" + VERB_PASS + r")(?![\w-])")
_PASS_RE = re.compile(PASS_PATTERN)  # on folded text
_AN_ID = r"[\w-]*\d[\w-]*"
"""A word with a digit (an option id). Written ``[A-Za-z]*[\\w-]*\\d[\\w-]*`` before: the same words, with a
backtracking cost for every split of the letters between the two runs."""
ELLIPTICAL = re.compile(rf"^(?:(?:so|as|and so)\s+(?:is|does|was|did|are|were)\s+{_AN_ID}"
                        rf"|(?:same (?:for|with|goes for)|likewise|ditto|also|and)\s+{_AN_ID}"
                        rf"|{_AN_ID},?\s+(?:(?:does|did|is|was|do|are)\s+)?(?:too|as well|also|likewise|ditto)"
                        rf"|{_AN_ID},?\s+(?:(?:too|as well|also),?\s+)?"
                        r"(?:due to|because of|owing to|over|on account of)\s+[^,;]+)"
                        r"\s*[.!]*\s*$", re.IGNORECASE)
"""A clause that only adds its option to the verdict before ("LP2 too.", "So is LP4.", "Q103 due to cost.")."""
CORRECTION = re.compile(r"\b(?:(?:after all|corrected|on second thoughts?|on reflection|reconsidered|reinstated|"
                        r"changed (?:our|my) minds?|in the end|back on the (?:short)?list|back in)\b"
                        r"|(?:update[ds]?|correction)\s*:)", re.IGNORECASE)
"""A verdict that corrects those before it ("SV3 is ok after all", "Update: HT02 is fine"). Only words that mark a
change of mind: "actually" or "the revised check" beside a pass would turn an eliminated option into a pass."""
PRONOUN_START = re.compile(r"^(?:[A-Za-z][A-Za-z' ]{0,30},\s+)?"  # a lead-in: "After some debate, it stays."
                           r"(?:it|its|it's|this one|this option|that one|they|their|the former|the latter)\b",
                           re.IGNORECASE)
_TOKENS = re.compile(r"[a-z0-9]+(?:['’-][a-z0-9]+)*")


def _key_word(phrase: str) -> str:
    words = _TOKENS.findall(phrase.lower())
    rare = [w for w in words if w not in STOPWORDS] or words  # "go" of "is a go", "met" of "not met"
    return max(rare, key=len) if rare else phrase


_RARE_WORD = {"within budget": "budget", "within the budget": "budget", "within our budget": "budget",
              "the only one left": "left", "only one left": "left", "only option left": "left",
              "only candidate left": "left", "only choice left": "left", "only one remaining": "remaining",
              "only option remaining": "remaining", "meets both": "meets", "satisfies both": "satisfies",
              "clears both": "clears", "gets the nod": "nod", "sole survivor": "survivor", "only survivor": "survivor",
              "don't make it": "make", "doesn't make it": "make", "does not make it": "make", "do not make it": "make",
              "didn't make it": "make", "did not make it": "make", "don't fit": "fit", "do not fit": "fit",
              "doesn't fit": "fit", "does not fit": "fit", "let's book": "book", "i'll book": "book",
              "we're booking": "booking", "we'll book": "book", "we will book": "book", "we book": "book",
              "no longer available": "longer"}
"""The trigger word of a phrase where ``_key_word`` would pick a common one ("within" of "within budget")."""


def _trigger(phrase: str) -> str:
    return _RARE_WORD.get(phrase) or _key_word(phrase)


_MARKS = frozenset(p for p in PASS_PHRASES + FAIL_PHRASES if not _TOKENS.search(p))
_FAIL_TRIGGERS = frozenset(_trigger(p) for p in FAIL_PHRASES + REMARK_FAIL_PHRASES + _MORE_FAIL if p not in _MARKS) | {
    "wrong", "right", "does", "do", "did"} | _EXTRA_TRIGGERS | _RARE_TRIGGERS  # "wrong" / "right": _WRONG
_PASS_TRIGGERS = frozenset(_trigger(p) for p in PASS_PHRASES + REMARK_PASS_PHRASES + _MORE_PASS if p not in _MARKS) | {
    "keep", "keeping", "works", "stays", "in", "carried", "adopted", "wins"} | VERB_PASS_TRIGGERS
_TRIGGERS = _FAIL_TRIGGERS | _PASS_TRIGGERS | _APPROVAL_WORDS
"""One word of every verdict phrase and pattern: a clause with none of them (and no mark) has no verdict."""
_MARK_RE = re.compile("[" + "".join(sorted(_MARKS)) + "]")


def may_judge(text: str) -> bool:
    """Whether ``text`` may hold a verdict at all: a cheap word-set test before the phrase regexes."""
    return not _TRIGGERS.isdisjoint(_TOKENS.findall(text.lower())) or _MARK_RE.search(text) is not None \
        or _it_is(text)


def _it_is(text: str) -> bool:
    """Whether a clause ends "... it is" or "... the one" ("so R4 it is", "This is the one."): a pick, read
    without making "it" or "one" a trigger word."""
    return text.rstrip(" .!").endswith((" it is", " the one"))


@remembered
def verdict_of(text: str) -> str | None:
    """``"fail"``, ``"pass"`` or None for one clause; a fail phrase wins, and "not" before a pass is a fail. A fail
    said not to happen ("not rejected") leaves only an unnegated pass ("CX4 is acceptable, not rejected"); what a
    third party said ("the owner said it is perfect") is no verdict."""
    if text.endswith("?"):
        return None  # "Should we drop HT4?": a question, not a verdict
    words = set(_TOKENS.findall(text.lower()))
    marked = not text.isascii() and _MARK_RE.search(text) is not None  # every mark is outside ASCII
    said_from = len(text) if _SPEECH.isdisjoint(words) else _reported(text)
    failed = _fail_verdict(text, words, said_from) if marked or not _FAIL_TRIGGERS.isdisjoint(words) else None
    if failed == "fail":
        return failed
    passed = _pass_verdict(text, words, said_from) if marked or not _PASS_TRIGGERS.isdisjoint(words) else None
    if passed is None and (not _APPROVAL_WORDS.isdisjoint(words) or _it_is(text)):
        approved = _APPROVAL_RE.search(folded(text))  # (most clauses have no approval word)
        if approved is not None and approved.start() < said_from:
            passed = "fail" if _NOT_BEFORE.before(text, approved.start()) else "pass"
    if failed == "cleared" and passed == "fail":
        return None  # "not rejected, and not approved either": no verdict
    return passed


_SPEECH = frozenset({"said", "says", "say", "claims", "claimed", "insists", "insisted", "thinks", "thought",
                     "believes", "believed", "reckons", "reckoned", "feels", "felt", "swears", "swore", "told",
                     "tells", "assures", "assured", "promises", "promised", "argues", "argued"})
_REPORTED = re.compile(r"\b(?:(?:the|a|an|their|his|her|its|he|she|someone|somebody)\s+(?:[a-z-]+\s+){0,2}?"
                       r"|[\w-]*\d[\w-]*\s+)"  # "the owner said", "Supplier SN4 says"
                       r"(?:said|says|say|claims|claimed|insists|insisted|thinks|thought|believes|believed|reckons|"
                       r"reckoned|feels|felt|swears|swore|told us|tells us|assures us|assured us|promises|promised|"
                       r"argues|argued)\b", re.IGNORECASE)
"""A third party's words ("the owner said", "their rep insists", "he said"): a verdict after them is theirs."""


def _reported(text: str) -> int:
    """Where a third party's reported words start in ``text`` (its length when there are none)."""
    found = _REPORTED.search(text)
    return found.end() if found is not None else len(text)


def _fail_verdict(text: str, words: set[str], said_from: int) -> str | None:
    """``"fail"`` for the clause's first fail phrase that judges the option, ``"cleared"`` where a fail is said
    not to happen ("there is no reason to drop HP1", "not rejected"), else None."""
    negatable = not _NEGATIONS.isdisjoint(words) or "n't" in text
    for match in _fail_matches(text, words):
        said = text[match.start():match.end()].lower()
        after = text[match.end():].lstrip().lower()
        located = (said.endswith("out") and after.startswith("of ")) or (said == "out on" and after.startswith("top"))
        if located or _phrasal_out(text, match) or _other_object(said, text, match.start(), match.end()) \
                or (said in _FAIL_TO and _FAILED_ACTION.match(text, match.end())) or match.start() >= said_from:
            continue  # "is out of us-west" is a place, "pays out on" an action, "drops its price" no verdict
        if negatable and (_NEGATED_SCOPE.search(text, max(0, match.start() - 80), match.start())
                          or _NEEDLESS_AFTER.match(text, match.end())):
            return "cleared"  # "there is no reason to drop HP1", "nothing rules it out": not eliminated
        if not _MODALS.isdisjoint(words) and _CONDITION.search(text, match.end()) \
                and _WOULD_BEFORE.before(text, match.start()):
            return "cleared"  # "HT6 could be rejected if the price rises": a condition
        if not _NOT_BEFORE.before(text, match.start()):
            return "fail"
    return None


_last_pass: tuple[str, tuple[re.Match[str], ...]] = ("", ())


def _pass_matches(text: str) -> tuple[re.Match[str], ...]:
    """The pass phrases and patterns of ``text`` (folded) in order. The answer for the last text is kept, as
    ``_fail_matches`` keeps its own: the reader asks for the verdict of a clause, then for its pass spans."""
    global _last_pass
    last = _last_pass
    if last[0] == text:
        return last[1]
    found = tuple(_PASS_RE.finditer(folded(text)))
    _last_pass = (text, found)
    return found


def _pass_verdict(text: str, words: set[str], said_from: int) -> str | None:
    """``"pass"`` for the clause's first pass phrase that judges the option, ``"fail"`` when it is negated."""
    for match in _pass_matches(text):
        said = text[match.start():match.end()].lower()
        if _WOULD_BEFORE.before(text, match.start()) or match.start() >= said_from:
            continue  # "would only pass if the budget were higher": a condition, not a verdict
        if said in ("fits", "fit") and _COUNTED.match(text, match.end()):
            continue  # "fits 60 people": a capacity, not a verdict
        if _other_object(said, text, match.start(), match.end()) or (said in _PASS_ON and _ON.match(text, match.end())):
            continue  # "we keep 2 spare keys", "passed on the savings": no verdict on an option
        if (said in _PASS_NOUNS and _TICKET_BEFORE.before(text, match.start())) \
                or (not _RELATIVES.isdisjoint(words)
                    and _RELATIVE_BEFORE.search(text, max(0, match.start() - 40), match.start())):
            continue  # "a day pass", "beyond anything finance approved": no verdict on the option
        negated = _NOT_BEFORE.before(text, match.start()) or _NOT_AFTER.match(text, match.end())
        return "fail" if negated else "pass"
    return None


def _approval(text: str, low: str) -> re.Match[str] | None:
    """The approval (``_APPROVAL``) of a clause (``low``: folded), looked for only where one of its words is."""
    if not any(w in low for w in _APPROVAL_WORDS) and not _it_is(text):
        return None
    return _APPROVAL_RE.search(low)


def pass_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` states a pass ("looks good", "a fit"): words there are verdict, not evidence."""
    spans = [m.span() for m in _pass_matches(text)]
    approved = _approval(text, folded(text))
    return [*spans, approved.span()] if approved else spans


def fail_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` states a failure ("does not match", "ruled out"): words there are verdict, not evidence."""
    return [m.span() for m in _fail_matches(text)]


__all__ = [
    "COMPARATORS",
    "DROP_WORDS",
    "FILLER",
    "PRONOUN_START",
    "TOKEN",
    "VERDICT_WORDS",
    "fail_spans",
    "pass_spans",
    "verdict_of",
]
