"""The reports of :func:`compare` and :func:`compare_all` (docs/guide/results.md).

What a report says is built here as parts; :mod:`calibsim.reports` renders them. Every
number comes from the result (or the table of ``compare_all`` and what it recorded);
nothing is recomputed but the learners' own accuracy intervals, which use the same
corrected variance as the test (Nadeau & Bengio 2003).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..reports._render import math
from ..reports._words import (CORRECTION_WORDS, INFINITE_DF, and_list, call_text, df_text, interval_text,
                              p_eq, p_text, pct, points, pts, reproducibility, test_words)

__all__ = ["compare_report", "compare_all_report", "provenance", "learners_text",
           "accuracy_interval"]

_COHEN = "Cohen 1988: 0.2, 0.5, 0.8"


# --- Provenance: what a report needs to say how the result was made ---

def describe_data(X, y=None) -> dict:
    """Name, instances, attributes (nominal, numeric), classes and missing values."""
    from ..datasets import Dataset
    if isinstance(X, Dataset):
        nominal = int(np.sum(X.n_values > 0))
        return {"name": X.name, "instances": int(X.X.shape[0]),
                "attributes": int(X.X.shape[1]), "nominal": nominal,
                "numeric": int(X.X.shape[1]) - nominal, "classes": int(X.n_classes),
                "missing": int(np.isnan(X.X).sum())}
    shape = np.shape(X)
    out = {"name": "the data given", "instances": int(shape[0]) if shape else None,
           "attributes": int(shape[1]) if len(shape) > 1 else None}
    if y is not None:
        try:
            out["classes"] = int(pd.unique(pd.Series(np.ravel(y))).size)
        except TypeError:
            pass
    try:
        out["missing"] = int(pd.DataFrame(X).isna().to_numpy().sum())
    except (TypeError, ValueError):
        pass
    return out


def _spec_text(spec) -> str:
    return spec.strip() if isinstance(spec, str) else repr(spec)


def learners_text(estimators) -> str:
    """The learners as a Python literal: ``['naive_bayes', 'c45']`` or a dict."""
    if isinstance(estimators, dict):
        return "{" + ", ".join(f"{k!r}: {_arg(e)}" for k, e in estimators.items()) + "}"
    return "[" + ", ".join(_arg(e) for e in estimators) + "]"


def _arg(e) -> str:
    return repr(e.strip()) if isinstance(e, str) else repr(e)


def provenance(func, estimators, X, y, random_state, options: dict) -> dict:
    """What a report of ``func`` (``"compare"`` or ``"compare_all"``) needs beyond the
    numbers: the data, the learners as specified, the seed and the call."""
    items = list(estimators.items()) if isinstance(estimators, dict) else [
        (None, e) for e in estimators]
    args = ([_arg(e) for _, e in items] if func == "compare" else
            [learners_text(estimators)])
    args.append("data" if y is None else "X, y")
    return {"data": describe_data(X, y), "learners": [_spec_text(e) for _, e in items],
            "seed": random_state,
            "call": call_text(func, args, {**options, "random_state": random_state})}


def _design(name):
    from ..engine.scoring import parse_design
    try:
        return parse_design(name)
    except ValueError:
        return None


def design_words(d, *, stratified=True, scores="accuracies") -> str:
    """The resampling design in words.

    ``stratified=False`` for a regression's unstratified partitions; ``scores`` names what
    is averaged over the outer splits of the nested and bootstrap designs ("accuracies",
    or "scores" for another metric).

    Examples
    --------
    >>> from calibsim.engine.scoring import parse_design
    >>> design_words(parse_design("10x10"))
    '10 runs of stratified 10-fold cross-validation (100 train/test splits)'
    >>> design_words(parse_design("2x5"), stratified=False)
    '2 runs of 5-fold cross-validation (10 train/test splits)'
    """
    st = "stratified " if stratified else ""
    if d is None:
        return "the design given"
    if d.kind == "cv5x2":
        return f"5 replications of {st}2-fold cross-validation (5x2cv, Dietterich 1998)"
    if d.kind == "subsampling":
        tr = round(100 * (1 - d.test_fraction))
        return (f"{d.n_runs} random train/test splits of {tr}% / {100 - tr}% (random "
                "subsampling)")
    if d.kind == "nested":
        k = d.n_folds
        return (f"{d.n_runs} repetitions of nested {st}{k}-fold cross-validation "
                f"(Bates et al. 2023: {k} outer and {k * (k - 1) // 2} inner train/test "
                f"splits each; {scores} over the outer splits)")
    if d.kind == "bootstrap":
        tr = round(100 * (1 - d.test_fraction))
        return (f"the bootstrap of the cv estimate (Cai et al. 2023): {d.n_folds} random "
                f"train/test splits of {tr}% / {100 - tr}% of the data, and {d.n_runs} "
                f"bootstrap samples of {d.n_folds} splits each at Cai et al.'s adjusted "
                f"training size, copies of an instance on one side; {scores} over the "
                "splits of the data")
    if d.n_runs == 1:
        return f"{st}{d.n_folds}-fold cross-validation"
    return (f"{d.n_runs} runs of {st}{d.n_folds}-fold cross-validation "
            f"({d.n_runs * d.n_folds} train/test splits)")


def test_share(d) -> float:
    """n2 / (n1 + n2): the test share of each split, Nadeau & Bengio's ρ."""
    if d.kind in ("subsampling", "bootstrap"):
        return float(d.test_fraction)
    return 1.0 / d.n_folds


