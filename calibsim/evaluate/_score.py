"""Run learners on a scheme's splits and return score arrays.

This is the step "learners → schemes → score arrays": it trains every learner
on every training set of one data set inside one numba call and counts its
correct predictions on the matching test set (optionally also recording each
test instance's correctness and class probabilities).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import check_int

__all__ = ["LEARNERS", "SplitScores", "score_splits"]

#: Learners the evaluation kernel runs on data with numeric attributes or missing values.
_GENERAL_LEARNERS = ("naive_bayes", "c45")

#: Learners the evaluation kernel runs, by name: Weka 3.6 ``NaiveBayes``,
#: ``J48``, ``IB1``, ``BayesNet`` with the ``TAN`` search and
#: ``VotedPerceptron``, with their default options (see :mod:`calibsim.learners`:
#: ``NaiveBayes``, ``C45``, ``IB1``, ``TAN``, ``VotedPerceptron``). The voted
#: perceptron needs a binary class.
LEARNERS = ("naive_bayes", "c45", "ib1", "tan", "voted_perceptron")


@dataclass(frozen=True)
class SplitScores:
    """Correct-prediction counts of several learners on the same splits.

    Attributes
    ----------
    learners : tuple of str
        Learner names, in the order of the first axis of ``correct``.
    correct : ndarray of shape (n_learners, *split_shape), int64
        Number of correctly classified test instances per learner and split.
    n_test : ndarray of shape split_shape, int64
        Test-set size of every split.
    model_size : ndarray of shape (n_learners, *split_shape), int64
        Number of nodes of the C4.5 tree (Weka's "Size of the tree"), number
        of mistakes in training (perceptrons after the first) of the voted
        perceptron; 0 for naive Bayes, IB1 and TAN.
    correctness : ndarray of shape (n_learners, *split_shape, n), bool, or None
        Only with ``score_splits(..., return_correctness=True)``: True where
        instance i is in the split's test set and the learner classified it
        correctly (False for training instances). ``correctness.sum(-1)``
        equals ``correct``.
    proba : ndarray of shape (n_learners, *split_shape, n, n_classes), float64, or None
        Only with ``score_splits(..., return_proba=True)``: where instance i is
        in the split's test set, the learner's class probabilities of i (columns
        the class codes), bit for bit what its estimator
        (:mod:`calibsim.learners`) fitted on the split's training instances
        returns from ``predict_proba``; NaN in the rows of training instances,
        so that a split's test rows are ``proba[l, s][test_masks[s]]`` and a
        training row cannot pass for a prediction. ``correct`` is not always
        the count of the test instances whose largest probability is their
        class: J48 breaks near-ties with a tolerance of 1e-6, and a C4.5 row
        can sum to less than 1 with missing values (see
        :class:`calibsim.learners.C45`).
    """

    learners: tuple
    correct: np.ndarray
    n_test: np.ndarray
    model_size: np.ndarray
    correctness: np.ndarray | None = None
    proba: np.ndarray | None = None

    @property
    def accuracy(self) -> np.ndarray:
        """Accuracy in [0, 1], shape ``(n_learners, *split_shape)``."""
        return self.correct / self.n_test

    def difference(self, a: int = 0, b: int = 1) -> np.ndarray:
        """Accuracy of learner ``a`` minus learner ``b``: the x of the tests."""
        return (self.correct[a] - self.correct[b]) / self.n_test

    def mcnemar_counts(self, a: int = 0, b: int = 1):
        """The 2x2 table of learners ``a`` (A) and ``b`` (B) on every test set.

        Dietterich's (1998) convention: n00 both wrong, n01 A wrong and B
        right, n10 A right and B wrong, n11 both right; the four counts sum to
        ``n_test``. Feed ``n01, n10`` to :func:`calibsim.stats.mcnemar_test`
        and all four to :func:`calibsim.stats.proportions_test`.

        Parameters
        ----------
        a, b : int, default 0 and 1
            Positions of the two learners in ``learners``.

        Returns
        -------
        n00, n01, n10, n11 : ndarray of shape split_shape, int64
            Counts of test instances.

        Raises
        ------
        ValueError
            If the scores were computed without ``return_correctness=True``,
            or ``a`` / ``b`` is not a learner position.

        Examples
        --------
        >>> from calibsim.sources import NullSource
        >>> from calibsim.schemes import Holdout
        >>> X, y = NullSource(n_instances=60).sample(rng=0)
        >>> scores = score_splits(X, y, Holdout().test_masks(y, rng=1),
        ...                       return_correctness=True)
        >>> n00, n01, n10, n11 = scores.mcnemar_counts()
        >>> bool((n00 + n01 + n10 + n11 == scores.n_test).all())
        True
        """
        if self.correctness is None:
            raise ValueError("`mcnemar_counts` needs per-instance correctness: call "
                             "`score_splits(..., return_correctness=True)`.")
        n_learners = len(self.learners)
        for name, value in (("a", a), ("b", b)):
            check_int(name, value, min_value=0, max_value=n_learners - 1)
        ca, cb = self.correctness[a], self.correctness[b]
        n11 = np.sum(ca & cb, axis=-1)
        n01 = np.sum(~ca & cb, axis=-1)       # cb implies "in the test set"
        n10 = np.sum(ca & ~cb, axis=-1)
        n00 = self.n_test - n11 - n01 - n10
        return n00, n01, n10, n11


def score_splits(X, y, test_masks, *, learners=("naive_bayes", "c45"), n_values=None,
                 n_classes=None, c45_confidence: float = 0.25, c45_min_obj: int = 2,
                 return_correctness: bool = False, return_proba: bool = False) -> SplitScores:
    """Train and test each learner on every split given by ``test_masks``.

    Parameters
    ----------
    X : array_like of shape (n, a)
        Nominal attribute codes, integers in ``0 .. n_values[j] - 1``; or
        floats, with numeric attributes (``n_values[j] == 0``) and NaN for a
        missing value, as :class:`calibsim.learners.C45` and
        :class:`calibsim.learners.NaiveBayes` take them (only those two
        learners then; float ``X`` holding only codes is scored as codes).
    y : array_like of shape (n,)
        Class codes, integers in ``0 .. n_classes - 1``.
    test_masks : array_like of bool, shape (*split_shape, n)
        ``True`` where an instance is in the split's test set; the rest train.
        For example ``StratifiedRepeatedCV.test_masks`` gives
        ``(n_runs, n_folds, n)``.
    learners : sequence of str, default ("naive_bayes", "c45")
        Names from :data:`LEARNERS`; ``"voted_perceptron"`` needs
        ``n_classes == 2``.
    n_values : array_like of shape (a,), optional
        Number of values of each attribute (0 for a numeric attribute of float
        ``X``); by default ``X.max(axis=0) + 1`` for codes and all numeric for
        floats.
    n_classes : int, optional
        Number of classes; by default ``y.max() + 1``.
    c45_confidence, c45_min_obj
        J48's ``-C`` (in (0, 0.5]) and ``-M`` (>= 1) options.
    return_correctness : bool, default False
        Also record which test instances each learner classified correctly
        (``SplitScores.correctness``, shape ``(n_learners, *split_shape, n)``),
        as McNemar's test needs. Off by default: it costs memory, and the
        counts are the same either way.
    return_proba : bool, default False
        Also record every learner's class probabilities of every test
        instance (``SplitScores.proba``, shape ``(n_learners, *split_shape,
        n, n_classes)`` float64, NaN in training rows), as metrics other than
        accuracy (ROC AUC, log loss, Brier score) need. They are the
        estimators' ``predict_proba`` on the split's test rows, bit for bit;
        ``correct``, ``model_size`` and ``correctness`` are the same with or
        without them. It costs ``8 * n_learners * n_splits * n * n_classes``
        bytes (6.4 MB for two learners, 10 x 10 cv, 1,000 instances and four
        classes) and some time to compute them; off, the kernel compiled
        without them runs.

    Returns
    -------
    SplitScores

    Raises
    ------
    ValueError
        For shapes that do not match, codes out of range, an unknown learner,
        a learner other than naive Bayes and C4.5 on numeric or missing values,
        an infinite value, or a split with an empty training or test set.

    Examples
    --------
    >>> from calibsim.sources import NullSource
    >>> from calibsim.schemes import StratifiedRepeatedCV
    >>> X, y = NullSource(n_instances=60).sample(rng=0)
    >>> masks = StratifiedRepeatedCV(n_folds=5, n_runs=2).test_masks(y, rng=1)
    >>> scores = score_splits(X, y, masks)
    >>> scores.correct.shape, scores.n_test.shape
    ((2, 2, 5), (2, 5))

    Class probabilities of every test instance (NaN in the training rows):

    >>> scores = score_splits(X, y, masks, return_proba=True)
    >>> scores.proba.shape
    (2, 2, 5, 60, 2)
    >>> test = scores.proba[:, masks]              # (learner, test instance, class)
    >>> bool(np.isnan(scores.proba[:, ~masks]).all()), bool(np.allclose(test.sum(-1), 1))
    (True, True)
    """
    from ._kernels import (LEARNER_IDS, _evaluate_general, _evaluate_splits,
                           _evaluate_splits_correctness, _evaluate_splits_proba)

    X = np.asarray(X)
    y = np.asarray(y)
    if X.ndim != 2 or X.shape[0] < 2:
        raise ValueError(f"`X` must be 2-D with at least 2 rows; got shape {X.shape}.")
    if y.shape != (X.shape[0],):
        raise ValueError(f"`y` must have shape ({X.shape[0]},) to match `X`; got {y.shape}.")
    general = np.issubdtype(X.dtype, np.floating)
    if general:
        X, n_values = _general_X(X, n_values)
        if (n_values > 0).all() and not np.isnan(X).any():     # nominal codes after all
            X, general = X.astype(np.int64), False
    for name, arr in ((("y", y),) if general else (("X", X), ("y", y))):
        if not np.issubdtype(arr.dtype, np.integer) or (arr.size and arr.min() < 0):
            raise ValueError(f"`{name}` must hold non-negative integer codes; "
                             f"got dtype {arr.dtype} with minimum {arr.min() if arr.size else None}.")
    if not general:
        n_values = (X.max(axis=0) + 1) if n_values is None else np.asarray(n_values)
        if n_values.shape != (X.shape[1],) or np.any(X >= n_values):
            raise ValueError(f"`n_values` must have shape ({X.shape[1]},) and exceed every code "
                             f"in `X`; got {n_values!r}.")
    n_classes = int(y.max()) + 1 if n_classes is None else check_int("n_classes", n_classes,
                                                                      min_value=1)
    if y.max() >= n_classes:
        raise ValueError(f"`y` holds class code {int(y.max())} >= `n_classes` = {n_classes}.")
    unknown = [name for name in learners if name not in LEARNER_IDS]
    if unknown or len(learners) == 0:
        raise ValueError(f"`learners` must be a non-empty sequence of names from "
                         f"{list(LEARNER_IDS)}; got {list(learners)!r}.")
    if general and set(learners) - set(_GENERAL_LEARNERS):
        raise ValueError(f"`learners` must be names from {list(_GENERAL_LEARNERS)} for data with "
                         f"numeric attributes or missing values; got {list(learners)!r}.")
    if "voted_perceptron" in learners and n_classes != 2:
        raise ValueError(f"`learners` holds 'voted_perceptron', which needs a binary class; "
                         f"got `n_classes` = {n_classes}.")
    masks = np.asarray(test_masks, dtype=bool)
    if masks.ndim < 1 or masks.shape[-1] != X.shape[0]:
        raise ValueError(f"`test_masks` must have shape (..., {X.shape[0]}); got {masks.shape}.")
    split_shape = masks.shape[:-1]
    flat = np.ascontiguousarray(masks.reshape(-1, X.shape[0]))
    n_te = flat.sum(axis=1)
    if np.any(n_te == 0) or np.any(n_te == X.shape[0]):
        raise ValueError("`test_masks` must leave every split a non-empty training set and a "
                         "non-empty test set; got a split with "
                         f"{int(n_te[(n_te == 0) | (n_te == X.shape[0])][0])} test instances "
                         f"of {X.shape[0]}.")
    if not 0 < c45_confidence <= 0.5:
        raise ValueError(f"`c45_confidence` must lie in (0, 0.5]; got {c45_confidence!r}.")
    check_int("c45_min_obj", c45_min_obj, min_value=1)
    if not isinstance(return_correctness, bool):
        raise TypeError(f"`return_correctness` must be a bool; got {return_correctness!r}.")
    if not isinstance(return_proba, bool):
        raise TypeError(f"`return_proba` must be a bool; got {return_proba!r}.")
    ids = np.array([LEARNER_IDS[name] for name in learners], dtype=np.int64)
    args = (np.ascontiguousarray(X, dtype=np.float64 if general else np.int64),
            np.ascontiguousarray(y, dtype=np.int64),
            np.ascontiguousarray(n_values, dtype=np.int64), np.int64(n_classes), ids, flat,
            float(c45_confidence), np.int64(c45_min_obj))
    L = len(learners)
    n = X.shape[0]
    correctness = proba = None
    if general:
        numeric = True if (n_values == 0).any() else None
        proba = np.full((L, flat.shape[0], n, n_classes), np.nan) if return_proba else None
        correct, n_test, size, correctness = _evaluate_general(*args, return_correctness,
                                                               numeric, proba)
    elif return_proba:
        correct, n_test, size, correctness, proba = _evaluate_splits_proba(
            *args, return_correctness)
    elif return_correctness:
        correct, n_test, size, correctness = _evaluate_splits_correctness(*args)
    else:
        correct, n_test, size = _evaluate_splits(*args)
    correctness = (correctness.reshape((L,) + split_shape + (n,))
                   if return_correctness else None)
    if return_proba:
        proba = proba.reshape((L,) + split_shape + (n, n_classes))
    return SplitScores(tuple(learners), correct.reshape((L,) + split_shape),
                       n_test.reshape(split_shape), size.reshape((L,) + split_shape),
                       correctness, proba)


def _general_X(X, n_values):
    """Float ``X`` and its ``n_values`` checked as the general learners check them: finite
    or NaN, a nominal column (``n_values[j] > 0``) holding codes or NaN; ``n_values``
    defaults to all numeric. Returns (float64 C-contiguous X, int64 n_values)."""
    from ..learners._general import _check_float_X, _check_values_against
    X = _check_float_X(X)
    nv = (np.zeros(X.shape[1], np.int64) if n_values is None
          else np.asarray(n_values))
    if (nv.shape != (X.shape[1],) or not np.issubdtype(nv.dtype, np.integer)
            or (nv < 0).any()):
        raise ValueError(f"`n_values` must be a 1-D array of {X.shape[1]} integers (one per "
                         f"column of `X`), each >= 0 (0 = numeric); got {n_values!r}.")
    nv = np.ascontiguousarray(nv, dtype=np.int64)
    _check_values_against(X, nv)
    return X, nv
