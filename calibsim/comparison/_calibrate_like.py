"""Calibrate a test on null data shaped like the user's (``calibsim calibrate --like``).

**The null.** A null data set must keep what matters of the user's data (its
attributes, their types and missing values, its size) while the two learners are
equally good on it. Permuting the class labels (:class:`calibsim.sources.DatasetSource`
with ``permute_class``) makes the class independent of the attributes but does not make
the learners equally good: a learner's expected accuracy on permuted labels is the
chance accuracy of its own predictions, Σ_c π_c q_c (π_c the class shares of the test
fold, q_c the share of its predictions in class c), highest for a learner that falls
back on the majority class. With an unbalanced prior C4.5 then beats naive Bayes (by
3.1 points on breast-cancer, 5.4 on hepatitis), and a calibration counts correct
rejections of that real difference as Type I errors.

So each null data set is the data with a **balanced** label vector permuted over its
instances (class counts differing by at most one: ``balance_class``), which gives every
learner the expected accuracy 1/C whatever it predicts (up to the rounding of class
counts into stratified folds), and every per-fold difference x of the pair is then
**centred** on its mean over the N null data sets,

    x'_ijk = x_ijk - (1/N) Σ_i' mean_jk x_i'jk,

which removes that small remainder (at most 0.6 points in the study below), so the two
learners are equally good on average by construction. Centring alone, on the data's own
prior, fails where the learners tie on most folds (both predict the majority class: a
zero-variance difference becomes a certain rejection once shifted);
``studies/null_construction.toml`` compares the four constructions on seven data sets
with majority shares from 58% to 89% (``figures/null_construction/``).

A second construction keeps the user's labels and prior: ``null="damaged"`` repeats the
design on the data (plan's runner) and damages the better learner by random errors until
both learners have the same expected accuracy (Dietterich 1998, §5;
:mod:`._null_damaged`); ``null="both"`` puts the two side by side.
``studies/null_real_vs_balanced.toml`` compares them on ten data sets
(``figures/null_real_vs_balanced/``, docs/guide/calibrate.md).

The calibration itself is the engine's ``calibrate`` (Bouckaert 2003) or
``calibrate_rho`` analysis with ``null = "centred"``, run as a study built in memory,
with the store, resume and Dask of every study.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..engine.user_data import data_source, describe_data
from ._null_damaged import DAMAGED_WORDS

__all__ = ["calibrate_like", "data_source", "NullCalibrationResult", "CalibrationInterrupted",
           "NULL_CONSTRUCTIONS", "df_precision"]

#: The null constructions :func:`calibrate_like` knows, by the name its ``null`` argument
#: and :attr:`NullCalibrationResult.null_construction` take, with what each is in words
#: (the start of ``NullCalibrationResult.null_sentence``): the balanced + centred null
#: (at a balanced class prior) and Dietterich's (1998, §5) damaged learner on the user's
#: own data, labels and prior. ``null="both"`` runs both; ``"balanced"`` names the first.
NULL_CONSTRUCTIONS = {
    "balanced_centred": (
        "balanced + centred (your attributes with a balanced label vector permuted over "
        "the instances, new partitions each, and every per-fold difference A − B centred "
        "on its mean over the null data sets)"),
    "damaged": DAMAGED_WORDS,
}

#: Why the default null is the default (one clause of the sentence ``calibsim calibrate
#: --like`` prints): the evidence of ``studies/null_real_vs_balanced.toml``
#: (``figures/null_real_vs_balanced/``, docs/guide/calibrate.md).
DEFAULT_NULL_REASON = (
    "the default, because the damaged null on all your data varies only the partitions, "
    "so its df answers a narrower question (on the ten data sets of "
    "studies/null_real_vs_balanced.toml the corrected repeated cv t stayed below α there "
    "even at the normal limit, and use all data's df was 109 to 335 against 6 to 12 on the "
    "balanced null)")


def null_choice_sentence(null: str, asked: bool) -> str:
    """Which null construction was used and why, in one plain sentence."""
    name = {"balanced_centred": "the balanced + centred null",
            "damaged": "the damaged real-data null (Dietterich 1998 §5)",
            "both": "both the balanced + centred and the damaged real-data null"}[null]
    if asked:
        return f"Null construction: {name}, as asked (null={null!r})."
    return f"Null construction: {name}, {DEFAULT_NULL_REASON}."


class CalibrationInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`calibrate_like`: what is saved, so a rerun resumes from it.

    Attributes
    ----------
    saved, total : int
        Null data sets whose scores are in the store, and how many were asked for.
    store : str
        The store's folder.
    """

    def __init__(self, saved: int, total: int, store: str):
        super().__init__(f"{saved} of {total} null data sets saved in {store}")
        self.saved, self.total, self.store = saved, total, store


def _learners_section(learners) -> dict:
    from ..engine.scoring import parse_learner
    section, names = {}, []
    for i, text in enumerate(learners):
        lrn = parse_learner(text, f"learner{i + 1}")
        if not isinstance(text, str):
            raise ValueError("`learners` must be given as strings here (a built-in name or "
                             f"'module.Class(param=value)'); got {text!r}.")
        label = lrn.label if lrn.label not in names else f"{lrn.label}_{i + 1}"
        names.append(label)
        if lrn.kind == "estimator" or lrn.params:
            key = "estimator" if lrn.kind == "estimator" else "kind"
            section[label] = {key: lrn.estimator if lrn.kind == "estimator" else lrn.kind,
                              **dict(lrn.params)}
    return {"names": names, **section}


def _tests_of(test, design, method) -> list:
    """The registry names asked for, checked against the design (one ValueError)."""
    from ..stats import get_test
    from ..stats import check_calibratable, check_fits_design
    if method == "bayes":
        if test not in (None, "bayes_correlated_t") and not (
                not isinstance(test, str) and list(test) == ["bayes_correlated_t"]):
            raise ValueError("`test` must be left out with method='bayes' (the correlated "
                             f"Bayesian t test's rho is calibrated); got {test!r}.")
        if design.kind != "cv":
            raise ValueError("method='bayes' calibrates the correlated Bayesian t test's rho "
                             f"for r x k cv designs; got design {design.name!r}.")
        return ["bayes_correlated_t"]
    names = [test] if isinstance(test, str) or test is None else list(test)
    if any(isinstance(n, str) and not n.strip() for n in names):
        raise ValueError(f"`test` must name a registered test (calibsim list tests); got an "
                         f"empty name in {test!r} (leave `test` out for the design's default).")
    if not names:
        raise ValueError("`test` must name at least one test; got an empty list.")
    out = []
    if design.kind == "holdout":
        raise ValueError(f"`design` {design.name!r}: the holdout tests take no df to "
                         "calibrate; calibrate on 'RxK', '5x2cv' or 'subsampling:N'.")
    for name in names:
        spec = get_test(name or design.default_test())
        check_calibratable(spec)              # McNemar's, the proportions test: no df
        check_fits_design(spec, design.kind, design.n_runs, design.n_folds, design.name)
        if spec.name in out:
            raise ValueError(f"`test` names {spec.name!r} twice.")
        out.append(spec.name)
    kinds = {get_test(t).scheme == "cv5x2" for t in out}
    if design.kind == "cv5x2" and len(kinds) > 1:
        raise ValueError(f"`test` must name tests on one kind of data at a time on 5x2cv "
                         f"(the 5x2cv tests, or the tests on r x k cv folds); got {out}.")
    return out


