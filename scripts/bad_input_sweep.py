"""A sweep of bad (and degenerate but legal) input over calibsim's public API and CLI.

Issue 33 asks for "a sweep of your own of at least 800 cases (CLI and API) written
without reusing the suite's tables". This script builds its cases here (nothing is
taken from ``tests/test_bad_input*.py``), runs them in a worker process under a
memory cap (the worker's address space plus ``--memory-gib``) and a wall-clock cap
per case (``--timeout``), and prints the counts by class:

- **clean error**: the API raised ``ValueError`` or ``TypeError`` (or ``OSError`` for
  a file), or the CLI exited with status 1 or 2 without a traceback;
- **legal**: a case expected to be legal (degenerate but defined) returned, or the
  CLI exited with status 0;
- **silent**: a case expected to be refused returned a result, or the CLI exited 0;
- **hang**: no answer within ``--timeout`` seconds (the worker is killed and
  restarted at the next case);
- **memory**: ``MemoryError`` (the cap was hit: an allocation no estimate refused);
- **traceback**: any other exception from the API, an exception escaping the CLI's
  ``main``, "Traceback" on its stderr, or a crashed worker.

The last four must be 0. ``--list`` prints the cases, ``--verbose`` every outcome,
``--only api|cli|proc`` one kind. CLI cases run ``calibsim.cli.main(argv)`` in the
worker (as the test suite does); a few ``proc`` cases run ``python -m calibsim`` in a
fresh process to show the real entry point.

Run from the repository root (it takes 10-30 minutes on 2 shared cores)::

    PYTHONPATH=$PWD nice python scripts/bad_input_sweep.py
"""

from __future__ import annotations

import argparse
import io
import json
import os
import select
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

CLASSES = ("clean error", "legal", "silent", "hang", "memory", "traceback")
_ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Case:
    id: str
    kind: str            # "api", "cli" or "proc"
    expect: str          # "error" or "legal"
    run: object          # api: callable; cli/proc: argv list


# ---------------------------------------------------------------------------------------
# Fixtures: files the cases read (made once by the parent)
# ---------------------------------------------------------------------------------------

def make_fixtures(d: Path) -> None:
    d.mkdir(parents=True, exist_ok=True)
    w = lambda name, data: (d / name).write_bytes(data if isinstance(data, bytes)  # noqa: E731
                                                  else data.encode())
    rows = "".join(f"{i % 7},{'abc'[i % 3]},{'yn'[(i * 7 // 3) % 2]}\n" for i in range(40))
    w("ok.csv", "num,nom,cls\n" + rows)
    w("ok_missing.csv", "num,nom,cls\n" + rows.replace("3,", "?,").replace(",b,", ",,"))
    w("all_q.csv", "a,b,c,cls\n" + "?,?,?,?\n" * 30)
    w("q_x_one_class.csv", "a,b,cls\n" + "?,?,p\n" * 30)
    w("one_class.csv", "a,b,cls\n" + "".join(f"{i},{i % 3},same\n" for i in range(30)))
    w("nul_value.csv", "a,b,cls\n" + "1,x\x00y,p\n2,z,q\n" * 10)
    w("nul_header.csv", "a\x00,b,cls\n" + "1,x,p\n2,z,q\n" * 10)
    w("dup_header.csv", "a,b,a,cls\n" + "1,2,3,p\n4,5,6,q\n" * 10)
    w("dup_class_header.csv", "cls,b,cls\n" + "1,2,p\n4,5,q\n" * 10)
    w("empty.csv", "")
    w("header_only.csv", "a,b,cls\n")
    w("one_column.csv", "cls\np\nq\np\nq\n")
    w("binary.csv", bytes(range(1, 256)) * 20)
    w("latin1.csv", "a,b,cls\n1,\xe9t\xe9,p\n2,x,q\n".encode("latin-1") * 5)
    w("broken_quote.csv", 'a,b,cls\n1,"2,p\n3,4,q\n')
    w("semicolon.csv", "a;b;cls\n1;2;p\n3;4;q\n" * 10)
    w("crlf.csv", "a,b,cls\r\n" + "".join(f"{i},{i % 2},{'pq'[i % 2]}\r\n" for i in range(30)))
    w("bom.csv", "\ufeffa,b,cls\n" + "".join(f"{i},{i % 3},{'pq'[i % 2]}\n" for i in range(30)))
    w("two_rows.csv", "a,b,cls\n1,2,p\n3,4,q\n")
    w("inf_value.csv", "a,b,cls\n" + "".join(f"{'inf' if i == 3 else i},1,{'pq'[i % 2]}\n"
                                            for i in range(30)))
    w("wide_1000.csv", ",".join(f"a{j}" for j in range(1000)) + ",cls\n" + "".join(
        ",".join(str((i * j) % 3) for j in range(1000)) + f",{'pq'[i % 2]}\n" for i in range(30)))
    w("unicode_header.csv", "größe,値,cls\n" + "".join(f"{i},{i % 2},{'pq'[i % 2]}\n"
                                                        for i in range(30)))
    w("many_classes.csv", "a,cls\n" + "".join(f"{i},{i}\n" for i in range(40)))
    w("long_field.csv", "a,b,cls\n" + ("x" * 2_000_000) + ",1,p\n" + "y,2,q\n" * 20)
    w("class_missing_one.csv", "a,b,cls\n" + "".join(f"{i},1,{'pq'[i % 2]}\n" for i in range(20))
      + "5,1,?\n")
    w("no_header_numbers.csv", "".join(f"{i},{i * 2},{i % 2}\n" for i in range(30)))
    # ARFF
    head = "@relation r\n@attribute a numeric\n@attribute b {x,y}\n"
    w("ok.arff", head + "@attribute c {p,q}\n@data\n" + "".join(
        f"{i},{'xy'[i % 2]},{'pq'[(i // 2) % 2]}\n" for i in range(30)))
    w("one_class.arff", head + "@attribute c {p,q}\n@data\n" + "".join(
        f"{i},{'xy'[i % 2]},p\n" for i in range(30)))
    w("class_all_missing.arff", head + "@attribute c {p,q}\n@data\n" + "1,x,?\n" * 10)
    w("dup_attr.arff", "@relation r\n@attribute a numeric\n@attribute a numeric\n"
      "@attribute c {p,q}\n@data\n1,2,p\n3,4,q\n")
    w("string_attr.arff", "@relation r\n@attribute s string\n@attribute c {p,q}\n@data\n"
      "'a',p\n'b',q\n")
    w("date_attr.arff", "@relation r\n@attribute d date\n@attribute c {p,q}\n@data\n"
      "'2020-01-01T00:00:00',p\n")
    w("numeric_class.arff", "@relation r\n@attribute a numeric\n@attribute c numeric\n@data\n"
      + "".join(f"{i},{i * 0.5}\n" for i in range(20)))
    w("no_data.arff", head + "@attribute c {p,q}\n@data\n")
    w("garbage.arff", "@relation\n@@@attribute\n" + "{" * 5000)
    w("binary.arff", bytes(range(256)) * 4)
    w("sparse.arff", head + "@attribute c {p,q}\n@data\n" + "".join(
        f"{{0 {i}, 2 {'pq'[i % 2]}}}\n" for i in range(30)))
    w("deep_nominal.arff", "@relation r\n@attribute a {" + ",".join(f"v{i}" for i in range(5000))
      + "}\n@attribute c {p,q}\n@data\n" + "".join(f"v{i},{'pq'[i % 2]}\n" for i in range(40)))
    # score tables for rank
    import numpy as np
    rng = np.random.default_rng(33)
    acc = rng.uniform(0.6, 0.9, (8, 4))
    wide = "dataset," + ",".join(f"L{j}" for j in range(4)) + "\n" + "".join(
        f"d{i}," + ",".join(f"{v:.4f}" for v in acc[i]) + "\n" for i in range(8))
    w("scores_wide.csv", wide)
    w("scores_long.csv", "dataset,learner,accuracy\n" + "".join(
        f"d{i},L{j},{acc[i, j]:.4f}\n" for i in range(8) for j in range(4)))
    folds = rng.uniform(0.6, 0.9, (8, 4, 10))
    w("scores_folds.csv", "dataset,learner,fold,accuracy\n" + "".join(
        f"d{i},L{j},{f},{folds[i, j, f]:.4f}\n" for i in range(8) for j in range(4)
        for f in range(10)))
    w("scores_dup_col.csv", "dataset,L0,L1,L0\n" + "d1,.8,.7,.6\nd2,.7,.75,.6\nd3,.9,.8,.7\n")
    w("scores_dup_row.csv", "dataset,learner,accuracy\nd1,a,.8\nd1,a,.7\nd1,b,.6\nd2,a,.5\n"
      "d2,b,.4\n")
    w("scores_one_dataset.csv", "dataset,L0,L1,L2\nd1,.8,.7,.6\n")
    w("scores_one_learner.csv", "dataset,L0\nd1,.8\nd2,.7\n")
    w("scores_bool.csv", "dataset,learner,accuracy\n" + "".join(
        f"d{i},L{j},{'True' if (i + j) % 2 else 'False'}\n" for i in range(5) for j in range(3)))
    w("scores_complex.csv", "dataset,learner,accuracy\n" + "".join(
        f"d{i},L{j},{i}+{j}j\n" for i in range(5) for j in range(3)))
    w("scores_nan.csv", "dataset,L0,L1\nd1,.8,\nd2,.7,.6\nd3,.5,.4\n")
    w("scores_inf.csv", "dataset,L0,L1\nd1,.8,inf\nd2,.7,.6\nd3,.5,.4\n")
    w("scores_text.csv", "dataset,L0,L1\nd1,.8,high\nd2,.7,.6\nd3,.5,.4\n")
    w("scores_nul.csv", "dataset,L0,L1\nd1,.8,.\x007\nd2,.7,.6\n")
    w("scores_empty.csv", "")
    w("scores_13.csv", "dataset," + ",".join(f"L{j}" for j in range(13)) + "\n" + "".join(
        f"d{i}," + ",".join(f"{rng.uniform():.3f}" for _ in range(13)) + "\n" for i in range(6)))
    w("scores_1500.csv", "dataset," + ",".join(f"L{j}" for j in range(1500)) + "\n" + "".join(
        f"d{i}," + ",".join(f"{rng.uniform():.3f}" for _ in range(1500)) + "\n"
        for i in range(3)))
    w("scores_ties.csv", "dataset,L0,L1,L2\n" + "d1,.5,.5,.5\nd2,.5,.5,.5\nd3,.5,.5,.5\n")
    w("scores_negative_cost.csv", "dataset,learner,accuracy,cost\n" + "".join(
        f"d{i},L{j},{acc[i, j]:.4f},{-j}\n" for i in range(8) for j in range(4)))
    w("scores_binary.csv", bytes(range(128, 256)) * 10)
    for name, text in _studies().items():
        w(name, text)


