"""Learners: Weka-faithful naive Bayes, C4.5 (J48), 1-nearest neighbour (IB1),
tree-augmented naive Bayes (BayesNet with TAN search) and the voted perceptron.

The public classes follow scikit-learn's estimator protocol; the numba kernels
behind them live in the private ``_kernels_*`` modules so that the resampling
engine can call them from its own compiled loops.
"""

from .c45 import C45
from .ib1 import IB1
from .naive_bayes import NaiveBayes
from .tan import TAN
from .voted_perceptron import VotedPerceptron

__all__ = ["C45", "IB1", "NaiveBayes", "TAN", "VotedPerceptron"]
