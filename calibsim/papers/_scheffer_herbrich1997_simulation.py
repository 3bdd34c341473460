"""Scheffer & Herbrich (1997) simulated: tuning on the test set against honest protocols.

The layout ``simulation`` of :mod:`calibsim.papers.scheffer_herbrich1997`. Its study
(``studies/scheffer_herbrich1997_simulation.toml``) compares tuned learners (see
:mod:`calibsim.engine._tuned`) with an untuned one on null data, where the true
accuracy of every classifier is the class prior's majority share (0.5 when
balanced: a test label is independent of everything the classifier saw). Per
protocol and number p of settings tried it measures

- (a) the optimistic bias of the reported (cv) accuracy: the mean reported accuracy
  minus the true accuracy (``bias``), and minus the same group's untuned learner
  (its first setting, p = 1) on the same splits (``gain``, paired per data set);
- (b) the Type I error of the tests of the study's ``rejection_rate`` analyses fed
  with the tuned learner's scores (calibrated and textbook df);
- (c) how often the tuned learner is ranked first: its mean accuracy over the
  scheme's splits exceeds the untuned partner's (ties count one half);

each with its Monte Carlo SE over data sets, and checks the claims as rules
(:func:`simulation_claims`) fixed before the study was run.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

__all__ = ["simulation_claims", "simulation_table", "write_simulation"]

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


def figure(table, alpha: float, *, reduced=None):
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


def _figure(table, path: Path, alpha: float, *, reduced=None) -> Path:
    from ..plotting._style import save_figure
    return save_figure(figure(table, alpha, reduced=reduced), path, dpi=130)


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
    _figure(table, paths["figure.png"], alpha, reduced=reduced_size(study))
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
