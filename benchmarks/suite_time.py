"""Benchmark: wall time of every study file, from a cold store, with a warm numba cache.

Copies ``studies/`` (with its networks) into a temporary folder, so that each study's
``[outputs]`` (``../results``, ``../figures/...``) land there and the tracked outputs
are never touched, then runs ``calibsim run <copy>/studies`` once: every study in
dependency order, each from an empty store. numba's cache is warmed first by a tiny
run (``--n-datasets 2``) of one study into another temporary folder. While the suite
runs, the resident memory of the ``calibsim`` process and all its children (Dask's
scheduler and workers) is summed every 0.5 s; the largest sum is the peak.

    python benchmarks/suite_time.py                    # published sizes (about 20 min, 2 cores)
    python benchmarks/suite_time.py --n-datasets 10    # every study reduced: a quick pass
    python benchmarks/suite_time.py --csv suite.csv    # also write the table
    python benchmarks/suite_time.py --skip             # also the 100,000-data-set study
    python benchmarks/suite_time.py --keep /tmp/suite  # keep the outputs, e.g. to compare:
    diff -r /tmp/suite/figures figures                 #   the tracked outputs, byte for byte

It prints ``calibsim run``'s table (study, time to saved scores, time of analyses and
outputs, verdict counts, status), then the total, the peak memory and how busy the
machine's cores were on average (``psutil.cpu_percent`` every 0.5 s: what is left to
gain from packing the work better). Target (issue 21): the whole suite at published size in
<= 20 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
from bench_figure2_large import tree_rss  # the script's folder is on sys.path

ROOT = Path(__file__).resolve().parents[1]


def run(argv, *, cwd) -> tuple[int, str, float, int]:
    """Run ``python -m calibsim argv``; returns (exit status, stdout, seconds, peak bytes)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "calibsim", *argv], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    peak = [0]
    ps = psutil.Process(proc.pid)
    psutil.cpu_percent()                       # start the machine-wide CPU count here
    busy = []

    def sample():
        while proc.poll() is None:
            peak[0] = max(peak[0], tree_rss(ps))
            time.sleep(0.5)
            busy.append(psutil.cpu_percent())
    watcher = threading.Thread(target=sample, daemon=True)
    watcher.start()
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if line.startswith("[") and "/" in line.split("]")[0]:
            print(line.rstrip(), flush=True)          # "[i/n] study.toml"
    proc.wait()
    watcher.join()
    run.busy = sum(busy) / len(busy) if busy else float("nan")
    return proc.returncode, "".join(lines), time.perf_counter() - t0, peak[0]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n-datasets", type=int, default=None,
                    help="data sets per simulated source (default: each study's own)")
    ap.add_argument("--workers", type=int, default=None,
                    help="local Dask workers (default: all cores)")
    ap.add_argument("--csv", type=Path, default=None, help="also write the table here")
    ap.add_argument("--skip", nargs="*", default=["bouckaert2003_figure2_large"],
                    help="study names left out of the copy (default: the 100,000-data-set "
                         "scale study, timed on its own by bench_figure2_large.py)")
    ap.add_argument("--keep", type=Path, default=None,
                    help="copy the run's outputs (its figures/ folder) here before the "
                         "temporary folder goes")
    args = ap.parse_args(argv)
    extra = ["--no-progress"]
    if args.n_datasets is not None:
        extra += ["--n-datasets", str(args.n_datasets)]
    if args.workers is not None:
        extra += ["--workers", str(args.workers)]
    with tempfile.TemporaryDirectory(prefix="calibsim-suite-") as tmp:
        tmp = Path(tmp)
        shutil.copytree(ROOT / "studies", tmp / "studies")
        for name in args.skip:
            (tmp / "studies" / f"{name}.toml").unlink()
        warm = tmp / "warm"
        status, _, secs, _ = run(["run", str(tmp / "studies" / "example_ban_tan_ib1_5x2cv.toml"),
                                  "--n-datasets", "2", "--results", str(warm), "--no-progress"],
                                 cwd=tmp)
        print(f"numba cache warmed in {secs:.1f} s (exit {status})", flush=True)
        status, out, secs, peak = run(["run", str(tmp / "studies"), *extra], cwd=tmp)
        if args.keep is not None and (tmp / "figures").is_dir():
            shutil.copytree(tmp / "figures", args.keep / "figures", dirs_exist_ok=True)
    table = [ln for ln in out.splitlines() if ln.startswith("|")]
    print("\n".join(table))
    print(f"\nwhole suite: {secs / 60:.1f} min wall on {os.cpu_count()} cores "
          f"(exit {status}); peak resident memory over all processes "
          f"{peak / 2**30:.2f} GiB; the cores were {run.busy:.0f}% busy on average")
    if args.csv is not None:
        rows = [[c.strip() for c in ln.strip("|").split("|")] for ln in table
                if not re.match(r"^\|[-| ]+\|$", ln)]
        args.csv.write_text("\n".join(",".join(r) for r in rows) + "\n", encoding="utf-8")
        print(f"wrote {args.csv}")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
