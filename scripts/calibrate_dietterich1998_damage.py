"""Calibrate the damaged learners of Dietterich (1998, §5) and print them as study literals.

For each task, measures C4.5's and the nearest neighbour's errors on the task's
calibration examples (training subsets of 150, 200 and 270 of the study's data sets
of 300: :func:`calibsim.papers.dietterich1998.learning_curves`), then the damage
that puts the damaged learner a fraction λ of the way from the other learner's
learning curve to its own undamaged one, for every λ asked
(:func:`calibsim.papers.dietterich1998.calibrate_damage`). Prints the
``[learners.<name>]`` tables to paste into ``studies/dietterich1998_<task>.toml`` and
writes the mean learning curves and the calibration to
``figures/dietterich1998/dietterich1998_<task>_calibration.csv``.

Usage::

    python scripts/calibrate_dietterich1998_damage.py --task letter --n-datasets 500 \\
        --seed 19981015 --lam 0 0.2 0.4 0.6 0.8 1

Run by a maintainer when the sources or learners change; calibsim never runs it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import pandas as pd

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from calibsim.papers.dietterich1998 import (  # noqa: E402
    DAMAGED_ATTRIBUTES,
    calibrate_damage,
    learning_curves,
)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--task", choices=("exp6", "letter", "pima"), required=True,
                   help="the task of Dietterich (1998), section 5")
    p.add_argument("--n-datasets", type=int, default=500,
                   help="data sets of 300 averaged over (the paper: 1000)")
    p.add_argument("--seed", type=int, default=19981015,
                   help="the study's seed (the calibration uses the study's data sets)")
    p.add_argument("--lam", type=float, nargs="+", default=[0.0, 0.2, 0.4, 0.6, 0.8, 1.0],
                   help="fractions of the way from the other learner's curve to the "
                        "undamaged one (0: equal errors, the Type I error study)")
    p.add_argument("--out", type=Path, default=REPO / "figures" / "dietterich1998",
                   help="folder of the calibration CSV")
    args = p.parse_args(argv)
    t0 = time.perf_counter()
    curves = learning_curves(args.task, seed=args.seed, n_datasets=args.n_datasets)
    wall = time.perf_counter() - t0
    frames = []
    kind = "random_errors" if args.task == "pima" else "damaged_nn"
    print(f"# calibrated by scripts/calibrate_dietterich1998_damage.py --task {args.task} "
          f"--n-datasets {args.n_datasets} --seed {args.seed} ({wall:.0f} s)")
    for lam in args.lam:
        cal = calibrate_damage(curves, args.task, lam).assign(lam=lam)
        frames.append(cal)
        name = f"{'c45' if args.task == 'pima' else 'nn'}_lam{round(100 * lam):03d}"
        pts = ", ".join(f"[{int(r.n_train)}, {r.damage:.6f}]" for r in cal.itertuples())
        print(f"\n[learners.{name}]        # λ = {lam:g}: target mean errors "
              + ", ".join(f"{100 * r.target:.2f}%" for r in cal.itertuples()))
        print(f'kind = "{kind}"')
        if kind == "damaged_nn":
            print(f"damaged = {list(DAMAGED_ATTRIBUTES[args.task])}")
        else:
            print('base = "c45"')
        print(f"curve = [{pts}]")
    out = pd.concat(frames, ignore_index=True)[["lam", "n_train", "other", "undamaged",
                                                 "target", "damage", "achieved"]]
    out.insert(0, "n_datasets", args.n_datasets)
    out.insert(0, "task", args.task)
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"dietterich1998_{args.task}_calibration.csv"
    out.to_csv(path, index=False, float_format="%.6g")
    print(f"\n# wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
