"""Bouckaert (2003) Figure 2: its figure layout, its report and the rules that check its claims.

Everything here starts from the ``calibrate`` analysis table of the engine
(:func:`calibsim.engine.analyses.calibration_rows`) and the saved scores, so the
figure and report can be redrawn without rerunning the learners.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd

from ..stats import get_test
__all__ = ["write_figure2", "paper_comparison", "PAPER_GROUPS"]

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
