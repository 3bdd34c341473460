"""Learners damaged on purpose, as Dietterich (1998, §5) damaged his to equalise two learners.

Dietterich needed two real learners with the same error to measure the Type I error
of his tests on real data. On EXP6 and letter recognition the first nearest neighbour
beats C4.5, so he gave the nearest neighbour "a weighted Euclidean distance with bad
weights"; on Pima C4.5 beats the nearest neighbour, so he made C4.5 commit random
classification errors at a set rate. The damage is calibrated per training-set size
(150, 200 and 270 instances from data sets of 300: the training sets of 5x2cv, of
McNemar's test and of the 10-fold cv t), so both learners have one learning curve.

:class:`DamagedNN` and :class:`RandomErrors` take that calibration as a *curve*:
pairs ``(training-set size, damage)``, the damage at other sizes interpolated
linearly in the size and held constant beyond the ends. The calibration itself is
:func:`calibsim.papers.dietterich1998.calibrate_damage`.
"""

from __future__ import annotations

import numba
import numpy as np

from .._validation import check_probability

__all__ = ["DamagedNN", "RandomErrors", "damage_at"]


def damage_at(curve, n_train: int) -> float:
    """The damage of a calibrated curve at ``n_train`` training instances.

    Parameters
    ----------
    curve : sequence of (int, float)
        ``(training-set size, damage)`` pairs, sizes strictly increasing.
    n_train : int
        Training-set size.

    Returns
    -------
    float
        Linear interpolation in the size; the first (last) damage below (above) the
        curve's sizes.

    Raises
    ------
    ValueError
        If ``curve`` is empty, not pairs, or its sizes do not increase strictly.

    Examples
    --------
    >>> damage_at([(150, 0.2), (200, 0.3), (270, 0.5)], 235)
    0.4
    >>> damage_at([(150, 0.2), (200, 0.3)], 100)
    0.2
    """
    pts = np.asarray(curve, dtype=np.float64)
    if pts.ndim != 2 or pts.shape[1] != 2 or len(pts) == 0:
        raise ValueError("`curve` must be a non-empty list of (training-set size, damage) "
                         f"pairs; got {curve!r}.")
    if np.any(np.diff(pts[:, 0]) <= 0):
        raise ValueError(f"`curve` sizes must increase strictly; got {pts[:, 0].tolist()}.")
    return float(np.interp(n_train, pts[:, 0], pts[:, 1]))


@numba.njit(cache=True, nogil=True)
def _nn_predict_weights(Xtr, ytr, Xte, W):
    """First nearest neighbour under sum_j W[g, j] (x_j - z_j)^2 for each row g of ``W``
    (shape (g, a)); returns the class codes, shape (g, m). Ties go to the first.

    A weighting's sum stops once it reaches its nearest so far, in attribute order,
    so row g is bit for bit what ``W[g]`` alone gives (``W`` of one row: one learner);
    only the attribute differences are computed once for all weightings.
    """
    G, m, n, a = W.shape[0], Xte.shape[0], Xtr.shape[0], Xtr.shape[1]
    out = np.empty((G, m), np.int64)
    best = np.empty(G)
    arg = np.zeros(G, np.int64)
    d = np.empty(G)
    alive = np.empty(G, np.bool_)
    for i in range(m):
        best[:] = np.inf
        arg[:] = 0
        for k in range(n):
            d[:] = 0.0
            alive[:] = True
            n_alive = G
            for j in range(a):
                diff = Xte[i, j] - Xtr[k, j]
                for g in range(G):
                    if alive[g]:
                        d[g] += W[g, j] * diff * diff
                        if d[g] >= best[g]:
                            alive[g] = False
                            n_alive -= 1
                if n_alive == 0:
                    break
            for g in range(G):
                if alive[g] and d[g] < best[g]:
                    best[g], arg[g] = d[g], k
        for g in range(G):
            out[g, i] = ytr[arg[g]]
    return out


def predict_together(estimators, X) -> list:
    """Predictions of fitted :class:`DamagedNN` estimators sharing one training set.

    Equal to ``[est.predict(X) for est in estimators]`` (tested), in one pass over the
    training instances: the engine scores the damaged nearest neighbours of one split
    (Dietterich 1998, §5, one per damage level λ) together.

    Parameters
    ----------
    estimators : sequence of DamagedNN
        Fitted on the same training instances (the same ``X`` and ``y`` of ``fit``).
    X : array-like of shape (n_samples, n_attributes)
        Test instances.

    Returns
    -------
    list of ndarray of shape (n_samples,)
        One per estimator, its predicted labels.

    Raises
    ------
    ValueError
        If the estimators were not fitted on the same training instances.
    """
    if not estimators:
        return []
    first = estimators[0]
    for est in estimators[1:]:
        if not (est.X_train_ is first.X_train_ or np.array_equal(est.X_train_, first.X_train_)) \
                or not np.array_equal(est.y_train_, first.y_train_):
            raise ValueError("`estimators` must be fitted on the same training instances.")
    X = np.ascontiguousarray(X, dtype=np.float64)
    W = np.ascontiguousarray(np.stack([est.w_ for est in estimators]))
    codes = _nn_predict_weights(first.X_train_, first.y_train_, X, W)
    return [est.classes_[c] for est, c in zip(estimators, codes)]


