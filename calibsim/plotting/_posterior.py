"""The posterior of the mean difference of a correlated Bayesian t test (a density)."""

from __future__ import annotations

import numpy as np

__all__ = ["plot_posterior_difference"]


def plot_posterior_difference(result, *, learners=("A", "B"), ax=None, title=None):
    """The posterior density of the mean accuracy difference, with the ROPE shaded.

    For the correlated Bayesian t test (Corani & Benavoli 2015): the posterior of the
    mean difference A - B is Student's t with location ``result.mean``, scale
    ``result.scale`` and ``result.df`` df. The areas left of the ROPE, inside it and
    right of it are the posterior probabilities that B is better, that the two are
    practically equivalent, and that A is better.

    Parameters
    ----------
    result : calibsim.stats.BayesianResult
        Of :func:`calibsim.stats.correlated_bayesian_ttest` on one comparison.
    learners : (str, str), default ("A", "B")
        Names of A and B, for the labels.
    ax : matplotlib.axes.Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ValueError
        If ``result`` has no posterior density (the signed-rank test) or holds many
        comparisons.

    Examples
    --------
    >>> import numpy as np
    >>> from calibsim.stats import correlated_bayesian_ttest
    >>> from calibsim.plotting import plot_posterior_difference
    >>> x = np.random.default_rng(0).normal(0.01, 0.02, size=(10, 10))
    >>> res = correlated_bayesian_ttest(x, rope=0.01, rho=0.1)
    >>> ax = plot_posterior_difference(res, learners=("C4.5", "naive Bayes"))
    >>> ax.get_xlabel()
    'accuracy of C4.5 minus naive Bayes (percentage points)'
    """
    from scipy import stats

    from ._style import PALETTE
    from ._ranks import _new_axes
    if np.ndim(result.mean) or not np.isfinite(result.scale):
        raise ValueError("`result` must be one comparison with a Student t posterior (the "
                         "correlated Bayesian t test); got "
                         f"{'several comparisons' if np.ndim(result.mean) else result.method!r}.")
    a, b = (str(n) for n in learners)
    post = stats.t(result.df, loc=100 * result.mean, scale=100 * result.scale)
    rope = 100 * result.rope
    lo, hi = post.ppf(0.0005), post.ppf(0.9995)
    lo, hi = min(lo, -rope - 0.1 * (hi - lo)), max(hi, rope + 0.1 * (hi - lo))
    x = np.linspace(lo, hi, 801)
    y = post.pdf(x)
    ax = _new_axes(ax, (6.0, 3.0))
    ax.plot(x, y, color="k", lw=1.2)
    for mask, colour, label, p in (
            (x < -rope, PALETTE[1], f"{b} better", result.p_left),
            ((x >= -rope) & (x <= rope), "0.75", "practically equivalent", result.p_rope),
            (x > rope, PALETTE[0], f"{a} better", result.p_right)):
        if mask.any():
            ax.fill_between(x[mask], y[mask], color=colour, alpha=0.8, lw=0,
                            label=f"{label}: P = {float(p):.3f}")
    if rope > 0:
        for edge in (-rope, rope):
            ax.axvline(edge, color="0.4", lw=0.8, ls="--")
    ax.set(xlabel=f"accuracy of {a} minus {b} (percentage points)",
           ylabel="posterior density", ylim=(0, 1.08 * float(y.max())))
    ax.legend(fontsize=8, loc="upper left", frameon=True, framealpha=0.9, edgecolor="none")
    ax.set_title(title if title is not None else
                 f"Posterior of the mean difference, ROPE ±{rope:g} point"
                 + ("" if rope == 1 else "s"), fontsize=10)
    return ax
