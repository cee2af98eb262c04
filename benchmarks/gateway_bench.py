"""Gateway overhead: the same requests sent straight to an upstream and through ``relaykit serve``, in one run.

Prints the latency the gateway adds (p50 / p99 at N concurrent clients, and from one client), the direct run's
own tail (p99 - p50), the gateway process's CPU time per request (user + system, from /proc), requests per
second through one worker, lost or duplicated requests (counted by the upstream), and, on the trajectory lab's
own episodes (its environments' histories cut at several decision points), the tokens in / out / saved at a 30%
budget and the compression cost per request (in process, and added through the gateway).

Fairness: the direct and the gateway runs use the same lean client (``gateway_lean.py``: raw asyncio on uvloop,
one keep-alive connection per client, requests built up front) and the same lean upstream (sleeps ``--latency``
per request without holding a CPU). After a warm-up of both sides, they alternate in ``--rounds`` blocks (the
order flips each round) so a change of machine load hits both alike. Client, upstream and gateway are started
at the same priority and share the machine's cores.

    .venv/bin/python benchmarks/gateway_bench.py --requests 6000 --clients 50
"""

from __future__ import annotations

import argparse
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import orjson
import uvloop

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gateway_lean import UPSTREAM, ask_once, header_value, run_load

LAB_ENVS = "twx,textworld,scienceworld,bfcl,tau2-retail,tau2-airline"
CHAT = "/v1/chat/completions"


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


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def bodies(tags: list[str]) -> list[bytes]:
    return [orjson.dumps({"model": "plain", "messages": [{"role": "user", "content": t}]}) for t in tags]


def write_config(path: Path, up_url: str) -> None:
    from relaykit.serve.config import hash_key

    path.write_text(f"""[server]\ndeadline_s = 30\n[[tenants]]\nname = "bench"\nkey_sha256 = "{hash_key('k')}"
requests_per_minute = 100000000\n[routes.plain]\ncache = "off"\nstructure_check = "pass"
upstreams = [{{ base_url = "{up_url}/v1", model = "m" }}]
[routes.lab]\ncache = "off"\nstructure_check = "reject"\nupstreams = [{{ base_url = "{up_url}/lab/v1", model = "m" }}]
compression = {{ method = "agora", budget = "30%" }}
[routes.labplain]\ncache = "off"\nstructure_check = "reject"
upstreams = [{{ base_url = "{up_url}/lab/v1", model = "m" }}]\n""", encoding="utf-8")


class Bench:
    """The two servers' processes and what has been measured through them."""

    def __init__(self, args: argparse.Namespace, up_port: int, gw_port: int, procs: list[subprocess.Popen[bytes]]):
        self.args, self.up_port, self.gw_port, self.procs = args, up_port, gw_port, procs
        self.sent = 0
        self.blocks: list[tuple[float, float]] = []  # (direct p50, gateway p50) per round of the last run

    def load(self, port: int, tags: list[str], clients: int) -> list[float]:
        self.sent += len(tags)
        spread = self.args.latency if self.args.stagger else 0.0
        return uvloop.run(run_load(port, CHAT, "k", bodies(tags), clients, spread))

    def alternate(self, per_side: int, rounds: int, clients: int, name: str) -> tuple[list[float], list[float], float,
                                                                                          float]:
        """Direct and gateway blocks in turn: (direct, gateway latencies, gateway CPU s, gateway wall s)."""
        direct: list[float] = []
        via: list[float] = []
        cpu = wall = 0.0
        block = per_side // rounds
        self.blocks = []
        for r in range(rounds):
            start_d, start_g = len(direct), len(via)
            for side in (("d", "g") if r % 2 == 0 else ("g", "d")):
                tags = [f"{name}-{side}-{r}-{i}" for i in range(block)]
                if side == "d":
                    direct += self.load(self.up_port, tags, clients)
                    continue
                cpu0, started = cpu_seconds(self.procs[1].pid), time.perf_counter()
                via += self.load(self.gw_port, tags, clients)
                wall += time.perf_counter() - started
                cpu += cpu_seconds(self.procs[1].pid) - cpu0
            self.blocks.append((pct(direct[start_d:], 0.5), pct(via[start_g:], 0.5)))
        return direct, via, cpu, wall


