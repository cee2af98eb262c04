"""One deduplicated block of the facts of elided steps, filled into the room a budget leaves.

Per-step digests pay for the same item again in every step that mentions it, and a dropped step keeps
nothing. Under a budget, :func:`add_facts_block` gathers the facts of every dropped or masked past step
(identifiers, numbers with units, paths, quoted strings, names, objects: :func:`relaykit.trajectory.digest.candidates`
of its observation and its action, and the words a short text command names after its verb), writes each
distinct item once, leaves out items whose words the result already holds, ranks the rest by recurrence
(how many blocks of the whole trajectory mention the item's rarest word, capped), by a bonus for items
shaped like values earlier actions passed, by a bonus for siblings of an item a later action named
(:func:`sibling_items`), and by recency (facts of newer steps first), and packs them greedily into the
tokens left.

Where it lives: inside the placeholder of one masked step (its last observation message), so the message
list keeps every structural rule: the block is part of a tool result (or a ReAct observation) whose call
is kept. When no step is masked, the newest dropped step whose masked form fits becomes the host; when
none fits beside a block, the block follows the current observation.

Only facts of steps that came before the current one are used: nothing is read from the future.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import replace

from relaykit import tokens
from relaykit.text import STOPWORDS, words
from relaykit.trajectory.digest import (
    ACTIONABLE,
    PATTERNS,
    RECURRENCE_CAP,
    REPEATED,
    SIBLING,
    candidates,
    item_score,
    item_words,
    pack_items,
    spotted,
    text_words,
    word_counts,
)
from relaykit.trajectory.parse import Msg, Step, Trajectory, is_request_only, request_turns, step_request_flags

FACTS_LABEL = "facts from elided steps: "
RECENCY_WEIGHT = 1.0
"""Rank bonus of an item by its step's place in the whole original history: ``(index + 1) / steps`` times this (the
first step 1/steps, the newest elided step just below 1)."""
MIN_BLOCK_TOKENS = 6
"""No block is written into less room than this (the label alone costs about five tokens)."""
MAX_BLOCK_TOKENS = 1024
"""The most tokens a block takes (beyond that the room goes back to whole and masked steps)."""
ELIDED_WINDOW = 1000
"""The block reads the facts of at most this many elided steps, the newest (bounds the work on long runs)."""
_VERB_ARGS_MAX_WORDS = 8


def step_items(step: Step) -> list[str]:
    """The fact items of a past step: those of its observation and its action, and the words a short text
    command names after its verb ("open door to kitchen" -> "door to kitchen")."""
    items = candidates(step.observation_text) + candidates(step.action_text) + long_quotes(request_text(step))
    rest = command_rest(step.action_text)
    if rest:
        items.append(rest)
    return items


def command_rest(text: str) -> str | None:
    """What a short one-line text command names after its verb ("open door to kitchen" -> "door to kitchen"; ""
    for a bare verb); ``None`` for other text (several lines, a call written out, a long ReAct thought)."""
    text = text.strip()
    if not text or "\n" in text or len(text.split()) > _VERB_ARGS_MAX_WORDS or "(" in text:
        return None
    parts = text.split(maxsplit=1)
    return parts[1] if len(parts) > 1 else ""


def rank_items(elided: Iterable[Step], n_steps: int, known: frozenset[str], df: Mapping[str, int],
               actionable: frozenset[tuple[str, int]], acted: Mapping[str, int] | None = None,
               passed: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """Distinct items of the ``elided`` steps whose words are not all ``known``, best first. ``acted``: the
    newest step whose action names each word (:func:`sibling_items`); ``passed``: the words of the values actions
    passed (:func:`passed_words`), whose items rank ahead by :data:`PASSED`."""
    best: dict[str, tuple[float, str]] = {}
    for step in elided:
        age = RECENCY_WEIGHT * (step.index + 1) / max(1, n_steps)
        counts = word_counts(step.observation_text)
        own = set(counts) | set(words(step.action_text))
        siblings = sibling_items(step, acted) if acted else frozenset()
        pending = pending_items(step, acted) if acted is not None else frozenset()
        for item in step_items(step):
            content = {w for w in words(item) if w not in STOPWORDS and len(w) > 1}
            if not content or content <= known:
                continue
            score = item_score(item, df, own, actionable, siblings, age, counts, content)
            score += PENDING if item.lower() in pending else 0.0
            score += PASSED if content <= passed else 0.0
            key = item.lower()
            if key not in best or score > best[key][0]:
                best[key] = (score, item)
    ranked = sorted(best.values(), key=lambda pair: -pair[0])
    out: list[str] = []
    covered: set[str] = set(known)
    for _, item in ranked:  # an item whose content words earlier items already cover adds nothing
        content = {w for w in words(item) if w not in STOPWORDS and len(w) > 1}
        if not content <= covered:
            out.append(item)
            covered |= content
    return out


PASSED = 8.0
"""Rank bonus of an item every content word of which an action passed as a value (:func:`passed_words`): the objects
the agent handles (the metal pot it picked up, the thermometer in its inventory) and the ids it works with come back
in later actions, and once the steps that named them are elided only the block can say them (ScienceWorld-dev 30%
0.897 -> 0.909 on 20 episodes, four other ScienceWorld tasks 0.880 -> 0.887). It was 3, level with :data:`SIBLING`:
the fruit listed in a bowl beside an opened drawer (siblings, recurring in every look around) then outranked the pot
the agent held; from 8 on, what an action passed comes first (after pending requests), and 8-20 score the same on dev
(near-ScienceWorld 30% 0.869 -> 0.890, 50% 0.912 -> 0.931; 11 dev cases gained, 2 lost)."""
PENDING = RECURRENCE_CAP + ACTIONABLE + SIBLING + PASSED + REPEATED + RECENCY_WEIGHT + 1.0
"""Rank bonus of an item a user's request names that no later action has named yet (:func:`pending_items`): more than
every other bonus together, so what the user asked for and no action has done yet comes first. (It was 6, twice
:data:`SIBLING`; with :data:`PASSED` the ids earlier calls passed, which recur and are siblings of each other,
outranked a message the user quoted for the next call: BFCL-dev 30% 0.774 -> 0.637 at 6, 0.771 at this value.)"""


def passed_words(action: Msg) -> frozenset[str]:
    """The words of the values ``action`` passed: a tool call's argument values (not its function or parameter
    names), or the words a short text command names after its verb ("pick up metal pot" -> up, metal, pot); none
    for other text (a ReAct thought)."""
    calls = action.get("tool_calls")
    if calls:
        values: list[str] = []
        for call in calls:
            arguments = (call.get("function") or {}).get("arguments") if isinstance(call, Mapping) else None
            try:
                parsed = json.loads(arguments) if isinstance(arguments, str) else arguments
            except ValueError:
                parsed = arguments
            values.extend(argument_values(parsed))
        return frozenset(words(" ".join(values)))
    rest = command_rest(tokens.message_text(action))
    return frozenset(words(rest)) if rest else frozenset()


def argument_values(value: object) -> list[str]:
    """The leaf values of a tool call's arguments (nested objects and lists flattened, ``None`` left out), as text."""
    if isinstance(value, Mapping):
        return [v for item in value.values() for v in argument_values(item)]
    if isinstance(value, (list, tuple)):
        return [v for item in value for v in argument_values(item)]
    return [] if value is None else [str(value)]


