"""The 5x2cv paired t test (Dietterich 1998), the combined 5x2cv F test (Alpaydin 1999)
and the sign test; vectorised, degenerate cases defined (see each function's Notes).

{references:dietterich1998,alpaydin1999}
"""

from __future__ import annotations


import numpy as np
from scipy import stats

from .._docstrings import fill, fill_doc
from .._validation import check_finite_array
from ._classic import (ClassicTestResult, _binom_half_pvalue, _iv_5x2, _iv_axis, _s2)
from ._results import TTestResult
from ._ttests import _iv_alternative, _iv_df, _pvalue_t, _ratio, _zero_tol

__doc__ = fill(__doc__)

__all__ = ["cv5x2_ttest", "cv5x2_ftest", "sign_test"]


@fill_doc
def cv5x2_ttest(x, *, df=None, alternative="two-sided"):
    r"""Dietterich's 5x2cv paired t test.

    .. math:: \tilde t = \frac{p_1^{(1)}}{\sqrt{\frac15 \sum_{i=1}^5 s_i^2}},
              \qquad s_i^2 = (p_i^{(1)} - \bar p_i)^2 + (p_i^{(2)} - \bar p_i)^2,

    with :math:`\bar p_i = (p_i^{(1)} + p_i^{(2)})/2`, compared with
    Student's t with ``df`` degrees of freedom (5 by default), as in
    Dietterich (1998 [1]_).

    Parameters
    ----------
    x : array_like of shape (..., 5, 2)
        Differences :math:`p_i^{(j)}` between the two learners, replication
        i (second-to-last axis, 5 runs of 2-fold cv) and fold j (last axis):
        accuracy of A minus accuracy of B (each in [0, 1]), or error rate of
        A minus error rate of B as in [1]_ (the sign matters only for
        one-sided alternatives).
    df : None, float or array_like, optional
        Degrees of freedom (> 0) of the reference t distribution; default 5.
        An array must broadcast against ``x.shape[:-2]``.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        ``"greater"``: the differences tend to be positive.

    Returns
    -------
    TTestResult
        ``statistic``, ``pvalue`` and ``df`` of shape
        ``broadcast(df.shape, x.shape[:-2])``. ``confidence_interval()``
        gives :math:`p_1^{(1)} \pm t_{df} \sqrt{\frac15\sum s_i^2}`.

    Notes
    -----
    Unlike Bouckaert's tests (:func:`repeated_cv_ttest`), ``df`` enters only
    as the df of the reference t distribution, not the statistic: this is
    Dietterich's form, in which the numerator is the single difference
    :math:`p_1^{(1)}` and the denominator has no :math:`1/\sqrt{n}` factor.

    Zero variance is handled as in the other t tests: if
    :math:`\sqrt{\frac15\sum s_i^2}` is within floating-point resolution of 0
    (<= 4·10·eps·max|x|), the statistic is 0 with p = 1 (every
    ``alternative``) when :math:`p_1^{(1)}` is 0 as well, and
    ``sign(p_1^(1))·inf`` with p = 0 (two-sided) otherwise.

    {references:dietterich1998}

    Examples
    --------
    >>> import numpy as np
    >>> from calibsim.stats import cv5x2_ttest
    >>> x = np.array([[0.04, 0.02], [0.01, 0.03], [0.02, 0.02],
    ...               [0.05, -0.01], [0.00, 0.02]])
    >>> res = cv5x2_ttest(x)
    >>> round(float(res.statistic), 4), round(float(res.pvalue), 4), res.df
    (1.8257, 0.1275, 5.0)
    """
    alternative = _iv_alternative(alternative)
    x = _iv_5x2(x)
    df = _iv_df(df, 5, x.shape[:-2])
    m = x[..., 0, 0]                                             # p_1^(1)
    sd = np.sqrt(np.mean(_s2(x), axis=-1))
    tol = _zero_tol(x, (-2, -1))
    t, undefined = _ratio(m, sd, tol)
    sd = np.where(sd <= tol, 0.0, sd)
    df_arr = np.asarray(df, dtype=float)
    t = np.broadcast_to(t, np.broadcast_shapes(t.shape, df_arr.shape))
    p = np.where(undefined, 1.0, _pvalue_t(t, df_arr, alternative))
    df_out = float(df_arr) if df_arr.ndim == 0 else np.broadcast_to(df_arr, t.shape)
    return TTestResult(np.array(t)[()], p[()], df_out,
                       _estimate=np.broadcast_to(m, t.shape)[()],
                       _stderr=np.broadcast_to(sd, t.shape)[()],
                       _alternative=alternative, _method="cv5x2")


