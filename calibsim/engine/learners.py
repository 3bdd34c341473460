"""Learners of a study: calibsim's five (Weka 3.6 equivalents) or any scikit-learn estimator.

A study's ``[learners]`` become :class:`LearnerSpec`. The cell function scores them
on a data set's splits by one of two paths, both returning the same arrays:

- :func:`score_fast`: calibsim's learners with their default options (C4.5 may set
  ``confidence`` and ``min_obj``) on integer nominal codes, all splits inside one
  numba call (:func:`calibsim.evaluate.score_splits`);
- :func:`score_general`: anything else (numeric attributes, missing values,
  scikit-learn estimators, other parameters): a fresh estimator fitted per split
  through the scikit-learn protocol. It is slower — measured on the 2-core machine,
  C4.5 on 300 x 10 binary null data: about 0.5 ms per fit on the general path
  against about 0.03 ms per fit inside the fast path. Naive Bayes and C4.5 alone
  on numeric attributes or missing values skip the estimators: all splits run in
  one numba call (:func:`calibsim.evaluate.score_splits` on float data), with the
  estimators' models bit for bit.

For scikit-learn estimators nominal attributes are passed as their float codes
(ordinal numbers) and missing values as NaN: an estimator that cannot take NaN
needs a data set without missing values (or a pipeline of its own).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import time
from dataclasses import dataclass

import numpy as np


__all__ = ["LearnerSpec", "BUILTIN_LEARNERS", "DAMAGED_LEARNERS", "score_fast",
           "score_general"]

#: Built-in learners: name -> (class path, Weka 3.6 equivalent).
BUILTIN_LEARNERS = {
    "naive_bayes": ("calibsim.learners.NaiveBayes", "NaiveBayes"),
    "c45": ("calibsim.learners.C45", "J48"),
    "ib1": ("calibsim.learners.IB1", "IB1"),
    "tan": ("calibsim.learners.TAN", "BayesNet with TAN search"),
    "voted_perceptron": ("calibsim.learners.VotedPerceptron", "VotedPerceptron"),
}
_FAST_PARAMS = {"c45": {"confidence": "c45_confidence", "min_obj": "c45_min_obj"}}

#: Learners damaged on purpose (Dietterich 1998, section 5; :mod:`calibsim.learners._damaged`):
#: name -> class path. They take the same ``fit(X, y, n_values=, classes=)`` as the
#: built-ins, run on the general path only, and their parameters are literals
#: (attribute indices, a calibrated curve of (training-set size, damage) pairs).
DAMAGED_LEARNERS = {
    "damaged_nn": "calibsim.learners._damaged.DamagedNN",
    "random_errors": "calibsim.learners._damaged.RandomErrors",
}


def _import(path: str):
    """The estimator class a study's ``estimator``/``pipeline`` names, never anything else
    (:func:`calibsim.engine._safe_spec.resolve_class`)."""
    from ._safe_spec import resolve_class
    if not isinstance(path, str):
        raise ValueError(f"`estimator` must be an import path 'module.Class'; got {path!r}.")
    return resolve_class(path)


#: Seconds one fit (and its prediction) may take before it is stopped, unless the
#: environment variable ``CALIBSIM_FIT_SECONDS`` says otherwise.
FIT_SECONDS = 3600.0


class FitTimeout(TimeoutError):
    """One fit passed its time budget (:data:`FIT_SECONDS`, ``CALIBSIM_FIT_SECONDS``)."""


def fit_seconds() -> float:
    """The time budget of one fit: ``CALIBSIM_FIT_SECONDS`` or :data:`FIT_SECONDS`.

    Raises
    ------
    ValueError
        If the environment variable is set but is not a positive number of seconds.
    """
    import math
    env = os.environ.get("CALIBSIM_FIT_SECONDS")
    if not env:
        return FIT_SECONDS
    try:
        value = float(env)
    except ValueError:
        value = float("nan")
    if not value > 0 or not math.isfinite(value):
        raise ValueError("the environment variable CALIBSIM_FIT_SECONDS must be a positive "
                         f"number of seconds; got {env!r}.")
    return value


#: Warnings of the learners' fits in this worker process, as (category, learner label,
#: message) -- filled only in a local worker (:func:`collect_warnings`), where they would
#: otherwise print raw on the worker's stderr; the main process repeats them.
WORKER_WARNINGS: list | None = None


def collect_warnings() -> None:
    """Keep the learners' warnings of this process in :data:`WORKER_WARNINGS` (a local
    worker calls it once, from its initializer)."""
    global WORKER_WARNINGS
    WORKER_WARNINGS = []


@contextlib.contextmanager
def _learner_warnings(label: str):
    """In a worker that collects them, record the fit's warnings under ``label``."""
    if WORKER_WARNINGS is None:
        yield
        return
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for mod in ("numba", "distributed"):
            warnings.filterwarnings("ignore", module=mod)
        yield
    for w in caught:
        WORKER_WARNINGS.append((w.category, label, str(w.message)))


