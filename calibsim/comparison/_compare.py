"""Two learners on one data set (:func:`compare`), or every pair of several (:func:`compare_all`)."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ._scoring import (Design, accuracies, bootstrap_p_reject, interval, parse_design,
                       parse_learner, run_test, score_table)
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
    confidence_interval : tuple of float
        Interval for the difference at level 1 - α from the test's own standard
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
        The df used in the statistic and the reference t.
    df_interval : tuple of float
        95% interval of a calibrated df from the table; (nan, nan) otherwise.
    df_source : str
        Where ``df`` came from.
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
        How both were estimated (see :func:`compare`).
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

    def __iter__(self):  # ``statistic, pvalue = result`` as with scipy's results
        return iter((self.statistic, self.pvalue))

    def __str__(self) -> str:
        lo, hi = self.confidence_interval
        verdict = (f"{self.better} is better" if self.reject
                   else "no significant difference")
        dlo, dhi = self.df_interval
        df_ci = f" [{dlo:.2f}, {dhi:.2f}]" if np.isfinite(dlo) else ""
        lines = [
            f"{self.learner_a} vs {self.learner_b}, {self.design}, test {self.test} "
            f"at alpha = {self.alpha:g}",
            f"  accuracy {self.learner_a}: {100 * self.accuracy_a:.2f}%   "
            f"{self.learner_b}: {100 * self.accuracy_b:.2f}%",
            f"  difference {100 * self.difference:+.2f} points, {100 * (1 - self.alpha):g}% CI "
            f"[{100 * lo:+.2f}, {100 * hi:+.2f}], effect size {self.effect_size:.2f}",
            f"  statistic {self.statistic:.3f}, p = {self.pvalue:.4g}, df = {self.df:.2f}{df_ci}"
            f" ({self.df_source})",
            f"  verdict: {verdict}",
        ]
        if np.isfinite(self.replicability):
            lines.append(f"  replicability {self.replicability:.2f} (P(reject) = "
                         f"{self.p_reject:.2f}; {self.replicability_method})")
        return "\n".join(lines)


def _resolve_df(test, df, alpha, design: Design):
    from ..calibration._dftable import lookup_df
    from ..stats import get_test
    spec = get_test(test)
    textbook = spec.default_df(design.n_runs, design.n_folds)
    nan2 = (float("nan"), float("nan"))
    if isinstance(df, str) and df == "textbook":
        return float(textbook), nan2, "textbook df of the design"
    if isinstance(df, str) and df == "calibrated":
        try:
            e = lookup_df(test, alpha=alpha, n_folds=design.n_folds, n_runs=design.n_runs)
        except ValueError as exc:
            warnings.warn(f"no calibrated df for {test!r} with design {design.name!r} at "
                          f"alpha = {alpha:g} ({exc}); using the textbook df {textbook}. "
                          "Calibrate this design with `calibsim calibrate`.",
                          DesignWarning, stacklevel=3)
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
            progress: bool = False) -> CompareResult:
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
        df is used.
    replicability : {"bootstrap", "rerun", None}, default "bootstrap"
        How to estimate the probability that the verdict replicates. "bootstrap":
        from the score matrix alone, resampling the runs (each run is an
        independent random partition of the same data) ``n_boot`` times;
        cheap, but it conditions on the runs seen. "rerun": ``n_repeats`` - 1
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
    random_state : int, default 0
        Seed of the partitions (and of the bootstrap): one ``SeedSequence``, so the
        result is the same for any ``n_jobs``.
    progress : bool, default False
        Show a progress bar of the fitted runs.

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
    (-6.33, 161.9, (100, 5))
    """
    setup = _setup(design, test, alpha, df, replicability, n_repeats)
    learners = [parse_learner(estimator_a, "a"), parse_learner(estimator_b, "b")]
    acc = accuracies(learners, X, y, setup["design"], random_state,
                      n_repeats if replicability == "rerun" else 1,
                      n_jobs=n_jobs, scheduler=scheduler, progress=progress)
    return _result(acc, _unique([lrn.label for lrn in learners]), setup, replicability, n_boot, random_state)