def accuracy_interval(per_fold, d, alpha, bounds=(0.0, 1.0)) -> tuple:
    """Interval at level 1 - α for a learner's mean accuracy over the splits, with
    Nadeau & Bengio's (2003) corrected variance ``(1/n + n2/n1) s²`` and n - 1 df
    (the df of the shipped table are calibrated for differences, not for one learner),
    cut to ``bounds``: [0, 1], or another metric's range of greater-is-better scores
    (:attr:`calibsim.metrics.Metric.low`, ``high``)."""
    from scipy import stats
    x = np.asarray(per_fold, dtype=float).ravel()
    n = x.size
    if d is None or n < 2:
        return float("nan"), float("nan")
    rho = test_share(d)
    se = np.sqrt((1.0 / n + rho / (1.0 - rho)) * x.var(ddof=1))
    half = stats.t.ppf(1 - alpha / 2, n - 1) * se
    return max(bounds[0], float(x.mean() - half)), min(bounds[1], float(x.mean() + half))


def data_rows(data: dict | None) -> list:
    """(item, value) rows describing the data set."""
    if not data:
        return [("Data set", "not recorded (the result was made from given per-fold scores)")]
    rows = [("Data set", data.get("name", "—"))]
    if data.get("instances") is not None:
        rows.append(("Instances", str(data["instances"])))
    if data.get("attributes") is not None:
        kinds = (f" ({data['nominal']} nominal, {data['numeric']} numeric)"
                 if "nominal" in data else "")
        rows.append(("Attributes", f"{data['attributes']}{kinds}"))
    if data.get("classes") is not None:
        rows.append(("Classes", str(data["classes"])))
    if data.get("missing") is not None:
        rows.append(("Missing values", str(data["missing"])))
    return rows


def _items(rows, caption=""):
    from ..reports import Table
    return Table(pd.DataFrame(rows, columns=["item", "value"]), caption=caption)


def splitter_text(result_splitter, d, prov) -> str:
    """The splitter exactly as used: the result's own description if it has one, else
    the calibsim splitter the design draws with the recorded seed."""
    if result_splitter:
        return str(result_splitter)
    if d is None:
        return "not recorded"
    import dataclasses
    if "seed" not in (prov or {}):
        return f"`{d.splitter()!r}` (its seed was not recorded)"
    return f"`{dataclasses.replace(d.splitter(), random_state=prov['seed'])!r}`"


