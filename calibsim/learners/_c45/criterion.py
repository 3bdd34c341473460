"""C4.5's criteria: Weka's tolerances, entropy terms and pessimistic error estimates.

Weka's tolerant comparisons (``weka.core.Utils``), the entropy term of J48's
split criteria (``x log2 x``, by table for integer counts) and the pessimistic
error estimate of pruning (``Stats.addErrs``), shared by every path. See
:mod:`calibsim.learners._c45` for the data layout.
"""

from __future__ import annotations

import math

import numba
import numpy as np

_SMALL = 1e-6                 # weka.core.Utils.SMALL
_LOG2 = math.log(2.0)
_N_TABLE = 4096
# x*log2(x) for integers 0..4095, evaluated exactly as the kernel would
# (x*log(x))/log(2), so that integer counts cost a table lookup.
_XLOGX_TABLE = np.zeros(_N_TABLE)
for _k in range(1, _N_TABLE):
    _XLOGX_TABLE[_k] = _k * math.log(_k) / _LOG2
del _k


# --------------------------------------------------------------------------
# Weka's tolerant comparisons (weka.core.Utils) and small helpers
# --------------------------------------------------------------------------

@numba.njit(cache=True)
def _gr(a, b):
    """f8, f8 -> bool: a > b + 1e-6 (Utils.gr)."""
    return a - b > _SMALL


@numba.njit(cache=True)
def _gr_or_eq(a, b):
    """f8, f8 -> bool: a >= b - 1e-6 (Utils.grOrEq)."""
    return b - a < _SMALL


@numba.njit(cache=True)
def _sm(a, b):
    """f8, f8 -> bool: a < b - 1e-6 (Utils.sm)."""
    return b - a > _SMALL


@numba.njit(cache=True)
def _sm_or_eq(a, b):
    """f8, f8 -> bool: a <= b + 1e-6 (Utils.smOrEq)."""
    return a - b < _SMALL


@numba.njit(cache=True)
def _eq(a, b):
    """f8, f8 -> bool: |a - b| < 1e-6 (Utils.eq)."""
    return (a - b < _SMALL) and (b - a < _SMALL)


@numba.njit(cache=True)
def _xlogx(x):
    """f8 -> f8: x*log2(x), and 0 for x < 1e-6 (the entropy term of J48's split criteria)."""
    if x < 1e-6:
        return 0.0
    if x < _N_TABLE:
        k = int(x)
        if k == x:
            return _XLOGX_TABLE[k]
    return x * math.log(x) / _LOG2


@numba.njit(cache=True, inline='always')
def _max_class(dist, o, n_classes):
    """(m,) f8, i8 offset, i8 -> i8: first class with the largest count in dist[o:o+C] (Distribution.maxClass)."""
    best = 0
    mx = 0.0
    for c in range(n_classes):
        if _gr(dist[o + c], mx):
            mx = dist[o + c]
            best = c
    return best


@numba.njit(cache=True)
def _normal_inverse(p):
    """f8 in (0, 1) -> f8: standard normal quantile (rational start + one Newton step)."""
    # Rational approximation (P. J. Acklam, relative error < 1.2e-9) ...
    a0, a1, a2 = -3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02
    a3, a4, a5 = 1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00
    b0, b1, b2 = -5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02
    b3, b4 = 6.680131188771972e+01, -1.328068155288572e+01
    c0, c1, c2 = -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00
    c3, c4, c5 = -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00
    d0, d1, d2, d3 = 7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00
    plow = 0.02425
    if p < plow:
        q = math.sqrt(-2.0 * math.log(p))
        x = (((((c0 * q + c1) * q + c2) * q + c3) * q + c4) * q + c5) / \
            ((((d0 * q + d1) * q + d2) * q + d3) * q + 1.0)
    elif p <= 1.0 - plow:
        q = p - 0.5
        r = q * q
        x = (((((a0 * r + a1) * r + a2) * r + a3) * r + a4) * r + a5) * q / \
            (((((b0 * r + b1) * r + b2) * r + b3) * r + b4) * r + 1.0)
    else:
        q = math.sqrt(-2.0 * math.log(1.0 - p))
        x = -(((((c0 * q + c1) * q + c2) * q + c3) * q + c4) * q + c5) / \
            ((((d0 * q + d1) * q + d2) * q + d3) * q + 1.0)
    # ... refined to full double precision by Newton steps on Phi(x) - p.
    for _ in range(2):
        err = 0.5 * math.erfc(-x / math.sqrt(2.0)) - p
        x = x - err * math.sqrt(2.0 * math.pi) * math.exp(0.5 * x * x)
    return x


# --------------------------------------------------------------------------
# Pessimistic error estimate (weka.classifiers.trees.j48.Stats.addErrs)
# --------------------------------------------------------------------------

@numba.njit(cache=True, inline='always')
def _add_errs_z(n, e, cf, z):
    """f8 N, f8 e, f8 CF, f8 z=Phi^-1(1-CF) -> f8: extra errors of the upper confidence limit."""
    if cf > 0.5:
        return 0.0
    if e < 1.0:
        # Exact binomial bound for e = 0 (N (1 - CF^(1/N))), linear in e up to e = 1.
        base = n * (1.0 - math.pow(cf, 1.0 / n))
        if e == 0.0:
            return base
        if 1.5 >= n:
            at_one = max(n - 1.0, 0.0)
        else:
            f = 1.5 / n
            r = (f + (z * z) / (2.0 * n)
                 + z * math.sqrt((f / n) - (f * f / n) + (z * z / (4.0 * n * n)))) \
                / (1.0 + (z * z) / n)
            at_one = (r * n) - 1.0
        return base + e * (at_one - base)
    if e + 0.5 >= n:
        return max(n - e, 0.0)
    # Normal approximation to the upper limit, with continuity correction.
    f = (e + 0.5) / n
    r = (f + (z * z) / (2.0 * n)
         + z * math.sqrt((f / n) - (f * f / n) + (z * z / (4.0 * n * n)))) \
        / (1.0 + (z * z) / n)
    return (r * n) - e


@numba.njit(cache=True)
def _weka_cf(confidence):
    """f8 -> (f8 CF, f8 z): J48 stores -C as a Java float; z = Phi^-1(1 - CF) in float arithmetic."""
    cf32 = np.float32(confidence)
    one_minus = np.float32(1.0) - cf32
    return np.float64(cf32), _normal_inverse(np.float64(one_minus))


@numba.njit(cache=True)
def _add_errs(n, e, confidence):
    """f8 N (weight), f8 e (errors), f8 CF -> f8: Weka's Stats.addErrs(N, e, CF)."""
    cf, z = _weka_cf(confidence)
    return _add_errs_z(n, e, cf, z)


@numba.njit(cache=True, _nrt=False)
def _est_errors(dist, o, n_classes, total, cf, z):
    """(m,) f8 counts at offset o, i8 C, f8 total, f8 CF, f8 z -> f8: errors + addErrs (0 if empty)."""
    if _eq(total, 0.0):
        return 0.0
    e = total - dist[o + _max_class(dist, o, n_classes)]
    return e + _add_errs_z(total, e, cf, z)
