"""Two learners on one data set (:func:`compare`), or every pair of several (:func:`compare_all`)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from .._docstrings import fill_doc
from ..reports import Reportable
from ..engine.scoring import BAYES_TESTS as _BAYES
from ..engine.scoring import INSTANCE_SCHEMES as _INSTANCE_SCHEMES
from ..engine.scoring import NORMAL_SCHEMES as _NORMAL_SCHEMES
from ..engine.scoring import (Design, DesignWarning, accuracies, bootstrap_p_reject,
                              design_from_cv, holdout_counts, interval, learner_items,
                              parse_design, parse_learner, prepare_data, run_test, score_table)
from ..engine.scoring import resolve_df as _resolve_df
from ..engine.scoring import unique_labels as _unique

__all__ = ["compare", "compare_all", "CompareResult", "DesignWarning",
           "detectable_difference"]


@dataclass(frozen=True, eq=False)
class CompareResult(Reportable):
    """Outcome of :func:`compare`.

    Attributes
    ----------
    learner_a, learner_b : str
        Labels of the two learners.
    accuracy_a, accuracy_b : float
        Mean accuracy over all folds (or subsamples), in [0, 1]; with another
        ``scoring``, the mean of its greater-is-better fold scores (a loss negated, as
        scikit-learn's scorers: ``score_a`` and ``score_b`` name them so).
    difference : float
        ``accuracy_a - accuracy_b`` (the mean per-fold difference m), in the score's
        units.
    estimate : float
        The difference the test's statistic and ``confidence_interval`` are about:
        ``difference`` for every test but the 5x2cv t, whose numerator is the first
        fold's difference of the first run (Dietterich 1998, §3.5).
    confidence_interval : tuple of float
        Interval for ``estimate`` at level 1 - α from the test's own standard
        error and df; (nan, nan) for the tests that have none (the averaged-T
        tests, the 5x2cv F test, which pools squared differences, McNemar's and
        the proportions test, the Bayesian tests: see ``posterior``), and
        ``str(result)`` says so.
    effect_size : float
        m / sd of the per-fold differences (a paired d); it ignores the dependence
        between folds, so it describes the size of the gap, not its significance;
        nan with a single split (holdout).
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
        limit (the corrected tests only, see ``df_statement``); nan for the tests
        without df (McNemar's, the proportions test, the Bayesian tests).
    df_interval : tuple of float
        95% interval of a calibrated df from the table; (nan, nan) otherwise.
    df_source : str
        Where ``df`` came from.
    df_statement : str
        How ``df`` enters the statistic, in words (e.g. "t = m / sqrt((1/(df+1) +
        n2/n1) s^2): the calibrated df + 1 stands where r·k stands").
    design : str
        E.g. ``"10x10"`` (r runs of k-fold cv), ``"5x2cv"``, ``"subsampling:100"``,
        ``"subsampling:30@0.2"``, ``"holdout"``; read from the splitter with ``cv=``.
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
    rho_source : str
        With ``method="bayes"``: where the posterior's ρ (``posterior.rho``) came from
        (the shipped ρ table, the 1/k heuristic, or given).
    test_masks : numpy.ndarray of bool
        The partitions: ``test_masks[run, fold]`` (r x k cv, 5x2cv) or
        ``test_masks[run]`` (subsampling) marks the test instances of that split,
        shape ``(r, k, n_instances)`` or ``(n, n_instances)``. :meth:`splits` gives
        them as index arrays. None for :func:`calibsim.compare_scores` (the scores
        were given, not the partitions).
    provenance : dict or None
        What the report needs beyond the numbers: ``data`` (name, instances,
        attributes, classes), ``learners`` (as specified), ``seed``, ``call`` (the
        Python call) and, from the command line, ``command``.
    splitter : str
        The splitter exactly as used, its class and parameters, e.g.
        ``"calibsim.schemes.StratifiedRepeatedCV(n_folds=10, n_runs=10, random_state=0)"``
        or ``"sklearn.model_selection.RepeatedStratifiedKFold(n_repeats=3, n_splits=5,
        random_state=0)"``; for given scores, what the caller said of them.
    scoring : str
        The metric compared (a scorer name of :data:`calibsim.metrics.METRICS`),
        ``"accuracy"`` by default; :attr:`metric` is its description.
    detectable_difference : float
        The smallest true difference in mean accuracy (A ahead or behind), in
        [0, 1] (0.01 = one percentage point), that this design and test would detect
        with 80% power at α: the *shift* estimate of :func:`detectable_difference`
        from the test's own standard error and df. It is what a non-significant
        verdict can speak to: a difference below it could easily have gone unseen, and
        "no significant difference" is not evidence that the learners are equally
        good (that takes the correlated Bayesian t test's ROPE, ``method="bayes"``
        with ``rope``). NaN for
        the tests without a standard error of the difference (the averaged-T tests, the
        5x2cv F test, McNemar's and the proportions test, the Bayesian tests) and with
        a zero standard error.

    Two results are equal (``==``) when every compared field is: numbers (nan equal to
    nan), the ``scores`` table and the test masks (not ``provenance``).

    Notes
    -----
    :meth:`to_frame` gives the result as a one-row DataFrame, :meth:`report` and
    :meth:`save_report` the report in Markdown, LaTeX or HTML (docs/guide/results.md).
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
    rho_source: str = ""
    splitter: str = ""
    provenance: dict = field(default=None, repr=False, compare=False)
    detectable_difference: float = float("nan")
    scoring: str = "accuracy"

    def __eq__(self, other):
        if not isinstance(other, CompareResult):
            return NotImplemented
        from dataclasses import fields
        return all(_same(getattr(self, f.name), getattr(other, f.name))
                   for f in fields(self) if f.compare)

    __hash__ = None

    @property
    def metric(self):
        """The :class:`calibsim.metrics.Metric` of :attr:`scoring`."""
        from ..metrics import get_metric
        return get_metric(self.scoring)

    @property
    def score_a(self) -> float:
        """Mean greater-is-better score of learner A (:attr:`accuracy_a`, by name)."""
        return self.accuracy_a

    @property
    def score_b(self) -> float:
        """Mean greater-is-better score of learner B (:attr:`accuracy_b`, by name)."""
        return self.accuracy_b

    @property
    def magnitude(self) -> str:
        """The effect size in words: "negligible", "small", "medium" or "large" (``|d|``
        below 0.2, 0.5, 0.8 or above: Cohen 1988)."""
        from ..stats import effect_size_magnitude
        return effect_size_magnitude(self.effect_size)

    def to_frame(self) -> pd.DataFrame:
        """The comparison as one row: the columns of :func:`compare_all`'s table (without
        the adjusted p-value) and ``effect_size, magnitude``; with ``method="bayes"`` also
        ``p_a_better, p_rope, p_b_better``. Accuracies and differences in [0, 1]."""
        row = {"learner_a": self.learner_a, "learner_b": self.learner_b,
               "accuracy_a": self.accuracy_a, "accuracy_b": self.accuracy_b,
               "difference": self.difference, "ci_low": self.confidence_interval[0],
               "ci_high": self.confidence_interval[1], "statistic": self.statistic,
               "pvalue": self.pvalue, "reject": self.reject, "better": self.better,
               "df": self.df, "test": self.test, "alpha": self.alpha,
               "effect_size": self.effect_size, "magnitude": self.magnitude}
        if self.scoring != "accuracy":
            row["scoring"] = self.scoring
        if self.posterior is not None:
            row.update(p_a_better=float(self.posterior.p_right),
                       p_rope=float(self.posterior.p_rope),
                       p_b_better=float(self.posterior.p_left))
        return pd.DataFrame([row])

    def _report(self):
        from ._report import compare_report
        return compare_report(self)

    def splits(self):
        """The partitions as ``(run, fold, train_index, test_index)`` tuples.

        ``fold`` is 0 for subsampling and holdout. Fitting the learners on
        ``train_index`` and scoring on ``test_index`` reproduces the row of
        :attr:`scores` with the same run and fold. With ``cv=`` a scikit-learn
        splitter, these are its splits, in its order (indices in increasing order).

        Raises
        ------
        ValueError
            For a result of :func:`calibsim.compare_scores` (no partitions known).
        """
        if self.test_masks is None:
            raise ValueError("this result holds no partitions: its scores were given "
                             f"({self.splitter or 'compare_scores'}).")
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
        df_ci = ("" if np.isnan(dlo) else
                 f", 95% interval {_df_bound(dlo)} to {_df_bound(dhi)}"
                 + (" (Type I error below alpha at every df)" if dlo == np.inf else ""))
        metric = self.metric
        acc = metric.name == "accuracy"
        value = ((lambda v: f"{100 * v:+.2f}") if acc else
                 (lambda v: f"{metric.scale * metric.display(v):+.4g}"))
        est = ("" if self.estimate == self.difference or np.isnan(self.estimate) else
               f"; the test's estimate ({_ESTIMATE_WORDS.get(self.test, '')}) "
               f"{value(self.estimate)}")
        if np.isnan(lo):
            ci = f"no {100 * (1 - self.alpha):g}% CI ({_NO_INTERVAL.get(self.test, 'the test has none')})"
        else:
            lo, hi = sorted((lo, hi), key=lambda v: metric.display(v))
            ci = f"{100 * (1 - self.alpha):g}% CI [{value(lo)}, {value(hi)}]"
        effect = ("" if np.isnan(self.effect_size)       # a loss's: of the losses' differences
                  else f", effect size {metric.sign * self.effect_size:.2f}")
        lines = [
            f"{self.learner_a} vs {self.learner_b}, {self.design}, test {self.test} "
            f"at alpha = {self.alpha:g}",
            *([f"  splits: {self.splitter}"] if self.splitter else []),
            *([f"  accuracy {self.learner_a}: {100 * self.accuracy_a:.2f}%   "
               f"{self.learner_b}: {100 * self.accuracy_b:.2f}%",
               f"  difference {100 * self.difference:+.2f} points{est}, {ci}{effect}"] if acc
              else [f"  {metric.title} {self.learner_a}: {metric.value_text(self.accuracy_a)}"
                    f"   {self.learner_b}: {metric.value_text(self.accuracy_b)} "
                    f"({metric.direction_text()}; scoring={metric.name!r})",
                    f"  difference of {metric.title} (A - B) "
                    f"{metric.difference_text(self.difference, 4)}{est}, {ci}{effect}"]),
            f"  statistic {metric.sign * self.statistic:.3f}, p = {self.pvalue:.4g}, "
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
            if self.rho_source:
                lines.append(f"  rho: {self.rho_source}")
            verdict = (f"no decision (no posterior probability reached {b.threshold:g})"
                       if str(b.decision) == "none" else
                       f"{words[str(b.decision)]} (posterior probability >= {b.threshold:g})")
        lines.append(f"  verdict: {verdict}")
        if not self.reject and self.posterior is None:
            lines += [f"  {line}" for line in _detectable_lines(self)]
        if np.isfinite(self.replicability):
            of = (" of the t test's verdict" if self.posterior is not None
                  and self.test not in _BAYES else "")
            lines.append(f"  replicability{of} {self.replicability:.2f} (P(reject) = "
                         f"{self.p_reject:.2f}; {self.replicability_method})")
        elif self.replicability_method:
            lines.append(f"  replicability: {self.replicability_method}")
        return "\n".join(lines)


def _df_text(df) -> str:
    """A df for people: "∞ (normal limit)" rather than "inf", "none" for a test without."""
    if np.isnan(df):
        return "none"
    return "∞ (normal limit)" if df == np.inf else f"{df:.2f}"


def _df_bound(v) -> str:
    return "∞" if v == np.inf else f"{v:.2f}"


#: The power at which :attr:`CompareResult.detectable_difference` is stated.
DETECTABLE_POWER = 0.8


@fill_doc
def detectable_difference(stderr, df, alpha=0.05, power=DETECTABLE_POWER) -> float:
    """Smallest true difference a two-sided t test detects with probability ``power``.

    The *shift* estimate of the detectable difference: every per-fold difference
    A − B moves by the same δ (A gains δ on every split), so the numerator of the
    statistic moves by δ while its variance estimate, and hence its standard error,
    stays as it is. With the test's standard error σ and df ν the statistic under
    that shift is noncentral t, T ~ t'(ν, δ/σ) (the normal N(δ/σ, 1) when ν = ∞), and
    the test rejects when abs(T) > t_{1−α/2}(ν). The result is the δ > 0 at which

        P(abs(T) > t_{1−α/2}(ν)) = power,

    solved with :func:`scipy.optimize.brentq` on the noncentral t of
    :data:`scipy.stats.nct`. It is a sensitivity analysis of the design, not the
    "observed power" of the result (which is a function of the p-value and says
    nothing new): it asks which differences the design could have seen.

    Assumptions, all of them those the test already makes: (1) the shift model above
    (a difference adds to every split alike; the spread and the correlation of the
    per-fold differences are those observed); (2) ``df`` is the effective df of the
    variance estimate: for the corrected tests at a calibrated df this is exactly
    what calibration asserts (Bouckaert 2003: the statistic behaves as t(df) on null
    data, the df entering both the correction and the reference), for the 5x2cv t
    and the textbook tests it is the test's own model; (3) ``stderr`` is the
    observed standard error, used as the true one (a plug-in: δ shares its
    uncertainty, which shrinks as the design grows).

    Parameters
    ----------
    stderr : float
        The test's standard error of the difference, ≥ 0, in accuracy units (with
        its variance correction, e.g. Nadeau & Bengio's ``sqrt((1/(df+1) + n2/n1)
        s²)`` for the corrected repeated cv t).
    df : float
        The df of its reference t distribution, > 0; ``inf`` for the normal limit.
    alpha : float, default 0.05
        Significance level in (0, 1).
    power : float, default 0.8
        Probability of rejecting, in (α, 1).

    Returns
    -------
    float
        The difference δ in the units of ``stderr`` (accuracy in [0, 1]); 0 when
        ``stderr`` is 0, NaN when it is NaN (a test without a standard error).

    Raises
    ------
    ValueError
        If ``stderr`` < 0, ``df`` ≤ 0, α not in (0, 1) or ``power`` not in (α, 1).

    References
    ----------
    .. [1] Cohen, J. (1988). Statistical Power Analysis for the Behavioral Sciences,
           2nd ed., ch. 2 (power of the t test; the detectable effect).
    .. [2] {bouckaert2003}

    Examples
    --------
    >>> d = detectable_difference(0.01, 99, alpha=0.05)
    >>> round(100 * d, 2)
    2.83
    >>> round(detectable_difference(0.01, float("inf")) / 0.01, 3)    # z_0.975 + z_0.8
    2.802
    """
    from scipy import optimize, stats
    from .._validation import check_probability
    alpha = check_probability("alpha", alpha)
    power = float(power)
    if not alpha < power < 1:
        raise ValueError(f"`power` must be in (alpha, 1) = ({alpha:g}, 1); got {power!r}.")
    stderr, df = float(stderr), float(df)
    if np.isnan(stderr):
        return float("nan")
    if stderr < 0:
        raise ValueError(f"`stderr` must be >= 0; got {stderr!r}.")
    if not df > 0:
        raise ValueError(f"`df` must be > 0 (inf: the normal limit); got {df!r}.")
    if stderr == 0:
        return 0.0
    if df == np.inf:
        c = stats.norm.ppf(1 - alpha / 2)

        def reject(lam):
            return stats.norm.sf(c - lam) + stats.norm.cdf(-c - lam)
    else:
        c = stats.t.ppf(1 - alpha / 2, df)

        def reject(lam):
            lower = stats.nct.cdf(-c, df, lam)     # NaN far out in the tail: it is ~0 there
            return stats.nct.sf(c, df, lam) + (0.0 if np.isnan(lower) else lower)
    hi = c + stats.norm.ppf(power) + 1.0
    while reject(hi) < power:             # heavy tails at small df need a larger shift
        hi *= 2
    lam = optimize.brentq(lambda v: reject(v) - power, 0.0, hi, xtol=1e-12)
    return float(lam * stderr)


def _detectable(res, alpha) -> float:
    """:func:`detectable_difference` of a test result: NaN without a standard error."""
    se = np.asarray(getattr(res, "_stderr", np.nan), dtype=float)
    df = np.asarray(getattr(res, "df", np.nan), dtype=float)
    if se.size != 1 or df.size != 1 or not np.isfinite(se) or not float(df) > 0:
        return float("nan")
    return detectable_difference(float(se), float(df), alpha)


def _detectable_lines(res) -> list:
    """What a non-significant verdict can and cannot say, for ``str(result)``."""
    if not np.isfinite(res.detectable_difference):
        return ['"no significant difference" is not evidence that the learners are '
                "equally good; for that use the correlated Bayesian t test's ROPE "
                "(--method bayes --rope)"]
    m = res.metric
    size = (f"{100 * res.detectable_difference:.2f} points" if m.name == "accuracy" else
            f"{m.scale * res.detectable_difference:.4g} {m.unit}".rstrip())
    return [f"smallest difference this design detects with {100 * DETECTABLE_POWER:.0f}% "
            f"power at alpha = {res.alpha:g}: {size} "
            "(shift estimate: noncentral t at the test's standard error and df)",
            '"no significant difference" is not evidence that the learners are equally '
            "good: smaller differences could easily go unseen; for evidence of equivalence "
            "use the correlated Bayesian t test's ROPE (--method bayes --rope)"]


#: What the test's estimate is where it is not the mean per-fold difference.
_ESTIMATE_WORDS = {"cv5x2_t": "first fold's difference",
                   "bayle_cv_clt": "mean per-instance difference over the first run",
                   "ncv": "nested cv, bias-corrected"}
#: Why a test gives no interval for the difference (``str(result)`` says it).
_NO_INTERVAL = {
    "cv5x2_f": "the 5x2cv F test pools the ten squared differences and has no interval; "
               "the 5x2cv t (test='cv5x2_t') has one",
    "mcnemar": "McNemar's test counts disagreements and has no interval",
    "mcnemar_exact": "McNemar's test counts disagreements and has no interval",
    "proportions": "the proportions test has no interval here",
    "bayes_correlated_t": "a Bayesian test: see the posterior",
    "bayes_correlated_t_rope1": "a Bayesian test: see the posterior",
    **{name: "an averaged-T test has no standard error of the difference"
       for name in ("folds_averaged_t", "runs_averaged_t", "sorted_runs_averaged_t")},
}


def _same(a, b) -> bool:
    """Equality of two result fields: arrays and tables element-wise, nan equal to nan."""
    if isinstance(a, pd.DataFrame) or isinstance(b, pd.DataFrame):
        return isinstance(a, pd.DataFrame) and isinstance(b, pd.DataFrame) and a.equals(b)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (a is not None and b is not None
                and np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True))
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (np.isnan(a) and np.isnan(b))
    return a == b


def df_statement(spec, design: Design, df) -> str:
    """How ``df`` enters the test's statistic, in one sentence (Bouckaert 2003, §3)."""
    lim = " (df = ∞: the normal limit)" if df == np.inf else ""
    if spec.name in ("corrected_repeated_cv", "corrected_resampling"):
        n = "r·k" if design.kind == "cv" else "n"
        return (f"t = m / sqrt((1/(df+1) + n2/n1) s^2) against t(df): df + 1 stands where "
                f"{n} stands in Nadeau & Bengio's correction{lim}")
    if spec.name in ("cv5x2_t", "cv5x2_f"):
        return "the 5x2cv statistic against its reference with df in place of 5"
    if spec.scheme == "holdout" or spec.name in _BAYES or spec.scheme in _NORMAL_SCHEMES:
        return ""
    return (f"t = m·sqrt(df+1) / s against t(df): df + 1 stands where the number of "
            f"differences stands{lim}")


def compare(estimator_a, estimator_b, X, y=None, *, design=None, cv=None, groups=None,
            test=None, alpha=0.05, df="calibrated", replicability="bootstrap",
            n_repeats: int = 10, n_boot: int = 1000, n_jobs=None, scheduler=None,
            random_state=0, progress: bool = True, method: str = "frequentist",
            rope: float = 0.0, threshold: float = 0.95, rho="calibrated",
            scoring=None) -> CompareResult:
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
        N random (unstratified) 90/10 splits (``"subsampling:N@0.2"`` for 80/20);
        ``"holdout"``: one random 2/3-1/3 split, for McNemar's test and the
        proportions test (``"holdout@0.5"`` for 50/50). Give ``design`` or ``cv``.
    cv : int or scikit-learn splitter, optional
        Split with this instead: an int k is scikit-learn's ``StratifiedKFold(k)``
        (as ``cross_val_score`` makes it for a classifier); a splitter
        (``RepeatedStratifiedKFold``, ``RepeatedKFold``, ``StratifiedKFold``,
        ``KFold``, ``ShuffleSplit``, ``StratifiedShuffleSplit``, ``LeaveOneOut``,
        ``GroupKFold`` with ``groups``, ...) is used as given, and
        ``result.splits()`` are exactly its splits. The design for the test and the
        df lookup is read from the splits: consecutive groups of splits whose test
        sets partition the data are r runs of k-fold cv (``"RxK"``); otherwise the
        splits are subsamples with their test share (``"subsampling:N@f"``), or,
        with one split, a holdout (``"holdout@f"``). Splits must train on every
        instance they do not test.
    groups : array_like of shape (n_instances,), optional
        Group labels for a group splitter (``cv=GroupKFold(5)``).
    test : str, optional
        A test of :data:`calibsim.stats.TESTS` (or ``"bayes_correlated_t"``,
        ``"bayes_correlated_t_rope1"``) that fits the design; default the corrected
        repeated cv t (r x k cv; Bouckaert & Frank 2004), the corrected resampled t
        (subsampling; Nadeau & Bengio 2003), the 5x2cv t, or McNemar's test (holdout).
    alpha : float, default 0.05
        Significance level in (0, 1).
    df : "calibrated", "textbook" or float, default "calibrated"
        "calibrated": the continuous df of the shipped table for (test, α, k, r);
        if the table has no entry a :class:`DesignWarning` says so and the textbook
        df is used. Where the table holds ``inf`` (the corrected repeated cv t on
        small designs: the correction alone already makes it conservative) the
        statistic is taken at its normal limit, ``m / sqrt(n2/n1 · s^2)`` against
        the standard normal. The 5x2cv tests use their own df (5); McNemar's test,
        the proportions test and the Bayesian tests take none. How the df enters
        the statistic is stated in ``result.df_statement``.
    replicability : {"bootstrap", "rerun", None}, default "bootstrap"
        How to estimate the probability that the verdict replicates. "bootstrap":
        from the score matrix alone, resampling the runs (each run is an
        independent random partition of the same data) ``n_boot`` times;
        cheap, but it conditions on the runs seen; with one run (``"1x10"``,
        ``"holdout"``) it cannot apply, and the result says so instead of
        estimating; with fewer than 5 runs the result says the estimate is rough.
        "rerun": ``n_repeats`` - 1 further repeats of the whole design with new
        partitions (Bouckaert & Frank's R); costs as many more fits (with ``cv=``
        the splitter needs a ``random_state`` to re-seed). None: not estimated.
    n_repeats : int, default 10
        Repeats in total for ``replicability="rerun"`` (>= 2).
    n_boot : int, default 1000
        Resamples for ``replicability="bootstrap"``.
    n_jobs : int, optional
        Processes on this machine fitting in parallel (a loky process pool, as
        scikit-learn's ``n_jobs``: it works from a plain script, a notebook and the
        command line); default: fit here, in this process.
    scheduler : str, optional
        Address of a running Dask scheduler whose workers fit instead.
    random_state : int or numpy.random.SeedSequence, default 0
        Seed of the partitions, meaning exactly what it means in
        :mod:`calibsim.schemes`: the splits are those of calibsim's own splitter
        ``StratifiedRepeatedCV(n_folds=k, n_runs=r, random_state=random_state)``
        (``RandomSubsampling``, ``Holdout``; not scikit-learn's classes), named in
        ``result.splitter`` and read back from ``result.test_masks`` /
        ``result.splits()``; further repeats of ``replicability="rerun"`` and the
        bootstrap use child seeds. With ``cv=`` the splitter's own ``random_state``
        fixes the partitions and ``random_state`` seeds only the bootstrap and the
        further repeats. The result is the same for any ``n_jobs``.
    progress : bool, default True
        Show a progress bar of the fits (on stderr, or a widget in a notebook) once
        they take more than 3 s, with one estimate of the time left; False: silent.
    method : {"frequentist", "bayes"}, default "frequentist"
        "bayes": also run the correlated Bayesian t test (Corani & Benavoli 2015) on
        the same per-fold differences, with rho = n_test/n_total (1/k for k-fold cv,
        the test share for subsampling); the verdict is its decision.
    rope : float, default 0
        Half-width of the region of practical equivalence for ``method="bayes"``,
        in accuracy units (0.01 = one percentage point).
    threshold : float, default 0.95
        Posterior probability needed for a Bayesian decision, in (0.5, 1).
    rho : "calibrated", "heuristic" or float, default "calibrated"
        The correlation of ``method="bayes"``: "calibrated" takes the ρ of the shipped
        table (:func:`calibsim.lookup_rho`: the ρ at which the test decides on at most
        1 − threshold of null data sets) where it covers the design, threshold and
        ROPE, else the heuristic; "heuristic" is Nadeau & Bengio's n_test/n_total (1/k
        for k-fold cv, the test share for subsampling), which decides on about 10% of
        null data sets at threshold 0.95 with 10 x 10 cv; a number in (0, 1) is used
        as given. ``result.rho_source`` says which.
    scoring : str, optional
        The metric compared, a scikit-learn scorer name of
        :data:`calibsim.metrics.METRICS`: ``"accuracy"`` (the default for classes),
        ``"balanced_accuracy"``, ``"roc_auc"``, ``"roc_auc_ovr"``,
        ``"average_precision"``, ``"f1"``, ``"f1_macro"``, ``"matthews_corrcoef"``,
        ``"neg_log_loss"``, ``"neg_brier_score"``, or for a numeric target (a regression
        task, compared with regressors) ``"neg_mean_squared_error"`` (the default
        there), ``"neg_mean_absolute_error"``, ``"r2"``. Each split's score is
        scikit-learn's scorer's on that test set, greater is better (losses negated);
        the test runs on the per-split differences of the scores. A metric other than
        accuracy fits every learner on every split through its ``predict``,
        ``predict_proba`` or ``decision_function``; its df is the metric's own
        calibrated df where the shipped table has one, else accuracy's, and
        ``result.df_source`` says which. A regression design is not stratified (r x k
        cv is :class:`calibsim.schemes.RepeatedCV`; an int ``cv`` is ``KFold``).

    Returns
    -------
    CompareResult

    Raises
    ------
    ValueError
        For a malformed design or splitter, both ``design`` and ``cv``, an unknown
        test, a test that does not fit the design (the message names the designs it
        fits), α outside (0, 1), an invalid df, or X and y that do not match; for an
        unknown ``scoring``, one that does not fit the task or the number of classes,
        a learner that cannot give what it needs (``predict_proba`` for log loss), a
        classifier on a numeric target or a regressor on classes, a per-fold statistic
        with a test on per-instance outcomes, a metric other than accuracy with the
        holdout tests (McNemar's and the proportions test count correct
        classifications), or a design with a test set where it is undefined (ROC AUC
        on one class): all before any fit.

    Warns
    -----
    DesignWarning
        When the design, test or α is not in the shipped df table.

    See Also
    --------
    compare_scores : the same test on per-fold scores you already have.

    Examples
    --------
    >>> from calibsim.datasets import load_uci
    >>> res = compare("naive_bayes", "c45", load_uci("vote"), design="10x10")
    >>> res.test, res.reject, res.better
    ('corrected_repeated_cv', True, 'c45')
    >>> round(100 * res.difference, 2), round(res.df, 1), res.scores.shape
    (-6.54, 161.9, (100, 5))
    >>> res.splitter
    'calibsim.schemes.StratifiedRepeatedCV(n_folds=10, n_runs=10, random_state=0)'

    The partitions are those of calibsim's splitter with the same ``random_state``:

    >>> from calibsim.schemes import StratifiedRepeatedCV
    >>> cv = StratifiedRepeatedCV(n_folds=10, n_runs=10, random_state=0)
    >>> bool((cv.test_masks(load_uci("vote").y) == res.test_masks).all())
    True

    Or scikit-learn's, given as ``cv``:

    >>> from sklearn.model_selection import RepeatedStratifiedKFold
    >>> sk = RepeatedStratifiedKFold(n_splits=5, n_repeats=3, random_state=0)
    >>> res = compare("naive_bayes", "c45", load_uci("vote"), cv=sk)
    >>> res.design, len(res.splits())
    ('3x5', 15)

    By another metric, or regressors on a numeric target:

    >>> res = compare("naive_bayes", "c45", load_uci("vote"), design="2x5",
    ...               scoring="roc_auc", progress=False)
    >>> res.scoring, round(res.score_a, 3), round(res.score_b, 3)
    ('roc_auc', 0.974, 0.977)
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.linear_model import Ridge
    >>> from sklearn.tree import DecisionTreeRegressor
    >>> X, y = load_diabetes(return_X_y=True)
    >>> res = compare(Ridge(), DecisionTreeRegressor(random_state=0), X, y, design="2x5",
    ...               progress=False)
    >>> res.scoring, res.better
    ('neg_mean_squared_error', 'Ridge')
    """
    metric, task = _metric(scoring, X, y)
    d = _design(design, cv, X, y, groups, task)
    setup = _setup(d, test, alpha, df, replicability, n_repeats, metric)
    if replicability == "bootstrap" and not (isinstance(n_boot, int) and not isinstance(
            n_boot, bool) and 1 <= n_boot <= 10**6):
        raise ValueError(f"`n_boot` must be an integer in [1, 10**6]; got {n_boot!r}.")
    if method not in ("frequentist", "bayes"):
        raise ValueError(f"`method` must be 'frequentist' or 'bayes'; got {method!r}.")
    if method == "bayes":
        from ..stats._bayes import _iv_common
        _iv_common(rope, threshold)
        if setup["design"].kind in ("holdout", "bootstrap"):
            raise ValueError("`method` 'bayes' needs per-fold differences (r x k cv or "
                             f"subsampling); the design {setup['design'].name!r} has "
                             + ("one split." if setup["design"].kind == "holdout" else
                                "bootstrap samples, for the bootstrap_cv test."))
        setup["bayes"] = (rope, threshold, *_bayes_rho(setup["design"], rope, threshold, rho))
    learners = [parse_learner(estimator_a, "a", task), parse_learner(estimator_b, "b", task)]
    _check_learners(metric, learners)
    acc, masks, holdout = accuracies(
        learners, X, y, setup["design"], random_state,
        n_repeats if replicability == "rerun" else 1, n_jobs=n_jobs, scheduler=scheduler,
        progress=progress, return_masks=True, groups=groups,
        instances=setup["spec"].scheme in _INSTANCE_SCHEMES, metric=metric)
    res = _result(acc, _unique([lrn.label for lrn in learners]), setup, replicability,
                  n_boot, random_state, masks, holdout=holdout)
    if metric.name != "accuracy":
        res = replace(res, scoring=metric.name, scores=res.scores.rename(
            columns={"accuracy_a": "score_a", "accuracy_b": "score_b"}))
    from ._report import provenance
    options = {"design": setup["design"].name, "test": setup["spec"].name,
               "alpha": setup["alpha"], "df": df, "replicability": replicability}
    if cv is not None:
        options["cv"] = cv
    options.update({"bootstrap": {"n_boot": n_boot}, "rerun": {"n_repeats": n_repeats}}.get(
        replicability, {}))
    if method == "bayes":
        options.update(method=method, rope=rope, threshold=threshold, rho=rho)
    if metric.name != "accuracy":
        options["scoring"] = metric.name
    return replace(res, provenance=provenance("compare", [estimator_a, estimator_b], X, y,
                                              random_state, options))


def _metric(scoring, X, y):
    """The metric of ``scoring`` (default: accuracy for classes, the mean squared error
    for a numeric target) and the data's task, refused if they do not fit together."""
    from ..engine.scoring import data_task
    from ..metrics import check_metric_task, get_metric
    if scoring is not None:
        get_metric(scoring)                    # an unknown name first, with suggestions
    task = data_task(X, y, scoring)
    if scoring is None:
        scoring = "neg_mean_squared_error" if task == "regression" else "accuracy"
    n_classes = 0 if task == "regression" else prepare_data(X, y)[3]
    return check_metric_task(scoring, task, n_classes), task


def _check_learners(metric, learners) -> None:
    """Refuse, before any fit, a learner that cannot give what ``metric`` needs."""
    if metric.name == "accuracy":
        return
    from ..metrics import check_learner_response
    for lrn in learners:
        check_learner_response(metric, lrn.make(), lrn.label)


def _design(design, cv, X, y, groups, task: str = "classification") -> Design:
    """The design from ``design`` (default "10x10") or from the splitter ``cv``."""
    if cv is None:
        if groups is not None:
            raise ValueError("`groups` goes with a group splitter in `cv` (e.g. "
                             "cv=GroupKFold(5)); the `design` splitters ignore groups.")
        d = parse_design("10x10" if design is None else design)
        return d if task == "classification" else replace(d, task=task)
    if design is not None:
        raise ValueError(f"give `design` or `cv`, not both; got design={design!r} and "
                         f"cv={cv!r}.")
    if task == "regression":
        from ..engine.scoring import prepare_regression
        Xa, codes = prepare_regression(X, y)
    else:
        Xa, codes = prepare_data(X, y)[:2]
    if groups is not None and len(groups) != len(codes):
        raise ValueError(f"`groups` must hold one label per instance ({len(codes)}); got "
                         f"{len(groups)}.")
    return design_from_cv(cv, Xa, codes, groups, task)


def _setup(design, test, alpha, df, replicability, n_repeats, metric=None) -> dict:
    """Validated design, test spec, α and df of a comparison (by ``metric``, default
    accuracy)."""
    from .._validation import check_probability
    from ..stats import check_fits_design, get_test
    alpha = check_probability("alpha", alpha)
    d = parse_design(design)
    spec = get_test(d.default_test() if test is None else test)   # '' is not the default
    check_fits_design(spec, d.kind, d.n_runs, d.n_folds, d.name)
    if replicability not in ("bootstrap", "rerun", None):
        raise ValueError("`replicability` must be 'bootstrap', 'rerun' or None; got "
                         f"{replicability!r}.")
    if replicability == "rerun" and not (isinstance(n_repeats, int)
                                         and not isinstance(n_repeats, bool)
                                         and 2 <= n_repeats <= 1000):
        raise ValueError(f"`n_repeats` must be an integer in [2, 1000] (each repeat refits the "
                         f"whole design); got {n_repeats!r}.")
    if replicability == "rerun" and d.cv is not None and (
            not hasattr(d.cv, "random_state") or getattr(d.cv, "shuffle", True) is False):
        raise ValueError(f"`replicability` 'rerun' needs new partitions, and `cv` "
                         f"{d.describe()} has no random_state to re-seed (give it "
                         "shuffle=True, or use replicability='bootstrap').")
    note = ""
    if replicability == "bootstrap" and d.n_runs < 2:
        note = (f"not estimated: the bootstrap resamples runs and the design {d.name!r} has "
                "one (use replicability='rerun' for repeats with new partitions)")
    if metric is not None and metric.name != "accuracy":
        _check_metric_test(metric, spec)
        df_value, df_ci, df_source = _metric_df(spec, df, alpha, d, metric)
    else:
        df_value, df_ci, df_source = _resolve_df(spec.name, df, alpha, d)
    return {"design": d, "spec": spec, "alpha": alpha, "df": df_value, "df_ci": df_ci,
            "df_source": df_source, "replicability_note": note}


def _check_metric_test(metric, spec) -> None:
    """Refuse a test that cannot take ``metric``'s scores."""
    if spec.scheme == "holdout":
        raise ValueError(f"`test` {spec.name!r} counts correct classifications (accuracy); "
                         f"`scoring` {metric.name!r} needs a test on per-split differences: "
                         "use a cv or subsampling design (e.g. design='10x10').")
    if spec.scheme in _INSTANCE_SCHEMES and not metric.per_instance:
        raise ValueError(f"`test` {spec.name!r} works on per-instance outcomes; `scoring` "
                         f"{metric.name!r} is a per-fold statistic with none: use a test on "
                         "per-fold differences (e.g. test='corrected_repeated_cv') or a "
                         "per-instance loss (neg_log_loss, neg_brier_score, "
                         "neg_mean_squared_error, neg_mean_absolute_error).")


def _metric_df(spec, df, alpha, d: Design, metric) -> tuple:
    """The df of ``spec`` for ``metric``: its own calibrated df from the shipped table of
    metrics where there is one, else accuracy's (the source says it is accuracy's)."""
    value, ci, source = _resolve_df(spec.name, df, alpha, d)
    if not (isinstance(df, str) and df == "calibrated") or not source.startswith("calibrated"):
        return value, ci, source
    from ..calibration._dftable import lookup_df
    try:
        e = lookup_df(spec.name, alpha=alpha, n_folds=d.n_folds, n_runs=d.n_runs,
                      scoring=metric.name)
    except (ValueError, FileNotFoundError):
        return value, ci, (f"{source}, calibrated for accuracy: the shipped tables hold no "
                           f"df calibrated for {metric.name!r}, so this df's Type I error "
                           f"under {metric.title} is not measured")
    return e.df, (e.ci_low, e.ci_high), f"calibrated for {metric.name!r}: {e.source}"


#: Fewer runs than this make the bootstrap's replicability a rough estimate (said so).
_FEW_RUNS = 5


def _test_input(spec, acc, holdout, pair, d):
    """What the test takes, one row per repeat: per-fold differences (repeats, *shape) or,
    for the holdout tests, McNemar's counts (repeats, 4)."""
    if spec.scheme == "holdout":
        return holdout_counts(holdout, *pair).astype(float)
    if spec.scheme in _INSTANCE_SCHEMES:     # A-minus-B correctness, NaN off the test sets
        c, m = holdout["instances"], holdout["masks"]
        i, j = pair
        x = np.where(m, c[:, i].astype(float) - c[:, j], np.nan)
        return d.splitter().nested_layout(x, m) if d.kind == "nested" else x
    return acc[:, 0] - acc[:, 1]


def _result(acc, labels, setup, replicability, n_boot, random_state, masks=None, *,
            holdout=None, pair=(0, 1), splitter=None) -> CompareResult:
    """The comparison of learners 0 and 1 of ``acc`` (repeats, 2, *shape); ``pair`` names
    their rows in ``holdout`` (see :func:`accuracies`)."""
    d, spec, alpha, df_value = setup["design"], setup["spec"], setup["alpha"], setup["df"]
    x = _test_input(spec, acc, holdout, pair, d)
    n_inst = None if masks is None else masks.shape[-1]
    if d.kind == "nested":          # report the outer splits: an ordinary K-fold cv each
        acc = acc[..., :d.n_folds]
        masks = None if masks is None else masks[:, :d.n_folds]
    if d.kind == "bootstrap":       # report the C splits of the data as they are (row 0)
        acc = acc[..., :1, :]
        masks = None if masks is None else masks[:1]
    diffs = acc[:, 0] - acc[:, 1]                       # (repeats, *shape)
    test_df = None if spec.scheme in ("holdout", *_NORMAL_SCHEMES) else df_value
    if spec.name in _BAYES:
        res = _bayes_test(spec, diffs[0], d, alpha)
    else:
        res = run_test(spec, x[0], test_df, d, n_inst)
    if replicability == "rerun":
        from ..measures import replicability_R
        n = diffs.shape[0]
        p_all = (np.array([_bayes_test(spec, row, d, alpha).pvalue for row in diffs])
                 if spec.name in _BAYES else run_test(spec, x, test_df, d, n_inst).pvalue)
        k = int(np.sum(p_all <= alpha))
        rep, p_rej, how = (float(replicability_R(k, n)), k / n,
                           f"{n} repeats with new partitions, R(k, n) of Bouckaert & Frank 2004")
    elif replicability == "bootstrap" and setup.get("replicability_note"):
        rep = p_rej = float("nan")
        how = setup["replicability_note"]
    elif replicability == "bootstrap" and spec.name in _BAYES:
        rep = p_rej = float("nan")
        how = "not estimated for a Bayesian test (use replicability='rerun')"
    elif replicability == "bootstrap" and d.kind == "bootstrap":
        rep = p_rej = float("nan")
        how = ("not estimated for the bootstrap cv design: its rows are not exchangeable "
               "runs (use replicability='rerun')")
    elif replicability == "bootstrap" and spec.scheme in _INSTANCE_SCHEMES:
        # each run is an independent partition: resampling runs and testing the first
        # rejects, in expectation, as often as the runs' own tests do
        p_rej = (float(np.mean(run_test(spec, x[0][:, None], test_df, d).pvalue <= alpha))
                 if spec.scheme == "instances" else float("nan"))
        rep = p_rej ** 2 + (1 - p_rej) ** 2
        how = (f"the share of the {d.n_runs} runs (independent partitions) on which the "
               "test rejects, the bootstrap's limit" if spec.scheme == "instances" else
               "not estimated for nested cv (use replicability='rerun')")
    elif replicability == "bootstrap":
        p_rej = bootstrap_p_reject(spec, diffs[0], df_value, d, alpha, n_boot, random_state)
        rep, how = p_rej ** 2 + (1 - p_rej) ** 2, f"{n_boot} bootstrap resamples of the runs"
        if d.n_runs < _FEW_RUNS:
            how += (f"; only {d.n_runs} runs to resample, so a rough estimate (with "
                    f"{d.n_runs} runs there are {d.n_runs ** d.n_runs} resamples at most; use "
                    "more runs or replicability='rerun')")
    else:
        rep = p_rej = float("nan")
        how = ""
    m = float(diffs[0].mean())
    sd = float(diffs[0].std(ddof=1)) if diffs[0].size > 1 else float("nan")
    reject = bool(res.pvalue <= alpha)
    posterior = res if spec.name in _BAYES else None
    if setup.get("bayes"):
        from ..stats import correlated_bayesian_ttest
        rope, threshold, rho, rho_source = setup["bayes"]
        xb = diffs[0].reshape(1, -1) if d.kind == "subsampling" else diffs[0]
        posterior = correlated_bayesian_ttest(xb, rope=rope, rho=rho, threshold=threshold)
        reject = posterior.decision in ("left", "right")
    estimate = (float(diffs[0].reshape(-1)[0]) if spec.name == "cv5x2_t" else
                float(res._estimate) if spec.scheme in _NORMAL_SCHEMES else m)
    mean_a, mean_b = float(acc[0, 0].mean()), float(acc[0, 1].mean())
    if np.isnan(sd):
        effect = float("nan")
    else:
        effect = m / sd if sd > 0 else (0.0 if m == 0 else float(np.sign(m) * np.inf))
    statistic = (float(res.mean / res.scale) if spec.name in _BAYES and res.scale > 0
                 else float("nan") if spec.name in _BAYES else float(res.statistic))
    return CompareResult(
        learner_a=labels[0], learner_b=labels[1], accuracy_a=mean_a, accuracy_b=mean_b,
        difference=m, confidence_interval=interval(res, alpha),
        effect_size=effect, statistic=statistic, pvalue=float(res.pvalue), reject=reject,
        better=(labels[0] if mean_a > mean_b else labels[1]) if reject else None,
        test=spec.name, alpha=alpha, df=df_value, df_interval=setup["df_ci"],
        df_source=setup["df_source"] + _bound_note(res, d), design=d.name,
        scores=score_table(acc[0], d),
        replicability=float(rep), p_reject=float(p_rej), replicability_method=how,
        estimate=estimate, df_statement=df_statement(spec, d, df_value), test_masks=masks,
        posterior=posterior, rho_source=setup["bayes"][3] if setup.get("bayes") else "",
        splitter=splitter if splitter is not None else d.describe(random_state),
        detectable_difference=(float("nan") if spec.name in _BAYES
                               else _detectable(res, alpha)))


def _bound_note(res, d: Design) -> str:
    """For the bootstrap cv test at the boundary of its random-effects fit: what its
    standard error is instead, and what would give an estimate (else "")."""
    if not bool(np.any(getattr(res, "at_bound", False))):
        return ""
    return (f"; its between-sample variance component was estimated at 0 ({d.n_runs} "
            "bootstrap samples cannot separate it from the noise of the splits), so the "
            "standard error is the bound sqrt(MS_W / C), at least the spread of the samples' "
            "means, instead of 0; more bootstrap samples give an estimate (Cai et al. use "
            "several hundred)")


def _bayes_rho(d: Design, rope, threshold, rho) -> tuple:
    """(ρ, where it came from) for the correlated Bayesian t of ``compare``."""
    heuristic = d.test_fraction if d.kind == "subsampling" else 1.0 / d.n_folds
    words = ("n_test/n_total = " + (f"{heuristic:g}, the test share" if d.kind == "subsampling"
                                    else f"1/k = {heuristic:.3g}")
             + " (Nadeau & Bengio's heuristic)")
    if isinstance(rho, str) and rho == "heuristic":
        return heuristic, words
    if isinstance(rho, str) and rho == "calibrated":
        if d.kind == "cv":
            from ..calibration import lookup_rho
            try:
                e = lookup_rho(threshold=threshold, rope=rope, n_folds=d.n_folds,
                               n_runs=d.n_runs)
                return e.rho, (f"calibrated, from the shipped rho table ({e.n_datasets:,} "
                               f"null data sets; 95% interval {e.ci_low:.3g} to "
                               f"{e.ci_high:.3g}; decision rate on fresh null data "
                               f"{100 * e.decision_rate:.1f}% at it, "
                               f"{100 * e.decision_rate_default:.1f}% at 1/k; {e.source})")
            except ValueError:
                pass
        return heuristic, (words + ": the shipped rho table has no entry for design "
                           f"{d.name!r}, threshold {threshold:g} and ROPE {rope:g} "
                           "(calibrate one: calibsim calibrate --like DATA --method bayes)")
    if isinstance(rho, bool) or not isinstance(rho, (int, float, np.floating)) or not (
            0 < rho < 1):
        raise ValueError(f"`rho` must be 'calibrated', 'heuristic' or a number in (0, 1); "
                         f"got {rho!r}.")
    return float(rho), "given"


def _bayes_test(spec, diff, d: Design, alpha):
    """A registered Bayesian test on one (r, k) matrix of differences: its decision at
    threshold 1 - α is a rejection at α (see :data:`calibsim.stats.BAYES_TESTS`)."""
    from ..stats import correlated_bayesian_ttest
    rope = 0.01 if spec.name.endswith("rope1") else 0.0
    return correlated_bayesian_ttest(diff, rope=rope, rho=1.0 / d.n_folds,
                                     threshold=max(1 - alpha, 0.5 + 1e-9))


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
        ``design, cv, groups, test, alpha, df, random_state, n_jobs, scheduler,
        progress`` as for :func:`compare`. Every learner is fitted once on the same
        partitions.

    Returns
    -------
    pandas.DataFrame
        One row per pair: ``learner_a, learner_b, accuracy_a, accuracy_b, difference,
        ci_low, ci_high`` (the test's interval for the difference at level 1 - α,
        not adjusted for multiplicity; nan for a test without one), ``statistic,
        pvalue, pvalue_adjusted, reject`` (after the correction), ``better``, ``df``
        (nan for a test without df), ``test``, ``effect_size`` (the pair's paired d, as
        :attr:`CompareResult.effect_size`) and ``magnitude`` (Cohen 1988). It is a
        :class:`~calibsim.comparison.CompareAllTable`: also ``table.report(format)``,
        ``table.save_report(path)`` and ``table.pvalue_matrix()`` (adjusted p-values,
        learner × learner); ``table.attrs`` holds the ``splitter`` and ``design``.

    Raises
    ------
    ValueError
        With fewer than two learners, an unknown correction, or as :func:`compare`.
    """
    from statsmodels.stats.multitest import multipletests
    items = learner_items(estimators)
    learners = [parse_learner(e, "x") for _, e in items]
    names = [k if k is not None else lrn.label for (k, _), lrn in zip(items, learners)]
    names = _unique(names)
    opts = {"design": None, "cv": None, "groups": None, "test": None, "alpha": 0.05,
            "df": "calibrated", "random_state": 0, "n_jobs": None, "scheduler": None,
            "progress": True}
    unknown = set(kwargs) - set(opts)
    if unknown:
        raise TypeError(f"compare_all() got unexpected keyword arguments {sorted(unknown)}.")
    opts.update(kwargs)
    d = _design(opts["design"], opts["cv"], X, y, opts["groups"])
    setup = _setup(d, opts["test"], opts["alpha"], opts["df"], None, 10)
    acc, masks, holdout = accuracies(
        learners, X, y, setup["design"], opts["random_state"], 1, n_jobs=opts["n_jobs"],
        scheduler=opts["scheduler"], progress=opts["progress"], return_masks=True,
        groups=opts["groups"], instances=setup["spec"].scheme in _INSTANCE_SCHEMES)
    rows = []
    for i in range(len(items)):
        for j in range(i + 1, len(items)):
            r = _result(acc[:, [i, j]], (names[i], names[j]), setup, None, 0, 0, masks,
                        holdout=holdout, pair=(i, j), splitter="")
            rows.append({"learner_a": names[i], "learner_b": names[j],
                         "accuracy_a": r.accuracy_a, "accuracy_b": r.accuracy_b,
                         "difference": r.difference, "ci_low": r.confidence_interval[0],
                         "ci_high": r.confidence_interval[1], "statistic": r.statistic,
                         "pvalue": r.pvalue, "df": r.df, "test": r.test,
                         "effect_size": r.effect_size, "magnitude": r.magnitude})
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
    from ._pairs import CompareAllTable
    from ._report import provenance
    out = CompareAllTable(table)
    keys = ("design", "test", "alpha", "df")
    out._info = {
        "learners": tuple(names), "design": setup["design"].name, "alpha": setup["alpha"],
        "correction": correction, "df_interval": setup["df_ci"],
        "df_source": setup["df_source"], "df_statement": r.df_statement,
        "accuracies": (acc[0][..., :setup["design"].n_folds]            # outer splits
                       if setup["design"].kind == "nested" else acc[0][..., :1, :]  # the data's
                       if setup["design"].kind == "bootstrap" else acc[0]).reshape(len(names),
                                                                                   -1),
        "provenance": provenance("compare_all", estimators, X, y, opts["random_state"],
                                 {**{k: opts[k] for k in keys}, "test": setup["spec"].name,
                                  "correction": correction})}
    out.attrs["splitter"] = setup["design"].describe(opts["random_state"])
    out.attrs["design"] = setup["design"].name
    return out

