"""The writing styles of the hand-off corpus: one function per style, from options to trace text.

See ``relaykit.handoff.corpus`` for the dev / held-out split of these styles.
"""

from __future__ import annotations

import random

from relaykit.handoff.corpus import OUT_WORDS, PASS_WORDS, Domain, Option, Renderer

FILLER = ("The inventory is closed, so only the listed options count.",
          "I went through the options in the order they were listed.",
          "Nothing outside this list was considered.")


def _label(domain: Domain, name: str, rng: random.Random) -> str:
    attr = next(a for a in domain.attributes if a.name == name)
    return rng.choice(attr.labels)


def _phrase(domain: Domain, name: str, text: str, rng: random.Random) -> str:
    attr = next(a for a in domain.attributes if a.name == name)
    return rng.choice(attr.phrases).format(v=text)


def _why(option: Option, domain: Domain, rng: random.Random) -> str:
    return " and ".join(_label(domain, f, rng) for f in option.failed)


def _clause(domain: Domain, options: list[Option], rng: random.Random) -> str:
    lines = [rng.choice(FILLER)]
    for o in options:
        parts = "; ".join(f"{_label(domain, k, rng)} {v.text}" for k, v in o.values.items())
        lines.append(f"{domain.noun.capitalize()} {o.id}: {parts}.")
        for a in domain.attributes:
            if a.op:
                ok = a.name not in o.failed
                lines.append(f"{o.id} {_label(domain, a.name, rng)} check: {o.values[a.name].text}, "
                             f"{'pass' if ok else 'fail'}.")
        lines.append(f"{o.id} verdict: " + ("pass." if o.ok else f"eliminated ({', '.join(o.failed)})."))
    return "\n".join(lines)


def _terse(domain: Domain, options: list[Option], rng: random.Random) -> str:
    lines = []
    for o in options:
        kv = " ".join(f"{k}={v.text.replace(', ', ',').replace(' km', 'km')}" for k, v in o.values.items())
        lines.append(f"{o.id} {kv} -> " + ("PASS" if o.ok else f"FAIL({','.join(o.failed)})"))
    return "\n".join(lines)


def _narrative(domain: Domain, options: list[Option], rng: random.Random) -> str:
    out = [f"I reviewed every {domain.noun} on the list against the requirements, one by one."]
    for o in options:
        phrases = [_phrase(domain, k, v.text, rng) for k, v in o.values.items()]
        out.append(f"Next I looked at {o.id}, {', '.join(phrases[:-1])} and {phrases[-1]}.")
        out.append("It " + (f"{rng.choice(PASS_WORDS[1:3])}, meeting every requirement." if o.ok else
                            f"misses on {_why(o, domain, rng)}, so it {rng.choice(OUT_WORDS[1:3])}."))
        if rng.random() < 0.3:
            out.append(rng.choice(FILLER))
    return " ".join(out)


def _bullets(domain: Domain, options: list[Option], rng: random.Random) -> str:
    lines = []
    for o in options:
        lines.append(f"- {o.id}")
        lines += [f"  - {_label(domain, k, rng)}: {v.text}" for k, v in o.values.items()]
        lines.append("  - verdict: " + ("✓" if o.ok else f"✗ ({_why(o, domain, rng)})"))
    return "\n".join(lines)


def _keyvalue(domain: Domain, options: list[Option], rng: random.Random) -> str:
    blocks = []
    for o in options:
        lines = [f"id: {o.id}"] + [f"{_label(domain, k, rng)}: {v.text}" for k, v in o.values.items()]
        lines.append("status: " + ("ok" if o.ok else f"ruled out ({_why(o, domain, rng)})"))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _summary_after(domain: Domain, options: list[Option], rng: random.Random) -> str:
    out = []
    for o in options:
        parts = [f"a {_label(domain, k, rng)} of {v.text}" for k, v in o.values.items()]
        out.append(f"{o.id} has {', '.join(parts[:-1])} and {parts[-1]}.")
    keep = [o.id for o in options if o.ok]
    gone = [f"{o.id} ({_why(o, domain, rng)})" for o in options if not o.ok]
    if keep:
        out.append(f"Shortlist: {', '.join(keep)}.")
    if gone:
        out.append(f"Ruled out: {', '.join(gone)}.")
    return " ".join(out)


