"""Private numba kernels: pruning C4.5's tree on bitsets (all weights 1).

C45PruneableClassifierTree.prune of Weka 3.6's J48 (error-based pruning with
subtree raising) for the unit-weight path of :mod:`.bitset` (see
there for the layout), in the weighted path's order.
"""

from __future__ import annotations

import numba
import numpy as np

from .bitops import _JIT, _class_counts_bits, _restrict
from .criterion import _add_errs_z, _eq, _max_class
from .pruning import _largest_branch, _next_to_prune, _preorder, _prune_node, _subtree_sums

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
    r = first[v] + largest
    for w in range(pmask.shape[1]):
        pmask[r, w] = nmask[v, w]
    n_sub = _preorder(r, attr, first, n_values, stack, sub)
    for t in range(n_sub):
        u = sub[t]
        if attr[u] >= 0:
            ob = off[attr[u]]
            for b in range(n_values[attr[u]]):
                _restrict(pmask, u, first[u] + b, amask, ob + b)
        else:
            total = _class_counts_bits(pmask, u, cmask, acc, 0, C)
            ef[u] = _leaf_errors(acc, 0, C, np.float64(total), cf, z, memo)
    _subtree_sums(sub, n_sub, attr, first, n_values, ef)
    return ef[r]


@numba.njit(inline='always', **_JIT)
def _new_distribution_bits(v, C, n_values, off, amask, cmask, attr, first, empty, dist, tot,
                           nmask, stack):
    """Re-send node v's instances down its (raised) subtree (newDistribution): every node's
    set and counts are recomputed, and a leaf that now receives weight stops being empty."""
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
                _restrict(nmask, u, ch, amask, ob + b)
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
        v, sp = _next_to_prune(attr, n_values, first, stack, st_k, sp)
        e_leaf = _leaf_errors(dist, v * C, C, tot[v], cf, z, memo)
        if attr[v] < 0:
            serr[v] = e_leaf
            sp -= 1
            continue
        largest = _largest_branch(tot, first[v], n_values[attr[v]])
        if attr[first[v] + largest] < 0:
            # All of v's instances in the leaf `largest`: that leaf's counts are v's.
            e_branch = e_leaf
        else:
            e_branch = _errors_for_branch_bits(v, largest, C, n_values, off, amask, cmask, cf, z,
                                               memo, attr, first, nmask, pmask, acc, ef, sub,
                                               stack2)
        after = _prune_node(v, largest, e_leaf, e_branch, n_values, attr, first, serr, st_k, sp)
        if after == sp:
            # The largest branch raised: all of v's instances are re-sent down.
            _new_distribution_bits(v, C, n_values, off, amask, cmask, attr, first, empty, dist,
                                   tot, nmask, stack2)
        sp = after
