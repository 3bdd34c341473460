"""Naive Bayes for nominal attributes, faithful to Weka 3.6's ``NaiveBayes``."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from ._kernels_nb import _nb_fit, _nb_predict, _nb_predict_proba

__all__ = ["NaiveBayes"]


# --------------------------------------------------------------------------
# Input validation shared by the nominal learners (also used by c45.py)
# --------------------------------------------------------------------------

def _check_codes(name: str, value) -> np.ndarray:
    """Return ``value`` as a C-contiguous int64 2-D array of non-negative integer codes.

    Raises
    ------
    ValueError
        If it is not 2-D, has no rows, or holds a value that is not a
        non-negative integer (NaN, inf, fractions, negatives, non-numbers).
    """
    arr = np.asarray(value)
    if arr.ndim != 2:
        raise ValueError(f"`{name}` must be a 2-D array of shape (n_samples, n_features); "
                         f"got an array with shape {arr.shape}.")
    if arr.shape[0] < 1:
        raise ValueError(f"`{name}` must have at least one row; got shape {arr.shape}.")
    if arr.dtype == bool:
        arr = arr.astype(np.int64)
    if not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
        raise ValueError(f"`{name}` must hold non-negative integer codes; got dtype {arr.dtype}.")
    if np.issubdtype(arr.dtype, np.floating):
        bad = ~np.isfinite(arr) | (arr != np.round(arr))
        if bad.any():
            raise ValueError(f"`{name}` must hold non-negative integer codes; "
                             f"got {arr[bad].flat[0].item()!r}.")
    if arr.size and arr.min() < 0:
        raise ValueError(f"`{name}` must hold non-negative integer codes; got {arr.min().item()!r}.")
    return np.ascontiguousarray(arr, dtype=np.int64)


def _check_fit_inputs(X, y, n_values):
    """Validate ``fit`` inputs of a nominal learner.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features), int64
    y_codes : ndarray of shape (n_samples,), int64
        Class codes, indices into ``classes``.
    classes : ndarray of shape (n_classes,)
        Sorted distinct labels of ``y`` (``np.unique``).
    n_values : ndarray of shape (n_features,), int64
        Number of values of each attribute.

    Raises
    ------
    ValueError
        If ``X`` is not a 2-D array of non-negative integer codes with at least
        one row, ``y`` is not 1-D with one label per row of ``X``, or
        ``n_values`` does not have one integer per column that exceeds every
        code in that column.
    """
    X = _check_codes("X", X)
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"`y` must be a 1-D array of class labels; got shape {y.shape}.")
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"`X` and `y` must have the same number of rows; got {X.shape[0]} "
                         f"and {y.shape[0]}.")
    classes, y_codes = np.unique(y, return_inverse=True)
    observed = X.max(axis=0) + 1
    if n_values is None:
        n_values = observed
    else:
        nv = np.asarray(n_values)
        if (nv.shape != (X.shape[1],) or not np.issubdtype(nv.dtype, np.integer)):
            raise ValueError(f"`n_values` must be a 1-D array of {X.shape[1]} integers (one per "
                             f"column of `X`); got {n_values!r}.")
        if np.any(nv < observed):
            j = int(np.argmax(nv < observed))
            raise ValueError(f"`n_values` must exceed every code in its column; got "
                             f"n_values[{j}] = {int(nv[j])} but `X` holds code "
                             f"{int(observed[j] - 1)} in column {j}.")
        n_values = nv
    return (X, np.ascontiguousarray(y_codes.reshape(-1), dtype=np.int64), classes,
            np.ascontiguousarray(n_values, dtype=np.int64))


def _check_predict_input(X, n_values) -> np.ndarray:
    """Validate ``X`` at prediction time against the fitted ``n_values``.

    Raises
    ------
    ValueError
        If ``X`` is not a 2-D array of non-negative integer codes, has a
        different number of columns, or holds a code the model has not seen
        declared (code >= ``n_values_[j]``).
    """
    X = _check_codes("X", X)
    if X.shape[1] != n_values.shape[0]:
        raise ValueError(f"`X` must have {n_values.shape[0]} columns, as in `fit`; "
                         f"got {X.shape[1]}.")
    too_big = X >= n_values
    if too_big.any():
        i, j = np.argwhere(too_big)[0]
        raise ValueError(f"`X` must hold codes below `n_values_` of the fitted model; got "
                         f"code {int(X[i, j])} in column {int(j)}, where n_values_[{int(j)}] = "
                         f"{int(n_values[j])}.")
    return X


# --------------------------------------------------------------------------
# Estimator
# --------------------------------------------------------------------------

class NaiveBayes(ClassifierMixin, BaseEstimator):
    """Naive Bayes for nominal attributes with Laplace-corrected estimates.

    Reproduces Weka 3.6's ``weka.classifiers.bayes.NaiveBayes`` with default
    options on nominal data [1]_, [2]_. The class prior is
    ``P(c) = (N_c + 1) / (N + C)`` and each conditional is
    ``P(v | c) = (N_vc + 1) / (N_c + V_j)``, where ``V_j`` is the number of
    values of attribute ``j``. A test instance's class scores are the prior
    times ``max(1e-75, P(v | c))`` over the attributes in order, rescaled by
    1e75 whenever the largest score drops below 1e-75 and normalised to sum
    to 1, exactly as Weka computes them; the prediction is the first class
    with the largest score (ties go to the lowest class).

    The model has no hyperparameters.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Sorted distinct class labels seen in ``fit``.
    n_values_ : ndarray of shape (n_features,), int64
        Number of values of each attribute (codes are ``0..n_values_[j]-1``).
    n_features_in_ : int
        Number of attributes.
    class_prior_ : ndarray of shape (n_classes,)
        Laplace-corrected class probabilities ``P(c)``.
    model_ : tuple of ndarray
        The kernel's model ``(prior, cond, offset)``; ``cond[offset[j] + v, c]``
        is ``max(1e-75, P(v | c))``.

    References
    ----------
    .. [1] John, G. H. & Langley, P. (1995). Estimating continuous
           distributions in Bayesian classifiers. Proc. 11th Conference on
           Uncertainty in Artificial Intelligence, 338-345.
           arXiv:1302.4964
    .. [2] Witten, I. H. & Frank, E. (2005). Data Mining: Practical Machine
           Learning Tools and Techniques, 2nd ed. Morgan Kaufmann (Weka 3.6,
           ``NaiveBayes`` and ``DiscreteEstimator``).

    Examples
    --------
    >>> import numpy as np
    >>> from calibsim.learners import NaiveBayes
    >>> X = np.array([[0, 1], [0, 0], [1, 1], [1, 0], [1, 1]])
    >>> y = np.array(["no", "no", "yes", "yes", "yes"])
    >>> nb = NaiveBayes().fit(X, y)
    >>> nb.class_prior_          # (2+1)/(5+2), (3+1)/(5+2)
    array([0.42857143, 0.57142857])
    >>> nb.predict([[0, 1], [1, 0]])
    array(['no', 'yes'], dtype='<U3')
    >>> nb.predict_proba([[0, 1]]).round(4)  # 3/7*3/4*2/4 : 4/7*1/5*3/5, normalised
    array([[0.7009, 0.2991]])
    """

    def __init__(self):
        pass

    def fit(self, X, y, n_values=None):
        """Fit the class prior and the conditional value distributions.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            Nominal codes: non-negative integers, ``X[:, j] < n_values[j]``.
        y : array_like of shape (n_samples,)
            Class labels (any sortable type); ``classes_`` is ``np.unique(y)``.
        n_values : array_like of shape (n_features,), optional
            Number of values of each attribute. Defaults to ``X.max(axis=0) + 1``.
            It matters: the Laplace correction adds ``V_j`` to each denominator,
            so pass the declared arity when a value is absent from the data.

        Returns
        -------
        self : NaiveBayes

        Raises
        ------
        ValueError
            If ``X`` is not a 2-D array of non-negative integer codes with at
            least one row, ``y`` does not have one label per row, or
            ``n_values`` is not one integer per column exceeding its codes.
        """
        X, y_codes, classes, n_values = _check_fit_inputs(X, y, n_values)
        self.classes_ = classes
        self.n_values_ = n_values
        self.n_features_in_ = X.shape[1]
        self.model_ = _nb_fit(X, y_codes, n_values, np.int64(classes.shape[0]))
        self.class_prior_ = self.model_[0].copy()
        return self

    def predict_proba(self, X):
        """Return Weka's normalised class scores.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            Nominal codes below ``n_values_``.

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            Posterior class probabilities; each row sums to 1. Columns follow
            ``classes_``.

        Raises
        ------
        ValueError
            If ``X`` is not a valid 2-D code array for the fitted model.
        """
        X = _check_predict_input(X, self.n_values_)
        return _nb_predict_proba(self.model_, X)

    def predict(self, X):
        """Return the most probable class, ties going to the first of ``classes_``.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            Nominal codes below ``n_values_``.

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
            Predicted labels, taken from ``classes_``.

        Raises
        ------
        ValueError
            If ``X`` is not a valid 2-D code array for the fitted model.
        """
        X = _check_predict_input(X, self.n_values_)
        return self.classes_[_nb_predict(self.model_, X)]
