"""calibsim's own studies, beyond the five papers: layouts of their tables and figures.

Every number comes from the engine's analyses of the study files (the tidy tables it
writes beside these), and, where a layout needs them, the mean differences of the
sources from its score store. The layouts:

- ``null_construction`` (``studies/null_construction.toml``): which null data to
  calibrate a test's df on when the data are the user's own (``calibsim calibrate
  --like``). It sets, per data set, both learners' mean accuracy on permuted-label null
  data, the difference that centring removes, and the calibrated df under three
  constructions (permuted as is, centred, balanced labels) beside the shipped df table;
  the Type I error of the shipped df on the centred null; the df calibrated on one half
  of the null data sets checked on the other half; and, on Bouckaert's own simulated
  null, the df with and without centring beside the shipped table;
- ``null_real_vs_balanced`` (``studies/null_real_vs_balanced.toml``): the df calibrated
  on Dietterich's (1998, §5) damaged real-data null (the data's own labels and prior,
  the better learner given calibrated random errors; on all the data and on a random
  half per repeat) beside the balanced + centred null's, per data set, test and α, with
  intervals, whether they overlap, and the damaged null's accuracies (that the damage
  equalised the learners);
- ``bayesian_hierarchical`` (``studies/bayesian_hierarchical.toml``): the hierarchical
  and Bayesian signed-rank tests' decision rates and replicability over comparisons of
  q data sets, and the effect of ρ, as tables people read (the tidy table and the figure
  are the engine's ``bayes_datasets`` outputs);
- ``cv_inference`` (``studies/cv_inference_1998_2023.toml``, :func:`write_main`): the
  tests of the five papers and the newer tests on each instance's outcome on the same
  null and BAN data at n = 100 to 3000: Type I error, power, replicability, coverage of
  the null difference and cost in fits per test, and which test to use for which design
  and n. ``cv_inference_dietterich`` (:func:`write_dietterich`): the same tests on
  Dietterich's real-data tasks
  (``studies/cv_inference_1998_2023_{pima_exp6,letter}.toml``).
  ``cv_inference_bootstrap_budget`` (:func:`write_budget`,
  ``studies/cv_inference_1998_2023_bootstrap_budget.toml``): the bootstrap cv's Type I
  error on the null against its bootstrap samples and splits;
- ``cv_inference_coverage`` (``studies/cv_inference_1998_2023_coverage.toml``,
  :func:`write_coverage`): the coverage of those tests' intervals on the BAN sets
  against the true difference the engine draws from each network;
- ``cv_inference_validation`` (``studies/cv_inference_validation.toml``): the newer cv
  inference against its sources, Bates et al.'s coverage and Bayle et al.'s Type I error
  and power, with the register of differences (:data:`DIFFERENCES`);
- ``plan_validation`` (``studies/plan_validation.toml``): ``calibsim plan`` (the
  engine's ``plan`` analysis) beside the committed Type I errors of Dietterich's tasks
  and the power of Bouckaert's BAN sets, and on a fresh seed.

**cv inference, 1998-2023: the comparison no paper has.** The tests of the five papers
(at their textbook df and at df calibrated on Bouckaert's null) and the newer tests on
each instance's outcome (Bayle et al. 2020's cv CLT test, Bates, Hastie & Tibshirani
2023's NCV) and on bootstrap samples (Cai et al. 2023's bootstrap of the cv estimate) on
the same data: per test and n, Type I error on the null, power on the BAN sets,
replicability, coverage of the null difference and cost in fits; then which test to use
for which design and n, by a stated rule.

**Interval coverage on the BAN sets.** Where a test gives an interval, its coverage
stands beside the Type I error, power and replicability of
``studies/cv_inference_1998_2023.toml``. On the BAN sets that needs the true difference
of the two learners, which the engine's ``coverage`` analysis draws from each network
(``truth = "drawn"``, :mod:`calibsim.engine._truth`). One Markdown report,
``<study>.md``: the truths with their Monte Carlo SE, one table of coverage per test, set
and n, and sentences whose every number and verdict is computed from the two coverage
tables. The verdict of a cell (:func:`coverage_verdict`), at the table's confidence
1 - α: **under** where the upper Clopper-Pearson 95% end of the largest coverage the
truth allows (truth moved 2 SE either way) is below 1 - α, **over** where the lower end
of the smallest is above it, **nominal** otherwise (within the Monte Carlo error of both
the data sets and the truth).

**The newer cv inference against its sources.** Each reproduced number is set beside
what the paper reports, each claim the study can test gets a verdict computed from our
numbers and their Monte Carlo error (never tuned), and a register lists every way our
setting differs from the paper's. Every number comes from the engine's ``coverage`` and
``rejection_rate`` tables of the study. What could be read of the papers: the stored
texts of all three reached their first sections only (abstract and introduction); the
settings below were read from the authors' public experiment code (read, not copied):
Bates et al.'s ``github.com/stephenbates19/nestedcv_experiments`` (``lowd_logistic.R``,
``data_wrapper.R``) and package ``nestedcv`` (``naive_cv``, ``nested_cv``), Bayle et
al.'s ``github.com/alexandre-bayle/cvci`` (``cv_num_exper.py``) and Cai et al.'s package
``github.com/distant-spring/BootCV`` (``Boot.CV``, ``CV.confint``, README). Their tables
and figures' values could not be read, so the paper columns quote the claims of the
abstracts, not numbers; the register marks those cells "not comparable".

**plan validation: calibsim plan against the studies it generalises.** The engine's
``plan`` analysis (:mod:`calibsim.engine._plan_analysis`) runs :func:`calibsim.plan` on
the study's sources; the layout puts its rates beside the committed rates they should
reproduce, read from the tracked CSVs of those studies (never copied here), with
z = (plan − committed) / the Monte Carlo SE of the difference (two proportions, at the
pooled rate, so that a rate of 0 still has an error):

(a) ``dietterich_*`` analyses: the Type I error of Dietterich's (1998, §5) five tests on
    his three tasks beside ``figures/dietterich1998/dietterich1998_<task>_type1.csv`` (the
    source labels of the study are the task names);
(b) ``ban``: the rejection rates at α of the tests on Bouckaert's (2003) BAN Sets 1-4
    beside ``figures/bouckaert2003/bouckaert2003_table4_power_vs_alpha.csv``. Set 1's
    learners are equally good (Bouckaert 2003, §5), so its committed rates are Type I
    errors and are compared with plan's damaged null (Δ = 0); Sets 2-4 have a difference,
    and their committed power is compared with plan's power at each design's own
    difference of the learners (``differences = "own"``);
(c) ``fresh_seed``: the recommended design and test of each Δ on the first root seed (the
    prediction) beside the same design and test on the second (the fresh seed), and every
    rate of the two plans.

Outputs: ``<study>_dietterich.csv``, ``<study>_ban.csv``, ``<study>_fresh_seed.csv``
(tidy, every number), one report ``<study>_report.md`` with the three tables and sentences
computed from the numbers, and one figure ``<study>.png`` (plan's rate against the
committed rate, 95% Monte Carlo intervals, the line y = x).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["LAYOUTS", "BOOT_DESIGN", "TESTS", "DF_TESTS", "DESIGNS", "cv_summary_table",
           "table_at", "transfer_table", "recommendations", "figure_at",
           "figure_type1_vs_n", "budget_table", "figure_budget", "write_main",
           "write_dietterich", "write_budget", "coverage_cells", "coverage_summary_table",
           "coverage_verdict", "write_coverage", "DIFFERENCES", "WHY", "FIGURES",
           "NO_DIFFERENCE", "Z_OK", "committed_figures", "z_two_proportions",
           "dietterich_table", "ban_table", "fresh_tables", "plan_summary", "plan_figure"]


# ------------------------------------------------------------------------------
# The null construction, the damaged real-data null and the Bayesian hierarchical test
# ------------------------------------------------------------------------------

#: The tests and constructions of the null-construction study, in table order.
_CONSTRUCTIONS = {"permuted": "permuted labels, as is", "centred": "permuted labels, centred",
                  "balanced": "balanced labels, as is",
                  "balanced_centred": "balanced labels, centred"}


def _df_text(df, lo=None, hi=None) -> str:
    """``"9.89 [9.61, 10.20]"``; ``∞`` for the normal limit."""
    def f(v):
        return "∞" if v == np.inf else f"{v:.2f}"
    return f(df) if lo is None else f"{f(df)} [{f(lo)}, {f(hi)}]"


def _shipped(test, alpha, n_folds, n_runs):
    from ..calibration import lookup_df
    try:
        return lookup_df(test, alpha=alpha, n_folds=n_folds, n_runs=n_runs)
    except ValueError:
        return None


def _type1_at(study, scores, row, df) -> float:
    """Type I error of ``row``'s test at ``df`` on the centred null of its source."""
    x = scores.difference(row["source"], row["scheme"], (row["pair_a"], row["pair_b"]))
    x = x[:, :int(row["n_runs"])] - row["centre"]
    func = study.test_callable(row["test"], row["source"], row["scheme"])
    p = np.asarray(func(x, df).pvalue, dtype=float)
    return float(np.mean(p <= row["alpha"]))


def _prior(study, source) -> tuple:
    """(majority share, classes) of a dataset source's own labels."""
    ds = study.source(source).build().dataset
    counts = np.bincount(np.asarray(ds.y), minlength=ds.n_classes)
    return float(counts.max() / counts.sum()), int(ds.n_classes)


def _per_dataset(study, tables, scores) -> pd.DataFrame:
    """One row per data set x test x α: accuracies, centre, df per construction, shipped."""
    perm = tables["permuted"]
    other = {k: tables[k].set_index(["name", "test", "alpha"]) for k in _CONSTRUCTIONS}
    rows = []
    for _, r in perm.iterrows():
        key = (r["name"], r["test"], r["alpha"])
        c, b, bc = (other[k].loc[key] for k in ("centred", "balanced", "balanced_centred"))
        share, n_classes = _prior(study, r["source"])
        e = _shipped(r["test"], r["alpha"], int(r["n_folds"]), int(r["n_runs"]))
        row = {"data set": r["name"], "majority share": share, "classes": n_classes,
               "test": r["label"], "alpha": r["alpha"],
               "naive Bayes accuracy": r["accuracy_a"], "naive Bayes SE": r["accuracy_a_se"],
               "C4.5 accuracy": r["accuracy_b"], "C4.5 SE": r["accuracy_b_se"],
               "difference removed": c["centre"], "difference SE": c["null_difference_se"],
               "balanced: naive Bayes accuracy": b["accuracy_a"],
               "balanced: C4.5 accuracy": b["accuracy_b"],
               "balanced: difference removed": bc["centre"],
               "balanced: difference SE": bc["null_difference_se"]}
        for key, t in (("permuted", r), ("centred", c), ("balanced", b),
                       ("balanced_centred", bc)):
            row[f"df {key}"] = t["df_continuous"]
            row[f"df {key} low"] = t["df_ci_low"]
            row[f"df {key} high"] = t["df_ci_high"]
            row[f"integer df {key}"] = int(t["calibrated_df"])
        row["shipped df"] = e.df if e else np.nan
        row["shipped df low"] = e.ci_low if e else np.nan
        row["shipped df high"] = e.ci_high if e else np.nan
        for key, t in (("permuted", r), ("centred", c), ("balanced", b),
                       ("balanced_centred", bc)):
            t_row = {**r.to_dict(), "source": t.get("source", r["source"]),
                     "centre": t["centre"]}
            row[f"Type I at shipped df, {key}"] = (_type1_at(study, scores, t_row, e.df)
                                                  if e else np.nan)
            row[f"fresh {key}: df on half 1"] = t["fresh_df_continuous"]
            row[f"fresh {key}: Type I on half 2"] = t["fresh_type1_continuous"]
        row["fresh: MC SE"] = c["fresh_mc_se"]
        rows.append(row)
    out = pd.DataFrame(rows)
    order = {label: i for i, label in enumerate(dict.fromkeys(out["test"]))}
    return out.sort_values(["test", "alpha", "majority share"], kind="stable",
                           key=lambda c: c.map(order) if c.name == "test" else c,
                           ignore_index=True)


def _simulated(tables) -> pd.DataFrame:
    """Bouckaert's simulated null: df as is and centred beside the shipped table."""
    rows = []
    cent = tables["simulated_centred"].set_index(["test", "alpha"])
    for _, r in tables["simulated_as_is"].iterrows():
        c = cent.loc[(r["test"], r["alpha"])]
        e = _shipped(r["test"], r["alpha"], int(r["n_folds"]), int(r["n_runs"]))
        inside = bool(e is not None and e.ci_low <= c["df_continuous"] <= e.ci_high)
        rows.append({"test": r["label"], "alpha": r["alpha"],
                     "naive Bayes accuracy": r["accuracy_a"], "C4.5 accuracy": r["accuracy_b"],
                     "difference removed": c["centre"],
                     "difference SE": c["null_difference_se"],
                     "df as is": _df_text(r["df_continuous"], r["df_ci_low"], r["df_ci_high"]),
                     "df centred": _df_text(c["df_continuous"], c["df_ci_low"],
                                            c["df_ci_high"]),
                     "shipped df": _df_text(e.df, e.ci_low, e.ci_high) if e else "",
                     "centred df inside the shipped interval": "yes" if inside else "no",
                     "fresh: Type I on half 2": c["fresh_type1_continuous"],
                     "fresh: MC SE": c["fresh_mc_se"], "n": int(r["n_datasets"])})
    return pd.DataFrame(rows)


def _summary(t: pd.DataFrame, sim: pd.DataFrame) -> str:
    """What the study shows, in a few sentences computed from its tables."""
    one = t.drop_duplicates("data set")
    gap = (one["naive Bayes accuracy"] - one["C4.5 accuracy"]).abs()
    worst = one.loc[gap.idxmax()]
    collapsed = t[t["df centred"] <= 0.0100001]
    bal = one["balanced: difference removed"].abs()
    bworst = one.loc[bal.idxmax()]
    z = ((t["fresh balanced_centred: Type I on half 2"] - t["alpha"]) / t["fresh: MC SE"])
    z_c = ((t["fresh centred: Type I on half 2"] - t["alpha"]) / t["fresh: MC SE"])
    u05 = t[(t["test"] == t["test"].iloc[0]) & np.isclose(t["alpha"], 0.05)]
    at = 100 * u05["Type I at shipped df, balanced_centred"]
    inside = (sim["centred df inside the shipped interval"] == "yes").sum()
    return (
        f"**Permuted labels, as is:** the learners are not equally good. naive Bayes and "
        f"C4.5 differ by up to {100 * gap.max():.2f} points ({worst['data set']}: "
        f"{100 * worst['naive Bayes accuracy']:.2f}% vs {100 * worst['C4.5 accuracy']:.2f}%), "
        "and a calibration on them counts correct rejections of that difference as Type I "
        "errors. "
        f"**Permuted labels, centred** on the data's own prior removes the mean difference "
        f"but fails where the learners tie on most folds (both predict the majority class, "
        f"a zero-variance difference that centring turns into a certain rejection): in "
        f"{len(collapsed)} of {len(t)} rows ({', '.join(sorted(set(collapsed['data set'])))}) "
        f"no df keeps the Type I error at α, and on a fresh half the worst Type I error is "
        f"{z_c.max():.1f} Monte Carlo SE above α. "
        f"**Balanced labels** leave at most {100 * bal.max():.2f} points between the "
        f"learners ({bworst['data set']}: odd class counts in stratified folds make a "
        f"majority fallback pick the test fold's minority), which **centring** removes; "
        f"the df calibrated on one half keeps the Type I error on the other half within "
        f"2 Monte Carlo SE of α in {(z.abs() <= 2).sum()} of {len(t)} rows (largest "
        f"{z.abs().max():.1f} SE). This is the null `calibsim calibrate --like` uses. On it, "
        f"the shipped df gives use all data a Type I error of {at.min():.1f}% to "
        f"{at.max():.1f}% at α = 5% across the seven data sets. On Bouckaert's simulated "
        f"null (the df table's own data sets) centring leaves the df inside the shipped "
        f"interval in {inside} of {len(sim)} rows.")


def _markdown_table(t: pd.DataFrame) -> str:
    """The per-data-set table as people read it: percent, df with intervals."""
    out = pd.DataFrame({
        "data set": t["data set"],
        "majority %": (100 * t["majority share"]).map("{:.1f}".format),
        "permuted: NB % (SE)": [f"{100 * a:.2f} ({100 * s:.2f})" for a, s in
                                zip(t["naive Bayes accuracy"], t["naive Bayes SE"])],
        "permuted: C4.5 % (SE)": [f"{100 * a:.2f} ({100 * s:.2f})" for a, s in
                                  zip(t["C4.5 accuracy"], t["C4.5 SE"])],
        "balanced: NB − C4.5, points (SE)": [
            f"{100 * a:+.2f} ({100 * s:.2f})" for a, s in
            zip(t["balanced: difference removed"], t["balanced: difference SE"])]})
    for key in _CONSTRUCTIONS:
        out[f"df {_CONSTRUCTIONS[key]} [95%] (integer)"] = [
            f"{_df_text(d, lo, hi)} ({i})" for d, lo, hi, i in
            zip(t[f"df {key}"], t[f"df {key} low"], t[f"df {key} high"],
                t[f"integer df {key}"])]
    out["shipped df [95%]"] = [_df_text(d, lo, hi) for d, lo, hi in
                               zip(t["shipped df"], t["shipped df low"], t["shipped df high"])]
    for key in _CONSTRUCTIONS:
        out[f"fresh check, {_CONSTRUCTIONS[key]}: Type I %"] = (
            100 * t[f"fresh {key}: Type I on half 2"]).map("{:.1f}".format)
    out["MC SE %"] = (100 * t["fresh: MC SE"]).map("{:.1f}".format)
    out["Type I % at shipped df, balanced centred"] = (
        100 * t["Type I at shipped df, balanced_centred"]).map("{:.1f}".format)
    return out.to_markdown(index=False)


