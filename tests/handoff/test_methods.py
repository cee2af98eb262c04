from collections.abc import Sequence

import pytest
from test_evidence import CONTRACT_TRACE, GOAL

from relaykit.embeddings import open_embedder
from relaykit.errors import InvalidOutput, UsageError
from relaykit.handoff import (
    Compressed,
    Extraction,
    Fact,
    FunctionCompressor,
    Handoff,
    Job,
    audit,
    compress_handoff,
    compressors,
    read_evidence,
    register_compressor,
)
from relaykit.handoff.text import split_sentences
from relaykit.models.base import Message, TokenLogprob
from relaykit.testing import ScriptedModel

HASHING = open_embedder("hashing")
SENTENCES = split_sentences(CONTRACT_TRACE)


def test_every_method_of_the_contract_is_registered() -> None:
    assert set(compressors()) >= {"passthrough", "summary", "extract", "extract-rules", "prune", "truncate",
                                  "tfidf", "selective"}


def test_passthrough_is_the_control() -> None:
    h = compress_handoff(CONTRACT_TRACE, GOAL, "passthrough")
    assert h.payload == CONTRACT_TRACE and h.ratio == 1.0 and h.tokens_in == h.tokens_out > 0
    assert h.cost.model_calls == 0 and h.method == "passthrough"
    with pytest.raises(AttributeError):
        h.method = "x"  # type: ignore[misc]


def test_bad_input_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="trace is empty"):
        compress_handoff("  ", GOAL)
    with pytest.raises(UsageError, match="goal is empty"):
        compress_handoff(CONTRACT_TRACE, "")
    with pytest.raises(UsageError, match="offset 3"):
        compress_handoff(b"abc\xff", GOAL, "passthrough")
    with pytest.raises(UsageError, match="unknown hand-off method 'nope'; choose one of"):
        compress_handoff(CONTRACT_TRACE, GOAL, "nope")
    with pytest.raises(UsageError, match="no setting tresh"):
        compress_handoff(CONTRACT_TRACE, GOAL, "prune", embedder=HASHING, tresh=0.5)


def test_extract_rules_payload_is_the_evidence_table() -> None:
    h = compress_handoff(CONTRACT_TRACE, GOAL, "extract-rules")
    assert isinstance(h.payload, str) and h.payload == read_evidence(CONTRACT_TRACE, GOAL).text()
    assert " | budget <= 420 USD" in h.payload.split("\n")[0] and h.cost.model_calls == 0 and h.warnings == ()
    assert h.accounting.method == "extract-rules" and h.accounting.ratio == h.ratio < 0.6
    poor = compress_handoff("We compared a few options and liked none.", GOAL, "extract-rules")
    assert poor.payload == "We compared a few options and liked none." and "no option identifiers" in poor.warnings[0]
    with pytest.raises(UsageError, match="format must be one of"):
        compress_handoff(CONTRACT_TRACE, GOAL, "extract-rules", format="yaml")


def test_readme_example_payload_is_smaller_than_its_trace() -> None:
    trace = ("H1 costs 180 USD per night and has a gym, 1.2 km from the centre; it passes. "
             "H2 costs 450 USD per night, which is over the budget, so it is eliminated.")
    h = compress_handoff(trace, "Find a hotel with a gym under 400 USD.", "extract-rules")
    assert h.tokens_out < h.tokens_in and "USD <=400" in h.payload_text  # the unit and bound, once, in the header
    facts = [Fact("H1", "price", "180 USD"), Fact("H1", "distance", "1.2 km"), Fact("H1", "amenities", "gym"),
             Fact("H1", "verdict", "pass"), Fact("H2", "price", "450 USD"), Fact("H2", "verdict", "eliminated")]
    report = audit(h, facts, trace=trace)
    assert report.recall == 1.0 and report.invented == []


def test_a_method_can_be_passed_as_an_object_and_declares_its_resources() -> None:
    from relaykit.handoff import HANDOFF_METHODS, needs_model
    from relaykit.handoff.extract_rules import ExtractRules

    h = compress_handoff(CONTRACT_TRACE, GOAL, ExtractRules())
    assert h.method == "extract-rules" and h.payload == read_evidence(CONTRACT_TRACE, GOAL).text()
    assert needs_model(HANDOFF_METHODS.get("summary")) and not needs_model(HANDOFF_METHODS.get("extract-rules"))
    with pytest.raises(UsageError, match="did you mean 'extract-rules'"):
        compress_handoff(CONTRACT_TRACE, GOAL, "extract-rule")


