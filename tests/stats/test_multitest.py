"""Tests of calibsim.stats._multitest, _multitest_ranks and _multitest_datasets."""

import itertools

import networkx as nx
import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from calibsim.stats import (
    bergmann_hommel_test,
    cv5x2_ftest,
    cv5x2_ttest,
    friedman_from_ranks,
    friedman_test,
    holm_test,
    multi2test,
    multi2test_from_ranks,
    multitest,
    multitest_order,
    nemenyi_test,
    normalised_cost,
    posthoc_from_ranks,
    shaffer_test,
)
from calibsim.stats._multitest import _TESTS, _correct, _pairwise_pvalues

ABCD = ["A", "B", "C", "D"]
ABC = ["a", "b", "c"]


def _naive_order(better, prior):
    """Reference sort: repeatedly take the cheapest learner with no better costlier one left."""
    left, order = set(range(len(prior))), []
    while left:
        sinks = [a for a in left if not any(better[b, a] and prior[b] > prior[a] for b in left)]
        pick = min(sinks, key=lambda a: prior[a])
        order.append(pick)
        left.remove(pick)
    return order


# ---------------------------------------------------------------------------
# multitest_order: the graph and the topological sort
# ---------------------------------------------------------------------------

def test_no_significant_difference_gives_the_prior_order():
    res = multitest_order(np.zeros((4, 4), bool), cost=[3.0, 1.0, 4.0, 2.0], learners=ABCD)
    assert res.order == ("B", "D", "A", "C") == res.prior_order
    assert res.overrides == () and res.graph.number_of_edges() == 0
    assert_array_equal(res.ranks, [3, 1, 4, 2])


def test_cheaper_better_entries_add_no_edge():
    better = np.zeros((3, 3), bool)
    better[0, 2] = True                      # the cheapest beats the costliest: agrees with prior
    res = multitest_order(better, cost=ABC, learners=ABC)
    assert res.graph.number_of_edges() == 0 and res.order == ("a", "b", "c")


def test_edge_direction_and_attributes():
    better = np.zeros((3, 3), bool)
    better[2, 0] = True                      # c (costliest) beats a (cheapest)
    res = multitest_order(better, cost=ABC, learners=ABC)
    assert list(res.graph.edges) == [("a", "c")]
    assert nx.get_node_attributes(res.graph, "prior_rank") == {"a": 1, "b": 2, "c": 3}
    # sinks b, c: b is cheaper; then c; a last
    assert res.order == ("b", "c", "a")
    assert res.candidates == (("b", "c"), ("c",), ("a",))


def test_sort_matches_a_naive_implementation(rng):
    for _ in range(300):
        L = int(rng.integers(2, 8))
        raw = rng.random((L, L)) < 0.3
        better = raw & ~raw.T
        np.fill_diagonal(better, False)
        prior = rng.permutation(L)
        res = multitest_order(better, cost=prior.astype(float))
        assert [int(n) for n in res.order] == _naive_order(better, prior)
        assert nx.is_directed_acyclic_graph(res.graph)


def test_cost_names_and_numbers_agree():
    better = [[0, 0, 0], [0, 0, 0], [1, 0, 0]]
    by_names = multitest_order(better, cost=["y", "x", "z"], learners=["x", "y", "z"])
    by_cost = multitest_order(better, cost=[2.0, 1.0, 3.0], learners=["x", "y", "z"])
    assert by_names.order == by_cost.order == ("y", "z", "x")
    assert "prior preferences overridden" in str(by_names)


@pytest.mark.parametrize("better, match", [
    (np.zeros((3, 2)), "square"),
    ([[1, 0], [0, 0]], "zero diagonal"),
    ([[0, 1], [1, 0]], "never say both"),
    ([[0, 2], [0, 0]], "0/1"),
])
def test_better_validation(better, match):
    with pytest.raises(ValueError, match=match):
        multitest_order(better, cost=[1.0, 2.0, 3.0][:np.shape(better)[0]])