def _figure_accuracy(t, n_datasets, reduced):
    """Both learners' null accuracy per data set (permuted labels), by majority share."""
    import matplotlib.pyplot as plt

    from ..plotting._style import MARKERS, PALETTE
    one = t.drop_duplicates("data set").sort_values("majority share")
    x = np.arange(len(one))
    fig, ax = plt.subplots(figsize=(7.0, 3.6), layout="constrained")
    for i, (name, col, se) in enumerate((("naive Bayes", "naive Bayes accuracy",
                                          "naive Bayes SE"),
                                         ("C4.5", "C4.5 accuracy", "C4.5 SE"))):
        ax.errorbar(x + (i - 0.5) * 0.18, 100 * one[col], yerr=2 * 100 * one[se], ls="none",
                    marker=MARKERS[i], color=PALETTE[i], capsize=2, label=name)
    ax.scatter(x, 100 * one["majority share"], marker="_", s=300, color="#000000",
               label="majority-class share", zorder=3)
    ax.set_xticks(x, [f"{n}\n{100 * s:.0f}%" for n, s in
                      zip(one["data set"], one["majority share"])], fontsize=8, rotation=30)
    ax.set_xlabel("data set and its majority-class share")
    ax.set_ylabel("mean accuracy on the null data (%)")
    title = ("On permuted labels the learners are not equally good: mean accuracy of\n"
             f"naive Bayes and C4.5 over {n_datasets} null data sets each (bars ±2 SE)"
             + (f"; reduced run: {n_datasets} data sets" if reduced else ""))
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, frameon=False, loc="upper left")
    ax.grid(axis="y", lw=0.3, alpha=0.5)
    return fig


def _df_points(ax, g, keys, labels, *, width, inf_size):
    """Draw on ``ax`` each null's calibrated df per row of ``g`` (x = 0, 1, ...; the nulls
    ``keys`` side by side, ``width`` apart, labelled ``labels[key]``) with its 95% interval:
    "∞" at the top where the df is the normal limit, "none" at the bottom where no df
    keeps α (the lowest df searched, 0.01), and a dotted line up to the top where the
    interval is open to ∞. Returns the finite values drawn (for :func:`_log_if_wide`)."""
    from ..plotting._style import MARKERS, PALETTE
    x = np.arange(len(g))
    finite, open_top = [], []
    for i, key in enumerate(keys):
        off = (i - (len(keys) - 1) / 2) * width
        d, lo, hi = (g[f"df {key}"].to_numpy(), g[f"df {key} low"].to_numpy(),
                     g[f"df {key} high"].to_numpy())
        none = d <= 0.0100001                  # the lowest df searched: none keeps α
        shown = np.isfinite(d) & ~none
        lo = np.where(lo <= 0.0100001, d, lo)
        finite += [v for v in np.r_[d[shown], lo[shown], hi[shown]] if np.isfinite(v)]
        ax.errorbar(x[shown] + off, d[shown],
                    yerr=[d[shown] - lo[shown], np.where(np.isfinite(hi), hi, d)[shown]
                          - d[shown]], ls="none", marker=MARKERS[i], color=PALETTE[i],
                    capsize=2, label=labels[key])
        open_top += [(xi + off, di, PALETTE[i]) for xi, di, h in
                     zip(x[shown], d[shown], hi[shown]) if not np.isfinite(h)]
        for xi in x[~shown & ~none]:
            ax.annotate("∞", (xi + off, 1.0), xycoords=("data", "axes fraction"),
                        ha="center", va="top", color=PALETTE[i], fontsize=inf_size)
        for xi in x[none]:
            ax.annotate("none", (xi + off, 0.0), xycoords=("data", "axes fraction"),
                        ha="center", va="bottom", color=PALETTE[i], fontsize=6,
                        rotation=90)
    return finite, open_top


def _log_if_wide(ax, finite, open_top):
    """A log y axis with plain tick labels where the ``finite`` values drawn span more than
    a factor of 20; then the intervals open to ∞ (``open_top``: (x, df, colour)) dotted up
    to the top of the axes."""
    if finite and max(finite) / max(min(finite), 1e-9) > 20:
        from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
        ax.set_yscale("log")
        ax.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.yaxis.set_minor_formatter(NullFormatter())
    if open_top:                         # an interval open to ∞: dotted up to the top
        top = ax.get_ylim()[1]
        for xi, di, col in open_top:
            ax.vlines(xi, di, top, colors=col, linestyles=":", lw=1.2)
        ax.set_ylim(top=top)


def _figure_df(t, alpha, n_datasets, reduced, test_order):
    """The calibrated df per construction and data set at one α, beside the shipped df."""
    import matplotlib.pyplot as plt
    sub = t[np.isclose(t["alpha"], alpha)]
    tests = list(dict.fromkeys(test_order))
    fig, axes = plt.subplots(1, len(tests), figsize=(5.0 * len(tests), 3.8),
                             layout="constrained", squeeze=False)
    for ax, test in zip(axes[0], tests):
        g = sub[sub["test"] == test].sort_values("majority share")
        finite, open_top = _df_points(ax, g, list(_CONSTRUCTIONS), _CONSTRUCTIONS,
                                      width=0.17, inf_size=9)
        e = g.iloc[0]
        if np.isfinite(e["shipped df"]):
            ax.axhspan(e["shipped df low"], e["shipped df high"], color="#999999", alpha=0.3,
                       lw=0, label="shipped df, 95% interval")
            ax.axhline(e["shipped df"], color="#555555", lw=0.8)
            finite += [e["shipped df low"], e["shipped df high"]]
        _log_if_wide(ax, finite, open_top)
        ax.set_xticks(np.arange(len(g)), [f"{n}\n{100 * s:.0f}%" for n, s in
                                          zip(g["data set"], g["majority share"])],
                      fontsize=7, rotation=30)
        ax.set_title(test, fontsize=10)
        ax.set_xlabel("data set and its majority-class share")
        ax.set_ylabel("calibrated df (95% interval)")
        ax.grid(axis="y", lw=0.3, alpha=0.5)
    axes[0][0].legend(fontsize=7, frameon=False, loc="best")
    fig.suptitle(f"Calibrated df on null data like each data set (α = {alpha:g}), by how the "
                 f"null is made: {n_datasets} null data sets each\n∞ (above the axes): the "
                 "normal limit; dotted: an interval open to ∞; 'none' (at the bottom): no df "
                 "keeps the Type I error at α"
                 + (f"; reduced run: {n_datasets} data sets" if reduced else ""),
                 fontsize=10)
    return fig


def _save(fig, path: Path) -> Path:
    import matplotlib.pyplot as plt
    fig.savefig(path, dpi=150, metadata={"Software": None})
    plt.close(fig)
    return path


def _null_construction(*, study, tables, scores, folder, wall=None, calibrations=None):
    """Tables, figures and report of ``studies/null_construction.toml``."""
    need = {"permuted", "centred", "balanced", "simulated_centred", "simulated_as_is"}
    missing = need - set(tables)
    if missing:
        raise ValueError(f"study {study.name!r}: the null_construction layout needs the "
                         f"calibrate analyses {sorted(need)}; missing {sorted(missing)}.")
    from ..stats import get_test
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    t = _per_dataset(study, tables, scores)
    sim = _simulated(tables)
    n = int(tables["permuted"]["n_datasets"].iloc[0])
    paths = {}
    csv = folder / "null_construction.csv"
    t.to_csv(csv, index=False, float_format="%.6g")
    paths["null_construction.csv"] = csv
    sim_csv = folder / "null_construction_simulated.csv"
    sim.to_csv(sim_csv, index=False, float_format="%.6g")
    paths["null_construction_simulated.csv"] = sim_csv
    paths["accuracy.png"] = _save(_figure_accuracy(t, n, study.reduced),
                                  folder / "null_construction_accuracy.png")
    order = [get_test(x).label for x in tables["permuted"]["test"].drop_duplicates()]
    paths["df.png"] = _save(_figure_df(t, 0.05, n, study.reduced, order),
                            folder / "null_construction_df.png")
    lines = [f"# {study.title}\n\n", _summary(t, sim), "\n\n",
             f"{n} null data sets per data set and construction (seed {study.seed}); "
             "10 runs of stratified 10-fold cv; naive Bayes (A) against C4.5 (B). "
             "Accuracies are percentages with their standard error over the null data sets; "
             "the 'balanced' difference is the mean difference A − B that centring takes off "
             "every per-fold difference of the balanced labels; df are continuous calibrated "
             "df with their 95% distribution-free "
             "interval and, in brackets, the integer df of Bouckaert's rule; ∞ is the normal "
             "limit (the test never exceeds α) and 0.01 the lowest df searched (no df keeps "
             "the Type I error at or below α). 'fresh check': the df calibrated on the first "
             "half of the null data sets, its Type I error on the other half (a fresh "
             "sample), with its Monte Carlo SE. 'Type I % at shipped df' is the rate of the "
             "test at the shipped table's df on the balanced, centred null.\n"]
    for (label, alpha), g in t.groupby(["test", "alpha"], sort=False):
        lines += [f"\n## {label}, α = {alpha:g}\n\n", _markdown_table(g), "\n"]
    lines += ["\n## Bouckaert's simulated null (the df table's data sets)\n\n",
              "Centring on the balanced simulated null of the shipped df table (the same "
              f"{int(sim['n'].iloc[0])} data sets and partitions) beside the table as shipped:\n\n",
              sim.to_markdown(index=False, floatfmt=".4g"), "\n"]
    md = folder / "null_construction.md"
    md.write_text("".join(lines), encoding="utf-8")
    paths["null_construction.md"] = md
    return paths


# ---------------------------------------------------------------------------
# null_real_vs_balanced: the damaged real-data null beside the balanced + centred null

#: The constructions of the null_real_vs_balanced study: key -> words (table order).
_NULLS = {"balanced": "balanced + centred", "damaged": "damaged, all data",
          "half": "damaged, random half per repeat"}


def _dataset_label(study, source) -> str:
    """A dataset source in words: ``"glass (headlamps vs rest)"``, ``"bupa"``."""
    p = dict(study.source(source).params)
    return (f"{p['name']} ({p['positive_class']} vs rest)" if p.get("positive_class")
            else str(p.get("name", source)))


def _damage_of(study, source) -> tuple:
    """(damaged learner, rate) at the training-set size of 10-fold cv on a dataset
    source's instances (all of them, or its subsample), from its own learners."""
    from ..learners._damaged import damage_at
    src = study.source(source)
    built = src.build()
    m = int(np.floor(built.subsample * built.n_instances))
    n_train = m - m / 10
    for lrn in src.learners:
        rate = damage_at(dict(lrn.params)["curve"], n_train)
        if rate > 0:
            return lrn.label, rate
    return "", 0.0


def _overlap(a_lo, a_hi, b_lo, b_hi) -> bool:
    return bool(a_lo <= b_hi and b_lo <= a_hi)


def _real_vs_balanced(study, tables) -> pd.DataFrame:
    """One row per data set x test x α: the df of each null with its interval, the
    overlaps, the damaged nulls' accuracies and damage."""
    bal = tables["balanced_centred"].copy()
    dam = tables["damaged"].copy()
    bal["data set"] = [_dataset_label(study, s) for s in bal["source"]]
    dam["data set"] = [_dataset_label(study, s) for s in dam["source"]]
    dam["variant"] = np.where(dam["subsample"] < 1, "half", "damaged")
    rows = []
    key = ["data set", "test", "alpha"]
    by = {v: g.set_index(key) for v, g in dam.groupby("variant")}
    for _, b in bal.iterrows():
        k = (b["data set"], b["test"], b["alpha"])
        share, n_classes = _prior(study, b["source"])
        row = {"data set": b["data set"], "majority share": share, "classes": n_classes,
               "instances": study.source(b["source"]).build().n_instances,
               "test": b["label"], "alpha": b["alpha"], "n_datasets": int(b["n_datasets"])}
        parts = {"balanced": b, **{v: by[v].loc[k] for v in ("damaged", "half") if v in by}}
        for v, t in parts.items():
            row[f"df {v}"] = t["df_continuous"]
            row[f"df {v} low"] = t["df_ci_low"]
            row[f"df {v} high"] = t["df_ci_high"]
            row[f"Type I at textbook df, {v}"] = t["type1_default"]
        for v in ("damaged", "half"):
            if v not in parts:
                continue
            t = parts[v]
            row[f"overlap {v}"] = _overlap(row["df balanced low"], row["df balanced high"],
                                           row[f"df {v} low"], row[f"df {v} high"])
            learner, rate = _damage_of(study, t["source"])
            row[f"{v}: damaged learner"] = learner
            row[f"{v}: damage rate"] = rate
            row[f"{v}: naive Bayes accuracy"] = t["accuracy_a"]
            row[f"{v}: C4.5 accuracy"] = t["accuracy_b"]
            row[f"{v}: difference"] = t["null_difference"]
            row[f"{v}: difference SE"] = t["null_difference_se"]
        rows.append(row)
    out = pd.DataFrame(rows)
    order = {label: i for i, label in enumerate(dict.fromkeys(out["test"]))}
    return out.sort_values(["test", "alpha", "majority share"], kind="stable",
                           key=lambda c: c.map(order) if c.name == "test" else c,
                           ignore_index=True)


def _real_vs_balanced_markdown(t: pd.DataFrame) -> str:
    """The table as people read it: df with intervals, overlap, the damage."""
    out = pd.DataFrame({"data set": t["data set"],
                        "majority %": (100 * t["majority share"]).map("{:.1f}".format)})
    for v, words in _NULLS.items():
        if f"df {v}" not in t:
            continue
        out[f"{words}: df [95%]"] = [_df_text(d, lo, hi) for d, lo, hi in
                                     zip(t[f"df {v}"], t[f"df {v} low"], t[f"df {v} high"])]
        if v != "balanced":
            out[f"{words}: overlap"] = t[f"overlap {v}"].map({True: "yes", False: "no"})
            out[f"{words}: damaged (rate)"] = [
                f"{lrn or 'none'} ({r:.4f})" for lrn, r in
                zip(t[f"{v}: damaged learner"], t[f"{v}: damage rate"])]
            out[f"{words}: NB − C4.5, points (SE)"] = [
                f"{100 * d:+.2f} ({100 * s:.2f})" for d, s in
                zip(t[f"{v}: difference"], t[f"{v}: difference SE"])]
    return out.to_markdown(index=False)


def _span(values) -> str:
    """``"7.14 to 11.72"``, or ``"∞ on every data set"``."""
    lo, hi = values.min(), values.max()
    return f"{_df_text(lo)} on every data set" if lo == hi else f"{_df_text(lo)} to {_df_text(hi)}"


def _real_vs_balanced_summary(t: pd.DataFrame) -> str:
    """Where the nulls agree and where they do not, in sentences computed from ``t``."""
    parts = []
    for label, g in t[np.isclose(t["alpha"], 0.05)].groupby("test", sort=False):
        n = len(g)
        s = [f"**{label}, α = 0.05:**"]
        b = g["df balanced"]
        s.append(f"balanced + centred df {_span(b)};")
        for v in ("damaged", "half"):
            if f"df {v}" not in g:
                continue
            d = g[f"df {v}"]
            hit = g[g[f"overlap {v}"]]["data set"].tolist()
            high = int((g[f"df {v} low"] > g["df balanced high"]).sum())
            low = int((g[f"df {v} high"] < g["df balanced low"]).sum())
            s.append(f"{_NULLS[v]} {_span(d)}, intervals "
                     f"overlapping the balanced one on {len(hit)} of {n} data sets"
                     + (f" ({', '.join(hit)})" if 0 < len(hit) < n else "")
                     + f", above it on {high}, below it on {low};")
        parts.append(" ".join(s)[:-1] + ".")
    for alpha, g in t.groupby("alpha"):
        cols = [c for c in g.columns if c.startswith("df ") and c.endswith(" low")]
        open_low = int((g[cols] <= 0.0100001).to_numpy().sum())
        if open_low:
            parts.append(f"At α = {alpha:g}, {open_low} of {g[cols].size} intervals reach the "
                         f"lowest df searched (unbounded below: {int(g['n_datasets'].max())} "
                         f"null data sets expect about {alpha * g['n_datasets'].max():.0f} "
                         "rejections at α), so an overlap there says little.")
    one = t.drop_duplicates("data set")
    for v in ("damaged", "half"):
        if f"{v}: difference" in one:
            z = (one[f"{v}: difference"] / one[f"{v}: difference SE"]).abs()
            parts.append(f"The damage left naive Bayes − C4.5 within 2 SE of 0 on "
                         f"{int((z <= 2).sum())} of {len(one)} data sets for the {_NULLS[v]} "
                         f"null (largest {100 * one[f'{v}: difference'].abs().max():.2f} "
                         f"points, {z.max():.1f} SE).")
    big = t[(t["majority share"] >= 0.85) & np.isclose(t["alpha"], 0.05)]
    if len(big) and "overlap half" in t:
        parts.append(f"On the {big['data set'].nunique()} data sets with a majority share of "
                     f"85% or more the half-data damaged null overlaps the balanced one in "
                     f"{int(big['overlap half'].sum())} of {len(big)} rows (tests at α = "
                     f"0.05), against {int(t[np.isclose(t['alpha'], 0.05)]['overlap half'].sum())}"
                     f" of {int(np.isclose(t['alpha'], 0.05).sum())} over all data sets.")
    return "\n\n".join(parts)


def _figure_real_vs_balanced(t, alpha, n_datasets, reduced, test_order):
    """df per data set (by majority share) under each null at one α, with intervals."""
    import matplotlib.pyplot as plt
    sub = t[np.isclose(t["alpha"], alpha)]
    tests = list(dict.fromkeys(test_order))
    fig, axes = plt.subplots(1, len(tests), figsize=(6.0 * len(tests), 4.4),
                             layout="constrained", squeeze=False)
    for ax, test in zip(axes[0], tests):
        g = sub[sub["test"] == test].sort_values("majority share", kind="stable")
        _log_if_wide(ax, *_df_points(ax, g, [v for v in _NULLS if f"df {v}" in g], _NULLS,
                                     width=0.22, inf_size=7))
        ax.set_xticks(np.arange(len(g)), [f"{n.replace(' vs rest', '')} {100 * s:.0f}%"
                                          for n, s in zip(g["data set"], g["majority share"])],
                      fontsize=7, rotation=35, ha="right", rotation_mode="anchor")
        ax.set_title(test, fontsize=10)
        ax.set_xlabel("data set and its majority-class share")
        ax.set_ylabel("calibrated df (95% interval)")
        ax.grid(axis="y", lw=0.3, alpha=0.5)
    axes[0][-1].legend(fontsize=7, frameon=False, loc="upper left",
                       bbox_to_anchor=(1.01, 1.0))
    fig.suptitle(f"Calibrated df (α = {alpha:g}) on the balanced + centred null and on "
                 f"Dietterich's damaged null of each data set: {n_datasets} null data sets "
                 "each\n∞ (at the top): the normal limit; dotted: an interval open to ∞; "
                 "'none' (at the bottom): no df keeps the Type I error at α"
                 + (f"; reduced run: {n_datasets} data sets" if reduced else ""),
                 fontsize=10)
    return fig


