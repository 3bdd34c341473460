"""The metrics a comparison is made on: scikit-learn's scorer names, each declared once.

:data:`METRICS` maps each scorer name calibsim takes to its :class:`Metric` (per-instance
loss or per-fold statistic, task, response needed, range, units); :func:`get_metric`
resolves a name; :func:`fold_score` and :func:`instance_scores` compute a test set's score
and per-instance values from a learner's responses (:func:`response_of`), as
:mod:`sklearn.metrics` does.
"""

from ._compute import (check_learner_response, check_metric_task, check_test_classes,
                       fold_score, fold_scores, instance_scores, response_of)
from ._registry import FOLD, INSTANCE, METRICS, Metric, get_metric

__all__ = ["Metric", "METRICS", "get_metric", "INSTANCE", "FOLD", "response_of",
           "fold_score", "fold_scores", "instance_scores", "check_metric_task",
           "check_learner_response", "check_test_classes"]
