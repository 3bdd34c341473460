"""Exact distributions of sums of independent counts, computed in log space.

The kernels behind :mod:`calibsim.tuning`. Scheffer & Herbrich (1997, §3) get the
distribution of a sum of per-instance counts by convolution,
``P(X + Y = z) = sum_j P(X = j) P(Y = z - j)``, "iteratively filling an array
indexed by n and k with P(sum_{i=1}^n X_i = k)". Both steps are done here on log
probabilities (``logaddexp`` / ``logsumexp``), so tails far below the smallest
double (1e-308) keep their relative precision and nothing overflows for test sets
of thousands of instances. Inputs are validated by the public functions.
"""

from __future__ import annotations

from functools import reduce

import numpy as np
from scipy.special import logsumexp

from .._validation import check_real_dtype
from ._iv import iv_fraction

__all__ = ["log_sum_pmf", "poisson_binomial_logpmf", "poisson_binomial_pmf", "sum_pmf"]

#: Most elementary steps (entries of the convolutions' (a + b - 1, a) arrays, summed)
#: one :func:`sum_pmf` call may take.
MAX_SUM_PMF_WORK = 2 * 10**8

#: Most pmfs one :func:`sum_pmf` call takes (each is a convolution step).
MAX_PMFS = 100_000


def poisson_binomial_logpmf(p: np.ndarray) -> np.ndarray:
    """Log pmf of ``S_n = X_1 + ... + X_n``, independent ``X_i ~ Bernoulli(p_i)``.

    (..., n) f8 in [0, 1] -> (..., n + 1) f8. Row ``i`` of the paper's array is
    ``log P(S_i = k)``, k = 0..i; the next row is
    ``P(S_{i+1} = k) = P(S_i = k) (1 - p_{i+1}) + P(S_i = k - 1) p_{i+1}``, the
    convolution of ``S_i`` with ``X_{i+1}``. Only two rows are kept.
    """
    p = np.asarray(p, dtype=np.float64)
    n = p.shape[-1]
    with np.errstate(divide="ignore"):          # log(0) = -inf is the intended value
        log_p, log_q = np.log(p), np.log1p(-p)
    out = np.full(p.shape[:-1] + (n + 1,), -np.inf)
    out[..., 0] = 0.0
    for i in range(n):
        lp, lq = log_p[..., i, None], log_q[..., i, None]
        step = np.logaddexp(out[..., 1:i + 2] + lq, out[..., :i + 1] + lp)
        out[..., 0] += log_q[..., i]
        out[..., 1:i + 2] = step
    return out


def log_sum_pmf(log_x: np.ndarray, log_y: np.ndarray) -> np.ndarray:
    """Log pmf of ``X + Y`` for independent counts X, Y from their log pmfs.

    (..., a) f8, (..., b) f8 -> (..., a + b - 1) f8, with leading axes broadcast:
    ``log P(X + Y = z) = logsumexp_j [log P(X = j) + log P(Y = z - j)]``.
    """
    log_x = np.asarray(log_x, dtype=np.float64)
    log_y = np.asarray(log_y, dtype=np.float64)
    a, b = log_x.shape[-1], log_y.shape[-1]
    joint = log_x[..., :, None] + log_y[..., None, :]            # (..., a, b): j, z - j
    i = np.arange(a)[:, None]
    z = i + np.arange(b)[None, :]
    diag = np.full(joint.shape[:-2] + (a + b - 1, a), -np.inf)   # (..., z, j)
    diag[..., z, np.broadcast_to(i, z.shape)] = joint
    return logsumexp(diag, axis=-1)


def poisson_binomial_pmf(p, *, log: bool = False):
    """Exact pmf of a sum of independent Bernoulli(p_i) counts (§3's array).

    Fills the array ``P(sum_{i=1}^n X_i = k)`` row by row. Each row is the
    convolution ``P(X + Y = z) = sum_j P(X = j) P(Y = z - j)`` of the previous sum
    with the next ``X_i``, evaluated in log space.

    Parameters
    ----------
    p : array_like of shape (..., n)
        Success probabilities in [0, 1], one per count; leading axes are batches.
    log : bool, default False
        Return the log pmf (``-inf`` for impossible sums).

    Returns
    -------
    ndarray of shape (..., n + 1)
        ``P(S = k)`` for k = 0..n.

    Raises
    ------
    ValueError
        If ``p`` is outside [0, 1], has no axis or more than 20,000 counts on its
        last axis.

    Examples
    --------
    >>> from calibsim.tuning import poisson_binomial_pmf
    >>> poisson_binomial_pmf([0.5, 0.5]).round(3).tolist()
    [0.25, 0.5, 0.25]
    """
    try:
        shape = np.shape(p)                   # sizes first: no value is read before
    except ValueError:
        raise ValueError("`p` must be an array of probabilities (not ragged lists).") from None
    if len(shape) == 0:
        raise ValueError(f"`p` must have at least one axis (one entry per count); got {p!r}.")
    if shape[-1] > 20_000:
        raise ValueError("`p` must have at most 20,000 counts on its last axis (the exact pmf "
                         f"takes time quadratic in them: 20,000 take about 3 s); got "
                         f"{shape[-1]:,}.")
    from .._validation import check_memory_estimate
    check_memory_estimate([(8.0 * float(np.prod(shape, dtype=float)) * (shape[-1] + 1), "p",
                            shape, 1)], what="poisson_binomial_pmf")
    p = iv_fraction("p", p)
    out = poisson_binomial_logpmf(p)
    return out if log else np.exp(out)


