"""Figures drawn from saved tables, in one style (docs/guide/figures.md).

Functions take a tidy table (or arrays) and ``ax=None``, return the Axes, and never
change global matplotlib state or call ``plt.show()``: the calibrated df and the Type I
error at it (Bouckaert 2003, Figure 2), critical-difference diagrams (Demšar 2006), the
MultiTest graph and ordering probabilities (Ulaş, Yıldız & Alpaydın 2012), and the
posterior of a correlated Bayesian t test (Corani & Benavoli 2015).

Every figure of calibsim — these, the generic figure of each study analysis and the
paper layouts — takes its colours and markers from :func:`series_style` (Okabe & Ito's
colour-blind-safe :data:`PALETTE`), its names from :func:`display_name` and its title
from :func:`finish_figure`; :func:`check_figure` tests a figure against the checklist.
"""

from .._lazy import _lazy_exports
from ._calibration import plot_calibrated_df, plot_type1_at_calibrated_df
from ._check import check_figure
from ._names import axis_label, display_name
from ._posterior import plot_posterior_difference
from ._ranks import (cd_groups, plot_critical_difference, plot_multitest_graph,
                     plot_ordering_probabilities)
from ._style import (MARKERS, MAX_SERIES, PALETTE, REFERENCE, finish_figure, new_figure,
                     reduced_stamp, save_figure, series_style, share_y)

__all__ = ["plot_calibrated_df", "plot_type1_at_calibrated_df", "cd_groups",
           "plot_critical_difference", "plot_multitest_graph", "plot_ordering_probabilities",
           "plot_posterior_difference", "plot_posterior_simplex",
           "check_figure", "display_name", "axis_label", "series_style", "new_figure",
           "finish_figure", "save_figure", "share_y", "reduced_stamp", "PALETTE", "MARKERS",
           "MAX_SERIES", "REFERENCE"]

# The posterior simplex is drawn by a stats result's method, so its code lives in stats
# (calibsim.stats._simplex, re-exported by ._bayes); it loads on first use, so that
# importing the figures' style (a worker's matplotlib) does not import the tests.
__getattr__, __dir__ = _lazy_exports(__name__, {"plot_posterior_simplex": "_bayes"})
