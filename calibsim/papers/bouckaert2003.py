"""Bouckaert (2003): Figure 2 (calibrated df), Tables 2-7 and Figure 4, beside the paper.

Only what is the paper's own lives here: its reference values
(``calibsim/data/reference/bouckaert2003/``), the rules that check its claims and
the layouts that copy its tables and figures. Every number comes from the
engine's analyses of a study file (``studies/bouckaert2003_*.toml``).

- **Figure 2** (:func:`write_figure2`, :func:`paper_comparison`): everything starts
  from the ``calibrate`` analysis table of the engine
  (:func:`calibsim.engine.analyses.calibration_rows`) and the saved scores, so the
  figure and report can be redrawn without rerunning the learners.
- **Tables 2, 4, 5, 6, 7 and Figure 4** (:func:`write_table`): the numbers come from
  the engine's ``rejection_rate`` and ``replicability`` analyses (df calibrated on the
  Figure 2 study's null data); the layouts only rename sources and learners as the
  paper does, set the paper's values beside ours with the difference, and draw
  Figure 4 as the paper lays it out.
- **Table 3** (:func:`write_table3`, :func:`paper_table3`): naive Bayes and C4.5
  accuracy on the four BAN data sources. Bouckaert (2003, §5.2) drew 1000 training
  sets of 300 instances from each of four Bayesian networks, trained naive Bayes and
  C4.5 on each and measured accuracy on one 10,000-instance test set from the same
  network: Set 1 (no arrows) 50.0 / 50.0, Set 2 87.84 / 90.61, Set 3 71.92 / 77.74,
  Set 4 81.96 / 93.23 (%). His networks are not published; ours were found by
  ``scripts/search_ban_networks.py``. The numbers come from the engine: a ``test_set``
  scheme (train on each data set, test on one independent set per source) and the
  ``accuracy`` analysis; the C4.5 - naive Bayes gap and its Monte Carlo SE come from
  the paired per-data-set differences of the saved scores. The layout only sets the
  paper's values (``calibsim/data/reference/bouckaert2003/table3_accuracies.csv``)
  beside ours.

{references:bouckaert2003}
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd

from .._docstrings import fill
from ..stats import get_test

__doc__ = fill(__doc__)

__all__ = ["LAYOUTS", "write_table", "accuracy_table", "paper_table3", "write_table3",
           "write_figure2", "paper_comparison", "PAPER_GROUPS"]


# ------------------------------------------------------------------------------
# Tables 2, 4, 5, 6, 7 and Figure 4: the paper's values beside ours
# ------------------------------------------------------------------------------

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


# ------------------------------------------------------------------------------
# Table 3: naive Bayes and C4.5 accuracy on the four BAN sources
# ------------------------------------------------------------------------------

#: Engine learner label -> the paper's row name.
LEARNERS = {"naive_bayes": "naive Bayes", "c45": "C4.5"}
#: Table 3's rows in order: the two learners and their difference (C4.5 - naive Bayes).
QUANTITIES = ("naive Bayes", "C4.5", "difference")


def paper_table3() -> pd.DataFrame:
    """Bouckaert (2003) Table 3 (%): rows ``naive Bayes``, ``C4.5``, ``difference``; columns set1..set4.

    Examples
    --------
    >>> float(paper_table3().loc["C4.5", "set4"])
    93.23
    """
    ref = resources.files("calibsim") / "data/reference/bouckaert2003/table3_accuracies.csv"
    with ref.open("r", encoding="utf-8") as fh:
        return pd.read_csv(fh, comment="#", index_col="algorithm")


def _paper_column(source, paper: pd.DataFrame):
    """The Table 3 column of a source: its label, else its network file's stem, else None."""
    if source.label in paper.columns:
        return source.label
    net = dict(source.params).get("network")
    stem = Path(net).stem if net else None
    return stem if stem in paper.columns else None


