"""The posterior of a Bayesian comparison in the probability simplex (Corani et al. 2017,
Figure 6; Benavoli et al. 2017, §4).

The figure is drawn by a stats result's own method
(:meth:`calibsim.stats.HierarchicalResult.plot_posterior`), so its code lives in
:mod:`calibsim.stats._simplex`, below the figures; this module re-exports it for
:mod:`calibsim.plotting`.
"""

from ..stats._simplex import plot_posterior_simplex

__all__ = ["plot_posterior_simplex"]
