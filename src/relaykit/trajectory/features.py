"""Cheap per-step features for the step scorer: word sets, recency, overlap, novelty, failure cues.

Everything here is pure Python set arithmetic over lower-cased word sets, computed once per step, so
scoring a 100-step trajectory takes a fraction of a millisecond per step.
"""

from __future__ import annotations

import math
import re

import numpy as np

from relaykit import text
from relaykit.tokens import message_text
from relaykit.trajectory.parse import Step, Trajectory

FAILURE = re.compile(
    r"\b(error|exception|invalid|unknown|not found|no such|nothing happens|can't|cannot|couldn't|failed|"
    r"fail|unable|not possible|doesn't|don't understand|not recognized|traceback)\b",
)  # matched against lower-cased text (much faster than IGNORECASE)

FEATURES = (
    "age",              # (t - i) / t: 1 for the oldest past step, small for recent ones
    "inv_age",          # 1 / (t - i)
    "log_obs_words",
    "log_action_words",
    "current_overlap",  # share of the step's words that the current step repeats
    "task_overlap",     # share of the step's words that the task mentions
    "used_later",       # log1p(new observation words that later actions name)
    "novelty",          # share of observation words never seen before this step
    "failure",          # the observation reads as an error or a no-op
    "repeated_action",  # the same action is taken again later (its outcome is superseded)
    "tool_call",        # the action is a structured tool call
    "masked",           # the observation is already a placeholder
)


def words(content: str) -> frozenset[str]:
    """The set of content words of ``content`` (relaykit's one tokeniser, stop words and one-letter words out)."""
    return frozenset(w for w in text.words(content) if len(w) > 1 and w not in text.STOPWORDS)


def _block_words(messages: tuple[dict[str, object], ...]) -> frozenset[str]:
    return words("\n".join(message_text(m) for m in messages))


class _StepWords:
    __slots__ = ("action", "action_key", "all", "obs", "obs_text")

    def __init__(self, step: Step) -> None:
        self.obs_text = step.observation_text
        self.action_key = step.action_text.strip().lower()
        self.action = words(step.action_text)
        self.obs = words(self.obs_text)
        self.all = self.action | self.obs


def step_features(trajectory: Trajectory) -> np.ndarray:
    """A (number of past steps, len(FEATURES)) float array for the trajectory's past steps."""
    past = trajectory.past
    n = len(past)
    if n == 0:
        return np.zeros((0, len(FEATURES)))
    info = [_StepWords(s) for s in trajectory.steps]
    task = _block_words(trajectory.task)
    now = info[-1].all | _block_words(trajectory.pending)
    last_action: dict[str, int] = {}  # word -> the latest step whose action names it (linear, not per step)
    last_key: dict[str, int] = {}
    for j in range(1, n + 1):  # steps after the first past step, the current step included
        last_action.update(dict.fromkeys(info[j].action, j))
        last_key[info[j].action_key] = j
    seen = set(task)
    rows = np.zeros((n, len(FEATURES)))
    for i, step in enumerate(past):
        w = info[i]
        size = len(w.all) + 1.0
        new_obs = w.obs - seen
        rows[i] = (
            (n - i) / n,
            1.0 / (n - i),
            math.log1p(len(w.obs)),
            math.log1p(len(w.action)),
            len(w.all & now) / size,
            len(w.all & task) / size,
            math.log1p(sum(1 for word in new_obs if last_action.get(word, -1) > i)),
            len(new_obs) / (len(w.obs) + 1.0),
            1.0 if FAILURE.search(w.obs_text.lower()) else 0.0,
            1.0 if w.action_key and last_key.get(w.action_key, -1) > i else 0.0,
            1.0 if step.action.get("tool_calls") else 0.0,
            1.0 if step.masked else 0.0,
        )
        seen |= w.all
    return rows


__all__ = ["FEATURES", "step_features", "words"]
