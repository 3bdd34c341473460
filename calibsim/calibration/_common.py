"""Helpers shared by the df calibration on a grid and the continuous calibration."""

from __future__ import annotations

import numpy as np

from ..stats import TestSpec, get_test

__all__ = []


def _resolve_test(test):
    """Return (spec or None, callable, display name)."""
    if isinstance(test, (str, TestSpec)):
        spec = get_test(test)
        return spec, spec.func, spec.name
    if callable(test):
        return None, test, getattr(test, "__name__", repr(test))
    raise TypeError("`test` must be a registry name, a TestSpec or a callable "
                    f"f(x, df) -> (statistic, pvalue); got {test!r}.")


def _pvalues_of(out):
    """p-values from a TTestResult-like object or a (statistic, pvalue) pair."""
    if hasattr(out, "pvalue"):
        return np.asarray(out.pvalue, dtype=float)
    try:
        _, p = out
    except (TypeError, ValueError):
        raise ValueError("a user test must return (statistic, pvalue) or an object "
                         f"with a `pvalue` attribute; got {out!r}.") from None
    return np.asarray(p, dtype=float)


def _check_pvalues(p, shape):
    if p.shape != shape:
        raise ValueError(f"the test returned p-values of shape {p.shape}; expected "
                         f"{shape} (n_df, N).")
    if not np.all((p >= 0) & (p <= 1)):
        raise ValueError("the test returned p-values outside [0, 1] or NaN; got "
                         f"{p[~((p >= 0) & (p <= 1))].flat[0]!r}.")
    return p
