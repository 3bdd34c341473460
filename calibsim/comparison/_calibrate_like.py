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
    d = parse_design(design)
    spec = get_test(test or d.default_test())
    five_by_two = d.kind == "cv5x2" and spec.scheme == "cv5x2"   # a cv test on 5x2cv: 5 x 2
    scheme = ({"kind": "subsampling", "n_runs": d.n_runs, "test_fraction": d.test_fraction}
              if d.kind == "subsampling" else {"kind": "cv5x2"} if five_by_two else
              {"kind": "repeated_kfold", "n_folds": d.n_folds, "n_runs": d.n_runs})
    analysis = {"kind": "calibrate", "tests": [spec.name], "alphas": list(alphas),
                "continuous": True}
    if not five_by_two:
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
                   results="results", n_jobs=None, scheduler=None, progress=True,
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
        Local worker processes (default: all cores; a loky pool, which works from a
        plain script, a notebook and the command line) or a running Dask scheduler's
        address; ``n_jobs=0`` runs here.
    progress : bool or calibsim.engine.runner.Progress, default True
        A bar once the run takes more than 3 s (terminal or notebook); False: silent;
        or a progress display of the caller's.
    on_estimate : callable, optional
        Called with ``(seconds_per_dataset, estimated_total_seconds)`` after one
        null data set has been timed in this process, before the rest start (the
        data set is run twice, and the second run timed, so compiling is not counted).

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
    _check_test_and_design(test, design)
    doc = _study_doc(data, learners, design, test, alphas, n_datasets, seed, results)
    study = study_from_dict(doc, Path.cwd() / f"{doc['study']['name']}.toml")
    src = study.sources[0]
    if on_estimate is not None:
        warm_up()                              # numba compiles (or loads) outside the timing
        cell = CellSpec(src, study.learners, study.schemes, 0, 1)
        run_cell(cell)                         # this data's own kernels compile here ...
        t0 = time.perf_counter()
        run_cell(cell)                         # ... so this one is timed without compiling
        per = time.perf_counter() - t0
        workers = n_jobs if n_jobs is not None else (1 if scheduler else _cores())
        on_estimate(per, per * n_datasets / max(1, workers))
    own = isinstance(progress, bool)
    if own:
        from ..engine.runner import Progress
        progress = Progress(progress, f"calibrate {doc['study']['name']}", delay=3.0,
                            notebook=True)
    try:
        with cluster(scheduler=scheduler, n_workers=n_jobs) as client:
            scores = compute_scores(study, client=client, progress=progress)
    finally:
        if own:
            progress.close()
    return calibration_rows(study, study.analyses[0], scores)


def _check_test_and_design(test, design) -> None:
    """One ValueError for a test without df or one that does not fit the design."""
    from ..stats import check_calibratable, check_fits_design, get_test
    from ._scoring import parse_design
    d = parse_design(design)
    if d.kind == "holdout":
        raise ValueError(f"`design` {d.name!r}: the holdout tests take no df to calibrate; "
                         "calibrate on 'RxK', '5x2cv' or 'subsampling:N'.")
    spec = get_test(test or d.default_test())
    check_calibratable(spec)
    check_fits_design(spec, d.kind, d.n_runs, d.n_folds, d.name)


def _cores() -> int:
    import os
    return max(1, os.cpu_count() or 1)
