"""Bouckaert (2003) Tables 2, 4, 5, 6, 7 and Figure 4: the calibrated tests at work.

The calibrated df come from the Figure 2 study (``studies/bouckaert2003_figure2.toml``):
its saved score arrays are calibrated again here at whatever number of runs and α a
table needs (calibration is cheap once the scores exist). The tests are then applied,
at those df, to other *collections* of data sets:

- null data at other class priors (Table 2);
- the four data sources of Table 3, Set 1 (null) to Set 4 (C4.5 far better than naive
  Bayes), for Type I error and power against the number of runs (Figure 4) and α
  (Table 4), and for replicability (Tables 5 and 6);
- other pairs of learners on Set 1 (Table 7).

A collection is a :class:`calibsim.study.CalibrationStudy` run with the same machinery
(Dask, resumable saved blocks), stored under ``results/collections/<fingerprint>`` so
that studies declaring the same collection share its scores. Replicability uses the 100
runs of each data set as 10 independent 10 x 10 cv experiments (runs 1-10, 11-20, ...),
the 100 subsamples as 10 experiments of 10, and 10 independent 5 x 2 cv experiments.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd

from ._studyfile import read_study_file
from .calibration import calibrate
from .measures import rejection_rate, replicability
from .schemes import RandomSubsampling, RepeatedStratifiedKFold
from .sources import NullSource
from .stats import get_test
from .study import CalibrationStudy, load_scores, load_study, run_study

__all__ = ["TablesStudy", "load_study_file", "run_study_file", "CALIBRATED_TESTS"]

#: The tests Bouckaert keeps after Figure 2 (those whose df calibrates), in his order.
CALIBRATED_TESTS = ("resampling", "corrected_resampling", "kfold_cv", "use_all_data",
                    "folds_averaged_var", "folds_averaged_t", "runs_averaged_var",
                    "runs_averaged_t", "sorted_runs")
TABLES = ("table2", "figure4", "table4", "table56", "table7")
_LEARNER_LABELS = {"naive_bayes": "naive Bayes", "c45": "C4.5", "ib1": "nearest neighbor",
                   "tan": "tree augmented naive Bayes", "voted_perceptron": "voted perceptron"}


@dataclass(frozen=True)
class TablesStudy:
    """A validated Bouckaert (2003) table study (see :func:`load_study_file`)."""

    name: str
    table: str
    seed: int
    n_datasets: int
    calibration: Path
    sets: tuple = ()
    priors: tuple = (0.05, 0.1, 0.2, 0.3, 0.4, 0.5)
    runs: tuple = (5, 10, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90, 100)
    alphas: tuple = (0.05,)
    learners: tuple = ("naive_bayes", "c45")
    repeats: int = 10
    n_runs: int = 10
    block_size: int = 20
    folder: Path = Path("figures")
    results: Path = Path("results/collections")
    title: str = ""


# ---------------------------------------------------------------------------
# Calibrated df and collections
# ---------------------------------------------------------------------------

@functools.lru_cache(maxsize=4)
def _calibration_scores(path: str):
    """The calibration study and its scores (run, on Dask, if not saved yet)."""
    study = load_study(path)
    return study, run_study(study) if _missing(study) else load_scores(study)


def _missing(study) -> bool:
    try:
        load_scores(study)
        return False
    except FileNotFoundError:
        return True


def _test_func(name, n_instances, test_fraction=0.1):
    spec = get_test(name)
    if name == "corrected_resampling":
        ratio = RandomSubsampling(test_fraction=test_fraction).test_train_ratio_for(n_instances)
        return functools.partial(spec.func, test_train_ratio=ratio)
    return spec.func


def _data(name, scores, r, group=0):
    """The test's data for the group-th block of r runs, (N, r, k) or (N, r)."""
    if get_test(name).scheme == "subsampling":
        return scores.subsampling_difference((group + 1) * r)[:, group * r:]
    return scores.cv_difference((group + 1) * r)[:, group * r:]


def calibrated_df(study: TablesStudy, test: str, r: int, alpha: float) -> int:
    """Calibrated df of ``test`` at r runs and α on the calibration study's null data."""
    return _calibrated_df(str(study.calibration), test, r, alpha)


@functools.lru_cache(maxsize=4096)
def _calibrated_df(path: str, test: str, r: int, alpha: float) -> int:
    cal, scores = _calibration_scores(path)
    func = _test_func(test, cal.source.n_instances, cal.subsampling.test_fraction)
    res = calibrate(func, _data(test, scores, r), alphas=[alpha], dfs=cal.dfs)
    return int(res.calibrated_df[0])