@numba.njit(cache=True, nogil=True)
def _partial_distances(Xtr, Xte, damaged):
    """Squared distances split in two: over the undamaged and over the damaged attributes."""
    du = np.zeros((Xte.shape[0], Xtr.shape[0]))
    dd = np.zeros((Xte.shape[0], Xtr.shape[0]))
    for i in range(Xte.shape[0]):
        for k in range(Xtr.shape[0]):
            for j in range(Xtr.shape[1]):
                diff = Xte[i, j] - Xtr[k, j]
                if damaged[j]:
                    dd[i, k] += diff * diff
                else:
                    du[i, k] += diff * diff
    return du, dd


def nn_errors_over_weights(Xtr, ytr, Xte, yte, damaged, weights) -> np.ndarray:
    """Error of :class:`DamagedNN` on a test set for many weights at once (calibration).

    Parameters
    ----------
    Xtr, ytr : ndarray of shape (n, a) and (n,)
        Training data, numeric attributes, integer class codes.
    Xte, yte : ndarray of shape (m, a) and (m,)
        Test data.
    damaged : ndarray of shape (a,), bool
        The attributes whose squared differences get the weight.
    weights : ndarray of shape (g,)
        Weights in [0, 1] on the damaged attributes' squared differences.

    Returns
    -------
    ndarray of shape (g,)
        Error rates in [0, 1] (ties go to the first training instance, as in
        :meth:`DamagedNN.predict`).
    """
    du, dd = _partial_distances(np.ascontiguousarray(Xtr, np.float64),
                                np.ascontiguousarray(Xte, np.float64),
                                np.asarray(damaged, np.bool_))
    ytr = np.asarray(ytr)
    out = np.empty(len(weights))
    for g, w in enumerate(weights):
        pred = ytr[np.argmin(du + w * dd, axis=1)]
        out[g] = np.mean(pred != yte)
    return out


class DamagedNN:
    """First nearest neighbour with a weighted Euclidean distance that degrades it.

    The squared distance is ``sum_j w_j (x_j - z_j)**2`` on the raw attribute values
    (no range normalisation: EXP6's and letter recognition's attributes share one
    range), with ``w_j = 1`` for the undamaged attributes and ``w_j = weight`` for the
    ``damaged`` ones; ``weight`` is taken from the calibrated ``curve`` at the
    training-set size of :meth:`fit`. ``weight = 1`` is the plain nearest
    neighbour; lowering it makes the neighbour blind to the damaged attributes. The
    prediction is the class of the first training instance at the smallest distance.

    Dietterich (1998, §5) gives the nearest neighbour "a weighted Euclidean distance
    with bad weights" without stating them; the weights here are calibsim's choice.

    Parameters
    ----------
    damaged : sequence of int
        Indices (0-based) of the damaged attributes.
    curve : sequence of (int, float), default ((1, 1.0),)
        ``(training-set size, weight)`` pairs, weights in [0, 1]
        (:func:`damage_at`); the default is the undamaged nearest neighbour.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Declared (``classes`` of ``fit``) or sorted distinct class labels.
    weight_ : float
        The weight used, from ``curve`` at the training-set size.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 0.0], [10.0, 1.0]])
    >>> DamagedNN(damaged=[0]).fit(X, ["a", "b"]).predict([[9.0, 0.0]])
    array(['b'], dtype='<U1')
    >>> DamagedNN(damaged=[0], curve=[(2, 0.0)]).fit(X, ["a", "b"]).predict([[9.0, 0.0]])
    array(['a'], dtype='<U1')
    """

    def __init__(self, damaged=(), curve=((1, 1.0),)):
        self.damaged = damaged
        self.curve = curve

    def get_params(self, deep=True):
        return {"damaged": self.damaged, "curve": self.curve}

    def fit(self, X, y, n_values=None, classes=None):
        """Store the training instances and take the weight for their number.

        ``n_values`` must be absent or all 0 (numeric attributes); ``classes`` as
        :meth:`calibsim.learners.IB1.fit`.

        Raises
        ------
        ValueError
            If an attribute is nominal, an index in ``damaged`` is out of range, or a
            weight of ``curve`` is outside [0, 1].
        """
        X = np.asarray(X, dtype=np.float64)
        y = np.asarray(y)
        if n_values is not None and np.any(np.asarray(n_values) != 0):
            raise ValueError("DamagedNN takes numeric attributes only; `n_values` must be all "
                             f"0, got {np.asarray(n_values).tolist()}.")
        idx = np.asarray(self.damaged, dtype=np.int64).reshape(-1)
        if np.any((idx < 0) | (idx >= X.shape[1])):
            raise ValueError(f"`damaged` must index the {X.shape[1]} attributes; got "
                             f"{list(self.damaged)}.")
        self.weight_ = damage_at(self.curve, len(y))
        check_probability("weight", self.weight_, open_low=False, open_high=False)
        self.classes_ = np.unique(y) if classes is None else np.asarray(classes)
        codes = np.searchsorted(self.classes_, y)
        if np.any(codes >= len(self.classes_)) or np.any(self.classes_[codes] != y):
            raise ValueError("`classes` must hold every label of `y`.")
        self.w_ = np.ones(X.shape[1])
        self.w_[idx] = self.weight_
        self.X_train_, self.y_train_ = np.ascontiguousarray(X), codes.astype(np.int64)
        return self

    def predict(self, X):
        """Class of each row's nearest training instance, shape (n_samples,)."""
        X = np.ascontiguousarray(X, dtype=np.float64)
        return self.classes_[_nn_predict_weights(self.X_train_, self.y_train_, X,
                                                 self.w_[None, :])[0]]


