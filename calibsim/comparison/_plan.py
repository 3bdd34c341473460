"""Plan an experiment before running it: Type I error, power and replicability of every
design and test on your data (``calibsim plan``).

For each design (default 10x10, 5x10, 10x5, 5x2cv, 1x10 and a holdout split) the two
learners are fitted on N repeats of the design with new partitions of the user's data
(the blocks of :func:`calibsim.compare`, so the same local pool or Dask cluster). The
better learner is then damaged by random errors calibrated at the design's
training-set size (:func:`calibrate_damage`, Dietterich 1998 §5): at Δ = 0 the two
learners have the same expected accuracy (a null on the real data at its class prior);
at Δ > 0 the undamaged one is better by Δ. The damage of every Δ is drawn on the same
fits (binomial thinning of each fold's correct count; per instance for McNemar's
counts), so the fits are paid once for all Δ.

Every test of the registry that fits the design is run on every repeat at the df
:func:`calibsim.compare` uses (the shipped calibrated df where the table covers the
design, else the textbook df), giving its Type I error (Δ = 0), power (Δ > 0) and
Bouckaert & Frank's (2004) replicability R(k, N) over the N repeats, each with its Monte
Carlo standard error. Beside the damaged-learner power stands the fast "shift"
estimate: the null's per-fold differences centred on their mean, plus Δ, with no
refitting and no damage.
"""

from __future__ import annotations

import sys
import time
import warnings
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..reports import Reportable

__all__ = ["plan", "PlanResult", "DEFAULT_DESIGNS"]

#: The designs :func:`plan` compares by default.
DEFAULT_DESIGNS = ("10x10", "5x10", "10x5", "5x2cv", "1x10", "holdout")


