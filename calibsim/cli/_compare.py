"""``calibsim compare`` and ``calibsim calibrate --like``: the user's learners on the user's data."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from ._args import add_report, command_line, output_file

__all__ = ["add_compare_parser", "cmd_compare", "cmd_calibrate_like", "load_data"]

_DATA_HELP = ("a shipped UCI data set (e.g. vote) or regression set (cpu, servo, auto-mpg), "
              "an ARFF or CSV file (class = last column unless --class-attribute), or a "
              "scikit-learn loader (sklearn:load_breast_cancer; sklearn:load_diabetes, a "
              "numeric target)")
#: the scorer names of :data:`calibsim.metrics.METRICS`, by task (written out so that the
#: parser is built without importing the metrics; tests/test_cli_scoring.py checks them)
_CLASSIFICATION_SCORERS = ("accuracy", "balanced_accuracy", "roc_auc", "roc_auc_ovr",
                           "average_precision", "f1", "f1_macro", "matthews_corrcoef",
                           "neg_log_loss", "neg_brier_score")
_REGRESSION_SCORERS = ("neg_mean_squared_error", "neg_mean_absolute_error", "r2")
_SCORING_HELP = ("the metric the learners are compared on, a scikit-learn scorer name: for "
                 "classes " + ", ".join(_CLASSIFICATION_SCORERS) + " (default accuracy); "
                 "for a numeric target (regressors, e.g. 'sklearn.linear_model.Ridge("
                 "alpha=1.0)') " + ", ".join(_REGRESSION_SCORERS) + " (default "
                 "neg_mean_squared_error). As scikit-learn's scorers, greater is better: "
                 "losses are negated (neg_log_loss, not log_loss). A metric other than "
                 "accuracy is tested at its own calibrated df where the shipped table has "
                 "one, else at accuracy's, and the output says which (see calibsim.compare; "
                 "two learners on one data set)")
_LEARNER_HELP = ("a built-in learner (naive_bayes, c45, ib1, tan, voted_perceptron) or "
                 "'module.Class(param=value, ...)', e.g. "
                 "'sklearn.ensemble.RandomForestClassifier(n_estimators=100, random_state=0)'")


def load_data(text: str, class_attribute=None, class_nominal=False):
    """A :class:`calibsim.datasets.Dataset` from a name, an ARFF/CSV path or a loader."""
    from ..comparison._calibrate_like import data_source
    from ..datasets import load_csv
    from ..datasets import REGRESSION_DATASETS
    from ..sources import DatasetSource
    if Path(text).suffix.lower() == ".csv":
        return load_csv(text, class_attribute=class_attribute, class_nominal=class_nominal)
    kw = {"name": text} if text in REGRESSION_DATASETS else data_source(text)
    if class_attribute is not None:
        kw["class_attribute"] = class_attribute
    if class_nominal:
        kw["class_nominal"] = True
    return DatasetSource(**kw).dataset


def add_compare_parser(sub, int_type, alpha_type):
    """Register ``calibsim compare``."""
    p = sub.add_parser(
        "compare", help="which of my learners is better? two or more learners on one data "
        "set with a calibrated test",
        description="Run a resampling design on one data set and compare the learners with "
        "a test at its calibrated df (the shipped table, calibsim df); with more than two "
        "learners, every pair with a multiple-comparison correction.")
    _add_compare_data_arguments(p)
    _add_compare_learner_arguments(p)
    _add_compare_test_arguments(p, alpha_type)
    _add_compare_verdict_arguments(p, int_type)
    _add_compare_execution_arguments(p, int_type)
    _add_compare_output_arguments(p)
    return p


def _add_compare_data_arguments(p):
    """``calibsim compare``'s data: data sets to fit on, or per-fold scores already had."""
    p.add_argument("--data", action="append",
                   help=_DATA_HELP + "; repeat it for several data sets (then Friedman, "
                   "post-hoc tests and the Multi2Test order, as calibsim rank)")
    p.add_argument("--scores-in", type=_input_csv, default=None, metavar="FILE.csv",
                   help="instead of --data and fitting: per-fold results you already have, "
                        "a CSV with columns run, fold, learner and score (or accuracy), as "
                        "--scores writes them (run, fold, accuracy_a, accuracy_b) or as "
                        "Weka's Experimenter saves them (Key_Run, Key_Fold, Key_Scheme, "
                        "Percent_correct); --a and --b pick two learners of several; "
                        "--design says r x k if the runs and folds do not (see "
                        "calibsim.compare_scores)")
    p.add_argument("--metric", default="accuracy",
                   help="with --scores-in: what the scores measure (default accuracy, as a "
                        "fraction in [0, 1] or a percentage in [0, 100], recognised and said; "
                        "other values are refused); another name (e.g. auc) is tested as "
                        "given, with a note that the df were calibrated on accuracy")
    p.add_argument("--scoring", default=None, metavar="NAME", help=_SCORING_HELP)
    p.add_argument("--class-attribute", default=None, help="class column (default: the last)")
    p.add_argument("--class-nominal", action="store_true",
                   help="the class column's numbers are class labels (else a numeric class "
                        "with a non-integer value or more than 30 distinct values is refused "
                        "as a regression target)")


