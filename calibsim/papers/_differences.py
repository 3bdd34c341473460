"""The differences register: every reported cell where ours and the paper's differ (issue 22).

One command, ``calibsim differences``, reads the studies' tracked outputs in
``figures/<paper>/`` (and the variant studies' outputs in ``figures/<paper>/variants/``),
sets each reported number beside the paper's, and writes per paper

- ``figures/<paper>/differences.csv``: one row per cell where the two differ by more
  than 3 Monte Carlo standard errors (or, for a claim checked by a rule, whose verdict is
  "differs" or "partly"), with a status and its evidence;
- ``figures/<paper>/differences.md``: the counts (cells checked, agreeing, and the
  differences by status) and the same rows as a table.

Only the ``status`` and ``evidence`` columns are typed by hand (:data:`STATUS`); every
number is recomputed from the outputs on each call, and a variant study's number is put
beside the paper's in the ``variant`` columns.

Monte Carlo standard error of a difference (``se``):

- rates and shares over N simulated data sets (Type I error, consistency): the pooled
  two-proportion SE ``sqrt(p(1 - p) (1/N_ours + 1/N_paper))`` with ``p`` the pooled share,
  since the paper's number has Monte Carlo error too (it used N = 1000 data sets);
- mean accuracies: ``sqrt(2)`` times our Monte Carlo SE (the paper's design is the same);
- counts of consistent data sets over the real UCI sets (Bouckaert & Frank Tables 1-4):
  the same two-proportion SE over the data sets, a yardstick only: the data sets are
  (almost) the same, so it overstates the error of a rerun;
- average ranks (Ulaş et al.): the SE of our mean rank over the data sets;
- exact computations (Scheffer & Herbrich): no Monte Carlo error; a cell differs when ours,
  rounded to the paper's printed digits, is not the paper's number.
"""

from __future__ import annotations

import math
import re
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from ._differences_status import STATUS

__all__ = ["COLUMNS", "STATUS", "STATUSES", "cells", "register", "write_registers",
           "scheffer_herbrich_readings", "PAPERS"]

PAPERS = ("bouckaert2003", "bouckaert_frank2004", "dietterich1998", "scheffer_herbrich1997",
          "ulas2012")
STATUSES = ("explained by experiment", "explained by argument", "open")
COLUMNS = ("paper", "where", "cell", "ours", "paper_value", "se", "z", "unit", "beyond_3se",
           "status",
           "evidence", "variant", "variant_value", "variant_se")
#: A difference is a cell further than this many standard errors from the paper's value.
Z_LIMIT = 3.0
_VERDICT = re.compile(r"\|\s*\**(agrees|partly|differs|verdict)\**\s*\|\s*$")


def _ref(paper: str, name: str) -> pd.DataFrame:
    path = resources.files("calibsim") / f"data/reference/{paper}/{name}"
    return pd.read_csv(path, comment="#")


def _two_prop_se(p1, n1, p2, n2) -> float:
    """Pooled SE of p1 - p2 for shares over n1 and n2 independent trials."""
    p = (p1 * n1 + p2 * n2) / (n1 + n2)
    return math.sqrt(max(p * (1 - p), 0.0) * (1 / n1 + 1 / n2))


def _cell(paper, where, cell, ours, published, se, unit, *, exact_digits=None) -> dict:
    """One compared cell; ``differs`` by 3 SE, or by rounding when ``exact_digits``."""
    ours, published = float(ours), float(published)
    diff = ours - published
    if exact_digits is not None:
        z = float("nan")
        differs = round(ours, exact_digits) != round(published, exact_digits)
    elif se > 0:
        z = diff / se
        differs = abs(z) > Z_LIMIT
    else:
        z = float("nan") if diff == 0 else math.copysign(float("inf"), diff)
        differs = diff != 0
    return {"paper": paper, "where": where, "cell": cell, "ours": ours,
            "paper_value": published, "se": se, "z": z, "unit": unit,
            "differs": bool(differs)}