def _setup(design, test, alpha, df, replicability, n_repeats) -> dict:
    """Validated design, test spec, α and df of a comparison."""
    from .._validation import check_probability
    from ..stats import get_test
    alpha = check_probability("alpha", alpha)
    d = parse_design(design)
    spec = get_test(test or d.default_test())
    fits = {"cv": ("cv", "kfold"), "subsampling": ("subsampling",), "cv5x2": ("cv5x2", "cv")}
    if spec.scheme not in fits[d.kind] or (spec.scheme == "cv" and d.n_runs < 2
                                           and spec.name != "corrected_repeated_cv"):
        raise ValueError(f"`test` {spec.name!r} does not fit the design {d.name!r} (it needs "
                         f"a {spec.scheme!r} scheme); choose another test or design.")
    if replicability not in ("bootstrap", "rerun", None):
        raise ValueError("`replicability` must be 'bootstrap', 'rerun' or None; got "
                         f"{replicability!r}.")
    if replicability == "rerun" and not (isinstance(n_repeats, int) and n_repeats >= 2):
        raise ValueError(f"`n_repeats` must be an integer >= 2; got {n_repeats!r}.")
    if replicability == "bootstrap" and d.n_runs < 2:
        raise ValueError(f"`replicability='bootstrap'` resamples runs and needs >= 2; the "
                         f"design {d.name!r} has {d.n_runs} (use 'rerun').")
    df_value, df_ci, df_source = _resolve_df(spec.name, df, alpha, d)
    return {"design": d, "spec": spec, "alpha": alpha, "df": df_value, "df_ci": df_ci,
            "df_source": df_source}


def _result(acc, labels, setup, replicability, n_boot, random_state) -> CompareResult:
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
    elif replicability == "bootstrap":
        p_rej = bootstrap_p_reject(spec, diffs[0], df_value, d, alpha, n_boot, random_state)
        rep, how = p_rej ** 2 + (1 - p_rej) ** 2, f"{n_boot} bootstrap resamples of the runs"
    else:
        rep = p_rej = float("nan")
        how = ""
    m = float(diffs[0].mean())
    sd = float(diffs[0].std(ddof=1)) if diffs[0].size > 1 else float("nan")
    reject = bool(res.pvalue <= alpha)
    mean_a, mean_b = float(acc[0, 0].mean()), float(acc[0, 1].mean())
    return CompareResult(
        learner_a=labels[0], learner_b=labels[1], accuracy_a=mean_a, accuracy_b=mean_b,
        difference=m, confidence_interval=interval(res, alpha),
        effect_size=m / sd if sd > 0 else (0.0 if m == 0 else float(np.sign(m) * np.inf)),
        statistic=float(res.statistic), pvalue=float(res.pvalue), reject=reject,
        better=(labels[0] if mean_a > mean_b else labels[1]) if reject else None,
        test=spec.name, alpha=alpha, df=df_value, df_interval=setup["df_ci"],
        df_source=setup["df_source"], design=d.name, scores=score_table(acc[0], d),
        replicability=float(rep), p_reject=float(p_rej), replicability_method=how)


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
        statistic, pvalue, pvalue_adjusted, reject`` (after the correction),
        ``better``, ``df``, ``test``.

    Raises
    ------
    ValueError
        With fewer than two learners or an unknown correction.
    """
    from statsmodels.stats.multitest import multipletests
    items = list(estimators.items()) if isinstance(estimators, dict) else [
        (None, e) for e in estimators]
    if len(items) < 2:
        raise ValueError(f"`estimators` must hold at least two learners; got {len(items)}.")
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
                         "difference": r.difference, "statistic": r.statistic,
                         "pvalue": r.pvalue, "df": r.df, "test": r.test})
    table = pd.DataFrame(rows)
    try:
        reject, adjusted, _, _ = multipletests(table["pvalue"], alpha=setup["alpha"],
                                               method=correction)
    except ValueError as exc:
        raise ValueError(f"`correction` must be a method of statsmodels' multipletests; got "
                         f"{correction!r} ({exc}).") from None
    table.insert(7, "pvalue_adjusted", adjusted)
    table.insert(8, "reject", reject)
    table.insert(9, "better", [(a if d > 0 else b) if rej else None for a, b, d, rej in zip(
        table["learner_a"], table["learner_b"], table["difference"], reject)])
    return table

