"""Naive Bayes for nominal and numeric attributes, faithful to Weka 3.6's ``NaiveBayes``."""

from __future__ import annotations

import numpy as np

from .._docstrings import fill_doc
from ._base import _LEARNER_DOCS, NominalClassifier
from ._general import _check_general_fit, _check_general_predict_input
from ._kernels_nb import (_nb_fit, _nb_fit_general, _nb_predict, _nb_predict_general,
                          _nb_predict_proba, _nb_predict_proba_general)

__all__ = ["NaiveBayes"]


# --------------------------------------------------------------------------
# Estimator
# --------------------------------------------------------------------------

@fill_doc(**_LEARNER_DOCS)
class NaiveBayes(NominalClassifier):
    """Naive Bayes with Laplace-corrected counts and Weka's normal estimator.

    Reproduces Weka 3.6's ``weka.classifiers.bayes.NaiveBayes`` with default
    options [1]_, [2]_. The class prior is
    ``P(c) = (N_c + 1) / (N + C)`` and each conditional is
    ``P(v | c) = (N_vc + 1) / (N_c + V_j)``, where ``V_j`` is the number of
    values of attribute ``j``. A test instance's class scores are the prior
    times ``max(1e-75, P(v | c))`` over the attributes in order, rescaled by
    1e75 whenever the largest score drops below 1e-75 and normalised to sum
    to 1, exactly as Weka computes them; the prediction is the first class
    with the largest score (ties go to the lowest class).

    A numeric attribute is modelled, per class, by Weka's
    ``NormalEstimator``: with the attribute's *precision* ``p`` (the mean gap
    between its sorted distinct training values, 0.01 if it has fewer than two),
    each value is rounded to a multiple of ``p``; the estimator keeps the mean
    and standard deviation of the rounded values (the standard deviation is
    at least ``p / 6``, and stays ``p / 6`` while the values are all equal),
    and ``P(v | c)`` is the normal probability of the interval
    ``[round(v) - p/2, round(v) + p/2]``. A missing value (NaN) is skipped:
    in training it adds nothing to that attribute's estimator, and at
    prediction it leaves the attribute out.

    The model has no hyperparameters.

    {fitted_attributes}
    class_prior_ : ndarray of shape (n_classes,)
        Laplace-corrected class probabilities ``P(c)``.
    model_ : tuple of ndarray
        The kernel's model. For all-nominal data without missing values
        (``general_`` False) it is ``(prior, cond, offset)``;
        ``cond[offset[j] + v, c]`` is ``max(1e-75, P(v | c))``. Otherwise it is
        ``(prior, cond, offset, numeric, mean, sd, precision)``, adding the
        normal estimators' parameters of shape (n_features, n_classes) and the
        precision of each attribute.
    general_ : bool
        Whether the general (numeric or missing-value) kernels were used.

    Notes
    -----
    Weka sorts its copy of the training data by each numeric attribute in
    turn to find the precisions, with an unstable quicksort, and then adds
    the instances to the estimators in the resulting order. The kernels
    reproduce that order, so the estimators' floating-point sums, and hence
    the probabilities, are Weka's bit for bit (up to the last bit of
    ``exp``, whose Java implementation can differ from the C library's by
    one unit in the last place).

    References
    ----------
    .. [1] John, G. H. & Langley, P. (1995). Estimating continuous
           distributions in Bayesian classifiers. Proc. 11th Conference on
           Uncertainty in Artificial Intelligence, 338-345.
           arXiv:1302.4964
    .. [2] {witten_frank2005}
           (Weka 3.6, ``NaiveBayes`` and ``DiscreteEstimator``).

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

    Numeric attributes and missing values need ``n_values`` (0 = numeric):

    >>> X = np.array([[0, 1.2], [0, 1.4], [1, np.nan], [1, 3.1], [1, 2.9]])
    >>> nb = NaiveBayes().fit(X, y, n_values=[2, 0])
    >>> nb.model_[6]        # precision of attribute 1: (3.1 - 1.2) / 3 gaps
    array([0.01      , 0.63333333])
    >>> nb.predict([[np.nan, 1.3], [0, 3.0]])
    array(['no', 'yes'], dtype='<U3')
    """

    @fill_doc(**_LEARNER_DOCS)
    def fit(self, X, y, n_values=None, classes=None):
        """Fit the class prior and the conditional value distributions.

        {fit_X_y}
        n_values : array_like of shape (n_features,), optional
            Number of values of each nominal attribute, 0 for a numeric one.
            Defaults to all nominal with ``X.max(axis=0) + 1`` values for
            integer ``X`` and to all numeric (zeros) for float ``X``. It
            matters: the Laplace correction adds ``V_j`` to each denominator,
            so pass the declared arity when a value is absent from the data.
        {fit_classes}
            as in Weka: the Laplace-corrected prior and conditionals count it (``C`` in
            the denominators). Defaults to ``np.unique(y)``.

        Returns
        -------
        self : NaiveBayes

        Raises
        ------
        ValueError
            If ``X`` is not a 2-D numeric array with at least one row (of
            non-negative integer codes when ``n_values`` is not given), holds
            an infinite value or a nominal value that is not a code below its
            ``n_values`` (or NaN), ``y`` does not have one label per row, or
            ``n_values`` is not one non-negative integer per column exceeding
            its codes, or ``classes`` does not hold every label of ``y``.
        {fit_raises_end}
        """
        X, y_codes, classes, n_values, codes = _check_general_fit(self, X, y, n_values, classes)
        self.classes_ = classes
        self.n_values_ = n_values
        self.n_features_in_ = X.shape[1]
        n_classes = np.int64(classes.shape[0])
        self.general_ = not codes
        if codes:
            self.model_ = _nb_fit(X, y_codes, n_values, n_classes)
        else:
            self.model_ = _nb_fit_general(X, y_codes, n_values, n_classes)
        self.class_prior_ = self.model_[0].copy()
        return self

    def _general_model(self):
        if self.general_:
            return self.model_
        prior, cond, offset = self.model_
        a, C = self.n_values_.shape[0], prior.shape[0]
        return (prior, cond, offset, np.zeros(a, np.bool_), np.zeros((a, C)), np.ones((a, C)),
                np.full(a, 0.01))

    def _prepare_X(self, X):
        """int64 codes for the nominal kernels, else float64 (NaN = missing) for the general ones."""
        X, codes = _check_general_predict_input(X, self.n_values_)
        if codes and not self.general_:
            return X
        return np.ascontiguousarray(X, dtype=np.float64)

    def _kernels(self, X):
        if X.dtype == np.float64:
            return self._general_model(), _nb_predict_general, _nb_predict_proba_general
        return self.model_, _nb_predict, _nb_predict_proba
