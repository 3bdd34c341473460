"""The parameter-channel model of :mod:`calibsim.tuning` (assumptions A1-A6 there)."""

from __future__ import annotations

from functools import reduce

import numpy as np
from scipy import stats
from scipy.special import logsumexp

from ._iv import iv_counts, iv_fraction, iv_ints, iv_positive, problems
from ._pmf import (
    log_sum_pmf,
    poisson_binomial_logpmf,
    poisson_binomial_pmf,
    sum_pmf,
)
from ._results import LabelsNeededResult, TunedAccuracyResult, needed_hits
from .._validation import check_choice, check_int

__all__ = [
    "LabelsNeededResult",
    "TunedAccuracyResult",
    "channel_bits",
    "channel_labels",
    "class_entropy",
    "labels_needed",
    "poisson_binomial_pmf",
    "reach_probability",
    "search_experiments",
    "sum_pmf",
    "tuned_accuracy",
]

_SAMPLING = ("hypergeom", "binomial")


def class_entropy(counts, *, axis: int = -1):
    """Shannon entropy H of a class distribution, in bits (assumption A3).

    Parameters
    ----------
    counts : array_like
        Class counts (or probabilities) along ``axis``; non-negative, not all zero.
    axis : int, default -1

    Returns
    -------
    float or ndarray
        ``-sum_k p_k log2 p_k`` with ``p_k = counts_k / sum(counts)``.

    Raises
    ------
    ValueError
        If a count is negative or all are zero.

    Examples
    --------
    StatLog heart disease, 150 absent and 120 present (the paper, §3.1: H = .991):

    >>> from calibsim.tuning import class_entropy
    >>> round(float(class_entropy([150, 120])), 3)
    0.991
    """
    from .._validation import check_finite_array
    c = check_finite_array("counts", counts, min_ndim=1)
    if np.any(c < 0) or np.any(c.sum(axis=axis) <= 0):
        raise ValueError(f"`counts` must be non-negative with a positive sum; got {counts!r}.")
    return stats.entropy(c, base=2, axis=axis)


def channel_bits(labels, entropy):
    """Bits a parameter channel needs to leak ``labels`` test labels, ``labels * H`` (A3).

    Parameters
    ----------
    labels : int or array_like of int
        Leaked test labels (the paper's c).
    entropy : float or array_like
        Class entropy H of the test set in bits, > 0 (see :func:`class_entropy`).

    Returns
    -------
    float or ndarray
        Channel capacity in bits.

    Examples
    --------
    Landsat (§3.1): "c = 16 samples (parameter channel of 40 bits)", with H = 2.503
    bits for the StatLog test set:

    >>> from calibsim.tuning import channel_bits
    >>> round(float(channel_bits(16, 2.503)), 1)
    40.0
    """
    return np.asarray(labels) * iv_positive("entropy", entropy)


def channel_labels(bits, entropy):
    """Labels a ``bits``-bit parameter channel can leak, ``floor(bits / H)`` (A3).

    Parameters
    ----------
    bits : float or array_like
        Capacity of the parameter channel in bits, >= 0.
    entropy : float or array_like
        Class entropy H of the test set in bits, > 0.

    Returns
    -------
    int or ndarray of int
        Whole labels that fit (the quotient is rounded to 9 decimals first).

    Raises
    ------
    ValueError
        If ``bits`` is negative or infinite or ``entropy`` is not positive.

    Examples
    --------
    >>> from calibsim.tuning import channel_labels
    >>> int(channel_labels(40, 2.503))
    15
    >>> int(channel_labels(40.05, 2.503))
    16
    """
    from .._validation import check_real_dtype
    check_real_dtype("bits", bits)
    bits = np.asarray(bits, dtype=float)
    if np.any(~((bits >= 0) & np.isfinite(bits))):
        raise ValueError(f"`bits` must be finite and >= 0; got {bits!r}.")
    out = np.floor(np.round(bits / iv_positive("entropy", entropy), 9)).astype(np.int64)
    return out[()] if out.ndim == 0 else out


def search_experiments(labels, n_classes, *, n_problems: int = 1):
    """Experiments the gradient search of §3 runs to leak ``labels`` labels (A4).

    Each leaked label is found by trying every class for one test instance:
    ``labels * n_classes * n_problems`` experiments.

    Parameters
    ----------
    labels : int or array_like of int
        Leaked labels per learning problem.
    n_classes : int or array_like of int
        Number of classes K, >= 1.
    n_problems : int, default 1
        Learning problems tuned separately (A6).

    Returns
    -------
    int or ndarray of int
        Number of test-set evaluations.

    Examples
    --------
    Landsat (6 classes, §3.1): 16 labels, "96 experiments":

    >>> from calibsim.tuning import search_experiments
    >>> int(search_experiments(16, 6))
    96
    """
    n_problems = check_int("n_problems", n_problems, min_value=1)
    return iv_ints("labels", labels) * iv_ints("n_classes", n_classes, min_value=1) * n_problems


