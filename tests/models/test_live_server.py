"""The OpenAI-compatible backend end to end against llama-cpp-python's own server on loopback."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx2 as httpx
import pytest
from pydantic import BaseModel

from relaykit.models import complete_structured, open_model
from relaykit.models.local import gguf_path


class Trip(BaseModel):
    city: str
    nights: int


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    log_path = tmp_path_factory.mktemp("server") / "server.log"
    log = log_path.open("wb")  # a file, not a pipe: the server's verbose log would fill a pipe and block it
    proc = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf_path()), "--host", "127.0.0.1",
         "--port", str(port), "--n_ctx", "2048", "--model_alias", "smollm2"],
        stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"llama_cpp.server exited: {log_path.read_text()[-2000:]}")
            try:
                if httpx.get(f"{url}/models", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.5)
        else:
            raise RuntimeError("llama_cpp.server did not start within 90 s")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.mark.live_server
def test_plain_and_schema_constrained_calls(server_url: str) -> None:
    model = open_model(f"openai-compat:{server_url}#smollm2")
    response = model.complete("Say hello.", max_tokens=8)
    assert response.completion_tokens > 0
    trip = complete_structured(model, "A trip to London for 3 nights, as JSON.", Trip, max_tokens=40)
    assert isinstance(trip, Trip)
    assert model.schema_mode in ("json_schema", "json_object")  # type: ignore[attr-defined]
