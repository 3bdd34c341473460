"""Private numba kernels: C4.5 (Weka 3.6 J48) with numeric attributes and missing values.

Grows, collapses and prunes the general tree; the split selection is in
:mod:`.general_splitting` (the layout in the comment there),
the compact tree and its predictions in
:mod:`.predictor`.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from .criterion import _eq, _est_errors, _sm, _weka_cf, _xlogx
from .general_splitting import (
    _add_unknown, _branch_of, _ensure_lists, _mark_node, _numeric_splits, _partition_lists,
    _presort_numeric, _root_lists, _select_general, _split_distribution, _split_point,
    _split_segment,
)
from .predictor import _compact_general
from .pruning import (_collapse, _largest_branch, _next_to_prune, _preorder, _prune_node,
                      _subtree_sums)
from .splitting import _can_split
from .weighted import _ensure_buffer, _node_distribution


@numba.njit(cache=True, _nrt=False)
def _errors_for_branch_general(v, largest, X, y, ib, wb, used, seg_s, seg_n, attr, first, split,
                               n_values, nbr, n_classes, cf, z, tseg_s, tseg_n, ef, sub, stack,
                               pcb, pb, pc, frac, pos, acc):
    """General getEstimatedErrorsForBranch: node v's instances sent down its branch ``largest``.

    Every internal node of the branch's subtree splits the data it receives
    with the distribution of that data (resetDistribution), so missing values
    are spread by the routed data's proportions. Temporary segments are
    appended after ``used`` and dropped by the caller; returns the errors, or -1.0 when
    the buffers ``ib``, ``wb`` are too short for them (the caller enlarges them and calls
    again). Compiled without numba's reference counting (``_nrt=False``: it allocates
    nothing), so a call does not increment and decrement the count of each of its arrays.
    """
    C = n_classes
    r = first[v] + largest
    tseg_s[r] = seg_s[v]
    tseg_n[r] = seg_n[v]
    n_sub = _preorder(r, attr, first, nbr, stack, sub)
    for t in range(n_sub):
        u = sub[t]
        if attr[u] < 0:
            for c in range(C):
                acc[c] = 0.0
            total = 0.0
            for e in range(tseg_s[u], tseg_s[u] + tseg_n[u]):
                acc[y[ib[e]]] += wb[e]
                total += wb[e]
            ef[u] = _est_errors(acc, np.int64(0), C, total, cf, z)
            continue
        j = attr[u]
        nb = nbr[j]
        t = _split_distribution(u, j, n_values[j], split[u], nb, X, y, ib, wb, tseg_s, tseg_n,
                                C, pcb, pb, pc, frac)
        for b in range(nb):
            frac[b] = pb[b] / t
        used = _split_segment(u, j, n_values[j], split[u], nb, frac, X, ib, wb, used,
                                 tseg_s, tseg_n, tseg_s, tseg_n, first[u], pos)
        if used < 0:
            return -1.0
    _subtree_sums(sub, n_sub, attr, first, nbr, ef)
    return ef[r]


@numba.njit(cache=True, _nrt=False)
def _errors_for_branch_unit(v, largest, X, y, ib, seg_s, seg_n, attr, first, split, n_values,
                            nbr, dist, n_classes, cf, z, ef, sub, stack, lacc):
    """:func:`_errors_for_branch_general` when every weight is 1 and nothing is missing.

    Nothing is then spread, so the branch's nodes need not get their routed data's
    distributions nor segments: a leaf's errors come from the class counts of the
    instances that reach it (``lacc``, (cap * C,) f8 scratch), the same floats, all
    being whole numbers, as summing their weights. The branch's own instances reach the
    leaves that hold them (each node's instances are its parent's routed by the parent's
    split: so they were grown, and so raising re-sends them), counted in ``dist``; the
    instances of v's other branches are walked down to their leaves. Compiled without
    numba's reference counting (``_nrt=False``: it allocates nothing).
    """
    C = n_classes
    fc = first[v]
    r = fc + largest
    n_sub = _preorder(r, attr, first, nbr, stack, sub)
    for t in range(n_sub):
        u = sub[t]
        if attr[u] < 0:
            for c in range(C):
                lacc[u * C + c] = dist[u * C + c]
    for b in range(nbr[attr[v]]):
        if b == largest:
            continue
        for e in range(seg_s[fc + b], seg_s[fc + b] + seg_n[fc + b]):
            i = ib[e]
            u = r
            while attr[u] >= 0:
                j = attr[u]
                u = first[u] + _branch_of(X[i, j], n_values[j], split[u])
            lacc[u * C + y[i]] += 1.0
    for t in range(n_sub):
        u = sub[t]
        if attr[u] < 0:
            total = 0.0
            for c in range(C):
                total += lacc[u * C + c]
            ef[u] = _est_errors(lacc, u * C, C, total, cf, z)
    _subtree_sums(sub, n_sub, attr, first, nbr, ef)
    return ef[r]


@numba.njit(cache=True, _nrt=False)
def _new_distribution_general(v, X, y, ib, wb, used, seg_s, seg_n, attr, first, split, dist, tot,
                              bagw, bagd, empty, n_values, nbr, n_classes, stack, pcb, pb, pc,
                              frac, pos):
    """General newDistribution: re-send node v's instances down its (raised) subtree.

    Internal nodes get the distribution of their new data (resetDistribution)
    and pass it on split by it; leaves get their data's class weights and
    stop being empty when they receive weight. Returns the new used length of ``ib``,
    ``wb``, or -1 when they are too short (the caller enlarges them and calls again: a
    second call sets what the first did). Compiled without numba's reference counting
    (``_nrt=False``: it allocates nothing).
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
                                pcb, pb, pc, frac)
        for c in range(C):
            dist[u * C + c] = pc[c]
        tot[u] = t
        fc = first[u]
        for b in range(nb):
            bagw[fc + b] = pb[b]
            for c in range(C):
                bagd[(fc + b) * C + c] = pcb[b, c]
            frac[b] = pb[b] / t
        used = _split_segment(u, j, n_values[j], split[u], nb, frac, X, ib, wb, used,
                                 seg_s, seg_n, seg_s, seg_n, fc, pos)
        if used < 0:
            return used
        for b in range(nb):
            stack[sp] = fc + b
            sp += 1
    return used


