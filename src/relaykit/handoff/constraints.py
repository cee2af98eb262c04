"""Reading the hard constraints a goal states, and checking a value against one, without a model."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from itertools import pairwise

from relaykit.handoff.schema import Constraint, Operator
from relaykit.handoff.text import (
    DATE_PATTERN,
    TIME_PATTERN,
    date_readings,
    find_quantities,
    normal_date,
    normal_time,
)

_COUNTED = r"(?:\s+of)?(?=\s*[\d$£€¥])"  # "minimum 3 nights", "maximum of 400 USD"; not "minimum order quantity"
_NOT = r"(?:no|not|never)\s+"
_THAN = r"\s+than(?=\s*[-−]?[$£€¥]?\d)"  # "cheaper than 400 USD" (not "cheaper than HT03")
_AT_MOST = (rf"at most|at or (?:below|under)|{_NOT}(?:more|higher|greater|further|farther|longer|later|larger|"
            rf"bigger|heavier|costlier|dearer){_THAN}|{_NOT}(?:above|over)|up to|under|below|less than|"
            rf"(?:lower|shorter|cheaper|smaller|fewer|lighter|sooner|earlier){_THAN}|max(?:imum|\.)?{_COUNTED}|"
            r"not to exceed|not exceeding|does not exceed|doesn't exceed|capped at|cap of|within|<=|≤|<")
_AT_LEAST = (rf"at least|at or above|{_NOT}(?:less|lower|fewer|shorter|smaller|cheaper|lighter){_THAN}|"
             rf"{_NOT}(?:below|under)|min(?:imum|\.)?{_COUNTED}|a minimum of|over|above|more than|"
             rf"(?:higher|greater|longer|larger|bigger|heavier){_THAN}|>=|≥|>")
_OR_BOUND = re.compile(
    r"(?P<value>(?<![\w.])[-−–]?[$€£¥]?\d[\d.,]*(?:k\b)?(?:\s*[^\s\d,;]+){0,3}?)\s+or\s+(?:(?P<le>below|less|"
    r"under|lower|fewer|cheaper|shorter|smaller|lighter|sooner|earlier|colder)|(?P<ge>more|above|higher|over|"
    r"greater|longer|larger|bigger|better|warmer))\b|(?P<plus>(?<![\w.])\d[\d.,]*)\+(?!\S*\d)", re.IGNORECASE)
"""A bound written after its value: "-18 °C or below", "60 m² or more", "5+ years"."""
_OPERATOR = re.compile(rf"(?:^|\s)(?:(?P<le>{_AT_MOST})|(?P<ge>{_AT_LEAST}))(?=\s|\d|\$|£|€|$)", re.IGNORECASE)
_MARKER = re.compile(r"\b(?:hard\s+)?(?:constraints?|requirements?)\s*:", re.IGNORECASE)
_CONTAINS_HINT = re.compile(r"amenit|must have|must-have|must include|includes?|feature|requires?|with\b",
                            re.IGNORECASE)
NAME_STOPWORDS = frozenset({"total", "overall", "the", "a", "an", "required", "preferred", "must", "have",
                            "must-have", "needs", "need", "should", "be", "is", "max", "maximum", "min", "minimum"})
_WORD = re.compile(r"[A-Za-z][\w-]*|\d[\d.,]*")


_SPLIT = re.compile(r";|\n|,(?!\d)\s*|\s+and\s+|\.\s+")
_GLUE = r"(?!(?:a|an|the|no|not|never|for|or|and|at|is|of|to|up|in|on)\b)"
"""Words that end an item rather than continue it: "with a gym for under", "with a gym no more than"."""
_WITH_ITEM = re.compile(r"\bwith\s+(?P<article>an?\s+)?(?P<item>[a-z][\w-]*(?:\s+" + _GLUE + r"[a-z][\w-]*)?)\s+"
                        r"(?:for\s+)?(?=" + _AT_MOST + "|" + _AT_LEAST + r")", re.IGNORECASE)
_WITH_LAST = re.compile(r"\b(?i:with)\s+(?P<article>(?i:an?)\s+)?(?P<item>[a-z][a-z0-9-]*(?:\s+[a-z][a-z0-9-]*)?)\s*$")
"""A wish that ends its clause: "a hotel with a gym", "a flat with free parking" (an amenity of one or two
lower-case words: "a flight with Lufthansa" names a carrier, not an amenity)."""
MEASURED_WORDS = frozenset({"price", "prices", "rate", "rates", "cost", "costs", "fee", "fees", "fare", "rent",
                            "premium", "budget", "salary", "pay", "charge", "uptime", "latency", "memory", "ram",
                            "storage", "distance", "weight", "area", "size", "bandwidth", "rating", "score",
                            "capacity", "accuracy", "apr", "excess", "deductible", "delivery", "experience"})
"""Words that name what a bound measures, never an amenity ("with a rate below 6.8 USD")."""
_NO_ITEMS = frozenset({"me", "us", "you", "them", "him", "her", "it", "care", "no", "any", "all", "both", "each"})
_HEAD_NOUN = re.compile(r"(?:^|\s)an?\s+(?P<words>(?:[a-z][\w-]*\s+){0,2})(?P<noun>[a-z][\w-]*)\s*$", re.IGNORECASE)
"""What an article names just before a bound: the option itself ("a hotel under 300 USD", "a sea view flat under
900 EUR", "a sea view under 900 EUR"), not its attribute, unless it is a measured word ("an hourly rate ...")."""
_TRAILING = re.compile(r"\s+(?:for|and|with|at|in|on|to|of|or|but|[a-z]+ing)$", re.IGNORECASE)
_RELATIVE = re.compile(r"\s+(?:that|which|who|where)\s", re.IGNORECASE)
_MEASURED = re.compile(r"\s+within\b", re.IGNORECASE)
_AFTER_BOUND = re.compile(r"\s+(?:with|near|for|including|plus|during|close to|next to|on)\s+\S", re.IGNORECASE)
"""What follows a bound and its unit (or rate) in a goal: another wish ("with 30-day retention", "for 3 hours",
"near the station"), not the threshold's."""
_AFTER_VALUE = re.compile(r"^(?P<value>\S*\d[\d.,]*\s*[A-Za-z%$€£]*)\s+(?P<name>[a-z][\w-]*)$", re.IGNORECASE)
_NOT_NAMES = frozenset({"from", "per", "each", "a", "an", "night", "nightly", "hour", "hourly", "month", "monthly",
                        "day", "daily", "days", "week", "weekly", "year", "yearly", "total", "away", "or", "by",
                        "in", "on", "at", "to", "of", "for", "all", "overall", "including", "max", "min", "apiece"})
_TIME = re.compile(r"\b\d{1,2}(?::\d{2})?\s?(?:[ap]\.?m\.?)?$|\b\d{1,2}:\d{2}\b|\b(?:[01]?\d|2[0-3])h[0-5]\d\b",
                   re.IGNORECASE)
_UNIT_NAMES = {"km": "distance", "miles": "distance", "m": "distance", "%": "percent"}


def _clauses(goal: str) -> tuple[list[str], bool]:
    """The goal's constraint clauses, and whether the goal marked them ("Constraints: ...")."""
    marker = _MARKER.search(goal)
    body = goal[marker.end():] if marker else goal
    if "," in body:  # "April 2, 2027" is one date, not two clauses
        body = _WHEN_DATE.sub(lambda m: m.group(0).replace(",", ""), body)
    parts = [p.strip(" .") for p in re.split(r";|\n", body)]
    if len([p for p in parts if p]) <= 1:
        parts = [p.strip(" .") for p in _SPLIT.split(body)]
    return [p for p in parts if p], marker is not None


_BREAK = frozenset({"with", "for", "a", "an", "the", "that", "which", "has", "have", "having", "whose", "is",
                    "are", "of", "to", "where", "on", "in", "and", "costing", "priced", "at"})


_NOT_WISHES = MEASURED_WORDS | _NO_ITEMS | NAME_STOPWORDS | _BREAK
"""Words no wish at the end of a clause holds ("with a rate", "with us", "with the ...")."""


def _tail_words(text: str, limit: int = 3) -> list[str]:
    """The last words before a comparison, stopping at a preposition or article ("vendor with monthly cost")."""
    words = _WORD.findall(text)
    while words and words[-1].lower() in _BREAK:
        words.pop()
    tail: list[str] = []
    while words and words[-1].lower() not in _BREAK and len(tail) < limit:
        tail.insert(0, words.pop())
    return tail


def _name(words: Iterable[str]) -> str:
    kept = [w for w in (w.lower() for w in words) if w not in NAME_STOPWORDS]
    return " ".join(kept)


def _unit_name(threshold: str) -> str:
    found = find_quantities(threshold)
    if not found or found[0].unit is None:
        return "value"
    unit = found[0].unit
    return "price" if found[0].is_money else _UNIT_NAMES.get(unit, unit.lower())


def _compared(clause: str, op: re.Match[str]) -> Constraint | None:
    operator: Operator = "<=" if op.group("le") else ">="
    threshold = clause[op.end():].strip(" .:")
    after = re.match(r"([\d.,]+\s*\S*)\s+of\s+(?:the\s+)?([a-z][\w-]*)", threshold, re.IGNORECASE)
    if after:  # "at least 5 years of experience", "within 8 km of the centre"
        return Constraint(name=after.group(2).lower(), operator=operator, threshold=after.group(1))
    before = clause[:op.start()].rstrip()
    name = _name(_tail_words(before))
    head = _HEAD_NOUN.search(before)
    if head is not None and head.group("noun").lower() not in MEASURED_WORDS \
            and not head.group("noun").lower().endswith(("ing", "ed")) \
            and not _BREAK.intersection(f'{head.group("words")} {head.group("noun")}'.lower().split()):
        name = ""  # "a hotel under 300 USD": the hotel is the option; the bound is named by its unit
    if not threshold:
        return None
    threshold = _TRAILING.sub("", _RELATIVE.split(threshold, 1)[0])  # "within 48 hours for", "10 km that seats"
    other = _AFTER_BOUND.search(threshold)  # "12,000 USD per month with 30-day retention": what else is wanted
    if other is not None and any(c.isdigit() for c in threshold[:other.start()]):
        threshold = threshold[:other.start()]
    named = _AFTER_VALUE.match(threshold)
    if named and named.group("name").lower() not in _NOT_NAMES | _BREAK \
            and not named.group("name").lower().endswith(("ing", "ed")):  # "40 GBP holding ...": a verb goes on
        value, whole = find_quantities(named.group("value")), find_quantities(threshold)
        unit = value[0].unit if value else None  # a measure ("16 GB RAM"), not a counted noun ("8 seats people")
        if unit is not None and len(unit) <= 3 and whole and unit == whole[0].unit:
            return Constraint(name=named.group("name").lower(), operator=operator, threshold=named.group("value"))
    if not name or re.search(r"\b(?:with|for|has|having|needs?)$", before, re.IGNORECASE) \
            or re.search(r"\d", name):  # "for 80 guests within 20 km": the count is not the name of the distance
        name = _unit_name(threshold)
    return Constraint(name=name, operator=operator, threshold=threshold)


def parse_clause(clause: str) -> Constraint | None:
    """One constraint from a clause such as "total budget at most 420 USD" or "cabin economy"."""
    op = _OPERATOR.search(clause)
    if op:
        return _compared(clause, op)
    time = _TIME.search(clause)
    if time:  # "starting at 2 pm"
        name = _name(_tail_words(clause[:time.start()])) or "time"
        return Constraint(name=name, operator="==", threshold=time.group(0).strip())
    colon = re.search(r"(?<!\d):|:(?!\d)", clause)
    if colon:
        words = _WORD.findall(clause[:colon.start()])
        threshold = clause[colon.end():].strip(" .")
    else:
        words = _WORD.findall(clause)
        if len(words) < 2:
            return None
        threshold, words = words[-1], words[:-1]
    name = _name(words)
    if not name or not threshold or re.search(r"\d", name):
        return None  # "99.9% uptime": a number names nothing (a wish with no bound word is left out, not misread)
    operator: Operator = "contains" if _CONTAINS_HINT.search(" ".join(words)) else "=="
    return Constraint(name=name, operator=operator, threshold=threshold)


def _with_item(clause: str) -> tuple[str, Constraint | None]:
    """"a hotel with a gym under 400 USD": the amenity (gym) as a contains-constraint, and the rest."""
    match = _WITH_ITEM.search(clause)
    if match is None:
        return _last_item(clause)
    within = _MEASURED.match(clause, match.end("item")) and not match.group("article")  # "with a pool within 5 km"
    if match.group("item").lower().split()[-1] in MEASURED_WORDS or within \
            or clause[match.end("item"):].lstrip()[:1] in ("<", ">", "≤", "≥"):
        return clause, None  # "with accuracy within 0.5%", "with price <= 400 USD": a measured attribute
    after = find_quantities(clause[match.end("item"):])
    if match.group("article") is None and after and not after[0].is_money:
        return clause, None  # "with APR under 6%", "with latency below 20 ms": the item is what is measured
    item = Constraint(name="amenity", operator="contains", threshold=match.group("item"))
    return clause[:match.start()] + " with " + clause[match.end("item"):], item


def _last_wish(clause: str) -> re.Match[str] | None:
    """The wish that ends ``clause`` ("with a gym"), when its item can be an amenity (no measured word, pronoun or
    name stop word): what both a clause of its own and a wish after a bound are read by."""
    match = _WITH_LAST.search(clause)
    words = match.group("item").lower().split() if match else []
    if match is not None and len(words) == 2 and match.group("article"):
        return None  # "with a national network": a kind of its attribute (``enumerated``: network == national)
    return match if words and _NOT_WISHES.isdisjoint(words) else None


def _last_item(clause: str) -> tuple[str, Constraint | None]:
    """"a hotel with a gym" (a clause of its own, no bound): the amenity, and the clause without it."""
    match = _last_wish(clause)
    if match is None or _OPERATOR.search(clause) or find_quantities(clause):
        return clause, None
    item = Constraint(name="amenity", operator="contains", threshold=match.group("item").lower())
    return clause[:match.start()].rstrip(), item


def _late_wish(clause: str) -> list[str]:
    """A clause with a wish after its bound cut in two ("a hotel under 400 USD with a gym"); a clause whose last
    words are no such wish ("... with Lufthansa", "... with a rate") stays whole."""
    match = _last_wish(clause)
    head = clause[:match.start()] if match else ""
    if match is None or not _OPERATOR.search(head) or not find_quantities(head):
        return [clause]
    return [head.rstrip(), clause[match.start():].strip()]


_CODE = re.compile(r"\b(?P<name>[A-Za-z][a-z]+)\s+(?P<value>[A-Za-z]+-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*)\b")
_CERTIFIED = re.compile(r"\bcertified\s+(?:as\s+)?(?P<value>[\w-]+)", re.IGNORECASE)
_KIND_OF = re.compile(r"\ban?\s+(?P<value>[a-z]+)\s+(?P<name>[a-z]+)\s*$")


_CATEGORY_OF = {**dict.fromkeys(("remote", "hybrid", "onsite", "on-site", "in-office"), "work mode"),
                **dict.fromkeys(("pet-friendly",), "pets"), **dict.fromkeys(("furnished", "unfurnished"), "furnishing")}
_BARE_CATEGORY = re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, _CATEGORY_OF)) + r")(?![\w-])", re.IGNORECASE)


