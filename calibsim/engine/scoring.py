"""The scoring half of :func:`calibsim.compare`: learners, designs, and per-fold accuracies.

What :func:`calibsim.compare`, :func:`calibsim.calibrate_damage` and :func:`calibsim.plan`
fit with, in the engine (so that the engine's own ``plan`` analysis runs them without
reaching up to :mod:`calibsim.comparison`): a design (:class:`Design`,
:func:`parse_design`, :func:`design_from_cv`), the learners (:func:`parse_learner`,
:class:`GivenLearner`), the data as the learners see it (:func:`prepare_data`,
:func:`check_sample_sizes`), the blocks of fits (:class:`Block`, :func:`blocks_for`,
:func:`score_block`, :func:`run_blocks`, :func:`accuracies`, :func:`repeat_seeds`), a
test on their differences (:func:`run_test`, :func:`holdout_counts`) and the df it is
run at (:func:`resolve_df`, :class:`DesignWarning`).

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

from .learners import BUILTIN_LEARNERS, LearnerSpec

__all__ = ["Design", "parse_design", "design_from_cv", "MAX_FITS", "GivenLearner",
           "parse_learner", "prepare_data", "prepare_regression", "data_task",
           "check_sample_sizes", "Block", "score_block",
           "blocks_for", "repeat_seeds", "accuracies", "run_blocks", "run_test",
           "holdout_counts", "resolve_df", "DesignWarning", "BAYES_TESTS", "INSTANCE_SCHEMES",
           "NORMAL_SCHEMES", "interval", "bootstrap_p_reject", "score_table", "sklearn_name",
           "LabelWarning", "unique_labels", "learner_items"]

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


def parse_learner(spec, default_label: str, task: str = "classification"):
    """A learner from a built-in name, ``"module.Class(param=value, ...)"`` or an estimator.

    ``task="regression"`` takes a regressor (an estimator object, or a scikit-learn
    regressor's import path with literal parameters) and refuses classifiers.

    Raises
    ------
    ValueError
        If a string is neither a built-in name nor an importable class with literal
        keyword parameters, or an object has no ``fit``/``predict``, or the learner does
        not fit the task (a regressor for classes, a classifier for a numeric target).
    """
    if task == "regression":
        return _parse_regressor(spec, default_label)
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
        from ._safe_spec import (build_estimator, check_estimator, parse_spec,
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


def _parse_regressor(spec, default_label: str):
    """A regressor for a numeric target: an estimator object, or a scikit-learn
    regressor's public import path with literal keyword parameters."""
    from sklearn.base import is_classifier, is_regressor
    if isinstance(spec, str):
        text = spec.strip()
        m = re.fullmatch(r"(sklearn(?:\.[A-Za-z_]\w*)+)\s*(?:\((.*)\))?", text, flags=re.S)
        if text in BUILTIN_LEARNERS or m is None:
            raise ValueError(f"learner {spec!r} refused for a numeric target (a regression "
                             "target): give a scikit-learn regressor, as an estimator or as "
                             "'sklearn.module.Class(param=value, ...)', e.g. "
                             "'sklearn.linear_model.Ridge(alpha=1.0)'; calibsim's built-in "
                             "learners are classifiers.")
        from sklearn.utils import all_estimators
        path, args = m.group(1), m.group(2) or ""
        name = path.rpartition(".")[2]
        found = [cls for n, cls in all_estimators(type_filter="regressor") if n == name
                 and any(path == f"{mod}.{name}" for mod in _public_modules(cls))]
        if not found:
            kind = ("a classifier" if any(n == name for n, _ in
                                          all_estimators(type_filter="classifier"))
                    else "not a public scikit-learn regressor")
            raise ValueError(f"learner {spec!r} refused: {path!r} is {kind}, and the target "
                             "is numeric (a regression target): give a regressor, e.g. "
                             "'sklearn.linear_model.Ridge()'; nothing was run.")
        try:
            est = found[0](**_literal_kwargs(args, spec))
        except TypeError as exc:
            raise ValueError(f"learner {spec!r} does not take these parameters ({exc}).") \
                from None
        return GivenLearner(name, est)
    if not (hasattr(spec, "fit") and hasattr(spec, "predict")):
        raise ValueError(f"a learner must be a scikit-learn-style estimator with `fit` and "
                         f"`predict`; got {spec!r}.")
    if is_classifier(spec) or (not is_regressor(spec) and hasattr(spec, "predict_proba")):
        raise ValueError(f"learner {_label_of(spec)!r} is a classifier; the target is numeric "
                         "(a regression target): give a regressor.")
    return GivenLearner(_label_of(spec) or default_label, spec)


def _public_modules(cls) -> list:
    """The public modules of ``cls``'s package path that export it (``sklearn.linear_model``
    for ``sklearn.linear_model._ridge.Ridge``)."""
    parts = cls.__module__.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)
            if not any(p.startswith("_") for p in parts[:i])]


