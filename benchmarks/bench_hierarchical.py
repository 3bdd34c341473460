"""Benchmark: one hierarchical Bayesian test on 50 data sets x 10 runs x 10 folds (issue 35:
at most 10 s on 2 cores after start-up), calibsim (NumPyro NUTS) vs baycomp (PyStan 3).

Start-up is timed apart: importing JAX and NumPyro, and the first call (which compiles the
sampler for q = 50; later calls with 50 data sets reuse it). Then ``--rounds`` calls on new
data, each with 4 chains x 2,500 draws after 1,000 warm-up iterations (10,000 draws),
timed in wall-clock and CPU seconds (CPU time counts every thread, so on a busy machine it
is the steadier measure of the work done). With ``--baycomp`` and PyStan installed, baycomp's
``HierarchicalTest`` samples the same data in the same rounds (4 chains x 10,000 draws, its
default, and with 2,500 draws per chain for an equal count; the Stan model is compiled, or
taken from httpstan's cache, before timing), and the table gives the ratios of the medians.

    python benchmarks/bench_hierarchical.py
    python benchmarks/bench_hierarchical.py --rounds 5 --baycomp
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

import numpy as np


def _data(seed, q=50, r=10, k=10):
    rng = np.random.default_rng(seed)
    return rng.normal(0.01, 0.01, (q, 1, 1)) + rng.normal(0, 0.03, (q, r, k))


def _timed(fn):
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w, time.process_time() - c


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--baycomp", action="store_true", help="also time baycomp (PyStan)")
    args = ap.parse_args(argv)
    _, w, c = _timed(lambda: __import__("numpyro") and __import__("jax"))
    print(f"import JAX + NumPyro: {w:.1f} s wall, {c:.1f} s CPU")
    from calibsim.stats import hierarchical_bayesian_test
    load = os.getloadavg()[0]
    res, w, c = _timed(lambda: hierarchical_bayesian_test(_data(0), rope=0.01, random_state=0))
    print(f"first call (compiles for q = 50): {w:.1f} s wall, {c:.1f} s CPU; "
          f"load average {load:.1f} on {os.cpu_count()} cores")
    rows = {"calibsim": [], "baycomp 4x10000": [], "baycomp 4x2500": []}
    if args.baycomp:
        from baycomp.multiple import HierarchicalTest
        tmp = tempfile.mkdtemp()
        os.chdir(tmp)                        # baycomp pickles its last sample here

        def stan(x, n):
            flat = x.reshape(50, 100)
            return HierarchicalTest.sample(np.zeros_like(flat), flat, 0.01, runs=10,
                                           chains=4, nsamples=n, random_state=1)
        _, w, c = _timed(lambda: stan(_data(99), 100))
        print(f"baycomp: Stan model built or loaded, first fit: {w:.1f} s wall")
    for i in range(1, args.rounds + 1):
        x = _data(i)
        res, w, c = _timed(lambda: hierarchical_bayesian_test(x, rope=0.01, random_state=i))
        rows["calibsim"].append((w, c))
        print(f"round {i}: calibsim {w:.2f} s wall, {c:.2f} s CPU (R-hat {res.rhat:.3f}, "
              f"ESS {res.ess:.0f}, {res.n_divergent} divergent)", flush=True)
        if args.baycomp:
            for n, key in ((10_000, "baycomp 4x10000"), (2_500, "baycomp 4x2500")):
                _, w, c = _timed(lambda: stan(x, n))
                rows[key].append((w, c))
                print(f"round {i}: {key} {w:.2f} s wall, {c:.2f} s CPU (Stan runs its chains "
                      "in child processes: their CPU is not counted)", flush=True)
    print("\n| sampler | median wall (s) | median CPU (s) | ratio of wall medians |")
    print("|---|---|---|---|")
    base = statistics.median(w for w, _ in rows["calibsim"])
    for key, vals in rows.items():
        if vals:
            mw = statistics.median(w for w, _ in vals)
            mc = statistics.median(c for _, c in vals)
            print(f"| {key} | {mw:.2f} | {mc:.2f} | {mw / base:.2f} |")
    print(f"\none test on 50 data sets x 10 x 10 cv: {base:.2f} s wall (target <= 10 s on 2 "
          f"cores); load average now {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
