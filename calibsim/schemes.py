"""Resampling schemes: splitters that say which instances each fold tests.

Schemes follow scikit-learn's splitter protocol (``split``, ``get_n_splits``)
and also report what the variance corrections and df calibration need
(``test_train_ratio``, ``n_runs``). All randomness enters through the ``rng``
argument of each call, so calling ``test_masks`` twice with equal seeds gives
equal partitions (conventions.md, item 10).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validation import check_int, check_probability

__all__ = ["RepeatedStratifiedKFold", "RandomSubsampling"]


def _check_y(y) -> np.ndarray:
    y = np.asarray(y)
    if y.ndim != 1 or y.size < 2:
        raise ValueError(f"`y` must be a 1-D array of at least 2 class values; got shape {y.shape}.")
    return y


@dataclass(frozen=True)
class RepeatedStratifiedKFold:
    """``n_runs`` runs of stratified ``n_folds``-fold cross-validation.

    Within a run, instances are put in a random order, stably sorted by class
    and dealt to folds in turn (instance t of that order goes to fold
    ``t mod n_folds``), so every fold holds n/k instances (give or take one)
    and each class is spread over the folds as evenly as possible, as in
    Bouckaert (2003, §4: "we use stratification for the different runs").

    Parameters
    ----------
    n_folds : int, default 10
        Number of folds k (>= 2).
    n_runs : int, default 10
        Number of runs r (>= 1), each with a fresh random partition.

    Notes
    -----
    Run j draws one uniform key per instance, the j-th row of an
    ``(n_runs, n)`` array drawn from ``rng``, so the first r runs of a scheme
    with more runs are exactly the runs of a scheme with r runs and the same
    ``rng``. The Bouckaert (2003) study uses this to take every number of runs
    from one 100-run experiment per data set.

    Examples
    --------
    >>> scheme = RepeatedStratifiedKFold(n_folds=3, n_runs=2)
    >>> masks = scheme.test_masks([0, 0, 0, 1, 1, 1], rng=0)
    >>> masks.shape
    (2, 3, 6)
    >>> masks.sum(axis=-1)   # instances per test fold
    array([[2, 2, 2],
           [2, 2, 2]])
    >>> round(scheme.test_train_ratio, 3)
    0.5
    """

    n_folds: int = 10
    n_runs: int = 10

    def __post_init__(self):
        check_int("n_folds", self.n_folds, min_value=2)
        check_int("n_runs", self.n_runs, min_value=1)

    @property
    def test_train_ratio(self) -> float:
        """n2/n1 = 1/(k - 1), the ratio the corrected tests use."""
        return 1.0 / (self.n_folds - 1)

    def get_n_splits(self) -> int:
        """Number of train/test splits, ``n_runs * n_folds``."""
        return self.n_runs * self.n_folds

    def fold_of(self, y, rng=None) -> np.ndarray:
        """Fold index of every instance in every run.

        Parameters
        ----------
        y : array_like of shape (n,)
            Class values (any sortable labels).
        rng : None, int, SeedSequence or Generator
            Source of the run keys (normalised with ``numpy.random.default_rng``).

        Returns
        -------
        ndarray of shape (n_runs, n), int64
            Fold in ``0 .. n_folds - 1`` of each instance in each run.

        Raises
        ------
        ValueError
            If ``y`` is not 1-D or has fewer instances than ``n_folds``.
        """
        y = _check_y(y)
        if y.size < self.n_folds:
            raise ValueError(f"`y` must hold at least `n_folds` = {self.n_folds} instances; "
                             f"got {y.size}.")
        rng = np.random.default_rng(rng)
        keys = rng.random((self.n_runs, y.size))
        order = np.lexsort((keys, np.broadcast_to(y, keys.shape)), axis=-1)
        fold = np.empty_like(order)
        np.put_along_axis(fold, order, np.arange(y.size) % self.n_folds, axis=-1)
        return fold

    def test_masks(self, y, rng=None) -> np.ndarray:
        """Boolean test-set masks, ``(n_runs, n_folds, n)``; see :meth:`fold_of`."""
        fold = self.fold_of(y, rng)
        return fold[:, None, :] == np.arange(self.n_folds)[None, :, None]

    def split(self, X, y, rng=None):
        """Yield ``(train_index, test_index)`` pairs run by run, fold by fold."""
        for run in self.test_masks(y, rng):
            for mask in run:
                yield np.flatnonzero(~mask), np.flatnonzero(mask)


@dataclass(frozen=True)
class RandomSubsampling:
    """``n_runs`` random train/test splits ("resampling", Dietterich 1998).

    Each run puts the instances in a random order and tests on the first
    ``round(test_fraction * n)`` of them (n2) and trains on the rest (n1).

    Parameters
    ----------
    n_runs : int, default 10
        Number of splits n (>= 1).
    test_fraction : float, default 0.1
        Share of instances in the test set, in (0, 1); Bouckaert (2003) uses
        90% training / 10% test.
    stratified : bool, default False
        Deal the test set class by class, as :class:`RepeatedStratifiedKFold`
        deals folds, instead of a plain random draw.

    Notes
    -----
    As for :class:`RepeatedStratifiedKFold`, the first r runs equal the runs
    of a scheme with ``n_runs = r`` and the same ``rng``.

    Examples
    --------
    >>> scheme = RandomSubsampling(n_runs=3, test_fraction=0.25)
    >>> scheme.test_masks(np.zeros(8), rng=0).sum(axis=-1)
    array([2, 2, 2])
    >>> scheme.test_train_ratio_for(8)
    0.3333333333333333
    """

    n_runs: int = 10
    test_fraction: float = 0.1
    stratified: bool = False

    def __post_init__(self):
        check_int("n_runs", self.n_runs, min_value=1)
        check_probability("test_fraction", self.test_fraction)
        if not isinstance(self.stratified, bool):
            raise TypeError(f"`stratified` must be a bool; got {self.stratified!r}.")

    def n_test(self, n: int) -> int:
        """Test-set size n2 for ``n`` instances; raises if a side would be empty."""
        n_test = int(round(self.test_fraction * n))
        if not 1 <= n_test <= n - 1:
            raise ValueError(f"`test_fraction` = {self.test_fraction} leaves an empty training "
                             f"or test set with {n} instances.")
        return n_test

    def test_train_ratio_for(self, n: int) -> float:
        """n2/n1 for ``n`` instances (counts, as Nadeau & Bengio and Weka use)."""
        n_test = self.n_test(n)
        return n_test / (n - n_test)

    def get_n_splits(self) -> int:
        """Number of train/test splits, ``n_runs``."""
        return self.n_runs

    def test_masks(self, y, rng=None) -> np.ndarray:
        """Boolean test-set masks of shape ``(n_runs, n)``.

        Raises
        ------
        ValueError
            If ``y`` is not 1-D, or the split would leave a side empty.
        """
        y = _check_y(y)
        n_test = self.n_test(y.size)
        rng = np.random.default_rng(rng)
        keys = rng.random((self.n_runs, y.size))
        if self.stratified:
            order = np.lexsort((keys, np.broadcast_to(y, keys.shape)), axis=-1)
            # deal like k-fold with k = n / n_test and keep the first "fold"
            k = y.size / n_test
            position = np.empty_like(order)
            np.put_along_axis(position, order, np.arange(y.size), axis=-1)
            slot = np.floor(np.mod(position, k)).astype(np.int64)
            rank = np.argsort(slot * y.size + position, axis=-1, kind="stable")
            masks = np.zeros(keys.shape, dtype=bool)
            np.put_along_axis(masks, rank[:, :n_test], True, axis=-1)
            return masks
        order = np.argsort(keys, axis=-1)
        masks = np.zeros(keys.shape, dtype=bool)
        np.put_along_axis(masks, order[:, :n_test], True, axis=-1)
        return masks

    def split(self, X, y, rng=None):
        """Yield ``(train_index, test_index)`` pairs, one per run."""
        for mask in self.test_masks(y, rng):
            yield np.flatnonzero(~mask), np.flatnonzero(mask)