def _refuse_regressor(est) -> None:
    from sklearn.base import is_regressor
    if is_regressor(est):
        raise ValueError(f"learner {_label_of(est)!r} is a regressor; the target holds "
                         "classes (give a classifier), or compare regressors on a numeric "
                         "target with a regression `scoring` such as "
                         "'neg_mean_squared_error'.")


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
    kind : {"cv", "subsampling", "cv5x2", "holdout", "nested", "bootstrap"}
    n_runs : int
        Runs r of r x k cv, or subsamples n (1 for a holdout split), or repetitions R of
        nested cv, or bootstrap samples B.
    n_folds : int
        Folds k (0 for subsampling and holdout), or splits C per bootstrap sample.
    test_fraction : float
        Test share of each split (subsampling, holdout and the bootstrap's splits of the
        data as they are).
    name : str
        E.g. ``"10x10"``, ``"5x2cv"``, ``"subsampling:30"``, ``"subsampling:30@0.2"``,
        ``"holdout@0.33"``.
    cv : scikit-learn splitter or None
        The splitter the partitions come from, when one was given (``cv=``); None for
        calibsim's own splitter of the design (:meth:`splitter`).
    task : {"classification", "regression"}
        A regression target has no classes to stratify by: its r x k cv (and 5x2cv)
        is :class:`calibsim.schemes.RepeatedCV`, and nested cv deals the instances to
        folds by their random keys alone (as stratifying by one class does).
    """

    kind: str
    n_runs: int
    n_folds: int
    test_fraction: float = 0.1
    name: str = ""
    cv: object = field(default=None, compare=False, repr=False)
    task: str = "classification"

    @property
    def shape(self) -> tuple:
        if self.kind == "nested":      # K outer splits and K(K-1)/2 inner ones per repetition
            return (self.n_runs, self.n_folds + self.n_folds * (self.n_folds - 1) // 2)
        if self.kind == "bootstrap":   # the estimate's C splits, then C per bootstrap sample
            return (1 + self.n_runs, self.n_folds)
        return ((self.n_runs,) if self.kind in ("subsampling", "holdout")
                else (self.n_runs, self.n_folds))

    def splitter(self, random_state=None):
        """calibsim's splitter of this design (not used when ``cv`` is given)."""
        from .. import schemes
        if self.kind == "subsampling":
            return schemes.RandomSubsampling(n_runs=self.n_runs, test_fraction=self.test_fraction,
                                             random_state=random_state)
        if self.kind == "holdout":
            return schemes.Holdout(train_fraction=1 - self.test_fraction, n_runs=1,
                                   random_state=random_state)
        if self.kind == "nested":
            return schemes.NestedCV(n_folds=self.n_folds, n_runs=self.n_runs,
                                    random_state=random_state)
        if self.kind == "bootstrap":
            return schemes.BootstrapCV(n_bootstrap=self.n_runs, n_splits=self.n_folds,
                                       train_fraction=1 - self.test_fraction,
                                       random_state=random_state)
        if self.task == "regression":
            return schemes.RepeatedCV(n_folds=self.n_folds, n_runs=self.n_runs,
                                      random_state=random_state)
        return schemes.StratifiedRepeatedCV(n_folds=self.n_folds, n_runs=self.n_runs,
                                            random_state=random_state)

    def describe(self, random_state=None) -> str:
        """The splitter exactly as used, class and parameters (e.g.
        ``"calibsim.schemes.StratifiedRepeatedCV(n_folds=10, n_runs=10, random_state=0)"``)."""
        if self.cv is not None:
            return sklearn_name(self.cv)
        if isinstance(random_state, np.random.SeedSequence):
            random_state = (f"SeedSequence({random_state.entropy}"
                            + (f", spawn_key={tuple(random_state.spawn_key)})"
                               if random_state.spawn_key else ")"))
        text = repr(self.splitter())
        return "calibsim.schemes." + text.replace("random_state=None", f"random_state={random_state}")

    def test_masks(self, X, y, seed, groups=None) -> np.ndarray:
        """Test masks of one repeat, shape ``shape + (n_instances,)``."""
        if self.cv is None:
            if self.task == "regression":       # one stratum: no classes to stratify by
                y = np.zeros(len(y), np.int64)
            return self.splitter().test_masks(y, seed).reshape(self.shape + (len(y),))
        cv = self.cv if seed is None else _reseeded(self.cv, seed)
        masks = _sklearn_masks(cv, X, y, groups)
        if masks.shape[0] != int(np.prod(self.shape)):
            raise ValueError(f"`cv` {sklearn_name(cv)} gave {masks.shape[0]} splits on a "
                             f"repeat where it gave {int(np.prod(self.shape))} before.")
        return masks.reshape(self.shape + (len(y),))

    def default_test(self) -> str:
        return {"cv": "corrected_repeated_cv", "subsampling": "corrected_resampling",
                "cv5x2": "cv5x2_t", "holdout": "mcnemar", "nested": "ncv",
                "bootstrap": "bootstrap_cv"}[self.kind]


def sklearn_name(cv) -> str:
    """A scikit-learn splitter in words, by its public module: e.g.
    ``"sklearn.model_selection.KFold(n_splits=5, random_state=None, shuffle=False)"``."""
    mod = type(cv).__module__
    if mod.startswith("sklearn.model_selection"):
        mod = "sklearn.model_selection"
    return f"{mod}.{cv!r}"


