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


#: What a report's cells hold, by kind of table (the header says what is there).
_BESIDE = ("Cells: ours in percent with the Monte Carlo standard error in brackets; the "
           "paper's value (Bouckaert 2003) and the difference Δ = ours − paper where the "
           "paper gives one.")
_OURS_ONLY = ("Cells: ours in percent with the Monte Carlo standard error in brackets. The "
              "paper gives no numbers to set beside them ({why}), so there is no paper column "
              "and no difference.")


def _ours_se(table: pd.DataFrame, index, columns, value="rate", se="mc_se") -> pd.DataFrame:
    """Wide table of 'ours (SE)' cells in percent."""
    cells = table.assign(_cell=[f"{_pct(v)} ({_pct(e)})" for v, e in
                                zip(table[value], table[se])])
    wide = cells.pivot_table(index=index, columns=columns, values="_cell", aggfunc="first",
                             sort=False)
    return wide


def _write(study, frames: dict, notes: list[str], wall, folder, calibration,
           cells: dict | None = None) -> dict:
    """The paper-shaped CSVs and the report; ``cells`` gives each section's sentence on
    what its cells hold (default: ours with SE beside the paper's value and Δ)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    cells = cells or {}
    lines = [f"# {study.title or study.name}\n\n",
             f"N = {study.sources[-1].n_datasets} data sets per collection; seed {study.seed}; "
             f"calibrated df from `{calibration}` (its own null data, N = its n_datasets).\n\n"]
    if wall is not None:
        lines.append(f"Wall time of the run that wrote this report: {wall:.1f} s (collections "
                     "saved by an earlier run are loaded, not recomputed).\n\n")
    for key, (raw, wide) in frames.items():
        csv = folder / f"{study.name}_{key}.csv"
        raw.to_csv(csv, index=False, float_format="%.6g")
        paths[f"{key}.csv"] = csv
        lines += [f"## {key}\n\n", cells.get(key, _BESIDE), "\n\n",
                  wide.to_markdown(index=False), "\n\n"]
    lines += [n if n.endswith("\n") else n + "\n" for n in notes]
    report = folder / f"{study.name}_report.md"
    report.write_text("".join(lines), encoding="utf-8")
    paths["report"] = report
    return paths


#: Figure 4's rows: the tests as Bouckaert (2003, §4) groups them, at most 8 a panel.
FIGURE4_GROUPS = (("resampled and k-fold cv tests",
                   ("resampling", "corrected_resampling", "kfold_cv")),
                  ("tests on all r × k folds",
                   ("use_all_data", "folds", "folds_averaged_var", "folds_averaged_t", "runs",
                    "runs_averaged_var", "runs_averaged_t", "sorted_runs",
                    "sorted_runs_averaged_var", "sorted_runs_averaged_t")))


def figure4(table, *, alpha: float = 0.05, reduced: int | None = None):
    """Bouckaert (2003) Figure 4: Type I error (calibration data, Set 1) and power (Sets
    2-4) against the number of runs, one column per collection, one row per group of
    tests (:data:`FIGURE4_GROUPS`), each test in the same colour and marker everywhere.

    Parameters
    ----------
    table : pandas.DataFrame
        The study's tidy ``rejection_rate`` table with the paper's ``set`` names.
    alpha : float, default 0.05
    reduced : int, optional
        Data sets per source of a reduced run (stamped on the figure).

    Returns
    -------
    matplotlib.figure.Figure
    """
    from ..plotting._style import REFERENCE, finish_figure, new_figure, series_style
    sub = table[np.isclose(table["alpha"], alpha)]
    sets = list(dict.fromkeys(sub["set"]))
    tests = set(sub["test"])
    rows = [(name, [t for t in group if t in tests]) for name, group in FIGURE4_GROUPS]
    rows = [r for r in rows if r[1]]
    # a test sits in one row only: number the styles per row (no faint yellow below 8)
    style = {t: series_style(i) for _, members in rows for i, t in enumerate(members)}
    fig, axes = new_figure(len(rows) * len(sets), n_cols=len(sets), panel_size=(3.4, 3.0))
    for i, (group, members) in enumerate(rows):
        for j, set_name in enumerate(sets):
            ax = axes[i * len(sets) + j]
            g = sub[(sub["set"] == set_name) & sub["test"].isin(members)]
            for k, (test, h) in enumerate(g.groupby("test", sort=False)):
                h = h.sort_values("n_runs")
                dx = (k - (len(members) - 1) / 2) * 0.5    # apart where two tests coincide
                ax.plot(h["n_runs"] + dx, 100 * h["rate"], ms=3.5, lw=1.1,
                        label=h["label"].iloc[0], **style[test])
            null = set_name in ("calibration data", "Set 1")
            if null:
                ax.axhline(100 * alpha, label=f"α = {100 * alpha:g}%", **REFERENCE)
            what = "Type I error" if null else "power"
            ax.set(xlabel="number of runs r", ylabel=f"{what} (%)")
            ax.set_title(f"{set_name}: {what}" + (f"\n{group}" if j == 0 else ""), fontsize=9)
        axes[i * len(sets) + len(sets) - 1].legend(loc="upper left", bbox_to_anchor=(1.02, 1),
                                                   fontsize=8, frameon=False, title=group,
                                                   title_fontsize=8)
    n = int(sub["n"].max()) if "n" in sub.columns else None
    se5 = 100 * np.sqrt(alpha * (1 - alpha) / n) if n else None
    finish_figure(fig, "Bouckaert (2003) Figure 4: Type I error and power against the number "
                  "of runs", subtitle=f"α = {alpha:g}, 10 folds, df calibrated on the Figure 2 "
                  f"null data; {n} data sets per collection" + (
                      f"; Monte Carlo SE {se5:.1f} points at {100 * alpha:g}%, at most "
                      f"{100 * np.sqrt(0.25 / n):.1f} (no error bars drawn)" if n else ""),
                  reduced=reduced)
    return fig


def _figure4_plot(study, table, folder) -> dict:
    """Figure 4, PNG then PDF of one figure; a run's workers draw it (save_later)."""
    from ..plotting._style import reduced_size, save_later
    paths = save_later([Path(folder) / f"{study.name}.{ext}" for ext in ("png", "pdf")],
                       figure4, table, reduced=reduced_size(study), dpi=120)
    return dict(zip(("png", "pdf"), paths))


