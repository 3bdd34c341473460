"""Effect sizes with a magnitude label: Cohen's d and Cliff's δ.

A p-value says whether a difference is there; an effect size says how large it is, in
units of the spread. The labels (negligible, small, medium, large) use the thresholds of
the measure's source: Cohen (1988) for d, 0.2 / 0.5 / 0.8; Romano et al. (2006) for
Cliff's δ, 0.147 / 0.33 / 0.474. Over several data sets, :func:`effect_sizes_vs_best`
compares every learner with the best one as autorank does (Herbold 2020): Cohen's d when
a Shapiro-Wilk test finds every learner's scores normal, Cliff's δ otherwise.

References
----------
.. [1] Cohen, J. (1988). Statistical Power Analysis for the Behavioral Sciences (2nd ed.),
       §2.2. Lawrence Erlbaum.
.. [2] Romano, J., Kromrey, J. D., Coraggio, J. & Skowronek, J. (2006). Appropriate
       statistics for ordinal level data: should we really be using t-test and Cohen's d
       for evaluating group differences on the NSSE and other surveys? Annual meeting of
       the Florida Association of Institutional Research.
.. [3] Cliff, N. (1993). Dominance statistics: ordinal analyses to answer ordinal
       questions. Psychological Bulletin 114(3), 494-509.
.. [4] Herbold, S. (2020). Autorank: a Python package for automated ranking of
       classifiers. Journal of Open Source Software 5(48), 2173.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from .._validation import check_choice, check_finite_array, check_probability

__all__ = ["EFFECT_SIZE_THRESHOLDS", "EffectSizes", "cliffs_delta", "cohens_d",
           "effect_size_magnitude", "effect_sizes_vs_best"]

#: measure -> (thresholds of small, medium, large on |value|, their source).
EFFECT_SIZE_THRESHOLDS = {
    "cohen_d": ((0.2, 0.5, 0.8), "Cohen 1988"),
    "cliff_delta": ((0.147, 0.33, 0.474), "Romano et al. 2006"),
}
_NAMES = {"cohen_d": "Cohen's d", "cliff_delta": "Cliff's δ"}


def effect_size_magnitude(value, measure: str = "cohen_d"):
    """The magnitude label of an effect size: "negligible", "small", "medium" or "large".

    Parameters
    ----------
    value : float or array_like
        The effect size; its sign is ignored (``|d| < 0.2`` is negligible, and so on).
    measure : {"cohen_d", "cliff_delta"}, default "cohen_d"
        Cohen's d (any standardised mean difference, paired d included; Cohen 1988:
        0.2, 0.5, 0.8) or Cliff's δ (Romano et al. 2006: 0.147, 0.33, 0.474).

    Returns
    -------
    str or ndarray of str
        One label per value; "" for NaN (no effect size).

    Examples
    --------
    >>> from calibsim.stats import effect_size_magnitude
    >>> effect_size_magnitude([0.1, -0.3, 0.5, 2.0])
    array(['negligible', 'small', 'medium', 'large'], dtype='<U10')
    >>> effect_size_magnitude(0.3, "cliff_delta")
    'small'
    """
    measure = check_choice("measure", measure, set(EFFECT_SIZE_THRESHOLDS))
    (small, medium, large), _ = EFFECT_SIZE_THRESHOLDS[measure]
    v = np.abs(np.asarray(value, dtype=float))
    labels = np.array(["negligible", "small", "medium", "large"])
    out = labels[np.searchsorted([small, medium, large], v, side="right")]
    out = np.where(np.isnan(v), "", out)
    return str(out) if out.ndim == 0 else out


def cohens_d(x, y) -> float:
    """Cohen's d of two samples: the difference of means over the pooled SD.

    ``(mean(x) - mean(y)) / s_p`` with ``s_p² = ((n_x-1) s_x² + (n_y-1) s_y²) /
    (n_x + n_y - 2)`` (Cohen 1988, §2.2; the form autorank uses). Identical constant
    samples give 0; different constant samples give ±inf.

    Examples
    --------
    >>> from calibsim.stats import cohens_d
    >>> round(cohens_d([0.90, 0.85, 0.80], [0.80, 0.75, 0.70]), 3)
    2.0
    """
    x = check_finite_array("x", x, min_ndim=1)
    y = check_finite_array("y", y, min_ndim=1)
    if x.size + y.size < 3:
        raise ValueError(f"`x` and `y` need at least 3 values together; got {x.size} and "
                         f"{y.size}.")
    diff = float(x.mean() - y.mean())
    pooled = ((x.size - 1) * (x.var(ddof=1) if x.size > 1 else 0.0)
              + (y.size - 1) * (y.var(ddof=1) if y.size > 1 else 0.0)) / (x.size + y.size - 2)
    if pooled > 0:
        return diff / float(np.sqrt(pooled))
    return 0.0 if diff == 0 else float(np.sign(diff) * np.inf)


def cliffs_delta(x, y) -> float:
    """Cliff's δ: P(X > Y) - P(X < Y) over all pairs of a value of x and a value of y.

    In [-1, 1]; it assumes nothing about the distributions (Cliff 1993).

    Examples
    --------
    >>> from calibsim.stats import cliffs_delta
    >>> cliffs_delta([3, 4, 5], [1, 2, 3])       # 8 pairs of 9 favour x, 1 ties
    0.8888888888888888
    """
    x = check_finite_array("x", x, min_ndim=1).ravel()
    y = check_finite_array("y", y, min_ndim=1).ravel()
    if x.size == 0 or y.size == 0:
        raise ValueError(f"`x` and `y` must not be empty; got {x.size} and {y.size} values.")
    return float(np.sign(x[:, None] - y[None, :]).mean())


@dataclass(frozen=True)
class EffectSizes:
    """Effect sizes of every learner against a reference (:func:`effect_sizes_vs_best`).

    Attributes
    ----------
    effect_size : ndarray of shape (n_learners,)
        Positive when the reference is better; NaN for the reference itself.
    magnitude : ndarray of str, shape (n_learners,)
        "negligible", "small", "medium" or "large"; "" for the reference.
    measure : {"cohen_d", "cliff_delta"}
    best : int
        Column of the reference learner.
    normality_pvalue : ndarray of shape (n_learners,)
        Shapiro-Wilk p-value of each learner's scores (NaN where it cannot run:
        fewer than 3 values, or all equal).
    alpha_normality : float
        The level of each normality test (α / n_learners, Bonferroni, as autorank).
    all_normal : bool
    thresholds : tuple of float
    source : str
        Where the thresholds come from.
    """

    effect_size: np.ndarray
    magnitude: np.ndarray
    measure: str
    best: int
    normality_pvalue: np.ndarray
    alpha_normality: float
    all_normal: bool
    thresholds: tuple
    source: str

    @property
    def name(self) -> str:
        """The measure's name in words: "Cohen's d" or "Cliff's δ"."""
        return _NAMES[self.measure]