def _reseeded(cv, seed):
    """A copy of the scikit-learn splitter ``cv`` with ``random_state`` drawn from ``seed``
    (for further repeats with new partitions)."""
    from sklearn.base import clone
    state = int(np.random.SeedSequence(seed.entropy, spawn_key=tuple(seed.spawn_key))
                .generate_state(1)[0]) if isinstance(seed, np.random.SeedSequence) else int(seed)
    new = clone(cv, safe=False)
    new.random_state = state
    return new


def _sklearn_masks(cv, X, y, groups) -> np.ndarray:
    """(n_splits, n) test masks of a scikit-learn splitter, refusing splits whose training
    set is not the rest of the data (calibsim's tests and scores assume it is)."""
    n = len(y)
    try:
        splits = list(cv.split(X, y, groups))
    except (ValueError, TypeError) as exc:
        raise ValueError(f"`cv` {sklearn_name(cv)} could not split the data: {exc}") from None
    if not splits:
        raise ValueError(f"`cv` {sklearn_name(cv)} gave no split.")
    masks = np.zeros((len(splits), n), bool)
    for i, (train, test) in enumerate(splits):
        masks[i, np.asarray(test)] = True
        rest = np.ones(n, bool)
        rest[np.asarray(test)] = False
        if len(np.asarray(test)) != masks[i].sum() or not np.array_equal(
                np.sort(np.asarray(train)), np.flatnonzero(rest)):
            raise ValueError(f"`cv` {sklearn_name(cv)}: split {i} does not train on every "
                             "instance it does not test (as TimeSeriesSplit or a "
                             "train_size below 1 - test_size do); calibsim's tests assume "
                             "train = the complement of test. Give such a splitter "
                             "train_size=None, or another splitter.")
        if not 0 < masks[i].sum() < n:
            raise ValueError(f"`cv` {sklearn_name(cv)}: split {i} leaves an empty training "
                             "or test set.")
    return masks


def design_from_cv(cv, X, y, groups=None, task: str = "classification") -> Design:
    """The design of a scikit-learn splitter (or an int: stratified k-fold cv, as
    scikit-learn's ``check_cv`` makes it for a classifier, k-fold cv for a regression
    ``task``), read from its splits.

    Consecutive groups of splits whose test sets partition the data are runs of
    k-fold cv (``"RxK"``; 5 runs of 2 folds is the 5x2cv design); otherwise the
    splits are random subsamples with their test share (``"subsampling:N@f"``), or
    one holdout split (``"holdout@f"``).

    Raises
    ------
    ValueError
        If ``cv`` is neither an int >= 2 nor a splitter (``split`` and
        ``get_n_splits``), or its splits do not train on the rest of the data.
    """
    from sklearn.model_selection import check_cv
    if isinstance(cv, bool) or not (isinstance(cv, (int, np.integer)) or (
            hasattr(cv, "split") and hasattr(cv, "get_n_splits"))):
        raise ValueError("`cv` must be an int k >= 2 (stratified k-fold cv) or a scikit-learn "
                         "splitter such as RepeatedStratifiedKFold(n_splits=10, n_repeats=10, "
                         f"random_state=0); got {cv!r}.")
    if isinstance(cv, (int, np.integer)):
        if cv < 2:
            raise ValueError(f"`cv` must be an int k >= 2 (folds); got {cv!r}.")
        cv = check_cv(int(cv), y, classifier=task != "regression")
    from ..schemes import NestedCV
    if isinstance(cv, NestedCV):            # its pair splits are neither folds nor subsamples
        return Design("nested", cv.n_runs, cv.n_folds, name=f"ncv:{cv.n_runs}x{cv.n_folds}",
                      cv=cv, task=task)
    return _design_of_splits(cv, X, y, groups, task)


def _design_of_splits(cv, X, y, groups, task) -> Design:
    """The design read from a splitter's splits (see :func:`design_from_cv`)."""
    masks = _sklearn_masks(cv, X, y, groups)
    n_splits, n = masks.shape
    k = 0
    cover = np.zeros(n, int)
    for i in range(n_splits):           # the first run: splits until every instance is tested once
        cover += masks[i]
        if (cover > 1).any():
            break
        if (cover == 1).all():
            k = i + 1
            break
    if k >= 2 and n_splits % k == 0 and all(
            (masks[j:j + k].sum(0) == 1).all() for j in range(0, n_splits, k)):
        r = n_splits // k
        return Design("cv", r, k, name=f"{r}x{k}", cv=cv, task=task)
    frac = float(np.mean(masks.sum(1))) / n
    size = getattr(cv, "test_size", None)
    if isinstance(size, float) and 0 < size < 1:    # the share asked for, as ours is named
        frac = size                                 # (0.1 of 435 tests 44: 0.101)
    f = f"{frac:.3g}"
    if n_splits == 1:
        return Design("holdout", 1, 0, frac, name=f"holdout@{f}", cv=cv, task=task)
    return Design("subsampling", n_splits, 0, frac, name=f"subsampling:{n_splits}@{f}", cv=cv,
                  task=task)

#: Most fits per learner and repeat a design may ask for (r·k, or N subsamples).
MAX_FITS = 100_000


