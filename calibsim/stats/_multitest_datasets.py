"""Multi²Test: MultiTest on each data set, then Friedman, a post-hoc, and MultiTest again.

Ulaş, Yıldız & Alpaydın (2012) [1]_, §3.2 and Table 2: MultiTest orders the learners on
each data set; the orders become ranks (1 = best); Friedman's test on the ranks; if it
rejects, a post-hoc procedure (Bergmann-Hommel in the paper) gives the pairs with
different average ranks, and a second MultiTest orders the learners with those pairs as
its tests ("the one with lower average rank" is the better one) and the average
normalised cost as the prior order. If Friedman does not reject, the order is the prior
order by average normalised cost.

{references:ulas2012}
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._docstrings import fill, fill_doc
from .._validation import check_choice, check_finite_array, check_int, check_probability
from ._classic import _iv_bool
from ._multiple import FriedmanResult, PairwiseRankResult, friedman_test
from ._multitest import MultiTestResult, _iv_learners, _iv_prior, _result, multitest
from ._multitest_ranks import POSTHOC_METHODS, friedman_from_ranks, posthoc_from_ranks

__doc__ = fill(__doc__)

__all__ = ["Multi2TestResult", "multi2test", "multi2test_from_ranks", "normalised_cost"]


@dataclass(frozen=True, eq=False)
class Multi2TestResult:
    """Result of Multi²Test over data sets.

    Attributes
    ----------
    order : tuple of str
        Learners from best to worst.
    ranks : ndarray of shape (n_learners,)
        Final rank of each learner in the order of ``learners`` (1 = best).
    learners : tuple of str
    prior_order : tuple of str
        Learners by average normalised cost, cheapest first.
    average_cost : ndarray of shape (n_learners,)
        The average normalised cost of each learner (its prior).
    average_ranks : ndarray of shape (n_learners,)
        Average over data sets of the per-data-set MultiTest ranks.
    n_datasets : int
    friedman : FriedmanResult
        Friedman's test on the per-data-set ranks.
    posthoc : PairwiseRankResult or None
        The post-hoc procedure's result; None if Friedman did not reject.
    second_pass : MultiTestResult
        The second MultiTest: its ``graph``, ``overrides`` and ``candidates``.
    per_dataset : tuple of MultiTestResult or None
        The first-pass MultiTest of each data set (None when started from ranks).
    dataset_ranks : ndarray of shape (n_datasets, n_learners) or None
        Rank of each learner on each data set (None when started from average ranks).
    alpha : float
    posthoc_method, friedman_statistic : str
    """

    order: tuple
    ranks: np.ndarray
    learners: tuple
    prior_order: tuple
    average_cost: np.ndarray
    average_ranks: np.ndarray
    n_datasets: int
    friedman: FriedmanResult = field(repr=False)
    posthoc: PairwiseRankResult | None = field(repr=False)
    second_pass: MultiTestResult = field(repr=False)
    per_dataset: tuple | None = field(default=None, repr=False)
    dataset_ranks: np.ndarray | None = field(default=None, repr=False)
    alpha: float = 0.05
    posthoc_method: str = "bergmann_hommel"
    friedman_statistic: str = "chi2"

    @property
    def graph(self):
        """The second MultiTest's directed graph (networkx.DiGraph)."""
        return self.second_pass.graph

    @property
    def overrides(self) -> tuple:
        """Prior preferences overridden in the second pass, as (cheaper, costlier) pairs."""
        return self.second_pass.overrides

    @property
    def friedman_rejects(self) -> bool:
        p = (self.friedman.pvalue if self.friedman_statistic == "chi2"
             else self.friedman.iman_davenport_pvalue)
        return bool(p <= self.alpha)

    def __str__(self) -> str:
        f = self.friedman
        lines = [f"Multi²Test over {self.n_datasets} data sets, {len(self.learners)} learners",
                 "prior order (average normalised cost): " + " < ".join(self.prior_order),
                 f"Friedman on the per-data-set ranks: chi2 = {f.statistic:.3f} "
                 f"(df {f.df:g}), p = {f.pvalue:.3g}; "
                 + ("rejects" if self.friedman_rejects else "does not reject")
                 + f" at alpha = {self.alpha:g}"]
        if self.posthoc is None:
            lines.append("no post-hoc test: the order is the prior order")
        elif self.overrides:
            lines.append("prior preferences overridden: "
                         + "; ".join(f"{b} over {a}" for a, b in self.overrides))
        else:
            lines.append(f"{self.posthoc_method}: no significant pair overrides the prior order")
        lines.append("order: " + ", ".join(f"{k}: {n}" for k, n in enumerate(self.order, 1)))
        return "\n".join(lines)


