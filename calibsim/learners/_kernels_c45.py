"""Private numba kernels for C4.5 as implemented by Weka 3.6's J48.

The kernels reproduce J48 with its default options: multiway splits on
nominal attributes and binary splits on numeric ones chosen by gain ratio
among the splits whose information gain is at least the average gain,
Weka's ``Utils`` tolerances (1e-6), collapsing, error-based pruning with
``Stats.addErrs`` and subtree raising, missing values as fractional
instances, and Weka's treatment of empty branches at prediction time. They are written from the
behaviour described in ``shared/reference/paper-notes.md`` section 5 and from
reading Weka's classes (``C45ModelSelection``, ``C45Split``,
``InfoGainSplitCrit``, ``GainRatioSplitCrit``, ``Distribution``,
``ClassifierTree``, ``C45PruneableClassifierTree``, ``Stats``); no Weka code is
copied.

Data layout
-----------
``X`` is C-contiguous int64 of shape (n, a) holding nominal codes
``0..n_values[j]-1``; ``y`` is int64 of shape (n,) with codes
``0..n_classes-1``. Every instance carries a float64 weight (all ones in
:func:`_c45_fit`); all class counts are sums of weights, so fractional
instances (missing values) can be added later without changing the layout.

The training instances of a node are a *segment* of a work buffer of
(instance index, weight) pairs. A split appends one new segment per branch to
the end of the buffer, in the original instance order (as Weka's
``Instances`` splits do), so the segment of every node stays valid for
subtree raising, and an instance could later be sent to several branches.

A fitted tree is a tuple ``(attr, first_child, node_class, node_prob,
node_dist)`` in breadth-first order: ``attr[u]`` is the split attribute of node
``u`` or -1 for a leaf, the children of an internal node are
``first_child[u] + value`` (contiguous), ``node_class[u]`` and
``node_prob[u]`` are the class and class probabilities J48 predicts at a leaf,
and ``node_dist[u]`` the (weighted) training class counts of the node.

:func:`_c45_fit` (all weights 1) runs :func:`_c45_fit_unit`, which keeps
the node sets as bitsets and counts with popcounts; it builds bit for bit the
tree of the general :func:`_c45_fit_weighted` (see "Unit-weight fast path").

Numeric attributes and missing values run :func:`_c45_fit_general` on
float64 data (NaN = missing, ``n_values[j] == 0`` for a numeric attribute),
with :func:`_c45_predict_general`, :func:`_c45_predict_proba_general` and
:func:`_c45_size_general`; see "General path" below for its tree layout. On
nominal codes without missing values it builds the nominal kernels' tree.

The kernels do no input checking; the public :class:`calibsim.learners.C45`
validates its inputs.
"""

from __future__ import annotations

import math

import numba
import numpy as np
from numba import types
from numba.extending import intrinsic

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


@numba.njit(cache=True, inline='always')
def _est_errors(dist, o, n_classes, total, cf, z):
    """(m,) f8 counts at offset o, i8 C, f8 total, f8 CF, f8 z -> f8: errors + addErrs (0 if empty)."""
    if _eq(total, 0.0):
        return 0.0
    e = total - dist[o + _max_class(dist, o, n_classes)]
    return e + _add_errs_z(total, e, cf, z)


# --------------------------------------------------------------------------
# Tree building blocks
# --------------------------------------------------------------------------

@numba.njit(cache=True)
def _ensure_buffer(ib, wb, used, need):
    """(m,) i8, (m,) f8, i8, i8 -> (i8 buffer, f8 buffer) with capacity >= used + need."""
    cap = ib.shape[0]
    if used + need <= cap:
        return ib, wb
    new_cap = max(2 * cap, used + need)
    ib2 = np.empty(new_cap, np.int64)
    wb2 = np.empty(new_cap, np.float64)
    ib2[:used] = ib[:used]
    wb2[:used] = wb[:used]
    return ib2, wb2


@numba.njit(cache=True)
def _node_distribution(v, y, ib, wb, seg_s, seg_n, dist, tot, n_classes):
    """Recompute class counts dist[v*C:(v+1)*C] and total tot[v] of node v from its segment."""
    o = v * n_classes
    for c in range(n_classes):
        dist[o + c] = 0.0
    total = 0.0
    for e in range(seg_s[v], seg_s[v] + seg_n[v]):
        wt = wb[e]
        dist[o + y[ib[e]]] += wt
        total += wt
    tot[v] = total


@numba.njit(cache=True)
def _partition(v, X, ib, wb, used, seg_s, seg_n, attr, first, n_values, pos):
    """Append one segment per branch of node v (stable, in value order); return the new buffer length."""
    j = attr[v]
    nv = n_values[j]
    fc = first[v]
    s = seg_s[v]
    L = seg_n[v]
    for b in range(nv):
        pos[b] = 0
    for e in range(s, s + L):
        pos[X[ib[e], j]] += 1
    start = used
    for b in range(nv):
        cnt = pos[b]
        seg_s[fc + b] = start
        seg_n[fc + b] = cnt
        pos[b] = start
        start += cnt
    for e in range(s, s + L):
        b = X[ib[e], j]
        p = pos[b]
        ib[p] = ib[e]
        wb[p] = wb[e]
        pos[b] = p + 1
    return used + L


@numba.njit(cache=True)
def _select_split(v, onehot, y, ib, wb, seg_s, seg_n, dist, tot, n_values, off, n_classes,
                  min_obj_f, multi_val, n_all, cnt, bag, xcnt, xbag, gain, ratio, valid):
    """Return J48's split attribute for node v, or -1 for a leaf (C45ModelSelection.selectModel).

    Counts weighted class frequencies per (attribute, value) in one pass over
    the node's instances, then evaluates every attribute's multiway split.
    ``onehot`` (n, V) holds the indicator of every (attribute, value) pair, so
    the counting loop is a dense, vectorisable ``cnt[c] += w * onehot[i]``
    (identical sums to scattering ``w`` into the matching cells).
    """
    V = onehot.shape[1]
    cnt[:, :] = 0.0
    for e in range(seg_s[v], seg_s[v] + seg_n[v]):
        wt = wb[e]
        i = ib[e]
        row = cnt[y[i]]
        src = onehot[i]
        for k in range(V):
            row[k] += wt * src[k]
    return _choose_split(v, dist, tot, n_values, off, n_classes, min_obj_f, multi_val, n_all,
                         cnt, bag, xcnt, xbag, gain, ratio, valid)


@numba.njit(cache=True)
def _choose_split(v, dist, tot, n_values, off, n_classes, min_obj_f, multi_val, n_all,
                  cnt, bag, xcnt, xbag, gain, ratio, valid):
    """Return J48's split attribute for node v from its class counts per (attribute, value).

    ``cnt[c, off[j] + b]`` holds the weight of class c with value b of attribute j
    among node v's instances (however it was counted); fills ``bag`` (branch
    weights) and returns -1 for a leaf.
    """
    C = n_classes
    V = off[n_values.shape[0]]
    # Entropy terms of every cell and branch, each computed once per node.
    for k in range(V):
        s = 0.0
        for c in range(C):
            s += cnt[c, k]
            xcnt[c, k] = _xlogx(cnt[c, k])
        bag[k] = s
        xbag[k] = _xlogx(s)
    return _choose_from_terms(v, dist, tot, n_values, off, n_classes, min_obj_f, multi_val,
                              n_all, bag, xcnt, xbag, gain, ratio, valid)


@numba.njit(cache=True, inline='always')
def _choose_from_terms(v, dist, tot, n_values, off, n_classes, min_obj_f, multi_val, n_all,
                       bag, xcnt, xbag, gain, ratio, valid):
    """Return J48's split attribute for node v (or -1) from its branch weights ``bag``
    and the entropy terms ``xcnt = xlogx(cnt)``, ``xbag = xlogx(bag)``."""
    n_attr = n_values.shape[0]
    C = n_classes
    total = tot[v]
    # No missing values yet: every instance is "known", so the known weight of
    # every split equals the node's total and its class counts the node's.
    known = total
    unknown = total - known
    unknown_rate = unknown / total
    rv = 0.0
    o = v * C
    for c in range(C):
        rv = rv + _xlogx(dist[o + c])
    old_ent = _xlogx(known) - rv
    x_unknown = _xlogx(unknown)
    x_total = _xlogx(total)

    avg = 0.0
    n_valid = 0
    for j in range(n_attr):
        nv = n_values[j]
        ob = off[j]
        # Distribution.check: at least two branches with >= min_obj weight.
        counter = 0
        for b in range(nv):
            if _gr_or_eq(bag[ob + b], min_obj_f):
                counter += 1
        if counter <= 1:
            valid[j] = False
            continue
        valid[j] = True
        # Information gain (InfoGainSplitCrit), in bits per known instance.
        rv = 0.0
        for b in range(nv):
            for c in range(C):
                rv = rv + xcnt[c, ob + b]
            rv = rv - xbag[ob + b]
        new_ent = -rv
        num = old_ent - new_ent
        num = (1.0 - unknown_rate) * num
        if _eq(num, 0.0):
            ig = 0.0
        else:
            ig = num / known
        gain[j] = ig
        # Gain ratio (GainRatioSplitCrit): split entropy includes an "unknown" bag.
        se = 0.0
        if _gr(known, 0.0):
            for b in range(nv):
                se = se - xbag[ob + b]
            se = se - x_unknown
            se = se + x_total
        if _eq(se, 0.0):
            ratio[j] = 0.0
        else:
            se = se / total
            ratio[j] = ig / se
        if multi_val or _sm(np.float64(nv), 0.3 * n_all):
            avg = avg + ig
            n_valid += 1
    if n_valid == 0:
        return -1
    avg = avg / n_valid
    best = -1
    best_ratio = 0.0
    for j in range(n_attr):
        if valid[j] and gain[j] >= avg - 1e-3 and _gr(ratio[j], best_ratio):
            best = j
            best_ratio = ratio[j]
    if _eq(best_ratio, 0.0):
        return -1
    return best