def enumerated(clause: str) -> list[Constraint]:
    """Wanted categories a clause names without a comparison: "in region us-east" (a code after its label),
    "certified ISO-9001", "with a national network", a bare category of a known kind ("onsite", "pet-friendly")."""
    found = [Constraint(name="certified", operator="==", threshold=m.group("value"))
             for m in _CERTIFIED.finditer(clause)]
    for m in _CODE.finditer(clause):
        name = m.group("name").lower()
        if name not in _BREAK and name != "certified" and not any(c.threshold == m.group("value") for c in found):
            found.append(Constraint(name=name, operator="==", threshold=m.group("value")))
    kind = _KIND_OF.search(clause)
    if kind and not found and not _OPERATOR.search(clause) and not find_quantities(clause):
        found.append(Constraint(name=kind.group("name"), operator="==", threshold=kind.group("value")))
    bare = _BARE_CATEGORY.search(clause)
    if bare and not found and not _OPERATOR.search(clause) and not find_quantities(clause):
        value = bare.group(0).lower()
        found.append(Constraint(name=_CATEGORY_OF[value], operator="==", threshold=value))
    return found


def _comparisons(clause: str) -> list[str]:
    """A clause cut before each comparison after the first ("at least 16 GB RAM under 1,200 EUR" -> two)."""
    cuts = [m.start() for m in _OPERATOR.finditer(clause) if find_quantities(clause[m.end():m.end() + 24])]
    bounds = [0, *cuts[1:], len(clause)]
    return [clause[a:b].strip() for a, b in pairwise(bounds) if clause[a:b].strip()]


