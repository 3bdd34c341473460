"""Run a study: find what the store lacks, compute it on Dask, return the scores.

This is the one runner of calibsim: every study file, whatever its sources,
learners, schemes or analyses, goes through :func:`compute_scores`; studies whose
analyses take calibrated df from another study file compute that study's scores
too, on the same cluster.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import numpy as np

from .cells import CellSpec, run_cell
from .scores import Scores
from .store import Store, fingerprint

__all__ = ["compute_scores", "load_scores", "store_key", "store_of", "null_differences",
           "analyse_blocks", "AnalysisBlock", "analyse_block", "missing_datasets"]

logger = logging.getLogger(__name__)


def store_of(study) -> Store:
    """The store of ``study``: ``<results>/store``, shared by every study writing there."""
    return Store(study.results / "store")


def _learner_ids(study, source):
    if source.simulated_scores:
        return ["A", "B"]
    return [lrn.identity() for lrn in study.learners_of(source)]


def store_key(study, source, scheme) -> tuple[str, dict]:
    """Fingerprint and identity of one source's scores under one scheme.

    Everything that determines the arrays is in the identity (seed, source, scheme,
    learners and their order, costs); nothing else is, so studies declaring the same
    collection share its saved blocks.
    """
    src = source.build()
    identity = {"seed": source.seed, "source": src.identity, "scheme": scheme.identity,
                "learners": _learner_ids(study, source),
                "costs": bool(study.costs) and not source.simulated_scores}
    return fingerprint(identity), identity


def _plan(study, store):
    """Cells for every block of every source that misses a scheme's scores."""
    cells, n_missing = [], 0
    for src in study.sources:
        keys = {name: store_key(study, src, study.scheme(name)) for name in src.schemes}
        have = {name: store.available(k) for name, (k, _) in keys.items()}
        n = src.n_datasets
        for start in range(0, n, study.block_size):
            stop = min(start + study.block_size, n)
            block = np.arange(start, stop)
            todo = tuple(study.scheme(name) for name in src.schemes
                         if not np.isin(block, have[name]).all())
            if todo:
                cells.append(CellSpec(src, study.learners_of(src), todo, start, stop,
                                      study.costs))
                n_missing += stop - start
    # the largest cells first (Dask starts tasks in submission order): a big data set
    # left for last would keep one worker busy while the others idle
    cells.sort(key=_cell_cost, reverse=True)
    return cells, n_missing


def missing_datasets(study, store=None) -> int:
    """Data sets of ``study`` (over all its sources) that :func:`compute_scores` would
    still compute: those of every block in which ``store`` (default: :func:`store_of`)
    lacks a scheme's scores; 0 once the study is complete."""
    return _plan(study, store_of(study) if store is None else store)[1]


def _cell_cost(cell) -> float:
    """A rough relative cost of a cell: data sets x instances x attributes x schemes
    (``sorted`` is stable, so equal cells keep their order)."""
    src = cell.source.build()
    n = getattr(src, "n_instances", getattr(src, "n_points", 1)) or 1
    dataset = getattr(src, "dataset", None)
    a = dataset.X.shape[1] if dataset is not None else getattr(src, "n_attributes", 1)
    return float(cell.stop - cell.start) * n * n * (a + 1) * len(cell.schemes)


def compute_scores(study, *, client=None, progress=None, load=True) -> Scores | None:
    """Compute (or resume) every missing block of ``study`` and load its scores.

    Parameters
    ----------
    study : calibsim.engine.spec.Study
    client : distributed.Client, optional
        Run the cells on this cluster; None runs them in this process.
    progress : calibsim.engine.runner.Progress, optional
    load : bool, default True
        False: only compute and save (the analyses then read the store block by block).

    Returns
    -------
    Scores or None
        The arrays of data sets ``0 .. n_datasets - 1`` of every source and scheme
        (None when ``load`` is False).
    """
    from .runner import map_blocks
    store = store_of(study)
    store.clean(leftovers_only=True)     # temporary files of runs that were killed
    cells, n_missing = _plan(study, store)
    total = sum(s.n_datasets for s in study.sources)
    if progress is not None:
        progress.phase(f"data sets of {study.name}")
        progress.start(total, done=total - n_missing)
    keys = {}

    def on_result(cell, result):
        for scheme in cell.schemes:
            if scheme.name not in keys.setdefault(cell.source.label, {}):
                keys[cell.source.label][scheme.name] = store_key(study, cell.source, scheme)
            key, identity = keys[cell.source.label][scheme.name]
            store.save(key, cell.start, cell.stop, result[scheme.name], identity=identity)
        if progress is not None:
            progress.advance(cell.stop - cell.start)

    if cells:
        logger.info("%s: computing %d cells (%d data sets)", study.name, len(cells), n_missing)
        map_blocks(run_cell, cells, client=client, on_result=on_result)
    return load_scores(study, store) if load else None