def _verdict_cells(paper: str, folder: Path) -> list[dict]:
    """Claims checked by a rule in the paper's reports: 'differs' and 'partly' are differences."""
    out = []
    for report in sorted(folder.glob("*_report.md")):
        stem, section, ours_col = report.stem.replace("_report", ""), "", 1
        for line in report.read_text(encoding="utf-8").splitlines():
            if line.startswith("#"):
                section = line.lstrip("#").strip()
                continue
            m = _VERDICT.search(line)
            if not m:
                continue
            parts = [p.strip() for p in line.strip().strip("|").split("|")]
            if parts[-1].lower() == "verdict":      # a header: find the column of our value
                heads = [p.lower() for p in parts]
                ours_col = next((i for i, h in enumerate(heads) if h in ("ours", "calibsim")), 1)
                continue
            where = f"{stem}: {section}" if section and not section.startswith(
                ("Bouckaert", "Dietterich", "Scheffer", "Ulaş")) else stem
            ours = parts[ours_col] if ours_col < len(parts) - 1 else ""
            out.append({"paper": paper, "where": where, "cell": parts[0][:200],
                        "ours": float("nan"), "paper_value": float("nan"), "se": float("nan"),
                        "z": float("nan"), "unit": f"claim; ours: {ours[:200]}",
                        "differs": m.group(1) != "agrees"})
    return out


# ---------------------------------------------------------------- Bouckaert (2003)
def _bouckaert2003(fig: Path) -> list[dict]:
    P = "bouckaert2003"
    out = []
    t2 = pd.read_csv(fig / "bouckaert2003_table2_type1.csv")
    ref = _ref(P, "table2_type1_vs_class_prior.csv").set_index("test")
    for r in t2.itertuples():
        v = ref.loc[r.label, f"{r.class_prior:g}"]
        out.append(_cell(P, "Table 2", f"{r.label}, class prior {r.class_prior:g}",
                         100 * r.rate, v, 100 * _two_prop_se(r.rate, r.n, v / 100, 1000), "%"))
    t3 = pd.read_csv(fig / "bouckaert2003_table3_accuracies.csv")
    for r in t3.itertuples():
        out.append(_cell(P, "Table 3", f"{r.quantity}, {r.set}", r.accuracy_pct, r.paper_pct,
                         math.sqrt(2) * r.mc_se_pct, "% accuracy"))
    t4 = pd.read_csv(fig / "bouckaert2003_table4_type1_vs_alpha.csv")
    ref = _ref(P, "table4_type1_vs_alpha.csv").set_index("test")
    for r in t4[t4["source"] == "set1"].itertuples():
        col = next(c for c in ref.columns if np.isclose(float(c), r.alpha))
        v = ref.loc[r.label, col]
        out.append(_cell(P, "Table 4", f"{r.label}, α = {r.alpha:g}", 100 * r.rate, v,
                         100 * _two_prop_se(r.rate, r.n, v / 100, 1000), "%"))
    t5 = pd.read_csv(fig / "bouckaert2003_table56_table5_replicability.csv")
    t5 = t5[t5["alpha"] == 0.05].replace({"label": {"5x2cv t": "5x2 cv"}})
    ref = _ref(P, "table5_replicability.csv").set_index("test")
    for r in t5.itertuples():
        v = ref.loc[r.label, r.source]
        out.append(_cell(P, "Table 5", f"{r.label}, {r.source}", 100 * r.consistent, v,
                         100 * _two_prop_se(r.consistent, r.n, v / 100, 1000), "% consistent"))
    t6 = pd.read_csv(fig / "bouckaert2003_table56_table6_min_replicability_vs_alpha.csv")
    t6 = t6.replace({"label": {"5x2cv t": "5x2 cv"}})
    ref = _ref(P, "table6_replicability_vs_alpha.csv").set_index("test")
    for r in t6.itertuples():
        if r.label not in ref.index:
            continue
        col = next(c for c in ref.columns if np.isclose(float(c), r.alpha))
        v = ref.loc[r.label, col]
        out.append(_cell(P, "Table 6", f"{r.label}, α = {r.alpha:g} (min over sets)",
                         100 * r.consistent, v,
                         100 * _two_prop_se(r.consistent, r.n, v / 100, 1000), "% consistent"))
    t7 = pd.read_csv(fig / "bouckaert2003_table7_type1_learner_pairs.csv")
    ref = _ref(P, "table7_type1_other_learners.csv").set_index(["pair_a", "pair_b"])
    for r in t7.itertuples():
        v = ref.loc[(r.pair_a, r.pair_b), "type1_percent"]
        out.append(_cell(P, "Table 7", f"{r.pair_a} vs {r.pair_b}", 100 * r.rate, v,
                         100 * _two_prop_se(r.rate, r.n, v / 100, 1000), "%"))
    return out + _verdict_cells(P, fig)


