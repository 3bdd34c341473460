"""Damage calibrated for any data and learners: Dietterich's (1998, §5) null on real data.

Dietterich measured the Type I error of his tests on real data by damaging the better
of two learners until both had the same learning curve; on Pima he made C4.5 commit
random classification errors at a rate calibrated per training-set size
(:class:`calibsim.learners._damaged.RandomErrors`, ``studies/dietterich1998_pima.toml``).
:func:`calibsim.calibrate_damage` does the same for the user's data and learners.

**The damage.** Each prediction of the damaged learner is replaced, with probability r,
by a class drawn uniformly from the *other* classes (``RandomErrors``). A learner of
accuracy a on C classes then has the expected accuracy

    a_r = a (1 − r) + (1 − a) r / (C − 1),

exactly, whatever it predicts, so r follows from a target accuracy t in closed form:
``r = (a − t)(C − 1) / (C a − 1)``, and r = (C − 1)/C puts the learner at chance 1/C.
The target is ``t = a_other − Δ``: at Δ = 0 the two learners have the same expected
accuracy at that training-set size (a null on the user's real data, at its class
prior); at Δ > 0 the undamaged learner is better by Δ (an alternative with a known
difference). The damaged learner is the better one (at Δ = 0 the only one that can be
damaged to the other's level), or the one named by ``damage``.

**The estimate.** The accuracies a are means over random train/test splits of the data
at the asked training-set size (the splits of the design, or random subsamples), fitted
by the engine's own scoring (:func:`calibsim.engine.learners.score_fast` or
``score_general``, through the blocks of :func:`calibsim.compare`). The even-numbered
runs calibrate r; the odd-numbered runs check it: the damage is drawn on their test
sets (binomial thinning of each fold's correct count, the same distribution as
per-instance errors) and the achieved difference is reported with its standard error
over runs, so the calibration states its own precision.
"""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass

import numpy as np

__all__ = ["run_damage_calibration", "DamageCalibration", "solve", "thin_counts",
           "thin_correctness", "damage_rate", "calibration_design", "measure",
           "check_difference", "check_damage", "damage_seeds"]