def sum_pmf(*pmfs, log: bool = False):
    """pmf of the sum of independent counts, ``P(X + Y = z) = sum_j P(X=j) P(Y=z-j)`` (§3).

    Parameters
    ----------
    *pmfs : array_like of shape (..., n_i)
        pmfs on the supports 0..n_i - 1 (log pmfs if ``log``); leading axes broadcast.
    log : bool, default False
        Inputs and output are log pmfs.

    Returns
    -------
    ndarray of shape (..., sum(n_i) - len(pmfs) + 1)

    Raises
    ------
    TypeError
        If a pmf holds anything but real numbers.
    ValueError
        If there are more than :data:`MAX_PMFS` pmfs, a pmf has no axis, an empty
        last axis, values outside [0, 1] (log pmfs: above 0) or NaN, or the
        convolutions would take more than
        :data:`MAX_SUM_PMF_WORK` elementary steps or more memory than calibsim's
        limit (:func:`calibsim._validation.check_memory_estimate`).

    Examples
    --------
    >>> from calibsim.tuning import sum_pmf
    >>> sum_pmf([0.5, 0.5], [0.5, 0.5]).round(3).tolist()
    [0.25, 0.5, 0.25]
    """
    if not pmfs:
        raise ValueError("`pmfs` must hold at least one pmf; got none.")
    if len(pmfs) > MAX_PMFS:
        raise ValueError(f"`pmfs` must be at most {MAX_PMFS:,} pmfs; got {len(pmfs):,}.")
    shapes = []                                   # the work first, before any value
    for i, x in enumerate(pmfs):
        try:
            shapes.append(np.shape(x))
        except ValueError:
            raise ValueError(f"`pmfs[{i}]` must be an array of probabilities (not ragged "
                             "lists).") from None
    if any(len(sh) == 0 or sh[-1] == 0 for sh in shapes):
        i = next(i for i, sh in enumerate(shapes) if len(sh) == 0 or sh[-1] == 0)
        raise ValueError(f"`pmfs[{i}]` must be a pmf with at least one axis and one value; "
                         f"got shape {shapes[i]}.")
    try:
        batch = int(np.prod(np.broadcast_shapes(*(sh[:-1] for sh in shapes)), dtype=float))
    except ValueError:
        raise ValueError(f"`pmfs` must have leading axes that broadcast; got shapes "
                         f"{shapes[:5]}.") from None
    work, peak, a = 0.0, 0.0, shapes[0][-1]
    for sh in shapes[1:]:                     # diag of each convolution: (a + b - 1, a)
        step = float(batch) * (a + sh[-1] - 1) * a
        work, peak, a = work + step, max(peak, step), a + sh[-1] - 1
    if work > MAX_SUM_PMF_WORK:
        raise ValueError(f"`pmfs` ({len(pmfs):,} pmfs, a sum on 0..{a - 1:,}) would take an "
                         f"estimated {work:.2g} steps of convolution, more than "
                         f"{MAX_SUM_PMF_WORK:.0e} (tens of seconds); give fewer or shorter "
                         "pmfs.")
    from .._validation import check_memory_estimate
    check_memory_estimate([(24.0 * peak, "pmfs", f"{len(pmfs)} pmfs on 0..{a - 1}", 0.5)],
                          what="sum_pmf")
    for i, x in enumerate(pmfs):
        check_real_dtype(f"pmfs[{i}]", x)
        v = np.asarray(x, dtype=float)
        bad = np.isnan(v) | ((v > 0) if log else ((v < 0) | (v > 1)))
        if bad.any():
            rule = "log probabilities <= 0" if log else "probabilities in [0, 1]"
            raise ValueError(f"`pmfs[{i}]` must hold {rule}; got {v[bad].ravel()[0]!r}.")
    with np.errstate(divide="ignore"):
        logs = [np.asarray(x, dtype=float) if log else np.log(np.asarray(x, dtype=float))
                for x in pmfs]
    out = reduce(log_sum_pmf, logs)
    return out if log else np.exp(out)
