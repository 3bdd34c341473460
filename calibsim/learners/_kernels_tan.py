"""Private numba kernels of tree-augmented naive Bayes as Weka 3.6 builds it.

Written from the description of Weka's ``BayesNet`` with the ``TAN`` search
and the ``SimpleEstimator`` (no Weka code is copied); the order of every
floating-point operation that can decide a tie follows Weka's.

Structure (Weka's ``TAN.buildStructure``): every attribute gets the class as
a parent. With the Bayesian (BDeu-style Dirichlet, prior count ``alpha =
0.5``) log score of an attribute given a parent set,

    score(i | P) = sum over parent configurations q of
                   [ sum_v lnGamma(alpha + N_qv) - lnGamma(sum_v (alpha + N_qv))
                     - V_i lnGamma(alpha) + lnGamma(V_i alpha) ],

the gain of the arc j -> i is ``score(i | {class, j}) - score(i | {class})``.
The tree is grown like Prim's algorithm: the first link is the pair (i, j) of
largest gain, scanning ``i`` (outer) and ``j`` (inner) over the attributes in
order and replacing the best only on a strictly larger gain; every further link
is the best pair with exactly one end already linked, scanned the same way.
Each link (i, j) is then directed in the order the links were found: ``j``
gets parent ``i`` unless ``j`` already has one, in which case ``i`` gets
parent ``j``.

Parameters (``SimpleEstimator``, ``alpha = 0.5``): every conditional table
cell is ``(N_qv + 0.5) / (N_q + 0.5 V_i)`` and the class prior is
``(N_c + 0.5) / (N + 0.5 C)``.

Prediction (``SimpleEstimator.distributionForInstance``): for each class ``c``,
``s_c = 1.0 + (log P(x_0 | pa) + ... + log P(x_{a-1} | pa) + log P(c))`` summed
left to right; the distribution is ``exp(s_c - s_0max)`` normalised, where the
maximum is taken starting from ``s_0``; the predicted class is the first with
the largest probability.

``lnGamma`` is Cephes' ``lgam`` (S. L. Moshier), which Weka's
``Statistics.lnGamma`` uses; only the branch for positive arguments is needed.
"""

from __future__ import annotations

import numba
import numpy as np

from ._kernels_nb import _first_largest, _p1evl, _polevl

# Cephes lgam coefficients (Stirling series and the rational approximation on [2, 3)).
_LG_A = np.array([8.11614167470508450300e-4, -5.95061904284301438324e-4,
                  7.93650340457716943945e-4, -2.77777777730099687205e-3,
                  8.33333333333331927722e-2])
_LG_B = np.array([-1.37825152569120859100e3, -3.88016315134637840924e4,
                  -3.31612992738871184744e5, -1.16237097492762307383e6,
                  -1.72173700820839662146e6, -8.53555664245765465627e5])
_LG_C = np.array([-3.51815701436523470549e2, -1.70642106651881159223e4,
                  -2.20528590553854454839e5, -1.13933444367982507207e6,
                  -2.53252307177582951285e6, -2.01889141433532773231e6])
_LS2PI = 0.91893853320467274178          # log(sqrt(2 pi))


@numba.njit(cache=True)
def _lngamma(x):
    """log Gamma(x) for x > 0, computed as Cephes ``lgam`` (and Weka's ``Statistics.lnGamma``)."""
    if x < 13.0:
        z = 1.0
        while x >= 3.0:
            x -= 1.0
            z *= x
        while x < 2.0:
            z /= x
            x += 1.0
        if z < 0.0:
            z = -z
        if x == 2.0:
            return np.log(z)
        x -= 2.0
        p = x * _polevl(x, _LG_B) / _p1evl(x, _LG_C)
        return np.log(z) + p
    q = (x - 0.5) * np.log(x) - x + _LS2PI
    if x > 1.0e8:
        return q
    p = 1.0 / (x * x)
    if x >= 1000.0:
        q += ((7.9365079365079365079365e-4 * p - 2.7777777777777777777778e-3) * p
              + 0.0833333333333333333333) / x
    else:
        q += _polevl(p, _LG_A) / x
    return q


