"""The analyses a study file can declare, each returning one tidy table.

- ``calibrate``: the calibrated df of every test at every number of runs and α,
  with the Type I error at the calibrated and the textbook df and a bootstrap
  error of the df (Bouckaert 2003, §3-4);
- ``rejection_rate``: Type I error (null sources) or power, at the textbook df, a
  fixed df or the df calibrated by a ``calibrate`` analysis of this or another
  study file, with Monte Carlo SE and Clopper–Pearson interval;
- ``replicability``: how often ``repeats`` independent runs of a test on the same
  data set agree (Bouckaert 2003, §5.3; Bouckaert & Frank 2004);
- ``accuracy``: mean accuracy of every learner with its SE over data sets, model
  size and fit/predict time;
- ``coverage``: how often a test's two-sided 1 - α interval (of the accuracy
  difference of a pair, or of one learner's error) holds a truth the study file
  gives per source, or one the engine draws from the source (``truth = "drawn"``,
  :mod:`calibsim.engine._truth`, with the truth's own Monte Carlo SE), with Monte
  Carlo SE and Clopper–Pearson interval (issue 43).
- ``plan``: :func:`calibsim.plan` on each source's data (Type I error on the damaged
  real-data null, power at each Δ, replicability), its repeats in the study's store
  (:mod:`calibsim.engine._plan_analysis`; issue 42, item 5).

**The null.** A calibration is only as good as its null: the two learners must be
equally good on it. Every ``calibrate`` (and ``calibrate_rho``) table therefore reports
both learners' mean accuracy over the null data sets with its SE
(``accuracy_a``/``accuracy_a_se``, ``accuracy_b``/``accuracy_b_se``) and their mean
difference (``null_difference``/``null_difference_se``). With ``null = "centred"`` the
per-fold differences of each source, scheme and pair are shifted by minus that mean
difference, taken over all the source's data sets and splits (``centre``), before any
test sees them: the learners are then equally good on average by construction, which a
permuted-label null (:class:`calibsim.sources.DatasetSource` ``permute_class``) does
not give when the class prior is unbalanced. ``null = "as_is"`` (the default) leaves the
differences as the learners produce them, as the papers did.

Every table shares one set of column names: ``source`` (the source label),
``group`` and the source's grid keys (e.g. ``class_prior``, ``network``,
``epsilon``), ``pair_a``, ``pair_b``, ``test``, ``label``, ``scheme``, ``n_runs``,
``n_folds``, ``alpha``, ``df``, then the measure's columns. Rates are proportions
in [0, 1].
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..calibration._continuous import _calibration_from_cells
from .._validation import check_alpha
from ..calibration import calibrate
from ..calibration._calibrate import _calibration_result_from_type1
from ..calibration._common import _check_pvalues, _pvalues_of
from ..measures import rejection_rate, replicability
from ..stats import get_test
from ._layout_inputs import (DATASETS_CHAINS, DATASETS_DRAWS, DATASETS_SAMPLER,
                             DATASETS_TARGET_ACCEPT, DATASETS_WARMUP, _n_instances,
                             datasets_sampler_text, test_callable, test_data)

__all__ = ["run_analyses", "test_data", "test_callable", "CalibratedDF", "calibration_rows",
           "interval_tests", "COVERAGE_TARGETS", "SameDifferences", "block_summaries",
           "null_centres", "rho_rows"]


def _n_folds(study, scheme_name):
    s = study.scheme(scheme_name)
    return {"repeated_kfold": lambda: s.p["n_folds"], "cv5x2": lambda: 2,
            "nested": lambda: s.p["n_folds"], "bootstrap_cv": lambda: s.p["n_splits"]}.get(
        s.kind, lambda: 0)()


def _runs_of(analysis, study, scheme_name):
    s = study.scheme(scheme_name)
    if s.kind in ("cv5x2", "test_set"):
        return (5 if s.kind == "cv5x2" else 1,)
    if s.kind == "bootstrap_cv":          # one repeat's rows: the estimate's and the samples'
        return (1 + s.p["n_bootstrap"],)
    return analysis.runs or (s.p["n_runs"] // analysis.repeats,)


def _base(study, source_label, pair, test, scheme_name, r):
    src = study.source(source_label)
    row = {"source": source_label, "group": src.group}
    row.update({k: (Path(v).stem if k in ("network", "path") else v) for k, v in src.grid})
    row.update({"pair_a": pair[0], "pair_b": pair[1], "test": test,
                "label": get_test(test).label if test != "accuracy" else "accuracy",
                "scheme": scheme_name, "n_runs": r, "n_folds": _n_folds(study, scheme_name)})
    return row


# ---------------------------------------------------------------------------
# calibrate

def _calibrate_cells(study, analysis):
    """Every (source, pair, test, scheme, runs) of a ``calibrate`` analysis, in table order."""
    for source in analysis.sources:
        for pair in analysis.pairs:
            for test in analysis.tests:
                sname = analysis.scheme_of(test)
                for r in _runs_of(analysis, study, sname):
                    yield source, tuple(pair), test, sname, r


def _calibrate_summary(func, x, dfs, alphas, keep_step, first=None, cells=None):
    """What the calibrate analysis needs of the data sets ``x``, one entry per data set.

    ``p_default`` (B,): p at the textbook df; ``cells`` (n_alpha, B): index of the first
    df of the grid rejecting at each α (``dfs.size``: none). Where rejection is not a
    step in df for some data set (a test whose p-value is not monotone in df), ``rej``
    (n_alpha, n_df, B) keeps every verdict. With ``keep_step``: ``step``, the test's
    df-dependent last step (calibsim's t tests), or ``x`` itself, for bisecting the
    continuous calibrated df later. ``first`` (the test's result on ``x``) and ``cells``
    may be given when already computed.
    """
    first = func(x) if first is None else first
    n_df = dfs.size
    at_df = getattr(first, "_at_df", None)
    out = {"p_default": np.asarray(first.pvalue, dtype=float)}
    if cells is None and at_df is not None:
        cells = _first_rejecting(at_df, dfs, alphas)
    if cells is None:
        p = _grid_pvalues(first, func, x, dfs)
        grid = np.arange(n_df)[:, None]
        cells, rej_all, step = [], [], True
        for alpha in alphas:
            rej = p <= alpha
            cell = np.where(rej.any(axis=0), rej.argmax(axis=0), n_df)
            step &= bool(np.array_equal(rej, grid >= cell))
            cells.append(cell)
            rej_all.append(rej)
        if not step:
            out["rej"] = np.stack(rej_all)
    out["cells"] = np.stack(cells).astype(np.min_scalar_type(n_df))
    if keep_step:
        if at_df is not None:
            out["step"] = at_df
        else:
            out["x"] = x
    return out


def _first_rejecting(at_df, dfs, alphas):
    """Index of the first df of the grid ``dfs`` where p <= α, per α and data set, shape
    (n_alpha, N) (``dfs.size``: none), for a p-value non-increasing in df. Bisection
    over the grid, all α and data sets at once; each p-value is computed by the same
    step as on the whole grid, so the index is the grid scan's."""
    n_df = dfs.size
    n = np.shape(at_df.u)[0]
    alphas = np.asarray(alphas, dtype=float)
    cell = np.full((alphas.size, n), n_df, dtype=np.int64)
    if n == 0:
        return cell
    p_lo = np.asarray(at_df(np.full(n, dfs[0], dtype=float)), dtype=float)
    p_hi = np.asarray(at_df(np.full(n, dfs[-1], dtype=float)), dtype=float)
    cell[p_lo[None, :] <= alphas[:, None]] = 0
    ka, ki = np.nonzero((p_lo[None, :] > alphas[:, None]) & (p_hi[None, :] <= alphas[:, None]))
    level = alphas[ka]
    lo = np.zeros(ki.size, dtype=np.int64)                 # p > alpha at lo
    hi = np.full(ki.size, n_df - 1, dtype=np.int64)        # p <= alpha at hi
    step = at_df.take(ki)
    while ki.size and np.any(hi - lo > 1):
        mid = (lo + hi) // 2
        rejects = np.asarray(step(dfs[mid].astype(float)), dtype=float) <= level
        hi = np.where(rejects, mid, hi)
        lo = np.where(rejects, lo, mid)
    cell[ka, ki] = hi
    return cell


def _bootstrap_df(summary, dfs, alphas, n_boot, rng):
    """Bootstrap (over data sets) SE and 95% percentile interval of the calibrated df,
    from the data sets' verdicts at every df of ``dfs`` (a calibrate summary)."""
    from ..calibration import calibrated_df
    cells = summary["cells"]
    n_df = dfs.size
    n = cells.shape[1]
    draws = rng.integers(0, n, size=(n_boot, n))
    weights = counts = None
    out = []
    for i, alpha in enumerate(alphas):
        if "rej" in summary:
            if weights is None:
                weights = np.stack([np.bincount(row, minlength=n) for row in draws],
                                   axis=1).astype(float)
            from threadpoolctl import threadpool_limits
            with threadpool_limits(limits=1, user_api="blas"):  # small product: 1 thread
                curves = (summary["rej"][i].astype(float) @ weights) / n
            curves = curves.T
        else:
            # rejection is a step in df: data set j rejects at the df from its cell on,
            # so resample j's cell; the counts are the integers the product above gives
            if counts is None:
                counts = _cell_counts_kernel()(cells, draws, n_df + 1)
            curves = np.cumsum(counts[i], axis=1)[:, :n_df] / n
        boot = calibrated_df(dfs, curves, np.full(n_boot, alpha))
        out.append((boot.std(ddof=1), *np.percentile(boot, [2.5, 97.5])))
    return out


@dataclass(frozen=True)
class BootstrapBlock:
    """Cells of a ``calibrate`` analysis whose calibrated df :func:`bootstrap_block`
    resamples (on a worker; picklable): per cell the summary's ``cells`` (and ``rej``),
    and the state of the analysis's bootstrap generator before that cell's draws."""

    key: str
    summaries: tuple
    states: tuple
    dfs: np.ndarray
    alphas: tuple
    n_boot: int


def bootstrap_block(block: BootstrapBlock) -> list:
    """:func:`_bootstrap_df` of each cell of ``block``, its draws replayed from the
    generator's state: the same numbers as drawn one cell after the other in one process."""
    out = []
    for summary, state in zip(block.summaries, block.states):
        rng = np.random.Generator(getattr(np.random, state["bit_generator"])())
        rng.bit_generator.state = state
        out.append(_bootstrap_df(summary, block.dfs, block.alphas, block.n_boot, rng))
    return out


#: Blocks the bootstrap of one ``calibrate`` analysis is cut into for the workers.
BOOTSTRAP_BLOCKS = 16


def _bootstraps(name, summaries, dfs, alphas, n_boot, rng, client) -> list:
    """:func:`_bootstrap_df` of every summary of ``summaries``, in order, drawing from
    ``rng`` one summary after the other, computed in :data:`BOOTSTRAP_BLOCKS` blocks on
    ``client``'s workers (here without one; issue 46). This process draws each cell's
    resamples once, to know the generator's state before the next cell's; the workers
    draw them again from those states, so the numbers do not depend on the workers."""
    from .runner import map_blocks
    states = []
    for summ in summaries:
        states.append(rng.bit_generator.state)
        n = summ["cells"].shape[1]
        rng.integers(0, n, size=(n_boot, n))          # the draws of _bootstrap_df
    per = -(-len(summaries) // BOOTSTRAP_BLOCKS) or 1
    blocks = [BootstrapBlock(f"bootstrap|{name}|cells={i}-{i + per}",
                             tuple({k: v for k, v in summ.items() if k in ("cells", "rej")}
                                   for summ in summaries[i:i + per]),
                             tuple(states[i:i + per]), dfs, tuple(alphas), n_boot)
              for i in range(0, len(summaries), per)]
    parts = {}
    map_blocks(bootstrap_block, blocks, client=client, resumable=False,
               on_result=lambda block, result: parts.__setitem__(block.key, result))
    return [boot for block in blocks for boot in parts[block.key]]


@functools.cache
def _cell_counts_kernel():
    """:func:`_resampled_cell_counts` compiled (numba's cache): numba is imported by
    the process that runs the bootstrap (a worker), not by every importer (issue 46)."""
    import numba
    return numba.njit(cache=True)(_resampled_cell_counts)


def _resampled_cell_counts(cells, draws, n_bins):
    """(n_alpha, N) cells, (n_boot, N) draws -> (n_alpha, n_boot, n_bins) int64: how many
    of bootstrap sample b's data sets lie in each cell, per α (one pass over the draws)."""
    n_alpha = cells.shape[0]
    n_boot, n = draws.shape
    out = np.zeros((n_alpha, n_boot, n_bins), np.int64)
    for b in range(n_boot):
        for j in range(n):
            d = draws[b, j]
            for a in range(n_alpha):
                out[a, b, cells[a, d]] += 1
    return out


def _type1_of(summary, n_df):
    """(n_alpha, n_df) rejection rates from a calibrate summary."""
    if "rej" in summary:
        counts = summary["rej"].sum(axis=-1)
    else:
        cells = summary["cells"].astype(np.int64)
        counts = np.stack([np.cumsum(np.bincount(c, minlength=n_df + 1))[:n_df]
                           for c in cells])
    return counts / summary["cells"].shape[1]


def _pvalues_of_step(summary, func):
    """``idx -> (df -> p-values of the data sets idx)`` of a calibrate summary."""
    if "step" in summary:
        step = summary["step"]
        return lambda idx: (lambda df, at=step.take(idx): np.asarray(at(df), dtype=float))
    x = summary["x"]
    from ..calibration._continuous import _pvalues
    return lambda idx: (lambda df, xs=x[idx]: _pvalues(func, xs, df))


def calibration_rows(study, analysis, scores=None, *, n_boot: int = 200,
                     summaries=None, client=None) -> pd.DataFrame:
    """The ``calibrate`` analysis: one row per source x pair x test x runs x α.

    Columns (besides the shared ones): ``df_min, df_max, default_df,
    type1_default, calibrated_df, df_boot_se, df_boot_low, df_boot_high,
    type1_error, mc_se, ci_low, ci_high, n_datasets``; ``calibrated_df`` is 0 where
    no df of the grid keeps the Type I error at or below α (``type1_error`` is then
    NaN). The bootstrap draws from ``SeedSequence(seed, spawn_key=(2**31,))``. With
    ``continuous = true`` also ``df_continuous`` (the threshold order statistic
    t_(⌊αN⌋+1), :func:`calibsim.calibration.continuous_calibration`), ``df_ci_low``,
    ``df_ci_high`` and ``df_ci_coverage`` (its distribution-free interval).

    ``summaries`` (from :func:`block_summaries`, concatenated over blocks) replaces
    ``scores``: the rows are the same bit for bit. With ``client`` (a
    :class:`~calibsim.engine.runner.LocalPool` or a Dask client) the bootstrap runs on
    its workers, in blocks of cells, with the same numbers.
    """
    if summaries is None:
        summaries = summarise(study, [analysis], scores)
    dfs = np.arange(analysis.df_min, analysis.df_max + 1, dtype=np.int64)
    alphas = check_alpha("alphas", list(analysis.alphas))
    rng = np.random.default_rng(np.random.SeedSequence(study.seed, spawn_key=(2**31,)))
    rows = []
    cells = list(_calibrate_cells(study, analysis))
    summs = [summaries[(analysis.name, source, pair, test, r)]
             for source, pair, test, sname, r in cells]
    boots = (_bootstraps(analysis.name, summs, dfs, analysis.alphas, n_boot, rng, client)
             if n_boot else [[(np.nan,) * 3] * len(analysis.alphas)] * len(cells))
    for (source, pair, test, sname, r), summ, boot in zip(cells, summs, boots):
        spec = get_test(test)
        type1 = _type1_of(summ, dfs.size)
        n = summ["cells"].shape[1]
        res = _calibration_result_from_type1(test, type1, dfs, alphas, 0.95, n)
        k = _n_folds(study, sname)
        if analysis.continuous:
            func = test_callable(test, study, study.source(source), sname)
            cont = [_calibration_from_cells(_pvalues_of_step(summ, func), summ["cells"][i],
                                            dfs, a) for i, a in enumerate(analysis.alphas)]
        else:
            cont = [None] * len(analysis.alphas)
        p_default = summ["p_default"]
        null = _null_columns(summaries, analysis, source, sname, pair)
        fresh = (_fresh_check(summ, test, dfs, analysis, study, source, sname)
                 if analysis.fresh_check else [{}] * len(analysis.alphas))
        for i, alpha in enumerate(analysis.alphas):
            rows.append({**_base(study, source, pair, test, sname, r),
                         "alpha": alpha, "df_min": int(dfs[0]),
                         "df_max": int(dfs[-1]),
                         "default_df": spec.default_df(r, k),
                         "type1_default": float(np.mean(p_default <= alpha)),
                         "calibrated_df": int(res.calibrated_df[i]),
                         "df_boot_se": boot[i][0], "df_boot_low": boot[i][1],
                         "df_boot_high": boot[i][2],
                         "type1_error": res.type1_at_df[i], "mc_se": res.mc_se[i],
                         "ci_low": res.ci_low[i], "ci_high": res.ci_high[i],
                         "n_datasets": res.n_datasets,
                         **_continuous_columns(cont[i]), **null, **fresh[i]})
    return pd.DataFrame(rows)


def _null_columns(summaries, analysis, source, sname, pair) -> dict:
    """Both learners' mean null accuracy with its SE over the data sets, their mean
    difference with its SE, and the centre taken off (0 for ``null = "as_is"``)."""
    s = summaries[("null", source, sname, tuple(pair))]
    n = s["m"].size

    def mean_se(v):
        if n == 0 or np.isnan(v).all():
            return float("nan"), float("nan")
        return float(np.mean(v)), (float(np.std(v, ddof=1) / np.sqrt(n)) if n > 1
                                   else float("nan"))

    acc_a, se_a = mean_se(s["acc_a"])
    acc_b, se_b = mean_se(s["acc_b"])
    diff, se_d = mean_se(s["m"])
    return {"null": analysis.null, "accuracy_a": acc_a, "accuracy_a_se": se_a,
            "accuracy_b": acc_b, "accuracy_b_se": se_b, "null_difference": diff,
            "null_difference_se": se_d,
            "centre": diff if analysis.null == "centred" else 0.0}


def _fresh_check(summ, test, dfs, analysis, study, source, sname) -> list:
    """Calibrate on the first half of the data sets, and the Type I error at that df on
    the second half, a fresh null sample (other data sets, other seeds): one dict of
    ``fresh_*`` columns per α. The integer df is Bouckaert's rule; the continuous df is
    taken just below the threshold order statistic (where the Type I error on the first
    half is at most α) and checked at the same df on the second half."""
    from ..calibration import calibrated_df
    cells = summ["cells"].astype(np.int64)
    n = cells.shape[1]
    half = n // 2
    if half < 1:
        raise ValueError(f"analysis {analysis.name!r}: `fresh_check` needs >= 2 data sets "
                         f"(one half to calibrate, one to check); got {n}.")
    first, second = np.arange(half), np.arange(half, n)
    out = []
    func = test_callable(test, study, study.source(source), sname)
    pvalues_of = _pvalues_of_step(summ, func)
    for i, alpha in enumerate(analysis.alphas):
        if "rej" in summ:
            rej = summ["rej"][i]                                  # (n_df, N)
        else:
            rej = np.arange(dfs.size)[:, None] >= cells[i][None, :]
        curve = rej[:, first].mean(axis=1)
        df = int(calibrated_df(dfs, curve[None, :], np.array([alpha]))[0])
        type1 = float(rej[df - dfs[0], second].mean()) if df > 0 else float("nan")
        cont, _, _, _ = _calibration_from_cells(pvalues_of, cells[i][first], dfs, alpha)
        at = min(cont, 1e6) * (1 - 1e-9)
        p = pvalues_of(second)(np.full(second.size, at))
        out.append({"fresh_n_calibration": int(half), "fresh_n_check": int(second.size),
                    "fresh_df": df, "fresh_type1": type1,
                    "fresh_df_continuous": cont,
                    "fresh_type1_continuous": float(np.mean(np.asarray(p) <= alpha)),
                    "fresh_mc_se": float(np.sqrt(alpha * (1 - alpha) / second.size))})
    return out


def _grid_pvalues(first, func, x, dfs):
    """The test's p-values (n_df, N) at every df of the grid ``dfs``."""
    at_df = getattr(first, "_at_df", None)
    p = at_df(dfs[:, None]) if at_df is not None else _pvalues_of(func(x, dfs[:, None]))
    return _check_pvalues(np.asarray(p, dtype=float), (dfs.size, x.shape[0]))


def _continuous_columns(res):
    if res is None:
        return {}
    df, ci_low, ci_high, coverage = res
    return {"df_continuous": df, "df_ci_low": ci_low, "df_ci_high": ci_high,
            "df_ci_coverage": coverage}


class CalibratedDF:
    """Calibrated df looked up on a study's null data at any test, runs and α.

    The df is calibrated anew (cheap once the scores exist) on the first source and
    pair of the study's first ``calibrate`` analysis, with that analysis's df grid and
    its null (centred where it is).
    """

    def __init__(self, study, scores):
        cals = [a for a in study.analyses if a.kind == "calibrate"]
        if not cals:
            raise ValueError(f"study {study.name!r} ({study.path}) has no calibrate analysis to "
                             "take calibrated df from.")
        self.study, self.analysis = study, cals[0]
        self.scores = scores
        if self.analysis.null == "centred":     # calibrate on the differences it calibrated
            null = block_summaries(study, [self.analysis], scores, null_only=True)
            self.scores = SameDifferences(scores, null_centres(study, [self.analysis], null))
        self._cache = {}

    @property
    def n_datasets(self) -> int:
        """Null data sets of the calibration."""
        a = self.analysis
        return int(self.scores.n_datasets(a.sources[0], a.scheme_of(a.tests[0])))

    def __call__(self, test: str, r: int, alpha: float) -> int:
        key = (test, r, float(alpha))
        if key not in self._cache:
            a = self.analysis
            if test not in a.tests:
                raise ValueError(f"test {test!r} is not calibrated by study {self.study.name!r}; "
                                 f"it calibrates {list(a.tests)}.")
            sname = a.scheme_of(test)
            source, pair = a.sources[0], a.pairs[0]
            func = test_callable(test, self.study, self.study.source(source), sname)
            x = test_data(self.scores, source, sname, test, pair, r)
            dfs = np.arange(a.df_min, a.df_max + 1, dtype=np.int64)
            self._cache[key] = int(calibrate(func, x, alphas=[alpha], dfs=dfs).calibrated_df[0])
        return self._cache[key]


def _df_for(analysis, test, r, alpha, lookup, k):
    if analysis.df == "calibrated":
        return lookup(test, r, alpha), "calibrated"
    if analysis.df == "textbook":
        return get_test(test).default_df(r, k), "textbook"
    return analysis.df, "given"


#: Bytes of per-instance values expanded at once (the tests on per-instance outcomes run
#: on blocks of data sets of about this size; the p-values do not depend on it).
_INSTANCE_CHUNK_BYTES = 2 ** 27


def _pvalues(study, scores, source, sname, test, pair, r, df, group=0):
    func = test_callable(test, study, study.source(source), sname)
    spec = get_test(test)
    if spec.scheme in ("instances", "nested"):    # bounded memory: blocks of data sets
        n = scores.n_datasets(source, sname)
        scheme = study.scheme(sname)
        per = 8.0 * int(np.prod(scheme.split_shape[1:])) * _n_instances(study.source(source))
        per *= (scheme.p["n_folds"] if spec.scheme == "nested" else 1) * (
            (r or scheme.split_shape[0]) if spec.scheme == "nested" else 1)
        step = max(1, int(_INSTANCE_CHUNK_BYTES // max(per, 1.0)))
        return np.concatenate([np.asarray(func(test_data(
            scores, source, sname, test, pair, r, group, datasets=slice(i, i + step))).pvalue,
            dtype=float).reshape(-1) for i in range(0, n, step)])
    x = test_data(scores, source, sname, test, pair, r, group)
    res = func(x) if df is None else func(x, df)
    return np.asarray(res.pvalue, dtype=float)


def _test_cells(study, analysis, lookup):
    """Every (source, pair, test, scheme, runs, α, df, df rule, base row) of an analysis."""
    for source in analysis.sources:
        for pair in analysis.pairs:
            for test in analysis.tests:
                sname = analysis.scheme_of(test)
                k = _n_folds(study, sname)
                for r in _runs_of(analysis, study, sname):
                    for alpha in analysis.alphas:
                        df, rule = _df_for(analysis, test, r, alpha, lookup, k)
                        base = {**_base(study, source, pair, test, sname, r), "alpha": alpha,
                                "df": df, "df_rule": rule}
                        yield source, pair, test, sname, r, alpha, df, base


def no_calibrated_df(analysis, df) -> bool:
    """True where a calibrated df was asked for and the calibration found none: no df of
    its grid keeps the Type I error at or below α (its calibrated df is 0, as the paper
    reports it). The analyses then say so in their tables instead of testing."""
    return getattr(analysis, "df", None) == "calibrated" and df == 0


def _no_df_note(lookup, alpha) -> str:
    n = getattr(lookup, "n_datasets", None)
    on = f"on {n} data sets" if n else "on the calibration's data sets"
    return (f"no df keeps Type I ≤ α = {alpha:g} {on} (calibrated df 0): not tested; "
            "calibrate on more data sets")


def _rate_rows(study, analysis, scores, lookup, summaries=None) -> pd.DataFrame:
    if summaries is None:
        summaries = summarise(study, [analysis], scores, {analysis.name: lookup})
    rows, nan = [], float("nan")
    for source, pair, test, sname, r, alpha, df, base in _test_cells(study, analysis, lookup):
        p = summaries[(analysis.name, source, tuple(pair), test, r, alpha)]["p"]
        if no_calibrated_df(analysis, df):
            rows.append({**base, "rate": nan, "mc_se": nan, "ci_low": nan, "ci_high": nan,
                         "n": int(p.shape[0]), "note": _no_df_note(lookup, alpha)})
            continue
        rr = rejection_rate(p, alpha)
        rows.append({**base, "rate": rr.rate, "mc_se": rr.mc_se, "ci_low": rr.ci_low,
                     "ci_high": rr.ci_high, "n": rr.n})
    return _with_notes(rows)


def _with_notes(rows) -> pd.DataFrame:
    """The rows as a table; a ``note`` column only where some row has one."""
    table = pd.DataFrame(rows)
    if "note" in table:
        table["note"] = table["note"].fillna("")
    return table


def _replicability_rows(study, analysis, scores, lookup, summaries=None) -> pd.DataFrame:
    if summaries is None:
        summaries = summarise(study, [analysis], scores, {analysis.name: lookup})
    rows, nan = [], float("nan")
    for source, pair, test, sname, r, alpha, df, base in _test_cells(study, analysis, lookup):
        p = summaries[(analysis.name, source, tuple(pair), test, r, alpha)]["p"]
        if no_calibrated_df(analysis, df):
            rows.append({**base, "repeats": p.shape[1], "rejections": nan, "consistent": nan,
                         "consistent_se": nan, "almost_consistent": nan,
                         "almost_consistent_se": nan, "R": nan, "R_se": nan,
                         "n": int(p.shape[0]), "note": _no_df_note(lookup, alpha)})
            continue
        groups = p.shape[1]
        rep = replicability(p <= alpha)
        rows.append({**base, "repeats": groups,
                     "rejections": float(np.mean(np.sum(p <= alpha, axis=1))),
                     "consistent": rep.consistent,
                     "consistent_se": rep.consistent_se,
                     "almost_consistent": rep.almost_consistent,
                     "almost_consistent_se": rep.almost_consistent_se,
                     "R": rep.R, "R_se": rep.R_se, "n": rep.n_datasets})
    return _with_notes(rows)


# ---------------------------------------------------------------------------
# block summaries: what each analysis needs of each data set, computed block by block

#: Analysis kinds computed from per-block summaries (on the Dask workers).
BLOCK_KINDS = ("calibrate", "rejection_rate", "replicability", "bayes_datasets")


def by_blocks(analysis) -> bool:
    """Whether ``analysis`` is computed from block summaries: a calibrate, rejection-rate
    or replicability analysis whose df does not come from this study's own calibration
    (which needs every score at once)."""
    return analysis.kind in BLOCK_KINDS and not (
        getattr(analysis, "df", None) == "calibrated" and analysis.calibration is None)


class DFTable:
    """A calibrated-df lookup frozen to a table ``{(test, r, alpha): df}``, to send to
    workers (a :class:`CalibratedDF` holds scores)."""

    def __init__(self, table, n_datasets=None):
        self.table = dict(table)
        #: Data sets the df were calibrated on (for the tables' notes), if known.
        self.n_datasets = n_datasets

    def __call__(self, test, r, alpha):
        return self.table[(test, r, float(alpha))]


def frozen_lookup(study, analysis, lookup):
    """``lookup`` (a callable or None) as a :class:`DFTable` over every cell of ``analysis``."""
    if lookup is None or analysis.kind not in ("rejection_rate", "replicability",
                                               "coverage") or analysis.df != "calibrated":
        return None
    table = {}
    for _source, _pair, test, _sname, r, alpha, df, _base in _test_cells(study, analysis,
                                                                         lookup):
        table[(test, r, float(alpha))] = df
    return DFTable(table, getattr(lookup, "n_datasets", None))


def _null_cells(study, analysis):
    """The (source, scheme, pair) of ``analysis`` whose null accuracies are reported or
    whose differences are centred: every one of a calibrate or calibrate_rho analysis,
    and those of any analysis with ``null = "centred"`` (tests on per-fold differences)."""
    if analysis.kind not in ("calibrate", "calibrate_rho") and analysis.null != "centred":
        return []
    out = []
    for source in analysis.sources:
        for pair in analysis.pairs:
            for test in analysis.tests:
                sname = analysis.scheme_of(test)
                key = (source, sname, tuple(pair))
                if key not in out:
                    out.append(key)
    return out


def _null_summary(scores, source, sname, pair) -> dict:
    """Per data set (N,): the mean difference ``m`` over every split of the scheme and
    each learner's mean accuracy ``acc_a``, ``acc_b`` (NaN for simulated learners)."""
    x = scores.difference(source, sname, pair)
    n = x.shape[0]
    out = {"m": x.reshape(n, -1).mean(axis=1)}
    arrays = scores.arrays.get((source, sname), {}) if hasattr(scores, "arrays") else {}
    for field, learner in (("acc_a", pair[0]), ("acc_b", pair[1])):
        if "correct" in arrays:
            out[field] = scores.accuracy(source, sname, learner).reshape(n, -1).mean(axis=1)
        else:
            out[field] = np.full(n, np.nan)
    return out


def null_centres(study, analyses, summaries) -> dict:
    """``(source, scheme, pair) -> mean difference`` of every analysis with ``null =
    "centred"``, from the ``("null", ...)`` entries of :func:`block_summaries` over all
    data sets: the shift that makes the pair equally good on average."""
    out = {}
    for a in analyses:
        if a.null == "centred":
            for key in _null_cells(study, a):
                out[key] = float(np.mean(summaries[("null", *key)]["m"]))
    return out


def summarise(study, analyses, scores, lookups=None) -> dict:
    """:func:`block_summaries` of every data set of ``scores``, centred where an analysis
    asks (the centres are taken from these same data sets first)."""
    centres = None
    if any(a.null == "centred" for a in analyses):
        centres = null_centres(study, analyses,
                               block_summaries(study, analyses, scores, null_only=True))
    return block_summaries(study, analyses, scores, lookups, centres=centres)


def block_summaries(study, analyses, scores, lookups=None, sources=None, *, centres=None,
                    null_only=False) -> dict:
    """Per-data-set results of ``analyses`` on the data sets of ``scores``.

    Parameters
    ----------
    study : Study
    analyses : sequence of Analysis
        Analyses with :func:`by_blocks` true.
    scores : Scores
        The arrays of any contiguous block of data sets (all of them, or one block).
    lookups : dict of str to callable, optional
        Analysis name -> calibrated-df lookup, for ``df = "calibrated"``.
    sources : collection of str, optional
        Only these source labels (default: all).
    centres : dict, optional
        ``(source, scheme, pair) -> c`` (:func:`null_centres`): the differences of the
        analyses with ``null = "centred"`` are taken as x - c.
    null_only : bool, default False
        Only the ``("null", source, scheme, pair)`` entries (the per-data-set mean
        difference ``m`` and accuracies ``acc_a``, ``acc_b``), which the centres need.

    Returns
    -------
    dict
        ``(analysis name, source, pair, test, runs[, alpha]) -> {field: array}``, each
        array with one entry per data set along its last axis (``p``, ``p_default``:
        first axis). Concatenating the summaries of consecutive blocks
        (:func:`concat_summaries`) gives the summary of all of them, bit for bit: every
        entry is a function of its data set alone.
    """
    lookups = lookups or {}
    raw = scores
    out = {}
    for a in analyses:
        for key in _null_cells(study, a):
            if (sources is None or key[0] in sources) and ("null", *key) not in out:
                out[("null", *key)] = _null_summary(raw, *key)
    if null_only:
        return out
    centred = centres or {}
    scores = SameDifferences(raw, centred)
    plain = SameDifferences(raw)
    for a in analyses:
        if a.null == "centred":
            missing = [k for k in _null_cells(study, a) if k not in centred
                       and (sources is None or k[0] in sources)]
            if missing:
                raise ValueError(f"analysis {a.name!r} has null = 'centred' but no centre "
                                 f"was given for {missing} (see null_centres).")
        scores_a = scores if a.null == "centred" else plain
        if a.kind == "bayes_datasets":
            out.update(_datasets_summaries(study, a, scores_a, sources))
            continue
        if a.kind == "calibrate":
            dfs = np.arange(a.df_min, a.df_max + 1, dtype=np.int64)
            groups = {}             # the runs of one test, bisected together
            for source, pair, test, sname, r in _calibrate_cells(study, a):
                if sources is None or source in sources:
                    groups.setdefault((source, pair, test, sname), []).append(r)
            for (source, pair, test, sname), runs in groups.items():
                func = test_callable(test, study, study.source(source), sname)
                xs = [test_data(scores_a, source, sname, test, pair, r) for r in runs]
                firsts = [func(x) for x in xs]
                cells = [None] * len(runs)
                steps = [getattr(f, "_at_df", None) for f in firsts]
                if all(st is not None for st in steps):
                    # calibsim's t tests: p falls with df (the statistic grows with df and
                    # Student's t tail shrinks), so rejection is a step and each data
                    # set's first rejecting df is found by bisecting the grid (about 8
                    # p-values per data set, not n_df), for every runs and α at once
                    joint = _first_rejecting(type(steps[0]).concatenate(steps), dfs, a.alphas)
                    cells = np.split(joint, np.cumsum([x.shape[0] for x in xs])[:-1], axis=1)
                for r, x, first, cell in zip(runs, xs, firsts, cells):
                    out[(a.name, source, pair, test, r)] = _calibrate_summary(
                        func, x, dfs, a.alphas, a.continuous, first=first, cells=cell)
            continue
        lookup = lookups.get(a.name)
        for source, pair, test, sname, r, alpha, df, _ in _test_cells(study, a, lookup):
            if sources is not None and source not in sources:
                continue
            if no_calibrated_df(a, df):              # nothing to test: the rows say why
                n = scores.n_datasets(source, sname)
                scheme = study.scheme(sname)
                groups = scheme.p["repeats"] if scheme.kind == "cv5x2" else a.repeats
                p = np.full(n if a.kind == "rejection_rate" else (n, groups), np.nan)
            elif a.kind == "rejection_rate":
                p = _pvalues(study, scores_a, source, sname, test, pair, r, df)
            else:
                scheme = study.scheme(sname)
                groups = scheme.p["repeats"] if scheme.kind == "cv5x2" else a.repeats
                p = np.stack([_pvalues(study, scores_a, source, sname, test, pair, r, df, g)
                              for g in range(groups)], axis=1)
            out[(a.name, source, tuple(pair), test, r, alpha)] = {"p": p}
    return out


def needed_schemes(study, analyses, source) -> list:
    """The scheme names whose scores ``analyses`` read of source ``source``."""
    names = []
    for a in analyses:
        if source not in a.sources:
            continue
        for test in a.tests:
            name = a.scheme_of(test)
            if name not in names and name in study.source(source).schemes:
                names.append(name)
    return names


class SameDifferences:
    """``scores`` computing each pair's differences once, not once per test and runs,
    shifted by ``centres[(source, scheme, pair)]`` (minus the null mean difference) where
    given.

    The centred null (``null = "centred"`` of a ``calibrate`` or ``calibrate_rho``
    analysis, and :func:`calibsim.calibrate_like`) reads its differences through it;
    every other attribute is that of ``scores``.

    Parameters
    ----------
    scores : calibsim.engine.scores.Scores
        The study's scores (what :func:`test_data` reads).
    centres : dict, optional
        ``(source, scheme, pair)`` -> the null mean difference of that pair, to subtract
        from its per-fold differences (:func:`null_centres`); default none.
    """

    def __init__(self, scores, centres=None):
        self._scores, self._x = scores, {}
        self._centres = centres or {}
        self.study = scores.study

    def difference(self, source, scheme, pair):
        key = (source, scheme, tuple(pair))
        if key not in self._x:
            x = self._scores.difference(source, scheme, pair)
            if key in self._centres:
                x = x - self._centres[key]
            self._x[key] = x
        return self._x[key]

    def __getattr__(self, name):
        return getattr(self._scores, name)


def concat_summaries(parts) -> dict:
    """The summary of consecutive blocks from their summaries, given in data-set order."""
    parts = list(parts)
    if len(parts) == 1:
        return parts[0]
    out = {}
    for key in parts[0]:
        fields = [part[key] for part in parts]
        merged = {}
        for name in ("m", "acc_a", "acc_b"):
            if name in fields[0]:
                merged[name] = np.concatenate([f[name] for f in fields])
        if "p" in fields[0]:
            merged["p"] = np.concatenate([f["p"] for f in fields])
        if "diag" in fields[0]:
            merged["diag"] = np.concatenate([f["diag"] for f in fields])
        if "p_default" in fields[0]:
            merged["p_default"] = np.concatenate([f["p_default"] for f in fields])
            merged["cells"] = np.concatenate([f["cells"] for f in fields], axis=1)
            if any("rej" in f for f in fields):
                n_df = next(f["rej"].shape[1] for f in fields if "rej" in f)
                merged["rej"] = np.concatenate([f["rej"] if "rej" in f
                                                else _rej_of(f["cells"], n_df)
                                                for f in fields], axis=-1)
            if "step" in fields[0]:
                merged["step"] = type(fields[0]["step"]).concatenate([f["step"] for f in fields])
            if "x" in fields[0]:
                merged["x"] = np.concatenate([f["x"] for f in fields])
        out[key] = merged
    return out


def _rej_of(cells, n_df):
    """(n_alpha, n_df, B) verdicts of data sets whose rejection is a step at ``cells``."""
    return np.arange(n_df)[None, :, None] >= cells[:, None, :]


# ---------------------------------------------------------------------------
# coverage: how often a test's interval holds a known truth

#: Tests whose result gives a confidence interval (``confidence_interval``): every
#: registered t test but the averaged-T ones (no standard error of the mean), and the
#: tests on per-instance outcomes; not the 5x2cv F or the holdout tests' counts.
def interval_tests() -> tuple:
    """Names of the registered tests a ``coverage`` analysis can run (see above)."""
    from ..stats import INSTANCE_TESTS, TESTS
    return tuple(t for t, s in TESTS.items() if s.scheme != "holdout" and t != "cv5x2_f"
                 and not t.endswith("_averaged_t")) + tuple(INSTANCE_TESTS)


#: The quantities a ``coverage`` analysis's intervals are for.
COVERAGE_TARGETS = ("difference", "error")


def _intervals(study, scores, source, sname, test, pair, r, alpha, target, df=None):
    """Low and high ends, (N,) each, of ``test``'s 1 - α interval on every data set (at
    ``df``; None: the test's textbook df), and its estimates (N,); the tests on per-instance outcomes run on blocks of data sets of
    about :data:`_INSTANCE_CHUNK_BYTES` (the intervals do not depend on the block)."""
    func = test_callable(test, study, study.source(source), sname)
    spec = get_test(test)
    n = scores.n_datasets(source, sname)
    step = n
    if spec.scheme in ("instances", "nested"):
        scheme = study.scheme(sname)
        per = 8.0 * int(np.prod(scheme.split_shape[1:])) * _n_instances(study.source(source))
        per *= (scheme.p["n_folds"] if spec.scheme == "nested" else 1) * (
            (r or scheme.split_shape[0]) if spec.scheme == "nested" else 1)
        step = max(1, int(_INSTANCE_CHUNK_BYTES // max(per, 1.0)))
    low, high, est = [], [], []
    for i in range(0, n, step):
        x = test_data(scores, source, sname, test, pair, r, datasets=slice(i, i + step),
                      target=target)
        res = func(x) if df is None else func(x, df)
        ci = res.confidence_interval(1.0 - alpha)
        low.append(np.asarray(ci.low, dtype=float).reshape(-1))
        high.append(np.asarray(ci.high, dtype=float).reshape(-1))
        est.append(np.asarray(res._estimate, dtype=float).reshape(-1))
    return np.concatenate(low), np.concatenate(high), np.concatenate(est)


def _coverage_rows(study, analysis, scores, lookup=None, truths=None) -> pd.DataFrame:
    """The ``coverage`` analysis: per source, test, runs and α, the share of data sets
    whose two-sided 1 - α interval holds the source's truth (``analysis.truth``).

    The intervals are at the tests' textbook df (``df = "textbook"``, the default), at
    the df calibrated for the cell (``df = "calibrated"``: ``lookup``, this study's
    calibrate analysis or its ``calibration`` study file's) or at a given df; with the
    last two the rows also hold ``df`` and ``df_rule``. A calibrated df of 0 (no df
    keeps the Type I error at α) gives NaN coverage and a ``note``. ``truths``: drawn
    truths already computed (a dict this fills), shared by a study's coverage analyses.

    Columns (besides the shared ones): ``target`` ("difference": accuracy of ``pair_a``
    minus ``pair_b`` in [-1, 1]; "error": ``pair_a``'s error rate in [0, 1]),
    ``confidence`` (1 - α), ``truth``, ``coverage`` with its Monte Carlo SE ``mc_se``
    and Clopper-Pearson 95% interval ``ci_low``/``ci_high``, ``miss_below`` (the truth
    below the interval) and ``miss_above`` (above it), ``mean_width``,
    ``mean_estimate`` and ``n`` (data sets).
    """
    from ..measures import _clopper_pearson
    scores = SameDifferences(scores)
    rows = []
    target = analysis.target
    drawn = {} if truths is None else truths
    for source, pair, test, sname, r, alpha, df, base in _test_cells(study, analysis, lookup):
        if analysis.truth == "drawn":
            dt = _drawn_truth(study, analysis, source, sname, pair, drawn)
            truth = dt.value
        else:
            truth = analysis.truth_of(study.source(source))
        at = None if analysis.df == "textbook" else df
        low, high, est = _intervals(study, scores, source, sname, test, pair, r, alpha, target,
                                    df=at)
        n = low.size
        below, above = truth < low, truth > high
        covered = ~(below | above)
        k = int(covered.sum())
        rate = k / n if n else float("nan")
        lo, hi = _clopper_pearson(k, n, 0.95) if n else (float("nan"),) * 2
        if analysis.df == "textbook":           # the tables of before: no df columns
            base = {key: v for key, v in base.items() if key not in ("df", "df_rule")}
        if target == "error":
            base["pair_b"] = ""
        rows.append({**base, "target": target, "confidence": 1.0 - alpha, "truth": truth,
                     "coverage": rate,
                     "mc_se": float(np.sqrt(rate * (1 - rate) / n)) if n else float("nan"),
                     "ci_low": lo, "ci_high": hi,
                     "miss_below": float(below.mean()) if n else float("nan"),
                     "miss_above": float(above.mean()) if n else float("nan"),
                     "mean_width": float(np.mean(high - low)) if n else float("nan"),
                     "mean_estimate": float(np.mean(est)) if n else float("nan"), "n": n})
        if analysis.truth == "drawn":
            rows[-1].update(_drawn_columns(dt, low, high))
        if no_calibrated_df(analysis, df):       # not tested: no interval at this df
            rows[-1].update({k: float("nan") for k in rows[-1] if k.startswith(
                ("coverage", "mc_se", "ci_", "miss_", "mean_width"))})
            rows[-1]["note"] = _no_df_note(lookup, alpha)
    return pd.DataFrame(rows)


def _drawn_truth(study, analysis, source, sname, pair, cache):
    """The drawn truth (:func:`calibsim.engine._truth.drawn_truth`) of ``source`` at the
    training size of scheme ``sname``, computed once per source and training size."""
    from ._truth import drawn_truth, train_size
    spec = study.source(source)
    m = train_size(study.scheme(sname), _n_instances(spec))
    key = (source, m, tuple(pair), analysis.truth_fits, analysis.truth_test, analysis.target)
    if key not in cache:
        by_label = {lrn.label: lrn for lrn in study.learners_of(spec)}
        cache[key] = drawn_truth(
            spec, [by_label[x] for x in pair if x], n_train=m, fits=analysis.truth_fits,
            n_test=analysis.truth_test, seed=spec.seed, target=analysis.target)
    return cache[key]


#: Truth Monte Carlo SEs a drawn truth is moved by either way for ``coverage_truth_*``.
TRUTH_SPAN = 2.0


def _covered_range(low, high, a, b) -> tuple:
    """Fewest and most intervals (low, high) holding one truth t, over t in [a, b] (the
    count only changes at the ends of the intervals, so those, the points just outside
    them and a, b are all the candidates; NaN ends count as holding, as in the table)."""
    ends = np.concatenate([low, np.nextafter(low, -np.inf), high,
                           np.nextafter(high, np.inf), [a, b]])
    t = ends[np.isfinite(ends) & (ends >= a) & (ends <= b)]
    k = (~((t[:, None] < low[None, :]) | (t[:, None] > high[None, :]))).sum(axis=1)
    return int(k.min()), int(k.max())


def _drawn_columns(dt, low, high) -> dict:
    """Columns a drawn truth adds to a coverage row: the truth's Monte Carlo SE
    ``truth_se``, training size ``n_train``, ``truth_fits`` and ``truth_method``; the
    coverage while the truth moves :data:`TRUTH_SPAN` SEs either way
    (``coverage_truth_low``, ``coverage_truth_high``), and the Clopper-Pearson 95% ends
    of those two counts (``ci_low_both``, ``ci_high_both``): nominal coverage outside
    them is a difference beyond the Monte Carlo error of both the data sets and the
    truth."""
    from ..measures import _clopper_pearson
    n = low.size
    a, b = dt.value - TRUTH_SPAN * dt.se, dt.value + TRUTH_SPAN * dt.se
    k_lo, k_hi = _covered_range(low, high, a, b) if n else (0, 0)
    return {"truth_se": dt.se, "n_train": dt.n_train, "truth_fits": dt.fits,
            "truth_method": dt.method,
            "coverage_truth_low": k_lo / n if n else float("nan"),
            "coverage_truth_high": k_hi / n if n else float("nan"),
            "ci_low_both": _clopper_pearson(k_lo, n, 0.95)[0] if n else float("nan"),
            "ci_high_both": _clopper_pearson(k_hi, n, 0.95)[1] if n else float("nan")}


def rho_rows(study, analysis, scores) -> pd.DataFrame:
    """Calibrated ρ of the correlated Bayesian t test (threshold = 1 - α) per source, pair,
    runs, α and ROPE: calibrated on the first half of the data sets, its decision rate
    checked on the other half (a fresh null collection), beside the rate at the default
    ρ = 1/k. The ROPE is the analysis's ``ropes`` or, by default, the test's own."""
    from ..calibration import calibrate_rho, decision_rate
    null = block_summaries(study, [analysis], scores, null_only=True)
    centred = SameDifferences(scores, null_centres(study, [analysis], null))
    rows = []
    for source, pair, test, sname, r, alpha, _, base in _test_cells(study, analysis, None):
        x = test_data(centred, source, sname, test, pair, r)
        half = x.shape[0] // 2
        if half < 1:
            raise ValueError(f"analysis {analysis.name!r}: calibrating rho needs >= 2 data "
                             f"sets (one half to calibrate, one to check); got {x.shape[0]}.")
        fresh = x[half:]
        n = fresh.shape[0]
        base = {k: v for k, v in base.items() if k not in ("df", "df_rule")}
        for rope in analysis.ropes or (0.01 if test.endswith("_rope1") else 0.0,):
            cal = calibrate_rho(x[:half], threshold=1 - alpha, rope=rope)
            rate_cal = decision_rate(fresh, rho=min(cal.rho * (1 + 1e-9), 0.999999),
                                     rope=rope, threshold=1 - alpha)
            rate_def = decision_rate(fresh, rope=rope, threshold=1 - alpha)
            rows.append({**base, "threshold": 1 - alpha, "rope": rope,
                         "rho_default": 1 / x.shape[-1], "rho": cal.rho,
                         "rho_ci_low": cal.ci_low, "rho_ci_high": cal.ci_high,
                         "coverage": cal.coverage, "n_calibration": half,
                         "decision_rate_default": rate_def,
                         "decision_rate_calibrated": rate_cal,
                         "mc_se": float(np.sqrt(alpha * (1 - alpha) / n)), "n_check": n,
                         **_null_columns(null, analysis, source, sname, pair)})
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------
# bayes_datasets: the hierarchical and signed-rank tests over groups of q data sets

def _rho_value(rho, k, a=None, r=None):
    """The ρ of a ``bayes_datasets`` entry: 1/k, a number, or ``"calibrated"``: the shipped
    rho table's (:func:`calibsim.lookup_rho`) for r x k cv at the analysis's first threshold
    and first ROPE (the correlated Bayesian t's calibrated ρ)."""
    if rho == "1/k":
        return 1.0 / k
    if rho == "calibrated":
        from ..calibration import lookup_rho
        return float(lookup_rho(threshold=a.thresholds[0], rope=a.ropes[0], n_folds=k,
                                n_runs=r).rho)
    return float(rho)


def _datasets_summaries(study, a, scores, sources=None, sampler=DATASETS_SAMPLER,
                        initial_metric="scaled", n_warmup=DATASETS_WARMUP,
                        target_accept=DATASETS_TARGET_ACCEPT) -> dict:
    """Per comparison (q consecutive data sets of a block; a remainder of fewer than q is
    left out), the posterior probabilities (left, rope, right) at every ROPE:
    ``(name, source, pair, test, q, rho) -> {"p": (n_comparisons, repeats, n_ropes, 3),
    "diag": (n_comparisons, repeats) True where the sampler's diagnostics were good}``.

    Repeat g uses runs g·r .. (g+1)·r - 1 of the same data sets (new partitions), for
    replicability; the ρ values after the first ("1/k") are run on repeat 0 only. Every
    comparison's seed is keyed by the study seed and its own differences (their CRC-32),
    so the results do not depend on the block size or the worker count.

    ``sampler="numba"`` (the default) samples every hierarchical comparison with
    calibsim's NUTS in numba (:mod:`calibsim.stats._hierarchical_nuts`: the same model,
    NUTS and warm-up as NumPyro's, each chain on its own, 5-10x less CPU per fit; its
    draws agree with NumPyro's within Monte Carlo error, tested). ``sampler="batched"``
    samples the hierarchical comparisons of each (source, pair, q)
    together, every ρ in one list, so that only the last batch is part filled with copies
    (:func:`calibsim.stats.hierarchical_bayesian_batch`, same seeds, and the same draws
    as batched by ρ: a comparison's draws do not depend on its batch), "single"
    one after another (:func:`calibsim.stats.hierarchical_bayesian_test`): the same
    posteriors, other draws (within Monte Carlo error of each other). "auto" batches where the batched program runs several comparisons per call (q of
    at most 16 data sets, padded: ``batch_size``) and samples one at a time above, where
    a batch would be one padded comparison (the study's sampler before the fifth round
    of issue 46).

    ``initial_metric="scaled"`` (the default here, not the test's): NUTS's adaptation
    starts from a metric scaled to the data (see
    :func:`calibsim.stats.hierarchical_bayesian_test`), the same model and NUTS with fewer
    leapfrog steps per fit; "unit" from the identity. ``n_warmup``: warm-up iterations
    per chain (:data:`DATASETS_WARMUP`, 500) and ``target_accept`` NUTS's target
    acceptance (0.9), settings of the analysis, not of the test (whose defaults are 1,000
    and 0.9). ``sampler="single", initial_metric="unit"`` gives the draws of the study's
    outputs before issue 46; ``benchmarks/bench_hierarchical.py --study`` times each.
    """
    import warnings
    import zlib

    from ..stats import (bayesian_signed_rank_test, hierarchical_bayesian_batch,
                         hierarchical_bayesian_test)
    from ..stats._hierarchical import HierarchicalDiagnosticWarning
    from ..stats._hierarchical_batch import batch_size, padded_size
    out = {}
    sname = a.schemes[0][1]
    for source in a.sources:
        if sources is not None and source not in sources:
            continue
        for pair in a.pairs:
            x = scores.difference(source, sname, tuple(pair))     # (N, R, k)
            n, big_r, k = x.shape
            r = a.runs[0] if a.runs else big_r // a.repeats
            for q in a.datasets:
                groups = x[: (n // q) * q].reshape(n // q, q, big_r, k)
                for ti, test in enumerate(a.tests):
                    rhos = a.rhos if test == "hierarchical" else ("1/k",)
                    summ = {}
                    batch = []      # batched fits of every ρ together: (ρ, gi, rep, x, seed)
                    for ri, rho in enumerate(rhos):
                        reps = a.repeats if ri == 0 else 1
                        p = np.zeros((groups.shape[0], reps, len(a.ropes), 3))
                        diag = np.ones((groups.shape[0], reps), dtype=bool)
                        summ[rho] = {"p": p, "diag": diag}
                        for gi, g in enumerate(groups):
                            for rep in range(reps):
                                xs = np.ascontiguousarray(g[:, rep * r:(rep + 1) * r])
                                key = zlib.crc32(xs.tobytes())
                                seed = np.random.SeedSequence(
                                    [study.seed, key, q, ti, ri, rep])
                                if test == "hierarchical" and (
                                        sampler in ("batched", "numba") or sampler == "auto"
                                        and batch_size(padded_size(q)) > 1):
                                    batch.append((rho, gi, rep, xs, seed))
                                    continue
                                if test == "signed_rank":
                                    d = xs.mean(axis=(1, 2))
                                    for j, rope in enumerate(a.ropes):
                                        res = bayesian_signed_rank_test(
                                            d, rope=rope, n_samples=20_000,
                                            random_state=seed)
                                        p[gi, rep, j] = res.p_left, res.p_rope, res.p_right
                                    continue
                                with warnings.catch_warnings():
                                    warnings.simplefilter("ignore", HierarchicalDiagnosticWarning)
                                    res = hierarchical_bayesian_test(
                                        xs, rope=a.ropes[0], rho=_rho_value(rho, k, a, r),
                                        random_state=seed, n_samples=DATASETS_DRAWS,
                                        n_chains=DATASETS_CHAINS,
                                        n_warmup=n_warmup, target_accept=target_accept,
                                        initial_metric=initial_metric)
                                diag[gi, rep] = res.diagnostics_ok
                                for j, rope in enumerate(a.ropes):
                                    p[gi, rep, j] = _hier_probs(res, rope)
                    if batch:
                        # every ρ in one list: the batches of a fixed size are filled
                        # across ρ (a comparison's draws do not depend on its batch)
                        results = hierarchical_bayesian_batch(
                            [b[3] for b in batch], rope=a.ropes[0],
                            rho=[_rho_value(b[0], k, a, r) for b in batch],
                            random_states=[b[4] for b in batch], n_samples=DATASETS_DRAWS,
                            n_chains=DATASETS_CHAINS,
                            n_warmup=n_warmup, warn=False, target_accept=target_accept,
                            initial_metric=initial_metric,
                            sampler="numba" if sampler == "numba" else "batched")
                        for (rho, gi, rep, _, _), res in zip(batch, results):
                            summ[rho]["diag"][gi, rep] = res.diagnostics_ok
                            for j, rope in enumerate(a.ropes):
                                summ[rho]["p"][gi, rep, j] = _hier_probs(res, rope)
                    for rho in rhos:
                        out[(a.name, source, tuple(pair), test, q, rho)] = summ[rho]
    return out


def _hier_probs(res, rope):
    """P(left), P(rope), P(right) of a hierarchical result at ``rope`` (same draws)."""
    return res.probabilities(rope)


def _datasets_rows(study, a, scores, summaries=None) -> pd.DataFrame:
    """The ``bayes_datasets`` table: per source, pair, test, q, ρ, ROPE and threshold, the
    decision rate (A or B declared better beyond the ROPE) with its Monte Carlo SE, the
    rate of each decision, and at ρ = 1/k the replicability of the decision over the
    repeats (Bouckaert & Frank 2004's consistency and R, on "difference declared")."""
    if summaries is None:
        summaries = _datasets_summaries(study, a, SameDifferences(scores))
    sname = a.schemes[0][1]
    k = _n_folds(study, sname)
    r_cmp = _runs_of(a, study, sname)[0]
    rows = []
    for source in a.sources:
        for pair in a.pairs:
            for test in a.tests:
                rhos = a.rhos if test == "hierarchical" else ("1/k",)
                for q in a.datasets:
                    for rho in rhos:
                        summ = summaries[(a.name, source, tuple(pair), test, q, rho)]
                        p, diag = summ["p"], summ["diag"]
                        n = p.shape[0]
                        base = _base(study, source, pair, "accuracy", sname,
                                     a.runs[0] if a.runs else None)
                        base["test"] = test
                        base["label"] = {"hierarchical": "hierarchical test",
                                         "signed_rank": "Bayesian signed-rank test"}[test]
                        for j, rope in enumerate(a.ropes):
                            for th in a.thresholds:
                                left = p[:, :, j, 0] >= th
                                right = p[:, :, j, 2] >= th
                                eq = p[:, :, j, 1] >= th
                                declared = left | right
                                rate = float(declared[:, 0].mean()) if n else np.nan
                                hier = test == "hierarchical"      # rho is its alone
                                row = {**base, "datasets_per_comparison": q,
                                       "rho": (rho if isinstance(rho, str) else float(rho))
                                       if hier else "",
                                       "rho_value": _rho_value(rho, k, a, r_cmp) if hier
                                       else np.nan,
                                       "rope": rope,
                                       "threshold": th, "n_comparisons": n,
                                       "decision_rate": rate,
                                       "mc_se": float(np.sqrt(rate * (1 - rate) / n)) if n
                                       else np.nan,
                                       "rate_a_better": float(right[:, 0].mean()) if n else np.nan,
                                       "rate_b_better": float(left[:, 0].mean()) if n else np.nan,
                                       "rate_rope": float(eq[:, 0].mean()) if n else np.nan,
                                       "poor_diagnostics": float(1 - diag[:, 0].mean()) if n
                                       else np.nan}
                                if p.shape[1] >= 2 and n:
                                    rep = replicability(declared)
                                    row.update({"repeats": p.shape[1],
                                                "consistent": rep.consistent,
                                                "R": rep.R, "R_se": rep.R_se})
                                else:
                                    row.update({"repeats": p.shape[1], "consistent": np.nan,
                                                "R": np.nan, "R_se": np.nan})
                                rows.append(row)
    return pd.DataFrame(rows)


def _accuracy_rows(study, analysis, scores) -> pd.DataFrame:
    rows = []
    labels = [lrn.label for lrn in study.learners] or ["A", "B"]
    for source in analysis.sources:
        for _, sname in analysis.schemes:
            if sname not in study.source(source).schemes:
                continue
            for learner in labels:
                acc = scores.accuracy(source, sname, learner)
                per_ds = acc.reshape(acc.shape[0], -1).mean(axis=1)
                n = per_ds.size
                size = scores.model_size(source, sname, learner)
                cost = scores.costs(source, sname, learner)
                rows.append({"source": source, "group": study.source(source).group,
                             **{k: (Path(v).stem if k in ("network", "path") else v)
                                for k, v in study.source(source).grid},
                             "learner": learner, "scheme": sname,
                             "accuracy": float(per_ds.mean()),
                             "accuracy_se": float(per_ds.std(ddof=1) / np.sqrt(n)) if n > 1
                             else np.nan,
                             "accuracy_sd": float(per_ds.std(ddof=1)) if n > 1 else np.nan,
                             "model_size": float(np.mean(size)),
                             "fit_time": float(np.mean(cost["fit_time"])),
                             "predict_time": float(np.mean(cost["predict_time"])),
                             "n": n})
    return pd.DataFrame(rows)


def run_analyses(study, scores, *, calibrations=None, n_boot: int = 200,
                 summaries=None, compute: bool = True, client=None) -> dict:
    """Run every analysis of ``study`` on its scores.

    Parameters
    ----------
    study : Study
    scores : Scores
        All the study's scores; only read by the analyses that ``summaries`` does not
        cover (it may load them lazily).
    calibrations : dict of pathlib.Path to CalibratedDF, optional
        Calibrated-df lookups of other study files named by ``calibration`` keys.
    n_boot : int, default 200
        Bootstrap resamples for the calibrated df's error (0 to skip).
    summaries : dict, optional
        The :func:`block_summaries` of every data set, for the analyses with
        :func:`by_blocks` true (computed block by block on the workers by
        :func:`calibsim.engine.run.analyse_blocks`); None computes them here from
        ``scores``. The tables are the same bit for bit either way.
    compute : bool, default True
        False (``calibsim report``): a ``plan`` analysis fits nothing and raises
        ``FileNotFoundError`` if a repeat is not in the store.
    client : LocalPool or distributed.Client, optional
        Workers for the bootstrap of the ``calibrate`` analyses (:func:`calibration_rows`);
        None computes it here. The tables are the same either way.

    Returns
    -------
    dict of str to pandas.DataFrame
        Analysis name -> tidy table.
    """
    calibrations = calibrations or {}
    lookups = analysis_lookups(study, calibrations)
    own = None
    out = {}
    truths = {}                   # drawn truths, shared by the coverage analyses
    for a in study.analyses:
        summ = summaries if summaries is not None and by_blocks(a) else None
        if a.kind == "calibrate":
            out[a.name] = calibration_rows(study, a, scores, n_boot=n_boot, summaries=summ,
                                           client=client)
            continue
        if a.kind == "accuracy":
            out[a.name] = _accuracy_rows(study, a, scores)
            continue
        if a.kind == "calibrate_rho":
            out[a.name] = rho_rows(study, a, scores)
            continue
        if a.kind == "bayes_datasets":
            out[a.name] = _datasets_rows(study, a, scores, summ)
            continue
        if a.kind == "coverage":
            lookup = lookups.get(a.name)
            if a.df == "calibrated" and a.calibration is None:
                own = own or CalibratedDF(study, scores)
                lookup = own
            out[a.name] = _coverage_rows(study, a, scores, lookup, truths)
            continue
        if a.kind == "plan":          # calibsim.plan on the sources' data, from the store
            from ._plan_analysis import plan_rows
            out[a.name] = plan_rows(study, a, saved_only=not compute)
            continue
        lookup = lookups.get(a.name)
        if a.df == "calibrated" and a.calibration is None:
            own = own or CalibratedDF(study, scores)
            lookup = own
        fn = _rate_rows if a.kind == "rejection_rate" else _replicability_rows
        out[a.name] = fn(study, a, scores, lookup, summ)
    return out


def analysis_lookups(study, calibrations) -> dict:
    """Analysis name -> calibrated-df lookup (a :class:`DFTable`) of every analysis
    that takes its df from another study file's calibration."""
    return {a.name: frozen_lookup(study, a, calibrations[a.calibration])
            for a in study.analyses
            if a.kind in ("rejection_rate", "replicability", "coverage")
            and a.df == "calibrated" and a.calibration is not None}
