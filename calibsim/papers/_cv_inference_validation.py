"""Layout of ``studies/cv_inference_validation.toml``: the newer cv inference against its sources.

Issue 43, item 3. Each reproduced number is set beside what the paper reports, each
claim the study can test gets a verdict computed from our numbers and their Monte Carlo
error (never tuned), and a register lists every way our setting differs from the
paper's. Every number comes from the engine's ``coverage`` and ``rejection_rate``
tables of the study.

What could be read of the papers: the stored texts of all three reached their first
sections only (abstract and introduction); the settings below were read from the
authors' public experiment code (read, not copied): Bates et al.'s
``github.com/stephenbates19/nestedcv_experiments`` (``lowd_logistic.R``,
``data_wrapper.R``) and package ``nestedcv`` (``naive_cv``, ``nested_cv``), Bayle
et al.'s ``github.com/alexandre-bayle/cvci`` (``cv_num_exper.py``) and Cai et al.'s
package ``github.com/distant-spring/BootCV`` (``Boot.CV``, ``CV.confint``, README). Their tables and
figures' values could not be read, so the paper columns quote the claims of the
abstracts, not numbers; the register marks those cells "not comparable".
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["LAYOUTS", "DIFFERENCES", "WHY"]

_TEST_WORDS = {"bayle_cv_clt": "naive cv = cv CLT (all-pairs)", "ncv": "nested cv (NCV)",
               "kfold_cv": "k-fold cv t", "cv5x2_t": "5x2cv t"}

#: The register of differences from the papers' settings: (paper, what differs, ours,
#: theirs, expected effect). Typed by hand; the numbers they qualify are computed.
DIFFERENCES = (
    ("Bates et al. 2023", "NCV repetitions", "10", "200 (lowd_logistic.R; package default 50)",
     "a noisier MSE estimate, so a noisier inflation factor; the interval's coverage is "
     "averaged over data sets, its spread across data sets is wider"),
    ("Bates et al. 2023", "data sets per setting", "200 per s", "1000 (n_sim)",
     "Monte Carlo SE of a 90% coverage 2.1 points instead of 0.9"),
    ("Bates et al. 2023", "folds", "NCV's outer folds stratified by class "
     "(calibsim.schemes.NestedCV); the naive cv's at random",
     "at random (both)", "stratification lowers the fold-to-fold variance slightly; small "
     "for a balanced class"),
    ("Bates et al. 2023", "learner", "scikit-learn LogisticRegression(C=1e6) (lbfgs, "
     "nearly unpenalised)", "R glm (unpenalised), with the intercept-only model on a fit "
     "warning", "the same model up to the solver's tolerance; no fit here falls back"),
    ("Bates et al. 2023", "naive cv's sd", "all-pairs: divides by n", "sd(): divides by n - 1",
     "relative width differs by 1/(2n) = 0.5%"),
    ("Bates et al. 2023", "truth", "Err(n): the expected error of the model fitted on all n "
     "= 100 instances, by simulation (scripts/cv_inference_truth.py)",
     "both Err_XY (each data set's own model on 20,000 holdout points) and its mean Err",
     "coverage of Err only; Err_XY's coverage needs each data set's model, which the engine "
     "does not keep"),
    ("Bates et al. 2023", "second learner", "the majority rule, for the coverage of a "
     "difference", "none (one learner per example)", "an addition, not a reproduction"),
    ("Bayle et al. 2020", "data", "the logistic source (p = 10 standard normal attributes) "
     "at n = 200, 800, 3200", "Higgs (UCI, 11 million instances; not shipped) at n = 700 "
     "to 11,000", "a different task: the claims are checked, not their numbers"),
    ("Bayle et al. 2020", "learners", "logistic regression (C = 1e6) against the majority "
     "rule", "logistic regression (C = 0.001), a random forest of depth-1 trees "
     "(XGBoost) and a neural network (8, 4), pairwise",
     "the majority rule's error is known exactly, which makes the null exact"),
    ("Bayle et al. 2020", "null", "s = 0: every classifier's error is 1/2 on every data "
     "set, so the k-fold test errors of the two learners are equal on every data set",
     "the test's own null: the two learners' k-fold test errors conditional on the data "
     "(from a large test set) in the right order", "the same null here, exactly"),
    ("Bayle et al. 2020", "test", "two-sided at α = 0.05 (p of |z|)",
     "one-sided at α = 0.05 (is A better than B)", "a two-sided test at 0.05 rejects in "
     "each tail at 0.025: its Type I error is comparable, its power lower than theirs"),
    ("Bayle et al. 2020", "tests beside it", "k-fold cv t, 5x2cv t", "also hold-out CLT, "
     "repeated train-validation t and its corrected version", "fewer comparisons"),
    ("Bayle et al. 2020", "repetitions", "300 data sets per n", "500 replications per n",
     "Monte Carlo SE of a 5% rate 1.3 points instead of 1.0"),
    ("Bayle et al. 2020", "coverage truth", "Err(0.9 n): the mean of the k-fold test "
     "error over data sets (scripts/cv_inference_truth.py)", "the k-fold test error of "
     "each data set (conditional)", "coverage of the mean is what the engine can measure; "
     "it is lower than that of the conditional target when the data sets' k-fold test "
     "errors vary"),
    ("Cai et al. 2023", "task", "the logistic source, 0/1 loss: logistic regression (C = "
     "1e6) and the majority rule; n = 90, p = 10, s = 1, training size m = 50",
     "their package's example (BootCV README, Boot.CV): linear regression, squared error, "
     "n = 90, p = 10, m = 50; the paper's simulation settings not read",
     "another loss and learner at the same sizes: their claim is checked, not their numbers"),
    ("Cai et al. 2023", "bootstrap samples x splits", "50 x 10", "400 x 20 (Boot.CV's "
     "defaults)", "a noisier variance component, so interval widths spread more across "
     "data sets"),
    ("Cai et al. 2023", "the cv estimate", "the mean of 10 random splits of the data as "
     "they are (row 0 of the design)", "the mean of 400 random splits (CV.confint's "
     "default)", "the estimate keeps the noise of 10 splits, which the random-effects "
     "standard error leaves out: coverage a little lower"),
    ("Cai et al. 2023", "variance component", "ANOVA estimate cut at 0 (the layout is "
     "balanced)", "REML (lme4::lmer)", "the same for a balanced one-way layout"),
    ("Cai et al. 2023", "a split with no copy on a side", "drawn again from the same stream",
     "left out (NA) of the random-effects fit", "none here: with m_adj = 61 of 90 the 29 "
     "test instances are all undrawn with probability (61/90)^90 = 6e-16"),
    ("Cai et al. 2023", "data sets", "200", "not read", "Monte Carlo SE of a 95% coverage "
     "1.5 points"),
    ("Cai et al. 2023", "intervals beside it", "the resampled t over the same design's 10 "
     "splits of the data (Dietterich 1998) and its corrected version (Nadeau & Bengio "
     "2003), on their own 10 splits of the same training size", "not read",
     "an addition: the intervals one would otherwise use on repeated splits"),
)


def _pct(rate, se) -> str:
    return f"{100 * rate:.1f} ({100 * se:.1f})" if np.isfinite(rate) else ""


def _n_of(source: str) -> str:
    return source.split("=")[1].rstrip("]") if "=" in source else ""


def _bates(t_err, t_diff, verdicts) -> str:
    rows = []
    for target, t in (("error of logistic regression", t_err),
                      ("accuracy difference logistic − majority", t_diff)):
        for src in dict.fromkeys(t["source"]):
            g = t[t["source"] == src].set_index("test")
            naive = g.loc["bayle_cv_clt"]
            for test in ("bayle_cv_clt", "ncv"):
                r = g.loc[test]
                rows.append({"s": src.rsplit("_s", 1)[-1], "target": target,
                             "interval": _TEST_WORDS[test],
                             "truth": f"{r['truth']:.4f}",
                             "coverage %, (MC SE)": _pct(r["coverage"], r["mc_se"]),
                             "truth below / above, %": f"{100 * r['miss_below']:.1f} / "
                                                      f"{100 * r['miss_above']:.1f}",
                             "mean width": f"{r['mean_width']:.4f}",
                             "width / naive": f"{r['mean_width'] / naive['mean_width']:.2f}",
                             "paper": "under-covers" if test == "bayle_cv_clt"
                             else "near 90%", "n": int(r["n"])})
            nominal = float(naive["confidence"])
            nv, nc = naive, g.loc["ncv"]
            if target.startswith("error"):
                verdicts.append(_verdict(
                    "Bates et al. 2023", f"s = {src.rsplit('_s', 1)[-1]}: the naive cv "
                    "interval covers Err less often than nominal",
                    nv["coverage"] + 2 * nv["mc_se"] < nominal,
                    f"{_pct(nv['coverage'], nv['mc_se'])}% against {100 * nominal:g}%"))
                verdicts.append(_verdict(
                    "Bates et al. 2023", f"s = {src.rsplit('_s', 1)[-1]}: the NCV interval "
                    "covers Err at about the nominal level (within 3 MC SE)",
                    abs(nc["coverage"] - nominal) <= 3 * max(nc["mc_se"],
                                                              np.sqrt(nominal * (1 - nominal)
                                                                      / nc["n"])),
                    f"{_pct(nc['coverage'], nc['mc_se'])}% against {100 * nominal:g}%"))
    return pd.DataFrame(rows).to_markdown(index=False)


#: Why a claim the study tests differs, typed by hand (the verdicts are computed): the
#: first key found in the claim's text gives its status and evidence.
WHY = {
    "Type I error is near α": (
        "explained by argument",
        "at s = 0 both learners' predictions are set by chance fluctuations of the training "
        "set (the majority rule flips all its predictions when one label changes near "
        "balance), so the loss stability Bayle et al.'s central limit theorem assumes fails: "
        "the k-fold estimate's spread over data sets exceeds the per-instance variance the "
        "test uses (the table 'spread of the k-fold estimate on the null' above), and every "
        "test here rejects too often; their learners and data are stable ones"),
    "naive cv interval covers Err less often": (
        "open", "Bates et al.'s number for this setting was not read; their abstract claims "
        "under-coverage in many examples, not in each"),
    "NCV interval covers Err at about": (
        "open", "Bates et al.'s number for this setting was not read"),
    "at least as powerful": (
        "open", "Bayle et al.'s number for this setting was not read"),
    "bootstrap cv interval covers": (
        "open", "Cai et al.'s numbers were not read, and the task differs (0/1 loss, logistic "
        "regression); the same standard error without their factor for the bootstrap's "
        "training size (bootstrap cv, unadjusted, in the table above) is wider, so the "
        "factor, worked out for their setting, may shrink the interval too much here; the "
        "estimate's 10 splits (theirs 400) also add noise the standard error leaves out"),
}


def _verdict(paper, claim, ok, evidence) -> dict:
    status, why = "", ""
    if not ok:
        status, why = next((v for k, v in WHY.items() if k in claim), ("open", ""))
    return {"paper": paper, "claim": claim, "verdict": "agrees" if ok else "differs",
            "ours": evidence, "status": status, "why (typed by hand)": why}


def _bayle(rates, cover, verdicts) -> str:
    rows = []
    for _, r in rates.iterrows():
        null = str(r["group"]) == "bayle_null"
        rows.append({"n": int(_n_of(r["source"])), "test": _TEST_WORDS[r["test"]],
                     "data": "null (s = 0)" if null else "alternative (s = 0.3)",
                     "measure": "Type I error" if null else "power",
                     "rate %, (MC SE)": _pct(r["rate"], r["mc_se"]),
                     "95% interval": f"{100 * r['ci_low']:.1f}–{100 * r['ci_high']:.1f}",
                     "paper": ("near α for cv CLT" if null else "cv CLT most powerful")
                     if r["test"] == "bayle_cv_clt" else "", "data sets": int(r["n"])})
    table = pd.DataFrame(rows).sort_values(["measure", "test", "n"], kind="stable")
    for n in sorted({int(_n_of(s)) for s in rates["source"]}):
        g = rates[rates["source"].map(_n_of) == str(n)]
        null = g[g["group"] == "bayle_null"].set_index("test")
        alt = g[g["group"] == "bayle_alt"].set_index("test")
        if "bayle_cv_clt" in null.index:
            r = null.loc["bayle_cv_clt"]
            a = float(r["alpha"])
            se = np.sqrt(a * (1 - a) / r["n"])
            verdicts.append(_verdict(
                "Bayle et al. 2020", f"n = {n}: the cv CLT test's Type I error is near α "
                "(within 3 MC SE)", abs(r["rate"] - a) <= 3 * se,
                f"{_pct(r['rate'], r['mc_se'])}% at α = {100 * a:g}%"))
        if "bayle_cv_clt" in alt.index:
            ours = alt.loc["bayle_cv_clt"]
            others = alt.drop(index="bayle_cv_clt")
            best = others["rate"].max() if len(others) else np.nan
            verdicts.append(_verdict(
                "Bayle et al. 2020", f"n = {n}: the cv CLT test is at least as powerful as "
                "the k-fold cv t and the 5x2cv t (within 2 MC SE)",
                ours["rate"] + 2 * np.hypot(ours["mc_se"], 0.0) >= best,
                f"{_pct(ours['rate'], ours['mc_se'])}% against at most {100 * best:.1f}%"))
    cov = []
    for _, r in cover.iterrows():
        cov.append({"n": int(_n_of(r["source"])) if _n_of(r["source"]) else "",
                    "data": "null (s = 0)" if str(r["group"]) == "bayle_null"
                    else "alternative (s = 0.3)", "interval": _TEST_WORDS[r["test"]],
                    "truth": f"{r['truth']:.4f}",
                    "coverage %, (MC SE)": _pct(r["coverage"], r["mc_se"]),
                    "mean width": f"{r['mean_width']:.4f}",
                    "paper": "near 95% for cv CLT" if r["test"] == "bayle_cv_clt" else ""})
    return (table.to_markdown(index=False),
            pd.DataFrame(cov).to_markdown(index=False) if cov else "")


def _null_spread(study, scores, rates) -> str:
    """Per n on the null: the SD over data sets of each learner's 10-fold cv error beside
    the binomial SD sqrt(1/4 / n) a stable learner's estimate would have (its per-instance
    losses are 0/1 with mean 1/2)."""
    if scores is None:
        return ""
    rows = []
    for src in dict.fromkeys(rates.loc[rates["group"] == "bayle_null", "source"]):
        n = int(_n_of(src))
        row = {"n": n, "binomial SD": f"{0.5 / np.sqrt(n):.4f}"}
        for learner in (x.label for x in study.learners):
            err = 1.0 - scores.accuracy(src, "cv", learner).reshape(
                scores.n_datasets(src, "cv"), -1).mean(axis=1)
            row[f"SD of {learner}'s cv error"] = f"{err.std(ddof=1):.4f}"
            row[f"mean of {learner}'s cv error"] = f"{err.mean():.4f}"
        rows.append(row)
    return pd.DataFrame(rows).to_markdown(index=False) if rows else ""


#: The intervals of the bootstrap cv reproduction, in words.
_CAI_WORDS = {"bootstrap_cv": "bootstrap cv (random effects, adjusted)",
              "bootstrap_cv_unadjusted": "bootstrap cv, unadjusted",
              "resampling": "naive: resampled t over the splits",
              "corrected_resampling": "corrected resampled t"}


def _cai(study, t_err, t_diff, verdicts) -> str:
    """The bootstrap of the cv estimate (Cai et al. 2023): coverage of its 95% interval
    beside the naive and the corrected resampled t intervals, and the claim's verdicts."""
    rows = []
    for target, t in (("error of logistic regression", t_err),
                      ("accuracy difference logistic − majority", t_diff)):
        for src in dict.fromkeys(t["source"]):
            g = t[t["source"] == src].set_index("test")
            naive = g.loc["resampling"] if "resampling" in g.index else None
            for test in (x for x in _CAI_WORDS if x in g.index):
                r = g.loc[test]
                rows.append({"target": target, "interval": _CAI_WORDS[test],
                             "truth": f"{r['truth']:.4f}",
                             "coverage %, (MC SE)": _pct(r["coverage"], r["mc_se"]),
                             "truth below / above, %": f"{100 * r['miss_below']:.1f} / "
                                                      f"{100 * r['miss_above']:.1f}",
                             "mean width": f"{r['mean_width']:.4f}",
                             "width / naive": "" if naive is None else
                             f"{r['mean_width'] / naive['mean_width']:.2f}",
                             "paper": "valid (abstract)" if test.startswith("bootstrap")
                             else "",
                             "n": int(r["n"])})
            if "bootstrap_cv" in g.index:
                r = g.loc["bootstrap_cv"]
                nominal = float(r["confidence"])
                verdicts.append(_verdict(
                    "Cai et al. 2023", f"{target}: the bootstrap cv interval covers the "
                    "truth at about the nominal level (within 3 MC SE)",
                    abs(r["coverage"] - nominal) <= 3 * np.sqrt(nominal * (1 - nominal)
                                                                / r["n"]),
                    f"{_pct(r['coverage'], r['mc_se'])}% against {100 * nominal:g}%"))
    return pd.DataFrame(rows).to_markdown(index=False)


