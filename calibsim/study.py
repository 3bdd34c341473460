"""Declarative calibration studies: load a study file, run its cells, keep the scores.

A study file (TOML, under ``studies/``) declares the source, the learner pair,
the schemes, the calibration grid and where outputs go. :func:`load_study`
turns it into a frozen :class:`CalibrationStudy`; :meth:`CalibrationStudy.blocks`
cuts its data sets into :class:`BlockSpec` cells; :func:`run_block` is the pure
function that computes one cell; :func:`run_study` maps it over Dask, saving
every finished cell at once, so an interrupted study resumes from what it saved.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from ._rng import dataset_seeds, source_key
from ._validation import check_alpha, check_int
from .evaluate import LEARNERS, score_splits
from .schemes import RandomSubsampling, RepeatedStratifiedKFold
from .sources import NullSource

__all__ = ["CalibrationStudy", "BlockSpec", "StudyScores", "load_study", "run_block",
           "run_study", "load_scores", "null_differences"]

logger = logging.getLogger(__name__)

_SCHEMA = {
    "study": {"name": str, "title": str, "kind": str, "seed": int, "n_datasets": int},
    "source": {"kind": str, "n_instances": int, "n_attributes": int, "class_prior": float},
    "learners": {"a": str, "b": str},
    "cv": {"n_folds": int, "n_runs": int},
    "subsampling": {"n_runs": int, "test_fraction": float},
    "calibration": {"runs": list, "alphas": list, "df_min": int, "df_max": int, "tests": list},
    "execution": {"block_size": int},
    "outputs": {"results": str, "figures": str, "tables": str},
}
_REQUIRED = {"study": {"name", "seed", "n_datasets"}, "source": {"kind"},
             "learners": {"a", "b"}, "cv": {"n_folds", "n_runs"},
             "calibration": {"runs", "alphas", "tests"}}


@dataclass(frozen=True)
class BlockSpec:
    """One Dask task: data sets ``start .. stop - 1`` of a study.

    Everything :func:`run_block` needs travels in the spec, so the function is
    pure and the spec can be pickled to any worker.
    """

    seed: int
    source: NullSource
    learners: tuple
    cv: RepeatedStratifiedKFold
    subsampling: RandomSubsampling | None
    start: int
    stop: int
    cv5x2_repeats: int = 0

    @property
    def key(self) -> str:
        """Stable, unique task name."""
        return f"{self.source.identity}|{'-vs-'.join(self.learners)}|datasets={self.start}-{self.stop}"


@dataclass(frozen=True)
class CalibrationStudy:
    """A df-calibration study as declared in a study file.

    Attributes
    ----------
    name, title : str
        Identifier (used in file names) and human title.
    seed : int
        Root entropy; data set i of the source draws its data, partitions and
        subsamples from ``SeedSequence(seed, spawn_key=(source_key, i))``.
    n_datasets : int
        Number of simulated null data sets N.
    source : NullSource
    learners : tuple of (str, str)
        Learners a and b; the tests use x = accuracy(a) - accuracy(b).
    cv : RepeatedStratifiedKFold
        The largest r x k design; every number of runs in ``runs`` uses its
        first r runs.
    subsampling : RandomSubsampling or None
        Random train/test splits for the resampling tests (n = r runs).
    runs : tuple of int
        Numbers of runs r to calibrate at.
    alphas : tuple of float
        Significance levels.
    df_min, df_max : int
        The integer df grid searched, inclusive.
    tests : tuple of str
        Names from :data:`calibsim.stats.TESTS`.
    block_size : int
        Data sets per Dask task (results do not depend on it).
    results_dir, figures_dir, tables_dir : pathlib.Path
        Output folders, relative to the working directory unless absolute.
    cv5x2_repeats : int
        Independent 5 x 2 stratified cv experiments per data set (0: none), for
        the 5x2cv tests and their replicability.
    """

    name: str
    seed: int
    n_datasets: int
    source: NullSource
    learners: tuple
    cv: RepeatedStratifiedKFold
    subsampling: RandomSubsampling | None
    runs: tuple
    alphas: tuple
    tests: tuple
    df_min: int = 2
    df_max: int = 100
    block_size: int = 20
    title: str = ""
    results_dir: Path = field(default=Path("results"))
    figures_dir: Path = field(default=Path("figures"))
    tables_dir: Path = field(default=Path("figures"))
    cv5x2_repeats: int = 0

    def __post_init__(self):
        check_int("n_datasets", self.n_datasets, min_value=1)
        check_int("cv5x2_repeats", self.cv5x2_repeats, min_value=0)
        check_int("seed", self.seed, min_value=0)
        check_int("block_size", self.block_size, min_value=1)
        check_int("df_min", self.df_min, min_value=1)
        check_int("df_max", self.df_max, min_value=self.df_min)
        if len(self.learners) != 2 or any(name not in LEARNERS for name in self.learners):
            raise ValueError(f"`learners` must be two names from {list(LEARNERS)}; "
                             f"got {list(self.learners)!r}.")
        if not self.runs:
            raise ValueError("`runs` must list at least one number of runs; got [].")
        for r in self.runs:
            check_int("runs", r, min_value=2, max_value=self.cv.n_runs)
        if self.subsampling is not None and max(self.runs) > self.subsampling.n_runs:
            raise ValueError(f"`runs` must not exceed subsampling `n_runs` = "
                             f"{self.subsampling.n_runs}; got {max(self.runs)}.")
        check_alpha("alphas", list(self.alphas))
        from .stats import TESTS
        for name in self.tests:
            if name not in TESTS:
                raise ValueError(f"`tests` must name tests from {list(TESTS)}; got {name!r}.")
            if TESTS[name].scheme == "subsampling" and self.subsampling is None:
                raise ValueError(f"test {name!r} needs a [subsampling] section in the study.")

    @property
    def dfs(self) -> np.ndarray:
        """The df grid ``df_min .. df_max`` as int64."""
        return np.arange(self.df_min, self.df_max + 1, dtype=np.int64)

    @property
    def fingerprint(self) -> str:
        """Hash of everything that determines the score arrays (not the grid)."""
        data = {"seed": self.seed, "source": self.source.identity, "learners": self.learners,
                "cv": asdict(self.cv),
                "subsampling": None if self.subsampling is None else asdict(self.subsampling)}
        if self.cv5x2_repeats:          # only when used, so older fingerprints stay valid
            data["cv5x2_repeats"] = self.cv5x2_repeats
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]

    def block(self, start: int, stop: int) -> BlockSpec:
        return BlockSpec(self.seed, self.source, tuple(self.learners), self.cv,
                         self.subsampling, start, stop, self.cv5x2_repeats)

    def blocks(self, indices=None) -> list[BlockSpec]:
        """Cut ``indices`` (default: all data sets) into runs of ``block_size``."""
        indices = np.arange(self.n_datasets) if indices is None else np.sort(indices)
        specs = []
        i = 0
        while i < len(indices):
            j = i
            while (j + 1 < len(indices) and indices[j + 1] == indices[j] + 1
                   and j + 1 - i < self.block_size):
                j += 1
            specs.append(self.block(int(indices[i]), int(indices[j]) + 1))
            i = j + 1
        return specs


def _section(doc: dict, name: str, path) -> dict:
    sec = doc.get(name, {})
    if not isinstance(sec, dict):
        raise ValueError(f"study file {path}: [{name}] must be a table; got {sec!r}.")
    schema = _SCHEMA[name]
    for key, value in sec.items():
        if key not in schema:
            raise ValueError(f"study file {path}: unknown key `{name}.{key}`; "
                             f"known keys are {sorted(schema)}.")
        want = schema[key]
        ok = isinstance(value, want) or (want is float and isinstance(value, int))
        if not ok or (want is int and isinstance(value, bool)):
            raise ValueError(f"study file {path}: `{name}.{key}` must be of type "
                             f"{want.__name__}; got {value!r}.")
    missing = _REQUIRED.get(name, set()) - set(sec)
    if missing:
        raise ValueError(f"study file {path}: [{name}] is missing required key(s) "
                         f"{sorted(missing)}.")
    return sec


def load_study(path) -> CalibrationStudy:
    """Read and validate a calibration study file.

    Parameters
    ----------
    path : str or path-like
        A TOML file like ``studies/bouckaert2003_figure2.toml``.

    Returns
    -------
    CalibrationStudy

    Raises
    ------
    FileNotFoundError
        If the file does not exist.
    ValueError
        If the file is not valid TOML, has an unknown section or key, a value
        of the wrong type, a missing required key, or an invalid value; the
        message names the file, the key, the rule and the value.
    """
    path = Path(path)
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"study file {path} is not valid TOML: {exc}") from exc
    unknown = set(doc) - set(_SCHEMA)
    if unknown:
        raise ValueError(f"study file {path}: unknown section(s) {sorted(unknown)}; "
                         f"known sections are {sorted(_SCHEMA)}.")
    st = _section(doc, "study", path)
    kind = st.get("kind", "calibration")
    if kind != "calibration":
        raise ValueError(f"study file {path}: `study.kind` must be 'calibration'; got {kind!r}.")
    src = _section(doc, "source", path)
    if src["kind"] != "null":
        raise ValueError(f"study file {path}: `source.kind` must be 'null'; got {src['kind']!r}.")
    lrn = _section(doc, "learners", path)
    cv = _section(doc, "cv", path)
    sub = _section(doc, "subsampling", path) if "subsampling" in doc else None
    cal = _section(doc, "calibration", path)
    exe = _section(doc, "execution", path)
    out = _section(doc, "outputs", path)
    name = st["name"]
    try:
        return CalibrationStudy(
            name=name, title=st.get("title", name), seed=st["seed"],
            n_datasets=st["n_datasets"],
            source=NullSource(**{k: v for k, v in src.items() if k != "kind"}),
            learners=(lrn["a"], lrn["b"]),
            cv=RepeatedStratifiedKFold(n_folds=cv["n_folds"], n_runs=cv["n_runs"]),
            subsampling=None if sub is None else RandomSubsampling(**sub),
            runs=tuple(cal["runs"]), alphas=tuple(float(a) for a in cal["alphas"]),
            tests=tuple(cal["tests"]), df_min=cal.get("df_min", 2),
            df_max=cal.get("df_max", 100), block_size=exe.get("block_size", 20),
            results_dir=Path(out.get("results", f"results/{name}")),
            figures_dir=Path(out.get("figures", "figures")),
            tables_dir=Path(out.get("tables", "figures")))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"study file {path}: {exc}") from exc


def run_block(spec: BlockSpec) -> dict:
    """Compute the score arrays of one block of data sets (a pure function).

    Parameters
    ----------
    spec : BlockSpec

    Returns
    -------
    dict of str to ndarray
        ``index`` (m,); ``cv_correct`` (m, 2, r, k) and ``cv_n_test`` (m, r, k):
        correct counts of learners a and b and the test-fold sizes;
        ``c45_size`` (m, r, k): nodes of the C4.5 tree per fold (-1 if neither
        learner is C4.5); and, with subsampling, ``sub_correct`` (m, 2, n) and
        ``sub_n_test`` (m, n); with ``cv5x2_repeats`` g > 0, ``cv5x2_correct``
        (m, 2, g, 5, 2) and ``cv5x2_n_test`` (m, g, 5, 2): g independent 5 x 2
        stratified cv experiments (runs 5i..5i+4 of the "cv5x2" stream, so the
        first is the one of :mod:`calibsim.null_learners`). Counts are int16
        (folds hold < 32768 instances).
    """
    key = source_key(spec.source.identity)
    m = spec.stop - spec.start
    r, k = spec.cv.n_runs, spec.cv.n_folds
    out = {"index": np.arange(spec.start, spec.stop, dtype=np.int64),
           "cv_correct": np.empty((m, 2, r, k), np.int16),
           "cv_n_test": np.empty((m, r, k), np.int16),
           "c45_size": np.full((m, r, k), -1, np.int16)}
    if spec.subsampling is not None:
        s = spec.subsampling.n_runs
        out["sub_correct"] = np.empty((m, 2, s), np.int16)
        out["sub_n_test"] = np.empty((m, s), np.int16)
    g = spec.cv5x2_repeats
    if g:
        out["cv5x2_correct"] = np.empty((m, 2, g, 5, 2), np.int16)
        out["cv5x2_n_test"] = np.empty((m, g, 5, 2), np.int16)
        cv5x2 = RepeatedStratifiedKFold(n_folds=2, n_runs=5 * g)
    c45 = [i for i, name in enumerate(spec.learners) if name == "c45"]
    for row, index in enumerate(range(spec.start, spec.stop)):
        seeds = dataset_seeds(spec.seed, key, index)
        X, y = spec.source.sample(seeds["data"])
        kw = {"learners": spec.learners, "n_values": spec.source.n_values,
              "n_classes": spec.source.n_classes}
        cv = score_splits(X, y, spec.cv.test_masks(y, seeds["cv"]), **kw)
        out["cv_correct"][row] = cv.correct
        out["cv_n_test"][row] = cv.n_test
        if c45:
            out["c45_size"][row] = cv.model_size[c45[0]]
        if spec.subsampling is not None:
            sub = score_splits(X, y, spec.subsampling.test_masks(y, seeds["subsampling"]), **kw)
            out["sub_correct"][row] = sub.correct
            out["sub_n_test"][row] = sub.n_test
        if g:
            res = score_splits(X, y, cv5x2.test_masks(y, seeds["cv5x2"]), **kw)
            out["cv5x2_correct"][row] = res.correct.reshape(2, g, 5, 2)
            out["cv5x2_n_test"][row] = res.n_test.reshape(g, 5, 2)
    return out


@dataclass(frozen=True)
class StudyScores:
    """The saved score arrays of a whole study, ordered by data-set index.

    Attributes mirror :func:`run_block`'s arrays with m = ``n_datasets``.
    """

    cv_correct: np.ndarray
    cv_n_test: np.ndarray
    c45_size: np.ndarray
    sub_correct: np.ndarray | None = None
    sub_n_test: np.ndarray | None = None
    cv5x2_correct: np.ndarray | None = None
    cv5x2_n_test: np.ndarray | None = None

    def cv_difference(self, n_runs: int) -> np.ndarray:
        """x_ij = acc(a) - acc(b) of the first ``n_runs`` runs, (N, n_runs, k)."""
        c = self.cv_correct[:, :, :n_runs].astype(np.float64)
        return (c[:, 0] - c[:, 1]) / self.cv_n_test[:, :n_runs]

    def subsampling_difference(self, n_runs: int) -> np.ndarray:
        """x_j = acc(a) - acc(b) of the first ``n_runs`` subsamples, (N, n_runs)."""
        if self.sub_correct is None:
            raise ValueError("this study has no subsampling scores.")
        c = self.sub_correct[:, :, :n_runs].astype(np.float64)
        return (c[:, 0] - c[:, 1]) / self.sub_n_test[:, :n_runs]

    def cv5x2_difference(self) -> np.ndarray:
        """Differences of the 5 x 2 cv experiments, shape (N, repeats, 5, 2)."""
        if self.cv5x2_correct is None:
            raise ValueError("this study has no 5 x 2 cv scores (set `cv5x2_repeats`).")
        c = self.cv5x2_correct.astype(np.float64)
        return (c[:, 0] - c[:, 1]) / self.cv5x2_n_test


def _blocks_dir(study: CalibrationStudy) -> Path:
    return Path(study.results_dir) / "blocks"


def _save_block(study: CalibrationStudy, spec: BlockSpec, result: dict) -> Path:
    folder = _blocks_dir(study)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{study.fingerprint}_{spec.start:07d}-{spec.stop:07d}.npz"
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, **result)
    os.replace(tmp, path)   # atomic: a killed run never leaves half a block
    return path


def _saved_blocks(study: CalibrationStudy) -> list[Path]:
    folder = _blocks_dir(study)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob(f"{study.fingerprint}_*.npz")
                  if not p.name.endswith(".tmp.npz"))


def _done_indices(study: CalibrationStudy) -> np.ndarray:
    done = []
    for path in _saved_blocks(study):
        start, stop = path.stem.split("_")[1].split("-")
        done.append(np.arange(int(start), int(stop)))
    return np.unique(np.concatenate(done)) if done else np.empty(0, np.int64)


def run_study(study: CalibrationStudy, *, scheduler: str | None = None,
              n_workers: int | None = None, processes: bool = True,
              progress=None, client=None) -> StudyScores:
    """Compute (or resume) every block of ``study`` on Dask and return the scores.

    Finished blocks are saved to ``study.results_dir/blocks`` as they arrive;
    blocks already saved by an earlier run with the same fingerprint are not
    computed again, so an interrupted study resumes where it stopped.

    Parameters
    ----------
    study : CalibrationStudy
    scheduler : str, optional
        Address of an existing Dask scheduler; default: a local cluster.
    n_workers : int, optional
        Local workers (default: all cores).
    processes : bool, default True
        Local workers as processes or threads.
    progress : callable, optional
        ``progress(n_datasets_done, n_datasets_total)`` after each block.
    client : distributed.Client, optional
        An open Dask client to reuse (see :func:`calibsim.distributed.dask_client`).

    Returns
    -------
    StudyScores
    """
    from .distributed import map_cells

    todo = np.setdiff1d(np.arange(study.n_datasets), _done_indices(study))
    specs = study.blocks(todo)
    done = study.n_datasets - len(todo)
    if progress is not None:
        progress(done, study.n_datasets)

    def on_result(spec, result):
        nonlocal done
        _save_block(study, spec, result)
        done += spec.stop - spec.start
        if progress is not None:
            progress(done, study.n_datasets)

    if specs:
        logger.info("running %d blocks (%d data sets) of %s", len(specs), len(todo), study.name)
        map_cells(run_block, specs, scheduler=scheduler, n_workers=n_workers,
                  processes=processes, on_result=on_result, client=client)
    return load_scores(study)


def load_scores(study: CalibrationStudy) -> StudyScores:
    """Assemble the saved blocks of ``study`` into one :class:`StudyScores`.

    Raises
    ------
    FileNotFoundError
        If some data sets have no saved block yet (run :func:`run_study`).
    """
    paths = _saved_blocks(study)
    parts = [dict(np.load(p)) for p in paths]
    index = np.concatenate([p["index"] for p in parts]) if parts else np.empty(0, np.int64)
    uniq, first = np.unique(index, return_index=True)
    keep = uniq < study.n_datasets        # a larger earlier run of the same study may exist
    uniq, first = uniq[keep], first[keep]
    if not np.array_equal(uniq, np.arange(study.n_datasets)):
        missing = study.n_datasets - np.isin(np.arange(study.n_datasets), uniq).sum()
        raise FileNotFoundError(f"{missing} of {study.n_datasets} data sets of study "
                                f"{study.name!r} have no saved scores in "
                                f"{_blocks_dir(study)}; run the study first.")
    arrays = {}
    for name in ("cv_correct", "cv_n_test", "c45_size", "sub_correct", "sub_n_test",
                 "cv5x2_correct", "cv5x2_n_test"):
        if name in parts[0]:
            arrays[name] = np.concatenate([p[name] for p in parts])[first]
    return StudyScores(**arrays)


def null_differences(n_datasets: int = 1000, *, n_runs: int = 10, n_folds: int = 10,
                     source: NullSource | None = None, learners=("naive_bayes", "c45"),
                     seed: int = 20030821, scheduler: str | None = None,
                     n_workers: int | None = 0) -> np.ndarray:
    """Accuracy differences of two learners on simulated null data, for calibration.

    With the defaults these are the data sets, partitions and learners of the
    Bouckaert (2003) Figure 2 study (``studies/bouckaert2003_figure2.toml``):
    the same seed and source give the same data sets, and its first
    ``n_runs`` runs are exactly the runs returned here. Nothing is saved.

    Parameters
    ----------
    n_datasets : int, default 1000
        Number N of null data sets.
    n_runs, n_folds : int, default 10
        r runs of stratified k-fold cross-validation (r >= 1, k >= 2).
    source : NullSource, optional
        Default ``NullSource()`` (300 instances, 10 binary attributes, prior 0.5).
    learners : pair of str, default ("naive_bayes", "c45")
    seed : int, default 20030821
        Root entropy (the Figure 2 study's).
    scheduler, n_workers
        As for :func:`run_study`; the default ``n_workers=0`` runs here without Dask.

    Returns
    -------
    ndarray of shape (n_datasets, n_runs, n_folds)
        x_ij = accuracy(a) - accuracy(b) on fold i of run j, accuracies in [0, 1].

    Examples
    --------
    >>> x = null_differences(3, n_runs=2, n_folds=5, source=NullSource(n_instances=50))
    >>> x.shape
    (3, 2, 5)
    """
    from .distributed import map_cells

    check_int("n_runs", n_runs, min_value=1)
    study = CalibrationStudy(
        name="null_differences", seed=seed, n_datasets=n_datasets,
        source=NullSource() if source is None else source, learners=tuple(learners),
        cv=RepeatedStratifiedKFold(n_folds=n_folds, n_runs=max(n_runs, 2)), subsampling=None,
        runs=(2,), alphas=(0.05,), tests=("use_all_data",))
    parts = {}
    map_cells(run_block, study.blocks(), scheduler=scheduler, n_workers=n_workers,
              on_result=lambda spec, res: parts.__setitem__(spec.start, res))
    correct = np.concatenate([parts[k]["cv_correct"] for k in sorted(parts)]).astype(float)
    n_test = np.concatenate([parts[k]["cv_n_test"] for k in sorted(parts)])
    return ((correct[:, 0] - correct[:, 1]) / n_test)[:, :n_runs]
