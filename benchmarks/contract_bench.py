"""Output tokens of a schema-contract instruction vs a prose instruction, on the embedded model.

    PYTHONPATH=src python benchmarks/contract_bench.py [--model local] [--max-tokens 128]

Each message is extracted twice at temperature 0: once under a prose instruction (the usual "list the
decisions, actions and blockers" request) and once under ``contract_instruction(Items)`` (compact JSON
shape plus an empty-result convention; no grammar constraint, so parse success is measured honestly).
Prints completion tokens per arm, the paired mean saving with a bootstrap 95% interval, and the share
of contract answers that parse.
"""

from __future__ import annotations

import argparse
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


def run(model_spec: str, max_tokens: int) -> None:
    console = Console(width=120)
    model = open_model(model_spec)
    contract = contract_instruction(Items)
    prose_tokens, contract_tokens, parsed = [], [], []
    for i, message in enumerate(track(MESSAGES, description="extracting", console=console)):
        prose = model.complete(ChatRequest.of(f"{PROSE}\n\nMessage: {message}", max_tokens=max_tokens))
        answer = model.complete(ChatRequest.of(f"{contract}\n\nMessage: {message}", max_tokens=max_tokens))
        prose_tokens.append(prose.completion_tokens)
        contract_tokens.append(answer.completion_tokens)
        try:
            parse_contract(answer.text, Items)
            parsed.append(True)
        except InvalidOutput:
            parsed.append(False)
        print(f"message {i}: prose {prose_tokens[-1]} tokens, contract {contract_tokens[-1]} tokens, "
              f"parses: {parsed[-1]}", flush=True)
    table = Table(title=f"completion tokens per message ({model.name}, max_tokens={max_tokens})")
    for column in ("message", "prose", "contract", "contract parses"):
        table.add_column(column)
    for i, (p, c, ok) in enumerate(zip(prose_tokens, contract_tokens, parsed)):
        table.add_row(str(i), str(p), str(c), "yes" if ok else "no")
    console.print(table)
    lo, hi = paired_bootstrap_ci(prose_tokens, contract_tokens)
    mean_p, mean_c = float(np.mean(prose_tokens)), float(np.mean(contract_tokens))
    console.print(f"mean completion tokens: prose {mean_p:.1f}, contract {mean_c:.1f}; saving "
                  f"{mean_p - mean_c:.1f} tokens/message (95% bootstrap CI [{lo:.1f}, {hi:.1f}]), "
                  f"{(1 - mean_c / mean_p) if mean_p else 0.0:.0%} of the prose output; "
                  f"contract answers parsing: {sum(parsed)}/{len(parsed)}")
    capped = sum(t >= max_tokens for t in prose_tokens)
    if capped:
        console.print(f"note: {capped} prose answers hit max_tokens, so the saving is a lower bound")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="local")
    parser.add_argument("--max-tokens", type=int, default=128)
    args = parser.parse_args()
    run(args.model, args.max_tokens)


if __name__ == "__main__":
    main()
