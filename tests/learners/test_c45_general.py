"""Tests of C45 on numeric attributes and missing values (Weka 3.6 J48, general kernels)."""

import importlib.util
import pathlib
import shutil

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from calibsim.learners import C45
from calibsim.learners._c45 import (
    _c45_fit, _c45_fit_general, _c45_predict_general, _c45_predict_proba_general,
    _c45_size_general,
)

HERE = pathlib.Path(__file__).parent
WEKA_JAR = pathlib.Path("/usr/share/java/weka.jar")

# Weka's examples/weather.numeric.arff: outlook {sunny, overcast, rainy},
# temperature, humidity (numeric), windy {TRUE, FALSE}; play {yes, no} -> 0, 1.
WEATHER_NUM_X = np.array([
    [0, 85, 85, 1], [0, 80, 90, 0], [1, 83, 86, 1], [2, 70, 96, 1], [2, 68, 80, 1],
    [2, 65, 70, 0], [1, 64, 65, 0], [0, 72, 95, 1], [0, 69, 70, 1], [2, 75, 80, 1],
    [0, 75, 70, 0], [1, 72, 90, 0], [1, 81, 75, 1], [2, 71, 91, 0]], dtype=float)
WEATHER_Y = np.array([1, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1])
WEATHER_NUM_NV = np.array([3, 0, 0, 2])


def _fit(X, y, nv, n_classes=2, cf=0.25, m=2):
    X = np.ascontiguousarray(X, dtype=float)
    return _c45_fit_general(X, np.asarray(y, np.int64), np.ones(len(y)),
                            np.asarray(nv, np.int64), n_classes, cf, m)


def test_weather_numeric_tree_matches_weka():
    # java weka.classifiers.trees.J48 -t weather.numeric.arff (Weka 3.6.14):
    #   outlook = sunny
    #   |   humidity <= 75: yes (2.0)
    #   |   humidity > 75: no (3.0)
    #   outlook = overcast: yes (4.0)
    #   outlook = rainy
    #   |   windy = TRUE: no (2.0)
    #   |   windy = FALSE: yes (3.0)
    #   Number of Leaves: 5, Size of the tree: 8
    tree = _fit(WEATHER_NUM_X, WEATHER_Y, WEATHER_NUM_NV)
    attr, first, _, _, node_dist, split, frac, empty, n_sons = tree
    assert _c45_size_general(tree) == (8, 5)
    assert attr[0] == 0 and n_sons[0] == 3
    sunny, overcast, rainy = first[0], first[0] + 1, first[0] + 2
    assert attr[sunny] == 2 and split[sunny] == 75.0 and n_sons[sunny] == 2
    assert attr[overcast] == -1 and attr[rainy] == 3 and np.isnan(split[rainy])
    assert_array_equal(node_dist[first[sunny]], [2, 0])
    assert_array_equal(node_dist[first[sunny] + 1], [0, 3])
    assert_array_equal(node_dist[overcast], [4, 0])
    assert_array_equal(node_dist[first[rainy]], [0, 2])
    assert_array_equal(node_dist[first[rainy] + 1], [3, 0])
    assert_allclose(frac[[sunny, overcast, rainy]], [5 / 14, 4 / 14, 5 / 14])
    assert not empty.any()
    assert_array_equal(_c45_predict_general(tree, WEATHER_NUM_X), WEATHER_Y)


def test_missing_values_at_prediction_match_weka():
    # J48 -t weather.numeric.arff -T test.arff -p 0 -distribution (Weka 3.6.14),
    # distribution printed as (yes, no) to 3 decimals:
    #   ?,70,96,FALSE    -> yes  0.643, 0.357   (5/14 no + 4/14 yes + 5/14 yes)
    #   ?,70,96,TRUE     -> no   0.286, 0.714
    #   sunny,70,?,TRUE  -> no   0.4,   0.6     (humidity split 2:3 in the sunny node)
    #   rainy,70,75,?    -> yes  0.6,   0.4     (windy split 2:3 in the rainy node)
    #   sunny,70,75.000001,TRUE  -> yes 1, 0    (x <= 75 within Weka's 1e-6)
    #   sunny,70,75.0000011,TRUE -> no  0, 1
    clf = C45().fit(WEATHER_NUM_X, WEATHER_Y, n_values=WEATHER_NUM_NV)
    Xt = np.array([[np.nan, 70, 96, 1], [np.nan, 70, 96, 0], [0, 70, np.nan, 0],
                   [2, 70, 75, np.nan], [0, 70, 75.000001, 0], [0, 70, 75.0000011, 0]])
    assert_allclose(clf.predict_proba(Xt), [[9 / 14, 5 / 14], [4 / 14, 10 / 14], [0.4, 0.6],
                                            [0.6, 0.4], [1, 0], [0, 1]], rtol=1e-15)
    assert_array_equal(clf.predict(Xt), [0, 1, 1, 0, 0, 1])