def _studies() -> dict:
    """Study files: a tiny legal one and hostile or broken variants."""
    base = """[study]
name = "{name}"
seed = 3
[sources.null]
kind = "null"
n_instances = 40
n_attributes = 3
n_datasets = 2
[schemes.cv]
kind = "repeated_kfold"
n_folds = 2
n_runs = 2
[learners]
names = ["naive_bayes", "{b}"]
{extra}
[[analysis]]
kind = "accuracy"
"""
    out = {"study_ok.toml": base.format(name="ok", b="c45", extra="")}
    hostile = {
        "memory": '[learners.x]\nestimator = "sklearn.pipeline.Pipeline"\n'
                  'steps = [["s", "passthrough"]]\nmemory = "{tmp}/cache"\n',
        "memory_tree": '[learners.x]\nestimator = "sklearn.tree.DecisionTreeClassifier"\n'
                       'memory = "x"\n',
        "input_file": '[learners.x]\nestimator = "sklearn.feature_extraction.text.HashingVectorizer"'
                      '\ninput = "filename"\n',
        "kmeans": '[learners.x]\nestimator = "sklearn.cluster.KMeans"\n',
        "regressor": '[learners.x]\nestimator = "sklearn.linear_model.Ridge"\n',
        "forest_huge": '[learners.x]\nestimator = "sklearn.ensemble.RandomForestClassifier"\n'
                       'n_estimators = 1000000000\n',
        "n_jobs_huge": '[learners.x]\nestimator = "sklearn.ensemble.RandomForestClassifier"\n'
                       'n_jobs = 100000\n',
        "subprocess": '[learners.x]\nestimator = "subprocess.run"\nargs = ["true"]\n',
        "conftest": '[learners.x]\nestimator = "sklearn.conftest.pytest_configure"\n',
        "private": '[learners.x]\nestimator = "sklearn.utils._testing.MinimalClassifier"\n',
        "os_system": '[learners.x]\nestimator = "os.system"\n',
        "builtin_eval": '[learners.x]\nestimator = "builtins.eval"\n',
        "pipeline_transformer_last": '[learners.x]\nestimator = "sklearn.preprocessing.StandardScaler"\n',
        "vp_iterations": '[learners.x]\nkind = "voted_perceptron"\nn_iterations = 1000000000\n',
        "cache_size": '[learners.x]\nestimator = "sklearn.svm.SVC"\ncache_size = 1e12\n',
    }
    for key, extra in hostile.items():
        out[f"study_{key}.toml"] = base.format(name=key, b="x", extra=extra)
    out["study_svc_ok.toml"] = base.format(name="svc", b="x", extra='[learners.x]\nestimator = '
                                           '"sklearn.svm.SVC"\nC = 2.0\n')
    out["study_empty.toml"] = ""
    out["study_binary.toml"] = "\x00\x01\x02"
    out["study_deep.toml"] = "[study]\nname = 'd'\nseed = 1\nx = " + "[" * 3000 + "]" * 3000 + "\n"
    out["study_no_learners.toml"] = base.format(name="nl", b="c45", extra="").replace(
        '[learners]\nnames = ["naive_bayes", "c45"]\n', "")
    out["study_dup_learner.toml"] = base.format(name="dl", b="naive_bayes", extra="")
    out["study_huge_datasets.toml"] = base.format(name="hd", b="c45", extra="").replace(
        "n_datasets = 2", "n_datasets = 100000000000")
    out["study_neg_seed.toml"] = base.format(name="ns", b="c45", extra="").replace(
        "seed = 3", "seed = -3")
    out["study_text_seed.toml"] = base.format(name="ts", b="c45", extra="").replace(
        "seed = 3", 'seed = "3"')
    out["study_folds_gt_n.toml"] = base.format(name="fg", b="c45", extra="").replace(
        "n_folds = 2", "n_folds = 41")
    out["study_unknown_kind.toml"] = base.format(name="uk", b="c45", extra="").replace(
        'kind = "null"', 'kind = "nothing"')
    out["study_bad_toml.toml"] = "[study\nname = "
    out["study_path_escape.toml"] = base.format(name="../../escape", b="c45", extra="")
    out["study_name_empty.toml"] = base.format(name="", b="c45", extra="")
    return out


# ---------------------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------------------

def build_cases(d: Path) -> list:
    cases: list = []
    _api_cases(cases, d)
    _spec_cases(cases)
    _cli_cases(cases, d)
    _proc_cases(cases, d)
    seen = Counter(c.id for c in cases)
    dup = [k for k, n in seen.items() if n > 1]
    assert not dup, dup
    return cases