@numba.njit(cache=True)
def _errors_for_branch(v, largest, X, y, ib, wb, seg_s, seg_n, attr, first, dist, tot,
                       n_values, n_classes, cf, z, acc, acc_tot, ef, sub, stack):
    """Estimated errors when all of node v's instances are sent down its branch ``largest``.

    Mirrors C45PruneableClassifierTree.getEstimatedErrorsForBranch, including
    its nested (depth-first, branch-order) summation. The instances of the
    branch itself already sit in its leaves' counts, so only the instances
    of v's other branches are routed.
    """
    r = first[v] + largest
    C = n_classes
    # Collect the subtree in pre-order and clear its accumulators.
    n_sub = 0
    sp = 1
    stack[0] = r
    while sp > 0:
        sp -= 1
        u = stack[sp]
        sub[n_sub] = u
        n_sub += 1
        acc_tot[u] = tot[u]
        for c in range(C):
            acc[u * C + c] = dist[u * C + c]
        if attr[u] >= 0:
            nv = n_values[attr[u]]
            for b in range(nv - 1, -1, -1):
                stack[sp] = first[u] + b
                sp += 1
    # Route the other branches' instances to their leaves.
    for b in range(n_values[attr[v]]):
        if b == largest:
            continue
        o = first[v] + b
        for e in range(seg_s[o], seg_s[o] + seg_n[o]):
            i = ib[e]
            u = r
            while attr[u] >= 0:
                u = first[u] + X[i, attr[u]]
            acc[u * C + y[i]] += wb[e]
            acc_tot[u] += wb[e]
    # Children come after their parent in pre-order, so a reverse sweep sums bottom-up.
    for t in range(n_sub - 1, -1, -1):
        u = sub[t]
        if attr[u] < 0:
            ef[u] = _est_errors(acc, u * C, C, acc_tot[u], cf, z)
        else:
            total = 0.0
            for b in range(n_values[attr[u]]):
                total = total + ef[first[u] + b]
            ef[u] = total
    return ef[r]


@numba.njit(cache=True)
def _new_distribution(v, X, y, ib, wb, used, seg_s, seg_n, attr, first, dist, tot, empty,
                      n_values, n_classes, pos, stack):
    """Re-send node v's instances down its (raised) subtree; return (ib, wb, used).

    Mirrors C45PruneableClassifierTree.newDistribution: every node's counts are
    recomputed, and a leaf that now receives weight stops being "empty".
    """
    sp = 1
    stack[0] = v
    while sp > 0:
        sp -= 1
        u = stack[sp]
        _node_distribution(u, y, ib, wb, seg_s, seg_n, dist, tot, n_classes)
        if attr[u] >= 0:
            ib, wb = _ensure_buffer(ib, wb, used, seg_n[u])
            used = _partition(u, X, ib, wb, used, seg_s, seg_n, attr, first, n_values, pos)
            for b in range(n_values[attr[u]]):
                stack[sp] = first[u] + b
                sp += 1
        elif not _eq(tot[u], 0.0):
            empty[u] = False
    return ib, wb, used


@numba.njit(cache=True, inline='always')
def _collapse(attr, first, dist, tot, terr, n_values, n_classes, n_nodes, stack):
    """Collapse (ClassifierTree.collapse): a subtree whose training errors are not
    more than 1e-3 below its root's becomes a leaf. ``terr`` is scratch."""
    C = n_classes
    for v in range(n_nodes - 1, -1, -1):
        if attr[v] < 0:
            terr[v] = tot[v] - dist[v * C + _max_class(dist, v * C, C)]
        else:
            s = 0.0
            for b in range(n_values[attr[v]]):
                s = s + terr[first[v] + b]
            terr[v] = s
    sp = 1
    stack[0] = 0
    while sp > 0:
        sp -= 1
        v = stack[sp]
        if attr[v] < 0:
            continue
        if terr[v] >= tot[v] - dist[v * C + _max_class(dist, v * C, C)] - 1e-3:
            attr[v] = -1
        else:
            for b in range(n_values[attr[v]]):
                stack[sp] = first[v] + b
                sp += 1


# --------------------------------------------------------------------------
# Unit-weight fast path: instance sets as bitsets
# --------------------------------------------------------------------------
#
# :func:`_c45_fit` gives every instance weight 1. Then every weight sum of the
# general path (class counts, branch weights, the counts routed through a
# subtree while pruning) is a sum of 1.0s, i.e. an integer below 2**53 that
# floating point holds exactly whatever the summation order. So the same sums
# can be taken as integer counts -- popcounts of bitsets -- and converted to
# float64, giving the same bits; everything computed from them (entropies,
# gain ratios, error estimates) then runs the very same code as the weighted
# path. ``tests/learners/test_c45.py`` checks the two paths tree for tree.
#
# A node's training instances are a bitset ``nmask[u]`` of W = ceil(n / 64)
# words. ``amask[off[j] + b]`` is the set of instances with value b of
# attribute j and ``cmask[c]`` that of class c, so a child's set is
# ``nmask[parent] & amask[..]`` and a class count is a popcount. Because a
# child's set is always its parent's set restricted to one attribute value
# (also after subtree raising, which re-sends the instances down), this
# replaces the weighted path's instance segments exactly.
#
# The small per-node helpers are ``inline='always'``: a numba call that is not
# inlined increments and decrements (atomically) the reference count of every
# array argument, which cost more than these helpers' own work. Inlining
# changes no result (no fastmath: LLVM keeps every floating-point operation).

@intrinsic
def _popcount(typingctx, x):
    """u8 -> i8: number of set bits (LLVM ctpop: one POPCNT instruction on x86-64)."""
    if not isinstance(x, types.Integer) or x.bitwidth != 64 or x.signed:
        return None
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return sig, codegen


@numba.njit(cache=True, inline='always')
def _count_and(m1, m2, W):
    """(W,) u8, (W,) u8, i8 -> i8: size of the intersection of two bitsets."""
    s = 0
    for w in range(W):
        s += _popcount(m1[w] & m2[w])
    return s


@numba.njit(cache=True, inline='always')
def _class_counts_bits(m, cmask, dist, o, n_classes):
    """Set dist[o:o+C] to the class counts of bitset m (as float64); return the total count."""
    W = m.shape[0]
    total = 0
    for c in range(n_classes):
        k = _count_and(m, cmask[c], W)
        dist[o + c] = np.float64(k)
        total += k
    return total


@numba.njit(cache=True)
def _xlogx_counts(n):
    """i8 n -> (n+1,) f8: _xlogx(float(k)) for k = 0..n, bit for bit (the same table and formula)."""
    xtab = np.empty(n + 1, np.float64)
    for k in range(n + 1):
        if k < _N_TABLE:
            xtab[k] = _XLOGX_TABLE[k]
        else:
            x = np.float64(k)
            xtab[k] = x * math.log(x) / _LOG2
    return xtab


@numba.njit(cache=True, inline='always')
def _select_split_bits(v, nmask, amask_t, cmask, xtab, dist, tot, n_values, off, n_classes,
                       min_obj_f, multi_val, n_all, icnt, ibag, bag, xcnt, xbag, gain, ratio,
                       valid):
    """Unit-weight _select_split: integer class counts per (attribute, value) by popcounts.

    ``amask_t[w, k]`` is word w of the bitset of (attribute, value) cell k, so
    the innermost loops run over all V cells at once (vectorised popcounts,
    table lookups). Counts, branch weights and entropy terms equal the
    weighted path's floats; the counts stay in ``icnt`` for the children.
    """
    W = nmask.shape[1]
    V = off[n_values.shape[0]]
    C = n_classes
    for k in range(V):
        ibag[k] = 0
    for c in range(C):
        for k in range(V):
            icnt[c, k] = 0
        for w in range(W):
            mw = nmask[v, w] & cmask[c, w]
            for k in range(V):
                icnt[c, k] += _popcount(mw & amask_t[w, k])
        for k in range(V):
            q = icnt[c, k]
            ibag[k] += q
            xcnt[c, k] = xtab[q]
    for k in range(V):
        bag[k] = np.float64(ibag[k])
        xbag[k] = xtab[ibag[k]]
    return _choose_from_terms(v, dist, tot, n_values, off, n_classes, min_obj_f, multi_val,
                              n_all, bag, xcnt, xbag, gain, ratio, valid)


