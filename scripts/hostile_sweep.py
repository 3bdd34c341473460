"""Hostile sweep, round 4 (issue 45): new bad and borderline inputs, classified by outcome.

Not part of the test suite (it takes minutes). Every case runs in a child process under
a time cap (SIGALRM) and an address-space cap; a child that dies or stops answering is
replaced and the case is counted as ``memory`` or ``hang``. Classes:

- ``ok``: a legal input gave a result (or exit 0);
- ``refused-one-line``: a bad input raised ValueError / TypeError / OSError /
  FileNotFoundError with a one-line message (CLI: exit 2 and one error line);
- ``traceback``: any other exception, or a CLI exit other than 0 and 2;
- ``hang``: no answer within the time cap;
- ``memory``: MemoryError, or the child died;
- ``silent-wrong``: a bad input was accepted, or a legal one refused (the case says
  which it is).

Usage: ``python scripts/hostile_sweep.py [--timeout 30] [--only PREFIX] [--verbose]``
from the repository root. Prints one line per case that is not as expected, then the
counts by class.
"""

from __future__ import annotations

import argparse
import collections
import json
import multiprocessing as mp
import os
import sys
import tempfile
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

REFUSALS = (ValueError, TypeError, OSError)    # FileNotFoundError is an OSError


# --------------------------------------------------------------------------- files

def _write(folder: Path, name: str, text, binary=False) -> str:
    p = folder / name
    if binary:
        p.write_bytes(text)
    else:
        p.write_text(text, encoding="utf-8")
    return str(p)


def _csv_rows(n_rows, n_cols, cls=lambda i: "xy"[i % 2], value=lambda i, j: f"{(i * 7 + j) % 13}"):
    head = ",".join(f"a{j}" for j in range(n_cols)) + ",class"
    body = "\n".join(",".join(value(i, j) for j in range(n_cols)) + f",{cls(i)}"
                     for i in range(n_rows))
    return head + "\n" + body + "\n"


