"""Tests of calibsim.learners.IB1 and its kernel (Weka 3.6 IB1)."""

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from sklearn.base import clone

from calibsim.learners import IB1
from calibsim.learners._kernels_ib1 import _ib1_predict


def _reference_predict(Xtr, ytr, numeric, Xte):
    """Slow Python 1-NN following the description of Weka 3.6 IB1.distance."""
    lo = np.array([np.nan if not numeric[j] or np.all(np.isnan(Xtr[:, j]))
                   else np.nanmin(Xtr[:, j]) for j in range(Xtr.shape[1])])
    hi = np.array([np.nan if not numeric[j] or np.all(np.isnan(Xtr[:, j]))
                   else np.nanmax(Xtr[:, j]) for j in range(Xtr.shape[1])])

    def norm(v, j):
        if np.isnan(lo[j]) or abs(hi[j] - lo[j]) < 1e-6:
            return 0.0
        return (v - lo[j]) / (hi[j] - lo[j])

    out = []
    for x in Xte:
        for j in np.flatnonzero(numeric & ~np.isnan(x)):
            lo[j] = x[j] if np.isnan(lo[j]) else min(lo[j], x[j])
            hi[j] = x[j] if np.isnan(hi[j]) else max(hi[j], x[j])
        best, cls = np.inf, 0
        for s, c in zip(Xtr, ytr):
            dist = 0.0
            for j in range(len(x)):
                if not numeric[j]:
                    dist += float(np.isnan(x[j]) or np.isnan(s[j]) or x[j] != s[j])
                    continue
                if np.isnan(x[j]) and np.isnan(s[j]):
                    d = 1.0
                elif np.isnan(x[j]) or np.isnan(s[j]):
                    d = norm(s[j] if np.isnan(x[j]) else x[j], j)
                    d = 1.0 - d if d < 0.5 else d
                else:
                    d = norm(x[j], j) - norm(s[j], j)
                dist += d * d
            if dist < best:
                best, cls = dist, c
        out.append(cls)
    return np.array(out)


def _random_data(rng, n, with_missing=True):
    X = np.column_stack([rng.integers(0, 3, n), rng.normal(0, 1, n).round(1),
                         rng.integers(0, 2, n), rng.integers(0, 4, n) * 0.5,
                         np.full(n, 7.0)]).astype(float)       # last column constant
    if with_missing:
        X[rng.random(X.shape) < 0.1] = np.nan
    return X, rng.integers(0, 3, n)


def test_kernel_matches_reference(rng):
    numeric = np.array([False, True, False, True, True])
    for _ in range(20):
        X, y = _random_data(rng, 40)
        tr, te = np.arange(30), np.arange(30, 40)
        got = _ib1_predict(X[tr], y[tr], numeric, X[te])
        assert_array_equal(got, _reference_predict(X[tr], y[tr], numeric, X[te]))


def test_first_training_instance_wins_ties():
    X = np.array([[0.0], [1.0], [0.0], [1.0]])
    clf = IB1().fit(X, [2, 1, 0, 0], n_values=[2])
    assert_array_equal(clf.predict([[0.0], [1.0]]), [2, 1])


def test_test_instance_widens_range_for_later_rows():
    # Training ranges [0, 10] and [0, 100]. Alone, (6, 30) is nearer "a":
    # 0.6^2 + 0.3^2 = 0.45 against 0.4^2 + 0.7^2 = 0.65. After the test row
    # (5, 1000) widens the second range to [0, 1000], it is nearer "b":
    # 0.36 + 0.03^2 against 0.16 + 0.07^2.
    clf = IB1().fit([[0.0, 0.0], [10.0, 100.0]], ["a", "b"], n_values=[0, 0])
    assert_array_equal(clf.predict([[6.0, 30.0]]), ["a"])
    assert_array_equal(clf.predict([[5.0, 1000.0], [6.0, 30.0]]), ["b", "b"])
    # each call starts again from the training ranges
    assert_array_equal(clf.predict([[6.0, 30.0]]), ["a"])


