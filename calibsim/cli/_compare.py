"""``calibsim compare`` and ``calibsim calibrate --like``: the user's learners on the user's data."""

from __future__ import annotations

import time
from pathlib import Path

from ._args import output_file

__all__ = ["add_compare_parser", "cmd_compare", "cmd_calibrate_like", "load_data"]

_DATA_HELP = ("a shipped UCI data set (e.g. vote), an ARFF or CSV file (class = last column "
              "unless --class-attribute), or a scikit-learn loader (sklearn:load_breast_cancer)")
_LEARNER_HELP = ("a built-in learner (naive_bayes, c45, ib1, tan, voted_perceptron) or "
                 "'module.Class(param=value, ...)', e.g. "
                 "'sklearn.ensemble.RandomForestClassifier(n_estimators=100, random_state=0)'")


def load_data(text: str, class_attribute=None):
    """A :class:`calibsim.datasets.Dataset` from a name, an ARFF/CSV path or a loader."""
    from ..comparison._calibrate_like import data_source
    from ..datasets import load_csv
    from ..sources import DatasetSource
    if Path(text).suffix.lower() == ".csv":
        return load_csv(text, class_attribute=class_attribute)
    kw = data_source(text)
    if class_attribute is not None:
        kw["class_attribute"] = class_attribute
    return DatasetSource(**kw).dataset


def add_compare_parser(sub, int_type, alpha_type):
    """Register ``calibsim compare``."""
    p = sub.add_parser(
        "compare", help="which of my learners is better? two or more learners on one data "
        "set with a calibrated test",
        description="Run a resampling design on one data set and compare the learners with "
        "a test at its calibrated df (the shipped table, calibsim df); with more than two "
        "learners, every pair with a multiple-comparison correction.")
    p.add_argument("--data", required=True, action="append",
                   help=_DATA_HELP + "; repeat it for several data sets (then Friedman, "
                   "post-hoc tests and the Multi2Test order, as calibsim rank)")
    p.add_argument("--class-attribute", default=None, help="class column (default: the last)")
    p.add_argument("--a", dest="learners", action="append", help=_LEARNER_HELP)
    p.add_argument("--b", dest="learners", action="append", help="the second learner")
    p.add_argument("--learner", dest="learners", action="append",
                   help="a further learner (repeatable; all pairs are compared)")
    p.add_argument("--design", default=None,
                   help="'RxK' r runs of stratified k-fold cv, '5x2cv' or 'subsampling:N' "
                        "(default 10x10 on one data set, 5x2cv over several)")
    p.add_argument("--test", default=None, help="test name (default: corrected repeated cv "
                   "t for cv, corrected resampled t for subsampling, 5x2cv t)")
    p.add_argument("--alpha", type=alpha_type, default=0.05,
                   help="significance level α in (0, 1) (default 0.05)")
    p.add_argument("--df", default="calibrated",
                   help="'calibrated' (shipped table; default), 'textbook' or a number")
    p.add_argument("--method", choices=("frequentist", "bayes"), default="frequentist",
                   help="'bayes': also the correlated Bayesian t test (Corani & Benavoli "
                        "2015) on the same folds; the verdict is its decision (two learners)")
    p.add_argument("--rope", type=float, default=0.0,
                   help="with --method bayes: half-width of the region of practical "
                        "equivalence in accuracy units, e.g. 0.01 = 1 point (default 0)")
    p.add_argument("--threshold", type=float, default=0.95,
                   help="with --method bayes: posterior probability needed for a decision "
                        "(default 0.95)")
    p.add_argument("--replicability", choices=("bootstrap", "rerun", "none"),
                   default="bootstrap", help="how to estimate the verdict's replicability "
                   "(two learners only; default bootstrap of the runs)")
    p.add_argument("--repeats", type=int_type(2), default=10,
                   help="repeats for --replicability rerun (default 10)")
    p.add_argument("--correction", default="holm",
                   help="multiple-comparison correction for > 2 learners (default holm)")
    p.add_argument("--seed", type=int_type(0), default=0, help="seed of the partitions")
    p.add_argument("--workers", type=int_type(0), default=None,
                   help="local Dask workers (default: fit in this process)")
    p.add_argument("--scheduler", default=None, help="address of a running Dask scheduler")
    p.add_argument("--scores", type=output_file, default=None,
                   help="write the per-fold accuracies (two learners) or the pairs table here (CSV)")
    p.add_argument("--posthoc", default="bergmann_hommel",
                   choices=("bergmann_hommel", "shaffer", "holm", "nemenyi"),
                   help="post-hoc procedure over several data sets (default bergmann_hommel)")
    p.add_argument("--cd-diagram", type=output_file, default=None,
                   help="with several data sets: write the critical-difference diagram here")
    p.add_argument("--no-progress", action="store_true", help="do not show a progress bar")
    return p


def _df_arg(text):
    if text in ("calibrated", "textbook"):
        return text
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"`--df` must be 'calibrated', 'textbook' or a number; got {text!r}.") \
            from None


