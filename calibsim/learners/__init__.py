"""Learners: Weka-faithful naive Bayes and C4.5 (J48) on nominal data.

The public classes follow scikit-learn's estimator protocol; the numba kernels
behind them live in the private ``_kernels_*`` modules so that the resampling
engine can call them from its own compiled loops.
"""

from .c45 import C45
from .naive_bayes import NaiveBayes

__all__ = ["C45", "NaiveBayes"]
