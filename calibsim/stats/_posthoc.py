"""Post-hoc procedures after Friedman's test: pairwise comparisons of average ranks.

All procedures start from the z statistics of average ranks,
:math:`z_{ij} = (R_i - R_j)/\\sqrt{L(L+1)/(6S)}`, and their unadjusted
two-sided normal p-values :math:`p_{ij}` (see
:func:`~calibsim.stats.rank_z_test`), and return adjusted p-values (APVs) as
in García & Herrera (2008, JMLR 9, 2677-2694): a pair is rejected at family-wise level
alpha iff its APV <= alpha. With the m = L(L-1)/2 pairwise p-values sorted,
:math:`p_{(1)} \\le \\dots \\le p_{(m)}`:

* Bonferroni-Dunn (vs. a control, L-1 pairs): ``min(1, (L-1) p)``.
* Nemenyi: the studentized-range p-value of :math:`\\sqrt 2 |z|` (consistent
  with Demšar's critical difference), or ``min(1, m p)`` (García & Herrera).
* Holm: :math:`\\min(1, \\max_{j \\le i} (m - j + 1) p_{(j)})`.
* Shaffer (static): :math:`\\min(1, \\max_{j \\le i} t_j p_{(j)})`, where t_j
  is the largest number of hypotheses that can be true given that j-1 are
  false, from Shaffer's set S(L) of possible numbers of true hypotheses.
* Bergmann-Hommel (dynamic): :math:`\\min(1, \\max\\{|I| \\min_{k\\in I} p_k :
  I \\text{ exhaustive}, (i,j) \\in I\\})`, where an exhaustive set is the set
  of within-block pairs of a partition of the L learners.

See each function for references (Demšar 2006; Holm 1979; Shaffer 1986;
Bergmann & Hommel 1988).
"""

from __future__ import annotations

import functools
import math

import numpy as np
from scipy import stats

from .._docstrings import fill, fill_doc
from .._validation import check_choice, check_int, check_probability
from ._classic import _iv_bool
from ._multiple import (MAX_LEARNERS, _RANK_SCORES, PairwiseRankResult, _iv_scores, _rank_se,
                        _rank_z, _ranks)

__all__ = ["BERGMANN_HOMMEL_MAX_LEARNERS", "bergmann_hommel_test", "bonferroni_dunn_test",
           "critical_difference", "holm_test", "nemenyi_test", "shaffer_test"]

#: Largest number of learners :func:`bergmann_hommel_test` accepts: it visits
#: all Bell(L) partitions; Bell(12) = 4213597 take about 1.5 s and 0.2 GB
#: peak memory, Bell(13) = 27644437 would need about 1.5 GB.
BERGMANN_HOMMEL_MAX_LEARNERS = 12


def _q_nemenyi(n_learners, alpha):
    """Studentized range quantile / sqrt(2) (Demšar's Table 5(a))."""
    return stats.studentized_range.ppf(1 - alpha, n_learners, np.inf) / np.sqrt(2.0)


@fill_doc
def critical_difference(n_learners, n_datasets, alpha=0.05):
    r"""Nemenyi's critical difference of average ranks.

    .. math:: CD = q_\alpha \sqrt{\frac{L(L+1)}{6S}}, \qquad
              q_\alpha = q^{\mathrm{range}}_{1-\alpha}(L, \infty)/\sqrt 2

    (Demšar 2006 [1]_, Sec. 3.2.2, Table 5(a)).

    Parameters
    ----------
    n_learners : int
        L >= 2.
    n_datasets : int
        S >= 2 (with one data set there is nothing to average ranks over, and
        Friedman's test refuses it too).
    alpha : float, default 0.05
        Family-wise level in (0, 1).

    Returns
    -------
    float
        CD in rank units.

    {references:demsar2006}

    Examples
    --------
    >>> from calibsim.stats import critical_difference
    >>> round(critical_difference(4, 14), 3)       # Demšar's example: 1.25
    1.254
    """
    L = check_int("n_learners", n_learners, min_value=2, max_value=MAX_LEARNERS)
    S = check_int("n_datasets", n_datasets, min_value=2, max_value=10**9)
    alpha = check_probability("alpha", alpha)
    return float(_q_nemenyi(L, alpha) * _rank_se(L, S))


