"""Two learners on one data set (:func:`compare`), or every pair of several (:func:`compare_all`)."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ._scoring import (Design, accuracies, bootstrap_p_reject, interval, learner_items,
                       parse_design, parse_learner, run_test, score_table)
from ._scoring import unique_labels as _unique

__all__ = ["compare", "compare_all", "CompareResult", "DesignWarning"]


class DesignWarning(UserWarning):
    """The design, test or α is outside the shipped df table; another df was used."""


@dataclass(frozen=True)
class CompareResult:
    """Outcome of :func:`compare`.

    Attributes
    ----------
    learner_a, learner_b : str
        Labels of the two learners.
    accuracy_a, accuracy_b : float
        Mean accuracy over all folds (or subsamples), in [0, 1].
    difference : float
        ``accuracy_a - accuracy_b`` (the mean per-fold difference m).
    estimate : float
        The difference the test's statistic and ``confidence_interval`` are about:
        ``difference`` for every test but the 5x2cv t, whose numerator is the first
        fold's difference of the first run (Dietterich 1998, §3.5).
    confidence_interval : tuple of float
        Interval for ``estimate`` at level 1 - α from the test's own standard
        error and df; (nan, nan) for the averaged-T tests, which have none.
    effect_size : float
        m / sd of the per-fold differences (a paired d); it ignores the dependence
        between folds, so it describes the size of the gap, not its significance.
    statistic, pvalue : float
        The test's statistic and two-sided p-value at ``df``.
    reject : bool
        ``pvalue <= alpha`` (Weka's rule).
    better : str or None
        The learner with the higher mean accuracy when the test rejects, else None.
    test : str
        Registry name of the test (:data:`calibsim.stats.TESTS`).
    alpha : float
    df : float
        The df used in the statistic and the reference t; ``inf`` for the normal
        limit (the corrected tests only, see ``df_statement``).
    df_interval : tuple of float
        95% interval of a calibrated df from the table; (nan, nan) otherwise.
    df_source : str
        Where ``df`` came from.
    df_statement : str
        How ``df`` enters the statistic, in words (e.g. "t = m / sqrt((1/(df+1) +
        n2/n1) s^2): the calibrated df + 1 stands where r·k stands").
    design : str
        E.g. ``"10x10"`` (r runs of k-fold cv), ``"5x2cv"``, ``"subsampling:100"``.
    scores : pandas.DataFrame
        One row per fold: ``run, fold, accuracy_a, accuracy_b, difference``.
    replicability : float
        Estimated probability that a repeat of the whole comparison with new random
        partitions reaches the same verdict (reject or not); nan if not estimated.
    p_reject : float
        Estimated probability that a repeat rejects.
    replicability_method : str
        How both were estimated (see :func:`compare`), or why they were not.
    posterior : calibsim.stats.BayesianResult or None
        With ``method="bayes"``: the correlated Bayesian t test's posterior
        probabilities (A worse / practically equivalent / A better beyond the ROPE)
        and decision; ``reject`` and ``better`` then follow its decision, while
        ``statistic`` and ``pvalue`` stay those of the frequentist test, for
        reference. None otherwise.
    test_masks : numpy.ndarray of bool
        The partitions: ``test_masks[run, fold]`` (r x k cv, 5x2cv) or
        ``test_masks[run]`` (subsampling) marks the test instances of that split,
        shape ``(r, k, n_instances)`` or ``(n, n_instances)``. :meth:`splits` gives
        them as index arrays.
    """

    learner_a: str
    learner_b: str
    accuracy_a: float
    accuracy_b: float
    difference: float
    confidence_interval: tuple
    effect_size: float
    statistic: float
    pvalue: float
    reject: bool
    better: str | None
    test: str
    alpha: float
    df: float
    df_interval: tuple
    df_source: str
    design: str
    scores: pd.DataFrame = field(repr=False)
    replicability: float = float("nan")
    p_reject: float = float("nan")
    replicability_method: str = ""
    estimate: float = float("nan")
    df_statement: str = ""
    test_masks: np.ndarray = field(default=None, repr=False)
    posterior: object = field(default=None, repr=False)

    def splits(self):
        """The partitions as ``(run, fold, train_index, test_index)`` tuples.

        ``fold`` is 0 for subsampling. Fitting the learners on ``train_index`` and
        scoring on ``test_index`` reproduces the row of :attr:`scores` with the
        same run and fold.
        """
        masks = self.test_masks.reshape(-1, self.test_masks.shape[-1])
        table = self.scores
        return [(int(r), int(f), np.flatnonzero(~m), np.flatnonzero(m))
                for r, f, m in zip(table["run"], table["fold"], masks)]

    def __iter__(self):  # ``statistic, pvalue = result`` as with scipy's results
        return iter((self.statistic, self.pvalue))

    def __str__(self) -> str:
        lo, hi = self.confidence_interval
        verdict = (f"{self.better} is better" if self.reject
                   else "no significant difference")
        dlo, dhi = self.df_interval
        df_ci = ("" if np.isnan(dlo) or dlo == dhi else
                 f", 95% interval {dlo:.2f} to {'∞' if dhi == np.inf else f'{dhi:.2f}'}")
        est = ("" if self.estimate == self.difference or np.isnan(self.estimate) else
               f"; the test's estimate (first fold's difference) {100 * self.estimate:+.2f}")
        lines = [
            f"{self.learner_a} vs {self.learner_b}, {self.design}, test {self.test} "
            f"at alpha = {self.alpha:g}",
            f"  accuracy {self.learner_a}: {100 * self.accuracy_a:.2f}%   "
            f"{self.learner_b}: {100 * self.accuracy_b:.2f}%",
            f"  difference {100 * self.difference:+.2f} points{est}, "
            f"{100 * (1 - self.alpha):g}% CI [{100 * lo:+.2f}, {100 * hi:+.2f}], "
            f"effect size {self.effect_size:.2f}",
            f"  statistic {self.statistic:.3f}, p = {self.pvalue:.4g}, "
            f"df = {_df_text(self.df)}{df_ci} ({self.df_source})",
        ]
        if self.df_statement:
            lines.append(f"  {self.df_statement}")
        if self.posterior is not None:
            b = self.posterior
            words = {"right": f"{self.learner_a} is better", "left": f"{self.learner_b} is better",
                     "rope": "practically equivalent", "none": "no decision"}
            lines.append(
                f"  posterior ({b.method}, rho = {b.rho:.3g}, ROPE ±{100 * b.rope:g} points): "
                f"P({self.learner_a} better) = {b.p_right:.4f}, P(equivalent) = "
                f"{b.p_rope:.4f}, P({self.learner_b} better) = {b.p_left:.4f}")
            verdict = f"{words[str(b.decision)]} (posterior probability >= {b.threshold:g})"
        lines.append(f"  verdict: {verdict}")
        if np.isfinite(self.replicability):
            of = " of the t test's verdict" if self.posterior is not None else ""
            lines.append(f"  replicability{of} {self.replicability:.2f} (P(reject) = "
                         f"{self.p_reject:.2f}; {self.replicability_method})")
        elif self.replicability_method:
            lines.append(f"  replicability: {self.replicability_method}")
        return "\n".join(lines)


def _df_text(df) -> str:
    """A df for people: "∞ (normal limit)" rather than "inf"."""
    return "∞ (normal limit)" if df == np.inf else f"{df:.2f}"


def df_statement(spec, design: Design, df) -> str:
    """How ``df`` enters the test's statistic, in one sentence (Bouckaert 2003, §3)."""
    lim = " (df = ∞: the normal limit)" if df == np.inf else ""
    if spec.name in ("corrected_repeated_cv", "corrected_resampling"):
        n = "r·k" if design.kind == "cv" else "n"
        return (f"t = m / sqrt((1/(df+1) + n2/n1) s^2) against t(df): df + 1 stands where "
                f"{n} stands in Nadeau & Bengio's correction{lim}")
    if spec.name in ("cv5x2_t", "cv5x2_f"):
        return "the 5x2cv statistic against its reference with df in place of 5"
    return (f"t = m·sqrt(df+1) / s against t(df): df + 1 stands where the number of "
            f"differences stands{lim}")


