"""Tests of calibsim.calibration (Bouckaert 2003, §4)."""

import dataclasses

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from calibsim.calibration import (
    CalibrationResult,
    calibrate,
    calibrated_df,
    type1_error_curve,
)
from calibsim.stats import TESTS, repeated_cv_ttest, resampled_ttest


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


# ---------------------------------------------------------------------------
# The calibration rule on hand-made curves
# ---------------------------------------------------------------------------

DFS = np.array([2, 3, 4, 5, 6, 7])


@pytest.mark.parametrize("type1, alpha, expected", [
    # monotone: largest df with type1 <= alpha
    ([0.00, 0.01, 0.03, 0.049, 0.051, 0.08], 0.05, 5),
    # exactly alpha qualifies ("not above")
    ([0.00, 0.01, 0.05, 0.06, 0.07, 0.08], 0.05, 4),
    # ties at the closest value -> largest of the tied dfs
    ([0.01, 0.04, 0.04, 0.04, 0.06, 0.07], 0.05, 5),
    # tie where the tied values are separated by a larger value
    ([0.04, 0.06, 0.04, 0.03, 0.07, 0.02], 0.05, 4),
    # non-monotone: the closest-from-below is df 3, not the largest df <= alpha (7)
    ([0.01, 0.045, 0.07, 0.02, 0.09, 0.03], 0.05, 3),
    # no df qualifies -> 0 (the paper reports 0)
    ([0.06, 0.07, 0.08, 0.09, 0.10, 0.11], 0.05, 0),
    # all zero -> ties everywhere -> largest df
    ([0.0, 0.0, 0.0, 0.0, 0.0, 0.0], 0.05, 7),
])
def test_calibrated_df_rule(type1, alpha, expected):
    out = calibrated_df(DFS, type1, alpha)
    assert out == expected
    assert np.ndim(out) == 0


def test_calibrated_df_2d_and_dtype():
    type1 = np.array([[0.00, 0.01, 0.02, 0.03, 0.04, 0.05],
                      [0.02, 0.06, 0.09, 0.10, 0.12, 0.15],
                      [0.20, 0.30, 0.40, 0.50, 0.60, 0.70]])
    out = calibrated_df(DFS, type1, [0.05, 0.10, 0.10])
    assert_array_equal(out, [7, 5, 0])
    assert out.dtype.kind == "i"
    outf = calibrated_df(DFS + 0.5, type1, [0.05, 0.10, 0.10])
    assert_array_equal(outf, [7.5, 5.5, 0.0])


def test_calibrated_df_many_rows_follow_the_rule_row_by_row():
    # a bootstrap's hundreds of rows at once (issue 46): each row as the rule says it,
    # on Type I errors on a coarse grid (many ties), monotone or not, some rows with none
    rng = np.random.default_rng(46)
    type1 = rng.integers(0, 12, size=(300, DFS.size)) / 100
    type1[::2] = np.sort(type1[::2], axis=1)
    alpha = rng.choice([0.005, 0.01, 0.05, 0.10], size=300)
    expected = []
    for row, a in zip(type1, alpha):
        ok = [v for v in row if v <= a]
        expected.append(0 if not ok else
                        max(d for d, v in zip(DFS, row) if v == max(ok)))
    assert_array_equal(calibrated_df(DFS, type1, alpha), expected)
    assert 0 < expected.count(0) < 300


def test_calibrated_df_validation():
    with pytest.raises(ValueError, match=r"`type1` must have shape \(n_df,\)"):
        calibrated_df(DFS, [0.1, 0.2], 0.05)
    with pytest.raises(ValueError, match="`alpha` must give one level per row"):
        calibrated_df(DFS, np.zeros((2, 6)), 0.05)
    with pytest.raises(ValueError, match="`type1` must not contain NaN"):
        calibrated_df(DFS, [np.nan] * 6, 0.05)
    with pytest.raises(ValueError, match=r"`alpha` must lie in the open interval \(0, 1\)"):
        calibrated_df(DFS, np.zeros(6), 1.0)
    with pytest.raises(ValueError, match="`dfs` must be sorted ascending"):
        calibrated_df(DFS[::-1], np.zeros(6), 0.05)


