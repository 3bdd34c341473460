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


def _axes(ax, size=(9.0, 4.8)):
    if ax is not None:
        return ax
    from matplotlib.figure import Figure
    return Figure(figsize=size, layout="constrained").add_subplot()


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
        Default: a new figure's Axes.

    Returns
    -------
    matplotlib.axes.Axes
    """
    from ..plotting._style import REFERENCE, series_style
    ax = _axes(ax)
    labels = labels or {}
    tests = list(dict.fromkeys(table["test"]))
    eps = sorted(table["epsilon"].unique())
    width = 0.8 / len(eps)
    for j, e in enumerate(eps):
        sub = table[np.isclose(table["epsilon"], e)].set_index("test").reindex(tests)
        x = np.arange(len(tests)) + (j - (len(eps) - 1) / 2) * width
        y = 100 * sub["type1_error"].to_numpy(float)
        err = [y - 100 * sub["ci_low"].to_numpy(float), 100 * sub["ci_high"].to_numpy(float) - y]
        ax.bar(x, y, width=width * 0.95, color=series_style(j)["color"], label=f"ε = {e:.2f}",
               yerr=err, capsize=2, error_kw={"elinewidth": 0.8, "ecolor": "0.2"})
    ax.axhline(100 * alpha, label=f"α = {100 * alpha:g}%", **REFERENCE)
    ax.set_xticks(np.arange(len(tests)))
    ax.set_xticklabels([labels.get(t, t) for t in tests], rotation=20, ha="right")
    ax.set(xlabel="test", ylabel="Type I error (%), 95% Clopper–Pearson interval")
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
    from ..plotting._style import REFERENCE, series_style
    ax = _axes(ax, (7.5, 4.8))
    labels = labels or {}
    res = table[table["n_resamples"] > 0]
    xs = np.sort(res["n_resamples"].unique()) if not res.empty else np.array([1, 2])
    many = table["epsilon"].nunique() > 1
    for i, ((test, e), g) in enumerate(table.groupby(["test", "epsilon"], sort=False)):
        tag = labels.get(test, test) + (f", ε = {e:.2f}" if many else "")
        st = series_style(i)
        if (g["n_resamples"] > 0).all():
            g = g.sort_values("n_resamples")
            x = g["n_resamples"].to_numpy()
            ax.plot(x, 100 * g["type1_error"], ms=4, lw=1.3, label=tag, **st)
        else:
            x = np.array([xs.min(), xs.max()])
            g = g.iloc[[0, 0]]
            ax.plot(x, 100 * g["type1_error"], lw=1.3, label=tag,
                    **{**st, "ls": "-.", "marker": "None"})
        ax.fill_between(x, 100 * g["ci_low"], 100 * g["ci_high"], color=st["color"],
                        alpha=0.2, lw=0)
    ax.axhline(100 * alpha, label=f"α = {100 * alpha:g}%", **REFERENCE)
    ax.set(xlabel="number of resampled 2/3 – 1/3 splits",
           ylabel="Type I error (%), 95% Clopper–Pearson band")
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
    from matplotlib.figure import Figure

    from ..plotting._style import REFERENCE, series_style
    fig = Figure(figsize=(12, 4.8), layout="constrained")
    left, right = fig.subplots(1, 2, width_ratios=[1.4, 1])
    y = 100 * table["type1_error"].to_numpy()
    err = [y - 100 * table["ci_low"].to_numpy(), 100 * table["ci_high"].to_numpy() - y]
    left.bar(np.arange(len(table)), y, yerr=err, color="0.55", capsize=3)
    left.axhline(100 * alpha, label=f"α = {100 * alpha:g}%", **REFERENCE)
    left.set_xticks(np.arange(len(table)), table["label"], rotation=20, ha="right")
    left.set(xlabel="test", ylabel="Type I error (%)",
             title=f"{title} (95% Clopper–Pearson intervals)")
    left.legend(frameon=False, fontsize=8)
    names = {"cv5x2_t": "5x2cv t", "cv5x2_f": "5x2cv F"}
    for i, (test, g) in enumerate(curves.groupby("test", sort=False)):
        right.plot(g["df"], 100 * g["type1_error"], label=names.get(test, test),
                   **{**series_style(i), "marker": "None"})
    right.axhline(100 * alpha, label=f"α = {100 * alpha:g}%", **REFERENCE)
    right.set(xlabel="df (5x2cv t: t reference; F: denominator df)",
              ylabel="Type I error (%)", title="Calibrating the 5x2cv tests")
    right.legend(frameon=False)
    for ax in (left, right):
        ax.title.set_fontsize(10)
    return fig


def save_figure(fig, folder, stem: str, *, dpi: int = 130) -> dict:
    """Save ``fig`` as ``<stem>.png`` and ``<stem>.pdf`` (no creation date: reproducible)."""
    from ..plotting._style import save_figure as save
    return {f"figure.{ext}": save(fig, Path(folder) / f"{stem}.{ext}", dpi=dpi)
            for ext in ("png", "pdf")}
