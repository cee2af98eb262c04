"""Gateway overhead: the same requests sent straight to an upstream and through ``relaykit serve``, in one run.

Prints the latency the gateway adds (p50 / p99 at N concurrent clients), the gateway process's CPU time per
request (user + system, from /proc), requests per second through one worker, lost or duplicated requests
(counted by the upstream), the compression cost per request on a long tool-using history, and the tokens saved
at a 30% budget.

Fairness: the direct and the gateway runs use the same client (one shared aiohttp session, bodies prepared
up front) and the same upstream (an asyncio server that sleeps ``--latency`` per request without holding a
CPU); the two runs alternate in ``--rounds`` blocks so a change of machine load hits both alike. Client,
upstream and gateway share the machine's cores.

    .venv/bin/python benchmarks/gateway_bench.py --requests 2000 --clients 50
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

UPSTREAM = r'''
import asyncio, sys
from collections import Counter
import orjson
from aiohttp import web
LATENCY = float(sys.argv[2]); SEEN = Counter()
REPLY = orjson.dumps({"id": "x", "object": "chat.completion", "created": 0, "model": "m", "choices": [
    {"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}]})
async def answer(request):
    body = orjson.loads(await request.read())
    SEEN[body["messages"][-1]["content"]] += 1
    await asyncio.sleep(LATENCY)
    return web.Response(body=REPLY, content_type="application/json")
async def stats(request):
    return web.json_response({"requests": sum(SEEN.values()), "distinct": len(SEEN),
                              "duplicates": sum(v - 1 for v in SEEN.values() if v > 1)})
app = web.Application()
app.router.add_post("/v1/chat/completions", answer)
app.router.add_get("/", stats)
web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), print=None, access_log=None, backlog=1024)
'''


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_ready(url: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"{url} did not start")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def load(url: str, key: str, tags: list[str], clients: int) -> list[float]:
    """Send one request per tag from ``clients`` concurrent workers on one aiohttp session; the latencies."""
    import aiohttp

    bodies = [json.dumps({"model": "plain", "messages": [{"role": "user", "content": t}]}).encode() for t in tags]
    headers = {"authorization": f"Bearer {key}", "content-type": "application/json"}
    latencies: list[float] = []
    pending = list(reversed(bodies))
    connector = aiohttp.TCPConnector(limit=clients)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=60)) as session:
        async def worker() -> None:
            while pending:
                body = pending.pop()
                started = time.perf_counter()
                async with session.post(url + "/chat/completions", data=body, headers=headers) as r:
                    await r.read()
                    if r.status != 200:
                        raise SystemExit(f"{url} answered {r.status}")
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
    parser.add_argument("--requests", type=int, default=2000, help="requests per side (direct, gateway)")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--latency", type=float, default=0.02, help="upstream latency in seconds")
    parser.add_argument("--rounds", type=int, default=4, help="alternating direct/gateway blocks")
    parser.add_argument("--serial", type=int, default=200, help="requests per side from one client (0: skip)")
    args = parser.parse_args()
    from relaykit.serve.config import hash_key

    up_port, gw_port = free_port(), free_port()
    procs = [subprocess.Popen([sys.executable, "-c", UPSTREAM, str(up_port), str(args.latency)])]
    up_url, gw_url = f"http://127.0.0.1:{up_port}", f"http://127.0.0.1:{gw_port}"
    direct: list[float] = []
    via: list[float] = []
    gw_cpu = up_cpu = gw_wall = 0.0
    block = args.requests // args.rounds
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "gateway.toml"
        config.write_text(f"""[server]\ndeadline_s = 30\n[[tenants]]\nname = "bench"\nkey_sha256 = "{hash_key('k')}"
