from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest

from relaykit.bench.composition import Corpus, SyntheticSpec, generate_corpus
from relaykit.models import ChatRequest
from relaykit.testing import ScriptedModel

ITEM_HEADER = re.compile(r"^\[([^\]]+)\] \(", re.MULTILINE)


@pytest.fixture(scope="session")
def corpus() -> Corpus:
    return generate_corpus(SyntheticSpec(counts={"meeting": 20, "email": 60, "chat": 20}, seed=1))


def calibrated_responder(corpus: Corpus, over_rate_above: int = 7) -> Callable[[ChatRequest], str]:
    """Answers with the human labels, but over-rates label-2 items when the prompt holds more than
    ``over_rate_above`` signal items: a model that needs low-relevance contrast to calibrate."""
    labels = corpus.by_id()

    def respond(request: ChatRequest) -> str:
        ids = ITEM_HEADER.findall(request.messages[-1]["content"])
        n_signal = sum(labels[i].is_signal for i in ids)
        out = []
        for i in ids:
            item = labels[i]
            score = 3 if item.label == 2 and n_signal > over_rate_above else item.label
            out.append({"id": i, "score": score, "fact_types": list(item.fact_types)})
        return json.dumps({"items": out})

    return respond


@pytest.fixture
def make_responder() -> Callable[[Corpus], Callable[[ChatRequest], str]]:
    return calibrated_responder


@pytest.fixture
def calibrated_model(corpus: Corpus) -> ScriptedModel:
    return ScriptedModel(calibrated_responder(corpus), name="calibrated")
