"""Bouckaert & Frank (2004): replicability on real UCI data sets, beside the paper.

Table 1: the 5x2cv t run 10 times with new partitions on each data set; the number
of times it does *not* reject ("draws") per learner pair, and the summary rows:
consistent (all 10 agree), almost consistent (at most one disagrees) and the
replicability R, over the data sets. The numbers come from the engine's
``replicability`` analysis of ``studies/bouckaert_frank2004_table1.toml``; this
module only names the data sets as the paper does, sets the paper's values
(``calibsim/data/reference/bouckaert-frank2004/``) beside ours and writes the report.

References
----------
.. [1] Bouckaert, R. R. & Frank, E. (2004). Evaluating the replicability of
       significance tests for comparing learning algorithms. PAKDD 2004, LNCS 3056, 3-12.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd

from ..measures import replicability, replicability_R

__all__ = ["LAYOUTS", "PAPER_NAMES"]

#: The paper's data-set names -> calibsim's shipped names (Weka's).
PAPER_NAMES = {"credit-rating": "credit-a", "german-credit": "credit-g",
               "horse-colic": "colic", "lymphography": "lymph", "pima-diabetes": "diabetes",
               "wisconsin-breast-cancer": "breast-w"}
_PAIRS = {("naive_bayes", "c45"): "nb_vs_c45", ("naive_bayes", "ib1"): "nb_vs_nn",
          ("c45", "ib1"): "c45_vs_nn"}


def _paper(name):
    path = resources.files("calibsim") / f"data/reference/bouckaert-frank2004/{name}"
    with path.open("r", encoding="utf-8") as fh:
        return pd.read_csv(fh, comment="#")


def _paper_summary():
    path = resources.files("calibsim") / "data/reference/bouckaert-frank2004/table1_5x2cv_draws.csv"
    line = [x for x in path.read_text(encoding="utf-8").splitlines() if "summary rows" in x][0]
    out = {}
    for part in line.split(":", 1)[1].split(";"):
        key, values = part.split("=")
        out[key.strip()] = [float(v) for v in values.split(",")]
    return out


def _summary(rejections: np.ndarray, repeats: int):
    """consistent, almost consistent (counts of data sets) and R from rejection counts."""
    rep = _replicability(rejections, repeats)
    n = rep.n_datasets
    return (int(round(rep.consistent * n)), int(round(rep.almost_consistent * n)),
            float(rep.R))


def _replicability(rejections, repeats: int):
    """:class:`calibsim.measures.Replicability` from per-data-set rejection counts."""
    k = np.asarray(rejections, dtype=int)
    return replicability(np.arange(repeats)[None, :] < k[:, None])   # k trues per data set


def _R_se(rejections, repeats: int) -> float:
    """Monte Carlo SE of R over fixed data sets (their partitions redrawn), issue 34."""
    return round(_replicability(rejections, repeats).R_partition_se, 3)


def _share(count, n):
    """A count of data sets as a share (%) with its binomial SE (pp) over the n data sets:
    an upper bound for a rerun on the same data sets, which are fixed."""
    p = count / n
    return round(100 * p, 1), round(100 * float(np.sqrt(p * (1 - p) / n)), 1)


def _table1(*, study, tables, scores, folder, wall=None, calibrations=None):
    table = pd.concat([tables[a.name] for a in study.analyses if a.kind == "replicability"],
                      ignore_index=True)
    table = table[np.isclose(table["alpha"], 0.05)]
    paper = _paper("table1_5x2cv_draws.csv")
    paper["name"] = paper["dataset"].map(lambda d: PAPER_NAMES.get(d, d))
    repeats = int(table["repeats"].iloc[0])
    rows = []
    for _, p in paper.iterrows():
        row = {"dataset": p["dataset"], "shipped as": p["name"]}
        for (a, b), col in _PAIRS.items():
            hit = table[(table["name"] == p["name"]) & (table["pair_a"] == a)
                        & (table["pair_b"] == b)]
            ours = np.nan if hit.empty else repeats - hit["rejections"].iloc[0]
            row[f"{col} ours"] = ours
            row[f"{col} paper"] = p[col]
        rows.append(row)
    wide = pd.DataFrame(rows)
    summary = []
    paper_sum = _paper_summary()
    have = wide.dropna()
    for i, col in enumerate(_PAIRS.values()):
        ours = _summary(repeats - have[f"{col} ours"].to_numpy(), repeats)
        theirs = _summary(repeats - have[f"{col} paper"].to_numpy(), repeats)
        summary.append({"pair": col, "data sets": len(have),
                        "consistent ours": ours[0], "consistent paper (same sets)": theirs[0],
                        "consistent paper (27 sets)": paper_sum["consistent"][i],
                        "almost consistent ours": ours[1],
                        "almost consistent paper (same sets)": theirs[1],
                        "R ours": round(ours[2], 3),
                        "R ours SE": _R_se(repeats - have[f"{col} ours"].to_numpy(), repeats),
                        "R paper (same sets)": round(theirs[2], 3),
                        "R paper (same sets) SE": _R_se(
                            repeats - have[f"{col} paper"].to_numpy(), repeats),
                        "R paper (27 sets)": paper_sum["replicability R"][i]})
    summary = pd.DataFrame(summary)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = {"table1.csv": folder / f"{study.name}_draws.csv",
             "summary.csv": folder / f"{study.name}_summary.csv",
             "report": folder / f"{study.name}_report.md"}
    wide.to_csv(paths["table1.csv"], index=False, float_format="%.6g")
    summary.to_csv(paths["summary.csv"], index=False, float_format="%.6g")
    missing = wide[wide.isna().any(axis=1)]["dataset"].tolist()
    lines = [f"# {study.title}\n\n",
             "Bouckaert & Frank (2004), Table 1: the 5x2cv t (α = 0.05, textbook df 5) run "
             f"{repeats} times with different random partitions on each data set; the number "
             "of draws (no rejection) per pair, ours beside the paper's. Learners: Weka 3.6 "
             "equivalents of NaiveBayes, J48 and IB1 (the paper used Weka 3.3). Seeds: "
             f"study seed {study.seed}.\n\n"]
    if wall is not None:
        lines.append(f"Wall time of the run that wrote this report: {wall:.1f} s.\n\n")
    lines += ["## Draws per data set\n\n", wide.to_markdown(index=False, floatfmt=".0f"),
              "\n\n## Summary over the data sets we have\n\n",
              summary.to_markdown(index=False), "\n\n"]
    if missing:
        lines.append(f"Not shipped (see `calibsim/data/uci/README.md`): {', '.join(missing)}. "
                     "The 'same sets' columns recompute the paper's summary on the data sets "
                     "both have; the '27 sets' columns are the paper's own.\n\n")
    lines.append(_R_SE_NOTE)
    lines.append("Draws are counts out of the repetitions; partitions differ from the "
                 "paper's, so individual cells are expected to differ by a few draws (the "
                 "point of the paper is that they do); the summary rows are what to compare.\n")
    paths["report"].write_text("".join(lines), encoding="utf-8")
    return paths


_R_SE_NOTE = ("R's SE is its Monte Carlo error with the data sets held fixed: what a rerun "
              "with new partitions of the same data sets would vary by "
              "(`calibsim.measures.replicability_R_se`, issue 34).\n\n")
_PAPER_SETS = 27


def _summary_frame(table, by: str, paper: pd.DataFrame) -> pd.DataFrame:
    """consistent / almost consistent / R over the data sets, per pair and ``by`` value.

    Counts are over our data sets and the paper's 27, so each is also given as a share
    (%), ours with its binomial SE over the data sets; R with its Monte Carlo SE (data sets
    fixed) and the standard deviation of the per-data-set R (for comparisons over
    different data sets)."""
    rows = []
    for (a, b), col in _PAIRS.items():
        sub = table[(table["pair_a"] == a) & (table["pair_b"] == b)]
        for value, g in sub.groupby(by, sort=True):
            repeats = int(g["repeats"].iloc[0])
            c, ac, R = _summary(g["rejections"].to_numpy(), repeats)
            ref = paper[paper["pair"] == col].drop(columns="pair").set_index("measure")
            ref_col = next((k for k in ref.columns if np.isclose(float(k), float(value))), None)
            get = (lambda m: ref.loc[m, ref_col] if ref_col is not None else np.nan)
            n = len(g)
            row = {"pair": col, by: value, "data sets": n}
            for name, ours in (("consistent", c), ("almost consistent", ac)):
                share, se = _share(ours, n)
                theirs = get(name)
                row.update({f"{name} ours": ours, f"{name} paper (27)": theirs,
                            f"{name} ours (%)": share, f"{name} ours SE (pp)": se,
                            f"{name} paper (%)": round(100 * theirs / _PAPER_SETS, 1)})
            row.update({"R ours": round(R, 3),
                        "R ours SE": _R_se(g["rejections"].to_numpy(), repeats),
                        "R ours SD over data sets": round(float(g["R"].std(ddof=1)), 3),
                        "R paper (27)": get("R")})
            rows.append(row)
    return pd.DataFrame(rows)


_TABLES234 = (("table2", "corrected_resampling", "n_runs", "table2_corrected_resampled.csv",
               "Table 2: corrected resampled t (90% / 10%), n runs, 10 repetitions, α = 0.05"),
              ("table3", "corrected_repeated_cv", "n_runs", "table3_corrected_rx10cv.csv",
               "Table 3: corrected repeated 10-fold cv, r runs, 10 repetitions, α = 0.05"),
              ("table4", "corrected_repeated_cv", "alpha", "table4_corrected_10x10_vs_alpha.csv",
               "Table 4: corrected 10 x 10 cv against α, 10 repetitions"))


def _tables234(*, study, tables, scores, folder, wall=None, calibrations=None):
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = {"report": folder / f"{study.name}_report.md"}
    lines = [f"# {study.title}\n\n",
             "Bouckaert & Frank (2004), Tables 2-4: how often 10 repetitions of a test with new "
             "random partitions agree on each data set (consistent: all 10; almost consistent: "
             f"all but one) and the replicability R, over the shipped data sets "
             f"({len(study.sources)} of the paper's 27), beside the paper's values over its "
             "27. Textbook df.\n\n"]
    if wall is not None:
        lines.append(f"Wall time of the run that wrote this report: {wall:.1f} s.\n\n")
    frames = {}
    for key, test, by, ref, title in _TABLES234:
        table = tables[key]
        if by == "n_runs":
            table = table[np.isclose(table["alpha"], 0.05)]
        frame = _summary_frame(table[table["test"] == test], by, _paper(ref))
        frames[key] = frame
        paths[f"{key}.csv"] = folder / f"{study.name}_{key}.csv"
        frame.to_csv(paths[f"{key}.csv"], index=False, float_format="%.6g")
        lines += [f"## {title}\n\n", frame.to_markdown(index=False), "\n\n"]
    claims = (("kfold10", "standard t, one run of 10-fold cv", (15, 16, 14)),
              ("uncorrected10x10", "standard t on the 100 differences of 10 x 10 cv (df 99)",
               (25, 24, 18)))
    rows = []
    for key, what, paper_counts in claims:
        if key not in tables:
            continue
        for (a, b), col, theirs in zip(_PAIRS, _PAIRS.values(), paper_counts):
            t = tables[key]
            g = t[(t["pair_a"] == a) & (t["pair_b"] == b)]
            repeats = int(g["repeats"].iloc[0])
            c, _, R = _summary(g["rejections"].to_numpy(), repeats)
            share, se = _share(c, len(g))
            rows.append({"test": what, "pair": col, "consistent ours": c,
                         "of (ours)": len(g), "consistent paper": theirs,
                         "of (paper)": _PAPER_SETS, "consistent ours (%)": share,
                         "consistent ours SE (pp)": se,
                         "consistent paper (%)": round(100 * theirs / _PAPER_SETS, 1),
                         "R ours": round(R, 3),
                         "R ours SE": _R_se(g["rejections"].to_numpy(), repeats)})
    if rows:
        section = pd.DataFrame(rows)
        paths["section43.csv"] = folder / f"{study.name}_section43.csv"
        section.to_csv(paths["section43.csv"], index=False, float_format="%.6g")
        lines += ["## §4.3: the standard t tests (consistent data sets, α = 0.05)\n\n",
                  section.to_markdown(index=False), "\n\nThe paper: the 10-fold cv t is "
                  "consistent on fewer data sets than corrected resampling with the same "
                  "effort; the uncorrected 10 x 10 cv t looks highly replicable but its Type I "
                  "error is far too high to use (see Bouckaert 2003, Figure 2).\n\n"]
    if "table2_stratified" in tables:
        lines += _stratified_section(tables, folder, study, paths)
    lines += _order_section(tables, frames, folder, study, paths)
    from ..plotting._style import reduced_size
    fig_path = _runs_figure(frames, folder / f"{study.name}_replicability_vs_runs.png",
                            reduced=reduced_size(study))
    if fig_path is not None:
        paths["replicability_vs_runs.png"] = fig_path
        lines.append(f"![Replicability against runs]({fig_path.name})\n\n"
                     "The figure: R over the data sets against the number of runs, ours "
                     "(filled, solid, with bars of ± 2 Monte Carlo SE) and the paper's (open, "
                     "dotted), per pair of learners; replicability grows with the runs for "
                     "both corrected tests (the claims above, checked step by step).\n\n")
    lines.append(f"Counts are of data sets: ours over {len(study.sources)}, the paper's over "
                 f"{_PAPER_SETS}, so compare the shares (%) and R, not the counts. A share's SE "
                 "is binomial over our data sets (an upper bound for a rerun on the same, "
                 "fixed, data sets). " + _R_SE_NOTE)
    paths["report"].write_text("".join(lines), encoding="utf-8")
    return paths


def runs_figure(frames, *, reduced=None):
    """Bouckaert & Frank's message in one figure: R against runs for the corrected
    resampled t (Table 2) and the corrected repeated cv t (Table 3), ours beside theirs.

    Returns
    -------
    matplotlib.figure.Figure or None
        None when neither table is in ``frames``.
    """
    from ..plotting import display_name
    from ..plotting._style import finish_figure, legend_outside, new_figure, series_style
    series = [(k, lab) for k, lab in (("table2", "corrected resampled t"),
                                      ("table3", "corrected repeated cv t")) if k in frames]
    if not series:
        return None
    pairs = list(dict.fromkeys(frames[series[0][0]]["pair"]))
    fig, axes = new_figure(len(pairs), n_cols=len(pairs), panel_size=(3.6, 3.2), sharey=True)
    for ax, pair in zip(axes, pairs):
        for i, (key, lab) in enumerate(series):
            f = frames[key][frames[key]["pair"] == pair].sort_values("n_runs")
            st = series_style(i)
            ax.errorbar(f["n_runs"], f["R ours"], yerr=2 * f["R ours SE"], capsize=2,
                        elinewidth=0.8, label=f"{lab}, ours", ms=5, **st)
            ax.plot(f["n_runs"], f["R paper (27)"], label=f"{lab}, the paper",
                    ms=6, mfc="white", **{**st, "ls": ":"})
        a, b = pair.split("_vs_")
        names = {"nb": "naive_bayes", "nn": "ib1"}
        ax.set(title=f"{display_name(names.get(a, a))} vs {display_name(names.get(b, b))}",
               xlabel="number of runs r", xscale="log")
        ax.title.set_fontsize(9)
        runs = np.unique(np.concatenate([frames[k]["n_runs"].to_numpy() for k, _ in series]))
        ax.set_xticks(runs, [f"{r:g}" for r in runs])
        ax.minorticks_off()
    axes[0].set(ylabel="replicability R over data sets")
    legend_outside(fig, axes)
    finish_figure(fig, "Bouckaert & Frank (2004) Tables 2 and 3: replicability against the "
                  "number of runs", subtitle="ours over the shipped UCI data sets (filled), "
                  "the paper's over its 27 (open, dotted)",
                  error_bars="± 2 Monte Carlo SE of ours (new partitions, data sets fixed)",
                  reduced=reduced)
    return fig


def _runs_figure(frames, path, *, reduced=None):
    """Save :func:`runs_figure` to ``path``; returns the path (None: nothing to draw)."""
    from ..plotting._style import save_figure
    fig = runs_figure(frames, reduced=reduced)
    return None if fig is None else save_figure(fig, path, dpi=120)


def _largest_fall(steps, z, sym) -> str:
    falls = [(v, p) for p, v in zip(steps, z) if p["difference"] < 0]
    if not falls:
        return ""
    v, p = min(falls, key=lambda t: t[0])
    return (f" (largest fall {p['difference']:+.3f} at {sym} = {p['runs from']} -> "
            f"{p['runs to']}, {v:.2f} SE)")


_ORDER = (("table2", "Table 2, corrected resampled t", "n"),
          ("table3", "Table 3, corrected repeated cv t", "r"))


def _order_section(tables, frames, folder, study, paths) -> list:
    """R against the number of runs, each step with its Monte Carlo SE, and the paper's
    claim that R rises with the runs, checked two-sided (issue 34).

    A step's SE is ``sqrt(SE_a ** 2 + SE_b ** 2)``, the two R's taken as independent. They
    are not quite: repetition g of r runs uses runs g r .. g r + r - 1 of one scheme, so
    different r share some partitions; in a simulation with that structure
    (``tests/test_paper_bouckaert_frank2004.py``) the independent SE is within 25% of a
    step's true standard deviation.
    """
    rows, claims = [], []
    for key, title, sym in _ORDER:
        if key not in tables or key not in frames:
            continue
        t = tables[key]
        t = t[np.isclose(t["alpha"], 0.05)]
        for (pa, pb), col in _PAIRS.items():
            g = t[(t["pair_a"] == pa) & (t["pair_b"] == pb)]
            stats_ = {r: (float(np.mean(replicability_R(h["rejections"].to_numpy(dtype=int),
                                                        int(h["repeats"].iloc[0])))),
                          float(_replicability(h["rejections"].to_numpy(),
                                               int(h["repeats"].iloc[0])).R_partition_se))
                      for r, h in g.groupby("n_runs", sort=True)}
            runs = sorted(stats_)
            steps = list(zip(runs[:-1], runs[1:])) + [(runs[0], runs[-1])]
            part = []
            for lo, hi in steps:
                (r_lo, se_lo), (r_hi, se_hi) = stats_[lo], stats_[hi]
                part.append({"table": key, "pair": col, "runs from": lo, "runs to": hi,
                             "R from": round(r_lo, 3), "R to": round(r_hi, 3),
                             "difference": round(r_hi - r_lo, 3),
                             "difference SE": round(float(np.hypot(se_lo, se_hi)), 3)})
            rows += part
            z = [p["difference"] / p["difference SE"] if p["difference SE"] > 0 else
                 0.0 if p["difference"] == 0 else np.copysign(np.inf, p["difference"])
                 for p in part]
            falls = [f"{sym} = {p['runs from']} -> {p['runs to']}"
                     for p, v in zip(part[:-1], z[:-1]) if v < -2]
            rises = bool(z[-1] > 2)
            verdict = "agrees" if rises and not falls else "partly" if rises else "differs"
            paper = frames[key][frames[key]["pair"] == col].sort_values("n_runs")
            claims.append(
                f"| {col}: R rises with the number of runs ({title}) | R = "
                f"{', '.join(f'{stats_[r][0]:.3f}' for r in runs)} at {sym} = "
                f"{', '.join(str(r) for r in runs)}; {sym} = {runs[0]} -> {runs[-1]}: "
                f"{part[-1]['difference']:+.3f} (SE {part[-1]['difference SE']:.3f}); "
                + (f"falls beyond 2 SE at {', '.join(falls)}" if falls else
                   "no step falls beyond 2 SE" + _largest_fall(part[:-1], z[:-1], sym))
                + f" | {', '.join(f'{v:.3f}' for v in paper['R paper (27)'].dropna())} "
                "| agrees if R at the most runs exceeds R at the fewest by more than 2 SE of "
                "the difference and no step falls by more than 2 SE; partly if it rises "
                f"overall but a step falls | **{verdict}** |\n")
    if not rows:
        return []
    frame = pd.DataFrame(rows)
    paths["R_vs_runs.csv"] = folder / f"{study.name}_R_vs_runs.csv"
    frame.to_csv(paths["R_vs_runs.csv"], index=False, float_format="%.6g")
    return ["## R against the number of runs, with Monte Carlo SE\n\n",
            "Each step's SE is sqrt(SE_a² + SE_b²), the two R's taken as independent "
            "(the numbers of runs share some partitions; a simulation with this structure "
            "finds the independent SE within 25% of a step's true error).\n\n",
            frame.to_markdown(index=False), "\n\n",
            "## The paper's claims\n\n",
            "| claim (Bouckaert & Frank 2004, §4.2) | ours | paper | rule | verdict |\n"
            "|---|---|---|---|---|\n", *claims, "\n"]


def _stratified_section(tables, folder, study, paths) -> list:
    """§4.3: corrected resampled t with stratified subsampling beside Table 2's unstratified."""
    rows = []
    for key, how in (("table2", "unstratified"), ("table2_stratified", "stratified")):
        t = tables[key]
        t = t[(t["test"] == "corrected_resampling") & np.isclose(t["alpha"], 0.05)]
        for (a, b), col in _PAIRS.items():
            for n, g in t[(t["pair_a"] == a) & (t["pair_b"] == b)].groupby("n_runs"):
                repeats = int(g["repeats"].iloc[0])
                c, ac, R = _summary(g["rejections"].to_numpy(), repeats)
                rows.append({"pair": col, "n_runs": n, "subsampling": how, "consistent": c,
                             "almost consistent": ac, "R": round(R, 3),
                             "R SE": _R_se(g["rejections"].to_numpy(), repeats)})
    frame = pd.DataFrame(rows).pivot_table(index=["pair", "n_runs"], columns="subsampling",
                                           values=["consistent", "R", "R SE"]).reset_index()
    frame.columns = [" ".join(str(p) for p in c if p).strip() for c in frame.columns]
    frame["R difference"] = (frame["R stratified"] - frame["R unstratified"]).round(3)
    frame["R difference SE"] = np.sqrt(frame["R SE stratified"] ** 2
                                       + frame["R SE unstratified"] ** 2).round(3)
    paths["stratified.csv"] = folder / f"{study.name}_stratified.csv"
    frame.to_csv(paths["stratified.csv"], index=False, float_format="%.6g")
    return ["## §4.3: stratified vs unstratified subsampling (corrected resampled t, "
            "α = 0.05)\n\n", frame.to_markdown(index=False),
            f"\n\nThe paper: with stratified resampling \"the replicability scores differed "
            f"only very slightly from the ones shown in Table 2\". Ours: the largest |R "
            f"difference| is {frame['R difference'].abs().max():.3f} (mean "
            f"{frame['R difference'].mean():+.3f}); "
            f"{_beyond(frame)} of {len(frame)} differences "
            f"{'exceeds' if _beyond(frame) == 1 else 'exceed'} 2 Monte Carlo SE of the "
            "difference.\n\n"]


