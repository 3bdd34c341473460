"""Calibrate the damaged real-data null of ``studies/null_real_vs_balanced.toml`` and print
its damage rates as study literals.

For every data set of the study (the seven of ``studies/null_construction.toml`` and
three one-class-against-the-rest sets with a majority share of 85% or more), naive
Bayes and C4.5 are fitted on calibration splits of the data
(:func:`calibsim.calibrate_damage`, Δ = 0) at the two training-set sizes the study
uses: 10-fold cv on all the data (``design="10x10"``) and random training sets of
the size 10-fold cv has on a random half of the data (``n_train``). The better
learner's random-error rate at each size is the one that gives both learners the
same expected accuracy (Dietterich 1998, §5; ``random_errors``). The rates are
printed as ``[sources.<name>.learners.<learner>]`` tables whose ``curve`` holds the
rate of each size, flat over ``n_classes + 1`` instances either side of it (the
training sets of stratified folds differ by a few instances), 0 for a learner that
is not damaged at that size. Paste them into the study file; the calibration
(rates, undamaged accuracies, achieved difference ± SE on the check runs) goes to
``figures/null_real_vs_balanced/null_real_vs_balanced_damage.csv``.

Usage (about 2 min on one core)::

    python scripts/calibrate_null_damage.py --n-runs 100 --seed 20261127

Run by a maintainer when the data, learners or sizes change; calibsim never runs it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import pandas as pd

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

#: The study's data sets: (source name, shipped data set, class kept against the rest).
DATASETS = [("bupa", "bupa", None), ("tic_tac_toe", "tic-tac-toe", None),
            ("monks_2", "monks-2", None), ("breast_cancer", "breast-cancer", None),
            ("haberman", "haberman", None), ("hepatitis", "hepatitis", None),
            ("flare", "flare", None), ("glass_headlamps", "glass", "headlamps"),
            ("zoo_fish", "zoo", "fish"), ("ecoli_imU", "ecoli", "imU")]
LEARNERS = ("naive_bayes", "c45")


def calibrate(dataset, n_runs: int, seed: int):
    """Two :class:`calibsim.comparison._damage.DamageCalibration`: all data (10x10 cv)
    and a random half (training sets of the size 10-fold cv has on floor(n / 2))."""
    from calibsim import calibrate_damage
    n = dataset.X.shape[0]
    half = n // 2
    n_train_half = half - round(half / 10)
    full = calibrate_damage(*LEARNERS, dataset, difference=0.0, design="10x10",
                            n_runs=n_runs, random_state=seed)
    sub = calibrate_damage(*LEARNERS, dataset, difference=0.0, n_train=n_train_half,
                           n_runs=5 * n_runs, random_state=seed)
    return full, sub


def curve(cals, learner: str, width: int) -> list:
    """The ``curve`` of ``learner``: each calibration's rate (0 where the other learner
    is damaged), flat over ``width`` instances either side of its training-set size."""
    pts = []
    for cal in sorted(cals, key=lambda c: c.n_train):
        rate = cal.rate if cal.damaged == learner else 0.0
        mid = int(round(cal.n_train))
        pts += [(mid - width, rate), (mid + width, rate)]
    return pts


def main(argv=None) -> int:
    from calibsim.sources import DatasetSource
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n-runs", type=int, default=100,
                   help="runs of 10-fold cv per half (calibration, check) on all the data; "
                        "five times as many random training sets on the half-size null")
    p.add_argument("--seed", type=int, default=20261127, help="root of the calibration's "
                   "splits and damage (the study's seed: its streams are keyed apart)")
    p.add_argument("--out", type=Path, default=REPO / "figures" / "null_real_vs_balanced",
                   help="folder of the calibration CSV")
    args = p.parse_args(argv)
    t0 = time.perf_counter()
    rows, blocks = [], []
    for label, name, positive in DATASETS:
        src = DatasetSource(name, positive_class=positive)
        cals = calibrate(src.dataset, args.n_runs, args.seed)
        width = src.n_classes + 1
        for variant, cal in zip(("all data", "half"), cals):
            rows.append({"source": label, "variant": variant, "n_train": cal.n_train,
                         "splits": cal.splits, "damaged": cal.damaged, "rate": cal.rate,
                         "naive_bayes": cal.accuracy_a, "naive_bayes_se": cal.accuracy_a_se,
                         "c45": cal.accuracy_b, "c45_se": cal.accuracy_b_se,
                         "achieved": cal.achieved, "achieved_se": cal.achieved_se,
                         "calibration_se": cal.calibration_se})
        for lrn in LEARNERS:
            pts = curve(cals, lrn, width)
            if any(r > 0 for _, r in pts):
                text = ", ".join(f"[{n}, {r:.6f}]" for n, r in pts)
                blocks.append("# " + "; ".join(f"{v}: n_train {c.n_train:.0f}, {c.damaged} "
                                               f"damaged at {c.rate:.4f}"
                                               for v, c in zip(("all", "half"), cals))
                              + f"\n[sources.{label}.learners.{lrn}]"
                              + f'\nkind = "random_errors"\nbase = "{lrn}"\n'
                              f"curve = [{text}]\n")
        print(f"# {label}: " + "; ".join(f"{r['variant']} {r['damaged']} {r['rate']:.4f} "
                                         f"(achieved {100 * r['achieved']:+.2f} ± "
                                         f"{100 * r['achieved_se']:.2f} points)"
                                         for r in rows[-2:]), file=sys.stderr, flush=True)
    wall = time.perf_counter() - t0
    print(f"# calibrated by scripts/calibrate_null_damage.py --n-runs {args.n_runs} "
          f"--seed {args.seed} ({wall:.0f} s)\n")
    print("\n".join(blocks))
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "null_real_vs_balanced_damage.csv"
    pd.DataFrame(rows).to_csv(path, index=False, float_format="%.6g")
    print(f"# wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
