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

from calibsim.comparison._scoring import Block, parse_design, parse_learner, score_block
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
