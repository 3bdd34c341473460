"""A tuned learner in a study file: its grid, protocol and number of settings, expanded.

A ``[learners.<name>]`` table with a ``grid`` declares a learner tuned over that grid
(scored by :mod:`calibsim.engine._tuned`)::

    [learners.c45_tuned]
    kind = "c45"                                  # or estimator = "sklearn...."
    grid = {confidence = [0.25, 0.05, 0.1, 0.5], min_obj = [2, 1, 5, 10]}
    tuning = ["test_set", "nested_cv"]            # PROTOCOLS; a list expands
    n_settings = [1, 2, 4, 8, 16]                 # the first p settings; a list expands
    inner_folds = 5                               # nested_cv (default 5)
    validation_fraction = 0.3333                  # holdout (default 1/3)
    n_bootstrap = 10                              # bootstrap632 (default 10)

``grid`` is either a table of lists (their Cartesian product, the first key varying
slowest, in the file's order) or a list of tables (the settings in that order).
Other keys are fixed parameters of every setting. A list given for ``tuning`` or
``n_settings`` expands into one learner per value (tuning outer, n_settings inner),
labelled ``<name>[tuning=..., n_settings=...]`` with the keys that were lists; a
pair naming ``<name>`` pairs every expanded learner.
"""

from __future__ import annotations

import itertools

__all__ = ["PROTOCOLS", "TUNING_KEY", "TUNED_KEYS", "expand_pairs", "expand_tuned",
           "tuned_identity"]

_OPEN01 = {"min_value": 0, "max_value": 1, "open_low": True, "open_high": True}
#: Protocol -> {parameter: (type, rules, default)}.
PROTOCOLS = {
    "test_set": {},
    "nested_cv": {"inner_folds": (int, {"min_value": 2}, 5)},
    "holdout": {"validation_fraction": (float, _OPEN01, 1 / 3)},
    "bootstrap632": {"n_bootstrap": (int, {"min_value": 1}, 10)},
}
#: Spawn-key element that marks a tuning stream (the bytes of "tune").
TUNING_KEY = 0x74756E65


def tuned_identity(spec) -> str:
    """The text a tuned learner adds to its identity: protocol, parameters, settings.

    Examples
    --------
    >>> from calibsim.engine.learners import LearnerSpec
    >>> spec = LearnerSpec("t", "c45", grid=((("min_obj", 2),), (("min_obj", 5),)),
    ...                    tuning="nested_cv", tuning_params=(("inner_folds", 5),))
    >>> spec.identity()
    "c45().tuned('nested_cv', inner_folds=5, settings=[min_obj=2; min_obj=5])"
    """
    params = "".join(f", {k}={v!r}" for k, v in spec.tuning_params)
    settings = "; ".join(", ".join(f"{k}={v!r}" for k, v in s) for s in spec.grid)
    return f".tuned({spec.tuning!r}{params}, settings=[{settings}])"


#: Keys of a tuned learner's table besides its kind/estimator, pipeline and fixed parameters.
TUNED_KEYS = ("grid", "tuning", "n_settings") + tuple(
    k for spec in PROTOCOLS.values() for k in spec)
_SCALARS = (bool, int, float, str)


def _grid(c, key, grid) -> tuple:
    if isinstance(grid, dict):
        if not grid:
            c.fail(key, "must name at least one parameter", grid)
        names = list(grid)
        lists = [[_scalar(c, f"{key}.{k}[{i}]", v) for i, v in enumerate(
            grid[k] if isinstance(grid[k], list) else [grid[k]])] for k in names]
        for k, vals in zip(names, lists):
            if not vals:
                c.fail(f"{key}.{k}", "must list at least one value", grid[k])
        settings = [dict(zip(names, combo)) for combo in itertools.product(*lists)]
    elif isinstance(grid, list) and grid and all(isinstance(s, dict) and s for s in grid):
        settings = [{k: _scalar(c, f"{key}[{i}].{k}", v) for k, v in s.items()}
                    for i, s in enumerate(grid)]
    else:
        c.fail(key, "must be a table of lists (their product) or a non-empty list of "
               "non-empty tables (the settings in order)", grid)
    out = tuple(tuple(sorted(s.items())) for s in settings)
    if len(set(out)) != len(out):
        c.fail(key, "must not repeat a setting", [dict(s) for s in out])
    return out


