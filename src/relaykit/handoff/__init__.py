"""Hand-off compression: what one agent passes to the next, made smaller without losing the facts.

``compress_handoff(trace, goal, method=...)`` runs a registered method and returns a ``Handoff`` with its
token accounting and cost; ``audit(handoff, facts)`` says which decision-critical facts survived.
"""

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
from relaykit.handoff.audit import AuditReport, Fact, audit
from relaykit.handoff.base import (
    Compressed,
    CompressionCost,
    Compressor,
    FunctionCompressor,
    Handoff,
    Job,
    compress_handoff,
    compressors,
    register_compressor,
)
from relaykit.handoff.rules import extract_rules as parse_trace
from relaykit.handoff.schema import Check, Constraint, Extraction, OptionEvaluation

__all__ = [
    "AuditReport",
    "Check",
    "Compressed",
    "CompressionCost",
    "Compressor",
    "Constraint",
    "Extraction",
    "Fact",
    "FunctionCompressor",
    "Handoff",
    "Job",
    "OptionEvaluation",
    "audit",
    "compress_handoff",
    "compressors",
    "parse_trace",
    "register_compressor",
]
