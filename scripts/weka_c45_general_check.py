#!/usr/bin/env python
"""Compare calibsim's general C4.5 kernel with a live Weka 3.6 J48.

Development check, not part of the test suite. It covers what the nominal
check (``scripts/weka_j48_check.py``) does not: numeric attributes (J48's
binary splits with the MDL correction), missing values and their
fractional instances, and real data. Two groups of data sets are run
through 10-fold cross-validation (unstratified random folds):

* ``random``: simulated sets of 50-400 instances with 2-3 classes, nominal
  attributes of arity 2-5, continuous numeric attributes and heavily tied
  (discretised) numeric ones, the class depending on a few of them with
  noise, and 5% of the attribute values missing (set ``--missing``);
* ``uci``: every ARFF file in Weka's ``examples`` directory with a nominal
  class (string attributes excluded), read with liac-arff.

Every fold is written as a train/test ARFF pair (nominal values written as
their codes in declaration order, numeric values with 17 significant
digits, so both programs see the same doubles) and run through a small
driver compiled with ``javac`` (``WekaGeneralFolds``, calling only Weka's
public ``J48`` API) in one JVM. Printed per group and per UCI file: folds
with the same tree size and leaf count, and test instances with the same
predicted class. ``--fixture PATH`` saves the data, folds and Weka's answers
of the first ``--fixture-random`` random sets and of the small UCI files
for the Java-free test ``tests/learners/test_c45_general.py``.

Usage::

    python scripts/weka_c45_general_check.py --n-sets 100 --seed 20240601
"""

from __future__ import annotations

import argparse
import glob
import pathlib
import subprocess
import sys
import tempfile
import time

import numpy as np

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from calibsim.learners._c45 import (  # noqa: E402
    _c45_fit_general, _c45_predict_general, _c45_predict_proba_general, _c45_size_general,
)

WEKA_JAR = "/usr/share/java/weka.jar"
EXAMPLES = "/usr/share/doc/weka/examples"
# Small UCI files whose data go into the fixture (the rest are only checked live).
FIXTURE_UCI = ("weather.numeric", "iris", "labor", "glass", "breast-cancer", "vote",
               "contact-lenses", "diabetes")

JAVA_DIR = pathlib.Path(__file__).resolve().parent / "java"
JAVA_DRIVER = [JAVA_DIR / "WekaGeneralFolds.java", JAVA_DIR / "WekaIO.java"]


# --------------------------------------------------------------------------
# Data
# --------------------------------------------------------------------------

def make_random_set(rng, missing=0.05):
    """A simulated data set: (X f8 with NaN, y i8, n_values i8, n_classes, description)."""
    n = int(rng.integers(50, 401))
    n_cls = int(rng.integers(2, 4))
    a = int(rng.integers(3, 11))
    kinds = rng.choice(["nominal", "continuous", "tied"], size=a, p=[0.4, 0.35, 0.25])
    X = np.empty((n, a))
    nv = np.zeros(a, np.int64)
    score = np.zeros((n, n_cls))
    for j, kind in enumerate(kinds):
        relevant = rng.random() < 0.5
        if kind == "nominal":
            k = int(rng.integers(2, 6))
            nv[j] = k
            X[:, j] = rng.choice(k, size=n, p=rng.dirichlet(np.ones(k)))
            if relevant:
                score += rng.normal(0, 1.5, size=(k, n_cls))[X[:, j].astype(int)]
        else:
            if kind == "continuous":
                x = rng.normal(rng.normal(0, 10), rng.uniform(0.1, 20), size=n)
            else:  # few distinct values, many ties (a discretised measurement)
                x = np.round(rng.uniform(0, 1, size=n) * rng.integers(2, 12)) * rng.choice([1.0, 0.5, 10.0])
            X[:, j] = x
            if relevant:
                z = (x - x.mean()) / (x.std() + 1e-12)
                score += np.outer(z, rng.normal(0, 1.5, size=n_cls))
    logits = score + rng.gumbel(size=(n, n_cls)) * rng.uniform(0.5, 2.0)
    y = np.argmax(logits, axis=1).astype(np.int64)
    X[rng.random((n, a)) < missing] = np.nan
    return X, y, nv, n_cls, f"n={n} a={a} C={n_cls} ({''.join(k[0] for k in kinds)})"


