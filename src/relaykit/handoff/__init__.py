"""Hand-off compression: what one agent passes to the next, made smaller without losing the facts.

``compress_handoff(trace, goal, method=...)`` runs a registered method and returns a ``Handoff`` with its
token accounting and cost; ``audit(handoff, facts)`` says which decision-critical facts survived.

The reader's and writer's modules may run compiled (``relaykit.handoff.native``): which form runs is chosen
here, before any of them is imported.
"""

# ruff: noqa: E402 - native.choose() runs before the package's other modules are imported
from relaykit.handoff import native

native.choose()

from relaykit.handoff import (  # noqa: F401 - importing registers the built-in methods
    extract,
    extract_rules,
    passthrough,
    prune,
    selective,
    summary,
    tfidf,
    truncate,
)
from relaykit.handoff.audit import AuditReport, Fact, audit, invented_values
from relaykit.handoff.base import (
    HANDOFF_METHODS,
    Compressed,
    CompressionCost,
    Compressor,
    FunctionCompressor,
    Handoff,
    Job,
    compress_handoff,
    compressors,
    needs_model,
    register_compressor,
)
from relaykit.handoff.compact_read import READING_GUIDE, reading_guide
from relaykit.handoff.evidence import EvidenceTable, read_evidence
from relaykit.handoff.native import compiled
from relaykit.handoff.schema import Check, Constraint, Extraction, OptionEvaluation

__all__ = [
    "HANDOFF_METHODS",
    "READING_GUIDE",
    "AuditReport",
    "Check",
    "Compressed",
    "CompressionCost",
    "Compressor",
    "Constraint",
    "EvidenceTable",
    "Extraction",
    "Fact",
    "FunctionCompressor",
    "Handoff",
    "Job",
    "OptionEvaluation",
    "audit",
    "compiled",
    "compress_handoff",
    "compressors",
    "invented_values",
    "needs_model",
    "read_evidence",
    "reading_guide",
    "register_compressor",
]
