"""The posterior of a Bayesian comparison in the probability simplex (Corani et al. 2017,
Figure 6; Benavoli et al. 2017, §4)."""

from __future__ import annotations

import numpy as np

__all__ = ["plot_posterior_simplex"]

_H = np.sqrt(3) / 2


def _project(p):
    """Barycentric (left, rope, right) -> plane: left at (0, 0), right at (1, 0), rope on top."""
    p = np.asarray(p, dtype=float)
    return np.stack([p[..., 2] + 0.5 * p[..., 1], _H * p[..., 1]], axis=-1)


def plot_posterior_simplex(samples, *, names=("A", "B"), probabilities=None, ax=None,
                           title=None):
    """Posterior draws of (P(B better), P(equivalent), P(A better)) in a triangle.

    Each draw is a point; the lines from the centre split the triangle into the three
    regions in which each outcome is the most probable, and the share of draws in each
    region is the posterior probability printed at its corner.

    Parameters
    ----------
    samples : array_like of shape (n_draws, 3)
        Per draw, the probabilities of left (B better), ROPE and right (A better); rows
        sum to 1.
    names : (str, str), default ("A", "B")
        The learners' names.
    probabilities : (float, float, float), optional
        P(left), P(rope), P(right) to print; default the shares of draws whose largest
        entry is each.
    ax : matplotlib.axes.Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    ValueError
        If ``samples`` is not of shape (n, 3) with rows in the simplex.
    """
    import matplotlib.pyplot as plt
    s = np.asarray(samples, dtype=float)
    if s.ndim != 2 or s.shape[1] != 3 or s.shape[0] < 1 or not np.isfinite(s).all() \
            or (s < -1e-9).any() or not np.allclose(s.sum(axis=1), 1.0, atol=1e-6):
        raise ValueError("`samples` must be posterior probabilities of shape (n, 3), "
                         f"non-negative rows summing to 1; got shape {s.shape}.")
    if probabilities is None:
        probabilities = np.bincount(np.argmax(s, axis=1), minlength=3) / s.shape[0]
    pl, pe, pr = (float(v) for v in probabilities)
    a, b = names
    if ax is None:
        fig, ax = plt.subplots(figsize=(5.2, 4.9), layout="constrained")
    else:
        fig = ax.figure
    corners = np.array([[0, 0], [1, 0], [0.5, _H], [0, 0]])
    ax.plot(corners[:, 0], corners[:, 1], color="0.2", lw=1)
    centre = _project(np.full(3, 1 / 3))
    for mid in ([0.5, 0, 0.5], [0.5, 0.5, 0], [0, 0.5, 0.5]):
        end = _project(np.array(mid))
        ax.plot([centre[0], end[0]], [centre[1], end[1]], color="0.45", lw=0.8, ls="--")
    xy = _project(s)
    hb = ax.hexbin(xy[:, 0], xy[:, 1], gridsize=40, extent=(0, 1, 0, _H), mincnt=1,
                   cmap="viridis", bins="log", linewidths=0)
    fig.colorbar(hb, ax=ax, shrink=0.6, label="posterior draws (log scale)")
    ax.text(0, -0.05, f"{b} better\nP = {pl:.3f}", ha="center", va="top", fontsize=9)
    ax.text(1, -0.05, f"{a} better\nP = {pr:.3f}", ha="center", va="top", fontsize=9)
    ax.text(0.5, _H + 0.03, f"practically equivalent (ROPE)\nP = {pe:.3f}", ha="center",
            va="bottom", fontsize=9)
    ax.set_xlim(-0.15, 1.15)
    ax.set_ylim(-0.2, _H + 0.17)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(title or f"Posterior of {a} vs {b}: which outcome is most probable",
                 fontsize=10)
    return fig
