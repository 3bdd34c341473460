"""Build calibsim's shipped calibrated-df table from the df_table study's analysis tables.

Usage:
    calibsim run studies/df_table.toml          # 10,000 null data sets (a few minutes)
    python scripts/make_df_table.py             # -> calibsim/data/df/df_table.csv

The CSV starts with comment lines naming its provenance (study file, seed, number of
data sets, calibsim commit, date); `calibsim.calibration.df_table()` reads it.
"""

import argparse
import datetime
import subprocess
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
COLUMNS = ["test", "label", "design", "n_folds", "n_runs", "alpha", "calibrated_df",
           "df_continuous", "df_ci_low", "df_ci_high", "df_ci_coverage", "type1_error",
           "default_df", "type1_default", "n_datasets"]


def git_commit():
    """The short hash of the checkout's HEAD, "unknown" outside git (for the provenance lines)."""
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                          capture_output=True, text=True).stdout.strip() or "unknown"


def write_table(out, header, table):
    """Write the provenance comment lines, then ``table`` as CSV (6 significant digits)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8") as fh:
        fh.write("\n".join(header) + "\n")
        table.to_csv(fh, index=False, float_format="%.6g")
    print(f"wrote {out} ({len(table)} rows)")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--study", type=Path, default=ROOT / "studies" / "df_table.toml")
    ap.add_argument("--out", type=Path, default=ROOT / "calibsim" / "data" / "df" / "df_table.csv")
    args = ap.parse_args(argv)
    from calibsim.engine import load_study
    study = load_study(args.study)
    frames = []
    for a in study.analyses:
        t = pd.read_csv(study.figures / f"{study.name}_{a.name}.csv", keep_default_na=False,
                        na_values=[""])
        t["design"] = "subsampling" if a.name == "subsampling" else "cv"
        frames.append(t)
    table = pd.concat(frames, ignore_index=True)[COLUMNS]
    table = table.sort_values(["test", "design", "n_folds", "n_runs", "alpha"], kind="stable")
    commit = git_commit()
    src = study.sources[0]
    header = [
        "# Calibrated df of the tests that calibrate (Bouckaert 2003), made by",
        f"# scripts/make_df_table.py from `calibsim run studies/{args.study.name}`:",
        f"# {src.n_datasets} null data sets of {dict(src.params)['n_instances']} instances x "
        f"{dict(src.params)['n_attributes']} binary attributes, naive Bayes vs C4.5 (Weka 3.6 equivalents),",
        f"# stratified r x k cv and 90/10 subsampling; seed {src.seed}; calibsim commit {commit}; "
        f"{datetime.date.today().isoformat()}.",
        "# calibrated_df: the paper's integer rule on df 2..100 (0: none keeps Type I error <= alpha);",
        "# df_continuous: threshold order statistic; df_ci_low/high: 95% distribution-free interval",
        "# (df_ci_coverage its exact coverage); type1_error at calibrated_df; default_df the textbook df.",
        "# design 'subsampling': n_runs = number n of random 90/10 splits, n_folds 0.",
    ]
    write_table(args.out, header, table)


if __name__ == "__main__":
    main()