def _add_compare_learner_arguments(p):
    """``calibsim compare``'s learners: ``--a``, ``--b`` and further ``--learner``."""
    p.add_argument("--a", dest="learners", action="append", help=_LEARNER_HELP)
    p.add_argument("--b", dest="learners", action="append", help="the second learner")
    p.add_argument("--learner", dest="learners", action="append",
                   help="a further learner (repeatable; all pairs are compared)")


def _add_compare_test_arguments(p, alpha_type):
    """``calibsim compare``'s design, test, level and df, and the Bayesian test's options."""
    p.add_argument("--design", default=None,
                   help="'RxK' r runs of stratified k-fold cv, '5x2cv', 'subsampling:N', "
                        "'holdout', 'ncv:RxK' (R repetitions of nested K-fold cv, for "
                        "--test ncv) or 'bootcv:BxC' (B bootstrap samples of C splits, for "
                        "--test bootstrap_cv; 'bootcv:50x10@0.5' for a test share of 0.5, "
                        "default 1/3) (default 10x10 on one data set, 5x2cv over several)")
    p.add_argument("--test", default=None, help="test name, as `calibsim list tests` lists "
                   "them (default: corrected repeated cv t for cv, corrected resampled t for "
                   "subsampling, 5x2cv t, McNemar for holdout, ncv for ncv:RxK, "
                   "bootstrap_cv for bootcv:BxC); "
                   "'bayle_cv_clt' (Bayle et al. 2020) and 'ncv' (Bates et al. 2023) test "
                   "each instance's outcome, 'bootstrap_cv' (Cai et al. 2023) fits on "
                   "bootstrap samples")
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
    p.add_argument("--rho", default="calibrated",
                   help="with --method bayes: 'calibrated' (the shipped rho table where it "
                        "covers the design, threshold and ROPE; default), 'heuristic' "
                        "(1/k) or a number in (0, 1)")


def _add_compare_verdict_arguments(p, int_type):
    """``calibsim compare``'s checks of the verdict: replicability, multiple comparisons."""
    p.add_argument("--replicability", choices=("bootstrap", "rerun", "none"),
                   default="bootstrap", help="how to estimate the verdict's replicability "
                   "(two learners only; default bootstrap of the runs)")
    p.add_argument("--repeats", type=int_type(2), default=10,
                   help="repeats for --replicability rerun (default 10)")
    p.add_argument("--correction", default="holm",
                   help="multiple-comparison correction for > 2 learners (default holm)")


