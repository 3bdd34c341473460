"""Private numba kernels: C4.5 (Weka 3.6 J48) on nominal data, all weights 1, on bitsets.

With every weight 1, every weight sum of the weighted path
(:mod:`.weighted`: class counts, branch weights, the counts routed
through a subtree while pruning) is a sum of 1.0s, i.e. an integer below 2**53
that floating point holds exactly whatever the summation order. So the same
sums can be taken as integer counts -- popcounts of bitsets -- and converted to
float64, giving the same bits; everything computed from them (entropies, gain
ratios, error estimates) then runs the very same arithmetic as the weighted
path. ``tests/learners/test_c45.py`` checks the two paths tree for tree.

A node's training instances are a bitset ``nmask[u]`` of W = ceil(n / 64)
words. ``amask[off[j] + b]`` is the set of instances with value b of
attribute j and ``cmask[c]`` that of class c, so a child's set is
``nmask[parent] & amask[..]`` and a class count is a popcount. Because a
child's set is always its parent's set restricted to one attribute value
(also after subtree raising, which re-sends the instances down), this
replaces the weighted path's instance segments exactly, and raising copies
no instances.

Everything a fit needs lives in one :data:`_Bits` record: the bitsets of a
whole data set, tables, and the scratch arrays of one fit. It is built once
per data set by :func:`_c45_bits_data`; a fit then allocates nothing:

* :func:`_c45_fit` fits all instances and returns the compact tree;
* :func:`_c45_fold_score` (the resampling loop of
  :mod:`calibsim.evaluate._kernels`) fits the training part of one split given
  by its test mask -- the root is the data set's bitset minus the test
  instances, so no training rows are copied -- and scores the test instances
  by sending their bitset down the tree.

The tree is grown by :mod:`.bitset_growth` and pruned by
:mod:`.bitset_pruning`.

What the time goes to (profiled with ``perf`` on 300 x 10 binary null data,
10 x 10 cv), and what keeps it short:

* Reference counting. Numba counts references to every array a kernel
  passes to an inlined helper; in a kernel as large as a tree fit its LLVM
  pass no longer removes these counts, and the atomic increments and
  decrements took more time than the fit itself. The fit kernels allocate
  nothing, so they are compiled without numba's runtime (``_nrt=False``):
  no reference counts at all (and numba refuses to compile an allocation in
  them).
* J48's split choice: with binary attributes and a binary class it is written
  out for that shape (:func:`.bitset_growth._choose_binary`), the gain
  ratio is computed only where it is compared, and the kernels use
  ``error_model="numpy"`` (no zero test before each float division; no
  division here has a zero divisor, so no result changes).
* Counting: one pass over the words of the node's bitset gives the counts of
  every counted cell, vectorised over the cells; with binary attributes and
  class only the value-0 cells and class 0 are counted (the rest follow by
  subtraction); and the last child of a split takes its parent's counts minus
  its siblings' instead of counting.
* ``Stats.addErrs`` of small leaves is remembered (see
  :func:`.bitset_pruning._leaf_errors`).
"""

from __future__ import annotations

import math
from collections import namedtuple

import numba
import numpy as np

from .bitops import _JIT, _lowest_bit, _mask_word, _popcount, _restrict
from .bitset_growth import _grow
from .bitset_pruning import _MEMO_N, _prune
from .criterion import _LOG2, _N_TABLE, _XLOGX_TABLE, _weka_cf
from .predictor import _compact, _node_prediction
from .pruning import _collapse

#: Options of the fit kernels, which allocate nothing: no reference counting.
_JIT_NO_NRT = dict(_JIT, _nrt=False)

