"""Repeated scoring: the learners fitted on N repeats of a design on the user's data.

The runner of :func:`calibsim.plan` and of the damaged null of
:func:`calibsim.calibrate_like` (``null="damaged"``): each repeat is the design with new
partitions of the data (and, with a subsample size, a new random subsample), seeded by
:func:`repeat_partitions` from streams keyed by what they are for
(:func:`keyed_seed`); :func:`repeat_scores` fits all repeats in one call of the blocks
of :func:`calibsim.compare` (:mod:`calibsim.engine.scoring`), here, on a local pool or
on a Dask cluster, and with a store (:class:`calibsim.engine.store.Store`, keyed by
:func:`data_hash` and the rest of the identity) saves each repeat as it finishes.
"""

from __future__ import annotations

import zlib

import numpy as np
import pandas as pd

__all__ = ["keyed_seed", "data_hash", "repeat_partitions", "repeat_scores"]


def keyed_seed(random_state, *key) -> np.random.SeedSequence:
    """The stream of ``random_state`` keyed by ``key``: ``SeedSequence(entropy,
    spawn_key=base + (crc32(str(k)) for k in key))``, ``base`` the spawn key of
    ``random_state`` (a SeedSequence) or ``()`` (an int): keyed by what it is for (a
    design's name, a Δ), never by the order of the calls."""
    from .._validation import check_random_state
    rs = check_random_state("random_state", random_state)
    if isinstance(rs, np.random.SeedSequence):
        entropy, base = rs.entropy, tuple(rs.spawn_key)
    else:
        entropy, base = np.random.SeedSequence(rs).entropy, ()
    return np.random.SeedSequence(entropy, spawn_key=base + tuple(
        zlib.crc32(str(k).encode("utf-8")) for k in key))


def data_hash(Xa, codes) -> str:
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


def repeat_partitions(random_state, what, name, n_repeats, n, m):
    """Partition seeds of ``n_repeats`` repeats and, when ``m < n``, each repeat's
    instances (a random subsample of m, drawn from its own stream)."""
    base = keyed_seed(random_state, what, name)
    kids = base.spawn(n_repeats)
    seeds = [k.spawn(2)[0] for k in kids]
    if m >= n:
        return seeds, None
    rows = [np.sort(np.random.default_rng(k.spawn(2)[1]).choice(n, size=m, replace=False))
            for k in kids]
    return seeds, rows


def repeat_scores(learners, X, y, d, seeds, rows, *, n_jobs, scheduler, progress, what,
                  store=None, key=None, identity=None, client=None, saved_only=False):
    """Per-fold accuracies of the learners on every repeat of design ``d``: ``acc`` (N, 2,
    *shape), test-set sizes (N, *shape) and, for a holdout design, the per-instance
    correctness ``{"correct": (N, 2, m) bool, "masks": (N, m) bool}`` (else None).

    The blocks are :func:`calibsim.compare`'s (:func:`~.scoring.blocks_for`,
    :func:`~.scoring.score_block`), all repeats in one :func:`~.scoring.run_blocks` call, here,
    on a local pool or on a Dask cluster. With a ``store`` (:class:`calibsim.engine.store.Store`)
    each repeat is saved under ``key`` as soon as its blocks are in, and the repeats
    already there are not refitted: an interrupted plan resumes.
    """
    from dataclasses import replace

    from ..datasets import Dataset
    from .runner import check_n_workers
    from .scoring import blocks_for, prepare_data, run_blocks
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
