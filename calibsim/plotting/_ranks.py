"""Figures for comparisons over data sets: the critical-difference diagram, the MultiTest
graph and the ordering probabilities of Ulaş et al. (2012), Figs. 4-5.

Functions take results or tidy tables and ``ax=None``, return the Axes, and never change
global matplotlib state or call ``plt.show()``; with ``ax=None`` they draw on a new
:class:`matplotlib.figure.Figure` (no pyplot, so they are safe under any backend).
"""

from __future__ import annotations

import numpy as np

from .._validation import check_finite_array

__all__ = ["cd_groups", "plot_critical_difference", "plot_multitest_graph",
           "plot_ordering_probabilities"]


def _new_axes(ax, size):
    if ax is not None:
        return ax
    from matplotlib.figure import Figure
    return Figure(figsize=size, layout="constrained").add_subplot()


def cd_groups(average_ranks, reject, learners=None):
    """Groups of learners that a post-hoc procedure cannot separate (the bars of a CD diagram).

    Sorts the learners by average rank and returns every maximal run of
    consecutive learners in which no pair is rejected (Demšar 2006, Fig. 1; the
    bold lines of Ulaş et al. 2012, Tables 5(b), 7(b), 8(b)).

    Parameters
    ----------
    average_ranks : array_like of shape (n_learners,)
        Average ranks (1 = best).
    reject : array_like of bool, shape (n_learners, n_learners)
        Symmetric: True where the procedure separates the pair.
    learners : sequence of str, optional
        Names; default: column indices.

    Returns
    -------
    list of tuple
        Each group best first, groups ordered by their best member; only groups of
        two or more, none contained in another.

    Examples
    --------
    >>> from calibsim.plotting import cd_groups
    >>> reject = [[0, 0, 1], [0, 0, 0], [1, 0, 0]]
    >>> cd_groups([1.2, 2.0, 2.8], reject, ["a", "b", "c"])
    [('a', 'b'), ('b', 'c')]
    """
    R = check_finite_array("average_ranks", average_ranks, min_ndim=1)
    rej = np.asarray(reject, dtype=bool)
    L = R.size
    if rej.shape != (L, L):
        raise ValueError(f"`reject` must have shape ({L}, {L}); got {rej.shape}.")
    names = list(range(L)) if learners is None else list(learners)
    order = np.argsort(R, kind="stable")
    groups, last_end = [], 0
    for a in range(L):
        b = a
        while b + 1 < L and not rej[order[b + 1], order[a:b + 1]].any():
            b += 1
        if b > a and b > last_end:
            groups.append(tuple(names[k] for k in order[a:b + 1]))
            last_end = b
    return groups


