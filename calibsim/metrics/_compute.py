"""A metric's score of one test set, and its per-instance values, from a learner's responses.

The per-fold values come from :mod:`sklearn.metrics`, called as scikit-learn's scorers call
them (the same ``pos_label``, ``average`` and ``multi_class``), so a fold's score equals
``sklearn.metrics.get_scorer(name)(fitted_estimator, X_test, y_test)``. Class labels are
calibsim's class codes ``0 .. C - 1`` (the sorted labels, or an ARFF file's declared order),
so the positive class of a binary metric is code 1: scikit-learn's ``pos_label`` for
integer labels, the greater one.

A per-instance loss also has one value per test instance (:func:`instance_scores`), the
greater-is-better contribution whose mean over a test set is the fold's score: 1 for a
correct class and 0 for a wrong one (accuracy), ``log p(y)`` with scikit-learn's clipping of
p to [eps, 1 - eps] (the negated log loss; with two classes p is the positive class's
probability p1 and 1 - p1, as scikit-learn's scorers pass it), minus the squared distance of the probability
vector from the class's indicator (halved for two classes, as scikit-learn's Brier score),
``-(y - ŷ)²`` and ``-|y - ŷ|``.
"""

from __future__ import annotations

import warnings

import numpy as np

from ._registry import Metric, get_metric

__all__ = ["response_of", "fold_score", "instance_scores", "check_metric_task",
           "check_learner_response", "check_test_classes", "fold_scores"]


def check_metric_task(scoring, task: str, n_classes: int = 2, *, name: str = "scoring"
                      ) -> Metric:
    """The metric of ``scoring``, refused in one line if it does not fit the task.

    Parameters
    ----------
    scoring : str or Metric
    task : {"classification", "regression"}
        The data's task: a numeric target is a regression task.
    n_classes : int, default 2
        Classes of a classification task.
    name : str, default "scoring"
        The parameter's name in the message.

    Returns
    -------
    Metric

    Raises
    ------
    ValueError
        A classification metric on a regression task or the reverse, or a two-class
        metric on more classes (naming the metrics that fit).

    Examples
    --------
    >>> check_metric_task("roc_auc", "classification", 3)
    Traceback (most recent call last):
    ...
    ValueError: `scoring` 'roc_auc' is defined for two classes; the data have 3 classes: use 'roc_auc_ovr' (one vs rest, macro average).
    """
    metric = get_metric(scoring, name=name)
    if metric.task != task:
        fits = [m for m, v in _metrics().items() if v.task == task]
        what = ("the target is numeric (a regression task)" if task == "regression"
                else "the target holds classes (a classification task)")
        raise ValueError(f"`{name}` {metric.name!r} is a {metric.task} metric; {what}: use "
                         f"one of {', '.join(fits)}.")
    if metric.binary and n_classes != 2:
        instead = {"roc_auc": "'roc_auc_ovr' (one vs rest, macro average)",
                   "f1": "'f1_macro'"}.get(metric.name, "a multiclass metric such as "
                                                         "'f1_macro' or 'roc_auc_ovr'")
        raise ValueError(f"`{name}` {metric.name!r} is defined for two classes; the data "
                         f"have {n_classes} classes: use {instead}.")
    return metric


def _metrics():
    from ._registry import METRICS
    return METRICS


def check_learner_response(metric: Metric, estimator, label: str) -> None:
    """Refuse, before any fit, a learner that cannot give what ``metric`` needs.

    Raises
    ------
    ValueError
        For a probability metric (``neg_log_loss``, ``neg_brier_score``,
        ``roc_auc_ovr``) with a learner without ``predict_proba``, or a score metric
        (``roc_auc``, ``average_precision``) with one that has neither
        ``decision_function`` nor ``predict_proba``.
    """
    if metric.response == "proba" and not hasattr(estimator, "predict_proba"):
        raise ValueError(f"learner {label!r} has no predict_proba, which `scoring` "
                         f"{metric.name!r} needs (class probabilities); give a learner "
                         "that has it (e.g. SVC(probability=True), or wrap it in "
                         "CalibratedClassifierCV).")
    if metric.response == "score" and not (hasattr(estimator, "decision_function")
                                           or hasattr(estimator, "predict_proba")):
        raise ValueError(f"learner {label!r} has neither decision_function nor "
                         f"predict_proba, one of which `scoring` {metric.name!r} needs "
                         "(a score of the positive class).")


