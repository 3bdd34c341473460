"""The report of :func:`calibsim.rank` (and :func:`calibsim.compare_datasets`).

Built as parts from a :class:`RankingResult`; :mod:`calibsim.reports` renders them
(docs/guide/results.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..reports._render import math
from ..reports._words import (CORRECTION_WORDS, and_list, p_eq, p_text, reproducibility,
                              test_words)

__all__ = ["ranking_report", "POSTHOC_WORDS"]

CHI2, FF = math("χ²_F"), math("F_F")


def _form_words(f) -> str:
    """Which form of Friedman's statistic ran, in words, with the correction as a formula."""
    if f.tie_correction:
        return ("tie-corrected: divided by "
                + math("C = 1 − Σ(t³ − t) / (S L (L² − 1))")
                + ", t the size of each group of learners tied on a data set, as scipy's "
                "friedmanchisquare and R's friedman.test compute it")
    return "without the tie correction, as Demšar (2006, Sec. 3.2.2) writes it"

#: post-hoc method -> (name, source).
POSTHOC_WORDS = {
    "bergmann_hommel": ("Bergmann–Hommel procedure", "Bergmann & Hommel 1988; García & "
                        "Herrera 2008"),
    "shaffer": ("Shaffer's static procedure", "Shaffer 1986; García & Herrera 2008"),
    "holm": ("Holm procedure", "Holm 1979; Demšar 2006"),
    "nemenyi": ("Nemenyi test", "Nemenyi 1963; Demšar 2006"),
}


def ranking_report(res, bayes_pairs=None):
    """The report of one :class:`RankingResult`; ``bayes_pairs`` (the table of
    :func:`calibsim.ranking.bayesian_pairs`) adds the Bayesian test that ran on every pair
    (hierarchical or signed-rank, with its parameters and diagnostics)."""
    from ..reports import Paragraph, Report
    c = _facts(res)
    prov = res.provenance or {}
    parts = [Paragraph(f"Which of {and_list(res.learners)} is best over {c.S} data sets, and "
                       "which of them cannot be told apart?")]
    parts += _data_and_design_parts(c, prov)
    parts += _tests_parts(c)
    pairs = res.significant_pairs()
    groups = res.groups()
    parts += _results_parts(c, pairs, groups)
    parts += _multi2test_parts(c)
    parts += _effect_size_parts(c)
    if bayes_pairs is not None and len(bayes_pairs):
        parts += _bayes_parts(bayes_pairs, res.bayesian)
    parts += _in_words_parts(c, pairs, groups)
    parts += reproducibility(prov, random=False)
    return Report(f"{c.L} learners over {c.S} data sets", parts)


@dataclass(frozen=True, eq=False)
class _Facts:
    """What the sections of a ranking report share: the result and its labelled tables."""

    res: object
    S: int                  # data sets
    L: int                  # learners
    post_name: str          # the post-hoc procedure's name and source (POSTHOC_WORDS)
    post_cite: str
    better: str             # "higher" or "lower" (is better)
    frame: pd.DataFrame     # res.to_frame(): one row per learner, best first
    measure: str            # the effect size's name
    es_source: str          # where its magnitude thresholds come from
    best: str               # the learner with the best average rank
    rejects: bool           # Friedman rejects at res.alpha

    @property
    def f(self):
        """Friedman's test of the result."""
        return self.res.friedman


def _facts(res) -> _Facts:
    """The values every section of the report of ``res`` reads, computed once."""
    post_name, post_cite = POSTHOC_WORDS[res.posthoc_method]
    frame = res.to_frame()
    es = res.effect_sizes
    return _Facts(res=res, S=len(res.datasets), L=len(res.learners), post_name=post_name,
                  post_cite=post_cite, better="higher" if res.higher_is_better else "lower",
                  frame=frame, measure=es.attrs["measure"], es_source=es.attrs["source"],
                  best=frame["learner"].iloc[0], rejects=res.friedman.pvalue <= res.alpha)


