"""The damaged real-data null of ``calibrate_like(null="damaged")``.

Each of the N null data sets is a repeat of the design on the user's own data, labels
and class prior (new partitions each), fitted by :func:`calibsim.plan`'s runner
(:func:`calibsim.engine.repeats.repeat_scores`, the blocks of :func:`calibsim.compare`,
with its store and resume). The better learner is then damaged by random errors at the
rate that makes both learners' expected accuracies equal at the design's training-set
size (:func:`calibsim.engine.damage.solve` at Δ = 0, calibrated on the N repeats themselves as
Dietterich 1998, §5, calibrated on his study's data sets, and as :func:`calibsim.plan`
does); the damage is drawn on every fold's correct count (binomial thinning). The
per-fold differences A − B are not centred: the learners are equally good in
expectation by the damage, at the data's own prior.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

#: The damaged real-data null in words (the start of ``null_sentence``).
DAMAGED_WORDS = ("damaged learner (Dietterich 1998 §5), your data at your prior (the better "
                 "learner makes random classification errors at the rate that gives both "
                 "learners the same expected accuracy on your data, new partitions each)")


def damaged_differences(dataset, learners, design, seed, n_datasets, *, n_jobs=None,
                        scheduler=None, progress=False, results=None, n_instances=None):
    """Per-fold differences A − B on the damaged real-data null, shape ``(N, *shape)``
    (N = ``n_datasets``; shape the design's, e.g. (r, k)), and a dict of what the null
    was: ``labels``, ``damaged``, ``damage_rate``, the damaged accuracies
    ``accuracy_a``, ``accuracy_b`` (means over repeats and splits, in [0, 1]) with their
    SEs over repeats, ``null_difference`` and its SE. With ``n_instances`` each repeat
    is a random subsample of that many instances (new data per repeat, as Dietterich
    drew his); by default every repeat holds all the data (new partitions only).

    Raises
    ------
    ValueError
        As :func:`calibsim.calibrate_damage` (learners or data it refuses).
    """
    from ..engine.damage import solve, thin_counts
    from ..engine.repeats import data_hash, keyed_seed, repeat_partitions, repeat_scores
    from ..engine.scoring import Design, parse_learner, prepare_data
    lrns = [parse_learner(t, f"learner{i + 1}") for i, t in enumerate(learners)]
    labels = [lrn.label for lrn in lrns]
    if labels[0] == labels[1]:
        labels = [f"{labels[0]}_1", f"{labels[1]}_2"]
    Xa, codes, _, n_classes, _ = prepare_data(dataset, None)
    n = len(codes)
    m = n if n_instances is None else int(n_instances)
    stored = {}
    if results is not None:
        from ..engine.store import Store, fingerprint
        identity = {"what": "calibsim.calibrate_like damaged", "data": data_hash(Xa, codes),
                    "learners": [f"{lrn!r}|{getattr(lrn, 'estimator', '')!r}" for lrn in lrns],
                    "seed": str(seed), "design": design.name, "n_instances": m}
        stored = {"store": Store(Path(results) / "calibrate_like_damaged"),
                  "key": fingerprint(identity), "identity": identity}
    seeds, rows = repeat_partitions(seed, "calibrate_like partitions", design.name, n_datasets,
                                    n, m)
    acc, n_test, _ = repeat_scores(lrns, dataset, None, design, seeds, rows, n_jobs=n_jobs,
                                   scheduler=scheduler, progress=progress,
                                   what=f"damaged null {design.name}", **stored)
    N = int(n_datasets)
    correct = np.round(acc * n_test[:, None]).astype(np.int64)          # (N, 2, *shape)
    view = Design("cv", N, int(np.prod(design.shape)), name=design.name)
    rng = np.random.default_rng(keyed_seed(seed, "calibrate_like damage rate", design.name))
    cal = solve(acc.reshape(N, 2, -1).transpose(1, 0, 2), n_test.reshape(N, -1), view,
                labels, n_classes, [0.0], "better", rng, m, split=False)[0]
    i = labels.index(cal.damaged)
    rng = np.random.default_rng(keyed_seed(seed, "calibrate_like damage", design.name))
    after = [correct[:, 0] / n_test, correct[:, 1] / n_test]
    after[i] = thin_counts(correct[:, i], n_test, cal.rate, n_classes, rng) / n_test
    x = after[0] - after[1]

    def mean_se(v):
        runs = np.asarray(v, float).reshape(N, -1).mean(1)
        se = float(runs.std(ddof=1) / np.sqrt(N)) if N > 1 else float("nan")
        return float(runs.mean()), se

    (a, a_se), (b, b_se), (d, d_se) = mean_se(after[0]), mean_se(after[1]), mean_se(x)
    return x, {"labels": tuple(labels), "damaged": cal.damaged, "damage_rate": cal.rate,
               "accuracy_a": a, "accuracy_a_se": a_se, "accuracy_b": b, "accuracy_b_se": b_se,
               "null_difference": d, "null_difference_se": d_se}
