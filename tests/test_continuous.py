"""Continuous calibrated df: thresholds against the integer grid, the order-statistic interval."""

import math

import numpy as np
import pytest

from calibsim._continuous import continuous_calibration, quantile_interval, threshold_df
from calibsim.calibration import calibrate, type1_error_curve

TESTS = ["use_all_data", "folds_averaged_var", "runs_averaged_t", "kfold_cv",
         "corrected_repeated_cv"]


@pytest.fixture
def x(rng):
    # dependent fold differences, as in cross-validation: a data-set effect plus noise
    return rng.normal(0, 0.01, size=(300, 1, 1)) + rng.normal(0, 0.04, size=(300, 5, 10))


@pytest.mark.parametrize("test", TESTS)
def test_thresholds_reproduce_the_integer_type1_curve(test, x):
    dfs = np.arange(2, 101)
    t = threshold_df(test, x, 0.05)
    curve = type1_error_curve(test, x, alphas=[0.05], dfs=dfs)[0]
    near = np.isclose(t[:, None], dfs[None, :], rtol=1e-6)      # a threshold on a grid point
    assert not near.any()
    np.testing.assert_array_equal(curve, np.mean(t[:, None] <= dfs[None, :], axis=0))


@pytest.mark.parametrize("test", TESTS)
@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.1])
def test_continuous_df_brackets_the_integer_calibrated_df(test, alpha, x):
    dfs = np.arange(2, 101)
    res = continuous_calibration(test, x, alpha)
    integer = int(calibrate(test, x, alphas=[alpha], dfs=dfs).calibrated_df[0])
    if res.df <= 2:
        assert integer == 0
    elif res.df > 100:
        assert integer == 100
    else:                                   # the largest integer df strictly below t_(m+1)
        assert integer == math.ceil(res.df) - 1
    assert res.ci_low <= res.df <= res.ci_high


def test_thresholds_at_the_bounds(rng):
    x = np.zeros((3, 2, 5))
    x[0] = 0.05                                  # constant non-zero: rejected at every df
    x[1, :, :] = rng.normal(0, 0.05, size=(2, 5))
    t = threshold_df("use_all_data", x, 0.05)
    assert t[0] == 0.01 and np.isinf(t[2])       # all-zero differences: never rejected


@pytest.mark.parametrize("n,q,level", [(20, 0.05, 0.95), (50, 0.1, 0.9), (200, 0.01, 0.95),
                                       (1000, 0.05, 0.95)])
def test_quantile_interval_against_a_brute_force_binomial(n, q, level):
    lo, up, coverage = quantile_interval(n, q, level)
    pmf = [math.comb(n, i) * q ** i * (1 - q) ** (n - i) for i in range(n + 1)]
    brute = sum(pmf[i] for i in range(max(lo, 0), min(up, n + 1)))
    assert coverage == pytest.approx(brute, rel=1e-9)
    assert coverage >= level
    tail = (1 - level) / 2
    assert sum(pmf[:max(lo, 0)]) <= tail + 1e-12 and sum(pmf[up:]) <= tail + 1e-12


def test_interval_covers_the_true_quantile_as_often_as_it_says(rng):
    """Thresholds drawn from a known distribution: coverage of its 5% quantile."""
    n, reps, q = 300, 2000, 0.05
    true = -np.log(1 - q) * 10.0                    # quantile of Exponential(scale 10)
    lo, up, coverage = quantile_interval(n, q)
    s = np.sort(rng.exponential(10.0, size=(reps, n)), axis=1)
    hit = (s[:, lo - 1] <= true) & (true < s[:, up - 1])
    se = math.sqrt(coverage * (1 - coverage) / reps)
    assert abs(hit.mean() - coverage) < 4 * se


def test_validation(x):
    with pytest.raises(ValueError, match="`alpha`"):
        threshold_df("use_all_data", x, 1.5)
    with pytest.raises(ValueError, match="`df_bounds` must be 0 < low < high"):
        threshold_df("use_all_data", x, 0.05, df_bounds=(5, 1))
