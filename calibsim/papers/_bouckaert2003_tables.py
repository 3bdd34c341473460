"""Bouckaert (2003) Tables 2, 4, 5, 6, 7 and Figure 4: paper values beside ours, layouts.

The numbers come from the engine's ``rejection_rate`` and ``replicability`` analyses
(df calibrated on the Figure 2 study's null data); this module only renames
sources and learners as the paper does, sets the paper's values beside ours with
the difference, and draws Figure 4 as the paper lays it out.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["write_table"]

_LEARNER_LABELS = {"naive_bayes": "naive Bayes", "c45": "C4.5", "ib1": "nearest neighbor",
                   "tan": "tree augmented naive Bayes", "voted_perceptron": "voted perceptron"}
_SET_LABELS = {"calibration_data": "calibration data", "set1": "Set 1", "set2": "Set 2",
               "set3": "Set 3", "set4": "Set 4"}


def _old_shape(table: pd.DataFrame) -> pd.DataFrame:
    """The engine's tidy table with the paper's names (``set``, learner labels)."""
    t = table.copy()
    t.insert(0, "set", t["source"].map(lambda s: _SET_LABELS.get(s, s)))
    t["pair_a"] = t["pair_a"].map(lambda s: _LEARNER_LABELS.get(s, s))
    t["pair_b"] = t["pair_b"].map(lambda s: _LEARNER_LABELS.get(s, s))
    return t


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


def _write(study, frames: dict, notes: list[str], wall, folder, calibration) -> dict:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    lines = [f"# {study.title or study.name}\n\n",
             f"N = {study.sources[-1].n_datasets} data sets per collection; seed {study.seed}; "
             f"calibrated df from `{calibration}` (its own null data, N = its n_datasets). Values "
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


def _figure4_plot(study, table, folder) -> dict:
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
        path = Path(folder) / f"{study.name}.{ext}"
        fig.savefig(path, dpi=120, metadata={"CreationDate": None} if ext == "pdf" else {})
        paths[ext] = path
    plt.close(fig)
    return paths


def write_table(which: str, study, table: pd.DataFrame, folder, *, wall=None,
                calibration=None) -> dict:
    """Write the paper-shaped CSV, the Markdown report (paper beside ours) and Figure 4."""
    notes = []
    table = _old_shape(table)
    if which == "table2":
        wide = _beside(table, _paper("table2_type1_vs_class_prior.csv"), "label", "class_prior")
        frames = {"type1_vs_class_prior": (table, wide)}
    elif which == "table4":
        t1 = table[table["set"] == "Set 1"]
        frames = {"type1_vs_alpha": (table, _beside(t1, _paper("table4_type1_vs_alpha.csv"),
                                                    "label", "alpha"))}
        power = table[table["set"] != "Set 1"].pivot_table(
            index="label", columns=["set", "alpha"], values="rate", sort=False)
        power.columns = [f"{s}, α={a:g}" for s, a in power.columns]
        frames["power_vs_alpha"] = (table, (100 * power).round(1).reset_index())
    elif which == "table56":
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
    elif which == "table7":
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
    paths = _write(study, frames, notes, wall, folder, calibration)
    if which == "figure4":
        paths.update(_figure4_plot(study, table, folder))
    return paths


