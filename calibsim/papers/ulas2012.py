"""Ulaş, Yıldız & Alpaydın (2012): MultiTest and Multi²Test, checked on the paper's numbers.

A study of published numbers and of a synthetic simulation; its study files have no
sources, learners or schemes. The procedures are :func:`calibsim.stats.multitest`,
:func:`calibsim.stats.multi2test` and the post-hoc tests of :mod:`calibsim.stats`; this
module holds what belongs to the paper:

- the published inputs and outputs (``TABLE1``, ``TABLE3``, ``TABLE4``, ``TABLE6``,
  ``AVERAGE_RANKS``, ``PRIOR``, ``PUBLISHED``) and :func:`exact_checks`, which runs our
  procedure on each published input and compares with the published output;
- :func:`simulate_figure4`, :func:`simulate_figure5` and :func:`figure_claims`: the
  synthetic studies of §4.6, with the assumptions the paper leaves open stated;
- ``from ._ulas2012_real import write_real  # noqa: E402

LAYOUTS = {"published": write_published, "synthetic": write_synthetic, "real": write_real}``.

{references:ulas2012}
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .._docstrings import fill
from ..plotting import (
    plot_critical_difference,
    plot_multitest_graph,
    plot_ordering_probabilities,
)
from ..stats import multitest_order, posthoc_from_ranks
from ._ulas2012_synthetic import (
    LAMBDAS,
    NAMED,
    figure_claims,
    simulate_figure4,
    simulate_figure5,
)
from ._ulas2012_tables import (
    AVERAGE_RANKS,
    LEARNERS,
    N_DATASETS,
    PRIOR,
    PUBLISHED,
    SURVIVING_COLUMNS,
    TABLE1,
    TABLE3,
    TABLE4,
    TABLE6,
    exact_checks,
    friedman_rows,
    optdigits_prior_orders,
    rounding_robustness,
    sign_test_pairs,
    significant_pairs,
)

__all__ = [
    "AVERAGE_RANKS",
    "LAMBDAS",
    "LAYOUTS",
    "LEARNERS",
    "N_DATASETS",
    "N_REPS",
    "PRIOR",
    "PUBLISHED",
    "SURVIVING_COLUMNS",
    "TABLE1",
    "TABLE3",
    "TABLE4",
    "TABLE6",
    "exact_checks",
    "figure_claims",
    "friedman_rows",
    "optdigits_prior_orders",
    "posthoc_table",
    "rounding_robustness",
    "sign_test_pairs",
    "significant_pairs",
    "simulate_figure4",
    "simulate_figure5",
    "write_published",
    "write_synthetic",
]

#: Repetitions per λ of the synthetic layout (the paper's 1000).
N_REPS = 1000


def posthoc_table(alpha=0.05):
    """Adjusted p-values of every pair of Tables 5, 7, 8 under four procedures.

    Returns
    -------
    pandas.DataFrame
        One row per (table, pair): the rank difference, the unadjusted p and the APV
        of Bergmann-Hommel, Shaffer, Holm and Nemenyi (S = 38, from the published
        average ranks).
    """
    rows = []
    i, j = np.triu_indices(len(LEARNERS), k=1)
    for t, R in AVERAGE_RANKS.items():
        res = {m: posthoc_from_ranks(R, N_DATASETS, method=m, alpha=alpha)
               for m in ("bergmann_hommel", "shaffer", "holm", "nemenyi")}
        for a, b in zip(i, j):
            row = {"table": f"Table {t[5:]}", "pair": f"{LEARNERS[a]}–{LEARNERS[b]}",
                   "rank_difference": abs(R[a] - R[b]),
                   "pvalue": res["holm"].unadjusted_pvalue[a, b]}
            row.update({f"apv_{m}": r.pvalue[a, b] for m, r in res.items()})
            rows.append(row)
    return pd.DataFrame(rows)


def _procedures_agreeing(ph, alpha=0.05):
    """{procedure: whether it gives the published pairs of all of Tables 5, 7, 8}."""
    out = {}
    for m in ("bergmann_hommel", "shaffer", "holm", "nemenyi"):
        ok = True
        for t in AVERAGE_RANKS:
            sel = ph[(ph["table"] == f"Table {t[5:]}") & (ph[f"apv_{m}"] <= alpha)]
            want = {"–".join(sorted(x, key=LEARNERS.index)) for x in PUBLISHED[f"{t}_pairs"][0]}
            ok &= set(sel["pair"]) == want
        out[m] = bool(ok)
    return out


def _modal_path(table):
    """The most probable ordering at each λ, consecutive repeats removed."""
    path = []
    for lam in sorted(set(table["lambda"])):
        sel = table[np.isclose(table["lambda"], lam)]
        o = sel.loc[sel["probability"].idxmax(), "ordering"]
        if not path or path[-1] != o:
            path.append(o)
    return path


def _paths(folder, name, labels):
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    return {k: folder / f"{name}_{suffix}" for k, suffix in labels.items()}


def _figure(path, panels, size, title, **finish):
    from matplotlib.figure import Figure

    from ..plotting._style import finish_figure, save_figure
    fig = Figure(figsize=size, layout="constrained")
    axes = fig.subplots(len(panels), 1, squeeze=False)[:, 0]
    for ax, draw in zip(axes, panels):
        draw(ax)
    finish_figure(fig, title, **finish)
    return save_figure(fig, path, dpi=130)


def write_published(*, study, tables, scores, folder, wall=None, calibrations=None):
    """Layout ``published``: the exact checks on the paper's own numbers, and the figures.

    Writes ``<name>_checks.csv`` / ``.md``, ``<name>_posthoc.csv``, ``<name>_cd.png``
    (CD diagrams of Tables 5, 7, 8), ``<name>_graphs.png`` (Fig. 1 and Fig. 3 graphs
    with the final orders) and ``<name>_report.md`` into ``folder``.
    """
    p = _paths(folder, study.name, {"checks.csv": "checks.csv", "checks.md": "checks.md",
                                    "posthoc.csv": "posthoc.csv", "cd.png": "cd.png",
                                    "graphs.png": "graphs.png", "report": "report.md"})
    checks = pd.DataFrame(exact_checks())
    checks.to_csv(p["checks.csv"], index=False)
    md = checks[["check", "input", "procedure", "paper", "ours", "equal"]].to_markdown(index=False)
    p["checks.md"].write_text(md + "\n", encoding="utf-8")
    ph = posthoc_table()
    ph.to_csv(p["posthoc.csv"], index=False, float_format="%.6g")
    fr = pd.DataFrame(friedman_rows())

    def cd(t, title):
        def draw(ax):
            res = posthoc_from_ranks(AVERAGE_RANKS[t], N_DATASETS)
            plot_critical_difference(AVERAGE_RANKS[t], LEARNERS, reject=res.reject, ax=ax,
                                     title=title)
        return draw
    _figure(p["cd.png"], [cd("table5", "Table 5: average accuracy ranks, Bergmann–Hommel"),
                          cd("table7", "Table 7: MultiTest ranks, training time as cost"),
                          cd("table8", "Table 8: MultiTest ranks, space as cost")], (7.5, 8.8),
            "Ulaş, Yıldız & Alpaydın (2012): critical-difference diagrams of the published "
            "average ranks", subtitle="38 data sets; a bar joins learners the post-hoc test "
            "cannot separate at α = 0.05")
    opt = multitest_order(TABLE1, cost=PRIOR["optdigits"], learners=LEARNERS)
    fig3 = multitest_order(TABLE3, cost=PRIOR["fig3"], learners=PRIOR["fig3"])
    _figure(p["graphs.png"], [
        lambda ax: plot_multitest_graph(opt, ax=ax, title="Fig. 1/2, optdigits: "
                                        + ", ".join(f"{k}: {n}" for k, n in
                                                    enumerate(opt.order, 1))),
        lambda ax: plot_multitest_graph(fig3, ax=ax, title="Fig. 3 example: "
                                        + ", ".join(f"{k}: {n}" for k, n in
                                                    enumerate(fig3.order, 1)))], (9.5, 6.8),
            "Ulaş, Yıldız & Alpaydın (2012): MultiTest graphs from the published pairwise "
            "outcomes")
    n_ok, n_all = optdigits_prior_orders()
    dropped = sign_test_pairs(TABLE6, ties="drop") - PUBLISHED["table6_sign"][0]
    agree = _procedures_agreeing(ph)
    lines = [f"# {getattr(study, 'title', study.name)}\n\n",
             ("Every check runs our procedure on an input the paper publishes and compares "
              "the result with the output it publishes (Ulaş, Yıldız & Alpaydın 2012, "
              "Pattern Recognition 45, 1772-1781). Equal means identical sets, groups or "
              "orders.\n\n")]
    if wall is not None:
        lines.append(f"Wall time of the run that wrote this report: {wall:.1f} s.\n\n")
    lines += [f"**{int(checks['equal'].sum())} of {len(checks)} checks equal.**\n\n", md,
              "\n\n## What the checks take from the paper, and what we add\n\n",
              ("- The paper publishes no per-fold errors, so MultiTest's pairwise tests "
               "cannot be rerun. Table 1 (optdigits) and Table 3 (Fig. 3) give their "
               "outcomes, and the graph and the topological sort start from them.\n"),
              ("- Fig. 1's training-time order on optdigits is a drawing that our text "
               "lacks. The captions say 5nn is the fastest and mdt the slowest, and "
               "Fig. 2's steps fix svr < svl < sv2 after 5nn and mlp, and lnp before mlp. "
               "We use " + " < ".join(PRIOR["optdigits"]) + f". Of the {n_all} orders "
               f"with 5nn first and mdt last, {n_ok} give the published order.\n"),
              ("- Tables 4 and 6 print the significant wins in bold, which our copy loses. "
               "The significant pairs are those the text of §4.2 and §4.4 names. Ties "
               "(38 − wins − losses) are split between wins and losses, as §2.1 says. "
               "Dropping them instead would add "
               + ", ".join(" > ".join(x) for x in sorted(dropped))
               + " to Table 6, against the text: the paper split them.\n"),
              ("- Tables 5(c) and 7(c) lose their left columns in our copy. The pairs come "
               "from the sentences of §4.3 and §4.5.1; the surviving columns (svl, svr, "
               "5nn; svl, sv2, svr, 5nn) agree with them (tested). Table 8(c) is complete.\n"),
              ("- Bergmann–Hommel uses z = (R_i − R_j)/sqrt(L(L+1)/(6S)) with S = 38, "
               "L = 8, from the published average ranks, which are rounded to two "
               "decimals. Rerun at all 256 corners R ± 0.005: "
               + "; ".join(f"{r['table']}: {'same' if r['same_verdicts'] else 'different'}"
                           f" verdicts, adjusted p closest to 0.05 is {r['closest_apv']:.4f}"
                           for r in rounding_robustness()) + ".\n"),
              ("- Which procedure reproduces Tables 5(c), 7(c), 8(c) at α = 0.05: "
               + ", ".join(f"{m}: {'yes' if ok else 'no'}" for m, ok in agree.items())
               + ". On these ranks the checks therefore cannot tell Bergmann–Hommel from "
               "Holm or Shaffer (see `" + p["posthoc.csv"].name + "`).\n\n"),
              "## Friedman's test on the published average ranks\n\n",
              fr.to_markdown(index=False, floatfmt=".4g"), "\n\n",
              f"![CD diagrams]({p['cd.png'].name})\n\n",
              f"![MultiTest graphs]({p['graphs.png'].name})\n"]
    p["report"].write_text("".join(lines), encoding="utf-8")
    return p


def write_synthetic(*, study, tables, scores, folder, wall=None, calibrations=None):
    """Layout ``synthetic``: Figs. 4 and 5 (§4.6) by simulation, with the paper's claims.

    Draws from ``numpy.random.SeedSequence(study.seed)``; 1000 repetitions per λ
    (``N_REPS``). Writes ``<name>_figure4.csv`` / ``_figure5.csv`` (every ordering's
    probability per λ; the stated assumptions and a variant without the first-pass
    correction), ``<name>_figure4.png`` / ``_figure5.png`` and ``<name>_report.md``.
    """
    p = _paths(folder, study.name, {"figure4.csv": "figure4.csv", "figure5.csv": "figure5.csv",
                                    "figure4.png": "figure4.png", "figure5.png": "figure5.png",
                                    "report": "report.md"})
    s4, s5, s4n, s5n = np.random.SeedSequence(study.seed).spawn(4)
    runs = {"Bonferroni (A2)": (simulate_figure4(s4, n_reps=N_REPS),
                                simulate_figure5(s5, n_reps=N_REPS)),
            "no correction": (simulate_figure4(s4n, n_reps=N_REPS, correction="none"),
                              simulate_figure5(s5n, n_reps=N_REPS, correction="none"))}
    for k, fig in ((0, "figure4"), (1, "figure5")):
        t = pd.concat([r[k].assign(variant=v) for v, r in runs.items()], ignore_index=True)
        t.to_csv(p[f"{fig}.csv"], index=False, float_format="%.6g")
        peak = t.groupby("ordering")["probability"].max()
        shown = sorted(set(peak[peak >= 0.05].index) | set(NAMED[fig]))   # same colours
        _figure(p[f"{fig}.png"], [
            (lambda ax, v=v, r=r, k=k, shown=shown, fig=fig: plot_ordering_probabilities(
                r[k], orderings=shown, ax=ax, keep=NAMED[fig],
                title=f"first-pass correction: {v}"))
            for v, r in runs.items()], (6.8, 7.4),
            f"Ulaş, Yıldız & Alpaydın (2012) Fig. {fig[-1]} by simulation: how often "
            + ("MultiTest" if fig == "figure4" else "Multi²Test") + " finds each ordering",
            subtitle=f"{N_REPS} repetitions per λ; no error bars (Monte Carlo SE at most "
            f"{100 * np.sqrt(0.25 / N_REPS):.1f} points)")
    claims = {v: figure_claims(*r) for v, r in runs.items()}
    lines = [f"# {getattr(study, 'title', study.name)}\n\n",
             ("§4.6 of Ulaş et al. (2012): MultiTest with three learners of error 0.5 + 2λ, "
              "0.5, 0.5 − 2λ (Fig. 4), and Multi²Test with four learners of error "
              "a + 3λ, a + λ, a − λ, a − 3λ on 30 data sets, a ~ U[0.45, 0.55] (Fig. 5). "
              f"{N_REPS} repetitions per λ, λ = 0, 0.005, ..., 0.1, seed {study.seed}. "
              "The paper's figures are curves without numbers, so the checks are its "
              "sentences about them.\n\n")]
    if wall is not None:
        lines.append(f"Wall time of the run that wrote this report: {wall:.1f} s.\n\n")
    lines += ["## Assumptions the paper leaves open\n\n",
              ("- A1: an error rate is the share of N = 100 Bernoulli(p) draws (stated). Each "
               "learner gets one per fold of a 5x2 cv, independent across folds, learners "
               "and data sets (not stated).\n"),
              ("- A2: the 5x2cv F test (stated, §4.4) is used one-sidedly. It rejects only "
               "when the mean difference favours the costlier learner. Bonferroni corrects "
               "the L(L−1)/2 tests at α = 0.05; the paper does not name its correction. The "
               "variant 'no correction' tests each pair at α = 0.05, to show how much the "
               "curves depend on this choice.\n"),
              ("- A3: Multi²Test runs Friedman's chi-square test and Bergmann–Hommel at "
               "α = 0.05, with the prior order 1 < 2 < 3 < 4 on every data set.\n\n")]
    for v, cl in claims.items():
        lines += [f"## The paper's claims, first-pass correction: {v}\n\n",
                  "| claim | source | ours | rule | verdict |\n|---|---|---|---|---|\n"]
        lines += [f"| {c['claim']} | {c['source']} | {c['ours']} | {c['rule']} | "
                  f"**{c['verdict']}** |\n" for c in cl]
        lines.append("\n")
    path = {v: " → ".join(_modal_path(r[1])) for v, r in runs.items()}
    lines += ["## What differs and why\n\n",
              "Most probable ordering of Fig. 5 as λ grows: "
              + "; ".join(f"{v}: {q}" for v, q in path.items())
              + ". The paper's text: 1-2-3-4 → 2-3-4-1 → 3-4-1-2 → ... → 4-3-2-1.\n\n",
              ("Per data set, MultiTest's ranks carry the prior order: a learner that "
               "overrides nobody keeps its place behind every cheaper learner. On a data "
               "set where 1 -> 4 is the only edge (order 2-3-4-1), learner 4's rank is "
               "better than learner 1's by 1, learner 2's by 3 and learner 3's by 2. In "
               "average rank, 4 stays behind 2 and 3 until it beats them on most data sets. "
               "The post-hoc test then separates 1 from 2 and 3 before it separates 1 from "
               "4, which makes 2-3-1-4 (edges 1 -> 2 and 1 -> 3) a likelier first reversal "
               "than the paper's 2-3-4-1. How far along λ the curves move depends on the "
               "power of the per-data-set tests (N, the F test, the correction), as the "
               "paper notes. Its text does not fix these, and they decide whether 4-3-2-1 "
               "is reached by λ = 0.1.\n\n"),
              f"![Figure 4]({p['figure4.png'].name})\n\n",
              f"![Figure 5]({p['figure5.png'].name})\n\n",
              (f"Orderings the paper names: Fig. 4 {', '.join(NAMED['figure4'])}; Fig. 5 "
               f"{', '.join(NAMED['figure5'])}.\n")]
    p["report"].write_text("".join(lines), encoding="utf-8")
    return p


from ._ulas2012_real import write_real  # noqa: E402

__doc__ = fill(__doc__)

LAYOUTS = {"published": write_published, "synthetic": write_synthetic, "real": write_real}