def _api_cases(cases, d):
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(2024)
    x2 = rng.normal(0, .03, (10, 10))
    x3 = rng.normal(0, .03, (40, 10, 10))
    x52 = rng.normal(0, .03, (5, 2))
    scores = rng.uniform(.6, .9, (8, 4))

    def add(id_, expect, fn):
        cases.append(Case("api " + id_, "api", expect, fn))

    # --- one bad value at a time, for one parameter of each function --------------------
    arrays = {                                   # values an array parameter must refuse
        "bool": lambda a: np.asarray(a) > 0, "complex": lambda a: np.asarray(a) + 0.5j,
        "datetime": lambda a: np.full(np.shape(a), np.datetime64("2020-01-01")),
        "str": lambda a: np.asarray(a).astype(str),
        "object": lambda a: np.array([None] * np.size(a)).reshape(np.shape(a)),
        "nan": lambda a: np.where(np.asarray(a) > 0, np.nan, a),
        "inf": lambda a: np.where(np.asarray(a) > 0, -np.inf, a),
        "empty": lambda a: np.empty((0,) + np.shape(a)[1:]), "scalar": lambda a: 0.01,
        "none": lambda a: None, "dict": lambda a: {"x": 1}, "text": lambda a: "0.01",
        "ragged": lambda a: [[0.1, 0.2], [0.3]], "4d": lambda a: np.zeros((2, 2, 2, 2, 2)),
    }
    from calibsim import calibration, measures, ranking, stats, tuning
    array_funcs = {
        "repeated_cv_ttest.x": (x2, lambda v: stats.repeated_cv_ttest(v)),
        "corrected_repeated_cv_ttest.x": (x2, lambda v: stats.corrected_repeated_cv_ttest(v)),
        "kfold_cv_ttest.x": (x2[0], lambda v: stats.kfold_cv_ttest(v)),
        "resampled_ttest.x": (x2[0], lambda v: stats.resampled_ttest(v)),
        "cv5x2_ftest.x": (x52, lambda v: stats.cv5x2_ftest(v)),
        "sign_test.x": (x2[0], lambda v: stats.sign_test(v)),
        "correlated_bayesian_ttest.x": (x2, lambda v: stats.correlated_bayesian_ttest(v, rho=.1)),
        "bayesian_signed_rank_test.x": (x2[0], lambda v: stats.bayesian_signed_rank_test(
            v, n_samples=200, random_state=1)),
        "friedman_test.scores": (scores, lambda v: stats.friedman_test(v)),
        "nemenyi_test.scores": (scores, lambda v: stats.nemenyi_test(v)),
        "shaffer_test.scores": (scores, lambda v: stats.shaffer_test(v)),
        "average_ranks.scores": (scores, lambda v: stats.average_ranks(v)),
        "friedman_from_ranks.average_ranks": ([1.5, 2.5, 2.0], lambda v: stats.friedman_from_ranks(
            v, 10)),
        "posthoc_from_ranks.average_ranks": ([1.5, 2.5, 2.0], lambda v: stats.posthoc_from_ranks(
            v, 10, method="holm")),
        "wilcoxon_datasets.a": (scores[:, 0], lambda v: stats.wilcoxon_datasets(v, scores[:, 1])),
        "type1_error_curve.x": (x3, lambda v: calibration.type1_error_curve(
            "use_all_data", v, alphas=.05, dfs=[5, 50])),
        "calibrate.x": (x3, lambda v: calibration.calibrate("use_all_data", v, alphas=.05)),
        "calibrate_rho.x": (x3, lambda v: calibration.calibrate_rho(v)),
        "decision_rate.x": (x3, lambda v: calibration.decision_rate(v)),
        "threshold_df.x": (x3, lambda v: calibration.threshold_df("use_all_data", v, .05)),
        "calibrated_df.type1": ([.01, .04, .06], lambda v: calibration.calibrated_df(
            [2, 5, 9], v, .05)),
        "rejection_rate.pvalue": (rng.uniform(size=20), lambda v: measures.rejection_rate(v, .05)),
        "replicability.rejected": (rng.uniform(size=(4, 5)) < .5, lambda v: measures.replicability(v)),
        "poisson_binomial_pmf.p": (rng.uniform(size=6), lambda v: tuning.poisson_binomial_pmf(v)),
        "sum_pmf.pmfs": ([.3, .7], lambda v: tuning.sum_pmf(v, [.5, .5])),
        "class_entropy.counts": ([3, 5, 2], lambda v: tuning.class_entropy(v)),
        "normalised_cost.cost": (rng.uniform(1, 2, (8, 3)), lambda v: stats.normalised_cost(v)),
    }
    legal_kinds = {("replicability.rejected", "bool"),        # booleans are its input
                   ("poisson_binomial_pmf.p", "empty")}       # no counts: P(S = 0) = 1
    for name in ("repeated_cv_ttest.x", "corrected_repeated_cv_ttest.x", "kfold_cv_ttest.x",
                 "resampled_ttest.x", "sign_test.x", "correlated_bayesian_ttest.x",
                 "poisson_binomial_pmf.p", "sum_pmf.pmfs"):
        legal_kinds.add((name, "4d"))                         # leading axes are batches
    for name, (good, fn) in array_funcs.items():
        add(f"{name} legal", "legal", (lambda fn=fn, good=good: fn(good)))
        for kind, make in arrays.items():
            expect = "legal" if (name, kind) in legal_kinds else "error"
            add(f"{name} {kind}", expect, (lambda fn=fn, good=good, make=make: fn(make(good))))

    # --- α, df, ρ, rope, thresholds: scalars ------------------------------------------------
    scalars = {"zero": 0, "one": 1, "neg": -0.1, "two": 2.0, "nan": float("nan"),
               "inf": float("inf"), "text": "0.05", "bool": True, "none": None,
               "complex": 0.05 + 0j, "list_empty": [], "nested": [[0.05]]}
    scalar_funcs = {
        "type1_error_curve.alphas": lambda v: calibration.type1_error_curve(
            "use_all_data", x3, alphas=v, dfs=[5, 50]),
        "calibrate.alphas": lambda v: calibration.calibrate("use_all_data", x3, alphas=v),
        "calibrated_df.alpha": lambda v: calibration.calibrated_df([2, 5], [.01, .02], v),
        "threshold_df.alpha": lambda v: calibration.threshold_df("use_all_data", x3, v),
        "continuous_calibration.alpha": lambda v: calibration.continuous_calibration(
            "use_all_data", x3, v),
        "lookup_df.alpha": lambda v: calibration.lookup_df("corrected_repeated_cv", alpha=v),
        "rejection_rate.alpha": lambda v: measures.rejection_rate([.01, .5], v),
        "nemenyi_test.alpha": lambda v: stats.nemenyi_test(scores, alpha=v),
        "posthoc_from_ranks.alpha": lambda v: stats.posthoc_from_ranks([1.5, 2.5, 2.0], 9,
                                                                       alpha=v),
        "critical_difference.alpha": lambda v: stats.critical_difference(4, 10, v),
        "correlated_bayesian_ttest.rho": lambda v: stats.correlated_bayesian_ttest(x2, rho=v),
        "correlated_bayesian_ttest.threshold": lambda v: stats.correlated_bayesian_ttest(
            x2, rho=.1, threshold=v),
        "calibrate_rho.confidence_level": lambda v: calibration.calibrate_rho(
            x3, confidence_level=v),
        "quantile_interval.q": lambda v: calibration.quantile_interval(100, v),
        "tuned_accuracy.accuracy_in_reach": lambda v: tuning.reach_probability(100, 60, 5, v),
        "labels_needed.probability": lambda v: tuning.labels_needed(100, 60, .7, v),
        "class_prior.NullSource": lambda v: __import__("calibsim").sources.NullSource(
            40, 3, class_prior=v).sample(0),
        "RandomSubsampling.test_fraction": lambda v: __import__("calibsim").schemes.RandomSubsampling(
            3, v, random_state=0).test_masks([0, 1] * 10),
    }
    legal_scalar = {("correlated_bayesian_ttest.rho", "none"),        # None: the default 1/k
                    ("correlated_bayesian_ttest.rho", "zero"),        # ρ = 0: independent folds
                    ("labels_needed.probability", "one"),
                    # vectorised over targets: an empty or nested list broadcasts
                    ("tuned_accuracy.accuracy_in_reach", "list_empty"),
                    ("tuned_accuracy.accuracy_in_reach", "nested"),
                    ("labels_needed.probability", "nested"), ("tuned_accuracy.accuracy_in_reach",
                                                            "zero"),
                    ("tuned_accuracy.accuracy_in_reach", "one")}
    for name, fn in scalar_funcs.items():
        for kind, v in scalars.items():
            expect = "legal" if (name, kind) in legal_scalar else "error"
            add(f"{name}={kind}", expect, (lambda fn=fn, v=v: fn(v)))

    # --- sizes a user can mistype: each must be refused at once or computed quickly -------
    from calibsim import schemes, sources
    big = {"1e6": 10**6, "1e9": 10**9, "1e12": 10**12, "1e18": 10**18, "2**63": 2**63,
           "1e300f": 1e300, "neg": -5, "zero": 0, "float": 3.5, "bool": True, "text": "10"}
    size_funcs = {
        "bayesian_signed_rank_test.n_samples": (
            lambda v: stats.bayesian_signed_rank_test(x2[0], n_samples=v, random_state=0),
            {"1e6"}),
        "critical_difference.n_learners": (lambda v: stats.critical_difference(v, 10), set()),
        "critical_difference.n_datasets": (lambda v: stats.critical_difference(4, v),
                                           {"1e6", "1e9"}),
        "friedman_from_ranks.n_datasets": (lambda v: stats.friedman_from_ranks(
            [1.5, 2.5, 2.0], v), {"1e6", "1e9"}),
        "quantile_interval.n": (lambda v: calibration.quantile_interval(v, .5),
                                {"1e6", "1e9", "1e12"}),          # closed form: no allocation
        "lookup_df.n_runs": (lambda v: calibration.lookup_df("corrected_repeated_cv", n_runs=v),
                             set()),
        "lookup_df.n_folds": (lambda v: calibration.lookup_df("corrected_repeated_cv", n_folds=v),
                              set()),
        "threshold_df.max_iter": (lambda v: calibration.threshold_df("use_all_data", x3, .05,
                                                                     max_iter=v), set()),
        "type1_error_curve.dfs_arange": (lambda v: calibration.type1_error_curve(
            "use_all_data", x3, alphas=.05, dfs=np.arange(1, v + 1)
            if type(v) is int and 0 < v <= 10**7 else v), set()),
        "tuning.labels_needed.m": (lambda v: tuning.labels_needed(v, 1, .9, .95), {"1e6"}),
        "tuning.tuned_accuracy.m": (lambda v: tuning.tuned_accuracy(v, 1, 5), {"1e6", "1e9",
                                                                               "1e12", "1e18"}),
        "tuning.tuned_accuracy.labels": (lambda v: tuning.tuned_accuracy(10**12, 10**11, v),
                                         {"zero"}),               # nothing leaked: h itself
        "tuning.search_experiments.labels": (lambda v: tuning.search_experiments(v, 2),
                                             {"1e6", "1e9", "1e12", "1e18", "zero"}),
        "tuning.channel_labels.bits": (lambda v: tuning.channel_labels(v, 1.0),
                                       {"1e6", "1e9", "1e12", "1e18", "2**63", "1e300f",
                                        "zero", "float"}),
        "tuning.poisson_binomial_pmf.len": (lambda v: tuning.poisson_binomial_pmf(
            np.broadcast_to(.5, (v,)) if type(v) is int and 0 <= v < 2**62 else v),
            {"zero"}),                                  # no counts: P(S = 0) = 1
        "NullSource.n_instances": (lambda v: sources.NullSource(v, 3).sample(0), {"1e6"}),
        "NullSource.n_attributes": (lambda v: sources.NullSource(40, v).sample(0), {"1e6"}),
        "DietterichTaskSource.n_instances": (lambda v: sources.DietterichTaskSource(
            "exp6", v).sample(0), {"1e6"}),
        "random_ban.n_attributes": (lambda v: sources.random_ban(0, n_attributes=v), set()),
        "random_ban.n_arcs": (lambda v: sources.random_ban(0, n_attributes=5, n_arcs=v),
                              {"zero"}),                  # no arcs: naive Bayes structure
        "null_ban.n_attributes": (lambda v: sources.null_ban(0, n_attributes=v), set()),
        "EpsilonPointSource.n_points": (lambda v: sources.EpsilonPointSource(
            .1, n_points=v).simulate(0, [0]), {"1e6"}),
        "EpsilonPointSource.simulate.n_resamples": (lambda v: sources.EpsilonPointSource(
            .1, n_points=60).simulate(0, [0], n_resamples=v), {"1e6"}),
        "RepeatedStratifiedKFold.n_runs": (lambda v: schemes.RepeatedStratifiedKFold(
            2, v, random_state=0).test_masks([0, 1] * 10), {"1e6"}),
        "RepeatedKFold.n_folds": (lambda v: schemes.RepeatedKFold(v, 1, random_state=0
                                                                  ).test_masks([0, 1] * 10), set()),
        "Bootstrap632.n_bootstrap": (lambda v: schemes.Bootstrap632(v, random_state=0).test_masks(
            [0, 1] * 10), {"1e6"}),
        "Holdout.n_runs": (lambda v: schemes.Holdout(n_runs=v, random_state=0).test_masks(
            [0, 1] * 10), {"1e6"}),
        "posthoc_from_ranks.batch": (lambda v: stats.posthoc_from_ranks(
            np.broadcast_to([1.5, 2.5, 2.0], (v, 3)) if type(v) is int and 0 < v < 2**62
            else v, 10, method="holm"), {"1e6"}),
        "compare.n_boot": (lambda v: __import__("calibsim").compare(
            "naive_bayes", "c45", __import__("calibsim").load_uci("contact-lenses"),
            design="2x2", n_boot=v), {"1e6"}),              # at most 10**6 resamples
        "compare.n_repeats": (lambda v: __import__("calibsim").compare(
            "naive_bayes", "c45", __import__("calibsim").load_uci("contact-lenses"),
            design="2x2", replicability="rerun", n_repeats=v), set()),
        "calibrate_like.n_datasets": (lambda v: __import__("calibsim").calibrate_like(
            __import__("calibsim").load_uci("contact-lenses"), design="2x2", n_datasets=v,
            results=str(d / "store_like")), set()),
    }
    long_but_legal = {"calibrate_like.n_datasets": {"1e6", "1e9"}}   # a long run, as asked
    for name, (fn, legal) in size_funcs.items():
        for kind, v in big.items():
            if kind in long_but_legal.get(name, ()):
                continue
            add(f"{name}={kind}", "legal" if kind in legal else "error",
                (lambda fn=fn, v=v: fn(v)))

    # --- random_state, one check everywhere -------------------------------------------------
    seeds = {"true": True, "neg": -1, "float": 1.5, "text": "a", "list": [1, 2],
             "randomstate": np.random.RandomState(0), "huge": 2**200, "zero": 0,
             "seedseq": np.random.SeedSequence(5), "generator": np.random.default_rng(1)}
    rs_funcs = {
        "bayesian_signed_rank_test": (lambda v: stats.bayesian_signed_rank_test(
            x2[0], n_samples=100, random_state=v), {"zero", "seedseq", "generator", "huge"}),
        "bayesian_pairs": (lambda v: ranking.bayesian_pairs(pd.DataFrame(scores), n_samples=100,
                                                            random_state=v),
                           {"zero", "seedseq", "huge"}),
        "compare": (lambda v: __import__("calibsim").compare(
            "naive_bayes", "c45", __import__("calibsim").load_uci("contact-lenses"),
            design="2x2", random_state=v), {"zero", "seedseq", "huge"}),
        "RepeatedStratifiedKFold": (lambda v: schemes.RepeatedStratifiedKFold(
            2, 2, random_state=v).test_masks([0, 1] * 10),
            {"zero", "seedseq", "generator", "huge"}),
        "Bootstrap632": (lambda v: schemes.Bootstrap632(3, random_state=v).test_masks(
            [0, 1] * 10), {"zero", "seedseq", "generator", "huge"}),
        "NullSource.sample.rng": (lambda v: sources.NullSource(30, 2).sample(v),
                                  {"zero", "seedseq", "generator", "huge"}),
        "random_ban.rng": (lambda v: sources.random_ban(v, n_attributes=4),
                           {"zero", "seedseq", "generator", "huge"}),
        "accuracy_table": (lambda v: __import__("calibsim").comparison.accuracy_table(
            ["naive_bayes", "c45"], {"cl": __import__("calibsim").load_uci("contact-lenses"),
                                     "w": __import__("calibsim").load_uci("weather.nominal")},
            design="2x2", random_state=v), {"zero", "huge", "seedseq"}),
    }
    for name, (fn, legal) in rs_funcs.items():
        for kind, v in seeds.items():
            add(f"{name}.random_state={kind}", "legal" if kind in legal else "error",
                (lambda fn=fn, v=v: fn(v)))

    # --- the issue's own cases, and degenerate-but-legal ones -----------------------------
    import calibsim
    vote = lambda: calibsim.load_uci("contact-lenses")  # noqa: E731
    specific = [
        ("posthoc shaffer 3000 learners", "error", lambda: stats.posthoc_from_ranks(
            np.linspace(1, 3000, 3000), 10, method="shaffer")),
        ("posthoc shaffer 200 learners", "legal", lambda: stats.posthoc_from_ranks(
            np.arange(1, 201.0), 10, method="shaffer")),
        ("posthoc bergmann 13", "error", lambda: stats.posthoc_from_ranks(np.arange(1, 14.0), 10)),
        ("posthoc one dataset", "error", lambda: stats.posthoc_from_ranks([1, 2, 3.], 1)),
        ("holm one dataset", "error", lambda: stats.holm_test([[.8, .7, .6]])),
        ("bergmann one dataset", "error", lambda: stats.bergmann_hommel_test([[.8, .7, .6]])),
        ("rank_z one dataset", "error", lambda: stats.rank_z_test([[.8, .7, .6]])),
        ("critical_difference one dataset", "error", lambda: stats.critical_difference(3, 1)),
        ("friedman ranks all first", "error", lambda: stats.friedman_from_ranks([1, 1, 1.], 5)),
        ("friedman ranks sum too big", "error", lambda: stats.friedman_from_ranks([3, 3, 3.], 5)),
        ("friedman ranks Demsar", "legal", lambda: stats.friedman_from_ranks(
            [3.143, 2.000, 2.893, 1.964], 14)),
        ("friedman ranks ties", "legal", lambda: stats.friedman_from_ranks([2, 2, 2.], 5)),
        ("posthoc ranks impossible pair", "error", lambda: stats.posthoc_from_ranks(
            [1.0, 1.0, 4.0], 5, method="holm")),
        ("friedman all ties scores", "legal", lambda: stats.friedman_test(np.ones((5, 3)))),
        ("nemenyi all ties", "legal", lambda: stats.nemenyi_test(np.ones((5, 3)))),
        ("calibrated_df type1 above 1", "error", lambda: calibration.calibrated_df(
            [2, 3], [1.5, 2.0], .05)),
        ("calibrated_df type1 negative", "error", lambda: calibration.calibrated_df(
            [2, 3], [-.5, .01], .05)),
        ("calibrated_df none qualifies", "legal", lambda: calibration.calibrated_df(
            [2, 3], [.5, .6], .05)),
        ("type1 string alpha", "error", lambda: calibration.type1_error_curve(
            "use_all_data", x3, alphas="0.05")),
        ("type1 dfs 1e7", "error", lambda: calibration.type1_error_curve(
            "use_all_data", x3, alphas=.05, dfs=np.arange(2, 10**7))),
        ("type1 dfs 1e5 legal", "legal", lambda: calibration.type1_error_curve(
            "use_all_data", x3[:5], alphas=.05, dfs=np.arange(2, 10**4))),
        ("sum_pmf 1e6 pmfs", "error", lambda: tuning.sum_pmf(*[[.5, .5]] * 10**6)),
        ("sum_pmf 100 pmfs", "legal", lambda: tuning.sum_pmf(*[[.5, .5]] * 100)),
        ("sum_pmf long", "error", lambda: tuning.sum_pmf(np.full(10**6, 1e-6), [.5, .5])),
        ("sum_pmf log positive", "error", lambda: tuning.sum_pmf([.1, .2], log=True)),
        ("sum_pmf no pmfs", "error", lambda: tuning.sum_pmf()),
        ("sum_pmf 2-D broadcast", "legal", lambda: tuning.sum_pmf([[.5, .5], [.1, .9]], [.3, .7])),
        ("sum_pmf broadcast mismatch", "error", lambda: tuning.sum_pmf(np.full((2, 2), .5),
                                                                       np.full((3, 2), .5))),
        ("labels_needed 1e12", "error", lambda: tuning.labels_needed(10**12, 1, .9, .95)),
        ("poisson_binomial bool", "error", lambda: tuning.poisson_binomial_pmf(np.ones(4, bool))),
        ("rank bool table", "error", lambda: calibsim.rank(pd.DataFrame(np.ones((5, 3), bool)))),
        ("rank complex table", "error", lambda: calibsim.rank(pd.DataFrame(np.ones((5, 3),
                                                                                  complex)))),
        ("rank datetime table", "error", lambda: calibsim.rank(pd.DataFrame(
            np.full((5, 3), np.datetime64("2020-01-01"))))),
        ("rank dup learner columns", "error", lambda: calibsim.rank(pd.DataFrame(
            scores[:, :3], columns=["a", "b", "a"]))),
        ("rank dup data sets", "error", lambda: calibsim.rank(pd.DataFrame(
            scores, index=list("aabcdefg")))),
        ("rank one data set", "error", lambda: calibsim.rank(pd.DataFrame(scores[:1]))),
        ("rank legal wide", "legal", lambda: calibsim.rank(pd.DataFrame(scores))),
        ("rank long bool scores", "error", lambda: calibsim.rank(pd.DataFrame(
            {"dataset": list("aabbcc"), "learner": list("xyxyxy"), "score": [True, False] * 3}))),
        ("rank long dup rows", "error", lambda: calibsim.rank(pd.DataFrame(
            {"dataset": list("aabb"), "learner": list("xxyy"), "score": [.1, .2, .3, .4]}))),
        ("rank 1001 learners", "error", lambda: calibsim.rank(pd.DataFrame(
            rng.uniform(size=(3, 1001))), posthoc="holm")),
        ("compare one-class arrays", "error", lambda: calibsim.compare(
            "naive_bayes", "c45", np.zeros((20, 2), int), np.zeros(20, int), design="2x2")),
        ("compare one-class CSV", "error", lambda: calibsim.compare(
            "naive_bayes", "c45", calibsim.load_csv(d / "one_class.csv"), design="2x2")),
        ("compare one-class ARFF", "error", lambda: calibsim.compare(
            "naive_bayes", "c45", calibsim.load_arff(d / "one_class.arff"), design="2x2")),
        ("compare all-? CSV", "error", lambda: calibsim.compare(
            "naive_bayes", "c45", calibsim.load_csv(d / "all_q.csv"), design="2x2")),
        ("compare ?-one-class CSV", "error", lambda: calibsim.compare(
            "naive_bayes", "c45", calibsim.load_csv(d / "q_x_one_class.csv"), design="2x2")),
        ("compare ? as missing legal", "legal", lambda: calibsim.compare(
            "naive_bayes", "c45", calibsim.load_csv(d / "ok_missing.csv"), design="2x2")),
        ("compare test empty", "error", lambda: calibsim.compare(
            "naive_bayes", "c45", vote(), design="2x2", test="")),
        ("compare same learner twice warns", "legal", lambda: calibsim.compare(
            "naive_bayes", "naive_bayes", vote(), design="2x2")),
        ("compare_all dup labels", "legal", lambda: calibsim.compare_all(
            ["c45", "naive_bayes", "c45"], vote(), design="2x2")),
        ("compare y strings legal", "legal", lambda: calibsim.compare(
            "naive_bayes", "c45", rng.integers(0, 3, (30, 3)), np.array(["a", "b"] * 15),
            design="2x2")),
        ("compare X complex", "error", lambda: calibsim.compare(
            "naive_bayes", "c45", rng.integers(0, 3, (30, 3)) + 0j, np.arange(30) % 2,
            design="2x2")),
        ("compare X datetime", "error", lambda: calibsim.compare(
            "sklearn.tree.DecisionTreeClassifier()", "naive_bayes",
            np.full((30, 2), np.datetime64("2020-01-01")), np.arange(30) % 2, design="2x2")),
        ("compare 3 rows 10x10", "error", lambda: calibsim.compare(
            "naive_bayes", "c45", np.zeros((3, 2), int), np.array([0, 1, 0]))),
        ("load_csv all ?", "error", lambda: calibsim.load_csv(d / "all_q.csv")),
        ("load_csv ? missing legal", "legal", lambda: calibsim.load_csv(d / "ok_missing.csv")),
        ("load_csv NUL value", "error", lambda: calibsim.load_csv(d / "nul_value.csv")),
        ("load_csv NUL header", "error", lambda: calibsim.load_csv(d / "nul_header.csv")),
        ("load_csv dup header", "error", lambda: calibsim.load_csv(d / "dup_header.csv")),
        ("load_csv dup class header", "error", lambda: calibsim.load_csv(
            d / "dup_class_header.csv")),
        ("load_csv empty", "error", lambda: calibsim.load_csv(d / "empty.csv")),
        ("load_csv header only", "error", lambda: calibsim.load_csv(d / "header_only.csv")),
        ("load_csv one column", "error", lambda: calibsim.load_csv(d / "one_column.csv")),
        ("load_csv binary", "error", lambda: calibsim.load_csv(d / "binary.csv")),
        ("load_csv latin1", "error", lambda: calibsim.load_csv(d / "latin1.csv")),
        ("load_csv broken quote", "error", lambda: calibsim.load_csv(d / "broken_quote.csv")),
        ("load_csv semicolon", "error", lambda: calibsim.load_csv(d / "semicolon.csv")),
        ("load_csv crlf", "legal", lambda: calibsim.load_csv(d / "crlf.csv")),
        ("load_csv bom", "legal", lambda: calibsim.load_csv(d / "bom.csv")),
        ("load_csv inf", "error", lambda: calibsim.load_csv(d / "inf_value.csv")),
        ("load_csv wide 1000", "legal", lambda: calibsim.load_csv(d / "wide_1000.csv")),
        ("load_csv unicode header", "legal", lambda: calibsim.load_csv(d / "unicode_header.csv")),
        ("load_csv long field", "legal", lambda: calibsim.load_csv(d / "long_field.csv")),
        ("load_csv class missing", "error", lambda: calibsim.load_csv(
            d / "class_missing_one.csv")),
        ("load_csv folder", "error", lambda: calibsim.load_csv(d)),
        ("load_csv /dev/zero", "error", lambda: calibsim.load_csv("/dev/zero")),
        ("load_csv missing file", "error", lambda: calibsim.load_csv(d / "nope.csv")),
        ("load_csv name too long", "error", lambda: calibsim.load_csv("x" * 5000 + ".csv")),
        ("load_csv class_attribute unknown", "error", lambda: calibsim.load_csv(
            d / "ok.csv", class_attribute="nope")),
        ("load_arff one class", "legal", lambda: calibsim.load_arff(d / "one_class.arff")),
        ("load_arff class all missing", "error", lambda: calibsim.load_arff(
            d / "class_all_missing.arff")),
        ("load_arff dup attribute", "error", lambda: calibsim.load_arff(d / "dup_attr.arff")),
        ("load_arff string attribute", "error", lambda: calibsim.load_arff(d / "string_attr.arff")),
        ("load_arff date attribute", "error", lambda: calibsim.load_arff(d / "date_attr.arff")),
        ("load_arff numeric class", "error", lambda: calibsim.load_arff(d / "numeric_class.arff")),
        ("load_arff no data", "error", lambda: calibsim.load_arff(d / "no_data.arff")),
        ("load_arff garbage", "error", lambda: calibsim.load_arff(d / "garbage.arff")),
        ("load_arff binary", "error", lambda: calibsim.load_arff(d / "binary.arff")),
        ("load_arff 5000 values", "legal", lambda: calibsim.load_arff(d / "deep_nominal.arff")),
        ("load_uci unknown", "error", lambda: calibsim.load_uci("nope")),
        ("load_uci empty", "error", lambda: calibsim.load_uci("")),
        ("load_uci path escape", "error", lambda: calibsim.load_uci("../../etc/passwd")),
        ("from_arrays one row", "legal", lambda: calibsim.datasets.from_arrays([[1.0]], [0])),
        ("from_arrays complex", "error", lambda: calibsim.datasets.from_arrays(
            np.ones((4, 2)) * 1j, [0, 1, 0, 1])),
        ("from_arrays dup names", "error", lambda: calibsim.datasets.from_arrays(
            np.ones((4, 2)), [0, 1, 0, 1], attribute_names=["a", "a"])),
        ("from_arrays y 2-D", "error", lambda: calibsim.datasets.from_arrays(
            np.ones((4, 2)), np.ones((4, 2)))),
    ]
    for id_, expect, fn in specific:
        add(id_, expect, fn)

    # --- the 0-row rule: every learner, every dtype ---------------------------------------
    from calibsim import learners
    for name in learners.__all__:
        for dtype in ("int64", "float64", "nan"):
            def zero_rows(name=name, dtype=dtype):
                X = rng.integers(0, 2, (20, 3))
                X = X.astype(float) if dtype != "int64" else X
                if dtype == "nan":
                    X[0, 0] = np.nan
                est = getattr(learners, name)().fit(X, np.arange(20) % 2)
                return est.predict(X[:0])
            add(f"0 rows predict {name} {dtype}", "error", zero_rows)
            add(f"0 rows fit {name} {dtype}", "error",
                (lambda name=name, dtype=dtype: getattr(learners, name)().fit(
                    np.empty((0, 3), dtype if dtype != "nan" else float), [])))

    # --- the store: damaged blocks are quarantined, whatever the error --------------------
    for how in ("huge_header", "object_dtype", "truncated", "not_zip", "empty", "wrong_meta",
                "bad_json", "fortran_huge", "negative_shape", "member_missing"):
        add(f"store {how}", "legal", (lambda how=how: _store_case(d, how)))


