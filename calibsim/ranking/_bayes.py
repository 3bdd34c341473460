"""Bayesian comparisons of every pair of learners over data sets: the hierarchical test
(Corani et al. 2017) on per-fold scores, the Bayesian signed-rank test (Benavoli et al.
2014) on one score per data set."""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["bayesian_pairs", "bayesian_pair_results", "plot_bayesian_pairs"]

_METHODS = ("auto", "hierarchical", "signed_rank")


def _folds_per_run(n_folds, folds_per_run):
    if folds_per_run is None:
        return n_folds
    if isinstance(folds_per_run, bool) or not isinstance(folds_per_run, (int, np.integer)) \
            or folds_per_run < 2 or n_folds % folds_per_run:
        raise ValueError(f"`folds_per_run` must be k >= 2 dividing the {n_folds} folds per "
                         f"data set; got {folds_per_run!r}.")
    return int(folds_per_run)


def _pair_seed(random_state, a, b):
    """The hierarchical test's seed of the pair (a, b): keyed by the two learners' names
    (their CRC-32s), so a pair's draws do not depend on which other learners the table
    holds, nor on their order."""
    import zlib
    root = random_state if isinstance(random_state, np.random.SeedSequence) else \
        np.random.SeedSequence(random_state)
    return np.random.SeedSequence(root.entropy, spawn_key=tuple(root.spawn_key) + (
        zlib.crc32(a.encode()), zlib.crc32(b.encode())))