@contextlib.contextmanager
def _fit_budget():
    """Raise :class:`FitTimeout` in the fit when it passes :func:`fit_seconds`.

    A real-time timer (SIGALRM) in the main thread of this process, as in a local
    worker or with ``--workers 0``; elsewhere (a Dask worker thread), or when a timer
    is already running (the caller's own), nothing is timed. Python code is stopped
    at its next bytecode; a fit inside one long C call ends that call first.
    """
    import signal
    import threading
    seconds = fit_seconds()
    if (threading.current_thread() is not threading.main_thread()
            or not hasattr(signal, "setitimer")
            or signal.getitimer(signal.ITIMER_REAL)[0] > 0):
        yield
        return

    def stop(signum, frame):
        raise FitTimeout(f"one fit took more than {seconds:g} s, the time budget of a fit")
    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


class LearnerFailed(ValueError):
    """A learner could not be fitted or could not predict; names the learner and why.

    ``learner`` is its label, ``reason`` the estimator's own exception. Text columns
    and missing values get a suggestion of a pipeline that encodes and imputes.
    """

    def __init__(self, learner: str, reason: BaseException, dataset: str | None = None):
        self.learner, self.reason, self.dataset = learner, reason, dataset
        text = str(reason).splitlines()[0] if str(reason) else type(reason).__name__
        hint = ""
        low = text.lower()
        if "nan" in low or "missing" in low or "could not convert string" in low:
            hint = (" The data has missing values or text columns this learner cannot take: "
                    "give it a pipeline that imputes and encodes, e.g. \"make_pipeline("
                    "make_column_transformer((SimpleImputer(), make_column_selector("
                    "dtype_include='number')), (OneHotEncoder(handle_unknown='ignore'), "
                    "make_column_selector(dtype_exclude='number'))), LogisticRegression())\".")
        if isinstance(reason, FitTimeout):
            hint = (" Give the learner smaller parameters, or raise the budget with "
                    "CALIBSIM_FIT_SECONDS=N (seconds) in the environment. In a study the "
                    "blocks finished are saved: the same `calibsim run` resumes from them.")
        if isinstance(reason, MemoryError):
            from .._validation import memory_limit, size_text
            hint = (f" A fit may add at most {size_text(memory_limit())} to a process "
                    "(CALIBSIM_MEMORY_LIMIT in bytes raises it); give the learner smaller "
                    "parameters. In a study the blocks finished are saved: the same "
                    "`calibsim run` resumes from them.")
        where = f" on data set {dataset!r}" if dataset else ""
        super().__init__(f"learner {learner!r} failed{where}: {type(reason).__name__}: "
                         f"{text.rstrip('.')}.{hint}")

    def __reduce__(self):             # picklable across Dask workers
        return (LearnerFailed, (self.learner, self.reason, self.dataset))