@fill_doc
def cv5x2_ftest(x, *, df=None):
    r"""Alpaydin's combined 5x2cv F test.

    .. math:: f = \frac{\sum_{i=1}^5 \sum_{j=1}^2 (p_i^{(j)})^2}
                       {2 \sum_{i=1}^5 s_i^2}

    compared with the F distribution with (10, 5) degrees of freedom
    (Alpaydin 1999 [1]_), with :math:`s_i^2` as in :func:`cv5x2_ttest`. The
    test is two-sided by construction (it pools all ten squared differences).

    Parameters
    ----------
    x : array_like of shape (..., 5, 2)
        Differences :math:`p_i^{(j)}` of replication i (second-to-last axis)
        and fold j (last axis), in accuracy or error-rate units.
    df : None, float or array_like, optional
        Denominator df of the reference F distribution (> 0); default 5, the
        numerator df stays 10. An array must broadcast against
        ``x.shape[:-2]``. Only for calibration studies: Alpaydin's test is
        ``df=None``.

    Returns
    -------
    ClassicTestResult
        ``statistic`` f, ``pvalue`` ``P(F(10, df) > f)``, ``df`` the pair
        ``(10.0, df)``.

    Notes
    -----
    Zero variance (:math:`\sqrt{\frac15\sum s_i^2}` <= 4·10·eps·max|x|, as
    in :func:`cv5x2_ttest`): f = 0 with p = 1 if all ten differences are 0,
    and f = inf with p = 0 otherwise.

    {references:alpaydin1999,dietterich1998}

    Examples
    --------
    >>> import numpy as np
    >>> from calibsim.stats import cv5x2_ftest
    >>> x = np.array([[0.04, 0.02], [0.01, 0.03], [0.02, 0.02],
    ...               [0.05, -0.01], [0.00, 0.02]])
    >>> res = cv5x2_ftest(x)
    >>> round(float(res.statistic), 4), round(float(res.pvalue), 4), res.df
    (1.4167, 0.3678, (10.0, 5.0))
    """
    x = _iv_5x2(x)
    df = _iv_df(df, 5, x.shape[:-2])
    num = np.sum(x ** 2, axis=(-2, -1))
    s2 = _s2(x)
    den = 2.0 * np.sum(s2, axis=-1)
    sd = np.sqrt(np.mean(s2, axis=-1))
    zero_den = sd <= _zero_tol(x, (-2, -1))
    zero_num = num == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        f = np.where(zero_den, np.where(zero_num, 0.0, np.inf),
                     num / np.where(zero_den, 1.0, den))
    df_arr = np.asarray(df, dtype=float)
    f = np.broadcast_to(f, np.broadcast_shapes(f.shape, df_arr.shape))
    p = np.where(zero_den & zero_num, 1.0, stats.f.sf(f, 10, df_arr))
    p = np.clip(p, 0.0, 1.0)
    df2 = float(df_arr) if df_arr.ndim == 0 else np.broadcast_to(df_arr, f.shape)
    return ClassicTestResult(np.array(f)[()], p[()], (10.0, df2), _method="cv5x2_f")


@fill_doc
def sign_test(x, *, axis=-1, alternative="two-sided"):
    r"""Sign test: wins against losses of A over folds or over data sets.

    Counts wins :math:`w = \#\{x > 0\}` and losses :math:`l = \#\{x < 0\}`
    along ``axis``, drops ties (``x == 0``), and tests
    :math:`w \sim \mathrm{Bin}(w + l, 1/2)` exactly; Demšar (2006 [1]_) describes
    it for comparing two classifiers over several data sets.

    Parameters
    ----------
    x : array_like of shape (..., n)
        Differences (A minus B, e.g. accuracies in [0, 1]) on n >= 1 folds or
        data sets along ``axis``. Compared with 0 exactly: a tie is a
        difference of exactly 0.
    axis : int, default -1
        Axis along which to count.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        ``"greater"``: A wins more often than it loses (x tends positive).

    Returns
    -------
    ClassicTestResult
        ``statistic`` w (the number of wins, as float), ``df`` None; shape of
        ``x`` without ``axis``.

    Notes
    -----
    The p-value has the semantics of ``scipy.stats.binomtest(w, w + l, 0.5,
    alternative)``. If every value is a tie (w + l = 0) the statistic is 0
    and p = 1 for every ``alternative``. Ties are dropped, not split evenly
    between wins and losses as Demšar [1]_ suggests.

    {references:demsar2006}

    Examples
    --------
    >>> from calibsim.stats import sign_test
    >>> res = sign_test([0.02, 0.01, 0.0, 0.03, -0.01, 0.02, 0.04, 0.01, 0.02, 0.05])
    >>> float(res.statistic), round(float(res.pvalue), 4)
    (8.0, 0.0391)
    """
    alternative = _iv_alternative(alternative)
    x = check_finite_array("x", x, min_ndim=1)
    axis = _iv_axis(axis, x.ndim)
    if x.shape[axis] < 1:
        raise ValueError(f"`x` must hold at least 1 value along `axis` = {axis}; got "
                         f"shape {x.shape}.")
    wins = np.sum(x > 0, axis=axis).astype(np.float64)
    losses = np.sum(x < 0, axis=axis).astype(np.float64)
    p = _binom_half_pvalue(wins, wins + losses, alternative)
    return ClassicTestResult(wins[()], np.asarray(p)[()], None, _method="sign")