def bayesian_pair_results(table, *, rope=0.0, threshold=0.95, higher_is_better=True,
                          score=None, method="auto", rho=None, folds_per_run=None,
                          n_samples=None, random_state=0, sampler="batched") -> dict:
    """The Bayesian test of every pair of learners, as result objects.

    Parameters
    ----------
    table, rope, threshold, higher_is_better, score
        As for :func:`bayesian_pairs`.
    method : {"auto", "hierarchical", "signed_rank"}, default "auto"
        "auto": the hierarchical test when the table has per-fold scores (a ``fold``
        column), the signed-rank test on the data sets' mean scores otherwise.
    rho : float, optional
        The hierarchical test's correlation; default 1/k.
    folds_per_run : int, optional
        k, when each data set's folds are r runs of k-fold cv (folds run-major: labels
        0..k-1 are run 1); default all folds are one run.
    n_samples : int, optional
        Posterior draws (default 10,000 for the hierarchical test, 50,000 Monte Carlo
        samples for the signed-rank test).
    random_state : int or numpy.random.SeedSequence, default 0
        One child seed per pair, so each pair's result does not depend on the others:
        for the hierarchical test keyed by the two learners' names (all pairs are then
        sampled together, see :func:`calibsim.stats.hierarchical_bayesian_batch`), for
        the signed-rank test by their places in the table.
    sampler : {"batched", "single"}, default "batched"
        The hierarchical test's sampler: every pair in one compiled program
        (:func:`calibsim.stats.hierarchical_bayesian_batch`), or one pair after another
        (``hierarchical_bayesian_test(sampler="single")``, the sampler before batching;
        the same posterior, other draws).

    Returns
    -------
    dict
        ``(learner_a, learner_b) ->`` :class:`~calibsim.stats.HierarchicalResult` or
        :class:`~calibsim.stats.BayesianResult`; differences are A minus B (sign
        flipped for ``higher_is_better=False``, so "right" means A is better).
    """
    from .._validation import check_random_state
    from ..stats import (bayesian_signed_rank_test, hierarchical_bayesian_batch,
                         hierarchical_bayesian_test)
    from ._table import read_scores
    check_random_state("random_state", random_state)
    if n_samples is not None and (isinstance(n_samples, bool) or not isinstance(
            n_samples, (int, np.integer)) or not 1 <= n_samples <= 10**7):
        raise ValueError(f"`n_samples` must be None (the default) or an integer in "
                         f"[1, 10**7]; got {n_samples!r}.")
    if method not in _METHODS:
        raise ValueError(f"`method` must be one of {list(_METHODS)}; got {method!r}.")
    if sampler not in ("batched", "single"):
        raise ValueError(f"`sampler` must be 'batched' or 'single'; got {sampler!r}.")
    t = read_scores(table, score=score)
    if method == "auto":
        method = "hierarchical" if t.folds is not None else "signed_rank"
    if method == "hierarchical" and t.folds is None:
        raise ValueError("`method`='hierarchical' needs per-fold scores (a `fold` column in a "
                         "long table); this table has one score per data set and learner: "
                         "use the signed-rank test (method='signed_rank').")
    if len(t.datasets) < 2 and method == "signed_rank":
        raise ValueError(f"the signed-rank test needs at least 2 data sets; got "
                         f"{len(t.datasets)}.")
    sign = 1.0 if higher_is_better else -1.0
    L = len(t.learners)
    pairs = [(i, j) for i in range(L) for j in range(i + 1, L)]
    if method == "hierarchical":
        n_folds = t.folds.shape[2]
        k = _folds_per_run(n_folds, folds_per_run)
        xs = [(sign * (t.folds[:, i] - t.folds[:, j])).reshape(len(t.datasets),
                                                                n_folds // k, k)
              for i, j in pairs]
        names = [(t.learners[i], t.learners[j]) for i, j in pairs]
        seeds = [_pair_seed(random_state, a, b) for a, b in names]
        if sampler == "single":
            res = [hierarchical_bayesian_test(x, rope=rope, rho=rho, threshold=threshold,
                                              random_state=seed, datasets=t.datasets,
                                              names=nm, n_samples=n_samples or 10_000)
                   for x, seed, nm in zip(xs, seeds, names)]
        else:
            res = hierarchical_bayesian_batch(
                xs, rope=rope, rho=rho, threshold=threshold, random_states=seeds,
                datasets=[t.datasets] * len(pairs), names=names,
                n_samples=n_samples or 10_000)
        return dict(zip(names, res))
    seeds = np.random.SeedSequence(random_state).spawn(L * L)
    out = {}
    for i, j in pairs:
        a, b = t.learners[i], t.learners[j]
        d = sign * (t.scores[:, i] - t.scores[:, j])
        out[(a, b)] = bayesian_signed_rank_test(d, rope=rope, threshold=threshold,
                                                n_samples=n_samples or 50_000,
                                                random_state=seeds[i * L + j])
    return out


def pairs_frame(results) -> pd.DataFrame:
    """One row per pair from :func:`bayesian_pair_results`."""
    rows = []
    for (a, b), res in results.items():
        hier = hasattr(res, "shrunk_means")
        dec = {"right": a, "left": b, "rope": "rope", "none": "none"}[str(res.decision)]
        rows.append({"learner_a": a, "learner_b": b,
                     "test": "hierarchical" if hier else "signed-rank",
                     "p_a_better": res.p_right, "p_rope": res.p_rope,
                     "p_b_better": res.p_left, "decision": dec,
                     "mean_difference": res.mean if hier else np.nan,
                     "rho": res.rho if hier else np.nan,
                     "n_datasets": len(res.datasets) if hier else np.nan})
    out = pd.DataFrame(rows)
    if results:
        first = next(iter(results.values()))
        out.attrs.update(rope=float(first.rope), threshold=float(first.threshold))
    return out


def bayesian_pairs(table, *, rope=0.0, threshold=0.95, higher_is_better=True, score=None,
                   n_samples=None, random_state=0, method="auto", rho=None,
                   folds_per_run=None) -> pd.DataFrame:
    """A Bayesian test on every pair of learners: the hierarchical test (Corani et al.
    2017) with per-fold scores, the Bayesian signed-rank test (Benavoli et al. 2014)
    with one score per data set.

    Parameters
    ----------
    table : pandas.DataFrame
        Scores as for :func:`calibsim.rank` (long or wide).
    rope : float, default 0
        Half-width of the region of practical equivalence, in score units (0.01 = one
        percentage point of accuracy).
    threshold : float, default 0.95
        Posterior probability needed for a decision.
    higher_is_better : bool, default True
    score : str, optional
        Score column of a long table.
    n_samples : int, optional
        Draws per pair (see :func:`bayesian_pair_results`).
    random_state : int or numpy.random.SeedSequence, default 0
    method, rho, folds_per_run
        See :func:`bayesian_pair_results`.

    Returns
    -------
    pandas.DataFrame
        One row per pair: ``learner_a, learner_b, test, p_a_better, p_rope,
        p_b_better, decision`` ("a", "b", "rope" or "none" as learner names),
        ``mean_difference`` (the hierarchical test's posterior mean of δ0, A minus B),
        ``rho``, ``n_datasets``.

    Examples
    --------
    >>> import pandas as pd
    >>> wide = pd.DataFrame({"a": [.80, .75, .90, .70, .85, .66], "b": [.70, .72, .80, .69,
    ...                       .80, .60]}, index=list("uvwxyz"))
    >>> bayesian_pairs(wide, rope=0.01, n_samples=2000)[["learner_a", "decision"]].values.tolist()
    [['a', 'a']]
    """
    return pairs_frame(bayesian_pair_results(
        table, rope=rope, threshold=threshold, higher_is_better=higher_is_better, score=score,
        method=method, rho=rho, folds_per_run=folds_per_run, n_samples=n_samples,
        random_state=random_state))


def plot_bayesian_pairs(pairs: pd.DataFrame, ax=None):
    """A stacked bar per pair: P(A better), P(practically equivalent), P(B better).

    Returns
    -------
    matplotlib.axes.Axes
    """
    import matplotlib.pyplot as plt

    from ..plotting._style import PALETTE
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 0.45 * len(pairs) + 1.2), layout="constrained")
    y = np.arange(len(pairs))
    left = np.zeros(len(pairs))
    for col, label, colour in (("p_a_better", "P(A better)", PALETTE[0]),
                               ("p_rope", "P(equivalent)", "0.75"),
                               ("p_b_better", "P(B better)", PALETTE[1])):
        v = pairs[col].to_numpy(dtype=float)
        ax.barh(y, v, left=left, color=colour, label=label, height=0.6)
        left += v
    ax.set_yticks(y, [f"A = {a}, B = {b}" for a, b in zip(pairs.learner_a, pairs.learner_b)],
                  fontsize=8)
    ax.invert_yaxis()
    tests = sorted(set(pairs["test"])) if "test" in pairs else ["signed-rank"]
    label = {"hierarchical": "hierarchical test", "signed-rank": "Bayesian signed-rank test"}
    ax.set(xlim=(0, 1), xlabel="posterior probability ("
           + ", ".join(label.get(t, t) for t in tests) + ")")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.25 if len(pairs) < 4 else -0.1),
              ncol=3, frameon=False, fontsize=8)
    return ax
