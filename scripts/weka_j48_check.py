#!/usr/bin/env python
"""Compare calibsim's J48 and NaiveBayes kernels with a live Weka 3.6.

Development check, not part of the test suite. It generates null data sets
(independent binary attributes, each with P(1) ~ Uniform(0, 1), class prior
0.5), splits each into 10 cross-validation folds, writes train/test ARFF
pairs to a temporary directory, and runs Weka's ``J48`` and ``NaiveBayes``
(default options) on every fold. To avoid starting one JVM per fold, a small
driver written for this script (``WekaFoldRunner``) is compiled with
``javac`` and run once over all folds; it calls only Weka's public API
(``buildClassifier``, ``classifyInstance``, ``distributionForInstance``,
``measureTreeSize``, ``measureNumLeaves``). With ``--cli-check`` the first
folds are also run through Weka's command line (``-t/-T -p 0`` and the
printed "Size of the tree" lines) to confirm that the driver reports what the
command line reports.

Printed: prediction agreement (%) for both learners, tree-size and
leaf-count agreement (%) for J48, and the median J48 tree size, for Weka and
for calibsim. ``--fixture PATH`` saves the first ``--fixture-sets`` data sets
with Weka's answers as an ``.npz`` for the Java-free regression test.

Usage::

    python scripts/weka_j48_check.py --n-sets 30 --seed 20030101
"""

from __future__ import annotations

import argparse
import pathlib
import re
import subprocess
import sys
import tempfile

import numpy as np

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from calibsim.learners._c45 import _c45_fit, _c45_predict, _c45_size  # noqa: E402
from calibsim.learners._kernels_nb import _nb_fit, _nb_predict  # noqa: E402

WEKA_JAR = "/usr/share/java/weka.jar"

JAVA_DIR = pathlib.Path(__file__).resolve().parent / "java"
JAVA_DRIVER = [JAVA_DIR / "WekaFoldRunner.java", JAVA_DIR / "WekaIO.java"]


def make_data(rng, n, n_vals, n_cls=2, signal=0.0):
    """Null data: independent attributes and class.

    Binary attributes have P(1) ~ U(0, 1) and the binary class is balanced
    (the set-up of Bouckaert 2003). Other arities or class counts (stress
    tests) draw value probabilities from Dirichlet(1, ..., 1). With
    ``signal > 0`` the class is instead ``(x0 + x1 + x2) mod n_cls`` for a
    fraction ``signal`` of the instances (an XOR-like concept).
    """
    n_attr = len(n_vals)
    if all(v == 2 for v in n_vals) and n_cls == 2:
        p = rng.uniform(0.0, 1.0, size=n_attr)
        X = (rng.random((n, n_attr)) < p).astype(np.int64)
        y = (rng.random(n) < 0.5).astype(np.int64)
    else:
        X = np.empty((n, n_attr), np.int64)
        for j, v in enumerate(n_vals):
            X[:, j] = rng.choice(v, size=n, p=rng.dirichlet(np.ones(v)))
        y = rng.choice(n_cls, size=n, p=rng.dirichlet(np.ones(n_cls))).astype(np.int64)
    if signal > 0:
        concept = X[:, : min(3, n_attr)].sum(axis=1) % n_cls
        keep = rng.random(n) < signal
        y = np.where(keep, concept, y)
    return X, y


def kfold_indices(rng, n, k):
    """Unstratified random k-fold split: a list of (train, test) index arrays."""
    perm = rng.permutation(n)
    folds = np.array_split(perm, k)
    out = []
    for f in range(k):
        test = np.sort(folds[f])
        train = np.sort(np.concatenate([folds[g] for g in range(k) if g != f]))
        out.append((train, test))
    return out


def write_arff(path, X, y, n_vals, n_cls=2):
    cls = ",".join(map(str, range(n_cls)))
    lines = ["@relation null", ""]
    lines += [f"@attribute a{j} {{{','.join(map(str, range(v)))}}}" for j, v in enumerate(n_vals)]
    lines += [f"@attribute class {{{cls}}}", "", "@data"]
    lines += [",".join(map(str, row)) + f",{c}" for row, c in zip(X.tolist(), y.tolist())]
    path.write_text("\n".join(lines) + "\n")


def compile_driver(tmp):
    subprocess.run(["javac", "-nowarn", "-cp", WEKA_JAR, "-d", str(tmp), *map(str, JAVA_DRIVER)],
                   check=True, capture_output=True)