def _data_and_design_parts(c: _Facts, prov: dict) -> list:
    """The "Data and design" section: data sets, learners, score, design, prior order."""
    from ..reports import Heading, Table
    res = c.res
    rows = [("Data sets", f"{c.S}: {', '.join(res.datasets)}"),
            ("Learners", f"{c.L}: {', '.join(res.learners)}"),
            ("Score", f"{res.score_name} ({c.better} is better)")]
    if res.n_folds:
        rows.append(("Scores per data set and learner",
                     f"{res.n_folds} per-fold scores (their mean is ranked)"))
    else:
        rows.append(("Scores per data set and learner", "one"))
    data = prov.get("data")
    if data:
        rows.append(("Design on each data set", str(data)))
    rows.append(("Prior order of Multi²Test (cheapest first)",
                 f"{' < '.join(res.multi2test.prior_order)}; from {res.cost_source}"))
    return [Heading("Data and design"), Table(pd.DataFrame(rows, columns=["item", "value"]))]


def _tests_parts(c: _Facts) -> list:
    """The "Tests" section: Friedman and Iman & Davenport (Demšar 2006), the post-hoc
    procedure and Multi²Test (Ulaş, Yıldız & Alpaydın 2012), and why nothing is calibrated."""
    from ..reports import Heading, Paragraph
    res, f, L = c.res, c.f, c.L
    m2 = res.multi2test
    if m2.per_dataset:
        first = m2.per_dataset[0]
        tname, tcite = test_words(first.pairwise_test)
        how = (f"the orders of MultiTest on each data set (one-sided {tname}, {tcite}, with "
               f"{CORRECTION_WORDS.get(first.correction, first.correction)})")
    else:
        how = "the per-data-set ranks by score"
    n_pairs = L * (L - 1) // 2
    return [Heading("Tests"), Paragraph(
        f"Friedman's test on the average ranks, its {CHI2} {_form_words(f)}, with Iman & "
        f"Davenport's {FF} derived from that {CHI2} (Demšar 2006); the "
        f"{c.post_name} ({c.post_cite}) over {'the' if n_pairs == 1 else f'all {n_pairs}'} "
        f"pair{'s' if n_pairs > 1 else ''} of average ranks, "
        f"{math('z = (R_i − R_j) / √(L(L+1)/(6S))')}, with adjusted p-values; and Multi²Test (Ulaş, "
        f"Yıldız & Alpaydın 2012) on {how}, breaking ties by the prior order. All at "
        f"α = {res.alpha:g}. Nothing here is calibrated: each data set contributes one "
        f"independent score per learner, so Friedman's {CHI2} has its textbook "
        f"{math('df = L − 1')} = "
        f"{f.df:g}, and Iman & Davenport's F has ({f.df_num:g}, {f.df_den:g}).")]


def _results_parts(c: _Facts, pairs, groups) -> list:
    """The "Results" section: Friedman's verdict, the learners by rank, the post-hoc
    p-values, the pairs it separates and the CD diagram."""
    from ..reports import Heading, Paragraph
    res, f = c.res, c.f
    parts = [Heading("Results"), Paragraph(
        f"Friedman: {CHI2} = {f.statistic:.3f} (df {f.df:g}), {p_eq(f.pvalue)}; Iman–Davenport "
        f"{FF} = {f.iman_davenport:.3f} (df {f.df_num:g}, {f.df_den:g}), "
        f"{p_eq(f.iman_davenport_pvalue)}: "
        + ("the learners differ" if c.rejects else "no difference is found")
        + f" at α = {res.alpha:g}.")]
    parts += _learner_tables(c)
    parts += _posthoc_parts(c, pairs, groups)
    return parts


