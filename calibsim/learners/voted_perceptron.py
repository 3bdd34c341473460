"""Voted perceptron faithful to Weka 3.6's ``VotedPerceptron`` (default options)."""

from __future__ import annotations

import numbers

import numpy as np

from ._base import NominalClassifier
from ._kernels_vp import _vp_fit, _vp_predict, _vp_predict_proba
from .tan import _nominal_fit_codes, _nominal_predict_codes

__all__ = ["VotedPerceptron"]


def _check_count(name, value, min_value):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"`{name}` must be an integer; got {value!r}.")
    if value < min_value:
        raise ValueError(f"`{name}` must be an integer >= {min_value}; got {value!r}.")


class VotedPerceptron(NominalClassifier):
    """Freund and Schapire's voted perceptron as Weka trains it.

    Reproduces Weka 3.6's ``weka.classifiers.functions.VotedPerceptron`` with
    exponent 1 (``-I 1 -E 1.0 -S 1 -M 10000`` by default) [1]_, [2]_ on
    nominal attributes and a binary class. Each nominal attribute is coded as
    Weka's ``NominalToBinary`` codes it (one 0/1 attribute for at most two
    values, one indicator per value otherwise) and the kernel is the dot
    product plus 1. The training instances are shuffled exactly as Weka
    shuffles them (``Instances.randomize`` with ``java.util.Random(seed)``)
    and visited ``n_iterations`` times; every mistake of the current
    perceptron starts a new one, up to ``max_k`` mistakes. A test instance
    gets the vote ``sum_i c_i sign(perceptron_i(x))`` of all perceptrons
    weighted by their survival counts ``c_i`` (a perceptron's sum of exactly
    0 votes +1); the prediction is ``classes_[1]`` if the vote is positive and
    ``classes_[0]`` otherwise, as Weka's ``1 / (1 + exp(-vote))`` makes it.

    Only nominal attributes are supported (Weka would also take numeric ones
    as they are). A missing value (NaN) is replaced, in training and at
    prediction, by the mode of the attribute's known training values, as
    Weka's ``ReplaceMissingValues`` filter does.

    Parameters
    ----------
    n_iterations : int, default 1
        Passes over the training data (Weka's ``-I``).
    max_k : int, default 10000
        Maximum number of mistakes, i.e. of perceptrons after the first
        (Weka's ``-M``).
    seed : int, default 1
        Seed of the ``java.util.Random`` that shuffles the training data
        (Weka's ``-S``).

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two sorted class labels seen in ``fit``.
    n_values_ : ndarray of shape (n_features,), int64
        Number of values of each attribute.
    n_features_in_ : int
        Number of attributes.
    modes_ : ndarray of shape (n_features,), int64
        Training mode of each attribute, used for missing values.
    n_perceptrons_ : int
        Number of mistakes K in training (the model has K + 1 perceptrons).
    model_ : tuple of ndarray
        The kernel's model ``(X_add, sign, weights, n_values)``: the
        misclassified instances, +1/-1 for ``classes_[1]``/``classes_[0]``,
        and the survival counts of the K + 1 perceptrons.

    Notes
    -----
    With exponent 1 every kernel value and vote is an integer, so the model
    and the predictions are Weka's exactly.

    References
    ----------
    .. [1] Freund, Y. & Schapire, R. E. (1999). Large margin classification
           using the perceptron algorithm. Machine Learning 37, 277-296.
           doi:10.1023/A:1007662407062
    .. [2] Witten, I. H. & Frank, E. (2005). Data Mining: Practical Machine
           Learning Tools and Techniques, 2nd ed. Morgan Kaufmann (Weka 3.6,
           ``VotedPerceptron``).

    Examples
    --------
    >>> import numpy as np
    >>> from calibsim.learners import VotedPerceptron
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
    >>> y = np.array(["no", "yes", "yes", "yes"] * 5)      # logical OR
    >>> vp = VotedPerceptron().fit(X, y)
    >>> vp.n_perceptrons_, vp.model_[2]        # mistakes, survival counts
    (3, array([ 7,  1,  1, 11]))
    >>> vp.predict([[0, 0], [0, 1], [1, 1]])
    array(['no', 'yes', 'yes'], dtype='<U3')
    """

    def __init__(self, *, n_iterations: int = 1, max_k: int = 10000, seed: int = 1):
        self.n_iterations = n_iterations
        self.max_k = max_k
        self.seed = seed

    def fit(self, X, y, n_values=None):
        """Train the sequence of perceptrons.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            Nominal codes ``0 <= X[:, j] < n_values[j]``; NaN marks a missing
            value (then ``X`` is float and ``n_values`` is required).
        y : array_like of shape (n_samples,)
            Class labels with exactly two distinct values.
        n_values : array_like of shape (n_features,), optional
            Number of values of each attribute (all > 0); by default
            ``X.max(axis=0) + 1`` for integer ``X``. It decides whether an
            attribute is one 0/1 input (at most 2 values) or indicators.

        Returns
        -------
        self : VotedPerceptron

        Raises
        ------
        ValueError
            If ``X`` is not a 2-D array of codes (or NaN) below ``n_values``
            with at least one row, an attribute is numeric, ``y`` does not have
            one label per row or does not hold exactly two classes, or a
            hyperparameter is out of range.
        TypeError
            If a hyperparameter is not an integer.
        """
        _check_count("n_iterations", self.n_iterations, 1)
        _check_count("max_k", self.max_k, 1)
        if isinstance(self.seed, bool) or not isinstance(self.seed, numbers.Integral):
            raise TypeError(f"`seed` must be an integer; got {self.seed!r}.")
        if not -2**63 <= self.seed < 2**63:
            raise ValueError(f"`seed` must fit in a Java long; got {self.seed!r}.")
        X, y_codes, classes, n_values, modes = _nominal_fit_codes(X, y, n_values,
                                                                  "VotedPerceptron")
        if classes.shape[0] != 2:
            raise ValueError(f"VotedPerceptron needs exactly two classes in `y`; got "
                             f"{classes.shape[0]} ({classes.tolist()!r}).")
        self.classes_ = classes
        self.n_values_ = n_values
        self.n_features_in_ = X.shape[1]
        self.modes_ = modes
        self.model_ = _vp_fit(X, y_codes, n_values, np.int64(self.n_iterations),
                              np.int64(self.max_k), np.int64(self.seed))
        self.n_perceptrons_ = int(self.model_[0].shape[0])
        return self

    def _predict_codes(self, X):
        return _vp_predict(self.model_, X)

    def _predict_proba_codes(self, X):
        return _vp_predict_proba(self.model_, X)

    def _prepare_X(self, X):
        # missing values (NaN) become the training mode, as Weka's ReplaceMissingValues
        return _nominal_predict_codes(X, self.n_values_, self.modes_)
