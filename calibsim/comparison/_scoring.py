"""The scoring half of :func:`calibsim.compare`: learners, designs, and per-fold accuracies.

Learners are fitted by the engine's own scoring functions
(:func:`calibsim.engine.learners.score_fast` for calibsim's learners on nominal
codes, :func:`~calibsim.engine.learners.score_general` otherwise), in blocks that
:func:`calibsim.engine.runner.map_blocks` runs here or on a Dask cluster.
"""

from __future__ import annotations

import ast
import difflib
import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..engine.learners import BUILTIN_LEARNERS, LearnerSpec

__all__ = []

_BUILTIN_CLASSES = {v[0].rpartition(".")[2]: k for k, v in BUILTIN_LEARNERS.items()}


@dataclass(frozen=True)
class GivenLearner:
    """A learner given as an estimator instance: cloned afresh for every split."""

    label: str
    estimator: object = field(repr=False)
    pipeline: tuple = ()

    def make(self):
        from sklearn.base import clone
        return clone(self.estimator)

    @property
    def is_builtin(self) -> bool:
        est = self.estimator
        return (type(est).__module__.startswith("calibsim.learners")
                and type(est).__name__ in _BUILTIN_CLASSES)

    def fast_path(self, nominal_codes: bool = True) -> bool:
        return False


def parse_learner(spec, default_label: str):
    """A learner from a built-in name, ``"module.Class(param=value, ...)"`` or an estimator.

    Raises
    ------
    ValueError
        If a string is neither a built-in name nor an importable class with literal
        keyword parameters, or an object has no ``fit``/``predict``.
    """
    if isinstance(spec, str):
        text = spec.strip()
        if text in BUILTIN_LEARNERS:
            return LearnerSpec(text, text)
        m = re.fullmatch(r"([A-Za-z_][\w.]*)\s*(?:\((.*)\))?", text, flags=re.S)
        if m is None:
            raise ValueError(f"learner spec {spec!r} refused: a learner must be one of "
                             f"{list(BUILTIN_LEARNERS)} or 'module.Class(param=value, ...)' "
                             "(scikit-learn estimators, pipelines written with "
                             "make_pipeline(...)); nothing was run.")
        from ..engine._safe_spec import (build_estimator, check_estimator, parse_spec,
                                          resolve_class)
        near = difflib.get_close_matches(text, list(BUILTIN_LEARNERS), n=2, cutoff=0.75)
        if near and "(" not in text and "." not in text:
            raise ValueError(f"unknown learner {text!r}; did you mean {' or '.join(near)}? "
                             f"(built-in learners: {', '.join(BUILTIN_LEARNERS)})")
        node = parse_spec(text)                  # refuses anything but literals and calls
        nested = isinstance(node, ast.Call) and any(
            isinstance(n, ast.Call) for a in [*node.args, *(k.value for k in node.keywords)]
            for n in ast.walk(a))
        if nested or (isinstance(node, ast.Call) and node.args) or "." not in m.group(1):
            est = build_estimator(text)          # a pipeline or an unqualified class name
            return GivenLearner(_label_of(est) or default_label, est)
        path, args = m.group(1), m.group(2) or ""
        resolve_class(path, spec)                # refuse before anything is imported
        params = _literal_kwargs(args, spec)
        if path in BUILTIN_LEARNERS:
            lrn = LearnerSpec(path, path, params=tuple(sorted(params.items())))
        else:
            lrn = LearnerSpec(path.rpartition(".")[2], "estimator", estimator=path,
                              params=tuple(sorted(params.items())))
        check_estimator(lrn.make(), text)  # files, work and role, before anything is fitted
        return lrn
    if not (hasattr(spec, "fit") and hasattr(spec, "predict")):
        raise ValueError(f"a learner must be a scikit-learn-style estimator with `fit` and "
                         f"`predict`, a built-in name or an import path; got {spec!r}.")
    _refuse_regressor(spec)
    return GivenLearner(_label_of(spec) or default_label, spec)