@dataclass(frozen=True)
class PlanResult(Reportable):
    """Outcome of :func:`plan`: which design and test detect Δ on your data.

    Attributes
    ----------
    data : str
        The data and its shape.
    learners : tuple of str
        The two learners (A, B).
    damaged : str
        The learner given random errors (the better one, unless ``damage`` named it).
    differences : tuple of float
        Δ values in accuracy units (0 first: the null).
    alpha, power, replicability : float
        Level α, target power and least replicability of the recommendation.
    n_datasets : int
        Repeats N of each design (new partitions and new damage each).
    table : pandas.DataFrame
        One row per design, test and Δ: ``design``, ``test``, ``label``, ``fits`` (model
        fits per experiment: 2 × splits), ``df`` and ``df_source`` (as
        :func:`calibsim.compare` takes them), ``df_fallback`` (True where the calibrated
        df was asked for and the shipped table has none: the textbook df stands in, and
        the test is not recommended), ``difference`` (Δ, accuracy units),
        ``damage_rate``, ``damaged_ahead`` (True: the damaged learner stays Δ ahead, Δ
        being at most the learners' own gap; False: it falls Δ behind),
        ``rejection_rate`` (Type I error at Δ = 0, power at Δ > 0) and
        ``rejection_se``, ``replicability`` (R(k, N) of Bouckaert & Frank 2004) and
        ``replicability_se``, ``shift_rate`` and ``shift_se`` (the shift estimate; NaN
        for McNemar's and the proportions test, which take counts). Rates in [0, 1].
    null : pandas.DataFrame
        Per design, the damaged real-data null: ``design``, ``n_train``,
        ``damaged`` (the learner given random errors), ``damage_rate``,
        ``accuracy_other``, ``accuracy_damaged`` and ``accuracy_undamaged`` (the damaged
        learner before its damage; means over the N repeats, in [0, 1]),
        ``difference`` and ``difference_se`` (other − damaged, the damage drawn) and
        ``calibration_se`` (SE of the undamaged difference the rate was solved from).
    recommendation : pandas.DataFrame
        Per Δ > 0: the cheapest design and test at a calibrated df (or with none to
        calibrate) whose power reaches ``power`` with replicability ≥ ``replicability``
        and a Type I error not significantly above α (one-sided binomial test at 5%)
        (``design`` and ``test`` None when none does), and a ``statement``.
    seconds : float
        Wall time.
    estimated_seconds : float
        The time estimate printed before the repeats (:func:`estimate_seconds`; NaN
        without ``progress``), for the work after it (``work_seconds``).
    work_seconds : float
        Wall time of the repeats, calibrations and tests (``seconds`` less the data's
        preparation and the estimate's pilot).
    """

    data: str
    learners: tuple
    damaged: str
    differences: tuple
    alpha: float
    power: float
    replicability: float
    n_datasets: int
    table: pd.DataFrame = field(repr=False)
    null: pd.DataFrame = field(repr=False)
    recommendation: pd.DataFrame = field(repr=False)
    seed: object = 0
    seconds: float = float("nan")
    estimated_seconds: float = float("nan")
    work_seconds: float = float("nan")

    def to_frame(self) -> pd.DataFrame:
        """The table (a copy): one row per design, test and Δ."""
        return self.table.copy()

    def summary(self) -> pd.DataFrame:
        """Per design and test: Type I error, then power and replicability at each Δ, in
        percent (the printed table)."""
        t = self.table
        rows = []
        for (design, test), g in t.groupby(["design", "test"], sort=False):
            g = g.set_index("difference")
            df = g["df"].iloc[0]
            row = {"design": design, "test": g["label"].iloc[0], "fits": int(g["fits"].iloc[0]),
                   "df": ("—" if not np.isfinite(df) and df != np.inf else f"{df:.4g}")
                   + ("*" if g["df_fallback"].iloc[0] else ""),
                   "Type I (%)": _pm(g.loc[0.0, "rejection_rate"], g.loc[0.0, "rejection_se"])}
            for d in self.differences[1:]:
                row[f"power Δ={100 * d:g} (%)"] = _pm(g.loc[d, "rejection_rate"],
                                                      g.loc[d, "rejection_se"])
                row[f"R Δ={100 * d:g}"] = f"{g.loc[d, 'replicability']:.2f}"
                row[f"shift Δ={100 * d:g} (%)"] = (
                    "—" if np.isnan(g.loc[d, "shift_rate"])
                    else f"{100 * g.loc[d, 'shift_rate']:.0f}")
            rows.append(row)
        return pd.DataFrame(rows)

    def scope(self) -> str:
        """What the rates are conditional on, in one sentence."""
        if "random subsample" in self.data:
            return ("Each repeat draws a new subsample of the data, new partitions and new "
                    "damage, so the rates vary the data as Dietterich's (1998) did.")
        return ("Each repeat keeps all your data and draws new partitions and new damage: the "
                "rates are conditional on this data set, so tests that allow for the variation "
                "between data sets (the corrected t tests) reject less here than over new "
                "data; --n-instances (n_instances) draws a subsample per repeat instead.")

    def _report(self):
        from ._plan_report import plan_report
        return plan_report(self)

    def plot_power(self, ax=None):
        """Power against Δ, one line per design (its default test), with MC error bars.

        Returns the matplotlib Figure (a new one unless ``ax`` is given)."""
        from ._plan_report import plot_power
        return plot_power(self, ax=ax)

    def __str__(self) -> str:
        a, b = self.learners
        lines = [f"plan: {self.data}",
                 f"learners {a} (A) and {b} (B); the better one ({self.damaged}) damaged by "
                 "random errors (Dietterich 1998, §5) so that the two differ by Δ at each "
                 "design's training-set size (the damaged one ahead by Δ up to their own gap, "
                 f"behind by Δ beyond it); {self.n_datasets} repeats per design; "
                 f"α = {self.alpha:g}",
                 "", "the real-data null (Δ = 0), mean over the repeats:"]
        for r in self.null.itertuples():
            oth = b if r.damaged == a else a
            lines.append(f"  {r.design:>8}: n_train {r.n_train:.0f}, {r.damaged} damaged at rate "
                         f"{r.damage_rate:.4f}; {oth} {100 * r.accuracy_other:.2f}%, "
                         f"{r.damaged} {100 * r.accuracy_damaged:.2f}%, difference "
                         f"{100 * r.difference:+.2f} ± {100 * r.difference_se:.2f} points")
        lines += ["", "Type I error, power (damaged learner) and replicability R, in % ± MC "
                  "SE; shift = the fast estimate (null differences + Δ, no refitting):",
                  self.summary().to_string(index=False), ""]
        if self.table["df_fallback"].any():
            lines.append("* textbook df: the shipped table has no calibrated df for this test "
                         "and design; such tests are not recommended.")
            lines.append("")
        lines += list(self.recommendation["statement"])
        lines += ["", self.scope()]
        lines.append("'no significant difference' from a design without the power for Δ is "
                     "not evidence of equality (for that, the Bayesian test's ROPE).")
        return "\n".join(lines)


def _pm(rate, se) -> str:
    return f"{100 * rate:.1f} ± {100 * se:.1f}"


