"""Continuous calibrated df with a distribution-free confidence interval.

For the tests of Bouckaert (2003) the statistic grows with df and the critical
value falls, so each null data set i has one **threshold df** t_i at which the
test starts to reject at level α: it rejects at df ≥ t_i and not below. The Type I
error curve is therefore the empirical distribution function of the thresholds,
F(df) = #{t_i ≤ df} / N, and the calibrated df — the largest df whose Type I error
stays at or below α — is the order statistic t_(m+1), m = ⌊αN⌋ (the Type I error
is ≤ α for every df below it). It estimates the α-quantile q_α of the threshold
distribution, the df at which the test's Type I error is exactly α in the
population of null data sets, and order statistics give a confidence interval for
q_α that needs no assumption and no bootstrap: P(t_(l) ≤ q_α < t_(u)) equals
P(l ≤ B < u) with B ~ Binomial(N, α) (e.g. David & Nagaraja 2003, §7.1).

A data set that rejects even at the smallest df searched has threshold equal to
that bound; one that never rejects up to the largest bound has threshold +inf.

References
----------
.. [1] {bouckaert2003}
.. [2] David, H. A. & Nagaraja, H. N. (2003). Order Statistics, 3rd ed. Wiley,
       §7.1 (distribution-free confidence intervals for quantiles).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import stats

from .._docstrings import fill
from .._validation import check_int, check_probability

__doc__ = fill(__doc__)

__all__ = ["threshold_df", "continuous_calibration", "ContinuousCalibration",
           "quantile_interval"]


def _pvalues(func, x, df):
    out = func(x, df)
    return _checked(out.pvalue if hasattr(out, "pvalue") else out[1], x)


def _checked(p, x):
    p = np.asarray(p, dtype=float)
    if p.shape != (x.shape[0],):
        raise ValueError(f"the test returned p-values of shape {p.shape} for df of shape "
                         f"({x.shape[0]},); expected ({x.shape[0]},): a test used here must "
                         "accept one df per data set (an array of shape (N,)).")
    return p


def threshold_df(test, x, alpha: float, *, df_bounds=(0.01, 1e6), rtol: float = 1e-9,
                 max_iter: int = 200) -> np.ndarray:
    """The df at which each null data set starts to be rejected at level ``alpha``.

    Parameters
    ----------
    test : str, TestSpec or callable
        A registry name or ``f(x, df) -> result with .pvalue`` whose p-value is
        non-increasing in df; ``df`` is passed as an array of shape (N,), one per
        data set.
    x : array_like of shape (N, ...)
        The test's data for N null data sets (as for :func:`calibsim.calibration.calibrate`).
    alpha : float
        Significance level in (0, 1); a test rejects when p ≤ α.
    df_bounds : (float, float), default (0.01, 1e6)
        The df searched; a data set rejected at the lower bound gets it as its
        threshold, one not rejected at the upper bound gets +inf.
    rtol : float, default 1e-9
        Relative width at which the bisection (on log df) stops.
    max_iter : int, default 200

    Returns
    -------
    ndarray of shape (N,)
        Thresholds t_i: the test rejects data set i at every df ≥ t_i (up to
        ``rtol``) and at no df below.

    Raises
    ------
    ValueError
        If ``alpha`` is not in (0, 1), the bounds are not 0 < low < high, or the test
        returns p-values of the wrong shape.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(0, 0.03, size=(5, 10, 10))
    >>> t = threshold_df("use_all_data", x, 0.05)
    >>> from calibsim.stats import get_test
    >>> p_at = get_test("use_all_data").func(x, np.minimum(t, 1e6) * (1 + 1e-6)).pvalue
    >>> bool(np.all((p_at <= 0.05) | np.isinf(t)))
    True
    """
    from ._calibrate import _iv_data
    from ._common import _resolve_test
    spec, func, _ = _resolve_test(test)
    alpha = check_probability("alpha", alpha)
    lo_b, hi_b = _iv_bounds(df_bounds)
    if isinstance(rtol, bool) or not isinstance(rtol, (int, float)) or not 0 < rtol < 1:
        raise ValueError(f"`rtol` must be a number in (0, 1); got {rtol!r}.")
    max_iter = check_int("max_iter", max_iter, min_value=1, max_value=10_000)
    from .._validation import check_finite_array
    x = check_finite_array("x", x, min_ndim=2)
    x = _iv_data(x, spec)                      # a registered test's layout: (N, r, k) or (N, n)
    n = x.shape[0]
    first = func(x, np.full(n, lo_b))
    return _bisect(_pvalue_function(first, func, x), _first_pvalues(first, x), n, alpha,
                   lo_b, hi_b, rtol, max_iter)


def _iv_bounds(df_bounds):
    lo_b, hi_b = (float(b) for b in df_bounds)
    if not 0 < lo_b < hi_b < np.inf:
        raise ValueError(f"`df_bounds` must be 0 < low < high < inf; got {df_bounds!r}.")
    return lo_b, hi_b


def _first_pvalues(first, x):
    return _checked(first.pvalue if hasattr(first, "pvalue") else first[1], x)


def _pvalue_function(first, func, x, idx=None):
    """``df (len N') -> p-values`` of the data sets ``x[idx]`` (all when idx is None).

    calibsim's t tests carry their df-dependent last step (``first._at_df``, from any
    earlier call on x): other df then cost no pass over the data, with the same
    p-values bit for bit. Other tests are called on the data again.
    """
    at_df = getattr(first, "_at_df", None)
    xs = x if idx is None else x[idx]
    if at_df is None:
        return lambda df: _pvalues(func, xs, df)
    if idx is not None:
        at_df = at_df.take(idx)
    return lambda df: _checked(at_df(df), xs)


def _bisect(pvalues, p_lo, n, alpha, lo_b, hi_b, rtol, max_iter):
    """Thresholds of :func:`threshold_df` given ``pvalues(df)`` and the p-values at lo_b."""
    lo, hi = np.full(n, lo_b), np.full(n, hi_b)
    at_lo = p_lo <= alpha
    at_hi = pvalues(hi) <= alpha
    active = ~at_lo & at_hi
    for _ in range(max_iter):
        if not active.any() or np.all((hi / lo)[active] - 1 <= rtol):
            break
        mid = np.sqrt(lo * hi)
        rej = pvalues(np.where(active, mid, hi)) <= alpha
        hi = np.where(active & rej, mid, hi)
        lo = np.where(active & ~rej, mid, lo)
    out = hi.copy()
    out[at_lo] = lo_b
    out[~at_hi] = np.inf
    return out


def quantile_interval(n: int, q: float, confidence_level: float = 0.95):
    """Order-statistic ranks (l, u), 1-based, of a confidence interval for the q-quantile.

    ``P(X_(l) ≤ ξ_q < X_(u)) = P(l ≤ B < u)``, B ~ Binomial(n, q), for a continuous
    distribution; l and u cut about (1 − level)/2 from each tail and the exact
    coverage is returned. l = 0 or u = n + 1 mean an unbounded side.

    Returns
    -------
    l, u : int
    coverage : float

    Examples
    --------
    >>> l, u, coverage = quantile_interval(1000, 0.05)
    >>> l, u, round(coverage, 3)
    (37, 65, 0.958)
    """
    n = check_int("n", n, min_value=1, max_value=10**12)
    check_probability("q", q)
    level = check_probability("confidence_level", confidence_level)
    b = stats.binom(n, q)
    tail = (1 - level) / 2
    lo_rank = int(b.ppf(tail))                     # P(B < l) <= tail
    if b.cdf(lo_rank - 1) > tail:
        lo_rank -= 1
    up_rank = int(b.ppf(1 - tail)) + 1             # P(B >= u) <= tail
    coverage = float(b.cdf(up_rank - 1) - b.cdf(lo_rank - 1))
    return max(lo_rank, 0), min(up_rank, n + 1), coverage


@dataclass(frozen=True)
class ContinuousCalibration:
    """Continuous calibrated df with its order-statistic interval (see the module docstring).

    Attributes
    ----------
    df : float
        t_(m+1), m = ⌊αN⌋: the Type I error is ≤ α for every df below it; +inf when
        fewer than m + 1 data sets ever reject; the lower search bound when even
        the smallest df rejects too often.
    ci_low, ci_high : float
        Confidence interval for the population calibrated df q_α (order statistics
        t_(l), t_(u); 0 or +inf when a side is unbounded).
    coverage : float
        Exact coverage probability of the interval (≥ the level asked).
    alpha : float
    thresholds : ndarray of shape (N,)
    """

    df: float
    ci_low: float
    ci_high: float
    coverage: float
    alpha: float
    thresholds: np.ndarray = field(repr=False)

    @property
    def n_datasets(self) -> int:
        return int(self.thresholds.size)


def continuous_calibration(test, x, alpha: float, *, confidence_level: float = 0.95,
                           **kwargs) -> ContinuousCalibration:
    """Continuous calibrated df of ``test`` on null data ``x`` at level ``alpha``.

    Parameters
    ----------
    test, x, alpha
        As for :func:`threshold_df` (further keywords go to it).
    confidence_level : float, default 0.95

    Returns
    -------
    ContinuousCalibration

    Examples
    --------
    >>> import numpy as np
    >>> x = np.random.default_rng(1).normal(0, 0.03, size=(400, 10, 10))
    >>> res = continuous_calibration("use_all_data", x, 0.05)
    >>> bool(res.ci_low <= res.df <= res.ci_high), round(res.coverage, 2) >= 0.95
    (True, True)
    """
    t = threshold_df(test, x, alpha, **kwargs)
    s = np.sort(t)
    df, ci_low, ci_high, coverage = _order_statistics(s.size, alpha, confidence_level,
                                                      lambda rank: float(s[rank - 1]))
    return ContinuousCalibration(df, ci_low, ci_high, coverage, float(alpha), t)


def _order_statistics(n, alpha, confidence_level, value_at):
    """(df, ci_low, ci_high, coverage) from ``value_at(rank)``, the 1-based order statistic."""
    m = int(np.floor(alpha * n))
    df = value_at(m + 1) if m < n else np.inf
    lo_rank, up_rank, coverage = quantile_interval(n, alpha, confidence_level)
    ci_low = value_at(lo_rank) if lo_rank >= 1 else 0.0
    ci_high = value_at(up_rank) if up_rank <= n else np.inf
    return df, ci_low, ci_high, coverage


def _calibration_from_grid(first, func, x, p_grid, dfs, alpha, *, confidence_level=0.95,
                           df_bounds=(0.01, 1e6), rtol=1e-9, max_iter=200):
    """(df, ci_low, ci_high, coverage) of :func:`continuous_calibration`, cheaply.

    ``p_grid`` (n_df, N) holds the test's p-values at the ascending integer grid
    ``dfs`` (inside ``df_bounds``), and ``first`` is the result of any call of ``func``
    on ``x``. The grid puts every data set's threshold in a cell -- at or below dfs[0],
    between two grid points, or above dfs[-1] -- without any search, and the cells are
    ordered; so only the data sets in the cells that hold the order statistics asked
    for (ranks l, m + 1 and u) are bisected, as :func:`threshold_df` does (the same
    thresholds up to its ``rtol``). Used by the engine's calibrate analysis, where the
    grid p-values exist anyway.
    """
    rej = p_grid <= alpha
    cell = np.where(rej.any(axis=0), rej.argmax(axis=0), dfs.size)     # (N,) in 0..n_df
    return _calibration_from_cells(lambda idx: _pvalue_function(first, func, x, idx), cell,
                                   dfs, alpha, confidence_level=confidence_level,
                                   df_bounds=df_bounds, rtol=rtol, max_iter=max_iter)


def _calibration_from_cells(pvalues_of, cell, dfs, alpha, *, confidence_level=0.95,
                            df_bounds=(0.01, 1e6), rtol=1e-9, max_iter=200):
    """:func:`_calibration_from_grid` given each data set's grid cell ``cell`` (N,): the
    index of the first df of ``dfs`` rejecting at ``alpha`` (``dfs.size``: none), and
    ``pvalues_of(idx)``, the ``df (len(idx),) -> p-values`` function of the data sets
    ``idx``. The engine's calibrate analysis collects the cells block by block."""
    cell = np.asarray(cell, dtype=np.int64)
    n = cell.size
    n_df = dfs.size
    cum = np.cumsum(np.bincount(cell, minlength=n_df + 1))
    m = int(np.floor(alpha * n))
    lo_rank, up_rank, _ = quantile_interval(n, alpha, confidence_level)
    ranks = [r for r in (lo_rank, m + 1, up_rank) if 1 <= r <= n]
    cells = np.unique(np.searchsorted(cum, ranks, side="left"))
    idx = np.flatnonzero(np.isin(cell, cells))
    lo_b, hi_b = _iv_bounds(df_bounds)
    pvalues = pvalues_of(idx)
    t = _bisect(pvalues, pvalues(np.full(idx.size, lo_b)), idx.size, alpha, lo_b, hi_b,
                rtol, max_iter)
    by_cell = {c: np.sort(t[cell[idx] == c]) for c in cells}

    def value_at(rank):
        c = int(np.searchsorted(cum, rank, side="left"))
        below = int(cum[c - 1]) if c > 0 else 0
        return float(by_cell[c][rank - below - 1])

    return _order_statistics(n, alpha, confidence_level, value_at)
