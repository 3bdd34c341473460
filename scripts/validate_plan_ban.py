"""Validation 5(b) of issue 42: plan's power on Bouckaert's BAN Sets 1-4 (known differences)
beside the committed power of ``studies/bouckaert2003_table4.toml``.

The study draws 1000 data sets of 300 from each set's network (``studies/networks/``) and
runs naive Bayes and C4.5 with 10 x 10 cv and 10 random 90/10 subsamples, the tests at
their calibrated df; its rejection rates at α = 0.05
(``figures/bouckaert2003/bouckaert2003_table4_power_vs_alpha.csv``) are Type I errors on
Set 1 (no difference) and power on Sets 2-4. Here each set's network draws one pool of
30,000 instances; :func:`calibsim.plan` then takes data sets of 300 from it
(``n_instances=300``) with the same designs and tests. It first runs Δ = 0, which gives
the learners' true difference at the design's 270 training instances (from the undamaged
accuracies behind the damage rate); then, on the same saved repeats, Δ = that difference (rounded down to 0.01 points, so
that the damaged learner stays ahead: a damage of almost nothing, Dietterich's λ = 1), per
design at its own training-set size. z = (plan − committed) / the Monte Carlo SE of the difference (two proportions,
pooled). The df are the shipped table's (continuous), the study's its own integer
calibration: a small difference of method, stated.

Usage::

    python scripts/validate_plan_ban.py --n-datasets 200

Run by a maintainer; calibsim never runs it.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import calibsim  # noqa: E402

TESTS = ["resampling", "corrected_resampling", "kfold_cv", "use_all_data",
         "folds_averaged_var", "folds_averaged_t", "runs_averaged_var", "runs_averaged_t",
         "sorted_runs"]
DESIGNS = ["10x10", "subsampling:10"]


def pool(set_name: str, n: int = 30_000):
    from calibsim.sources import BANSource
    src = BANSource(REPO / "studies" / "networks" / f"{set_name}.bif", n_instances=n)
    X, y = src.sample(np.random.SeedSequence(20030823, spawn_key=(int(set_name[-1]),)))
    return np.asarray(X, np.int64), np.asarray(y, np.int64)


def validate(set_name: str, n_datasets: int, results) -> pd.DataFrame:
    X, y = pool(set_name)
    kw = dict(designs=DESIGNS, tests=TESTS, n_datasets=n_datasets, n_instances=300,
              random_state=20030823, results=results, progress=False)
    null = calibsim.plan("naive_bayes", "c45", X, y, differences=[], **kw)
    parts = []
    for design in DESIGNS:          # each design at its own gap (its training-set size)
        r = null.null.set_index("design").loc[design]
        better = (r["accuracy_other"] - r["damage_rate"]) / (1 - 2 * r["damage_rate"])
        gap = float(better - r["accuracy_other"])
        delta = 0.0 if set_name == "set1" else math.floor(gap * 1e4) / 1e4    # <= the gap
        res = null if delta == 0.0 else calibsim.plan(
            "naive_bayes", "c45", X, y, differences=[delta], **{**kw, "designs": [design]})
        t = res.table
        parts.append(t[(t["design"] == design) & (t["difference"] == delta)])
    mine = pd.concat(parts).set_index("test")
    ref = pd.read_csv(REPO / "figures" / "bouckaert2003" /
                      "bouckaert2003_table4_power_vs_alpha.csv")
    ref = ref[(ref["source"] == set_name) & (ref["alpha"] == 0.05)].set_index("test")
    rows = []
    for test in TESTS:
        c, p = float(ref.loc[test, "rate"]), float(mine.loc[test, "rejection_rate"])
        n1, n2 = int(ref.loc[test, "n"]), n_datasets
        pooled = (c * n1 + p * n2) / (n1 + n2)
        se = np.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
        rows.append({"set": set_name, "test": ref.loc[test, "label"],
                     "design": mine.loc[test, "design"],
                     "difference (points)": 100 * mine.loc[test, "difference"],
                     "damage rate": mine.loc[test, "damage_rate"], "committed": c,
                     "committed_df": ref.loc[test, "df"], "plan": p,
                     "plan_df": mine.loc[test, "df"],
                     "z": (p - c) / se if se > 0 else 0.0})
    return pd.DataFrame(rows)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--n-datasets", type=int, default=200)
    p.add_argument("--set", action="append", choices=["set1", "set2", "set3", "set4"])
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        for s in args.set or ["set1", "set2", "set3", "set4"]:
            t0 = time.perf_counter()
            out = validate(s, args.n_datasets, tmp)
            print(f"\n{s}: {args.n_datasets} data sets of 300, {time.perf_counter() - t0:.0f} s")
            print(out.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
            print(f"|z| < 3: {int((out['z'].abs() < 3).sum())} of {len(out)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
