"""Two gateway versions, interleaved: the same requests through each, in alternating blocks, in one run.

Each variant is ``NAME=SRC`` (a source tree put first on ``PYTHONPATH`` for that gateway process, e.g.
``before=../main/src after=src``). The lean client and upstream of ``gateway_bench.py`` serve both; a direct
block runs between them. Prints, per variant, the gateway process's CPU time per request and the latency it
adds over the direct blocks (p50 / p99). Interleaving makes the comparison fair on a machine whose load moves.

    .venv/bin/python benchmarks/gateway_ab.py before=/path/to/old/src after=src --rounds 8
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import uvloop

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gateway_bench import CHAT, bodies, cpu_seconds, free_port, pct, python, wait_ready, write_config
from gateway_lean import UPSTREAM, run_load

SERVE = ("import uvicorn; uvicorn.run('relaykit.serve.app:from_environment', factory=True, port={port}, "
         "log_level='warning', access_log=False)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("variants", nargs=2, help="NAME=SRC, twice")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--block", type=int, default=1000, help="requests per block")
    parser.add_argument("--clients", type=int, default=50)
    args = parser.parse_args()
    up = free_port()
    procs = [python("-c", UPSTREAM, str(up), "0.02")]
    ports: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "gateway.toml"
        write_config(config, f"http://127.0.0.1:{up}")
        for spec in args.variants:
            name, src = spec.split("=", 1)
            ports[name] = free_port()
            env = {**os.environ, "PYTHONPATH": os.path.abspath(src), "RELAYKIT_GATEWAY_CONFIG": str(config)}
            procs.append(subprocess.Popen([sys.executable, "-c", SERVE.format(port=ports[name])], env=env))
        try:
            measure(args, up, ports, {n: p.pid for n, p in zip(ports, procs[1:])})
        finally:
            for p in procs:
                p.terminate()


def measure(args: argparse.Namespace, up: int, ports: dict[str, int], pids: dict[str, int]) -> None:
    wait_ready(f"http://127.0.0.1:{up}/")
    for port in ports.values():
        wait_ready(f"http://127.0.0.1:{port}/healthz")
    order = ["direct", *ports]
    latencies: dict[str, list[float]] = {name: [] for name in order}
    cpu = dict.fromkeys(ports, 0.0)
    for r in range(-1, args.rounds):  # round -1 warms every side up and is not counted
        for name in order if r % 2 == 0 else order[::-1]:
            before = cpu_seconds(pids[name]) if name in pids else 0.0
            tags = [f"{name}-{r}-{i}" for i in range(args.block if r >= 0 else 500)]
            got = uvloop.run(run_load(ports.get(name, up), CHAT, "k", bodies(tags), args.clients, 0.02))
            if r >= 0:
                latencies[name] += got
                cpu[name] = cpu.get(name, 0.0) + (cpu_seconds(pids[name]) - before if name in pids else 0.0)
    direct = latencies["direct"]
    print(f"load average {os.getloadavg()[0]:.1f}; {args.rounds} rounds of {args.block} requests a side, "
          f"{args.clients} clients; direct p50 {pct(direct, 0.5):.2f} ms, p99 {pct(direct, 0.99):.2f} ms")
    for name in ports:
        got = latencies[name]
        print(f"{name:12s} CPU per request {cpu[name] / len(got) * 1000:.3f} ms; added p50 "
              f"{pct(got, 0.5) - pct(direct, 0.5):.2f} ms, p99 {pct(got, 0.99) - pct(direct, 0.99):.2f} ms")


if __name__ == "__main__":
    main()
