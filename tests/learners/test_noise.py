"""Damage for any metric: the laws of the three noises, and the damaged-learner wrapper."""

import numpy as np
import pytest
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.svm import SVC

from calibsim.learners._damaged import RandomErrors
from calibsim.learners._noise import NoisyPredictions, flip_labels, noisy_proba, noisy_values


def test_flip_labels_draws_as_random_errors():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 3, size=(200, 4)).astype(float)
    y = rng.integers(0, 3, size=200)
    clf = RandomErrors(base="naive_bayes", curve=[(1, 0.3)], random_state=7).fit(
        X, y, n_values=np.array([3, 3, 3, 3]), classes=np.arange(3))
    base = clf.estimator_.predict(X)
    ours = flip_labels(base, 0.3, 3, np.random.default_rng(7))
    np.testing.assert_array_equal(clf.predict(X), ours)


def test_flip_labels_rate_is_the_error_rate():
    rng = np.random.default_rng(1)
    codes = rng.integers(0, 4, 200_000)
    out = flip_labels(codes, 0.25, 4, rng)
    rate = np.mean(out != codes)
    assert abs(rate - 0.25) < 4 * np.sqrt(0.25 * 0.75 / codes.size)
    assert np.all((out >= 0) & (out < 4))


def test_noisy_values_raise_the_squared_error_by_s2():
    rng = np.random.default_rng(2)
    y = rng.normal(size=400_000)
    pred = y + rng.normal(scale=0.5, size=y.size)       # MSE 0.25
    before = (y - pred) ** 2
    after = (y - noisy_values(pred, 0.3, rng)) ** 2
    gain = after - before
    se = gain.std(ddof=1) / np.sqrt(gain.size)
    assert abs(gain.mean() - 0.09) < 4 * se


def test_noisy_proba_pulls_auc_towards_one_half():
    rng = np.random.default_rng(3)
    n = 20_000
    y = rng.integers(0, 2, n)
    p1 = np.clip(0.5 + 0.3 * (2 * y - 1) + rng.normal(scale=0.2, size=n), 0.01, 0.99)
    p = np.stack([1 - p1, p1], 1)
    aucs = [roc_auc_score(y, noisy_proba(p, s, np.random.default_rng(4))[:, 1])
            for s in (0.0, 0.5, 2.0, 50.0)]
    assert aucs[0] > aucs[1] > aucs[2]
    se = np.sqrt((n + 1) / (12 * (n / 2) ** 2))          # AUC's SE under no signal
    assert abs(aucs[3] - 0.5) < 4 * se


def test_wrapper_damages_what_each_learner_predicts():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(300, 3))
    y = (X[:, 0] > 0).astype(int)
    clf = NoisyPredictions(LogisticRegression(), curve=[(1, 0.0), (1000, 10.0)],
                           random_state=0).fit(X, y)
    assert clf.noise_ == "proba" and clf.level_ == pytest.approx(10.0 * 299 / 999)
    p = clf.predict_proba(X)
    np.testing.assert_allclose(p.sum(1), 1.0)
    assert roc_auc_score(y, p[:, 1]) < roc_auc_score(y, clf.estimator_.predict_proba(X)[:, 1])
    reg = NoisyPredictions(LinearRegression(), curve=[(1, 0.0)], random_state=0).fit(X, X[:, 0])
    np.testing.assert_allclose(reg.predict(X), X[:, 0], atol=1e-12)   # s = 0: undamaged
    lab = NoisyPredictions(SVC(), noise="labels", curve=[(1, 1.0)], random_state=0).fit(X, y)
    assert np.all(lab.predict(X) != lab.estimator_.predict(X))


@pytest.mark.parametrize("kw, words", [
    ({"estimator": None}, "`estimator` must be the learner"),
    ({"estimator": LinearRegression(), "noise": "proba"}, "does not fit a regressor"),
    ({"estimator": SVC(), "noise": "proba"}, "needs an estimator with predict_proba"),
    ({"estimator": SVC(), "noise": "labels", "curve": [(1, 1.5)]}, "a rate in"),
    ({"estimator": SVC(), "noise": "sideways"}, "`noise` must be"),
])
def test_wrapper_refuses_bad_parameters(kw, words):
    X = np.random.default_rng(0).normal(size=(20, 2))
    y = np.arange(20) % 2
    with pytest.raises(ValueError, match=words):
        NoisyPredictions(**kw).fit(X, y)
