"""calibsim's own studies, beyond the five papers: layouts of their tables and figures.

``null_construction`` (``studies/null_construction.toml``): which null data to
calibrate a test's df on when the data are the user's own (``calibsim calibrate
--like``). It sets, per data set, both learners' mean accuracy on permuted-label null
data, the difference that centring removes, and the calibrated df under three
constructions (permuted as is, centred, balanced labels) beside the shipped df table;
the Type I error of the shipped df on the centred null; the df calibrated on one half
of the null data sets checked on the other half; and, on Bouckaert's own simulated
null, the df with and without centring beside the shipped table.

``null_real_vs_balanced`` (``studies/null_real_vs_balanced.toml``): the df calibrated on
Dietterich's (1998, §5) damaged real-data null (the data's own labels and prior, the
better learner given calibrated random errors; on all the data and on a random half per
repeat) beside the balanced + centred null's, per data set, test and α, with intervals,
whether they overlap, and the damaged null's accuracies (that the damage equalised the
learners).

``bayesian_hierarchical`` (``studies/bayesian_hierarchical.toml``): the hierarchical and
Bayesian signed-rank tests' decision rates and replicability over comparisons of q data
sets, and the effect of ρ, as tables people read (the tidy table and the figure are the
engine's ``bayes_datasets`` outputs).

``cv_inference_validation`` (``studies/cv_inference_validation.toml``, issue 43): the
newer cv inference against its sources, Bates et al.'s coverage and Bayle et al.'s Type I
error and power, with the register of differences
(:mod:`calibsim.papers._cv_inference_validation`).
``cv_inference`` (``studies/cv_inference_1998_2023.toml``): the tests of the five papers
and the newer tests on each instance's outcome on the same null and BAN data at n = 100 to
3000: Type I error, power, replicability, coverage of the null difference and cost in
fits per test, and which test to use for which design and n
(``calibsim/papers/_cv_inference.py``). ``cv_inference_dietterich``: the same tests on
Dietterich's real-data tasks (``studies/cv_inference_1998_2023_{pima_exp6,letter}.toml``).
``cv_inference_coverage`` (``studies/cv_inference_1998_2023_coverage.toml``): the coverage
of those tests' intervals on the BAN sets against the true difference the engine draws
from each network (:mod:`calibsim.papers._cv_inference_coverage`).
``cv_inference_bootstrap_budget``
(``studies/cv_inference_1998_2023_bootstrap_budget.toml``): the bootstrap cv's Type I error
on the null against its bootstrap samples and splits.

``plan_validation`` (``studies/plan_validation.toml``, issue 42 item 5): ``calibsim plan``
(the engine's ``plan`` analysis) beside the committed Type I errors of Dietterich's tasks
and the power of Bouckaert's BAN sets, and on a fresh seed
(:mod:`calibsim.papers._plan_validation`).

Every number comes from the engine's analyses of the study files.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["LAYOUTS"]

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


def _cv_inference(**kw):
    """Tables, figures and report of ``studies/cv_inference_1998_2023.toml``."""
    from ._cv_inference import write_main
    return write_main(**kw)


def _cv_inference_coverage(**kw):
    """Coverage on the BAN sets of ``studies/cv_inference_1998_2023_coverage.toml``."""
    from ._cv_inference_coverage import write_coverage
    return write_coverage(**kw)


def _cv_inference_dietterich(**kw):
    """Dietterich's tasks of ``studies/cv_inference_1998_2023_{pima_exp6,letter}.toml``."""
    from ._cv_inference import write_dietterich
    return write_dietterich(**kw)


def _cv_inference_bootstrap_budget(**kw):
    """The bootstrap cv's Type I error against its samples
    (``studies/cv_inference_1998_2023_bootstrap_budget.toml``)."""
    from ._cv_inference import write_budget
    return write_budget(**kw)


from ._cv_inference_validation import LAYOUTS as _CV_INFERENCE  # noqa: E402  (issue 43)
from ._plan_validation import LAYOUTS as _PLAN_VALIDATION  # noqa: E402  (issue 42)

LAYOUTS = {"null_construction": _null_construction,
           "null_real_vs_balanced": _null_real_vs_balanced,
           "bayesian_hierarchical": _bayesian_hierarchical,
           "cv_inference": _cv_inference,
           "cv_inference_dietterich": _cv_inference_dietterich,
           "cv_inference_coverage": _cv_inference_coverage,
           "cv_inference_bootstrap_budget": _cv_inference_bootstrap_budget, **_CV_INFERENCE,
           **_PLAN_VALIDATION}
