"""The metric registry: each fold score equals scikit-learn's scorer on the same fitted
learner, each per-instance loss averages to it, and bad names or tasks are refused."""

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris
from sklearn.dummy import DummyRegressor
from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge
from sklearn.metrics import get_scorer
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from calibsim.metrics import (METRICS, check_learner_response, check_metric_task,
                              check_test_classes, fold_score, fold_scores, get_metric,
                              instance_scores, response_of)

_CLASSIFICATION = [m for m in METRICS.values() if m.task == "classification"]
_REGRESSION = [m for m in METRICS.values() if m.task == "regression"]


def _split(n, seed):
    rng = np.random.default_rng(seed)
    test = np.zeros(n, bool)
    test[rng.choice(n, n // 3, replace=False)] = True
    return ~test, test


@pytest.mark.parametrize("metric", _CLASSIFICATION, ids=lambda m: m.name)
@pytest.mark.parametrize("est", [make_pipeline(StandardScaler(), LogisticRegression()), GaussianNB(),
                                 DecisionTreeClassifier(max_depth=3, random_state=0)],
                         ids=["logistic", "gaussian_nb", "tree"])
def test_fold_score_is_the_scorers(metric, est):
    X, y = load_breast_cancer(return_X_y=True)
    for seed in range(3):
        tr, te = _split(len(y), seed)
        est.fit(X[tr], y[tr])
        ours = fold_score(metric, y[te], response_of(est, X[te], metric, 2), 2)
        assert ours == pytest.approx(get_scorer(metric.name)(est, X[te], y[te]),
                                     rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("metric", [m for m in _CLASSIFICATION if not m.binary],
                         ids=lambda m: m.name)
def test_fold_score_is_the_scorers_on_three_classes(metric):
    X, y = load_iris(return_X_y=True)
    est = LogisticRegression(max_iter=2000)
    for seed in range(3):
        tr, te = _split(len(y), seed)
        est.fit(X[tr], y[tr])
        ours = fold_score(metric, y[te], response_of(est, X[te], metric, 3), 3)
        assert ours == pytest.approx(get_scorer(metric.name)(est, X[te], y[te]),
                                     rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("metric", _REGRESSION, ids=lambda m: m.name)
@pytest.mark.parametrize("est", [Ridge(), LinearRegression(), DummyRegressor()],
                         ids=["ridge", "ols", "mean"])
def test_regression_fold_score_is_the_scorers(metric, est):
    X, y = load_diabetes(return_X_y=True)
    for seed in range(3):
        tr, te = _split(len(y), seed)
        est.fit(X[tr], y[tr])
        ours = fold_score(metric, y[te], response_of(est, X[te], metric, 0), 0)
        assert ours == pytest.approx(get_scorer(metric.name)(est, X[te], y[te]),
                                     rel=1e-12, abs=1e-12)


def test_roc_auc_prefers_the_decision_function_as_the_scorer():
    X, y = load_breast_cancer(return_X_y=True)
    tr, te = _split(len(y), 0)
    svc = SVC().fit(X[tr], y[tr])                # no predict_proba: decision_function
    m = get_metric("roc_auc")
    assert fold_score(m, y[te], response_of(svc, X[te], m, 2), 2) == pytest.approx(
        get_scorer("roc_auc")(svc, X[te], y[te]), rel=1e-12)


@pytest.mark.parametrize("metric", [m for m in METRICS.values() if m.per_instance],
                         ids=lambda m: m.name)
def test_instance_scores_average_to_the_fold_score(metric):
    if metric.task == "regression":
        X, y = load_diabetes(return_X_y=True)
        est, c = Ridge(), 0
    else:
        X, y = load_iris(return_X_y=True)
        est, c = LogisticRegression(max_iter=2000), 3
    tr, te = _split(len(y), 1)
    est.fit(X[tr], y[tr])
    r = response_of(est, X[te], metric, c)
    v = instance_scores(metric, y[te], r, c)
    assert v.shape == (te.sum(),)
    assert v.mean() == pytest.approx(fold_score(metric, y[te], r, c), rel=1e-12)


def test_binary_brier_and_log_loss_instances():
    y = np.array([0, 1, 1])
    p = np.array([[0.8, 0.2], [0.3, 0.7], [0.0, 1.0]])
    brier = instance_scores(get_metric("neg_brier_score"), y, p, 2)
    np.testing.assert_allclose(brier, [-0.04, -0.09, 0.0])
    ll = instance_scores(get_metric("neg_log_loss"), y, p, 2)
    np.testing.assert_allclose(ll, [np.log(0.8), np.log(0.7), np.log(1 - np.finfo(float).eps)])


def test_a_class_unseen_in_training_gets_a_zero_column():
    X, y = load_iris(return_X_y=True)
    tr = y != 2
    est = LogisticRegression(max_iter=2000).fit(X[tr], y[tr])
    p = response_of(est, X, get_metric("neg_log_loss"), 3)
    assert p.shape == (150, 3) and (p[:, 2] == 0).all()
    np.testing.assert_allclose(p.sum(1), 1.0)


def test_fold_scores_reads_each_split_test_set():
    y = np.array([0, 1, 0, 1])
    masks = np.array([[1, 1, 0, 0], [0, 0, 1, 1]], bool)
    pred = np.array([[0, 1, 1, 1], [0, 0, 0, 0]])
    np.testing.assert_array_equal(fold_scores(get_metric("accuracy"), y, pred, masks, 2),
                                  [1.0, 0.5])


@pytest.mark.parametrize("name, words", [
    ("log_loss", "use 'neg_log_loss'"),
    ("mean_squared_error", "use 'neg_mean_squared_error'"),
    ("auc", "did you mean 'roc_auc'"),
    ("neg_median_absolute_error", "scikit-learn knows"),
    ("roc_acu", "did you mean 'roc_auc'"),
    ("nonsense", "scikit-learn has no scorer"),
    ("", "must be a scikit-learn scorer name"),
    (3, "must be a scikit-learn scorer name"),
])
def test_bad_scorer_names_are_refused_in_one_line(name, words):
    with pytest.raises(ValueError, match="`scoring`") as err:
        get_metric(name)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_task_and_class_count_are_checked():
    with pytest.raises(ValueError, match="classification metric; the target is numeric"):
        check_metric_task("roc_auc", "regression")
    with pytest.raises(ValueError, match="regression metric; the target holds classes"):
        check_metric_task("r2", "classification", 2)
    with pytest.raises(ValueError, match="use 'f1_macro'"):
        check_metric_task("f1", "classification", 3)
    assert check_metric_task("roc_auc_ovr", "classification", 5).name == "roc_auc_ovr"


def test_a_learner_without_predict_proba_is_refused_for_log_loss():
    with pytest.raises(ValueError, match="learner 'SVC' has no predict_proba"):
        check_learner_response(get_metric("neg_log_loss"), SVC(), "SVC")
    check_learner_response(get_metric("neg_log_loss"), SVC(probability=True), "SVC")
    check_learner_response(get_metric("roc_auc"), SVC(), "SVC")      # decision_function


def test_a_test_set_without_a_class_is_refused_for_auc():
    y = np.array([0, 0, 1, 1])
    masks = np.array([[1, 1, 0, 0], [0, 1, 1, 0]], bool)
    with pytest.raises(ValueError, match="undefined on split 0 .* class code"):
        check_test_classes(get_metric("roc_auc"), y, masks, 2, "2x1")
    check_test_classes(get_metric("roc_auc"), y, masks[1:], 2, "2x1")
    check_test_classes(get_metric("accuracy"), y, masks, 2, "2x1")     # defined anyway


def test_units_and_directions():
    acc, mse = get_metric("accuracy"), get_metric("neg_mean_squared_error")
    assert acc.value_text(0.8123) == "81.23%" and acc.difference_text(0.0123) == "+1.23 points"
    assert mse.display(-3.5) == 3.5 and mse.direction_text() == "lower is better"
    assert mse.difference_text(-1.25) == "+1.25 in the target's units squared"
    assert get_metric("roc_auc").difference_text(0.0036) == "+0.36 points of AUC"
    for m in METRICS.values():
        assert m.low < m.high and m.kind in ("instance", "fold")


@pytest.mark.parametrize("metric", list(METRICS.values()), ids=lambda m: m.name)
@pytest.mark.parametrize("n_classes", [2, 3])
def test_batched_scores_equal_scikit_learns_per_fold(metric, n_classes):
    from calibsim.metrics._batch import batch_fold_scores
    if metric.binary and n_classes != 2 or metric.task == "regression" and n_classes == 3:
        pytest.skip("not defined there")
    rng = np.random.default_rng(n_classes)
    F, per = 40, 23
    fold = np.repeat(np.arange(F), per)
    rng.shuffle(fold)
    T = fold.size
    if metric.task == "regression":
        y = rng.normal(size=T)
        y[fold == 3] = 1.5                            # a constant fold (r² edge case)
        resp = np.where(fold == 3, 1.5, y + rng.normal(size=T))
        c = 0
    else:
        c = n_classes
        y = rng.integers(0, c, T)
        for f in range(F):                          # every class in every fold
            y[np.flatnonzero(fold == f)[:c]] = np.arange(c)
        p = rng.dirichlet(np.ones(c), size=T)
        p = np.round(p, 1)                          # ties in the scores
        p[:, -1] = 1 - p[:, :-1].sum(1)
        p = np.clip(p, 0, 1)
        p /= p.sum(1, keepdims=True)
        resp = {"label": p.argmax(1), "score": p[:, 1], "proba": p}[metric.response]
    ours = batch_fold_scores(metric, y, resp, fold, F, c)
    ref = [fold_score(metric, y[fold == f], resp[fold == f], c) for f in range(F)]
    np.testing.assert_allclose(ours, ref, rtol=1e-12, atol=1e-12)