def _store_case(d: Path, how: str):
    """A real block damaged ``how``: available() must skip it and quarantine it."""
    import io as _io
    import zipfile

    import numpy as np

    from calibsim.engine.store import Store, fingerprint
    root = Path(tempfile.mkdtemp(dir=d))
    st = Store(root)
    key = fingerprint({"how": how})
    path = st.save(key, 0, 3, {"s": np.arange(3.0)}, identity={"how": how})
    with zipfile.ZipFile(path) as zf:
        members = {i.filename: zf.read(i) for i in zf.infolist()}

    def header(shape, descr="<f8", fortran=False):
        h = _io.BytesIO()
        np.lib.format.write_array_header_1_0(h, {"descr": descr, "fortran_order": fortran,
                                                 "shape": shape})
        return h.getvalue()
    if how == "huge_header":
        members["s.npy"] = header((2**40,)) + np.arange(3.0).tobytes()
    elif how == "object_dtype":
        members["s.npy"] = header((3,), "|O") + b"\x80\x04N." * 3
    elif how == "fortran_huge":
        members["s.npy"] = header((2**20, 2**20), fortran=True) + np.arange(3.0).tobytes()
    elif how == "negative_shape":
        members["s.npy"] = header((3,)).replace(b"(3,)", b"(-3,)") + np.arange(3.0).tobytes()
    elif how == "member_missing":
        members.pop("s.npy")
    elif how == "wrong_meta":
        members["__meta__.npy"] = header((2,), "|u1") + b"{}"
    elif how == "bad_json":
        members["__meta__.npy"] = header((5,), "|u1") + b"{{{{{"
    if how == "truncated":
        path.write_bytes(path.read_bytes()[:40])
    elif how == "not_zip":
        path.write_bytes(b"not a zip file at all" * 10)
    elif how == "empty":
        path.write_bytes(b"")
    else:
        with zipfile.ZipFile(path, "w") as zf:
            for k, v in members.items():
                zf.writestr(k, v)
    fresh = Store(root)
    got = fresh.available(key)
    if got.size:
        raise AssertionError(f"damaged block ({how}) was used: {got}")
    if not (fresh.folder(key) / "quarantine").is_dir() and not (fresh.folder(key) /
                                                                 "stale").is_dir():
        raise AssertionError(f"damaged block ({how}) was not moved aside")
    return "quarantined"