_PEOPLE = r"people|persons|guests|attendees|participants|delegates|pax|diners|visitors|seats|users|passengers"
_HEADCOUNT = re.compile(
    rf"\b(?:for\s+(?:a\s+(?:party|group|team)\s+of\s+|up\s+to\s+(?=\d+\s*(?:{_PEOPLE})\b))?"
    r"|(?:that\s+|which\s+)?(?:seats|seating|sleeps|sleeping|accommodates|accommodating|holds|holding)\s+)"
    rf"(?P<n>\d[\d,]*)(?:\s*(?P<noun>{_PEOPLE})\b"
    r"|(?=\s*(?:$|[.;,]|\s(?:at|on|with|in|near|from|under|within|and|for|below|costing)\b)))",
    re.IGNORECASE)
"""A head count written before its noun, or alone after "for": "a room for 10 people", "a table for 4", "for a
party of 8", "for up to 12 guests" (room for up to 12), "a room that seats 10", "a cottage sleeping 6"."""
_TEMPORAL = re.compile(
    rf"\b(?P<op>on or after|no earlier than|not before|after|on or before|no later than|not after|before|until|by|on)"
    rf"\s+(?:the\s+)?(?:(?P<date>{DATE_PATTERN})|(?P<time>(?i:{TIME_PATTERN})|(?:[01]?\d|2[0-3])h(?![\w:])))",
    re.IGNORECASE)