@numba.njit(cache=True, inline='always')
def _errors_for_branch_bits(v, largest, nmask, amask, cmask, attr, first, off, n_values,
                            n_classes, cf, z, pmask, acc, ef, sub, stack):
    """Unit-weight _errors_for_branch: all of v's instances routed through branch ``largest``.

    ``pmask[u]`` is the set of node v's instances that reach node u of the
    branch's subtree when the test at v is skipped; at a leaf its class counts
    equal the branch's own counts plus the routed ones of the weighted path.
    The error sums are taken bottom-up in branch order, as there.
    """
    r = first[v] + largest
    W = nmask.shape[1]
    C = n_classes
    for w in range(W):
        pmask[r, w] = nmask[v, w]
    n_sub = 0
    sp = 1
    stack[0] = r
    while sp > 0:
        sp -= 1
        u = stack[sp]
        sub[n_sub] = u
        n_sub += 1
        if attr[u] >= 0:
            ob = off[attr[u]]
            for b in range(n_values[attr[u]] - 1, -1, -1):
                ch = first[u] + b
                for w in range(W):
                    pmask[ch, w] = pmask[u, w] & amask[ob + b, w]
                stack[sp] = ch
                sp += 1
        else:
            total = _class_counts_bits(pmask[u], cmask, acc, 0, C)
            ef[u] = _est_errors(acc, 0, C, np.float64(total), cf, z)
    for t in range(n_sub - 1, -1, -1):
        u = sub[t]
        if attr[u] >= 0:
            total = 0.0
            for b in range(n_values[attr[u]]):
                total = total + ef[first[u] + b]
            ef[u] = total
    return ef[r]


@numba.njit(cache=True, inline='always')
def _new_distribution_bits(v, nmask, amask, cmask, attr, first, off, dist, tot, empty, n_values,
                           n_classes, stack):
    """Unit-weight _new_distribution: recompute the sets and counts of v's (raised) subtree."""
    W = nmask.shape[1]
    sp = 1
    stack[0] = v
    while sp > 0:
        sp -= 1
        u = stack[sp]
        tot[u] = np.float64(_class_counts_bits(nmask[u], cmask, dist, u * n_classes, n_classes))
        if attr[u] >= 0:
            ob = off[attr[u]]
            for b in range(n_values[attr[u]]):
                ch = first[u] + b
                for w in range(W):
                    nmask[ch, w] = nmask[u, w] & amask[ob + b, w]
                stack[sp] = ch
                sp += 1
        elif not _eq(tot[u], 0.0):
            empty[u] = False


@numba.njit(cache=True, inline='always')
def _instance_bitsets(X, y, n_values, off, n_classes):
    """Bitsets of the instances per (attribute, value) cell, (V, W) u8, and per class, (C, W) u8.

    Each 64-bit word is an OR-reduction over a block of 64 instances, whose
    codes are first copied into ``col`` (padded with -1, which matches no
    code, so the reduction always has the fixed length 64 that LLVM unrolls).
    """
    n, n_attr = X.shape
    W = (n + 63) // 64
    amask = np.zeros((max(off[n_attr], 1), W), np.uint64)
    cmask = np.zeros((n_classes, W), np.uint64)
    col = np.full(64, -1, np.int64)
    for wd in range(W):
        i0 = wd * 64
        m = min(64, n - i0)
        for t in range(m, 64):          # a short last block: no stale codes
            col[t] = -1
        for t in range(m):
            col[t] = y[i0 + t]
        for c in range(n_classes):
            word = np.uint64(0)
            for t in range(64):
                word |= np.uint64(col[t] == c) << np.uint64(t)
            cmask[c, wd] = word
        for j in range(n_attr):
            for t in range(m):
                col[t] = X[i0 + t, j]
            for b in range(n_values[j]):
                word = np.uint64(0)
                for t in range(64):
                    word |= np.uint64(col[t] == b) << np.uint64(t)
                amask[off[j] + b, wd] = word
    return amask, cmask


