"""Layout of ``studies/cv_inference_1998_2023_coverage.toml``: interval coverage on the BAN sets.

Issue 43, item 4 asks for "interval coverage where it gives an interval" beside the Type
I error, power and replicability of ``studies/cv_inference_1998_2023.toml``. On the
BAN sets that needs the true difference of the two learners, which the engine's
``coverage`` analysis draws from each network (``truth = "drawn"``,
:mod:`calibsim.engine._truth`). One Markdown report, ``<study>.md``: the truths with
their Monte Carlo SE, one table of coverage per test, set and n, and sentences whose
every number and verdict is computed from the two coverage tables.

The verdict of a cell, at the table's confidence 1 - α: **under** where the upper
Clopper-Pearson 95% end of the largest coverage the truth allows (truth moved 2 SE
either way) is below 1 - α, **over** where the lower end of the smallest is above it,
**nominal** otherwise (within the Monte Carlo error of both the data sets and the truth).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ._cv_inference import TESTS

__all__ = ["write_coverage", "coverage_cells", "summary_table", "verdict"]


def verdict(row) -> str:
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
    t["verdict"] = [verdict(r) for _, r in t.iterrows()]
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


def summary_table(t) -> pd.DataFrame:
    """Per test (comparison order): design, coverage pooled over its (set, n) cells (mean,
    with the SE from the cells' own), its range and the count of each verdict."""
    rows = []
    for test, g in t.groupby("test", sort=False):
        k = g["verdict"].value_counts()
        pooled, se = _pooled(g)
        rows.append({"test": TESTS[test][1], "design": TESTS[test][0],
                     "coverage %, pooled (SE)": f"{_pct(pooled)} ({_pct(se)})",
                     "range over the cells": f"{_pct(g['coverage'].min())}–"
                                             f"{_pct(g['coverage'].max())}",
                     "cells nominal / under / over": " / ".join(
                         str(int(k.get(v, 0))) for v in ("nominal", "under", "over"))})
    return pd.DataFrame(rows)


def _pct(v) -> str:
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
                f"{_pct(g['coverage'].min())}–{_pct(g['coverage'].max())}% over the "
                f"{len(g)} (set, n) cells, {_pct(pooled)}% ({_pct(pooled_se)}) pooled; "
                f"nominal in {int(k.get('nominal', 0))}, under in "
                f"{int(k.get('under', 0))}, over in {int(k.get('over', 0))}")
        if len(under):
            worst = under.loc[under["coverage"].idxmin()]
            below = float(under["miss_below"].sum()) / max(float(
                (under["miss_below"] + under["miss_above"]).sum()), 1e-300)
            text += (f" (lowest {_pct(worst['coverage'])}% on {worst['set']} at "
                     f"n = {worst['n']}; of the misses in those cells "
                     f"{_pct(below)}% had the truth below the interval)")
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
                     "coverage %, textbook df (SE)": f"{_pct(before)} ({_pct(bse)})",
                     "coverage %, calibrated df (SE)": f"{_pct(pooled)} ({_pct(se)})",
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
        summary_table(t).to_markdown(index=False, disable_numparse=True), "\n",
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
