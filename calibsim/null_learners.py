"""Dietterich's (1998) tests on null data with real learners, and whether df calibrates 5x2cv.

Dietterich's ε-point simulation (:mod:`calibsim.dietterich`) models learners without
training them. This study sets it beside learning: naive Bayes and C4.5 (Weka's
NaiveBayes and J48) trained on the null data sets of the Bouckaert (2003) Figure 2 study
(same seed and source, so the same data sets, and the same first 10-fold cv run), with
every classic test applied:

- McNemar (continuity correction and exact) and the difference of two proportions on one
  2/3 - 1/3 holdout split;
- the resampled paired t on ``n_resamples`` random 2/3 - 1/3 splits;
- the k-fold cv paired t on the first run of stratified k-fold cv;
- Dietterich's 5x2cv t and Alpaydin's 5x2cv F on 5 x 2-fold stratified cv.

It also calibrates the df of the two 5x2cv tests as Bouckaert (2003) calibrates his: the
Type I error at every df of a grid, and the df closest to, and not above, α.

A study file (``[study] kind = "null_learners"``) is run by ``calibsim run``; one pure
function (:func:`run_block`) computes a block of data sets, mapped over Dask like the
calibration study, so results are bit-identical whatever the workers or block size.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd

from ._rng import dataset_seeds, source_key
from ._studyfile import read_study_file
from ._validation import check_alpha, check_int, check_probability
from .evaluate import LEARNERS, score_splits
from .schemes import FiveByTwoCV, Holdout, RepeatedStratifiedKFold
from .sources import NullSource

__all__ = ["NullLearnersStudy", "NullLearnersBlock", "load_study_file", "run_block",
           "run_study", "type1_errors", "calibrate_5x2cv", "write_outputs", "run_study_file"]

#: Tests applied, in report order (names as in :data:`calibsim.dietterich.TESTS`).
TESTS = ("mcnemar", "mcnemar_exact", "proportions", "resampled_t", "kfold_cv_t",
         "cv5x2_t", "cv5x2_f")


@dataclass(frozen=True)
class NullLearnersBlock:
    """Data sets ``start .. stop - 1`` of a :class:`NullLearnersStudy` (one Dask task)."""

    seed: int
    source: NullSource
    learners: tuple
    train_fraction: float
    n_resamples: int
    n_folds: int
    start: int
    stop: int

    @property
    def key(self) -> str:
        return (f"classic|{self.source.identity}|{'-vs-'.join(self.learners)}|"
                f"datasets={self.start}-{self.stop}")


@dataclass(frozen=True)
class NullLearnersStudy:
    """A validated study of the classic tests on null data with real learners.

    Attributes
    ----------
    name, title : str
    seed : int
        Root entropy; data set i uses ``SeedSequence(seed, spawn_key=(source_key, i))``.
    n_datasets : int
        Number N of null data sets.
    source : NullSource
    learners : tuple of (str, str)
        Learners A and B (x = accuracy(A) - accuracy(B); McNemar's n01 = A wrong, B right).
    train_fraction : float
        Training share of the holdout and resampling splits (Dietterich: 2/3).
    n_resamples : int
        Splits of the resampled t (Dietterich: 30).
    n_folds : int
        k of the k-fold cv t (10).
    alpha : float
        Significance level.
    dfs : ndarray
        df grid for calibrating the 5x2cv tests.
    block_size : int
        Data sets per Dask task.
    folder : pathlib.Path
        Where tables, figure and report go.
    """

    name: str
    seed: int
    n_datasets: int
    source: NullSource
    learners: tuple = ("naive_bayes", "c45")
    train_fraction: float = 2 / 3
    n_resamples: int = 30
    n_folds: int = 10
    alpha: float = 0.05
    dfs: np.ndarray = field(default_factory=lambda: np.arange(2, 101))
    block_size: int = 50
    title: str = ""
    folder: Path = Path("figures")

    def __post_init__(self):
        check_int("seed", self.seed, min_value=0)
        check_int("n_datasets", self.n_datasets, min_value=1)
        check_probability("train_fraction", self.train_fraction)
        check_int("n_resamples", self.n_resamples, min_value=2)
        check_int("n_folds", self.n_folds, min_value=2)
        check_alpha("alpha", self.alpha)
        check_int("block_size", self.block_size, min_value=1)
        if len(self.learners) != 2 or any(n not in LEARNERS for n in self.learners):
            raise ValueError(f"`learners` must be two names from {list(LEARNERS)}; "
                             f"got {list(self.learners)!r}.")

    def blocks(self) -> list[NullLearnersBlock]:
        """Cut the data sets into blocks of ``block_size``."""
        return [NullLearnersBlock(self.seed, self.source, tuple(self.learners),
                                  self.train_fraction, self.n_resamples, self.n_folds,
                                  start, min(start + self.block_size, self.n_datasets))
                for start in range(0, self.n_datasets, self.block_size)]


def run_block(spec: NullLearnersBlock) -> dict:
    """Scores of one block of data sets under every scheme (a pure function).

    Returns
    -------
    dict of str to ndarray
        ``index`` (m,); ``holdout_counts`` (m, 4): McNemar's n00, n01, n10, n11 on the
        holdout split; ``resampling_diff`` (m, n_resamples), ``kfold_diff`` (m, k) and
        ``cv5x2_diff`` (m, 5, 2): accuracy of A minus B (accuracy in [0, 1]) per split.
    """
    key = source_key(spec.source.identity)
    m = spec.stop - spec.start
    out = {"index": np.arange(spec.start, spec.stop),
           "holdout_counts": np.empty((m, 4), np.int64),
           "resampling_diff": np.empty((m, spec.n_resamples)),
           "kfold_diff": np.empty((m, spec.n_folds)),
           "cv5x2_diff": np.empty((m, 5, 2))}
    resampling = Holdout(train_fraction=spec.train_fraction, n_runs=spec.n_resamples)
    kfold = RepeatedStratifiedKFold(n_folds=spec.n_folds, n_runs=1)
    kw = {"learners": spec.learners, "n_values": spec.source.n_values,
          "n_classes": spec.source.n_classes}
    for row, index in enumerate(range(spec.start, spec.stop)):
        seeds = dataset_seeds(spec.seed, key, index)
        X, y = spec.source.sample(seeds["data"])
        holdout_rng = np.random.default_rng(seeds["holdout"])
        # the first holdout split serves McNemar and the proportions test; all of them the
        # resampled t (Dietterich draws them the same way)
        masks = resampling.test_masks(y, holdout_rng)
        first = score_splits(X, y, masks[:1], return_correctness=True, **kw)
        out["holdout_counts"][row] = np.concatenate(first.mcnemar_counts(), axis=None)
        out["resampling_diff"][row] = score_splits(X, y, masks, **kw).difference()
        # "cv" stream: the same partition as run 1 of the Figure 2 study
        out["kfold_diff"][row] = score_splits(X, y, kfold.test_masks(y, seeds["cv"]),
                                              **kw).difference()[0]
        out["cv5x2_diff"][row] = score_splits(X, y, FiveByTwoCV().test_masks(y, seeds["cv5x2"]),
                                              **kw).difference()
    return out


def run_study(study: NullLearnersStudy, *, scheduler=None, n_workers=None,
              progress=None) -> dict:
    """Run every block of ``study`` (on Dask unless ``n_workers=0``); arrays by data set."""
    from .distributed import map_cells
    parts = {}
    done = [0]

    def on_result(spec, result):
        parts[spec.start] = result
        done[0] += spec.stop - spec.start
        if progress is not None:
            progress(done[0], study.n_datasets)

    map_cells(run_block, study.blocks(), scheduler=scheduler, n_workers=n_workers,
              on_result=on_result)
    return {k: np.concatenate([parts[s][k] for s in sorted(parts)]) for k in parts[0]}


def type1_errors(study: NullLearnersStudy, scores: dict) -> pd.DataFrame:
    """Type I error with Clopper–Pearson interval of each test at ``study.alpha``.

    Returns
    -------
    pandas.DataFrame
        One row per test: ``test``, ``label``, ``n_resamples``, ``n_trials``,
        ``n_rejected``, ``type1_error``, ``mc_se``, ``ci_low``, ``ci_high``, ``alpha``.
    """
    from .dietterich import _label, _pvalues, type1_table
    trials = SimpleNamespace(trials=scores["index"], **{k: scores[k] for k in (
        "holdout_counts", "resampling_diff", "kfold_diff", "cv5x2_diff")})
    frames = []
    for test in TESTS:
        n_res = study.n_resamples if test == "resampled_t" else 0
        _, p = _pvalues(test, trials, n_res)
        frames.append(pd.DataFrame({"test": test, "n_resamples": n_res, "pvalue": p}))
    table = type1_table(pd.concat(frames, ignore_index=True), alpha=study.alpha,
                        keys=["test", "n_resamples"])
    table.insert(1, "label", [_label(t, study.n_folds) for t in table["test"]])
    return table


def calibrate_5x2cv(study: NullLearnersStudy, scores: dict) -> pd.DataFrame:
    """Type I error against df of the 5x2cv t and F (denominator df), and their calibrated df.

    Returns
    -------
    pandas.DataFrame
        Tidy: ``test``, ``df``, ``type1_error`` and ``calibrated_df`` (constant per test;
        0 when no df keeps the Type I error at or below α).
    """
    from .calibration import calibrate
    frames = []
    for test in ("cv5x2_t", "cv5x2_f"):
        res = calibrate(test, scores["cv5x2_diff"], alphas=[study.alpha], dfs=study.dfs)
        frames.append(pd.DataFrame({"test": test, "df": res.dfs, "type1_error": res.type1[0],
                                    "calibrated_df": int(res.calibrated_df[0])}))
    return pd.concat(frames, ignore_index=True)


def _plot(table, curves, alpha):
    import matplotlib.pyplot as plt
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5), layout="constrained",
                                      width_ratios=[1.4, 1])
    y = 100 * table["type1_error"].to_numpy()
    err = [y - 100 * table["ci_low"].to_numpy(), 100 * table["ci_high"].to_numpy() - y]
    left.bar(np.arange(len(table)), y, yerr=err, color="0.55", capsize=3)
    left.axhline(100 * alpha, ls="--", lw=1, color="0.2")
    left.set_xticks(np.arange(len(table)), table["label"], rotation=20, ha="right")
    left.set(ylabel="Type I error (%)",
             title="Naive Bayes vs C4.5 on null data (95% Clopper–Pearson)")
    for test, g in curves.groupby("test", sort=False):
        right.plot(g["df"], 100 * g["type1_error"], label={"cv5x2_t": "5x2cv t",
                                                             "cv5x2_f": "5x2cv F"}[test])
    right.axhline(100 * alpha, ls="--", lw=1, color="0.2")
    right.set(xlabel="df (5x2cv t: t reference; F: denominator df)",
              ylabel="Type I error (%)", title="Calibrating the 5x2cv tests")
    right.legend(frameon=False)
    return fig


def write_outputs(study: NullLearnersStudy, scores: dict, *, wall_seconds=None) -> dict:
    """Write the Type I error table (CSV, Markdown), the figure (PNG, PDF) and the report."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder = Path(study.folder)
    folder.mkdir(parents=True, exist_ok=True)
    table = type1_errors(study, scores)
    curves = calibrate_5x2cv(study, scores)
    paths = {"csv": folder / f"{study.name}_type1.csv", "md": folder / f"{study.name}_type1.md",
             "curves": folder / f"{study.name}_5x2cv_df.csv",
             "png": folder / f"{study.name}.png", "pdf": folder / f"{study.name}.pdf",
             "report": folder / f"{study.name}_report.md"}
    table.to_csv(paths["csv"], index=False, float_format="%.6g")
    curves.to_csv(paths["curves"], index=False, float_format="%.6g")
    shown = table.assign(**{"Type I error %": (100 * table["type1_error"]).round(1),
                            "95% CI": [f"[{100 * lo:.1f}, {100 * hi:.1f}]" for lo, hi in
                                       zip(table["ci_low"], table["ci_high"])]})
    md = shown[["label", "n_rejected", "n_trials", "Type I error %", "95% CI"]].to_markdown(
        index=False)
    paths["md"].write_text(md + "\n", encoding="utf-8")
    fig = _plot(table, curves, study.alpha)
    for ext in ("png", "pdf"):
        fig.savefig(paths[ext], dpi=130, metadata={"CreationDate": None} if ext == "pdf" else {})
    plt.close(fig)

    rate = dict(zip(table["test"], table["type1_error"]))
    low = dict(zip(table["test"], table["ci_low"]))
    high = dict(zip(table["test"], table["ci_high"]))
    a = study.alpha

    def verdict(holds: bool) -> str:
        return "agrees" if holds else "differs"

    cal = curves.groupby("test")["calibrated_df"].first()
    top = int(study.dfs[-1])
    t_curve = curves[curves["test"] == "cv5x2_t"]["type1_error"].to_numpy()
    lines = [
        f"# {study.title or study.name}\n\n",
        f"N = {study.n_datasets} null data sets of {study.source.n_instances} instances x "
        f"{study.source.n_attributes} binary attributes (class prior "
        f"{study.source.class_prior}), the data sets of the Bouckaert (2003) Figure 2 study "
        f"(seed {study.seed}); A = {study.learners[0]}, B = {study.learners[1]} (Weka's "
        f"NaiveBayes and J48); holdout and resampling train on "
        f"{study.train_fraction:.3g} of the data; {study.n_resamples} resampled splits; "
        f"{study.n_folds}-fold cv (run 1 of the Figure 2 study); 5 x 2 stratified cv; "
        f"α = {a}.\n\n",
    ]
    if wall_seconds is not None:
        lines.append(f"Wall time of the run that wrote this report: {wall_seconds:.1f} s.\n\n")
    lines += ["## Type I error\n\n", md, "\n\n",
              "## Dietterich's findings, on real learners\n\n",
              "Dietterich (1998) found in his simulation that the difference of proportions and "
              "the resampled t have elevated Type I error and that McNemar, the 10-fold cv t and "
              "5x2cv are acceptable; in his real-data experiments (C4.5 vs a handicapped 1-NN) "
              "the 10-fold cv t was the one test above α (up to about twice the target) and the "
              "difference of proportions was acceptable but weak. Real learners on null data "
              "are closer to his real-data setting, so the statements below are his real-data "
              "ones where the two differ. A test *exceeds* α here if its 95% interval lies "
              "wholly above α; it is *acceptable* if the interval reaches down to α or "
              "below.\n\n",
              "| statement | ours | verdict |\n|---|---|---|\n"]
    claims = [
        ("resampled t exceeds α", "resampled_t", low["resampled_t"] > a),
        ("McNemar acceptable", "mcnemar", low["mcnemar"] <= a),
        ("5x2cv t acceptable", "cv5x2_t", low["cv5x2_t"] <= a),
        ("difference of proportions acceptable (real data; it exceeds α only in the "
         "simulation)", "proportions", low["proportions"] <= a),
        ("10-fold cv t exceeds α (real data: up to about 2α)", "kfold_cv_t",
         low["kfold_cv_t"] > a),
    ]
    for text, test, ok in claims:
        lines.append(f"| {text} | {100 * rate[test]:.1f}% [{100 * low[test]:.1f}, "
                     f"{100 * high[test]:.1f}] | **{verdict(ok)}** |\n")
    lines += [
        "\n## Can df calibrate the 5x2cv tests?\n\n",
        f"Type I error of the 5x2cv t at df = 2, 5 (textbook), 10, 50, {top}: "
        + ", ".join(f"{100 * t_curve[np.searchsorted(study.dfs, d)]:.1f}%"
                    for d in (2, 5, 10, 50, top)) + ". ",
        f"Calibrated df (closest to and not above α on {int(study.dfs[0])}..{top}): "
        f"5x2cv t {cal['cv5x2_t']}, 5x2cv F {cal['cv5x2_f']}"
        + (" (the top of the grid: no df in the grid raises the Type I error to α)"
           if cal["cv5x2_t"] >= top else "") + ". ",
        "So df can set the Type I error of these tests. What it cannot change is what "
        "Bouckaert (2003, §5.4) holds against 5x2cv: in Dietterich's form df enters only the "
        "reference distribution, and the statistic's numerator is one fold difference "
        "p_1^(1), which varies greatly between random partitions, so its outcome replicates "
        "poorly whatever the df. Measuring that (Bouckaert's Table 5, 5x2cv row) needs the "
        "replicability study of the power/replicability issue; it is not done here.\n",
    ]
    paths["report"].write_text("".join(lines), encoding="utf-8")
    return paths


_SCHEMA = {
    "study": {"name": str, "title": str, "kind": str, "seed": int, "n_datasets": int},
    "source": {"kind": str, "n_instances": int, "n_attributes": int, "class_prior": float},
    "learners": {"a": str, "b": str},
    "schemes": {"train_fraction": float, "n_resamples": int, "n_folds": int},
    "tests": {"alpha": float, "df_min": int, "df_max": int},
    "execution": {"block_size": int},
    "outputs": {"folder": str},
}


def load_study_file(path) -> NullLearnersStudy:
    """Read and validate a ``kind = "null_learners"`` study file.

    Raises
    ------
    FileNotFoundError
        If the file does not exist.
    ValueError
        On invalid TOML, unknown sections or keys, wrong types or bad values; the
        message names the file, the key, the rule and the value.
    """
    path = Path(path)
    doc = read_study_file(path, _SCHEMA)
    st, src = doc.get("study", {}), doc.get("source", {})
    if st.get("kind") != "null_learners" or src.get("kind", "null") != "null":
        raise ValueError(f"study file {path}: `study.kind` must be 'null_learners' and "
                         f"`source.kind` 'null'; got {st.get('kind')!r} and "
                         f"{src.get('kind')!r}.")
    sch, tst = doc.get("schemes", {}), doc.get("tests", {})
    lrn = doc.get("learners", {})
    try:
        return NullLearnersStudy(
            name=st["name"], title=st.get("title", st["name"]), seed=st["seed"],
            n_datasets=st["n_datasets"],
            source=NullSource(**{k: v for k, v in src.items() if k != "kind"}),
            learners=(lrn.get("a", "naive_bayes"), lrn.get("b", "c45")),
            train_fraction=float(sch.get("train_fraction", 2 / 3)),
            n_resamples=sch.get("n_resamples", 30), n_folds=sch.get("n_folds", 10),
            alpha=float(tst.get("alpha", 0.05)),
            dfs=np.arange(tst.get("df_min", 2), tst.get("df_max", 100) + 1),
            block_size=doc.get("execution", {}).get("block_size", 50),
            folder=Path(doc.get("outputs", {}).get("folder", "figures")))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"study file {path}: {exc}") from exc


def run_study_file(path, *, outputs=None, n_datasets=None, scheduler=None, n_workers=None,
                   progress=None) -> dict:
    """Load, run and write a null-learners study; returns the written paths."""
    import time
    from dataclasses import replace
    study = load_study_file(path)
    changes = {}
    if outputs is not None:
        changes["folder"] = Path(outputs)
    if n_datasets is not None:
        changes["n_datasets"] = n_datasets
    study = replace(study, **changes) if changes else study
    t0 = time.perf_counter()
    scores = run_study(study, scheduler=scheduler, n_workers=n_workers, progress=progress)
    return write_outputs(study, scores, wall_seconds=time.perf_counter() - t0)
