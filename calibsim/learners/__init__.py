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
>>> from calibsim.learners import C45
>>> clf = C45().fit(np.array([[0.5], [1.5], [2.5]]), [0, 1, 1])
>>> clf.predict(np.empty((0, 1)))
Traceback (most recent call last):
...
ValueError: `X` must have at least one row; got shape (0, 1).
"""

from .._lazy import _lazy_exports

# public class -> module that defines it. The classes load on first use: the engine's
# compiled loops import only the kernel modules, so a worker that fits built-in learners
# never imports scikit-learn (whose import, with scipy.stats and pandas, is most of a
# worker's start-up; issue 46).
_API = {"C45": "c45", "IB1": "ib1", "NaiveBayes": "naive_bayes", "TAN": "tan",
        "VotedPerceptron": "voted_perceptron"}

__all__ = ["C45", "IB1", "NaiveBayes", "TAN", "VotedPerceptron"]


__getattr__, __dir__ = _lazy_exports(__name__, _API)
