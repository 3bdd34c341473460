"""Data sources: simulated data sets with known learner differences."""

from ._epsilon_point import EpsilonPointSource, EpsilonPointTrials, epsilon_pair
from ._null import NullSource

__all__ = ["NullSource", "EpsilonPointSource", "EpsilonPointTrials", "epsilon_pair"]