def load_arff(path):
    """Read an ARFF file into the calibsim encoding, or None if it does not qualify.

    Returns ``(X f8 with NaN, y i8, n_values i8, n_classes)``: nominal values
    coded in declaration order, numeric values as floats, ``n_values == 0``
    for numeric attributes; the class is the last attribute and must be
    nominal (rows with a missing class are dropped, as J48 does).
    """
    import arff  # liac-arff

    text = pathlib.Path(path).read_text()
    # liac-arff rejects a comment after an attribute declaration (supermarket.arff).
    lines = [ln.split("%")[0].rstrip() if ln.lower().startswith("@attribute") else ln
             for ln in text.splitlines()]
    d = arff.loads("\n".join(lines))
    attrs = d["attributes"]
    if not isinstance(attrs[-1][1], list):
        return None
    if any(isinstance(t, str) and t.upper() not in ("NUMERIC", "REAL", "INTEGER")
           for _, t in attrs[:-1]):
        return None
    rows = [r for r in d["data"] if r[-1] is not None]
    X = np.empty((len(rows), len(attrs) - 1))
    nv = np.zeros(len(attrs) - 1, np.int64)
    for j, (_, t) in enumerate(attrs[:-1]):
        if isinstance(t, list):
            nv[j] = len(t)
            idx = {v: k for k, v in enumerate(t)}
            X[:, j] = [np.nan if r[j] is None else idx[r[j]] for r in rows]
        else:
            X[:, j] = [np.nan if r[j] is None else float(r[j]) for r in rows]
    cls = attrs[-1][1]
    y = np.array([cls.index(r[-1]) for r in rows], np.int64)
    return X, y, nv, len(cls)


def kfold_ids(rng, n, k):
    """Fold id (0..k-1) of every instance: an unstratified random k-fold split."""
    fold = np.empty(n, np.int64)
    for f, part in enumerate(np.array_split(rng.permutation(n), k)):
        fold[part] = f
    return fold


def write_arff(path, X, y, nv, n_cls):
    lines = ["@relation check", ""]
    for j, k in enumerate(nv):
        typ = "numeric" if k == 0 else "{" + ",".join(map(str, range(k))) + "}"
        lines.append(f"@attribute a{j} {typ}")
    lines += ["@attribute class {" + ",".join(map(str, range(n_cls))) + "}", "", "@data"]
    for row, c in zip(X, y):
        vals = ["?" if np.isnan(v) else (str(int(v)) if k > 0 else repr(float(v)))
                for v, k in zip(row, nv)]
        lines.append(",".join(vals) + f",{c}")
    path.write_text("\n".join(lines) + "\n")


def compile_driver(tmp):
    subprocess.run(["javac", "-nowarn", "-cp", WEKA_JAR, "-d", str(tmp), *map(str, JAVA_DRIVER)],
                   check=True, capture_output=True)


def run_weka(sets, folds=10):
    """Weka's answers for every fold of every set: {(set, fold): (size, leaves, pred, dist)}."""
    out = {}
    with tempfile.TemporaryDirectory() as tmpname:
        tmp = pathlib.Path(tmpname)
        compile_driver(tmp)
        jobs = []
        for s, st in enumerate(sets):
            X, y, nv, C, fold = st["X"], st["y"], st["nv"], st["C"], st["fold"]
            for f in range(folds):
                te, tr = fold == f, fold != f
                a, b, o = tmp / f"s{s}f{f}_tr.arff", tmp / f"s{s}f{f}_te.arff", tmp / f"s{s}f{f}.out"
                write_arff(a, X[tr], y[tr], nv, C)
                write_arff(b, X[te], y[te], nv, C)
                jobs.append((s, f, a, b, o))
        (tmp / "jobs.txt").write_text("".join(f"{a} {b} {o}\n" for _, _, a, b, o in jobs))
        subprocess.run(["java", "-Xmx2g", "-cp", f"{WEKA_JAR}:{tmp}", "WekaGeneralFolds",
                        str(tmp / "jobs.txt")], check=True)
        for s, f, _, _, o in jobs:
            lines = [ln for ln in o.read_text().splitlines() if ln.strip()]
            size, leaves = map(int, lines[0].split())
            rows = np.array([[float(t) for t in ln.split()] for ln in lines[1:]]).reshape(
                len(lines) - 1, -1)
            out[s, f] = (size, leaves, rows[:, 0].astype(np.int64), rows[:, 1:])
    return out


