"""Run learners on a scheme's splits and return score arrays.

This is the step "learners → schemes → score arrays": every learner is trained on
every training set of one data set inside one numba call (:func:`score_splits`), and
its correct predictions on the matching test set are counted.
"""

from ._score import LEARNERS, SplitScores, score_splits

__all__ = ["LEARNERS", "SplitScores", "score_splits"]
