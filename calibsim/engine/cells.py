"""The one cell function: a block of data sets of one source, every learner, every scheme.

A cell is a :class:`CellSpec`: one source, the study's learners, the schemes still
to compute and a block ``start .. stop - 1`` of data-set indices. :func:`run_cell`
is pure: data set i draws its data and its partitions from
``SeedSequence(seed, spawn_key=(source_key, i))`` (streams ``data``, ``cv``,
``subsampling``, ``holdout``, ``cv5x2``; see :mod:`calibsim._rng`), so results are
bit-identical whatever the worker count, the block size or the order of execution.
All learners are fitted once on the same splits; pairs are derived afterwards.

Arrays returned per scheme, first axis the block's data sets (m):

- ``correct`` (m, L, *split) int16: correct test predictions of each learner;
- ``n_test`` (m, *split) int16: test-set sizes;
- ``model_size`` (m, L, *split) int32: C4.5 tree nodes, voted-perceptron
  perceptrons, a scikit-learn estimator's size (see
  :func:`calibsim.engine.learners.score_general`), 0 or -1 where undefined;
- ``fit_time``, ``predict_time`` (m, L) float64 seconds per data set, summed over the
  scheme's splits (NaN unless ``[study] costs = true`` or a general-path learner);
- ``correctness`` (m, L, *split, ceil(n / 8)) uint8, only for schemes with
  ``correctness = true``: per-instance correctness packed with ``numpy.packbits``
  (1 for a correctly classified test instance, 0 for a wrong or a training one);
- for a ``bootstrap_cv`` scheme, split = (1 + B, C): row 0 the C splits of the data
  as they are, row b the C splits of bootstrap sample b (:class:`calibsim.schemes.
  BootstrapCV`, stream ``bootstrap``), ``correct`` and ``n_test`` counting the copies
  of the test instances; with ``repeats`` R, (R (1 + B), C): R such blocks, the first
  drawn from the stream itself, repeat j >= 1 from its child keyed by ``"repeat"`` and
  j (so a scheme without ``repeats`` draws what it drew before);
- ``test_mask`` (m, *split, ceil(n / 8)) uint8, only for ``repeated_kfold`` and
  ``nested`` schemes with ``correctness = true``: the test masks packed alike, so the
  tests on per-instance outcomes (:data:`calibsim.stats.INSTANCE_TESTS`) tell a wrong
  test instance from a training one;
- ``setting`` (m, L, *split) int16, only when a learner is tuned: the index of the
  setting its protocol chose on each split, -1 for untuned learners (tuned learners
  are scored by :mod:`calibsim.engine._tuned`, their inner splits drawn from the
  scheme's stream).

An ε-point source (Dietterich 1998) simulates its two learners A and B; its cells
return ``difference`` (m, *split) float64 (accuracy of A minus B) and, for a
holdout scheme, ``mcnemar`` (m, 4) int64: n00, n01, n10, n11 of the first split.
A ``test_set`` scheme trains on the data set and tests on one independent set of
``n_test`` instances per source, drawn from ``SeedSequence(seed, spawn_key=(key,))``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._rng import dataset_seeds, source_key

__all__ = ["CellSpec", "run_cell", "STREAM_OF"]

#: Random stream of each scheme kind (``calibsim._rng.STREAMS``).
STREAM_OF = {"repeated_kfold": "cv", "subsampling": "subsampling", "holdout": "holdout",
             "cv5x2": "cv5x2", "nested": "cv",   # nested: the folds of repeated_kfold
             "bootstrap_cv": "bootstrap"}


@dataclass(frozen=True)
class CellSpec:
    """Everything :func:`run_cell` needs; picklable, so it can go to any Dask worker."""

    source: object          # SourceSpec
    learners: tuple         # LearnerSpec, ...
    schemes: tuple          # SchemeSpec, ...
    start: int
    stop: int
    costs: bool = False

    @property
    def key(self) -> str:
        """Stable, unique task name."""
        return (f"{self.source.label}|{'+'.join(s.name for s in self.schemes)}|"
                f"datasets={self.start}-{self.stop}")


def test_set(source, seed: int, n_test: int):
    """The independent test set of a ``test_set`` scheme: ``(X, y)`` of ``n_test`` rows."""
    ss = np.random.SeedSequence(seed, spawn_key=(source_key(source.identity),))
    return source._draw(ss, n_test)


def run_cell(spec: CellSpec) -> dict:
    """Compute the score arrays of one cell (a pure function of ``spec``).

    Returns
    -------
    dict of str to dict of str to ndarray
        Scheme name -> arrays described in the module docstring.
    """
    src = spec.source.build()
    if spec.source.simulated_scores:
        return _simulated(spec, src)
    from ._tuned import score_with_tuning
    from .learners import score_fast, score_general
    tuned = any(lrn.tuning for lrn in spec.learners)
    m = spec.stop - spec.start
    L = len(spec.learners)
    fast = getattr(src, "is_nominal_codes", True) and all(
        lrn.fast_path(True) for lrn in spec.learners)
    out = {}
    for s in spec.schemes:
        split = s.split_shape
        out[s.name] = {"correct": np.empty((m, L) + split, np.int16),
                       "n_test": np.empty((m,) + split, np.int16),
                       "model_size": np.empty((m, L) + split, np.int32),
                       "fit_time": np.empty((m, L)), "predict_time": np.empty((m, L))}
    held = {s.name: test_set(src, spec.source.seed, s.p["n_test"])
            for s in spec.schemes if s.kind == "test_set"}
    key = source_key(src.identity)
    for row, index in enumerate(range(spec.start, spec.stop)):
        seeds = dataset_seeds(spec.source.seed, key, index)
        X, y = src.sample(seeds["data"])
        if fast and X.dtype.kind == "f":
            X = src.X_int(X)
        for s in spec.schemes:
            Xs, ys, o = X, y, out[s.name]
            if s.kind == "test_set":
                Xt, yt = held[s.name]
                Xs, ys = np.concatenate([X, Xt.astype(X.dtype)]), np.concatenate([y, yt])
                masks = np.zeros((1, len(ys)), bool)
                masks[0, len(y):] = True
            elif s.kind != "bootstrap_cv":        # bootstrap_cv: its rows and masks below
                if s.p.get("hold_out"):           # set a share aside before the folds
                    Xs, ys = _held_in(X, y, s.p["hold_out"], seeds[STREAM_OF[s.kind]])
                masks = s.splitter().test_masks(ys, seeds[STREAM_OF[s.kind]])
                masks = masks.reshape(s.split_shape + (len(ys),))
            kw = dict(n_values=src.n_values, n_classes=src.n_classes,
                      return_correctness=s.correctness, costs=spec.costs)
            damage = np.random.SeedSequence(seeds["damage"].entropy, spawn_key=(
                *seeds["damage"].spawn_key, source_key(s.identity)))
            if s.kind == "bootstrap_cv":          # one fit set per resampled data set
                if tuned:
                    raise ValueError(f"scheme {s.name!r} (bootstrap_cv) cannot score tuned "
                                     "learners; leave them out of this scheme.")
                res = _bootstrap_cv(Xs, ys, s, seeds[STREAM_OF[s.kind]], spec.learners,
                                    fast, kw, damage)
            elif tuned:                           # engine/_tuned.py: grids and protocols
                res = score_with_tuning(Xs, ys, masks, spec.learners, fast=fast,
                                        rng=seeds[STREAM_OF.get(s.kind, "data")], **kw)
                o.setdefault("setting", np.empty((m, L) + s.split_shape, np.int16))[row] = \
                    res["setting"]
            else:                                 # damaged learners' errors: per scheme
                res = (score_fast(Xs, ys, masks, spec.learners, **kw) if fast
                       else score_general(Xs, ys, masks, spec.learners, **kw, rng=damage))
            o["correct"][row] = res["correct"]
            o["n_test"][row] = res["n_test"]
            o["model_size"][row] = res["model_size"]
            axes = tuple(range(1, res["fit_time"].ndim))
            o["fit_time"][row] = res["fit_time"].sum(axis=axes)
            o["predict_time"][row] = res["predict_time"].sum(axis=axes)
            if s.correctness:
                packed = np.packbits(res["correctness"], axis=-1)
                o.setdefault("correctness", np.empty((m,) + packed.shape, np.uint8))[row] = packed
            if s.keeps_masks:
                packed = np.packbits(masks, axis=-1)
                o.setdefault("test_mask", np.empty((m,) + packed.shape, np.uint8))[row] = packed
    return out


def _bootstrap_cv(X, y, scheme, stream, learners, fast, kw, damage) -> dict:
    """A ``bootstrap_cv`` scheme on one data set: the learners fitted on each row's data
    set (row 0 the data as they are, row b its bootstrap sample: the rows
    ``rows[b]`` of X, copies of an instance kept on one side of every split), with the
    arrays of the other schemes, of shape (L, 1 + B, C); times summed over the rows."""
    from .learners import score_fast, score_general
    parts = []
    for j in range(scheme.p.get("repeats", 1)):
        draw = stream if j == 0 else np.random.SeedSequence(
            stream.entropy, spawn_key=(*stream.spawn_key, source_key("repeat"), j))
        rows, test = scheme.splitter().resample(len(y), draw)
        for b in range(rows.shape[0]):
            r = rows[b]
            masks = test[b][:, r]
            parts.append(score_fast(X[r], y[r], masks, learners, **kw) if fast else
                         score_general(X[r], y[r], masks, learners, **kw, rng=np.random.
                                       SeedSequence(damage.entropy, spawn_key=(
                                           *damage.spawn_key, len(parts)))))
    out = {k: np.stack([p[k] for p in parts], axis=1)
           for k in ("correct", "model_size")}
    out["n_test"] = np.stack([p["n_test"] for p in parts])
    for k in ("fit_time", "predict_time"):
        out[k] = np.stack([p[k].reshape(len(learners), -1).sum(axis=1) for p in parts],
                          axis=1)
    return out


def _held_in(X, y, share: float, stream):
    """The data set without a stratified ``share`` held out, in its original order.

    The held-out instances come from a child of the scheme's stream, so the folds drawn
    from the stream itself are those the scheme draws without a hold-out, on fewer
    instances."""
    from ..schemes import RandomSubsampling
    child = np.random.SeedSequence(stream.entropy, spawn_key=(*stream.spawn_key,
                                                             source_key("hold_out")))
    out = RandomSubsampling(n_runs=1, test_fraction=share, stratified=True).test_masks(
        y, child)[0]
    return X[~out], y[~out]


def _simulated(spec: CellSpec, src) -> dict:
    """ε-point cells: the source simulates A and B on every scheme (Dietterich 1998, §4)."""
    n_res = max([s.p["n_runs"] for s in spec.schemes if s.kind in ("holdout", "subsampling")]
                or [2])
    trials = src.simulate(spec.source.seed, range(spec.start, spec.stop), n_resamples=n_res)
    out = {}
    for s in spec.schemes:
        if s.kind in ("holdout", "subsampling"):
            o = {"difference": np.asarray(trials.resampling_diff)[:, :s.p["n_runs"]]}
            if s.kind == "holdout":
                o["mcnemar"] = np.asarray(trials.holdout_counts, np.int64)
        elif s.kind == "repeated_kfold":
            o = {"difference": np.asarray(trials.kfold_diff)[:, None, :]}
        elif s.kind == "cv5x2":
            o = {"difference": np.asarray(trials.cv5x2_diff)[:, None]}
        else:
            raise ValueError(f"scheme {s.name!r} of kind {s.kind!r} cannot run on an ε-point "
                             "source (it simulates holdout, subsampling, repeated_kfold with "
                             "one run and cv5x2).")
        out[s.name] = o
    return out
