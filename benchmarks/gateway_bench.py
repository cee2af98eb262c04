"""Gateway overhead: the same requests sent straight to an upstream and through ``relaykit serve``, in one run.

Prints the latency the gateway adds (p50 / p99 at N concurrent clients), requests per second through one
worker, lost or duplicated requests (counted by the upstream), the compression cost per request on a long
tool-using history, and the tokens saved at a 30% budget on the trajectory lab's histories.

    .venv/bin/python benchmarks/gateway_bench.py --requests 2000 --clients 50
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2

UPSTREAM = r'''
import json, sys, threading, time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
LATENCY = float(sys.argv[2]); SEEN = Counter(); LOCK = threading.Lock()
class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        data = json.dumps({"requests": sum(SEEN.values()), "distinct": len(SEEN),
                           "duplicates": sum(v - 1 for v in SEEN.values() if v > 1)}).encode()
        self.send_response(200); self.send_header("content-length", str(len(data))); self.end_headers()
        self.wfile.write(data)
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        with LOCK: SEEN[body["messages"][-1]["content"]] += 1
        time.sleep(LATENCY)
        data = json.dumps({"id": "x", "object": "chat.completion", "created": 0, "model": "m", "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}]}).encode()
        self.send_response(200); self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data))); self.end_headers(); self.wfile.write(data)
    def log_message(self, *a): pass
class S(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 512
s = S(("127.0.0.1", int(sys.argv[1])), H)
s.serve_forever()
'''


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_ready(url: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx2.get(url, timeout=1)
            return
        except httpx2.HTTPError:
            time.sleep(0.1)
    raise SystemExit(f"{url} did not start")


async def load(url: str, key: str, n: int, clients: int, tag: str) -> list[float]:
    latencies: list[float] = []
    queue: asyncio.Queue[int] = asyncio.Queue()
    for i in range(n):
        queue.put_nowait(i)
    async with httpx2.AsyncClient(timeout=30, limits=httpx2.Limits(max_connections=clients)) as client:
        async def worker() -> None:
            while not queue.empty():
                i = queue.get_nowait()
                body = {"model": "plain", "messages": [{"role": "user", "content": f"{tag}-{i}"}]}
                started = time.perf_counter()
                r = await client.post(url + "/chat/completions", json=body, headers={"authorization": f"Bearer {key}"})
                r.raise_for_status()
                latencies.append(time.perf_counter() - started)
        await asyncio.gather(*(worker() for _ in range(clients)))
    return latencies


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def compression_cost(samples: int) -> tuple[float, float, float]:
    """ms per request to check + compress a 40-step tool history, and tokens before/after at a 30% budget."""
    from relaykit import tokens
    from relaykit.serve.config import Compression, Route, Upstream
    from relaykit.serve.policy import shape

    messages: list[dict[str, Any]] = [{"role": "system", "content": "Agent."}, {"role": "user", "content": "Task."}]
    for k in range(40):
        messages.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": f"c{k}", "type": "function", "function": {"name": "look", "arguments": "{}"}}]})
        messages.append({"role": "tool", "tool_call_id": f"c{k}", "content": f"R{k} " + "detail " * 80})
    route = Route(upstreams=[Upstream(base_url="http://x", model="m")], compression=Compression(budget="30%"))
    started = time.perf_counter()
    for _ in range(samples):
        shaped = shape(route, {"messages": messages})
    per = (time.perf_counter() - started) / samples * 1000
    return per, tokens.count_messages(messages), shaped.tokens_after


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--latency", type=float, default=0.02, help="upstream latency in seconds")
    args = parser.parse_args()
    from relaykit.serve.config import hash_key

    up_port, gw_port = free_port(), free_port()
    procs = [subprocess.Popen([sys.executable, "-c", UPSTREAM, str(up_port), str(args.latency)])]
    up_url = f"http://127.0.0.1:{up_port}"
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "gateway.toml"
        config.write_text(f"""[server]\ndeadline_s = 30\n[[tenants]]\nname = "bench"\nkey_sha256 = "{hash_key('k')}"
requests_per_minute = 100000000\n[routes.plain]\ncache = "off"\nstructure_check = "pass"
upstreams = [{{ base_url = "{up_url}/v1", model = "m" }}]\n""", encoding="utf-8")
        env = {**os.environ}
        procs.append(subprocess.Popen([sys.executable, "-c", "from relaykit.cli.app import main; main()", "serve",
                                       "--config", str(config), "--port", str(gw_port)], env=env))
        try:
            wait_ready(up_url)
            wait_ready(f"http://127.0.0.1:{gw_port}/healthz")
            asyncio.run(load(up_url + "/v1", "k", 200, args.clients, "warm-direct"))
            asyncio.run(load(f"http://127.0.0.1:{gw_port}/v1", "k", 200, args.clients, "warm-gw"))
            direct = asyncio.run(load(up_url + "/v1", "k", args.requests, args.clients, "direct"))
            started = time.perf_counter()
            via = asyncio.run(load(f"http://127.0.0.1:{gw_port}/v1", "k", args.requests, args.clients, "gw"))
            rps = args.requests / (time.perf_counter() - started)
            stats = json.loads(httpx2.get(up_url).text)
        finally:
            for p in procs:
                p.terminate()
    expected = 2 * args.requests + 400
    print(f"load average: {os.getloadavg()[0]:.1f} (2 cores); upstream latency {args.latency * 1000:.0f} ms; "
          f"{args.requests} requests, {args.clients} clients, compression and cache off")
    print(f"direct   p50 {pct(direct, 0.5):7.2f} ms  p99 {pct(direct, 0.99):7.2f} ms")
    print(f"gateway  p50 {pct(via, 0.5):7.2f} ms  p99 {pct(via, 0.99):7.2f} ms")
    print(f"added    p50 {pct(via, 0.5) - pct(direct, 0.5):7.2f} ms  p99 {pct(via, 0.99) - pct(direct, 0.99):7.2f} ms"
          f"   (median ratio gateway/direct {statistics.median(via) / statistics.median(direct):.2f})")
    print(f"requests/s through one worker: {rps:.0f}")
    print(f"upstream saw {stats['requests']} requests ({expected} sent): lost {expected - stats['distinct']}, "
          f"duplicated {stats['duplicates']}")
    per, before, after = compression_cost(20)
    print(f"compression on (40-step tool history, 30% budget): {per:.2f} ms per request; "
          f"{before} -> {after} tokens ({after / before:.2f} of the input)")


if __name__ == "__main__":
    main()
