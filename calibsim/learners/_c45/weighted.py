"""Private numba kernels: C4.5 (Weka 3.6 J48) on nominal data with instance weights.

The reference implementation of the nominal path: the training instances of a
node are a *segment* of a work buffer of (instance index, weight) pairs. A
split appends one new segment per branch to the end of the buffer, in the
original instance order (as Weka's ``Instances`` splits do), so the segment of
every node stays valid for subtree raising, and an instance could later be
sent to several branches. The unit-weight kernels of
:mod:`.bitset` build the same trees faster; the
general path (:mod:`.general`) reuses the
segment helpers.
"""

from __future__ import annotations

import numba
import numpy as np

from .criterion import _eq, _est_errors, _sm, _weka_cf, _xlogx
from .predictor import _compact
from .pruning import (_collapse, _largest_branch, _next_to_prune, _preorder, _prune_node,
                      _subtree_sums)
from .splitting import _can_split, _choose_from_terms


@numba.njit(cache=True)
def _ensure_buffer(ib, wb, used, need):
    """(m,) i8, (m,) f8, i8, i8 -> (i8 buffer, f8 buffer) with capacity >= used + need."""
    cap = ib.shape[0]
    if used + need <= cap:
        return ib, wb
    new_cap = max(2 * cap, used + need)
    ib2 = np.empty(new_cap, np.int64)
    wb2 = np.empty(new_cap, np.float64)
    for e in range(used):          # a loop, not a slice copy: no shape check to compile
        ib2[e] = ib[e]
        wb2[e] = wb[e]
    return ib2, wb2


@numba.njit(cache=True, _nrt=False)
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
    n_sub = _preorder(r, attr, first, n_values, stack, sub)
    for t in range(n_sub):
        u = sub[t]
        acc_tot[u] = tot[u]
        for c in range(C):
            acc[u * C + c] = dist[u * C + c]
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
    for t in range(n_sub):
        u = sub[t]
        if attr[u] < 0:
            ef[u] = _est_errors(acc, u * C, C, acc_tot[u], cf, z)
    # Children come after their parent in pre-order, so a reverse sweep sums bottom-up.
    _subtree_sums(sub, n_sub, attr, first, n_values, ef)
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
    n_nodes = np.int64(1)      # not a literal: callees compile once (see calibsim.learners._c45)
    sp = 1
    stack[0] = 0
    _node_distribution(0, y, ib, wb, seg_s, seg_n, dist, tot, C)
    while sp > 0:
        sp -= 1
        v = stack[sp]
        total = tot[v]
        best = -1
        if _can_split(dist, tot, v, C, min_obj_f):
            best = _select_split(v, onehot, y, ib, wb, seg_s, seg_n, dist, tot, n_values, off, C,
                                 min_obj_f, multi_val, n_all, cnt, bag, xcnt, xbag, gain, ratio,
                                 valid)
        attr[v] = best                # -1: a leaf
        if best < 0:
            empty[v] = _eq(total, 0.0)
            continue
        nv = n_values[best]
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
        v, sp = _next_to_prune(attr, n_values, first, stack, st_k, sp)
        e_leaf = _est_errors(dist, v * C, C, tot[v], cf, z)
        if attr[v] < 0:
            serr[v] = e_leaf
            sp -= 1
            continue
        largest = _largest_branch(tot, first[v], n_values[attr[v]])
        e_branch = _errors_for_branch(v, largest, X, y, ib, wb, seg_s, seg_n, attr, first, dist,
                                      tot, n_values, C, cf, z, acc, acc_tot, ef, sub, stack2)
        after = _prune_node(v, largest, e_leaf, e_branch, n_values, attr, first, serr, st_k, sp)
        if after == sp:
            # The largest branch raised: all of v's instances are re-sent down.
            ib, wb, used = _new_distribution(v, X, y, ib, wb, used, seg_s, seg_n, attr, first,
                                             dist, tot, empty, n_values, C, pos, stack2)
        sp = after

    return _compact(attr, first, dist, tot, empty, n_values, C)