def _tests_for(d, tests) -> list:
    from ..stats import TESTS, fits_design, get_test
    if tests is None:
        return [n for n in TESTS if fits_design(n, d.kind, d.n_runs, d.n_folds)]
    names = [tests] if isinstance(tests, str) else list(tests)
    return [get_test(n).name for n in names if fits_design(n, d.kind, d.n_runs, d.n_folds)]


def _df_of(test, df, alpha, d):
    from ._compare import DesignWarning, _resolve_df
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DesignWarning)
        df, _, source = _resolve_df(test, df, alpha, d)
    return df, source


def _seed(random_state, *key):
    from .._validation import check_random_state
    rs = check_random_state("random_state", random_state)
    if isinstance(rs, np.random.SeedSequence):
        entropy, base = rs.entropy, tuple(rs.spawn_key)
    else:
        entropy, base = np.random.SeedSequence(rs).entropy, ()
    return np.random.SeedSequence(entropy, spawn_key=base + tuple(
        zlib.crc32(str(k).encode("utf-8")) for k in key))


def _rates(p, alpha):
    from ..measures import replicability_R, replicability_R_se
    rej = np.asarray(p) <= alpha
    n = rej.size
    k = int(rej.sum())
    rate = k / n
    return (rate, float(np.sqrt(rate * (1 - rate) / n)), float(replicability_R(k, n)),
            float(replicability_R_se(k, n)))


