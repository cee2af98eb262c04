"""Pure helpers of the evidence reader (``relaykit.handoff.evidence``): decision cells, headings, "respectively"
(the values it gives are read by ``relaykit.handoff.lists``), dialogue speakers, and the splitting of lines into
sentences, clauses and tokens (which ids name options: ``relaykit.handoff.options``)."""

from __future__ import annotations

import functools
import re
from bisect import bisect_left
from collections.abc import Callable, Sequence

from relaykit.handoff.compact_rules import collector_paused  # the reader pauses the collector as the writer does
from relaykit.handoff.lexicon import TOKEN, fail_spans, pass_spans, verdict_of
from relaykit.handoff.table import TOKEN_WORDS, typed
from relaykit.handoff.text import find_quantities
from relaykit.memo import remembered
from relaykit.text import line_sentences

DECISION_HEADERS = frozenset({"decision", "verdict", "status", "result", "outcome", "pass", "passes", "feasible",
                              "eligible", "shortlisted", "shortlist", "selected", "accepted", "keep", "ok",
                              "passed", "qualifies", "qualified", "approved", "suitable", "viable", "chosen",
                              "meets", "acceptable", "recommended"})
"""Table or CSV column headers whose yes / no cells are the row's verdict."""
_YES = frozenset({"yes", "y", "true", "ok", "pass", "✓", "✔", "✅", "go", "select", "selected", "pick", "take", "keep"})
_NO = frozenset({"no", "n", "false", "fail", "✗", "✘", "❌", "drop", "cut", "skip", "out", "x", "nope"})
"""A decision cell's first word (``drop (price)``, ``yes``) under a decision header."""
_BARE_DECISIONS = {"keep": "pass", "drop": "fail", "skip": "fail", "cut": "fail", "select": "pass"}
"""Cells that are a verdict by themselves, under any header or none."""
_BOOLEAN_VALUE = re.compile(r"[:=]\s*[\"']?(?:true|false|yes|no)[\"']?(?![\w-]|\s+(?![\w-]+\s*[:=])[a-z])",
                            re.IGNORECASE)  # not "out: no parking" (a value); "approved=False price=49" is one
_KEY_BEFORE = re.compile(r"(?<![\w-])[\"']?(?P<label>[A-Za-z][\w -]{0,30}?)[\"']?\s*$")
"""A decision key with a boolean anywhere in a clause (``"passes": false``, ``ok: true``, ``feasible=no``)."""
_KEYED = re.compile(r"^[-*•\s]*(?P<label>[A-Za-z][\w ]{0,30}?)\s*[:=]\s*(?P<value>[^:=]+)$")
_TWO_WORDS = re.compile(r"\s*(?:[A-Za-z-]+\s+){0,2}")


BOTH_START = re.compile(r"^(?:(?:so|and|thus|hence|therefore|then),?\s+)?(?:both|neither|all of them|they both|"
                         r"the two|both of them|each of them)\b", re.IGNORECASE)
ORDINAL = re.compile(r"^the (first|second)(?: one| option)?\s*(?=is|has|had|was|costs?|charges?|offers?|comes?|"
                      r"takes?|asks?|sits?|runs?|needs?|includes?|provides?|gets?|at|with|for|[,:(])", re.IGNORECASE)
TOGETHER = re.compile(r"\b(?:both|neither|all of them|each of them|all (?:two|three|four|five|six))\b", re.IGNORECASE)
CONNECTORS = re.compile(r"[\s,;&()/]+|\b(?:and|or|et|und|y)\b", re.IGNORECASE)  # also French, German, Spanish
RESPECTIVELY = re.compile(r"\b(?:respectively|respectivement|respectivamente|rispettivamente)\b", re.IGNORECASE)
"""Values or verdicts given one per id in order ("... respectively"; French, Spanish / Portuguese, Italian)."""

_RESPECTIVELY_FIRST = re.compile(r"^(?:respectively|respectivement|respectivamente|rispettivamente)\s*[,:]?\s+",
                                 re.IGNORECASE)
