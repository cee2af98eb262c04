import json
import random
import time
from pathlib import Path

import pytest
from pydantic import BaseModel

from relaykit.embeddings import HashingEmbedder
from relaykit.errors import AllModelsFailed, InvalidOutput, ModelTimeout, RateLimited, UsageError
from relaykit.models import ChatRequest, ChatResponse, complete_structured
from relaykit.models.cache import Cached, CacheMiss, CacheStoreError, MemoryStore, same_negation, same_numbers
from relaykit.models.cache.sqlite import SQLiteStore
from relaykit.models.fallback import FallbackChain
from relaykit.telemetry import CACHE_HIT, MemorySink, Telemetry
from relaykit.testing import ScriptedModel


class Item(BaseModel):
    value: int


def echo(request: ChatRequest) -> str:
    return "answer to " + str(request.messages[-1]["content"])


def semantic(model: ScriptedModel, threshold: float = 0.8) -> Cached:
    return Cached(model, MemoryStore(), mode="semantic", embedder=HashingEmbedder(), threshold=threshold)


def test_exact_hit_makes_no_call_and_counts_saved_tokens() -> None:
    model = ScriptedModel(echo)
    sink = MemorySink()
    cached = Cached(model, MemoryStore(), telemetry=Telemetry(sink))
    first = cached.complete("hello")
    second = cached.complete("hello")
    assert model.calls == 1
    assert second.text == first.text and second.metadata["cached"] is True
    assert (second.prompt_tokens, second.completion_tokens) == (0, 0)
    assert cached.stats.hits == 1 and cached.stats.misses == 1
    assert cached.stats.saved_tokens == first.prompt_tokens + first.completion_tokens
    [hit] = sink.of(CACHE_HIT)
    assert hit.fields["cache_age_ms"] >= 0 and len(hit.fields["cache_key_hash"]) == 16


@pytest.mark.parametrize("change", [{"temperature": 0.5}, {"max_tokens": 7}, {"seed": 3}, {"schema": Item}])
def test_exact_key_covers_parameters_and_schema(change: dict[str, object]) -> None:
    model = ScriptedModel(lambda r: '{"value": 1}')
    cached = Cached(model, MemoryStore())
    cached.complete("q")
    cached.complete(ChatRequest.of("q", **change))
    assert model.calls == 2


def test_model_name_is_part_of_the_key() -> None:
    store = MemoryStore()
    Cached(ScriptedModel(echo, name="a"), store).complete("q")
    b = ScriptedModel(echo, name="b")
    Cached(b, store).complete("q")
    assert b.calls == 1


def test_never_served_across_namespaces() -> None:
    store, model = MemoryStore(), ScriptedModel(echo)
    Cached(model, store, namespace="alice", mode="semantic", embedder=HashingEmbedder()).complete("q")
    Cached(model, store, namespace="bob", mode="semantic", embedder=HashingEmbedder()).complete("q")
    assert model.calls == 2


def test_semantic_hit_on_a_rephrased_question() -> None:
    model = ScriptedModel(echo)
    cached = semantic(model)
    cached.complete("what is the status of the billing migration project")
    hit = cached.complete("what is the status of the billing migration project now")
    assert model.calls == 1 and hit.metadata["cache_mode"] == "semantic" and hit.metadata["similarity"] >= 0.8
    assert cached.stats.semantic_hits == 1


def test_negation_guard_blocks_opposite_requests() -> None:
    model = ScriptedModel(echo)
    cached = semantic(model, threshold=0.5)
    cached.complete("please cancel my order for the blue lamp")
    answer = cached.complete("please do not cancel my order for the blue lamp")
    assert model.calls == 2 and "not" in answer.text
    assert not same_negation("cancel my order", "don't cancel my order")
    assert same_negation("don't cancel it", "do not cancel it")
    assert not same_numbers("refund order 1234", "refund order 1243")


def test_semantic_hit_requires_matching_parameters_schema_and_context() -> None:
    model = ScriptedModel(lambda r: '{"value": 1}')
    cached = semantic(model)
    cached.complete("count the open tickets in the queue")
    cached.complete(ChatRequest.of("count the open tickets in the queue please", max_tokens=99))
    cached.complete(ChatRequest.of("count the open tickets in the queue please", schema=Item))
    cached.complete([{"role": "system", "content": "be terse"},
                     {"role": "user", "content": "count the open tickets in the queue please"}])
    assert model.calls == 4