def _study_doc(data, learners, design, tests, alphas, n_datasets, seed, results, method,
               rope, class_attribute) -> dict:
    from ..stats import get_test
    d = design
    # the 5x2cv tests take the cv5x2 scheme; a test on r x k folds takes 5 runs of 2-fold cv
    five_by_two = d.kind == "cv5x2" and get_test(tests[0]).scheme == "cv5x2"
    scheme = ({"kind": "subsampling", "n_runs": d.n_runs, "test_fraction": d.test_fraction}
              if d.kind == "subsampling" else {"kind": "cv5x2"} if five_by_two else
              {"kind": "repeated_kfold", "n_folds": d.n_folds, "n_runs": d.n_runs})
    if method == "bayes":
        analysis = {"kind": "calibrate_rho", "tests": tests, "alphas": list(alphas),
                    "ropes": [float(rope)], "null": "centred", "runs": [d.n_runs]}
    else:
        analysis = {"kind": "calibrate", "tests": tests, "alphas": list(alphas),
                    "continuous": True, "null": "centred"}
        if not five_by_two:
            analysis["runs"] = [d.n_runs]
    source = {"kind": "dataset", "permute_class": True, "balance_class": True,
              "n_datasets": int(n_datasets), **data_source(data)}
    if class_attribute is not None:
        source["class_attribute"] = class_attribute
    name = "like_" + "".join(ch if ch.isalnum() else "_" for ch in Path(str(data)).stem)
    return {"study": {"name": name, "seed": int(seed), "block_size": 10},
            "sources": {"like": source}, "learners": _learners_section(learners),
            "schemes": {"s": scheme}, "analysis": [analysis],
            "outputs": {"results": str(Path(results).resolve())}}


from ..reports import Reportable  # noqa: E402


@dataclass(frozen=True)
class NullCalibrationResult(Reportable):
    """Outcome of :func:`calibrate_like`: a test's df (or the Bayesian t's ρ) calibrated on
    null data like the user's, with what the null was and how good the learners were on it.

    Attributes
    ----------
    data : str
        The data and its shape, e.g. ``"breast-cancer: 286 instances, ..."``.
    learners : tuple of str
        The two learners (A, B); differences are A − B.
    design : str
        E.g. ``"10x10"`` (r runs of stratified k-fold cv).
    method : {"frequentist", "bayes"}
    n_datasets : int
        Null data sets N (each the data with its labels permuted, new partitions).
    null : str
        What the null is, in words.
    null_construction : str
        Its name in :data:`NULL_CONSTRUCTIONS` (``"balanced_centred"``).
    null_prior, data_prior : tuple of float
        Class shares of the null's labels (balanced: about 1/C each) and of the
        user's data, in [0, 1], in class order.
    warnings : tuple of str
        Warnings about the calibration's precision, one per test and α whose df is
        not pinned down by the N null data sets (:func:`df_precision`; the table's
        ``precision_warning``); empty when there are none.
    accuracy_a, accuracy_b : float
        Mean accuracy of A and B over the null data sets and splits, in [0, 1]
        (before centring).
    accuracy_a_se, accuracy_b_se : float
        Their standard errors over the null data sets.
    null_difference, null_difference_se : float
        Mean difference A − B on the null, in accuracy units, and its SE: what the
        centring removes from every per-fold difference.
    table : pandas.DataFrame
        One row per test and α (frequentist: ``test, label, alpha, df, df_ci_low,
        df_ci_high`` (continuous df with its 95% distribution-free interval; ``inf``:
        the normal limit), ``integer_df`` (Bouckaert's rule; 0: no df keeps the Type I
        error ≤ α), ``type1_error`` (at the integer df), ``textbook_df``,
        ``type1_textbook``, ``shipped_df``, ``shipped_ci_low``, ``shipped_ci_high``
        (the shipped table's, NaN where it has none) and ``type1_at_shipped`` (the
        Type I error at the shipped df on this null), ``type1_normal_limit`` (at df →
        ∞), ``critical_spread``, ``too_wide`` and ``n_datasets_needed`` (whether N
        pins the df down, and an estimate of how many would: :func:`df_precision`),
        ``precision_warning`` (its sentence, "" when none), ``verdict`` (one
        sentence); Bayesian: ``threshold, rope, rho, rho_ci_low, rho_ci_high,
        decision_rate_default, decision_rate_calibrated, mc_se, shipped_rho,
        decision_rate_shipped`` (on the same check data sets), ``verdict`` (by the
        rule of ``_verdict_rho``: "holds" only when the decision rate at the shipped
        ρ is at most the target plus 2 Monte Carlo SE), ...). Rates are proportions
        in [0, 1].
    seed : int
    seconds : float
        Wall time of the call.
    """

    data: str
    learners: tuple
    design: str
    method: str
    n_datasets: int
    null: str
    accuracy_a: float
    accuracy_a_se: float
    accuracy_b: float
    accuracy_b_se: float
    null_difference: float
    null_difference_se: float
    table: pd.DataFrame = field(repr=False)
    seed: int = 0
    seconds: float = float("nan")
    call: str = field(default="", repr=False)
    command: str = field(default="", repr=False)
    null_construction: str = "balanced_centred"
    null_prior: tuple = ()
    data_prior: tuple = ()
    warnings: tuple = ()
    nulls: pd.DataFrame = field(default=None, repr=False, compare=False)

    @property
    def null_sentence(self) -> str:
        """Which null was used and at what prior, and the data's prior when it differs,
        in one plain sentence (printed, and in the report); with ``null="both"`` both
        constructions in one sentence."""
        what = "ρ" if self.method == "bayes" else "df"
        if self.null_construction == "both":
            return _both_sentence(self.nulls, self.data_prior)
        return _null_sentence(self.null_construction, self.null_prior, self.data_prior,
                              what)

    def to_frame(self) -> pd.DataFrame:
        """The calibration table (a copy): one row per test and α."""
        return self.table.copy()

    def __getitem__(self, key):            # ``result["alpha"]``: the table's column
        return self.table[key]

    def _report(self):
        return _null_report(self)

    def __str__(self) -> str:
        a, b = self.learners
        lines = [self.null_sentence]
        for _, n in self._nulls().iterrows():
            damaged = n["null"] == "damaged"
            lines += [
                f"null accuracy{' (damaged null)' if damaged else ''} (mean over the "
                f"{self.n_datasets} null data sets, ± SE): "
                f"{a} {100 * n['accuracy_a']:.2f}% ± {100 * n['accuracy_a_se']:.2f}, "
                f"{b} {100 * n['accuracy_b']:.2f}% ± {100 * n['accuracy_b_se']:.2f}",
                f"  difference {a} − {b} "
                + (f"with {n['damaged']} damaged at random-error rate "
                   f"{n['damage_rate']:.4f}: {100 * n['null_difference']:+.2f} ± "
                   f"{100 * n['null_difference_se']:.2f} points; the learners are equally "
                   "good in expectation by the damage (not centred)" if damaged else
                   f"on the balanced labels: {100 * n['null_difference']:+.2f} ± "
                   f"{100 * n['null_difference_se']:.2f} points; removed from every "
                   "per-fold difference (centred null), so the learners are equally good "
                   "on average")]
        for _, r in self.table.iterrows():
            lines.append("")
            if self.null_construction == "both":
                lines.append(f"[{_NULL_SHORT[r['null']]} null]")
            lines += (_bayes_lines(r, self.design) if self.method == "bayes"
                      else _df_lines(r, self.design))
        return "\n".join(lines)

    def _nulls(self) -> pd.DataFrame:
        if self.nulls is not None:
            return self.nulls
        return pd.DataFrame([{"null": self.null_construction, "accuracy_a": self.accuracy_a,
                              "accuracy_a_se": self.accuracy_a_se,
                              "accuracy_b": self.accuracy_b,
                              "accuracy_b_se": self.accuracy_b_se,
                              "null_difference": self.null_difference,
                              "null_difference_se": self.null_difference_se,
                              "damaged": "", "damage_rate": np.nan,
                              "null_prior": self.null_prior}])


#: Short names of the constructions (the table of ``null="both"``).
_NULL_SHORT = {"balanced_centred": "balanced + centred", "damaged": "damaged real-data"}


def _both_sentence(nulls, data_prior) -> str:
    """Both constructions in one sentence."""
    parts = [f"{_NULL_SHORT[n['null']]} at a class prior of {_shares(n['null_prior'])}"
             for _, n in nulls.iterrows()]
    return ("Both nulls were used, side by side (the table's column null): "
            + " and ".join(parts) + f"; your data's prior is {_shares(data_prior)}.")


