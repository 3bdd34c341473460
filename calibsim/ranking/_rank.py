"""Friedman, a post-hoc procedure and Multi²Test on a table of scores (see :mod:`calibsim.ranking`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import pandas as pd

from .._validation import check_choice, check_probability
from ..reports import Reportable
from ..stats import (
    bergmann_hommel_test,
    friedman_test,
    holm_test,
    multi2test,
    multi2test_from_ranks,
    nemenyi_test,
    shaffer_test,
)
from ..stats import PAIRWISE_TESTS
from ..stats._classic import _iv_bool
from ._table import read_scores

__all__ = ["RankingResult", "rank"]

_POSTHOC = {"bergmann_hommel": bergmann_hommel_test, "shaffer": shaffer_test,
            "holm": holm_test, "nemenyi": nemenyi_test}
_LABEL = {"bergmann_hommel": "Bergmann–Hommel", "shaffer": "Shaffer", "holm": "Holm",
          "nemenyi": "Nemenyi"}


@dataclass(frozen=True, eq=False)
class RankingResult(Reportable):
    """Friedman, the post-hoc procedure and Multi²Test on one score table.

    Attributes
    ----------
    learners, datasets : tuple of str
    scores : ndarray of shape (n_datasets, n_learners)
        Score per data set and learner (the mean over folds with per-fold scores).
    higher_is_better : bool
    score_name : str
    average_ranks : ndarray of shape (n_learners,)
        Average rank of each learner by score (1 = best).
    friedman : FriedmanResult
    posthoc : PairwiseRankResult
        The post-hoc procedure on the scores (computed whether or not Friedman rejects).
    multi2test : Multi2TestResult
    alpha : float
    posthoc_method : str
    cost_source : str
        Where the prior order came from.
    n_folds : int or None
        Folds per data set and learner when MultiTest ran per data set.
    bayesian : dict or None
        With ``method="bayes"``: ``(learner_a, learner_b) ->`` the hierarchical test's
        :class:`~calibsim.stats.HierarchicalResult` (per-fold scores) or the signed-rank
        test's :class:`~calibsim.stats.BayesianResult` (one score per data set).
    provenance : dict or None
        What the report needs beyond the numbers: ``call`` (the Python call),
        ``command`` (from the command line), ``seed`` and ``data`` where the scores were
        made here (:func:`calibsim.compare_datasets`).

    Notes
    -----
    Labelled tables: :meth:`to_frame` (one row per learner: average rank, mean score,
    effect size against the best with its magnitude, adjusted p-value against the best,
    Multi²Test rank), :attr:`adjusted_pvalues` (learner × learner, as scikit-posthocs)
    and :attr:`effect_sizes`. :meth:`report` and :meth:`save_report` give the report in
    Markdown, LaTeX or HTML with the CD diagram (docs/guide/results.md).
    """

    learners: tuple
    datasets: tuple
    scores: np.ndarray = field(repr=False)
    higher_is_better: bool
    score_name: str
    average_ranks: np.ndarray
    friedman: object = field(repr=False)
    posthoc: object = field(repr=False)
    multi2test: object = field(repr=False)
    alpha: float
    posthoc_method: str
    cost_source: str
    n_folds: int | None = None
    provenance: dict | None = field(default=None, repr=False)
    bayesian: dict | None = field(default=None, repr=False)

    @property
    def adjusted_pvalues(self) -> pd.DataFrame:
        """The post-hoc procedure's adjusted p-values, learner × learner (1 on the
        diagonal; learners in the table's order), as scikit-posthocs returns them."""
        names = list(self.learners)
        return pd.DataFrame(np.asarray(self.posthoc.pvalue, dtype=float),
                            index=pd.Index(names, name="learner"), columns=names)

    @cached_property
    def _effects(self):
        from ..stats import effect_sizes_vs_best
        best = int(np.argsort(self.average_ranks, kind="stable")[0])
        return effect_sizes_vs_best(self.scores, best=best,
                                    higher_is_better=self.higher_is_better, alpha=self.alpha)

    @property
    def effect_sizes(self) -> pd.DataFrame:
        """Each learner against the best (lowest average rank), as autorank does: Cohen's d
        where Shapiro-Wilk finds every learner's scores normal (at α / L), else Cliff's δ
        (see :func:`calibsim.stats.effect_sizes_vs_best`). Positive: the best is better.

        Returns
        -------
        pandas.DataFrame
            Index ``learner``; columns ``effect_size`` (NaN for the best itself),
            ``magnitude`` ("negligible", "small", "medium", "large"; "" for the best) and
            ``normality_pvalue``; ``attrs`` hold ``measure``, ``thresholds`` and
            ``source``.
        """
        e = self._effects
        out = pd.DataFrame({"effect_size": e.effect_size, "magnitude": e.magnitude,
                            "normality_pvalue": e.normality_pvalue},
                           index=pd.Index(list(self.learners), name="learner"))
        out.attrs.update(measure=e.name, thresholds=e.thresholds, source=e.source)
        return out

    def to_frame(self) -> pd.DataFrame:
        """One row per learner, best average rank first.

        Columns: ``learner, average_rank, mean, sd, median`` (of the score over the
        data sets, in its own units), ``effect_size, magnitude`` (against the best, see
        :attr:`effect_sizes`), ``adjusted_pvalue`` (the post-hoc procedure's, against
        the best; NaN for the best), ``multi2test_rank`` (position in Multi²Test's
        order, 1 = first).
        """
        e = self._effects
        p = np.asarray(self.posthoc.pvalue, dtype=float)[e.best].copy()
        p[e.best] = np.nan
        pos = {n: k for k, n in enumerate(self.multi2test.order, 1)}
        frame = pd.DataFrame({
            "learner": list(self.learners), "average_rank": self.average_ranks,
            "mean": self.scores.mean(axis=0), "sd": self.scores.std(axis=0, ddof=1),
            "median": np.median(self.scores, axis=0), "effect_size": e.effect_size,
            "magnitude": e.magnitude, "adjusted_pvalue": p,
            "multi2test_rank": [pos[n] for n in self.learners]})
        order = np.argsort(self.average_ranks, kind="stable")
        return frame.iloc[order].reset_index(drop=True)

    def _report(self, bayes_pairs=None):
        from ._report import ranking_report
        if bayes_pairs is None and self.bayesian:
            bayes_pairs = self.bayesian_frame()
        return ranking_report(self, bayes_pairs=bayes_pairs)

    @property
    def order(self) -> tuple:
        """Multi²Test's order, best first."""
        return self.multi2test.order

    def groups(self) -> list:
        """Groups of learners the post-hoc procedure cannot separate, best first."""
        from ..plotting._ranks import cd_groups
        return cd_groups(self.average_ranks, self.posthoc.reject, self.learners)

    def significant_pairs(self) -> pd.DataFrame:
        """Pairs the post-hoc procedure separates: better, worse, rank difference, adjusted p."""
        R, rows = self.average_ranks, []
        i, j = np.nonzero(np.triu(self.posthoc.reject, k=1))
        for a, b in zip(i, j):
            best, worst = (a, b) if R[a] < R[b] else (b, a)
            rows.append({"better": self.learners[best], "worse": self.learners[worst],
                         "rank_difference": R[worst] - R[best],
                         "adjusted_p": float(self.posthoc.pvalue[a, b])})
        frame = pd.DataFrame(rows, columns=["better", "worse", "rank_difference", "adjusted_p"])
        return frame.sort_values("adjusted_p", kind="stable", ignore_index=True)

    def _parts(self):
        f, S, L = self.friedman, len(self.datasets), len(self.learners)
        rejects = f.pvalue <= self.alpha
        head = (f"{S} data sets x {L} learners; score {self.score_name!r} "
                f"({'higher' if self.higher_is_better else 'lower'} is better)")
        tied = "tie-corrected, as scipy and R"     # Demšar's form keeps the earlier words
        if self.multi2test.per_dataset:
            label = ("Friedman on the scores (the test to report for the learners' ranks)"
                     + (f", {tied}" if f.tie_correction else ""))
        else:
            label = f"Friedman ({tied})" if f.tie_correction else "Friedman"
        fried = (f"{label}: chi2_F = {f.statistic:.3f} (df {f.df:g}), p = {f.pvalue:.3g}; "
                 f"Iman-Davenport F_F = {f.iman_davenport:.3f} (df {f.df_num:g}, "
                 f"{f.df_den:g}), p = {f.iman_davenport_pvalue:.3g} -> "
                 + ("the learners differ" if rejects else "no difference found")
                 + f" at alpha = {self.alpha:g}")
        order = np.argsort(self.average_ranks, kind="stable")
        ranks = pd.DataFrame({"learner": [self.learners[k] for k in order],
                              "average rank": self.average_ranks[order]})
        m2 = self.multi2test
        how = (f"MultiTest on each data set ({self.n_folds} folds, "
               f"{m2.per_dataset[0].pairwise_test}, {m2.per_dataset[0].correction})"
               if m2.per_dataset else "per-data-set ranks by score")
        multi = [f"Multi²Test ({how}; prior order from {self.cost_source}: "
                 + " < ".join(m2.prior_order) + ")"]
        no_cost = self.cost_source.startswith("the table's learner order")
        if no_cost:
            multi.append("  no cost given: the prior order is the table's column order, so "
                         "learners no test separates are ordered as the columns are, not by "
                         "merit (give `cost`, e.g. training time, for a cost-conscious order)")
        if m2.per_dataset:
            multi.append(f"  Friedman on the MultiTest ranks (Multi²Test's own step, for its "
                         f"order only; not the test of the ranks above): chi2_F = "
                         f"{m2.friedman.statistic:.3f}, p = {m2.friedman.pvalue:.3g}")
        if m2.posthoc is None:
            multi.append("  Friedman does not reject: the order is the prior order")
        elif m2.overrides:
            multi.append("  prior preferences overridden (costlier is significantly better): "
                         + "; ".join(f"{b} over {a}" for a, b in m2.overrides))
        else:
            multi.append("  no significant pair overrides the prior order")
        multi.append("  order: " + ", ".join(f"{k}: {n}" for k, n in enumerate(m2.order, 1))
                     + (" (no cost given: unseparated learners keep the column order)"
                        if no_cost else ""))
        return head, fried, ranks, multi

    def bayesian_frame(self) -> pd.DataFrame:
        """The Bayesian comparisons of every pair (``method="bayes"``), one row each
        (see :func:`calibsim.ranking.bayesian_pairs`); empty without them."""
        from ._bayes import pairs_frame
        return pairs_frame(self.bayesian or {})

    def _bayes_lines(self) -> list:
        if not self.bayesian:
            return []
        first = next(iter(self.bayesian.values()))
        hier = hasattr(first, "shrunk_means")
        frame = self.bayesian_frame()
        if hier:
            head = (f"Hierarchical Bayesian test (Corani et al. 2017) on the per-fold scores, "
                    f"rho = {first.rho:.4g}, ROPE ±{first.rope:g}, decision at posterior "
                    f"probability {first.threshold:g}; sampler: {first.sampler}, "
                    f"{first.n_chains} chains, {first.n_draws} draws per pair:")
        else:
            head = (f"Bayesian signed-rank test (Benavoli et al. 2014) on the mean scores, "
                    f"ROPE ±{first.rope:g}, decision at posterior probability "
                    f"{first.threshold:g}:")
        lines = [head]
        for r in frame.itertuples():
            verdict = {"rope": "practically equivalent", "none": "no decision"}.get(
                r.decision, f"{r.decision} is better")
            extra = ""
            if hier:
                res = self.bayesian[(r.learner_a, r.learner_b)]
                extra = (f", mean difference {r.mean_difference:+.4f} (sampler: R-hat "
                         f"{res.rhat:.3f}, ESS {res.ess:.0f}, {res.n_divergent} divergent)")
            lines.append(f"  {r.learner_a} vs {r.learner_b}: P({r.learner_a} better) = "
                         f"{r.p_a_better:.3f}, P(equivalent) = {r.p_rope:.3f}, "
                         f"P({r.learner_b} better) = {r.p_b_better:.3f}{extra} -> {verdict}")
        poor = [f"{a} vs {b}" for (a, b), res in self.bayesian.items()
                if hier and not res.diagnostics_ok]
        if poor:
            lines.append("  poor sampler diagnostics (R-hat, ESS or divergences) for: "
                         + "; ".join(poor))
        return lines

    def plot_posterior(self, pair=None):
        """The posterior of a Bayesian comparison (``method="bayes"``): the simplex of
        the hierarchical test for one pair (default the first), or stacked bars of every
        pair for the signed-rank test.

        Returns
        -------
        matplotlib.figure.Figure

        Raises
        ------
        ValueError
            Without Bayesian comparisons, or for a pair not compared.
        """
        if not self.bayesian:
            raise ValueError("this ranking has no Bayesian comparison; rank with "
                             "method='bayes'.")
        first = next(iter(self.bayesian.values()))
        if not hasattr(first, "shrunk_means"):
            from ._bayes import plot_bayesian_pairs
            return plot_bayesian_pairs(self.bayesian_frame()).figure
        key = tuple(pair) if pair is not None else next(iter(self.bayesian))
        if key not in self.bayesian:
            raise ValueError(f"`pair` must be one of {list(self.bayesian)}; got {pair!r}.")
        return self.bayesian[key].plot_posterior()

    def __str__(self) -> str:
        head, fried, ranks, multi = self._parts()
        pairs = self.significant_pairs()
        post = [(f"Post-hoc: {_LABEL[self.posthoc_method]} (alpha = {self.alpha:g}): "
                 f"{len(pairs)} significant pair(s)")]
        cd = getattr(self.posthoc, "critical_difference", None)
        if cd is not None and np.isfinite(cd):
            post.append(f"  critical difference (Nemenyi, Demšar 2006): {float(cd):.3f} in "
                        "average rank")
        post += [f"  {r.better} better than {r.worse}: rank difference "
                 f"{r.rank_difference:.3f}, adjusted p = {r.adjusted_p:.3g}"
                 for r in pairs.itertuples()]
        post.append("  not separated: " + ("; ".join("{" + ", ".join(g) + "}"
                                                      for g in self.groups()) or "none"))
        rank_lines = [f"  {r.learner:<16} {r._2:.3f}" for r in ranks.itertuples()]
        return "\n".join([head, fried, "Average ranks (1 = best):", *rank_lines, *post, *multi,
                          *self._bayes_lines()])

    def to_markdown(self) -> str:
        """The summary as Markdown (tables for the ranks and the significant pairs)."""
        head, fried, ranks, multi = self._parts()
        pairs = self.significant_pairs()
        groups = "; ".join("{" + ", ".join(g) + "}" for g in self.groups()) or "none"
        return "\n\n".join([
            f"**{head}**", fried, ranks.to_markdown(index=False, floatfmt=".3f"),
            f"**{_LABEL[self.posthoc_method]}** (alpha = {self.alpha:g}), significant pairs:",
            pairs.to_markdown(index=False, floatfmt=".4g") if len(pairs) else "none",
            f"Not separated: {groups}", "\n".join(m.strip() for m in multi)]
            + (["\n".join(self._bayes_lines()[:1]),
                self.bayesian_frame().to_markdown(index=False, floatfmt=".4g")]
               if self.bayesian else [])) + "\n"

    def plot_cd_diagram(self, ax=None):
        """Demšar's CD diagram with the post-hoc groups (see
        :func:`calibsim.plotting.plot_critical_difference`)."""
        from ..plotting._ranks import plot_critical_difference
        return plot_critical_difference(
            self.average_ranks, self.learners, reject=self.posthoc.reject,
            critical_difference=self.posthoc.critical_difference, ax=ax,
            title=f"{_LABEL[self.posthoc_method]}, alpha = {self.alpha:g}")

    def plot_graph(self, ax=None):
        """The second MultiTest's graph with the final order."""
        from ..plotting._ranks import plot_multitest_graph
        return plot_multitest_graph(self.multi2test, ax=ax)


