"""Shared pieces of calibsim's learners: input validation, declared classes, predict.

Each learner subclasses :class:`NominalClassifier` and provides two hooks,
``_predict_codes`` and ``_predict_proba_codes``, that call its numba kernels on
validated C-contiguous int64 codes (or overrides ``predict``/``predict_proba``).
The checks every learner shares, at ``fit`` (:func:`_check_fit_common`) and at
prediction (:meth:`NominalClassifier._check_predict_X`), give the errors
scikit-learn's ``check_estimator`` asks for; the learner-specific checks follow.
"""

from __future__ import annotations

import numpy as np
from scipy import sparse
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_is_fitted

from .._docstrings import fill_doc

__all__ = ["NominalClassifier"]


# --------------------------------------------------------------------------
# Checks shared by every learner (scikit-learn's conventions)
# --------------------------------------------------------------------------

def _as_2d(X, name: str = "X") -> np.ndarray:
    """``X`` as a dense, real, 2-D ndarray (object arrays are converted to float64).

    Raises
    ------
    TypeError
        If ``X`` is sparse, or an object array holds something that is not a number.
    ValueError
        If ``X`` is complex, not 2-D, or an object array holds a non-numeric string.
    """
    if sparse.issparse(X):
        raise TypeError(f"`{name}` is a sparse matrix, but calibsim's learners need dense input "
                        f"(sparse data is not supported); convert it with `{name}.toarray()`.")
    arr = np.asarray(X)
    if arr.dtype == object:
        try:
            arr = np.asarray(X, dtype=np.float64)
        except TypeError as exc:
            raise TypeError(f"`{name}` must hold numbers: {exc}") from None
        except ValueError as exc:
            raise ValueError(f"`{name}` must hold numbers (nominal codes, numeric values, NaN "
                             f"for missing); got dtype object ({exc}).") from None
    if np.iscomplexobj(arr):
        raise ValueError(f"`{name}` must hold real numbers (Complex data not supported); got "
                         f"dtype {arr.dtype}.")
    if arr.ndim != 2:
        raise ValueError(f"`{name}` must be a 2-D array of shape (n_samples, n_features); got an "
                         f"array with shape {arr.shape}. Reshape your data with "
                         f"`{name}.reshape(-1, 1)` for a single feature or "
                         f"`{name}.reshape(1, -1)` for a single sample.")
    return arr


def _check_fit_common(estimator, X, y):
    """``fit``'s shared checks; returns ``X`` (as :func:`_as_2d`) and ``y`` as an ndarray.

    Raises
    ------
    ValueError
        If ``X`` has no rows or no columns, ``y`` is None, not 1-D, of another
        length than ``X``, holds NaN or infinity, or is not a set of class
        labels (scikit-learn's ``type_of_target`` is neither binary nor
        multiclass, e.g. continuous).
    TypeError
        As :func:`_as_2d`.
    """
    arr = _as_2d(X)
    if arr.shape[0] < 1:
        raise ValueError(f"`X` must have at least one row; got shape {arr.shape}.")
    if arr.shape[1] < 1:
        raise ValueError(f"`X` must have at least one column; got 0 feature(s) "
                         f"(shape={arr.shape}) while a minimum of 1 is required.")
    if y is None:
        raise ValueError(f"{type(estimator).__name__} requires y to be passed, but the target "
                         f"y is None.")
    y = _column_or_1d(y)
    if y.shape[0] != arr.shape[0]:
        raise ValueError(f"`X` and `y` must have the same number of rows; got {arr.shape[0]} "
                         f"and {y.shape[0]}.")
    if y.dtype.kind == "f" and not np.isfinite(y).all():
        bad = "NaN" if np.isnan(y).any() else "infinity"
        raise ValueError(f"`y` must hold class labels; Input y contains {bad}.")
    if y.dtype.kind in "iub":
        # 1-D integer or bool labels are always binary or multiclass to type_of_target,
        # which takes about 1 ms: most of a small C4.5 fit's overhead (the engine's codes)
        kind = "multiclass"
    else:
        with np.errstate(invalid="ignore", over="ignore"):      # its float -> int probe
            kind = type_of_target(y, input_name="y")
    if kind not in ("binary", "multiclass"):
        raise ValueError(f"`y` must hold class labels; Unknown label type: {kind!r} (a "
                         f"classifier cannot be fitted on a regression target).")
    return arr, y