def test_prune_keeps_similar_and_verdict_sentences_in_order() -> None:
    h = compress_handoff(CONTRACT_TRACE, GOAL, "prune", embedder=HASHING, threshold=1.01)
    assert h.kept_units is not None and h.dropped_units is not None
    kept = [SENTENCES[i] for i in h.kept_units]
    # nothing reaches a similarity above 1, so exactly the id + verdict sentences remain, in order
    assert kept == [s for s in SENTENCES if any(v in s for v in ("pass", "fail", "eliminated", "matches"))
                    and any(c.isdigit() for c in s)]
    assert h.payload == "\n".join(kept) and sorted(h.kept_units + h.dropped_units) == list(range(len(SENTENCES)))
    assert h.cost.embedding_calls == 2
    everything = compress_handoff(CONTRACT_TRACE, GOAL, "prune", embedder=HASHING, threshold=-1.0)
    assert everything.dropped_units == () and everything.payload == "\n".join(SENTENCES)
    bare = compress_handoff(CONTRACT_TRACE, GOAL, "prune", embedder=HASHING, threshold=1.01, keep_verdicts=False)
    assert bare.payload == "" and bare.tokens_out == 0
    # an empty payload never passes for a compression: it says so (a payload that kept something does not)
    assert bare.warnings == (f"nothing of the trace ({len(SENTENCES)} sentences) was kept: the payload is empty",)
    assert not any("nothing of the trace" in w for w in h.warnings + everything.warnings)


def test_truncate_keeps_head_and_tail_within_the_budget() -> None:
    h = compress_handoff(CONTRACT_TRACE, GOAL, "truncate", budget=80)
    assert h.tokens_out <= 80 and h.kept_units is not None
    assert h.kept_units[0] == 0 and h.kept_units[-1] == len(SENTENCES) - 1
    assert compress_handoff(CONTRACT_TRACE, GOAL, "truncate", ratio=0.3).ratio <= 0.3
    with pytest.raises(UsageError, match="ratio must be in"):
        compress_handoff(CONTRACT_TRACE, GOAL, "truncate", ratio=2)


def test_tfidf_keeps_top_weighted_sentences_in_order() -> None:
    h = compress_handoff(CONTRACT_TRACE, GOAL, "tfidf", ratio=0.4)
    assert h.ratio <= 0.4 and h.kept_units == tuple(sorted(h.kept_units or ()))
    assert 0 < len(h.kept_units or ()) < len(SENTENCES)


def test_summary_cap_is_enforced_at_a_sentence_boundary_and_recorded() -> None:
    long_answer = " ".join(f"Sentence {i} says H01 costs 145 USD and more words here." for i in range(60))
    model = ScriptedModel([long_answer])
    h = compress_handoff(CONTRACT_TRACE, GOAL, "summary", model=model, max_words=50)
    assert isinstance(h.payload, str) and len(h.payload.split()) <= 50 and h.payload.endswith("here.")
    assert any(f"summary cut from {len(long_answer.split())} to 44 words (cap 50)" in w for w in h.warnings)
    assert h.cost.model_calls == 1 and h.cost.completion_tokens > 0 and h.cost.prompt_tokens > 0
    prompt = model.requests[0].messages
    assert "50 words" in prompt[0]["content"] and CONTRACT_TRACE in prompt[1]["content"]
    short = compress_handoff(CONTRACT_TRACE, GOAL, "summary", model=ScriptedModel(["H01 fits."]))
    assert short.payload == "H01 fits." and short.warnings == ()


def test_summary_of_a_trace_longer_than_the_window_goes_in_pieces() -> None:
    model = ScriptedModel(default="Part.", context_window=1200)
    h = compress_handoff(CONTRACT_TRACE * 8, GOAL, "summary", model=model, max_tokens=200)
    assert model.calls > 1 and h.cost.model_calls == model.calls
    assert all(model.count_messages(r.messages) + 200 <= 1200 for r in model.requests)
    assert "pieces" in h.warnings[0]


def test_extract_goes_through_the_schema_with_repair() -> None:
    truth = read_evidence(CONTRACT_TRACE, GOAL).to_extraction()
    model = ScriptedModel(["not json", truth])
    h = compress_handoff(CONTRACT_TRACE, GOAL, "extract", model=model)
    assert Extraction.model_validate(h.payload) == truth
    assert h.cost.model_calls == 2 and model.requests[0].schema is Extraction
    with pytest.raises(InvalidOutput):
        compress_handoff(CONTRACT_TRACE, GOAL, "extract", model=ScriptedModel(default="{}"), max_repairs=0)


def test_extract_merges_pieces_by_option_id() -> None:
    def answer(request):  # type: ignore[no-untyped-def]
        notes = request.messages[-1]["content"].split("Notes:\n", 1)[1]
        return read_evidence(notes, GOAL).to_extraction()

    model = ScriptedModel(answer, context_window=2600)
    h = compress_handoff(CONTRACT_TRACE * 3, GOAL, "extract", model=model, max_tokens=2000)
    merged = Extraction.model_validate(h.payload)
    assert model.calls > 1 and [o.id for o in merged.options] == ["H01", "H02", "F01", "F03"]
    assert merged.feasible_ids == ["H01", "F01"]


