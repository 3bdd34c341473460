"""Tests of calibsim.stats._ttests against scipy and independent loops.

References: Bouckaert (2003) Table 1 as restated in
shared/reference/paper-notes.md §2.4; Nadeau & Bengio (2003) for the
corrected resampled t; Weka's PairedCorrectedTTester (paper-notes §3) for the
corrected repeated cv test.
"""

import dataclasses
import math

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats

from calibsim.stats import (
    CV_METHODS,
    TESTS,
    ConfidenceInterval,
    TTestResult,
    corrected_repeated_cv_ttest,
    corrected_resampled_ttest,
    kfold_cv_ttest,
    repeated_cv_ttest,
    resampled_ttest,
)
from calibsim.stats._ttests import _pvalue_t

ALTS = ("two-sided", "greater", "less")


@pytest.fixture
def rng():
    return np.random.default_rng(20030721)


# ---------------------------------------------------------------------------
# Independent reference implementations (plain Python loops)
# ---------------------------------------------------------------------------

def _mean(v):
    return sum(v) / len(v)


def _var(v):
    m = _mean(v)
    return sum((a - m) ** 2 for a in v) / (len(v) - 1)


def _ref_cv(x, method, df):
    """Table 1 of Bouckaert (2003) for one (r, k) matrix, written with loops.

    x[j][i] = difference on fold i of run j. Returns (Z, two-sided p).
    """
    x = [list(row) for row in np.asarray(x)]
    r, k = len(x), len(x[0])
    if method.startswith("sorted_"):
        x = [sorted(row) for row in x]
        method = method[len("sorted_"):]
    m = _mean([v for row in x for v in row])
    runs = x                                                   # run j: k values
    folds = [[x[j][i] for j in range(r)] for i in range(k)]    # fold i: r values
    if method == "folds_averaged_t":
        z = _mean([_mean(run) / math.sqrt(_var(run) / (df + 1)) for run in runs])
    elif method == "runs_averaged_t":
        z = _mean([_mean(f) / math.sqrt(_var(f) / (df + 1)) for f in folds])
    else:
        var = {
            "use_all_data": lambda: _var([v for row in x for v in row]),
            "folds": lambda: _var([_mean(run) for run in runs]),
            "folds_averaged_var": lambda: _mean([_var(run) for run in runs]),
            "runs": lambda: _var([_mean(f) for f in folds]),
            "runs_averaged_var": lambda: _mean([_var(f) for f in folds]),
        }[method]()
        z = m / math.sqrt(var / (df + 1))
    return z, 2 * stats.t.sf(abs(z), df)


# ---------------------------------------------------------------------------
# Agreement with scipy and with the reference loops
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("alternative", ALTS)
def test_use_all_data_default_df_equals_ttest_1samp(rng, alternative):
    x = rng.normal(0.01, 0.05, size=(40, 6, 7))
    res = repeated_cv_ttest(x, alternative=alternative)
    ref = stats.ttest_1samp(x.reshape(40, -1), 0, axis=-1, alternative=alternative)
    assert_allclose(res.statistic, ref.statistic, rtol=1e-12)
    assert_allclose(res.pvalue, ref.pvalue, rtol=1e-12)
    assert res.df == 41.0


@pytest.mark.parametrize("alternative", ALTS)
def test_kfold_and_resampled_default_df_equal_ttest_1samp(rng, alternative):
    x = rng.normal(0.0, 0.03, size=(30, 10))
    ref = stats.ttest_1samp(x, 0, axis=-1, alternative=alternative)
    for func in (kfold_cv_ttest, resampled_ttest):
        res = func(x, alternative=alternative)
        assert_allclose(res.statistic, ref.statistic, rtol=1e-12)
        assert_allclose(res.pvalue, ref.pvalue, rtol=1e-12)
        assert res.df == 9.0