def test_missing_values_in_training_go_down_every_branch():
    # One missing outlook (instance 0, class no) in weather.numeric: it goes to
    # every outlook branch with weight bag / known = 4/13, 4/13, 5/13.
    X = WEATHER_NUM_X.copy()
    X[0, 0] = np.nan
    tree = _fit(X, WEATHER_Y, WEATHER_NUM_NV)
    attr, first, _, _, node_dist, split, frac, _, _ = tree
    assert attr[0] == 0
    sunny, overcast, rainy = first[0], first[0] + 1, first[0] + 2
    assert_allclose(node_dist[overcast], [4, 4 / 13])
    assert_allclose(node_dist[sunny], [2, 2 + 4 / 13])
    assert_allclose(node_dist[rainy], [3, 2 + 5 / 13])
    # The root's distribution has the missing instance back as a whole.
    assert_allclose(node_dist[0], [9, 5])
    assert_allclose(frac[[sunny, overcast, rainy]], [4 / 13, 4 / 13, 5 / 13])


def _best_raw_gain(x, y):
    """Largest information gain (bits) of a cut of sorted numeric x with >= 2 on each side."""
    def ent(c):
        p = np.bincount(c, minlength=2) / len(c)
        p = p[p > 0]
        return -(p * np.log2(p)).sum()
    gains = [ent(y) - (k * ent(y[:k]) + (len(y) - k) * ent(y[k:])) / len(y)
             for k in range(2, len(y) - 1)]
    return max(gains), len(gains)


def test_mdl_correction_rejects_a_split():
    # 16 distinct values: the best cut gains a little, but less than the MDL
    # penalty log2(13 candidate cuts) / 16, so J48 keeps a leaf (Weka 3.6.14:
    # ": 0 (16.0/7.0)"). Three copies of each instance keep the gain and cut
    # the penalty to a third: the tree grows (Weka: size 19, 10 leaves,
    # first split x <= 3).
    y = np.array([0, 1, 1, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 1])
    x = np.arange(16.0)
    gain, n_cuts = _best_raw_gain(x, y)
    assert n_cuts == 13 and 0 < gain < np.log2(13) / 16
    tree = _fit(x[:, None], y, [0])
    assert _c45_size_general(tree) == (1, 1)
    tree3 = _fit(np.repeat(x, 3)[:, None], np.repeat(y, 3), [0])
    assert _c45_size_general(tree3) == (19, 10)
    assert tree3[5][0] == 3.0


def test_split_point_is_a_training_value():
    # The cut lies midway between 2 and 10 in the node; the threshold becomes
    # the largest value of the whole training set not above 6, here 2.
    X = np.array([[0.0], [1.0], [2.0], [10.0], [11.0], [12.0]])
    y = np.array([0, 0, 0, 1, 1, 1])
    tree = _fit(X, y, [0], m=1)
    assert tree[5][0] == 2.0
    assert_array_equal(_c45_predict_general(tree, np.array([[2.0], [5.9], [2.0000009]])),
                       [0, 1, 0])


@pytest.mark.parametrize("seed", range(6))
def test_general_kernel_equals_nominal_kernel_on_codes(seed):
    # On nominal codes without missing values the general kernel builds the
    # nominal kernel's tree bit for bit (all its sums are of whole weights).
    rng = np.random.default_rng(seed)
    n, a = int(rng.integers(20, 300)), int(rng.integers(1, 8))
    nv = rng.integers(2, 5, a)
    X = np.stack([rng.integers(0, k, n) for k in nv], axis=1).astype(np.int64)
    y = ((X[:, 0] + rng.integers(0, 2, n)) % 3).astype(np.int64)
    fast = _c45_fit(X, y, nv, 3, 0.25, 2)
    general = _fit(X, y, nv, n_classes=3)
    for a_, b_ in zip(fast, general[:5]):
        assert_array_equal(a_, b_, strict=True)


