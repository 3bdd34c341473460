"""Data sets in calibsim's encoding, read from ARFF files, scikit-learn or arrays.

calibsim's learners take one encoding of general data, shared by every
learner:

* ``X`` is a C-contiguous float64 array of shape (n_instances, n_attributes);
  nominal attribute ``j`` holds the codes ``0 .. n_values[j] - 1`` (stored as
  floats) and numeric attribute ``j`` its values; a missing value is NaN.
* ``n_values[j]`` is the number of values of nominal attribute ``j`` and 0 for
  a numeric attribute.
* ``y`` is, for a classification set, int64 class codes ``0 .. n_classes - 1``;
  for a regression set (a numeric target, ``class_values == ()``), float64
  target values in the target's own units. Either way it has shape
  (n_instances,), is finite and is never missing.

A nominal code is the 0-based index of the value in the attribute's
declaration, as in Weka, so Weka and calibsim see the same numbers. The UCI
files shipped in ``calibsim/data/uci/`` (as distributed in the examples of
Weka 3.6) and the regression sets in ``calibsim/data/regression/`` are read
with :func:`load_uci`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["Dataset"]


def _readonly(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    a.flags.writeable = False
    return a


@dataclass(frozen=True, eq=False)
class Dataset:
    """A classification or regression data set in calibsim's encoding (see the module
    docstring).

    A classification set has class labels (``class_values``, ``y`` int64 codes into
    them); a regression set has a numeric target (``class_values == ()``, ``y``
    float64 values): :attr:`is_regression` and :attr:`task` tell which. The arrays are
    read-only, so a ``Dataset`` cannot change after it is made; copy ``X`` before
    editing it.

    Attributes
    ----------
    name : str
        Relation name (ARFF ``@relation``) or a name given by the caller.
    X : ndarray of shape (n_instances, n_attributes), float64
        Attribute values: nominal codes as floats, numeric values, NaN for missing.
    y : ndarray of shape (n_instances,), int64 or float64
        Classification: int64 class codes, indices into ``class_values``.
        Regression: float64 target values (finite, in the target's units).
    n_values : ndarray of shape (n_attributes,), int64
        Number of values of each nominal attribute; 0 marks a numeric attribute.
    attribute_names : tuple of str
        One name per column of ``X``.
    value_labels : tuple of (tuple of str or None)
        Labels of each nominal attribute's values in code order; None for a
        numeric attribute.
    class_name : str
        Name of the class attribute (of a regression set: the numeric target).
    class_values : tuple of str
        Class labels in code order; empty for a regression set.

    Examples
    --------
    >>> from calibsim.datasets import load_uci
    >>> ds = load_uci("weather.numeric")
    >>> ds.X.shape, ds.n_classes, ds.class_values
    ((14, 4), 2, ('yes', 'no'))
    >>> ds.n_values            # outlook, temperature (numeric), humidity (numeric), windy
    array([3, 0, 0, 2])
    >>> ds.X[0], ds.y[0]
    (array([ 0., 85., 85.,  1.]), np.int64(1))

    A regression set (Weka 3.6's ``cpu``: relative CPU performance, 209 machines):

    >>> cpu = load_uci("cpu")
    >>> cpu
    Dataset(name='cpu', n_instances=209, n_attributes=6 (0 nominal, 6 numeric), target 'class' (numeric), missing=0)
    >>> cpu.is_regression, cpu.task, cpu.n_classes, cpu.class_values
    (True, 'regression', 0, ())
    >>> cpu.y.dtype.name, cpu.y[:3]
    ('float64', array([198., 269., 220.]))
    """

    name: str
    X: np.ndarray = field(repr=False)
    y: np.ndarray = field(repr=False)
    n_values: np.ndarray = field(repr=False)
    attribute_names: tuple = field(repr=False)
    value_labels: tuple = field(repr=False)
    class_name: str = field(repr=False)
    class_values: tuple = field(repr=False)

    def __post_init__(self):
        for f in ("X", "y", "n_values"):
            object.__setattr__(self, f, _readonly(getattr(self, f)))

    def __repr__(self) -> str:
        n, a = self.X.shape
        n_num = int(np.sum(self.n_values == 0))
        target = (f"target {self.class_name!r} (numeric)" if self.is_regression
                  else f"n_classes={self.n_classes}")
        return (f"Dataset(name={self.name!r}, n_instances={n}, n_attributes={a} "
                f"({a - n_num} nominal, {n_num} numeric), {target}, "
                f"missing={int(np.isnan(self.X).sum())})")

    @property
    def n_classes(self) -> int:
        """Number of class values (declared, whether or not they occur); 0 for a
        regression set."""
        return len(self.class_values)

    @property
    def is_regression(self) -> bool:
        """True for a regression set: a numeric target, no class values (``y`` float64)."""
        return len(self.class_values) == 0

    @property
    def task(self) -> str:
        """``"regression"`` (a numeric target) or ``"classification"`` (class labels)."""
        return "regression" if self.is_regression else "classification"

    @property
    def is_numeric(self) -> np.ndarray:
        """Boolean mask of shape (n_attributes,), True for numeric attributes."""
        return self.n_values == 0

    @property
    def has_missing(self) -> bool:
        """True if any attribute value is missing (NaN)."""
        return bool(np.isnan(self.X).any())

    def to_frame(self):
        """The attributes as a pandas DataFrame with their names and kinds.

        Nominal attributes become ``category`` columns whose categories are the codes
        0, 1, ... (their labels are ``value_labels``), numeric ones ``float64``;
        missing values are NaN. So a pipeline can select columns by name or by dtype
        (``make_column_selector(dtype_include="category")``), and an estimator given
        the frame as it is sees the same numbers as ``X``.

        Returns
        -------
        pandas.DataFrame of shape (n_instances, n_attributes)

        Examples
        --------
        >>> from calibsim.datasets import load_uci
        >>> load_uci("weather.numeric").to_frame().dtypes.astype(str).tolist()
        ['category', 'float64', 'float64', 'category']
        """
        import pandas as pd
        cols = {}
        for j, name in enumerate(self.attribute_names):
            col = self.X[:, j]
            labels = self.value_labels[j]
            if self.n_values[j] == 0 or labels is None:
                cols[name] = np.array(col, dtype=np.float64)
            else:
                codes = np.where(np.isnan(col), -1, col).astype(np.int64)
                cols[name] = pd.Categorical.from_codes(
                    codes, categories=list(range(int(self.n_values[j]))))
        return pd.DataFrame(cols)

    def nominal_codes(self) -> np.ndarray:
        """``X`` as int64 codes, for learners' fast all-nominal path.

        Returns
        -------
        ndarray of shape (n_instances, n_attributes), int64

        Raises
        ------
        ValueError
            If the data set has a numeric attribute or a missing value.
        """
        if self.is_numeric.any() or self.has_missing:
            raise ValueError(f"data set {self.name!r} has numeric attributes or missing values; "
                             "only all-nominal data without missing values has int64 codes.")
        return self.X.astype(np.int64)


# --------------------------------------------------------------------------
# Construction and validation
# --------------------------------------------------------------------------

#: A numeric class column with more distinct values than this (or any non-integer
#: value) is a regression target (a :class:`Dataset` with ``class_values == ()``)
#: unless declared nominal; one with fewer, all integers, holds class labels.
MAX_NUMERIC_CLASSES = 30


def _is_regression_target(values, class_nominal: bool) -> bool:
    """Whether a class column is a regression target (numeric) rather than class labels.

    A numeric class (numbers, not labels) with a non-integer value or more than
    :data:`MAX_NUMERIC_CLASSES` distinct values is a regression target: counting each
    value as a class would compare classifiers on hundreds of classes of one or two
    instances. ``class_nominal=True`` (CLI ``--class-nominal``) declares the values
    class labels; text and booleans are always labels. NaN (missing) values are left
    out of the count (the callers refuse them).
    """
    if class_nominal:
        return False
    a = np.asarray(values)
    if a.dtype.kind not in "iuf":
        return False
    distinct = np.unique(a[~np.isnan(a)] if a.dtype.kind == "f" else a)
    fractional = a.dtype.kind == "f" and not np.array_equal(distinct, np.round(distinct))
    return bool(fractional or distinct.size > MAX_NUMERIC_CLASSES)


def _missing_target(values, what: str) -> None:
    """Refuse a numeric target with missing (NaN) values, naming ``what`` and the count."""
    missing = np.isnan(np.asarray(values, dtype=np.float64))
    if missing.any():
        raise ValueError(f"{what} is a numeric (regression) target and must not hold missing "
                         f"values; missing: {int(missing.sum())} of {missing.size} (the first "
                         f"in row {int(np.flatnonzero(missing)[0])}); remove those instances "
                         "first.")


def _check_attributes(name, X, n_values, attribute_names):
    """Validate the attribute part of a data set; ``X`` and ``n_values`` as arrays.

    Raises
    ------
    ValueError
        If the data set is empty, has no attributes, two attributes share a name, it
        holds an infinite value, a nominal code outside ``0 .. n_values[j]-1`` or a
        non-integer code.
    """
    X = np.array(X, dtype=np.float64, order="C")
    n_values = np.ascontiguousarray(n_values, dtype=np.int64)
    if X.ndim != 2 or X.shape[0] == 0:
        raise ValueError(f"data set {name!r} is empty: it must have at least one instance; "
                         f"got `X` with shape {X.shape}.")
    if X.shape[1] == 0:
        raise ValueError(f"data set {name!r} has no attributes besides the class.")
    names = [str(a) for a in attribute_names]
    if len(set(names)) < len(names):
        dup = next(a for a in names if names.count(a) > 1)
        raise ValueError(f"data set {name!r}: attribute names must be distinct; {dup!r} names "
                         f"columns {[j for j, a in enumerate(names) if a == dup]}.")
    if np.isinf(X).any():
        i, j = np.argwhere(np.isinf(X))[0]
        raise ValueError(f"data set {name!r}: attribute {attribute_names[j]!r} holds an infinite "
                         f"value in row {i}; only finite values and NaN (missing) are allowed.")
    nominal = n_values > 0
    Xn = X[:, nominal]
    bad = ~np.isnan(Xn) & ((Xn < 0) | (Xn >= n_values[nominal]) | (Xn != np.round(Xn)))
    if bad.any():
        i, jn = np.argwhere(bad)[0]
        j = np.flatnonzero(nominal)[jn]
        raise ValueError(f"data set {name!r}: nominal attribute {attribute_names[j]!r} must hold "
                         f"codes 0..{n_values[j] - 1} or NaN; got {X[i, j].item()!r} in row {i}.")
    return X, n_values


def _labels(value_labels):
    return tuple(None if v is None else tuple(map(str, v)) for v in value_labels)


def _make(name, X, y_codes, n_values, attribute_names, value_labels, class_name,
          class_values) -> Dataset:
    """Validate the parts of a classification data set and build it.

    Raises
    ------
    ValueError
        As :func:`_check_attributes`, or if a class code lies outside
        ``0 .. len(class_values) - 1``.
    """
    X, n_values = _check_attributes(name, X, n_values, attribute_names)
    y_codes = np.ascontiguousarray(y_codes, dtype=np.int64)
    if len(class_values) < 1 or y_codes.min() < 0 or y_codes.max() >= len(class_values):
        raise ValueError(f"data set {name!r}: class codes must lie in 0..{len(class_values) - 1}.")
    return Dataset(name=str(name), X=X, y=y_codes, n_values=n_values,
                   attribute_names=tuple(map(str, attribute_names)),
                   value_labels=_labels(value_labels),
                   class_name=str(class_name), class_values=tuple(map(str, class_values)))


def _make_regression(name, X, y, n_values, attribute_names, value_labels,
                     target_name) -> Dataset:
    """Validate the parts of a regression data set (numeric target ``y``) and build it.

    Raises
    ------
    ValueError
        As :func:`_check_attributes`, or if ``y`` does not hold one finite number per
        instance.
    """
    X, n_values = _check_attributes(name, X, n_values, attribute_names)
    y = np.array(y, dtype=np.float64).reshape(-1)
    if y.shape != (X.shape[0],):
        raise ValueError(f"data set {name!r}: the target must hold one value per instance; "
                         f"got {y.size} values for {X.shape[0]} instances.")
    if not np.isfinite(y).all():
        i = int(np.flatnonzero(~np.isfinite(y))[0])
        raise ValueError(f"data set {name!r}: the target {target_name!r} must be finite and "
                         f"never missing; got {y[i].item()!r} in row {i}.")
    return Dataset(name=str(name), X=X, y=y, n_values=n_values,
                   attribute_names=tuple(map(str, attribute_names)),
                   value_labels=_labels(value_labels), class_name=str(target_name),
                   class_values=())
