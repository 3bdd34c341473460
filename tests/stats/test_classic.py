"""Tests of calibsim.stats._classic: McNemar, proportions, 5x2cv t and F, sign test.

References: Dietterich (1998) formulas as restated in
shared/reference/paper-notes.md §1.1; Alpaydin (1999) §4. Independent
implementations: statsmodels' ``mcnemar``, ``scipy.stats.binomtest``,
``scipy.stats.f`` / ``t`` / ``norm`` and plain-Python loops.
"""

import dataclasses
import math
from fractions import Fraction

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

from calibsim.stats import (
    ClassicTestResult,
    TTestResult,
    cv5x2_ftest,
    cv5x2_ttest,
    mcnemar_test,
    proportions_test,
    sign_test,
)

ALTS = ("two-sided", "greater", "less")


@pytest.fixture
def rng():
    return np.random.default_rng(19981895)


def _random_tables(rng, size):
    """Off-diagonal counts n01, n10 of mixed magnitudes, n01 + n10 > 0."""
    scale = rng.choice([5, 30, 200], size=size)
    n01 = rng.integers(0, scale + 1)
    n10 = rng.integers(0, scale + 1)
    n01[(n01 + n10) == 0] = 1
    return n01, n10


# ---------------------------------------------------------------------------
# McNemar
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("correction", [True, False])
def test_mcnemar_chi2_matches_statsmodels(rng, correction):
    n01, n10 = _random_tables(rng, 300)
    if correction:
        # statsmodels does not clip |n01 - n10| - 1 at 0; compare where it is >= 0.
        keep = n01 != n10
        n01, n10 = n01[keep], n10[keep]
    res = mcnemar_test(n01, n10, correction=correction)
    assert res.df == 1.0 and res.statistic.shape == n01.shape
    for a, b, stat, p in zip(n01, n10, res.statistic, res.pvalue):
        ref = sm_mcnemar([[7, a], [b, 11]], exact=False, correction=correction)
        assert_allclose(stat, ref.statistic, rtol=1e-13)
        assert_allclose(p, ref.pvalue, rtol=1e-12, atol=1e-300)


def test_mcnemar_exact_matches_statsmodels_and_binomtest(rng):
    n01, n10 = _random_tables(rng, 200)
    for alternative in ALTS:
        res = mcnemar_test(n01, n10, exact=True, alternative=alternative)
        assert res.df is None
        assert_array_equal(res.statistic, n01)
        ref = [stats.binomtest(int(a), int(a + b), 0.5, alternative=alternative).pvalue
               for a, b in zip(n01, n10)]
        assert_allclose(res.pvalue, ref, rtol=1e-12, atol=1e-300)
    two = mcnemar_test(n01, n10, exact=True).pvalue
    sm = [sm_mcnemar([[0, a], [b, 0]], exact=True).pvalue for a, b in zip(n01, n10)]
    assert_allclose(two, sm, rtol=1e-12, atol=1e-300)


def test_mcnemar_hand_worked():
    # n01 = 12, n10 = 3: corrected chi2 = (9 - 1)^2 / 15 = 64/15; uncorrected 81/15.
    assert_allclose(mcnemar_test(12, 3).statistic, 64 / 15, rtol=1e-15)
    assert_allclose(mcnemar_test(12, 3).pvalue, stats.chi2.sf(64 / 15, 1), rtol=1e-14)
    assert_allclose(mcnemar_test(12, 3, correction=False).statistic, 81 / 15, rtol=1e-15)
    # exact two-sided: 2 * P(Bin(15, 1/2) <= 3) = 2 * (1 + 15 + 105 + 455) / 2^15
    assert_allclose(mcnemar_test(12, 3, exact=True).pvalue, 2 * 576 / 2 ** 15, rtol=1e-14)


