"""Test-wide guards: no test reaches a real model, embedder or remote host unless it is marked for it."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

LOOPBACK = ("127.", "localhost", "::1")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Where the hand-off reader runs compiled, tests that swap one of its functions run in
    ``tests/handoff/test_native.py``'s subprocess on the source instead (the swap would not reach the compiled
    callers)."""
    if not any(item.get_closest_marker("pure_python") for item in items):
        return
    from relaykit.handoff import compiled

    if compiled():
        skip = pytest.mark.skip(reason="swaps a function the compiled reader calls natively: run on the source by "
                                       "test_native.py::test_the_swapping_tests_pass_on_the_source")
        for item in items:
            if item.get_closest_marker("pure_python"):
                item.add_marker(skip)


@pytest.fixture(autouse=True)
def _forbid_real_models(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Fail any test that reaches the embedded model, the MiniLM embedder or the network unmarked."""
    marks = {m.name for m in request.node.iter_markers()}
    monkeypatch.delenv("RELAYKIT_TIMEOUT", raising=False)  # `--timeout` sets it for the process; undone after
    if "embedded_model" not in marks:
        from relaykit.models import local

        def refuse_llama(*args: Any, **kwargs: Any) -> Any:
            pytest.fail("this test reached the embedded model: mark it @pytest.mark.embedded_model "
                        "or use relaykit.testing.ScriptedModel")

        monkeypatch.setattr(local, "load_llama", refuse_llama)
    if "embedder" not in marks:
        from relaykit.embeddings import base

        def refuse_minilm(*args: Any, **kwargs: Any) -> Any:
            pytest.fail("this test loaded MiniLM: mark it @pytest.mark.embedder or use the hashing embedder")

        monkeypatch.setattr(base.MiniLMEmbedder, "_load", classmethod(refuse_minilm))
    real_connect = socket.socket.connect

    def loopback_only(self: socket.socket, address: Any) -> Any:
        host = address[0] if isinstance(address, tuple) else str(address)
        if self.family == socket.AF_UNIX or str(host).startswith(LOOPBACK):
            return real_connect(self, address)
        pytest.fail(f"this test tried to reach {host}: tests never leave the machine")

    monkeypatch.setattr(socket.socket, "connect", loopback_only)
    yield


REDIS_BINARY = shutil.which("redis-server")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start redis-server for the session (skipped only when the binary is absent) and stop it after."""
    if REDIS_BINARY is None:
        pytest.skip("redis-server is not installed: apt-get install -y redis-server")
    port = _free_port()
    workdir: Path = tmp_path_factory.mktemp("redis")
    proc = subprocess.Popen(
        [REDIS_BINARY, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(workdir)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    pytest.fail(f"redis-server did not start on port {port}")
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