def report_latency(args: argparse.Namespace, bench: Bench) -> None:
    bench.load(bench.up_port, [f"warm-d-{i}" for i in range(args.warmup)], args.clients)
    bench.load(bench.gw_port, [f"warm-g-{i}" for i in range(args.warmup)], args.clients)
    client0 = resource.getrusage(resource.RUSAGE_SELF)
    direct, via, gw_cpu, gw_wall = bench.alternate(args.requests, args.rounds, args.clients, "c")
    client1 = resource.getrusage(resource.RUSAGE_SELF)
    n = len(via)
    print(f"load average: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores, shared by client, upstream and gateway); "
          f"upstream latency {args.latency * 1000:.0f} ms; {n} requests a side in {args.rounds} alternating blocks "
          f"after {args.warmup} a side of warm-up; {args.clients} clients "
          f"({'starts spread over one upstream latency' if args.stagger else 'all starting at once'}); "
          "compression and cache off")
    print(f"direct   p50 {pct(direct, 0.5):7.2f} ms  p99 {pct(direct, 0.99):7.2f} ms  (own tail p99-p50 "
          f"{pct(direct, 0.99) - pct(direct, 0.5):.2f} ms)")
    print(f"gateway  p50 {pct(via, 0.5):7.2f} ms  p99 {pct(via, 0.99):7.2f} ms")
    print(f"added    p50 {pct(via, 0.5) - pct(direct, 0.5):7.2f} ms  p99 {pct(via, 0.99) - pct(direct, 0.99):7.2f} ms"
          f"  (p90 {pct(via, 0.9) - pct(direct, 0.9):.2f} ms)")
    print("added p50 per round: " + " ".join(f"{g - d:.2f}" for d, g in bench.blocks) + " ms")
    if args.serial:
        one_direct, one_via, _, _ = bench.alternate(args.serial, 2, 1, "s")
        print(f"one client: direct p50 {pct(one_direct, 0.5):.2f} ms, gateway p50 {pct(one_via, 0.5):.2f} ms; "
              f"added p50 {pct(one_via, 0.5) - pct(one_direct, 0.5):.2f} ms  "
              f"p99 {pct(one_via, 0.99) - pct(one_direct, 0.99):.2f} ms")
    client_s = (client1.ru_utime + client1.ru_stime) - (client0.ru_utime + client0.ru_stime)
    print(f"gateway CPU per request: {gw_cpu / n * 1000:.3f} ms (user+system); "
          f"client {client_s / (2 * n) * 1000:.3f} ms")
    nice = [os.getpriority(os.PRIO_PROCESS, pid) for pid in (os.getpid(), bench.procs[0].pid, bench.procs[1].pid)]
    print(f"priorities (nice): client {nice[0]}, upstream {nice[1]}, gateway {nice[2]}")
    print(f"requests/s through one worker: {n / gw_wall:.0f} at {args.clients} clients "
          f"(CPU-bound ceiling {n / gw_cpu if gw_cpu else float('inf'):.0f})")
    with urllib.request.urlopen(f"http://127.0.0.1:{bench.up_port}/") as answer:
        stats = orjson.loads(answer.read())
    print(f"upstream saw {stats['requests']} requests ({bench.sent} sent): lost {bench.sent - stats['distinct']}, "
          f"duplicated {stats['duplicates']}")


def lab_requests(envs: list[str], episodes: int) -> list[tuple[str, list[dict[str, Any]]]]:
    """(env, messages) for the lab's own episodes, cut at up to 4 decision points each (2 past steps at least)."""
    from relaykit.bench.trajectory.envs import episode_messages, open_env
    from relaykit.bench.trajectory.labelset import prefix_points
    from relaykit.errors import UsageError

    out: list[tuple[str, list[dict[str, Any]]]] = []
    for env in envs:
        try:
            eps = list(open_env(env).episodes(episodes, 100))
        except UsageError as exc:
            print(f"  {env}: skipped ({exc})")
            continue
        out += [(env, episode_messages(ep, t)) for ep in eps for t in prefix_points(len(ep.steps), 2, 4)]
    return out


