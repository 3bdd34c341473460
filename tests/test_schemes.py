import numpy as np
import pytest

from calibsim.schemes import FiveByTwoCV, Holdout, RandomSubsampling, StratifiedRepeatedCV


def test_folds_partition_every_run(rng):
    y = rng.integers(0, 2, 300)
    masks = StratifiedRepeatedCV(n_folds=10, n_runs=5).test_masks(y, rng=1)
    assert masks.shape == (5, 10, 300)
    assert np.all(masks.sum(axis=1) == 1)          # each instance tested exactly once per run
    assert np.all(masks.sum(axis=2) == 30)


def test_stratified_class_counts_differ_by_at_most_one(rng):
    y = np.r_[np.zeros(91, int), np.ones(209, int)]
    rng.shuffle(y)
    masks = StratifiedRepeatedCV(n_folds=10, n_runs=20).test_masks(y, rng=2)
    for c in (0, 1):
        counts = (masks & (y == c)).sum(axis=2)
        assert np.all(counts.max(axis=1) - counts.min(axis=1) <= 1)


def test_prefix_property_and_determinism():
    y = np.arange(60) % 2
    big = StratifiedRepeatedCV(n_folds=5, n_runs=30).fold_of(y, np.random.SeedSequence(5))
    small = StratifiedRepeatedCV(n_folds=5, n_runs=7).fold_of(y, np.random.SeedSequence(5))
    assert np.array_equal(big[:7], small)
    again = StratifiedRepeatedCV(n_folds=5, n_runs=30).fold_of(y, np.random.SeedSequence(5))
    assert np.array_equal(big, again)
    assert not np.array_equal(big[0], big[1])      # runs use different partitions