@numba.njit(cache=True)
def _lg_half(memo, m):
    """lnGamma(m / 2), memoised in ``memo`` (NaN = not yet computed)."""
    v = memo[m]
    if v != v:
        v = _lngamma(0.5 * m)
        memo[m] = v
    return v


@numba.njit(cache=True)
def _node_score(joint, off, class_counts, memo, i, j, V_i, V_j, C):
    """Bayesian log score of attribute i with parents {class} (j < 0) or {class, j}.

    Parent configurations are visited as Weka numbers them (class major, then
    the value of j); every count is an integer, so ``alpha + N`` is a
    half-integer ``m / 2`` and lnGamma is looked up in ``memo`` by ``m``.
    """
    score = 0.0
    lg_alpha = _lg_half(memo, np.int64(1))   # lnGamma(0.5)
    lg_v_alpha = _lg_half(memo, V_i)         # lnGamma(V_i * 0.5)
    n_par = 1 if j < 0 else V_j
    for c in range(C):
        for q in range(n_par):
            total = np.int64(0)               # 2 * sum_v (alpha + N_qv)
            for v in range(V_i):
                if j < 0:
                    cnt = joint[off[i] + v, off[i] + v, c]
                else:
                    cnt = joint[off[i] + v, off[j] + q, c]
                score += _lg_half(memo, 2 * cnt + 1)
                total += 2 * cnt + 1
            score -= _lg_half(memo, total)
            score -= V_i * lg_alpha
            score += lg_v_alpha
    return score


@numba.njit(cache=True)
def _tan_fit(X, y, n_values, n_classes):
    """(n, a) i8, (n,) i8, (a,) i8, i8 -> model (parent, log_cpt, cpt_off, log_prior).

    Shapes: parent (a,) i8, log_cpt (T,) f8, cpt_off (a,) i8, log_prior (C,) f8.

    ``parent[i]`` is the tree parent of attribute i (-1 for none: the root,
    or every attribute when a < 2). The table of attribute i starts at
    ``cpt_off[i]`` and holds ``log P(x_i = v | class c, x_parent = u)`` at
    ``cpt_off[i] + (c * V_parent + u) * V_i + v`` (``V_parent = 1``, ``u = 0``
    without a tree parent).
    """
    n, a = X.shape
    C = n_classes
    off = np.zeros(a + 1, np.int64)
    for j in range(a):
        off[j + 1] = off[j] + n_values[j]
    T = off[a]
    # joint[off[i] + u, off[j] + v, c]: instances of class c with x_i = u and x_j = v
    joint = np.zeros((T, T, C), np.int64)
    class_counts = np.zeros(C, np.int64)
    for r in range(n):
        c = y[r]
        class_counts[c] += 1
        for i in range(a):
            oi = off[i] + X[r, i]
            for j in range(i, a):
                joint[oi, off[j] + X[r, j], c] += 1
    for i in range(a):                       # mirror the upper triangle
        for j in range(i + 1, a):
            for u in range(n_values[i]):
                for v in range(n_values[j]):
                    for c in range(C):
                        joint[off[j] + v, off[i] + u, c] = joint[off[i] + u, off[j] + v, c]
    max_v = 1
    for j in range(a):
        if n_values[j] > max_v:
            max_v = n_values[j]
    memo = np.full(2 * n + max_v + 2, np.nan)
    parent = np.full(a, -1, np.int64)
    if a >= 2:
        base = np.empty(a)
        for i in range(a):
            base[i] = _node_score(joint, off, class_counts, memo, i, np.int64(-1), n_values[i],
                                  np.int64(1), C)
        gain = np.zeros((a, a))
        for i in range(a):
            for j in range(a):
                if i != j:
                    gain[i, j] = _node_score(joint, off, class_counts, memo, i, j, n_values[i],
                                             n_values[j], C) - base[i]
        link1 = np.empty(a - 1, np.int64)
        link2 = np.empty(a - 1, np.int64)
        linked = np.zeros(a, np.bool_)
        best = 0.0
        for k in range(a - 1):
            b1 = -1
            b2 = -1
            for i in range(a):
                for j in range(a):
                    if i == j:
                        continue
                    if k > 0 and linked[i] == linked[j]:
                        continue                 # exactly one end already in the tree
                    if b1 == -1 or gain[i, j] > best:
                        best = gain[i, j]
                        b1 = j
                        b2 = i
            link1[k] = b1
            link2[k] = b2
            linked[b1] = True
            linked[b2] = True
        has_parent = np.zeros(a, np.bool_)
        for k in range(a - 1):
            if not has_parent[link1[k]]:
                parent[link1[k]] = link2[k]
                has_parent[link1[k]] = True
            else:
                if has_parent[link2[k]]:
                    raise ValueError("TAN: an attribute would get two tree parents")
                parent[link2[k]] = link1[k]
                has_parent[link2[k]] = True
    # conditional probability tables, as logs
    cpt_off = np.zeros(a, np.int64)
    total = 0
    for i in range(a):
        cpt_off[i] = total
        vp = 1 if parent[i] < 0 else n_values[parent[i]]
        total += C * vp * n_values[i]
    log_cpt = np.empty(total)
    for i in range(a):
        V = n_values[i]
        p = parent[i]
        vp = 1 if p < 0 else n_values[p]
        for c in range(C):
            for u in range(vp):
                # parent configuration (c, u): column off[p] + u, or the diagonal without p
                nq = 0
                for v in range(V):
                    col = off[i] + v if p < 0 else off[p] + u
                    nq += joint[off[i] + v, col, c]
                denom = 0.5 * V + nq
                for v in range(V):
                    col = off[i] + v if p < 0 else off[p] + u
                    cnt = joint[off[i] + v, col, c]
                    log_cpt[cpt_off[i] + (c * vp + u) * V + v] = np.log((cnt + 0.5) / denom)
    log_prior = np.empty(C)
    for c in range(C):
        log_prior[c] = np.log((class_counts[c] + 0.5) / (0.5 * C + n))
    return parent, log_cpt, cpt_off, log_prior


