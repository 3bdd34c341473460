"""The .632 bootstrap (Efron 1983): training on n draws with replacement, testing out of bag.

:class:`Bootstrap632` draws ``n_bootstrap`` bootstrap samples of ``n`` instances.
Sample b trains on n draws with replacement (an instance may appear several times)
and tests on the instances it never drew (out of bag, about e^-1 = 36.8% of them).
The .632 estimate of a learner's accuracy (:func:`bootstrap632_accuracy`) weighs
the resubstitution accuracy (the learner trained and tested on all n instances)
against the pooled out-of-bag accuracy:

    acc_.632 = 0.368 * acc_resubstitution + 0.632 * acc_out_of_bag

(Efron 1983, §6, eq. 6.10, written for accuracy instead of error: err_.632 =
.368 err_bar + .632 ε0, with ε0 the out-of-bag error pooled over all
bootstrap samples).

The splitter follows scikit-learn's protocol (``split`` / ``get_n_splits``), so it
can be passed as ``cv=`` to ``cross_val_score``; ``split`` yields training indices
with repeats. Randomness comes from the ``rng`` of each call, or else the
splitter's ``random_state`` (conventions.md, items 6 and 10).

References
----------
.. [1] Efron, B. (1983). Estimating the error rate of a prediction rule:
       improvement on cross-validation. Journal of the American Statistical
       Association 78(382), 316-331. doi:10.1080/01621459.1983.10477973
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field

import numpy as np

from .._validation import check_int, check_memory_estimate, check_random_state

__all__ = ["WEIGHT_OUT_OF_BAG", "Bootstrap632", "bootstrap632_accuracy", "BootstrapCV"]

#: Weight of the out-of-bag accuracy in the .632 estimate (Efron 1983, eq. 6.10);
#: the resubstitution accuracy gets ``1 - WEIGHT_OUT_OF_BAG`` = 0.368.
WEIGHT_OUT_OF_BAG = 0.632


def bootstrap632_accuracy(resubstitution, out_of_bag):
    """The .632 bootstrap estimate of accuracy, 0.368 resubstitution + 0.632 out of bag.

    Parameters
    ----------
    resubstitution : array_like
        Accuracy in [0, 1] of the learner trained on all instances and tested on them.
    out_of_bag : array_like
        Out-of-bag accuracy in [0, 1], pooled over the bootstrap samples (correct
        out-of-bag predictions over out-of-bag instances). NaN where no sample
        left an instance out of bag; the estimate is then the resubstitution
        accuracy.

    Returns
    -------
    ndarray or float
        The .632 estimate, broadcast from the two inputs.

    References
    ----------
    Efron (1983), §6, eq. 6.10; see the module docstring.

    Examples
    --------
    >>> round(float(bootstrap632_accuracy(1.0, 0.5)), 12)
    0.684
    >>> float(bootstrap632_accuracy(0.9, np.nan))
    0.9
    """
    resub = np.asarray(resubstitution, dtype=float)
    oob = np.asarray(out_of_bag, dtype=float)
    est = (1 - WEIGHT_OUT_OF_BAG) * resub + WEIGHT_OUT_OF_BAG * oob
    return np.where(np.isnan(oob), resub, est)[()]


def _check_random_state(value) -> None:
    check_random_state("random_state", value, generator=True)   # the one check


@dataclass(frozen=True)
class Bootstrap632:
    """``n_bootstrap`` bootstrap samples: train on n draws with replacement, test out of bag.

    Parameters
    ----------
    n_bootstrap : int, default 50
        Number of bootstrap samples B (>= 1).
    random_state : None, int, SeedSequence or Generator, default None
        Source of the samples when a call passes no ``rng`` (keyword only). An int
        or ``SeedSequence`` gives the same samples on every call; a Generator
        advances, and None draws fresh entropy.

    Notes
    -----
    Sample b is row b of one ``(n_bootstrap, n)`` draw of indices, uniform on
    ``0 .. n-1``, so the first B samples of a splitter with more samples equal
    the samples of a splitter with ``n_bootstrap = B`` and the same ``rng``.
    An instance is out of bag with probability (1 - 1/n)^n, about e^-1 = 0.368.
    A sample may leave no instance out of bag (likely only for tiny n): its test
    set is then empty, and :meth:`split` yields an empty test index.

    Examples
    --------
    >>> boot = Bootstrap632(n_bootstrap=3)
    >>> counts = boot.counts(8, rng=0)
    >>> counts.shape, counts.sum(axis=1).tolist()
    ((3, 8), [8, 8, 8])
    >>> bool(np.all(boot.test_masks(np.zeros(8), rng=0) == (counts == 0)))
    True
    >>> train, test = next(boot.split(np.zeros((8, 1)), rng=0))
    >>> len(train), bool(np.isin(test, train).any())
    (8, False)
    """

    n_bootstrap: int = 50
    random_state: object = field(default=None, kw_only=True)

    #: Out-of-bag sets are not stratified (``split`` needs no ``y``).
    stratified = False

    def __post_init__(self):
        check_int("n_bootstrap", self.n_bootstrap, min_value=1)
        _check_random_state(self.random_state)

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        """Number of bootstrap samples, ``n_bootstrap`` (the arguments are ignored)."""
        return self.n_bootstrap

    def indices(self, n: int, rng=None) -> np.ndarray:
        """The draws of every sample: ``(n_bootstrap, n)`` int64 indices in ``0 .. n-1``.

        Raises
        ------
        ValueError
            If ``n`` is not an integer >= 1.
        """
        n = check_int("n", n, min_value=1)
        check_memory_estimate([(32.0 * self.n_bootstrap * n, "n_bootstrap", self.n_bootstrap,
                                1)], what=f"the bootstrap samples of {n:,} instances")
        rng = np.random.default_rng(self.random_state if rng is None else
                                    check_random_state("rng", rng, generator=True))
        return rng.integers(0, n, size=(self.n_bootstrap, n), dtype=np.int64)

    def counts(self, n: int, rng=None) -> np.ndarray:
        """How often each sample drew each instance: ``(n_bootstrap, n)`` int64, rows sum to n."""
        idx = self.indices(n, rng)
        offset = n * np.arange(self.n_bootstrap, dtype=np.int64)[:, None]
        return np.bincount((idx + offset).ravel(),
                           minlength=self.n_bootstrap * n).reshape(self.n_bootstrap, n)

    def test_masks(self, y, rng=None) -> np.ndarray:
        """Out-of-bag masks ``(n_bootstrap, n)``: True where a sample never drew the instance.

        ``y`` is used only for its length (any 1-D array of n >= 1 values).
        """
        y = np.asarray(y)
        if y.ndim != 1 or y.size < 1:
            raise ValueError(f"`y` must be a 1-D array of at least 1 value; got shape {y.shape}.")
        return self.counts(y.size, rng) == 0

    def split(self, X, y=None, groups=None, *, rng=None):
        """Yield ``(train_index, test_index)``: n sorted draws with repeats, the out-of-bag rest.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            Only its number of rows is used.
        y, groups : optional
            Ignored (present for scikit-learn's splitter protocol).
        rng : None, int, SeedSequence or Generator, optional
            Source of the samples; when None the splitter's ``random_state``.

        Yields
        ------
        train_index : ndarray of int64, shape (n_samples,)
            Sample b's draws, sorted; an instance drawn k times appears k times.
        test_index : ndarray of int64
            The instances sample b never drew, in increasing order.
        """
        n = int(getattr(X, "shape", (len(X),))[0])
        for row in self.indices(n, rng):
            drawn = np.sort(row)
            yield drawn, np.setdiff1d(np.arange(n), drawn, assume_unique=False)


@dataclass(frozen=True)
class BootstrapCV:
    """Cai et al.'s (2023) bootstrap of the cv estimate: B bootstrap samples x C cv splits.

    The design behind :func:`calibsim.stats.bootstrap_cv_test`. Row 0 holds C random
    train/test splits of the data as they are, each training on m = ``round(
    train_fraction * n)`` instances and testing on the other n - m: the cv estimate's
    own splits. Rows 1 .. B each hold one bootstrap sample (n draws with replacement,
    a multinomial draw of the n instances) and C random splits of the **original**
    instances into m_adj training and n - m_adj test instances, with m_adj Cai et al.'s
    adjusted training size (:func:`calibsim.stats.bootstrap_cv_train_size`): the model
    is trained on the copies of the training instances and scored on the copies of the
    test instances, so every copy of an instance is on the same side of a split
    (the authors' ``Boot.CV``, read, not copied; arXiv:2307.00260).

    Parameters
    ----------
    n_bootstrap : int, default 50
        Bootstrap samples B (>= 2; the authors' default is 400).
    n_splits : int, default 10
        Random splits C per bootstrap sample and of the data as they are (>= 2; the
        authors' default is 20 per bootstrap sample and 400 for the estimate).
    train_fraction : float, default 2/3
        m / n, the training share of the cv splits on the data as they are, in (0, 1).
    random_state : None, int, SeedSequence or Generator, default None
        Source of the samples and splits when a call passes no ``rng`` (keyword only).

    Notes
    -----
    Differences from the authors' code: the estimate's splits are C, not 400 (a
    larger C costs C fits per learner); a bootstrap split whose test side (or training
    side) holds no copy of any instance is drawn again from the same stream, where
    the authors leave that cell out of the random-effects fit (only possible when
    n - m_adj is tiny); splits are not stratified, as theirs.

    Randomness, in this order from one generator: the (B, n) bootstrap draws, then
    one uniform key per (row, split, instance) ranking the instances of each split
    (the m or m_adj smallest keys train), then the keys of any split drawn again.

    Examples
    --------
    >>> scheme = BootstrapCV(n_bootstrap=2, n_splits=3, train_fraction=0.5)
    >>> rows, test = scheme.resample(20, rng=0)
    >>> rows.shape, test.shape, scheme.get_n_splits()
    ((3, 20), (3, 3, 20), 9)
    >>> scheme.n_train(20), scheme.adjusted_train_size(20)
    (10, 13)
    >>> (~test[0]).sum(axis=-1).tolist(), (~test[1]).sum(axis=-1).tolist()
    ([10, 10, 10], [13, 13, 13])
    """

    n_bootstrap: int = 50
    n_splits: int = 10
    train_fraction: float = 2 / 3
    random_state: object = field(default=None, kw_only=True)

    #: Splits are drawn at random, not by class.
    stratified = False

    def __post_init__(self):
        from .._validation import check_probability
        check_int("n_bootstrap", self.n_bootstrap, min_value=2)
        check_int("n_splits", self.n_splits, min_value=2)
        check_probability("train_fraction", self.train_fraction)
        _check_random_state(self.random_state)

    @property
    def shape(self) -> tuple:
        """Shape of one data set's splits: ``(1 + n_bootstrap, n_splits)``."""
        return (1 + self.n_bootstrap, self.n_splits)

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        """Number of train/test splits, ``(1 + n_bootstrap) * n_splits`` (arguments ignored)."""
        return (1 + self.n_bootstrap) * self.n_splits

    def n_train(self, n: int) -> int:
        """m, the training size of the splits of the data as they are, for ``n`` instances.

        Raises
        ------
        ValueError
            If a side of a split would be empty.
        """
        from ._splitters import Holdout       # the same share, the same rule
        return Holdout(train_fraction=self.train_fraction).n_train(check_int("n", n,
                                                                             min_value=2))

    def adjusted_train_size(self, n: int) -> int:
        """m_adj, the training size of the bootstrap samples' splits
        (:func:`calibsim.stats.bootstrap_cv_train_size` of n and m)."""
        from ..stats import bootstrap_cv_train_size
        return bootstrap_cv_train_size(n, self.n_train(n))

    def resample(self, n: int, rng=None):
        """The rows of every data set the splits fit on, and the splits' test instances.

        Parameters
        ----------
        n : int
            Number of instances (>= 2).
        rng : None, int, SeedSequence or Generator, optional
            Source of the samples and splits; when None the scheme's ``random_state``.

        Returns
        -------
        rows : ndarray of int64, shape (1 + n_bootstrap, n)
            Row 0 is ``0 .. n-1`` (the data as they are); row b >= 1 the sorted draws of
            bootstrap sample b (an instance drawn k times appears k times).
        test : ndarray of bool, shape (1 + n_bootstrap, n_splits, n)
            ``test[b, c, i]``: original instance i is on the test side of split c of row
            b (its copies are tested; the others' copies train). The masks over a row's
            own rows, as the learners take them, are ``test[b][:, rows[b]]``.

        Raises
        ------
        ValueError
            If ``n`` or the sizes are invalid, or no split with a copy on both sides is
            found in 1000 draws (a tiny n).
        """
        n = check_int("n", n, min_value=2)
        m, m_adj = self.n_train(n), self.adjusted_train_size(n)
        B, C = self.n_bootstrap, self.n_splits
        check_memory_estimate([(9.0 * (1 + B) * C * n + 16.0 * B * n, "n_bootstrap", B, 1)],
                              what=f"the bootstrap cv splits of {n:,} instances")
        rng = np.random.default_rng(self.random_state if rng is None else
                                    check_random_state("rng", rng, generator=True))
        rows = np.empty((1 + B, n), np.int64)
        rows[0] = np.arange(n)
        rows[1:] = np.sort(rng.integers(0, n, size=(B, n), dtype=np.int64), axis=1)
        counts = np.zeros((1 + B, n), np.int64)
        counts[0] = 1
        offset = n * np.arange(B, dtype=np.int64)[:, None]
        counts[1:] = np.bincount((rows[1:] + offset).ravel(), minlength=B * n).reshape(B, n)
        sizes = np.full(1 + B, m_adj)
        sizes[0] = m
        order = np.argsort(rng.random((1 + B, C, n)), axis=-1)
        train = np.arange(n)[None, None, :] < sizes[:, None, None]
        test = np.empty((1 + B, C, n), bool)
        np.put_along_axis(test, order, ~train, axis=-1)
        for b, c in zip(*np.nonzero(~self._both_sides(test, counts))):
            for _ in range(1000):                  # redraw: a side without any copy
                test[b, c] = False
                test[b, c, np.argsort(rng.random(n))[sizes[b]:]] = True
                if self._both_sides(test[b, c][None, None], counts[b][None])[0, 0]:
                    break
            else:
                raise ValueError(f"no split of {n} instances with a copy on both sides was "
                                 "found in 1000 draws; use more instances or a "
                                 "`train_fraction` nearer 1/2.")
        return rows, test

    @staticmethod
    def _both_sides(test, counts) -> np.ndarray:
        """(rows, C) bool: the split tests at least one copy and trains on at least one."""
        on_test = (test * counts[:, None, :]).sum(axis=-1)
        return (on_test > 0) & (on_test < counts.sum(axis=-1)[:, None])

    def split(self, X, y=None, groups=None, *, rng=None):
        """Yield ``(train_index, test_index)`` into the original data, with repeats.

        Split c of row b trains on the copies of its training instances and tests on
        the copies of its test instances (row 0: the data as they are, no repeats).

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            The data; only its number of rows n is read.
        y, groups : object, optional
            Not used (scikit-learn's protocol passes them).
        rng : None, int, SeedSequence or Generator, optional
            Source of the samples and splits, as for :meth:`resample`.

        Yields
        ------
        train_index, test_index : ndarray of int64
            Sorted original indices; an instance drawn k times appears k times.
        """
        n = int(getattr(X, "shape", (len(X),))[0])
        rows, test = self.resample(n, rng)
        for b in range(rows.shape[0]):
            for c in range(self.n_splits):
                side = test[b, c][rows[b]]
                yield rows[b][~side], rows[b][side]