def df_sentence(test, df, df_interval, df_source, design) -> str:
    """Where the df comes from, in one sentence."""
    lo, hi = df_interval
    ci = (" (95% interval ∞ to ∞)" if lo == hi == np.inf else
          "" if not np.isfinite(lo) or lo == hi else
          f" (95% interval {lo:.2f} to {'∞' if hi == np.inf else f'{hi:.2f}'})")
    src = df_source
    if src.startswith("calibrated"):
        src = (f"{src}: the df at which the test's Type I error on null data equals α "
               "(Bouckaert 2003)")
    textbook = ""
    if design is not None and not df_source.startswith("textbook"):
        from ..stats import get_test
        try:
            default = get_test(test).default_df(design.n_runs, design.n_folds)
            textbook = ("" if default is None else
                        f"; the textbook df of the design is {default}")
        except ValueError:
            textbook = ""
    inf = (" " + INFINITE_DF) if df == np.inf or hi == np.inf else ""
    return f"df = {df_text(df)}{ci}, {src}{textbook}.{inf}"


# --- compare ---

#: What a test's estimate is where it is not the mean per-fold difference (table, text).
_FIRST_FOLD = "first fold's difference, Dietterich 1998 §3.5"
_FIRST_FOLD_TEXT = "the first fold's difference (Dietterich 1998)"
_ESTIMATE_ROW = {"bayle_cv_clt": "mean over the instances of the first run, Bayle et al. 2020",
                 "ncv": "nested cv, bias-corrected, Bates et al. 2023",
                 "bootstrap_cv": "mean over the splits of the data, Cai et al. 2023",
                 "bootstrap_cv_unadjusted": "mean over the splits of the data, Cai et al. "
                                            "2023"}
_ESTIMATE_TEXT = {"bayle_cv_clt": "the mean per-instance difference over the first run "
                                  "(Bayle et al. 2020)",
                  "ncv": "the bias-corrected nested cv estimate (Bates et al. 2023)",
                  "bootstrap_cv": "the mean over the splits of the data (Cai et al. 2023)",
                  "bootstrap_cv_unadjusted": "the mean over the splits of the data (Cai et "
                                             "al. 2023)"}

class _Units:
    """How a report of one comparison names and prints its metric's numbers.

    Accuracy keeps the report's own wording (percent, points, "more accurate"); another
    metric of :mod:`calibsim.metrics` is named by its title, its values printed with
    :meth:`~calibsim.metrics.Metric.value_text` and its differences, as in
    ``str(result)``, in the quantity the title names (for a loss, the difference of the
    losses A − B, shown positive where a loss is) in the metric's units.
    """

    def __init__(self, metric):
        self.m = metric
        self.acc = metric.name == "accuracy"
        #: Decimals of a difference: two in points (scale 100), four in own units.
        self.decimals = 2 if metric.scale == 100 else 4
        #: The units of a difference, as a table's label prints them in parentheses.
        self.unit = "points" if self.acc else (metric.unit.strip("()") or metric.title)

    @property
    def title(self) -> str:
        return self.m.title

    def value(self, score) -> str:
        """One learner's mean (greater-is-better) score as the report prints it."""
        if self.acc:
            return pct(score)
        return "—" if not np.isfinite(score) else self.m.value_text(score)

    def values(self, lo, hi) -> tuple:
        """A learner's interval (of scores) as the quantity named, low to high."""
        return tuple(sorted((lo, hi), key=self.m.display)) if not self.acc else (lo, hi)

    def diff(self, difference) -> str:
        """A difference of scores A − B as a signed number in :attr:`unit`."""
        if self.acc:
            return pts(difference)
        if not np.isfinite(difference):
            return "—"
        return f"{self.m.scale * self.m.display(difference):+.{self.decimals}f}"

    def size(self, magnitude) -> str:
        """A size (≥ 0, e.g. an advantage or the detectable difference) without sign."""
        return f"{self.m.scale * magnitude:.{self.decimals}f}"

    def diff_interval(self, lo, hi) -> str:
        """The interval of a difference of scores, as the quantity named, low to high."""
        if self.acc:
            return interval_text(lo, hi)
        lo, hi = sorted((lo, hi), key=self.m.display)
        return interval_text(lo, hi, self.diff)

    def diff_label(self) -> str:
        """What the test rows' differences are: "A − B (points of AUC)"; for a loss
        "A − B of the mean squared error (...)"."""
        if self.acc or self.m.greater_is_better:
            return f"A − B ({self.unit})"
        return f"A − B of the {self.title} ({self.unit})"

    def column(self) -> str:
        """The learners' table's column of mean scores."""
        if self.acc:
            return "accuracy (%)"
        return self.title + ("" if self.m.greater_is_better else " (lower is better)")

    def interval_column(self, level) -> str:
        return f"{level} CI (%)" if self.acc else f"{level} CI"

    def better(self, learner) -> str:
        """The verdict naming the better learner."""
        if self.acc:
            return f"{learner} is more accurate"
        return f"{learner} is better ({self.title}, {self.m.direction_text()})"

    def rope(self, rope) -> str:
        """The ROPE's half-width (in the greater-is-better score's units)."""
        if self.acc:
            return points(100 * rope)
        return f"{self.m.scale * rope:g} {self.m.unit}".rstrip()


