"""Figures drawn from saved calibration tables (conventions.md, item 15).

Functions take a tidy table and ``ax=None``, return the Axes, and never change
global matplotlib state or call ``plt.show()``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["plot_calibrated_df", "plot_type1_at_calibrated_df"]

def _styles(tests):
    """One style per test (Okabe & Ito's palette, distinct colour + marker), so a test
    looks the same in every panel of a figure."""
    from ._style import series_style
    return {t: series_style(i) for i, t in enumerate(tests)}


def _new_axes(ax):
    if ax is not None:
        return ax
    from matplotlib.figure import Figure
    return Figure(figsize=(6.0, 4.0), layout="constrained").add_subplot()


def _subset(table, alpha, tests=None):
    sub = table[np.isclose(table["alpha"], alpha)]
    if tests is not None:
        sub = sub[sub["test"].isin(tests)]
    if sub.empty:
        raise ValueError(f"`alpha` = {alpha} is not in the table; it holds "
                         f"{sorted(table['alpha'].unique())}.")
    return sub


def plot_calibrated_df(table, *, alpha: float = 0.05, tests=None, ax=None,
                       textbook_line: bool = False):
    """Calibrated df against the number of runs, one line per test (Figure 2, left).

    Parameters
    ----------
    table : pandas.DataFrame
        Tidy calibration table with columns ``test``, ``label``, ``n_runs``,
        ``alpha`` and ``calibrated_df`` (as written by
        the ``calibrate`` analysis, :func:`calibsim.engine.analyses.calibration_rows`).
    alpha : float, default 0.05
        Significance level to draw.
    tests : sequence of str, optional
        The tests to draw (default all); one colour each, in this order.
    ax : matplotlib.axes.Axes, optional
        Where to draw; default: a new figure's Axes.
    textbook_line : bool, default False
        Also draw r - 1, the textbook df of the resampled t.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ValueError
        If ``alpha`` is not in the table.
    """
    from ._names import display_name
    from ._style import REFERENCE
    ax = _new_axes(ax)
    sub = _subset(table, alpha, tests)
    styles = _styles(list(tests) if tests is not None else list(dict.fromkeys(table["test"])))
    for test, g in sub.groupby("test", sort=False):
        g = g.sort_values("n_runs")
        ax.plot(g["n_runs"], g["calibrated_df"], label=display_name(g["label"].iloc[0]),
                lw=1.2, ms=4, **styles[test])
    if textbook_line:
        runs = np.sort(sub["n_runs"].unique())
        ax.plot(runs, runs - 1, gid="reference", label="r − 1 (textbook df)", **REFERENCE)
    ax.set(xlabel="number of runs r", ylabel="calibrated df (0: none keeps Type I ≤ α)")
    ax.grid(True, lw=0.3, color="0.85")
    return ax


def plot_type1_at_calibrated_df(table, *, alpha: float = 0.05, tests=None, ax=None):
    """Type I error (percent) at the calibrated df against runs (Figure 2, right).

    Error bars are the 95% Clopper–Pearson intervals of the table's
    ``ci_low``/``ci_high`` columns; the dotted line is α.

    Parameters
    ----------
    table : pandas.DataFrame
        As for :func:`plot_calibrated_df`, plus ``type1_error``, ``ci_low`` and
        ``ci_high`` (proportions in [0, 1]).
    alpha : float, default 0.05
    tests : sequence of str, optional
        The tests to draw (default all).
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    from ._names import display_name
    from ._style import REFERENCE
    ax = _new_axes(ax)
    sub = _subset(table, alpha, tests)
    styles = _styles(list(tests) if tests is not None else list(dict.fromkeys(table["test"])))
    tests = list(dict.fromkeys(sub["test"]))
    for i, (test, g) in enumerate(sub.groupby("test", sort=False)):
        g = g.sort_values("n_runs")
        y = 100 * g["type1_error"].to_numpy(float)
        lo = 100 * g["ci_low"].to_numpy(float)
        hi = 100 * g["ci_high"].to_numpy(float)
        dx = (i - (len(tests) - 1) / 2) * 0.6    # dodge so the bars do not overlap
        ax.errorbar(g["n_runs"] + dx, y, yerr=[y - lo, hi - y], lw=1.0, ms=4, capsize=0,
                    elinewidth=0.8, label=display_name(g["label"].iloc[0]), **styles[test])
    ax.axhline(100 * alpha, label=f"α = {100 * alpha:g}%", **REFERENCE)
    ax.text(0.01, 100 * alpha, f" α = {100 * alpha:g}%", transform=ax.get_yaxis_transform(),
            va="bottom", ha="left", fontsize=7, color=REFERENCE["color"])
    ax.set(xlabel="number of runs r",
           ylabel="Type I error at calibrated df (%), 95% CI")
    ax.grid(True, lw=0.3, color="0.85")
    return ax
