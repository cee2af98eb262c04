"""The reader's speed-ups keep its answers: the fast token pattern matches exactly what the plain one did."""

from __future__ import annotations

import random
import re
from itertools import pairwise

from relaykit.handoff import guards, lexicon, options, reading, remarks
from relaykit.handoff.compact import family
from relaykit.handoff.corpus import STYLES, corpus
from relaykit.handoff.lexicon import (
    DATE_PATTERN,
    ELLIPTICAL,
    FAIL_EXTRA_PATTERN,
    FAIL_PHRASE_PATTERN,
    LETTER,
    PASS_PATTERN,
    TIME_PATTERN,
    TOKEN,
    folded,
)
from relaykit.handoff.reading import KIND, NOT_CSV, kind_before, prose_or_notes
from relaykit.handoff.table import Row
from relaykit.handoff.text import DEFAULT_ID_PATTERN, DEFAULT_ID_RE, QUANTITY_PATTERN, compile_id_pattern
from relaykit.text import iter_lines, iter_sentences, line_sentences

PLAIN_TOKEN = re.compile(
    r"(?=[\w$£€¥✓✔✗✘❌✅✖👍👎])(?:"
    rf"(?P<time>{TIME_PATTERN})|(?P<date>{DATE_PATTERN})|(?P<qty>{QUANTITY_PATTERN})"
    rf"|(?P<w>[{LETTER}][{LETTER}0-9]*(?:[-_./'+][{LETTER}0-9]+)*)|(?P<mark>[✓✔✗✘❌✅✖👍👎]\uFE0F?))",
    re.IGNORECASE,
)
"""The token pattern as it was first written (one case-insensitive alternation): the reference."""

TRICKY = [
    "usd 180, Usd180, USD 1,250.00, 180 usd, 180 Dollars, €95, ¥ 300, EUR12 eur 12 Eurostar EURO 5",
    "2 PM, 2pm, 2 p.m., 14:00, 9:30 AM, 12 am, 1:05pm. 13 pm 24:00 2 pmx 7 Am",
    "2026-12-01 and 1/2/26 and 12/31/2026; 2026-1-1",
    "5 KM, 5km, 5 Km2, 5 km², 3 MI, 2.5 GB, 99.5%, 10 Percent, 4-star, 3 hrs, 2 Kms, 5 kmh",
    "HT01 is 5 \u212am away; \u017fpa and \u0131nn and \u0130stanbul; K9 and \u212a9; CHF-9 SEK 5 sgd9 HKD 1.5",
    "DKK 40 nok40 INR 5 cny 6 AUD 7 nzd 8 cad 9 jpy 10 GBP 11 gbp 12 CAD-3 A-5 AB-5 e.g. 1.2.3",
    "✓ ✗ ✔️ ❌ 👍 👎 ✅ ✖ x✓ 5✓ ✓5 — it's AP7's rate: $2.70/h, rate=2.70, cost+tax, a/b test, don't",
    "US 5, USD, U 5, usd-5, US$5, $ 5, $5.5.5, 5.5.5, 1,2345, 12,345,678.9 and 0.5m 5 m. 5 mm 5 MB 5 Mbps",
    "USDx 5, usd\t5, EUR\u00a05, DKKS 5, SEK  5, sek\n5, Sgd5k, hkd 1 250, usd 1,250.00, \u017fEK 5, dis 5, audit 5",
]


def _tokens(pattern: re.Pattern[str], text: str) -> list[tuple[tuple[int, int], str | None, dict[str, str | None]]]:
    return [(m.span(), m.lastgroup, m.groupdict()) for m in pattern.finditer(text)]


def test_fast_token_pattern_matches_the_plain_one_on_every_corpus_trace_and_odd_text() -> None:
    texts = [t.trace for t in corpus(STYLES, seeds=1)] + [t.goal for t in corpus(STYLES, seeds=1)] + TRICKY
    for text in texts:
        assert _tokens(TOKEN, text) == _tokens(PLAIN_TOKEN, text), text[:80]
    assert TOKEN.groupindex == PLAIN_TOKEN.groupindex