# ---------------------------------------------------------- Bouckaert & Frank (2004)
def _bouckaert_frank2004(fig: Path) -> list[dict]:
    P = "bouckaert_frank2004"
    out = []
    s1 = pd.read_csv(fig / "bouckaert_frank2004_table1_summary.csv")
    for r in s1.itertuples(index=False):
        n = r[1]
        for i, name in ((2, "consistent"), (5, "almost consistent")):
            ours, pap = r[i], r[i + 1]
            out.append(_cell(P, "Table 1", f"{r.pair}, {name} (same {n} data sets)", ours, pap,
                             n * _two_prop_se(ours / n, n, pap / n, n), "data sets"))
    for t, key in (("Table 2", "n_runs"), ("Table 3", "n_runs"), ("Table 4", "alpha")):
        tab = pd.read_csv(fig / f"bouckaert_frank2004_tables234_table{t[-1]}.csv")
        for r in tab.itertuples(index=False):
            n = r[2]
            lab = f"r = {r[1]:g}" if key == "n_runs" else f"α = {r[1]:g}"
            for i, name in ((3, "consistent"), (5, "almost consistent")):
                ours, pap = r[i], r[i + 1]
                if pd.isna(pap):
                    continue
                out.append(_cell(P, t, f"{r.pair}, {lab}, {name} (of {n} ours, 27 paper)",
                                 ours, pap, n * _two_prop_se(ours / n, n, pap / 27, 27),
                                 "data sets"))
        if t == "Table 3":            # the order: R rises with the number of runs
            for pair, g in tab.groupby("pair", sort=False):
                g = g.sort_values("n_runs")
                ours_up = bool(np.all(np.diff(g["R ours"]) >= 0))
                paper = g["R paper (27)"].dropna()
                paper_up = bool(np.all(np.diff(paper) >= 0))
                seq = ", ".join(f"{v:.3f}" for v in g["R ours"])
                out.append({"paper": P, "where": t, "cell": f"{pair}: R rises with r",
                            "ours": float(g["R ours"].iloc[0]),
                            "paper_value": float(paper.iloc[0]), "se": float("nan"),
                            "z": float("nan"),
                            "unit": f"order; R at r = 1 shown; ours {seq} "
                                    f"({'rises' if ours_up else 'not monotone'}), paper "
                                    f"{', '.join(f'{v:.3f}' for v in paper)}",
                            "differs": ours_up != paper_up})
    t5 = pd.read_csv(fig / "bouckaert_frank2004_table5_consistency.csv").set_index("test")
    for test, r in t5.iterrows():
        for s in ("source1", "source2", "source3", "source4"):
            ours, pap = r[f"{s} ours"], r[f"{s} paper"]
            if pd.isna(pap) or test == "delta_accuracy":
                continue
            out.append(_cell(P, "Table 5", f"{test}, {s.replace('source', 'Set ')}", ours, pap,
                             100 * _two_prop_se(ours / 100, 1000, pap / 100, 1000),
                             "% consistent"))
    acc = pd.read_csv(fig / "bouckaert_frank2004_table5_accuracy.csv")
    for s in ("source1", "source2", "source3", "source4"):
        a = acc[acc["source"] == s.replace("source", "set")].set_index("learner")
        if a.empty:
            continue
        se = 100 * math.sqrt(2 * (a.loc["naive_bayes", "accuracy_se"] ** 2
                                  + a.loc["c45", "accuracy_se"] ** 2))
        out.append(_cell(P, "Table 5", f"accuracy C4.5 − naive Bayes, {s.replace('source', 'Set ')}",
                         t5.loc["delta_accuracy", f"{s} ours"],
                         t5.loc["delta_accuracy", f"{s} paper"], se, "% accuracy"))
    return out + _verdict_cells(P, fig)


