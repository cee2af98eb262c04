"""The context arranger: calibration-ratio batching, type routing, signal position and token budgets.

Paper 002 found that a relevance-scoring prompt made only of relevant items is worse than one where part
of the items are same-domain, low-relevance ones (relevance accuracy plateaus at roughly 30-50% signal),
that routing each source type to its own prompts helps when the types differ in signal density, and that
position matters little at 10 items but should keep signal out of the middle of long prompts.
``arrange`` applies those rules to items you already have, with a relevance hint per item where you have
one (0-3, or a retrieval score) and the keyword fallback of :mod:`relaykit.context.relevance` elsewhere.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from relaykit import tokens
from relaykit.accounting import Accounting
from relaykit.context.positions import get_pattern, place, preferred_position
from relaykit.context.relevance import RelevanceFn, keyword_relevance
from relaykit.context.routing import stratify
from relaykit.errors import UsageError, unknown_name
from relaykit.text import runs

MIXED = "mixed"


@dataclass(frozen=True)
class Item:
    """One piece of context: an email, a meeting transcript, a chat thread, a retrieved passage.

    ``relevance`` is a 0-3 hint (2 or more counts as signal, as in the paper); ``score`` is a retrieval
    score compared with ``ArrangeConfig.score_threshold``. With neither, the relevance fallback decides.
    ``tokens`` is counted from the text when not given.
    """

    id: str
    text: str
    source_type: str = "default"
    relevance: float | None = None
    score: float | None = None
    tokens: int | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @classmethod
    def of(cls, value: Item | Mapping[str, Any]) -> Item:
        """An ``Item`` from itself or from a dict (``label`` is read as ``relevance``, ``type`` as ``source_type``)."""
        if isinstance(value, Item):
            return value
        if not isinstance(value, Mapping):
            raise UsageError(f"an item must be an Item or a dict with 'id' and 'text', not {type(value).__name__}")
        data = dict(value)
        known = {f.name for f in fields(cls)}
        if "label" in data and data.get("relevance") is None:
            data["relevance"] = data.pop("label")
        if "type" in data and "source_type" not in data:
            data["source_type"] = data.pop("type")
        if "id" not in data:
            raise UsageError(f"an item has no 'id': {str(value)[:80]}")
        extra = {k: v for k, v in data.items() if k not in known}
        kept = {k: v for k, v in data.items() if k in known and k != "metadata"}
        kept["id"] = str(kept["id"])
        kept["text"] = kept.get("text") or ""
        return cls(**kept, metadata={**dict(data.get("metadata") or {}), **extra})


@dataclass(frozen=True)
class ArrangeConfig:
    """Every knob of :func:`arrange`; the defaults follow paper 002."""

    batch_size: int = 10  # items per batch (the paper's prompts held 10)
    signal_share: float = 0.5  # target share of signal items per batch (plateau: roughly 0.3-0.5)
    max_tokens: int | None = None  # hard budget on the item tokens of one batch
    route_by_type: bool | None = None  # None: route when source types differ in signal density
    density_gap: float = 0.25  # the density difference that switches automatic routing on
    min_type_items: int = 5  # a source type with fewer items joins a mixed group
    position: str | None = None  # None: default_position, or the model's preference on long prompts
    default_position: str = "end"
    model: str | None = None  # model name for the per-model position preference table
    long_context_tokens: int = 8000  # above this many tokens a batch counts as a long prompt
    signal_threshold: float = 2.0  # relevance hint at or above which an item is signal
    score_threshold: float = 0.5  # retrieval score at or above which an item is signal
    keep_surplus: bool = False  # put noise items not needed for calibration into noise-only batches
    seed: int = 0
    encoding: str = "o200k_base"

    def __post_init__(self) -> None:
        if self.batch_size < 1:
            raise UsageError(f"batch_size must be at least 1, not {self.batch_size}")
        if not 0.0 < self.signal_share <= 1.0:
            raise UsageError(f"signal_share must be in (0, 1], not {self.signal_share}; 0.5 is the paper's mix")
        if self.max_tokens is not None and self.max_tokens < 1:
            raise UsageError(f"max_tokens must be at least 1, not {self.max_tokens}")
        if self.min_type_items < 1:
            raise UsageError(f"min_type_items must be at least 1, not {self.min_type_items}")
        for name in (self.position, self.default_position):
            if name is not None:
                get_pattern(name)  # raises UsageError listing the known positions


@dataclass(frozen=True)
class Batch:
    """Items for one model call, in order, with the ids of the signal items among them."""

    items: tuple[Item, ...]
    signal_ids: frozenset[str]
    source_type: str
    position: str
    tokens: int

    @property
    def signal_share(self) -> float:
        return len(self.signal_ids) / len(self.items) if self.items else 0.0

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(item.id for item in self.items)

    def render(self) -> str:
        """The batch as prompt text: one ``[id] (type)`` header and the text per item."""
        return "\n\n".join(f"[{item.id}] ({item.source_type})\n{item.text.strip()}" for item in self.items)


@dataclass(frozen=True)
class Arrangement:
    """What :func:`arrange` returns: the batches, the items left out, and how each decision was made."""

    batches: tuple[Batch, ...]
    left_out: tuple[Item, ...]
    routed: bool
    relevance: Mapping[str, float]
    signal_ids: frozenset[str]
    fallback_ids: tuple[str, ...]
    notices: tuple[str, ...]
    accounting: Accounting = field(default_factory=lambda: Accounting(0, 0, method="arrange"))
    """Tokens of every item in, tokens placed in batches out; kept / dropped are input item indices."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: batches (ids, signal ids, position, tokens), left-out ids, routing, notices, accounting."""
        return {
            "batches": [
                {"source_type": b.source_type, "position": b.position, "tokens": b.tokens,
                 "signal_share": round(b.signal_share, 3), "ids": list(b.ids), "signal_ids": sorted(b.signal_ids)}
                for b in self.batches
            ],
            "left_out": [item.id for item in self.left_out],
            "routed": self.routed,
            "notices": list(self.notices),
            "accounting": self.accounting.to_dict(),
        }

    def __iter__(self) -> Iterator[Batch]:
        return iter(self.batches)

    def __len__(self) -> int:
        return len(self.batches)


