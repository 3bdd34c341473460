"""Input validation of :mod:`calibsim.tuning` (messages name the parameter, rule and value)."""

from __future__ import annotations

import numpy as np

from .._validation import check_real_dtype

__all__ = ["iv_counts", "iv_fraction", "iv_ints", "iv_positive", "problems"]


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 120 else text[:100] + " ..."


def iv_ints(name, value, *, min_value=0):
    check_real_dtype(name, value)
    arr = np.asarray(value)
    if arr.dtype == bool or not (np.issubdtype(arr.dtype, np.integer)
                                 or (np.issubdtype(arr.dtype, np.floating)
                                     and np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)))):
        raise TypeError(f"`{name}` must be an integer or an array of integers; got "
                        f"{_short(value)}.")
    if np.any(np.abs(arr.astype(np.float64)) > 2.0**62):
        raise ValueError(f"`{name}` must be below 2**62 in size; got {_short(value)}.")
    arr = arr.astype(np.int64)
    if np.any(arr < min_value):
        raise ValueError(f"`{name}` must be >= {min_value}; got {_short(value)}.")
    return arr


def iv_counts(m, hits, labels):
    m = iv_ints("m", m, min_value=1)
    hits = iv_ints("hits", hits)
    labels = iv_ints("labels", labels)
    if np.any(hits > m):
        raise ValueError(f"`hits` must be <= `m` (hits of h among the m test instances); "
                         f"got hits={hits.tolist()!r}, m={m.tolist()!r}.")
    return m, hits, labels


def iv_fraction(name, value, *, open_low=False):
    check_real_dtype(name, value)
    arr = np.asarray(value, dtype=float)
    ok = (arr > 0 if open_low else arr >= 0) & (arr <= 1)
    if not np.all(ok):
        raise ValueError(f"`{name}` must lie in {'(' if open_low else '['}0, 1]; got "
                         f"{_short(value)}.")
    return arr


def iv_positive(name, value):
    check_real_dtype(name, value)
    arr = np.asarray(value, dtype=float)
    if np.any(~(arr > 0)):
        raise ValueError(f"`{name}` must be > 0; got {_short(value)}.")
    return arr


#: Most leaked labels in all: the exact pmf has one entry per possible extra hit and the
#: binomial form convolves one Bernoulli per label (20,000 take about 3 s).
MAX_LEAKED_LABELS = 20_000


def problems(m, hits, labels, n_problems, sampling):
    """Validated per-problem arrays ``(m_j, hits_j, labels_j)`` and the totals (A2, A6).

    Scalar ``m``/``hits`` with ``n_problems > 1`` are pooled numbers: every problem
    gets the pooled error rate ``1 - hits/m`` (binomial sampling only).
    """
    m, hits, labels = iv_counts(m, hits, labels)
    n_leaked = int(np.sum(labels)) * (n_problems if labels.ndim == 0 else 1)
    if n_leaked > MAX_LEAKED_LABELS:
        raise ValueError(f"`labels` must leak at most {MAX_LEAKED_LABELS:,} labels in all "
                         f"(the pmf has one entry per extra hit); got {n_leaked:,}.")
    if np.size(labels) > 10_000 or np.size(m) > 10_000:
        raise ValueError("`m`, `hits` and `labels` must describe at most 10,000 learning "
                         f"problems; got {max(np.size(m), np.size(labels)):,}.")
    if max(m.ndim, hits.ndim, labels.ndim) > 1:
        raise ValueError("`m`, `hits` and `labels` must be integers or 1-D sequences with "
                         "one entry per learning problem.")
    if m.ndim or hits.ndim:                                    # one entry per problem
        try:
            m, hits, labels = np.broadcast_arrays(m, hits, labels)
        except ValueError:
            raise ValueError("`m`, `hits` and `labels` must have the same length; got "
                             f"{m.shape}, {hits.shape} and {labels.shape}.") from None
        if n_problems not in (1, m.size):
            raise ValueError(f"`n_problems` must be 1 or the length of `m` ({m.size}) when "
                             f"per-problem sizes are given; got {n_problems}.")
        if np.any(labels > m):
            raise ValueError(f"`labels` must not exceed a problem's test instances; got "
                             f"labels={labels.tolist()} for m={m.tolist()}.")
        return m, hits, labels, int(m.sum()), int(hits.sum())
    if labels.ndim:
        raise ValueError("`labels` may be a sequence only when `m` and `hits` are "
                         "per-problem sequences too.")
    if n_problems > 1 and sampling == "hypergeom":
        raise ValueError("`sampling='hypergeom'` needs each problem's test-set size and "
                         "hits: pass sequences `m` and `hits`, or use `sampling='binomial'` "
                         "with the pooled numbers.")
    if n_problems * labels > m:
        raise ValueError(f"`labels` times `n_problems` must not exceed `m`; got labels="
                         f"{int(labels)}, n_problems={n_problems}, m={int(m)}.")
    full = np.full(n_problems, 1, dtype=np.int64)
    return full * m, full * hits, full * labels, int(m), int(hits)
