"""Learner specs that never execute and touch no file: a name resolves only to an estimator class.

A learner named in a CLI flag, a study file or a string given to
:func:`calibsim.compare` is read with :mod:`ast`, never evaluated, and checked in
four steps before anything is fitted:

1. **Form.** Arguments are literals (numbers, strings, booleans, None, and lists,
   tuples and dicts of them) or, recursively, estimator constructions, nested at
   most :data:`MAX_DEPTH` deep, so a pipeline can be written out::

       sklearn.pipeline.make_pipeline(sklearn.impute.SimpleImputer(strategy="median"),
                                      sklearn.linear_model.LogisticRegression(max_iter=1000))

   Anything else (``subprocess.run``, ``os.system``, ``builtins.print``, lambdas,
   attribute access on values, ``**kwargs``) is refused.
2. **Names.** A dotted name must be in the allow-list (:func:`allowed`): the
   classifiers and transformers scikit-learn declares
   (``sklearn.utils.all_estimators(type_filter=["classifier", "transformer"])``),
   calibsim's own learners and transformers, ``Pipeline`` and the pipeline factories
   in :data:`FACTORIES`, each under a public module that exports it. The list is
   built from scikit-learn's own catalogue, so a module a spec names is never
   imported because the spec names it (``sklearn.conftest`` would import pytest).
3. **Files.** A parameter that names a file, folder or cache is refused
   (:data:`FILE_PARAMETERS`: ``memory=`` of ``Pipeline`` and ``make_pipeline``, whose
   joblib cache writes and later loads pickles; ``input='filename'`` or ``'file'``
   of the text vectorizers, which read the files the data names).
4. **Work.** Size-like parameters are capped (:data:`SIZE_CAPS`, ``n_jobs`` at the
   machine's cores, ``cache_size`` through calibsim's memory estimate) and the
   trees or models an ensemble of ensembles fits are at most :data:`MAX_FITS`; the
   estimator built must be a classifier (a pipeline's last step).

Each refusal is one line naming the spec, the parameter or name and the rule.
"""

from __future__ import annotations

import ast
import difflib
import functools
import os
import sys
import warnings

__all__ = ["ROOTS", "FACTORIES", "FILE_PARAMETERS", "MAX_DEPTH", "MAX_FITS", "SIZE_CAPS",
           "MAX_WEIGHTS", "MAX_WORK", "MIN_TOL", "allowed", "build_estimator",
           "check_estimator", "check_fit_budget", "check_params", "parse_spec",
           "resolve_class"]

#: Top-level packages whose declared classifiers and transformers a spec may name.
ROOTS = ("sklearn", "calibsim")
ALLOWED_ROOTS = ROOTS          # the earlier name

#: Functions and helper classes (not estimators) a spec may call to build pipelines.
FACTORIES = frozenset({
    "sklearn.pipeline.make_pipeline", "sklearn.pipeline.make_union",
    "sklearn.compose.make_column_transformer", "sklearn.compose.make_column_selector",
})

#: Containers that are neither classifiers nor transformers by declaration.
_CONTAINERS = ("sklearn.pipeline.Pipeline",)

#: Deepest nesting of calls, lists, tuples and dicts a spec may have (a pipeline of a
#: column transformer of pipelines is 5 deep; scikit-learn's tags of nested pipelines
#: cost about 3**depth calls, so 100 deep would never finish).
MAX_DEPTH = 8

#: Parameter names that name a file, folder or cache: refused unless None. scikit-learn's
#: classifiers and transformers have ``memory`` (``Pipeline``, ``make_pipeline``,
#: ``FeatureAgglomeration``: a joblib cache of pickles); the others guard the future.
FILE_PARAMETERS = frozenset({"memory", "cachedir", "cache_dir", "location", "path",
                             "filename", "file", "directory", "folder", "output_dir",
                             "log_dir", "checkpoint_dir"})

#: Parameter -> values refused because they make the estimator read files.
FILE_VALUES = {"input": ("filename", "file")}