# ---------------------------------------------------------------------------
# Type I error curves
# ---------------------------------------------------------------------------

def test_curve_matches_direct_pvalues(rng):
    x = rng.normal(size=(300, 5, 10))
    dfs = np.arange(2, 30)
    alphas = [0.01, 0.05, 0.1]
    curve = type1_error_curve("runs", x, alphas=alphas, dfs=dfs)
    assert curve.shape == (3, 28)
    for a_i, a in enumerate(alphas):
        for j, df in enumerate(dfs):
            p = repeated_cv_ttest(x, method="runs", df=float(df)).pvalue
            assert curve[a_i, j] == np.mean(p <= a)
    assert np.all(np.diff(curve, axis=1) >= 0)                # monotone in df
    assert_array_equal(type1_error_curve(TESTS["runs"], x, alphas=alphas, dfs=dfs), curve)


def test_curve_subsampling_and_kfold_schemes(rng):
    x = rng.normal(size=(200, 30))
    curve = type1_error_curve("resampling", x, alphas=0.05, dfs=[5, 29])
    assert_allclose(curve[0, 1], np.mean(resampled_ttest(x).pvalue <= 0.05))
    xcv = rng.normal(size=(200, 3, 10))
    curve = type1_error_curve("kfold_cv", xcv, alphas=0.05, dfs=[9])
    assert_allclose(curve[0, 0], np.mean(stats.ttest_1samp(xcv[:, 0], 0, axis=-1).pvalue <= 0.05))


def _user_vectorised(x, df):
    """A researcher's own test: 'folds' test via scipy, returns (stat, p)."""
    m = x.mean(axis=(-2, -1))
    sd = x.mean(axis=-1).std(axis=-1, ddof=1)
    z = m / (sd / np.sqrt(df + 1))
    return z, 2 * stats.t.sf(np.abs(z), df)


def test_user_callable_modes_agree_with_registry(rng):
    x = rng.normal(size=(40, 4, 5))
    dfs = np.array([2, 3, 7, 20])
    ref = type1_error_curve("folds", x, alphas=[0.05, 0.2], dfs=dfs)
    vec = type1_error_curve(_user_vectorised, x, alphas=[0.05, 0.2], dfs=dfs)
    loop = type1_error_curve(_user_vectorised, x, alphas=[0.05, 0.2], dfs=dfs,
                             vectorized=False)
    assert_array_equal(vec, ref)
    assert_array_equal(loop, ref)
    # A callable returning a TTestResult works too (attribute `pvalue`).
    via_result = type1_error_curve(lambda xx, df: repeated_cv_ttest(xx, method="folds", df=df),
                                   x, alphas=[0.05, 0.2], dfs=dfs)
    assert_array_equal(via_result, ref)


def test_user_callable_bad_output(rng):
    x = rng.normal(size=(10, 3, 4))
    with pytest.raises(ValueError, match=r"p-values of shape \(10,\); expected \(3, 10\)"):
        type1_error_curve(lambda xx, df: (0, np.full(10, 0.5)), x, alphas=0.05, dfs=[2, 3, 4])
    with pytest.raises(ValueError, match="one p-value per call"):
        type1_error_curve(lambda xx, df: (0, np.full(2, 0.5)), x, alphas=0.05, dfs=[2],
                          vectorized=False)
    with pytest.raises(ValueError, match=r"outside \[0, 1\] or NaN"):
        type1_error_curve(lambda xx, df: (0, np.full((1, 10), np.nan)), x, alphas=0.05, dfs=[2])
    with pytest.raises(ValueError, match=r"outside \[0, 1\]"):
        type1_error_curve(lambda xx, df: (0, np.full((1, 10), 1.5)), x, alphas=0.05, dfs=[2])
    with pytest.raises(ValueError, match=r"must return \(statistic, pvalue\)"):
        type1_error_curve(lambda xx, df: 0.5, x, alphas=0.05, dfs=[2])
    with pytest.raises(TypeError, match="`test` must be a registry name"):
        type1_error_curve(42, x, alphas=0.05)


