"""Private numba kernels: the split selection of C4.5's general path.

Numeric attributes (binary splits at a cut point) and missing values
(fractional instances) as Weka 3.6's J48 handles them; the tree is grown and
pruned by :mod:`.general`.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from .criterion import _LOG2, _eq, _gr, _gr_or_eq, _sm, _sm_or_eq, _xlogx
from .splitting import _enough_branches, _in_average, _info_gain, _largest_gain_ratio
from .weighted import _ensure_buffer


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
#   attributes). The node's instances with a known value are sorted (read from
#   the node's sorted list, handed down from one stable sort of each numeric
#   attribute: see ``_partition_lists``); candidate
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


@numba.njit(cache=True, inline='always')
def _clear_distribution(pcb, pb, pc, nb):
    """Zero a split's distribution: ``pcb`` (nb, C) per bag and class, ``pb`` (nb,) per bag
    and ``pc`` (C,) per class."""
    for b in range(nb):
        pb[b] = 0.0
        for c in range(pc.shape[0]):
            pcb[b, c] = 0.0
    for c in range(pc.shape[0]):
        pc[c] = 0.0


@numba.njit(cache=True, _nrt=False)
def _split_distribution(u, j, nvj, sp, nb, X, y, ib, wb, seg_s, seg_n, n_classes, pcb, pb, pc,
                        probs):
    """Distribution of node u's segment over the nb branches of attribute j (resetDistribution).

    Known values are added in segment order, then every instance with a
    missing value is spread over the bags in proportion to the known bag
    weights (addInstWithUnknown). Fills ``pcb`` (nb, C), ``pb`` (nb,),
    ``pc`` (C,) and returns the total weight; ``probs`` is (nb,) f8 scratch.
    """
    _clear_distribution(pcb, pb, pc, nb)
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
        total = _add_unknown(u, j, nb, X, y, ib, wb, seg_s, seg_n, pcb, pb, pc, total, probs)
    return total


@numba.njit(cache=True, _nrt=False)
def _add_unknown(u, j, nb, X, y, ib, wb, seg_s, seg_n, pcb, pb, pc, total, probs):
    """Spread node u's instances with a missing value of j over the bags; return the new total.
    ``probs`` is (nb,) f8 scratch (the bags' shares of the known weight)."""
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


@numba.njit(cache=True, inline='always')
def _branch_sizes(idx, s, L, X, j, nvj, sp, nb, frac, pos):
    """How many entries each branch of the split on attribute j at ``sp`` receives from
    ``idx[s : s + L]``: ``pos[b]`` for branch b (a missing value of j counts for every
    branch whose share ``frac[b]`` exceeds 1e-6); returns their total. Written once for
    the instances of a segment (:func:`_split_segment`) and a node's sorted lists
    (:func:`_partition_lists`)."""
    for b in range(nb):
        pos[b] = 0
    n_miss = 0
    for e in range(s, s + L):
        b = _branch_of(X[idx[e], j], nvj, sp)
        if b >= 0:
            pos[b] += 1
        else:
            n_miss += 1
    if n_miss > 0:
        for b in range(nb):
            if _gr(frac[b], 0.0):
                pos[b] += n_miss
    need = np.int64(0)
    for b in range(nb):
        need += pos[b]
    return need


@numba.njit(cache=True, _nrt=False)
def _split_segment(u, j, nvj, sp, nb, frac, X, ib, wb, used, seg_s, seg_n, dst_s, dst_n, fc,
                   pos):
    """Append one segment per branch of node u's segment (ClassifierSplitModel.split).

    Branch b of the split on attribute j gets, in segment order, the
    instances whose value leads there and every instance with a missing value
    whose share ``frac[b]`` exceeds 1e-6, weighted by ``frac[b] * weight``.
    The new segments go after ``used`` in ``ib``, ``wb`` and are recorded in
    ``dst_s/dst_n[fc + b]``; returns the new used length, or ``-1 - need`` (nothing
    written) when the buffers hold fewer than ``used + need`` entries (the caller
    enlarges them with :func:`.weighted._ensure_buffer` and calls again).

    Compiled without numba's reference counting (``_nrt=False``: it allocates nothing), so
    a call does not increment and decrement the count of each of its arrays (nor does an
    inlined wrapper, which would: the buffers are enlarged by the caller).
    """
    s = seg_s[u]
    L = seg_n[u]
    need = _branch_sizes(ib, s, L, X, j, nvj, sp, nb, frac, pos)
    if used + need > ib.shape[0]:
        return -1 - need
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
    return used + need


@numba.njit(cache=True)
def _presort_numeric(X, n_values):
    """The known values of every numeric attribute, sorted once.

    (n, a) f8, (a,) i8 -> ``prow`` (a,) i8 (the row of attribute j, -1 if
    nominal), ``psi`` (r, n) i8 and ``psv`` (r, n) f8 (instance indices and
    values in ascending order of value, ties in instance order: a stable sort
    of the known values), ``nknown`` (r,) i8 (known values per row).

    A set of instances listed in instance order gets its own stable sort by
    keeping, in this order, the instances it holds: the same sequence as
    sorting them, without sorting (:func:`_root_lists`).
    """
    n, n_attr = X.shape
    prow = np.full(max(n_attr, 1), -1, np.int64)
    r = 0
    for j in range(n_attr):
        if n_values[j] == 0:
            prow[j] = r
            r += 1
    psi = np.empty((max(r, 1), n), np.int64)
    psv = np.empty((max(r, 1), n), np.float64)
    nknown = np.zeros(max(r, 1), np.int64)
    col = np.empty(n, np.float64)
    idx = np.empty(n, np.int64)
    for j in range(n_attr):
        if n_values[j] != 0:
            continue
        row = prow[j]
        m = 0
        for i in range(n):
            x = X[i, j]
            if not math.isnan(x):
                col[m] = x
                idx[m] = i
                m += 1
        order = np.argsort(col[:m], kind='mergesort')
        for t in range(m):
            psi[row, t] = idx[order[t]]
            psv[row, t] = col[order[t]]
        nknown[row] = m
    return prow, psi, psv, nknown


# Sorted lists of the growing tree. Every node being grown holds, per numeric
# attribute (row t of ``prow``), the instances of its segment with a known value
# in ascending order of value, ties in instance order: ``psb[ps_s[v, t] :
# ps_s[v, t] + ps_n[v, t]]``. The root's lists are the presort restricted to the
# training instances; a split hands each child the parent's lists restricted to
# the child's instances (a stable partition, so each child's list is again the
# stable sort of its own known values, as sorting them would give). A node's
# numeric split search then reads its own m values instead of sorting them or
# scanning all n presorted ones. The buffer is a stack: when node v is taken up,
# everything allocated after its siblings' block (``blk_end[v]``) belongs to
# subtrees already grown and is reused.


@numba.njit(cache=True)
def _ensure_lists(psb, need):
    """(m,) i8 buffer -> one with capacity >= need (contents kept)."""
    if need <= psb.shape[0]:
        return psb
    new = np.empty(max(2 * psb.shape[0], need), np.int64)
    for e in range(psb.shape[0]):
        new[e] = psb[e]
    return new


@numba.njit(cache=True)
def _root_lists(rows, prow, psi, nknown, psb, ps_s, ps_n, flag):
    """The root's sorted lists (node 0) from the presort of all instances of ``X``
    (:func:`_presort_numeric`), kept where the instance is one of ``rows`` (ascending);
    returns (buffer, its used length). ``flag`` is (n,) b1 scratch, left all False."""
    r = 0
    for j in range(prow.shape[0]):
        if prow[j] >= 0:
            r += 1
    for e in range(rows.shape[0]):
        flag[rows[e]] = True
    top = 0
    for t in range(r):
        psb = _ensure_lists(psb, top + nknown[t])
        ps_s[0, t] = top
        for q in range(nknown[t]):
            i = psi[t, q]
            if flag[i]:
                psb[top] = i
                top += 1
        ps_n[0, t] = top - ps_s[0, t]
    for e in range(rows.shape[0]):
        flag[rows[e]] = False
    return psb, top


@numba.njit(cache=True, _nrt=False)
def _partition_lists(v, j, nvj, sp, nb, frac, X, fc, psb, top, ps_s, ps_n, pos, unit, branch,
                     sizes):
    """Hand node v's sorted lists to its children ``fc .. fc + nb - 1`` (branches of the
    split on attribute j at ``sp``, as :func:`_split_segment` sends the instances: a
    missing value of j to every branch with share ``frac[b]`` above 1e-6); the children's
    lists go at ``top``. Returns the new top, or -1 when ``psb`` is too short (the caller
    enlarges it with :func:`_ensure_lists` and calls again; the node's own lists are never
    written).

    ``unit``: no value is missing, so every list holds all of the node's instances: the
    branch sizes and each instance's branch (``branch``, (n,) i8 scratch indexed by
    instance; ``sizes``, (nb,) i8 scratch) are found on the first list and reused.

    Compiled without numba's reference counting (``_nrt=False``: it allocates nothing)."""
    r = ps_s.shape[1]
    for t in range(r):
        s = ps_s[v, t]
        L = ps_n[v, t]
        if unit and t > 0:
            need = L
            for b in range(nb):
                pos[b] = sizes[b]
        else:
            need = _branch_sizes(psb, s, L, X, j, nvj, sp, nb, frac, pos)
            for b in range(nb):
                sizes[b] = pos[b]
        if top + need > psb.shape[0]:
            return np.int64(-1)
        for b in range(nb):
            cnt = pos[b]
            ps_s[fc + b, t] = top
            pos[b] = top
            top += cnt
        if unit and t > 0 and nb == 2:
            # Two branches: the two write positions kept in registers and chosen without
            # a branch (pos[b] in memory made each entry wait for the previous one's store).
            p0 = pos[0]
            p1 = pos[1]
            for e in range(s, s + L):
                i = psb[e]
                b = branch[i]
                psb[p0 + b * (p1 - p0)] = i
                p1 += b
                p0 += 1 - b
            pos[0] = p0
            pos[1] = p1
        elif unit and t > 0:
            for e in range(s, s + L):
                i = psb[e]
                b = branch[i]
                psb[pos[b]] = i
                pos[b] += 1
        else:
            for e in range(s, s + L):
                i = psb[e]
                b = _branch_of(X[i, j], nvj, sp)
                if unit:
                    branch[i] = b
                if b >= 0:
                    psb[pos[b]] = i
                    pos[b] += 1
                else:
                    for bb in range(nb):
                        if _gr(frac[bb], 0.0):
                            psb[pos[bb]] = i
                            pos[bb] += 1
        for b in range(nb):
            ps_n[fc + b, t] = pos[b] - ps_s[fc + b, t]
    return top


@numba.njit(cache=True, _nrt=False)
def _split_point(cut, j, X, rows, psb, s0, m):
    """setSplitPoint: the largest training value of numeric attribute j not above ``cut``,
    as Weka's scan over the training instances (``rows``, in order) keeps it: a value
    replaces the kept one when it is larger by more than 1e-6 (``Utils.gr``) and
    ``Utils.smOrEq(value, cut)``.

    The values qualifying form a prefix of the root's sorted list ``psb[s0 : s0 + m]``;
    when their largest, M, exceeds every smaller one by more than 1e-6, the scan keeps M
    whatever the order (a binary search finds it); otherwise (values closer than Weka's
    tolerance at the top) the scan itself runs.
    """
    lo = 0                       # qualifying: psb[s0 : s0 + lo]
    hi = m
    while lo < hi:
        mid = (lo + hi) // 2
        if _sm_or_eq(X[psb[s0 + mid], j], cut):
            lo = mid + 1
        else:
            hi = mid
    low = -1.7976931348623157e308
    if lo > 0:
        top = X[psb[s0 + lo - 1], j]
        a = 0                    # first position holding the value top
        b = lo - 1
        while a < b:
            mid = (a + b) // 2
            if X[psb[s0 + mid], j] < top:
                a = mid + 1
            else:
                b = mid
        if _gr(top, low) and (a == 0 or _gr(top, X[psb[s0 + a - 1], j])):
            return top
    new_sp = low
    for e in range(rows.shape[0]):
        x = X[rows[e], j]
        if not math.isnan(x) and _gr(x, new_sp) and _sm_or_eq(x, cut):
            new_sp = x
    return new_sp


@numba.njit(cache=True, _nrt=False)
def _mark_node(v, ib, seg_s, seg_n, where):
    """``where[i]`` = position of instance i in node v's segment, for its instances."""
    for e in range(seg_s[v], seg_s[v] + seg_n[v]):
        where[ib[e]] = e


@numba.njit(cache=True, inline='always')
def _clear_cut(npcb, npb, npc, j):
    """Zero numeric attribute j's cut distribution: ``npcb[j]`` (2, C), ``npb[j]`` (2,) and
    ``npc[j]`` (C,)."""
    for b in range(2):
        npb[j, b] = 0.0
        for c in range(npc.shape[1]):
            npcb[j, b, c] = 0.0
    for c in range(npc.shape[1]):
        npc[j, c] = 0.0


@numba.njit(cache=True, _nrt=False)
def _numeric_splits(v, X, y, wb, n_values, n_classes, min_obj_f, sum_w, npcb, npb, npc, gain,
                    ratio, spl, valid, prow, psb, ps_s, ps_n, where, sv, sc, sw, unit, xtab, kpre):
    """Evaluate J48's binary split of node v on every numeric attribute (C45Split, numeric
    case), in one call per node.

    ``prow``, ``psb``, ``ps_s``, ``ps_n``: the node's sorted lists (see
    :func:`_partition_lists`); ``where``: the positions of its instances in its segment
    (:func:`_mark_node`). ``sv``, ``sc``, ``sw`` are (n,) scratch.

    ``unit``: every weight is 1 (no missing value, unit instance weights), so every
    weight sum is a count: the positions are not read (``where`` is not needed), and
    the cut points are scanned on integer counts: one pass over the sorted values lists
    the candidate cuts (neighbours differing by more than 1e-5) in ``sc`` and the class
    counts below each in ``kpre`` ((n + 1, C) i8 scratch), without a branch (the test is
    taken at random on values with few ties, and a mispredicted branch per value cost
    about a sixth of the scan); then only the candidates are scanned, their entropy terms
    read from ``xtab[k]`` = ``_xlogx(k)`` ((n + 1,) f8). With two classes the running
    count of class 1 is kept in a register and both counts are written at each position
    (a candidate keeps them): no row is read back just after it is stored (about 6% of a
    credit-g null data set's fits). Every distribution is set from the counts: the same
    floats as the weighted sums, all being whole numbers.

    Sets, for each numeric attribute j, ``valid[j]``, and for a valid split
    ``gain[j]`` (info gain), ``ratio[j]`` (gain ratio), ``spl[j]`` (split point) and
    ``npcb[j]``, ``npb[j]``, ``npc[j]``: the known-value distribution of the chosen cut.
    """
    C = n_classes
    for j in range(n_values.shape[0]):
        if n_values[j] != 0:
            continue
        valid[j] = False
        t0 = prow[j]
        s0 = ps_s[v, t0]
        m = ps_n[v, t0]
        # All known instances start in bag 1.
        _clear_cut(npcb, npb, npc, j)
        n_cand = 0
        if unit:
            # Every weight 1: bag weights and cells are counts. One pass lists the candidate
            # cuts without a branch: the q-th before position sc[q], with the class counts
            # below it in kpre[q]; the running counts are in kpre[n_cand] (the totals at
            # the end).
            for c in range(C):
                kpre[0, c] = 0
            if m > 0 and C == 2:
                # two classes: the running count of class 1 stays in a register, and
                # each position writes both counts below it (kept at a candidate)
                prev = X[psb[s0], j]
                r1 = y[psb[s0]]
                for t in range(1, m):
                    i = psb[s0 + t]
                    x = X[i, j]
                    kpre[n_cand, 0] = t - r1
                    kpre[n_cand, 1] = r1
                    sc[n_cand] = t
                    n_cand += np.int64(prev + 1e-5 < x)
                    r1 += y[i]
                    prev = x
                kpre[n_cand, 0] = m - r1
                kpre[n_cand, 1] = r1
            elif m > 0:
                prev = X[psb[s0], j]
                kpre[0, y[psb[s0]]] = 1
                for t in range(1, m):
                    i = psb[s0 + t]
                    x = X[i, j]
                    for c in range(C):
                        kpre[n_cand + 1, c] = kpre[n_cand, c]
                    sc[n_cand] = t
                    n_cand += np.int64(prev + 1e-5 < x)
                    kpre[n_cand, y[i]] += 1
                    prev = x
            for c in range(C):
                npcb[j, 1, c] = np.float64(kpre[n_cand, c])
                npc[j, c] = np.float64(kpre[n_cand, c])
            npb[j, 1] = np.float64(m)
            total = np.float64(m)
        else:
            total = 0.0
            for t in range(m):
                i = psb[s0 + t]
                sv[t] = X[i, j]
                c = y[i]
                sc[t] = c
                wt = wb[where[i]]
                sw[t] = wt
                npcb[j, 1, c] = npcb[j, 1, c] + wt
                npb[j, 1] = npb[j, 1] + wt
                npc[j, c] = npc[j, c] + wt
                total = total + wt
        min_split = 0.1 * total / np.float64(C)
        if _sm_or_eq(min_split, min_obj_f):
            min_split = min_obj_f
        elif _gr(min_split, 25.0):
            min_split = 25.0
        if _sm(np.float64(m), 2.0 * min_split):
            continue
        rv = 0.0
        for c in range(C):
            rv = rv + _xlogx(npc[j, c])
        default_ent = _xlogx(total) - rv
        unknown_rate = (sum_w - total) / sum_w
        best_gain = 0.0
        split_index = -1
        n_cuts = 0
        best_q = -1
        if unit:
            # Only the candidate cuts are scanned.
            for q in range(n_cand):
                nxt = sc[q]
                if not (_gr_or_eq(np.float64(nxt), min_split)
                        and _gr_or_eq(np.float64(m - nxt), min_split)):
                    continue
                rv = 0.0
                for c in range(C):
                    rv = rv + xtab[kpre[q, c]]
                rv = rv - xtab[nxt]
                for c in range(C):
                    rv = rv + xtab[kpre[n_cand, c] - kpre[q, c]]
                rv = rv - xtab[m - nxt]
                ig = _info_gain(default_ent, rv, unknown_rate, total)
                if _gr(ig, best_gain):
                    best_gain = ig
                    split_index = nxt - 1
                    best_q = q
                n_cuts += 1
        else:
            last = 0
            for nxt in range(1, m):
                if not sv[nxt - 1] + 1e-5 < sv[nxt]:
                    continue
                for t in range(last, nxt):
                    c = sc[t]
                    wt = sw[t]
                    npcb[j, 1, c] = npcb[j, 1, c] - wt
                    npcb[j, 0, c] = npcb[j, 0, c] + wt
                    npb[j, 1] = npb[j, 1] - wt
                    npb[j, 0] = npb[j, 0] + wt
                last = nxt
                if not (_gr_or_eq(npb[j, 0], min_split) and _gr_or_eq(npb[j, 1], min_split)):
                    continue
                rv = 0.0
                for b in range(2):
                    for c in range(C):
                        rv = rv + _xlogx(npcb[j, b, c])
                    rv = rv - _xlogx(npb[j, b])
                ig = _info_gain(default_ent, rv, unknown_rate, total)
                if _gr(ig, best_gain):
                    best_gain = ig
                    split_index = nxt - 1
                n_cuts += 1
        if n_cuts == 0:
            continue
        # MDL correction of the gain for the choice among n_cuts cut points.
        best_gain = best_gain - (math.log(np.float64(n_cuts)) / _LOG2) / sum_w
        if _sm_or_eq(best_gain, 0.0):
            continue
        if unit:                  # the values either side of the cut
            sv[split_index] = X[psb[s0 + split_index], j]
            sv[split_index + 1] = X[psb[s0 + split_index + 1], j]
        sp = (sv[split_index + 1] + sv[split_index]) / 2.0
        if sp == sv[split_index + 1]:
            sp = sv[split_index]
        # The chosen cut's distribution, added range by range (Distribution.addRange).
        _clear_cut(npcb, npb, npc, j)
        if unit:
            # Counts (below the cut, and the rest): the same whole numbers as the sums.
            for c in range(C):
                npcb[j, 0, c] = np.float64(kpre[best_q, c])
                npcb[j, 1, c] = npcb[j, 1, c] + np.float64(kpre[n_cand, c] - kpre[best_q, c])
                npc[j, c] = np.float64(kpre[n_cand, c])
            npb[j, 0] = np.float64(split_index + 1)
            npb[j, 1] = np.float64(m - split_index - 1)
            total = np.float64(m)
        else:
            total = 0.0
            for b in range(2):
                lo = 0 if b == 0 else split_index + 1
                hi = split_index + 1 if b == 0 else m
                s = 0.0
                for t in range(lo, hi):
                    c = sc[t]
                    wt = sw[t]
                    s = s + wt
                    npcb[j, b, c] = npcb[j, b, c] + wt
                    npc[j, c] = npc[j, c] + wt
                npb[j, b] = npb[j, b] + s
                total = total + s
        valid[j] = True
        gain[j] = best_gain
        ratio[j] = _gain_ratio(npb[j], 2, total, sum_w, best_gain, xtab, unit)
        spl[j] = sp


@numba.njit(cache=True, inline='always')
def _gain_ratio(pb, nb, known, sum_w, gain, xtab, unit):
    """GainRatioSplitCrit: gain / split information (with an "unknown" bag), 0 if trivial.
    With ``unit`` the weights are counts, their terms read from ``xtab``."""
    se = 0.0
    if _gr(known, 0.0):
        for b in range(nb):
            se = se - _xlogx_count(pb[b], xtab, unit)
        se = se - _xlogx_count(sum_w - known, xtab, unit)
        se = se + _xlogx_count(sum_w, xtab, unit)
    if _eq(se, 0.0):
        return 0.0
    se = se / sum_w
    return gain / se


@numba.njit(cache=True, inline='always')
def _xlogx_count(x, xtab, unit):
    """``_xlogx(x)``; with ``unit`` x is a count (a whole number <= n) and its term is read
    from ``xtab`` ((n + 1,) f8, ``xtab[k] = _xlogx(k)``): the same float."""
    if unit:
        return xtab[int(x)]
    return _xlogx(x)


@numba.njit(cache=True, _nrt=False)
def _select_general(v, X, y, ib, wb, seg_s, seg_n, tot, n_values, off, n_classes, min_obj_f,
                    multi_val, n_all, cnt, bagk, pck, ktot, gain, ratio, valid, unit, xtab,
                    kx):
    """Return J48's split attribute for node v (or -1), general data (C45ModelSelection).

    The numeric attributes' splits must have been evaluated (:func:`_numeric_splits` sets
    their ``valid``, ``gain`` and ``ratio``); this adds the nominal ones and chooses. Fills
    the known-value distributions of every nominal attribute: ``cnt/bagk`` per (value,
    class) cell, ``pck/ktot`` the known class weights and total per attribute; with
    ``unit`` (every weight 1, nothing missing) the cells are counted, their totals
    summed from them, and their entropy terms read from ``xtab`` (see
    :func:`_numeric_splits`); ``kx`` (n, number of nominal attributes) i8 then holds each
    instance's cells, ``off[j] + X[i, j]`` for the nominal attributes j in order (not read
    otherwise).

    Compiled without numba's reference counting (``_nrt=False``: it allocates nothing),
    like the other per-node helpers; and kept to at most 30 arguments, as are they:
    Python compiles a call with more into one on a tuple of them, which numba lowers by
    incrementing and decrementing the count of every array in it.
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
    if unit:
        # Every weight 1, nothing missing: the cells are counts, and the bag, class and
        # known totals are sums of them (exact in any order, so the same floats).
        n_nom = kx.shape[1]
        for e in range(seg_s[v], seg_s[v] + seg_n[v]):
            i = ib[e]
            c = y[i]
            for q in range(n_nom):
                k = kx[i, q]
                cnt[c, k] = cnt[c, k] + 1.0
        for j in range(n_attr):
            for k in range(off[j], off[j + 1]):
                for c in range(C):
                    bagk[k] = bagk[k] + cnt[c, k]
                    pck[j, c] = pck[j, c] + cnt[c, k]
                ktot[j] = ktot[j] + bagk[k]
    else:
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
            if not valid[j]:
                continue
            ig = gain[j]
            avg = avg + ig
            n_valid += 1
            continue
        ob = off[j]
        valid[j] = _enough_branches(bagk, ob, nv, min_obj_f)
        if not valid[j]:
            continue
        known = ktot[j]
        unknown_rate = (sum_w - known) / sum_w
        rv = 0.0
        for c in range(C):
            rv = rv + _xlogx_count(pck[j, c], xtab, unit)
        old_ent = _xlogx_count(known, xtab, unit) - rv
        rv = 0.0
        for b in range(nv):
            for c in range(C):
                rv = rv + _xlogx_count(cnt[c, ob + b], xtab, unit)
            rv = rv - _xlogx_count(bagk[ob + b], xtab, unit)
        ig = _info_gain(old_ent, rv, unknown_rate, known)
        gain[j] = ig
        ratio[j] = _gain_ratio(bagk[ob:ob + nv], nv, known, sum_w, ig, xtab, unit)
        if _in_average(multi_val, nv, n_all):
            avg = avg + ig
            n_valid += 1
    return _largest_gain_ratio(n_attr, valid, gain, ratio, avg, n_valid)