def _shapiro(x) -> float:
    from scipy import stats
    if x.size < 3 or np.ptp(x) == 0:
        return float("nan")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")            # N > 5000: p-value may be inexact
        return float(stats.shapiro(x).pvalue)


def effect_sizes_vs_best(scores, *, best: int, higher_is_better: bool = True,
                         alpha: float = 0.05, measure: str | None = None) -> EffectSizes:
    """Effect size of every learner against the best, over data sets, as autorank does.

    Each learner's scores (one per data set) are tested for normality with
    Shapiro-Wilk at α / L (Bonferroni over the L learners). If no test rejects,
    the effect size is Cohen's d with the pooled SD (thresholds of Cohen 1988);
    otherwise Cliff's δ (thresholds of Romano et al. 2006). This follows autorank
    (Herbold 2020), except that autorank's default where normality fails is Akinshin's
    γ, a median-based d from a blog post with Cohen's thresholds borrowed; Cliff's δ
    (autorank's ``effect_size="cliff_delta"``) has published thresholds of its own.
    Learners whose scores cannot be tested (fewer than 3 data sets, or all scores
    equal) count as not normal.

    Parameters
    ----------
    scores : array_like of shape (n_datasets, n_learners)
    best : int
        Column of the reference learner (e.g. the lowest average rank).
    higher_is_better : bool, default True
        The sign is set so that a positive effect size means the best is better.
    alpha : float, default 0.05
    measure : {"cohen_d", "cliff_delta"}, optional
        Use this measure whatever the normality tests say.

    Returns
    -------
    EffectSizes

    Examples
    --------
    >>> import numpy as np
    >>> from calibsim.stats import effect_sizes_vs_best
    >>> s = np.array([[.90, .80], [.85, .80], [.95, .85], [.80, .79], [.88, .70]])
    >>> es = effect_sizes_vs_best(s, best=0)
    >>> es.name, es.magnitude.tolist()
    ("Cohen's d", ['', 'large'])
    """
    x = check_finite_array("scores", scores, min_ndim=2)
    if x.ndim != 2:
        raise ValueError(f"`scores` must have shape (n_datasets, n_learners); got {x.shape}.")
    L = x.shape[1]
    if not (isinstance(best, (int, np.integer)) and 0 <= best < L):
        raise ValueError(f"`best` must be a column index in [0, {L - 1}]; got {best!r}.")
    alpha = check_probability("alpha", alpha)
    p = np.array([_shapiro(x[:, j]) for j in range(L)])
    a_norm = alpha / L
    all_normal = bool(np.all(p >= a_norm))          # NaN compares False: not normal
    if measure is None:
        measure = "cohen_d" if all_normal else "cliff_delta"
    measure = check_choice("measure", measure, set(EFFECT_SIZE_THRESHOLDS))
    sign = 1.0 if higher_is_better else -1.0
    func = cohens_d if measure == "cohen_d" else cliffs_delta
    es = np.array([np.nan if j == best else sign * func(x[:, best], x[:, j])
                   for j in range(L)])
    thresholds, source = EFFECT_SIZE_THRESHOLDS[measure]
    return EffectSizes(es, effect_size_magnitude(es, measure), measure, int(best), p, a_norm,
                       all_normal, thresholds, source)