def make_files(folder: Path) -> dict:
    """The data files the cases read: name -> path."""
    f = {}
    for n in (25_000, 100_000, 1_000_000):
        with open(folder / f"wide{n}.csv", "w") as fh:
            fh.write(",".join(f"c{i}" for i in range(n)) + "\n")
            for _ in range(3):
                fh.write(",".join(["1"] * (n - 1)) + ",a\n")
        f[f"wide{n}"] = str(folder / f"wide{n}.csv")
    f["wide19999"] = _write(folder, "w19999.csv", _csv_rows(30, 19_999))
    f["longcell"] = _write(folder, "longcell.csv", "a,class\n" + "x" * (9 * 2**20) + ",y\n1,x\n")
    f["longheader"] = _write(folder, "longheader.csv", "a" * (9 * 2**20) + ",class\n1,x\n")
    f["ok"] = _write(folder, "ok.csv", _csv_rows(60, 4))
    f["ok_nominal"] = _write(folder, "okn.csv", _csv_rows(60, 3, value=lambda i, j: "uvw"[(i + j) % 3]))
    f["float_class"] = _write(folder, "fc.csv", _csv_rows(60, 3, cls=lambda i: f"{i * 1.37:.2f}"))
    f["int_class_31"] = _write(folder, "ic31.csv", _csv_rows(93, 3, cls=lambda i: str(i % 31)))
    f["int_class_30"] = _write(folder, "ic30.csv", _csv_rows(300, 3, cls=lambda i: str(i % 30)))
    f["int_class_5"] = _write(folder, "ic5.csv", _csv_rows(100, 3, cls=lambda i: str(i % 5)))
    f["int_class_1000"] = _write(folder, "ic1000.csv", _csv_rows(1000, 2, cls=str))
    f["neg_class"] = _write(folder, "neg.csv", _csv_rows(60, 3, cls=lambda i: str(-(i % 2))))
    f["half_class"] = _write(folder, "half.csv", _csv_rows(60, 3, cls=lambda i: "0.5" if i % 2 else "1"))
    for digits in (19, 25, 308, 309, 400, 2000):
        f[f"bigint{digits}"] = _write(folder, f"big{digits}.csv", _csv_rows(
            40, 2, value=lambda i, j, d=digits: ("9" * (d - 1) + str(i % 10)) if j == 0 else str(i)))
    f["neg_bigint"] = _write(folder, "negbig.csv", _csv_rows(
        40, 2, value=lambda i, j: ("-" + "9" * 400) if j == 0 else str(i)))
    f["sci_overflow"] = _write(folder, "sci.csv", _csv_rows(40, 2, value=lambda i, j: "1e400" if j == 0 else str(i)))
    f["sci_ok"] = _write(folder, "scio.csv", _csv_rows(40, 2, value=lambda i, j: f"{i}e300" if j == 0 else str(i)))
    f["two_rows"] = _write(folder, "two.csv", "a,b,class\n1,2,x\n3,4,y\n")
    f["three_rows"] = _write(folder, "three.csv", "a,b,class\n1,2,x\n3,4,y\n5,6,x\n")
    f["one_per_class"] = _write(folder, "opc.csv", _csv_rows(50, 2, cls=lambda i: f"k{i}"))
    f["two_per_class"] = _write(folder, "tpc.csv", _csv_rows(60, 2, cls=lambda i: f"k{i // 2}"))
    f["one_class"] = _write(folder, "onec.csv", _csv_rows(30, 2, cls=lambda i: "x"))
    f["all_q"] = _write(folder, "allq.csv", _csv_rows(30, 2, value=lambda i, j: "?"))
    f["crlf"] = _write(folder, "crlf.csv", _csv_rows(60, 3).replace("\n", "\r\n"))
    f["bom"] = _write(folder, "bom.csv", "\ufeff" + _csv_rows(60, 3))
    f["unicode"] = _write(folder, "uni.csv", _csv_rows(60, 3).replace("a0", "ä0").replace(",class", ",klaß"))
    f["quoted"] = _write(folder, "quoted.csv", 'a,"b,c",class\n' + "\n".join(
        f'{i},"{i % 3}",{"xy"[i % 2]}' for i in range(60)) + "\n")
    f["empty"] = _write(folder, "empty.csv", "")
    f["header_only"] = _write(folder, "ho.csv", "a,b,class\n")
    f["dup_header"] = _write(folder, "dup.csv", "a,a,class\n1,2,x\n3,4,y\n")
    f["nul"] = _write(folder, "nul.csv", b"a,class\n1\x00,x\n2,y\n", binary=True)
    f["latin1"] = _write(folder, "lat.csv", "a,class\n1,caf\xe9\n2,x\n".encode("latin-1"), binary=True)
    f["missing_class"] = _write(folder, "mc.csv", "a,class\n1,x\n2,\n3,y\n")
    f["ragged"] = _write(folder, "ragged.csv", "a,b,class\n1,2,x\n3,y\n5,6,7,x\n")
    f["inf_value"] = _write(folder, "inf.csv", _csv_rows(40, 2, value=lambda i, j: "inf" if i == 3 else str(i)))
    # ARFF
    attrs = lambda n: "".join(f"@attribute a{i} numeric\n" for i in range(n))
    f["arff_wide"] = _write(folder, "wide.arff", "@relation w\n" + attrs(30_000)
                            + "@attribute class {x,y}\n@data\n" + ",".join(["1"] * 30_000) + ",x\n")
    f["arff_ok"] = _write(folder, "ok.arff", "@relation ok\n" + attrs(3) + "@attribute class {x,y}\n@data\n"
                          + "\n".join(f"{i},{i % 3},{i % 5},{'xy'[i % 2]}" for i in range(60)) + "\n")
    f["arff_longline"] = _write(folder, "long.arff", "@relation l\n@attribute s {" + ",".join(
        f"v{i}" for i in range(1_300_000)) + "}\n@attribute class {x,y}\n@data\nv1,x\n")
    f["arff_numclass"] = _write(folder, "num.arff", "@relation n\n" + attrs(2) + "@attribute class numeric\n@data\n"
                                + "\n".join(f"{i},{i},{i * 0.5}" for i in range(20)) + "\n")
    f["arff_string"] = _write(folder, "str.arff", "@relation s\n@attribute t string\n@attribute class {x,y}\n@data\n'a',x\n")
    f["arff_empty"] = _write(folder, "empty.arff", "@relation e\n" + attrs(2) + "@attribute class {x,y}\n@data\n")
    f["arff_garbage"] = _write(folder, "garbage.arff", "this is not arff\n")
    # scores
    import numpy as np
    rng = np.random.default_rng(45)
    a = 0.8 + 0.03 * rng.standard_normal((10, 10))
    b = a - 0.02 + 0.01 * rng.standard_normal((10, 10))
    rows = lambda sa, sb: "run,fold,learner,score\n" + "".join(
        f"{r},{k},A,{float(sa[r, k])!r}\n{r},{k},B,{float(sb[r, k])!r}\n" for r in range(10) for k in range(10))
    f["scores_frac"] = _write(folder, "sfrac.csv", rows(a, b))
    f["scores_pct"] = _write(folder, "spct.csv", rows(100 * a, 100 * b))
    f["scores_neg"] = _write(folder, "sneg.csv", rows(-a, -b))
    f["scores_big"] = _write(folder, "sbig.csv", rows(1000 * a, 1000 * b))
    f["scores_mixed"] = _write(folder, "smix.csv", rows(a, 100 * b))
    return f


# --------------------------------------------------------------------------- cases