# --- Shared steps ---

def _prepare(scores, higher_is_better, alpha):
    hib = _iv_bool("higher_is_better", higher_is_better)
    alpha = check_probability("alpha", alpha)
    x = _iv_scores(scores, min_datasets=2)      # as Friedman's test: ranks over data sets
    R = _ranks(x, hib).mean(axis=0)
    z, p = _rank_z(R, x.shape[0])
    return x, R, z, p, alpha


def _pairs(L):
    return np.triu_indices(L, k=1)


def _to_matrix(L, values, fill=1.0):
    out = np.full((L, L), np.nan)
    np.fill_diagonal(out, fill)
    i, j = _pairs(L)
    out[i, j] = out[j, i] = values
    return out


def _result(z, apv, alpha, R, p, method, cd=None):
    apv = np.clip(apv, 0.0, 1.0)
    reject = np.where(np.isnan(apv), False, apv <= alpha)
    np.fill_diagonal(reject, False)
    return PairwiseRankResult(z, apv, None, reject, alpha, R, p, cd, method)


def _stepdown(p, multipliers):
    """min(1, running max of multipliers[k] * p_(k)) in the original order."""
    order = np.argsort(p, kind="stable")
    adj = np.maximum.accumulate(np.asarray(multipliers, float) * p[order])
    out = np.empty_like(adj)
    out[order] = np.minimum(adj, 1.0)
    return out


@functools.cache
def _shaffer_set(k):
    """Shaffer's S(k): possible numbers of true hypotheses among the C(k,2) pairs.

    S(0) = S(1) = {0}; S(k) = union over j = 1..k of C(j,2) + S(k-j): the
    learners split into a block of j equal ones (C(j,2) true hypotheses) and
    k - j others. Built bottom-up with each set as the bits of one integer (bit s
    set when s is possible), so no recursion and no Python set per level.
    """
    bits = [1, 1]                                  # S(0) = S(1) = {0}
    for n in range(2, k + 1):
        acc = 0
        for j in range(1, n + 1):
            acc |= bits[n - j] << math.comb(j, 2)
        bits.append(acc)
    mask = bits[max(k, 0) if k <= 1 else k]
    return frozenset(i for i, b in enumerate(bin(mask)[:1:-1]) if b == "1")


def _shaffer_multipliers(L):
    """t_j = max{s in S(L): s <= m - j + 1}, j = 1..m."""
    m = math.comb(L, 2)
    possible = np.array(sorted(_shaffer_set(L)))
    limits = m - np.arange(1, m + 1) + 1
    return possible[np.searchsorted(possible, limits, side="right") - 1]


def _partitions(L):
    """All set partitions of L items as restricted-growth strings, (Bell(L), L) int8."""
    rows = np.zeros((1, 1), dtype=np.int8)
    mx = np.zeros(1, dtype=np.int8)
    for _ in range(1, L):
        counts = mx.astype(np.int64) + 2                  # a new item joins a block or opens one
        starts = np.cumsum(counts) - counts
        val = (np.arange(counts.sum()) - np.repeat(starts, counts)).astype(np.int8)
        rows = np.column_stack([np.repeat(rows, counts, axis=0), val])
        mx = np.maximum(np.repeat(mx, counts), val)
    rows.setflags(write=False)
    return rows


_partitions_cached = functools.cache(_partitions)   # small L only


def _bergmann_hommel_apv(p, L, chunk=20000):
    parts = _partitions_cached(L) if L <= 9 else _partitions(L)
    i, j = _pairs(L)
    apv = np.zeros(p.size)
    for s in range(0, parts.shape[0], chunk):
        block = parts[s:s + chunk]
        same = block[:, i] == block[:, j]                         # (n, m): pairs in I
        size = same.sum(axis=1)
        minp = np.where(same, p, np.inf).min(axis=1)
        v = np.where(size > 0, size * np.where(size > 0, minp, 0.0), 0.0)   # |I| min p
        apv = np.maximum(apv, np.max(np.where(same, v[:, None], 0.0), axis=0))
    return np.minimum(apv, 1.0)


# --- Public procedures ---

_RANK_PARAMETERS = fill("""
    Parameters
    ----------
    {rank_scores}
    alpha : float, default 0.05
        Family-wise significance level in (0, 1) for ``reject``.
""", {"rank_scores": _RANK_SCORES})