def _null_real_vs_balanced(*, study, tables, scores, folder, wall=None, calibrations=None):
    """Tables, figure and report of ``studies/null_real_vs_balanced.toml``."""
    need = {"balanced_centred", "damaged"}
    missing = need - set(tables)
    if missing:
        raise ValueError(f"study {study.name!r}: the null_real_vs_balanced layout needs the "
                         f"calibrate analyses {sorted(need)}; missing {sorted(missing)}.")
    from ..stats import get_test
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    t = _real_vs_balanced(study, tables)
    n = int(t["n_datasets"].max())
    name = study.name
    paths = {}
    csv = folder / f"{name}.csv"
    t.to_csv(csv, index=False, float_format="%.6g")
    paths[f"{name}.csv"] = csv
    order = [get_test(x).label for x in tables["balanced_centred"]["test"].drop_duplicates()]
    paths["df.png"] = _save(_figure_real_vs_balanced(t, 0.05, n, study.reduced, order),
                            folder / f"{name}_df.png")
    banner = (f"> **Reduced run**: {n} null data sets per data set and construction; numbers "
              "and sentences below are this run's, with its larger Monte Carlo error.\n\n"
              if study.reduced else "")
    lines = [f"# {study.title}\n\n", banner, _real_vs_balanced_summary(t), "\n\n",
             f"{n} null data sets per data set and construction (seed {study.seed}); 10 runs "
             "of stratified 10-fold cv; naive Bayes (A) against C4.5 (B). df are continuous "
             "calibrated df with their 95% distribution-free interval; ∞ is the normal limit "
             "(the test never exceeds α), 0.01 the lowest df searched. 'overlap': the damaged "
             "null's interval meets the balanced one. The damaged nulls keep the data's "
             "labels and prior; the learner named errs at random at the rate given (from the "
             "study file's calibrated curve at 10-fold cv's training-set size), and NB − "
             "C4.5 is the mean difference of the damaged null in points with its SE over the "
             "null data sets (near 0 when the damage equalised the learners).\n"]
    for (label, alpha), g in t.groupby(["test", "alpha"], sort=False):
        lines += [f"\n## {label}, α = {alpha:g}\n\n", _real_vs_balanced_markdown(g), "\n"]
    md = folder / f"{name}.md"
    md.write_text("".join(lines), encoding="utf-8")
    paths[f"{name}.md"] = md
    return paths


# ---------------------------------------------------------------------------
# bayesian_hierarchical: the hierarchical and signed-rank tests over data sets

def _rate_text(rate, se, n) -> str:
    """``"4.0 (1.4)"``: a decision rate and its Monte Carlo SE in percent; with none or
    all of n comparisons deciding (SE 0), the one-sided 95% bound instead: ``"0 (≤ 14)"``."""
    if not np.isfinite(rate):
        return ""
    k = int(round(rate * n))
    if k == 0:
        return f"0 (≤ {100 * (1 - 0.05 ** (1 / n)):.0f})"
    if k == n:
        return f"100 (≥ {100 * 0.05 ** (1 / n):.0f})"
    return f"{100 * rate:.1f} ({100 * se:.1f})"


def _hier_sources(t, scores, sname, pair) -> pd.DataFrame:
    """Per source: its name in words and the mean difference A − B over its data sets."""
    from ..plotting._names import source_words
    rows = []
    for src in dict.fromkeys(t["source"]):
        x = scores.difference(src, sname, pair).mean(axis=(1, 2))      # per data set
        rows.append({"source": src, "name": source_words(t[t["source"] == src].iloc[0]),
                     "difference": float(x.mean()),
                     "difference_se": float(x.std(ddof=1) / np.sqrt(x.size)),
                     "sd": float(x.std(ddof=1)), "n_datasets": int(x.size)})
    return pd.DataFrame(rows)


def _hier_pivot(t, value, cols, srcs) -> pd.DataFrame:
    """Rows (source, q), one column per ``cols`` entry (name, selector), cells
    ``value(row)`` of the one row each selector keeps."""
    out = []
    for s in srcs.itertuples():
        for q in sorted(set(t["datasets_per_comparison"])):
            g = t[(t["source"] == s.source) & (t["datasets_per_comparison"] == q)]
            row = {"source": s.name.replace(" (learners equally good)", ""), "q": int(q),
                   "comparisons": int(g["n_comparisons"].iloc[0])}
            for name, pick in cols:
                h = pick(g)
                row[name] = value(h.iloc[0]) if len(h) else ""
            out.append(row)
    return pd.DataFrame(out)


def _hier_select(test, rope, th, rho="1/k"):
    """The rows of one test, ROPE and threshold (and ρ, for the hierarchical test)."""
    def pick(g):
        keep = (g["test"] == test) & np.isclose(g["rope"], rope) & np.isclose(g["threshold"], th)
        if test == "hierarchical":
            keep &= g["rho"].astype(str) == rho
        return g[keep]
    return pick


def _bayesian_hierarchical(*, study, tables, scores, folder, wall=None, calibrations=None):
    """The decision-rate, replicability and ρ tables of ``studies/bayesian_hierarchical.toml``
    in one Markdown file, ``<study>_decision_rate.md`` (the tidy table and the figure are
    the engine's ``<study>_<analysis>.csv`` and ``.png``)."""
    a = next((x for x in study.analyses if x.kind == "bayes_datasets"), None)
    if a is None or a.name not in tables:
        raise ValueError(f"study {study.name!r}: the bayesian_hierarchical layout needs a "
                         "bayes_datasets analysis.")
    t = tables[a.name]
    pair = tuple(a.pairs[0])
    srcs = _hier_sources(t, scores, a.schemes[0][1], pair)
    names = {"naive_bayes": "naive Bayes", "c45": "C4.5"}
    pa, pb = (names.get(v, v) for v in pair)
    tests = [x for x in ("hierarchical", "signed_rank") if x in set(t["test"])]
    short = {"hierarchical": "hierarchical", "signed_rank": "signed-rank"}
    k = int(t["n_folds"].iloc[0])
    r = int(t["n_runs"].iloc[0])

    def rate(row):
        return _rate_text(row["decision_rate"], row["mc_se"], int(row["n_comparisons"]))

    def rep(row):
        return f"{row['R']:.2f} ({row['R_se']:.2f})" if np.isfinite(row["R"]) else ""

    def cols(th):
        return [(f"{short[x]}, ROPE {100 * rope:g}", _hier_select(x, rope, th))
                for rope in a.ropes for x in tests]

    hier = t[t["test"] == "hierarchical"]
    rhos = list(dict.fromkeys(zip(hier["rho"].astype(str), hier["rho_value"])))

    def rho_cols(th):
        return [(f"ROPE {100 * rope:g}, ρ = {rho}" + ("" if rho == "1/k" else f" = {v:.3f}"),
                 _hier_select("hierarchical", rope, th, rho))
                for rope in a.ropes for rho, v in rhos]

    poor = hier.groupby(hier["rho"].astype(str), sort=False)["poor_diagnostics"].max()
    source_table = pd.DataFrame({
        "source": srcs["name"], "data sets": srcs["n_datasets"],
        "mean difference A − B, points (SE)": [
            f"{round(100 * d, 2) + 0.0:+.2f} ({100 * e:.2f})"        # never "-0.00"
            for d, e in zip(srcs["difference"], srcs["difference_se"])],
        "its SD over the data sets, points": (100 * srcs["sd"]).map("{:.2f}".format)})
    lines = [
        f"# {study.title}\n\n",
        f"{pa} (A) against {pb} (B), {r} runs of {k}-fold cv per data set (seed "
        f"{study.seed}). Each comparison takes q data sets of one source (consecutive, never "
        "shared between comparisons) and asks whether A or B is better beyond the ROPE: the "
        "hierarchical test (Corani et al. 2017) on the per-fold differences, the Bayesian "
        "signed-rank test (Benavoli et al. 2014) on each data set's mean difference. The "
        "**decision rate** is the share of comparisons in which P(A better) or P(B better) "
        "reaches the threshold; on the null source, where the learners are equally good on "
        "every data set, every decision is an error. Cells: decision rate in percent with its "
        "Monte Carlo standard error; where no (or every) comparison decided, the one-sided 95% "
        "upper (lower) bound on the rate instead. ROPE half-widths are in accuracy points. "
        f"Every number is in `{study.name}_{a.name}.csv`; the figure is "
        f"`{study.name}_{a.name}.png`. {study.datasets_sampler_text()}\n",
        "\n## The sources\n\n",
        "A calibration is only as good as its null: the mean difference of the learners over "
        "each source's data sets (all runs), with its standard error.\n\n",
        source_table.to_markdown(index=False), "\n"]
    for th in a.thresholds:
        lines += [f"\n## Decision rate (%) at threshold {th:g}, ρ = 1/k\n\n",
                  _hier_pivot(t, rate, cols(th), srcs).to_markdown(index=False), "\n"]
    wrong = []
    for x in srcs.itertuples():
        g = t[(t["source"] == x.source) & (t["group"] != "null")]
        if len(g) and x.difference != 0:
            col = "rate_a_better" if x.difference < 0 else "rate_b_better"
            wrong.append(float(g[col].max()))
    if wrong:
        lines += [f"\nOn the BAN sources a decision for the learner that is worse on the "
                  f"source (the sign of its mean difference) was made in at most "
                  f"{100 * max(wrong):.1f}% of the comparisons of any cell.\n"]
    lines += [f"\n## Replicability R over {a.repeats} repeats with new partitions, "
              "ρ = 1/k\n\n",
              "Bouckaert & Frank's (2004) R of the decision \"a learner is better\": the "
              "probability that two repeats of a comparison on the same data sets with new cv "
              "partitions agree (1: always), with its standard error.\n"]
    for th in a.thresholds:
        lines += [f"\n### Threshold {th:g}\n\n",
                  _hier_pivot(t, rep, cols(th), srcs).to_markdown(index=False), "\n"]
    if len(rhos) > 1:
        lines += ["\n## The hierarchical test at ρ = 1/k and at the calibrated ρ: decision "
                  "rate (%)\n\n",
                  "'calibrated' is the shipped rho table's ρ for the correlated Bayesian t "
                  f"test on one data set of {r}x{k} cv at threshold {a.thresholds[0]:g} and "
                  f"ROPE {100 * a.ropes[0]:g} (`calibsim.lookup_rho`), measured here on the "
                  "same comparisons (first repeat). Share of fits with poor sampler "
                  "diagnostics (R-hat > 1.01, bulk ESS < 400 or a divergent transition), "
                  "largest over the cells: "
                  + ", ".join(f"ρ = {x}: {100 * v:.1f}%" for x, v in poor.items()) + ".\n"]
        for th in a.thresholds:
            lines += [f"\n### Threshold {th:g}\n\n",
                      _hier_pivot(t, rate, rho_cols(th), srcs).to_markdown(index=False),
                      "\n"]
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    md = folder / f"{study.name}_decision_rate.md"
    md.write_text("".join(lines), encoding="utf-8")
    return {"decision_rate.md": md}


# ------------------------------------------------------------------------------
# cv inference, 1998-2023: the tests of the five papers beside the newer ones
# ------------------------------------------------------------------------------

#: The bootstrap cv design of the study, in words (its scheme ``boot``).
BOOT_DESIGN = "bootstrap cv, 20 samples × 5 splits"

#: Test -> (design in words, short label of the test). Table order.
TESTS = {
    "use_all_data": ("10 × 10 cv", "use all data (Bouckaert 2003)"),
    "corrected_repeated_cv": ("10 × 10 cv", "corrected repeated cv t (Bouckaert & Frank 2004)"),
    "kfold_cv": ("10-fold cv, one run", "10-fold cv t (Dietterich 1998)"),
    "bayle_cv_clt": ("10-fold cv, one run", "cv CLT test (Bayle et al. 2020)"),
    "resampling": ("10 × 90/10 subsampling", "resampled t (Dietterich 1998)"),
    "corrected_resampling": ("10 × 90/10 subsampling",
                             "corrected resampled t (Nadeau & Bengio 2003)"),
    "cv5x2_t": ("5 × 2 cv", "5x2cv t (Dietterich 1998)"),
    "cv5x2_f": ("5 × 2 cv", "5x2cv F (Alpaydın 1999)"),
    "mcnemar": ("one 2/3 – 1/3 hold-out", "McNemar (Dietterich 1998)"),
    "proportions": ("one 2/3 – 1/3 hold-out", "difference of proportions (Dietterich 1998)"),
    "ncv": ("5 × nested 5-fold cv", "NCV (Bates, Hastie & Tibshirani 2023)"),
    "bootstrap_cv": (BOOT_DESIGN, "bootstrap cv (Cai et al. 2023)"),
    "bootstrap_cv_unadjusted": (BOOT_DESIGN, "unadjusted bootstrap cv (Cai et al. 2023)"),
}

#: Tests whose reference distribution has a df (the calibrate analysis calibrates it).
DF_TESTS = ("resampling", "corrected_resampling", "kfold_cv", "corrected_repeated_cv",
            "use_all_data", "cv5x2_t", "cv5x2_f")

#: Designs in the order of the recommendation table (cheapest first).
DESIGNS = ("one 2/3 – 1/3 hold-out", "10-fold cv, one run", "10 × 90/10 subsampling",
           "5 × 2 cv", "5 × nested 5-fold cv", "10 × 10 cv", BOOT_DESIGN)


def _source_name(row) -> str:
    """``"null"`` or ``"Set 2"``."""
    if row["group"] == "null":
        return "null"
    return "Set " + str(row["network"]).replace("set", "")


def _fits(study, row) -> int:
    """Fits per data set and comparison: both learners on every split the test reads."""
    scheme = study.scheme(row["scheme"])
    test, r = row["test"], int(row["n_runs"])
    if scheme.kind == "repeated_kfold":
        splits = (1 if test in ("kfold_cv", "bayle_cv_clt") else r) * scheme.p["n_folds"]
    elif scheme.kind == "nested":
        splits = r * int(scheme.split_shape[1])
    elif scheme.kind == "cv5x2":
        splits = 10
    elif scheme.kind == "holdout":
        splits = 1
    elif scheme.kind == "bootstrap_cv":       # the estimate's splits and the samples'
        splits = (1 + scheme.p["n_bootstrap"]) * scheme.p["n_splits"]
    else:
        splits = r
    return 2 * splits


def _binom_se(alpha, n) -> float:
    """Monte Carlo SE of a rejection rate at α over n data sets (the null's SE)."""
    return float(np.sqrt(alpha * (1 - alpha) / n))


def _differences(study, scores, sources, pair) -> dict:
    """Source -> (mean accuracy difference A − B over its data sets, its SE), from the
    10 × 10 cv scores (all runs)."""
    sname = next(s.name for s in study.schemes if s.kind == "repeated_kfold")
    out = {}
    for src in sources:
        x = scores.difference(src, sname, pair)
        m = x.reshape(x.shape[0], -1).mean(axis=1)
        out[src] = (float(m.mean()), float(m.std(ddof=1) / np.sqrt(m.size)))
    return out


def _rate_at(study, scores, row, df) -> tuple:
    """(rate, MC SE) of ``row``'s test at ``df`` on its source's data sets (the first
    group of runs, as the rejection-rate analyses read it)."""
    func = study.test_callable(row["test"], row["src"], row["scheme"])
    x = study.test_data(scores, row["src"], row["scheme"], row["test"], row["pair"],
                        int(row["n_runs"]))
    p = np.asarray(func(x, df).pvalue, dtype=float)
    rate = float(np.mean(p <= row["alpha"]))
    return rate, float(np.sqrt(rate * (1 - rate) / p.size))


def _share_at_bound(study, scores, row, pair) -> float:
    """The share of ``row``'s data sets (first repeat) on which the bootstrap cv test's
    random-effects fit is at its boundary, where its standard error is the stated bound
    (:func:`calibsim.stats.bootstrap_cv_test`)."""
    func = study.test_callable(row["test"], row["source"], row["scheme"])
    x = study.test_data(scores, row["source"], row["scheme"], row["test"], pair,
                        int(row["n_runs"]))
    return float(np.mean(func(x).at_bound))


