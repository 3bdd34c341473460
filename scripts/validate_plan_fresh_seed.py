"""Validation 5(c) of issue 42: on a fresh seed, plan's rates are within Monte Carlo error
of what it predicted.

Runs :func:`calibsim.plan` twice on the same data and learners, with root seeds 0 and 1
(new partitions and new damage), and compares every rate of the table (Type I error and
power of every design, test and Δ) by z = difference / its Monte Carlo SE (two
proportions, pooled). If plan's standard errors are honest, about 1% of |z| exceed 2.58;
the recommended design's power is shown first.

Usage::

    python scripts/validate_plan_fresh_seed.py --data breast-cancer --a naive_bayes --b c45

Run by a maintainer; calibsim never runs it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import calibsim  # noqa: E402


def fresh_seed(data, a, b, differences=(0.01, 0.02, 0.05), n_datasets=100, seeds=(0, 1)):
    """Both plans' tables side by side with z per row, and the first plan's result."""
    res = [calibsim.plan(a, b, data, differences=list(differences), n_datasets=n_datasets,
                         random_state=s, progress=False) for s in seeds]
    keys = ["design", "test", "difference"]
    t = res[0].table.merge(res[1].table, on=keys, suffixes=("", "_fresh"))
    n = n_datasets
    pooled = (t["rejection_rate"] + t["rejection_rate_fresh"]) / 2
    se = np.sqrt(pooled * (1 - pooled) * 2 / n)
    t["z"] = np.where(se > 0, (t["rejection_rate_fresh"] - t["rejection_rate"]) / se.where(
        se > 0, 1.0), 0.0)
    return t[keys + ["label", "rejection_rate", "rejection_rate_fresh", "z"]], res[0]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", default="breast-cancer")
    p.add_argument("--a", default="naive_bayes")
    p.add_argument("--b", default="c45")
    p.add_argument("--n-datasets", type=int, default=100)
    args = p.parse_args(argv)
    t, first = fresh_seed(args.data, args.a, args.b, n_datasets=args.n_datasets)
    rec = first.recommendation.dropna(subset=["design"])
    if len(rec):
        on = t.merge(rec[["difference", "design", "test"]], on=["difference", "design", "test"])
        print("recommended design and test, seed 0 (predicted) and seed 1 (fresh):")
        print(on.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    z = t["z"].abs()
    print(f"\n{len(t)} rates (every design, test and Δ, {args.n_datasets} repeats each): "
          f"|z| > 2.58 for {int((z > 2.58).sum())} ({100 * np.mean(z > 2.58):.1f}%; about 1% "
          f"expected if the SEs are honest), |z| > 1.96 for {int((z > 1.96).sum())} "
          f"({100 * np.mean(z > 1.96):.1f}%; about 5% expected); largest |z| {z.max():.2f}")
    pd.set_option("display.width", 200)
    print(t.sort_values("z", key=abs, ascending=False).head(5).to_string(
        index=False, float_format=lambda v: f"{v:.3f}"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