def _shares(prior) -> str:
    return " / ".join(f"{100 * v:.1f}%" for v in prior)


def _null_sentence(construction, null_prior, data_prior, what="df") -> str:
    """"The null is balanced + centred (...), at a class prior of 50.0% / 50.0%; your
    data's prior is 81.0% / 19.0%, so the df is calibrated at a prior that is not
    yours." -- one sentence. The priors differ when a class share differs by more than
    one percentage point."""
    words = NULL_CONSTRUCTIONS.get(construction, construction)
    text = f"The null is {words}, at a class prior of {_shares(null_prior)}"
    if len(null_prior) == len(data_prior) and len(data_prior) and np.max(
            np.abs(np.subtract(null_prior, data_prior))) > 0.01:
        return (text + f"; your data's prior is {_shares(data_prior)}, so the {what} is "
                "calibrated at a prior that is not yours.")
    if len(data_prior):
        return text + f", your data's own prior ({_shares(data_prior)})."
    return text + "."


def _null_report(res):
    """The report of a :class:`NullCalibrationResult` (docs/guide/results.md): the question,
    the data, the null, the results and the verdicts in words."""
    from ..reports import Heading, Report
    from ..reports._words import reproducibility
    bayes = res.method == "bayes"
    tests = ("the correlated Bayesian t test" if bayes else
             ", ".join(dict.fromkeys(res.table["label"])))
    what = f"{'ρ' if bayes else 'df'} of {tests}"
    parts = [*_report_question(res, tests), *_report_null(res), Heading("Results"),
             *_report_results(res), *_report_words(res)]
    parts += reproducibility({"seed": res.seed, "call": res.call, "command": res.command})
    return Report(f"Calibrated {what} on null data like {res.data.split(':')[0]}", parts)


def _report_question(res, tests) -> list:
    """The report's question and its data, learners and design."""
    from ..reports import Heading, Paragraph
    a, b = res.learners
    bayes = res.method == "bayes"
    return [
        Heading("Question"),
        Paragraph(f"Which {'ρ' if bayes else 'df'} keeps the "
                  + ("decision rate" if bayes else "Type I error")
                  + f" of {tests} at its level when {a} and {b} are compared on data like "
                  f"{res.data.split(':')[0]} with design {res.design}?"),
        Heading("Data, learners and design"),
        Paragraph(f"{res.data}. Learners: {a} (A) and {b} (B); design {res.design}.")]


def _report_null(res) -> list:
    """The report's null: each construction in words, the sentence of its prior, and the
    learners' accuracies on it."""
    from ..reports import Heading, Paragraph, Table
    a, b = res.learners
    parts = [Heading("The null")]
    nulls = res._nulls()
    if (nulls["null"] == "balanced_centred").any():
        parts.append(Paragraph(
            f"Balanced + centred: {res.n_datasets} null data sets, each the data with a "
            "balanced label vector permuted over its instances (new partitions each), so "
            "the class depends on nothing and no learner gains by falling back on a majority "
            "class; every per-fold difference A − B is then centred on its mean over "
            "the null data sets, x' = x − (1/N) Σ mean(x), so that A and B are equally "
            "good on average by construction (studies/null_construction.toml)."))
    if (nulls["null"] == "damaged").any():
        parts.append(Paragraph(
            f"Damaged learner (Dietterich 1998, §5): {res.n_datasets} repeats of the design "
            "on your own data, labels and prior (new partitions each); the better learner "
            "makes random classification errors at the rate that gives both learners the "
            "same expected accuracy at the design's training-set size (calibsim."
            "calibrate_damage at Δ = 0, calibrated on the repeats as calibsim.plan does)."))
    parts += [
        Paragraph(res.null_sentence),
        Table(pd.DataFrame({
            "null": [_NULL_SHORT[v] for v in nulls["null"] for _ in (0, 1)],
            "learner": [v for _ in range(len(nulls)) for v in (a, b)],
            "null accuracy (%)": [100 * v for _, n in nulls.iterrows()
                                  for v in (n["accuracy_a"], n["accuracy_b"])],
            "SE (%)": [100 * v for _, n in nulls.iterrows()
                       for v in (n["accuracy_a_se"], n["accuracy_b_se"])]}),
              caption=f"Mean accuracy over the {res.n_datasets} null data sets (balanced: "
                      "before centring, 1/C is chance; damaged: after the damage); the "
                      "difference A − B: " + "; ".join(
                          f"{_NULL_SHORT[n['null']]} {100 * n['null_difference']:+.2f} ± "
                          f"{100 * n['null_difference_se']:.2f} points"
                          for _, n in nulls.iterrows()) + ".",
              formats={"null accuracy (%)": ".2f", "SE (%)": ".2f"})]
    return parts


def _report_results(res) -> list:
    """The report's results: the table of calibrated values (ρ or df) beside the shipped
    table's, and the note on infinite df where one appears."""
    from ..reports import Paragraph, Table
    t = res.table
    bayes = res.method == "bayes"
    if bayes:
        frame = pd.DataFrame({
            "threshold": t["threshold"], "ROPE (points)": 100 * t["rope"],
            "calibrated ρ": t["rho"], "95% interval": [f"{lo:.4f}–{hi:.4f}" for lo, hi in
                                                      zip(t["rho_ci_low"], t["rho_ci_high"])],
            "decision rate at ρ = 1/k (%)": 100 * t["decision_rate_default"],
            "at the calibrated ρ (%)": 100 * t["decision_rate_calibrated"],
            "shipped ρ": t["shipped_rho"],
            "at the shipped ρ (%)": 100 * t["decision_rate_shipped"],
            "Monte Carlo SE (%)": 100 * t["mc_se"]})
        formats = {"calibrated ρ": ".4f", "shipped ρ": ".4f",
                   "decision rate at ρ = 1/k (%)": ".1f", "at the calibrated ρ (%)": ".1f",
                   "at the shipped ρ (%)": ".1f", "Monte Carlo SE (%)": ".1f"}
    else:
        frame = pd.DataFrame({
            **({"null": [_NULL_SHORT[v] for v in t["null"]]}
               if res.null_construction == "both" else {}),
            "test": t["label"], "α": t["alpha"], "calibrated df": [_df_words(v) for v in t["df"]],
            "95% interval": [f"{_df_short(lo)} – {_df_short(hi)}" for lo, hi in
                             zip(t["df_ci_low"], t["df_ci_high"])],
            "integer df": t["integer_df"], "Type I at it (%)": 100 * t["type1_error"],
            "Type I at textbook df (%)": 100 * t["type1_textbook"],
            "shipped df": [_df_words(v) if np.isfinite(v) or v == np.inf else "—"
                           for v in t["shipped_df"]],
            "Type I at shipped df (%)": 100 * t["type1_at_shipped"]})
        formats = {"Type I at it (%)": ".1f", "Type I at textbook df (%)": ".1f",
                   "Type I at shipped df (%)": ".1f"}
    parts = [Table(frame, formats=formats,
                   caption="Continuous calibrated values with their 95% distribution-free "
                           "intervals (David & Nagaraja 2003, §7.1); the shipped table was "
                           "calibrated for naive Bayes vs C4.5 on 300-instance binary null "
                           "data.")]
    if not bayes and any(np.isinf(np.asarray(t[c], dtype=float)).any() for c in
                         ("df", "df_ci_low", "df_ci_high", "shipped_df")):
        from ..reports._words import INFINITE_DF
        parts.append(Paragraph(INFINITE_DF))
    return parts


def _report_words(res) -> list:
    """The report's precision warnings and its verdicts in words, one per row."""
    from ..reports import Heading, Paragraph
    t = res.table
    bayes = res.method == "bayes"
    return [*[Paragraph(w) for w in res.warnings],
            Heading("In words"),
            Paragraph(" ".join(f"{_NULL_SHORT[r['null']] + ' null, ' if res.null_construction == 'both' else ''}"
                               f"{r['label'] if not bayes else 'Threshold ' + str(r['threshold'])}"
                               f"{'' if bayes else ', α = ' + format(r['alpha'], 'g')}: "
                               f"{r['verdict']}" for _, r in t.iterrows()))]