def cv_summary_table(study, tables, scores) -> pd.DataFrame:
    """One row per source, n and test: every measure of the study, tidy.

    Columns: ``source`` (null, Set 1 ... Set 4), ``n`` (instances), ``learner_a`` and
    ``learner_b`` (the pair's names), ``difference`` and ``difference_se`` (accuracy
    A − B over the data sets), ``test``, ``label``,
    ``design``, ``fits`` (per data set), ``df_textbook``, ``rate_textbook`` (rejection
    rate at the textbook df, or at none) and ``se_textbook``; ``df_calibrated``,
    ``rate_calibrated``, ``se_calibrated``: at the df calibrated on the null at the
    calibration's n (300), used at every n (Bouckaert's one table); ``df_at_n``,
    ``rate_at_n``, ``se_at_n``: at the df calibrated on the null at the row's own n (on
    the null itself the honest check: the df calibrated on one half of the data sets,
    its Type I error on the other half); ``rate_used``, ``se_used``: ``rate_at_n`` where
    the test has a df, else the test's own rate; ``R`` and ``R_se`` (replicability at
    the df of n = 300, or at none); ``coverage_null`` (on the null, 1 − ``rate_used``:
    the coverage of the true difference 0 by the interval that inverts the two-sided
    test); ``share_at_bound`` (the bootstrap cv tests: the share of data sets whose
    random-effects variance component is estimated at 0, where the standard error is
    the stated bound); ``n_datasets``. NaN where a column does not apply (no df, no
    repeats, not the bootstrap cv).
    """
    rates = pd.concat([tables[k] for k in ("textbook", "holdout", "ncv", "bootstrap")
                       if k in tables], ignore_index=True)
    cal = tables["calibrated"].set_index(["source", "test"])
    rep = pd.concat([tables[k] for k in ("replicability", "replicability_clt",
                                         "replicability_ncv", "replicability_bootstrap")
                     if k in tables], ignore_index=True)
    rep = rep.set_index(["source", "test"])
    fresh = _fresh(tables).set_index(["n", "test"])
    pair = (rates["pair_a"].iloc[0], rates["pair_b"].iloc[0])
    diffs = _differences(study, scores, list(dict.fromkeys(rates["source"])), pair)
    from ..plotting import display_name
    names = [display_name(x) for x in pair]
    has_boot = "bootstrap" in tables
    rows = []
    for _, r in rates.iterrows():
        key = (r["source"], r["test"])
        n = int(r["n_instances"])
        c = cal.loc[key] if key in cal.index else None
        p = rep.loc[key] if key in rep.index else None
        at = dict(df=np.nan, rate=np.nan, se=np.nan)
        if (n, r["test"]) in fresh.index:
            f = fresh.loc[(n, r["test"])]
            if r["group"] == "null":
                at = dict(df=f["df_at_n"], rate=f["fresh_type1"], se=f["fresh_mc_se"])
            else:
                rate, se = _rate_at(study, scores, {**r.to_dict(), "src": r["source"],
                                                    "pair": pair}, f["df_at_n"])
                at = dict(df=f["df_at_n"], rate=rate, se=se)
        has_df = r["test"] in DF_TESTS
        used = at["rate"] if has_df else r["rate"]
        used_se = at["se"] if has_df else r["mc_se"]
        d, dse = diffs[r["source"]]
        rows.append({
            "source": _source_name(r), "n": n, "learner_a": names[0], "learner_b": names[1],
            "difference": d, "difference_se": dse,
            "test": r["test"], "label": TESTS[r["test"]][1], "design": TESTS[r["test"]][0],
            "fits": _fits(study, r),
            "df_textbook": r["df"] if has_df else np.nan,
            "rate_textbook": r["rate"], "se_textbook": r["mc_se"],
            "df_calibrated": c["df"] if c is not None else np.nan,
            "rate_calibrated": c["rate"] if c is not None else np.nan,
            "se_calibrated": c["mc_se"] if c is not None else np.nan,
            "df_at_n": at["df"], "rate_at_n": at["rate"], "se_at_n": at["se"],
            "rate_used": used, "se_used": used_se,
            "R": p["R"] if p is not None else np.nan,
            "R_se": p["R_se"] if p is not None else np.nan,
            "coverage_null": 1 - used if r["group"] == "null" else np.nan,
            **({"share_at_bound": _share_at_bound(study, scores, r, pair)
                if r["test"].startswith("bootstrap_cv") else np.nan} if has_boot else {}),
            "n_datasets": int(r["n"])})
    t = pd.DataFrame(rows)
    order = {k: i for i, k in enumerate(TESTS)}
    src = {k: i for i, k in enumerate(["null", "Set 1", "Set 2", "Set 3", "Set 4"])}
    return t.sort_values(["n", "source", "test"], kind="stable", ignore_index=True,
                         key=lambda c: c.map(order) if c.name == "test" else
                         c.map(src) if c.name == "source" else c)


def _fresh(tables) -> pd.DataFrame:
    """The calibrate analysis per n and test: df calibrated on that n's null, and the
    Type I error of the df calibrated on half of the data sets, on the other half."""
    c = tables["calibration"]
    return pd.DataFrame({
        "n": c["n_instances"].astype(int), "test": c["test"],
        "df_at_n": c["calibrated_df"], "df_at_n_continuous": c["df_continuous"],
        "df_at_n_low": c["df_ci_low"], "df_at_n_high": c["df_ci_high"],
        "fresh_df": c["fresh_df"], "fresh_type1": c["fresh_type1"],
        "fresh_mc_se": c["fresh_mc_se"], "textbook_df": c["default_df"],
        "type1_textbook": c["type1_default"]})


def _cv_pct(v, se=None, digits=1) -> str:
    if v is None or not np.isfinite(v):
        return "—"
    return f"{100 * v:.{digits}f}" + ("" if se is None or not np.isfinite(se)
                                      else f" ({100 * se:.{digits}f})")


def _cv_df_text(v, digits=None) -> str:
    """A df in words: ``∞`` for the normal limit, ``none`` where there is none."""
    if v is not None and v == np.inf:
        return "∞"
    if v is None or not np.isfinite(v):
        return "none"
    return f"{v:.{digits}f}" if digits is not None else f"{v:g}"


def _valid(rate, n, alpha) -> bool:
    """The rule: a Type I error at most α + 2 Monte Carlo SE (binomial SE at α)."""
    return bool(np.isfinite(rate) and rate <= alpha + 2 * _binom_se(alpha, n))


def table_at(t, n) -> pd.DataFrame:
    """The must-show table at ``n``: per test, Type I error on the null and power on
    Sets 2–4, at the textbook df and at the df calibrated at this n (on the null: the
    honest check on the half of the data sets the df was not calibrated on); the rate
    on Set 1 (nearly equal learners); replicability; coverage of 0 on the null; cost."""
    g = t[t["n"] == n]
    rows = []
    for test in TESTS:
        h = g[g["test"] == test].set_index("source")
        if h.empty:
            continue
        null = h.loc["null"]
        has_df = test in DF_TESTS
        row = {"test": TESTS[test][1], "design": TESTS[test][0],
               "fits": str(int(null["fits"])),
               "df: textbook, calibrated": (f"{_cv_df_text(null['df_textbook'])}, "
                                            f"{_cv_df_text(null['df_at_n'])}"
                                            if has_df else "none"),
               "Type I %, textbook df": _cv_pct(null["rate_textbook"], null["se_textbook"]),
               "Type I %, calibrated df": (_cv_pct(null["rate_at_n"], null["se_at_n"])
                                           if has_df else "—")}
        for s in ("Set 1", "Set 2", "Set 3", "Set 4"):
            if s not in h.index:
                continue
            x = h.loc[s]
            what = "rate" if s == "Set 1" else "power"
            row[f"{s} {what} %: textbook → calibrated"] = (
                f"{_cv_pct(x['rate_textbook'])} → {_cv_pct(x['rate_at_n'])}" if has_df
                else _cv_pct(x["rate_textbook"]))
        sets = h.loc[[s for s in ("Set 2", "Set 3", "Set 4") if s in h.index]]
        row["R (null)"] = "—" if not np.isfinite(null["R"]) else f"{null['R']:.2f}"
        row["R (Sets 2–4, mean)"] = ("—" if not np.isfinite(sets["R"]).any()
                                     else f"{sets['R'].mean():.2f}")
        row["coverage of 0 on the null %"] = _cv_pct(null["coverage_null"])
        rows.append(row)
    return pd.DataFrame(rows)


def transfer_table(t) -> pd.DataFrame:
    """Type I error on the null of the df calibrated at n = 300, at every n (Bouckaert's
    one table for every n), beside the textbook df's and the df each n gets itself."""
    g = t[(t["source"] == "null") & t["test"].isin(DF_TESTS)]
    rows = []
    for test in DF_TESTS:
        h = g[g["test"] == test].sort_values("n")
        if h.empty:
            continue
        row = {"test": TESTS[test][1]}
        for _, r in h.iterrows():
            row[f"n = {r['n']}: df"] = (f"{_cv_df_text(r['df_textbook'])} / "
                                        f"{_cv_df_text(r['df_calibrated'])} / "
                                        f"{_cv_df_text(r['df_at_n'])}")
            row[f"n = {r['n']}: Type I %"] = (f"{_cv_pct(r['rate_textbook'])} / "
                                              f"{_cv_pct(r['rate_calibrated'])} / "
                                              f"{_cv_pct(r['rate_at_n'])}")
        rows.append(row)
    return pd.DataFrame(rows)


def _calibration_n(t, fresh) -> int:
    """The n the study's df are calibrated at: the first source of its calibrate analysis."""
    return int(fresh["n"].iloc[0])


def recommendations(t, alpha) -> pd.DataFrame:
    """Which test for which design and n, by a stated rule.

    Among the tests a design feeds, those whose Type I error on the null at the df they
    are used with (calibrated where there is one) is at most α + 2 Monte Carlo SE are
    valid; the valid test with the highest mean power over Sets 2–4 is recommended
    (within 1 point, the higher R, then the fewer fits). Returns one row per design,
    one column per n, cells in words.
    """
    ns = sorted(set(t["n"]))
    out = []
    for design in DESIGNS + ("any design",):
        row = {"design": design}
        for n in ns:
            g = t[t["n"] == n]
            if design != "any design":
                g = g[g["design"] == design]
            cands = []
            for test, h in g.groupby("test", sort=False):
                h = h.set_index("source")
                null = h.loc["null"]
                power = h.loc[[s for s in ("Set 2", "Set 3", "Set 4") if s in h.index],
                              "rate_used"].mean()
                r = h["R"].mean() if np.isfinite(h["R"]).any() else -1.0
                cands.append((test, null["rate_used"], int(null["n_datasets"]), power, r,
                              int(null["fits"])))
            valid = [c for c in cands if _valid(c[1], c[2], alpha)]
            if not cands:
                row[f"n = {n}"] = "—"
                continue
            if not valid:
                least = min(cands, key=lambda c: c[1])
                row[f"n = {n}"] = (f"none keeps α (least bad: {TESTS[least[0]][1]}, "
                                   f"Type I {_cv_pct(least[1])}%)")
                continue
            best_power = max(c[3] for c in valid)
            near = [c for c in valid if c[3] >= best_power - 0.01]
            best = sorted(near, key=lambda c: (-c[4], c[5]))[0]
            df = "calibrated df, " if best[0] in DF_TESTS else ""
            where = f" on {TESTS[best[0]][0]}" if design == "any design" else ""
            row[f"n = {n}"] = (f"{TESTS[best[0]][1]}{where} ({df}Type I {_cv_pct(best[1])}%, "
                               f"power {_cv_pct(best[3])}%"
                               + (f", R {best[4]:.2f}" if best[4] >= 0 else "") +
                               f", {best[5]} fits)")
        out.append(row)
    return pd.DataFrame(out)


def _style(i, n):
    from ..plotting import series_style
    return series_style(i, line=False, n=n)


def figure_at(t, n, alpha, reduced=None):
    """Type I error and power at one n: a panel per source, a point per test at its
    textbook df (or none) and at its calibrated df."""
    from ..plotting import finish_figure, new_figure
    from ..plotting._style import legend_outside
    g = t[t["n"] == n]
    tests = [x for x in TESTS if x in set(g["test"])]
    sources = [s for s in ("null", "Set 2", "Set 3", "Set 4") if s in set(g["source"])]
    if len(tests) * len(sources) < 5:
        return None
    fig, axes = new_figure(len(sources), n_cols=2, panel_size=(6.2, 3.4))
    names = [TESTS[x][1].split(" (")[0] for x in tests]
    x = np.arange(len(tests))
    nds = int(g["n_datasets"].max())
    for ax, src in zip(axes, sources):
        h = g[g["source"] == src].set_index("test").loc[tests]
        for j, (col, se, lab) in enumerate((
                ("rate_textbook", "se_textbook", "textbook df (or no df)"),
                ("rate_at_n", "se_at_n", f"df calibrated on the null at n = {n}"))):
            y = 100 * h[col].to_numpy(dtype=float)
            e = 200 * h[se].to_numpy(dtype=float)
            ok = np.isfinite(y)
            ax.errorbar(x[ok] + (j - 0.5) * 0.22, y[ok], yerr=e[ok], capsize=2, label=lab,
                        **_style(j, 2))
        if src == "null":
            ax.axhline(100 * alpha, color="0.35", lw=0.9, ls=":", gid="reference",
                       label=f"α = {100 * alpha:g}% (nominal level)")
        d = h["difference"].iloc[0]
        better = h["learner_b"].iloc[0] if d < 0 else h["learner_a"].iloc[0]
        what = ("Type I error" if src == "null" else
                f"power; {better} better by {abs(100 * d):.1f} points")
        ax.set_title(f"{'null data' if src == 'null' else src}: {what}", fontsize=9)
        ax.set_xticks(x, names, rotation=35, ha="right", fontsize=7)
        ax.set_xlabel("test")
        ax.set_ylabel("rejection rate (%)")
        ax.grid(axis="y", lw=0.3, alpha=0.5)
    legend_outside(fig, axes)
    finish_figure(fig, f"Type I error and power of every test at n = {n}: naive Bayes vs "
                       "C4.5, α = 5%",
                  subtitle=f"{nds} data sets per source; on the null, the calibrated df's "
                           "Type I error on the half of the data sets it was not calibrated on",
                  error_bars="±2 Monte Carlo SE", reduced=reduced)
    return fig


def _cal_n_label(t) -> str:
    return str(t.attrs.get("calibration_n", 300))


def figure_type1_vs_n(t, alpha, reduced=None):
    """Type I error on the null against n, at the df each test is used with."""
    from ..plotting import finish_figure, new_figure, share_y
    from ..plotting._style import legend_outside
    g = t[t["source"] == "null"]
    groups = [[x for x in ("use_all_data", "corrected_repeated_cv", "kfold_cv",
                           "bayle_cv_clt", "ncv") if x in set(g["test"])],
              [x for x in ("resampling", "corrected_resampling", "cv5x2_t", "cv5x2_f",
                           "mcnemar", "proportions", "bootstrap_cv", "bootstrap_cv_unadjusted")
               if x in set(g["test"])]]
    ns = sorted(set(g["n"]))
    if len(ns) * len(groups[0]) < 5:
        return None
    fig, axes = new_figure(2, n_cols=2, panel_size=(5.2, 3.6))
    k = 0
    boot = " and bootstrap cv" if "bootstrap_cv" in groups[1] else ""
    for ax, tests, title in zip(axes, groups, ("tests on 10-fold cv, 10 × 10 cv and "
                                               "nested cv", "tests on subsampling, 5 × 2 cv"
                                               + (", one hold-out split" + boot if boot else
                                                  " and one hold-out split"))):
        for test in tests:
            h = g[g["test"] == test].sort_values("n")
            used = "df calibrated at n" if test in DF_TESTS else "no df"
            ax.errorbar(h["n"], 100 * h["rate_used"], yerr=200 * h["se_used"], capsize=2,
                        label=f"{TESTS[test][1].split(' (')[0]} ({used})",
                        **{**_style(k, 11), "ls": "-"})
            k += 1
        ax.axhline(100 * alpha, color="0.35", lw=0.9, ls=":", gid="reference",
                   label=f"α = {100 * alpha:g}% (nominal level)")
        ax.set_xscale("log")
        ax.set_xticks(ns, [str(v) for v in ns])
        ax.minorticks_off()
        ax.set_xlabel("instances per data set n")
        ax.set_ylabel("Type I error (%)")
        ax.set_title(title, fontsize=9)
        ax.grid(axis="y", lw=0.3, alpha=0.5)
    share_y(axes, "null")
    legend_outside(fig, axes, ncols=2)
    nds = int(g["n_datasets"].max())
    finish_figure(fig, "Type I error against the number of instances on Bouckaert's null "
                       "(naive Bayes vs C4.5, equally good), α = 5%",
                  subtitle=f"{nds} data sets per n; the df calibrated on half of each "
                           "n's null data sets, its Type I error on the other half",
                  error_bars="±2 Monte Carlo SE", reduced=reduced)
    return fig


def _cv_save(fig, path: Path) -> Path:
    from ..plotting import save_figure
    import matplotlib.pyplot as plt
    save_figure(fig, path)
    plt.close(fig)
    return path


def _summary_words(t, alpha, n_show) -> str:
    """What the study shows at ``n_show``, from its table."""
    g = t[(t["n"] == n_show) & (t["source"] == "null")]
    over = [TESTS[r.test][1].split(" (")[0] for r in g.itertuples()
            if not _valid(r.rate_textbook, r.n_datasets, alpha)]
    over_cal = [TESTS[r.test][1].split(" (")[0] for r in g.itertuples()
                if r.test in DF_TESTS and not _valid(r.rate_at_n, r.n_datasets, alpha)]
    clt = g[g["test"] == "bayle_cv_clt"]
    ncv = g[g["test"] == "ncv"]
    text = (f"At n = {n_show} on Bouckaert's null, the tests whose Type I error exceeds α + 2 "
            f"Monte Carlo SE at their textbook df (or with no df) are: "
            f"{', '.join(over) if over else 'none'}; at the calibrated df: "
            f"{', '.join(over_cal) if over_cal else 'none'}.")
    if len(clt):
        text += (f" The cv CLT test rejects {_cv_pct(clt['rate_used'].iloc[0])}% of the null "
                 "data sets: it targets this data set's k-fold error, which differs between "
                 "two learners by chance even when they are equally good on average.")
    if len(ncv):
        text += f" NCV rejects {_cv_pct(ncv['rate_used'].iloc[0])}%."
    boot = g[g["test"] == "bootstrap_cv"]
    if len(boot):
        text += (f" The bootstrap cv test rejects {_cv_pct(boot['rate_used'].iloc[0])}% "
                 f"(unadjusted: "
                 f"{_cv_pct(g.loc[g['test'] == 'bootstrap_cv_unadjusted', 'rate_used'].iloc[0])}"
                 "%), with 20 bootstrap samples of 5 splits: the cost of 10 × 10 cv, where "
                 "Cai et al. use several hundred samples. Its variance component is "
                 f"estimated at 0 on {_cv_pct(boot['share_at_bound'].iloc[0])}% of these data "
                 "sets, where its standard error is the stated bound.")
    return text


