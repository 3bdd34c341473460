"""Calibrating the correlation ρ of the correlated Bayesian t test on null data.

The correlated Bayesian t test (Corani & Benavoli 2015) widens its posterior by
ρ/(1 − ρ), ρ = n_test/n_total for k-fold cv (Nadeau & Bengio's heuristic). ρ plays
the role Bouckaert's calibrated df plays for the t test: on data where both learners
are equally good, the test should declare a difference beyond the ROPE no more often
than 1 − threshold. Each null data set has a threshold ρ* below which the test decides
(:func:`calibsim.stats.correlated_t_rho_threshold`), so the decision rate at ρ is the
share of data sets with ρ* > ρ and the calibrated ρ is an order statistic of the ρ*,
with the same distribution-free interval as the continuous calibrated df
(:func:`calibsim.calibration.continuous_calibration`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._validation import check_finite_array, check_probability
from ._continuous import quantile_interval

__all__ = ["RhoCalibration", "calibrate_rho", "decision_rate"]


@dataclass(frozen=True)
class RhoCalibration:
    """Calibrated ρ of the correlated Bayesian t test.

    Attributes
    ----------
    rho : float
        The (m + 1)-th largest ρ*, m = ⌊(1 − threshold)N⌋: for every ρ above it at most
        m of the N null data sets get a decision beyond the ROPE.
    ci_low, ci_high : float
        Confidence interval for the population calibrated ρ (order statistics of ρ*;
        0 or 1 when a side is unbounded).
    coverage : float
        Exact coverage of the interval.
    threshold, rope : float
    decision_rate_default : float
        Share of the null data sets with a decision at the default ρ = 1/k.
    thresholds : ndarray of shape (N,)
        ρ* per data set.
    """

    rho: float
    ci_low: float
    ci_high: float
    coverage: float
    threshold: float
    rope: float
    decision_rate_default: float
    thresholds: np.ndarray = field(repr=False)


def decision_rate(x, *, rho=None, rope=0.0, threshold=0.95) -> float:
    """Share of data sets on which the correlated Bayesian t test declares a difference.

    Parameters
    ----------
    x : array_like of shape (N, r, k)
        Per-fold differences A − B on N data sets.
    rho, rope, threshold
        As for :func:`calibsim.stats.correlated_bayesian_ttest`.

    Returns
    -------
    float in [0, 1]
    """
    from ..stats import correlated_bayesian_ttest
    x = check_finite_array("x", x)
    if x.ndim != 3 or x.shape[0] < 1:
        raise ValueError(f"`x` must have shape (N, r, k) with N >= 1; got {x.shape}.")
    d = correlated_bayesian_ttest(x, rho=rho, rope=rope, threshold=threshold).decision
    return float(np.mean(np.isin(d, ["left", "right"])))


def calibrate_rho(x, *, threshold=0.95, rope=0.0, confidence_level=0.95) -> RhoCalibration:
    """The ρ at which the correlated Bayesian t test's null decision rate is 1 − threshold.

    Parameters
    ----------
    x : array_like of shape (N, r, k)
        Per-fold differences on N null data sets (both learners equally good).
    threshold : float, default 0.95
    rope : float, default 0
    confidence_level : float, default 0.95

    Returns
    -------
    RhoCalibration

    Raises
    ------
    TypeError
        If ``x`` holds anything but real numbers (booleans, complex numbers, dates).
    ValueError
        If ``x`` is not (N, r, k) with N >= 1, holds NaN or inf, or the parameters are
        out of range.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)          # dependent folds: a run effect plus noise
    >>> x = rng.normal(0, 0.01, (2000, 1, 1)) + rng.normal(0, 0.03, (2000, 10, 10))
    >>> res = calibrate_rho(x, threshold=0.95)
    >>> bool(res.ci_low <= res.rho <= res.ci_high), res.decision_rate_default > 0.05
    (True, True)
    >>> round(res.rho, 3), decision_rate(x, rho=res.rho * 1.0001) <= 0.05
    (0.14, True)
    """
    from ..stats import correlated_t_rho_threshold
    x = check_finite_array("x", x)            # real numbers only: no bool, complex, dates
    if x.ndim != 3 or x.shape[0] < 1:
        raise ValueError(f"`x` must have shape (N, r, k) with N >= 1; got {x.shape}.")
    level = check_probability("confidence_level", confidence_level)
    t = correlated_t_rho_threshold(x, rope=rope, threshold=threshold)
    n = t.size
    m = int(np.floor((1 - threshold) * n + 1e-9))
    asc = np.sort(t)
    rho = float(asc[n - m - 1]) if m < n else 0.0   # the (m + 1)-th largest ρ*
    # ρ is the threshold-quantile of ρ*: order-statistic interval, as for the df
    lo_rank, up_rank, coverage = quantile_interval(n, threshold, level)
    ci_low = float(asc[lo_rank - 1]) if lo_rank >= 1 else 0.0
    ci_high = float(asc[up_rank - 1]) if up_rank <= n else 1.0
    rate = decision_rate(x, rope=rope, threshold=threshold)
    return RhoCalibration(rho, ci_low, ci_high, coverage, float(threshold), float(rope),
                          rate, t)
