"""``benchmarks/gateway_bench.py`` runs end to end on a few requests (so the published figures stay reproducible):
every request reaches the upstream exactly once, through the lean client, the gateway and the lean upstream."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_gateway_benchmark_runs_and_loses_nothing() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "gateway_bench.py"), "--requests", "120",
                           "--clients", "8", "--rounds", "2", "--serial", "20", "--warmup", "20", "--latency", "0.001",
                           "--lab-envs", "bfcl", "--lab-episodes", "2"],
                          capture_output=True, text=True, timeout=240, env=env, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert "lost 0, duplicated 0" in out, out
    assert "upstream saw 320 requests (320 sent)" in out, out  # 20 + 20 warm-up, 120 + 120, 20 + 20
    for line in ("added    p50", "one client:", "gateway CPU per request:", "requests/s through one worker:"):
        assert line in out, out
