"""Tests of calibsim.learners.NaiveBayes and its kernels (Weka 3.6 NaiveBayes)."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from calibsim.learners import NaiveBayes
from calibsim.learners._kernels_nb import _nb_fit, _nb_predict, _nb_predict_proba


def _reference_proba(X, y, Xt, n_values, n_classes):
    """Slow NumPy naive Bayes with Laplace estimates, in log space."""
    n = len(y)
    logp = np.empty((len(Xt), n_classes))
    for c in range(n_classes):
        nc = np.sum(y == c)
        lp = np.full(len(Xt), np.log((nc + 1) / (n + n_classes)))
        for j, v in enumerate(n_values):
            counts = np.bincount(X[y == c, j], minlength=v)
            lp += np.log((counts[Xt[:, j]] + 1) / (nc + v))
        logp[:, c] = lp
    p = np.exp(logp - logp.max(axis=1, keepdims=True))
    return p / p.sum(axis=1, keepdims=True)


def test_hand_worked_laplace_probabilities():
    # 3 "a" and 2 "b" instances; attribute 0 binary, attribute 1 ternary.
    X = np.array([[0, 0], [0, 1], [1, 2], [1, 1], [1, 1]])
    y = np.array(["a", "a", "a", "b", "b"])
    nb = NaiveBayes().fit(X, y)
    assert_allclose(nb.class_prior_, [(3 + 1) / (5 + 2), (2 + 1) / (5 + 2)])
    prior, cond, offset = nb.model_
    assert_array_equal(offset, [0, 2, 5])
    # P(x0 | a) = (2+1)/(3+2), (1+1)/(3+2); P(x0 | b) = (0+1)/(2+2), (2+1)/(2+2)
    assert_allclose(cond[0:2], [[3 / 5, 1 / 4], [2 / 5, 3 / 4]])
    # P(x1 | a) = (1+1)/(3+3) each; P(x1 | b) = 1/5, 3/5, 1/5
    assert_allclose(cond[2:5], [[2 / 6, 1 / 5], [2 / 6, 3 / 5], [2 / 6, 1 / 5]])
    # Instance (1, 1): a: 4/7 * 2/5 * 2/6, b: 3/7 * 3/4 * 3/5
    sa, sb = 4 / 7 * 2 / 5 * 2 / 6, 3 / 7 * 3 / 4 * 3 / 5
    assert_allclose(nb.predict_proba([[1, 1]]), [[sa / (sa + sb), sb / (sa + sb)]], rtol=1e-14)
    assert nb.predict([[1, 1]])[0] == "b"


def test_declared_n_values_changes_laplace_denominator():
    X = np.array([[0], [1], [1]])
    y = np.array([0, 0, 1])
    nb = NaiveBayes().fit(X, y, n_values=[3])
    # P(x=1 | c=0) = (1+1)/(2+3) with 3 declared values, not (1+1)/(2+2).
    assert nb.model_[1][1, 0] == pytest.approx(2 / 5)
    assert_array_equal(nb.n_values_, [3])


def test_exact_tie_goes_to_lowest_class():
    # Symmetric data: both classes get identical scores for every instance.
    X = np.array([[0], [1], [0], [1]])
    y = np.array([0, 0, 1, 1])
    nb = NaiveBayes().fit(X, y)
    proba = nb.predict_proba([[0], [1]])
    assert_array_equal(proba, [[0.5, 0.5], [0.5, 0.5]])
    assert_array_equal(nb.predict([[0], [1]]), [0, 0])
    # Same with string labels: the first of classes_ wins.
    nb = NaiveBayes().fit(X, np.array(["z", "z", "m", "m"]))
    assert_array_equal(nb.predict([[0]]), ["m"])


def test_proba_rows_sum_to_one_and_match_reference(rng):
    for n_classes, n_values in [(2, [2] * 10), (3, [2, 3, 4, 2, 5])]:
        n_values = np.array(n_values)
        X = np.column_stack([rng.integers(0, v, size=60) for v in n_values])
        y = rng.integers(0, n_classes, size=60)
        Xt = np.column_stack([rng.integers(0, v, size=40) for v in n_values])
        model = _nb_fit(X, y, n_values, n_classes)
        proba = _nb_predict_proba(model, Xt)
        assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-14)
        ref = _reference_proba(X, y, Xt, n_values, n_classes)
        assert_allclose(proba, ref, rtol=1e-10)
        pred = _nb_predict(model, Xt)
        assert_array_equal(pred, np.argmax(proba, axis=1))


def test_underflow_rescaling_keeps_probabilities():
    # 400 attributes: the raw product underflows double precision without
    # Weka's 1e75 rescaling.
    rng = np.random.default_rng(1)
    X = rng.integers(0, 2, size=(30, 400))
    y = np.r_[np.zeros(15, int), np.ones(15, int)]
    X[y == 1, :200] = 1
    nb = NaiveBayes().fit(X, y)
    proba = nb.predict_proba(X)
    assert np.all(np.isfinite(proba))
    assert_allclose(proba.sum(axis=1), 1.0)
    assert np.mean(nb.predict(X) == y) > 0.9


def test_single_class():
    nb = NaiveBayes().fit([[0, 1], [1, 1]], ["only", "only"])
    assert_array_equal(nb.predict([[1, 0]]), ["only"])
    assert_allclose(nb.predict_proba([[1, 0]]), [[1.0]])


def test_weka_fixture_predictions():
    # Weka 3.6 NaiveBayes predictions on 10-fold CV of 3 null data sets,
    # produced by scripts/weka_j48_check.py --fixture (seed 20030101).
    import pathlib
    d = np.load(pathlib.Path(__file__).parent / "data" / "weka_null_fixture.npz")
    n_values = np.full(d["X"].shape[2], 2)
    for s in range(d["X"].shape[0]):
        X, y = d["X"][s], d["y"][s]
        for f, test in enumerate(d["test_index"][s]):
            train = np.setdiff1d(np.arange(len(y)), test)
            model = _nb_fit(np.ascontiguousarray(X[train]), y[train], n_values, 2)
            pred = _nb_predict(model, np.ascontiguousarray(X[test]))
            assert_array_equal(pred, d["weka_nb"][s, f])


@pytest.mark.parametrize("X, y, match", [
    (np.array([0, 1, 1]), [0, 1, 1], r"`X` must be a 2-D array .* got an array with shape \(3,\)"),
    (np.zeros((0, 2), int), [], r"`X` must have at least one row; got shape \(0, 2\)"),
    ([[0, -1], [1, 0]], [0, 1], r"`X` must hold non-negative integer codes; got -1"),
    ([[0, 0.5], [1, 0]], [0, 1], r"`X` must hold non-negative integer codes; got 0.5"),
    ([[0, np.nan], [1, 0]], [0, 1], r"`X` must hold non-negative integer codes; got nan"),
    ([["a", "b"]], [0], r"`X` must hold non-negative integer codes; got dtype <U1"),
    ([[0, 1], [1, 0]], [0, 1, 1], r"`X` and `y` must have the same number of rows; got 2 and 3"),
    ([[0, 1], [1, 0]], [[0], [1]], r"`y` must be a 1-D array of class labels; got shape \(2, 1\)"),
])
def test_fit_validation(X, y, match):
    with pytest.raises(ValueError, match=match):
        NaiveBayes().fit(X, y)


def test_n_values_validation():
    X = [[0, 2], [1, 0]]
    with pytest.raises(ValueError, match=r"`n_values` must exceed every code in its column; "
                                         r"got n_values\[1\] = 2 but `X` holds code 2 in column 1"):
        NaiveBayes().fit(X, [0, 1], n_values=[2, 2])
    with pytest.raises(ValueError, match=r"`n_values` must be a 1-D array of 2 integers"):
        NaiveBayes().fit(X, [0, 1], n_values=[3])


def test_predict_validation():
    nb = NaiveBayes().fit([[0, 1], [1, 0]], [0, 1])
    with pytest.raises(ValueError, match=r"`X` must have 2 columns, as in `fit`; got 3"):
        nb.predict([[0, 1, 0]])
    with pytest.raises(ValueError, match=r"got code 2 in column 0, where n_values_\[0\] = 2"):
        nb.predict_proba([[2, 0]])