_STATEMENT_END = re.compile(r"\s*(?:;|,\s*(?:so|but|and so|which|while|thus|hence)\b|[.!]?\s*$)", re.IGNORECASE)


def respectively_last(sentence: str) -> str:
    """A sentence that opens with "Respectively," said the usual way ("Respectively, W1 and W2 pass and fail."
    -> "W1 and W2 pass and fail respectively."): the word goes to the end of its statement."""
    opened = _RESPECTIVELY_FIRST.match(sentence)
    if opened is None:
        return sentence
    rest = sentence[opened.end():]
    end = _STATEMENT_END.search(rest)
    at = end.start() if end else len(rest)
    return f"{rest[:at]} {opened.group(0).strip(' ,:').lower()}{rest[at:]}"


def keyed_decision(text: str) -> str | None:
    """The verdict of a ``decision: yes`` / ``status=drop`` line, as a decision column's cell would be."""
    keyed = _KEYED.match(text) if ":" in text or "=" in text else None
    return decision(keyed.group("label").lower(), keyed.group("value")) if keyed else None


def boolean_decision(text: str) -> tuple[str | None, int, int] | None:
    """The verdict a JSON / YAML / key=value decision key states with a boolean (``{"passes": false}``,
    ``ok: true``, ``eligible=no``, ``"eliminated": true``), and its span: it wins over verdict words elsewhere
    in the clause (the key "passes" or "ok" says nothing by itself). A key of other words is an attribute
    ("pets_ok: true", "wifi: yes"); "eliminated: false" says no verdict (None with its span). None without
    such a key (the last one counts)."""
    if ":" not in text and "=" not in text:
        return None
    found: tuple[str | None, int, int] | None = None
    for value in _BOOLEAN_VALUE.finditer(text):  # the values first: a key is looked for only before one
        head = text[max(0, value.start() - 34):value.start()]
        match = _KEY_BEFORE.search(head)
        if match is None:
            continue
        yes = value.group(0).lstrip(":= \"'").lower().startswith(("t", "y"))
        start = value.start() - len(head) + match.start()
        segments = match.group("label").lower().split()  # "price=49 ISO approved=False": the key is "approved"
        for k in range(len(segments)):
            words = set(" ".join(segments[k:]).replace("_", " ").replace("-", " ").split()) - _KEY_FILLER
            if words and words <= DECISION_HEADERS:
                found = ("pass" if yes else "fail"), start, value.end()
            elif words and words <= _ELIMINATION_KEYS:
                found = ("fail" if yes else None), start, value.end()
            else:
                continue
            break
    return found


_KEY_FILLER = frozenset({"is", "overall", "final", "all", "check", "checks", "the", "criteria", "constraints",
                         "requirements", "was", "has", "been"})
_ELIMINATION_KEYS = frozenset({"eliminated", "rejected", "excluded", "dropped", "failed", "fails", "disqualified",
                               "ruled", "out", "discarded"})


def decision(label: str, cell: str) -> str | None:
    """``"pass"`` / ``"fail"`` for a yes / no cell under a decision header (a cell that is only "keep" or
    "drop" needs no header), else None."""
    said = cell.strip(" .!").lower().split(" (")[0].split(":")[0].strip()
    if said in _BARE_DECISIONS:
        return _BARE_DECISIONS[said]
    if not label or not decision_label(label):
        return None
    return "pass" if said in _YES else "fail" if said in _NO else None


def compared_to(text: str, spans: list[tuple[int, int]], at: int) -> bool:
    """Whether the word at ``at`` is what a fail phrase compares with ("does not match night"): it follows
    the phrase within two words, with no punctuation between."""
    return any(end <= at and _TWO_WORDS.fullmatch(text[end:at]) for _, end in spans)


