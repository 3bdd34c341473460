"""Private numba kernels: pruning C4.5's tree on bitsets (all weights 1).

C45PruneableClassifierTree.prune of Weka 3.6's J48 (error-based pruning with
subtree raising) for the unit-weight path of :mod:`._kernels_c45_bits` (see
there for the layout), in the weighted path's order.
"""

from __future__ import annotations

import numba
import numpy as np

from ._kernels_c45_common import (
    _add_errs_z, _class_counts_bits, _eq, _gr_or_eq, _max_class, _sm_or_eq,
)
from ._kernels_c45_grow import _JIT

#: ``Stats.addErrs`` estimates are remembered for leaves of fewer instances than this.
_MEMO_N = 128


@numba.njit(inline='always', **_JIT)
def _leaf_errors(dist, o, n_classes, total, cf, z, memo):
    """Estimated errors of a leaf with integer class counts dist[o:o+C] summing to ``total``:
    its training errors plus Stats.addErrs (0 for an empty leaf), as _est_errors.

    The estimate depends on (total, errors) and CF only, so for small leaves it
    is remembered in ``memo`` (NaN = not yet known): pruning asks for the same
    small leaves again and again, within a fit and across the folds of a data
    set, and a lookup gives the very bits of computing it again.
    """
    n = np.int64(total)
    e = n - np.int64(dist[o + _max_class(dist, o, n_classes)])
    if n >= _MEMO_N:
        return np.float64(e) + _add_errs_z(total, np.float64(e), cf, z)
    slot = n * (n + 1) // 2 + e
    val = memo[slot]
    if val != val:
        val = 0.0 if n == 0 else np.float64(e) + _add_errs_z(total, np.float64(e), cf, z)
        memo[slot] = val
    return val


@numba.njit(inline='always', **_JIT)
def _errors_for_branch_bits(v, largest, C, n_values, off, amask, cmask, cf, z, memo, attr, first,
                            nmask, pmask, acc, ef, sub, stack):
    """Estimated errors when all of node v's instances are sent down its branch ``largest``
    (C45PruneableClassifierTree.getEstimatedErrorsForBranch).

    ``pmask[u]`` is the set of node v's instances that reach node u of the
    branch's subtree when the test at v is skipped; at a leaf its class counts
    equal the branch's own counts plus the routed ones of the weighted path.
    The error sums are taken bottom-up in branch order, as there.
    """
    W = pmask.shape[1]
    r = first[v] + largest
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
            total = _class_counts_bits(pmask, u, cmask, acc, 0, C)
            ef[u] = _leaf_errors(acc, 0, C, np.float64(total), cf, z, memo)
    for t in range(n_sub - 1, -1, -1):
        u = sub[t]
        if attr[u] >= 0:
            total = 0.0
            for b in range(n_values[attr[u]]):
                total = total + ef[first[u] + b]
            ef[u] = total
    return ef[r]


@numba.njit(inline='always', **_JIT)
def _new_distribution_bits(v, C, n_values, off, amask, cmask, attr, first, empty, dist, tot,
                           nmask, stack):
    """Re-send node v's instances down its (raised) subtree (newDistribution): every node's
    set and counts are recomputed, and a leaf that now receives weight stops being empty."""
    W = nmask.shape[1]
    sp = 1
    stack[0] = v
    while sp > 0:
        sp -= 1
        u = stack[sp]
        tot[u] = np.float64(_class_counts_bits(nmask, u, cmask, dist, u * C, C))
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


@numba.njit(inline='always', **_JIT)
def _prune(C, n_values, off, amask, cmask, cf, z, memo, attr, first, empty, dist, tot, serr,
           nmask, pmask, acc, ef, sub, stack, stack2, st_k):
    """Prune bottom-up with subtree raising, in the weighted path's order."""
    sp = 1
    stack[0] = 0
    st_k[0] = 0
    while sp > 0:
        v = stack[sp - 1]
        if attr[v] < 0:
            serr[v] = _leaf_errors(dist, v * C, C, tot[v], cf, z, memo)
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
        e_leaf = _leaf_errors(dist, v * C, C, tot[v], cf, z, memo)
        if attr[fc + largest] < 0:
            # All of v's instances in the leaf `largest`: that leaf's counts are v's.
            e_branch = e_leaf
        else:
            e_branch = _errors_for_branch_bits(v, largest, C, n_values, off, amask, cmask, cf, z,
                                               memo, attr, first, nmask, pmask, acc, ef, sub,
                                               stack2)
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
            _new_distribution_bits(v, C, n_values, off, amask, cmask, attr, first, empty, dist,
                                   tot, nmask, stack2)
            st_k[sp - 1] = 0
            continue
        serr[v] = e_tree
        sp -= 1
