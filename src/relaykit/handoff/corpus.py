"""A seeded corpus of hand-off traces in many phrasings and domains, with the ground truth of each.

Every trace is an audit of a few options (hotels, GPU vendors, meeting rooms...) against a goal's hard
constraints, written in one of ``STYLES``; ``facts`` lists every typed value of every option and its
verdict (``pass`` or ``eliminated``), as ``Fact``s the evidence audit checks.

The styles were split into two groups **before** any tuning of ``extract-rules``: ``DEV_STYLES`` (used to
develop and tune it) and ``HELD_OUT_STYLES`` (only ever measured). Keep it that way: a rule added because a
held-out trace failed makes the held-out figure meaningless.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from relaykit.handoff.audit import Fact


@dataclass(frozen=True)
class Attribute:
    """One attribute of a domain's options: how its values are drawn, labelled and phrased in prose."""

    name: str
    kind: str  # money | distance | percent | count | time | enum | list
    choices: tuple[object, ...]
    labels: tuple[str, ...]
    phrases: tuple[str, ...]  # narrative phrasings, "{v}" is the value
    unit: str = ""  # count unit, or distance unit family ("km"/"m")
    op: str = ""  # the goal's constraint on it: "<=", ">=", "==", "contains", or "" (none)


@dataclass(frozen=True)
class Domain:
    name: str
    prefix: str
    noun: str
    currency: str
    attributes: tuple[Attribute, ...]
    goal: str  # "{name}" placeholders are the thresholds


def _r(a: float, b: float, step: float) -> tuple[float, ...]:
    n = round((b - a) / step)
    return tuple(round(a + i * step, 2) for i in range(n + 1))


DOMAINS: tuple[Domain, ...] = (
    Domain("travel", "HT", "hotel", "USD", (
        Attribute("price", "money", _r(90, 420, 5), ("price", "nightly rate", "rate"),
                  ("charging {v} a night", "at {v} per night", "priced at {v}"), op="<="),
        Attribute("distance", "distance", _r(0.4, 12.0, 0.1), ("distance", "distance to centre"),
                  ("{v} out", "{v} from the centre", "sitting {v} away"), unit="km", op="<="),
        Attribute("stars", "count", (2, 3, 4, 5), ("stars", "star rating"), ("a {v} property",), unit="stars"),
        Attribute("amenities", "list", ("gym", "spa", "wifi", "pool", "bar", "parking"), ("amenities", "facilities"),
                  ("with {v}", "offering {v}"), op="contains"),
    ), "Find a hotel with a {amenities} under {price}, no more than {distance} from the centre."),
    Domain("cloud", "GV", "vendor", "USD", (
        Attribute("rate", "money", _r(1.2, 9.8, 0.1), ("hourly rate", "rate", "price per hour"),
                  ("billing {v} an hour", "at {v} per GPU-hour"), op="<="),
        Attribute("memory", "count", (24, 40, 48, 80, 96, 141), ("memory", "GPU memory"),
                  ("with {v} of memory", "offering {v} cards"), unit="GB", op=">="),
        Attribute("region", "enum", ("us-east", "us-west", "eu-west", "eu-central", "ap-south"), ("region",),
                  ("hosted in {v}", "out of {v}"), op="=="),
        Attribute("sla", "percent", (99.0, 99.5, 99.9, 99.95, 99.99), ("SLA", "uptime SLA"),
                  ("promising {v} uptime", "with a {v} SLA"), op=">="),
    ), "Pick a GPU vendor in region {region} with at least {memory} per card, an SLA of at least {sla} and a "
       "rate below {rate} per hour."),
    Domain("rooms", "MR", "room", "EUR", (
        Attribute("capacity", "count", (4, 6, 8, 10, 12, 16, 20), ("capacity", "seats"),
                  ("seating {v}", "holding {v}"), unit="seats", op=">="),
        Attribute("rate", "money", _r(40, 260, 5), ("hourly rate", "rate"), ("renting at {v} an hour",
                                                                            "for {v} per hour"), op="<="),
        Attribute("start", "time", (8, 9, 10, 11, 13, 14, 15, 16), ("first free slot", "available from"),
                  ("free from {v}", "open at {v}"), op="=="),
        Attribute("walk", "distance", (50, 120, 250, 400, 650, 900), ("walk", "walking distance"),
                  ("a {v} walk away", "{v} from reception"), unit="m"),
    ), "Book a meeting room for at least {capacity} people, starting at {start}, costing at most {rate} an hour."),
    Domain("hiring", "CA", "candidate", "USD", (
        Attribute("salary", "money", _r(82000, 190000, 2500), ("salary ask", "expected salary"),
                  ("asking {v}", "expecting {v} a year"), op="<="),
        Attribute("experience", "count", (2, 3, 4, 5, 6, 8, 10, 12), ("experience",),
                  ("with {v} of experience", "bringing {v} in the field"), unit="years", op=">="),
        Attribute("location", "enum", ("remote", "onsite", "hybrid"), ("location", "work mode"),
                  ("working {v}", "preferring {v} work"), op="=="),
        Attribute("notice", "count", (2, 4, 6, 8, 12), ("notice period", "notice"), ("on {v} notice",),
                  unit="weeks"),
    ), "Hire an engineer with at least {experience} of experience, {location}, for no more than {salary}."),
    Domain("suppliers", "SP", "supplier", "EUR", (
        Attribute("unit_price", "money", _r(0.8, 14.5, 0.05), ("unit price", "price per unit"),
                  ("quoting {v} a unit", "selling at {v} per unit"), op="<="),
        Attribute("lead_time", "count", (5, 7, 10, 14, 21, 30, 45), ("lead time",),
                  ("delivering in {v}", "needing {v} to ship"), unit="days", op="<="),
        Attribute("defects", "percent", (0.2, 0.5, 0.8, 1.2, 1.5, 2.5, 3.1), ("defect rate", "defects"),
                  ("running a {v} defect rate", "with {v} defective parts"), op="<="),
        Attribute("certification", "enum", ("ISO-9001", "ISO-14001", "IATF-16949", "none"), ("certification",),
                  ("certified {v}", "holding {v}"), op="=="),
    ), "Choose a supplier certified {certification}, unit price at most {unit_price}, lead time under "
       "{lead_time} and defect rate below {defects}."),
    Domain("apartments", "AP", "apartment", "USD", (
        Attribute("rent", "money", _r(950, 4200, 25), ("rent", "monthly rent"), ("renting for {v} a month",
                                                                               "at {v} monthly"), op="<="),
        Attribute("commute", "distance", _r(0.3, 9.5, 0.1), ("commute", "distance to office"),
                  ("{v} from the office", "a {v} commute"), unit="km", op="<="),
        Attribute("bedrooms", "count", (1, 2, 3, 4), ("bedrooms",), ("with {v}",), unit="bedrooms", op=">="),
        Attribute("pets", "enum", ("allowed", "forbidden"), ("pets", "pet policy"), ("pets {v}",), op="=="),
    ), "Rent an apartment with at least {bedrooms}, pets {pets}, rent under {rent} and commute at most {commute}."),
    Domain("insurance", "IP", "policy", "GBP", (
        Attribute("premium", "money", _r(22, 180, 1), ("monthly premium", "premium"),
                  ("costing {v} a month", "for a {v} monthly premium"), op="<="),
        Attribute("excess", "money", _r(100, 1500, 50), ("excess", "deductible"), ("with a {v} excess",),
                  op="<="),
        Attribute("network", "enum", ("national", "regional", "international"), ("network", "cover area"),
                  ("covering a {v} network",), op="=="),
        Attribute("claims", "percent", (81.0, 86.5, 90.0, 93.2, 95.5, 97.1), ("claims paid", "payout rate"),
                  ("paying {v} of claims",), op=">="),
    ), "Find a policy with a {network} network, premium at most {premium} a month, an excess under {excess} and "
       "at least {claims} of claims paid."),
)

