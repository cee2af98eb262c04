"""The relevance-contrast lab of paper 002: labelled corpus, 11 conditions x trial blocks, RelAcc, C1-C5."""

from relaykit.bench.composition import report as _report  # noqa: F401  (registers the report kind)
from relaykit.bench.composition.contrasts import CONTRASTS, ContrastResult, evaluate_all, sign_flip_p
from relaykit.bench.composition.corpus import Corpus, CorpusItem, load_corpus, parse_corpus, write_corpus
from relaykit.bench.composition.design import CONDITIONS, Condition, Trial, block_trials
from relaykit.bench.composition.report import summarize
from relaykit.bench.composition.runner import KIND, CompositionConfig, CompositionLab, execute, resume_config, start_run
from relaykit.bench.composition.scoring import fact_type_recall, relacc_credit, score_trial
from relaykit.bench.composition.synthetic import SyntheticSpec, generate_corpus

__all__ = [
    "CONDITIONS",
    "CONTRASTS",
    "KIND",
    "CompositionConfig",
    "CompositionLab",
    "Condition",
    "ContrastResult",
    "Corpus",
    "CorpusItem",
    "SyntheticSpec",
    "Trial",
    "block_trials",
    "evaluate_all",
    "execute",
    "fact_type_recall",
    "generate_corpus",
    "load_corpus",
    "parse_corpus",
    "relacc_credit",
    "resume_config",
    "score_trial",
    "sign_flip_p",
    "start_run",
    "summarize",
    "write_corpus",
]