def _collection(study: TablesStudy, source, *, learners=None, n_runs=100, n_sub=100,
                cv5x2_repeats=0, client=None, progress=None):
    cal, _ = _calibration_scores(str(study.calibration))
    col = CalibrationStudy(
        name=f"collection:{source.identity}", seed=study.seed, n_datasets=study.n_datasets,
        source=source, learners=tuple(learners or study.learners),
        cv=RepeatedStratifiedKFold(n_folds=cal.cv.n_folds, n_runs=n_runs),
        subsampling=(RandomSubsampling(n_runs=n_sub, test_fraction=cal.subsampling.test_fraction)
                     if n_sub else None),
        runs=(2,), alphas=(0.05,), tests=("use_all_data",), block_size=study.block_size,
        cv5x2_repeats=cv5x2_repeats)
    col = replace(col, results_dir=Path(study.results) / col.fingerprint)
    return col, run_study(col, n_workers=0 if client is None else None, client=client,
                          progress=progress)


def _set_sources(study: TablesStudy):
    from .sources import BANSource
    return [(f"Set {i + 1}", BANSource(path)) for i, path in enumerate(study.sets)]


def _pvalues(study, test, scores, r, df, n_instances, group=0):
    func = _test_func(test, n_instances)
    return np.asarray(func(_data(test, scores, r, group), df).pvalue, dtype=float)


# ---------------------------------------------------------------------------
# The tables
# ---------------------------------------------------------------------------

def _rate_row(p, alpha):
    rr = rejection_rate(p, alpha)
    return {"rate": rr.rate, "mc_se": rr.mc_se, "ci_low": rr.ci_low, "ci_high": rr.ci_high,
            "n": rr.n}


def table2(study, **run):
    """Type I error of the calibrated tests (10 x 10 cv, α) against the class prior."""
    rows = []
    for prior in study.priors:
        src = NullSource(class_prior=prior)
        _, scores = _collection(study, src, n_runs=study.n_runs, n_sub=study.n_runs, **run)
        for test in CALIBRATED_TESTS:
            for alpha in study.alphas:
                df = calibrated_df(study, test, study.n_runs, alpha)
                p = _pvalues(study, test, scores, study.n_runs, df, src.n_instances)
                rows.append({"test": test, "label": get_test(test).label, "class_prior": prior,
                             "alpha": alpha, "df": df, **_rate_row(p, alpha)})
    return pd.DataFrame(rows)


def _sets_rows(study, measure, **run):
    rows = []
    for set_name, src in _set_sources(study):
        _, scores = _collection(study, src, n_runs=100, n_sub=100, cv5x2_repeats=study.repeats,
                                **run)
        rows += measure(set_name, src, scores)
    return pd.DataFrame(rows)


def figure4(study, **run):
    """Type I error (Set 1) and power (Sets 2-4) at the calibrated df against runs."""
    def measure(set_name, src, scores):
        out = []
        for test in CALIBRATED_TESTS:
            for r in study.runs:
                for alpha in study.alphas:
                    df = calibrated_df(study, test, r, alpha)
                    p = _pvalues(study, test, scores, r, df, src.n_instances)
                    out.append({"set": set_name, "test": test, "label": get_test(test).label,
                                "n_runs": r, "alpha": alpha, "df": df, **_rate_row(p, alpha)})
        return out
    table = _sets_rows(study, measure, **run)
    # the paper's way: Type I error on the calibration collection itself
    cal, scores = _calibration_scores(str(study.calibration))
    extra = []
    for test in CALIBRATED_TESTS:
        for r in study.runs:
            for alpha in study.alphas:
                df = calibrated_df(study, test, r, alpha)
                p = _pvalues(study, test, scores, r, df, cal.source.n_instances)
                extra.append({"set": "calibration data", "test": test,
                              "label": get_test(test).label, "n_runs": r, "alpha": alpha,
                              "df": df, **_rate_row(p, alpha)})
    return pd.concat([table, pd.DataFrame(extra)], ignore_index=True)


def table4(study, **run):
    """Type I error (Set 1) and power (Sets 2-4) at several α, r x 10 cv."""
    def measure(set_name, src, scores):
        out = []
        for test in CALIBRATED_TESTS:
            for alpha in study.alphas:
                df = calibrated_df(study, test, study.n_runs, alpha)
                p = _pvalues(study, test, scores, study.n_runs, df, src.n_instances)
                out.append({"set": set_name, "test": test, "label": get_test(test).label,
                            "alpha": alpha, "df": df, **_rate_row(p, alpha)})
        return out
    return _sets_rows(study, measure, **run)