def _refuse_regressor(est) -> None:
    from sklearn.base import is_regressor
    if is_regressor(est):
        raise ValueError(f"learner {_label_of(est)!r} is a regressor; calibsim compares "
                         "classifiers by accuracy (give a classifier).")


def _label_of(est) -> str:
    """``"StandardScaler+SVC"`` for a Pipeline, else the class name."""
    steps = getattr(est, "steps", None)
    return ("+".join(type(step).__name__ for _, step in steps) if steps
            else type(est).__name__)


def _literal_kwargs(args: str, spec: str) -> dict:
    if not args.strip():
        return {}
    try:
        call = ast.parse(f"f({args})", mode="eval").body
        if call.args:
            raise ValueError("positional arguments")
        return {kw.arg: ast.literal_eval(kw.value) for kw in call.keywords}
    except (SyntaxError, ValueError) as exc:
        raise ValueError(f"a learner's parameters must be keyword=literal pairs, e.g. "
                         f"'sklearn.svm.SVC(C=1.0, kernel=\"rbf\")'; got {spec!r} ({exc}).") from None


@dataclass(frozen=True)
class Design:
    """A resampling design: what is split, how often, and which test fits it.

    Attributes
    ----------
    kind : {"cv", "subsampling", "cv5x2"}
    n_runs : int
        Runs r of r x k cv, or subsamples n.
    n_folds : int
        Folds k (0 for subsampling).
    test_fraction : float
        Test share of each subsample (subsampling only).
    name : str
        As the user wrote it, e.g. ``"10x10"``.
    """

    kind: str
    n_runs: int
    n_folds: int
    test_fraction: float = 0.1
    name: str = ""

    @property
    def shape(self) -> tuple:
        return (self.n_runs,) if self.kind == "subsampling" else (self.n_runs, self.n_folds)

    def splitter(self):
        from .. import schemes
        if self.kind == "subsampling":
            return schemes.RandomSubsampling(n_runs=self.n_runs, test_fraction=self.test_fraction)
        return schemes.RepeatedStratifiedKFold(n_folds=self.n_folds, n_runs=self.n_runs)

    def default_test(self) -> str:
        return {"cv": "corrected_repeated_cv", "subsampling": "corrected_resampling",
                "cv5x2": "cv5x2_t"}[self.kind]


#: Most fits per learner and repeat a design may ask for (r·k, or N subsamples).
MAX_FITS = 100_000


def parse_design(design) -> Design:
    """``"RxK"`` (r runs of stratified k-fold cv), ``"5x2cv"`` or ``"subsampling:N"``.

    Raises
    ------
    ValueError
        If ``design`` is none of these forms, its sizes are too small, or it asks
        for more than :data:`MAX_FITS` fits per learner.
    """
    if isinstance(design, Design):
        return design
    text = str(design).strip().lower().replace(" ", "").replace("×", "x")
    if text == "5x2cv":
        return Design("cv5x2", 5, 2, name="5x2cv")
    m = re.fullmatch(r"(\d+)x(\d+)(?:cv)?", text)
    if m:
        r, k = int(m.group(1)), int(m.group(2))
        if r < 1 or k < 2:
            raise ValueError(f"`design` 'RxK' needs r >= 1 runs and k >= 2 folds; got {design!r}.")
        if r * k > MAX_FITS:
            raise ValueError(f"`design` {design!r} asks for r·k = {r * k:,} fits per learner; "
                             f"at most {MAX_FITS:,} are allowed (the df table covers r·k up "
                             "to 100; 10x10 is the calibrated default).")
        return Design("cv", r, k, name=f"{r}x{k}")
    m = re.fullmatch(r"subsampling:(\d+)(?:@(0?\.\d+))?", text)
    if m:
        n = int(m.group(1))
        frac = float(m.group(2)) if m.group(2) else 0.1
        if n < 2:
            raise ValueError(f"`design` 'subsampling:N' needs N >= 2 subsamples; got {design!r}.")
        if n > MAX_FITS:
            raise ValueError(f"`design` {design!r} asks for {n:,} subsamples; at most "
                             f"{MAX_FITS:,} are allowed.")
        return Design("subsampling", n, 0, frac, name=f"subsampling:{n}")
    raise ValueError("`design` must be 'RxK' (r runs of stratified k-fold cv, e.g. '10x10'), "
                     "'5x2cv' or 'subsampling:N' (N random 90/10 splits; "
                     f"'subsampling:N@0.2' for 80/20); got {design!r}.")


