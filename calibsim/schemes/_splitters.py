"""Resampling schemes: splitters that say which instances each fold tests.

Schemes follow scikit-learn's splitter protocol (``split(X, y=None,
groups=None)``, ``get_n_splits(X=None, y=None, groups=None)`` and a
``random_state`` parameter), so any of them can be passed as ``cv=`` to
``cross_val_score``, ``GridSearchCV`` and the like, and they also report what
the variance corrections and df calibration need (``test_train_ratio``,
``n_runs``). Randomness enters through the ``rng`` argument of each call or,
when that is None, the scheme's ``random_state``; an int or ``SeedSequence``
gives the same partition on every call (conventions.md, item 10).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field

import numpy as np

from .._validation import (check_int, check_memory_estimate, check_probability,
                           check_random_state)

__all__ = ["StratifiedRepeatedCV", "RepeatedCV", "FiveByTwoCV", "RandomSubsampling", "Holdout",
           "NestedCV"]


def _check_y(y) -> np.ndarray:
    y = np.asarray(y)
    if y.ndim != 1 or y.size < 2:
        raise ValueError(f"`y` must be a 1-D array of at least 2 class values; got shape {y.shape}.")
    return y


def _check_bool(name, value) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"`{name}` must be a bool; got {value!r}.")


def _check_random_state(value) -> None:
    check_random_state("random_state", value, generator=True)   # the one check


def _n_rows(X) -> int | None:
    if X is None:
        return None
    shape = getattr(X, "shape", None)
    return int(shape[0]) if shape is not None and len(shape) else len(X)


class _Splitter:
    """scikit-learn's splitter protocol on top of a subclass's ``test_masks(y, rng)``.

    Subclasses are frozen dataclasses with a ``random_state`` field, a
    ``stratified`` flag (class attribute or field) and ``get_n_splits``.
    """

    def _rng(self, rng) -> np.random.Generator:
        """The call's ``rng`` if given, else the scheme's ``random_state``, as a Generator."""
        if rng is None:
            return np.random.default_rng(self.random_state)
        return np.random.default_rng(check_random_state("rng", rng, generator=True))

    def split(self, X, y=None, groups=None, *, rng=None):
        """Yield ``(train_index, test_index)`` pairs, run by run (and fold by fold).

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features) or None
            Only its number of rows is used.
        y : array_like of shape (n_samples,), optional
            Class labels; required when the scheme is stratified.
        groups : object, optional
            Ignored; present for scikit-learn's splitter protocol.
        rng : None, int, SeedSequence or Generator, optional
            Source of the split; when None the scheme's ``random_state`` is used.

        Yields
        ------
        train_index, test_index : ndarray of int64
            Indices of the training and test instances, in increasing order;
            split ``i`` is row ``i`` of ``test_masks(y, rng)`` flattened.

        Raises
        ------
        ValueError
            If ``y`` is missing for a stratified scheme, ``X`` and ``y`` have
            different numbers of rows, or :meth:`test_masks` rejects ``y``.
        """
        n = _n_rows(X)
        if y is None:
            if self.stratified:
                raise ValueError(f"`y` is required: {type(self).__name__} stratifies by class.")
            if n is None:
                raise ValueError("`X` or `y` must be given to know the number of instances.")
            y = np.zeros(n, np.int8)
        y = _check_y(y)
        if n is not None and n != y.size:
            raise ValueError(f"`X` and `y` must have the same number of rows; got {n} "
                             f"and {y.size}.")
        for mask in self.test_masks(y, rng).reshape(-1, y.size):
            yield np.flatnonzero(~mask), np.flatnonzero(mask)


def _random_test_masks(y, n_test, n_runs, stratified, rng) -> np.ndarray:
    """``(n_runs, n)`` masks with ``n_test`` test instances per run.

    Run j ranks the instances by the j-th row of one ``(n_runs, n)`` draw of
    uniform keys, so runs are prefix-consistent. Plain: the ``n_test``
    smallest keys are tested. Stratified: instances are ordered by (class,
    key) and dealt like k-fold cv with k = n / n_test; the first "fold" is
    tested.
    """
    rng = np.random.default_rng(check_random_state("rng", rng, generator=True))
    keys = rng.random((n_runs, y.size))
    if stratified:
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


@dataclass(frozen=True)
class StratifiedRepeatedCV(_Splitter):
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
    random_state : None, int, SeedSequence or Generator, default None
        Source of the partitions when a call passes no ``rng`` (keyword
        only). An int or ``SeedSequence`` gives the same partitions on every
        call; a Generator advances, and None draws fresh entropy, so those
        give new partitions on each call (as scikit-learn's splitters do).

    Notes
    -----
    Run j draws one uniform key per instance, the j-th row of an
    ``(n_runs, n)`` array drawn from ``rng``, so the first r runs of a scheme
    with more runs are exactly the runs of a scheme with r runs and the same
    ``rng``. The Bouckaert (2003) study uses this to take every number of runs
    from one 100-run experiment per data set.

    Examples
    --------
    >>> scheme = StratifiedRepeatedCV(n_folds=3, n_runs=2)
    >>> masks = scheme.test_masks([0, 0, 0, 1, 1, 1], rng=0)
    >>> masks.shape
    (2, 3, 6)
    >>> masks.sum(axis=-1)   # instances per test fold
    array([[2, 2, 2],
           [2, 2, 2]])
    >>> round(scheme.test_train_ratio, 3)
    0.5

    ``split(X, y)`` yields the ``n_runs * n_folds`` (train, test) index pairs,
    so the scheme is scikit-learn's ``cv=`` (``random_state`` fixes the folds):

    >>> from sklearn.model_selection import cross_val_score
    >>> from calibsim.learners import NaiveBayes
    >>> X, y = np.tile([[0], [1]], (10, 1)), np.tile([0, 1], 10)
    >>> cv = StratifiedRepeatedCV(n_folds=5, n_runs=2, random_state=0)
    >>> cross_val_score(NaiveBayes(), X, y, cv=cv)
    array([1., 1., 1., 1., 1., 1., 1., 1., 1., 1.])
    """

    n_folds: int = 10
    n_runs: int = 10
    random_state: object = field(default=None, kw_only=True)

    #: Folds are dealt class by class (``split`` needs ``y``).
    stratified = True

    def __post_init__(self):
        check_int("n_folds", self.n_folds, min_value=2)
        check_int("n_runs", self.n_runs, min_value=1)
        _check_random_state(self.random_state)

    @property
    def test_train_ratio(self) -> float:
        """n2/n1 = 1/(k - 1), the ratio the corrected tests use."""
        return 1.0 / (self.n_folds - 1)

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        """Number of train/test splits, ``n_runs * n_folds`` (the arguments are ignored)."""
        return self.n_runs * self.n_folds

    def _check_size(self, n: int) -> None:
        """The memory estimate of the keys, folds and masks of n instances (before drawing)."""
        check_memory_estimate([(40.0 * self.n_runs * n, "n_runs", self.n_runs, 1),
                               (1.0 * self.n_runs * self.n_folds * n, "n_folds", self.n_folds,
                                1)], what=f"the {type(self).__name__} folds of {n:,} instances")

    def fold_of(self, y, rng=None) -> np.ndarray:
        """Fold index of every instance in every run.

        Parameters
        ----------
        y : array_like of shape (n,)
            Class values (any sortable labels).
        rng : None, int, SeedSequence or Generator
            Source of the run keys (normalised with ``numpy.random.default_rng``);
            when None, the scheme's ``random_state``.

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
        self._check_size(y.size)
        keys = self._rng(rng).random((self.n_runs, y.size))
        order = np.lexsort((keys, np.broadcast_to(y, keys.shape)), axis=-1)
        fold = np.empty_like(order)
        np.put_along_axis(fold, order, np.arange(y.size) % self.n_folds, axis=-1)
        return fold

    def test_masks(self, y, rng=None) -> np.ndarray:
        """Boolean test-set masks, ``(n_runs, n_folds, n)``; see :meth:`fold_of`."""
        fold = self.fold_of(y, rng)
        return fold[:, None, :] == np.arange(self.n_folds)[None, :, None]


@dataclass(frozen=True)
class RepeatedCV(StratifiedRepeatedCV):
    """``n_runs`` runs of plain (unstratified) ``n_folds``-fold cross-validation.

    As :class:`StratifiedRepeatedCV`, but within a run the instances are dealt
    to folds in the order of their random keys alone, not sorted by class first:
    every fold holds n/k instances (give or take one) and its class mix varies by
    chance. The runs are prefix-consistent in the same way. For experiments on
    what stratification changes (Bouckaert & Frank 2004, Table 3 at r = 1; issue 22).

    Examples
    --------
    >>> scheme = RepeatedCV(n_folds=3, n_runs=2)
    >>> masks = scheme.test_masks([0, 0, 0, 1, 1, 1], rng=0)
    >>> masks.sum(axis=-1)   # instances per test fold
    array([[2, 2, 2],
           [2, 2, 2]])
    >>> scheme.stratified
    False
    """

    #: Folds are dealt by random key only.
    stratified = False

    def fold_of(self, y, rng=None) -> np.ndarray:
        """Fold index of every instance in every run, ``(n_runs, n)``; see
        :meth:`StratifiedRepeatedCV.fold_of` (``y`` gives only the size here)."""
        y = _check_y(y)
        if y.size < self.n_folds:
            raise ValueError(f"`y` must hold at least `n_folds` = {self.n_folds} instances; "
                             f"got {y.size}.")
        self._check_size(y.size)
        keys = self._rng(rng).random((self.n_runs, y.size))
        order = np.argsort(keys, axis=-1, kind="stable")
        fold = np.empty_like(order)
        np.put_along_axis(fold, order, np.arange(y.size) % self.n_folds, axis=-1)
        return fold


@dataclass(frozen=True)
class FiveByTwoCV(StratifiedRepeatedCV):
    """Five runs of stratified 2-fold cross-validation: the 5x2cv scheme.

    :class:`StratifiedRepeatedCV` with ``n_folds=2`` and ``n_runs=5``
    fixed, as Dietterich's (1998) 5x2cv paired t test and Alpaydin's (1999)
    combined 5x2cv F test need: ``test_masks`` has shape ``(5, 2, n)``, so
    :func:`calibsim.evaluate.score_splits` gives the ``(..., 5, 2)`` arrays
    that :func:`calibsim.stats.cv5x2_ttest` and
    :func:`calibsim.stats.cv5x2_ftest` take. Given the same ``rng`` its
    folds equal those of ``StratifiedRepeatedCV(n_folds=2, n_runs=5)``.

    Examples
    --------
    >>> scheme = FiveByTwoCV()
    >>> scheme.test_masks(np.arange(10) % 2, rng=0).shape
    (5, 2, 10)
    >>> scheme.tests
    ('cv5x2_t', 'cv5x2_f')
    """

    n_folds: int = field(default=2, init=False)
    n_runs: int = field(default=5, init=False)

    #: Registry names (:data:`calibsim.stats.TESTS`) of the tests made for this scheme.
    tests = ("cv5x2_t", "cv5x2_f")


@dataclass(frozen=True)
class NestedCV(StratifiedRepeatedCV):
    """``n_runs`` repetitions of nested stratified ``n_folds``-fold cv (Bates et al. 2023).

    Each repetition partitions the data into K folds exactly as
    :class:`StratifiedRepeatedCV` does (same ``rng``, same folds) and makes
    K + K(K-1)/2 splits: first the K outer splits (test fold k, train on the
    rest: an ordinary K-fold cv), then one split per pair of folds k < j (test
    folds k and j, train on the other K - 2). A model trained without folds k
    and j scores fold j for the inner cv inside outer training set k, and fold
    k for the inner cv inside outer training set j, so the inner (K-1)-fold cvs
    of all K outer training sets cost K(K-1)/2 fits, as in the authors' code.
    :meth:`nested_layout` turns per-instance outcomes of these splits into the
    (R, K, K, n) layout of :func:`calibsim.stats.nested_cv_test`.

    Parameters
    ----------
    n_folds : int, default 10
        Number of folds K (>= 3: the inner cv runs on K - 1 >= 2 folds).
    n_runs : int, default 50
        Repetitions R, each with a fresh random partition (the authors' code
        defaults to 50; their experiments use more, as the MSE estimate is noisy).
    random_state : None, int, SeedSequence or Generator, default None
        As for :class:`StratifiedRepeatedCV` (keyword only).

    Examples
    --------
    >>> scheme = NestedCV(n_folds=3, n_runs=2)
    >>> masks = scheme.test_masks([0, 0, 0, 1, 1, 1], rng=0)
    >>> masks.shape, scheme.get_n_splits(), scheme.pairs
    ((2, 6, 6), 12, ((0, 1), (0, 2), (1, 2)))
    >>> masks.sum(axis=-1)   # 3 outer test folds of 2, then 3 pairs of folds
    array([[2, 2, 2, 4, 4, 4],
           [2, 2, 2, 4, 4, 4]])
    """

    n_folds: int = 10
    n_runs: int = 50
    random_state: object = field(default=None, kw_only=True)

    def __post_init__(self):
        check_int("n_folds", self.n_folds, min_value=3)
        check_int("n_runs", self.n_runs, min_value=1)
        _check_random_state(self.random_state)

    @property
    def pairs(self) -> tuple:
        """The pairs of folds (k, j), k < j, of the inner splits, in split order."""
        k = self.n_folds
        return tuple((a, b) for a in range(k) for b in range(a + 1, k))

    @property
    def n_splits_per_run(self) -> int:
        """K outer splits and K(K-1)/2 inner ones."""
        return self.n_folds + len(self.pairs)

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        """Number of train/test splits, ``n_runs * (K + K(K-1)/2)`` (arguments ignored)."""
        return self.n_runs * self.n_splits_per_run

    def _check_size(self, n: int) -> None:
        check_memory_estimate([(40.0 * self.n_runs * n, "n_runs", self.n_runs, 1),
                               (1.0 * self.n_runs * self.n_splits_per_run * n, "n_folds",
                                self.n_folds, 2)],
                              what=f"the {type(self).__name__} folds of {n:,} instances")

    def test_masks(self, y, rng=None) -> np.ndarray:
        """Boolean test-set masks, ``(n_runs, K + K(K-1)/2, n)``: the K outer test folds,
        then the union of folds k and j for each pair of :attr:`pairs`."""
        fold = self.fold_of(y, rng)
        outer = fold[:, None, :] == np.arange(self.n_folds)[None, :, None]
        a, b = (np.array(v, dtype=np.int64) for v in zip(*self.pairs))
        return np.concatenate([outer, outer[:, a] | outer[:, b]], axis=1)

    def nested_layout(self, values, masks) -> np.ndarray:
        """Per-instance outcomes of the splits in the layout of
        :func:`calibsim.stats.nested_cv_test`.

        Parameters
        ----------
        values : array_like of shape (..., n_runs, K + K(K-1)/2, n)
            Each split's per-instance value (e.g. 0/1 loss, or a difference of two
            learners' correctness); only the values on the split's test set are read.
        masks : array_like of bool, broadcastable to ``values``
            The splits' test masks (:meth:`test_masks`).

        Returns
        -------
        ndarray of shape (..., n_runs, K, K, n)
            ``[..., r, k, k, i]`` the outer value of instance i of fold k,
            ``[..., r, k, j, i]`` its value from the model trained without folds k
            and j; NaN elsewhere.

        Raises
        ------
        ValueError
            If the shapes do not match this scheme's splits.
        """
        values = np.asarray(values, dtype=float)
        masks = np.asarray(masks, dtype=bool)
        K, S = self.n_folds, self.n_splits_per_run
        if values.shape[-2:-1] != (S,) or values.ndim < 3:
            raise ValueError(f"`values` must have shape (..., n_runs, {S}, n) for {K} folds; "
                             f"got {values.shape}.")
        masks = np.broadcast_to(masks, values.shape)
        fold = masks[..., :K, :]                                   # (..., R, K, n)
        out = np.full(values.shape[:-2] + (K, K, values.shape[-1]), np.nan)
        for k in range(K):
            out[..., k, k, :] = np.where(fold[..., k, :], values[..., k, :], np.nan)
        for p, (a, b) in enumerate(self.pairs):
            v = values[..., K + p, :]
            out[..., a, b, :] = np.where(fold[..., b, :], v, np.nan)
            out[..., b, a, :] = np.where(fold[..., a, :], v, np.nan)
        return out


class _RandomSplits(_Splitter):
    """Splits, masks and counts shared by the random train/test schemes.

    Subclasses are frozen dataclasses with ``n_runs``, ``stratified``,
    ``random_state`` and a method ``n_test(n)`` giving the test-set size for
    ``n`` instances.
    """

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        """Number of train/test splits, ``n_runs`` (the arguments are ignored)."""
        return self.n_runs

    def test_masks(self, y, rng=None) -> np.ndarray:
        """Boolean test-set masks of shape ``(n_runs, n)``.

        Raises
        ------
        ValueError
            If ``y`` is not 1-D, or the split would leave a side empty.
        """
        y = _check_y(y)
        check_memory_estimate([(25.0 * self.n_runs * y.size, "n_runs", self.n_runs, 1)],
                              what=f"the {type(self).__name__} masks of {y.size:,} instances")
        return _random_test_masks(y, self.n_test(y.size), self.n_runs, self.stratified,
                                  self._rng(rng))


@dataclass(frozen=True)
class RandomSubsampling(_RandomSplits):
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
        Deal the test set class by class, as :class:`StratifiedRepeatedCV`
        deals folds, instead of a plain random draw.
    random_state : None, int, SeedSequence or Generator, default None
        Source of the splits when a call passes no ``rng`` (keyword only), as
        for :class:`StratifiedRepeatedCV`.

    Notes
    -----
    As for :class:`StratifiedRepeatedCV`, the first r runs equal the runs
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
    random_state: object = field(default=None, kw_only=True)

    def __post_init__(self):
        check_int("n_runs", self.n_runs, min_value=1)
        check_probability("test_fraction", self.test_fraction)
        _check_bool("stratified", self.stratified)
        _check_random_state(self.random_state)

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


@dataclass(frozen=True)
class Holdout(_RandomSplits):
    """Hold-out: train on a share of the data, test on the rest (Dietterich 1998).

    Each run puts the instances in a random order and trains on
    ``n_train = round(train_fraction * n)`` of them and tests on the other
    ``n - n_train``. Dietterich's McNemar and difference-of-proportions tests
    use one run with 2/3 training data; ``n_runs = 30`` gives his resampled
    paired t test.

    Parameters
    ----------
    train_fraction : float, default 2/3
        Share of instances in the training set, in (0, 1).
    n_runs : int, default 1
        Number of independent splits (>= 1).
    stratified : bool, default False
        Deal the test set class by class (as :class:`RandomSubsampling` does).
    random_state : None, int, SeedSequence or Generator, default None
        Source of the splits when a call passes no ``rng`` (keyword only), as
        for :class:`StratifiedRepeatedCV`.

    Notes
    -----
    The masks are drawn exactly as by :class:`RandomSubsampling` with a test
    set of ``n - n_train`` instances: the first r runs equal the runs of a
    scheme with ``n_runs = r`` and the same ``rng``, and with equal test-set
    sizes the two schemes give equal splits from equal ``rng``.

    Examples
    --------
    >>> scheme = Holdout()
    >>> masks = scheme.test_masks(np.zeros(300), rng=0)
    >>> masks.shape, int(masks.sum())
    ((1, 300), 100)
    >>> scheme.n_train(300), scheme.test_train_ratio_for(300)
    (200, 0.5)
    """

    train_fraction: float = 2 / 3
    n_runs: int = 1
    stratified: bool = False
    random_state: object = field(default=None, kw_only=True)

    def __post_init__(self):
        check_probability("train_fraction", self.train_fraction)
        check_int("n_runs", self.n_runs, min_value=1)
        _check_bool("stratified", self.stratified)
        _check_random_state(self.random_state)

    def n_train(self, n: int) -> int:
        """Training-set size n1 for ``n`` instances; raises if a side would be empty."""
        n_train = int(round(self.train_fraction * n))
        if not 1 <= n_train <= n - 1:
            raise ValueError(f"`train_fraction` = {self.train_fraction} leaves an empty training "
                             f"or test set with {n} instances.")
        return n_train

    def n_test(self, n: int) -> int:
        """Test-set size n2 = n - n1 for ``n`` instances."""
        return n - self.n_train(n)

    def test_train_ratio_for(self, n: int) -> float:
        """n2/n1 for ``n`` instances."""
        n_train = self.n_train(n)
        return (n - n_train) / n_train
