#!/usr/bin/env python
"""Record Weka 3.6's NaiveBayes, J48 and IB1 on splits fixed by calibsim.

Runs Weka's ``NaiveBayes``, ``J48`` and ``IB1`` (default options) through a
small Java driver, ``scripts/java/WekaOracle.java`` (compiled with ``javac``
into a temporary directory at run time; it uses only Weka's public API), on
cross-validation splits drawn by :class:`calibsim.schemes.StratifiedRepeatedCV`,
compares them with calibsim's kernels, prints the agreement, and with
``--write`` saves the fixtures used by ``tests/learners/test_weka_fixtures.py``.

Groups of data sets
-------------------
``null``
    ``--null-sets`` data sets per class prior 0.1, 0.3 and 0.5 from
    :class:`calibsim.sources.NullSource` (300 instances x 10 binary
    attributes), one run of stratified 10-fold CV each.
``mixed``
    ``--mixed-sets`` random data sets of 150 instances x 8 attributes: nominal
    attributes of arity 2-5 and numeric attributes of several kinds (values on
    a 0.01, 0.1 or 1 grid, full-precision normals, a few distinct values, a
    constant), 2-4 classes that shift the attribute distributions, and 5% of
    the values missing completely at random; one run of stratified 10-fold CV.
``uci``
    Every data set of :data:`calibsim.datasets.UCI_DATASETS`, 10 x 10
    stratified CV.

Fixture format (``tests/learners/data/weka_oracle_<group>.npz``)
-----------------------------------------------------------------
For a group of ``S`` data sets of ``n`` instances with ``R`` runs of ``k``
folds (UCI: one entry per data set, keys prefixed ``<name>__`` and ``S`` = 1
dropped):

``fold`` : int8, (S, R, n)
    Fold of every instance in every run; the test set of split (r, f) is
    ``np.flatnonzero(fold[s, r] == f)`` in increasing index order, and the
    training set is the other instances in index order. Weka saw the same
    order (IB1 depends on it).
``nb``, ``j48``, ``ib1`` : int8, (S, R, n)
    Weka's predicted class code of every instance in the run where it was
    tested (-1 if Weka predicted a missing value; never seen).
``j48_size``, ``j48_leaves`` : int16, (S, R, k)
    Size and number of leaves of Weka's J48 tree for every split.
``n_classes`` : int64, (S,)
    Declared number of classes (Laplace denominators use it).
Data: ``null`` stores ``X_bits`` (uint8, ``np.packbits`` of the (S, n*a) 0/1
attribute values), ``y`` (int8, (S, n)), ``n_attributes`` and
``class_prior`` (S,); ``mixed`` stores ``X`` (float64, (S, n, a), NaN =
missing), ``y`` (int8, (S, n)) and ``n_values`` (int64, (S, a), 0 =
numeric); ``uci`` stores no data (load it with
:func:`calibsim.datasets.load_uci`).

Usage::

    python scripts/weka_oracle.py                 # compare and print
    python scripts/weka_oracle.py --write         # also (re)write the fixtures
    python scripts/weka_oracle.py --missing-class [--write]

``--missing-class``: training sets that miss declared classes
-------------------------------------------------------------
Runs only the group behind ``tests/learners/test_missing_class.py``: splits of
shipped UCI sets (:data:`MISSING_CLASS_SPLITS`) whose training set misses one
or more classes declared in the ARFF header (a whole class held out, or two
training instances of one class), through ``scripts/java/WekaDistributions.java``,
which records the predictions and ``distributionForInstance`` of NaiveBayes,
J48, IB1, BayesNet (TAN) and VotedPerceptron (binary classes), and compares
calibsim's estimators fitted with ``classes=np.arange(n_classes)``. The fixture
``tests/learners/data/weka_missing_class.npz`` holds, per data set ``<name>``
with ``S`` splits: ``<name>__test`` bool (S, n) test masks; ``<name>__<m>``
int8 (S, n) Weka's predicted class (-2 on training rows) and
``<name>__<m>_proba`` float64 (S, n, C) Weka's distribution (NaN on training
rows) for ``m`` in nb, j48, ib1, tan, vp (vp: binary classes only), and
``<name>__tan_parent`` int8 (S, a).

``--tan-vp-numeric``: TAN and the voted perceptron on numeric attributes
------------------------------------------------------------------------
Runs only the shipped UCI sets with numeric attributes, on the 10 x 10 CV
folds of the ``uci`` group (same seeds, so the same splits as
``weka_oracle_uci.npz``), through ``WekaDistributions.java``, and compares
calibsim's ``TAN`` (Fayyad & Irani MDL discretisation) and ``VotedPerceptron``
(raw numeric inputs; binary classes) fitted with ``classes=np.arange(n_classes)``.
The fixture ``tests/learners/data/weka_tan_vp_numeric.npz`` holds per data set
``<name>__fold`` int8 (R, n), Weka's ``<name>__tan`` and ``<name>__vp`` (binary
classes) int8 (R, n) predictions, ``<name>__tan_parent`` int8 (R, k, a), and the
distributions of the first run, ``<name>__tan_proba`` / ``<name>__vp_proba``
float64 (n, C).
"""