def cases(files: dict, tmp: str) -> list:
    """(name, expect, kind, payload): expect 'ok' or 'refuse'; kind 'cli' or 'api'."""
    out = []
    cli = lambda name, expect, *argv: out.append((name, expect, "cli", list(argv)))
    api = lambda name, expect, code: out.append((name, expect, "api", code))

    # 1. readers bounded before parsing
    for n in (25_000, 100_000, 1_000_000):
        api(f"csv/wide{n}", "refuse", f"from calibsim.datasets import load_csv; load_csv({files[f'wide{n}']!r})")
        cli(f"cli/compare wide{n}", "refuse", "compare", "--data", files[f"wide{n}"], "--a", "naive_bayes", "--b", "c45")
    api("csv/wide19999 loads", "ok", f"from calibsim.datasets import load_csv; assert load_csv({files['wide19999']!r}).X.shape == (30, 19999)")
    api("csv/wide raised by keyword", "ok", f"from calibsim.datasets import load_csv; load_csv({files['wide19999']!r}, max_columns=20000)")
    for v in (0, -1, 1.5, "10", True, None):
        api(f"csv/max_columns={v!r}", "ok" if v is None else "refuse",
            f"from calibsim.datasets import load_csv; load_csv({files['ok']!r}, max_columns={v!r})")
    for v in (0, -5, "x", 2.0):
        api(f"csv/max_line_bytes={v!r}", "refuse", f"from calibsim.datasets import load_csv; load_csv({files['ok']!r}, max_line_bytes={v!r})")
    for v in ("abc", "-3", "0", " 12 "):
        api(f"csv/env CALIBSIM_MAX_COLUMNS={v!r}", "ok" if v == " 12 " else "refuse",
            f"import os; os.environ['CALIBSIM_MAX_COLUMNS'] = {v!r}\nfrom calibsim.datasets import load_csv\ntry:\n    load_csv({files['ok']!r})\nfinally:\n    del os.environ['CALIBSIM_MAX_COLUMNS']")
    api("csv/env raises the bound", "ok", f"import os; os.environ['CALIBSIM_MAX_COLUMNS'] = '200000'\nfrom calibsim.datasets import load_csv\ntry:\n    load_csv({files['wide19999']!r})\nfinally:\n    del os.environ['CALIBSIM_MAX_COLUMNS']")
    api("csv/long cell", "refuse", f"from calibsim.datasets import load_csv; load_csv({files['longcell']!r})")
    api("csv/long header", "refuse", f"from calibsim.datasets import load_csv; load_csv({files['longheader']!r})")
    for key in ("arff_wide", "arff_longline", "arff_numclass", "arff_string", "arff_empty", "arff_garbage"):
        api(f"arff/{key}", "refuse", f"from calibsim.datasets import load_arff; load_arff({files[key]!r})")
    api("arff/ok", "ok", f"from calibsim.datasets import load_arff; load_arff({files['arff_ok']!r})")
    api("arff/wide raised", "ok", f"from calibsim.datasets import load_arff; load_arff({files['arff_wide']!r}, max_columns=40000)")
    api("arff/stream of bytes", "refuse", "import io; from calibsim.datasets import load_arff; load_arff(io.BytesIO(b'@relation x'))")
    for bad in ("None", "3", "b'x.csv'", "['a.csv']", "{'p': 1}", "3.5", "object()"):
        api(f"csv/path={bad}", "refuse", f"from calibsim.datasets import load_csv; load_csv({bad})")
    api("csv/path missing", "refuse", "from calibsim.datasets import load_csv; load_csv('/nonexistent/x.csv')")
    api("csv/path folder", "refuse", f"from calibsim.datasets import load_csv; load_csv({tmp!r})")

    # 2. loaders and targets
    import sklearn.datasets as skd
    for name in sorted(n for n in dir(skd) if n.startswith(("load_", "fetch_", "make_"))):
        ok = name in ("load_breast_cancer", "load_digits", "load_iris", "load_wine")
        api(f"sklearn/{name}", "ok" if ok else "refuse",
            f"from calibsim.sources import DatasetSource; DatasetSource(sklearn={name!r})")
    for junk in ("", "load_", "LOAD_IRIS", "load_iris ", "load_iris()", "../load_iris", "load_iris\x00"):
        api(f"sklearn/junk {junk!r}", "refuse", f"from calibsim.sources import DatasetSource; DatasetSource(sklearn={junk!r})")
    for loader in ("load_diabetes", "load_sample_images", "load_svmlight_file", "load_linnerud", "load_files"):
        cli(f"cli/sklearn:{loader}", "refuse", "compare", "--data", f"sklearn:{loader}", "--a", "naive_bayes", "--b", "c45")
    api("from_sklearn/diabetes", "refuse", "from sklearn.datasets import load_diabetes; from calibsim.datasets import from_sklearn; from_sklearn(load_diabetes())")
    api("from_sklearn/diabetes nominal", "ok", "from sklearn.datasets import load_diabetes; from calibsim.datasets import from_sklearn; from_sklearn(load_diabetes(), class_nominal=True)")
    api("from_sklearn/images", "refuse", "from sklearn.datasets import load_sample_images; from calibsim.datasets import from_sklearn; from_sklearn(load_sample_images())")
    api("from_sklearn/linnerud", "refuse", "from sklearn.datasets import load_linnerud; from calibsim.datasets import from_sklearn; from_sklearn(load_linnerud())")
    api("from_sklearn/tuple", "refuse", "from sklearn.datasets import load_iris; from calibsim.datasets import from_sklearn; from_sklearn(load_iris(return_X_y=True))")
    targets = {"float_class": "refuse", "int_class_31": "refuse", "int_class_1000": "refuse",
               "int_class_30": "ok", "int_class_5": "ok", "neg_class": "ok", "half_class": "refuse",
               "bigint19": "ok", "bigint25": "ok", "bigint308": "ok", "bigint309": "refuse",
               "bigint400": "refuse", "bigint2000": "refuse", "neg_bigint": "refuse",
               "sci_overflow": "refuse", "sci_ok": "ok", "ok": "ok", "ok_nominal": "ok",
               "crlf": "ok", "bom": "ok", "unicode": "ok", "quoted": "ok", "empty": "refuse",
               "header_only": "refuse", "dup_header": "refuse", "nul": "refuse", "latin1": "refuse",
               "missing_class": "refuse", "ragged": "refuse", "one_class": "ok", "all_q": "ok",
               "inf_value": "refuse"}
    for key, expect in targets.items():
        api(f"csv/{key}", expect, f"from calibsim.datasets import load_csv; load_csv({files[key]!r})")
    for key in ("float_class", "int_class_31", "int_class_1000", "half_class"):
        api(f"csv/{key} declared nominal", "ok", f"from calibsim.datasets import load_csv; load_csv({files[key]!r}, class_nominal=True)")
    api("csv/bigint309 is not nominal", "refuse", f"from calibsim.datasets import load_csv; ds = load_csv({files['bigint309']!r}); assert ds.n_values[0] == 0")
    api("csv/bigint25 numeric", "ok", f"from calibsim.datasets import load_csv; ds = load_csv({files['bigint25']!r}); assert ds.n_values[0] == 0, ds.n_values")
    sizes = [("two_rows", "2x2", "refuse"), ("two_rows", "1x2", "refuse"), ("three_rows", "1x2", "refuse"),
             ("three_rows", "10x10", "refuse"), ("one_per_class", "2x2", "refuse"),
             ("two_per_class", "10x10", "refuse"), ("two_per_class", "2x2", "ok"),
             ("one_class", "2x2", "refuse"), ("ok", "subsampling:3", "ok"), ("ok", "5x2cv", "ok"),
             ("int_class_30", "10x10", "ok"), ("int_class_5", "2x5", "ok")]
    for key, design, expect in sizes:
        cli(f"cli/compare {key} {design}", expect, "compare", "--data", files[key], "--a", "naive_bayes", "--b", "c45",
            "--design", design, "--replicability", "none")
    cli("cli/class-nominal float class", "refuse", "compare", "--data", files["float_class"], "--a", "naive_bayes", "--b", "c45", "--design", "2x2", "--class-nominal")
    cli("cli/class-nominal int31", "ok", "compare", "--data", files["int_class_31"], "--a", "naive_bayes", "--b", "c45", "--design", "2x2", "--class-nominal")
    api("compare/regression y", "refuse", "import numpy as np, calibsim; X = np.random.default_rng(0).random((60, 3)); calibsim.compare('naive_bayes', 'c45', X, X[:, 0] * 100, design='2x2')")

    # 3. scores on a declared scale
    base = ("import numpy as np; from calibsim import compare_scores; rng = np.random.default_rng(3); "
            "a = 0.8 + 0.03 * rng.standard_normal((10, 10)); b = a - 0.02 + 0.01 * rng.standard_normal((10, 10)); ")
    for expr, expect in [("a, b", "ok"), ("100 * a, 100 * b", "ok"), ("-a, -b", "refuse"), ("a - 1, b - 1", "refuse"),
                         ("1000 * a, 1000 * b", "refuse"), ("a + 99.5, b + 99.5", "refuse"), ("a, 100 * b", "ok"),
                         ("0 * a, 0 * b", "ok"), ("0 * a + 1, 0 * b + 1", "ok"), ("0 * a + 100, 0 * b + 100", "ok"),
                         ("a * np.nan, b", "refuse"), ("a * np.inf, b", "refuse"), ("a + 1e-9, b", "ok"),
                         ("100 * a + 0.5, 100 * b", "ok"), ("a.astype(complex), b", "refuse"), ("a > 0.8, b > 0.8", "refuse")]:
        api(f"scores/{expr}", expect, base + f"r = compare_scores({expr})\nprint(r.splitter)")
    for metric, expect in [("'auc'", "ok"), ("'log_loss'", "ok"), ("'accuracy'", "ok"), ("'Accuracy'", "ok"),
                           ("''", "refuse"), ("None", "refuse"), ("3", "refuse"), ("['auc']", "refuse"), ("'  '", "refuse")]:
        api(f"scores/metric={metric} on negatives", expect if metric not in ("'accuracy'", "'Accuracy'") else "refuse",
            base + f"compare_scores(-a, -b, metric={metric})")
    api("scores/pct said", "ok", base + "r = compare_scores(100 * a, 100 * b); assert 'percentages' in r.splitter")
    api("scores/pct equals frac", "ok", base + "r1 = compare_scores(100 * a, 100 * b); r2 = compare_scores(a, b); assert abs(r1.pvalue - r2.pvalue) < 1e-12")
    for key, expect in [("scores_frac", "ok"), ("scores_pct", "ok"), ("scores_neg", "refuse"), ("scores_big", "refuse"), ("scores_mixed", "ok")]:
        cli(f"cli/scores-in {key}", expect, "compare", "--scores-in", files[key], "--replicability", "none")
    cli("cli/scores-in neg with metric", "ok", "compare", "--scores-in", files["scores_neg"], "--metric", "neg_log_loss", "--replicability", "none")
    cli("cli/metric without scores-in", "refuse", "compare", "--data", "iris", "--a", "naive_bayes", "--b", "c45", "--metric", "auc")
    cli("cli/metric empty", "refuse", "compare", "--scores-in", files["scores_frac"], "--metric", "", "--replicability", "none")

    # 4. learner budget (spec level and data level)
    spec = "from calibsim.engine._safe_spec import build_estimator; build_estimator({!r})"
    mlp = "sklearn.neural_network.MLPClassifier(hidden_layer_sizes={})"
    for layers, expect in [([10000] * 5, "refuse"), ([3000] * 50, "refuse"), ([4472, 4472], "ok"), ([4473, 4473], "refuse"),
                           ([100, 100, 100], "ok"), ([10000], "ok"), ([1] * 100, "ok"), ([1] * 101, "refuse"),
                           ([20000], "refuse"), ([0], "refuse"), ([-5], "refuse"), ([2000] * 6, "ok"), ([5000] * 3, "refuse")]:
        api(f"spec/mlp {layers[:3]}x{len(layers)}", expect, spec.format(mlp.format(layers)))
    for tol, expect in [("1e-300", "refuse"), ("1e-13", "refuse"), ("1e-12", "ok"), ("0.0", "refuse"), ("1e-3", "ok"), ("-1.0", "refuse")]:
        api(f"spec/SVC tol={tol}", expect, spec.format(f"sklearn.svm.SVC(tol={tol})"))
        api(f"spec/LogReg tol={tol}", "ok" if tol in ("1e-12", "1e-3", "0.0") else "refuse",
            spec.format(f"sklearn.linear_model.LogisticRegression(tol={tol})"))
    for p, expect in [("sklearn.linear_model.LogisticRegression(C=True)", "refuse"),
                      ("sklearn.linear_model.LogisticRegression(C=False)", "refuse"),
                      ("sklearn.linear_model.LogisticRegression(max_iter=True)", "refuse"),
                      ("sklearn.svm.SVC(gamma=True)", "refuse"), ("sklearn.svm.SVC(degree=True)", "refuse"),
                      ("sklearn.neighbors.KNeighborsClassifier(n_neighbors=True)", "refuse"),
                      ("sklearn.tree.DecisionTreeClassifier(max_depth=False)", "refuse"),
                      ("sklearn.tree.DecisionTreeClassifier(min_samples_leaf=True)", "refuse"),
                      ("sklearn.ensemble.RandomForestClassifier(bootstrap=False)", "ok"),
                      ("sklearn.ensemble.RandomForestClassifier(oob_score=True)", "ok"),
                      ("sklearn.linear_model.LogisticRegression(verbose=True)", "ok"),
                      ("sklearn.linear_model.LogisticRegression(warm_start=True)", "ok"),
                      ("sklearn.svm.SVC(probability=True, break_ties=True)", "ok"),
                      ("sklearn.naive_bayes.GaussianNB(var_smoothing=True)", "refuse"),
                      ("sklearn.linear_model.SGDClassifier(alpha=True)", "refuse"),
                      ("sklearn.ensemble.RandomForestClassifier(n_estimators=True)", "refuse")]:
        api(f"spec/{p}", expect, spec.format(p))
    budget = ("import os; os.environ.pop('CALIBSIM_MAX_MODELS', None)\n"
              "from calibsim.engine._safe_spec import build_estimator, check_fit_budget\n"
              "check_fit_budget(build_estimator({!r}), {}, {}, 'x', n_fits={})")
    poly = "sklearn.pipeline.make_pipeline(sklearn.preprocessing.PolynomialFeatures(degree={}{}), sklearn.linear_model.LogisticRegression())"
    for deg, cols, extra, expect in [(10, 30, "", "refuse"), (2, 30, "", "ok"), (3, 30, "", "ok"), (5, 30, "", "refuse"),
                                     (10, 3, "", "ok"), (4, 100, "", "refuse"), (10, 30, ", interaction_only=True", "refuse"),
                                     (2, 1000, "", "refuse"), (2, 300, "", "ok"), (3, 1000, "", "refuse"), ((2, 3), 200, "", "refuse"), (6, 10, ", include_bias=False", "ok")]:
        api(f"budget/poly deg={deg} cols={cols}{extra}", expect, budget.format(poly.format(deg, extra), 10_000, cols, 100))
    for p, n, a, fits, expect in [
            ("sklearn.ensemble.RandomForestClassifier(n_estimators=10000)", 400, 16, 100, "refuse"),
            ("sklearn.ensemble.RandomForestClassifier(n_estimators=5000)", 400, 16, 100, "ok"),
            ("sklearn.ensemble.RandomForestClassifier(n_estimators=10000)", 400, 16, 10, "ok"),
            ("sklearn.ensemble.RandomForestClassifier(n_estimators=1000)", 2_000_000, 16, 1, "refuse"),
            ("sklearn.ensemble.ExtraTreesClassifier(n_estimators=9000)", 300, 10, 100, "refuse"),
            ("sklearn.ensemble.HistGradientBoostingClassifier(max_iter=100000)", 400, 16, 100, "refuse"),
            ("sklearn.ensemble.HistGradientBoostingClassifier(max_iter=100)", 400, 16, 100, "ok"),
            ("sklearn.ensemble.GradientBoostingClassifier(n_estimators=9999)", 400, 16, 100, "refuse"),
            ("sklearn.ensemble.AdaBoostClassifier(n_estimators=10000)", 400, 16, 100, "refuse"),
            ("sklearn.ensemble.BaggingClassifier(sklearn.ensemble.BaggingClassifier(n_estimators=1000), n_estimators=100)", 150, 4, 100, "refuse"),
            ("sklearn.ensemble.BaggingClassifier(n_estimators=100)", 150, 4, 100, "ok"),
            ("sklearn.ensemble.VotingClassifier([('a', sklearn.ensemble.RandomForestClassifier(n_estimators=9000)), ('b', sklearn.naive_bayes.GaussianNB())])", 150, 4, 100, "refuse"),
            ("sklearn.neural_network.MLPClassifier(hidden_layer_sizes=[10000])", 100, 5000, 1, "refuse"),
            ("sklearn.neural_network.MLPClassifier(hidden_layer_sizes=[100])", 100, 5000, 100, "ok")]:
        api(f"budget/{p[:60]} n={n} a={a} fits={fits}", expect, budget.format(p, n, a, fits))
    for b in ("sklearn.ensemble.RandomForestClassifier(n_estimators=10000)",
              "sklearn.pipeline.make_pipeline(sklearn.preprocessing.PolynomialFeatures(degree=10), sklearn.linear_model.LogisticRegression())",
              "sklearn.neural_network.MLPClassifier(hidden_layer_sizes=[10000, 10000, 10000, 10000, 10000])",
              "sklearn.ensemble.HistGradientBoostingClassifier(max_iter=100000)", "sklearn.svm.SVC(tol=1e-300)"):
        cli(f"cli/budget {b[:50]}", "refuse", "compare", "--data", "sonar", "--a", "naive_bayes", "--b", b)

    # 5. deep errors and silent cases
    for bad in ("'x'", "None", "3", "{}", "[]", "pd.DataFrame()"):
        api(f"deep/scores_from_study({bad})", "refuse", f"import pandas as pd; from calibsim.ranking import scores_from_study; scores_from_study({bad})")
    bp = "import pandas as pd; from calibsim.ranking import bayesian_pairs; bayesian_pairs(pd.DataFrame({{'a': [.8, .7, .9, .6], 'b': [.7, .6, .8, .6]}}), n_samples={})"
    for n, expect in (("0", "refuse"), ("-3", "refuse"), ("2.5", "refuse"), ("True", "refuse"), ("'100'", "refuse"), ("10**9", "refuse"), ("200", "ok"), ("None", "ok")):
        api(f"deep/bayesian_pairs n_samples={n}", expect, bp.format(n))
    three = ["pd.DataFrame({'x': np.linspace(0, .1, 24)}, index=pd.MultiIndex.from_product([range(2), range(3), range(4)]))",
             "pd.concat({i: pd.DataFrame(np.full((4, 5), .01 * i)) for i in range(3)}, axis=1)",
             "pd.DataFrame({'a': [np.zeros((2, 2))] * 3})"]
    calls = {"multitest": "calibsim.stats.multitest(x, cost=np.arange(len(x)))",
             "multi2test": "calibsim.stats.multi2test(x, cost=np.arange(len(x)))",
             "type1_error_curve": "calibsim.calibration.type1_error_curve('corrected_repeated_cv', x, alphas=[0.05])",
             "calibrate": "calibsim.calibration.calibrate('corrected_repeated_cv', x, alphas=[0.05])",
             "threshold_df": "calibsim.calibration.threshold_df('corrected_repeated_cv', x, 0.05)",
             "calibrate_rho": "calibsim.calibration.calibrate_rho(x)", "decision_rate": "calibsim.calibration.decision_rate(x)"}
    for i, frame in enumerate(three):
        for name, call in calls.items():
            api(f"deep/{name} 3-D frame {i}", "refuse", f"import numpy as np, pandas as pd, calibsim, calibsim.stats, calibsim.calibration\nx = {frame}\n{call}")
    study = ("from calibsim.engine.spec import study_from_dict\n"
             "study_from_dict({{'study': {{'name': {!r}, 'seed': 1}}, 'sources': {{'null': {{'kind': 'null', 'n_instances': 60, 'n_datasets': 5}}}}, "
             "'learners': {{'names': ['naive_bayes', 'c45']}}, 'schemes': {{'cv': {{'kind': 'repeated_kfold', 'n_folds': 5, 'n_runs': 4}}}}, "
             "'analysis': [{{'kind': 'calibrate', 'tests': ['corrected_repeated_cv']}}]}}, 'x.toml')")
    for name, expect in ((".", "refuse"), ("..", "refuse"), (".s", "refuse"), ("a.b", "ok"), ("s", "ok"), ("a/b", "refuse"), ("", "refuse")):
        api(f"deep/study name {name!r}", expect, study.format(name))
    api("deep/scheduler refused", "refuse",
        "import socket, time\nfrom calibsim.engine.runner import cluster\ns = socket.socket(); s.bind(('127.0.0.1', 0)); p = s.getsockname()[1]; s.close()\n"
        "t = time.perf_counter()\ntry:\n    with cluster(scheduler=f'tcp://127.0.0.1:{p}'):\n        pass\nfinally:\n    assert time.perf_counter() - t < 3")
    for addr in ("'tcp://'", "'nonsense'", "'tcp://127.0.0.1:99999'"):
        api(f"deep/scheduler {addr}", "refuse", f"from calibsim.engine.runner import cluster\nwith cluster(scheduler={addr}, timeout=1):\n    pass")

    # 6. the store checks its identity
    store = ("import json, numpy as np\nfrom pathlib import Path\nfrom calibsim.engine.store import Store, fingerprint\n"
             "root = Path({tmp!r}) / 'store-{i}'\nident = {{'seed': 7, 'source': 'null'}}\nkey = fingerprint(ident)\n"
             "s = Store(root); s.save(key, 0, 3, {{'a': np.arange(3.0)}}, identity=ident)\n"
             "f = root / key / 'identity.json'\n{edit}\n"
             "n = len(Store(root).available(key))\nassert n == {want}, n")
    edits = [("seed 7 to 9", "f.write_text(f.read_text().replace('7', '9'))", 0),
             ("truncated", "f.write_text(f.read_text()[:5])", 0), ("emptied", "f.write_text('')", 0),
             ("other key's identity", "f.write_text(json.dumps({'seed': 8}))", 0),
             ("reformatted only", "f.write_text(json.dumps(json.loads(f.read_text())))", 3),
             ("removed", "f.unlink()", 3), ("untouched", "pass", 3)]
    for i, (what, edit, want) in enumerate(edits):
        api(f"store/identity {what}", "ok", store.format(tmp=tmp, i=i, edit=edit, want=want))

    # 7. processes: budgets while fitting, a killed parent's workers, warnings from workers
    hog = ("import numpy as np, calibsim\nfrom sklearn.base import BaseEstimator, ClassifierMixin\n"
           "class Hog(ClassifierMixin, BaseEstimator):\n"
           "    def fit(self, X, y):\n        self.b_ = np.ones({n} // 8); self.classes_ = np.unique(y); return self\n"
           "    def predict(self, X):\n        return np.full(len(X), self.classes_[0])\n"
           "import os; os.environ['CALIBSIM_MEMORY_LIMIT'] = str(2**30)\n"
           "try:\n    calibsim.compare(Hog(), 'naive_bayes', calibsim.load_uci('iris'), design='2x2', "
           "n_jobs={w}, progress=False, replicability=None)\n"
           "finally:\n    del os.environ['CALIBSIM_MEMORY_LIMIT']")
    for n, w, expect in ((16 * 2**30, 0, "refuse"), (2**20, 0, "ok"), (16 * 2**30, 2, "refuse")):
        api(f"process/memory cap {n >> 20} MiB workers={w}", expect, hog.format(n=n, w=w))
    slow_child = ("import sys, time, numpy as np\nsys.path.insert(0, {root!r})\nimport calibsim\n"
                  "from sklearn.base import BaseEstimator, ClassifierMixin\n"
                  "class Slow(ClassifierMixin, BaseEstimator):\n"
                  "    def fit(self, X, y):\n        t = time.time()\n"
                  "        while time.time() - t < {secs}:\n            time.sleep(0.01)\n"
                  "        self.classes_ = np.unique(y); return self\n"
                  "    def predict(self, X):\n        return np.full(len(X), self.classes_[0])\n"
                  "calibsim.compare(Slow(), 'naive_bayes', calibsim.load_uci('iris'), design='2x2', "
                  "n_jobs=0, progress=False, replicability=None)\n")
    slow = ("import subprocess, sys, os\ncode = {code!r}\n"
            "env = dict(os.environ, CALIBSIM_FIT_SECONDS='0.5')\n"
            "r = subprocess.run([sys.executable, '-c', code], env=env, capture_output=True, text=True, timeout=120)\n"
            "last = (r.stderr.strip().splitlines() or [''])[-1]\n"
            "if r.returncode:\n    raise ValueError(last)\n")
    for secs, expect in ((20, "refuse"), (0.1, "ok")):
        api(f"process/time budget 0.5 s, fit {secs} s", expect,
            slow.format(code=slow_child.format(root=str(ROOT), secs=secs)))
    grand = ("import sys, time; sys.path.insert(0, {root!r})\n"
             "from calibsim.engine.runner import _worker_init\n_worker_init({{parent}})\n"
             "print(1, flush=True)\ntime.sleep(60)\n").format(root=str(ROOT))
    child = ("import os, subprocess, sys, time\n"
             "g = subprocess.Popen([sys.executable, '-c', {grand!r}.format(parent=os.getpid())], "
             "stdout=subprocess.PIPE, text=True)\n"
             "print(g.pid, flush=True)\ng.stdout.readline()\nprint('ready', flush=True)\ntime.sleep(60)\n"
             ).format(grand=grand)
    kill = ("import os, signal, subprocess, sys, time\n"
            f"p = subprocess.Popen([sys.executable, '-c', {child!r}], stdout=subprocess.PIPE, text=True)\n"
            "w = int(p.stdout.readline()); p.stdout.readline()\n"
            "os.kill(p.pid, signal.SIGKILL); p.wait(); p.stdout.close(); t = time.time()\n"
            "def alive():\n    try:\n        return open(f'/proc/{w}/stat').read().split()[2] != 'Z'\n"
            "    except FileNotFoundError:\n        return False\n"
            "while alive() and time.time() - t < 5:\n    time.sleep(0.01)\n"
            "gone = time.time() - t\nprint(f'worker gone {gone:.2f} s after kill -9')\n"
            "assert gone < 1, f'worker alive {gone:.2f} s after kill -9 of its parent'\n")
    api("process/kill -9 of a worker's parent", "ok", kill)
    warn = ("import warnings\nfrom sklearn.exceptions import ConvergenceWarning\n"
            "from calibsim.engine import learners, runner\nfrom calibsim.cli._main import _warnings_in_one_line\n"
            "import io, contextlib\nlearners.WORKER_WARNINGS = []\n"
            "def block(spec):\n    with learners._learner_warnings('mlp'):\n"
            "        warnings.warn('x', ConvergenceWarning)\n    return spec\n"
            "try:\n    _, rec = runner._collecting(block, 1)\nfinally:\n    learners.WORKER_WARNINGS = None\n"
            "err = io.StringIO()\nwith contextlib.redirect_stderr(err):\n"
            "    with _warnings_in_one_line('run'):\n        runner._repeat_warnings(rec * 5)\n"
            "assert '5 ConvergenceWarnings from learner mlp' in err.getvalue(), err.getvalue()\n")
    api("process/warnings from workers summarised", "ok", warn)
    return out