def _encode_labels(y, classes):
    """Class codes of ``y`` and the class labels (``classes_``).

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
    classes : array_like of shape (n_classes,) or None
        Declared class labels, in their declared order; None takes
        ``np.unique(y)``.

    Returns
    -------
    y_codes : ndarray of shape (n_samples,), int64
        Index of each label in ``classes_``.
    classes_ : ndarray of shape (n_classes,)

    Raises
    ------
    ValueError
        If ``classes`` is not a 1-D array of distinct labels, or ``y`` holds
        a label that is not in it.
    """
    if classes is None:
        classes_, y_codes = np.unique(y, return_inverse=True)
        return np.ascontiguousarray(y_codes.reshape(-1), dtype=np.int64), classes_
    classes_ = np.asarray(classes)
    if classes_.ndim != 1 or classes_.size < 1:
        raise ValueError(f"`classes` must be a 1-D array of the declared class labels; got "
                         f"{classes!r}.")
    order = np.argsort(classes_, kind="stable")
    ordered = classes_[order]
    if np.any(ordered[1:] == ordered[:-1]):
        raise ValueError(f"`classes` must hold distinct labels; got {classes!r}.")
    try:
        pos = np.clip(np.searchsorted(ordered, y), 0, classes_.size - 1)
        found = ordered[pos] == y
    except TypeError:
        found = np.zeros(y.shape, bool)
    if not np.all(found):
        raise ValueError(f"`y` must hold only labels declared in `classes`; got "
                         f"{y[~found][0].item()!r}, not in {classes_.tolist()!r}.")
    return np.ascontiguousarray(order[pos], dtype=np.int64), classes_


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


def _check_fit_inputs(X, y, n_values, classes=None):
    """Validate ``fit`` inputs of a nominal learner.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features), int64
    y_codes : ndarray of shape (n_samples,), int64
        Class codes, indices into ``classes``.
    classes : ndarray of shape (n_classes,)
        The declared ``classes`` or, if None, the sorted distinct labels of
        ``y`` (``np.unique``); see :func:`_encode_labels`.
    n_values : ndarray of shape (n_features,), int64
        Number of values of each attribute.

    Raises
    ------
    ValueError
        If ``X`` is not a 2-D array of non-negative integer codes with at least
        one row, ``y`` is not 1-D with one label per row of ``X``, or
        ``n_values`` does not have one integer per column that exceeds every
        code in that column, or ``y`` holds a label missing from ``classes``.
    """
    X = _check_codes("X", X)
    y = _column_or_1d(y)
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"`X` and `y` must have the same number of rows; got {X.shape[0]} "
                         f"and {y.shape[0]}.")
    y_codes, classes = _encode_labels(y, classes)
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
    return X, y_codes, classes, np.ascontiguousarray(n_values, dtype=np.int64)


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

#: scikit-learn ``check_estimator`` checks that every learner fails on purpose, and why
#: (pass :func:`_expected_failed_checks` as ``expected_failed_checks``).
_EXPECTED_FAILED_CHECKS: dict = {}


def _column_or_1d(y) -> np.ndarray:
    """Labels as 1-D: a column vector ``(n, 1)`` is ravelled with scikit-learn's
    ``DataConversionWarning`` (its convention); any other shape is refused."""
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        import warnings
        from sklearn.exceptions import DataConversionWarning
        warnings.warn("A column-vector y was passed when a 1d array was expected. Please "
                      "change the shape of y to (n_samples, ), for example using ravel().",
                      DataConversionWarning, stacklevel=3)
        return y.ravel()
    if y.ndim != 1:
        raise ValueError(f"`y` must be a 1-D array of class labels; got shape {y.shape}.")
    return y


def _expected_failed_checks(estimator) -> dict:
    """``{check name: reason}`` of the scikit-learn checks ``estimator`` fails on purpose.

    For ``sklearn.utils.estimator_checks.check_estimator(est,
    expected_failed_checks=_expected_failed_checks(est))`` and
    ``parametrize_with_checks(..., expected_failed_checks=_expected_failed_checks)``.
    """
    return dict(_EXPECTED_FAILED_CHECKS, **getattr(estimator, "_expected_failed_checks", {}))


# Pieces of the learners' ``fit`` docstrings (filled by ``fill_doc`` in each learner).
#: X and y of the learners that take codes, numeric values and NaN.
_FIT_X_Y = """
    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
        Nominal codes ``0 <= X[:, j] < n_values[j]`` and numeric values, NaN
        for a missing value (the encoding of :mod:`calibsim.datasets`).
        Without ``n_values``, integer ``X`` is nominal codes and float ``X``
        all numeric (as :class:`C45`).
    y : array_like of shape (n_samples,)
        Class labels (any sortable type), not NaN; see ``classes``.
"""
#: The ``classes`` entry, up to what the learner does with a class that has no
#: training instances (the learner's text continues it).
_FIT_CLASSES = """
    classes : array_like of shape (n_classes,), optional
        The declared class labels in their declared order (as the values of
        Weka's class attribute); it becomes ``classes_``, the columns of
        ``predict_proba``. Every label of ``y`` must be in it; a declared
        class absent from ``y`` (a fold that misses a class) is a class with
        no training instances,
"""
#: The end of every learner's ``fit`` Raises: the ValueError on labels (put right after
#: the learner's own ValueError text, at the column of the exception names), then the
#: TypeError of sparse input (a learner may continue it).
_FIT_RAISES_END = """
        Also if ``X`` is complex or has no column, or ``y`` is None, holds
        NaN or is not a set of class labels (scikit-learn's "Unknown label
        type", e.g. continuous).
    TypeError
        If ``X`` is a sparse matrix (convert it with ``X.toarray()``).
"""
#: The fitted attributes every learner sets (its class docstring adds its own after them).
_FITTED_ATTRIBUTES = """
    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The declared ``classes`` of ``fit``, or the sorted distinct labels of ``y``.
    n_values_ : ndarray of shape (n_features,), int64
        Number of values of each nominal attribute (codes are
        ``0..n_values_[j]-1``), 0 for a numeric one.
    n_features_in_ : int
        Number of attributes.
"""
#: The fragments above by the names the learners' docstrings use.
_LEARNER_DOCS = {"fit_X_y": _FIT_X_Y, "fit_classes": _FIT_CLASSES,
                 "fit_raises_end": _FIT_RAISES_END, "fitted_attributes": _FITTED_ATTRIBUTES}


