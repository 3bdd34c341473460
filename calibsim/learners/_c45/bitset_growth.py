"""Private numba kernels: growing C4.5's tree on bitsets (all weights 1).

ClassifierTree.buildTree of Weka 3.6's J48 for the unit-weight path of
:mod:`.bitset` (see there for the layout): the cell counts of a
node from popcounts, J48's choice of the split attribute from them, and the
depth-first growth in the weighted path's order.

Counts of a node are kept as ``cnt[r, k] = |node & rmask[r] & cell k|`` for
the data set's counted cells ``k`` and row masks ``rmask[r]``:

* binary attributes and a binary class: the cells are the value-0 cells of the
  attributes and the rows are (class 0, all instances), so ``cnt[0, j]`` is the
  number of (value 0, class 0) instances and ``cnt[1, j]`` the size of branch
  0 of attribute j; the other three cells follow from the node's class counts;
* otherwise every (attribute, value) cell and one row per class.
"""

from __future__ import annotations

import numba
import numpy as np

from .bitops import _JIT, _class_counts_bits, _popcount, _restrict
from .criterion import _eq, _gr, _gr_or_eq, _sm
from .splitting import _can_split, _choose_from_terms


@numba.njit(inline='always', **_JIT)
def _count_cells(v, nmask, rmask, cells_t, cnt):
    """``cnt[r, k]`` = size of node v & ``rmask[r]`` & cell k, for all rows and cells.

    One pass over the node's words; ``cells_t`` (W, K) holds the words of the
    cells contiguously, so the innermost loop is vectorised over the cells.
    """
    R, K = cnt.shape
    for r in range(R):
        for k in range(K):
            cnt[r, k] = 0
    for w in range(nmask.shape[1]):
        m = nmask[v, w]
        for r in range(R):
            mr = m & rmask[r, w]
            for k in range(K):
                cnt[r, k] += _popcount(mr & cells_t[w, k])


@numba.njit(inline='always', **_JIT)
def _choose_binary(v, dist, tot, xtab, min_obj_f, multi_val, n_all, cnt, gain, valid, order):
    """J48's split attribute for node v (or -1) with binary attributes and a binary class.

    _choose_from_terms for two values and two classes with all weights 1 (no
    unknown weight), operation for operation, so the floats are the same. The
    attributes failing Distribution.check are dropped first (into ``order``,
    without branches), and the gain ratio is computed only for the attributes
    with at least the average gain, the only ones it is compared for.
    """
    n_attr = cnt.shape[1]
    n = np.int64(tot[v])
    n_c0 = np.int64(dist[2 * v])
    total = tot[v]
    old_ent = xtab[n] - ((0.0 + xtab[n_c0]) + xtab[n - n_c0])
    x_total = xtab[n]
    # Distribution.check: both branches hold >= min_obj instances.
    n_ok = 0
    for j in range(n_attr):
        s0 = cnt[1, j]
        ok = _gr_or_eq(np.float64(s0), min_obj_f) & _gr_or_eq(np.float64(n - s0), min_obj_f)
        valid[j] = ok
        order[n_ok] = j
        n_ok += ok
    if n_ok == 0 or not (multi_val or _sm(2.0, 0.3 * n_all)):
        return -1
    # Information gain (InfoGainSplitCrit) from the four cells (value, class) and two bags.
    avg = 0.0
    for t in range(n_ok):
        j = order[t]
        q00 = cnt[0, j]
        s0 = cnt[1, j]
        s1 = n - s0
        q01 = s0 - q00
        q10 = n_c0 - q00
        q11 = s1 - q10
        rv = ((((((0.0 + xtab[q00]) + xtab[q01]) - xtab[s0]) + xtab[q10]) + xtab[q11])
              - xtab[s1])
        num = old_ent - (-rv)
        ig = 0.0 if _eq(num, 0.0) else num / total
        gain[j] = ig
        avg = avg + ig
    avg = avg / n_ok
    # The largest gain ratio (GainRatioSplitCrit, with an empty "unknown" bag)
    # among the attributes with at least the average gain.
    best = -1
    best_ratio = 0.0
    for t in range(n_ok):
        j = order[t]
        if gain[j] >= avg - 1e-3:
            s0 = cnt[1, j]
            se = (((0.0 - xtab[s0]) - xtab[n - s0]) - 0.0) + x_total
            ratio = 0.0 if _eq(se, 0.0) else gain[j] / (se / total)
            if _gr(ratio, best_ratio):
                best = j
                best_ratio = ratio
    if _eq(best_ratio, 0.0):
        return -1
    return best