def test_fast_token_pattern_reads_every_character_as_the_plain_one_does() -> None:
    # each character on its own, and after a digit, a letter and a space: case folding (Kelvin sign, long s,
    # dotted and dotless i) must give the same tokens as the case-insensitive reference
    for code in range(0x3000):
        char = chr(code)
        for text in (char, f"5{char}", f"5 {char}", f"a{char}b", f"USD{char}5", f"{char}SD 5", f"{char}ek5",
                     f"{char}NR 5"):  # the first letter of a currency code, as the quantity guard tests it
            assert _tokens(TOKEN, text) == _tokens(PLAIN_TOKEN, text), hex(code)


PHRASES = [FAIL_PHRASE_PATTERN, FAIL_EXTRA_PATTERN, PASS_PATTERN]
ODD_PHRASES = [
    "HT01 DROPS OUT on Price; it's OUT. Ruled Out. NO-GO ✗. Not A Fit. Too Pricey - No. She's Out. StaYs iN.",
    "H\u0130 is d\u0131squalif\u0131ed, cro\u017f\u017fed off, \u212aept it, \u017ftay\u017f in, "
    "DISQUAL\u0130FIED, \u0130S OUT",
    "Pays out on 94% of claims; it stands out on price; out of us-west; fits 60 people; FITS. KEEP.",
    "set it aside; SET THEM ASIDE; put KX8 aside; rules CR7 out; over our limit; above the 10 USD cap",
]


def test_phrase_patterns_on_folded_text_match_as_case_insensitive_ones_on_the_text() -> None:
    texts = [s for t in corpus(STYLES, seeds=1) for s in iter_sentences(t.trace)] + ODD_PHRASES
    for source in PHRASES:
        fast, plain = re.compile(source), re.compile(source, re.IGNORECASE)
        for text in texts:
            low = folded(text)
            assert len(low) == len(text)
            assert [m.span() for m in fast.finditer(low)] == [m.span() for m in plain.finditer(text)], text[:80]
            assert bool(fast.match(low)) == bool(plain.match(text))


CASED = [chr(c) for c in range(0x30000) if c < 0x80 or chr(c).lower() != chr(c) or chr(c).upper() != chr(c)
         or chr(c).casefold() != chr(c)]
"""Every character with a case (folding can only change these), and ASCII."""


def test_folding_keeps_every_character_in_its_place_and_the_phrase_matches() -> None:
    for source in PHRASES:
        fast, plain = re.compile(source), re.compile(source, re.IGNORECASE)
        for char in CASED:
            code = ord(char)
            for text in (f"{char}out", f"drop{char}", f"is o{char}t.", f"no{char}go"):
                low = folded(text)
                assert len(low) == len(text), hex(code)
                assert [m.span() for m in fast.finditer(low)] == [m.span() for m in plain.finditer(text)], hex(code)


def test_a_line_splits_into_the_sentences_iter_sentences_finds() -> None:
    lines = [line for t in corpus(STYLES, seeds=1) for line in iter_lines(t.trace)] + TRICKY + ODD_PHRASES + [
        "A. B! C? D.  E.\tF. g. 1. (x) \"y\". $5. \u20ac5? [z]", "end.  ", "  ", "", "x.\ty", "a. b\nC. d"]
    for line in lines:
        assert line_sentences(line) == list(iter_sentences(line)), line[:80]


def test_the_default_id_regex_finds_what_the_default_pattern_does() -> None:
    plain = re.compile(DEFAULT_ID_PATTERN)
    assert compile_id_pattern(None) is DEFAULT_ID_RE and compile_id_pattern(DEFAULT_ID_PATTERN) is DEFAULT_ID_RE
    texts = [t.trace for t in corpus(STYLES, seeds=1)] + TRICKY + ODD_PHRASES + [
        "H01 xH01 _H01 H01x H01_ ABCD1 ABC12345 AB-12 A-1234 -A1 é A1 \u0130A1 ÉA1 A1é HT01's (HT02) HT03.HT04"]
    texts += [f"{chr(c)}AB12 A{chr(c)}1 AB1{chr(c)}" for c in range(0x3000)]
    for text in texts:
        assert DEFAULT_ID_RE.findall(text) == plain.findall(text), text[:80]
        assert [m.span() for m in DEFAULT_ID_RE.finditer(text)] == [m.span() for m in plain.finditer(text)]
    for word in ("H01", "ABC1234", "A-1", "ABCD1", "H01x", "h01", "AB-", "É1"):
        assert bool(DEFAULT_ID_RE.fullmatch(word)) == bool(plain.fullmatch(word))
        assert bool(DEFAULT_ID_RE.match(word)) == bool(plain.match(word))