def _add_compare_execution_arguments(p, int_type):
    """``calibsim compare``'s seed and where the learners are fitted."""
    p.add_argument("--seed", type=int_type(0), default=0, help="seed of the partitions")
    p.add_argument("--workers", type=int_type(0), default=None,
                   help="local worker processes fitting in parallel (a loky pool, as "
                        "scikit-learn's n_jobs; default: fit in this process)")
    p.add_argument("--scheduler", default=None, help="address of a running Dask scheduler")


def _add_compare_output_arguments(p):
    """``calibsim compare``'s outputs: scores, post-hoc and CD diagram, report, progress."""
    p.add_argument("--scores", type=output_file, default=None,
                   help="write the per-fold accuracies (two learners) or the pairs table here (CSV)")
    p.add_argument("--posthoc", default="bergmann_hommel",
                   choices=("bergmann_hommel", "shaffer", "holm", "nemenyi"),
                   help="post-hoc procedure over several data sets (default bergmann_hommel)")
    p.add_argument("--cd-diagram", type=output_file, default=None,
                   help="with several data sets: write the critical-difference diagram here")
    add_report(p, "the question, data and design, the test and where its df comes from, "
                  "accuracies with intervals, effect sizes with their magnitude")
    p.add_argument("--no-progress", action="store_true", help="do not show a progress bar")
    from ._args import add_verbose
    add_verbose(p)


def _input_csv(text):
    from ._args import input_file
    path = input_file(text)
    if path.is_dir():
        import argparse
        raise argparse.ArgumentTypeError(f"must be a CSV file, not a folder; got {text!r}")
    return path


def _df_arg(text):
    if text in ("calibrated", "textbook"):
        return text
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"`--df` must be 'calibrated', 'textbook' or a number; got {text!r}.") \
            from None


def _rho_arg(text):
    if text in ("calibrated", "heuristic"):
        return text
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"`--rho` must be 'calibrated', 'heuristic' or a number in (0, 1); "
                         f"got {text!r}.") from None