def test_confidence_interval_matches_scipy(rng):
    x = rng.normal(0.01, 0.05, size=(5, 4, 6))
    for alternative in ALTS:
        res = repeated_cv_ttest(x, alternative=alternative)
        ref = stats.ttest_1samp(x.reshape(5, -1), 0, axis=-1, alternative=alternative)
        for cl in (0.9, 0.95):
            ci, ci_ref = res.confidence_interval(cl), ref.confidence_interval(cl)
            assert isinstance(ci, ConfidenceInterval)
            assert_allclose(ci.low, ci_ref.low, rtol=1e-12)
            assert_allclose(ci.high, ci_ref.high, rtol=1e-12)


def test_corrected_resampled_equals_nadeau_bengio(rng):
    n, ratio = 15, 1 / 9
    x = rng.normal(0.0, 0.02, size=(20, n))
    res = corrected_resampled_ttest(x, test_train_ratio=ratio)
    for i in range(20):
        xi = list(x[i])
        t = _mean(xi) / math.sqrt((1 / n + ratio) * _var(xi))      # Nadeau & Bengio
        assert math.isclose(res.statistic[i], t, rel_tol=1e-12)
        assert math.isclose(res.pvalue[i], 2 * stats.t.sf(abs(t), n - 1), rel_tol=1e-12)
    assert res.df == n - 1
    # The interval is m ± t_{n-1} · sqrt((1/n + n2/n1) s^2).
    ci = res.confidence_interval()
    se = np.sqrt((1 / n + ratio) * np.var(x, axis=-1, ddof=1))
    assert_allclose(ci.high - ci.low, 2 * stats.t.ppf(0.975, n - 1) * se, rtol=1e-12)
    # ratio 0 is the uncorrected resampled t; a calibrated df enters via 1/(df+1).
    assert_allclose(corrected_resampled_ttest(x, test_train_ratio=0).statistic,
                    resampled_ttest(x).statistic, rtol=1e-12)
    z = corrected_resampled_ttest(x, test_train_ratio=0.25, df=6.5).statistic
    assert_allclose(z, x.mean(-1) / np.sqrt((1 / 7.5 + 0.25) * x.var(-1, ddof=1)),
                    rtol=1e-12)


def test_corrected_repeated_cv_equals_weka_formula(rng):
    r, k = 10, 10
    x = rng.normal(0.0, 0.03, size=(8, r, k))
    res = corrected_repeated_cv_ttest(x)
    for i in range(8):
        d = list(x[i].ravel())
        # Weka PairedCorrectedTTester: tval = mean / sqrt((1/count + ratio) sd^2),
        # p = FProbability(tval^2, 1, count - 1) = two-sided t p-value.
        t = _mean(d) / math.sqrt((1 / (r * k) + 1 / (k - 1)) * _var(d))
        assert math.isclose(res.statistic[i], t, rel_tol=1e-12)
        assert math.isclose(res.pvalue[i], stats.f.sf(t * t, 1, r * k - 1), rel_tol=1e-9)
    res2 = corrected_repeated_cv_ttest(x, test_train_ratio=0.5, df=20)
    assert_allclose(res2.statistic,
                    x.mean((1, 2)) / np.sqrt((1 / 21 + 0.5) * x.reshape(8, -1).var(-1, ddof=1)),
                    rtol=1e-12)


@pytest.mark.parametrize("method", CV_METHODS)
@pytest.mark.parametrize("df", [None, 3.5, 10])
def test_cv_methods_against_loops(rng, method, df):
    r, k = 5, 4
    x = rng.normal(0.0, 0.05, size=(6, r, k))
    res = repeated_cv_ttest(x, method=method, df=df)
    df_used = res.df
    for i in range(6):
        z, p = _ref_cv(x[i], method, df_used)
        assert math.isclose(res.statistic[i], z, rel_tol=1e-10)
        assert math.isclose(res.pvalue[i], p, rel_tol=1e-9)


@pytest.mark.parametrize("method, expected", [
    ("use_all_data", 19), ("folds", 4), ("folds_averaged_var", 4), ("folds_averaged_t", 3),
    ("runs", 3), ("runs_averaged_var", 3), ("runs_averaged_t", 4), ("sorted_runs", 3),
    ("sorted_runs_averaged_var", 3), ("sorted_runs_averaged_t", 4)])
