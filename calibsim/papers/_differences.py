"""The differences register: every reported cell where ours and the paper's differ (issue 22).

One command, ``calibsim differences``, reads the studies' tracked outputs in
``figures/<paper>/`` (and the variant studies' outputs in ``figures/<paper>/variants/``),
sets each reported number beside the paper's, and writes per paper

- ``figures/<paper>/differences.csv``: one row per cell where the two differ by more
  than 3 Monte Carlo standard errors (or, for a claim checked by a rule, whose verdict is
  "differs", "partly" or "as powerful"), and one per cell that cannot be compared (no
  paper value, or a claim our data cannot test), with a status and its evidence;
- ``figures/<paper>/differences.md``: the counts (cells checked, agreeing, not
  comparable, and the differences by status), the same rows as tables, and every cell
  each variant study touches;

and :mod:`calibsim.papers._differences_pages` puts the counts and rows into the marked block
of each paper's page.

Statuses (issue 34): "not comparable" (no paper value, or a claim "not tested here":
listed, never counted as a difference or an agreement); for a difference, "explained by
experiment" (a variant study brings the cell within 3 SE of the paper's and closer than
ours, and moves no other cell it touches from agreeing to differing), "partly explained"
(a variant closes part of the gap, or fixes the cell while breaking another), "explained by
argument" or "open". A variant's effect on every cell it touches is recomputed on each call
(:mod:`calibsim.papers._differences_variants`); the register lists its side effects.

Only the ``status`` and ``evidence`` columns are typed by hand (:data:`STATUS`); every
number is recomputed from the outputs on each call, and a variant study's number is put
beside the paper's in the ``variant`` columns.

Monte Carlo standard error of a difference (``se``):

- rates and shares over N simulated data sets (Type I error, consistency): the pooled
  two-proportion SE ``sqrt(p(1 - p) (1/N_ours + 1/N_paper))`` with ``p`` the pooled share,
  since the paper's number has Monte Carlo error too (it used N = 1000 data sets);
- mean accuracies: ``sqrt(2)`` times our Monte Carlo SE (the paper's design is the same);
- counts of consistent data sets over the real UCI sets (Bouckaert & Frank Tables 1-4):
  compared as shares (%) where the denominators differ (ours over 25 data sets, the
  paper's over 27), with the same two-proportion SE over the data sets, a yardstick only:
  the data sets are (almost) the same, so it overstates the error of a rerun;
- replicability R over the UCI sets: on the same data sets (Table 1, the paper's R
  recomputed from its published draws) the Monte Carlo SEs of both with the data sets held
  fixed (:func:`calibsim.measures.replicability_R_se`); over different data sets (Tables
  2-4, ours 25, the paper's 27) the two-sample SE over the data sets from the spread of our
  per-data-set R, a yardstick like the shares';
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

from ._differences_status import PAPERS, STATUS
from ._differences_variants import VARIANTS, effects

__all__ = ["COLUMNS", "STATUS", "STATUSES", "DIFFERENCE_STATUSES", "cells", "register",
           "write_registers", "scheffer_herbrich_readings", "PAPERS"]

#: Register statuses: the first for cells that cannot be compared, the rest for differences.
STATUSES = ("not comparable", "explained by experiment", "partly explained",
            "explained by argument", "open")
DIFFERENCE_STATUSES = STATUSES[1:]
COLUMNS = ("paper", "where", "cell", "ours", "paper_value", "se", "z", "unit", "beyond_3se",
           "status", "evidence", "variant", "variant_value", "variant_se", "variant_z",
           "side_effects")
#: A difference is a cell further than this many standard errors from the paper's value.
Z_LIMIT = 3.0
#: Claim verdicts of the reports: agreement, a difference, or a claim not tested here.
AGREE, NOT_TESTED = ("agrees",), ("not tested here",)
DIFFER = ("partly", "differs", "as powerful")
_VERDICT = re.compile(r"\|\s*\**(agrees|partly|differs|as powerful|not tested here|verdict)"
                      r"\**\s*\|\s*$")


def _ref(paper: str, name: str) -> pd.DataFrame:
    path = resources.files("calibsim") / f"data/reference/{paper}/{name}"
    return pd.read_csv(path, comment="#")


def _two_prop_se(p1, n1, p2, n2) -> float:
    """Pooled SE of p1 - p2 for shares over n1 and n2 independent trials."""
    p = (p1 * n1 + p2 * n2) / (n1 + n2)
    return math.sqrt(max(p * (1 - p), 0.0) * (1 / n1 + 1 / n2))


def _cell(paper, where, cell, ours, published, se, unit, *, exact_digits=None) -> dict:
    """One compared cell; ``differs`` by 3 SE, or by rounding when ``exact_digits``; not
    ``comparable`` when the paper has no value."""
    ours, published = float(ours), float(published)
    diff = ours - published
    if math.isnan(published):
        return {"paper": paper, "where": where, "cell": cell, "ours": ours,
                "paper_value": published, "se": se, "z": float("nan"), "unit": unit,
                "comparable": False, "differs": False}
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
            "paper_value": published, "se": se, "z": z, "unit": unit, "comparable": True,
            "differs": bool(differs)}


def _verdict_cells(paper: str, folder: Path) -> list[dict]:
    """Claims checked by a rule in the paper's reports: 'differs', 'partly' and 'as
    powerful' (a tie where the paper says 'more') are differences; 'not tested here' is not
    comparable."""
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
                        "z": float("nan"), "unit": f"claim ({m.group(1)}); ours: {ours[:200]}",
                        "comparable": m.group(1) not in NOT_TESTED,
                        "differs": m.group(1) in DIFFER})
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
    for r in s1.to_dict("records"):
        n = r["data sets"]
        for name in ("consistent", "almost consistent"):
            ours, pap = r[f"{name} ours"], r[f"{name} paper (same sets)"]
            out.append(_cell(P, "Table 1", f"{r['pair']}, {name} (same {n} data sets)", ours,
                             pap, n * _two_prop_se(ours / n, n, pap / n, n), "data sets"))
        if "R ours SE" in r:
            out.append(_cell(P, "Table 1", f"{r['pair']}, R (same {n} data sets)", r["R ours"],
                             r["R paper (same sets)"],
                             math.hypot(r["R ours SE"], r["R paper (same sets) SE"]), "R"))
    for t, key in (("Table 2", "n_runs"), ("Table 3", "n_runs"), ("Table 4", "alpha")):
        tab = pd.read_csv(fig / f"bouckaert_frank2004_tables234_table{t[-1]}.csv")
        for r in tab.to_dict("records"):
            n = r["data sets"]
            lab = f"r = {r[key]:g}" if key == "n_runs" else f"α = {r[key]:g}"
            for name in ("consistent", "almost consistent"):
                ours, pap = r[f"{name} ours"], r[f"{name} paper (27)"]
                if pd.isna(pap):
                    continue
                out.append(_cell(P, t, f"{r['pair']}, {lab}, {name} (% of {n} ours, of 27 "
                                 "paper)", 100 * ours / n, 100 * pap / 27,
                                 100 * _two_prop_se(ours / n, n, pap / 27, 27), "% data sets"))
            if "R ours SD over data sets" in r and not pd.isna(r["R paper (27)"]):
                # means over different data sets (25 ours, 27 paper): the two-sample SE over
                # the data sets, as for the shares; a rerun's error is the tables' R SE
                out.append(_cell(P, t, f"{r['pair']}, {lab}, R (over {n} ours, 27 paper)",
                                 r["R ours"], r["R paper (27)"],
                                 r["R ours SD over data sets"] * math.sqrt(1 / n + 1 / 27),
                                 "R"))
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
                    "unit": "% (no paper value: the paper's (e1, e2) pairs are lost and its "
                            "values survive only as a figure)", "comparable": False,
                    "differs": False})
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
def ulas_paper_ranks(learners) -> dict:
    """The paper's average accuracy ranks among ``learners`` (ours lack mdt): from its
    Table 4 wins, which reproduce Table 5(a)'s ranks among all eight (issue 34)."""
    from .ulas2012 import LEARNERS, average_ranks_from_wins
    keep = [x for x in LEARNERS if x in set(learners)]
    return average_ranks_from_wins(keep=keep)


