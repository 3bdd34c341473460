"""Numba kernel that trains and tests a set of learners on many splits.

Private: called by :func:`calibsim.evaluate.score_splits`, which validates.
One call evaluates every split of one data set, so no Python runs between folds.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..learners import _c45, _kernels_ib1, _kernels_nb, _kernels_tan, _kernels_vp
from ..learners._c45 import _c45_bits_data, _c45_fold_score, _flush_stale_caches
from ..learners._c45.bitops import _mask_word, _popcount
from ..learners._c45.bitset import _c45_fold_proba, _c45_grow_split, _c45_prune_score
from ..learners._c45.criterion import _weka_cf
from ..learners._c45.general import _c45_fit_rows, _presort
from ..learners._c45.predictor import (_c45_predict_general, _c45_predict_proba_general,
                                       _c45_size_general, _first_max)
from ..learners._kernels_ib1 import _ib1_predict
from ..learners._kernels_nb import (_first_largest, _nb_fit_general_kernel,
                                    _nb_model_from_counts, _nb_predict_general_kernel,
                                    _nb_predict_proba_general_kernel, _nb_predict_row,
                                    _nb_scores_row)
from ..learners._kernels_tan import _tan_fit, _tan_predict, _tan_predict_proba
from ..learners._kernels_vp import _vp_fit, _vp_predict, _vp_predict_with_proba

#: Learner identifiers understood by the kernel.
LEARNER_IDS = {"naive_bayes": 0, "c45": 1, "ib1": 2, "tan": 3, "voted_perceptron": 4}


@nb.njit(cache=True, nogil=True)
def _evaluate_core(X, y, n_values, n_classes, learner_ids, test_masks,
                   c45_confidence, c45_min_obj, correctness, record, proba):
    """Shared body of the entry kernels.

    (n, a) i8, (n,) i8, (a,) i8, i8, (L,) i8, (s, n) b1, f8, i8, (L, s, n) b1, b1,
    None or (L, s, n, C) f8 -> correct (L, s) i8, n_test (s,) i8, model_size (L, s) i8.
    If ``record``, sets ``correctness[l, s, i]`` to whether learner l classified
    test instance i of split s correctly (the array must start all False).
    Unless ``proba`` is None, sets ``proba[l, s, i]`` to learner l's class
    probabilities of test instance i of split s, bit for bit its estimator's
    ``predict_proba`` (training rows are left as they are). numba compiles the
    kernel once for ``proba`` None, with the probability code pruned before
    typing (``if proba is None``), and once for an array: the default path runs
    the code it ran before probabilities existed. The predictions, and so
    ``correct`` and ``correctness``, are the same either way.

    C4.5 and naive Bayes work on the data set's bitsets, built once here
    (``_c45_bits_data``): a split's training set is the data set minus its test
    instances, so they need no copied rows. The other learners get the split's
    training and test rows copied.
    """
    n, a = X.shape
    n_splits = test_masks.shape[0]
    n_learners = learner_ids.shape[0]
    correct = np.zeros((n_learners, n_splits), dtype=np.int64)
    model_size = np.full((n_learners, n_splits), -1, dtype=np.int64)
    n_test_out = np.zeros(n_splits, dtype=np.int64)
    need_bits = False
    need_rows = False
    need_f8 = False          # IB1 takes float64 data: the codes as floats
    for l in range(n_learners):
        if learner_ids[l] <= 1:
            need_bits = True
        else:
            need_rows = True
        if learner_ids[l] == 2:
            need_f8 = True
    m = n if need_rows else 0
    X_tr = np.empty((m, a), dtype=np.int64)
    X_te = np.empty((m, a), dtype=np.int64)
    y_tr = np.empty(m, dtype=np.int64)
    y_te = np.empty(m, dtype=np.int64)
    i_te = np.empty(m, dtype=np.int64)           # instance index of each test row
    X_trf = np.empty((n if need_f8 else 0, a), dtype=np.float64)
    X_tef = np.empty((n if need_f8 else 0, a), dtype=np.float64)
    numeric = np.zeros(a, dtype=np.bool_)
    n_bits = n if need_bits else 0
    c45 = _c45_bits_data(X[:n_bits], y[:n_bits], n_values, n_classes, c45_confidence, c45_min_obj)
    V = c45.off[a]
    nb_class_counts = np.zeros(n_classes, dtype=np.int64)
    nb_counts = np.zeros((V, n_classes), dtype=np.int64)
    nb_prior = np.zeros(n_classes, dtype=np.float64)
    nb_cond = np.zeros((V, n_classes), dtype=np.float64)
    nb_probs = np.zeros(n_classes, dtype=np.float64)
    train_words = np.zeros(c45.amask.shape[1], dtype=np.uint64)
    no_record = np.zeros(0, dtype=np.bool_)
    for s in range(n_splits):
        n_tr = 0
        n_te = 0
        if need_rows:
            # Rows copied element by element: cheaper than a slice assignment per row.
            for i in range(n):
                if test_masks[s, i]:
                    for j in range(a):
                        X_te[n_te, j] = X[i, j]
                    y_te[n_te] = y[i]
                    i_te[n_te] = i
                    n_te += 1
                else:
                    for j in range(a):
                        X_tr[n_tr, j] = X[i, j]
                    y_tr[n_tr] = y[i]
                    n_tr += 1
        else:
            for i in range(n):
                n_te += test_masks[s, i]
        n_test_out[s] = n_te
        Xtr = X_tr[:n_tr]
        ytr = y_tr[:n_tr]
        Xte = X_te[:n_te]
        if need_f8:
            for i in range(n_tr):
                for j in range(a):
                    X_trf[i, j] = X_tr[i, j]
            for i in range(n_te):
                for j in range(a):
                    X_tef[i, j] = X_te[i, j]
        for l in range(n_learners):
            lid = learner_ids[l]
            if lid == 1:
                row = correctness[l, s] if record else no_record
                if proba is None:
                    correct[l, s], model_size[l, s] = _c45_fold_score(c45, n_classes,
                                                                      test_masks[s], row, record)
                else:
                    correct[l, s], model_size[l, s] = _c45_fold_proba(
                        c45, n_classes, test_masks[s], row, record, proba[l, s])
                continue
            if lid == 0:
                row = correctness[l, s] if record else no_record
                correct[l, s] = _nb_fold_score(c45.amask, c45.cmask, c45.off, n_values, X, y,
                                               test_masks[s], train_words, nb_class_counts,
                                               nb_counts, nb_prior, nb_cond, nb_probs, row,
                                               record)
                if proba is not None:
                    # _nb_fold_score left the fold's model in nb_prior, nb_cond
                    _nb_fold_proba(nb_prior, nb_cond, c45.off, X, test_masks[s], nb_probs,
                                   proba[l, s])
                model_size[l, s] = 0
                continue
            if lid == 2:
                pred = _ib1_predict(X_trf[:n_tr], ytr, numeric, X_tef[:n_te])
                model_size[l, s] = 0
                if proba is not None:
                    # IB1's distribution: 1 for the predicted class, 0 elsewhere
                    for t in range(n_te):
                        for c in range(n_classes):
                            proba[l, s, i_te[t], c] = 0.0
                        proba[l, s, i_te[t], pred[t]] = 1.0
            elif lid == 3:
                tan = _tan_fit(Xtr, ytr, n_values, n_classes)
                if proba is None:
                    pred = _tan_predict(tan, n_values, Xte)
                else:
                    # _tan_predict is the first largest of these probabilities
                    tp = _tan_predict_proba(tan, n_values, Xte)
                    pred = np.empty(n_te, dtype=np.int64)
                    for t in range(n_te):
                        pred[t] = _first_largest(tp[t])
                        for c in range(n_classes):
                            proba[l, s, i_te[t], c] = tp[t, c]
                model_size[l, s] = 0
            else:
                vp = _vp_fit(Xtr, ytr, n_values, 1, 10000, 1)
                if proba is None:
                    pred = _vp_predict(vp, Xte)
                else:
                    pred = _vp_predict_with_proba(vp, Xte, proba[l, s], i_te[:n_te])
                model_size[l, s] = vp[0].shape[0]
            c = 0
            if record:
                for t in range(n_te):
                    if pred[t] == y_te[t]:
                        c += 1
                        correctness[l, s, i_te[t]] = True
            else:
                for t in range(n_te):
                    if pred[t] == y_te[t]:
                        c += 1
            correct[l, s] = c
    return correct, n_test_out, model_size


@nb.njit(cache=True, _nrt=False, error_model='numpy')
def _nb_fold_score(amask, cmask, off, n_values, X, y, is_test, train, class_counts, counts,
                   prior, cond, probs, correct_out, record):
    """Fit naive Bayes on the instances where ``is_test`` (n,) b1 is False and classify the others.

    The counts of :func:`calibsim.learners._kernels_nb._nb_fit` are popcounts of the
    training words ``train`` (W,) u8 (filled here) with the data set's bitsets
    ``amask`` (V, W) u8 and ``cmask`` (C, W) u8, so the model is bit for bit
    ``_nb_fit``'s on the copied training rows; the test rows are read in place.
    ``class_counts``, ``counts``, ``prior``, ``cond`` and ``probs`` are scratch.
    Returns the number of test instances classified correctly; if ``record``, sets
    ``correct_out[i]`` (n,) b1 to True for each of them.

    It allocates nothing, so it is compiled without numba's reference counting
    (as the C4.5 fold kernels; inlined into the loop, the counts on its arrays
    doubled its time); no division here has a zero divisor on valid input.
    """
    n = is_test.shape[0]
    W = train.shape[0]
    C = cmask.shape[0]
    n_train = 0
    for w in range(W):
        word, full = _mask_word(is_test, w)
        word = full & ~word
        train[w] = word
        n_train += _popcount(word)
    for c in range(C):
        k = 0
        for w in range(W):
            k += _popcount(train[w] & cmask[c, w])
        class_counts[c] = k
    for v in range(counts.shape[0]):
        for c in range(C):
            k = 0
            for w in range(W):
                k += _popcount(train[w] & cmask[c, w] & amask[v, w])
            counts[v, c] = k
    _nb_model_from_counts(class_counts, counts, n_train, n_values, off, prior, cond)
    model = (prior, cond, off)
    n_correct = 0
    for i in range(n):
        if is_test[i] and _nb_predict_row(model, X, i, probs) == y[i]:
            n_correct += 1
            if record:
                correct_out[i] = True
    return n_correct


@nb.njit(cache=True, _nrt=False)
def _nb_fold_proba(prior, cond, off, X, is_test, probs, proba_out):
    """Naive Bayes' class probabilities of the test instances (``is_test`` (n,) b1) into
    ``proba_out[i]`` (n, C) f8: :func:`calibsim.learners._kernels_nb._nb_scores_row` with
    the fold's model ``prior`` (C,), ``cond`` (V, C), ``off`` (a + 1,) left by
    :func:`_nb_fold_score`, as ``_nb_predict_proba`` gives them. ``probs`` (C,) is
    scratch. Allocates nothing (compiled without reference counting)."""
    model = (prior, cond, off)
    C = probs.shape[0]
    for i in range(is_test.shape[0]):
        if is_test[i]:
            _nb_scores_row(model, X, i, probs)
            for c in range(C):
                proba_out[i, c] = probs[c]


@nb.njit(cache=True, nogil=True)  # nogil: Dask workers keep heartbeating meanwhile
def _evaluate_splits(X, y, n_values, n_classes, learner_ids, test_masks,
                     c45_confidence, c45_min_obj):
    """(n, a) i8, (n,) i8, (a,) i8, i8, (L,) i8, (s, n) b1, f8, i8
    -> correct (L, s) i8, n_test (s,) i8, model_size (L, s) i8"""
    none = np.zeros((0, 0, 0), dtype=np.bool_)
    return _evaluate_core(X, y, n_values, n_classes, learner_ids, test_masks,
                          c45_confidence, c45_min_obj, none, False, None)


@nb.njit(cache=True, nogil=True)
def _evaluate_splits_correctness(X, y, n_values, n_classes, learner_ids, test_masks,
                                 c45_confidence, c45_min_obj):
    """As :func:`_evaluate_splits`, plus per-instance correctness.

    -> correct (L, s) i8, n_test (s,) i8, model_size (L, s) i8, correctness (L, s, n) b1
    (True where the instance is in split s's test set and learner l got it right).
    """
    correctness = np.zeros((learner_ids.shape[0], test_masks.shape[0], X.shape[0]),
                           dtype=np.bool_)
    correct, n_test, model_size = _evaluate_core(
        X, y, n_values, n_classes, learner_ids, test_masks, c45_confidence, c45_min_obj,
        correctness, True, None)
    return correct, n_test, model_size, correctness


@nb.njit(cache=True, nogil=True)
def _evaluate_splits_proba(X, y, n_values, n_classes, learner_ids, test_masks,
                           c45_confidence, c45_min_obj, record):
    """As :func:`_evaluate_splits`, plus every test instance's class probabilities.

    -> correct (L, s) i8, n_test (s,) i8, model_size (L, s) i8, correctness (L, s, n) b1
    (shape (0, s, n) unless ``record``), proba (L, s, n, C) f8: ``proba[l, s, i]`` is
    learner l's ``predict_proba`` of instance i, fitted on split s's training
    instances, where i is in split s's test set; NaN in the rows of training instances.
    """
    L = learner_ids.shape[0]
    S = test_masks.shape[0]
    n = X.shape[0]
    correctness = np.zeros((L if record else 0, S, n), dtype=np.bool_)
    proba = np.full((L, S, n, n_classes), np.nan)
    correct, n_test, model_size = _evaluate_core(
        X, y, n_values, n_classes, learner_ids, test_masks, c45_confidence, c45_min_obj,
        correctness, record, proba)
    return correct, n_test, model_size, correctness, proba


@nb.njit(cache=True, nogil=True)
def _evaluate_c45_confidences(X, y, n_values, n_classes, test_masks, confidences, min_obj,
                              record):
    """J48 at several confidences ``-C`` and one ``-M`` on every split, growing each tree once.

    (n, a) i8, (n,) i8, (a,) i8, i8, (s, n) b1, (P,) f8, i8, b1
    -> correct (P, s) i8, n_test (s,) i8, model_size (P, s) i8, correctness (P, s, n) b1
    (shape (0, s, n) unless ``record``).

    Growing and collapsing a tree do not depend on the confidence, pruning does:
    each split's tree is grown once, its nodes saved, and for each confidence
    restored and pruned. Every count is bit for bit that of :func:`_evaluate_splits`
    with learner C4.5 at that confidence (tested), at about half the time for four
    confidences.
    """
    n = X.shape[0]
    S = test_masks.shape[0]
    P = confidences.shape[0]
    C = n_classes
    bt = _c45_bits_data(X, y, n_values, n_classes, confidences[0], min_obj)
    cfs = np.empty(P, dtype=np.float64)
    zs = np.empty(P, dtype=np.float64)
    for p in range(P):
        cfs[p], zs[p] = _weka_cf(confidences[p])
    memos = np.full((P, bt.memo.shape[0]), np.nan)       # leaf errors depend on the CF
    cap = bt.attr.shape[0]
    W = bt.nmask.shape[1]
    s_attr = np.empty(cap, dtype=np.int64)
    s_first = np.empty(cap, dtype=np.int64)
    s_empty = np.empty(cap, dtype=np.bool_)
    s_dist = np.empty(cap * C, dtype=np.float64)
    s_tot = np.empty(cap, dtype=np.float64)
    s_serr = np.empty(cap, dtype=np.float64)
    s_nmask = np.empty((cap, W), dtype=np.uint64)
    correct = np.zeros((P, S), dtype=np.int64)
    model_size = np.zeros((P, S), dtype=np.int64)
    n_test = np.zeros(S, dtype=np.int64)
    correctness = np.zeros((P if record else 0, S, n), dtype=np.bool_)
    no_record = np.zeros(0, dtype=np.bool_)
    for s in range(S):
        k = 0
        for i in range(n):
            k += test_masks[s, i]
        n_test[s] = k
        m = _c45_grow_split(bt, C, test_masks[s])
        if P > 1:
            # everything pruning changes: the nodes' splits, children, counts and sets
            s_attr[:m] = bt.attr[:m]
            s_first[:m] = bt.first[:m]
            s_empty[:m] = bt.empty[:m]
            s_dist[:m * C] = bt.dist[:m * C]
            s_tot[:m] = bt.tot[:m]
            s_serr[:m] = bt.serr[:m]
            s_nmask[:m] = bt.nmask[:m]
        for p in range(P):
            if p > 0:
                bt.attr[:m] = s_attr[:m]
                bt.first[:m] = s_first[:m]
                bt.empty[:m] = s_empty[:m]
                bt.dist[:m * C] = s_dist[:m * C]
                bt.tot[:m] = s_tot[:m]
                bt.serr[:m] = s_serr[:m]
                bt.nmask[:m] = s_nmask[:m]
            row = correctness[p, s] if record else no_record
            correct[p, s], model_size[p, s] = _c45_prune_score(bt, C, cfs[p], zs[p], memos[p],
                                                               row, record)
    return correct, n_test, model_size, correctness


@nb.njit(cache=True, nogil=True)
def _evaluate_general(X, y, n_values, n_classes, learner_ids, test_masks, c45_confidence,
                      c45_min_obj, record, numeric, proba):
    """Naive Bayes and C4.5 on general data (numeric attributes, missing values) on every split.

    (n, a) f8 (NaN = missing), (n,) i8, (a,) i8 (0 = numeric), i8, (L,) i8 (0 naive Bayes,
    1 C4.5), (s, n) b1, f8, i8, b1, None or True (some attribute is numeric), None or
    (L, s, n, C) f8
    -> correct (L, s) i8, n_test (s,) i8, model_size (L, s) i8 (C4.5's nodes, 0 for naive
    Bayes), correctness (L, s, n) b1 (shape (0, s, n) unless ``record``).
    Unless ``proba`` is None, sets ``proba[l, s, i]`` of each test instance i of split s
    to learner l's class probabilities (``_c45_predict_proba_general`` /
    ``_nb_predict_proba_general``: the estimators' ``predict_proba``), and the
    predictions are the first largest of them (J48's with its 1e-6 tolerance), as the
    predict kernels make them; training rows are left as they are. With ``proba`` None
    that code is pruned before typing.

    Each model is bit for bit the one ``C45`` / ``NaiveBayes`` fit on the split's training
    rows (:func:`calibsim.learners._c45._c45_fit_general`,
    :func:`calibsim.learners._kernels_nb._nb_fit_general`), and predicts as they do. The
    numeric attributes are sorted once per data set: every C4.5 fit reads its training
    instances' order from that sort (:func:`calibsim.learners._c45.general._c45_fit_rows`)
    instead of copying and sorting its rows; naive Bayes gets the rows copied.
    """
    n, a = X.shape
    S = test_masks.shape[0]
    L = learner_ids.shape[0]
    correct = np.zeros((L, S), dtype=np.int64)
    model_size = np.zeros((L, S), dtype=np.int64)
    n_test = np.zeros(S, dtype=np.int64)
    correctness = np.zeros((L if record else 0, S, n), dtype=np.bool_)
    need_c45 = False
    need_nb = False
    for l in range(L):
        need_c45 = need_c45 or learner_ids[l] == 1
        need_nb = need_nb or learner_ids[l] == 0
    presort = _presort(X[:n if need_c45 else 0], n_values, numeric)
    w = np.ones(n)
    rows = np.empty(n, dtype=np.int64)
    te = np.empty(n, dtype=np.int64)
    m = n if need_nb else 0
    X_tr = np.empty((m, a), dtype=np.float64)
    y_tr = np.empty(m, dtype=np.int64)
    X_te = np.empty((n, a), dtype=np.float64)
    for s in range(S):
        n_tr = 0
        n_te = 0
        for i in range(n):
            if test_masks[s, i]:
                te[n_te] = i
                for j in range(a):
                    X_te[n_te, j] = X[i, j]
                n_te += 1
            else:
                rows[n_tr] = i
                n_tr += 1
        n_test[s] = n_te
        if need_nb:
            for e in range(n_tr):
                i = rows[e]
                for j in range(a):
                    X_tr[e, j] = X[i, j]
                y_tr[e] = y[i]
        Xte = X_te[:n_te]
        for l in range(L):
            if learner_ids[l] == 1:
                tree = _c45_fit_rows(X, y, w, rows[:n_tr], presort, n_values, n_classes,
                                     c45_confidence, c45_min_obj, numeric)
                if proba is None:
                    pred = _c45_predict_general(tree, Xte)
                else:
                    # _c45_predict_general is J48's first maximum of these probabilities
                    tp = _c45_predict_proba_general(tree, Xte)
                    pred = np.empty(n_te, dtype=np.int64)
                    for t in range(n_te):
                        pred[t] = _first_max(tp[t], n_classes)
                        for c in range(n_classes):
                            proba[l, s, te[t], c] = tp[t, c]
                model_size[l, s] = _c45_size_general(tree)[0]
            else:
                model = _nb_fit_general_kernel(X_tr[:n_tr], y_tr[:n_tr], n_values, n_classes,
                                               numeric)
                if proba is None:
                    pred = _nb_predict_general_kernel(model, Xte, numeric)
                else:
                    # _nb_predict_general_kernel is the first largest of these
                    tp = _nb_predict_proba_general_kernel(model, Xte, numeric)
                    pred = np.empty(n_te, dtype=np.int64)
                    for t in range(n_te):
                        pred[t] = _first_largest(tp[t])
                        for c in range(n_classes):
                            proba[l, s, te[t], c] = tp[t, c]
            c = 0
            for t in range(n_te):
                if pred[t] == y[te[t]]:
                    c += 1
                    if record:
                        correctness[l, s, te[t]] = True
            correct[l, s] = c
    return correct, n_test, model_size, correctness


#: The cached kernels of this module (each has its own numba cache index).
_CACHED_KERNELS = (_evaluate_core, _evaluate_splits, _evaluate_splits_correctness,
                   _evaluate_splits_proba, _nb_fold_score, _nb_fold_proba,
                   _evaluate_c45_confidences,
                   _evaluate_general)


# ``cache=True`` keys a function's cache on the source of its own file only: the
# learner kernels are compiled into the kernels of :data:`_CACHED_KERNELS`, so
# their caches are dropped when any learner kernel module changed.
_flush_stale_caches(_CACHED_KERNELS,
                    (*_c45.MODULES, _kernels_nb, _kernels_ib1, _kernels_tan, _kernels_vp),
                    "_kernels_evaluate.deps")