@pytest.mark.parametrize("correction", [True, False])
def test_mcnemar_one_sided_chi2_is_signed_root(rng, correction):
    n01, n10 = _random_tables(rng, 100)
    two = mcnemar_test(n01, n10, correction=correction)
    g = mcnemar_test(n01, n10, correction=correction, alternative="greater")
    less = mcnemar_test(n01, n10, correction=correction, alternative="less")
    z = np.sign(n01 - n10) * np.sqrt(two.statistic)
    assert_allclose(g.pvalue, stats.norm.sf(z), rtol=1e-12)
    assert_allclose(less.pvalue, stats.norm.cdf(z), rtol=1e-12)
    assert_allclose(g.pvalue + less.pvalue, 1.0, rtol=1e-12)
    # the two-sided chi-square p is twice the smaller one-sided p
    assert_allclose(two.pvalue, np.minimum(1, 2 * np.minimum(g.pvalue, less.pvalue)),
                    rtol=1e-9)
    assert_array_equal(g.statistic, two.statistic)


@pytest.mark.parametrize("exact", [False, True])
@pytest.mark.parametrize("correction", [False, True])
@pytest.mark.parametrize("alternative", ALTS)
def test_mcnemar_no_disagreement(exact, correction, alternative):
    res = mcnemar_test(0, 0, exact=exact, correction=correction, alternative=alternative)
    assert res.statistic == 0 and res.pvalue == 1


def test_mcnemar_equal_counts_with_correction_clips_to_zero():
    res = mcnemar_test([1, 4, 50], [1, 4, 50])
    assert_array_equal(res.statistic, 0.0)
    assert_array_equal(res.pvalue, 1.0)
    # without correction (n01 - n10)^2 = 0 anyway
    assert_array_equal(mcnemar_test([1, 4], [1, 4], correction=False).pvalue, 1.0)
    # one-sided: z = 0, p = 1/2
    assert_allclose(mcnemar_test(4, 4, alternative="greater").pvalue, 0.5)


def test_mcnemar_broadcasts_and_accepts_integral_floats():
    res = mcnemar_test(np.array([[3.0], [10.0]]), [0, 5, 20])
    assert res.statistic.shape == res.pvalue.shape == (2, 3)
    assert_allclose(res.statistic[1, 2], (10 - 1) ** 2 / 30)
    assert np.all((res.pvalue >= 0) & (res.pvalue <= 1))
    assert isinstance(mcnemar_test(3, 1).statistic, float)


# ---------------------------------------------------------------------------
# Difference of two proportions
# ---------------------------------------------------------------------------

def _ref_proportions(n00, n01, n10, n11):
    """Dietterich (1998), written out with Fractions for p_A, p_B."""
    n = n00 + n01 + n10 + n11
    pa, pb = Fraction(n00 + n01, n), Fraction(n00 + n10, n)
    p = (pa + pb) / 2
    return float(pa - pb) / math.sqrt(float(2 * p * (1 - p) / n))


def test_proportions_matches_direct_formula(rng):
    tables = rng.integers(0, 60, size=(200, 4))
    tables[:, 3] += 1                                # avoid an empty test set
    res = proportions_test(*tables.T)
    ref = np.array([_ref_proportions(*map(int, t)) for t in tables])
    assert_allclose(res.statistic, ref, rtol=1e-12, atol=1e-15)
    assert_allclose(res.pvalue, 2 * stats.norm.sf(np.abs(ref)), rtol=1e-10, atol=1e-300)
    assert_allclose(proportions_test(*tables.T, alternative="greater").pvalue,
                    stats.norm.sf(ref), rtol=1e-10, atol=1e-300)
    assert_allclose(proportions_test(*tables.T, alternative="less").pvalue,
                    stats.norm.cdf(ref), rtol=1e-10, atol=1e-300)
    assert res.df is None


