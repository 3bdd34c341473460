"""C4.5's pruning steps shared by the paths: collapsing and the choices of pruning.

J48 collapses a grown tree (``ClassifierTree.collapse``) before it prunes it
bottom-up with subtree raising (``C45PruneableClassifierTree.prune``). The
walk, the sums and the choice at a node are the same on every path and live
here; what differs is how a path re-sends a node's instances (bitsets, instance
segments, fractional instances), so the pruning loops live with their path
(:mod:`.bitset_pruning`, :mod:`.weighted`, :mod:`.general`).
"""

from __future__ import annotations

import numba
import numpy as np

from .criterion import _gr_or_eq, _max_class, _sm_or_eq


@numba.njit(cache=True, inline='always')
def _collapse(attr, first, dist, tot, terr, n_values, n_classes, n_nodes, stack):
    """Collapse (ClassifierTree.collapse): a subtree whose training errors are not
    more than 1e-3 below its root's becomes a leaf. ``terr`` is scratch."""
    C = n_classes
    for v in range(n_nodes - 1, -1, -1):
        if attr[v] < 0:
            terr[v] = tot[v] - dist[v * C + _max_class(dist, v * C, C)]
        else:
            terr[v] = _branch_sum(terr, first[v], n_values[attr[v]])
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
def _branch_sum(values, fc, n_branches):
    """Sum of ``values[fc:fc + n_branches]`` from 0.0 in branch order, as J48's loops add
    a node's branches (training errors, estimated errors)."""
    total = 0.0
    for b in range(n_branches):
        total = total + values[fc + b]
    return total


@numba.njit(cache=True, inline='always')
def _preorder(r, attr, first, n_branches, stack, sub):
    """Node r's subtree in pre-order, branches in order, into ``sub``; returns its size.
    (A parent comes before its children, so a forward sweep of ``sub`` can pass data
    down and a reverse sweep sum up.)"""
    n_sub = 0
    sp = 1
    stack[0] = r
    while sp > 0:
        sp -= 1
        u = stack[sp]
        sub[n_sub] = u
        n_sub += 1
        if attr[u] >= 0:
            for b in range(n_branches[attr[u]] - 1, -1, -1):
                stack[sp] = first[u] + b
                sp += 1
    return n_sub


@numba.njit(cache=True, inline='always')
def _subtree_sums(sub, n_sub, attr, first, n_branches, ef):
    """Set ``ef[u]`` of every internal node u of ``sub[:n_sub]`` (a subtree in pre-order,
    whose leaves' ``ef`` are known) to the sum of its branches', bottom-up."""
    for t in range(n_sub - 1, -1, -1):
        u = sub[t]
        if attr[u] >= 0:
            ef[u] = _branch_sum(ef, first[u], n_branches[attr[u]])


@numba.njit(cache=True, inline='always')
def _next_to_prune(attr, n_branches, first, stack, st_k, sp):
    """Pruning's post-order walk (``stack[:sp]`` the path from the root, ``st_k`` the next
    branch of each node on it): descend until the node on top is a leaf or has all its
    branches pruned; return (that node, the stack size)."""
    while True:
        v = stack[sp - 1]
        k = st_k[sp - 1]
        if attr[v] < 0 or k >= n_branches[attr[v]]:
            return v, sp
        st_k[sp - 1] = k + 1
        stack[sp] = first[v] + k
        st_k[sp] = 0
        sp += 1


@numba.njit(cache=True, inline='always')
def _largest_branch(weight, fc, n_branches):
    """Distribution.maxBag: the last of branches ``fc .. fc + n_branches - 1`` with the
    largest weight (tolerance 1e-6), as an index 0 .. n_branches - 1."""
    largest = np.int64(-1)
    mx = 0.0
    for b in range(n_branches):
        if _gr_or_eq(weight[fc + b], mx):
            mx = weight[fc + b]
            largest = b
    return largest


@numba.njit(cache=True, inline='always')
def _prune_node(v, largest, e_leaf, e_branch, n_branches, attr, first, serr, st_k, sp):
    """C45PruneableClassifierTree.prune at internal node v, on top of ``stack[:sp]``, whose
    branches are pruned, from its estimated errors as a leaf (``e_leaf``) and with its
    largest branch raised (``e_branch``); ``serr`` holds its branches' errors.

    The leaf, when it is not worse than the subtree and the branch by more than 0.1;
    else the branch raised, when it is not worse than the subtree by more than 0.1: v
    takes over the split and children of branch ``largest``, and the caller re-sends
    v's instances down them (v stays on the stack, to be pruned again); else the
    subtree kept. Returns the new stack size: ``sp`` when the branch was raised, else
    ``sp - 1`` (v done, ``serr[v]`` set).
    """
    fc = first[v]
    e_tree = _branch_sum(serr, fc, n_branches[attr[v]])
    if _sm_or_eq(e_leaf, e_tree + 0.1) and _sm_or_eq(e_leaf, e_branch + 0.1):
        attr[v] = -1
        serr[v] = e_leaf
        return sp - 1
    if _sm_or_eq(e_branch, e_tree + 0.1):
        attr[v] = attr[fc + largest]
        first[v] = first[fc + largest]
        st_k[sp - 1] = 0
        return sp
    serr[v] = e_tree
    return sp - 1