"""A date or clock time bounded by a preposition: "leave on or after 12 March 2026", "arrive before 14:00"."""
_WINDOW = re.compile(rf"\b(?:from|between)\s+(?P<start>(?i:{TIME_PATTERN}))\s*(?:to|until|till|and|-|\u2013)\s*"
                     rf"(?P<end>(?i:{TIME_PATTERN}))", re.IGNORECASE)
_LEFT_FOR = re.compile(r"\s+for\s*$", re.IGNORECASE)
_LATER = frozenset({"on or after", "no earlier than", "not before", "after"})


def _temporal(clause: str) -> tuple[str, list[Constraint]]:
    """The date and time bounds of a clause (a departure on or after a date: ``>=``; before a time: ``<=``;
    on a date: ``==``), and the clause without them. "from 14:00" and "at 2 pm" are left to ``parse_clause``."""
    found: list[Constraint] = []
    for m in reversed(list(_TEMPORAL.finditer(clause))):
        word = m.group("op").lower()
        if word == "on" and not m.group("date"):
            continue
        operator: Operator = ">=" if word in _LATER else "==" if word == "on" else "<="
        name = "date" if m.group("date") else _name(_tail_words(clause[:m.start()])) or "time"
        threshold = normal_date(m.group("date")) if m.group("date") else normal_time(m.group("time"))
        found.insert(0, Constraint(name=name, operator=operator, threshold=threshold))
        clause = clause[:m.start()] + clause[m.end():]
    return clause, found