@dataclass(frozen=True)
class _Scored:
    item: Item
    tokens: int
    relevance: float
    signal: bool


def arrange(
    items: Iterable[Item | Mapping[str, Any]],
    config: ArrangeConfig | None = None,
    *,
    relevance: RelevanceFn = keyword_relevance,
    **options: Any,
) -> Arrangement:
    """Arrange ``items`` into batches; ``options`` override fields of ``config`` (``batch_size=8``, ...).

    Signal items are never dropped. Noise items join batches, lowest relevance first, until each batch
    reaches the target signal share; the rest are returned in ``left_out`` (or batched on their own with
    ``keep_surplus=True``). An item larger than ``max_tokens`` is a ``UsageError`` naming it.
    """
    cfg = _config(config, options)
    checked = _validate([Item.of(item) for item in items], cfg)
    scored, fallback = _score(checked, cfg, relevance)
    groups, routed, notes = _route(scored, cfg)
    batches: list[Batch] = []
    left_out: list[Item] = []
    for name, members in groups.items():
        group_batches, surplus, group_notes = _batch_group(name, members, cfg, len(batches))
        batches.extend(group_batches)
        left_out.extend(surplus)
        notes.extend(group_notes)
    if fallback:
        notes.append(
            f"{len(fallback)} item(s) had no relevance hint and were scored by the unvalidated keyword "
            "fallback; pass relevance= or score= hints for dependable batches"
        )
    return Arrangement(
        batches=tuple(batches),
        left_out=tuple(left_out),
        routed=routed,
        relevance={s.item.id: s.relevance for s in scored},
        signal_ids=frozenset(s.item.id for s in scored if s.signal),
        fallback_ids=tuple(fallback),
        notices=tuple(notes),
        accounting=_accounting(scored, batches, cfg, notes),
    )


