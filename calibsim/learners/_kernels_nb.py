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
    cond = np.empty((offset[n_attr], C), np.float64)
    _nb_model_from_counts(class_counts, counts, n, n_values, offset, prior, cond)
    return prior, cond, offset


@numba.njit(cache=True, inline='always')
def _nb_model_from_counts(class_counts, counts, n, n_values, offset, prior, cond):
    """(C,) i8, (V, C) i8, i8, (a,) i8, (a+1,) i8, (C,) f8 out, (V, C) f8 out -> None.

    The model of :func:`_nb_fit` from its integer counts of ``n`` training
    instances: ``class_counts[c]`` and ``counts[offset[j] + v, c]`` (instances
    of class c, and of class c with value v of attribute j). Fills ``prior``
    and ``cond`` in place (the resampling loop reuses them across folds).
    """
    C = prior.shape[0]
    class_sum = np.float64(C + n)                       # Laplace: C + sum of weights
    for c in range(C):
        prior[c] = np.float64(1 + class_counts[c]) / class_sum
    for j in range(n_values.shape[0]):
        for c in range(C):
            cond_sum = np.float64(n_values[j] + class_counts[c])
            for v in range(offset[j], offset[j + 1]):
                cond[v, c] = max(1e-75, np.float64(1 + counts[v, c]) / cond_sum)


@numba.njit(cache=True)
def _nb_scores_row(model, X, i, probs):
    """model, (n, a) i8, i8 row, (C,) f8 out -> None: Weka's normalised class probabilities of row i."""
    prior, cond, offset = model
    for c in range(prior.shape[0]):
        probs[c] = prior[c]
    for j in range(X.shape[1]):
        _rescale_if_tiny(probs, _times_conditional(probs, cond, offset[j] + X[i, j]))
    _normalise(probs)


@numba.njit(cache=True, inline='always')
def _times_conditional(probs, cond, row):
    """Multiply the class scores by ``cond[row]`` (P(v | c) of one attribute value) in
    place; returns the largest score, 0.0 if none is positive."""
    mx = 0.0
    for c in range(probs.shape[0]):
        probs[c] *= cond[row, c]
        if probs[c] > mx:
            mx = probs[c]
    return mx


@numba.njit(cache=True, inline='always')
def _rescale_if_tiny(probs, mx):
    """Weka's guard against underflow: the scores times 1e75 when the largest, mx, is
    positive and below 1e-75."""
    if mx > 0.0 and mx < 1e-75:
        for c in range(probs.shape[0]):
            probs[c] *= 1e75


@numba.njit(cache=True, inline='always')
def _normalise(probs):
    """The scores divided by their sum (summed in class order), in place."""
    s = 0.0
    for c in range(probs.shape[0]):
        s += probs[c]
    for c in range(probs.shape[0]):
        probs[c] /= s


@numba.njit(cache=True, inline='always')
def _first_largest(probs):
    """Index of the first largest of the non-negative scores, 0 if all are 0 (Weka's
    ``Utils.maxIndex``: ties go to the lowest class code)."""
    best = 0
    mx = 0.0
    for c in range(probs.shape[0]):
        if probs[c] > mx:
            mx = probs[c]
            best = c
    return best


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
        out[i] = _nb_predict_row(model, X, i, probs)
    return out


@numba.njit(cache=True, inline='always')
def _nb_predict_row(model, X, i, probs):
    """model, (n, a) i8, i8 row, (C,) f8 scratch -> i8: the class predicted for row i
    (the largest probability; ties to the lowest code)."""
    if probs.shape[0] == 2:
        return _nb_predict_row_binary(model, X, i)
    _nb_scores_row(model, X, i, probs)
    return _first_largest(probs)


