"""Calibrate a test's df on null data shaped like the user's (``calibsim calibrate --like``).

Each null data set is the user's data with its class labels randomly permuted
(:class:`calibsim.sources.DatasetSource` with ``permute_class``): attributes,
their types and missing values, and the class prior stay as they are, but the
class no longer depends on the attributes, so the user's learners are equally good
and a test's rejections are Type I errors. The calibration itself is the engine's
``calibrate`` analysis (Bouckaert 2003), run as a study built in memory, with the
store, resume and Dask of every study.
"""

from __future__ import annotations

import time
from pathlib import Path

__all__ = ["calibrate_like", "data_source"]


def data_source(data: str) -> dict:
    """A study's dataset-source keys for ``data``: a shipped UCI name, an ARFF path or a
    scikit-learn loader (``"load_breast_cancer"`` or ``"sklearn:load_breast_cancer"``).

    Raises
    ------
    ValueError
        If ``data`` is none of these (the message lists the shipped names).
    """
    from ..datasets import UCI_DATASETS
    text = str(data)
    if text in UCI_DATASETS:
        return {"name": text}
    if text.startswith("sklearn:") or text.startswith("load_"):
        return {"sklearn": text.removeprefix("sklearn:")}
    if Path(text).suffix.lower() in (".arff", ".csv"):
        return {"path": str(Path(text).resolve())}
    raise ValueError(f"`data` must be a shipped data set {list(UCI_DATASETS)}, an ARFF or CSV file "
                     f"or a scikit-learn loader such as 'sklearn:load_iris'; got {data!r}.")


def _learners_section(learners) -> dict:
    from ._scoring import parse_learner
    section, names = {}, []
    for i, text in enumerate(learners):
        lrn = parse_learner(text, f"learner{i + 1}")
        if not isinstance(text, str):
            raise ValueError("`learners` must be given as strings here (a built-in name or "
                             f"'module.Class(param=value)'); got {text!r}.")
        label = lrn.label if lrn.label not in names else f"{lrn.label}_{i + 1}"
        names.append(label)
        if lrn.kind == "estimator" or lrn.params:
            key = "estimator" if lrn.kind == "estimator" else "kind"
            section[label] = {key: lrn.estimator if lrn.kind == "estimator" else lrn.kind,
                              **dict(lrn.params)}
    return {"names": names, **section}


def _study_doc(data, learners, design, test, alphas, n_datasets, seed, results) -> dict:
    from ._scoring import parse_design
    from ..stats import get_test
    from .._validation import check_int
    d = parse_design(design)
    spec = get_test(d.default_test() if test is None else test)   # '' is not the default
    n_datasets = check_int("n_datasets", n_datasets, min_value=1)   # not int(True), int(3.5)
    seed = check_int("seed", seed, min_value=0)
    scheme = ({"kind": "subsampling", "n_runs": d.n_runs, "test_fraction": d.test_fraction}
              if d.kind == "subsampling" else {"kind": "cv5x2"} if d.kind == "cv5x2" else
              {"kind": "repeated_kfold", "n_folds": d.n_folds, "n_runs": d.n_runs})
    analysis = {"kind": "calibrate", "tests": [spec.name], "alphas": list(alphas),
                "continuous": True}
    if d.kind != "cv5x2":
        analysis["runs"] = [d.n_runs]
    source = {"kind": "dataset", "permute_class": True, "n_datasets": int(n_datasets),
              **data_source(data)}
    name = "like_" + "".join(ch if ch.isalnum() else "_" for ch in Path(str(data)).stem)
    return {"study": {"name": name, "seed": int(seed), "block_size": 10},
            "sources": {"like": source}, "learners": _learners_section(learners),
            "schemes": {"s": scheme}, "analysis": [analysis],
            "outputs": {"results": str(Path(results).resolve())}}


def calibrate_like(data, learners=("naive_bayes", "c45"), *, design="10x10", test=None,
                   alphas=(0.05,), n_datasets: int = 1000, seed: int = 0,
                   results="results", n_jobs=None, scheduler=None, progress=None,
                   on_estimate=None):
    """Calibrate a test's df on null data shaped like ``data``, with your learners.

    Parameters
    ----------
    data : str
        A shipped UCI name, an ARFF path or a scikit-learn loader
        (``"sklearn:load_breast_cancer"``).
    learners : sequence of str, default ("naive_bayes", "c45")
        Two learners: built-in names or ``"module.Class(param=value, ...)"``.
    design : str, default "10x10"
        As for :func:`calibsim.compare`.
    test : str, optional
        Default: the design's default test (:func:`calibsim.compare`).
    alphas : sequence of float, default (0.05,)
    n_datasets : int, default 1000
        Null data sets (permutations of the class).
    seed : int, default 0
        Root of every permutation's and partition's ``SeedSequence``.
    results : path-like, default "results"
        Parent folder of the score store (an interrupted run resumes from it).
    n_jobs, scheduler
        Local Dask workers (default: all cores) or a running scheduler's address;
        ``n_jobs=0`` runs here.
    progress : calibsim.engine.runner.Progress, optional
    on_estimate : callable, optional
        Called with ``(seconds_per_dataset, estimated_total_seconds)`` after one
        null data set has been timed in this process, before the rest start.

    Returns
    -------
    pandas.DataFrame
        The ``calibrate`` analysis' rows (one per α): ``calibrated_df`` (the paper's
        integer rule), ``df_continuous`` with ``df_ci_low``/``df_ci_high`` (95%,
        distribution-free), ``type1_error`` at the calibrated df, ``type1_default`` at
        the textbook df, ...

    Raises
    ------
    ValueError
        For unknown data, learners, design or test.

    Examples
    --------
    >>> t = calibrate_like("iris", design="2x5", n_datasets=20, n_jobs=0,
    ...                    results=getfixture("tmp_path"))
    >>> t[["label", "n_runs", "n_folds", "alpha", "n_datasets"]].to_string(index=False)
    '                label  n_runs  n_folds  alpha  n_datasets\\ncorrected repeated cv       2        5   0.05          20'
    """
    from ..engine.analyses import calibration_rows
    from ..engine.cells import CellSpec, run_cell
    from ..engine.run import compute_scores
    from ..engine.runner import cluster, warm_up
    from ..engine.spec import study_from_dict
    if len(learners) != 2:
        raise ValueError(f"`learners` must name two learners; got {list(learners)}.")
    doc = _study_doc(data, learners, design, test, alphas, n_datasets, seed, results)
    study = study_from_dict(doc, Path.cwd() / f"{doc['study']['name']}.toml")
    src = study.sources[0]
    warm_up()                                  # numba compiles (or loads) outside the timing
    t0 = time.perf_counter()
    run_cell(CellSpec(src, study.learners, study.schemes, 0, 1))
    per = time.perf_counter() - t0
    workers = n_jobs if n_jobs is not None else (1 if scheduler else _cores())
    if on_estimate is not None:
        on_estimate(per, per * n_datasets / max(1, workers))
    with cluster(scheduler=scheduler, n_workers=n_jobs) as client:
        scores = compute_scores(study, client=client, progress=progress)
    return calibration_rows(study, study.analyses[0], scores)


def _cores() -> int:
    import os
    return max(1, os.cpu_count() or 1)
