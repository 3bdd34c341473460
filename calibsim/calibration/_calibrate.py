"""Calibrating the degrees of freedom of a test on its Type I error.

Bouckaert (2003) §4 [1]_: run a test on many data sets on which the null
hypothesis holds, with df = 2, ..., 100, and pick the df whose Type I error is
closest to, and not above, the significance level α.

A test rejects at level α when its p-value is <= α (Weka's rule).

References
----------
.. [1] {bouckaert2003}
.. [2] Clopper, C. J. & Pearson, E. S. (1934). The use of confidence or
       fiducial limits illustrated in the case of the binomial. Biometrika 26,
       404-413. doi:10.1093/biomet/26.4.404
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._docstrings import fill, fill_doc
from .._validation import (check_alpha, check_finite_array, check_probability,
                           check_real_dtype)
from ..measures import _clopper_pearson_many
from ..stats import TestSpec
from ._common import _check_pvalues, _pvalues_of, _resolve_test

__doc__ = fill(__doc__)

__all__ = ["type1_error_curve", "calibrated_df", "calibrate", "CalibrationResult"]

_DEFAULT_DFS = np.arange(2, 101)


# ---------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------

def _iv_dfs(dfs) -> np.ndarray:
    arr = np.asarray(dfs)
    if arr.dtype.kind not in "iuf" or arr.dtype.kind == "b":
        raise TypeError(f"`dfs` must be a 1-D array of positive numbers; got {dfs!r}.")
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError("`dfs` must be a non-empty 1-D array of degrees of freedom; "
                         f"got shape {arr.shape}.")
    if not np.all(np.isfinite(arr)) or np.any(arr <= 0):
        raise ValueError("`dfs` must be finite and positive (df > 0); got "
                         f"{arr[~(np.isfinite(arr) & (arr > 0))][0]!r}.")
    if arr.size > MAX_DFS:
        raise ValueError(f"`dfs` must hold at most {MAX_DFS:,} degrees of freedom (each costs "
                         f"a p-value per data set); got {arr.size:,}.")
    if np.any(np.diff(arr) <= 0):
        bad = int(np.argmax(np.diff(arr) <= 0))
        raise ValueError("`dfs` must be sorted ascending without duplicates; got "
                         f"{arr[bad]!r} before {arr[bad + 1]!r}.")
    return arr


def _iv_data(x, spec: TestSpec | None) -> np.ndarray:
    x = check_finite_array("x", x, min_ndim=1)
    if x.shape[0] < 1:
        raise ValueError(f"`x` must hold N >= 1 data sets along axis 0; got shape {x.shape}.")
    if spec is not None:
        from ..stats import check_calibratable, check_fits_design
        check_calibratable(spec)
        if x.ndim == 3:                  # (N, r, k): r runs of k-fold cv (5 x 2: 5x2cv)
            r, k = x.shape[1:]
            check_fits_design(spec, "cv", r, k, f"{r}x{k} (x of shape {x.shape})")
        elif x.ndim == 2:                # (N, n): n subsamples
            check_fits_design(spec, "subsampling", x.shape[1], 0,
                              f"subsampling:{x.shape[1]} (x of shape {x.shape})")
        else:
            raise ValueError(f"`x` must have shape (N, r, k) (r x k cv, 5x2cv) or (N, n) "
                             f"(subsampling) for test {spec.name!r}; got shape {x.shape}.")
    return x


def _pvalue_matrix(func, x, dfs, vectorized, is_spec):
    """p-values of shape (n_df, N)."""
    n = x.shape[0]
    shape = (dfs.size, n)
    if vectorized or is_spec:
        p = _pvalues_of(func(x, dfs[:, None]))
        return _check_pvalues(p, shape)
    p = np.empty(shape)
    for i in range(n):
        for j, df in enumerate(dfs):
            pij = _pvalues_of(func(x[i], df.item()))
            if pij.size != 1:
                raise ValueError("with `vectorized=False` a user test must return one "
                                 f"p-value per call; got shape {pij.shape}.")
            p[j, i] = pij.item()
    return _check_pvalues(p, shape)


# ---------------------------------------------------------------------------
# Public functions
# ---------------------------------------------------------------------------

def type1_error_curve(test, x, *, alphas, dfs=_DEFAULT_DFS, vectorized=True):
    """Share of null data sets on which a test rejects, per α and df.

    Parameters
    ----------
    test : str, TestSpec or callable
        A name from :data:`calibsim.stats.TESTS`, a :class:`~calibsim.stats.TestSpec`,
        or a researcher's own test ``f(x, df) -> (statistic, pvalue)`` (an object
        with a ``pvalue`` attribute, such as a ``TTestResult``, also works).
    x : array_like of shape (N, r, k) or (N, n)
        N >= 1 data sets on which the null hypothesis holds: accuracy
        differences (in [0, 1] units) of r runs x k folds of cv (schemes
        ``"cv"`` and ``"kfold"``) or n subsampling runs (``"subsampling"``).
        For a user callable any shape (N, ...) is passed through.
    alphas : float or sequence of float
        Significance levels in (0, 1). A test rejects when p <= α.
    dfs : 1-D array_like, default ``np.arange(2, 101)``
        Positive degrees of freedom, sorted ascending, unique.
    vectorized : bool, default True
        Only for a user callable. True: called once as ``f(x, dfs[:, None])``
        with x of shape (N, ...) and must return p-values of shape (n_df, N).
        False: called as ``f(x[i], df)`` for every data set i and scalar df,
        returning one p-value each (slow; for tests that cannot broadcast).

    Returns
    -------
    ndarray of shape (n_alpha, n_df)
        Type I error (rejection rate) at each α (rows) and df (columns).

    Raises
    ------
    ValueError
        For invalid ``alphas``, ``dfs`` or ``x``, or if a user test returns
        p-values of the wrong shape or outside [0, 1].

    Examples
    --------
    >>> import numpy as np
    >>> from calibsim.calibration import type1_error_curve
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=(2000, 10, 10))          # i.i.d.: df = 99 is right
    >>> curve = type1_error_curve("use_all_data", x, alphas=[0.05], dfs=[10, 50, 99])
    >>> curve.shape
    (1, 3)
    >>> np.round(curve, 3)
    array([[0.   , 0.007, 0.058]])
    """
    spec, func, _ = _resolve_test(test)
    alphas = check_alpha("alphas", alphas)
    dfs = _iv_dfs(dfs)
    x = _iv_data(x, spec)
    _check_size(x, dfs, alphas, "type1_error_curve")
    p = _pvalue_matrix(func, x, dfs, vectorized, spec is not None)
    return _type1(p, alphas)


def _check_size(x, dfs, alphas, what):
    """The one memory estimate of a p-value matrix (n_df, N) and its rejection rates."""
    from .._validation import check_memory_estimate
    check_memory_estimate([(16.0 * x.shape[0] * dfs.size, "dfs", f"{dfs.size} values", 1),
                           (8.0 * x.shape[0] * dfs.size * alphas.size, "alphas",
                            f"{alphas.size} levels", 1)], what=what)


def _type1(p, alphas):
    """(n_df, N) p-values, (n_alpha,) -> (n_alpha, n_df) rejection rates."""
    return np.stack([np.mean(p <= a, axis=-1) for a in alphas])


def calibrated_df(dfs, type1, alpha):
    """The df whose Type I error is closest to, and not above, α.

    Among the dfs with ``type1 <= alpha`` take those with the largest Type I
    error (exact ties); of these return the largest df. Return 0 when no df
    has ``type1 <= alpha`` (the paper reports 0). Monotonicity of ``type1`` in
    df is not assumed; for Bouckaert's tests ``type1`` is non-decreasing in df
    and the rule gives the largest df with ``type1 <= alpha``.

    Parameters
    ----------
    dfs : 1-D array_like of shape (n_df,)
        Positive degrees of freedom, sorted ascending, unique.
    type1 : array_like of shape (n_df,) or (n_alpha, n_df)
        Type I error at each df (one row per α).
    alpha : float or array_like of shape (n_alpha,)
        Significance level(s) in (0, 1), one per row of ``type1``.

    Returns
    -------
    scalar or ndarray of shape (n_alpha,)
        Calibrated df (dtype of ``dfs``), 0 where no df qualifies. A scalar
        when ``type1`` is 1-D.

    Raises
    ------
    ValueError
        If ``type1`` holds NaN or values outside [0, 1], or its shape does not fit
        ``dfs`` and ``alpha``.

    Examples
    --------
    >>> from calibsim.calibration import calibrated_df
    >>> dfs = [2, 3, 4, 5, 6]
    >>> int(calibrated_df(dfs, [0.01, 0.03, 0.05, 0.05, 0.07], 0.05))   # tie -> 5
    5
    >>> int(calibrated_df(dfs, [0.01, 0.04, 0.02, 0.06, 0.03], 0.05))   # non-monotone
    3
    >>> int(calibrated_df(dfs, [0.06, 0.07, 0.08, 0.09, 0.10], 0.05))   # none
    0
    """
    dfs = _iv_dfs(dfs)
    check_real_dtype("type1", type1)
    t = np.asarray(type1, dtype=float)
    scalar = t.ndim == 1
    t = np.atleast_2d(t)
    if t.ndim != 2 or t.shape[-1] != dfs.size:
        raise ValueError(f"`type1` must have shape (n_df,) or (n_alpha, n_df) with "
                         f"n_df = {dfs.size}; got shape {np.shape(type1)}.")
    if np.any(np.isnan(t)):
        raise ValueError("`type1` must not contain NaN.")
    if np.any((t < 0) | (t > 1)):
        raise ValueError("`type1` must hold Type I errors (rejection rates) in [0, 1]; got "
                         f"{t[(t < 0) | (t > 1)][0]!r}.")
    alpha = check_alpha("alpha", alpha)
    if alpha.size != t.shape[0]:
        raise ValueError(f"`alpha` must give one level per row of `type1`; got "
                         f"{alpha.size} level(s) for {t.shape[0]} row(s).")
    # all rows at once (a bootstrap asks for hundreds): the largest Type I error <= α of
    # each row (closest to α from below; -inf where no df qualifies), then the largest
    # df that has it (dfs ascend, so the last one; ties -> largest df), else 0
    ok = t <= alpha[:, None]
    best = np.where(ok, t, -np.inf).max(axis=1, keepdims=True)
    hit = ok & (t == best)
    last = dfs.size - 1 - np.argmax(hit[:, ::-1], axis=1)
    out = np.where(hit.any(axis=1), dfs[last], 0).astype(np.result_type(dfs.dtype, np.int64))
    return out[0] if scalar else out


@dataclass(frozen=True)
class CalibrationResult:
    """Outcome of :func:`calibrate`.

    Attributes
    ----------
    test : str
        Registry name of the test, or the callable's ``__name__``.
    dfs : ndarray of shape (n_df,)
        Degrees of freedom tried.
    alphas : ndarray of shape (n_alpha,)
        Significance levels.
    type1 : ndarray of shape (n_alpha, n_df)
        Type I error at each α and df.
    calibrated_df : ndarray of shape (n_alpha,)
        Calibrated df per α; 0 means no df had Type I error <= α.
    type1_at_df : ndarray of shape (n_alpha,)
        Type I error at the calibrated df; NaN where the calibrated df is 0
        (the test cannot be calibrated at that α on this df grid).
    mc_se : ndarray of shape (n_alpha,)
        Monte Carlo standard error sqrt(p(1-p)/N) of ``type1_at_df``; NaN where
        the calibrated df is 0.
    ci_low, ci_high : ndarray of shape (n_alpha,)
        Exact Clopper–Pearson interval [2]_ for the Type I error at the
        calibrated df; NaN where the calibrated df is 0.
    n_datasets : int
        Number N of null data sets.
    confidence_level : float
        Level of the Clopper–Pearson interval.
    """

    test: str
    dfs: np.ndarray = field(repr=False)
    alphas: np.ndarray
    type1: np.ndarray = field(repr=False)
    calibrated_df: np.ndarray
    type1_at_df: np.ndarray
    mc_se: np.ndarray = field(repr=False)
    ci_low: np.ndarray = field(repr=False)
    ci_high: np.ndarray = field(repr=False)
    n_datasets: int
    confidence_level: float = 0.95

    def to_frame(self) -> pd.DataFrame:
        """Tidy table with one row per α.

        Columns: ``test, alpha, calibrated_df, type1, mc_se, ci_low, ci_high,
        n_datasets, confidence_level``.
        """
        n = self.alphas.size
        return pd.DataFrame({
            "test": [self.test] * n,
            "alpha": self.alphas,
            "calibrated_df": self.calibrated_df,
            "type1": self.type1_at_df,
            "mc_se": self.mc_se,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "n_datasets": [self.n_datasets] * n,
            "confidence_level": [self.confidence_level] * n,
        })


@fill_doc
def calibrate(test, x, *, alphas, dfs=_DEFAULT_DFS, confidence_level=0.95,
              vectorized=True):
    """Calibrate the degrees of freedom of a test on null data (Bouckaert 2003).

    Parameters
    ----------
    test : str, TestSpec or callable
        As in :func:`type1_error_curve`.
    x : array_like of shape (N, r, k) or (N, n)
        N >= 1 null data sets (accuracy differences), as in
        :func:`type1_error_curve`.
    alphas : float or sequence of float
        Significance levels in (0, 1).
    dfs : 1-D array_like, default ``np.arange(2, 101)``
        Candidate degrees of freedom, positive, sorted ascending, unique.
    confidence_level : float, default 0.95
        Level of the Clopper–Pearson interval for the Type I error.
    vectorized : bool, default True
        How a user callable is called (see :func:`type1_error_curve`).

    Returns
    -------
    CalibrationResult

    Notes
    -----
    The calibrated df follows :func:`calibrated_df`: closest to and not above
    α, ties to the largest df, 0 if none qualifies. There the Type I error, its
    standard error and interval are NaN.

    References
    ----------
    .. [1] {bouckaert2003}
    .. [2] Clopper, C. J. & Pearson, E. S. (1934). Biometrika 26, 404-413.
           doi:10.1093/biomet/26.4.404

    Examples
    --------
    >>> import numpy as np
    >>> from calibsim.calibration import calibrate
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=(2000, 10, 10))
    >>> res = calibrate("use_all_data", x, alphas=[0.05, 0.10], dfs=np.arange(2, 151))
    >>> res.to_frame()[["alpha", "calibrated_df", "type1"]].round(4)
       alpha  calibrated_df   type1
    0   0.05             92  0.0495
    1   0.10             95  0.0995
    """
    spec, func, name = _resolve_test(test)
    cl = check_probability("confidence_level", confidence_level)
    alphas = check_alpha("alphas", alphas)
    if alphas.size > MAX_ALPHAS:
        raise ValueError(f"`alphas` must hold at most {MAX_ALPHAS} significance levels; got "
                         f"{alphas.size:,}.")
    dfs = _iv_dfs(dfs)
    x = _iv_data(x, spec)
    _check_size(x, dfs, alphas, "calibrate")
    p = _pvalue_matrix(func, x, dfs, vectorized, spec is not None)
    return _calibration_result(name, p, dfs, alphas, cl)


#: Most significance levels one calibration takes.
MAX_ALPHAS = 1000

#: Most degrees of freedom one calibration grid takes (the shipped table's is 2..100).
MAX_DFS = 100_000


def _calibration_result(name, p, dfs, alphas, cl):
    """:func:`calibrate`'s result from the (checked) p-values ``p`` (n_df, N) at ``dfs``."""
    return _calibration_result_from_type1(name, _type1(p, alphas), dfs, alphas, cl, p.shape[-1])


def _calibration_result_from_type1(name, type1, dfs, alphas, cl, n):
    """:func:`calibrate`'s result from the rejection rates ``type1`` (n_alpha, n_df) of
    ``n`` data sets (the engine's calibrate analysis counts them block by block)."""
    cal = calibrated_df(dfs, type1, alphas)
    at = np.full(alphas.size, np.nan)
    se = np.full(alphas.size, np.nan)
    lo = np.full(alphas.size, np.nan)
    hi = np.full(alphas.size, np.nan)
    found = np.flatnonzero(cal != 0)
    for i in found:
        p = type1[i, np.flatnonzero(dfs == cal[i])[0]]
        at[i] = p
        se[i] = np.sqrt(p * (1 - p) / n)
    # Exact intervals of all levels in one call (one root search per distinct count).
    k = [int(round(at[i] * n)) for i in found]
    lo[found], hi[found] = _clopper_pearson_many(np.array(k, dtype=np.int64), n, cl)
    return CalibrationResult(name, dfs, alphas, type1, cal, at, se, lo, hi, n, cl)
