"""The paired t tests on one set of splits: k-fold cv, resampled and the corrected ones.

Same form as :func:`calibsim.stats.repeated_cv_ttest` (df explicit in the statistic
and the reference t; vectorised over data sets and df), on one array of split
differences: a single k-fold cv run, n random subsamples (Dietterich 1998;
Nadeau & Bengio 2003) or an r x k repeated cv with the corrected variance
(Bouckaert & Frank 2004).
"""

from __future__ import annotations

import numpy as np

from .._docstrings import fill, fill_doc
from ._ttests import (_finish, _iv_1d_x, _iv_alternative, _iv_cv_x, _iv_df, _iv_ratio,
                      _ratio, _sd, _zero_tol)

__all__ = ["kfold_cv_ttest", "resampled_ttest", "corrected_resampled_ttest",
           "corrected_repeated_cv_ttest"]


def _one_sample(x, df, alternative, method, ratio=None):
    m = np.mean(x, axis=-1)
    sd = _sd(x, -1)
    tol = _zero_tol(x, (-1,))
    u, undefined = _ratio(m, sd, tol)
    sd = np.where(sd <= tol, 0.0, sd)
    return _finish(u, m, sd, undefined, df, alternative, method, ratio=ratio)


def _textbook_ttest(x, df, alternative, count, method):
    """The one-sample t test of the last axis's ``count`` differences at ``df`` (default
    count - 1): :func:`kfold_cv_ttest` and :func:`resampled_ttest`."""
    alternative = _iv_alternative(alternative)
    x = _iv_1d_x(x, count)
    df = _iv_df(df, x.shape[-1] - 1, x.shape[:-1])
    return _one_sample(x, df, alternative, method)


#: The alternative and Returns entries of the t tests on differences with explicit df ...
_ALTERNATIVE_RETURNS = """
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        ``"greater"``: the differences (A minus B) tend to be positive.

    Returns
    -------
    TTestResult
"""
#: ... and with the df entry of the textbook tests before them.
_DF_ALTERNATIVE_RETURNS = fill("""
    df : None, float or array_like, optional
        Degrees of freedom (> 0); default one less than the number of
        differences, ``x.shape[-1] - 1``. Arrays broadcast against
        ``x.shape[:-1]``.
    {alternative_returns}
""", {"alternative_returns": _ALTERNATIVE_RETURNS})


@fill_doc(df_alternative_returns=_DF_ALTERNATIVE_RETURNS)
def kfold_cv_ttest(x, *, df=None, alternative="two-sided"):
    r"""k-fold cross-validated paired t test with explicit df.

    ``Z = m / sqrt(s^2 / (df + 1))`` with m and s^2 the mean and unbiased
    variance of the k fold differences, against Student's t with ``df``
    degrees of freedom (Bouckaert 2003, §2.1 [1]_; Dietterich 1998).

    Parameters
    ----------
    x : array_like of shape (..., k)
        Differences in accuracy (A minus B, accuracies in [0, 1]) on the k >= 2
        folds of one k-fold cross-validation run.
    {df_alternative_returns}

    Notes
    -----
    At the default df this is the ordinary one-sample t test of the k
    differences. Zero variance is handled as in :func:`repeated_cv_ttest`.

    {references:bouckaert2003}

    Examples
    --------
    >>> from calibsim.stats import kfold_cv_ttest
    >>> res = kfold_cv_ttest([0.02, 0.0, 0.03, -0.01, 0.02, 0.01, 0.0, 0.04, 0.01, 0.02])
    >>> float(res.df), round(float(res.statistic), 3), round(float(res.pvalue), 4)
    (9.0, 2.941, 0.0165)
    """
    return _textbook_ttest(x, df, alternative, "k", "kfold_cv")


@fill_doc(df_alternative_returns=_DF_ALTERNATIVE_RETURNS)
def resampled_ttest(x, *, df=None, alternative="two-sided"):
    r"""Resampled (random subsampling) paired t test with explicit df.

    ``Z = m / sqrt(s^2 / (df + 1))`` over the n subsampling runs, against
    Student's t with ``df`` degrees of freedom (Bouckaert 2003, §2.2 [1]_).

    Parameters
    ----------
    x : array_like of shape (..., n)
        Differences in accuracy (A minus B, accuracies in [0, 1]) on n >= 2
        random train/test splits.
    {df_alternative_returns}

    Notes
    -----
    At the default df this is the ordinary one-sample t test, known to have a
    high Type I error because the splits overlap. Zero variance is handled as
    in :func:`repeated_cv_ttest`.

    {references:bouckaert2003}

    Examples
    --------
    >>> import numpy as np
    >>> from calibsim.stats import resampled_ttest
    >>> x = np.array([0.01, 0.03, -0.02, 0.02, 0.04, 0.00, 0.01, 0.02])
    >>> res = resampled_ttest(x)
    >>> float(res.df), round(float(res.statistic), 3), round(float(res.pvalue), 4)
    (7.0, 2.106, 0.0732)
    """
    return _textbook_ttest(x, df, alternative, "n", "resampling")