def _prior(cost, table):
    """(cost argument for Multi²Test, description)."""
    if table.cost is not None:
        return table.cost, f"column {table.cost_name!r} (normalised per data set, averaged)"
    if cost is None:
        return list(table.learners), "the table's learner order (no cost given)"
    if isinstance(cost, dict):
        missing = [n for n in table.learners if n not in cost]
        if missing:
            raise ValueError(f"`cost` must give a cost for every learner; missing {missing}.")
        return [float(cost[n]) for n in table.learners], "the given costs"
    seq = list(cost)
    if seq and all(isinstance(c, str) for c in seq):
        return seq, "the given order"
    return seq, "the given costs"


def rank(table, *, score=None, higher_is_better=True, cost=None, posthoc="bergmann_hommel",
         alpha=0.05, pairwise_test="cv5x2_f", correction="bonferroni", dataset="dataset",
         learner="learner", fold="fold", folds_per_run=None, method="frequentist", rope=0.0,
         rho=None, threshold=0.95, random_state=0, tie_correction=True):
    """Compare learners over data sets: Friedman, a post-hoc procedure and Multi²Test.

    Parameters
    ----------
    table : pandas.DataFrame
        Long: one row per data set and learner (or per fold), with columns
        ``dataset``, ``learner``, the score, optionally ``fold`` and a cost column.
        Wide: data sets in the index, learners in the columns, scores as values.
    score : str, optional
        Score column of a long table; default the first of ``"score"``,
        ``"accuracy"``, ``"error"`` present.
    higher_is_better : bool, default True
        True for accuracy or AUC, False for error rates.
    cost : str, mapping, sequence or None
        The prior cost order of Multi²Test (lower = preferred): the name of a cost
        column (e.g. training time in seconds; normalised per data set and
        averaged), a mapping learner -> cost, costs in the learners' order, or the
        learner names from cheapest to costliest. None: the order in which the
        learners first appear in the table.
    posthoc : {"bergmann_hommel", "shaffer", "holm", "nemenyi"}, default "bergmann_hommel"
    alpha : float, default 0.05
        Level of Friedman's test, the post-hoc procedure and MultiTest.
    pairwise_test, correction : str
        MultiTest's pairwise test and correction, used with per-fold scores (see
        :func:`calibsim.stats.multitest`); ``"cv5x2_f"`` needs 10 folds per data
        set (5x2 cv, replication-major: sorted fold labels 0-1 are replication 1).
        Any other registered test (:data:`calibsim.stats.TESTS`, the Bayesian tests)
        that fits the folds also works, one-sided ("the costlier learner is better"):
        a test of r x k cv with ``folds_per_run=k``, a subsampling test on the folds
        as subsamples (without ``folds_per_run``; 90/10 splits assumed), at the
        calibrated df of the shipped table
        where it has one, else the textbook df (the summary says which); a test that
        does not fit the folds, or McNemar's (it needs predictions), is refused with
        the designs it fits.
        For r runs of k-fold cv use ``"corrected_repeated_cv"`` (Bouckaert & Frank's
        corrected repeated cv t, the test they found to replicate best, with
        ``folds_per_run=k``); ``"paired_t"`` treats the r·k folds as independent and
        rejects too often (Bouckaert 2003).
    folds_per_run : int, optional
        k, for ``pairwise_test="corrected_repeated_cv"`` (folds run-major: fold
        labels 0..k-1 are run 1).
    dataset, learner, fold : str
        Column names of a long table.
    method : {"frequentist", "bayes"}, default "frequentist"
        "bayes" adds a Bayesian comparison of every pair: the hierarchical test (Corani
        et al. 2017, :func:`calibsim.stats.hierarchical_bayesian_test`) when the table
        has per-fold scores, the Bayesian signed-rank test on the mean scores otherwise.
    rope, rho, threshold : float
        The Bayesian tests' ROPE (score units), the hierarchical test's correlation
        (default 1/k, with k = ``folds_per_run``, 2 for 5x2 cv, else the number of
        folds) and the posterior probability needed for a decision.
    random_state : int or numpy.random.SeedSequence, default 0
        Seed of the Bayesian tests' sampling.
    tie_correction : bool, default True
        Friedman's statistic (on the scores and in Multi²Test) tie-corrected, as
        :func:`scipy.stats.friedmanchisquare` and R's ``friedman.test`` (True), or
        Demšar's (2006) form without the correction (False), as papers following
        him used; see :func:`calibsim.stats.friedman_test`. The summary and the
        report say which form ran.

    Returns
    -------
    RankingResult
        ``print(result)`` gives the summary; ``result.to_markdown()``,
        ``result.plot_cd_diagram()`` and ``result.plot_graph()``; with ``method="bayes"``
        also ``result.bayesian_frame()`` and ``result.plot_posterior()``.

    Raises
    ------
    ValueError
        If a column is missing or not numeric, a data set lacks a learner's score,
        a (data set, learner) has two scores without a fold column, or the costs
        tie.

    Examples
    --------
    >>> import pandas as pd
    >>> from calibsim.ranking import rank
    >>> wide = pd.DataFrame({"nb": [0.81, 0.70, 0.92, 0.66, 0.75, 0.88],
    ...                      "c45": [0.84, 0.72, 0.93, 0.69, 0.74, 0.90],
    ...                      "svm": [0.88, 0.79, 0.95, 0.73, 0.80, 0.93]})
    >>> res = rank(wide, cost=["nb", "c45", "svm"], posthoc="holm")
    >>> res.average_ranks
    array([2.83333333, 2.16666667, 1.        ])
    >>> res.order          # svm beats nb only; c45 is cheaper and not worse than svm
    ('c45', 'svm', 'nb')
    """
    hib = _iv_bool("higher_is_better", higher_is_better)
    posthoc = check_choice("posthoc", posthoc, set(_POSTHOC))
    method = check_choice("method", method, {"frequentist", "bayes"})
    alpha = check_probability("alpha", alpha)
    t = read_scores(table, score=score, cost=cost if isinstance(cost, str) else None,
                    dataset=dataset, learner=learner, fold=fold)
    folds_per_run, pairwise_test = _design_of(t, folds_per_run, pairwise_test)
    tc = _iv_bool("tie_correction", tie_correction)
    fr = friedman_test(t.scores, higher_is_better=hib, tie_correction=tc)
    ph = _POSTHOC[posthoc](t.scores, higher_is_better=hib, alpha=alpha)
    prior, source = _prior(cost, t)
    if t.folds is not None:
        pairwise_test, loss = _fold_losses(t, hib, pairwise_test, folds_per_run, alpha)
        n_folds = t.folds.shape[2]
        m2 = multi2test(loss, cost=prior, learners=t.learners, pairwise_test=pairwise_test,
                        correction=correction, alpha=alpha, posthoc=posthoc,
                        tie_correction=tc)
    else:
        n_folds = None
        ranks = pd.DataFrame(-t.scores if hib else t.scores).rank(axis=1).to_numpy()
        m2 = multi2test_from_ranks(ranks, cost=prior, learners=t.learners, posthoc=posthoc,
                                   alpha=alpha, tie_correction=tc)
    from ..reports._words import call_text
    kwargs = {"score": t.score_name, "higher_is_better": hib, "cost": cost, "posthoc": posthoc,
              "alpha": alpha}
    if not tc:
        kwargs["tie_correction"] = False
    if t.folds is not None:
        kwargs.update(pairwise_test=pairwise_test, correction=correction)
        if pairwise_test == "corrected_repeated_cv":
            kwargs["folds_per_run"] = folds_per_run
    bayes = None
    if method == "bayes":
        from ._bayes import bayesian_pair_results
        bayes = bayesian_pair_results(table, rope=rope, threshold=threshold,
                                      higher_is_better=hib, score=score, rho=rho,
                                      folds_per_run=_bayes_folds_per_run(t, pairwise_test,
                                                                         folds_per_run),
                                      random_state=random_state)
        kwargs.update(method="bayes", rope=rope, threshold=threshold, rho=rho,
                      random_state=random_state)
    prov = {"call": call_text("rank", ["table"], kwargs)}
    return RankingResult(t.learners, t.datasets, t.scores, hib, t.score_name,
                         fr.average_ranks, fr, ph, m2, alpha, posthoc, source, n_folds,
                         provenance=prov, bayesian=bayes)