def write_table(which: str, study, table: pd.DataFrame, folder, *, wall=None,
                calibration=None) -> dict:
    """Write the paper-shaped CSV, the Markdown report (paper beside ours) and Figure 4."""
    notes = []
    cells = {}
    table = _old_shape(table)
    if which == "table2":
        wide = _beside(table, _paper("table2_type1_vs_class_prior.csv"), "label", "class_prior")
        frames = {"type1_vs_class_prior": (table, wide)}
    elif which == "table4":
        t1 = table[table["set"] == "Set 1"]
        frames = {"type1_vs_alpha": (table, _beside(t1, _paper("table4_type1_vs_alpha.csv"),
                                                    "label", "alpha"))}
        power = _ours_se(table[table["set"] != "Set 1"], "label", ["set", "alpha"])
        power.columns = [f"{s}, α={a:g}" for s, a in power.columns]
        frames["power_vs_alpha"] = (table, power.reset_index())
        cells["power_vs_alpha"] = _OURS_ONLY.format(
            why="the paper's Table 4 gives the Type I error on Set 1 only; it refers the "
                "power on Sets 2-4 to a technical report")
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
        cells["type1_learner_pairs"] = ("Columns: ours in percent with the Monte Carlo "
                                        "standard error in brackets, the paper's value "
                                        "(Bouckaert 2003) and the difference ours − paper.")
    else:  # figure4
        wide = _ours_se(table[np.isclose(table["alpha"], 0.05)], ["set", "label"], "n_runs")
        wide.columns = [f"r={r}" for r in wide.columns]
        frames = {"type1_and_power_vs_runs": (table, wide.reset_index())}
        cells["type1_and_power_vs_runs"] = _OURS_ONLY.format(
            why="Figure 4 is a plot without numbers") + (
            " Type I error on the calibration data and Set 1, power on Sets 2-4; α = 0.05.")
    paths = _write(study, frames, notes, wall, folder, calibration, cells)
    if which == "figure4":
        paths.update(_figure4_plot(study, table, folder))
    return paths