@pytest.mark.parametrize("kwargs, match", [
    ({"alphas": 0.0}, r"`alphas` must lie in the open interval \(0, 1\)"),
    ({"alphas": [0.05, 1.0]}, r"`alphas` must lie in the open interval"),
    ({"alphas": []}, r"`alphas` must be a number or a non-empty"),
    ({"alphas": 0.05, "dfs": [[2, 3]]}, r"`dfs` must be a non-empty 1-D array"),
    ({"alphas": 0.05, "dfs": []}, r"`dfs` must be a non-empty 1-D array"),
    ({"alphas": 0.05, "dfs": [3, 2]}, r"`dfs` must be sorted ascending without duplicates"),
    ({"alphas": 0.05, "dfs": [2, 2, 3]}, r"`dfs` must be sorted ascending"),
    ({"alphas": 0.05, "dfs": [0, 1]}, r"`dfs` must be finite and positive"),
    ({"alphas": 0.05, "dfs": [-1.0, 2.0]}, r"`dfs` must be finite and positive"),
    ({"alphas": 0.05, "dfs": [2, np.inf]}, r"`dfs` must be finite and positive"),
])
def test_curve_validation(rng, kwargs, match):
    x = rng.normal(size=(5, 3, 4))
    with pytest.raises(ValueError, match=match):
        type1_error_curve("use_all_data", x, **kwargs)
    with pytest.raises(ValueError, match=match):
        calibrate("use_all_data", x, **kwargs)


def test_data_validation(rng):
    with pytest.raises(ValueError, match=r"`x` must hold N >= 1 data sets.*\(0, 3, 4\)"):
        calibrate("use_all_data", np.zeros((0, 3, 4)), alphas=0.05)
    with pytest.raises(ValueError, match=r"'use_all_data' does not fit the design "
                       r"'subsampling:4 \(x of shape \(3, 4\)\)'; it fits r runs of k-fold"):
        calibrate("use_all_data", np.zeros((3, 4)), alphas=0.05)
    with pytest.raises(ValueError, match=r"'resampling' does not fit the design '4x5 \(x of "
                       r"shape \(3, 4, 5\)\)'; it fits random subsampling"):
        type1_error_curve("resampling", np.zeros((3, 4, 5)), alphas=0.05)
    with pytest.raises(ValueError, match=r"'mcnemar' takes no df"):
        calibrate("mcnemar", np.zeros((3, 4, 5)), alphas=0.05)
    with pytest.raises(ValueError, match="`x` must be finite"):
        calibrate("folds", np.full((3, 4, 5), np.nan), alphas=0.05)
    with pytest.raises(ValueError, match="`test` must be one of"):
        calibrate("no_such_test", np.zeros((3, 4, 5)), alphas=0.05)
    with pytest.raises(TypeError, match="`dfs` must be a 1-D array of positive numbers"):
        calibrate("folds", rng.normal(size=(3, 4, 5)), alphas=0.05, dfs=["a"])
    with pytest.raises(ValueError, match=r"`confidence_level` must lie in \(0, 1\)"):
        calibrate("folds", rng.normal(size=(3, 4, 5)), alphas=0.05, confidence_level=1.0)


# ---------------------------------------------------------------------------
# calibrate()
# ---------------------------------------------------------------------------

def test_calibrate_fields(rng):
    x = rng.normal(size=(500, 5, 10))
    alphas = [0.01, 0.05, 0.10]
    res = calibrate("sorted_runs", x, alphas=alphas, confidence_level=0.9)
    assert isinstance(res, CalibrationResult)
    n_df = 99
    assert res.type1.shape == (3, n_df) and res.dfs.shape == (n_df,)
    assert_array_equal(res.calibrated_df, calibrated_df(res.dfs, res.type1, alphas))
    assert res.n_datasets == 500
    for i, a in enumerate(alphas):
        c = res.calibrated_df[i]
        assert c > 0
        p = res.type1[i, res.dfs == c][0]
        assert res.type1_at_df[i] == p <= a
        assert_allclose(res.mc_se[i], np.sqrt(p * (1 - p) / 500), rtol=1e-12)
        lo, hi = proportion_confint(round(p * 500), 500, alpha=0.1, method="beta")
        assert_allclose([res.ci_low[i], res.ci_high[i]], [lo, hi], rtol=1e-8)
        assert res.ci_low[i] <= p <= res.ci_high[i]
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.n_datasets = 3

    df = res.to_frame()
    assert isinstance(df, pd.DataFrame) and len(df) == 3
    assert list(df.columns) == ["test", "alpha", "calibrated_df", "type1", "mc_se",
                                "ci_low", "ci_high", "n_datasets", "confidence_level"]
    assert (df["test"] == "sorted_runs").all()
    assert_array_equal(df["calibrated_df"], res.calibrated_df)


