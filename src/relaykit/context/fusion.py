"""Fusion-of-N: merge N extraction samples (sets of item ids, optionally with payloads) into one.

Paper 002's follow-up found that asking a model to merge repeated extraction samples did not beat the
plain set union of the extracted ids: the union reached the recall ceiling while the fuser dropped true
positives that only one sample had found. So ``union`` (k=1) is the default; ``best_of_n`` (a judge model
picks one sample) and ``model`` (a fuser model writes the merged list) are there to be measured against it.
Every result carries each id's support: how many of the N samples contained it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field, create_model

from relaykit.accounting import Tally
from relaykit.errors import UsageError
from relaykit.models.base import Model
from relaykit.models.structured import complete_structured
from relaykit.registry import Registry

Sample = Iterable[str] | Mapping[str, Any]


@dataclass(frozen=True)
class Fused:
    """The fused ids (first-seen order), every seen id's support count, and the payloads kept."""

    ids: tuple[str, ...]
    support: Mapping[str, int]
    n: int
    method: str
    payloads: Mapping[str, Any] = field(default_factory=dict)
    chosen: int | None = None  # best_of_n: index (0-based) of the sample the judge picked
    dropped: tuple[str, ...] = ()  # model fusion: ids the fuser named that no sample contained

    def __contains__(self, item_id: object) -> bool:
        return item_id in self.ids

    def to_dict(self) -> dict[str, Any]:
        return {"ids": list(self.ids), "support": dict(self.support), "method": self.method, "n": self.n,
                "chosen": self.chosen, "dropped": list(self.dropped)}


@dataclass(frozen=True)
class FusionSettings:
    """The settings of one fusion (resources, the model and the usage tally, are passed apart)."""

    k: int = 1  # union: keep ids found by at least k of the N samples
    task: str = ""  # what was extracted, shown to the judge or fuser
    max_tokens: int = 512


class FusionMethod(Protocol):
    """A fusion method: ``needs_model`` says whether ``fuse`` must be given a model for it."""

    @property
    def needs_model(self) -> bool: ...

    def __call__(self, samples: list[dict[str, Any]], settings: FusionSettings, model: Model | None,
                 usage: Tally | None) -> Fused: ...


@dataclass(frozen=True)
class FunctionFusion:
    """A plain function as a ``FusionMethod``."""

    fn: Callable[[list[dict[str, Any]], FusionSettings, Model | None, Tally | None], Fused]
    needs_model: bool = False

    def __call__(self, samples: list[dict[str, Any]], settings: FusionSettings, model: Model | None,
                 usage: Tally | None) -> Fused:
        return self.fn(samples, settings, model, usage)


FUSIONS: Registry[FusionMethod] = Registry("fusion method")
"""Fusion methods by name: ``union``, ``best_of_n``, ``model``."""


def register_fusion(name: str, method: FusionMethod | Callable[..., Fused], *, needs_model: bool = False) -> None:
    """Make ``fuse(..., method=name)`` use ``method`` (it receives the samples as id -> payload dicts)."""
    FUSIONS.register(name, _as_method(method, needs_model))


def _as_method(method: FusionMethod | Callable[..., Fused], needs_model: bool = False) -> FusionMethod:
    if hasattr(method, "needs_model"):
        return method  # type: ignore[return-value]
    return FunctionFusion(method, needs_model)


def fusion_methods() -> list[str]:
    return FUSIONS.names()


def fuse(
    samples: Sequence[Sample],
    method: str | FusionMethod = "union",
    *,
    k: int = 1,
    model: Model | None = None,
    task: str = "",
    usage: Tally | None = None,
) -> Fused:
    """Fuse N extraction samples; each sample is an iterable of ids or a mapping of id -> payload.

    ``method`` is a registered name or a fusion method itself; one that ``needs_model`` must get ``model``.
    """
    impl = FUSIONS.get(method) if isinstance(method, str) else _as_method(method)
    if impl.needs_model and model is None:
        name = method if isinstance(method, str) else type(method).__name__
        raise UsageError(f"fusion method {name!r} needs a model: fuse(samples, {name!r}, model=open_model(...))")
    normalised = normalise_samples(samples)
    if not 1 <= k <= len(normalised):
        raise UsageError(f"k must be between 1 and the number of samples ({len(normalised)}), not {k}")
    return impl(normalised, FusionSettings(k=k, task=task), model, usage)