#: Most a size-like parameter may ask for (integers; a sequence's every element).
SIZE_CAPS = {
    "n_estimators": 10_000, "max_iter": 100_000, "n_iter": 100_000, "max_fun": 1_000_000,
    "max_iter_predict": 100_000, "transform_max_iter": 100_000, "n_iterations": 10_000,
    "max_k": 1_000_000, "hidden_layer_sizes": 10_000, "n_components": 100_000,
    "n_clusters": 100_000, "n_bins": 100_000, "n_neighbors": 100_000,
    "n_quantiles": 1_000_000, "n_init": 1_000, "n_restarts_optimizer": 1_000, "cv": 1_000,
    "Cs": 1_000, "thresholds": 100_000, "degree": 10, "batch_size": 1_000_000,
    "n_features": 2**31 - 1, "k": 1_000_000, "k_best": 1_000_000, "n_knots": 10_000,
}

#: Most trees or models one fit of a spec may train: the product of ``n_estimators``
#: down a nesting of ensembles (defaults included).
MAX_FITS = 100_000


#: Most connection weights between an MLP's hidden layers (sum of products of adjacent
#: widths; ``[10000] * 5`` asks for 400 million, ``[3000] * 100`` for 891 million).
MAX_WEIGHTS = 20_000_000

#: Most work one fit may ask for, in models x instances x attributes (ensembles
#: multiplied down, gradient-boosting iterations counted as models): 10,000 trees on
#: 435 instances of 16 attributes are 7e7; a forest of 10,000 trees on 20,000 x 16, 3e9.
MAX_WORK = 2_000_000_000

#: Most models one comparison may train, over all its fits (r x k fits of a learner whose
#: ensembles multiply to m models each count r x k x m): 10x10 cv of a forest of 5,000
#: trees. Raised with the environment variable ``CALIBSIM_MAX_MODELS``.
MAX_MODELS = 500_000

#: Smallest stopping tolerance ``tol`` accepted: below it float64 cannot meet the
#: criterion and the solver runs to its iteration limit (SVC: none).
MIN_TOL = 1e-12


def _refuse(spec: str, rule: str) -> ValueError:
    return ValueError(f"learner spec {_short(spec)!r} refused: {rule}. A learner is a built-in "
                      "name or a scikit-learn classifier with literal keyword arguments, "
                      "e.g. 'sklearn.svm.SVC(C=1.0)'; nothing was run.")


def _short(spec) -> str:
    spec = str(spec)
    return spec if len(spec) <= 200 else spec[:120] + " ... " + spec[-40:]


def _kind(cls) -> str:
    """What scikit-learn declares a class to be, in words."""
    from sklearn.base import (ClassifierMixin, ClusterMixin, OutlierMixin, RegressorMixin,
                              TransformerMixin)
    for mixin, word in ((ClassifierMixin, "classifier"), (RegressorMixin, "regressor"),
                        (ClusterMixin, "clusterer"), (OutlierMixin, "outlier detector"),
                        (TransformerMixin, "transformer")):
        if isinstance(cls, type) and issubclass(cls, mixin):
            return word
    return "estimator that is neither a classifier nor a transformer"


def _public_paths(cls, name):
    """Every ``module.name`` under a public, already imported module that exports ``cls``."""
    parts = cls.__module__.split(".")
    out = []
    for i in range(1, len(parts) + 1):
        if any(p.startswith("_") for p in parts[:i]):
            break
        mod = sys.modules.get(".".join(parts[:i]))
        if mod is not None and getattr(mod, name, None) is cls:
            out.append(f"{'.'.join(parts[:i])}.{name}")
    return out


@functools.lru_cache(maxsize=1)
def _catalog():
    """(allowed path -> object, other estimator path -> class, short name -> path)."""
    from sklearn.base import ClassifierMixin, TransformerMixin
    from sklearn.utils import all_estimators
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        everything = all_estimators()
    import importlib
    allowed_, other = {}, {}
    for name, cls in everything:
        paths = _public_paths(cls, name)
        target = allowed_ if issubclass(cls, (ClassifierMixin, TransformerMixin)) else other
        for p in paths:
            target[p] = cls
    for path in _CONTAINERS + tuple(sorted(FACTORIES)):
        module, _, name = path.rpartition(".")
        allowed_[path] = getattr(importlib.import_module(module), name)
    from .. import learners, preprocessing             # calibsim's own declared classes
    for mod in (learners, preprocessing):
        for name in mod.__all__:
            cls = getattr(mod, name)
            if isinstance(cls, type) and issubclass(cls, (ClassifierMixin, TransformerMixin)):
                allowed_[f"{mod.__name__}.{name}"] = cls
    by_name: dict = {}
    for path, obj in allowed_.items():
        by_name.setdefault(path.rpartition(".")[2], {}).setdefault(id(obj), []).append(path)
    short = {n: min(v.popitem()[1], key=len) for n, v in by_name.items() if len(v) == 1}
    return allowed_, other, short