def _c45_fit_general(X, y, w, n_values, n_classes, confidence, min_obj):
    """(n, a) f8 (NaN = missing), (n,) i8, (n,) f8 weights, (a,) i8 (0 = numeric), i8, f8 CF,
    i8 M -> general tree (attr, first_child, node_class, node_prob, node_dist, split,
    branch_frac, empty, n_sons).

    Runs :func:`_c45_fit_general_kernel` specialised for the data: without the
    numeric split search when no attribute is numeric (it compiles in about
    two thirds of the time, which a first run on nominal data waits for).
    """
    numeric = True if (np.asarray(n_values) == 0).any() else None
    return _c45_fit_general_kernel(X, y, w, n_values, n_classes, confidence, min_obj, numeric)


@numba.njit(cache=True)
def _c45_fit_general_kernel(X, y, w, n_values, n_classes, confidence, min_obj, numeric):
    """:func:`_c45_fit_general`; ``numeric`` is None (no numeric attribute: the numeric
    split search is compiled out) or True."""
    return _c45_fit_rows(X, y, w, np.arange(X.shape[0]), _presort(X, n_values, numeric),
                         n_values, n_classes, confidence, min_obj, numeric)


@numba.njit(cache=True)
def _presort(X, n_values, numeric):
    """:func:`.general_splitting._presort_numeric` of ``X``, or empty arrays of its types when
    ``numeric`` is None (no numeric attribute)."""
    if numeric is None:
        return (np.full(1, -1, np.int64), np.empty((1, 0), np.int64),
                np.empty((1, 0), np.float64), np.zeros(1, np.int64))
    return _presort_numeric(X, n_values)


