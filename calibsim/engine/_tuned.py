"""Tuned learners: a parameter grid chosen by a protocol, scored inside the cell function.

A tuned learner (:class:`~calibsim.engine.learners.LearnerSpec` with ``tuning``) tries
the settings of its ``grid`` and reports, on each of the scheme's test folds, the
correct count of the setting its protocol chose (Scheffer & Herbrich 1997):

- ``test_set``: the setting with the most correct test-fold predictions over all of
  the scheme's splits of the data set: tuning on the test folds, the optimistic
  protocol;
- ``nested_cv``: on every outer split, the setting with the most correct
  predictions in a stratified ``inner_folds``-fold cv of the outer training part
  (pooled over the inner folds);
- ``holdout``: on every outer split, the setting most accurate on a stratified
  validation split (``validation_fraction`` of the outer training part), trained on
  the rest;
- ``bootstrap632``: on every outer split, the setting with the highest .632 bootstrap
  estimate (Efron 1983) from ``n_bootstrap`` samples of the outer training part
  (:mod:`calibsim.schemes`).

The honest protocols look at the training part of an outer split only. Ties go to
the earliest setting in the grid (as scikit-learn's ``GridSearchCV`` does). Every
setting is scored on the same outer and inner splits; built-in learners on nominal
codes use the numba kernel, one call per setting and protocol (the inner splits of all
outer splits in one call), and C4.5's settings of one ``min_obj`` share a call that
grows each tree once and prunes it at each confidence (J48's ``-C`` enters pruning
only; the counts are bit for bit those of one call per setting). Everything else
fits one fresh estimator per setting and split.

The inner splits of a protocol come from a child of the scheme's own stream:
``SeedSequence(stream.entropy, spawn_key=stream.spawn_key + (TUNING_KEY,
crc32(protocol)))``, so they depend on the data set, the scheme and the protocol
only, never on the worker, the block, the grid or the other learners.

References
----------
.. [1] Scheffer, T. & Herbrich, R. (1997). Unbiased assessment of learning
       algorithms. Proc. IJCAI-97, 798-803.
.. [2] Efron, B. (1983). Estimating the error rate of a prediction rule: improvement
       on cross-validation. JASA 78(382), 316-331. doi:10.1080/01621459.1983.10477973
"""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass

import numpy as np

from ._tuned_spec import PROTOCOLS, TUNING_KEY

__all__ = ["score_with_tuning"]

_CHUNK = 10          # outer splits per kernel call of the .632 bootstrap


def _stream(parent, protocol: str) -> np.random.Generator:
    ss = parent if isinstance(parent, np.random.SeedSequence) else np.random.SeedSequence(parent)
    key = tuple(ss.spawn_key) + (TUNING_KEY, zlib.crc32(protocol.encode("utf-8")))
    return np.random.default_rng(np.random.SeedSequence(ss.entropy, spawn_key=key))


@dataclass(frozen=True)
class _Plan:
    """Inner jobs of one protocol on one data set, shared by every setting.

    Each chunk is ``(rows, masks, count)``: ``rows`` (n_aug,) maps augmented rows to
    rows of X (copies carry bootstrap multiplicities); job j of the chunk trains on
    the rows where ``masks[j]`` is False and scores its predictions on the rows where
    ``count[j]`` is True. Over the chunks in order, job j serves outer split
    ``owner[j]``, and ``resub[j]`` marks .632 resubstitution jobs.
    """

    chunks: tuple
    owner: np.ndarray
    resub: np.ndarray


def _compact(rows, masks, count):
    """Drop augmented rows no job trains on or scores (the kernel would predict them)."""
    keep = (~masks).any(axis=0) | count.any(axis=0)
    return rows[keep], np.ascontiguousarray(masks[:, keep]), np.ascontiguousarray(count[:, keep])


def _nested_plan(outer, y, rng, inner_folds):
    from ..schemes import StratifiedRepeatedCV
    S, n = outer.shape
    cv = StratifiedRepeatedCV(n_folds=inner_folds, n_runs=1)
    masks = np.repeat(outer, inner_folds, axis=0)
    count = np.zeros_like(masks)
    for s in range(S):
        tr = np.flatnonzero(~outer[s])
        inner = cv.test_masks(y[tr], rng)[0]                     # (K, m)
        for k in range(inner_folds):
            masks[s * inner_folds + k, tr[inner[k]]] = True
            count[s * inner_folds + k, tr[inner[k]]] = True
    return _Plan(((np.arange(n), masks, count),), np.repeat(np.arange(S), inner_folds),
                 np.zeros(S * inner_folds, bool))