def ours(st, f):
    """calibsim's answers on fold f: (size, leaves, predicted classes, probabilities, seconds to fit)."""
    X, y, nv, C, fold = st["X"], st["y"], st["nv"], st["C"], st["fold"]
    te, tr = fold == f, fold != f
    Xtr = np.ascontiguousarray(X[tr])
    t0 = time.perf_counter()
    tree = _c45_fit_general(Xtr, y[tr], np.ones(int(tr.sum())), nv, C, 0.25, 2)
    dt = time.perf_counter() - t0
    size, leaves = _c45_size_general(tree)
    Xte = np.ascontiguousarray(X[te])
    return (int(size), int(leaves), _c45_predict_general(tree, Xte),
            _c45_predict_proba_general(tree, Xte), dt)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n-sets", type=int, default=100, help="number of random data sets")
    ap.add_argument("--missing", type=float, default=0.05, help="share of missing values")
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--no-uci", action="store_true", help="skip Weka's example ARFF files")
    ap.add_argument("--fixture", type=pathlib.Path, default=None)
    ap.add_argument("--fixture-random", type=int, default=12)
    args = ap.parse_args(argv)

    rng = np.random.default_rng(args.seed)
    sets = []
    for k in range(args.n_sets):
        X, y, nv, C, desc = make_random_set(rng, args.missing)
        sets.append(dict(group="random", name=f"random{k}", desc=desc, X=X, y=y, nv=nv, C=C,
                         fold=kfold_ids(rng, len(y), 10)))
    if not args.no_uci:
        for path in sorted(glob.glob(f"{EXAMPLES}/*.arff")):
            data = load_arff(path)
            if data is None:
                continue
            X, y, nv, C = data
            name = pathlib.Path(path).stem
            sets.append(dict(group="uci", name=name, desc=f"n={len(y)} a={X.shape[1]} C={C}",
                             X=X, y=y, nv=nv, C=C, fold=kfold_ids(rng, len(y), 10)))

    t0 = time.perf_counter()
    weka = run_weka(sets)
    print(f"Weka: {len(weka)} folds in {time.perf_counter() - t0:.1f} s")
    ours(sets[0], 0)  # compile

    stats = {}
    mism = []
    fixture = {}
    fit_time = 0.0
    for s, st in enumerate(sets):
        key = st["group"] if st["group"] == "random" else st["name"]
        # folds, same size+leaves, test instances, same prediction, same distribution (1e-12)
        agg = stats.setdefault(key, np.zeros(5, np.int64))
        if st["group"] == "uci":
            stats.setdefault("uci (all)", np.zeros(5, np.int64))
        weka_pred = np.empty(len(st["y"]), np.int64)
        w_sizes = np.empty((10, 2), np.int64)
        for f in range(10):
            w_size, w_leaves, w_pred, w_dist = weka[s, f]
            size, leaves, pred, proba, dt = ours(st, f)
            fit_time += dt
            weka_pred[st["fold"] == f] = w_pred
            w_sizes[f] = w_size, w_leaves
            same_tree = size == w_size and leaves == w_leaves
            n_same = int(np.sum(pred == w_pred))
            n_prob = int(np.sum(np.all(np.abs(proba - w_dist) <= 1e-12, axis=1)))
            row = np.array([1, int(same_tree), len(pred), n_same, n_prob])
            agg += row
            if st["group"] == "uci":
                stats["uci (all)"] += row
            if not same_tree or n_same < len(pred):
                mism.append((st["name"], f, (w_size, w_leaves), (size, leaves), len(pred) - n_same))
        in_fixture = (st["group"] == "random" and s < args.fixture_random) or \
            (st["group"] == "uci" and st["name"] in FIXTURE_UCI)
        if in_fixture:
            p = st["name"] + "__"
            fixture.update({p + "X": st["X"], p + "y": st["y"], p + "n_values": st["nv"],
                            p + "n_classes": np.int64(st["C"]), p + "fold": st["fold"].astype(np.int8),
                            p + "weka_size": w_sizes, p + "weka_pred": weka_pred})

    print(f"{'data':<22}{'folds':>6}{'same tree %':>13}{'instances':>11}{'same pred %':>13}"
          f"{'same dist %':>13}")
    order = ["random"] + [k for k in stats if k not in ("random", "uci (all)")] + ["uci (all)"]
    for key in order:
        if key not in stats:
            continue
        nf, nt, ni, npred, nprob = stats[key]
        print(f"{key:<22}{nf:>6}{100 * nt / nf:>13.2f}{ni:>11}{100 * npred / ni:>13.3f}"
              f"{100 * nprob / ni:>13.3f}")
    print(f"calibsim fit time: {fit_time:.2f} s for {sum(v[0] for k, v in stats.items() if k != 'uci (all)')} folds")
    if mism:
        print(f"{len(mism)} folds differ (data, fold, weka size/leaves, ours, #predictions differing):")
        for m in mism[:40]:
            print("  ", m)
    if args.fixture is not None:
        fixture["names"] = np.array([k[:-3] for k in fixture if k.endswith("__X")])
        args.fixture.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(args.fixture, **fixture)
        print(f"saved {len(fixture['names'])} data sets to {args.fixture} "
              f"({args.fixture.stat().st_size / 1024:.0f} KB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