#: Everything one fit needs: the data set's bitsets and tables (first block),
#: and the scratch arrays of one fit (second block). Shapes: n instances,
#: a attributes, V = sum(n_values) cells, W = ceil(n / 64) words, C classes,
#: N node capacity, D depth capacity; (R, K) counted rows and cells, (2, a)
#: for binary attributes and class, else (C, V) (see :mod:`.bitset_growth`).
_Bits = namedtuple("_Bits", [
    "n_values",     # (a,) i8
    "off",          # (a + 1,) i8: cells of attribute j are off[j] .. off[j+1]-1
    "amask",        # (V, W) u8: instances per cell
    "cells_t",      # (W, K) u8: words of the counted cells, cells contiguous
    "rmask",        # (R, W) u8: row masks of the counts
    "cmask",        # (C, W) u8: instances per class
    "xtab",         # (n + 1,) f8: xlogx(k) = k log2 k
    "memo",         # (_MEMO_N * (_MEMO_N + 1) / 2,) f8: leaf errors by (N, e), NaN = unknown
    "param",        # (3,) f8: CF, z = Phi^-1(1 - CF), min_obj
    # --- one fit
    "attr", "first", "depth", "stack", "stack2", "sub", "st_k",   # (N,) i8
    "is_last", "empty",                                           # (N,) b1
    "dist",                                                       # (N * C,) f8
    "tot", "serr", "ef",                                          # (N,) f8
    "nmask", "pmask",                                             # (N, W) u8
    "cnt",          # (R, K) i8: counts of the node being split
    "rem",          # (D, R, K) i8: a parent's counts minus its counted children's
    "rem_ok",       # (D,) b1
    "ibag",         # (V,) i8
    "bag", "xbag",  # (V,) f8
    "xcnt",         # (C, V) f8
    "gain", "ratio",  # (a,) f8
    "valid",        # (a,) b1
    "order",        # (a,) i8
    "acc", "prob",  # (C,) f8
    "tbits",        # (W,) u8: test instances of a split
])


@numba.njit(inline='always', **_JIT)
def _instance_bitsets(X, y, n_values, off, n_classes):
    """Bitsets of the instances per (attribute, value) cell, (V, W) u8, and per class, (C, W) u8.

    Each 64-bit word is an OR-reduction over a block of 64 instances, whose
    codes are first copied into ``col`` (padded with -1, which matches no
    code, so the reduction always has the fixed length 64 that LLVM unrolls).
    """
    n, n_attr = X.shape
    W = (n + 63) // 64
    amask = np.zeros((max(off[n_attr], 1), W), np.uint64)
    cmask = np.zeros((n_classes, W), np.uint64)
    col = np.full(64, -1, np.int64)
    for wd in range(W):
        i0 = wd * 64
        m = min(64, n - i0)
        for t in range(m, 64):          # a short last block: no stale codes
            col[t] = -1
        for t in range(m):
            col[t] = y[i0 + t]
        for c in range(n_classes):
            word = np.uint64(0)
            for t in range(64):
                word |= np.uint64(col[t] == c) << np.uint64(t)
            cmask[c, wd] = word
        for j in range(n_attr):
            for t in range(m):
                col[t] = X[i0 + t, j]
            for b in range(n_values[j]):
                word = np.uint64(0)
                for t in range(64):
                    word |= np.uint64(col[t] == b) << np.uint64(t)
                amask[off[j] + b, wd] = word
    return amask, cmask