# ---------------------------------------------------------------- Dietterich (1998)
def _dietterich1998(fig: Path) -> list[dict]:
    P = "dietterich1998"
    out = _verdict_cells(P, fig)
    f4 = pd.read_csv(fig / "dietterich1998_figure4_type1.csv")
    rt = f4[(f4["test"] == "resampling") & f4["source"].str.startswith("widest")]
    for r in rt.itertuples():
        out.append({"paper": P, "where": "Figure 4", "cell": f"resampled t, ε = {r.epsilon:g}: "
                    f"Type I error with the widest (e1, e2) = ({r.e1:g}, {r.e2:g})",
                    "ours": 100 * r.type1_error, "paper_value": float("nan"),
                    "se": 100 * r.mc_se, "z": float("nan"),
                    "unit": "% (set-up difference: the paper's (e1, e2) pairs are lost; its "
                            "values are read off a figure)", "differs": True})
    return out


# ------------------------------------------------------ Scheffer & Herbrich (1997)
def scheffer_herbrich_readings() -> pd.DataFrame:
    """The §3.1 worked probabilities under two readings of "reach a rank".

    "at least" (calibsim's reading): ``P(Z >= ceil(a m) - hits)``; "strict": ``P(Z >
    ceil(a m) - hits)``, one hit more. FEM (m = 277, 59 hits, five problems of c labels)
    with Z binomial (5c draws at 218/277) and hypergeometric (5c drawn from the 277, one
    pool); Landsat (m = 2000, 1700 hits, c = 16) hypergeometric.

    Returns
    -------
    pandas.DataFrame
        Columns ``example``, ``sampling``, ``paper``, ``at_least``, ``strict``.

    Examples
    --------
    >>> t = scheffer_herbrich_readings().round(4)
    >>> t["example"].tolist()[::2]
    ['FEM, c = 5, acc >= 26%', 'FEM, c = 8, acc >= 31%', 'Landsat, c = 16, over-ranked (acc >= 85.3%)']
    >>> t["sampling"].tolist()[:2]
    ['binomial', 'hypergeometric']
    >>> t["at_least"].tolist()
    [0.9973, 0.9984, 0.9677, 0.9777, 0.0231]
    >>> t["strict"].tolist()
    [0.9909, 0.9936, 0.933, 0.9477, 0.0054]
    """
    rows = []
    m, hits = 277, 59
    for c, acc, paper in ((5, 0.26, 0.99), (8, 0.31, 0.93)):
        z = int(np.ceil(round(acc * m, 9))) - hits
        for sampling, dist in (("binomial", stats.binom(5 * c, (m - hits) / m)),
                               ("hypergeometric", stats.hypergeom(m, m - hits, 5 * c))):
            rows.append({"example": f"FEM, c = {c}, acc >= {acc:.0%}", "sampling": sampling,
                         "paper": paper, "at_least": float(dist.sf(z - 1)),
                         "strict": float(dist.sf(z))})
    m, hits, c = 2000, 1700, 16
    z = int(np.ceil(round(0.853 * m, 9))) - hits
    d = stats.hypergeom(m, m - hits, c)
    rows.append({"example": "Landsat, c = 16, over-ranked (acc >= 85.3%)",
                 "sampling": "hypergeometric", "paper": 0.02,
                 "at_least": float(d.sf(z - 1)), "strict": float(d.sf(z))})
    return pd.DataFrame(rows)


def _scheffer_herbrich1997(fig: Path) -> list[dict]:
    P = "scheffer_herbrich1997"
    out = []
    ex = pd.read_csv(fig / "scheffer_herbrich1997_examples.csv").dropna(subset=["paper"])
    for r in ex.itertuples():
        p = str(r.paper)
        digits = len(p.split(".")[1].rstrip("0")) if "." in p and not p.endswith(".0") else 0
        out.append(_cell(P, "§3.1 worked examples", f"{r.dataset}: {r.quantity}", r.ours,
                         r.paper, float("nan"), "exact", exact_digits=digits))
    for r in scheffer_herbrich_readings().itertuples():
        out.append(_cell(P, "§3.1 readings", f"{r.example}, {r.sampling}, strict reading",
                         r.strict, r.paper, float("nan"), "exact", exact_digits=2))
    return out + _verdict_cells(P, fig)