def test_replay_serves_recorded_answers_and_a_miss_is_an_error(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "c.sqlite")
    recorder = ScriptedModel(echo)
    Cached(recorder, store, namespace="run1").complete("step one")
    offline = ScriptedModel(fail_with=AssertionError("replay must not call the model"))
    replay = Cached(offline, store, namespace="run1", mode="replay")
    assert replay.complete("step one").text == "answer to step one"
    with pytest.raises(CacheMiss, match="replay: no recorded answer"):
        replay.complete("step two")
    assert offline.calls == 0


def test_invalid_structured_answers_are_never_stored() -> None:
    model = ScriptedModel(["not json", '{"value": 2}', '{"value": 5}'])
    cached = Cached(model, MemoryStore())
    assert complete_structured(cached, "give a value", Item, max_repairs=1) == Item(value=2)
    # the invalid first answer was not cached: the same first request goes to the model again
    assert cached.complete(ChatRequest.of("give a value", schema=Item)).parsed == Item(value=5)
    assert model.calls == 3
    # and now the valid one is cached, parsed on the way out
    assert cached.complete(ChatRequest.of("give a value", schema=Item)).parsed == Item(value=5)
    assert model.calls == 3


def test_ttl_expires_entries() -> None:
    model = ScriptedModel(echo)
    cached = Cached(model, MemoryStore(), ttl=0.05)
    cached.complete("q")
    time.sleep(0.06)
    cached.complete("q")
    assert model.calls == 2


class BrokenStore(MemoryStore):
    def get(self, key: str, now: float) -> None:
        raise CacheStoreError("disk on fire")


def test_a_failing_store_degrades_to_misses_not_crashes() -> None:
    model = ScriptedModel(echo)
    cached = Cached(model, BrokenStore())
    with pytest.warns(RuntimeWarning, match="disk on fire"):
        assert cached.complete("q").text == "answer to q"
    assert cached.stats.store_errors == 1
    with pytest.raises(CacheStoreError):
        Cached(model, BrokenStore(), mode="replay").complete("q")


def test_bad_arguments_are_usage_errors() -> None:
    with pytest.raises(UsageError, match="unknown cache mode"):
        Cached(ScriptedModel(), MemoryStore(), mode="fuzzy")
    with pytest.raises(UsageError, match="ttl"):
        Cached(ScriptedModel(), MemoryStore(), ttl=0)


def flaky(name: str, rng: random.Random) -> ScriptedModel:
    def answer(request: ChatRequest) -> ChatResponse | str | Exception:
        roll = rng.random()
        if roll < 0.1:
            return RateLimited("429", retry_after=0.01)
        if roll < 0.2:
            return ModelTimeout("timed out")
        if roll < 0.3:
            return '{"value": oops'
        return json.dumps({"value": len(str(request.messages[-1]["content"]))})

    return ScriptedModel(answer, name=name)


def test_fault_injection_every_request_ends_in_an_answer_or_all_models_failed() -> None:
    rng = random.Random(7)
    models = [flaky(n, rng) for n in ("a", "b", "c")]
    chain = FallbackChain(models, retries=1, sleep=lambda s: None, seed=7)
    store = MemoryStore()
    cached = Cached(chain, store)
    outcomes = {"answer": 0, "failed": 0}
    for i in range(300):
        request = ChatRequest.of(f"request {i % 120}", schema=Item)
        try:
            response = cached.complete(request)
        except AllModelsFailed as exc:
            outcomes["failed"] += 1
            assert all(isinstance(e, (RateLimited, ModelTimeout, InvalidOutput)) for e in exc.exceptions)
            continue
        outcomes["answer"] += 1
        assert response.parsed == Item(value=len(f"request {i % 120}"))
    assert outcomes["answer"] + outcomes["failed"] == 300 and outcomes["answer"] > 250
    assert cached.stats.hits > 0
    for key_entry, _, _ in store._entries.values():  # nothing invalid was cached
        Item.model_validate_json(key_entry.response["text"])