from __future__ import annotations

import argparse
import pathlib
import subprocess
import sys
import tempfile

import numpy as np

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from calibsim.datasets import UCI_DATASETS, load_uci  # noqa: E402
from calibsim.learners._c45 import _c45_fit, _c45_predict, _c45_size  # noqa: E402
from calibsim.learners._kernels_ib1 import _ib1_predict  # noqa: E402
from calibsim.learners._kernels_nb import (_nb_fit, _nb_fit_general, _nb_predict,  # noqa: E402
                                           _nb_predict_general)
from calibsim.schemes import StratifiedRepeatedCV  # noqa: E402
from calibsim.sources import NullSource  # noqa: E402

WEKA_JAR = "/usr/share/java/weka.jar"
DIST_SRC = REPO / "scripts" / "java" / "WekaDistributions.java"
DIST_LEARNERS = ("nb", "j48", "ib1", "tan", "vp")
JAVA_SRC = REPO / "scripts" / "java" / "WekaOracle.java"
FIXTURES = REPO / "tests" / "learners" / "data"
ROOT_ENTROPY = 20240611
NULL_PRIORS = (0.1, 0.3, 0.5)


# --------------------------------------------------------------------------
# Data
# --------------------------------------------------------------------------

def make_mixed(rng, n=150, n_attr=8, missing=0.05):
    """One random data set with nominal and numeric attributes and missing values."""
    n_classes = int(rng.integers(2, 5))
    y = rng.choice(n_classes, size=n, p=rng.dirichlet(np.full(n_classes, 3.0)))
    X = np.empty((n, n_attr))
    n_values = np.zeros(n_attr, np.int64)
    for j in range(n_attr):
        kind = rng.choice(["nominal", "grid", "full", "few", "const"], p=[0.4, 0.25, 0.15, 0.15, 0.05])
        if kind == "nominal":
            v = int(rng.integers(2, 6))
            n_values[j] = v
            probs = rng.dirichlet(np.ones(v), size=n_classes)
            X[:, j] = [rng.choice(v, p=probs[c]) for c in y]
        elif kind == "const":
            X[:, j] = np.round(rng.normal(0, 10), 2)
        elif kind == "few":
            X[:, j] = rng.integers(0, 4, n) + (y > 0) * rng.integers(0, 2, n)
        else:
            shift = rng.normal(0, 1, n_classes)
            scale = 10.0 ** rng.integers(-2, 4)
            vals = (rng.normal(0, 1, n) + shift[y]) * scale
            if kind == "grid":
                step = float(rng.choice([0.01, 0.1, 1.0]))
                vals = np.round(vals / (step * scale)) * step * scale
            X[:, j] = vals
    X[rng.random(X.shape) < missing] = np.nan
    return X, y.astype(np.int64), n_values, n_classes


