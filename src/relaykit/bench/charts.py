"""Charts shared by the lab reports: labels that never collide, N on every point, PNG bytes out.

Point labels go in a column to the right of the plot, spread so that no two overlap, each joined to its
point by a thin leader line; a point that ran on fewer units than the largest is drawn hollow.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

LABEL_POINTS = 8.0  # font size of point labels


@dataclass(frozen=True)
class Point:
    """One condition on a chart: where it sits, its 95% interval on y (if any) and how many units it ran on."""

    name: str
    x: float
    y: float
    n: int
    low: float | None = None
    high: float | None = None


def pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def to_png(fig: Any, dpi: int = 110) -> bytes:
    plt = pyplot()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi)
    plt.close(fig)
    return buffer.getvalue()


def spread(positions: Sequence[float], gap: float, low: float = 0.0, high: float = 1.0) -> list[float]:
    """Move 1-D label positions as little as possible so that neighbours are at least ``gap`` apart.

    Order is kept; the result stays inside [low, high] when the labels fit there at all.
    """
    order = sorted(range(len(positions)), key=lambda i: positions[i])
    placed = [min(max(positions[i], low), high) for i in order]
    for k in range(1, len(placed)):
        placed[k] = max(placed[k], placed[k - 1] + gap)
    if placed and placed[-1] > high:
        placed[-1] = high
        for k in range(len(placed) - 2, -1, -1):
            placed[k] = min(placed[k], placed[k + 1] - gap)
    if placed and placed[0] < low:  # too many labels for the space: keep the gap, run past the top
        placed[0] = low
        for k in range(1, len(placed)):
            placed[k] = max(placed[k], placed[k - 1] + gap)
    out = [0.0] * len(positions)
    for k, i in enumerate(order):
        out[i] = placed[k]
    return out


def label_height_in(fontsize: float = LABEL_POINTS) -> float:
    return fontsize * 1.6 / 72


def scatter_with_labels(points: Sequence[Point], *, xlabel: str, ylabel: str, title: str,
                        ylim: tuple[float, float] = (-0.05, 1.05), reference_x: float | None = None,
                        reference_label: str = "") -> bytes:
    """A y-against-x chart of ``points`` with CI bars, N in every label, labels in a collision-free column."""
    return to_png(scatter_figure(points, xlabel=xlabel, ylabel=ylabel, title=title, ylim=ylim,
                                 reference_x=reference_x, reference_label=reference_label))


def scatter_figure(points: Sequence[Point], *, xlabel: str, ylabel: str, title: str,
                   ylim: tuple[float, float] = (-0.05, 1.05), reference_x: float | None = None,
                   reference_label: str = "") -> Any:
    """The matplotlib figure behind :func:`scatter_with_labels` (tests measure its label boxes)."""
    plt = pyplot()
    height = max(4.8, len(points) * label_height_in() / 0.74 + 1.4)
    fig = plt.figure(figsize=(9.5, height))
    ax = fig.add_axes((0.09, 0.17, 0.56, 0.74))
    biggest = max((p.n for p in points), default=0)
    for p in points:
        full = p.n >= biggest
        yerr = None if p.low is None or p.high is None else [[max(0.0, p.y - p.low)], [max(0.0, p.high - p.y)]]
        ax.errorbar([p.x], [p.y], yerr=yerr, fmt="o", capsize=4, color="#2f5fa7" if full else "#b3541e",
                    markerfacecolor="#2f5fa7" if full else "white", markersize=7 if full else 6, zorder=3)
    if reference_x is not None:
        ax.axvline(reference_x, color="#888", linestyle="--", linewidth=1, zorder=1)
        if reference_label:  # said under the axis, where no point or label can sit
            xlabel = f"{xlabel}\ndashed line: {reference_label}"
    ax.set_ylim(*ylim)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=11)
    ax.grid(alpha=0.3)
    _label_column(fig, ax, points, ylim)
    if any(p.n < biggest for p in points):
        ax.plot([], [], "o", color="#b3541e", markerfacecolor="white", label=f"hollow: fewer than {biggest} units")
        ax.plot([], [], "o", color="#2f5fa7", label=f"filled: all {biggest} units")
        fig.legend(loc="lower right", fontsize=8, frameon=False)  # under the label column: never over a point
    return fig


def _label_column(fig: Any, ax: Any, points: Sequence[Point], ylim: tuple[float, float]) -> None:
    axes_height_in = fig.get_figheight() * ax.get_position().height
    gap = label_height_in() / axes_height_in
    span = ylim[1] - ylim[0]
    wanted = [(p.y - ylim[0]) / span for p in points]
    for p, at in zip(points, spread(wanted, gap)):
        ax.annotate(f"{p.name} (N={p.n})", xy=(p.x, p.y), xycoords="data", xytext=(1.04, at),
                    textcoords="axes fraction", fontsize=LABEL_POINTS, va="center", ha="left",
                    arrowprops={"arrowstyle": "-", "color": "#999", "linewidth": 0.6, "shrinkA": 0, "shrinkB": 4},
                    annotation_clip=False)


def bars_with_n(names: Sequence[str], values: Sequence[float], ns: Sequence[int], *, ylabel: str, title: str,
                lows: Sequence[float] | None = None, highs: Sequence[float] | None = None) -> bytes:
    """Bars with optional 95% CI whiskers and ``N=`` written under each bar's name."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(max(5.0, 1.3 * len(names) + 2), 3.8))
    yerr = None
    if lows is not None and highs is not None:
        yerr = [[max(0.0, v - lo) for v, lo in zip(values, lows)], [max(0.0, hi - v) for v, hi in zip(values, highs)]]
    ax.bar(range(len(names)), values, yerr=yerr, capsize=4, color="#2f5fa7")
    ax.set_xticks(range(len(names)), [f"{name}\nN={n}" for name, n in zip(names, ns)], fontsize=9)
    for i, v in enumerate(values):  # inside the bar's foot: clear of the CI whisker
        ax.text(i, 0.03, f"{v:.2f}", ha="center", va="bottom", fontsize=9, color="white" if v > 0.12 else "#1d2330")
    ax.set_ylim(0, 1.1)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=11)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return to_png(fig)


__all__ = ["Point", "bars_with_n", "scatter_figure", "scatter_with_labels", "spread", "to_png"]
