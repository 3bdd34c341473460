"""One study engine: sources x learners x schemes -> score arrays -> analyses -> outputs.

- :mod:`~calibsim.engine.spec`: the one study schema and loader (:func:`load_study`);
- :mod:`~calibsim.engine.cells`: the one pure cell function (:func:`run_cell`);
- :mod:`~calibsim.engine.store`: the one store of fingerprinted, checksummed blocks;
- :mod:`~calibsim.engine.runner`: the one Dask runner (:func:`cluster`, :func:`map_blocks`);
- :mod:`~calibsim.engine.run`: what the store lacks, computed (:func:`compute_scores`);
- :mod:`~calibsim.engine.analyses`: calibrate, rejection rate, replicability, accuracy;
- :mod:`~calibsim.engine.outputs`: generic tables and figures;
- :mod:`~calibsim.engine.pipeline`: a study file end to end (:func:`run_study_file`).

Paper-specific code (reference values, claim rules, figure layouts) lives in
:mod:`calibsim.papers`, one module per paper.
"""

from .analyses import CalibratedDF, run_analyses
from .cells import CellSpec, run_cell
from .pipeline import run_study_file
from .run import compute_scores, load_scores, null_differences
from .scores import Scores
from .spec import AnalysisSpec, SchemeSpec, SourceSpec, Study, StudyFileError, load_study

__all__ = ["load_study", "Study", "SourceSpec", "SchemeSpec", "AnalysisSpec", "StudyFileError",
           "CellSpec", "run_cell", "compute_scores", "load_scores", "Scores", "run_analyses",
           "CalibratedDF", "run_study_file", "null_differences"]