def table56(study, **run):
    """Replicability of each test over ``repeats`` random partitions, per set and α."""
    def measure(set_name, src, scores):
        out = []
        tests = CALIBRATED_TESTS + ("cv5x2_t",)
        for test in tests:
            for alpha in study.alphas:
                if test == "cv5x2_t":            # not calibrated (Bouckaert: as published)
                    df = 5
                    x = scores.cv5x2_difference()[:, :study.repeats]
                    p = np.asarray(get_test(test).func(x, df).pvalue)       # (N, repeats)
                else:
                    df = calibrated_df(study, test, study.n_runs, alpha)
                    p = np.stack([_pvalues(study, test, scores, study.n_runs, df,
                                           src.n_instances, group=g)
                                  for g in range(study.repeats)], axis=1)
                rep = replicability(p <= alpha)
                out.append({"set": set_name, "test": test, "label": get_test(test).label,
                            "alpha": alpha, "df": df, "consistent": rep.consistent,
                            "consistent_se": rep.consistent_se,
                            "almost_consistent": rep.almost_consistent,
                            "almost_consistent_se": rep.almost_consistent_se,
                            "R": rep.R, "R_se": rep.R_se, "n": rep.n_datasets})
        return out
    return _sets_rows(study, measure, **run)


def table7(study, **run):
    """Type I error of the r x 10 use-all-data test for pairs of learners on Set 1."""
    name, src = _set_sources(study)[0]
    rows = []
    names = list(study.learners)
    for i, b in enumerate(names):
        for a in names[i + 1:]:
            _, scores = _collection(study, src, learners=(a, b), n_runs=study.n_runs, n_sub=0,
                                    **run)
            for alpha in study.alphas:
                df = calibrated_df(study, "use_all_data", study.n_runs, alpha)
                p = _pvalues(study, "use_all_data", scores, study.n_runs, df, src.n_instances)
                rows.append({"pair_a": _LEARNER_LABELS[a], "pair_b": _LEARNER_LABELS[b],
                             "alpha": alpha, "df": df, **_rate_row(p, alpha)})
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------
# Paper values beside ours
# ---------------------------------------------------------------------------

def _paper(name):
    path = resources.files("calibsim") / f"data/reference/bouckaert2003/{name}"
    return pd.read_csv(path, comment="#")


def _pct(v):
    return f"{100 * v:.1f}"


def _beside(ours: pd.DataFrame, paper: pd.DataFrame, key, cols, value="rate",
            se="mc_se") -> pd.DataFrame:
    """Wide table: one column per ``cols`` value, cells 'ours (SE); paper P; Δ D' in percent."""
    out = []
    for label, g in ours.groupby(key, sort=False):
        row = {key: label}
        ref = paper[paper.iloc[:, 0] == label]
        for col, sub in g.groupby(cols, sort=False):
            v, s = sub[value].iloc[0], sub[se].iloc[0]
            ref_col = _ref_column(paper, col)
            ref_v = ref[ref_col].iloc[0] if (len(ref) and ref_col is not None) else np.nan
            row[str(col)] = f"{_pct(v)} ({_pct(s)})" + (
                "" if np.isnan(ref_v) else f"; paper {ref_v:.1f}; Δ {100 * v - ref_v:+.1f}")
        out.append(row)
    return pd.DataFrame(out)


def _ref_column(paper, col):
    for c in paper.columns[1:]:
        try:
            if np.isclose(float(c), float(col)):
                return c
        except ValueError:
            if str(c).replace(" ", "").lower() == str(col).replace(" ", "").lower():
                return c
    return None