def allowed() -> dict:
    """The allow-list: public dotted path -> class or factory a spec may name.

    Built once per process from ``sklearn.utils.all_estimators()`` (its classifiers and
    transformers), ``sklearn.pipeline.Pipeline``, :data:`FACTORIES` and the classes of
    :mod:`calibsim.learners` and :mod:`calibsim.preprocessing`.

    Examples
    --------
    >>> from calibsim.engine._safe_spec import allowed
    >>> "sklearn.svm.SVC" in allowed(), "sklearn.cluster.KMeans" in allowed()
    (True, True)
    >>> "sklearn.linear_model.LinearRegression" in allowed()
    False
    """
    return dict(_catalog()[0])


def resolve_class(path: str, spec: str | None = None):
    """The estimator class (or pipeline factory) a dotted name stands for.

    Nothing is imported: the name is looked up in the allow-list (:func:`allowed`).

    Parameters
    ----------
    path : str
        ``"module.Class"``, e.g. ``"sklearn.svm.SVC"``, or an unqualified class name
        such as ``"SVC"`` (when only one allowed class has it).
    spec : str, optional
        The whole spec, for the message.

    Returns
    -------
    type or callable

    Raises
    ------
    ValueError
        If the name is not public, its package is outside :data:`ROOTS`, or it is not
        a classifier, transformer or pipeline factory scikit-learn or calibsim declares
        (a regressor or clusterer is named as such).
    """
    spec = path if spec is None else spec
    if not isinstance(path, str) or not path:
        raise _refuse(spec, f"{path!r} is not a dotted class name")
    parts = path.split(".")
    if any(not p.isidentifier() or p.startswith("_") for p in parts):
        raise _refuse(spec, f"{path!r} is not a public dotted name")
    if len(parts) > 1 and parts[0] not in ROOTS:
        raise _refuse(spec, f"module {parts[0]!r} is not one of {list(ROOTS)}")
    allowed_, other, short = _catalog()
    if len(parts) == 1:
        if path in short:
            return allowed_[short[path]]
    elif path in allowed_:
        return allowed_[path]
    name = parts[-1]
    for p, cls in other.items():
        if p == path or (len(parts) == 1 and p.rpartition(".")[2] == name):
            raise _refuse(spec, f"{path!r} is a {_kind(cls)}, not a classifier (or a "
                                "transformer for a pipeline's earlier steps)")
    elsewhere = sorted(p for p in allowed_ if p.rpartition(".")[2] == name)
    if elsewhere:
        raise _refuse(spec, f"{path!r} is not where scikit-learn or calibsim exports "
                            f"{name} (did you mean {', '.join(elsewhere[:3])}?)")
    near = difflib.get_close_matches(name, list(short), n=3)
    hint = f" (did you mean {', '.join(near)}?)" if near else ""
    raise _refuse(spec, f"{path!r} is not a classifier or transformer that scikit-learn or "
                        f"calibsim declares{hint}")


def _dotted(node) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


_NESTS = (ast.Call, ast.List, ast.Tuple, ast.Dict, ast.Set)


