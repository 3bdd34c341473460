"""Validation 5(a) of issue 42: the generalised damage against Dietterich's own studies.

``studies/dietterich1998_{pima,exp6,letter}.toml`` measure the Type I error of McNemar's
test, the difference of proportions, the resampled t (30 splits), the 10-fold cv t and the
5x2cv t on data sets of 300 drawn from each task, with the better learner damaged until
both have the same learning curve (calibrated on the task's calibration examples). This
script runs :func:`calibsim.plan` on the same task with ``n_instances=300`` (every repeat
a fresh data set of 300 drawn from the task's data), the same learners, designs, tests and
textbook df, the damage now calibrated by :func:`calibsim.calibrate_damage`'s rule on the
repeats themselves, and puts its Type I errors beside the committed ones
(``figures/dietterich1998/dietterich1998_<task>_type1.csv``) with z = difference / its Monte
Carlo SE (two-proportion, at the pooled rate).

Usage::

    python scripts/validate_plan_dietterich1998.py --task pima --n-datasets 300

The data: Pima is ``diabetes`` (768); letter the shipped 20 000; EXP6 (calibsim's stated
substitute, `calibsim.sources._dietterich_tasks.exp6_class`) a pool of 20 000 uniform points of the
square. Run by a maintainer; calibsim never runs it (tests/test_plan_validation.py runs it
small).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import calibsim  # noqa: E402

#: The study's schemes as plan designs: 30 random 2/3-1/3 splits (McNemar and the
#: proportions test on one of them), one 10-fold cv, 5x2cv.
DESIGNS = ["holdout", "subsampling:30@0.333", "1x10", "5x2cv"]
TESTS = ["mcnemar", "proportions", "resampling", "kfold_cv", "cv5x2_t"]
#: The undamaged pair of each study (the better one is damaged).
LEARNERS = {"pima": ("ib1", "c45"), "exp6": ("c45", "ib1"), "letter": ("c45", "ib1")}


def task_data(task: str):
    """The data each task's data sets of 300 are drawn from."""
    if task == "pima":
        return "diabetes", None
    if task == "letter":
        return "letter", None
    from calibsim.sources._dietterich_tasks import exp6_class
    rng = np.random.default_rng(np.random.SeedSequence(19981015, spawn_key=(6,)))
    X = rng.uniform(0.0, 15.0, size=(20_000, 2))
    return pd.DataFrame(X, columns=["x1", "x2"]), exp6_class(X)


def validate(task: str, n_datasets: int, seed: int = 19981015, n_jobs=None,
             progress: bool = False) -> pd.DataFrame:
    """The plan's Type I errors on ``task`` beside the committed study's."""
    X, y = task_data(task)
    a, b = LEARNERS[task]
    res = calibsim.plan(a, b, X, y, differences=[], designs=DESIGNS, tests=TESTS,
                        df="textbook", n_datasets=n_datasets, n_instances=300,
                        random_state=seed, n_jobs=n_jobs, progress=progress)
    mine = res.table[res.table["difference"] == 0.0]
    committed = pd.read_csv(REPO / "figures" / "dietterich1998" /
                            f"dietterich1998_{task}_type1.csv")
    rows = []
    for r in committed.itertuples():
        m = mine[mine["test"] == r.test].iloc[0]
        # two-proportion z: the SE at the pooled rate (a rate of 0 still has an error)
        k = r.type1_error * r.n + m["rejection_rate"] * n_datasets
        pooled = k / (r.n + n_datasets)
        se = float(np.sqrt(pooled * (1 - pooled) * (1 / r.n + 1 / n_datasets)))
        rows.append({"task": task, "test": r.label, "committed": r.type1_error,
                     "committed_se": r.mc_se, "committed_n": r.n,
                     "plan": m["rejection_rate"], "plan_se": m["rejection_se"],
                     "plan_n": n_datasets, "design": m["design"],
                     "z": (m["rejection_rate"] - r.type1_error) / se if se > 0 else 0.0})
    out = pd.DataFrame(rows)
    out.attrs["null"] = res.null
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--task", choices=("pima", "exp6", "letter"), action="append",
                   help="task(s) (default: all three)")
    p.add_argument("--n-datasets", type=int, default=300, help="data sets of 300 per design")
    p.add_argument("--seed", type=int, default=19981015)
    p.add_argument("--workers", type=int, default=None)
    args = p.parse_args(argv)
    for task in args.task or ["pima", "exp6", "letter"]:
        t0 = time.perf_counter()
        out = validate(task, args.n_datasets, args.seed, args.workers, progress=True)
        print(f"\n{task}: {args.n_datasets} data sets of 300 per design, "
              f"{time.perf_counter() - t0:.0f} s")
        print(out.attrs["null"].to_string(index=False, float_format=lambda v: f"{v:.4f}"))
        print(out.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
        print(f"|z| < 3 (within Monte Carlo error): {int((out['z'].abs() < 3).sum())} of "
              f"{len(out)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