def check_difference(name: str, value) -> float:
    """A target difference Δ in accuracy units, [0, 1)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not np.isfinite(value) or not 0 <= value < 1:
        hint = (f" (in accuracy units: {float(value) / 100:g} for {value:g} points)"
                if isinstance(value, (int, float)) and not isinstance(value, bool)
                and np.isfinite(value) and 1 <= value < 100 else "")
        raise ValueError(f"`{name}` must be a difference in accuracy units in [0, 1), e.g. "
                         f"0.02 for 2 points; got {value!r}{hint}.")
    return float(value)


def damage_rate(accuracy: float, target: float, n_classes: int) -> float:
    """The random-error rate r that takes a learner of ``accuracy`` to ``target``
    (expected accuracy ``a (1 − r) + (1 − a) r / (C − 1)``); may lie outside [0, (C−1)/C]
    when the target cannot be reached (the caller refuses).

    Examples
    --------
    >>> round(damage_rate(0.80, 0.75, 2), 6)     # 0.8 (1 - r) + 0.2 r = 0.75
    0.083333
    """
    slope = accuracy - (1.0 - accuracy) / (n_classes - 1)
    return float((accuracy - target) / slope) if slope > 0 else float("nan")


def thin_counts(correct, n_test, rate: float, n_classes: int, rng) -> np.ndarray:
    """Correct counts after random errors at ``rate``: each correct prediction stays
    correct with probability 1 − r, each wrong one becomes correct with probability
    r / (C − 1) (the uniform draw of another class hits the true one); the same law as
    :class:`calibsim.learners._damaged.RandomErrors` applied to every test instance."""
    correct = np.asarray(correct, np.int64)
    wrong = np.asarray(n_test, np.int64) - correct
    return (rng.binomial(correct, 1.0 - rate)
            + rng.binomial(wrong, rate / (n_classes - 1))).astype(np.int64)


def thin_correctness(correct, mask, rate: float, n_classes: int, rng) -> np.ndarray:
    """Per-instance correctness (bool, ``(..., n)``) after random errors at ``rate`` on the
    test instances of ``mask``; the instance-level form of :func:`thin_counts`."""
    u = rng.random(np.shape(correct))
    flip_right = correct & (u < rate)
    flip_wrong = ~correct & (u < rate / (n_classes - 1))
    return (correct & ~flip_right | flip_wrong) & mask


@dataclass(frozen=True)
class DamageCalibration:
    """Outcome of :func:`calibsim.calibrate_damage`: the random-error rate that puts the damaged
    learner Δ below the other one, and how precisely it does.

    Attributes
    ----------
    learners : tuple of str
        The two learners (A, B).
    damaged, other : str
        The learner damaged by random errors and the one left as it is.
    difference : float
        The target Δ between the expected accuracies, in accuracy units [0, 1):
        damaged − other when ``ahead``, else other − damaged.
    rate : float
        Probability in [0, (C − 1)/C] that a prediction of the damaged learner is
        replaced by another class.
    n_train : float
        Mean training-set size of the calibration splits (instances).
    splits : str
        The calibration splits in words, e.g. ``"40 runs of 10-fold cv"``.
    n_classes : int
    accuracy_a, accuracy_b : float
        Undamaged mean accuracies in [0, 1] at ``n_train`` (calibration half).
    accuracy_a_se, accuracy_b_se : float
        Their standard errors over the calibration runs.
    achieved, achieved_se : float
        The difference (oriented as ``difference``) measured on the check runs with
        the damage drawn, and its standard error over those runs (accuracy units).
    calibration_se : float
        Standard error of the undamaged difference on the calibration runs: how far the
        rate may be off; ``achieved`` is within Monte Carlo error of Δ when
        ``|achieved − Δ| ≲ 2 sqrt(achieved_se² + calibration_se²)``.
    n_runs : int
        Runs in each half (calibration and check).
    ahead : bool
        True when Δ is at most the learners' own gap: the damaged learner stays ahead
        by Δ, between the two learning curves (Dietterich's λ); False when it falls Δ
        behind the other (Δ = 0, or Δ larger than the gap).
    seconds : float
        Wall time.
    """

    learners: tuple
    damaged: str
    other: str
    difference: float
    rate: float
    n_train: float
    splits: str
    n_classes: int
    accuracy_a: float
    accuracy_a_se: float
    accuracy_b: float
    accuracy_b_se: float
    achieved: float
    achieved_se: float
    n_runs: int
    calibration_se: float = float("nan")
    ahead: bool = False
    seconds: float = float("nan")

    @property
    def curve(self) -> list:
        """``[(n_train, rate)]``: the ``curve`` of
        :class:`calibsim.learners._damaged.RandomErrors` (``kind = "random_errors"`` in a
        study file) for this training-set size."""
        return [(int(round(self.n_train)), self.rate)]

    def __str__(self) -> str:
        a, b = self.learners
        return "\n".join([
            f"damage calibrated at {self.n_train:.0f} training instances ({self.splits}, "
            f"{self.n_classes} classes):",
            f"  undamaged accuracy: {a} {100 * self.accuracy_a:.2f}% ± "
            f"{100 * self.accuracy_a_se:.2f}, {b} {100 * self.accuracy_b:.2f}% ± "
            f"{100 * self.accuracy_b_se:.2f} (mean ± SE over {self.n_runs} runs)",
            f"  {self.damaged} errs at random at rate {self.rate:.4f} (each prediction "
            f"replaced by another class with that probability; Dietterich 1998, §5)",
            f"  target difference "
            f"{f'{self.damaged} − {self.other}' if self.ahead else f'{self.other} − {self.damaged}'}: "
            f"{100 * self.difference:.2f} points; achieved on {self.n_runs} fresh runs: "
            f"{100 * self.achieved:+.2f} ± {100 * self.achieved_se:.2f} points (the "
            f"calibration's own SE: {100 * self.calibration_se:.2f})"])


def _run_means(values, design) -> np.ndarray:
    """(runs,) means over a run's folds of per-split values shaped like the design."""
    v = np.asarray(values, float)
    return v.mean(axis=-1) if design.kind in ("cv", "cv5x2") else v


def _se(v) -> float:
    v = np.asarray(v, float)
    return float(v.std(ddof=1) / np.sqrt(v.size)) if v.size > 1 else float("nan")


def calibration_design(design, n_instances: int, n_runs: int):
    """The splits that calibrate the damage for ``design`` (a :class:`Design`, or an int:
    a training-set size): ``2 n_runs`` runs of the design's own kind (r x k cv with its
    k; random subsamples with its test share; 5x2cv as 2-fold cv), or ``2 n_runs`` random
    subsamples of that training size."""
    from .scoring import Design
    if isinstance(design, (int, np.integer)):
        n_train = int(design)
        if not 2 <= n_train <= n_instances - 1:
            raise ValueError(f"`n_train` must be an integer in [2, {n_instances - 1}] (the data "
                             f"has {n_instances} instances); got {design!r}.")
        frac = 1.0 - n_train / n_instances
        return Design("subsampling", 2 * n_runs, 0, frac,
                      name=f"subsampling:{2 * n_runs}@{frac:.4g}")
    if design.kind in ("cv", "cv5x2"):
        return Design("cv", 2 * n_runs, design.n_folds, name=f"{2 * n_runs}x{design.n_folds}")
    return Design("subsampling", 2 * n_runs, 0, design.test_fraction,
                  name=f"subsampling:{2 * n_runs}@{design.test_fraction:.4g}")


def splits_words(d) -> str:
    return (f"{d.n_runs} runs of {d.n_folds}-fold stratified cv" if d.kind == "cv" else
            f"{d.n_runs} random train/test splits, test share {d.test_fraction:.3g}")


def measure(learners, X, y, cal, seed, *, n_jobs=None, scheduler=None, progress=False):
    """Undamaged per-split accuracies on the calibration splits ``cal``, shape
    ``(2, *cal.shape)``, and their test-set sizes, shape ``cal.shape``."""
    from .scoring import accuracies, prepare_data, repeat_seeds
    acc = accuracies(learners, X, y, cal, seed, 1, n_jobs=n_jobs, scheduler=scheduler,
                     progress=progress, what="calibrate damage")[0]
    Xa, codes = prepare_data(X, y)[:2]
    n_test = cal.test_masks(Xa, codes, repeat_seeds(seed, 1)[0]).sum(-1)
    return acc, n_test


def _rate_or_refuse(a_hat, a_se, i, j, target, chance, delta, damage, labels, n_classes,
                    n_train) -> float:
    """The rate that takes learner i to ``target``, or the one-line refusal."""
    if target < chance:
        raise ValueError(
            f"`difference` {delta:g} ({100 * delta:.2f} points) cannot be reached: it is "
            f"larger than {labels[j]}'s margin over chance ({100 * a_hat[j]:.2f}% − "
            f"1/{n_classes} = {100 * (a_hat[j] - chance):.2f} points at {n_train:.0f} "
            "training instances); damage cannot take a learner below chance.")
    rate = damage_rate(a_hat[i], target, n_classes)
    if not np.isfinite(rate) or rate < 0:
        raise ValueError(
            f"`damage` {damage!r}: {labels[i]} ({100 * a_hat[i]:.2f}% ± "
            f"{100 * a_se[i]:.2f}) is not above the target {100 * target:.2f}% "
            f"({labels[j]} {100 * a_hat[j]:.2f}% − Δ {100 * delta:.2f} points) at "
            f"{n_train:.0f} training instances; random errors only lower a learner's "
            "accuracy (damage the better learner: damage='better').")
    return rate


def solve(acc, n_test, cal, labels, n_classes, differences, damage, rng, n_instances, *,
          split: bool = True):
    """Rates for every Δ of ``differences`` from the even runs of ``acc`` (2, *cal.shape),
    checked on the odd runs; a list of :class:`DamageCalibration` (seconds NaN). With
    ``split`` False every run both calibrates and checks (as Dietterich calibrated on
    his study's own data sets): :func:`calibsim.plan` calibrates on its repeats.

    Raises
    ------
    ValueError
        When a Δ cannot be reached (see :func:`calibsim.calibrate_damage`).
    """
    fit, chk = ((slice(0, None, 2), slice(1, None, 2)) if split else
                (slice(None), slice(None)))
    means = [_run_means(acc[i][fit], cal) for i in (0, 1)]
    a_hat = [float(m.mean()) for m in means]
    a_se = [_se(m) for m in means]
    gap_se = _se(means[0] - means[1])
    if damage == "better":
        i = 0 if a_hat[0] >= a_hat[1] else 1
    else:
        i = {"a": 0, "b": 1}[damage]
    j = 1 - i
    chance = 1.0 / n_classes
    n_train = float(n_instances - np.mean(n_test))
    out = []
    for delta in differences:
        # Δ up to the learners' own gap: the damaged learner stays ahead by Δ, between the
        # two learning curves as Dietterich's λ put it; beyond the gap it falls Δ behind
        ahead = bool(0.0 < delta <= a_hat[i] - a_hat[j])
        target = a_hat[j] + delta if ahead else a_hat[j] - delta
        if delta == 0.0 and (target <= chance or a_hat[i] <= chance):
            # the other learner (or both) at or below chance, as on data whose class
            # depends on no attribute: random errors cannot bring the better one below
            # chance, and there is no signal to remove; the null is taken as it is
            rate = 0.0
        else:
            rate = _rate_or_refuse(a_hat, a_se, i, j, target, chance, delta, damage, labels,
                                   n_classes, n_train)
        correct = np.round(acc[:, chk] * n_test[chk][None]).astype(np.int64)
        damaged = thin_counts(correct[i], n_test[chk], rate, n_classes, rng)
        diff = (damaged - correct[j] if ahead else correct[j] - damaged) / n_test[chk]
        d_runs = _run_means(diff, cal)
        out.append(DamageCalibration(
            learners=tuple(labels), damaged=labels[i], other=labels[j], difference=delta,
            rate=rate, n_train=n_train, splits=splits_words(cal), n_classes=int(n_classes),
            accuracy_a=a_hat[0], accuracy_a_se=a_se[0], accuracy_b=a_hat[1],
            accuracy_b_se=a_se[1], achieved=float(d_runs.mean()), achieved_se=_se(d_runs),
            n_runs=int(d_runs.size), calibration_se=gap_se, ahead=ahead))
    return out


def damage_seeds(random_state, what: str):
    """(splits, damage) SeedSequences of a calibration keyed by ``what`` (its identity)."""
    from .._validation import check_random_state
    rs = check_random_state("random_state", random_state)
    if isinstance(rs, np.random.SeedSequence):
        entropy, key = rs.entropy, tuple(rs.spawn_key)
    else:
        entropy, key = np.random.SeedSequence(rs).entropy, ()
    base = key + (zlib.crc32(what.encode("utf-8")),)
    return (np.random.SeedSequence(entropy, spawn_key=base + (0,)),
            np.random.SeedSequence(entropy, spawn_key=base + (1,)))


def check_damage(damage) -> str:
    """``damage`` checked: the learner given random errors, ``"better"``, ``"a"`` or ``"b"``."""
    if damage not in ("better", "a", "b"):
        raise ValueError(f"`damage` must be 'better', 'a' or 'b' (the learner given random "
                         f"errors); got {damage!r}.")
    return damage


def run_damage_calibration(estimator_a, estimator_b, X, y=None, *, difference: float = 0.0,
                           n_train=None, design=None, n_runs: int = 50,
                           damage: str = "better", random_state=0, n_jobs=None,
                           scheduler=None, progress: bool = False) -> DamageCalibration:
    """The body of :func:`calibsim.calibrate_damage`, whose parameters, result and errors
    it has: validate, the calibration splits (:func:`calibration_design`), the undamaged
    accuracies on them (:func:`measure`), the rate solved and checked (:func:`solve`)."""
    from .._validation import check_int
    from .scoring import parse_design, parse_learner, prepare_data
    from .user_data import resolve_data
    t0 = time.perf_counter()
    delta = check_difference("difference", difference)
    damage = check_damage(damage)
    check_int("n_runs", n_runs, min_value=2)
    X, y = resolve_data(X, y)
    if n_train is not None and design is not None:
        raise ValueError(f"give `n_train` or `design`, not both; got n_train={n_train!r} and "
                         f"design={design!r}.")
    prepared = prepare_data(X, y)
    codes, n_classes = prepared[1], prepared[3]
    if n_train is not None:
        if isinstance(n_train, bool) or not isinstance(n_train, (int, np.integer)):
            raise ValueError(f"`n_train` must be an integer number of training instances; got "
                             f"{n_train!r}.")
        cal = calibration_design(int(n_train), len(codes), n_runs)
        what = f"n_train={int(n_train)}"
    else:
        d = parse_design("10x10" if design is None else design)
        cal = calibration_design(d, len(codes), n_runs)
        what = f"design={d.name}"
    learners = [parse_learner(estimator_a, "a"), parse_learner(estimator_b, "b")]
    labels = [lrn.label for lrn in learners]
    if labels[0] == labels[1]:
        labels = [f"{labels[0]}_1", f"{labels[1]}_2"]
    split_ss, damage_ss = damage_seeds(random_state, f"calibrate_damage {what} {cal.name}")
    acc, n_test = measure(learners, X, y, cal, split_ss, n_jobs=n_jobs, scheduler=scheduler,
                          progress=progress)
    rng = np.random.default_rng(np.random.SeedSequence(
        damage_ss.entropy, spawn_key=tuple(damage_ss.spawn_key) + (zlib.crc32(
            f"{delta:.10g}".encode()),)))
    res = solve(acc, n_test, cal, labels, n_classes, [delta], damage, rng, len(codes))[0]
    from dataclasses import replace
    return replace(res, seconds=time.perf_counter() - t0)