def tuned_accuracy(m, hits, labels=None, *, bits=None, entropy=None, n_problems: int = 1,
                   sampling: str = "hypergeom") -> TunedAccuracyResult:
    """Distribution of the accuracy a learner tuned on its test set reports (§3).

    Parameters
    ----------
    m : int or sequence of int
        Test-set size, or one size per learning problem tuned separately (A6).
    hits : int or sequence of int
        Test instances classified correctly by h, the classifier learned without
        tuning, in [0, m].
    labels : int or sequence of int, optional
        Test labels leaked per problem (the paper's c). Give either ``labels`` or
        both ``bits`` and ``entropy``.
    bits : float, optional
        Capacity of the parameter channel; ``labels = floor(bits / entropy)`` (A3).
    entropy : float, optional
        Class entropy H of the test set in bits; also sets ``result.bits``.
    n_problems : int, default 1
        With scalar ``m`` and ``hits`` (pooled over the problems) and
        ``sampling="binomial"``: the number of problems, each leaking ``labels``.
    sampling : {"hypergeom", "binomial"}, default "hypergeom"
        How h's errors fall on the leaked instances (A2).

    Returns
    -------
    TunedAccuracyResult
        Support, pmf, mean and bias of the reported accuracy, and
        ``reach_probability(accuracy)``.

    Raises
    ------
    ValueError
        If counts are out of range, more labels leak than a problem has instances, or
        ``sampling="hypergeom"`` is asked for pooled problems.
    TypeError
        If a count is not an integer.

    Examples
    --------
    Landsat (§3.1): C4.5 has 1700 hits of 2000; 16 leaked labels give the 6 extra
    hits that rank it above Bay-tree with probability about 2%:

    >>> from calibsim.tuning import tuned_accuracy
    >>> res = tuned_accuracy(2000, 1700, 16)
    >>> round(float(res.reach_probability(0.853)), 4)
    0.0231
    >>> round(res.bias * 2000, 2)          # expected extra hits, 16 * 0.15
    2.4
    """
    sampling = check_choice("sampling", sampling, _SAMPLING)
    n_problems = check_int("n_problems", n_problems, min_value=1)
    if labels is None:
        if bits is None or entropy is None:
            raise ValueError("Give `labels`, or both `bits` and `entropy`.")
        labels = channel_labels(bits, entropy)
    elif bits is not None:
        raise ValueError("Give either `labels` or `bits` (with `entropy`), not both.")
    m, hits, labels, m_total, hits_total = problems(m, hits, labels, n_problems, sampling)
    if sampling == "hypergeom":
        logs = [stats.hypergeom(mj, mj - hj, cj).logpmf(np.arange(cj + 1))
                for mj, hj, cj in zip(m, hits, labels)]
        # scipy's log pmf is accurate to ~1e-12 relative for m in the thousands; the
        # support 0..c is complete, so renormalise before convolving over problems (A6)
        logs = [x - logsumexp(x) for x in logs]
        logpmf = reduce(log_sum_pmf, logs)
    else:
        p = np.repeat(1.0 - hits / m, labels)               # one Bernoulli per leaked label
        logpmf = poisson_binomial_logpmf(p)
    total = int(labels.sum())
    h = float("nan") if entropy is None else float(iv_positive("entropy", entropy))
    return TunedAccuracyResult(m=m_total, hits=hits_total, labels=labels, bits=total * h,
                               extra_hits=np.arange(total + 1), pmf=np.exp(logpmf),
                               sampling=sampling, _logpmf=logpmf)


def _reach(m, hits, labels, z, n_problems, sampling):
    """P(Z >= z) for one test set or pooled problems; arrays broadcast (no validation)."""
    if sampling == "hypergeom":
        return stats.hypergeom(m, m - hits, labels).sf(z - 1)
    return stats.binom(n_problems * labels, 1.0 - hits / m).sf(z - 1)


