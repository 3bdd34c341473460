"""Bayle et al.'s cv CLT test and Bates et al.'s nested cv test against hand-worked cases."""

import numpy as np
import pytest
from scipy import stats

from calibsim.stats import (bootstrap_cv_test, bootstrap_cv_train_size, cv_clt_test, get_test,
                            nested_cv_test)

nan = np.nan

# Two folds of two instances; per-instance A-minus-B correctness 1, 0 | 1, 1.
X_CLT = [[1, 0, nan, nan], [nan, nan, 1, 1]]


def test_cv_clt_all_pairs_by_hand():
    # R-hat = 3/4; sigma^2_out = (1/16 + 9/16 + 1/16 + 1/16) / 4 = 3/16; se = sqrt(3/64)
    res = cv_clt_test(X_CLT)
    assert res._estimate == 0.75
    assert res._stderr == pytest.approx(np.sqrt(3 / 64), abs=1e-15)
    assert res.statistic == pytest.approx(0.75 / np.sqrt(3 / 64))
    assert res.pvalue == pytest.approx(2 * stats.norm.sf(0.75 / np.sqrt(3 / 64)))
    assert res.df == np.inf
    lo, hi = res.confidence_interval(0.95)
    assert (lo, hi) == pytest.approx((0.75 - 1.959964 * np.sqrt(3 / 64),
                                      0.75 + 1.959964 * np.sqrt(3 / 64)), abs=1e-6)


def test_cv_clt_within_fold_by_hand():
    # fold variances (ddof 1) 1/2 and 0, mean 1/4; se = sqrt(1/4 / 4) = 1/4
    res = cv_clt_test(X_CLT, variance="within-fold")
    assert res._stderr == pytest.approx(0.25, abs=1e-15)
    assert res.statistic == pytest.approx(3.0)


def test_cv_clt_vectorised_and_one_sided():
    x = np.stack([X_CLT, np.negative(X_CLT)])
    res = cv_clt_test(x, alternative="greater")
    assert res.statistic == pytest.approx([3.4641016, -3.4641016])
    assert res.pvalue[0] < 0.001 < 0.999 < res.pvalue[1]


def test_cv_clt_zero_variance():
    same = [[0, 0, nan], [nan, nan, 0]]
    res = cv_clt_test(same)
    assert res.statistic == 0 and res.pvalue == 1
    res = cv_clt_test([[1, 1, nan], [nan, nan, 1]])
    assert res.statistic == np.inf and res.pvalue == 0


@pytest.mark.parametrize("x, message", [
    ([1.0, 0.0], "at least 2 dimensions"),
    ([[1, 0], [1, nan]], "at most one fold"),
    ([[1, 0], [nan, nan]], "every fold"),
    ([[1, np.inf], [nan, nan]], "finite"),
])
def test_cv_clt_refuses(x, message):
    with pytest.raises(ValueError, match=message):
        cv_clt_test(x)


def test_cv_clt_refuses_within_fold_on_loo_and_bad_choice():
    loo = [[1, nan, nan], [nan, 0, nan], [nan, nan, 1]]
    assert np.isfinite(cv_clt_test(loo).statistic)        # all-pairs is defined for LOO
    with pytest.raises(ValueError, match="within-fold"):
        cv_clt_test(loo, variance="within-fold")
    with pytest.raises(ValueError, match="`variance`"):
        cv_clt_test(X_CLT, variance="pooled")


def _ncv_case():
    """R = 1, K = 3, folds {0, 1}, {2, 3}, {4, 5}; rows (k, j) as in the docstring."""
    folds = np.array([0, 0, 1, 1, 2, 2])
    vals = {(0, 0): [1, 0], (1, 1): [1, 1], (2, 2): [0, 0],      # outer
            (0, 1): [1, 0], (0, 2): [1, 1], (1, 0): [0, 0], (1, 2): [1, 0],
            (2, 0): [1, 1], (2, 1): [0, 1]}
    x = np.full((1, 3, 3, 6), nan)
    for (k, j), v in vals.items():
        x[0, k, j, folds == j] = v
    return x


