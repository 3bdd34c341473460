"""The classic tests of Dietterich (1998) and Alpaydin (1999).

McNemar's test and the test for the difference of two proportions take the
2x2 table of one learner pair on one test set; the 5x2cv paired t test and the
combined 5x2cv F test take the 5 x 2 differences of five replications of
2-fold cross-validation; the sign test counts wins and losses. (The resampled
paired t test and the k-fold cv paired t test are
:func:`~calibsim.stats.resampled_ttest` and :func:`~calibsim.stats.kfold_cv_ttest`.)

All tests are vectorised over the leading dimensions of their inputs, never
return a p-value above 1 or NaN, and define every degenerate case (no
disagreement, zero variance) explicitly; see each function's Notes.

Table convention (Dietterich 1998): on one test set of n instances,

======  =====================================
n00     both A and B misclassify the instance
n01     A misclassifies, B classifies correctly
n10     A classifies correctly, B misclassifies
n11     both classify correctly
======  =====================================

References
----------
.. [1] {dietterich1998}
.. [2] {alpaydin1999}
.. [3] McNemar, Q. (1947). Note on the sampling error of the difference
       between correlated proportions or percentages. Psychometrika 12(2),
       153-157. doi:10.1007/BF02295996
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field

import numpy as np
from scipy import stats

from .._docstrings import fill, fill_doc
from .._validation import check_finite_array
from ._ttests import _iv_alternative

__doc__ = fill(__doc__)

__all__ = ["ClassicTestResult", "mcnemar_test", "proportions_test"]


@dataclass(frozen=True)
class ClassicTestResult:
    """Result of McNemar's test, the proportions test, the 5x2cv F test or the sign test.

    Attributes
    ----------
    statistic : float or ndarray of shape (...,)
        The test statistic (chi-square, z, F or a count; see the test).
    pvalue : float or ndarray of shape (...,)
        p-value in [0, 1], never NaN.
    df : float, tuple of (float, float or ndarray), or None
        Degrees of freedom of the reference distribution: 1.0 for McNemar's
        chi-square test, ``(10.0, df2)`` (numerator, denominator) for the
        combined 5x2cv F test, None where the reference distribution has no
        df (normal or exact binomial).
    """

    statistic: float | np.ndarray
    pvalue: float | np.ndarray
    df: float | tuple | None
    _method: str = field(default="", repr=False)

    def __iter__(self):
        # Allow ``statistic, pvalue = result`` like scipy's result objects.
        return iter((self.statistic, self.pvalue))


# ---------------------------------------------------------------------------
# Input validation
# ---------------------------------------------------------------------------

def _iv_bool(name, value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"`{name}` must be a bool; got {value!r}.")
    return bool(value)


def _iv_counts(**counts) -> list[np.ndarray]:
    """Finite, non-negative, integer-valued float arrays, broadcast together."""
    out = []
    for name, value in counts.items():
        arr = check_finite_array(name, value)
        bad = (arr < 0) | (arr != np.floor(arr))
        if bad.any():
            raise ValueError(f"`{name}` must hold non-negative integer counts; got "
                             f"{float(arr[bad].flat[0])!r}.")
        out.append(arr)
    try:
        return list(np.broadcast_arrays(*out))
    except ValueError:
        shapes = ", ".join(f"`{n}` {a.shape}" for n, a in zip(counts, out))
        raise ValueError(f"The counts must have broadcastable shapes; got {shapes}.") from None


def _iv_5x2(x) -> np.ndarray:
    x = check_finite_array("x", x)
    if x.ndim < 2 or x.shape[-2:] != (5, 2):
        raise ValueError("`x` must have shape (..., 5, 2): 5 replications (rows) of "
                         f"2-fold cv (columns); got shape {x.shape}.")
    return x


def _iv_axis(axis, ndim) -> int:
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise TypeError(f"`axis` must be an integer; got {axis!r}.")
    if not -ndim <= axis < ndim:
        raise ValueError(f"`axis` must lie in [{-ndim}, {ndim - 1}] for `x` with "
                         f"{ndim} dimension(s); got {axis}.")
    return int(axis) % ndim


# ---------------------------------------------------------------------------
# Shared numerical steps
# ---------------------------------------------------------------------------

def _binom_half_pvalue(k, n, alternative):
    """p-value of k successes in n trials against Bin(n, 1/2).

    The semantics of :func:`scipy.stats.binomtest` with ``p=0.5``, vectorised:
    two-sided ``min(1, 2 P(X <= min(k, n - k)))`` (the distribution is
    symmetric, so this is the sum over outcomes no more likely than k);
    ``"greater"``: P(X >= k); ``"less"``: P(X <= k). ``n = 0`` gives p = 1.
    """
    if alternative == "two-sided":
        p = np.minimum(1.0, 2.0 * stats.binom.cdf(np.minimum(k, n - k), n, 0.5))
    elif alternative == "greater":
        p = stats.binom.sf(k - 1, n, 0.5)
    else:
        p = stats.binom.cdf(k, n, 0.5)
    p = np.where(n == 0, 1.0, p)
    return np.clip(p, 0.0, 1.0)


def _pvalue_z(z, alternative):
    """Standard normal p-value; two-sided ``2 P(Z > |z|)`` capped at 1."""
    if alternative == "two-sided":
        return np.minimum(1.0, 2.0 * stats.norm.sf(np.abs(z)))
    if alternative == "greater":
        return stats.norm.sf(z)
    return stats.norm.cdf(z)


def _s2(x):
    """Dietterich's per-replication variance s_i^2 of x (..., 5, 2), shape (..., 5)."""
    pbar = np.mean(x, axis=-1, keepdims=True)                    # p-bar_i
    return np.sum((x - pbar) ** 2, axis=-1)                      # s_i^2