def test_the_kind_before_an_id_is_what_the_kind_pattern_finds_in_the_whole_head() -> None:
    heads = [s[:k] for t in corpus(STYLES, seeds=1) for s in iter_sentences(t.trace) for k in range(0, len(s), 7)]
    heads += ["the Hotel ", "the Hotel  ", "xHotel ", "(Hotel ", "Hotel ", " ", "", "a b Cc ", "A" + "a" * 90 + " ",
              "the HOTEL ", "the Éclair ", "the Hotel-Room ", "Ab Cd ", "room Ab\t"]
    for head in heads:
        plain = [m.group(1).lower() for m in KIND.finditer(head)]
        assert kind_before(head) == (plain[-1] if plain else None), head


def test_reading_pauses_the_collector_and_restores_its_state() -> None:
    import gc

    from relaykit.handoff.evidence import read_evidence

    trace = "H01 costs $120 and passes.\nH02 costs $150, 9 km out, ruled out on distance."
    goal = "a hotel under 200 USD within 5 km"
    assert gc.isenabled()
    read_evidence(trace, goal)
    assert gc.isenabled()
    gc.disable()
    try:
        table = read_evidence(trace, goal)
        assert not gc.isenabled()
    finally:
        gc.enable()
    assert set(table.rows) == {"H01", "H02"}


def test_prose_or_notes_is_what_the_not_csv_pattern_finds() -> None:
    lines = [line.strip() for t in corpus(STYLES, seeds=1) for line in iter_lines(t.trace)] + TRICKY + [
        "", ".", "a,b,c", "a, b, c.", "- a, b", "• a,b", "* x", "name: a, b", "a:b,c", "a:\tb", "a:\u00a0b", "a =",
        "x;", "a, b, c!", "a,b:", "price,rate,stars", "a\r", "a.\r"]
    for line in lines:
        assert prose_or_notes(line) == (NOT_CSV.search(line) is not None), line[:80]


def test_parse_row_is_items_of_then_keys_of() -> None:
    """The compact writer's one-pass row parse answers what the two plain passes did (ranks per unit)."""
    from relaykit.handoff.compact_body import SEP, items_of, keys_of, parse_row

    bodies = ["", "price 2.7\x1fUSD ; 4\x1fkm walk 3\x1fkm ;", f"a  b ; ; 5{SEP}# x 6{SEP}# 7{SEP}USD",
              f"odd 1{SEP}; tail"]
    for body in bodies:
        items = items_of(body)
        assert parse_row(body) == (items, keys_of(items))
    assert parse_row(f"9{SEP}km 8{SEP}km")[1] == {0: ("km", 0), 1: ("km", 1)}


def test_family_strips_as_the_regex_it_replaces() -> None:
    ids = ["H07", "VND-7", "VND-", "123", "HT", "AB-12-3", "GV141", "H\u0663", "H01\n", "SU-1", "a-b-1", ""]
    for identifier in ids:
        assert family(identifier) == re.sub(r"[-\d]+$", "", identifier), identifier


def test_elliptical_reads_as_its_first_form() -> None:
    # an id was written "[A-Za-z]*[\w-]*\d[\w-]*" (the same words, more backtracking)
    plain = re.compile(ELLIPTICAL.pattern.replace(r"[\w-]*\d[\w-]*", r"[A-Za-z]*[\w-]*\d[\w-]*"), ELLIPTICAL.flags)
    assert plain.pattern != ELLIPTICAL.pattern
    texts = [c for t in corpus(STYLES, seeds=1) for s in iter_sentences(t.trace) for c in s.split(", ")]
    texts += ["LP2 too.", "So is LP4.", "Q103 due to cost.", "and HT-9", "ſame for K9", "ABC12x-3, as well!",
              "LP2", "too", "HT1 HT2 too", "x1y2z3 likewise", "İ5 ditto.", "Same with AB-12-c"]
    for text in texts:
        assert (ELLIPTICAL.match(text) is None) == (plain.match(text) is None), text