@remembered
def is_heading(line: str, option_id: str) -> bool:
    """A line that only introduces an option ("- H01", "id: H01", "### H01 (Thames View)")."""
    rest = _PARENTHESISED.sub(" ", line.replace(option_id, " ", 1))
    if not line.startswith("#"):  # the word count first: it rules out most lines cheaply
        return _one_word_at_most(rest) and verdict_of(rest) is None and not typed(rest)
    if verdict_of(rest) is not None:
        spans = sorted(fail_spans(rest) + pass_spans(rest))  # "### PR1 - rejected": a heading with its verdict
        rest = "".join(" " if any(a <= k < b for a, b in spans) else c for k, c in enumerate(rest))
    return _one_word_at_most(rest) and not typed(rest)


_PARENTHESISED = re.compile(r"\([^)]*\)")
_LETTERS = re.compile(r"[A-Za-z]+")
_HEADING_FILLER = frozenset({"id", "option", "name"})


def _one_word_at_most(rest: str) -> bool:
    """Whether ``rest`` holds at most one word besides "id", "option" and "name" (the count stops at the second
    word: a line of prose has many)."""
    seen = 0
    for m in _LETTERS.finditer(rest):
        if m.group(0).lower() not in _HEADING_FILLER:
            seen += 1
            if seen > 1:
                return False
    return True


_OPENER = re.compile(r"^(?:(?:starting|beginning|moving on|turning|continuing|going on|on) (?:with|to) |as for |"
                     r"as to |next up,? |first up,? |first off,? |then,? )", re.IGNORECASE)
"""Narration that opens a clause ("Starting with MR3: ...", "As for MR8, ..."): not evidence."""


def without_opener(clause: str) -> str:
    """``clause`` without its narrating opener (what ``_OPENER.sub("", clause)`` leaves: the pattern is anchored,
    so it cuts one match at most, and a clause without one, most of them, is given back as it is)."""
    opener = _OPENER.match(clause)
    return clause if opener is None else clause[opener.end():]


_CLAUSE_SPLIT = re.compile(r";\s*|,?\s+(?:while|whereas)\s+|,\s+but\s+"
                           r"|[,:]\s+(?:and\s+)?(?=the (?:former|latter|first|second|third|fourth|fifth)\b)",
                           re.IGNORECASE)
_GROUP_SPLIT = re.compile(r",\s+(?:and\s+|but\s+|while\s+)?(?=(?:all|every|each) (?:the )?others?\b"
                          r"|(?:only|just|solely) the (?:first|second|third|fourth|fifth|middle|last)\b"
                          r"|the (?:others?|rest|remaining)\b"
                          r"|(?:the )?(?:first|last|final) (?:one|two|three|four|\d)\b)"
                          r"|(?<=\d)\s+(?=(?:only|just|solely) the (?:first|second|third|fourth|fifth|middle|last)\b)"
                          r"|\band\s+(?=the (?:former|latter)\s+(?:is|was|gets|goes|stays|passes|fails)\b)",
                          re.IGNORECASE)
"""More clause starts: ", all others pass", ", the last two are out" (a verdict on a group of its own), "... and
the former is what we take", "(, )only the first qualifies" after a list of ids; tried only in sentences with one of
the words it needs."""

SPEAKERS = frozenset({"me", "i", "you", "we", "agent", "user", "assistant", "customer", "client", "bot", "human",
                      "ai", "q", "a", "system", "auditor", "researcher", "booker", "planner", "manager", "analyst",
                      "reviewer", "lead", "host", "guest", "buyer", "seller", "caller", "operator", "support",
                      "owner", "engineer", "designer", "pm", "boss", "director", "ceo", "cto", "cfo",
                      "coordinator", "advisor", "adviser", "consultant", "recruiter", "tenant", "landlord", "broker",
                      "scout", "editor", "tester", "developer", "dev", "purchaser", "colleague", "partner", "chair"})
"""Dialogue speaker labels ("Agent: ...") at a line start: who speaks, never an attribute's label."""

KIND = re.compile(r"\b([A-Z][a-z]+) $")
"""The capitalised word right before an option's id ("the Hotel HT01"): the kind of option, not evidence."""