def _cai_section(study, tables, verdicts) -> list:
    """The Cai et al. section: the reproduction where the study runs it."""
    if "cai_error" not in tables or "cai_difference" not in tables:
        return ["\n## Cai et al. (2023)\n\n", "Not run by this study (no `cai_error` and "
                "`cai_difference` coverage analyses).\n"]
    table = _cai(study, tables["cai_error"], tables["cai_difference"], verdicts)
    boot = study.scheme(tables["cai_error"]["scheme"].iloc[0] if "scheme" in
                        tables["cai_error"] else "boot")
    splitter = boot.splitter()
    src = study.source(tables["cai_error"]["source"].iloc[0])
    n = int(dict(src.params)["n_instances"])
    m, m_adj = splitter.n_train(n), splitter.adjusted_train_size(n)
    factor = np.sqrt((n - m_adj + 0.632 * m_adj) / n)
    return [
        "\n## Cai et al. (2023): coverage of the bootstrap cv interval\n\n",
        f"n = {n}, p = {dict(src.params)['n_attributes']}, s = "
        f"{dict(src.params)['strength']:g}, training size m = {m} (the sizes of the "
        "authors' package example, there with linear regression); logistic regression "
        "against the majority rule. The design (`calibsim.schemes.BootstrapCV`, scheme "
        f"kind `bootstrap_cv`): {splitter.n_splits} random splits of the data as they are "
        f"(the cv estimate), and {splitter.n_bootstrap} bootstrap samples of "
        f"{splitter.n_splits} random splits each at the authors' adjusted training size "
        f"m_adj = {m_adj}, every copy of an instance on one side; the random-effects "
        "standard error times their factor √((n − m_adj + 0.632 m_adj)/n) = "
        f"{factor:.3f} (`calibsim.stats.bootstrap_cv_test`), and without the factor (their "
        "`CV.confint(adj = FALSE)`, test `bootstrap_cv_unadjusted`). Beside it, the resampled t "
        "interval over 10 random splits of the same training size, which treats the "
        "splits as independent (naive), and Nadeau & Bengio's corrected one. Truth: "
        f"Err({m}), the expected error of logistic regression trained on {m} instances "
        "(`scripts/cv_inference_truth.py`); for the difference 1/2 − Err(m). 95% "
        "intervals.\n\n", table, "\n"]