def _learner_tables(c: _Facts) -> list:
    """The learners by average rank with effect sizes, and the post-hoc p-values."""
    from ..reports import Table
    res, frame, best, measure = c.res, c.frame, c.best, c.measure
    show = pd.DataFrame({
        "learner": frame["learner"],
        "average rank": frame["average_rank"].map(lambda v: f"{v:.3f}"),
        f"mean {res.score_name}": frame["mean"], "SD": frame["sd"],    # one format per column
        f"{measure} vs {best}": [("—" if n == best else f"{v:.2f}")
                                 for n, v in zip(frame["learner"], frame["effect_size"])],
        "magnitude": frame["magnitude"],
        f"adjusted p vs {best}": [("—" if n == best else p_text(v))
                                  for n, v in zip(frame["learner"], frame["adjusted_pvalue"])],
        "Multi²Test rank": frame["multi2test_rank"]})
    order = list(frame["learner"])
    pv = res.adjusted_pvalues.loc[order, order]
    return [Table(show, caption=(
                f"Learners by average rank (1 = best) over {c.S} data sets; effect size "
                f"against the best ({measure}; {c.es_source}); adjusted p-value of the "
                f"{c.post_name}.")),
            Table(pv.map(p_text), index=True, caption=(
                f"Adjusted p-values of the {c.post_name}, learner × learner."))]


def _posthoc_parts(c: _Facts, pairs, groups) -> list:
    """The pairs the post-hoc procedure separates, the groups it cannot, the CD diagram."""
    from ..reports import Figure, Paragraph
    res, post_name = c.res, c.post_name
    found = ("; ".join(f"{r.better} better than {r.worse} (rank difference "
                       f"{r.rank_difference:.2f}, adjusted {p_eq(r.adjusted_p)})"
                       for r in pairs.itertuples()) if len(pairs) else "none")
    group_text = "; ".join("{" + ", ".join(g) + "}" for g in groups) or "none"
    cd = getattr(res.posthoc, "critical_difference", None)
    cd_text = (f" The bar marked CD is Nemenyi's critical difference, {float(cd):.3f} in "
               "average rank (Demšar 2006)." if cd is not None and np.isfinite(cd) else "")
    return [Paragraph(f"Pairs the {post_name} separates at α = {res.alpha:g}: {found}. "
                      f"Groups it cannot separate: {group_text}."),
            Figure(res.plot_cd_diagram, "cd", caption=(
                f"Average ranks (1 = best) over {c.S} data sets; a thick line joins learners "
                f"the {post_name} cannot separate at α = {res.alpha:g}.{cd_text}"))]


def _multi2test_parts(c: _Facts) -> list:
    """The "Multi²Test order" section (Ulaş et al. 2012): overrides of the prior order."""
    from ..reports import Heading, Paragraph
    res = c.res
    m2 = res.multi2test
    if m2.posthoc is None:
        m2_text = ("Friedman's test on the per-data-set ranks does not reject: the order is the "
                   "prior order.")
    elif m2.overrides:
        m2_text = ("Prior preferences overridden (a costlier learner significantly better): "
                   + "; ".join(f"{b} over {a}" for a, b in m2.overrides) + ".")
    else:
        m2_text = "No significant pair overrides the prior order."
    if res.cost_source.startswith("the table's learner order"):
        m2_text += (" No cost was given: the prior order is the table's column order, so "
                    "learners no test separates are ordered as the columns are, not by cost "
                    "or merit.")
    return [Heading("Multi²Test order"), Paragraph(
        f"{m2_text} Order, best first: "
        + ", ".join(f"{k}. {n}" for k, n in enumerate(m2.order, 1)) + ".")]


def _normality_words(res) -> str:
    """Whether Shapiro–Wilk rejects any learner's normality (at α / L, Bonferroni), in words."""
    e = res._effects
    if e.all_normal:
        return ("no Shapiro–Wilk test of a learner's scores rejects normality (each at "
                f"α / L = {e.alpha_normality:.3g}, Bonferroni)")
    return ("Shapiro–Wilk rejects normality (at α / L = "
            f"{e.alpha_normality:.3g}, Bonferroni) for "
            + and_list([f"{n} (p = {p:.3g})" for n, p in zip(res.learners,
                                                             e.normality_pvalue)
                        if np.isfinite(p) and p < e.alpha_normality]
                       + [f"{n} (not testable)" for n, p in zip(res.learners,
                                                                e.normality_pvalue)
                          if not np.isfinite(p)]))