def test_default_df(rng, method, expected):
    res = repeated_cv_ttest(rng.normal(size=(5, 4)), method=method)    # r = 5, k = 4
    assert res.df == expected
    assert isinstance(res.df, float)


def test_sorted_runs_differs_from_runs_and_equals_runs_on_sorted_input(rng):
    x = rng.normal(size=(10, 5, 4))
    xs = np.sort(x, axis=-1)
    for base in ("runs", "runs_averaged_var", "runs_averaged_t"):
        a = repeated_cv_ttest(x, method="sorted_" + base)
        b = repeated_cv_ttest(xs, method=base)
        assert_allclose(a.statistic, b.statistic, rtol=1e-12)
        assert not np.allclose(a.statistic, repeated_cv_ttest(x, method=base).statistic)


# ---------------------------------------------------------------------------
# Broadcasting over df and leading dimensions
# ---------------------------------------------------------------------------

def _all_calls():
    yield "cv", lambda x, df: repeated_cv_ttest(x, df=df)
    for method in CV_METHODS[1:]:
        yield "cv", lambda x, df, m=method: repeated_cv_ttest(x, method=m, df=df)
    yield "cv", lambda x, df: corrected_repeated_cv_ttest(x, df=df)
    yield "1d", lambda x, df: kfold_cv_ttest(x, df=df)
    yield "1d", lambda x, df: resampled_ttest(x, df=df)
    yield "1d", lambda x, df: corrected_resampled_ttest(x, test_train_ratio=0.2, df=df)


@pytest.mark.parametrize("kind, call", list(_all_calls()))
def test_df_broadcasting_equals_per_df_loop(rng, kind, call):
    n = 50
    x = rng.normal(size=(n, 10, 10)) if kind == "cv" else rng.normal(size=(n, 10))
    dfs = np.arange(2, 101)
    res = call(x, dfs[:, None])
    assert res.statistic.shape == res.pvalue.shape == res.df.shape == (99, n)
    for j in (0, 7, 50, 98):
        one = call(x, int(dfs[j]))
        assert_allclose(res.statistic[j], one.statistic, rtol=1e-13)
        assert_allclose(res.pvalue[j], one.pvalue, rtol=1e-13)


def test_df_broadcasts_against_leading_dimensions(rng):
    x = rng.normal(size=(4, 3, 5, 6))
    df = np.array([[2.0], [3.0], [10.0], [30.5]])          # (4, 1) vs lead (4, 3)
    res = repeated_cv_ttest(x, method="folds", df=df)
    assert res.statistic.shape == (4, 3)
    for a in range(4):
        assert_allclose(res.statistic[a],
                        repeated_cv_ttest(x[a], method="folds", df=df[a, 0]).statistic,
                        rtol=1e-13)
    assert repeated_cv_ttest(x, df=np.arange(1, 4.0)).statistic.shape == (4, 3)
    ci = repeated_cv_ttest(x, df=df).confidence_interval()
    assert ci.low.shape == (4, 3)


def test_calibration_sized_call_is_fast(rng):
    import time
    x = rng.normal(size=(1000, 10, 10))
    dfs = np.arange(2, 101)[:, None]
    repeated_cv_ttest(x, df=dfs)                          # warm-up
    start = time.perf_counter()
    res = repeated_cv_ttest(x, method="sorted_runs_averaged_t", df=dfs)
    assert res.pvalue.shape == (99, 1000)
    assert time.perf_counter() - start < 0.5              # tens of ms in practice


# ---------------------------------------------------------------------------
# Monotonicity in df (so Type I error is non-decreasing in df)
# ---------------------------------------------------------------------------

# The 5x2cv tests (scheme "cv5x2") are checked in test_classic.py: their df is
# not part of the statistic, and their data have the fixed shape (..., 5, 2).
# The holdout tests (McNemar, proportions) have no df: see tests/stats/test_registry.py.
@pytest.mark.parametrize("name", [n for n, s in TESTS.items()
                                  if s.scheme not in ("cv5x2", "holdout")])