def plan(estimator_a, estimator_b, X, y=None, *, differences=(0.01, 0.02, 0.05),
         designs=DEFAULT_DESIGNS, tests=None, alpha: float = 0.05, power: float = 0.8,
         replicability: float = 0.9, n_datasets: int = 100, n_instances=None,
         df: str = "calibrated", damage: str = "better",
         random_state=0, n_jobs=None, scheduler=None, results=None,
         progress: bool = True, client=None, saved_only: bool = False) -> PlanResult:
    """Which design and test detect a difference Δ between my learners on my data?

    Before the experiment: for each design, the Type I error of every test that fits
    it on a null made from your real data (the better learner damaged by calibrated
    random errors until both have the same expected accuracy, Dietterich 1998 §5, at
    your class prior), its power at each Δ (the damage calibrated to Δ), Bouckaert &
    Frank's (2004) replicability, the cost in fits, and the cheapest design that
    reaches the target power with replicability ≥ ``replicability``.

    Parameters
    ----------
    estimator_a, estimator_b : estimator or str
        As in :func:`calibsim.compare`.
    X : Dataset, DataFrame, array_like of shape (n_instances, n_attributes) or str
        The data, as :func:`calibsim.compare` takes it, or a shipped name, a CSV or ARFF
        path or a scikit-learn loader.
    y : array_like of shape (n_instances,), optional
    differences : sequence of float, default (0.01, 0.02, 0.05)
        Δ > 0 in accuracy units (0.01 = one point); Δ = 0 (the null) is always added.
    designs : sequence of str, default :data:`DEFAULT_DESIGNS`
        Designs of :func:`calibsim.compare` (``"RxK"``, ``"5x2cv"``,
        ``"subsampling:N"``, ``"holdout"``).
    tests : str or sequence of str, optional
        Registered tests; each design takes those that fit it (default: every test of
        :data:`calibsim.stats.TESTS` that fits it).
    alpha : float, default 0.05
    power : float, default 0.8
        Target power of the recommendation.
    replicability : float, default 0.9
        Least replicability R of the recommendation.
    n_datasets : int, default 100
        Repeats N of each design (new partitions, new damage): the Monte Carlo size;
        rates have SE ≤ 0.5/sqrt(N).
    n_instances : int, optional
        Each repeat (and calibration run) on a random subsample of this many instances,
        drawn without replacement, as Dietterich (1998, §5) drew data sets of 300 from
        Pima's 768: the repeats then vary the data as well as the partitions. Default:
        every repeat on all the data, new partitions only (Type I error and power
        conditional on your data set).
    df : {"calibrated", "textbook"}, default "calibrated"
        The df of each test: as :func:`calibsim.compare` takes it (the shipped table
        where it covers the design, else the textbook df), or the textbook df.
    damage : {"better", "a", "b"}, default "better"
    random_state : int or SeedSequence, default 0
        Root of every stream; each design's partitions, calibration and damage are
        keyed by the design's name and Δ.
    n_jobs, scheduler
        As in :func:`calibsim.compare` (local worker processes, a Dask scheduler).
    results : str or path-like, optional
        A folder whose score store (``<results>/store``, the engine's
        :class:`~calibsim.engine.store.Store`) keeps every repeat as it finishes, keyed
        by the data, learners, design, seed and subsample size: a plan interrupted
        (Ctrl-C) resumes where it stopped, and a plan with a larger ``n_datasets``
        reuses the repeats already there. Default: nothing is saved.
    saved_only : bool, default False
        Fit nothing: read every repeat from the store of ``results`` (``calibsim report``
        of a study's ``plan`` analysis).
    progress : bool, default True
        A time estimate (on standard error) before the repeats, and a progress bar.
    client : LocalPool or distributed.Client, optional
        An open pool or cluster (:func:`calibsim.engine.runner.cluster`) to fit on
        instead of starting one (``n_jobs`` and ``scheduler`` are then ignored): the
        engine's ``plan`` analysis passes the pool of ``calibsim run``.

    Returns
    -------
    PlanResult

    Raises
    ------
    ValueError
        For a Δ outside [0, 1) or one that cannot be reached at a design's
        training-set size (see :func:`calibrate_damage`), an unknown design or test,
        a design no test fits, α, power or replicability outside (0, 1), ``n_datasets``
        < 2, or learners and data :func:`calibsim.compare` refuses; ``saved_only``
        without ``results``.
    FileNotFoundError
        With ``saved_only``, if a repeat is not in the store (naming how many are missing).

    References
    ----------
    Dietterich, T. G. (1998). Approximate statistical tests for comparing supervised
    classification learning algorithms. Neural Computation 10(7), 1895–1923.
    Bouckaert, R. R. & Frank, E. (2004). Evaluating the replicability of significance
    tests for comparing learning algorithms. PAKDD 2004, LNCS 3056, 3–12.

    Examples
    --------
    >>> res = plan("naive_bayes", "c45", "breast-cancer", differences=[0.05],
    ...            designs=["1x10", "5x2cv"], n_datasets=20, progress=False)
    >>> res.differences
    (0.0, 0.05)
    >>> res.recommendation.columns.tolist()
    ['difference', 'design', 'test', 'power', 'replicability', 'fits', 'statement']
    """
    from .._validation import check_int, check_probability
    from ._like_data import _describe_data
    from ._damage import (check_damage, check_difference, resolve_data, solve,
                          thin_correctness, thin_counts)
    from ._scoring import (Design, holdout_counts, parse_design, parse_learner, prepare_data,
                           run_test)
    from ..stats import get_test
    t0 = time.perf_counter()
    alpha = check_probability("alpha", alpha)
    power = check_probability("power", power)
    replicability = check_probability("replicability", replicability)
    check_int("n_datasets", n_datasets, min_value=2)
    damage = check_damage(damage)
    if not (isinstance(df, str) and df in ("calibrated", "textbook")):
        raise ValueError(f"`df` must be 'calibrated' or 'textbook'; got {df!r}.")
    if isinstance(differences, (int, float)):
        differences = [differences]
    deltas = sorted({0.0, *(check_difference("differences", v) for v in differences)})
    if isinstance(designs, str):
        designs = [designs]
    ds = [parse_design(d) for d in designs]
    if not ds:
        raise ValueError("`designs` must name at least one design; got an empty list.")
    if len({d.name for d in ds}) < len(ds):
        raise ValueError(f"`designs` names a design twice; got {list(designs)}.")
    test_names = {}
    for d in ds:
        test_names[d.name] = _tests_for(d, tests)
        if not test_names[d.name]:
            raise ValueError(f"`tests` {tests!r}: none fits the design {d.name!r}.")
    X, y = resolve_data(X, y)
    Xa, codes, _, n_classes, _ = prepare_data(X, y)
    n = len(codes)
    if n_instances is not None:
        check_int("n_instances", n_instances, min_value=10, max_value=n)
    m = n if n_instances is None else int(n_instances)
    from ..datasets import Dataset
    data_text = (_describe_data(X, X.name) if isinstance(X, Dataset) else
                 f"{n} instances, {Xa.shape[1]} attributes, {n_classes} classes")
    if m < n:
        data_text += f"; each repeat a random subsample of {m} instances"
    learners = [parse_learner(estimator_a, "a"), parse_learner(estimator_b, "b")]
    labels = [lrn.label for lrn in learners]
    if labels[0] == labels[1]:
        labels = [f"{labels[0]}_1", f"{labels[1]}_2"]
    common = dict(n_jobs=n_jobs, scheduler=scheduler, client=client)
    store = None
    if saved_only and results is None:
        raise ValueError("`saved_only` reads the repeats from the store of `results`; got "
                         "results=None.")
    if results is not None:
        from ..engine.store import Store
        store = Store(Path(results) / "store")
        base_identity = {"what": "calibsim.plan", "data": _data_hash(Xa, codes),
                         "learners": [f"{lrn!r}|{getattr(lrn, 'estimator', '')!r}"
                                      for lrn in learners],
                         "seed": str(random_state), "n_instances": m}

    fits = {d.name: 2 * int(np.prod(d.shape)) for d in ds}
    total = n_datasets * sum(fits.values())
    estimated = float("nan")
    if progress:       # a time estimate before the work: partitions of the first design
        estimated = _pilot_estimate(learners, X, y, ds, n, m, random_state, total, common)
    t_work = time.perf_counter()

    rows_out, null_rows = [], []
    for d in ds:
        seeds, rows = _repeats(random_state, "plan partitions", d.name, n_datasets, n, m)
        stored = {}
        if store is not None:
            from ..engine.store import fingerprint
            identity = {**base_identity, "design": d.name}
            stored = {"store": store, "key": fingerprint(identity), "identity": identity,
                      "saved_only": saved_only}
        acc, n_test, holdout = _repeat_scores(learners, X, y, d, seeds, rows,
                                              progress=progress, what=f"plan {d.name}",
                                              **common, **stored)
        correct = np.round(acc * n_test[:, None]).astype(np.int64)          # (N, 2, *shape)
        # the damage of every Δ, calibrated at this design's training-set size on its own
        # repeats (each repeat a run of the view), as Dietterich calibrated on his study's
        # data sets
        view = Design("cv", n_datasets, int(np.prod(d.shape)), name=d.name)
        rng = np.random.default_rng(_seed(random_state, "plan calibration", d.name))
        cal_d = solve(acc.reshape(n_datasets, 2, -1).transpose(1, 0, 2),
                      n_test.reshape(n_datasets, -1), view, labels, n_classes, deltas, damage,
                      rng, m, split=False)
        i = labels.index(cal_d[0].damaged)
        j = 1 - i
        x_by_delta, counts_by_delta, sign_by_delta = {}, {}, {}
        for delta, c in zip(deltas, cal_d):
            rng = np.random.default_rng(_seed(random_state, "plan damage", d.name,
                                              f"{delta:.10g}"))
            dam = thin_counts(correct[:, i], n_test, c.rate, n_classes, rng)
            acc_other, acc_dam = correct[:, j] / n_test, dam / n_test
            x_by_delta[delta] = (acc_dam - acc_other) if i == 0 else (acc_other - acc_dam)
            # x = A − B has mean +Δ or −Δ: A ahead when (A damaged) == (damaged ahead)
            sign_by_delta[delta] = 1.0 if (i == 0) == c.ahead else -1.0
            if holdout is not None:
                corr = holdout["correct"].copy()
                corr[:, i] = thin_correctness(corr[:, i], holdout["masks"], c.rate, n_classes,
                                              rng)
                counts_by_delta[delta] = holdout_counts({**holdout, "correct": corr}, 0, 1)
            if delta == 0.0:
                runs = (acc_other - acc_dam).reshape(n_datasets, -1).mean(1)
                null_rows.append({
                    "design": d.name, "n_train": c.n_train, "damaged": c.damaged,
                    "damage_rate": c.rate,
                    "accuracy_other": float(acc_other.mean()),
                    "accuracy_damaged": float(acc_dam.mean()),
                    "accuracy_undamaged": float((correct[:, i] / n_test).mean()),
                    "difference": float(runs.mean()),
                    "difference_se": float(runs.std(ddof=1) / np.sqrt(n_datasets)),
                    "calibration_se": c.calibration_se})
        x0 = x_by_delta[0.0]
        centred = x0 - x0.mean()
        for name in test_names[d.name]:
            spec = get_test(name)
            df_value, df_source = _df_of(name, df, alpha, d)
            test_df = None if spec.scheme == "holdout" else df_value
            for delta, c in zip(deltas, cal_d):
                x = (counts_by_delta[delta].astype(float) if spec.scheme == "holdout"
                     else x_by_delta[delta])
                rate, se, rep, rep_se = _rates(run_test(spec, x, test_df, d).pvalue, alpha)
                if spec.scheme == "holdout":
                    s_rate = s_se = float("nan")
                else:
                    s_rate, s_se = _rates(run_test(spec, centred + sign_by_delta[delta] * delta,
                                                   test_df, d).pvalue, alpha)[:2]
                rows_out.append({"design": d.name, "test": spec.name, "label": spec.label,
                                 "fits": fits[d.name], "df": df_value, "df_source": df_source,
                                 "df_fallback": df == "calibrated"
                                 and df_source.startswith("textbook df ("),
                                 "difference": delta, "damage_rate": c.rate,
                                 "damaged_ahead": c.ahead,
                                 "rejection_rate": rate, "rejection_se": se,
                                 "replicability": rep, "replicability_se": rep_se,
                                 "shift_rate": s_rate, "shift_se": s_se})
    table = pd.DataFrame(rows_out)
    return PlanResult(
        data=data_text, learners=tuple(labels), damaged=null_rows[0]["damaged"],
        differences=tuple(deltas), alpha=alpha, power=power, replicability=replicability,
        n_datasets=int(n_datasets), table=table, null=pd.DataFrame(null_rows),
        recommendation=_recommend(table, deltas, alpha, power, replicability, n_datasets),
        seed=random_state, seconds=time.perf_counter() - t0,
        estimated_seconds=estimated, work_seconds=time.perf_counter() - t_work)


