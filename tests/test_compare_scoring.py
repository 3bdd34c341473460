"""compare(scoring=): a comparison by any metric, and regressors on a numeric target.

Each split's score must be scikit-learn's scorer of the same name on that split (fitted on
its training set), the test must run on those scores' differences, accuracy must stay what
it was, and what cannot work must be refused before any fit.
"""
import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_diabetes
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import get_scorer
from sklearn.naive_bayes import GaussianNB
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from calibsim import compare
from calibsim.datasets import load_uci


@pytest.fixture(scope="module")
def binary():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(120, 4))
    y = (X[:, 0] + 0.8 * rng.normal(size=120) > 0).astype(int)
    return X, y


@pytest.fixture(scope="module")
def diabetes():
    return load_diabetes(return_X_y=True)


def _sklearn_scores(res, est, X, y, scoring):
    scorer = get_scorer(scoring)
    return np.array([scorer(clone(est).fit(X[tr], y[tr]), X[te], y[te])
                     for _, _, tr, te in res.splits()])


@pytest.mark.parametrize("scoring", ["roc_auc", "neg_log_loss", "balanced_accuracy",
                                     "f1", "neg_brier_score", "average_precision"])
def test_each_fold_is_scikit_learns_scorer_on_that_split(binary, scoring):
    X, y = binary
    a, b = LogisticRegression(), GaussianNB()
    res = compare(a, b, X, y, design="2x5", scoring=scoring, progress=False)
    assert res.scoring == scoring and list(res.scores.columns) == [
        "run", "fold", "score_a", "score_b", "difference"]
    np.testing.assert_allclose(res.scores["score_a"], _sklearn_scores(res, a, X, y, scoring),
                               rtol=0, atol=1e-12)
    np.testing.assert_allclose(res.scores["score_b"], _sklearn_scores(res, b, X, y, scoring),
                               rtol=0, atol=1e-12)
    assert res.score_a == pytest.approx(res.scores["score_a"].mean(), abs=1e-15)
    assert res.difference == pytest.approx(res.scores["difference"].mean(), abs=1e-15)


def test_the_test_runs_on_the_score_differences(binary):
    from calibsim.stats import corrected_repeated_cv_ttest
    X, y = binary
    res = compare(LogisticRegression(), GaussianNB(), X, y, design="2x5", scoring="roc_auc",
                  progress=False)
    diff = res.scores["difference"].to_numpy().reshape(2, 5)
    ref = corrected_repeated_cv_ttest(diff, df=res.df)
    assert res.statistic == pytest.approx(float(ref.statistic), rel=1e-12)
    assert res.pvalue == pytest.approx(float(ref.pvalue), rel=1e-12)


def test_accuracy_by_name_is_the_default_comparison():
    vote = load_uci("vote")
    a = compare("naive_bayes", "c45", vote, design="2x5", progress=False)
    b = compare("naive_bayes", "c45", vote, design="2x5", scoring="accuracy", progress=False)
    assert a == b and a.scoring == "accuracy" and str(a) == str(b)
    assert "accuracy_a" in a.scores.columns


def test_builtin_learners_by_roc_auc_match_their_predict_proba():
    vote = load_uci("vote")
    res = compare("naive_bayes", "c45", vote, design="2x5", scoring="roc_auc",
                  progress=False, replicability=None)
    from calibsim.learners import NaiveBayes
    X, y = np.asarray(vote.X), vote.y          # vote has missing values: not codes
    scores = []
    for _, _, tr, te in res.splits():
        est = NaiveBayes().fit(X[tr], y[tr], n_values=vote.n_values,
                               classes=np.arange(vote.n_classes))
        scores.append(get_scorer("roc_auc")(est, X[te], y[te]))
    np.testing.assert_allclose(res.scores["score_a"], scores, rtol=0, atol=1e-12)
    assert "no df calibrated for 'roc_auc'" in res.df_source and "accuracy" in res.df_source


def test_regressors_on_a_numeric_target(diabetes):
    X, y = diabetes
    a, b = Ridge(), DecisionTreeRegressor(random_state=0)
    res = compare(a, b, X, y, design="2x5", progress=False)
    assert res.scoring == "neg_mean_squared_error"
    assert res.splitter.startswith("calibsim.schemes.RepeatedCV(")     # not stratified
    np.testing.assert_allclose(res.scores["score_a"],
                               _sklearn_scores(res, a, X, y, "neg_mean_squared_error"),
                               rtol=1e-12)
    assert res.better == "Ridge" and res.reject
    text = str(res)
    assert "mean squared error Ridge" in text and "lower is better" in text
    # a loss is shown positive: Ridge's MSE, then the losses' difference, negative
    assert f"{-res.score_a:.6g}" in text and "(A - B) -" in text
    masks = res.test_masks.reshape(-1, len(y))
    assert (masks.sum(0) == 2).all()                 # every instance tested once per run


@pytest.mark.parametrize("scoring", ["neg_mean_absolute_error", "r2"])
def test_other_regression_metrics(diabetes, scoring):
    X, y = diabetes
    res = compare(Ridge(), DecisionTreeRegressor(random_state=0), X, y, design="2x5",
                  scoring=scoring, progress=False)
    np.testing.assert_allclose(res.scores["score_a"],
                               _sklearn_scores(res, Ridge(), X, y, scoring), rtol=1e-12)


def test_a_test_on_per_instance_outcomes_takes_a_per_instance_loss(diabetes):
    X, y = diabetes
    res = compare(Ridge(), DecisionTreeRegressor(random_state=0), X, y, design="2x5",
                  test="bayle_cv_clt", progress=False, replicability=None)
    assert np.isfinite(res.pvalue) and res.reject
    # its estimate: the mean per-instance difference over the first run, here that of MSE
    first = res.scores[res.scores["run"] == 0]
    sizes = [len(te) for r, _, _, te in res.splits() if r == 0]
    assert res.estimate == pytest.approx(np.average(first["difference"], weights=sizes),
                                         rel=1e-9)


