"""Tree-augmented naive Bayes faithful to Weka 3.6's ``BayesNet`` with the ``TAN`` search."""

from __future__ import annotations

import math

import numba
import numpy as np

from .._docstrings import fill_doc
from ._base import _LEARNER_DOCS, NominalClassifier
from ._general import (_check_general_fit, _check_general_fit_inputs,
                       _check_general_predict_input)
from ._kernels_tan import _tan_fit, _tan_predict, _tan_predict_proba

__all__ = ["TAN"]


# --------------------------------------------------------------------------
# Numeric attributes: Fayyad & Irani's MDL discretisation, as Weka's supervised
# ``Discretize`` (default options) inside BayesNet. Written from Fayyad & Irani
# (1993) and the order of Weka's floating-point operations; no Weka code copied.
# --------------------------------------------------------------------------

_LN2 = math.log(2.0)


@numba.njit(cache=True)
def _xlnx(v):
    return v * math.log(v) if v > 0.0 else 0.0


@numba.njit(cache=True)
def _entropy(counts):
    """Entropy in bits of class counts, summed as Weka's ``ContingencyTables.entropy``."""
    s = 0.0
    total = 0.0
    for c in counts:
        s -= _xlnx(c)
        total += c
    if abs(total) < 1e-6:
        return 0.0
    return (s + _xlnx(total)) / (total * _LN2)


@numba.njit(cache=True)
def _entropy_split(left, right):
    """Class entropy in bits after a binary split (``entropyConditionedOnRows``)."""
    s = 0.0
    total = 0.0
    for row in range(2):
        counts = left if row == 0 else right
        row_sum = 0.0
        for c in counts:
            s += _xlnx(c)
            row_sum += c
        s -= _xlnx(row_sum)
        total += row_sum
    if abs(total) < 1e-6:
        return 0.0
    return -s / (total * _LN2)


@numba.njit(cache=True)
def _mdl_accepts(prior, left, right, n_inst, n_cuts):
    """Fayyad & Irani's MDL criterion: gain > (log2(N - 1) + delta) / N."""
    prior_e = _entropy(prior)
    gain = prior_e - _entropy_split(left, right)
    k = 0
    k_left = 0
    k_right = 0
    for c in range(prior.shape[0]):
        k += prior[c] > 0.0
        k_left += left[c] > 0.0
        k_right += right[c] > 0.0
    delta = (math.log(3.0 ** k - 2.0) / _LN2
             - ((k * prior_e - k_right * _entropy(right)) - k_left * _entropy(left)))
    return gain > (math.log(n_cuts) / _LN2 + delta) / n_inst


@numba.njit(cache=True)
def _mdl_cut_points(v, c, n_classes):
    """(m,) f8 sorted known values, (m,) i8 their classes, i8 -> (k,) f8 increasing cut points.

    Recursive minimum-entropy binary splits of the sorted values, each kept
    only if :func:`_mdl_accepts`; a candidate cut lies half-way between two
    adjacent distinct values, and the first of equally good cuts wins.
    """
    m = v.shape[0]
    cuts = np.empty(m, np.float64)
    n_found = 0
    stack = np.empty((2 * m + 2, 2), np.int64)
    stack[0, 0], stack[0, 1] = 0, m
    top = 1
    C = n_classes
    left, right, prior = np.zeros(C), np.zeros(C), np.zeros(C)
    best_left, best_right = np.zeros(C), np.zeros(C)
    while top > 0:
        top -= 1
        first, last = stack[top, 0], stack[top, 1]
        if last - first < 2:
            continue
        right[:] = 0.0
        left[:] = 0.0
        n_inst = 0.0
        for i in range(first, last):
            n_inst += 1.0
            right[c[i]] += 1.0
        prior[:] = right
        best_e = _entropy(prior)
        prior_e = best_e
        best_i = -1
        best_cut = 0.0
        for i in range(first, last - 1):
            left[c[i]] += 1.0
            right[c[i]] -= 1.0
            if v[i] < v[i + 1]:
                e = _entropy_split(left, right)
                if e < best_e:
                    best_cut = (v[i] + v[i + 1]) / 2.0
                    best_e = e
                    best_i = i
                    best_left[:] = left
                    best_right[:] = right
        if prior_e - best_e <= 0.0:
            continue
        if _mdl_accepts(prior, best_left, best_right, n_inst, np.float64(last - first - 1)):
            cuts[n_found] = best_cut
            n_found += 1
            stack[top, 0], stack[top, 1] = first, best_i + 1
            stack[top + 1, 0], stack[top + 1, 1] = best_i + 1, last
            top += 2
    return np.sort(cuts[:n_found])