def test_cost_validation():
    z = np.zeros((3, 3))
    with pytest.raises(ValueError, match="strictly"):
        multitest_order(z, cost=[1.0, 1.0, 2.0])
    with pytest.raises(ValueError, match="shape"):
        multitest_order(z, cost=[1.0, 2.0])
    with pytest.raises(ValueError, match="permutation"):
        multitest_order(z, cost=["a", "b", "q"], learners=ABC)
    with pytest.raises(ValueError, match="required"):
        multitest_order(z, cost=None)
    with pytest.raises(ValueError, match="distinct"):
        multitest_order(z, cost=[1.0, 2.0, 3.0], learners=["a", "a", "b"])


# ---------------------------------------------------------------------------
# multitest: pairwise tests and corrections
# ---------------------------------------------------------------------------

def _errors(rng, p, n=100):
    return rng.binomial(n, np.asarray(p)[:, None, None], size=(len(p), 5, 2)) / n


def test_cv5x2_f_is_used_one_sidedly(rng):
    err = _errors(rng, [0.4, 0.3, 0.2])
    res = multitest(err, cost=[1.0, 2.0, 3.0], correction="none")
    for a, b in itertools.combinations(range(3), 2):       # a cheaper than b
        d = err[a] - err[b]
        want = cv5x2_ftest(d).pvalue if d.mean() > 0 else 1.0
        assert res.unadjusted_pvalue[b, a] == pytest.approx(want, rel=1e-12)
        assert np.isnan(res.pvalue[a, b])                  # the other direction is not tested


def test_cv5x2_t_and_bonferroni(rng):
    err = _errors(rng, [0.35, 0.3, 0.25, 0.2])
    res = multitest(err, cost=[4.0, 3.0, 2.0, 1.0], pairwise_test="cv5x2_t")
    # prior: learner 3 cheapest ... learner 0 costliest
    assert res.prior_order == ("3", "2", "1", "0")
    p01 = cv5x2_ttest(err[1] - err[0], alternative="greater").pvalue   # 1 cheaper than 0
    assert res.unadjusted_pvalue[0, 1] == pytest.approx(p01, rel=1e-12)
    assert res.pvalue[0, 1] == pytest.approx(min(1.0, 6 * p01), rel=1e-12)
    assert_array_equal(res.better, res.pvalue <= 0.05)


def _holm_reference(p):
    """Holm (1979) written out: k-th smallest p times (m - k), running maximum, capped at 1."""
    m, order = len(p), sorted(range(len(p)), key=lambda k: p[k])
    out, running = [0.0] * m, 0.0
    for rank, k in enumerate(order):
        running = max(running, (m - rank) * p[k])
        out[k] = min(1.0, running)
    return out


def test_holm_and_bonferroni_corrections(rng):
    p = rng.random((50, 6)) ** 3
    ref = np.array([_holm_reference(list(row)) for row in p])
    assert_allclose(_correct(p, "holm"), ref, rtol=1e-12)
    assert_allclose(_correct(p, "bonferroni"), np.minimum(1, 6 * p))


def test_callable_and_paired_t(rng):
    err = _errors(rng, [0.5, 0.2])
    calls = []

    def always(e_cheap, e_costly):
        calls.append(e_cheap.shape)
        return np.zeros(e_cheap.shape[:-2])

    res = multitest(err, cost=[1.0, 2.0], pairwise_test=always)
    assert res.order == ("1", "0") and res.pairwise_test == "always" and calls == [(1, 5, 2)]
    assert multitest(err.reshape(2, 10), cost=[1.0, 2.0], pairwise_test="paired_t").order \
        == ("1", "0")


