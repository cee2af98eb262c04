"""What every trajectory method shares: the settings, the plan a method returns, masking with a digest,
and the exact token cost of blocks (the same count the accounting reports)."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from relaykit import tokens
from relaykit.errors import UsageError
from relaykit.text import words as text_words
from relaykit.trajectory.digest import action_shapes, block_frequencies, digest
from relaykit.trajectory.facts import ELIDED_WINDOW, acted_words, passed_words, pending_items, sibling_items
from relaykit.trajectory.parse import PLACEHOLDER, Msg, Step, Trajectory, mask_observation, requests_only
from relaykit.trajectory.recall import ReferenceStore, handle_for
from relaykit.trajectory.scorer import Scorer
from relaykit.trajectory.selective import TokenInfo

Dropped = Literal["remove", "placeholder", "reference"]
DROPPED = ("remove", "placeholder", "reference")


@dataclass(frozen=True)
class TrajectorySettings:
    """Every knob of trajectory compression, explicit and frozen.

    ``budget`` is a hard token ceiling: an int, or a share of the input such as ``"30%"`` (resolved against
    the input's token count before a method runs). ``digest_tokens`` bounds the facts a masked observation's
    placeholder keeps (0: plain placeholder). ``facts_share``: under a budget, with masks, the share of the
    room left after the floor kept for one deduplicated block of the facts of elided steps
    (:mod:`relaykit.trajectory.facts`; 0 turns it off). ``dropped="reference"`` masks like ``"placeholder"`` and also
    writes every elided step to ``store`` under a handle the placeholder names; left unset, it is ``"placeholder"``
    under a budget (the facts block and the digests need masks: what the decision-point evaluation measures) and
    ``"remove"`` with ``keep`` (the paper's AGORA drops steps). ``recency_prior``: under a budget,
    agora fills by scorer rank + this many ranks per step back from the newest (0: the scorer alone; tuned on the
    dev environments, where 0.15-0.5 hold or gain and 1.0 loses: a learned scorer transfers to new environments
    less well than the fact that the next action mostly names what recent steps showed). ``facts_share`` is the
    block's share while the budget keeps half of the input or more; tighter budgets raise it
    (:func:`relaykit.trajectory.budget.block_share`).
    """

    keep: float = 0.3
    budget: int | str | None = None
    k_recent: int = 2
    theta_hi: float = 0.9
    dropped: Dropped | None = None  # None: "placeholder" under a budget, "remove" with ``keep`` (see __post_init__)
    placeholder: str = PLACEHOLDER
    digest_tokens: int = 32
    facts_share: float = 0.25
    recency_prior: float = 0.3
    truncate_tokens: int = 2048
    mask_window: int = 10
    head_steps: int = 1
    scorer: Scorer | None = None
    token_info: TokenInfo | None = field(default=None, compare=False)
    store: ReferenceStore | None = field(default=None, compare=False)
    encoding: str = "o200k_base"

    def __post_init__(self) -> None:
        if not 0.0 <= self.keep <= 1.0:
            raise UsageError(f"keep must be a ratio between 0 and 1, not {self.keep}")
        if isinstance(self.budget, (int, float)) and not isinstance(self.budget, bool) and self.budget < 1:
            raise UsageError(f"budget must be a positive number of tokens (or a share like '30%'), not {self.budget}")
        if self.k_recent < 0 or self.mask_window < 1 or self.truncate_tokens < 1 or self.head_steps < 0:
            raise UsageError("k_recent and head_steps must be >= 0, and mask_window and truncate_tokens >= 1")
        if self.digest_tokens < 0:
            raise UsageError(f"digest_tokens must be >= 0 (0 turns the digest off), not {self.digest_tokens}")
        if self.recency_prior < 0:
            raise UsageError(f"recency_prior must be >= 0 (0: the scorer's order alone), not {self.recency_prior}")
        if not 0.0 <= self.facts_share < 1.0:
            raise UsageError(f"facts_share must be a share from 0 (no facts block) to below 1, not {self.facts_share}")
        if self.dropped is None:  # under a budget, elided steps keep their action and a digest by default
            object.__setattr__(self, "dropped", "remove" if self.budget is None else "placeholder")
        elif self.dropped not in DROPPED:
            raise UsageError(f"dropped must be one of {', '.join(DROPPED)}, not {self.dropped!r}")

    @property
    def token_budget(self) -> int | None:
        """The budget in tokens (only after ``compress_trajectory`` resolved a share like ``"30%"``)."""
        if self.budget is None:
            return None
        if not isinstance(self.budget, int):
            raise UsageError(f"the budget {self.budget!r} is a share of the input; compress_trajectory resolves it")
        return self.budget


@dataclass(frozen=True)
class Plan:
    """A method's answer: the trajectory it keeps, its always-keep floor, and, for the budget, the order in
    which its other kept past steps matter (most important first; ``contiguous``: stop at the first that
    does not fit, as a recency window does)."""

    trajectory: Trajectory
    floor: frozenset[int] = frozenset()
    scores: tuple[float, ...] = ()
    priority: tuple[int, ...] | None = None
    contiguous: bool = False
    mask_rest: bool = False
    notices: tuple[str, ...] = ()


DIGEST_WINDOW = 1000
"""Only the masked steps among the newest this many carry a digest; older ones get the plain placeholder (the facts
block reads the same window, :data:`relaykit.trajectory.facts.ELIDED_WINDOW`). On a 10,000-step history a budget of 30%
masks about 6,000 steps, and a digest each took most of the call's time."""
ACTION_WINDOW = 256
"""How many of the newest actions decide which item shapes are actionable (bounds the work on long runs)."""


class Masker:
    """Masks past steps (action kept, observation -> placeholder with a digest and, in reference mode, a
    handle). Digests are ranked by recurrence over the whole original trajectory, computed once."""

    def __init__(self, original: Trajectory, s: TrajectorySettings) -> None:
        self.original, self.s = original, s
        self._df: Counter[str] | None = None
        self._cache: dict[int, str] = {}
        self._masked: dict[int, Step] = {}
        self._least: dict[int, int] = {}
        self._requests: dict[int, Step | None] = {}
        self._known_words: frozenset[str] | None = None
        self._shapes: frozenset[tuple[str, int]] | None = None
        self._acted: dict[str, int] | None = None
        self._passed: frozenset[str] | None = None
        self._asked: frozenset[str] | None = None

    def actionable(self) -> frozenset[tuple[str, int]]:
        """The shapes of the values the last ``ACTION_WINDOW`` actions pass (see ``digest.action_shapes``)."""
        if self._shapes is None:
            recent = dict.fromkeys(step.action_text for step in self.original.steps[-ACTION_WINDOW:])
            self._shapes = action_shapes(recent)
        return self._shapes

    def acted(self) -> dict[str, int]:
        """Each word an action names -> the newest step whose action names it (the current step's included)."""
        if self._acted is None:
            self._acted = acted_words((step.index, step.action_text) for step in self.original.steps)
        return self._acted

    def passed(self) -> frozenset[str]:
        """The words of the values the actions passed (:func:`relaykit.trajectory.facts.passed_words`), the current
        step's included."""
        if self._passed is None:
            self._passed = frozenset(w for step in self.original.steps for w in passed_words(step.action))
        return self._passed

    def asked(self) -> frozenset[str]:
        """The words of the items the user's requests in the past steps name that no action has passed yet
        (:func:`relaykit.trajectory.facts.pending_items`, over the newest ``ELIDED_WINDOW`` steps)."""
        if self._asked is None:
            acted = self.acted()
            self._asked = frozenset(w for step in self.original.past[-ELIDED_WINDOW:]
                                    for item in pending_items(step, acted) for w in text_words(item))
        return self._asked

    def frequencies(self) -> Counter[str]:
        """In how many blocks (task, pending turn, each step) of the original trajectory each word occurs."""
        if self._df is None:
            t = self.original
            blocks: Iterable[str] = (
                *(tokens.message_text(m) for m in (*t.task, *t.pending)),
                *(f"{step.action_text}\n{step.observation_text}" for step in t.steps))
            self._df = block_frequencies(blocks)
        return self._df

    def _known(self) -> frozenset[str]:
        """Words of what every result holds (task, current step, pending turn): no digest repeats them. The system
        prompt is kept too, but its words (instructions, examples such as "open door to kitchen") are no facts of
        the episode: a masked step's kitchen stays in its digest."""
        if self._known_words is None:
            t = self.original
            current = t.steps[-1].messages if t.steps else ()
            self._known_words = frozenset(
                w for m in (*t.task, *current, *t.pending) for w in text_words(tokens.message_text(m)))
        return self._known_words

    def known_words(self) -> frozenset[str]:
        """Words every result holds as facts of the episode (task, current step, pending turn)."""
        return self._known()

    def placeholder(self, index: int, with_digest: bool = True) -> str:
        key = index if with_digest else -1 - index
        if key not in self._cache:
            step = self.original.steps[index]
            parts = []
            if self.s.digest_tokens and with_digest and index >= len(self.original.steps) - DIGEST_WINDOW:
                facts = digest(step.observation_text, self.s.digest_tokens, self.frequencies(), self.s.encoding,
                               self._known(), self.actionable(), sibling_items(step, self.acted()))
                parts += [f"facts: {facts}"] if facts else []
            if self.s.dropped == "reference":
                parts.append(f'recall_step("{handle_for(step.messages)}")')
            base = self.s.placeholder
            joined = "; ".join(parts)
            self._cache[key] = (base if not parts else f"{base[:-1]}; {joined}]" if base.endswith("]")
                                else f"{base} ({joined})")
        return self._cache[key]

    def mask(self, step: Step) -> Step:
        if step.masked:
            return step
        if step.index not in self._masked:
            masked = mask_observation(step, self.original.form, self.placeholder(step.index))
            if masked.observation == step.observation:  # a digest longer than the observation: go without it
                masked = mask_observation(step, self.original.form, self.placeholder(step.index, False))
            self._masked[step.index] = self._no_longer(step, masked)
        return self._masked[step.index]

    def _no_longer(self, step: Step, masked: Step) -> Step:
        """``masked`` with each observation message that counts more tokens than the original back to the original:
        ``mask_observation`` keeps a placeholder shorter in characters, which is not always fewer tokens (a step's
        digest written over a 12-token "door door ..." result cost 13)."""
        def longer(old: Msg, new: Msg) -> bool:
            text = tokens.message_text
            return count_text(text(new), self.s.encoding) > count_text(text(old), self.s.encoding)

        obs = tuple(old if longer(old, new) else new for old, new in zip(step.observation, masked.observation))
        return masked if obs == masked.observation else replace(masked, observation=obs)

    def requests(self, step: Step) -> Step | None:
        """The original step ``step.index`` cut to the user's requests after its tool results
        (:func:`relaykit.trajectory.parse.requests_only`; memoised, ``None`` when it holds none)."""
        if step.index not in self._requests:
            self._requests[step.index] = requests_only(self.original.steps[step.index])
        return self._requests[step.index]

    def least(self, step: Step, cost: Cost) -> int:
        """A lower bound of ``cost.step(self.mask(step))`` without its digest: the action, and each observation
        message at the cheaper of its text and the plain placeholder (a digest only adds words after the
        placeholder's own, at a pre-tokenizer boundary, so it never costs fewer tokens; a message the digest
        would lengthen keeps its text). Packing skips a step this bound already puts over the room, which at a
        tight budget is almost every masked candidate: their digests are never computed."""
        if step.masked or step.index in self._masked:
            return cost.step(self.mask(step))
        key = -1 - step.index
        if key not in self._least:
            plain = mask_observation(step, self.original.form, self.placeholder(step.index, False))
            self._least[key] = cost.known(step.action) + sum(
                min(cost.known(m), cost.known(p)) for m, p in zip(step.observation, plain.observation))
        return self._least[key]


@functools.lru_cache(maxsize=32768)
def count_text(text: str, encoding: str) -> int:
    """``tokens.count``, memoised: an agent loop recompresses the same messages at every step."""
    return tokens.count(text, encoding)


class Cost:
    """Exact token cost of messages as the accounting counts them: chat lists are additive per message
    (``tokens.count_messages``); a ReAct text is counted whole, so per-block costs are close, not exact."""

    def __init__(self, form: str, encoding: str) -> None:
        self.form, self.encoding = form, encoding
        self._steps: dict[int, tuple[Step, int]] = {}  # id(step) -> (the step, kept alive so ids stay unique; cost)
        self._messages: dict[int, tuple[Mapping[str, Any], int]] = {}  # id(message) -> (the message, its cost)

    @property
    def base(self) -> int:
        return tokens.TOKENS_REPLY_PRIMER if self.form == "chat" else 0

    def message(self, m: Mapping[str, Any]) -> int:
        """What ``m`` adds to ``tokens.count_messages`` (the same arithmetic, with counts memoised)."""
        if self.form == "react":
            return count_text(str(m.get("content") or ""), self.encoding)
        total = tokens.TOKENS_PER_MESSAGE + count_text(tokens.message_text(m), self.encoding)
        total += count_text(str(m.get("role", "")), self.encoding)
        if m.get("name"):
            total += tokens.TOKENS_PER_NAME + count_text(str(m["name"]), self.encoding)
        return total

    def messages(self, ms: Iterable[Msg]) -> int:
        return sum(self.known(m) for m in ms)

    def known(self, m: Mapping[str, Any]) -> int:
        """:meth:`message`, memoised per message object (messages are never changed in place here: a masked or
        shortened step holds new ones), so a step's messages are counted once however often they are priced."""
        key = id(m)
        if key not in self._messages:
            self._messages[key] = (m, self.message(m))
        return self._messages[key][1]

    def step(self, step: Step) -> int:
        key = id(step)
        if key not in self._steps:
            self._steps[key] = (step, self.messages(step.messages))
        return self._steps[key][1]

    def fixed(self, t: Trajectory) -> int:
        """System, task, pending turn and the current step: what every result holds."""
        current = t.steps[-1].messages if t.steps else ()
        return self.base + self.messages((*t.system, *t.task, *current, *t.pending))

    def total(self, t: Trajectory) -> int:
        return self.fixed(t) + sum(self.step(step) for step in t.past)


__all__ = ["DROPPED", "Cost", "Dropped", "Masker", "Plan", "TrajectorySettings"]
