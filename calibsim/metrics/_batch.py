"""A metric's score on many test sets at once, vectorised: the hot loop of the damage calibration.

:func:`batch_fold_scores` gives, for every fold of a flat array of test positions, what
:func:`~._compute.fold_score` (scikit-learn) gives for that fold alone, to rounding
(tested to 1e-12 against it): the damage of :func:`calibsim.calibrate_damage` is solved by
bisection, each step scoring thousands of folds, where one scikit-learn call per fold
would cost seconds. The formulas are scikit-learn's:

- a per-instance loss: the mean of :func:`~._compute.instance_scores` over the fold;
- the metrics of predicted classes from each fold's confusion matrix: balanced accuracy
  (the mean recall of the classes in the fold's test set), F1 of class 1 and the macro
  F1 over the classes predicted or present (0 where undefined), the Matthews
  correlation (0 where a margin is constant);
- ROC AUC from the Mann-Whitney statistic with mid-ranks for ties (equal to the
  trapezoidal area under the ROC curve); one vs rest: the mean over the classes;
- average precision as scikit-learn's step sum Σ (R_k − R_{k−1}) P_k over the distinct
  scores in decreasing order;
- r² = 1 − SS_res / SS_tot per fold (1 where both are 0, 0 where only SS_tot is).
"""

from __future__ import annotations

import numpy as np

from ._compute import instance_scores
from ._registry import Metric

__all__ = ["batch_fold_scores"]


def batch_fold_scores(metric: Metric, y, response, fold, n_folds: int, n_classes: int
                      ) -> np.ndarray:
    """Scores of ``n_folds`` test sets given as one flat array of test positions.

    Parameters
    ----------
    metric : Metric
    y : ndarray of shape (T,)
        True class code (int) or target (float) of each test position.
    response : ndarray of shape (T,) or (T, C)
        The learner's response there (:func:`~._compute.response_of`'s layout).
    fold : ndarray of shape (T,), int
        The test set (0 .. n_folds - 1) each position belongs to; every fold non-empty.
    n_folds : int
    n_classes : int

    Returns
    -------
    ndarray of shape (n_folds,), float64
        Each fold's greater-is-better score.

    Examples
    --------
    >>> import numpy as np
    >>> from calibsim.metrics import get_metric
    >>> y = np.array([0, 1, 0, 1, 1])
    >>> s = np.array([0.2, 0.9, 0.4, 0.3, 0.8])
    >>> batch_fold_scores(get_metric("roc_auc"), y, s, np.array([0, 0, 1, 1, 1]), 2, 2)
    array([1. , 0.5])
    """
    y = np.asarray(y)
    fold = np.asarray(fold, np.int64)
    counts = np.bincount(fold, minlength=n_folds).astype(np.float64)
    if metric.per_instance:
        v = instance_scores(metric, y, response, n_classes)
        return np.bincount(fold, weights=v, minlength=n_folds) / counts
    name = metric.name
    if metric.response == "label":
        cm = _confusion(y, np.asarray(response, np.int64), fold, n_folds, n_classes)
        return {"balanced_accuracy": _balanced_accuracy, "f1": _f1_binary,
                "f1_macro": _f1_macro, "matthews_corrcoef": _mcc}[name](cm)
    if name == "r2":
        return _r2(y.astype(np.float64), np.asarray(response, np.float64), fold, n_folds,
                   counts)
    if name == "average_precision":
        return _average_precision(y == 1, np.asarray(response, np.float64), fold, n_folds)
    r = np.asarray(response, np.float64)
    if name == "roc_auc" or (name == "roc_auc_ovr" and n_classes == 2):
        return _auc(y == 1, r if r.ndim == 1 else r[:, 1], fold, n_folds)
    if name == "roc_auc_ovr":
        return np.mean([_auc(y == c, r[:, c], fold, n_folds) for c in range(n_classes)],
                       axis=0)
    raise ValueError(f"`metric` {name!r} has no batched score.")     # pragma: no cover


def _confusion(y, pred, fold, n_folds, c):
    """(F, C, C) counts: true class by predicted class, per fold."""
    idx = (fold * c + y.astype(np.int64)) * c + pred
    return np.bincount(idx, minlength=n_folds * c * c).reshape(n_folds, c, c).astype(
        np.float64)


