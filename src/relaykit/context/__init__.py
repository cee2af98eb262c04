"""Context management: arrangement, Fusion-of-N, schema contracts, fetch-once acquisition, type routing."""

# --- issue 7 (cost patterns of paper 002): contracts, fetch-once acquisition, type routing ---------
from relaykit.context.acquire import AcquisitionMemo
from relaykit.context.contracts import contract_instruction, empty_result, is_empty, parse_contract
from relaykit.context.routing import TypeBatch, batches, route_by_type, stratify

__all__ = [
    "AcquisitionMemo",
    "TypeBatch",
    "batches",
    "contract_instruction",
    "empty_result",
    "is_empty",
    "parse_contract",
    "route_by_type",
    "stratify",
]
# --- end issue 7 ----------------------------------------------------------------------------------
