"""Friedman's test and the post-hoc procedures from average ranks alone.

Papers publish average ranks, not the score tables behind them (Ulaş et al. 2012,
Tables 5(a), 7(a), 8(a)), and Multi²Test's second pass starts from average ranks.
Friedman's statistic and the pairwise rank z tests depend on the scores only through
the average ranks R and the number of data sets S, so these functions take (R, S).
They broadcast over leading axes (``average_ranks`` of shape (..., L)), which the
simulation of Ulaş et al.'s Fig. 5 uses; on one table they equal
:func:`~calibsim.stats.friedman_test` (without tie correction) and the post-hoc
functions of :mod:`calibsim.stats._posthoc` (tested).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from .._docstrings import fill_doc
from .._validation import check_choice, check_finite_array, check_int, check_probability
from ._multiple import MAX_LEARNERS, FriedmanResult, PairwiseRankResult, _rank_se
from ._posthoc import (
    BERGMANN_HOMMEL_MAX_LEARNERS,
    _partitions,
    _partitions_cached,
    _q_nemenyi,
    _shaffer_multipliers,
)

__all__ = ["POSTHOC_METHODS", "friedman_from_ranks", "posthoc_from_ranks"]

#: Post-hoc procedures over all pairs that :func:`posthoc_from_ranks` runs.
POSTHOC_METHODS = ("bergmann_hommel", "shaffer", "holm", "nemenyi")


def _iv_ranks(average_ranks, n_datasets):
    try:
        shape = np.shape(average_ranks)        # the memory estimate before any value is read
    except ValueError:
        shape = ()
    if len(shape) >= 1 and shape[-1] > 0:
        from .._validation import check_memory_estimate
        n = float(np.prod(shape, dtype=float))
        check_memory_estimate([(40.0 * n * shape[-1] + 16.0 * n, "average_ranks", shape, 1)],
                              what="the pairwise statistics")
    R = check_finite_array("average_ranks", average_ranks, min_ndim=1)
    L = R.shape[-1]
    if L < 2:
        raise ValueError(f"`average_ranks` must hold at least 2 learners (last axis); "
                         f"got shape {R.shape}.")
    if L > MAX_LEARNERS:
        raise ValueError(f"`average_ranks` must hold at most {MAX_LEARNERS} learners (last "
                         f"axis), as the rank tests on scores: the procedures handle "
                         f"L(L-1)/2 pairs; got shape {R.shape}.")
    if (R < 1 - 1e-9).any() or (R > L + 1e-9).any():
        raise ValueError(f"`average_ranks` must lie in [1, {L}] (rank 1 = best); got values "
                         f"from {R.min()} to {R.max()}.")
    # the j best of L learners hold ranks 1..j on every data set, so their average ranks
    # sum to at least j(j+1)/2, and all L to exactly L(L+1)/2 (published ranks are rounded:
    # allow 0.05 per learner, rounding to one decimal)
    tol = 0.05 * L + 1e-9
    j = np.arange(1, L + 1)
    low = np.cumsum(np.sort(R, axis=-1), axis=-1)
    bad = (low < j * (j + 1) / 2.0 - tol).any(axis=-1) | (
        np.abs(low[..., -1] - L * (L + 1) / 2.0) > tol)
    if np.any(bad):
        row = R[np.unravel_index(int(np.argmax(bad)), bad.shape)] if R.ndim > 1 else R
        raise ValueError(f"`average_ranks` cannot be average ranks of {L} learners: they must "
                         f"sum to L(L+1)/2 = {L * (L + 1) / 2:g} and any j of them to at "
                         f"least j(j+1)/2; got {np.round(row, 4).tolist()[:10]}"
                         f"{' ...' if L > 10 else ''} (sum {float(row.sum()):g}).")
    S = check_int("n_datasets", n_datasets, min_value=2, max_value=10**9)
    return R, S, L


@fill_doc
def friedman_from_ranks(average_ranks, n_datasets):
    r"""Friedman's test and Iman-Davenport's F from average ranks.

    .. math:: \chi^2_F = \frac{12 S}{L(L+1)} \sum_j \Bigl(R_j - \frac{L+1}{2}\Bigr)^2,
              \qquad F_F = \frac{(S-1)\chi^2_F}{S(L-1) - \chi^2_F}

    with :math:`\chi^2_{L-1}` and :math:`F_{L-1,(L-1)(S-1)}` p-values. Demšar (2006
    [1]_, §3.2.2) and Ulaş et al. (2012 [2]_, §2.2, the equation after "The Friedman
    test statistic is") write the statistic as
    :math:`\frac{12 S}{L(L+1)}[\sum_j R_j^2 - L(L+1)^2/4]`. The two are the same
    number whenever the ranks sum to :math:`L(L+1)/2`, as exact average ranks do;
    the centred form computed here also stays right for published ranks rounded to
    two decimals, whose sum can be off: Ulaş et al.'s Tables 5(a) and 7(a) ranks
    sum to 36.01 instead of 36, giving 56.33 and 93.40 here and 56.90 and 93.97 by
    the uncentred form (all reject at any usual α; the paper prints no statistic,
    and its "We reject if :math:`X^2 < \chi^2_{\alpha,L-1}`" is a misprint for
    ">"). The uncentred form is what both papers print; the centred form is the
    same statistic written so that it does not depend on the ranks' sum (Friedman
    1937 writes it as a sum of squared deviations from the mean rank).

    Parameters
    ----------
    average_ranks : array_like of shape (..., n_learners)
        Average rank R_j of each learner over S data sets (rank 1 = best).
        Published ranks rounded to 2 decimals are accepted as they are.
    n_datasets : int
        S >= 2.

    Returns
    -------
    FriedmanResult
        Fields of shape (...) (floats for one table). :math:`\chi^2_F` is
        clipped to [0, S(L-1)], its range, against rounding in published ranks.

    {references:demsar2006,ulas2012}

    Examples
    --------
    Demšar's example (2006, §3.2.2): four learners on 14 data sets.

    >>> from calibsim.stats import friedman_from_ranks
    >>> res = friedman_from_ranks([3.143, 2.000, 2.893, 1.964], 14)
    >>> round(float(res.statistic), 2), round(float(res.iman_davenport), 2)
    (9.28, 3.69)
    """
    R, S, L = _iv_ranks(average_ranks, n_datasets)
    chi2 = 12.0 * S / (L * (L + 1)) * np.sum((R - (L + 1) / 2.0) ** 2, axis=-1)
    chi2 = np.clip(chi2, 0.0, S * (L - 1.0))
    df = float(L - 1)
    df_den = float((L - 1) * (S - 1))
    denom = S * (L - 1.0) - chi2
    with np.errstate(divide="ignore", invalid="ignore"):
        f = np.where(denom <= 0, np.inf, (S - 1) * chi2 / np.where(denom <= 0, 1.0, denom))
    pf = np.where(denom <= 0, 0.0, np.where(f > 0, stats.f.sf(f, df, df_den), 1.0))
    p = np.minimum(stats.chi2.sf(chi2, df), 1.0)
    scalar = R.ndim == 1
    cast = float if scalar else np.asarray
    return FriedmanResult(cast(chi2), cast(p), df, cast(f), cast(pf), df, df_den, R)


def _bergmann_hommel_batch(p, L):
    """Bergmann-Hommel APVs for p of shape (..., m): max over exhaustive sets I containing
    the pair of |I| min_{k in I} p_k (García & Herrera 2008)."""
    parts = _partitions_cached(L) if L <= 9 else _partitions(L)
    i, j = np.triu_indices(L, k=1)
    same = parts[:, i] == parts[:, j]                                  # (P, m)
    size = same.sum(axis=1)
    flat = p.reshape(-1, p.shape[-1])
    apv = np.zeros_like(flat)
    for s in range(0, same.shape[0], 4096):
        blk, sz = same[s:s + 4096], size[s:s + 4096]
        minp = np.where(blk[None], flat[:, None, :], np.inf).min(axis=-1)   # (B, P)
        v = np.where(sz > 0, sz * np.where(np.isfinite(minp), minp, 0.0), 0.0)
        apv = np.maximum(apv, np.where(blk[None], v[..., None], 0.0).max(axis=1))
    return np.minimum(apv, 1.0).reshape(p.shape)


def _stepdown_batch(p, multipliers):
    order = np.argsort(p, axis=-1, kind="stable")
    adj = np.maximum.accumulate(np.take_along_axis(p, order, -1) * multipliers, axis=-1)
    out = np.empty_like(adj)
    np.put_along_axis(out, order, np.minimum(adj, 1.0), -1)
    return out


@fill_doc
def posthoc_from_ranks(average_ranks, n_datasets, *, method="bergmann_hommel", alpha=0.05):
    r"""A post-hoc procedure over all pairs, from average ranks.

    The pairwise statistic is :math:`z_{ij} = (R_i - R_j)/\sqrt{L(L+1)/(6S)}` with
    two-sided normal p-values, adjusted as in :mod:`calibsim.stats._posthoc`
    (García & Herrera 2008 [1]_; Ulaş et al. 2012 [2]_, §2.3).

    Parameters
    ----------
    average_ranks : array_like of shape (..., n_learners)
        Average rank of each learner over S data sets (rank 1 = best).
    n_datasets : int
        S >= 2, as Friedman's test.
    method : {"bergmann_hommel", "shaffer", "holm", "nemenyi"}, default "bergmann_hommel"
        The procedure; Nemenyi's APV is the studentized-range p-value (as
        :func:`~calibsim.stats.nemenyi_test`). Bergmann-Hommel takes at most
        12 learners.
    alpha : float, default 0.05
        Family-wise level in (0, 1) for ``reject``.

    Returns
    -------
    PairwiseRankResult
        Matrices of shape (..., L, L); ``critical_difference`` for Nemenyi.

    Raises
    ------
    ValueError
        If ``average_ranks`` cannot be average ranks (outside [1, L], not summing to
        L(L+1)/2) or holds more than 1000 learners, ``n_datasets`` < 2, or
        Bergmann-Hommel gets more than 12 learners.

    {references:garcia_herrera2008,ulas2012}

    Examples
    --------
    Ulaş et al. (2012), Table 8(a): space complexity as cost, 38 data sets.

    >>> from calibsim.stats import posthoc_from_ranks
    >>> R = [2.50, 2.95, 2.71, 3.68, 5.71, 6.13, 5.32, 7.00]  # c45 mdt mlp lnp svl sv2 svr 5nn
    >>> res = posthoc_from_ranks(R, 38)
    >>> int(res.reject.sum()) // 2, bool(res.reject[6, 7]), bool(res.reject[4, 7])
    (17, True, False)
    """
    R, S, L = _iv_ranks(average_ranks, n_datasets)
    method = check_choice("method", method, set(POSTHOC_METHODS))
    alpha = check_probability("alpha", alpha)
    if method == "bergmann_hommel" and L > BERGMANN_HOMMEL_MAX_LEARNERS:
        raise ValueError(f"`method`='bergmann_hommel' handles at most "
                         f"{BERGMANN_HOMMEL_MAX_LEARNERS} learners; got L = {L}. Use "
                         "'shaffer' or 'holm'.")
    se = _rank_se(L, S)
    z = (R[..., :, None] - R[..., None, :]) / se
    i, j = np.triu_indices(L, k=1)
    zp = z[..., i, j]
    p = np.minimum(1.0, 2.0 * stats.norm.sf(np.abs(zp)))
    m = math.comb(L, 2)
    cd = None
    if method == "bergmann_hommel":
        apv = _bergmann_hommel_batch(p, L)
    elif method == "shaffer":
        apv = _stepdown_batch(p, _shaffer_multipliers(L))
    elif method == "holm":
        apv = _stepdown_batch(p, np.arange(m, 0, -1))
    else:
        apv = np.where(zp == 0, 1.0,
                       stats.studentized_range.sf(np.sqrt(2.0) * np.abs(zp), L, np.inf))
        cd = float(_q_nemenyi(L, alpha) * se)
    apv = np.clip(apv, 0.0, 1.0)
    full = np.ones(R.shape[:-1] + (L, L))
    full[..., i, j] = full[..., j, i] = apv
    unadj = np.ones_like(full)
    unadj[..., i, j] = unadj[..., j, i] = p
    reject = full <= alpha
    reject[..., np.arange(L), np.arange(L)] = False
    return PairwiseRankResult(z, full, None, reject, alpha, R, unadj, cd, method)
