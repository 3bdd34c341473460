"""Benchmark: ``calibsim calibrate --like DATA`` on 1000 null data sets, wall time per data set.

For each data set named, runs the command as a user would (built-in learners naive Bayes
and C4.5, 10 x 10 cv, use all data and the corrected repeated cv t, α = 0.05) into a fresh
temporary results folder, after a tiny warm-up run that compiles (or loads) numba's
cache, so the time is that of a warm cache and includes starting the Dask workers, the
timing of one data set, the fits, the calibration and the report. It prints the wall time,
the time per null data set and the command's own time estimate beside it.

    python benchmarks/bench_calibrate_like.py                       # breast-cancer, vote, credit-g
    python benchmarks/bench_calibrate_like.py --data sonar --n-datasets 300 --workers 2

With ``--fits-only`` it times only the fits instead, in this process: CPU seconds of
:func:`calibsim.evaluate.score_splits` (naive Bayes and C4.5, then C4.5 alone) per null data
set (balanced labels permuted, 10 x 10 stratified cv), with a digest of the counts and tree
sizes, so that two versions can be compared on a loaded machine:

    python benchmarks/bench_calibrate_like.py --data credit-g --n-datasets 30 --fits-only

Targets: at most 2 minutes (issue 31), then 60 s (issue 46), for 1000 null data sets on 2
cores with the built-in learners.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(data: str, n: int, workers: int, results: str) -> tuple:
    cmd = [sys.executable, "-m", "calibsim", "calibrate", "--like", data, "--test",
           "use_all_data", "--test", "corrected_repeated_cv", "--n-datasets", str(n),
           "--workers", str(workers), "--no-progress", "--results", results]
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - t0
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{out.stderr[-2000:]}")
    m = re.search(r"about ([\d.]+) (s|min)", out.stdout)
    estimate = float(m.group(1)) * (60 if m and m.group(2) == "min" else 1) if m else float("nan")
    return wall, estimate, out.stdout


def fits_only(data: str, n: int) -> None:
    """CPU seconds per null data set of the fits alone (see the module docstring)."""
    sys.path.insert(0, str(ROOT))       # this checkout's calibsim, as ``python -m`` runs it
    import hashlib

    import numpy as np

    from calibsim.evaluate import score_splits
    from calibsim.schemes import StratifiedRepeatedCV
    from calibsim.sources import DatasetSource
    source = DatasetSource(data, permute_class=True, balance_class=True)
    cv = StratifiedRepeatedCV(n_folds=10, n_runs=10)
    sets = []
    for seed in np.random.SeedSequence(20261128).spawn(n):
        a, b = seed.spawn(2)
        X, y = source.sample(np.random.default_rng(a))
        sets.append((X, y, cv.test_masks(y, rng=np.random.default_rng(b))))
    for learners in (("naive_bayes", "c45"), ("c45",)):
        score_splits(*sets[0], n_values=source.n_values, learners=learners)     # compile
        digest = hashlib.sha256()
        t0 = time.process_time()
        for X, y, masks in sets:
            s = score_splits(X, y, masks, n_values=source.n_values, learners=learners)
            digest.update(s.correct.tobytes() + s.model_size.tobytes())
        cpu = time.process_time() - t0
        print(f"{data} {'+'.join(learners)}: {1000 * cpu / n:.1f} ms CPU per null data set "
              f"({n} data sets, digest {digest.hexdigest()[:16]}, load "
              f"{os.getloadavg()[0]:.1f})")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", action="append",
                    help="data sets (repeatable; default breast-cancer, vote, credit-g)")
    ap.add_argument("--n-datasets", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--fits-only", action="store_true",
                    help="time only the fits, in CPU seconds (see the module docstring)")
    args = ap.parse_args(argv)
    names = args.data or ["breast-cancer", "vote", "credit-g"]
    if args.fits_only:
        for name in names:
            fits_only(name, args.n_datasets)
        return
    with tempfile.TemporaryDirectory() as tmp:
        run(names[0], 4, 0, str(Path(tmp) / "warm"))          # compile or load the kernels
        print(f"{'data set':15s} {'null data sets':>15s} {'wall (s)':>9s} {'per data set (ms)':>18s}"
              f" {'its estimate (s)':>17s}")
        for name in names:
            wall, est, _ = run(name, args.n_datasets, args.workers, str(Path(tmp) / name))
            print(f"{name:15s} {args.n_datasets:15d} {wall:9.1f} {1000 * wall / args.n_datasets:18.1f}"
                  f" {est:17.1f}")


if __name__ == "__main__":
    main()
