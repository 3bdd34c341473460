"""Bayesian comparisons of two learners: the correlated Bayesian t test on one data set
and the Bayesian signed-rank test over data sets, with a region of practical
equivalence (ROPE).

Both give three posterior probabilities -- A worse beyond the ROPE ("left"), practically
equivalent ("rope"), A better beyond the ROPE ("right") -- and a decision at a
probability threshold. Differences are A minus B (accuracies in [0, 1]), so "right"
means A is better, as ``statistic > 0`` does in calibsim's t tests. ``baycomp``
(Benavoli et al.) computes the same posteriors with the opposite sign convention
(``y - x``); the tests in ``tests/stats/test_bayes.py`` check both against it.

References
----------
.. [1] Corani, G. & Benavoli, A. (2015). A Bayesian approach for comparing
       cross-validated algorithms on multiple data sets. Machine Learning 100,
       285-304. doi:10.1007/s10994-015-5486-z
.. [2] Benavoli, A., Corani, G., Mangili, F., Zaffalon, M. & Ruggeri, F. (2014).
       A Bayesian Wilcoxon signed-rank test based on the Dirichlet process.
       ICML 2014, PMLR 32(2), 1026-1034.
.. [3] Benavoli, A., Corani, G., Demšar, J. & Zaffalon, M. (2017). Time for a
       change: a tutorial for comparing multiple classifiers through Bayesian
       analysis. Journal of Machine Learning Research 18(77), 1-36.
.. [4] {nadeau_bengio2003}
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

from .._docstrings import fill, fill_doc
from .._validation import check_finite_array, check_probability, check_random_state

__doc__ = fill(__doc__)

__all__ = ["BayesianResult", "correlated_bayesian_ttest", "bayesian_signed_rank_test",
           "correlated_t_rho_threshold"]


@dataclass(frozen=True)
class BayesianResult:
    """Posterior probabilities of a Bayesian comparison of learners A and B.

    Attributes
    ----------
    p_left, p_rope, p_right : float or ndarray of shape (...,)
        P(A - B < -rope), P(|A - B| <= rope), P(A - B > rope); they sum to 1.
        With ``rope = 0``, ``p_rope`` is 0.
    decision : str or ndarray of str
        ``"right"`` (A better) if ``p_right >= threshold``, ``"left"`` (B better) if
        ``p_left >= threshold``, ``"rope"`` (practically equivalent) if
        ``p_rope >= threshold``, else ``"none"`` (no decision).
    threshold : float
        Posterior probability needed for a decision, in (0.5, 1).
    rope : float
        Half-width of the region of practical equivalence, in accuracy units.
    mean, scale, df : float or ndarray
        The posterior of the mean difference (correlated t test only): Student's t
        with location ``mean``, scale ``scale`` and ``df`` degrees of freedom; NaN for
        the signed-rank test.
    rho : float
        The correlation used (correlated t test only; NaN otherwise).
    method : str
    """

    p_left: float | np.ndarray
    p_rope: float | np.ndarray
    p_right: float | np.ndarray
    decision: str | np.ndarray
    threshold: float
    rope: float
    mean: float | np.ndarray = np.nan
    scale: float | np.ndarray = np.nan
    df: float | np.ndarray = np.nan
    rho: float = np.nan
    method: str = ""

    @property
    def pvalue(self):
        """``1 - max(p_left, p_right)``: a difference beyond the ROPE is declared exactly
        when this is ``<= 1 - threshold``, so calibsim's rejection-rate machinery reads
        Bayesian decisions as it reads p-values (the "decision rate")."""
        return 1.0 - np.maximum(self.p_left, self.p_right)

    def __str__(self) -> str:
        if np.ndim(self.p_left):
            return repr(self)
        words = {"right": "A is better beyond the ROPE", "left": "B is better beyond the ROPE",
                 "rope": "practically equivalent", "none": "no decision"}
        return (f"P(A worse) = {self.p_left:.4f}, P(ROPE) = {self.p_rope:.4f}, "
                f"P(A better) = {self.p_right:.4f} (rope {self.rope:g}); decision at "
                f"{self.threshold:g}: {words[str(self.decision)]}")


def _iv_common(rope, threshold):
    if isinstance(rope, bool) or not isinstance(rope, (int, float, np.integer, np.floating)) \
            or not np.isfinite(rope) or rope < 0:
        raise ValueError(f"`rope` must be a finite number >= 0 (accuracy units); got {rope!r}.")
    threshold = check_probability("threshold", threshold)
    if threshold <= 0.5:
        raise ValueError(f"`threshold` must be in (0.5, 1) so that at most one decision "
                         f"holds; got {threshold!r}.")
    return float(rope), threshold


def _decide(pl, pr, pe, threshold):
    out = np.full(np.shape(pl), "none", dtype="<U5")
    out[np.asarray(pe) >= threshold] = "rope"
    out[np.asarray(pl) >= threshold] = "left"
    out[np.asarray(pr) >= threshold] = "right"
    return out if out.ndim else str(out)


def _cast(v):
    return float(v) if np.ndim(v) == 0 else np.asarray(v, dtype=float)


@fill_doc
def correlated_bayesian_ttest(x, *, rope=0.0, rho=None, threshold=0.95) -> BayesianResult:
    r"""Correlated Bayesian t test on r × k cross-validation differences.

    The posterior of the mean difference is Student's t with n - 1 df (n = r·k),
    location m and scale :math:`\sqrt{(1/n + \rho/(1-\rho))\, s^2}` (Corani & Benavoli
    2015 [1]_, with Nadeau & Bengio's [4]_ correlation :math:`\rho = n_{test}/n_{total}`),
    m and s² being the mean and unbiased variance of the n differences.

    Parameters
    ----------
    x : array_like of shape (..., r, k)
        Differences in accuracy, A minus B (accuracies in [0, 1]), on fold i (last
        axis, k >= 2) of run j (r >= 1).
    rope : float, default 0
        Half-width of the region of practical equivalence, in accuracy units (0.01 =
        one percentage point).
    rho : float, optional
        Correlation between the differences, in [0, 1); default 1/k, the test share
        n_test/n_total of k-fold cv.
    threshold : float, default 0.95
        Posterior probability needed for a decision, in (0.5, 1).

    Returns
    -------
    BayesianResult
        Fields of shape ``x.shape[:-2]``. With zero variance the posterior is a point
        mass at m (probabilities 0 or 1, as ``baycomp`` does).

    Raises
    ------
    ValueError
        If ``x`` has fewer than 2 folds or non-finite values, or ``rope``, ``rho`` or
        ``threshold`` are out of range.

    References
    ----------
    .. [1] Corani, G. & Benavoli, A. (2015). A Bayesian approach for comparing
           cross-validated algorithms on multiple data sets. Machine Learning 100,
           285-304.
    .. [4] {nadeau_bengio2003}

    Examples
    --------
    >>> import numpy as np
    >>> from calibsim.stats import correlated_bayesian_ttest
    >>> x = np.random.default_rng(0).normal(0.02, 0.03, size=(10, 10))
    >>> res = correlated_bayesian_ttest(x, rope=0.01)
    >>> round(res.p_left, 4), round(res.p_rope, 4), round(res.p_right, 4), res.decision
    (0.0009, 0.1096, 0.8895, 'none')
    """
    rope, threshold = _iv_common(rope, threshold)
    x = check_finite_array("x", x)
    if x.ndim < 2 or x.shape[-1] < 2 or x.shape[-2] < 1:
        raise ValueError("`x` must be differences of shape (..., r, k) with r >= 1 runs "
                         f"and k >= 2 folds; got shape {x.shape}.")
    r, k = x.shape[-2:]
    if rho is None:
        rho = 1.0 / k
    if isinstance(rho, bool) or not isinstance(rho, (int, float, np.integer, np.floating)) \
            or not (0 <= rho < 1):
        raise ValueError(f"`rho` must be a number in [0, 1); got {rho!r}.")
    n = r * k
    flat = x.reshape(*x.shape[:-2], n)
    m = flat.mean(axis=-1)
    var = flat.var(axis=-1, ddof=1) * (1.0 / n + rho / (1.0 - rho))
    scale = np.sqrt(var)
    with np.errstate(divide="ignore", invalid="ignore"):
        safe = np.where(scale > 0, scale, 1.0)
        pl = stats.t.cdf((-rope - m) / safe, n - 1)
        pr = stats.t.sf((rope - m) / safe, n - 1)
    point = scale == 0
    pl = np.where(point, (m < -rope) + 0.0 if rope > 0 else (m < 0) + 0.5 * (m == 0), pl)
    pr = np.where(point, (m > rope) + 0.0 if rope > 0 else (m > 0) + 0.5 * (m == 0), pr)
    pe = np.clip(1.0 - pl - pr, 0.0, 1.0) if rope > 0 else np.zeros_like(pl)
    return BayesianResult(_cast(pl), _cast(pe), _cast(pr), _decide(pl, pr, pe, threshold),
                          threshold, rope, _cast(m), _cast(scale), float(n - 1), float(rho),
                          "correlated Bayesian t (Corani & Benavoli 2015)")


def correlated_t_rho_threshold(x, *, rope=0.0, threshold=0.95) -> np.ndarray:
    r"""The largest ρ at which the correlated Bayesian t test still declares a difference.

    For each data set the test declares "A better" or "B better" beyond the ROPE
    exactly when ρ < ρ*, with

    .. math:: \rho^* = c / (1 + c), \quad c = \frac{(|m| - \text{rope})^2}{q^2 s^2}
              - \frac{1}{n}, \quad q = t^{-1}_{n-1}(\text{threshold})

    (0 when c <= 0 or |m| <= rope: no ρ gives a decision). The decision rate at ρ on
    null data is the share of data sets with ρ* > ρ, so the calibrated ρ (decision
    rate = 1 - threshold) is an order statistic of ρ*, as the calibrated df is of the
    df thresholds (:func:`calibsim.calibration.continuous_calibration`).

    Parameters
    ----------
    x : array_like of shape (..., r, k)
        Differences, as for :func:`correlated_bayesian_ttest`.
    rope, threshold
        As for :func:`correlated_bayesian_ttest`.

    Returns
    -------
    ndarray of shape (...,)
        ρ* in [0, 1).

    Examples
    --------
    >>> import numpy as np
    >>> x = np.random.default_rng(0).normal(0.02, 0.03, size=(10, 10))
    >>> rs = correlated_t_rho_threshold(x)
    >>> from calibsim.stats import correlated_bayesian_ttest as cbt
    >>> cbt(x, rho=rs * 0.999).decision, cbt(x, rho=rs * 1.001).decision
    ('right', 'none')
    """
    rope, threshold = _iv_common(rope, threshold)
    x = check_finite_array("x", x)
    if x.ndim < 2 or x.shape[-1] < 2:
        raise ValueError(f"`x` must have shape (..., r, k) with k >= 2; got {x.shape}.")
    r, k = x.shape[-2:]
    n = r * k
    flat = x.reshape(*x.shape[:-2], n)
    m = np.abs(flat.mean(axis=-1)) - rope
    s2 = flat.var(axis=-1, ddof=1)
    q = stats.t.ppf(threshold, n - 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        c = np.where(s2 > 0, m ** 2 / (q ** 2 * s2), np.inf) - 1.0 / n
        rho = np.where((m > 0) & (c > 0), c / (1.0 + c), 0.0)
    return np.where(np.isinf(c) & (m > 0), np.nextafter(1.0, 0.0), rho)


def bayesian_signed_rank_test(x, *, rope=0.0, prior=0.5, threshold=0.95,
                              n_samples=50_000, random_state=None) -> BayesianResult:
    r"""Bayesian signed-rank test over data sets (Benavoli et al. 2014 [2]_).

    A Dirichlet process with a pseudo-observation at 0 of weight ``prior``; each
    posterior sample of weights w over the n + 1 points gives
    :math:`\theta_{right} = \sum_{i,j} w_i w_j [z_i + z_j > 2\,\text{rope}]` (half for
    ties), likewise ``left`` and ``rope``; the probabilities are the shares of samples
    in which each θ is the largest (Benavoli et al. 2017 [3]_, §4.2).

    Parameters
    ----------
    x : array_like of shape (n,)
        Mean differences, A minus B, on n >= 2 data sets.
    rope : float, default 0
    prior : float, default 0.5
        Weight of the pseudo-observation at 0.
    threshold : float, default 0.95
    n_samples : int, default 50000
        Monte Carlo samples of the Dirichlet weights (1 to 10**7).
    random_state : None, int or numpy.random.SeedSequence
        Seed of the samples (a ``numpy.random.Generator`` stream, so results differ
        from ``baycomp``'s ``RandomState`` draws by Monte Carlo error only).

    Returns
    -------
    BayesianResult
        Monte Carlo probabilities (standard error about sqrt(p(1-p)/n_samples)).

    Raises
    ------
    ValueError
        For fewer than 2 data sets, non-finite values, or parameters out of range.

    References
    ----------
    .. [2] Benavoli, A., Corani, G., Mangili, F., Zaffalon, M. & Ruggeri, F. (2014).
           A Bayesian Wilcoxon signed-rank test based on the Dirichlet process.
           ICML 2014, PMLR 32(2), 1026-1034.
    .. [3] Benavoli, A., Corani, G., Demšar, J. & Zaffalon, M. (2017). Time for a
           change: a tutorial for comparing multiple classifiers through Bayesian
           analysis. JMLR 18(77), 1-36.

    Examples
    --------
    >>> from calibsim.stats import bayesian_signed_rank_test
    >>> x = [0.02, 0.01, 0.03, -0.005, 0.015, 0.02, 0.0, 0.01]
    >>> res = bayesian_signed_rank_test(x, rope=0.005, random_state=0)
    >>> round(res.p_right, 2), res.decision
    (0.96, 'right')
    """
    rope, threshold = _iv_common(rope, threshold)
    z = check_finite_array("x", x)
    if z.ndim != 1 or z.size < 2:
        raise ValueError(f"`x` must be finite real differences on n >= 2 data sets, shape (n,); "
                         f"got shape {np.shape(x)}.")
    if isinstance(prior, bool) or not (isinstance(prior, (int, float)) and prior > 0):
        raise ValueError(f"`prior` must be a positive number; got {prior!r}.")
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) \
            or not 1 <= n_samples <= 10 ** 7:
        raise ValueError(f"`n_samples` must be an integer in [1, 10**7]; got {n_samples!r}.")
    rng = np.random.default_rng(check_random_state("random_state", random_state,
                                                   generator=True))
    d = np.concatenate([[0.0], z])
    sums = d[:, None] + d[None, :]
    def heav(a, t):
        return (a > t) + 0.5 * (a == t)
    above = heav(sums, 2 * rope)
    below = heav(-sums, 2 * rope)
    weights = np.ones(d.size)
    weights[0] = prior
    counts = np.zeros(3)
    for start in range(0, n_samples, 5000):
        w = rng.dirichlet(weights, min(5000, n_samples - start))
        # w·A·wᵀ per sample, through BLAS (11x the 3-operand einsum's naive loop)
        right = np.einsum("si,si->s", w @ above, w)
        left = np.einsum("si,si->s", w @ below, w)
        eq = 1.0 - left - right
        if rope > 0:
            winner = np.argmax(np.stack([left, eq, right], axis=1), axis=1)
        else:
            winner = np.where(right > left, 2, 0)
        counts += np.bincount(winner, minlength=3)
    pl, pe, pr = counts / n_samples
    return BayesianResult(float(pl), float(pe), float(pr), _decide(pl, pr, pe, threshold),
                          threshold, rope, method="Bayesian signed-rank (Benavoli et al. 2014)")