@dataclass(frozen=True)
class Block:
    """Some runs of one repeat: picklable, so it can go to any Dask worker."""

    key: str
    X: np.ndarray = field(repr=False)
    y: np.ndarray = field(repr=False)
    masks: np.ndarray = field(repr=False)
    learners: tuple = field(repr=False)
    n_values: object = field(repr=False)
    n_classes: int = 2
    fast: bool = False


def score_block(block: Block) -> np.ndarray:
    """Accuracy in [0, 1] of each learner on each split of the block: (L, *split)."""
    from ..engine.learners import score_fast, score_general
    score = score_fast if block.fast else score_general
    res = score(block.X, block.y, block.masks, block.learners, n_values=block.n_values,
                n_classes=block.n_classes)
    return res["correct"] / res["n_test"][None]


def repeat_seeds(random_state, n_repeats: int) -> list:
    """The partition seed of each repeat of a comparison.

    Repeat 0 is split exactly as the design's calibsim splitter splits with
    ``random_state`` (``RepeatedStratifiedKFold(n_folds=k, n_runs=r,
    random_state=random_state)``, ``RandomSubsampling(...)``); the further repeats of
    ``replicability="rerun"`` take child seeds ``SeedSequence(random_state,
    spawn_key=(0, i))``, i = 1, 2, ...
    """
    from .._validation import check_random_state
    random_state = check_random_state("random_state", random_state)
    if isinstance(random_state, np.random.SeedSequence):
        entropy, key = random_state.entropy, tuple(random_state.spawn_key)
    else:
        entropy, key = np.random.SeedSequence(random_state).entropy, ()
    return [random_state] + [np.random.SeedSequence(entropy, spawn_key=key + (0, i))
                             for i in range(1, n_repeats)]


def blocks_for(X, y, learners, design: Design, seeds, *, n_values, n_classes, fast,
               runs_per_block: int):
    """Blocks of ``runs_per_block`` runs of each repeat, and each repeat's test masks.

    Returns ``(blocks, masks)`` with ``masks[rep]`` of shape ``design.shape + (n,)``.
    """
    out, all_masks = [], []
    n = len(y)
    for rep, seed in enumerate(seeds):
        masks = design.splitter().test_masks(y, seed)
        masks = masks.reshape(design.shape + (n,))
        all_masks.append(masks)
        for start in range(0, design.n_runs, runs_per_block):
            out.append(Block(f"compare-{rep}-{start}", X, y,
                             masks[start:start + runs_per_block], learners, n_values,
                             n_classes, fast))
    return out, all_masks


