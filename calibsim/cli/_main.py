"""The ``calibsim`` command: every study file runs on one engine.

  calibsim run STUDY.toml        compute (or resume) the study's scores, run its analyses,
                                 write tables, figures and the report beside the paper
  calibsim run studies/          every study, in dependency order, then one summary table
  calibsim report STUDY.toml     the same from saved scores only (no learner is fitted)
  calibsim calibrate --test T    calibrate one test's df on simulated null data
                                 (--like DATA: on null data shaped like yours)
  calibsim compare --data D --a A --b B
                                 which of my learners is better? a calibrated test
  calibsim plan --data D --a A --b B --difference 1,2,5
                                 before the experiment: which design and test detect Δ
                                 on my data (Type I error, power, replicability, cost)
  calibsim rank --scores FILE.csv
                                 many learners over many data sets: Friedman, post-hoc
                                 procedures, MultiTest / Multi2Test order, CD diagram
  calibsim df --test T           the shipped calibrated df of a test for a design and α
  calibsim differences           the register of differences from the papers, per paper
  calibsim list [WHAT]           studies, sources, learners, schemes, tests and analyses
  calibsim clean                 remove stale and quarantined blocks and leftover temporary
                                 files from a score store

Paths in a study file are relative to the file. A run with --n-datasets (N data sets
per simulated source, the first N real data sets of each group) is a quick look: it
writes to <results>/reduced/<name>_n<N>/ unless --out says where, never under the
tracked folders, and stamps its figures "reduced run: N data sets".
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import warnings
from pathlib import Path

from ._args import add_execution as _add_execution
from ._args import add_outputs as _add_outputs
from ._args import alpha_type as _alpha
from ._args import input_file as _input_file
from ._args import int_type as _int
from ._args import output_dir as _output_dir

__all__ = ["main"]


def _parser():
    """The ``calibsim`` argument parser: one subparser per subcommand, in ``--help`` order."""
    from .._version import __version__
    parser = argparse.ArgumentParser(prog="calibsim", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"calibsim {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    _add_run_parser(sub)
    _add_report_parser(sub)
    _add_calibrate_parser(sub)
    from ._compare import add_compare_parser
    add_compare_parser(sub, _int, _alpha)
    from ._plan import add_plan_parser
    add_plan_parser(sub, _int, _alpha)
    from ._rank import add_parser as add_rank_parser
    add_rank_parser(sub)
    from ._differences import add_parser as add_differences_parser
    add_differences_parser(sub)
    _add_df_parser(sub)
    _add_list_parser(sub)
    _add_clean_parser(sub)
    return parser


def _add_run_parser(sub):
    """Register ``calibsim run``: a study file (or folder), its outputs and execution."""
    run = sub.add_parser("run", help="run a study file and write its outputs")
    run.add_argument("study", type=_input_file, help="study file, e.g. "
                     "studies/bouckaert2003_figure2.toml, or a folder: every study in it, in "
                     "dependency order, then a table of wall times and verdicts")
    _add_outputs(run)
    _add_execution(run)


def _add_report_parser(sub):
    """Register ``calibsim report``: the outputs of a study from its saved scores."""
    rep = sub.add_parser("report", help="redo tables, figures and report from saved scores")
    rep.add_argument("study", type=_input_file, help="study file (or folder of study files) "
                     "whose saved scores to use")
    _add_outputs(rep)


def _add_calibrate_parser(sub):
    """Register ``calibsim calibrate``: the test and design, ``--like``, the null data."""
    cal = sub.add_parser(
        "calibrate", help="calibrate a test's df on simulated null data (naive Bayes vs "
        "C4.5, Bouckaert 2003), or on null data like yours (--like DATA)",
        description="Calibrate the df of a test (Bouckaert 2003): run it on null data sets "
        "where the learners are equally good, at df 2..df-max, and take the df whose Type I "
        "error is closest to, and not above, alpha; also the continuous df with its 95%% "
        "distribution-free interval. Without --like the null data are simulated (binary "
        "attributes independent of the class). With --like DATA each null data set is your "
        "data with its class labels permuted, and every per-fold difference of the two "
        "learners is centred on its mean over the null data sets: permuted labels alone "
        "favour a learner that falls back on the majority class whenever the class prior is "
        "unbalanced, so the learners are made equally good on average by construction. "
        "With --method bayes the correlated Bayesian t test's rho is calibrated instead.")
    _add_calibrate_test_arguments(cal)
    _add_calibrate_like_arguments(cal)
    _add_calibrate_null_data_arguments(cal)
    _add_execution(cal)


def _add_calibrate_test_arguments(cal):
    """``calibsim calibrate``'s test, level, method (df or Bayesian rho) and r x k design."""
    cal.add_argument("--test", action="append", help="test name, e.g. use_all_data "
                     "(calibsim list tests; repeatable; with --like the default is the "
                     "design's default test)")
    cal.add_argument("--alpha", type=_alpha, action="append",
                     help="significance level (repeatable; default 0.05)")
    cal.add_argument("--method", choices=("frequentist", "bayes"), default="frequentist",
                     help="with --like: 'bayes' calibrates the correlated Bayesian t test's "
                          "rho (Corani & Benavoli 2015) for --threshold and --rope")
    cal.add_argument("--threshold", type=_alpha, action="append",
                     help="with --method bayes: posterior probability needed for a decision "
                          "(repeatable; default 0.95)")
    cal.add_argument("--rope", type=float, default=0.0,
                     help="with --method bayes: half-width of the region of practical "
                          "equivalence in accuracy units, e.g. 0.01 = 1 point (default 0)")
    cal.add_argument("--folds", type=_int(2), default=10, help="k (default 10)")
    cal.add_argument("--runs", type=_int(2), default=10,
                     help="r runs, or n subsamples for resampling tests (default 10)")