@fill_doc(rank_parameters=_RANK_PARAMETERS)
def nemenyi_test(scores, *, higher_is_better=True, alpha=0.05, pvalue="studentized_range"):
    """Nemenyi's test: all pairs against the critical difference CD.

    Two learners differ iff :math:`|R_i - R_j| \\ge CD`
    (:func:`critical_difference`; Demšar 2006 [1]_).

    {rank_parameters}
    pvalue : {"studentized_range", "bonferroni"}, default "studentized_range"
        ``"studentized_range"``: APV = :math:`P(Q_{L,\\infty} > \\sqrt 2 |z|)`,
        so APV <= alpha iff :math:`|R_i - R_j| \\ge CD`. ``"bonferroni"``:
        APV = min(1, m p), García & Herrera's [2]_ Nemenyi APV (more
        conservative for L >= 3; the same for L = 2).

    Returns
    -------
    PairwiseRankResult
        With ``critical_difference``.

    {references:demsar2006,garcia_herrera2008}

    Examples
    --------
    >>> from calibsim.stats import nemenyi_test
    >>> res = nemenyi_test([[0.9, 0.8, 0.7]] * 6)
    >>> round(res.critical_difference, 3), res.pvalue.round(4)[0]
    (1.353, array([1.    , 0.1932, 0.0015]))
    """
    x, R, z, p, alpha = _prepare(scores, higher_is_better, alpha)
    check_choice("pvalue", pvalue, {"studentized_range", "bonferroni"})
    S, L = x.shape
    i, j = _pairs(L)
    if pvalue == "bonferroni":
        apv = p[i, j] * math.comb(L, 2)
    else:
        apv = stats.studentized_range.sf(np.sqrt(2.0) * np.abs(z[i, j]), L, np.inf)
        apv = np.where(z[i, j] == 0, 1.0, apv)
    cd = float(_q_nemenyi(L, alpha) * _rank_se(L, S))
    return _result(z, _to_matrix(L, apv), alpha, R, p, "nemenyi", cd)


@fill_doc(rank_parameters=_RANK_PARAMETERS)
def bonferroni_dunn_test(scores, *, control=0, higher_is_better=True, alpha=0.05):
    """Bonferroni-Dunn test: every learner against a control, APV = min(1, (L-1) p).

    Demšar (2006) [1]_, Sec. 3.2.2; the critical difference uses
    :math:`q_\\alpha = z_{1 - \\alpha/(2(L-1))}` (Demšar's Table 5(b)).

    {rank_parameters}
    control : int, default 0
        Column index of the control learner.

    Returns
    -------
    PairwiseRankResult
        ``pvalue`` and ``reject`` are filled in the control's row and column
        only; other off-diagonal pairs are NaN (p) / False (reject).

    {references:demsar2006}

    Examples
    --------
    >>> from calibsim.stats import bonferroni_dunn_test
    >>> res = bonferroni_dunn_test([[0.9, 0.8, 0.7]] * 6, control=2)
    >>> res.pvalue.round(4)[2], round(res.critical_difference, 3)
    (array([0.0011, 0.1665, 1.    ]), 1.294)
    """
    x, R, z, p, alpha = _prepare(scores, higher_is_better, alpha)
    S, L = x.shape
    control = check_int("control", control, min_value=-L, max_value=L - 1) % L
    apv = np.full((L, L), np.nan)
    np.fill_diagonal(apv, 1.0)
    apv[control, :] = apv[:, control] = np.minimum(1.0, (L - 1) * p[control])
    apv[control, control] = 1.0
    cd = float(stats.norm.ppf(1 - alpha / (2 * (L - 1))) * _rank_se(L, S))
    return _result(z, apv, alpha, R, p, "bonferroni_dunn", cd)