def test_split_iterator_matches_masks():
    y = np.arange(12) % 3
    scheme = StratifiedRepeatedCV(n_folds=3, n_runs=2)
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
    (lambda: StratifiedRepeatedCV(n_folds=1), "`n_folds` must be an integer >= 2; got 1"),
    (lambda: StratifiedRepeatedCV(n_runs=0), "`n_runs` must be an integer >= 1; got 0"),
    (lambda: RandomSubsampling(test_fraction=0.0), r"`test_fraction` must lie in \(0, 1\)"),
    (lambda: StratifiedRepeatedCV(n_folds=5).test_masks([0, 1, 0]),
     "`y` must hold at least `n_folds` = 5 instances; got 3"),
    (lambda: StratifiedRepeatedCV().test_masks([[0, 1]]), "`y` must be a 1-D array"),
    (lambda: RandomSubsampling(test_fraction=0.01).test_masks(np.zeros(10)),
     "leaves an empty training or test set with 10 instances"),
    (lambda: Holdout(train_fraction=1.0), r"`train_fraction` must lie in \(0, 1\); got 1.0"),
    (lambda: Holdout(train_fraction=-0.5), r"`train_fraction` must lie in \(0, 1\)"),
    (lambda: Holdout(n_runs=0), "`n_runs` must be an integer >= 1; got 0"),
    (lambda: Holdout(train_fraction=0.99).test_masks(np.zeros(10)),
     "`train_fraction` = 0.99 leaves an empty training or test set with 10 instances"),
    (lambda: Holdout(train_fraction=0.01).n_train(10),
     "leaves an empty training or test set with 10 instances"),
    (lambda: Holdout().test_masks(np.zeros((3, 3))), "`y` must be a 1-D array"),
])
def test_bad_input(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_bad_stratified_type():
    with pytest.raises(TypeError, match="`stratified` must be a bool"):
        RandomSubsampling(stratified="yes")


# ---------------------------------------------------------------------------
# Holdout (Dietterich 1998: 2/3 training, 1/3 test) and FiveByTwoCV
# ---------------------------------------------------------------------------

def test_holdout_sizes(rng):
    y = rng.integers(0, 2, 300)
    scheme = Holdout()
    masks = scheme.test_masks(y, rng=1)
    assert masks.shape == (1, 300) and masks.dtype == bool
    assert masks.sum() == 100 == scheme.n_test(300)           # 200 train / 100 test
    assert scheme.n_train(300) == 200 and scheme.get_n_splits() == 1
    assert scheme.test_train_ratio_for(300) == 0.5
    many = Holdout(train_fraction=0.9, n_runs=30).test_masks(y, rng=2)
    assert many.shape == (30, 300) and np.all(many.sum(axis=1) == 30)
    # n_train = round(f n): 0.7 * 11 = 7.7 -> 8 training, 3 test instances
    assert Holdout(train_fraction=0.7).test_masks(np.zeros(11), rng=0).sum() == 3


def test_holdout_prefix_and_determinism(rng):
    y = rng.integers(0, 3, 90)
    big = Holdout(n_runs=30).test_masks(y, np.random.SeedSequence(8))
    small = Holdout(n_runs=4).test_masks(y, np.random.SeedSequence(8))
    assert np.array_equal(big[:4], small)
    assert np.array_equal(big, Holdout(n_runs=30).test_masks(y, np.random.SeedSequence(8)))
    assert not np.array_equal(big[0], big[1])
    assert not np.array_equal(big[0], Holdout().test_masks(y, np.random.SeedSequence(9))[0])
    # same splits as random subsampling with the same test-set size and rng
    assert np.array_equal(big, RandomSubsampling(n_runs=30, test_fraction=1 / 3)
                          .test_masks(y, np.random.SeedSequence(8)))


def test_holdout_stratified_keeps_class_shares():
    y = np.r_[np.zeros(90, int), np.ones(210, int)]
    masks = Holdout(n_runs=20, stratified=True).test_masks(y, rng=3)
    assert np.all(masks.sum(axis=1) == 100)
    assert np.all(np.abs((masks & (y == 0)).sum(axis=1) - 30) <= 1)
    plain = Holdout(n_runs=200).test_masks(y, rng=3)
    assert np.ptp((plain & (y == 0)).sum(axis=1)) > 2          # plain draws do vary


def test_holdout_split_iterator():
    y = np.arange(9) % 2
    scheme = Holdout(n_runs=2)
    pairs = list(scheme.split(None, y, rng=4))
    masks = scheme.test_masks(y, rng=4)
    assert len(pairs) == 2
    for (train, test), mask in zip(pairs, masks):
        assert len(train) == 6 and np.array_equal(test, np.flatnonzero(mask))
        assert np.array_equal(np.sort(np.r_[train, test]), np.arange(9))


def test_holdout_bad_stratified_type():
    with pytest.raises(TypeError, match="`stratified` must be a bool"):
        Holdout(stratified=1)


def test_five_by_two_cv():
    y = np.arange(40) % 2
    scheme = FiveByTwoCV()
    assert (scheme.n_folds, scheme.n_runs, scheme.get_n_splits()) == (2, 5, 10)
    assert scheme.test_train_ratio == 1.0
    assert isinstance(scheme, StratifiedRepeatedCV)
    masks = scheme.test_masks(y, rng=5)
    assert masks.shape == (5, 2, 40)
    assert np.array_equal(masks, StratifiedRepeatedCV(n_folds=2, n_runs=5).test_masks(y, rng=5))
    assert scheme.tests == ("cv5x2_t", "cv5x2_f")
    from calibsim.stats import TESTS
    assert all(TESTS[name].scheme == "cv5x2" for name in scheme.tests)
    with pytest.raises(TypeError):
        FiveByTwoCV(n_folds=3)


# ---------------------------------------------------------------------------
# scikit-learn's splitter protocol: split(X, y, groups), get_n_splits, random_state
# ---------------------------------------------------------------------------

SCHEMES = [
    lambda **kw: StratifiedRepeatedCV(n_folds=4, n_runs=3, **kw),
    lambda **kw: FiveByTwoCV(**kw),
    lambda **kw: RandomSubsampling(n_runs=6, test_fraction=0.25, **kw),
    lambda **kw: RandomSubsampling(n_runs=6, test_fraction=0.25, stratified=True, **kw),
    lambda **kw: Holdout(n_runs=4, **kw),
]


def test_first_folds_pinned():
    # regression pin of the stream (values from the scheme before the splitter protocol;
    # any change here breaks every stored study output)
    fold = StratifiedRepeatedCV(n_folds=3, n_runs=2).fold_of(np.arange(9) % 2, rng=0)
    assert fold.tolist() == [[0, 0, 0, 2, 1, 2, 2, 1, 1], [1, 0, 0, 1, 1, 2, 2, 2, 0]]
    mask = Holdout(n_runs=1).test_masks(np.zeros(6), rng=0)
    assert np.flatnonzero(mask[0]).tolist() == [2, 3]


@pytest.mark.parametrize("make", SCHEMES)
def test_split_follows_sklearn_protocol(make):
    y = np.arange(40) % 3
    X = np.zeros((40, 2))
    scheme = make(random_state=7)
    pairs = list(scheme.split(X, y, groups=np.arange(40)))     # groups are ignored
    assert len(pairs) == scheme.get_n_splits(X, y, None) == scheme.get_n_splits()
    masks = make().test_masks(y, 7).reshape(len(pairs), 40)     # random_state == rng
    for (train, test), mask in zip(pairs, masks):
        assert train.dtype.kind == test.dtype.kind == "i"
        assert np.array_equal(test, np.flatnonzero(mask))
        assert np.array_equal(train, np.flatnonzero(~mask))
    again = list(scheme.split(X, y))                             # an int seed repeats
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(pairs, again))
    other = list(scheme.split(X, y, rng=8))                      # `rng` overrides random_state
    assert np.array_equal(other[0][1], np.flatnonzero(make().test_masks(y, 8).reshape(-1, 40)[0]))


