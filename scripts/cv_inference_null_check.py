"""Type I error of the tests on per-instance outcomes on Bouckaert's null (issue 43, reduced).

A reduced check, not the issue's validation study: naive Bayes vs C4.5 on Bouckaert's
(2003) null data (attributes independent of the class, prior 0.5, so both learners are
equally good), N data sets of n instances, at α = 0.05, through the engine (one study file,
written to a temporary folder): Bayle et al.'s cv CLT test (the first run of 10 x 10 cv),
Bates et al.'s NCV (R repetitions of nested 5-fold cv), and, for reference on the same
folds, the k-fold cv t test and the corrected repeated cv t (textbook df).

    python scripts/cv_inference_null_check.py --n 100 --datasets 200    # about 30 s
    python scripts/cv_inference_null_check.py --n 300 --datasets 400    # about 70 s
"""

import argparse
import tempfile
import time
from pathlib import Path

STUDY = """
[study]
name = "cv_inference_null_check"
seed = {seed}
block_size = 25

[sources.null]
kind = "null"
n_instances = {n}
n_datasets = {datasets}

[learners]
names = ["naive_bayes", "c45"]

[schemes.cv]
kind = "repeated_kfold"
n_folds = 10
n_runs = 10
correctness = true

[schemes.ncv]
kind = "nested"
n_folds = 5
n_runs = {reps}
correctness = true

[[analysis]]
kind = "rejection_rate"
tests = ["bayle_cv_clt", "ncv", "kfold_cv", "corrected_repeated_cv"]
alphas = [0.05]

[outputs]
results = "results"
"""


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100, help="instances per data set")
    ap.add_argument("--datasets", type=int, default=200, help="null data sets N")
    ap.add_argument("--reps", type=int, default=10, help="NCV repetitions R")
    ap.add_argument("--seed", type=int, default=43)
    args = ap.parse_args(argv)
    from calibsim.engine import compute_scores, load_study, run_analyses
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "study.toml"
        path.write_text(STUDY.format(seed=args.seed, n=args.n, datasets=args.datasets,
                                     reps=args.reps), encoding="utf-8")
        study = load_study(path)
        table = run_analyses(study, compute_scores(study))["rejection_rate"]
    cols = ["test", "scheme", "n_runs", "alpha", "df", "rate", "mc_se", "ci_low", "ci_high",
            "n"]
    print(table[cols].to_string(index=False))
    print(f"{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
