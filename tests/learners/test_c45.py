"""Tests of calibsim.learners.C45 and its kernels (Weka 3.6 J48)."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from calibsim.learners import C45
from calibsim.learners._c45 import (
    _add_errs, _c45_fit, _c45_fit_weighted, _c45_predict, _c45_predict_proba, _c45_size,
)

from _weka_folds import null_fixture_folds  # tests/learners is on sys.path

# Weka's examples/weather.nominal.arff, coded by declaration order:
# outlook {sunny, overcast, rainy}, temperature {hot, mild, cool},
# humidity {high, normal}, windy {TRUE, FALSE}; play {yes, no} -> yes=0, no=1.
WEATHER_X = np.array([
    [0, 0, 0, 1], [0, 0, 0, 0], [1, 0, 0, 1], [2, 1, 0, 1], [2, 2, 1, 1], [2, 2, 1, 0],
    [1, 2, 1, 0], [0, 1, 0, 1], [0, 2, 1, 1], [2, 1, 1, 1], [0, 1, 1, 0], [1, 1, 0, 0],
    [1, 0, 1, 1], [2, 1, 0, 0]])
WEATHER_Y = np.array([1, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1])
WEATHER_NV = np.array([3, 3, 2, 2])


@pytest.mark.parametrize("N, e, expected", [
    # paper-notes §5.3 worked values (Stats.addErrs, CF = 0.25)
    (6, 0, 1.2378), (1, 0, 0.75), (2, 0, 1.0), (2, 1, 0.7915),
])
def test_add_errs_table(N, e, expected):
    assert _add_errs(float(N), float(e), 0.25) == pytest.approx(expected, abs=5e-5)


@pytest.mark.parametrize("N, e, expected", [(16, 1, 2.4757), (14, 5, 6.7611), (100, 10, 12.7496)])
def test_add_errs_upper_limit(N, e, expected):
    assert e + _add_errs(float(N), float(e), 0.25) == pytest.approx(expected, abs=5e-5)


def test_add_errs_special_ranges():
    # e + 0.5 >= N: the remaining N - e; CF > 0.5: no correction.
    assert _add_errs(3.0, 2.75, 0.25) == pytest.approx(0.25)
    assert _add_errs(10.0, 3.0, 0.6) == 0.0
    # 0 < e < 1 interpolates linearly between e = 0 and e = 1.
    a0, a1 = _add_errs(10.0, 0.0, 0.25), _add_errs(10.0, 1.0, 0.25)
    assert _add_errs(10.0, 0.4, 0.25) == pytest.approx(a0 + 0.4 * (a1 - a0))


def test_weather_nominal_tree_matches_weka():
    # java weka.classifiers.trees.J48 -t weather.nominal.arff (Weka 3.6.14):
    #   outlook = sunny -> humidity (high: no (3.0), normal: yes (2.0))
    #   outlook = overcast: yes (4.0)
    #   outlook = rainy -> windy (TRUE: no (2.0), FALSE: yes (3.0))
    #   Number of Leaves: 5, Size of the tree: 8
    tree = _c45_fit(WEATHER_X, WEATHER_Y, WEATHER_NV, 2, 0.25, 2)
    attr, first, node_class, node_prob, node_dist = tree
    assert _c45_size(tree) == (8, 5)
    assert attr[0] == 0
    sunny, overcast, rainy = first[0], first[0] + 1, first[0] + 2
    assert attr[sunny] == 2 and attr[overcast] == -1 and attr[rainy] == 3
    assert_array_equal(node_dist[first[sunny]], [0, 3])      # humidity = high: no (3)
    assert_array_equal(node_dist[first[sunny] + 1], [2, 0])  # humidity = normal: yes (2)
    assert_array_equal(node_dist[overcast], [4, 0])
    assert_array_equal(node_dist[first[rainy]], [0, 2])      # windy = TRUE: no (2)
    assert_array_equal(node_dist[first[rainy] + 1], [3, 0])  # windy = FALSE: yes (3)
    assert_array_equal(_c45_predict(tree, WEATHER_X), WEATHER_Y)


def test_pure_node_is_a_leaf():
    X = np.array([[0, 1], [1, 0], [0, 0], [1, 1], [0, 1]])
    tree = C45().fit(X, [1, 1, 1, 1, 1])
    assert tree.tree_size_ == (1, 1)


def test_fewer_than_2m_instances_is_a_leaf():
    # A perfect split exists, but 3 < 2 * M = 4 instances: J48 keeps a leaf.
    X = np.array([[0], [1], [1]])
    y = np.array([0, 1, 1])
    assert C45().fit(X, y).tree_size_ == (1, 1)
    assert_array_equal(C45().fit(X, y).predict([[0]]), [1])     # majority class
    # With M = 1 the split is allowed (two branches with >= 1 instance).
    assert C45(min_obj=1).fit(X, y).tree_size_ == (3, 2)


def test_split_needs_two_branches_with_min_obj():
    # 12 instances; the only informative attribute sends 1 instance one way.
    X = np.zeros((12, 1), int)
    X[0, 0] = 1
    y = np.r_[1, np.zeros(11, int)]
    y[1] = 1   # make the node impure so a split is considered
    assert C45().fit(X, y).tree_size_ == (1, 1)


def test_xor_concept():
    # XOR of two binary attributes plus an irrelevant one, 8 copies of each
    # pattern: every root split has zero gain, so J48 makes a single leaf
    # (Weka 3.6.14 prints ": 0 (64.0/32.0)", size 1).
    base = np.array([[a, b, c] for a in (0, 1) for b in (0, 1) for c in (0, 1)])
    X = np.repeat(base, 8, axis=0)
    y = X[:, 0] ^ X[:, 1]
    assert C45().fit(X, y).tree_size_ == (1, 1)
    # Break the symmetry slightly: attribute 0 gains a little, and the tree
    # then finds the XOR structure under it (Weka: a0 -> a1 on both sides,
    # 4 leaves, size 7).
    X2 = np.vstack([X, [[0, 0, 0]] * 3])
    y2 = np.r_[y, [0, 0, 0]]
    clf = C45().fit(X2, y2)
    assert clf.tree_size_ == (7, 4)
    assert_array_equal(clf.predict(base), base[:, 0] ^ base[:, 1])


def test_empty_branch_predicts_parent_distribution():
    # Attribute 1 declares 3 values but value 2 never occurs: its branch is an
    # empty leaf that predicts from the parent's class distribution (Weka
    # prints "a1 = 2: 0 (0.0)", 3 leaves, size 4).
    X = np.array([[0, 0]] * 6 + [[0, 1]] * 6)
    y = np.array([0] * 6 + [1] * 6)
    clf = C45().fit(X, y, n_values=[2, 3])
    assert clf.tree_size_ == (4, 3)
    assert_allclose(clf.predict_proba([[0, 2], [0, 0]]), [[0.5, 0.5], [1.0, 0.0]])
    assert_array_equal(clf.predict([[0, 2], [1, 1]]), [0, 1])   # tie -> first class


def test_predict_proba_is_leaf_frequency(rng):
    X = rng.integers(0, 2, size=(200, 6))
    y = (X[:, 0] | (X[:, 1] & (rng.random(200) < 0.8))).astype(int)
    tree = _c45_fit(np.ascontiguousarray(X), y, np.full(6, 2), 2, 0.25, 2)
    proba = _c45_predict_proba(tree, X)
    assert_allclose(proba.sum(axis=1), 1.0)
    assert_array_equal(_c45_predict(tree, X), np.argmax(proba, axis=1))


def test_weka_fixture_null_data():
    # Weka 3.6 J48 (default options) on 10-fold CV of 3 null data sets.
    for d, s, f, X_train, y_train, X_test in null_fixture_folds():
        tree = _c45_fit(X_train, y_train, np.full(X_train.shape[1], 2), 2, 0.25, 2)
        assert _c45_size(tree) == (d["weka_size"][s, f], d["weka_leaves"][s, f])
        assert_array_equal(_c45_predict(tree, X_test), d["weka_j48"][s, f])


def test_string_labels_and_estimator_api():
    clf = C45(confidence=0.1, min_obj=1)
    assert clf.get_params() == {"confidence": 0.1, "min_obj": 1}
    labels = np.where(WEATHER_Y == 0, "yes", "no")
    clf.fit(WEATHER_X, labels, n_values=WEATHER_NV)
    assert_array_equal(clf.classes_, ["no", "yes"])
    assert clf.score(WEATHER_X, labels) == 1.0


@pytest.mark.parametrize("params, err, match", [
    ({"confidence": 0.0}, ValueError, r"`confidence` must lie in \(0, 1\]; got 0.0"),
    ({"confidence": 0.75}, ValueError, r"`confidence` must lie in \(0, 0.5\] .*got 0.75"),
    ({"confidence": "high"}, TypeError, r"`confidence` must be a real number"),
    ({"min_obj": 0}, ValueError, r"`min_obj` must be an integer >= 1; got 0"),
    ({"min_obj": 2.0}, TypeError, r"`min_obj` must be an integer; got 2.0"),
])
def test_hyperparameter_validation(params, err, match):
    with pytest.raises(err, match=match):
        C45(**params).fit(WEATHER_X, WEATHER_Y)


@pytest.mark.parametrize("X, y, match", [
    (np.zeros((2, 2, 2), int), [0, 1], r"`X` must be a 2-D array"),
    # (float input is numeric data now: see test_c45_general.py for its checks)
    ([[0, 1], [1, -2]], [0, 1], r"`X` must hold non-negative integer codes; got -2"),
    ([[0, 1], [1, 0]], [0], r"`X` and `y` must have the same number of rows; got 2 and 1"),
])
def test_fit_validation(X, y, match):
    with pytest.raises(ValueError, match=match):
        C45().fit(X, y)


def test_predict_validation():
    clf = C45().fit(WEATHER_X, WEATHER_Y)
    with pytest.raises(ValueError, match=r"`X` must have 4 columns, as in `fit`; got 2"):
        clf.predict([[0, 1]])
    with pytest.raises(ValueError, match=r"got code 3 in column 0, where n_values_\[0\] = 3"):
        clf.predict([[3, 0, 0, 0]])


def _random_fold(rng, kind):
    """A training set of one of several shapes: null, skewed, multi-valued, 3 classes, tiny, XOR."""
    if kind in ("null", "skewed", "xor"):
        n, nv, n_classes = 270, np.full(10, 2), 2
    elif kind == "multi":
        n, nv, n_classes = int(rng.integers(30, 200)), rng.integers(2, 6, int(rng.integers(2, 9))), 3
    else:   # tiny
        n, nv, n_classes = int(rng.integers(5, 40)), rng.integers(2, 4, int(rng.integers(1, 6))), 2
    X = np.stack([rng.integers(0, k, n) if kind != "null" else (rng.random(n) < rng.random())
                  for k in nv], axis=1).astype(np.int64)
    if kind == "xor":
        y = (X[:, 0] ^ X[:, 1]) ^ (rng.random(n) < 0.15)
    elif kind == "skewed":
        y = rng.random(n) < 0.1
    else:
        y = rng.integers(0, n_classes, n)
    return X, np.asarray(y, np.int64), np.asarray(nv, np.int64), n_classes


@pytest.mark.parametrize("kind", ["null", "skewed", "xor", "multi", "tiny"])
def test_unit_weight_path_equals_weighted_path(kind):
    # _c45_fit counts with bitsets (all weights 1); it must build exactly the
    # tree of the general weighted path, array for array and bit for bit.
    rng = np.random.default_rng(["null", "skewed", "xor", "multi", "tiny"].index(kind))
    for _ in range(40):
        X, y, nv, n_classes = _random_fold(rng, kind)
        cf, m = (0.25, 2) if rng.random() < 0.7 else (float(rng.choice([0.05, 0.5])),
                                                       int(rng.integers(1, 5)))
        fast = _c45_fit(X, y, nv, n_classes, cf, m)
        general = _c45_fit_weighted(X, y, np.ones(len(y)), nv, n_classes, cf, m)
        for a, b in zip(fast, general):
            assert a.dtype == b.dtype
            assert_array_equal(a, b, strict=True)
