from __future__ import annotations

import pytest

from relaykit.bench.composition import sign_flip_p
from relaykit.bench.composition.contrasts import CONTRASTS, cohens_d, evaluate_all, ratio_slope


def test_sign_flip_exact_values() -> None:
    assert sign_flip_p([1.0, 1.0, 1.0, 1.0]) == pytest.approx(2 / 16)
    assert sign_flip_p([0.0, 0.0]) == 1.0
    assert sign_flip_p([1.0, -1.0, 1.0, -1.0]) == 1.0
    many = [0.1] * 30
    assert sign_flip_p(many) < 0.001


def test_cohens_d() -> None:
    assert cohens_d([1.0, 3.0]) == pytest.approx(2.0 / 1.4142135, rel=1e-5)
    assert cohens_d([0.0, 0.0]) != cohens_d([0.0, 0.0])  # nan


def test_ratio_slope_per_percent_noise() -> None:
    row = {"signal_100": 0.5, "signal_80": 0.52, "signal_50": 0.55, "signal_30": 0.57, "signal_10": 0.59}
    assert ratio_slope(row) == pytest.approx(0.001)


def _table(end_bonus: float, n: int = 12) -> dict[tuple[str, int], dict[str, float]]:
    table = {}
    for block in range(n):
        jitter = 0.01 * (block % 3)
        row = {c: 0.6 + jitter for c in ("signal_80", "signal_30", "signal_10", "pos_start", "pos_middle")}
        row.update(signal_100=0.5 + jitter, signal_50=0.6 + jitter, pos_end=0.6 + end_bonus + jitter)
        row.update(pos_scatter_even=0.6 + jitter, pos_scatter_shifted=0.6 + jitter, pos_scatter_random=0.6 + jitter)
        table[("m", block)] = row
    return table


def test_planted_effects_are_found_and_holm_adjusted() -> None:
    results = {r.name: r for r in evaluate_all(_table(end_bonus=0.05))}
    assert [c.name for c in CONTRASTS] == list(results)
    assert results["C1"].mean == pytest.approx(0.1) and results["C1"].positive_units == 12
    assert results["C5"].mean == pytest.approx(0.05) and results["C5"].p_value < 0.01
    assert results["C2"].mean > 0
    assert all(r.p_holm >= r.p_value for r in results.values())
    assert results["C1"].ci_low == pytest.approx(0.1) == results["C1"].ci_high


def test_missing_conditions_skip_their_contrasts() -> None:
    table = {("m", b): {"signal_50": 0.7, "signal_100": 0.6 + 0.01 * b} for b in range(5)}
    assert [r.name for r in evaluate_all(table)] == ["C1"]
