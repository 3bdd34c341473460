"""Private numba kernels for naive Bayes on nominal attributes (Weka 3.6 NaiveBayes).

The class prior and every conditional distribution are Laplace-corrected
discrete estimators (Weka's ``DiscreteEstimator(k, laplace=true)``): counts
start at 1 and the total at ``k``, and each training instance adds its weight.
Class scores are formed exactly as ``NaiveBayes.distributionForInstance``
does -- the prior times ``max(1e-75, P(v | c))`` attribute by attribute, scaled
by 1e75 whenever the largest score falls below 1e-75, then divided by their
sum -- so that exact floating-point ties are broken as in Weka (lowest class
index). No Weka code is copied.

A fitted model is the tuple ``(prior, cond, offset)``: ``prior`` of shape
(C,) holds P(c); ``cond`` of shape (sum(n_values), C) holds
``max(1e-75, P(v | c))`` with the rows of attribute ``j`` starting at
``offset[j]``; ``offset`` has shape (a + 1,).
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def _nb_fit_weighted(X, y, w, n_values, n_classes):
    """(n, a) i8, (n,) i8, (n,) f8 weights, (a,) i8, i8 -> (prior (C,), cond (V, C), offset (a+1,))."""
    n, n_attr = X.shape
    C = n_classes
    offset = np.zeros(n_attr + 1, np.int64)
    for j in range(n_attr):
        offset[j + 1] = offset[j] + n_values[j]
    counts = np.ones((offset[n_attr], C), np.float64)      # Laplace: start at 1
    class_counts = np.ones(C, np.float64)
    class_sum = np.float64(C)
    cond_sum = np.empty((n_attr, C), np.float64)
    for j in range(n_attr):
        for c in range(C):
            cond_sum[j, c] = np.float64(n_values[j])
    for i in range(n):
        c = y[i]
        wt = w[i]
        class_counts[c] += wt
        class_sum += wt
        for j in range(n_attr):
            counts[offset[j] + X[i, j], c] += wt
            cond_sum[j, c] += wt
    prior = np.empty(C, np.float64)
    for c in range(C):
        prior[c] = class_counts[c] / class_sum
    cond = np.empty((offset[n_attr], C), np.float64)
    for j in range(n_attr):
        for v in range(offset[j], offset[j + 1]):
            for c in range(C):
                cond[v, c] = max(1e-75, counts[v, c] / cond_sum[j, c])
    return prior, cond, offset


@numba.njit(cache=True)
def _nb_fit(X, y, n_values, n_classes):
    """(n, a) i8, (n,) i8, (a,) i8, i8 -> model (prior (C,), cond (V, C), offset (a+1,)).

    All weights are 1, so every sum of :func:`_nb_fit_weighted` is an integer
    that float64 holds exactly in any order: the counts are taken as integers
    (no floating-point add chains) and the model is bit for bit the same.
    """
    n, n_attr = X.shape
    C = n_classes
    offset = np.zeros(n_attr + 1, np.int64)
    for j in range(n_attr):
        offset[j + 1] = offset[j] + n_values[j]
    counts = np.zeros((offset[n_attr], C), np.int64)
    class_counts = np.zeros(C, np.int64)
    for i in range(n):
        c = y[i]
        class_counts[c] += 1
        for j in range(n_attr):
            counts[offset[j] + X[i, j], c] += 1
    prior = np.empty(C, np.float64)
    class_sum = np.float64(C + n)                       # Laplace: C + sum of weights
    for c in range(C):
        prior[c] = np.float64(1 + class_counts[c]) / class_sum
    cond = np.empty((offset[n_attr], C), np.float64)
    for j in range(n_attr):
        for c in range(C):
            cond_sum = np.float64(n_values[j] + class_counts[c])
            for v in range(offset[j], offset[j + 1]):
                cond[v, c] = max(1e-75, np.float64(1 + counts[v, c]) / cond_sum)
    return prior, cond, offset


@numba.njit(cache=True)
def _nb_scores_row(model, X, i, probs):
    """model, (n, a) i8, i8 row, (C,) f8 out -> None: Weka's normalised class probabilities of row i."""
    prior, cond, offset = model
    C = prior.shape[0]
    for c in range(C):
        probs[c] = prior[c]
    for j in range(X.shape[1]):
        row = offset[j] + X[i, j]
        mx = 0.0
        for c in range(C):
            probs[c] *= cond[row, c]
            if probs[c] > mx:
                mx = probs[c]
        if mx > 0.0 and mx < 1e-75:          # rescale against underflow
            for c in range(C):
                probs[c] *= 1e75
    s = 0.0
    for c in range(C):
        s += probs[c]
    for c in range(C):
        probs[c] /= s


@numba.njit(cache=True)
def _nb_predict_proba(model, X):
    """model, (n_test, a) i8 -> (n_test, C) f8 class probabilities (rows sum to 1)."""
    C = model[0].shape[0]
    out = np.empty((X.shape[0], C), np.float64)
    probs = np.empty(C, np.float64)
    for i in range(X.shape[0]):
        _nb_scores_row(model, X, i, probs)
        out[i, :] = probs
    return out


@numba.njit(cache=True)
def _nb_predict(model, X):
    """model, (n_test, a) i8 -> (n_test,) i8 predicted class codes (ties to the lowest code)."""
    C = model[0].shape[0]
    out = np.empty(X.shape[0], np.int64)
    probs = np.empty(C, np.float64)
    for i in range(X.shape[0]):
        _nb_scores_row(model, X, i, probs)
        best = 0
        mx = 0.0
        for c in range(C):
            if probs[c] > mx:
                mx = probs[c]
                best = c
        out[i] = best
    return out