def _add_calibrate_like_arguments(cal):
    """``calibsim calibrate --like DATA``: the user's data, null, learners, design, report."""
    cal.add_argument("--like", default=None, metavar="DATA",
                     help="calibrate on null data like DATA (a balanced label vector "
                          "permuted per data set, the differences centred): a shipped name, "
                          "an ARFF or CSV file (class = last column unless "
                          "--class-attribute) or sklearn:load_*; with --learner")
    cal.add_argument("--null", choices=("balanced", "damaged", "both"), default="balanced",
                     help="with --like: the null construction; 'balanced' (default): a "
                          "balanced label vector, the differences centred, at a balanced "
                          "class prior; 'damaged': Dietterich's (1998, section 5) damaged "
                          "learner on your own data, labels and prior; 'both': both side by "
                          "side in one table")
    cal.add_argument("--class-attribute", default=None,
                     help="with --like and an ARFF or CSV file: the class column "
                          "(default: the last)")
    cal.add_argument("--learner", action="append",
                     help="with --like: a learner (twice; default naive_bayes and c45)")
    cal.add_argument("--design", default=None,
                     help="with --like: 'RxK' (r runs of stratified k-fold cv), '5x2cv' or "
                          "'subsampling:N' (default: from --runs and --folds)")
    cal.add_argument("--max-spread", type=float, default=None, metavar="SHARE",
                     help="with --like: warn when the calibrated df's 95%% interval moves the "
                          "test's critical value t(1-alpha/2, df) by more than this share of "
                          "its value (default 0.05), and estimate how many null data sets "
                          "would pin the df down")
    from ._args import add_report
    add_report(cal, "with --like: the data, learners and design, the null and both "
                    "learners' accuracy on it, the calibrated df (or rho) beside the shipped "
                    "table")


def _add_calibrate_null_data_arguments(cal):
    """``calibsim calibrate`` without ``--like``: the simulated null data and their store."""
    cal.add_argument("--n-datasets", type=_int(1), default=1000,
                     help="null data sets to calibrate on (default 1000)")
    cal.add_argument("--n-instances", type=_int(2), default=300,
                     help="instances per null data set (default 300, as Bouckaert 2003)")
    cal.add_argument("--n-attributes", type=_int(1), default=10,
                     help="binary attributes per null data set (default 10)")
    cal.add_argument("--class-prior", type=_alpha, default=0.5,
                     help="P(class 1) of the null data, in (0, 1) (default 0.5)")
    cal.add_argument("--test-fraction", type=_alpha, default=0.1,
                     help="test share of the resampling splits (default 0.1)")
    cal.add_argument("--df-max", type=_int(2), default=100,
                     help="largest df of the calibration grid 2..df-max (default 100)")
    cal.add_argument("--seed", type=_int(0), default=20030821,
                     help="root entropy (default: the Figure 2 study's, so the same data sets)")
    cal.add_argument("--results", type=_output_dir, default=Path("results"),
                     help="folder of the score store (default ./results)")


def _add_df_parser(sub):
    """Register ``calibsim df``: a test, level and design to look up in the shipped table."""
    dfp = sub.add_parser("df", help="look up a calibrated df in the shipped table "
                         "(10,000 null data sets; see calibsim.calibration.lookup_df)")
    dfp.add_argument("--test", default=None, help="test name, e.g. use_all_data; without it "
                     "the whole table at --alpha is printed")
    dfp.add_argument("--alpha", type=_alpha, default=0.05,
                     help="significance level α of the table: 0.01, 0.05 or 0.1 (default 0.05)")
    dfp.add_argument("--folds", type=_int(2), default=10, help="k folds (default 10)")
    dfp.add_argument("--runs", type=_int(1), default=10,
                     help="r runs, or n subsamples for the subsampling tests")


