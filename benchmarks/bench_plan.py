"""Benchmark: ``calibsim.plan`` on a 1,000-row data set (issue 42, item 6).

Times :func:`calibsim.plan` on credit-g (1,000 instances, 20 attributes: 13 nominal, 7
numeric, so the general path of the built-in learners) with naive Bayes against C4.5,
the six default designs (10x10, 5x10, 10x5, 5x2cv, 1x10, holdout: 442 fits per repeat),
three differences (1, 2 and 5 points; the null is added) and N repeats per design, and
extrapolates linearly in N to the issue's N = 500 (every repeat costs the same fits; the
tests on the scores take well under 1% of the time). The target is 10 minutes on 2
cores. It also prints the time estimate ``plan`` printed before the work
(:func:`calibsim.engine.planning.estimate_seconds`, ``PlanResult.estimated_seconds``)
beside the time that work took (``PlanResult.work_seconds``) and their ratio. Run in this process (no --workers) it also prints the CPU time per fit, which
does not depend on the machine's load.

    python benchmarks/bench_plan.py --n-datasets 20 --workers 2

Not a test: the time depends on the machine and its load (state both beside it).
"""

from __future__ import annotations

import argparse
import os
import time

import calibsim


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", default="credit-g")
    p.add_argument("--n-datasets", type=int, default=20, help="repeats N per design timed")
    p.add_argument("--target", type=int, default=500, help="N to extrapolate to")
    p.add_argument("--workers", type=int, default=None,
                   help="local worker processes (default: fit in this process)")
    args = p.parse_args(argv)
    ds = calibsim.load_uci(args.data)
    calibsim.plan("naive_bayes", "c45", ds, differences=[0.05], designs=["holdout"],
                  n_datasets=2, progress=False)                # compile / load kernels
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    res = calibsim.plan("naive_bayes", "c45", ds, differences=[0.01, 0.02, 0.05],
                        n_datasets=args.n_datasets, n_jobs=args.workers, progress=True)
    wall = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    fits = args.n_datasets * int(res.table.drop_duplicates("design")["fits"].sum())
    per_n = wall / args.n_datasets
    print(f"{args.data}: {ds.X.shape[0]} instances; 6 designs, 3 differences, "
          f"N = {args.n_datasets}: {fits:,} fits in {wall:.1f} s wall ({cpu:.1f} s CPU in "
          f"this process), {1000 * wall / fits:.2f} ms per fit; workers {args.workers}; "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    print(f"time estimate before the work {res.estimated_seconds:.1f} s, the work took "
          f"{res.work_seconds:.1f} s: estimate / actual = "
          f"{res.estimated_seconds / res.work_seconds:.2f}")
    print(f"extrapolated to N = {args.target}: {per_n * args.target / 60:.1f} min wall at "
          f"this load and these workers (target 10 min on 2 cores)")
    if args.workers is None:
        per_fit_cpu = cpu / fits
        print(f"CPU: {1000 * per_fit_cpu:.2f} ms per fit; N = {args.target} needs "
              f"{per_fit_cpu * fits / args.n_datasets * args.target / 60:.1f} min of CPU, "
              f"so {per_fit_cpu * fits / args.n_datasets * args.target / 120:.1f} min on 2 "
              "idle cores with --workers 2 if the pool scales perfectly (not measured)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
