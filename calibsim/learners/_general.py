"""Input validation for learners on general data (nominal + numeric, missing values).

The encoding is the one of :mod:`calibsim.datasets`: ``X`` float64 with
nominal codes stored as floats, numeric values as they are, NaN for missing;
``n_values[j]`` is the arity of nominal attribute ``j`` and 0 for a numeric
one. When ``n_values`` is not given, an integer (or bool) ``X`` holds nominal
codes without missing values (the integer fast path of
:mod:`calibsim.learners._base`) and a floating-point ``X`` is all numeric, as
for :class:`calibsim.learners.C45`.
"""

from __future__ import annotations

import numpy as np

from ._base import _check_fit_common, _check_fit_inputs, _check_predict_input, _encode_labels

__all__ = []


def _check_float_X(X) -> np.ndarray:
    arr = np.asarray(X)
    if arr.ndim != 2:
        raise ValueError(f"`X` must be a 2-D array of shape (n_samples, n_features); "
                         f"got an array with shape {arr.shape}.")
    if arr.shape[0] < 1:
        raise ValueError(f"`X` must have at least one row; got shape {arr.shape}.")
    if arr.dtype == bool:
        arr = arr.astype(np.int64)
    if not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
        raise ValueError(f"`X` must hold numbers (nominal codes, numeric values, NaN for "
                         f"missing); got dtype {arr.dtype}.")
    arr = np.ascontiguousarray(arr, dtype=np.float64)
    if np.isinf(arr).any():
        raise ValueError(f"`X` must hold finite values or NaN (missing); got "
                         f"{arr[np.isinf(arr)][0].item()!r}.")
    return arr


def _check_values_against(X: np.ndarray, n_values: np.ndarray) -> None:
    """Raise if a nominal column of float ``X`` holds something other than a code or NaN."""
    nominal = n_values > 0
    Xn = X[:, nominal]
    bad = ~np.isnan(Xn) & ((Xn < 0) | (Xn >= n_values[nominal]) | (Xn != np.round(Xn)))
    if bad.any():
        i, jn = np.argwhere(bad)[0]
        j = int(np.flatnonzero(nominal)[jn])
        raise ValueError(f"`X` column {j} is nominal with n_values[{j}] = {int(n_values[j])}: it "
                         f"must hold codes 0..{int(n_values[j]) - 1} or NaN; got "
                         f"{X[i, j].item()!r} in row {int(i)}.")


def _check_general_fit_inputs(X, y, n_values, classes=None):
    """Validate ``fit`` inputs of a learner that accepts general data.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
        int64 codes when the data are all nominal without missing values
        (``codes`` is True), float64 otherwise.
    y_codes : ndarray of shape (n_samples,), int64
    classes : ndarray of shape (n_classes,)
        The declared ``classes``, or ``np.unique(y)`` when None.
    n_values : ndarray of shape (n_features,), int64
    codes : bool
        True if ``X`` is returned as int64 codes (the nominal fast path).

    Raises
    ------
    ValueError
        As :func:`calibsim.learners._base._check_fit_inputs` when ``n_values``
        is None. Otherwise if ``X`` is not a 2-D numeric array with at least one
        row, holds an infinite value, ``n_values`` is not one non-negative
        integer per column, a nominal column holds a value that is not a code
        below its ``n_values`` or NaN, ``y`` does not have one label per row, or
        ``y`` holds a label missing from ``classes``.
    """
    if n_values is None and np.issubdtype(np.asarray(X).dtype, np.floating):
        n_values = np.zeros(np.asarray(X).shape[-1] if np.ndim(X) == 2 else 0, np.int64)
    if n_values is None:
        try:
            X, y_codes, classes, n_values = _check_fit_inputs(X, y, None, classes)
        except ValueError as exc:
            if "non-negative integer codes" in str(exc):
                raise ValueError(f"{exc} For numeric attributes or missing values (NaN), pass "
                                 "`n_values` (0 marks a numeric attribute).") from None
            raise
        return X, y_codes, classes, n_values, True
    X = _check_float_X(X)
    nv = np.asarray(n_values)
    if (nv.shape != (X.shape[1],) or not np.issubdtype(nv.dtype, np.integer)
            or (nv < 0).any()):
        raise ValueError(f"`n_values` must be a 1-D array of {X.shape[1]} integers (one per "
                         f"column of `X`), each >= 0 (0 = numeric); got {n_values!r}.")
    nv = np.ascontiguousarray(nv, dtype=np.int64)
    if (nv > 0).all() and not np.isnan(X).any():
        X, y_codes, classes, nv = _check_fit_inputs(X, y, nv, classes)  # all-nominal fast path
        return X, y_codes, classes, nv, True
    _check_values_against(X, nv)
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"`y` must be a 1-D array of class labels; got shape {y.shape}.")
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"`X` and `y` must have the same number of rows; got {X.shape[0]} "
                         f"and {y.shape[0]}.")
    y_codes, classes = _encode_labels(y, classes)
    return X, y_codes, classes, nv, False


def _check_general_fit(estimator, X, y, n_values, classes=None):
    """``fit``'s checks of the learners that take codes, numeric values and NaN:
    :func:`_check_fit_common`, then :func:`_check_general_fit_inputs` (whose tuple it
    returns)."""
    X, y = _check_fit_common(estimator, X, y)
    return _check_general_fit_inputs(X, y, n_values, classes)


def _check_general_predict_input(X, n_values):
    """Validate prediction input against the fitted ``n_values``.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
        int64 codes if every attribute is nominal and nothing is missing,
        otherwise float64 with NaN for missing values.
    codes : bool

    Raises
    ------
    ValueError
        If ``X`` is not a 2-D numeric array with at least one row, has a
        different number of columns than in ``fit``, holds an infinite value,
        or a nominal column holds a value that is not a code below
        ``n_values_`` or NaN.
    """
    arr = np.asarray(X)
    if (n_values > 0).all() and arr.dtype != object and not (
            np.issubdtype(arr.dtype, np.floating) and np.isnan(arr).any()):
        return _check_predict_input(arr, n_values), True
    Xf = _check_float_X(arr)
    if Xf.shape[1] != n_values.shape[0]:
        raise ValueError(f"`X` must have {n_values.shape[0]} columns, as in `fit`; "
                         f"got {Xf.shape[1]}.")
    _check_values_against(Xf, n_values)
    return Xf, False