def _resolve_df(test, df, alpha, design: Design):
    from ..calibration._dftable import lookup_df
    from ..stats import get_test
    spec = get_test(test)
    textbook = spec.default_df(design.n_runs, design.n_folds)
    nan2 = (float("nan"), float("nan"))
    if isinstance(df, str) and df == "textbook":
        return float(textbook), nan2, "textbook df of the design"
    if isinstance(df, str) and df == "calibrated" and spec.name in ("cv5x2_t", "cv5x2_f") \
            and design.kind == "cv5x2":
        return float(textbook), nan2, "the test's own df (Dietterich 1998; Alpaydin 1999)"
    if isinstance(df, str) and df == "calibrated":
        try:
            e = lookup_df(test, alpha=alpha, n_folds=design.n_folds, n_runs=design.n_runs)
            if e.df == np.inf and spec.name not in ("corrected_repeated_cv",
                                                      "corrected_resampling"):
                raise ValueError("the table's df is infinite")
        except ValueError as exc:
            warnings.warn(f"no calibrated df for {test!r} with design {design.name!r} at "
                          f"alpha = {alpha:g} ({str(exc).rstrip('.')}); using the textbook "
                          f"df {textbook}.", DesignWarning, stacklevel=3)
            return float(textbook), nan2, "textbook df (design not in the df table)"
        return e.df, (e.ci_low, e.ci_high), (
            f"calibrated on {e.n_datasets} null data sets, naive Bayes vs C4.5, shipped table")
    if isinstance(df, (int, float, np.integer, np.floating)) and not isinstance(df, bool) \
            and np.isfinite(df) and df > 0:
        return float(df), nan2, "given"
    raise ValueError(f"`df` must be 'calibrated', 'textbook' or a positive number; got {df!r}.")