def run_cli(train, test, confidence, min_obj):
    """Weka's own command line: tree size/leaves and the -p 0 predicted classes."""
    cp = ["java", "-cp", WEKA_JAR]
    txt = subprocess.run(cp + ["weka.classifiers.trees.J48", "-t", str(train), "-T", str(test),
                               "-C", str(confidence), "-M", str(min_obj)],
                         check=True, capture_output=True, text=True).stdout
    leaves = int(re.search(r"Number of Leaves\s*:\s*(\d+)", txt).group(1))
    size = int(re.search(r"Size of the tree\s*:\s*(\d+)", txt).group(1))
    preds = {}
    for cls in ("weka.classifiers.trees.J48", "weka.classifiers.bayes.NaiveBayes"):
        extra = ["-C", str(confidence), "-M", str(min_obj)] if "J48" in cls else []
        out = subprocess.run(cp + [cls, "-t", str(train), "-T", str(test), "-p", "0", *extra],
                             check=True, capture_output=True, text=True).stdout
        rows = re.findall(r"^\s*\d+\s+\S+\s+(\S+)", out, flags=re.M)
        preds[cls] = np.array([-1 if r == "?" else int(r.split(":")[1]) for r in rows])
    return size, leaves, preds


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n-sets", type=int, default=30)
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--n-attr", type=int, default=10)
    ap.add_argument("--folds", type=int, default=10)
    ap.add_argument("--n-values", default="2",
                    help="values per attribute; a comma list is cycled over the attributes")
    ap.add_argument("--signal", type=float, default=0.0,
                    help="fraction of instances labelled by an XOR-like concept (0 = null data)")
    ap.add_argument("--n-classes", type=int, default=2)
    ap.add_argument("--confidence", type=float, default=0.25, help="J48 -C")
    ap.add_argument("--min-obj", type=int, default=2, help="J48 -M")
    ap.add_argument("--seed", type=int, default=20030101)
    ap.add_argument("--cli-check", type=int, default=0,
                    help="also run this many folds through Weka's command line")
    ap.add_argument("--fixture", type=pathlib.Path, default=None)
    ap.add_argument("--fixture-sets", type=int, default=3)
    args = ap.parse_args(argv)

    cyc = [int(v) for v in args.n_values.split(",")]
    n_vals = [cyc[j % len(cyc)] for j in range(args.n_attr)]
    rng = np.random.default_rng(args.seed)
    sets = []
    for _ in range(args.n_sets):
        X, y = make_data(rng, args.n, n_vals, args.n_classes, args.signal)
        sets.append((X, y, kfold_indices(rng, args.n, args.folds)))

    with tempfile.TemporaryDirectory() as tmpname:
        tmp = pathlib.Path(tmpname)
        compile_driver(tmp)
        jobs = []
        for s, (X, y, folds) in enumerate(sets):
            for f, (tr, te) in enumerate(folds):
                a, b, o = tmp / f"s{s}f{f}_train.arff", tmp / f"s{s}f{f}_test.arff", tmp / f"s{s}f{f}.out"
                write_arff(a, X[tr], y[tr], n_vals, args.n_classes)
                write_arff(b, X[te], y[te], n_vals, args.n_classes)
                jobs.append((s, f, a, b, o))
        (tmp / "jobs.txt").write_text("\n".join(f"{a} {b} {o}" for _, _, a, b, o in jobs) + "\n")
        opts = f"{args.confidence} {args.min_obj}"
        subprocess.run(["java", "-cp", f"{WEKA_JAR}:{tmp}", "WekaFoldRunner", str(tmp / "jobs.txt"),
                        *opts.split()],
                       check=True)

        n_values = np.array(n_vals, np.int64)
        tot = dict(j48_pred=0, j48_dist=0, nb_pred=0, nb_dist=0, n_pred=0, size=0, leaves=0, n_fold=0)
        sizes_weka, sizes_ours, mism = [], [], []
        fixture = []
        for s, f, a, b, o in jobs:
            X, y, folds = sets[s]
            tr, te = folds[f]
            lines = o.read_text().split("\n")
            w_size, w_leaves = map(int, lines[0].split())
            w = np.array([list(map(float, ln.split())) for ln in lines[1:] if ln.strip()]).reshape(-1, 6)
            w_j48, w_j48d, w_nb, w_nbd = (w[:, k].astype(np.int64) for k in range(4))
            Xtr, ytr, Xte = np.ascontiguousarray(X[tr]), y[tr].copy(), np.ascontiguousarray(X[te])
            tree = _c45_fit(Xtr, ytr, n_values, args.n_classes, args.confidence, args.min_obj)
            ours_j48 = _c45_predict(tree, Xte)
            size, leaves = _c45_size(tree)
            ours_nb = _nb_predict(_nb_fit(Xtr, ytr, n_values, args.n_classes), Xte)
            tot["j48_pred"] += int(np.sum(ours_j48 == w_j48))
            tot["j48_dist"] += int(np.sum(ours_j48 == w_j48d))
            tot["nb_pred"] += int(np.sum(ours_nb == w_nb))
            tot["nb_dist"] += int(np.sum(ours_nb == w_nbd))
            tot["n_pred"] += len(te)
            tot["size"] += int(size == w_size)
            tot["leaves"] += int(leaves == w_leaves)
            tot["n_fold"] += 1
            sizes_weka.append(w_size)
            sizes_ours.append(size)
            if size != w_size or np.any(ours_j48 != w_j48) or np.any(ours_nb != w_nb):
                mism.append((s, f, w_size, size, int(np.sum(ours_j48 != w_j48)),
                             int(np.sum(ours_nb != w_nb))))
            if s < args.fixture_sets:
                fixture.append((s, f, w_size, w_leaves, w_j48, w_nb))

        if args.cli_check:
            n_ok = 0
            for s, f, a, b, o in jobs[:args.cli_check]:
                size, leaves, preds = run_cli(a, b, args.confidence, args.min_obj)
                lines = o.read_text().split("\n")
                w_size, w_leaves = map(int, lines[0].split())
                w = np.array([list(map(float, ln.split())) for ln in lines[1:] if ln.strip()]).reshape(-1, 6)
                ok = (size == w_size and leaves == w_leaves
                      and np.array_equal(preds["weka.classifiers.trees.J48"], w[:, 0].astype(int))
                      and np.array_equal(preds["weka.classifiers.bayes.NaiveBayes"], w[:, 2].astype(int)))
                n_ok += ok
            print(f"command-line check: driver agrees with Weka's CLI on {n_ok}/{args.cli_check} folds")

    n, k = tot["n_pred"], tot["n_fold"]
    print(f"data sets: {args.n_sets} x {args.n} instances x {args.n_attr} attributes "
          f"({args.n_values} values, {args.n_classes} classes, signal {args.signal}); "
          f"{k} folds, {n} test predictions")
    print(f"NaiveBayes prediction agreement: {100 * tot['nb_pred'] / n:.3f}% "
          f"(vs argmax of distribution: {100 * tot['nb_dist'] / n:.3f}%)")
    print(f"J48 prediction agreement:        {100 * tot['j48_pred'] / n:.3f}% "
          f"(vs argmax of distribution: {100 * tot['j48_dist'] / n:.3f}%)")
    print(f"J48 tree size agreement:         {100 * tot['size'] / k:.3f}%  "
          f"leaves: {100 * tot['leaves'] / k:.3f}%")
    print(f"median J48 tree size: Weka {np.median(sizes_weka):g}, calibsim {np.median(sizes_ours):g} "
          f"(mean {np.mean(sizes_weka):.2f} vs {np.mean(sizes_ours):.2f})")
    if mism:
        print(f"{len(mism)} mismatching folds (set, fold, weka size, our size, #J48 diff, #NB diff):")
        for m in mism[:20]:
            print("  ", m)

    if args.fixture is not None:
        sel = [s for s in range(min(args.fixture_sets, args.n_sets))]
        payload = dict(
            X=np.stack([sets[s][0] for s in sel]), y=np.stack([sets[s][1] for s in sel]),
            test_index=np.stack([np.stack([te for _, te in sets[s][2]]) for s in sel])
            if args.n % args.folds == 0 else None,
            weka_size=np.array([[r[2] for r in fixture if r[0] == s] for s in sel]),
            weka_leaves=np.array([[r[3] for r in fixture if r[0] == s] for s in sel]),
            weka_j48=np.array([[r[4] for r in fixture if r[0] == s] for s in sel]),
            weka_nb=np.array([[r[5] for r in fixture if r[0] == s] for s in sel]),
        )
        args.fixture.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(args.fixture, **payload)
        print(f"saved fixture with {len(sel)} data sets to {args.fixture}")
    return 0 if not mism else 1


if __name__ == "__main__":
    raise SystemExit(main())