@pytest.mark.parametrize("make", SCHEMES)
def test_generator_random_state_advances(make):
    y = np.arange(30) % 2
    scheme = make(random_state=np.random.default_rng(3))
    first, second = (list(scheme.split(None, y)) for _ in range(2))
    assert any(not np.array_equal(a[1], b[1]) for a, b in zip(first, second))
    seq = make(random_state=np.random.SeedSequence(3))
    assert np.array_equal(seq.test_masks(y), seq.test_masks(y))


def test_unstratified_split_needs_only_X():
    pairs = list(Holdout(n_runs=2, random_state=0).split(np.zeros((9, 1))))
    assert [len(te) for _, te in pairs] == [3, 3]
    assert np.array_equal(pairs[0][1], np.flatnonzero(Holdout(n_runs=2).test_masks(np.zeros(9),
                                                                                  rng=0)[0]))


@pytest.mark.parametrize("call, exc, match", [
    (lambda: next(StratifiedRepeatedCV().split(np.zeros((20, 1)))), ValueError,
     "`y` is required: StratifiedRepeatedCV stratifies by class"),
    (lambda: next(Holdout(stratified=True).split(np.zeros((20, 1)))), ValueError,
     "`y` is required: Holdout stratifies"),
    (lambda: next(Holdout().split(None)), ValueError, "`X` or `y` must be given"),
    (lambda: next(FiveByTwoCV().split(np.zeros((5, 1)), np.arange(6) % 2)), ValueError,
     "`X` and `y` must have the same number of rows; got 5 and 6"),
    (lambda: StratifiedRepeatedCV(random_state=np.random.RandomState(0)), TypeError,
     "`random_state` must be None, a non-negative int, a numpy SeedSequence or Generator"),
    (lambda: Holdout(random_state=-1), ValueError, "`random_state` must be None"),
    (lambda: RandomSubsampling(random_state=1.5), TypeError, "`random_state` must be None"),
])
def test_split_bad_input(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_cross_val_score_and_grid_search_take_the_schemes():
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GridSearchCV, cross_val_score

    from calibsim.learners import C45, NaiveBayes
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 120)
    X = (rng.random((120, 4)) < np.where(y[:, None] == 1, 0.75, 0.35)).astype(np.int64)
    cv = StratifiedRepeatedCV(n_folds=5, n_runs=2, random_state=11)
    scores = cross_val_score(NaiveBayes(), X, y, cv=cv)
    by_hand = [NaiveBayes().fit(X[tr], y[tr]).score(X[te], y[te]) for tr, te in cv.split(X, y)]
    assert scores.shape == (10,) and np.array_equal(scores, by_hand)
    assert cross_val_score(LogisticRegression(), X, y, cv=FiveByTwoCV(random_state=1)).shape == (10,)
    for scheme in (RandomSubsampling(n_runs=4, random_state=2), Holdout(n_runs=3, random_state=2)):
        assert cross_val_score(C45(), X, y, cv=scheme).shape == (scheme.get_n_splits(),)
    search = GridSearchCV(C45(), {"min_obj": [2, 10]}, cv=cv).fit(X, y)
    assert search.cv_results_["split9_test_score"].shape == (2,)
    assert search.best_params_["min_obj"] in (2, 10)