def compare(estimator_a, estimator_b, X, y=None, *, design="10x10", test=None, alpha=0.05,
            df="calibrated", replicability="bootstrap", n_repeats: int = 10,
            n_boot: int = 1000, n_jobs=None, scheduler=None, random_state=0,
            progress: bool = False, method: str = "frequentist", rope: float = 0.0,
            threshold: float = 0.95) -> CompareResult:
    """Compare two learners on one data set with a (calibrated) test.

    Parameters
    ----------
    estimator_a, estimator_b : estimator or str
        scikit-learn-compatible classifiers (cloned for every split), a built-in
        learner name (``"naive_bayes"``, ``"c45"``, ``"ib1"``, ``"tan"``,
        ``"voted_perceptron"``: the fast path on nominal codes) or an import path
        with literal parameters, ``"sklearn.svm.SVC(C=10.0)"``.
    X : array_like of shape (n_instances, n_attributes) or calibsim.datasets.Dataset
        Attributes (a ``Dataset`` carries which ones are nominal, and its class).
    y : array_like of shape (n_instances,), optional
        Class labels (required unless ``X`` is a ``Dataset``).
    design : str, default "10x10"
        ``"RxK"``: r runs of stratified k-fold cv; ``"5x2cv"``; ``"subsampling:N"``:
        N random stratified 90/10 splits (``"subsampling:N@0.2"`` for 80/20).
    test : str, optional
        A test of :data:`calibsim.stats.TESTS` that fits the design; default the
        corrected repeated cv t (r x k cv; Bouckaert & Frank 2004), the corrected
        resampled t (subsampling; Nadeau & Bengio 2003) or the 5x2cv t.
    alpha : float, default 0.05
        Significance level in (0, 1).
    df : "calibrated", "textbook" or float, default "calibrated"
        "calibrated": the continuous df of the shipped table for (test, α, k, r);
        if the table has no entry a :class:`DesignWarning` says so and the textbook
        df is used. Where the table holds ``inf`` (the corrected repeated cv t on
        small designs: the correction alone already makes it conservative) the
        statistic is taken at its normal limit, ``m / sqrt(n2/n1 · s^2)`` against
        the standard normal. The 5x2cv tests use their own df (5). How the df enters
        the statistic is stated in ``result.df_statement``.
    replicability : {"bootstrap", "rerun", None}, default "bootstrap"
        How to estimate the probability that the verdict replicates. "bootstrap":
        from the score matrix alone, resampling the runs (each run is an
        independent random partition of the same data) ``n_boot`` times;
        cheap, but it conditions on the runs seen; with one run (``"1x10"``) it
        cannot apply, and the result says so instead of estimating. "rerun": ``n_repeats`` - 1
        further repeats of the whole design with new partitions (Bouckaert &
        Frank's R); costs as many more fits. None: not estimated.
    n_repeats : int, default 10
        Repeats in total for ``replicability="rerun"`` (>= 2).
    n_boot : int, default 1000
        Resamples for ``replicability="bootstrap"``.
    n_jobs : int, optional
        Dask workers on this machine (default: fit here, in this process).
    scheduler : str, optional
        Address of a running Dask scheduler to use instead.
    random_state : int or numpy.random.SeedSequence, default 0
        Seed of the partitions, meaning exactly what it means in
        :mod:`calibsim.schemes`: the splits are those of
        ``RepeatedStratifiedKFold(n_folds=k, n_runs=r, random_state=random_state)``
        (``RandomSubsampling`` for subsampling), read back from
        ``result.test_masks`` / ``result.splits()``; further repeats of
        ``replicability="rerun"`` and the bootstrap use child seeds. The result is
        the same for any ``n_jobs``.
    progress : bool, default False
        Show a progress bar of the fitted runs.
    method : {"frequentist", "bayes"}, default "frequentist"
        "bayes": also run the correlated Bayesian t test (Corani & Benavoli 2015) on
        the same per-fold differences, with rho = n_test/n_total (1/k for k-fold cv,
        the test share for subsampling); the verdict is its decision.
    rope : float, default 0
        Half-width of the region of practical equivalence for ``method="bayes"``,
        in accuracy units (0.01 = one percentage point).
    threshold : float, default 0.95
        Posterior probability needed for a Bayesian decision, in (0.5, 1).

    Returns
    -------
    CompareResult

    Raises
    ------
    ValueError
        For a malformed design, an unknown test, a test that does not fit the
        design, α outside (0, 1), an invalid df, or X and y that do not match.

    Warns
    -----
    DesignWarning
        When the design, test or α is not in the shipped df table.

    Examples
    --------
    >>> from calibsim.datasets import load_uci
    >>> res = compare("naive_bayes", "c45", load_uci("vote"), design="10x10")
    >>> res.test, res.reject, res.better
    ('corrected_repeated_cv', True, 'c45')
    >>> round(100 * res.difference, 2), round(res.df, 1), res.scores.shape
    (-6.54, 161.9, (100, 5))

    The partitions are those of calibsim's splitter with the same ``random_state``:

    >>> from calibsim.schemes import RepeatedStratifiedKFold
    >>> cv = RepeatedStratifiedKFold(n_folds=10, n_runs=10, random_state=0)
    >>> bool((cv.test_masks(load_uci("vote").y) == res.test_masks).all())
    True
    """
    setup = _setup(design, test, alpha, df, replicability, n_repeats)
    if replicability == "bootstrap" and not (isinstance(n_boot, int) and not isinstance(
            n_boot, bool) and 1 <= n_boot <= 10**6):
        raise ValueError(f"`n_boot` must be an integer in [1, 10**6]; got {n_boot!r}.")
    if method not in ("frequentist", "bayes"):
        raise ValueError(f"`method` must be 'frequentist' or 'bayes'; got {method!r}.")
    if method == "bayes":
        from ..stats._bayes import _iv_common
        _iv_common(rope, threshold)
        setup["bayes"] = (rope, threshold)
    learners = [parse_learner(estimator_a, "a"), parse_learner(estimator_b, "b")]
    acc, masks = accuracies(learners, X, y, setup["design"], random_state,
                            n_repeats if replicability == "rerun" else 1,
                            n_jobs=n_jobs, scheduler=scheduler, progress=progress,
                            return_masks=True)
    return _result(acc, _unique([lrn.label for lrn in learners]), setup, replicability,
                   n_boot, random_state, masks)


