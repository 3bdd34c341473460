"""Voted perceptron faithful to Weka 3.6's ``VotedPerceptron`` (default options)."""

from __future__ import annotations

import numbers

import numba
import numpy as np

from .._docstrings import fill_doc
from ._base import _LEARNER_DOCS, NominalClassifier
from ._general import _check_general_fit, _check_general_predict_input
from ._kernels_vp import _java_shuffle, _vp_fit, _vp_predict, _vp_predict_proba
from .tan import _fill_missing, _nominal_predict_codes, _training_modes

__all__ = ["VotedPerceptron"]


# --------------------------------------------------------------------------
# Numeric attributes: Weka's dual form in floating point. With numeric inputs
# the kernel values are no longer integers, so the sums are formed in Weka's
# order: K(u, x) = (sum over the NominalToBinary inputs of u_j x_j) + 1, and a
# perceptron's sum adds +-K(x_k, x) over its mistakes k in order.
# --------------------------------------------------------------------------

@numba.njit(cache=True)
def _vp_dot(A, i, B, r, n_values):
    """Weka's ``innerProduct(A[i], B[r])``: products in attribute order, then + 1."""
    d = 0.0
    for j in range(n_values.shape[0]):
        if n_values[j] <= 2:                  # numeric (0) or one 0/1 input
            d += A[i, j] * B[r, j]
        elif A[i, j] == B[r, j]:              # one indicator per value: a single 1 * 1
            d += 1.0
    return d + 1.0


@numba.njit(cache=True)
def _vp_sum(X_add, sign, K, X, r, n_values):
    s = 0.0
    for k in range(K):
        if sign[k] > 0:
            s += _vp_dot(X_add, k, X, r, n_values)
        else:
            s -= _vp_dot(X_add, k, X, r, n_values)
    return s


@numba.njit(cache=True)
def _vp_fit_numeric(X, y, n_values, n_iterations, max_k, seed):
    """(n, a) f8, (n,) i8, (a,) i8, i8, i8, i8 -> model (X_add (K, a) f8, sign, weights, n_values)."""
    n, a = X.shape
    order = _java_shuffle(n, seed)            # Weka's Instances.randomize
    Xs = X[order]
    ys = y[order]
    cap = min(max_k, n * n_iterations) + 1
    X_add = np.empty((cap, a))
    sign = np.empty(cap, np.int64)
    weights = np.zeros(cap + 1, np.int64)
    K = np.int64(0)                           # not a literal: _vp_sum compiles once
    for it in range(n_iterations):
        if K == max_k:
            break
        for i in range(n):
            pred = 0 if _vp_sum(X_add, sign, K, Xs, i, n_values) < 0.0 else 1
            if pred == ys[i]:
                weights[K] += 1
            else:
                X_add[K] = Xs[i]
                sign[K] = 1 if ys[i] == 1 else -1
                K += 1
                weights[K] += 1
                if K == max_k:
                    break
    return X_add[:K].copy(), sign[:K].copy(), weights[:K + 1].copy(), n_values.copy()


@numba.njit(cache=True)
def _vp_output_numeric(model, X, r):
    """Weka's vote for row r: survival counts signed by each perceptron's sum."""
    X_add, sign, weights, n_values = model
    K = X_add.shape[0]
    out = 0
    if K == 0:
        return out
    cur = 0.0
    for i in range(K + 1):
        out += -weights[i] if cur < 0.0 else weights[i]
        if i < K:
            if sign[i] > 0:
                cur += _vp_dot(X_add, i, X, r, n_values)
            else:
                cur -= _vp_dot(X_add, i, X, r, n_values)
    return out


@numba.njit(cache=True)
def _vp_predict_numeric(model, X):
    """model, (n_test, a) f8 -> (n_test,) i8 class codes: 1 iff the vote is positive."""
    out = np.empty(X.shape[0], np.int64)
    for r in range(X.shape[0]):
        out[r] = 1 if _vp_output_numeric(model, X, r) > 0 else 0
    return out


@numba.njit(cache=True)
def _vp_predict_proba_numeric(model, X):
    """model, (n_test, a) f8 -> (n_test, 2) f8, as :func:`_vp_predict_proba`."""
    out = np.empty((X.shape[0], 2))
    for r in range(X.shape[0]):
        p1 = 1.0 / (1.0 + np.exp(-np.float64(_vp_output_numeric(model, X, r))))
        out[r, 1] = p1
        out[r, 0] = 1.0 - p1
    return out


def _fill_modes_and_means(X, n_values, modes, means):
    """float X with NaN -> NaN replaced by nominal modes and numeric means (float64)."""
    X = np.array(X, dtype=np.float64, copy=True)
    rows, cols = np.nonzero(np.isnan(X))
    X[rows, cols] = np.where(n_values[cols] > 0, modes[cols], means[cols])
    return X