def test_proportions_hand_worked():
    # n = 100, pA = 0.22, pB = 0.13, p = 0.175: z = 0.09 / sqrt(2 * 0.175 * 0.825 / 100)
    res = proportions_test(10, 12, 3, 75)
    assert_allclose(res.statistic, 0.09 / math.sqrt(0.0028875), rtol=1e-12)


def test_proportions_swap_flips_sign(rng):
    n00, n01, n10, n11 = rng.integers(0, 40, size=(4, 100)) + np.array([[0], [0], [0], [1]])
    ab = proportions_test(n00, n01, n10, n11)
    ba = proportions_test(n00, n10, n01, n11)
    assert_array_equal(ba.statistic, -ab.statistic)
    assert_array_equal(ba.pvalue, ab.pvalue)
    assert_allclose(proportions_test(n00, n10, n01, n11, alternative="greater").pvalue,
                    proportions_test(n00, n01, n10, n11, alternative="less").pvalue)


@pytest.mark.parametrize("alternative", ALTS)
@pytest.mark.parametrize("table", [(0, 0, 0, 100), (100, 0, 0, 0), (0, 0, 0, 1)])
def test_proportions_zero_standard_error(table, alternative):
    res = proportions_test(*table, alternative=alternative)
    assert res.statistic == 0 and res.pvalue == 1


def test_proportions_pvalues_in_unit_interval(rng):
    # includes |z| large (one learner always wrong, the other always right)
    res = proportions_test([0, 0, 5], [50, 0, 0], [0, 50, 0], [0, 0, 5])
    assert np.all((res.pvalue >= 0) & (res.pvalue <= 1)) and not np.any(np.isnan(res.pvalue))
    assert res.statistic[0] > 0 > res.statistic[1] and res.statistic[2] == 0


# ---------------------------------------------------------------------------
# 5x2cv paired t and combined F
# ---------------------------------------------------------------------------

# Hand-worked table (units of 1/100): rows are replications i, columns folds j.
#   i  p_i1  p_i2  pbar_i  s_i^2 = (p_i1 - pbar)^2 + (p_i2 - pbar)^2
#   1    3     1     2      1 + 1 = 2
#   2    2     2     2      0
#   3    0     4     2      4 + 4 = 8
#   4    1    -1     0      1 + 1 = 2
#   5    2     0     1      1 + 1 = 2
# sum s_i^2 = 14 (x 1e-4), mean 14/5; t = 3 / sqrt(14/5) -> t^2 = 45/14.
# sum p^2 = 9+1+4+4+0+16+1+1+4+0 = 40; f = 40 / (2 * 14) = 10/7.
HAND = np.array([[3, 1], [2, 2], [0, 4], [1, -1], [2, 0]]) / 100


def test_cv5x2_ttest_hand_worked():
    t = math.sqrt(Fraction(45, 14))
    res = cv5x2_ttest(HAND)
    assert isinstance(res, TTestResult) and res.df == 5.0
    assert_allclose(res.statistic, t, rtol=1e-14)
    assert_allclose(res.pvalue, 2 * stats.t.sf(t, 5), rtol=1e-13)
    assert_allclose(cv5x2_ttest(HAND, alternative="greater").pvalue, stats.t.sf(t, 5),
                    rtol=1e-13)
    assert_allclose(cv5x2_ttest(-HAND, alternative="greater").pvalue, stats.t.sf(-t, 5),
                    rtol=1e-13)
    # df only in the reference distribution, not in the statistic (Dietterich's form)
    res10 = cv5x2_ttest(HAND, df=10)
    assert_allclose(res10.statistic, t, rtol=1e-14)
    assert_allclose(res10.pvalue, 2 * stats.t.sf(t, 10), rtol=1e-13)
    ci = res.confidence_interval(0.9)
    se = math.sqrt(14 / 5) / 100
    assert_allclose([ci.low, ci.high], 0.03 + np.array([-1, 1]) * stats.t.ppf(0.95, 5) * se,
                    rtol=1e-12)