def write_main(*, study, tables, scores, folder, wall=None, calibrations=None) -> dict:
    """Tables, figures and report of ``studies/cv_inference_1998_2023.toml``."""
    need = {"calibration", "textbook", "holdout", "ncv", "calibrated", "replicability",
            "replicability_clt", "replicability_ncv", "bootstrap", "replicability_bootstrap"}
    missing = need - set(tables)
    if missing:
        raise ValueError(f"study {study.name!r}: the cv_inference layout needs the analyses "
                         f"{sorted(need)}; missing {sorted(missing)}.")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    alpha = float(tables["textbook"]["alpha"].iloc[0])
    t = cv_summary_table(study, tables, scores)
    fresh = _fresh(tables)
    t.attrs["calibration_n"] = _calibration_n(t, fresh)
    reduced = int(t["n_datasets"].max()) if study.reduced else None
    paths = {}
    csv = folder / f"{study.name}_summary.csv"
    t.to_csv(csv, index=False, float_format="%.6g")
    paths["summary.csv"] = csv
    rec = recommendations(t, alpha)
    rec_csv = folder / f"{study.name}_recommendation.csv"
    rec.to_csv(rec_csv, index=False)
    paths["recommendation.csv"] = rec_csv
    ns = sorted(set(t["n"]))
    n_show = 300 if 300 in ns else ns[0]
    fig = figure_at(t, n_show, alpha, reduced)
    if fig is not None:
        paths["at_n.png"] = _cv_save(fig, folder / f"{study.name}_n{n_show}.png")
    fig = figure_type1_vs_n(t, alpha, reduced)
    if fig is not None:
        paths["type1_vs_n.png"] = _cv_save(fig, folder / f"{study.name}_type1_vs_n.png")
    md = folder / f"{study.name}.md"
    md.write_text(_report(study, t, fresh, rec, alpha, n_show), encoding="utf-8")
    paths["report.md"] = md
    return paths


def _report(study, t, fresh, rec, alpha, n_show) -> str:
    nds = int(t["n_datasets"].max())
    cal_n = _calibration_n(t, fresh)
    lines = [
        f"# {study.title}\n\n",
        f"Naive Bayes (A) against C4.5 (B) at α = {alpha:g}, {nds} data sets per source and "
        f"n (seed {study.seed}). Sources: Bouckaert's (2003) null (10 binary attributes "
        "independent of the class, prior 0.5: the learners are equally good, every "
        "rejection is a Type I error) and his four BAN sources (Set 1: nearly equal "
        "learners; Sets 2–4: one learner better; the mean accuracy difference of each "
        "source is given beside it). Rates are percentages with their Monte Carlo SE. "
        "The df of the t and F tests are calibrated by the engine's calibrate analysis on "
        "the null at each n (Bouckaert's rule: the smallest df at which the Type I error "
        "is at most α), as a user calibrates at the size of their own data; on the null "
        "the calibrated df's Type I error is the honest one, the df calibrated on one half "
        "of the data sets checked on the other half (in-sample it is at most α by "
        "construction). The tests on each instance's outcome (cv CLT, NCV), McNemar's and "
        "the difference of proportions have no df to calibrate (a normal or χ²₁ "
        "reference). **Replicability** R is Bouckaert & Frank's (2004): the probability "
        "that two runs of the same test on the same data set with new partitions agree, "
        "estimated from two repeats per data set, at the df calibrated at "
        f"n = {cal_n} (or none). "
        "**Coverage**: on the null the true difference is 0, and the interval obtained by "
        "inverting a two-sided test covers 0 exactly when the test does not reject, so "
        "its coverage is 1 − Type I error; on the BAN sources the true difference is "
        "drawn from each network by the companion study on the same data sets, "
        f"`{study.name}_coverage.toml`, whose report `{study.name}_coverage.md` gives the "
        "coverage of every interval per set and n. **Cost**: fits per data set "
        "and comparison (both learners, every split the test reads; NCV reads R = 5 "
        "repetitions of nested 5-fold cv, 15 fits per learner each — the authors use "
        "more, which makes NCV's interval steadier, not valid where it is not). Every "
        f"number is in `{study.name}_summary.csv`.\n\n",
        _summary_words(t, alpha, n_show), "\n\n",
        f"![Type I error and power at n = {n_show}]({study.name}_n{n_show}.png)\n\n",
        f"![Type I error against n]({study.name}_type1_vs_n.png)\n",
        f"\n## Type I error and power at n = {n_show}\n\n",
        "Type I error on the null, rejection rate on Set 1 (nearly equal learners) and "
        "power on Sets 2–4, at the textbook df and at the df calibrated at this n.\n\n",
        table_at(t, n_show).to_markdown(index=False, disable_numparse=True), "\n",
        "\n## Which test for which design and n\n\n",
        "The rule: a test is valid where its Type I error on the null, at the df it is "
        "used with (calibrated at the same n where it has one), is at most α + 2 Monte "
        "Carlo SE; among the valid tests of a design, the one with the highest mean power "
        "over Sets 2–4 is named (within 1 point, the higher R, then the fewer fits). "
        "'none keeps α' names the test closest to it.\n\n",
        rec.to_markdown(index=False, disable_numparse=True), "\n",
        "\n## The source differences\n\n",
        "Mean accuracy difference A − B (naive Bayes − C4.5) over the data sets, 10 × 10 "
        "cv, in points (SE):\n\n"]
    d = t.drop_duplicates(["source", "n"]).pivot(index="source", columns="n",
                                                  values="difference")
    dse = t.drop_duplicates(["source", "n"]).pivot(index="source", columns="n",
                                                    values="difference_se")
    dt = pd.DataFrame({f"n = {n}": [f"{100 * d.loc[s, n]:+.2f} ({100 * dse.loc[s, n]:.2f})"
                                    for s in d.index] for n in d.columns}, index=d.index)
    lines += [dt.reset_index().to_markdown(index=False, disable_numparse=True), "\n"]
    for n in sorted(set(t["n"])):
        if n == n_show:
            continue
        lines += [f"\n## Type I error and power at n = {n}\n\n",
                  table_at(t, n).to_markdown(index=False, disable_numparse=True), "\n"]
    f = fresh.sort_values("n", kind="stable", ignore_index=True)
    f["test"] = [TESTS[x][1] for x in f["test"]]
    f = pd.DataFrame({
        "n": f["n"], "test": f["test"], "textbook df": f["textbook_df"],
        "Type I % at textbook df": [_cv_pct(v) for v in f["type1_textbook"]],
        "df calibrated at this n": [_cv_df_text(v) for v in f["df_at_n"]],
        "continuous df [95%]": [f"{_cv_df_text(a, 2)} [{_cv_df_text(b, 2)}, {_cv_df_text(c, 2)}]"
                                for a, b, c
                                in zip(f["df_at_n_continuous"], f["df_at_n_low"],
                                       f["df_at_n_high"])],
        "fresh check: df on half 1": [_cv_df_text(v) for v in f["fresh_df"]],
        "fresh check: Type I % on half 2 (SE)": [_cv_pct(a, b) for a, b in
                                                 zip(f["fresh_type1"], f["fresh_mc_se"])]})
    lines += ["\n## The df calibrated at each n\n\n",
              "The calibrate analysis on the null at each n: the df each n gets, its "
              "continuous value with a 95% interval, and the fresh check (the df "
              "calibrated on one half of the data sets, its Type I error on the "
              "other).\n\n", f.to_markdown(index=False, disable_numparse=True), "\n",
              f"\n## One df table for every n? The df of n = {cal_n} at other n\n\n",
              f"Bouckaert (2003) calibrated his df at n = {cal_n} and used them for every "
              "data set. Type I error on the null of each test at the textbook df / the df "
              f"calibrated at n = {cal_n} / the df calibrated at the row's own n "
              f"(df in the same order; at n = {cal_n} the middle value is in-sample):\n\n",
              transfer_table(t).to_markdown(index=False, disable_numparse=True), "\n"]
    return "".join(lines)


def write_dietterich(*, study, tables, scores, folder, wall=None, calibrations=None) -> dict:
    """Type I error (λ = 0) and power (λ = 1) on Dietterich's tasks, for every companion
    study present in ``folder``: ``cv_inference_1998_2023_dietterich.md`` combines the
    task tables written so far (the letter study's and the Pima/EXP6 study's)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    rows = []
    for name, table in tables.items():
        if name.endswith("_calibrated"):
            continue
        cal = tables.get(f"{name}_calibrated")
        cal = cal.set_index(["pair_b", "test"]) if cal is not None else None
        for _, r in table.iterrows():
            key = (r["pair_b"], r["test"])
            c = cal.loc[key] if cal is not None and key in cal.index else None
            rows.append({"task": r["source"], "learners": f"{r['pair_a']} vs {r['pair_b']}",
                         "lambda": 0 if "lam000" in r["pair_b"] else 1,
                         "test": r["test"], "label": TESTS[r["test"]][1],
                         "rate_textbook": r["rate"], "se_textbook": r["mc_se"],
                         "df_calibrated": c["df"] if c is not None else np.nan,
                         "rate_calibrated": c["rate"] if c is not None else np.nan,
                         "se_calibrated": c["mc_se"] if c is not None else np.nan,
                         "n_datasets": int(r["n"])})
    own = pd.DataFrame(rows)
    csv = folder / f"{study.name}_tasks.csv"
    own.to_csv(csv, index=False, float_format="%.6g")
    paths = {"tasks.csv": csv}
    parts = sorted(folder.glob("cv_inference_1998_2023_*_tasks.csv"))
    t = pd.concat([pd.read_csv(p) for p in parts], ignore_index=True)
    order = {k: i for i, k in enumerate(TESTS)}
    t = t.sort_values(["task", "lambda", "test"], kind="stable", ignore_index=True,
                      key=lambda c: c.map(order) if c.name == "test" else c)
    out = []
    for (task, lam), g in t.groupby(["task", "lambda"], sort=False):
        for _, r in g.iterrows():
            out.append({"task": task, "λ": lam, "learners": r["learners"],
                        "test": r["label"],
                        ("Type I %" if lam == 0 else "power %") + ", textbook df":
                            _cv_pct(r["rate_textbook"], r["se_textbook"]),
                        ("Type I %" if lam == 0 else "power %") + ", calibrated df":
                            _cv_pct(r["rate_calibrated"], r["se_calibrated"])})
    md = folder / "cv_inference_1998_2023_dietterich.md"
    text = ["# Cross-validation inference 1998–2023 on Dietterich's (1998, §5) tasks\n\n",
            "Type I error (λ = 0: the damaged learner's mean error equals the other's) and "
            "power (λ = 1: undamaged) at α = 0.05, n = 300, "
            f"{int(t['n_datasets'].max())} data sets per task, with the literal damage "
            "curves of the dietterich1998 studies; the calibrated df are those of "
            "Bouckaert's null at n = 300 (studies/cv_inference_1998_2023.toml). Rates in "
            "percent (Monte Carlo SE). Tasks in this table: "
            f"{', '.join(sorted(set(t['task'])))}.\n\n"]
    for (task, lam), g in pd.DataFrame(out).groupby(["task", "λ"], sort=False):
        text += [f"\n## {task}, λ = {lam} ({g['learners'].iloc[0]})\n\n",
                 g.drop(columns=["task", "λ", "learners"]).dropna(axis=1, how="all")
                 .to_markdown(index=False, disable_numparse=True), "\n"]
    md.write_text("".join(text), encoding="utf-8")
    paths["dietterich.md"] = md
    return paths


def budget_table(study, tables, scores) -> pd.DataFrame:
    """Per bootstrap cv design of ``studies/cv_inference_1998_2023_bootstrap_budget.toml``
    (one rejection-rate analysis each) and test: ``design`` (B × C), ``n_bootstrap``,
    ``n_splits``, ``fits`` (per data set, both learners), ``test``, ``label``, ``rate``
    and ``mc_se`` (Type I error on the null), ``share_at_bound`` and ``n_datasets``."""
    rows = []
    for t in tables.values():
        for _, r in t.iterrows():
            p = study.scheme(r["scheme"]).p
            rows.append({"design": f"{p['n_bootstrap']} × {p['n_splits']}",
                         "n_bootstrap": p["n_bootstrap"], "n_splits": p["n_splits"],
                         "fits": _fits(study, r), "test": r["test"],
                         "label": TESTS[r["test"]][1], "rate": r["rate"], "mc_se": r["mc_se"],
                         "share_at_bound": _share_at_bound(
                             study, scores, r, (r["pair_a"], r["pair_b"])),
                         "n_datasets": int(r["n"])})
    return pd.DataFrame(rows).sort_values(["test", "fits", "n_splits"], kind="stable",
                                          ignore_index=True)


def figure_budget(t, alpha, reduced=None):
    """Type I error of the bootstrap cv tests against their number of bootstrap samples B,
    one line per test and number of splits C."""
    from ..plotting import finish_figure, new_figure
    from ..plotting._style import legend_outside
    fig, axes = new_figure(1, n_cols=1, panel_size=(6.2, 3.6))
    ax = axes[0]
    groups = list(t.groupby(["n_splits", "test"], sort=True))
    for k, ((c, test), g) in enumerate(groups):
        g = g.sort_values("n_bootstrap")
        dx = 1.0 + 0.03 * (k - (len(groups) - 1) / 2)      # apart, on the log axis
        ax.errorbar(g["n_bootstrap"] * dx, 100 * g["rate"], yerr=200 * g["mc_se"],
                    capsize=2, label=f"{TESTS[test][1].split(' (')[0]}, C = {c} splits",
                    **{**_style(k, len(groups)), "ls": "-"})
    ax.axhline(100 * alpha, color="0.35", lw=0.9, ls=":", gid="reference",
               label=f"α = {100 * alpha:g}% (nominal level)")
    bs = sorted(set(t["n_bootstrap"]))
    ax.set_xscale("log")
    ax.set_xticks(bs, [str(b) for b in bs])
    ax.minorticks_off()
    ax.set_xlabel("bootstrap samples B")
    ax.set_ylabel("Type I error (%)")
    ax.grid(axis="y", lw=0.3, alpha=0.5)
    legend_outside(fig, axes)
    finish_figure(fig, "Type I error of the bootstrap cv against its number of bootstrap "
                       "samples",
                  subtitle=f"Bouckaert's null at n = 300, α = 5%: naive Bayes vs C4.5, "
                           f"{int(t['n_datasets'].max())} data sets; every design reads the "
                           "same bootstrap draws",
                  error_bars="±2 Monte Carlo SE", reduced=reduced)
    return fig


def write_budget(*, study, tables, scores, folder, wall=None, calibrations=None) -> dict:
    """Table, figure and report of ``studies/cv_inference_1998_2023_bootstrap_budget.toml``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    alpha = float(next(iter(tables.values()))["alpha"].iloc[0])
    t = budget_table(study, tables, scores)
    reduced = int(t["n_datasets"].max()) if study.reduced else None
    csv = folder / f"{study.name}.csv"
    t.to_csv(csv, index=False, float_format="%.6g")
    paths = {"budget.csv": csv}
    paths["budget.png"] = _cv_save(figure_budget(t, alpha, reduced), folder / f"{study.name}.png")
    show = pd.DataFrame({
        "test": t["label"], "B × C": t["design"], "fits": t["fits"],
        "Type I % (SE)": [_cv_pct(a, b) for a, b in zip(t["rate"], t["mc_se"])],
        "keeps α (≤ α + 2 SE)": ["yes" if _valid(a, n, alpha) else "no"
                                 for a, n in zip(t["rate"], t["n_datasets"])],
        "data sets at the bound %": [_cv_pct(v) for v in t["share_at_bound"]]})
    ok = t[[_valid(a, n, alpha) for a, n in zip(t["rate"], t["n_datasets"])]]
    words = {test: ", ".join(g["design"]) for test, g in ok.groupby("test", sort=False)}
    lines = [f"# {study.title}\n\n",
             f"The bootstrap of the cv estimate (Cai et al. 2023) on {int(t['n_datasets'].max())}"
             f" of Bouckaert's null data sets at n = 300 (seed {study.seed}; naive Bayes "
             "against C4.5, equally good, so the true difference is 0 at every training "
             f"size), α = {alpha:g}, each design B bootstrap samples × C random 2/3 – 1/3 "
             "splits plus C splits of the data for the estimate. A design keeps α where its "
             "Type I error is at most α + 2 Monte Carlo SE (the comparison study's rule). "
             "Designs that keep α: "
             + "; ".join(f"{TESTS[k][1]}: {words.get(k, 'none')}"
                         for k in dict.fromkeys(t["test"])) + ". "
             f"Every number is in `{study.name}.csv`.\n\n",
             f"![Type I error against the number of bootstrap samples]({study.name}.png)\n\n",
             show.to_markdown(index=False, disable_numparse=True), "\n"]
    md = folder / f"{study.name}.md"
    md.write_text("".join(lines), encoding="utf-8")
    paths["report.md"] = md
    return paths


# ------------------------------------------------------------------------------
# cv inference: interval coverage on the BAN sets
# ------------------------------------------------------------------------------

def coverage_verdict(row) -> str:
    """``"under"``, ``"over"`` or ``"nominal"`` for one coverage row (see the module)."""
    conf = row["confidence"]
    if row["ci_high_both"] < conf:
        return "under"
    if row["ci_low_both"] > conf:
        return "over"
    return "nominal"


def _set_name(network) -> str:
    return Path(str(network)).stem.replace("set", "Set ")


def coverage_cells(tables, names=("coverage", "coverage_ncv", "coverage_bootstrap")
                   ) -> pd.DataFrame:
    """The coverage rows of the analyses (and of ``coverage_bootstrap``, the bootstrap cv
    tests', where the study has it), in the comparison's test order, with ``set``
    (``"Set 1"`` ..), ``n`` (instances; the tables' data-set count becomes ``n_data``)
    and ``verdict`` columns."""
    t = pd.concat([tables[k] for k in names if k in tables], ignore_index=True)
    t["set"] = [_set_name(x) for x in t["network"]]
    t["n_data"] = t["n"]                    # the coverage table's n: data sets
    t["n"] = t["n_instances"].astype(int)
    t["verdict"] = [coverage_verdict(r) for _, r in t.iterrows()]
    order = {k: i for i, k in enumerate(TESTS)}
    t["_o"] = [order[x] for x in t["test"]]
    return t.sort_values(["_o", "set", "n"], kind="stable", ignore_index=True).drop(
        columns="_o")


def _cell(r) -> str:
    mark = {"under": " ↓", "over": " ↑", "nominal": ""}[r["verdict"]]
    return f"{100 * r['coverage']:.1f}{mark}"