def _write(study, frames: dict, notes: list[str], wall) -> dict:
    folder = Path(study.folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    lines = [f"# {study.title or study.name}\n\n",
             f"N = {study.n_datasets} data sets per collection; seed {study.seed}; calibrated "
             f"df from `{study.calibration}` (its own null data, N = its n_datasets). Values "
             "are percentages; ours with the Monte Carlo standard error in brackets, the "
             "paper's (Bouckaert 2003) beside them and the difference (ours − paper).\n\n"]
    if wall is not None:
        lines.append(f"Wall time of the run that wrote this report: {wall:.1f} s (collections "
                     "saved by an earlier run are loaded, not recomputed).\n\n")
    for key, (raw, wide) in frames.items():
        csv = folder / f"{study.name}_{key}.csv"
        raw.to_csv(csv, index=False, float_format="%.6g")
        paths[f"{key}.csv"] = csv
        lines += [f"## {key}\n\n", wide.to_markdown(index=False), "\n\n"]
    lines += [n if n.endswith("\n") else n + "\n" for n in notes]
    report = folder / f"{study.name}_report.md"
    report.write_text("".join(lines), encoding="utf-8")
    paths["report"] = report
    return paths


def _figure4_plot(study, table) -> dict:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    sets = [s for s in dict.fromkeys(table["set"]) if s != "calibration data"]
    n_panels = len(sets) + 1
    n_cols = 3
    n_rows = -(-(n_panels + 1) // n_cols)          # one more cell for the legend
    fig, grid = plt.subplots(n_rows, n_cols, figsize=(4.3 * n_cols, 3.6 * n_rows),
                             layout="constrained", squeeze=False)
    axes = grid.ravel()
    cmap = matplotlib.colormaps["tab10"]
    panels = [("calibration data", "Type I error on the calibration data\n(the paper's way)")] + [
        (s, ("Type I error on fresh null data" if i == 0 else "Power") + f": {s}")
        for i, s in enumerate(sets)]
    for ax, (set_name, title) in zip(axes, panels):
        sub = table[(table["set"] == set_name) & np.isclose(table["alpha"], 0.05)]
        for i, (test, g) in enumerate(sub.groupby("test", sort=False)):
            ax.plot(g["n_runs"], 100 * g["rate"], marker="o", ms=3, lw=1, color=cmap(i % 10),
                    label=g["label"].iloc[0])
        if "Type I" in title:
            ax.axhline(5, ls="--", lw=1, color="0.3")
        ax.set(title=title, xlabel="number of runs r", ylabel="% of data sets rejected")
        ax.grid(True, lw=0.3, color="0.85")
    handles, labels = axes[0].get_legend_handles_labels()
    for ax in axes[n_panels:]:
        ax.axis("off")
    axes[n_panels].legend(handles, labels, loc="center", fontsize=9, frameon=False,
                          title="α = 0.05, 10 folds, calibrated df")
    paths = {}
    for ext in ("png", "pdf"):
        path = Path(study.folder) / f"{study.name}.{ext}"
        fig.savefig(path, dpi=120, metadata={"CreationDate": None} if ext == "pdf" else {})
        paths[ext] = path
    plt.close(fig)
    return paths


def write_outputs(study: TablesStudy, table: pd.DataFrame, *, wall=None) -> dict:
    """Write CSV, Markdown report (paper beside ours) and, for Figure 4, the figure."""
    notes = []
    if study.table == "table2":
        wide = _beside(table, _paper("table2_type1_vs_class_prior.csv"), "label", "class_prior")
        frames = {"type1_vs_class_prior": (table, wide)}
    elif study.table == "table4":
        t1 = table[table["set"] == "Set 1"]
        frames = {"type1_vs_alpha": (table, _beside(t1, _paper("table4_type1_vs_alpha.csv"),
                                                    "label", "alpha"))}
        power = table[table["set"] != "Set 1"].pivot_table(
            index="label", columns=["set", "alpha"], values="rate", sort=False)
        power.columns = [f"{s}, α={a:g}" for s, a in power.columns]
        frames["power_vs_alpha"] = (table, (100 * power).round(1).reset_index())
    elif study.table == "table56":
        t5 = table[np.isclose(table["alpha"], 0.05)].copy()
        t5["col"] = t5["set"].str.replace("Set ", "set")
        wide5 = _beside(t5, _paper("table5_replicability.csv").replace(
            {"test": {"5x2 cv": "5x2cv t"}}), "label", "col", value="consistent",
            se="consistent_se")
        mins = (table.groupby(["label", "alpha"], sort=False)
                .apply(lambda g: g.loc[g["consistent"].idxmin()], include_groups=False)
                .reset_index())
        wide6 = _beside(mins, _paper("table6_replicability_vs_alpha.csv"), "label", "alpha",
                        value="consistent", se="consistent_se")
        frames = {"table5_replicability": (table, wide5),
                  "table6_min_replicability_vs_alpha": (mins, wide6)}
        notes.append("Replicability = share of data sets on which all repetitions (different "
                     "random partitions) agree; `R` (Bouckaert & Frank 2004) and the "
                     "almost-consistent share are in the CSV.")
    elif study.table == "table7":
        paper = _paper("table7_type1_other_learners.csv")
        rows = []
        for _, r in table[np.isclose(table["alpha"], 0.05)].iterrows():
            ref = paper[((paper["pair_a"] == r["pair_a"]) & (paper["pair_b"] == r["pair_b"]))
                        | ((paper["pair_a"] == r["pair_b"]) & (paper["pair_b"] == r["pair_a"]))]
            ref_v = ref["type1_percent"].iloc[0] if len(ref) else np.nan
            rows.append({"pair": f"{r['pair_a']} vs {r['pair_b']}",
                         "ours": f"{_pct(r['rate'])} ({_pct(r['mc_se'])})",
                         "paper": "" if np.isnan(ref_v) else f"{ref_v:.1f}",
                         "diff": "" if np.isnan(ref_v) else f"{100 * r['rate'] - ref_v:+.1f}"})
        frames = {"type1_learner_pairs": (table, pd.DataFrame(rows))}
    else:  # figure4
        wide = table[np.isclose(table["alpha"], 0.05)].pivot_table(
            index=["set", "label"], columns="n_runs", values="rate", sort=False)
        wide.columns = [f"r={r}" for r in wide.columns]
        frames = {"type1_and_power_vs_runs": (table, (100 * wide).round(1).reset_index())}
    paths = _write(study, frames, notes, wall)
    if study.table == "figure4":
        paths.update(_figure4_plot(study, table))
    return paths


# ---------------------------------------------------------------------------
# Study files
# ---------------------------------------------------------------------------

_SCHEMA = {
    "study": {"name": str, "title": str, "kind": str, "table": str, "seed": int,
              "n_datasets": int},
    "calibration": {"study": str},
    "sets": {"networks": list},
    "design": {"priors": list, "runs": list, "alphas": list, "learners": list,
               "repeats": int, "n_runs": int},
    "execution": {"block_size": int},
    "outputs": {"folder": str, "results": str},
}


def load_study_file(path) -> TablesStudy:
    """Read and validate a ``kind = "bouckaert2003_table"`` study file.

    Raises
    ------
    FileNotFoundError
        If the file does not exist.
    ValueError
        On invalid TOML, unknown sections or keys, wrong types or bad values (the
        message names the file, the key, the rule and the value).
    """
    path = Path(path)
    doc = read_study_file(path, _SCHEMA, required=("name", "table", "seed", "n_datasets"),
                          kind="bouckaert2003_table")
    st = doc["study"]
    if st["table"] not in TABLES:
        raise ValueError(f"study file {path}: `study.table` must be one of {list(TABLES)}; "
                         f"got {st['table']!r}.")
    if st["n_datasets"] < 1 or st["seed"] < 0:
        raise ValueError(f"study file {path}: `study.n_datasets` must be >= 1 and `study.seed` "
                         f">= 0; got {st['n_datasets']} and {st['seed']}.")
    design, sets = doc.get("design", {}), doc.get("sets", {}).get("networks", [])
    root = path.parent.parent          # paths in study files are relative to the repository
    kw = {}
    for key in ("priors", "runs", "alphas", "learners"):
        if key in design:
            kw[key] = tuple(design[key])
    for key in ("repeats", "n_runs"):
        if key in design:
            kw[key] = design[key]
    if st["table"] != "table2" and not sets:
        raise ValueError(f"study file {path}: table {st['table']!r} needs [sets] networks.")
    cal = doc.get("calibration", {}).get("study", "studies/bouckaert2003_figure2.toml")
    out = doc.get("outputs", {})
    return TablesStudy(name=st["name"], title=st.get("title", st["name"]), table=st["table"],
                       seed=st["seed"], n_datasets=st["n_datasets"],
                       calibration=_resolve(root, cal), sets=tuple(_resolve(root, s) for s in sets),
                       block_size=doc.get("execution", {}).get("block_size", 20),
                       folder=Path(out.get("folder", "figures")),
                       results=Path(out.get("results", "results/collections")), **kw)


def _resolve(root: Path, p: str) -> Path:
    q = Path(p)
    return q if q.is_absolute() or q.exists() else root / q


def run_study_file(path, *, outputs=None, n_datasets=None, scheduler=None, n_workers=None,
                   progress=None) -> dict:
    """Load, run and write a Bouckaert (2003) table study; returns the written paths."""
    study = load_study_file(path)
    changes = {}
    if outputs is not None:
        changes["folder"] = Path(outputs)
    if n_datasets is not None:
        changes["n_datasets"] = n_datasets
    study = replace(study, **changes) if changes else study
    from .distributed import dask_client
    t0 = time.perf_counter()
    _calibration_scores(str(study.calibration))          # run it first if it is not saved
    with dask_client(scheduler=scheduler, n_workers=n_workers) as client:
        table = {"table2": table2, "figure4": figure4, "table4": table4, "table56": table56,
                 "table7": table7}[study.table](study, client=client, progress=progress)
    return write_outputs(study, table, wall=time.perf_counter() - t0)
