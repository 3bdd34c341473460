"""The truth a ``coverage`` analysis's intervals are about, drawn from the source (issue 43).

A cv interval of an accuracy difference is judged by whether it holds the expected
accuracy difference of the two learners trained on the design's training size m,
``D(m) = E_T[acc_a(T) - acc_b(T)]``, the expectation over training sets T of m instances
drawn from the source, each model's accuracy taken on the source's distribution. With
``truth = "drawn"`` the coverage analysis computes it here instead of reading literals:

- ``fits`` training sets of m instances are drawn from the source (the study's source with
  ``n_instances = m``), data set i from ``SeedSequence(seed, spawn_key=(key, i))`` with
  ``key = source_key("truth(" + identity + ")")``: not one of the study's data sets;
- every learner is fitted on it by the engine's own scorer
  (:func:`calibsim.engine.learners.score_fast`, or ``score_general``), with the test
  rows appended and masked as a split's test set;
- its accuracy on the source's distribution: where the source gives exact joint
  probabilities (:meth:`calibsim.sources.BANSource.joint_probability`) and its
  attribute space holds at most :data:`MAX_CONFIGURATIONS` configurations, exactly, as
  ``sum over x and c of P(x, c) [prediction(x) = c]`` (every configuration once per
  class value); otherwise on ``n_test`` fresh instances drawn per fit (weighted by the
  exact ``P(c | x)`` where the source gives joint probabilities, else by their drawn
  class);
- ``D(m)`` is the mean over the fits of the per-fit difference (paired: both learners
  on the same training set), with Monte Carlo SE sd / sqrt(fits), which also holds the
  fresh test samples' noise where there are any. ``target = "error"`` gives the first
  learner's expected error ``1 - E_T[acc_a(T)]`` the same way.

The design's training size m (:func:`train_size`): the mean training-set size of its
splits: n (k - 1) / k for k-fold cv (rounded), n - n2 for subsampling, n1 for a
hold-out, n / 2 for 5 x 2 cv (rounded), and n for nested cv: Bates, Hastie &
Tibshirani (2023, §4)'s NCV interval, bias correction included, is for the model fitted
on all n instances.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._rng import source_key

__all__ = ["DrawnTruth", "drawn_truth", "train_size", "MAX_CONFIGURATIONS"]

#: Largest attribute space enumerated for an exact truth (each configuration is a test row
#: once per class value; larger spaces are sampled).
MAX_CONFIGURATIONS = 65_536


@dataclass(frozen=True)
class DrawnTruth:
    """A drawn truth: ``value`` (accuracy difference in [-1, 1], or an error rate in
    [0, 1]) with its Monte Carlo SE ``se`` over ``fits`` training sets of ``n_train``
    instances; ``method`` is ``"exact"`` (each model's accuracy computed over every
    attribute configuration) or ``"sampled"`` (on ``n_test`` fresh instances a fit)."""

    value: float
    se: float
    n_train: int
    fits: int
    method: str
    n_test: int


def train_size(scheme, n: int) -> int:
    """The mean training-set size of ``scheme``'s splits on ``n`` instances (a SchemeSpec).

    Returns
    -------
    int
        Instances a model of the design is trained on (a ``test_set`` scheme: n).

    Raises
    ------
    ValueError
        For a scheme that sets a share aside first (``hold_out``) and for kinds with no
        fixed training size. (A ``bootstrap_cv`` scheme's is that of the splits of the
        data as they are, m: Cai et al.'s estimate is the error at m.)
    """
    p, kind = scheme.p, scheme.kind
    if p.get("hold_out"):
        raise ValueError(f"scheme {scheme.name!r}: a drawn truth does not support "
                         "`hold_out` (the training size would depend on the held share).")
    if kind == "repeated_kfold":
        return int(round(n * (p["n_folds"] - 1) / p["n_folds"]))
    if kind == "subsampling":
        return n - scheme.splitter().n_test(n)
    if kind in ("holdout", "bootstrap_cv"):     # the bootstrap cv: its estimate's splits
        return scheme.splitter().n_train(n)
    if kind == "cv5x2":
        return int(round(n / 2))
    if kind in ("nested", "test_set"):
        return n
    raise ValueError(f"scheme {scheme.name!r} of kind {kind!r} has no fixed training size "
                     "for a drawn truth; give the truth as literals.")


def _test_rows(src, fresh, rng):
    """(X, y, w, method): test rows, their class and weights with sum w [pred = y] =
    accuracy; ``fresh`` is the source at ``n_instances = n_test``, drawn when ``src``'s
    attribute space is not enumerated."""
    joint = getattr(src, "joint_probability", None)
    n_values = np.asarray(src.n_values)
    C = int(src.n_classes)
    space = int(np.prod(n_values.astype(float))) if n_values.size and n_values.min() > 0 \
        else None
    if joint is not None and space is not None and space <= MAX_CONFIGURATIONS:
        X = np.indices(tuple(int(v) for v in n_values)).reshape(len(n_values), -1).T
        P = joint(np.ascontiguousarray(X, dtype=np.int64))
        method = "exact"
    else:
        X, y = fresh.sample(rng)
        if joint is None:
            return X, y, np.full(len(y), 1.0 / len(y)), "sampled"
        P = joint(X)
        P = P / P.sum(axis=1, keepdims=True) / len(X)
        method = "sampled"
    m = len(X)
    return (np.repeat(X, C, axis=0), np.tile(np.arange(C, dtype=np.int64), m), P.ravel(),
            method)


def drawn_truth(source, learners, *, n_train: int, fits: int, n_test: int, seed: int,
                target: str = "difference") -> DrawnTruth:
    """The expected accuracy difference of ``learners[0]`` minus ``learners[1]`` (or the
    expected error of ``learners[0]``) trained on ``n_train`` instances of ``source``.

    Parameters
    ----------
    source : SourceSpec
        The study's source; it is rebuilt with ``n_instances = n_train``.
    learners : sequence of LearnerSpec
        Two learners (``target = "difference"``) or one (``"error"``).
    n_train : int
        Training-set size m (>= 2), e.g. :func:`train_size` of the test's scheme.
    fits : int
        Training sets drawn (>= 2).
    n_test : int
        Fresh test instances a fit where the attribute space is not enumerated.
    seed : int
        The study's seed.
    target : {"difference", "error"}

    Returns
    -------
    DrawnTruth

    Raises
    ------
    ValueError
        If the source has no ``n_instances`` (it cannot draw a training set of m
        instances) or ``fits`` < 2.
    """
    from ._specs import _build_source
    from .learners import score_fast, score_general
    if fits < 2:
        raise ValueError(f"`truth_fits` must be >= 2 (its SE needs two fits); got {fits}.")
    params = dict(source.params)
    if "n_instances" not in params:
        raise ValueError(f"source {source.label!r} of kind {source.kind!r} draws no data sets "
                         "of a chosen size; its truth must be given as literals.")
    params["n_instances"] = int(n_train)
    src = _build_source(source.kind, tuple(sorted(params.items())))
    params["n_instances"] = int(n_test)
    fresh = _build_source(source.kind, tuple(sorted(params.items())))
    learners = tuple(learners)
    fast = getattr(src, "is_nominal_codes", True) and all(lrn.fast_path(True)
                                                          for lrn in learners)
    key = source_key(f"truth({src.identity})")
    acc = np.empty((fits, len(learners)))
    method = "exact"
    for i in range(fits):
        data, test, damage = np.random.SeedSequence(seed, spawn_key=(key, i)).spawn(3)
        X, y = src.sample(data)
        Xt, yt, w, method = _test_rows(src, fresh, test)
        Xs = np.concatenate([X, Xt.astype(X.dtype)])
        ys = np.concatenate([y, yt.astype(y.dtype)])
        masks = np.zeros((1, len(ys)), bool)
        masks[0, len(y):] = True
        kw = dict(n_values=src.n_values, n_classes=src.n_classes, return_correctness=True,
                  costs=False)
        res = (score_fast(Xs, ys, masks, learners, **kw) if fast
               else score_general(Xs, ys, masks, learners, **kw, rng=damage))
        acc[i] = np.asarray(res["correctness"], float)[:, 0, len(y):] @ w
    per_fit = acc[:, 0] - acc[:, 1] if target == "difference" else 1.0 - acc[:, 0]
    return DrawnTruth(value=float(per_fit.mean()),
                      se=float(per_fit.std(ddof=1) / np.sqrt(fits)), n_train=int(n_train),
                      fits=int(fits), method=method, n_test=0 if method == "exact" else n_test)