def cmd_compare(args) -> int:
    from ..comparison import compare, compare_all
    if args.test is not None and not args.test.strip():
        raise ValueError("`--test` must name a test (calibsim list tests); got an empty "
                         "string (leave the flag out for the design's default).")
    if args.design is not None and not args.design.strip():
        raise ValueError("`--design` must be 'RxK', '5x2cv' or 'subsampling:N'; got an empty "
                         "string (leave the flag out for the default).")
    if args.scoring is not None:
        from ..metrics import get_metric
        get_metric(args.scoring, name="--scoring")   # a typo is refused before any work
    if args.scores_in is not None:
        if args.scoring is not None:
            raise ValueError(f"`--scoring` says what fitted learners are scored on; with "
                             f"`--scores-in` say what the scores measure with `--metric`; "
                             f"got --scoring {args.scoring!r}.")
        return _from_scores(args)
    if args.metric != "accuracy":
        raise ValueError(f"`--metric` goes with `--scores-in` (fitted learners are scored on "
                         f"accuracy, or on `--scoring`); got --metric {args.metric!r} "
                         f"without it.")
    if not args.data:
        raise ValueError("give `--data` (a data set to fit the learners on) or `--scores-in` "
                         "(a CSV of per-fold results you already have).")
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
    if args.scoring not in (None, "accuracy") and (len(args.data) > 1 or len(learners) > 2):
        what = ("several data sets (repeat --data) are ranked" if len(args.data) > 1
                else f"{len(learners)} learners (all pairs) are compared")
        raise ValueError(f"`--scoring` other than accuracy needs two learners on one data "
                         f"set; {what} on accuracy only; got --scoring {args.scoring!r}.")
    t0 = time.perf_counter()
    if len(args.data) > 1:
        return _over_datasets(args, learners, t0)
    ds = load_data(args.data[0], args.class_attribute, args.class_nominal)
    common = dict(design=args.design or "10x10", test=args.test, alpha=args.alpha, df=_df_arg(args.df),
                  n_jobs=args.workers, scheduler=args.scheduler, random_state=args.seed,
                  progress=not args.no_progress)
    if len(learners) > 2 and getattr(ds, "is_regression", False):
        raise ValueError(f"a numeric target is compared with two regressors (--a and --b); "
                         f"{len(learners)} learners (all pairs) are compared as classifiers "
                         f"on accuracy only; got {args.data[0]!r}.")
    print(f"data: {ds!r}", flush=True)
    if len(learners) == 2:
        rep = None if args.replicability == "none" else args.replicability
        res = compare(learners[0], learners[1], ds, replicability=rep,
                      n_repeats=args.repeats, method=args.method, rope=args.rope,
                      threshold=args.threshold, rho=_rho_arg(args.rho),
                      scoring=args.scoring, **common)
        print(res)
        table = res.scores
        if args.report is not None:
            from dataclasses import replace
            res = replace(res, provenance={**(res.provenance or {}),
                                           "command": command_line(args)})
            _wrote(res.save_report(args.report))
    else:
        table = compare_all(learners, ds, correction=args.correction, **common)
        print(table.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
        if args.report is not None:
            table._info["provenance"]["command"] = command_line(args)
            _wrote(table.save_report(args.report))
    if args.scores is not None:
        table.to_csv(args.scores, index=False)
        print(f"wrote {args.scores}")
    print(f"{time.perf_counter() - t0:.1f} s")
    return 0


def _from_scores(args) -> int:
    """``calibsim compare --scores-in FILE.csv``: the test on given per-fold results."""
    import pandas as pd

    from ..comparison import compare_scores
    if args.data:
        raise ValueError("give `--data` (fit the learners) or `--scores-in` (results you "
                         "already have), not both.")
    if args.replicability == "rerun":
        raise ValueError("`--replicability` rerun needs new partitions, hence fits; with "
                         "`--scores-in` use bootstrap or none.")
    learners = args.learners or None
    if learners is not None and len(learners) != 2:
        raise ValueError(f"with `--scores-in`, --a and --b pick two learners of the file; got "
                         f"{len(learners)}.")
    try:
        frame = pd.read_csv(args.scores_in)
    except (pd.errors.ParserError, UnicodeDecodeError, pd.errors.EmptyDataError) as exc:
        raise ValueError(f"`--scores-in` {str(args.scores_in)!r} is not a readable CSV "
                         f"({type(exc).__name__}: {str(exc).splitlines()[0]}).") from None
    res = compare_scores(frame, learners=learners, design=args.design, test=args.test,
                         alpha=args.alpha, df=_df_arg(args.df), method=args.method,
                         rope=args.rope, threshold=args.threshold, rho=_rho_arg(args.rho),
                         replicability=None if args.replicability == "none" else "bootstrap",
                         random_state=args.seed, metric=args.metric)
    print(f"scores: {args.scores_in} ({len(frame)} rows)")
    print(res)
    if args.scores is not None:
        res.scores.to_csv(args.scores, index=False)
        print(f"wrote {args.scores}")
    if args.report is not None:
        from dataclasses import replace
        prov = {**(res.provenance or {}), "command": command_line(args),
                "scores_in": str(args.scores_in)}
        _wrote(replace(res, provenance=prov).save_report(args.report))
    return 0


def _over_datasets(args, learners, t0) -> int:
    from ..comparison import accuracy_table
    from ..comparison._datasets import rank_accuracies
    sets = {text: load_data(text, args.class_attribute, args.class_nominal) for text in args.data}
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
    if args.report is not None:
        from dataclasses import replace
        from ..comparison._datasets import design_data_text
        res = replace(res, provenance={**(res.provenance or {}), "command": command_line(args),
                                       "seed": args.seed, "data": design_data_text(design)})
        _wrote(res.save_report(args.report))
    print(f"{time.perf_counter() - t0:.1f} s")
    return 0


def _wrote(paths) -> None:
    print("wrote " + ", ".join(str(p) for p in paths))


#: ``calibsim calibrate --null`` -> ``calibrate_like(null=...)``
_NULL_OF_FLAG = {"balanced": "balanced_centred", "damaged": "damaged", "both": "both"}


def cmd_calibrate_like(args, progress) -> int:
    """``calibsim calibrate --like DATA``: say what will run, run it, say what came out."""
    from ..comparison._calibrate_like import CalibrationInterrupted, calibrate_like
    learners = args.learner or ["naive_bayes", "c45"]
    if len(learners) != 2:
        raise ValueError(f"`--learner` must be given twice (two learners) or not at all; got "
                         f"{len(learners)}: {learners}.")
    tests = args.test or None
    if args.method == "bayes":
        if tests:
            raise ValueError("`--test` is not used with `--method bayes` (the correlated "
                             f"Bayesian t test's rho is calibrated); got {tests}.")
        if args.alpha:
            raise ValueError("use `--threshold` (not `--alpha`) with `--method bayes`.")
        if args.max_spread is not None:
            raise ValueError("`--max-spread` judges a calibrated df's interval; it is not "
                             f"used with `--method bayes`; got {args.max_spread}.")
        alphas = [1 - t for t in (args.threshold or [0.95])]
    else:
        if args.threshold:
            raise ValueError("`--threshold` needs `--method bayes`.")
        alphas = args.alpha or [0.05]
    if args.design is not None:
        design = args.design
    elif tests and any(t in ("resampling", "corrected_resampling") for t in tests):
        design = f"subsampling:{args.runs}"
    elif tests and any(t.startswith("cv5x2") for t in tests):
        design = "5x2cv"
    else:
        design = f"{args.runs}x{args.folds}"
    workers = args.workers
    if args.scheduler is None and workers != 0:
        # the workers start and load their kernels while this process reads the data and
        # times one null data set; the run's cluster then reuses them (as ``run`` does)
        from ..engine.runner import start_local_workers
        start_local_workers(workers)

    def plan(text):
        print(text, flush=True)

    def estimate(per, total):
        n = workers if workers is not None else _cores()
        on = "here" if n == 0 else f"on {max(1, n)} worker{'s' if n != 1 else ''}"
        print(f"time: one null data set took {per:.2f} s of CPU here, compiling excluded; "
              f"{args.n_datasets} data sets: about {_minutes(total)} {on}", flush=True)

    t0 = time.perf_counter()
    try:
        with progress:
            res = calibrate_like(args.like, learners, design=design, test=tests,
                                 alphas=alphas, n_datasets=args.n_datasets,
                                 method=args.method, rope=args.rope, seed=args.seed,
                                 results=args.results, n_jobs=workers,
                                 scheduler=args.scheduler, progress=progress,
                                 on_estimate=estimate, on_plan=plan,
                                 class_attribute=args.class_attribute,
                                 null=_NULL_OF_FLAG[args.null],
                                 **({} if args.max_spread is None
                                    else {"max_spread": args.max_spread}))
    except CalibrationInterrupted as exc:
        args.interrupt.saved = (f"{exc.saved} of {exc.total} null data sets are saved in "
                                f"{exc.store}")
        raise KeyboardInterrupt from None          # main() prints the one line
    print()
    from ..comparison._calibrate_like import null_choice_sentence
    print(null_choice_sentence(res.null_construction, args.null != "balanced")
          .replace(f"null={res.null_construction!r}", f"--null {args.null}"))
    print(res)
    if args.report is not None:
        from dataclasses import replace
        _wrote(replace(res, command=command_line(args)).save_report(args.report))
    print(f"\n{time.perf_counter() - t0:.1f} s")
    return 0


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.1f} min"


def _cores() -> int:
    import os
    return max(1, os.cpu_count() or 1)