# ------------------------------------------------------------ Ulaş et al. (2012)
_ULAS_PAPER_RANKS = {"c45": 5.37, "lnp": 4.87, "mlp": 4.57, "svl": 3.05, "svr": 2.45,
                     "sv2": 5.07, "5nn": 5.18}


def _ulas_ranks(acc: pd.DataFrame) -> pd.DataFrame:
    """Per-data-set ranks (1 = most accurate, ties averaged) of the mean accuracies."""
    wide = acc.pivot_table(index="name", columns="learner", values="accuracy")
    return wide.rank(axis=1, ascending=False)


def _ulas2012(fig: Path) -> list[dict]:
    P = "ulas2012"
    out = []
    acc = pd.read_csv(fig / "ulas2012_real_accuracy.csv")
    ranks = _ulas_ranks(acc)
    for learner, paper in _ULAS_PAPER_RANKS.items():
        if learner not in ranks:
            continue
        col = ranks[learner]
        out.append(_cell(P, "Table 5(a) real data", f"average rank of {learner} (ours of 7 "
                         "learners, paper of 8)", col.mean(), paper,
                         col.std(ddof=1) / math.sqrt(col.size), "rank"))
    checks = pd.read_csv(fig / "ulas2012_published_checks.csv")
    for r in checks.itertuples():
        out.append({"paper": P, "where": "published tables", "cell": r.check,
                    "ours": float("nan"), "paper_value": float("nan"), "se": float("nan"),
                    "z": float("nan"), "unit": f"exact; ours: {str(r.ours)[:150]}",
                    "differs": not bool(r.equal)})
    orders = pd.read_csv(fig / "ulas2012_real_orders.csv")
    for r in orders.itertuples(index=False):
        out.append({"paper": P, "where": "§4.5 Multi²Test order", "cell": f"order with prior "
                    f"cost {r[0]}", "ours": float(r[4]), "paper_value": 1.0,
                    "se": float("nan"), "z": float("nan"),
                    "unit": f"Kendall τ with the paper's order; ours {r[2]}, paper {r[3]}",
                    "differs": float(r[4]) < 1.0})
    return out + _verdict_cells(P, fig)


_READERS = {"bouckaert2003": _bouckaert2003, "bouckaert_frank2004": _bouckaert_frank2004,
            "dietterich1998": _dietterich1998,
            "scheffer_herbrich1997": _scheffer_herbrich1997, "ulas2012": _ulas2012}


def cells(paper: str, figures: Path | str = "figures") -> pd.DataFrame:
    """Every compared cell of one paper, ours beside the paper's, with ``differs``.

    Parameters
    ----------
    paper : str
        One of :data:`PAPERS`.
    figures : path, default "figures"
        The folder holding ``<paper>/`` with the studies' outputs.

    Returns
    -------
    pandas.DataFrame
        Columns ``paper, where, cell, ours, paper_value, se, z, unit, differs``; ``z`` is
        (ours - paper) / se, NaN for claims and exact cells.

    Raises
    ------
    ValueError
        If ``paper`` is not one of :data:`PAPERS`.
    FileNotFoundError
        If a study output the paper's cells come from is missing.
    """
    if paper not in _READERS:
        raise ValueError(f"`paper` must be one of {', '.join(PAPERS)}; got {paper!r}.")
    return pd.DataFrame(_READERS[paper](Path(figures) / paper))


# ------------------------------------------------------------------- variants
def _variant_ulas(fig: Path, target: str, replace: dict):
    """Average rank of ``target`` when variant learners take their base learners' places.

    ``replace`` maps a variant learner of ``studies/variants/ulas2012_real_svm.toml`` to
    the base learner whose accuracies it replaces; returns (mean, SE over data sets).
    """
    path = fig / "ulas2012" / "variants" / "ulas2012_real_svm_accuracy.csv"
    if not path.is_file():
        return None
    acc = pd.read_csv(fig / "ulas2012" / "ulas2012_real_accuracy.csv")
    var = pd.read_csv(path)
    parts = [acc[~acc["learner"].isin(list(replace.values()))]]
    parts += [var[var["learner"] == v].assign(learner=b) for v, b in replace.items()]
    col = _ulas_ranks(pd.concat(parts))[target]
    return float(col.mean()), float(col.std(ddof=1) / math.sqrt(col.size))