def _pct(v) -> str:
    return "n/a" if not np.isfinite(v) else f"{100 * v:.1f}%"


def _df_short(v) -> str:
    return "∞" if v == np.inf else f"{v:.2f}"


def _df_words(v) -> str:
    return "∞ (normal limit)" if v == np.inf else f"{v:.2f}"


def _df_lines(r, design) -> list:
    hi = "∞" if r["df_ci_high"] == np.inf else f"{r['df_ci_high']:.2f}"
    integer = ("none of df 2..100 keeps the Type I error at or below α"
               if r["integer_df"] == 0 else
               f"integer df {int(r['integer_df'])} (Bouckaert's rule), Type I error "
               f"{_pct(r['type1_error'])}")
    lines = [f"{r['label']}, {design}, α = {r['alpha']:g}:",
             f"  calibrated df {_df_words(r['df'])}"
             + ("" if r["df"] == np.inf and r["df_ci_low"] == np.inf else
                f" (95% interval {_df_words(r['df_ci_low']) if r['df_ci_low'] != np.inf else '∞'}"
                f" to {hi})") + f"; {integer}",
             f"  at the textbook df {r['textbook_df']:g}: Type I error "
             f"{_pct(r['type1_textbook'])}"]
    if np.isfinite(r["shipped_df"]) or r["shipped_df"] == np.inf:
        lines.append(f"  shipped table (naive Bayes vs C4.5, 300-instance binary null data): "
                     f"df {_df_words(r['shipped_df'])} [{_df_words(r['shipped_ci_low'])}, "
                     f"{_df_words(r['shipped_ci_high'])}]; Type I error at it on this null "
                     f"{_pct(r['type1_at_shipped'])}")
    lines.append(f"  {r['verdict']}")
    if r.get("precision_warning"):
        lines.append(f"  {r['precision_warning']}")
    return lines


def _bayes_lines(r, design) -> list:
    lines = [f"correlated Bayesian t, {design}, threshold {r['threshold']:g}, ROPE "
             f"±{100 * r['rope']:g} points:",
             f"  calibrated rho {r['rho']:.4f} (95% interval {r['rho_ci_low']:.4f} to "
             f"{r['rho_ci_high']:.4f}; calibrated on {int(r['n_calibration'])} null data sets)",
             f"  decision rate on the other {int(r['n_check'])} null data sets: "
             f"{_pct(r['decision_rate_calibrated'])} at the calibrated rho, "
             f"{_pct(r['decision_rate_default'])} at rho = 1/k = {r['rho_default']:.3g}"
             + (f", {_pct(r['decision_rate_shipped'])} at the shipped rho"
                if np.isfinite(r.get("decision_rate_shipped", np.nan)) else "")
             + f" (target at most {_pct(1 - r['threshold'])}, Monte Carlo SE "
             f"{_pct(r['mc_se'])})"]
    if np.isfinite(r["shipped_rho"]):
        lines.append(f"  shipped table (naive Bayes vs C4.5, 300-instance binary null data): "
                     f"rho {r['shipped_rho']:.4f} [{r['shipped_ci_low']:.4f}, "
                     f"{r['shipped_ci_high']:.4f}]")
    lines.append(f"  {r['verdict']}")
    return lines


def _verdict_df(s_df, type1_shipped, alpha, n) -> str:
    """One plain sentence: does the shipped df keep the Type I error at α on this null?

    The evidence is the Type I error of the test at the shipped df on these null data
    sets, against α with its Monte Carlo SE sqrt(α(1 − α)/N): within 2 SE it holds,
    above it rejects too often, below it is conservative."""
    if not (np.isfinite(s_df) or s_df == np.inf):
        return ("The shipped table has no entry for this test, design and α: use the "
                "calibrated df above.")
    se = np.sqrt(alpha * (1 - alpha) / n)
    at = (f"Type I error {100 * type1_shipped:.1f}% at it against α = {100 * alpha:g}%, "
          f"Monte Carlo SE {100 * se:.1f}%")
    if type1_shipped > alpha + 2 * se:
        return (f"The shipped df rejects too often on data like yours ({at}): use the "
                "calibrated df.")
    if type1_shipped < alpha - 2 * se:
        return (f"The shipped df is conservative on data like yours ({at}): the calibrated "
                "df uses α fully.")
    return f"The shipped df holds for data like yours ({at})."


#: Default of ``max_spread``: the df's 95% interval may move the test's critical value
#: by at most this share of its value at the calibrated df before a warning.
MAX_SPREAD = 0.05


def _critical(df, alpha) -> float:
    """Two-sided critical value t_{1−α/2}(df): the normal one at df = ∞, ∞ at df = 0."""
    from scipy import stats
    if df == np.inf:
        return float(stats.norm.ppf(1 - alpha / 2))
    if not df > 0:
        return np.inf
    return float(stats.t.ppf(1 - alpha / 2, df))


def df_precision(df, ci_low, ci_high, alpha, n_datasets, p_normal, *,
                 max_spread=MAX_SPREAD, confidence_level=0.95) -> dict:
    """Whether N null data sets pin the calibrated df down, and if not, how many would.

    **Width.** A df interval is judged by what it does to the test: the relative
    spread of the two-sided critical value c(df) = t_{1−α/2}(df) over it,

        spread = (c(ci_low) − c(ci_high)) / c(df),

    with c(∞) the normal quantile and c(0) = ∞. It puts every df on one scale (df 107
    to 344 moves c by under 1%, df 12 to ∞ by 11%), and an upper end at ∞ adds only
    the step to the normal limit; an interval that is ∞ to ∞ (the test is
    conservative even at the normal limit) has spread 0. A warning is due when the
    spread exceeds ``max_spread`` or the interval is unbounded below (ci_low = 0).

    **How many would be needed (an estimate).** The interval's ends are order
    statistics at the ranks l and u of :func:`calibsim.calibration.quantile_interval`,
    where the empirical Type I error F is l/N and u/N: about α ∓ z·√(α(1 − α)/N),
    z = 1.96, the binomial Monte Carlo error of the Type I error near α. Through the
    slope s = dF/dc of the Type I error against the critical value, the interval's
    spread in c is about 2z·√(α(1 − α)/N) / s, so it narrows as 1/√N, and

        N_needed = α(1 − α) · (2z / (s · max_spread · c(df)))².

    The slope is the secant between the two points of (F, c) known farthest apart:
    the lower end (l/N, c(ci_low)), else the calibrated df ((⌊αN⌋ + 1)/N, c(df));
    and the upper end (u/N, c(ci_high)), or, when it is ∞, the normal limit
    (``p_normal``, c(∞)), the share of the null data sets rejected at df → ∞. The
    estimate assumes the Type I error is close to linear in c across the interval;
    it is rounded up to two significant digits and is at least 2N. It cannot be made
    (NaN) when fewer than two such points exist or the Type I error does not rise
    between them.

    Parameters
    ----------
    df, ci_low, ci_high : float
        Continuous calibrated df and its interval (0 / inf: an unbounded side).
    alpha : float
        The level, in (0, 1).
    n_datasets : int
        Null data sets N.
    p_normal : float
        Share of them the test rejects at the normal limit (df → ∞), in [0, 1].
    max_spread : float, default 0.05
        Largest spread allowed, in (0, 1).
    confidence_level : float, default 0.95
        Of the interval.

    Returns
    -------
    dict
        ``spread`` (float, ≥ 0, inf when unbounded below), ``too_wide`` (bool) and
        ``n_needed`` (float: the estimate, NaN when not needed or not estimable).

    Raises
    ------
    ValueError
        If ``max_spread`` is not in (0, 1).

    Examples
    --------
    >>> r = df_precision(88.82, 12.15, np.inf, 0.05, 100, p_normal=0.07)
    >>> round(r["spread"], 3), r["too_wide"], r["n_needed"] > 100
    (0.109, True, True)
    >>> df_precision(9.9, 9.6, 10.2, 0.05, 10000, p_normal=0.3)["too_wide"]
    False
    """
    from scipy import stats
    from ..calibration import quantile_interval
    if isinstance(max_spread, bool) or not isinstance(max_spread, (int, float)) or not (
            0 < max_spread < 1):
        raise ValueError(f"`max_spread` must be a number in (0, 1); got {max_spread!r}.")
    n = int(n_datasets)
    c_df = _critical(df, alpha)
    if ci_low == np.inf:                          # conservative even at the normal limit
        return {"spread": 0.0, "too_wide": False, "n_needed": np.nan}
    c_lo, c_hi = _critical(ci_low, alpha), _critical(ci_high, alpha)
    spread = (c_lo - c_hi) / c_df if np.isfinite(c_df) else np.inf
    too_wide = bool(not spread <= max_spread)
    if not too_wide:
        return {"spread": float(spread), "too_wide": False, "n_needed": np.nan}
    l_rank, u_rank, _ = quantile_interval(n, alpha, confidence_level)
    points = []
    if l_rank >= 1 and np.isfinite(c_lo):
        points.append((l_rank / n, c_lo))
    elif np.isfinite(c_df) and df != np.inf:
        points.append(((np.floor(alpha * n) + 1) / n, c_df))
    if ci_high != np.inf:
        points.append((u_rank / n, c_hi))
    else:
        points.append((float(p_normal), c_hi))
    n_needed = np.nan
    if len(points) == 2:
        (f1, c1), (f2, c2) = points
        slope = (f2 - f1) / (c1 - c2) if c1 > c2 else np.nan
        if np.isfinite(slope) and slope > 0:
            z = stats.norm.ppf(0.5 + confidence_level / 2)
            est = alpha * (1 - alpha) * (2 * z / (slope * max_spread * c_df)) ** 2
            est = max(est, 2.0 * n)
            digits = 10 ** max(0, int(np.floor(np.log10(est))) - 1)
            n_needed = float(np.ceil(est / digits) * digits)
    return {"spread": float(spread), "too_wide": True, "n_needed": n_needed}