def _check_count(name, value, min_value):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"`{name}` must be an integer; got {value!r}.")
    if value < min_value:
        raise ValueError(f"`{name}` must be an integer >= {min_value}; got {value!r}.")


@fill_doc
class VotedPerceptron(NominalClassifier):
    """Freund and Schapire's voted perceptron as Weka trains it.

    Reproduces Weka 3.6's ``weka.classifiers.functions.VotedPerceptron`` with
    exponent 1 (``-I 1 -E 1.0 -S 1 -M 10000`` by default) [1]_, [2]_ on
    nominal attributes and a binary class. Each nominal attribute is coded as
    Weka's ``NominalToBinary`` codes it (one 0/1 attribute for at most two
    values, one indicator per value otherwise) and the kernel is the dot
    product plus 1. The training instances are shuffled exactly as Weka
    shuffles them (``Instances.randomize`` with ``java.util.Random(seed)``)
    and visited ``n_iterations`` times; every mistake of the current
    perceptron starts a new one, up to ``max_k`` mistakes. A test instance
    gets the vote ``sum_i c_i sign(perceptron_i(x))`` of all perceptrons
    weighted by their survival counts ``c_i`` (a perceptron's sum of exactly
    0 votes +1); the prediction is ``classes_[1]`` if the vote is positive and
    ``classes_[0]`` otherwise, as Weka's ``1 / (1 + exp(-vote))`` makes it.

    A numeric attribute is one input taken as it is (no scaling), as in
    Weka; then the kernel values are no longer integers, and the dot
    products and the perceptrons' sums are formed in Weka's order (dual
    form, products in attribute order plus 1, mistakes in order), so that
    rounding decides signs as in Weka. A missing value (NaN) is replaced, in
    training and at prediction, by the mode of a nominal attribute's known
    training values or the mean of a numeric one's (summed in training
    order; 0 if none is known), as Weka's ``ReplaceMissingValues`` filter does.

    Parameters
    ----------
    n_iterations : int, default 1
        Passes over the training data (Weka's ``-I``).
    max_k : int, default 10000
        Maximum number of mistakes, i.e. of perceptrons after the first
        (Weka's ``-M``).
    seed : int, default 1
        Seed of the ``java.util.Random`` that shuffles the training data
        (Weka's ``-S``).

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two declared ``classes`` of ``fit``, or the sorted labels of ``y``.
    n_values_ : ndarray of shape (n_features,), int64
        Number of values of each nominal attribute, 0 for a numeric one.
    n_features_in_ : int
        Number of attributes.
    modes_ : ndarray of shape (n_features,), int64
        Training mode of each nominal attribute (0 for a numeric one), used
        for missing values.
    means_ : ndarray of shape (n_features,), float64
        Training mean of each numeric attribute (0 for a nominal one), used
        for missing values.
    n_perceptrons_ : int
        Number of mistakes K in training (the model has K + 1 perceptrons).
    model_ : tuple of ndarray
        The kernel's model ``(X_add, sign, weights, n_values)``: the
        misclassified instances (int64 codes, or float64 when an attribute
        is numeric), +1/-1 for ``classes_[1]``/``classes_[0]``, and the
        survival counts of the K + 1 perceptrons.

    Notes
    -----
    With exponent 1 and nominal attributes every kernel value and vote is an
    integer, so the model and the predictions are Weka's exactly; with
    numeric attributes the floating-point sums are formed in Weka's order
    (IEEE arithmetic, no fused multiply-add), so they are Weka's as well.
    Agreement with Weka 3.6.14 (``scripts/weka_oracle.py --tan-vp-numeric``):
    identical predictions on all 41,550 test predictions of 10 x 10
    stratified cross-validation of the 9 binary-class shipped UCI sets with
    numeric attributes, and identical distributions on the first run.

    References
    ----------
    .. [1] Freund, Y. & Schapire, R. E. (1999). Large margin classification
           using the perceptron algorithm. Machine Learning 37, 277-296.
           doi:10.1023/A:1007662407062
    .. [2] {witten_frank2005}
           (Weka 3.6, ``VotedPerceptron``).

    Examples
    --------
    >>> import numpy as np
    >>> from calibsim.learners import VotedPerceptron
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
    >>> y = np.array(["no", "yes", "yes", "yes"] * 5)      # logical OR
    >>> vp = VotedPerceptron().fit(X, y)
    >>> vp.n_perceptrons_, vp.model_[2]        # mistakes, survival counts
    (3, array([ 7,  1,  1, 11]))
    >>> vp.predict([[0, 0], [0, 1], [1, 1]])
    array(['no', 'yes', 'yes'], dtype='<U3')

    Numeric attributes are taken as they are:

    >>> Xn = np.array([[0.2, 1.5], [2.5, 0.1], [0.3, 2.0], [3.0, 0.4]] * 3)
    >>> vp = VotedPerceptron().fit(Xn, ["a", "b", "a", "b"] * 3)
    >>> vp.n_values_, vp.predict([[0.1, 1.0], [2.0, 0.0]])
    (array([0, 0]), array(['a', 'b'], dtype='<U1'))
    """

    def __init__(self, *, n_iterations: int = 1, max_k: int = 10000, seed: int = 1):
        self.n_iterations = n_iterations
        self.max_k = max_k
        self.seed = seed

    @fill_doc(**_LEARNER_DOCS)
    def fit(self, X, y, n_values=None, classes=None):
        """Train the sequence of perceptrons.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            Nominal codes ``0 <= X[:, j] < n_values[j]`` and numeric values;
            NaN marks a missing value (the encoding of :mod:`calibsim.datasets`).
        y : array_like of shape (n_samples,)
            Class labels with exactly two distinct values.
        n_values : array_like of shape (n_features,), optional
            Number of values of each nominal attribute, 0 for a numeric one;
            by default ``X.max(axis=0) + 1`` (all nominal) for integer ``X``
            and all numeric for float ``X``. It decides whether a nominal
            attribute is one 0/1 input (at most 2 values) or indicators.
        {fit_classes}
            as in Weka (training on one class then makes no mistake on it, or only
            mistakes). Defaults to ``np.unique(y)``.

        Returns
        -------
        self : VotedPerceptron

        Raises
        ------
        ValueError
            If ``X`` is not a 2-D numeric array with at least one row whose
            nominal columns hold codes (or NaN) below ``n_values``, ``y`` does
            not have one label per row, the classes (declared, or those of ``y``) are
            not exactly two, or a hyperparameter is out of range.
        {fit_raises_end}
            Also if a hyperparameter is not an integer.
        """
        _check_count("n_iterations", self.n_iterations, 1)
        _check_count("max_k", self.max_k, 1)
        if isinstance(self.seed, bool) or not isinstance(self.seed, numbers.Integral):
            raise TypeError(f"`seed` must be an integer; got {self.seed!r}.")
        if not -2**63 <= self.seed < 2**63:
            raise ValueError(f"`seed` must fit in a Java long; got {self.seed!r}.")
        where = "`y`" if classes is None else "`classes`"
        X, y_codes, classes, n_values, codes = _check_general_fit(self, X, y, n_values, classes)
        if classes.shape[0] != 2:
            k = classes.shape[0]
            raise ValueError(f"VotedPerceptron needs exactly two classes in {where}; got {k} "
                             f"class{'es' if k != 1 else ''} ({classes.tolist()!r}). Only binary "
                             f"classification is supported (as in Weka).")
        numeric = n_values == 0
        self.modes_ = np.zeros(X.shape[1], np.int64)
        self.means_ = np.zeros(X.shape[1])
        if not codes:
            self.modes_[~numeric] = _training_modes(X[:, ~numeric], n_values[~numeric])
            for j in np.flatnonzero(numeric):
                known = X[~np.isnan(X[:, j]), j]
                if known.size:                   # summed in training order, as Weka
                    self.means_[j] = np.add.accumulate(known)[-1] / known.size
        args = (np.int64(self.n_iterations), np.int64(self.max_k), np.int64(self.seed))
        if numeric.any():
            X = _fill_modes_and_means(X, n_values, self.modes_, self.means_)
            self.model_ = _vp_fit_numeric(X, y_codes, n_values, *args)
        else:
            X = X if codes else _fill_missing(X, self.modes_)
            self.model_ = _vp_fit(X, y_codes, n_values, *args)
        self.classes_ = classes
        self.n_values_ = n_values
        self.n_features_in_ = X.shape[1]
        self.n_perceptrons_ = int(self.model_[0].shape[0])
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False      # Weka's VotedPerceptron: two classes
        return tags

    def _predict_codes(self, X):
        if self.model_[0].dtype == np.float64:
            return _vp_predict_numeric(self.model_, X)
        return _vp_predict(self.model_, X)

    def _predict_proba_codes(self, X):
        if self.model_[0].dtype == np.float64:
            return _vp_predict_proba_numeric(self.model_, X)
        return _vp_predict_proba(self.model_, X)

    def _prepare_X(self, X):
        # missing values (NaN) become the training mode or mean, as Weka's ReplaceMissingValues
        if self.model_[0].dtype != np.float64:
            return _nominal_predict_codes(X, self.n_values_, self.modes_)
        X, _ = _check_general_predict_input(X, self.n_values_)
        return _fill_modes_and_means(X, self.n_values_, self.modes_, self.means_)
