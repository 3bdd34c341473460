"""Plan an experiment before running it: Type I error, power and replicability of every
design and test on your data (``calibsim plan``).

For each design (default 10x10, 5x10, 10x5, 5x2cv, 1x10 and a holdout split) the two
learners are fitted on N repeats of the design with new partitions of the user's data
(the blocks of :func:`calibsim.compare`, so the same local pool or Dask cluster). The
better learner is then damaged by random errors calibrated at the design's
training-set size (:func:`calibsim.calibrate_damage`, Dietterich 1998 §5): at Δ = 0 the two
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

The public door is :func:`calibsim.plan`; this module is its body, in the engine, so that
the engine's own ``plan`` analysis (:mod:`calibsim.engine._plan_analysis`) runs it
without reaching up to :mod:`calibsim.comparison`. :func:`run_plan` takes it in named
steps, the values they share carried by one frozen :class:`PlanSetup`:
:func:`plan_setup` (validate the arguments, the designs and their tests, the data, the
learners and the store), :func:`_pilot_estimate` (the time estimate), then per design
:func:`_design_scores` (the repeats, :func:`calibsim.engine.repeats.repeat_scores`),
:func:`_damage_rates` (the damage of every Δ, :func:`calibsim.engine.damage.solve`),
:func:`_damaged_differences` (the damage drawn) and :func:`_test_rows` (every test at
every Δ), and :func:`_plan_result` (the table, the null and the recommendation).
"""

from __future__ import annotations

import sys
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..reports import Reportable
from .repeats import data_hash, keyed_seed, repeat_partitions, repeat_scores

__all__ = ["run_plan", "PlanResult", "PlanSetup", "plan_setup", "DEFAULT_DESIGNS",
           "estimate_seconds"]

#: The designs :func:`calibsim.plan` compares by default.
DEFAULT_DESIGNS = ("10x10", "5x10", "10x5", "5x2cv", "1x10", "holdout")