def _add_list_parser(sub):
    """Register ``calibsim list``: what to list and the folder of study files."""
    lst = sub.add_parser("list", help="list studies, sources, learners, schemes, tests, "
                         "analyses")
    lst.add_argument("what", nargs="?", default="all",
                     choices=("all", "studies", "datasets", "sources", "learners", "schemes",
                              "tests", "analyses", "papers"),
                     help="what to list (default all; 'datasets': the shipped data sets with "
                          "their size, classes, missing values and source)")
    lst.add_argument("--studies-dir", type=Path, default=Path("studies"),
                     help="folder of study files (default ./studies)")


def _add_clean_parser(sub):
    """Register ``calibsim clean``: the store's folder and a dry run."""
    cln = sub.add_parser("clean", help="remove leftover temporary files and stale or "
                         "quarantined blocks from a score store")
    cln.add_argument("--results", type=_output_dir, default=Path("results"),
                     help="folder holding the store (default ./results; the store is "
                          "<results>/store)")
    cln.add_argument("--dry-run", action="store_true",
                     help="only count what would be removed")


def _cmd_clean(args):
    from ..engine.store import Store
    from .._validation import size_text
    store = Store(args.results / "store")
    if not store.root.is_dir():
        raise FileNotFoundError(f"`--results` {str(args.results)!r} holds no store "
                                f"({store.root} does not exist).")
    got = store.clean(dry_run=args.dry_run)
    verb = "would remove" if args.dry_run else "removed"
    print(f"{verb} {got['temporary']} leftover temporary file(s), {got['stale']} stale and "
          f"{got['quarantine']} quarantined block(s): {size_text(got['bytes'])} in {store.root}")
    return 0


def _progress(args, desc):
    from ..engine.runner import Progress
    return Progress(not getattr(args, "no_progress", True), desc)


def _print_paths(paths):
    for key in sorted(paths, key=lambda k: (not k.startswith("report"), k)):
        print(f"wrote {paths[key]}")


def _study_order(folder: Path) -> list:
    """Study files of ``folder`` with each study after those it takes calibrated df from."""
    from ..engine.spec import load_study      # the one loader: a study's calibration files
    files = sorted(folder.glob("*.toml"))
    needs = {}
    for f in files:
        try:
            study = load_study(f)
        except (ValueError, FileNotFoundError, OSError):
            needs[f] = set()                     # it fails again, visibly, when it runs
            continue
        needs[f] = {Path(a.calibration).resolve() for a in study.analyses
                    if a.calibration is not None}
    done, order = set(), []

    def visit(f, stack=()):
        if f.resolve() in done or f in stack:
            return
        for dep in sorted(needs.get(f, ())):
            hit = [g for g in files if g.resolve() == dep]
            for g in hit:
                visit(g, stack + (f,))
        done.add(f.resolve())
        order.append(f)
    for f in files:
        visit(f)
    return order


def _outcomes(paths: dict) -> dict:
    """Counts of the verdicts (agrees / partly / differs) in a study's reports."""
    import re
    counts = {"agrees": 0, "partly": 0, "differs": 0}
    for p in paths.values():
        if str(p).endswith("_report.md") and Path(p).is_file():
            for line in Path(p).read_text(encoding="utf-8").splitlines():
                m = re.search(r"\|\s*\**(agrees|partly|differs)\**\s*\|\s*$", line)
                if m:
                    counts[m.group(1)] += 1
    return counts