def cmd_compare(args) -> int:
    from ..comparison import compare, compare_all
    if args.test is not None and not args.test.strip():
        raise ValueError("`--test` must name a test (calibsim list tests); got an empty "
                         "string (leave the flag out for the design's default).")
    if args.design is not None and not args.design.strip():
        raise ValueError("`--design` must be 'RxK', '5x2cv' or 'subsampling:N'; got an empty "
                         "string (leave the flag out for the default).")
    learners = args.learners or []
    if len(learners) < 2:
        raise ValueError(f"give at least two learners (--a and --b); got {len(learners)}.")
    from statsmodels.stats.multitest import multipletests
    try:                                      # checked even when two learners need none
        multipletests([0.5], method=args.correction)
    except ValueError:
        raise ValueError(f"`--correction` must be a method of statsmodels' multipletests "
                         f"(holm, bonferroni, fdr_bh, ...); got {args.correction!r}.") from None
    if args.cd_diagram is not None and len(args.data) < 2:
        raise ValueError("`--cd-diagram` needs two or more data sets (repeat --data): a "
                         "critical-difference diagram ranks learners over data sets.")
    t0 = time.perf_counter()
    if len(args.data) > 1:
        return _over_datasets(args, learners, t0)
    ds = load_data(args.data[0], args.class_attribute)
    common = dict(design=args.design or "10x10", test=args.test, alpha=args.alpha, df=_df_arg(args.df),
                  n_jobs=args.workers, scheduler=args.scheduler, random_state=args.seed,
                  progress=not args.no_progress)
    print(f"data: {ds!r}")
    if len(learners) == 2:
        rep = None if args.replicability == "none" else args.replicability
        res = compare(learners[0], learners[1], ds, replicability=rep,
                      n_repeats=args.repeats, method=args.method, rope=args.rope,
                      threshold=args.threshold, **common)
        print(res)
        table = res.scores
    else:
        table = compare_all(learners, ds, correction=args.correction, **common)
        print(table.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
    if args.scores is not None:
        table.to_csv(args.scores, index=False)
        print(f"wrote {args.scores}")
    print(f"{time.perf_counter() - t0:.1f} s")
    return 0


def _over_datasets(args, learners, t0) -> int:
    from ..comparison import accuracy_table
    from ..comparison._datasets import rank_accuracies
    sets = {text: load_data(text, args.class_attribute) for text in args.data}
    design = args.design or "5x2cv"
    table = accuracy_table(learners, sets, design=design, random_state=args.seed,
                           n_jobs=args.workers, scheduler=args.scheduler,
                           progress=not args.no_progress)
    res = rank_accuracies(table, design=design, posthoc=args.posthoc, alpha=args.alpha)
    order = ", ".join(dict.fromkeys(table["learner"]))
    print(f"design {design} on each of {table['dataset'].nunique()} data sets; Multi²Test "
          f"breaks ties by the learners' order as given (--a, --b, --learner), cheapest "
          f"first: {order}")
    print(res)
    if args.scores is not None:
        table.to_csv(args.scores, index=False)
        print(f"wrote {args.scores} (per-fold accuracies; rank it again with calibsim rank "
              f"--scores {args.scores})")
    if args.cd_diagram is not None:
        res.plot_cd_diagram().figure.savefig(args.cd_diagram, dpi=150)
        print(f"wrote {args.cd_diagram}")
    print(f"{time.perf_counter() - t0:.1f} s")
    return 0


def cmd_calibrate_like(args, progress) -> int:
    from ..comparison._calibrate_like import calibrate_like
    from ..calibration import lookup_df
    learners = args.learner or ["naive_bayes", "c45"]
    design = (f"subsampling:{args.runs}" if args.test in ("resampling", "corrected_resampling")
              else "5x2cv" if args.test.startswith("cv5x2") else f"{args.runs}x{args.folds}")

    def estimate(per, total):
        print(f"one null data set took {per:.2f} s here; {args.n_datasets} data sets: about "
              f"{total / 60:.1f} min", flush=True)

    t0 = time.perf_counter()
    with progress:
        table = calibrate_like(args.like, learners, design=design, test=args.test,
                               alphas=args.alpha or [0.05], n_datasets=args.n_datasets,
                               seed=args.seed, results=args.results, n_jobs=args.workers,
                               scheduler=args.scheduler, progress=progress,
                               on_estimate=estimate)
    cols = ["label", "pair_a", "pair_b", "n_runs", "n_folds", "alpha", "default_df",
            "type1_default", "calibrated_df", "df_continuous", "df_ci_low", "df_ci_high",
            "type1_error", "n_datasets"]
    def _num(v):
        return "∞" if v == float("inf") else f"{v:.4g}"
    print(table[cols].to_string(index=False, float_format=_num))
    print("df_continuous: the df at which the Type I error reaches alpha on these null data "
          "sets (∞ = the normal limit: the test never exceeds alpha), with its 95% interval; "
          "calibrated_df: the integer df of Bouckaert's rule.")
    for _, row in table.iterrows():
        try:
            e = lookup_df(args.test, alpha=float(row["alpha"]), n_folds=int(row["n_folds"]),
                          n_runs=int(row["n_runs"]))
            print(f"shipped table (naive Bayes vs C4.5, 300-instance binary null data), alpha "
                  f"= {row['alpha']:g}: df {_num(e.df)} [{_num(e.ci_low)}, {_num(e.ci_high)}]"
                  + (" (∞: the normal limit)" if e.df == float("inf") else ""))
        except ValueError:
            pass
    print(f"{time.perf_counter() - t0:.1f} s")
    return 0