def _beyond(frame) -> int:
    return int((frame["R difference"].abs() > 2 * frame["R difference SE"]).sum())


_TABLE5_ROWS = (("cv5x2", "5x2 cv"), ("resampling10", "10 x resampling"),
                ("resampling100", "100 x resampling"), ("kfold", "10-fold cv"),
                ("corrected10x10", "corrected 10x10 fold cv"))


def table5_figure(tables, sources, paper, *, reduced=None):
    """Table 5 in one figure: consistency (%) of each test on each source, ours ± 2 SE
    (filled) and the paper's value (grey bar) where the paper gives one.

    Parameters
    ----------
    tables : dict of str to pandas.DataFrame
        The study's ``replicability`` tables named in :data:`_TABLE5_ROWS`.
    sources : list of str
        The sources in order (Sets 1-4).
    paper : pandas.DataFrame
        The paper's Table 5 indexed by test, columns ``source1`` ...

    Returns
    -------
    matplotlib.figure.Figure or None
    """
    from ..plotting import display_name
    from ..plotting._style import dodge, finish_figure, legend_outside, new_figure, series_style
    rows = [(name, label) for name, label in _TABLE5_ROWS if name in tables]
    if not rows:
        return None
    fig, (ax,) = new_figure(1, n_cols=1, panel_size=(7.5, 3.8))
    cats = [display_name(s) for s in sources]
    first_paper = True
    for i, (name, label) in enumerate(rows):
        t = tables[name].set_index("source").reindex(sources)
        y = 100 * t["consistent"].to_numpy(dtype=float)
        e = 200 * np.nan_to_num(t["consistent_se"].to_numpy(dtype=float))
        x = np.arange(len(sources)) + dodge(i, len(rows))
        ax.errorbar(x, y, yerr=e, ms=5, capsize=2, elinewidth=0.8,
                    label=f"{label} (ours)", **series_style(i, line=False))
        ref = [paper.loc[label, f"source{k + 1}"] if label in paper.index else np.nan
               for k in range(len(sources))]
        ok = np.isfinite(np.asarray(ref, dtype=float))
        if ok.any():
            ax.plot(x[ok], np.asarray(ref, dtype=float)[ok], ls="none", marker="_", ms=14,
                    mew=2, color="0.45", label="the paper's value" if first_paper else None)
            first_paper = False
    ax.set_xticks(range(len(sources)), cats)
    ax.set_xlim(-0.6, len(sources) - 0.4)
    ax.set(xlabel="data source (C4.5 minus naive Bayes grows from Set 1 to Set 4)",
           ylabel="consistency (%)")
    legend_outside(fig, [ax])
    n = int(tables[rows[0][0]]["n"].max())
    finish_figure(fig, "Bouckaert & Frank (2004) Table 5: consistency of five tests on four "
                  "simulated sources", subtitle=f"share of the {n} training sets on which all "
                  "10 repetitions agree, α = 0.05, textbook df",
                  error_bars="± 2 Monte Carlo SE", reduced=reduced)
    return fig


