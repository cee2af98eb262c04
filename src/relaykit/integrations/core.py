"""What every framework adapter shares: a budget policy, and compression of a framework's own message objects.

A framework keeps its history as its own objects (LangChain ``BaseMessage``, AutoGen ``LLMMessage``...). An
adapter says how one object reads as chat messages and how to rebuild an object whose text relaykit shortened;
``compress_objects`` does the rest: it views the objects as chat messages tagged with where they came from,
compresses that view with ``compress_trajectory``, and gives back the surviving objects — the originals
themselves where nothing changed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast

from relaykit.trajectory.compress import compress_trajectory
from relaykit.trajectory.formats.base import SOURCE_KEY

T = TypeVar("T")
Msg = dict[str, Any]


@dataclass(frozen=True)
class BudgetPolicy:
    """How an adapter compresses: a method and a token budget (tokens, or a share such as ``"30%"``).

    ``budget=None`` compresses by the method's keep ratio alone; ``only_over`` leaves histories that already
    fit the budget untouched. ``options`` go to ``compress_trajectory`` (``dropped``, ``k_recent``...).
    """

    budget: int | str | None = None
    method: str = "agora"
    only_over: bool = True
    options: Mapping[str, Any] = field(default_factory=dict)

    def kwargs(self) -> dict[str, Any]:
        extra = dict(self.options)
        if self.budget is not None:
            extra["budget"] = self.budget
        return extra


@dataclass(frozen=True)
class Compressed(Generic[T]):
    """The surviving objects and the chat-view compression result (with its accounting)."""

    items: list[T]
    result: Any


def compress_objects(
    items: Sequence[T],
    to_chat: Callable[[T], list[Msg]],
    rebuild: Callable[[T, list[tuple[int, Msg]]], T],
    policy: BudgetPolicy,
    *,
    count: Callable[[list[Msg]], int] | None = None,
) -> Compressed[T]:
    """Compress a framework's message objects under ``policy``.

    ``to_chat(obj)`` gives the chat messages one object stands for; ``rebuild(obj, parts)`` gives the object
    back from the ``(position, message)`` pairs of it that survived when some were dropped or changed.
    """
    view: list[Msg] = []
    for i, item in enumerate(items):
        view.extend({**m, SOURCE_KEY: (i, j)} for j, m in enumerate(to_chat(item)))
    if policy.only_over and _fits(view, policy, count):
        return Compressed(list(items), None)
    result = compress_trajectory(view, policy.method, **policy.kwargs())
    originals = {m[SOURCE_KEY]: m for m in view}
    messages = cast("list[Msg]", result.messages)  # a chat view renders back as a message list
    return Compressed(_regroup(items, to_chat, rebuild, messages, originals), result)


def _fits(view: list[Msg], policy: BudgetPolicy, count: Callable[[list[Msg]], int] | None) -> bool:
    if policy.budget is None:
        return False
    from relaykit import tokens

    used = (count or tokens.count_messages)(view)
    budget = policy.budget
    if isinstance(budget, str):
        return False  # a share of the input always compresses
    return used <= int(budget)


def _regroup(items: Sequence[T], to_chat: Callable[[T], list[Msg]], rebuild: Callable[[T, list[tuple[int, Msg]]], T],
             messages: Sequence[Mapping[str, Any]], originals: Mapping[Any, Msg]) -> list[T]:
    groups: list[tuple[int, list[tuple[int, Msg]]]] = []
    for message in messages:
        i, j = message[SOURCE_KEY]
        clean = {k: v for k, v in message.items() if k != SOURCE_KEY}
        if groups and groups[-1][0] == i:
            groups[-1][1].append((j, clean))
        else:
            groups.append((i, [(j, clean)]))
    out: list[T] = []
    for i, parts in groups:
        whole = len(parts) == len(to_chat(items[i]))
        same = all(originals[(i, j)].get("content") == m.get("content") for j, m in parts)
        out.append(items[i] if whole and same else rebuild(items[i], parts))
    return out


__all__ = ["BudgetPolicy", "Compressed", "compress_objects"]
