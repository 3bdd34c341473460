"""Bayesian signed-rank comparisons of every pair of learners over data sets."""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["bayesian_pairs", "plot_bayesian_pairs"]


def bayesian_pairs(table, *, rope=0.0, threshold=0.95, higher_is_better=True, score=None,
                   n_samples=50_000, random_state=0) -> pd.DataFrame:
    """The Bayesian signed-rank test (Benavoli et al. 2014) on every pair of learners.

    Parameters
    ----------
    table : pandas.DataFrame
        Scores as for :func:`calibsim.rank` (long or wide); per-fold scores are
        averaged per data set.
    rope : float, default 0
        Half-width of the region of practical equivalence, in score units (0.01 = one
        percentage point of accuracy).
    threshold : float, default 0.95
        Posterior probability needed for a decision.
    higher_is_better : bool, default True
    score : str, optional
        Score column of a long table.
    n_samples : int, default 50000
        Monte Carlo samples per pair.
    random_state : int or numpy.random.SeedSequence, default 0
        One child seed per pair, so each pair's result does not depend on the others.

    Returns
    -------
    pandas.DataFrame
        One row per pair: ``learner_a, learner_b, p_a_better, p_rope, p_b_better,
        decision`` ("a", "b", "rope" or "none"), ``n_datasets``.

    Examples
    --------
    >>> import pandas as pd
    >>> wide = pd.DataFrame({"a": [.80, .75, .90, .70, .85, .66], "b": [.70, .72, .80, .69,
    ...                       .80, .60]}, index=list("uvwxyz"))
    >>> bayesian_pairs(wide, rope=0.01, n_samples=2000)[["learner_a", "decision"]].values.tolist()
    [['a', 'a']]
    """
    from ..stats import bayesian_signed_rank_test
    from ._table import read_scores
    t = read_scores(table, score=score)
    sign = 1.0 if higher_is_better else -1.0
    from .._validation import check_random_state
    random_state = check_random_state("random_state", random_state)
    root = (np.random.SeedSequence(random_state.entropy, spawn_key=random_state.spawn_key)
            if isinstance(random_state, np.random.SeedSequence)     # a copy: not advanced
            else np.random.SeedSequence(random_state))
    seeds = root.spawn(len(t.learners) ** 2)
    rows = []
    for i, a in enumerate(t.learners):
        for j in range(i + 1, len(t.learners)):
            b = t.learners[j]
            d = sign * (t.scores[:, i] - t.scores[:, j])
            res = bayesian_signed_rank_test(d, rope=rope, threshold=threshold,
                                            n_samples=n_samples,
                                            random_state=seeds[i * len(t.learners) + j])
            dec = {"right": a, "left": b, "rope": "rope", "none": "none"}[str(res.decision)]
            rows.append({"learner_a": a, "learner_b": b, "p_a_better": res.p_right,
                         "p_rope": res.p_rope, "p_b_better": res.p_left, "decision": dec,
                         "n_datasets": len(d)})
    out = pd.DataFrame(rows)
    out.attrs.update(rope=rope, threshold=threshold)
    return out


def plot_bayesian_pairs(pairs: pd.DataFrame, ax=None):
    """A stacked bar per pair: P(A better), P(practically equivalent), P(B better).

    Returns
    -------
    matplotlib.axes.Axes
    """
    import matplotlib.pyplot as plt

    from ..engine.outputs import PALETTE
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
    ax.set(xlim=(0, 1), xlabel="posterior probability (Bayesian signed-rank test)")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.25 if len(pairs) < 4 else -0.1),
              ncol=3, frameon=False, fontsize=8)
    return ax