# ---------------------------------------------------------------------------
# Public tests
# ---------------------------------------------------------------------------

@fill_doc
def mcnemar_test(n01, n10, *, correction=True, exact=False, alternative="two-sided"):
    r"""McNemar's test on the disagreements of two classifiers on one test set.

    Chi-square form (Dietterich 1998 [1]_; McNemar 1947 [2]_)

    .. math:: \chi^2 = \frac{(|n_{01} - n_{10}| - 1)^2}{n_{01} + n_{10}}

    with the continuity correction (``correction=True``) or
    :math:`(n_{01} - n_{10})^2 / (n_{01} + n_{10})` without it, compared with
    chi-square with 1 df; or, with ``exact=True``, the binomial test of
    :math:`n_{01} \sim \mathrm{Bin}(n_{01} + n_{10}, 1/2)`.

    Parameters
    ----------
    n01, n10 : array_like of int, broadcastable shapes (...,)
        Counts (non-negative integers, any numeric dtype) of test instances
        that A misclassifies and B classifies correctly (``n01``), and the
        reverse (``n10``); Dietterich's convention, see the module docstring.
    correction : bool, default True
        Subtract 1 from ``|n01 - n10|`` (continuity correction); ignored when
        ``exact=True``.
    exact : bool, default False
        Use the exact binomial test instead of the chi-square approximation.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        ``"greater"``: n01 tends to exceed n10, i.e. A errs where B does not
        more often than the reverse (B is the more accurate learner).

    Returns
    -------
    ClassicTestResult
        ``statistic``: chi-square (>= 0), or ``n01`` with ``exact=True``;
        ``df`` is 1.0 (chi-square) or None (exact).

    Notes
    -----
    Degenerate and boundary cases:

    * No disagreement (``n01 + n10 == 0``): the statistic is 0 and p = 1 for
      every ``alternative`` and method.
    * With the continuity correction, ``|n01 - n10| < 1`` (i.e. n01 == n10)
      gives statistic 0, not ``1 / (n01 + n10)``: the corrected numerator
      ``|n01 - n10| - 1`` is clipped at 0. (statsmodels' ``mcnemar`` does not
      clip; the two agree whenever ``n01 != n10``.)
    * One-sided chi-square tests use the signed root
      :math:`z = \mathrm{sign}(n_{01} - n_{10}) \sqrt{\chi^2}` against the
      standard normal; two-sided, ``P(chi2_1 > chi^2)`` equals ``P(|Z| > |z|)``.
    * The exact test has the semantics of ``scipy.stats.binomtest(n01,
      n01 + n10, 0.5, alternative)``.

    References
    ----------
    .. [1] {dietterich1998}
    .. [2] McNemar, Q. (1947). Note on the sampling error of the difference
           between correlated proportions or percentages. Psychometrika 12(2),
           153-157. doi:10.1007/BF02295996

    Examples
    --------
    >>> from calibsim.stats import mcnemar_test
    >>> res = mcnemar_test(12, 3)                 # (|12 - 3| - 1)^2 / 15
    >>> round(float(res.statistic), 4), round(float(res.pvalue), 4), res.df
    (4.2667, 0.0389, 1.0)
    >>> round(float(mcnemar_test(12, 3, exact=True).pvalue), 4)
    0.0352

    Vectorised over tables:

    >>> mcnemar_test([0, 5, 20], [0, 5, 4]).pvalue.round(4)
    array([1.    , 1.    , 0.0022])
    """
    correction = _iv_bool("correction", correction)
    exact = _iv_bool("exact", exact)
    alternative = _iv_alternative(alternative)
    n01, n10 = _iv_counts(n01=n01, n10=n10)
    n = n01 + n10
    none = n == 0
    if exact:
        return ClassicTestResult(n01[()], _binom_half_pvalue(n01, n, alternative)[()], None,
                                 _method="mcnemar_exact")
    diff = n01 - n10
    num = np.abs(diff) - 1.0 if correction else np.abs(diff)
    num = np.maximum(num, 0.0)                                   # clip: n01 == n10 -> 0
    with np.errstate(divide="ignore", invalid="ignore"):
        chi2 = np.where(none, 0.0, num ** 2 / np.where(none, 1.0, n))
    if alternative == "two-sided":
        p = stats.chi2.sf(chi2, 1)
    else:
        p = _pvalue_z(np.sign(diff) * np.sqrt(chi2), alternative)
    p = np.clip(np.where(none, 1.0, p), 0.0, 1.0)
    return ClassicTestResult(chi2[()], p[()], 1.0, _method="mcnemar")


