"""The ``plan`` analysis: :func:`calibsim.plan` run by the engine on a study's sources.

The plan is the engine's own (:mod:`calibsim.engine.planning`, whose :func:`run_plan
<calibsim.engine.planning.run_plan>` is the body of :func:`calibsim.plan`), so this
analysis never reaches up to :mod:`calibsim.comparison`.

A ``[[analysis]]`` of ``kind = "plan"`` runs :func:`calibsim.plan` on the data of each
of its sources with the pair of learners, designs, tests, Δ values, α and df it names.
This is how a study validates ``plan`` itself (``studies/plan_validation.toml``, issue
42 item 5): the engine, not a script, runs it, and its repeats sit in the study's store.

- **The data.** A ``dataset`` source gives its data as they are (all instances, the
  data's own labels; ``n_instances`` then draws a random subsample per repeat); any
  other source gives its data set 0, drawn as the engine's cells draw it
  (:func:`calibsim._rng.dataset_seeds`, stream ``data``): a BAN source of 30,000
  instances is one pool of 30,000 that ``n_instances = 300`` subsamples.
- **The repeats.** The source's ``n_datasets`` is the plan's repeats per design
  (``--n-datasets`` reduces it as for any source).
- **Seeds.** Repeat ``g`` of the analysis (``repeats``: 1, or 2 for a fresh-seed check)
  is ``calibsim.plan`` with ``random_state = SeedSequence(source seed, spawn_key=(key,
  g))``, ``key`` the CRC-32 of ``"plan " + the source's identity``: keyed by the cell,
  never by the order of execution, and the same for every analysis of the source, so
  two analyses of one source share their fits.
- **The store.** ``calibsim.plan(results=...)`` saves every repeat in the study's store
  (:class:`~calibsim.engine.store.Store`, ``<results>/store``) as it finishes, keyed by
  the data, learners, design, seed and subsample size. :func:`compute_plans` fits them
  during ``calibsim run``'s compute phase, on the run's pool; the analysis phase
  (:func:`plan_rows`) calls ``calibsim.plan`` again, which finds every repeat saved and
  only draws the damage and runs the tests: a rerun or a resumed run fits nothing
  again, and a reduced run (``--n-datasets 10``) reuses the first repeats.
- **Δ.** ``differences`` lists Δ > 0 (accuracy units; Δ = 0, the damaged real-data
  null, is always in), or is ``"own"``: each design's own difference of the undamaged
  learners, as the Δ = 0 run measured it at the design's training-set size (the
  damaged learner's accuracy before its damage minus the other's), rounded down to
  0.01 points so that the damaged learner stays ahead with almost no damage
  (Dietterich's λ = 1). That is the power of the learners as they are, which the
  studies of known differences (Bouckaert 2003's BAN Sets 2-4) measure.

The table has one row per source, repeat, design, test and Δ: ``source``, ``group``,
the source's grid keys, ``repeat``, ``pair_a``, ``pair_b``, ``n_datasets``,
``n_instances``, ``alpha``, the columns of :attr:`calibsim.PlanResult.table`,
``own_difference`` (True on the rows of ``differences = "own"``), ``recommended``
(True on the design and test the plan recommends at that Δ) and the damaged null of the
design (``n_train``, ``damaged``, ``null_accuracy_other``, ``null_accuracy_damaged``,
``null_accuracy_undamaged``, ``null_difference``, ``null_difference_se``). Rates are in
[0, 1].
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["plan_rows", "compute_plans", "plan_data", "plan_seed", "check_design"]


def check_design(text: str) -> None:
    """Raise ``ValueError`` (the design parser's message) unless ``text`` is a design
    :func:`calibsim.plan` takes (``"10x10"``, ``"5x2cv"``, ``"subsampling:30@0.333"``...)."""
    from .scoring import parse_design
    parse_design(text)


def plan_data(study, label):
    """The data ``calibsim.plan`` runs on for source ``label``: ``(X, y)``; X is the
    source's :class:`~calibsim.datasets.Dataset` (y None) for a ``dataset`` source."""
    from .._rng import dataset_seeds, source_key
    spec = study.source(label)
    src = spec.build()
    if spec.kind == "dataset":
        return src.dataset, None
    return src.sample(dataset_seeds(spec.seed, source_key(src.identity), 0)["data"])


def plan_seed(study, label, repeat: int) -> np.random.SeedSequence:
    """Root seed of repeat ``repeat`` of the plans of source ``label`` (module docstring)."""
    from .._rng import source_key
    spec = study.source(label)
    key = source_key("plan " + spec.build().identity)
    return np.random.SeedSequence(spec.seed, spawn_key=(key, int(repeat)))


def _learner_text(study, label) -> str:
    """A study learner as :func:`calibsim.plan` takes it: ``"c45"``, ``"mod.Class(k=v)"``."""
    lrn = next(x for x in study.learners if x.label == label)
    if lrn.tuning or lrn.pipeline:
        raise ValueError(f"study {study.name!r}: learner {label!r} is tuned or a pipeline; "
                         "a plan analysis takes a built-in learner or one estimator class.")
    name = lrn.estimator if lrn.kind == "estimator" else lrn.kind
    args = ", ".join(f"{k}={v!r}" for k, v in lrn.params)
    return f"{name}({args})" if args else name


def _plans(study, a, label, repeat, *, client=None, saved_only=False):
    """``[(PlanResult, own)]`` of one source and repeat: the plan at Δ = 0 and the
    ``differences`` given, then, with ``differences = "own"``, one plan per design at its
    own difference (:func:`calibsim.engine.planning.run_plan`, the body of
    :func:`calibsim.plan`)."""
    from .planning import run_plan as plan
    X, y = plan_data(study, label)
    pair = a.pairs[0]
    kw = dict(designs=list(a.designs), tests=list(a.tests) or None, alpha=a.alphas[0],
              df=a.df, n_datasets=study.source(label).n_datasets,
              n_instances=a.n_instances, random_state=plan_seed(study, label, repeat),
              results=study.results, progress=False, client=client, saved_only=saved_only)
    own = a.differences == ("own",)
    first = plan(_learner_text(study, pair[0]), _learner_text(study, pair[1]), X, y,
                 differences=[] if own else list(a.differences), **kw)
    out = [(first, False)]
    if own:
        for r in first.null.itertuples():
            gap = math.floor(1e4 * (r.accuracy_undamaged - r.accuracy_other)) / 1e4
            if gap > 0:
                out.append((plan(_learner_text(study, pair[0]), _learner_text(study, pair[1]),
                                 X, y, differences=[gap], **{**kw, "designs": [r.design]}),
                            True))
    return out


def compute_plans(study, *, client=None, progress=None) -> None:
    """Fit and save every repeat of the study's ``plan`` analyses (the compute phase of
    ``calibsim run``), on ``client`` (the run's pool or cluster; None: here)."""
    analyses = [a for a in study.analyses if a.kind == "plan"]
    cells = [(a, label, g) for a in analyses for label in a.sources for g in range(a.repeats)]
    if not cells:
        return
    if progress is not None:
        progress.phase(f"plan repeats of {study.name}")
        progress.start(len(cells))
    for a, label, g in cells:
        _plans(study, a, label, g, client=client)
        if progress is not None:
            progress.advance(1)


def plan_rows(study, a, *, client=None, saved_only=False) -> pd.DataFrame:
    """The table of a ``plan`` analysis (module docstring); ``saved_only``: fit nothing
    (``calibsim report``), raising ``FileNotFoundError`` if a repeat is not in the store."""
    rows = []
    for label in a.sources:
        spec = study.source(label)
        base = {"source": label, "group": spec.group,
                **{k: (Path(v).stem if k in ("network", "path") else v) for k, v in spec.grid}}
        for g in range(a.repeats):
            for res, own in _plans(study, a, label, g, client=client,
                                   saved_only=saved_only):
                t = res.table.copy()
                if own:
                    t = t[t["difference"] > 0]
                rec = {(r.difference, r.design, r.test)
                       for r in res.recommendation.dropna(subset=["design"]).itertuples()}
                t["recommended"] = [(r.difference, r.design, r.test) in rec
                                    for r in t.itertuples()]
                t["own_difference"] = own
                null = res.null.rename(columns={
                    c: f"null_{c}" for c in res.null.columns
                    if c not in ("design", "n_train", "damaged", "damage_rate",
                                 "calibration_se")}).drop(columns=["damage_rate",
                                                                   "calibration_se"])
                t = t.merge(null, on="design", how="left")
                head = pd.DataFrame([{**base, "repeat": g, "pair_a": a.pairs[0][0],
                                      "pair_b": a.pairs[0][1], "n_datasets": res.n_datasets,
                                      "n_instances": a.n_instances or np.nan,
                                      "alpha": a.alphas[0]}] * len(t))
                rows.append(pd.concat([head, t.reset_index(drop=True)], axis=1))
    return pd.concat(rows, ignore_index=True) if rows else pd.DataFrame()