def _data_hash(Xa, codes) -> str:
    """SHA-256 of the data as the learners see it (for the store's key)."""
    import hashlib
    h = hashlib.sha256()
    if hasattr(Xa, "columns"):
        h.update(pd.util.hash_pandas_object(Xa, index=False).to_numpy().tobytes())
        h.update("|".join(map(str, Xa.columns)).encode())
    else:
        a = np.ascontiguousarray(Xa)
        h.update(f"{a.dtype.str}{a.shape}".encode())
        h.update(a.tobytes())
    h.update(np.ascontiguousarray(codes).tobytes())
    return h.hexdigest()[:20]


def _repeats(random_state, what, name, n_repeats, n, m):
    """Partition seeds of ``n_repeats`` repeats and, when ``m < n``, each repeat's
    instances (a random subsample of m, drawn from its own stream)."""
    base = _seed(random_state, what, name)
    kids = base.spawn(n_repeats)
    seeds = [k.spawn(2)[0] for k in kids]
    if m >= n:
        return seeds, None
    rows = [np.sort(np.random.default_rng(k.spawn(2)[1]).choice(n, size=m, replace=False))
            for k in kids]
    return seeds, rows


def _repeat_scores(learners, X, y, d, seeds, rows, *, n_jobs, scheduler, progress, what,
                   store=None, key=None, identity=None, client=None, saved_only=False):
    """Per-fold accuracies of the learners on every repeat of design ``d``: ``acc`` (N, 2,
    *shape), test-set sizes (N, *shape) and, for a holdout design, the per-instance
    correctness ``{"correct": (N, 2, m) bool, "masks": (N, m) bool}`` (else None).

    The blocks are :func:`calibsim.compare`'s (:func:`~._scoring.blocks_for`,
    :func:`~._scoring.score_block`), all repeats in one :func:`~._scoring.run_blocks` call, here,
    on a local pool or on a Dask cluster. With a ``store`` (:class:`calibsim.engine.store.Store`)
    each repeat is saved under ``key`` as soon as its blocks are in, and the repeats
    already there are not refitted: an interrupted plan resumes.
    """
    from dataclasses import replace

    from ..datasets import Dataset
    from ..engine.runner import check_n_workers
    from ._scoring import blocks_for, prepare_data, run_blocks
    if client is None:
        check_n_workers(n_jobs, scheduler)
    Xa, codes, n_values, n_classes, nominal = prepare_data(X, y)
    fast = nominal and all(lrn.fast_path(True) for lrn in learners)
    if isinstance(X, Dataset) and not any(lrn.is_builtin for lrn in learners):
        Xa = X.to_frame()          # names and kinds, for pipelines that select columns
    N = len(seeds)
    m = len(codes) if rows is None else len(rows[0])
    blocks, n_test = [], np.empty((N,) + d.shape, np.int64)
    masks_hold = np.zeros((N, m), bool) if d.kind == "holdout" else None
    done = set() if store is None else set(store.available(key).tolist())
    if saved_only and len(done & set(range(len(seeds)))) < len(seeds):
        missing = len(seeds) - len(done & set(range(len(seeds))))
        raise FileNotFoundError(f"plan {what}: {missing} of {len(seeds)} repeats are not in "
                                f"the store {store.folder(key)}; run them first (`calibsim "
                                "run`).")
    for r, seed in enumerate(seeds):
        if r in done:
            continue
        idx = None if rows is None else rows[r]
        Xr = Xa if idx is None else (Xa.iloc[idx] if hasattr(Xa, "iloc") else Xa[idx])
        yr = codes if idx is None else codes[idx]
        bl, masks = blocks_for(Xr, yr, tuple(learners), d, [seed], n_values=n_values,
                               n_classes=n_classes, fast=fast,
                               runs_per_block=d.n_runs if fast else 1)
        n_test[r] = masks[0].sum(-1)
        if masks_hold is not None:
            masks_hold[r] = masks[0].reshape(-1, m)[0]
        blocks += [replace(b, key=f"plan-{r}-{b.key.split('-')[2]}") for b in bl]
    acc = np.empty((N, len(learners)) + d.shape)
    correct = np.zeros((N, len(learners), m), bool) if masks_hold is not None else None
    left = {}
    for b in blocks:
        r = int(b.key.split("-")[1])
        left[r] = left.get(r, 0) + 1

    def keep(block, res):
        r, start = (int(v) for v in block.key.split("-")[1:])
        if block.correctness:
            res, corr = res
            correct[r] = corr[:, 0]
        acc[r, :, start:start + res.shape[1]] = res
        left[r] -= 1
        if store is not None and left[r] == 0:          # the repeat is complete: save it
            arrays = {"acc": acc[r:r + 1], "n_test": n_test[r:r + 1]}
            if correct is not None:
                arrays.update(correct=correct[r:r + 1], masks=masks_hold[r:r + 1])
            store.save(key, r, r + 1, arrays, identity=identity)

    run_blocks(blocks, keep, what=what, progress=progress, n_jobs=n_jobs,
               scheduler=scheduler, resumable=store is not None, client=client)
    if store is not None:
        saved = store.load(key, N)
        acc, n_test = saved["acc"], saved["n_test"]
        if correct is not None:
            correct, masks_hold = saved["correct"], saved["masks"]
    holdout = None if correct is None else {"correct": correct, "masks": masks_hold}
    return acc, n_test, holdout


