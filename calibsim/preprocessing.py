"""Preprocessing of calibsim's data encoding for scikit-learn estimators.

calibsim's data sets (:mod:`calibsim.datasets`) hold nominal attributes as codes
``0 .. n_values[j] - 1`` stored as floats, numeric attributes as they are and missing
values as NaN. A scikit-learn estimator reads nominal codes as ordinal numbers;
:class:`NominalOneHot` turns each nominal attribute into indicator columns instead, as
learners that need numeric inputs usually get them (e.g. the perceptrons, support vector
machines and nearest-neighbour learner of Ulaş, Yıldız & Alpaydın 2012).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin

from .learners._general import _check_float_X, _check_values_against

__all__ = ["NominalOneHot"]


class NominalOneHot(TransformerMixin, BaseEstimator):
    """One-hot (indicator) encoding of the nominal attributes; numeric ones pass through.

    Nominal attribute ``j`` (``n_values[j] > 0``) becomes ``n_values[j]`` columns, in
    place: code ``v`` gives 1 in its ``v``-th column and 0 in the others, and a missing
    value (NaN) gives NaN in all of them, so that an imputer after this step decides
    (``sklearn.impute.SimpleImputer``'s mean then fills in the training frequencies of
    the values). Numeric attributes are copied unchanged, NaN included. Every declared
    value gets a column, whether or not it occurs in the training data, so training and
    test data always have the same columns.

    Which attributes are nominal cannot be read off the numbers, so ``fit`` needs
    ``n_values`` (as calibsim's own learners do).

    Attributes
    ----------
    n_values_ : ndarray of shape (n_features_in_,), int64
        The ``n_values`` given to ``fit``.
    n_features_in_ : int
        Number of input columns.
    n_features_out_ : int
        Number of output columns: numeric attributes plus the nominal attributes' values.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 1.5], [2.0, np.nan], [np.nan, -0.5]])
    >>> NominalOneHot().fit_transform(X, n_values=[3, 0])
    array([[ 1. ,  0. ,  0. ,  1.5],
           [ 0. ,  0. ,  1. ,  nan],
           [ nan,  nan,  nan, -0.5]])

    In a pipeline, pass ``n_values`` to the step by name:

    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.impute import SimpleImputer
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn.linear_model import LogisticRegression
    >>> from calibsim.datasets import load_uci
    >>> ds = load_uci("credit-a")
    >>> model = make_pipeline(NominalOneHot(), SimpleImputer(), StandardScaler(),
    ...                       LogisticRegression())
    >>> _ = model.fit(ds.X, ds.y, nominalonehot__n_values=ds.n_values)
    >>> model[0].n_features_out_          # 6 numeric + the 9 nominal attributes' 40 values
    46
    """

    def fit(self, X, y=None, *, n_values=None):
        """Record which columns are nominal and how many values each has.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            calibsim's encoding: nominal codes as floats, numeric values, NaN missing.
        y : ignored
        n_values : array_like of shape (n_features,) of int
            Values of each nominal attribute; 0 marks a numeric one (``Dataset.n_values``).

        Returns
        -------
        self

        Raises
        ------
        ValueError
            If ``n_values`` is missing or is not one non-negative integer per column,
            or a nominal column of ``X`` holds something other than a code below its
            ``n_values`` or NaN (or as :func:`calibsim.learners.C45` for a bad ``X``).
        """
        X = _check_float_X(X)
        if n_values is None:
            raise ValueError("`n_values` is required: NominalOneHot cannot tell nominal codes "
                             "from numeric values; pass fit(X, n_values=dataset.n_values) (in "
                             "a pipeline: fit(X, y, nominalonehot__n_values=...)).")
        nv = np.asarray(n_values)
        if (nv.shape != (X.shape[1],) or not np.issubdtype(nv.dtype, np.integer)
                or (nv < 0).any()):
            raise ValueError(f"`n_values` must be {X.shape[1]} non-negative integers (0 = "
                             f"numeric), one per column of `X`; got {n_values!r}.")
        nv = nv.astype(np.int64)
        _check_values_against(X, nv)
        self.n_values_ = nv
        self.n_features_in_ = X.shape[1]
        self.n_features_out_ = int(np.sum(np.where(nv > 0, nv, 1)))
        return self

    def transform(self, X):
        """Encode ``X``.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features_in_)

        Returns
        -------
        ndarray of shape (n_samples, n_features_out_), float64

        Raises
        ------
        ValueError
            If the transformer is not fitted, ``X`` has another number of columns, or
            a nominal column holds something other than a declared code or NaN.
        """
        if not hasattr(self, "n_values_"):
            raise ValueError("this NominalOneHot is not fitted yet: call `fit` with "
                             "`n_values` first.")
        X = _check_float_X(X)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(f"`X` must have {self.n_features_in_} columns, as in `fit`; got "
                             f"{X.shape[1]}.")
        _check_values_against(X, self.n_values_)
        out = np.empty((X.shape[0], self.n_features_out_))
        k = 0
        for j, v in enumerate(self.n_values_.tolist()):
            col = X[:, j]
            if v == 0:
                out[:, k] = col
                k += 1
                continue
            miss = np.isnan(col)
            block = (np.where(miss, -1, col).astype(np.int64)[:, None]
                     == np.arange(v)[None, :]).astype(np.float64)
            block[miss] = np.nan
            out[:, k:k + v] = block
            k += v
        return out

    def fit_transform(self, X, y=None, *, n_values=None):
        """``fit(X, y, n_values=n_values)`` then ``transform(X)``."""
        return self.fit(X, y, n_values=n_values).transform(X)
