"""calibsim: calibration and simulation studies of the tests that compare learning algorithms.

The everyday calls are here, at the top (loaded on first use, so ``import calibsim``
stays quick):

- :func:`compare` (two learners on one data set, a calibrated test), :func:`compare_all`
  (every pair of several learners), :func:`compare_datasets` (several learners over
  several data sets: Friedman, a post-hoc procedure, Multi²Test);
- :func:`compare_scores` (two learners' per-fold scores you already have: the same test
  as :func:`compare`, without refitting);
- :func:`rank` (a table of scores over data sets: the same, without fitting);
- :func:`calibrate` (calibrate a test's df on null data you have),
  :func:`calibrate_like` (on null data shaped like your data set) and
  :func:`lookup_df` (the shipped table of calibrated df), :func:`lookup_rho` (the
  shipped table of the correlated Bayesian t's calibrated ρ);
- :func:`plan` (before the experiment: Type I error, power and replicability of every
  design and test on your data, from Dietterich's damaged learners,
  :func:`calibrate_damage`).

The subpackages hold the rest: :mod:`calibsim.stats` (the tests),
:mod:`calibsim.calibration`, :mod:`calibsim.measures`, :mod:`calibsim.learners`,
:mod:`calibsim.sources`, :mod:`calibsim.schemes`, :mod:`calibsim.datasets`,
:mod:`calibsim.comparison`, :mod:`calibsim.ranking`, :mod:`calibsim.tuning`,
:mod:`calibsim.plotting`, :mod:`calibsim.reports` (reports in Markdown, LaTeX and HTML),
:mod:`calibsim.engine` (the study engine) and
:mod:`calibsim.papers` (what is each paper's own).
"""

import importlib

from ._version import __version__

# public name -> subpackage that defines it
_API = {
    "compare": "comparison", "compare_all": "comparison", "compare_datasets": "comparison",
    "compare_scores": "comparison",
    "calibrate_like": "comparison", "CompareResult": "comparison",
    "calibrate_damage": "comparison", "plan": "comparison",
    "DesignWarning": "comparison",
    "rank": "ranking", "RankingResult": "ranking",
    "calibrate": "calibration", "lookup_df": "calibration", "lookup_rho": "calibration",
    "load_uci": "datasets", "load_arff": "datasets", "load_csv": "datasets",
}
_SUBPACKAGES = ("calibration", "cli", "comparison", "datasets", "engine", "evaluate",
                "learners", "measures", "metrics", "papers", "plotting", "preprocessing", "ranking",
                "reports", "schemes", "sources", "stats", "tuning")

__all__ = ["__version__", *_API]


def __getattr__(name):
    if name in _API:
        value = getattr(importlib.import_module(f".{_API[name]}", __name__), name)
    elif name in _SUBPACKAGES:
        value = importlib.import_module(f".{name}", __name__)
    else:
        raise AttributeError(f"module 'calibsim' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_API) | set(_SUBPACKAGES))

