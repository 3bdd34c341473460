"""Benchmark: C4.5 fold times off the binary null-data path, per data set, for one checkout.

The binary path is timed by bench_fold_fits.py; this times the other two on shipped UCI
data: the resampling loop on complete nominal data with multi-valued attributes and
classes (C4.5 alone and with naive Bayes, 10 x 5 stratified cv) and the general path
(numeric attributes, missing values: ``_c45_fit_general`` + prediction, 10-fold cv).
Each figure is the median of 5 repeats, in microseconds per fold.

To compare with an older commit, run it in both and read the two tables side by side:

    git worktree add /tmp/calibsim_old <commit>
    PYTHONPATH=/tmp/calibsim_old python benchmarks/bench_c45_paths.py
    python benchmarks/bench_c45_paths.py
"""

from __future__ import annotations

import time

import numpy as np

import calibsim
from calibsim.evaluate import _kernels as E
from calibsim.datasets import load_uci
from calibsim.learners import _c45 as K
from calibsim.schemes import StratifiedRepeatedCV

NOMINAL = ["breast-cancer", "primary-tumor", "soybean", "vote", "car", "tic-tac-toe", "monks-2"]
GENERAL = ["credit-a", "diabetes", "ionosphere", "sonar", "vehicle", "colic", "anneal",
           "credit-g", "soybean"]


def median_us(f, n_folds, repeats=5):
    f()                                                   # compile or load the cache
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return np.median(times) / n_folds * 1e6


def nominal_rows(rng):
    for name in NOMINAL:
        ds = load_uci(name)
        X, y = np.asarray(ds.X, float), np.asarray(ds.y, np.int64)
        nv = np.asarray(ds.n_values, np.int64)
        assert (nv > 0).all(), f"{name} has numeric attributes"
        keep = ~np.isnan(X).any(axis=1)
        X, y = np.ascontiguousarray(X[keep].astype(np.int64)), y[keep]
        masks = StratifiedRepeatedCV(n_folds=5, n_runs=10).test_masks(y, rng)
        masks = np.ascontiguousarray(masks.reshape(-1, len(y)))
        for ids in ([1], [0, 1]):
            ids = np.array(ids, np.int64)

            def run():
                E._evaluate_splits(X, y, nv, np.int64(ds.n_classes), ids, masks, 0.25,
                                   np.int64(2))
            label = "C4.5" if len(ids) == 1 else "NB + C4.5"
            yield f"nominal loop  {label:10s} {name} (n = {len(y)})", median_us(run, len(masks))


def general_rows(rng):
    for name in GENERAL:
        ds = load_uci(name)
        X, y = np.asarray(ds.X, float), np.asarray(ds.y, np.int64)
        nv = np.asarray(ds.n_values, np.int64)
        masks = StratifiedRepeatedCV(n_folds=10, n_runs=1).test_masks(y, rng)
        folds = [(np.ascontiguousarray(X[~m]), y[~m], np.ones(int((~m).sum())),
                  np.ascontiguousarray(X[m])) for m in masks.reshape(-1, len(y))]

        def run():
            for Xtr, ytr, w, Xte in folds:
                tree = K._c45_fit_general(Xtr, ytr, w, nv, ds.n_classes, 0.25, 2)
                K._c45_predict_general(tree, Xte)
        yield f"general path  C4.5       {name} (n = {len(y)})", median_us(run, len(folds))


def main():
    print(f"calibsim from {calibsim.__file__}")
    rng = np.random.default_rng(5)
    for label, us in [*nominal_rows(rng), *general_rows(rng)]:
        print(f"{label:52s} {us:9.1f} us/fold")


if __name__ == "__main__":
    main()
