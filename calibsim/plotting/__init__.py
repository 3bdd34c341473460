"""Figures drawn from saved tables (conventions.md, item 15).

Functions take a tidy table (or arrays) and ``ax=None``, return the Axes, and never
change global matplotlib state or call ``plt.show()``: the calibrated df and the Type I
error at it (Bouckaert 2003, Figure 2), critical-difference diagrams (Demšar 2006), the
MultiTest graph and ordering probabilities (Ulaş, Yıldız & Alpaydın 2012), and the
posterior of a correlated Bayesian t test (Corani & Benavoli 2015).
"""

from ._bayes import plot_posterior_simplex
from ._calibration import plot_calibrated_df, plot_type1_at_calibrated_df
from ._posterior import plot_posterior_difference
from ._ranks import (cd_groups, plot_critical_difference, plot_multitest_graph,
                     plot_ordering_probabilities)

__all__ = ["plot_calibrated_df", "plot_type1_at_calibrated_df", "cd_groups",
           "plot_critical_difference", "plot_multitest_graph", "plot_ordering_probabilities",
           "plot_posterior_difference", "plot_posterior_simplex"]
