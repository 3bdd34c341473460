"""Continuous calibrated df: thresholds against the integer grid, the order-statistic interval."""

import math

import numpy as np
import pytest

from calibsim.calibration import continuous_calibration, quantile_interval, threshold_df
from calibsim.calibration import calibrate, type1_error_curve
from calibsim.stats import FIGURE2_TESTS, get_test

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


@pytest.mark.parametrize("name", list(FIGURE2_TESTS) + ["corrected_repeated_cv"])
def test_a_tests_df_step_gives_its_pvalues_bit_for_bit(name, rng):
    """threshold_df asks calibsim's t tests for other df through their df-dependent last
    step (no pass over the data); that must be exactly what the test gives at that df,
    including the zero-variance and 0/0 cases."""
    spec = get_test(name)
    x = rng.normal(0, 0.03, size=(40, 10, 10))
    x[:3] = 0.0                                          # 0/0: p = 1 at every df
    x[3:6, :, 0] = 0.01                                  # a constant fold column
    if spec.scheme == "subsampling":
        x = x.reshape(40, 100)
    df = rng.uniform(0.5, 200.0, size=40)
    at = spec(x, df=np.full(40, 3.0))._at_df
    assert at is not None
    assert np.array_equal(at(df), spec(x, df=df).pvalue)
    dfs = np.arange(2, 101, dtype=float)[:, None]
    assert np.array_equal(at(dfs), spec(x, df=dfs).pvalue)


@pytest.mark.parametrize("name", ["use_all_data", "sorted_runs_averaged_t", "resampling"])
def test_thresholds_without_the_df_step_are_the_same(name, rng):
    """A user callable (no df step) goes through the data at every bisection step; the
    thresholds are the same bits as with the registry test's df step."""
    spec = get_test(name)
    x = rng.normal(0, 0.03, size=(60, 10, 10))
    if spec.scheme == "subsampling":
        x = x.reshape(60, 100)
    for alpha in (0.01, 0.05):
        fast = threshold_df(name, x, alpha)
        slow = threshold_df(lambda x_, df: (None, spec(x_, df=df).pvalue), x, alpha)
        assert np.array_equal(fast, slow)


@pytest.mark.parametrize("name", ["use_all_data", "runs_averaged_t", "corrected_resampling"])
@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.10])
def test_the_grid_shortcut_gives_the_full_searchs_df_and_interval(name, alpha, rng):
    """The calibrate analysis bisects only the data sets in the grid cells holding the
    order statistics it reports; df and interval equal the full search's (up to rtol)."""
    from calibsim.calibration._continuous import _calibration_from_grid
    spec = get_test(name)
    x = rng.normal(0, 0.01, size=(800, 1, 1)) + rng.normal(0, 0.04, size=(800, 10, 10))
    if spec.scheme == "subsampling":
        x = x.reshape(800, 100)
    dfs = np.arange(2, 101, dtype=float)
    first = spec(x)
    full = continuous_calibration(name, x, alpha)
    for func, grid in ((spec.func, first._at_df(dfs[:, None])),                 # df step
                       (lambda x_, df: (None, spec(x_, df=df).pvalue),            # plain
                        spec(x, df=dfs[:, None]).pvalue)):
        got = _calibration_from_grid(first if func is spec.func else (None, None), func, x,
                                     grid, dfs, alpha)
        np.testing.assert_allclose(got, (full.df, full.ci_low, full.ci_high, full.coverage),
                                   rtol=1e-8)