def test_repeated_kfold_unstratified():
    from calibsim.engine._specs import SCHEME_KINDS
    from calibsim.schemes import RepeatedCV
    assert "stratified" in SCHEME_KINDS["repeated_kfold"]    # a study file can ask for it
    y = np.repeat([0, 1], [30, 10])
    plain = RepeatedCV(n_folds=10, n_runs=50).test_masks(y, rng=3)
    strat = StratifiedRepeatedCV(n_folds=10, n_runs=50).test_masks(y, rng=3)
    assert (plain.sum(axis=-1) == 4).all() and (strat.sum(axis=-1) == 4).all()
    per_fold = (plain & (y == 1)).sum(axis=-1)           # class-1 instances per test fold
    assert (((strat & (y == 1)).sum(axis=-1)) == 1).all()  # stratified: always 1 of 4
    assert per_fold.min() == 0 and per_fold.max() >= 3     # plain: varies by chance
    first = RepeatedCV(n_folds=10, n_runs=5).test_masks(y, rng=3)
    np.testing.assert_array_equal(first, plain[:5])        # runs are prefix-consistent
    with pytest.raises(ValueError, match="at least `n_folds`"):
        RepeatedCV(n_folds=10).test_masks(y[:5], rng=0)


def test_nested_cv_splits_and_layout():
    from calibsim.schemes import NestedCV
    y = np.repeat([0, 1], 9)
    scheme = NestedCV(n_folds=3, n_runs=2, random_state=4)
    masks = scheme.test_masks(y)
    assert masks.shape == (2, 6, 18) and scheme.get_n_splits() == 12
    # the outer splits are StratifiedRepeatedCV's folds with the same seed
    np.testing.assert_array_equal(
        masks[:, :3], StratifiedRepeatedCV(n_folds=3, n_runs=2, random_state=4).test_masks(y))
    for p, (a, b) in enumerate(scheme.pairs):                # pair splits test two folds
        np.testing.assert_array_equal(masks[:, 3 + p], masks[:, a] | masks[:, b])
    splits = list(scheme.split(np.zeros((18, 1)), y))
    assert len(splits) == 12 and all(len(tr) + len(te) == 18 for tr, te in splits)
    # layout: split s's value of instance i lands at (k, j) with i in fold j
    values = np.arange(12)[:, None] * 100.0 + np.arange(18)   # (split, instance) -> id
    lay = scheme.nested_layout(values.reshape(2, 6, 18), masks)
    fold = scheme.fold_of(y)
    i = int(np.flatnonzero(fold[1] == 2)[0])
    assert lay[1, 2, 2, i] == (6 + 2) * 100 + i                # outer split 2 of run 1
    assert lay[1, 0, 2, i] == (6 + 3 + 1) * 100 + i            # pair (0, 2) = split 3 + 1
    assert np.isnan(lay[1, 0, 1, i])                           # i is not in fold 1
    with pytest.raises(ValueError, match="n_folds"):
        NestedCV(n_folds=2)
