"""Private numba kernels of the voted perceptron as Weka 3.6 trains it.

Written from the description of Weka's ``weka.classifiers.functions.VotedPerceptron``
(Freund & Schapire 1999; no Weka code is copied).

Weka first turns each nominal attribute into numbers (``NominalToBinary``):
an attribute with at most two values becomes one 0/1 attribute equal to its
code, one with ``V > 2`` values becomes ``V`` indicator attributes. The
kernel with exponent 1 is ``K(u, v) = u . v + 1`` (Weka adds the 1), so on
nominal codes ``K(u, v) = 1 + sum_j k_j(u_j, v_j)`` with ``k_j = u_j v_j``
for ``V_j <= 2`` and ``k_j = [u_j == v_j]`` otherwise: every quantity is an
integer and exact in any order.

Training: the instances are shuffled with Weka's ``Instances.randomize`` on
``java.util.Random(seed)`` (for ``j = n-1 .. 1``: swap ``j`` with
``nextInt(j + 1)``) and visited in that order ``n_iterations`` times. The
current perceptron predicts class 1 when ``sum_k s_k K(x_k, x) >= 0`` (the
empty perceptron predicts 1), where ``x_k`` are the misclassified
instances so far and ``s_k = +1`` for class 1, -1 for class 0. A correct
prediction adds one to the current perceptron's survival count; a mistake
appends the instance and starts a new perceptron with count 1. Training stops
after ``max_k`` mistakes.

Prediction: ``output = sum_i c_i sign_i`` over perceptrons ``i = 0 .. K``
with survival count ``c_i`` and ``sign_i = -1`` if the i-th perceptron's sum is
negative, else +1; Weka's distribution is ``P(1) = 1 / (1 + exp(-output))``,
``P(0) = 1 - P(1)``, so class 1 is predicted iff ``output > 0`` (a zero output,
e.g. when training made no mistake, goes to class 0).
"""

from __future__ import annotations

import numba
import numpy as np

_MULT = np.uint64(0x5DEECE66D)
_ADDEND = np.uint64(0xB)
_MASK = np.uint64((1 << 48) - 1)


@numba.njit(cache=True)
def _java_shuffle(n, seed):
    """(n,) i8 order of ``Instances.randomize(new java.util.Random(seed))`` on n instances.

    Position k of the shuffled data holds the original instance ``order[k]``.
    ``java.util.Random`` is the 48-bit LCG ``s = s * 0x5DEECE66D + 0xB mod 2**48``,
    ``next(31) = s >> 17``, and ``nextInt(bound)`` rejects draws that would
    overflow a signed 32-bit int (powers of two take the high bits instead).
    """
    order = np.arange(n)
    s = (np.uint64(seed) ^ _MULT) & _MASK
    for j in range(n - 1, 0, -1):
        bound = j + 1
        s = (s * _MULT + _ADDEND) & _MASK
        r = np.int64(s >> np.uint64(17))
        m = bound - 1
        if (bound & m) == 0:
            r = (bound * r) >> 31
        else:
            u = r
            r = u % bound
            while u - r + m >= 2147483648:      # int overflow in Java: draw again
                s = (s * _MULT + _ADDEND) & _MASK
                u = np.int64(s >> np.uint64(17))
                r = u % bound
        t = order[j]
        order[j] = order[r]
        order[r] = t
    return order


@numba.njit(cache=True)
def _vp_kernel(X_a, ra, X_b, rb, n_values):
    """K(u, v) = 1 + NominalToBinary dot product of rows ``X_a[ra]`` and ``X_b[rb]``."""
    d = 1
    for j in range(n_values.shape[0]):
        u = X_a[ra, j]
        v = X_b[rb, j]
        if n_values[j] <= 2:
            d += u * v
        elif u == v:
            d += 1
    return d


