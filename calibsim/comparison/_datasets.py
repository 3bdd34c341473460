"""Several learners over several data sets: ``calibsim.compare_datasets``."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

__all__ = ["compare_datasets"]


def compare_datasets(estimators, datasets, *, design="5x2cv", test=None,
                     posthoc="bergmann_hommel", alpha=0.05, random_state=0, n_jobs=None,
                     scheduler=None, progress=True, method="frequentist", rope=0.0,
                     rho=None, threshold=0.95):
    """Several learners on several data sets, handed over to Friedman, a post-hoc
    procedure and Multi²Test (:func:`calibsim.ranking.rank`).

    Each learner is fitted on the same partitions of each data set (one
    ``SeedSequence(random_state)`` per data set, keyed by its position).

    Parameters
    ----------
    estimators : sequence or dict of estimator or str
        Two or more learners, as for :func:`calibsim.compare`, from the
        cheapest to the costliest (the prior order of Multi²Test); a dict gives labels.
    datasets : sequence or dict of calibsim.datasets.Dataset
        Two or more data sets (a dict gives their names).
    design : str, default "5x2cv"
        As for :func:`calibsim.compare`. With "5x2cv" the per-fold accuracies
        go to MultiTest on each data set (one-sided 5x2cv F tests, Ulaş et al. 2012);
        with any other design the data sets' mean accuracies are ranked.
    test : str, optional
        MultiTest's pairwise test on each data set's per-fold accuracies: any
        registered test that fits the design (see :func:`calibsim.rank`'s
        ``pairwise_test``), e.g. ``"corrected_repeated_cv"`` for r x k cv. Default:
        the 5x2cv F test for "5x2cv", else the data sets' mean accuracies are ranked.
    posthoc : {"bergmann_hommel", "shaffer", "holm", "nemenyi"}
    alpha : float, default 0.05
    random_state, n_jobs, scheduler, progress
        As for :func:`calibsim.compare` (a bar per data set).
    method : {"frequentist", "bayes"}, default "frequentist"
        "bayes" adds the hierarchical Bayesian test (Corani et al. 2017) of every pair
        on the per-fold accuracies (cv designs; ρ = 1/k by default) or the Bayesian
        signed-rank test on the mean accuracies (subsampling), see
        :func:`calibsim.rank`.
    rope, rho, threshold : float
        The Bayesian tests' ROPE (accuracy units), correlation and decision threshold.

    Returns
    -------
    calibsim.ranking.RankingResult
        ``print(result)`` gives Friedman's test, the significant pairs, the groups and
        the Multi²Test order; ``result.plot_cd_diagram()`` draws the CD diagram.
        :func:`accuracy_table` gives the accuracies themselves.

    Raises
    ------
    ValueError
        With fewer than two learners or data sets, for an invalid design, or a test
        that does not fit it (the message names the designs it fits).
    """
    from ..engine.scoring import parse_design
    d = parse_design(design)
    _refuse_nested(d)
    if test is not None and test != "paired_t":          # refuse before any fitting
        from ..ranking._rank import registry_pairwise
        from ..stats import check_fits_design
        if d.kind == "holdout":
            check_fits_design(test, "per-fold scores", d.n_runs, d.n_folds, d.name)
        registry_pairwise(test, int(np.prod(d.shape)), d.n_folds or None, alpha)
    table = accuracy_table(estimators, datasets, design=design, random_state=random_state,
                           n_jobs=n_jobs, scheduler=scheduler, progress=progress)
    res = rank_accuracies(table, design=design, posthoc=posthoc, alpha=alpha, test=test,
                          method=method, rope=rope, rho=rho, threshold=threshold,
                          random_state=random_state)
    from dataclasses import replace

    from ..reports._words import call_text
    from ._report import learners_text
    call = call_text("compare_datasets", [learners_text(estimators), "datasets"],
                     {"design": design, "posthoc": posthoc, "alpha": alpha,
                      "random_state": random_state, **({"test": test} if test else {}),
                      **({"method": method, "rope": rope, "rho": rho, "threshold": threshold}
                         if method == "bayes" else {})})
    return replace(res, provenance={"seed": random_state, "call": call,
                                    "data": design_data_text(design)})


def design_data_text(design) -> str:
    """The design run on each data set, in words, for a report."""
    from ._report import design_words
    from ..engine.scoring import parse_design
    return (f"{design_words(parse_design(design))}, every learner on the same partitions "
            "of a data set")


def rank_accuracies(table, *, design="5x2cv", posthoc="bergmann_hommel", alpha=0.05,
                    test=None, method="frequentist", rope=0.0, rho=None, threshold=0.95,
                    random_state=0):
    """:func:`calibsim.rank` on an :func:`accuracy_table`: per-fold scores for 5x2 cv (so
    Multi²Test's 5x2cv F applies), with a pairwise ``test`` and, with ``method="bayes"``,
    for r x k cv (so the hierarchical test and the corrected repeated cv t apply), mean
    accuracies otherwise;
    learners in table order."""
    from ..ranking import rank
    from ..engine.scoring import parse_design
    learners = list(dict.fromkeys(table["learner"]))
    table = table[["dataset", "learner", "fold", "accuracy"]]
    bayes = {"method": method, "rope": rope, "rho": rho, "threshold": threshold,
             "random_state": random_state}
    d = parse_design(design)
    if test is not None:
        return rank(table, score="accuracy", cost=learners, posthoc=posthoc, alpha=alpha,
                    pairwise_test=test, folds_per_run=d.n_folds or None, **bayes)
    if "fold" in table and design == "5x2cv":
        return rank(table, score="accuracy", cost=learners, posthoc=posthoc,
                    alpha=alpha, **bayes)
    d = parse_design(design)
    if "fold" in table and method == "bayes" and d.kind == "cv":
        return rank(table, score="accuracy", cost=learners, posthoc=posthoc, alpha=alpha,
                    pairwise_test="corrected_repeated_cv", folds_per_run=d.n_folds, **bayes)
    means = table.groupby(["dataset", "learner"], sort=False)["accuracy"].mean().reset_index()
    return rank(means, score="accuracy", cost=learners, posthoc=posthoc,
                alpha=alpha, **bayes)


def _refuse_nested(d) -> None:
    """A nested design's inner splits, and a bootstrap design's samples, are not folds to
    rank accuracies on."""
    if d.kind == "bootstrap":
        raise ValueError(f"`design` {d.name!r} is the bootstrap cv design, for the "
                         "bootstrap_cv test on one data set (calibsim.compare(..., "
                         "test='bootstrap_cv')); ranking over data sets takes per-fold "
                         "accuracies of r x k cv, e.g. '5x2cv' or '10x10'.")
    if d.kind == "nested":
        raise ValueError(f"`design` {d.name!r} is a nested cv design, for the NCV test on one "
                         "data set (calibsim.compare(..., test='ncv')); ranking over data sets "
                         "takes per-fold accuracies of r x k cv, e.g. '5x2cv' or '10x10'.")


def accuracy_table(estimators, datasets, *, design="5x2cv", random_state=0, n_jobs=None,
                   scheduler=None, progress=True) -> pd.DataFrame:
    """Per-fold accuracies of every learner on every data set, one row each.

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset, learner, fold, run, fold_in_run, accuracy`` (accuracy in
        [0, 1]; ``fold`` numbered run-major, ``run * k + fold_in_run``). A data set
        on which a learner fails is left out with a :class:`DataSetFailed` warning
        naming the learner, the data set and the reason.

    Raises
    ------
    ValueError
        If fewer than two data sets could be scored.
    """
    from ..engine.scoring import accuracies, learner_items, parse_design, parse_learner
    from ..engine.scoring import unique_labels as _unique
    items = learner_items(estimators)
    sets = list(datasets.items()) if isinstance(datasets, dict) else [
        (getattr(d, "name", f"data{i}"), d) for i, d in enumerate(datasets)]
    if len(sets) < 2:
        raise ValueError(f"`datasets` must hold at least two data sets; got {len(sets)}.")
    learners = [parse_learner(e, "x") for _, e in items]
    names = _unique([k if k is not None else lrn.label for (k, _), lrn in zip(items, learners)])
    d = parse_design(design)
    _refuse_nested(d)
    from .._validation import check_random_state
    root = check_random_state("random_state", random_state)
    root = root if isinstance(root, np.random.SeedSequence) else np.random.SeedSequence(root)
    from ..engine.learners import LearnerFailed
    frames, failed = [], []
    for i, (name, ds) in enumerate(sets):
        try:
            acc = accuracies(learners, ds, None, d, np.random.SeedSequence(
                                 root.entropy, spawn_key=tuple(root.spawn_key) + (2, i)), 1,
                             n_jobs=n_jobs, scheduler=scheduler, progress=progress,
                             what=f"data set {name}")[0]
        except LearnerFailed as exc:        # keep the other data sets' work
            failed.append(str(LearnerFailed(exc.learner, exc.reason, name)))
            warnings.warn(f"{failed[-1]} Data set {name!r} is left out.", DataSetFailed,
                          stacklevel=2)
            continue
        flat = acc.reshape(len(learners), -1)
        run, fold = np.divmod(np.arange(flat.shape[1]), max(d.n_folds, 1))
        for j, lab in enumerate(names):
            frames.append(pd.DataFrame({"dataset": name, "learner": lab,
                                        "fold": np.arange(flat.shape[1]), "run": run,
                                        "fold_in_run": fold, "accuracy": flat[j]}))
    if len(frames) < 2 * len(names):
        raise ValueError(f"fewer than two data sets could be scored: {' '.join(failed)}")
    return pd.concat(frames, ignore_index=True)


class DataSetFailed(UserWarning):
    """A learner failed on one data set of several; that data set was left out."""