def _run_all(args, compute=True):
    """Every study file of a folder, in dependency order, then one table of them all.

    The studies compute one after the other on one cluster; each study's analyses and
    outputs run in one background thread while the next study computes (a study's
    scores, which later studies may take calibrated df from, are saved before the
    next one starts). The table gives each study's time to its saved scores and the
    time of its analyses and outputs (their own time, not the wait for the thread).
    """
    import contextlib
    import time
    from concurrent.futures import Future, ThreadPoolExecutor

    from tabulate import tabulate

    from ..engine.pipeline import run_study_file
    from ..engine.runner import check_n_workers, cluster
    order = _study_order(args.study)
    if not order:
        raise ValueError(f"`study` folder {str(args.study)!r} holds no study file (*.toml).")
    scheduler, n_workers = getattr(args, "scheduler", None), getattr(args, "workers", None)
    check_n_workers(n_workers, scheduler)
    failures = (ValueError, FileNotFoundError, OSError)
    runs, t_all = [], time.perf_counter()

    def timed(rest):
        t_start = time.perf_counter()
        paths = rest()
        return paths, time.perf_counter() - t_start

    # one cluster for every study: starting workers and loading kernels once, not per study
    with (cluster(scheduler=scheduler, n_workers=n_workers) if compute
          else contextlib.nullcontext()) as client, \
            ThreadPoolExecutor(max_workers=1, thread_name_prefix="calibsim-outputs") as writer:
        try:
            for i, path in enumerate(order, 1):
                print(f"[{i}/{len(order)}] {path.name}", flush=True)
                t0 = time.perf_counter()
                try:
                    with _progress(args, path.stem) as bar:
                        done = run_study_file(
                            path, n_datasets=args.n_datasets, out=None, results=args.results,
                            scheduler=scheduler, n_workers=n_workers, progress=bar,
                            compute=compute, client=client,
                            finish=lambda rest: writer.submit(timed, rest))
                except failures as exc:
                    done = exc
                runs.append((path, t0, done, time.perf_counter()))
        except BaseException:       # interrupted: queued outputs are dropped, not waited for
            writer.shutdown(wait=False, cancel_futures=True)
            raise
        rows = []
        for path, t0, done, t1 in runs:
            outputs = ""
            try:
                if isinstance(done, BaseException):
                    raise done
                if isinstance(done, Future):
                    done, outputs = done.result()
                    outputs = round(outputs, 1)
                status, counts = "ok", _outcomes(done)
            except failures as exc:
                status, counts = f"error: {str(exc).splitlines()[0][:100]}", {}
            rows.append({"study": path.stem, "scores (s)": round(t1 - t0, 1),
                         "outputs (s)": outputs,
                         "agrees": counts.get("agrees", ""),
                         "partly": counts.get("partly", ""),
                         "differs": counts.get("differs", ""), "status": status})
    print(tabulate(rows, headers="keys", tablefmt="github"))
    print(f"{len(order)} studies in {time.perf_counter() - t_all:.1f} s")
    return 0 if all(r["status"] == "ok" for r in rows) else 1


def _cmd_run(args, compute=True):
    import time
    if compute and not args.study.is_dir() and getattr(args, "scheduler", None) is None \
            and getattr(args, "workers", None) != 0:
        # the workers start and load their kernels while this process imports the
        # analyses and reads the study file; the run's cluster then reuses them
        from ..engine.runner import start_local_workers
        start_local_workers(getattr(args, "workers", None))
    from ..engine.pipeline import run_study_file
    if args.study.is_dir():
        if args.out is not None:
            raise ValueError("`--out` names one study's folder; with a folder of studies each "
                             "writes to its own [outputs] figures (or <results>/reduced/... for "
                             "a reduced run).")
        return _run_all(args, compute)
    t0 = time.perf_counter()
    with _progress(args, args.study.stem) as bar:
        paths = run_study_file(args.study, n_datasets=args.n_datasets, out=args.out,
                               results=args.results,
                               scheduler=getattr(args, "scheduler", None),
                               n_workers=getattr(args, "workers", None), progress=bar,
                               compute=compute)
    _print_paths(paths)
    print(f"{args.study.stem}: {time.perf_counter() - t0:.1f} s")
    return 0


#: study keys of the null-data calibration study -> the ``calibrate`` flags that set them
_CALIBRATE_FLAGS = {"sources.null.n_instances": "--n-instances",
                    "sources.null.n_attributes": "--n-attributes",
                    "sources.null.n_datasets": "--n-datasets",
                    "sources.null.class_prior": "--class-prior",
                    "analysis[0].df_max": "--df-max", "analysis[0].alphas": "--alpha",
                    "analysis[0].runs": "--runs", "schemes.s.n_runs": "--runs",
                    "schemes.s.n_folds": "--folds", "schemes.s.test_fraction": "--test-fraction",
                    "study.seed": "--seed"}