@numba.njit(cache=True)
def _vp_fit(X, y, n_values, n_iterations, max_k, seed):
    """(n, a) i8, (n,) i8 in {0, 1}, (a,) i8, i8, i8, i8 -> model.

    Model ``(X_add (K, a) i8, sign (K,) i8, weights (K+1,) i8, n_values (a,) i8)``:
    the misclassified instances in order, +1/-1 for class 1/0, and the
    survival count of each of the K+1 perceptrons.
    """
    n, a = X.shape
    order = _java_shuffle(n, seed)
    # dense weight vector of the current perceptron in NominalToBinary coordinates
    boff = np.zeros(a + 1, np.int64)
    for j in range(a):
        boff[j + 1] = boff[j] + (1 if n_values[j] <= 2 else n_values[j])
    w = np.zeros(boff[a], np.int64)
    bias = 0
    add_rows = np.empty(min(max_k, n * n_iterations) + 1, np.int64)
    sign = np.empty(add_rows.shape[0], np.int64)
    weights = np.zeros(add_rows.shape[0] + 1, np.int64)
    K = 0
    done = False
    for it in range(n_iterations):
        if done:
            break
        for k in range(n):
            r = order[k]
            s = bias
            for j in range(a):
                if n_values[j] <= 2:
                    s += w[boff[j]] * X[r, j]
                else:
                    s += w[boff[j] + X[r, j]]
            pred = 0 if s < 0 else 1
            if pred == y[r]:
                weights[K] += 1
            else:
                sg = 1 if y[r] == 1 else -1
                add_rows[K] = r
                sign[K] = sg
                bias += sg
                for j in range(a):
                    if n_values[j] <= 2:
                        w[boff[j]] += sg * X[r, j]
                    else:
                        w[boff[j] + X[r, j]] += sg
                K += 1
                weights[K] += 1
                if K == max_k:
                    done = True
                    break
    X_add = np.empty((K, a), np.int64)
    for k in range(K):
        for j in range(a):
            X_add[k, j] = X[add_rows[k], j]
    return X_add, sign[:K].copy(), weights[:K + 1].copy(), n_values.copy()


@numba.njit(cache=True)
def _vp_output(model, X, r):
    """Weka's vote ``output`` (an integer) for row r of X."""
    X_add, sign, weights, n_values = model
    K = X_add.shape[0]
    if K == 0:
        return 0
    out = 0
    cur = 0
    for i in range(K + 1):
        if cur < 0:
            out -= weights[i]
        else:
            out += weights[i]
        if i < K:
            cur += sign[i] * _vp_kernel(X_add, i, X, r, n_values)
    return out


@numba.njit(cache=True)
def _vp_predict(model, X):
    """model, (n_test, a) i8 -> (n_test,) i8 class codes: 1 iff the vote is positive."""
    out = np.empty(X.shape[0], np.int64)
    for r in range(X.shape[0]):
        out[r] = 1 if _vp_output(model, X, r) > 0 else 0
    return out


@numba.njit(cache=True)
def _vp_predict_proba(model, X):
    """model, (n_test, a) i8 -> (n_test, 2) f8: Weka's (1 - 1/(1+exp(-o)), 1/(1+exp(-o)))."""
    out = np.empty((X.shape[0], 2))
    for r in range(X.shape[0]):
        p1 = 1.0 / (1.0 + np.exp(-np.float64(_vp_output(model, X, r))))
        out[r, 1] = p1
        out[r, 0] = 1.0 - p1
    return out


@numba.njit(cache=True)
def _vp_predict_with_proba(model, X, proba_out, rows):
    """model, (n_test, a) i8, (n, 2) f8 out, (n_test,) i8 -> (n_test,) i8 class codes.

    :func:`_vp_predict` and :func:`_vp_predict_proba` from one vote per row: returns the
    class codes and sets ``proba_out[rows[r]]`` to row r's probabilities, bit for bit
    those two kernels' (the same integer vote, the same expression).
    """
    out = np.empty(X.shape[0], np.int64)
    for r in range(X.shape[0]):
        o = _vp_output(model, X, r)
        out[r] = 1 if o > 0 else 0
        p1 = 1.0 / (1.0 + np.exp(-np.float64(o)))
        proba_out[rows[r], 1] = p1
        proba_out[rows[r], 0] = 1.0 - p1
    return out
