"""Two checks of issue 42 on null data like a user's (long; outside the test suite).

1. **The N estimate of the df precision warning.** ``calibrate_like`` on N0 null data sets
   warns that the df is not pinned down and estimates how many null data sets would be
   (``calibsim.comparison._calibrate_like.df_precision``); rerun at that N, the spread of
   the critical value over the df's 95% interval should be near the width allowed (5%).
2. **The shift estimate of the detectable difference** (``calibsim.comparison.
   detectable_difference``): the power the noncentral t predicts at the calibrated df
   against the rejection rate of the corrected repeated cv t on the centred null data sets
   with every per-fold difference shifted by δ (the "shift" of issue 42, no refitting).

Usage::

    python scripts/check_like_precision_and_shift.py --make-csv /tmp/prior81.csv
    python scripts/check_like_precision_and_shift.py /tmp/prior81.csv --n0 100

Measured 2026-11-27 on the shared 2-core machine (300 rows, 6 numeric attributes, prior
81/19, naive Bayes vs C4.5, 10 x 10 cv, α = 0.05, seed 20030821 as the CLI's):
N0 = 100 gave df 27.59 (8.06 to ∞), a 16.7% spread and an estimate of 1,300; at N = 1,300
the df is 27.69 (17.71 to 38.96), a 3.9% spread, no warning (12 min on one worker). On the
1,300 centred null data sets at df 27.69, δ for power 0.5 / 0.8 / 0.9 (6.59, 9.43, 10.91
points) gave rejection rates 0.513 / 0.801 / 0.892 (MC SE 0.014 / 0.011 / 0.008).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

SEED = 20030821          # calibsim calibrate's default --seed


def make_csv(path) -> None:
    """300 rows, 81/19 class prior, 6 numeric attributes weakly tied to the class."""
    import pandas as pd
    rng = np.random.default_rng(42)
    y = np.array(["neg"] * 243 + ["pos"] * 57)
    rng.shuffle(y)
    X = rng.normal(size=(300, 6)) + 0.6 * (y == "pos")[:, None] * np.array(
        [1, 0.8, 0.5, 0, 0, 0])
    frame = pd.DataFrame(X.round(4), columns=[f"x{i}" for i in range(6)])
    frame["class"] = y
    frame.to_csv(path, index=False)


def centred_differences(csv, n, results):
    """(N, 10, 10) centred per-fold differences naive Bayes − C4.5 of ``calibrate_like``."""
    from calibsim.comparison._calibrate_like import _study_doc
    from calibsim.engine.analyses import (SameDifferences, block_summaries, null_centres,
                                          test_data)
    from calibsim.engine.run import compute_scores
    from calibsim.engine.scoring import parse_design
    from calibsim.engine.spec import study_from_dict
    doc = _study_doc(csv, ("naive_bayes", "c45"), parse_design("10x10"),
                     ["corrected_repeated_cv"], (0.05,), n, SEED, results, "frequentist",
                     0.0, None)
    study = study_from_dict(doc, Path.cwd() / f"{doc['study']['name']}.toml")
    scores = compute_scores(study)
    a = study.analyses[0]
    centres = null_centres(study, [a], block_summaries(study, [a], scores, null_only=True))
    names = tuple(lrn.label for lrn in study.learners)
    return test_data(SameDifferences(scores, centres), study.sources[0].label, "s",
                     "corrected_repeated_cv", names, 10)


def main(argv=None) -> int:
    from calibsim.comparison import calibrate_like, detectable_difference
    from calibsim.stats import get_test
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("csv", nargs="?")
    p.add_argument("--make-csv", metavar="PATH")
    p.add_argument("--n0", type=int, default=100)
    p.add_argument("--results", default="/tmp/check_like_results")
    p.add_argument("--workers", type=int, default=1)
    args = p.parse_args(argv)
    if args.make_csv:
        make_csv(args.make_csv)
        print(f"wrote {args.make_csv}")
        return 0
    kw = {"results": args.results, "n_jobs": args.workers, "seed": SEED, "progress": False}
    first = calibrate_like(args.csv, n_datasets=args.n0, **kw)
    r = first.table.iloc[0]
    print(f"N = {args.n0}: df {r['df']:.2f} ({r['df_ci_low']:.2f} to {r['df_ci_high']:.2f}), "
          f"spread {100 * r['critical_spread']:.1f}%, estimate {r['n_datasets_needed']}")
    n = int(r["n_datasets_needed"]) if np.isfinite(r["n_datasets_needed"]) else args.n0
    res = calibrate_like(args.csv, n_datasets=n, **kw)
    r = res.table.iloc[0]
    print(f"N = {n}: df {r['df']:.2f} ({r['df_ci_low']:.2f} to {r['df_ci_high']:.2f}), "
          f"spread {100 * r['critical_spread']:.1f}%, warning: {bool(r['too_wide'])}")
    x = centred_differences(args.csv, n, args.results)
    df = float(r["df"])
    func = get_test("corrected_repeated_cv").func
    base = func(x, df)
    se = float(np.sqrt(np.mean(np.asarray(base._stderr) ** 2)))  # the data sets' RMS SE
    print(f"Type I error at df {df:.2f}: {np.mean(base.pvalue <= 0.05):.3f}")
    for power in (0.5, 0.8, 0.9):
        delta = detectable_difference(se, df, 0.05, power=power)
        rate = float(np.mean(func(x + delta, df).pvalue <= 0.05))
        mc = np.sqrt(power * (1 - power) / x.shape[0])
        print(f"power {power:.1f}: delta {100 * delta:.2f} points; rejection rate on the "
              f"shifted null {rate:.3f} (MC SE {mc:.3f}; {(rate - power) / mc:+.1f} SE)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