def test_row_extend_adds_as_add_does_token_by_token() -> None:
    rng = random.Random(7)
    words = ["a", "ab", "b", ";", "180\x1fUSD", "ab-c", "c", "a;", "USD"]
    for _ in range(2000):
        body = " ".join(rng.choice(words) for _ in range(rng.randrange(5)))
        tokens = [rng.choice(words) for _ in range(rng.randrange(6))]
        one, many = Row("X1", body=body), Row("X1", body=body)
        for token in tokens:
            one.add(token)
        many.extend(tokens)
        assert many.body == one.body, (body, tokens)


ENDS = ["it is not  a fit", "we would\tonly be\u00a0glad to", "x-not be the", "no longer being an", "no nos the",
        "the 12-day pass", "a multi-day  pass", "NOT\u2003THE", "it cannot make the", "hardly", " not ",
        "won't  get an", "could have been", "may still be", "no longer being an option", "no nos make the  fit",
        "would only be ok", "nicht", "kein be a", "the ski\n pass", "a\u1680not be"]


def test_ends_before_finds_what_a_search_of_the_whole_head_finds() -> None:
    texts = [s for t in corpus(STYLES, seeds=1) for s in iter_sentences(t.trace)][::7] + ENDS
    for tail in (guards._NOT_BEFORE, guards._WOULD_BEFORE, guards._TICKET_BEFORE):
        for text in texts:
            for end in range(len(text) + 1):
                fast, plain = tail.before(text, end), tail.pattern.search(text[:end])
                assert (fast and fast.span()) == (plain and plain.span()), (tail.pattern.pattern[:20], text, end)



def _plain_clauses(sentence: str) -> tuple[str, ...]:
    """``clauses_of`` as it was first written: the split pattern tried on every sentence with a comma."""
    if ";" not in sentence and "," not in sentence and "wh" not in sentence.lower() \
            and "the former" not in sentence and "the latter" not in sentence:
        return (sentence.strip(),)
    parts = reading._CLAUSE_SPLIT.split(sentence)
    if (", " in sentence and ("other" in sentence or "rest" in sentence or "remaining" in sentence
                              or "first" in sentence or "last" in sentence or "final" in sentence)) \
            or "the former" in sentence or "the latter" in sentence \
            or "ly the" in sentence or "st the" in sentence:
        parts = [piece for part in parts for piece in reading._GROUP_SPLIT.split(part)]
    return tuple(clause.strip() for clause in parts)


def test_clauses_of_cuts_where_the_plain_form_does() -> None:
    texts = [s for t in corpus(STYLES, seeds=1) for s in iter_sentences(t.trace)]
    texts += ["A, WHILE B", "a,\tBut b", "x: THE FORMER is out", "p;q", "a, whereas b", "a, and the latter, too",
              "HT1 is 5 km, 4 stars, pool", "so, the first one fails", "a, BUTTER b", "A, Then b", "x, ThE second",
              "A, Whereas B", "a, \u0130 b", "\u017f, but x", "5, only the first"]
    for text in texts:
        assert reading.clauses_of(text) == _plain_clauses(text), text


def test_quantified_finds_what_its_first_form_found() -> None:
    fast = remarks._QUANTIFIED  # the lookbehinds were first, the word boundary after them
    first = fast.pattern.replace(r"\b(?<!meets )", "(?<!meets )").replace(r"(?<!fails )(?:", r"(?<!fails )\b(?:")
    plain = re.compile(first, fast.flags)
    assert plain.pattern != fast.pattern
    texts = [s for t in corpus(STYLES, seeds=1) for s in iter_sentences(t.trace)]
    texts += ["meets both", "it meets all", "MEETS BOTH checks", "passes every test", "none of them", "the rest",
              "xboth", "all good", "fails any", "satisfies  each", "Each one", "-both", "_all"]
    for text in texts:
        assert [m.span() for m in fast.finditer(text)] == [m.span() for m in plain.finditer(text)], text


