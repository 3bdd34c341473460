"""The scores you already have: :func:`compare_scores` tests per-fold results without refitting."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..engine.scoring import Design, parse_design
from ._compare import CompareResult, _result, _setup

__all__ = ["compare_scores", "read_fold_scores"]

#: Score columns looked for, in this order, when ``score`` is not given.
_SCORE_COLUMNS = ("score", "accuracy", "test_score", "test_accuracy")

#: Weka Experimenter's CSV output (Key_Run, Key_Fold, Key_Scheme, Percent_correct).
_WEKA = {"Key_Run": "run", "Key_Fold": "fold", "Key_Scheme": "learner"}


def compare_scores(scores_a, scores_b=None, *, design=None, test=None, alpha=0.05,
                   df="calibrated", method="frequentist", rope=0.0, threshold=0.95,
                   rho="calibrated", replicability="bootstrap", n_boot=1000,
                   random_state=0, labels=None, learners=None, score=None,
                   metric="accuracy", scoring=None) -> CompareResult:
    """Test two learners' per-fold scores you already have, at the calibrated df.

    The same test, df and result as :func:`calibsim.compare`, on scores from
    ``cross_validate``, a long deep-learning run or Weka's Experimenter, without
    refitting anything: ``compare_scores(res.scores, design=res.design)`` gives back
    ``res`` (all but the partitions, which the scores do not hold).

    Parameters
    ----------
    scores_a, scores_b : array_like, pandas.DataFrame or dict
        Accuracies in [0, 1] (any score whose differences the test should judge) of
        learners A and B on the same splits, as

        - arrays of shape (r, k) (run, fold), (n,) for subsampling, or the r·k
          scores flattened run by run (the order of scikit-learn's repeated
          splitters) with ``design`` saying r and k;
        - the dicts scikit-learn's ``cross_validate`` returns (their
          ``"test_score"``, or ``"test_accuracy"`` with several scorers), in the
          splitter's order;
        - DataFrames with columns ``run``, ``fold`` and a score column, one per
          learner; or ``scores_b=None`` and one long DataFrame with columns ``run,
          fold, learner`` and a score column (two learners, or pick two with
          ``learners``), or the wide table of ``compare(...).scores`` (``run, fold,
          accuracy_a, accuracy_b``), or Weka Experimenter's CSV read with pandas
          (``Key_Run, Key_Fold, Key_Scheme, Percent_correct``, percent divided by 100).
    design : str or splitter, optional
        ``"RxK"``, ``"5x2cv"``, ``"subsampling:N"`` (``"subsampling:N@f"`` for a test
        share f), or the splitter that made the scores (scikit-learn's
        ``RepeatedStratifiedKFold``, ``RepeatedKFold``, ``StratifiedKFold``,
        ``KFold``, ``ShuffleSplit`` and ``StratifiedShuffleSplit`` with a float
        ``test_size``, an int k, or calibsim's schemes). Default: r x k from the
        table's runs and folds, or from an (r, k) array.
    test, alpha, df, method, rope, threshold, rho
        As for :func:`calibsim.compare`. McNemar's and the proportions test need each
        instance's predictions, not per-fold scores: use ``compare(...,
        design="holdout")``.
    replicability : {"bootstrap", None}, default "bootstrap"
        As for :func:`calibsim.compare` ("rerun" needs new partitions, hence fits).
    n_boot : int, default 1000
    random_state : int or SeedSequence, default 0
        Seed of the bootstrap.
    labels : (str, str), optional
        Names of A and B; default the table's learner names, the dicts' estimator
        names, or "a" and "b".
    learners : (str, str), optional
        The two learners of a long table with more than two (with compare's wide
        table: their names).
    score : str, optional
        The score column of a table (default the first of "score", "accuracy",
        "test_score", "test_accuracy"; Weka's "Percent_correct").
    metric : str, default "accuracy"
        What the scores measure. Accuracy is taken as a fraction when every score
        lies in [0, 1] and as a percentage (divided by 100) when every score lies in
        [0, 100] and one exceeds 1; the result's ``splitter`` says which. Scores
        outside both are refused. Another metric (e.g. ``"auc"``, ``"f1"``) is tested
        as given, with a note that the shipped df were calibrated on accuracy.
    scoring : str, optional
        The scikit-learn scorer name the scores are of (:data:`calibsim.metrics.METRICS`,
        as :func:`calibsim.compare`'s ``scoring``; greater is better, losses negated as
        ``cross_validate`` gives them). It takes the place of ``metric``: the result's
        ``scoring`` names it, its report prints it in its units, and the df is the
        metric's own calibrated df where the shipped table has one, else accuracy's
        (``result.df_source`` says which). From a ``cross_validate`` dict with several
        scorers it reads ``test_<scoring>``.

    Returns
    -------
    CompareResult
        As from :func:`calibsim.compare`, with ``test_masks`` None and ``splitter``
        saying what is known of the splits.

    Raises
    ------
    ValueError
        If the scores are not finite, accuracies lie outside [0, 1] and [0, 100],
        ``metric`` is not a non-empty string, their shapes differ or do not fit the design,
        a table lacks a column or a (run, fold), the design cannot be read from the
        input (give ``design``), or the test does not fit the design (the message
        names the designs it fits).

    See Also
    --------
    calibsim.rank : over several data sets, :func:`calibsim.rank` already takes a
        table of scores (long or wide) and needs no refitting either.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> a = 0.80 + 0.03 * rng.standard_normal((10, 10))
    >>> b = a - 0.02 + 0.01 * rng.standard_normal((10, 10))
    >>> res = compare_scores(a, b, labels=("svm", "tree"))
    >>> res.design, res.test, bool(res.reject), res.better
    ('10x10', 'corrected_repeated_cv', True, 'svm')

    From ``cross_validate`` with the splitter that made the scores:

    >>> from sklearn.model_selection import RepeatedStratifiedKFold, cross_validate
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn.datasets import load_breast_cancer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0)
    >>> nb = cross_validate(GaussianNB(), X, y, cv=cv)
    >>> tree = cross_validate(DecisionTreeClassifier(random_state=0), X, y, cv=cv)
    >>> res = compare_scores(nb, tree, design=cv, labels=("nb", "tree"))
    >>> res.design, res.scores.shape
    ('2x5', (10, 5))
    """
    if replicability == "rerun":
        raise ValueError("`replicability` must be 'bootstrap' or None for given scores; "
                         "'rerun' needs new partitions, hence fits (calibsim.compare).")
    if replicability == "bootstrap" and not (isinstance(n_boot, int) and not isinstance(
            n_boot, bool) and 1 <= n_boot <= 10**6):
        raise ValueError(f"`n_boot` must be an integer in [1, 10**6]; got {n_boot!r}.")
    if method not in ("frequentist", "bayes"):
        raise ValueError(f"`method` must be 'frequentist' or 'bayes'; got {method!r}.")
    scorer = _scorer(scoring, metric, scores_a)
    if scorer is not None and score is None and isinstance(scores_a, dict):
        score = f"test_{scorer.name}"
    a, b, names, runs = read_fold_scores(scores_a, scores_b, learners=learners, score=score)
    if scorer is not None and scorer.name != "accuracy":
        scale_note = f"{scorer.title} ({scorer.name}) as given, greater-is-better scores"
    else:
        a, b, scale_note = _on_scale(a, b, metric)
    d, splitter = _design_of(design, a, runs)
    splitter = f"{splitter}; {scale_note}"
    if d.kind == "bootstrap":
        raise ValueError(f"`design` {d.name!r}: the bootstrap of the cv estimate fits on "
                         "bootstrap samples of the data, not on per-fold scores given; use "
                         f"calibsim.compare(..., design={d.name!r}).")
    if d.kind == "holdout":
        raise ValueError("`design` 'holdout': McNemar's and the proportions test need each "
                         "instance's predictions, not per-fold scores; use calibsim.compare"
                         "(..., design='holdout').")
    want = d.shape
    if a.size != int(np.prod(want)):
        raise ValueError(f"the scores must hold {int(np.prod(want))} values per learner for "
                         f"the design {d.name!r} (shape {want}); got {a.size} "
                         f"(shape {a.shape}).")
    a, b = a.reshape(want), b.reshape(want)
    setup = _setup(d, test, alpha, df, replicability, 10, scorer)
    from ..stats import needs_instances
    if needs_instances(setup["spec"]):
        raise ValueError(f"`test` {setup['spec'].name!r} runs on per-instance outcomes: "
                         "the tests of calibsim.stats.INSTANCE_TESTS need each instance's "
                         "outcome of every fit, not per-fold scores; use calibsim.compare "
                         "(it keeps them), or calibsim.stats.cv_clt_test / nested_cv_test "
                         "on your own per-instance outcomes.")
    if method == "bayes":
        from ..stats._bayes import _iv_common
        _iv_common(rope, threshold)
        from ._compare import _bayes_rho
        setup["bayes"] = (rope, threshold, *_bayes_rho(d, rope, threshold, rho))
    if labels is not None:
        if isinstance(labels, str) or len(labels) != 2:
            raise ValueError(f"`labels` must name the two learners, e.g. ('svm', 'tree'); "
                             f"got {labels!r}.")
        names = tuple(str(x) for x in labels)
    if names[0] == names[1]:
        names = (f"{names[0]}_1", f"{names[1]}_2")
    acc = np.stack([a, b])[None]                       # (1 repeat, 2 learners, *shape)
    res = _result(acc, names, setup, replicability, n_boot, random_state, None,
                  splitter=splitter)
    from dataclasses import replace

    from ..reports._words import call_text
    if scorer is not None and scorer.name != "accuracy":
        res = replace(res, scoring=scorer.name, scores=res.scores.rename(
            columns={"accuracy_a": "score_a", "accuracy_b": "score_b"}))
    kw = {"design": d.name, "test": res.test, "alpha": alpha, "df": df}
    if scorer is not None:
        kw["scoring"] = scorer.name
    if method == "bayes":
        kw.update(method=method, rope=rope, threshold=threshold, rho=rho)
    kw.update(replicability=replicability, random_state=random_state)
    return replace(res, provenance={
        "call": call_text("compare_scores", ["scores_a", "scores_b"], kw),
        "seed_words": f"seed of the bootstrap of the runs: {random_state!r}"
                      if replicability == "bootstrap" else "no random numbers are drawn"})


def read_fold_scores(scores_a, scores_b=None, *, learners=None, score=None):
    """Two learners' per-fold scores from arrays, ``cross_validate`` dicts or tables.

    Returns
    -------
    a, b : ndarray
        Finite scores, equal shapes: (r, k) from a table or 2-D arrays, else as given.
    names : (str, str)
    runs : (int, int) or None
        r and k when the input says them (a table's runs and folds, an (r, k) array).

    Raises
    ------
    ValueError
        As :func:`compare_scores`.
    """
    from .._validation import check_finite_array
    if scores_b is None:
        if not isinstance(scores_a, pd.DataFrame):
            raise ValueError("`scores_b` is required unless `scores_a` is one table holding "
                             "both learners (columns run, fold, learner and a score, or "
                             f"accuracy_a and accuracy_b); got {type(scores_a).__name__}.")
        return _from_one_table(scores_a, learners, score)
    if learners is not None:
        raise ValueError("`learners` picks two learners of one long table (scores_b=None).")
    if isinstance(scores_a, pd.DataFrame) and isinstance(scores_b, pd.DataFrame):
        a, runs = _table_matrix(scores_a, "scores_a", score)
        b, runs_b = _table_matrix(scores_b, "scores_b", score)
        if runs != runs_b:
            raise ValueError(f"`scores_a` and `scores_b` must have the same runs and folds; "
                             f"got {runs} and {runs_b} (r, k).")
        return a, b, ("a", "b"), runs
    names = ["a", "b"]
    arrays = []
    for i, (name, x) in enumerate((("scores_a", scores_a), ("scores_b", scores_b))):
        if isinstance(x, dict):
            x, est = _from_cross_validate(name, x, score)
            if est:
                names[i] = est
        elif isinstance(x, pd.DataFrame):
            raise ValueError(f"`{name}` is a table and the other scores are not; give both as "
                             "tables, or both as arrays.")
        arrays.append(check_finite_array(name, x, min_ndim=1))
    a, b = arrays
    if a.shape != b.shape:
        raise ValueError(f"`scores_a` and `scores_b` must have the same shape (the same "
                         f"splits); got {a.shape} and {b.shape}.")
    if a.ndim > 2:
        raise ValueError(f"the scores must be 1-D (n splits) or 2-D (r runs x k folds); got "
                         f"shape {a.shape}.")
    runs = a.shape if a.ndim == 2 else None
    return a, b, tuple(names), runs


def _from_cross_validate(name, result: dict, score=None):
    """``cross_validate``'s test scores and the estimator's class name (if returned);
    ``score`` picks one scorer's of several (``"roc_auc"`` or ``"test_roc_auc"``)."""
    if score is not None:
        key = next((k for k in (score, f"test_{score}") if k in result), None)
        if key is None:
            raise ValueError(f"`{name}` has no scores of {score!r}: cross_validate's dict "
                             f"has keys {sorted(result)} (give scoring= or score= one of its "
                             "scorers, e.g. cross_validate(..., scoring=['accuracy', "
                             "'roc_auc'])).")
        est = result.get("estimator")
        label = type(est[0]).__name__ if est is not None and len(est) else ""
        return np.asarray(result[key], dtype=float), label
    key = next((k for k in ("test_score", "test_accuracy") if k in result), None)
    if key is None:
        raise ValueError(f"`{name}` as a dict must be what scikit-learn's cross_validate "
                         f"returns, with 'test_score' (or 'test_accuracy'); got keys "
                         f"{sorted(result)}.")
    est = result.get("estimator")
    label = type(est[0]).__name__ if est is not None and len(est) else ""
    return np.asarray(result[key], dtype=float), label


def _score_column(frame, score, what):
    if score is not None:
        if score not in frame.columns:
            raise ValueError(f"`score` {score!r} is not a column of {what}; it has "
                             f"{list(frame.columns)}.")
        return score
    found = [c for c in _SCORE_COLUMNS if c in frame.columns]
    if not found:
        raise ValueError(f"{what} needs a score column ({', '.join(_SCORE_COLUMNS)}, or name "
                         f"it with `score`); it has {list(frame.columns)}.")
    return found[0]


def _weka(frame):
    """Weka Experimenter's columns renamed to ours, Percent_correct as accuracy in [0, 1]."""
    if not set(_WEKA) <= set(frame.columns) or "Percent_correct" not in frame.columns:
        return frame
    if "Key_Dataset" in frame.columns and frame["Key_Dataset"].nunique() > 1:
        raise ValueError(f"the table holds {frame['Key_Dataset'].nunique()} data sets; "
                         "compare_scores compares on one (over several, use calibsim.rank).")
    out = frame.rename(columns=_WEKA)
    if "Key_Scheme_options" in frame.columns:
        opts = frame["Key_Scheme_options"].fillna("").astype(str).str.strip()
        out["learner"] = np.where(opts != "", out["learner"].astype(str) + " " + opts,
                                  out["learner"].astype(str))
    out["accuracy"] = pd.to_numeric(frame["Percent_correct"]) / 100.0
    return out


def _table_matrix(frame, what, score):
    """(r, k) scores of one learner's table (run, fold, score), ordered by run then fold."""
    frame = _weka(frame)
    for col in ("run", "fold"):
        if col not in frame.columns:
            raise ValueError(f"{what} needs columns 'run' and 'fold' (and a score); it has "
                             f"{list(frame.columns)}.")
    col = _score_column(frame, score, what)
    dup = frame.duplicated(["run", "fold"])
    if dup.any():
        row = frame.loc[dup, ["run", "fold"]].iloc[0].tolist()
        raise ValueError(f"{what} has more than one score for run {row[0]!r}, fold {row[1]!r}.")
    t = frame.sort_values(["run", "fold"], kind="stable")
    sizes = t.groupby("run", sort=True).size()
    if sizes.nunique() != 1:
        plain = {(k.item() if isinstance(k, np.generic) else k): int(v)
                 for k, v in sizes.items()}                # no np.int64(0) in the message
        raise ValueError(f"{what} must have the same number of folds in every run; got "
                         f"{plain} (run: folds).")
    try:
        values = pd.to_numeric(t[col]).to_numpy(dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"the score column {col!r} of {what} must hold numbers.") from None
    if not np.isfinite(values).all():
        raise ValueError(f"the score column {col!r} of {what} must be finite; got "
                         f"{int((~np.isfinite(values)).sum())} missing or infinite value(s).")
    r, k = len(sizes), int(sizes.iloc[0])
    return values.reshape(r, k), (r, k)


def _from_one_table(frame, learners, score):
    frame = _weka(frame)
    if {"accuracy_a", "accuracy_b"} <= set(frame.columns):        # compare(...).scores
        a, runs = _table_matrix(frame, "the table", "accuracy_a")
        b, _ = _table_matrix(frame, "the table", "accuracy_b")
        names = ("a", "b") if learners is None else tuple(str(x) for x in learners)
        return a, b, names, runs
    if "learner" not in frame.columns:
        raise ValueError("a single table must be long (columns run, fold, learner and a "
                         "score) or compare's wide scores (run, fold, accuracy_a, "
                         f"accuracy_b); it has {list(frame.columns)}.")
    found = list(dict.fromkeys(frame["learner"].astype(str)))
    if learners is None:
        if len(found) != 2:
            raise ValueError(f"the table holds {len(found)} learners {found}; pick two with "
                             "`learners=(a, b)` (or compare them all with calibsim.compare_all "
                             "on your data).")
        learners = found
    if isinstance(learners, str) or len(learners) != 2:
        raise ValueError(f"`learners` must name two learners of the table; got {learners!r}.")
    missing = [x for x in learners if str(x) not in found]
    if missing:
        raise ValueError(f"`learners` {missing} not in the table's learners {found}.")
    names = frame["learner"].astype(str)
    a, runs = _table_matrix(frame[names == str(learners[0])], f"learner {learners[0]!r}", score)
    b, runs_b = _table_matrix(frame[names == str(learners[1])], f"learner {learners[1]!r}",
                              score)
    if runs != runs_b:
        raise ValueError(f"learners {learners[0]!r} and {learners[1]!r} must have the same runs "
                         f"and folds; got {runs} and {runs_b} (r, k).")
    return a, b, (str(learners[0]), str(learners[1])), runs


def _design_of(design, a, runs) -> tuple:
    """(Design, splitter text) of given scores."""
    if design is None:
        if runs is None:
            raise ValueError(f"`design` is needed for {a.size} scores in a row: 'RxK' (r·k "
                             "scores, run by run), 'subsampling:N' or the splitter that made "
                             "them.")
        r, k = runs
        if k < 2:
            raise ValueError(f"the scores have one fold per run ({r} runs); give `design`, "
                             "e.g. 'subsampling:N@0.1' for random train/test splits.")
        d = parse_design(f"{r}x{k}")
        return d, f"not known: scores given ({r} runs x {k} folds)"
    if isinstance(design, (str, Design)):
        d = parse_design(design)
        return d, f"not known: scores given (design {d.name})"
    return _design_of_splitter(design)


def _design_of_splitter(cv) -> tuple:
    """The design of a splitter from its parameters (no data at hand)."""
    from .. import schemes
    from ..engine.scoring import sklearn_name as _sklearn_name
    name = type(cv).__name__
    if isinstance(cv, (int, np.integer)) and not isinstance(cv, bool):
        return parse_design(f"1x{int(cv)}"), f"StratifiedKFold(n_splits={int(cv)}) (cv={cv})"
    if isinstance(cv, schemes.FiveByTwoCV):
        return parse_design("5x2cv"), f"calibsim.schemes.{cv!r}"
    if isinstance(cv, schemes.StratifiedRepeatedCV):
        return parse_design(f"{cv.n_runs}x{cv.n_folds}"), f"calibsim.schemes.{cv!r}"
    if isinstance(cv, schemes.RandomSubsampling):
        return (Design("subsampling", cv.n_runs, 0, cv.test_fraction,
                       name=f"subsampling:{cv.n_runs}@{cv.test_fraction:g}"),
                f"calibsim.schemes.{cv!r}")
    if isinstance(cv, schemes.Holdout):
        return parse_design("holdout"), f"calibsim.schemes.{cv!r}"
    text = _sklearn_name(cv) if hasattr(cv, "split") else repr(cv)
    if name in ("RepeatedStratifiedKFold", "RepeatedKFold"):
        r, k = cv.n_repeats, cv.cvargs.get("n_splits", 5)
        return parse_design(f"{r}x{k}"), text
    if name in ("KFold", "StratifiedKFold", "GroupKFold", "StratifiedGroupKFold"):
        return parse_design(f"1x{cv.n_splits}"), text
    if name in ("ShuffleSplit", "StratifiedShuffleSplit", "GroupShuffleSplit"):
        f = cv.test_size if cv.test_size is not None else (
            1 - cv.train_size if isinstance(cv.train_size, float) else 0.1)
        if not isinstance(f, float) or (cv.train_size is not None and not np.isclose(
                cv.train_size + f, 1)):
            raise ValueError(f"`design` {text}: the test share is not known without the data "
                             "(an int test_size, or train_size + test_size < 1); give "
                             "design='subsampling:N@f' (train = the rest of the data).")
        if cv.n_splits == 1:
            return Design("holdout", 1, 0, f, name=f"holdout@{f:g}"), text
        return (Design("subsampling", cv.n_splits, 0, f, name=f"subsampling:{cv.n_splits}@{f:g}"),
                text)
    raise ValueError(f"`design` {text}: its design cannot be read without the data; give "
                     "'RxK', '5x2cv' or 'subsampling:N@f'.")


def _scorer(scoring, metric, scores_a):
    """The :class:`calibsim.metrics.Metric` of ``scoring`` (None if not given)."""
    if scoring is None:
        return None
    if not (isinstance(metric, str) and metric.strip().lower() == "accuracy"):
        raise ValueError(f"give `scoring` or `metric`, not both; got scoring={scoring!r} and "
                         f"metric={metric!r}.")
    from ..metrics import get_metric
    return get_metric(scoring)


def _on_scale(a, b, metric):
    """The scores on accuracy's scale [0, 1] and a note saying how they were read.

    Accuracy in [0, 1] is a fraction; in [0, 100] with a value above 1 a percentage
    (divided by 100); anything else is refused. Another named metric is kept as given.
    """
    if not isinstance(metric, str) or not metric.strip():
        raise ValueError(f"`metric` must name what the scores measure ('accuracy', or e.g. "
                         f"'auc'); got {metric!r}.")
    if metric.strip().lower() != "accuracy":
        return a, b, (f"metric {metric!r} as given (the shipped df were calibrated on "
                      "accuracy; for another metric they are an approximation)")
    both = np.concatenate([np.ravel(a), np.ravel(b)])
    lo, hi = float(both.min()), float(both.max())
    if lo >= 0 and hi <= 1:
        return a, b, "accuracy read as fractions in [0, 1]"
    if lo >= 0 and hi <= 100:
        return (np.asarray(a) / 100.0, np.asarray(b) / 100.0,
                f"accuracy read as percentages (largest {hi:g} > 1), divided by 100")
    raise ValueError(f"accuracies must lie in [0, 1] (fractions) or [0, 100] (percentages); "
                     f"got values from {lo:g} to {hi:g}. For another score name it with "
                     "`metric` (CLI --metric), e.g. metric='log_loss'.")