def _holdout_plan(outer, y, rng, validation_fraction):
    from ..schemes import RandomSubsampling
    S, n = outer.shape
    split = RandomSubsampling(n_runs=1, test_fraction=validation_fraction, stratified=True)
    masks, count = outer.copy(), np.zeros_like(outer)
    for s in range(S):
        tr = np.flatnonzero(~outer[s])
        val = tr[split.test_masks(y[tr], rng)[0]]
        masks[s, val] = True
        count[s, val] = True
    return _Plan(((np.arange(n), masks, count),), np.arange(S), np.zeros(S, bool))


def _bootstrap_plan(outer, y, rng, n_bootstrap):
    """B bootstrap jobs and one resubstitution job per outer split, on copies of X.

    Copy d of instance i is augmented row ``d * n + i``; a bootstrap job trains on
    copies ``d < count_i`` (so instance i weighs count_i) and scores copy 0 of its
    out-of-bag instances; the resubstitution job trains on copy 0 of the outer
    training part and scores copy 1 of it.
    """
    from ..schemes import Bootstrap632
    S, n = outer.shape
    boot = Bootstrap632(n_bootstrap=n_bootstrap)
    trains = [np.flatnonzero(~outer[s]) for s in range(S)]
    counts = [boot.counts(tr.size, rng) for tr in trains]
    D = max(2, max(int(c.max()) for c in counts))
    B1 = n_bootstrap + 1
    masks = np.ones((S, B1, D, n), bool)
    count = np.zeros((S, B1, D, n), bool)
    copies = np.arange(D)[None, :, None]
    for s, (tr, c) in enumerate(zip(trains, counts)):
        masks[s, :n_bootstrap][:, :, tr] = ~(copies < c[:, None, :])
        count[s, :n_bootstrap, 0][:, tr] = c == 0
        masks[s, n_bootstrap, 0, tr] = False
        count[s, n_bootstrap, 1, tr] = True
    resub = np.zeros((S, B1), bool)
    resub[:, n_bootstrap] = True
    rows = np.tile(np.arange(n), D)
    masks, count = masks.reshape(S * B1, D * n), count.reshape(S * B1, D * n)
    # chunks of _CHUNK outer splits, each with only the copies its jobs use: fewer rows
    # for the kernel to predict (the results do not depend on the chunking)
    chunks = tuple(_compact(rows, masks[a:a + _CHUNK * B1], count[a:a + _CHUNK * B1])
                   for a in range(0, S * B1, _CHUNK * B1))
    return _Plan(chunks, np.repeat(np.arange(S), B1), resub.ravel())


_PLANS = {"nested_cv": _nested_plan, "holdout": _holdout_plan, "bootstrap632": _bootstrap_plan}


def _c45_groups(settings, fast):
    """Settings that one kernel call scores together: lists of indices.

    On the fast path, C4.5 settings that differ only in the confidence share a
    group (:func:`_score_c45_confidences` grows each tree once); every other
    setting is a group of its own.
    """
    groups, by_min_obj = [], {}
    for i, st in enumerate(settings):
        opts = dict(st.params)
        if fast and st.kind == "c45" and set(opts) <= {"confidence", "min_obj"}:
            key = opts.get("min_obj", 2)
            if key not in by_min_obj:
                by_min_obj[key] = len(groups)
                groups.append([])
            groups[by_min_obj[key]].append(i)
        else:
            groups.append([i])
    return groups


def _score_c45_confidences(X, y, masks, settings, *, n_values, n_classes):
    """Score fast C4.5 settings of one ``min_obj`` on flat ``masks`` (S, n), growing each
    split's tree once; one dict per setting as :func:`score_fast` with
    ``return_correctness`` (bit for bit the same)."""
    from ..evaluate._kernels import _evaluate_c45_confidences
    opts = [dict(st.params) for st in settings]
    conf = np.array([float(o.get("confidence", 0.25)) for o in opts])
    correct, n_test, size, corr = _evaluate_c45_confidences(
        np.ascontiguousarray(X, dtype=np.int64), np.ascontiguousarray(y, dtype=np.int64),
        np.ascontiguousarray(n_values, dtype=np.int64), np.int64(n_classes),
        np.ascontiguousarray(masks, dtype=bool), conf, np.int64(opts[0].get("min_obj", 2)),
        True)
    nan = np.full((1, masks.shape[0]), np.nan)
    return [{"correct": correct[p:p + 1], "n_test": n_test, "model_size": size[p:p + 1],
             "fit_time": nan, "predict_time": nan.copy(), "correctness": corr[p:p + 1]}
            for p in range(len(settings))]