def test_nominal_model_predicts_missing_values_like_general_model():
    rng = np.random.default_rng(7)
    X = rng.integers(0, 3, (200, 5))
    y = (X[:, 0] == 1) ^ (X[:, 1] == 2) ^ (rng.random(200) < 0.1)
    nominal = C45().fit(X, y, n_values=np.full(5, 3))
    general = C45().fit(X.astype(float), y, n_values=np.full(5, 3))
    assert len(nominal.tree_) == 5 and len(general.tree_) == 9
    assert nominal.tree_size_ == general.tree_size_
    Xt = rng.integers(0, 3, (300, 5)).astype(float)
    Xt[rng.random(Xt.shape) < 0.3] = np.nan
    assert_array_equal(nominal.predict_proba(Xt), general.predict_proba(Xt))
    assert_array_equal(nominal.predict(Xt), general.predict(Xt))


def test_float_input_is_numeric_by_default():
    clf = C45().fit(WEATHER_NUM_X[:, 1:3], WEATHER_Y)
    assert_array_equal(clf.n_values_, [0, 0])
    assert len(clf.tree_) == 9
    proba = _c45_predict_proba_general(clf.tree_, WEATHER_NUM_X[:, 1:3])
    assert_allclose(clf.predict_proba(WEATHER_NUM_X[:, 1:3]), proba)


@pytest.mark.parametrize("X, n_values, match", [
    ([[0.0, np.inf], [1.0, 2.0]], [2, 0],
     r"`X` must hold finite values or NaN in numeric column 1; got inf"),
    ([[0.0, 1.0], [2.0, 2.0]], [2, 0],
     r"`X` must hold codes 0\.\.1 or NaN in nominal column 0 \(n_values\[0\] = 2\); got 2\.0"),
    ([[0.5, 1.0], [1.0, 2.0]], [2, 0],
     r"`X` must hold codes 0\.\.1 or NaN in nominal column 0 .*got 0\.5"),
    ([[0.0, 1.0], [1.0, 2.0]], [2, -1],
     r"`n_values` must be a 1-D array of 2 non-negative integers"),
    ([[0.0, 1.0], [1.0, 2.0]], [2, 0, 0],
     r"`n_values` must be a 1-D array of 2 non-negative integers"),
    ([["a", "b"], ["c", "d"]], [2, 0], r"`X` must hold numbers"),
])
def test_general_fit_validation(X, n_values, match):
    with pytest.raises(ValueError, match=match):
        C45().fit(X, [0, 1], n_values=n_values)


def test_general_predict_validation():
    clf = C45().fit(WEATHER_NUM_X, WEATHER_Y, n_values=WEATHER_NUM_NV)
    with pytest.raises(ValueError, match=r"`X` must have 4 columns, as in `fit`; got 3"):
        clf.predict(WEATHER_NUM_X[:, :3])
    with pytest.raises(ValueError, match=r"nominal column 0 \(n_values\[0\] = 3\); got 3\.0"):
        clf.predict([[3.0, 70, 70, 0]])
    with pytest.raises(ValueError, match=r"`y` must have|same number of rows"):
        C45().fit(WEATHER_NUM_X, WEATHER_Y[:5], n_values=WEATHER_NUM_NV)


def _fixture_sets():
    d = np.load(HERE / "data" / "weka_c45_general.npz")
    for name in d["names"]:
        yield str(name), {k: d[f"{name}__{k}"] for k in
                          ("X", "y", "n_values", "n_classes", "fold", "weka_size", "weka_pred")}


def test_weka_fixture_numeric_and_missing():
    # Weka 3.6.14 J48 (defaults) on 10-fold CV of 12 simulated sets (nominal,
    # numeric and tied numeric attributes, 5% missing values, 2-3 classes) and
    # of 8 of Weka's example UCI files; produced by
    # `python scripts/weka_c45_general_check.py --n-sets 100 --fixture ...`.
    n_sets = 0
    for name, s in _fixture_sets():
        X, y, fold = s["X"], s["y"], s["fold"]
        for f in range(10):
            tr, te = fold != f, fold == f
            tree = _c45_fit_general(np.ascontiguousarray(X[tr]), y[tr], np.ones(int(tr.sum())),
                                    s["n_values"], int(s["n_classes"]), 0.25, 2)
            assert _c45_size_general(tree) == tuple(s["weka_size"][f]), (name, f)
            assert_array_equal(_c45_predict_general(tree, np.ascontiguousarray(X[te])),
                               s["weka_pred"][te], err_msg=f"{name} fold {f}")
        n_sets += 1
    assert n_sets == 20


