"""Benchmark: does wall time fall with workers? 1 against W workers on the same study.

Runs ``calibsim run STUDY --n-datasets N --workers W`` (default: the reduced Figure 2 of
Bouckaert 2003 at 640 data sets, as issue 46 measured it) from a fresh results folder each
time, after one small warm-up run that compiles (or loads) numba's cache, alternating the
worker counts over ``--rounds`` rounds so that a change in the machine's load hits both.
Prints every time, the median per worker count, their ratio (target of issue 46: W = 2 at
most 0.6 x the time of W = 1), the serial fraction s that ratio implies under Amdahl's law,
``T(W) = T(1) (s + (1 - s) / W)``, and the speed-up that s allows at 16 and 64 workers. The
outputs of every run are compared file by file (the untracked run log aside): they must be
identical for any worker count.

    python benchmarks/bench_workers.py                         # 1 vs 2 workers, 3 rounds
    python benchmarks/bench_workers.py --workers 4 --rounds 2

The serial fraction is an estimate from two points: imports, start-up, the analyses and the
figures the main process draws all count as serial, and a loaded machine makes it look
larger than it is (report the load average with it).
"""

from __future__ import annotations

import argparse
import filecmp
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STUDY = ROOT / "studies" / "bouckaert2003_figure2.toml"


def run(study: Path, n: int, workers: int, tmp: Path, tag: str) -> tuple[float, Path]:
    """Wall seconds of one run into fresh folders under ``tmp``; the output folder."""
    out, results = tmp / f"out_{tag}", tmp / f"results_{tag}"
    cmd = [sys.executable, "-m", "calibsim", "run", str(study), "--n-datasets", str(n),
           "--workers", str(workers), "--out", str(out), "--results", str(results),
           "--no-progress"]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0, out


def same_outputs(a: Path, b: Path) -> list[str]:
    """Files that differ between two output folders (run logs left out)."""
    names = sorted(p.name for p in a.iterdir() if not p.name.endswith("_runlog.txt"))
    _, mismatch, errors = filecmp.cmpfiles(a, b, names, shallow=False)
    return mismatch + errors


def amdahl(ratio: float, workers: int) -> float:
    """The serial fraction s with T(W) / T(1) = s + (1 - s) / W, clipped to [0, 1]."""
    return min(1.0, max(0.0, (ratio - 1.0 / workers) / (1.0 - 1.0 / workers)))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--study", type=Path, default=STUDY)
    ap.add_argument("--n-datasets", type=int, default=640)
    ap.add_argument("--workers", type=int, default=2, help="compared with 1 worker")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    times = {1: [], args.workers: []}
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        run(args.study, 10, 1, tmp, "warmup")
        reference = None
        for r in range(args.rounds):
            for w in (1, args.workers) if r % 2 == 0 else (args.workers, 1):
                seconds, out = run(args.study, args.n_datasets, w, tmp, f"{r}_{w}")
                times[w].append(seconds)
                load = os.getloadavg()[0]
                print(f"round {r + 1}, {w} worker(s): {seconds:6.1f} s (load {load:.1f})",
                      flush=True)
                if reference is None:
                    reference = out
                elif (bad := same_outputs(reference, out)):
                    print(f"outputs differ from the first run's: {bad}")
                    return 1
    t1, tw = statistics.median(times[1]), statistics.median(times[args.workers])
    ratio = tw / t1
    s = amdahl(ratio, args.workers)
    print(f"\n{args.study.name} at {args.n_datasets} data sets: median {t1:.1f} s with 1 "
          f"worker, {tw:.1f} s with {args.workers}: ratio {ratio:.2f} (target <= 0.60)")
    print(f"serial fraction (Amdahl, from these two points): {s:.2f}; speed-up it allows: "
          + ", ".join(f"{1 / (s + (1 - s) / n):.1f}x at {n} workers" for n in (16, 64)))
    print("outputs identical for every worker count and round (run logs aside)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
