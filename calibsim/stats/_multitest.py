"""MultiTest: order learners on one data set by error, breaking ties by a prior cost.

Yıldız & Alpaydın (2006) [1]_, as summarised by Ulaş, Yıldız & Alpaydın (2012) [2]_, §3.1:
index the L learners by a strict prior cost order (1 = cheapest, most preferred); for
every pair i cheaper than j test H0: mu_i <= mu_j (the cheaper one has less or equal
expected error) one-sidedly, with a correction for the L(L-1)/2 tests; a rejection puts
a directed edge i -> j (the costlier j overrides the prior preference). A topological
sort that repeatedly takes the cheapest node without outgoing edges gives the order.

The graph step alone is :func:`multitest_order` (it takes a table of significant
differences such as the paper's Table 1); :func:`multitest` runs the pairwise tests on
per-fold error rates first. Multi²Test over data sets is in
:mod:`calibsim.stats._multitest_datasets`.

{references:yildiz_alpaydin2006,ulas2012}
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._docstrings import fill, fill_doc
from .._validation import check_choice, check_finite_array, check_probability
from ._cv5x2 import cv5x2_ftest, cv5x2_ttest
from ._onesample import kfold_cv_ttest

__doc__ = fill(__doc__)

__all__ = ["CORRECTIONS", "PAIRWISE_TESTS", "MultiTestResult", "multitest", "multitest_order"]

#: Built-in one-sided pairwise tests of :func:`multitest` (see its ``pairwise_test``).
PAIRWISE_TESTS = ("cv5x2_f", "cv5x2_t", "paired_t", "corrected_repeated_cv")
#: Corrections for the L(L-1)/2 one-sided tests of :func:`multitest`.
CORRECTIONS = ("bonferroni", "holm", "none")


@dataclass(frozen=True, eq=False)
class MultiTestResult:
    """Result of MultiTest: the graph, the prior preferences it overrode, the order.

    Attributes
    ----------
    order : tuple of str
        Learners from best (rank 1) to worst.
    ranks : ndarray of shape (n_learners,)
        Rank of each learner in the order of ``learners`` (1 = best), int.
    learners : tuple of str
        Learner names in input order.
    prior_order : tuple of str
        Learners from cheapest (most preferred) to costliest.
    graph : networkx.DiGraph
        Nodes are learners (attribute ``prior_rank``, 1 = cheapest); an edge
        ``a -> b`` means b is costlier than a and significantly more accurate
        (attribute ``pvalue`` when tests were run).
    overrides : tuple of (str, str)
        The graph's edges ``(cheaper, costlier)``: every prior preference that a
        significant test overrode, sorted by the prior order.
    better : ndarray of bool, shape (n_learners, n_learners)
        ``better[a, b]``: learner a significantly more accurate than b (the
        paper's Table 1 layout). From :func:`multitest` only costlier-better
        entries can be True, because only those directions are tested.
    candidates : tuple of tuple of str
        At each step of the topological sort, the remaining learners without
        outgoing edges, cheapest first; the first one is taken (the paper's
        Fig. 2 shades it).
    pvalue, unadjusted_pvalue : ndarray of shape (n_learners, n_learners) or None
        ``pvalue[b, a]``: corrected one-sided p-value of "b (costlier) is more
        accurate than a (cheaper)"; NaN for untested directions; None from
        :func:`multitest_order`.
    alpha : float or None
        Family-wise level of the tests (None from :func:`multitest_order`).
    correction, pairwise_test : str or None
        Names of the correction and the pairwise test (None when not run).
    """

    order: tuple
    ranks: np.ndarray
    learners: tuple
    prior_order: tuple
    graph: nx.DiGraph = field(repr=False)
    overrides: tuple
    better: np.ndarray = field(repr=False)
    candidates: tuple = field(repr=False)
    pvalue: np.ndarray | None = field(default=None, repr=False)
    unadjusted_pvalue: np.ndarray | None = field(default=None, repr=False)
    alpha: float | None = None
    correction: str | None = None
    pairwise_test: str | None = None

    def __str__(self) -> str:
        lines = ["MultiTest order (best first): "
                 + ", ".join(f"{k}: {n}" for k, n in enumerate(self.order, 1)),
                 "prior order (cheapest first): " + " < ".join(self.prior_order)]
        if self.overrides:
            lines.append("prior preferences overridden (costlier is significantly better): "
                         + "; ".join(f"{b} over {a}" for a, b in self.overrides))
        else:
            lines.append("no test overrode the prior order")
        return "\n".join(lines)


# --- Input validation ---

def _iv_learners(learners, n: int) -> tuple:
    if learners is None:
        return tuple(str(k) for k in range(n))
    if isinstance(learners, str):
        raise TypeError(f"`learners` must be a sequence of names, not a string; got "
                        f"{learners!r}.")
    names = tuple(str(x) for x in learners)
    if len(names) != n or len(set(names)) != n:
        raise ValueError(f"`learners` must hold {n} distinct names; got {list(names)}.")
    return names


def _iv_prior(cost, learners: tuple) -> np.ndarray:
    """Prior rank of each learner, 0 = cheapest, from costs or a list of names."""
    L = len(learners)
    if cost is None:
        raise ValueError("`cost` is required: costs of shape (n_learners,) or the learner "
                         "names from cheapest to costliest.")
    seq = list(cost) if not isinstance(cost, str) else None
    if seq is not None and seq and all(isinstance(c, str) for c in seq):
        if sorted(seq) != sorted(learners):
            raise ValueError(f"`cost` as names must be a permutation of the learners "
                             f"{list(learners)}; got {seq}.")
        return np.array([seq.index(n) for n in learners])
    c = check_finite_array("cost", cost)
    if c.shape != (L,):
        raise ValueError(f"`cost` must have shape ({L},), one cost per learner, or list the "
                         f"learners by name; got shape {c.shape}.")
    if np.unique(c).size != L:
        raise ValueError("`cost` must order the learners strictly (no ties; Ulaş et al. "
                         f"2012, §3.1): break the ties; got {c.tolist()}.")
    return np.argsort(np.argsort(c, kind="stable"), kind="stable")


def _iv_better(better, L=None) -> np.ndarray:
    b = np.asarray(better)
    if b.ndim != 2 or b.shape[0] != b.shape[1] or b.shape[0] < 2:
        raise ValueError(f"`better` must be a square (n_learners, n_learners) matrix, "
                         f"n_learners >= 2; got shape {b.shape}.")
    if not np.isin(b, (0, 1)).all():
        raise ValueError("`better` must hold 0/1 or booleans (1: the row learner is "
                         "significantly more accurate than the column learner).")
    b = b.astype(bool)
    if np.diag(b).any() or (b & b.T).any():
        raise ValueError("`better` must have a zero diagonal and never say both that a beats "
                         "b and that b beats a.")
    return b


# --- Pairwise tests: cheaper i against costlier j, H1: j has lower error ---

def _p_cv5x2_f(e_i, e_j):
    d = e_i - e_j                                    # > 0 when the costlier j errs less
    p = cv5x2_ftest(d).pvalue                        # two-sided by construction [Alpaydin 1999]
    return np.where(np.mean(d, axis=(-2, -1)) > 0, p, 1.0)


def _p_cv5x2_t(e_i, e_j):
    return cv5x2_ttest(e_i - e_j, alternative="greater").pvalue


def _p_paired_t(e_i, e_j):                        # folds flattened to the last axis
    return kfold_cv_ttest(e_i - e_j, alternative="greater").pvalue


def _p_corrected(e_i, e_j):                       # folds (..., r, k): r x k cv
    from ._onesample import corrected_repeated_cv_ttest
    return corrected_repeated_cv_ttest(e_i - e_j, alternative="greater").pvalue


_TESTS = {"cv5x2_f": _p_cv5x2_f, "cv5x2_t": _p_cv5x2_t, "paired_t": _p_paired_t,
          "corrected_repeated_cv": _p_corrected}


def _iv_test(pairwise_test):
    if callable(pairwise_test):
        return pairwise_test, getattr(pairwise_test, "__name__", "callable")
    check_choice("pairwise_test", pairwise_test, set(PAIRWISE_TESTS))
    return _TESTS[pairwise_test], pairwise_test


def _pairwise_pvalues(errors, lower, upper, test, fold_ndim):
    """(n_learners, *batch, *folds) -> (*batch, n_pairs): p of "upper[k] beats lower[k]"."""
    if test is _p_paired_t:
        errors = errors.reshape(errors.shape[:errors.ndim - fold_ndim] + (-1,))
        fold_ndim = 1
    p = np.asarray(test(errors[lower], errors[upper]), dtype=float)
    p = np.broadcast_to(p, (len(lower),) + errors.shape[1:errors.ndim - fold_ndim])
    if np.isnan(p).any() or (p < 0).any() or (p > 1).any():
        raise ValueError("`pairwise_test` must return p-values in [0, 1]; got "
                         f"{p[np.isnan(p) | (p < 0) | (p > 1)][:3].tolist()}.")
    return np.moveaxis(p, 0, -1)


def _correct(p, method):
    """Adjusted p-values along the last axis (m tests): Bonferroni, Holm or none."""
    m = p.shape[-1]
    if method == "none":
        return p.copy()
    if method == "bonferroni":
        return np.minimum(1.0, m * p)
    order = np.argsort(p, axis=-1, kind="stable")                    # Holm (1979) step-down
    adj = np.maximum.accumulate(np.take_along_axis(p, order, -1) * np.arange(m, 0, -1), -1)
    out = np.empty_like(adj)
    np.put_along_axis(out, order, np.minimum(adj, 1.0), -1)
    return out


# --- The graph and the topological sort ---

def _graph(better, prior, learners, pvalue=None) -> nx.DiGraph:
    import networkx as nx            # here: every importer of calibsim.stats needs it not
    g = nx.DiGraph()
    for k in np.argsort(prior):
        g.add_node(learners[k], prior_rank=int(prior[k]) + 1)
    for a, b in zip(*np.nonzero(better)):                # a beats b
        if prior[a] > prior[b]:                          # costlier a beats cheaper b
            attrs = {} if pvalue is None else {"pvalue": float(pvalue[a, b])}
            g.add_edge(learners[b], learners[a], **attrs)
    return g


def _sort(g: nx.DiGraph):
    """Cheapest node without outgoing edges first, repeatedly; and the candidates per step."""
    import networkx as nx
    key = nx.get_node_attributes(g, "prior_rank")
    order = list(nx.lexicographical_topological_sort(g.reverse(copy=False), key=key.get))
    remaining, candidates = set(g), []
    for node in order:
        sinks = [n for n in remaining if not any(s in remaining for s in g.successors(n))]
        candidates.append(tuple(sorted(sinks, key=key.get)))
        remaining.discard(node)
    return tuple(order), tuple(candidates)


def _result(better, prior, learners, pvalue=None, unadjusted=None, **info):
    g = _graph(better, prior, learners, pvalue)
    order, candidates = _sort(g)
    ranks = np.array([order.index(n) + 1 for n in learners])
    prior_order = tuple(learners[k] for k in np.argsort(prior))
    overrides = tuple(sorted(g.edges, key=lambda e: (g.nodes[e[0]]["prior_rank"],
                                                     g.nodes[e[1]]["prior_rank"])))
    return MultiTestResult(order, ranks, learners, prior_order, g, overrides, better,
                           candidates, pvalue, unadjusted, **info)


@fill_doc
def multitest_order(better, *, cost, learners=None):
    """MultiTest's graph and order from a table of significant differences.

    Puts an edge ``a -> b`` for every pair where the costlier b is significantly
    more accurate than the cheaper a, and sorts topologically, taking the cheapest
    node without outgoing edges at each step (Ulaş et al. 2012 [1]_, §3.1, Figs. 1-3).

    Parameters
    ----------
    better : array_like of bool, shape (n_learners, n_learners)
        ``better[a, b]`` true (or 1) if learner a is significantly more accurate
        than learner b: the layout of the paper's Tables 1 and 3. Entries where the
        cheaper learner is better agree with the prior order and add no edge.
    cost : array_like of shape (n_learners,) or sequence of str
        Prior cost of each learner (lower = preferred; no ties), or the learner
        names from cheapest to costliest.
    learners : sequence of str, optional
        Names in the order of the rows of ``better``; default ``"0", "1", ...``.

    Returns
    -------
    MultiTestResult
        Without p-values (``pvalue``, ``alpha`` are None).

    Raises
    ------
    ValueError
        If ``better`` is not square 0/1 with a zero diagonal, says both a > b and
        b > a, or ``cost`` has ties or the wrong length.

    {references:ulas2012}

    Examples
    --------
    The paper's Fig. 3: prior order A < B < C < D, B beats A and C, D beats C.

    >>> from calibsim.stats import multitest_order
    >>> better = [[0, 0, 0, 0], [1, 0, 1, 0], [0, 0, 0, 0], [0, 0, 1, 0]]
    >>> res = multitest_order(better, cost=list("ABCD"), learners=list("ABCD"))
    >>> res.order, res.overrides
    (('B', 'A', 'D', 'C'), (('A', 'B'), ('C', 'D')))
    """
    b = _iv_better(better)
    names = _iv_learners(learners, b.shape[0])
    prior = _iv_prior(cost, names)
    return _result(b, prior, names)


@fill_doc
def multitest(errors, *, cost, learners=None, pairwise_test="cv5x2_f",
              correction="bonferroni", alpha=0.05):
    """MultiTest on one data set: one-sided pairwise tests, the graph, the order.

    For every pair a cheaper than b, tests H0: mu_a <= mu_b against "b errs less"
    one-sidedly, corrects the L(L-1)/2 p-values, and passes the rejections to
    :func:`multitest_order` (Yıldız & Alpaydın 2006 [1]_; Ulaş et al. 2012 [2]_, §3.1).

    Parameters
    ----------
    errors : array_like of shape (n_learners, *folds)
        Per-fold error rates in [0, 1] (or any loss, lower = better) of each learner
        on the same folds: shape (L, 5, 2) for the 5x2cv tests (replication, fold),
        (L, k) or (L, r, k) for ``"paired_t"``.
    cost : array_like of shape (n_learners,) or sequence of str
        Prior cost (lower = preferred, no ties; e.g. training time in seconds or
        model size) or the learner names from cheapest to costliest.
    learners : sequence of str, optional
        Names of the rows of ``errors``; default ``"0", "1", ...``.
    pairwise_test : {"cv5x2_f", "cv5x2_t", "paired_t"} or callable, default "cv5x2_f"
        ``"cv5x2_f"``: Alpaydın's combined 5x2cv F test, the paper's test; it is
        two-sided by construction and is used one-sidedly by rejecting only when
        the mean of the ten differences favours the costlier learner (p = p_F, else
        1), which keeps the one-sided level at or below alpha. ``"cv5x2_t"``:
        Dietterich's 5x2cv t, ``alternative="greater"``. ``"paired_t"``: the paired
        t test over all folds (:func:`~calibsim.stats.kfold_cv_ttest`), liberal for
        cross-validation (Dietterich 1998). A callable ``f(e_cheap, e_costly)`` gets
        two arrays of shape (..., *folds) and returns one-sided p-values of shape
        (...) for "e_costly has the lower expected error".
    correction : {"bonferroni", "holm", "none"}, default "bonferroni"
        Family-wise correction over the L(L-1)/2 tests. The paper does not name
        the one it used; Bonferroni is the simplest that controls the level.
    alpha : float, default 0.05
        Family-wise significance level in (0, 1).

    Returns
    -------
    MultiTestResult

    Raises
    ------
    ValueError
        If ``errors`` is not finite with at least 2 learners, its fold shape does
        not suit the test, or ``cost`` has ties.

    {references:yildiz_alpaydin2006,ulas2012}

    Examples
    --------
    Three learners, cheapest first; the costliest errs much less on every fold.

    >>> import numpy as np
    >>> from calibsim.stats import multitest
    >>> rng = np.random.default_rng(0)
    >>> err = rng.binomial(300, [[[0.30]], [[0.29]], [[0.15]]], size=(3, 5, 2)) / 300
    >>> res = multitest(err, cost=[1.0, 2.0, 3.0], learners=["lnp", "c45", "svr"])
    >>> res.order
    ('svr', 'lnp', 'c45')
    >>> res.overrides
    (('lnp', 'svr'), ('c45', 'svr'))
    """
    e = check_finite_array("errors", errors, min_ndim=2)
    if e.shape[0] < 2:
        raise ValueError(f"`errors` must hold at least 2 learners (rows); got shape {e.shape}.")
    names = _iv_learners(learners, e.shape[0])
    prior = _iv_prior(cost, names)
    test, test_name = _iv_test(pairwise_test)
    correction = check_choice("correction", correction, set(CORRECTIONS))
    alpha = check_probability("alpha", alpha)
    _iv_folds(e.shape[1:], pairwise_test)
    order = np.argsort(prior)
    i, j = np.triu_indices(e.shape[0], k=1)
    lower, upper = order[i], order[j]                       # lower is the cheaper of the pair
    p_raw = _pairwise_pvalues(e, lower, upper, test, e.ndim - 1)
    p_adj = _correct(p_raw, correction)
    L = e.shape[0]
    pvalue, unadj = np.full((L, L), np.nan), np.full((L, L), np.nan)
    pvalue[upper, lower], unadj[upper, lower] = p_adj, p_raw
    better = np.zeros((L, L), bool)
    better[upper, lower] = p_adj <= alpha
    return _result(better, prior, names, pvalue, unadj, alpha=alpha, correction=correction,
                   pairwise_test=test_name)


def _iv_folds(fold_shape, pairwise_test):
    if pairwise_test in ("cv5x2_f", "cv5x2_t") and tuple(fold_shape) != (5, 2):
        raise ValueError(f"`errors` must have shape (n_learners, 5, 2) for pairwise_test="
                         f"{pairwise_test!r} (5x2 cv); got folds of shape {tuple(fold_shape)}."
                         " Use pairwise_test='paired_t' for other designs.")
    if pairwise_test == "paired_t" and int(np.prod(fold_shape)) < 2:
        raise ValueError("`errors` must hold at least 2 folds per learner for pairwise_test="
                         f"'paired_t'; got folds of shape {tuple(fold_shape)}.")
