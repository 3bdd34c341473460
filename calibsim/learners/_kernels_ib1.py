"""Private numba kernel for the 1-nearest-neighbour classifier of Weka 3.6 (``IB1``).

Written from the description of Weka's ``weka.classifiers.lazy.IB1`` (no Weka
code is copied). The distance between a test instance ``t`` and a training
instance ``s`` is a sum over the attributes in order, without a square root:

* nominal attribute: 1 if either value is missing or the codes differ, else 0;
* numeric attribute: ``d * d`` where, with ``norm(v) = (v - min_j) / (max_j - min_j)``
  (0 when ``min_j`` is undefined or ``|max_j - min_j| < 1e-6``),
  ``d = norm(t_j) - norm(s_j)`` if both are known, ``d = 1`` if both are
  missing, and otherwise ``d = norm(known)`` replaced by ``1 - d`` when it is
  below 0.5.

``min_j`` / ``max_j`` start as the range of the known training values and are
widened by each test instance *before* it is classified, cumulatively over
the test instances in row order (Weka's ``classifyInstance`` updates the
model's ranges and keeps them). The prediction is the class of the first
training instance with the strictly smallest distance (class 0 if none is
below ``Double.MAX_VALUE``). A training instance's sum stops as soon as it reaches
the smallest distance so far: it can no longer win, so predictions are unchanged.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def _update_range(x, numeric, lo, hi):
    """(a,) f8 row, (a,) b1, (a,) f8 lo, (a,) f8 hi -> (a,) b1 columns whose range changed."""
    changed = np.zeros(x.shape[0], np.bool_)
    for j in range(x.shape[0]):
        v = x[j]
        if numeric[j] and not np.isnan(v):
            if np.isnan(lo[j]):
                lo[j] = v
                hi[j] = v
                changed[j] = True
            elif v < lo[j]:
                lo[j] = v
                changed[j] = True
            elif v > hi[j]:
                hi[j] = v
                changed[j] = True
    return changed


@numba.njit(cache=True)
def _norm(v, lo, hi):
    """Weka's range normalisation of one value (0 for an undefined or tiny range)."""
    if np.isnan(lo):
        return 0.0
    if lo == hi or (hi - lo < 1e-6 and lo - hi < 1e-6):
        return 0.0
    return (v - lo) / (hi - lo)


@numba.njit(cache=True)
def _ib1_predict(X_train, y_train, numeric, X_test):
    """(n_tr, a) f8, (n_tr,) i8, (a,) b1, (n_te, a) f8 -> (n_te,) i8 class codes.

    NaN marks a missing value; nominal codes are compared as integers.
    """
    n_tr, a = X_train.shape
    n_te = X_test.shape[0]
    lo = np.full(a, np.nan)
    hi = np.full(a, np.nan)
    for i in range(n_tr):
        _update_range(X_train[i], numeric, lo, hi)
    # normalised training values, recomputed for a column only when its range changes
    norm_tr = np.zeros((n_tr, a), np.float64)
    for j in range(a):
        if numeric[j]:
            for i in range(n_tr):
                norm_tr[i, j] = _norm(X_train[i, j], lo[j], hi[j])
    out = np.empty(n_te, np.int64)
    t_norm = np.empty(a, np.float64)
    big = np.finfo(np.float64).max
    for t in range(n_te):
        x = X_test[t]
        changed = _update_range(x, numeric, lo, hi)
        for j in range(a):
            if changed[j]:
                for i in range(n_tr):
                    norm_tr[i, j] = _norm(X_train[i, j], lo[j], hi[j])
            if numeric[j]:
                t_norm[j] = _norm(x[j], lo[j], hi[j])
        best = big
        cls = 0
        for i in range(n_tr):
            dist = 0.0
            for j in range(a):
                u = x[j]
                v = X_train[i, j]
                if not numeric[j]:
                    if np.isnan(u) or np.isnan(v) or u != v:
                        dist += 1.0
                else:
                    u_missing = np.isnan(u)
                    v_missing = np.isnan(v)
                    if u_missing or v_missing:
                        if u_missing and v_missing:
                            d = 1.0
                        else:
                            d = norm_tr[i, j] if u_missing else t_norm[j]
                            if d < 0.5:
                                d = 1.0 - d
                    else:
                        d = t_norm[j] - norm_tr[i, j]
                    dist += d * d
                if dist >= best:
                    # every term is >= 0 and x + y >= x in floating point for y >= 0,
                    # so this instance can no longer be strictly nearer: stop early
                    # (the prediction is the same as with the full sum)
                    break
            if dist < best:
                best = dist
                cls = y_train[i]
        out[t] = cls
    return out