def test_nested_cv_by_hand():
    res = nested_cv_test(_ncv_case())
    # a_k = (3/4 - 1/2, 1/4 - 1, 3/4 - 0); b_k = (1/2 / 2, 0, 0)
    assert res.mse == pytest.approx(((0.0625 - 0.25) + 0.5625 + 0.5625) / 3)   # 0.3125
    assert res.err_ncv == pytest.approx(7 / 12)                 # 7 of 12 inner values are 1
    assert res.err_cv == pytest.approx(0.5)
    assert res.bias == pytest.approx((1 + (1 / 3) ** 1.5) * (7 / 12 - 0.5))
    sd = np.std([1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 1], ddof=1)
    # inflation sqrt(0.3125) / (sd / sqrt(4)) = 2.17 is clipped to sqrt(K) = sqrt(3)
    assert sd == pytest.approx(np.sqrt((7 - 12 * (7 / 12) ** 2) / 11))
    assert res.inflation == pytest.approx(np.sqrt(3))
    assert res._stderr == pytest.approx(sd / np.sqrt(6) * np.sqrt(3))
    assert res._estimate == pytest.approx(7 / 12 - res.bias)
    assert res.statistic == pytest.approx(res._estimate / res._stderr)
    assert res.df == np.inf


def test_nested_cv_inflation_floor_and_no_bias_correction():
    x = _ncv_case()
    # outer values equal to the inner mean of their fold's training set: a_k = 0, so
    # MSE < 0 and the inflation takes its floor 1 (the naive standard error)
    x[0, 0, 0, :2], x[0, 1, 1, 2:4], x[0, 2, 2, 4:] = [1, 0], [0, 0], [1, 1]
    res = nested_cv_test(x, bias_correction=False)
    assert res.inflation == 1.0 and res.bias == 0.0
    assert res._estimate == pytest.approx(res.err_ncv)


@pytest.mark.parametrize("edit, message", [
    (lambda x: x[..., :2, :2, :], "K >= 3"),
    (lambda x: np.where((np.arange(3)[:, None, None] == 1) & (np.arange(6) == 0), nan, x),
     "exactly for the instances"),
    (lambda x: np.where(np.arange(6) == 0, nan, x), "at least two instances"),
])
def test_nested_cv_refuses(edit, message):
    with pytest.raises(ValueError, match=message):
        nested_cv_test(edit(_ncv_case()))


def test_registry_entries():
    spec = get_test("bayle_cv_clt")
    x = np.array(X_CLT)[None]                  # one run: (r=1, k=2, n=4)
    assert spec(x).statistic == pytest.approx(cv_clt_test(X_CLT).statistic)
    with pytest.raises(ValueError, match="`df` must be None"):
        spec(x, 3)
    assert get_test("ncv")(_ncv_case()).statistic == nested_cv_test(_ncv_case()).statistic


def _tiny(seed=0, n=40):
    from calibsim.datasets._loaders import from_arrays
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, size=(n, 3))
    y = (X[:, 0] + rng.integers(0, 2, size=n)) % 2
    return from_arrays(X, y, n_values=np.full(3, 3), name="tiny")


def test_compare_bayle_leaves_the_fold_accuracies_alone_and_pools_run_one():
    import calibsim
    ds = _tiny()
    base = calibsim.compare("naive_bayes", "c45", ds, design="3x4", progress=False,
                            replicability=None, df="textbook")
    res = calibsim.compare("naive_bayes", "c45", ds, design="3x4", test="bayle_cv_clt",
                           progress=False)
    assert res.scores.equals(base.scores) and res.difference == base.difference
    # the estimate pools run 0's instances: the folds' differences weighted by fold size
    sizes = res.test_masks[0].sum(-1)
    run0 = res.scores[res.scores["run"] == 0]["difference"].to_numpy()
    assert res.estimate == pytest.approx(float((run0 * sizes).sum() / sizes.sum()))
    assert res.df != res.df and 0 <= res.pvalue <= 1          # no df: normal reference
    lo, hi = res.confidence_interval
    assert lo < res.estimate < hi
    assert 0 <= res.p_reject <= 1                              # the runs' own verdicts
    with pytest.raises(ValueError, match="need each instance"):
        calibsim.compare_scores(base.scores["accuracy_a"].to_numpy().reshape(3, 4),
                                base.scores["accuracy_b"].to_numpy().reshape(3, 4),
                                design="3x4", test="bayle_cv_clt")


