"""calibsim.compare: two (or more) learners on one data set with a calibrated test."""

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from calibsim.engine.scoring import Block, parse_design, parse_learner, score_block
from calibsim.comparison import DesignWarning, compare, compare_all
from calibsim.datasets import load_uci
from calibsim.calibration import lookup_df
from calibsim.stats import get_test


@pytest.fixture(scope="module")
def vote():
    return load_uci("vote")


@pytest.fixture(scope="module")
def vote_result(vote):
    return compare("naive_bayes", "c45", vote)


def test_result_fields_agree_with_the_score_matrix(vote_result):
    r = vote_result
    s = r.scores
    assert list(s.columns) == ["run", "fold", "accuracy_a", "accuracy_b", "difference"]
    assert len(s) == 100 and s["run"].nunique() == 10 and s["fold"].nunique() == 10
    assert r.accuracy_a == pytest.approx(s["accuracy_a"].mean())
    assert r.difference == pytest.approx(r.accuracy_a - r.accuracy_b)
    assert r.effect_size == pytest.approx(s["difference"].mean() / s["difference"].std(ddof=1))
    assert r.confidence_interval[0] < r.difference < r.confidence_interval[1]
    assert (r.pvalue <= r.alpha) == r.reject
    assert r.better == ("naive_bayes" if r.difference > 0 else "c45")
    statistic, pvalue = r
    assert (statistic, pvalue) == (r.statistic, r.pvalue)
    assert "verdict" in str(r) and r.df_source.startswith("calibrated")


def test_calibrated_df_comes_from_the_shipped_table(vote_result):
    e = lookup_df("corrected_repeated_cv", alpha=0.05, n_folds=10, n_runs=10)
    assert vote_result.df == e.df
    assert vote_result.df_interval == (e.ci_low, e.ci_high)


def test_statistic_equals_a_hand_written_corrected_repeated_cv_t(vote_result):
    """Nadeau & Bengio's correction with Bouckaert's df: Z = m / sqrt((1/(df+1) + 1/9) s^2)."""
    d = vote_result.scores["difference"].to_numpy()
    df = vote_result.df
    z = d.mean() / np.sqrt((1 / (df + 1) + 1 / 9) * d.var(ddof=1))
    assert vote_result.statistic == pytest.approx(z, rel=1e-12)
    from scipy import stats
    assert vote_result.pvalue == pytest.approx(2 * stats.t.sf(abs(z), df), rel=1e-10)


def test_deterministic_and_the_same_for_any_number_of_workers(vote, vote_result):
    again = compare("naive_bayes", "c45", vote)
    pd.testing.assert_frame_equal(again.scores, vote_result.scores)
    other = compare("naive_bayes", "c45", vote, random_state=1)
    assert not other.scores.equals(vote_result.scores)


@pytest.mark.slow
def test_dask_workers_give_identical_scores(vote, vote_result):
    on_dask = compare("naive_bayes", "c45", vote, n_jobs=2)
    pd.testing.assert_frame_equal(on_dask.scores, vote_result.scores)


def test_same_scores_as_mlxtend_5x2cv_and_the_same_test():
    """mlxtend's paired_ttest_5x2cv on its own splits = our 5x2cv t on the same splits."""
    from mlxtend.evaluate import paired_ttest_5x2cv
    X, y = load_breast_cancer(return_X_y=True)
    a, b = GaussianNB(), DecisionTreeClassifier(random_state=0, max_depth=3)
    t_mlx, p_mlx = paired_ttest_5x2cv(a, b, X, y, random_seed=7)
    # mlxtend's splits: five 50/50 train_test_split draws; fold 0 tests on the second half
    rng = np.random.RandomState(7)
    masks = np.zeros((5, 2, len(y)), bool)
    idx = np.arange(len(y))
    for i in range(5):
        _, second = train_test_split(idx, test_size=0.5, random_state=rng.randint(0, 32767))
        masks[i, 0, second] = True
        masks[i, 1] = ~masks[i, 0]
    learners = (parse_learner(a, "a"), parse_learner(b, "b"))
    acc = score_block(Block("k", X, y, masks, learners, None, 2, False))
    res = get_test("cv5x2_t")(acc[0] - acc[1], 5)
    assert float(res.statistic) == pytest.approx(t_mlx, rel=1e-12)
    assert float(res.pvalue) == pytest.approx(p_mlx, rel=1e-12)


