"""``calibsim rank``: Friedman, a post-hoc procedure and Multi²Test on a table of scores."""

from __future__ import annotations

import argparse
from pathlib import Path

from ._args import add_report, command_line, input_file, output_file

__all__ = ["add_parser", "run"]

_DESCRIPTION = """\
Compare learners over many data sets. The scores come from a CSV file, either long
(columns dataset, learner, score or accuracy, optionally fold and cost) or wide
(first column the data set, one column per learner), or from a study's saved scores.
Prints Friedman's test, the post-hoc procedure's significant pairs and the groups it
cannot separate, and the Multi²Test order (Ulaş, Yıldız & Alpaydın 2012), which
breaks ties by a prior cost: a cost column, --prior-order, or the table's order.
"""


def add_parser(subparsers):
    """Register ``calibsim rank`` on an ``argparse`` subparsers object."""
    from ._args import alpha_type as _alpha
    p = subparsers.add_parser("rank", help="rank learners over data sets: Friedman, "
                              "post-hoc, Multi²Test order, CD diagram",
                              description=_DESCRIPTION,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--scores", type=input_file, help="CSV file of scores (long or wide)")
    src.add_argument("--study", type=Path, help="a study file whose saved scores to rank "
                     "(each data set of each source is one data set)")
    p.add_argument("--scheme", default=None, help="with --study: the scheme (default: the "
                   "only one)")
    p.add_argument("--study-cost", choices=("fit_time", "predict_time", "model_size"),
                   default=None, help="with --study: the prior cost")
    p.add_argument("--score-column", default=None,
                   help="score column of a long table (default: score, accuracy or error)")
    p.add_argument("--lower-is-better", action="store_true",
                   help="scores are errors or losses (default: higher is better)")
    p.add_argument("--cost-column", default=None,
                   help="cost column for the prior order (default: 'cost' if present)")
    p.add_argument("--prior-order", default=None,
                   help="comma-separated learners from cheapest to costliest (instead of a "
                        "cost column)")
    p.add_argument("--posthoc", default="bergmann_hommel",
                   choices=("bergmann_hommel", "shaffer", "holm", "nemenyi"),
                   help="post-hoc procedure after Friedman's test (default bergmann_hommel, "
                        "as Ulaş et al. 2012)")
    p.add_argument("--alpha", type=_alpha, default=0.05,
                   help="level of Friedman's test, the post-hoc procedure and MultiTest "
                        "(default 0.05)")
    p.add_argument("--pairwise-test", default=None,
                   help="MultiTest's test with per-fold scores (default: cv5x2_f for 5x2 cv; "
                        "corrected_repeated_cv, Bouckaert & Frank's corrected t, for r x k "
                        "cv with --study; paired_t treats folds as independent and rejects "
                        "too often; any registered test that fits the folds, see calibsim "
                        "list tests)")
    from ._args import int_type
    p.add_argument("--folds-per-run", type=int_type(2), default=None,
                   help="k for an r x k cv --pairwise-test (e.g. corrected_repeated_cv) with "
                        "--scores (a study knows its own)")
    p.add_argument("--no-tie-correction", action="store_true",
                   help="Friedman's statistic without the tie correction (Demšar 2006's "
                        "formula, as papers following him used); default: tie-corrected, "
                        "as scipy's friedmanchisquare and R's friedman.test")
    p.add_argument("--correction", default="bonferroni", choices=("bonferroni", "holm", "none"),
                   help="MultiTest's correction with per-fold scores")
    p.add_argument("--cd-diagram", type=output_file, default=None, help="write the CD diagram here "
                   "(.png, .pdf or .svg)")
    p.add_argument("--graph", type=output_file, default=None,
                   help="write the Multi²Test graph here")
    p.add_argument("--markdown", action="store_true", help="print Markdown instead of text")
    add_report(p, "Friedman's test, the post-hoc procedure's adjusted p-values (learner x "
                  "learner), effect sizes against the best, the CD diagram, the Multi²Test "
                  "order")
    p.add_argument("--method", choices=("frequentist", "bayes"), default="frequentist",
                   help="'bayes': also a Bayesian test on every pair: the hierarchical test "
                        "(Corani et al. 2017) when the table has per-fold scores (a fold "
                        "column; needs calibsim[bayes]), else the Bayesian signed-rank test "
                        "(Benavoli et al. 2014) on the mean scores; with --rope")
    p.add_argument("--rope", type=float, default=0.0,
                   help="with --method bayes: region of practical equivalence in score units "
                        "(e.g. 0.01 = 1 point of accuracy; default 0)")
    p.add_argument("--rho", type=float, default=None,
                   help="with --method bayes and per-fold scores: the correlation of the "
                        "folds (default 1/k, k = --folds-per-run, or the number of folds "
                        "when not given; a calibrated rho may be given)")
    p.add_argument("--threshold", type=float, default=0.95,
                   help="with --method bayes: posterior probability needed for a decision "
                        "(default 0.95)")
    p.add_argument("--posterior-plot", type=output_file, default=None,
                   help="with --method bayes: write the posterior here: the simplex of the "
                        "hierarchical test (one file per pair, suffixed _<a>_vs_<b> when "
                        "there are several) or the signed-rank probabilities per pair")
    return p


def _table(args):
    import pandas as pd
    if args.study is not None:
        from ..engine import load_scores, load_study
        from ..ranking import scores_from_study
        study = load_study(args.study)
        return scores_from_study(load_scores(study), scheme=args.scheme, cost=args.study_cost)
    if not args.scores.is_file():
        raise FileNotFoundError(f"`--scores` {str(args.scores)!r} is a folder; give a CSV "
                                "file of scores.")
    from ..datasets._csv import _refuse_duplicate_headers, _refuse_nul
    _refuse_nul(args.scores)
    try:
        frame = pd.read_csv(args.scores, encoding="utf-8")
        _refuse_duplicate_headers(args.scores, f"`--scores` {str(args.scores)!r}")
    except UnicodeDecodeError as exc:
        raise ValueError(f"`--scores` {str(args.scores)!r} is not UTF-8 text (byte "
                         f"{exc.start}: {exc.reason}).") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
        raise ValueError(f"`--scores` {str(args.scores)!r} cannot be read as CSV: "
                         f"{str(exc).strip()}") from None
    if "dataset" not in frame.columns or "learner" not in frame.columns:
        frame = frame.set_index(frame.columns[0])          # wide: first column = data set
    return frame


def _has_folds(table) -> bool:
    return "fold" in getattr(table, "columns", ()) and "dataset" in table.columns


def _write_posteriors(res, path):
    """The posterior plot(s) of ``rank --method bayes``: one simplex per pair for the
    hierarchical test (suffixed when several), one bar chart for the signed-rank test."""
    import matplotlib.pyplot as plt
    path.parent.mkdir(parents=True, exist_ok=True)
    pairs = list(res.bayesian)
    hier = hasattr(res.bayesian[pairs[0]], "shrunk_means")
    targets = [(None, path)] if not hier else [
        (pair, path if len(pairs) == 1 else
         path.with_name(f"{path.stem}_{pair[0]}_vs_{pair[1]}{path.suffix}")) for pair in pairs]
    for pair, out in targets:
        fig = res.plot_posterior(pair)
        fig.savefig(out, dpi=150)
        plt.close(fig)
        print(f"wrote {out}")


def _study_design(args):
    """(pairwise test, k) that fit a study's scheme: 5x2 cv -> cv5x2_f; r x k cv -> the
    corrected repeated cv t with k (Bouckaert & Frank 2004: it replicates best)."""
    if args.study is None:
        return None, None
    from ..engine import load_study
    study = load_study(args.study)
    schemes = [s for s in study.schemes if args.scheme in (None, s.name)]
    if len(schemes) == 1 and schemes[0].kind == "repeated_kfold":
        return "corrected_repeated_cv", int(schemes[0].p["n_folds"])
    return None, None


def run(args) -> int:
    """Run ``calibsim rank``; returns the exit status (errors raise ``ValueError``)."""
    from ..ranking import rank
    table = _table(args)
    test, k = _study_design(args)
    if args.pairwise_test is None and test is not None:
        print(f"pairwise test: {test} with k = {k} folds per run (the study's r x k cv; "
              "Bouckaert & Frank's corrected t replicates best, the plain paired t on "
              "dependent folds rejects too often)")
    has_folds = args.study is not None or "fold" in table.columns
    if not has_folds:
        for flag, value in (("--pairwise-test", args.pairwise_test),
                            ("--folds-per-run", args.folds_per_run)):
            if value is not None:
                raise ValueError(f"`{flag}` needs per-fold scores (a long table with columns "
                                 "dataset, learner, fold and the score); this table has one "
                                 f"score per data set and learner, so {flag} {value} would "
                                 "be ignored.")
    if args.pairwise_test is None and test is None and args.folds_per_run is not None \
            and args.folds_per_run != 2:
        test = "corrected_repeated_cv"        # r x k cv: MultiTest's corrected t (k given)
    pairwise = args.pairwise_test or test or "cv5x2_f"
    k = args.folds_per_run or k
    cost = args.cost_column
    if args.prior_order is not None:
        if cost is not None:
            raise ValueError("give either `--cost-column` or `--prior-order`, not both.")
        cost = [x.strip() for x in args.prior_order.split(",") if x.strip()]
    elif cost is None and "dataset" in table.columns and "cost" in table.columns:
        cost = "cost"
    if cost is None:
        order = (list(dict.fromkeys(table["learner"])) if "learner" in table.columns
                 else list(table.columns))
        print(f"no cost column and no --prior-order: Multi²Test breaks ties by the table's "
              f"learner order, cheapest first: {', '.join(map(str, order))} (give "
              "--prior-order or --cost-column to change it)")
    bayes = {}
    if args.method == "bayes":
        bayes = {"method": "bayes", "rope": args.rope, "rho": args.rho,
                 "threshold": args.threshold}
        n = table["fold"].nunique() if _has_folds(table) else 0
        if args.rho is None and n and k is None and "run" not in table.columns \
                and not (n == 10 and pairwise.startswith("cv5x2")):
            print(f"hierarchical test: rho = 1/{n}, taking each data set's {n} folds as one "
                  "run of cv; give --folds-per-run k for r runs of k-fold cv (rho = 1/k) "
                  "or --rho")
    try:
        res = rank(table, score=args.score_column, higher_is_better=not args.lower_is_better,
                   cost=cost, posthoc=args.posthoc, alpha=args.alpha, pairwise_test=pairwise,
                   correction=args.correction, folds_per_run=k,
                   tie_correction=not args.no_tie_correction, **bayes)
    except (ValueError, TypeError) as exc:   # name the CLI flags, not the Python keywords
        text = str(exc)
        for kw, flag in (("pairwise_test=", "--pairwise-test "), ("`pairwise_test`", "--pairwise-test"),
                         ("folds_per_run=", "--folds-per-run "), ("`folds_per_run`", "--folds-per-run"),
                         ("`cost`", "--cost-column/--prior-order"), ("`alpha`", "--alpha"),
                         ("`posthoc`", "--posthoc"), ("`score`", "--score-column"),
                         ("`rope`", "--rope"), ("`rho`", "--rho"), ("`threshold`", "--threshold")):
            text = text.replace(kw, flag)
        raise ValueError(text) from None
    print(res.to_markdown() if args.markdown else res)
    if args.method == "bayes" and args.posterior_plot is not None:
        _write_posteriors(res, args.posterior_plot)
    pairs = res.bayesian_frame() if getattr(res, "bayesian", None) else None
    for path, draw in ((args.cd_diagram, res.plot_cd_diagram), (args.graph, res.plot_graph)):
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            draw().figure.savefig(path, dpi=150)
            print(f"wrote {path}")
    if args.report is not None:
        from dataclasses import replace
        prov = {**(res.provenance or {}), "command": command_line(args)}
        if args.study is not None:
            prov["data"] = f"the saved scores of {args.study}"
        written = replace(res, provenance=prov)._report(bayes_pairs=pairs).save(args.report)
        print("wrote " + ", ".join(str(p) for p in written))
    return 0
