"""Dietterich (1998): Figures 4 and 5 (ε-point simulated learners) and his tests on real learners.

Only what is the paper's own lives here: its names of the tests, the rules that
check its qualitative findings (§4) and the layouts of its figures. Every number
comes from the engine's analyses of a study file:

- ``figure4`` (``studies/dietterich1998_figure4.toml``): Type I error of McNemar's
  test, the difference of two proportions, the resampled t, the 10-fold cv t and the
  5x2cv t (with Alpaydin's 5x2cv F and the exact McNemar test) on ε-point sources,
  one bar per test and ε; further source groups (other ``gap`` rules) appear as
  sensitivity tables in the report;
- ``figure5`` (``studies/dietterich1998_figure5.toml``): the resampled t's Type I
  error against the number of resampled splits, the 10-fold cv t for contrast;
- ``null_learners`` (``studies/dietterich1998_null_learners.toml``): the same tests
  with naive Bayes and C4.5 on the null data of the Bouckaert (2003) Figure 2 study,
  and the Type I error of the 5x2cv tests against df;
- ``real`` (``studies/dietterich1998_{exp6,letter,pima}.toml``, §5): C4.5 against the
  first nearest neighbour on EXP6 (a stated substitute), letter recognition and Pima,
  one learner damaged (:mod:`calibsim.learners._damaged`, calibrated by
  :func:`calibrate_damage`) to equal mean errors (Type I error) or a fraction λ of the
  way to its undamaged learning curve (power); per task ``<study>_type1``,
  ``<study>_power.csv``, figure and report, and over the tasks the paper's bar figure
  ``dietterich1998_real_type1`` (:mod:`calibsim.papers._dietterich1998_real_report`).

Each layout writes ``<study>_type1.csv`` / ``.md`` (the engine's table with
``type1_error``, ``n_rejected``, ``n_resamples`` and the paper's test labels), the
figure (``<study>.png`` and ``.pdf``) and ``<study>_report.md``; ``null_learners``
also ``<study>_5x2cv_df.csv``.

{references:dietterich1998,alpaydin1999}
"""

from __future__ import annotations

from .._docstrings import fill
from ._dietterich1998_real import calibrate_damage, learning_curves
from ._dietterich1998_real_report import write_real
from ._dietterich1998_reports import write_epsilon_point, write_null_learners

__doc__ = fill(__doc__)

__all__ = ["LAYOUTS", "calibrate_damage", "learning_curves"]


def _figure4(*, study, tables, scores, folder, wall=None, calibrations=None):
    """Figure 4: Type I error per test and ε (bars), the paper's findings beside ours."""
    return write_epsilon_point(study, tables, folder, figure="figure4", wall=wall)


def _figure5(*, study, tables, scores, folder, wall=None, calibrations=None):
    """Figure 5: the resampled t's Type I error against the number of resampled splits."""
    return write_epsilon_point(study, tables, folder, figure="figure5", wall=wall)


def _null_learners(*, study, tables, scores, folder, wall=None, calibrations=None):
    """Dietterich's tests with naive Bayes and C4.5 on null data; 5x2cv Type I error vs df."""
    return write_null_learners(study, tables, scores, folder, wall=wall)


def _real(*, study, tables, scores, folder, wall=None, calibrations=None):
    """§5: Type I error and power with C4.5 and a damaged learner on one real task."""
    return write_real(study, tables, scores, folder, wall=wall)


LAYOUTS = {"figure4": _figure4, "figure5": _figure5, "null_learners": _null_learners,
           "real": _real}