def _variant_table(fig: Path, rel: str, test: str, source: str, alpha: float,
                   value: str = "consistent"):
    """One cell of a variant study's table, in percent: (value, SE)."""
    path = fig / rel
    if not path.is_file():
        return None
    t = pd.read_csv(path)
    r = t[(t["test"] == test) & (t["source"] == source) & np.isclose(t["alpha"], alpha)]
    if r.empty:
        return None
    se = "mc_se" if value == "rate" else f"{value}_se"
    return float(100 * r[value].iloc[0]), float(100 * r[se].iloc[0])


def _set_of(cell: str) -> str:
    return "set" + re.search(r"(?:Set |set)(\d)", cell).group(1)


_LABEL_TEST = {"resampling": "resampling", "corrected resampling": "corrected_resampling",
               "k-fold cv": "kfold_cv", "use all data": "use_all_data",
               "folds averaged var": "folds_averaged_var",
               "folds averaged T": "folds_averaged_t", "runs averaged var": "runs_averaged_var",
               "runs averaged T": "runs_averaged_t", "sorted runs": "sorted_runs"}
_T4 = "bouckaert2003/variants/bouckaert2003_table4_df10000_type1_vs_alpha.csv"
_CV5X2 = "bouckaert_frank2004/variants/bouckaert_frank2004_table5_cv5x2_numerator.csv"


def _variant_t4(fig, cell):
    label, alpha = re.match(r"(.+), α = ([\d.]+)", cell).groups()
    return _variant_table(fig, _T4, _LABEL_TEST[label], "set1", float(alpha), "rate")


def _variant_balanced(fig, cell):
    eps = float(re.search(r"ε = ([\d.]+)", cell).group(1))
    t = pd.read_csv(fig / "dietterich1998" / "dietterich1998_figure4_type1.csv")
    r = t[(t["test"] == "resampling") & t["source"].str.startswith("balanced")
          & np.isclose(t["epsilon"], eps)]
    return (float(100 * r["type1_error"].iloc[0]), float(100 * r["mc_se"].iloc[0])) if len(r) \
        else None


_CAL = "bouckaert2003/variants/bouckaert2003_calibration_10000_calibration.csv"
_ABOUT_11 = ("use_all_data", "folds_averaged_var", "folds_averaged_t", "runs_averaged_var",
             "runs_averaged_t", "sorted_runs")


def _variant_df(fig, cell):
    """Figure 2 claims on 10,000 data sets at r = 10: the df's fall from α = 1% to 10%
    (mean over the 'about 11' tests), or k-fold cv's df at α = 5% (value, bootstrap SE)."""
    path = fig / _CAL
    if not path.is_file():
        return None
    t = pd.read_csv(path)
    if "k-fold" in cell:
        r = t[(t["test"] == "kfold_cv") & np.isclose(t["alpha"], 0.05)]
        return float(r["calibrated_df"].iloc[0]), float(r["df_boot_se"].iloc[0])
    g = t[t["test"].isin(_ABOUT_11)].groupby("alpha")["calibrated_df"].mean()
    return float(g.iloc[0] - g.iloc[-1]), float("nan")


_T3 = "bouckaert_frank2004/variants/bouckaert_frank2004_table3_unstratified_table3.csv"
_PAIR = {"nb_vs_c45": ("naive_bayes", "c45"), "nb_vs_nn": ("naive_bayes", "ib1"),
         "c45_vs_nn": ("c45", "ib1")}


def _variant_unstratified(fig, cell):
    """Table 3: R at r = 1 with unstratified folds (mean over the data sets; no SE)."""
    path = fig / _T3
    if not path.is_file():
        return None
    t = pd.read_csv(path)
    a, b = _PAIR[cell.split(":")[0]]
    g = t[(t["pair_a"] == a) & (t["pair_b"] == b) & (t["n_runs"] == 1)]
    return (float(g["R"].mean()), float("nan")) if len(g) else None