def _reraise_interrupt(exc: BaseException) -> None:
    """Ctrl-C inside a numba kernel surfaces as a SystemError ("returned a result with an
    exception set") whose context is the KeyboardInterrupt: raise that, not a learner
    failure."""
    seen = exc
    while seen is not None:
        if isinstance(seen, KeyboardInterrupt):
            raise KeyboardInterrupt from None
        seen = seen.__context__ or seen.__cause__
        if seen is exc:
            break


@dataclass(frozen=True)
class LearnerSpec:
    """One learner of a study.

    Attributes
    ----------
    label : str
        The name the study uses (in pairs and tables).
    kind : str
        A key of :data:`BUILTIN_LEARNERS`, or ``"estimator"``.
    estimator : str or None
        Import path of a scikit-learn-compatible classifier (``kind = "estimator"``).
    params : tuple of (str, object)
        Sorted constructor parameters.
    pipeline : tuple of str
        Import paths of transformers applied first (e.g.
        ``"sklearn.preprocessing.StandardScaler"``), with their default parameters;
        the learner is then ``sklearn.pipeline.make_pipeline(*pipeline, estimator)``.
    grid : tuple of tuple of (str, object)
        A tuned learner's parameter settings, in the order tried, each sorted
        ``(name, value)`` pairs added to ``params`` (empty when untuned).
    tuning : str
        The tuning protocol (:data:`calibsim.engine._tuned_spec.PROTOCOLS`), or ``""``.
    tuning_params : tuple of (str, object)
        The protocol's sorted parameters (e.g. ``inner_folds``).
    group : str
        The ``[learners.<group>]`` table a tuned learner was expanded from.
    """

    label: str
    kind: str
    estimator: str | None = None
    params: tuple = ()
    pipeline: tuple = ()
    grid: tuple = ()
    tuning: str = ""
    tuning_params: tuple = ()
    group: str = ""

    def identity(self) -> str:
        """Stable text naming the learner and its parameters (part of the store's key).

        A tuned learner appends its protocol, the protocol's parameters and its
        settings; an untuned learner's text is unchanged by the tuning fields.
        """
        name = self.estimator if self.kind == "estimator" else self.kind
        steps = "".join(f"{p}() | " for p in self.pipeline)
        text = f"{steps}{name}({', '.join(f'{k}={v!r}' for k, v in self.params)})"
        if not self.tuning:
            return text
        from ._tuned_spec import tuned_identity
        return text + tuned_identity(self)

    def settings(self) -> tuple:
        """The untuned learners of a tuned learner's grid, in order (``(self,)`` if untuned)."""
        if not self.tuning:
            return (self,)
        return tuple(LearnerSpec(f"{self.label}#{i}", self.kind, self.estimator,
                                 tuple(sorted({**dict(self.params), **dict(s)}.items())),
                                 self.pipeline) for i, s in enumerate(self.grid))

    @property
    def is_builtin(self) -> bool:
        return self.kind in BUILTIN_LEARNERS

    @property
    def takes_declared(self) -> bool:
        """True when ``fit`` takes ``n_values`` and ``classes`` (built-in or damaged)."""
        return (self.is_builtin or self.kind in DAMAGED_LEARNERS) and not self.pipeline

    def make(self):
        """A fresh estimator with the parameters.

        Raises
        ------
        ValueError
            If the class cannot be imported or does not take the parameters.
        """
        if self.kind in DAMAGED_LEARNERS:      # calibsim's own classes, literal parameters
            from ..learners import _damaged
            cls = getattr(_damaged, DAMAGED_LEARNERS[self.kind].rpartition(".")[2])
        elif self.is_builtin:
            # calibsim's own classes, taken directly: the allow-list of user specs is built
            # from all of scikit-learn (all_estimators imports every module, torch too
            # where it is installed), which a study of built-in learners never needs
            from .. import learners
            cls = getattr(learners, BUILTIN_LEARNERS[self.kind][0].rpartition(".")[2])
        else:
            cls = _import(self.estimator)
        try:
            est = cls(**dict(self.params))
        except TypeError as exc:
            raise ValueError(f"learner {self.label!r} does not take parameters "
                             f"{dict(self.params)} ({exc}).") from None
        if not self.pipeline:
            return est
        from sklearn.pipeline import make_pipeline
        return make_pipeline(*(_import(p)() for p in self.pipeline), est)

    def fast_path(self, nominal_codes: bool = True) -> bool:
        """True when the numba evaluation kernel can run this learner."""
        allowed = _FAST_PARAMS.get(self.kind, {})
        return (nominal_codes and self.is_builtin and not self.pipeline
                and self.kind in BUILTIN_LEARNERS
                and all(k in allowed for k, _ in self.params)
                and all(k in allowed for s in self.grid for k, _ in s))


