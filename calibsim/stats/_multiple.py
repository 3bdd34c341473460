"""Tests over several data sets: Friedman's test, rank z tests, Wilcoxon, sign.

Every many-learner function takes ``scores`` of shape ``(n_datasets,
n_learners)`` (S data sets in rows, L learners in columns) and
``higher_is_better`` (True for accuracies, False for error rates). Learners
are ranked within each data set, rank 1 = best, ties getting the average of
the ranks they span (Demšar 2006, JMLR 7, 1-30). The post-hoc procedures are
in :mod:`calibsim.stats._posthoc`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

from .._docstrings import fill_doc
from .._validation import check_choice, check_finite_array, check_probability
from ._classic import ClassicTestResult, _iv_bool
from ._ttests import _iv_alternative

__all__ = ["FriedmanResult", "PairwiseRankResult", "average_ranks", "friedman_test",
           "rank_z_test", "sign_test_datasets", "wilcoxon_datasets"]


#: tie_correction -> the form of Friedman's statistic in words, for reports.
_FRIEDMAN_FORMS = {
    True: ("tie-corrected (divided by 1 − Σ(t³ − t)/(S L (L² − 1)) over groups of t tied "
           "learners, as scipy's friedmanchisquare and R's friedman.test)"),
    False: "without tie correction (Demšar 2006, Sec. 3.2.2)",
}


@dataclass(frozen=True)
class FriedmanResult:
    r"""Result of Friedman's test with the Iman-Davenport F statistic.

    Attributes
    ----------
    statistic, pvalue, df : float
        Friedman's :math:`\chi^2_F` (>= 0), ``P(chi2_df > statistic)``, ``L - 1``.
    iman_davenport, iman_davenport_pvalue : float
        :math:`F_F = (S-1)\chi^2_F / (S(L-1) - \chi^2_F)` (``inf`` when the
        rankings agree perfectly on every data set) and ``P(F > F_F)``.
    df_num, df_den : float
        ``L - 1`` and ``(L - 1)(S - 1)``.
    average_ranks : ndarray of shape (n_learners,)
        Average rank of each learner, rank 1 = best.
    tie_correction : bool
        Whether :math:`\chi^2_F` was divided by the tie correction, as
        :func:`scipy.stats.friedmanchisquare` and R's ``friedman.test`` do (True),
        or is Demšar's (2006) formula without it (False; also the only form
        from average ranks, :func:`~calibsim.stats.friedman_from_ranks`).
    """

    statistic: float
    pvalue: float
    df: float
    iman_davenport: float
    iman_davenport_pvalue: float
    df_num: float
    df_den: float
    average_ranks: np.ndarray
    tie_correction: bool = False

    @property
    def form(self) -> str:
        """The form of Friedman's statistic in words, with its source, for reports."""
        return _FRIEDMAN_FORMS[bool(self.tie_correction)]

    def __iter__(self):  # ``statistic, pvalue = result`` as with scipy's results
        return iter((self.statistic, self.pvalue))


@dataclass(frozen=True)
class PairwiseRankResult:
    r"""Result of a pairwise comparison of average ranks (rank z test, post-hoc).

    Attributes
    ----------
    statistic : ndarray of shape (n_learners, n_learners)
        :math:`z_{ij} = (R_i - R_j)/\mathrm{SE}`, antisymmetric; positive when
        learner i has the larger (worse) average rank.
    pvalue : ndarray of shape (n_learners, n_learners)
        Symmetric (adjusted) p-values in [0, 1], 1 on the diagonal, NaN for
        pairs not tested (Bonferroni-Dunn: pairs without the control).
    df : None
        The reference distribution has no df.
    reject : ndarray of bool, shape (n_learners, n_learners)
        ``pvalue <= alpha``; False on the diagonal and for untested pairs.
    alpha : float
        Family-wise significance level used for ``reject``.
    average_ranks : ndarray of shape (n_learners,)
        Average ranks, rank 1 = best.
    unadjusted_pvalue : ndarray of shape (n_learners, n_learners)
        Two-sided normal p-values of ``statistic``.
    critical_difference : float or None
        Smallest significant difference of average ranks (Nemenyi,
        Bonferroni-Dunn); None for step-wise procedures.
    method : str
        Name of the procedure.
    """

    statistic: np.ndarray
    pvalue: np.ndarray
    df: None
    reject: np.ndarray
    alpha: float
    average_ranks: np.ndarray
    unadjusted_pvalue: np.ndarray
    critical_difference: float | None = None
    method: str = ""

    def __iter__(self):
        return iter((self.statistic, self.pvalue))