def normalise_samples(samples: Sequence[Sample]) -> list[dict[str, Any]]:
    if isinstance(samples, (str, bytes, Mapping)) or not samples:
        raise UsageError("give a list of samples (each a list of ids or a dict of id -> payload), at least one")
    out: list[dict[str, Any]] = []
    for i, sample in enumerate(samples):
        if isinstance(sample, Mapping):
            out.append({str(key): value for key, value in sample.items()})
        elif isinstance(sample, (str, bytes)) or not isinstance(sample, Iterable):
            kind = type(sample).__name__
            raise UsageError(f"sample {i} is {kind}; a sample is a list of ids or an id -> payload dict")
        else:
            out.append(dict.fromkeys(map(str, sample)))
    return out


def support_counts(samples: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """How many samples contain each id, in first-seen order."""
    counts: dict[str, int] = {}
    for sample in samples:
        for item_id in sample:
            counts[item_id] = counts.get(item_id, 0) + 1
    return counts


def _first_payloads(samples: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    payloads: dict[str, Any] = {}
    for sample in samples:
        for item_id, payload in sample.items():
            if payloads.get(item_id) is None:
                payloads[item_id] = payload
    return payloads


def _union(samples: list[dict[str, Any]], settings: FusionSettings, model: Model | None,
           usage: Tally | None) -> Fused:
    support = support_counts(samples)
    ids = tuple(item_id for item_id, n in support.items() if n >= settings.k)
    payloads = _first_payloads(samples)
    return Fused(ids, support, len(samples), "union", {i: payloads[i] for i in ids})


def _render_samples(samples: Sequence[Mapping[str, Any]]) -> str:
    lines = []
    for i, sample in enumerate(samples, 1):
        shown: Any = dict(sample) if any(v is not None for v in sample.values()) else list(sample)
        lines.append(f"Sample {i}: {json.dumps(shown, default=str, separators=(',', ':'))}")
    return "\n".join(lines)


def _best_of_n(samples: list[dict[str, Any]], settings: FusionSettings, model: Model | None,
               usage: Tally | None) -> Fused:
    assert model is not None  # fuse() checks needs_model
    schema: type[BaseModel] = create_model(
        "BestSample", best=(int, Field(ge=1, le=len(samples))), reason=(str, Field(default="", max_length=300))
    )
    prompt = (
        f"Task the samples answer: {settings.task or 'extract the relevant item ids'}\n"
        f"{_render_samples(samples)}\n\n"
        f"Pick the single most complete and correct sample (1 to {len(samples)}). "
        'Answer as JSON: {"best": <number>, "reason": "<a few words>"}.'
    )
    answer = complete_structured(model, prompt, schema, usage=usage, max_tokens=settings.max_tokens)
    chosen = int(answer.best) - 1  # type: ignore[attr-defined]
    support = support_counts(samples)
    picked = samples[chosen]
    return Fused(tuple(picked), support, len(samples), "best_of_n", dict(picked), chosen=chosen)


def _model_fusion(samples: list[dict[str, Any]], settings: FusionSettings, model: Model | None,
                  usage: Tally | None) -> Fused:
    assert model is not None  # fuse() checks needs_model
    support = support_counts(samples)
    allowed = tuple(support)
    id_type: Any = Literal[allowed] if allowed else str  # the fuser can only name ids some sample had
    schema: type[BaseModel] = create_model("FusedIds", ids=(list[id_type], ...))
    prompt = (
        f"Task the samples answer: {settings.task or 'extract the relevant item ids'}\n"
        f"{_render_samples(samples)}\n\n"
        "Merge these samples into one final list of item ids: keep every id you judge correct. "
        'Answer as JSON: {"ids": ["<id>", ...]}.'
    )
    answer = complete_structured(model, prompt, schema, usage=usage, max_tokens=settings.max_tokens)
    named = [str(i) for i in answer.ids]  # type: ignore[attr-defined]
    ids = tuple(dict.fromkeys(i for i in named if i in support))
    dropped = tuple(dict.fromkeys(i for i in named if i not in support))
    payloads = _first_payloads(samples)
    return Fused(ids, support, len(samples), "model", {i: payloads[i] for i in ids}, dropped=dropped)


register_fusion("union", _union)
register_fusion("best_of_n", _best_of_n, needs_model=True)
register_fusion("model", _model_fusion, needs_model=True)