@numba.njit(cache=True)
def _c45_fit_rows(X, y, w, rows, presort, n_values, n_classes, confidence, min_obj, numeric):
    """J48 on the instances ``rows`` (ascending) of ``X``: the tree of
    :func:`_c45_fit_general` on ``X[rows]``, ``y[rows]``, ``w[rows]``, bit for bit.

    ``presort`` is :func:`_presort` of all of ``X``: a fold's training set (the rows)
    reads its sorted numeric values from the data set's one sort, and no rows are
    copied (:func:`calibsim.evaluate._kernels._evaluate_general` fits every fold of
    a data set on one presort).
    """
    n_full, n_attr = X.shape
    n = rows.shape[0]
    C = n_classes
    cf, z = _weka_cf(confidence)
    min_obj_f = np.float64(min_obj)

    off = np.zeros(n_attr + 1, np.int64)
    nbr = np.empty(max(n_attr, 1), np.int64)
    max_nb = 2
    multi_val = np.bool_(True)      # not a literal: _select_general compiles once
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
    for e in range(n):
        w_sum += w[rows[e]]
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
    # Scratch of a chosen split's distribution and of the partitions.
    pcb = np.empty((max_nb, C), np.float64)
    pb = np.empty(max_nb, np.float64)
    pc = np.empty(C, np.float64)
    frac = np.empty(max_nb, np.float64)
    pos = np.empty(max_nb, np.int64)

    ib = np.empty(4 * n + 16, np.int64)
    wb = np.empty(4 * n + 16, np.float64)
    for e in range(n):
        ib[e] = rows[e]
        wb[e] = w[rows[e]]
    used = n
    seg_s[0] = 0
    seg_n[0] = n

    # The sorted lists of the nodes being grown (see general_splitting._partition_lists;
    # none when no attribute is numeric): the root's from the presort.
    prow, psi, _, nknown = presort
    r = 0
    if numeric is not None:
        for j in range(n_attr):
            if prow[j] >= 0:
                r += 1
    ps_s = np.empty((cap, r), np.int64)     # written for a node before its lists are read
    ps_n = np.empty((cap, r), np.int64)
    blk_end = np.zeros(cap, np.int64)
    psb = np.empty(max(2 * n * r, 1), np.int64)
    top = np.int64(0)
    if numeric is not None:
        psb, top = _root_lists(rows, prow, psi, nknown, psb, ps_s, ps_n,
                               np.zeros(n_full, np.bool_))
    blk_end[0] = top
    where = np.empty(n_full, np.int64)
    # Unit weights (no missing value, every weight 1): every weight sum is a count, so the
    # numeric split search scans integer counts and needs no positions (``where`` then
    # holds each instance's branch for _partition_lists); nothing missing is spread.
    unit = np.bool_(numeric is not None)
    for e in range(n):
        i = rows[e]
        if w[i] != 1.0:
            unit = False
        for j in range(n_attr):
            if math.isnan(X[i, j]):
                unit = False
    xtab = np.zeros(n + 1 if unit else 1, np.float64)
    if unit:
        for k in range(1, n + 1):
            xtab[k] = _xlogx(np.float64(k))
    kpre = np.zeros((n + 1 if unit else 1, C), np.int64)
    n_nom = 0
    for j in range(n_attr):
        if n_values[j] != 0:
            n_nom += 1
    kx = np.empty((n_full if unit else 1, n_nom if unit else 0), np.int64)
    if unit:                # each instance's cells of the nominal attributes
        for e in range(n):
            i = rows[e]
            q = 0
            for j in range(n_attr):
                if n_values[j] != 0:
                    kx[i, q] = off[j] + int(X[i, j])
                    q += 1
    sizes = np.zeros(max_nb, np.int64)
    sv = np.empty(n, np.float64)
    sc = np.empty(n, np.int64)
    sw = np.empty(n, np.float64)

    # ---- grow (ClassifierTree.buildTree), depth first
    n_nodes = np.int64(1)      # not a literal: callees compile once (see calibsim.learners._c45)
    sp = 1
    stack[0] = 0
    _node_distribution(np.int64(0), y, ib, wb, seg_s, seg_n, dist, tot, C)
    while sp > 0:
        sp -= 1
        v = stack[sp]
        total = tot[v]
        best = -1
        top = blk_end[v]          # later blocks: lists of subtrees already grown
        if _can_split(dist, tot, v, C, min_obj_f):
            # The numeric attributes' splits (compiled out when none is numeric), then the
            # nominal ones' and the choice.
            if numeric is not None:
                if not unit:
                    _mark_node(v, ib, seg_s, seg_n, where)
                _numeric_splits(v, X, y, wb, n_values, C, min_obj_f, total, npcb, npb, npc,
                                gain, ratio, spl, valid, prow, psb, ps_s, ps_n, where, sv, sc,
                                sw, unit, xtab, kpre)
            best = _select_general(v, X, y, ib, wb, seg_s, seg_n, tot, n_values, off, C,
                                   min_obj_f, multi_val, n_all, cnt, bagk, pck, ktot, gain,
                                   ratio, valid, unit, xtab, kx)
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
        if not unit:                      # with unit weights no value is missing
            t = _add_unknown(v, j, nb, X, y, ib, wb, seg_s, seg_n, pcb, pb, pc, t, frac)
        if nv == 0:
            # setSplitPoint: the largest training value not above the cut.
            t0 = prow[j]
            split[v] = _split_point(spl[j], j, X, rows, psb, ps_s[0, t0], ps_n[0, t0])
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
        if numeric is not None:
            new = _partition_lists(v, j, nv, split[v], nb, frac, X, fc, psb, top, ps_s, ps_n,
                                   pos, unit, where, sizes)
            while new < 0:          # buffer full: enlarge it and hand the lists down again
                psb = _ensure_lists(psb, 2 * psb.shape[0])
                new = _partition_lists(v, j, nv, split[v], nb, frac, X, fc, psb, top, ps_s,
                                       ps_n, pos, unit, where, sizes)
            top = new
        new = _split_segment(v, j, nv, split[v], nb, frac, X, ib, wb, used, seg_s, seg_n, seg_s,
                             seg_n, fc, pos)
        if new < 0:                 # buffers full: enlarge them and split again
            ib, wb = _ensure_buffer(ib, wb, used, -1 - new)
            new = _split_segment(v, j, nv, split[v], nb, frac, X, ib, wb, used, seg_s, seg_n,
                                 seg_s, seg_n, fc, pos)
        used = new
        for b in range(nb - 1, -1, -1):
            u = fc + b
            blk_end[u] = top
            _node_distribution(u, y, ib, wb, seg_s, seg_n, dist, tot, C)
            stack[sp] = u
            sp += 1

    _collapse(attr, first, dist, tot, serr, nbr, C, n_nodes, stack)

    # ---- prune bottom-up with subtree raising
    acc = np.zeros(max(C, 1), np.float64)
    lacc = np.zeros(cap * C if unit else 1, np.float64)
    ef = np.zeros(cap, np.float64)
    sub = np.empty(cap, np.int64)
    st_k = np.zeros(cap, np.int64)
    sp = 1
    stack[0] = 0
    st_k[0] = 0
    while sp > 0:
        v, sp = _next_to_prune(attr, nbr, first, stack, st_k, sp)
        e_leaf = _est_errors(dist, v * C, C, tot[v], cf, z)
        if attr[v] < 0:
            serr[v] = e_leaf
            sp -= 1
            continue
        fc = first[v]
        # Distribution.maxBag of the node's split distribution (last maximum).
        largest = _largest_branch(bagw, fc, nbr[attr[v]])
        if unit:
            e_branch = _errors_for_branch_unit(v, largest, X, y, ib, seg_s, seg_n, attr, first,
                                               split, n_values, nbr, dist, C, cf, z, ef, sub,
                                               stack2, lacc)
        else:
            e_branch = _errors_for_branch_general(
                v, largest, X, y, ib, wb, used, seg_s, seg_n, attr, first, split, n_values, nbr,
                C, cf, z, tseg_s, tseg_n, ef, sub, stack2, pcb, pb, pc, frac, pos, acc)
        while e_branch < 0.0:       # buffers too short for the branch's temporary segments
            ib, wb = _ensure_buffer(ib, wb, used, ib.shape[0])
            e_branch = _errors_for_branch_general(
                v, largest, X, y, ib, wb, used, seg_s, seg_n, attr, first, split, n_values,
                nbr, C, cf, z, tseg_s, tseg_n, ef, sub, stack2, pcb, pb, pc, frac, pos, acc)
        after = _prune_node(v, largest, e_leaf, e_branch, nbr, attr, first, serr, st_k, sp)
        if after == sp:
            # The largest branch raised: its threshold too, and v's instances re-sent down.
            split[v] = split[fc + largest]
            new = _new_distribution_general(v, X, y, ib, wb, used, seg_s, seg_n, attr, first,
                                            split, dist, tot, bagw, bagd, empty, n_values, nbr,
                                            C, stack2, pcb, pb, pc, frac, pos)
            while new < 0:          # buffers too short: enlarge them and re-send
                ib, wb = _ensure_buffer(ib, wb, used, ib.shape[0])
                new = _new_distribution_general(v, X, y, ib, wb, used, seg_s, seg_n, attr,
                                                first, split, dist, tot, bagw, bagd, empty,
                                                n_values, nbr, C, stack2, pcb, pb, pc, frac, pos)
            used = new
        sp = after

    return _compact_general(attr, first, split, dist, tot, bagw, bagd, empty, nbr, C)