def test_sklearn_estimators_and_import_paths_give_the_same_scores():
    X, y = load_breast_cancer(return_X_y=True)
    X, y = X[::3], y[::3]
    by_object = compare(GaussianNB(), DecisionTreeClassifier(max_depth=3, random_state=0), X, y,
                        design="2x5", replicability=None, df="textbook")
    by_path = compare("sklearn.naive_bayes.GaussianNB",
                      "sklearn.tree.DecisionTreeClassifier(max_depth=3, random_state=0)", X, y,
                      design="2x5", replicability=None, df="textbook")
    np.testing.assert_array_equal(by_object.scores.to_numpy(), by_path.scores.to_numpy())
    assert by_object.learner_a == "GaussianNB" and by_path.learner_b == "DecisionTreeClassifier"
    assert by_object.df == 9 and np.isnan(by_object.replicability)


def test_a_design_outside_the_table_warns_and_uses_the_textbook_df(vote):
    with pytest.warns(DesignWarning, match="no calibrated df"):
        r = compare("naive_bayes", "c45", vote, design="4x3", replicability=None)
    assert r.df == 11 and "textbook" in r.df_source


def test_subsampling_and_5x2cv_designs(vote):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sub = compare("naive_bayes", "c45", vote, design="subsampling:10", replicability=None)
    assert sub.test == "corrected_resampling" and len(sub.scores) == 10
    with warnings.catch_warnings():
        warnings.simplefilter("error")           # the 5x2cv t's own df: nothing to warn
        f = compare("naive_bayes", "c45", vote, design="5x2cv", replicability=None)
    assert f.test == "cv5x2_t" and f.df == 5 and len(f.scores) == 10
    assert "Dietterich" in f.df_source
    # the interval is about the test's own estimate, the first fold's difference
    assert f.estimate == f.scores["difference"].iloc[0]
    lo, hi = f.confidence_interval
    assert lo < f.estimate < hi and np.isclose((lo + hi) / 2, f.estimate)


def test_replicability_by_rerun_and_by_bootstrap_are_probabilities(vote):
    rerun = compare("naive_bayes", "ib1", vote, design="3x10", df="textbook",
                    replicability="rerun", n_repeats=4)
    boot = compare("naive_bayes", "ib1", vote, design="3x10", df="textbook", n_boot=200)
    for r in (rerun, boot):
        assert 0.5 <= r.replicability <= 1 and 0 <= r.p_reject <= 1
    assert rerun.p_reject in (0, 0.25, 0.5, 0.75, 1)
    assert "repeats" in rerun.replicability_method and "bootstrap" in boot.replicability_method


def test_compare_all_fits_once_and_adjusts_pvalues(vote, vote_result):
    table = compare_all(["naive_bayes", "c45", "ib1"], vote)
    assert list(zip(table.learner_a, table.learner_b)) == [
        ("naive_bayes", "c45"), ("naive_bayes", "ib1"), ("c45", "ib1")]
    first = table.iloc[0]
    assert first.pvalue == pytest.approx(vote_result.pvalue)
    assert (table.pvalue_adjusted >= table.pvalue).all()
    from statsmodels.stats.multitest import multipletests
    np.testing.assert_allclose(table.pvalue_adjusted,
                               multipletests(table.pvalue, method="holm")[1])


