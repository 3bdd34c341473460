"""Layout of ``studies/plan_validation.toml``: ``calibsim plan`` against the studies it
generalises (issue 42, item 5).

The engine's ``plan`` analysis (:mod:`calibsim.engine._plan_analysis`) runs
:func:`calibsim.plan` on the study's sources; this layout puts its rates beside the
committed rates they should reproduce, read from the tracked CSVs of those studies (never
copied here), with z = (plan − committed) / the Monte Carlo SE of the difference (two
proportions, at the pooled rate, so that a rate of 0 still has an error):

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

__all__ = ["LAYOUTS", "z_two_proportions", "FIGURES"]

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


def _df_text(v) -> str:
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

def _pct(v) -> str:
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
               f"df {_df_text(r.plan_df)} in plan against {_df_text(r.committed_df)} in the "
               "study")
        parts.append(f"{what(r)} {r.label} ({_pct(r.plan)}% against {_pct(r.committed)}%, "
                     f"z = {r.z:+.2f}; {why})")
    return " Outside: " + "; ".join(parts) + "."


def summary(dt, bt, ft, rec) -> str:
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
              f"{_pct(s1['plan'].min())}–{_pct(s1['plan'].max())}% against the study's "
              f"{_pct(s1['committed'].min())}–{_pct(s1['committed'].max())}% "
              f"({int((s1['z'] < 0).sum())} of {len(s1)} below, the tests sharing their "
              "data sets)")
        if len(own):
            d = s1["own_difference"].dropna()
            s += (f"; the undamaged learners (their measured difference "
                  f"{100 * d.min():.2f}–{100 * d.max():.2f} points, damage almost none) "
                  f"reject {_pct(own.min())}–{_pct(own.max())}%")
        s += "."
    text.append(s)
    z = ft["z"].abs()
    s = (f"**(c) A fresh seed.** Of the {len(ft)} rates of the two plans (every design, test "
         f"and Δ), {int((z > 2.58).sum())} ({100 * np.mean(z > 2.58):.1f}%) have |z| > 2.58 "
         f"and {int((z > 1.96).sum())} ({100 * np.mean(z > 1.96):.1f}%) |z| > 1.96, against "
         f"about 1% and 5% if plan's standard errors are honest (largest |z| {z.max():.2f}).")
    if len(rec):
        parts = [f"Δ = {100 * r.difference:g} points: {r.design} with {r.label}, predicted "
                 f"{_pct(r.rejection_rate)}% ± {_pct(r.rejection_se)}, fresh "
                 f"{_pct(r.rejection_rate_fresh)}% ± {_pct(r.rejection_se_fresh)} "
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
        "df (study / plan)": [f"{_df_text(a)} / {_df_text(b)}"
                              for a, b in zip(t["committed_df"], t["plan_df"])],
        "committed (%)": [_pm(r, s) for r, s in zip(t["committed"], t["committed_se"])],
        "plan (%)": [_pm(r, s) for r, s in zip(t["plan"], t["plan_se"])],
        "z": t["z"].map("{:+.2f}".format)}).to_markdown(index=False)


def _md_ban(t) -> str:
    return pd.DataFrame({
        "set": t["set"].str.replace("set", "Set "), "test": t["label"], "design": t["design"],
        "Δ compared (points)": (100 * t["plan_difference"]).map("{:.2f}".format),
        "df (study / plan)": [f"{_df_text(a)} / {_df_text(b)}"
                              for a, b in zip(t["committed_df"], t["plan_df"])],
        "committed (%)": [_pm(r, s) for r, s in zip(t["committed"], t["committed_se"])],
        "plan (%)": [_pm(r, s) for r, s in zip(t["plan"], t["plan_se"])],
        "z": t["z"].map("{:+.2f}".format),
        "plan at Δ = 0 (%)": t["plan_type1"].map(_pct),
        "plan at own Δ (%)": t["plan_own"].map(lambda v: "—" if not np.isfinite(v)
                                               else _pct(v))}).to_markdown(index=False)


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

def figure(dt, bt, *, reduced=None):
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
            ax.annotate(f"{r.label}: df {_df_text(r.plan_df)} vs {_df_text(r.committed_df)}",
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
        f"# {study.title}\n\n", summary(dt, bt, ft, rec), "\n\n",
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
    fig = figure(dt, bt, reduced=reduced_size(study))
    paths[f"{name}.png"] = save_figure(fig, folder / f"{name}.png")
    return paths


LAYOUTS = {"plan_validation": _plan_validation}