@numba.njit(cache=True)
def _c45_fit_unit(X, y, n_values, n_classes, confidence, min_obj):
    """_c45_fit_weighted with all weights 1, on bitsets; returns the identical tree."""
    n, n_attr = X.shape
    C = n_classes
    cf, z = _weka_cf(confidence)
    min_obj_f = np.float64(min_obj)

    off = np.zeros(n_attr + 1, np.int64)
    max_nv = 1
    for j in range(n_attr):
        off[j + 1] = off[j] + n_values[j]
        max_nv = max(max_nv, n_values[j])
    n_all = np.float64(n)
    multi_val = True
    for j in range(n_attr):
        if _sm(np.float64(n_values[j]), 0.3 * n_all):
            multi_val = False
            break

    # Same node capacity argument as the weighted path (weights 1 <= 1).
    m_eff = max(min_obj, 1)
    cap = (n // m_eff + 1) * max_nv + 1
    attr = np.full(cap, -1, np.int64)
    first = np.full(cap, -1, np.int64)
    dist = np.zeros(cap * C, np.float64)
    tot = np.zeros(cap, np.float64)
    empty = np.zeros(cap, np.bool_)
    serr = np.zeros(cap, np.float64)
    stack = np.empty(cap, np.int64)
    stack2 = np.empty(cap, np.int64)

    # Bitsets of the instances per (attribute, value), per class, and per node.
    W = (n + 63) // 64
    V = off[n_attr]
    amask, cmask = _instance_bitsets(X, y, n_values, off, C)
    amask_t = np.ascontiguousarray(amask.T)
    xtab = _xlogx_counts(n)
    # A node's row is written (from its parent's) before it is read: only the root's is set here.
    nmask = np.empty((cap, W), np.uint64)
    for wd in range(W):
        m = min(64, n - 64 * wd)
        nmask[0, wd] = ~np.uint64(0) if m == 64 else (np.uint64(1) << np.uint64(m)) - np.uint64(1)
    icnt = np.empty((C, max(V, 1)), np.int64)
    ibag = np.empty(max(V, 1), np.int64)
    bag = np.empty(max(V, 1), np.float64)
    xcnt = np.empty((C, max(V, 1)), np.float64)
    xbag = np.empty(max(V, 1), np.float64)
    gain = np.zeros(max(n_attr, 1), np.float64)
    ratio = np.zeros(max(n_attr, 1), np.float64)
    valid = np.zeros(max(n_attr, 1), np.bool_)

    # ---- grow, visiting nodes in the weighted path's order
    n_nodes = 1
    sp = 1
    stack[0] = 0
    tot[0] = np.float64(_class_counts_bits(nmask[0], cmask, dist, 0, C))
    while sp > 0:
        sp -= 1
        v = stack[sp]
        total = tot[v]
        best = -1
        if not (_sm(total, 2.0 * min_obj_f)
                or _eq(total, dist[v * C + _max_class(dist, v * C, C)])):
            best = _select_split_bits(v, nmask, amask_t, cmask, xtab, dist, tot, n_values,
                                      off, C, min_obj_f, multi_val, n_all, icnt, ibag, bag,
                                      xcnt, xbag, gain, ratio, valid)
        if best < 0:
            attr[v] = -1
            empty[v] = _eq(total, 0.0)
            continue
        nv = n_values[best]
        attr[v] = best
        first[v] = n_nodes
        n_nodes += nv
        for b in range(nv - 1, -1, -1):
            u = first[v] + b
            for w in range(W):
                nmask[u, w] = nmask[v, w] & amask[off[best] + b, w]
            for c in range(C):
                dist[u * C + c] = np.float64(icnt[c, off[best] + b])
            tot[u] = bag[off[best] + b]
            stack[sp] = u
            sp += 1

    _collapse(attr, first, dist, tot, serr, n_values, C, n_nodes, stack)

    # ---- prune bottom-up with subtree raising (the weighted path's loop)
    pmask = np.empty((cap, W), np.uint64)
    acc = np.empty(max(C, 1), np.float64)
    ef = np.empty(cap, np.float64)
    sub = np.empty(cap, np.int64)
    st_k = np.empty(cap, np.int64)
    sp = 1
    stack[0] = 0
    st_k[0] = 0
    while sp > 0:
        v = stack[sp - 1]
        if attr[v] < 0:
            serr[v] = _est_errors(dist, v * C, C, tot[v], cf, z)
            sp -= 1
            continue
        nv = n_values[attr[v]]
        k = st_k[sp - 1]
        if k < nv:
            st_k[sp - 1] = k + 1
            stack[sp] = first[v] + k
            st_k[sp] = 0
            sp += 1
            continue
        fc = first[v]
        largest = -1
        mx = 0.0
        for b in range(nv):
            if _gr_or_eq(tot[fc + b], mx):
                mx = tot[fc + b]
                largest = b
        e_branch = _errors_for_branch_bits(v, largest, nmask, amask, cmask, attr, first, off,
                                           n_values, C, cf, z, pmask, acc, ef, sub, stack2)
        e_leaf = _est_errors(dist, v * C, C, tot[v], cf, z)
        e_tree = 0.0
        for b in range(nv):
            e_tree = e_tree + serr[fc + b]
        if _sm_or_eq(e_leaf, e_tree + 0.1) and _sm_or_eq(e_leaf, e_branch + 0.1):
            attr[v] = -1
            serr[v] = e_leaf
            sp -= 1
            continue
        if _sm_or_eq(e_branch, e_tree + 0.1):
            c_big = fc + largest
            attr[v] = attr[c_big]
            first[v] = first[c_big]
            _new_distribution_bits(v, nmask, amask, cmask, attr, first, off, dist, tot, empty,
                                   n_values, C, stack2)
            st_k[sp - 1] = 0
            continue
        serr[v] = e_tree
        sp -= 1

    return _compact(attr, first, dist, tot, empty, n_values, C)


# --------------------------------------------------------------------------
# Public kernels
# --------------------------------------------------------------------------

@numba.njit(cache=True)
def _c45_fit_weighted(X, y, w, n_values, n_classes, confidence, min_obj):
    """(n, a) i8, (n,) i8, (n,) f8 weights, (a,) i8, i8, f8 CF, i8 M -> tree tuple (see module doc)."""
    n, n_attr = X.shape
    C = n_classes
    cf, z = _weka_cf(confidence)
    min_obj_f = np.float64(min_obj)

    off = np.zeros(n_attr + 1, np.int64)
    max_nv = 1
    for j in range(n_attr):
        off[j + 1] = off[j] + n_values[j]
        max_nv = max(max_nv, n_values[j])
    # All attributes "have many values" (>= 0.3 n): then every valid split counts
    # towards the average gain (C45ModelSelection).
    n_all = np.float64(n)
    multi_val = True
    for j in range(n_attr):
        if _sm(np.float64(n_values[j]), 0.3 * n_all):
            multi_val = False
            break

    # Node capacity: an internal node has >= 2 branches holding >= max(M, 1)
    # weight each, so there are fewer than n / max(M, 1) internal nodes.
    m_eff = max(min_obj, 1)
    cap = (n // m_eff + 1) * max_nv + 1
    attr = np.full(cap, -1, np.int64)
    first = np.full(cap, -1, np.int64)
    seg_s = np.zeros(cap, np.int64)
    seg_n = np.zeros(cap, np.int64)
    dist = np.zeros(cap * C, np.float64)
    tot = np.zeros(cap, np.float64)
    empty = np.zeros(cap, np.bool_)
    serr = np.zeros(cap, np.float64)
    stack = np.empty(cap, np.int64)
    stack2 = np.empty(cap, np.int64)
    pos = np.empty(max_nv, np.int64)

    V = off[n_attr]
    onehot = np.zeros((n, V), np.float64)
    for i in range(n):
        for j in range(n_attr):
            onehot[i, off[j] + X[i, j]] = 1.0
    cnt = np.empty((C, max(V, 1)), np.float64)
    bag = np.empty(max(V, 1), np.float64)
    xcnt = np.empty((C, max(V, 1)), np.float64)
    xbag = np.empty(max(V, 1), np.float64)
    gain = np.zeros(max(n_attr, 1), np.float64)
    ratio = np.zeros(max(n_attr, 1), np.float64)
    valid = np.zeros(max(n_attr, 1), np.bool_)

    # A nominal attribute is used at most once on a path, so growing the tree
    # appends at most n * a entries; raising may append more (grown on demand).
    buf_cap = n * (min(n_attr, 16) + 2) + 16
    ib = np.empty(buf_cap, np.int64)
    wb = np.empty(buf_cap, np.float64)
    for i in range(n):
        ib[i] = i
        wb[i] = w[i]
    used = n
    seg_s[0] = 0
    seg_n[0] = n

    # ---- grow (ClassifierTree.buildTree), depth first with an explicit stack
    n_nodes = 1
    sp = 1
    stack[0] = 0
    _node_distribution(0, y, ib, wb, seg_s, seg_n, dist, tot, C)
    while sp > 0:
        sp -= 1
        v = stack[sp]
        total = tot[v]
        best = -1
        if not (_sm(total, 2.0 * min_obj_f)
                or _eq(total, dist[v * C + _max_class(dist, v * C, C)])):
            best = _select_split(v, onehot, y, ib, wb, seg_s, seg_n, dist, tot, n_values, off, C,
                                 min_obj_f, multi_val, n_all, cnt, bag, xcnt, xbag, gain, ratio,
                                 valid)
        if best < 0:
            attr[v] = -1
            empty[v] = _eq(total, 0.0)
            continue
        nv = n_values[best]
        attr[v] = best
        first[v] = n_nodes
        n_nodes += nv
        ib, wb = _ensure_buffer(ib, wb, used, seg_n[v])
        used = _partition(v, X, ib, wb, used, seg_s, seg_n, attr, first, n_values, pos)
        for b in range(nv - 1, -1, -1):
            # A branch's class counts are the chosen split's counts for its value.
            u = first[v] + b
            for c in range(C):
                dist[u * C + c] = cnt[c, off[best] + b]
            tot[u] = bag[off[best] + b]
            stack[sp] = u
            sp += 1

    _collapse(attr, first, dist, tot, serr, n_values, C, n_nodes, stack)

    # ---- prune bottom-up with subtree raising (C45PruneableClassifierTree.prune)
    acc = np.zeros(cap * C, np.float64)
    acc_tot = np.zeros(cap, np.float64)
    ef = np.zeros(cap, np.float64)
    sub = np.empty(cap, np.int64)
    st_k = np.zeros(cap, np.int64)
    sp = 1
    stack[0] = 0
    st_k[0] = 0
    while sp > 0:
        v = stack[sp - 1]
        if attr[v] < 0:
            serr[v] = _est_errors(dist, v * C, C, tot[v], cf, z)
            sp -= 1
            continue
        nv = n_values[attr[v]]
        k = st_k[sp - 1]
        if k < nv:
            st_k[sp - 1] = k + 1
            stack[sp] = first[v] + k
            st_k[sp] = 0
            sp += 1
            continue
        fc = first[v]
        largest = -1
        mx = 0.0
        for b in range(nv):
            if _gr_or_eq(tot[fc + b], mx):
                mx = tot[fc + b]
                largest = b
        e_branch = _errors_for_branch(v, largest, X, y, ib, wb, seg_s, seg_n, attr, first, dist,
                                      tot, n_values, C, cf, z, acc, acc_tot, ef, sub, stack2)
        e_leaf = _est_errors(dist, v * C, C, tot[v], cf, z)
        e_tree = 0.0
        for b in range(nv):
            e_tree = e_tree + serr[fc + b]
        if _sm_or_eq(e_leaf, e_tree + 0.1) and _sm_or_eq(e_leaf, e_branch + 0.1):
            attr[v] = -1
            serr[v] = e_leaf
            sp -= 1
            continue
        if _sm_or_eq(e_branch, e_tree + 0.1):
            # Raise the largest branch: v takes over its split and children,
            # all of v's instances are re-sent down, and v is pruned again.
            c_big = fc + largest
            attr[v] = attr[c_big]
            first[v] = first[c_big]
            ib, wb, used = _new_distribution(v, X, y, ib, wb, used, seg_s, seg_n, attr, first,
                                             dist, tot, empty, n_values, C, pos, stack2)
            st_k[sp - 1] = 0
            continue
        serr[v] = e_tree
        sp -= 1

    return _compact(attr, first, dist, tot, empty, n_values, C)


@numba.njit(cache=True, inline='always')
def _compact(attr, first, dist, tot, empty, n_values, n_classes):
    """Renumber the reachable tree breadth first and attach the leaf predictions."""
    C = n_classes
    cap = attr.shape[0]
    queue = np.empty(cap, np.int64)
    parent = np.empty(cap, np.int64)
    queue[0] = 0
    parent[0] = -1
    head = 0
    tail = 1
    while head < tail:
        u = queue[head]
        if attr[u] >= 0:
            for b in range(n_values[attr[u]]):
                queue[tail] = first[u] + b
                parent[tail] = head
                tail += 1
        head += 1
    m = tail
    out_attr = np.empty(m, np.int64)
    out_first = np.empty(m, np.int64)
    out_class = np.empty(m, np.int64)
    out_prob = np.zeros((m, C), np.float64)
    out_dist = np.empty((m, C), np.float64)
    nxt = 1
    for t in range(m):
        u = queue[t]
        out_attr[t] = attr[u]
        if attr[u] >= 0:
            out_first[t] = nxt
            nxt += n_values[attr[u]]
        else:
            out_first[t] = -1
        for c in range(C):
            out_dist[t, c] = dist[u * C + c]
        # Leaf probabilities as ClassifierTree.getProbs: an empty leaf falls
        # back to its parent's distribution (its own branch has no weight).
        src = u
        if empty[u] and parent[t] >= 0 and not _gr(tot[u], 0.0):
            src = queue[parent[t]]
        if not _eq(tot[src], 0.0):
            for c in range(C):
                out_prob[t, c] = dist[src * C + c] / tot[src]
        # ClassifierTree.classifyInstance: first class with a larger probability
        # (tolerance 1e-6), starting from -1; an all-zero row gives class 0.
        best = 0
        mx = -1.0
        for c in range(C):
            if _gr(out_prob[t, c], mx):
                mx = out_prob[t, c]
                best = c
        out_class[t] = best
    return out_attr, out_first, out_class, out_prob, out_dist


@numba.njit(cache=True)
def _c45_fit(X, y, n_values, n_classes, confidence, min_obj):
    """(n, a) i8, (n,) i8, (a,) i8, i8, f8 CF, i8 M -> tree (attr, first_child, node_class, node_prob, node_dist)."""
    # All weights are 1: the bitset path computes the weighted path's tree exactly.
    return _c45_fit_unit(X, y, n_values, n_classes, confidence, min_obj)


@numba.njit(cache=True)
def _c45_leaf(tree, X, i):
    """tree, (n, a) i8, i8 row -> i8: index of the leaf that row i reaches."""
    attr = tree[0]
    first = tree[1]
    u = 0
    while attr[u] >= 0:
        u = first[u] + X[i, attr[u]]
    return u


@numba.njit(cache=True)
def _c45_predict(tree, X):
    """tree, (n_test, a) i8 -> (n_test,) i8 predicted class codes."""
    node_class = tree[2]
    out = np.empty(X.shape[0], np.int64)
    for i in range(X.shape[0]):
        out[i] = node_class[_c45_leaf(tree, X, i)]
    return out


@numba.njit(cache=True)
def _c45_predict_proba(tree, X):
    """tree, (n_test, a) i8 -> (n_test, C) f8 class probabilities of the reached leaves."""
    node_prob = tree[3]
    out = np.empty((X.shape[0], node_prob.shape[1]), np.float64)
    for i in range(X.shape[0]):
        out[i, :] = node_prob[_c45_leaf(tree, X, i)]
    return out


@numba.njit(cache=True)
def _c45_size(tree):
    """tree -> (i8 n_nodes, i8 n_leaves), as J48's "Size of the tree" and "Number of Leaves"."""
    attr = tree[0]
    n_leaves = 0
    for u in range(attr.shape[0]):
        if attr[u] < 0:
            n_leaves += 1
    return attr.shape[0], n_leaves


# --------------------------------------------------------------------------
# General path: numeric attributes, missing values, instance weights
# --------------------------------------------------------------------------
#
# ``X`` is C-contiguous float64 of shape (n, a): a nominal attribute j holds
# codes 0..n_values[j]-1 as floats, a numeric attribute has n_values[j] == 0,
# and NaN marks a missing value. The tree is grown, collapsed and pruned as in
# the weighted path, with what J48 adds for such data:
#
# * A numeric attribute gets a binary split ``x <= t`` (C45Split for numeric
#   attributes). The node's instances with a known value are sorted; candidate
#   cut points lie between neighbours differing by more than 1e-5, both sides
#   must hold at least ``minSplit = 0.1 * known weight / n_classes`` clipped to
#   [min_obj, 25]; the best cut maximises the information gain (first one on
#   ties, tolerance 1e-6), which is then lowered by the MDL correction
#   ``log2(#candidate cuts) / node weight``; a split whose corrected gain is
#   not above 0 is invalid. Its gain ratio uses the corrected gain, and the
#   threshold, first the mid-point of the cut, becomes the largest value of
#   the attribute in the whole training set not exceeding it
#   (``setSplitPoint``). ``x <= t`` is tested with Weka's tolerance 1e-6.
# * Gains are computed on known values and scaled by the known fraction of
#   the node's weight; the split information has an extra "unknown" bag.
# * An instance whose split value is missing goes down every branch whose
#   share ``perBag / total`` of the split's distribution exceeds 1e-6, with
#   its weight times that share. The split's distribution is the known
#   values' one plus every missing instance spread over the bags in
#   proportion to the known weights (Distribution.addInstWithUnknown); it is
#   the distribution J48 uses for the node in collapsing and pruning, and
#   pruning recomputes it when it re-sends data down a subtree
#   (``resetDistribution``).
# * Numeric attributes switch off the "all attributes have many values" rule
#   and always count towards the average gain.
#
# Every sum of weights is accumulated in the order J48 accumulates it, over
# the node's instances in training-set order (J48's own order can differ in
# ties of a sort, which only changes the last bits of fractional sums).
#
# A general tree is ``(attr, first_child, node_class, node_prob, node_dist,
# split, branch_frac, empty, n_sons)``: the first five as in the nominal path (the
# children of a numeric split are ``first_child[u] + 0`` for ``x <= split[u]``
# and ``+ 1`` above), ``split[u]`` the threshold (NaN for nominal splits and
# leaves), ``branch_frac[u]`` the share of the parent's distribution in node
# u's branch (the weight a missing value sends there) and ``empty[u]`` J48's
# ``m_isEmpty`` (no training weight reached the leaf; such a leaf is skipped
# when a missing value spreads an instance over the branches) and
# ``n_sons[u]`` the number of branches (0 at a leaf).


@numba.njit(cache=True, inline='always')
def _branch_of(x, nv, sp):
    """f8 value, i8 n_values of its attribute (0 = numeric), f8 split point -> i8 branch
    (-1 if missing): C45Split.whichSubset, ``x <= sp`` with Weka's tolerance 1e-6."""
    if math.isnan(x):
        return -1
    if nv > 0:
        return int(x)
    if _sm_or_eq(x, sp):
        return 0
    return 1


@numba.njit(cache=True)
def _split_distribution(u, j, nvj, sp, nb, X, y, ib, wb, seg_s, seg_n, n_classes, pcb, pb, pc):
    """Distribution of node u's segment over the nb branches of attribute j (resetDistribution).

    Known values are added in segment order, then every instance with a
    missing value is spread over the bags in proportion to the known bag
    weights (addInstWithUnknown). Fills ``pcb`` (nb, C), ``pb`` (nb,),
    ``pc`` (C,) and returns the total weight.
    """
    C = n_classes
    for b in range(nb):
        pb[b] = 0.0
        for c in range(C):
            pcb[b, c] = 0.0
    for c in range(C):
        pc[c] = 0.0
    total = 0.0
    has_missing = False
    for e in range(seg_s[u], seg_s[u] + seg_n[u]):
        i = ib[e]
        b = _branch_of(X[i, j], nvj, sp)
        if b < 0:
            has_missing = True
            continue
        wt = wb[e]
        c = y[i]
        pcb[b, c] = pcb[b, c] + wt
        pb[b] = pb[b] + wt
        pc[c] = pc[c] + wt
        total = total + wt
    if has_missing:
        total = _add_unknown(u, j, nb, X, y, ib, wb, seg_s, seg_n, pcb, pb, pc, total)
    return total


@numba.njit(cache=True)
def _add_unknown(u, j, nb, X, y, ib, wb, seg_s, seg_n, pcb, pb, pc, total):
    """Spread node u's instances with a missing value of j over the bags; return the new total."""
    probs = np.empty(nb, np.float64)
    for b in range(nb):
        if _eq(total, 0.0):
            probs[b] = 1.0 / nb
        else:
            probs[b] = pb[b] / total
    for e in range(seg_s[u], seg_s[u] + seg_n[u]):
        i = ib[e]
        if not math.isnan(X[i, j]):
            continue
        c = y[i]
        wt = wb[e]
        pc[c] = pc[c] + wt
        total = total + wt
        for b in range(nb):
            nw = probs[b] * wt
            pcb[b, c] = pcb[b, c] + nw
            pb[b] = pb[b] + nw
    return total


@numba.njit(cache=True)
def _split_segment(u, j, nvj, sp, nb, frac, X, ib, wb, used, seg_s, seg_n, dst_s, dst_n,
                   fc, pos):
    """Append one segment per branch of node u's segment (ClassifierSplitModel.split).

    Branch b of the split on attribute j gets, in segment order, the
    instances whose value leads there and every instance with a missing value
    whose share ``frac[b]`` exceeds 1e-6, weighted by ``frac[b] * weight``.
    The new segments are recorded in ``dst_s/dst_n[fc + b]``; returns
    ``(ib, wb, used)`` (the buffers may have been enlarged).
    """
    s = seg_s[u]
    L = seg_n[u]
    for b in range(nb):
        pos[b] = 0
    n_miss = 0
    for e in range(s, s + L):
        b = _branch_of(X[ib[e], j], nvj, sp)
        if b >= 0:
            pos[b] += 1
        else:
            n_miss += 1
    if n_miss > 0:
        for b in range(nb):
            if _gr(frac[b], 0.0):
                pos[b] += n_miss
    need = 0
    for b in range(nb):
        need += pos[b]
    ib, wb = _ensure_buffer(ib, wb, used, need)
    start = used
    for b in range(nb):
        cnt = pos[b]
        dst_s[fc + b] = start
        pos[b] = start
        start += cnt
    for e in range(s, s + L):
        i = ib[e]
        b = _branch_of(X[i, j], nvj, sp)
        if b >= 0:
            p = pos[b]
            ib[p] = i
            wb[p] = wb[e]
            pos[b] = p + 1
        else:
            for bb in range(nb):
                if _gr(frac[bb], 0.0):
                    p = pos[bb]
                    ib[p] = i
                    wb[p] = frac[bb] * wb[e]
                    pos[bb] = p + 1
    for b in range(nb):
        dst_n[fc + b] = pos[b] - dst_s[fc + b]
    return ib, wb, used + need


@numba.njit(cache=True)
def _numeric_split(v, j, X, y, ib, wb, seg_s, seg_n, n_classes, min_obj_f, sum_w,
                   vals, cls, wts, pcb, pb, pc):
    """Evaluate J48's binary split of node v on numeric attribute j (C45Split, numeric case).

    Returns ``(valid, info_gain, gain_ratio, split_point)``; for a valid split
    ``pcb``, ``pb``, ``pc`` hold the known-value distribution of the chosen cut.
    """
    C = n_classes
    m = 0
    for e in range(seg_s[v], seg_s[v] + seg_n[v]):
        i = ib[e]
        x = X[i, j]
        if math.isnan(x):
            continue
        vals[m] = x
        cls[m] = y[i]
        wts[m] = wb[e]
        m += 1
    order = np.argsort(vals[:m], kind='mergesort')
    sv = vals[:m][order]
    sc = cls[:m][order]
    sw = wts[:m][order]
    # All known instances start in bag 1.
    for b in range(2):
        pb[b] = 0.0
        for c in range(C):
            pcb[b, c] = 0.0
    for c in range(C):
        pc[c] = 0.0
    total = 0.0
    for t in range(m):
        c = sc[t]
        wt = sw[t]
        pcb[1, c] = pcb[1, c] + wt
        pb[1] = pb[1] + wt
        pc[c] = pc[c] + wt
        total = total + wt
    min_split = 0.1 * total / np.float64(C)
    if _sm_or_eq(min_split, min_obj_f):
        min_split = min_obj_f
    elif _gr(min_split, 25.0):
        min_split = 25.0
    if _sm(np.float64(m), 2.0 * min_split):
        return False, 0.0, 0.0, 0.0
    rv = 0.0
    for c in range(C):
        rv = rv + _xlogx(pc[c])
    default_ent = _xlogx(total) - rv
    unknown_rate = (sum_w - total) / sum_w
    best_gain = 0.0
    split_index = -1
    n_cuts = 0
    last = 0
    for nxt in range(1, m):
        if sv[nxt - 1] + 1e-5 < sv[nxt]:
            for t in range(last, nxt):
                c = sc[t]
                wt = sw[t]
                pcb[1, c] = pcb[1, c] - wt
                pcb[0, c] = pcb[0, c] + wt
                pb[1] = pb[1] - wt
                pb[0] = pb[0] + wt
            if _gr_or_eq(pb[0], min_split) and _gr_or_eq(pb[1], min_split):
                rv = 0.0
                for b in range(2):
                    for c in range(C):
                        rv = rv + _xlogx(pcb[b, c])
                    rv = rv - _xlogx(pb[b])
                num = default_ent - (-rv)
                num = (1.0 - unknown_rate) * num
                if _eq(num, 0.0):
                    gain = 0.0
                else:
                    gain = num / total
                if _gr(gain, best_gain):
                    best_gain = gain
                    split_index = nxt - 1
                n_cuts += 1
            last = nxt
    if n_cuts == 0:
        return False, 0.0, 0.0, 0.0
    # MDL correction of the gain for the choice among n_cuts cut points.
    best_gain = best_gain - (math.log(np.float64(n_cuts)) / _LOG2) / sum_w
    if _sm_or_eq(best_gain, 0.0):
        return False, 0.0, 0.0, 0.0
    sp = (sv[split_index + 1] + sv[split_index]) / 2.0
    if sp == sv[split_index + 1]:
        sp = sv[split_index]
    # The chosen cut's distribution, added range by range (Distribution.addRange).
    for b in range(2):
        pb[b] = 0.0
        for c in range(C):
            pcb[b, c] = 0.0
    for c in range(C):
        pc[c] = 0.0
    total = 0.0
    for b in range(2):
        lo = 0 if b == 0 else split_index + 1
        hi = split_index + 1 if b == 0 else m
        s = 0.0
        for t in range(lo, hi):
            c = sc[t]
            wt = sw[t]
            s = s + wt
            pcb[b, c] = pcb[b, c] + wt
            pc[c] = pc[c] + wt
        pb[b] = pb[b] + s
        total = total + s
    ratio = _gain_ratio(pb, 2, total, sum_w, best_gain)
    return True, best_gain, ratio, sp


@numba.njit(cache=True, inline='always')
def _gain_ratio(pb, nb, known, sum_w, gain):
    """GainRatioSplitCrit: gain / split information (with an "unknown" bag), 0 if trivial."""
    se = 0.0
    if _gr(known, 0.0):
        for b in range(nb):
            se = se - _xlogx(pb[b])
        se = se - _xlogx(sum_w - known)
        se = se + _xlogx(sum_w)
    if _eq(se, 0.0):
        return 0.0
    se = se / sum_w
    return gain / se


@numba.njit(cache=True)
def _select_general(v, X, y, ib, wb, seg_s, seg_n, tot, n_values, off, n_classes, min_obj_f,
                    multi_val, n_all, cnt, bagk, pck, ktot, gain, ratio, valid, spl,
                    npcb, npb, npc, vals, cls, wts, pcb2, pb2, pc2):
    """Return J48's split attribute for node v (or -1), general data (C45ModelSelection).

    Fills the known-value distributions of every attribute: ``cnt/bagk`` per
    nominal (value, class) cell, ``pck/ktot`` the known class weights and
    total per nominal attribute, ``npcb/npb/npc`` the chosen cut's per
    numeric attribute, and ``spl`` the numeric split points.
    """
    n_attr = n_values.shape[0]
    C = n_classes
    V = off[n_attr]
    sum_w = tot[v]
    for k in range(V):
        bagk[k] = 0.0
        for c in range(C):
            cnt[c, k] = 0.0
    for j in range(n_attr):
        ktot[j] = 0.0
        for c in range(C):
            pck[j, c] = 0.0
    for e in range(seg_s[v], seg_s[v] + seg_n[v]):
        i = ib[e]
        wt = wb[e]
        c = y[i]
        for j in range(n_attr):
            if n_values[j] == 0:
                continue
            x = X[i, j]
            if math.isnan(x):
                continue
            k = off[j] + int(x)
            cnt[c, k] = cnt[c, k] + wt
            bagk[k] = bagk[k] + wt
            pck[j, c] = pck[j, c] + wt
            ktot[j] = ktot[j] + wt

    avg = 0.0
    n_valid = 0
    for j in range(n_attr):
        nv = n_values[j]
        if nv == 0:
            ok, ig, gr_, sp = _numeric_split(v, j, X, y, ib, wb, seg_s, seg_n, C, min_obj_f,
                                             sum_w, vals, cls, wts, pcb2, pb2, pc2)
            valid[j] = ok
            if not ok:
                continue
            gain[j] = ig
            ratio[j] = gr_
            spl[j] = sp
            for b in range(2):
                npb[j, b] = pb2[b]
                for c in range(C):
                    npcb[j, b, c] = pcb2[b, c]
            for c in range(C):
                npc[j, c] = pc2[c]
            avg = avg + ig
            n_valid += 1
            continue
        ob = off[j]
        counter = 0
        for b in range(nv):
            if _gr_or_eq(bagk[ob + b], min_obj_f):
                counter += 1
        if counter <= 1:
            valid[j] = False
            continue
        valid[j] = True
        known = ktot[j]
        unknown_rate = (sum_w - known) / sum_w
        rv = 0.0
        for c in range(C):
            rv = rv + _xlogx(pck[j, c])
        old_ent = _xlogx(known) - rv
        rv = 0.0
        for b in range(nv):
            for c in range(C):
                rv = rv + _xlogx(cnt[c, ob + b])
            rv = rv - _xlogx(bagk[ob + b])
        num = old_ent - (-rv)
        num = (1.0 - unknown_rate) * num
        if _eq(num, 0.0):
            ig = 0.0
        else:
            ig = num / known
        gain[j] = ig
        ratio[j] = _gain_ratio(bagk[ob:ob + nv], nv, known, sum_w, ig)
        if multi_val or _sm(np.float64(nv), 0.3 * n_all):
            avg = avg + ig
            n_valid += 1
    if n_valid == 0:
        return -1
    avg = avg / n_valid
    best = -1
    best_ratio = 0.0
    for j in range(n_attr):
        if valid[j] and gain[j] >= avg - 1e-3 and _gr(ratio[j], best_ratio):
            best = j
            best_ratio = ratio[j]
    if _eq(best_ratio, 0.0):
        return -1
    return best


@numba.njit(cache=True)
def _errors_for_branch_general(v, largest, X, y, ib, wb, used, seg_s, seg_n, attr, first, split,
                               n_values, nbr, n_classes, cf, z, tseg_s, tseg_n, ef, sub, stack,
                               pcb, pb, pc, frac, pos, acc):
    """General getEstimatedErrorsForBranch: node v's instances sent down its branch ``largest``.

    Every internal node of the branch's subtree splits the data it receives
    with the distribution of that data (resetDistribution), so missing values
    are spread by the routed data's proportions. Temporary segments are
    appended after ``used``; returns ``(errors, ib, wb)`` and the caller
    drops the temporary segments.
    """
    C = n_classes
    r = first[v] + largest
    tseg_s[r] = seg_s[v]
    tseg_n[r] = seg_n[v]
    n_sub = 0
    sp = 1
    stack[0] = r
    while sp > 0:
        sp -= 1
        u = stack[sp]
        sub[n_sub] = u
        n_sub += 1
        if attr[u] < 0:
            for c in range(C):
                acc[c] = 0.0
            total = 0.0
            for e in range(tseg_s[u], tseg_s[u] + tseg_n[u]):
                acc[y[ib[e]]] += wb[e]
                total += wb[e]
            ef[u] = _est_errors(acc, 0, C, total, cf, z)
            continue
        j = attr[u]
        nb = nbr[j]
        t = _split_distribution(u, j, n_values[j], split[u], nb, X, y, ib, wb, tseg_s, tseg_n,
                                C, pcb, pb, pc)
        for b in range(nb):
            frac[b] = pb[b] / t
        ib, wb, used = _split_segment(u, j, n_values[j], split[u], nb, frac, X, ib, wb, used,
                                      tseg_s, tseg_n, tseg_s, tseg_n, first[u], pos)
        for b in range(nb - 1, -1, -1):
            stack[sp] = first[u] + b
            sp += 1
    for t in range(n_sub - 1, -1, -1):
        u = sub[t]
        if attr[u] >= 0:
            total = 0.0
            for b in range(nbr[attr[u]]):
                total = total + ef[first[u] + b]
            ef[u] = total
    return ef[r], ib, wb


@numba.njit(cache=True)
def _new_distribution_general(v, X, y, ib, wb, used, seg_s, seg_n, attr, first, split, dist, tot,
                              bagw, bagd, empty, n_values, nbr, n_classes, stack, pcb, pb, pc,
                              frac, pos):
    """General newDistribution: re-send node v's instances down its (raised) subtree.

    Internal nodes get the distribution of their new data (resetDistribution)
    and pass it on split by it; leaves get their data's class weights and
    stop being empty when they receive weight. Returns ``(ib, wb, used)``.
    """
    C = n_classes
    sp = 1
    stack[0] = v
    while sp > 0:
        sp -= 1
        u = stack[sp]
        if attr[u] < 0:
            _node_distribution(u, y, ib, wb, seg_s, seg_n, dist, tot, C)
            if not _eq(tot[u], 0.0):
                empty[u] = False
            continue
        j = attr[u]
        nb = nbr[j]
        t = _split_distribution(u, j, n_values[j], split[u], nb, X, y, ib, wb, seg_s, seg_n, C,
                                pcb, pb, pc)
        for c in range(C):
            dist[u * C + c] = pc[c]
        tot[u] = t
        fc = first[u]
        for b in range(nb):
            bagw[fc + b] = pb[b]
            for c in range(C):
                bagd[(fc + b) * C + c] = pcb[b, c]
            frac[b] = pb[b] / t
        ib, wb, used = _split_segment(u, j, n_values[j], split[u], nb, frac, X, ib, wb, used,
                                      seg_s, seg_n, seg_s, seg_n, fc, pos)
        for b in range(nb):
            stack[sp] = fc + b
            sp += 1
    return ib, wb, used


@numba.njit(cache=True)
def _c45_fit_general(X, y, w, n_values, n_classes, confidence, min_obj):
    """(n, a) f8 (NaN = missing), (n,) i8, (n,) f8 weights, (a,) i8 (0 = numeric), i8, f8 CF,
    i8 M -> general tree (attr, first_child, node_class, node_prob, node_dist, split,
    branch_frac, empty, n_sons)."""
    n, n_attr = X.shape
    C = n_classes
    cf, z = _weka_cf(confidence)
    min_obj_f = np.float64(min_obj)

    off = np.zeros(n_attr + 1, np.int64)
    nbr = np.empty(max(n_attr, 1), np.int64)
    max_nb = 2
    multi_val = True
    n_all = np.float64(n)
    for j in range(n_attr):
        nv = n_values[j]
        off[j + 1] = off[j] + nv
        nbr[j] = nv if nv > 0 else 2
        max_nb = max(max_nb, nbr[j])
        if nv == 0 or _sm(np.float64(nv), 0.3 * n_all):
            multi_val = False
    V = off[n_attr]

    # Node capacity: an internal node has >= 2 branches each receiving at
    # least min_obj - 1e-6 of weight, and a split never creates weight.
    m_eff = max(min_obj, 1)
    w_sum = 0.0
    for i in range(n):
        w_sum += w[i]
    cap = (int(w_sum * (1.0 + 1e-9) / (m_eff - 1e-6)) + 2) * max_nb + 1
    attr = np.full(cap, -1, np.int64)
    first = np.full(cap, -1, np.int64)
    seg_s = np.zeros(cap, np.int64)
    seg_n = np.zeros(cap, np.int64)
    tseg_s = np.zeros(cap, np.int64)
    tseg_n = np.zeros(cap, np.int64)
    split = np.full(cap, np.nan)
    dist = np.zeros(cap * C, np.float64)
    tot = np.zeros(cap, np.float64)
    bagw = np.zeros(cap, np.float64)
    bagd = np.zeros(cap * C, np.float64)
    empty = np.zeros(cap, np.bool_)
    serr = np.zeros(cap, np.float64)
    stack = np.empty(cap, np.int64)
    stack2 = np.empty(cap, np.int64)

    # Scratch of the split selection.
    cnt = np.empty((C, max(V, 1)), np.float64)
    bagk = np.empty(max(V, 1), np.float64)
    pck = np.empty((max(n_attr, 1), C), np.float64)
    ktot = np.empty(max(n_attr, 1), np.float64)
    gain = np.zeros(max(n_attr, 1), np.float64)
    ratio = np.zeros(max(n_attr, 1), np.float64)
    valid = np.zeros(max(n_attr, 1), np.bool_)
    spl = np.zeros(max(n_attr, 1), np.float64)
    npcb = np.zeros((max(n_attr, 1), 2, C), np.float64)
    npb = np.zeros((max(n_attr, 1), 2), np.float64)
    npc = np.zeros((max(n_attr, 1), C), np.float64)
    vals = np.empty(n, np.float64)
    cls = np.empty(n, np.int64)
    wts = np.empty(n, np.float64)
    pcb2 = np.empty((2, C), np.float64)
    pb2 = np.empty(2, np.float64)
    pc2 = np.empty(C, np.float64)
    # Scratch of a chosen split's distribution and of the partitions.
    pcb = np.empty((max_nb, C), np.float64)
    pb = np.empty(max_nb, np.float64)
    pc = np.empty(C, np.float64)
    frac = np.empty(max_nb, np.float64)
    pos = np.empty(max_nb, np.int64)

    ib = np.empty(4 * n + 16, np.int64)
    wb = np.empty(4 * n + 16, np.float64)
    for i in range(n):
        ib[i] = i
        wb[i] = w[i]
    used = n
    seg_s[0] = 0
    seg_n[0] = n

    # ---- grow (ClassifierTree.buildTree), depth first
    n_nodes = 1
    sp = 1
    stack[0] = 0
    _node_distribution(0, y, ib, wb, seg_s, seg_n, dist, tot, C)
    while sp > 0:
        sp -= 1
        v = stack[sp]
        total = tot[v]
        best = -1
        if not (_sm(total, 2.0 * min_obj_f)
                or _eq(total, dist[v * C + _max_class(dist, v * C, C)])):
            best = _select_general(v, X, y, ib, wb, seg_s, seg_n, tot, n_values, off, C,
                                   min_obj_f, multi_val, n_all, cnt, bagk, pck, ktot, gain,
                                   ratio, valid, spl, npcb, npb, npc, vals, cls, wts, pcb2, pb2,
                                   pc2)
        if best < 0:
            attr[v] = -1
            empty[v] = _eq(total, 0.0)
            continue
        j = best
        nv = n_values[j]
        nb = nbr[j]
        if n_nodes + nb > cap:
            raise RuntimeError("C4.5 kernel: node capacity exceeded")
        # The split's distribution: known values, then the missing ones spread.
        if nv > 0:
            ob = off[j]
            for b in range(nb):
                pb[b] = bagk[ob + b]
                for c in range(C):
                    pcb[b, c] = cnt[c, ob + b]
            for c in range(C):
                pc[c] = pck[j, c]
            t = ktot[j]
        else:
            for b in range(2):
                pb[b] = npb[j, b]
                for c in range(C):
                    pcb[b, c] = npcb[j, b, c]
            for c in range(C):
                pc[c] = npc[j, c]
            t = (0.0 + pb[0]) + pb[1]
        t = _add_unknown(v, j, nb, X, y, ib, wb, seg_s, seg_n, pcb, pb, pc, t)
        if nv == 0:
            # setSplitPoint: the largest training value not above the cut.
            cut = spl[j]
            new_sp = -1.7976931348623157e308
            for i in range(n):
                x = X[i, j]
                if not math.isnan(x) and _gr(x, new_sp) and _sm_or_eq(x, cut):
                    new_sp = x
            split[v] = new_sp
        attr[v] = j
        fc = n_nodes
        first[v] = fc
        n_nodes += nb
        for c in range(C):
            dist[v * C + c] = pc[c]
        tot[v] = t
        for b in range(nb):
            bagw[fc + b] = pb[b]
            for c in range(C):
                bagd[(fc + b) * C + c] = pcb[b, c]
            frac[b] = pb[b] / t
        ib, wb, used = _split_segment(v, j, nv, split[v], nb, frac, X, ib, wb, used, seg_s,
                                      seg_n, seg_s, seg_n, fc, pos)
        for b in range(nb - 1, -1, -1):
            u = fc + b
            _node_distribution(u, y, ib, wb, seg_s, seg_n, dist, tot, C)
            stack[sp] = u
            sp += 1

    _collapse(attr, first, dist, tot, serr, nbr, C, n_nodes, stack)

    # ---- prune bottom-up with subtree raising
    acc = np.zeros(max(C, 1), np.float64)
    ef = np.zeros(cap, np.float64)
    sub = np.empty(cap, np.int64)
    st_k = np.zeros(cap, np.int64)
    sp = 1
    stack[0] = 0
    st_k[0] = 0
    while sp > 0:
        v = stack[sp - 1]
        if attr[v] < 0:
            serr[v] = _est_errors(dist, v * C, C, tot[v], cf, z)
            sp -= 1
            continue
        nb = nbr[attr[v]]
        k = st_k[sp - 1]
        if k < nb:
            st_k[sp - 1] = k + 1
            stack[sp] = first[v] + k
            st_k[sp] = 0
            sp += 1
            continue
        fc = first[v]
        # Distribution.maxBag of the node's split distribution (last maximum).
        largest = -1
        mx = 0.0
        for b in range(nb):
            if _gr_or_eq(bagw[fc + b], mx):
                mx = bagw[fc + b]
                largest = b
        e_branch, ib, wb = _errors_for_branch_general(
            v, largest, X, y, ib, wb, used, seg_s, seg_n, attr, first, split, n_values, nbr, C,
            cf, z, tseg_s, tseg_n, ef, sub, stack2, pcb, pb, pc, frac, pos, acc)
        e_leaf = _est_errors(dist, v * C, C, tot[v], cf, z)
        e_tree = 0.0
        for b in range(nb):
            e_tree = e_tree + serr[fc + b]
        if _sm_or_eq(e_leaf, e_tree + 0.1) and _sm_or_eq(e_leaf, e_branch + 0.1):
            attr[v] = -1
            serr[v] = e_leaf
            sp -= 1
            continue
        if _sm_or_eq(e_branch, e_tree + 0.1):
            c_big = fc + largest
            attr[v] = attr[c_big]
            first[v] = first[c_big]
            split[v] = split[c_big]
            ib, wb, used = _new_distribution_general(v, X, y, ib, wb, used, seg_s, seg_n, attr,
                                                     first, split, dist, tot, bagw, bagd, empty,
                                                     n_values, nbr, C, stack2, pcb, pb, pc, frac,
                                                     pos)
            st_k[sp - 1] = 0
            continue
        serr[v] = e_tree
        sp -= 1

    return _compact_general(attr, first, split, dist, tot, bagw, bagd, empty, nbr, C)


@numba.njit(cache=True)
def _compact_general(attr, first, split, dist, tot, bagw, bagd, empty, nbr, n_classes):
    """Renumber the reachable general tree breadth first, with its prediction arrays."""
    C = n_classes
    cap = attr.shape[0]
    queue = np.empty(cap, np.int64)
    parent = np.empty(cap, np.int64)
    queue[0] = 0
    parent[0] = -1
    head = 0
    tail = 1
    while head < tail:
        u = queue[head]
        if attr[u] >= 0:
            for b in range(nbr[attr[u]]):
                queue[tail] = first[u] + b
                parent[tail] = head
                tail += 1
        head += 1
    m = tail
    out_attr = np.empty(m, np.int64)
    out_first = np.empty(m, np.int64)
    out_class = np.empty(m, np.int64)
    out_prob = np.zeros((m, C), np.float64)
    out_dist = np.empty((m, C), np.float64)
    out_split = np.full(m, np.nan)
    out_frac = np.ones(m, np.float64)
    out_empty = np.zeros(m, np.bool_)
    out_sons = np.zeros(m, np.int64)
    nxt = 1
    for t in range(m):
        u = queue[t]
        out_attr[t] = attr[u]
        if attr[u] >= 0:
            out_first[t] = nxt
            nxt += nbr[attr[u]]
            out_sons[t] = nbr[attr[u]]
            out_split[t] = split[u]
        else:
            out_first[t] = -1
        for c in range(C):
            out_dist[t, c] = dist[u * C + c]
        if parent[t] >= 0:
            p = queue[parent[t]]
            # C45Split.weights: perBag(i) / total of the parent's distribution.
            out_frac[t] = bagw[u] / tot[p]
        out_empty[t] = attr[u] < 0 and empty[u]
        if out_empty[t] and parent[t] >= 0:
            # C45Split.classProb for an empty son: the parent's bag, or the
            # parent's whole distribution when the bag has no weight.
            p = queue[parent[t]]
            if _gr(bagw[u], 0.0):
                for c in range(C):
                    out_prob[t, c] = bagd[u * C + c] / bagw[u]
            elif not _eq(tot[p], 0.0):
                for c in range(C):
                    out_prob[t, c] = dist[p * C + c] / tot[p]
        elif not _eq(tot[u], 0.0):
            for c in range(C):
                out_prob[t, c] = dist[u * C + c] / tot[u]
        best = 0
        mx = -1.0
        for c in range(C):
            if _gr(out_prob[t, c], mx):
                mx = out_prob[t, c]
                best = c
        out_class[t] = best
    return (out_attr, out_first, out_class, out_prob, out_dist, out_split, out_frac, out_empty,
            out_sons)


@numba.njit(cache=True)
def _c45_proba_row(tree, X, i, out, st_node, st_w, st_k, st_acc):
    """Class probabilities of row i as ClassifierTree.getProbs (sums in J48's order) into out.

    Known values lead down one branch (an empty leaf answers with its
    parent's bag, as C45Split.classProb); at a missing value the instance
    goes down every non-empty son with weight ``branch_frac * weight`` and
    the sons' answers are summed in branch order. The recursion runs on an
    explicit stack of such nodes (``st_*``, one row per open node).
    """
    attr = tree[0]
    first = tree[1]
    node_prob = tree[3]
    split = tree[5]
    frac = tree[6]
    empty = tree[7]
    n_sons = tree[8]
    C = node_prob.shape[1]
    sp = 0
    u = 0
    wt = 1.0
    while True:
        # Follow known values down to a leaf or to a node with a missing value.
        while attr[u] >= 0:
            x = X[i, attr[u]]
            if math.isnan(x):
                break
            if math.isnan(split[u]):
                u = first[u] + int(x)
            elif _sm_or_eq(x, split[u]):
                u = first[u]
            else:
                u = first[u] + 1
        if attr[u] >= 0:
            st_node[sp] = u
            st_w[sp] = wt
            st_k[sp] = 0
            for c in range(C):
                st_acc[sp, c] = 0.0
            sp += 1
        else:
            # A leaf answers weight * its class probabilities.
            if sp == 0:
                for c in range(C):
                    out[c] = wt * node_prob[u, c]
                return
            for c in range(C):
                st_acc[sp - 1, c] = st_acc[sp - 1, c] + wt * node_prob[u, c]
        # Move the innermost open node on to its next non-empty son; a node
        # whose sons are all done adds its sum to the enclosing one.
        while True:
            f = sp - 1
            p = st_node[f]
            k = st_k[f]
            while k < n_sons[p] and empty[first[p] + k]:
                k += 1
            if k < n_sons[p]:
                st_k[f] = k + 1
                u = first[p] + k
                wt = frac[u] * st_w[f]
                break
            sp -= 1
            if sp == 0:
                for c in range(C):
                    out[c] = st_acc[f, c]
                return
            for c in range(C):
                st_acc[sp - 1, c] = st_acc[sp - 1, c] + st_acc[f, c]


@numba.njit(cache=True)
def _c45_predict_proba_general(tree, X):
    """general tree, (n_test, a) f8 (NaN = missing) -> (n_test, C) f8: J48's distributionForInstance.

    Not normalised: when a missing value spreads an instance over branches
    that include empty leaves, J48 skips them and the row sums to less than 1.
    """
    m = tree[0].shape[0]
    C = tree[3].shape[1]
    out = np.empty((X.shape[0], C), np.float64)
    st_node = np.empty(m, np.int64)
    st_w = np.empty(m, np.float64)
    st_k = np.empty(m, np.int64)
    st_acc = np.empty((m, C), np.float64)
    for i in range(X.shape[0]):
        _c45_proba_row(tree, X, i, out[i], st_node, st_w, st_k, st_acc)
    return out


@numba.njit(cache=True)
def _c45_predict_general(tree, X):
    """general tree, (n_test, a) f8 -> (n_test,) i8: ClassifierTree.classifyInstance
    (first class whose probability exceeds the best so far by 1e-6, from -1)."""
    proba = _c45_predict_proba_general(tree, X)
    out = np.empty(X.shape[0], np.int64)
    for i in range(X.shape[0]):
        best = 0
        mx = -1.0
        for c in range(proba.shape[1]):
            if _gr(proba[i, c], mx):
                mx = proba[i, c]
                best = c
        out[i] = best
    return out


@numba.njit(cache=True)
def _c45_size_general(tree):
    """general tree -> (i8 n_nodes, i8 n_leaves), J48's "Size of the tree" and "Number of Leaves"."""
    attr = tree[0]
    n_leaves = 0
    for u in range(attr.shape[0]):
        if attr[u] < 0:
            n_leaves += 1
    return attr.shape[0], n_leaves