def check_test_classes(metric: Metric, y, masks, n_classes: int, design: str = "") -> None:
    """Refuse, before any fit, a design with a test set where ``metric`` is undefined.

    ROC AUC and average precision need both classes (every class, for one vs rest) in
    every test set; a stratified design gives them whenever every class has at least as
    many instances as there are folds.

    Parameters
    ----------
    metric : Metric
    y : ndarray of shape (n,), int
        Class codes.
    masks : ndarray of bool, shape (..., n)
        Test masks of every split.
    n_classes : int
    design : str
        The design's name, for the message.

    Raises
    ------
    ValueError
        Naming the first such split, the classes it holds and what would fix it.
    """
    if metric.name not in ("roc_auc", "roc_auc_ovr", "average_precision"):
        return
    flat = np.asarray(masks, bool).reshape(-1, np.shape(y)[0])
    y = np.asarray(y)
    counts = np.stack([(flat & (y == c)[None]).sum(1) for c in range(n_classes)], 1)
    bad = np.flatnonzero((counts == 0).any(1))
    if bad.size:
        s = int(bad[0])
        absent = [c for c in range(n_classes) if counts[s, c] == 0]
        raise ValueError(f"`scoring` {metric.name!r} is undefined on split {s} of the design "
                         f"{design!r}: its test set holds no instance of class code(s) "
                         f"{absent} ({int(bad.size)} of {flat.shape[0]} splits are so); use "
                         "fewer folds, a larger test share, or a per-instance metric.")


def response_of(estimator, X, metric: Metric, n_classes: int) -> np.ndarray:
    """What a fitted learner gives ``metric`` on ``X``, in calibsim's class codes.

    Parameters
    ----------
    estimator : fitted estimator
        Fitted on class codes 0 .. C - 1 (its ``classes_`` may lack a class that was
        absent from its training set).
    X : array_like of shape (n, a)
    metric : Metric
    n_classes : int
        C (0 for regression).

    Returns
    -------
    ndarray
        ``label``: (n,) int64 predicted codes; ``score``: (n,) float, the
        ``decision_function`` where the learner has one, else the probability of class
        code 1 (as scikit-learn's ``roc_auc`` scorer); ``proba``: (n, C) float, columns
        the class codes (0 for a class the learner never saw); ``value``: (n,) float.
    """
    if metric.response in ("label", "value"):
        out = np.asarray(estimator.predict(X))
        return out.astype(np.float64 if metric.response == "value" else np.int64)
    classes = np.asarray(getattr(estimator, "classes_", np.arange(n_classes))).astype(np.int64)
    if metric.response == "score" and hasattr(estimator, "decision_function"):
        d = np.asarray(estimator.decision_function(X), dtype=np.float64)
        if d.ndim == 1:
            # one column: the score of classes_[1]; a learner that saw one class only
            # ranks nothing
            return d if classes.size == 2 and classes[1] == 1 else np.zeros(d.shape[0])
        return d[:, list(classes).index(1)] if 1 in classes else np.zeros(d.shape[0])
    p = np.asarray(estimator.predict_proba(X), dtype=np.float64)
    full = np.zeros((p.shape[0], n_classes))
    full[:, classes] = p
    return full[:, 1] if metric.response == "score" else full