def test_compare_ncv_on_a_nested_design():
    import calibsim
    ds = _tiny()
    res = calibsim.compare("naive_bayes", "c45", ds, design="ncv:2x4", test="ncv",
                           progress=False, replicability="rerun", n_repeats=2)
    assert res.design == "ncv:2x4" and res.scores.shape == (8, 5)   # the outer splits
    assert res.test_masks.shape == (2, 4, 40)
    assert 0 <= res.pvalue <= 1 and 0 <= res.p_reject <= 1
    from calibsim.schemes import NestedCV        # the splitter as cv: the same design
    same = calibsim.compare("naive_bayes", "c45", ds, cv=NestedCV(n_folds=4, n_runs=2,
                                                                  random_state=0),
                            progress=False, replicability=None)
    assert same.design == "ncv:2x4" and same.test == "ncv" and same.pvalue == res.pvalue
    with pytest.raises(ValueError, match="it fits nested cv"):
        calibsim.compare("naive_bayes", "c45", ds, design="2x4", test="ncv", progress=False)
    with pytest.raises(ValueError, match="it fits k-fold cv"):
        calibsim.compare("naive_bayes", "c45", ds, design="ncv:2x4", test="bayle_cv_clt",
                         progress=False)
    with pytest.raises(ValueError, match="is a nested cv design"):      # no folds to rank
        calibsim.compare_datasets(["naive_bayes", "c45"], [ds, _tiny(1)], design="ncv:2x4",
                                  progress=False)


def test_bootstrap_cv_by_hand():
    x = [[1, 3], [2, 2], [5, 7]]          # row means 2, 2, 6; grand mean 10/3
    # MS_B = 2 * ((4/3)^2 + (4/3)^2 + (8/3)^2) / 2 = 32/3; MS_W = (1+1+0+0+1+1) / 3 = 4/3
    res = bootstrap_cv_test(x, 3.0, n_instances=90, n_train=50, adjust=False)
    assert res._stderr == pytest.approx(np.sqrt((32 / 3 - 4 / 3) / 2))
    assert res.statistic == pytest.approx(3.0 / np.sqrt(14 / 3)) and res.df == np.inf
    # m_adj = 61 of the candidates 50 .. 86 for n = 90, m = 50 (criterion 0.141 there)
    assert bootstrap_cv_train_size(90, 50) == 61
    adj = bootstrap_cv_test(x, 3.0, n_instances=90, n_train=50)
    assert adj._stderr == pytest.approx(np.sqrt(14 / 3) * np.sqrt((90 - 61 + 0.632 * 61) / 90))
    assert not res.at_bound and res.variance_component == pytest.approx(14 / 3)


def test_bootstrap_cv_at_the_bound():
    # between-sample variation below the within one: the component is cut to 0 and the
    # standard error is the stated bound sqrt(MS_W / C), not 0 (which gave z = inf, p = 0)
    x = [[0, 1], [1, 0], [0, 1]]           # row means all 1/2: MS_B = 0; MS_W = 1/2
    res = bootstrap_cv_test(x, 0.25, n_instances=90, n_train=50, adjust=False)
    assert res.at_bound and res.variance_component == 0
    assert res._stderr == pytest.approx(np.sqrt(0.5 / 2))
    assert np.isfinite(res.statistic) and res.pvalue == pytest.approx(
        2 * stats.norm.sf(0.25 / 0.5))
    # only values all equal give a zero standard error, as the t tests' zero variance
    flat = bootstrap_cv_test(np.ones((3, 2)), 0.0, n_instances=90, n_train=50)
    assert flat._stderr == 0 and flat.pvalue == 1 and flat.at_bound
    # elementwise over leading dimensions
    both = bootstrap_cv_test(np.stack([x, [[1, 3], [2, 2], [5, 7]]]), [0.25, 3.0],
                             n_instances=90, n_train=50, adjust=False)
    assert both.at_bound.tolist() == [True, False]
    assert both._stderr[1] == pytest.approx(np.sqrt(14 / 3))


def test_bootstrap_cv_refuses():
    with pytest.raises(ValueError, match="B >= 2"):
        bootstrap_cv_test([[1, 2]], 0.0, n_instances=10, n_train=5)
    with pytest.raises(ValueError, match="`n_train`"):
        bootstrap_cv_test([[1, 2], [3, 4]], 0.0, n_instances=10, n_train=10)
    with pytest.raises(ValueError, match="`estimate`"):
        bootstrap_cv_test([[1, 2], [3, 4]], [0.0, 1.0, 2.0], n_instances=10, n_train=5)