@pytest.mark.embedder
def test_semantic_cache_with_minilm_paraphrase_hits_and_negation_is_guarded() -> None:
    model = ScriptedModel(echo)
    cached = Cached(model, MemoryStore(), mode="semantic", embedder="minilm", threshold=0.85)
    cached.complete("How do I reset my account password?")
    hit = cached.complete("How can I reset the password of my account?")
    assert hit.metadata.get("cache_mode") == "semantic" and model.calls == 1
    cached.complete("Cancel my order please")
    similarity = float(cached.embedder.embed(["Cancel my order please"])[0]
                       @ cached.embedder.embed(["Do not cancel my order please"])[0])
    answer = cached.complete("Do not cancel my order please")
    assert similarity >= 0.85, "the guard is what must stop this pair, not the threshold"
    assert answer.metadata.get("cached") is None and model.calls == 3


def test_sqlite_failing_mid_run_degrades_to_model_calls(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    store = SQLiteStore(path)
    model = ScriptedModel(echo)
    cached = Cached(model, store)
    cached.complete("before")
    store._db.close()  # the database goes away under a running pipeline
    with pytest.warns(RuntimeWarning, match="c.sqlite failed"):
        assert cached.complete("after").text == "answer to after"
    assert cached.stats.store_errors >= 1 and model.calls == 2


def test_keys_and_groups_are_digests_of_the_request_material() -> None:
    """The key and the group are read from one copy of the request's key material; both stay the digests that
    earlier releases stored, so entries already on disk are found."""
    import hashlib

    from relaykit.models.cache.cached import split_query

    def digest(material: dict[str, object]) -> str:
        return hashlib.sha256(json.dumps(material, sort_keys=True, default=str).encode()).hexdigest()

    cached = Cached(ScriptedModel(lambda r: "answer", name="m"), MemoryStore(), mode="semantic", namespace="ns",
                    embedder=HashingEmbedder())
    request = ChatRequest.of([{"role": "system", "content": "be brief"}, {"role": "user", "content": "the date?"}],
                             temperature=0.3, max_tokens=40)
    material = request.cache_key_material()
    assert cached.key(request) == digest({"model": "m", "namespace": "ns", **material})
    context = split_query(request.messages)[1]
    assert cached.group(request) == digest({"model": "m", "namespace": "ns", "embedder": "hashing-512",
                                            **{**material, "messages": context}})
    cached.complete(request)
    stored = cached.store.get(cached.key(request), time.time())
    assert stored is not None and stored.group == cached.group(request)


@pytest.mark.parametrize("params", [
    {}, {"temperature": 0.0}, {"temperature": -0.0}, {"temperature": 0}, {"temperature": False},
    {"temperature": 1}, {"temperature": 1.0}, {"temperature": True}, {"max_tokens": 40}, {"seed": 7},
    {"seed": 7.0}, {"stop": ["x"]}, {"stop": ["x", "y"]}, {"stop": "xy"},
])
def test_a_remembered_group_digest_is_the_digest_of_its_material(params: dict[str, object]) -> None:
    """Group digests are remembered for plain requests; a remembered one is always the digest that would be
    computed (0, 0.0, -0.0 and False give different JSON, and so different groups), and the memory is bounded."""
    from relaykit.models.cache.cached import GROUP_MEMO, _digest, split_query

    cached = Cached(ScriptedModel(lambda r: "answer", name="m"), MemoryStore(), mode="semantic", namespace="ns",
                    embedder=HashingEmbedder())
    others = [{"temperature": v} for v in (0.0, -0.0, 0, False, 1, 1.0, True)] + [{"stop": ["x"]}, {"seed": 7.0}]
    for messages in ([{"role": "user", "content": "the date?"}],
                     [{"role": "system", "content": "be brief"}, {"role": "user", "content": "the date?"}],
                     [{"content": "be brief", "role": "system"}, {"role": "user", "content": "the date?"}],
                     [{"role": "system", "content": "be brief"}, {"role": "user", "content": "the date?"},
                      {"role": "assistant", "content": "Monday"}]):
        for other in others:  # fill the memory with neighbours first
            cached.group(ChatRequest.of(messages, **other))  # type: ignore[arg-type]
        request = ChatRequest.of(messages, **params)  # type: ignore[arg-type]
        material = request.cache_key_material()
        expected = _digest({"model": "m", "namespace": "ns", "embedder": "hashing-512", **material,
                            "messages": split_query(request.messages)[1]})
        assert cached.group(request) == expected
        assert cached.group(request) == expected  # remembered
    for i in range(GROUP_MEMO + 5):
        cached.group(ChatRequest.of([{"role": "system", "content": f"s{i}"}, {"role": "user", "content": "q"}]))
    assert len(cached._group_memo) <= GROUP_MEMO
