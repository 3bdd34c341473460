"""Variant studies in the differences register: each one's effect on every cell it touches.

A variant study (``studies/variants/*.toml``) is an existing study with one suspected
cause changed. Issue 34: a variant that fixes the cell it was made for may move others,
so each variant here lists *every* register cell it touches, with ours, the variant's
value and the paper's, and whether the cell agrees (within 3 SE) before and after. The
register (:func:`calibsim.papers._differences.register`) takes a row's own variant value
from these tables and lists the other cells as side effects: those the variant breaks
(agreeing before, differing after) and those it fixes.

Every function reads the tracked outputs under ``figures/`` (a variant's outputs are
copied into ``figures/<paper>/variants/``); a variant whose outputs are missing touches
nothing.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

from ..measures import replicability_R, replicability_R_se

__all__ = ["EFFECT_COLUMNS", "VARIANTS", "Variant", "effects"]

EFFECT_COLUMNS = ("where", "cell", "ours", "paper_value", "z", "variant_value", "variant_se",
                  "variant_z", "before", "after")
Z_LIMIT = 3.0


@dataclass(frozen=True)
class Variant:
    """One variant study: what it changes, and the cells it touches.

    ``touch(fig, base)`` returns the rows of :data:`EFFECT_COLUMNS` for the cells of
    ``base`` (one paper's :func:`~calibsim.papers._differences.cells`) the variant
    touches; ``value(fig, cell)``, optional, gives ``(value, SE)`` for a register row that
    is not one of those cells (a claim summarised by one number).
    """

    study: str
    touch: Callable
    value: Callable | None = None


def _two_prop_se(p1, n1, p2, n2) -> float:
    p = (p1 * n1 + p2 * n2) / (n1 + n2)
    return math.sqrt(max(p * (1 - p), 0.0) * (1 / n1 + 1 / n2))


def _verdict(z) -> str:
    return "differs" if abs(z) > Z_LIMIT else "agrees"


def _numeric(base: pd.DataFrame, mask, lookup) -> pd.DataFrame:
    """Effect rows of the base cells in ``mask``: ``lookup(row)`` gives the variant's
    (value, its own SE, SE of its difference from the paper's) or None."""
    rows = []
    for _, r in base[mask].iterrows():
        got = lookup(r)
        if got is None:
            continue
        v, v_se, d_se = got
        comparable = bool(r.get("comparable", True)) and not math.isnan(r["paper_value"])
        vz = (v - r["paper_value"]) / d_se if comparable and d_se > 0 else float("nan")
        rows.append({"where": r["where"], "cell": r["cell"], "ours": r["ours"],
                     "paper_value": r["paper_value"], "z": r["z"], "variant_value": v,
                     "variant_se": v_se, "variant_z": vz,
                     "before": ("differs" if r["differs"] else "agrees") if comparable
                     else "not comparable",
                     "after": _verdict(vz) if comparable else "not comparable"})
    return pd.DataFrame(rows, columns=list(EFFECT_COLUMNS))


def _rate(g: pd.DataFrame, col: str, se_col: str, paper_pct: float):
    """A variant's rate (first row of ``g``) in percent: (value, its SE, SE of its
    difference from the paper's, the paper's over 1000 data sets)."""
    v, n = float(g[col].iloc[0]), int(g["n"].iloc[0])
    return 100 * v, 100 * float(g[se_col].iloc[0]), 100 * _two_prop_se(v, n, paper_pct / 100,
                                                                         1000)


def _read(fig: Path, rel: str):
    path = Path(fig) / rel
    return pd.read_csv(path) if path.is_file() else None


# ------------------------------------------------------------------ Bouckaert (2003)
_LABEL_TEST = {"resampling": "resampling", "corrected resampling": "corrected_resampling",
               "k-fold cv": "kfold_cv", "use all data": "use_all_data",
               "folds averaged var": "folds_averaged_var",
               "folds averaged T": "folds_averaged_t", "runs averaged var": "runs_averaged_var",
               "runs averaged T": "runs_averaged_t", "sorted runs": "sorted_runs"}
_T4 = "bouckaert2003/variants/bouckaert2003_table4_df10000_type1_vs_alpha.csv"
_T56 = "bouckaert2003/variants/bouckaert2003_table56_df10000_calibrated.csv"
_CALS = ("bouckaert2003/variants/bouckaert2003_calibration_10000_calibration.csv",
         "bouckaert2003/variants/bouckaert2003_calibration_10000_runs_calibration.csv")
_FIG2 = "bouckaert2003/bouckaert2003_figure2_calibration.csv"
_ABOUT_11 = ("use_all_data", "folds_averaged_var", "folds_averaged_t", "runs_averaged_var",
             "runs_averaged_t", "sorted_runs")


def _touch_t4(fig, base):
    t = _read(fig, _T4)
    if t is None:
        return None

    def lookup(r):
        label, alpha = re.match(r"(.+), α = ([\d.]+)", r["cell"]).groups()
        g = t[(t["test"] == _LABEL_TEST.get(label, "")) & np.isclose(t["alpha"], float(alpha))]
        return None if g.empty else _rate(g, "rate", "mc_se", r["paper_value"])
    return _numeric(base, base["where"] == "Table 4", lookup)


def _touch_t56(fig, base):
    t = _read(fig, _T56)
    if t is None:
        return None

    def lookup(r):
        m = re.match(r"(.+), α = ([\d.]+) \(min over sets\)", r["cell"])
        if m:                                                  # Table 6: min over the sets
            g = t[(t["label"] == m.group(1)) & np.isclose(t["alpha"], float(m.group(2)))]
            if g.empty:
                return None
            g = g.loc[[g["consistent"].idxmin()]]
        else:                                                  # Table 5: α = 0.05, one set
            label, source = r["cell"].rsplit(", ", 1)
            g = t[(t["label"] == label) & (t["source"] == source)
                  & np.isclose(t["alpha"], 0.05)]
            if g.empty:
                return None
        return _rate(g, "consistent", "consistent_se", r["paper_value"])
    return _numeric(base, base["where"].isin(["Table 5", "Table 6"]), lookup)


def _fig2_rules(cal: pd.DataFrame, r: int) -> dict:
    """Figure 2's rules at one number of runs: k-fold cv's df in 5..7 at α = 5%; the
    'about 11' tests' df in 8..14 at α = 5%; and their df the same at 1%, 5%, 10%
    (spread <= 1 in at least half the tests)."""
    c = cal[cal["n_runs"] == r]

    def df(test, alpha):
        g = c[(c["test"] == test) & np.isclose(c["alpha"], alpha)]
        return float(g["calibrated_df"].iloc[0]) if len(g) else float("nan")
    about = [df(t, 0.05) for t in _ABOUT_11]
    spread = [max(df(t, a) for a in (0.01, 0.05, 0.1)) - min(df(t, a) for a in
                                                             (0.01, 0.05, 0.1))
              for t in _ABOUT_11]
    narrow = sum(s <= 1 for s in spread)
    return {
        "k-fold cv: df constant": (df("kfold_cv", 0.05), 5 <= df("kfold_cv", 0.05) <= 7,
                                   f"k-fold cv df {df('kfold_cv', 0.05):g}"),
        "use all data, folds averaged": (
            float(np.mean(about)), all(8 <= d <= 14 for d in about),
            "df " + ", ".join(f"{d:g}" for d in about)),
        "the df is the same at 1%, 5% and 10%": (
            narrow, narrow >= len(_ABOUT_11) / 2,
            f"spread <= 1 for {narrow} of {len(_ABOUT_11)} tests (spreads "
            + ", ".join(f"{s:g}" for s in spread) + ")"),
    }


def _touch_df(fig, base):
    """Figure 2's claims at the numbers of runs the 10,000-data-set calibrations ran."""
    cals = [t for t in (_read(fig, rel) for rel in _CALS) if t is not None]
    ref = _read(fig, _FIG2)
    if not cals or ref is None:
        return None
    rows = []
    for cal in cals:
        for r in sorted(cal["n_runs"].unique()):
            if r not in set(ref["n_runs"]):
                continue
            before, after = _fig2_rules(ref, r), _fig2_rules(cal, r)
            for key, (v_after, ok_after, what_after) in after.items():
                hit = base[base["where"].str.contains("figure2")
                           & base["cell"].str.startswith(key)]
                if hit.empty:
                    continue
                v_before, ok_before, what_before = before[key]
                rows.append({"where": hit["where"].iloc[0],
                             "cell": f"{hit['cell'].iloc[0]} [at r = {r}: {what_before} -> "
                                     f"{what_after}]",
                             "ours": v_before, "paper_value": float("nan"),
                             "z": float("nan"), "variant_value": v_after,
                             "variant_se": float("nan"), "variant_z": float("nan"),
                             "before": "agrees" if ok_before else "differs",
                             "after": "agrees" if ok_after else "differs"})
    return pd.DataFrame(rows, columns=list(EFFECT_COLUMNS))


def _value_df(fig, cell):
    """Figure 2 claims on 10,000 data sets at r = 10: the df's fall from α = 1% to 10%
    (mean over the 'about 11' tests), or k-fold cv's df at α = 5% (value, bootstrap SE)."""
    t = _read(fig, _CALS[0])
    if t is None:
        return None
    if "k-fold" in cell:
        r = t[(t["test"] == "kfold_cv") & np.isclose(t["alpha"], 0.05)]
        return float(r["calibrated_df"].iloc[0]), float(r["df_boot_se"].iloc[0])
    g = t[t["test"].isin(_ABOUT_11)].groupby("alpha")["calibrated_df"].mean()
    return float(g.iloc[0] - g.iloc[-1]), float("nan")


# ------------------------------------------------------------- 5x2 cv consistency
_CV5X2 = "bouckaert_frank2004/variants/bouckaert_frank2004_table5_cv5x2_numerator.csv"
_CV5X2_UNSTRAT = ("bouckaert_frank2004/variants/"
                  "bouckaert_frank2004_table5_cv5x2_unstratified_unstratified.csv")


def _touch_cv5x2(rel, test):
    def touch(fig, base):
        t = _read(fig, rel)
        if t is None:
            return None

        def lookup(r):
            m = re.search(r"^5x2 cv, (?:Set |set)(\d)$", r["cell"])
            g = t[(t["test"] == test) & (t["source"] == f"set{m.group(1)}")
                  & np.isclose(t["alpha"], 0.05)]
            return None if g.empty else _rate(g, "consistent", "consistent_se",
                                              r["paper_value"])
        mask = base["where"].eq("Table 5") & base["cell"].str.match(r"^5x2 cv, (Set |set)\d$")
        return _numeric(base, mask, lookup)
    return touch


# ------------------------------------------------------ Bouckaert & Frank (2004)
_T3 = "bouckaert_frank2004/variants/bouckaert_frank2004_table3_unstratified_table3.csv"
_PAIR = {"nb_vs_c45": ("naive_bayes", "c45"), "nb_vs_nn": ("naive_bayes", "ib1"),
         "c45_vs_nn": ("c45", "ib1")}


def _touch_unstratified(fig, base):
    """Table 3 at r = 1 and 2 with unstratified folds: shares and R over the data sets."""
    t = _read(fig, _T3)
    if t is None:
        return None

    def lookup(r):
        m = re.match(r"(\w+), r = (\d+), (consistent|almost consistent|R)\b", r["cell"])
        if m is None:
            return None
        a, b = _PAIR[m.group(1)]
        g = t[(t["pair_a"] == a) & (t["pair_b"] == b) & (t["n_runs"] == int(m.group(2)))]
        if g.empty:
            return None
        k, n = g["rejections"].round().astype(int).to_numpy(), int(g["repeats"].iloc[0])
        d = len(g)
        if m.group(3) == "R":
            v = float(np.mean(replicability_R(k, n)))
            se = float(np.sqrt(np.sum(replicability_R_se(k, n) ** 2)) / d)
            return v, se, math.sqrt(2) * se
        minority = np.minimum(k, n - k)
        share = float(np.mean(minority <= (0 if m.group(3) == "consistent" else 1)))
        return (100 * share, 100 * math.sqrt(share * (1 - share) / d),
                100 * _two_prop_se(share, d, r["paper_value"] / 100, 27))
    return _numeric(base, base["where"].eq("Table 3"), lookup)


# ------------------------------------------------------------ Ulaş et al. (2012)
_ULAS_SVM = "ulas2012/variants/ulas2012_real_svm_accuracy.csv"
_ULAS_HOLDOUT = "ulas2012/variants/ulas2012_real_holdout_accuracy.csv"


def _ulas_ranks(acc):
    wide = acc.pivot_table(index="name", columns="learner", values="accuracy")
    return wide.rank(axis=1, ascending=False)


def _rank_effects(base, ranks):
    """Effect rows of the average-rank cells: the variant's mean rank and its SE."""
    def lookup(r):
        m = re.match(r"average rank of (\S+) ", r["cell"])
        if m is None or m.group(1) not in ranks:
            return None
        col = ranks[m.group(1)]
        se = float(col.std(ddof=1) / math.sqrt(col.size))
        return float(col.mean()), se, se
    return _numeric(base, base["where"].str.startswith("Table 5(a)"), lookup)


def _touch_ulas(rel, replace=None, *, within=False):
    """Every learner's average rank when variant learners (``replace``: variant learner ->
    base learner) take their base learners' places among the base study's learners, or,
    ``within`` the variant study, among its own rerun of the base learners; without
    ``replace``, the variant study's own rerun of the base learners."""
    def touch(fig, base):
        base_acc = _read(fig, "ulas2012/ulas2012_real_accuracy.csv")
        var = _read(fig, rel)
        if var is None or base_acc is None:
            return None
        replace_ = replace or {}
        pool = var if (within or replace is None) else base_acc
        keep = set(base_acc["learner"]) - set(replace_.values())
        parts = [pool[pool["learner"].isin(keep)]]
        parts += [var[var["learner"] == v].assign(learner=b) for v, b in replace_.items()]
        return _rank_effects(base, _ulas_ranks(pd.concat(parts)))
    return touch


# ------------------------------------------------------ Scheffer & Herbrich (1997)
_SH_BIAS = "scheffer_herbrich1997/variants/scheffer_herbrich1997_cv_bias_accuracy.csv"


def cv_bias(fig) -> pd.DataFrame | None:
    """10 x 10 cv accuracy of C4.5 at confidence 0.05, 0.1 and 0.5 minus the default's
    (0.25), in percentage points, under stratified and plain folds on null data, with the
    SE of the difference taken unpaired (an upper bound)."""
    t = _read(fig, _SH_BIAS)
    if t is None:
        return None
    rows = []
    for scheme, g in t.groupby("scheme", sort=False):
        g = g.set_index("learner")
        for lrn in ("c45_c005", "c45_c010", "c45_c050"):
            rows.append({"scheme": scheme, "setting": lrn,
                         "edge_pp": 100 * (g.loc[lrn, "accuracy"] - g.loc["c45", "accuracy"]),
                         "se_pp": 100 * math.hypot(g.loc[lrn, "accuracy_se"],
                                                   g.loc["c45", "accuracy_se"])})
    return pd.DataFrame(rows)


def _value_cv_bias(fig, cell):
    """The edge of confidence 0.05 over the default under plain (unstratified) folds."""
    t = cv_bias(fig)
    if t is None:
        return None
    r = t[(t["scheme"] == "plain") & (t["setting"] == "c45_c005")]
    return (float(r["edge_pp"].iloc[0]), float(r["se_pp"].iloc[0])) if len(r) else None


# ---------------------------------------------------------------- Dietterich (1998)
def _touch_balanced(fig, base):
    t = _read(fig, "dietterich1998/dietterich1998_figure4_type1.csv")
    if t is None:
        return None

    def lookup(r):
        eps = float(re.search(r"ε = ([\d.]+)", r["cell"]).group(1))
        g = t[(t["test"] == "resampling") & t["source"].str.startswith("balanced")
              & np.isclose(t["epsilon"], eps)]
        if g.empty:
            return None
        return float(100 * g["type1_error"].iloc[0]), float(100 * g["mc_se"].iloc[0]), \
            float("nan")
    return _numeric(base, base["where"].eq("Figure 4"), lookup)


VARIANTS = {
    "df10000": Variant("studies/variants/bouckaert2003_table4_df10000.toml: df from 10,000 "
                       "data sets", _touch_t4),
    "t56_df10000": Variant("studies/variants/bouckaert2003_table56_df10000.toml: df from "
                           "10,000 data sets", _touch_t56),
    "df_10000": Variant("studies/variants/bouckaert2003_calibration_10000.toml (r = 10) and "
                        "bouckaert2003_calibration_10000_runs.toml (r = 20, 50): 10,000 null "
                        "data sets", _touch_df, _value_df),
    "cv5x2_f": Variant("studies/variants/bouckaert_frank2004_table5_cv5x2.toml: 5x2cv F, "
                       "α = 0.05", _touch_cv5x2(_CV5X2, "cv5x2_f")),
    "cv5x2_unstratified": Variant("studies/variants/bouckaert_frank2004_table5_cv5x2_"
                                  "unstratified.toml: 5x2cv t on unstratified 2-fold "
                                  "partitions", _touch_cv5x2(_CV5X2_UNSTRAT, "cv5x2_t")),
    "unstratified": Variant("studies/variants/bouckaert_frank2004_table3_unstratified.toml: "
                            "r = 1 and 2, unstratified folds", _touch_unstratified),
    "sv2_libsvm": Variant("studies/variants/ulas2012_real_svm.toml: sv2 with coef0 = 0",
                          _touch_ulas(_ULAS_SVM, {"sv2_libsvm": "sv2"})),
    "sv2_minmax": Variant("studies/variants/ulas2012_real_svm.toml: sv2 on [0, 1]-scaled "
                          "inputs", _touch_ulas(_ULAS_SVM, {"sv2_minmax": "sv2"})),
    "svl_minmax": Variant("studies/variants/ulas2012_real_svm.toml: svl on [0, 1]-scaled "
                          "inputs", _touch_ulas(_ULAS_SVM, {"svl_minmax": "svl"})),
    "holdout": Variant("studies/variants/ulas2012_real_holdout.toml: 5 x 2 cv on 2/3 of each "
                       "data set, 1/3 held out (the paper's design)",
                       _touch_ulas(_ULAS_HOLDOUT)),
    "holdout_sv2_libsvm": Variant("studies/variants/ulas2012_real_holdout.toml: the 1/3 "
                                  "hold-out with sv2 at coef0 = 0",
                                  _touch_ulas(_ULAS_HOLDOUT, {"sv2_libsvm": "sv2"},
                                              within=True)),
    "cv_bias": Variant("studies/variants/scheffer_herbrich1997_cv_bias.toml: C4.5 at "
                       "confidence 0.05 minus the default, 10 x 10 plain (unstratified) cv, pp",
                       lambda fig, base: None, _value_cv_bias),
    "balanced": Variant("studies/dietterich1998_figure4.toml [sources.balanced]: balanced "
                        "(e1, e2)", _touch_balanced),
}


def effects(key: str, figures: Path | str, base: pd.DataFrame) -> pd.DataFrame:
    """Every cell of ``base`` the variant ``key`` touches (rows of :data:`EFFECT_COLUMNS`);
    empty when its outputs are missing."""
    got = VARIANTS[key].touch(Path(figures), base)
    return pd.DataFrame(columns=list(EFFECT_COLUMNS)) if got is None else got