def _spec_cases(cases):
    """Learner specs through calibsim.engine.scoring.parse_learner (never fitted)."""
    bad = [
        "__import__('os').system('true')", "eval('1')", "exec('x=1')", "open('/etc/passwd')",
        "getattr(sklearn, 'svm')", "sklearn.svm.SVC.__class__", "sklearn.svm.SVC().__dict__",
        "sklearn.svm.SVC()[0]", "sklearn.svm.SVC(C=[x for x in range(3)])",
        "sklearn.svm.SVC(C=(lambda: 1)())", "sklearn.svm.SVC(C=f'{1}')", "(x := 1)",
        "sklearn.svm.SVC(*[1])", "sklearn.svm.SVC(**{'C': 1})", "sklearn.svm.SVC(C=1 if 1 else 2)",
        "sklearn.svm.SVC(C=1+1)", "sklearn.svm.SVC(C=not 1)", "sklearn.svm.SVC(C={1, 2})",
        "sklearn.svm.SVC(C=...)", "sklearn.svm.SVC(C=b'x')",
        "sklearn.pipeline.make_pipeline(sklearn.preprocessing.StandardScaler(), sklearn.svm.SVC(), memory='/tmp/sweep_cache')",
        "make_pipeline(StandardScaler(), SVC(), memory='.')",
        "sklearn.pipeline.Pipeline([('s', StandardScaler()), ('c', SVC())], memory='x')",
        "Pipeline(steps=[('c', SVC())], memory=0)",
        "make_pipeline(HashingVectorizer(input='filename'), MultinomialNB())",
        "make_pipeline(HashingVectorizer(input='file'), MultinomialNB())",
        "make_pipeline(sklearn.feature_extraction.text.CountVectorizer(input='filename'), MultinomialNB())",
        "make_pipeline(FeatureAgglomeration(memory='x'), SVC())",
        "sklearn.svm.SVC(cachedir='x')", "sklearn.svm.SVC(path='/tmp')",
        "sklearn.conftest.pytest_runtest_setup", "sklearn.conftest.X", "sklearn.utils._testing.X",
        "sklearn.utils.validation.check_array", "sklearn.base.clone",
        "sklearn.externals.array_api_compat.numpy.asarray", "calibsim.engine.run.compute_scores",
        "calibsim.cli.main", "calibsim.learners._damaged.DamagedNN()", "calibsim._rng.source_key",
        "numpy.load", "pickle.loads", "joblib.load", "os.remove", "shutil.rmtree", "sys.exit",
        "sklearn.cluster.KMeans()", "KMeans()", "sklearn.cluster.DBSCAN()", "PCA()",
        "StandardScaler()", "make_pipeline(SVC(), StandardScaler())", "IsolationForest()",
        "sklearn.linear_model.Ridge()", "LinearRegression", "GridSearchCV(SVC(), {'C': [1]})",
        "sklearn.model_selection.GridSearchCV(estimator=SVC(), param_grid={'C': [1]})",
        "sklearn.ensemble.RandomForestClassifier(n_estimators=1000000000)",
        "RandomForestClassifier(n_estimators=100000)",
        "BaggingClassifier(RandomForestClassifier(n_estimators=1000), n_estimators=1000)",
        "MLPClassifier(hidden_layer_sizes=(10000000,))", "MLPClassifier(max_iter=10**9)",
        "MLPClassifier(max_iter=1000000000)", "SVC(cache_size=1e12)",
        "RandomForestClassifier(n_jobs=100000)", "RandomForestClassifier(n_jobs=-100000)",
        "PolynomialFeatures(degree=50)", "make_pipeline(PolynomialFeatures(degree=100), SVC())",
        "make_pipeline(Nystroem(n_components=10000000), SVC())",
        "KNeighborsClassifier(n_neighbors=10**9)", "LogisticRegression(max_iter=10**12)",
        "make_pipeline(" * 9 + "SVC()" + ")" * 9, "make_pipeline(" * 100 + "SVC()" + ")" * 100,
        "SVC(C=" + "[" * 50 + "1" + "]" * 50 + ")", "SVC(C=" + "(" * 300 + "1" + ")" * 300 + ")",
        "SVC(C=1" + "0" * 5000 + ")", "S" * 20_000, "SVC()\x00", "SVC(C=1, C=2)",
        "sklearn.svm.SVC(C=1)\nimport os", "sklearn.svm.SVC(C=1); import os", "",
        "   ", "()", "SVC(", "naive_bais", "c45(confidence=0.1)", "sklearn.SVC()",
        "sklearn.svm.SVR()", "ѕklearn.svm.SVC()", "sklearn.svm.SVC(kernel=sklearn.svm.SVC)",
        "sklearn.svm.SVC(C=SVC)", "VotingClassifier(estimators=[('a', SVC()), ('b', KMeans())])",
        "calibsim.learners.VotedPerceptron(n_iterations=10**9)",
        "calibsim.learners.VotedPerceptron(max_k=10**12)",
    ]
    good = [
        "sklearn.svm.SVC()", "SVC(C=2.0, kernel='linear')", "sklearn.svm.SVC",
        "make_pipeline(StandardScaler(), SVC(), memory=None)",
        "sklearn.pipeline.make_pipeline(sklearn.impute.SimpleImputer(strategy='median'), "
        "sklearn.linear_model.LogisticRegression(max_iter=1000))",
        "Pipeline([('s', StandardScaler()), ('c', LogisticRegression())])",
        "make_pipeline(make_column_transformer((SimpleImputer(), make_column_selector("
        "dtype_include='number')), (OneHotEncoder(handle_unknown='ignore'), "
        "make_column_selector(dtype_exclude='number'))), LogisticRegression())",
        "make_pipeline(HashingVectorizer(input='content'), MultinomialNB())",
        "RandomForestClassifier(n_estimators=500, random_state=0, n_jobs=1)",
        "RandomForestClassifier(n_jobs=-1)", "BaggingClassifier(SVC(), n_estimators=20)",
        "VotingClassifier(estimators=[('a', SVC()), ('b', GaussianNB())])",
        "StackingClassifier(estimators=[('a', SVC()), ('b', GaussianNB())])",
        "OneVsRestClassifier(LogisticRegression())", "MLPClassifier(hidden_layer_sizes=(50, 20))",
        "LinearDiscriminantAnalysis()", "calibsim.learners.C45(confidence=0.1)",
        "calibsim.learners.NaiveBayes", "naive_bayes", "c45", "ib1", "tan", "voted_perceptron",
        "make_pipeline(calibsim.preprocessing.NominalOneHot(), SVC())",
        "SVC(class_weight={0: 1.0, 1: 2.0})", "SVC(C=-1.0)",  # a bad C: sklearn refuses at fit
        "make_pipeline(" * 5 + "SVC()" + ")" * 5, "DecisionTreeClassifier(max_depth=1000000000000)",
        "make_pipeline(PolynomialFeatures(degree=3), SVC())", "SVC(cache_size=500)",
        "  sklearn.svm.SVC( C = 1.0 )  ", "HistGradientBoostingClassifier(max_iter=200)",
    ]

    def parse(spec):
        from calibsim.engine.scoring import parse_learner
        return parse_learner(spec, "a")
    for i, spec in enumerate(bad):
        cases.append(Case(f"spec bad {i:03d} {spec[:50]!r}", "api", "error",
                          (lambda s=spec: parse(s))))
    for i, spec in enumerate(good):
        cases.append(Case(f"spec good {i:03d} {spec[:50]!r}", "api", "legal",
                          (lambda s=spec: parse(s))))
    cases.append(Case("spec memory= wrote nothing", "api", "legal", _memory_spec_wrote_nothing))