def _cmd_calibrate(args):
    from ..engine.analyses import calibration_rows
    from ..engine.run import compute_scores
    from ..engine.runner import cluster
    from ..engine.spec import study_from_dict
    from ..stats import get_test

    if args.like is not None:
        from ._compare import cmd_calibrate_like
        return cmd_calibrate_like(args, _progress(args, f"calibrate like {args.like}"))
    for flag, value in (("--learner", args.learner), ("--design", args.design),
                        ("--class-attribute", args.class_attribute),
                        ("--threshold", args.threshold), ("--report", args.report),
                        ("--max-spread", args.max_spread),
                        ("--null", None if args.null == "balanced" else args.null)):
        if value:
            raise ValueError(f"`{flag}` needs `--like` (the simulated null data is calibrated "
                             "for naive Bayes vs C4.5 on its own design flags).")
    if args.method == "bayes":
        raise ValueError("`--method bayes` needs `--like DATA`; the shipped rho table "
                         "(calibsim.lookup_rho) holds rho calibrated on the simulated null.")
    if not args.test:
        raise ValueError("`--test` is required without `--like` (e.g. --test use_all_data; "
                         "calibsim list tests).")
    specs = [get_test(t) for t in args.test]  # unknown names raise ValueError listing them
    if len({s.name for s in specs}) < len(specs):
        raise ValueError(f"`--test` names a test twice; got {args.test}.")
    if len({s.scheme for s in specs}) > 1:
        raise ValueError(f"`--test` must name tests on one kind of data at a time; got "
                         f"{[f'{s.name} ({s.scheme})' for s in specs]}.")
    spec = specs[0]
    scheme = {"kind": "subsampling", "n_runs": args.runs, "test_fraction": args.test_fraction} \
        if spec.scheme == "subsampling" else (
        {"kind": "cv5x2"} if spec.scheme == "cv5x2" else
        {"kind": "repeated_kfold", "n_folds": args.folds, "n_runs": args.runs})
    analysis = {"kind": "calibrate", "tests": [x.name for x in specs],
                "alphas": args.alpha or [0.05], "df_max": args.df_max}
    if scheme["kind"] != "cv5x2":
        analysis["runs"] = [args.runs]
    doc = {"study": {"name": f"calibrate_{spec.name}", "seed": args.seed},
           "sources": {"null": {"kind": "null", "n_instances": args.n_instances,
                                "n_attributes": args.n_attributes,
                                "class_prior": args.class_prior,
                                "n_datasets": args.n_datasets}},
           "learners": {"names": ["naive_bayes", "c45"]}, "schemes": {"s": scheme},
           "analysis": [analysis], "outputs": {"results": str(args.results.resolve())}}
    try:
        study = study_from_dict(doc, Path.cwd() / "calibrate.toml")
    except ValueError as exc:          # name the flags, not the keys of the study it builds
        text = str(exc).replace(f"study file {Path.cwd() / 'calibrate.toml'}: ", "")
        for key, flag in _CALIBRATE_FLAGS.items():
            text = text.replace(f"`{key}`", f"`{flag}`")
        raise ValueError(text) from None
    with _progress(args, f"calibrate {', '.join(x.name for x in specs)}") as bar, cluster(
            scheduler=args.scheduler, n_workers=args.workers) as client:
        scores = compute_scores(study, client=client, progress=bar)
    table = calibration_rows(study, study.analyses[0], scores)
    cols = ["label", "n_runs", "n_folds", "alpha", "default_df", "type1_default",
            "calibrated_df", "df_boot_se", "type1_error", "mc_se", "ci_low", "ci_high",
            "n_datasets"]
    print(table[cols].to_string(index=False, float_format=lambda v: f"{v:.4g}"))
    return 0


def _cmd_df(args):
    import numpy as np

    from ..calibration import df_table, lookup_df, provenance
    if args.test is None:
        t = df_table()
        have = sorted(float(a) for a in t["alpha"].unique())
        t = t[np.isclose(t["alpha"], args.alpha)]
        if t.empty:
            raise ValueError(f"`--alpha` must be one of the table's levels "
                             f"{', '.join(f'{a:g}' for a in have)}; got {args.alpha:g} "
                             "(calibsim calibrate calibrates at any level).")
        print(provenance())
        print(t.to_string(index=False, float_format=lambda v: f"{v:.3g}"))
        print("df_continuous: the df at which the Type I error reaches alpha (inf: the normal "
              "limit, the test stays below alpha at every df); calibrated_df: Bouckaert's "
              "integer rule on the grid 2..100 (100 where even df 100 stays below alpha).")
        return 0
    e = lookup_df(args.test, alpha=args.alpha, n_folds=args.folds, n_runs=args.runs)
    design = (f"{e.n_runs} subsamples" if e.n_folds == 0 else
              f"{e.n_runs} x {e.n_folds} cv")

    def num(v):
        return "∞" if v == float("inf") else f"{v:.2f}"
    integer = (f"integer df {e.integer_df}, the top of Bouckaert's grid 2..100: even there "
               "the Type I error stays below alpha" if e.df == float("inf") else
               f"integer df {e.integer_df}")
    print(f"{e.test}, {design}, alpha = {e.alpha:g}: calibrated df {num(e.df)}"
          + (" (the normal limit)" if e.df == float("inf") else "")
          + f" (95% interval {num(e.ci_low)} to {num(e.ci_high)}; {integer}; "
          f"textbook df {e.default_df}); from {e.n_datasets} null data sets, {e.source}")
    return 0


