"""calibsim's VotedPerceptron against Weka 3.6's ``VotedPerceptron`` (default options).

The fixture ``data/weka_oracle_tan_vp.npz`` (``scripts/weka_table7_check.py
--write``) holds Weka's predictions on 100 null data sets (300 x 10 binary
attributes, priors 0.5 and 0.3, stratified 10-fold CV) and on the binary-class
all-nominal UCI data sets (breast-cancer, vote, weather.nominal; 10 x 10 CV).
Every prediction must agree.
"""


import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.base import clone

from calibsim.datasets import load_uci
from calibsim.learners import VotedPerceptron
from calibsim.learners._kernels_vp import _java_shuffle, _vp_fit, _vp_predict

from _weka_folds import cv_splits, tan_vp_null_sets  # tests/learners is on sys.path


def test_null_fixture(tan_vp_oracle):
    d = tan_vp_oracle
    n_values = np.full(d["null__X"].shape[2], 2, np.int64)
    for s, X, y, fold in tan_vp_null_sets(d):
        pred = np.full(y.shape, -2)
        for _, _, tr, te in cv_splits(fold):
            pred[te] = _vp_predict(_vp_fit(X[tr], y[tr], n_values, 1, 10000, 1), X[te])
        assert_array_equal(pred, d["null__vp"][s, 0], err_msg=f"null data set {s}")


@pytest.mark.parametrize("name", ["breast-cancer", "vote", "weather.nominal"])
def test_uci_fixture(tan_vp_oracle, name):
    ds = load_uci(name)
    fold = tan_vp_oracle[f"{name}__fold"]
    pred = np.full(fold.shape, -2)
    for r, _, tr, te in cv_splits(fold):
        vp = VotedPerceptron().fit(ds.X[tr], ds.y[tr], n_values=ds.n_values)
        pred[r, te] = vp.predict(ds.X[te])
    assert_array_equal(pred, tan_vp_oracle[f"{name}__vp"])


def test_java_random_shuffle():
    # Orders printed by Java 17: Instances.randomize's loop on java.util.Random(seed)
    # (for j = n-1..1: swap(j, rnd.nextInt(j + 1))) applied to 0..n-1.
    assert _java_shuffle(10, 1).tolist() == [6, 9, 7, 8, 4, 2, 0, 3, 1, 5]
    assert _java_shuffle(12, 42).tolist() == [0, 1, 6, 7, 3, 5, 10, 11, 9, 8, 4, 2]
    assert _java_shuffle(16, -7).tolist() == [2, 7, 13, 14, 5, 10, 8, 0, 11, 1, 9, 6, 3, 15,
                                              12, 4]
    assert _java_shuffle(1, 1).tolist() == [0]


def _reference_vp(X, y, V, Xt, seed=1):
    """Slow voted perceptron in Weka's kernel form on explicit NominalToBinary features."""
    def binarize(A):
        cols = []
        for j, v in enumerate(V):
            cols.append(A[:, [j]] if v <= 2 else (A[:, [j]] == np.arange(v)).astype(int))
        return np.hstack(cols)
    B, Bt = binarize(X), binarize(Xt)
    order = _java_shuffle(len(y), seed)
    adds, signs, weights = [], [], [0]
    for r in order:
        s = sum(sg * (B[k] @ B[r] + 1) for k, sg in zip(adds, signs))
        if (0 if s < 0 else 1) == y[r]:
            weights[-1] += 1
        else:
            adds.append(r)
            signs.append(1 if y[r] == 1 else -1)
            weights.append(1)
    pred = []
    for x in Bt:
        out, cur = 0, 0
        for i, w in enumerate(weights):
            out += -w if cur < 0 else w
            if i < len(adds):
                cur += signs[i] * (B[adds[i]] @ x + 1)
        pred.append(1 if (len(adds) and out > 0) else 0)
    return len(adds), np.array(pred)


@pytest.mark.parametrize("seed", range(5))
def test_matches_reference_on_multivalued_attributes(seed):
    rng = np.random.default_rng(seed)
    V = np.array([2, 3, 1, 5, 2, 4])
    X = np.column_stack([rng.integers(0, v, size=70) for v in V])
    y = ((X[:, 1] == 2) | (X[:, 3] > 2) ^ (rng.random(70) < 0.2)).astype(np.int64)
    Xt = np.column_stack([rng.integers(0, v, size=30) for v in V])
    model = _vp_fit(X, y, V, 1, 10000, seed + 1)
    K, pred = _reference_vp(X, y, V, Xt, seed=seed + 1)
    assert model[0].shape[0] == K
    assert_array_equal(_vp_predict(model, Xt), pred)