def request_text(step: Step) -> str:
    """The text of the user turns that follow the step's tool results (:func:`parse.request_turns`)."""
    return "\n".join(tokens.message_text(m) for m in request_turns(step))


def pending_items(step: Step, acted: Mapping[str, int]) -> frozenset[str]:
    """The items (lower-cased) of the user's request in ``step`` (:func:`request_text`) that it quotes or that hold
    a digit, with a content word that no later action has named: what the user asked for and the agent has not
    passed yet (a ticket's title, a tweet's text, an access token), the likeliest arguments of the calls to come.
    Prose and plain names are left out (the agent often passes them in another form: "Los Angeles" as LAX)."""
    text = request_text(step)
    if not text:
        return frozenset()
    longer = long_quotes(text)
    quoted = {item.lower() for pair in _QUOTED.findall(text) for item in pair if item} | {q.lower() for q in longer}
    quoted |= {tag.lower() for tag in _TAGGED.findall(text)}
    out = set()
    for item in (*candidates(text), *longer):
        low = item.lower()
        if low not in quoted and not any(c.isdigit() for c in item):
            continue  # prose and names ("the nearest airport", "Los Angeles"): what the user quoted or numbered
        content = [w for w in words(_THOUSANDS.sub("", item)) if w not in STOPWORDS]
        if any(_named_at(acted, w) <= step.index for w in content):
            out.add(low)
    return frozenset(out)


