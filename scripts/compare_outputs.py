"""Compare a study's new tidy CSV with a committed one: same keys, largest differences.

Usage: python scripts/compare_outputs.py OLD.csv NEW.csv --keys test,n_runs,alpha
       [--rename old=new ...] [--map column:old=new ...]

Prints the rows only one side has and, for every numeric column both have, the largest
absolute difference after joining on the keys. Used to check that the ported studies
give the same numbers as the committed outputs of the old drivers.
"""

import argparse

import numpy as np
import pandas as pd


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("old")
    p.add_argument("new")
    p.add_argument("--keys", required=True)
    p.add_argument("--rename", nargs="*", default=[], help="old column=new column")
    p.add_argument("--map", nargs="*", default=[], help="column:old value=new value")
    a = p.parse_args(argv)
    old, new = pd.read_csv(a.old), pd.read_csv(a.new)
    old = old.rename(columns=dict(r.split("=") for r in a.rename))
    for m in a.map:
        col, pair = m.split(":", 1)
        o, n = pair.split("=")
        old[col] = old[col].replace(o, n)
    keys = a.keys.split(",")
    both = old.merge(new, on=keys, how="outer", suffixes=("_old", "_new"), indicator=True)
    only = both[both["_merge"] != "both"]
    print(f"rows: old {len(old)}, new {len(new)}, joined {int((both['_merge'] == 'both').sum())}, "
          f"only one side {len(only)}")
    if len(only):
        print(only[keys + ["_merge"]].head(10).to_string(index=False))
    both = both[both["_merge"] == "both"]
    worst = 0.0
    for col in old.columns:
        if col in keys or f"{col}_new" not in both:
            continue
        x, y = both[f"{col}_old"], both[f"{col}_new"]
        if pd.api.types.is_numeric_dtype(x) and pd.api.types.is_numeric_dtype(y):
            d = np.nanmax(np.abs(x.to_numpy(float) - y.to_numpy(float))) if len(x) else 0.0
            nan_mismatch = int((x.isna() != y.isna()).sum())
            worst = max(worst, d if np.isfinite(d) else 0.0)
            print(f"  {col:24s} max |old - new| = {d:.3g}" + (
                f"  ({nan_mismatch} NaN mismatches)" if nan_mismatch else ""))
        else:
            diff = int((x.astype(str) != y.astype(str)).sum())
            print(f"  {col:24s} {diff} differing values")
    print(f"largest numeric difference: {worst:.3g}")


if __name__ == "__main__":
    main()
