"""Layouts of ``studies/cv_inference_1998_2023*.toml``: the comparison no paper has.

The tests of the five papers (at their textbook df and at df calibrated on Bouckaert's
null) and the newer tests on each instance's outcome (Bayle et al. 2020's cv CLT test,
Bates, Hastie & Tibshirani 2023's NCV) and on bootstrap samples (Cai et al. 2023's
bootstrap of the cv estimate) on the same data: per test and n, Type I error
on the null, power on the BAN sets, replicability, coverage of the null difference and
cost in fits; then which test to use for which design and n, by a stated rule.

Every number comes from the engine's analyses of the study files (the tidy tables it
writes beside these), and the mean differences of the sources from its score store.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["write_main", "write_dietterich", "write_budget"]

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


def summary_table(study, tables, scores) -> pd.DataFrame:
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


def _pct(v, se=None, digits=1) -> str:
    if v is None or not np.isfinite(v):
        return "—"
    return f"{100 * v:.{digits}f}" + ("" if se is None or not np.isfinite(se)
                                      else f" ({100 * se:.{digits}f})")


def _df_text(v, digits=None) -> str:
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
               "df: textbook, calibrated": (f"{_df_text(null['df_textbook'])}, "
                                            f"{_df_text(null['df_at_n'])}"
                                            if has_df else "none"),
               "Type I %, textbook df": _pct(null["rate_textbook"], null["se_textbook"]),
               "Type I %, calibrated df": (_pct(null["rate_at_n"], null["se_at_n"])
                                           if has_df else "—")}
        for s in ("Set 1", "Set 2", "Set 3", "Set 4"):
            if s not in h.index:
                continue
            x = h.loc[s]
            what = "rate" if s == "Set 1" else "power"
            row[f"{s} {what} %: textbook → calibrated"] = (
                f"{_pct(x['rate_textbook'])} → {_pct(x['rate_at_n'])}" if has_df
                else _pct(x["rate_textbook"]))
        sets = h.loc[[s for s in ("Set 2", "Set 3", "Set 4") if s in h.index]]
        row["R (null)"] = "—" if not np.isfinite(null["R"]) else f"{null['R']:.2f}"
        row["R (Sets 2–4, mean)"] = ("—" if not np.isfinite(sets["R"]).any()
                                     else f"{sets['R'].mean():.2f}")
        row["coverage of 0 on the null %"] = _pct(null["coverage_null"])
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
            row[f"n = {r['n']}: df"] = (f"{_df_text(r['df_textbook'])} / "
                                        f"{_df_text(r['df_calibrated'])} / "
                                        f"{_df_text(r['df_at_n'])}")
            row[f"n = {r['n']}: Type I %"] = (f"{_pct(r['rate_textbook'])} / "
                                              f"{_pct(r['rate_calibrated'])} / "
                                              f"{_pct(r['rate_at_n'])}")
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
                                   f"Type I {_pct(least[1])}%)")
                continue
            best_power = max(c[3] for c in valid)
            near = [c for c in valid if c[3] >= best_power - 0.01]
            best = sorted(near, key=lambda c: (-c[4], c[5]))[0]
            df = "calibrated df, " if best[0] in DF_TESTS else ""
            where = f" on {TESTS[best[0]][0]}" if design == "any design" else ""
            row[f"n = {n}"] = (f"{TESTS[best[0]][1]}{where} ({df}Type I {_pct(best[1])}%, "
                               f"power {_pct(best[3])}%"
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


def _save(fig, path: Path) -> Path:
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
        text += (f" The cv CLT test rejects {_pct(clt['rate_used'].iloc[0])}% of the null "
                 "data sets: it targets this data set's k-fold error, which differs between "
                 "two learners by chance even when they are equally good on average.")
    if len(ncv):
        text += f" NCV rejects {_pct(ncv['rate_used'].iloc[0])}%."
    boot = g[g["test"] == "bootstrap_cv"]
    if len(boot):
        text += (f" The bootstrap cv test rejects {_pct(boot['rate_used'].iloc[0])}% "
                 f"(unadjusted: "
                 f"{_pct(g.loc[g['test'] == 'bootstrap_cv_unadjusted', 'rate_used'].iloc[0])}"
                 "%), with 20 bootstrap samples of 5 splits: the cost of 10 × 10 cv, where "
                 "Cai et al. use several hundred samples. Its variance component is "
                 f"estimated at 0 on {_pct(boot['share_at_bound'].iloc[0])}% of these data "
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
    t = summary_table(study, tables, scores)
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
        paths["at_n.png"] = _save(fig, folder / f"{study.name}_n{n_show}.png")
    fig = figure_type1_vs_n(t, alpha, reduced)
    if fig is not None:
        paths["type1_vs_n.png"] = _save(fig, folder / f"{study.name}_type1_vs_n.png")
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
        "Type I % at textbook df": [_pct(v) for v in f["type1_textbook"]],
        "df calibrated at this n": [_df_text(v) for v in f["df_at_n"]],
        "continuous df [95%]": [f"{_df_text(a, 2)} [{_df_text(b, 2)}, {_df_text(c, 2)}]"
                                for a, b, c
                                in zip(f["df_at_n_continuous"], f["df_at_n_low"],
                                       f["df_at_n_high"])],
        "fresh check: df on half 1": [_df_text(v) for v in f["fresh_df"]],
        "fresh check: Type I % on half 2 (SE)": [_pct(a, b) for a, b in
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
                            _pct(r["rate_textbook"], r["se_textbook"]),
                        ("Type I %" if lam == 0 else "power %") + ", calibrated df":
                            _pct(r["rate_calibrated"], r["se_calibrated"])})
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
    paths["budget.png"] = _save(figure_budget(t, alpha, reduced), folder / f"{study.name}.png")
    show = pd.DataFrame({
        "test": t["label"], "B × C": t["design"], "fits": t["fits"],
        "Type I % (SE)": [_pct(a, b) for a, b in zip(t["rate"], t["mc_se"])],
        "keeps α (≤ α + 2 SE)": ["yes" if _valid(a, n, alpha) else "no"
                                 for a, n in zip(t["rate"], t["n_datasets"])],
        "data sets at the bound %": [_pct(v) for v in t["share_at_bound"]]})
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