@numba.njit(cache=True, inline='always')
def _nb_predict_row_binary(model, X, i):
    """model, (n, a) i8, i8 row -> i8: :func:`_nb_predict_row` for two classes.

    The same operations in the same order as :func:`_nb_scores_row` and the
    argmax, with the two class scores held in local variables instead of an
    array (about three times faster; the same bits).
    """
    prior, cond, offset = model
    p0 = prior[0]
    p1 = prior[1]
    for j in range(X.shape[1]):
        row = offset[j] + X[i, j]
        p0 *= cond[row, 0]
        p1 *= cond[row, 1]
        mx = 0.0
        if p0 > mx:
            mx = p0
        if p1 > mx:
            mx = p1
        if mx > 0.0 and mx < 1e-75:          # rescale against underflow
            p0 *= 1e75
            p1 *= 1e75
    s = (0.0 + p0) + p1
    p0 /= s
    p1 /= s
    return 1 if p1 > p0 and p1 > 0.0 else 0


# --------------------------------------------------------------------------
# General data: nominal and numeric attributes, missing values (NaN)
# --------------------------------------------------------------------------
#
# A general model is the tuple ``(prior, cond, offset, numeric, mean, sd,
# precision)``: ``prior``, ``cond`` and ``offset`` as above (a numeric
# attribute has no rows in ``cond``: n_values[j] = 0), ``numeric`` of shape
# (a,) marks numeric attributes, and ``mean``, ``sd`` of shape (a, C) and
# ``precision`` of shape (a,) are the parameters of Weka's ``NormalEstimator``
# for each numeric attribute and class.
#
# Weka 3.6 ``NaiveBayes.buildClassifier`` sorts its copy of the training data
# by each numeric attribute in turn (``Instances.sort``, an unstable quicksort
# with missing values last) to find the attribute's precision, then feeds the
# instances to the estimators in the order left by the last sort. The order
# changes the floating-point sums of each ``NormalEstimator``, so the kernels
# below reproduce that quicksort (median of three, Sedgewick's partition) to
# sum in the same order.

# Coefficients of the rational approximations of erf and erfc in the Cephes
# library (S. L. Moshier), which Weka's ``Statistics.normalProbability`` uses.
_ERF_T = np.array([9.604973739870516, 90.02601972038427, 2232.005345946843,
                   7003.325141128051, 55592.30130103949])
_ERF_U = np.array([33.56171416475031, 521.3579497801527, 4594.323829709801,
                   22629.000061389095, 49267.39426086359])
_ERFC_P = np.array([2.461969814735305e-10, 0.5641895648310689, 7.463210564422699,
                    48.63719709856814, 196.5208329560771, 526.4451949954773,
                    934.5285271719576, 1027.5518868951572, 557.5353353693994])
_ERFC_Q = np.array([13.228195115474499, 86.70721408859897, 354.9377788878199,
                    975.7085017432055, 1823.9091668790973, 2246.3376081871097,
                    1656.6630919416134, 557.5353408177277])
_ERFC_R = np.array([0.5641895835477551, 1.275366707599781, 5.019050422511805,
                    6.160210979930536, 7.4097426995044895, 2.9788666537210022])
_ERFC_S = np.array([2.2605286322011726, 9.396035249380015, 12.048953980809666,
                    17.08144507475659, 9.608968090632859, 3.369076451000815])
_SQRTH = 0.7071067811865476
_MAXLOG = 709.782712893384
_DOUBLE_MAX = 1.7976931348623157e308


@numba.njit(cache=True)
def _polevl(x, coef):
    """Horner evaluation: coef[0] x^N + ... + coef[N]."""
    ans = coef[0]
    for i in range(1, coef.shape[0]):
        ans = ans * x + coef[i]
    return ans


@numba.njit(cache=True)
def _p1evl(x, coef):
    """Horner evaluation with an implicit leading coefficient 1."""
    ans = x + coef[0]
    for i in range(1, coef.shape[0]):
        ans = ans * x + coef[i]
    return ans


@numba.njit(cache=True)
def _erf_small(x):
    """erf(x) for |x| <= 1: Cephes' rational approximation."""
    z = x * x
    return (x * _polevl(z, _ERF_T)) / _p1evl(z, _ERF_U)