def test_statistic_and_rejection_monotone_in_df(rng, name):
    spec = TESTS[name]
    x = rng.normal(0.0, 0.05, size=(200, 5, 10))
    if spec.scheme == "subsampling":
        x = x[:, 0, :]
    dfs = np.concatenate([np.linspace(0.5, 3, 6), np.arange(4, 120, 3)])
    res = spec.func(x, dfs[:, None])
    assert np.all(np.diff(np.abs(res.statistic), axis=0) >= 0)
    assert np.all(np.diff(res.pvalue, axis=0) <= 1e-15)
    for alpha in (0.01, 0.05, 0.1):
        reject = res.pvalue <= alpha
        assert np.all(reject[1:] >= reject[:-1])


# ---------------------------------------------------------------------------
# Zero variance
# ---------------------------------------------------------------------------

def _every_test_on(x_cv):
    for method in CV_METHODS:
        yield method, repeated_cv_ttest, x_cv, {"method": method}
    yield "corrected_repeated_cv", corrected_repeated_cv_ttest, x_cv, {}
    yield "kfold_cv", kfold_cv_ttest, x_cv[0], {}
    yield "resampling", resampled_ttest, x_cv[0], {}
    yield "corrected_resampling", corrected_resampled_ttest, x_cv[0], {"test_train_ratio": 1 / 9}


@pytest.mark.parametrize("alternative", ALTS)
def test_zero_variance_all_zero(alternative):
    x = np.zeros((10, 10))
    for name, func, xx, kw in _every_test_on(x):
        res = func(xx, alternative=alternative, **kw)
        assert res.statistic == 0.0, name
        assert res.pvalue == 1.0, name                      # 0/0: no evidence


@pytest.mark.parametrize("value, alternative, p", [
    (0.1, "two-sided", 0.0), (0.1, "greater", 0.0), (0.1, "less", 1.0),
    (-0.1, "two-sided", 0.0), (-0.1, "greater", 1.0), (-0.1, "less", 0.0)])
def test_zero_variance_constant_nonzero(value, alternative, p):
    # 100 copies of 0.1 do not have an exactly-zero floating-point variance;
    # the tests must still see sd = 0 and give ±inf.
    x = np.full((10, 10), value)
    for name, func, xx, kw in _every_test_on(x):
        res = func(xx, alternative=alternative, **kw)
        assert res.statistic == np.sign(value) * np.inf, name
        assert res.pvalue == p, name


def test_zero_variance_vectorised_with_df_and_ci():
    x = np.stack([np.zeros((3, 4)), np.full((3, 4), 0.1),
                  np.arange(12.0).reshape(3, 4) / 100])
    res = repeated_cv_ttest(x, df=np.array([[2.0], [50.0]]))
    assert res.statistic.shape == (2, 3)
    assert_array_equal(res.statistic[:, :2], [[0, np.inf], [0, np.inf]])
    assert_array_equal(res.pvalue[:, :2], [[1, 0], [1, 0]])
    assert np.all(np.isfinite(res.statistic[:, 2]))
    ci = res.confidence_interval()
    assert_allclose(ci.low[:, 1], 0.1)                         # stderr 0: [m, m]
    assert_allclose(ci.high[:, 1], 0.1)


def test_zero_variance_of_run_means_only():
    # Every run is a permutation of the same values: the run means are equal
    # (up to rounding), so the "folds" variance is 0 while the data vary.
    base = np.array([0.1, 0.2, -0.3, 0.05, -0.05])
    rng = np.random.default_rng(1)
    x = np.stack([rng.permutation(base) for _ in range(6)])     # mean 0
    res = repeated_cv_ttest(x, method="folds")
    assert res.statistic == 0.0 and res.pvalue == 1.0
    res = repeated_cv_ttest(x + 0.01, method="folds")
    assert res.statistic == np.inf and res.pvalue == 0.0
    assert np.isfinite(repeated_cv_ttest(x + 0.01).statistic)   # use all data