_T56 = "bouckaert2003/variants/bouckaert2003_table56_df10000_calibrated.csv"


def _variant_t56(fig, cell):
    """Tables 5 and 6 with df from 10,000 data sets: consistency (%) and its SE."""
    path = fig / _T56
    if not path.is_file():
        return None
    t = pd.read_csv(path)
    m = re.match(r"(.+), α = ([\d.]+) \(min over sets\)", cell)
    if m:                                                     # Table 6: min over the sets
        g = t[(t["label"] == m.group(1)) & np.isclose(t["alpha"], float(m.group(2)))]
        r = g.loc[g["consistent"].idxmin()]
    else:                                                     # Table 5: α = 0.05, one set
        label = cell.rsplit(",", 1)[0]
        g = t[(t["label"] == label) & (t["source"] == _set_of(cell))
              & np.isclose(t["alpha"], 0.05)]
        if g.empty:
            return None
        r = g.iloc[0]
    return float(100 * r["consistent"]), float(100 * r["consistent_se"])


_VARIANTS = {
    "df_10000": _variant_df,
    "t56_df10000": _variant_t56,
    "unstratified": _variant_unstratified,
    "sv2_libsvm": lambda fig, cell: _variant_ulas(fig, "sv2", {"sv2_libsvm": "sv2"}),
    "sv2_minmax": lambda fig, cell: _variant_ulas(fig, "sv2", {"sv2_minmax": "sv2"}),
    "svl_minmax": lambda fig, cell: _variant_ulas(fig, "svl", {"svl_minmax": "svl"}),
    "svl_with_sv2_libsvm": lambda fig, cell: _variant_ulas(fig, "svl",
                                                           {"sv2_libsvm": "sv2"}),
    "cv5x2_f": lambda fig, cell: _variant_table(fig, _CV5X2, "cv5x2_f", _set_of(cell), 0.05),
    "df10000": _variant_t4,
    "balanced": _variant_balanced,
}
_VARIANT_FILES = {
    "t56_df10000": "studies/variants/bouckaert2003_table56_df10000.toml: df from 10,000 data "
                   "sets",
    "unstratified": "studies/variants/bouckaert_frank2004_table3_unstratified.toml: R at r = 1, "
                    "unstratified folds",
    "df_10000": "studies/variants/bouckaert2003_calibration_10000.toml: r = 10, 10,000 data "
                "sets",
    "sv2_libsvm": "studies/variants/ulas2012_real_svm.toml: sv2 with coef0 = 0",
    "sv2_minmax": "studies/variants/ulas2012_real_svm.toml: sv2 on [0, 1]-scaled inputs",
    "svl_minmax": "studies/variants/ulas2012_real_svm.toml: svl on [0, 1]-scaled inputs",
    "svl_with_sv2_libsvm": "studies/variants/ulas2012_real_svm.toml: svl's rank with sv2 "
                           "at coef0 = 0",
    "cv5x2_f": "studies/variants/bouckaert_frank2004_table5_cv5x2.toml: 5x2cv F, α = 0.05",
    "df10000": "studies/variants/bouckaert2003_table4_df10000.toml: df from 10,000 data sets",
    "balanced": "studies/dietterich1998_figure4.toml [sources.balanced]: balanced (e1, e2)",
}


def _rule(row):
    for rule in STATUS:
        if (rule.paper == row["paper"] and re.search(rule.where, row["where"])
                and re.search(rule.cell, row["cell"])):
            return rule
    return None