def _effect_size_parts(c: _Facts) -> list:
    """The "Effect sizes" section: each learner against the best, as autorank (Herbold 2020)."""
    from ..reports import Heading, Paragraph
    res = c.res
    e = res._effects
    normal = _normality_words(res)
    th = ", ".join(f"{t:g}" for t in e.thresholds)
    return [Heading("Effect sizes"), Paragraph(
        f"Each learner against the best by average rank ({c.best}), as autorank does (Herbold "
        f"2020): {normal}, so the effect size is {c.measure} "
        + ("with the pooled standard deviation of the two learners' scores over the data sets"
           if e.measure == "cohen_d" else
           "(the share of data-set pairs where the best scores better minus the share where "
           "it scores worse)")
        + f", labelled negligible, small, medium or large at {th} ({e.source}). "
        "Positive values favour the best. These effect sizes compare the learners' "
        "distributions of scores across data sets, whose spread between data sets is "
        "usually far larger than any learner's advantage; a learner can be ranked below the "
        "best on every data set with a negligible effect size, which is what the rank "
        "tests above see and an effect size does not.")]


def _in_words_parts(c: _Facts, pairs, groups) -> list:
    """The "In words" section: the paragraph to paste into a paper."""
    from ..reports import Heading, Paragraph
    res, f, frame, L = c.res, c.f, c.frame, c.L
    form = "tie-corrected" if f.tie_correction else "without tie correction"
    fr = (f"Friedman's test ({form}) {'rejects' if c.rejects else 'does not reject'} the "
          f"hypothesis "
          f"that all learners perform equally ({CHI2} = {f.statistic:.2f}, df = {f.df:g}, "
          f"{p_eq(f.pvalue)}; Iman–Davenport {FF} = {f.iman_davenport:.2f}, "
          f"{p_eq(f.iman_davenport_pvalue)})")
    ph = _posthoc_words(c.post_name, pairs, groups)
    effects = and_list([f"{n} {v:.2f} ({m})" for n, v, m in zip(
        frame["learner"][1:], frame["effect_size"][1:], frame["magnitude"][1:])])
    no_cost = res.cost_source.startswith("the table's learner order")
    m2_how = ("with no cost given, so that learners no test separates keep the table's "
              "column order (the first column wins a tie, not the cheaper learner)"
              if no_cost else "preferring the cheaper learner unless a costlier one is "
              "significantly better")
    text = (f"We compared {L} learners ({and_list(res.learners)}) on {c.S} data sets by "
            f"{res.score_name} ({c.better} is better) at α = {res.alpha:g}. {fr}. {ph} "
            f"{c.best} has the "
            f"best average rank ({frame['average_rank'].iloc[0]:.2f}); against it, "
            f"{c.measure} is {effects} (thresholds of {res._effects.source}). Multi²Test "
            f"(Ulaş et al. 2012), {m2_how}, orders them {', '.join(res.multi2test.order)}.")
    return [Heading("In words"), Paragraph(text)]


def _posthoc_words(post_name: str, pairs, groups) -> str:
    """The post-hoc procedure's significant pairs and inseparable groups, in words."""
    if len(pairs):
        ph = (f"The {post_name} finds {len(pairs)} significant "
              f"pair{'s' if len(pairs) > 1 else ''}: " + "; ".join(
                  f"{r.better} ranks better than {r.worse} (adjusted {p_eq(r.adjusted_p)})"
                  for r in pairs.itertuples()) + ".")
    else:
        ph = f"The {post_name} finds no significant pair."
    if groups:
        ph += " It cannot separate " + "; ".join(and_list(g) for g in groups) + "."
    return ph


