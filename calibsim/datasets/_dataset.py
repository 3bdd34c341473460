"""Data sets in calibsim's encoding, read from ARFF files, scikit-learn or arrays.

calibsim's learners take one encoding of general data, shared by every
learner:

* ``X`` is a C-contiguous float64 array of shape (n_instances, n_attributes);
  nominal attribute ``j`` holds the codes ``0 .. n_values[j] - 1`` (stored as
  floats) and numeric attribute ``j`` its values; a missing value is NaN.
* ``n_values[j]`` is the number of values of nominal attribute ``j`` and 0 for
  a numeric attribute.
* ``y`` is int64 class codes ``0 .. n_classes - 1``, never missing.

A nominal code is the 0-based index of the value in the attribute's
declaration, as in Weka, so Weka and calibsim see the same numbers. The UCI
files shipped in ``calibsim/data/uci/`` (as distributed in the examples of
Weka 3.6) are read with :func:`load_uci`.
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
    """A classification data set in calibsim's encoding (see the module docstring).

    The arrays are read-only, so a ``Dataset`` cannot change after it is made;
    copy ``X`` before editing it.

    Attributes
    ----------
    name : str
        Relation name (ARFF ``@relation``) or a name given by the caller.
    X : ndarray of shape (n_instances, n_attributes), float64
        Attribute values: nominal codes as floats, numeric values, NaN for missing.
    y : ndarray of shape (n_instances,), int64
        Class codes, indices into ``class_values``.
    n_values : ndarray of shape (n_attributes,), int64
        Number of values of each nominal attribute; 0 marks a numeric attribute.
    attribute_names : tuple of str
        One name per column of ``X``.
    value_labels : tuple of (tuple of str or None)
        Labels of each nominal attribute's values in code order; None for a
        numeric attribute.
    class_name : str
        Name of the class attribute.
    class_values : tuple of str
        Class labels in code order.

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
        return (f"Dataset(name={self.name!r}, n_instances={n}, n_attributes={a} "
                f"({a - n_num} nominal, {n_num} numeric), n_classes={self.n_classes}, "
                f"missing={int(np.isnan(self.X).sum())})")

    @property
    def n_classes(self) -> int:
        """Number of class values (declared, whether or not they occur)."""
        return len(self.class_values)

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
#: value) is taken as a regression target and refused unless declared nominal.
MAX_NUMERIC_CLASSES = 30


def _check_class_target(values, where: str, class_nominal: bool) -> None:
    """Refuse a numeric class column that looks like a regression target.

    A numeric class (numbers, not labels) with a non-integer value or more than
    :data:`MAX_NUMERIC_CLASSES` distinct values is a regression target: counting each
    value as a class would compare classifiers on hundreds of classes of one or two
    instances. ``class_nominal=True`` (CLI ``--class-nominal``) declares the values
    class labels and skips the check.
    """
    if class_nominal:
        return
    a = np.asarray(values)
    if a.dtype.kind not in "iuf":
        return
    distinct = np.unique(a[~np.isnan(a)] if a.dtype.kind == "f" else a)
    fractional = a.dtype.kind == "f" and not np.array_equal(distinct, np.round(distinct))
    if fractional or distinct.size > MAX_NUMERIC_CLASSES:
        what = "non-integer values" if fractional else "integer values"
        raise ValueError(f"{where} is numeric with {distinct.size} distinct {what} (e.g. "
                         f"{distinct[len(distinct) // 2].item()!r}): a regression target, "
                         "and calibsim compares classifiers; if the values are class labels "
                         "declare it nominal (`class_nominal=True`, CLI --class-nominal).")


def _make(name, X, y_codes, n_values, attribute_names, value_labels, class_name,
          class_values) -> Dataset:
    """Validate the parts of a data set and build it.

    Raises
    ------
    ValueError
        If the data set is empty, has no attributes, two attributes share a name, it
        holds an infinite value, a nominal code outside ``0 .. n_values[j]-1`` or a
        non-integer code.
    """
    X = np.array(X, dtype=np.float64, order="C")
    y_codes = np.ascontiguousarray(y_codes, dtype=np.int64)
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
    if len(class_values) < 1 or y_codes.min() < 0 or y_codes.max() >= len(class_values):
        raise ValueError(f"data set {name!r}: class codes must lie in 0..{len(class_values) - 1}.")
    return Dataset(name=str(name), X=X, y=y_codes, n_values=n_values,
                   attribute_names=tuple(map(str, attribute_names)),
                   value_labels=tuple(None if v is None else tuple(map(str, v))
                                      for v in value_labels),
                   class_name=str(class_name), class_values=tuple(map(str, class_values)))
