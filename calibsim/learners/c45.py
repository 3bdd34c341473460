"""C4.5 decision trees on nominal attributes, faithful to Weka 3.6's ``J48``."""

from __future__ import annotations

import numpy as np

from .._validation import check_int, check_probability
from ._base import NominalClassifier, _check_fit_inputs
from ._kernels_c45 import _c45_fit, _c45_predict, _c45_predict_proba, _c45_size

__all__ = ["C45"]


class C45(NominalClassifier):
    """Pruned C4.5 decision tree, reproducing Weka 3.6's ``J48`` on nominal data.

    Grows a tree with one branch per attribute value, choosing at each node
    the attribute with the largest gain ratio among the splits whose
    information gain is at least the average gain (minus 1e-3) [1]_. A node
    becomes a leaf when it holds fewer than ``2 * min_obj`` instances, is
    pure, or no split puts ``min_obj`` instances into at least two branches.
    Branches for values absent from a node are kept as empty leaves that
    predict from their parent's class distribution. The tree is then
    collapsed and pruned with C4.5's pessimistic error estimate and subtree
    raising, as in ``J48`` with its default options (``-C 0.25 -M 2``) [2]_.
    Ties between attributes go to the first attribute and ties between
    classes to the first class.

    Parameters
    ----------
    confidence : float, default=0.25
        Confidence factor for pruning (J48 ``-C``), in (0, 0.5]. Smaller values
        prune more. Stored by Weka as a single-precision float, as here.
    min_obj : int, default=2
        Minimum number of instances in at least two branches of a split
        (J48 ``-M``), >= 1.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Sorted distinct class labels seen in ``fit``.
    n_values_ : ndarray of shape (n_features,), int64
        Number of values of each attribute (codes are ``0..n_values_[j]-1``).
    n_features_in_ : int
        Number of attributes.
    tree_ : tuple of ndarray
        The kernel's tree ``(attr, first_child, node_class, node_prob,
        node_dist)`` in breadth-first order; ``attr[u] == -1`` marks a leaf
        and the children of node ``u`` are ``first_child[u] + value``.
    tree_size_ : tuple of int
        ``(n_nodes, n_leaves)``, Weka's "Size of the tree" and "Number of
        Leaves" (empty leaves included).

    Notes
    -----
    Missing values and numeric attributes are not supported yet. In the rare
    case that subtree raising leaves a non-empty leaf without training
    instances, Weka's class probabilities there are all zero and its
    prediction is the first class; this estimator does the same.

    References
    ----------
    .. [1] Quinlan, J. R. (1993). C4.5: Programs for Machine Learning.
           Morgan Kaufmann. ISBN 1-55860-238-0.
    .. [2] Witten, I. H. & Frank, E. (2005). Data Mining: Practical Machine
           Learning Tools and Techniques, 2nd ed. Morgan Kaufmann (Weka 3.6,
           ``weka.classifiers.trees.J48``).

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

    def fit(self, X, y, n_values=None):
        """Grow, collapse and prune the tree.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            Nominal codes: non-negative integers, ``X[:, j] < n_values[j]``.
        y : array_like of shape (n_samples,)
            Class labels (any sortable type); ``classes_`` is ``np.unique(y)``.
        n_values : array_like of shape (n_features,), optional
            Number of values of each attribute. Defaults to ``X.max(axis=0) + 1``.
            Declared but unseen values get (empty) branches, which changes
            the tree size, so pass the declared arity to match Weka.

        Returns
        -------
        self : C45

        Raises
        ------
        TypeError
            If ``confidence`` is not a real number or ``min_obj`` not an integer.
        ValueError
            If ``confidence`` is outside (0, 0.5], ``min_obj`` < 1, ``X`` is not
            a 2-D array of non-negative integer codes with at least one row,
            ``y`` does not have one label per row, or ``n_values`` is not one
            integer per column exceeding its codes.
        """
        cf, min_obj = self._check_params()
        X, y_codes, classes, n_values = _check_fit_inputs(X, y, n_values)
        self.classes_ = classes
        self.n_values_ = n_values
        self.n_features_in_ = X.shape[1]
        self.tree_ = _c45_fit(X, y_codes, n_values, np.int64(classes.shape[0]),
                              np.float64(cf), np.int64(min_obj))
        n_nodes, n_leaves = _c45_size(self.tree_)
        self.tree_size_ = (int(n_nodes), int(n_leaves))
        return self

    def _predict_proba_codes(self, X):
        # relative class frequencies at the leaf reached (the parent's for an empty leaf)
        return _c45_predict_proba(self.tree_, X)

    def _predict_codes(self, X):
        return _c45_predict(self.tree_, X)
