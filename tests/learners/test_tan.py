"""calibsim's TAN against Weka 3.6's BayesNet (TAN search, SimpleEstimator -A 0.5).

The fixture ``data/weka_oracle_tan_vp.npz`` (written by
``scripts/weka_table7_check.py --write``; format in that script's docstring)
holds Weka's predictions and tree structures on 100 null data sets (300 x 10
binary attributes, class priors 0.5 and 0.3, one run of stratified 10-fold
CV) and on the all-nominal UCI data sets (10 x 10 CV; breast-cancer, soybean
and vote have missing values). Every prediction and every tree must agree.
"""

import math

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.base import clone

from calibsim.datasets import load_uci
from calibsim.learners import TAN
from calibsim.learners._kernels_tan import _lngamma, _tan_fit, _tan_predict

from _weka_folds import cv_splits, tan_vp_null_sets  # tests/learners is on sys.path

UCI_NOMINAL = ("breast-cancer", "contact-lenses", "soybean", "vote", "weather.nominal")


def test_null_fixture(tan_vp_oracle):
    d = tan_vp_oracle
    n_values = np.full(d["null__X"].shape[2], 2, np.int64)
    assert d["null__y"].shape == (100, 300)
    for s, X, y, fold in tan_vp_null_sets(d):
        pred = np.full(y.shape, -2)
        for r, f, tr, te in cv_splits(fold):
            model = _tan_fit(X[tr], y[tr], n_values, 2)
            assert_array_equal(model[0], d["null__tan_parent"][s, r, f])
            pred[te] = _tan_predict(model, n_values, X[te])
        assert_array_equal(pred, d["null__tan"][s, 0], err_msg=f"null data set {s}")


@pytest.mark.parametrize("name", UCI_NOMINAL)
def test_uci_fixture(tan_vp_oracle, name):
    # The estimator, with missing values replaced by the training modes as in Weka.
    ds = load_uci(name)
    fold = tan_vp_oracle[f"{name}__fold"]
    assert fold.shape == (10, ds.X.shape[0])
    pred = np.full(fold.shape, -2)
    for r, f, tr, te in cv_splits(fold):
        tan = TAN().fit(ds.X[tr], ds.y[tr], n_values=ds.n_values)
        assert_array_equal(tan.parent_, tan_vp_oracle[f"{name}__tan_parent"][r, f])
        pred[r, te] = tan.predict(ds.X[te])
    assert_array_equal(pred, tan_vp_oracle[f"{name}__tan"])


# --------------------------------------------------------------------------
# Independent reference: a slow pure-Python TAN written from the description
# --------------------------------------------------------------------------

def _score(X, y, C, V, i, j):
    """Bayesian log score (prior count 0.5) of attribute i with parents {class} or {class, j}."""
    Vj = 1 if j is None else V[j]
    s = 0.0
    for c in range(C):
        for q in range(Vj):
            rows = (y == c) if j is None else (y == c) & (X[:, j] == q)
            counts = np.bincount(X[rows, i], minlength=V[i])
            s += sum(math.lgamma(0.5 + k) for k in counts) - math.lgamma(0.5 * V[i] + counts.sum())
            s += math.lgamma(0.5 * V[i]) - V[i] * math.lgamma(0.5)
    return s


def _reference_parent_rule(links, a):
    """Direct each link (i, j) in order: j gets parent i unless it already has one."""
    has = [False] * a
    parent = [-1] * a
    for i, j in links:
        if not has[j]:
            parent[j], has[j] = i, True
        else:
            parent[i], has[i] = j, True
    return parent


def _reference_tan(X, y, C, V, Xt):
    a = X.shape[1]
    gain = {(i, j): _score(X, y, C, V, i, j) - _score(X, y, C, V, i, None)
            for i in range(a) for j in range(a) if i != j}
    linked, links = set(), []
    for k in range(a - 1):
        cands = [(i, j) for i in range(a) for j in range(a) if i != j
                 and (k == 0 or ((i in linked) != (j in linked)))]
        best = cands[0]
        for ij in cands[1:]:
            if gain[ij] > gain[best]:
                best = ij
        links.append(best)
        linked |= set(best)
    parent = _reference_parent_rule(links, a)
    pred = []
    for x in Xt:
        logp = []
        for c in range(C):
            s = math.log((np.sum(y == c) + 0.5) / (len(y) + 0.5 * C))
            for i in range(a):
                rows = y == c
                if parent[i] >= 0:
                    rows = rows & (X[:, parent[i]] == x[parent[i]])
                s += math.log((np.sum(X[rows, i] == x[i]) + 0.5) / (rows.sum() + 0.5 * V[i]))
            logp.append(s)
        pred.append(int(np.argmax(logp)))
    return np.array(parent), np.array(pred)