def _ulas_cell(learner: str, n: int) -> str:
    from .ulas2012 import AVERAGE_RANKS, LEARNERS
    eight = dict(zip(LEARNERS, AVERAGE_RANKS["table5"]))[learner]
    return (f"average rank of {learner} among our {n} learners (paper: from its Table 4 "
            f"wins without mdt; {eight:.2f} among its 8 in Table 5(a))")


def _ulas_ranks(acc: pd.DataFrame) -> pd.DataFrame:
    """Per-data-set ranks (1 = most accurate, ties averaged) of the mean accuracies."""
    wide = acc.pivot_table(index="name", columns="learner", values="accuracy")
    return wide.rank(axis=1, ascending=False)


def _ulas2012(fig: Path) -> list[dict]:
    P = "ulas2012"
    out = []
    acc = pd.read_csv(fig / "ulas2012_real_accuracy.csv")
    ranks = _ulas_ranks(acc)
    for learner, paper in ulas_paper_ranks(ranks.columns).items():
        col = ranks[learner]
        out.append(_cell(P, "Table 5(a) real data", _ulas_cell(learner, len(ranks.columns)),
                         col.mean(), paper, col.std(ddof=1) / math.sqrt(col.size), "rank"))
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


def _rule(row):
    for rule in STATUS:
        if (rule.paper == row["paper"] and re.search(rule.where, row["where"])
                and re.search(rule.cell, row["cell"])):
            return rule
    return None


