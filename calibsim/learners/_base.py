"""Shared pieces of calibsim's nominal learners: input validation and predict.

Each learner subclasses :class:`NominalClassifier` and provides two hooks,
``_predict_codes`` and ``_predict_proba_codes``, that call its numba kernels on
validated C-contiguous int64 codes.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

__all__ = ["NominalClassifier"]


# --------------------------------------------------------------------------
# Input validation shared by the nominal learners
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
# Base estimator
# --------------------------------------------------------------------------

class NominalClassifier(ClassifierMixin, BaseEstimator):
    """Base of the scikit-learn-style learners on nominal codes.

    Subclasses set ``classes_`` and ``n_values_`` in ``fit`` and implement
    ``_predict_codes(X)`` (class indices) and ``_predict_proba_codes(X)``.
    """

    def predict_proba(self, X):
        """Return the class probabilities of each instance.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            Nominal codes below ``n_values_``.

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            Probabilities in [0, 1], columns following ``classes_``; see the
            learner's Notes for how they are computed.

        Raises
        ------
        ValueError
            If ``X`` is not a valid 2-D code array for the fitted model.
        """
        return self._predict_proba_codes(self._prepare_X(X))

    def predict(self, X):
        """Return the predicted class, ties going to the first of ``classes_``.

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
        return self.classes_[self._predict_codes(self._prepare_X(X))]

    def _prepare_X(self, X):
        """Validated int64 codes for the kernels (a learner may also fill missing values)."""
        return _check_predict_input(X, self.n_values_)