# --------------------------------------------------------------------------- runner

def _run_case(kind, payload):
    """In the child: (class, detail)."""
    import contextlib
    import io
    if kind == "cli":
        from calibsim.cli import main
        err, out = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            try:
                rc = main(payload)
            except SystemExit as exc:
                rc = exc.code
        lines = [ln for ln in err.getvalue().splitlines() if ln.startswith("calibsim")
                 and "error" in ln]
        if rc == 0:
            return "ok", out.getvalue().strip().splitlines()[-1:] or [""]
        if rc == 2:
            if "Traceback" in err.getvalue():
                return "traceback", err.getvalue()[-300:]
            return ("refused-one-line", lines[-1][:300]) if len(lines) == 1 else (
                "traceback", err.getvalue()[-300:])
        return "traceback", f"exit {rc}: {err.getvalue()[-300:]}"
    try:
        exec(compile(payload, "<case>", "exec"), {"__name__": "__case__"})
    except MemoryError as exc:
        return "memory", repr(exc)[:200]
    except AssertionError as exc:
        return "assertion", str(exc)[:200]
    except REFUSALS as exc:
        msg = str(exc)
        if "\n" in msg.strip():
            return "traceback", f"multi-line {type(exc).__name__}: {msg[:200]}"
        return "refused-one-line", f"{type(exc).__name__}: {msg[:300]}"
    except Exception as exc:                       # noqa: BLE001 - the point of the sweep
        return "traceback", f"{type(exc).__name__}: {str(exc)[:200]} | " + "".join(
            traceback.format_exc().splitlines(True)[-3:])[:300]
    return "ok", ""


