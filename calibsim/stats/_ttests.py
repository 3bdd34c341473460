"""Paired t tests of Bouckaert (2003) with explicit degrees of freedom.

Every test has the form ``Z = m / sqrt(sigma^2 / (df + 1))`` compared with
Student's t with ``df`` degrees of freedom, except the averaged-T tests (an
average of per-run or per-fold statistics) and the corrected tests
(``Z = m / sqrt((1/(df + 1) + n2/n1) sigma^2)``); see Table 1 of [1]_, restated with df
explicit in :func:`repeated_cv_ttest`. ``df`` enters the statistic *and* the
reference distribution, so calibrating ``df`` rescales the statistic.

All tests are vectorised over the leading dimensions of ``x`` and over ``df``:
the df-free part (``m / sigma``) is computed once and then broadcast against
``df``.

{references:bouckaert2003}
"""

from __future__ import annotations

import numbers

import numpy as np
from scipy import special

from .._docstrings import fill, fill_doc
from .._validation import check_real_dtype, check_choice, check_finite_array
from ._results import TTestResult

__doc__ = fill(__doc__)

__all__ = ["CV_METHODS", "repeated_cv_ttest", "default_cv_df"]

ALTERNATIVES = ("two-sided", "greater", "less")

#: The ten tests of Table 1 of Bouckaert (2003), in the table's order of kinds.
CV_METHODS = (
    "use_all_data",
    "folds",
    "folds_averaged_var",
    "folds_averaged_t",
    "runs",
    "runs_averaged_var",
    "runs_averaged_t",
    "sorted_runs",
    "sorted_runs_averaged_var",
    "sorted_runs_averaged_t",
)

_AVERAGED_T = ("folds_averaged_t", "runs_averaged_t", "sorted_runs_averaged_t")


def default_cv_df(method: str, n_runs: int, n_folds: int) -> int:
    """Textbook df of a Table-1 test for ``n_runs`` runs of ``n_folds``-fold cv.

    ``kr - 1`` for use all data; ``r - 1`` for folds, folds averaged var and
    runs/sorted runs averaged T (r runs per fold); ``k - 1`` for runs, runs
    averaged var, sorted runs, sorted runs averaged var and folds averaged T
    (k folds per run).
    """
    r, k = n_runs, n_folds
    return {
        "use_all_data": k * r - 1,
        "folds": r - 1,
        "folds_averaged_var": r - 1,
        "folds_averaged_t": k - 1,
        "runs": k - 1,
        "runs_averaged_var": k - 1,
        "runs_averaged_t": r - 1,
        "sorted_runs": k - 1,
        "sorted_runs_averaged_var": k - 1,
        "sorted_runs_averaged_t": r - 1,
    }[method]


# ---------------------------------------------------------------------------
# Input validation
# ---------------------------------------------------------------------------

def _iv_alternative(alternative) -> str:
    return check_choice("alternative", alternative, ALTERNATIVES)


def _iv_cv_x(x, min_runs: int = 2) -> np.ndarray:
    """(..., r, k) finite float array with r >= ``min_runs`` and k >= 2."""
    x = check_finite_array("x", x)
    if x.ndim < 2 or x.shape[-2] < min_runs or x.shape[-1] < 2:
        raise ValueError(f"`x` must have shape (..., r, k) with r >= {min_runs} runs and "
                         f"k >= 2 folds; got shape {x.shape}.")
    return x


def _iv_1d_x(x, what: str) -> np.ndarray:
    """(..., n) finite float array with n >= 2."""
    x = check_finite_array("x", x)
    if x.ndim < 1 or x.shape[-1] < 2:
        raise ValueError(f"`x` must have shape (..., {what}) with {what} >= 2; "
                         f"got shape {x.shape}.")
    return x