def _truth_table(t) -> str:
    u = t.drop_duplicates(["set", "n", "n_train"])
    rows = []
    for (s, n), g in u.groupby(["set", "n"], sort=True):
        rows.append({"set": s, "n": n, **{
            f"m = {m}": f"{round(100 * v, 2) + 0.0:+.2f} ({100 * se:.2f})" for m, v, se
            in sorted(zip(g["n_train"], g["truth"], g["truth_se"]))}})
    out = pd.DataFrame(rows)
    # one column per training-size rule: m / n = 0.5, 0.9, 1
    cols = {}
    for _, r in out.iterrows():
        for k, v in r.items():
            if k.startswith("m = ") and isinstance(v, str):
                frac = int(k[4:]) / r["n"]
                name = {0.5: "m = n/2 (5 × 2 cv)", 0.7: "m = 2/3 n (bootstrap cv)",
                        0.9: "m = 0.9 n (10-fold cv, 90/10)",
                        1.0: "m = n (NCV)"}[round(frac, 1)]
                cols.setdefault(name, {})[(r["set"], r["n"])] = v
    wide = pd.DataFrame(cols)
    wide.index = pd.MultiIndex.from_tuples(wide.index, names=["set", "n"])
    wide = wide[[c for c in ("m = n/2 (5 × 2 cv)", "m = 2/3 n (bootstrap cv)",
                             "m = 0.9 n (10-fold cv, 90/10)", "m = n (NCV)") if c in wide]]
    return wide.reset_index().to_markdown(index=False, disable_numparse=True)


def _coverage_table(t) -> str:
    rows = []
    for (test, s), g in t.groupby(["test", "set"], sort=False):
        rows.append({"test": TESTS[test][1], "design": TESTS[test][0], "set": s,
                     **{f"n = {r['n']}": _cell(r) for _, r in g.iterrows()}})
    return pd.DataFrame(rows).to_markdown(index=False, disable_numparse=True)


def _pooled(g) -> tuple:
    """Coverage over a test's cells from their counts (the same whether the table was just
    computed or read back from its CSV), and its SE from the cells' binomial SEs."""
    k = np.rint(g["coverage"] * g["n_data"]).sum()
    se = float(np.sqrt((g["mc_se"] ** 2).sum()) / len(g))
    return float(k / g["n_data"].sum()), se


def coverage_summary_table(t) -> pd.DataFrame:
    """Per test (comparison order): design, coverage pooled over its (set, n) cells (mean,
    with the SE from the cells' own), its range and the count of each verdict."""
    rows = []
    for test, g in t.groupby("test", sort=False):
        k = g["verdict"].value_counts()
        pooled, se = _pooled(g)
        rows.append({"test": TESTS[test][1], "design": TESTS[test][0],
                     "coverage %, pooled (SE)": f"{_cov_pct(pooled)} ({_cov_pct(se)})",
                     "range over the cells": f"{_cov_pct(g['coverage'].min())}–"
                                             f"{_cov_pct(g['coverage'].max())}",
                     "cells nominal / under / over": " / ".join(
                         str(int(k.get(v, 0))) for v in ("nominal", "under", "over"))})
    return pd.DataFrame(rows)


def _cov_pct(v) -> str:
    return f"{100 * v:.1f}"


def _words(t) -> str:
    """One sentence per test: in how many (set, n) cells it covers at nominal, under or
    over, with the range of its coverage."""
    conf = float(t["confidence"].iloc[0])
    lines = []
    for test, g in t.groupby("test", sort=False):
        k = g["verdict"].value_counts()
        under = g[g["verdict"] == "under"]
        pooled, pooled_se = _pooled(g)
        text = (f"- **{TESTS[test][1]}** ({TESTS[test][0]}): coverage "
                f"{_cov_pct(g['coverage'].min())}–{_cov_pct(g['coverage'].max())}% over the "
                f"{len(g)} (set, n) cells, {_cov_pct(pooled)}% ({_cov_pct(pooled_se)}) pooled; "
                f"nominal in {int(k.get('nominal', 0))}, under in "
                f"{int(k.get('under', 0))}, over in {int(k.get('over', 0))}")
        if len(under):
            worst = under.loc[under["coverage"].idxmin()]
            below = float(under["miss_below"].sum()) / max(float(
                (under["miss_below"] + under["miss_above"]).sum()), 1e-300)
            text += (f" (lowest {_cov_pct(worst['coverage'])}% on {worst['set']} at "
                     f"n = {worst['n']}; of the misses in those cells "
                     f"{_cov_pct(below)}% had the truth below the interval)")
        lines.append(text + ".")
    nominal = [TESTS[x][1] for x, g in t.groupby("test", sort=False)
               if (g["verdict"] == "nominal").all()]
    head = (f"At {100 * conf:g}% nominal, within the Monte Carlo error of both the data "
            "sets and the truth: "
            + (f"{', '.join(nominal)} cover at nominal in every cell." if nominal else
               "no test covers at nominal in every cell."))
    n_cells = int(t.groupby("test", sort=False).size().max())
    ratio = float((t["truth_se"] / (t["mean_width"] / 2)).max())
    zero = sorted(set(t.loc[(t["truth"].abs() < 1e-12) & (t["truth_se"] < 1e-12), "set"]))
    notes = [
        f"Each verdict is a 95% statement, so over a test's {n_cells} cells about "
        f"{0.05 * n_cells:.1f} are flagged by chance where the coverage is nominal "
        "everywhere; the pooled coverage (mean over the cells, SE from theirs) is the "
        "steadier summary. The truth's own Monte Carlo SE is at most "
        f"{100 * float(t['truth_se'].max()):.2f} points, and in every cell at most "
        f"{100 * ratio:.1f}% of the intervals' mean half-width there."]
    if zero:
        notes.append(f"{' and '.join(zero)}'s truth is 0 at every m with SE 0: there "
                     "every model's expected accuracy is the same, so the coverage is "
                     "1 − the rate at which the test rejects there.")
    return head + " " + " ".join(notes) + "\n\n" + "\n".join(lines)


def _calibrated_section(c, t, study) -> list:
    """The coverage of the t tests' intervals at the df calibrated on the null (the
    comparison study's, at its calibration's n, used at every n), beside the textbook
    df's on the same cells."""
    conf = float(c["confidence"].iloc[0])
    df = c.drop_duplicates("test").set_index("test")["df"]
    rows = []
    for test, g in c.groupby("test", sort=False):
        pooled, se = _pooled(g)
        before, bse = _pooled(t[t["test"] == test])
        k = g["verdict"].value_counts()
        rows.append({"test": TESTS[test][1], "design": TESTS[test][0],
                     "calibrated df": f"{df[test]:g}",
                     "coverage %, textbook df (SE)": f"{_cov_pct(before)} ({_cov_pct(bse)})",
                     "coverage %, calibrated df (SE)": f"{_cov_pct(pooled)} ({_cov_pct(se)})",
                     "cells nominal / under / over": " / ".join(
                         str(int(k.get(v, 0))) for v in ("nominal", "under", "over"))})
    return [f"\n## Coverage at the calibrated df\n\n",
            "The t tests' df calibrated on Bouckaert's null by the comparison study "
            "(`studies/cv_inference_1998_2023.toml`, at its calibration's n and used at "
            "every n, as its `calibrated` rates; `df = \"calibrated\"` with `calibration` "
            "naming that study) enter the interval as they enter the test, so a df that "
            "keeps the Type I error at α also widens or narrows the interval. Pooled "
            f"coverage of the {100 * conf:g}% intervals over the (set, n) cells, beside the "
            "textbook df's; the cells are in "
            f"`{study.name}_coverage_calibrated.csv`.\n\n",
            pd.DataFrame(rows).to_markdown(index=False, disable_numparse=True), "\n",
            f"\n### Coverage at the calibrated df per set and n, %\n\n",
            _coverage_table(c), "\n"]


def write_coverage(*, study, tables, scores, folder, wall=None, calibrations=None) -> dict:
    """``<study>.md``: the truths, the coverage per test, set and n, and the sentences."""
    need = ("coverage", "coverage_ncv")
    missing = [k for k in need if k not in tables]
    if missing:
        raise ValueError(f"study {study.name!r}: the cv_inference_coverage layout needs the "
                         f"analyses {list(need)}; missing {missing}.")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    t = coverage_cells(tables)
    conf = float(t["confidence"].iloc[0])
    fits = int(t["truth_fits"].iloc[0])
    method = "exact over every attribute configuration" if (
        t["truth_method"] == "exact").all() else "on fresh test samples"
    lines = [
        f"# {study.title}\n\n",
        "Naive Bayes (A) against C4.5 (B) on Bouckaert's four BAN sets at n = "
        f"{', '.join(str(n) for n in sorted(set(t['n'])))}: the very data sets and "
        "partitions of `studies/cv_inference_1998_2023.toml` (same seed, sources, learners "
        f"and schemes; {int(t['n_data'].iloc[0])} data sets per set and n). Each test's "
        f"two-sided {100 * conf:g}% interval of the accuracy difference A − B (at its "
        "textbook df; the tests without an interval — McNemar, the difference of "
        "proportions, the 5x2cv F — are left out) is checked against the **true "
        "difference** D(m): the expected accuracy of naive Bayes minus that of C4.5, both "
        "trained on m instances drawn from the network, m the design's training size "
        "(0.9 n for 10-fold cv and 90/10 subsampling, n/2 for 5 × 2 cv, n for NCV, whose "
        "bias-corrected interval is for the model fitted on all n"
        + (", 2/3 n for the bootstrap cv, whose estimate is the mean over random 2/3 – "
           "1/3 splits" if "coverage_bootstrap" in tables else "") + "). The engine draws it "
        f"(`truth = \"drawn\"`): {fits} training sets per set and m, each model's accuracy "
        f"{method}, so its Monte Carlo SE comes from the training sets alone.\n\n",
        "**Verdicts** (↓ under, ↑ over, unmarked nominal): a cell under-covers where even "
        "the largest coverage the truth allows (moved 2 SE either way) has its upper "
        f"Clopper–Pearson 95% end below {100 * conf:g}%; it over-covers where the smallest "
        f"one's lower end is above {100 * conf:g}%; otherwise the coverage is within the "
        "Monte Carlo error of both the data sets and the truth. Every number is in "
        "" + ", ".join(f"`{study.name}_{k}.csv`" for k in ("coverage", "coverage_ncv",
                                                           "coverage_bootstrap")
                       if k in tables) + ".\n\n",
        _words(t), "\n\n",
        coverage_summary_table(t).to_markdown(index=False, disable_numparse=True), "\n",
        "\n## The true differences\n\n",
        "D(m) in points (Monte Carlo SE), naive Bayes − C4.5:\n\n",
        _truth_table(t), "\n",
        f"\n## Coverage of the {100 * conf:g}% intervals, %\n\n",
        _coverage_table(t), "\n"]
    if "coverage_calibrated" in tables:
        lines += _calibrated_section(coverage_cells(tables, ("coverage_calibrated",)), t,
                                     study)
    md = folder / f"{study.name}.md"
    md.write_text("".join(lines), encoding="utf-8")
    return {"report.md": md}


# ------------------------------------------------------------------------------
# cv inference: the newer tests against their sources
# ------------------------------------------------------------------------------

_TEST_WORDS = {"bayle_cv_clt": "naive cv = cv CLT (all-pairs)", "ncv": "nested cv (NCV)",
               "kfold_cv": "k-fold cv t", "cv5x2_t": "5x2cv t"}

#: The register of differences from the papers' settings: (paper, what differs, ours,
#: theirs, expected effect). Typed by hand; the numbers they qualify are computed.
DIFFERENCES = (
    ("Bates et al. 2023", "NCV repetitions", "10", "200 (lowd_logistic.R; package default 50)",
     "a noisier MSE estimate, so a noisier inflation factor; the interval's coverage is "
     "averaged over data sets, its spread across data sets is wider"),
    ("Bates et al. 2023", "data sets per setting", "200 per s", "1000 (n_sim)",
     "Monte Carlo SE of a 90% coverage 2.1 points instead of 0.9"),
    ("Bates et al. 2023", "folds", "NCV's outer folds stratified by class "
     "(calibsim.schemes.NestedCV); the naive cv's at random",
     "at random (both)", "stratification lowers the fold-to-fold variance slightly; small "
     "for a balanced class"),
    ("Bates et al. 2023", "learner", "scikit-learn LogisticRegression(C=1e6) (lbfgs, "
     "nearly unpenalised)", "R glm (unpenalised), with the intercept-only model on a fit "
     "warning", "the same model up to the solver's tolerance; no fit here falls back"),
    ("Bates et al. 2023", "naive cv's sd", "all-pairs: divides by n", "sd(): divides by n - 1",
     "relative width differs by 1/(2n) = 0.5%"),
    ("Bates et al. 2023", "truth", "Err(n): the expected error of the model fitted on all n "
     "= 100 instances, by simulation (scripts/cv_inference_truth.py)",
     "both Err_XY (each data set's own model on 20,000 holdout points) and its mean Err",
     "coverage of Err only; Err_XY's coverage needs each data set's model, which the engine "
     "does not keep"),
    ("Bates et al. 2023", "second learner", "the majority rule, for the coverage of a "
     "difference", "none (one learner per example)", "an addition, not a reproduction"),
    ("Bayle et al. 2020", "data", "the logistic source (p = 10 standard normal attributes) "
     "at n = 200, 800, 3200", "Higgs (UCI, 11 million instances; not shipped) at n = 700 "
     "to 11,000", "a different task: the claims are checked, not their numbers"),
    ("Bayle et al. 2020", "learners", "logistic regression (C = 1e6) against the majority "
     "rule", "logistic regression (C = 0.001), a random forest of depth-1 trees "
     "(XGBoost) and a neural network (8, 4), pairwise",
     "the majority rule's error is known exactly, which makes the null exact"),
    ("Bayle et al. 2020", "null", "s = 0: every classifier's error is 1/2 on every data "
     "set, so the k-fold test errors of the two learners are equal on every data set",
     "the test's own null: the two learners' k-fold test errors conditional on the data "
     "(from a large test set) in the right order", "the same null here, exactly"),
    ("Bayle et al. 2020", "test", "two-sided at α = 0.05 (p of |z|)",
     "one-sided at α = 0.05 (is A better than B)", "a two-sided test at 0.05 rejects in "
     "each tail at 0.025: its Type I error is comparable, its power lower than theirs"),
    ("Bayle et al. 2020", "tests beside it", "k-fold cv t, 5x2cv t", "also hold-out CLT, "
     "repeated train-validation t and its corrected version", "fewer comparisons"),
    ("Bayle et al. 2020", "repetitions", "300 data sets per n", "500 replications per n",
     "Monte Carlo SE of a 5% rate 1.3 points instead of 1.0"),
    ("Bayle et al. 2020", "coverage truth", "Err(0.9 n): the mean of the k-fold test "
     "error over data sets (scripts/cv_inference_truth.py)", "the k-fold test error of "
     "each data set (conditional)", "coverage of the mean is what the engine can measure; "
     "it is lower than that of the conditional target when the data sets' k-fold test "
     "errors vary"),
    ("Cai et al. 2023", "task", "the logistic source, 0/1 loss: logistic regression (C = "
     "1e6) and the majority rule; n = 90, p = 10, s = 1, training size m = 50",
     "their package's example (BootCV README, Boot.CV): linear regression, squared error, "
     "n = 90, p = 10, m = 50; the paper's simulation settings not read",
     "another loss and learner at the same sizes: their claim is checked, not their numbers"),
    ("Cai et al. 2023", "bootstrap samples x splits", "50 x 10", "400 x 20 (Boot.CV's "
     "defaults)", "a noisier variance component, so interval widths spread more across "
     "data sets"),
    ("Cai et al. 2023", "the cv estimate", "the mean of 10 random splits of the data as "
     "they are (row 0 of the design)", "the mean of 400 random splits (CV.confint's "
     "default)", "the estimate keeps the noise of 10 splits, which the random-effects "
     "standard error leaves out: coverage a little lower"),
    ("Cai et al. 2023", "variance component", "ANOVA estimate cut at 0 (the layout is "
     "balanced)", "REML (lme4::lmer)", "the same for a balanced one-way layout"),
    ("Cai et al. 2023", "a split with no copy on a side", "drawn again from the same stream",
     "left out (NA) of the random-effects fit", "none here: with m_adj = 61 of 90 the 29 "
     "test instances are all undrawn with probability (61/90)^90 = 6e-16"),
    ("Cai et al. 2023", "data sets", "200", "not read", "Monte Carlo SE of a 95% coverage "
     "1.5 points"),
    ("Cai et al. 2023", "intervals beside it", "the resampled t over the same design's 10 "
     "splits of the data (Dietterich 1998) and its corrected version (Nadeau & Bengio "
     "2003), on their own 10 splits of the same training size", "not read",
     "an addition: the intervals one would otherwise use on repeated splits"),
)


def _val_pct(rate, se) -> str:
    return f"{100 * rate:.1f} ({100 * se:.1f})" if np.isfinite(rate) else ""


def _n_of(source: str) -> str:
    return source.split("=")[1].rstrip("]") if "=" in source else ""


def _bates(t_err, t_diff, verdicts) -> str:
    rows = []
    for target, t in (("error of logistic regression", t_err),
                      ("accuracy difference logistic − majority", t_diff)):
        for src in dict.fromkeys(t["source"]):
            g = t[t["source"] == src].set_index("test")
            naive = g.loc["bayle_cv_clt"]
            for test in ("bayle_cv_clt", "ncv"):
                r = g.loc[test]
                rows.append({"s": src.rsplit("_s", 1)[-1], "target": target,
                             "interval": _TEST_WORDS[test],
                             "truth": f"{r['truth']:.4f}",
                             "coverage %, (MC SE)": _val_pct(r["coverage"], r["mc_se"]),
                             "truth below / above, %": f"{100 * r['miss_below']:.1f} / "
                                                      f"{100 * r['miss_above']:.1f}",
                             "mean width": f"{r['mean_width']:.4f}",
                             "width / naive": f"{r['mean_width'] / naive['mean_width']:.2f}",
                             "paper": "under-covers" if test == "bayle_cv_clt"
                             else "near 90%", "n": int(r["n"])})
            nominal = float(naive["confidence"])
            nv, nc = naive, g.loc["ncv"]
            if target.startswith("error"):
                verdicts.append(_verdict(
                    "Bates et al. 2023", f"s = {src.rsplit('_s', 1)[-1]}: the naive cv "
                    "interval covers Err less often than nominal",
                    nv["coverage"] + 2 * nv["mc_se"] < nominal,
                    f"{_val_pct(nv['coverage'], nv['mc_se'])}% against {100 * nominal:g}%"))
                verdicts.append(_verdict(
                    "Bates et al. 2023", f"s = {src.rsplit('_s', 1)[-1]}: the NCV interval "
                    "covers Err at about the nominal level (within 3 MC SE)",
                    abs(nc["coverage"] - nominal) <= 3 * max(nc["mc_se"],
                                                              np.sqrt(nominal * (1 - nominal)
                                                                      / nc["n"])),
                    f"{_val_pct(nc['coverage'], nc['mc_se'])}% against {100 * nominal:g}%"))
    return pd.DataFrame(rows).to_markdown(index=False)