def _iv_scores(scores, *, min_datasets=1) -> np.ndarray:
    x = check_finite_array("scores", scores)
    if x.ndim != 2:
        raise ValueError(f"`scores` must be 2-D (n_datasets, n_learners); got shape {x.shape}.")
    if x.shape[1] < 2:
        raise ValueError(f"`scores` must have at least 2 learners (columns); got {x.shape}.")
    if x.shape[0] < min_datasets:
        why = (" (the rank tests and post-hoc procedures compare average ranks over data "
               "sets, as Friedman's test)" if min_datasets > 1 else "")
        raise ValueError(f"`scores` must have at least {min_datasets} data set(s) (rows)"
                         f"{why}; got {x.shape}.")
    if x.shape[1] > MAX_LEARNERS:
        raise ValueError(f"`scores` must have at most {MAX_LEARNERS} learners (columns): the "
                         f"pairwise procedures handle L(L-1)/2 pairs; got {x.shape}. Is the "
                         "matrix transposed? Rows are data sets, columns learners.")
    return x


#: Most learners the rank tests and post-hoc procedures take (the pairwise ones handle
#: L(L-1)/2 pairs: 1000 learners take about 10 s with Nemenyi's studentized range).
MAX_LEARNERS = 1000


def _iv_pair(a, b) -> tuple[np.ndarray, np.ndarray]:
    a, b = check_finite_array("a", a), check_finite_array("b", b)
    if a.ndim != 1 or a.shape != b.shape or a.size == 0:
        raise ValueError("`a` and `b` must be non-empty 1-D arrays of the same shape "
                         f"(one score per data set); got {a.shape} and {b.shape}.")
    return a, b


def _ranks(x, higher_is_better):
    """(S, L) within-row ranks, rank 1 = best, ties averaged."""
    return stats.rankdata(-x if higher_is_better else x, axis=1)


def _rank_se(n_learners, n_datasets):
    return np.sqrt(n_learners * (n_learners + 1) / (6.0 * n_datasets))   # [1] Sec. 3.2.2


def _rank_z(ranks_avg, n_datasets):
    """(L, L) z matrix and unadjusted two-sided normal p-values."""
    L = ranks_avg.size
    z = (ranks_avg[:, None] - ranks_avg[None, :]) / _rank_se(L, n_datasets)
    p = np.minimum(1.0, 2.0 * stats.norm.sf(np.abs(z)))
    np.fill_diagonal(p, 1.0)
    return z, p


#: The ``scores`` and ``higher_is_better`` entries of the rank procedures' Parameters.
_RANK_SCORES = """
    scores : array_like of shape (n_datasets, n_learners)
        One score per data set and learner (e.g. accuracy in [0, 1]).
    higher_is_better : bool, default True
        True for accuracies, False for error rates.
"""


@fill_doc(rank_scores=_RANK_SCORES)
def average_ranks(scores, *, higher_is_better=True):
    """Average rank of each learner over data sets (rank 1 = best).

    Parameters
    ----------
    {rank_scores}

    Returns
    -------
    ndarray of shape (n_learners,)
        :math:`R_j = \\frac{1}{S}\\sum_i r_{ij}`, ties within a data set getting
        average ranks (:func:`scipy.stats.rankdata`, ``method="average"``).

    Examples
    --------
    >>> from calibsim.stats import average_ranks
    >>> average_ranks([[0.9, 0.8, 0.8], [0.7, 0.75, 0.6]])
    array([1.5 , 1.75, 2.75])
    """
    hib = _iv_bool("higher_is_better", higher_is_better)
    x = _iv_scores(scores)
    return _ranks(x, hib).mean(axis=0)


