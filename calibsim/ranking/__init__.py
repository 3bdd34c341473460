"""Which of my learners is best over many data sets? Friedman, a post-hoc test, Multi²Test.

:func:`rank` takes a table of scores (one per data set and learner, or
one per fold) and runs, at one significance level:

1. Friedman's test (with Iman-Davenport's F) on the average ranks (Demšar 2006);
2. a post-hoc procedure over all pairs (Bergmann-Hommel by default; García & Herrera
   2008), and the groups of learners it cannot separate (the bars of a CD diagram);
3. Multi²Test (Ulaş, Yıldız & Alpaydın 2012): an order from best to worst that breaks
   ties by a prior cost (training time, model size, or the order you give). With
   per-fold scores it runs MultiTest on each data set first; with one score per data
   set the per-data-set ranks are the score ranks, as in the paper's Table 5.

The CLI is ``calibsim rank --scores FILE.csv``.
"""

from ._bayes import bayesian_pair_results, bayesian_pairs, plot_bayesian_pairs
from ._rank import RankingResult, rank
from ._table import read_scores, scores_from_study

#: The name of :func:`rank` before 0.2 (kept for one release).
compare_over_datasets = rank

__all__ = ["RankingResult", "rank", "compare_over_datasets", "read_scores",
           "scores_from_study", "bayesian_pairs", "bayesian_pair_results",
           "plot_bayesian_pairs"]