def reach_probability(m, hits, labels, accuracy, *, n_problems: int = 1,
                      sampling: str = "hypergeom"):
    """Probability that the test-set-tuned learner reports at least ``accuracy`` (§3).

    Vectorised: all array arguments broadcast. Equal to
    ``tuned_accuracy(m, hits, labels, ...).reach_probability(accuracy)``.

    Parameters
    ----------
    m, hits : int or array_like of int
        Test-set size (pooled over ``n_problems``) and hits of the untuned h.
    labels : int or array_like of int
        Leaked labels per learning problem (the paper's c).
    accuracy : float or array_like
        Target accuracy in [0, 1]; reached with ``ceil(accuracy * m)`` hits (A5).
    n_problems : int, default 1
        Learning problems, each leaking ``labels`` (binomial sampling only, A6).
    sampling : {"hypergeom", "binomial"}, default "hypergeom"
        See :func:`tuned_accuracy` (A2).

    Returns
    -------
    float or ndarray
        ``P(hits + Z >= ceil(accuracy * m))``, in [0, 1].

    Examples
    --------
    FEM mesh design (§3.1): FOIL has 59 hits of 277; five problems, c = 5 and
    c = 8 labels each, reach 26% and 31% (paper: probability 99% and 93%):

    >>> from calibsim.tuning import reach_probability
    >>> reach_probability(277, 59, [5, 8], [0.26, 0.31], n_problems=5,
    ...                   sampling="binomial").round(3).tolist()
    [0.997, 0.968]
    """
    sampling = check_choice("sampling", sampling, _SAMPLING)
    n_problems = check_int("n_problems", n_problems, min_value=1)
    if n_problems > 1 and sampling == "hypergeom":
        raise ValueError("`sampling='hypergeom'` with `n_problems > 1` needs per-problem "
                         "sizes: use `tuned_accuracy` with sequences `m` and `hits`, or "
                         "`sampling='binomial'`.")
    m, hits, labels = iv_counts(m, hits, labels)
    acc = iv_fraction("accuracy", accuracy)
    if np.any(n_problems * labels > m):
        raise ValueError(f"`labels` times `n_problems` must not exceed `m`; got "
                         f"labels={labels.tolist()}, m={m.tolist()}.")
    out = _reach(m, hits, labels, needed_hits(m, acc) - hits, n_problems, sampling)
    return out[()] if np.ndim(out) == 0 else out


def labels_needed(m, hits, accuracy, probability, *, n_problems: int = 1,
                  sampling: str = "hypergeom") -> LabelsNeededResult:
    """Fewest leaked labels with which the tuned learner reaches an accuracy (§3.1).

    Parameters
    ----------
    m, hits : int or array_like of int
        Test-set size (pooled over ``n_problems``) and hits of the untuned h.
    accuracy : float or array_like
        Target accuracy in [0, 1] (A5).
    probability : float or array_like
        Required ``P(reported accuracy >= accuracy)``, in (0, 1].
    n_problems : int, default 1
        Learning problems, each leaking the same number of labels (A6).
    sampling : {"hypergeom", "binomial"}, default "hypergeom"
        See :func:`tuned_accuracy` (A2).

    Returns
    -------
    LabelsNeededResult
        ``labels`` (smallest c per problem, NaN if none suffices), the
        ``probability`` reached with it and the ``extra_hits`` needed; arrays
        broadcast over the inputs.

    Examples
    --------
    FEM mesh design (§3.1: "To achieve 26% accuracy with a probability of 99%,
    FOIL needs c = 5 class labels, while to achieve 31% with a probability of
    93% FOIL would need c = 8"):

    >>> from calibsim.tuning import labels_needed
    >>> res = labels_needed(277, 59, [0.26, 0.31], [0.99, 0.93], n_problems=5,
    ...                     sampling="binomial")
    >>> res.labels.tolist(), res.extra_hits.tolist()
    ([5.0, 8.0], [14, 27])
    """
    sampling = check_choice("sampling", sampling, _SAMPLING)
    n_problems = check_int("n_problems", n_problems, min_value=1)
    if n_problems > 1 and sampling == "hypergeom":
        raise ValueError("`sampling='hypergeom'` with `n_problems > 1` needs per-problem "
                         "sizes; use `sampling='binomial'` with the pooled numbers.")
    m, hits, _ = iv_counts(m, hits, 0)
    acc = iv_fraction("accuracy", accuracy)
    prob = iv_fraction("probability", probability, open_low=True)
    m, hits, acc, prob = np.broadcast_arrays(m, hits, acc, prob)
    if m.size == 0:
        raise ValueError("`m`, `hits`, `accuracy` and `probability` must broadcast to at least "
                         f"one problem; got the empty shape {m.shape}.")
    z = needed_hits(m, acc) - hits
    cap = m // n_problems
    from .._validation import check_memory_estimate
    check_memory_estimate([(32.0 * m.size * (float(cap.max()) + 1), "m", _scalar(m), 1)],
                          what="labels_needed (one probability per possible label count)")
    grid = np.arange(int(cap.max()) + 1)
    with np.errstate(invalid="ignore"):
        p = _reach(m[..., None], hits[..., None], np.minimum(grid, cap[..., None]),
                   z[..., None], n_problems, sampling)
    p = np.where(grid <= cap[..., None], p, -1.0)
    ok = p >= prob[..., None] - 1e-12                       # P rises with the labels
    found = ok.any(axis=-1)
    first = np.argmax(ok, axis=-1)
    labels = np.where(found, first, np.nan)
    reached = np.where(found, np.take_along_axis(p, first[..., None], -1)[..., 0], np.nan)
    z = np.maximum(z, 0)
    return LabelsNeededResult(labels=labels[()] if labels.ndim == 0 else labels,
                              probability=reached[()] if reached.ndim == 0 else reached,
                              extra_hits=int(z) if z.ndim == 0 else z)


def _scalar(a):
    """An int for a one-value array (for messages), else the array's largest value."""
    return int(a.max()) if a.size else 0
