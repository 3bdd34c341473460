"""Figures drawn from saved calibration tables (conventions.md, item 15).

Functions take a tidy table and ``ax=None``, return the Axes, and never change
global matplotlib state or call ``plt.show()``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["plot_calibrated_df", "plot_type1_at_calibrated_df"]

# One style per test, so a test looks the same in every panel and figure.
_MARKERS = "osD^v<>phX*P8"


def _styles(tests):
    import matplotlib as mpl
    cmap = mpl.colormaps["tab10"]
    return {t: {"color": cmap(i % 10), "marker": _MARKERS[i % len(_MARKERS)]}
            for i, t in enumerate(tests)}


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
        Where to draw; default: the current Axes.
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
    import matplotlib.pyplot as plt
    ax = plt.gca() if ax is None else ax
    sub = _subset(table, alpha, tests)
    styles = _styles(list(tests) if tests is not None else list(dict.fromkeys(table["test"])))
    for test, g in sub.groupby("test", sort=False):
        g = g.sort_values("n_runs")
        ax.plot(g["n_runs"], g["calibrated_df"], label=g["label"].iloc[0], lw=1.2, ms=4,
                **styles[test])
    if textbook_line:
        runs = np.sort(sub["n_runs"].unique())
        ax.plot(runs, runs - 1, ls=":", lw=1, color="0.4", label="r − 1 (textbook)")
    ax.set(xlabel="number of runs r", ylabel="calibrated df (0: none keeps Type I ≤ α)")
    ax.grid(True, lw=0.3, color="0.85")
    return ax


def plot_type1_at_calibrated_df(table, *, alpha: float = 0.05, tests=None, ax=None):
    """Type I error (percent) at the calibrated df against runs (Figure 2, right).

    Error bars are the 95% Clopper–Pearson intervals of the table's
    ``ci_low``/``ci_high`` columns; the dashed line is α.

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
    import matplotlib.pyplot as plt
    ax = plt.gca() if ax is None else ax
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
                    elinewidth=0.8, label=g["label"].iloc[0], **styles[test])
    ax.axhline(100 * alpha, ls="--", lw=1, color="0.3")
    ax.set(xlabel="number of runs r", ylabel="Type I error at calibrated df (%)")
    ax.grid(True, lw=0.3, color="0.85")
    return ax
