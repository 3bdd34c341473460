"""Damage calibrated for any metric: the level that takes a learner's mean score to a target.

Accuracy's damage has a closed form (random errors at rate r give the expected accuracy
a (1 − r) + (1 − a) r / (C − 1): :mod:`calibsim.comparison._damage`). For the other
metrics the damage of :mod:`calibsim.learners._noise` is calibrated numerically, on the
learner's stored responses (one fit per split, the damage drawn afterwards):

- **predicted classes** (balanced accuracy, F1, the Matthews correlation): random errors
  at rate r in [0, (C − 1)/C];
- **class probabilities** (log loss, Brier score, ROC AUC, average precision, the one vs
  rest AUC): noise of standard deviation σ ≥ 0 on the log probabilities;
- **predicted values** (regression): Gaussian noise of standard deviation s; for the
  squared error in closed form, s² = the gap (the expected squared error rises by exactly
  s²), for the absolute error and r² numerically.

The numerical level is found by bisection on the mean over the stored splits of the
damaged learner's per-split score (:func:`calibsim.metrics._batch.batch_fold_scores`),
the noise drawn once from one stream for every level tried (common random numbers), so the
mean is a smooth, in practice monotone, function of the level. A target beyond what the
damage can reach (an AUC below 1/2, a score above the undamaged one) is refused.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..learners._noise import NOISE_KINDS, flip_labels, noisy_proba, noisy_values
from ..metrics import Metric
from ..metrics._batch import batch_fold_scores

__all__ = ["StoredResponses", "damage_kind", "damaged_scores", "solve_level"]

#: Bisection steps of :func:`solve_level` (the level to 2^-40 of its bracket).
BISECTION_STEPS = 40
#: Largest noise σ (on log probabilities) or s / SD(target) tried before a target is refused.
MAX_NOISE = 1e4


@dataclass(frozen=True)
class StoredResponses:
    """One learner's responses on the test sets of many splits, flattened.

    Attributes
    ----------
    y : ndarray of shape (T,)
        True class code (int) or target (float) at each test position.
    response : ndarray of shape (T,) or (T, C)
        What damage acts on (:func:`damage_kind`): predicted codes, class probabilities
        or predicted values.
    fold : ndarray of shape (T,), int
        The split (0 .. n_folds - 1) of each position.
    n_folds : int
    n_classes : int
        0 for regression.
    """

    y: np.ndarray
    response: np.ndarray
    fold: np.ndarray
    n_folds: int
    n_classes: int


def damage_kind(metric: Metric) -> str:
    """``"labels"``, ``"proba"`` or ``"values"``: what the damage of ``metric`` acts on,
    and so what a damaged learner's responses must be stored as."""
    return NOISE_KINDS[metric.response]


def _damage(kind, response, level, n_classes, rng):
    if kind == "labels":
        return flip_labels(response, level, n_classes, rng)
    if kind == "proba":
        return noisy_proba(response, level, rng)
    return noisy_values(response, level, rng)


def _metric_response(metric, kind, damaged):
    """The response ``metric`` reads, from a damaged stored response."""
    if kind == "proba" and metric.response == "score":
        return damaged[:, 1]
    if kind == "proba" and metric.response == "label":
        return np.argmax(damaged, axis=1)
    return damaged


def damaged_scores(metric: Metric, stored: StoredResponses, level: float, rng) -> np.ndarray:
    """Per-split scores (n_folds,) of the stored responses after damage at ``level``
    (drawn from ``rng``; level 0 draws nothing and scores the responses as they are)."""
    kind = damage_kind(metric)
    resp = (stored.response if level == 0 else
            _damage(kind, stored.response, level, stored.n_classes, rng))
    return batch_fold_scores(metric, stored.y, _metric_response(metric, kind, resp),
                             stored.fold, stored.n_folds, stored.n_classes)


def solve_level(metric: Metric, stored: StoredResponses, target: float, seed, *,
                label: str = "the learner") -> float:
    """The damage level whose mean per-split score is ``target``.

    Parameters
    ----------
    metric : Metric
    stored : StoredResponses
    target : float
        The mean (over splits) score to reach, in the metric's greater-is-better units;
        at or below the undamaged mean (damage only lowers a score).
    seed : numpy.random.SeedSequence
        The stream of the calibration's noise (the same draws for every level tried).
    label : str
        The learner, for the messages.

    Returns
    -------
    float
        The rate, σ or s (:mod:`calibsim.learners._noise`); 0 when the target is the
        undamaged mean or above it by less than 1e-12.

    Raises
    ------
    ValueError
        If ``target`` is above the undamaged mean score (damage cannot raise it), or
        below what the damage can reach (a rate of (C − 1)/C, or noise of
        :data:`MAX_NOISE`), naming both numbers.
    """
    def mean_at(level):
        return float(damaged_scores(metric, stored, level,
                                    np.random.default_rng(seed)).mean())

    top = mean_at(0.0)
    if target >= top - 1e-12:
        if target > top + 1e-12:
            raise ValueError(f"{label}'s mean {metric.title} "
                             f"({metric.value_text(top)}) is below the target "
                             f"{metric.value_text(target)}; damage only lowers a "
                             "learner's score (damage the better learner).")
        return 0.0
    kind = damage_kind(metric)
    if kind == "values" and metric.name == "neg_mean_squared_error":
        return float(np.sqrt(top - target))           # E[MSE] rises by exactly s²
    if kind == "labels":
        hi = (stored.n_classes - 1) / stored.n_classes
    else:
        scale = 1.0 if kind == "proba" else float(np.std(stored.y)) or 1.0
        hi = scale
        while mean_at(hi) > target and hi < MAX_NOISE * scale:
            hi *= 4.0
    floor = mean_at(hi)
    if floor > target:
        raise ValueError(f"the target {metric.title} {metric.value_text(target)} cannot be "
                         f"reached: damage takes {label} no lower than "
                         f"{metric.value_text(floor)} (chance, for a ranking or a class), "
                         f"from {metric.value_text(top)}.")
    lo = 0.0
    for _ in range(BISECTION_STEPS):
        mid = 0.5 * (lo + hi)
        if mean_at(mid) > target:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)
