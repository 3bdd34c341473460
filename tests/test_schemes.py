import numpy as np
import pytest

from calibsim.schemes import RandomSubsampling, RepeatedStratifiedKFold


def test_folds_partition_every_run(rng):
    y = rng.integers(0, 2, 300)
    masks = RepeatedStratifiedKFold(n_folds=10, n_runs=5).test_masks(y, rng=1)
    assert masks.shape == (5, 10, 300)
    assert np.all(masks.sum(axis=1) == 1)          # each instance tested exactly once per run
    assert np.all(masks.sum(axis=2) == 30)


def test_stratified_class_counts_differ_by_at_most_one(rng):
    y = np.r_[np.zeros(91, int), np.ones(209, int)]
    rng.shuffle(y)
    masks = RepeatedStratifiedKFold(n_folds=10, n_runs=20).test_masks(y, rng=2)
    for c in (0, 1):
        counts = (masks & (y == c)).sum(axis=2)
        assert np.all(counts.max(axis=1) - counts.min(axis=1) <= 1)


def test_prefix_property_and_determinism():
    y = np.arange(60) % 2
    big = RepeatedStratifiedKFold(n_folds=5, n_runs=30).fold_of(y, np.random.SeedSequence(5))
    small = RepeatedStratifiedKFold(n_folds=5, n_runs=7).fold_of(y, np.random.SeedSequence(5))
    assert np.array_equal(big[:7], small)
    again = RepeatedStratifiedKFold(n_folds=5, n_runs=30).fold_of(y, np.random.SeedSequence(5))
    assert np.array_equal(big, again)
    assert not np.array_equal(big[0], big[1])      # runs use different partitions


def test_split_iterator_matches_masks():
    y = np.arange(12) % 3
    scheme = RepeatedStratifiedKFold(n_folds=3, n_runs=2)
    masks = scheme.test_masks(y, rng=3).reshape(-1, 12)
    pairs = list(scheme.split(None, y, rng=3))
    assert len(pairs) == scheme.get_n_splits() == 6
    for (train, test), mask in zip(pairs, masks):
        assert np.array_equal(test, np.flatnonzero(mask))
        assert np.array_equal(np.sort(np.r_[train, test]), np.arange(12))


def test_subsampling_sizes_and_ratio(rng):
    y = rng.integers(0, 2, 300)
    scheme = RandomSubsampling(n_runs=50, test_fraction=0.1)
    masks = scheme.test_masks(y, rng=4)
    assert masks.shape == (50, 300) and np.all(masks.sum(axis=1) == 30)
    assert scheme.test_train_ratio_for(300) == pytest.approx(1 / 9)
    prefix = RandomSubsampling(n_runs=5, test_fraction=0.1).test_masks(y, rng=4)
    assert np.array_equal(masks[:5], prefix)


def test_stratified_subsampling_keeps_class_shares():
    y = np.r_[np.zeros(100, int), np.ones(200, int)]
    masks = RandomSubsampling(n_runs=10, test_fraction=0.1, stratified=True).test_masks(y, rng=5)
    assert np.all(masks.sum(axis=1) == 30)
    assert np.all(np.abs((masks & (y == 1)).sum(axis=1) - 20) <= 1)


@pytest.mark.parametrize("make, match", [
    (lambda: RepeatedStratifiedKFold(n_folds=1), "`n_folds` must be an integer >= 2; got 1"),
    (lambda: RepeatedStratifiedKFold(n_runs=0), "`n_runs` must be an integer >= 1; got 0"),
    (lambda: RandomSubsampling(test_fraction=0.0), r"`test_fraction` must lie in \(0, 1\)"),
    (lambda: RepeatedStratifiedKFold(n_folds=5).test_masks([0, 1, 0]),
     "`y` must hold at least `n_folds` = 5 instances; got 3"),
    (lambda: RepeatedStratifiedKFold().test_masks([[0, 1]]), "`y` must be a 1-D array"),
    (lambda: RandomSubsampling(test_fraction=0.01).test_masks(np.zeros(10)),
     "leaves an empty training or test set with 10 instances"),
])
def test_bad_input(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_bad_stratified_type():
    with pytest.raises(TypeError, match="`stratified` must be a bool"):
        RandomSubsampling(stratified="yes")