#: Why a claim the study tests differs, typed by hand (the verdicts are computed): the
#: first key found in the claim's text gives its status and evidence.
WHY = {
    "Type I error is near α": (
        "explained by argument",
        "at s = 0 both learners' predictions are set by chance fluctuations of the training "
        "set (the majority rule flips all its predictions when one label changes near "
        "balance), so the loss stability Bayle et al.'s central limit theorem assumes fails: "
        "the k-fold estimate's spread over data sets exceeds the per-instance variance the "
        "test uses (the table 'spread of the k-fold estimate on the null' above), and every "
        "test here rejects too often; their learners and data are stable ones"),
    "naive cv interval covers Err less often": (
        "open", "Bates et al.'s number for this setting was not read; their abstract claims "
        "under-coverage in many examples, not in each"),
    "NCV interval covers Err at about": (
        "open", "Bates et al.'s number for this setting was not read"),
    "at least as powerful": (
        "open", "Bayle et al.'s number for this setting was not read"),
    "bootstrap cv interval covers": (
        "open", "Cai et al.'s numbers were not read, and the task differs (0/1 loss, logistic "
        "regression); the same standard error without their factor for the bootstrap's "
        "training size (bootstrap cv, unadjusted, in the table above) is wider, so the "
        "factor, worked out for their setting, may shrink the interval too much here; the "
        "estimate's 10 splits (theirs 400) also add noise the standard error leaves out"),
}


def _verdict(paper, claim, ok, evidence) -> dict:
    status, why = "", ""
    if not ok:
        status, why = next((v for k, v in WHY.items() if k in claim), ("open", ""))
    return {"paper": paper, "claim": claim, "verdict": "agrees" if ok else "differs",
            "ours": evidence, "status": status, "why (typed by hand)": why}


def _bayle(rates, cover, verdicts) -> str:
    rows = []
    for _, r in rates.iterrows():
        null = str(r["group"]) == "bayle_null"
        rows.append({"n": int(_n_of(r["source"])), "test": _TEST_WORDS[r["test"]],
                     "data": "null (s = 0)" if null else "alternative (s = 0.3)",
                     "measure": "Type I error" if null else "power",
                     "rate %, (MC SE)": _val_pct(r["rate"], r["mc_se"]),
                     "95% interval": f"{100 * r['ci_low']:.1f}–{100 * r['ci_high']:.1f}",
                     "paper": ("near α for cv CLT" if null else "cv CLT most powerful")
                     if r["test"] == "bayle_cv_clt" else "", "data sets": int(r["n"])})
    table = pd.DataFrame(rows).sort_values(["measure", "test", "n"], kind="stable")
    for n in sorted({int(_n_of(s)) for s in rates["source"]}):
        g = rates[rates["source"].map(_n_of) == str(n)]
        null = g[g["group"] == "bayle_null"].set_index("test")
        alt = g[g["group"] == "bayle_alt"].set_index("test")
        if "bayle_cv_clt" in null.index:
            r = null.loc["bayle_cv_clt"]
            a = float(r["alpha"])
            se = np.sqrt(a * (1 - a) / r["n"])
            verdicts.append(_verdict(
                "Bayle et al. 2020", f"n = {n}: the cv CLT test's Type I error is near α "
                "(within 3 MC SE)", abs(r["rate"] - a) <= 3 * se,
                f"{_val_pct(r['rate'], r['mc_se'])}% at α = {100 * a:g}%"))
        if "bayle_cv_clt" in alt.index:
            ours = alt.loc["bayle_cv_clt"]
            others = alt.drop(index="bayle_cv_clt")
            best = others["rate"].max() if len(others) else np.nan
            verdicts.append(_verdict(
                "Bayle et al. 2020", f"n = {n}: the cv CLT test is at least as powerful as "
                "the k-fold cv t and the 5x2cv t (within 2 MC SE)",
                ours["rate"] + 2 * np.hypot(ours["mc_se"], 0.0) >= best,
                f"{_val_pct(ours['rate'], ours['mc_se'])}% against at most {100 * best:.1f}%"))
    cov = []
    for _, r in cover.iterrows():
        cov.append({"n": int(_n_of(r["source"])) if _n_of(r["source"]) else "",
                    "data": "null (s = 0)" if str(r["group"]) == "bayle_null"
                    else "alternative (s = 0.3)", "interval": _TEST_WORDS[r["test"]],
                    "truth": f"{r['truth']:.4f}",
                    "coverage %, (MC SE)": _val_pct(r["coverage"], r["mc_se"]),
                    "mean width": f"{r['mean_width']:.4f}",
                    "paper": "near 95% for cv CLT" if r["test"] == "bayle_cv_clt" else ""})
    return (table.to_markdown(index=False),
            pd.DataFrame(cov).to_markdown(index=False) if cov else "")


def _null_spread(study, scores, rates) -> str:
    """Per n on the null: the SD over data sets of each learner's 10-fold cv error beside
    the binomial SD sqrt(1/4 / n) a stable learner's estimate would have (its per-instance
    losses are 0/1 with mean 1/2)."""
    if scores is None:
        return ""
    rows = []
    for src in dict.fromkeys(rates.loc[rates["group"] == "bayle_null", "source"]):
        n = int(_n_of(src))
        row = {"n": n, "binomial SD": f"{0.5 / np.sqrt(n):.4f}"}
        for learner in (x.label for x in study.learners):
            err = 1.0 - scores.accuracy(src, "cv", learner).reshape(
                scores.n_datasets(src, "cv"), -1).mean(axis=1)
            row[f"SD of {learner}'s cv error"] = f"{err.std(ddof=1):.4f}"
            row[f"mean of {learner}'s cv error"] = f"{err.mean():.4f}"
        rows.append(row)
    return pd.DataFrame(rows).to_markdown(index=False) if rows else ""


#: The intervals of the bootstrap cv reproduction, in words.
_CAI_WORDS = {"bootstrap_cv": "bootstrap cv (random effects, adjusted)",
              "bootstrap_cv_unadjusted": "bootstrap cv, unadjusted",
              "resampling": "naive: resampled t over the splits",
              "corrected_resampling": "corrected resampled t"}


def _cai(study, t_err, t_diff, verdicts) -> str:
    """The bootstrap of the cv estimate (Cai et al. 2023): coverage of its 95% interval
    beside the naive and the corrected resampled t intervals, and the claim's verdicts."""
    rows = []
    for target, t in (("error of logistic regression", t_err),
                      ("accuracy difference logistic − majority", t_diff)):
        for src in dict.fromkeys(t["source"]):
            g = t[t["source"] == src].set_index("test")
            naive = g.loc["resampling"] if "resampling" in g.index else None
            for test in (x for x in _CAI_WORDS if x in g.index):
                r = g.loc[test]
                rows.append({"target": target, "interval": _CAI_WORDS[test],
                             "truth": f"{r['truth']:.4f}",
                             "coverage %, (MC SE)": _val_pct(r["coverage"], r["mc_se"]),
                             "truth below / above, %": f"{100 * r['miss_below']:.1f} / "
                                                      f"{100 * r['miss_above']:.1f}",
                             "mean width": f"{r['mean_width']:.4f}",
                             "width / naive": "" if naive is None else
                             f"{r['mean_width'] / naive['mean_width']:.2f}",
                             "paper": "valid (abstract)" if test.startswith("bootstrap")
                             else "",
                             "n": int(r["n"])})
            if "bootstrap_cv" in g.index:
                r = g.loc["bootstrap_cv"]
                nominal = float(r["confidence"])
                verdicts.append(_verdict(
                    "Cai et al. 2023", f"{target}: the bootstrap cv interval covers the "
                    "truth at about the nominal level (within 3 MC SE)",
                    abs(r["coverage"] - nominal) <= 3 * np.sqrt(nominal * (1 - nominal)
                                                                / r["n"]),
                    f"{_val_pct(r['coverage'], r['mc_se'])}% against {100 * nominal:g}%"))
    return pd.DataFrame(rows).to_markdown(index=False)


def _cai_section(study, tables, verdicts) -> list:
    """The Cai et al. section: the reproduction where the study runs it."""
    if "cai_error" not in tables or "cai_difference" not in tables:
        return ["\n## Cai et al. (2023)\n\n", "Not run by this study (no `cai_error` and "
                "`cai_difference` coverage analyses).\n"]
    table = _cai(study, tables["cai_error"], tables["cai_difference"], verdicts)
    boot = study.scheme(tables["cai_error"]["scheme"].iloc[0] if "scheme" in
                        tables["cai_error"] else "boot")
    splitter = boot.splitter()
    src = study.source(tables["cai_error"]["source"].iloc[0])
    n = int(dict(src.params)["n_instances"])
    m, m_adj = splitter.n_train(n), splitter.adjusted_train_size(n)
    factor = np.sqrt((n - m_adj + 0.632 * m_adj) / n)
    return [
        "\n## Cai et al. (2023): coverage of the bootstrap cv interval\n\n",
        f"n = {n}, p = {dict(src.params)['n_attributes']}, s = "
        f"{dict(src.params)['strength']:g}, training size m = {m} (the sizes of the "
        "authors' package example, there with linear regression); logistic regression "
        "against the majority rule. The design (`calibsim.schemes.BootstrapCV`, scheme "
        f"kind `bootstrap_cv`): {splitter.n_splits} random splits of the data as they are "
        f"(the cv estimate), and {splitter.n_bootstrap} bootstrap samples of "
        f"{splitter.n_splits} random splits each at the authors' adjusted training size "
        f"m_adj = {m_adj}, every copy of an instance on one side; the random-effects "
        "standard error times their factor √((n − m_adj + 0.632 m_adj)/n) = "
        f"{factor:.3f} (`calibsim.stats.bootstrap_cv_test`), and without the factor (their "
        "`CV.confint(adj = FALSE)`, test `bootstrap_cv_unadjusted`). Beside it, the resampled t "
        "interval over 10 random splits of the same training size, which treats the "
        "splits as independent (naive), and Nadeau & Bengio's corrected one. Truth: "
        f"Err({m}), the expected error of logistic regression trained on {m} instances "
        "(`scripts/cv_inference_truth.py`); for the difference 1/2 − Err(m). 95% "
        "intervals.\n\n", table, "\n"]


def _cv_inference_validation(*, study, tables, scores, folder, wall=None, calibrations=None):
    """One Markdown file, ``<study>_comparison.md``: the reproduced results beside the
    papers' claims, the verdicts and the register of differences."""
    need = ("bates_error", "bates_difference", "bayle_rates", "bayle_error")
    missing = [k for k in need if k not in tables]
    if missing:
        raise ValueError(f"study {study.name!r}: the cv_inference_validation layout needs "
                         f"the analyses {list(need)}; missing {missing}.")
    verdicts = []
    bates = _bates(tables["bates_error"], tables["bates_difference"], verdicts)
    bayle, cover = _bayle(tables["bayle_rates"], tables["bayle_error"], verdicts)
    ncv = study.scheme("ncv").p
    lines = [
        f"# {study.title}\n\n",
        "Issue 43, item 3: the cv inference of Bates, Hastie & Tibshirani (2023), Bayle, "
        "Bayle, Janson & Mackey (2020) and Cai et al. (2023) run on calibsim's engine in "
        "the papers' settings, reduced (`studies/cv_inference_validation.toml`, seed "
        f"{study.seed}). Rates in percent with their Monte Carlo standard error. The papers' "
        "tables and figures could not be read here (the stored texts reach their first "
        "sections only), so the paper column quotes each abstract's claim, and the verdicts "
        "test those claims on our numbers; the settings were read from the authors' "
        "public code (see the register). Every number is in the study's CSV tables.\n",
        "\n## Bates et al. (2023): coverage of 90% intervals, low-dimensional logistic "
        "regression\n\n",
        f"n = 100, p = 10, P(y = 1 | x) = 1/(1 + exp(−s x₁)); logistic regression; naive "
        f"cv: one 10-fold cv; NCV: {ncv['n_runs']} repetitions of nested {ncv['n_folds']}-"
        "fold cv with the bias correction and the inflation clipped to [1, √K] "
        "(`calibsim.stats.nested_cv_test`). Truth: Err(100), the expected error of the "
        "model fitted on all 100 instances (`scripts/cv_inference_truth.py`). 'truth "
        "below / above': the interval missed it on that side.\n\n", bates, "\n",
        "\n## Bayle et al. (2020): Type I error and power of the two-algorithm test as n "
        "grows\n\n",
        "Logistic regression against the majority rule, one 10-fold cv (cv CLT and k-fold "
        "cv t on the same folds) and 5x2cv, two-sided at α = 5%. On the null (s = 0) every "
        "classifier errs exactly half the time on every data set, so any rejection is a "
        "Type I error of the test of equal k-fold test errors; on the alternative (s = 0.3) "
        "logistic regression is better.\n\n", bayle, "\n",
        "\n### Spread of the k-fold estimate on the null\n\n",
        "Each learner's 10-fold cv error (over the instances) across the null data sets, "
        "beside the SD a binomial proportion of n would have, which is what the per-instance "
        "variance of the cv CLT test assumes: where the estimate spreads more, the test "
        "rejects too often.\n\n", _null_spread(study, scores, tables["bayle_rates"]), "\n",
        "\n### Coverage of the 95% interval of logistic regression's error\n\n",
        "Truth: Err(0.9 n), the mean over data sets of the k-fold test error "
        "(`scripts/cv_inference_truth.py`); on the null exactly 1/2.\n\n", cover, "\n",
        *_cai_section(study, tables, verdicts),
        "\n## Claims checked\n\n",
        pd.DataFrame(verdicts).to_markdown(index=False), "\n",
        "\n## Register of differences from the papers' settings\n\n",
        "Paper values: not read (every reproduced number above is 'not comparable' as a "
        "number; the claims are compared instead).\n\n",
        pd.DataFrame(DIFFERENCES, columns=["paper", "what", "ours", "theirs",
                                           "expected effect"]).to_markdown(index=False),
        "\n"]
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    md = folder / f"{study.name}_comparison.md"
    md.write_text("".join(lines), encoding="utf-8")
    csv = folder / f"{study.name}_differences.csv"
    _register(verdicts).to_csv(csv, index=False, lineterminator="\n")
    return {"comparison.md": md, "differences.csv": csv}


def _register(verdicts) -> pd.DataFrame:
    """The register as one table, in the columns of the five papers' registers that
    apply (:data:`calibsim.papers._differences.COLUMNS`): one row per claim checked (the
    paper's value not read: ``paper_value`` empty) and one per difference of setting
    ("not comparable")."""
    rows = [{"paper": v["paper"], "where": "abstract (claim)", "cell": v["claim"],
             "ours": v["ours"], "paper_value": "", "verdict": v["verdict"],
             "status": v["status"] or "agrees", "evidence": v["why (typed by hand)"]}
            for v in verdicts]
    rows += [{"paper": paper, "where": "setting", "cell": what, "ours": ours,
              "paper_value": theirs, "verdict": "", "status": "not comparable",
              "evidence": effect} for paper, what, ours, theirs, effect in DIFFERENCES]
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------------
# plan validation: calibsim plan against the studies it generalises
# ------------------------------------------------------------------------------

#: The repository's tracked figures and tables (the committed rates are read from here),
#: where the package is run from its checkout; see :func:`committed_figures`.
FIGURES = Path(__file__).resolve().parents[2] / "figures"


def committed_figures(study) -> Path:
    """The folder of the committed tables the study compares against: the parent of the
    study's own ``[outputs] figures`` folder (the checkout the study file is in, also when
    calibsim is installed into site-packages), else the package's checkout.

    Raises
    ------
    FileNotFoundError
        If neither holds ``dietterich1998/`` and ``bouckaert2003/``.
    """
    cands = [Path(study.figures).resolve().parent, FIGURES]
    for c in cands:
        if (c / "dietterich1998").is_dir() and (c / "bouckaert2003").is_dir():
            return c
    raise FileNotFoundError(f"study {study.name!r} compares against the committed tables in "
                            "figures/dietterich1998/ and figures/bouckaert2003/; none in "
                            f"{[str(c) for c in cands]}. Run it from a calibsim checkout.")

#: Bouckaert (2003, §5): the BAN sets whose learners are equally good (no difference).
NO_DIFFERENCE = ("set1",)

#: |z| below this is "within Monte Carlo error".
Z_OK = 3.0


def z_two_proportions(p1, n1, p2, n2):
    """z of the difference of two independent rates ``p2 - p1`` at the pooled rate.

    Parameters
    ----------
    p1, p2 : float or array_like
        Rates in [0, 1] over ``n1`` and ``n2`` independent trials.
    n1, n2 : int or array_like

    Returns
    -------
    ndarray
        ``(p2 - p1) / sqrt(p (1 - p) (1/n1 + 1/n2))`` with p the pooled rate; 0 where both
        rates are 0 or both 1 (no difference and no error).

    Examples
    --------
    >>> float(z_two_proportions(0.05, 1000, 0.05, 300))
    0.0
    >>> round(float(z_two_proportions(0.033, 1000, 0.053, 300)), 2)
    1.6
    """
    p1, p2 = np.asarray(p1, float), np.asarray(p2, float)
    n1, n2 = np.asarray(n1, float), np.asarray(n2, float)
    pooled = (p1 * n1 + p2 * n2) / (n1 + n2)
    se = np.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    return np.where(se > 0, (p2 - p1) / np.where(se > 0, se, 1.0), 0.0)


def _read(path) -> pd.DataFrame:
    return pd.read_csv(path, keep_default_na=False, na_values=[""])


def _plan_df_text(v) -> str:
    v = float(v)
    return "—" if not np.isfinite(v) else f"{v:.3g}"


# ---------------------------------------------------------------------------
# (a) Dietterich's tasks

def _design_of(ref) -> str:
    """The plan design of a committed Dietterich row (a test such as the k-fold cv t fits
    more than one design): r x k cv, 5x2cv, the 30 resamples or the one holdout split."""
    if ref.scheme == "cv5x2":
        return "5x2cv"
    if int(ref.n_folds) > 0:
        return f"{int(ref.n_runs)}x{int(ref.n_folds)}"
    return "subsampling:30@0.333" if int(ref.n_resamples) > 0 else "holdout"