@dataclass(frozen=True)
class AnalysisBlock:
    """One block of one source for :func:`analyse_block`; picklable, for any Dask worker."""

    study: object
    analyses: tuple
    lookups: dict            # analysis name -> DFTable
    store: str               # the store's folder
    source: str
    keys: dict               # scheme name -> store key of this source
    start: int
    stop: int
    centres: dict | None = None   # (source, scheme, pair) -> centre, for null = "centred"
    null_only: bool = False       # only the null means (the first of two passes)

    @property
    def key(self) -> str:
        step = "null-means" if self.null_only else "analyse"
        return f"{step}|{self.study.name}|{self.source}|datasets={self.start}-{self.stop}"


#: What :func:`analyse_block` returns where the store's folder is not visible.
NO_STORE = "no-store"


def analyse_block(spec: AnalysisBlock, *, here: bool = False):
    """The :func:`~calibsim.engine.analyses.block_summaries` of one block, read from the
    store (a pure function of the saved scores). On a worker that does not see the
    store's folder (a cluster without a shared file system) it returns ``NO_STORE`` and
    the block is summarised in the main process instead."""
    from .analyses import block_summaries
    store = Store(spec.store)
    if not here and not store.root.is_dir():
        return NO_STORE
    arrays = {}
    for name, key in spec.keys.items():
        try:
            arrays[(spec.source, name)] = store.load(key, spec.stop, start=spec.start)
        except FileNotFoundError:
            n = next(s.n_datasets for s in spec.study.sources if s.label == spec.source)
            have = int(np.count_nonzero(store.available(key) < n))
            raise FileNotFoundError(f"study {spec.study.name!r}: scores of source "
                                    f"{spec.source!r} under scheme {name!r} are missing: "
                                    f"{n - have} of {n} data sets have no saved scores under "
                                    f"{store.folder(key)}; run the study first "
                                    "(`calibsim run`).") from None
    return block_summaries(spec.study, spec.analyses, Scores(spec.study, arrays),
                           spec.lookups, sources={spec.source}, centres=spec.centres,
                           null_only=spec.null_only)


def analyse_blocks(study, analyses, lookups=None, *, client=None, progress=None) -> dict:
    """The block summaries of ``analyses`` over every data set of ``study``, computed
    block by block (on ``client``'s workers when given) from the saved scores, so that
    no process holds more than a block of scores.

    Parameters
    ----------
    study : calibsim.engine.spec.Study
        Its scores must be saved (:func:`compute_scores`).
    analyses : sequence of Analysis
        Analyses with :func:`~calibsim.engine.analyses.by_blocks` true.
    lookups : dict of str to DFTable, optional
        Analysis name -> calibrated df (:func:`~calibsim.engine.analyses.analysis_lookups`).
    client : distributed.Client, optional
        Run the blocks on its workers; None runs them here, one at a time.
    progress : calibsim.engine.runner.Progress, optional

    Raises
    ------
    FileNotFoundError
        If a block's scores are not in the store (naming the study, source and scheme).

    Returns
    -------
    dict
        As :func:`~calibsim.engine.analyses.block_summaries` over all data sets: the
        same, bit for bit, as computed from all the scores at once. Where an analysis
        has ``null = "centred"``, a first pass over the blocks collects each data set's
        mean difference and the second centres on their mean
        (:func:`~calibsim.engine.analyses.null_centres`).
    """
    from .analyses import null_centres
    centres = None
    if any(a.null == "centred" for a in analyses):
        # first pass: each data set's mean difference, for the centres of the second
        first = _analyse_blocks(study, analyses, {}, client=client, progress=None,
                                centres=None, null_only=True)
        centres = null_centres(study, analyses, first)
    return _analyse_blocks(study, analyses, lookups, client=client, progress=progress,
                           centres=centres, null_only=False)


