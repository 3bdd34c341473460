"""One study engine: sources x learners x schemes -> score arrays -> analyses -> outputs.

- :mod:`~calibsim.engine.spec`: the one study schema and loader (:func:`load_study`);
- :mod:`~calibsim.engine.cells`: the one pure cell function (:func:`run_cell`);
- :mod:`~calibsim.engine.store`: the one store of fingerprinted, checksummed blocks;
- :mod:`~calibsim.engine.runner`: the one Dask runner (:func:`cluster`, :func:`map_blocks`);
- :mod:`~calibsim.engine.run`: what the store lacks, computed (:func:`compute_scores`);
- :mod:`~calibsim.engine.analyses`: calibrate, rejection rate, replicability, accuracy;
- :mod:`~calibsim.engine.outputs`: generic tables and figures;
- :mod:`~calibsim.engine.pipeline`: a study file end to end (:func:`run_study_file`).

Below :mod:`calibsim.comparison`, whose public calls are doors over them, the engine also
holds what ``compare``, ``calibrate_damage`` and ``plan`` fit and compute, so that its
own ``plan`` analysis never reaches up:

- :mod:`~calibsim.engine.scoring`: the scoring half of :func:`calibsim.compare`: designs,
  learners, the data as the learners see it, blocks of fits, a test and its df;
- :mod:`~calibsim.engine.user_data`: the user's data: where it comes from, in words;
- :mod:`~calibsim.engine.damage`: Dietterich's damaged learner calibrated for any data
  (the body of :func:`calibsim.calibrate_damage`);
- :mod:`~calibsim.engine.repeats`: repeated scoring, N repeats of a design with a store;
- :mod:`~calibsim.engine.planning`: the plan itself in named steps (the body of
  :func:`calibsim.plan`, :class:`~calibsim.engine.planning.PlanResult`).

Paper-specific code (reference values, claim rules, figure layouts) lives in
:mod:`calibsim.papers`, one module per paper.
"""

from .._lazy import _lazy_exports

# public name -> module that defines it. The modules load on first use: a worker
# unpickling a cell imports calibsim.engine.cells, and with it this package, so an
# eager import here gave every worker the analyses, their scipy.stats and pandas, and
# the figures' modules at start-up (issue 46).
_API = {"load_study": "spec", "Study": "spec", "SourceSpec": "spec", "SchemeSpec": "spec",
        "AnalysisSpec": "spec", "StudyFileError": "spec", "CellSpec": "cells",
        "run_cell": "cells", "compute_scores": "run", "load_scores": "run",
        "null_differences": "run", "Scores": "scores", "run_analyses": "analyses",
        "CalibratedDF": "analyses", "run_study_file": "pipeline"}

__all__ = ["load_study", "Study", "SourceSpec", "SchemeSpec", "AnalysisSpec", "StudyFileError",
           "CellSpec", "run_cell", "compute_scores", "load_scores", "Scores", "run_analyses",
           "CalibratedDF", "run_study_file", "null_differences"]


__getattr__, __dir__ = _lazy_exports(__name__, _API)