def test_rated_somewhere_is_what_a_case_insensitive_search_finds() -> None:
    texts = [t.trace for t in corpus(STYLES, seeds=1)]
    texts += ["", "no rating word", "x CLASS A", "subclass", "ſtandard", "\u017fTANDARD", "gradeS", "_rated",
              "unrated", "the 2-star RATING", "é" * 10 + " Certified", "pro-tection", "pro tection"]
    for at in (65_530, 65_536, 65_540, 131_060):  # a word across a chunk's end, and after a filler of letters
        for filler in ("a", " ", "é"):
            texts += [filler * at + " standard", filler * at + "standard", filler * at + "xclass"]
    for text in texts:
        assert options.rated_somewhere(text) == (options._RATING_AT.search(text) is not None), text[-40:]


def test_pass_spans_after_a_verdict_are_the_spans_of_their_own_text() -> None:
    texts = [s for t in corpus(STYLES, seeds=1) for s in iter_sentences(t.trace)][::5]
    texts += ["HT1 passes, fine.", "looks good", "it stays in", "HT2 passes", "a day pass"]
    for before, text in pairwise(texts):
        lexicon.verdict_of(before)  # the kept matches are those of another text
        low = folded(text)
        plain = [m.span() for m in lexicon._PASS_RE.finditer(low)]
        approved = lexicon._approval(text, low)
        assert lexicon.pass_spans(text) == ([*plain, approved.span()] if approved else plain), text
        assert lexicon.pass_spans(text) == lexicon.pass_spans(text)


def test_a_heading_has_one_word_at_most_as_the_word_list_said() -> None:
    def plain(rest: str) -> bool:
        return len([w for w in re.findall(r"[A-Za-z]+", rest) if w.lower() not in ("id", "option", "name")]) <= 1

    texts = [line for t in corpus(STYLES, seeds=1) for line in iter_lines(t.trace)]
    texts += ["", "Option", "ID name option", "a", "a b", "Name: x", "id id id", "x (y z)", "é é", "Option 5 km"]
    for text in texts:
        assert reading._one_word_at_most(text) == plain(text), text


ODD_IDS = ["HT01 goes.", "so HX2 is fine", "at 1.1 km, HX2 is fine", "So R4 it is.", "This is the one.",
           "Recommendation: LH-401.", "TK4 → go", "FJ-1 yes,", "TK1: nok", "Not HW4: 12 km out.",
           "Dropping HW9 seems wise", "it is what it is, ab-c-12x goes", "x, e12 has to go", "the owner said",
           "Supplier SN4 says it is fine", "a, hotel HT09 was marked unavailable", "abcdefghij0 it is",
           "In: HT02.", "Accepted - SU2", "Out: x-y-z9", "ſn4 says ok", "İ5 goes", "K9 goes; KX-7 has to go"]


def test_verdict_patterns_read_an_id_as_their_first_form() -> None:
    # an id was written "[a-z]*[\w-]*\d[\w-]*" (the same words, with a backtracking cost for every split)
    from relaykit.handoff import leads

    texts = [c for t in corpus(STYLES, seeds=1) for s in iter_sentences(t.trace) for c in (s, *s.split(", "))]
    texts += ODD_IDS + ODD_PHRASES
    for pattern, first, on_folded in ((lexicon._FAIL_EXTRA_RE, r"[a-z]*[\w-]*\d", True),
                                      (lexicon._FAIL_RARE_RE, r"[a-z]*[\w-]*\d", True),
                                      (lexicon._APPROVAL_RE, r"[a-z]*[\w-]*\d", True),
                                      (lexicon._REPORTED, r"[a-z]*[\w-]*\d", False),
                                      (leads._LEAD, r"[A-Za-z]*[\w-]*\d", False)):
        plain = re.compile(pattern.pattern.replace(r"[\w-]*\d", first), pattern.flags)
        assert plain.pattern != pattern.pattern
        for text in texts:
            read = folded(text) if on_folded else text
            assert [m.span() for m in pattern.finditer(read)] == [m.span() for m in plain.finditer(read)], text


def test_folding_translates_only_where_a_letter_it_folds_is() -> None:
    for char in CASED:
        for text in (f"{char}out", f"€ {char}İ", f"✓{char}"):
            assert folded(text) == text.translate(lexicon._FOLD).lower(), hex(ord(char))
