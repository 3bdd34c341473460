"""Learners: Weka-faithful naive Bayes, C4.5 (J48), 1-nearest neighbour (IB1),
tree-augmented naive Bayes (BayesNet with TAN search) and the voted perceptron.

The public classes follow scikit-learn's estimator protocol; the numba kernels
behind them live in the private ``_kernels_*`` modules (C4.5's in the private
``_c45`` package, one module per role) so that the resampling engine can call
them from its own compiled loops.

Zero rows, one rule for all five: ``fit``, ``predict`` and ``predict_proba`` raise
``ValueError`` ("`X` must have at least one row") for an ``X`` with no rows, whatever
its dtype, as scikit-learn's estimators do (``check_array``'s
``ensure_min_samples=1``). Weka would evaluate an empty test set and predict nothing;
we follow scikit-learn because these classes are used as scikit-learn estimators
(pipelines, ``cross_val_score``, ``GridSearchCV``), where an empty array is a bug
upstream (an empty fold) that an empty answer would hide, and calibsim's own schemes
never ask for a prediction on an empty test set. Predictions are unchanged for every
non-empty ``X``.

>>> import numpy as np
>>> clf = C45().fit(np.array([[0.5], [1.5], [2.5]]), [0, 1, 1])
>>> clf.predict(np.empty((0, 1)))
Traceback (most recent call last):
...
ValueError: `X` must have at least one row; got shape (0, 1).
"""

from .c45 import C45
from .ib1 import IB1
from .naive_bayes import NaiveBayes
from .tan import TAN
from .voted_perceptron import VotedPerceptron

__all__ = ["C45", "IB1", "NaiveBayes", "TAN", "VotedPerceptron"]