def _task_data(data, units):
    """The data as recorded; for a regression, without the count of distinct targets that
    :func:`describe_data` records as classes."""
    if data and units.m.task == "regression" and "classes" in data:
        data = {k: v for k, v in data.items() if k != "classes"}
    return data


def compare_report(res):
    """The report of one :class:`CompareResult`; of the metric it ran on
    (:attr:`CompareResult.metric`) where ``res.scoring`` is not accuracy."""
    from ..reports import Figure, Heading, Paragraph, Report, Table
    u = _Units(res.metric)
    prov = res.provenance or {}
    data = _task_data(prov.get("data"), u)
    dname = data["name"] if data else "the data"
    a, b = res.learner_a, res.learner_b
    d = _design(res.design)
    name, cite = test_words(res.test)
    alpha = res.alpha
    level = f"{100 * (1 - alpha):g}%"

    parts = [Paragraph(f"Do {a} and {b} differ in {u.title} on {dname}?")]

    # Data and design
    rows = data_rows(data)
    if prov.get("scores_in"):
        rows.append(("Scores", f"per-fold scores read from `{prov['scores_in']}`"))
    rows.append(("Design", _design_text(res, d, u)))
    rows.append(("Splitter", splitter_text(getattr(res, "splitter", None), d, prov)))
    if not u.acc:
        rows.append(("Metric", u.m.describe()))
    specs = prov.get("learners") or [a, b]
    rows += [(f"Learner A ({a})", f"`{specs[0]}`"), (f"Learner B ({b})", f"`{specs[1]}`")]
    parts += [Heading("Data and design"), _items(rows)]

    # Test and df
    stat_name = "F" if res.test == "cv5x2_f" else ("z" if res.df == np.inf
                                                   or res.test in _ESTIMATE_ROW else "t")
    # A loss's statistic is of the losses' differences, as str(result) shows it; F is ≥ 0.
    statistic = res.statistic if res.test == "cv5x2_f" else u.m.sign * res.statistic
    parts += [Heading("Test and df"),
              Paragraph(f"The {name} ({cite}), two-sided, at α = {alpha:g}. "
                        + df_sentence(res.test, res.df, res.df_interval, res.df_source, d)),
              ]
    if res.df_statement:
        parts.append(Paragraph(f"How the df enters: {res.df_statement}."))

    # Results
    sc = res.scores
    acc_rows = []
    for lab, mean, lo, hi in _learner_means(res, d, u):
        acc_rows.append({"learner": lab, u.column(): u.value(mean),
                         u.interval_column(level): interval_text(lo, hi, u.value),
                         "splits": int(len(sc))})
    lo, hi = res.confidence_interval
    est_row = []
    if np.isfinite(res.estimate) and res.estimate != res.difference:
        est_row = [(f"Test's estimate ({_ESTIMATE_ROW.get(res.test, _FIRST_FOLD)}) "
                    f"({u.unit})", u.diff(res.estimate))]
    sig = res.pvalue <= alpha
    verdict = (u.better(res.learner_a if res.difference > 0 else res.learner_b)
               if sig else "no significant difference")
    test_rows = ([(f"Difference {u.diff_label()}", u.diff(res.difference))] + est_row + [
        (f"{level} CI of the {'estimate' if est_row else 'difference'} ({u.unit})",
         u.diff_interval(lo, hi)),
        (f"Statistic ({stat_name})", f"{statistic:.3f}"),
        ("df", df_text(res.df)),
        ("p-value (two-sided)", p_text(res.pvalue)),
        (f"Verdict at α = {alpha:g}", verdict)])
    if res.posterior is not None:
        test_rows.append(("Decision of the correlated Bayesian t test", _bayes_verdict(res)))
    if not sig and np.isfinite(getattr(res, "detectable_difference", np.nan)):
        test_rows.append((f"Smallest difference detectable with 80% power at α = {alpha:g} "
                          f"({u.unit})", u.size(res.detectable_difference)))
    if np.isfinite(res.replicability):
        test_rows.append(("Replicability of the verdict at α", f"{res.replicability:.2f}"))
    parts += [Heading("Results"),
              Table(pd.DataFrame(acc_rows), caption=(
                  f"Mean {u.title} over the splits; intervals with Nadeau & Bengio's corrected "
                  f"variance (the splits share training data), n − 1 df.")),
              _items(test_rows, caption=f"The {name}")]
    if np.isfinite(res.replicability):
        parts.append(Paragraph(
            f"Replicability: the estimated probability that a repeat of the whole comparison "
            f"with new random partitions reaches the same verdict at α (Bouckaert & Frank "
            + ("2004; the frequentist test's verdict) is " if res.posterior is not None
               else "2004) is ")
            + f"{res.replicability:.2f}, with P(reject) = {res.p_reject:.2f} "
            f"({res.replicability_method})."))
    elif res.replicability_method:
        parts.append(Paragraph(f"Replicability: {res.replicability_method}."))

    # Effect size
    parts += [Heading("Effect size")] + _effect_parts(res, d, u)

    # Posterior
    if res.posterior is not None:
        parts += [Heading("Posterior")] + _posterior_parts(res, u)

    parts += [Heading("In words"),
              Paragraph(_compare_paragraph(res, d, data, name, cite, u))]
    parts += reproducibility(prov)
    return Report(f"{a} vs {b} on {dname}", parts)