@numba.njit(cache=True)
def _tan_scores_row(model, n_values, X, r, probs):
    """Weka's normalised class probabilities of row r into ``probs``."""
    parent, log_cpt, cpt_off, log_prior = model
    C = log_prior.shape[0]
    a = X.shape[1]
    for c in range(C):
        s = 0.0
        for i in range(a):
            p = parent[i]
            V = n_values[i]
            if p < 0:
                cell = cpt_off[i] + c * V + X[r, i]
            else:
                cell = cpt_off[i] + (c * n_values[p] + X[r, p]) * V + X[r, i]
            s += log_cpt[cell]
        s += log_prior[c]
        probs[c] = 1.0 + s
    mx = probs[0]
    for c in range(C):
        if probs[c] > mx:
            mx = probs[c]
    tot = 0.0
    for c in range(C):
        probs[c] = np.exp(probs[c] - mx)
        tot += probs[c]
    for c in range(C):
        probs[c] /= tot


@numba.njit(cache=True)
def _tan_predict_proba(model, n_values, X):
    """model, (a,) i8, (n_test, a) i8 -> (n_test, C) f8 class probabilities."""
    C = model[3].shape[0]
    out = np.empty((X.shape[0], C))
    probs = np.empty(C)
    for r in range(X.shape[0]):
        _tan_scores_row(model, n_values, X, r, probs)
        out[r, :] = probs
    return out


@numba.njit(cache=True)
def _tan_predict(model, n_values, X):
    """model, (a,) i8, (n_test, a) i8 -> (n_test,) i8 class codes (ties to the lowest code)."""
    C = model[3].shape[0]
    out = np.empty(X.shape[0], np.int64)
    probs = np.empty(C)
    for r in range(X.shape[0]):
        _tan_scores_row(model, n_values, X, r, probs)
        out[r] = _first_largest(probs)
    return out
