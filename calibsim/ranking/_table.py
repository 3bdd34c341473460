"""Reading score tables for :mod:`calibsim.ranking`: long or wide, with folds and costs."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["ScoreTable", "read_scores", "scores_from_study"]


@dataclass(frozen=True)
class ScoreTable:
    """Scores arranged as arrays: data sets x learners (x folds), with optional costs."""

    datasets: tuple
    learners: tuple
    scores: np.ndarray                  # (S, L) mean over folds
    folds: np.ndarray | None            # (S, L, n_folds) or None
    cost: np.ndarray | None             # (S, L) or None
    score_name: str
    cost_name: str | None
    folds_per_run: int | None = None    # k, when the table has run and fold columns


def _plain(v):
    """A table value as a plain Python value (numpy scalars shown as numbers, not
    ``np.int64(0)``)."""
    return v.item() if isinstance(v, np.generic) else v


def _where(keys, values) -> str:
    """``dataset 'd1', learner 'nb', fold 0``: a cell of the table in words."""
    return ", ".join(f"{k} {_plain(v)!r}" if isinstance(_plain(v), str) else f"{k} {_plain(v)}"
                     for k, v in zip(keys, values))


def _run_fold(frame, run, fold, dataset, learner):
    """Run-major fold numbers (``run * k + fold``) of a table with separate run and fold
    columns, and k; refuses runs with different folds."""
    runs = sorted(pd.unique(frame[run]))
    per_run = frame.groupby(run, sort=True)[fold].apply(lambda f: tuple(sorted(pd.unique(f))))
    within = set(per_run)
    sizes = {_plain(r): len(f) for r, f in per_run.items()}
    labels = [f for fs in per_run for f in fs]
    if len(within) != 1 and len(set(sizes.values())) == 1 and len(set(labels)) == len(labels):
        # folds already numbered across runs (fold 2 of 5x2 cv is run 1's first): keep them
        return frame[fold], int(next(iter(sizes.values())))
    if len(within) != 1:
        raise ValueError(f"the table's runs must have the same folds (column {fold!r} "
                         f"numbered within each {run!r}, or across all runs); got "
                         f"{sizes} folds per run.")
    folds = next(iter(within))
    k = len(folds)
    r_index = {r: i for i, r in enumerate(runs)}
    f_index = {f: i for i, f in enumerate(folds)}
    combined = frame[run].map(r_index) * k + frame[fold].map(f_index)
    return combined.astype(int), k


def _numeric(frame, column, what):
    try:
        values = pd.to_numeric(frame[column])
    except (TypeError, ValueError):
        raise ValueError(f"the {what} column {column!r} must hold numbers; got e.g. "
                         f"{frame[column].iloc[0]!r}.") from None
    if values.dtype.kind not in "iuf":      # booleans, complex numbers: not read as scores
        raise TypeError(f"the {what} column {column!r} must hold real numbers; got dtype "
                        f"{values.dtype}.")
    return values.to_numpy(dtype=float)


def _distinct(labels, what):
    """Refuse duplicated names (pandas would keep both, or rename one 'a.1')."""
    seen = set()
    for lab in labels:
        if lab in seen:
            raise ValueError(f"`table` has two {what} named {lab!r}; give each its own name.")
        seen.add(lab)


def _cube(frame, value, dataset, learner, fold, datasets, learners, folds):
    """(S, L[, F]) array of ``value`` or a clear error for a missing or duplicated cell."""
    keys = [dataset, learner] + ([fold] if fold else [])
    dup = frame.duplicated(keys)
    if dup.any():
        row = frame.loc[dup, keys].iloc[0].tolist()
        hint = "" if fold else " (per-fold scores need a `fold` column)"
        raise ValueError(f"the table has more than one row for {_where(keys, row)}{hint}.")
    idx = pd.MultiIndex.from_product([datasets, learners] + ([folds] if fold else []))
    s = frame.set_index(keys)[value].reindex(idx)
    if s.isna().any():
        missing = s[s.isna()].index[0]
        raise ValueError(f"the table has no {value!r} for {_where(keys, missing)}; every "
                         "data set needs a score for every learner"
                         + (" and fold." if fold else "."))
    shape = (len(datasets), len(learners)) + ((len(folds),) if fold else ())
    return s.to_numpy(dtype=float).reshape(shape)


def read_scores(table, *, score=None, cost=None, dataset="dataset", learner="learner",
                fold="fold", run="run") -> ScoreTable:
    """A :class:`ScoreTable` from a long table (dataset, learner, score[, fold][, cost]) or a
    wide one (data sets in the index, learners in the columns).

    A long table with a ``run`` column beside ``fold`` (r runs of k-fold cv, fold numbered
    within its run) is read run-major: fold ``j`` of run ``i`` becomes fold ``i * k + j``,
    and ``folds_per_run`` is k."""
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"`table` must be a pandas DataFrame; got {type(table).__name__}.")
    if table.empty:
        raise ValueError("`table` is empty.")
    if dataset not in table.columns or learner not in table.columns:       # wide: S x L
        if score is not None:
            raise ValueError(f"`score` names the score column of a long table ({score!r}), "
                             f"but the table is wide (no {dataset!r} and {learner!r} "
                             "columns): every column is a learner's scores.")
        if isinstance(cost, str):
            raise ValueError(f"`cost` names a column ({cost!r}), but the table is wide "
                             f"(no {dataset!r} and {learner!r} columns); give one cost per "
                             "learner as a mapping or list.")
        _distinct(map(str, table.columns), "learner columns")
        _distinct(map(str, table.index), "data sets (rows)")
        for c, dtype in table.dtypes.items():
            if dtype.kind in "bcmM":          # booleans, complex numbers, dates
                raise TypeError(f"a wide `table` must hold real numbers; column {c!r} has "
                                f"dtype {dtype}.")
        try:
            x = table.to_numpy(dtype=float)
        except (TypeError, ValueError):
            raise ValueError("a wide `table` must hold only numbers (data sets in the index, "
                             f"learners in the columns); got columns {list(table.columns)}. "
                             f"A long table needs columns {dataset!r} and {learner!r}.") from None
        if np.isnan(x).any():
            raise ValueError("a wide `table` must have a score for every data set and learner.")
        return ScoreTable(tuple(map(str, table.index)), tuple(map(str, table.columns)), x,
                          None, None, score or "score", None)
    if score is None:
        found = [c for c in ("score", "accuracy", "error") if c in table.columns]
        if not found:
            raise ValueError(f"`score` must name the score column; the table has "
                             f"{list(table.columns)} and none of 'score', 'accuracy', 'error'.")
        score = found[0]
    if score not in table.columns:
        raise ValueError(f"`score` = {score!r} is not a column of the table "
                         f"{list(table.columns)}.")
    frame = table.copy()
    frame[dataset] = frame[dataset].astype(str)
    frame[learner] = frame[learner].astype(str)
    frame[score] = _numeric(frame, score, "score")
    datasets = tuple(pd.unique(frame[dataset]))
    learners = tuple(pd.unique(frame[learner]))
    has_folds = fold in frame.columns
    k = None
    if has_folds and run in frame.columns and run != fold:
        frame[fold], k = _run_fold(frame, run, fold, dataset, learner)
    folds = tuple(sorted(pd.unique(frame[fold]))) if has_folds else None
    cube = _cube(frame, score, dataset, learner, fold if has_folds else None, datasets,
                 learners, folds)
    cost_arr = None
    if isinstance(cost, str):
        if cost not in frame.columns:
            raise ValueError(f"`cost` = {cost!r} is not a column of the table "
                             f"{list(table.columns)}.")
        frame[cost] = _numeric(frame, cost, "cost")
        per_cell = frame.groupby([dataset, learner], sort=False)[cost].mean().reset_index()
        cost_arr = _cube(per_cell, cost, dataset, learner, None, datasets, learners, None)
    mean = cube.mean(axis=2) if has_folds else cube
    return ScoreTable(datasets, learners, mean, cube if has_folds else None, cost_arr, score,
                      cost if isinstance(cost, str) else None, k)


def scores_from_study(scores, *, scheme=None, cost=None) -> pd.DataFrame:
    """A long table (dataset, learner, fold, accuracy[, cost]) from a study's saved scores.

    Each simulated or real data set of every source that ran ``scheme`` becomes one
    data set (``"<source>#<i>"``); every split of the scheme is one fold, in the
    scheme's order (for 5x2 cv: replication-major, so folds 0-1 are replication 1).
    ``cost`` is ``"fit_time"`` or ``"predict_time"`` (seconds summed over the splits) or
    ``"model_size"`` (mean over the splits).

    Raises
    ------
    TypeError
        If ``scores`` is not a study's :class:`~calibsim.engine.scores.Scores`.
    ValueError
        If ``cost`` or ``scheme`` is not one the study has, or it has fewer than two
        learners.
    """
    if not isinstance(getattr(scores, "arrays", None), dict):
        raise TypeError(f"`scores` must be a study's saved scores (calibsim.engine.Scores, "
                        f"from calibsim.engine.load_scores(study)); got "
                        f"{type(scores).__name__} {str(scores)[:60]!r}.")
    if cost not in (None, "fit_time", "predict_time", "model_size"):
        raise ValueError(f"`cost` must be None, 'fit_time', 'predict_time' or 'model_size'; "
                         f"got {cost!r}.")
    have = sorted({s for _, s in scores.arrays})
    if scheme is None:
        if len(have) != 1:
            raise ValueError(f"`scheme` must name one of the study's schemes {have}.")
        scheme = have[0]
    if scheme not in have:
        raise ValueError(f"`scheme` = {scheme!r} is not among the study's schemes {have}.")
    learners = [lrn.label for lrn in scores.study.learners]
    if len(learners) < 2:
        raise ValueError("the study must have at least 2 learners to rank.")
    parts = []
    for src, sch in sorted(scores.arrays):
        if sch != scheme:
            continue
        for name in learners:
            acc = scores.accuracy(src, scheme, name)
            acc = acc.reshape(acc.shape[0], -1)
            n, f = acc.shape
            part = pd.DataFrame({"dataset": np.repeat([f"{src}#{i}" for i in range(n)], f),
                                 "learner": name, "fold": np.tile(np.arange(f), n),
                                 "accuracy": acc.ravel()})
            if cost in ("fit_time", "predict_time"):
                part["cost"] = np.repeat(scores.costs(src, scheme, name)[cost], f)
            elif cost == "model_size":
                size = scores.model_size(src, scheme, name).reshape(n, -1).mean(axis=1)
                part["cost"] = np.repeat(size, f)
            parts.append(part)
    return pd.concat(parts, ignore_index=True)