def normalised_cost(cost):
    """Average normalised cost: each data set's costs divided by their sum, averaged.

    Ulaş et al. (2012, Table 2, line 8) average "normalized" costs over data sets
    without saying how they normalise; dividing by the data set's total makes every
    data set weigh the same whatever its scale (seconds, bytes).

    Parameters
    ----------
    cost : array_like of shape (n_datasets, n_learners)
        Non-negative costs (e.g. training time in seconds), each row with a
        positive sum.

    Returns
    -------
    ndarray of shape (n_learners,)
        Sums to 1.

    Examples
    --------
    >>> from calibsim.stats import normalised_cost
    >>> normalised_cost([[1.0, 3.0], [10.0, 10.0]])
    array([0.375, 0.625])
    """
    c = check_finite_array("cost", cost)
    if c.ndim != 2 or 0 in c.shape:
        raise ValueError(f"`cost` must be 2-D (n_datasets, n_learners) with at least one of "
                         f"each; got shape {c.shape}.")
    if (c < 0).any() or (c.sum(axis=1) <= 0).any():
        raise ValueError("`cost` must be non-negative with a positive sum on every data set.")
    return np.mean(c / c.sum(axis=1, keepdims=True), axis=0)


def _average_prior(cost, learners, n_datasets):
    """(prior rank per learner, average cost) from names, (L,) or (S, L) costs."""
    if cost is not None and not isinstance(cost, str):
        seq = list(cost)
        if seq and all(isinstance(c, str) for c in seq):
            prior = _iv_prior(seq, learners)
            return prior, prior.astype(float) + 1.0
    c = check_finite_array("cost", cost) if cost is not None else None
    if c is not None and c.ndim == 2:
        if n_datasets is not None and c.shape[0] != n_datasets:
            raise ValueError(f"`cost` must have one row per data set ({n_datasets}); got "
                             f"shape {c.shape}.")
        c = normalised_cost(c)
    prior = _iv_prior(c, learners)
    return prior, c


def _second_pass(R, S, dataset_friedman, prior, avg_cost, learners, *, posthoc, alpha,
                 friedman, per_dataset=None, dataset_ranks=None):
    fr = dataset_friedman if dataset_friedman is not None else friedman_from_ranks(R, S)
    p = fr.pvalue if friedman == "chi2" else fr.iman_davenport_pvalue
    L = len(learners)
    if p <= alpha:
        ph = posthoc_from_ranks(R, S, method=posthoc, alpha=alpha)
        better = ph.reject & (R[:, None] < R[None, :])     # lower average rank is better
        pv = ph.pvalue
    else:
        ph, better, pv = None, np.zeros((L, L), bool), None
    second = _result(better, prior, learners, pv, None, alpha=alpha, correction=posthoc,
                     pairwise_test="average ranks")
    return Multi2TestResult(second.order, second.ranks, learners, second.prior_order,
                            np.asarray(avg_cost, float), R, S, fr, ph, second, per_dataset,
                            dataset_ranks, alpha, posthoc, friedman)


def _iv_common(posthoc, alpha, friedman):
    return (check_choice("posthoc", posthoc, set(POSTHOC_METHODS)),
            check_probability("alpha", alpha),
            check_choice("friedman", friedman, {"chi2", "iman_davenport"}))