def _iv_df(df, default: float, lead_shape: tuple, *, allow_inf: bool = False
           ) -> float | np.ndarray:
    """Return df as a positive finite float or a float array broadcastable to
    ``lead_shape``; ``allow_inf`` also admits ``inf`` (the corrected tests, whose
    statistic has the normal limit ``m / sqrt(ratio · s^2)`` as df grows)."""
    if df is None:
        return float(default)
    if isinstance(df, bool):
        raise TypeError(f"`df` must be a positive number or array; got {df!r}.")
    check_real_dtype("df", df)
    try:
        arr = np.asarray(df, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"`df` must be a positive number or array of positive "
                        f"numbers; got {df!r}.") from exc
    if arr.size == 0:
        raise ValueError("`df` must not be empty; got an array of shape "
                         f"{arr.shape}.")
    bad = ~((np.isfinite(arr) | (allow_inf & (arr == np.inf))) & (arr > 0))
    if bad.any():
        rule = ("positive (df > 0; inf for the normal limit)" if allow_inf
                else "positive and finite (df > 0)")
        raise ValueError(f"`df` must be {rule}; got {arr[bad].flat[0]!r}.")
    if arr.ndim == 0:
        return float(arr)
    try:
        np.broadcast_shapes(arr.shape, lead_shape)
    except ValueError:
        raise ValueError(f"`df` of shape {arr.shape} does not broadcast against "
                         f"the leading dimensions {lead_shape} of `x`.") from None
    return arr


def _iv_ratio(test_train_ratio) -> float:
    if isinstance(test_train_ratio, bool) or not isinstance(test_train_ratio, numbers.Real):
        raise TypeError("`test_train_ratio` must be a real number n2/n1 >= 0; "
                        f"got {test_train_ratio!r}.")
    value = float(test_train_ratio)
    if not (np.isfinite(value) and value >= 0):
        raise ValueError("`test_train_ratio` must be a finite number n2/n1 >= 0 "
                         f"(0 means uncorrected); got {test_train_ratio!r}.")
    return value


# ---------------------------------------------------------------------------
# Shared numerical steps
# ---------------------------------------------------------------------------

def _pvalue_t(t, df, alternative: str):
    """p-value of statistic ``t`` against Student's t with ``df`` df.

    Two-sided p = 2·P(T > |t|), capped at 1; ``"greater"``: P(T > t);
    ``"less"``: P(T < t). ``t = ±inf`` gives 0 (or 1 in the other tail).
    """
    t = np.asarray(t, dtype=float)
    # scipy.special.stdtr(df, x) = P(T <= x) is what scipy.stats.t.sf calls
    # (sf(t) = stdtr(df, -t)), without the distribution object's argument handling.
    if alternative == "two-sided":
        p = np.minimum(2.0 * special.stdtr(df, -np.abs(t)), 1.0)
    elif alternative == "greater":
        p = special.stdtr(df, -t)
    else:
        p = special.stdtr(df, t)
    return np.asarray(p, dtype=float)


def _zero_tol(x: np.ndarray, axes: tuple) -> np.ndarray:
    """Floating-point resolution below which a standard deviation or mean of
    the values of ``x`` along ``axes`` is treated as exactly zero.

    Equal values rarely give an exactly-zero sample variance in floating point
    (e.g. the mean of 100 copies of 0.1 is not exactly 0.1), so we use
    ``4 · n · eps · max|x|`` with ``n`` the number of values along ``axes``.
    """
    n = int(np.prod([x.shape[a] for a in axes]))
    return 4.0 * n * np.finfo(float).eps * np.max(np.abs(x), axis=axes)


def _ratio(m, sd, tol):
    """m / sd with the zero-variance rule.

    Returns ``(u, undefined)``: where ``sd <= tol``, ``u = 0`` if ``|m| <= tol``
    (``undefined`` is True there: 0/0) and ``u = sign(m)·inf`` otherwise.
    """
    zero_sd = sd <= tol
    zero_m = np.abs(m) <= tol
    with np.errstate(divide="ignore", invalid="ignore"):
        u = np.where(zero_sd, np.where(zero_m, 0.0, np.sign(m) * np.inf), m / sd)
    return u, zero_sd & zero_m