def _precision_warning(r, n, max_spread) -> str:
    """The one-paragraph warning of a frequentist row whose df is not pinned down."""
    if not r["too_wide"]:
        return ""
    lo, hi = r["df_ci_low"], r["df_ci_high"]
    interval = f"{_df_short(lo) if lo > 0 else '0'} to {_df_short(hi)}"
    bounded = ("unbounded below" if not lo > 0 else "unbounded above" if hi == np.inf
               else "")
    what = (f"its 95% interval {interval} is {bounded} and" if bounded else
            f"its 95% interval {interval}")
    spread = ("without limit" if r["critical_spread"] == np.inf else
              f"by {100 * r['critical_spread']:.1f}% of its value at df {_df_short(r['df'])}")
    head = (f"Warning: {n} null data sets do not pin the df down: {what} moves the critical "
            f"value t(1 − α/2, df) {spread} (more than the {100 * max_spread:g}% allowed).")
    if np.isfinite(r["n_datasets_needed"]):
        return (head + f" About {int(r['n_datasets_needed']):,} null data sets would be "
                "needed: an estimate, from the binomial Monte Carlo error of the Type I "
                "error near α and the slope of the Type I error against the critical value "
                "(the interval narrows as 1/√N).")
    return (head + " How many would be needed cannot be estimated from these data (the "
            "Type I error hardly rises across the interval); try ten times as many.")


def _verdict_rho(shipped_rho, rate_shipped, rate_calibrated, target, se, n_check) -> str:
    """One plain sentence: does the shipped ρ keep the decision rate at its target?

    The rule: the decision rate r of the correlated Bayesian t test at the shipped ρ,
    on the n null data sets held out for the check, against the target 1 − threshold
    (at most), with the binomial Monte Carlo SE = √(target(1 − target)/n):

    - r − target > 2·SE: the shipped ρ decides too often ("does not hold");
    - r − target < −2·SE: it is conservative (holds, deciding less often than it may);
    - otherwise, |r − target| ≤ 2·SE: it holds.

    So "holds" is said only when r ≤ target + 2·SE. The calibrated ρ's own rate on
    the same held-out data sets is judged by the same rule: above target + 2·SE the
    sentence adds that the null data sets are too few to calibrate ρ."""
    at = (f"decision rate {100 * rate_shipped:.1f}% at it on the {n_check} check null data "
          f"sets against a target of at most {100 * target:g}%, Monte Carlo SE "
          f"{100 * se:.1f}%")
    if not np.isfinite(shipped_rho):
        out = "The shipped table has no entry for this design: use the calibrated rho."
    elif rate_shipped - target > 2 * se:
        out = (f"The shipped rho does not hold for data like yours: it decides too often "
               f"({at}; more than 2 SE above the target): use the calibrated rho.")
    elif rate_shipped - target < -2 * se:
        out = (f"The shipped rho holds for data like yours and is conservative ({at}; more "
               "than 2 SE below the target): the calibrated rho decides more often at the "
               "same threshold.")
    else:
        out = f"The shipped rho holds for data like yours ({at}; within 2 SE)."
    if rate_calibrated - target > 2 * se:
        out += (f" The calibrated rho also decides too often on the check data sets "
                f"({100 * rate_calibrated:.1f}%, more than 2 SE above the target): the null "
                "data sets are too few to calibrate rho; use more.")
    return out


def _frequentist_table(study, analysis, scores, rows, max_spread=MAX_SPREAD) -> pd.DataFrame:
    """The table of :class:`NullCalibrationResult` from the calibrate analysis's ``rows``;
    ``scores`` are the centred differences (for the Type I error at the shipped df and
    at the normal limit, which :func:`df_precision` needs)."""
    from ..engine.analyses import test_callable, test_data
    out = []
    for _, r in rows.iterrows():
        pair = (r["pair_a"], r["pair_b"])
        x = test_data(scores, r["source"], r["scheme"], r["test"], pair, int(r["n_runs"]))
        func = test_callable(r["test"], study, study.source(r["source"]), r["scheme"])
        out.append(df_row(
            r["test"], float(r["alpha"]), x, func, df=float(r["df_continuous"]),
            df_ci_low=float(r["df_ci_low"]), df_ci_high=float(r["df_ci_high"]),
            integer_df=int(r["calibrated_df"]), type1_error=float(r["type1_error"]),
            textbook_df=float(r["default_df"]), type1_textbook=float(r["type1_default"]),
            n_runs=int(r["n_runs"]), n_folds=int(r["n_folds"]),
            n_datasets=int(r["n_datasets"]), max_spread=max_spread))
    return _with_warnings(pd.DataFrame(out), max_spread)


def _with_warnings(table, max_spread) -> pd.DataFrame:
    table["precision_warning"] = [_precision_warning(r, int(r["n_datasets"]), max_spread)
                                  for _, r in table.iterrows()]
    return table


def df_row(test, alpha, x, func, *, df, df_ci_low, df_ci_high, integer_df, type1_error,
           textbook_df, type1_textbook, n_runs, n_folds, n_datasets,
           max_spread=MAX_SPREAD) -> dict:
    """One frequentist row of :class:`NullCalibrationResult`'s table, whatever the null:
    the calibration's numbers beside the shipped table's df, the Type I error at it and
    at the normal limit on the null data ``x`` (``func(x, df)`` runs the test), the
    precision of the df (:func:`df_precision`) and the verdict."""
    from ..calibration import lookup_df
    from ..stats import get_test
    try:
        e = lookup_df(test, alpha=alpha, n_folds=n_folds, n_runs=n_runs)
        s_df, s_lo, s_hi = e.df, e.ci_low, e.ci_high
    except ValueError:
        e, s_df, s_lo, s_hi = None, np.nan, np.nan, np.nan
    type1_shipped = np.nan
    if e is not None:
        at = s_df if np.isfinite(s_df) else 1e6
        p = np.asarray(func(x, at).pvalue, dtype=float)
        type1_shipped = float(np.mean(p <= alpha))
    # the normal limit: the threshold search's upper bound (calibsim.calibration)
    p_normal = float(np.mean(np.asarray(func(x, 1e6).pvalue, dtype=float) <= alpha))
    prec = df_precision(df, df_ci_low, df_ci_high, alpha, n_datasets, p_normal,
                        max_spread=max_spread)
    return {"test": test, "label": get_test(test).label, "alpha": alpha, "df": df,
            "df_ci_low": df_ci_low, "df_ci_high": df_ci_high, "integer_df": integer_df,
            "type1_error": type1_error, "textbook_df": textbook_df,
            "type1_textbook": type1_textbook,
            "shipped_df": s_df, "shipped_ci_low": s_lo, "shipped_ci_high": s_hi,
            "type1_at_shipped": type1_shipped, "n_runs": n_runs, "n_folds": n_folds,
            "n_datasets": n_datasets, "type1_normal_limit": p_normal,
            "critical_spread": prec["spread"], "too_wide": prec["too_wide"],
            "n_datasets_needed": prec["n_needed"],
            "verdict": _verdict_df(s_df, type1_shipped, alpha, n_datasets)}