def _bayes_parts(pairs, results=None) -> list:
    """The Bayesian section: the test that ran (hierarchical or signed-rank), its source,
    parameters and, for the hierarchical test, the sampler's diagnostics per pair."""
    from ..reports import Figure, Heading, Paragraph, Table
    from ._bayes import plot_bayesian_pairs

    def draw():
        from matplotlib.figure import Figure as MplFigure
        ax = MplFigure(figsize=(7, 0.45 * len(pairs) + 1.4),
                       layout="constrained").add_subplot()
        return plot_bayesian_pairs(pairs, ax=ax)
    results = results or {}
    hier = ("test" in pairs and (pairs["test"] == "hierarchical").all()) if len(pairs) else False
    show = pd.DataFrame({"pair (A vs B)": [f"{a} vs {b}" for a, b in
                                            zip(pairs.learner_a, pairs.learner_b)],
                         "P(A better)": pairs.p_a_better.map(lambda v: f"{v:.3f}"),
                         "P(equivalent)": pairs.p_rope.map(lambda v: f"{v:.3f}"),
                         "P(B better)": pairs.p_b_better.map(lambda v: f"{v:.3f}"),
                         "decision": pairs.decision})
    rope, threshold = pairs.attrs.get("rope", 0), pairs.attrs.get("threshold", 0.95)
    if hier:
        res = [results.get((a, b)) for a, b in zip(pairs.learner_a, pairs.learner_b)]
        show.insert(4, "mean difference", pairs.mean_difference.map(lambda v: f"{v:+.4f}"))
        if all(r is not None for r in res):
            show["R-hat"] = [f"{r.rhat:.3f}" for r in res]
            show["ESS"] = [f"{r.ess:.0f}" for r in res]
            show["divergent"] = [int(r.n_divergent) for r in res]
        rhos = sorted(set(float(v) for v in pairs.rho))
        rho = ", ".join(f"{v:.4g}" for v in rhos)
        first = next((r for r in res if r is not None), None)
        sampler = (f" Sampler: {first.sampler}; {first.n_chains} chains, {first.n_draws} "
                   "draws per pair; the table gives each pair's largest split R-hat, smallest bulk "
                   "ESS and divergent transitions (good: R-hat ≤ 1.01, ESS ≥ 400, none "
                   "divergent)." if first is not None else "")
        poor = [f"{a} vs {b}" for (a, b), r in zip(zip(pairs.learner_a, pairs.learner_b), res)
                if r is not None and not r.diagnostics_ok]
        warn = (" Poor sampler diagnostics for " + and_list(poor) + ": read the "
                "probabilities of " + ("this pair" if len(poor) == 1 else "these pairs")
                + " with care." if poor else "")
        return [Heading("Hierarchical Bayesian test"),
                Paragraph("The hierarchical Bayesian test (Corani, Benavoli, Demšar, Mangili "
                          "& Zaffalon 2017) on every pair, over the per-fold scores of all "
                          f"data sets, with correlation ρ = {rho} of the cross-validation "
                          f"differences, a region of practical equivalence of ±{rope:g} in "
                          f"score units; a decision needs posterior probability "
                          f"{threshold:g}. Probabilities are for the next data set; mean "
                          f"difference is the posterior mean of δ0 (A minus B).{sampler}"
                          f"{warn}"),
                Table(show, caption="Posterior probabilities per pair (hierarchical test)."),
                Figure(draw, "posterior", caption=(
                    "Posterior probabilities per pair (hierarchical test): A better, "
                    "practically equivalent, B better."))]
    first = next(iter(results.values()), None)
    n = getattr(first, "n_samples", None)
    return [Heading("Bayesian signed-rank tests"),
            Paragraph("The Bayesian signed-rank test (Benavoli, Corani, Mangili, Zaffalon & "
                      "Ruggeri 2014) on every pair, over the data sets' mean scores, with a "
                      f"region of practical equivalence of ±{rope:g} in score units; a "
                      f"decision needs posterior probability {threshold:g}."
                      + (f" {n} Monte Carlo samples per pair." if n else "")),
            Table(show, caption="Posterior probabilities per pair (Bayesian signed-rank "
                                "test)."),
            Figure(draw, "posterior", caption=(
                "Posterior probabilities per pair (Bayesian signed-rank test): A better, "
                "practically equivalent, B better."))]