def _window(clause: str) -> tuple[str, list[Constraint]]:
    """"free from 2 pm to 4 pm": free from at most 14:00 and until at least 16:00, and the clause without it."""
    m = _WINDOW.search(clause)
    if m is None:
        return clause, []
    name = " ".join(_name(_tail_words(clause[:m.start()])).split()[-1:]) or "time"
    return clause[:m.start()] + clause[m.end():], [
        Constraint(name=f"{name} from", operator="<=", threshold=normal_time(m.group("start"))),
        Constraint(name=f"{name} until", operator=">=", threshold=normal_time(m.group("end")))]


def _headcount(clause: str) -> tuple[str, Constraint | None]:
    """"for 10 people" as capacity >= 10 people, and the clause without it (only with no comparison before the
    count: "for at least 10 people" is read by ``parse_clause``)."""
    m = _HEADCOUNT.search(clause)
    if m is None:
        return clause, None
    threshold = m.group("n") + (f" {m.group('noun').lower()}" if m.group("noun") else "")
    rest = clause[:m.start()] + "for" + clause[m.end():]  # "for" stays: the count names no measure after it
    return rest, Constraint(name="capacity", operator=">=", threshold=threshold)


def _bounds_of(clause: str) -> tuple[str, list[Constraint]]:
    """The head count and date/time bounds a clause states, and what is left of it to parse."""
    clause, window = _window(clause)
    clause, found = _temporal(clause)
    found = window + found
    clause, count = _headcount(clause)
    return _LEFT_FOR.sub("", clause).strip(" ,"), ([count] if count is not None else []) + found


