"""The four labs' HTML reports: one style, readable headers, and a real browser's screenshot of each."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from report_runs import composition_run, delegation_run, relay_run, trajectory_run

from relaykit.bench.charts import Point, scatter_figure, spread
from relaykit.bench.reports import report_for
from relaykit.bench.store import RunInfo, RunStore

# importing the labs' report modules registers them with `relaykit report`
import relaykit.bench.composition.report  # isort: skip
import relaykit.bench.delegation.report  # isort: skip
import relaykit.bench.relay.report  # isort: skip
import relaykit.bench.trajectory.report  # noqa: F401  # isort: skip
import itertools

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars")
WIDTH, HEIGHT = 1200, 3000
CHART_BLUE = (0x2F, 0x5F, 0xA7)  # the charts' blue; the stylesheet uses none of it


def _chromium() -> str:
    """The system Chromium; installed with apt when missing (CI's .ci/run does the same); else a clear skip."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    if shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0:
        subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], capture_output=True, timeout=900)
        found = shutil.which("chromium")
        if found:
            return found
    pytest.skip("no chromium and it cannot be installed here (apt-get install chromium failed or needs root); "
                "CI installs it in .ci/run")


def screenshot(page: Path, out: Path) -> None:
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run([_chromium(), *FLAGS, f"--user-data-dir={profile}", f"--window-size={WIDTH},{HEIGHT}",
                               f"--screenshot={out}", page.resolve().as_uri()], capture_output=True, text=True,
                              timeout=120)
    assert out.is_file(), f"chromium wrote no screenshot: {done.stderr[-2000:]}"


def _pixels(png: Path) -> tuple[tuple[int, int], float, int]:
    """Size, share of non-white pixels, and pixels in the charts' blue (only a rendered chart has them)."""
    import numpy as np
    from PIL import Image

    with Image.open(png) as image:
        rgb = np.asarray(image.convert("RGB")).astype(int)
    inked = float((rgb.sum(axis=2) < 3 * 235).mean())
    blue = int((np.abs(rgb - np.array(CHART_BLUE)).max(axis=2) <= 8).sum())
    return (rgb.shape[1], rgb.shape[0]), inked, blue


def _report(store: RunStore, run: RunInfo, path: Path) -> str:
    page = report_for(run).html(store, run)
    path.write_text(page, encoding="utf-8")
    return page


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    tmp = tmp_path_factory.mktemp("reports")
    store = RunStore(tmp / "runs.sqlite")
    runs = {
        "relay": relay_run(store),
        "trajectory": trajectory_run(store, policy=True),
        "trajectory-model-free": trajectory_run(store, policy=False),
        "composition": composition_run(store, tmp),
        "composition-ratio-only": composition_run(store, tmp, ("signal_100", "signal_50", "signal_10")),
        "delegation": delegation_run(store),
    }
    return {name: (tmp / f"{name}.html", _report(store, run, tmp / f"{name}.html")) for name, run in runs.items()}


@pytest.mark.parametrize("name", ["relay", "trajectory", "trajectory-model-free", "composition",
                                  "composition-ratio-only", "delegation"])
def test_report_renders_in_a_real_browser(reports: dict[str, tuple[Path, str]], name: str) -> None:
    path, page = reports[name]
    png = path.with_suffix(".png")
    screenshot(path, png)
    size, inked, accent = _pixels(png)
    assert size == (WIDTH, HEIGHT)
    assert 0.02 < inked < 0.6, f"{name}: the page looks blank or broken ({inked:.1%} of pixels inked)"
    charts = page.count("data:image/png;base64,")
    assert charts >= 1
    assert accent > 60 * charts, f"{name}: the charts did not render in the browser ({accent} blue pixels)"


