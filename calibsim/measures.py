"""Measures of a test's behaviour: rejection rates (Type I error, power) and replicability.

Every measure comes with its Monte Carlo error, so a table can say whether a
difference from a paper is larger than the simulation's own noise.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy import stats

from ._docstrings import fill_doc
from ._validation import check_probability, check_real_dtype

__all__ = ["RejectionRate", "rejection_rate", "Replicability", "replicability",
           "replicability_R", "replicability_R_se"]


@dataclass(frozen=True)
class RejectionRate:
    """Share of data sets on which a test rejects: Type I error under H0, power under H1.

    Attributes
    ----------
    rate : float
        Proportion in [0, 1].
    n_rejected, n : int
        Counts behind it.
    mc_se : float
        Binomial Monte Carlo standard error sqrt(rate (1 - rate) / n).
    ci_low, ci_high : float
        Exact Clopper–Pearson interval at ``confidence_level``.
    confidence_level : float
    """

    rate: float
    n_rejected: int
    n: int
    mc_se: float
    ci_low: float
    ci_high: float
    confidence_level: float = 0.95


def rejection_rate(pvalue, alpha: float, *, confidence_level: float = 0.95) -> RejectionRate:
    """Rejection rate of a test at level ``alpha`` over data sets, with its MC error.

    Parameters
    ----------
    pvalue : array_like of shape (n,)
        One p-value per data set, in [0, 1]. A test rejects when p <= alpha
        (Weka's rule, as in :mod:`calibsim.calibration`).
    alpha : float
        Significance level in (0, 1).
    confidence_level : float, default 0.95
        Level of the Clopper–Pearson interval.

    Returns
    -------
    RejectionRate

    Raises
    ------
    TypeError
        If ``pvalue`` holds booleans, complex numbers, dates or text.
    ValueError
        If ``pvalue`` is empty, not 1-D, holds NaN or values outside [0, 1], or
        ``alpha`` / ``confidence_level`` is outside (0, 1).

    Examples
    --------
    >>> r = rejection_rate([0.01, 0.2, 0.04, 0.6], 0.05)
    >>> r.rate, r.n_rejected, round(r.mc_se, 3)
    (0.5, 2, 0.25)
    """
    alpha = check_probability("alpha", alpha)
    confidence_level = check_probability("confidence_level", confidence_level)
    check_real_dtype("pvalue", pvalue)        # no bool, complex or dates read as numbers
    p = np.asarray(pvalue, dtype=float)
    if p.ndim != 1 or p.size == 0:
        raise ValueError(f"`pvalue` must be a non-empty 1-D array; got shape {p.shape}.")
    if not np.all((p >= 0) & (p <= 1)):
        raise ValueError("`pvalue` must hold p-values in [0, 1] (no NaN); got "
                         f"{p[~((p >= 0) & (p <= 1))][0]!r}.")
    k, n = int(np.sum(p <= alpha)), p.size
    rate = k / n
    low, high = _clopper_pearson(k, n, confidence_level)
    return RejectionRate(rate, k, n, float(np.sqrt(rate * (1 - rate) / n)), low, high,
                         confidence_level)


@lru_cache(maxsize=65536)
def _clopper_pearson(k: int, n: int, confidence_level: float) -> tuple:
    """Exact (Clopper–Pearson) interval of k successes in n trials, as
    ``scipy.stats.binomtest(k, n).proportion_ci(method="exact")`` computes it (a root
    search per bound, about 1 ms). Remembered: the analyses of a study ask for the same
    few (k, n) again and again (Type I errors near α at one number of data sets)."""
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=confidence_level, method="exact")
    return float(ci.low), float(ci.high)


def _clopper_pearson_many(k, n: int, confidence_level: float) -> tuple:
    """:func:`_clopper_pearson` of every count in ``k`` (array of int) at one n: one root
    search per distinct count, the very bits of one ``binomtest`` call each (unlike the
    closed form through ``scipy.stats.beta.ppf``, which differs in the last bits).
    Returns (low, high) arrays of k's shape."""
    k = np.asarray(k, dtype=np.int64)
    values, where = np.unique(k, return_inverse=True)
    bounds = np.array([_clopper_pearson(int(v), int(n), float(confidence_level))
                       for v in values], dtype=float).reshape(-1, 2)
    return bounds[where, 0].reshape(k.shape), bounds[where, 1].reshape(k.shape)


#: The Parameters of replicability_R and replicability_R_se.
_K_N_PARAMETERS = """
    Parameters
    ----------
    k : int or array_like of int
        Number of rejections, 0 <= k <= n.
    n : int
        Number of repetitions, >= 2.
"""


@fill_doc(k_n_parameters=_K_N_PARAMETERS)
def replicability_R(k, n: int):
    """Bouckaert & Frank's (2004) replicability of one data set: R(k, n).

    The probability that two of the n outcomes, drawn without replacement,
    agree when k of them reject: ``[k(k-1) + (n-k)(n-k-1)] / [n(n-1)]``.

    {k_n_parameters}

    Returns
    -------
    float or ndarray
        In [0, 1]; 1 when all n outcomes agree.

    Raises
    ------
    ValueError
        If ``n`` < 2 or some ``k`` is outside 0..n.

    Examples
    --------
    >>> replicability_R(0, 10), replicability_R(10, 10), round(replicability_R(5, 10), 4)
    (1.0, 1.0, 0.4444)
    """
    if not (isinstance(n, (int, np.integer)) and n >= 2):
        raise ValueError(f"`n` must be an integer >= 2; got {n!r}.")
    k = np.asarray(k)
    if np.any((k < 0) | (k > n)) or not np.issubdtype(k.dtype, np.integer):
        raise ValueError(f"`k` must hold integers in 0..{n}; got {k!r}.")
    r = (k * (k - 1) + (n - k) * (n - k - 1)) / (n * (n - 1))
    return float(r) if r.ndim == 0 else r


@fill_doc(k_n_parameters=_K_N_PARAMETERS)
def replicability_R_se(k, n: int):
    """Monte Carlo standard error of R(k, n) for one data set, its partitions redrawn.

    A data set's n repetitions are independent Bernoulli outcomes with one rejection
    probability p, so k is binomial(n, p) and R(k, n) estimates p² + (1 - p)² without
    bias. Its standard error is the exact standard deviation of R(K, n) for
    K ~ binomial(n, p) at the plug-in p = k / n: what a rerun with new partitions of the
    *same* data set would vary by. It is 0 when all n outcomes agree (k = 0 or n) and
    slightly low when p is near 0 or 1 (in a simulation with 21 of 25 data sets near
    consistent, the SE of their mean R came out 13% low). The SE of R averaged over D
    fixed data sets is ``sqrt(sum(se ** 2)) / D`` (:attr:`Replicability.R_partition_se`).

    {k_n_parameters}

    Returns
    -------
    float or ndarray
        In [0, 0.5], the shape of ``k``.

    Raises
    ------
    ValueError
        If ``n`` < 2 or some ``k`` is outside 0..n.

    References
    ----------
    .. [1] Bouckaert, R. R. & Frank, E. (2004). Evaluating the replicability of
           significance tests for comparing learning algorithms. PAKDD 2004, §2.

    Examples
    --------
    >>> [round(replicability_R_se(k, 10), 3) for k in (0, 1, 5, 10)]
    [0.0, 0.154, 0.075, 0.0]
    """
    r = replicability_R(k, n)                      # validates k and n
    p = np.asarray(k, dtype=float)[..., None] / n
    ks = np.arange(n + 1)
    w = stats.binom.pmf(ks, n, p)
    rk = replicability_R(ks, n)
    mean = np.sum(w * rk, axis=-1)
    se = np.sqrt(np.maximum(np.sum(w * rk ** 2, axis=-1) - mean ** 2, 0.0))
    return float(se) if np.ndim(r) == 0 else se


@dataclass(frozen=True)
class Replicability:
    """Replicability of a test over data sets, each tested ``n_repeats`` times.

    Attributes
    ----------
    consistent : float
        Share of data sets on which all repetitions agree (Bouckaert 2003,
        Table 5's "replicability").
    almost_consistent : float
        Share on which at most one repetition differs from the others.
    R : float
        Mean of R(k, n) over data sets (Bouckaert & Frank 2004).
    consistent_se, almost_consistent_se, R_se : float
        Monte Carlo standard errors: binomial for the shares; for R the standard
        error of the mean over the data sets (data sets drawn at random, as from a
        simulated source), or for a single data set its :attr:`R_partition_se`.
    n_datasets, n_repeats : int
    R_partition_se : float
        Monte Carlo standard error of ``R`` with the data sets held fixed (real data
        sets): ``sqrt(sum of replicability_R_se(k_d, n) ** 2) / n_datasets``, the error
        a rerun with new partitions of the same data sets would have.
    """

    consistent: float
    almost_consistent: float
    R: float
    consistent_se: float
    almost_consistent_se: float
    R_se: float
    n_datasets: int
    n_repeats: int
    R_partition_se: float = float("nan")


def replicability(rejected) -> Replicability:
    """Replicability of a test from its outcomes on repeated random partitions.

    Parameters
    ----------
    rejected : array_like of bool, shape (n_datasets, n_repeats)
        Whether the test rejected on each repetition (a new random partition
        of the same data set) of each data set; n_repeats >= 2.

    Returns
    -------
    Replicability

    Raises
    ------
    ValueError
        If ``rejected`` is not 2-D with at least one data set and two repeats.

    References
    ----------
    .. [1] Bouckaert, R. R. (2003). Choosing between two learning algorithms
           based on calibrated tests. ICML 2003, §5.4.
    .. [2] Bouckaert, R. R. & Frank, E. (2004). Evaluating the replicability of
           significance tests for comparing learning algorithms. PAKDD 2004.

    Examples
    --------
    >>> rep = replicability([[True] * 10, [False] * 10, [True] * 9 + [False], [True] * 5 + [False] * 5])
    >>> rep.consistent, rep.almost_consistent, round(rep.R, 4)
    (0.5, 0.75, 0.8111)
    >>> round(rep.R_partition_se, 4)
    0.0428
    """
    try:
        x = np.asarray(rejected)
    except ValueError:                         # ragged lists
        x = np.empty(0)
    if x.ndim != 2 or x.shape[0] < 1 or x.shape[1] < 2:
        raise ValueError(f"`rejected` must have shape (n_datasets >= 1, n_repeats >= 2); got "
                         f"{x.shape}.")
    if x.dtype != bool and not (x.dtype.kind in "iuf" and np.isin(x, (0, 1)).all()):
        raise ValueError("`rejected` must hold the test's outcomes as booleans or 0/1 "
                         "(True: rejected); got other values, e.g. p-values: compare them "
                         "with alpha first (p <= alpha).")
    x = x.astype(bool)
    n_sets, m = x.shape
    k = x.sum(axis=1)
    minority = np.minimum(k, m - k)
    cons = float(np.mean(minority == 0))
    almost = float(np.mean(minority <= 1))
    r = replicability_R(k, m)

    def se(p):
        return float(np.sqrt(p * (1 - p) / n_sets))
    fixed_se = float(np.sqrt(np.sum(replicability_R_se(k, m) ** 2)) / n_sets)
    r_se = float(r.std(ddof=1) / np.sqrt(n_sets)) if n_sets > 1 else fixed_se
    return Replicability(cons, almost, float(r.mean()), se(cons), se(almost), r_se, n_sets, m,
                         fixed_se)