def _fast_kwargs(learners):
    kw = {}
    for lrn in learners:
        for k, v in lrn.params:
            kw[_FAST_PARAMS[lrn.kind][k]] = v
    return kw


def score_fast(X, y, masks, learners, *, n_values, n_classes, return_correctness=False,
               costs=False, return_proba=False) -> dict:
    """Score built-in learners on integer codes inside the numba kernel.

    Parameters
    ----------
    X : ndarray of shape (n, a), int
    y : ndarray of shape (n,), int
    masks : ndarray of bool, shape (*split, n)
        Test-set masks.
    learners : sequence of LearnerSpec
        Each with ``fast_path()`` True; C4.5 learners with different options are scored in
        one kernel call per option set (issue 34: one call used to give them all the last
        learner's options).
    n_values, n_classes
        Attribute arities and class count.
    return_correctness : bool, default False
        Also return per-instance correctness (L, *split, n).
    return_proba : bool, default False
        Also return every test instance's class probabilities ``proba``
        (L, *split, n, n_classes) float64, NaN in training rows
        (:func:`calibsim.evaluate.score_splits`).
    costs : bool, default False
        Time each learner in its own kernel call (``fit_time`` holds fit + predict
        seconds per split, shared evenly over the splits; ``predict_time`` is 0).
        Without costs, one call scores every learner and both times are NaN.

    Returns
    -------
    dict
        ``correct`` (L, *split), ``n_test`` (*split), ``model_size`` (L, *split),
        ``fit_time`` and ``predict_time`` (L, *split) seconds, ``correctness`` and
        ``proba`` (when asked for).
    """
    from ..evaluate import score_splits
    groups = {}                   # learners with different C4.5 options: one call per option set
    for i, lrn in enumerate(learners):
        groups.setdefault(tuple(sorted(_fast_kwargs([lrn]).items())), []).append(i)
    if len(groups) > 1:
        parts = {i: score_fast(X, y, masks, [learners[j] for j in idx], n_values=n_values,
                               n_classes=n_classes, return_correctness=return_correctness,
                               costs=costs, return_proba=return_proba)
                 for i, idx in enumerate(groups.values())}
        order = np.argsort(np.concatenate(list(groups.values())), kind="stable")
        out = {k: np.concatenate([parts[i][k] for i in parts])[order]
               for k in parts[0] if k != "n_test"}
        out["n_test"] = parts[0]["n_test"]
        return out
    kw = dict(n_values=n_values, n_classes=n_classes, return_correctness=return_correctness,
              return_proba=return_proba, **_fast_kwargs(learners))
    names = tuple(lrn.kind for lrn in learners)
    split = masks.shape[:-1]
    if not costs:
        res = score_splits(X, y, masks, learners=names, **kw)
        nan = np.full((len(names),) + split, np.nan)
        out = {"correct": res.correct, "n_test": res.n_test, "model_size": res.model_size,
               "fit_time": nan, "predict_time": nan.copy()}
        if return_correctness:
            out["correctness"] = res.correctness
        if return_proba:
            out["proba"] = res.proba
        return out
    parts, times = [], []
    for name in names:
        t0 = time.perf_counter()
        parts.append(score_splits(X, y, masks, learners=(name,), **kw))
        times.append(time.perf_counter() - t0)
    per_split = np.array(times)[:, None] / max(1, int(np.prod(split)))
    out = {"correct": np.concatenate([p.correct for p in parts]), "n_test": parts[0].n_test,
           "model_size": np.concatenate([p.model_size for p in parts]),
           "fit_time": np.broadcast_to(per_split.reshape((-1,) + (1,) * len(split)),
                                       (len(names),) + split).copy(),
           "predict_time": np.zeros((len(names),) + split)}
    if return_correctness:
        out["correctness"] = np.concatenate([p.correctness for p in parts])
    if return_proba:
        out["proba"] = np.concatenate([p.proba for p in parts])
    return out