def kind_before(head: str) -> str | None:
    """What ``KIND`` finds at the end of ``head`` (text before an id, without a line break), lower-cased. Only the
    last word can hold it, so the search starts there instead of at every position."""
    if not head.endswith(" "):
        return None
    found = KIND.search(head, head.rfind(" ", 0, len(head) - 1) + 1)
    return found.group(1).lower() if found is not None else None


NOT_CSV = re.compile(r"[.?!:;=]$|^[-*•]|:\s")
"""Sentence ends, bullets, labels: a line of prose or notes, never a CSV header."""
_ENDS = frozenset(".?!:;=")
_BULLETS = frozenset("-*•")
_COLON_SPACE = re.compile(r":\s")


def prose_or_notes(line: str) -> bool:
    """Whether ``NOT_CSV`` finds something in ``line`` (a line without a line break): its last and first
    characters are tested first, the regex only looks for a label's colon."""
    return line[-1:] in _ENDS or line[:1] in _BULLETS or _COLON_SPACE.search(line) is not None


NO_TOKENS: frozenset[int] = frozenset()


@functools.lru_cache(maxsize=1024)
def decision_label(label: str) -> bool:
    """Whether a table or CSV column's header names a decision ("verdict", "status", or only marks: "✓/✗",
    "✅ / ❌"): its cells are verdicts."""
    return bool(DECISION_HEADERS & set(TOKEN_WORDS.findall(label))) or _MARKS_ONLY.fullmatch(label) is not None


_MARKS_ONLY = re.compile(r"[\s/|?,()-]*(?:[✓✔✗✘❌✅✖]\uFE0F?[\s/|?,()-]*)+")
"""A header cell of verdict marks and separators only (no word): a decision column."""


_BARE_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
_PERCENT_WORDS = frozenset({"pct", "percent", "%"})
_NOT_UNITS = frozenset({"min", "max", "in", "at", "a", "s", "no", "nr"})  # "min order": no minutes


def with_header_unit(label: str, cell: str) -> str | None:
    """A bare number cell under a header that names its unit ("storage gb" / "200", "usd per seat" / "19",
    "sla %" / "99.9") written with that unit ("storage 200 gb", "19 usd per seat"); None for any other cell."""
    if not _BARE_NUMBER.fullmatch(cell):
        return None
    unit = header_unit(label)
    if unit is None:
        return None
    before, said, after = unit
    return " ".join(part for part in (before, cell, said, after) if part)


@functools.lru_cache(maxsize=1024)
def header_unit(label: str) -> tuple[str, str, str] | None:
    """(words before, unit, words after) of a column header with a unit word or "%" (read by
    ``find_quantities``, as after a number); None when it names none."""
    words = TOKEN_WORDS.findall(label)
    if "%" in label:
        return " ".join(w for w in words if w.lower() not in _PERCENT_WORDS), "%", ""
    for k, word in enumerate(words):
        lowered = word.lower()
        if lowered in _NOT_UNITS:
            continue
        found = find_quantities(f"1 {word}")
        if lowered in _PERCENT_WORDS or (found and found[0].unit is not None and found[0].text == f"1 {word}"):
            return " ".join(words[:k]), "%" if lowered in _PERCENT_WORDS else word, " ".join(words[k + 1:])
    return None


_AMOUNT = r"(?<![\w.-])[$€£]?\d(?:[\d,.]*\d)?(?:\s?(?:%|[A-Za-z$€£/]{1,8}))?"  # not "8, fewer than": a list
_COMPARISON = re.compile(rf"(?P<amount>(?:by\s+)?{_AMOUNT}\s+)?\b(?!rather\b|other\b)(?:[A-Za-z]+er|more|less|fewer)"
                         rf"(?:\s+[A-Za-z]+){{0,3}}?(?:\s+by\s+(?P<by>{_AMOUNT}))?\s+(?P<than>than\s+)"
                         rf"|(?P<short>{_AMOUNT})\s+(?:under|over|below|above|short of)\s+", re.IGNORECASE)