def _accuracy_analysis(study):
    analyses = [a for a in study.analyses if a.kind == "accuracy"]
    if not analyses:
        raise ValueError(f"study {study.name!r}: the Table 3 layout needs an `accuracy` "
                         "analysis; the study has none.")
    a = analyses[0]
    scheme = a.schemes[0][1]
    if study.scheme(scheme).kind != "test_set":
        raise ValueError(f"study {study.name!r}: the Table 3 layout needs its accuracy "
                         f"analysis on a `test_set` scheme; {scheme!r} is of kind "
                         f"{study.scheme(scheme).kind!r}.")
    return a, scheme


def accuracy_table(study, tables: dict, scores) -> pd.DataFrame:
    """Mean accuracy (%) with Monte Carlo SE beside Bouckaert's Table 3.

    Parameters
    ----------
    study : calibsim.engine.Study
        With learners ``naive_bayes`` and ``c45`` and an ``accuracy`` analysis on a
        ``test_set`` scheme.
    tables : dict of str to pandas.DataFrame
        The engine's analysis tables (:func:`calibsim.engine.run_analyses`).
    scores : calibsim.engine.Scores

    Returns
    -------
    pandas.DataFrame
        One row per source and quantity (``naive Bayes``, ``C4.5``, ``difference``
        = C4.5 - naive Bayes): ``set``, ``quantity``, ``accuracy_pct`` (mean over
        training sets), ``mc_se_pct`` (SD over training sets / sqrt(N); for the
        difference, of the paired differences), ``sd_pct``, ``paper_pct`` (NaN if
        the source is not a Table 3 column), ``minus_paper_pct``, ``n_datasets``,
        ``n_test``.
    """
    analysis, scheme = _accuracy_analysis(study)
    acc = tables[analysis.name]
    acc = acc[acc["scheme"] == scheme]
    n_test = study.scheme(scheme).p["n_test"]
    paper = paper_table3()
    rows = []
    for label in analysis.sources:
        src = study.source(label)
        col = _paper_column(src, paper)
        g = acc[acc["source"] == label].set_index("learner")
        n = int(g["n"].iloc[0])
        values = {}
        for learner, quantity in LEARNERS.items():
            r = g.loc[learner]
            values[quantity] = (100 * float(r["accuracy"]), 100 * float(r["accuracy_se"]),
                                100 * float(r["accuracy_sd"]))
        d = 100 * (scores.accuracy(label, scheme, "c45")[:, 0]
                   - scores.accuracy(label, scheme, "naive_bayes")[:, 0])
        sd = float(np.std(d, ddof=1)) if n > 1 else float("nan")
        values["difference"] = (float(d.mean()), sd / np.sqrt(n), sd)
        for quantity in QUANTITIES:
            mean, se, sd = values[quantity]
            ref = float(paper.loc[quantity, col]) if col is not None else float("nan")
            rows.append({"set": label, "quantity": quantity, "accuracy_pct": mean,
                         "mc_se_pct": se, "sd_pct": sd, "paper_pct": ref,
                         "minus_paper_pct": mean - ref, "n_datasets": n, "n_test": n_test})
    return pd.DataFrame(rows)


def _wide(table: pd.DataFrame) -> str:
    wide = {}
    for (label, quantity), g in table.groupby(["set", "quantity"], sort=False):
        r = g.iloc[0]
        ref = "" if np.isnan(r["paper_pct"]) else f" ({r['paper_pct']:.2f})"
        wide.setdefault(quantity, {})[label] = (f"{r['accuracy_pct']:.2f} ± "
                                                f"{r['mc_se_pct']:.2f}{ref}")
    return pd.DataFrame(wide).T.rename_axis("ours ± MC SE (paper)").to_markdown()