def _check_depth(node, spec: str) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` (iteratively: no recursion limit)."""
    stack = [(node, 1 if isinstance(node, _NESTS) else 0)]
    while stack:
        n, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise _refuse(spec, f"it nests calls, lists, tuples or dicts more than {MAX_DEPTH} "
                                "deep")
        for child in ast.iter_child_nodes(n):
            stack.append((child, depth + isinstance(child, _NESTS)))


def _check(node, spec: str) -> None:
    """Refuse anything but literals and calls of dotted names, before importing."""
    if isinstance(node, ast.Call):
        if _dotted(node.func) is None:
            raise _refuse(spec, "only a dotted class name may be called")
        if any(k.arg is None for k in node.keywords):
            raise _refuse(spec, "'**' arguments are not allowed")
        if any(isinstance(a, ast.Starred) for a in node.args):
            raise _refuse(spec, "'*' arguments are not allowed")
        names = [k.arg for k in node.keywords]
        if len(set(names)) < len(names):
            dup = next(n for n in names if names.count(n) > 1)
            raise _refuse(spec, f"the keyword argument `{dup}` is given twice")
        for k in node.keywords:
            if isinstance(k.value, ast.Constant):
                _check_param(k.arg, k.value.value, spec)
        for child in [*node.args, *(k.value for k in node.keywords)]:
            _check(child, spec)
    elif isinstance(node, (ast.List, ast.Tuple)):
        for child in node.elts:
            _check(child, spec)
    elif isinstance(node, ast.Dict):
        for child in [*node.keys, *node.values]:
            if child is None:
                raise _refuse(spec, "'**' in a dict is not allowed")
            _check(child, spec)
    elif isinstance(node, ast.Constant) or (
            isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd))
            and isinstance(node.operand, ast.Constant)):
        value = node.value if isinstance(node, ast.Constant) else node.operand.value
        if not (value is None or isinstance(value, (bool, int, float, str))):
            raise _refuse(spec, f"{_short(ast.unparse(node))!r} is not a number, string, "
                                "boolean or None")
        if isinstance(node, ast.UnaryOp) and not isinstance(value, (int, float)):
            raise _refuse(spec, f"{_short(ast.unparse(node))!r} is not a number")
    else:
        raise _refuse(spec, f"{_short(ast.unparse(node))!r} is neither a literal nor an "
                            "estimator construction")


def _check_param(name: str, value, spec: str) -> None:
    """Refuse a parameter that names a file, folder or cache (see :data:`FILE_PARAMETERS`)."""
    if name in FILE_PARAMETERS and value is not None:
        raise _refuse(spec, f"`{name}` = {_short(repr(value))} names a file, folder or cache "
                            "(a spec never touches files; leave it out)")
    if name in FILE_VALUES and isinstance(value, str) and value in FILE_VALUES[name]:
        raise _refuse(spec, f"`{name}` = {value!r} makes the estimator read the files the "
                            f"data names (a spec never touches files; use `{name}`='content')")


def _build(node, spec: str):
    if isinstance(node, ast.Call):
        cls = resolve_class(_dotted(node.func), spec)
        args = [_build(a, spec) for a in node.args]
        kwargs = {k.arg: _build(k.value, spec) for k in node.keywords}
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FutureWarning)
                return cls(*args, **kwargs)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"learner spec {_short(spec)!r}: {_dotted(node.func)} does not "
                             f"take these arguments ({exc}).") from None
    if isinstance(node, ast.List):
        return [_build(e, spec) for e in node.elts]
    if isinstance(node, ast.Tuple):
        return tuple(_build(e, spec) for e in node.elts)
    if isinstance(node, ast.Dict):
        return {_build(k, spec): _build(v, spec) for k, v in zip(node.keys, node.values)}
    return ast.literal_eval(node)


def parse_spec(spec: str):
    """The spec's expression node, checked to hold only literals and dotted calls.

    Raises
    ------
    ValueError
        If the text is not one expression of that form, nests deeper than
        :data:`MAX_DEPTH` or gives a file, folder or cache parameter.
    """
    if not isinstance(spec, str):
        raise TypeError(f"a learner spec must be a string; got {type(spec).__name__}.")
    if len(spec) > 10_000:
        raise _refuse(spec, f"it is {len(spec)} characters long (at most 10000)")
    if "\x00" in spec:
        raise _refuse(spec.replace("\x00", "\\x00"), "it holds a NUL character")
    try:
        node = ast.parse(spec.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise _refuse(spec, f"it is not one Python-like expression ({type(exc).__name__})"
                      ) from None
    if isinstance(node, (ast.Name, ast.Attribute)):
        if _dotted(node) is None:
            raise _refuse(spec, "only a dotted class name may be given")
        return node
    _check_depth(node, spec)
    _check(node, spec)
    if not isinstance(node, ast.Call):
        raise _refuse(spec, "a learner is a class name or a call of one")
    return node


def check_params(params: dict, spec: str) -> None:
    """Refuse file, folder and cache parameters in a flat ``{name: value}`` (study files).

    Raises
    ------
    ValueError
        As :func:`parse_spec` for a parameter in :data:`FILE_PARAMETERS` or
        :data:`FILE_VALUES`.
    """
    for name, value in params.items():
        _check_param(name, value, spec)


def _children(value):
    """Estimators held by a parameter value (an estimator, or lists/tuples of them)."""
    if hasattr(value, "get_params") and not isinstance(value, type):
        yield value
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _children(v)


def _cap(name, value, spec, where):
    if name == "tol" and isinstance(value, float) and 0 < value < MIN_TOL:
        raise _refuse(spec, f"`tol` = {value!r} in {where} is below {MIN_TOL:g}: float64 "
                            "cannot meet it, so the solver would run to its iteration limit")
    cap = SIZE_CAPS.get(name)
    if cap is None:
        return
    values = value if isinstance(value, (list, tuple)) else [value]
    for v in values:
        if isinstance(v, int) and not isinstance(v, bool) and v > cap:
            raise _refuse(spec, f"`{name}` = {v:,} in {where} asks for more work than a "
                                f"comparison can do (at most {cap:,})")
    if name == "hidden_layer_sizes" and isinstance(value, (list, tuple)) and len(value) > 100:
        raise _refuse(spec, f"`hidden_layer_sizes` in {where} has {len(value)} layers "
                            "(at most 100)")
    if name == "hidden_layer_sizes" and any(
            isinstance(v, bool) or not isinstance(v, int) or v < 1
            for v in (value if isinstance(value, (list, tuple)) else [value])):
        raise _refuse(spec, f"`hidden_layer_sizes` = {_short(repr(value))} in {where} must "
                            "be positive integers (one width per hidden layer)")
    if name == "hidden_layer_sizes" and isinstance(value, (list, tuple)) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        weights = sum(a * b for a, b in zip(value[:-1], value[1:]))
        if weights > MAX_WEIGHTS:
            raise _refuse(spec, f"`hidden_layer_sizes` = {_short(list(value))} in {where} "
                                f"asks for {weights:,} weights between hidden layers, more "
                                f"than the budget of one fit ({MAX_WEIGHTS:,})")


def _numbers_only(cls, name) -> bool:
    """True when scikit-learn's declared constraints of ``cls``'s parameter ``name``
    admit numbers (and perhaps None or option strings) but no boolean: there ``True``
    would be read silently as 1 (``LogisticRegression(C=True)``)."""
    import numbers

    from sklearn.utils._param_validation import Interval, StrOptions
    cons = getattr(cls, "_parameter_constraints", {}).get(name)
    if not cons:
        return False
    numeric = False
    for c in cons:
        if isinstance(c, Interval) or c in (numbers.Integral, numbers.Real, int, float):
            numeric = True
        elif not (c is None or isinstance(c, StrOptions) or c == "nan"):
            return False                 # "boolean", "verbose", callable, dict, ...: maybe
    return numeric


#: Parameters of a classifier meta-estimator that hold the estimators it combines.
_CLASSIFIER_SLOTS = frozenset({"estimator", "estimators", "final_estimator", "base_estimator"})


def _is_pipeline(est) -> bool:
    return hasattr(est, "steps")


def _classifier(est) -> bool:
    from sklearn.base import is_classifier
    try:
        return bool(is_classifier(est))
    except Exception:                          # an estimator whose tags cannot be read
        return False


def check_estimator(est, spec: str, *, classifier: bool = True) -> None:
    """Refuse an estimator built from a spec that touches files or asks for unbounded work.

    Walks the estimator and every estimator among its parameters (defaults included):
    parameters in :data:`FILE_PARAMETERS` and :data:`FILE_VALUES`, a boolean given
    where scikit-learn declares a number (``C=True``), a value scikit-learn's declared
    constraints refuse (checked now, not at the first fit), size-like
    parameters above :data:`SIZE_CAPS`, ``n_jobs`` beyond this machine's cores,
    ``cache_size`` (MB) beyond calibsim's memory limit, ensembles whose
    ``n_estimators`` multiply to more than :data:`MAX_FITS`, and a classifier
    meta-estimator (voting, stacking, bagging, one-vs-rest, ...) combining anything but
    classifiers (a clusterer's cluster numbers would be read as classes).

    Parameters
    ----------
    est : estimator
        Built, not fitted.
    spec : str
        The spec, for the message.
    classifier : bool, default True
        Also require a classifier (for a pipeline: its last step).

    Raises
    ------
    ValueError
        One line naming the spec, the parameter and the rule.
    """
    from sklearn.base import is_classifier as is_clf

    from .._validation import MemoryEstimateError, check_memory_estimate
    cores = os.cpu_count() or 1
    stack = [(est, 1, 0)]
    while stack:
        node, fits, depth = stack.pop()
        if depth > 2 * MAX_DEPTH:
            raise _refuse(spec, f"its estimators nest more than {2 * MAX_DEPTH} deep")
        where = type(node).__name__
        try:
            params = node.get_params(deep=False)
        except Exception as exc:           # an estimator that cannot list its parameters
            raise _refuse(spec, f"{where}.get_params() fails ({type(exc).__name__})") from None
        n_est = params.get("n_estimators")
        if isinstance(n_est, int) and not isinstance(n_est, bool) and n_est > 0:
            fits *= n_est
            if fits > MAX_FITS:
                raise _refuse(spec, f"`n_estimators` in {where} makes one fit train {fits:,} "
                                    f"models (ensembles multiply; at most {MAX_FITS:,})")
        for name, value in params.items():
            _check_param(name, value, spec)
            _cap(name, value, spec, where)
            if isinstance(value, bool) and _numbers_only(type(node), name):
                raise _refuse(spec, f"`{name}` = {value!r} in {where} is a boolean where a "
                                    "number is expected (it would be read as "
                                    f"{int(value)})")
            if name == "n_jobs" and value is not None and not (
                    isinstance(value, int) and not isinstance(value, bool)
                    and 1 <= abs(value) <= cores):
                raise _refuse(spec, f"`n_jobs` = {value!r} in {where} must be None or a "
                                    f"number of cores between 1 and {cores} (negative: all "
                                    "but |n_jobs| - 1)")
            if name == "cache_size" and isinstance(value, (int, float)) \
                    and not isinstance(value, bool) and value > 0:
                try:
                    check_memory_estimate([(value * 2.0**20, "cache_size", value, 1)],
                                          what=f"{where}'s kernel cache")
                except MemoryEstimateError as exc:
                    raise _refuse(spec, str(exc).rstrip(".")) from None
            for child in _children(value):
                if name in _CLASSIFIER_SLOTS and is_clf(node) and not _is_pipeline(node) \
                        and not _classifier(child):
                    raise _refuse(spec, f"`{name}` of {where} holds {type(child).__name__}, a "
                                        f"{_kind(type(child))}; a classifier's own "
                                        "estimators must be classifiers")
                stack.append((child, fits, depth + 1))
        validate = getattr(node, "_validate_params", None)
        if callable(validate) and getattr(node, "_parameter_constraints", None):
            try:                           # scikit-learn's own checks, without fitting
                validate()
            except (ValueError, TypeError) as exc:
                text = " ".join(str(exc).split())
                raise _refuse(spec, f"{where}: {text[:300].rstrip('.')}") from None
    if classifier:
        from sklearn.base import is_classifier
        try:
            ok = is_classifier(est)
        except Exception:
            ok = False
        if not ok:
            steps = getattr(est, "steps", None)
            last = steps[-1][1] if steps else est
            what = ("a pipeline whose last step is a " + _kind(type(last))) if steps \
                else f"{type(est).__name__}, a {_kind(type(est))}"
            raise _refuse(spec, f"it builds {what}; the learner (or a pipeline's last step) "
                                "must be a classifier")


def build_estimator(spec: str):
    """A fresh classifier from a spec such as ``"sklearn.svm.SVC(C=10.0)"``.

    Parameters
    ----------
    spec : str
        A dotted class name of the allow-list, optionally called with literal or nested
        estimator arguments (see the module docstring).

    Returns
    -------
    estimator
        A new, unfitted classifier (or pipeline ending in one), checked by
        :func:`check_estimator`.

    Raises
    ------
    ValueError
        If the spec names anything but an allowed class or factory, nests too deep,
        gives a file, folder or cache parameter, asks for too much work, or does not
        build a classifier. Nothing is imported because the spec names it and nothing
        is fitted.

    Examples
    --------
    >>> from calibsim.engine._safe_spec import build_estimator
    >>> build_estimator("sklearn.tree.DecisionTreeClassifier(max_depth=3)")
    DecisionTreeClassifier(max_depth=3)
    >>> build_estimator("subprocess.run(args=['touch', 'x'])")
    Traceback (most recent call last):
    ...
    ValueError: learner spec "subprocess.run(args=['touch', 'x'])" refused: module 'subprocess' is not one of ['sklearn', 'calibsim']. A learner is a built-in name or a scikit-learn classifier with literal keyword arguments, e.g. 'sklearn.svm.SVC(C=1.0)'; nothing was run.
    >>> build_estimator("make_pipeline(StandardScaler(), SVC(), memory='cache')")
    Traceback (most recent call last):
    ...
    ValueError: learner spec "make_pipeline(StandardScaler(), SVC(), memory='cache')" refused: `memory` = 'cache' names a file, folder or cache (a spec never touches files; leave it out). A learner is a built-in name or a scikit-learn classifier with literal keyword arguments, e.g. 'sklearn.svm.SVC(C=1.0)'; nothing was run.
    """
    node = parse_spec(spec)
    if isinstance(node, (ast.Name, ast.Attribute)):
        cls = resolve_class(_dotted(node), spec)
        try:
            est = cls()
        except TypeError as exc:
            raise ValueError(f"learner spec {_short(spec)!r}: {_dotted(node)} needs "
                             f"arguments ({exc}).") from None
    else:
        est = _build(node, spec)
    check_estimator(est, spec)
    return est


def _polynomial_outputs(node, n_features: int) -> int | None:
    """Output columns of a ``PolynomialFeatures`` on ``n_features`` inputs, else None."""
    from math import comb
    if type(node).__name__ != "PolynomialFeatures":
        return None
    p = node.get_params(deep=False)
    degree = p.get("degree")
    lo, hi = (degree if isinstance(degree, tuple) else (0, degree))
    if not all(isinstance(v, int) for v in (lo, hi)):
        return None
    if p.get("interaction_only"):
        out = sum(comb(n_features, k) for k in range(max(lo, 1), hi + 1))
    else:
        out = comb(n_features + hi, hi) - comb(n_features + max(lo, 1) - 1, max(lo, 1) - 1)
    return out + (1 if p.get("include_bias", True) else 0)


def check_fit_budget(est, n_instances: int, n_features: int, spec: str,
                     label: str | None = None, n_fits: int = 1) -> None:
    """Refuse, before any fit, a learner whose one fit on these data exceeds the budget.

    Computed from the parameters and the data's size, nothing fitted: a
    ``PolynomialFeatures`` output of ``n_instances`` x C(a + degree, degree) float64
    values beyond calibsim's memory limit (``CALIBSIM_MEMORY_LIMIT``), the MLP's
    weights from the attributes to its first hidden layer beyond :data:`MAX_WEIGHTS`,
    and models x instances x attributes beyond :data:`MAX_WORK` (``n_estimators``
    multiplied down nested ensembles, a gradient-boosting ``max_iter`` counted as
    models), and over the ``n_fits`` fits of a comparison more than
    :data:`MAX_MODELS` models (``CALIBSIM_MAX_MODELS``). The attributes seen by a step
    after a polynomial expansion are its output.

    Parameters
    ----------
    est : estimator
        Built, not fitted (a learner's ``make()``).
    n_instances, n_features : int
        Size of the training data of one fit.
    spec : str
        The learner as given, for the message.
    label : str, optional
        The learner's name in the comparison.
    n_fits : int, default 1
        Fits of the learner in the comparison (r x k for r runs of k-fold cv).

    Raises
    ------
    ValueError
        One line naming the learner, the parameter, the size and the limit.
    """
    from .._validation import MemoryEstimateError, check_memory_estimate
    who = f"learner {label!r} ({_short(spec)})" if label else f"learner spec {_short(spec)!r}"
    width = int(n_features)

    def refuse(rule):
        return ValueError(f"{who} refused before any fit: {rule}; choose smaller "
                          "parameters (nothing was fitted).")

    env = os.environ.get("CALIBSIM_MAX_MODELS")
    try:
        max_models = int(env) if env else MAX_MODELS
    except ValueError:
        raise ValueError(f"the environment variable CALIBSIM_MAX_MODELS must be a positive "
                         f"integer; got {env!r}.") from None
    refuse.limits = (max_models, int(n_fits))

    stack = [(est, 1)]
    while stack:
        node, fits = stack.pop()
        steps = getattr(node, "steps", None)
        if steps and isinstance(steps, list):
            for _, step in steps:                    # in order: widths flow down the steps
                if hasattr(step, "get_params"):
                    _budget_node(step, fits, n_instances, width, refuse,
                                 check_memory_estimate, MemoryEstimateError)
                    out = _polynomial_outputs(step, width)
                    width = out if out is not None else width
            continue
        _budget_node(node, fits, n_instances, width, refuse, check_memory_estimate,
                     MemoryEstimateError)
        try:
            params = node.get_params(deep=False)
        except Exception:                            # noqa: BLE001 - check_estimator says
            continue
        n_est = params.get("n_estimators")
        inner = fits * (n_est if isinstance(n_est, int) and n_est > 0 else 1)
        for value in params.values():
            for child in _children(value):
                stack.append((child, inner))


def _budget_node(node, fits, n, width, refuse, check_memory_estimate, MemoryEstimateError):
    """The budget rules of one estimator (see :func:`check_fit_budget`)."""
    try:
        params = node.get_params(deep=False)
    except Exception:                                # noqa: BLE001
        return
    where = type(node).__name__
    out = _polynomial_outputs(node, width)
    if out is not None:
        try:
            check_memory_estimate([(8.0 * n * out, "degree", params.get("degree"), 1)],
                                  what=f"{where}(degree={params.get('degree')}) on "
                                       f"{n:,} instances x {width} attributes ({out:,} "
                                       "output features)")
        except MemoryEstimateError as exc:
            raise refuse(str(exc).rstrip(".")) from None
    hidden = params.get("hidden_layer_sizes")
    if where.startswith("MLP") and hidden is not None:
        layers = list(hidden) if isinstance(hidden, (list, tuple)) else [hidden]
        first = layers[0] if layers else None
        if isinstance(first, int) and width * first > MAX_WEIGHTS:
            raise refuse(f"`hidden_layer_sizes` in {where} asks for {width:,} x {first:,} = "
                         f"{width * first:,} input weights, more than {MAX_WEIGHTS:,}")
        if all(isinstance(v, int) for v in layers):
            between = sum(a * b for a, b in zip(layers[:-1], layers[1:]))
            if between > MAX_WEIGHTS:
                raise refuse(f"`hidden_layer_sizes` = {_short(layers)} in {where} asks for "
                             f"{between:,} weights between hidden layers, more than the "
                             f"budget of one fit ({MAX_WEIGHTS:,})")
    models = fits
    n_est = params.get("n_estimators")
    if isinstance(n_est, int) and not isinstance(n_est, bool) and n_est > 0:
        models *= n_est
    elif "Boosting" in where and isinstance(params.get("max_iter"), int):
        models *= params["max_iter"]
    max_models, n_fits = getattr(refuse, "limits", (MAX_MODELS, 1))
    if models * n_fits > max_models:
        raise refuse(f"{where} trains {models:,} models per fit, {models * n_fits:,} over the "
                     f"{n_fits:,} fits of the comparison, more than {max_models:,} (raise "
                     "with CALIBSIM_MAX_MODELS=N in the environment)")
    work = float(models) * n * max(width, 1)
    if models > 1 and work > MAX_WORK:
        raise refuse(f"{where} fits {models:,} models on {n:,} instances x {width:,} "
                     f"attributes = {work:.3g} units of work, more than the budget of one "
                     f"fit ({MAX_WORK:.3g})")
