"""Damage for any metric: random errors, noise on class probabilities, noise on predicted values.

Dietterich (1998, §5) made two real learners equally good by damaging the better one:
random classification errors at a rate calibrated per training-set size
(:class:`calibsim.learners._damaged.RandomErrors`). For a metric other than accuracy the
damage must act on what the metric reads:

- **predicted classes** (balanced accuracy, F1, the Matthews correlation):
  :func:`flip_labels`, each prediction replaced with probability r by a class drawn
  uniformly from the other classes (the law of ``RandomErrors``);
- **class probabilities or scores** (log loss, Brier score, ROC AUC, average precision):
  :func:`noisy_proba`, Gaussian noise of standard deviation σ added to each class's log
  probability and the result renormalised (a softmax), so every derived score — the
  positive class's probability, the predicted class — moves with it; σ = 0 leaves the
  probabilities as they are, and as σ grows the ranking of the instances tends to a
  random one (AUC 1/2);
- **predicted values** (regression): :func:`noisy_values`, Gaussian noise of standard
  deviation s added to each prediction. Independent of the data, it raises the expected
  squared error by exactly s²: E[(y − ŷ − e)²] = E[(y − ŷ)²] + s², so the damage that
  equalises two regressors' mean squared errors is s² = their gap.

:class:`NoisyPredictions` wraps any estimator with one of these, its level read from a
calibrated curve of ``(training-set size, level)`` pairs (:func:`~._damaged.damage_at`), as
``RandomErrors`` reads its rate. The same functions damage stored responses after the fact
(:func:`calibsim.calibrate_damage`, :func:`calibsim.plan`), so a learner damaged while
predicting and responses damaged afterwards follow one law.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, clone, is_regressor

from .._validation import check_random_state

__all__ = ["flip_labels", "noisy_proba", "noisy_values", "NoisyPredictions", "NOISE_KINDS"]

#: The damage of each kind of response (:attr:`calibsim.metrics.Metric.response`).
NOISE_KINDS = {"label": "labels", "score": "proba", "proba": "proba", "value": "values"}


def flip_labels(codes, rate: float, n_classes: int, rng) -> np.ndarray:
    """Class codes, each replaced with probability ``rate`` by another class drawn
    uniformly: one uniform per row (whether to err), then one integer per row (which
    other class), the draws of :class:`~._damaged.RandomErrors`.

    Parameters
    ----------
    codes : ndarray of shape (n,), int
    rate : float in [0, 1]
    n_classes : int
    rng : numpy.random.Generator

    Returns
    -------
    ndarray of shape (n,), int64

    Examples
    --------
    >>> import numpy as np
    >>> flip_labels(np.array([0, 1, 1]), 1.0, 2, np.random.default_rng(0)).tolist()
    [1, 0, 0]
    """
    codes = np.asarray(codes, np.int64)
    err = rng.random(codes.shape) < rate
    shift = rng.integers(1, max(n_classes, 2), size=codes.shape)
    return np.where(err & (n_classes > 1), (codes + shift) % max(n_classes, 1), codes)


def noisy_proba(proba, sigma: float, rng) -> np.ndarray:
    """Class probabilities with N(0, σ²) noise on each log probability, renormalised.

    ``p'_c ∝ exp(log p_c + σ ε_c)``, ε_c independent standard normals (log p clipped at
    ``log eps``, so a probability of 0 stays reachable by the noise); σ = 0 returns a
    copy of ``proba`` and draws nothing.

    Parameters
    ----------
    proba : ndarray of shape (n, C)
        Rows summing to 1.
    sigma : float >= 0
    rng : numpy.random.Generator

    Returns
    -------
    ndarray of shape (n, C), rows summing to 1

    Examples
    --------
    >>> import numpy as np
    >>> p = np.array([[0.9, 0.1], [0.2, 0.8]])
    >>> np.allclose(noisy_proba(p, 0.0, np.random.default_rng(0)), p)
    True
    >>> np.allclose(noisy_proba(p, 2.0, np.random.default_rng(0)).sum(1), 1.0)
    True
    """
    p = np.asarray(proba, dtype=np.float64)
    if sigma == 0:
        return p.copy()
    z = np.log(np.clip(p, np.finfo(np.float64).eps, 1.0)) + sigma * rng.standard_normal(p.shape)
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def noisy_values(values, s: float, rng) -> np.ndarray:
    """Predicted values plus N(0, s²) noise (the expected squared error rises by s²);
    s = 0 returns a copy and draws nothing.

    Examples
    --------
    >>> import numpy as np
    >>> noisy_values(np.array([1.0, 2.0]), 0.0, np.random.default_rng(0)).tolist()
    [1.0, 2.0]
    """
    v = np.asarray(values, dtype=np.float64)
    return v.copy() if s == 0 else v + s * rng.standard_normal(v.shape)


class NoisyPredictions(BaseEstimator):
    """Any estimator, damaged by calibrated noise on what it predicts (module docstring).

    A classifier's class probabilities get :func:`noisy_proba` (σ from ``curve``), and its
    ``predict`` is the most probable class of the damaged probabilities of the same
    call; with ``noise="labels"`` its predicted classes get :func:`flip_labels` instead
    (rate from ``curve``) and it has no ``predict_proba``. A regressor's predictions get
    :func:`noisy_values` (s from ``curve``).

    Parameters
    ----------
    estimator : estimator
        The learner to damage (cloned in ``fit``).
    noise : {"auto", "proba", "labels", "values"}, default "auto"
        ``"auto"``: ``"values"`` for a regressor, ``"proba"`` for a classifier.
    curve : sequence of (int, float), default ((1, 0.0),)
        ``(training-set size, level)`` pairs (:func:`~._damaged.damage_at`): σ, the rate
        or s at each training-set size.
    random_state : None, int, SeedSequence or Generator
        The noise's randomness; successive calls continue one stream.

    Attributes
    ----------
    estimator_ : fitted estimator
    level_ : float
        The damage at the training-set size of ``fit``.
    noise_ : str
        The noise applied.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> X = np.arange(20.0).reshape(-1, 1); y = 2 * X[:, 0]
    >>> m = NoisyPredictions(LinearRegression(), curve=[(1, 0.5)], random_state=0).fit(X, y)
    >>> m.noise_, m.level_
    ('values', 0.5)
    >>> bool(np.all(m.predict(X) != y))
    True
    """

    def __init__(self, estimator=None, noise="auto", curve=((1, 0.0),), random_state=None):
        self.estimator = estimator
        self.noise = noise
        self.curve = curve
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        if self.estimator is not None:
            base = self.estimator.__sklearn_tags__()
            tags.estimator_type = base.estimator_type
            tags.input_tags = base.input_tags
        return tags

    def fit(self, X, y, **fit_params):
        """Fit a clone of ``estimator`` and take the damage at ``len(y)`` training instances.

        Raises
        ------
        ValueError
            If ``estimator`` is missing, ``noise`` is unknown or does not fit the
            estimator (``"values"`` for a classifier, ``"proba"`` for a classifier
            without ``predict_proba``), or a level of ``curve`` is negative (or a rate
            above 1).
        """
        from ._damaged import damage_at
        if self.estimator is None:
            raise ValueError("`estimator` must be the learner to damage; got None.")
        regressor = is_regressor(self.estimator)
        noise = ("values" if regressor else "proba") if self.noise == "auto" else self.noise
        if noise not in ("proba", "labels", "values"):
            raise ValueError(f"`noise` must be 'auto', 'proba', 'labels' or 'values'; got "
                             f"{self.noise!r}.")
        if (noise == "values") != regressor:
            raise ValueError(f"`noise` {noise!r} does not fit a "
                             f"{'regressor' if regressor else 'classifier'}: use "
                             f"{'values' if regressor else 'proba or labels'!r}.")
        if noise == "proba" and not hasattr(self.estimator, "predict_proba"):
            raise ValueError("`noise` 'proba' needs an estimator with predict_proba; use "
                             "noise='labels'.")
        level = damage_at(self.curve, len(y))
        if not level >= 0 or (noise == "labels" and level > 1):
            raise ValueError(f"`curve` gives the damage {level!r} at {len(y)} training "
                             "instances; it must be >= 0 (a rate in [0, 1]).")
        self.estimator_ = clone(self.estimator).fit(X, y, **fit_params)
        self.level_, self.noise_ = float(level), noise
        if hasattr(self.estimator_, "classes_"):
            self.classes_ = self.estimator_.classes_
        self._rng = np.random.default_rng(check_random_state("random_state", self.random_state,
                                                            generator=True))
        return self

    def predict_proba(self, X):
        """The estimator's class probabilities with :func:`noisy_proba` at ``level_``.

        Raises
        ------
        AttributeError
            Unless the noise is ``"proba"``.
        """
        if getattr(self, "noise_", self.noise) not in ("proba", "auto"):
            raise AttributeError("predict_proba is only available with noise='proba'.")
        return noisy_proba(self.estimator_.predict_proba(X), self.level_, self._rng)

    def predict(self, X):
        """The damaged prediction: the most probable class of the damaged probabilities
        (noise ``"proba"``), the flipped classes (``"labels"``) or the noisy values."""
        if self.noise_ == "values":
            return noisy_values(self.estimator_.predict(X), self.level_, self._rng)
        if self.noise_ == "proba":
            return self.classes_[np.argmax(self.predict_proba(X), axis=1)]
        codes = np.searchsorted(self.classes_, self.estimator_.predict(X))
        return self.classes_[flip_labels(codes, self.level_, len(self.classes_), self._rng)]