def test_missing_value_rules():
    Xtr = np.array([[0.0, 0.0], [10.0, 1.0], [2.0, 0.0]])
    clf = IB1().fit(Xtr, [0, 1, 2], n_values=[0, 2])
    # test numeric missing: d = norm(train) or 1 - norm(train), whichever >= 0.5:
    # train 0 -> 1, train 10 -> 1, train 2 -> 0.8; nominal 0 matches rows 0 and 2.
    assert_array_equal(clf.predict([[np.nan, 0.0]]), [2])
    # nominal missing always counts 1; numeric 0.9 is closest to row 1 (10 -> 1.0)
    assert_array_equal(clf.predict([[9.0, np.nan]]), [1])
    # both missing numeric: d = 1 for every training row with a missing value
    clf2 = IB1().fit(np.array([[np.nan, 1.0], [5.0, 0.0]]), [0, 1], n_values=[0, 2])
    assert_array_equal(clf2.predict([[np.nan, 0.0]]), [1])   # 1 + 1 vs (norm(5)=0 -> 1) + 0


def test_tiny_range_scales_to_zero():
    # a range below 1e-6 (Weka's Utils.eq) scales every value to 0
    Xtr = np.array([[1.0, 0.0], [1.0 + 5e-7, 1.0]])
    clf = IB1().fit(Xtr, [0, 1], n_values=[0, 2])
    assert_array_equal(clf.predict([[1.0 + 5e-7, 0.0]]), [0])


def test_nominal_codes_without_n_values_and_proba():
    clf = IB1().fit([[0, 1], [1, 1], [2, 0]], ["x", "y", "z"])
    assert_array_equal(clf.n_values_, [3, 2])
    assert_array_equal(clf.predict([[2, 0], [1, 0]]), ["z", "y"])
    assert_array_equal(clf.predict_proba([[2, 0]]), [[0.0, 0.0, 1.0]])
    assert repr(clone(clf)) == "IB1()"


@pytest.mark.parametrize("X, n_values, match", [
    ([[-1, 1]], None, r"non-negative integer codes; got -1"),
    ([[0.0, np.inf]], [2, 0], r"`X` must hold finite values or NaN \(missing\); got inf"),
    ([[3.0, 1.0]], [2, 0], r"`X` column 0 is nominal with n_values\[0\] = 2: it must hold "
                           r"codes 0..1 or NaN; got 3.0 in row 0"),
    ([[0.5, 1.0]], [2, 0], r"got 0.5 in row 0"),
    ([[0.0, 1.0]], [2, -1], r"`n_values` must be a 1-D array of 2 integers"),
    ([["a", "b"]], [2, 0], r"`X` must hold numbers .* got dtype <U1"),
])
def test_fit_validation(X, n_values, match):
    with pytest.raises(ValueError, match=match):
        IB1().fit(X, [0], n_values=n_values)


def test_predict_validation():
    clf = IB1().fit([[0.0, 1.0], [1.0, 2.0]], [0, 1], n_values=[2, 0])
    with pytest.raises(ValueError, match=r"`X` must have 2 columns, as in `fit`; got 3"):
        clf.predict([[0.0, 1.0, 2.0]])
    with pytest.raises(ValueError, match=r"`X` column 0 is nominal .* got 2.0 in row 0"):
        clf.predict([[2.0, 1.0]])
    with pytest.raises(ValueError, match=r"`X` must be a 2-D array"):
        clf.predict([0.0, 1.0])


def test_float_input_without_n_values_is_numeric():
    ib1 = IB1().fit([[0.0, 1.5], [1.0, 0.5]], [0, 1])
    assert list(ib1.n_values_) == [0, 0]
    assert list(ib1.predict([[0.9, 0.6]])) == [1]
