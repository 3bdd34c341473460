"""Numba kernel that trains and tests a set of learners on many splits.

Private: called by :func:`calibsim.evaluate.score_splits`, which validates.
One call evaluates every split of one data set, so no Python runs between folds.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .learners._kernels_c45 import _c45_fit, _c45_predict, _c45_size
from .learners._kernels_nb import _nb_fit, _nb_predict

#: Learner identifiers understood by the kernel.
LEARNER_IDS = {"naive_bayes": 0, "c45": 1}


@nb.njit(cache=True)
def _evaluate_splits(X, y, n_values, n_classes, learner_ids, test_masks,
                     c45_confidence, c45_min_obj):
    """(n, a) i8, (n,) i8, (a,) i8, i8, (L,) i8, (s, n) b1, f8, i8
    -> correct (L, s) i8, n_test (s,) i8, model_size (L, s) i8"""
    n, a = X.shape
    n_splits = test_masks.shape[0]
    n_learners = learner_ids.shape[0]
    correct = np.zeros((n_learners, n_splits), dtype=np.int64)
    model_size = np.full((n_learners, n_splits), -1, dtype=np.int64)
    n_test_out = np.zeros(n_splits, dtype=np.int64)
    X_tr = np.empty((n, a), dtype=np.int64)
    X_te = np.empty((n, a), dtype=np.int64)
    y_tr = np.empty(n, dtype=np.int64)
    y_te = np.empty(n, dtype=np.int64)
    for s in range(n_splits):
        n_tr = 0
        n_te = 0
        for i in range(n):
            if test_masks[s, i]:
                X_te[n_te, :] = X[i, :]
                y_te[n_te] = y[i]
                n_te += 1
            else:
                X_tr[n_tr, :] = X[i, :]
                y_tr[n_tr] = y[i]
                n_tr += 1
        n_test_out[s] = n_te
        Xtr = X_tr[:n_tr]
        ytr = y_tr[:n_tr]
        Xte = X_te[:n_te]
        for l in range(n_learners):
            if learner_ids[l] == 0:
                model = _nb_fit(Xtr, ytr, n_values, n_classes)
                pred = _nb_predict(model, Xte)
                model_size[l, s] = 0
            else:
                tree = _c45_fit(Xtr, ytr, n_values, n_classes, c45_confidence, c45_min_obj)
                pred = _c45_predict(tree, Xte)
                model_size[l, s] = _c45_size(tree)[0]
            c = 0
            for t in range(n_te):
                if pred[t] == y_te[t]:
                    c += 1
            correct[l, s] = c
    return correct, n_test_out, model_size