def _score_settings(X, y, masks, settings, *, fast, n_values, n_classes, return_correctness):
    """Score each setting on flat ``masks`` (S, n): ``(results, seconds)``, one of each per
    setting (a group's kernel time is shared evenly by its settings)."""
    from .learners import score_fast, score_general
    results, seconds = [None] * len(settings), [0.0] * len(settings)
    for group in _c45_groups(settings, fast):
        t0 = time.perf_counter()
        if len(group) > 1:
            parts = _score_c45_confidences(X, y, masks, [settings[i] for i in group],
                                           n_values=n_values, n_classes=n_classes)
        else:
            score = score_fast if fast else score_general
            parts = [score(X, y, masks, [settings[group[0]]], costs=False, n_values=n_values,
                           n_classes=n_classes, return_correctness=return_correctness)]
        spent = (time.perf_counter() - t0) / len(group)
        for i, res in zip(group, parts):
            results[i], seconds[i] = res, spent
    return results, seconds


def _plan_counts(plan, X, y, settings, *, fast, n_values, n_classes):
    """Correct predictions and scored rows of every job: per setting ``(correct, total,
    seconds)``, the first two (J,) int64."""
    correct = [[] for _ in settings]
    seconds = [0.0] * len(settings)
    total = []
    for rows, masks, count in plan.chunks:
        Xa, ya = X[rows], y[rows]
        total.append(count.sum(axis=1))
        if fast:
            res, secs = _score_settings(Xa, ya, masks, settings, fast=True, n_values=n_values,
                                        n_classes=n_classes, return_correctness=True)
            for p, (r, t) in enumerate(zip(res, secs)):
                correct[p].append((r["correctness"][0] & count).sum(axis=1))
                seconds[p] += t
            continue
        for p, setting in enumerate(settings):
            t0 = time.perf_counter()
            part = np.empty(len(masks), np.int64)
            for j, (te, ev) in enumerate(zip(masks, count)):
                est = setting.make()
                if setting.is_builtin and not setting.pipeline:
                    est.fit(Xa[~te], ya[~te], n_values=n_values)
                else:
                    est.fit(Xa[~te], ya[~te])
                part[j] = int(np.sum(np.asarray(est.predict(Xa[ev])) == ya[ev]))
            correct[p].append(part)
            seconds[p] += time.perf_counter() - t0
    total = np.concatenate(total)
    return [(np.concatenate(c), total, t) for c, t in zip(correct, seconds)]


def _estimates(protocol, plan, correct, total, n_outer):
    """The protocol's accuracy estimate in [0, 1] for every outer split, shape (n_outer,)."""
    def pooled(sel):
        c = np.bincount(plan.owner[sel], correct[sel], minlength=n_outer)
        t = np.bincount(plan.owner[sel], total[sel], minlength=n_outer)
        with np.errstate(invalid="ignore", divide="ignore"):
            return c / t
    if protocol != "bootstrap632":
        return pooled(np.ones(len(correct), bool))
    from ..schemes import bootstrap632_accuracy
    return bootstrap632_accuracy(pooled(plan.resub), pooled(~plan.resub))


def _choose(protocol, outer_correct, estimate):
    """Chosen setting per outer split, (S,) int: the first of the best."""
    if protocol == "test_set":
        best = int(np.argmax(outer_correct.sum(axis=1)))
        return np.full(outer_correct.shape[1], best, np.int64)
    return np.argmax(estimate, axis=0).astype(np.int64)