def _memory_spec_wrote_nothing():
    """The memory= and input='filename' specs are refused and no file appears."""
    target = Path(tempfile.mkdtemp()) / "cache"
    from calibsim.engine.scoring import parse_learner
    for spec in (f"make_pipeline(StandardScaler(), LogisticRegression(), memory={str(target)!r})",
                 "make_pipeline(sklearn.feature_extraction.text.CountVectorizer("
                 f"input='filename'), MultinomialNB())"):
        try:
            parse_learner(spec, "a")
        except ValueError:
            pass
        else:
            raise AssertionError(f"accepted {spec}")
    if target.exists():
        raise AssertionError(f"{target} was written")
    return "refused, nothing written"


def _cli_cases(cases, d):
    def add(id_, expect, argv):
        cases.append(Case("cli " + id_, "cli", expect, argv))
    C = ["compare"]
    nb = ["--a", "naive_bayes", "--b", "c45"]
    small = ["--design", "2x2", "--no-progress", "--workers", "0"]
    data_cases = {
        "ok.csv": "legal", "ok_missing.csv": "legal", "all_q.csv": "error",
        "q_x_one_class.csv": "error", "one_class.csv": "error", "nul_value.csv": "error",
        "nul_header.csv": "error", "dup_header.csv": "error", "dup_class_header.csv": "error",
        "empty.csv": "error", "header_only.csv": "error", "one_column.csv": "error",
        "binary.csv": "error", "latin1.csv": "error", "broken_quote.csv": "error",
        "semicolon.csv": "error", "crlf.csv": "legal", "bom.csv": "legal",
        "two_rows.csv": "legal", "inf_value.csv": "error", "wide_1000.csv": "legal",
        "unicode_header.csv": "legal", "many_classes.csv": "legal", "long_field.csv": "legal",
        "class_missing_one.csv": "error",
        "no_header_numbers.csv": "error",          # its first row is read as a header: 0, 0, 0 "ok.arff": "legal",
        "one_class.arff": "error", "class_all_missing.arff": "error", "dup_attr.arff": "error",
        "string_attr.arff": "error", "date_attr.arff": "error", "numeric_class.arff": "error",
        "no_data.arff": "error", "garbage.arff": "error", "binary.arff": "error",
        "sparse.arff": "legal", "deep_nominal.arff": "legal",
    }
    for name, expect in data_cases.items():
        add(f"compare --data {name}", expect, C + ["--data", str(d / name)] + nb + small)
    # load_diabetes' target is integer-valued: calibsim reads it as 214 classes (defined)
    for name in ("vote", "iris", "sklearn:load_iris", "weather.nominal", "contact-lenses",
                 "sklearn:load_diabetes"):
        add(f"compare --data {name}", "legal", C + ["--data", name] + nb + small)
    for name in ("", " ", "nope", "/dev/null", "/dev/zero", str(d), str(d / "nope.arff"),
                 "x" * 5000, "sklearn:load_nothing", "sklearn:os.system", "sklearn:",
                 "../../../etc/passwd", "vote\x00", str(d / "scores_wide.csv") + "/x",
                 "sklearn:fetch_openml"):
        add(f"compare --data {name[:40]!r}", "error", C + ["--data", name] + nb + small)
    # learners
    specs_bad = ["make_pipeline(StandardScaler(), LogisticRegression(), memory='" + str(d / "c")
                 + "')", "make_pipeline(sklearn.feature_extraction.text.CountVectorizer("
                 "input='filename'), MultinomialNB())", "sklearn.cluster.KMeans()",
                 "RandomForestClassifier(n_estimators=1000000000)", "make_pipeline(" * 100
                 + "SVC()" + ")" * 100, "sklearn.conftest.X", "subprocess.run", "Ridge()",
                 "StandardScaler()", "os.system('true')", "", "naive_bais", "SVC(C=open('x'))",
                 "RandomForestClassifier(n_jobs=1000)", "MLPClassifier(max_iter=10000000)"]
    for i, spec in enumerate(specs_bad):
        add(f"compare --a bad {i:02d} {spec[:40]!r}", "error",
            C + ["--data", "vote", "--a", spec, "--b", "c45"] + small)
    specs_good = ["sklearn.tree.DecisionTreeClassifier(random_state=0)", "GaussianNB()",
                  "make_pipeline(StandardScaler(), LogisticRegression())", "ib1", "tan",
                  "voted_perceptron", "naive_bayes"]
    for i, spec in enumerate(specs_good):
        add(f"compare --a good {i:02d} {spec[:40]!r}", "legal",
            C + ["--data", "diabetes", "--a", spec, "--b", "c45"] + small)
    # flags
    flag_vals = {
        "--design": [("", "error"), ("0x2", "error"), ("2x1", "error"), ("x", "error"),
                     ("1000000x1000", "error"), ("2x2", "legal"), ("5x2cv", "legal"),
                     ("subsampling:3", "legal"), ("subsampling:1", "error"),
                     ("subsampling:3@0.9", "legal"), ("subsampling:3@1.5", "error"),
                     ("2x500", "error"), ("-2x2", "error"), ("2 x 2", "legal"),
                     ("２x２", "legal"), ("2x2\x00", "error")],
        "--test": [("", "error"), (" ", "error"), ("nope", "error"), ("cv5x2_t", "error"),
                   ("corrected_repeated_cv", "legal"), ("use_all_data", "legal"),
                   ("mcnemar", "error")],
        "--alpha": [("0", "error"), ("1", "error"), ("nan", "error"), ("inf", "error"),
                    ("-0.05", "error"), ("0.05", "legal"), ("1e-300", "legal"), ("x", "error"),
                    ("", "error")],
        "--df": [("calibrated", "legal"), ("textbook", "legal"), ("5", "legal"), ("-1", "error"),
                 ("0", "error"), ("nan", "error"), ("inf", "error"), ("x", "error"), ("", "error")],
        "--seed": [("-1", "error"), ("1.5", "error"), ("x", "error"), ("0", "legal"),
                   ("99999999999999999999999", "legal"), ("", "error")],
        "--repeats": [("1", "error"), ("0", "error"), ("1000000000", "error"), ("x", "error")],
        "--rope": [("-1", "error"), ("nan", "error"), ("inf", "error"), ("0.01", "legal")],
        "--threshold": [("0", "error"), ("1", "error"), ("1.5", "error"), ("nan", "error"),
                        ("0.9", "legal")],
        "--workers": [("-1", "error"), ("100000", "error"), ("x", "error")],
        "--class-attribute": [("nope", "error"), ("", "error")],
        "--correction": [("nope", "error")],
        "--scheduler": [("tcp://127.0.0.1:1", "error"), ("nonsense", "error"), ("", "error")],
    }
    for flag, values in flag_vals.items():
        for value, expect in values:
            extra = ["--method", "bayes"] if flag in ("--rope", "--threshold") else []
            extra += ["--replicability", "rerun"] if flag == "--repeats" else []
            argv = C + ["--data", "vote"] + nb + extra + [flag, value, "--no-progress"]
            if flag not in ("--design",):
                argv += ["--design", "2x2"] if flag not in ("--test",) else ["--design", "3x3"]
            if flag != "--workers":
                argv += ["--workers", "0"]
            add(f"compare {flag} {value[:30]!r}", expect, argv)
    add("compare --correction with 3 learners bad", "error",
        C + ["--data", "vote"] + nb + ["--learner", "ib1", "--correction", "nope"] + small)
    add("compare 3 learners", "legal", C + ["--data", "vote"] + nb + ["--learner", "ib1"] + small)
    add("compare same learner twice", "legal", C + ["--data", "vote", "--a", "c45", "--b", "c45"]
        + small)
    add("compare one learner", "error", C + ["--data", "vote", "--a", "c45"] + small)
    add("compare --cd-diagram one data set", "error", C + ["--data", "vote"] + nb + small + [
        "--cd-diagram", str(d / "cd.png")])
    add("compare --cd-diagram two data sets", "legal", C + ["--data", "vote", "--data",
        "contact-lenses"] + nb + ["--no-progress", "--workers", "0", "--cd-diagram",
                                  str(d / "cd2.png")])
    add("compare two data sets one one-class", "error", C + ["--data", "vote", "--data",
        str(d / "one_class.csv")] + nb + ["--no-progress", "--workers", "0"])
    add("compare two data sets one all-?", "error", C + ["--data", "vote", "--data",
        str(d / "all_q.csv")] + nb + ["--no-progress", "--workers", "0"])
    for out in ("/dev/full", "/dev/null", str(d), str(d / "ok.csv") + "/x.csv", "",
                "/proc/version", "x" * 5000 + ".csv"):
        add(f"compare --scores {out[:30]!r}", "error", C + ["--data", "vote"] + nb + small
            + ["--scores", out])
    add("compare --scores ok", "legal", C + ["--data", "vote"] + nb + small + ["--scores",
        str(d / "out" / "scores.csv")])
    # rank
    R = ["rank", "--scores"]
    rank_files = {"scores_wide.csv": "legal", "scores_long.csv": "legal",
                  "scores_folds.csv": "legal", "scores_dup_col.csv": "error",
                  "scores_dup_row.csv": "error", "scores_one_dataset.csv": "error",
                  "scores_one_learner.csv": "error", "scores_bool.csv": "error",
                  "scores_complex.csv": "error", "scores_nan.csv": "error",
                  "scores_inf.csv": "error", "scores_text.csv": "error", "scores_nul.csv": "error",
                  "scores_empty.csv": "error", "scores_13.csv": "error",
                  "scores_1500.csv": "error", "scores_ties.csv": "legal",
                  "scores_negative_cost.csv": "error", "scores_binary.csv": "error",
                  "ok.arff": "error", "study_ok.toml": "error"}
    for name, expect in rank_files.items():
        add(f"rank {name}", expect, R + [str(d / name)])
    for post in ("holm", "shaffer", "nemenyi", "bergmann_hommel", "nope"):
        add(f"rank 13 learners --posthoc {post}", "error" if post in ("bergmann_hommel", "nope")
            else "legal", R + [str(d / "scores_13.csv"), "--posthoc", post])
    for flag, value, expect in [
            ("--cd-diagram", "/dev/full", "error"), ("--graph", "/dev/full", "error"),
            ("--cd-diagram", "/dev/null", "error"), ("--cd-diagram", str(d), "error"),
            ("--cd-diagram", str(d / "r" / "cd.png"), "legal"),
            ("--graph", str(d / "r" / "g.png"), "legal"),
            ("--cd-diagram", str(d / "ok.csv") + "/cd.png", "error"),
            ("--posterior-plot", "/dev/full", "error"), ("--alpha", "0", "error"),
            ("--alpha", "1.5", "error"), ("--folds-per-run", "0", "error"),
            ("--folds-per-run", "-3", "error"), ("--prior-order", "L0,L1,L2,L3", "legal"),
            ("--prior-order", "L0,L0,L1,L2", "error"), ("--prior-order", "nope", "error"),
            ("--prior-order", "", "error"), ("--cost-column", "nope", "error"),
            ("--score-column", "nope", "error"), ("--rope", "-1", "error"),
            ("--rope", "nan", "error"), ("--pairwise-test", "cv5x2_f", "error"),
            ("--markdown", None, "legal"), ("--lower-is-better", None, "legal")]:
        argv = R + [str(d / "scores_wide.csv"), flag] + ([value] if value is not None else [])
        if flag == "--rope":
            argv += ["--method", "bayes"]
        add(f"rank {flag} {str(value)[:30]!r}", expect, argv)
    add("rank --study with no scores", "error", ["rank", "--study", str(d / "study_ok.toml"),
                                                 "--scheme", "nope"])
    for name in ("", "/dev/null", str(d), "nope.csv", "x" * 5000):
        add(f"rank --scores {name[:30]!r}", "error", R + [name])
    # run / report
    for name in _studies():
        expect = "legal" if name in ("study_ok.toml", "study_svc_ok.toml") else "error"
        for cmd in ("run", "report"):
            if cmd == "report" and expect == "legal":
                continue
            add(f"{cmd} {name}", expect, [cmd, str(d / name), "--out", str(d / "o" / name),
                                          "--results", str(d / "res"), "--workers", "0",
                                          "--no-progress"] if cmd == "run" else
                [cmd, str(d / name), "--out", str(d / "o" / name), "--results", str(d / "res")])
    for path in ("", " ", "x" * 5000, "/dev/null", "/dev/zero", str(d / "nope.toml"),
                 str(d / "ok.csv"), str(d / "binary.csv")):
        add(f"run {path[:30]!r}", "error", ["run", path, "--workers", "0", "--no-progress"])
    for flag, value in (("--n-datasets", "0"), ("--n-datasets", "x"), ("--n-datasets", "-1"),
                        ("--n-datasets", "100000000000000"), ("--out", "/dev/full"),
                        ("--out", str(d / "ok.csv")), ("--results", str(d / "ok.csv")),
                        ("--out", ""), ("--results", ""), ("--workers", "-2"),
                        ("--out", "x" * 5000)):
        add(f"run {flag} {value[:30]!r}", "error", ["run", str(d / "study_ok.toml"), flag, value,
                                                    "--workers", "0", "--no-progress"]
            if flag != "--workers" else ["run", str(d / "study_ok.toml"), flag, value])
    # df, calibrate, list, clean, differences
    for argv, expect in [
            (["df", "--test", ""], "error"), (["df", "--test", "nope"], "error"),
            (["df", "--test", "corrected_repeated_cv"], "legal"),
            (["df", "--test", "corrected_repeated_cv", "--folds", "1"], "error"),
            (["df", "--test", "corrected_repeated_cv", "--folds", "1000000"], "error"),
            (["df", "--test", "corrected_repeated_cv", "--runs", "0"], "error"),
            (["df", "--test", "corrected_repeated_cv", "--alpha", "0.07"], "error"),
            (["df"], "legal"), (["df", "--alpha", "0.01"], "legal"),
            (["calibrate", "--test", ""], "error"), (["calibrate", "--test", "nope"], "error"),
            (["calibrate", "--test", "use_all_data", "--n-instances", "1000000000000"], "error"),
            (["calibrate", "--test", "use_all_data", "--n-datasets", "0"], "error"),
            (["calibrate", "--test", "use_all_data", "--folds", "1"], "error"),
            (["calibrate", "--test", "use_all_data", "--df-max", "10000000000"], "error"),
            (["calibrate", "--test", "use_all_data", "--class-prior", "1"], "error"),
            (["calibrate", "--test", "use_all_data", "--results", "/dev/full"], "error"),
            (["calibrate", "--test", "use_all_data", "--results", ""], "error"),
            (["calibrate", "--test", "use_all_data", "--n-datasets", "3", "--n-instances", "30",
              "--folds", "2", "--runs", "2", "--workers", "0", "--no-progress", "--results",
              str(d / "cal")], "legal"),
            (["list"], "legal"), (["list", "nope"], "error"), (["list", "tests"], "legal"),
            # a folder without studies gets a documented answer: where the studies are
            (["list", "studies", "--studies-dir", str(d / "nope")], "legal"),
            (["list", "studies", "--studies-dir", str(d / "ok.csv")], "legal"),
            (["clean", "--results", str(d / "nope"), "--dry-run"], "error"),
            (["clean", "--results", str(d / "ok.csv")], "error"),
            (["clean", "--results", ""], "error"),
            (["differences", "--paper", "nope"], "error"), (["nope"], "error"), ([], "error"),
            (["--version"], "legal"), (["compare"], "error"), (["rank"], "error"),
            (["run"], "error")]:
        add(" ".join(argv)[:70] or "(no arguments)", expect, argv)