def _cmd_list(args):
    from ..engine import spec as S
    from ..papers import PAPERS, layouts
    from ..stats import TESTS
    what = args.what
    if what == "datasets":
        from ..datasets._loaders import dataset_table
        t = dataset_table()
        print(f"{len(t)} data sets ship with calibsim (use the name with --data or "
              "load_uci(name)):")
        from tabulate import tabulate
        print(tabulate(t, headers="keys", tablefmt="plain", showindex=False))
        return 0
    if what in ("all", "studies"):
        print("studies:")
        if not args.studies_dir.is_dir():
            print(f"  no folder {str(args.studies_dir)!r} here. The paper studies are the "
                  "files in the repository's studies/ folder (a clone of calibsim has them; "
                  "the installed package does not): run `calibsim list studies "
                  "--studies-dir PATH/TO/studies` or `calibsim run PATH/TO/studies/`.")
        for path in sorted(args.studies_dir.glob("*.toml")):
            try:
                st = S.load_study(path)
                kinds = ", ".join(dict.fromkeys(a.kind for a in st.analyses))
                print(f"  {path}  {st.title}  [{kinds}]")
            except (ValueError, FileNotFoundError) as exc:
                print(f"  {path}  (invalid: {exc})")
    if what in ("all", "sources"):
        print("sources (kind: keys; list values expand into several sources):")
        for kind, keys in S.SOURCE_KINDS.items():
            print(f"  {kind}: n_datasets, seed, schemes, {', '.join(keys)}")
        print("  any kind: [sources.<name>.learners.<label>] redefines a study learner on that "
              "source only (e.g. a damage rate calibrated for that data set)")
    if what in ("all", "learners"):
        print("learners (built-in, Weka 3.6 equivalents; or [learners.<label>] estimator = "
              "'module.Class' for any scikit-learn estimator):")
        print("  naive_bayes (NaiveBayes), c45 (J48), ib1 (IB1), tan (BayesNet TAN), "
              "voted_perceptron (VotedPerceptron)")
        print("  damaged on purpose (Dietterich 1998, section 5; [learners.<label>] kind = ...): "
              "damaged_nn (damaged, curve), random_errors (base, curve)")
    if what in ("all", "schemes"):
        print("schemes (kind: keys):")
        for kind, keys in S.SCHEME_KINDS.items():
            print(f"  {kind}: {', '.join(keys)}, correctness")
    if what in ("all", "tests"):
        print("tests (name: label, data):")
        for name, t in TESTS.items():
            print(f"  {name}: {t.label} [{t.scheme}]")
        from ..stats import INSTANCE_TESTS
        print("tests on each instance's outcome or on bootstrap samples (calibsim compare "
              "only; standard normal, no df):")
        for name, t in INSTANCE_TESTS.items():
            print(f"  {name}: {t.label} [{t.scheme}]")
    if what in ("all", "analyses"):
        print(f"analyses: {', '.join(S.ANALYSIS_KINDS)}; keys: {', '.join(sorted(S.ANALYSIS_KEYS))}")
    if what in ("all", "papers"):
        print("papers ([study] paper = '<paper>.<layout>'):")
        for p in PAPERS:
            print(f"  {p}: {', '.join(layouts(p))}")
    return 0


def _cmd_rank(args):
    from ._rank import run
    return run(args)


def _cmd_differences(args):
    from ._differences import run
    return run(args)


def _cmd_compare(args):
    from ._compare import cmd_compare
    return cmd_compare(args)


def _cmd_plan(args):
    from ._plan import cmd_plan
    return cmd_plan(args)


def _numba_cache_is_cold() -> bool:
    """True when no compiled kernel of calibsim's is in numba's on-disk cache yet."""
    import os
    root = Path(__file__).resolve().parents[1]
    cache = os.environ.get("NUMBA_CACHE_DIR")
    places = [Path(cache)] if cache else [root / "learners"]
    return not any(any(p.glob("**/*.nbi")) for p in places if p.is_dir())


#: What a learner kernel module compiles, in words (for the first-run progress lines).
_KERNEL_NAMES = {"_c45": "C4.5", "_kernels_nb": "naive Bayes", "_kernels_ib1": "IB1",
                 "_kernels_tan": "TAN", "_kernels_vp": "the voted perceptron",
                 "_kernels": "the resampling loop", "_kernels_ban": "the BAN sampler"}