def _model_size(est) -> int:
    est = est[-1] if hasattr(est, "steps") else est
    if hasattr(est, "tree_size_"):
        return int(est.tree_size_[0])
    if hasattr(est, "n_perceptrons_"):
        return int(est.n_perceptrons_)
    if hasattr(est, "tree_"):
        return int(est.tree_.node_count)
    if hasattr(est, "coef_"):
        # a coefficient that is zero by construction (a constant column) comes out of the
        # dual's sum as 0 or as 1e-17 depending on the summation order (BLAS threads):
        # count those above round-off, so the size does not depend on the machine
        coef = np.abs(np.asarray(est.coef_.toarray() if hasattr(est.coef_, "toarray")
                                 else est.coef_, dtype=float))
        top = float(coef.max()) if coef.size else 0.0
        size = int(np.count_nonzero(coef > 1e-10 * top)) if top > 0 else 0
        return size + int(np.size(getattr(est, "intercept_", 0)))
    return -1


def _general_kernel_runs(X, learners, n_values) -> bool:
    """True when naive Bayes and C4.5 (default options, or C4.5's ``confidence`` and
    ``min_obj``) are all the learners and the data have a numeric attribute or a missing
    value: then :func:`calibsim.evaluate.score_splits` fits them on every split inside one
    numba call, each model bit for bit the estimator's (the C4.5 fits share one sort of the
    numeric attributes), without an estimator per split."""
    from ..evaluate._score import _GENERAL_LEARNERS
    return (np.issubdtype(X.dtype, np.floating) and X.ndim == 2 and len(learners) > 0
            and all(lrn.fast_path(True) and lrn.kind in _GENERAL_LEARNERS for lrn in learners)
            and (bool((np.asarray(n_values) == 0).any()) or bool(np.isnan(X).any())))


