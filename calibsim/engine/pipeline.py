"""A study file from end to end: load, compute (or resume) scores, analyse, write outputs.

``calibsim run`` and ``calibsim report`` are :func:`run_study_file` with and
without computing. Outputs go to the study's ``[outputs] figures`` folder, to
``out`` when given, and — for a run given ``n_datasets`` (a quick look, reduced or
not) without ``out`` — to ``<results>/reduced/<name>_n<N>/``, so a quick look never
writes under the tracked folders. Wall times (the run's and the learners' fit and
predict times) go to the untracked ``<name>_runlog.txt`` only, so a rerun leaves
the tracked outputs byte-identical.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from pathlib import Path

from .analyses import CalibratedDF, analysis_lookups, by_blocks, run_analyses
from ..plotting._style import figures_later, load_matplotlib
from .outputs import draw_figures, write_figures, write_tables
from .run import analyse_blocks, compute_scores, load_scores
from .runner import LocalPool
from .spec import load_study

__all__ = ["run_study_file", "output_folder"]

logger = logging.getLogger(__name__)


def output_folder(study, out=None) -> Path:
    """Where a run of ``study`` writes its tables, figures and report."""
    if out is not None:
        return Path(out).resolve()
    if study.requested_n_datasets is not None:
        return study.results / "reduced" / f"{study.name}_n{study.requested_n_datasets}"
    return study.figures


def _load(path, n_datasets, results):
    study = load_study(path, n_datasets=n_datasets)
    return study if results is None else replace(study, results=Path(results).resolve())


def _calibration_studies(study, n_datasets, results):
    paths = {a.calibration for a in study.analyses if a.calibration is not None}
    return {p: _load(p, n_datasets, results) for p in sorted(paths)}


def run_study_file(path, *, n_datasets=None, out=None, results=None, scheduler=None,
                   n_workers=None, progress=None, compute=True, n_boot: int = 200,
                   client=None, finish=None) -> dict:
    """Run (or only report) one study file; returns ``{label: written path}``.

    Parameters
    ----------
    path : str or path-like
        The study file.
    n_datasets : int, optional
        Data sets per simulated source, for this study and the studies it takes
        calibrated df from (a quick look).
    out : path-like, optional
        Folder for tables, figures and report (default: see the module docstring).
    results : path-like, optional
        The store's parent folder, for this study and the studies it takes calibrated
        df from (default: each file's ``[outputs] results``).
    scheduler, n_workers
        As for :func:`calibsim.engine.runner.cluster`.
    progress : calibsim.engine.runner.Progress, optional
    compute : bool, default True
        False: use saved scores only (``calibsim report``); a missing block raises
        ``FileNotFoundError`` naming the study and the number of data sets missing.
    n_boot : int, default 200
        Bootstrap resamples of calibrated df errors.
    client : distributed.Client, optional
        Run on this cluster (``scheduler`` and ``n_workers`` are then ignored):
        ``calibsim run studies/`` starts one cluster for every study of the folder.
    finish : callable, optional
        Once the scores are computed (or found saved), the rest of the run (analyses
        and outputs, a function of no arguments returning the paths) is handed to
        ``finish`` instead of run here, and what ``finish`` returns is returned.
        ``calibsim run studies/`` passes a one-thread executor's ``submit``, so that
        one study's analyses and outputs overlap the next study's computing (the
        outputs are the same either way: they depend on the saved scores only). That
        phase then shows no progress bar. When computing, the cluster must outlive the
        deferred phase: give ``client``, or ``n_workers=0`` (no cluster).

    Returns
    -------
    dict of str to pathlib.Path
        Or what ``finish`` returns.

    Raises
    ------
    ValueError
        If ``finish`` is given with ``compute`` but neither ``client`` nor
        ``n_workers=0``.
    """
    from .runner import check_n_workers, warm_up
    check_n_workers(n_workers, scheduler)
    if finish is not None and compute and client is None and n_workers != 0:
        raise ValueError("`finish` needs `client` or `n_workers=0`: a cluster started here "
                         f"would stop before the deferred analyses; got n_workers={n_workers!r}.")
    t0 = time.perf_counter()
    study = _load(path, n_datasets, results)
    nested = _calibration_studies(study, n_datasets, results)
    if compute and (study.sources or nested):
        with _cluster_or(client, scheduler, n_workers) as client:
            if progress is not None:
                progress.phase("compiling kernels")
            warm_up(client)
            cal_scores = {p: compute_scores(s, client=client, progress=progress)
                          for p, s in nested.items()}
            compute_scores(study, client=client, progress=progress, load=False)
            from ._plan_analysis import compute_plans
            compute_plans(study, client=client, progress=progress)
            args = (study, nested, cal_scores, client, out, n_boot, compute, t0)
            if finish is not None:
                return finish(lambda: _finish(*args, progress=None))
            return _finish(*args, progress=progress)
    cal_scores = {p: load_scores(s) for p, s in nested.items()}
    args = (study, nested, cal_scores, None, out, n_boot, compute, t0)
    if finish is not None:
        return finish(lambda: _finish(*args, progress=None))
    return _finish(*args, progress=progress)


def _finish(study, nested, cal_scores, client, out, n_boot, compute, t0, *, progress) -> dict:
    """The analyses and outputs of a study whose scores are saved; returns the paths."""
    lookups = {p: CalibratedDF(nested[p], cal_scores[p]) for p in nested}
    summaries = _summaries(study, [a for a in study.analyses if by_blocks(a)], lookups, client,
                           progress)
    # every score at once only for what needs it (accuracy, ρ, own calibrated df, papers)
    scores = _LazyScores(study)
    tables = run_analyses(study, scores, calibrations=lookups, n_boot=n_boot,
                          summaries=summaries, compute=compute, client=client)
    if progress is not None:
        progress.phase("writing outputs")
    if isinstance(client, LocalPool):      # the workers import matplotlib meanwhile
        client.run_soon(load_matplotlib)
    folder = output_folder(study, out)
    paths = write_tables(study, tables, folder)
    # the figures are collected while the tables and reports are written, then drawn on
    # the workers, in parallel (the same bytes as drawn here: draw_figures)
    with figures_later() as jobs:
        paths.update(write_figures(study, study.analyses, tables, folder))
        if study.paper:
            from ..papers import get_paper
            paths.update(get_paper(study.paper).write(
                study=study, tables=tables, scores=scores, folder=folder, wall=None,
                calibrations={p: (nested[p], cal_scores[p]) for p in nested}))
    unwritten = draw_figures(jobs, client=client)
    paths = {k: v for k, v in paths.items() if Path(v) not in unwritten}
    if study.reduced:
        _label_reduced(study, paths)
    _write_runlog(study, folder, time.perf_counter() - t0, compute, times=_times(tables))
    return paths


def _times(tables: dict) -> dict:
    """The wall-time columns of the analysis tables (with the columns that name their
    rows), for the run log: timings change from run to run, so no tracked table holds them."""
    from .outputs import TIME_COLUMNS
    out = {}
    for name, table in tables.items():
        cols = [c for c in TIME_COLUMNS if c in table.columns]
        if cols and table[cols].notna().any().any():
            keys = [c for c in ("source", "learner", "scheme") if c in table.columns]
            out[name] = table[keys + cols]
    return out


def _cluster_or(client, scheduler, n_workers):
    """``client`` as a context that leaves it open, else a new cluster."""
    import contextlib

    from .runner import cluster
    if client is not None:
        return contextlib.nullcontext(client)
    return cluster(scheduler=scheduler, n_workers=n_workers)


def _summaries(study, analyses, lookups, client, progress):
    """Block summaries of ``analyses``, computed block by block on the workers."""
    if not analyses:
        return None
    if progress is not None:
        progress.phase("analyses")
    return analyse_blocks(study, analyses, analysis_lookups(study, lookups), client=client,
                          progress=progress)


class _LazyScores:
    """A study's :class:`~calibsim.engine.scores.Scores`, loaded on first use: a study
    whose analyses all go block by block never holds every score in one process."""

    def __init__(self, study):
        self._study, self._scores = study, None

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        if self._scores is None:
            self._scores = load_scores(self._study)
        return getattr(self._scores, name)


REDUCED_BANNER = "> **Reduced run**"


def _label_reduced(study, paths: dict) -> None:
    """Open every report of a reduced run with what it is, so that no text written for
    the published size passes for this run's (the tables and figures are this run's)."""
    n = max(s.n_datasets for s in study.sources)
    declared = max(study.declared_n_datasets)
    cut = len(study.sources) < getattr(study, "declared_sources", 0)
    what = (f"{len(study.sources)} of the {study.declared_sources} sources the study file "
            "declares (the first data sets of each group)" if cut else
            f"{n} data sets per simulated source instead of the {declared} the study file "
            "declares")
    banner = (f"{REDUCED_BANNER}: {what}. Numbers and verdicts below are this run's, with its "
              "larger Monte Carlo error; prose that quotes the published-size run does not "
              "describe them.\n\n")
    for path in paths.values():
        path = Path(path)
        if path.suffix == ".md" and path.name.endswith("_report.md") and path.is_file():
            text = path.read_text(encoding="utf-8")
            if not text.startswith(REDUCED_BANNER):
                path.write_text(banner + text, encoding="utf-8")


def _write_runlog(study, folder: Path, wall: float, compute: bool, times=None) -> Path:
    """Wall time, date and machine of this run, in an untracked ``<name>_runlog.txt``,
    with the learners' mean fit and predict seconds per split (``times``: analysis name
    -> table) where the study keeps them.

    Tracked outputs (tables, figures, reports) hold only what the data determine, so a
    rerun leaves them byte-identical; what varies from run to run goes here
    (``*_runlog.txt`` is ignored by git).
    """
    import datetime
    import os
    import platform
    from .._version import __version__
    path = Path(folder) / f"{study.name}_runlog.txt"
    how = "computed or resumed" if compute else "from saved scores only"
    path.write_text(
        f"study: {study.name}\nwall time: {wall:.1f} s ({how})\n"
        f"date: {datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='seconds')}\n"
        f"machine: {os.cpu_count()} cores, {platform.platform()}, Python "
        f"{platform.python_version()}\ncalibsim: {__version__}\n" + "".join(
            f"\n{name}: mean seconds per split (this run, this machine's load)\n"
            + table.to_string(index=False, float_format=lambda v: f"{v:.4g}") + "\n"
            for name, table in (times or {}).items()), encoding="utf-8")
    return path