def _accounting(scored: Sequence[_Scored], batches: Sequence[Batch], cfg: ArrangeConfig,
                notes: Sequence[str]) -> Accounting:
    placed = {item.id for batch in batches for item in batch.items}
    return Accounting(
        tokens_in=sum(s.tokens for s in scored),
        tokens_out=sum(b.tokens for b in batches),
        method="arrange",
        encoding=cfg.encoding,
        kept=tuple(i for i, s in enumerate(scored) if s.item.id in placed),
        dropped=tuple(i for i, s in enumerate(scored) if s.item.id not in placed),
        notices=tuple(notes),
    )


def _config(config: ArrangeConfig | None, options: Mapping[str, Any]) -> ArrangeConfig:
    cfg = config or ArrangeConfig()
    names = [f.name for f in fields(ArrangeConfig)]
    unknown = sorted(set(options) - set(names))
    if unknown:
        raise unknown_name("arrange option", unknown[0], names)
    return replace(cfg, **options) if options else cfg


def _validate(items: Sequence[Item], cfg: ArrangeConfig) -> list[Item]:
    if not items:
        raise UsageError("no items to arrange; pass at least one item")
    not_numbers = [i.id for i in items for v in (i.relevance, i.score, i.tokens) if v is not None and not _is_number(v)]
    if not_numbers:
        raise UsageError(f"relevance, score and tokens must be numbers; not so for: {_ids(not_numbers)}")
    empty = [item.id for item in items if not isinstance(item.text, str) or not item.text.strip()]
    if empty:
        raise UsageError(f"{len(empty)} item(s) have no text: {_ids(empty)}; drop them or give them text")
    bad = [f"{i.id}={i.relevance}" for i in items if i.relevance is not None and not 0 <= i.relevance <= 3]
    if bad:
        raise UsageError(f"relevance hints must be on the 0-3 scale; out of range: {_ids(bad)}")
    dupes = [name for name, n in Counter(item.id for item in items).items() if n > 1]
    if dupes:
        raise UsageError(f"item ids must be unique; repeated: {_ids(dupes)}")
    return list(items)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _ids(ids: Sequence[str], limit: int = 8) -> str:
    shown = ", ".join(ids[:limit])
    return shown + (f" and {len(ids) - limit} more" if len(ids) > limit else "")


def _score(items: Sequence[Item], cfg: ArrangeConfig, fallback_fn: RelevanceFn) -> tuple[list[_Scored], list[str]]:
    scored: list[_Scored] = []
    fallback: list[str] = []
    for item in items:
        n_tokens = item.tokens if item.tokens is not None else tokens.count(item.text, cfg.encoding)
        if cfg.max_tokens is not None and n_tokens > cfg.max_tokens:
            raise UsageError(
                f"item {item.id!r} has {n_tokens} tokens, more than the batch budget of {cfg.max_tokens}; "
                "split or summarize it, or raise max_tokens"
            )
        if item.relevance is not None:
            value, signal = float(item.relevance), item.relevance >= cfg.signal_threshold
        elif item.score is not None:
            value, signal = float(item.score), item.score >= cfg.score_threshold
        else:
            value = float(fallback_fn(item.text))
            signal = value >= cfg.signal_threshold
            fallback.append(item.id)
        scored.append(_Scored(item, n_tokens, value, signal))
    return scored, fallback


def _route(scored: Sequence[_Scored], cfg: ArrangeConfig) -> tuple[dict[str, list[_Scored]], bool, list[str]]:
    by_type = stratify(scored, lambda entry: entry.item.source_type)
    notes: list[str] = []
    densities = {name: sum(e.signal for e in group) / len(group) for name, group in by_type.items()}
    routed = cfg.route_by_type
    if routed is None:
        spread = max(densities.values()) - min(densities.values())
        routed = len(by_type) > 1 and spread >= cfg.density_gap
        if len(by_type) > 1:
            state = "on" if routed else "off"
            notes.append(f"type routing {state}: signal density spread {spread:.2f} (switch at {cfg.density_gap:.2f})")
    if not routed or len(by_type) == 1:
        name = next(iter(by_type)) if len(by_type) == 1 else MIXED
        return {name: list(scored)}, bool(routed) and len(by_type) > 1, notes
    groups: dict[str, list[_Scored]] = {}
    for name, group in by_type.items():
        target = name if len(group) >= cfg.min_type_items else MIXED
        groups.setdefault(target, []).extend(group)
    pooled = [n for n, g in by_type.items() if len(g) < cfg.min_type_items]
    if pooled:
        notes.append(f"source type(s) with fewer than {cfg.min_type_items} items pooled into one mixed group: "
                     + ", ".join(pooled))
    return groups, True, notes