@dataclass(frozen=True)
class PlanResult(Reportable):
    """Outcome of :func:`calibsim.plan`: which design and test detect Δ on your data.

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


@dataclass(frozen=True)
class PlanSetup:
    """What :func:`run_plan` checked and derived from its arguments, handed from step to
    step (the data themselves travel beside it).

    Attributes
    ----------
    learners : tuple
        The two learners as parsed (:func:`calibsim.engine.scoring.parse_learner`).
    labels : tuple of str
        Their labels, made distinct (``"c45_1"``, ``"c45_2"`` for a pair of one name).
    designs : tuple of Design
        The designs, in the order given.
    tests : dict
        Design name -> the registry names of the tests that fit it.
    deltas : tuple of float
        The Δ values in accuracy units, sorted, 0 (the null) first.
    alpha, power, replicability : float
        Level α, target power and least replicability, in (0, 1).
    n_datasets : int
        Repeats N of each design.
    n_instances : int
        Instances of each repeat (m: all the data's, or the subsample size).
    n_total : int
        Instances of the data (n).
    n_classes : int
    data_text : str
        The data and its shape in words (:attr:`PlanResult.data`).
    df : {"calibrated", "textbook"}
    damage : {"better", "a", "b"}
    random_state : int or SeedSequence
    progress : bool
    common : dict
        ``n_jobs``, ``scheduler`` and ``client``, as the scoring takes them.
    store : Store or None
        The score store of ``results`` (:class:`calibsim.engine.store.Store`).
    base_identity : dict or None
        The store key's identity without the design.
    saved_only : bool
    fits : dict
        Design name -> model fits per experiment (2 × splits).
    """

    learners: tuple
    labels: tuple
    designs: tuple
    tests: dict
    deltas: tuple
    alpha: float
    power: float
    replicability: float
    n_datasets: int
    n_instances: int
    n_total: int
    n_classes: int
    data_text: str
    df: str
    damage: str
    random_state: object
    progress: bool
    common: dict
    store: object
    base_identity: object
    saved_only: bool
    fits: dict

    @property
    def total_fits(self) -> int:
        """Fits of the whole plan: all designs and repeats."""
        return self.n_datasets * sum(self.fits.values())


def _pm(rate, se) -> str:
    return f"{100 * rate:.1f} ± {100 * se:.1f}"


def _tests_for(d, tests) -> list:
    from ..stats import TESTS, fits_design, get_test
    if tests is None:
        return [n for n in TESTS if fits_design(n, d.kind, d.n_runs, d.n_folds)]
    names = [tests] if isinstance(tests, str) else list(tests)
    return [get_test(n).name for n in names if fits_design(n, d.kind, d.n_runs, d.n_folds)]


def _df_of(test, df, alpha, d):
    from .scoring import DesignWarning, resolve_df
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DesignWarning)
        df, _, source = resolve_df(test, df, alpha, d)
    return df, source


def _rates(p, alpha):
    from ..measures import replicability_R, replicability_R_se
    rej = np.asarray(p) <= alpha
    n = rej.size
    k = int(rej.sum())
    rate = k / n
    return (rate, float(np.sqrt(rate * (1 - rate) / n)), float(replicability_R(k, n)),
            float(replicability_R_se(k, n)))


def run_plan(estimator_a, estimator_b, X, y=None, *, differences=(0.01, 0.02, 0.05),
             designs=DEFAULT_DESIGNS, tests=None, alpha: float = 0.05, power: float = 0.8,
             replicability: float = 0.9, n_datasets: int = 100, n_instances=None,
             df: str = "calibrated", damage: str = "better",
             random_state=0, n_jobs=None, scheduler=None, results=None,
             progress: bool = True, client=None, saved_only: bool = False) -> PlanResult:
    """The body of :func:`calibsim.plan`, whose parameters, result and errors it has, in
    named steps (module docstring): the setup, the time estimate, per design the
    repeats, the damage and the tests, then the result."""
    t0 = time.perf_counter()
    setup, X, y = plan_setup(
        estimator_a, estimator_b, X, y, differences=differences, designs=designs,
        tests=tests, alpha=alpha, power=power, replicability=replicability,
        n_datasets=n_datasets, n_instances=n_instances, df=df, damage=damage,
        random_state=random_state, n_jobs=n_jobs, scheduler=scheduler, results=results,
        progress=progress, client=client, saved_only=saved_only)
    estimated = float("nan")
    if setup.progress:    # a time estimate before the work: partitions of the first design
        estimated = _pilot_estimate(setup, X, y)
    t_work = time.perf_counter()
    rows_out, null_rows = [], []
    for d in setup.designs:
        acc, n_test, holdout = _design_scores(setup, X, y, d)
        cal_d = _damage_rates(setup, d, acc, n_test)
        x_by_delta, counts_by_delta, sign_by_delta, null_row = _damaged_differences(
            setup, d, acc, n_test, holdout, cal_d)
        null_rows.append(null_row)
        rows_out += _test_rows(setup, d, cal_d, x_by_delta, counts_by_delta, sign_by_delta)
    return _plan_result(setup, rows_out, null_rows, t0=t0, estimated=estimated,
                        t_work=t_work)


# ---------------------------------------------------------------------------
# the setup: validate, the designs and their tests, the data, the learners, the store

def plan_setup(estimator_a, estimator_b, X, y, *, differences, designs, tests, alpha, power,
               replicability, n_datasets, n_instances, df, damage, random_state, n_jobs,
               scheduler, results, progress, client, saved_only) -> tuple:
    """``(setup, X, y)``: the arguments of :func:`run_plan` checked, in the order its
    errors are documented (:func:`calibsim.plan`), into one :class:`PlanSetup`, and the
    data as :func:`calibsim.compare` takes them (a name or path loaded).

    Raises
    ------
    ValueError
        As :func:`calibsim.plan`.
    """
    alpha, power, replicability, damage = _check_levels(alpha, power, replicability,
                                                        n_datasets, damage, df)
    deltas = _deltas(differences)
    ds, test_names = _designs_and_tests(designs, tests)
    X, y, Xa, codes, n_classes, m, data_text = _plan_data(X, y, n_instances)
    learners, labels = _plan_learners(estimator_a, estimator_b)
    store, base_identity = _plan_store(results, saved_only, Xa, codes, learners,
                                       random_state, m)
    setup = PlanSetup(
        learners=tuple(learners), labels=tuple(labels), designs=tuple(ds), tests=test_names,
        deltas=tuple(deltas), alpha=alpha, power=power, replicability=replicability,
        n_datasets=n_datasets, n_instances=m, n_total=len(codes), n_classes=n_classes,
        data_text=data_text, df=df, damage=damage, random_state=random_state,
        progress=progress, common=dict(n_jobs=n_jobs, scheduler=scheduler, client=client),
        store=store, base_identity=base_identity, saved_only=saved_only,
        fits={d.name: 2 * int(np.prod(d.shape)) for d in ds})
    return setup, X, y


def _check_levels(alpha, power, replicability, n_datasets, damage, df) -> tuple:
    """α, power, replicability (each in (0, 1)), ``n_datasets`` (≥ 2), ``damage`` and
    ``df`` checked: ``(alpha, power, replicability, damage)``."""
    from .._validation import check_int, check_probability
    from .damage import check_damage
    alpha = check_probability("alpha", alpha)
    power = check_probability("power", power)
    replicability = check_probability("replicability", replicability)
    check_int("n_datasets", n_datasets, min_value=2)
    damage = check_damage(damage)
    if not (isinstance(df, str) and df in ("calibrated", "textbook")):
        raise ValueError(f"`df` must be 'calibrated' or 'textbook'; got {df!r}.")
    return alpha, power, replicability, damage


def _deltas(differences) -> list:
    """The Δ values checked (accuracy units, [0, 1)), sorted, with Δ = 0 added."""
    from .damage import check_difference
    if isinstance(differences, (int, float)):
        differences = [differences]
    return sorted({0.0, *(check_difference("differences", v) for v in differences)})


def _designs_and_tests(designs, tests) -> tuple:
    """``(designs, tests)``: the designs parsed (at least one, none twice) and, per
    design name, the tests of ``tests`` (default: the registry's) that fit it (at least
    one each)."""
    from .scoring import parse_design
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
    return ds, test_names


def _plan_data(X, y, n_instances) -> tuple:
    """The data loaded and prepared, ``n_instances`` checked, and the data in words:
    ``(X, y, Xa, codes, n_classes, m, data_text)``, m the instances of each repeat."""
    from .._validation import check_int
    from ..datasets import Dataset
    from .scoring import prepare_data
    from .user_data import describe_data, resolve_data
    X, y = resolve_data(X, y)
    Xa, codes, _, n_classes, _ = prepare_data(X, y)
    n = len(codes)
    if n_instances is not None:
        check_int("n_instances", n_instances, min_value=10, max_value=n)
    m = n if n_instances is None else int(n_instances)
    data_text = (describe_data(X, X.name) if isinstance(X, Dataset) else
                 f"{n} instances, {Xa.shape[1]} attributes, {n_classes} classes")
    if m < n:
        data_text += f"; each repeat a random subsample of {m} instances"
    return X, y, Xa, codes, n_classes, m, data_text


def _plan_learners(estimator_a, estimator_b) -> tuple:
    """The two learners parsed, and their labels made distinct."""
    from .scoring import parse_learner
    learners = [parse_learner(estimator_a, "a"), parse_learner(estimator_b, "b")]
    labels = [lrn.label for lrn in learners]
    if labels[0] == labels[1]:
        labels = [f"{labels[0]}_1", f"{labels[1]}_2"]
    return learners, labels


def _plan_store(results, saved_only, Xa, codes, learners, random_state, m) -> tuple:
    """``(store, base_identity)`` of ``results`` (both None without it); ``saved_only``
    needs it."""
    if saved_only and results is None:
        raise ValueError("`saved_only` reads the repeats from the store of `results`; got "
                         "results=None.")
    if results is None:
        return None, None
    from .store import Store
    store = Store(Path(results) / "store")
    base_identity = {"what": "calibsim.plan", "data": data_hash(Xa, codes),
                     "learners": [f"{lrn!r}|{getattr(lrn, 'estimator', '')!r}"
                                  for lrn in learners],
                     "seed": str(random_state), "n_instances": m}
    return store, base_identity


# ---------------------------------------------------------------------------
# per design: the repeats, the damage of every Δ, the tests

def _design_scores(setup: PlanSetup, X, y, d) -> tuple:
    """The repeats of design ``d`` (:func:`calibsim.engine.repeats.repeat_scores`, from the
    store where they are saved): ``(acc, n_test, holdout)``."""
    seeds, rows = repeat_partitions(setup.random_state, "plan partitions", d.name,
                                    setup.n_datasets, setup.n_total, setup.n_instances)
    stored = {}
    if setup.store is not None:
        from .store import fingerprint
        identity = {**setup.base_identity, "design": d.name}
        stored = {"store": setup.store, "key": fingerprint(identity), "identity": identity,
                  "saved_only": setup.saved_only}
    return repeat_scores(setup.learners, X, y, d, seeds, rows, progress=setup.progress,
                         what=f"plan {d.name}", **setup.common, **stored)


def _damage_rates(setup: PlanSetup, d, acc, n_test) -> list:
    """The damage of every Δ (:class:`~calibsim.engine.damage.DamageCalibration`, one per
    Δ), calibrated at design ``d``'s training-set size on its own repeats (each repeat a
    run of the view), as Dietterich calibrated on his study's data sets."""
    from .damage import solve
    from .scoring import Design
    N = setup.n_datasets
    view = Design("cv", N, int(np.prod(d.shape)), name=d.name)
    rng = np.random.default_rng(keyed_seed(setup.random_state, "plan calibration", d.name))
    return solve(acc.reshape(N, 2, -1).transpose(1, 0, 2), n_test.reshape(N, -1), view,
                 list(setup.labels), setup.n_classes, list(setup.deltas), setup.damage, rng,
                 setup.n_instances, split=False)