def _default_evidence(r) -> str:
    if not r["comparable"]:
        return ("not comparable: the paper has no value for this cell" if "claim" not in
                str(r["unit"]) else "not comparable: a claim our data cannot test here")
    return "not yet examined: no variant study or argument recorded"


def _side_effects(row, eff: pd.DataFrame) -> tuple[pd.DataFrame, str]:
    """The row's own effect rows and, as text, what the variant does to the others."""
    own_mask = (eff["where"] == row["where"]) & (
        (eff["cell"] == row["cell"]) | eff["cell"].str.startswith(row["cell"] + " [at "))
    own, others = eff[own_mask], eff[~own_mask]
    if others.empty:
        return own, ""
    breaks = others[(others["before"] == "agrees") & (others["after"] == "differs")]
    fixes = others[(others["before"] == "differs") & (others["after"] == "agrees")]

    def name(r):
        if pd.isna(r["paper_value"]):
            return f"{r['where']}: {r['cell']}"
        return (f"{r['where']}: {r['cell']} {_fmt(r['ours'])} -> {_fmt(r['variant_value'])} "
                f"(paper {_fmt(r['paper_value'])}; z {_fmt(r['z'], 2)} -> "
                f"{_fmt(r['variant_z'], 2)})")
    text = f"touches {len(others)} other cells: "
    text += (f"breaks {len(breaks)} (" + "; ".join(name(r) for _, r in breaks.iterrows())
             + ")" if len(breaks) else "breaks none")
    text += (f"; fixes {len(fixes)} (" + "; ".join(name(r) for _, r in fixes.iterrows())
             + ")" if len(fixes) else "; fixes none")
    return own, text + "."


_NO_EFFECTS = pd.DataFrame(columns=["where", "cell", "ours", "paper_value", "z",
                                    "variant_value", "variant_se", "variant_z", "before",
                                    "after"])


def variant_effects(paper: str, figures: Path | str = "figures", base=None) -> dict:
    """Every cell of ``paper`` each variant study touches: ``{key: DataFrame}`` of
    :data:`calibsim.papers._differences_variants.EFFECT_COLUMNS`, variants that touch
    none left out."""
    base = cells(paper, figures) if base is None else base
    out = {}
    for key in VARIANTS:
        eff = effects(key, figures, base)
        if len(eff):
            out[key] = eff
    return out


