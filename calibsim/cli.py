"""The ``calibsim`` command.

``calibsim run STUDY``        run a study file (with a progress bar), then write its
                               tables, figures and report;
``calibsim report STUDY``     redo tables, figures and report from saved scores;
``calibsim calibrate ...``    calibrate one named test for a given α, folds and runs.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

__all__ = ["main"]


def _positive_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer; got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1; got {value}")
    return value


def _nonneg_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer; got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be an integer >= 0; got {value}")
    return value


def _alpha(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number; got {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must lie in the open interval (0, 1); got {value}")
    return value


def _add_execution(p):
    p.add_argument("--workers", type=_nonneg_int, default=None,
                   help="local Dask workers (default: all cores; 0 = no Dask, run here)")
    p.add_argument("--scheduler", default=None,
                   help="address of an existing Dask scheduler (tcp://host:port)")
    p.add_argument("--no-progress", action="store_true", help="do not show a progress bar")


def _parser():
    parser = argparse.ArgumentParser(prog="calibsim", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="run a study file and write its outputs")
    run.add_argument("study", type=Path, help="study file, e.g. studies/bouckaert2003_figure2.toml")
    run.add_argument("--n-datasets", type=_positive_int, default=None,
                     help="override the number of data sets (for a quick look)")
    run.add_argument("--results", type=Path, default=None, help="override the results folder")
    run.add_argument("--outputs", type=Path, default=None,
                     help="override the figures and tables folder")
    _add_execution(run)

    rep = sub.add_parser("report", help="redo tables, figures and report from saved scores")
    rep.add_argument("study", type=Path)
    rep.add_argument("--results", type=Path, default=None)
    rep.add_argument("--outputs", type=Path, default=None)
    rep.add_argument("--n-datasets", type=_positive_int, default=None)

    cal = sub.add_parser("calibrate", help="calibrate one test's df on simulated null data")
    cal.add_argument("--test", required=True, help="test name, e.g. use_all_data")
    cal.add_argument("--alpha", type=_alpha, action="append",
                     help="significance level (repeatable; default 0.05)")
    cal.add_argument("--folds", type=_positive_int, default=10, help="k (default 10)")
    cal.add_argument("--runs", type=_positive_int, default=10,
                     help="r runs, or n subsamples for resampling tests (default 10)")
    cal.add_argument("--n-datasets", type=_positive_int, default=1000)
    cal.add_argument("--n-instances", type=_positive_int, default=300)
    cal.add_argument("--n-attributes", type=_positive_int, default=10)
    cal.add_argument("--class-prior", type=_alpha, default=0.5)
    cal.add_argument("--test-fraction", type=_alpha, default=0.1,
                     help="test share of the resampling splits (default 0.1)")
    cal.add_argument("--df-max", type=_positive_int, default=100)
    cal.add_argument("--seed", type=_nonneg_int, default=20030821)
    cal.add_argument("--results", type=Path, default=Path("results/calibrate"))
    _add_execution(cal)
    return parser


def _progress_bar(enabled, desc):
    if not enabled:
        return None, lambda: None
    from tqdm import tqdm
    bar = tqdm(total=None, desc=desc, unit="data set", file=sys.stderr)

    def update(done, total):
        bar.total = total
        bar.n = done
        bar.refresh()
    return update, bar.close


def _override(study, args):
    changes = {}
    if getattr(args, "n_datasets", None):
        changes["n_datasets"] = args.n_datasets
    if getattr(args, "results", None):
        changes["results_dir"] = args.results
    if getattr(args, "outputs", None):
        changes["figures_dir"] = changes["tables_dir"] = args.outputs
    return replace(study, **changes) if changes else study


def _discussion(study_path: Path, name: str):
    path = study_path.parent / f"{name}_discussion.md"
    return path.read_text(encoding="utf-8") if path.is_file() else None


def _study_kind(path: Path) -> str:
    import tomllib
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"study file {path} is not valid TOML: {exc}") from exc
    return doc.get("study", {}).get("kind", "calibration")


def _cmd_run(args):
    from .report import calibration_table, write_outputs
    from .study import load_study, run_study

    kind = _study_kind(args.study)
    if kind == "epsilon_point":          # Dietterich (1998) simulation: see calibsim.dietterich
        from .dietterich import run_study_file
        paths = run_study_file(args.study, outputs=args.outputs, n_trials=args.n_datasets,
                               progress=not args.no_progress)
        for path in paths.values():
            print(f"wrote {path}")
        return 0
    other = {"null_learners": "null_learners",        # Dietterich's tests, real learners
             "bouckaert2003_table": "bouckaert2003",  # Bouckaert (2003) Tables 2, 4-7, Figure 4
             "ban_accuracy": "ban_search"}            # Bouckaert (2003) Table 3
    if kind in other:
        import importlib
        run_file = importlib.import_module(f".{other[kind]}", __package__).run_study_file
        update, close = _progress_bar(not args.no_progress, args.study.stem)
        try:
            paths = run_file(args.study, outputs=args.outputs,
                             n_datasets=args.n_datasets, scheduler=args.scheduler,
                             n_workers=args.workers, progress=update)
        finally:
            close()
        for path in paths.values():
            print(f"wrote {path}")
        return 0
    study = _override(load_study(args.study), args)
    t0 = time.perf_counter()
    update, close = _progress_bar(not args.no_progress, study.name)
    seen = []

    def progress(done, total):
        seen.append(done)
        if update is not None:
            update(done, total)
    try:
        scores = run_study(study, scheduler=args.scheduler, n_workers=args.workers,
                           progress=progress)
    finally:
        close()
    n_new = study.n_datasets - seen[0]
    t_scores = time.perf_counter() - t0
    table = calibration_table(study, scores)
    wall = time.perf_counter() - t0
    paths = write_outputs(study, scores, table, wall_seconds=wall, n_computed=n_new,
                          discussion=_discussion(args.study, study.name))
    print(f"{study.name}: scores in {t_scores:.1f} s ({n_new} of {study.n_datasets} data "
          f"sets computed now), total {wall:.1f} s.")
    _print_alpha05(table)
    for key in ("report", "md", "csv", "figure.png", "figure.pdf"):
        if key in paths:
            print(f"wrote {paths[key]}")
    return 0


def _print_alpha05(table):
    import numpy as np
    sub = table[np.isclose(table["alpha"], 0.05)]
    if sub.empty:
        return
    wide = sub.pivot(index="label", columns="n_runs", values="calibrated_df")
    wide = wide.loc[list(dict.fromkeys(sub["label"]))]
    print("calibrated df at alpha = 0.05 (rows: test, columns: runs)")
    print(wide.to_string())


def _cmd_report(args):
    from .report import calibration_table, write_outputs
    from .study import load_scores, load_study

    study = _override(load_study(args.study), args)
    scores = load_scores(study)
    table = calibration_table(study, scores)
    paths = write_outputs(study, scores, table, discussion=_discussion(args.study, study.name))
    _print_alpha05(table)
    print(f"wrote {paths['report']}")
    return 0


def _cmd_calibrate(args):
    from .report import calibration_table
    from .schemes import RandomSubsampling, RepeatedStratifiedKFold
    from .sources import NullSource
    from .stats import get_test
    from .study import CalibrationStudy, run_study

    spec = get_test(args.test)       # unknown names raise ValueError listing the known ones
    if args.runs < 2 or args.folds < 2:
        raise ValueError(f"`--runs` and `--folds` must be integers >= 2; got "
                         f"{args.runs} and {args.folds}.")
    if args.df_max < 2:
        raise ValueError(f"`--df-max` must be an integer >= 2; got {args.df_max}.")
    alphas = tuple(args.alpha or [0.05])
    source = NullSource(n_instances=args.n_instances, n_attributes=args.n_attributes,
                        class_prior=args.class_prior)
    sub = (RandomSubsampling(n_runs=args.runs, test_fraction=args.test_fraction)
           if spec.scheme == "subsampling" else None)
    name = f"calibrate_k{args.folds}"
    study = CalibrationStudy(
        name=name, seed=args.seed, n_datasets=args.n_datasets, source=source,
        learners=("naive_bayes", "c45"),
        cv=RepeatedStratifiedKFold(n_folds=args.folds, n_runs=args.runs),
        subsampling=sub, runs=(args.runs,), alphas=alphas, tests=(spec.name,),
        df_min=2, df_max=args.df_max, results_dir=args.results / name)
    update, close = _progress_bar(not args.no_progress, f"calibrate {spec.name}")
    try:
        scores = run_study(study, scheduler=args.scheduler, n_workers=args.workers,
                           progress=update)
    finally:
        close()
    table = calibration_table(study, scores)
    cols = ["label", "n_runs", "n_folds", "alpha", "default_df", "type1_default",
            "calibrated_df", "df_boot_se", "type1_error", "mc_se", "ci_low", "ci_high",
            "n_datasets"]
    print(table[cols].to_string(index=False, float_format=lambda v: f"{v:.4g}"))
    return 0


def main(argv=None) -> int:
    """Entry point of the ``calibsim`` command; returns the exit status."""
    args = _parser().parse_args(argv)
    handler = {"run": _cmd_run, "report": _cmd_report, "calibrate": _cmd_calibrate}[args.command]
    try:
        return handler(args)
    except (ValueError, FileNotFoundError) as exc:
        print(f"calibsim {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except (OSError, TimeoutError) as exc:     # e.g. no Dask scheduler at `--scheduler`
        print(f"calibsim {args.command}: error: could not run on Dask "
              f"({type(exc).__name__}: {exc}); check `--scheduler`.", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