class _AtDF:
    """The df-dependent last step of a t test, given its df-free parts.

    ``z(df) = u / sqrt(1/(df + 1) (+ ratio))``, or ``sqrt(df + 1) · u`` for the
    averaged-T tests; p from Student's t with df, and p = 1 where ``undefined``
    (0/0). Calling it with another df gives the p-values the test would give
    with that df, bit for bit (the test itself ends with this very code), without
    going through the data again: calibration asks a test for many df.
    """

    def __init__(self, u, undefined, alternative, ratio=None, averaged=False):
        self.u, self.undefined, self.alternative = u, undefined, alternative
        self.ratio, self.averaged = ratio, averaged

    def statistic(self, df_arr):
        if self.averaged:
            return np.sqrt(df_arr + 1.0) * self.u
        c = 1.0 / (df_arr + 1.0)
        if self.ratio is not None:
            c = c + self.ratio
        return self.u / np.sqrt(c)                     # broadcasts (df) x (lead)

    def pvalue(self, z, df_arr):
        p = _pvalue_t(z, df_arr, self.alternative)
        return np.where(self.undefined, 1.0, p)        # 0/0: no evidence at all

    def take(self, idx):
        """The step of the data sets ``idx`` (an index into the first axis) alone."""
        return _AtDF(self.u[idx], self.undefined[idx], self.alternative, self.ratio,
                     self.averaged)

    @classmethod
    def concatenate(cls, steps):
        """The step of consecutive blocks of data sets, from the steps of each block."""
        first = steps[0]
        for s in steps[1:]:
            if (s.alternative, s.averaged) != (first.alternative, first.averaged) or not (
                    s.ratio is first.ratio or np.array_equal(s.ratio, first.ratio)):
                raise ValueError("cannot concatenate the steps of different tests.")
        return cls(np.concatenate([s.u for s in steps]),
                   np.concatenate([s.undefined for s in steps]), first.alternative,
                   first.ratio, first.averaged)

    def __call__(self, df):
        """p-values at ``df`` (broadcast against the data sets' shape)."""
        df_arr = np.asarray(df, dtype=float)
        return self.pvalue(self.statistic(df_arr), df_arr)


def _finish(u, m, sd, undefined, df, alternative, method, ratio=None):
    """Broadcast the df-free parts against df and wrap a :class:`TTestResult`.

    ``Z = u / sqrt(c)`` and ``stderr = sd · sqrt(c)`` with
    ``c = 1/(df + 1) (+ ratio)``; ``u = m / sd`` (zero-variance rule applied).
    """
    df_arr = np.asarray(df, dtype=float)
    at = _AtDF(u, undefined, alternative, ratio=ratio)
    z = at.statistic(df_arr)
    p = at.pvalue(z, df_arr)
    c = 1.0 / (df_arr + 1.0)
    if ratio is not None:
        c = c + ratio
    stderr = np.broadcast_to(sd * np.sqrt(c), z.shape)
    est = np.broadcast_to(m, z.shape)
    df_out = float(df_arr) if df_arr.ndim == 0 else np.broadcast_to(df_arr, z.shape)
    return TTestResult(z[()], p[()], df_out, _estimate=est[()], _stderr=stderr[()],
                       _alternative=alternative, _method=method, _at_df=at)