def _named_at(acted: Mapping[str, int], word: str) -> int:
    """The newest step whose action names ``word`` (-1: none), an ordinal counting as its number and a number as its
    value (:func:`number_key`, the keys :func:`acted_words` adds): a user's "Aug 10th" is named by a call passing
    "2026-08-10" (the words 2026, 08, 10), "1st" by "2026-12-01", "10,000" by 10000.0, so none is pending any more."""
    ordinal = _ORDINAL.fullmatch(word)
    word = ordinal.group(1) if ordinal else word
    key = number_key(word)
    return max(acted.get(word, -1), acted.get(key, -1)) if key is not None else acted.get(word, -1)


def number_key(word: str) -> str | None:
    """The key of a number's value ("=10000" for 10000, 10000.0 and 010000; "=1" for 01): how :func:`acted_words`
    files a number an action passed beside its word, so that the same value written another way matches it; ``None``
    for a word that is not a number. The "=" keeps these keys apart from every word (a word never holds it)."""
    if not _NUMBER.fullmatch(word):
        return None
    value = float(word)
    return f"={int(value)}" if value.is_integer() else f"={value!r}"


def acted_words(actions: Iterable[tuple[int, str]]) -> dict[str, int]:
    """Each word the ``(step index, action text)`` pairs name -> the newest step that names it, and each number's
    value (:func:`number_key`) -> the newest step that passes it (the map :func:`pending_items` and
    :func:`sibling_items` read)."""
    acted: dict[str, int] = {}
    for index, text in actions:
        named = set(words(text))
        acted.update(dict.fromkeys(named, index))
        acted.update(dict.fromkeys((k for k in map(number_key, named) if k is not None), index))
    return acted


_QUOTED = dict(PATTERNS)["quoted"]
_ORDINAL = re.compile(r"(\d+)(?:st|nd|rd|th)")
_TAGGED = re.compile(r"(?<![\w#@])[#@](\w+)")
"""A hashtag or a mention ("#TravelBlog", "@AirlineSupport"): in a user's request, a value the user spelled out for the
next call as surely as a quoted one."""
_NUMBER = re.compile(r"\d{1,15}(?:\.\d{1,15})?")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
"""A thousands separator ("20,000"): dropped before an item's words are read, so the item is the number 20000."""
_LONG_QUOTED = re.compile(r"\"([^\"\n]{61,400})\"|(?<!\w)'((?:[^'\n]|(?<=\w)'(?=\w)){61,400})'(?!\w)")
"""A quoted text longer than a digest's quoted item (60 characters) and at most 400, an apostrophe inside a word
("Can't") allowed: in a user's request, the message, tweet or description the user wants passed word for word."""


def long_quotes(text: str) -> list[str]:
    """The quoted texts of 61-400 characters in ``text`` (:data:`_LONG_QUOTED`), in order, without duplicates: a
    digest never lists them (too long for its bound), but a user's request that quotes a message or a tweet names the
    next call's argument, so the facts block takes them as items (a ``send_message`` whose 138-character text the
    user quoted lost every word of it at 30% on bfcl-dev)."""
    if "'" not in text and '"' not in text:
        return []
    found = (a or b for a, b in _LONG_QUOTED.findall(text))
    return list(dict.fromkeys(q.strip() for q in found if q.strip()))


SIBLING_WINDOW = 60
"""How near (in characters, between first mentions) an item must be to an item a later action named to count as
its sibling: about one clause or sentence of a listing ("a table that has a teapot, a table lamp, and vegetable
oil on it"), one JSON array of a tool result (tuned on the dev environments, 40-80 holding the same)."""


