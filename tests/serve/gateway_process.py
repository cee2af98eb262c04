"""Start ``relaykit serve`` as a real process on a free loopback port, and stop it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx2

KEYS = {"alpha": "key-alpha", "beta": "key-beta"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def write_config(path: Path, upstream_url: str, *, cache: str = "memory", rate_store: str = "memory",
                 rpm: int = 1000, deadline: float = 3.0, budget: str = '"fit"', extra: str = "") -> Path:
    from relaykit.serve.config import hash_key

    tenants = "\n".join(f'[[tenants]]\nname = "{name}"\nkey_sha256 = "{hash_key(key)}"\nrequests_per_minute = {rpm}\n'
                        for name, key in KEYS.items())
    path.write_text(f"""
[server]
max_request_bytes = 200000
deadline_s = {deadline}
cache = "{cache}"
rate_store = "{rate_store}"

{tenants}

[routes.default]
upstreams = [{{ base_url = "{upstream_url}", model = "ok", context_window = 8192 }}]
[routes.default.compression]
budget = {budget}

[routes.tools]
upstreams = [{{ base_url = "{upstream_url}", model = "tools" }}]

[routes.fallback]
upstreams = [
  {{ base_url = "{upstream_url}", model = "rate" }},
  {{ base_url = "{upstream_url}", model = "fail" }},
  {{ base_url = "{upstream_url}", model = "hang", deadline_s = 0.5 }},
  {{ base_url = "{upstream_url}", model = "ok" }},
]

[routes.stuck]
upstreams = [{{ base_url = "{upstream_url}", model = "hang" }}]
{extra}
""", encoding="utf-8")
    return path


@contextmanager
def gateway(config: Path, workers: int = 1, env: dict[str, str] | None = None) -> Iterator[str]:
    port = free_port()
    src = str(Path(__file__).resolve().parents[2] / "src")
    env = {**os.environ, **(env or {}), "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen([sys.executable, "-c", "from relaykit.cli.app import main; main()", "serve",
                             "--config", str(config), "--port", str(port), "--workers", str(workers)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx2.get(url + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx2.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the gateway did not start: {proc.stderr.read().decode() if proc.stderr else ''}")
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
