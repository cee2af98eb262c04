"""Checks applied to every request a framework sent: provider-valid, within budget, system + task present."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from recording_server import SYSTEM, TASK

from relaykit import tokens
from relaykit.trajectory.validate import validate


@dataclass
class Tally:
    requests: int = 0
    valid: int = 0
    within_budget: int = 0
    kept_system_and_task: int = 0

    def line(self) -> str:
        return (f"{self.valid}/{self.requests} valid, {self.within_budget}/{self.requests} within budget, "
                f"{self.kept_system_and_task}/{self.requests} with system + task")


def tally(requests: list[dict[str, Any]], budget: int, extra: int = 0) -> Tally:
    """Count the recorded requests that pass each check (``extra``: tokens the framework adds outside relaykit)."""
    t = Tally()
    for body in requests:
        messages = body["messages"]
        t.requests += 1
        t.valid += not validate(messages)
        t.within_budget += tokens.count_messages(messages) <= budget + extra
        texts = [str(m.get("content")) for m in messages]
        t.kept_system_and_task += any(SYSTEM in x for x in texts) and any(TASK in x for x in texts)
    return t


def record(framework: str, who: str, t: Tally) -> None:
    """Print a tally and, when RELAYKIT_RUNNER_REPORT names a file, append it there as a JSON line."""
    print(f"{framework} / {who}: {t.line()}")
    target = os.environ.get("RELAYKIT_RUNNER_REPORT")
    if target:
        with Path(target).open("a", encoding="utf-8") as fh:
            fh.write(json.dumps({"framework": framework, "who": who, **t.__dict__}) + "\n")