_WITH_AMOUNT = re.compile(r"\bwith\s+(?=(?P<amount>\d[\d.,]*(?:\s*[A-Za-z%][\w%-]*)?))", re.IGNORECASE)
_FEWER_WANTED = frozenset({"stop", "stops", "layover", "layovers", "transfer", "transfers", "change", "changes",
                           "fee", "fees", "incident", "incidents", "outage", "outages", "claim", "claims"})
"""Counted things one asks for as few of ("a flight with 1 stop"): a bare amount of them is no lower bound."""


def _at_least_with(clause: str) -> str:
    """"with 2 bedrooms", "with 48 GB memory": an amount wanted with an option is a floor (``with at least``);
    money ("with 400 USD"), clock times and things wanted few of keep no bound."""
    def floor(m: re.Match[str]) -> str:  # "with 60 m2 or more" is left to ``_OR_BOUND``'s reading
        amount = m.group("amount")
        found = find_quantities(amount)
        last = amount.split()[-1].lower() if " " in amount else ""
        if not found or found[0].is_money or _TIME.search(amount) or last in _FEWER_WANTED \
                or _WHEN_DATE.match(amount) or re.match(r"\s*or\s", clause[m.end() + len(amount):]):
            return m.group(0)
        return m.group(0) + "at least "
    return _WITH_AMOUNT.sub(floor, clause) if "with" in clause.lower() else clause


def _bound_first(clause: str) -> str:
    """The clause with each bound written after its value moved before it ("60 m² or more": "at least 60 m²"),
    and a bare amount after "with" read as a floor (``_at_least_with``)."""
    def moved(m: re.Match[str]) -> str:
        if m.group("plus"):
            return f"at least {m.group('plus')}"
        return f"{'at most' if m.group('le') else 'at least'} {m.group('value')}"
    clause = _OR_BOUND.sub(moved, clause) if "or " in clause or "+" in clause else clause
    return _at_least_with(clause)