def _design_text(res, d, u) -> str:
    """The design in words, unstratified for a regression, "scores" for another metric."""
    if d is None:
        return res.design
    if u.acc:
        return design_words(d)
    return design_words(d, stratified=u.m.task != "regression", scores="scores")


def _learner_means(res, d, u) -> list:
    """(learner, mean score, interval low, high) of A and B; the interval of the score
    column (:func:`accuracy_interval`, cut to the metric's range) as the quantity named."""
    sc, out = res.scores, []
    cols = ("accuracy_a", "accuracy_b") if "accuracy_a" in sc else ("score_a", "score_b")
    for lab, col, mean in zip((res.learner_a, res.learner_b), cols,
                              (res.accuracy_a, res.accuracy_b)):
        bounds = (0.0, 1.0) if u.acc else (u.m.low, u.m.high)
        lo, hi = u.values(*accuracy_interval(sc[col], d, res.alpha, bounds))
        out.append((lab, mean, lo, hi))
    return out


def _bayes_verdict(res) -> str:
    b = res.posterior
    return {"right": f"{res.learner_a} is better", "left": f"{res.learner_b} is better",
            "rope": "practically equivalent", "none": "no decision"}[str(b.decision)] + \
        f" (posterior probability ≥ {b.threshold:g})"


def _effect_parts(res, d, u) -> list:
    from ..reports import Paragraph
    from ..stats import effect_size_magnitude
    e = res.effect_size if u.acc else u.m.sign * res.effect_size   # a loss's: of the losses
    mag = effect_size_magnitude(e)
    of = "" if u.acc else f" of the {u.title}"
    text = (f"Paired d = m / s = {e:.2f} ({mag}; thresholds of {_COHEN}), where m is the "
            f"mean and s the standard deviation of the {len(res.scores)} per-split "
            f"differences{of} A − B ({res.learner_a} − {res.learner_b}). ")
    if d is not None and np.isfinite(e):
        rho = test_share(d)
        adj = e * np.sqrt(1 - rho)
        text += (f"s is not corrected for the dependence between splits: Nadeau & Bengio's "
                 f"correction is of the variance of the mean m (it belongs to the test and "
                 f"the interval, where it is applied), and folding it into d would make d "
                 f"shrink with the number of splits like a t statistic. Under their model "
                 f"(correlation {math('ρ = n_2/n')} = {rho:.2g} between splits) the standard "
                 f"deviation of one difference would be {math('s/√(1 − ρ)')}, giving "
                 f"d = {adj:.2f} "
                 f"({effect_size_magnitude(adj)}).")
    return [Paragraph(text)]


