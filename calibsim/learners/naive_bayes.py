"""Naive Bayes for nominal attributes, faithful to Weka 3.6's ``NaiveBayes``."""

from __future__ import annotations

import numpy as np

from ._base import NominalClassifier, _check_fit_inputs
from ._kernels_nb import _nb_fit, _nb_predict, _nb_predict_proba

__all__ = ["NaiveBayes"]


# --------------------------------------------------------------------------
# Estimator
# --------------------------------------------------------------------------

class NaiveBayes(NominalClassifier):
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

    def _predict_proba_codes(self, X):
        return _nb_predict_proba(self.model_, X)

    def _predict_codes(self, X):
        return _nb_predict(self.model_, X)
