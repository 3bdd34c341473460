"""Benchmark: naive Bayes + C4.5 fold-fit pairs per second, calibsim vs a scikit-learn loop.

Both run on the same 300 x 10 null data sets and the same 10 x 10 stratified folds,
measured in this one run; so does Weka 3.6 (NaiveBayes + J48 timed inside one JVM after a
JIT warm-up, by benchmarks/java/WekaFoldTiming.java) when Java and weka.jar are installed. A "fold-fit pair" is: fit naive Bayes and C4.5 on the
training folds and predict the test fold with both.

    python benchmarks/bench_fold_fits.py                 # learners only (about a minute)
    python benchmarks/bench_fold_fits.py --full-study    # also time the full Figure 2 study

The scikit-learn loop uses BernoulliNB and DecisionTreeClassifier(criterion="entropy"):
neither is Weka's learner (no pruning, different smoothing), so this compares speed only.
The full-study timing runs `calibsim run studies/bouckaert2003_figure2.toml` into a fresh
temporary results folder, after a tiny warm-up study that compiles (or loads) numba's cache.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from calibsim.evaluate import score_splits
from calibsim.schemes import RepeatedStratifiedKFold
from calibsim.sources import NullSource

ROOT = Path(__file__).resolve().parents[1]


def data(n_datasets, seed=0):
    src, scheme = NullSource(), RepeatedStratifiedKFold(n_folds=10, n_runs=10)
    seqs = np.random.SeedSequence(seed).spawn(n_datasets)
    out = []
    for ss in seqs:
        d, f = ss.spawn(2)
        X, y = src.sample(d)
        out.append((X, y, scheme.test_masks(y, f)))
    return out


def bench_calibsim(sets, repeat=3):
    X, y, m = sets[0]
    score_splits(X, y, m)                       # compile or load the numba cache
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        for X, y, m in sets:
            score_splits(X, y, m)
        best = min(best, time.perf_counter() - t0)
    pairs = sum(m.shape[0] * m.shape[1] for _, _, m in sets)
    return pairs / best


def bench_sklearn(sets):
    from sklearn.naive_bayes import BernoulliNB
    from sklearn.tree import DecisionTreeClassifier
    t0 = time.perf_counter()
    pairs = 0
    for X, y, masks in sets:
        for mask in masks.reshape(-1, len(y)):
            tr, te = ~mask, mask
            BernoulliNB().fit(X[tr], y[tr]).predict(X[te])
            DecisionTreeClassifier(criterion="entropy", random_state=0).fit(X[tr], y[tr]).predict(X[te])
            pairs += 1
    return pairs / (time.perf_counter() - t0)


WEKA_JAR = Path("/usr/share/java/weka.jar")


def bench_weka(sets, repeat=3):
    """Weka 3.6 NaiveBayes + J48 timed in-process by benchmarks/java/WekaFoldTiming.java.

    Returns pairs/s, or None when Java or weka.jar (Debian package ``weka``) is missing.
    The harness is compiled here against the installed weka.jar; no binary is kept.
    """
    import shutil
    if not (WEKA_JAR.is_file() and shutil.which("javac") and shutil.which("java")):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        subprocess.run(["javac", "-nowarn", "-cp", str(WEKA_JAR), "-d", str(tmp),
                        str(ROOT / "benchmarks" / "java" / "WekaFoldTiming.java")],
                       check=True, capture_output=True)
        lines = []
        for d, (X, y, masks) in enumerate(sets):
            arff = tmp / f"d{d}.arff"
            rows = [",".join(map(str, row)) + f",c{c}" for row, c in zip(X, y)]
            head = [f"@relation null{d}"] + [f"@attribute a{j} {{0,1}}" for j in range(X.shape[1])]
            arff.write_text("\n".join(head + ["@attribute class {c0,c1}", "@data"] + rows) + "\n")
            folds = tmp / f"d{d}.folds"
            folds.write_text("\n".join(" ".join(map(str, np.flatnonzero(m)))
                                       for m in masks.reshape(-1, len(y))) + "\n")
            lines.append(f"{arff} {folds}")
        (tmp / "list.txt").write_text("\n".join(lines) + "\n")
        out = subprocess.run(["java", "-cp", f"{WEKA_JAR}:{tmp}", "WekaFoldTiming",
                              str(tmp / "list.txt"), str(repeat)],
                             check=True, capture_output=True, text=True).stdout.split()
        return int(out[0]) / float(out[1])


def full_study(workers):
    study = ROOT / "studies" / "bouckaert2003_figure2.toml"
    with tempfile.TemporaryDirectory() as tmp:
        warm = [sys.executable, "-m", "calibsim.cli", "run", str(study), "--n-datasets", "4",
                "--results", f"{tmp}/warm", "--out", f"{tmp}/warm_out", "--no-progress"]
        if workers is not None:
            warm += ["--workers", str(workers)]
        subprocess.run(warm, check=True, cwd=ROOT, capture_output=True)
        cmd = [sys.executable, "-m", "calibsim.cli", "run", str(study), "--results",
               f"{tmp}/res", "--out", f"{tmp}/out", "--no-progress"]
        if workers is not None:
            cmd += ["--workers", str(workers)]
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, cwd=ROOT, capture_output=True)
        return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", type=int, default=20, help="data sets for calibsim (x100 folds)")
    ap.add_argument("--sklearn-datasets", type=int, default=3,
                    help="data sets for the scikit-learn loop (x100 folds)")
    ap.add_argument("--full-study", action="store_true", help="also time the full Figure 2 study")
    ap.add_argument("--workers", type=int, default=None, help="Dask workers for the full study")
    args = ap.parse_args()

    sets = data(max(args.datasets, args.sklearn_datasets))
    ours = bench_calibsim(sets[:args.datasets])
    theirs = bench_sklearn(sets[:args.sklearn_datasets])
    weka = bench_weka(sets[:args.datasets])
    print(f"machine: {os.cpu_count()} cores; single thread; 300 x 10 null data, 10 x 10 cv")
    print(f"calibsim  NaiveBayes + C4.5 (J48)          : {ours:10.0f} fold-fit pairs/s"
          f"  ({1e6 / ours:7.1f} us per pair)")
    print(f"sklearn   BernoulliNB + DecisionTree(entropy): {theirs:10.0f} fold-fit pairs/s"
          f"  ({1e6 / theirs:7.1f} us per pair)")
    print(f"ratio calibsim / scikit-learn              : {ours / theirs:10.1f} x")
    if weka is None:
        print("weka      not measured (needs java, javac and /usr/share/java/weka.jar)")
    else:
        print(f"weka 3.6  NaiveBayes + J48, in-process JVM   : {weka:10.0f} fold-fit pairs/s"
              f"  ({1e6 / weka:7.1f} us per pair)")
        print(f"ratio calibsim / Weka                      : {ours / weka:10.1f} x")
    if args.full_study:
        wall = full_study(args.workers)
        print(f"full Figure 2 study (1000 data sets x 100 runs x 10 folds + 100 subsamples, "
              f"calibration, outputs), warm numba cache: {wall:.1f} s wall")


if __name__ == "__main__":
    main()