@numba.njit(cache=True)
def _erfc(a):
    x = -a if a < 0.0 else a
    if x < 1.0:
        return 1.0 - _erf_small(a)
    z = -a * a
    if z < -_MAXLOG:
        return 2.0 if a < 0.0 else 0.0
    z = np.exp(z)
    if x < 8.0:
        p = _polevl(x, _ERFC_P)
        q = _p1evl(x, _ERFC_Q)
    else:
        p = _polevl(x, _ERFC_R)
        q = _p1evl(x, _ERFC_S)
    y = (z * p) / q
    if a < 0.0:
        y = 2.0 - y
    if y == 0.0:
        return 2.0 if a < 0.0 else 0.0
    return y


@numba.njit(cache=True)
def _erf(x):
    if abs(x) > 1.0:
        return 1.0 - _erfc(x)
    return _erf_small(x)


@numba.njit(cache=True)
def _normal_cdf(a):
    """Standard normal CDF computed as Weka's ``Statistics.normalProbability`` (Cephes ndtr)."""
    x = a * _SQRTH
    z = abs(x)
    if z < _SQRTH:
        return 0.5 + 0.5 * _erf(x)
    y = 0.5 * _erfc(z)
    if x > 0.0:
        y = 1.0 - y
    return y


@numba.njit(cache=True, inline='always')
def _swap(v, idx, i, j):
    """Exchange ``v[i]`` and ``v[j]``, and ``idx[i]`` and ``idx[j]``."""
    t = v[i]
    v[i] = v[j]
    v[j] = t
    k = idx[i]
    idx[i] = idx[j]
    idx[j] = k


@numba.njit(cache=True, inline='always')
def _cswap(v, idx, i, j):
    """Put ``v[i]``, ``v[j]`` in order, and ``idx[i]``, ``idx[j]`` with them."""
    if v[i] > v[j]:
        _swap(v, idx, i, j)


@numba.njit(cache=True)
def _weka_sort_index(v):
    """(n,) f8 -> (n,) i8: the order in which Weka 3.6's quicksort puts ``v``; sorts ``v``
    in place too.

    Median-of-three quicksort with Sedgewick's partition and explicit small
    cases for 2 and 3 elements; not stable. ``v`` must not hold NaN. The values
    move with their indices, so comparisons read them in place rather than
    through the index (the same comparisons and exchanges, a faster sort).
    """
    n = v.shape[0]
    idx = np.arange(n)
    if n < 2:
        return idx
    stack = np.empty(2 * n + 2, np.int64)
    top = 0
    stack[0] = 0
    stack[1] = n - 1
    top = 2
    while top > 0:
        top -= 2
        lo = stack[top]
        hi = stack[top + 1]
        d = hi - lo
        if d <= 0:
            continue
        if d == 1:
            _cswap(v, idx, lo, hi)
            continue
        if d == 2:
            _cswap(v, idx, lo, lo + 1)
            _cswap(v, idx, lo, hi)
            _cswap(v, idx, lo + 1, hi)
            continue
        c = (lo + hi) // 2
        _cswap(v, idx, lo, c)
        _cswap(v, idx, lo, hi)
        _cswap(v, idx, c, hi)
        _swap(v, idx, c, hi - 1)
        pivot = v[hi - 1]
        i = lo
        j = hi - 1
        while True:
            i += 1
            while v[i] < pivot:
                i += 1
            j -= 1
            while v[j] > pivot:
                j -= 1
            if i >= j:
                break
            _swap(v, idx, i, j)
        _swap(v, idx, i, hi - 1)
        stack[top] = lo
        stack[top + 1] = i - 1
        stack[top + 2] = i + 1
        stack[top + 3] = hi
        top += 4
    return idx


def _numeric_flag(numeric):
    """None when no attribute is numeric, else True: the last argument of the general
    kernels, which numba specialises on, pruning the numeric code when it is None (the
    first run on nominal data then compiles less)."""
    return True if np.asarray(numeric).any() else None