def plot_critical_difference(average_ranks, learners, *, reject=None, critical_difference=None,
                             ax=None, title=None, reverse=False):
    """Demšar's critical-difference diagram, with the groups a procedure cannot separate.

    Parameters
    ----------
    average_ranks : array_like of shape (n_learners,)
        Average ranks (1 = best).
    learners : sequence of str
    reject : array_like of bool, shape (n_learners, n_learners), optional
        Pairs the procedure separates (``PairwiseRankResult.reject``); default: the
        pairs whose ranks differ by at least ``critical_difference``.
    critical_difference : float, optional
        Drawn as a bar above the axis (Nemenyi, Bonferroni-Dunn); step-wise
        procedures have none (Ulaş et al. 2012 omit it for that reason).
    ax : matplotlib.axes.Axes, optional
    title : str, optional
    reverse : bool, default False
        Rank 1 on the right instead of the left.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from calibsim.plotting import plot_critical_difference
    >>> ax = plot_critical_difference([1.5, 2.2, 2.3], ["a", "b", "c"],
    ...                               critical_difference=0.6)
    >>> [t.get_text() for t in ax.texts if t.get_text() in "abc"]
    ['a', 'b', 'c']
    """
    R = check_finite_array("average_ranks", average_ranks, min_ndim=1)
    names = [str(n) for n in learners]
    L = R.size
    if len(names) != L:
        raise ValueError(f"`learners` must name {L} learners; got {len(names)}.")
    if reject is None:
        if critical_difference is None:
            raise ValueError("give `reject` or `critical_difference`.")
        reject = np.abs(R[:, None] - R[None, :]) >= critical_difference
    ax = _new_axes(ax, (7.0, 1.2 + 0.28 * L))
    lo, hi = 1.0, float(L)
    ax.plot([lo, hi], [0, 0], color="k", lw=1)
    for t in range(1, L + 1):
        ax.plot([t, t], [0, 0.08], color="k", lw=1)
        ax.text(t, 0.14, str(t), ha="center", va="bottom", fontsize=9)
    if critical_difference is not None:
        ax.plot([lo, lo + critical_difference], [0.55, 0.55], color="k", lw=1.5)
        ax.text(lo + critical_difference / 2, 0.6, "CD", ha="center", va="bottom", fontsize=9)
    order = np.argsort(R, kind="stable")
    half = (L + 1) // 2
    outward = {True: "left" if reverse else "right", False: "right" if reverse else "left"}
    for k, idx in enumerate(order):
        on_left = k < half                        # the better half goes to the rank-1 side
        y = -(0.45 + 0.3 * (k if on_left else L - 1 - k))
        end = lo - 0.3 if on_left else hi + 0.3
        ax.plot([R[idx], R[idx], end], [0, y, y], color="0.3", lw=0.8)
        ax.text(end + (-0.05 if on_left else 0.05), y, names[idx], ha=outward[on_left],
                va="center", fontsize=9)
        ax.text(R[idx] + (-0.04 if on_left else 0.04), y + 0.04, f"{R[idx]:.2f}",
                ha=outward[on_left], va="bottom", fontsize=7, color="0.3")
    for g, group in enumerate(cd_groups(R, reject)):
        y = -0.2 - 0.1 * g
        ax.plot([R[group[0]] - 0.03, R[group[-1]] + 0.03], [y, y], color="k", lw=3,
                solid_capstyle="round")
    ax.text(lo - 0.15, 0.14, "average rank", ha="right", va="bottom", fontsize=8,
            color="0.3")
    ax.set_xlim(lo - 1.6, hi + 1.6)
    ax.set_ylim(-(0.45 + 0.3 * half) - 0.1, 0.9)
    if reverse:
        ax.invert_xaxis()
    ax.axis("off")
    if title:
        ax.set_title(title, fontsize=10)
    return ax


def plot_multitest_graph(result, *, ax=None, title=None):
    """The MultiTest graph: learners left to right in prior order, edges for overrides.

    Like Ulaş et al. (2012), Figs. 1 and 3: an arrow from a cheaper learner to a
    costlier one that is significantly more accurate. Each node is labelled with its
    final rank.

    Parameters
    ----------
    result : MultiTestResult or Multi2TestResult
        For Multi²Test, the second pass's graph is drawn.
    ax : matplotlib.axes.Axes, optional
    title : str, optional
        Default: the final order.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from calibsim.stats import multitest_order
    >>> from calibsim.plotting import plot_multitest_graph
    >>> abc = ["a", "b", "c"]
    >>> res = multitest_order([[0, 0, 0], [0, 0, 0], [1, 0, 0]], cost=abc, learners=abc)
    >>> ax = plot_multitest_graph(res)
    >>> ax.get_title()
    'order: 1: b, 2: c, 3: a'
    """
    import networkx as nx
    res = getattr(result, "second_pass", result)
    g = res.graph
    ax = _new_axes(ax, (1.2 + 1.0 * len(g), 3.2))
    pos = {n: (float(d["prior_rank"]), 0.0) for n, d in g.nodes(data=True)}
    rank = dict(zip(res.learners, res.ranks))
    nx.draw_networkx_nodes(g, pos, ax=ax, node_size=1100, node_color="white",
                           edgecolors="k", linewidths=1.0)
    nx.draw_networkx_labels(g, pos, ax=ax, font_size=8)
    if g.number_of_edges():
        nx.draw_networkx_edges(g, pos, ax=ax, node_size=1100, arrows=True, arrowstyle="-|>",
                               arrowsize=12, connectionstyle="arc3,rad=-0.45", width=1.0)
    for n, (x, y) in pos.items():
        ax.text(x, y - 0.32, f"rank {rank[n]}", ha="center", va="top", fontsize=8, color="0.3")
    span = max((abs(pos[a][0] - pos[b][0]) for a, b in g.edges), default=1.0)
    ax.text(0.5, -0.62, "prior order: cheapest on the left; an arrow points to a costlier "
            "learner that is significantly more accurate", fontsize=7, color="0.4")
    ax.set_xlim(0.4, len(g) + 0.6)
    ax.set_ylim(-0.7, max(0.8, 0.25 * span + 0.3))
    ax.axis("off")
    ax.set_title(title if title is not None else
                 "order: " + ", ".join(f"{k}: {n}" for k, n in enumerate(res.order, 1)),
                 fontsize=10)
    return ax