def score_with_tuning(X, y, masks, learners, *, fast, rng, n_values, n_classes,
                      return_correctness=False, costs=False) -> dict:
    """Score untuned and tuned learners on a data set's splits (the cell's scorer).

    Parameters
    ----------
    X, y, masks, n_values, n_classes, return_correctness
        As for :func:`calibsim.engine.learners.score_fast`; ``masks`` (*split, n).
    learners : sequence of LearnerSpec
        Untuned learners are scored exactly as without tuned ones.
    fast : bool
        Use the numba kernel (every learner and setting has ``fast_path()``).
    rng : numpy.random.SeedSequence or int
        The scheme's stream of this data set; each protocol's inner splits come from
        its own child (see the module docstring).
    costs : bool, default False
        Time the learners; tuned learners get the seconds spent on their settings
        (outer and inner fits) in ``fit_time``, spread evenly over the splits, and 0
        ``predict_time``. On the fast path without costs both are NaN.

    Returns
    -------
    dict
        As :func:`~calibsim.engine.learners.score_fast` (first axis the learners), plus
        ``setting`` (L, *split) int16: the chosen setting's index in the grid, -1 for
        untuned learners.

    Examples
    --------
    >>> from calibsim.engine.learners import LearnerSpec
    >>> from calibsim.schemes import StratifiedRepeatedCV
    >>> from calibsim.sources import NullSource
    >>> X, y = NullSource(n_instances=60).sample(rng=0)
    >>> masks = StratifiedRepeatedCV(n_folds=5, n_runs=2).test_masks(y, rng=1)
    >>> tuned = LearnerSpec("c45_tuned", "c45", tuning="nested_cv",
    ...                     grid=((("min_obj", 2),), (("min_obj", 10),)))
    >>> res = score_with_tuning(X, y, masks, [tuned, LearnerSpec("nb", "naive_bayes")],
    ...                         fast=True, rng=np.random.SeedSequence(2),
    ...                         n_values=np.full(10, 2), n_classes=2)
    >>> res["correct"].shape, res["setting"].shape, int(res["setting"][1].max())
    ((2, 2, 5), (2, 2, 5), -1)
    """
    from .learners import score_fast, score_general
    score = score_fast if fast else score_general
    split = masks.shape[:-1]
    flat = masks.reshape(-1, masks.shape[-1])
    S, L = flat.shape[0], len(learners)
    kw = {"n_values": n_values, "n_classes": n_classes,
          "return_correctness": return_correctness}
    out = {"correct": np.empty((L, S), np.int64), "model_size": np.empty((L, S), np.int64),
           "fit_time": np.empty((L, S)), "predict_time": np.empty((L, S)),
           "setting": np.full((L, S), -1, np.int16)}
    if return_correctness:
        out["correctness"] = np.zeros((L, S, flat.shape[1]), bool)
    plain = [i for i, lrn in enumerate(learners) if not lrn.tuning]
    n_test = flat.sum(axis=1)
    if plain:
        res = score(X, y, flat, [learners[i] for i in plain], costs=costs, **kw)
        for name in ("correct", "model_size", "fit_time", "predict_time", "correctness"):
            if name in out:
                out[name][plain] = res[name]
    outer, inner = {}, {}                  # caches shared by the tuned learners
    for i, lrn in enumerate(learners):
        if not lrn.tuning:
            continue
        settings = lrn.settings()
        todo = [st for st in settings if st.identity() not in outer]
        if todo:
            res, secs = _score_settings(X, y, flat, todo, fast=fast, **kw)
            for st, r, t in zip(todo, res, secs):
                outer[st.identity()] = dict(r, seconds=t)
        seconds = sum(outer[st.identity()]["seconds"] for st in settings)
        oc = np.stack([outer[st.identity()]["correct"][0] for st in settings])   # (P, S)
        est = None
        if lrn.tuning != "test_set":
            pkey = (lrn.tuning, lrn.tuning_params)
            if pkey not in inner:
                params = {k: d for k, (_, _, d) in PROTOCOLS[lrn.tuning].items()}
                params.update(dict(lrn.tuning_params))
                inner[pkey] = _PLANS[lrn.tuning](flat, y, _stream(rng, lrn.tuning), **params)
            plan = inner[pkey]
            todo = [st for st in settings if (pkey, st.identity()) not in inner]
            if todo:
                counts = _plan_counts(plan, X, y, todo, fast=fast, n_values=n_values,
                                      n_classes=n_classes)
                for st, (c, t, secs) in zip(todo, counts):
                    inner[(pkey, st.identity())] = (_estimates(lrn.tuning, plan, c, t, S), secs)
            est = np.stack([inner[(pkey, st.identity())][0] for st in settings])
            seconds += sum(inner[(pkey, st.identity())][1] for st in settings)
        chosen = _choose(lrn.tuning, oc, est)
        cols = np.arange(S)
        out["correct"][i] = oc[chosen, cols]
        sizes = np.stack([outer[st.identity()]["model_size"][0] for st in settings])
        out["model_size"][i] = sizes[chosen, cols]
        out["setting"][i] = chosen
        timed = costs or not fast
        out["fit_time"][i] = seconds / S if timed else np.nan
        out["predict_time"][i] = 0.0 if timed else np.nan
        if return_correctness:
            corr = np.stack([outer[st.identity()]["correctness"][0] for st in settings])
            out["correctness"][i] = corr[chosen, cols]
    res = {k: v.reshape((L,) + split + v.shape[2:]) for k, v in out.items()}
    res["n_test"] = n_test.reshape(split)
    return res