def _cut_points(x, y_codes, n_classes) -> np.ndarray:
    """MDL cut points of one numeric attribute ``x`` (NaN = missing, left out)."""
    known = ~np.isnan(x)
    order = np.argsort(x[known], kind="stable")
    return _mdl_cut_points(np.ascontiguousarray(x[known][order]),
                           np.ascontiguousarray(y_codes[known][order]), np.int64(n_classes))


def _discretize(x, cuts) -> np.ndarray:
    """Bin of each value: the first ``j`` with ``x <= cuts[j]`` (``len(cuts)`` past the last); NaN kept."""
    out = np.searchsorted(cuts, x, side="left").astype(np.float64)
    out[np.isnan(x)] = np.nan
    return out


# --------------------------------------------------------------------------
# Missing values: Weka's ReplaceMissingValues (modes of nominal attributes)
# --------------------------------------------------------------------------

def _training_modes(X, n_values) -> np.ndarray:
    """Mode of each column's known codes (the first of equally frequent ones; 0 if none)."""
    modes = np.zeros(X.shape[1], np.int64)
    for j in range(X.shape[1]):
        col = X[:, j]
        known = col[~np.isnan(col)].astype(np.int64)
        if known.size:
            modes[j] = int(np.argmax(np.bincount(known, minlength=int(n_values[j]))))
    return modes


def _nominal_fit_codes(X, y, n_values, learner, classes=None):
    """Validate ``fit`` input of a nominal-only learner; fill missing values with modes.

    Returns ``(codes, y_codes, classes, n_values, modes)``: ``codes`` int64
    with every NaN replaced by its column's mode among the known training
    values (the first of equally frequent values, 0 for a column with none),
    as Weka's ``ReplaceMissingValues`` does.

    Raises
    ------
    ValueError
        As :func:`calibsim.learners._general._check_general_fit_inputs`, and if
        an attribute is numeric (``n_values`` 0, or float ``X`` without
        ``n_values``).
    """
    X, y_codes, classes, n_values, codes = _check_general_fit_inputs(X, y, n_values, classes)
    if (n_values == 0).any():
        j = int(np.flatnonzero(n_values == 0)[0])
        raise ValueError(f"{learner} supports nominal attributes only; got a numeric attribute "
                         f"(n_values[{j}] = 0). Discretize numeric attributes first, and pass "
                         f"integer codes or `n_values`.")
    modes = np.zeros(X.shape[1], np.int64)
    if not codes:
        modes = _training_modes(X, n_values)
        X = _fill_missing(X, modes)
    return X, y_codes, classes, n_values, modes


def _fill_missing(X, modes):
    """float X with NaN -> int64 codes, NaN replaced by ``modes[j]``."""
    X = np.array(X, dtype=np.float64, copy=True)
    rows, cols = np.nonzero(np.isnan(X))
    X[rows, cols] = modes[cols]
    return np.ascontiguousarray(X, dtype=np.int64)


def _nominal_predict_codes(X, n_values, modes):
    X, codes = _check_general_predict_input(X, n_values)
    return X if codes else _fill_missing(X, modes)


# --------------------------------------------------------------------------
# Estimator
# --------------------------------------------------------------------------