def _posterior_parts(res, u) -> list:
    from ..reports import Figure, Paragraph
    b = res.posterior
    a, bb = res.learner_a, res.learner_b
    text = (f"Correlated Bayesian t test (Corani & Benavoli 2015) on the same per-split "
            f"differences, ρ = {b.rho:.3g}, ROPE ±{u.rope(b.rope)}: P({a} better) = "
            f"{b.p_right:.3f}, P(practically equivalent) = {b.p_rope:.3f}, P({bb} better) = "
            f"{b.p_left:.3f}; decision at posterior probability {b.threshold:g}: "
            f"{_bayes_verdict(res)}. The result's verdict (`reject`, `better`) is this "
            "decision; the statistic and p-value above are the frequentist test's."
            + (f" ρ: {res.rho_source}." if getattr(res, "rho_source", "") else ""))
    parts = [Paragraph(text)]
    if np.ndim(b.mean) == 0 and np.isfinite(b.scale):
        from ..plotting import plot_posterior_difference

        def draw():
            return plot_posterior_difference(b, learners=(a, bb))
        what = ("mean accuracy difference" if u.acc else
                f"mean difference of the scores ({u.m.name}, greater is better)")
        parts.append(Figure(draw, "posterior", caption=(
            f"Posterior density of the {what} {a} − {bb}; the areas "
            "beyond and inside the ROPE are the posterior probabilities.")))
    return parts


def _compare_paragraph(res, d, data, name, cite, u) -> str:
    a, b = res.learner_a, res.learner_b
    alpha = res.alpha
    level = f"{100 * (1 - alpha):g}%"
    if data and data.get("instances") is not None:
        bits = [f"{data['instances']} instances"]
        if data.get("attributes") is not None:
            bits.append(f"{data['attributes']} attributes")
        if data.get("classes") is not None:
            bits.append(f"{data['classes']} classes")
        where = f"{data['name']} ({', '.join(bits)})"
    else:
        where = data["name"] if data else "the data"
    acc = []
    pc = "%" if u.acc else ""
    for lab, mean, lo, hi in _learner_means(res, d, u):
        ci = f" ({level} CI {u.value(lo)}–{u.value(hi)}{pc})" if np.isfinite(lo) else ""
        acc.append(f"{lab} {u.value(mean)}{pc}{ci}")
    design = _design_text(res, d, u) if d is not None else f"the design {res.design}"
    lo, hi = res.confidence_interval
    est = res.estimate if np.isfinite(res.estimate) else res.difference
    first, second, sign = (a, b, 1.0) if est >= 0 else (b, a, -1.0)
    lo, hi = sorted((sign * lo, sign * hi))
    if u.acc:
        ci = f" ({level} CI {100 * lo:.2f} to {100 * hi:.2f})" if np.isfinite(lo) else ""
        by = f"{100 * abs(est):.2f} percentage points"
    else:                                  # the first's advantage, in the metric's units
        ci = (f" ({level} CI {u.size(lo)} to {u.size(hi)})" if np.isfinite(lo) else "")
        by = f"{u.size(abs(est))} {u.m.unit}".rstrip()
    if est != res.difference:
        what = (f"the test's estimate, {_ESTIMATE_TEXT.get(res.test, _FIRST_FOLD_TEXT)}, puts "
                f"{first} ahead by {by}{ci}")
    elif u.acc:
        what = f"{first} was more accurate than {second} by {by}{ci}"
    else:
        what = (f"{first} was better than {second} in {u.title} "
                f"({u.m.direction_text()}) by {by}{ci}")
    df_src = ("calibrated on null data (Bouckaert 2003)" if res.df_source.startswith("calibrated")
              else f", {res.df_source}")
    stat = "F" if res.test == "cv5x2_f" else ("z" if res.df == np.inf
                                              or res.test in _ESTIMATE_ROW else "t")
    sig = "significant" if (res.pvalue <= alpha) else "not significant"
    means = "The mean accuracies were" if u.acc else f"The mean {u.title} was"
    statistic = res.statistic if stat == "F" else u.m.sign * res.statistic
    text = (f"We compared {a} and {b} on {where} with {design}. {means} "
            f"{acc[0]} and {acc[1]}; {what}. The difference is {sig} at α = {alpha:g} by the "
            f"{name} ({cite}): {stat} = {statistic:.2f}, {p_eq(res.pvalue)}, with "
            f"df = {df_text(res.df)} {df_src}.".replace(" ,", ","))
    if res.pvalue <= alpha:
        text += (f" {first} is the more accurate learner on these data." if u.acc else
                 f" {first} is the better learner by {u.title} on these data.")
    else:
        text += _not_significant_words(res, u)
    from ..stats import effect_size_magnitude
    if np.isfinite(res.effect_size):
        text += (f" The paired effect size is d = {abs(res.effect_size):.2f} "
                 f"({effect_size_magnitude(res.effect_size)}; Cohen 1988).")
    if res.posterior is not None:
        bp = res.posterior
        text += (f" The correlated Bayesian t test (Corani & Benavoli 2015; ROPE "
                 f"±{u.rope(bp.rope)}) gives P({a} better) = {bp.p_right:.3f}, "
                 f"P(equivalent) = {bp.p_rope:.3f} and P({b} better) = {bp.p_left:.3f}: "
                 f"{_bayes_verdict(res)}.")
    if np.isfinite(res.replicability):
        text += (f" A repeat with new random partitions would reach the same verdict at α "
                 f"with an estimated probability of {res.replicability:.2f} (replicability, "
                 "Bouckaert & Frank 2004).")
    return text