@fill_doc(alternative_returns=_ALTERNATIVE_RETURNS)
def corrected_resampled_ttest(x, *, test_train_ratio, df=None, alternative="two-sided"):
    r"""Nadeau–Bengio corrected resampled t test with explicit df.

    ``Z = m / sqrt((1/(df + 1) + n2/n1) · s^2)`` against Student's t with
    ``df`` degrees of freedom, m and s^2 being the mean and unbiased variance
    of the n differences (Bouckaert 2003, §2.2 [1]_; Nadeau & Bengio [2]_).

    Parameters
    ----------
    x : array_like of shape (..., n)
        Differences in accuracy (A minus B, accuracies in [0, 1]) on n >= 2
        random train/test splits.
    test_train_ratio : float
        n2/n1 >= 0, the number (or fraction) of test instances over training
        instances of each split; 1/9 for 90%/10% subsampling. 0 gives the
        uncorrected :func:`resampled_ttest`.
    df : None, float or array_like, optional
        Degrees of freedom (> 0); default n - 1, at which the statistic is
        exactly Nadeau & Bengio's ``m / sqrt((1/n + n2/n1) s^2)``. ``inf``
        (when n2/n1 > 0) is the normal limit ``m / sqrt(n2/n1 · s^2)``.
    {alternative_returns}

    Notes
    -----
    Zero variance is handled as in :func:`repeated_cv_ttest`.

    {references:bouckaert2003,nadeau_bengio2003}

    Examples
    --------
    >>> import numpy as np
    >>> from calibsim.stats import corrected_resampled_ttest
    >>> x = np.array([0.01, 0.03, -0.02, 0.02, 0.04, 0.00, 0.01, 0.02])
    >>> res = corrected_resampled_ttest(x, test_train_ratio=1/9)
    >>> round(float(res.statistic), 3), round(float(res.pvalue), 4)
    (1.532, 0.1693)
    """
    alternative = _iv_alternative(alternative)
    ratio = _iv_ratio(test_train_ratio)
    x = _iv_1d_x(x, "n")
    df = _iv_df(df, x.shape[-1] - 1, x.shape[:-1], allow_inf=ratio > 0)
    return _one_sample(x, df, alternative, "corrected_resampling", ratio=ratio)


@fill_doc(alternative_returns=_ALTERNATIVE_RETURNS)
def corrected_repeated_cv_ttest(x, *, test_train_ratio=None, df=None,
                                alternative="two-sided"):
    r"""Corrected repeated k-fold cv t test (Bouckaert & Frank 2004).

    Use-all-data mean m and variance s^2 of the k·r differences with the
    Nadeau–Bengio factor: ``Z = m / sqrt((1/(df + 1) + n2/n1) · s^2)``
    against Student's t with ``df`` degrees of freedom. At the default
    df = kr - 1 the factor is ``1/(kr) + n2/n1``, which is what Weka's
    ``PairedCorrectedTTester`` computes [1]_.

    Parameters
    ----------
    x : array_like of shape (..., r, k)
        Differences in accuracy (A minus B, accuracies in [0, 1]) on fold i
        (last axis, k >= 2) of run j (second-to-last axis, r >= 2).
    test_train_ratio : float, optional
        n2/n1 >= 0; default 1/(k - 1), the test/train ratio of k-fold cv.
    df : None, float or array_like, optional
        Degrees of freedom (> 0); default kr - 1. Arrays broadcast against
        ``x.shape[:-2]``. ``inf`` (when n2/n1 > 0) is the normal limit:
        ``Z = m / sqrt(n2/n1 · s^2)`` against the standard normal; Bouckaert's
        calibrated df reaches it where the correction alone already makes the
        test conservative.
    {alternative_returns}

    Notes
    -----
    Zero variance is handled as in :func:`repeated_cv_ttest` (Weka: sd = 0
    gives p = 1 when all differences are 0 and p = 0 otherwise).

    References
    ----------
    .. [1] Bouckaert, R. R. & Frank, E. (2004). Evaluating the replicability
           of significance tests for comparing learning algorithms. PAKDD 2004,
           LNCS 3056, 3-12. doi:10.1007/978-3-540-24775-3_3

    Examples
    --------
    >>> import numpy as np
    >>> from calibsim.stats import corrected_repeated_cv_ttest
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(0.01, 0.05, size=(10, 10))
    >>> res = corrected_repeated_cv_ttest(x)            # n2/n1 = 1/9, df = 99
    >>> float(res.df), round(float(res.statistic), 3), round(float(res.pvalue), 3)
    (99.0, 0.835, 0.406)
    """
    alternative = _iv_alternative(alternative)
    x = _iv_cv_x(x, min_runs=1)           # r = 1: the corrected k-fold cv t (B&F Table 3)
    r, k = x.shape[-2:]
    ratio = 1.0 / (k - 1) if test_train_ratio is None else _iv_ratio(test_train_ratio)
    df = _iv_df(df, k * r - 1, x.shape[:-2], allow_inf=ratio > 0)
    flat = x.reshape(*x.shape[:-2], r * k)
    return _one_sample(flat, df, alternative, "corrected_repeated_cv", ratio=ratio)