def register(paper: str, figures: Path | str = "figures") -> tuple[pd.DataFrame, dict]:
    """The differences and the cells not comparable of one paper, with status, evidence and
    the variant studies' effects, and the counts.

    Returns
    -------
    (pandas.DataFrame, dict)
        The rows of :data:`COLUMNS`: every cell that differs or is not comparable, and the
        agreeing cells a rule lists anyway (issue 22); and counts: ``cells`` (compared),
        ``agree``, ``not comparable``, ``differ``, one count per status of
        :data:`DIFFERENCE_STATUSES` (over the differing cells, so ``cells = agree + not
        comparable + differ`` and ``differ`` is the sum of the status counts), and
        ``listed within 3 SE``.
    """
    fig = Path(figures)
    allc = cells(paper, fig)
    effs = variant_effects(paper, fig, allc)
    rows = []
    for _, r in allc.iterrows():
        rule = _rule(r)
        if not (r["differs"] or not r["comparable"] or (rule is not None and rule.always)):
            continue
        status, evidence, variant = ((rule.status, rule.evidence, rule.variant) if rule else
                                     ("open", _default_evidence(r), ""))
        if not r["comparable"]:
            status = "not comparable"
            if rule is None or rule.status != "not comparable":
                evidence = _default_evidence(r) + (f". {evidence}" if rule else "")
        elif not r["differs"]:
            evidence = (f"within {Z_LIMIT:g} SE of the difference (listed in issue 22). "
                        + evidence)
        keys = (variant,) if isinstance(variant, str) else tuple(variant)
        keys = tuple(k for k in keys if k)
        value, vz, sides, primary = None, float("nan"), [], ""
        for key in keys:
            own, side = _side_effects(r, effs.get(key, _NO_EFFECTS))
            if len(own) and own["cell"].iloc[0] != r["cell"]:      # a claim, run per r
                side = ("own cell: " + "; ".join(own["cell"].str.slice(len(r["cell"]) + 1))
                        + (". " + side if side else ""))
            if side:
                sides.append(f"[{VARIANTS[key].study.split(':')[0]}] {side}" if len(keys) > 1
                             else side)
            if value is not None:
                continue
            if len(own) == 1 and not pd.isna(own["variant_value"].iloc[0]) and \
                    own["cell"].iloc[0] == r["cell"]:
                value = (float(own["variant_value"].iloc[0]), float(own["variant_se"].iloc[0]))
                vz = float(own["variant_z"].iloc[0])
            elif VARIANTS[key].value is not None:
                value = VARIANTS[key].value(fig, r["cell"])
            primary = key if value else ""
        side = " ".join(sides)
        rows.append({**r.drop(labels=["differs", "comparable"]).to_dict(),
                     "beyond_3se": bool(r["differs"]), "status": status,
                     "evidence": evidence,
                     "variant": VARIANTS[primary].study if value else "",
                     "variant_value": value[0] if value else float("nan"),
                     "variant_se": value[1] if value else float("nan"),
                     "variant_z": vz, "side_effects": side})
    out = pd.DataFrame(rows, columns=list(COLUMNS))
    comparable = allc["comparable"].astype(bool)
    differing = out[out["beyond_3se"].astype(bool) & (out["status"] != "not comparable")]
    counts = {"cells": len(allc), "agree": int((comparable & ~allc["differs"]).sum()),
              "not comparable": int((~comparable).sum()),
              "differ": int((comparable & allc["differs"]).sum()),
              **{s: int((differing["status"] == s).sum()) for s in DIFFERENCE_STATUSES},
              "listed within 3 SE": int((~out["beyond_3se"].astype(bool)
                                         & (out["status"] != "not comparable")).sum())}
    return out, counts


def _fmt(v, digits=3):
    if isinstance(v, str):
        return v
    return "" if pd.isna(v) else f"{v:.{digits}g}" if abs(v) < 1e4 else f"{v:.0f}"


def counts_line(counts: dict) -> str:
    """The register's counts as one bold sentence (the register, the folder's README and
    the paper's page all carry it)."""
    return (f"**{counts['cells']} cells compared: {counts['agree']} agree; "
            f"{counts['not comparable']} not comparable; {counts['differ']} differ: "
            + ", ".join(f"{counts[s]} {s}" for s in DIFFERENCE_STATUSES)
            + (f". Also listed: {counts['listed within 3 SE']} cells within {Z_LIMIT:g} SE "
               "that issue 22 named" if counts["listed within 3 SE"] else "") + ".**")


def _show(table: pd.DataFrame) -> pd.DataFrame:
    show = table.assign(
        ours=table["ours"].map(_fmt), paper_value=table["paper_value"].map(_fmt),
        se=table["se"].map(_fmt), z=table["z"].map(lambda v: _fmt(v, 2)),
        variant=[f"{_fmt(v)} ({_fmt(s)}; z {_fmt(z, 2)}) [{f}]" if f else ""
                 for v, s, z, f in zip(table["variant_value"], table["variant_se"],
                                       table["variant_z"], table["variant"])])
    return show.drop(columns=["paper", "variant_value", "variant_se", "variant_z",
                              "beyond_3se"]).rename(
        columns={"paper_value": "paper", "variant": "variant (SE; z) [study]",
                 "side_effects": "variant's side effects"})