requests_per_minute = 100000000\n[routes.plain]\ncache = "off"\nstructure_check = "pass"
upstreams = [{{ base_url = "{up_url}/v1", model = "m" }}]\n""", encoding="utf-8")
        procs.append(subprocess.Popen([sys.executable, "-c", "from relaykit.cli.app import main; main()", "serve",
                                       "--config", str(config), "--port", str(gw_port)]))
        try:
            wait_ready(up_url)
            wait_ready(gw_url + "/healthz")
            asyncio.run(load(up_url + "/v1", "k", [f"warm-direct-{i}" for i in range(200)], args.clients))
            asyncio.run(load(gw_url + "/v1", "k", [f"warm-gw-{i}" for i in range(200)], args.clients))
            client_cpu = resource.getrusage(resource.RUSAGE_SELF)
            for r in range(args.rounds):
                direct += asyncio.run(load(up_url + "/v1", "k", [f"direct-{r}-{i}" for i in range(block)],
                                           args.clients))
                gw0, up0, started = cpu_seconds(procs[1].pid), cpu_seconds(procs[0].pid), time.perf_counter()
                via += asyncio.run(load(gw_url + "/v1", "k", [f"gw-{r}-{i}" for i in range(block)], args.clients))
                gw_wall += time.perf_counter() - started
                gw_cpu += cpu_seconds(procs[1].pid) - gw0
                up_cpu += cpu_seconds(procs[0].pid) - up0
            after = resource.getrusage(resource.RUSAGE_SELF)
            one_direct: list[float] = []
            one_via: list[float] = []
            for r in range(2 if args.serial else 0):
                half = args.serial // 2
                one_direct += asyncio.run(load(up_url + "/v1", "k", [f"serial-d-{r}-{i}" for i in range(half)], 1))
                one_via += asyncio.run(load(gw_url + "/v1", "k", [f"serial-g-{r}-{i}" for i in range(half)], 1))
            with urllib.request.urlopen(up_url) as answer:
                stats = json.loads(answer.read())
        finally:
            for p in procs:
                p.terminate()
    client_s = (after.ru_utime + after.ru_stime) - (client_cpu.ru_utime + client_cpu.ru_stime)
    sent = len(direct) + len(via) + 400 + len(one_direct) + len(one_via)
    n = len(via)
    print(f"load average: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores, shared by client, upstream and gateway); "
          f"upstream latency {args.latency * 1000:.0f} ms; {n} requests per side in {args.rounds} alternating "
          f"blocks, {args.clients} clients, compression and cache off")
    print(f"direct   p50 {pct(direct, 0.5):7.2f} ms  p99 {pct(direct, 0.99):7.2f} ms")
    print(f"gateway  p50 {pct(via, 0.5):7.2f} ms  p99 {pct(via, 0.99):7.2f} ms")
    print(f"added    p50 {pct(via, 0.5) - pct(direct, 0.5):7.2f} ms  p99 {pct(via, 0.99) - pct(direct, 0.99):7.2f} ms")
    if one_via:
        added50, added99 = pct(one_via, 0.5) - pct(one_direct, 0.5), pct(one_via, 0.99) - pct(one_direct, 0.99)
        print(f"one client: direct p50 {pct(one_direct, 0.5):.2f} ms, gateway p50 {pct(one_via, 0.5):.2f} ms; "
              f"added p50 {added50:.2f} ms  p99 {added99:.2f} ms")
    print(f"gateway CPU per request: {gw_cpu / n * 1000:.3f} ms (user+system); upstream {up_cpu / n * 1000:.3f} ms; "
          f"client {client_s / (2 * n) * 1000:.3f} ms")
    print(f"requests/s through one worker: {n / gw_wall:.0f} at {args.clients} clients "
          f"(CPU-bound ceiling {n / gw_cpu if gw_cpu else float('inf'):.0f})")
    print(f"upstream saw {stats['requests']} requests ({sent} sent): lost {sent - stats['distinct']}, "
          f"duplicated {stats['duplicates']}")
    per, before, after_tokens = compression_cost(20)
    print(f"compression on (40-step tool history, 30% budget): {per:.2f} ms per request; "
          f"{before} -> {after_tokens} tokens ({after_tokens / before:.2f} of the input)")


if __name__ == "__main__":
    main()
