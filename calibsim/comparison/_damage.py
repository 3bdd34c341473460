"""Damage calibrated for any data and learners: Dietterich's (1998, §5) null on real data.

:func:`calibrate_damage` is the public door; the calibration itself (the damage, its
estimate on random splits and its check on fresh ones) is the engine's
(:mod:`calibsim.engine.damage`, which :func:`calibsim.plan` and the engine's ``plan``
analysis use too).
"""

from __future__ import annotations

from ..engine.damage import DamageCalibration, run_damage_calibration

__all__ = ["calibrate_damage", "DamageCalibration"]


def calibrate_damage(estimator_a, estimator_b, X, y=None, *, difference: float = 0.0,
                     n_train=None, design=None, n_runs: int = 50, damage: str = "better",
                     random_state=0, n_jobs=None, scheduler=None,
                     progress: bool = False) -> DamageCalibration:
    """Random errors that make one learner exactly Δ worse than the other on your data.

    Generalises Dietterich's (1998, §5) damaged C4.5 on Pima to any data and learners:
    the better learner (or the one named by ``damage``) replaces each prediction by
    another class with probability r, r chosen so that the expected accuracies at the
    given training-set size differ by ``difference`` (0: a null on the real data at its
    class prior). The undamaged accuracies are estimated on ``n_runs`` runs of random
    splits, the rate is checked on ``n_runs`` further runs with the damage drawn.

    Parameters
    ----------
    estimator_a, estimator_b : estimator or str
        As in :func:`calibsim.compare`: a built-in name (``"naive_bayes"``, ``"c45"``,
        ...), ``"module.Class(param=value)"`` or a scikit-learn classifier.
    X : Dataset, DataFrame, array_like of shape (n_instances, n_attributes) or str
        The data, as :func:`calibsim.compare` takes it, or a shipped name, a CSV or
        ARFF path or a scikit-learn loader (``"sklearn:load_iris"``).
    y : array_like of shape (n_instances,), optional
        Class labels (None for a Dataset or a name).
    difference : float, default 0
        Target Δ = accuracy(other) − accuracy(damaged) in accuracy units [0, 1)
        (0.02 = 2 points).
    n_train : int, optional
        Training-set size (instances): calibrate on random subsamples of that size.
    design : str, optional
        Instead of ``n_train``: a design of :func:`calibsim.compare` (``"10x10"``,
        ``"5x2cv"``, ``"holdout"``, ...) whose training-set size and splits to use.
        Default (neither given): ``"10x10"``.
    n_runs : int, default 50
        Runs of the design (or subsamples) in each half, calibration and check.
    damage : {"better", "a", "b"}, default "better"
        Which learner errs at random: the one with the higher estimated accuracy, A or B.
    random_state : int or SeedSequence, default 0
        Root of the splits' and the damage's streams (keyed by the calibration's
        identity, the splits and Δ).
    n_jobs, scheduler, progress
        As in :func:`calibsim.compare`.

    Returns
    -------
    DamageCalibration

    Raises
    ------
    ValueError
        If ``difference`` is outside [0, 1); if Δ is larger than the undamaged
        learner's margin over chance (1/C) (at Δ = 0 with the other learner at or
        below chance the rate is 0: no signal to remove, the null taken as it is); if the learner named by ``damage`` is not
        above the target (random errors only lower accuracy); for both ``n_train`` and
        ``design``, or an ``n_train`` outside [2, n − 1]; for learners or data
        :func:`calibsim.compare` refuses.

    References
    ----------
    Dietterich, T. G. (1998). Approximate statistical tests for comparing supervised
    classification learning algorithms. Neural Computation 10(7), 1895–1923, §5.

    Examples
    --------
    >>> res = calibrate_damage("naive_bayes", "c45", "breast-cancer", difference=0.0,
    ...                        design="1x10", n_runs=10)
    >>> res.damaged, 0 < res.rate < 0.5
    ('c45', True)
    >>> sd = (res.achieved_se ** 2 + res.calibration_se ** 2) ** 0.5
    >>> bool(abs(res.achieved - res.difference) < 3 * sd)
    True
    """
    return run_damage_calibration(estimator_a, estimator_b, X, y, difference=difference,
                                  n_train=n_train, design=design, n_runs=n_runs, damage=damage,
                                  random_state=random_state, n_jobs=n_jobs,
                                  scheduler=scheduler, progress=progress)