STYLES = ("clause", "terse", "narrative", "bullets", "keyvalue", "summary_after",
          "table", "passive", "verdict_first", "pronouns", "comparison", "pipe")
DEV_STYLES = ("clause", "terse", "narrative", "bullets", "keyvalue", "summary_after")
"""Styles extract-rules was developed and tuned on."""
HELD_OUT_STYLES = ("table", "passive", "verdict_first", "pronouns", "comparison", "pipe")
"""Styles never looked at while tuning: the figures that count."""
STYLE_GROUPS = {"dev": DEV_STYLES, "held-out": HELD_OUT_STYLES}

PASS_WORDS = ("pass", "passes", "qualifies", "stays on the shortlist", "is a go", "✓", "is kept", "clears every check")
OUT_WORDS = ("is eliminated", "drops out", "is crossed off", "is ruled out", "is a no-go", "✗", "is rejected",
             "fails")


@dataclass(frozen=True)
class Value:
    text: str  # as written in the trace
    canonical: str  # as the fact states it


@dataclass(frozen=True)
class Option:
    id: str
    values: dict[str, Value]
    failed: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.failed


@dataclass(frozen=True)
class CorpusTrace:
    """One generated trace: its style, domain, goal, text and ground-truth facts."""

    style: str
    domain: str
    goal: str
    trace: str
    facts: list[Fact]


def money(v: float, cur: str, rng: random.Random) -> Value:
    number = f"{v:,.2f}" if v >= 1000 and rng.random() < 0.5 else (f"{v:,.0f}" if v == int(v) else f"{v:.2f}")
    plain = f"{v:g}" if v < 1000 else f"{int(v)}"
    symbol = {"USD": "$", "EUR": "€", "GBP": "£"}[cur]
    forms = [f"{symbol}{number}", f"{number} {cur}", f"{cur} {number}"]
    forms += [f"{number} dollars"] if cur == "USD" else [f"{number} euros"] if cur == "EUR" else []
    return Value(rng.choice(forms), f"{plain} {cur}")