def prepare_data(X, y):
    """X, class codes, n_values, n_classes, nominal-codes flag and class labels."""
    from ..datasets import Dataset
    if isinstance(X, Dataset):
        if y is not None:
            raise ValueError("`y` must be None when `X` is a calibsim Dataset (it holds its class).")
        ds = X
        present = np.unique(ds.y)
        if present.size < 2:
            raise ValueError(f"`X` (data set {ds.name!r}) must hold at least two classes to "
                             f"compare classifiers; all {ds.y.size} instances are of class "
                             f"{ds.class_values[int(present[0])]!r}.")
        nominal = not (ds.is_numeric.any() or ds.has_missing)
        Xa = ds.nominal_codes() if nominal else np.asarray(ds.X)
        return Xa, np.asarray(ds.y, np.int64), ds.n_values, ds.n_classes, nominal
    if y is None:
        raise ValueError("`y` is required unless `X` is a calibsim Dataset.")
    frame = hasattr(X, "iloc") and hasattr(X, "columns")   # a DataFrame stays one
    Xa = X if frame else np.asarray(X)
    ya = np.asarray(y)
    if ya.ndim == 2 and ya.shape[1] == 1:                   # a column vector, as sklearn
        ya = ya.ravel()
    if len(Xa.shape) != 2 or ya.shape != (Xa.shape[0],):
        raise ValueError(f"`X` must be 2-D with one `y` label per row; got shapes "
                         f"{tuple(Xa.shape)} and {ya.shape}.")
    if ya.dtype.kind == "f" and np.isnan(ya).any():
        raise ValueError(f"`y` must hold a class label for every row; got "
                         f"{int(np.isnan(ya).sum())} missing (NaN) label(s).")
    classes, codes = np.unique(ya, return_inverse=True)
    if classes.size < 2:
        raise ValueError(f"`y` must hold at least two classes to compare classifiers; got "
                         f"only {classes.tolist()!r}.")
    if ya.dtype.kind == "f" and (classes.size > 0.5 * ya.size or
                                 not np.allclose(classes, np.round(classes))):
        raise ValueError(f"`y` looks like a regression target ({classes.size} distinct "
                         "non-integer values); calibsim compares classifiers: give class "
                         "labels.")
    codes = codes.reshape(-1).astype(np.int64)
    nominal = (not frame) and Xa.dtype.kind in "iub" and (Xa.size == 0 or Xa.min() >= 0)
    n_values = (Xa.max(axis=0).astype(np.int64) + 1) if nominal else None
    return Xa, codes, n_values, int(codes.max()) + 1, nominal


def run_test(spec, diff, df, design: Design):
    kw = {}
    if spec.name == "corrected_resampling":
        kw["test_train_ratio"] = design.test_fraction / (1 - design.test_fraction)
    return spec.func(diff, df, **kw)


def interval(res, alpha):
    try:
        ci = res.confidence_interval(1 - alpha)
    except ValueError:  # averaged-T tests have no standard error of m
        return (float("nan"), float("nan"))
    return (float(ci.low), float(ci.high))


def bootstrap_p_reject(spec, diff, df, d: Design, alpha, n_boot, random_state):
    if isinstance(random_state, np.random.SeedSequence):        # its own child stream
        ss = np.random.SeedSequence(random_state.entropy,
                                    spawn_key=tuple(random_state.spawn_key) + (1,))
    else:
        ss = np.random.SeedSequence(random_state, spawn_key=(1,))
    rng = np.random.default_rng(ss)
    idx = rng.integers(0, d.n_runs, size=(n_boot, d.n_runs))
    return float(np.mean(run_test(spec, diff[idx], df, d).pvalue <= alpha))


def score_table(acc, d: Design) -> pd.DataFrame:
    """(L=2, *shape) accuracies -> one row per fold."""
    runs, folds = (np.arange(d.n_runs), np.zeros(d.n_runs, int)) if d.kind == "subsampling" \
        else np.meshgrid(np.arange(d.n_runs), np.arange(d.n_folds), indexing="ij")
    return pd.DataFrame({"run": np.ravel(runs), "fold": np.ravel(folds),
                         "accuracy_a": acc[0].ravel(), "accuracy_b": acc[1].ravel(),
                         "difference": (acc[0] - acc[1]).ravel()})