@fill_doc(rank_parameters=_RANK_PARAMETERS)
def holm_test(scores, *, higher_is_better=True, alpha=0.05):
    """Holm's step-down procedure over all L(L-1)/2 pairs.

    APV of the i-th smallest p-value: :math:`\\min(1, \\max_{j \\le i}
    (m - j + 1) p_{(j)})` (Holm 1979; García & Herrera 2008 [1]_).

    {rank_parameters}

    Returns
    -------
    PairwiseRankResult

    {references:garcia_herrera2008}

    Examples
    --------
    >>> from calibsim.stats import holm_test
    >>> holm_test([[0.9, 0.8, 0.7]] * 6).pvalue.round(4)[0]
    array([1.    , 0.1665, 0.0016])
    """
    x, R, z, p, alpha = _prepare(scores, higher_is_better, alpha)
    L = x.shape[1]
    i, j = _pairs(L)
    m = i.size
    apv = _stepdown(p[i, j], np.arange(m, 0, -1))
    return _result(z, _to_matrix(L, apv), alpha, R, p, "holm")


@fill_doc(rank_parameters=_RANK_PARAMETERS)
def shaffer_test(scores, *, higher_is_better=True, alpha=0.05):
    """Shaffer's static procedure (S1) over all pairs.

    Like Holm's, with :math:`m - j + 1` replaced by :math:`t_j`, the largest
    number of hypotheses that can be true given that j - 1 are false,
    :math:`t_j = \\max\\{s \\in S(L): s \\le m - j + 1\\}` (Shaffer 1986 [1]_;
    García & Herrera 2008 [2]_). S(4) = {0, 1, 2, 3, 6}.

    {rank_parameters}

    Returns
    -------
    PairwiseRankResult

    References
    ----------
    .. [1] Shaffer, J. P. (1986). Modified sequentially rejective multiple
           test procedures. Journal of the American Statistical Association
           81(395), 826-831. doi:10.1080/01621459.1986.10478341
    .. [2] {garcia_herrera2008}

    Examples
    --------
    >>> from calibsim.stats import shaffer_test
    >>> shaffer_test([[0.9, 0.8, 0.7]] * 6).pvalue.round(4)[0]
    array([1.    , 0.0833, 0.0016])
    """
    x, R, z, p, alpha = _prepare(scores, higher_is_better, alpha)
    L = x.shape[1]
    i, j = _pairs(L)
    apv = _stepdown(p[i, j], _shaffer_multipliers(L))
    return _result(z, _to_matrix(L, apv), alpha, R, p, "shaffer")


@fill_doc(rank_parameters=_RANK_PARAMETERS)
def bergmann_hommel_test(scores, *, higher_is_better=True, alpha=0.05):
    """Bergmann-Hommel's dynamic procedure over all pairs.

    APV of pair (i, j): :math:`\\min(1, \\max\\{|I| \\min_{k \\in I} p_k\\})`
    over the exhaustive sets I containing (i, j) (Bergmann & Hommel 1988
    [1]_; García & Herrera 2008 [2]_). The exhaustive sets of pairwise
    equalities are the within-block pairs of the Bell(L) partitions of the
    learners, all of which are visited, so L is limited to
    ``BERGMANN_HOMMEL_MAX_LEARNERS`` = 12 (Bell(12) = 4213597 partitions,
    about 1.5 s; L = 10 takes under 0.1 s).

    {rank_parameters}

    Returns
    -------
    PairwiseRankResult

    Raises
    ------
    ValueError
        If there are more than 12 learners.

    References
    ----------
    .. [1] Bergmann, B. & Hommel, G. (1988). Improvements of general multiple
           test procedures for redundant systems of hypotheses. In Multiple
           Hypothesenprüfung, 100-115. doi:10.1007/978-3-642-52307-6_8
    .. [2] {garcia_herrera2008}

    Examples
    --------
    >>> from calibsim.stats import bergmann_hommel_test
    >>> bergmann_hommel_test([[0.9, 0.8, 0.7]] * 6).pvalue.round(4)[0]
    array([1.    , 0.0833, 0.0016])
    """
    x, R, z, p, alpha = _prepare(scores, higher_is_better, alpha)
    L = x.shape[1]
    if L > BERGMANN_HOMMEL_MAX_LEARNERS:
        raise ValueError(
            f"`bergmann_hommel_test` handles at most {BERGMANN_HOMMEL_MAX_LEARNERS} learners "
            f"(it enumerates all Bell(L) partitions); got L = {L}. Use `shaffer_test` "
            "or `holm_test` instead.")
    i, j = _pairs(L)
    apv = _bergmann_hommel_apv(p[i, j], L)
    return _result(z, _to_matrix(L, apv), alpha, R, p, "bergmann_hommel")