def write_arff(path, X, y, n_values, n_classes):
    lines = ["@relation calibsim", ""]
    for j, v in enumerate(n_values):
        kind = "numeric" if v == 0 else "{" + ",".join(f"v{k}" for k in range(v)) + "}"
        lines.append(f"@attribute a{j} {kind}")
    lines += ["@attribute class {" + ",".join(f"c{k}" for k in range(n_classes)) + "}", "", "@data"]
    for row, c in zip(X.tolist(), y.tolist()):
        cells = ["?" if v != v else (repr(v) if n_values[j] == 0 else f"v{int(v)}")
                 for j, v in enumerate(row)]
        lines.append(",".join(cells) + f",c{c}")
    path.write_text("\n".join(lines) + "\n")


# --------------------------------------------------------------------------
# calibsim's side
# --------------------------------------------------------------------------

def ours(X, y, n_values, n_classes, fold, *, with_j48=True):
    """calibsim's NB, IB1 (and J48 on all-nominal data without missing values) per instance.

    Returns (nb, ib1, j48, sizes) shaped like the fixture arrays of one data set.
    """
    R, n = fold.shape
    k = int(fold.max()) + 1
    general = bool((n_values == 0).any() or np.isnan(X).any())
    numeric = n_values == 0
    Xf = np.ascontiguousarray(X, dtype=np.float64)
    Xi = None if general else np.ascontiguousarray(X, dtype=np.int64)
    nb = np.full((R, n), -2, np.int64)
    ib1 = np.full((R, n), -2, np.int64)
    j48 = np.full((R, n), -2, np.int64)
    sizes = np.zeros((R, k, 2), np.int64)
    for r in range(R):
        for f in range(k):
            te = np.flatnonzero(fold[r] == f)
            tr = np.flatnonzero(fold[r] != f)
            if general:
                model = _nb_fit_general(np.ascontiguousarray(Xf[tr]), y[tr], n_values, n_classes)
                nb[r, te] = _nb_predict_general(model, np.ascontiguousarray(Xf[te]))
            else:
                model = _nb_fit(np.ascontiguousarray(Xi[tr]), y[tr], n_values, n_classes)
                nb[r, te] = _nb_predict(model, np.ascontiguousarray(Xi[te]))
                if with_j48:
                    tree = _c45_fit(np.ascontiguousarray(Xi[tr]), y[tr], n_values, n_classes,
                                    0.25, 2)
                    j48[r, te] = _c45_predict(tree, np.ascontiguousarray(Xi[te]))
                    sizes[r, f] = _c45_size(tree)
            ib1[r, te] = _ib1_predict(np.ascontiguousarray(Xf[tr]), y[tr], numeric,
                                      np.ascontiguousarray(Xf[te]))
    return nb, ib1, j48, sizes


# --------------------------------------------------------------------------
# Weka's side
# --------------------------------------------------------------------------


def write_missing_arffs(groups, tmp):
    """Write an ARFF in ``tmp`` for every data set of ``groups`` without one (``d["arff"]``).

    ``groups`` maps a group name to its list of data-set dicts (X, y, n_values, n_classes,
    fold; a shipped UCI set already names its ``arff``); the file is ``<group><index>.arff``.
    """
    for g, sets in groups.items():
        for i, d in enumerate(sets):
            if "arff" not in d:
                d["arff"] = tmp / f"{g}{i}.arff"
                write_arff(d["arff"], d["X"], d["y"], d["n_values"], d["n_classes"])


def shipped_arff(name):
    """The shipped ARFF file of a UCI set (``.arff.gz`` for the large ones, read as is by
    WekaIO.java)."""
    path = REPO / "calibsim" / "data" / "uci" / f"{name}.arff"
    return path if path.exists() else path.with_name(f"{name}.arff.gz")


