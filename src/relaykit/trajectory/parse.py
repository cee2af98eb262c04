"""Parse an agent trajectory into blocks, and render blocks back.

Two input forms parse into one structure (:class:`Trajectory`):

- a chat-completions message list: leading system/developer messages are the *system* block; the
  messages before the first assistant turn are the *task*; each assistant turn with the tool results
  and user messages that follow it is one *step* (action, observation); a trailing assistant turn
  with nothing after it is the *pending* turn; the user turns of the last step are the user's new request
  (never cut) when they follow its tool results, or when the chat calls tools and that step's action is a text
  reply (:attr:`Step.replies`);
- a ReAct transcript (``Thought:`` / ``Action:`` / ``Observation:`` lines, optionally numbered):
  the text before the first marker is the task, each run of Thought/Action lines with the
  Observation after it is a step, and a trailing Thought/Action with no Observation is pending.

The last complete step holds the *current observation*. Rendering an uncompressed parse gives back
the input exactly (the same list of dicts, or the same string).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, cast

from relaykit.errors import UsageError
from relaykit.tokens import message_text
from relaykit.trajectory.validate import SYSTEM_ROLES

Msg = dict[str, Any]
Form = Literal["chat", "react"]

PLACEHOLDER = "[observation omitted to save context]"
REACT_MARKER = re.compile(r"^[ \t]*(Thought|Action|Observation)(?:[ \t]*\d+)?[ \t]*:", re.MULTILINE)


@dataclass(frozen=True)
class Step:
    """One past step: the action message and the observation messages that answered it."""

    index: int
    action: Msg
    observation: tuple[Msg, ...]
    masked: bool = False
    replies: bool = False
    """The current step of a tool-using chat whose action is a text reply (no tool call): the user turns after it
    are the user's new request, not observations, and are never cut (in a chat that never calls a tool, such as a
    text game, user turns are the environment's answers). Past steps are not marked: their user turns may be
    compressed like observations, as before."""

    @property
    def messages(self) -> tuple[Msg, ...]:
        return (self.action, *self.observation)

    @property
    def action_text(self) -> str:
        return message_text(self.action)

    @property
    def observation_text(self) -> str:
        return "\n".join(message_text(m) for m in self.observation)


@dataclass(frozen=True)
class Trajectory:
    """A parsed trajectory: system, task, steps (the last one holds the current observation), pending."""

    form: Form
    system: tuple[Msg, ...]
    task: tuple[Msg, ...]
    steps: tuple[Step, ...]
    pending: tuple[Msg, ...]

    @property
    def past(self) -> tuple[Step, ...]:
        """The steps before the current one: the candidates for compression."""
        return self.steps[:-1]

    @property
    def current(self) -> Step | None:
        return self.steps[-1] if self.steps else None

    def with_steps(self, steps: Sequence[Step]) -> Trajectory:
        return replace(self, steps=tuple(steps))


def parse(source: Sequence[Mapping[str, Any]] | str) -> Trajectory:
    """Parse a chat message list or a ReAct transcript (a string)."""
    if isinstance(source, str):
        return parse_react(source)
    if isinstance(source, Sequence) and not isinstance(source, bytes):
        return parse_chat(cast("Sequence[Mapping[str, Any]]", source))
    raise UsageError("a trajectory is a list of chat messages or a ReAct transcript string")


def parse_chat(messages: Sequence[Mapping[str, Any]]) -> Trajectory:
    msgs = [dict(m) for m in messages]
    i = 0
    while i < len(msgs) and msgs[i].get("role") in SYSTEM_ROLES:
        i += 1
    system = tuple(msgs[:i])
    start = i
    while i < len(msgs) and msgs[i].get("role") != "assistant":
        i += 1
    task = tuple(msgs[start:i])
    steps: list[Step] = []
    while i < len(msgs):
        j = i + 1
        while j < len(msgs) and msgs[j].get("role") != "assistant":
            j += 1
        steps.append(Step(len(steps), msgs[i], tuple(msgs[i + 1:j])))
        i = j
    pending: tuple[Msg, ...] = ()
    if steps and not steps[-1].observation and not steps[-1].action.get("tool_calls"):
        pending = (steps.pop().action,)
    if steps and not steps[-1].action.get("tool_calls") and any(step.action.get("tool_calls") for step in steps):
        steps[-1] = replace(steps[-1], replies=True)  # a tool-using chat's newest user turn: see Step.replies
    return Trajectory("chat", system, task, tuple(steps), pending)


def parse_react(text: str) -> Trajectory:
    marks = list(REACT_MARKER.finditer(text))
    if not marks or not any(m.group(1) in ("Action", "Observation") for m in marks):
        return Trajectory("react", (), _text_block(text), (), ())
    chunks = [(m.group(1), text[m.start():(marks[k + 1].start() if k + 1 < len(marks) else len(text))])
              for k, m in enumerate(marks)]
    steps: list[Step] = []
    action, observation = "", ""
    for kind, chunk in chunks:
        if kind == "Observation":
            observation += chunk
            continue
        if observation or (action and not observation and _has_action(action) and kind == "Thought"):
            steps.append(_react_step(len(steps), action, observation))
            action, observation = "", ""
        action += chunk
    pending: tuple[Msg, ...] = ()
    if observation:
        steps.append(_react_step(len(steps), action, observation))
    elif action:
        pending = ({"role": "assistant", "content": action},)
    return Trajectory("react", (), _text_block(text[:marks[0].start()]), tuple(steps), pending)


def _has_action(text: str) -> bool:
    return any(m.group(1) == "Action" for m in REACT_MARKER.finditer(text))


def _text_block(text: str) -> tuple[Msg, ...]:
    return ({"role": "user", "content": text},) if text else ()


def _react_step(index: int, action: str, observation: str) -> Step:
    obs = ({"role": "user", "content": observation},) if observation else ()
    return Step(index, {"role": "assistant", "content": action}, obs)


def render(trajectory: Trajectory) -> list[Msg] | str:
    """The messages (chat) or text (ReAct) of a trajectory; the inverse of :func:`parse`."""
    messages = render_messages(trajectory)
    if trajectory.form == "react":
        return "".join(str(m.get("content") or "") for m in messages)
    return messages


def render_messages(trajectory: Trajectory) -> list[Msg]:
    out = [dict(m) for m in (*trajectory.system, *trajectory.task)]
    for step in trajectory.steps:
        out.extend(dict(m) for m in step.messages)
    out.extend(dict(m) for m in trajectory.pending)
    return out


def mask_observation(step: Step, form: Form, placeholder: str = PLACEHOLDER) -> Step:
    """The step with its action kept and every observation message's content replaced by a placeholder (but a
    user turn after the step's tool results: that is the user's next request, not an observation)."""
    if step.masked:
        return step
    observation = tuple(m if request else _masked(m, form, placeholder)
                        for m, request in zip(step.observation, step_request_flags(step), strict=True))
    return replace(step, observation=observation, masked=True)


def request_flags(observation: Sequence[Msg], replies: bool = False) -> list[bool]:
    """For each observation message, whether it is a user turn after one of the step's tool results, or after a
    tool-using chat's text reply (``replies``, see :attr:`Step.replies`): the user's next turn, parsed into the
    step, not an observation."""
    flags, after_tool = [], replies
    for m in observation:
        flags.append(after_tool and m.get("role") == "user")
        after_tool = after_tool or m.get("role") == "tool"
    return flags


def step_request_flags(step: Step) -> list[bool]:
    """:func:`request_flags` of the step's observation."""
    return request_flags(step.observation, step.replies)


