"""Ulaş, Yıldız & Alpaydın (2012) §4.6: the synthetic studies of Figures 4 and 5.

Figure 4: MultiTest on one data set with three learners (1, 2, 3 in decreasing prior
preference) of error rates 0.5 + 2λ, 0.5, 0.5 - 2λ. Figure 5: Multi²Test on 30 data
sets with four learners of error rates a + 3λ, a + λ, a - λ, a - 3λ, where a ~ U[0.45,
0.55] is drawn per data set. λ runs from 0 to 0.1; 1000 repetitions per λ.

What the paper states and what we add (the report lists both):

- stated: "We draw a uniform random number between 0 and 1 and if it is less than p,
  we take it as an error; we do this N = 100 times and the total number of errors
  divided by N gives us an error rate"; the pairwise test is the 5x2cv F test at
  α = 0.05 (§4.4, §5);
- added (A1): each learner gets ten such error rates, one per validation fold of a 5x2
  cross-validation, independent across folds, learners and data sets (a count drawn
  from Binomial(N, p), the same distribution as N uniform draws);
- added (A2): the F test is used one-sidedly (reject only when the mean difference
  favours the costlier learner), with Bonferroni's correction over the L(L-1)/2 tests
  (the paper names neither);
- added (A3): Multi²Test's second pass uses Bergmann-Hommel at α = 0.05 after Friedman's
  chi-square test at α = 0.05, and the prior order 1 < 2 < 3 < 4 on every data set.

The simulation is vectorised: the per-data-set MultiTest uses the same p-value and
correction code as :func:`calibsim.stats.multitest`, and the topological sort is looked
up in a table built by :func:`calibsim.stats.multitest_order` for every possible set of
edges (2^3 for three learners, 2^6 for four).
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from ..stats import friedman_from_ranks, multitest_order, posthoc_from_ranks
from ..stats._multitest import _TESTS, _correct, _pairwise_pvalues

__all__ = ["LAMBDAS", "figure_claims", "simulate_figure4", "simulate_figure5"]

#: λ grid of Figures 4 and 5 (the paper's x axis runs from 0 to 0.1).
LAMBDAS = tuple(np.round(np.linspace(0.0, 0.1, 21), 4))
#: Orderings the paper's text names (Fig. 4 shows three "example orderings").
NAMED = {"figure4": ("1-2-3", "2-3-1", "3-2-1"),
         "figure5": ("1-2-3-4", "2-3-4-1", "3-4-1-2", "4-3-2-1")}


@functools.cache
def _rank_table(L):
    """Ranks (2^m, L) of the MultiTest order for each edge set; bit k: pair k overridden."""
    i, j = np.triu_indices(L, k=1)
    names = [str(k + 1) for k in range(L)]
    out = np.empty((2 ** i.size, L), dtype=np.int64)
    for bits in range(2 ** i.size):
        better = np.zeros((L, L), bool)
        on = [(bits >> k) & 1 for k in range(i.size)]
        better[j[np.flatnonzero(on)], i[np.flatnonzero(on)]] = True   # costlier j beats i
        out[bits] = multitest_order(better, cost=names, learners=names).ranks
    return out


def _first_pass(errors, alpha, correction, test):
    """errors (L, *batch, 5, 2) -> MultiTest ranks (*batch, L); prior order 1 < ... < L."""
    L = errors.shape[0]
    i, j = np.triu_indices(L, k=1)
    p = _correct(_pairwise_pvalues(errors, i, j, _TESTS[test], 2), correction)
    pattern = ((p <= alpha).astype(np.int64) << np.arange(i.size)).sum(axis=-1)
    return _rank_table(L)[pattern]


def _label(ranks):
    """'2-3-1' for learners 2, 3, 1 in ranks 1, 2, 3 (rows of a (n, L) rank array)."""
    order = np.argsort(ranks, axis=-1) + 1
    return np.array(["-".join(map(str, row)) for row in order])


def _tidy(figure, lam, labels, n_reps):
    names, counts = np.unique(labels, return_counts=True)
    return [{"figure": figure, "lambda": lam, "ordering": str(n), "count": int(c),
             "probability": c / n_reps, "n_reps": n_reps} for n, c in zip(names, counts)]


def _seeds(seed, n):
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    return ss.spawn(n)


def simulate_figure4(seed, *, lambdas=LAMBDAS, n_reps=1000, n_instances=100, alpha=0.05,
                     correction="bonferroni", pairwise_test="cv5x2_f"):
    """Ulaş et al. (2012) Fig. 4: how often MultiTest finds each ordering, against λ.

    Parameters
    ----------
    seed : int or numpy.random.SeedSequence
        Root of the randomness; each λ gets its own spawned child.
    lambdas : sequence of float, default ``LAMBDAS`` (0, 0.005, ..., 0.1)
    n_reps : int, default 1000
    n_instances : int, default 100
        N, the validation set size of one fold.
    alpha : float, default 0.05
    correction, pairwise_test : str
        As in :func:`calibsim.stats.multitest`.

    Returns
    -------
    pandas.DataFrame
        Columns ``figure, lambda, ordering, count, probability, n_reps``; one row per
        ordering found at each λ (orderings never found are absent).

    Examples
    --------
    >>> from calibsim.papers.ulas2012 import simulate_figure4
    >>> t = simulate_figure4(1, lambdas=[0.0], n_reps=200)
    >>> t.sort_values("count").iloc[-1]["ordering"]
    '1-2-3'
    """
    rows = []
    for lam, ss in zip(lambdas, _seeds(seed, len(lambdas))):
        rng = np.random.default_rng(ss)
        p = np.array([0.5 + 2 * lam, 0.5, 0.5 - 2 * lam])
        err = rng.binomial(n_instances, p[:, None, None, None], (3, n_reps, 5, 2)) / n_instances
        ranks = _first_pass(err, alpha, correction, pairwise_test)
        rows += _tidy("figure4", float(lam), _label(ranks), n_reps)
    return pd.DataFrame(rows)


def simulate_figure5(seed, *, lambdas=LAMBDAS, n_reps=1000, n_datasets=30, n_instances=100,
                     alpha=0.05, correction="bonferroni", pairwise_test="cv5x2_f",
                     posthoc="bergmann_hommel"):
    """Ulaş et al. (2012) Fig. 5: how often Multi²Test finds each ordering, against λ.

    Four learners with error rates a + 3λ, a + λ, a - λ, a - 3λ on each of
    ``n_datasets`` data sets, a ~ U[0.45, 0.55] per data set; prior order 1 < 2 < 3 < 4.

    Parameters
    ----------
    seed : int or numpy.random.SeedSequence
    lambdas, n_reps, n_instances, alpha, correction, pairwise_test :
        As in :func:`simulate_figure4`.
    n_datasets : int, default 30
    posthoc : str, default "bergmann_hommel"
        As in :func:`calibsim.stats.multi2test`.

    Returns
    -------
    pandas.DataFrame
        As :func:`simulate_figure4`, plus ``friedman_rejects``: the share of
        repetitions in which Friedman's test rejected (the same on every row of a λ).
    """
    L = 4
    offsets = np.array([3.0, 1.0, -1.0, -3.0])
    rows = []
    for lam, ss in zip(lambdas, _seeds(seed, len(lambdas))):
        rng = np.random.default_rng(ss)
        base = rng.uniform(0.45, 0.55, size=(n_reps, n_datasets))
        p = base[None] + lam * offsets[:, None, None]                        # (L, R, S)
        err = rng.binomial(n_instances, p[..., None, None], (L, n_reps, n_datasets, 5, 2))
        final, rejects = _multi2test_batch(err / n_instances, alpha=alpha, correction=correction,
                                           pairwise_test=pairwise_test, posthoc=posthoc)
        new = _tidy("figure5", float(lam), _label(final), n_reps)
        for r in new:
            r["friedman_rejects"] = float(rejects.mean())
        rows += new
    return pd.DataFrame(rows)


def _multi2test_batch(errors, *, alpha, correction, pairwise_test, posthoc):
    """Multi²Test on R replications at once, prior order 1 < ... < L on every data set.

    errors : (L, R, S, 5, 2) -> (final ranks (R, L), Friedman rejects (R,)); the same
    steps as :func:`calibsim.stats.multi2test` (tested against it).
    """
    L, S = errors.shape[0], errors.shape[2]
    i, j = np.triu_indices(L, k=1)
    ranks = _first_pass(errors, alpha, correction, pairwise_test)         # (R, S, L)
    R = ranks.mean(axis=1)
    rejects = friedman_from_ranks(R, S).pvalue <= alpha
    ph = posthoc_from_ranks(R, S, method=posthoc, alpha=alpha)
    over = ph.reject[:, j, i] & (R[:, j] < R[:, i])            # costlier j has lower rank
    pattern = ((over & rejects[:, None]).astype(np.int64) << np.arange(i.size)).sum(-1)
    return _rank_table(L)[pattern], rejects


def _prob(table, ordering, lam):
    sel = table[np.isclose(table["lambda"], lam) & (table["ordering"] == ordering)]
    return float(sel["probability"].sum())


def _mode(table, lam):
    sel = table[np.isclose(table["lambda"], lam)]
    return sel.loc[sel["probability"].idxmax(), "ordering"]


def figure_claims(fig4, fig5, *, alpha=0.05):
    """The paper's statements about Figs. 4 and 5 (§4.6), each with our number and a verdict.

    Returns
    -------
    list of dict
        Keys ``claim, source, ours, rule, verdict`` ("agrees" / "differs").
    """
    out = []

    def add(claim, source, ours, rule, ok):
        out.append({"claim": claim, "source": source, "ours": ours, "rule": rule,
                    "verdict": "agrees" if ok else "differs"})

    lam_lo, lam_hi = min(fig4["lambda"]), max(fig4["lambda"])
    n = int(fig4["n_reps"].iloc[0])
    se = np.sqrt(alpha * (1 - alpha) / n)
    p0 = _prob(fig4, "1-2-3", lam_lo)
    add("When λ = 0 ... MultiTest returns the prior preference of 1-2-3", "§4.6, Fig. 4",
        f"P(1-2-3) = {p0:.3f} at λ = {lam_lo:g}",
        f"P >= 1 - α - 3 MC s.e. = {1 - alpha - 3 * se:.3f} (family-wise level α)",
        p0 >= 1 - alpha - 3 * se)
    inner = sorted(set(fig4["lambda"]) - {lam_lo, lam_hi})
    modes = {lam: _mode(fig4, lam) for lam in inner}
    hit = [lam for lam, m in modes.items() if m == "2-3-1"]
    peak = max(inner, key=lambda lam: _prob(fig4, "2-3-1", lam))
    add("When 3 becomes significantly better than 1, but not 2, we get the ordering of 2-3-1",
        "§4.6, Fig. 4",
        f"P(2-3-1) peaks at {_prob(fig4, '2-3-1', peak):.3f} (λ = {peak:g}); most probable "
        f"ordering at λ in {hit[0]:g}-{hit[-1]:g}" if hit else
        f"P(2-3-1) peaks at {_prob(fig4, '2-3-1', peak):.3f} (λ = {peak:g}); never the most "
        "probable", "2-3-1 is the most probable ordering at some 0 < λ < 0.1", bool(hit))
    m4 = _mode(fig4, lam_hi)
    add("In the end when λ = 0.1 ... MultiTest returns ... 3-2-1", "§4.6, Fig. 4",
        f"most probable at λ = {lam_hi:g}: {m4} (P = {_prob(fig4, m4, lam_hi):.3f}); "
        f"P(3-2-1) = {_prob(fig4, '3-2-1', lam_hi):.3f}",
        "3-2-1 is the most probable ordering at λ = 0.1", m4 == "3-2-1")
    p5 = _prob(fig5, "1-2-3-4", lam_lo)
    add("In the beginning (λ = 0) ... Multi²Test returns the prior preference 1-2-3-4",
        "§4.6, Fig. 5", f"P(1-2-3-4) = {p5:.3f} at λ = {lam_lo:g}",
        f"P >= 1 - α - 3 MC s.e. = {1 - alpha - 3 * se:.3f}", p5 >= 1 - alpha - 3 * se)
    seq = ("2-3-4-1", "3-4-1-2", "4-3-2-1")
    lams = sorted(set(fig5["lambda"]))
    first = {o: next((lam for lam in lams if _mode(fig5, lam) == o), None) for o in seq}
    ok = all(first[o] is not None for o in seq) and first[seq[0]] < first[seq[1]] < first[seq[2]]
    add("Multi²Test starts reversing the orderings, starting with 1 and 4 first (2-3-4-1), "
        "and then between 1 and 3, and 2 and 4 (3-4-1-2) and so on", "§4.6, Fig. 5",
        "first λ at which each is the most probable: "
        + ", ".join(f"{o}: {first[o] if first[o] is not None else 'never'}" for o in seq),
        "2-3-4-1, 3-4-1-2 and 4-3-2-1 each become the most probable, in this order of λ", ok)
    m5 = _mode(fig5, lam_hi)
    add("In the end when λ = 0.1 ... Multi²Test returns ... 4-3-2-1", "§4.6, Fig. 5",
        f"most probable at λ = {lam_hi:g}: {m5} (P = {_prob(fig5, m5, lam_hi):.3f})",
        "4-3-2-1 is the most probable ordering at λ = 0.1", m5 == "4-3-2-1")
    return out
