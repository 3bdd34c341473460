"""Tree-augmented naive Bayes faithful to Weka 3.6's ``BayesNet`` with the ``TAN`` search."""

from __future__ import annotations

import numpy as np

from ._base import NominalClassifier
from ._general import _check_general_fit_inputs, _check_general_predict_input
from ._kernels_tan import _tan_fit, _tan_predict, _tan_predict_proba

__all__ = ["TAN"]


# --------------------------------------------------------------------------
# Nominal data with missing values: Weka's ReplaceMissingValues (modes)
# --------------------------------------------------------------------------

def _nominal_fit_codes(X, y, n_values, learner):
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
    X, y_codes, classes, n_values, codes = _check_general_fit_inputs(X, y, n_values)
    if (n_values == 0).any():
        j = int(np.flatnonzero(n_values == 0)[0])
        raise ValueError(f"{learner} supports nominal attributes only; got a numeric attribute "
                         f"(n_values[{j}] = 0). Discretize numeric attributes first, and pass "
                         f"integer codes or `n_values`.")
    modes = np.zeros(X.shape[1], np.int64)
    if not codes:
        for j in range(X.shape[1]):
            col = X[:, j]
            known = col[~np.isnan(col)].astype(np.int64)
            if known.size:
                modes[j] = int(np.argmax(np.bincount(known, minlength=int(n_values[j]))))
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

    Only nominal attributes are supported (Weka would discretize numeric
    ones with Fayyad and Irani's MDL method). A missing value (NaN) is
    replaced, in training and at prediction, by the mode of the attribute's
    known training values (the first of equally frequent values), as Weka's
    ``ReplaceMissingValues`` filter does inside ``BayesNet``.

    The model has no hyperparameters.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Sorted distinct class labels seen in ``fit``.
    n_values_ : ndarray of shape (n_features,), int64
        Number of values of each attribute.
    n_features_in_ : int
        Number of attributes.
    parent_ : ndarray of shape (n_features,), int64
        Tree parent of each attribute (besides the class); -1 for the root
        (and for the single attribute of one-attribute data).
    modes_ : ndarray of shape (n_features,), int64
        Training mode of each attribute, used for missing values.
    model_ : tuple of ndarray
        The kernel's model ``(parent, log_cpt, cpt_offset, log_prior)``.

    Notes
    -----
    The scores use Cephes' ``lgam`` as Weka's ``Statistics.lnGamma`` does, and
    the sums are formed in Weka's order, so equal gains (frequent on binary
    data) are equal here too and the first one wins as in Weka. The only
    possible source of disagreement is the last bit of ``log``/``exp``, where
    Java's intrinsics may differ from the C library's.

    References
    ----------
    .. [1] Friedman, N., Geiger, D. & Goldszmidt, M. (1997). Bayesian network
           classifiers. Machine Learning 29, 131-163.
           doi:10.1023/A:1007465528199
    .. [2] Bouckaert, R. R. (2004). Bayesian network classifiers in Weka.
           Working paper 14/2004, University of Waikato.

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
    """

    def __init__(self):
        pass

    def fit(self, X, y, n_values=None):
        """Learn the tree and the conditional probability tables.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            Nominal codes ``0 <= X[:, j] < n_values[j]``; NaN marks a missing
            value (then ``X`` is float and ``n_values`` is required).
        y : array_like of shape (n_samples,)
            Class labels (any sortable type); ``classes_`` is ``np.unique(y)``.
        n_values : array_like of shape (n_features,), optional
            Number of values of each attribute (all > 0); by default
            ``X.max(axis=0) + 1`` for integer ``X``. Pass the declared arity:
            it enters the scores and the tables.

        Returns
        -------
        self : TAN

        Raises
        ------
        ValueError
            If ``X`` is not a 2-D array of codes (or NaN) below ``n_values``
            with at least one row, an attribute is numeric, or ``y`` does not
            have one label per row.
        """
        X, y_codes, classes, n_values, modes = _nominal_fit_codes(X, y, n_values, "TAN")
        self.classes_ = classes
        self.n_values_ = n_values
        self.n_features_in_ = X.shape[1]
        self.modes_ = modes
        self.model_ = _tan_fit(X, y_codes, n_values, np.int64(classes.shape[0]))
        self.parent_ = self.model_[0].copy()
        return self

    def _predict_codes(self, X):
        return _tan_predict(self.model_, self.n_values_, X)

    def _predict_proba_codes(self, X):
        return _tan_predict_proba(self.model_, self.n_values_, X)

    def _prepare_X(self, X):
        # missing values (NaN) become the training mode, as Weka's ReplaceMissingValues
        return _nominal_predict_codes(X, self.n_values_, self.modes_)