def parse_design(design) -> Design:
    """``"RxK"`` (r runs of stratified k-fold cv), ``"5x2cv"``, ``"subsampling:N"`` (or
    ``"subsampling:N@f"``, test share f), ``"holdout"`` (``"holdout@f"``; default f = 1/3)
    or ``"ncv:RxK"`` (R repetitions of nested K-fold cv, for Bates et al.'s NCV test)
    or ``"bootcv:BxC"`` (``"bootcv:BxC@f"``, test share f, default 1/3: B bootstrap samples
    of C random splits each, and C splits of the data as they are, for Cai et al.'s
    bootstrap of the cv estimate).

    Raises
    ------
    ValueError
        If ``design`` is none of these forms, its sizes are too small, or it asks
        for more than :data:`MAX_FITS` fits per learner.
    """
    if isinstance(design, Design):
        return design
    if hasattr(design, "split") and hasattr(design, "get_n_splits"):
        raise ValueError(f"`design` must be a string such as '10x10'; a splitter goes in `cv` "
                         f"(cv={design!r}).")
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
        return Design("subsampling", n, 0, frac,
                      name=f"subsampling:{n}" + (f"@{frac:g}" if m.group(2) else ""))
    m = re.fullmatch(r"ncv:(\d+)x(\d+)", text)
    if m:
        r, k = int(m.group(1)), int(m.group(2))
        if r < 1 or k < 3:
            raise ValueError(f"`design` 'ncv:RxK' needs R >= 1 repetitions and K >= 3 folds "
                             f"(the inner cv runs on K - 1 folds); got {design!r}.")
        fits = r * (k + k * (k - 1) // 2)
        if fits > MAX_FITS:
            raise ValueError(f"`design` {design!r} asks for R·(K + K(K-1)/2) = {fits:,} fits "
                             f"per learner; at most {MAX_FITS:,} are allowed.")
        return Design("nested", r, k, name=f"ncv:{r}x{k}")
    m = re.fullmatch(r"bootcv:(\d+)x(\d+)(?:@(0?\.\d+))?", text)
    if m:
        b, c = int(m.group(1)), int(m.group(2))
        frac = float(m.group(3)) if m.group(3) else 1 / 3
        if b < 2 or c < 2 or not 0 < frac < 1:
            raise ValueError(f"`design` 'bootcv:BxC' needs B >= 2 bootstrap samples and C >= 2 "
                             f"splits each (the random-effects variance), and a test share "
                             f"in (0, 1); got {design!r}.")
        if (1 + b) * c > MAX_FITS:
            raise ValueError(f"`design` {design!r} asks for (1 + B)·C = {(1 + b) * c:,} fits "
                             f"per learner; at most {MAX_FITS:,} are allowed.")
        return Design("bootstrap", b, c, frac,
                      name=f"bootcv:{b}x{c}" + (f"@{frac:g}" if m.group(3) else ""))
    m = re.fullmatch(r"holdout(?:@(0?\.\d+))?", text)
    if m:
        frac = float(m.group(1)) if m.group(1) else 1 / 3
        return Design("holdout", 1, 0, frac, name="holdout" + (f"@{frac:g}" if m.group(1) else ""))
    raise ValueError("`design` must be 'RxK' (r runs of stratified k-fold cv, e.g. '10x10'), "
                     "'5x2cv', 'subsampling:N' (N random 90/10 splits; 'subsampling:N@0.2' "
                     "for 80/20), 'holdout' (one 2/3-1/3 split, for McNemar's test; "
                     "'holdout@0.5' for 50/50), 'ncv:RxK' (R repetitions of nested K-fold "
                     "cv, for the NCV test) or 'bootcv:BxC' (B bootstrap samples of C splits, "
                     f"for the bootstrap of the cv estimate); got {design!r}.")


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
    correctness: bool = False
    metric: object = field(default=None, repr=False)


def score_block(block: Block):
    """Accuracy in [0, 1] of each learner on each split of the block: (L, *split); with
    ``block.correctness`` also whether each learner classifies each instance correctly,
    (L, *split, n) bool (the holdout tests count n01 and n10 from it).

    With ``block.metric`` (a :class:`calibsim.metrics.Metric` other than accuracy) the
    metric's greater-is-better fold scores instead, and with ``block.correctness`` each
    instance's value, (L, *split, n) float (0 off the test sets):
    :func:`calibsim.engine.metric_scoring.score_metric`."""
    if block.metric is not None:
        from .metric_scoring import score_metric
        scores, values = score_metric(block.X, block.y, block.masks, block.learners,
                                      metric=block.metric, n_values=block.n_values,
                                      n_classes=block.n_classes,
                                      instances=block.correctness, fast=block.fast)
        return (scores, values) if block.correctness else scores
    from .learners import score_fast, score_general
    score = score_fast if block.fast else score_general
    res = score(block.X, block.y, block.masks, block.learners, n_values=block.n_values,
                n_classes=block.n_classes, return_correctness=block.correctness)
    acc = res["correct"] / res["n_test"][None]
    return (acc, res["correctness"] & block.masks[None]) if block.correctness else acc


def repeat_seeds(random_state, n_repeats: int) -> list:
    """The partition seed of each repeat of a comparison.

    Repeat 0 is split exactly as the design's calibsim splitter splits with
    ``random_state`` (``StratifiedRepeatedCV(n_folds=k, n_runs=r,
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
               runs_per_block: int, groups=None, instances: bool = False, metric=None):
    """Blocks of ``runs_per_block`` runs of each repeat, and each repeat's test masks.

    Returns ``(blocks, masks)`` with ``masks[rep]`` of shape ``design.shape + (n,)``.
    With a scikit-learn splitter (``design.cv``) repeat 0 is split by it as given, the
    further repeats by copies re-seeded from ``seeds[rep]``. ``instances``: the blocks
    also return each instance's correctness (for the tests on per-instance outcomes).
    ``metric``: the blocks score it instead of accuracy (:func:`score_block`).
    """
    out, all_masks = [], []
    for rep, seed in enumerate(seeds):
        if design.kind == "bootstrap":   # one block per row: its own resampled data set
            rows, test = design.splitter().resample(len(y), seed)
            all_masks.append(test)
            Xf = X.iloc if hasattr(X, "iloc") else X
            out += [Block(f"compare-{rep}-{b}", Xf[r], y[r], test[b:b + 1][..., r], learners,
                          n_values, n_classes, fast, metric=metric)
                    for b, r in enumerate(rows)]
            continue
        masks = design.test_masks(X, y, None if (design.cv is not None and rep == 0) else seed,
                                  groups)
        all_masks.append(masks)
        for start in range(0, design.n_runs, runs_per_block):
            out.append(Block(f"compare-{rep}-{start}", X, y,
                             masks[start:start + runs_per_block], learners, n_values,
                             n_classes, fast, design.kind == "holdout" or instances,
                             metric=metric))
    return out, all_masks


def data_task(X, y, scoring=None) -> str:
    """The task of the data: "regression" for a numeric target, else "classification".

    A :class:`calibsim.datasets.Dataset` says which it is; a regression ``scoring``
    declares the target numeric; otherwise a float ``y`` with a non-integer value or
    more than :data:`calibsim.datasets.MAX_NUMERIC_CLASSES` distinct values is a
    regression target (integer labels stay classes, as before).
    """
    from ..datasets import Dataset
    if isinstance(X, Dataset):
        return X.task
    if scoring is not None:
        from ..metrics import get_metric
        if get_metric(scoring).task == "regression":
            return "regression"
    if y is None:
        return "classification"
    from ..datasets._dataset import _is_regression_target
    ya = np.asarray(y)
    if ya.dtype.kind != "f" or ya.ndim not in (1, 2):
        return "classification"
    ya = ya.reshape(-1)
    if np.isnan(ya).any():
        return "classification"              # prepare_data refuses missing labels
    return "regression" if _is_regression_target(ya, False) else "classification"


def prepare_regression(X, y):
    """X (a DataFrame stays one) and the float64 target of a regression comparison.

    Raises
    ------
    ValueError
        If ``y`` is missing, does not match ``X``, holds NaN or is constant.
    """
    from ..datasets import Dataset
    if isinstance(X, Dataset):
        if y is not None:
            raise ValueError("`y` must be None when `X` is a calibsim Dataset (it holds its "
                             "target).")
        Xa, ya, name = np.asarray(X.X, dtype=np.float64), np.asarray(X.y, np.float64), X.name
    else:
        if y is None:
            raise ValueError("`y` is required unless `X` is a calibsim Dataset.")
        frame = hasattr(X, "iloc") and hasattr(X, "columns")
        Xa, name = (X if frame else np.asarray(X)), None
        ya = np.asarray(y)
        if ya.ndim == 2 and ya.shape[1] == 1:
            ya = ya.ravel()
        if len(Xa.shape) != 2 or ya.shape != (Xa.shape[0],):
            raise ValueError(f"`X` must be 2-D with one `y` value per row; got shapes "
                             f"{tuple(Xa.shape)} and {ya.shape}.")
        try:
            ya = ya.astype(np.float64)
        except (TypeError, ValueError):
            raise ValueError("`y` must be numeric for a regression `scoring`; got values of "
                             f"type {ya.dtype}.") from None
    what = f"`X` (data set {name!r})" if name else "`y`"
    if np.isnan(ya).any():
        raise ValueError(f"{what} must hold a target value for every row; got "
                         f"{int(np.isnan(ya).sum())} missing (NaN).")
    if np.ptp(ya) == 0:
        raise ValueError(f"{what} is constant ({ya[0]!r} on all {ya.size} rows): there is "
                         "nothing to predict.")
    return Xa, ya


def prepare_data(X, y):
    """X, class codes, n_values, n_classes, nominal-codes flag and class labels."""
    from ..datasets import Dataset
    if isinstance(X, Dataset) and X.is_regression:
        raise ValueError(f"`X` (data set {X.name!r}) has a numeric target (a regression "
                         "task): compare regressors with a regression `scoring` such as "
                         "'neg_mean_squared_error'.")
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
                         "non-integer values); a comparison by class labels needs classes: "
                         "give class labels, or compare regressors with a regression "
                         "`scoring` such as 'neg_mean_squared_error'.")
    codes = codes.reshape(-1).astype(np.int64)
    nominal = (not frame) and Xa.dtype.kind in "iub" and (Xa.size == 0 or Xa.min() >= 0)
    n_values = (Xa.max(axis=0).astype(np.int64) + 1) if nominal else None
    return Xa, codes, n_values, int(codes.max()) + 1, nominal


def check_sample_sizes(codes, d: Design) -> None:
    """Refuse, before any fit, data too small for the design or with too many classes.

    Rules (``k`` is the number of folds, ``1 / test_fraction`` for subsampling and
    holdout): every test set must hold at least one instance and every training set
    at least two; at least two classes must have two or more instances; and the
    classes must average at least ``max(2, k / 2)`` instances, so most classes can be
    learned in training and met again in test. A data set where nearly every
    instance is its own class (an identifier or a regression target as the class)
    fails the last rule.

    Raises
    ------
    ValueError
        Naming the rule, the data's numbers and the design.
    """
    n = int(codes.size)
    counts = np.bincount(codes) if codes.dtype.kind in "iu" else np.array([n])
    counts = counts[counts > 0]
    if d.kind in ("subsampling", "holdout", "bootstrap"):
        n_test = int(np.ceil(n * d.test_fraction))
        k = max(2, int(round(1 / d.test_fraction)))
        n_train_min = n - n_test
    else:
        k = d.n_folds
        n_test = n // k
        n_train_min = n - int(np.ceil(n / k))
    if n_test < 1 or n_train_min < 2:
        raise ValueError(f"the data ({n} instances) are too small for the design {d.name!r}: "
                         f"every test set needs at least 1 instance and every training set "
                         f"at least 2; use fewer folds or more data.")
    if d.task == "regression":          # a numeric target: no classes to count
        return
    if int((counts >= 2).sum()) < 2:
        raise ValueError(f"the data ({n} instances, {counts.size} classes) must have at least "
                         "two classes of two or more instances each to compare classifiers; "
                         f"class sizes {sorted(counts.tolist(), reverse=True)[:10]}.")
    need = max(2.0, k / 2)
    if n / counts.size < need:
        raise ValueError(f"the data have {counts.size} classes in {n} instances "
                         f"({n / counts.size:.2g} "
                         f"per class on average); the design {d.name!r} needs at least "
                         f"{need:g} per class on average (a class column of identifiers or "
                         "of a regression target?); choose another class column or fewer folds.")


class DesignWarning(UserWarning):
    """The design, test or α is outside the shipped df table; another df was used."""


#: The Bayesian tests of the registry: a posterior probability, no df.
BAYES_TESTS = ("bayes_correlated_t", "bayes_correlated_t_rope1")
#: The tests on per-instance outcomes (calibsim.stats.INSTANCE_TESTS).
INSTANCE_SCHEMES = ("instances", "nested")
#: The tests with a standard normal reference and no df: those and the bootstrap of the
#: cv estimate (Cai et al. 2023), which fits on bootstrap samples.
NORMAL_SCHEMES = (*INSTANCE_SCHEMES, "bootstrap")


def resolve_df(test, df, alpha, design: Design):
    """The df :func:`calibsim.compare` (and :func:`calibsim.plan`) runs ``test`` at on
    ``design``: ``(df, (ci_low, ci_high), source)``.

    ``df`` is ``"calibrated"`` (the shipped table of calibrated df,
    :func:`calibsim.lookup_df`, where it covers the test, design and α; else the
    textbook df, with a :class:`DesignWarning`), ``"textbook"`` (the design's textbook
    df) or a positive number; the tests without df (McNemar's, the proportions test,
    the Bayesian tests, the tests on a standard normal reference) take NaN. The
    interval is the calibrated df's 95% interval from the table ((nan, nan)
    otherwise); ``source`` says where the df came from, in words.

    Raises
    ------
    ValueError
        If ``df`` is none of these (only the two words for a test without df).
    """
    import warnings

    from ..calibration._dftable import lookup_df
    from ..stats import get_test
    spec = get_test(test)
    textbook = spec.default_df(design.n_runs, design.n_folds)
    nan2 = (float("nan"), float("nan"))
    if spec.scheme == "holdout" or spec.name in BAYES_TESTS or spec.scheme in NORMAL_SCHEMES:
        if not (isinstance(df, str) and df in ("calibrated", "textbook")):
            raise ValueError(f"`df` must be 'calibrated' or 'textbook' for {spec.name!r}, which "
                             f"takes no df; got {df!r}.")
        what = ("a posterior probability, no df" if spec.name in BAYES_TESTS else
                "a standard normal reference, no df"
                if spec.scheme in NORMAL_SCHEMES else
                "the exact binomial, no df" if spec.name == "mcnemar_exact" else
                "chi-square with 1 df, nothing to calibrate" if spec.name == "mcnemar" else
                "the normal distribution, no df")
        return float("nan"), nan2, f"{spec.label}: {what}"
    if isinstance(df, str) and df == "textbook":
        return float(textbook), nan2, "textbook df of the design"
    if isinstance(df, str) and df == "calibrated" and spec.name in ("cv5x2_t", "cv5x2_f") \
            and design.kind == "cv5x2":
        return float(textbook), nan2, "the test's own df (Dietterich 1998; Alpaydin 1999)"
    if isinstance(df, str) and df == "calibrated" and design.kind == "subsampling" \
            and not np.isclose(design.test_fraction, 0.1):
        warnings.warn(f"no calibrated df for {test!r} with design {design.name!r}: the shipped "
                      "table holds 90/10 subsampling only (test share 0.1); using the textbook "
                      f"df {textbook} (calibsim calibrate --like calibrates yours).",
                      DesignWarning, stacklevel=3)
        return float(textbook), nan2, "textbook df (test share not in the df table)"
    if isinstance(df, str) and df == "calibrated":
        try:
            e = lookup_df(test, alpha=alpha, n_folds=design.n_folds, n_runs=design.n_runs)
            if e.df == np.inf and spec.name not in ("corrected_repeated_cv",
                                                      "corrected_resampling"):
                raise ValueError("the table's df is infinite")
        except ValueError as exc:
            warnings.warn(f"no calibrated df for {test!r} with design {design.name!r} at "
                          f"alpha = {alpha:g} ({str(exc).rstrip('.')}); using the textbook "
                          f"df {textbook}.", DesignWarning, stacklevel=3)
            return float(textbook), nan2, "textbook df (design not in the df table)"
        return e.df, (e.ci_low, e.ci_high), (
            f"calibrated on {e.n_datasets} null data sets, naive Bayes vs C4.5, shipped table")
    if isinstance(df, (int, float, np.integer, np.floating)) and not isinstance(df, bool) \
            and np.isfinite(df) and df > 0:
        return float(df), nan2, "given"
    raise ValueError(f"`df` must be 'calibrated', 'textbook' or a positive number; got {df!r}.")


def run_test(spec, diff, df, design: Design, n_instances=None):
    """``spec`` on per-fold differences (or McNemar's counts, for the holdout tests);
    ``n_instances``: the data set's size, for the bootstrap of the cv estimate."""
    kw = {}
    if spec.name == "corrected_resampling":
        kw["test_train_ratio"] = design.test_fraction / (1 - design.test_fraction)
    if spec.scheme == "bootstrap":
        kw.update(n_instances=n_instances, n_train=design.splitter().n_train(n_instances))
    return spec.func(diff, df, **kw)


def interval(res, alpha):
    """The test's interval for the difference at level 1 - α, or (nan, nan) where it has
    none: the averaged-T tests (no standard error of m), the 5x2cv F test, McNemar's and
    the proportions test (no ``confidence_interval``), the Bayesian tests."""
    if not hasattr(res, "confidence_interval"):
        return (float("nan"), float("nan"))
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
    runs, folds = (np.arange(d.n_runs), np.zeros(d.n_runs, int)) \
        if d.kind in ("subsampling", "holdout") \
        else np.meshgrid(np.arange(acc.shape[1]), np.arange(acc.shape[2]), indexing="ij")
    return pd.DataFrame({"run": np.ravel(runs), "fold": np.ravel(folds),
                         "accuracy_a": acc[0].ravel(), "accuracy_b": acc[1].ravel(),
                         "difference": (acc[0] - acc[1]).ravel()})


def accuracies(learners, X, y, d: Design, random_state, n_repeats, *, n_jobs, scheduler,
               progress, return_masks: bool = False, groups=None, what: str = "compare",
               instances: bool = False, metric=None):
    """Per-fold accuracy, shape (n_repeats, L, *design shape), in [0, 1].

    With ``metric`` (a :class:`calibsim.metrics.Metric` other than accuracy) the
    metric's greater-is-better fold scores instead, every learner fitted on every split
    (:func:`calibsim.engine.metric_scoring.score_metric`), and with ``instances`` each
    instance's value (float) in place of its correctness; a regression design
    (``d.task``) takes the target as it is. A test set where the metric is undefined
    (ROC AUC on one class) is refused before any fit.

    With ``return_masks`` also the test masks of repeat 0, shape
    ``d.shape + (n_instances,)`` (see :func:`repeat_seeds` for the partitions), and for
    a holdout design the McNemar counts' raw material ``{"correct": (n_repeats, L, n)
    bool, "masks": (n_repeats, n) bool}`` (else None): ``(acc, masks, holdout)``. With
    ``instances`` (a cv or nested design) that third item is each fit's per-instance
    correctness instead, ``{"instances": (n_repeats, L, *d.shape, n) bool, "masks":
    (n_repeats, *d.shape, n) bool}`` (False off each split's test set); the
    accuracies are the same either way.

    ``progress`` True shows a bar (terminal or notebook) once the fits take more than a
    few seconds, with one estimate of the time left measured after the first blocks
    (so numba's compiling and the workers' start are not extrapolated); False: silent.
    """
    from .runner import check_n_workers
    check_n_workers(n_jobs, scheduler)
    if metric is not None and metric.name == "accuracy":
        metric = None                       # accuracy keeps its kernels
    if d.task == "regression":
        Xa, codes = prepare_regression(X, y)
        n_values, n_classes, nominal = None, 0, False
    else:
        Xa, codes, n_values, n_classes, nominal = prepare_data(X, y)
    check_sample_sizes(codes, d)
    from ._safe_spec import check_fit_budget
    n_train = len(codes) - len(codes) // max(d.n_folds, 2) if d.kind == "cv" else len(codes)
    for lrn in learners:
        if not lrn.is_builtin:
            check_fit_budget(lrn.make(), n_train, Xa.shape[1],
                             lrn.identity() if hasattr(lrn, "identity") else lrn.label,
                             lrn.label, n_fits=n_repeats * int(np.prod(d.shape)))
    from .._validation import check_memory_estimate
    n, n_splits = len(codes), int(np.prod(d.shape))
    instances = instances and d.kind != "holdout"
    check_memory_estimate(         # fold assignments and test masks of every repeat
        [(n_repeats * (8.0 * d.n_runs * n + n_splits * n), "design", d.name, 1),
         (8.0 * n_repeats * len(learners) * n_splits, "n_repeats", n_repeats, 1)]
        + ([(1.0 * n_repeats * len(learners) * n_splits * n, "instances", "per-instance "
             "correctness", 1)] if instances else [])
        + ([(8.0 * n_repeats * (1 + d.n_runs) * n * max(1, Xa.shape[1]), "design", d.name,
             1)] if d.kind == "bootstrap" else []),     # each bootstrap sample's rows
        what=f"the comparison on {n:,} instances")
    fast = nominal and (metric is None or metric.response in ("proba", "score")) and all(
        lrn.fast_path(True) for lrn in learners)
    from ..datasets import Dataset
    if isinstance(X, Dataset) and not any(lrn.is_builtin for lrn in learners):
        Xa = X.to_frame()          # names and kinds, for pipelines that select columns
    seeds = repeat_seeds(random_state, n_repeats)
    runs_per_block = d.n_runs if fast else 1
    # a scikit-learn splitter gets the class codes: its stratification (by order of first
    # appearance) splits them exactly as it splits the labels
    blocks, masks = blocks_for(Xa, codes, tuple(learners), d, seeds, n_values=n_values,
                               n_classes=n_classes, fast=fast,
                               runs_per_block=runs_per_block, groups=groups,
                               instances=instances, metric=metric)
    if metric is not None:
        from ..metrics import check_test_classes
        for rep_masks in masks:
            check_test_classes(metric, codes, rep_masks, n_classes, d.name)
    out = np.empty((n_repeats, len(learners)) + d.shape)
    correct = np.zeros((n_repeats, len(learners), n), bool) if d.kind == "holdout" else None
    each = (np.zeros((n_repeats, len(learners)) + d.shape + (n,),
                     bool if metric is None else np.float64) if instances else None)

    def keep(block, res):
        rep, start = (int(v) for v in block.key.split("-")[1:])
        if block.correctness and instances:
            res, corr = res
            each[rep, :, start:start + corr.shape[1]] = corr
        elif block.correctness:
            res, corr = res
            correct[rep] = corr[:, 0]
        out[rep, :, start:start + res.shape[1]] = res

    run_blocks(blocks, keep, what=what, progress=progress, n_jobs=n_jobs,
               scheduler=scheduler)
    if not return_masks:
        return out
    holdout = None if correct is None else {
        "correct": correct, "masks": np.stack([m.reshape(-1, n)[0] for m in masks])}
    if instances:
        holdout = {"instances": each, "masks": np.stack(masks)}
    return out, masks[0], holdout


def run_blocks(blocks, on_result, *, what, progress, n_jobs=None, scheduler=None,
               resumable=False, client=None) -> None:
    """Score ``blocks`` (:func:`score_block`) here, on local workers or on a Dask cluster,
    with one progress bar: the one loop of :func:`score_design` and :func:`calibsim.plan`.

    ``on_result(block, result)`` receives each block's result as it arrives (in any
    order); ``n_jobs`` None with no ``scheduler`` scores in this process;
    ``resumable`` as :func:`calibsim.engine.runner.map_blocks`; an open ``client`` (a
    pool or cluster of :func:`calibsim.engine.runner.cluster`) is used as it is.
    """
    import contextlib

    from .runner import Progress, cluster, map_blocks
    workers = 0 if (n_jobs is None and scheduler is None) else n_jobs
    pool = (contextlib.nullcontext(client) if client is not None else
            cluster(scheduler=scheduler, n_workers=workers))
    with Progress(bool(progress), what, unit="block", delay=3.0, estimate=True,
                  notebook=True) as bar, pool as client:
        bar.start(len(blocks), workers=_n_workers(client, workers))

        def keep(block, res):
            on_result(block, res)
            bar.advance(1)
        map_blocks(score_block, blocks, client=client, on_result=keep, resumable=resumable)


def _n_workers(client, workers) -> int:
    """Blocks that run at once: 1 here, else the pool's or the cluster's workers."""
    if client is None:
        return 1
    n = getattr(client, "n_workers", None)
    if n is None:
        try:
            n = len(client.scheduler_info().get("workers", {}))
        except Exception:                  # noqa: BLE001 - only for the estimate
            n = workers or 1
    return max(1, int(n))


def holdout_counts(holdout, i: int, j: int) -> np.ndarray:
    """McNemar's counts n00, n01, n10, n11 of learners i (A) and j (B) on each repeat's
    holdout split, shape (n_repeats, 4) (Dietterich 1998: n01 = A wrong, B right)."""
    a, b, m = holdout["correct"][:, i], holdout["correct"][:, j], holdout["masks"]
    n11 = (a & b).sum(-1)
    n01 = (~a & b & m).sum(-1)
    n10 = (a & ~b & m).sum(-1)
    return np.stack([m.sum(-1) - n11 - n01 - n10, n01, n10, n11], axis=-1)


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