def damaged_table(x, design, tests, alphas, max_spread) -> pd.DataFrame:
    """The frequentist table of :class:`NullCalibrationResult` on the damaged null ``x``
    (:func:`damaged_differences`): the same columns as the balanced null's, the df
    calibrated on ``x`` by :func:`calibsim.calibration.calibrate` (Bouckaert's integer
    rule on df 2..100) and :func:`calibsim.calibration.continuous_calibration` (the
    continuous df with its distribution-free 95% interval)."""
    from ..calibration import calibrate, continuous_calibration
    from ..stats import get_test
    from ..engine.scoring import run_test
    rows = []
    for name in tests:
        spec = get_test(name)

        def func(data, df, spec=spec):
            return run_test(spec, data, df, design)
        func.__name__ = spec.name
        xt = x
        integer = calibrate(func, xt, alphas=list(alphas), dfs=np.arange(2, 101))
        textbook = float(spec.default_df(design.n_runs, design.n_folds))
        p_text = np.asarray(func(xt, textbook).pvalue, dtype=float)
        for i, alpha in enumerate(alphas):
            cont = continuous_calibration(func, xt, float(alpha))
            rows.append(df_row(
                spec.name, float(alpha), xt, func, df=float(cont.df),
                df_ci_low=float(cont.ci_low), df_ci_high=float(cont.ci_high),
                integer_df=int(integer.calibrated_df[i]),
                type1_error=float(integer.type1_at_df[i]), textbook_df=textbook,
                type1_textbook=float(np.mean(p_text <= alpha)), n_runs=int(design.n_runs),
                n_folds=int(design.n_folds), n_datasets=int(x.shape[0]),
                max_spread=max_spread))
    return _with_warnings(pd.DataFrame(rows), max_spread)


def _bayes_table(rows, study=None, scores=None) -> pd.DataFrame:
    """The Bayesian table of :class:`NullCalibrationResult`; ``scores`` are the centred
    differences, for the decision rate at the shipped ρ on the check half."""
    from ..calibration import decision_rate, lookup_rho
    from ..engine.analyses import test_data
    out = []
    for _, r in rows.iterrows():
        try:
            e = lookup_rho(threshold=float(r["threshold"]), rope=float(r["rope"]),
                           n_folds=int(r["n_folds"]), n_runs=int(r["n_runs"]))
            s, lo, hi = e.rho, e.ci_low, e.ci_high
        except ValueError:
            s = lo = hi = np.nan
        rate_shipped = np.nan
        if np.isfinite(s) and scores is not None:
            x = test_data(scores, r["source"], r["scheme"], r["test"],
                          (r["pair_a"], r["pair_b"]), int(r["n_runs"]))
            fresh = x[int(r["n_calibration"]):]          # the check half, as rho_rows's
            rate_shipped = decision_rate(fresh, rho=s, rope=float(r["rope"]),
                                         threshold=float(r["threshold"]))
        verdict = _verdict_rho(s, rate_shipped, float(r["decision_rate_calibrated"]),
                               1 - float(r["threshold"]), float(r["mc_se"]),
                               int(r["n_check"]))
        out.append({**{k: r[k] for k in ("threshold", "rope", "rho", "rho_ci_low",
                                         "rho_ci_high", "coverage", "rho_default",
                                         "decision_rate_default", "decision_rate_calibrated",
                                         "mc_se", "n_calibration", "n_check", "n_runs",
                                         "n_folds")},
                    "shipped_rho": s, "shipped_ci_low": lo, "shipped_ci_high": hi,
                    "decision_rate_shipped": rate_shipped, "verdict": verdict})
    return pd.DataFrame(out)


def plan_text(data_line, learners, design, tests, alphas, n_datasets, method, rope=0.0,
              null="balanced_centred") -> str:
    """What :func:`calibrate_like` is about to do, in a few lines (printed before the work)."""
    from ..stats import get_test
    d = design
    how = (f"{d.n_runs} runs of stratified {d.n_folds}-fold cv" if d.kind == "cv" else
           "5 x 2 cv" if d.kind == "cv5x2" else
           f"{d.n_runs} random {100 * (1 - d.test_fraction):.0f}/"
           f"{100 * d.test_fraction:.0f} subsamples")
    what = ("the correlated Bayesian t test's rho, threshold(s) "
            + ", ".join(f"{1 - a:g}" for a in alphas) + f", ROPE ±{100 * rope:g} points"
            if method == "bayes" else
            "test(s) " + ", ".join(get_test(t).label for t in tests) + "; α "
            + ", ".join(f"{a:g}" for a in alphas))
    return "\n".join([
        f"data: {data_line}",
        f"learners: {learners[0]} (A) vs {learners[1]} (B)",
        f"design: {d.name} ({how})",
        f"calibrating: {what}",
        *(f"null: {n_datasets} data sets, {NULL_CONSTRUCTIONS[n]}" for n in
          (("balanced_centred", "damaged") if null == "both" else (null,)))])