def _time(hour: int, rng: random.Random) -> Value:
    spoken = f"{hour % 12 or 12} {'am' if hour < 12 else 'pm'}"
    return Value(rng.choice((f"{hour:02d}:00", spoken)), f"{hour:02d}:00")


def _value(attr: Attribute, raw: object, cur: str, miles: bool, rng: random.Random) -> Value:
    if attr.kind == "money":
        return money(float(raw), cur, rng)  # type: ignore[arg-type]
    if attr.kind == "distance":
        if attr.unit == "km" and miles:
            v = round(float(raw) * 0.621371, 1)  # type: ignore[arg-type]
            return Value(rng.choice((f"{v} mi", f"{v} miles")), f"{v} mi")
        return Value(f"{raw} {attr.unit}", f"{raw} {attr.unit}")
    if attr.kind == "percent":
        return Value(rng.choice((f"{raw}%", f"{raw} percent")), f"{raw}%")
    if attr.kind == "count":
        return Value(f"{raw} {attr.unit}" if attr.unit != "GB" or rng.random() < 0.5 else f"{raw}GB",
                     f"{raw} {attr.unit}")
    if attr.kind == "time":
        return _time(int(raw), rng)  # type: ignore[call-overload]
    if attr.kind == "list":
        items = ", ".join(str(i) for i in raw)  # type: ignore[attr-defined]
        return Value(items, items)
    return Value(str(raw), str(raw))


def _fails(attr: Attribute, raw: object, limit: object) -> bool:
    if attr.op == "<=":
        return float(raw) > float(limit)  # type: ignore[arg-type]
    if attr.op == ">=":
        return float(raw) < float(limit)  # type: ignore[arg-type]
    if attr.op == "contains":
        return limit not in raw  # type: ignore[operator]
    if attr.op == "==":
        return raw != limit
    return False


def _draw(attr: Attribute, rng: random.Random) -> object:
    if attr.kind == "list":
        return tuple(sorted(rng.sample(attr.choices, rng.randint(1, 4)), key=attr.choices.index))
    return rng.choice(attr.choices)


def _limits(domain: Domain, rng: random.Random) -> dict[str, object]:
    limits: dict[str, object] = {}
    for attr in domain.attributes:
        if attr.op in ("<=", ">="):
            ordered = sorted(attr.choices)  # type: ignore[type-var]
            limits[attr.name] = ordered[int(len(ordered) * (0.65 if attr.op == "<=" else 0.35))]
        elif attr.op:
            limits[attr.name] = rng.choice(attr.choices)
    return limits


def _goal(domain: Domain, limits: dict[str, object], miles: bool) -> str:
    shown = {}
    for attr in domain.attributes:
        if attr.name in limits:
            limit = limits[attr.name]
            shown[attr.name] = (str(limit) if attr.kind == "list"
                                else _value(attr, limit, domain.currency, miles, random.Random(0)).canonical)
    return domain.goal.format(**shown)


def _options(domain: Domain, limits: dict[str, object], n: int, miles: bool,
             rng: random.Random) -> list[Option]:
    out = []
    for i in range(1, n + 1):
        raws = {a.name: _draw(a, rng) for a in domain.attributes}
        if rng.random() < 0.4:  # make passing options common enough
            for a in domain.attributes:
                while a.name in limits and _fails(a, raws[a.name], limits[a.name]):
                    raws[a.name] = _draw(a, rng)
        values = {a.name: _value(a, raws[a.name], domain.currency, miles, rng) for a in domain.attributes}
        failed = tuple(a.name for a in domain.attributes if a.name in limits and _fails(a, raws[a.name],
                                                                                         limits[a.name]))
        out.append(Option(f"{domain.prefix}{i:02d}", values, failed))
    return out


def generate(style: str, domain: Domain, seed: int, n_options: int = 6) -> CorpusTrace:
    """One trace of ``domain`` in ``style`` (deterministic for a given seed)."""
    from relaykit.handoff.corpus_styles import RENDERERS

    rng = random.Random(f"{style}/{domain.name}/{seed}")
    miles = rng.random() < 0.4
    limits = _limits(domain, rng)
    goal = _goal(domain, limits, miles)
    options = _options(domain, limits, n_options, miles, rng)
    trace = RENDERERS[style](domain, options, rng)
    facts = [Fact(o.id, name, v.canonical) for o in options for name, v in o.values.items()]
    facts += [Fact(o.id, "verdict", "pass" if o.ok else "eliminated") for o in options]
    return CorpusTrace(style, domain.name, goal, trace, facts)


def corpus(styles: tuple[str, ...] = STYLES, seeds: int = 3, n_options: int = 6) -> Iterator[CorpusTrace]:
    """Every style x domain x seed trace, in a stable order."""
    for style in styles:
        for domain in DOMAINS:
            for seed in range(seeds):
                yield generate(style, domain, seed, n_options)


Renderer = Callable[[Domain, list[Option], random.Random], str]

__all__ = ["DEV_STYLES", "DOMAINS", "HELD_OUT_STYLES", "STYLES", "STYLE_GROUPS", "CorpusTrace", "Domain", "Option",
           "corpus", "generate"]
