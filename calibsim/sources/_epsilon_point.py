r"""The ε-point simulated learners of Dietterich (1998), Section 4.

No learner is trained. Every point x of a population carries two numbers,
ε_A(x) and ε_B(x): the probabilities that the classifier algorithm A (or B)
learns from a random training set of fixed size misclassifies x. There are two
kinds of points, equally frequent: kind 0 has (ε_A, ε_B) = (e1, e2), kind 1 has
(e2, e1). Both algorithms then have error rate ε = (e1 + e2)/2 on the
population, so the null hypothesis holds exactly, while on every single point
they differ by e1 - e2.

A trial draws a data set of ``n_points`` points with replacement (each point's
kind is Bernoulli(1/2)), then evaluates the schemes of the paper on it:

========  ===========================================  ===========================
scheme    splits of the data set                       result per trial
========  ===========================================  ===========================
holdout   one random 2/3 - 1/3 split                   2x2 counts on the test third
resampling  ``n_resamples`` random 2/3 - 1/3 splits    one error difference per split
kfold     one random ``n_folds``-fold partition        one error difference per fold
cv5x2     5 random 2-fold partitions                   (5, 2) error differences
========  ===========================================  ===========================

"Classifying" a test instance x draws two independent uniforms r, r' in
[0, 1); A misclassifies x iff r < ε_A(x), B iff r' < ε_B(x). The training part
of a split is ignored (the paper: "the training set is ignored").

Training-set variation (β). For the 10-fold cv test the paper draws, per fold, a
random β in [-0.02, +0.02] and adds it to ε_A and ε_B "before generating the
classifications" of that fold. We read this as *one* β ~ U[-beta, beta] per
fold, added to both algorithms' probabilities of every point in the fold, which
are then clipped to [0, 1]. Whether the paper also used β for 5x2cv (or the
resampled t) cannot be read from the text; ``beta_schemes`` chooses, default
``("kfold",)``. β is drawn for every split of every scheme whether or not it is
applied, so switching it on or off leaves all other random numbers unchanged.
Because the two kinds are mirror images and equally likely, the null hypothesis
still holds exactly with β and clipping.

Random streams. Trial t of a source draws from
``SeedSequence(seed, spawn_key=(source_key(source.identity), t))``, spawned into
one child stream per name in :data:`TRIAL_STREAMS`; so a trial's numbers do not
depend on which other trials are simulated with it, nor on the number of
resampled splits of other schemes. Within the resampling stream each split draws
one row of uniforms, so the first s splits are the same for every
``n_resamples >= s`` (common random numbers along Figure 5's x axis).

{references:dietterich1998}
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field

import numba as nb
import numpy as np

from .._docstrings import fill, fill_doc
from .._rng import source_key
from .._validation import check_int
from ._epsilon_pair import _check_real, epsilon_pair

__doc__ = fill(__doc__)

__all__ = ["EpsilonPointSource", "EpsilonPointTrials", "epsilon_pair", "TRIAL_STREAMS",
           "SCHEMES"]

#: Child streams of one trial, in spawn order.
TRIAL_STREAMS = ("data", "holdout", "resampling", "kfold", "cv5x2")

#: Evaluation schemes simulated on every trial (the names ``beta_schemes`` accepts).
SCHEMES = ("holdout", "resampling", "kfold", "cv5x2")



# ---------------------------------------------------------------------------
# Kernel (stateless, no random draws)
# ---------------------------------------------------------------------------

@nb.njit(cache=True)
def _contingency_counts(kind, test_idx, beta, e1, e2, u_a, u_b):
    """2x2 contingency counts of simulated algorithms A and B on every test set.

    Shapes: kind (n_trials, n) i8 in {0, 1}; test_idx (n_trials, n_splits, m) i8
    indices into a trial's n points; beta (n_trials, n_splits) f8; e1, e2 f8;
    u_a, u_b (n_trials, n_splits, m) f8 in [0, 1) -> (n_trials, n_splits, 4) i8
    holding [n00, n01, n10, n11] (digit 0 = wrong, 1 = right; first digit A).

    A point of kind 0 has misclassification probabilities (eps_A, eps_B) =
    (e1, e2), a point of kind 1 has (e2, e1). On split s both get ``beta[t, s]``
    added and are clipped to [0, 1]. Test instance i is misclassified by A iff
    ``u_a < eps_A`` and by B iff ``u_b < eps_B``.
    """
    n_trials, n_splits, m = test_idx.shape
    out = np.zeros((n_trials, n_splits, 4), dtype=np.int64)
    for t in range(n_trials):
        for s in range(n_splits):
            b = beta[t, s]
            hi = min(max(e1 + b, 0.0), 1.0)
            lo = min(max(e2 + b, 0.0), 1.0)
            for i in range(m):
                if kind[t, test_idx[t, s, i]] == 0:
                    ea = hi
                    eb = lo
                else:
                    ea = lo
                    eb = hi
                a_right = 0 if u_a[t, s, i] < ea else 1
                b_right = 0 if u_b[t, s, i] < eb else 1
                out[t, s, 2 * a_right + b_right] += 1
    return out


def _diff(counts):
    """Error-rate difference A - B from [n00, n01, n10, n11] counts (last axis)."""
    m = counts.sum(axis=-1)
    return (counts[..., 1] - counts[..., 2]) / m


@dataclass(frozen=True)
class EpsilonPointTrials:
    """Contingency counts of simulated trials (one row per trial).

    Every ``*_counts`` array ends in an axis of 4 holding [n00, n01, n10, n11]
    (n01: A wrong and B right; n10: A right and B wrong) on one test set.

    Attributes
    ----------
    trials : ndarray of shape (n_trials,), int64
        Trial indices.
    n_kind0 : ndarray of shape (n_trials,), int64
        Number of points of kind 0 ((ε_A, ε_B) = (e1, e2)) in the data set.
    holdout_counts : ndarray of shape (n_trials, 4), int64
        Counts on the test third of the single 2/3 - 1/3 split.
    resampling_counts : ndarray of shape (n_trials, n_resamples, 4), int64
    kfold_counts : ndarray of shape (n_trials, n_folds, 4), int64
    cv5x2_counts : ndarray of shape (n_trials, 5, 2, 4), int64
    beta : dict of str to ndarray
        The β actually added on each split of each scheme (0 where not applied),
        shapes (n_trials, 1), (n_trials, n_resamples), (n_trials, n_folds),
        (n_trials, 5, 2).
    """

    trials: np.ndarray
    n_kind0: np.ndarray
    holdout_counts: np.ndarray
    resampling_counts: np.ndarray
    kfold_counts: np.ndarray
    cv5x2_counts: np.ndarray
    beta: dict = field(repr=False)

    @property
    def resampling_diff(self) -> np.ndarray:
        """(n_trials, n_resamples) error rate of A minus that of B, per split."""
        return _diff(self.resampling_counts)

    @property
    def kfold_diff(self) -> np.ndarray:
        """(n_trials, n_folds) error rate of A minus that of B, per fold."""
        return _diff(self.kfold_counts)

    @property
    def cv5x2_diff(self) -> np.ndarray:
        """(n_trials, 5, 2) error-rate differences A - B, replication i, fold j."""
        return _diff(self.cv5x2_counts)


# ---------------------------------------------------------------------------
# The source
# ---------------------------------------------------------------------------

@fill_doc
@dataclass(frozen=True, init=False)
class EpsilonPointSource:
    r"""Two simulated algorithms with equal error ε that differ on every point.

    Give either ``epsilon`` (the pair then follows from ``gap``, see
    :func:`epsilon_pair`) or ``e1`` and ``e2`` (then ε = (e1 + e2)/2; an
    ``epsilon`` given as well must equal it).

    Parameters
    ----------
    epsilon : float, optional
        Target error rate in [0, 1] of both algorithms.
    e1, e2 : float, optional
        Misclassification probabilities in [0, 1] of the two kinds of points:
        kind 0 has (ε_A, ε_B) = (e1, e2), kind 1 has (e2, e1).
    gap : {"widest", "balanced"} or float, default "widest"
        Rule choosing (e1, e2) from ``epsilon``; ignored when both are given.
    n_points : int, default 300
        Size of each trial's data set (Dietterich: 300). Must be divisible by
        ``n_folds`` and by 2 (5x2cv); the 2/3 - 1/3 splits test on
        ``round(n_points / 3)`` points.
    n_folds : int, default 10
        Folds of the k-fold cv scheme (>= 2).
    beta : float, default 0.02
        Half-width of the uniform per-split shift β ~ U[-beta, beta] that
        simulates training-set variation; in [0, 1].
    beta_schemes : sequence of str, default ("kfold",)
        Schemes whose splits get β added, a subset of ``SCHEMES``. The paper
        describes β only for the 10-fold cv test.

    Attributes
    ----------
    epsilon, e1, e2 : float
        The resolved target error and pair.
    n_test : int
        Test-set size of the 2/3 - 1/3 splits (100 for 300 points).

    {references:dietterich1998}

    Examples
    --------
    >>> src = EpsilonPointSource(epsilon=0.1)
    >>> src.e1, src.e2, src.n_test
    (0.2, 0.0, 100)
    >>> res = src.simulate(seed=1, trials=range(3), n_resamples=30)
    >>> res.holdout_counts.shape, res.resampling_diff.shape, res.cv5x2_diff.shape
    ((3, 4), (3, 30), (3, 5, 2))
    >>> res.holdout_counts.sum(axis=1).tolist()
    [100, 100, 100]
    """

    epsilon: float
    e1: float
    e2: float
    n_points: int
    n_folds: int
    beta: float
    beta_schemes: tuple
    gap: object = field(repr=False)

    def __init__(self, epsilon=None, *, e1=None, e2=None, gap="widest", n_points=300,
                 n_folds=10, beta=0.02, beta_schemes=("kfold",)):
        if (e1 is None) != (e2 is None):
            raise ValueError("`e1` and `e2` must be given together (or neither, with "
                             f"`epsilon`); got e1={e1!r}, e2={e2!r}.")
        if e1 is None:
            if epsilon is None:
                raise ValueError("give `epsilon` or both `e1` and `e2`; got none of them.")
            e1, e2 = epsilon_pair(epsilon, gap=gap)
            eps = float(epsilon)
        else:
            e1 = _check_real("e1", e1, 0.0, 1.0)
            e2 = _check_real("e2", e2, 0.0, 1.0)
            eps = (e1 + e2) / 2.0
            if epsilon is not None:
                given = _check_real("epsilon", epsilon, 0.0, 1.0)
                if abs(given - eps) > 1e-9:
                    raise ValueError("`epsilon` must equal (e1 + e2)/2 = "
                                     f"{eps!r} when all three are given; got {given!r}.")
        n_points = check_int("n_points", n_points, min_value=6)
        n_folds = check_int("n_folds", n_folds, min_value=2)
        if n_points % n_folds or n_points % 2:
            raise ValueError(f"`n_points` must be divisible by `n_folds` = {n_folds} and by 2 "
                             f"(equal folds); got {n_points}.")
        beta = _check_real("beta", beta, 0.0, 1.0)
        if isinstance(beta_schemes, str):
            raise TypeError("`beta_schemes` must be a sequence of scheme names; got the "
                            f"string {beta_schemes!r} (write [{beta_schemes!r}]).")
        beta_schemes = tuple(beta_schemes)
        bad = [s for s in beta_schemes if s not in SCHEMES]
        if bad:
            raise ValueError(f"`beta_schemes` must be names from {list(SCHEMES)}; "
                             f"got {bad[0]!r}.")
        for name, value in (("epsilon", eps), ("e1", float(e1)), ("e2", float(e2)),
                            ("n_points", n_points), ("n_folds", n_folds), ("beta", beta),
                            ("beta_schemes", beta_schemes), ("gap", gap)):
            object.__setattr__(self, name, value)

    @property
    def n_test(self) -> int:
        return int(round(self.n_points / 3))

    @property
    def identity(self) -> str:
        """Canonical description used to key the trials' random streams."""
        return (f"epsilon_point(e1={self.e1!r}, e2={self.e2!r}, n_points={self.n_points}, "
                f"n_folds={self.n_folds}, beta={self.beta!r}, "
                f"beta_schemes={sorted(self.beta_schemes)!r})")

    def trial_seeds(self, seed: int, trial: int) -> dict[str, np.random.SeedSequence]:
        """Child seed sequences of trial ``trial``, one per name in ``TRIAL_STREAMS``."""
        ss = np.random.SeedSequence(seed, spawn_key=(source_key(self.identity), trial))
        return dict(zip(TRIAL_STREAMS, ss.spawn(len(TRIAL_STREAMS))))

    def _draw_trial(self, seeds, n_resamples):
        """All random numbers of one trial, drawn in a fixed order per stream."""
        n, m, k = self.n_points, self.n_test, self.n_folds
        half, fold = n // 2, n // k
        g = {name: np.random.default_rng(ss) for name, ss in seeds.items()}
        kind = (g["data"].random(n) >= 0.5).astype(np.int64)          # 1 = kind 1

        def random_splits(rng, rows):
            # one row per split: n permutation keys | m uniforms for A | m for B | 1 for β,
            # so the first s splits do not depend on the number of rows
            u = rng.random((rows, n + 2 * m + 1))
            idx = np.argsort(u[:, :n], axis=1, kind="stable")[:, :m]
            return idx, u[:, n:n + m], u[:, n + m:n + 2 * m], u[:, -1]

        hold = random_splits(g["holdout"], 1)
        res = random_splits(g["resampling"], n_resamples)
        # k-fold: one permutation cut into k folds; then per fold 2*fold + 1 uniforms
        perm = np.argsort(g["kfold"].random(n), kind="stable")
        ukf = g["kfold"].random((k, 2 * fold + 1))
        kf = (perm.reshape(k, fold), ukf[:, :fold], ukf[:, fold:2 * fold], ukf[:, -1])
        # 5x2cv: per replication one permutation cut into two halves, then for each
        # half 2*half + 1 uniforms
        perms = np.argsort(g["cv5x2"].random((5, n)), axis=1, kind="stable")
        ucv = g["cv5x2"].random((5, 2, 2 * half + 1))
        cv = (perms.reshape(10, half), ucv[..., :half].reshape(10, half),
              ucv[..., half:2 * half].reshape(10, half), ucv[..., -1].reshape(10))
        return kind, {"holdout": hold, "resampling": res, "kfold": kf, "cv5x2": cv}

    def simulate(self, seed: int, trials, *, n_resamples: int = 30) -> EpsilonPointTrials:
        """Simulate the given trials of this source.

        Parameters
        ----------
        seed : int
            The study's root entropy (>= 0).
        trials : int or iterable of int
            Trial indices (>= 0); an int ``T`` means ``range(T)``. Trial t's
            result depends only on ``seed``, the source's identity and t.
        n_resamples : int, default 30
            Random 2/3 - 1/3 splits of the resampled t test (>= 1).

        Returns
        -------
        EpsilonPointTrials
        """
        seed = check_int("seed", seed, min_value=0)
        n_resamples = check_int("n_resamples", n_resamples, min_value=1)
        if isinstance(trials, numbers.Integral) and not isinstance(trials, bool):
            trials = range(check_int("trials", trials, min_value=0))
        n_trials = len(trials) if hasattr(trials, "__len__") else 1
        row = 16.0 * (self.n_points + 2 * self.n_test + 1)       # the uniforms of one split
        from .._validation import check_memory_estimate
        check_memory_estimate([(n_trials * (self.n_folds + 12 + min(n_resamples, 30)) * row,
                                "n_points", self.n_points, 1)], what="the ε-point trials")
        check_memory_estimate([(n_trials * n_resamples * row, "n_resamples", n_resamples, 1),
                               (n_trials * (self.n_folds + 12) * row, "n_points",
                                self.n_points, 1),
                               (8.0 * n_trials, "trials", n_trials, 1)],
                              what="the ε-point trials")
        trials = np.asarray(list(trials), dtype=np.int64).reshape(-1)
        if trials.size and trials.min() < 0:
            raise ValueError(f"`trials` must be indices >= 0; got {int(trials.min())}.")
        draws = [self._draw_trial(self.trial_seeds(seed, int(t)), n_resamples)
                 for t in trials]
        T = trials.size
        kind = (np.stack([d[0] for d in draws]) if T
                else np.zeros((0, self.n_points), dtype=np.int64))
        counts, betas = {}, {}
        shapes = {"holdout": (1, self.n_test), "resampling": (n_resamples, self.n_test),
                  "kfold": (self.n_folds, self.n_points // self.n_folds),
                  "cv5x2": (10, self.n_points // 2)}
        for scheme, (s, m) in shapes.items():
            if T:
                idx, ua, ub, ubeta = (np.stack([d[1][scheme][j] for d in draws])
                                      for j in range(4))
            else:
                idx = np.zeros((0, s, m), dtype=np.int64)
                ua = ub = np.zeros((0, s, m))
                ubeta = np.zeros((0, s))
            on = scheme in self.beta_schemes
            beta = self.beta * (2.0 * ubeta - 1.0) * on          # U[-beta, beta) or 0
            counts[scheme] = _contingency_counts(
                np.ascontiguousarray(kind), np.ascontiguousarray(idx, dtype=np.int64),
                np.ascontiguousarray(beta), self.e1, self.e2,
                np.ascontiguousarray(ua), np.ascontiguousarray(ub))
            betas[scheme] = beta
        return EpsilonPointTrials(
            trials=trials, n_kind0=(kind == 0).sum(axis=1).astype(np.int64),
            holdout_counts=counts["holdout"][:, 0],
            resampling_counts=counts["resampling"], kfold_counts=counts["kfold"],
            cv5x2_counts=counts["cv5x2"].reshape(T, 5, 2, 4),
            beta={"holdout": betas["holdout"], "resampling": betas["resampling"],
                  "kfold": betas["kfold"], "cv5x2": betas["cv5x2"].reshape(T, 5, 2)})