def calibrate_like(data, learners=("naive_bayes", "c45"), *, design="10x10", test=None,
                   alphas=(0.05,), n_datasets: int = 1000, method: str = "frequentist",
                   rope: float = 0.0, seed: int = 0, results="results", n_jobs=None,
                   scheduler=None, progress=True, on_estimate=None, on_plan=None,
                   class_attribute=None, null="balanced_centred",
                   max_spread=MAX_SPREAD, n_instances=None) -> NullCalibrationResult:
    """Calibrate a test's df, or the correlated Bayesian t's ρ, on null data like ``data``.

    Each of the ``n_datasets`` null data sets is ``data`` with a balanced label vector
    permuted over its instances (new partitions each), and every per-fold difference of
    the two learners is centred on the pair's mean difference over all the null data
    sets, so that the learners are equally good on average by construction (module
    docstring: permuting the data's own labels favours a learner that falls back on the
    majority class whenever the prior is unbalanced). The df is then calibrated as
    Bouckaert (2003) does, with the continuous df and its distribution-free interval; with ``method="bayes"`` the ρ of the
    correlated Bayesian t test (Corani & Benavoli 2015) at which it decides on at most
    1 − threshold of the null data sets, calibrated on one half and checked on the other.

    Parameters
    ----------
    data : str
        A shipped UCI name, an ARFF or CSV path or a scikit-learn loader
        (``"sklearn:load_breast_cancer"``).
    learners : sequence of two str, default ("naive_bayes", "c45")
        Built-in names or ``"module.Class(param=value, ...)"``.
    design : str, default "10x10"
        As for :func:`calibsim.compare`.
    test : str or sequence of str, optional
        Test(s) of :data:`calibsim.stats.TESTS` that fit the design; default the
        design's default test (:func:`calibsim.compare`). Left out with
        ``method="bayes"``.
    alphas : sequence of float, default (0.05,)
        Significance levels α in (0, 1); with ``method="bayes"`` the thresholds are
        1 − α (0.05 -> 0.95).
    n_datasets : int, default 1000
        Null data sets N.
    method : {"frequentist", "bayes"}, default "frequentist"
    rope : float, default 0
        With ``method="bayes"``: half-width of the region of practical equivalence,
        in accuracy units (0.01 = one point).
    seed : int, default 0
        Root of every permutation's and partition's ``SeedSequence``.
    results : path-like, default "results"
        Parent folder of the score store (an interrupted run resumes from it).
    n_jobs, scheduler
        Local worker processes (default: all cores; a loky pool, which works from a
        plain script, a notebook and the command line) or a running Dask scheduler's
        address; ``n_jobs=0`` runs here.
    progress : bool or calibsim.engine.runner.Progress, default True
        A bar once the run takes more than 3 s (terminal or notebook); False: silent;
        or a progress display of the caller's.
    on_estimate : callable, optional
        Called with ``(seconds_per_dataset, estimated_total_seconds)`` after one
        null data set has been timed in this process, before the rest start (the
        data set is run twice, and the second run timed, so compiling is not counted;
        CPU seconds, so that workers starting meanwhile do not inflate it).
    on_plan : callable, optional
        Called with :func:`plan_text` (what is about to run) before any fitting.
    class_attribute : str, optional
        Class column of an ARFF or CSV file (default: the last).
    null : {"balanced_centred", "balanced", "damaged", "both"}, default "balanced_centred"
        The null construction (:data:`NULL_CONSTRUCTIONS`). ``"balanced_centred"`` (or
        ``"balanced"``): the balanced label vector with centred differences, which
        calibrates at a balanced class prior whatever the data's. ``"damaged"``:
        Dietterich's (1998, §5) damaged learner on your own data, labels and prior:
        N repeats of the design with new partitions, fitted by :func:`calibsim.plan`'s
        runner, the better learner given random errors at the rate of
        :func:`calibsim.calibrate_damage` at Δ = 0 (``null_prior`` is then the data's
        prior; frequentist only). ``"both"``: both, side by side in one table whose
        column ``null`` names the construction. The result's ``null_sentence`` says
        which was used.
    max_spread : float, default 0.05
        How wide the df's 95% interval may be before ``result.warnings`` says N is too
        small: the largest share by which it may move the test's critical value
        (:func:`df_precision`, which also estimates the N needed).
    n_instances : int, optional
        With ``null="damaged"`` or ``"both"``: each damaged repeat is a random
        subsample of this many instances (new data per repeat, as Dietterich drew
        his), so the Type I error varies the data as well as the partitions. Default:
        every repeat holds all the data, and the damaged null's rates are conditional on
        your data set (the corrected t tests, which allow for the variation between
        data sets, then reject less than α even at the normal limit).

    Returns
    -------
    NullCalibrationResult

    Raises
    ------
    ValueError
        For unknown data, learners, design or test, a test that does not fit the
        design, ``method="bayes"`` with a design that is not r x k cv or with a
        ``null`` other than the balanced one, or an unknown ``null``.
    CalibrationInterrupted
        On Ctrl-C while the null data sets are scored (a ``KeyboardInterrupt`` that says
        how many are saved; calling again with the same arguments resumes).

    Examples
    --------
    >>> res = calibrate_like("iris", design="2x5", n_datasets=20, n_jobs=0,
    ...                      results=getfixture("tmp_path"))
    >>> res.table[["label", "n_runs", "n_folds", "alpha", "n_datasets"]].to_string(index=False)
    '                label  n_runs  n_folds  alpha  n_datasets\\ncorrected repeated cv       2        5   0.05          20'
    >>> bool(abs(res.null_difference) < 1), res.learners
    (True, ('naive_bayes', 'c45'))
    """
    from ..engine.runner import Progress
    from ..engine.scoring import parse_design
    t_start = time.perf_counter()
    n_datasets, seed, null, n_instances = _check_like_args(
        learners, method, alphas, rope, n_datasets, seed, null, n_instances, max_spread)
    d = parse_design(design)
    tests = _tests_of(test, d, method)
    name, study = _like_study(data, learners, d, tests, alphas, n_datasets, seed, results,
                              method, rope, class_attribute)
    dataset = study.sources[0].build().dataset
    if on_plan is not None:
        on_plan(plan_text(describe_data(dataset, str(data)),
                          [lrn.label for lrn in study.learners], d, tests, alphas,
                          n_datasets, method, rope, null))
    data_prior, balanced_prior = _class_priors(dataset)
    tables, nulls = [], []
    own = isinstance(progress, bool)
    show = progress if own else bool(getattr(progress, "enabled", True))   # damaged null's bar
    if own:
        progress = Progress(progress, f"calibrate {name}", delay=3.0, notebook=True)
    if null in ("balanced_centred", "both"):
        try:
            scores = _balanced_scores(study, n_datasets, null, n_jobs=n_jobs,
                                      scheduler=scheduler, progress=progress,
                                      on_estimate=on_estimate)
        finally:
            if own and null != "both":
                progress.close()
        table, row = _balanced_table(study, scores, method, max_spread, balanced_prior)
        tables.append(table)
        nulls.append(row)
    if null in ("damaged", "both"):
        try:
            x, info = _damaged_null(dataset, learners, d, seed, n_datasets, n_jobs=n_jobs,
                                    scheduler=scheduler, progress=show, results=results,
                                    n_instances=n_instances)
        finally:
            if own:
                progress.close()
        tables.append(damaged_table(x, d, tests, alphas, max_spread))
        nulls.append({"null": "damaged", **{k: info[k] for k in _NULL_NUMBERS},
                      "damaged": info["damaged"], "damage_rate": info["damage_rate"],
                      "null_prior": data_prior})
    call = _call_text(data, learners, design, tests, alphas, n_datasets, method, rope, seed,
                      class_attribute, null, max_spread, n_instances)
    return _like_result(data, dataset, study, d, method, n_datasets, null, tables, nulls,
                        seed=seed, t_start=t_start, data_prior=data_prior, call=call)


# ---------------------------------------------------------------------------
# the steps of calibrate_like: validate, the study, the priors, each null, the result

def _check_like_args(learners, method, alphas, rope, n_datasets, seed, null, n_instances,
                     max_spread) -> tuple:
    """The arguments of :func:`calibrate_like` checked, in the order of its errors:
    ``(n_datasets, seed, null, n_instances)`` as it uses them."""
    if len(learners) != 2:
        raise ValueError(f"`learners` must name two learners; got {list(learners)}.")
    if method not in ("frequentist", "bayes"):
        raise ValueError(f"`method` must be 'frequentist' or 'bayes'; got {method!r}.")
    if method == "bayes":
        from ..stats._bayes import _iv_common
        for a in alphas:
            _iv_common(rope, 1 - a)
    from .._validation import check_int
    n_datasets = check_int("n_datasets", n_datasets, min_value=1)   # not int(True), int(3.5)
    seed = check_int("seed", seed, min_value=0)
    null = check_null(null)
    if n_instances is not None:
        n_instances = check_int("n_instances", n_instances, min_value=2)
        if null == "balanced_centred":
            raise ValueError("`n_instances` subsamples the damaged null's repeats: it needs "
                             f"null='damaged' or 'both'; got null={null!r}.")
    if method == "bayes" and null != "balanced_centred":
        raise ValueError(f"`null` must be 'balanced_centred' with method='bayes' (rho is "
                         f"calibrated on the balanced + centred null only); got {null!r}.")
    df_precision(9.0, 9.0, 9.0, 0.05, 1, 0.0, max_spread=max_spread)   # checks max_spread
    return n_datasets, seed, null, n_instances


def _like_study(data, learners, d, tests, alphas, n_datasets, seed, results, method, rope,
                class_attribute) -> tuple:
    """``(name, study)``: the balanced null's study (:func:`_study_doc`), built in memory."""
    from ..engine.spec import study_from_dict
    doc = _study_doc(data, learners, d, tests, alphas, n_datasets, seed, results, method,
                     rope, class_attribute)
    name = doc["study"]["name"]
    return name, study_from_dict(doc, Path.cwd() / f"{name}.toml")