def _damaged_differences(setup: PlanSetup, d, acc, n_test, holdout, cal_d) -> tuple:
    """The damage of every Δ drawn on the repeats' fits: per Δ the per-fold differences
    A − B, McNemar's counts (holdout designs) and the sign of the difference's mean, and
    the damaged real-data null of the design (its row of :attr:`PlanResult.null`)."""
    from .damage import thin_correctness, thin_counts
    from .scoring import holdout_counts
    n_datasets, n_classes = setup.n_datasets, setup.n_classes
    correct = np.round(acc * n_test[:, None]).astype(np.int64)          # (N, 2, *shape)
    i = list(setup.labels).index(cal_d[0].damaged)
    j = 1 - i
    x_by_delta, counts_by_delta, sign_by_delta = {}, {}, {}
    null_row = None
    for delta, c in zip(setup.deltas, cal_d):
        rng = np.random.default_rng(keyed_seed(setup.random_state, "plan damage", d.name,
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
            null_row = {
                "design": d.name, "n_train": c.n_train, "damaged": c.damaged,
                "damage_rate": c.rate,
                "accuracy_other": float(acc_other.mean()),
                "accuracy_damaged": float(acc_dam.mean()),
                "accuracy_undamaged": float((correct[:, i] / n_test).mean()),
                "difference": float(runs.mean()),
                "difference_se": float(runs.std(ddof=1) / np.sqrt(n_datasets)),
                "calibration_se": c.calibration_se}
    return x_by_delta, counts_by_delta, sign_by_delta, null_row


def _test_rows(setup: PlanSetup, d, cal_d, x_by_delta, counts_by_delta,
               sign_by_delta) -> list:
    """Every test of design ``d`` at every Δ: its rows of :attr:`PlanResult.table` (the
    rejection rate and replicability on the damaged differences, the shift estimate on
    the null's centred differences plus Δ)."""
    from ..stats import get_test
    from .scoring import run_test
    alpha, df = setup.alpha, setup.df
    x0 = x_by_delta[0.0]
    centred = x0 - x0.mean()
    rows_out = []
    for name in setup.tests[d.name]:
        spec = get_test(name)
        df_value, df_source = _df_of(name, df, alpha, d)
        test_df = None if spec.scheme == "holdout" else df_value
        for delta, c in zip(setup.deltas, cal_d):
            x = (counts_by_delta[delta].astype(float) if spec.scheme == "holdout"
                 else x_by_delta[delta])
            rate, se, rep, rep_se = _rates(run_test(spec, x, test_df, d).pvalue, alpha)
            if spec.scheme == "holdout":
                s_rate = s_se = float("nan")
            else:
                s_rate, s_se = _rates(run_test(spec, centred + sign_by_delta[delta] * delta,
                                               test_df, d).pvalue, alpha)[:2]
            rows_out.append({"design": d.name, "test": spec.name, "label": spec.label,
                             "fits": setup.fits[d.name], "df": df_value,
                             "df_source": df_source,
                             "df_fallback": df == "calibrated"
                             and df_source.startswith("textbook df ("),
                             "difference": delta, "damage_rate": c.rate,
                             "damaged_ahead": c.ahead,
                             "rejection_rate": rate, "rejection_se": se,
                             "replicability": rep, "replicability_se": rep_se,
                             "shift_rate": s_rate, "shift_se": s_se})
    return rows_out


def _plan_result(setup: PlanSetup, rows_out, null_rows, *, t0, estimated,
                 t_work) -> PlanResult:
    """The :class:`PlanResult`: the table, the null, the recommendation and the times."""
    table = pd.DataFrame(rows_out)
    return PlanResult(
        data=setup.data_text, learners=tuple(setup.labels), damaged=null_rows[0]["damaged"],
        differences=tuple(setup.deltas), alpha=setup.alpha, power=setup.power,
        replicability=setup.replicability, n_datasets=int(setup.n_datasets), table=table,
        null=pd.DataFrame(null_rows),
        recommendation=_recommend(table, list(setup.deltas), setup.alpha, setup.power,
                                  setup.replicability, setup.n_datasets),
        seed=setup.random_state, seconds=time.perf_counter() - t0,
        estimated_seconds=estimated, work_seconds=time.perf_counter() - t_work)


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


def _pilot_estimate(setup: PlanSetup, X, y) -> float:
    """Time the scoring on partitions of the first design and print the estimate
    (:func:`estimate_seconds`): one call of one partition per worker loads every
    worker's kernels, then calls of one and of three partitions per worker are timed."""
    from .scoring import parse_design
    ds, common, total = setup.designs, setup.common, setup.total_fits
    d = ds[0]
    pilot = d if d.kind not in ("cv", "cv5x2") else parse_design(f"1x{d.n_folds}")
    jobs = common.get("n_jobs")
    w = int(jobs) if isinstance(jobs, int) and jobs > 0 and common.get("scheduler") is None \
        else 1
    sizes = (w, w, 3 * w)             # warm-up, then two timed sizes
    seeds, rows = repeat_partitions(setup.random_state, "plan pilot", pilot.name, sum(sizes),
                                    setup.n_total, setup.n_instances)
    timings, at = [], 0
    for i, k in enumerate(sizes):
        t = time.perf_counter()
        repeat_scores(setup.learners, X, y, pilot, seeds[at:at + k],
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
