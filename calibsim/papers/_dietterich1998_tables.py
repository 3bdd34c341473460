"""Dietterich (1998): the Type I error table in the paper's terms, and its findings beside ours.

The numbers are the engine's ``rejection_rate`` analyses; this module only names the
tests as the paper does, adds the counts and the ε-point pairs (e1, e2) of every
source, and sets our rates beside each qualitative finding of Dietterich (1998, §4)
with a stated rule on the 95% Clopper–Pearson interval.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

__all__ = ["LABELS", "label", "type1_table", "paper_comparison", "wide_table"]

#: Display labels of the registry's tests as the paper (and the old drivers) name them;
#: ``{k}`` is the scheme's number of folds.
LABELS = {"mcnemar": "McNemar", "mcnemar_exact": "McNemar exact",
          "proportions": "difference of proportions", "resampling": "resampled t",
          "kfold_cv": "{k}-fold cv t", "cv5x2_t": "5x2cv t", "cv5x2_f": "5x2cv F (Alpaydin)"}

#: Columns of the type1 table, in order (those a study lacks are left out).
COLUMNS = ("source", "group", "epsilon", "e1", "e2", "pair_a", "pair_b", "test", "label",
           "scheme", "n_runs", "n_folds", "n_resamples", "alpha", "df", "df_rule", "n",
           "n_rejected", "type1_error", "mc_se", "ci_low", "ci_high")


def label(test: str, n_folds: int = 10) -> str:
    """The paper's name of a registry test (the test name itself if it has none).

    Examples
    --------
    >>> label("resampling"), label("kfold_cv", 10), label("use_all_data")
    ('resampled t', '10-fold cv t', 'use_all_data')
    """
    return LABELS.get(test, test).format(k=int(n_folds))


def type1_table(study, tables: dict) -> pd.DataFrame:
    """The study's ``rejection_rate`` tables as one Type I error table in the paper's terms.

    The engine's shared columns stay (``rate`` becomes ``type1_error``); added are
    ``n_rejected`` (data sets on which the test rejects), ``n_resamples`` (the number
    of resampled splits of the resampled t, 0 for the other tests, as in the old
    drivers' tables) and, for ε-point sources, ``epsilon``, ``e1`` and ``e2`` of every
    source (a source group with a ``gap`` rule has only ``epsilon`` in its grid).
    ``label`` holds the paper's names (``resampled t``, ``10-fold cv t``, ...).
    """
    frames = [tables[a.name] for a in study.analyses if a.kind == "rejection_rate"]
    t = pd.concat(frames, ignore_index=True).rename(columns={"rate": "type1_error"})
    built = {s.label: s for s in study.sources}
    if all(s.kind == "epsilon_point" for s in study.sources):
        for col in ("epsilon", "e1", "e2"):
            t[col] = [float(getattr(built[s].build(), col)) for s in t["source"]]
    t["label"] = [label(test, k) for test, k in zip(t["test"], t["n_folds"])]
    t["n_resamples"] = np.where(t["test"] == "resampling", t["n_runs"], 0)
    t["n_rejected"] = np.rint(t["type1_error"] * t["n"]).astype(np.int64)
    return t[[c for c in COLUMNS if c in t.columns]]


def _fmt(row) -> str:
    return f"{100 * row.type1_error:.1f}% [{100 * row.ci_low:.1f}, {100 * row.ci_high:.1f}]"


def paper_comparison(table: pd.DataFrame, *, alpha: float = 0.05, labels=None) -> list[dict]:
    """Set our Type I errors beside each qualitative finding of Dietterich (1998, §4).

    Verdicts follow stated rules on the 95% Clopper–Pearson intervals: a test
    *exceeds* α at an ε if the interval's lower bound is > α, and is
    *acceptable* there if the lower bound is <= α.

    Parameters
    ----------
    table : pandas.DataFrame
        Rows of one source group of :func:`type1_table` (columns ``test``,
        ``epsilon``, ``n_resamples``, ``type1_error``, ``ci_low``, ``ci_high``).
    alpha : float, default 0.05
    labels : dict of str to str, optional
        Display name per test (default: :func:`label` with 10 folds).

    Returns
    -------
    list of dict
        Keys ``claim``, ``ours``, ``rule``, ``verdict`` ("agrees" or "differs").
    """
    labels = labels or {t: label(t) for t in LABELS}
    out = []
    fixed = table[table["n_resamples"] == 0]
    res = table[table["n_resamples"] > 0]
    main_res = res[res["n_resamples"] == 30] if (res["n_resamples"] == 30).any() else res
    rows = {t: g.sort_values("epsilon") for t, g in pd.concat([fixed, main_res]).groupby("test")}

    def describe(test):
        return "; ".join(f"ε={r.epsilon:.2f}: {_fmt(r)}" for r in rows[test].itertuples())

    def exceeds_any(test):
        return bool((rows[test]["ci_low"] > alpha).any())

    def acceptable_all(test):
        return bool((rows[test]["ci_low"] <= alpha).all())

    for test in ("proportions", "resampling"):
        if test in rows:
            out.append({
                "claim": f"{labels.get(test, test)}: Type I error exceeds the target 0.05",
                "ours": describe(test),
                "rule": "agrees if the CI lower bound is > α at one ε at least",
                "verdict": "agrees" if exceeds_any(test) else "differs"})
    five = [t for t in ("mcnemar", "proportions", "resampling", "kfold_cv", "cv5x2_t")
            if t in rows]
    if "resampling" in rows and len(five) >= 4:
        wide = pd.DataFrame({t: rows[t].set_index("epsilon")["type1_error"] for t in five})
        top = wide.idxmax(axis=1)
        low = rows["resampling"].set_index("epsilon")["ci_low"]
        others = pd.DataFrame({t: rows[t].set_index("epsilon")["ci_high"] for t in five
                               if t != "resampling"}).max(axis=1)
        clear = bool((low > others).all())         # two-sided: beyond MC error (issue 34)
        out.append({
            "claim": "the resampled t has the highest Type I error of the five tests",
            "ours": "highest: " + "; ".join(f"ε={e:.2f}: {labels.get(t, t)}"
                                            for e, t in top.items()),
            "rule": "agrees if at every ε the resampled t's 95% interval lies wholly above "
                    "every other test's; partly if it is only the highest point estimate",
            "verdict": ("agrees" if (top == "resampling").all() and clear else
                        "partly" if (top == "resampling").all() else "differs")})
    if "proportions" in rows and rows["proportions"]["epsilon"].nunique() > 1:
        g = rows["proportions"]
        lo_e, hi_e = g.iloc[0], g.iloc[-1]
        out.append({
            "claim": "difference of proportions: worse as ε approaches 0.5",
            "ours": f"ε={lo_e.epsilon:.2f}: {_fmt(lo_e)}; ε={hi_e.epsilon:.2f}: {_fmt(hi_e)}",
            "rule": "agrees if the CI at the largest ε lies wholly above the CI at the "
                    "smallest ε",
            "verdict": "agrees" if hi_e.ci_low > lo_e.ci_high else "differs"})
    vs_splits = res["n_resamples"].nunique() > 2
    for test in ("mcnemar", "kfold_cv", "cv5x2_t"):
        if test in rows and not vs_splits:
            out.append({
                "claim": f"{labels.get(test, test)}: acceptable Type I error (near or "
                         f"below 0.05)",
                "ours": describe(test),
                "rule": "agrees if the CI lower bound is <= α at every ε",
                "verdict": "agrees" if acceptable_all(test) else "differs"})
    if vs_splits:
        for e, g in res.groupby("epsilon"):
            g = g.sort_values("n_resamples")
            first, last = g.iloc[0], g.iloc[-1]
            rho = stats.spearmanr(g["n_resamples"], g["type1_error"]).statistic
            out.append({
                "claim": f"resampled t: Type I error grows with the number of resampled "
                         f"splits (ε = {e:.2f})",
                "ours": f"{int(first.n_resamples)} splits: {_fmt(first)}; "
                        f"{int(last.n_resamples)} splits: {_fmt(last)}; Spearman ρ over "
                        f"{len(g)} points {rho:.2f}",
                "rule": "agrees if the CI at the most splits lies wholly above the CI at the "
                        "fewest, and Spearman ρ > 0",
                "verdict": "agrees" if last.ci_low > first.ci_high and rho > 0 else "differs"})
        if "kfold_cv" in rows:
            out.append({
                "claim": f"the {labels.get('kfold_cv', 'kfold_cv')} does not show this problem",
                "ours": describe("kfold_cv"),
                "rule": "agrees if its CI lower bound is <= α",
                "verdict": "agrees" if acceptable_all("kfold_cv") else "differs"})
    return out


def wide_table(table: pd.DataFrame, labels: dict, column_key: str) -> pd.DataFrame:
    """Cells 'rate [CI low, CI high]' in percent, one row per test, one column per ``column_key``."""
    cell = [f"{100 * r.type1_error:.1f} [{100 * r.ci_low:.1f}, {100 * r.ci_high:.1f}]"
            for r in table.itertuples()]
    t = table.assign(cell=cell, label=[labels[x] for x in table["test"]])
    wide = t.pivot(index="label", columns=column_key, values="cell")
    return wide.loc[list(dict.fromkeys(t["label"]))].fillna("")


def epsilon_markdown(table: pd.DataFrame, labels: dict, by_splits: bool) -> str:
    """The ε-point Type I error tables (Markdown), one per source group.

    ``by_splits``: one column per number of resampled splits (Figure 5) instead of
    one per ε (Figure 4).
    """
    md = []
    for group, t in table.groupby("group", sort=False):
        if by_splits:
            t = t.assign(n_resamples=t["n_resamples"].astype(object).where(
                t["n_resamples"] > 0, "no resampling"))
        pe = ", ".join(f"ε={r.epsilon:.2f}: ({r.e1:.3f}, {r.e2:.3f})"
                       for r in t.drop_duplicates("epsilon").itertuples())
        md.append(f"### Type I error, % [95% Clopper–Pearson], pairs `{group}`: {pe}\n\n")
        if by_splits:
            for e, te in t.groupby("epsilon"):
                md.append(f"ε = {e:.2f}\n\n" + wide_table(te, labels, "n_resamples")
                          .to_markdown() + "\n\n")
        else:
            md.append(wide_table(t, labels, "epsilon").to_markdown() + "\n\n")
    return "".join(md)


def counts_markdown(table: pd.DataFrame) -> str:
    """One row per test: label, rejections, data sets, rate (%) and its 95% interval."""
    shown = table.assign(**{"n_trials": table["n"],
                            "Type I error %": (100 * table["type1_error"]).round(1),
                            "95% CI": [f"[{100 * lo:.1f}, {100 * hi:.1f}]" for lo, hi in
                                       zip(table["ci_low"], table["ci_high"])]})
    return shown[["label", "n_rejected", "n_trials", "Type I error %", "95% CI"]].to_markdown(
        index=False)
