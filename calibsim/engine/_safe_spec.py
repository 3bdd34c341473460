"""Learner specs that never execute: a name resolves only to an estimator class.

A learner named in a CLI flag, a study file or a string given to
:func:`calibsim.compare` is read with :mod:`ast`, never evaluated. A dotted name
must live in a module under :data:`ALLOWED_ROOTS`, contain no private part, and
name a scikit-learn estimator class (a subclass of
:class:`sklearn.base.BaseEstimator`) or one of the pipeline factories in
:data:`FACTORIES`. Arguments are literals (numbers, strings, booleans, None, and
lists, tuples and dicts of them) or, recursively, such estimator constructions, so
a pipeline can be written out::

    sklearn.pipeline.make_pipeline(sklearn.impute.SimpleImputer(strategy="median"),
                                   sklearn.linear_model.LogisticRegression(max_iter=1000))

Anything else (``subprocess.run``, ``os.system``, ``builtins.print``,
``numpy.ndarray``, lambdas, attribute access on values, ``**kwargs``) is refused with
one line before any module outside the allowed roots is imported or anything is
called.
"""

from __future__ import annotations

import ast
import difflib
import importlib

__all__ = ["ALLOWED_ROOTS", "FACTORIES", "build_estimator", "resolve_class"]

#: Top-level packages whose estimator classes a spec may name.
ALLOWED_ROOTS = ("sklearn", "calibsim", "imblearn", "xgboost", "lightgbm", "catboost")

#: Functions and helper classes (not estimators) a spec may call to build pipelines.
FACTORIES = frozenset({
    "sklearn.pipeline.make_pipeline", "sklearn.pipeline.make_union",
    "sklearn.compose.make_column_transformer", "sklearn.compose.make_column_selector",
})


def _refuse(spec: str, rule: str) -> ValueError:
    return ValueError(f"learner spec {spec!r} refused: {rule}. A learner is a built-in name "
                      "or a scikit-learn estimator class with literal keyword arguments, "
                      "e.g. 'sklearn.svm.SVC(C=1.0)'; nothing was run.")


def _short_names() -> dict:
    """Unqualified estimator and factory names -> dotted paths (unique names only)."""
    from sklearn.utils import all_estimators
    names: dict = {}
    for name, cls in all_estimators():
        names.setdefault(name, []).append(f"{cls.__module__}.{name}")
    for path in FACTORIES:
        names.setdefault(path.rpartition(".")[2], []).append(path)
    for extra in ("Pipeline", "FeatureUnion"):
        names.setdefault(extra, []).append(f"sklearn.pipeline.{extra}")
    names.setdefault("ColumnTransformer", []).append("sklearn.compose.ColumnTransformer")
    return {k: sorted(set(v))[0] for k, v in names.items() if len(set(v)) == 1}


def resolve_class(path: str, spec: str | None = None):
    """The estimator class (or pipeline factory) a dotted name stands for.

    Parameters
    ----------
    path : str
        ``"module.Class"``, e.g. ``"sklearn.svm.SVC"``, or an unqualified scikit-learn
        class name such as ``"SVC"``.
    spec : str, optional
        The whole spec, for the message.

    Returns
    -------
    type or callable

    Raises
    ------
    ValueError
        If the module is outside :data:`ALLOWED_ROOTS`, a part is private, the name
        cannot be imported, or it is not an estimator class or a listed factory.
    """
    spec = path if spec is None else spec
    parts = path.split(".")
    if any(not p.isidentifier() or p.startswith("_") for p in parts):
        raise _refuse(spec, f"{path!r} is not a public dotted name")
    if len(parts) == 1:
        short = _short_names()
        if path not in short:
            near = difflib.get_close_matches(path, list(short), n=3)
            hint = f" (did you mean {', '.join(near)}?)" if near else ""
            raise _refuse(spec, f"{path!r} is not a scikit-learn estimator name{hint}")
        path = short[path]
        parts = path.split(".")
    if parts[0] not in ALLOWED_ROOTS:
        raise _refuse(spec, f"module {parts[0]!r} is not one of {list(ALLOWED_ROOTS)}")
    module, _, name = path.rpartition(".")
    try:
        obj = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise _refuse(spec, f"{path!r} cannot be imported ({exc})") from None
    if path in FACTORIES or f"{obj.__module__}.{name}" in FACTORIES:
        return obj
    from sklearn.base import BaseEstimator
    if not (isinstance(obj, type) and issubclass(obj, BaseEstimator)):
        raise _refuse(spec, f"{path!r} is not a scikit-learn estimator class")
    return obj


