"""Dietterich (1998, §5): learning curves on the calibration examples and the damage that
puts one learner a fixed fraction of the way between two learning curves.

Dietterich drew data sets of 300 from each task, random subsets of 150, 200 and 270
of each (the training sets of 5x2cv, of McNemar's test and of the 10-fold cv t),
trained C4.5 and the nearest neighbour on them and measured their errors on the
task's calibration examples. He then damaged one learner (the nearest neighbour's
distance on EXP6 and letter, random errors of C4.5 on Pima) until the mean errors
matched at each size (Type I error), or until the damaged learner's curve lay a
fixed fraction λ of the way from the other learner's curve to its own undamaged one
(power): ``target(n) = ε_other(n) + λ (ε_undamaged(n) − ε_other(n))``.

:func:`learning_curves` measures the errors (the data sets are the study's: the same
seed, source identity and ``data`` stream); :func:`calibrate_damage` turns them into
the damage curve a study file then holds as literals
(``scripts/calibrate_dietterich1998_damage.py`` prints them).
"""

from __future__ import annotations

import zlib

import numpy as np
import pandas as pd

__all__ = ["DAMAGED_ATTRIBUTES", "WEIGHTS", "learning_curves", "calibrate_damage"]

#: The attributes whose distance the damaged nearest neighbour weighs down (calibsim's
#: choice; Dietterich does not say which): EXP6's first, letter's even-numbered half.
DAMAGED_ATTRIBUTES = {"exp6": (0,), "letter": (0, 2, 4, 6, 8, 10, 12, 14)}

#: Weights on the damaged attributes' squared differences at which the nearest
#: neighbour's error is measured; the calibrated weight is interpolated between them.
WEIGHTS = np.concatenate([[0.0], np.geomspace(1e-3, 1.0, 31)])


def _subset_rng(seeds):
    """The calibration subsets' randomness: a child of the data set's ``damage`` stream."""
    d = seeds["damage"]
    return np.random.default_rng(np.random.SeedSequence(
        d.entropy, spawn_key=(*d.spawn_key, zlib.crc32(b"calibration subsets"))))


def learning_curves(task: str, *, seed: int, n_datasets: int, sizes=(150, 200, 270),
                    n_instances: int = 300, max_calibration: int | None = None,
                    weights=WEIGHTS) -> pd.DataFrame:
    """Errors of C4.5 and the (damaged) nearest neighbour on the calibration examples.

    Parameters
    ----------
    task : {"exp6", "letter", "pima"}
        :class:`calibsim.sources.DietterichTaskSource` task.
    seed : int
        The study's seed: data set i is the study's data set i.
    n_datasets : int
        Data sets averaged over (Dietterich: 1000).
    sizes : sequence of int
        Training-set sizes; each data set gives one random subset per size.
    n_instances : int
        Data-set size (300).
    max_calibration : int, optional
        Use only the first ``max_calibration`` calibration examples (a speed-up for
        tests; the default uses all).
    weights : array_like
        Weights of :class:`DamagedNN` measured (EXP6 and letter; Pima measures the
        undamaged nearest neighbour only).

    Returns
    -------
    pandas.DataFrame
        One row per data set and size: ``dataset``, ``n_train``, ``c45`` and ``nn``
        (errors in [0, 1]; ``nn`` the undamaged nearest neighbour) and, for EXP6 and
        letter, ``w=<weight>`` columns (the damaged nearest neighbour's errors).
    """
    from .._rng import dataset_seeds, source_key
    from ..learners import C45, IB1
    from ..learners._damaged import nn_errors_over_weights
    from ..sources import DietterichTaskSource
    src = DietterichTaskSource(task, n_instances)
    key = source_key(src.identity)
    weights = np.asarray(weights, np.float64)
    damaged = np.zeros(len(src.n_values), bool)
    damaged[list(DAMAGED_ATTRIBUTES.get(task, ()))] = True
    classes = np.arange(src.n_classes)
    rows = []
    for i in range(n_datasets):
        seeds = dataset_seeds(seed, key, i)
        X, y, Xc, yc = src.sample_with_calibration(seeds["data"])
        if max_calibration is not None:
            Xc, yc = Xc[:max_calibration], yc[:max_calibration]
        rng = _subset_rng(seeds)
        for n in sizes:
            take = rng.choice(len(y), size=n, replace=False)
            Xt, yt = X[take], y[take]
            c45 = C45().fit(Xt, yt, n_values=src.n_values, classes=classes)
            row = {"dataset": i, "n_train": int(n), "c45": float(np.mean(c45.predict(Xc) != yc))}
            if task == "pima":     # the nearest neighbour as Weka's IB1 (range-normalised)
                nn = IB1().fit(Xt, yt, n_values=src.n_values, classes=classes)
                row["nn"] = float(np.mean(nn.predict(Xc) != yc))
            else:
                errs = nn_errors_over_weights(Xt, yt, Xc, yc, damaged, weights)
                row["nn"] = float(errs[-1]) if weights[-1] == 1.0 else float(
                    nn_errors_over_weights(Xt, yt, Xc, yc, damaged, [1.0])[0])
                row.update({f"w={w:.6g}": float(e) for w, e in zip(weights, errs)})
            rows.append(row)
    return pd.DataFrame(rows)


