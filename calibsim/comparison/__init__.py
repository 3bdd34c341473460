"""Which of my learners is better? Learners compared on your data with a calibrated test.

:func:`compare` runs a resampling design (stratified r x k cv, 5x2cv or random
subsampling, seeded), applies one of calibsim's tests at a df taken from the shipped
table of calibrated df (:func:`calibsim.lookup_df`) and returns a scipy-style
:class:`CompareResult`: each learner's mean accuracy, the difference with its
confidence interval, an effect size, the statistic, p-value and verdict, the df and
where it came from, the per-fold score matrix and how replicable the verdict is.
:func:`compare_all` does the same for every pair of several learners, with a
correction for multiple comparisons; :func:`compare_datasets` fits several learners on
several data sets and hands over to Friedman, a post-hoc procedure and Multi²Test;
:func:`calibrate_like` calibrates a test's df on null data shaped like yours.
:func:`calibrate_damage` gives the better learner random errors that make it exactly Δ
worse than the other on your data (Dietterich 1998, §5: Δ = 0 is a null on your real
data), and :func:`plan` uses it before an experiment: the Type I error, power and
replicability of every design and test on your data, and the cheapest design that
detects Δ.
:func:`compare_scores` runs the same test on per-fold scores you already have (from
``cross_validate``, a long run, Weka's Experimenter), without refitting; over several
data sets :func:`calibsim.rank` takes such a table too.

These calls are the public doors; what they fit and compute (the designs and blocks of
fits, the damage calibration, the repeats and the plan) is the engine's
(:mod:`calibsim.engine.scoring`, :mod:`~calibsim.engine.damage`,
:mod:`~calibsim.engine.repeats`, :mod:`~calibsim.engine.planning`).

The shipped df were calibrated for naive Bayes vs C4.5 on 300-instance binary null
data (Bouckaert 2003 finds they carry over well to other learners and sources, his
Table 7); ``calibsim calibrate --like`` calibrates on null data shaped like yours.
"""

from ._calibrate_like import calibrate_like
from ._compare import (CompareResult, DesignWarning, compare, compare_all,
                       detectable_difference)
from ._damage import DamageCalibration, calibrate_damage
from ._datasets import accuracy_table, compare_datasets
from ._pairs import CompareAllTable
from ._plan import DEFAULT_DESIGNS, PlanResult, plan
from ._scores import compare_scores

__all__ = ["compare", "compare_all", "compare_scores", "compare_datasets", "accuracy_table",
           "calibrate_like", "calibrate_damage", "plan", "CompareResult", "CompareAllTable",
           "DamageCalibration", "PlanResult", "DesignWarning", "detectable_difference",
           "DEFAULT_DESIGNS"]
