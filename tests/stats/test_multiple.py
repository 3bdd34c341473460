"""Tests of calibsim.stats._multiple and _posthoc (comparisons over data sets)."""

import itertools
import math

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats
from statsmodels.stats.multitest import multipletests

from calibsim.stats import (
    BERGMANN_HOMMEL_MAX_LEARNERS,
    average_ranks,
    bergmann_hommel_test,
    bonferroni_dunn_test,
    critical_difference,
    friedman_test,
    holm_test,
    nemenyi_test,
    rank_z_test,
    shaffer_test,
    sign_test,
    sign_test_datasets,
    wilcoxon_datasets,
)
from calibsim.stats._posthoc import _shaffer_multipliers, _shaffer_set

# Demšar (2006), Table 6: AUC of C4.5, C4.5+m, C4.5+cf, C4.5+m+cf on 14 UCI
# data sets. The paper ranks C4.5+cf 2nd and C4.5+m+cf 3rd on "voting"
# (0.975 both at 3 digits, so the unrounded values differ): 0.97501 keeps
# that order and reproduces the published average ranks.
DEMSAR = np.array([
    [0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
    [0.954, 0.971, 0.968, 0.967], [0.628, 0.661, 0.654, 0.657],
    [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
    [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625],
    [0.775, 0.838, 0.866, 0.875], [1.000, 1.000, 1.000, 1.000],
    [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
    [0.972, 0.981, 0.97501, 0.975], [0.957, 0.978, 0.946, 0.970],
])

ALL_PAIRS = (holm_test, shaffer_test, bergmann_hommel_test, nemenyi_test)


def _upper(mat):
    i, j = np.triu_indices(mat.shape[0], k=1)
    return mat[i, j]


# ---------------------------------------------------------------------------
# Demšar's worked example
# ---------------------------------------------------------------------------

def test_demsar_average_ranks_and_friedman():
    # Demšar (2006) Sec. 3.2.2: R = 3.143, 2.000, 2.893, 1.964;
    # chi2_F = 9.28, F_F = 3.69 with (3, 39) df.
    assert_allclose(average_ranks(DEMSAR), [3.143, 2.000, 2.893, 1.964], atol=5e-4)
    res = friedman_test(DEMSAR, tie_correction=False)        # Demšar's form, his numbers
    assert round(res.statistic, 2) == 9.28
    assert round(res.iman_davenport, 2) == 3.69
    assert (res.df, res.df_num, res.df_den) == (3.0, 3.0, 39.0)
    assert res.iman_davenport_pvalue < 0.05 and res.pvalue < 0.05
    assert_allclose(res.pvalue, stats.chi2.sf(res.statistic, 3), rtol=1e-12)


def test_demsar_post_hoc():
    # CD = 2.569 sqrt(4*5/(6*14)) = 1.25 (Nemenyi); Bonferroni-Dunn CD with
    # q = 2.394: 1.17. No pair differs by Nemenyi; with C4.5 as control,
    # Bonferroni-Dunn finds only C4.5+m+cf (diff 1.179 > 1.168) better.
    assert round(critical_difference(4, 14), 2) == 1.25
    nem = nemenyi_test(DEMSAR)
    assert nem.critical_difference == pytest.approx(critical_difference(4, 14))
    assert not nem.reject.any()
    bd = bonferroni_dunn_test(DEMSAR, control=0)
    assert bd.critical_difference == pytest.approx(2.394 * math.sqrt(20 / 84), abs=1e-3)
    assert_array_equal(bd.reject[0], [False, False, False, True])
    # Sec. 3.2.2 (Holm, control C4.5): unadjusted p = 0.016 (m+cf), 0.019 (m)
    z = rank_z_test(DEMSAR)
    assert_allclose(z.pvalue[0, [3, 1]], [0.016, 0.019], atol=1e-3)


def test_demsar_wilcoxon_and_sign():
    # Demšar Sec. 3.1.3, C4.5+m vs C4.5: zeros split, R+ = 93, R- = 12,
    # z = -2.55 (normal approximation), significant at 0.05. Scores scaled to
    # integers so that equal differences tie exactly.
    a, b = np.round(DEMSAR[:, 1] * 1000), np.round(DEMSAR[:, 0] * 1000)
    res = wilcoxon_datasets(a, b)
    assert res.statistic == 12.0
    ref = stats.wilcoxon(a - b, zero_method="zsplit", method="asymptotic")
    assert_allclose(res.pvalue, ref.pvalue, rtol=1e-12)
    assert res.pvalue < 0.05
    # Sign test: 10 wins, 2 losses, 2 ties -> split 11 vs 3 (Demšar: 11 of 14).
    split = sign_test_datasets(DEMSAR[:, 1], DEMSAR[:, 0])
    assert split.statistic == 11.0
    assert split.pvalue == pytest.approx(stats.binomtest(11, 14).pvalue)
    drop = sign_test_datasets(DEMSAR[:, 1], DEMSAR[:, 0], ties="drop")
    assert drop.statistic == 10.0
    assert drop.pvalue == pytest.approx(sign_test(DEMSAR[:, 1] - DEMSAR[:, 0]).pvalue)


# ---------------------------------------------------------------------------
# Friedman: cross-checks and degenerate input
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("L", [3, 5])
def test_friedman_tie_correction_matches_scipy(rng, L):
    x = np.round(rng.uniform(0.6, 0.9, size=(12, L)), 1)      # many ties
    res = friedman_test(x)                                    # the default: tie-corrected
    assert res.tie_correction and "tie-corrected" in res.form
    ref = stats.friedmanchisquare(*(-x).T)
    assert_allclose([res.statistic, res.pvalue], [ref.statistic, ref.pvalue], rtol=1e-10)
    plain = friedman_test(x, tie_correction=False)
    assert not plain.tie_correction and "Demšar" in plain.form
    assert plain.statistic <= res.statistic


def _tied_table():
    """4 learners x 12 data sets: learners 1-3 tie three ways on 3 data sets, 0 and 3 on 2."""
    base = np.array([[0.91, 0.88, 0.85, 0.80], [0.72, 0.75, 0.70, 0.69],
                     [0.83, 0.80, 0.81, 0.78], [0.95, 0.93, 0.94, 0.90],
                     [0.66, 0.61, 0.64, 0.60], [0.79, 0.81, 0.77, 0.74],
                     [0.88, 0.85, 0.86, 0.84], [0.70, 0.68, 0.71, 0.65],
                     [0.77, 0.80, 0.80, 0.80], [0.90, 0.87, 0.87, 0.87],
                     [0.62, 0.64, 0.64, 0.64], [0.85, 0.82, 0.83, 0.85]])
    return base


@pytest.mark.parametrize("table", ["three_way", "random_rounded", "errors"])
def test_friedman_default_equals_scipy_on_tied_tables(rng, table):
    # scipy's friedmanchisquare (and R's friedman.test) apply the tie correction; so does
    # the default. Iman-Davenport's F is derived from the chi2 returned.
    x = {"three_way": _tied_table(),
         "random_rounded": np.round(rng.uniform(0.7, 0.8, size=(20, 6)), 2),
         "errors": np.round(rng.uniform(0.1, 0.3, size=(9, 3)), 1)}[table]
    hib = table != "errors"
    res = friedman_test(x, higher_is_better=hib)
    ref = stats.friedmanchisquare(*(-x if hib else x).T)
    assert_allclose([res.statistic, res.pvalue], [ref.statistic, ref.pvalue], rtol=1e-12)
    S, L = x.shape
    f = (S - 1) * ref.statistic / (S * (L - 1) - ref.statistic)
    assert_allclose(res.iman_davenport, f, rtol=1e-12)
    assert_allclose(res.iman_davenport_pvalue, stats.f.sf(f, L - 1, (L - 1) * (S - 1)),
                    rtol=1e-10)
    plain = friedman_test(x, higher_is_better=hib, tie_correction=False)
    assert plain.statistic < res.statistic                  # the tables do tie
    assert plain.iman_davenport < res.iman_davenport


def test_friedman_without_ties_equals_scipy(rng):
    x = rng.random((9, 4))
    res = friedman_test(x)
    ref = stats.friedmanchisquare(*x.T)
    assert_allclose([res.statistic, res.pvalue], [ref.statistic, ref.pvalue], rtol=1e-10)
    assert_allclose(friedman_test(x, tie_correction=True).statistic, res.statistic)


def test_friedman_two_learners_is_sign_statistic(rng):
    # L = 2 without ties: chi2_F = (w - l)^2 / S.
    x = rng.random((11, 2))
    w = np.sum(x[:, 0] > x[:, 1])
    assert_allclose(friedman_test(x).statistic, (w - (11 - w)) ** 2 / 11)


@pytest.mark.parametrize("tc", [False, True])
def test_friedman_all_tied(tc):
    res = friedman_test(np.full((5, 4), 0.8), tie_correction=tc)
    assert (res.statistic, res.pvalue) == (0.0, 1.0)
    assert (res.iman_davenport, res.iman_davenport_pvalue) == (0.0, 1.0)
    assert_array_equal(res.average_ranks, 2.5)


def test_friedman_perfect_concordance():
    res = friedman_test(np.tile([0.9, 0.8, 0.7], (6, 1)))
    assert res.statistic == pytest.approx(12.0)                # S (L - 1)
    assert res.iman_davenport == np.inf and res.iman_davenport_pvalue == 0.0


def test_higher_is_better_false_on_errors(rng):
    acc = rng.random((8, 5))
    for f in (average_ranks,):
        assert_allclose(f(acc), f(1 - acc, higher_is_better=False))
    for f in (holm_test, shaffer_test, bergmann_hommel_test):
        assert_allclose(f(acc).pvalue, f(1 - acc, higher_is_better=False).pvalue)
    assert friedman_test(acc).statistic == pytest.approx(
        friedman_test(1 - acc, higher_is_better=False).statistic)


# ---------------------------------------------------------------------------
# Post-hoc procedures
# ---------------------------------------------------------------------------

def test_rank_z_matrix(rng):
    x = rng.random((10, 4))
    res = rank_z_test(x)
    R = average_ranks(x)
    assert_allclose(res.statistic, (R[:, None] - R) / math.sqrt(4 * 5 / 60))
    assert_allclose(res.statistic, -res.statistic.T)
    assert_allclose(res.pvalue, 2 * stats.norm.sf(np.abs(res.statistic)))


def test_nemenyi_q_demsar_table5a():
    # Demšar (2006) Table 5(a), q_0.05 for L = 2..6 (truncated to 3 decimals).
    q = [critical_difference(L, 6, 0.05) / math.sqrt(L * (L + 1) / 36) for L in range(2, 7)]
    assert_allclose(q, [1.960, 2.343, 2.569, 2.728, 2.850], atol=1.1e-3)


def test_nemenyi_pvalue_consistent_with_cd(rng):
    x = rng.random((20, 5))
    res = nemenyi_test(x, alpha=0.1)
    diff = np.abs(res.average_ranks[:, None] - res.average_ranks)
    expect = diff >= res.critical_difference
    np.fill_diagonal(expect, False)
    assert_array_equal(res.reject, expect)
    bonf = nemenyi_test(x, pvalue="bonferroni")
    ref = multipletests(_upper(res.unadjusted_pvalue), method="bonferroni")[1]
    assert_allclose(_upper(bonf.pvalue), ref)
    assert np.all(_upper(bonf.pvalue) >= _upper(res.pvalue) - 1e-12)


@pytest.mark.parametrize("L", [3, 4, 6])
def test_holm_matches_statsmodels(rng, L):
    res = holm_test(rng.random((15, L)) + np.linspace(0, 0.5, L))
    ref = multipletests(_upper(res.unadjusted_pvalue), method="holm")[1]
    assert_allclose(_upper(res.pvalue), ref, rtol=1e-12)
    assert_array_equal(res.reject, (res.pvalue <= 0.05) & ~np.eye(L, dtype=bool))


def test_bonferroni_dunn(rng):
    x = rng.random((12, 4))
    res = bonferroni_dunn_test(x, control=-1)
    assert_allclose(res.pvalue[3, :3], np.minimum(1, 3 * res.unadjusted_pvalue[3, :3]))
    assert np.isnan(res.pvalue[0, 1]) and not res.reject[0, 1]
    assert_allclose(res.pvalue, res.pvalue.T)


def _exhaustive_sets(L):
    """Brute force: sets of pairs closed under transitivity (equivalence relations)."""
    pairs = list(itertools.combinations(range(L), 2))
    out = []
    for mask in range(2 ** len(pairs)):
        S = {pairs[k] for k in range(len(pairs)) if mask >> k & 1}
        ok = all((min(a, c), max(a, c)) in S
                 for (a, b) in S for (b2, c) in pairs if b2 == b and (b, c) in S and a != c)
        ok = ok and all((min(a, c), max(a, c)) in S
                        for (a, b) in S for (c, b2) in S if b2 == b and a != c)
        ok = ok and all((min(b, c), max(b, c)) in S
                        for (a, b) in S for (a2, c) in S if a2 == a and b != c)
        if ok:
            out.append(S)
    return pairs, out


def test_shaffer_sets_by_hand_and_brute_force():
    assert _shaffer_set(4) == {0, 1, 2, 3, 6}
    assert _shaffer_set(5) == {0, 1, 2, 3, 4, 6, 10}
    assert_array_equal(_shaffer_multipliers(4), [6, 3, 3, 3, 2, 1])   # García & Herrera
    for L in (3, 4, 5):
        _, sets = _exhaustive_sets(L)
        assert {len(s) for s in sets} == _shaffer_set(L)
        assert len(sets) == [1, 1, 2, 5, 15, 52][L]               # Bell numbers


@pytest.mark.parametrize("L", [4, 5])
def test_bergmann_hommel_brute_force(rng, L):
    res = bergmann_hommel_test(rng.random((10, L)) + np.linspace(0, 0.6, L))
    pairs, sets = _exhaustive_sets(L)
    p = {pr: res.unadjusted_pvalue[pr] for pr in pairs}
    for pr in pairs:
        ref = max(len(s) * min(p[q] for q in s) for s in sets if pr in s)
        assert res.pvalue[pr] == pytest.approx(min(1.0, ref), rel=1e-12)


def test_bergmann_hommel_equals_shaffer_for_three(rng):
    x = rng.random((9, 3)) + [0, 0.2, 0.4]
    assert_allclose(bergmann_hommel_test(x).pvalue, shaffer_test(x).pvalue)


@pytest.mark.parametrize("L", [3, 4, 5, 6, 7])
def test_adjusted_pvalue_ordering(rng, L):
    for _ in range(20):
        x = rng.random((rng.integers(5, 30), L)) + rng.uniform(0, 0.4) * np.arange(L)
        bh, sh, ho = (_upper(f(x).pvalue) for f in (bergmann_hommel_test, shaffer_test,
                                                     holm_test))
        p = _upper(rank_z_test(x).pvalue)
        tol = 1e-12
        assert np.all(bh <= sh + tol) and np.all(sh <= ho + tol)
        assert np.all(bh >= p - tol)
        assert np.all(_upper(nemenyi_test(x, pvalue="bonferroni").pvalue) >= ho - tol)


@pytest.mark.parametrize("f", ALL_PAIRS)
def test_all_tied_gives_p_one(f):
    res = f(np.full((6, 4), 0.75))
    assert_array_equal(res.pvalue, 1.0)
    assert not res.reject.any()


@pytest.mark.parametrize("f", ALL_PAIRS + (rank_z_test,))
def test_two_learners_all_equal_unadjusted(rng, f):
    x = rng.random((10, 2))
    res = f(x)
    assert_allclose(res.pvalue, res.unadjusted_pvalue, rtol=1e-8)
    assert res.pvalue.shape == res.reject.shape == (2, 2)


def test_single_dataset():
    """One data set: its ranks are defined, every test over data sets refuses it, as
    Friedman's does (issue 33: the post-hoc procedures returned p-values)."""
    from calibsim.stats import (bergmann_hommel_test, bonferroni_dunn_test, nemenyi_test,
                                posthoc_from_ranks, rank_z_test, shaffer_test)
    x = [[0.9, 0.7, 0.8]]
    assert_array_equal(average_ranks(x), [1, 3, 2])
    for test in (friedman_test, holm_test, shaffer_test, bergmann_hommel_test, nemenyi_test,
                 bonferroni_dunn_test, rank_z_test):
        with pytest.raises(ValueError, match="at least 2 data set"):
            test(x)
    with pytest.raises(ValueError, match="`n_datasets` must be an integer >= 2"):
        posthoc_from_ranks([1.0, 3.0, 2.0], 1, method="holm")


def test_bergmann_hommel_largest_L(rng):
    L = BERGMANN_HOMMEL_MAX_LEARNERS
    assert L == 12
    with pytest.raises(ValueError, match="at most 12 learners.*got L = 13"):
        bergmann_hommel_test(rng.random((5, 13)))
    res = bergmann_hommel_test(rng.random((5, 9)))               # fast path check
    assert res.pvalue.shape == (9, 9)


# ---------------------------------------------------------------------------
# Two learners over data sets and validation
# ---------------------------------------------------------------------------

def test_sign_test_split_and_degenerate():
    a = [0.9, 0.8, 0.7, 0.7, 0.6, 0.9, 0.8]
    b = [0.8, 0.7, 0.7, 0.6, 0.5, 0.8, 0.9]
    assert sign_test_datasets(a, b).statistic == 5.0             # one tie: dropped
    assert sign_test_datasets(a, b, alternative="greater").pvalue == pytest.approx(
        stats.binomtest(5, 6, alternative="greater").pvalue)
    assert sign_test_datasets(b, a, higher_is_better=False).statistic == 5.0
    assert sign_test_datasets([1.0], [1.0]).pvalue == 1.0
    assert sign_test_datasets([1.0, 1.0], [1.0, 1.0]).statistic == 1.0   # 1 vs 1
    res = wilcoxon_datasets([0.5, 0.6], [0.5, 0.6])
    assert (res.statistic, res.pvalue) == (0.0, 1.0)


@pytest.mark.parametrize("zm", ["wilcox", "pratt", "zsplit"])
def test_wilcoxon_matches_scipy(rng, zm):
    a, b = rng.random((2, 20))
    a[:3] = b[:3]
    res = wilcoxon_datasets(a, b, zero_method=zm, alternative="greater")
    ref = stats.wilcoxon(a - b, zero_method=zm, alternative="greater")
    assert_allclose([res.statistic, res.pvalue], [ref.statistic, ref.pvalue])


@pytest.mark.parametrize("call, exc, match", [
    (lambda: average_ranks([0.1, 0.2]), ValueError, "must be 2-D"),
    (lambda: friedman_test([[0.1], [0.2]]), ValueError, "at least 2 learners"),
    (lambda: holm_test([[0.1, np.nan]]), ValueError, "finite"),
    (lambda: holm_test([[0.1, 0.2]], alpha=1.5), ValueError, "`alpha` must lie in"),
    (lambda: shaffer_test([[0.1, 0.2]], higher_is_better="yes"), TypeError,
     "`higher_is_better` must be a bool"),
    (lambda: friedman_test([[0.1, 0.2]] * 3, tie_correction=1), TypeError, "`tie_correction`"),
    (lambda: bonferroni_dunn_test([[0.1, 0.2]] * 2, control=2), ValueError, "`control`"),
    (lambda: nemenyi_test([[0.1, 0.2]] * 2, pvalue="tukey"), ValueError, "`pvalue` must be one of"),
    (lambda: critical_difference(1, 5), ValueError, "`n_learners`"),
    (lambda: critical_difference(3, 0), ValueError, "`n_datasets`"),
    (lambda: sign_test_datasets([1, 2], [1, 2], ties="half"), ValueError, "`ties` must be one"),
    (lambda: sign_test_datasets([1, 2], [1, 2, 3]), ValueError, "same shape"),
    (lambda: wilcoxon_datasets([1, 2], [1, 3], zero_method="x"), ValueError, "`zero_method`"),
    (lambda: wilcoxon_datasets([], []), ValueError, "non-empty"),
])
def test_validation(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
