"""Measure, once, the training times that Ulaş et al. (2012) use as a cost, over repeats.

Multi²Test with training time as the cost (Ulaş, Yıldız & Alpaydın 2012, §4.5.1) orders
the learners by a prior cost. A cost measured during each run of the study moves with
this machine's load, and so did the published order (issue 37). So the cost is measured
here, once, over ``--repeats`` repeats of the study's fits, and written to a tracked
table that ``studies/ulas2012_real.toml`` reads (its layout,
:func:`calibsim.papers.ulas2012.write_real`, reports how stable the order is under
the repeats' spread)::

    python scripts/measure_ulas2012_training_time.py --repeats 3

Each repeat runs the study's scores afresh in one process (``n_workers=0``: no worker
competes with another for a core), into a temporary store, and keeps each learner's fit
seconds per data set (summed over the 10 training sets of the 5 x 2 cv, as the engine
times them). An untimed warm-up on the first data set comes first, so that loading the
compiled kernels is not charged to a learner's first fit. Writes
``studies/ulas2012_real_training_time.csv`` (one row per data set, learner and repeat)
and ``.md`` (per learner: mean and spread over the repeats, with the machine, date and
load of the measurement).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
STUDY = ROOT / "studies" / "ulas2012_real.toml"


def measure(repeats: int, n_datasets=None) -> pd.DataFrame:
    from calibsim.engine import load_study
    from calibsim.engine.run import compute_scores
    from calibsim.papers.ulas2012 import _name
    study = load_study(STUDY, n_datasets=n_datasets)
    scheme = study.schemes[0].name
    # warm-up, not timed: the first fit of each kernel in a process loads (or compiles)
    # it, which would be charged to whichever data set came first
    with tempfile.TemporaryDirectory() as tmp:
        compute_scores(replace(load_study(STUDY, n_datasets=1), results=Path(tmp)),
                       client=None, load=False)
    rows = []
    for k in range(repeats):
        t0 = time.perf_counter()
        with tempfile.TemporaryDirectory() as tmp:
            scores = compute_scores(replace(study, results=Path(tmp)), client=None)
            for src in study.sources:
                for lrn in study.learners:
                    cost = scores.costs(src.label, scheme, lrn.label)
                    rows.append({"dataset": _name(src.label), "learner": lrn.label,
                                 "repeat": k + 1,
                                 "fit_seconds": float(cost["fit_time"][0]),
                                 "predict_seconds": float(cost["predict_time"][0])})
        print(f"repeat {k + 1}/{repeats}: {time.perf_counter() - t0:.0f} s", flush=True)
    return pd.DataFrame(rows)


def main(argv=None) -> int:
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    warnings.filterwarnings("ignore", category=ConvergenceWarning)   # mlp: as in the study
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3, help="repeats of every fit (default 3)")
    ap.add_argument("--out", type=Path, default=STUDY.with_name("ulas2012_real_training_time.csv"),
                    help="the table to write (default: beside the study file)")
    ap.add_argument("--n-datasets", type=int, default=None,
                    help="only the first N data sets (a quick check of the script)")
    args = ap.parse_args(argv)
    load0 = os.getloadavg()
    start = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    t0 = time.perf_counter()
    table = measure(args.repeats, args.n_datasets)
    wall = time.perf_counter() - t0
    table.to_csv(args.out, index=False, float_format="%.6g")
    from calibsim.papers.ulas2012 import cost_summary
    summary = cost_summary(table)
    md = args.out.with_suffix(".md")
    md.write_text(
        "# Ulaş et al. (2012) §4: training time of the seven learners, measured once\n\n"
        f"Fit seconds per data set (summed over the 10 training sets of the 5 x 2 cv) of "
        f"every learner on the {table['dataset'].nunique()} data sets of "
        f"`studies/ulas2012_real.toml`, {args.repeats} repeats, each in one process "
        f"(`python scripts/measure_ulas2012_training_time.py --repeats {args.repeats}`). "
        f"Measured {start} on {os.cpu_count()} cores ({platform.platform()}, Python "
        f"{platform.python_version()}), load average {load0[0]:.1f} at the start and "
        f"{os.getloadavg()[0]:.1f} at the end (the machine was shared); {wall:.0f} s in "
        "all. The study's Multi²Test reads the table "
        f"[`{args.out.name}`]({args.out.name}) and reports how stable its order is under "
        "the spread over the repeats.\n\n"
        "Per learner: the cost Multi²Test's second pass uses (each data set's times "
        "divided by their sum over the learners, averaged over data sets), mean and standard "
        "deviation over the repeats, and the fit seconds summed over the data sets.\n\n"
        + summary.to_markdown(index=False, floatfmt=".4g") + "\n", encoding="utf-8")
    print(f"wrote {args.out} and {md} ({wall:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
