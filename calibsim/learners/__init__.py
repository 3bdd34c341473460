"""Learners: Weka-faithful naive Bayes, C4.5 (J48) and 1-nearest neighbour (IB1).

The public classes follow scikit-learn's estimator protocol; the numba kernels
behind them live in the private ``_kernels_*`` modules so that the resampling
engine can call them from its own compiled loops.
"""

from .c45 import C45
from .ib1 import IB1
from .naive_bayes import NaiveBayes

__all__ = ["C45", "IB1", "NaiveBayes"]