def _cv_inference_validation(*, study, tables, scores, folder, wall=None, calibrations=None):
    """One Markdown file, ``<study>_comparison.md``: the reproduced results beside the
    papers' claims, the verdicts and the register of differences."""
    need = ("bates_error", "bates_difference", "bayle_rates", "bayle_error")
    missing = [k for k in need if k not in tables]
    if missing:
        raise ValueError(f"study {study.name!r}: the cv_inference_validation layout needs "
                         f"the analyses {list(need)}; missing {missing}.")
    verdicts = []
    bates = _bates(tables["bates_error"], tables["bates_difference"], verdicts)
    bayle, cover = _bayle(tables["bayle_rates"], tables["bayle_error"], verdicts)
    ncv = study.scheme("ncv").p
    lines = [
        f"# {study.title}\n\n",
        "Issue 43, item 3: the cv inference of Bates, Hastie & Tibshirani (2023), Bayle, "
        "Bayle, Janson & Mackey (2020) and Cai et al. (2023) run on calibsim's engine in "
        "the papers' settings, reduced (`studies/cv_inference_validation.toml`, seed "
        f"{study.seed}). Rates in percent with their Monte Carlo standard error. The papers' "
        "tables and figures could not be read here (the stored texts reach their first "
        "sections only), so the paper column quotes each abstract's claim, and the verdicts "
        "test those claims on our numbers; the settings were read from the authors' "
        "public code (see the register). Every number is in the study's CSV tables.\n",
        "\n## Bates et al. (2023): coverage of 90% intervals, low-dimensional logistic "
        "regression\n\n",
        f"n = 100, p = 10, P(y = 1 | x) = 1/(1 + exp(−s x₁)); logistic regression; naive "
        f"cv: one 10-fold cv; NCV: {ncv['n_runs']} repetitions of nested {ncv['n_folds']}-"
        "fold cv with the bias correction and the inflation clipped to [1, √K] "
        "(`calibsim.stats.nested_cv_test`). Truth: Err(100), the expected error of the "
        "model fitted on all 100 instances (`scripts/cv_inference_truth.py`). 'truth "
        "below / above': the interval missed it on that side.\n\n", bates, "\n",
        "\n## Bayle et al. (2020): Type I error and power of the two-algorithm test as n "
        "grows\n\n",
        "Logistic regression against the majority rule, one 10-fold cv (cv CLT and k-fold "
        "cv t on the same folds) and 5x2cv, two-sided at α = 5%. On the null (s = 0) every "
        "classifier errs exactly half the time on every data set, so any rejection is a "
        "Type I error of the test of equal k-fold test errors; on the alternative (s = 0.3) "
        "logistic regression is better.\n\n", bayle, "\n",
        "\n### Spread of the k-fold estimate on the null\n\n",
        "Each learner's 10-fold cv error (over the instances) across the null data sets, "
        "beside the SD a binomial proportion of n would have, which is what the per-instance "
        "variance of the cv CLT test assumes: where the estimate spreads more, the test "
        "rejects too often.\n\n", _null_spread(study, scores, tables["bayle_rates"]), "\n",
        "\n### Coverage of the 95% interval of logistic regression's error\n\n",
        "Truth: Err(0.9 n), the mean over data sets of the k-fold test error "
        "(`scripts/cv_inference_truth.py`); on the null exactly 1/2.\n\n", cover, "\n",
        *_cai_section(study, tables, verdicts),
        "\n## Claims checked\n\n",
        pd.DataFrame(verdicts).to_markdown(index=False), "\n",
        "\n## Register of differences from the papers' settings\n\n",
        "Paper values: not read (every reproduced number above is 'not comparable' as a "
        "number; the claims are compared instead).\n\n",
        pd.DataFrame(DIFFERENCES, columns=["paper", "what", "ours", "theirs",
                                           "expected effect"]).to_markdown(index=False),
        "\n"]
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    md = folder / f"{study.name}_comparison.md"
    md.write_text("".join(lines), encoding="utf-8")
    csv = folder / f"{study.name}_differences.csv"
    _register(verdicts).to_csv(csv, index=False, lineterminator="\n")
    return {"comparison.md": md, "differences.csv": csv}


def _register(verdicts) -> pd.DataFrame:
    """The register as one table, in the columns of the five papers' registers that
    apply (:data:`calibsim.papers._differences.COLUMNS`): one row per claim checked (the
    paper's value not read: ``paper_value`` empty) and one per difference of setting
    ("not comparable")."""
    rows = [{"paper": v["paper"], "where": "abstract (claim)", "cell": v["claim"],
             "ours": v["ours"], "paper_value": "", "verdict": v["verdict"],
             "status": v["status"] or "agrees", "evidence": v["why (typed by hand)"]}
            for v in verdicts]
    rows += [{"paper": paper, "where": "setting", "cell": what, "ours": ours,
              "paper_value": theirs, "verdict": "", "status": "not comparable",
              "evidence": effect} for paper, what, ours, theirs, effect in DIFFERENCES]
    return pd.DataFrame(rows)


LAYOUTS = {"cv_inference_validation": _cv_inference_validation}