def dietterich_table(tables: dict, figures=FIGURES) -> pd.DataFrame:
    """Plan's Type I error on each task beside the committed study's, one row per test."""
    t = pd.concat([tables[k] for k in sorted(tables) if k.startswith("dietterich")],
                  ignore_index=True)
    t = t[(t["difference"] == 0.0) & (t["repeat"] == 0)]
    rows = []
    for task in dict.fromkeys(t["source"]):
        ref = _read(Path(figures) / "dietterich1998" / f"dietterich1998_{task}_type1.csv")
        mine = t[t["source"] == task]
        for r in ref.itertuples():
            m = mine[(mine["test"] == r.test) & (mine["design"] == _design_of(r))].iloc[0]
            rows.append({"task": task, "test": r.test, "label": r.label,
                         "committed": r.type1_error, "committed_se": r.mc_se,
                         "committed_n": int(r.n), "committed_df": r.df,
                         "plan": m["rejection_rate"], "plan_se": m["rejection_se"],
                         "plan_n": int(m["n_datasets"]), "plan_df": m["df"],
                         "design": m["design"], "damaged": m["damaged"],
                         "damage_rate": m["damage_rate"], "n_train": m["n_train"],
                         "n_instances": int(m["n_instances"])})
    out = pd.DataFrame(rows)
    out["z"] = z_two_proportions(out["committed"], out["committed_n"], out["plan"],
                                 out["plan_n"])
    return out


# ---------------------------------------------------------------------------
# (b) Bouckaert's BAN sets

def ban_table(table: pd.DataFrame, alpha: float, figures=FIGURES) -> pd.DataFrame:
    """Plan's rates on each BAN set beside the committed Table 4 rates at ``alpha``."""
    ref = _read(Path(figures) / "bouckaert2003" / "bouckaert2003_table4_power_vs_alpha.csv")
    ref = ref[np.isclose(ref["alpha"], alpha)]
    t = table[table["repeat"] == 0]
    rows = []
    for net in dict.fromkeys(t["network"]):
        g = t[t["network"] == net]
        null = g[g["difference"] == 0.0].set_index("test")
        own = g[g["own_difference"]].set_index("test")
        for r in ref[ref["source"] == net].itertuples():
            n0 = null.loc[r.test]
            equal = net in NO_DIFFERENCE
            o = own.loc[r.test] if r.test in own.index else None
            m = n0 if equal or o is None else o
            rows.append({"set": net, "test": r.test, "label": r.label, "design": n0["design"],
                         "difference_true": "none" if equal else "the learners' own",
                         "own_difference": np.nan if o is None else o["difference"],
                         "damage_rate": m["damage_rate"],
                         "committed": r.rate, "committed_se": r.mc_se,
                         "committed_n": int(r.n), "committed_df": r.df,
                         "plan_difference": m["difference"],
                         "plan": m["rejection_rate"], "plan_se": m["rejection_se"],
                         "plan_n": int(m["n_datasets"]), "plan_df": m["df"],
                         "plan_type1": n0["rejection_rate"],
                         "plan_own": np.nan if o is None else o["rejection_rate"]})
    out = pd.DataFrame(rows)
    out["z"] = z_two_proportions(out["committed"], out["committed_n"], out["plan"],
                                 out["plan_n"])
    return out


# ---------------------------------------------------------------------------
# (c) a fresh seed

def fresh_tables(table: pd.DataFrame) -> tuple:
    """(every rate of repeat 0 beside repeat 1 with z, the recommended rows only)."""
    keys = ["design", "test", "difference"]
    first = table[table["repeat"] == 0]
    fresh = table[table["repeat"] == 1][keys + ["rejection_rate", "rejection_se",
                                                "n_datasets"]]
    t = first.merge(fresh, on=keys, suffixes=("", "_fresh"))
    t["z"] = z_two_proportions(t["rejection_rate"], t["n_datasets"],
                               t["rejection_rate_fresh"], t["n_datasets_fresh"])
    cols = keys + ["label", "fits", "df", "rejection_rate", "rejection_se",
                   "rejection_rate_fresh", "rejection_se_fresh", "n_datasets", "recommended",
                   "z"]
    t = t[cols]
    return t, t[t["recommended"]].reset_index(drop=True)


# ---------------------------------------------------------------------------
# sentences

def _plan_pct(v) -> str:
    return f"{100 * v:.1f}"


def _outside(t, what) -> str:
    """The rows with |z| >= 3, each with whether its df differ from the committed one."""
    bad = t[t["z"].abs() >= Z_OK]
    if bad.empty:
        return ""
    parts = []
    for r in bad.itertuples():
        same = (not np.isfinite(float(r.committed_df)) and not np.isfinite(float(r.plan_df))) \
            or np.isclose(float(r.committed_df), float(r.plan_df))
        why = ("the same df, so not explained by the df" if same else
               f"df {_plan_df_text(r.plan_df)} in plan against {_plan_df_text(r.committed_df)} in the "
               "study")
        parts.append(f"{what(r)} {r.label} ({_plan_pct(r.plan)}% against {_plan_pct(r.committed)}%, "
                     f"z = {r.z:+.2f}; {why})")
    return " Outside: " + "; ".join(parts) + "."


def plan_summary(dt, bt, ft, rec) -> str:
    """What the study shows, in sentences computed from its tables."""
    ok_a = int((dt["z"].abs() < Z_OK).sum())
    text = [f"**(a) Dietterich's tasks.** {ok_a} of {len(dt)} Type I errors within "
            f"|z| < {Z_OK:g} of the committed studies' (largest |z| "
            f"{dt['z'].abs().max():.2f})." + _outside(dt, lambda r: f"{r.task}:")]
    ok_b = int((bt["z"].abs() < Z_OK).sum())
    s1 = bt[bt["set"].isin(NO_DIFFERENCE)]
    s = (f"**(b) Bouckaert's BAN sets.** {ok_b} of {len(bt)} rates within |z| < {Z_OK:g} "
         f"of the committed Table 4 (largest |z| {bt['z'].abs().max():.2f})."
         + _outside(bt, lambda r: f"{r.set.replace('set', 'Set ')}:"))
    if len(s1):
        own = s1["plan_own"].dropna()
        s += (f" On Set 1 (no difference) plan's Type I error on its damaged null is "
              f"{_plan_pct(s1['plan'].min())}–{_plan_pct(s1['plan'].max())}% against the study's "
              f"{_plan_pct(s1['committed'].min())}–{_plan_pct(s1['committed'].max())}% "
              f"({int((s1['z'] < 0).sum())} of {len(s1)} below, the tests sharing their "
              "data sets)")
        if len(own):
            d = s1["own_difference"].dropna()
            s += (f"; the undamaged learners (their measured difference "
                  f"{100 * d.min():.2f}–{100 * d.max():.2f} points, damage almost none) "
                  f"reject {_plan_pct(own.min())}–{_plan_pct(own.max())}%")
        s += "."
    text.append(s)
    z = ft["z"].abs()
    s = (f"**(c) A fresh seed.** Of the {len(ft)} rates of the two plans (every design, test "
         f"and Δ), {int((z > 2.58).sum())} ({100 * np.mean(z > 2.58):.1f}%) have |z| > 2.58 "
         f"and {int((z > 1.96).sum())} ({100 * np.mean(z > 1.96):.1f}%) |z| > 1.96, against "
         f"about 1% and 5% if plan's standard errors are honest (largest |z| {z.max():.2f}).")
    if len(rec):
        parts = [f"Δ = {100 * r.difference:g} points: {r.design} with {r.label}, predicted "
                 f"{_plan_pct(r.rejection_rate)}% ± {_plan_pct(r.rejection_se)}, fresh "
                 f"{_plan_pct(r.rejection_rate_fresh)}% ± {_plan_pct(r.rejection_se_fresh)} "
                 f"(z = {r.z:+.2f})" for r in rec.itertuples()]
        s += (f" The recommended design's power on the fresh seed: " + "; ".join(parts)
              + f"; {int((rec['z'].abs() < Z_OK).sum())} of {len(rec)} within |z| < "
              f"{Z_OK:g}.")
    else:
        s += " The first plan recommends no design at any Δ."
    text.append(s)
    return "\n\n".join(text)


# ---------------------------------------------------------------------------
# markdown

def _pm(rate, se) -> str:
    return f"{100 * rate:.1f} ± {100 * se:.1f}"


def _md_dietterich(t) -> str:
    return pd.DataFrame({
        "task": t["task"], "test": t["label"], "design": t["design"],
        "df (study / plan)": [f"{_plan_df_text(a)} / {_plan_df_text(b)}"
                              for a, b in zip(t["committed_df"], t["plan_df"])],
        "committed (%)": [_pm(r, s) for r, s in zip(t["committed"], t["committed_se"])],
        "plan (%)": [_pm(r, s) for r, s in zip(t["plan"], t["plan_se"])],
        "z": t["z"].map("{:+.2f}".format)}).to_markdown(index=False)


def _md_ban(t) -> str:
    return pd.DataFrame({
        "set": t["set"].str.replace("set", "Set "), "test": t["label"], "design": t["design"],
        "Δ compared (points)": (100 * t["plan_difference"]).map("{:.2f}".format),
        "df (study / plan)": [f"{_plan_df_text(a)} / {_plan_df_text(b)}"
                              for a, b in zip(t["committed_df"], t["plan_df"])],
        "committed (%)": [_pm(r, s) for r, s in zip(t["committed"], t["committed_se"])],
        "plan (%)": [_pm(r, s) for r, s in zip(t["plan"], t["plan_se"])],
        "z": t["z"].map("{:+.2f}".format),
        "plan at Δ = 0 (%)": t["plan_type1"].map(_plan_pct),
        "plan at own Δ (%)": t["plan_own"].map(lambda v: "—" if not np.isfinite(v)
                                               else _plan_pct(v))}).to_markdown(index=False)


def _md_fresh(rec) -> str:
    if rec.empty:
        return "(no design recommended)"
    return pd.DataFrame({
        "Δ (points)": (100 * rec["difference"]).map("{:g}".format),
        "design": rec["design"], "test": rec["label"], "fits": rec["fits"],
        "predicted power, seed 1 (%)": [_pm(r, s) for r, s in
                                        zip(rec["rejection_rate"], rec["rejection_se"])],
        "fresh seed 2 (%)": [_pm(r, s) for r, s in zip(rec["rejection_rate_fresh"],
                                                        rec["rejection_se_fresh"])],
        "z": rec["z"].map("{:+.2f}".format)}).to_markdown(index=False)


# ---------------------------------------------------------------------------
# figure

def plan_figure(dt, bt, *, reduced=None):
    """Plan's rate against the committed rate, 95% Monte Carlo intervals, y = x."""
    from ..plotting import finish_figure
    from ..plotting._style import new_figure, series_style
    groups = [("Dietterich's tasks: Type I error", dt),
              ("BAN Set 1: Type I error", bt[bt["set"].isin(NO_DIFFERENCE)]),
              ("BAN Sets 2–4: power", bt[~bt["set"].isin(NO_DIFFERENCE)])]
    groups = [(name, g) for name, g in groups if len(g)]
    fig, axes = new_figure(1, n_cols=1, panel_size=(7.2, 5.4))
    ax = axes[0]
    for i, (name, g) in enumerate(groups):
        ax.errorbar(100 * g["committed"], 100 * g["plan"],
                    xerr=196 * g["committed_se"], yerr=196 * g["plan_se"],
                    capsize=2, ms=5, elinewidth=0.8, label=name,
                    **series_style(i, line=False, n=len(groups)))
    for g in (dt, bt):      # the rates outside |z| < 3, named with their df
        for r in g[g["z"].abs() >= Z_OK].itertuples():
            right = r.committed > 0.6          # near the right edge: the label on the left
            ax.annotate(f"{r.label}: df {_plan_df_text(r.plan_df)} vs {_plan_df_text(r.committed_df)}",
                        (100 * r.committed, 100 * r.plan), xytext=(-8 if right else 8, 0),
                        textcoords="offset points", fontsize=7, va="center",
                        ha="right" if right else "left",
                        bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none",
                              "alpha": 0.85})
    ax.plot([0, 100], [0, 100], color="#000000", lw=0.8, ls="--", label="plan = committed")
    ax.set(xlim=(-2, 102), ylim=(-2, 102), xlabel="committed study's rejection rate (%)",
           ylabel="calibsim plan's rejection rate (%)")
    ax.legend(fontsize=8, frameon=False, loc="upper left")
    n_a = int(dt["plan_n"].max()) if len(dt) else 0
    n_b = int(bt["plan_n"].max()) if len(bt) else 0
    n_c = int(max(dt["committed_n"].max() if len(dt) else 0,
                  bt["committed_n"].max() if len(bt) else 0))
    return finish_figure(
        fig, "calibsim plan's Type I error and power against the committed studies' rates",
        subtitle=f"the same data, learners and tests; plan {n_a} repeats a design on "
                 f"Dietterich's tasks, {n_b} on the BAN sets; the studies {n_c} data sets; "
                 "α = 0.05",
        error_bars="95% Monte Carlo intervals (± 1.96 SE) of both rates; named: |z| ≥ 3, "
                   "with plan's df and the study's", reduced=reduced)


# ---------------------------------------------------------------------------
# the layout

def _plan_validation(*, study, tables, scores=None, folder, wall=None, calibrations=None):
    """Tables, report and figure of ``studies/plan_validation.toml``."""
    need = {"ban", "fresh_seed"}
    if need - set(tables) or not any(k.startswith("dietterich") for k in tables):
        raise ValueError(f"study {study.name!r}: the plan_validation layout needs plan "
                         "analyses 'dietterich_*', 'ban' and 'fresh_seed'; got "
                         f"{sorted(tables)}.")
    from ..plotting import display_name
    from ..plotting._style import reduced_size, save_figure
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    alpha = float(tables["ban"]["alpha"].iloc[0])
    committed = committed_figures(study)
    dt = dietterich_table(tables, committed)
    bt = ban_table(tables["ban"], alpha, committed)
    ft, rec = fresh_tables(tables["fresh_seed"])
    name = study.name
    paths = {}
    for key, t in (("dietterich", dt), ("ban_sets", bt), ("fresh_seed_rates", ft)):
        p = folder / f"{name}_{key}.csv"
        t.to_csv(p, index=False, float_format="%.6g")
        paths[f"{name}_{key}.csv"] = p
    n_fresh = int(tables["fresh_seed"]["n_datasets"].max())
    n_committed = sorted({int(v) for v in pd.concat([dt["committed_n"], bt["committed_n"]])})
    ban, fresh = tables["ban"], tables["fresh_seed"]
    pool = {int(dict(study.source(x).params).get("n_instances", 0))
            for x in dict.fromkeys(ban["source"])}
    pair = (f"{display_name(ban['pair_a'].iloc[0])} against "
            f"{display_name(ban['pair_b'].iloc[0])}")
    fresh_pair = (f"{display_name(fresh['pair_a'].iloc[0])} against "
                  f"{display_name(fresh['pair_b'].iloc[0])}")
    lines = [
        f"# {study.title}\n\n", plan_summary(dt, bt, ft, rec), "\n\n",
        "z = (plan − committed) / the Monte Carlo SE of the difference (two proportions at "
        "the pooled rate); |z| < 3 counts as within Monte Carlo error. Rates in percent ± "
        "their Monte Carlo SE. The committed rates are read from the tracked tables of the "
        f"studies compared against ({' or '.join(map(str, n_committed))} data sets each). "
        "Every number is in the CSVs beside "
        "this file; the figure is "
        f"`{name}.png`. Run with `calibsim run studies/{name}.toml` (seed {study.seed}).\n",
        "\n## (a) Dietterich (1998, §5): Type I error on his three tasks\n\n",
        f"Data sets of {int(dt['n_instances'].iloc[0])} drawn per repeat from "
        "each task's data; the better learner damaged by random errors calibrated by "
        "`calibsim.plan` at each design's training-set size; textbook df. Committed: "
        "`figures/dietterich1998/dietterich1998_<task>_type1.csv`.\n\n",
        _md_dietterich(dt), "\n",
        f"\n## (b) Bouckaert (2003): BAN Sets 1–4, rejection rate at α = {alpha:g}\n\n",
        f"A pool of {' or '.join(f'{v:,}' for v in sorted(pool))} instances from each set's "
        f"network, data sets of {int(ban['n_instances'].iloc[0])} per repeat, {pair}; "
        "the tests at `plan`'s df (the shipped calibrated table, "
        "else the textbook df), the study at its own calibrated df. Set 1 has no difference: "
        "its committed Type I error is compared with plan's damaged null (Δ = 0); Sets 2–4 "
        "are compared at each design's own difference of the learners (measured on the Δ = "
        "0 repeats, rounded down to 0.01 points; a damage of almost nothing). Committed: "
        "`figures/bouckaert2003/bouckaert2003_table4_power_vs_alpha.csv`.\n\n",
        _md_ban(bt), "\n",
        "\n## (c) A fresh seed: the recommended design's power\n\n",
        f"The plan of {display_name(fresh['source'].iloc[0])} ({fresh_pair}, "
        f"{fresh['design'].nunique()} designs, {fresh['test'].nunique()} tests, "
        f"{n_fresh} repeats a design) with two root seeds: the first recommends, the second "
        "checks. Every rate of both is in "
        f"`{name}_fresh_seed_rates.csv`.\n\n", _md_fresh(rec), "\n"]
    md = folder / f"{name}_report.md"
    md.write_text("".join(lines), encoding="utf-8")
    paths[f"{name}_report.md"] = md
    fig = plan_figure(dt, bt, reduced=reduced_size(study))
    paths[f"{name}.png"] = save_figure(fig, folder / f"{name}.png")
    return paths


# ------------------------------------------------------------------------------
# The layouts
# ------------------------------------------------------------------------------

LAYOUTS = {"null_construction": _null_construction,
           "null_real_vs_balanced": _null_real_vs_balanced,
           "bayesian_hierarchical": _bayesian_hierarchical,
           "cv_inference": write_main,
           "cv_inference_dietterich": write_dietterich,
           "cv_inference_coverage": write_coverage,
           "cv_inference_bootstrap_budget": write_budget,
           "cv_inference_validation": _cv_inference_validation,
           "plan_validation": _plan_validation}