def test_averaged_t_leaves_zero_variance_components_out(rng):
    df = 9.0
    x = rng.normal(0.0, 0.05, size=(5, 10))
    comps = [x[j].mean() / np.sqrt(x[j].var(ddof=1) / (df + 1)) for j in (0, 1, 3, 4)]
    # A run with zero variance is left out, whatever its mean: the other four decide.
    for value in (0.0, 0.1, -0.1):
        x0 = x.copy()
        x0[2] = value
        res = repeated_cv_ttest(x0, method="folds_averaged_t", df=df)
        assert math.isclose(res.statistic, sum(comps) / 4, rel_tol=1e-12)
        assert 0 < res.pvalue < 1
    # Two constant runs of opposite signs: both left out.
    x2 = x.copy()
    x2[2], x2[4] = 0.1, -0.1
    res = repeated_cv_ttest(x2, method="folds_averaged_t", df=df)
    assert math.isclose(res.statistic, sum(comps[:3]) / 3, rel_tol=1e-12)
    # Every run constant: +-inf with the sign of the mean, 0 with p = 1 when it is 0.
    x3 = np.repeat([[0.1], [0.2], [0.1], [0.0], [0.1]], 10, axis=1)
    res = repeated_cv_ttest(x3, method="folds_averaged_t", df=df)
    assert res.statistic == np.inf and res.pvalue == 0.0
    for alternative in ALTS:
        res = repeated_cv_ttest(np.zeros((5, 10)), method="folds_averaged_t",
                                alternative=alternative)
        assert res.statistic == 0.0 and res.pvalue == 1.0
    # The per-fold averaged T test: fold 0 constant across runs is left out.
    x4 = x.copy()
    x4[:, 0] = -0.2
    res = repeated_cv_ttest(x4, method="runs_averaged_t")
    cols = [x4[:, i].mean() / np.sqrt(x4[:, i].var(ddof=1) / 5) for i in range(1, 10)]
    assert math.isclose(res.statistic, sum(cols) / 9, rel_tol=1e-12)
    with pytest.raises(ValueError, match="not defined"):
        res.confidence_interval()


def test_pvalues_in_unit_interval_never_nan(rng):
    x = rng.normal(size=(100, 3, 4)).round(1)            # many ties
    x[:10] = 0.0
    x[10:20] = 0.3
    for name, spec in TESTS.items():
        if spec.scheme in ("cv5x2", "holdout"):
            continue                                     # see test_classic.py
        xx = x[:, 0, :] if spec.scheme == "subsampling" else x
        for alternative in ALTS:
            p = spec.func(xx, np.array([[0.5], [3], [50]]), alternative=alternative).pvalue
            assert np.all((p >= 0) & (p <= 1)), name
    assert _pvalue_t(np.array([0.0]), 3.0, "two-sided")[0] == 1.0
    assert _pvalue_t(np.array([1e-300]), 3.0, "two-sided")[0] <= 1.0


# ---------------------------------------------------------------------------
# Result object
# ---------------------------------------------------------------------------

def test_result_is_frozen_and_unpackable(rng):
    res = repeated_cv_ttest(rng.normal(size=(3, 4)))
    assert isinstance(res, TTestResult)
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.statistic = 0.0
    stat, p = res
    assert stat == res.statistic and p == res.pvalue
    assert "_estimate" not in repr(res)
    r_avg = repeated_cv_ttest(rng.normal(size=(3, 4)), method="runs_averaged_t")
    assert np.isnan(r_avg._stderr)
    with pytest.raises(ValueError, match="not defined"):
        r_avg.confidence_interval()


# ---------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------