def sibling_items(step: Step, acted: Mapping[str, int]) -> frozenset[str]:
    """The items (lower-cased) of the observation of ``step`` listed beside an item a later action named (within
    :data:`SIBLING_WINDOW` characters of its first mention, no semicolon between, that item included): the step
    listed things the agent went on to act on (orders, files, objects on a table), and the other items of that part
    of the listing are the likeliest next arguments, even when mentioned once, whatever their shape ("report.pdf"
    beside the folder "temp" a later call opened). Empty when no later action drew on the step."""
    text = step.observation_text
    named = {w for w in text_words(text) if acted.get(w, -1) > step.index and w not in STOPWORDS}
    if not named:
        return frozenset()
    found = spotted(text)  # each item with where it is first found: one scan, no search per item
    spots = sorted(at for at, item in found if not named.isdisjoint(item_words(item)[0]))
    return frozenset(item.lower() for at, item in found if _near(text, spots, at))


def _near(text: str, spots: list[int], at: int) -> bool:
    """Whether a position in sorted ``spots`` lies within :data:`SIBLING_WINDOW` characters of ``at`` with no
    semicolon between (a semicolon ends a list: 'orders: [...]; noted by Ruth'). The nearest spot on each side
    decides: a farther one on that side spans the same text and more."""
    k = bisect.bisect_left(spots, at)
    for j in (k - 1, k):
        if 0 <= j < len(spots) and abs(spots[j] - at) <= SIBLING_WINDOW:
            lo, hi = sorted((spots[j], at))
            if ";" not in text[lo:hi]:
                return True
    return False


def block_slot(step: Step, form: str) -> int | None:
    """Which observation message of ``step`` can hold the block: its last tool result, else its last message that is
    not the user's own turn (after tool results, or after a tool-using chat's text reply: the user's request, never
    touched); None when it has none with text content."""
    obs = step.observation
    if is_request_only(step):  # a step cut to the user's requests has no observation to write into
        return None
    tools = [k for k, m in enumerate(obs) if m.get("role") == "tool"] if form != "react" else []
    answers = [k for k, request in enumerate(step_request_flags(step)) if not request]
    k = tools[-1] if tools else (answers[-1] if answers else -1)
    if k < 0 or not isinstance(obs[k].get("content"), (str, type(None))):
        return None
    return k


def with_block(host: Step, block: str, form: str, inside: bool = True) -> Step:
    """``host`` (a step with a :func:`block_slot`) with ``block`` written into that message: inside a masked
    step's bracketed placeholder, or (``inside=False``, the current observation) after its text."""
    k = block_slot(host, form)
    if k is None:
        raise ValueError("this step has no observation message that can hold the facts block")
    obs = list(host.observation)
    m = obs[k]
    content = str(m.get("content") or "")
    tail = "\n" if content.endswith("\n") else ""
    body = content[:-1] if tail else content
    text = (f"{body[:-1]}; {FACTS_LABEL}{block}]" if inside and body.endswith("]")
            else f"{body} ({FACTS_LABEL}{block})")
    new: Msg = {**m, "content": text + tail}
    obs[k] = new
    return replace(host, observation=tuple(obs))


def block_text(items: list[str], max_tokens: int, encoding: str) -> str:
    """The ranked ``items`` packed into at most ``max_tokens`` (and :data:`MAX_BLOCK_TOKENS`) tokens."""
    limit = min(max_tokens, MAX_BLOCK_TOKENS)
    return pack_items(items, limit, encoding) if limit > 0 else ""


def context_words(t: Trajectory) -> frozenset[str]:
    """The words every message of ``t`` but the system prompt holds (its examples are no facts of the episode)."""
    blocks = [*t.task, *(m for step in t.steps for m in step.messages), *t.pending]
    return frozenset(w for m in blocks for w in words(tokens.message_text(m)))


__all__ = ["ELIDED_WINDOW", "FACTS_LABEL", "MAX_BLOCK_TOKENS", "MIN_BLOCK_TOKENS", "PASSED", "PENDING",
           "SIBLING_WINDOW", "acted_words", "argument_values", "block_slot", "block_text", "command_rest",
           "context_words", "item_score", "long_quotes", "number_key", "passed_words", "pending_items", "rank_items",
           "request_text", "sibling_items", "step_items", "with_block"]
