"""Build calibsim's shipped calibrated-rho table from the rho_table study's analysis tables.

Usage:
    calibsim run studies/rho_table.toml          # the df table's 10,000 null data sets
    python scripts/make_rho_table.py             # -> calibsim/data/rho/rho_table.csv

The CSV starts with comment lines naming its provenance (study file, seed, number of
data sets, calibsim commit, date); `calibsim.calibration.rho_table()` reads it.
"""

import argparse
import datetime
from pathlib import Path

import pandas as pd

from make_df_table import git_commit, write_table  # scripts/ is on sys.path when run

ROOT = Path(__file__).resolve().parents[1]
COLUMNS = ["n_folds", "n_runs", "threshold", "rope", "rho", "rho_ci_low", "rho_ci_high",
           "coverage", "rho_default", "decision_rate_default", "decision_rate_calibrated",
           "mc_se", "n_calibration", "n_check", "accuracy_a", "accuracy_b",
           "null_difference", "null_difference_se"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--study", type=Path, default=ROOT / "studies" / "rho_table.toml")
    ap.add_argument("--out", type=Path,
                    default=ROOT / "calibsim" / "data" / "rho" / "rho_table.csv")
    args = ap.parse_args(argv)
    from calibsim.engine import load_study
    study = load_study(args.study)
    frames = [pd.read_csv(study.figures / f"{study.name}_{a.name}.csv") for a in study.analyses]
    table = pd.concat(frames, ignore_index=True)[COLUMNS]
    table = table.sort_values(["n_folds", "n_runs", "threshold", "rope"], kind="stable")
    commit = git_commit()
    src = study.sources[0]
    p = dict(src.params)
    header = [
        "# Calibrated rho of the correlated Bayesian t test (Corani & Benavoli 2015), made by",
        f"# scripts/make_rho_table.py from `calibsim run studies/{args.study.name}`:",
        f"# {src.n_datasets} null data sets of {p['n_instances']} instances x "
        f"{p['n_attributes']} binary attributes (the df table's), naive Bayes vs C4.5 "
        "(Weka 3.6 equivalents),",
        f"# stratified r x k cv; seed {src.seed}; calibsim commit {commit}; "
        f"{datetime.date.today().isoformat()}.",
        "# rho: calibrated on the first n_calibration data sets (the rho above which the test "
        "decides on at most",
        "# 1 - threshold of them); rho_ci_low/high: 95% distribution-free interval (coverage "
        "its exact coverage);",
        "# decision_rate_default / _calibrated: share of the other n_check data sets with a "
        "decision at rho = 1/k",
        "# and at the calibrated rho (mc_se: the Monte Carlo SE of a rate of 1 - threshold); "
        "accuracy_a/b and",
        "# null_difference: naive Bayes's and C4.5's mean null accuracy and their mean "
        "difference (a check of the null).",
    ]
    write_table(args.out, header, table)


if __name__ == "__main__":
    main()