def _finish_averaged(comp_m, comp_sd, tol, m, df, alternative, method):
    """Averaged-T statistic Z = sqrt(df + 1) · mean_g(m_g / sd_g) over the components g
    whose variance is not zero.

    A component with zero variance (a fold whose difference is the same in every run, or
    a run whose folds all agree) is left out of the average: its ratio is 0/0 or ±inf,
    and one such component would otherwise decide the verdict alone. When every
    component has zero variance, Z is ±inf with the sign of the overall mean m, or 0
    with p = 1 when m is 0 as well.
    """
    zero = comp_sd <= tol[..., None]
    n_kept = np.sum(~zero, axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = np.where(zero, 0.0, comp_m / np.where(zero, 1.0, comp_sd))
        u_kept = np.sum(ratios, axis=-1) / np.maximum(n_kept, 1)
    all_zero = n_kept == 0
    zero_m = np.abs(m) <= tol
    u = np.where(all_zero, np.where(zero_m, 0.0, np.where(m > 0, np.inf, -np.inf)), u_kept)
    undefined = all_zero & zero_m
    df_arr = np.asarray(df, dtype=float)
    at = _AtDF(u, undefined, alternative, averaged=True)
    z = at.statistic(df_arr)
    p = at.pvalue(z, df_arr)
    est = np.broadcast_to(m, z.shape)
    df_out = float(df_arr) if df_arr.ndim == 0 else np.broadcast_to(df_arr, z.shape)
    return TTestResult(z[()], p[()], df_out, _estimate=est[()],
                       _stderr=np.full(z.shape, np.nan)[()],
                       _alternative=alternative, _method=method, _at_df=at)


def _sd(a, axis):
    return np.sqrt(np.var(a, axis=axis, ddof=1))


# ---------------------------------------------------------------------------
# Public tests
# ---------------------------------------------------------------------------

@fill_doc
def repeated_cv_ttest(x, *, method="use_all_data", df=None, alternative="two-sided"):
    r"""Bouckaert's (2003) t tests on r runs of k-fold cross-validation.

    Implements the ten tests of Table 1 of [1]_ with the degrees of freedom
    explicit: ``Z = m / sqrt(sigma^2 / (df + 1))`` compared with Student's t
    with ``df`` degrees of freedom, where m is the mean of all k·r differences
    and sigma^2 depends on ``method`` (see Notes). The averaged-T tests average
    per-run (or per-fold) statistics instead.

    Parameters
    ----------
    x : array_like of shape (..., r, k)
        Differences in accuracy (accuracy of A minus accuracy of B, each in
        [0, 1]) on fold i (last axis, k >= 2 folds) of run j (second-to-last
        axis, r >= 2 runs). Leading dimensions are independent data sets.
    method : str, default "use_all_data"
        One of ``"use_all_data"``, ``"folds"``, ``"folds_averaged_var"``,
        ``"folds_averaged_t"``, ``"runs"``, ``"runs_averaged_var"``,
        ``"runs_averaged_t"``, ``"sorted_runs"``, ``"sorted_runs_averaged_var"``,
        ``"sorted_runs_averaged_t"``.
    df : None, float or array_like, optional
        Degrees of freedom (> 0, need not be an integer), used in the statistic
        and in the reference t distribution. An array must broadcast against
        the leading dimensions ``x.shape[:-2]``; e.g. ``x`` of shape
        (1000, 10, 10) and ``df`` of shape (99, 1) give results of shape
        (99, 1000). None means the textbook default (Notes).
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        ``"greater"``: the alternative is that A is more accurate than B.

    Returns
    -------
    TTestResult
        ``statistic``, ``pvalue`` and ``df`` of shape
        ``broadcast(df.shape, x.shape[:-2])``. ``confidence_interval()`` gives
        the interval for m (it raises for the averaged-T tests).

    Notes
    -----
    With ``x_.j`` the mean of run j, ``sigma^2_.j`` its variance over the k folds
    (ddof 1), ``x_i.`` the mean of fold i over the r runs and ``sigma^2_i.`` its
    variance over runs, and "sorted" meaning that each run's k values are
    sorted ascending before forming fold i (Table 1 of [1]_):

    ========================  ================================  ========
    method                    sigma^2                           default df
    ========================  ================================  ========
    use_all_data              var of all kr values              kr - 1
    folds                     ``var_j(x_.j)``                   r - 1
    folds_averaged_var        mean_j sigma^2_.j                 r - 1
    runs                      ``var_i(x_i.)``                   k - 1
    runs_averaged_var         mean_i sigma^2_i.                 k - 1
    sorted_runs               as runs, on sorted runs           k - 1
    sorted_runs_averaged_var  as runs_averaged_var, sorted      k - 1
    ========================  ================================  ========

    Averaged-T tests: ``folds_averaged_t`` is
    ``Z = (1/r) sum_j x_.j / sqrt(sigma^2_.j / (df + 1))`` with default
    df = k - 1 (each run's statistic rests on k folds); ``runs_averaged_t`` is
    ``Z = (1/k) sum_i x_i. / sqrt(sigma^2_i. / (df + 1))`` with default
    df = r - 1 (each fold's statistic rests on r runs); ``sorted_runs_averaged_t``
    is the same on sorted runs, default df = r - 1.

    Zero variance: a variance estimate within floating-point resolution of 0
    (sd <= 4·n·eps·max|x|) counts as 0. Then the statistic is 0 with p = 1
    if m is 0 as well, and ±inf with p = 0 (two-sided) otherwise, as Weka's
    ``PairedCorrectedTTester``. An averaged-T test leaves its zero-variance
    components (a fold constant across runs, a run constant across folds) out of
    the average of per-component statistics, so that one such component cannot
    make the statistic ±inf whatever the other components say (before calibsim
    0.2 it contributed ±inf: at r = 5 runs, 6.5% of the Figure 2 null data sets
    had a sorted fold column constant across runs and rejected at every df); if
    every component has zero variance the statistic is ±inf with the sign of m,
    or 0 when m is 0. In the undefined (0/0) cases p = 1 for every
    ``alternative``.

    {references:bouckaert2003}

    Examples
    --------
    >>> import numpy as np
    >>> from calibsim.stats import repeated_cv_ttest
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(0.01, 0.05, size=(10, 10))       # 10 runs x 10 folds
    >>> res = repeated_cv_ttest(x)                      # use all data, df = 99
    >>> float(res.df)
    99.0
    >>> res = repeated_cv_ttest(x, df=10)               # Bouckaert's calibrated df
    >>> round(float(res.statistic), 3), round(float(res.pvalue), 3)
    (0.964, 0.358)
    >>> ci = res.confidence_interval()
    >>> bool(ci.low < 0 < ci.high)
    True

    Vectorised over data sets and df:

    >>> xs = rng.normal(size=(1000, 10, 10))
    >>> repeated_cv_ttest(xs, method="runs", df=np.arange(2, 101)[:, None]).pvalue.shape
    (99, 1000)
    """
    method = check_choice("method", method, CV_METHODS)
    alternative = _iv_alternative(alternative)
    x = _iv_cv_x(x)
    r, k = x.shape[-2:]
    df = _iv_df(df, default_cv_df(method, r, k), x.shape[:-2])

    m = np.mean(x, axis=(-2, -1))
    tol = _zero_tol(x, (-2, -1))
    if method.startswith("sorted_"):
        x = np.sort(x, axis=-1)           # sort each run's k values ascending
        base = method[len("sorted_"):]
    else:
        base = method

    if base == "folds_averaged_t":       # per-run statistics over k folds
        return _finish_averaged(np.mean(x, axis=-1), _sd(x, -1), tol, m, df,
                                alternative, method)
    if base == "runs_averaged_t":        # per-fold statistics over r runs
        return _finish_averaged(np.mean(x, axis=-2), _sd(x, -2), tol, m, df,
                                alternative, method)

    if base == "use_all_data":
        sd = np.sqrt(np.var(x, axis=(-2, -1), ddof=1))
    elif base == "folds":
        sd = _sd(np.mean(x, axis=-1), -1)
    elif base == "folds_averaged_var":
        sd = np.sqrt(np.mean(np.var(x, axis=-1, ddof=1), axis=-1))
    elif base == "runs":
        sd = _sd(np.mean(x, axis=-2), -1)
    else:  # runs_averaged_var
        sd = np.sqrt(np.mean(np.var(x, axis=-2, ddof=1), axis=-1))
    u, undefined = _ratio(m, sd, tol)
    sd = np.where(sd <= tol, 0.0, sd)
    return _finish(u, m, sd, undefined, df, alternative, method)