@pytest.mark.weka
@pytest.mark.skipif(shutil.which("java") is None or shutil.which("javac") is None
                    or not WEKA_JAR.exists(), reason="needs Java, javac and Weka 3.6")
def test_live_weka_random_and_uci():
    spec = importlib.util.spec_from_file_location(
        "weka_c45_general_check", HERE.parents[1] / "scripts" / "weka_c45_general_check.py")
    chk = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(chk)
    rng = np.random.default_rng(314)
    sets = []
    for _ in range(6):
        X, y, nv, C, _ = chk.make_random_set(rng, 0.1)
        sets.append(dict(X=X, y=y, nv=nv, C=C, fold=chk.kfold_ids(rng, len(y), 10)))
    for stem in ("weather.numeric", "labor"):
        X, y, nv, C = chk.load_arff(f"{chk.EXAMPLES}/{stem}.arff")
        sets.append(dict(X=X, y=y, nv=nv, C=C, fold=chk.kfold_ids(rng, len(y), 10)))
    weka = chk.run_weka(sets)
    for s, st in enumerate(sets):
        for f in range(10):
            w_size, w_leaves, w_pred, w_dist = weka[s, f]
            size, leaves, pred, proba, _ = chk.ours(st, f)
            assert (size, leaves) == (w_size, w_leaves)
            assert_array_equal(pred, w_pred)
            assert_allclose(proba, w_dist, rtol=0, atol=1e-12)


def test_presorted_order_kept_by_a_node_equals_the_nodes_own_stable_sort():
    """A node reads its numeric values' order from the fit's one presort (issue 36): keeping,
    in that order, the instances it holds must give the stable sort of its own values (ties
    many, NaN left out), as the node sorting itself did before."""
    from calibsim.learners._c45.general_splitting import _presort_numeric
    rng = np.random.default_rng(36)
    n = 300
    X = np.column_stack([rng.integers(0, 3, n).astype(float),        # nominal codes
                         np.round(rng.normal(size=n), 1),              # numeric, many ties
                         rng.normal(size=n)])
    X[rng.random(n) < 0.1, 1] = np.nan
    X[rng.random(n) < 0.1, 2] = np.nan
    prow, psi, psv, nknown = _presort_numeric(X, np.array([3, 0, 0]))
    assert prow.tolist() == [-1, 0, 1]
    for _ in range(20):
        node = np.sort(rng.choice(n, size=rng.integers(2, n), replace=False))  # instance order
        inside = np.zeros(n, bool)
        inside[node] = True
        for j in (1, 2):
            r = prow[j]
            kept = [i for i in psi[r, :nknown[r]] if inside[i]]
            known = node[~np.isnan(X[node, j])]
            own = known[np.argsort(X[known, j], kind="mergesort")]
            assert kept == own.tolist()
            assert np.array_equal(psv[r, :nknown[r]], np.sort(X[~np.isnan(X[:, j]), j]))


def test_split_point_equals_wekas_scan_in_instance_order():
    """setSplitPoint read from the sorted list (issue 46) equals Weka's scan over the
    training rows in their order, also where values lie closer than Weka's 1e-6 (the scan's
    result then depends on the order, and the kernel runs the scan)."""
    from calibsim.learners._c45.criterion import _gr, _sm_or_eq
    from calibsim.learners._c45.general_splitting import _split_point
    rng = np.random.default_rng(46)
    for trial in range(200):
        n = int(rng.integers(1, 40))
        base = rng.integers(0, 6, n).astype(float)
        X = (base + (rng.random(n) < 0.5) * rng.choice([0.0, 4e-7, 9e-7, 2e-6], n))[:, None]
        X[rng.random(n) < 0.1, 0] = np.nan
        rows = np.sort(rng.choice(n, size=int(rng.integers(1, n + 1)), replace=False))
        known = rows[~np.isnan(X[rows, 0])]
        order = known[np.argsort(X[known, 0], kind="mergesort")]
        cut = float(rng.choice(X[known, 0])) + rng.choice([0.0, 5e-7, 0.5]) if len(known) else 1.0
        expect = -1.7976931348623157e308
        for i in rows:
            x = X[i, 0]
            if not np.isnan(x) and _gr(x, expect) and _sm_or_eq(x, cut):
                expect = x
        got = _split_point(cut, 0, X, rows, order.astype(np.int64), 0, len(order))
        assert got == expect, (trial, X[rows, 0], cut)