def test_hand_worked():
    # n = 3, seed 1: java.util.Random visits rows 1, 2, 0.
    #   row 1 (x=1, class 1): empty perceptron, sum 0 -> class 1, right: c_0 = 1
    #   row 2 (x=0, class 0): sum 0 -> class 1, wrong: add x=0 with sign -1, c_1 = 1
    #   row 0 (x=0, class 0): sum -(0*0 + 1) = -1 -> class 0, right: c_1 = 2
    X = np.array([[0], [1], [0]])
    y = np.array(["no", "yes", "no"])
    assert _java_shuffle(3, 1).tolist() == [1, 2, 0]
    vp = VotedPerceptron().fit(X, y)
    X_add, sign, weights, _ = vp.model_
    assert_array_equal(X_add, [[0]])
    assert_array_equal(sign, [-1])
    assert_array_equal(weights, [1, 2])
    # x = 1: perceptron 0 votes +1, perceptron 1 (sum -(1*0 + 1) = -1) votes -2: vote -1
    assert_array_equal(vp.predict([[1], [0]]), ["no", "no"])
    p1 = 1 / (1 + np.exp(1.0))
    assert_allclose(vp.predict_proba([[1]]), [[1 - p1, p1]], rtol=1e-15)


def test_no_mistake_votes_for_the_first_class():
    # The empty perceptron predicts class 1 and is right on every training
    # instance: K = 0, the vote is 0 and Weka's tie goes to class 0.
    X = np.array([[0], [1], [1], [0]])
    model = _vp_fit(X, np.ones(4, np.int64), np.array([2]), 1, 10000, 1)
    assert model[0].shape[0] == 0 and model[2].tolist() == [4]
    assert_array_equal(_vp_predict(model, X), [0, 0, 0, 0])


def test_max_k_and_iterations():
    rng = np.random.default_rng(1)
    X = rng.integers(0, 2, size=(100, 5))
    y = rng.integers(0, 2, size=100)
    assert VotedPerceptron(max_k=3).fit(X, y).n_perceptrons_ == 3
    one = VotedPerceptron().fit(X, y)
    two = VotedPerceptron(n_iterations=2).fit(X, y)
    assert two.n_perceptrons_ > one.n_perceptrons_
    assert two.model_[2].sum() == 200 and one.model_[2].sum() == 100
    assert not np.array_equal(VotedPerceptron(seed=2).fit(X, y).model_[1], one.model_[1])


def test_predict_proba_and_missing_values():
    rng = np.random.default_rng(5)
    X = rng.integers(0, 3, size=(60, 4)).astype(float)
    y = (X[:, 0] > 0).astype(int)
    X[rng.random(X.shape) < 0.1] = np.nan
    vp = VotedPerceptron().fit(X, y, n_values=[3, 3, 3, 3])
    filled = np.where(np.isnan(X), vp.modes_.astype(float), X).astype(int)
    ref = VotedPerceptron().fit(filled, y, n_values=[3, 3, 3, 3])
    assert_array_equal(vp.predict(X), ref.predict(filled))
    proba = vp.predict_proba(X)
    assert_allclose(proba.sum(axis=1), 1.0)
    assert_array_equal(vp.predict(X), vp.classes_[(proba[:, 1] > proba[:, 0]).astype(int)])


def test_sklearn_protocol():
    vp = VotedPerceptron(max_k=50)
    assert vp.get_params() == {"n_iterations": 1, "max_k": 50, "seed": 1}
    assert clone(vp).get_params() == vp.get_params()
    assert VotedPerceptron().set_params(seed=3).seed == 3


@pytest.mark.parametrize("params, exc, match", [
    (dict(n_iterations=0), ValueError, "`n_iterations` must be an integer >= 1"),
    (dict(max_k=1.5), TypeError, "`max_k` must be an integer"),
    (dict(seed="1"), TypeError, "`seed` must be an integer"),
    (dict(seed=2**64), ValueError, "`seed` must fit in a Java long"),
])
def test_hyperparameter_validation(params, exc, match):
    with pytest.raises(exc, match=match):
        VotedPerceptron(**params).fit([[0], [1]], [0, 1])


def test_data_validation():
    with pytest.raises(ValueError, match="exactly two classes"):
        VotedPerceptron().fit([[0], [1], [1]], [0, 1, 2])
    with pytest.raises(ValueError, match="must hold finite values or NaN"):
        VotedPerceptron().fit([[0.5], [np.inf]], [0, 1])      # numeric: taken as it is
    vp = VotedPerceptron().fit([[0], [1]], [0, 1])
    with pytest.raises(ValueError, match="below `n_values_`"):
        vp.predict([[2]])
