"""Result types shared by calibsim's t tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
from scipy import stats

from .._validation import check_probability

__all__ = ["TTestResult", "ConfidenceInterval"]


class ConfidenceInterval(NamedTuple):
    """Lower and upper bound of a confidence interval for the mean difference.

    Attributes
    ----------
    low, high : float or ndarray
        Bounds in accuracy units (difference of two accuracies in [0, 1]);
        one-sided intervals have an infinite bound.
    """

    low: float | np.ndarray
    high: float | np.ndarray


@dataclass(frozen=True)
class TTestResult:
    """Result of a (df-explicit) t test comparing two learning algorithms.

    Attributes
    ----------
    statistic : float or ndarray of shape (...,)
        The test statistic Z. ``+inf`` / ``-inf`` when the variance estimate is
        zero and the mean difference is not (see the Notes of the test).
    pvalue : float or ndarray of shape (...,)
        p-value from Student's t with ``df`` degrees of freedom, in [0, 1].
    df : float or ndarray of shape (...,)
        Degrees of freedom used both inside the statistic and for the reference
        t distribution; need not be an integer (calibrated df).

    Notes
    -----
    The private fields ``_estimate`` (mean difference m) and ``_stderr`` (the
    standard error that divides m in the statistic) support
    :meth:`confidence_interval`. ``_stderr`` is NaN for the averaged-T tests,
    whose statistic is not of the form m / stderr.
    """

    statistic: float | np.ndarray
    pvalue: float | np.ndarray
    df: float | np.ndarray
    _estimate: float | np.ndarray = field(default=np.nan, repr=False)
    _stderr: float | np.ndarray = field(default=np.nan, repr=False)
    _alternative: str = field(default="two-sided", repr=False)
    _method: str = field(default="", repr=False)
    # The df-dependent last step of the test, ``df -> p-values`` (see
    # ``calibsim.stats._ttests._AtDF``), so that calibration can ask for other df
    # without going through the data again; None when not known.
    _at_df: object = field(default=None, repr=False, compare=False)

    def __iter__(self):
        # Allow ``statistic, pvalue = result`` like scipy's result objects.
        return iter((self.statistic, self.pvalue))

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """Confidence interval for the mean difference m.

        Computed as m ± t_{df, 1-(1-cl)/2} · stderr for a two-sided test; for
        ``alternative="greater"`` (``"less"``) the interval is one-sided,
        ``(m - t_{df, cl} · stderr, inf)`` (``(-inf, m + t_{df, cl} · stderr)``).

        Parameters
        ----------
        confidence_level : float, default 0.95
            Confidence level in the open interval (0, 1).

        Returns
        -------
        ConfidenceInterval
            ``low`` and ``high`` with the shape of ``statistic``.

        Raises
        ------
        ValueError
            If ``confidence_level`` is not in (0, 1), or for the averaged-T
            tests, for which no standard error of m is defined.
        """
        cl = check_probability("confidence_level", confidence_level)
        se = np.asarray(self._stderr, dtype=float)
        if np.any(np.isnan(se)):
            raise ValueError(
                "A confidence interval is not defined for this test "
                f"(`method`={self._method!r}): its statistic is an average of "
                "per-run/per-fold t statistics, not m / stderr.")
        m = np.asarray(self._estimate, dtype=float)
        df = np.asarray(self.df, dtype=float)
        if self._alternative == "two-sided":
            q = stats.t.ppf(1 - (1 - cl) / 2, df)
            low, high = m - q * se, m + q * se
        elif self._alternative == "greater":
            q = stats.t.ppf(cl, df)
            low, high = m - q * se, np.full_like(m - q * se, np.inf)
        else:  # "less"
            q = stats.t.ppf(cl, df)
            high = m + q * se
            low = np.full_like(high, -np.inf)
        return ConfidenceInterval(low[()], high[()])