def _design_of(t, folds_per_run, pairwise_test):
    """``(folds_per_run, pairwise_test)`` for the table read: with run and fold columns
    the table says r x k cv, and the 5x2cv tests give way to the corrected repeated cv t
    unless it is 5x2 cv; a table of fewer than 2 data sets or learners is refused."""
    S, L = t.scores.shape
    if t.folds_per_run is not None and folds_per_run is None:     # run and fold columns
        folds_per_run = t.folds_per_run                   # say r x k cv with k folds per run
        is_5x2 = folds_per_run == 2 and t.folds.shape[2] == 10
        if not is_5x2 and pairwise_test in ("cv5x2_f", "cv5x2_t"):
            pairwise_test = "corrected_repeated_cv"       # the 5x2cv tests do not fit r x k
    if S < 2 or L < 2:
        raise ValueError(f"`table` must hold at least 2 data sets and 2 learners; got {S} "
                         f"data set(s) and {L} learner(s).")
    return folds_per_run, pairwise_test


def _fold_losses(t, hib, pairwise_test, folds_per_run, alpha):
    """``(pairwise_test, loss)``: MultiTest's pairwise test (a registered test outside
    MultiTest's own becomes its one-sided function) and the per-fold losses of shape
    (S, L, folds) shaped as that test reads them; a test that does not fit is refused."""
    S, L = t.scores.shape
    loss = -t.folds if hib else t.folds                  # MultiTest compares losses
    n_folds = loss.shape[2]
    if isinstance(pairwise_test, str) and pairwise_test != "paired_t":
        # any registered test, checked against the folds (one clear error if it
        # does not fit); MultiTest's built-in ones keep their own functions below
        func, shape = registry_pairwise(pairwise_test, n_folds, folds_per_run, alpha)
        if pairwise_test not in PAIRWISE_TESTS:
            pairwise_test = func
            loss = loss.reshape((S, L) + shape)
    if callable(pairwise_test) or pairwise_test == "paired_t":
        pass
    elif pairwise_test in ("cv5x2_f", "cv5x2_t"):
        if n_folds != 10:
            raise ValueError(f"`pairwise_test`={pairwise_test!r} needs 10 folds per data "
                             f"set and learner (5x2 cv); the table has {n_folds}. For r "
                             "runs of k-fold cv use pairwise_test='corrected_repeated_cv' "
                             "with folds_per_run=k (Bouckaert & Frank's corrected t, "
                             "which replicates best).")
        loss = loss.reshape(S, L, 5, 2)
    elif pairwise_test == "corrected_repeated_cv":
        k = folds_per_run
        if not (isinstance(k, int) and k >= 2 and n_folds % k == 0):
            raise ValueError(f"`folds_per_run` must be k >= 2 dividing the {n_folds} "
                             f"folds per data set for the corrected repeated cv t; got "
                             f"{k!r}.")
        loss = loss.reshape(S, L, n_folds // k, k)
    return pairwise_test, loss


def _bayes_folds_per_run(t, pairwise_test, folds_per_run):
    """k for the hierarchical Bayesian test's default rho = 1/k: ``folds_per_run``, or 2
    for 5x2 cv."""
    k = folds_per_run
    if k is None and t.folds is not None and pairwise_test in ("cv5x2_f", "cv5x2_t") \
            and t.folds.shape[2] == 10:
        k = 2                                         # 5x2 cv: five runs of 2 folds
    return k


def registry_pairwise(name, n_folds: int, folds_per_run, alpha: float):
    """A registered test as MultiTest's one-sided pairwise test on ``n_folds`` folds.

    Returns ``(f(e_cheap, e_costly) -> p, fold shape)``: the p-value of "the costlier
    learner has the lower loss" (the Bayesian tests: 1 - its posterior probability).

    Raises
    ------
    ValueError
        If the test does not fit the folds (naming the designs it fits) or needs k.
    """
    from ..stats import check_fits_design, get_test
    try:
        spec = get_test(name)
    except ValueError as exc:
        raise ValueError(str(exc).replace("`test`", "`pairwise_test`")) from None
    k = folds_per_run
    if spec.scheme == "subsampling" and k is not None:   # r x k cv folds are not subsamples
        kind, r, shape = "cv", n_folds // k if k else 0, ()
        design = f"{r}x{k} (folds_per_run={k})"
    elif spec.scheme == "subsampling":
        kind, r, k, shape = "subsampling", n_folds, 0, (n_folds,)
        design = f"subsampling:{n_folds}"
    elif spec.scheme == "cv5x2":
        if n_folds != 10:
            from ..stats._registry import designs_text
            raise ValueError(f"`pairwise_test`={spec.name!r} needs 10 folds per data set and "
                             f"learner (5x2 cv); the table has {n_folds}: it fits "
                             f"{designs_text(spec)}. For r runs of k-fold cv use "
                             "pairwise_test='corrected_repeated_cv' with folds_per_run=k "
                             "(Bouckaert & Frank's corrected t, which replicates best).")
        kind, r, k, shape, design = "cv5x2", 5, 2, (5, 2), "5x2cv"
    elif spec.scheme in ("holdout", "instances", "nested"):    # per-instance outcomes
        kind, r, k, shape, design = "scores", 0, 0, (), f"{n_folds} folds of scores"
    else:
        if not (isinstance(k, int) and not isinstance(k, bool) and k >= 2 and n_folds % k == 0):
            from ..stats._registry import designs_text
            raise ValueError(f"`pairwise_test` {spec.name!r} does not fit {n_folds} folds per "
                             f"data set without `folds_per_run` = k >= 2 dividing them (got "
                             f"{k!r}); it fits {designs_text(spec)} (folds run-major).")
        kind, r, shape = "cv", n_folds // k, (n_folds // k, k)
        design = f"{r}x{k}"
    check_fits_design(spec, kind, r, k, design)
    df, how = _pairwise_df(spec, alpha, r, k)
    from ..stats import BAYES_TESTS
    if spec.name in BAYES_TESTS:
        from ..stats import correlated_bayesian_ttest
        rope = 0.01 if spec.name.endswith("rope1") else 0.0

        def func(e_cheap, e_costly):
            post = correlated_bayesian_ttest(e_cheap - e_costly, rope=rope, rho=1.0 / k)
            return 1.0 - np.asarray(post.p_right, dtype=float)
    else:
        kw = {"test_train_ratio": 1 / 9} if spec.name == "corrected_resampling" else {}

        def func(e_cheap, e_costly):
            d = e_cheap - e_costly                       # > 0: the costlier errs less
            if spec.name == "cv5x2_f":                   # two-sided by construction
                p = spec.func(d, df).pvalue
                return np.where(np.mean(d, axis=(-2, -1)) > 0, p, 1.0)
            return spec.func(d, df, alternative="greater", **kw).pvalue
    func.__name__ = f"{spec.name} ({how})"
    return func, shape


def _pairwise_df(spec, alpha, r, k):
    """The df a registered test runs at in MultiTest: the shipped table's where it has one
    (as :func:`calibsim.compare`), else the textbook df."""
    from ..stats import BAYES_TESTS
    if spec.name in BAYES_TESTS:
        return None, "posterior, no df"
    textbook = spec.default_df(r, k)
    if spec.scheme == "cv5x2":
        return float(textbook), "df 5"
    from ..calibration import lookup_df
    try:
        e = lookup_df(spec.name, alpha=alpha, n_folds=k, n_runs=r)
    except ValueError:
        return float(textbook), f"textbook df {textbook}"
    if e.df == np.inf and spec.name not in ("corrected_repeated_cv", "corrected_resampling"):
        return float(textbook), f"textbook df {textbook}"
    return e.df, f"calibrated df {e.df:.3g}"
