"""Private numba kernels: the general C4.5 tree's compact layout and its predictions.

The tree that :func:`calibsim.learners._kernels_c45_general._c45_fit_general`
grows and prunes is renumbered breadth first with its prediction arrays
(:func:`_compact_general`), then classifies rows as Weka 3.6's
``ClassifierTree.getProbs``: known values lead down one branch, a missing value
down all of them with the branch weights. See
:mod:`calibsim.learners._kernels_c45_numeric` for the layout.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from ._kernels_c45_common import _breadth_first, _eq, _gr, _sm_or_eq


@numba.njit(cache=True)
def _compact_general(attr, first, split, dist, tot, bagw, bagd, empty, nbr, n_classes):
    """Renumber the reachable general tree breadth first, with its prediction arrays."""
    C = n_classes
    queue, parent, m = _breadth_first(attr, first, nbr)
    out_attr = np.empty(m, np.int64)
    out_first = np.empty(m, np.int64)
    out_class = np.empty(m, np.int64)
    out_prob = np.zeros((m, C), np.float64)
    out_dist = np.empty((m, C), np.float64)
    out_split = np.full(m, np.nan)
    out_frac = np.ones(m, np.float64)
    out_empty = np.zeros(m, np.bool_)
    out_sons = np.zeros(m, np.int64)
    nxt = 1
    for t in range(m):
        u = queue[t]
        out_attr[t] = attr[u]
        if attr[u] >= 0:
            out_first[t] = nxt
            nxt += nbr[attr[u]]
            out_sons[t] = nbr[attr[u]]
            out_split[t] = split[u]
        else:
            out_first[t] = -1
        for c in range(C):
            out_dist[t, c] = dist[u * C + c]
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
        best = 0
        mx = -1.0
        for c in range(C):
            if _gr(out_prob[t, c], mx):
                mx = out_prob[t, c]
                best = c
        out_class[t] = best
    return (out_attr, out_first, out_class, out_prob, out_dist, out_split, out_frac, out_empty,
            out_sons)


@numba.njit(cache=True)
def _c45_proba_row(attr, first, node_prob, split, frac, empty, n_sons, X, i, out, st_node, st_w,
                   st_k, st_acc):
    """Class probabilities of row i as ClassifierTree.getProbs (sums in J48's order) into out.

    Known values lead down one branch (an empty leaf answers with its
    parent's bag, as C45Split.classProb); at a missing value the instance
    goes down every non-empty son with weight ``branch_frac * weight`` and
    the sons' answers are summed in branch order. The recursion runs on an
    explicit stack of such nodes (``st_*``, one row per open node).
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
    m = tree[0].shape[0]
    C = tree[3].shape[1]
    out = np.empty((X.shape[0], C), np.float64)
    st_node = np.empty(m, np.int64)
    st_w = np.empty(m, np.float64)
    st_k = np.empty(m, np.int64)
    st_acc = np.empty((m, C), np.float64)
    for i in range(X.shape[0]):
        _c45_proba_row(tree[0], tree[1], tree[3], tree[5], tree[6], tree[7], tree[8], X, i,
                       out[i], st_node, st_w, st_k, st_acc)
    return out


@numba.njit(cache=True)
def _c45_predict_general(tree, X):
    """general tree, (n_test, a) f8 -> (n_test,) i8: ClassifierTree.classifyInstance
    (first class whose probability exceeds the best so far by 1e-6, from -1).

    Classifies row by row from :func:`_c45_proba_row` rather than through
    :func:`_c45_predict_proba_general`, so that a first run that only predicts does
    not compile that kernel too."""
    m = tree[0].shape[0]
    C = tree[3].shape[1]
    out = np.empty(X.shape[0], np.int64)
    proba = np.empty(C, np.float64)
    st_node = np.empty(m, np.int64)
    st_w = np.empty(m, np.float64)
    st_k = np.empty(m, np.int64)
    st_acc = np.empty((m, C), np.float64)
    for i in range(X.shape[0]):
        _c45_proba_row(tree[0], tree[1], tree[3], tree[5], tree[6], tree[7], tree[8], X, i,
                       proba, st_node, st_w, st_k, st_acc)
        best = 0
        mx = -1.0
        for c in range(C):
            if _gr(proba[c], mx):
                mx = proba[c]
                best = c
        out[i] = best
    return out


@numba.njit(cache=True)
def _c45_size_general(tree):
    """general tree -> (i8 n_nodes, i8 n_leaves), J48's "Size of the tree" and "Number of Leaves"."""
    attr = tree[0]
    n_leaves = 0
    for u in range(attr.shape[0]):
        if attr[u] < 0:
            n_leaves += 1
    return attr.shape[0], n_leaves