def _class_priors(dataset) -> tuple:
    """``(data_prior, balanced_prior)``: the class shares of the data and of the balanced
    null's label vector (class counts differing by at most one), in class order."""
    n_classes = int(dataset.n_classes)
    counts = np.bincount(np.asarray(dataset.y), minlength=n_classes)
    data_prior = tuple(float(v) for v in counts / counts.sum())
    balanced = np.full(n_classes, counts.sum() // n_classes)
    balanced[:counts.sum() % n_classes] += 1          # counts differing by at most one
    return data_prior, tuple(float(v) for v in balanced / balanced.sum())


def _time_one_dataset(study, n_datasets, null, *, n_jobs, scheduler, on_estimate) -> None:
    """Time one null data set in this process (after compiling) and hand the estimate to
    ``on_estimate(seconds_per_dataset, estimated_total_seconds)``."""
    from ..engine.cells import CellSpec, run_cell
    from ..engine.runner import warm_up
    warm_up()                      # numba compiles (or loads) outside the timing
    cell = CellSpec(study.sources[0], study.learners, study.schemes, 0, 1)
    run_cell(cell)                 # this data's own kernels compile here ...
    t0 = time.process_time()    # CPU time: the workers may be starting
    run_cell(cell)                 # ... so this one is timed without compiling
    per = time.process_time() - t0
    workers = n_jobs if n_jobs is not None else (1 if scheduler else _cores())
    factor = 2 if null == "both" else 1        # the damaged null: as many fits
    on_estimate(per, factor * per * n_datasets / max(1, workers))


def _balanced_scores(study, n_datasets, null, *, n_jobs, scheduler, progress, on_estimate):
    """The scores of the balanced null's data sets, computed (or read from the store) by the
    engine on a local pool or a Dask cluster; Ctrl-C raises :class:`CalibrationInterrupted`
    with what the store holds."""
    from ..engine.run import compute_scores
    from ..engine.runner import cluster
    try:
        if on_estimate is not None:
            _time_one_dataset(study, n_datasets, null, n_jobs=n_jobs, scheduler=scheduler,
                              on_estimate=on_estimate)
        with cluster(scheduler=scheduler, n_workers=n_jobs) as client:
            return compute_scores(study, client=client, progress=progress)
    except KeyboardInterrupt:
        from ..engine.run import missing_datasets, store_of
        store = store_of(study)
        missing = missing_datasets(study, store)
        raise CalibrationInterrupted(n_datasets - missing, n_datasets,
                                     str(store.root)) from None


def _balanced_table(study, scores, method, max_spread, balanced_prior) -> tuple:
    """``(table, null)``: the calibration table on the balanced + centred null (the engine's
    ``calibrate`` or ``calibrate_rho`` rows) and the null's accuracies."""
    from ..engine.analyses import (SameDifferences, block_summaries, calibration_rows,
                                   null_centres, rho_rows)
    analysis = study.analyses[0]
    summaries = block_summaries(study, [analysis], scores, null_only=True)
    centred = SameDifferences(scores, null_centres(study, [analysis], summaries))
    if method == "bayes":
        rows = rho_rows(study, analysis, scores)
        table = _bayes_table(rows, study, centred)
    else:
        rows = calibration_rows(study, analysis, scores)
        table = _frequentist_table(study, analysis, centred, rows, max_spread)
    r = rows.iloc[0]                 # the null's accuracies are the same on every row
    return table, {"null": "balanced_centred", **{k: float(r[k]) for k in _NULL_NUMBERS},
                   "damaged": "", "damage_rate": np.nan, "null_prior": balanced_prior}


def _damaged_null(dataset, learners, d, seed, n_datasets, *, n_jobs, scheduler, progress,
                  results, n_instances) -> tuple:
    """The damaged real-data null's differences and what it was
    (:func:`._null_damaged.damaged_differences`); Ctrl-C raises
    :class:`CalibrationInterrupted`."""
    from ._null_damaged import damaged_differences
    try:
        return damaged_differences(dataset, learners, d, seed, n_datasets, n_jobs=n_jobs,
                                   scheduler=scheduler, progress=progress, results=results,
                                   n_instances=n_instances)
    except KeyboardInterrupt:
        raise CalibrationInterrupted(0, n_datasets, str(Path(results).resolve()
                                                        / "calibrate_like_damaged")) \
            from None


def _like_result(data, dataset, study, d, method, n_datasets, null, tables, nulls, *, seed,
                 t_start, data_prior, call) -> NullCalibrationResult:
    """The :class:`NullCalibrationResult` of the tables and nulls (one each per
    construction, in the order run); ``call`` is the call in words."""
    for t, n in zip(tables, nulls):
        t.insert(0, "null", n["null"])
    table = pd.concat(tables, ignore_index=True)
    nulls = pd.DataFrame(nulls)
    first = nulls.iloc[0]
    warns = tuple(w for w in table.get("precision_warning", pd.Series(dtype=str)) if w)
    return NullCalibrationResult(
        data=describe_data(dataset, str(data)),
        learners=tuple(lrn.label for lrn in study.learners), design=d.name, method=method,
        n_datasets=int(n_datasets), null=_NULL_WORDS[null],
        **{k: float(first[k]) for k in _NULL_NUMBERS}, table=table, seed=int(seed),
        seconds=time.perf_counter() - t_start, null_construction=null,
        null_prior=tuple(first["null_prior"]), data_prior=data_prior, warnings=warns,
        nulls=nulls, call=call)

_NULL_WORDS = {"balanced_centred": "balanced class labels permuted, per-fold differences "
                                   "centred on their null mean",
               "damaged": "your data and labels, the better learner damaged by random "
                          "errors to the other's expected accuracy",
               "both": "both: balanced + centred, and the damaged real-data null"}

_NULL_NUMBERS = ("accuracy_a", "accuracy_a_se", "accuracy_b", "accuracy_b_se",
                 "null_difference", "null_difference_se")

#: What ``null`` takes: the constructions' names, "both", and "balanced" for the first.
NULL_CHOICES = ("balanced_centred", "damaged", "both")


def check_null(null) -> str:
    """``null`` checked: a name of :data:`NULL_CONSTRUCTIONS`, ``"both"`` or
    ``"balanced"`` (short for ``"balanced_centred"``); one-line ValueError otherwise."""
    if null == "balanced":
        return "balanced_centred"
    if not isinstance(null, str) or null not in NULL_CHOICES:
        raise ValueError(f"`null` must be one of 'balanced' ('balanced_centred'), 'damaged' "
                         f"or 'both'; got {null!r}.")
    return null


def _call_text(data, learners, design, tests, alphas, n_datasets, method, rope, seed,
               class_attribute, null="balanced_centred", max_spread=MAX_SPREAD,
               n_instances=None) -> str:
    from ..reports._words import call_text
    kw = {"design": design, "test": tests if method != "bayes" else None,
          "alphas": list(alphas), "n_datasets": n_datasets, "method": method, "seed": seed}
    if method == "bayes":
        kw["rope"] = rope
    if class_attribute is not None:
        kw["class_attribute"] = class_attribute
    if null != "balanced_centred":
        kw["null"] = null
    if n_instances is not None:
        kw["n_instances"] = n_instances
    if max_spread != MAX_SPREAD and method != "bayes":
        kw["max_spread"] = max_spread
    return call_text("calibrate_like", [repr(data), repr(list(learners))],
                     {k: v for k, v in kw.items() if v is not None})


def _check_test_and_design(test, design) -> None:
    """One ValueError for a test without df or one that does not fit the design."""
    from ..stats import check_calibratable, check_fits_design, get_test
    from ..engine.scoring import parse_design
    d = parse_design(design)
    if d.kind == "holdout":
        raise ValueError(f"`design` {d.name!r}: the holdout tests take no df to calibrate; "
                         "calibrate on 'RxK', '5x2cv' or 'subsampling:N'.")
    spec = get_test(test or d.default_test())
    check_calibratable(spec)
    check_fits_design(spec, d.kind, d.n_runs, d.n_folds, d.name)


def _cores() -> int:
    import os
    return max(1, os.cpu_count() or 1)
