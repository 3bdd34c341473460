"""C4.5's compact trees and their predictions, nominal and general.

A grown and pruned tree is renumbered breadth first with its prediction arrays
(:func:`_compact` for the nominal paths, :func:`_compact_general` for the
general one). A nominal tree classifies a row by following its codes to a leaf
(:func:`_c45_predict`); the general tree classifies as Weka 3.6's
``ClassifierTree.getProbs``: known values lead down one branch, a missing value
down all of them with the branch weights. See
:mod:`.general_splitting` for the layout.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from .criterion import _eq, _gr, _sm_or_eq


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
def _layout(attr, first, dist, n_branches, n_classes):
    """The reachable tree renumbered breadth first: ``(queue, parent, m)`` of
    :func:`_breadth_first`, and the compact tree's split attributes, first children
    and class counts (m,), (m,), (m, C)."""
    C = n_classes
    queue, parent, m = _breadth_first(attr, first, n_branches)
    out_attr = np.empty(m, np.int64)
    out_first = np.empty(m, np.int64)
    out_dist = np.empty((m, C), np.float64)
    nxt = 1
    for t in range(m):
        u = queue[t]
        out_attr[t] = attr[u]
        out_first[t] = -1
        if attr[u] >= 0:
            out_first[t] = nxt
            nxt += n_branches[attr[u]]
        for c in range(C):
            out_dist[t, c] = dist[u * C + c]
    return queue, parent, m, out_attr, out_first, out_dist


@numba.njit(cache=True, inline='always')
def _compact(attr, first, dist, tot, empty, n_values, n_classes):
    """Renumber the reachable tree breadth first and attach the leaf predictions."""
    C = n_classes
    queue, parent, m, out_attr, out_first, out_dist = _layout(attr, first, dist, n_values, C)
    out_class = np.empty(m, np.int64)
    out_prob = np.empty((m, C), np.float64)
    for t in range(m):
        p = queue[parent[t]] if parent[t] >= 0 else -1
        out_class[t] = _node_prediction(dist, tot, empty, queue[t], p, C, out_prob[t])
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
    return _first_max(prob, C)


@numba.njit(cache=True, inline='always')
def _first_max(prob, n_classes):
    """ClassifierTree.classifyInstance's class from probabilities ``prob[:C]``: the first
    class with a larger probability (tolerance 1e-6), starting from -1; an all-zero
    row gives class 0."""
    best = 0
    mx = -1.0
    for c in range(n_classes):
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
    """tree (nominal or general) -> (i8 n_nodes, i8 n_leaves), as J48's "Size of the tree"
    and "Number of Leaves"."""
    attr = tree[0]
    n_leaves = 0
    for u in range(attr.shape[0]):
        if attr[u] < 0:
            n_leaves += 1
    return attr.shape[0], n_leaves



@numba.njit(cache=True)
def _compact_general(attr, first, split, dist, tot, bagw, bagd, empty, nbr, n_classes):
    """Renumber the reachable general tree breadth first, with its prediction arrays."""
    C = n_classes
    queue, parent, m, out_attr, out_first, out_dist = _layout(attr, first, dist, nbr, C)
    out_class = np.empty(m, np.int64)
    out_prob = np.zeros((m, C), np.float64)
    out_split = np.full(m, np.nan)
    out_frac = np.ones(m, np.float64)
    out_empty = np.zeros(m, np.bool_)
    out_sons = np.zeros(m, np.int64)
    for t in range(m):
        u = queue[t]
        if attr[u] >= 0:
            out_sons[t] = nbr[attr[u]]
            out_split[t] = split[u]
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
        out_class[t] = _first_max(out_prob[t], C)
    return (out_attr, out_first, out_class, out_prob, out_dist, out_split, out_frac, out_empty,
            out_sons)


@numba.njit(cache=True, _nrt=False)
def _c45_proba_row(attr, first, node_prob, split, frac, empty, n_sons, X, i, out, st_node, st_w,
                   st_k, st_acc):
    """Class probabilities of row i as ClassifierTree.getProbs (sums in J48's order) into out.

    Known values lead down one branch (an empty leaf answers with its
    parent's bag, as C45Split.classProb); at a missing value the instance
    goes down every non-empty son with weight ``branch_frac * weight`` and
    the sons' answers are summed in branch order. The recursion runs on an
    explicit stack of such nodes (``st_*``, one row per open node). Compiled without
    numba's reference counting (``_nrt=False``: it allocates nothing), as it runs once per
    test row.
    """
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
    C = tree[3].shape[1]
    out = np.empty((X.shape[0], C), np.float64)
    st_node, st_w, st_k, st_acc = _row_scratch(tree)
    for i in range(X.shape[0]):
        _c45_proba_row(tree[0], tree[1], tree[3], tree[5], tree[6], tree[7], tree[8], X, i,
                       out[i], st_node, st_w, st_k, st_acc)
    return out


@numba.njit(cache=True, inline='always')
def _row_scratch(tree):
    """The stacks :func:`_c45_proba_row` walks a general tree with: (node, weight, next
    branch, class accumulator), one entry per node."""
    m = tree[0].shape[0]
    C = tree[3].shape[1]
    return (np.empty(m, np.int64), np.empty(m, np.float64), np.empty(m, np.int64),
            np.empty((m, C), np.float64))


@numba.njit(cache=True)
def _c45_predict_general(tree, X):
    """general tree, (n_test, a) f8 -> (n_test,) i8: ClassifierTree.classifyInstance
    (first class whose probability exceeds the best so far by 1e-6, from -1).

    Classifies row by row from :func:`_c45_proba_row` rather than through
    :func:`_c45_predict_proba_general`, so that a first run that only predicts does
    not compile that kernel too."""
    C = tree[3].shape[1]
    out = np.empty(X.shape[0], np.int64)
    proba = np.empty(C, np.float64)
    st_node, st_w, st_k, st_acc = _row_scratch(tree)
    for i in range(X.shape[0]):
        _c45_proba_row(tree[0], tree[1], tree[3], tree[5], tree[6], tree[7], tree[8], X, i,
                       proba, st_node, st_w, st_k, st_acc)
        out[i] = _first_max(proba, C)
    return out


#: general tree -> (i8 n_nodes, i8 n_leaves): the nominal kernel reads only ``attr``.
_c45_size_general = _c45_size