def test_cv5x2_ftest_hand_worked():
    res = cv5x2_ftest(HAND)
    assert isinstance(res, ClassicTestResult) and res.df == (10.0, 5.0)
    assert_allclose(res.statistic, 10 / 7, rtol=1e-14)
    assert_allclose(res.pvalue, stats.f.sf(10 / 7, 10, 5), rtol=1e-13)


def _ref_5x2(x):
    """Loops over one 5 x 2 table: (t, f) as in Dietterich (1998) and Alpaydin (1999)."""
    s2 = []
    for p1, p2 in x:
        pbar = (p1 + p2) / 2
        s2.append((p1 - pbar) ** 2 + (p2 - pbar) ** 2)
    t = x[0][0] / math.sqrt(sum(s2) / 5)
    f = sum(p * p for row in x for p in row) / (2 * sum(s2))
    return t, f


def test_cv5x2_against_loops_and_vectorised(rng):
    x = rng.normal(0.01, 0.04, size=(3, 40, 5, 2))
    ref = np.array([[_ref_5x2(xx.tolist()) for xx in block] for block in x])   # (3, 40, 2)
    t = cv5x2_ttest(x)
    f = cv5x2_ftest(x)
    assert t.statistic.shape == f.pvalue.shape == (3, 40)
    assert_allclose(t.statistic, ref[..., 0], rtol=1e-12)
    assert_allclose(t.pvalue, 2 * stats.t.sf(np.abs(ref[..., 0]), 5), rtol=1e-11)
    assert_allclose(f.statistic, ref[..., 1], rtol=1e-12)
    assert_allclose(f.pvalue, stats.f.sf(ref[..., 1], 10, 5), rtol=1e-11)
    # df arrays broadcast against the leading dimensions (calibration layout)
    dfs = np.array([2.0, 5.0, 9.5])[:, None, None]
    tt = cv5x2_ttest(x, df=dfs)
    assert tt.pvalue.shape == tt.df.shape == (3, 3, 40)
    assert_allclose(tt.pvalue[2], 2 * stats.t.sf(np.abs(ref[..., 0]), 9.5), rtol=1e-11)
    ff = cv5x2_ftest(x, df=dfs)
    assert ff.pvalue.shape == (3, 3, 40) and ff.df[0] == 10.0
    assert_allclose(ff.pvalue[0], stats.f.sf(ref[..., 1], 10, 2), rtol=1e-11)


def test_cv5x2_all_zero():
    x = np.zeros((5, 2))
    for alternative in ALTS:
        res = cv5x2_ttest(x, alternative=alternative)
        assert res.statistic == 0 and res.pvalue == 1
    f = cv5x2_ftest(x)
    assert f.statistic == 0 and f.pvalue == 1


def test_cv5x2_zero_variance_nonzero_differences():
    # p_i1 == p_i2 in every replication: s_i^2 = 0 for all i
    x = np.repeat(np.array([0.1, 0.02, -0.03, 0.0, 0.05])[:, None], 2, axis=1)
    res = cv5x2_ttest(x)
    assert res.statistic == np.inf and res.pvalue == 0
    assert cv5x2_ttest(x, alternative="greater").pvalue == 0
    assert cv5x2_ttest(x, alternative="less").pvalue == 1
    assert cv5x2_ttest(-x).statistic == -np.inf
    f = cv5x2_ftest(x)
    assert f.statistic == np.inf and f.pvalue == 0
    # p_1^(1) = 0 over zero variance is 0/0: statistic 0, p = 1 for every alternative
    x[0] = 0.0
    for alternative in ALTS:
        res = cv5x2_ttest(x, alternative=alternative)
        assert res.statistic == 0 and res.pvalue == 1
    # a constant 0.1 has a floating-point variance that is not exactly 0
    assert cv5x2_ttest(np.full((5, 2), 0.1)).statistic == np.inf