@fill_doc
def friedman_test(scores, *, higher_is_better=True, tie_correction=True):
    r"""Friedman's test and Iman-Davenport's F test over data sets.

    With average ranks :math:`R_j` of L learners over S data sets,

    .. math:: \chi^2_F = \frac{12 S}{L(L+1)} \sum_j \Bigl(R_j - \frac{L+1}{2}\Bigr)^2,
              \qquad F_F = \frac{(S-1)\chi^2_F}{S(L-1) - \chi^2_F},

    compared with :math:`\chi^2_{L-1}` and :math:`F_{L-1, (L-1)(S-1)}`
    (Demšar 2006 [1]_, Sec. 3.2.2; Ulaş et al. 2012, Pattern Recogn. 45, Sec. 2.2).

    Parameters
    ----------
    scores : array_like of shape (n_datasets, n_learners)
        One score per data set and learner; S >= 2, L >= 2.
    higher_is_better : bool, default True
        True for accuracies, False for error rates.
    tie_correction : bool, default True
        Divide :math:`\chi^2_F` by :math:`C = 1 - \sum (t^3 - t)/(S L (L^2-1))`
        (sum over groups of t tied learners within a data set), as
        :func:`scipy.stats.friedmanchisquare` and R's ``friedman.test`` do
        (Hollander & Wolfe 1999, Sec. 7.1). False gives Demšar's formula
        without the correction, which papers following Demšar (2006) used
        (e.g. Ulaş et al. 2012); it is smaller when learners tie. Without ties
        the two are equal. :math:`F_F` uses whichever :math:`\chi^2_F` is
        returned.

    Returns
    -------
    FriedmanResult

    Notes
    -----
    If every data set ties all learners, :math:`\chi^2_F = F_F = 0` and both
    p-values are 1 (with or without the correction, whose C is then 0). If
    the rankings agree perfectly (:math:`\chi^2_F = S(L-1)`), :math:`F_F` is
    ``inf`` with p = 0. S = 1 is rejected: the F test then has no
    denominator df.

    {references:demsar2006}

    Examples
    --------
    >>> import numpy as np
    >>> from calibsim.stats import friedman_test
    >>> rng = np.random.default_rng(0)
    >>> acc = rng.uniform(0.7, 0.9, size=(10, 4)) + [0.0, 0.05, 0.1, 0.15]
    >>> res = friedman_test(acc)
    >>> res.df, res.df_num, res.df_den
    (3.0, 3.0, 27.0)
    >>> round(float(res.statistic), 3), round(float(res.pvalue), 4)
    (14.52, 0.0023)
    """
    hib = _iv_bool("higher_is_better", higher_is_better)
    tc = _iv_bool("tie_correction", tie_correction)
    x = _iv_scores(scores, min_datasets=2)
    S, L = x.shape
    r = _ranks(x, hib)
    R = r.mean(axis=0)
    chi2 = 12.0 * S / (L * (L + 1)) * np.sum((R - (L + 1) / 2.0) ** 2)   # [1] Eq. (Friedman)
    if tc:                                            # t tied learners in a group
        t = np.concatenate([np.unique(row, return_counts=True)[1] for row in r]).astype(float)
        c = 1.0 - np.sum(t ** 3 - t) / (S * L * (L * L - 1.0))
        chi2 = chi2 / c if c > 0 else 0.0
    chi2 = float(min(chi2, S * (L - 1.0)))                  # guard rounding above the maximum
    df = float(L - 1)
    p = float(stats.chi2.sf(chi2, df))
    df_num, df_den = df, float((L - 1) * (S - 1))
    denom = S * (L - 1.0) - chi2
    f = np.inf if denom <= 0 else (S - 1) * chi2 / denom          # Iman & Davenport
    pf = 0.0 if denom <= 0 else float(stats.f.sf(f, df_num, df_den)) if f > 0 else 1.0
    return FriedmanResult(chi2, min(p, 1.0), df, float(f), pf, df_num, df_den, R, tc)


@fill_doc(rank_scores=_RANK_SCORES)
def rank_z_test(scores, *, higher_is_better=True, alpha=0.05):
    r"""Unadjusted pairwise z tests of average ranks.

    .. math:: z_{ij} = \frac{R_i - R_j}{\sqrt{L(L+1)/(6S)}}

    with two-sided standard normal p-values (Demšar 2006 [1]_, Sec. 3.2.2).
    No multiplicity adjustment: use the post-hoc procedures
    (:func:`~calibsim.stats.holm_test` etc.) for family-wise control.

    Parameters
    ----------
    {rank_scores}
    alpha : float, default 0.05
        Level in (0, 1) for ``reject``, applied to each pair separately.

    Returns
    -------
    PairwiseRankResult
        ``pvalue`` and ``unadjusted_pvalue`` are the same matrix.

    {references:demsar2006}

    Examples
    --------
    >>> from calibsim.stats import rank_z_test
    >>> res = rank_z_test([[0.9, 0.8, 0.7]] * 6)
    >>> res.statistic.round(3)
    array([[ 0.   , -1.732, -3.464],
           [ 1.732,  0.   , -1.732],
           [ 3.464,  1.732,  0.   ]])
    >>> bool(res.reject[0, 2]), bool(res.reject[0, 1])
    (True, False)
    """
    hib = _iv_bool("higher_is_better", higher_is_better)
    alpha = check_probability("alpha", alpha)
    x = _iv_scores(scores, min_datasets=2)
    R = _ranks(x, hib).mean(axis=0)
    z, p = _rank_z(R, x.shape[0])
    reject = p <= alpha
    np.fill_diagonal(reject, False)
    return PairwiseRankResult(z, p, None, reject, alpha, R, p.copy(), None, "rank_z")


