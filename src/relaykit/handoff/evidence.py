"""Reading a trace into an evidence table without a model: one row per option id, plus verbatim notes.

The reader goes through the trace once, line by line (memory grows with the options and their distinct
words, not with the text). Each clause is attributed to an option id: the id it names, the id its pronoun
points to ("it", "the former", "the latter"), the block it sits under (a bullet list or key: value block
headed by an id), or the row of a table. The rule that keeps it lossless: **every typed value of an
attributed clause is kept** (money, number + unit, percent, clock time, date) along with the clause's
content words, deduplicated per option; narration, stop words and verdict words are dropped and the
verdict becomes the row's last word. A clause with typed values that cannot be attributed with confidence
is carried verbatim in ``notes``. Statements about combinations of options ("Pair H01 + F02: total ...")
are derived sums and are left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import pairwise

from relaykit.handoff.cells import TableCells
from relaykit.handoff.collective import GroupVerdicts, may_except
from relaykit.handoff.compact_body import encode_text
from relaykit.handoff.compact_read import ParsedRow, parse_compact
from relaykit.handoff.constraints import parse_constraints
from relaykit.handoff.dialogue import Speakers
from relaykit.handoff.leads import lead_verdict, moved_values, third_party
from relaykit.handoff.lexicon import (
    CORRECTION,
    ELLIPTICAL,
    PRONOUN_START,
    fail_spans,
    pass_spans,
    verdict_of,
)
from relaykit.handoff.lists import respective
from relaykit.handoff.options import option_ids
from relaykit.handoff.outsider import OutsiderReadings
from relaykit.handoff.reading import (
    BOTH_START,
    COMPARES,
    CONNECTORS,
    RESPECTIVELY,
    TOGETHER,
    boolean_decision,
    bullet_or_indented,
    clauses_of,
    collector_paused,
    id_mask,
    id_matches,
    is_heading,
    keyed_decision,
    kind_before,
    masked,
    respectively_last,
    sentences_of,
    title_line,
    without_opener,
)
from relaykit.handoff.reasons import parenthesised_reason, reason_of
from relaykit.handoff.remarks import is_remark, quantified, without_interjection
from relaykit.handoff.several import (
    FORCED,
    PlacedVerdicts,
    linked_verdicts,
    repeat_cut,
    respective_verdicts,
    shared_predicates,
    shifted,
)
from relaykit.handoff.table import TOKEN_WORDS, EvidenceTable, Row, typed
from relaykit.handoff.text import (
    Quantity,
    compile_id_pattern,
    find_quantities,
    normal_time,
)
from relaykit.handoff.words import ClauseWords
from relaykit.text import iter_lines

_BLOCK_LINE = re.compile(r"^(?:\s+|[-*•]\s|[\w ()/-]{1,40}:)")
_ANSWER = re.compile(r"^(?:no|nope|nah|yes|yep|yeah)\b\W*$", re.IGNORECASE)
_PLUS = re.compile(r"\s\+\s")  # "H01 + F02": a combination of options
_NUMBERING = re.compile(r"^(?:\(?\d{1,3}[.)]|[a-h]\)|(?:step|stage|phase|item|no\.?|#)\s?\d{1,3}\s?[-–—:.)]?)\s+(?=\D)",
                        re.IGNORECASE)
"""A list or step number at a line start ("1. PN1 - ...", "(2) ...", "Step 2 - SU-1: ..."): not a value."""
_NUMBERED = frozenset("(#sSpPiInN")  # the first characters of a step marker (a digit too): the regex runs after


_LEAD_MARK = re.compile(r"^[-*•\s]*[A-Za-z][^:=–—→]{0,24}(?::|=|–|—|→| -)")
"""A label's separator near a clause's start, the cheap test before ``lead_verdict``."""


_Clause = tuple[str | None, str | None, tuple[tuple[str, ...], ...], tuple[str, ...]]
"""What ``_Reader._read`` makes of a clause: verdict, reason, label words, evidence tokens."""
_Key = tuple[str, str | None, int] | tuple[str, str | None, int, None]
"""A clause memory's key: the clause (its option's digits masked: four items), shared verdict, kinds known."""
CLAUSE_MEMORY = 4096
"""Clauses a reader remembers (boilerplate recurs: "The inventory is closed, so ..."), per generation: a full memory
becomes the generation before and a new one starts, so at most twice this many are held (a bound on memory), and a
clause that recurs keeps its reading across the change (it was all forgotten at once: on a 10 MB trace a tenth of the
clauses were read again)."""
NAMED_MEMORY = 2048
"""The same for clauses that name the option they are about (they recur where a whole audit is repeated)."""


@dataclass
class _Reader(GroupVerdicts, PlacedVerdicts, TableCells, Speakers, OutsiderReadings, ClauseWords):
    id_re: re.Pattern[str]
    options: frozenset[str] | None  # the ids that are options (None: every id match)
    goal: str
    thresholds: list[Quantity]
    wanted: frozenset[str] = frozenset()  # the goal's wanted categories ("afternoon", "business")
    rows: dict[str, Row] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    kinds: set[str] = field(default_factory=set)
    labels: set[str] = field(default_factory=set)
    subject: str | None = None
    pair: tuple[str, str] | None = None
    group: list[str] | None = None  # the ids the last clause naming several spoke of
    block: str | None = None
    header: list[str] | None = None
    csv: list[str] | None = None  # the header of the CSV block being read
    speakers: set[str] = field(default_factory=set)
    spoken: bool = False  # the line before began with a speaker label
    line_subject: str | None = None  # the option the line's last attributed sentence was about
    section: str | None = None  # the option whose markdown heading the lines sit under
    headed: str | None = None  # the option a line of its own ("Flat F21") heads, until another id is named
    asked: str | None = None  # the option a speaker's question named ("Lena: and VN-9?"): what answers speak of
    numbered: int = 0  # the rows of the table or CSV block read so far (a row number column counts them)
    index: int = 0
    option_words: dict[str, bool] = field(default_factory=dict)  # word -> is an option id (see _is_option)
    last_text: str | None = None  # the text ids() read last, and its ids
    last_ids: tuple[str, ...] = ()
    clauses: dict[_Key, _Clause] = field(default_factory=dict)  # see _apply
    clauses_before: dict[_Key, _Clause] = field(default_factory=dict)  # the generation before (see CLAUSE_MEMORY)
    cell_texts: dict[tuple[str, str], tuple[str, str | None]] = field(default_factory=dict)  # see _cell_text
    named: dict[_Key, _Clause] = field(default_factory=dict)  # those naming their option
    named_before: dict[_Key, _Clause] = field(default_factory=dict)
    quantities: dict[str, tuple[float, str | None, str]] = field(default_factory=dict)  # amount -> its reading
    bounds: dict[str | None, tuple[float, ...]] = field(default_factory=dict)  # the thresholds' values by unit
    kept_words: dict[str, bool] = field(default_factory=dict)  # word -> is evidence (see _keeps)
    kinds_known: int = 0  # how many kinds there were when kept_words was filled
    paragraph: dict[str, None] = field(default_factory=dict)  # the paragraph's ids, in the order first named
    paragraph_at: int = 0  # the index of the paragraph's first sentence
    named_ids: list[str] = field(default_factory=list)  # the ids of the sentence being read
    listed: str | None = None  # the verdict of the heading the list being read sits under ("Rejected:")
    last_verdict: str | None = None  # the verdict of the clause read last
    questioned: bool = False  # the sentence before asked a question about no option by id ("Pets allowed?")

    def __post_init__(self) -> None:
        for t in self.thresholds:
            self.bounds[t.unit] = (*self.bounds.get(t.unit, ()), t.value)

    def ids(self, text: str) -> list[str]:
        """The option ids ``text`` names, each once, in order (the answer for the last text is kept: a line,
        its sentence and its clause are often the same text)."""
        if text == self.last_text:
            return list(self.last_ids)
        found = id_matches(self.id_re, text)
        options = self.options
        if not found:  # most cells and many clauses name no id
            kept: tuple[str, ...] = ()
        elif len(found) == 1:
            kept = found if options is None or found[0] in options else ()
        else:
            kept = tuple(dict.fromkeys(found if options is None else [i for i in found if i in options]))
        self.last_text, self.last_ids = text, kept
        return list(kept)

    def line(self, line: str, plain: bool = False) -> None:
        if not plain and (self.listed is not None or "~~" in line or "</" in line or line.endswith(":")):
            self.marked_line(line)  # struck through, or a list's verdict heading (see GroupVerdicts)
            return
        stripped = line.strip()
        if stripped[:1].isdigit() or stripped[:1] in _NUMBERED or stripped[1:2] == ")":
            stripped = _NUMBERING.sub("", stripped)
        if ":" in stripped[:18]:
            stripped = self._unspoken(stripped)
        else:
            self.spoken = False
        self.line_subject = None
        if not stripped:
            self.block, self.header, self.csv, self.group, self.numbered = None, None, None, None, 0
            self.paragraph, self.paragraph_at = {}, self.index
            return
        if stripped.count("|") >= 2:
            self._table_row(stripped)
            return
        self.header = None
        if ("," in stripped or "\t" in stripped or ";" in stripped) and self._csv_line(stripped):
            return
        ids = self.ids(stripped)
        if self.spoken and ids:  # a question about one option: the id-less lines that answer it are about it
            self.asked = ids[0] if len(ids) == 1 and stripped.endswith("?") else None
        if stripped.startswith("#"):  # a markdown heading opens a section (of one option, or of none)
            self.section = ids[0] if len(ids) == 1 else None
        heading = len(ids) == 1 and is_heading(stripped, ids[0])
        self._headed(line, ids, heading)
        if heading:
            self.block = self.subject = ids[0]
            lead = lead_verdict(stripped) if stripped[:1].isalpha() else None  # "In: HT02."
            if lead is not None:
                self._apply(ids[0], stripped[lead[1]:], lead[0])
            elif verdict_of(stripped):  # "### PR1 - rejected"
                self._apply(ids[0], stripped)
            else:
                self._row(ids[0]).sentences.append(self.index)
                self.paragraph[ids[0]] = None
            self.index += 1
            return
        if not ids and self.block is not None and _BLOCK_LINE.match(line):
            self._apply(self.block, stripped)
            self.index += 1
            return
        self.block = None
        for sentence in sentences_of(stripped):
            self._sentence(sentence)
            self.index += 1

    def _headed(self, line: str, ids: list[str], heading: bool) -> None:
        """An id on a line of its own, not a bullet ("Flat F21", "F21:") heads the lines that follow, over blank
        lines, until a line names another id: their id-less clauses are its evidence (as under "### F21")."""
        if heading:
            self.headed = ids[0] if not bullet_or_indented(line) else None
        elif ids and self.headed not in ids:
            self.headed = None
        elif self.headed is not None and title_line(line.strip()) and verdict_of(line) is None:
            self.headed = None  # "Summary", "Next steps": a heading of no option ends the option's

    def _is_option(self, word: str) -> bool:
        known = self.option_words.get(word)
        if known is None:  # a bounded memory of the words seen (most words recur, the regex costs more)
            known = self.id_re.fullmatch(word) is not None and (self.options is None or word in self.options)
            if len(self.option_words) >= 8192:
                self.option_words.clear()
            self.option_words[word] = known
        return known

    def _row(self, option_id: str) -> Row:
        row = self.rows.get(option_id)
        if row is None:
            row = self.rows[option_id] = Row(option_id)
        return row

    def _sentence(self, sentence: str) -> None:
        if sentence in self.goal:
            return
        ids = self.ids(sentence)
        if len(ids) > 1 and sentence[:1] in "Rr":
            sentence = respectively_last(sentence)
        if len(ids) > 1 and _PLUS.search(sentence):
            return  # a combination of options: a derived statement
        questioned, self.questioned = self.questioned, sentence.endswith("?") and not ids
        if questioned and _ANSWER.match(sentence):
            return  # "Pets allowed? No.": the answer to a question, not a verdict
        self.named_ids = ids
        kind = kind_before(sentence[:sentence.find(ids[0])]) if ids else None
        if kind is not None:
            self.kinds.add(kind)
        previous: str | None = None
        for clause in clauses_of(sentence):
            previous = self._clause(clause, previous)
        self.line_subject = previous

    def _clause(self, clause: str, previous: str | None) -> str | None:
        clause = without_opener(clause)
        if COMPARES.search(clause) is not None:
            clause = self._uncompared(clause)
        if not clause:
            return previous
        ids = self.ids(clause)
        lead = lead_verdict(clause) if ids and not clause.startswith(ids[0]) and _LEAD_MARK.search(clause, 0, 28) \
            else None  # "Out: HT04 (price)." (most clauses open with their id: no label before it)
        if lead is not None:
            clause = clause[lead[1]:]
        if len(ids) > 1:
            self._several(clause, ids, lead[0] if lead else None)
            return ids[-1]
        if not ids and (self._judged_together(clause) or self._listed_in_turn(clause)
                        or (clause[:1] in "OoJjSs" and self._only_placed(clause))):
            return None  # "the last two fail", "all others pass", "neither works"; "In order: no, no, yes, no."
        if not ids and self.group and BOTH_START.match(clause):  # "Both are out."
            for option_id in self.group:
                self._apply(option_id, clause)
            return None
        target: str | None
        if ids:  # what ``_target`` gives for a clause that names its option
            target, nobody = ids[0], False
        else:
            target, clause, nobody = self._target(clause, ids, previous)
        if nobody:
            return None
        if target is None and previous is None:
            target, clause = self._context_target(clause)
        if target is None:
            if typed(clause):
                self.notes.append(clause)
            return None
        self.subject = target
        exception = self._excepted(clause, ids) if ids and may_except(clause) else None  # "all pass but LM6"
        self._apply(target, clause, FORCED + exception if exception else self._elliptical(clause, ids)
                    or (lead[0] if lead else None))
        self._only_one(clause, ids)  # "Only HS3 survives.": the others fail
        return target

    def _context_target(self, clause: str) -> tuple[str | None, str]:
        """The option of a clause that names none, with no option before it in its sentence, from what came before
        (and the clause, without an interjection where a remark reads so)."""
        target = None
        if self.block is None and (is_remark(clause) or self._spoken_verdict(clause)):
            clause = without_interjection(clause)
            target = self.subject  # "B9: ..., no pets. Crossed off because of the pets." is B9's verdict
        if target is None and self.line_subject is not None and self.block is None \
                and not quantified(clause) and (typed(clause) or verdict_of(clause)):
            target = self.line_subject  # "MR3: seats twelve? No - the sign says 12 seats." goes on about MR3
        if target is None and self.spoken and self.asked and not quantified(clause):
            target = self.asked  # "Lena: and VN-9?" / "Omar: carries 4 tonnes": the answer is about VN-9
        if target is None and (self.section or self.headed) and not quantified(clause):
            target = self.section or self.headed  # "### PR2\nSpeed 40 ppm, $280.": the section's option
        return target, clause

    def _elliptical(self, clause: str, ids: list[str]) -> str | None:
        """The verdict before, for a clause that only adds its option to it ("LP2 too.", "So is LP4.", "Q103 due
        to cost.")."""
        verdict = self.last_verdict
        return verdict if verdict and len(ids) == 1 and len(clause) < 80 and ELLIPTICAL.match(clause) else None

    def _spoken_verdict(self, clause: str) -> bool:
        """A speaker's id-less clause with a verdict and no value ("ines: beyond what we can spend, park it"):
        in a chat, the verdict on the option the other speaker just described."""
        return self.spoken and not typed(clause) and not quantified(clause) and verdict_of(clause) is not None

    def _resolve(self, clause: str) -> str | None:
        match = PRONOUN_START.match(clause)
        if match is None:
            return None
        said = match.group(0).lower()[-10:]  # without a lead-in ("In the end, the former ...")
        if said in ("the former", "the latter"):
            pair = self.pair or (tuple(self.paragraph) if len(self.paragraph) == 2 else None)  # two options so far
            return pair[0 if said == "the former" else 1] if pair else None
        return self.subject

    def _several(self, clause: str, ids: list[str], lead: str | None = None) -> None:
        starts = [m.start() for m in self.id_re.finditer(clause) if m.group(0) in ids]
        cut = repeat_cut(clause, self.id_re, ids) if len(starts) > len(ids) else None
        if cut is not None:  # "X and Y have 8 GB and 16 GB respectively, so X fails and Y passes": two statements
            self._clause(clause[:cut], None)
            self._clause(clause[cut:], None)
            return
        head = clause[:starts[0]]
        if typed(head):
            self.notes.append(clause)
        shared = verdict_of(head) or lead
        bounds = [*starts, len(clause)]
        pieces = moved_values([clause[start:end] for start, end in pairwise(bounds)], self.id_re)
        pieces, verbs = shifted(pieces, self.id_re)
        pieces = shared_predicates(pieces, self.id_re)  # "reject X and keep Y", "X and Y are in"
        last = self.id_re.match(pieces[-1])
        tail = pieces[-1][last.end():] if last else ""
        values = respective(tail, len(pieces))
        if values is not None:  # "HX1 and HX2 are 4 km and 6 km away respectively", "(4 km and 6 km)"
            for k, piece in enumerate(pieces):
                named = self.id_re.match(piece)
                if named is not None and named.group(0) in ids:
                    self._apply(named.group(0), " ".join(value for value, _, _ in values[k::len(pieces)]))
            for _, a, b in reversed(values):
                tail = tail[:a] + " " + tail[b:]
        judged = respective_verdicts(tail, len(pieces))  # "were accepted and rejected, respectively"
        if judged is not None:
            tail = judged[1]
        together = TOGETHER.search(tail) is not None  # "..., so both are out", "both cover the network"
        each = values is not None or judged is not None  # what is left of a "respectively" clause is said of all
        if each:
            tail = RESPECTIVELY.sub(" ", tail)
        bare = (together or each) and all(not CONNECTORS.sub("", self.id_re.sub("", p, count=1))
                                          for p in pieces[:-1])
        shared = shared or (verdict_of(tail) if together else None)
        linked = linked_verdicts(head, pieces, self.id_re)  # "LN7 is rejected, as is LN8", "neither ... nor"
        for k, piece in enumerate(pieces):
            option_id = self.id_re.match(piece)
            if option_id is not None and option_id.group(0) in ids:
                text = option_id.group(0) + tail if bare or piece is pieces[-1] else piece
                self._apply(option_id.group(0), verbs[k] + text,
                            judged[0][k] if judged else linked[k] or shared)
        self.group = ids
        self.pair = (ids[-2], ids[-1])
        self.subject = ids[-1]

    def _apply(self, option_id: str, text: str, shared: str | None = None) -> None:
        key: _Key = (text, shared, len(self.kinds))
        # (kinds only grow: their count says which were known.) A clause that names its option has a memory of
        # its own, so that in a trace that never repeats, the clauses that do recur (cells, boilerplate) stay
        # remembered there; it is remembered with its option's digits masked ("HT\0\0 is accepted"), for it
        # reads the same for every option of the family (see ``masked``)
        named = option_id in text
        if named:
            memory, before, bound = self.named, self.named_before, NAMED_MEMORY
            mask = id_mask(option_id)
            template = masked(text, option_id, mask) if mask else None
            if template is not None:
                key = (template, shared, len(self.kinds), None)  # four items: never equal to a plain text's key
        else:
            memory, before, bound = self.clauses, self.clauses_before, CLAUSE_MEMORY
        read = memory.get(key)
        if read is None:
            read = before.get(key) or self._read(text, shared)  # (a reading is a tuple of four: never false)
            if len(memory) >= bound:
                memory = self._next_generation(named)
            memory[key] = read
        verdict, reason, labels, tokens = read
        for said in labels:
            if len(self.labels) < 4096:
                self.labels.update(said)
        row = self.rows.get(option_id) or self._row(option_id)
        self.last_verdict = verdict
        if verdict and row.verdicts and verdict[0] not in row.verdicts[-1] and CORRECTION.search(text):
            row.verdicts = verdict[0]  # "SV3 is ok after all": a correction outweighs the verdicts before it
        elif verdict and len(row.verdicts) < 64:
            row.verdicts += verdict[0]
        if not row.sentences or row.sentences[-1] != self.index:
            if not row.sentences or row.sentences[-1] < self.paragraph_at:  # first named in this paragraph
                self.paragraph[option_id] = None
            row.sentences.append(self.index)
        if reason is not None:
            row.add_reason(reason)
        row.add_clause(tokens)  # a clause break, then the clause's evidence

    def _next_generation(self, named: bool) -> dict[_Key, _Clause]:
        """A full clause memory (``named``: the memory of clauses naming their option) becomes the generation before,
        whose clauses are forgotten, and an empty one takes its place (returned)."""
        if named:
            self.named_before, self.named = self.named, {}
            return self.named
        self.clauses_before, self.clauses = self.clauses, {}
        return self.clauses

    def _read(self, text: str, shared: str | None) -> _Clause:
        """What an attributed clause says: its verdict, the reason of a fail, its label words, and the words and
        typed values (encoded) that are evidence, in order."""
        labels = self._labels(text) if ":" in text or "=" in text else ()
        keyed = boolean_decision(text)  # '"passes": false' states the verdict, whatever words the clause holds
        if shared is not None and shared.startswith(FORCED):  # "Neither X nor Y qualifies": not the words' verdict
            keyed, shared = (shared[len(FORCED):], 0, 0), None
        verdict = keyed[0] if keyed else verdict_of(text) or shared or keyed_decision(text)
        if verdict is not None and not keyed and shared is None and ("the " in text or "The " in text) \
                and third_party(text, self.kinds):
            verdict = None  # "the fire inspector approved the layout": no verdict on the option
        blocked: list[tuple[int, int]] = [keyed[1:]] if keyed else []  # where words are verdict or reason
        spans: list[tuple[int, int]] = []
        reason = None
        if verdict == "fail" and not keyed:
            why = reason_of(text) or parenthesised_reason(text)
            reason = why[0] if why is not None else None
            spans = fail_spans(text)
            if spans:  # a reason travels as the reason
                blocked = [*spans, (why[1], why[2])] if why is not None else spans
        elif verdict == "pass" and not keyed:
            blocked = pass_spans(text)  # "looks good", "a fit": the verdict cell says it
        return verdict, reason, labels, self._evidence(text, blocked, spans)

def read_evidence(trace: str, goal: str, *, id_pattern: str | None = None) -> EvidenceTable:
    """The evidence table of ``trace`` for ``goal`` (no model call; one pass over the lines)."""
    id_re = compile_id_pattern(id_pattern)
    goal_ids = frozenset(m.group(0) for m in id_re.finditer(goal))
    compact = parse_compact(trace)
    if compact is not None:  # an extract-rules payload read back (the reference reader does this)
        return _table_of(compact[0], compact[1], goal)
    constraints = parse_constraints(goal)
    wanted = frozenset(w.lower() for c in constraints if c.operator in ("==", "contains", "in")
                       for w in TOKEN_WORDS.findall(c.threshold))
    reader = _Reader(id_re, option_ids(trace, id_re, goal_ids), goal, find_quantities(goal), wanted)
    with collector_paused():
        for line in iter_lines(trace):
            reader.line(line)
    return EvidenceTable(goal, constraints, reader.rows, reader.notes, frozenset(reader.labels))


def _table_of(parsed: list[ParsedRow], notes: list[str], goal: str) -> EvidenceTable:
    rows: dict[str, Row] = {}
    for item in parsed:
        row = rows.get(item.id) or Row(item.id)
        rows[item.id] = row
        row.body = f"{row.body} {encode_text(item.body)}".strip()
        row.verdicts += {"pass": "p", "eliminated": "f"}.get(item.verdict or "", "")
        if item.reason:
            row.add_reason(item.reason)
    return EvidenceTable(goal, parse_constraints(goal), rows, notes)


def table_lines(table: EvidenceTable) -> Iterator[str]:
    yield from table.text().split("\n")


__all__ = ["EvidenceTable", "Row", "normal_time", "option_ids", "read_evidence"]