@pytest.mark.parametrize("name", ["relay", "trajectory", "composition", "delegation"])
def test_one_style_and_a_readable_header(reports: dict[str, tuple[Path, str]], name: str) -> None:
    _, page = reports[name]
    assert "--accent" in page  # the shared stylesheet
    header = page[page.index("<header>"):page.index("</header>")]
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", header)
    assert "<dt>relaykit</dt><dd>0." in header and "world / corpus" in header and "<dt>models</dt>" in header
    for python_repr in ("None", "True", "False", "{'", "['", "()"):
        assert python_repr not in header, f"{name}: a Python repr in the header: {python_repr}"
    assert "<pre" not in page and "┃" not in page and "━" not in page  # no terminal box text
    tables, how = page.count("<table>"), page.count("How to read this:")
    assert tables >= 1 and how >= tables  # every table (and chart) says how to read it
    assert page.index("class='notes'") < page.index("<table>") if "class='notes'" in page else True


def test_relay_marks_rows_on_fewer_goals_and_explains_ratio(reports: dict[str, tuple[Path, str]]) -> None:
    _, page = reports["relay"]
    assert "ran on fewer goals than the others (6): truncate (N=1)" in page
    assert page.count("<tr class='marked'>") == 4  # Tables I-III and the diagnostics
    assert "above 1 it is longer" in page


def test_empty_parts_say_why(reports: dict[str, tuple[Path, str]]) -> None:
    _, free = reports["trajectory-model-free"]
    assert "no reward: this run was model-free (no --policy)" in free and "reward [95% CI]" not in free
    _, played = reports["trajectory"]
    assert "reward [95% CI]" in played and "no reward" not in played
    _, ratio_only = reports["composition-ratio-only"]
    assert "No chart: this run had no position condition" in ratio_only
    assert ratio_only.count("data:image/png;base64,") == 1
    _, full = reports["composition"]
    assert full.count("data:image/png;base64,") == 2


def test_spread_keeps_order_gap_and_bounds() -> None:
    placed = spread([0.5, 0.5, 0.51, 0.1, 0.98, 0.99], gap=0.05)
    order = sorted(range(6), key=lambda i: ([0.5, 0.5, 0.51, 0.1, 0.98, 0.99][i], i))
    ys = [placed[i] for i in order]
    assert all(b - a >= 0.05 - 1e-9 for a, b in itertools.pairwise(ys))
    assert min(ys) >= 0.0 and max(ys) <= 1.0
    assert placed[3] == pytest.approx(0.1)  # a label with room stays where its point is


def test_point_labels_never_overlap() -> None:
    """Eight methods at nearly the same place (the "prunpassthrough" case): every label box stays apart."""
    points = [Point(f"method-{k}", 0.4 + 0.001 * k, 0.9, 50 if k % 2 else 1, 0.8, 1.0) for k in range(8)]
    points.append(Point("passthrough", 1.0, 1.0, 50, 0.93, 1.0))
    fig = scatter_figure(points, xlabel="x", ylabel="y", title="t", reference_x=1.0, reference_label="ratio 1")
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    from matplotlib.text import Text

    # the text's own box (an annotation's box would include its leader line)
    boxes = [Text.get_window_extent(t, renderer) for t in fig.axes[0].texts if "(N=" in t.get_text()]
    assert len(boxes) == 9 and all("(N=" in t.get_text() for t in fig.axes[0].texts if "method" in t.get_text())
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not a.overlaps(b)


def test_a_run_with_no_results_says_so_everywhere(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "runs.sqlite")
    pages = {}
    for kind, config in (("relay", {"methods": ["passthrough"], "bookers": ["reader"], "model": "local"}),
                         ("trajectory", {"env": "twx", "methods": ["none"], "policy": None}),
                         ("delegation", {"suite": "toy", "arms": ["nl"], "planner": "p", "executor": "e"})):
        run = store.get_run(store.create_run(kind, config))
        pages[kind] = report_for(run).html(store, run)
    assert "No method finished a goal yet" in pages["relay"] and "No chart: no method finished a goal" in pages[
        "relay"]
    assert "No episode finished yet" in pages["trajectory"] and "No chart:" in pages["trajectory"]
    assert "No chart: no format finished a task" in pages["delegation"]
    assert all("data:image/png" not in page for page in pages.values())