def score_general(X, y, masks, learners, *, n_values, n_classes, return_correctness=False,
                  costs=True, rng=None) -> dict:
    """Score any learners by fitting a fresh estimator on every split (slower, general).

    Parameters and returns as :func:`score_fast`; ``fit_time`` and ``predict_time``
    are measured per learner and split (seconds). A pandas DataFrame ``X`` reaches
    the estimators as DataFrames (rows taken with ``.iloc``), so column selection
    by name or dtype works in pipelines. Built-in learners receive
    ``n_values`` (which attributes are nominal); ``model_size`` is the C4.5 tree's
    nodes, the voted perceptron's perceptrons, a scikit-learn tree's node count, the
    non-zero coefficients plus intercepts of a linear model, else -1.

    The damaged nearest neighbours of a split (Dietterich 1998, §5: one per damage
    level) predict together in one pass over the training instances
    (:func:`calibsim.learners._damaged.predict_together`, equal to predicting one by
    one); their ``predict_time`` is that pass's time shared evenly.

    ``rng`` (a SeedSequence) seeds the damaged learners (:data:`DAMAGED_LEARNERS`)
    with a ``random_state`` their parameters leave unset (:class:`RandomErrors`): split
    s, learner i gets child ``(s, i)`` of ``rng``. Other estimators are left as the
    study declares them.
    """
    from ..learners._damaged import DamagedNN, RandomErrors, predict_together  # numba: here
    fit_seconds()                  # a bad CALIBSIM_FIT_SECONDS is refused on every route
    frame = hasattr(X, "iloc")     # a pandas DataFrame stays one: names and dtypes kept
    X = X if frame else np.asarray(X)
    y = np.asarray(y)
    if not frame and _general_kernel_runs(X, learners, n_values):
        out = score_fast(X, y, masks, learners, n_values=n_values, n_classes=n_classes,
                         return_correctness=return_correctness, costs=True)
        for i, lrn in enumerate(learners):      # as _model_size of a fitted NaiveBayes
            if lrn.kind == "naive_bayes":
                out["model_size"][i] = -1
        return out
    split = masks.shape[:-1]
    flat = masks.reshape(-1, masks.shape[-1])
    L, S = len(learners), flat.shape[0]
    correct = np.empty((L, S), np.int64)
    size = np.empty((L, S), np.int64)
    fit_t = np.empty((L, S))
    pred_t = np.empty((L, S))
    corr = np.zeros((L, S, len(y)), bool) if return_correctness else None
    n_test = flat.sum(axis=1)

    def _record(i, s, hit, est):
        correct[i, s] = int(hit.sum())
        size[i, s] = _model_size(est)
        if corr is not None:
            corr[i, s, flat[s]] = hit

    for s in range(S):
        te = flat[s]
        bases = {}          # damaged learners' shared base fits on this split
        if frame:
            Xtr, Xte = X.iloc[np.flatnonzero(~te)], X.iloc[np.flatnonzero(te)]
        else:
            Xtr, Xte = X[~te], X[te]
        ytr, yte = y[~te], y[te]
        nn = {}             # damaged nearest neighbours, fitted: they predict together
        for i, lrn in enumerate(learners):
            est = lrn.make()
            if rng is not None and getattr(lrn, "kind", None) in DAMAGED_LEARNERS \
                    and "random_state" in est.get_params() \
                    and "random_state" not in dict(lrn.params):
                est.set_params(random_state=np.random.SeedSequence(
                    rng.entropy, spawn_key=tuple(rng.spawn_key) + (s, i)))
            t0 = time.perf_counter()
            try:
                with _fit_budget(), _learner_warnings(lrn.label):
                    shared = isinstance(est, RandomErrors) and est.base == "c45"
                    if shared and "c45" in bases:
                        est._fit_base(bases[est.base], len(ytr))     # the same base model
                    elif getattr(lrn, "takes_declared", lrn.is_builtin and not lrn.pipeline):
                        # declared classes, as Weka's header
                        est.fit(Xtr, ytr, n_values=n_values, classes=np.arange(n_classes))
                        if shared:
                            bases["c45"] = est.estimator_
                    else:
                        est.fit(Xtr, ytr)
                    t1 = time.perf_counter()
                    if isinstance(est, DamagedNN):
                        nn[i], fit_t[i, s] = est, t1 - t0
                        continue
                    hit = np.asarray(est.predict(Xte)) == yte
            except Warning:                # a warning turned error by the caller's filter
                raise
            except Exception as exc:       # any estimator's failure, said with its name
                _reraise_interrupt(exc)
                raise LearnerFailed(lrn.label, exc) from exc
            fit_t[i, s], pred_t[i, s] = t1 - t0, time.perf_counter() - t1
            _record(i, s, hit, est)
        if nn:
            t1 = time.perf_counter()
            try:
                preds = predict_together(list(nn.values()), Xte)
            except Exception as exc:
                _reraise_interrupt(exc)
                raise LearnerFailed(", ".join(learners[i].label for i in nn), exc) from exc
            share = (time.perf_counter() - t1) / len(nn)
            for (i, est), pred in zip(nn.items(), preds):
                pred_t[i, s] = share
                _record(i, s, np.asarray(pred) == yte, est)
    out = {"correct": correct.reshape((L,) + split), "n_test": n_test.reshape(split),
           "model_size": size.reshape((L,) + split), "fit_time": fit_t.reshape((L,) + split),
           "predict_time": pred_t.reshape((L,) + split)}
    if corr is not None:
        out["correctness"] = corr.reshape((L,) + split + (len(y),))
    return out