def _recommend(table, deltas, alpha, power, replicability, n) -> pd.DataFrame:
    """The cheapest (fewest fits, then most power) design and test per Δ > 0."""
    from scipy.stats import binomtest
    table = table[~table["df_fallback"]]       # only tests at a calibrated df (or none)
    null = table[table["difference"] == 0.0].set_index(["design", "test"])
    # trusted: a Type I error not significantly above α (one-sided binomial test at 5%
    # on the N null repeats)
    trusted = {k for k, r in null.iterrows()
               if binomtest(int(round(r["rejection_rate"] * n)), n, alpha,
                            alternative="greater").pvalue >= 0.05}
    out = []
    for delta in deltas[1:]:
        g = table[table["difference"] == delta]
        if g.empty:
            out.append({"difference": delta, "design": None, "test": None,
                        "power": float("nan"), "replicability": float("nan"),
                        "fits": float("nan"), "statement": (
                            f"Δ = {100 * delta:g} points: no test of these designs has a "
                            "calibrated df to recommend.")})
            continue
        ok = g[(g["rejection_rate"] >= power) & (g["replicability"] >= replicability)
               & np.array([(r.design, r.test) in trusted for r in g.itertuples()], bool)]
        if ok.empty:
            best = g.sort_values("rejection_rate", ascending=False).iloc[0]
            out.append({"difference": delta, "design": None, "test": None,
                        "power": float("nan"), "replicability": float("nan"),
                        "fits": float("nan"), "statement": (
                            f"Δ = {100 * delta:g} points: no design reaches {100 * power:.0f}% "
                            f"power with replicability ≥ {replicability:g} and a Type I error "
                            f"not above α (within MC error) at a calibrated df; the most "
                            f"powerful is {best['design']} with "
                            f"{best['label']} ({100 * best['rejection_rate']:.0f}% power, "
                            f"R = {best['replicability']:.2f}).")})
            continue
        best = ok.sort_values(["fits", "rejection_rate"], ascending=[True, False]).iloc[0]
        out.append({"difference": delta, "design": best["design"], "test": best["test"],
                    "power": float(best["rejection_rate"]),
                    "replicability": float(best["replicability"]), "fits": int(best["fits"]),
                    "statement": (
                        f"Δ = {100 * delta:g} points: the smallest design is {best['design']} "
                        f"with {best['label']} ({int(best['fits'])} fits): power "
                        f"{100 * best['rejection_rate']:.0f}% ± {100 * best['rejection_se']:.0f}, "
                        f"R = {best['replicability']:.2f}, Type I error "
                        f"{100 * null.loc[(best['design'], best['test']), 'rejection_rate']:.1f}%"
                        f" at α = {alpha:g}.")})
    return pd.DataFrame(out, columns=["difference", "design", "test", "power", "replicability",
                                      "fits", "statement"])