def _setup(design, test, alpha, df, replicability, n_repeats) -> dict:
    """Validated design, test spec, α and df of a comparison."""
    from .._validation import check_probability
    from ..stats import get_test
    alpha = check_probability("alpha", alpha)
    d = parse_design(design)
    spec = get_test(d.default_test() if test is None else test)   # '' is not the default
    fits = {"cv": ("cv", "kfold"), "subsampling": ("subsampling",), "cv5x2": ("cv5x2", "cv")}
    if spec.scheme not in fits[d.kind] or (spec.scheme == "cv" and d.n_runs < 2
                                           and spec.name != "corrected_repeated_cv"):
        raise ValueError(f"`test` {spec.name!r} does not fit the design {d.name!r} (it needs "
                         f"a {spec.scheme!r} scheme); choose another test or design.")
    if replicability not in ("bootstrap", "rerun", None):
        raise ValueError("`replicability` must be 'bootstrap', 'rerun' or None; got "
                         f"{replicability!r}.")
    if replicability == "rerun" and not (isinstance(n_repeats, int)
                                         and not isinstance(n_repeats, bool)
                                         and 2 <= n_repeats <= 1000):
        raise ValueError(f"`n_repeats` must be an integer in [2, 1000] (each repeat refits the "
                         f"whole design); got {n_repeats!r}.")
    note = ""
    if replicability == "bootstrap" and d.n_runs < 2:
        note = (f"not estimated: the bootstrap resamples runs and the design {d.name!r} has "
                "one (use replicability='rerun' for repeats with new partitions)")
    df_value, df_ci, df_source = _resolve_df(spec.name, df, alpha, d)
    return {"design": d, "spec": spec, "alpha": alpha, "df": df_value, "df_ci": df_ci,
            "df_source": df_source, "replicability_note": note}