def calibrate_damage(curves: pd.DataFrame, task: str, lam: float = 0.0) -> pd.DataFrame:
    """The damage per training-set size that puts the damaged learner at fraction ``lam``.

    Parameters
    ----------
    curves : pandas.DataFrame
        :func:`learning_curves` of the task.
    task : {"exp6", "letter", "pima"}
    lam : float in [0, 1]
        0: the damaged learner's mean error equals the other learner's (Type I error);
        1: the undamaged learner. EXP6 and letter damage the nearest neighbour
        towards C4.5; Pima damages C4.5 towards the nearest neighbour.

    Returns
    -------
    pandas.DataFrame
        One row per size: ``n_train``, ``other`` and ``undamaged`` (mean errors of the
        other learner and of the undamaged one), ``target`` and ``damage`` (the weight
        of :class:`DamagedNN` or the rate of :class:`RandomErrors`) and ``achieved``
        (the mean error the damage gives on these curves: by interpolation between
        the measured weights, or exactly ``ē + r (1 − 2ē)`` for random errors on two
        classes).

    Raises
    ------
    ValueError
        If ``lam`` is outside [0, 1], or no measured weight (no rate) reaches the target.
    """
    if not 0.0 <= lam <= 1.0:
        raise ValueError(f"`lam` must lie in [0, 1]; got {lam!r}.")
    out = []
    for n, g in curves.groupby("n_train"):
        c45, nn = float(g["c45"].mean()), float(g["nn"].mean())
        if task == "pima":
            other, undamaged = nn, c45
            target = other + lam * (undamaged - other)
            rate = (target - c45) / (1.0 - 2.0 * c45)
            if not -1e-12 <= rate <= 1.0:
                raise ValueError(f"no random-error rate in [0, 1] gives C4.5 the target mean "
                                 f"error {target:.4f} at n_train={n} (C4.5 {c45:.4f}, "
                                 f"nearest neighbour {nn:.4f}).")
            rate = max(rate, 0.0)
            out.append({"n_train": int(n), "other": other, "undamaged": undamaged,
                        "target": target, "damage": rate,
                        "achieved": float(np.mean(g["c45"] + rate * (1 - 2 * g["c45"])))})
            continue
        other, undamaged = c45, nn
        target = other + lam * (undamaged - other)
        cols = [c for c in g.columns if c.startswith("w=")]
        w = np.array([float(c[2:]) for c in cols])
        err = g[cols].mean().to_numpy()
        # the highest weight whose mean error is still at or above the target: the
        # curve falls with the weight (not strictly: read it from the top down)
        above = np.flatnonzero(err >= target)
        if len(above) == 0 or above[-1] == len(w) - 1:
            if lam == 1.0 or np.isclose(err[-1], target):
                out.append({"n_train": int(n), "other": other, "undamaged": undamaged,
                            "target": target, "damage": 1.0, "achieved": float(err[-1])})
                continue
            raise ValueError(f"no weight in [{w[0]}, {w[-1]}] gives the target mean error "
                             f"{target:.4f} at n_train={n} (errors {err.min():.4f}.."
                             f"{err.max():.4f}).")
        j = above[-1]
        f = (err[j] - target) / (err[j] - err[j + 1]) if err[j] != err[j + 1] else 0.0
        damage = float(w[j] + f * (w[j + 1] - w[j]))
        out.append({"n_train": int(n), "other": other, "undamaged": undamaged,
                    "target": target, "damage": damage,
                    "achieved": float(err[j] + f * (err[j + 1] - err[j]))})
    return pd.DataFrame(out)
