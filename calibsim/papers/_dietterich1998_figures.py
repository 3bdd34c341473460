"""Dietterich (1998): the figure layouts (Figure 4 bars, Figure 5 lines, the null-learners panels).

Every function takes rows of the paper's Type I error table
(:func:`calibsim.papers._dietterich1998_tables.type1_table`) and draws on Axes; the
layouts in :mod:`calibsim.papers.dietterich1998` save them as PNG and PDF.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["plot_type1_by_epsilon", "plot_type1_vs_resamples", "plot_null_learners",
           "save_figure"]


def plot_type1_by_epsilon(table: pd.DataFrame, *, alpha: float = 0.05, labels=None, ax=None):
    """Grouped bars like Dietterich's Figure 4: one group per test, one bar per ε.

    Parameters
    ----------
    table : pandas.DataFrame
        Rows of one source group (columns ``test``, ``epsilon``, ``type1_error``,
        ``ci_low``, ``ci_high``); tests in the order of first appearance.
    alpha : float, default 0.05
        Drawn as a horizontal dashed line.
    labels : dict of str to str, optional
        Display name per test (default: the test names).
    ax : matplotlib.axes.Axes, optional
        Default: the current Axes.

    Returns
    -------
    matplotlib.axes.Axes
    """
    import matplotlib.pyplot as plt
    ax = plt.gca() if ax is None else ax
    labels = labels or {}
    tests = list(dict.fromkeys(table["test"]))
    eps = sorted(table["epsilon"].unique())
    width = 0.8 / len(eps)
    colours = plt.get_cmap("viridis")(np.linspace(0.15, 0.85, len(eps)))
    for j, e in enumerate(eps):
        sub = table[np.isclose(table["epsilon"], e)].set_index("test").reindex(tests)
        x = np.arange(len(tests)) + (j - (len(eps) - 1) / 2) * width
        y = sub["type1_error"].to_numpy(float)
        err = [y - sub["ci_low"].to_numpy(float), sub["ci_high"].to_numpy(float) - y]
        ax.bar(x, y, width=width * 0.95, color=colours[j], label=f"ε = {e:.2f}",
               yerr=err, capsize=2, error_kw={"elinewidth": 0.8, "ecolor": "0.2"})
    ax.axhline(alpha, ls="--", lw=1, color="0.3", label=f"α = {alpha:g}")
    ax.set_xticks(np.arange(len(tests)))
    ax.set_xticklabels([labels.get(t, t) for t in tests], rotation=20, ha="right")
    ax.set(ylabel="probability of Type I error", ylim=(0, None))
    ax.legend(fontsize=8, frameon=False)
    ax.grid(True, axis="y", lw=0.3, color="0.85")
    return ax


def plot_type1_vs_resamples(table: pd.DataFrame, *, alpha: float = 0.05, labels=None,
                            ax=None):
    """Type I error against the number of resampled splits (Dietterich's Figure 5).

    The resampled t is a line with a 95% Clopper–Pearson band per ε; tests that
    do not resample (``n_resamples == 0``, e.g. the 10-fold cv t) are drawn as a
    constant line with their band across the x range.

    Parameters
    ----------
    table : pandas.DataFrame
        Rows of one source group (columns ``test``, ``epsilon``, ``n_resamples``,
        ``type1_error``, ``ci_low``, ``ci_high``).
    alpha : float, default 0.05
    labels : dict of str to str, optional
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    import matplotlib.pyplot as plt
    ax = plt.gca() if ax is None else ax
    labels = labels or {}
    res = table[table["n_resamples"] > 0]
    xs = np.sort(res["n_resamples"].unique()) if not res.empty else np.array([1, 2])
    many = table["epsilon"].nunique() > 1
    for (test, e), g in table.groupby(["test", "epsilon"], sort=False):
        tag = labels.get(test, test) + (f", ε = {e:.2f}" if many else "")
        if (g["n_resamples"] > 0).all():
            g = g.sort_values("n_resamples")
            x = g["n_resamples"].to_numpy()
            line, = ax.plot(x, g["type1_error"], marker="o", ms=4, lw=1.3, label=tag)
        else:
            x = np.array([xs.min(), xs.max()])
            g = g.iloc[[0, 0]]
            line, = ax.plot(x, g["type1_error"], ls="-.", lw=1.3, label=tag)
        ax.fill_between(x, g["ci_low"], g["ci_high"], color=line.get_color(), alpha=0.2,
                        lw=0)
    ax.axhline(alpha, ls="--", lw=1, color="0.3", label=f"α = {alpha:g}")
    ax.set(xlabel="number of resampled 2/3 – 1/3 splits",
           ylabel="probability of Type I error", ylim=(0, None))
    ax.legend(fontsize=8, frameon=False)
    ax.grid(True, lw=0.3, color="0.85")
    return ax


def plot_null_learners(table: pd.DataFrame, curves: pd.DataFrame, *, alpha: float = 0.05,
                       title: str = "Naive Bayes vs C4.5 on null data"):
    """Two panels: Type I error of every test (bars) and of the 5x2cv tests against df.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per test (columns ``label``, ``type1_error``, ``ci_low``, ``ci_high``).
    curves : pandas.DataFrame
        Columns ``test`` (``cv5x2_t``, ``cv5x2_f``), ``df`` and ``type1_error``.
    alpha : float, default 0.05
    title : str
        Title of the left panel (before the interval's name).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5), layout="constrained",
                                      width_ratios=[1.4, 1])
    y = 100 * table["type1_error"].to_numpy()
    err = [y - 100 * table["ci_low"].to_numpy(), 100 * table["ci_high"].to_numpy() - y]
    left.bar(np.arange(len(table)), y, yerr=err, color="0.55", capsize=3)
    left.axhline(100 * alpha, ls="--", lw=1, color="0.2")
    left.set_xticks(np.arange(len(table)), table["label"], rotation=20, ha="right")
    left.set(ylabel="Type I error (%)", title=f"{title} (95% Clopper–Pearson)")
    names = {"cv5x2_t": "5x2cv t", "cv5x2_f": "5x2cv F"}
    for test, g in curves.groupby("test", sort=False):
        right.plot(g["df"], 100 * g["type1_error"], label=names.get(test, test))
    right.axhline(100 * alpha, ls="--", lw=1, color="0.2")
    right.set(xlabel="df (5x2cv t: t reference; F: denominator df)",
              ylabel="Type I error (%)", title="Calibrating the 5x2cv tests")
    right.legend(frameon=False)
    return fig


def save_figure(fig, folder, stem: str, *, dpi: int = 130) -> dict:
    """Save ``fig`` as ``<stem>.png`` and ``<stem>.pdf`` (no creation date: reproducible)."""
    import matplotlib.pyplot as plt
    paths = {}
    for ext in ("png", "pdf"):
        path = Path(folder) / f"{stem}.{ext}"
        fig.savefig(path, dpi=dpi, metadata={"CreationDate": None} if ext == "pdf" else {})
        paths[f"figure.{ext}"] = path
    plt.close(fig)
    return paths