@pytest.mark.parametrize("kwargs, match", [
    ({"design": "10by10"}, "`design` must be"),
    ({"design": "10x1"}, "k >= 2 folds"),
    ({"test": "mcnemar"}, "does not fit the design"),
    ({"test": "no_such_test"}, "registered tests"),
    ({"alpha": 1.5}, "alpha"),
    ({"df": -3}, "`df` must be"),
    ({"replicability": "maybe"}, "`replicability` must be"),
    ({"design": "1x10", "test": "use_all_data"}, "does not fit"),
    ({"design": "5x2cv", "test": "corrected_resampling"}, "does not fit"),
])
def test_bad_input_fails_clearly(vote, kwargs, match):
    with pytest.raises(ValueError, match=match):
        compare("naive_bayes", "c45", vote, **kwargs)


def test_bad_learners_and_data_fail_clearly(vote):
    with pytest.raises(ValueError, match="neither a literal"):
        parse_learner("sklearn.svm.SVC(C=foo)", "a")
    with pytest.raises(ValueError, match="not a classifier or transformer that scikit-learn"):
        parse_learner("sklearn.nothing.Here", "a")
    with pytest.raises(ValueError, match="`fit`"):
        parse_learner(42, "a")
    with pytest.raises(ValueError, match="`y` must be None"):
        compare("naive_bayes", "c45", vote, vote.y)
    with pytest.raises(ValueError, match="`y` is required"):
        compare("naive_bayes", "c45", np.zeros((4, 2)))


def test_design_strings():
    assert parse_design("10x10").shape == (10, 10)
    assert parse_design("5 × 2").kind == "cv"
    assert parse_design("5x2cv").kind == "cv5x2"
    d = parse_design("subsampling:50@0.2")
    assert d.shape == (50,) and d.test_fraction == 0.2


def test_several_data_sets_hand_over_to_friedman_and_multi2test():
    from calibsim.comparison import accuracy_table
    from calibsim.comparison import compare_datasets
    from calibsim.ranking import rank
    sets = {n: load_uci(n) for n in ("vote", "labor", "iris", "breast-cancer")}
    table = accuracy_table(["naive_bayes", "c45"], sets, design="5x2cv")
    assert list(table.columns) == ["dataset", "learner", "fold", "run", "fold_in_run",
                                   "accuracy"]
    assert len(table) == 4 * 2 * 10 and table.groupby(["dataset", "learner"]).size().eq(10).all()
    # the per-data-set partitions are those compare() draws for the same data set
    res = compare_datasets(["naive_bayes", "c45"], sets)
    again = rank(table, score="accuracy", cost=["naive_bayes", "c45"])
    np.testing.assert_array_equal(res.average_ranks, again.average_ranks)
    assert set(res.order) == {"naive_bayes", "c45"}
    with pytest.raises(ValueError, match="at least two data sets"):
        compare_datasets(["naive_bayes", "c45"], [sets["vote"]])


def test_cli_compare_over_several_data_sets(tmp_path, capsys):
    from calibsim.cli import main
    png = tmp_path / "cd.png"
    assert main(["compare", "--data", "iris", "--data", "labor", "--data", "vote",
                 "--a", "naive_bayes", "--b", "c45", "--no-progress",
                 "--cd-diagram", str(png)]) == 0
    out = capsys.readouterr().out
    assert "Friedman" in out and "Multi²Test" in out and png.stat().st_size > 0


# --- after the experiment: the smallest difference the design could detect (issue 42) ---

def test_detectable_difference_gives_80_percent_power_by_simulation():
    """A one-sample t test on n normal differences (sd known) is exactly the noncentral t
    of the shift estimate: at the returned δ it rejects on 80% of simulated experiments,
    within 3 Monte Carlo SE."""
    from scipy import stats
    from calibsim.comparison import detectable_difference
    n, sd, reps = 20, 0.03, 4000
    delta = detectable_difference(sd / np.sqrt(n), n - 1, alpha=0.05)
    x = np.random.default_rng(np.random.SeedSequence(42)).normal(delta, sd, size=(reps, n))
    rate = np.mean(stats.ttest_1samp(x, 0.0, axis=1).pvalue <= 0.05)
    assert abs(rate - 0.8) <= 3 * np.sqrt(0.8 * 0.2 / reps)
    # power 0.8 at delta by the noncentral t itself, and the normal limit's closed form
    c, lam = stats.t.ppf(0.975, n - 1), delta / (sd / np.sqrt(n))
    assert stats.nct.sf(c, n - 1, lam) + stats.nct.cdf(-c, n - 1, lam) == pytest.approx(0.8,
                                                                                       abs=1e-8)
    z = stats.norm.ppf(0.975) + stats.norm.ppf(0.8)
    assert detectable_difference(0.01, np.inf) == pytest.approx(0.01 * z, rel=1e-4)


