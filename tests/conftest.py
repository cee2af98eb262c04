"""Test-wide guards: no test reaches a real model, embedder or remote host unless it is marked for it."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest

LOOPBACK = ("127.", "localhost", "::1")


@pytest.fixture(autouse=True)
def _forbid_real_models(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Fail any test that reaches the embedded model, the MiniLM embedder or the network unmarked."""
    marks = {m.name for m in request.node.iter_markers()}
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