def shape_ms(messages: list[dict[str, Any]]) -> float:
    """Milliseconds the gateway's policy takes to compress one history at a 30% budget, in this process."""
    from relaykit.serve.config import Compression, Route, Upstream
    from relaykit.serve.policy import shape

    route = Route(upstreams=[Upstream(base_url="http://x", model="m")], compression=Compression(budget="30%"))
    started = time.perf_counter()
    shape(route, {"messages": messages})
    return (time.perf_counter() - started) * 1000


def report_lab(args: argparse.Namespace, bench: Bench) -> None:
    requests = lab_requests([e for e in args.lab_envs.split(",") if e], args.lab_episodes)
    if not requests:
        return
    per_env: dict[str, list[int]] = {}
    added: list[float] = []
    in_process: list[float] = []
    for env, messages in requests:
        def send(route: str, msgs: list[dict[str, Any]] = messages) -> tuple[float, int, bytes, bytes]:
            return uvloop.run(ask_once(bench.gw_port, CHAT, "k", orjson.dumps({"model": route, "messages": msgs})))
        plain_s, plain_status, _, _ = send("labplain")
        lab_s, status, head, reply = send("lab")
        row = per_env.setdefault(env, [0, 0, 0, 0])
        row[0] += 1
        if plain_status != 200 or (status != 200 and b"too small" not in reply):
            raise SystemExit(f"the gateway answered {plain_status} / {status}: {reply[:300]!r}")
        if status != 200:  # 30% of this history is less than system + task + the current step: refused (400)
            row[3] += 1
            continue
        added.append((lab_s - plain_s) * 1000)
        in_process.append(shape_ms(messages))
        row[1] += int(header_value(head, b"x-relaykit-tokens-before"))
        row[2] += int(header_value(head, b"x-relaykit-tokens-after"))
    print_lab(args, per_env, added, in_process)


def print_lab(args: argparse.Namespace, per_env: dict[str, list[int]], added: list[float],
              in_process: list[float]) -> None:
    rows = [*per_env.items(), ("all", [sum(r[k] for r in per_env.values()) for k in range(4)])]
    print(f"trajectory lab histories through the gateway (agora, budget 30% of each history; {rows[-1][1][0]} "
          f"requests from {args.lab_episodes} episodes per env, up to 4 decision points each):")
    for env, (count, before, after, refused) in rows:
        share = f"{1 - after / before:.0%}" if before else "-"
        print(f"  {env:13s} {count:3d} requests ({refused} refused: 30% is under the minimum)  tokens in {before:7d}"
              f"  out {after:7d}  saved {before - after:7d} ({share})")
    if in_process:
        print(f"  compression per request: {statistics.median(in_process):.2f} ms median in process "
              f"(p90 {pct([x / 1000 for x in in_process], 0.9):.2f} ms); added through the gateway vs the same "
              f"history uncompressed: {statistics.median(added):.2f} ms median")


def python(*argv: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, *argv])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=6000, help="requests per side (direct, gateway)")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--latency", type=float, default=0.02, help="upstream latency in seconds")
    parser.add_argument("--warmup", type=int, default=500, help="requests per side before measuring")
    parser.add_argument("--rounds", type=int, default=6, help="alternating direct/gateway blocks")
    parser.add_argument("--stagger", action=argparse.BooleanOptionalAction, default=True,
                        help="spread the clients' starts over one upstream latency (--no-stagger: all at once)")
    parser.add_argument("--serial", type=int, default=400, help="requests per side from one client (0: skip)")
    parser.add_argument("--lab-envs", default=LAB_ENVS, help="trajectory-lab environments ('' to skip)")
    parser.add_argument("--lab-episodes", type=int, default=3, help="episodes per lab environment")
    args = parser.parse_args()
    up_port, gw_port = free_port(), free_port()
    procs = [python("-c", UPSTREAM, str(up_port), str(args.latency))]
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "gateway.toml"
        write_config(config, f"http://127.0.0.1:{up_port}")
        procs.append(python("-c", "from relaykit.cli.app import main; main()", "serve", "--config", str(config),
                            "--port", str(gw_port)))
        try:
            wait_ready(f"http://127.0.0.1:{up_port}/")
            wait_ready(f"http://127.0.0.1:{gw_port}/healthz")
            bench = Bench(args, up_port, gw_port, procs)
            report_latency(args, bench)
            report_lab(args, bench)
        finally:
            for p in procs:
                p.terminate()


if __name__ == "__main__":
    main()
