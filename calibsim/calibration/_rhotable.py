"""The shipped table of calibrated ρ of the correlated Bayesian t test, and looking it up.

The correlated Bayesian t test (Corani & Benavoli 2015) widens its posterior by
ρ/(1 − ρ); the usual ρ = n_test/n_total (1/k for k-fold cv, Nadeau & Bengio's
heuristic) lets it declare a difference on about 10% of null data sets at threshold
0.95 with 10 × 10 cv (``studies/bayesian_correlated_t.toml``). ρ plays the role for it
that the calibrated df plays for the t tests, and is calibrated the same way
(:func:`calibsim.calibration.calibrate_rho`).

``calibsim/data/rho/rho_table.csv`` holds, for r × k stratified cv (k ∈ {2, 5, 10},
r ∈ {1, 2, 3, 5, 10, 20}), thresholds 0.95 and 0.99 and ROPE 0 and 0.01, the calibrated
ρ with its 95% distribution-free interval and the decision rates at ρ = 1/k and at the
calibrated ρ on fresh null data. It was made by ``studies/rho_table.toml`` (the null data
sets and partitions of the df table: ρ calibrated on the first 5,000, rates on the other
5,000) and ``scripts/make_rho_table.py``; the CSV's first lines say so.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ._dftable import read_shipped, shipped_provenance

__all__ = ["rho_table", "lookup_rho", "TableRho", "rho_provenance"]

_PATH = "data/rho/rho_table.csv"


@functools.lru_cache(maxsize=1)
def _read() -> pd.DataFrame:
    return read_shipped(_PATH)


def rho_table() -> pd.DataFrame:
    """The shipped calibrated-ρ table (a copy), one row per design x threshold x ROPE.

    Columns: ``n_folds, n_runs, threshold, rope, rho, rho_ci_low, rho_ci_high,
    coverage, rho_default, decision_rate_default, decision_rate_calibrated, mc_se,
    n_calibration, n_check, accuracy_a, accuracy_b, null_difference,
    null_difference_se``; rates are proportions in [0, 1]; ``rho`` = 1 marks a design
    where no ρ < 1 is enough.

    Examples
    --------
    >>> t = rho_table()
    >>> sorted(t["threshold"].unique().tolist()), sorted(t["rope"].unique().tolist())
    ([0.95, 0.99], [0.0, 0.01])
    """
    return _read().copy()


def rho_provenance() -> str:
    """The comment lines at the top of the shipped CSV: how, when and from what it was made."""
    return shipped_provenance(_PATH)


@dataclass(frozen=True)
class TableRho:
    """A calibrated ρ read from the shipped table.

    Attributes
    ----------
    rho : float
        The calibrated ρ, in (0, 1): pass it as ``rho`` to the correlated Bayesian t.
    ci_low, ci_high : float
        Its 95% distribution-free interval.
    decision_rate : float
        Share of fresh null data sets on which the test decides at this ρ (target at
        most 1 − threshold).
    decision_rate_default : float
        The same at the default ρ = 1/k.
    threshold, rope : float
    n_folds, n_runs : int
    n_datasets : int
        Null data sets it was calibrated on.
    source : str
        Where it comes from (the shipped table and its study).
    """

    rho: float
    ci_low: float
    ci_high: float
    decision_rate: float
    decision_rate_default: float
    threshold: float
    rope: float
    n_folds: int
    n_runs: int
    n_datasets: int
    source: str = "calibsim/data/rho/rho_table.csv (studies/rho_table.toml)"


def lookup_rho(*, threshold: float = 0.95, rope: float = 0.0, n_folds: int = 10,
               n_runs: int = 10) -> TableRho:
    """The calibrated ρ of the correlated Bayesian t test for a design, from the shipped table.

    Parameters
    ----------
    threshold : float, default 0.95
        Posterior probability needed for a decision: 0.95 or 0.99 in the table.
    rope : float, default 0
        Half-width of the region of practical equivalence, in accuracy units: 0 or
        0.01 in the table.
    n_folds : int, default 10
        k of r x k stratified cv.
    n_runs : int, default 10
        r.

    Returns
    -------
    TableRho

    Raises
    ------
    ValueError
        If the threshold, ROPE or design is not in the table (the message lists what
        is and says how to calibrate others: ``calibsim calibrate --like DATA
        --method bayes``), or if no ρ < 1 keeps the decision rate at or below
        1 − threshold for the design (one run of 2-fold cv at threshold 0.99: the
        table's entry is then ρ = 1).

    Examples
    --------
    >>> e = lookup_rho(threshold=0.95, rope=0.0, n_folds=10, n_runs=10)
    >>> bool(e.ci_low <= e.rho <= e.ci_high), e.n_folds, e.n_runs
    (True, 10, 10)
    """
    from .._validation import check_int, check_probability
    threshold = check_probability("threshold", threshold)
    if isinstance(rope, bool) or not isinstance(rope, (int, float, np.floating)) or not (
            0 <= rope < 1):
        raise ValueError(f"`rope` must be a number in [0, 1); got {rope!r}.")
    n_folds = check_int("n_folds", n_folds, min_value=2)
    n_runs = check_int("n_runs", n_runs, min_value=1)
    t = _read()
    rows = t[np.isclose(t["threshold"], threshold) & np.isclose(t["rope"], rope)]
    if rows.empty:
        raise ValueError(f"the rho table covers threshold in {sorted(t['threshold'].unique())} "
                         f"and rope in {sorted(t['rope'].unique())}; got threshold="
                         f"{threshold!r}, rope={rope!r} (calibrate others with `calibsim "
                         "calibrate --like DATA --method bayes`).")
    hit = rows[(rows["n_folds"] == n_folds) & (rows["n_runs"] == n_runs)]
    if hit.empty:
        have = sorted({(int(k), int(r)) for k, r in zip(rows["n_folds"], rows["n_runs"])})
        raise ValueError(f"the rho table has no entry for n_folds={n_folds}, n_runs={n_runs}; "
                         f"it covers (n_folds, n_runs) in {have} (calibrate others with "
                         "`calibsim calibrate --like DATA --method bayes`).")
    r = hit.iloc[0]
    if r["rho"] >= 1:
        raise ValueError(f"no rho < 1 keeps the correlated Bayesian t's decision rate at or "
                         f"below {1 - threshold:g} with {n_runs} x {n_folds} cv (threshold "
                         f"{threshold:g}, ROPE {rope:g}): on the table's null data it decides "
                         f"on {100 * r['decision_rate_calibrated']:.1f}% even as rho -> 1; "
                         "use more runs or folds.")
    return TableRho(rho=float(r["rho"]), ci_low=float(r["rho_ci_low"]),
                    ci_high=float(r["rho_ci_high"]),
                    decision_rate=float(r["decision_rate_calibrated"]),
                    decision_rate_default=float(r["decision_rate_default"]),
                    threshold=float(r["threshold"]), rope=float(r["rope"]),
                    n_folds=int(r["n_folds"]), n_runs=int(r["n_runs"]),
                    n_datasets=int(r["n_calibration"]))