def accuracies(learners, X, y, d: Design, random_state, n_repeats, *, n_jobs, scheduler,
               progress, return_masks: bool = False):
    """Per-fold accuracy, shape (n_repeats, L, *design shape), in [0, 1].

    With ``return_masks`` also the test masks of repeat 0, shape
    ``d.shape + (n_instances,)`` (see :func:`repeat_seeds` for the partitions).
    """
    from ..engine.runner import check_n_workers, cluster, map_blocks
    check_n_workers(n_jobs, scheduler)
    Xa, codes, n_values, n_classes, nominal = prepare_data(X, y)
    from .._validation import check_memory_estimate
    n, n_splits = len(codes), int(np.prod(d.shape))
    check_memory_estimate(         # fold assignments and test masks of every repeat
        [(n_repeats * (8.0 * d.n_runs * n + n_splits * n), "design", d.name, 1),
         (8.0 * n_repeats * len(learners) * n_splits, "n_repeats", n_repeats, 1)],
        what=f"the comparison on {n:,} instances")
    fast = nominal and all(lrn.fast_path(True) for lrn in learners)
    from ..datasets import Dataset
    if isinstance(X, Dataset) and not any(lrn.is_builtin for lrn in learners):
        Xa = X.to_frame()          # names and kinds, for pipelines that select columns
    seeds = repeat_seeds(random_state, n_repeats)
    runs_per_block = d.n_runs if fast else 1
    blocks, masks = blocks_for(Xa, codes, tuple(learners), d, seeds, n_values=n_values,
                               n_classes=n_classes, fast=fast,
                               runs_per_block=runs_per_block)
    out = np.empty((n_repeats, len(learners)) + d.shape)
    bar = None
    if progress:
        from tqdm.auto import tqdm
        bar = tqdm(total=len(blocks), desc="fitting", unit="block")

    import time
    t0, done = time.perf_counter(), [0]

    def keep(block, acc):
        rep, start = (int(v) for v in block.key.split("-")[1:])
        out[rep, :, start:start + acc.shape[1]] = acc
        done[0] += 1
        if bar is not None:
            if done[0] == 1 and len(blocks) > 1 and not fast:   # one timed block: the cost
                per = time.perf_counter() - t0
                bar.write(f"the first of {len(blocks)} blocks of fits took {per:.1f} s; "
                          f"all of them: about {per * len(blocks) / 60:.1f} min "
                          f"(fewer with more workers)")
            bar.update()

    workers = 0 if (n_jobs is None and scheduler is None) else n_jobs
    with cluster(scheduler=scheduler, n_workers=workers) as client:
        map_blocks(score_block, blocks, client=client, on_result=keep)
    if bar is not None:
        bar.close()
    return (out, masks[0]) if return_masks else out


class LabelWarning(UserWarning):
    """Two learners share a label; they are reported under numbered labels."""


def unique_labels(labels):
    """Labels made distinct by a suffix where two learners share one, with a warning that
    names them (give a dict of learners to choose the labels)."""
    labels = list(labels)
    if len(set(labels)) < len(labels):
        import warnings
        new = [f"{lab}_{i + 1}" if labels.count(lab) > 1 else lab
               for i, lab in enumerate(labels)]
        dup = sorted({lab for lab in labels if labels.count(lab) > 1})
        renamed = ", ".join(f"{a!r} -> {b!r}" for a, b in zip(labels, new) if a != b)
        warnings.warn(f"learners share the label(s) {', '.join(map(repr, dup))}; they are "
                      f"reported as {renamed} (give a dict of learners to name them).",
                      LabelWarning, stacklevel=3)
        labels = new
    return labels


def learner_items(estimators) -> list:
    """``[(label or None, learner), ...]`` from a dict or a sequence of two or more learners.

    Raises
    ------
    ValueError
        With fewer than two learners; a bare string (one learner, not a list of them).
    """
    if isinstance(estimators, str):
        raise ValueError("`estimators` must be a list or dict of two or more learners; got "
                         f"the single string {estimators!r}.")
    items = list(estimators.items()) if isinstance(estimators, dict) else [
        (None, e) for e in estimators]
    if len(items) < 2:
        raise ValueError(f"`estimators` must hold at least two learners; got {len(items)}.")
    return items