def estimate_seconds(timings, total_fits: int, n_calls: int) -> tuple:
    """Seconds a plan's repeats will take, from timed pilot calls of the scoring.

    Each call of the scoring (one per design) costs a fixed start (dispatching blocks to
    the workers, a progress bar) plus a time per fit; a pilot of a few partitions is
    mostly the start, so its time per fit overstates the run's (on credit-g 5.3 ms per
    fit from three partitions against 0.72 ms taken). Two or more pilot calls of
    different sizes, each after the workers have loaded their kernels, separate the two
    by least squares: ``seconds = start + per_fit x fits``.

    Parameters
    ----------
    timings : sequence of (int, float)
        ``(fits, seconds)`` of each timed pilot call; at least two different sizes.
    total_fits : int
        Fits of the whole plan (all designs and repeats).
    n_calls : int
        Scoring calls of the plan (its designs).

    Returns
    -------
    (float, float, float)
        The estimate, the time per fit and the start per call, in seconds. A start
        below 0 (noise) is taken as 0 and the time per fit then as the pilot's mean;
        a time per fit at or below 0 as the largest pilot's seconds per fit.

    Raises
    ------
    ValueError
        If ``timings`` holds fewer than two different sizes.

    Examples
    --------
    >>> est, per_fit, start = estimate_seconds([(40, 0.5), (120, 0.6)], 10_000, 2)
    >>> round(per_fit * 1000, 3), round(start, 3), round(est, 2)
    (1.25, 0.45, 13.4)
    """
    f = np.asarray([t[0] for t in timings], float)
    s = np.asarray([t[1] for t in timings], float)
    if np.unique(f).size < 2:
        raise ValueError("`timings` must hold pilot calls of at least two different sizes; "
                         f"got {list(timings)!r}.")
    per_fit, start = np.polyfit(f, s, 1)
    if per_fit <= 0:
        per_fit, start = float(s[np.argmax(f)] / f.max()), 0.0
    elif start < 0:
        per_fit, start = float(s.sum() / f.sum()), 0.0
    return float(n_calls * start + per_fit * total_fits), float(per_fit), float(start)


