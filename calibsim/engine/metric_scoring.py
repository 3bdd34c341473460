"""Per-fold scores of any metric of :mod:`calibsim.metrics`, by fitting each learner on
every split: the general path :func:`calibsim.compare` takes with ``scoring=`` other than
accuracy (accuracy keeps the kernels of :mod:`calibsim.engine.learners`).

A split's fold score is the metric of :mod:`sklearn.metrics` on the learner's responses to
the test set, as scikit-learn's scorer of the same name computes it
(:func:`calibsim.metrics.fold_score`); a per-instance loss also gives each test instance's
value (:func:`calibsim.metrics.instance_scores`), for the tests on per-instance outcomes
(Bayle et al. 2020; Bates, Hastie & Tibshirani 2023).
"""
from __future__ import annotations

import numpy as np

from .learners import LearnerFailed, _fit_budget, _learner_warnings, _reraise_interrupt

__all__ = ["score_metric"]


def score_metric(X, y, masks, learners, *, metric, n_values, n_classes,
                 instances: bool = False, fast: bool = False):
    """Every learner's score of ``metric`` on every split.

    Parameters
    ----------
    X : ndarray or pandas.DataFrame of shape (n, a)
    y : ndarray of shape (n,)
        Class codes ``0 .. C - 1`` (int) or a regression target (float).
    masks : ndarray of bool, shape (*split, n)
        Test-set masks.
    learners : sequence of learners
        Each with ``make()`` (a fresh estimator) and ``label``; calibsim's own learners
        are told the attributes' arities and the declared classes, as Weka's header.
    metric : calibsim.metrics.Metric
    n_values : ndarray of int or None
        Attribute arities (calibsim's learners on nominal codes).
    n_classes : int
        C; 0 for regression.
    instances : bool, default False
        Also each test instance's greater-is-better value (a per-instance loss only).
    fast : bool, default False
        calibsim's learners on nominal codes, all with ``fast_path()``, and a metric of
        class probabilities or scores: the numba kernels give every test instance's
        probabilities in one call (:func:`calibsim.engine.learners.score_fast` with
        ``return_proba``), bit for bit the estimators' ``predict_proba``, so the scores
        are those of the fitted estimators.

    Returns
    -------
    scores : ndarray of shape (L, *split), float64
        Greater-is-better fold scores (losses negated, as scikit-learn's scorers).
    values : ndarray of shape (L, *split, n), float64, or None
        With ``instances``: each instance's value on the splits that test it, 0
        elsewhere.

    Raises
    ------
    calibsim.engine.learners.LearnerFailed
        Naming the learner whose fit or prediction failed, and why.
    """
    from ..metrics import fold_score, instance_scores, response_of
    frame = hasattr(X, "iloc")
    X = X if frame else np.asarray(X)
    y = np.asarray(y)
    split = masks.shape[:-1]
    flat = masks.reshape(-1, masks.shape[-1])
    L, S, n = len(learners), flat.shape[0], len(y)
    scores = np.empty((L, S))
    values = np.zeros((L, S, n)) if instances else None
    regression = metric.task == "regression"
    if fast:
        return _score_from_kernel_proba(X, y, masks, learners, metric, n_values, n_classes,
                                        values)
    for s in range(S):
        te = flat[s]
        tr_idx, te_idx = np.flatnonzero(~te), np.flatnonzero(te)
        Xtr, Xte = (X.iloc[tr_idx], X.iloc[te_idx]) if frame else (X[~te], X[te])
        ytr, yte = y[~te], y[te]
        for i, lrn in enumerate(learners):
            est = lrn.make()
            try:
                with _fit_budget(), _learner_warnings(lrn.label):
                    if not regression and getattr(lrn, "takes_declared",
                                                      lrn.is_builtin and not lrn.pipeline):
                        est.fit(Xtr, ytr, n_values=n_values, classes=np.arange(n_classes))
                    else:
                        est.fit(Xtr, ytr)
                    response = response_of(est, Xte, metric, n_classes)
            except Warning:                # a warning turned error by the caller's filter
                raise
            except Exception as exc:       # any estimator's failure, said with its name
                _reraise_interrupt(exc)
                raise LearnerFailed(lrn.label, exc) from exc
            scores[i, s] = fold_score(metric, yte, response, n_classes)
            if values is not None:
                values[i, s, te] = instance_scores(metric, yte, response, n_classes)
    return (scores.reshape((L,) + split),
            None if values is None else values.reshape((L,) + split + (n,)))


def _score_from_kernel_proba(X, y, masks, learners, metric, n_values, n_classes, values):
    """:func:`score_metric` from the kernels' class probabilities (``fast``)."""
    from ..metrics import fold_score, instance_scores
    from .learners import score_fast
    if metric.response not in ("proba", "score"):
        raise ValueError(f"the kernels' probabilities cannot score {metric.name!r}, which "
                         "needs predicted classes.")               # pragma: no cover
    try:
        proba = score_fast(X, y, masks, learners, n_values=n_values, n_classes=n_classes,
                           return_proba=True)["proba"]
    except Exception as exc:
        _reraise_interrupt(exc)
        raise LearnerFailed(", ".join(lrn.label for lrn in learners), exc) from exc
    split = masks.shape[:-1]
    flat = masks.reshape(-1, masks.shape[-1])
    L, S, n = len(learners), flat.shape[0], len(y)
    proba = proba.reshape((L, S, n, n_classes))
    scores = np.empty((L, S))
    for s in range(S):
        te = flat[s]
        for i in range(L):
            p = proba[i, s][te]
            response = p[:, 1] if metric.response == "score" else p
            scores[i, s] = fold_score(metric, y[te], response, n_classes)
            if values is not None:
                values[i, s, te] = instance_scores(metric, y[te], response, n_classes)
    return (scores.reshape((L,) + split),
            None if values is None else values.reshape((L,) + split + (n,)))