@contextlib.contextmanager
def _compile_progress():
    """While numba's cache is cold: one line on stderr as each kernel this process compiles
    is ready (what, and how long it took), so a first run shows where it is."""
    import time
    from numba.core import event

    depth, started = [0], []

    class Listener(event.Listener):
        def on_start(self, ev):
            depth[0] += 1
            if depth[0] == 1:
                started.append(time.perf_counter())

        def on_end(self, ev):
            depth[0] -= 1
            if depth[0] or not started:
                return
            seconds = time.perf_counter() - started.pop()
            func = ev.data["dispatcher"].py_func
            module = func.__module__               # a C4.5 kernel: calibsim.learners._c45.<role>
            module = "_c45" if "._c45." in module else module.rpartition(".")[2]
            what = next((v for k, v in sorted(_KERNEL_NAMES.items(), key=lambda kv: -len(kv[0]))
                         if module.startswith(k)), module)
            try:
                from tqdm import tqdm
                write = tqdm.write                 # keeps an active progress bar intact
            except ImportError:                    # pragma: no cover - tqdm is a dependency
                write = print
            write(f"calibsim: compiled {what} ({func.__name__}) in {seconds:.1f} s",
                  file=sys.stderr)

    listener = Listener()
    event.register("numba:compile", listener)
    try:
        yield
    finally:
        event.unregister("numba:compile", listener)


@contextlib.contextmanager
def _warnings_in_one_line(command: str, verbose: bool = False):
    """calibsim's own warnings as one line each, at once; the others (e.g. scikit-learn's
    ConvergenceWarning, repeated on every fold), from this process and from the local
    workers alike, counted by category and learner and summarised at the end (each in
    full as it comes with ``verbose``)."""
    counts: dict = {}

    def show(message, category, filename, lineno, file=None, line=None):
        if category.__module__.startswith("calibsim"):
            print(f"calibsim {command}: warning: {message}", file=sys.stderr)
            return
        learner = str(filename)[len("learner "):] if str(filename).startswith(
            "learner ") else ""
        if verbose:
            print(f"calibsim {command}: {category.__name__}"
                  f"{f' ({learner})' if learner else ''}: {message}", file=sys.stderr)
        key = (category.__name__, learner, str(message).splitlines()[0][:160])
        counts[key] = counts.get(key, 0) + 1

    old = warnings.showwarning
    warnings.showwarning = show
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            for mod in ("numba", "distributed"):
                warnings.filterwarnings("ignore", module=mod)
            yield
    finally:
        warnings.showwarning = old
        by_class: dict = {}
        for (name, learner, text), n in counts.items():
            total, first = by_class.get((name, learner), (0, text))
            by_class[(name, learner)] = (total + n, first)
        for (name, learner), (n, first) in sorted(by_class.items()):
            who = f"learner {learner}" if learner else "the learners"
            print(f"calibsim {command}: {n} {name}{'s' if n > 1 else ''} from {who} "
                  f"(first: {first}){'' if verbose else '; --verbose shows them all'}",
                  file=sys.stderr)


#: Exit statuses of ``calibsim`` (docs/guide/cli.md): 0 done; 1 a study of a folder run
#: failed (the table says which); 2 bad input or usage (the message names the flag); 3 the
#: cluster was lost (Dask scheduler or a worker process; rerun resumes); 130 interrupted.
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_CLUSTER_LOST, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


class InterruptNote:
    """What an interrupted command has saved and the command that resumes it.

    :func:`main` gives each command one as ``args.interrupt`` with a default for its
    kind; a command that knows better sets ``saved`` (what is kept, where) and
    ``resume`` (the command line that goes on from it). On Ctrl-C :func:`main` prints
    them in one line and exits with status 130.
    """

    def __init__(self, saved: str, resume: str):
        self.saved, self.resume = saved, resume

    def line(self, command: str) -> str:
        return f"calibsim {command}: interrupted; {self.saved}; {self.resume}"


def _interrupt_note(args, argv) -> InterruptNote:
    """The default note of a command: its store, if it keeps one, and the same command."""
    import shlex
    again = shlex.join(["calibsim", *argv])
    results = getattr(args, "results", None)
    if args.command in ("run", "calibrate", "plan") and not getattr(args, "scores_in", None):
        where = (f"{results}/store" if results is not None else
                 "the store of the study's [outputs] results")
        what = ("the null data sets scored so far are" if args.command == "calibrate" else
                "the repeats finished so far are" if args.command == "plan" else
                "every block of scores finished so far is")
        return InterruptNote(f"{what} saved in {where}", f"resume with: {again}")
    return InterruptNote("nothing was saved (this command keeps no partial results)",
                         f"run it again: {again}")