@numba.njit(inline='always', **_JIT)
def _grow(C, n_values, off, amask, cells_t, rmask, cmask, xtab, min_obj_f, n_all, attr, first,
          depth, is_last, empty, dist, tot, nmask, stack, cnt, rem, rem_ok, ibag, bag, xcnt,
          xbag, gain, ratio, valid, order):
    """Grow the tree from the root set ``nmask[0]`` (ClassifierTree.buildTree), depth first in
    the weighted path's order; return the number of nodes.

    ``rem[d]`` holds the counts of the parent of the nodes at depth d minus
    those of its children counted so far (``rem_ok[d]``: all of them were), so
    the last child of a split takes ``rem[d]`` instead of counting itself.
    """
    n_attr = n_values.shape[0]
    R, K = cnt.shape
    D = rem_ok.shape[0]
    # All attributes "have many values" (>= 0.3 n): then every valid split counts
    # towards the average gain (C45ModelSelection).
    multi_val = True
    binary = C == 2
    for j in range(n_attr):
        if _sm(np.float64(n_values[j]), 0.3 * n_all):
            multi_val = False
        if n_values[j] != 2:
            binary = False
    tot[0] = np.float64(_class_counts_bits(nmask, 0, cmask, dist, 0, C))
    depth[0] = 0
    is_last[0] = False
    n_nodes = 1
    sp = 1
    stack[0] = 0
    while sp > 0:
        sp -= 1
        v = stack[sp]
        d = depth[v]
        total = tot[v]
        best = -1
        if _can_split(dist, tot, v, C, min_obj_f):
            if is_last[v] and d < D and rem_ok[d]:
                for r in range(R):
                    for k in range(K):
                        cnt[r, k] = rem[d, r, k]
            else:
                _count_cells(v, nmask, rmask, cells_t, cnt)
                if d < D and not is_last[v]:
                    for r in range(R):
                        for k in range(K):
                            rem[d, r, k] -= cnt[r, k]
            if binary:
                best = _choose_binary(v, dist, tot, xtab, min_obj_f, multi_val, n_all, cnt, gain,
                                      valid, order)
            else:
                # Entropy terms of every cell and branch by table lookup, then J48's choice.
                for k in range(K):
                    size = 0
                    for c in range(C):
                        q = cnt[c, k]
                        size += q
                        xcnt[c, k] = xtab[q]
                    ibag[k] = size
                    bag[k] = np.float64(size)
                    xbag[k] = xtab[size]
                best = _choose_from_terms(v, dist, tot, n_values, off, C, min_obj_f, multi_val,
                                          n_all, bag, xcnt, xbag, gain, ratio, valid)
        elif d < D:
            rem_ok[d] = False         # an uncounted sibling: the last child counts itself
        attr[v] = best                # -1: a leaf
        empty[v] = best < 0 and _eq(total, 0.0)
        if best < 0:
            continue
        nv = n_values[best]
        fc = n_nodes
        first[v] = fc
        n_nodes += nv
        if d + 1 < D:
            for r in range(R):
                for k in range(K):
                    rem[d + 1, r, k] = cnt[r, k]
            rem_ok[d + 1] = True
        for b in range(nv - 1, -1, -1):
            # A branch's class counts are the chosen split's counts for its value.
            u = fc + b
            k = off[best] + b
            _restrict(nmask, v, u, amask, k)
            if binary:
                q00 = cnt[0, best]
                s0 = cnt[1, best]
                n_c0 = np.int64(dist[2 * v])
                c0 = q00 if b == 0 else n_c0 - q00
                size = s0 if b == 0 else np.int64(total) - s0
                dist[2 * u] = np.float64(c0)
                dist[2 * u + 1] = np.float64(size - c0)
            else:
                size = ibag[k]
                for c in range(C):
                    dist[u * C + c] = np.float64(cnt[c, k])
            tot[u] = np.float64(size)
            depth[u] = d + 1
            is_last[u] = b == nv - 1
            stack[sp] = u
            sp += 1
    return n_nodes