def _child(conn, timeout, mem_bytes):
    import resource
    import signal
    import warnings
    warnings.simplefilter("ignore")
    resource.setrlimit(resource.RLIMIT_AS, (mem_bytes, mem_bytes))

    def alarm(signum, frame):
        raise TimeoutError("hang")
    signal.signal(signal.SIGALRM, alarm)
    while True:
        item = conn.recv()
        if item is None:
            return
        kind, payload = item
        signal.alarm(timeout)
        try:
            res = _run_case(kind, payload)
        except TimeoutError:
            res = ("hang", f"no answer within {timeout} s")
        except MemoryError:
            res = ("memory", "MemoryError outside the case")
        finally:
            signal.alarm(0)
        conn.send(res)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--only", default="")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--memory-gb", type=float, default=6.0)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="hostile-sweep-")
    os.environ.setdefault("CALIBSIM_CODE_VERSION", "sweep")
    files = make_files(Path(tmp))
    todo = [c for c in cases(files, tmp) if c[0].startswith(args.only)]
    ctx = mp.get_context("spawn")
    counts, proc, conn = collections.Counter(), None, None
    for name, expect, kind, payload in todo:
        if proc is None or not proc.is_alive():
            conn, child = ctx.Pipe()
            proc = ctx.Process(target=_child, args=(child, args.timeout,
                                                    int(args.memory_gb * 2**30)), daemon=False)
            proc.start()
        conn.send((kind, payload))
        if conn.poll(args.timeout + 30):
            try:
                got, detail = conn.recv()
            except EOFError:
                got, detail = "memory", "the child died"
                proc = None
        else:
            got, detail = "hang", "the child stopped answering"
            proc.kill()
            proc = None
        if got == "assertion":
            got = "silent-wrong"
        elif expect == "refuse" and got == "ok":
            got = "silent-wrong"
        elif expect == "ok" and got == "refused-one-line":
            got, detail = "silent-wrong", "legal input refused: " + detail
        counts[got] += 1
        if args.verbose or got not in ("ok", "refused-one-line"):
            print(f"[{got}] {name}: {detail}", flush=True)
    if proc is not None and proc.is_alive():
        conn.send(None)
        proc.join(10)
    print(json.dumps({"cases": len(todo), **dict(sorted(counts.items()))}))
    print("counts by class: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    main()