def plot_ordering_probabilities(table, *, orderings=None, ax=None, title=None, min_peak=0.05,
                                max_series: int = 8, keep=()):
    """Probability of each ordering against λ (Ulaş et al. 2012, Figs. 4 and 5).

    Parameters
    ----------
    table : pandas.DataFrame
        Columns ``lambda``, ``ordering`` and ``probability`` (as written by
        :func:`calibsim.papers.ulas2012.simulate_figure4`).
    orderings : sequence of str, optional
        Orderings to draw, in this order (their styles follow it, so give the same
        list to every panel that should match); default every ordering whose
        probability reaches ``min_peak`` at some λ.
    ax : matplotlib.axes.Axes, optional
    title : str, optional
    min_peak : float, default 0.05
    max_series : int, default 8
        At most this many lines: beyond ``max_series - 1`` orderings, those whose
        peak is lowest are summed into one grey line, "all other orderings".
    keep : sequence of str, optional
        Orderings never summed into "all other orderings" (e.g. those a paper names).

    Returns
    -------
    matplotlib.axes.Axes
    """
    from ._style import series_style
    ax = _new_axes(ax, (6.0, 3.6))
    wide = table.pivot_table(index="lambda", columns="ordering", values="probability",
                             aggfunc="sum", fill_value=0.0).sort_index()
    if orderings is None:
        orderings = [o for o in wide.columns if wide[o].max() >= min_peak]
    orderings = list(orderings)
    styles = {o: series_style(k) for k, o in enumerate(orderings)}
    shown = orderings
    if len(orderings) > max_series:
        peak = {o: float(wide[o].max()) if o in wide.columns else 0.0 for o in orderings}
        always = [o for o in orderings if o in set(keep)][:max_series - 1]
        others = sorted((o for o in orderings if o not in set(always)), key=lambda o: -peak[o])
        chosen = set(always) | set(others[:max_series - 1 - len(always)])
        shown = [o for o in orderings if o in chosen]
    for o in shown:
        y = wide[o] if o in wide.columns else np.zeros(len(wide))
        ax.plot(wide.index, y, ms=3.5, lw=1.2, label=o, **styles[o])
    rest = [o for o in wide.columns if o not in set(shown)]
    if rest:
        ax.plot(wide.index, wide[rest].sum(axis=1), color="0.55", lw=1.0, ls="--",
                label="all other orderings")
    ax.set(xlabel="λ (difference in error between learners)",
           ylabel="probability of the ordering")
    ax.legend(fontsize=8, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.grid(True, lw=0.3, color="0.85")
    if title:
        ax.set_title(title, fontsize=10)
    return ax
