"""Coverage of calibrated-df intervals against independent replicate samples (issue 13).

The df_table study's 10,000 null data sets (each with its own SeedSequence, so any two
disjoint subsets are independent samples) are cut into R replicate samples of 1000. For
each replicate, test and alpha this computes

* the continuous calibrated df with its 95% distribution-free interval (order statistics,
  :func:`calibsim.calibration.continuous_calibration`), and
* the paper's integer df with the bootstrap percentile interval the engine reported before
  (200 resamples of the data sets),

and checks whether each interval covers the reference: the continuous df of the other
9000 data sets (independent of the replicate). It also prints the interval of all 10,000.

    calibsim run studies/df_table.toml              # the scores (about 7 min on 2 cores)
    python scripts/df_interval_coverage.py          # -> figures/bouckaert2003/df_interval_coverage.csv/.md
"""

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--study", type=Path, default=ROOT / "studies" / "df_table.toml")
    ap.add_argument("--replicates", type=int, default=10)
    ap.add_argument("--size", type=int, default=1000)
    # corrected_repeated_cv is left out by default: its df lies beyond the integer grid
    # (2..100) and its continuous interval is often unbounded above.
    ap.add_argument("--tests", nargs="+", default=["use_all_data", "runs_averaged_var",
                                                   "folds_averaged_var", "sorted_runs"])
    ap.add_argument("--alphas", nargs="+", type=float, default=[0.01, 0.05, 0.10])
    ap.add_argument("--out", type=Path, default=ROOT / "figures" / "bouckaert2003" / "df_interval_coverage")
    args = ap.parse_args(argv)

    from calibsim.calibration import continuous_calibration
    from calibsim.engine import load_study
    from calibsim.engine.analyses import _bootstrap_df, test_callable, test_data
    from calibsim.engine.run import load_scores
    from calibsim.calibration import calibrate

    study = load_study(args.study)
    scores = load_scores(study)
    source = study.sources[0].label
    pair = study.pairs[0]
    rng = np.random.default_rng(np.random.SeedSequence(20261123, spawn_key=(7,)))
    dfs = np.arange(2, 101)
    rows = []
    for test in args.tests:
        func = test_callable(test, study, study.sources[0], "cv10")
        x_all = test_data(scores, source, "cv10", test, pair, 10)
        if len(x_all) < args.replicates * args.size:
            raise SystemExit(f"need {args.replicates * args.size} data sets; have {len(x_all)}")
        for alpha in args.alphas:
            whole = continuous_calibration(func, x_all, alpha)
            for i in range(args.replicates):
                idx = np.arange(i * args.size, (i + 1) * args.size)
                rest = np.setdiff1d(np.arange(len(x_all)), idx)
                ref = continuous_calibration(func, x_all[rest], alpha).df
                rep = continuous_calibration(func, x_all[idx], alpha)
                integer = int(calibrate(func, x_all[idx], alphas=[alpha],
                                        dfs=dfs).calibrated_df[0])
                _, lo, hi = _bootstrap_df(func, x_all[idx], dfs, [alpha], 200, rng)[0]
                rows.append({"test": test, "alpha": alpha, "replicate": i,
                             "df_continuous": rep.df, "df_ci_low": rep.ci_low,
                             "df_ci_high": rep.ci_high, "calibrated_df": integer,
                             "df_boot_low": lo, "df_boot_high": hi, "reference_df": ref,
                             "covered_exact": rep.ci_low <= ref <= rep.ci_high,
                             "covered_bootstrap": lo <= ref <= hi,
                             "df_all": whole.df, "df_all_low": whole.ci_low,
                             "df_all_high": whole.ci_high})
    table = pd.DataFrame(rows)
    table["exact_half_width"] = (table.df_ci_high - table.df_ci_low) / 2
    table["boot_half_width"] = (table.df_boot_high - table.df_boot_low) / 2
    summary = table.groupby(["test", "alpha"]).agg(
        replicates=("replicate", "size"), df_all=("df_all", "first"),
        df_all_low=("df_all_low", "first"), df_all_high=("df_all_high", "first"),
        replicate_df_sd=("df_continuous", "std"),
        exact_half_width=("exact_half_width", "mean"),
        covered_exact=("covered_exact", "sum"),
        integer_df_min=("calibrated_df", "min"), integer_df_max=("calibrated_df", "max"),
        boot_half_width=("boot_half_width", "mean"),
        covered_bootstrap=("covered_bootstrap", "sum"),
    ).reset_index()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(f"{args.out}_replicates.csv", index=False)
    summary.to_csv(f"{args.out}.csv", index=False)
    md = summary.to_markdown(index=False, floatfmt=".3g")
    Path(f"{args.out}.md").write_text(
        f"# Coverage of calibrated-df intervals, {args.replicates} replicate samples of "
        f"{args.size} null data sets (10 x 10 cv)\n\n"
        "Reference for each replicate: the continuous df of the other data sets "
        "(independent of it). `covered_exact`: replicates whose 95% order-statistic "
        "interval contains it; `covered_bootstrap`: the same for the bootstrap percentile "
        "interval of the integer df (the engine's `df_boot_low/high`), which also carries "
        "the integer rule's rounding. `df_all*`: all data sets.\n\n" + md + "\n",
        encoding="utf-8")
    print(md)


if __name__ == "__main__":
    main()