def _analyse_blocks(study, analyses, lookups, *, client, progress, centres, null_only):
    from .analyses import concat_summaries, needed_schemes
    from .runner import map_blocks
    store = store_of(study)
    lookups = {k: v for k, v in (lookups or {}).items() if v is not None}
    specs = []
    for src in study.sources:
        schemes = needed_schemes(study, analyses, src.label)
        if not schemes:
            continue
        keys = {name: store_key(study, src, study.scheme(name))[0] for name in schemes}
        for start in range(0, src.n_datasets, study.block_size):
            specs.append(AnalysisBlock(study, tuple(analyses), lookups, str(store.root),
                                       src.label, keys, start,
                                       min(start + study.block_size, src.n_datasets),
                                       centres, null_only))
    if progress is not None:
        progress.start(sum(s.stop - s.start for s in specs))
    parts = {}

    def on_result(spec, result):
        if isinstance(result, str) and result == NO_STORE:
            result = analyse_block(spec, here=True)
        parts[(spec.source, spec.start)] = result
        if progress is not None:
            progress.advance(spec.stop - spec.start)

    map_blocks(analyse_block, specs, client=client, on_result=on_result)
    out = {}
    for src in study.sources:
        starts = sorted(start for (label, start) in parts if label == src.label)
        if starts:
            out.update(concat_summaries(parts.pop((src.label, s)) for s in starts))
    return out


def load_scores(study, store=None) -> Scores:
    """The saved scores of ``study`` (raises ``FileNotFoundError`` naming what is missing)."""
    store = store_of(study) if store is None else store
    arrays = {}
    for src in study.sources:
        for name in src.schemes:
            key, _ = store_key(study, src, study.scheme(name))
            try:
                arrays[(src.label, name)] = store.load(key, src.n_datasets)
            except FileNotFoundError as exc:
                raise FileNotFoundError(f"study {study.name!r}: scores of source {src.label!r} "
                                        f"under scheme {name!r} are missing: {exc}") from None
    return Scores(study, arrays)


def null_differences(n_datasets: int = 1000, *, n_runs: int = 10, n_folds: int = 10,
                     n_instances: int = 300, n_attributes: int = 10, class_prior: float = 0.5,
                     learners=("naive_bayes", "c45"), seed: int = 20030821,
                     scheduler: str | None = None, n_workers: int | None = 0):
    """Accuracy differences of two learners on simulated null data, for calibration.

    With the defaults these are the data sets, partitions and learners of the
    Bouckaert (2003) Figure 2 study (``studies/bouckaert2003_figure2.toml``): the same
    seed and source give the same data sets, and its first ``n_runs`` runs are exactly
    the runs returned here. Nothing is saved.

    Parameters
    ----------
    n_datasets : int, default 1000
        Number N of null data sets.
    n_runs, n_folds : int, default 10
        r runs of stratified k-fold cross-validation (r >= 1, k >= 2).
    n_instances, n_attributes, class_prior
        The null source (:class:`calibsim.sources.NullSource`).
    learners : pair of str, default ("naive_bayes", "c45")
    seed : int, default 20030821
        Root entropy (the Figure 2 study's).
    scheduler, n_workers
        As for :func:`calibsim.engine.runner.cluster`; the default ``n_workers=0``
        runs here without Dask.

    Returns
    -------
    ndarray of shape (n_datasets, n_runs, n_folds)
        x_ij = accuracy(a) - accuracy(b) on fold i of run j, accuracies in [0, 1].

    Examples
    --------
    >>> x = null_differences(3, n_runs=2, n_folds=5, n_instances=50)
    >>> x.shape
    (3, 2, 5)
    """
    from pathlib import Path

    from .runner import cluster, map_blocks
    from .spec import study_from_dict
    doc = {"study": {"name": "null_differences", "seed": seed},
           "sources": {"null": {"kind": "null", "n_instances": n_instances,
                                "n_attributes": n_attributes, "class_prior": class_prior,
                                "n_datasets": n_datasets}},
           "learners": {"names": list(learners), "pairs": [list(learners)]},
           "schemes": {"cv": {"kind": "repeated_kfold", "n_folds": n_folds, "n_runs": n_runs}}}
    study = study_from_dict(doc, Path.cwd() / "null_differences.toml")
    src = study.sources[0]
    cells = [CellSpec(src, study.learners, study.schemes, s, min(s + study.block_size,
                                                                 n_datasets))
             for s in range(0, n_datasets, study.block_size)]
    parts = {}
    with cluster(scheduler=scheduler, n_workers=n_workers) as client:
        map_blocks(run_cell, cells, client=client,
                   on_result=lambda cell, res: parts.__setitem__(cell.start, res["cv"]))
    arrays = {k: np.concatenate([parts[s][k] for s in sorted(parts)]) for k in parts[0]}
    scores = Scores(study, {(src.label, "cv"): arrays})
    return scores.difference(src.label, "cv", tuple(learners))