def test_calibrate_uncalibratable_gives_zero_and_nan(rng):
    x = rng.normal(size=(50, 3, 4))

    def always_reject(xx, df):
        return np.zeros((np.size(df), xx.shape[0])), np.zeros((np.size(df), xx.shape[0]))

    res = calibrate(always_reject, x, alphas=[0.05, 0.5], dfs=[2, 3])
    assert res.test == "always_reject"
    assert_array_equal(res.calibrated_df, [0, 0])
    assert np.all(np.isnan(res.type1_at_df)) and np.all(np.isnan(res.mc_se))
    assert np.all(np.isnan(res.ci_low)) and np.all(np.isnan(res.ci_high))
    assert_array_equal(res.type1, np.ones((2, 2)))
    assert res.to_frame()["type1"].isna().all()


def test_calibrate_per_dataset_user_test(rng):
    x = rng.normal(size=(30, 4, 5))

    def my_test(xi, df):                         # one (r, k) data set, scalar df
        assert xi.shape == (4, 5) and np.ndim(df) == 0
        return stats.ttest_1samp(xi.ravel(), 0).statistic, 0.5

    res = calibrate(my_test, x, alphas=0.05, dfs=[2, 3], vectorized=False)
    assert_array_equal(res.type1, [[0.0, 0.0]])
    assert_array_equal(res.calibrated_df, [3])             # tie -> largest df


def test_monte_carlo_use_all_data_iid_normal():
    """i.i.d. normal differences: df = kr - 1 = 99 is exactly right.

    Type I error at df 99 must be within 4 Monte Carlo standard errors of α.
    For the calibrated df: the theoretical Type I error of use-all-data at df d
    is 2·P(T_99 > t_{d,1-α/2}·sqrt(100/(d+1))) (the statistic is
    sqrt((d+1)/100)·T_99). It rises by only about 0.0011 per df near 99, so a
    4-standard-error band around α (± 0.0138 for N = 4000) maps to
    d in [87, 110]; we allow one df of slack on each side. The calibrated df
    is therefore "near 99" only to within about ±12 df with N = 4000.
    """
    n, alpha = 4000, 0.05
    x = np.random.default_rng(99).normal(size=(n, 10, 10))
    se = np.sqrt(alpha * (1 - alpha) / n)
    res = calibrate("use_all_data", x, alphas=[0.01, alpha, 0.10], dfs=np.arange(2, 201))
    for i, a in enumerate([0.01, alpha, 0.10]):
        at99 = res.type1[i, res.dfs == 99][0]
        assert abs(at99 - a) < 4 * np.sqrt(a * (1 - a) / n)

    d = np.arange(2, 201)
    theory = 2 * stats.t.sf(stats.t.ppf(1 - alpha / 2, d) * np.sqrt(100 / (d + 1)), 99)
    band = d[np.abs(theory - alpha) < 4 * se]
    lo, hi = band.min() - 1, band.max() + 1
    assert (lo, hi) == (86, 111)
    assert lo <= res.calibrated_df[1] <= hi
    assert res.type1_at_df[1] <= alpha
    assert res.ci_low[1] <= alpha <= res.ci_high[1] + 4 * se


def test_full_calibration_is_fast(rng):
    import time
    x = rng.normal(size=(1000, 10, 10))
    start = time.perf_counter()
    calibrate("folds_averaged_t", x, alphas=[0.01, 0.05, 0.1])
    assert time.perf_counter() - start < 1.0               # ~30 ms in practice