def run_weka_program(java_src, jobs, tmp, **run_kwargs):
    """Compile ``java_src`` (with WekaIO.java) and run it on every (arff, fold (R, n)) job.

    Each job's test indices go to ``tmp/folds<i>.txt`` (one line per split, run by run) and
    the job list to ``tmp/jobs.txt``; the program writes ``tmp/out<i>.txt``. Returns the
    lines of each job's output; ``run_kwargs`` go to the ``java`` run (e.g. ``stderr``).
    """
    subprocess.run(["javac", "-nowarn", "-cp", WEKA_JAR, "-d", str(tmp), str(java_src),
                    str(java_src.with_name("WekaIO.java"))],
                   check=True, capture_output=True)
    lines = []
    for i, (arff, fold) in enumerate(jobs):
        k = int(fold.max()) + 1
        splits = [np.flatnonzero(fold[r] == f) for r in range(fold.shape[0]) for f in range(k)]
        (tmp / f"folds{i}.txt").write_text("\n".join(" ".join(map(str, s)) for s in splits) + "\n")
        lines.append(f"{arff} {tmp / f'folds{i}.txt'} {tmp / f'out{i}.txt'}")
    (tmp / "jobs.txt").write_text("\n".join(lines) + "\n")
    subprocess.run(["java", "-cp", f"{WEKA_JAR}:{tmp}", java_src.stem, str(tmp / "jobs.txt")],
                   check=True, **run_kwargs)
    return [(tmp / f"out{i}.txt").read_text().splitlines() for i in range(len(jobs))]


def run_weka(jobs, tmp):
    """jobs: list of (arff_path, fold (R, n)). Returns per job (nb, j48, ib1 (R, n), size (R, k, 2))."""
    results = []
    for (arff, fold), out in zip(jobs, run_weka_program(JAVA_SRC, jobs, tmp)):
        R, n = fold.shape
        k = int(fold.max()) + 1
        preds = np.full((3, R, n), -2, np.int64)
        size = np.zeros((R, k, 2), np.int64)
        for r in range(R):
            for f in range(k):
                block = out[4 * (r * k + f): 4 * (r * k + f) + 4]
                te = np.flatnonzero(fold[r] == f)
                size[r, f] = list(map(int, block[0].split()))
                for m in range(3):
                    preds[m, r, te] = list(map(int, block[1 + m].split()))
        results.append((preds[0], preds[1], preds[2], size))
    return results


# --------------------------------------------------------------------------
# Training sets that miss declared classes (--missing-class)
# --------------------------------------------------------------------------

#: data set -> held-out classes (each split tests every instance of that class and
#: 10% of the others) and the number of two-instance training sets of one class.
MISSING_CLASS_SPLITS = {
    "glass": dict(hold_out=(2, 4, 5), two_instance=0),   # class 3 has no instances at all
    "iris": dict(hold_out=(2,), two_instance=0),
    "labor": dict(hold_out=(0,), two_instance=0),
    "contact-lenses": dict(hold_out=(0, 1), two_instance=0),
    "vote": dict(hold_out=(1,), two_instance=0),
    "weather.nominal": dict(hold_out=(), two_instance=2),
    "weather.numeric": dict(hold_out=(), two_instance=2),
}


def missing_class_splits(name, y, u):
    """Test-index arrays of the splits of data set ``name`` (``u``: its seed index)."""
    rng = np.random.default_rng(np.random.SeedSequence(ROOT_ENTROPY, spawn_key=(3, u)))
    spec = MISSING_CLASS_SPLITS[name]
    tests = []
    for c in spec["hold_out"]:
        others = np.flatnonzero(y != c)
        extra = rng.choice(others, size=int(round(0.1 * others.size)), replace=False)
        tests.append(np.sort(np.r_[np.flatnonzero(y == c), extra]))
    for k in range(spec["two_instance"]):
        train = rng.choice(np.flatnonzero(y == k % 2), size=2, replace=False)
        tests.append(np.setdiff1d(np.arange(y.size), train))
    return tests