def test_validation_x():
    with pytest.raises(ValueError, match="`x` must be finite"):
        repeated_cv_ttest([[0.1, np.nan], [0.0, 0.1]])
    with pytest.raises(ValueError, match="`x` must be finite"):
        resampled_ttest([0.1, np.inf, 0.2])
    with pytest.raises(ValueError, match=r"`x` must have shape \(\.\.\., r, k\).*\(1, 5\)"):
        repeated_cv_ttest(np.zeros((1, 5)))
    with pytest.raises(ValueError, match=r"`x` must have shape \(\.\.\., r, k\).*\(5, 1\)"):
        repeated_cv_ttest(np.zeros((5, 1)))
    with pytest.raises(ValueError, match=r"`x` must have shape \(\.\.\., r, k\).*\(5,\)"):
        corrected_repeated_cv_ttest(np.zeros(5))
    with pytest.raises(ValueError, match=r"`x` must have shape \(\.\.\., k\).*\(3, 1\)"):
        kfold_cv_ttest(np.zeros((3, 1)))
    with pytest.raises(ValueError, match=r"`x` must have shape \(\.\.\., n\).*\(\)"):
        resampled_ttest(0.1)
    with pytest.raises(ValueError, match=r"`x` must have shape \(\.\.\., n\)"):
        corrected_resampled_ttest([0.1], test_train_ratio=0.1)
    with pytest.raises(TypeError, match="`x` must hold real numbers"):
        resampled_ttest(["a", "b"])


def test_validation_choices():
    x = np.zeros((3, 4))
    with pytest.raises(ValueError, match=r"`method` must be one of .*'use_all_data'.*'bogus'"):
        repeated_cv_ttest(x, method="bogus")
    with pytest.raises(ValueError, match=r"`alternative` must be one of .*'two-sided'"):
        repeated_cv_ttest(x, alternative="two_sided")
    for func in (kfold_cv_ttest, resampled_ttest):
        with pytest.raises(ValueError, match="`alternative`"):
            func([0.1, 0.2], alternative="both")
    with pytest.raises(ValueError, match="`alternative`"):
        corrected_resampled_ttest([0.1, 0.2], test_train_ratio=0.1, alternative="up")
    with pytest.raises(ValueError, match="`alternative`"):
        corrected_repeated_cv_ttest(x, alternative="up")


@pytest.mark.parametrize("df", [0, -1, 0.0, np.nan, np.inf, [3, 0], [[2.0], [np.nan]]])
def test_validation_df_value(df):
    with pytest.raises(ValueError, match=r"`df` must be positive and finite"):
        repeated_cv_ttest(np.ones((3, 4)) * [0.1, 0.2, 0.3, 0.4], df=df)


def test_validation_df_other():
    x = np.arange(12.0).reshape(3, 4)
    with pytest.raises(ValueError, match=r"`df` of shape \(3,\) does not broadcast"):
        repeated_cv_ttest(np.stack([x, x]), df=[2, 3, 4])
    with pytest.raises(ValueError, match="`df` must not be empty"):
        resampled_ttest([0.1, 0.2], df=[])
    with pytest.raises(TypeError, match="`df`"):
        resampled_ttest([0.1, 0.2], df="ten")
    with pytest.raises(TypeError, match="`df`"):
        resampled_ttest([0.1, 0.2], df=True)
    for func in (kfold_cv_ttest, corrected_repeated_cv_ttest):
        with pytest.raises(ValueError, match="`df` must be positive"):
            func(x, df=-2)


def test_validation_test_train_ratio():
    with pytest.raises(ValueError, match=r"`test_train_ratio` must be .*>= 0.*-0.1"):
        corrected_resampled_ttest([0.1, 0.2], test_train_ratio=-0.1)
    with pytest.raises(ValueError, match="`test_train_ratio`"):
        corrected_resampled_ttest([0.1, 0.2], test_train_ratio=np.nan)
    with pytest.raises(TypeError, match="`test_train_ratio`"):
        corrected_resampled_ttest([0.1, 0.2], test_train_ratio="1/9")
    with pytest.raises(ValueError, match="`test_train_ratio`"):
        corrected_repeated_cv_ttest(np.zeros((3, 4)), test_train_ratio=-1)


def test_validation_confidence_level(rng):
    res = repeated_cv_ttest(rng.normal(size=(3, 4)))
    for cl in (0, 1, 1.5):
        with pytest.raises(ValueError, match=r"`confidence_level` must lie in \(0, 1\)"):
            res.confidence_interval(cl)
