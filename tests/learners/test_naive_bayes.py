"""Tests of calibsim.learners.NaiveBayes and its kernels (Weka 3.6 NaiveBayes)."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from calibsim.learners import NaiveBayes
from calibsim.learners._kernels_nb import _nb_fit, _nb_predict, _nb_predict_proba

from _weka_folds import null_fixture_folds  # tests/learners is on sys.path


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
    # Weka 3.6 NaiveBayes predictions on 10-fold CV of 3 null data sets.
    for d, s, f, X_train, y_train, X_test in null_fixture_folds():
        model = _nb_fit(X_train, y_train, np.full(X_train.shape[1], 2), 2)
        assert_array_equal(_nb_predict(model, X_test), d["weka_nb"][s, f])


@pytest.mark.parametrize("X, y, match", [
    (np.array([0, 1, 1]), [0, 1, 1], r"`X` must be a 2-D array .* got an array with shape \(3,\)"),
    (np.zeros((0, 2), int), [], r"`X` must have at least one row; got shape \(0, 2\)"),
    ([[0, -1], [1, 0]], [0, 1], r"`X` must hold non-negative integer codes; got -1"),
    ([["a", "b"]], [0], r"`X` must hold non-negative integer codes; got dtype <U1"),
    ([[0, 1], [1, 0]], [0, 1, 1], r"`X` and `y` must have the same number of rows; got 2 and 3"),
    ([[0, 1], [1, 0]], [[0, 1], [1, 0]], r"`y` must be a 1-D array of class labels; got shape \(2, 2\)"),
])
def test_fit_validation(X, y, match):
    with pytest.raises(ValueError, match=match):
        NaiveBayes().fit(X, y)


def test_a_column_vector_y_is_ravelled_with_sklearns_warning():
    from sklearn.exceptions import DataConversionWarning
    with pytest.warns(DataConversionWarning, match="column-vector y"):
        nb = NaiveBayes().fit([[0, 1], [1, 0]], [[0], [1]])
    assert_array_equal(nb.predict([[0, 1], [1, 0]]), [0, 1])


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


# --------------------------------------------------------------------------
# Numeric attributes and missing values (Weka NormalEstimator)
# --------------------------------------------------------------------------

from scipy.special import ndtr  # noqa: E402

from calibsim.learners._kernels_nb import (  # noqa: E402
    _nb_fit_general, _nb_predict_general, _nb_predict_proba_general, _normal_cdf,
    _weka_sort_index)


def test_normal_cdf_matches_scipy(rng):
    z = np.concatenate([rng.normal(0, 3, 2000), [0.0, -0.7, 0.7, -1.5, 1.5, -12.0, 12.0,
                                                  -40.0, 40.0]])
    got = np.array([_normal_cdf(v) for v in z])
    assert_allclose(got, ndtr(z), rtol=1e-13, atol=1e-300)
    assert _normal_cdf(-40.0) == 0.0 and _normal_cdf(40.0) == 1.0


def test_weka_sort_index_sorts(rng):
    for n in (0, 1, 2, 3, 4, 7, 50, 300):
        v = rng.integers(0, 4, n).astype(float)
        w = v.copy()
        idx = _weka_sort_index(w)          # sorts w in place too
        assert_array_equal(np.sort(idx), np.arange(n))
        assert np.all(np.diff(v[idx]) >= 0)
        assert_array_equal(w, v[idx])


def test_numeric_hand_worked():
    # One numeric attribute: sorted distinct values 1, 2, 4 -> precision (4-1)/2 = 1.5.
    X = np.array([[1.0], [2.0], [4.0], [4.0]])
    y = np.array([0, 0, 1, 1])
    nb = NaiveBayes().fit(X, y, n_values=[0])
    prior, cond, offset, numeric, mean, sd, prec = nb.model_
    assert nb.general_ and numeric.tolist() == [True]
    assert prec[0] == 1.5
    # class 0: rounded values 1.5 and 1.5 (rint(1/1.5)=1, rint(2/1.5)=1): sd stays 1.5/6
    assert mean[0, 0] == 1.5 and sd[0, 0] == 1.5 / 6
    # class 1: rounded 4.5, 4.5
    assert mean[0, 1] == 4.5 and sd[0, 1] == 1.5 / 6
    # P(x=3 | c): x rounds to 3.0, interval [2.25, 3.75]
    p0 = ndtr((3.0 - 1.5 + 0.75) / 0.25) - ndtr((3.0 - 1.5 - 0.75) / 0.25)
    p1 = ndtr((3.0 - 4.5 + 0.75) / 0.25) - ndtr((3.0 - 4.5 - 0.75) / 0.25)
    s0, s1 = 3 / 6 * p0, 3 / 6 * p1
    assert_allclose(nb.predict_proba([[3.0]]), [[s0 / (s0 + s1), s1 / (s0 + s1)]], rtol=1e-12)


def test_numeric_standard_deviation_and_constant_attribute():
    X = np.array([[0.0, 5.0], [1.0, 5.0], [2.0, 5.0], [3.0, 5.0]])
    nb = NaiveBayes().fit(X, [0, 0, 0, 1], n_values=[0, 0])
    _, _, _, _, mean, sd, prec = nb.model_
    assert_array_equal(prec, [1.0, 0.01])          # constant attribute keeps the default
    assert mean[0, 0] == 1.0
    assert sd[0, 0] == pytest.approx(np.sqrt(2 / 3), rel=1e-15)   # population sd of 0, 1, 2
    assert sd[1, 0] == 0.01 / 6                      # all values equal: the floor p/6
    assert mean[1, 1] == 5.0 and sd[0, 1] == 1.0 / 6  # class 1 has a single value


def _weka_normal_estimator(values, p):
    """Weka's NormalEstimator after adding ``values`` in order, one at a time (weight 1):
    (mean, standard deviation, the deviation of the final sums). The running sums are
    ``np.cumsum``'s, which adds in order as the estimator does."""
    v = np.rint(np.asarray(values, float) / p) * p
    w = np.arange(1.0, len(v) + 1.0)
    sums, squares = np.cumsum(v), np.cumsum(v * v)
    mean = sums / w
    s = np.sqrt(np.abs(squares - mean * sums) / w)      # after each value
    above = s[s > 1e-10]
    return mean[-1], max(p / 6, above[-1]) if len(above) else p / 6, s[-1]