def _table(domain: Domain, options: list[Option], rng: random.Random) -> str:
    names = [a.name for a in domain.attributes]
    head = ["Option"] + [_label(domain, n, rng).title() for n in names] + ["Verdict"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for o in options:
        verdict = "✓" if o.ok else f"✗ {_why(o, domain, rng)}"
        lines.append("| " + " | ".join([o.id] + [o.values[n].text for n in names] + [verdict]) + " |")
    return f"Audit of every {domain.noun}:\n" + "\n".join(lines)


def _passive(domain: Domain, options: list[Option], rng: random.Random) -> str:
    out = []
    for o in options:
        for k, v in o.values.items():
            out.append(f"A {_label(domain, k, rng)} of {v.text} is {rng.choice(('reported', 'listed', 'quoted'))} "
                       f"for {o.id}.")
        out.append(f"{o.id} is accepted." if o.ok else f"{o.id} is rejected on {_why(o, domain, rng)}.")
    return " ".join(out)


def _verdict_first(domain: Domain, options: list[Option], rng: random.Random) -> str:
    out = []
    for o in options:
        phrases = [_phrase(domain, k, v.text, rng) for k, v in o.values.items()]
        head = (f"{o.id} {rng.choice(PASS_WORDS[3:6])}" if o.ok
                else f"{o.id} {rng.choice(OUT_WORDS[1:5]).removeprefix('is ')} on {_why(o, domain, rng)}")
        out.append(f"{head}: it is {', '.join(phrases)}.")
    return "\n".join(out)


def _pronouns(domain: Domain, options: list[Option], rng: random.Random) -> str:
    out = []
    for a, b in zip(options[::2], options[1::2], strict=False):
        pa = [_phrase(domain, k, v.text, rng) for k, v in a.values.items()]
        pb = [_phrase(domain, k, v.text, rng) for k, v in b.values.items()]
        out.append(f"Then come {a.id} and {b.id}.")
        out.append(f"The former is {pa[0]} and {pa[1]}. It is also {', '.join(pa[2:])}.")
        out.append(f"The latter is {pb[0]}; it is {', '.join(pb[1:])}.")
        va = "passes" if a.ok else f"is out on {_why(a, domain, rng)}"
        vb = "qualifies" if b.ok else f"is crossed off for {_why(b, domain, rng)}"
        out.append(f"The former {va}, and the latter {vb}.")
    if len(options) % 2:
        o = options[-1]
        out.append(f"Last is {o.id}. It is {', '.join(_phrase(domain, k, v.text, rng) for k, v in o.values.items())}.")
        out.append("It " + ("passes." if o.ok else f"is ruled out on {_why(o, domain, rng)}."))
    return " ".join(out)


def _comparison(domain: Domain, options: list[Option], rng: random.Random) -> str:
    out = []
    for a, b in zip(options[::2], options[1::2], strict=False):
        clauses = [f"{a.id} is {_phrase(domain, k, a.values[k].text, rng)} while {b.id} is "
                   f"{_phrase(domain, k, b.values[k].text, rng)}" for k in a.values]
        out.append("; ".join(clauses) + ".")
        va = "passes" if a.ok else f"is rejected ({_why(a, domain, rng)})"
        vb = "passes" if b.ok else f"is rejected ({_why(b, domain, rng)})"
        out.append(f"Verdicts: {a.id} {va}, whereas {b.id} {vb}.")
    if len(options) % 2:
        o = options[-1]
        out.append(f"{o.id} is " + ", ".join(_phrase(domain, k, v.text, rng) for k, v in o.values.items())
                   + (" and passes." if o.ok else f", and is rejected ({_why(o, domain, rng)})."))
    return "\n".join(out)


def _pipe(domain: Domain, options: list[Option], rng: random.Random) -> str:
    lines = []
    for o in options:
        cells = [v.text.replace(", ", " ") for v in o.values.values()]
        lines.append(" | ".join([o.id, *cells, "OK" if o.ok else f"NO-GO {_why(o, domain, rng)}"]))
    return "\n".join(lines)


RENDERERS: dict[str, Renderer] = {
    "clause": _clause, "terse": _terse, "narrative": _narrative, "bullets": _bullets, "keyvalue": _keyvalue,
    "summary_after": _summary_after, "table": _table, "passive": _passive, "verdict_first": _verdict_first,
    "pronouns": _pronouns, "comparison": _comparison, "pipe": _pipe,
}
