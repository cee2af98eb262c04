"""Context arrangement (paper 002): what goes into each model call, in what mix and order."""

# --- issue 8: arranger, positions, relevance fallback, Fusion-of-N -----------------------------------
from relaykit.context.arrange import ArrangeConfig, Arrangement, Batch, Item, arrange
from relaykit.context.fusion import Fused, fuse, fusion_methods, register_fusion
from relaykit.context.positions import (
    POSITION_PREFERENCES,
    layout,
    place,
    position_names,
    position_preference,
    preferred_position,
    register_position,
)
from relaykit.context.relevance import KeywordRelevance, RelevanceFn, keyword_relevance

# --- end issue 8 ---------------------------------------------------------------------------------------

__all__ = [
    # --- issue 8 ---
    "POSITION_PREFERENCES",
    "ArrangeConfig",
    "Arrangement",
    "Batch",
    "Fused",
    "Item",
    "KeywordRelevance",
    "RelevanceFn",
    "arrange",
    "fuse",
    "fusion_methods",
    "keyword_relevance",
    "layout",
    "place",
    "position_names",
    "position_preference",
    "preferred_position",
    "register_fusion",
    "register_position",
    # --- end issue 8 ---
]
