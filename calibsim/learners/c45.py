"""C4.5 decision trees faithful to Weka 3.6's ``J48``: nominal and numeric
attributes, missing values."""

from __future__ import annotations

import numpy as np

from .._docstrings import fill_doc
from .._validation import check_int, check_probability
from ._base import (_LEARNER_DOCS, NominalClassifier, _check_fit_common, _check_fit_inputs,
                    _check_predict_input, _encode_labels)
from ._c45 import (
    _c45_fit, _c45_fit_general, _c45_predict, _c45_predict_general, _c45_predict_proba,
    _c45_predict_proba_general, _c45_size, _c45_size_general,
)

__all__ = ["C45"]


@fill_doc(**_LEARNER_DOCS)
class C45(NominalClassifier):
    """Pruned C4.5 decision tree, reproducing Weka 3.6's ``J48``.

    Grows a tree with one branch per value of a nominal attribute and a
    binary split ``x <= t`` on a numeric one, choosing at each node the
    attribute with the largest gain ratio among the splits whose
    information gain is at least the average gain (minus 1e-3) [1]_. A node
    becomes a leaf when it holds fewer than ``2 * min_obj`` instances, is
    pure, or no split puts ``min_obj`` instances into at least two branches.
    Branches for values absent from a node are kept as empty leaves that
    predict from their parent's class distribution. The tree is then
    collapsed and pruned with C4.5's pessimistic error estimate and subtree
    raising, as in ``J48`` with its default options (``-C 0.25 -M 2``) [2]_.
    Ties between attributes go to the first attribute and ties between
    classes to the first class.

    Numeric attributes follow J48 too: the cut point maximises the
    information gain among cuts leaving at least ``0.1 * weight /
    n_classes`` (clipped to ``[min_obj, 25]``) on each side, its gain is
    reduced by the MDL term ``log2(number of cuts) / weight``, and the
    threshold ``t`` is the largest training value of the attribute not above
    the cut's mid-point. Missing values (NaN) are handled as in C4.5: gains
    are computed on the known values and scaled by their share, and an
    instance with a missing split value goes down every branch with a
    weight proportional to the branch's share of the training weight, both
    in training and at prediction time, where the branches' class
    probabilities are summed.

    Parameters
    ----------
    confidence : float, default=0.25
        Confidence factor for pruning (J48 ``-C``), in (0, 0.5]. Smaller values
        prune more. Stored by Weka as a single-precision float, as here.
    min_obj : int, default=2
        Minimum number of instances in at least two branches of a split
        (J48 ``-M``), >= 1.

    {fitted_attributes}
    tree_ : tuple of ndarray
        The kernel's tree ``(attr, first_child, node_class, node_prob,
        node_dist)`` in breadth-first order; ``attr[u] == -1`` marks a leaf
        and the children of node ``u`` are ``first_child[u] + value``. When
        the general path was used (numeric attributes, missing values or
        float input) four arrays follow: ``split`` (the threshold of a
        numeric split, whose children are ``first_child[u] + 0`` for ``x <=
        split[u]`` and ``+ 1`` above; NaN otherwise), ``branch_frac`` (the
        share of the parent's weight in the branch), ``empty`` (leaves no
        training weight reached) and ``n_sons``.
    tree_size_ : tuple of int
        ``(n_nodes, n_leaves)``, Weka's "Size of the tree" and "Number of
        Leaves" (empty leaves included).

    Notes
    -----
    ``fit`` takes one of two paths, which agree wherever both apply:
    integer codes without missing values and without numeric attributes run
    a fast bitset kernel; float input, NaN or a numeric attribute
    (``n_values[j] == 0``) run the general weighted kernel.

    ``predict_proba`` returns J48's ``distributionForInstance`` unchanged:
    the class frequencies at the leaf reached (the parent's for an empty
    leaf) or, for an instance with a missing split value, the sum over the
    non-empty branches of their probabilities times the branch's share.
    When a missing value sends an instance down several branches, the
    empty leaves among them are skipped, so a row can sum to less than 1.
    In the rare case that subtree raising leaves a non-empty leaf without
    training instances, Weka's class probabilities there are all zero and
    its prediction is the first class; this estimator does the same.

    Agreement with Weka 3.6.14 (``scripts/weka_j48_check.py`` and
    ``scripts/weka_c45_general_check.py``): identical tree sizes, leaf
    counts and predictions on every fold of 10-fold cross-validation of
    simulated nominal, numeric and mixed data with missing values and of
    Weka's example UCI data sets.

    References
    ----------
    .. [1] Quinlan, J. R. (1993). C4.5: Programs for Machine Learning.
           Morgan Kaufmann. ISBN 1-55860-238-0.
    .. [2] {witten_frank2005}
           (Weka 3.6, ``weka.classifiers.trees.J48``).

    Examples
    --------
    Weka's ``weather.nominal`` data (outlook, temperature, humidity, windy):

    >>> import numpy as np
    >>> from calibsim.learners import C45
    >>> X = np.array([[0, 0, 0, 1], [0, 0, 0, 0], [1, 0, 0, 1], [2, 1, 0, 1],
    ...               [2, 2, 1, 1], [2, 2, 1, 0], [1, 2, 1, 0], [0, 1, 0, 1],
    ...               [0, 2, 1, 1], [2, 1, 1, 1], [0, 1, 1, 0], [1, 1, 0, 0],
    ...               [1, 0, 1, 1], [2, 1, 0, 0]])
    >>> y = np.array(["no", "no", "yes", "yes", "yes", "no", "yes", "no",
    ...               "yes", "yes", "yes", "yes", "yes", "no"])
    >>> tree = C45().fit(X, y)
    >>> tree.tree_size_                   # J48: size 8, 5 leaves
    (8, 5)
    >>> tree.predict([[0, 0, 1, 0], [2, 0, 0, 0]])
    array(['yes', 'no'], dtype='<U3')

    ``weather.numeric`` (temperature and humidity numeric, marked by
    ``n_values == 0``); a missing outlook spreads the instance over the
    three branches in proportion 5:4:5:

    >>> Xn = np.array([[0, 85, 85, 1], [0, 80, 90, 0], [1, 83, 86, 1],
    ...                [2, 70, 96, 1], [2, 68, 80, 1], [2, 65, 70, 0],
    ...                [1, 64, 65, 0], [0, 72, 95, 1], [0, 69, 70, 1],
    ...                [2, 75, 80, 1], [0, 75, 70, 0], [1, 72, 90, 0],
    ...                [1, 81, 75, 1], [2, 71, 91, 0]], dtype=float)
    >>> tree = C45().fit(Xn, y, n_values=[3, 0, 0, 2])
    >>> tree.tree_size_                   # J48: size 8, 5 leaves, humidity <= 75
    (8, 5)
    >>> tree.classes_
    array(['no', 'yes'], dtype='<U3')
    >>> tree.predict_proba([[np.nan, 70, 96, 1]]).round(4)   # Weka: yes 0.643, no 0.357
    array([[0.3571, 0.6429]])
    """

    def __init__(self, *, confidence=0.25, min_obj=2):
        self.confidence = confidence
        self.min_obj = min_obj

    def _check_params(self):
        cf = check_probability("confidence", self.confidence, open_low=True, open_high=False)
        if cf > 0.5:
            raise ValueError(f"`confidence` must lie in (0, 0.5] (Weka does not prune with "
                             f"larger values); got {self.confidence!r}.")
        return cf, check_int("min_obj", self.min_obj, min_value=1)

    def fit(self, X, y, n_values=None, classes=None):
        """Grow, collapse and prune the tree.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            Attribute values. A nominal attribute holds codes
            ``0..n_values[j]-1`` (integers, or floats with integer values);
            a numeric attribute any finite values; NaN marks a missing value
            (float input only).
        y : array_like of shape (n_samples,)
            Class labels (any sortable type), not NaN; see ``classes``.
        n_values : array_like of shape (n_features,), optional
            Number of values of each nominal attribute, and 0 for a numeric
            attribute. Defaults to ``X.max(axis=0) + 1`` (all nominal) for
            integer ``X`` and to all zeros (all numeric) for float ``X``.
            Declared but unseen nominal values get (empty) branches, which
            changes the tree size, so pass the declared arity to match Weka.
        classes : array_like of shape (n_classes,), optional
            The declared class labels in their declared order (as the values of
            Weka's class attribute); it becomes ``classes_``, the columns of
            ``predict_proba``. Every label of ``y`` must be in it; a declared
            class absent from ``y`` (a fold that misses a class) is a class with
            no training instances, as in Weka: the class distributions
            have its (zero) column. Defaults to ``np.unique(y)``.

        Returns
        -------
        self : C45

        Raises
        ------
        TypeError
            If ``confidence`` is not a real number, ``min_obj`` not an integer, or
            ``X`` a sparse matrix.
        ValueError
            If ``confidence`` is outside (0, 0.5], ``min_obj`` < 1, ``X`` is not
            a 2-D numeric array with at least one row, ``y`` does not have one
            label per row, ``n_values`` is not one non-negative integer per
            column, a nominal column holds anything but codes below its
            ``n_values`` (or NaN), a numeric column holds an infinity, or
            ``classes`` does not hold every label of ``y``.
            Also if ``X`` is complex or has no column, or ``y`` is None, holds
            NaN or is not a set of class labels (scikit-learn's "Unknown label
            type", e.g. continuous).
        """
        cf, min_obj = self._check_params()
        arr, y = _check_fit_common(self, X, y)
        nv_zero = n_values is not None and np.any(np.asarray(n_values) == 0)
        general = (np.issubdtype(arr.dtype, np.floating) or nv_zero) and arr.dtype != object
        if not general:
            X, y_codes, classes, n_values = _check_fit_inputs(arr, y, n_values, classes)
            self.tree_ = _c45_fit(X, y_codes, n_values, np.int64(classes.shape[0]),
                                  np.float64(cf), np.int64(min_obj))
            n_nodes, n_leaves = _c45_size(self.tree_)
        else:
            X, n_values = _iv_general_X(arr, n_values)
            y_codes, classes = _iv_labels(y, X.shape[0], classes)
            self.tree_ = _c45_fit_general(X, y_codes, np.ones(X.shape[0]), n_values,
                                          np.int64(classes.shape[0]), np.float64(cf),
                                          np.int64(min_obj))
            n_nodes, n_leaves = _c45_size_general(self.tree_)
        self.classes_ = classes
        self.n_values_ = n_values
        self.n_features_in_ = X.shape[1]
        self.tree_size_ = (int(n_nodes), int(n_leaves))
        return self

    def _general_tree(self):
        """The fitted tree in the general layout (converted once from the nominal one)."""
        if len(self.tree_) == 9:
            return self.tree_
        if getattr(self, "_general_cache", (None,))[0] is not self.tree_:
            self._general_cache = (self.tree_, _as_general_tree(self.tree_, self.n_values_))
        return self._general_cache[1]

    def _prepare_X(self, X):
        """int64 codes for the bitset tree's kernels, else float64 (NaN = missing) for the general ones."""
        if len(self.tree_) == 5 and not (np.issubdtype(X.dtype, np.floating)
                                         and np.isnan(X).any()):
            return _check_predict_input(X, self.n_values_)
        Xf, _ = _iv_general_X(X, self.n_values_, fitted=True)
        return Xf

    def _kernels(self, X):
        if X.dtype == np.float64:
            return self._general_tree(), _c45_predict_general, _c45_predict_proba_general
        return self.tree_, _c45_predict, _c45_predict_proba


