"""The shipped table of calibrated df, and looking a design up in it.

``calibsim/data/df/df_table.csv`` holds, for the tests that calibrate (Bouckaert
2003), the calibrated df of r x k stratified cv designs (k ∈ {2, 5, 10},
r ∈ {1, 2, 3, 5, 10, 20}) and of subsampling with n ∈ {10, 20, 50, 100} random 90/10
splits, at α ∈ {0.01, 0.025, 0.05, 0.10}: the paper's integer df, the continuous df
with its 95% distribution-free interval (:func:`calibsim.calibration.continuous_calibration`)
and the Type I error at the calibrated and the textbook df. It was computed on
10,000 null data sets (300 instances, 10 binary attributes, naive Bayes vs C4.5) by
``studies/df_table.toml`` and ``scripts/make_df_table.py``; the CSV's first lines
say so, with the seed and the commit.

For metrics other than accuracy, ``calibsim/data/df/df_table_metrics.csv`` holds the same
columns and a ``metric`` column (scikit-learn's scorer name), calibrated on nulls where
the two learners are equally good in that metric (each row's ``null`` says which);
:func:`lookup_df` reads it with ``scoring=``. Accuracy's rows are the first table's.

Whether these df carry over to other learners, data sizes and sources is a question
each study should ask (Bouckaert 2003, Table 7, finds mostly yes); calibrate on
your own null data with ``calibsim calibrate`` or a study file when in doubt.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources

import numpy as np
import pandas as pd

__all__ = ["df_table", "df_table_metrics", "lookup_df", "TableDF", "provenance",
           "metrics_provenance"]

_PATH = "data/df/df_table.csv"
_METRIC_PATH = "data/df/df_table_metrics.csv"


def read_shipped(path: str) -> pd.DataFrame:
    """A shipped calibration table (CSV under ``calibsim/``, ``#`` lines its provenance)."""
    with (resources.files("calibsim") / path).open("r", encoding="utf-8") as fh:
        return pd.read_csv(fh, comment="#")


def shipped_provenance(path: str) -> str:
    """The ``#`` lines at the top of a shipped table, without the ``# ``."""
    with (resources.files("calibsim") / path).open("r", encoding="utf-8") as fh:
        return "".join(line[2:] for line in fh if line.startswith("#"))


@functools.lru_cache(maxsize=1)
def _read() -> pd.DataFrame:
    return read_shipped(_PATH)


def df_table() -> pd.DataFrame:
    """The shipped calibrated-df table (a copy), one row per test x design x α.

    Columns: ``test, label, design ("cv" | "subsampling"), n_folds (0 for
    subsampling), n_runs, alpha, calibrated_df, df_continuous, df_ci_low, df_ci_high,
    df_ci_coverage, type1_error, default_df, type1_default, n_datasets``; rates are
    proportions in [0, 1].

    Examples
    --------
    >>> t = df_table()
    >>> sorted(t["design"].unique())
    ['cv', 'subsampling']
    """
    return _read().copy()


def provenance() -> str:
    """The comment lines at the top of the shipped CSV: how, when and from what it was made."""
    return shipped_provenance(_PATH)


@functools.lru_cache(maxsize=1)
def _read_metrics() -> pd.DataFrame:
    if not (resources.files("calibsim") / _METRIC_PATH).is_file():
        return pd.DataFrame(columns=["metric", "null", *_read().columns])
    return read_shipped(_METRIC_PATH)


def df_table_metrics() -> pd.DataFrame:
    """The shipped calibrated-df table of metrics other than accuracy (a copy): the
    columns of :func:`df_table` and ``metric`` (scikit-learn's scorer name) and ``null``
    (the null data it was calibrated on, in words); empty where none is shipped."""
    return _read_metrics().copy()


def metrics_provenance() -> str:
    """The comment lines at the top of the metrics' table ("" where none is shipped)."""
    if not (resources.files("calibsim") / _METRIC_PATH).is_file():
        return ""
    return shipped_provenance(_METRIC_PATH)


@dataclass(frozen=True)
class TableDF:
    """A calibrated df read from the shipped table.

    Attributes
    ----------
    df : float
        The continuous calibrated df (use it in the test's statistic and reference t).
    ci_low, ci_high : float
        Its 95% distribution-free interval.
    integer_df : int
        The paper's integer df (0: no df keeps the Type I error at or below α).
    default_df : int
        The textbook df of the design.
    test : str
    n_folds, n_runs : int
    alpha : float
    n_datasets : int
        Null data sets it was calibrated on.
    source : str
        Where it comes from (the shipped table and its study).
    scoring : str
        The metric it was calibrated for (scikit-learn's scorer name).
    """

    df: float
    ci_low: float
    ci_high: float
    integer_df: int
    default_df: int
    test: str
    n_folds: int
    n_runs: int
    alpha: float
    n_datasets: int
    source: str = "calibsim/data/df/df_table.csv (studies/df_table.toml)"
    scoring: str = "accuracy"


def lookup_df(test: str, *, alpha: float = 0.05, n_folds: int = 10, n_runs: int = 10,
              scoring: str = "accuracy") -> TableDF:
    """The calibrated df of ``test`` for a design, from the shipped table.

    Parameters
    ----------
    test : str
        A registry name in the table (e.g. ``"use_all_data"``, ``"corrected_resampling"``).
    alpha : float, default 0.05
    n_folds : int, default 10
        k of r x k cv (ignored for the subsampling tests).
    n_runs : int, default 10
        r (or n subsamples for the subsampling tests).
    scoring : str, default "accuracy"
        The metric (scikit-learn's scorer name, :data:`calibsim.metrics.METRICS`): its
        own calibrated df from the metrics' table (:func:`df_table_metrics`).

    Returns
    -------
    TableDF

    Raises
    ------
    ValueError
        If the test, α or design is not in the table, or the metrics' table has no
        row for ``scoring``; the message lists what is.

    Examples
    --------
    >>> entry = lookup_df("use_all_data", alpha=0.05, n_folds=10, n_runs=10)
    >>> bool(entry.ci_low <= entry.df <= entry.ci_high), entry.default_df
    (True, 99)
    """
    from .._validation import check_probability
    from ..metrics import get_metric
    alpha = check_probability("alpha", alpha)
    metric = get_metric(scoring).name
    t = _read()
    source = TableDF.source
    if metric != "accuracy":
        m = _read_metrics()
        have = sorted(set(m["metric"]))
        if metric not in have:
            raise ValueError(f"the df table has no calibrated df for `scoring` {metric!r}; "
                             f"it has accuracy{''.join(', ' + h for h in have)}. Calibrate "
                             "on null data for this metric (`calibsim calibrate --like`).")
        t = m[m["metric"] == metric]
        source = (f"calibsim/data/df/df_table_metrics.csv, {metric} "
                  f"(studies/df_table_metrics.toml; null: {t['null'].iloc[0]})")
    if test not in set(t["test"]):
        raise ValueError(f"`test` must be one of the tabulated tests {sorted(set(t['test']))}; "
                         f"got {test!r}.")
    rows = t[t["test"] == test]
    if not np.isclose(rows["alpha"], alpha).any():
        raise ValueError(f"`alpha` must be one of {sorted(rows['alpha'].unique())} for the "
                         f"table; got {alpha!r} (calibrate on your own null data for others).")
    rows = rows[np.isclose(rows["alpha"], alpha)]
    subsampling = (rows["design"] == "subsampling").all()
    hit = rows[rows["n_runs"] == n_runs] if subsampling else rows[
        (rows["n_folds"] == n_folds) & (rows["n_runs"] == n_runs)]
    if hit.empty:
        have = sorted({(int(k), int(r)) for k, r in zip(rows["n_folds"], rows["n_runs"])})
        what = ("n_runs in " + str(sorted({r for _, r in have}))) if subsampling else (
            "(n_folds, n_runs) in " + str(have))
        raise ValueError(f"the df table has no entry for {test!r} with n_folds={n_folds}, "
                         f"n_runs={n_runs}; it covers {what}. Calibrate this design on null "
                         "data (`calibsim calibrate`).")
    r = hit.iloc[0]
    return TableDF(df=float(r["df_continuous"]), ci_low=float(r["df_ci_low"]),
                   ci_high=float(r["df_ci_high"]), integer_df=int(r["calibrated_df"]),
                   default_df=int(r["default_df"]), test=test, n_folds=int(r["n_folds"]),
                   n_runs=int(r["n_runs"]), alpha=float(r["alpha"]),
                   n_datasets=int(r["n_datasets"]), source=source, scoring=metric)