def _proc_cases(cases, d):
    """A few through the real entry point, ``python -m calibsim``."""
    for argv, expect in [
            (["compare", "--data", str(d / "all_q.csv"), "--a", "naive_bayes", "--b", "c45"],
             "error"),
            (["compare", "--data", "vote", "--a", "make_pipeline(" * 100 + "SVC()" + ")" * 100,
              "--b", "c45"], "error"),
            (["compare", "--data", "vote", "--a", "make_pipeline(StandardScaler(), "
              "LogisticRegression(), memory='" + str(d / "proc_cache") + "')", "--b", "c45"],
             "error"),
            (["compare", "--data", "vote", "--a", "make_pipeline(sklearn.feature_extraction.text."
              "CountVectorizer(input='filename'), MultinomialNB())", "--b", "c45"], "error"),
            (["rank", "--scores", str(d / "scores_wide.csv"), "--cd-diagram", "/dev/full"],
             "error"),
            (["run", ""], "error"), (["run", "x" * 5000], "error"),
            (["compare", "--data", "vote", "--a", "naive_bayes", "--b", "c45", "--test", ""],
             "error"),
            (["compare", "--data", "vote", "--a", "naive_bayes", "--b", "c45", "--design",
              "2x2", "--no-progress"], "legal"),
            (["compare", "--data", str(d / "one_class.arff"), "--a", "naive_bayes", "--b",
              "c45"], "error")]:
        cases.append(Case("proc " + " ".join(argv)[:70], "proc", expect, argv))


