"""C4.5 as implemented by Weka 3.6's J48: the numba kernels, one family.

The kernels reproduce J48 with its default options: multiway splits on
nominal attributes and binary splits on numeric ones chosen by gain ratio
among the splits whose information gain is at least the average gain,
Weka's ``Utils`` tolerances (1e-6), collapsing, error-based pruning with
``Stats.addErrs`` and subtree raising, missing values as fractional
instances, and Weka's treatment of empty branches at prediction time. They are written from the
behaviour described in ``shared/reference/paper-notes.md`` section 5 and from
reading Weka's classes (``C45ModelSelection``, ``C45Split``,
``InfoGainSplitCrit``, ``GainRatioSplitCrit``, ``Distribution``,
``ClassifierTree``, ``C45PruneableClassifierTree``, ``Stats``); no Weka code is
copied.

Which path a fit takes, and why
-------------------------------
Three paths build the same J48 tree; each is the fastest one that is exact for
its data:

* **bitset** (:mod:`.bitset`; growing in :mod:`.bitset_growth`, pruning in
  :mod:`.bitset_pruning`, primitives in :mod:`.bitops`) -- nominal attributes,
  no missing values, every weight 1. Taken by :class:`calibsim.learners.C45`
  on integer codes (:func:`_c45_fit`) and by every C4.5 fold of the
  resampling loop (:func:`_c45_fold_score` from
  :mod:`calibsim.evaluate._kernels`). With unit weights every weight sum is an
  integer, so a node's instances are a bitset and its counts popcounts: the
  same floats as the weighted path, without copying instances.
* **weighted** (:mod:`.weighted`) -- nominal attributes with instance weights
  (:func:`_c45_fit_weighted`). The reference the bitset path is tested
  against tree for tree; its instance segments are reused by the general path.
* **general** (:mod:`.general`; split search in :mod:`.general_splitting`) --
  numeric attributes or missing values (:func:`_c45_fit_general`, on float64
  data with NaN for a missing value). Taken by :class:`calibsim.learners.C45`
  when ``X`` is float or an attribute is numeric, and by every C4.5 fold of the
  resampling loop on such data (:func:`.general._c45_fit_rows` from
  :func:`calibsim.evaluate._kernels._evaluate_general`: the fold's training rows
  of the data set, on the data set's one sort of its numeric attributes). On
  nominal codes without missing values it builds the nominal paths' tree. With
  numeric attributes, no missing value and every weight 1 (the null data of
  ``calibrate --like`` on credit-g, for one) every weight sum is a count, so it
  counts (``unit`` in :func:`.general._c45_fit_rows`): the numeric cut scan runs on
  integer counts with an x log x table, nominal cells are counted and their totals
  summed from them, and nothing missing is spread; the same floats as summing weights.

Shared by all three, by role (as ``sklearn/tree``'s ``_criterion``,
``_splitter`` and ``_tree``):

* :mod:`.criterion`: Weka's tolerances, entropy terms, ``Stats.addErrs``;
* :mod:`.splitting`: J48's choice of a split from the candidates' entropy terms;
* :mod:`.pruning`: collapsing and the steps of pruning with subtree raising;
* :mod:`.predictor`: the compact trees and their predictions (nominal and
  general layout).

Import the kernels from here: importing this package first drops numba's
on-disk caches of all of them when any of their files changed (see
:func:`_flush_stale_caches`).

Compile time (a first run waits for it): numba compiles a kernel once per
argument types, and types an integer or boolean constant first as a literal, so
a helper called with ``n_nodes = 1``, ``largest = -1`` or ``multi_val = True``
was compiled twice (for the literal and for int64 or bool); such variables start
as ``np.int64(...)`` or ``np.bool_(...)`` (``tests/learners/test_compile_once.py``
checks it). ``inline='always'`` inlines numba IR at every call site and types it
again there; it is kept where the bitset path gains from it (about 5% of its
fold-fit rate) and left off helpers of the general path (``_est_errors``,
``_mark_node``), where inlining cost about 1 s of a first ``compare`` and gained
nothing measurable. The
general kernels take a last argument ``numeric`` that is None when no
attribute is numeric: numba prunes ``if numeric is None`` branches before
typing, so the numeric split search is not compiled for nominal data (vote's
first ``compare`` compiles half as much). Helpers copy with loops rather than
slice assignments, whose shape check compiles numba's string formatting.

Calls per node (general path): a numba function increments and decrements the
reference count of each array argument on entry and exit, and the per-node helpers
take 10-30 arrays; on the null fits of ``calibrate --like`` that was about a quarter
of C4.5's time. The helpers that allocate nothing therefore compile with
``_nrt=False``; those that may fill a buffer return -1 when it is full, and their
caller enlarges it and calls again (:func:`.general_splitting._split_segment`,
:func:`.general_splitting._partition_lists`). A call keeps to at most 30 arguments:
CPython compiles a call with more into a call on a tuple of them, which numba lowers
by counting every array in it.

Data layout
-----------
``X`` is C-contiguous int64 of shape (n, a) holding nominal codes
``0..n_values[j]-1``; ``y`` is int64 of shape (n,) with codes
``0..n_classes-1``. Every instance carries a float64 weight (all ones in
:func:`_c45_fit`); all class counts are sums of weights, so fractional
instances (missing values) can be added later without changing the layout.

A fitted tree is a tuple ``(attr, first_child, node_class, node_prob,
node_dist)`` in breadth-first order: ``attr[u]`` is the split attribute of node
``u`` or -1 for a leaf, the children of an internal node are
``first_child[u] + value`` (contiguous), ``node_class[u]`` and
``node_prob[u]`` are the class and class probabilities J48 predicts at a leaf,
and ``node_dist[u]`` the (weighted) training class counts of the node.

:func:`_c45_fit` (all weights 1) keeps the node sets as bitsets and counts
with popcounts; it builds bit for bit the tree of the weighted
:func:`_c45_fit_weighted`.

Numeric attributes and missing values run :func:`_c45_fit_general` on
float64 data (NaN = missing, ``n_values[j] == 0`` for a numeric attribute),
with :func:`_c45_predict_general`, :func:`_c45_predict_proba_general` and
:func:`_c45_size_general`; see :mod:`.general_splitting` for its tree
layout. On nominal codes without missing values it builds the nominal
kernels' tree.

The kernels do no input checking; the public :class:`calibsim.learners.C45`
validates its inputs.
"""