def test_cv5x2_vectorised_degenerate_rows_no_nan(rng):
    x = rng.normal(size=(4, 5, 2))
    x[1] = 0.0
    x[2] = 0.05
    t, f = cv5x2_ttest(x), cv5x2_ftest(x)
    for p in (t.pvalue, f.pvalue):
        assert not np.any(np.isnan(p)) and np.all((p >= 0) & (p <= 1))
    assert_array_equal(t.pvalue[1:3], [1.0, 0.0])
    assert_array_equal(f.statistic[1:3], [0.0, np.inf])


# ---------------------------------------------------------------------------
# Sign test
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("alternative", ALTS)
def test_sign_test_matches_binomtest(rng, alternative):
    # values in {-1, 0, 1} x small: many ties and all-tie rows
    x = rng.integers(-1, 2, size=(150, 12)) * rng.random((150, 12))
    x[:3] = 0.0
    res = sign_test(x, alternative=alternative)
    wins, losses = (x > 0).sum(-1), (x < 0).sum(-1)
    ref = [stats.binomtest(int(w), int(w + l), 0.5, alternative=alternative).pvalue
           if w + l else 1.0 for w, l in zip(wins, losses)]
    assert_array_equal(res.statistic, wins)
    assert_allclose(res.pvalue, ref, rtol=1e-12)
    assert res.df is None
    assert_array_equal(res.statistic[:3], 0.0)
    assert_array_equal(res.pvalue[:3], 1.0)


def test_sign_test_axis(rng):
    x = rng.normal(size=(6, 9, 4))
    res = sign_test(x, axis=1)
    ref = sign_test(np.moveaxis(x, 1, -1))
    assert res.pvalue.shape == (6, 4)
    assert_array_equal(res.statistic, ref.statistic)
    assert_array_equal(res.pvalue, ref.pvalue)
    assert_array_equal(sign_test(x, axis=-2).pvalue, res.pvalue)


def test_sign_test_hand_worked():
    # 8 wins, 1 loss, 1 tie: p = 2 * (1 + 9) / 2^9
    res = sign_test([0.02, 0.01, 0.0, 0.03, -0.01, 0.02, 0.04, 0.01, 0.02, 0.05])
    assert res.statistic == 8
    assert_allclose(res.pvalue, 20 / 512, rtol=1e-14)
    # n/2 wins exactly: p capped at 1
    assert sign_test([1.0, -1.0, 2.0, -2.0]).pvalue == 1.0


# ---------------------------------------------------------------------------
# Result type and validation
# ---------------------------------------------------------------------------

def test_result_is_frozen_and_unpacks():
    res = mcnemar_test(5, 1)
    stat, p = res
    assert stat == res.statistic and p == res.pvalue
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.pvalue = 0.5
    assert "_method" not in repr(res)