def _nb_fit_general(X, y, n_values, n_classes):
    """(n, a) f8 (NaN = missing), (n,) i8, (a,) i8 (0 = numeric), i8 -> general model.

    Returns ``(prior (C,), cond (V, C), offset (a+1,), numeric (a,) b1,
    mean (a, C), sd (a, C), precision (a,))``.
    """
    return _nb_fit_general_kernel(X, y, n_values, n_classes,
                                  _numeric_flag(np.asarray(n_values) == 0))


@numba.njit(cache=True)
def _nb_fit_general_kernel(X, y, n_values, n_classes, any_numeric):
    """:func:`_nb_fit_general`; ``any_numeric`` None compiles out Weka's sorts of the
    numeric attributes (there are none)."""
    n, n_attr = X.shape
    C = n_classes
    offset = np.zeros(n_attr + 1, np.int64)
    numeric = np.zeros(n_attr, np.bool_)
    for j in range(n_attr):
        offset[j + 1] = offset[j] + n_values[j]
        numeric[j] = n_values[j] == 0
    # instance order and precision as left by Weka's successive sorts
    order = np.arange(n)
    precision = np.full(n_attr, 0.01)
    col = np.empty(n, np.float64)
    for j in range(n_attr):
        if not numeric[j]:
            continue
        if any_numeric is None:      # pruned at compile time: never reached
            break
        for i in range(n):
            v = X[order[i], j]
            col[i] = _DOUBLE_MAX if np.isnan(v) else v
        order = order[_weka_sort_index(col)]
        if n > 0 and not np.isnan(X[order[0], j]):
            last = X[order[0], j]
            delta = 0.0
            distinct = 0
            for i in range(1, n):
                v = X[order[i], j]
                if np.isnan(v):
                    break
                if v != last:
                    delta += v - last
                    last = v
                    distinct += 1
            if distinct > 0:
                precision[j] = delta / distinct
    counts = np.zeros((offset[n_attr], C), np.int64)
    known = np.zeros((n_attr, C), np.int64)
    class_counts = np.zeros(C, np.int64)
    sum_w = np.zeros((n_attr, C))
    sum_v = np.zeros((n_attr, C))
    sum_sq = np.zeros((n_attr, C))
    mean = np.zeros((n_attr, C))
    sd = np.empty((n_attr, C))
    for j in range(n_attr):
        for c in range(C):
            sd[j, c] = precision[j] / 6.0
    for k in range(n):
        i = order[k]
        c = y[i]
        class_counts[c] += 1
        for j in range(n_attr):
            v = X[i, j]
            if np.isnan(v):
                continue
            if not numeric[j]:
                counts[offset[j] + np.int64(v), c] += 1
                known[j, c] += 1
                continue
            # Weka NormalEstimator.addValue(v, weight 1): the sums here, the mean and
            # standard deviation it sets after each value once all are added (below)
            p = precision[j]
            v = np.rint(v / p) * p
            sum_w[j, c] += 1.0
            sum_v[j, c] += v
            sum_sq[j, c] += v * v
    for j in range(n_attr):
        if not numeric[j]:
            continue
        if any_numeric is None:      # pruned at compile time: never reached
            break
        p = precision[j]
        for c in range(C):
            if sum_w[j, c] == 0.0:
                continue
            # the mean and deviation after the last value are those of the final sums;
            # the deviation is kept from the last value after which it exceeded 1e-10
            mean[j, c] = sum_v[j, c] / sum_w[j, c]
            s = np.sqrt(abs(sum_sq[j, c] - mean[j, c] * sum_v[j, c]) / sum_w[j, c])
            if s > 1e-10:
                sd[j, c] = max(p / 6.0, s)
            else:            # rare (e.g. one value repeated): replay the values in order
                sd[j, c] = _nb_last_sd(X, y, order, j, c, p)
    prior = np.empty(C, np.float64)
    class_sum = np.float64(C + n)
    for c in range(C):
        prior[c] = np.float64(1 + class_counts[c]) / class_sum
    cond = np.empty((offset[n_attr], C), np.float64)
    for j in range(n_attr):
        for c in range(C):
            cond_sum = np.float64(n_values[j] + known[j, c])
            for v in range(offset[j], offset[j + 1]):
                cond[v, c] = max(1e-75, np.float64(1 + counts[v, c]) / cond_sum)
    return prior, cond, offset, numeric, mean, sd, precision