def _pilot_estimate(learners, X, y, ds, n, m, random_state, total, common) -> float:
    """Time the scoring on partitions of the first design and print the estimate
    (:func:`estimate_seconds`): one call of one partition per worker loads every
    worker's kernels, then calls of one and of three partitions per worker are timed."""
    from ._scoring import parse_design
    d = ds[0]
    pilot = d if d.kind not in ("cv", "cv5x2") else parse_design(f"1x{d.n_folds}")
    jobs = common.get("n_jobs")
    w = int(jobs) if isinstance(jobs, int) and jobs > 0 and common.get("scheduler") is None \
        else 1
    sizes = (w, w, 3 * w)             # warm-up, then two timed sizes
    seeds, rows = _repeats(random_state, "plan pilot", pilot.name, sum(sizes), n, m)
    timings, at = [], 0
    for i, k in enumerate(sizes):
        t = time.perf_counter()
        _repeat_scores(learners, X, y, pilot, seeds[at:at + k],
                       None if rows is None else rows[at:at + k], progress=False,
                       what="pilot", **common)
        if i:
            timings.append((2 * k * int(np.prod(pilot.shape)), time.perf_counter() - t))
        at += k
    est, per_fit, start = estimate_seconds(timings, total, len(ds))
    print(f"plan: {len(ds)} designs, {total:,} fits; about {_duration(est)} at "
          f"{1000 * per_fit:.2f} ms per fit and {start:.1f} s to start each design (timed "
          f"on {w} and {3 * w} partitions of {pilot.name} after a warm-up)",
          file=sys.stderr, flush=True)
    return est


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.1f} min"