def request_turns(step: Step) -> list[Msg]:
    """The user's turns in the step (:func:`step_request_flags`)."""
    return [m for m, request in zip(step.observation, step_request_flags(step), strict=True) if request]


def requests_only(step: Step) -> Step | None:
    """The step cut to the user turns that follow its tool results (a multi-turn user's next request, parsed into
    the step), its call and results elided; ``None`` when it holds none (ReAct text never does). The first request
    stands where the action stood, so the step renders as those user turns alone: a list still valid (no call
    without its result), and the words the user asked for (a tweet's text, a ticket's title) survive the step.
    Marked masked: the step is elided, its facts go to the facts block."""
    requests = request_turns(step)
    if not requests or step.action.get("role") == "user":
        return None
    return Step(step.index, requests[0], tuple(requests[1:]), masked=True)


def is_request_only(step: Step) -> bool:
    """Whether ``step`` is a step cut to its user requests (:func:`requests_only`): it holds no observation."""
    return step.action.get("role") == "user"


def _masked(message: Msg, form: Form, placeholder: str) -> Msg:
    content = message_text(message)
    if form == "react":
        head = REACT_MARKER.match(content)
        prefix = head.group(0) if head else ""
        tail = "\n" if content.endswith("\n") else ""
        masked = f"{prefix} {placeholder}{tail}"
    else:
        masked = placeholder
    return message if len(masked) >= len(content) else {**message, "content": masked}  # never lengthen


__all__ = ["PLACEHOLDER", "Form", "Msg", "Step", "Trajectory", "is_request_only", "mask_observation", "parse", "render",
           "render_messages", "request_flags", "request_turns", "requests_only", "step_request_flags"]