def _iv_labels(y, n_rows, classes=None):
    """Class codes and labels of ``y`` (one label per row; see ``_encode_labels``)."""
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"`y` must be a 1-D array of class labels; got shape {y.shape}.")
    if y.shape[0] != n_rows:
        raise ValueError(f"`X` and `y` must have the same number of rows; got {n_rows} "
                         f"and {y.shape[0]}.")
    return _encode_labels(y, classes)


def _iv_general_X(arr, n_values, *, fitted=False):
    """Validate ``X`` (and ``n_values``) for the general kernels.

    Returns ``X`` as C-contiguous float64 (NaN = missing) and ``n_values``
    as int64 (0 = numeric). With ``fitted`` true, ``n_values`` is the fitted
    model's and ``X`` must have as many columns.
    """
    if arr.ndim != 2:
        raise ValueError(f"`X` must be a 2-D array of shape (n_samples, n_features); "
                         f"got an array with shape {arr.shape}.")
    if arr.shape[0] < 1:                   # fit and predict alike (learners/__init__.py)
        raise ValueError(f"`X` must have at least one row; got shape {arr.shape}.")
    if arr.dtype == bool:
        arr = arr.astype(np.int64)
    if not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
        raise ValueError(f"`X` must hold numbers (codes, values or NaN); got dtype {arr.dtype}.")
    X = np.ascontiguousarray(arr, dtype=np.float64)
    if fitted:
        if X.shape[1] != n_values.shape[0]:
            raise ValueError(f"`X` must have {n_values.shape[0]} columns, as in `fit`; "
                             f"got {X.shape[1]}.")
        nv = n_values
    elif n_values is None:
        nv = np.zeros(X.shape[1], np.int64)
    else:
        nv = np.asarray(n_values)
        if (nv.shape != (X.shape[1],) or not np.issubdtype(nv.dtype, np.integer)
                or np.any(nv < 0)):
            raise ValueError(f"`n_values` must be a 1-D array of {X.shape[1]} non-negative "
                             f"integers (one per column of `X`, 0 for a numeric attribute); "
                             f"got {n_values!r}.")
        nv = np.ascontiguousarray(nv, dtype=np.int64)
    known = ~np.isnan(X)
    nominal = nv > 0
    if np.any(np.isinf(X[:, ~nominal])):
        j = int(np.flatnonzero(~nominal)[np.argmax(np.isinf(X[:, ~nominal]).any(axis=0))])
        raise ValueError(f"`X` must hold finite values or NaN in numeric column {j}; got "
                         f"{float(X[np.isinf(X[:, j]), j][0])!r}.")
    Xn = X[:, nominal]
    bad = known[:, nominal] & ((Xn != np.round(Xn)) | (Xn < 0) | (Xn >= nv[nominal]))
    if bad.any():
        i, k = np.argwhere(bad)[0]
        j = int(np.flatnonzero(nominal)[k])
        raise ValueError(f"`X` must hold codes 0..{int(nv[j]) - 1} or NaN in nominal column "
                         f"{j} (n_values[{j}] = {int(nv[j])}); got {float(X[i, j])!r}.")
    return X, nv


def _as_general_tree(tree, n_values):
    """A nominal-path tree in the general layout (to predict with missing values).

    Without missing values in training, a node's split distribution per
    branch is its son's class counts, so the branch shares are the sons'
    weights over the node's; an empty leaf is one with no weight whose
    probabilities were taken from its parent.
    """
    attr, first, node_class, node_prob, node_dist = tree
    m = attr.shape[0]
    tot = node_dist.sum(axis=1)
    n_sons = np.where(attr >= 0, n_values[np.maximum(attr, 0)], 0).astype(np.int64)
    frac = np.ones(m)
    for u in np.flatnonzero(attr >= 0):
        kids = first[u] + np.arange(n_sons[u])
        frac[kids] = tot[kids] / tot[u]
    empty = (attr < 0) & (tot == 0) & (node_prob > 0).any(axis=1)
    return (attr, first, node_class, node_prob, node_dist, np.full(m, np.nan), frac, empty,
            n_sons)