# ---------------------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------------------

def classify_api(case, fn):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fn()
        except MemoryError as exc:
            return "memory", f"MemoryError: {exc}"
        except (ValueError, TypeError, OSError) as exc:
            return "clean error", f"{type(exc).__name__}: {exc}"
        except Exception as exc:                          # noqa: BLE001
            return "traceback", f"{type(exc).__name__}: {exc}\n{traceback.format_exc()[-600:]}"
    return ("legal" if case.expect == "legal" else "silent"), "returned"


def classify_cli(case, argv):
    from calibsim.cli import main
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
        except MemoryError as exc:
            return "memory", f"MemoryError: {exc}"
        except BaseException as exc:                      # noqa: BLE001
            return "traceback", f"{type(exc).__name__}: {exc}\n{traceback.format_exc()[-600:]}"
    finally:
        sys.stdout, sys.stderr = old
    text = err.getvalue()
    return _cli_class(case, code, text)


def _cli_class(case, code, text):
    last = [ln for ln in text.strip().splitlines() if ln.strip()][-1:] or [""]
    if "Traceback (most recent call last)" in text:
        return "traceback", text[-600:]
    if "MemoryError" in text:
        return "memory", text[-300:]
    if code in (0, None):
        return ("legal" if case.expect == "legal" else "silent"), last[0][:300]
    if code in (1, 2):
        return "clean error", last[0][:300]
    return "traceback", f"exit status {code}: {text[-300:]}"


def worker(tmp: Path, start: int, only: str | None) -> None:
    """Run cases from ``start``; one JSON line per event on the saved stdout descriptor."""
    import resource
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    import matplotlib
    matplotlib.use("Agg")
    import calibsim.cli  # noqa: F401  (imports before the cap)
    import calibsim.comparison  # noqa: F401
    cases = build_cases(tmp)
    with open("/proc/self/statm") as fh:
        vm = int(fh.read().split()[0]) * resource.getpagesize()
    cap = vm + int(float(os.environ.get("SWEEP_MEMORY_GIB", "4")) * 2**30)
    resource.setrlimit(resource.RLIMIT_AS, (cap, resource.getrlimit(resource.RLIMIT_AS)[1]))
    os.environ["CALIBSIM_CODE_VERSION"] = "sweep"
    for i in range(start, len(cases)):
        case = cases[i]
        if case.kind == "proc" or (only and case.kind != only):
            continue
        proto.write(json.dumps({"i": i, "start": True}) + "\n")
        t0 = time.perf_counter()
        cls, msg = (classify_api(case, case.run) if case.kind == "api"
                    else classify_cli(case, case.run))
        proto.write(json.dumps({"i": i, "cls": cls, "msg": msg[:2000],
                                "s": round(time.perf_counter() - t0, 2)}) + "\n")
    proto.write(json.dumps({"done": True}) + "\n")


def run_proc(case, timeout):
    env = dict(os.environ, CALIBSIM_CODE_VERSION="sweep")
    t0 = time.perf_counter()
    try:
        p = subprocess.run([sys.executable, "-m", "calibsim", *case.run], capture_output=True,
                           text=True, timeout=timeout, cwd=_ROOT, env=env)
    except subprocess.TimeoutExpired:
        return "hang", f"no answer in {timeout} s", timeout
    cls, msg = _cli_class(case, p.returncode, p.stderr)
    return cls, msg, round(time.perf_counter() - t0, 2)


def _run_worker(cases, tmp, start, args, results) -> int:
    """Run a worker from case ``start``; return where the next worker starts (len: done)."""
    cmd = [sys.executable, __file__, "--worker", str(tmp), str(start)] + (
        ["--only", args.only] if args.only else [])
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, cwd=_ROOT,
                            env=dict(os.environ, PYTHONPATH=str(_ROOT)))
    fd = proc.stdout.fileno()
    current, last, buf = None, start - 1, b""
    deadline = time.monotonic() + 900                  # imports under load
    try:
        while True:
            lines = []
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                lines.append(line)
            for line in lines:
                ev = json.loads(line)
                if ev.get("done"):
                    return len(cases)
                if ev.get("start"):
                    current, deadline = ev["i"], time.monotonic() + args.timeout
                    continue
                results[ev["i"]] = (ev["cls"], ev["msg"], ev["s"])
                last, current = ev["i"], None
                if args.verbose or ev["cls"] in CLASSES[2:]:
                    print(f"[{ev['cls']}] {cases[ev['i']].id} ({ev['s']} s): "
                          f"{ev['msg'][:300]}", flush=True)
            ready, _, _ = select.select([fd], [], [], 1.0)
            if ready:
                chunk = os.read(fd, 1 << 16)
                if chunk:
                    buf += chunk
                    continue
                status = proc.wait()                   # the worker died
                if current is not None:
                    results[current] = ("traceback", f"worker died (status {status})", 0)
                    print(f"[traceback] {cases[current].id}: worker died ({status})",
                          flush=True)
                    return current + 1
                return last + 1 if last + 1 > start else len(cases)
            if time.monotonic() > deadline:
                if current is None:
                    raise RuntimeError("the sweep's worker did not start")
                results[current] = ("hang", f"no answer in {args.timeout:g} s", args.timeout)
                print(f"[hang] {cases[current].id}", flush=True)
                return current + 1
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per case (default 60)")
    ap.add_argument("--only", choices=("api", "cli", "proc"), default=None)
    ap.add_argument("--list", action="store_true", help="print the cases and stop")
    ap.add_argument("--verbose", action="store_true", help="print every outcome")
    ap.add_argument("--dir", default=None, help="folder for fixtures (default: a temporary one)")
    ap.add_argument("--worker", nargs=2, metavar=("DIR", "START"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker(Path(args.worker[0]), int(args.worker[1]), args.only)
        return 0
    tmp = Path(args.dir or tempfile.mkdtemp(prefix="calibsim_sweep_"))
    make_fixtures(tmp)
    cases = build_cases(tmp)
    if args.list:
        for c in cases:
            print(f"{c.kind:5s} {c.expect:6s} {c.id}")
        print(f"{len(cases)} cases")
        return 0
    results: dict = {}
    t_all = time.perf_counter()
    start = 0
    while args.only != "proc" and start < len(cases):
        start = _run_worker(cases, tmp, start, args, results)
    for i, c in enumerate(cases):
        if c.kind == "proc" and args.only in (None, "proc"):
            results[i] = run_proc(c, args.timeout * 2)
            if args.verbose or results[i][0] in CLASSES[2:]:
                print(f"[{results[i][0]}] {c.id}: {results[i][1][:300]}", flush=True)
    ran = [i for i in range(len(cases)) if i in results]
    counts = Counter(results[i][0] for i in ran)
    by_kind = {k: Counter(results[i][0] for i in ran if cases[i].kind == k)
               for k in ("api", "cli", "proc")}
    unnamed = sum(1 for i in ran if cases[i].kind == "api" and results[i][0] == "clean error"
                  and "`" not in results[i][1] and "spec" not in cases[i].id)
    print(f"\n{len(ran)} cases in {time.perf_counter() - t_all:.0f} s "
          f"(api {sum(by_kind['api'].values())}, cli {sum(by_kind['cli'].values())}, "
          f"proc {sum(by_kind['proc'].values())}); fixtures in {tmp}")
    print(f"{'class':12s} {'all':>5s} {'api':>5s} {'cli':>5s} {'proc':>5s}")
    for cls in CLASSES:
        print(f"{cls:12s} {counts[cls]:5d} {by_kind['api'][cls]:5d} {by_kind['cli'][cls]:5d} "
              f"{by_kind['proc'][cls]:5d}")
    print(f"(API clean errors whose message names no `parameter`: {unnamed})")
    refused_legal = [i for i in ran if cases[i].expect == "legal"
                     and results[i][0] == "clean error"]
    print(f"(cases expected legal that were refused, counted as clean errors: "
          f"{len(refused_legal)})")
    for i in refused_legal:
        print(f"  refused: {cases[i].id}: {results[i][1][:200]}")
    if args.verbose:
        for i in ran:
            if cases[i].kind == "api" and results[i][0] == "clean error" and \
                    "`" not in results[i][1] and "spec" not in cases[i].id:
                print(f"  unnamed: {cases[i].id}: {results[i][1][:160]}")
    slow = sorted(((results[i][2], cases[i].id) for i in ran), reverse=True)[:5]
    print("slowest:", "; ".join(f"{s:.1f} s {n[:60]}" for s, n in slow))
    return 0 if all(counts[c] == 0 for c in CLASSES[2:]) else 1


if __name__ == "__main__":
    sys.exit(main())