def _batch_group(
    name: str, members: Sequence[_Scored], cfg: ArrangeConfig, first_index: int
) -> tuple[list[Batch], list[Item], list[str]]:
    signal = [m for m in members if m.signal]
    noise = sorted((m for m in members if not m.signal), key=lambda m: m.relevance)
    notes: list[str] = []
    if not signal:
        notes.append(f"{name}: no signal items, so no calibration batches")
        return _surplus_batches(name, noise, cfg, first_index), _surplus_items(noise, cfg), notes
    per_batch = max(1, min(cfg.batch_size, round(cfg.batch_size * cfg.signal_share)))
    chunks = _even_chunks(signal, math.ceil(len(signal) / per_batch))
    wanted = [_noise_wanted(len(chunk), cfg) for chunk in chunks]
    if sum(wanted) > len(noise):
        share = len(signal) / (len(signal) + len(noise))
        notes.append(
            f"{name}: {len(noise)} noise item(s) for {len(signal)} signal; batches reach {share:.0%} signal, "
            f"not the target {cfg.signal_share:.0%} (add {sum(wanted) - len(noise)} same-domain low-relevance items)"
        )
    batches: list[Batch] = []
    pool = iter(noise)
    used = 0
    for chunk, want in zip(chunks, wanted):
        extra = [m for _, m in zip(range(want), pool)]
        used += len(extra)
        for part in _pack(place(chunk, extra, "scatter_even"), cfg.max_tokens):
            batches.append(_make_batch(name, part, cfg, first_index + len(batches)))
    rest = list(noise[used:])
    return batches + _surplus_batches(name, rest, cfg, first_index + len(batches)), _surplus_items(rest, cfg), notes


def _noise_wanted(n_signal: int, cfg: ArrangeConfig) -> int:
    ideal = round(n_signal * (1.0 - cfg.signal_share) / cfg.signal_share)
    return max(0, min(cfg.batch_size - n_signal, ideal))


def _even_chunks(entries: Sequence[_Scored], n: int) -> list[list[_Scored]]:
    size, extra = divmod(len(entries), n)
    chunks, start = [], 0
    for i in range(n):
        end = start + size + (1 if i < extra else 0)
        chunks.append(list(entries[start:end]))
        start = end
    return chunks


def _pack(entries: Sequence[_Scored], budget: int | None) -> list[list[_Scored]]:
    """Consecutive runs of ``entries`` whose tokens stay within ``budget`` (one run when there is none)."""
    return runs(entries, lambda entry: entry.tokens, budget) or [[]]


def _make_batch(name: str, part: Sequence[_Scored], cfg: ArrangeConfig, index: int) -> Batch:
    n_tokens = sum(m.tokens for m in part)
    position = cfg.position
    if position is None:
        long_prompt = n_tokens > cfg.long_context_tokens
        position = preferred_position(cfg.model, cfg.default_position) if long_prompt else cfg.default_position
    ordered = place([m for m in part if m.signal], [m for m in part if not m.signal], position, cfg.seed + index)
    return Batch(
        items=tuple(m.item for m in ordered),
        signal_ids=frozenset(m.item.id for m in part if m.signal),
        source_type=name,
        position=position,
        tokens=n_tokens,
    )


def _surplus_batches(name: str, rest: Sequence[_Scored], cfg: ArrangeConfig, first_index: int) -> list[Batch]:
    if not cfg.keep_surplus or not rest:
        return []
    out: list[Batch] = []
    for start in range(0, len(rest), cfg.batch_size):
        for part in _pack(rest[start : start + cfg.batch_size], cfg.max_tokens):
            out.append(_make_batch(name, part, cfg, first_index + len(out)))
    return out


def _surplus_items(rest: Sequence[_Scored], cfg: ArrangeConfig) -> list[Item]:
    return [] if cfg.keep_surplus else [m.item for m in rest]