@numba.njit(**_JIT)
def _c45_bits_data(X, y, n_values, n_classes, confidence, min_obj):
    """(n, a) i8, (n,) i8, (a,) i8, i8, f8 CF, i8 M -> _Bits of the data set (see :data:`_Bits`)."""
    n, n_attr = X.shape
    C = n_classes
    off = np.zeros(n_attr + 1, np.int64)
    max_nv = 1
    binary = C == 2
    for j in range(n_attr):
        off[j + 1] = off[j] + n_values[j]
        max_nv = max(max_nv, n_values[j])
        binary = binary and n_values[j] == 2
    V = off[n_attr]
    W = (n + 63) // 64
    amask, cmask = _instance_bitsets(X, y, n_values, off, C)
    # The counted cells and row masks (see bitset_growth).
    if binary:
        cells = off[:n_attr].copy()              # value 0 of every attribute
        rmask = np.empty((2, W), np.uint64)
        rmask[0] = cmask[0]
        rmask[1] = ~np.uint64(0)                 # all instances: the cell sizes
    else:
        cells = np.arange(V)                     # every cell, one row per class
        rmask = cmask.copy()
    K = cells.shape[0]
    cells_t = np.empty((W, max(K, 1)), np.uint64)
    for w in range(W):
        for k in range(K):
            cells_t[w, k] = amask[cells[k], w]
    # x*log2(x) for counts 0..n, bit for bit _xlogx(float(k)) (the same table and formula).
    xtab = np.empty(n + 1, np.float64)
    for k in range(n + 1):
        xtab[k] = _XLOGX_TABLE[k] if k < _N_TABLE else np.float64(k) * math.log(k) / _LOG2
    memo = np.full(_MEMO_N * (_MEMO_N + 1) // 2, np.nan)
    cf, z = _weka_cf(confidence)
    param = np.array([cf, z, np.float64(min_obj)])

    # Node capacity: an internal node has >= 2 branches holding >= max(M, 1)
    # instances each, so there are fewer than n / max(M, 1) internal nodes.
    cap = (n // max(min_obj, 1) + 1) * max_nv + 1
    # A nominal attribute splits at most once on a path (its second split would
    # leave a single non-empty branch); deeper nodes just count themselves.
    D = n_attr + 2
    R = rmask.shape[0]
    Km = max(K, 1)
    Vm = max(V, 1)
    Am = max(n_attr, 1)
    return _Bits(
        n_values, off, amask, cells_t, rmask, cmask, xtab, memo, param,
        np.full(cap, -1, np.int64), np.full(cap, -1, np.int64), np.zeros(cap, np.int64),
        np.empty(cap, np.int64), np.empty(cap, np.int64), np.empty(cap, np.int64),
        np.empty(cap, np.int64),
        np.zeros(cap, np.bool_), np.zeros(cap, np.bool_),
        np.zeros(cap * C, np.float64),
        np.zeros(cap, np.float64), np.zeros(cap, np.float64), np.zeros(cap, np.float64),
        np.zeros((cap, W), np.uint64), np.zeros((cap, W), np.uint64),
        np.zeros((R, Km), np.int64), np.zeros((D, R, Km), np.int64), np.zeros(D, np.bool_),
        np.zeros(Vm, np.int64), np.zeros(Vm, np.float64), np.zeros(Vm, np.float64),
        np.zeros((C, Vm), np.float64),
        np.zeros(Am, np.float64), np.zeros(Am, np.float64), np.zeros(Am, np.bool_),
        np.zeros(Am, np.int64),
        np.zeros(max(C, 1), np.float64), np.zeros(max(C, 1), np.float64),
        np.zeros(W, np.uint64),
    )


@numba.njit(inline='always', **_JIT)
def _build(bt, C, n_train):
    """Grow, collapse and prune the tree of the instances in ``bt.nmask[0]`` (n_train of them)."""
    (n_values, off, amask, cells_t, rmask, cmask, xtab, memo, param, attr, first, depth, stack,
     stack2, sub, st_k, is_last, empty, dist, tot, serr, ef, nmask, pmask, cnt, rem, rem_ok,
     ibag, bag, xbag, xcnt, gain, ratio, valid, order, acc, _, _) = bt
    n_nodes = _grow(C, n_values, off, amask, cells_t, rmask, cmask, xtab, param[2],
                    np.float64(n_train), attr, first, depth, is_last, empty, dist, tot, nmask,
                    stack, cnt, rem, rem_ok, ibag, bag, xcnt, xbag, gain, ratio, valid, order)
    _collapse(attr, first, dist, tot, serr, n_values, C, n_nodes, stack)
    _prune(C, n_values, off, amask, cmask, param[0], param[1], memo, attr, first, empty, dist, tot,
           serr, nmask, pmask, acc, ef, sub, stack, stack2, st_k)


@numba.njit(**_JIT_NO_NRT)
def _c45_build(bt, n_classes, n_train):
    """_build as a kernel of its own, without reference counting (for :func:`_c45_fit`)."""
    _build(bt, n_classes, n_train)


@numba.njit(**_JIT)
def _c45_fit(X, y, n_values, n_classes, confidence, min_obj):
    """(n, a) i8, (n,) i8, (a,) i8, i8, f8 CF, i8 M -> tree (attr, first_child, node_class,
    node_prob, node_dist): J48 on all instances, each of weight 1."""
    n = X.shape[0]
    bt = _c45_bits_data(X, y, n_values, n_classes, confidence, min_obj)
    nmask = bt.nmask
    for w in range(nmask.shape[1]):
        m = min(64, n - 64 * w)
        nmask[0, w] = ~np.uint64(0) if m == 64 else (np.uint64(1) << np.uint64(m)) - np.uint64(1)
    _c45_build(bt, n_classes, n)
    return _compact(bt.attr, bt.first, bt.dist, bt.tot, bt.empty, n_values, n_classes)


@numba.njit(inline='always', **_JIT)
def _set_split(bt, is_test):
    """Set the root ``nmask[0]`` to the training instances of a split and ``tbits`` to its
    test instances; return the number of training instances."""
    nmask = bt.nmask
    tbits = bt.tbits
    n_train = 0
    for w in range(nmask.shape[1]):
        word, full = _mask_word(is_test, w)
        tbits[w] = word
        nmask[0, w] = full & ~word
        n_train += _popcount(nmask[0, w])
    return n_train


@numba.njit(inline='always', **_JIT)
def _score_test(bt, C, correct_out, record):
    """Send the test instances ``tbits`` down the fitted tree; return (n_correct, n_nodes).

    ``pmask[u]`` holds those reaching u, and at a leaf the ones of its predicted
    class are correct (set in ``correct_out`` (n,) b1 if ``record``).
    """
    attr = bt.attr
    first = bt.first
    off = bt.off
    n_values = bt.n_values
    amask = bt.amask
    cmask = bt.cmask
    pmask = bt.pmask
    stack = bt.stack
    parent = bt.sub
    tbits = bt.tbits
    W = pmask.shape[1]
    for w in range(W):
        pmask[0, w] = tbits[w]
    parent[0] = -1
    n_correct = 0
    n_nodes = 0
    sp = 1
    stack[0] = 0
    while sp > 0:
        sp -= 1
        u = stack[sp]
        n_nodes += 1
        if attr[u] >= 0:
            ob = off[attr[u]]
            for b in range(n_values[attr[u]]):
                ch = first[u] + b
                _restrict(pmask, u, ch, amask, ob + b)
                parent[ch] = u
                stack[sp] = ch
                sp += 1
            continue
        c = _node_prediction(bt.dist, bt.tot, bt.empty, u, parent[u], C, bt.prob)
        for w in range(W):
            hit = pmask[u, w] & cmask[c, w]
            n_correct += _popcount(hit)
            if record:
                while hit:
                    correct_out[64 * w + _lowest_bit(hit)] = True
                    hit &= hit - np.uint64(1)
    return n_correct, n_nodes


@numba.njit(**_JIT_NO_NRT)
def _c45_fold_score(bt, n_classes, is_test, correct_out, record):
    """Fit J48 on the instances where ``is_test`` (n,) b1 is False and classify the others.

    ``bt`` is the data set's :data:`_Bits`. Returns ``(n_correct, n_nodes)``:
    the number of test instances classified correctly and the tree's size
    (J48's "Size of the tree"). If ``record``, sets ``correct_out[i]`` (n,) b1
    to True for every test instance i classified correctly.
    """
    n_train = _set_split(bt, is_test)
    _build(bt, n_classes, n_train)
    return _score_test(bt, n_classes, correct_out, record)


@numba.njit(inline='always', **_JIT)
def _proba_test(bt, C, proba_out):
    """After :func:`_score_test`: the class probabilities of each test instance into
    ``proba_out[i]`` (n, C) f8, rows of other instances untouched.

    They are J48's ``distributionForInstance`` as :func:`.predictor._c45_predict_proba`
    gives it for the compact tree: the leaf's (an empty leaf's parent's) class
    frequencies, computed by the same :func:`.predictor._node_prediction`. Reads the sets
    ``pmask`` of test instances reaching each node and the parents ``sub`` that
    :func:`_score_test` left.
    """
    attr = bt.attr
    first = bt.first
    n_values = bt.n_values
    pmask = bt.pmask
    stack = bt.stack
    parent = bt.sub
    prob = bt.prob
    W = pmask.shape[1]
    sp = 1
    stack[0] = 0
    while sp > 0:
        sp -= 1
        u = stack[sp]
        if attr[u] >= 0:
            for b in range(n_values[attr[u]]):
                stack[sp] = first[u] + b
                sp += 1
            continue
        _node_prediction(bt.dist, bt.tot, bt.empty, u, parent[u], C, prob)
        for w in range(W):
            hit = pmask[u, w]
            while hit:
                i = 64 * w + _lowest_bit(hit)
                for c in range(C):
                    proba_out[i, c] = prob[c]
                hit &= hit - np.uint64(1)


@numba.njit(**_JIT_NO_NRT)
def _c45_fold_proba(bt, n_classes, is_test, correct_out, record, proba_out):
    """:func:`_c45_fold_score`, and the class probabilities of the test instances.

    Returns ``(n_correct, n_nodes)`` as :func:`_c45_fold_score` (the same fit and the same
    predictions: J48's class is not always the first largest probability, see
    :func:`.predictor._first_max`) and sets ``proba_out[i]`` (n, C) f8 of every test
    instance i to its class probabilities, bit for bit those of
    :func:`.predictor._c45_predict_proba` with the tree :func:`_c45_fit` grows on the
    training instances; rows of training instances are left as they are.
    """
    n_train = _set_split(bt, is_test)
    _build(bt, n_classes, n_train)
    out = _score_test(bt, n_classes, correct_out, record)
    _proba_test(bt, n_classes, proba_out)
    return out


@numba.njit(**_JIT_NO_NRT)
def _c45_grow_split(bt, n_classes, is_test):
    """Grow and collapse (not prune) J48's tree on the training part of a split.

    The first half of :func:`_c45_fold_score`: neither step depends on the
    confidence (J48's ``-C`` enters pruning only), so one grown tree serves every
    confidence (:func:`_c45_prune_score`). Returns the number of nodes.
    """
    (n_values, off, amask, cells_t, rmask, cmask, xtab, memo, param, attr, first, depth, stack,
     stack2, sub, st_k, is_last, empty, dist, tot, serr, ef, nmask, pmask, cnt, rem, rem_ok,
     ibag, bag, xbag, xcnt, gain, ratio, valid, order, acc, _, _) = bt
    n_train = _set_split(bt, is_test)
    n_nodes = _grow(n_classes, n_values, off, amask, cells_t, rmask, cmask, xtab, param[2],
                    np.float64(n_train), attr, first, depth, is_last, empty, dist, tot, nmask,
                    stack, cnt, rem, rem_ok, ibag, bag, xcnt, xbag, gain, ratio, valid, order)
    _collapse(attr, first, dist, tot, serr, n_values, n_classes, n_nodes, stack)
    return n_nodes


@numba.njit(**_JIT_NO_NRT)
def _c45_prune_score(bt, n_classes, cf, z, memo, correct_out, record):
    """Prune the tree of :func:`_c45_grow_split` at confidence factor ``cf`` (with
    ``z`` and ``memo`` of that confidence, :func:`.criterion._weka_cf`)
    and score the split's test instances, as the second half of
    :func:`_c45_fold_score`; returns ``(n_correct, n_nodes)``."""
    (n_values, off, amask, cells_t, rmask, cmask, xtab, _, param, attr, first, depth, stack,
     stack2, sub, st_k, is_last, empty, dist, tot, serr, ef, nmask, pmask, cnt, rem, rem_ok,
     ibag, bag, xbag, xcnt, gain, ratio, valid, order, acc, _, _) = bt
    _prune(n_classes, n_values, off, amask, cmask, cf, z, memo, attr, first, empty, dist, tot,
           serr, nmask, pmask, acc, ef, sub, stack, stack2, st_k)
    return _score_test(bt, n_classes, correct_out, record)
