"""Context management: arrangement, Fusion-of-N, schema contracts, fetch-once acquisition, type routing.

Issue 7 (cost patterns of paper 002) owns ``acquire``, ``contracts`` and ``routing``; issue 8 owns
``arrange``, ``fusion``, ``positions`` and ``relevance``. Ruff keeps the imports and ``__all__`` sorted
as one block each.
"""

from relaykit.context.acquire import AcquisitionMemo
from relaykit.context.arrange import ArrangeConfig, Arrangement, Batch, Item, arrange
from relaykit.context.contracts import contract_instruction, empty_result, is_empty, parse_contract
from relaykit.context.fusion import (
    FUSIONS,
    FunctionFusion,
    Fused,
    FusionMethod,
    FusionSettings,
    fuse,
    fusion_methods,
    register_fusion,
)
from relaykit.context.positions import (
    POSITION_PREFERENCES,
    POSITIONS,
    layout,
    place,
    position_names,
    position_preference,
    preferred_position,
    register_position,
)
from relaykit.context.relevance import KeywordRelevance, RelevanceFn, keyword_relevance
from relaykit.context.routing import TypeBatch, batches, route_by_type, stratify

__all__ = [
    "FUSIONS",
    "POSITIONS",
    "POSITION_PREFERENCES",
    "AcquisitionMemo",
    "ArrangeConfig",
    "Arrangement",
    "Batch",
    "FunctionFusion",
    "Fused",
    "FusionMethod",
    "FusionSettings",
    "Item",
    "KeywordRelevance",
    "RelevanceFn",
    "TypeBatch",
    "arrange",
    "batches",
    "contract_instruction",
    "empty_result",
    "fuse",
    "fusion_methods",
    "is_empty",
    "keyword_relevance",
    "layout",
    "parse_contract",
    "place",
    "position_names",
    "position_preference",
    "preferred_position",
    "register_fusion",
    "register_position",
    "route_by_type",
    "stratify",
]
