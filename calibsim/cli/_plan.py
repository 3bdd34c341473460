"""``calibsim plan``: before the experiment, which design and test detect Δ on my data?"""

from __future__ import annotations

import time

from ._args import add_report

__all__ = ["add_plan_parser", "cmd_plan"]


def _differences(text: str) -> list:
    """``"1,2,5"`` (accuracy points) -> [0.01, 0.02, 0.05]."""
    try:
        values = [float(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise ValueError(f"`--difference` must be comma-separated accuracy points, e.g. "
                         f"1,2,5; got {text!r}.") from None
    if not values or any(not 0 < v < 100 for v in values):
        raise ValueError(f"`--difference` must be accuracy points in (0, 100), e.g. 1,2,5; "
                         f"got {text!r}.")
    return [v / 100 for v in values]


def add_plan_parser(sub, int_type, alpha_type):
    """Register ``calibsim plan``."""
    from ._compare import _DATA_HELP, _LEARNER_HELP
    p = sub.add_parser(
        "plan", help="before the experiment: Type I error, power and replicability of every "
        "design and test on your data, and the smallest design that detects a difference",
        description="Plan an experiment on your data. The better of two learners is "
        "damaged by random errors (each prediction replaced by another class at a rate "
        "calibrated at each design's training-set size, as Dietterich 1998 damaged C4.5 on "
        "Pima) so that its expected accuracy equals the other's (Δ = 0: a null on your real "
        "data at its class prior) or lies Δ below it. Each design is repeated N times with "
        "new partitions; every test that fits it is run at the df calibsim compare uses. "
        "Printed: the Type I error, power at each Δ, replicability (Bouckaert & Frank 2004) "
        "and cost in fits of every design and test with Monte Carlo standard errors, the "
        "fast 'shift' estimate (the null's centred differences plus Δ, no refitting), and "
        "the smallest design that reaches the target power with replicability >= 0.9.")
    p.add_argument("--data", required=True, help=_DATA_HELP)
    p.add_argument("--class-attribute", default=None, help="class column (default: the last)")
    p.add_argument("--a", required=True, help=_LEARNER_HELP)
    p.add_argument("--b", required=True, help="the second learner")
    p.add_argument("--difference", type=str, default="1,2,5",
                   help="differences Δ to detect, in accuracy points, comma-separated "
                        "(default 1,2,5; Δ = 0, the null, is always added)")
    p.add_argument("--design", action="append", default=None,
                   help="a design: 'RxK', '5x2cv', 'subsampling:N' or 'holdout' "
                        "(repeatable; default 10x10, 5x10, 10x5, 5x2cv, 1x10, holdout)")
    p.add_argument("--test", action="append", default=None,
                   help="a test (repeatable; default every registered test that fits each "
                        "design; calibsim list tests)")
    p.add_argument("--alpha", type=alpha_type, default=0.05,
                   help="significance level α (default 0.05)")
    p.add_argument("--power", type=alpha_type, default=0.8,
                   help="target power of the recommended design (default 0.8)")
    p.add_argument("--replicability", type=alpha_type, default=0.9,
                   help="least replicability of the recommended design (default 0.9)")
    p.add_argument("--df", choices=("calibrated", "textbook"), default="calibrated",
                   help="df of the tests: as calibsim compare takes it (the shipped table "
                        "where it covers the design; default) or the textbook df")
    p.add_argument("--n-datasets", type=int_type(2), default=100,
                   help="repeats N of each design (new partitions and damage; default 100: "
                        "Monte Carlo SE of a rate at most 5 points)")
    p.add_argument("--n-instances", type=int_type(10), default=None,
                   help="each repeat on a random subsample of this many instances (data sets "
                        "that vary, as Dietterich's 300 of Pima's 768; default: all the data, "
                        "new partitions only)")
    p.add_argument("--damage", choices=("better", "a", "b"), default="better",
                   help="which learner gets the random errors (default: the better one)")
    p.add_argument("--seed", type=int_type(0), default=0, help="root seed (default 0)")
    p.add_argument("--workers", type=int_type(0), default=None,
                   help="local worker processes fitting in parallel (default: fit in this "
                        "process)")
    p.add_argument("--scheduler", default=None, help="address of a running Dask scheduler")
    from pathlib import Path

    from ._args import output_dir
    p.add_argument("--results", type=output_dir, default=Path("results"),
                   help="folder of the score store: every repeat is saved as it finishes, "
                        "so after Ctrl-C the same command resumes (default ./results)")
    p.add_argument("--table", default=None, metavar="FILE.csv",
                   help="write the full table (one row per design, test and Δ) here")
    p.add_argument("--figure", default=None, metavar="FILE.png",
                   help="write the figure (power against Δ, one line per design) here")
    add_report(p, "the data, learners and the damaged null, Type I error, power and "
                  "replicability of every design and test, the figure and the recommendation")
    p.add_argument("--no-progress", action="store_true", help="do not show a progress bar")
    return p


def cmd_plan(args) -> int:
    from ..comparison import plan
    from ._compare import load_data
    t0 = time.perf_counter()
    ds = load_data(args.data, args.class_attribute)
    from ..comparison._plan import DEFAULT_DESIGNS
    res = plan(args.a, args.b, ds, differences=_differences(args.difference),
               designs=args.design or DEFAULT_DESIGNS, tests=args.test, alpha=args.alpha,
               power=args.power, replicability=args.replicability, df=args.df,
               n_datasets=args.n_datasets,
               n_instances=args.n_instances, damage=args.damage, random_state=args.seed,
               n_jobs=args.workers, scheduler=args.scheduler, results=args.results,
               progress=not args.no_progress)
    print(res)
    if args.table is not None:
        res.table.to_csv(args.table, index=False)
        print(f"wrote {args.table}")
    if args.figure is not None:
        from ..plotting import save_figure
        save_figure(res.plot_power(), args.figure)
        print(f"wrote {args.figure}")
    if args.report is not None:
        paths = res.save_report(args.report)
        for path in paths:
            print(f"wrote {path}")
    print(f"{time.perf_counter() - t0:.1f} s")
    return 0