def main(argv=None) -> int:
    """Entry point of the ``calibsim`` command; returns the exit status.

    Every command ends on Ctrl-C with one line (what was saved, the command that
    resumes) and status 130, and on a lost cluster with one line and status 3.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    args = _parser().parse_args(argv)
    args._argv = list(sys.argv[1:] if argv is None else argv)     # for reports
    handler = {"run": _cmd_run, "report": lambda a: _cmd_run(a, compute=False),
               "calibrate": _cmd_calibrate, "df": _cmd_df, "list": _cmd_list,
               "compare": _cmd_compare, "plan": _cmd_plan, "rank": _cmd_rank,
               "clean": _cmd_clean,
               "differences": _cmd_differences}[args.command]
    args.interrupt = _interrupt_note(args, argv)
    if getattr(args, "test", None) is not None and args.command in ("compare", "calibrate",
                                                                       "plan"):
        from ..stats import check_calibratable, get_test
        try:
            for name in ([args.test] if isinstance(args.test, str) else args.test):
                if not name.strip():
                    raise ValueError("`test` must name a test (calibsim list tests); got an "
                                     "empty string (leave the flag out for the design's "
                                     "default).")
                get_test(name)               # a typo is reported as the flag, before work
                if args.command == "calibrate":
                    check_calibratable(name)     # McNemar's, the Bayesian tests: no df
        except ValueError as exc:
            print(f"calibsim {args.command}: error: "
                  f"{str(exc).replace('`test`', '`--test`')}", file=sys.stderr)
            return EXIT_USAGE
    cold = args.command in ("run", "compare", "calibrate", "plan") and _numba_cache_is_cold()
    if cold:
        print("calibsim: first run: compiling the numba kernels this command needs, once (they "
              "are cached for later runs). Measured: 12-13 s of CPU time for `compare "
              "--data vote --a naive_bayes --b c45`, about its wall time on an idle core; "
              "3 to 10 min on a 2-core machine loaded by other work; a study compiles "
              "more ...", file=sys.stderr, flush=True)
    from ..engine.runner import ClusterLost, show_dask_logs
    show_dask_logs(bool(getattr(args, "verbose", False)))
    try:
        with _warnings_in_one_line(args.command, bool(getattr(args, "verbose", False))), \
                (_compile_progress() if cold else contextlib.nullcontext()):
            return handler(args)
    except KeyboardInterrupt:
        print(args.interrupt.line(args.command), file=sys.stderr, flush=True)
        return EXIT_INTERRUPTED
    except (ValueError, FileNotFoundError) as exc:
        print(f"calibsim {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except ClusterLost as exc:
        print(f"calibsim {args.command}: error: {exc}.", file=sys.stderr)
        return EXIT_CLUSTER_LOST
    except OSError as exc:
        print(f"calibsim {args.command}: error: {_os_error_text(exc)}", file=sys.stderr)
        return 2
    except TimeoutError as exc:
        print(f"calibsim {args.command}: error: no answer in time ({exc}); with "
              "`--scheduler`, check its address.", file=sys.stderr)
        return 2


def command() -> None:
    """The ``calibsim`` executable: :func:`main`, then exit with its status.

    Once :func:`main` has returned, Ctrl-C is ignored: the command's work is done, and an
    interrupt while Python ends loky's worker pool would otherwise print a traceback from
    loky's exit handler (or end the process by the signal, status -2). The local worker
    processes are then ended at once (:func:`calibsim.engine.runner.end_local_workers`)
    rather than waited for while each shuts its interpreter down, and the objects left
    are frozen (:func:`gc.freeze`), so that Python's exit does not search them for
    cycles (0.2-0.4 s after a study run; issue 46).

    Raises
    ------
    SystemExit
        Always, with :func:`main`'s status (130 after Ctrl-C).
    """
    import signal
    try:
        code = main()
    except KeyboardInterrupt:           # before a command started (parsing, imports)
        print("calibsim: interrupted", file=sys.stderr, flush=True)
        code = EXIT_INTERRUPTED
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    runner = sys.modules.get("calibsim.engine.runner")    # imported by commands with workers
    if runner is not None:
        runner.end_local_workers()
    import gc
    gc.freeze()           # Python's exit then skips searching the run's objects for cycles
    sys.exit(code)


def _os_error_text(exc: OSError) -> str:
    """One line for an OSError: the file and what went wrong, or the scheduler's message."""
    if getattr(exc, "filename", None) is not None:
        what = exc.strerror or type(exc).__name__
        return (f"cannot use {str(exc.filename)!r}: {what} "
                f"({type(exc).__name__}); check the path given on the command line.")
    text = str(exc)
    if text.startswith("`--scheduler`"):
        return text + "."
    return f"{type(exc).__name__}: {text}."