def run_weka_distributions(jobs, tmp, n_classes):
    """jobs: (arff, [test index arrays]); returns per job a dict of Weka's answers."""
    subprocess.run(["javac", "-nowarn", "-cp", WEKA_JAR, "-d", str(tmp), str(DIST_SRC),
                    str(DIST_SRC.with_name("WekaIO.java"))],
                   check=True, capture_output=True)
    lines = []
    for i, (arff, tests) in enumerate(jobs):
        (tmp / f"splits{i}.txt").write_text("\n".join(" ".join(map(str, t)) for t in tests) + "\n")
        lines.append(f"{arff} {tmp / f'splits{i}.txt'} {tmp / f'dist{i}.txt'}")
    (tmp / "jobs.txt").write_text("\n".join(lines) + "\n")
    subprocess.run(["java", "-cp", f"{WEKA_JAR}:{tmp}", "WekaDistributions",
                    str(tmp / "jobs.txt")], check=True)
    results = []
    for i, (arff, tests) in enumerate(jobs):
        out = (tmp / f"dist{i}.txt").read_text().splitlines()
        C = n_classes[i]
        res = {"tan_parent": []}
        for m in DIST_LEARNERS:
            res[m], res[m + "_proba"] = [], []
        for s, te in enumerate(tests):
            block = out[11 * s: 11 * s + 11]
            res["tan_parent"].append(list(map(int, block[0].split())))
            for k, m in enumerate(DIST_LEARNERS):
                if block[1 + 2 * k] == "-":
                    continue
                res[m].append((te, np.array(block[1 + 2 * k].split(), np.int64)))
                res[m + "_proba"].append(np.array(block[2 + 2 * k].split(), np.float64)
                                         .reshape(te.size, C))
        results.append(res)
    return results


def missing_class_main(write):
    """Weka vs calibsim's estimators (declared classes) on the --missing-class splits."""
    from calibsim.learners import C45, IB1, TAN, NaiveBayes, VotedPerceptron
    makers = dict(nb=NaiveBayes, j48=C45, ib1=IB1, tan=TAN, vp=VotedPerceptron)
    sets = []
    for u, name in enumerate(MISSING_CLASS_SPLITS):
        ds = load_uci(name)
        sets.append((name, ds, missing_class_splits(name, ds.y, u)))
    with tempfile.TemporaryDirectory() as tmpname:
        jobs = [(shipped_arff(name), tests)
                for name, _, tests in sets]
        weka = run_weka_distributions(jobs, pathlib.Path(tmpname),
                                      [ds.n_classes for _, ds, _ in sets])
    payload, status = {}, 0
    for (name, ds, tests), w in zip(sets, weka):
        n, C = ds.y.size, ds.n_classes
        S = len(tests)
        mask = np.zeros((S, n), bool)
        for s, te in enumerate(tests):
            mask[s, te] = True
        payload[f"{name}__test"] = mask
        payload[f"{name}__tan_parent"] = np.array(w["tan_parent"], np.int8)
        report = []
        for m in DIST_LEARNERS:
            if not w[m]:
                continue
            pred = np.full((S, n), -2, np.int64)
            proba = np.full((S, n, C), np.nan)
            agree = n_pred = 0
            for s, ((te, p), q) in enumerate(zip(w[m], w[m + "_proba"])):
                pred[s, te] = p
                proba[s, te] = q
                if agree is None:
                    continue
                try:
                    est = makers[m]().fit(ds.X[~mask[s]], ds.y[~mask[s]], n_values=ds.n_values,
                                          classes=np.arange(C))
                    agree += int(np.sum(est.predict(ds.X[te]) == p))
                except ValueError as exc:          # a learner that refuses the data
                    report.append(f"{m}: {str(exc)[:60]}...")
                    agree = None
                n_pred += te.size
            payload[f"{name}__{m}"] = pred.astype(np.int8)
            payload[f"{name}__{m}_proba"] = proba
            if agree is not None:
                report.append(f"{m} {agree}/{n_pred}")
                status |= agree != n_pred
        print(f"{name:16s} {S} splits, classes missing from training: "
              f"{[int(np.sum(np.bincount(ds.y[~mask[s]], minlength=C) == 0)) for s in range(S)]}; "
              + ", ".join(report))
    if write:
        path = FIXTURES / "weka_missing_class.npz"
        np.savez_compressed(path, **payload)
        print(f"wrote {path.relative_to(REPO)} ({path.stat().st_size / 1024:.0f} KiB)")
    return status