def _balanced_accuracy(cm):
    true = cm.sum(2)
    diag = np.diagonal(cm, axis1=1, axis2=2)
    with np.errstate(invalid="ignore", divide="ignore"):
        recall = diag / true
    present = true > 0
    return np.where(present, recall, 0.0).sum(1) / present.sum(1)


def _f1_of(cm):
    """(F, C) F1 of each class as the positive one (0 where 2tp + fp + fn = 0)."""
    tp = np.diagonal(cm, axis1=1, axis2=2)
    fp = cm.sum(1) - tp
    fn = cm.sum(2) - tp
    den = 2 * tp + fp + fn
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, 2 * tp / den, 0.0)


def _f1_binary(cm):
    return _f1_of(cm)[:, 1]


def _f1_macro(cm):
    used = (cm.sum(1) + cm.sum(2)) > 0          # classes predicted or present
    return np.where(used, _f1_of(cm), 0.0).sum(1) / used.sum(1)


def _mcc(cm):
    t = cm.sum(2)
    p = cm.sum(1)
    n = cm.sum((1, 2))
    correct = np.trace(cm, axis1=1, axis2=2)
    cov_tp = correct * n - (t * p).sum(1)
    cov_pp = n * n - (p * p).sum(1)
    cov_tt = n * n - (t * t).sum(1)
    den = cov_tt * cov_pp
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, cov_tp / np.sqrt(den), 0.0)


def _r2(y, pred, fold, n_folds, counts):
    mean = np.bincount(fold, weights=y, minlength=n_folds) / counts
    ss_res = np.bincount(fold, weights=(y - pred) ** 2, minlength=n_folds)
    ss_tot = np.bincount(fold, weights=(y - mean[fold]) ** 2, minlength=n_folds)
    with np.errstate(invalid="ignore", divide="ignore"):
        r2 = 1.0 - ss_res / ss_tot
    return np.where(ss_tot > 0, r2, np.where(ss_res == 0, 1.0, 0.0))


def _ties(fold_sorted, score_sorted):
    """Start and end (exclusive) of each position's run of equal scores in its fold,
    positions sorted by fold then score."""
    T = fold_sorted.size
    new = np.ones(T, bool)
    new[1:] = (fold_sorted[1:] != fold_sorted[:-1]) | (score_sorted[1:] != score_sorted[:-1])
    start = np.maximum.accumulate(np.where(new, np.arange(T), 0))
    end_new = np.ones(T, bool)
    end_new[:-1] = new[1:]
    end = np.minimum.accumulate(np.where(end_new, np.arange(1, T + 1), T)[::-1])[::-1]
    return start, end


def _auc(positive, score, fold, n_folds):
    """Mann-Whitney AUC per fold, mid-ranks for ties."""
    order = np.lexsort((score, fold))
    f, s, pos = fold[order], score[order], positive[order]
    start, end = _ties(f, s)
    first = np.searchsorted(f, np.arange(n_folds))           # each fold's first position
    midrank = (start + end - 1) / 2.0 - first[f] + 1.0        # 1-based within the fold
    n1 = np.bincount(f, weights=pos, minlength=n_folds)
    n0 = np.bincount(f, minlength=n_folds) - n1
    r1 = np.bincount(f, weights=np.where(pos, midrank, 0.0), minlength=n_folds)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (r1 - n1 * (n1 + 1) / 2.0) / (n1 * n0)


def _average_precision(positive, score, fold, n_folds):
    """scikit-learn's average precision per fold: Σ (R_k − R_{k−1}) P_k at each distinct
    score, scores decreasing."""
    order = np.lexsort((-score, fold))
    f, s, pos = fold[order], -score[order], positive[order].astype(np.float64)
    start, end = _ties(f, s)
    first = np.searchsorted(f, np.arange(n_folds))
    before = np.concatenate([[0.0], np.cumsum(pos)])          # positives before a position
    tp = before[end] - before[first[f]]                       # at the end of its tie run
    k = end - first[f]                                        # instances down to it
    n1 = np.bincount(f, weights=pos, minlength=n_folds)
    last = end == np.arange(1, f.size + 1)                    # one term per tie run
    prev_tp = before[start] - before[first[f]]
    terms = np.where(last, (tp - prev_tp) / n1[f] * (tp / k), 0.0)
    return np.bincount(f, weights=terms, minlength=n_folds)
