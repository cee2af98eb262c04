"""The README's "Run them with ``benchmarks/NAME.py --help``" holds: every benchmark it names exists, and every
benchmark script answers ``--help`` (its imports and arguments still match the library)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = sorted((ROOT / "benchmarks").glob("*.py"))
SCRIPTS = [path for path in BENCHMARKS if '__name__ == "__main__"' in path.read_text(encoding="utf-8")]
"""The benchmarks run as scripts (``gateway_lean.py`` is the harness ``gateway_bench.py`` imports)."""


def test_every_benchmark_the_readme_names_exists() -> None:
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## Benchmarks", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`(\w+\.py)`", section))
    assert named and named <= {path.name for path in BENCHMARKS}, named - {path.name for path in BENCHMARKS}


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_a_benchmark_answers_help(script: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage" in done.stdout.lower()
