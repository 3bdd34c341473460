"""1-nearest-neighbour classifier faithful to Weka 3.6's ``IB1``."""

from __future__ import annotations

import numpy as np

from .._docstrings import fill_doc
from ._base import _LEARNER_DOCS, NominalClassifier
from ._general import _check_general_fit, _check_general_predict_input
from ._kernels_ib1 import _ib1_predict

__all__ = ["IB1"]


@fill_doc(**_LEARNER_DOCS)
class IB1(NominalClassifier):
    """Nearest-neighbour classifier with Weka's range-normalised distance.

    Reproduces Weka 3.6's ``weka.classifiers.lazy.IB1`` [1]_, [2]_ on nominal
    and numeric attributes with missing values. The distance between two
    instances sums, over the attributes in order, 0/1 for a nominal attribute
    (1 if the values differ or either is missing) and ``d**2`` for a numeric
    one, where ``d`` is the difference of the values scaled to [0, 1] by the
    attribute's range; no square root is taken. A missing numeric value is
    taken as far as possible: ``d = 1`` if both are missing, otherwise
    ``d = max(z, 1 - z)`` for the known value's scaled ``z``. The prediction
    is the class of the first training instance (in ``fit`` order) at the
    strictly smallest distance.

    The model has no hyperparameters.

    {fitted_attributes}
    X_train_ : ndarray of shape (n_samples, n_features), float64
        The stored training instances (NaN = missing).
    y_train_ : ndarray of shape (n_samples,), int64
        Their class codes (indices into ``classes_``).

    Notes
    -----
    As in Weka, each test instance widens the numeric ranges (min/max) before
    it is classified, and the widened ranges are kept for the instances after
    it: row ``i`` of ``X`` in :meth:`predict` is classified with ranges over
    the training data and test rows ``0..i``. Weka keeps these ranges in the
    model for good; here each call of :meth:`predict` starts again from the
    training ranges, so a call with one fold's test instances in their order
    gives Weka's predictions for that fold. A range narrower than 1e-6 scales
    every value to 0 (Weka's ``Utils.eq``). :meth:`predict_proba` is Weka's
    class distribution for IB1: 1 for the predicted class, 0 elsewhere.

    References
    ----------
    .. [1] Aha, D. W., Kibler, D. & Albert, M. K. (1991). Instance-based
           learning algorithms. Machine Learning 6, 37-66.
           doi:10.1007/BF00153759
    .. [2] {witten_frank2005}
           (Weka 3.6, ``IB1``).

    Examples
    --------
    >>> import numpy as np
    >>> from calibsim.learners import IB1
    >>> X = np.array([[0.0, 1.0], [0.0, 5.0], [1.0, 9.0]])   # nominal, numeric
    >>> clf = IB1().fit(X, ["a", "b", "b"], n_values=[2, 0])
    >>> clf.predict([[0.0, 2.0], [1.0, np.nan], [np.nan, 4.0]])
    array(['a', 'b', 'b'], dtype='<U1')
    """

    @fill_doc(**_LEARNER_DOCS)
    def fit(self, X, y, n_values=None, classes=None):
        """Store the training instances.

        {fit_X_y}
        n_values : array_like of shape (n_features,), optional
            Arity of each nominal attribute, 0 for a numeric one. Defaults to
            all nominal with ``X.max(axis=0) + 1`` values for integer ``X`` and
            to all numeric for float ``X``.
        {fit_classes}
            as in Weka (IB1 never predicts it, but ``predict_proba`` has its column).
            Defaults to ``np.unique(y)``.

        Returns
        -------
        self : IB1

        Raises
        ------
        ValueError
            If ``X`` is not a 2-D numeric array with at least one row, holds an
            infinite value or a nominal value that is not a code below its
            ``n_values`` (or NaN), if ``n_values`` is not one non-negative
            integer per column, ``y`` does not have one label per row, or
            ``classes`` does not hold every label of ``y``.
        {fit_raises_end}
        """
        X, y_codes, classes, n_values, _ = _check_general_fit(self, X, y, n_values, classes)
        self.classes_ = classes
        self.n_values_ = n_values
        self.n_features_in_ = X.shape[1]
        self.X_train_ = np.ascontiguousarray(X, dtype=np.float64)
        self.y_train_ = y_codes
        return self

    def _prepare_X(self, X):
        X, _ = _check_general_predict_input(X, self.n_values_)
        return np.ascontiguousarray(X, dtype=np.float64)

    def _predict_codes(self, X) -> np.ndarray:
        return _ib1_predict(self.X_train_, self.y_train_, self.n_values_ == 0, X)

    def _predict_proba_codes(self, X):
        """Weka's class distribution: 1 for the predicted class, 0 elsewhere."""
        codes = self._predict_codes(X)
        out = np.zeros((codes.shape[0], self.classes_.shape[0]))
        out[np.arange(codes.shape[0]), codes] = 1.0
        return out
