"""Type I error of the resampled t and the corrected resampled t on Nadeau & Bengio's
(2003) regression null, measured with calibsim.compare(scoring="neg_mean_squared_error").

The null: X ~ N(10, 1), Y | X ~ N(100 + b X, 97) with b chosen so that the sample mean
(DummyRegressor) and least squares (LinearRegression) have exactly equal expected squared
error at training size n1 (:class:`calibsim.sources.NadeauBengioRegressionSource`). Each
data set of n instances is compared with ``J`` random subsamples that train on n1 = n/2
(test share 1/2), and both tests are run on the same per-split differences of the
(negated) mean squared error: the resampled t at df = J - 1, and Nadeau & Bengio's
corrected resampled t with n2/n1 = 1 at df = J - 1. A data set's seed is child i of
``SeedSequence(seed)``; its partitions are child i of ``SeedSequence(seed + 1)``.

Usage::

    python scripts/nadeau_bengio_null.py --n-datasets 1000 --n-instances 200 --subsamples 15

It prints, per test, the rejection rate at each α with its Monte Carlo standard error
sqrt(p (1 - p) / N). This is a measurement, not a test: nothing is asserted.
"""
from __future__ import annotations

import argparse
import time

import numpy as np


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n-datasets", type=int, default=1000)
    ap.add_argument("--n-instances", type=int, default=200)
    ap.add_argument("--subsamples", type=int, default=15, help="J, random 50/50 subsamples")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    from sklearn.dummy import DummyRegressor
    from sklearn.linear_model import LinearRegression

    from calibsim import compare
    from calibsim.sources import NadeauBengioRegressionSource
    from calibsim.stats import corrected_resampled_ttest, resampled_ttest

    n = args.n_instances
    n1 = n - int(np.ceil(n * 0.5))
    src = NadeauBengioRegressionSource(n_instances=n, n_train=n1)
    data_seeds = np.random.SeedSequence(args.seed).spawn(args.n_datasets)
    split_seeds = np.random.SeedSequence(args.seed + 1).spawn(args.n_datasets)
    alphas = (0.01, 0.05, 0.10)
    p = {"resampling": [], "corrected_resampling": []}
    mean_diff = []
    t0 = time.perf_counter()
    for ds, ss in zip(data_seeds, split_seeds):
        X, y = src.sample(rng=np.random.default_rng(ds))
        res = compare(DummyRegressor(), LinearRegression(), X, y,
                      design=f"subsampling:{args.subsamples}@0.5", test="resampling",
                      df="textbook", replicability=None, progress=False, random_state=ss)
        d = res.scores["difference"].to_numpy()
        mean_diff.append(d.mean())
        p["resampling"].append(float(resampled_ttest(d).pvalue))
        p["corrected_resampling"].append(float(corrected_resampled_ttest(
            d, test_train_ratio=1.0).pvalue))
    seconds = time.perf_counter() - t0
    N = args.n_datasets
    md = np.asarray(mean_diff)
    print(f"Nadeau & Bengio regression null: n = {n}, n1 = {n1}, slope b = {src.slope:.6g}, "
          f"expected MSE of both learners {src.expected_errors()[0]:.6g}; {N} data sets, "
          f"J = {args.subsamples} subsamples of test share 1/2; {seconds:.0f} s")
    print(f"mean difference of the scores (mean - least squares, negated MSE): "
          f"{md.mean():+.4f} (SE {md.std(ddof=1) / np.sqrt(N):.4f}; 0 under the null)")
    for name, ps in p.items():
        ps = np.asarray(ps)
        cells = []
        for a in alphas:
            r = float(np.mean(ps <= a))
            cells.append(f"alpha {a:g}: {100 * r:.1f}% (SE {100 * np.sqrt(r * (1 - r) / N):.1f})")
        print(f"{name:>22}: " + "; ".join(cells))


if __name__ == "__main__":
    main()