def multi2test_from_ranks(ranks, *, cost, learners=None, n_datasets=None,
                          posthoc="bergmann_hommel", alpha=0.05, friedman="chi2",
                          tie_correction=True):
    """Multi²Test from per-data-set ranks, or its second pass from average ranks.

    Parameters
    ----------
    ranks : array_like of shape (n_datasets, n_learners) or (n_learners,)
        Rank of each learner on each data set (1 = best; e.g. from MultiTest, or
        from average validation accuracy as in the paper's Table 5), or, 1-D, the
        average ranks (then ``n_datasets`` is required).
    cost : array_like of shape (n_learners,) or (n_datasets, n_learners), or sequence of str
        Average cost per learner, per-data-set costs (normalised and averaged by
        :func:`normalised_cost`), or the learner names from cheapest to costliest.
    learners : sequence of str, optional
        Names of the columns; default ``"0", "1", ...``.
    n_datasets : int, optional
        S, with 1-D ``ranks`` only.
    posthoc : {"bergmann_hommel", "shaffer", "holm", "nemenyi"}, default "bergmann_hommel"
    alpha : float, default 0.05
        Level of Friedman's test and family-wise level of the post-hoc procedure.
    friedman : {"chi2", "iman_davenport"}, default "chi2"
        Which of Friedman's statistics decides (the paper uses chi2).
    tie_correction : bool, default True
        With 2-D ``ranks``: Friedman's statistic tie-corrected, as scipy and R
        (True), or Demšar's form without the correction (False; see
        :func:`~calibsim.stats.friedman_test`). Average ranks (1-D) allow only
        the uncorrected form.

    Returns
    -------
    Multi2TestResult
        ``per_dataset`` is None.

    Examples
    --------
    Ulaş et al. (2012), Table 7(a) and §4.5.1: training time as cost.

    >>> from calibsim.stats import multi2test_from_ranks
    >>> names = ["c45", "mdt", "mlp", "lnp", "svl", "sv2", "svr", "5nn"]
    >>> R = [3.11, 5.05, 4.37, 3.13, 5.50, 6.24, 6.11, 2.50]
    >>> prior = ["5nn", "c45", "lnp", "mlp", "mdt", "svl", "sv2", "svr"]
    >>> res = multi2test_from_ranks(R, n_datasets=38, cost=prior, learners=names)
    >>> res.order == tuple(prior), res.overrides
    (True, ())
    """
    posthoc, alpha, friedman = _iv_common(posthoc, alpha, friedman)
    r = check_finite_array("ranks", ranks, min_ndim=1)
    if r.ndim == 1:
        if n_datasets is None:
            raise ValueError("`n_datasets` is required when `ranks` holds average ranks (1-D).")
        S, R, fr, dranks = check_int("n_datasets", n_datasets, min_value=2), r, None, None
    elif r.ndim == 2:
        if n_datasets is not None and n_datasets != r.shape[0]:
            raise ValueError(f"`n_datasets` must equal the rows of `ranks` ({r.shape[0]}); "
                             f"got {n_datasets!r}.")
        S = r.shape[0]
        if S < 2:
            raise ValueError(f"`ranks` must hold at least 2 data sets (rows); got {r.shape}.")
        fr = friedman_test(r, higher_is_better=False,
                           tie_correction=_iv_bool("tie_correction", tie_correction))
        R, dranks = fr.average_ranks, r
    else:
        raise ValueError(f"`ranks` must be 1-D or 2-D; got shape {r.shape}.")
    names = _iv_learners(learners, r.shape[-1])
    prior, avg = _average_prior(cost, names, S)
    return _second_pass(R, S, fr, prior, avg, names, posthoc=posthoc, alpha=alpha,
                        friedman=friedman, dataset_ranks=dranks)