def test_the_regression_datasets_shipped_compare():
    cpu = load_uci("cpu")
    res = compare(Ridge(), DecisionTreeRegressor(random_state=0), cpu, design="2x5",
                  scoring="neg_mean_absolute_error", progress=False)
    assert res.scoring == "neg_mean_absolute_error" and np.isfinite(res.pvalue)


@pytest.mark.parametrize("kwargs, match", [
    ({"scoring": "auc"}, "scoring"),
    ({"scoring": "neg_mean_squared_error"}, "numeric|regression"),
    ({"scoring": "roc_auc", "design": "holdout"}, "counts correct classifications"),
    ({"scoring": "roc_auc", "test": "bayle_cv_clt"}, "per-fold statistic"),
])
def test_refusals_before_any_fit(binary, kwargs, match):
    X, y = binary
    kwargs = {"design": "2x5", **kwargs}
    with pytest.raises(ValueError, match=match):
        compare(LogisticRegression(), DecisionTreeClassifier(), X, y, progress=False,
                **kwargs)


def test_a_learner_without_probabilities_is_refused_for_log_loss(binary):
    X, y = binary
    with pytest.raises(ValueError, match="has no predict_proba"):
        compare(LinearSVC(), GaussianNB(), X, y, design="2x5", scoring="neg_log_loss")


def test_two_class_metrics_on_three_classes_name_the_multiclass_one():
    with pytest.raises(ValueError, match="roc_auc_ovr"):
        compare("naive_bayes", "c45", load_uci("iris"), design="2x5", scoring="roc_auc")


def test_the_task_and_the_learners_must_agree(diabetes, binary):
    X, y = diabetes
    with pytest.raises(ValueError, match="is a classifier; the target is numeric"):
        compare(GaussianNB(), Ridge(), X, y, design="2x5")
    with pytest.raises(ValueError, match="built-in learners are classifiers"):
        compare("naive_bayes", Ridge(), X, y, design="2x5")
    Xb, yb = binary
    with pytest.raises(ValueError, match="is a regressor"):
        compare(Ridge(), GaussianNB(), Xb, yb, design="2x5", scoring="roc_auc")


def test_a_regressor_by_import_path(diabetes):
    X, y = diabetes
    res = compare("sklearn.linear_model.Ridge(alpha=2.0)", "sklearn.linear_model.Lasso()",
                  X, y, design="2x5", progress=False)
    assert (res.learner_a, res.learner_b) == ("Ridge", "Lasso")
    with pytest.raises(ValueError, match="is a classifier"):
        compare("sklearn.naive_bayes.GaussianNB()", Ridge(), X, y, design="2x5")


def test_a_test_set_without_a_class_is_refused_for_roc_auc():
    y = np.array([0] * 38 + [1] * 2)
    X = np.random.default_rng(0).normal(size=(40, 2))
    with pytest.raises(ValueError, match="undefined on split"):
        compare(LogisticRegression(), GaussianNB(), X, y, design="2x5", scoring="roc_auc",
                progress=False)


def test_compare_scores_of_cross_validate_with_several_scorers(binary):
    from sklearn.model_selection import RepeatedStratifiedKFold, cross_validate

    from calibsim import compare_scores
    X, y = binary
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0)
    scorers = ["accuracy", "roc_auc"]
    a = cross_validate(LogisticRegression(), X, y, cv=cv, scoring=scorers)
    b = cross_validate(GaussianNB(), X, y, cv=cv, scoring=scorers)
    res = compare_scores(a, b, design=cv, scoring="roc_auc", replicability=None)
    assert res.scoring == "roc_auc" and res.design == "2x5"
    np.testing.assert_array_equal(res.scores["score_a"], a["test_roc_auc"])
    # the same splits through compare give the same scores and the same test
    ref = compare(LogisticRegression(), GaussianNB(), X, y, cv=cv, scoring="roc_auc",
                  replicability=None, progress=False)
    np.testing.assert_allclose(res.scores["difference"], ref.scores["difference"], atol=1e-12)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
    acc = compare_scores(a, b, design=cv, scoring="accuracy", replicability=None)
    np.testing.assert_array_equal(acc.scores["accuracy_a"], a["test_accuracy"])
    with pytest.raises(ValueError, match="has no scores of 'test_f1'"):
        compare_scores(a, b, design=cv, scoring="f1")
    with pytest.raises(ValueError, match="not both"):
        compare_scores(a, b, design=cv, scoring="roc_auc", metric="auc")


@pytest.mark.parametrize("scoring", ["roc_auc", "neg_log_loss", "neg_brier_score"])
def test_the_kernels_probabilities_score_as_the_fitted_estimators(scoring):
    # by name the built-in learners run in the numba kernels (their class probabilities
    # in one call); as estimator objects each is fitted on every split: the same scores
    from calibsim.learners import C45, NaiveBayes
    data = load_uci("tic-tac-toe")
    kw = dict(design="2x5", scoring=scoring, progress=False, replicability=None)
    fast = compare("naive_bayes", "c45", data, **kw)
    slow = compare(NaiveBayes(), C45(), data, **kw)
    np.testing.assert_allclose(fast.scores[["score_a", "score_b"]],
                               slow.scores[["score_a", "score_b"]], rtol=0, atol=1e-12)
    assert fast.pvalue == pytest.approx(slow.pvalue, rel=1e-9)