def test_detectable_difference_shrinks_with_the_design_and_checks_its_input():
    from calibsim.comparison import detectable_difference
    # a larger sample: a smaller standard error (δ in proportion) and a larger df
    assert detectable_difference(0.005, 99) == pytest.approx(detectable_difference(0.01, 99) / 2)
    assert detectable_difference(0.01, 4) > detectable_difference(0.01, 40) > \
        detectable_difference(0.01, np.inf)
    assert detectable_difference(0.01, 9, power=0.9) > detectable_difference(0.01, 9)
    assert detectable_difference(0.0, 9) == 0.0 and np.isnan(detectable_difference(np.nan, 9))
    for kw, match in (({"stderr": -1.0, "df": 9}, "`stderr` must be >= 0"),
                      ({"stderr": 0.01, "df": 0}, "`df` must be > 0"),
                      ({"stderr": 0.01, "df": 9, "power": 0.01}, "`power` must be in")):
        with pytest.raises(ValueError, match=match):
            detectable_difference(**kw)


def _close_scores(shift, noise=0.03, seed=3):
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    a = 0.8 + rng.normal(0, noise, size=(10, 10))
    return a, a - shift + rng.normal(0, noise, size=(10, 10))


def test_a_non_significant_result_states_the_detectable_difference(tmp_path):
    from scipy import stats
    from calibsim.comparison import compare_scores, detectable_difference
    a, b = _close_scores(0.002)
    res = compare_scores(a, b, replicability=None)
    assert not res.reject
    # the test's own standard error (from its interval) and calibrated df
    lo, hi = res.confidence_interval
    se = (hi - lo) / (2 * stats.t.ppf(1 - res.alpha / 2, res.df))
    assert res.detectable_difference == pytest.approx(
        detectable_difference(se, res.df, res.alpha), rel=1e-9)
    assert res.detectable_difference > abs(res.difference)
    value = f"{100 * res.detectable_difference:.2f}"
    text = str(res)
    assert f"80% power at alpha = 0.05: {value} points" in text
    assert "not evidence that the learners are equally good" in text and "ROPE" in text
    md = res.report("markdown")
    assert f"| Smallest difference detectable with 80% power at α = 0.05 (points) | {value} |" \
        in md
    assert f"a true difference of {value} percentage points with 80% power" in md
    assert "not evidence that the learners are equally accurate" in md and "ROPE" in md
    tex = res.report("latex")          # the renderer may add break points inside "(points)"
    assert "with 80\\% power at $\\alpha$ = 0.05 (" in tex and f"points) & {value}" in tex
    assert f"power at α = 0.05 (points)</td><td>{value}</td>" in res.report("html")
    # less noise per fold (e.g. larger test folds): a smaller detectable difference
    a2, b2 = _close_scores(0.002, noise=0.015)
    assert compare_scores(a2, b2, replicability=None).detectable_difference < \
        res.detectable_difference


def test_a_significant_result_or_a_test_without_stderr_says_no_detectable_difference():
    from calibsim.comparison import compare_scores
    a, b = _close_scores(0.05)
    sig = compare_scores(a, b, replicability=None)
    assert sig.reject and np.isfinite(sig.detectable_difference)
    assert "smallest difference" not in str(sig)
    assert "Smallest difference detectable" not in sig.report("markdown")
    a, b = _close_scores(0.002)
    avg = compare_scores(a, b, test="folds_averaged_t", replicability=None)
    assert not avg.reject and np.isnan(avg.detectable_difference)
    assert "smallest difference" not in str(avg) and "not evidence" in str(avg)
    assert "Smallest difference detectable" not in avg.report("markdown")