@pytest.mark.parametrize("seed", range(6))
def test_matches_pure_python_reference(seed):
    rng = np.random.default_rng(seed)
    n, a, C = 60, 5, 3
    V = rng.integers(2, 5, size=a)
    y = rng.integers(0, C, size=n)
    X = np.column_stack([(rng.integers(0, V[j], size=n) + (y if j % 2 == 0 else 0)) % V[j]
                         for j in range(a)])
    Xt = np.column_stack([rng.integers(0, V[j], size=40) for j in range(a)])
    model = _tan_fit(X.astype(np.int64), y.astype(np.int64), V.astype(np.int64), 3)
    parent, pred = _reference_tan(X, y, C, V, Xt)
    assert_array_equal(model[0], parent)
    assert_array_equal(_tan_predict(model, V.astype(np.int64), Xt.astype(np.int64)), pred)


def test_lngamma_is_cephes_lgam():
    assert _lngamma(0.5) == pytest.approx(0.5 * math.log(math.pi), rel=1e-15)
    assert _lngamma(1.0) == 0.0 and _lngamma(2.0) == 0.0
    for x in (0.5, 1.5, 2.5, 3.0, 7.5, 12.5, 13.0, 13.5, 150.5, 999.5, 1000.5, 3e8):
        assert_allclose(_lngamma(x), math.lgamma(x), rtol=1e-14)


def test_hand_worked_two_attributes():
    # Attribute 1 copies attribute 0 within each class: the only link is 0 - 1, and
    # Weka's scan (i=0, j=1 first, replaced only by a strictly larger gain of the
    # reverse direction) hangs attribute 1 on attribute 0 when the gains tie.
    X = np.array([[0, 0], [1, 1], [0, 0], [1, 1], [0, 0], [1, 1]])
    y = np.array([0, 0, 0, 1, 1, 1])
    tan = TAN().fit(X, y)
    assert_array_equal(tan.parent_, [-1, 0])
    # P(x0=1 | c=0) = (1 + .5) / (3 + 1); P(x1=1 | c=0, x0=1) = (1 + .5) / (1 + 1);
    # P(c=0) = 3.5 / 7. Class 1 likewise with x0=1 twice: 2.5/4 * 2.5/3 * 3.5/7.
    p0 = 1.5 / 4 * 1.5 / 2 * 0.5
    p1 = 2.5 / 4 * 2.5 / 3 * 0.5
    assert_allclose(tan.predict_proba([[1, 1]]), [[p0 / (p0 + p1), p1 / (p0 + p1)]], rtol=1e-12)
    assert tan.predict([[1, 1]])[0] == 1


def test_one_attribute_is_naive_bayes():
    X = np.array([[0], [1], [1], [0], [1]])
    y = np.array(["a", "a", "b", "b", "b"])
    tan = TAN().fit(X, y)
    assert_array_equal(tan.parent_, [-1])
    pa = 2.5 / 6 * (1 + 0.5) / (2 + 1)         # P(a) P(x=1 | a): N_a = 2, one with x = 1
    pb = 3.5 / 6 * (2 + 0.5) / (3 + 1)         # P(b) P(x=1 | b): N_b = 3, two with x = 1
    assert_allclose(tan.predict_proba([[1]]), [[pa / (pa + pb), pb / (pa + pb)]], rtol=1e-12)


def test_missing_values_take_the_training_mode():
    rng = np.random.default_rng(3)
    X = rng.integers(0, 3, size=(80, 4)).astype(float)
    y = rng.integers(0, 2, size=80)
    X[rng.random(X.shape) < 0.1] = np.nan
    tan = TAN().fit(X, y, n_values=[3, 3, 3, 3])
    modes = [np.argmax(np.bincount(X[~np.isnan(X[:, j]), j].astype(int), minlength=3))
             for j in range(4)]
    assert_array_equal(tan.modes_, modes)
    filled = np.where(np.isnan(X), np.array(modes, float), X).astype(int)
    ref = TAN().fit(filled, y, n_values=[3, 3, 3, 3])
    assert_array_equal(tan.parent_, ref.parent_)
    assert_array_equal(tan.predict(X), ref.predict(filled))
    assert_allclose(tan.predict_proba(X).sum(axis=1), 1.0)


def test_sklearn_protocol():
    tan = TAN()
    assert tan.get_params() == {}
    assert isinstance(clone(tan), TAN)
    X = np.array([[0, 1], [1, 0], [1, 1], [0, 0]])
    assert TAN().fit(X, [0, 1, 1, 0]).score(X, [0, 1, 1, 0]) == 1.0


@pytest.mark.parametrize("X, n_values, match", [
    (np.array([[0.5, np.inf], [1.0, 0.0]]), None, "finite values or NaN"),  # numeric: discretised
    (np.array([[0, 1], [1, 0]]), [2, -1], "n_values"),
    (np.array([[0, 1], [1, -1]]), None, "non-negative integer codes"),
    (np.array([0, 1]), None, "2-D"),
    (np.array([[0, 3], [1, 0]]), [2, 2], "n_values"),
])
def test_fit_validation(X, n_values, match):
    with pytest.raises(ValueError, match=match):
        TAN().fit(X, [0, 1], n_values=n_values)


def test_predict_validation():
    tan = TAN().fit(np.array([[0, 1], [1, 0]]), [0, 1])
    with pytest.raises(ValueError, match="columns"):
        tan.predict([[0, 1, 1]])
    with pytest.raises(ValueError, match="below `n_values_`"):
        tan.predict([[0, 2]])