def tan_vp_numeric_main(runs, write):
    """Weka vs calibsim's TAN and VotedPerceptron on the numeric UCI sets (10 x 10 CV)."""
    import time

    from calibsim.learners import TAN, VotedPerceptron
    sets = []
    for u, name in enumerate(UCI_DATASETS):
        ds = load_uci(name)
        if not (ds.n_values == 0).any():
            continue
        split_ss = np.random.SeedSequence(ROOT_ENTROPY, spawn_key=(2, u))   # the uci group's
        fold = StratifiedRepeatedCV(n_runs=runs).fold_of(ds.y, rng=split_ss)
        tests = [np.flatnonzero(fold[r] == f) for r in range(runs) for f in range(10)]
        sets.append((name, ds, fold, tests))
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmpname:
        weka = run_weka_distributions(
            [(shipped_arff(name), tests)
             for name, _, _, tests in sets],
            pathlib.Path(tmpname), [ds.n_classes for _, ds, _, _ in sets])
    print(f"Weka: {time.perf_counter() - t0:.0f} s")
    payload, status, total = {}, 0, {"tan": [0, 0], "vp": [0, 0], "parent": [0, 0]}
    for (name, ds, fold, tests), w in zip(sets, weka):
        n, C, a = ds.y.size, ds.n_classes, ds.X.shape[1]
        payload[f"{name}__fold"] = fold.astype(np.int8)
        payload[f"{name}__tan_parent"] = np.array(w["tan_parent"], np.int8).reshape(runs, 10, a)
        line = f"  {name:14s} {n:4d} x {a:2d}, {C:2d} classes:"
        for m, make in (("tan", TAN), ("vp", VotedPerceptron)):
            if not w[m]:
                continue
            weka_pred = np.full((runs, n), -2, np.int64)
            ours = np.full((runs, n), -2, np.int64)
            worst = 0.0
            n_parent = 0
            for s, ((te, p), q) in enumerate(zip(w[m], w[m + "_proba"])):
                r = s // 10
                tr = np.setdiff1d(np.arange(n), te)
                est = make().fit(ds.X[tr], ds.y[tr], n_values=ds.n_values, classes=np.arange(C))
                weka_pred[r, te] = p
                ours[r, te] = est.predict(ds.X[te])
                if r == 0:
                    proba = est.predict_proba(ds.X[te])
                    worst = max(worst, float(np.max(np.abs(proba - q))))
                    payload.setdefault(f"{name}__{m}_proba", np.full((n, C), np.nan))[te] = q
                if m == "tan":
                    n_parent += int(np.array_equal(est.parent_, w["tan_parent"][s]))
            payload[f"{name}__{m}"] = weka_pred.astype(np.int8)
            agree = int(np.sum(ours == weka_pred))
            total[m][0] += agree
            total[m][1] += ours.size
            status |= agree != ours.size
            line += f" {m} {agree}/{ours.size} (run 0 max |dP| {worst:.1e})"
            if m == "tan":
                total["parent"][0] += n_parent
                total["parent"][1] += len(tests)
                line += f", trees {n_parent}/{len(tests)}"
        print(line)
    print("total: " + ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in total.items()))
    if write:
        path = FIXTURES / "weka_tan_vp_numeric.npz"
        np.savez_compressed(path, **payload)
        print(f"wrote {path.relative_to(REPO)} ({path.stat().st_size / 1024:.0f} KiB)")
    return status


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--null-sets", type=int, default=200, help="null data sets per class prior")
    ap.add_argument("--mixed-sets", type=int, default=60)
    ap.add_argument("--uci-runs", type=int, default=10)
    ap.add_argument("--write", action="store_true", help="write the fixtures")
    ap.add_argument("--missing-class", action="store_true",
                    help="only the splits whose training set misses declared classes")
    ap.add_argument("--tan-vp-numeric", action="store_true",
                    help="only TAN and VotedPerceptron on the UCI sets with numeric attributes")
    args = ap.parse_args(argv)
    if args.missing_class:
        return missing_class_main(args.write)
    if args.tan_vp_numeric:
        return tan_vp_numeric_main(args.uci_runs, args.write)

    root = np.random.SeedSequence(ROOT_ENTROPY)
    groups = {}
    # null data sets
    sets = []
    for p_i, prior in enumerate(NULL_PRIORS):
        for s in range(args.null_sets):
            data_ss, split_ss = np.random.SeedSequence(ROOT_ENTROPY, spawn_key=(0, p_i, s)).spawn(2)
            X, y = NullSource(class_prior=prior).sample(rng=data_ss)
            fold = StratifiedRepeatedCV(n_runs=1).fold_of(y, rng=split_ss)
            sets.append(dict(X=X.astype(np.float64), y=y, n_values=np.full(X.shape[1], 2, np.int64),
                             n_classes=2, fold=fold, prior=prior))
    groups["null"] = sets
    # mixed data sets
    sets = []
    for s in range(args.mixed_sets):
        data_ss, split_ss = np.random.SeedSequence(ROOT_ENTROPY, spawn_key=(1, s)).spawn(2)
        X, y, n_values, n_classes = make_mixed(np.random.default_rng(data_ss))
        fold = StratifiedRepeatedCV(n_runs=1).fold_of(y, rng=split_ss)
        sets.append(dict(X=X, y=y, n_values=n_values, n_classes=n_classes, fold=fold))
    groups["mixed"] = sets
    # UCI data sets
    sets = []
    for u, name in enumerate(UCI_DATASETS):
        ds = load_uci(name)
        split_ss = np.random.SeedSequence(ROOT_ENTROPY, spawn_key=(2, u))
        fold = StratifiedRepeatedCV(n_runs=args.uci_runs).fold_of(ds.y, rng=split_ss)
        sets.append(dict(X=np.asarray(ds.X), y=np.asarray(ds.y), n_values=np.asarray(ds.n_values),
                         n_classes=ds.n_classes, fold=fold, name=name,
                         arff=shipped_arff(name)))
    groups["uci"] = sets
    del root

    with tempfile.TemporaryDirectory() as tmpname:
        tmp = pathlib.Path(tmpname)
        write_missing_arffs(groups, tmp)
        jobs = [(d["arff"], d["fold"]) for sets in groups.values() for d in sets]
        results = iter(run_weka(jobs, tmp))
        for g, sets in groups.items():
            for d in sets:
                d["weka_nb"], d["weka_j48"], d["weka_ib1"], d["weka_size"] = next(results)

    status = 0
    for g, sets in groups.items():
        tot = dict(nb=0, ib1=0, j48=0, n=0, n_j48=0, size=0, n_split=0)
        for d in sets:
            all_nominal = bool((d["n_values"] > 0).all() and not np.isnan(d["X"]).any())
            nb, ib1, j48, size = ours(d["X"], d["y"], d["n_values"], d["n_classes"], d["fold"],
                                      with_j48=all_nominal)
            d["ours"] = (nb, ib1)
            tot["nb"] += int(np.sum(nb == d["weka_nb"]))
            tot["ib1"] += int(np.sum(ib1 == d["weka_ib1"]))
            tot["n"] += nb.size
            if all_nominal:
                tot["j48"] += int(np.sum(j48 == d["weka_j48"]))
                tot["n_j48"] += nb.size
                tot["size"] += int(np.sum(np.all(size == d["weka_size"], axis=-1)))
                tot["n_split"] += size.shape[0] * size.shape[1]
            if g == "uci":
                acc = {m: np.mean(p == d["y"]) for m, p in
                       (("nb", nb), ("wnb", d["weka_nb"]), ("ib1", ib1), ("wib1", d["weka_ib1"]))}
                print(f"  {d['name']:16s} {d['fold'].shape[0]}x10 CV accuracy  NB ours {acc['nb']:.4f} Weka "
                      f"{acc['wnb']:.4f} | IB1 ours {acc['ib1']:.4f} Weka {acc['wib1']:.4f} | "
                      f"NB agree {np.mean(nb == d['weka_nb']):.4%}, IB1 agree "
                      f"{np.mean(ib1 == d['weka_ib1']):.4%}")
        n = tot["n"]
        line = (f"{g}: {len(sets)} data sets, {n} test predictions per learner; NaiveBayes agrees "
                f"{tot['nb']}/{n} ({tot['nb'] / n:.4%}), IB1 {tot['ib1']}/{n} ({tot['ib1'] / n:.4%})")
        if tot["n_j48"]:
            line += (f"; J48 (all-nominal sets) {tot['j48']}/{tot['n_j48']} "
                     f"({tot['j48'] / tot['n_j48']:.4%}), tree size+leaves {tot['size']}/"
                     f"{tot['n_split']}")
        print(line)
        if tot["nb"] != n or tot["ib1"] != n:
            status = 1

    if args.write:
        FIXTURES.mkdir(parents=True, exist_ok=True)
        i8 = np.int8
        for g, sets in groups.items():
            payload = {}
            if g == "uci":
                for d in sets:
                    p = d["name"] + "__"
                    payload[p + "fold"] = d["fold"].astype(i8)
                    payload[p + "nb"] = d["weka_nb"].astype(i8)
                    payload[p + "j48"] = d["weka_j48"].astype(i8)
                    payload[p + "ib1"] = d["weka_ib1"].astype(i8)
                    payload[p + "j48_size"] = d["weka_size"][..., 0].astype(np.int16)
                    payload[p + "j48_leaves"] = d["weka_size"][..., 1].astype(np.int16)
                    payload[p + "n_classes"] = np.int64(d["n_classes"])
            else:
                payload["fold"] = np.stack([d["fold"] for d in sets]).astype(i8)
                for m in ("nb", "j48", "ib1"):
                    payload[m] = np.stack([d["weka_" + m] for d in sets]).astype(i8)
                payload["j48_size"] = np.stack([d["weka_size"][..., 0] for d in sets]).astype(np.int16)
                payload["j48_leaves"] = np.stack([d["weka_size"][..., 1] for d in sets]).astype(np.int16)
                payload["n_classes"] = np.array([d["n_classes"] for d in sets], np.int64)
                payload["y"] = np.stack([d["y"] for d in sets]).astype(i8)
                if g == "null":
                    X = np.stack([d["X"] for d in sets]).astype(np.uint8)
                    payload["X_bits"] = np.packbits(X.reshape(len(sets), -1), axis=1)
                    payload["n_attributes"] = np.int64(X.shape[2])
                    payload["class_prior"] = np.array([d["prior"] for d in sets])
                else:
                    payload["X"] = np.stack([d["X"] for d in sets])
                    payload["n_values"] = np.stack([d["n_values"] for d in sets])
            path = FIXTURES / f"weka_oracle_{g}.npz"
            np.savez_compressed(path, **payload)
            print(f"wrote {path.relative_to(REPO)} ({path.stat().st_size / 1024:.0f} KiB)")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