def _not_significant_words(res, u=None) -> str:
    """What "not significant" can say: the detectable difference, and that it is not
    evidence of equality (:attr:`CompareResult.detectable_difference`)."""
    u = u or _Units(res.metric)
    dd = getattr(res, "detectable_difference", np.nan)
    text = ""
    size = (f"{100 * dd:.2f} percentage points" if u.acc else
            f"{u.size(dd)} {u.m.unit}".rstrip() + f" of {u.title}")
    if np.isfinite(dd):
        text = (f" With this design the {test_words(res.test)[0]} would detect a true "
                f"difference of {size} with 80% power at "
                f"α = {res.alpha:g} (shift estimate: every split's difference moved alike, "
                "noncentral t at the test's standard error and df); smaller differences "
                "could easily go unseen.")
    rope = (" the ROPE of the correlated Bayesian t test above" if res.posterior is not None
            else " the correlated Bayesian t test's region of practical equivalence (ROPE; "
                 "Benavoli et al. 2017), e.g. compare with method='bayes' and a rope")
    return (text + " Failing to reject is not evidence that the learners are equally "
            f"{'accurate' if u.acc else 'good'}; evidence of practical equivalence "
            f"needs{rope}.")


# --- compare_all ---

def compare_all_report(table):
    """The report of the table of :func:`compare_all`."""
    from ..reports import Heading, Paragraph, Report, Table
    from ..stats import effect_size_magnitude
    info = table._info or {}
    prov = info.get("provenance") or {}
    data = prov.get("data")
    dname = data["name"] if data else "the data"
    learners = list(info.get("learners") or dict.fromkeys(
        list(table["learner_a"]) + list(table["learner_b"])))
    d = _design(info.get("design", ""))
    test = str(table["test"].iloc[0])
    name, cite = test_words(test)
    alpha = info.get("alpha", 0.05)
    level = f"{100 * (1 - alpha):g}%"
    correction = info.get("correction", "holm")

    parts = [Paragraph(f"Which of {and_list(learners)} differ in accuracy on {dname}?")]
    rows = data_rows(data)
    rows.append(("Design", design_words(d) if d is not None else info.get("design", "—")))
    rows.append(("Splitter", splitter_text(None, d, prov)))
    specs = prov.get("learners") or learners
    rows += [(f"Learner {lab}", f"`{spec}`") for lab, spec in zip(learners, specs)]
    parts += [Heading("Data and design"), _items(rows)]

    parts += [Heading("Test and df"), Paragraph(
        f"The {name} ({cite}) on every pair, two-sided, at α = {alpha:g}; the p-values of the "
        f"{len(table)} pairs adjusted with {CORRECTION_WORDS.get(correction, correction)} "
        f"(statsmodels' multipletests). "
        + df_sentence(test, float(table["df"].iloc[0]), info.get("df_interval", (np.nan,) * 2),
                      info.get("df_source", ""), d))]
    if info.get("df_statement"):
        parts.append(Paragraph(f"How the df enters: {info['df_statement']}."))

    # Results
    acc = info.get("accuracies")
    acc_rows = []
    for j, lab in enumerate(learners):
        per = acc[j] if acc is not None else None
        mean = float(np.mean(per)) if per is not None else _mean_of(table, lab)
        lo, hi = accuracy_interval(per, d, alpha) if per is not None else (np.nan, np.nan)
        acc_rows.append({"learner": lab, "accuracy (%)": pct(mean),
                         f"{level} CI (%)": interval_text(lo, hi, pct)})
    pair_rows = [{"pair (A vs B)": f"{r.learner_a} vs {r.learner_b}",
                  "difference A − B (points)": pts(r.difference),
                  f"{level} CI (points)": interval_text(r.ci_low, r.ci_high),
                  "p-value": p_text(r.pvalue), "adjusted p-value": p_text(r.pvalue_adjusted),
                  "paired d": f"{r.effect_size:.2f}", "magnitude": r.magnitude,
                  "verdict": (f"{r.better} better" if r.reject
                              else "no significant difference")}
                 for r in table.itertuples()]
    parts += [Heading("Results"),
              Table(pd.DataFrame(acc_rows), caption=(
                  "Mean accuracy over the splits; intervals with Nadeau & Bengio's corrected "
                  "variance, n − 1 df.")),
              Table(pd.DataFrame(pair_rows), caption=(
                  f"Every pair: the {name}, p-values adjusted with "
                  f"{CORRECTION_WORDS.get(correction, correction)}; paired effect size d.")),
              Table(pvalue_matrix(table, learners).map(p_text), index=True, caption=(
                  f"Adjusted p-values ({CORRECTION_WORDS.get(correction, correction)}), "
                  "learner × learner."))]
    parts += [Heading("Effect sizes"), Paragraph(
        f"Paired d = m / s of each pair's per-split differences, labelled with the "
        f"thresholds of {_COHEN}. s is not corrected for the dependence between splits (the "
        "correction belongs to the variance of the mean, where the test applies it; see the "
        "report of a single comparison for its size).")]
    sig = table[table["reject"]]
    if len(sig):
        found = "; ".join(f"{r.better} is more accurate than "
                          f"{r.learner_b if r.better == r.learner_a else r.learner_a} "
                          f"({pts(abs(r.difference))} points, adjusted {p_eq(r.pvalue_adjusted)}"
                          f", d = {abs(r.effect_size):.2f}, "
                          f"{effect_size_magnitude(r.effect_size)})"
                          for r in sig.itertuples())
        verdict = f"{len(sig)} of the {len(table)} pairs differ significantly: {found}."
    else:
        verdict = f"No pair differs significantly after {correction}'s adjustment."
    text = (f"We compared {and_list(learners)} on {dname} with "
            f"{design_words(d) if d is not None else info.get('design', 'the design given')}, "
            f"every learner on the same partitions, with the {name} ({cite}) at α = {alpha:g} "
            f"and p-values adjusted for {len(table)} pairs with "
            f"{CORRECTION_WORDS.get(correction, correction)}. {verdict}")
    parts += [Heading("In words"), Paragraph(text)]
    parts += reproducibility(prov)
    return Report(f"{len(learners)} learners on {dname}: every pair", parts)




def _mean_of(table, lab) -> float:
    r = table[table["learner_a"] == lab]
    if len(r):
        return float(r["accuracy_a"].iloc[0])
    return float(table.loc[table["learner_b"] == lab, "accuracy_b"].iloc[0])


def pvalue_matrix(table, learners) -> pd.DataFrame:
    """Adjusted p-values as a learner × learner DataFrame (1 on the diagonal)."""
    m = pd.DataFrame(np.eye(len(learners)), index=pd.Index(learners, name="learner"),
                     columns=learners)
    for r in table.itertuples():
        m.loc[r.learner_a, r.learner_b] = m.loc[r.learner_b, r.learner_a] = r.pvalue_adjusted
    return m