@fill_doc
def multi2test(errors, *, cost, learners=None, pairwise_test="cv5x2_f",
               correction="bonferroni", alpha=0.05, posthoc="bergmann_hommel",
               friedman="chi2", tie_correction=True):
    """Multi²Test: order learners over data sets by error, with a prior cost.

    Runs :func:`~calibsim.stats.multitest` on each data set, ranks the learners
    by its orders, and passes the ranks to :func:`multi2test_from_ranks`
    (Ulaş et al. 2012 [1]_, §3.2, Table 2).

    Parameters
    ----------
    errors : array_like of shape (n_datasets, n_learners, *folds)
        Per-fold error rates in [0, 1] (lower = better): (S, L, 5, 2) for the
        paper's 5x2cv F test.
    cost : array_like of shape (n_datasets, n_learners) or (n_learners,), or sequence of str
        Per-data-set costs (each data set's MultiTest uses its own row; the second
        pass uses :func:`normalised_cost`), one cost per learner for all data
        sets, or the learner names from cheapest to costliest.
    learners : sequence of str, optional
    pairwise_test, correction :
        As in :func:`~calibsim.stats.multitest` (default the paper's 5x2cv F,
        Bonferroni).
    alpha : float, default 0.05
        Level of every test (pairwise family, Friedman, post-hoc).
    posthoc : {"bergmann_hommel", "shaffer", "holm", "nemenyi"}, default "bergmann_hommel"
    friedman : {"chi2", "iman_davenport"}, default "chi2"
    tie_correction : bool, default True
        As in :func:`~calibsim.stats.friedman_test`. MultiTest's orders give every
        learner a different rank on each data set, so the two forms agree here.

    Returns
    -------
    Multi2TestResult

    Notes
    -----
    The per-data-set ranks carry the prior order: learners that no test separates
    keep their cost order on every data set, so their average ranks differ by about
    one rank per place and the post-hoc test may call them different. The second
    pass turns such pairs into no edge (the cheaper one is also the better ranked),
    so the prior order survives; Ulaş et al.'s Tables 7 and 8 show this.

    {references:ulas2012}

    Examples
    --------
    Learner "c" (costliest) errs 15 points less than "a" and "b" on 12 data sets.

    >>> import numpy as np
    >>> from calibsim.stats import multi2test
    >>> rng = np.random.default_rng(1)
    >>> p = np.array([0.30, 0.30, 0.15])[None, :, None, None]
    >>> err = rng.binomial(500, p, size=(12, 3, 5, 2)) / 500
    >>> res = multi2test(err, cost=["a", "b", "c"], learners=["a", "b", "c"])
    >>> res.order, res.overrides
    (('c', 'a', 'b'), (('a', 'c'), ('b', 'c')))
    >>> res.average_ranks           # a and b never differ, so b always ranks below a
    array([2., 3., 1.])
    """
    posthoc, alpha, friedman = _iv_common(posthoc, alpha, friedman)
    e = check_finite_array("errors", errors, min_ndim=3)
    S, L = e.shape[:2]
    if S < 2 or L < 2:
        raise ValueError(f"`errors` must hold at least 2 data sets and 2 learners; got shape "
                         f"{e.shape}.")
    names = _iv_learners(learners, L)
    names_given = (cost is not None and not isinstance(cost, str) and len(cost) > 0
                   and all(isinstance(x, str) for x in cost))
    per_row = not names_given and np.ndim(cost) == 2
    if per_row and np.shape(cost)[0] != S:
        raise ValueError(f"`cost` must have one row per data set ({S}); got shape "
                         f"{np.shape(cost)}.")
    firsts = tuple(multitest(e[s], cost=(cost[s] if per_row else cost), learners=names,
                             pairwise_test=pairwise_test, correction=correction, alpha=alpha)
                   for s in range(S))
    ranks = np.stack([r.ranks for r in firsts]).astype(float)
    fr = friedman_test(ranks, higher_is_better=False,
                       tie_correction=_iv_bool("tie_correction", tie_correction))
    prior, avg = _average_prior(cost, names, S)
    return _second_pass(fr.average_ranks, S, fr, prior, avg, names, posthoc=posthoc,
                        alpha=alpha, friedman=friedman, per_dataset=firsts, dataset_ranks=ranks)