@fill_doc(**_LEARNER_DOCS)
class TAN(NominalClassifier):
    """Tree-augmented naive Bayes as Weka's ``BayesNet`` with the ``TAN`` search.

    Reproduces Weka 3.6's ``weka.classifiers.bayes.BayesNet -D -Q
    weka.classifiers.bayes.net.search.local.TAN -E
    weka.classifiers.bayes.net.estimate.SimpleEstimator -- -A 0.5`` (the
    default search options: Bayesian score with prior count 0.5, no Markov
    blanket correction) [1]_, [2]_. Each attribute has the class as a parent
    and at most one other attribute, chosen by a maximum-weight spanning tree
    over the gains ``score(i | class, j) - score(i | class)`` of Weka's
    Bayesian (Dirichlet, prior count 0.5) log score, grown as Weka grows it:
    first the pair of largest gain, then repeatedly the best pair joining a
    linked and an unlinked attribute, always keeping the first of equal gains
    in the scan order (outer attribute ``i``, inner ``j``); the link is
    directed so that ``j`` gets parent ``i`` unless it already has a parent.
    Conditional tables are ``(N + 0.5) / (N_parents + 0.5 V)`` and the class
    prior ``(N_c + 0.5) / (N + 0.5 C)``. A test instance's class scores are
    ``1 + sum of log probabilities`` (attributes in order, class prior last),
    turned into probabilities by ``exp(score - max)`` and normalised; the
    prediction is the first class with the largest probability.

    A numeric attribute is discretised first, as ``BayesNet`` does with Weka's
    supervised ``Discretize`` filter [3]_: the training values (missing ones
    left out) are sorted and split recursively at the cut, half-way between
    two adjacent distinct values, of least class entropy (the first of equal
    ones), as long as Fayyad and Irani's MDL criterion accepts the split:
    information gain ``> (log2(N - 1) + delta) / N`` with ``delta =
    log2(3**k - 2) - (k E - k1 E1 - k2 E2)`` over the subset's ``N`` values and
    ``k`` classes (``k1``, ``k2``, ``E1``, ``E2`` those of the two sides). A
    value ``x`` goes to the first bin whose cut point is ``>= x``; an attribute
    without cut points becomes a single value. A missing value (NaN) is then
    replaced, in training and at prediction, by the mode of the attribute's
    known (discretised) training values (the first of equally frequent
    values), as Weka's ``ReplaceMissingValues`` filter does inside ``BayesNet``.

    The model has no hyperparameters.

    {fitted_attributes}
    cut_points_ : list of (ndarray or None)
        Increasing MDL cut points of each numeric attribute; None for a
        nominal one.
    discrete_n_values_ : ndarray of shape (n_features,), int64
        Number of values of each attribute after discretisation (the number
        of cut points + 1 for a numeric one); the tables' sizes.
    parent_ : ndarray of shape (n_features,), int64
        Tree parent of each attribute (besides the class); -1 for the root
        (and for the single attribute of one-attribute data).
    modes_ : ndarray of shape (n_features,), int64
        Training mode of each (discretised) attribute, used for missing values.
    model_ : tuple of ndarray
        The kernel's model ``(parent, log_cpt, cpt_offset, log_prior)``.

    Notes
    -----
    The scores use Cephes' ``lgam`` as Weka's ``Statistics.lnGamma`` does, and
    the sums are formed in Weka's order, so equal gains (frequent on binary
    data) are equal here too and the first one wins as in Weka. The only
    possible source of disagreement is the last bit of ``log``/``exp``, where
    Java's intrinsics may differ from the C library's.

    Agreement with Weka 3.6.14 (``scripts/weka_oracle.py --tan-vp-numeric``):
    identical trees and predictions on all 1,900 splits (86,680 test
    predictions) of 10 x 10 stratified cross-validation of the 19 shipped UCI
    sets with numeric attributes; the first run's distributions agree to
    within 3e-16.

    References
    ----------
    .. [1] Friedman, N., Geiger, D. & Goldszmidt, M. (1997). Bayesian network
           classifiers. Machine Learning 29, 131-163.
           doi:10.1023/A:1007465528199
    .. [2] Bouckaert, R. R. (2004). Bayesian network classifiers in Weka.
           Working paper 14/2004, University of Waikato.
    .. [3] Fayyad, U. M. & Irani, K. B. (1993). Multi-interval discretization
           of continuous-valued attributes for classification learning. Proc.
           13th International Joint Conference on Artificial Intelligence,
           1022-1027.

    Examples
    --------
    >>> import numpy as np
    >>> from calibsim.learners import TAN
    >>> X = np.array([[0, 0, 1], [0, 0, 0], [1, 1, 1], [1, 1, 0], [1, 1, 1], [0, 1, 0]])
    >>> y = np.array([0, 0, 1, 1, 1, 0])
    >>> tan = TAN().fit(X, y)
    >>> tan.parent_              # attribute 1 is the root: 1 -> 0 -> 2
    array([ 1, -1,  0])
    >>> tan.predict([[1, 1, 0], [0, 1, 1]])
    array([1, 0])
    >>> tan.predict_proba([[0, 1, 0]]).round(4)
    array([[0.7627, 0.2373]])

    Numeric attributes (``n_values`` 0, or float ``X``) are discretised:

    >>> Xn = np.array([[1.0, 5.2], [1.4, 3.1], [3.9, 4.4], [4.2, 4.0], [3.7, 5.0], [1.1, 3.3]])
    >>> tan = TAN().fit(Xn, y)        # cut half-way between 1.4 and 3.7; none for column 1
    >>> tan.cut_points_, tan.discrete_n_values_
    ([array([2.55]), array([], dtype=float64)], array([2, 1]))
    >>> tan.predict([[2.5, 4.0], [2.6, 4.0]])
    array([0, 1])
    """

    @fill_doc(**_LEARNER_DOCS)
    def fit(self, X, y, n_values=None, classes=None):
        """Learn the tree and the conditional probability tables.

        {fit_X_y}
        n_values : array_like of shape (n_features,), optional
            Number of values of each nominal attribute, 0 for a numeric one;
            by default ``X.max(axis=0) + 1`` (all nominal) for integer ``X``
            and all numeric for float ``X``. Pass the declared arity: it
            enters the scores and the tables.
        {fit_classes}
            as in Weka: it enters the scores, the tables and the class prior. Defaults
            to ``np.unique(y)``.

        Returns
        -------
        self : TAN

        Raises
        ------
        ValueError
            If ``X`` is not a 2-D numeric array with at least one row whose
            nominal columns hold codes (or NaN) below ``n_values``, ``y`` does
            not have one label per row, or ``classes`` does not hold every
            label of ``y``.
        {fit_raises_end}
        """
        X, y_codes, classes, n_values, codes = _check_general_fit(self, X, y, n_values, classes)
        C = classes.shape[0]
        self.cut_points_ = [None] * X.shape[1]
        discrete = n_values.copy()
        if not codes:
            X = np.array(X, dtype=np.float64, copy=True)
            for j in np.flatnonzero(n_values == 0):
                self.cut_points_[j] = _cut_points(X[:, j], y_codes, C)
                X[:, j] = _discretize(X[:, j], self.cut_points_[j])
                discrete[j] = self.cut_points_[j].size + 1
        self.modes_ = np.zeros(X.shape[1], np.int64) if codes else _training_modes(X, discrete)
        if not codes:
            X = _fill_missing(X, self.modes_)
        self.classes_ = classes
        self.n_values_ = n_values
        self.discrete_n_values_ = discrete
        self.n_features_in_ = X.shape[1]
        self.model_ = _tan_fit(X, y_codes, discrete, np.int64(C))
        self.parent_ = self.model_[0].copy()
        return self

    def _predict_codes(self, X):
        return _tan_predict(self.model_, self.discrete_n_values_, X)

    def _predict_proba_codes(self, X):
        return _tan_predict_proba(self.model_, self.discrete_n_values_, X)

    def _prepare_X(self, X):
        X, codes = _check_general_predict_input(X, self.n_values_)
        if codes:
            return X
        X = np.array(X, dtype=np.float64, copy=True)
        for j, cuts in enumerate(self.cut_points_):
            if cuts is not None:
                X[:, j] = _discretize(X[:, j], cuts)
        # missing values (NaN) become the training mode, as Weka's ReplaceMissingValues
        return _fill_missing(X, self.modes_)