def _dotted(node) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _check(node, spec: str) -> None:
    """Refuse anything but literals and calls of dotted names, before importing."""
    if isinstance(node, ast.Call):
        if _dotted(node.func) is None:
            raise _refuse(spec, "only a dotted class name may be called")
        if any(k.arg is None for k in node.keywords):
            raise _refuse(spec, "'**' arguments are not allowed")
        if any(isinstance(a, ast.Starred) for a in node.args):
            raise _refuse(spec, "'*' arguments are not allowed")
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
        return
    else:
        raise _refuse(spec, f"{ast.unparse(node)!r} is neither a literal nor an estimator "
                            "construction")


def _build(node, spec: str):
    if isinstance(node, ast.Call):
        cls = resolve_class(_dotted(node.func), spec)
        args = [_build(a, spec) for a in node.args]
        kwargs = {k.arg: _build(k.value, spec) for k in node.keywords}
        try:
            return cls(*args, **kwargs)
        except TypeError as exc:
            raise ValueError(f"learner spec {spec!r}: {_dotted(node.func)} does not take "
                             f"these arguments ({exc}).") from None
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
        If the text is not one expression of that form.
    """
    if not isinstance(spec, str):
        raise TypeError(f"a learner spec must be a string; got {type(spec).__name__}.")
    if len(spec) > 10_000:
        raise _refuse(spec[:60] + "...", f"it is {len(spec)} characters long (at most 10000)")
    try:
        node = ast.parse(spec.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise _refuse(spec, f"it is not one Python-like expression ({type(exc).__name__})"
                      ) from None
    if isinstance(node, (ast.Name, ast.Attribute)):
        if _dotted(node) is None:
            raise _refuse(spec, "only a dotted class name may be given")
        return node
    _check(node, spec)
    if not isinstance(node, ast.Call):
        raise _refuse(spec, "a learner is a class name or a call of one")
    return node


def build_estimator(spec: str):
    """A fresh estimator from a spec such as ``"sklearn.svm.SVC(C=10.0)"``.

    Parameters
    ----------
    spec : str
        A dotted estimator class name, optionally called with literal or nested
        estimator arguments (see the module docstring).

    Returns
    -------
    estimator
        A new, unfitted instance.

    Raises
    ------
    ValueError
        If the spec names anything but an allowed estimator class or factory, or its
        arguments are not literals or estimator constructions. Nothing is imported
        outside :data:`ALLOWED_ROOTS` and nothing is called before the check.

    Examples
    --------
    >>> from calibsim.engine._safe_spec import build_estimator
    >>> build_estimator("sklearn.tree.DecisionTreeClassifier(max_depth=3)")
    DecisionTreeClassifier(max_depth=3)
    >>> build_estimator("subprocess.run(args=['touch', 'x'])")
    Traceback (most recent call last):
    ...
    ValueError: learner spec "subprocess.run(args=['touch', 'x'])" refused: module 'subprocess' is not one of ['sklearn', 'calibsim', 'imblearn', 'xgboost', 'lightgbm', 'catboost']. A learner is a built-in name or a scikit-learn estimator class with literal keyword arguments, e.g. 'sklearn.svm.SVC(C=1.0)'; nothing was run.
    """
    node = parse_spec(spec)
    if isinstance(node, (ast.Name, ast.Attribute)):
        return resolve_class(_dotted(node), spec)()
    return _build(node, spec)
