"""Private numba kernels for C4.5 as implemented by Weka 3.6's J48.

The kernels reproduce J48 with its default options on nominal attributes:
multiway splits chosen by gain ratio among the splits whose information gain
is at least the average gain, Weka's ``Utils`` tolerances (1e-6), collapsing,
error-based pruning with ``Stats.addErrs`` and subtree raising, and Weka's
treatment of empty branches at prediction time. They are written from the
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

The kernels do no input checking; the public :class:`calibsim.learners.C45`
validates its inputs.
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


@numba.njit(cache=True)
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

@numba.njit(cache=True)
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


@numba.njit(cache=True)
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
    n_attr = n_values.shape[0]
    C = n_classes
    V = onehot.shape[1]
    cnt[:, :] = 0.0
    for e in range(seg_s[v], seg_s[v] + seg_n[v]):
        wt = wb[e]
        i = ib[e]
        row = cnt[y[i]]
        src = onehot[i]
        for k in range(V):
            row[k] += wt * src[k]
    # Entropy terms of every cell and branch, each computed once per node.
    for k in range(V):
        s = 0.0
        for c in range(C):
            s += cnt[c, k]
            xcnt[c, k] = _xlogx(cnt[c, k])
        bag[k] = s
        xbag[k] = _xlogx(s)
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

    # ---- collapse: a subtree that does not reduce training errors by more
    # than 1e-3 becomes a leaf. Children have larger indices than parents.
    terr = serr  # reuse as scratch; overwritten by pruning below
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


@numba.njit(cache=True)
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
    w = np.ones(X.shape[0], np.float64)
    return _c45_fit_weighted(X, y, w, n_values, n_classes, confidence, min_obj)


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
