"""Fault injection: a real hostile OpenAI-compatible server on loopback; every call ends within its deadline.

Deadlines are 1-2 s so the whole file runs in seconds. SLACK covers thread start-up and a loaded machine;
a call that ignored its deadline would take tens of seconds (a trickled body here is ~100 s long).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from hostile_server import HostileServer, timed

from relaykit import tokens
from relaykit.errors import AllModelsFailed, InvalidOutput, ModelTimeout, ServerError, UsageError
from relaykit.models.base import ChatRequest, ChatResponse
from relaykit.models.deadline import DeadlineTransport, deadline_scope, remaining
from relaykit.models.fallback import Backoff, FallbackChain
from relaykit.models.openai_compat import OpenAICompatModel
from relaykit.testing import ScriptedModel

SLACK = 1.0
DEADLINE = 1.5


@pytest.fixture(scope="module", autouse=True)
def _warm_tokenizer() -> None:
    tokens.count("warm up", "o200k_base")  # the first count loads the vocabulary: not part of any call's time


@pytest.fixture(scope="module")
def server() -> Iterator[HostileServer]:
    hostile = HostileServer(interval=0.2)  # one byte every 0.2 s: a per-read timeout of 1.5 s never fires
    yield hostile
    hostile.close()


def model(server: HostileServer, fault: str, timeout: float = DEADLINE) -> OpenAICompatModel:
    return OpenAICompatModel("m", base_url=server.url(fault), api_key="k", timeout=timeout)


@pytest.mark.parametrize("fault", ["trickle-body", "trickle-headers", "hang"])
def test_slow_and_hung_servers_end_at_the_deadline(server: HostileServer, fault: str) -> None:
    slow = model(server, fault)
    seconds, outcome = timed(lambda: slow.complete("hi"))
    assert isinstance(outcome, ModelTimeout), outcome
    assert "1.5 s deadline" in str(outcome) and "--timeout" in str(outcome)
    assert DEADLINE - 0.1 <= seconds <= DEADLINE + SLACK, f"{fault}: {seconds:.2f} s"


def test_500_states_the_servers_message(server: HostileServer) -> None:
    failing = model(server, "500")
    seconds, outcome = timed(lambda: failing.complete("hi"))
    assert isinstance(outcome, ServerError) and outcome.status == 500
    assert "internal failure" in str(outcome) and seconds < DEADLINE


def test_200_with_an_error_object_states_the_servers_message(server: HostileServer) -> None:
    _, outcome = timed(lambda: model(server, "error200").complete("hi"))
    assert isinstance(outcome, ServerError), outcome
    assert "model is overloaded, retry later" in str(outcome)
    assert "NoneType" not in str(outcome)


def test_truncated_body_says_so(server: HostileServer) -> None:
    _, outcome = timed(lambda: model(server, "truncated").complete("hi"))
    assert isinstance(outcome, ServerError), outcome
    assert "truncated" in str(outcome) and "cannot reach" not in str(outcome)


def test_null_content_is_invalid_output(server: HostileServer) -> None:
    _, outcome = timed(lambda: model(server, "null").complete("hi"))
    assert isinstance(outcome, InvalidOutput) and "no content" in str(outcome)


def test_a_timed_out_model_still_answers_its_next_call(server: HostileServer) -> None:
    hung = model(server, "hang", timeout=0.5)
    assert isinstance(timed(lambda: hung.complete("hi"))[1], ModelTimeout)
    healthy = model(server, "ok")
    assert healthy.complete("hi").text == "fine"
    assert healthy.complete("again").text == "fine"  # the pooled connection is reused safely


def test_chain_of_three_hung_endpoints_ends_within_its_deadline(server: HostileServer) -> None:
    members = [model(server, "hang", timeout=30.0) for _ in range(3)]
    chain = FallbackChain(members, deadline=2.0, seed=0)
    seconds, outcome = timed(lambda: chain.complete("hi"))
    assert isinstance(outcome, AllModelsFailed), outcome
    assert "2 s deadline passed" in str(outcome)
    assert seconds <= 2.0 + SLACK, f"{seconds:.2f} s"


def test_hang_then_500_then_ok_returns_ok_within_the_deadline(server: HostileServer) -> None:
    members = [model(server, "hang", timeout=1.0), model(server, "500"), model(server, "ok")]
    chain = FallbackChain(members, deadline=5.0, retries=1, backoff=Backoff(base_s=0.05, cap_s=0.2), seed=0)
    seconds, outcome = timed(lambda: chain.complete("hi"))
    assert isinstance(outcome, ChatResponse), outcome
    assert outcome.text == "fine" and outcome.metadata["fallback_count"] == 2
    assert seconds <= 5.0, f"{seconds:.2f} s"


def test_members_not_reached_before_the_deadline_are_listed(server: HostileServer) -> None:
    members = [model(server, "hang", timeout=10.0), model(server, "ok")]
    chain = FallbackChain(members, deadline=1.0, retries=0)
    seconds, outcome = timed(lambda: chain.complete("hi"))
    assert isinstance(outcome, AllModelsFailed)
    assert "not tried" in str(outcome) and seconds <= 1.0 + SLACK


def test_chain_deadline_bounds_a_backend_that_ignores_deadlines() -> None:
    def slow(request: ChatRequest) -> str:
        time.sleep(3.0)
        return "late"

    chain = FallbackChain([ScriptedModel(slow, name="slow")], deadline=0.5, retries=0)
    seconds, outcome = timed(lambda: chain.complete("hi"))
    assert isinstance(outcome, AllModelsFailed) and isinstance(outcome.exceptions[0], ModelTimeout)
    assert seconds <= 0.5 + SLACK


def test_a_callers_own_http_client_is_bounded_by_the_guard() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        time.sleep(3.0)
        return httpx.Response(500)

    client = httpx.Client(transport=httpx.MockTransport(handler))
    slow = OpenAICompatModel("m", base_url="http://mock/v1", api_key="k", http_client=client, timeout=0.5)
    seconds, outcome = timed(lambda: slow.complete("hi"))
    assert isinstance(outcome, ModelTimeout) and seconds <= 0.5 + SLACK


def test_the_transport_cuts_every_socket_operation_to_the_deadline() -> None:
    assert DeadlineTransport().deadline_aware, "httpx2 internals changed: wrap the network backend again"


def test_nested_deadline_scopes_keep_the_sooner_end() -> None:
    assert remaining() is None
    with deadline_scope(10.0):
        with deadline_scope(1.0) as left:
            assert left is not None and left <= 1.0
        with deadline_scope(None) as left:
            assert left is not None and 9.0 < left <= 10.0
        with deadline_scope(60.0) as left:
            assert left is not None and left <= 10.0


def test_timeout_comes_from_relaykit_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RELAYKIT_TIMEOUT", "7.5")
    assert OpenAICompatModel("m", base_url="http://127.0.0.1:9/v1").timeout == 7.5
    monkeypatch.setenv("RELAYKIT_TIMEOUT", "soon")
    with pytest.raises(UsageError, match="RELAYKIT_TIMEOUT"):
        OpenAICompatModel("m", base_url="http://127.0.0.1:9/v1")
    bad: Any = -1
    with pytest.raises(UsageError, match="timeout"):
        OpenAICompatModel("m", base_url="http://127.0.0.1:9/v1", timeout=bad)
    with pytest.raises(UsageError, match="deadline"):
        FallbackChain([ScriptedModel()], deadline=0)


def test_the_client_closes_a_trickling_connection_at_the_deadline() -> None:
    hostile = HostileServer(interval=0.05)
    try:
        slow = OpenAICompatModel("m", base_url=hostile.url("trickle-body"), api_key="k", timeout=0.5)
        assert isinstance(timed(lambda: slow.complete("hi"))[1], ModelTimeout)
        end = time.monotonic() + 3.0
        while hostile.open_connections and time.monotonic() < end:
            time.sleep(0.05)
        assert hostile.open_connections == 0, "the call was abandoned, not ended: its socket still reads"
    finally:
        hostile.close()


def test_cli_timeout_bounds_a_hung_endpoint(server: HostileServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    from relaykit.cli.app import main

    monkeypatch.delenv("RELAYKIT_TIMEOUT", raising=False)
    trace = tmp_path / "trace.txt"
    trace.write_text("Hotel H07 costs 180 USD a night. Flight F2 leaves at 9.")
    spec = f"openai-compat:{server.url('hang')}#m"
    args = ["compress", "handoff", str(trace), "--goal", "book", "--method", "summary", "--model", spec]
    seconds, outcome = timed(lambda: main([*args, "--timeout", "1"]))
    assert isinstance(outcome, SystemExit) and outcome.code == 1
    assert seconds <= 1.0 + SLACK + 1.0, f"{seconds:.2f} s"  # + the command's own work
    err = capsys.readouterr().err
    assert "1 s deadline" in err and "Traceback" not in err
    with pytest.raises(SystemExit) as info:
        main([*args, "--timeout", "0"])
    assert info.value.code == 2 and "--timeout" in capsys.readouterr().err


def test_a_chain_inside_a_chain_shares_the_outer_deadline() -> None:
    def slow(request: ChatRequest) -> str:
        time.sleep(3.0)
        return "late"

    inner = FallbackChain([ScriptedModel(slow, name="slow")], retries=0, name="inner")  # no deadline of its own
    outer = FallbackChain([inner, ScriptedModel(["ok"], name="b")], deadline=0.6, retries=0)
    seconds, outcome = timed(lambda: outer.complete("hi"))
    assert isinstance(outcome, AllModelsFailed) and seconds <= 0.6 + SLACK
    assert "deadline" in str(outcome.exceptions[0])  # the inner chain's words, or the outer guard's


def test_an_answer_larger_than_the_limit_is_refused_not_read(server: HostileServer) -> None:
    """A body past ``MAX_ANSWER_BYTES`` ends the call with the reason, whether sent plain or as a small gzip body
    that expands past it; what was read stays bounded by the limit (read in chunks, never the whole body)."""
    for fault in ("huge", "bomb"):
        with pytest.raises(ServerError, match="larger than 64 MB"):
            model(server, fault, timeout=30).complete("hi")


def test_compressed_answers_are_decoded_and_unasked_encodings_refused(server: HostileServer) -> None:
    assert model(server, "gzip").complete("hi").text == "fine, compressed"
    assert model(server, "deflate").complete("hi").text == "fine, deflated"
    with pytest.raises(ServerError, match="encoded as 'br', which was not asked for"):
        model(server, "brotli").complete("hi")


def test_a_redirect_loop_says_so(server: HostileServer) -> None:
    with pytest.raises(ServerError, match="redirect"):
        model(server, "redirect").complete("hi")


def test_an_embedding_endpoint_that_fails_raises_relaykits_errors(server: HostileServer) -> None:
    """The OpenAI-compatible embedder: a hang ends at its timeout, a 500 states the server's message, an answer
    without embeddings says so; each is one of relaykit's model errors (a CLI prints one line), never the SDK's."""
    from relaykit.embeddings.base import OpenAIEmbedder

    hung = OpenAIEmbedder("e", base_url=server.url("hang"), api_key="k", timeout=1.0)
    seconds, outcome = timed(lambda: hung.embed(["hello"]))
    assert isinstance(outcome, ModelTimeout) and seconds <= 1.0 + SLACK, (seconds, outcome)
    with pytest.raises(ServerError, match="internal failure"):
        OpenAIEmbedder("e", base_url=server.url("500"), api_key="k", timeout=2).embed(["hello"])
    with pytest.raises(ServerError, match=r"malformed answer: No embedding data|embeddings for 1 texts"):
        OpenAIEmbedder("e", base_url=server.url("ok"), api_key="k", timeout=2).embed(["hello"])
    with pytest.raises(ServerError, match=r"larger than 64 MB|malformed|cannot reach"):
        OpenAIEmbedder("e", base_url=server.url("brotli"), api_key="k", timeout=2).embed(["hello"])


def test_a_semantic_cache_whose_embedder_fails_serves_the_model(server: HostileServer) -> None:
    from relaykit.embeddings.base import OpenAIEmbedder
    from relaykit.models.cache import Cached, MemoryStore

    cached = Cached(ScriptedModel(["fresh", "again"], name="m"), MemoryStore(), mode="semantic",
                    embedder=OpenAIEmbedder("e", base_url=server.url("500"), api_key="k", timeout=2))
    with pytest.warns(RuntimeWarning, match="embedder failed"):
        assert cached.complete("what is the status of order 7?").text == "fresh"
    assert cached.stats.embed_errors == 1 and cached.stats.misses == 1
    assert cached.complete("what is the status of order 7?").text == "fresh"  # stored: an exact hit, no embedding
    assert cached.stats.hits == 1 and cached.stats.embed_errors == 1


def test_embeddings_of_the_wrong_count_or_shape_are_a_server_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    from relaykit.embeddings.base import OpenAIEmbedder

    embedder = OpenAIEmbedder("e", base_url="http://127.0.0.1:9/v1", api_key="k", timeout=1)
    answers = [[[0.1, 0.2]], [[0.1, 0.2], [0.3]], [["a", "b"], [0.1, 0.2]], [[float("nan"), 1.0], [0.1, 0.2]],
               [[0.6, 0.8], [0.0, 2.0]]]

    def create(**kwargs: Any) -> Any:
        return SimpleNamespace(data=[SimpleNamespace(embedding=e) for e in answers.pop(0)])

    monkeypatch.setattr(embedder._client.embeddings, "create", create)
    with pytest.raises(ServerError, match="sent 1 embeddings for 2 texts"):
        embedder.embed(["a", "b"])
    for _ in range(3):
        with pytest.raises(ServerError, match="not one list of numbers per text"):
            embedder.embed(["a", "b"])
    assert embedder.embed(["a", "b"]).tolist() == [[pytest.approx(0.6), pytest.approx(0.8)], [0.0, 1.0]]
