"""C4.5's split choice (Weka 3.6 ``C45ModelSelection``), shared by every path.

Given a node's entropy terms per candidate split, J48 keeps the splits with at
least two branches of ``min_obj`` weight (``Distribution.check``), averages the
information gain of those (``InfoGainSplitCrit``) and picks the largest gain
ratio (``GainRatioSplitCrit``) among the splits whose gain is at least that
average. The nominal paths call :func:`_choose_from_terms`; the general path
(:mod:`.general_splitting`) computes numeric cut points first, then ends in
:func:`_largest_gain_ratio` as well.
"""

from __future__ import annotations

import numba
import numpy as np

from .criterion import _eq, _gr, _gr_or_eq, _max_class, _sm, _xlogx


@numba.njit(cache=True, inline='always')
def _can_split(dist, tot, v, n_classes, min_obj_f):
    """ClassifierTree.buildTree's test before a split is sought: node v holds at least
    ``2 min_obj`` of weight and more than its majority class (tolerance 1e-6)."""
    total = tot[v]
    o = v * n_classes
    return not (_sm(total, 2.0 * min_obj_f) or _eq(total, dist[o + _max_class(dist, o, n_classes)]))


@numba.njit(cache=True, inline='always')
def _enough_branches(bag, ob, n_branches, min_obj_f):
    """Distribution.check: at least two of the branch weights ``bag[ob:ob + n_branches]``
    are ``min_obj`` or more (tolerance 1e-6)."""
    counter = 0
    for b in range(n_branches):
        if _gr_or_eq(bag[ob + b], min_obj_f):
            counter += 1
    return counter > 1


@numba.njit(cache=True, inline='always')
def _info_gain(old_ent, rv, unknown_rate, known):
    """InfoGainSplitCrit in bits per known instance, from the entropy term ``old_ent`` of the
    node's known class weights and ``rv`` = sum of the split's cell terms minus its bag terms
    (the split's entropy is ``-rv``), scaled by the known fraction ``1 - unknown_rate``."""
    num = old_ent - (-rv)
    num = (1.0 - unknown_rate) * num
    if _eq(num, 0.0):
        return 0.0
    return num / known


@numba.njit(cache=True, inline='always')
def _choose_from_terms(v, dist, tot, n_values, off, n_classes, min_obj_f, multi_val, n_all,
                       bag, xcnt, xbag, gain, ratio, valid):
    """Return J48's split attribute for node v (or -1) from its branch weights ``bag``
    and the entropy terms ``xcnt = xlogx(cnt)``, ``xbag = xlogx(bag)``."""
    n_attr = n_values.shape[0]
    C = n_classes
    total = tot[v]
    # No missing values yet: every instance is "known", so the known weight of
    # every split equals the node's total and its class counts the node's.
    known = total
    unknown = total - known
    unknown_rate = unknown / total
    rv = 0.0
    o = v * C
    for c in range(C):
        rv = rv + _xlogx(dist[o + c])
    old_ent = _xlogx(known) - rv
    x_unknown = _xlogx(unknown)
    x_total = _xlogx(total)

    avg = 0.0
    n_valid = 0
    for j in range(n_attr):
        nv = n_values[j]
        ob = off[j]
        valid[j] = _enough_branches(bag, ob, nv, min_obj_f)
        if not valid[j]:
            continue
        # Information gain (InfoGainSplitCrit), in bits per known instance.
        rv = 0.0
        for b in range(nv):
            for c in range(C):
                rv = rv + xcnt[c, ob + b]
            rv = rv - xbag[ob + b]
        ig = _info_gain(old_ent, rv, unknown_rate, known)
        gain[j] = ig
        # Gain ratio (GainRatioSplitCrit): split entropy includes an "unknown" bag.
        se = 0.0
        if _gr(known, 0.0):
            for b in range(nv):
                se = se - xbag[ob + b]
            se = se - x_unknown
            se = se + x_total
        if _eq(se, 0.0):
            ratio[j] = 0.0
        else:
            se = se / total
            ratio[j] = ig / se
        if _in_average(multi_val, nv, n_all):
            avg = avg + ig
            n_valid += 1
    return _largest_gain_ratio(n_attr, valid, gain, ratio, avg, n_valid)


@numba.njit(cache=True, inline='always')
def _in_average(multi_val, n_branches, n_all):
    """Whether a valid split's gain counts towards the average gain (C45ModelSelection):
    when all attributes have many values (``multi_val``), else when its attribute has
    fewer than 0.3 of the training set's weight ``n_all`` values."""
    return multi_val or _sm(np.float64(n_branches), 0.3 * n_all)


@numba.njit(cache=True, inline='always')
def _largest_gain_ratio(n_attr, valid, gain, ratio, gain_sum, n_counted):
    """C45ModelSelection's last step: the valid attribute with the largest gain ratio among
    those whose gain is at least the average gain ``gain_sum / n_counted`` (less 1e-3), or
    -1 when that ratio is 0 or no gain is counted. ``valid``, ``gain`` and ``ratio`` have
    (at least) n_attr entries."""
    if n_counted == 0:
        return -1
    avg = gain_sum / n_counted
    best = -1
    best_ratio = 0.0
    for j in range(n_attr):
        if valid[j] and gain[j] >= avg - 1e-3 and _gr(ratio[j], best_ratio):
            best = j
            best_ratio = ratio[j]
    if _eq(best_ratio, 0.0):
        return -1
    return best