def _result(acc, labels, setup, replicability, n_boot, random_state, masks=None
            ) -> CompareResult:
    """The comparison of learners 0 and 1 of ``acc`` (repeats, 2, *shape)."""
    d, spec, alpha, df_value = setup["design"], setup["spec"], setup["alpha"], setup["df"]
    diffs = acc[:, 0] - acc[:, 1]                       # (repeats, *shape)
    res = run_test(spec, diffs[0], df_value, d)
    if replicability == "rerun":
        from ..measures import replicability_R
        n = diffs.shape[0]
        k = int(np.sum(run_test(spec, diffs, df_value, d).pvalue <= alpha))
        rep, p_rej, how = (float(replicability_R(k, n)), k / n,
                           f"{n} repeats with new partitions, R(k, n) of Bouckaert & Frank 2004")
    elif replicability == "bootstrap" and setup.get("replicability_note"):
        rep = p_rej = float("nan")
        how = setup["replicability_note"]
    elif replicability == "bootstrap":
        p_rej = bootstrap_p_reject(spec, diffs[0], df_value, d, alpha, n_boot, random_state)
        rep, how = p_rej ** 2 + (1 - p_rej) ** 2, f"{n_boot} bootstrap resamples of the runs"
    else:
        rep = p_rej = float("nan")
        how = ""
    m = float(diffs[0].mean())
    sd = float(diffs[0].std(ddof=1)) if diffs[0].size > 1 else float("nan")
    reject = bool(res.pvalue <= alpha)
    posterior = None
    if setup.get("bayes"):
        from ..stats import correlated_bayesian_ttest
        rope, threshold = setup["bayes"]
        x = diffs[0].reshape(1, -1) if d.kind == "subsampling" else diffs[0]
        rho = d.test_fraction if d.kind == "subsampling" else 1.0 / d.n_folds
        posterior = correlated_bayesian_ttest(x, rope=rope, rho=rho, threshold=threshold)
        reject = posterior.decision in ("left", "right")
    estimate = float(diffs[0].reshape(-1)[0]) if spec.name == "cv5x2_t" else m
    mean_a, mean_b = float(acc[0, 0].mean()), float(acc[0, 1].mean())
    return CompareResult(
        learner_a=labels[0], learner_b=labels[1], accuracy_a=mean_a, accuracy_b=mean_b,
        difference=m, confidence_interval=interval(res, alpha),
        effect_size=m / sd if sd > 0 else (0.0 if m == 0 else float(np.sign(m) * np.inf)),
        statistic=float(res.statistic), pvalue=float(res.pvalue), reject=reject,
        better=(labels[0] if mean_a > mean_b else labels[1]) if reject else None,
        test=spec.name, alpha=alpha, df=df_value, df_interval=setup["df_ci"],
        df_source=setup["df_source"], design=d.name, scores=score_table(acc[0], d),
        replicability=float(rep), p_reject=float(p_rej), replicability_method=how,
        estimate=estimate, df_statement=df_statement(spec, d, df_value), test_masks=masks,
        posterior=posterior)