def _scalar(c, key, value):
    if not isinstance(value, _SCALARS):
        c.fail(key, "must be a number, a string or true/false", value)
    return value


def expand_tuned(c, key: str, label: str, sec: dict, make) -> list:
    """The learners of one tuned table.

    Parameters
    ----------
    c : Checker
    key, label : str
        ``learners.<label>`` and ``<label>``.
    sec : dict
        The table without ``kind``, ``estimator`` and ``pipeline``.
    make : callable
        ``make(label, params, **tuning_fields) -> LearnerSpec``.

    Returns
    -------
    list of LearnerSpec
    """
    grid = _grid(c, f"{key}.grid", sec["grid"])
    if "tuning" not in sec:
        c.fail(f"{key}.tuning", f"is required with `grid`: one of {list(PROTOCOLS)}",
               show_value=False)
    tunings = c.values(f"{key}.tuning", sec["tuning"], str, choices=tuple(PROTOCOLS))
    counts = c.values(f"{key}.n_settings", sec.get("n_settings", len(grid)), int,
                      min_value=1, max_value=len(grid))
    for name, vals in (("tuning", tunings), ("n_settings", counts)):
        if len(set(vals)) != len(vals):
            c.fail(f"{key}.{name}", "must not repeat a value", vals)
    fixed = {k: v for k, v in sec.items() if k not in TUNED_KEYS}
    clash = sorted(set(fixed) & {k for s in grid for k, _ in s})
    if clash:
        c.fail(key, f"sets {clash} both as fixed parameters and in `grid`", show_value=False)
    given = {}
    for k in TUNED_KEYS[3:]:
        if k in sec:
            users = [p for p in tunings if k in PROTOCOLS[p]]
            if not users:
                c.fail(f"{key}.{k}", "applies only to tuning "
                       f"{[p for p in PROTOCOLS if k in PROTOCOLS[p]]}", sec[k])
            want, rules, _ = PROTOCOLS[users[0]][k]
            given[k] = c.value(f"{key}.{k}", sec[k], want, **rules)
    out = []
    for tuning, p in itertools.product(tunings, counts):
        shown = [f"{n}={v}" for n, v, many in (("tuning", tuning, isinstance(sec["tuning"], list)),
                                               ("n_settings", p, isinstance(
                                                   sec.get("n_settings"), list))) if many]
        name = label + (f"[{', '.join(shown)}]" if shown else "")
        tparams = tuple(sorted((k, v) for k, v in given.items() if k in PROTOCOLS[tuning]))
        out.append(make(name, tuple(sorted(fixed.items())), grid=grid[:p], tuning=tuning,
                        tuning_params=tparams, group=label))
    return out


def expand_pairs(pairs, groups: dict):
    """Replace a tuned table's name in ``[a, b]`` pairs by each of its expanded labels.

    ``pairs`` is returned unchanged when it is not a list of pairs (the caller's
    check then reports it).

    Examples
    --------
    >>> expand_pairs([["t", "nb"]], {"t": ["t[n_settings=1]", "t[n_settings=2]"]})
    [['t[n_settings=1]', 'nb'], ['t[n_settings=2]', 'nb']]
    """
    if not isinstance(pairs, list):
        return pairs
    out = []
    for p in pairs:
        if isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p):
            out += [[a, b] for a in groups.get(p[0], [p[0]]) for b in groups.get(p[1], [p[1]])]
        else:
            out.append(p)
    return out
