"""Data sources: simulated data sets with known learner differences."""

from ._null import NullSource

__all__ = ["NullSource"]