def compare_all(estimators, X, y=None, *, correction="holm", **kwargs) -> pd.DataFrame:
    """Every pair of several learners on one data set, p-values adjusted for multiplicity.

    Parameters
    ----------
    estimators : sequence or dict of estimator or str
        Two or more learners (as for :func:`compare`); a dict gives their labels.
    X, y
        As for :func:`compare`.
    correction : str, default "holm"
        A method of :func:`statsmodels.stats.multitest.multipletests` (e.g. "holm",
        "bonferroni", "fdr_bh"), applied to the pairs' p-values at ``alpha``.
    **kwargs
        ``design, test, alpha, df, random_state, n_jobs, scheduler, progress`` as for
        :func:`compare`. Every learner is fitted once on the same partitions.

    Returns
    -------
    pandas.DataFrame
        One row per pair: ``learner_a, learner_b, accuracy_a, accuracy_b, difference,
        ci_low, ci_high`` (the test's interval for the difference at level 1 - α,
        not adjusted for multiplicity), ``statistic, pvalue, pvalue_adjusted,
        reject`` (after the correction), ``better``, ``df``, ``test``.

    Raises
    ------
    ValueError
        With fewer than two learners or an unknown correction.
    """
    from statsmodels.stats.multitest import multipletests
    items = learner_items(estimators)
    learners = [parse_learner(e, "x") for _, e in items]
    names = [k if k is not None else lrn.label for (k, _), lrn in zip(items, learners)]
    names = _unique(names)
    opts = {"design": "10x10", "test": None, "alpha": 0.05, "df": "calibrated",
            "random_state": 0, "n_jobs": None, "scheduler": None, "progress": False}
    unknown = set(kwargs) - set(opts)
    if unknown:
        raise TypeError(f"compare_all() got unexpected keyword arguments {sorted(unknown)}.")
    opts.update(kwargs)
    setup = _setup(opts["design"], opts["test"], opts["alpha"], opts["df"], None, 10)
    acc = accuracies(learners, X, y, setup["design"], opts["random_state"], 1,
                      n_jobs=opts["n_jobs"], scheduler=opts["scheduler"],
                      progress=opts["progress"])
    rows = []
    for i in range(len(items)):
        for j in range(i + 1, len(items)):
            r = _result(acc[:, [i, j]], (names[i], names[j]), setup, None, 0, 0)
            rows.append({"learner_a": names[i], "learner_b": names[j],
                         "accuracy_a": r.accuracy_a, "accuracy_b": r.accuracy_b,
                         "difference": r.difference, "ci_low": r.confidence_interval[0],
                         "ci_high": r.confidence_interval[1], "statistic": r.statistic,
                         "pvalue": r.pvalue, "df": r.df, "test": r.test})
    table = pd.DataFrame(rows)
    try:
        reject, adjusted, _, _ = multipletests(table["pvalue"], alpha=setup["alpha"],
                                               method=correction)
    except ValueError as exc:
        raise ValueError(f"`correction` must be a method of statsmodels' multipletests; got "
                         f"{correction!r} ({exc}).") from None
    table.insert(9, "pvalue_adjusted", adjusted)
    table.insert(10, "reject", reject)
    table.insert(11, "better", [(a if d > 0 else b) if rej else None for a, b, d, rej in zip(
        table["learner_a"], table["learner_b"], table["difference"], reject)])
    return table