def test_deviation_kept_from_the_last_value_above_the_floor():
    # Large values: the deviations after single values are rounding noise, and the final
    # sums' deviation of class 1 is 0 while an earlier one exceeded 1e-10 and p / 6. The
    # kernel sets mean and deviation once from the final sums and replays such a class
    # in order: both must equal Weka's value-by-value estimator.
    base = 142972109906062.0
    x = np.array([base] * 12 + [base + 0.01, base + 0.03, base + 0.07])
    y = np.array([0] * 12 + [1] * 3)
    _, _, _, _, mean, sd, prec = NaiveBayes().fit(x[:, None], y, n_values=[0]).model_
    p = prec[0]
    replayed = False
    for c in (0, 1):
        m, d, s = _weka_normal_estimator(np.sort(x[y == c]), p)
        assert mean[0, c] == m and sd[0, c] == d
        replayed |= s <= 1e-10 and d != p / 6
    assert replayed                    # the case this test is for did occur


def test_missing_values_are_skipped(rng):
    X = np.column_stack([rng.integers(0, 3, 60), rng.normal(size=60).round(2),
                         rng.integers(0, 2, 60)]).astype(float)
    y = rng.integers(0, 2, 60)
    Xm = X.copy()
    Xm[::7, 2] = np.nan                              # missing in training, nominal column
    nb = NaiveBayes().fit(Xm, y, n_values=[3, 0, 2])
    known = ~np.isnan(Xm[:, 2])
    cond = nb.model_[1]
    # the nominal column's counts use only the known values: (1 + N_vc) / (2 + N_c,known)
    for c in (0, 1):
        n_c = np.sum(known & (y == c))
        assert cond[3 + 1, c] == (1 + np.sum(known & (y == c) & (Xm[:, 2] == 1))) / (2 + n_c)
    # a missing value at prediction leaves the attribute out: same as a model without it
    Xt = X[:5].copy()
    Xt[:, 0] = np.nan
    ref = NaiveBayes().fit(Xm[:, 1:], y, n_values=[0, 2]).predict_proba(Xt[:, 1:])
    assert_allclose(nb.predict_proba(Xt), ref, rtol=1e-14)


def test_general_kernel_equals_nominal_kernel_on_codes(rng):
    X = rng.integers(0, 3, (80, 4))
    y = rng.integers(0, 3, 80)
    n_values = np.array([3, 3, 3, 3])
    m_nom = _nb_fit(X, y, n_values, 3)
    m_gen = _nb_fit_general(X.astype(float), y, n_values, 3)
    assert_array_equal(m_nom[1], m_gen[1])
    assert_array_equal(_nb_predict_proba(m_nom, X), _nb_predict_proba_general(m_gen, X.astype(float)))
    assert_array_equal(_nb_predict(m_nom, X), _nb_predict_general(m_gen, X.astype(float)))
    # float codes with n_values take the fast nominal path; NaN at prediction is allowed
    nb = NaiveBayes().fit(X.astype(float), y, n_values=n_values)
    assert not nb.general_ and len(nb.model_) == 3
    Xt = X[:3].astype(float)
    Xt[0, 1] = np.nan
    ref = NaiveBayes().fit(X[:, [0, 2, 3]], y, n_values=[3, 3, 3]).predict_proba(Xt[:1, [0, 2, 3]])
    assert_allclose(nb.predict_proba(Xt)[:1], ref, rtol=1e-14)


@pytest.mark.parametrize("X, n_values, match", [
    ([[0.5, 1.0], [1.0, 0.0]], [2, 0], r"`X` column 0 is nominal with n_values\[0\] = 2"),
    ([[0.0, np.inf], [1.0, 0.0]], [2, 0], r"`X` must hold finite values or NaN"),
    ([[0.0, 1.0], [2.0, 0.0]], [2, 0], r"`X` column 0 is nominal with n_values\[0\] = 2"),
    ([[0.0, 1.0], [1.0, 0.0]], [2, 0, 0], r"`n_values` must be a 1-D array of 2 integers"),
])
def test_general_fit_validation(X, n_values, match):
    with pytest.raises(ValueError, match=match):
        NaiveBayes().fit(X, [0, 1], n_values=n_values)


def test_general_predict_validation():
    nb = NaiveBayes().fit([[0.0, 1.0], [1.0, 2.5]], [0, 1], n_values=[2, 0])
    with pytest.raises(ValueError, match=r"`X` must have 2 columns, as in `fit`; got 1"):
        nb.predict([[0.0]])
    with pytest.raises(ValueError, match=r"`X` column 0 is nominal .* got 1.5 in row 0"):
        nb.predict([[1.5, 0.0]])


def test_float_input_without_n_values_is_numeric():
    # as C45 and IB1: float X without `n_values` means numeric attributes (NaN = missing)
    nb = NaiveBayes().fit([[0.5, 1.0], [1.5, np.nan], [0.7, 2.0]], [0, 1, 0])
    assert_array_equal(nb.n_values_, [0, 0])
    assert nb.predict_proba([[0.6, 1.5]]).shape == (1, 2)
