"""Secret redaction on the labelled corpus (tests/redaction_corpus.py): secrets masked and ordinary texts left
alone, per format family, development and held-out families side by side.

    PYTHONPATH=src python benchmarks/redaction_bench.py [--show]

A text counts as masked when none of its secrets survives ``scrub`` nor ``fingerprint_secrets`` (what telemetry,
run stores and the caches write); an ordinary text counts as a false positive when either changes it. ``--show``
prints every miss and false positive.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from redaction_corpus import DEV, HELD_OUT, Case
from relaykit.redact import fingerprint_secrets, scrub

console = Console(width=140)


def missed(case: Case) -> bool:
    outs = (scrub(case.text), fingerprint_secrets(case.text))
    return any(secret in out for secret in case.secrets for out in outs)


def changed(case: Case) -> bool:
    return scrub(case.text) != case.text or fingerprint_secrets(case.text) != case.text


def score(cases: list[Case]) -> dict[str, list[int]]:
    """family -> [secrets masked, texts with secrets, ordinary texts changed, ordinary texts]"""
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for case in cases:
        row = out[case.family]
        if case.secrets:
            row[0] += not missed(case)
            row[1] += 1
        else:
            row[2] += changed(case)
            row[3] += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", action="store_true", help="print every miss and false positive")
    args = parser.parse_args()
    table = Table(title="secret redaction: masked / texts with secrets, false positives / ordinary texts")
    for column in ("split", "family", "masked", "false positives"):
        table.add_column(column, justify="left" if column in ("split", "family") else "right")
    for split, cases in (("development", DEV), ("held-out", HELD_OUT)):
        rows = score(cases)
        for family, (masked, secrets, wrong, plain) in rows.items():
            table.add_row(split, family, f"{masked} / {secrets}", f"{wrong} / {plain}")
        total = [sum(row[i] for row in rows.values()) for i in range(4)]
        table.add_row(f"[bold]{split}[/bold]", "[bold]all[/bold]", f"[bold]{total[0]} / {total[1]}[/bold]",
                      f"[bold]{total[2]} / {total[3]}[/bold]")
        if args.show:
            for case in cases:
                if (case.secrets and missed(case)) or (not case.secrets and changed(case)):
                    what = "missed" if case.secrets else "changed"
                    console.print(f"{split} {case.family} {what}: {case.text!r} -> {scrub(case.text)!r}",
                                  markup=False)
    console.print(table)


if __name__ == "__main__":
    main()
