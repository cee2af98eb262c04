"""A SYNTHETIC labelled workplace corpus (meetings, emails, chats) so the composition lab runs out of the box.

Every item is generated from templates and carries ``"synthetic": true`` (ids: ``m001``, ``e042``, ...). The
labels follow the paper's rubric by construction (3: decision, action, blocker or commitment; 2: status
worth a weekly summary; 1: passing mention; 0: no bearing on the work), so they are exact, but the texts
are far easier and more regular than real communication: figures measured on this corpus say whether
the pipeline works, not how a model behaves on real mail.

The default signal rates copy paper 002's corpus (meetings 73%, chats 63%, emails 5%); emails are raised
to 10% here so a small corpus still has enough signal for every condition.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from relaykit.bench.composition.corpus import Corpus, CorpusItem
from relaykit.errors import UsageError, unknown_name

DEFAULT_COUNTS: Mapping[str, int] = {"meeting": 30, "email": 200, "chat": 40}
DEFAULT_SIGNAL_RATES: Mapping[str, float] = {"meeting": 0.733, "email": 0.10, "chat": 0.632}

PEOPLE = ("Ana", "Bilal", "Chen", "Dana", "Emeka", "Farah", "Goran", "Hana", "Ivo", "Jun", "Kira", "Luis")
PROJECTS = ("Atlas", "Beacon", "Cobalt", "Delta", "Ember", "Fjord", "Granite", "Harbor")
COMPONENTS = ("billing service", "search index", "auth gateway", "mobile app", "data pipeline", "CI runner pool")
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "next week")
SOCIAL = ("lunch", "the book club", "Friday drinks", "the charity run", "the team photo", "board games")
HOBBIES = ("gardening", "home cooking", "cycling", "photography", "travel deals")

# (label, fact types, template). Slots: {p1} {p2} {project} {component} {day} {pct} {social} {hobby} {n}
TEMPLATES: tuple[tuple[int, tuple[str, ...], str], ...] = (
    (3, ("decision", "action_item"),
     "We decided to move the {project} launch behind the {component} fix. {p2} will update the plan by {day}."),
    (3, ("blocker",),
     "{project} is blocked: the {component} fails its load test and nothing ships until {p1} finds the cause."),
    (3, ("commitment", "deadline"), "{p1} committed to hand over the {component} runbook for {project} by {day}."),
    (3, ("action_item",), "Action for {p1}: review the {component} change before the {project} go/no-go on {day}."),
    (3, ("decision",), "Final call on {project}: we drop the legacy {component} path; {p2} signed off."),
    (2, ("status",), "{project} update: the {component} rollout is at {pct}% and on track."),
    (2, ("status",), "{p1} shared the {project} numbers: {component} latency is down {pct}% since last sprint."),
    (2, ("status", "deadline"), "Heads-up: the {project} demo to the customer is scheduled for {day}."),
    (2, ("status",), "The {component} migration for {project} finished in staging; production comes next sprint."),
    (1, (), "{p1} mentioned {project} in passing while chatting about {social}; nothing to follow up."),
    (1, (), "Someone asked whether {project} still uses the old logo. Nobody knew; the thread died."),
    (0, (), "Who is in for {social} on {day}? Reply so {p1} can count heads."),
    (0, (), "Newsletter: {n} tips for better {hobby} this season. Unsubscribe at any time."),
    (0, (), "Automated message: your parking permit expires in {n} days. Renew it in the portal."),
    (0, (), "Happy birthday {p1}! There is cake in the kitchen at 3."),
    (0, (), "Out of office until {day}. For anything urgent, write to {p2}."),
    (0, (), "{p1} shared photos from {social}. Great turnout, thanks all!"),
)

WRAPPERS: Mapping[str, str] = {
    "meeting": "Meeting notes, {project} weekly sync (attendees: {p1}, {p2}).\n{body}",
    "email": "Subject: {project} / {component}\nFrom: {p1}\n\n{body}",
    "chat": "#team-{project_lower} {p1}: {body}",
}


@dataclass(frozen=True)
class SyntheticSpec:
    """How many items of each source type, and what share of them is signal (label 2 or 3)."""

    counts: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_COUNTS))
    signal_rates: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_SIGNAL_RATES))
    marginal_rate: float = 0.02  # share of label-1 items (the paper had 11 of 661)
    seed: int = 0

    def __post_init__(self) -> None:
        for kind, n in self.counts.items():
            if kind not in WRAPPERS:
                raise unknown_name("source type", kind, list(WRAPPERS))
            if n < 0:
                raise UsageError(f"the count of {kind} items must be 0 or more, not {n}")
            rate = self.signal_rates.get(kind, 0.0)
            if not 0.0 <= rate <= 1.0 or rate + self.marginal_rate > 1.0:
                raise UsageError(f"signal rate {rate} for {kind} must be in [0, 1] and leave room for marginal items")


def _labels(n: int, signal_rate: float, marginal_rate: float, rng: random.Random) -> list[int]:
    n_signal = round(n * signal_rate)
    n_marginal = min(n - n_signal, round(n * marginal_rate))
    labels = [rng.choice((2, 3)) for _ in range(n_signal)] + [1] * n_marginal
    labels += [0] * (n - len(labels))
    rng.shuffle(labels)
    return labels


def _slots(rng: random.Random) -> dict[str, object]:
    p1, p2 = rng.sample(PEOPLE, 2)
    project = rng.choice(PROJECTS)
    return {
        "p1": p1, "p2": p2, "project": project, "project_lower": project.lower(),
        "component": rng.choice(COMPONENTS), "day": rng.choice(DAYS), "pct": rng.randrange(10, 95, 5),
        "social": rng.choice(SOCIAL), "hobby": rng.choice(HOBBIES), "n": rng.randrange(3, 15),
    }


def _item(kind: str, index: int, label: int, rng: random.Random) -> CorpusItem:
    label_templates = [t for t in TEMPLATES if t[0] == label]
    _, fact_types, template = rng.choice(label_templates)
    slots = _slots(rng)
    text = WRAPPERS[kind].format(body=template.format(**slots), **slots)
    # short ids keep the model's answers short (every answer repeats each id)
    return CorpusItem(f"{kind[0]}{index:03d}", kind, text, label, fact_types, {"synthetic": True})


def generate_corpus(spec: SyntheticSpec | None = None) -> Corpus:
    """A synthetic corpus following ``spec`` (paper-like defaults); deterministic for a given seed."""
    spec = spec or SyntheticSpec()
    rng = random.Random(spec.seed)
    items: list[CorpusItem] = []
    for kind, n in spec.counts.items():
        labels = _labels(n, spec.signal_rates.get(kind, 0.0), spec.marginal_rate, rng)
        items.extend(_item(kind, i, label, rng) for i, label in enumerate(labels))
    return Corpus(tuple(items), source=f"synthetic(seed={spec.seed})")