@pytest.mark.parametrize("call, match", [
    (lambda: mcnemar_test(-1, 3), r"`n01` must hold non-negative integer counts; got -1\.0"),
    (lambda: mcnemar_test(2, 1.5), r"`n10` must hold non-negative integer counts; got 1\.5"),
    (lambda: mcnemar_test(np.nan, 1), r"`n01` must be finite \(no NaN or inf\)"),
    (lambda: mcnemar_test(3, np.inf), r"`n10` must be finite"),
    (lambda: mcnemar_test([1, 2], [1, 2, 3]),
     r"counts must have broadcastable shapes; got `n01` \(2,\), `n10` \(3,\)"),
    (lambda: mcnemar_test(3, 1, alternative="two_sided"), "`alternative` must be one of"),
    (lambda: proportions_test(1, 2, -3, 4), "`n10` must hold non-negative integer counts"),
    (lambda: proportions_test(1, 2, 3, 0.5), "`n11` must hold non-negative integer counts"),
    (lambda: proportions_test([0, 1], 0, 0, 0), r"n = n00 \+ n01 \+ n10 \+ n11 must be positive"),
    (lambda: proportions_test([1, 1], [1, 1, 1], 1, 1), "broadcastable shapes"),
    (lambda: proportions_test(1, 1, 1, 1, alternative="bigger"), "`alternative` must be one of"),
    (lambda: cv5x2_ttest(np.zeros((5, 3))), r"`x` must have shape \(\.\.\., 5, 2\)"),
    (lambda: cv5x2_ttest(np.zeros(10)), r"must have shape \(\.\.\., 5, 2\).*got shape \(10,\)"),
    (lambda: cv5x2_ttest(np.full((5, 2), np.nan)), "`x` must be finite"),
    (lambda: cv5x2_ttest(HAND, df=0), r"`df` must be positive and finite"),
    (lambda: cv5x2_ttest(HAND, alternative="up"), "`alternative` must be one of"),
    (lambda: cv5x2_ftest(np.zeros((2, 5))), r"`x` must have shape \(\.\.\., 5, 2\)"),
    (lambda: cv5x2_ftest(np.full((5, 2), np.inf)), "`x` must be finite"),
    (lambda: cv5x2_ftest(HAND, df=-1.0), r"`df` must be positive and finite"),
    (lambda: cv5x2_ftest(np.zeros((3, 5, 2)), df=np.ones(2)), "does not broadcast"),
    (lambda: sign_test([1.0, np.nan]), "`x` must be finite"),
    (lambda: sign_test(1.0), r"`x` must have at least 1 dimension"),
    (lambda: sign_test(np.zeros((3, 0))), r"at least 1 value along `axis` = 1"),
    (lambda: sign_test(np.zeros((3, 4)), axis=2), r"`axis` must lie in \[-2, 1\].*got 2"),
    (lambda: sign_test([1.0, 2.0], alternative="two"), "`alternative` must be one of"),
])
def test_validation_value_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("call, match", [
    (lambda: mcnemar_test(1, 2, correction=1), "`correction` must be a bool"),
    (lambda: mcnemar_test(1, 2, exact="yes"), "`exact` must be a bool"),
    (lambda: mcnemar_test("a", 2), "`n01` must hold real numbers"),
    (lambda: sign_test([1.0], axis=0.5), "`axis` must be an integer"),
])
def test_validation_type_errors(call, match):
    with pytest.raises(TypeError, match=match):
        call()


def test_cv5x2_ttest_pvalue_monotone_in_df(rng):
    # df enters only the reference t: the statistic is constant in df, and a
    # larger df (lighter tails) gives a smaller two-sided p-value.
    x = rng.normal(0.0, 0.05, size=(200, 5, 2))
    dfs = np.concatenate([np.linspace(0.5, 3, 6), np.arange(4, 120, 3)])
    res = cv5x2_ttest(x, df=dfs[:, None])
    assert np.all(np.diff(res.statistic, axis=0) == 0)
    assert np.all(np.diff(res.pvalue, axis=0) <= 1e-15)


@pytest.mark.parametrize("alternative", ALTS)
def test_pvalues_in_unit_interval_never_nan(rng, alternative):
    x = rng.normal(size=(100, 5, 2)).round(1)            # many ties and zero variances
    x[:10] = 0.0
    x[10:20] = 0.3
    dfs = np.array([[0.5], [5], [50]])
    results = [cv5x2_ttest(x, df=dfs, alternative=alternative), cv5x2_ftest(x, df=dfs),
               sign_test(x.reshape(100, 10), alternative=alternative),
               mcnemar_test(*rng.integers(0, 4, size=(2, 100)), alternative=alternative),
               mcnemar_test(*rng.integers(0, 4, size=(2, 100)), exact=True,
                            alternative=alternative),
               proportions_test(*rng.integers(0, 3, size=(4, 100)) + [[0], [0], [0], [1]],
                                alternative=alternative)]
    for res in results:
        p = np.asarray(res.pvalue)
        assert np.all((p >= 0) & (p <= 1))
