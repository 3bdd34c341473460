"""Private numba kernels shared by the C4.5 (Weka 3.6 J48) paths.

Weka's tolerant comparisons (``weka.core.Utils``), the entropy term of J48's
split criteria, the pessimistic error estimate (``Stats.addErrs``), the choice
of a split from its entropy terms (``C45ModelSelection``), collapsing
(``ClassifierTree.collapse``), the nominal tree's compact layout and
prediction, and the bitset primitives of the unit-weight path. See :mod:`calibsim.learners._kernels_c45` for the data layout.
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
# Bitsets of instances (the unit-weight path)
# --------------------------------------------------------------------------

@numba.njit(cache=True, inline='always')
def _mask_word(mask, w):
    """(n,) b1, i8 -> (u8, u8): word w of the bitset of ``mask`` (bit t = mask[64 w + t])
    and the word of its valid bits (all ones but in a short last word)."""
    n = mask.shape[0]
    i0 = 64 * w
    m = min(64, n - i0)
    word = np.uint64(0)
    for t in range(m):
        word |= np.uint64(mask[i0 + t]) << np.uint64(t)
    full = ~np.uint64(0) if m == 64 else (np.uint64(1) << np.uint64(m)) - np.uint64(1)
    return word, full


@intrinsic
def _popcount(typingctx, x):
    """u8 -> i8: number of set bits (LLVM ctpop: one POPCNT instruction on x86-64)."""
    if not isinstance(x, types.Integer) or x.bitwidth != 64 or x.signed:
        return None
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return sig, codegen


@intrinsic
def _lowest_bit(typingctx, x):
    """u8 (non-zero) -> i8: index of the lowest set bit (LLVM cttz: one TZCNT instruction)."""
    if not isinstance(x, types.Integer) or x.bitwidth != 64 or x.signed:
        return None
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], context.get_constant(types.boolean, True))
    return sig, codegen


@numba.njit(cache=True, inline='always')
def _class_counts_bits(masks, u, cmask, dist, o, n_classes):
    """Set dist[o:o+C] to the class counts of bitset ``masks[u]`` (as float64); return the total."""
    W = masks.shape[1]
    total = 0
    for c in range(n_classes):
        k = 0
        for w in range(W):
            k += _popcount(masks[u, w] & cmask[c, w])
        dist[o + c] = np.float64(k)
        total += k
    return total


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


@numba.njit(cache=True)
def _est_errors(dist, o, n_classes, total, cf, z):
    """(m,) f8 counts at offset o, i8 C, f8 total, f8 CF, f8 z -> f8: errors + addErrs (0 if empty)."""
    if _eq(total, 0.0):
        return 0.0
    e = total - dist[o + _max_class(dist, o, n_classes)]
    return e + _add_errs_z(total, e, cf, z)


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
    return _largest_gain_ratio(n_attr, valid, gain, ratio, avg / n_valid)


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


@numba.njit(cache=True, inline='always')
def _largest_gain_ratio(n_attr, valid, gain, ratio, avg):
    """C45ModelSelection's last step: the valid attribute with the largest gain ratio among
    those whose gain is at least the average gain ``avg`` (less 1e-3), or -1 when that
    ratio is 0. ``valid``, ``gain`` and ``ratio`` have (at least) n_attr entries."""
    best = -1
    best_ratio = 0.0
    for j in range(n_attr):
        if valid[j] and gain[j] >= avg - 1e-3 and _gr(ratio[j], best_ratio):
            best = j
            best_ratio = ratio[j]
    if _eq(best_ratio, 0.0):
        return -1
    return best


@numba.njit(cache=True, inline='always')
def _breadth_first(attr, first, n_branches):
    """(N,) i8 split attribute or -1, (N,) i8 first child, (a,) i8 branches per attribute
    -> (queue, parent, m): the m nodes reachable from node 0 in breadth-first order
    (``queue[:m]``) and the queue position of each one's parent (-1 for the root)."""
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
            for b in range(n_branches[attr[u]]):
                queue[tail] = first[u] + b
                parent[tail] = head
                tail += 1
        head += 1
    return queue, parent, tail


@numba.njit(cache=True, inline='always')
def _compact(attr, first, dist, tot, empty, n_values, n_classes):
    """Renumber the reachable tree breadth first and attach the leaf predictions."""
    C = n_classes
    queue, parent, m = _breadth_first(attr, first, n_values)
    out_attr = np.empty(m, np.int64)
    out_first = np.empty(m, np.int64)
    out_class = np.empty(m, np.int64)
    out_prob = np.empty((m, C), np.float64)
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
        p = queue[parent[t]] if parent[t] >= 0 else -1
        out_class[t] = _node_prediction(dist, tot, empty, u, p, C, out_prob[t])
    return out_attr, out_first, out_class, out_prob, out_dist


@numba.njit(cache=True, inline='always')
def _node_prediction(dist, tot, empty, u, p, n_classes, prob):
    """Class J48 predicts at node u, whose parent is p (-1 at the root); its
    class probabilities go to ``prob`` (C,) f8.

    Probabilities as ClassifierTree.getProbs: an empty leaf falls back to its
    parent's distribution (its own branch has no weight). The class as
    ClassifierTree.classifyInstance: the first class with a larger probability
    (tolerance 1e-6), starting from -1; an all-zero row gives class 0.
    """
    C = n_classes
    src = u
    if empty[u] and p >= 0 and not _gr(tot[u], 0.0):
        src = p
    for c in range(C):
        prob[c] = 0.0
    if not _eq(tot[src], 0.0):
        for c in range(C):
            prob[c] = dist[src * C + c] / tot[src]
    best = 0
    mx = -1.0
    for c in range(C):
        if _gr(prob[c], mx):
            mx = prob[c]
            best = c
    return best


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