def parse_constraints(goal: str) -> list[Constraint]:
    """The constraint register of ``goal``; unmarked goals yield only clauses with a comparison, a number,
    a clock time, or two words ("cabin economy")."""
    clauses, marked = _clauses(_bound_first(goal))
    found: list[Constraint] = []
    for clause in (part for whole in clauses for piece in _comparisons(whole) for part in _late_wish(piece)):
        clause, bounds = _bounds_of(clause)
        found += bounds
        clause, item = _with_item(clause)
        if item is not None:
            found.append(item)
        if bounds and not (_OPERATOR.search(clause) or find_quantities(clause)):
            continue  # "Book a room free" is what is left of "... from 2pm to 4pm for 6 people"
        if not marked:
            found += enumerated(clause)
        short = len(clause.split()) == 2
        if not marked and not (_OPERATOR.search(clause) or find_quantities(clause) or short):
            continue
        constraint = parse_clause(clause)
        if constraint is not None and len(constraint.name.split()) <= 4:
            found.append(constraint)
    return found


def singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


@functools.lru_cache(maxsize=4096)
def names_match(a: str, b: str) -> bool:
    """Attribute and constraint names refer to the same thing ("amenities" ~ "amenity", "window" ~ ...)."""
    wa = {singular(w) for w in a.lower().split()}
    wb = {singular(w) for w in b.lower().split()}
    return bool(wa) and bool(wb) and (wa <= wb or wb <= wa)


_WHEN_DATE = re.compile(DATE_PATTERN)
_WHEN_TIME = re.compile(TIME_PATTERN, re.IGNORECASE)


def _when(text: str) -> str | None:
    """A date (``YYYY-MM-DD``, when certain) or a clock time (``HH:MM``) as a sortable key; else None."""
    date = _WHEN_DATE.search(text)
    if date is not None:
        readings = date_readings(date.group(0))
        return "d" + readings[0] if len(readings) == 1 and readings[0][:4].isdigit() else None
    time = _WHEN_TIME.search(text)
    return "t" + normal_time(time.group(0)) if time is not None else None


def _compare_when(constraint: Constraint, value: str) -> str | None:
    """The verdict of a date or time bound, None when the threshold is neither; unknown across kinds."""
    limit = _when(constraint.threshold)
    if limit is None:
        return None
    have = _when(value)
    if have is None or have[0] != limit[0]:
        return "unknown"
    ok = {"<=": have <= limit, ">=": have >= limit, "==": have == limit}.get(constraint.operator)
    return "unknown" if ok is None else "pass" if ok else "fail"


def evaluate(constraint: Constraint, value: str) -> str:
    """``"pass"``, ``"fail"`` or ``"unknown"`` for an option's ``value`` under ``constraint``."""
    when = _compare_when(constraint, value) if constraint.operator in ("<=", ">=", "==") else None
    if when is not None:
        return when
    if constraint.operator in ("<=", ">="):
        have, limit = find_quantities(value), find_quantities(constraint.threshold)
        if not have or not limit:
            return "unknown"
        a, b = have[0], limit[0]
        if a.unit and b.unit and a.unit != b.unit:
            return "unknown"
        ok = a.value <= b.value if constraint.operator == "<=" else a.value >= b.value
        return "pass" if ok else "fail"
    wanted = constraint.threshold.strip().lower()
    if constraint.operator in ("contains", "in"):
        items = {item.strip().lower() for item in re.split(r",|/|\band\b", value)}
        return "pass" if wanted in items else "fail"
    if constraint.operator == "==":
        return "pass" if value.strip().lower() == wanted else "fail"
    return "unknown"


__all__ = ["enumerated", "evaluate", "names_match", "parse_clause", "parse_constraints", "singular"]