@fill_doc
def proportions_test(n00, n01, n10, n11, *, alternative="two-sided"):
    r"""Dietterich's test for the difference of two proportions (error rates).

    With the error rates :math:`p_A = (n_{00} + n_{01})/n` and
    :math:`p_B = (n_{00} + n_{10})/n` of A and B on the same test set of
    :math:`n = n_{00} + n_{01} + n_{10} + n_{11}` instances and
    :math:`p = (p_A + p_B)/2`,

    .. math:: z = \frac{p_A - p_B}{\sqrt{2 p (1 - p) / n}},

    compared with the standard normal (Dietterich 1998 [1]_). The test
    treats the two error rates as independent although they are measured on
    the same instances; Dietterich analyses it to show the cost of that
    assumption.

    Parameters
    ----------
    n00, n01, n10, n11 : array_like of int, broadcastable shapes (...,)
        The 2x2 table of A and B on one test set (counts, non-negative
        integers; see the module docstring). ``n`` must be positive.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        ``"greater"``: A's error rate exceeds B's (:math:`p_A > p_B`).

    Returns
    -------
    ClassicTestResult
        ``statistic`` z, ``df`` None.

    Notes
    -----
    :math:`p_A - p_B` is computed as :math:`(n_{01} - n_{10})/n`, so swapping
    A and B (n01 <-> n10) flips the sign of z exactly. If the pooled rate p is
    0 or 1 (both learners always wrong or always right, so
    :math:`p_A = p_B`) the standard error is 0 and the statistic is defined
    as 0 with p = 1; a zero standard error with :math:`p_A \ne p_B` (which
    cannot occur for valid counts) would give ``±inf`` and p = 0.

    {references:dietterich1998}

    Examples
    --------
    >>> from calibsim.stats import proportions_test
    >>> res = proportions_test(10, 12, 3, 75)     # pA = 0.22, pB = 0.13, n = 100
    >>> round(float(res.statistic), 4), round(float(res.pvalue), 4)
    (1.6749, 0.094)
    """
    alternative = _iv_alternative(alternative)
    n00, n01, n10, n11 = _iv_counts(n00=n00, n01=n01, n10=n10, n11=n11)
    n = n00 + n01 + n10 + n11
    if np.any(n == 0):
        raise ValueError("The test-set size n = n00 + n01 + n10 + n11 must be positive; "
                         "got n = 0.")
    d = (n01 - n10) / n                                          # pA - pB
    pool = (2.0 * n00 + n01 + n10) / (2.0 * n)                   # p = (pA + pB)/2
    se = np.sqrt(2.0 * pool * (1.0 - pool) / n)
    zero = se == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(zero, np.where(d == 0, 0.0, np.sign(d) * np.inf),
                     d / np.where(zero, 1.0, se))
    p = np.where(zero & (d == 0), 1.0, _pvalue_z(z, alternative))
    return ClassicTestResult(z[()], np.clip(p, 0.0, 1.0)[()], None, _method="proportions")