from __future__ import annotations

import hashlib
import os
import tempfile

from numba.core.registry import CPUDispatcher

from . import (bitops, bitset, bitset_growth, bitset_pruning, criterion, general,
               general_splitting, predictor, pruning, splitting, weighted)
from .bitset import _c45_bits_data, _c45_fit, _c45_fold_score
from .criterion import _add_errs
from .general import _c45_fit_general
from .predictor import (_c45_leaf, _c45_predict, _c45_predict_general, _c45_predict_proba,
                        _c45_predict_proba_general, _c45_size, _c45_size_general)
from .weighted import _c45_fit_weighted

__all__ = ["_add_errs", "_c45_bits_data", "_c45_fit", "_c45_fold_score", "_c45_fit_weighted",
           "_c45_leaf", "_c45_predict", "_c45_predict_proba", "_c45_size", "_c45_fit_general",
           "_c45_predict_general", "_c45_predict_proba_general", "_c45_size_general"]

#: The modules holding the C4.5 kernels; they inline each other's helpers.
MODULES = (criterion, bitops, splitting, pruning, predictor, bitset_growth, bitset_pruning,
           bitset, weighted, general_splitting, general)


def _flush_stale_caches(kernels, sources, stamp_name):
    """Drop the on-disk numba caches of ``kernels`` when a file of ``sources`` changed.

    ``cache=True`` keys a function's cache on the source of its own file only,
    but a kernel compiles in the kernels it calls from other files; after an
    edit of one of those it would keep loading machine code built from the old
    source. A hash of the ``sources`` files, stored as ``stamp_name`` beside
    the cache, tells when to flush the cache indexes (numba then recompiles on
    the first call and saves afresh).

    Parameters
    ----------
    kernels : sequence of numba dispatchers
        The ``cache=True`` kernels whose machine code depends on ``sources``.
    sources : sequence of modules
        The modules whose source the kernels are compiled from.
    stamp_name : str
        File name of the stamp in the kernels' cache directory.
    """
    caches = [c for c in (getattr(k, "_cache", None) for k in kernels)
              if getattr(c, "cache_path", None) is not None]
    if not caches:
        return
    digest = hashlib.sha256()
    for module in sources:
        with open(module.__file__, "rb") as f:
            digest.update(f.read())
    stamp = digest.hexdigest()
    stamp_path = os.path.join(caches[0].cache_path, stamp_name)
    try:
        with open(stamp_path) as f:
            if f.read() == stamp:
                return
    except OSError:
        pass
    for cache in caches:
        cache.flush()
    try:   # written atomically: several workers may start at once
        fd, tmp = tempfile.mkstemp(dir=caches[0].cache_path, prefix=stamp_name + ".")
        with os.fdopen(fd, "w") as f:
            f.write(stamp)
        os.chmod(tmp, 0o644)
        os.replace(tmp, stamp_path)
    except OSError:
        pass


def _module_kernels(modules):
    """The numba dispatchers defined (not imported) in ``modules``."""
    return [obj for m in modules for obj in vars(m).values()
            if isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == m.__name__]


_flush_stale_caches(_module_kernels(MODULES), MODULES, "_c45.deps")
