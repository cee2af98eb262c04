"""Output tokens of a schema-contract instruction vs a prose instruction, on the embedded model.

    PYTHONPATH=src python benchmarks/contract_bench.py [--model local] [--max-tokens 128]

Each message is extracted three times at temperature 0: under a prose instruction (the usual "list the
decisions, actions and blockers" request); under ``contract_instruction(Items)`` alone (compact JSON shape
plus an empty-result convention, no grammar, so parse success is measured honestly); and under the same
contract with schema-constrained decoding (the request carries ``schema=Items``; llama.cpp turns it into a
grammar). Prints completion tokens per arm, each contract arm's paired mean saving against prose with a
bootstrap 95% interval, and the share of answers that parse.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Literal

import numpy as np
from pydantic import BaseModel
from rich.console import Console
from rich.progress import track
from rich.table import Table

from relaykit.bench.stats import paired_bootstrap_ci
from relaykit.context import contract_instruction, parse_contract
from relaykit.errors import InvalidOutput
from relaykit.models import ChatRequest, open_model


class Item(BaseModel):
    kind: Literal["decision", "action", "blocker"]
    text: str
    owner: str | None = None
    due: str | None = None


class Items(BaseModel):
    items: list[Item]


MESSAGES = [
    "Standup notes: we decided to move the billing service to Postgres 16. Dana will write the migration plan "
    "by Thursday. The staging cluster is still down, which blocks load testing.",
    "Hi all, lunch on Friday is at the Thai place, 12:30. Bring your appetite!",
    "Email from Priya: the vendor contract renewal is approved at 1200 EUR per month. Omar must sign it before "
    "the 15th.",
    "Chat: anyone seen my charger? Left it in room 4B.",
    "Meeting summary: release 2.3 slips one week because the payment API keys have not arrived. Lee owns the "
    "follow-up with the provider; decision: freeze features on Monday.",
    "Newsletter: ten tips for a tidier inbox, plus this month's birthdays.",
]

PROSE = ("Read the message below carefully and list every decision, action item and blocker it contains, "
         "saying who owns each one and any due date. If there are none, say so.")


def _parses(text: str) -> bool:
    try:
        parse_contract(text, Items)
    except InvalidOutput:
        return False
    return True


def run(model_spec: str, max_tokens: int) -> None:
    console = Console(width=120)
    model = open_model(model_spec)
    contract = contract_instruction(Items)
    arms: dict[str, Callable[[str], ChatRequest]] = {
        "prose": lambda m: ChatRequest.of(f"{PROSE}\n\nMessage: {m}", max_tokens=max_tokens),
        "contract": lambda m: ChatRequest.of(f"{contract}\n\nMessage: {m}", max_tokens=max_tokens),
        "contract+grammar": lambda m: ChatRequest.of(f"{contract}\n\nMessage: {m}", max_tokens=max_tokens,
                                                     schema=Items),
    }
    used: dict[str, list[int]] = {arm: [] for arm in arms}
    parsed: dict[str, list[bool]] = {arm: [] for arm in arms}
    for i, message in enumerate(track(MESSAGES, description="extracting", console=console)):
        for arm, build in arms.items():
            answer = model.complete(build(message))
            used[arm].append(answer.completion_tokens)
            parsed[arm].append(_parses(answer.text))
        print(f"message {i}: " + ", ".join(f"{a} {used[a][-1]} tok (parses: {parsed[a][-1]})" for a in arms),
              flush=True)
    table = Table(title=f"completion tokens per message ({model.name}, max_tokens={max_tokens})")
    table.add_column("message")
    for arm in arms:
        table.add_column(arm, justify="right")
    for i in range(len(MESSAGES)):
        table.add_row(str(i), *[f"{used[a][i]}{'' if parsed[a][i] else ' (no parse)'}" for a in arms])
    console.print(table)
    mean_prose = float(np.mean(used["prose"]))
    for arm in ("contract", "contract+grammar"):
        lo, hi = paired_bootstrap_ci(used["prose"], used[arm])
        mean = float(np.mean(used[arm]))
        console.print(f"{arm}: mean {mean:.1f} vs prose {mean_prose:.1f} completion tokens; saving "
                      f"{mean_prose - mean:.1f}/message (95% bootstrap CI [{lo:.1f}, {hi:.1f}]), "
                      f"{(1 - mean / mean_prose) if mean_prose else 0.0:.0%}; "
                      f"parses {sum(parsed[arm])}/{len(MESSAGES)}")
    capped = {a: sum(t >= max_tokens for t in used[a]) for a in arms}
    console.print(f"answers that hit max_tokens: {capped} (a capped prose answer makes the saving a lower bound)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="local")
    parser.add_argument("--max-tokens", type=int, default=128)
    args = parser.parse_args()
    run(args.model, args.max_tokens)


if __name__ == "__main__":
    main()
