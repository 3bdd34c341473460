"""Benchmark: wall time and peak memory of the Figure 2 calibration at 10,000 null data sets.

Runs ``calibsim run studies/bouckaert2003_figure2_large.toml --n-datasets N`` (default
10,000) into a fresh temporary results folder, after a tiny warm-up run of the same study
that compiles (or loads) numba's cache, so the time is that of a warm cache. While it
runs, the resident memory (RSS) of every process this script started (the ``calibsim``
run, its Dask scheduler and workers, or the hand-started ``dask scheduler`` and ``dask
worker`` processes of ``--hand-cluster``) is summed every 0.2 s; the largest sum is the
peak. The progress bar's phases are timed too ("data sets", "analyses", "writing
outputs"), from the lines it prints.

    python benchmarks/bench_figure2_large.py                  # 10,000 data sets, ~4 min
    python benchmarks/bench_figure2_large.py --n-datasets 2000 --workers 2
    python benchmarks/bench_figure2_large.py --n-datasets 2000 --workers 1 --hand-cluster
    python benchmarks/bench_figure2_large.py --n-datasets 100000      # about 30 min

Targets: at 10,000 <= 4 min wall on 2 cores, <= 2 GiB peak (issue "Calibrated df you can
trust"); at 100,000 <= 30 min, <= 3 GiB (issue 21). Measured 2026-11-25: 200 s / 0.92 GiB
and 29.7 min / 1.93 GiB.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
STUDY = ROOT / "studies" / "bouckaert2003_figure2_large.toml"


def tree_rss(proc: psutil.Process) -> int:
    """Bytes resident in ``proc`` and all its descendants (0 for those gone meanwhile)."""
    total = 0
    for p in [proc, *proc.children(recursive=True)]:
        try:
            total += p.memory_info().rss
        except psutil.Error:
            pass
    return total


def run(n_datasets: int, workers: int | None, tmp: str, timed: bool, scheduler=None, out=None):
    cmd = [sys.executable, "-m", "calibsim.cli", "run", str(STUDY),
           "--n-datasets", str(n_datasets), "--results", f"{tmp}/res",
           "--out", str(out) if out is not None else f"{tmp}/out"]
    if scheduler is not None:
        cmd += ["--scheduler", scheduler]
    elif workers is not None:
        cmd += ["--workers", str(workers)]
    if not timed:
        subprocess.run(cmd + ["--no-progress"], check=True, cwd=ROOT, capture_output=True)
        return None
    peak = [0]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, bufsize=1)
    ps = psutil.Process()                 # this script: its children are the calibsim
    done = threading.Event()              # run and any scheduler and workers it started

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], tree_rss(ps) - ps.memory_info().rss)
            done.wait(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    phases = {}
    for line in proc.stdout:          # "<study>: <phase>[: <bar>]", tqdm's "\r" updates
        for part in line.replace("\r", "\n").split("\n"):
            segs = part.split(": ")
            name = segs[1].strip() if len(segs) > 1 and segs[0] == STUDY.stem else ""
            if name.endswith(" s") and name[:-2].replace(".", "").isdigit():
                name = ""                 # the closing "<study>: <seconds> s" line
            if name and name not in phases:
                phases[name] = time.perf_counter() - t0
    rc = proc.wait()
    wall = time.perf_counter() - t0
    done.set()
    sampler.join()
    if rc != 0:
        sys.exit(f"the study run failed with exit code {rc}")
    return wall, peak[0], phases


def _hand_cluster(n_workers: int):
    """A ``dask scheduler`` and ``n_workers`` ``dask worker`` processes, as started by hand
    on a cluster's nodes; returns (address, processes)."""
    import socket
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler",
                               "--host", "127.0.0.1", "--port", str(port),
                               "--dashboard-address", ":0"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    time.sleep(3)
    procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address,
                                   "--nworkers", str(n_workers), "--nthreads", "1",
                                   "--memory-limit", "0", "--dashboard-address", ":0"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    from distributed import Client
    with Client(address, timeout=60) as client:
        client.wait_for_workers(n_workers, timeout=120)
    return address, procs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n-datasets", type=int, default=10_000)
    ap.add_argument("--workers", type=int, default=None, help="Dask workers (default: all cores)")
    ap.add_argument("--hand-cluster", action="store_true",
                    help="start `dask scheduler` and --workers `dask worker` processes (one "
                         "thread each) by hand and run with --scheduler, as on a cluster")
    ap.add_argument("--out", type=Path, default=None,
                    help="keep the run's tables, figures and report here (e.g. "
                         "figures/bouckaert2003/figure2_10000, to check them against git)")
    args = ap.parse_args()
    procs = []
    scheduler = None
    try:
        if args.hand_cluster:
            scheduler, procs = _hand_cluster(args.workers or os.cpu_count())
        with tempfile.TemporaryDirectory() as tmp:
            run(4, args.workers, f"{tmp}/warm", timed=False, scheduler=scheduler)
            load = os.getloadavg()[0]
            wall, peak, phases = run(args.n_datasets, args.workers, f"{tmp}/main", timed=True,
                                     scheduler=scheduler, out=args.out)
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=30)
    how = (f"a hand-started scheduler and {args.workers or os.cpu_count()} workers"
           if args.hand_cluster else f"--workers {args.workers}" if args.workers is not None
           else "a local cluster over all cores")
    print(f"machine: {os.cpu_count()} cores, load average {load:.1f} at the start; {how}")
    print(f"time per data set: {wall / args.n_datasets * 1e3:.2f} ms (wall)")
    print(f"{STUDY.name} at {args.n_datasets:,} data sets, warm numba cache: "
          f"{wall:.1f} s wall (target <= 240 s), peak memory {peak / 2**30:.2f} GiB "
          "(all processes; target <= 2 GiB)")
    starts = list(phases.items()) + [("end", wall)]
    for (name, t), (_, t_next) in zip(starts, starts[1:]):
        print(f"  {name:60s} {t:7.1f} s -> {t_next:7.1f} s ({t_next - t:6.1f} s)")


if __name__ == "__main__":
    main()
