"""Result types of :mod:`calibsim.tuning` (Scheffer & Herbrich 1997)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["LabelsNeededResult", "TunedAccuracyResult", "needed_hits"]


def needed_hits(m, accuracy):
    """Smallest hit count whose accuracy ``hits / m`` is at least ``accuracy``.

    ``ceil(accuracy * m)``, after rounding the product to 9 decimals so that, e.g.,
    ``0.853 * 2000 = 1705.9999999999998`` counts as 1706 hits (assumption A5 of
    :mod:`calibsim.tuning`).
    """
    return np.ceil(np.round(np.asarray(accuracy, dtype=float) * np.asarray(m), 9)).astype(np.int64)


@dataclass(frozen=True)
class TunedAccuracyResult:
    """Distribution of the accuracy a learner tuned on its test set reports.

    Attributes
    ----------
    m : int
        Number of test instances (summed over the learning problems).
    hits : int
        Test instances the untuned classifier h classifies correctly (summed).
    labels : ndarray of shape (n_problems,)
        Test-set class labels leaked through the parameter channel, per problem.
    bits : float
        Capacity of the parameter channel, ``labels.sum() * entropy`` bits; NaN
        when no class entropy was given.
    extra_hits : ndarray of shape (labels.sum() + 1,)
        The support ``z = 0, 1, ..., labels.sum()`` of the number of extra hits.
    pmf : ndarray of shape (labels.sum() + 1,)
        ``P(Z = z)``; the reported accuracy is ``(hits + z) / m``.
    sampling : str
        ``"hypergeom"`` or ``"binomial"`` (see :func:`calibsim.tuning.tuned_accuracy`).

    Notes
    -----
    The log pmf, kept privately, gives :meth:`reach_probability` its precision in
    the far tail.
    """

    m: int
    hits: int
    labels: np.ndarray
    bits: float
    extra_hits: np.ndarray
    pmf: np.ndarray
    sampling: str
    _logpmf: np.ndarray = field(repr=False, default=None)

    @property
    def accuracy(self) -> np.ndarray:
        """Reported accuracy in [0, 1] at each point of the support, ``(hits + z) / m``."""
        return (self.hits + self.extra_hits) / self.m

    @property
    def mean(self) -> float:
        """Expected reported accuracy in [0, 1], ``hits / m + bias``."""
        return self.hits / self.m + self.bias

    @property
    def bias(self) -> float:
        """Optimistic bias: expected reported accuracy minus ``hits / m`` (>= 0)."""
        return float(np.sum(self.pmf * self.extra_hits)) / self.m

    def reach_probability(self, accuracy):
        """``P(reported accuracy >= accuracy)``, elementwise.

        Parameters
        ----------
        accuracy : float or array_like
            Target accuracies in [0, 1]; reaching one means at least
            ``ceil(accuracy * m)`` hits.

        Returns
        -------
        float or ndarray
            Probabilities with the shape of ``accuracy``.
        """
        acc = np.asarray(accuracy, dtype=float)
        if np.any(~((acc >= 0) & (acc <= 1))):
            raise ValueError(f"`accuracy` must lie in [0, 1]; got {accuracy!r}.")
        z = needed_hits(self.m, acc) - self.hits
        tail = np.logaddexp.accumulate(self._logpmf[::-1])[::-1]   # log P(Z >= z)
        k = np.clip(z, 0, self.extra_hits.size)
        out = np.where(k < self.extra_hits.size,
                       np.exp(tail[np.minimum(k, self.extra_hits.size - 1)]), 0.0)
        return out[()] if out.ndim == 0 else out


@dataclass(frozen=True)
class LabelsNeededResult:
    """How many leaked labels a tuned learner needs to reach an accuracy.

    Attributes
    ----------
    labels : float or ndarray
        Smallest number of labels per learning problem (integer-valued) with which
        the reported accuracy reaches the target with at least the requested
        probability; NaN where no number of labels does.
    probability : float or ndarray
        ``P(reported accuracy >= target)`` at ``labels`` (NaN where unreachable).
    extra_hits : int or ndarray
        Hits the tuned learner must gain over h, ``ceil(accuracy * m) - hits``
        (0 when h already reaches the target).
    """

    labels: float | np.ndarray
    probability: float | np.ndarray
    extra_hits: int | np.ndarray
