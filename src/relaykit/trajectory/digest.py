"""Digests: the few facts of a masked observation that later steps may need, in a bounded number of tokens.

A digest lists identifiers (``ORD-1182``, ``user_id``, ``camelCase``, e-mail addresses), numbers with their
units (``42 kg``, ``$19.99``, ``3.5%``), paths and file names, quoted strings (not JSON keys), and names
(capitalised words that do not open a sentence, the object named after an article: "a red apple" ->
``red apple``, "a TV stand" -> ``TV stand``, and a bare item alone on an indented or bulleted list line:
``\tbread``). Items are ranked by recurrence: how many other blocks of the trajectory (task, other steps) mention
the item's rarest word; ties keep the order of first appearance. Items the context holds anyway (their words all
appear in the task, current step or pending turn; not the system prompt, whose examples are instructions, not
facts of the episode) and JSON field names are left out. Items are added
while the digest stays within its token bound.

Everything here is regular-expression work over the text, linear in its length.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping

from relaykit import tokens
from relaykit.text import STOPWORDS, words

_UNITS = (r"%|°\s?[CF]|kg|mg|g|lbs?|oz|km|cm|mm|m|mi|ft|in|ms|sec|s|min|h|hrs?|hours?|days?|weeks?|"
          r"degrees?|celsius|fahrenheit|usd|eur|gbp|tb|gb|mb|kb|bytes?|tokens?|items?|units?|points?")
PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("quoted", re.compile(r"\"([^\"\n]{1,60})\"|(?<!\w)'([^'\n]{1,60})'(?!\w)")),
    ("path", re.compile(r"(?<![\w/])(?:~|\.{1,2})?/[\w.\-]+(?:/[\w.\-]+)*|\b[\w\-]+\.(?:txt|py|json|csv|md|log|"
                        r"pdf|png|jpe?g|ya?ml|toml|html?|js|ts|sh|xml|zip|tar|gz)\b")),
    ("email", re.compile(r"\b[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+\b")),
    ("number", re.compile(r"[$€£]?(?<![\w.])\d+(?:[.,:]\d+)*(?:\s?(?:" + _UNITS + r")\b)?", re.IGNORECASE)),
    ("id", re.compile(r"\b(?=[\w\-]*\d)(?=[\w\-]*[A-Za-z])[A-Za-z0-9][\w\-]{2,}\b|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"
                      r"|\b[a-z]+[A-Z][A-Za-z0-9]+\b")),
    ("name", re.compile(r"(?<![.!?:]\s)(?<!^)(?<!\n)\b[A-Z][a-zA-Z]+(?:\s+[A-Z][a-zA-Z]+)*\b")),
    ("object", re.compile(r"\b(?:a|an|the|some|your)\s+"
                          r"(?:[a-z][a-z\-]*\s+(?:called|named|titled|labell?ed)\s+)?"  # a substance called X: X
                          r"((?:[A-Z]{2,}\s+)?"  # an acronym may open it: a TV stand
                          r"[a-z][a-z\-]*\b(?:\s+(?!(?:a|an|the|some|your)\b)[a-z][a-z\-]*\b){0,2})")),
    ("listed", re.compile(r"^[ \t]+(?:[-*•][ \t]+)?(?!(?:a|an|the|some|your)\b)"  # a bare item on a list line
                          r"([a-z][a-z\-]*(?:[ ][\w\-]+){0,3})[ \t]*$", re.MULTILINE)),
)


RECURRENCE_CAP = 3
_JSON_KEY = re.compile(r"[\"']?\s*:\s*(?:[\[{\"'\d\-tfn]|$)")


def candidates(text: str) -> list[str]:
    """The digest candidates of ``text`` in order of first appearance, without duplicates."""
    return [item for _, item in spotted(text)]


def spotted(text: str) -> tuple[tuple[int, str], ...]:
    """The digest candidates of ``text`` with where each is first found (the start of its first match), in
    that order, without duplicates (one scan: callers that need positions never search the text again)."""
    return _memo_candidates(text) if len(text) <= _MEMO_CHARS else _memo_long(text)


_MEMO_CHARS = 20_000
"""Texts up to this long are memoised, the 256 newest (a step's digest, its sibling kinds and the facts block
read the same observation one after the other); longer ones go to a memo of :data:`LONG_MEMO` texts that
``compress_trajectory`` empties when it returns (:func:`forget_long_texts`), so none is kept alive between calls."""
LONG_MEMO = 4
"""How many texts over ``_MEMO_CHARS`` one call keeps the scan of (a 2.5 MB tool result was scanned 23 times
in one call under a budget: by the packings, the masked form's digest, the siblings and the facts block)."""


_NEEDS: dict[str, re.Pattern[str]] = {  # a character every match of the kind holds: absent, the scan is skipped
    "quoted": re.compile("[\"']"), "path": re.compile(r"[/.]"), "email": re.compile("@"), "number": re.compile(r"\d"),
    "id": re.compile(r"[\d_A-Z]"), "name": re.compile("[A-Z]"),
}


def _candidates(text: str) -> tuple[tuple[int, str], ...]:
    found: list[tuple[int, str]] = []
    for kind, pattern in PATTERNS:
        needs = _NEEDS.get(kind)
        if needs is not None and needs.search(text) is None:
            continue
        grouped = pattern.groups > 0
        for match in pattern.finditer(text):
            if _JSON_KEY.match(text, match.end()):
                continue  # a key of a JSON object names a field, not a fact
            raw = match.group(0)
            group = next((k for k, g in enumerate(match.groups(), 1) if g), 0) if grouped else 0
            item = _clean(kind, match.group(group) if group else raw)
            if item:
                found.append((match.start(group), item))
    found.sort(key=_first)  # stable: at one start, pattern order
    seen: set[str] = set()
    out: list[tuple[int, str]] = []
    for at, item in found:
        key = item.lower()
        if key not in seen:
            seen.add(key)
            out.append((at, item))
    return tuple(out)


_memo_candidates = functools.lru_cache(maxsize=256)(_candidates)
_memo_long = functools.lru_cache(maxsize=LONG_MEMO)(_candidates)


def forget_long_texts() -> None:
    """Empty the memo of long texts' scans (``compress_trajectory`` calls it when it returns)."""
    _memo_long.cache_clear()


def _first(pair: tuple[int, str]) -> int:
    return pair[0]


def _clean(kind: str, item: str) -> str:
    item = item.strip()
    if kind != "object" and kind != "name":
        return item if len(item) > 1 else ""
    if kind == "object":
        kept = []
        for word in item.split():
            if word in STOPWORDS:
                break
            kept.append(word)
        item = " ".join(kept)
    if kind == "name" and item.lower() in STOPWORDS:
        return ""
    return item if len(item) > 1 else ""


def block_frequencies(blocks: Iterable[str]) -> Counter[str]:
    """In how many of ``blocks`` each word occurs (the recurrence table a digest is ranked with)."""
    df: Counter[str] = Counter()
    for block in blocks:
        df.update(set(words(block)))
    return df


def recurrence(item: str, df: Mapping[str, int], own: frozenset[str] | set[str]) -> int:
    """How many other blocks mention the item's rarest word (the block holding it counts once less)."""
    ws = item_words(item)[1]
    if not ws:
        return 0
    return min(df.get(w, 0) - (1 if w in own else 0) for w in ws)


@functools.lru_cache(maxsize=256)
def word_counts(text: str) -> Counter[str]:
    """How many times ``text`` says each word, memoised like :func:`text_words` (the facts block reads it for every
    elided step each time it is built; do not change the counter returned)."""
    return Counter(words(text))


@functools.lru_cache(maxsize=65536)
def item_words(item: str) -> tuple[frozenset[str], tuple[str, ...]]:
    """An item's word set and the words its recurrence reads (its non-stopwords, else all): items recur across
    the steps of a long run (room names, objects), so each is split once."""
    ws = words(item)
    return frozenset(ws), tuple(w for w in ws if w not in STOPWORDS) or tuple(ws)


@functools.lru_cache(maxsize=256)
def text_words(text: str) -> frozenset[str]:
    """The word set of an observation, memoised like :func:`candidates` (its digest and its sibling kinds both
    read it)."""
    return frozenset(word_counts(text))


@functools.lru_cache(maxsize=65536)
def shape(item: str) -> tuple[str, int]:
    """What kind of token an item is: its character classes (upper, lower, digit, other) and its length.
    ``HSR97W`` and ``5BGGWZ`` share a shape; ``Ivan`` and ``HSR97W`` do not. Memoised: the same items are
    shaped by every digest and the facts block."""
    classes = "".join(sorted({"A" if c.isupper() else "a" if c.islower() else "9" if c.isdigit() else "-"
                              for c in item}))
    return classes, len(item)


def action_shapes(actions: Iterable[str]) -> frozenset[tuple[str, int]]:
    """The shapes of the values actions pass (quoted strings, identifiers, numbers, words after a verb), but not of
    plain lower-case words (:data:`PLAIN`)."""
    out: set[tuple[str, int]] = set()
    for action in actions:
        for item in (*_QUOTED_VALUE.findall(action), *action.split()[1:], *candidates(action)):
            item = item.strip("\"'(),;:[]{}=")
            if item and len(item) > 1 and (kind := shape(item))[0] not in PLAIN:
                out.add(kind)
    return frozenset(out)


PLAIN = ("a", "-a")
"""The character classes of plain lower-case words and phrases ("freezer", "metal pot"), which :func:`action_shapes`
leaves out: their shape is only their length, and a word whose length matched a passed one ("freezer" and "kitchen")
ranked ahead of others as if shaped like an id (all dev sets pooled, 50% 0.956 -> 0.968: 16 cases better, 2 worse;
30% 0.936 -> 0.933: 16 better, 12 worse, which kitchen container comes next either way)."""


_QUOTED_VALUE = re.compile(r"[\"']([^\"'\n]{2,40})[\"']")
ACTIONABLE = 2.0
"""The rank bonus of an item shaped like a value some action passed (an id like those the agent acts on)."""
SIBLING = 3.0
"""The rank bonus of an item listed beside an item of its step that a later action named: a sibling on the list
the agent picks from (the other orders, files, objects on a table), the evidence that a once-mentioned item will
be acted on (:func:`relaykit.trajectory.facts.sibling_items`)."""
REPEATED = 2.0
"""Rank bonus (in a digest and in the facts block) of an item its own text names more than once (every content word
at least twice): a text listing describes the things one can use ("a freezer. The freezer door is closed.", "a stove,
which is turned off. On the stove is: nothing.") and mentions what lies in them once ("a bowl (containing a banana, a
potato)"); a tool result repeats the id it is about. In the facts block: near-ScienceWorld dev 30% 0.866 -> 0.906 on a
new set of 16 episodes, all dev sets pooled 0.900 -> 0.913 at 30% and 0.940 -> 0.941 at 50% (13 cases gained, 3 lost;
1.5-5 all gain, 2 the most); in digests too: 0.915 / 0.944 (3 more gained, none lost)."""


def item_score(item: str, df: Mapping[str, int], own: frozenset[str] | set[str], actionable: frozenset[tuple[str, int]],
               siblings: Collection[str], start: float = 0.0, counts: Mapping[str, int] | None = None,
               content: Collection[str] = ()) -> float:
    """An item's rank in a digest, the facts block and a listing: its recurrence (capped at ``RECURRENCE_CAP``) plus
    ``start`` (the block's recency), a bonus for the shape of values actions pass (:data:`ACTIONABLE`), one for a
    sibling of an acted-on item (``siblings``, lower case; :data:`SIBLING`) and, given the ``counts`` of its text's
    words, one when the text says each of its ``content`` words more than once (:data:`REPEATED`)."""
    score = min(recurrence(item, df, own), RECURRENCE_CAP) + start
    score += ACTIONABLE if shape(item) in actionable else 0.0
    score += SIBLING if item.lower() in siblings else 0.0
    score += REPEATED if counts is not None and content and min(counts[w] for w in content) >= 2 else 0.0
    return score


def digest(text: str, max_tokens: int, df: Mapping[str, int] | None = None, encoding: str = "o200k_base",
           known: frozenset[str] | set[str] = frozenset(),
           actionable: frozenset[tuple[str, int]] = frozenset(), siblings: frozenset[str] = frozenset()) -> str:
    """At most ``max_tokens`` tokens of the facts in ``text``, most recurrent first (``""`` for none). Items
    whose words are all in ``known`` (what the context holds anyway) are left out; items shaped like a value
    an action passed (``actionable``, from :func:`action_shapes`) rank ahead by :data:`ACTIONABLE`, the
    ``siblings`` (lower-cased items listed beside one a later action named) by :data:`SIBLING`, and items the text
    names more than once by :data:`REPEATED`."""
    if max_tokens <= 0 or not text:
        return ""
    items = [item for item in candidates(text) if not known or not item_words(item)[0] <= known]
    if df is not None:
        own, counts = text_words(text), word_counts(text)

        def rank(k: int) -> tuple[float, int]:
            return -item_score(items[k], df, own, actionable, siblings, 0.0, counts, item_words(items[k])[1]), k

        items = [items[k] for k in sorted(range(len(items)), key=rank)]
    return pack_items(items, max_tokens, encoding)


def pack_items(items: Iterable[str], max_tokens: int, encoding: str = "o200k_base") -> str:
    """``items`` in their order, joined with ``", "``, while they fit ``max_tokens`` (an item inside one already
    taken is skipped; a taken one inside a new, longer one is replaced)."""
    if max_tokens <= 0:
        return ""
    chosen: list[str] = []
    lows: list[str] = []  # the chosen items lower-cased, once each
    used = 0
    for item in items:
        if used >= max_tokens:  # full: no item (at least two tokens with its separator) fits any more
            break
        low = item.lower()
        if any(low in c for c in lows):
            continue
        inside = {k for k, c in enumerate(lows) if c in low}  # "ORD" then "ORD-1182": keep the longer one
        freed = sum(tokens.count(chosen[k], encoding) + 1 for k in inside)
        cost = tokens.count(item, encoding) + 1  # ", " joins items: about one token
        if used - freed + cost <= max_tokens + 1:
            if inside:
                chosen = [c for k, c in enumerate(chosen) if k not in inside]
                lows = [c for k, c in enumerate(lows) if k not in inside]
            chosen.append(item)
            lows.append(low)
            used += cost - freed
    joined = ", ".join(chosen)
    while chosen and tokens.count(joined, encoding) > max_tokens:  # the join estimate was short
        chosen.pop()
        joined = ", ".join(chosen)
    return joined


__all__ = ["ACTIONABLE", "LONG_MEMO", "PATTERNS", "REPEATED", "SIBLING", "action_shapes", "block_frequencies",
           "candidates", "digest", "forget_long_texts", "item_score", "item_words", "pack_items", "recurrence", "shape",
           "spotted", "text_words", "word_counts"]