@numba.njit(cache=True)
def _nb_last_sd(X, y, order, j, c, p):
    """Weka's ``NormalEstimator`` standard deviation of attribute j in class c after
    adding, in ``order``, every known value of class c (rounded to precision p): the
    last deviation above 1e-10 after a value (at least p / 6), or p / 6 if none was."""
    sd = p / 6.0
    w = 0.0
    sv = 0.0
    sq = 0.0
    for k in range(order.shape[0]):
        i = order[k]
        v = X[i, j]
        if y[i] != c or np.isnan(v):
            continue
        v = np.rint(v / p) * p
        w += 1.0
        sv += v
        sq += v * v
        mean = sv / w
        s = np.sqrt(abs(sq - mean * sv) / w)
        if s > 1e-10:
            sd = max(p / 6.0, s)
    return sd


@numba.njit(cache=True, _nrt=False)
def _nb_scores_row_general(model, X, i, probs, any_numeric):
    """general model, (n, a) f8, row i, (C,) f8 out, None (no numeric attribute: the
    normal densities are compiled out) or True -> None: Weka's class probabilities.

    Compiled without numba's reference counting (``_nrt=False``: it allocates nothing),
    as it runs once per test row."""
    prior, cond, offset, numeric, mean, sd, precision = model
    C = prior.shape[0]
    for c in range(C):
        probs[c] = prior[c]
    for j in range(X.shape[1]):
        x = X[i, j]
        if np.isnan(x):
            continue
        mx = 0.0
        if numeric[j]:
            if any_numeric is None:  # pruned at compile time: never reached
                continue
            p = precision[j]
            v = np.rint(x / p) * p
            half = p / 2.0
            for c in range(C):
                z_lo = ((v - mean[j, c]) - half) / sd[j, c]
                z_hi = ((v - mean[j, c]) + half) / sd[j, c]
                prob = _normal_cdf(z_hi) - _normal_cdf(z_lo)
                probs[c] *= max(1e-75, prob)
                if probs[c] > mx:
                    mx = probs[c]
        else:
            mx = _times_conditional(probs, cond, offset[j] + np.int64(x))
        _rescale_if_tiny(probs, mx)
    _normalise(probs)


def _nb_predict_proba_general(model, X):
    """general model, (n_test, a) f8 -> (n_test, C) f8 class probabilities."""
    return _nb_predict_proba_general_kernel(model, X, _numeric_flag(model[3]))


@numba.njit(cache=True)
def _nb_predict_proba_general_kernel(model, X, any_numeric):
    C = model[0].shape[0]
    out = np.empty((X.shape[0], C), np.float64)
    probs = np.empty(C, np.float64)
    for i in range(X.shape[0]):
        _nb_scores_row_general(model, X, i, probs, any_numeric)
        for c in range(C):
            out[i, c] = probs[c]
    return out


def _nb_predict_general(model, X):
    """general model, (n_test, a) f8 -> (n_test,) i8 class codes (ties to the lowest code)."""
    return _nb_predict_general_kernel(model, X, _numeric_flag(model[3]))


@numba.njit(cache=True)
def _nb_predict_general_kernel(model, X, any_numeric):
    C = model[0].shape[0]
    out = np.empty(X.shape[0], np.int64)
    probs = np.empty(C, np.float64)
    for i in range(X.shape[0]):
        _nb_scores_row_general(model, X, i, probs, any_numeric)
        out[i] = _first_largest(probs)
    return out