"""A comparison ("$60 cheaper than ", "cheaper by $60 than ", "2 km closer to the venue than ", "bigger than ",
"$60 under " an id): what follows is its object."""
COMPARES = re.compile(r" (?:than|under|over|below|above|short of) ")
"""A cheap test for a clause that may hold a comparison (see ``without_comparisons``)."""


def without_comparisons(clause: str, id_re: re.Pattern[str],
                        is_option: Callable[[str], bool]) -> tuple[str, str | None]:
    """The clause without its comparisons with another option, and the clause itself when it states a relative
    amount (it then travels verbatim as a note): "$60 cheaper than AF-118" is no value of either option, and
    "than AF-118" makes AF-118 the object, not a subject, of the clause; its subject keeps the rest."""
    cut: list[tuple[int, int]] = []
    relative_seen = False
    for m in _COMPARISON.finditer(clause):
        other = id_re.match(clause, m.end())
        other = other if other is not None and is_option(other.group(0)) else None
        if m.group("short") is not None and other is None:
            continue  # "60 USD under budget": no comparison with an option
        relative = any(m.group(g) is not None and typed(m.group(g)) for g in ("amount", "by", "short"))
        if relative or other is not None:
            cut.append((m.start() if relative else m.start("than"), other.end() if other else m.end()))
            relative_seen = relative_seen or relative
    if not cut:
        return clause, None
    kept = clause
    for a, b in reversed(cut):
        kept = kept[:a] + kept[b:]
    return kept, clause if relative_seen else None


_ORDINAL_LABELS = frozenset({"#", "no", "no.", "nr", "n°", "num", "step", "row", "idx", "index", "item", "pos"})
"""Table or CSV column headers of a row number ("| # | Venue |"): their small integers are not values."""
_SMALL_INTEGER = re.compile(r"\d{1,3}")
_ROW_CELL = re.compile(r"(?:row|step|item|no\.?|nr\.?|#)\s?\d{1,3}", re.IGNORECASE)  # "Row 2": a row number cell


def row_number(label: str, cell: str, before_id: bool, rows: int) -> bool:
    """Whether a table or CSV cell numbers its row: a small integer under a "#" / "no" / "step" header or, before
    the id cell under no header, the count of the table's ``rows`` so far ("| 1 | VN-4 |", "| 2 | VN-6 |"); a
    "Row 2" / "#2" cell before the id."""
    if _SMALL_INTEGER.fullmatch(cell):
        return label in _ORDINAL_LABELS if label else before_id and int(cell) in (rows - 1, rows)
    return before_id and _ROW_CELL.fullmatch(cell) is not None


_TITLE = re.compile(r"#*\s*[A-Z][a-z]*(?: [A-Za-z][a-z]*)?:?")
_BULLET_OR_INDENT = re.compile(r"[-*•+]\s|\s")


def title_line(line: str) -> bool:
    """A title line of one or two words ("Summary", "Next steps"), as a stripped line."""
    return _TITLE.fullmatch(line) is not None


def bullet_or_indented(line: str) -> bool:
    """A line (not stripped) that opens with a bullet or is indented: an id on it heads its block only."""
    return _BULLET_OR_INDENT.match(line) is not None


def tokens_inside(tokens: Sequence[re.Match[str]], spans: list[tuple[int, int]]) -> set[int]:
    """The indices of the tokens that start inside one of ``spans`` (token starts ascend: two bisections a span)."""
    starts = [m.start() for m in tokens]
    return {k for a, b in spans for k in range(bisect_left(starts, a), bisect_left(starts, b))}


@remembered
def token_matches(text: str) -> tuple[re.Match[str], ...]:
    """The tokens of a clause (remembered inside a benchmark run: the same clauses recur in every payload)."""
    return tuple(TOKEN.finditer(text))


@remembered
def sentences_of(line: str) -> tuple[str, ...]:
    return tuple(line_sentences(line))