def write_table3(*, study, tables, scores, folder, wall=None) -> dict:
    """Write Table 3 beside the paper: CSV, Markdown and a short report.

    Writes ``<study>_accuracies.csv`` (:func:`accuracy_table`), ``<study>_accuracies.md``
    (ours ± MC SE with the paper's value in parentheses) and ``<study>_report.md``
    (the table, what was run, and the gap against the paper) into ``folder``.

    Returns
    -------
    dict of str to pathlib.Path
        ``table3.csv``, ``table3.md`` and ``report``.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    table = accuracy_table(study, tables, scores)
    _, scheme = _accuracy_analysis(study)
    n_test = study.scheme(scheme).p["n_test"]
    paths = {"table3.csv": folder / f"{study.name}_accuracies.csv",
             "table3.md": folder / f"{study.name}_accuracies.md",
             "report": folder / f"{study.name}_report.md"}
    table.to_csv(paths["table3.csv"], index=False, float_format="%.6g")
    md = _wide(table)
    paths["table3.md"].write_text(md + "\n", encoding="utf-8")

    n = int(table["n_datasets"].max())
    sizes = sorted({int(dict(s.params).get("n_instances", 300)) for s in study.sources})
    seeds = sorted({s.seed for s in study.sources})
    base = study.path.parent.parent
    nets = ", ".join(f"{s.label} = `{os.path.relpath(dict(s.params)['network'], base)}`"
                     for s in study.sources if "network" in dict(s.params))
    lines = [
        f"# {study.title or study.name}\n\n",
        f"Naive Bayes and C4.5 (Weka's NaiveBayes and J48, defaults) trained on each of {n} "
        f"training sets of {' / '.join(map(str, sizes))} instances per network and tested on "
        f"one {n_test:,}-instance test set drawn from the same network (seed "
        f"{', '.join(map(str, seeds))}). Accuracies in %, mean over training sets ± Monte "
        f"Carlo SE (SD over training sets / √{n}); Bouckaert (2003) Table 3 in parentheses. "
        f"The SE is of the mean over training sets for this one test set; the test set's own "
        f"sampling error (about √(p(1-p)/{n_test:,}), 0.2-0.5 points) is not in it.\n\n",
        f"Networks: {nets}. Sets 2-4 were found by `scripts/search_ban_networks.py` so that "
        "the C4.5 - naive Bayes gap matches Bouckaert's within ±0.5 points (closeness of the "
        "absolute accuracies to his was only a secondary criterion); Set 1 has no arcs "
        "(attributes independent of the class). Settings and search log: "
        "`studies/networks/`.\n\n",
        f"Computed by the study engine (`{os.path.relpath(study.path, base)}`: scheme "
        f"`{scheme}` of kind `test_set`, analysis `accuracy`); training set i draws from "
        "`SeedSequence(seed, spawn_key=(source_key, i))`, the test set from "
        "`SeedSequence(seed, spawn_key=(source_key,))`.\n\n",
    ]
    if study.reduced:
        lines.append(f"**Reduced run**: {n} training sets per network instead of "
                     f"{max(study.declared_n_datasets)}.\n\n")
    if wall is not None:
        lines.append(f"Wall time of the run that wrote this report: {wall:.1f} s (scores "
                     "saved by an earlier run are loaded, not recomputed).\n\n")
    lines += [md, "\n\n## Gap against the paper\n\n",
              "| set | ours | paper | ours - paper |\n|---|---|---|---|\n"]
    for _, r in table[table["quantity"] == "difference"].iterrows():
        ref = "" if np.isnan(r["paper_pct"]) else f"{r['paper_pct']:.2f}"
        delta = "" if np.isnan(r["paper_pct"]) else f"{r['minus_paper_pct']:+.2f}"
        lines.append(f"| {r['set']} | {r['accuracy_pct']:.2f} ± {r['mc_se_pct']:.2f} | "
                     f"{ref} | {delta} |\n")
    paths["report"].write_text("".join(lines), encoding="utf-8")
    return paths


# ------------------------------------------------------------------------------
# Figure 2: the calibrated df, the figure, its report and the rules for its claims
# ------------------------------------------------------------------------------

#: Groups of tests as the text of Bouckaert (2003, §4) speaks of them.
PAPER_GROUPS = {
    "about 11": ("use_all_data", "folds_averaged_var", "folds_averaged_t",
                 "runs_averaged_var", "runs_averaged_t", "sorted_runs"),
    "very low": ("folds", "runs", "sorted_runs_averaged_var", "sorted_runs_averaged_t"),
}


def _pivot(table, value, alpha, fmt):
    sub = table[np.isclose(table["alpha"], alpha)]
    wide = sub.pivot(index="label", columns="n_runs", values=value)
    wide = wide.loc[list(dict.fromkeys(sub["label"]))]
    return wide.map(fmt)


def _markdown(frame: pd.DataFrame) -> str:
    return frame.to_markdown()


def paper_comparison(table: pd.DataFrame, *, alpha: float = 0.05) -> list[dict]:
    """Set our calibrated df beside each statement Bouckaert (2003, §4) makes of Figure 2.

    Each statement gets the numbers it is about and a verdict computed by a
    stated rule, so nothing here is judged by eye.

    Returns
    -------
    list of dict
        Keys ``claim``, ``ours`` (text with numbers), ``rule`` and ``verdict``
        ("agrees", "differs" or "partly").
    """
    sub = table[np.isclose(table["alpha"], alpha)]
    df = {t: g.set_index("n_runs")["calibrated_df"] for t, g in sub.groupby("test")}
    se = {t: g.set_index("n_runs")["df_boot_se"] for t, g in sub.groupby("test")}
    out = []

    def have(*tests):
        return all(t in df for t in tests)

    group = [t for t in PAPER_GROUPS["about 11"] if t in df and (df[t].index >= 15).any()]
    if group:
        late = {t: df[t][df[t].index >= 15] for t in group}
        lo = min(int(v.min()) for v in late.values())
        hi = max(int(v.max()) for v in late.values())
        spread = max(int(v.max() - v.min()) for v in late.values())
        means = ", ".join(f"{get_test(t).label} {late[t].mean():.1f}" for t in group)
        ok_level = 8 <= lo and hi <= 14
        out.append({
            "claim": "use all data, folds averaged var/T, runs averaged var/T and sorted runs: "
                     "calibrated df about 11, constant (within 1) from 15 runs on",
            "ours": f"r >= 15: df from {lo} to {hi}; mean per test: {means}; largest range "
                    f"within one test {spread}",
            "rule": "agrees if every df at r >= 15 lies in 8..14 and each test's range is <= 2",
            "verdict": "agrees" if ok_level and spread <= 2 else
                       ("partly" if ok_level or spread <= 2 else "differs")})
    if have("resampling"):
        d = df["resampling"]
        ratio = d / (d.index.to_numpy() - 1)
        rising = np.all(np.diff(d.to_numpy()) >= -2 * np.fmax(se["resampling"].to_numpy()[1:], 1))
        out.append({
            "claim": "resampling: calibrated df rises with the number of runs, up to 90% below r - 1",
            "ours": "df = " + ", ".join(f"{int(v)} (r={r})" for r, v in d.items())
                    + f"; df/(r-1) from {ratio.min():.2f} to {ratio.max():.2f}",
            "rule": "agrees if df(100) > df(5) with no drop larger than 2 bootstrap SE, and "
                    "min df/(r-1) <= 0.2",
            "verdict": "agrees" if (d.iloc[-1] > d.iloc[0] and rising and ratio.min() <= 0.2)
                       else "differs"})
    if have("corrected_resampling") and 20 in df["corrected_resampling"].index:
        d = df["corrected_resampling"]
        ratio = d / (d.index.to_numpy() - 1)
        late = ratio[ratio.index >= 20]
        top = sub["df_max"].iloc[0] if "df_max" in sub else np.inf
        edge = [int(r) for r, v in d.items() if v >= top]
        rises = d.iloc[-1] > d.loc[20]
        near = 0.8 <= late.mean() <= 1.0
        out.append({
            "claim": "corrected resampling: df rises with runs, about 10% below r - 1",
            "ours": "df = " + ", ".join(f"{int(v)} (r={r})" for r, v in d.items())
                    + f"; df/(r-1) at r >= 20 from {late.min():.2f} to {late.max():.2f} "
                      f"(mean {late.mean():.2f}); bootstrap SE of the df from "
                      f"{se['corrected_resampling'].min():.1f} to "
                      f"{se['corrected_resampling'].max():.1f}"
                    + (f"; at r = {edge} the df is the top of the grid (Type I error <= α "
                       f"for every df tried)" if edge else ""),
            "rule": "agrees if df rises (df(100) > df(20)), mean df/(r-1) at r >= 20 lies in "
                    "0.8..1.0 and no df sits at the top of the grid; partly if only the first two",
            "verdict": ("agrees" if rises and near and not edge else
                        "partly" if rises and near else "differs")})
    if have("kfold_cv"):
        d = df["kfold_cv"]
        g = sub[sub["test"] == "kfold_cv"].iloc[0]
        out.append({
            "claim": "k-fold cv: df constant over runs, about 33% below 9 (about 6)",
            "ours": f"df = {int(d.iloc[0])} at every r (it uses the first run only), "
                    f"bootstrap SE {se['kfold_cv'].iloc[0]:.1f}, 95% bootstrap interval "
                    f"{g['df_boot_low']:.0f}..{g['df_boot_high']:.0f}; Type I error "
                    f"{100 * g['type1_error']:.1f}% at it",
            "rule": "agrees if df lies in 5..7",
            "verdict": "agrees" if 5 <= d.iloc[0] <= 7 else "differs"})
    if have("folds"):
        d = df["folds"]
        zeros = int((d == 0).sum())
        out.append({
            "claim": "folds (mean folds): very low, at most 7",
            "ours": f"df from {int(d.min())} to {int(d.max())}; 0 (no df in the grid keeps "
                    f"the Type I error <= α) at {zeros} of {d.size} numbers of runs",
            "rule": "agrees if every df lies in 1..7; partly if every df <= 7 but some are 0 "
                    "(the paper reports zeros only for mean runs)",
            "verdict": ("agrees" if d.max() <= 7 and zeros == 0 else
                        "partly" if d.max() <= 7 else "differs")})
    if have("runs"):
        d = df["runs"]
        out.append({
            "claim": "runs (mean runs): very low, some zeros (no df keeps Type I error <= α)",
            "ours": f"df from {int(d.min())} to {int(d.max())}; zeros at r = "
                    f"{[int(r) for r, v in d.items() if v == 0] or 'none'}",
            "rule": "agrees if every df <= 7",
            "verdict": "agrees" if d.max() <= 7 else "differs"})
    low = [t for t in ("sorted_runs_averaged_var", "sorted_runs_averaged_t") if t in df]
    if low:
        hi = max(int(df[t].max()) for t in low)
        out.append({
            "claim": "sorted runs averaged var and averaged T: very low",
            "ours": "; ".join(f"{get_test(t).label}: {int(df[t].min())}..{int(df[t].max())}"
                              for t in low),
            "rule": "agrees if every df <= 7",
            "verdict": "agrees" if hi <= 7 else "differs"})
    alphas = sorted(table["alpha"].unique())
    if len(alphas) > 1:
        cal = [t for t in PAPER_GROUPS["about 11"] if t in df]
        wide = table[table["test"].isin(cal)].pivot_table(
            index=["test", "n_runs"], columns="alpha", values="calibrated_df")
        spread = wide.max(axis=1) - wide.min(axis=1)
        mean_by_alpha = wide.mean(axis=0)
        out.append({
            "claim": "the df is the same at 1%, 5% and 10% (mostly within 1)",
            "ours": f"tests of the 'about 11' group: spread of the df over α is <= 1 for "
                    f"{100 * np.mean(spread <= 1):.0f}% of (test, runs) cells (median spread "
                    f"{spread.median():.0f}); mean df by α: "
                    + ", ".join(f"{a:g}: {v:.1f}" for a, v in mean_by_alpha.items()),
            "rule": "agrees if the spread is <= 1 in at least half of the cells",
            "verdict": "agrees" if np.mean(spread <= 1) >= 0.5 else "differs"})
    return out


def _alpha_constancy(table: pd.DataFrame) -> pd.DataFrame:
    wide = table.pivot_table(index=["label", "n_runs"], columns="alpha",
                             values="calibrated_df", sort=False)
    spread = (wide.max(axis=1) - wide.min(axis=1)).groupby(level=0, sort=False)
    return pd.DataFrame({"max spread of df over α": spread.max(),
                         "median spread": spread.median()})


#: Figure panels: tests grouped as the paper's text speaks of them, at most 7 to a panel.
PANELS = (("resampling tests: df grows with r", ("resampling", "corrected_resampling")),
          ("df settles (paper: about 11): k-fold cv and averages over folds",
           ("kfold_cv",) + PAPER_GROUPS["about 11"][:3]),
          ("df settles (paper: about 11): averages over runs, sorted runs",
           PAPER_GROUPS["about 11"][3:]),
          ("tests whose df stays very low", PAPER_GROUPS["very low"]))


def figure2(table, *, alpha: float = 0.05, reduced: int | None = None):
    """Bouckaert (2003) Figure 2 as four groups of tests: calibrated df (top) and Type I error.

    Each column is one group of tests with its own linear df axis (the resampling
    tests' df grows to 100, the others stay below 15), so no panel holds more than
    four tests (their Type I error bars stay apart) and no axis changes scale; each
    column's legend sits below it, clear of the data.

    Returns
    -------
    matplotlib.figure.Figure
    """
    from ..plotting import plot_calibrated_df, plot_type1_at_calibrated_df
    from ..plotting._style import finish_figure, new_figure
    panels = [(t, [x for x in tests if x in set(table["test"])]) for t, tests in PANELS]
    panels = [(t, tests) for t, tests in panels if tests]
    fig, axes = new_figure(2 * len(panels), n_cols=len(panels), panel_size=(4.3, 3.6))
    top, bottom = axes[:len(panels)], axes[len(panels):]
    for j, (title, tests) in enumerate(panels):
        plot_calibrated_df(table, alpha=alpha, tests=tests, ax=top[j], textbook_line=j == 0)
        top[j].set_title(title, fontsize=9)
        plot_type1_at_calibrated_df(table, alpha=alpha, tests=tests, ax=bottom[j])
        bottom[j].set_title("Type I error at the calibrated df", fontsize=9)
        bottom[j].sharex(top[j])
        handles, labels = top[j].get_legend_handles_labels()
        bottom[j].legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, -0.2),
                         ncols=2, fontsize=7, frameon=False)
    k = int(table["n_folds"].max())
    n = int(table["n_datasets"].max()) if "n_datasets" in table.columns else None
    finish_figure(fig, f"Bouckaert (2003) Figure 2: calibrated df and its Type I error, "
                  f"α = {alpha:g}, {k} folds",
                  subtitle=f"{n} null data sets" if n else None,
                  error_bars="95% Clopper–Pearson intervals of the Type I error",
                  reduced=reduced)
    return fig


def write_figure2(study, scores, table: pd.DataFrame, folder, *,
                  wall_seconds: float | None = None, n_computed: int | None = None,
                  discussion: str | None = None) -> dict:
    """Write the Markdown tables, Figure 2 (PNG, PDF) and the report beside the paper.

    Parameters
    ----------
    study : calibsim.engine.Study
        A study with one null source, one pair, an r x k cv and a subsampling scheme.
    scores : calibsim.engine.Scores
    table : pandas.DataFrame
        Its ``calibrate`` analysis table.
    folder : pathlib.Path
    wall_seconds : float, optional
        Wall time of the run, printed in the report.
    n_computed : int, optional
        How many data sets this run computed (the others were loaded).
    discussion : str, optional
        Hand-written Markdown appended to the report (the "why" of any difference).

    Returns
    -------
    dict of str to pathlib.Path
        The files written.
    """
    from ..plotting._style import reduced_size, save_later
    figures = tables = Path(folder)
    figures.mkdir(parents=True, exist_ok=True)
    stem = study.name
    cal = next(a for a in study.analyses if a.kind == "calibrate")
    src = study.source(cal.sources[0])
    source = dict(src.params)
    cv = next(s for s in study.schemes if s.kind == "repeated_kfold").p
    sub = next(s for s in study.schemes if s.kind == "subsampling").p
    pair = cal.pairs[0]
    paths = {"csv": tables / f"{stem}_{cal.name}.csv", "md": tables / f"{stem}_{cal.name}.md",
             "report": tables / f"{stem}_report.md"}
    for alpha in cal.alphas:
        tag = "" if np.isclose(alpha, 0.05) else f"_alpha{alpha:g}"
        # no date in the files, so an unchanged figure gives unchanged files; a run's
        # workers draw the three figures in parallel (save_later)
        paths[f"figure{tag}.png"], paths[f"figure{tag}.pdf"] = save_later(
            [figures / f"{stem}{tag}.png", figures / f"{stem}{tag}.pdf"], figure2, table,
            alpha=alpha, reduced=reduced_size(study), dpi=130)

    md = []
    for alpha in cal.alphas:
        md.append(f"## α = {alpha:g}\n\n### Calibrated df (bootstrap SE in brackets)\n")
        both = table[np.isclose(table["alpha"], alpha)].copy()
        both["cell"] = [f"{d} ({s:.1f})" if np.isfinite(s) else f"{d}"
                        for d, s in zip(both["calibrated_df"], both["df_boot_se"])]
        md.append(_markdown(_pivot(both, "cell", alpha, str)))
        md.append("\n\n### Type I error at the calibrated df, % (Monte Carlo SE in brackets)\n")
        both["cell"] = [f"{100 * t:.1f} ({100 * s:.1f})" if np.isfinite(t) else "–"
                        for t, s in zip(both["type1_error"], both["mc_se"])]
        md.append(_markdown(_pivot(both, "cell", alpha, str)))
        md.append("\n\n### Type I error at the textbook df, %\n")
        md.append(_markdown(_pivot(both, "type1_default", alpha, lambda v: f"{100 * v:.1f}")))
        md.append("\n\n")
    paths["md"].write_text("".join(md), encoding="utf-8")

    claims = paper_comparison(table)
    c45 = [lrn.label for lrn in study.learners if lrn.kind == "c45"]
    cv_name = next(s.name for s in study.schemes if s.kind == "repeated_kfold")
    sizes = (scores.model_size(src.label, cv_name, c45[0]).ravel() if c45
             else np.empty(0, np.int64))
    ref = resources.files("calibsim") / "data/reference/bouckaert2003/figure2_claims.md"
    lines = [
        f"# {study.title or study.name}: calibsim beside the paper\n",
        f"Generated by `calibsim run` from `studies/{study.path.name}`. N = {src.n_datasets} "
        f"null data sets of {source.get('n_instances', 300)} instances x "
        f"{source.get('n_attributes', 10)} binary attributes, class prior "
        f"{source.get('class_prior', 0.5)}; learners {pair[0]} (a) and "
        f"{pair[1]} (b); {cv['n_folds']} folds; runs {list(cal.runs)}; "
        f"subsampling {int(100 * (1 - sub['test_fraction']))}%/"
        f"{int(100 * sub['test_fraction'])}% with n = r runs; df searched "
        f"{cal.df_min}..{cal.df_max}; seed {src.seed}.\n",
    ]
    if sizes.size:
        lines.append(f"C4.5 tree size over all {sizes.size} folds: median "
                     f"{np.median(sizes):.0f} nodes (quartiles {np.percentile(sizes, 25):.0f}"
                     f"–{np.percentile(sizes, 75):.0f}).\n")
    if wall_seconds is not None:
        done = ("" if n_computed is None else
                f", computing all {n_computed} data sets" if n_computed == src.n_datasets else
                f", computing {n_computed} of {src.n_datasets} data sets (the rest were "
                f"loaded from saved blocks)")
        lines.append(f"Wall time of the run that wrote this report (scores, calibration and "
                     f"outputs): {wall_seconds:.1f} s on {os.cpu_count()} cores{done}.\n")
    lines.append("\n## The paper's statements about Figure 2 and what we measure (α = 0.05)\n\n")
    lines.append("| statement (Bouckaert 2003, §4) | calibsim | rule | verdict |\n|---|---|---|---|\n")
    for c in claims:
        lines.append(f"| {c['claim']} | {c['ours']} | {c['rule']} | **{c['verdict']}** |\n")
    lines.append("\nThe paper also states that the df of the other tests is the same at 1%, 5% "
                 "and 10% (mostly within 1). Largest difference between the df at the three "
                 "levels, per test (over runs):\n\n")
    lines.append(_markdown(_alpha_constancy(table)) + "\n\n")
    lines.append("## Calibrated df and Type I error at α = 0.05\n\n")
    both = table[np.isclose(table["alpha"], 0.05)].copy()
    if not both.empty:
        both["cell"] = [f"{d} ({s:.1f})" if np.isfinite(s) else f"{d}"
                        for d, s in zip(both["calibrated_df"], both["df_boot_se"])]
        lines.append("Calibrated df (bootstrap SE over data sets in brackets):\n\n")
        lines.append(_markdown(_pivot(both, "cell", 0.05, str)) + "\n\n")
        both["cell"] = [f"{100 * t:.1f} ({100 * s:.1f})" if np.isfinite(t) else "–"
                        for t, s in zip(both["type1_error"], both["mc_se"])]
        lines.append("Type I error (%) at the calibrated df (Monte Carlo SE in brackets):\n\n")
        lines.append(_markdown(_pivot(both, "cell", 0.05, str)) + "\n\n")
        lines.append("Type I error (%) at the textbook df (why calibration is needed):\n\n")
        lines.append(_markdown(_pivot(both, "type1_default", 0.05,
                                      lambda v: f"{100 * v:.1f}")) + "\n\n")
    lines.append(f"All levels: `{paths['md'].name}`, `{paths['csv'].name}`; "
                 f"figure: `{study.name}.png` / `.pdf`.\n\n")
    if discussion:
        lines.append(discussion.rstrip() + "\n\n")
    lines.append("## The paper's text on Figure 2 (for reference)\n\n")
    lines.append(ref.read_text(encoding="utf-8"))
    paths["report"].write_text("".join(lines), encoding="utf-8")
    return paths


# ------------------------------------------------------------------------------
# The layouts
# ------------------------------------------------------------------------------

def _figure2(*, study, tables, scores, folder, wall=None, calibrations=None):
    cal = next((a for a in study.analyses if a.kind == "calibrate"), None)
    if cal is None:
        raise ValueError(f"study {study.name!r}: the Figure 2 layout needs a `calibrate` "
                         "analysis; the study has none.")
    path = study.path.parent / f"{study.name}_discussion.md"
    discussion = path.read_text(encoding="utf-8") if path.is_file() else None
    if discussion and study.reduced:     # written about the full-size run's numbers
        discussion = (f"*The discussion written for the full-size run ({path.name}) is left "
                      "out of this reduced run: its numbers would not be this run's.*\n")
    return write_figure2(study, scores, tables[cal.name], folder, wall_seconds=wall,
                         discussion=discussion)


def _table(which):
    def write(*, study, tables, scores, folder, wall=None, calibrations=None):
        names = [a.name for a in study.analyses if a.kind in ("rejection_rate", "replicability")]
        table = pd.concat([tables[n] for n in names], ignore_index=True)
        cal = next(iter(calibrations or {}), None)
        shown = None if cal is None else os.path.relpath(cal, study.path.parent.parent)
        return write_table(which, study, table, folder, wall=wall, calibration=shown)
    write.__name__ = which
    write.__doc__ = f"Bouckaert (2003) {which}: the paper's layout, its values beside ours."
    return write


def _table3(*, study, tables, scores, folder, wall=None, calibrations=None):
    return write_table3(study=study, tables=tables, scores=scores, folder=folder, wall=wall)


LAYOUTS = {"figure2": _figure2, "table3": _table3, **{t: _table(t) for t in
                                   ("table2", "figure4", "table4", "table56", "table7")}}