# The Parameters and Raises of every learner's predict and predict_proba (one text for both).
_PREDICT_PARAMETERS = """
    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
        Instances encoded as in ``fit``: nominal codes and numeric values, NaN
        for a missing value (handled as the learner's class docstring says).
"""
_PREDICT_RAISES = """
    Raises
    ------
    sklearn.exceptions.NotFittedError
        If the estimator has not been fitted.
    ValueError
        If ``X`` is not a valid 2-D array for the fitted model (columns,
        codes below ``n_values_``, finite values or NaN).
"""


class NominalClassifier(ClassifierMixin, BaseEstimator):
    """Base of calibsim's scikit-learn-style learners (nominal codes, numeric values, NaN).

    Subclasses set ``classes_``, ``n_values_`` and ``n_features_in_`` in
    ``fit`` and implement ``_predict_codes(X)`` (class indices) and
    ``_predict_proba_codes(X)``, or ``_kernels(X)``, on the array their
    ``_prepare_X(X)`` returns (the default: validated int64 codes);
    ``predict`` and ``predict_proba`` are written once, here.

    The scikit-learn tags say what the learners are: they take categorical
    (nominal) attributes as integer codes, NaN as a missing value (Weka's
    ``?``, handled as Weka handles it, not an error), and no sparse input.
    """

    def __init__(self):
        """No hyperparameters (IB1, NaiveBayes, TAN); a learner with some defines its own
        ``__init__``, whose signature scikit-learn's ``get_params`` reads."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True        # NaN = missing value, as in Weka
        tags.input_tags.categorical = True      # nominal attributes as integer codes
        tags.input_tags.sparse = False
        return tags

    def _check_predict_X(self, X) -> np.ndarray:
        """Shared prediction checks: fitted, dense real 2-D ``X`` with the fitted columns.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the estimator has not been fitted.
        TypeError, ValueError
            As :func:`_as_2d`, or if ``X`` has another number of columns than in ``fit``.
        """
        check_is_fitted(self)
        arr = _as_2d(X)
        n = self.n_features_in_
        if arr.shape[1] != n:
            raise ValueError(f"`X` must have {n} columns, as in `fit`; got {arr.shape[1]} (X has "
                             f"{arr.shape[1]} features, but {type(self).__name__} is expecting "
                             f"{n} features as input).")
        return arr

    @fill_doc(predict_parameters=_PREDICT_PARAMETERS, predict_raises=_PREDICT_RAISES)
    def predict_proba(self, X):
        """Return the class probabilities of each instance.

        {predict_parameters}

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            Probabilities in [0, 1], columns following ``classes_``, computed
            as the learner's class docstring says.

        {predict_raises}
        """
        return self._predict_proba_codes(self._prepare_X(self._check_predict_X(X)))

    @fill_doc(predict_parameters=_PREDICT_PARAMETERS, predict_raises=_PREDICT_RAISES)
    def predict(self, X):
        """Return the predicted class, ties going to the first of ``classes_``.

        {predict_parameters}

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
            Predicted labels, taken from ``classes_``.

        {predict_raises}
        """
        codes = self._predict_codes(self._prepare_X(self._check_predict_X(X)))
        return self.classes_[codes]

    def _prepare_X(self, X):
        """Validated int64 codes for the kernels (a learner may also fill missing values)."""
        return _check_predict_input(X, self.n_values_)

    def _predict_codes(self, X):
        model, predict, _ = self._kernels(X)
        return predict(model, X)

    def _predict_proba_codes(self, X):
        model, _, predict_proba = self._kernels(X)
        return predict_proba(model, X)

    def _kernels(self, X):
        """(model, predict kernel, predict_proba kernel) for the prepared ``X``: a learner
        with a nominal and a general path (C45, NaiveBayes) picks them by ``X.dtype``
        (int64 codes or float64); the others define ``_predict_codes`` and
        ``_predict_proba_codes`` instead."""
        raise NotImplementedError