class RandomErrors:
    """A learner that errs at random at a set rate on top of its own errors.

    Each prediction of the base learner is replaced, with probability ``rate``
    (from the calibrated ``curve`` at the training-set size of :meth:`fit`), by a
    class drawn uniformly from the *other* declared classes, so with two classes it
    is flipped. A base learner with error ε then has error ``ε + rate (1 - 2ε)`` on
    two classes. Dietterich (1998, §5) damaged C4.5 this way on Pima.

    Parameters
    ----------
    base : {"c45", "ib1", "naive_bayes"}, default "c45"
        The undamaged learner (calibsim's Weka-faithful one).
    curve : sequence of (int, float), default ((1, 0.0),)
        ``(training-set size, rate)`` pairs, rates in [0, 1] (:func:`damage_at`).
    random_state : None, int, SeedSequence or Generator
        Randomness of the errors (the engine gives each split its own SeedSequence
        from the data set's ``damage`` stream).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]] * 50)
    >>> y = np.array([0, 0, 1, 1] * 50)
    >>> clf = RandomErrors(curve=[(1, 1.0)], random_state=0).fit(X, y)
    >>> bool(np.all(clf.predict(X) != y))
    True
    """

    def __init__(self, base="c45", curve=((1, 0.0),), random_state=None):
        self.base = base
        self.curve = curve
        self.random_state = random_state

    def get_params(self, deep=True):
        return {"base": self.base, "curve": self.curve, "random_state": self.random_state}

    def set_params(self, **params):
        for k, v in params.items():
            if k not in self.get_params():
                raise ValueError(f"RandomErrors has no parameter {k!r}.")
            setattr(self, k, v)
        return self

    def fit(self, X, y, n_values=None, classes=None):
        """Fit the base learner and take the rate for the training-set size.

        Raises
        ------
        ValueError
            If ``base`` is not one of the allowed learners or a rate of ``curve`` is
            outside [0, 1].
        """
        from .c45 import C45
        from .ib1 import IB1
        from .naive_bayes import NaiveBayes
        bases = {"c45": C45, "ib1": IB1, "naive_bayes": NaiveBayes}
        if self.base not in bases:
            raise ValueError(f"`base` must be one of {list(bases)}; got {self.base!r}.")
        return self._fit_base(bases[self.base]().fit(X, y, n_values=n_values, classes=classes),
                              len(y))

    def _fit_base(self, estimator, n_train):
        """Finish :meth:`fit` given the base learner already fitted on the training set
        (the engine fits one base for every damaged learner of a split: the base is
        deterministic, so they would all fit the same model)."""
        self.rate_ = damage_at(self.curve, n_train)
        check_probability("rate", self.rate_, open_low=False, open_high=False)
        self.estimator_ = estimator
        self.classes_ = self.estimator_.classes_
        from .._validation import check_random_state
        self._rng = np.random.default_rng(check_random_state("random_state", self.random_state,
                                                            generator=True))
        return self

    def predict(self, X):
        """The base learner's predictions, each wrong at random with probability ``rate_``.

        Draws, in order, one uniform per row (whether to err) and one integer per row
        (which other class); successive calls continue the same stream.
        """
        codes = np.searchsorted(self.classes_, self.estimator_.predict(X))
        k = len(self.classes_)
        err = self._rng.random(len(codes)) < self.rate_
        shift = self._rng.integers(1, max(k, 2), size=len(codes))
        codes = np.where(err & (k > 1), (codes + shift) % k, codes)
        return self.classes_[codes]