@fill_doc
def wilcoxon_datasets(a, b, *, higher_is_better=True, zero_method="zsplit",
                      alternative="two-sided"):
    """Wilcoxon signed-ranks test of two learners over data sets.

    Wraps :func:`scipy.stats.wilcoxon` on the differences ``a - b``
    (Demšar 2006 [1]_, Sec. 3.1.3).

    Parameters
    ----------
    a, b : array_like of shape (n_datasets,)
        Scores of learners A and B on the same data sets.
    higher_is_better : bool, default True
        True for accuracies; with False (errors) the differences are
        negated, so ``alternative="greater"`` always means "A is better".
    zero_method : {"zsplit", "wilcox", "pratt"}, default "zsplit"
        Zero differences (ties): ``"zsplit"`` (Demšar; scipy's default is
        ``"wilcox"``) ranks them with the others and splits their rank sum
        evenly between R+ and R-; ``"wilcox"`` drops them; ``"pratt"`` ranks
        them, then drops them.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        ``"greater"``: A is better than B.

    Returns
    -------
    ClassicTestResult
        ``statistic`` min(R+, R-) (two-sided) or R+ (one-sided), ``df`` None.

    Notes
    -----
    p-values follow scipy's ``method="auto"``: exact without zeros or tied
    ``|d|`` (S <= 50); otherwise the complete permutation distribution for
    S <= 13, else the tie-corrected normal approximation. All differences
    zero: statistic 0, p = 1. Differences of rounded scores (``0.768 - 0.763``
    vs ``0.936 - 0.931``) may differ in the last bit and then do not tie.

    {references:demsar2006}

    Examples
    --------
    >>> from calibsim.stats import wilcoxon_datasets
    >>> res = wilcoxon_datasets([5, 7, 9, 6, 8, 4], [3, 6, 9, 4, 5, 5])
    >>> float(res.statistic), round(float(res.pvalue), 4)
    (3.0, 0.1875)
    """
    hib = _iv_bool("higher_is_better", higher_is_better)
    zero_method = check_choice("zero_method", zero_method, {"zsplit", "wilcox", "pratt"})
    alternative = _iv_alternative(alternative)
    a, b = _iv_pair(a, b)
    d = a - b if hib else b - a
    if np.all(d == 0):
        return ClassicTestResult(0.0, 1.0, None, _method="wilcoxon_datasets")
    res = stats.wilcoxon(d, zero_method=zero_method, alternative=alternative)
    return ClassicTestResult(float(res.statistic), float(np.clip(res.pvalue, 0, 1)), None,
                             _method="wilcoxon_datasets")


@fill_doc
def sign_test_datasets(a, b, *, higher_is_better=True, ties="split",
                       alternative="two-sided"):
    """Sign test of two learners over data sets, ties split or dropped.

    Counts wins w (A better than B) and losses l over S data sets and tests
    :math:`w \\sim \\mathrm{Bin}(w + l, 1/2)` exactly with
    :func:`scipy.stats.binomtest` (Demšar 2006 [1]_, Sec. 3.1.3; Ulaş et al.
    2012, Pattern Recognition 45, 1772-1781, Sec. 2.1).

    Parameters
    ----------
    a, b : array_like of shape (n_datasets,)
        Scores of learners A and B on the same data sets; a tie is an exactly
        equal pair of scores.
    higher_is_better : bool, default True
        True for accuracies, False for error rates.
    ties : {"split", "drop"}, default "split"
        ``"split"``: the t ties are split evenly between wins and losses,
        ``t // 2`` each, one dropped if t is odd (Demšar; Ulaş et al.);
        ``"drop"``: ties are discarded (as :func:`~calibsim.stats.sign_test`).
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        ``"greater"``: A wins more often than it loses.

    Returns
    -------
    ClassicTestResult
        ``statistic`` w (wins after splitting, float); p = 1 if w + l = 0.

    {references:demsar2006}

    Examples
    --------
    >>> from calibsim.stats import sign_test_datasets
    >>> a = [0.9, 0.8, 0.7, 0.7, 0.6, 0.9, 0.8]
    >>> b = [0.8, 0.7, 0.7, 0.6, 0.5, 0.8, 0.9]     # 5 wins, 1 tie, 1 loss
    >>> res = sign_test_datasets(a, b)              # tie dropped (odd): 5 of 6
    >>> float(res.statistic), round(float(res.pvalue), 4)
    (5.0, 0.2188)
    """
    hib = _iv_bool("higher_is_better", higher_is_better)
    ties = check_choice("ties", ties, {"split", "drop"})
    alternative = _iv_alternative(alternative)
    a, b = _iv_pair(a, b)
    d = a - b if hib else b - a
    w, l, t = int(np.sum(d > 0)), int(np.sum(d < 0)), int(np.sum(d == 0))
    if ties == "split":
        w, l = w + t // 2, l + t // 2
    p = stats.binomtest(w, w + l, 0.5, alternative=alternative).pvalue if w + l else 1.0
    return ClassicTestResult(float(w), float(min(p, 1.0)), None, _method="sign_test_datasets")