def test_multitest_validation(rng):
    with pytest.raises(ValueError, match="5, 2"):
        multitest(rng.random((3, 10)), cost=[1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="pairwise_test"):
        multitest(rng.random((3, 5, 2)), cost=[1.0, 2.0, 3.0], pairwise_test="wilcoxon")
    with pytest.raises(ValueError, match="correction"):
        multitest(rng.random((3, 5, 2)), cost=[1.0, 2.0, 3.0], correction="fdr")
    with pytest.raises(ValueError, match="p-values in"):
        multitest(rng.random((2, 5, 2)), cost=[1.0, 2.0], pairwise_test=lambda a, b: 2.0)


def test_family_wise_error_under_the_null():
    # Equal error rates: the chance that any prior preference is overridden must not
    # exceed alpha (Bonferroni over 6 one-sided F tests), within Monte Carlo error.
    rng = np.random.default_rng(2012)
    n, alpha = 4000, 0.05
    err = rng.binomial(100, 0.3, size=(4, n, 5, 2)) / 100
    i, j = np.triu_indices(4, k=1)
    p = _correct(_pairwise_pvalues(err, i, j, _TESTS["cv5x2_f"], 2), "bonferroni")
    fwer = np.mean((p <= alpha).any(axis=-1))
    assert fwer <= alpha + 3 * np.sqrt(alpha * (1 - alpha) / n)


# ---------------------------------------------------------------------------
# From average ranks: Friedman and the post-hoc procedures
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("S, L", [(14, 4), (30, 6), (9, 3)])
def test_from_ranks_equals_the_score_functions(rng, S, L):
    x = np.round(rng.random((S, L)), 1)                  # rounding makes ties
    fr = friedman_test(x, tie_correction=False)          # average ranks carry no ties
    R = fr.average_ranks
    fr2 = friedman_from_ranks(R, S)
    for name in ("statistic", "pvalue", "iman_davenport", "iman_davenport_pvalue"):
        assert getattr(fr2, name) == pytest.approx(getattr(fr, name), rel=1e-10)
    for method, func in (("bergmann_hommel", bergmann_hommel_test), ("holm", holm_test),
                         ("shaffer", shaffer_test), ("nemenyi", nemenyi_test)):
        a, b = posthoc_from_ranks(R, S, method=method), func(x)
        assert_allclose(a.pvalue, b.pvalue, rtol=1e-10)
        assert_array_equal(a.reject, b.reject)
        assert_allclose(a.unadjusted_pvalue, b.unadjusted_pvalue, rtol=1e-10)


def test_from_ranks_broadcasts_over_leading_axes(rng):
    R = np.stack([rng.permutation(5) + 1.0 for _ in range(7)]) * 0.5 + 1.5
    batch = posthoc_from_ranks(R, 20, method="bergmann_hommel")
    assert batch.pvalue.shape == (7, 5, 5)
    for k in range(7):
        assert_allclose(batch.pvalue[k], posthoc_from_ranks(R[k], 20).pvalue, rtol=1e-12)
    assert friedman_from_ranks(R, 20).pvalue.shape == (7,)


def test_friedman_from_ranks_centres_rounded_published_ranks():
    # Ulaş et al. (2012) Table 7 prints ranks rounded to two decimals that sum to
    # 36.01, not L(L+1)/2 = 36: the centred form (documented) gives 93.40, the
    # uncentred textbook form sum(R^2) - L(L+1)^2/4 gives 93.97. On exact ranks the
    # two agree.
    from calibsim.papers.ulas2012 import AVERAGE_RANKS, N_DATASETS
    R = np.asarray(AVERAGE_RANKS["table7"], dtype=float)
    L, S = R.size, N_DATASETS
    assert R.sum() == pytest.approx(36.01)
    chi2 = friedman_from_ranks(R, S).statistic
    uncentred = 12 * S / (L * (L + 1)) * (np.sum(R ** 2) - L * (L + 1) ** 2 / 4)
    assert chi2 == pytest.approx(93.40, abs=0.005)
    assert uncentred == pytest.approx(93.97, abs=0.005)
    # Table 5(a) sums to 36.01 too (56.33 vs 56.90); Table 8(a) sums to 36 (forms equal).
    R5, R8 = (np.asarray(AVERAGE_RANKS[t], dtype=float) for t in ("table5", "table8"))
    assert friedman_from_ranks(R5, S).statistic == pytest.approx(56.33, abs=0.005)
    assert 12 * S / (L * (L + 1)) * (np.sum(R5 ** 2) - L * (L + 1) ** 2 / 4) == pytest.approx(
        56.90, abs=0.005)
    assert friedman_from_ranks(R8, S).statistic == pytest.approx(
        12 * S / (L * (L + 1)) * (np.sum(R8 ** 2) - L * (L + 1) ** 2 / 4), rel=1e-12)
    exact = R - (R.sum() - L * (L + 1) / 2) / L          # shift to sum 36
    assert friedman_from_ranks(exact, S).statistic == pytest.approx(
        12 * S / (L * (L + 1)) * (np.sum(exact ** 2) - L * (L + 1) ** 2 / 4), rel=1e-12)


def test_from_ranks_validation():
    with pytest.raises(ValueError, match=r"lie in \[1, 3\]"):
        posthoc_from_ranks([0.5, 2.0, 3.5], 10)
    with pytest.raises(ValueError, match="at most 12"):
        posthoc_from_ranks(np.linspace(1, 13, 13), 10)
    with pytest.raises(ValueError, match=">= 2"):
        friedman_from_ranks([1.0, 2.0], 1)


# ---------------------------------------------------------------------------
# Multi²Test
# ---------------------------------------------------------------------------

def test_normalised_cost():
    assert_allclose(normalised_cost([[1.0, 3.0], [10.0, 10.0]]), [0.375, 0.625])
    with pytest.raises(ValueError, match="positive sum"):
        normalised_cost([[0.0, 0.0], [1.0, 2.0]])


def test_friedman_not_rejecting_gives_the_prior_order():
    ranks = np.array([[1, 2, 3], [3, 2, 1], [2, 1, 3], [2, 3, 1]], float)
    res = multi2test_from_ranks(ranks, cost=[3.0, 1.0, 2.0], learners=list("xyz"))
    assert not res.friedman_rejects and res.posthoc is None
    assert res.order == ("y", "z", "x") == res.prior_order
    assert "no post-hoc test" in str(res)


def test_average_ranks_and_table_give_the_same_second_pass(rng):
    ranks = np.stack([rng.permutation(4) + 1 for _ in range(25)]).astype(float)
    ranks[:, [0, 3]] = np.sort(ranks[:, [0, 3]], axis=1)[:, ::-1]   # 3 often beats 0
    full = multi2test_from_ranks(ranks, cost=ABCD, learners=ABCD)
    short = multi2test_from_ranks(ranks.mean(axis=0), n_datasets=25, cost=ABCD, learners=ABCD)
    assert full.order == short.order and full.overrides == short.overrides
    assert full.friedman.statistic == pytest.approx(short.friedman.statistic)
    assert_array_equal(full.dataset_ranks, ranks)


def test_multi2test_uses_each_data_sets_cost_row(rng):
    err = rng.binomial(200, 0.3, size=(6, 3, 5, 2)) / 200
    cost = np.tile([1.0, 2.0, 3.0], (6, 1))
    cost[0] = [3.0, 2.0, 1.0]
    res = multi2test(err, cost=cost, learners=ABC)
    assert res.per_dataset[0].prior_order == ("c", "b", "a")
    assert res.per_dataset[1].prior_order == ("a", "b", "c")
    assert_allclose(res.average_cost, normalised_cost(cost))
    assert res.prior_order == ("a", "b", "c")
    assert_array_equal(res.dataset_ranks, [r.ranks for r in res.per_dataset])


def test_multi2test_validation(rng):
    err = rng.random((4, 3, 5, 2))
    with pytest.raises(ValueError, match="one row per data set"):
        multi2test(err, cost=np.ones((3, 3)) + np.arange(3))
    with pytest.raises(ValueError, match="n_datasets"):
        multi2test_from_ranks([1.0, 2.0, 3.0], cost=ABC, learners=ABC)
    with pytest.raises(ValueError, match="posthoc"):
        multi2test_from_ranks(np.ones((3, 3)), cost=[1.0, 2.0, 3.0], posthoc="dunn")
    with pytest.raises(ValueError, match="strictly"):
        multi2test(err, cost=[1.0, 1.0, 2.0])