def _effects_markdown(effs: dict) -> list:
    if not effs:
        return []
    lines = ["## Variant studies: every cell they touch\n\n",
             "Each variant study against every cell of this paper it touches (issue 34): "
             f"cells agreeing (within {Z_LIMIT:g} SE, or the claim's rule) with ours and with "
             "the variant, cells it breaks (agreeing before, differing after) and fixes, and "
             "cells it moves closer to the paper's value or further away.\n\n"]
    rows = []
    for key, e in effs.items():
        num = e.dropna(subset=["paper_value", "variant_value"])
        closer = int((abs(num["variant_value"] - num["paper_value"])
                      < abs(num["ours"] - num["paper_value"])).sum())
        rows.append({"variant": VARIANTS[key].study, "cells": len(e),
                     "agree, ours": int((e["before"] == "agrees").sum()),
                     "agree, variant": int((e["after"] == "agrees").sum()),
                     "breaks": int(((e["before"] == "agrees")
                                    & (e["after"] == "differs")).sum()),
                     "fixes": int(((e["before"] == "differs")
                                   & (e["after"] == "agrees")).sum()),
                     "closer": closer, "further": len(num) - closer})
    lines += [pd.DataFrame(rows).to_markdown(index=False), "\n\n"]
    for key, e in effs.items():
        show = e.assign(**{c: e[c].map(lambda v: _fmt(v, 2 if "z" in c else 3))
                           for c in ("ours", "paper_value", "z", "variant_value",
                                     "variant_se", "variant_z")})
        lines += [f"### {VARIANTS[key].study}\n\n",
                  show.rename(columns={"paper_value": "paper", "variant_value": "variant",
                                       "variant_se": "variant SE", "variant_z": "variant z",
                                       "before": "ours vs paper",
                                       "after": "variant vs paper"}).to_markdown(index=False),
                  "\n\n"]
    return lines


def _markdown(paper: str, table: pd.DataFrame, counts: dict, effs: dict | None = None) -> str:
    lines = [f"# Differences from the paper: {paper}\n\n",
             "Generated by `python -m calibsim differences` from the studies' outputs in this "
             "folder (do not edit: the status and evidence live in "
             "`calibsim/papers/_differences_status.py`). A cell differs when ours and the "
             f"paper's are more than {Z_LIMIT:g} Monte Carlo standard errors of the difference "
             "apart (`se`, see `calibsim/papers/_differences.py`), when a claim's verdict is "
             "'differs', 'partly' or 'as powerful' (a tie where the paper says 'more'), or, "
             "for exact numbers, when ours rounded to the paper's digits is not the paper's. "
             "A cell is not comparable when the paper has no value for it or a claim is 'not "
             "tested here'; it counts neither as an agreement nor as a difference. A variant "
             "study explains a difference only if it brings the cell within "
             f"{Z_LIMIT:g} SE of the paper's and breaks no other cell it touches; otherwise "
             "it at most partly explains it.\n\n",
             counts_line(counts) + "\n\n"]
    if not table.empty:
        show = _show(table)
        listed = ~table["beyond_3se"].astype(bool) & (table["status"] != "not comparable")
        for status in STATUSES:
            part = show[(show["status"] == status) & ~listed].drop(columns="status")
            if len(part):
                lines += [f"## {status} ({len(part)})\n\n",
                          part.to_markdown(index=False), "\n\n"]
        if listed.any():
            lines += [f"## Listed though within {Z_LIMIT:g} SE (named in issue 22; "
                      f"{int(listed.sum())})\n\n",
                      show[listed].to_markdown(index=False), "\n\n"]
    lines += _effects_markdown(effs or {})
    return "".join(lines)


def write_registers(figures: Path | str = "figures", papers=PAPERS) -> pd.DataFrame:
    """Write ``differences.csv`` and ``differences.md`` into each ``figures/<paper>/`` (the
    pages' blocks: :func:`calibsim.papers._differences_pages.write_pages`).

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
        (fig / paper / "differences.md").write_text(
            _markdown(paper, table, counts, variant_effects(paper, fig)), encoding="utf-8")
        summary.append({"paper": paper, **counts})
    return pd.DataFrame(summary)