def _table5(*, study, tables, scores, folder, wall=None, calibrations=None):
    paper = _paper("table5_simulation_consistency.csv").set_index("test")
    sources = [s.label for s in study.sources]
    cols = [f"source{i + 1}" for i in range(len(sources))]
    rows = []
    row = {"test": "delta_accuracy"}
    for src, col in zip(sources, cols):
        gap = scores.accuracy(src, "test", "c45")[:, 0] - scores.accuracy(src, "test",
                                                                          "naive_bayes")[:, 0]
        row[f"{col} ours"] = round(100 * float(gap.mean()), 2)
        row[f"{col} paper"] = paper.loc["delta_accuracy", col]
    rows.append(row)
    for name, label in _TABLE5_ROWS:
        t = tables[name]
        row = {"test": label}
        for src, col in zip(sources, cols):
            row[f"{col} ours"] = round(100 * float(t[t["source"] == src]["consistent"].iloc[0]), 1)
            row[f"{col} paper"] = paper.loc[label, col]
        row["min ours"] = min(row[f"{c} ours"] for c in cols)
        row["min paper"] = paper.loc[label, "min"]
        rows.append(row)
    wide = pd.DataFrame(rows)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = {"table5.csv": folder / f"{study.name}_consistency.csv",
             "report": folder / f"{study.name}_report.md"}
    wide.to_csv(paths["table5.csv"], index=False, float_format="%.6g")
    from ..plotting._style import reduced_size, save_figure
    fig = table5_figure(tables, sources, paper, reduced=reduced_size(study))
    if fig is not None:
        paths["figure"] = save_figure(fig, folder / f"{study.name}.png", dpi=120)
    n = study.sources[0].n_datasets
    lines = [f"# {study.title}\n\n",
             f"Consistency (%) = share of the {n} training sets of 300 instances on which the "
             "test (α = 0.05, textbook df) reaches the same outcome in all 10 repetitions with "
             "new partitions; delta_accuracy = C4.5 minus naive Bayes (%) on one test set of "
             "20,000 instances per source. Sources: Bouckaert (2003) Sets 1-4 of calibsim "
             "(`studies/networks`), whose gaps were matched to the paper's; the paper's own "
             "networks are unpublished. '10 x' and '100 x resampling' are the corrected "
             "resampled t (90% / 10%); the paper's 5x2 cv row survives only as its minimum.\n\n",
             wide.to_markdown(index=False), "\n"]
    if "figure" in paths:
        lines.append(f"\n![Consistency per source and test]({paths['figure'].name})\n")
    if wall is not None:
        lines.append(f"\nWall time of the run that wrote this report: {wall:.1f} s.\n")
    paths["report"].write_text("".join(lines), encoding="utf-8")
    return paths


LAYOUTS = {"table1": _table1, "tables234": _tables234, "table5": _table5}
