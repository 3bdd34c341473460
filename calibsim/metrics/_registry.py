"""The metrics a comparison can be made on: scikit-learn's scorer names, each declared once.

A metric is what one learner's predictions on one test set are summarised into. calibsim
takes scikit-learn's scorer names, as :func:`sklearn.model_selection.cross_validate`
does, and with their sign: every score is *greater-is-better* (the losses are negated:
``neg_log_loss``, ``neg_mean_squared_error``), so a difference A − B > 0 always means A
did better.

Each metric declares

- its **kind**: a *per-instance loss* (``"instance"``: the fold's score is the mean of one
  value per test instance — 0-1 loss, log loss, Brier score, squared and absolute error)
  or a *per-fold statistic* (``"fold"``: AUC, average precision, F1, the Matthews
  correlation, balanced accuracy, r², which are not a mean over instances). The tests on
  per-instance outcomes (Bayle et al. 2020's cv CLT, Bates, Hastie & Tibshirani 2023's
  nested cv, the bootstrap of the cv estimate) take only per-instance losses; per-fold
  statistics are averaged over folds, never pooled (an AUC pooled over folds is biased
  under a null: Parker 2007, Forman & Scholz 2010);
- its **task** (classification or regression) and whether it is defined for two classes
  only;
- the **response** it needs of a learner: the predicted class (``predict``), a score of
  the positive class (``decision_function`` where the learner has one, else the positive
  column of ``predict_proba``: as scikit-learn's ``roc_auc`` and ``average_precision``
  scorers), the class probabilities (``predict_proba``), or a predicted value
  (regression ``predict``);
- its **range** (of the greater-is-better score) and its **units** in reports.

References
----------
.. [1] Pedregosa, F. et al. (2011). Scikit-learn: machine learning in Python. JMLR 12,
       2825-2830; the scorer names are those of ``sklearn.metrics.get_scorer_names()``.
.. [2] Parker, B. J. et al. (2007). Stratification bias in low signal microarray studies.
       BMC Bioinformatics 8, 326 (AUC pooled across folds).
.. [3] Forman, G. & Scholz, M. (2010). Apples-to-apples in cross-validation studies:
       pitfalls in classifier performance measurement. SIGKDD Explorations 12(1), 49-57.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass

__all__ = ["Metric", "METRICS", "get_metric", "INSTANCE", "FOLD"]

#: A per-instance loss: the fold's score is the mean of one value per test instance.
INSTANCE = "instance"
#: A per-fold statistic: computed from the whole test set, not a mean over instances.
FOLD = "fold"

_INF = math.inf


@dataclass(frozen=True)
class Metric:
    """One metric: how a fold's score is made, what it needs and how it is reported.

    Attributes
    ----------
    name : str
        scikit-learn's scorer name (``"roc_auc"``, ``"neg_log_loss"``).
    title : str
        The measured quantity in words, as reports print it (``"ROC AUC"``,
        ``"log loss"``); for a negated loss, the loss (not its negation).
    kind : {"instance", "fold"}
        A per-instance loss or a per-fold statistic (module docstring).
    task : {"classification", "regression"}
    binary : bool
        Defined for two classes only (``roc_auc``, ``average_precision``, ``f1``).
    response : {"label", "score", "proba", "value"}
        What a learner must give on a test set: the predicted class, a score of the
        positive class (``decision_function``, else ``predict_proba[:, 1]``), the class
        probabilities, or a predicted value.
    sign : {1, -1}
        ``-1`` for scikit-learn's negated losses: the score is minus the quantity
        ``title`` names, so that greater is better; ``display`` undoes it.
    low, high : float
        Range of the (greater-is-better) score; ``-inf`` where unbounded.
    scale : float
        Reports multiply values and differences by it (100: "points", as accuracy's
        percentage points; 1: the metric's own units).
    unit : str
        Units of a reported difference (``"points"``, ``"points of AUC"``,
        ``"nats"``, ``"in the target's units squared"``).
    value_format : str
        How one value prints after ``display`` and ``scale`` (``"{:.2f}%"``,
        ``"{:.4f}"``).
    """

    name: str
    title: str
    kind: str
    task: str
    binary: bool
    response: str
    sign: int
    low: float
    high: float
    scale: float
    unit: str
    value_format: str

    @property
    def per_instance(self) -> bool:
        """True for a per-instance loss (the tests on per-instance outcomes take it)."""
        return self.kind == INSTANCE

    @property
    def greater_is_better(self) -> bool:
        """Of the quantity ``title`` names (the score itself is always greater-is-better)."""
        return self.sign > 0

    @property
    def needs(self) -> str:
        """The learner's method the response comes from, in words."""
        return {"label": "predict", "value": "predict", "proba": "predict_proba",
                "score": "decision_function or predict_proba"}[self.response]

    def display(self, score: float) -> float:
        """The quantity ``title`` names, from a score (a loss is shown positive)."""
        return self.sign * score

    def value_text(self, score: float) -> str:
        """One score as a report prints it (``"81.23%"`` for accuracy 0.8123,
        ``"0.2311"`` for a log loss of 0.2311 given as the score -0.2311)."""
        return self.value_format.format(self.scale * self.display(score))

    def difference_text(self, difference: float, decimals: int = 2) -> str:
        """A difference of scores A − B in report units, e.g. ``"+1.23 points"``; for a
        loss the difference of the losses A − B (minus the scores' difference)."""
        v = self.scale * self.display(difference)
        return f"{v:+.{decimals}f} {self.unit}".rstrip()

    def direction_text(self) -> str:
        """``"higher is better"`` or ``"lower is better"`` (of ``title``)."""
        return "higher is better" if self.greater_is_better else "lower is better"

    def describe(self) -> str:
        """One line naming the metric, its kind, direction and units.

        Examples
        --------
        >>> print(get_metric("roc_auc").describe())
        ROC AUC (roc_auc): a per-fold statistic, averaged over folds (never pooled); higher is better; differences in points of AUC
        """
        kind = ("a per-instance loss (the fold's score is the mean over its test instances)"
                if self.per_instance else
                "a per-fold statistic, averaged over folds (never pooled)")
        return (f"{self.title} ({self.name}): {kind}; {self.direction_text()}; "
                f"differences in {self.unit}")


def _m(name, title, kind, task, response, *, binary=False, sign=1, low=0.0, high=1.0,
       scale=1.0, unit="", value_format="{:.4f}"):
    return Metric(name, title, kind, task, binary, response, sign, low, high, scale, unit,
                  value_format)


_C, _R = "classification", "regression"
#: Every metric calibsim compares by, keyed by scikit-learn's scorer name.
METRICS = {m.name: m for m in (
    _m("accuracy", "accuracy", INSTANCE, _C, "label", scale=100.0, unit="points",
       value_format="{:.2f}%"),
    _m("balanced_accuracy", "balanced accuracy", FOLD, _C, "label", scale=100.0,
       unit="points of balanced accuracy", value_format="{:.2f}%"),
    _m("roc_auc", "ROC AUC", FOLD, _C, "score", binary=True, scale=100.0,
       unit="points of AUC", value_format="{:.2f}"),
    _m("roc_auc_ovr", "ROC AUC (one vs rest, macro)", FOLD, _C, "proba", scale=100.0,
       unit="points of AUC", value_format="{:.2f}"),
    _m("average_precision", "average precision", FOLD, _C, "score", binary=True,
       scale=100.0, unit="points of average precision", value_format="{:.2f}"),
    _m("f1", "F1 (positive class)", FOLD, _C, "label", binary=True, scale=100.0,
       unit="points of F1", value_format="{:.2f}"),
    _m("f1_macro", "F1 (macro average)", FOLD, _C, "label", scale=100.0,
       unit="points of macro F1", value_format="{:.2f}"),
    _m("matthews_corrcoef", "Matthews correlation", FOLD, _C, "label", low=-1.0,
       scale=100.0, unit="points of MCC", value_format="{:.2f}"),
    _m("neg_log_loss", "log loss", INSTANCE, _C, "proba", sign=-1, low=-_INF, high=0.0,
       unit="nats", value_format="{:.4f}"),
    _m("neg_brier_score", "Brier score", INSTANCE, _C, "proba", sign=-1, low=-2.0,
       high=0.0, unit="(Brier score)", value_format="{:.4f}"),
    _m("neg_mean_squared_error", "mean squared error", INSTANCE, _R, "value", sign=-1,
       low=-_INF, high=0.0, unit="in the target's units squared", value_format="{:.6g}"),
    _m("neg_mean_absolute_error", "mean absolute error", INSTANCE, _R, "value", sign=-1,
       low=-_INF, high=0.0, unit="in the target's units", value_format="{:.6g}"),
    _m("r2", "r²", FOLD, _R, "value", low=-_INF, high=1.0, unit="(r²)",
       value_format="{:.4f}"),
)}


def get_metric(scoring="accuracy", *, name: str = "scoring") -> Metric:
    """The :class:`Metric` of a scikit-learn scorer name (or a Metric, returned as is).

    Parameters
    ----------
    scoring : str or Metric, default "accuracy"
        One of :data:`METRICS`: ``accuracy``, ``balanced_accuracy``, ``roc_auc``,
        ``roc_auc_ovr``, ``average_precision``, ``f1``, ``f1_macro``,
        ``matthews_corrcoef``, ``neg_log_loss``, ``neg_brier_score``,
        ``neg_mean_squared_error``, ``neg_mean_absolute_error``, ``r2``.
    name : str, default "scoring"
        The parameter's name in error messages (``"--scoring"`` from the command line).

    Returns
    -------
    Metric

    Raises
    ------
    ValueError
        If ``scoring`` is not a string naming one of them: a name scikit-learn knows
        but calibsim does not take, a loss without scikit-learn's ``neg_`` (the
        message names the scorer), or an unknown name (with the nearest names).

    Examples
    --------
    >>> m = get_metric("neg_log_loss")
    >>> m.kind, m.response, m.title, m.display(-0.25)
    ('instance', 'proba', 'log loss', 0.25)
    >>> get_metric("log_loss")
    Traceback (most recent call last):
    ...
    ValueError: `scoring` must be a scikit-learn scorer name calibsim takes; got 'log_loss' (scikit-learn's scorers are greater-is-better: use 'neg_log_loss', the negated loss).
    """
    if isinstance(scoring, Metric):
        return scoring
    if not isinstance(scoring, str) or not scoring.strip():
        raise ValueError(f"`{name}` must be a scikit-learn scorer name such as 'accuracy', "
                         f"'roc_auc' or 'neg_mean_squared_error'; got {scoring!r}.")
    text = scoring.strip()
    if text in METRICS:
        return METRICS[text]
    head = f"`{name}` must be a scikit-learn scorer name calibsim takes; got {scoring!r}"
    if f"neg_{text}" in METRICS:
        raise ValueError(f"{head} (scikit-learn's scorers are greater-is-better: use "
                         f"'neg_{text}', the negated loss).")
    alias = {"auc": "roc_auc", "brier_score": "neg_brier_score", "brier": "neg_brier_score",
             "mse": "neg_mean_squared_error", "mae": "neg_mean_absolute_error",
             "mcc": "matthews_corrcoef"}.get(text.lower())
    if alias:
        raise ValueError(f"{head} (did you mean {alias!r}?).")
    from sklearn.metrics import get_scorer_names
    if text in get_scorer_names():
        raise ValueError(f"{head}: scikit-learn knows {text!r}, but calibsim compares by "
                         f"{', '.join(METRICS)} only.")
    near = difflib.get_close_matches(text, list(METRICS), n=2, cutoff=0.6)
    hint = f" (did you mean {' or '.join(map(repr, near))}?)" if near else ""
    raise ValueError(f"{head}: scikit-learn has no scorer of that name{hint}; calibsim takes "
                     f"{', '.join(METRICS)}.")