def fold_score(metric: Metric, y, response, n_classes: int) -> float:
    """The metric's (greater-is-better) score of one test set, by :mod:`sklearn.metrics`.

    Parameters
    ----------
    metric : Metric
    y : ndarray of shape (n,)
        Class codes (int) or the target (float).
    response : ndarray
        As :func:`response_of` returns it.
    n_classes : int

    Returns
    -------
    float
        As ``sklearn.metrics.get_scorer(metric.name)`` gives for the same predictions:
        F1's and the macro F1's zero-division cases are 0 (scikit-learn's value, here
        without its warning); balanced accuracy averages the recall of the classes in
        the test set (scikit-learn's rule).

    Examples
    --------
    >>> import numpy as np
    >>> from calibsim.metrics import get_metric
    >>> y = np.array([0, 0, 1, 1])
    >>> fold_score(get_metric("roc_auc"), y, np.array([0.1, 0.4, 0.35, 0.8]), 2)
    0.75
    >>> round(fold_score(get_metric("neg_log_loss"), y,
    ...                  np.array([[.9, .1], [.6, .4], [.3, .7], [.2, .8]]), 2), 6)
    -0.299001
    """
    from sklearn import metrics as skm
    y = np.asarray(y)
    name = metric.name
    labels = list(range(n_classes))
    if name == "accuracy":
        return float(skm.accuracy_score(y, response))
    if name == "balanced_accuracy":
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="y_pred contains classes not in y_true")
            return float(skm.balanced_accuracy_score(y, response))
    if name == "roc_auc":
        return float(skm.roc_auc_score(y, response))
    if name == "roc_auc_ovr":
        if n_classes == 2:
            return float(skm.roc_auc_score(y, response[:, 1]))
        return float(skm.roc_auc_score(y, response, multi_class="ovr", labels=labels))
    if name == "average_precision":
        return float(skm.average_precision_score(y, response, pos_label=1))
    if name == "f1":
        return float(skm.f1_score(y, response, average="binary", pos_label=1,
                                  zero_division=0.0))
    if name == "f1_macro":
        return float(skm.f1_score(y, response, average="macro", zero_division=0.0))
    if name == "matthews_corrcoef":
        return float(skm.matthews_corrcoef(y, response))
    if name == "neg_log_loss":
        if n_classes == 2:          # as the scorer: the positive column, 1 - p beside it
            return -float(skm.log_loss(y, response[:, 1], labels=labels))
        return -float(skm.log_loss(y, response, labels=labels))
    if name == "neg_brier_score":
        if n_classes == 2:
            return -float(skm.brier_score_loss(y, response[:, 1], pos_label=1))
        return -float(skm.brier_score_loss(y, response, labels=labels))
    if name == "neg_mean_squared_error":
        return -float(skm.mean_squared_error(y, response))
    if name == "neg_mean_absolute_error":
        return -float(skm.mean_absolute_error(y, response))
    if name == "r2":
        return float(skm.r2_score(y, response))
    raise ValueError(f"`metric` {name!r} has no fold score.")      # pragma: no cover


def instance_scores(metric: Metric, y, response, n_classes: int) -> np.ndarray:
    """Each test instance's greater-is-better value of a per-instance loss (module
    docstring): shape (n,), float64, its mean the fold's :func:`fold_score`.

    Raises
    ------
    ValueError
        If ``metric`` is a per-fold statistic (it has no per-instance values).

    Examples
    --------
    >>> import numpy as np
    >>> from calibsim.metrics import get_metric
    >>> instance_scores(get_metric("neg_mean_absolute_error"), np.array([1.0, 3.0]),
    ...                 np.array([2.0, 2.5]), 0)
    array([-1. , -0.5])
    """
    y = np.asarray(y)
    if not metric.per_instance:
        raise ValueError(f"`scoring` {metric.name!r} is a per-fold statistic: it has no "
                         "per-instance values (the tests on per-instance outcomes take "
                         "accuracy, neg_log_loss, neg_brier_score, neg_mean_squared_error "
                         "or neg_mean_absolute_error).")
    name = metric.name
    if name == "accuracy":
        return (np.asarray(response) == y).astype(np.float64)
    if name in ("neg_log_loss", "neg_brier_score"):
        p = np.asarray(response, dtype=np.float64)
        rows = np.arange(y.shape[0])
        if n_classes == 2:          # as the scorers: the positive column, 1 - p beside it
            p = np.stack([1.0 - p[:, 1], p[:, 1]], axis=1)
        if name == "neg_log_loss":
            eps = np.finfo(np.float64).eps
            return np.log(np.clip(p[rows, y.astype(np.int64)], eps, 1 - eps))
        onehot = np.zeros_like(p)
        onehot[rows, y.astype(np.int64)] = 1.0
        half = 0.5 if n_classes <= 2 else 1.0
        return -half * ((onehot - p) ** 2).sum(axis=1)
    r = np.asarray(response, dtype=np.float64) - y.astype(np.float64)
    return -(r * r) if name == "neg_mean_squared_error" else -np.abs(r)


def fold_scores(metric: Metric, y, responses, masks, n_classes: int) -> np.ndarray:
    """:func:`fold_score` of every split: ``responses`` (S, n, ...) hold each split's
    responses for all n instances (only the test ones, ``masks`` (S, n), are read);
    returns (S,) float64."""
    masks = np.asarray(masks, bool)
    return np.array([fold_score(metric, np.asarray(y)[m], np.asarray(r)[m], n_classes)
                     for r, m in zip(responses, masks)], dtype=np.float64)