def register(paper: str, figures: Path | str = "figures") -> tuple[pd.DataFrame, dict]:
    """The differences of one paper with status and evidence, and the counts.

    Returns
    -------
    (pandas.DataFrame, dict)
        The rows of :data:`COLUMNS` (only cells that differ), and counts: ``cells``
        (compared), ``agree``, and one count per status in :data:`STATUSES`.
    """
    fig = Path(figures)
    allc = cells(paper, fig)
    rules = [_rule(r) for _, r in allc.iterrows()]
    keep = [bool(d) or (ru is not None and ru.always) for d, ru in zip(allc["differs"], rules)]
    rows = []
    for (_, r), rule, k in zip(allc.iterrows(), rules, keep):
        if not k:
            continue
        status, evidence, variant = ((rule.status, rule.evidence, rule.variant) if rule else
                                     ("open", "not yet examined: no variant study or "
                                      "argument recorded", ""))
        if not r["differs"]:
            evidence = (f"within {Z_LIMIT:g} SE of the difference (listed in issue 22). "
                        + evidence)
        value = _VARIANTS[variant](fig, r["cell"]) if variant else None
        rows.append({**r.drop(labels="differs").to_dict(), "beyond_3se": bool(r["differs"]),
                     "status": status, "evidence": evidence,
                     "variant": _VARIANT_FILES.get(variant, "") if value else "",
                     "variant_value": value[0] if value else float("nan"),
                     "variant_se": value[1] if value else float("nan")})
    out = pd.DataFrame(rows, columns=list(COLUMNS))
    counts = {"cells": len(allc), "agree": int((~allc["differs"]).sum()),
              "listed within 3 SE": int((~out["beyond_3se"].astype(bool)).sum()),
              **{s: int((out["status"] == s).sum()) for s in STATUSES}}
    return out, counts


def _fmt(v, digits=3):
    return "" if pd.isna(v) else f"{v:.{digits}g}" if abs(v) < 1e4 else f"{v:.0f}"


def _markdown(paper: str, table: pd.DataFrame, counts: dict) -> str:
    lines = [f"# Differences from the paper: {paper}\n\n",
             "Generated by `python -m calibsim differences` from the studies' outputs in this "
             "folder (do not edit: the status and evidence live in "
             "`calibsim/papers/_differences_status.py`). A cell differs when ours and the "
             f"paper's are more than {Z_LIMIT:g} Monte Carlo standard errors of the difference "
             "apart (`se`, see `calibsim/papers/_differences.py`), when a claim's verdict is "
             "'differs' or 'partly', or, for exact numbers, when ours rounded to the paper's "
             "digits is not the paper's.\n\n",
             f"**{counts['cells']} cells compared: {counts['agree']} agree; "
             f"{counts['cells'] - counts['agree']} differ. Register rows by status: "
             + "; ".join(f"{counts[s]} {s}" for s in STATUSES)
             + (f" (of them {counts['listed within 3 SE']} listed in issue 22 though within "
                f"{Z_LIMIT:g} SE)" if counts["listed within 3 SE"] else "") + ".**\n\n"]
    if table.empty:
        return "".join(lines)
    show = table.assign(
        ours=table["ours"].map(_fmt), paper_value=table["paper_value"].map(_fmt),
        se=table["se"].map(_fmt), z=table["z"].map(lambda v: _fmt(v, 2)),
        variant=[f"{_fmt(v)} ({_fmt(s)}) [{f}]" if f else ""
                 for v, s, f in zip(table["variant_value"], table["variant_se"],
                                    table["variant"])])
    show = show.drop(columns=["paper", "variant_value", "variant_se", "beyond_3se"]).rename(
        columns={"paper_value": "paper", "variant": "variant (SE) [study]"})
    for status in STATUSES:
        part = show[show["status"] == status].drop(columns="status")
        if len(part):
            lines += [f"## {status} ({len(part)})\n\n",
                      part.to_markdown(index=False).replace("\n", "\n"), "\n\n"]
    return "".join(lines)


def write_registers(figures: Path | str = "figures", papers=PAPERS) -> pd.DataFrame:
    """Write ``differences.csv`` and ``differences.md`` into each ``figures/<paper>/``.

    Returns
    -------
    pandas.DataFrame
        One row per paper with the counts of :func:`register`.
    """
    fig = Path(figures)
    summary = []
    for paper in papers:
        table, counts = register(paper, fig)
        table.to_csv(fig / paper / "differences.csv", index=False, float_format="%.6g")
        (fig / paper / "differences.md").write_text(_markdown(paper, table, counts),
                                                    encoding="utf-8")
        summary.append({"paper": paper, **counts})
    return pd.DataFrame(summary)