def test_selective_drops_the_least_informative_words() -> None:
    # sentence-level scores: one logprob per scored piece; verdict sentences are "surprising"
    def logprob(messages: Sequence[Message], text: str) -> float:
        return -50.0 if "verdict" in text else -1.0

    model = ScriptedModel(logprob=logprob)
    h = compress_handoff(CONTRACT_TRACE, GOAL, "selective", model=model, ratio=0.1, chunk_tokens=1)
    words = len(CONTRACT_TRACE.split())
    assert h.warnings == (f"kept {int(0.1 * words)} of {words} words by self-information",)
    lines = h.payload_text.splitlines()
    for verdict in ("H01 verdict: pass.", "H02 verdict: eliminated (amenity, distance).", "F01 verdict: pass."):
        assert verdict in lines
    assert len(h.payload_text.split()) == int(0.1 * words)
    assert h.cost.model_calls == len(SENTENCES) == model.calls


class WordScorer(ScriptedModel):
    """Scores each word: numbers and identifiers are the predictable part here (low information)."""

    def score_continuation(self, messages: Sequence[Message], continuation: str) -> list[TokenLogprob]:
        out = []
        for i, word in enumerate(continuation.split(" ")):
            piece = word if i == 0 else " " + word
            out.append(TokenLogprob(piece, -0.1 if any(c.isdigit() for c in word) else -5.0))
        return out


def test_selective_token_deletion_can_drop_numbers_and_ids() -> None:
    text = "Hotel H01 costs 145 USD and has a gym."
    h = compress_handoff(text, GOAL, "selective", model=WordScorer(), ratio=0.78)
    assert h.payload == "Hotel costs USD and has a gym."


def test_third_parties_can_register_a_method() -> None:
    def first_line(job: Job) -> Compressed:
        return Compressed(job.trace.splitlines()[0][: int(job.settings["chars"])])

    register_compressor("first-line", FunctionCompressor(first_line, {"chars": 10}))
    try:
        h = compress_handoff(CONTRACT_TRACE, GOAL, "first-line", chars=4)
        assert isinstance(h, Handoff) and h.payload == "Goal" and h.settings == {"chars": 4}
        register_compressor("plain", lambda job: Compressed("x"))
        assert compress_handoff(CONTRACT_TRACE, GOAL, "plain").payload == "x"
        with pytest.raises(UsageError):
            compress_handoff(CONTRACT_TRACE, GOAL, "plain", chars=1)
    finally:
        from relaykit.handoff import HANDOFF_METHODS

        HANDOFF_METHODS.unregister("first-line")
        HANDOFF_METHODS.unregister("plain")


@pytest.mark.embedder
def test_prune_with_minilm_on_an_auditor_trace() -> None:
    h = compress_handoff(CONTRACT_TRACE, GOAL, "prune")
    assert h.cost.embedding_calls == 2 and 0 < h.ratio <= 1.0
    assert "H02 verdict: eliminated (amenity, distance)." in h.payload_text


@pytest.mark.embedded_model
def test_selective_with_the_embedded_model_on_a_tiny_trace(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RELAYKIT_THREADS", "1")  # token-by-token scoring: one thread avoids spin-waits on 2 cores
    trace = "H01 costs 145 USD, so it passes."  # tiny: the embedded model scores token by token
    h = compress_handoff(trace, "Find a hotel.", "selective", ratio=0.5)
    assert h.cost.model_calls == 1 and len(h.payload_text.split()) == 3
    assert set(h.payload_text.split()) < set(trace.split())


@pytest.mark.parametrize("method", ["extract-rules", "prune", "truncate", "tfidf"])
def test_a_trace_without_identifiers_still_gives_a_payload_and_says_why_it_is_poor(method: str) -> None:
    trace = "We compared several hotels today. None of them had a gym. The cheapest was far away."
    h = compress_handoff(trace, GOAL, method, embedder=HASHING) if method == "prune" else \
        compress_handoff(trace, GOAL, method)
    assert h.warnings and "no option identifiers" in h.warnings[0] and h.tokens_out >= 0
    if method == "extract-rules":
        assert h.payload == trace and "verbatim" in h.warnings[-1]


def test_a_model_window_too_small_for_any_trace_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="larger context window or lower max_tokens"):
        compress_handoff(CONTRACT_TRACE, GOAL, "summary", model=ScriptedModel(default="x", context_window=700),
                         max_tokens=600)