@remembered
def clauses_of(sentence: str) -> tuple[str, ...]:
    low = sentence.lower()
    if ";" not in sentence and "," not in sentence and "wh" not in low \
            and "the former" not in sentence and "the latter" not in sentence:
        return (sentence.strip(),)  # nothing _CLAUSE_SPLIT splits at ("while" and "whereas" need their "wh")
    # each of _CLAUSE_SPLIT's cuts needs a ";", "while" / "whereas", "but" or "the " (in any case: no other letter
    # folds to one of theirs), so most sentences with a comma are not searched
    parts = _CLAUSE_SPLIT.split(sentence) if ";" in sentence or "wh" in low or "but" in low or "the " in low \
        else [sentence]
    if (", " in sentence and ("other" in sentence or "rest" in sentence or "remaining" in sentence  # the words
                              or "first" in sentence or "last" in sentence or "final" in sentence)) \
            or "the former" in sentence or "the latter" in sentence \
            or "ly the" in sentence or "st the" in sentence:  # _GROUP_SPLIT needs ("only the", "just the")
        parts = [piece for part in parts for piece in _GROUP_SPLIT.split(part)]
    return tuple(clause.strip() for clause in parts)


@remembered
def id_matches(id_re: re.Pattern[str], text: str) -> tuple[str, ...]:
    if not id_re.groups:
        return tuple(id_re.findall(text))
    return tuple(m.group(0) for m in id_re.finditer(text))


_PLAIN_ID = re.compile(r"[A-Z]{1,3}\d{1,4}")
_BEFORE_ID = frozenset(" \t(|,;\"")
_AFTER_ID = frozenset(" \t),;|\"")
_END_AFTER_ID = frozenset(".:!?")


@functools.lru_cache(maxsize=8192)
def id_mask(option_id: str) -> str:
    """An id as a clause memory key writes it (``HT\\0\\0`` for ``HT07``), or "" where its digits cannot be
    masked: only a plain id (capitals, then digits) that the tokeniser reads as one word (``USD1`` is a price).
    Remembered (a bounded LRU): the reader asks once per clause that names an option."""
    if _PLAIN_ID.fullmatch(option_id) is None:
        return ""
    token = TOKEN.fullmatch(option_id)
    if token is None or token.lastgroup != "w":
        return ""
    digits = len(option_id) - len(option_id.rstrip("0123456789"))
    return option_id[:-digits] + "\0" * digits


def masked(text: str, option_id: str, mask: str) -> str | None:
    """``text`` with every ``option_id`` written ``mask``, where each stands apart (between spaces, brackets,
    commas, a sentence end...; not after a number: "5 PM1"), or None. What the reader makes of a clause then
    does not depend on the id's digits: its letters stay, a digit is read as any digit (no number, time or
    date can start inside the id), places in the clause keep their offsets, and the id itself is never
    evidence. So clauses that differ only in which option of a family they name are read once."""
    at, n, size = text.find(option_id), len(option_id), len(text)
    while at >= 0:
        if at:
            before = text[at - 1]
            if before not in _BEFORE_ID or (at >= 2 and before in " \t" and text[at - 2].isdigit()):
                return None
        end = at + n
        if end < size:
            after = text[end]
            if after not in _AFTER_ID and (after not in _END_AFTER_ID or (end + 1 < size
                                                                           and text[end + 1] not in " \t")):
                return None
        at = text.find(option_id, end)
    return text.replace(option_id, mask)


__all__ = [
    "BOTH_START",
    "COMPARES",
    "CONNECTORS",
    "DECISION_HEADERS",
    "KIND",
    "NOT_CSV",
    "NO_TOKENS",
    "ORDINAL",
    "RESPECTIVELY",
    "SPEAKERS",
    "TOGETHER",
    "boolean_decision",
    "bullet_or_indented",
    "clauses_of",
    "collector_paused",
    "compared_to",
    "decision",
    "decision_label",
    "id_mask",
    "id_matches",
    "is_heading",
    "keyed_decision",
    "kind_before",
    "masked",
    "prose_or_notes",
    "row_number",
    "sentences_of",
    "title_line",
    "token_matches",
    "tokens_inside",
    "with_header_unit",
    "without_comparisons",
    "without_opener",
]
