import numpy as np
import pytest
from scipy import stats as sps

from relaykit.bench.stats import (
    bonferroni,
    bootstrap_ci,
    holm,
    mcnemar_exact,
    paired_bootstrap_ci,
    pairwise_mcnemar,
    pairwise_mcnemar_by_unit,
)
from relaykit.errors import UsageError


def test_mcnemar_exact_matches_scipy_binomial_test() -> None:
    for a_only, b_only in [(0, 0), (1, 0), (5, 1), (3, 3), (10, 2), (0, 7), (17, 4)]:
        a = [True] * a_only + [False] * b_only + [True] * 5 + [False] * 4
        b = [False] * a_only + [True] * b_only + [True] * 5 + [False] * 4
        got = mcnemar_exact(a, b)
        assert got[:2] == (a_only, b_only)
        n = a_only + b_only
        expected = 1.0 if n == 0 else sps.binomtest(min(a_only, b_only), n, 0.5).pvalue
        assert got[2] == pytest.approx(expected, rel=1e-12)


def test_mcnemar_hand_values() -> None:
    # 5 discordant pairs, all one way: p = 2 * (1/2)^5 = 0.0625
    assert mcnemar_exact([True] * 5, [False] * 5)[2] == pytest.approx(0.0625)
    # 2 vs 1: p = 2 * (C(3,0) + C(3,1)) / 8 = 1.0
    assert mcnemar_exact([True, True, False], [False, False, True])[2] == 1.0
    with pytest.raises(UsageError):
        mcnemar_exact([True], [True, False])


def test_bonferroni_and_holm_hand_values() -> None:
    ps = [0.01, 0.04, 0.03, 0.2]
    assert bonferroni(ps) == pytest.approx([0.04, 0.16, 0.12, 0.8])
    # Holm: sorted 0.01*4=0.04, 0.03*3=0.09, 0.04*2=0.08 -> max(0.09, 0.08)=0.09, 0.2*1 -> 0.2
    assert holm(ps) == pytest.approx([0.04, 0.09, 0.09, 0.2])
    assert bonferroni([0.6, 0.7]) == [1.0, 1.0]


def test_bootstrap_ci_against_scipy_percentile_bootstrap() -> None:
    rng = np.random.default_rng(1)
    data = (rng.random(50) < 0.8).astype(float)
    lo, hi = bootstrap_ci(list(data), resamples=10_000, seed=0)
    ref = sps.bootstrap((data,), np.mean, n_resamples=10_000, method="percentile", random_state=0)
    assert lo <= data.mean() <= hi
    assert lo == pytest.approx(ref.confidence_interval.low, abs=0.03)
    assert hi == pytest.approx(ref.confidence_interval.high, abs=0.03)


def test_bootstrap_ci_is_seeded_and_degenerate_cases() -> None:
    values = [1.0, 0.0, 1.0, 1.0, 0.0, 1.0]
    assert bootstrap_ci(values, seed=3) == bootstrap_ci(values, seed=3)
    assert bootstrap_ci([1.0] * 10) == (1.0, 1.0)
    assert all(np.isnan(bootstrap_ci([])))


def test_paired_bootstrap_ci_of_differences() -> None:
    a, b = [1.0, 1.0, 1.0, 0.0], [0.0, 1.0, 0.0, 0.0]
    lo, hi = paired_bootstrap_ci(a, b, resamples=5000)
    assert 0.0 <= lo <= 0.5 <= hi <= 1.0
    with pytest.raises(UsageError):
        paired_bootstrap_ci([1.0], [1.0, 2.0])


def test_pairwise_mcnemar_family_corrections() -> None:
    out = pairwise_mcnemar({"a": [True] * 8, "b": [False] * 8, "c": [True] * 4 + [False] * 4})
    assert [(m.a, m.b) for m in out] == [("a", "b"), ("a", "c"), ("b", "c")]
    raw = [m.p_value for m in out]
    assert raw[0] == pytest.approx(2 / 2**8) and raw[1] == pytest.approx(2 / 2**4)
    assert [m.p_bonferroni for m in out] == pytest.approx(bonferroni(raw))
    assert [m.p_holm for m in out] == pytest.approx(holm(raw))


def test_pairwise_mcnemar_by_unit_pairs_common_units_within_groups() -> None:
    readers = {"x": {"g1": True, "g2": True, "g3": False}, "y": {"g1": False, "g2": True}}
    models = {"x": {"g1": True}, "y": {"g1": True}}
    out = pairwise_mcnemar_by_unit([readers, models])
    assert len(out) == 2
    assert (out[0].a_only, out[0].b_only) == (1, 0)  # only g1 and g2 are paired
    assert out[1].p_value == 1.0 and out[0].p_bonferroni == pytest.approx(min(1.0, 2 * out[0].p_value))
