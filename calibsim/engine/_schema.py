"""Checking a parsed study file: keys, types, closest names, grids and a memory estimate.

Every error is a :class:`StudyFileError` (a ``ValueError``) whose message names
the file, the key (as a dotted path such as ``schemes.cv.n_folds``), the rule
and the value received; an unknown key also names the closest valid one.
"""

from __future__ import annotations

import difflib
import itertools
import numbers

from .._validation import memory_limit  # one limit for every estimate
from .._validation import size_text as gib

__all__ = ["StudyFileError", "Checker", "closest", "expand_grid", "memory_limit"]


class StudyFileError(ValueError):
    """A study file breaks a rule; the message names the file, the key, the rule, the value."""


def closest(name, choices) -> str:
    """`` (did you mean 'x'?)`` for the closest of ``choices``, or an empty string."""
    hit = difflib.get_close_matches(str(name), [str(c) for c in choices], n=1, cutoff=0.5)
    return f" (did you mean {hit[0]!r}?)" if hit else ""


_TYPE_NAMES = {int: "an integer", float: "a number", str: "a string", bool: "true or false",
               list: "a list", dict: "a table"}


class Checker:
    """Checks values of one study file and raises :class:`StudyFileError` with its name."""

    def __init__(self, path):
        self.path = path

    def fail(self, key: str, rule: str, value=None, *, show_value=True):
        got = f"; got {value!r}" if show_value else ""
        raise StudyFileError(f"study file {self.path}: `{key}` {rule}{got}.")

    def table(self, key: str, value) -> dict:
        if not isinstance(value, dict):
            self.fail(key, "must be a table (a [section] or { ... })", value)
        return value

    def keys(self, key: str, table: dict, known, required=()):
        """Reject unknown keys (naming the closest known one) and missing required keys."""
        for k in table:
            if k not in known:
                self.fail(f"{key}.{k}" if key else k,
                          f"is not a known key{closest(k, known)}; known keys are "
                          f"{sorted(known)}", show_value=False)
        for k in required:
            if k not in table:
                self.fail(f"{key}.{k}" if key else k, "is required but missing",
                          show_value=False)

    def value(self, key: str, value, want, *, min_value=None, max_value=None,
              open_low=False, open_high=False, choices=None):
        """Check one scalar: its type, its range, or that it is one of ``choices``."""
        ok = isinstance(value, want) and not (want is not bool and isinstance(value, bool))
        if want is float and isinstance(value, numbers.Integral) and not isinstance(value, bool):
            ok, value = True, float(value)
        if not ok:
            self.fail(key, f"must be {_TYPE_NAMES.get(want, want.__name__)}", value)
        if want is float and value != value:
            self.fail(key, "must be a number, not NaN", value)
        if choices is not None and value not in choices:
            self.fail(key, f"must be one of {list(choices)}{closest(value, choices)}", value)
        if min_value is not None and (value <= min_value if open_low else value < min_value):
            self.fail(key, f"must be {'>' if open_low else '>='} {min_value}", value)
        if max_value is not None and (value >= max_value if open_high else value > max_value):
            self.fail(key, f"must be {'<' if open_high else '<='} {max_value}", value)
        return value

    def values(self, key: str, value, want, *, allow_scalar=True, nonempty=True, **rules):
        """A list of values each checked like :meth:`value` (a scalar becomes a list of one)."""
        if not isinstance(value, list):
            if not allow_scalar:
                self.fail(key, "must be a list", value)
            value = [value]
        if nonempty and not value:
            self.fail(key, "must list at least one value", value)
        return [self.value(f"{key}[{i}]", v, want, **rules) for i, v in enumerate(value)]


def expand_grid(params: dict, grid_keys, *, zip_keys=False):
    """Expand list-valued ``grid_keys`` into a list of dicts (Cartesian product or zip).

    Returns ``[(params_i, {grid key: value})]``; the second dict names what varies.
    """
    lists = {k: v for k, v in params.items() if k in grid_keys and isinstance(v, list)}
    if not lists:
        return [(dict(params), {})]
    names = list(lists)
    if zip_keys:
        n = {len(v) for v in lists.values()}
        if len(n) != 1:
            raise ValueError(f"grid keys {names} are zipped and must have equal lengths; got "
                             f"{[len(lists[k]) for k in names]}")
        combos = list(zip(*(lists[k] for k in names)))
    else:
        combos = list(itertools.product(*(lists[k] for k in names)))
    out = []
    for combo in combos:
        p = dict(params)
        p.update(zip(names, combo))
        out.append((p, dict(zip(names, combo))))
    return out

