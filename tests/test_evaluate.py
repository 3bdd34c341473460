"""Tests of calibsim.evaluate: per-instance correctness and McNemar counts."""

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from calibsim.evaluate import SplitScores, score_splits
from calibsim.learners import C45, NaiveBayes
from calibsim.schemes import FiveByTwoCV, Holdout, StratifiedRepeatedCV
from calibsim.sources import NullSource
from calibsim.stats import mcnemar_test, proportions_test


@pytest.fixture
def data(rng):
    """120 instances, 6 ternary attributes; the class depends on two of them (noisy),
    so C4.5 grows real trees and the two learners disagree on some instances."""
    X = rng.integers(0, 3, size=(120, 6))
    y = ((X[:, 0] + X[:, 1]) % 3 == 0).astype(np.int64)
    flip = rng.random(120) < 0.15
    y[flip] = 1 - y[flip]
    return X, y, np.full(6, 3)


def test_correctness_agrees_with_counts_and_masks(data):
    X, y, n_values = data
    masks = StratifiedRepeatedCV(n_folds=5, n_runs=3).test_masks(y, rng=1)
    res = score_splits(X, y, masks, n_values=n_values, return_correctness=True)
    assert res.correctness.shape == (2, 3, 5, 120) and res.correctness.dtype == bool
    assert_array_equal(res.correctness.sum(axis=-1), res.correct)
    assert not np.any(res.correctness & ~masks)                 # only inside test sets
    # every instance is tested once per run, so per run the masks add up to correct
    assert_array_equal(res.correctness.sum(axis=(-2, -1)), res.correct.sum(axis=-1))


def test_default_path_unchanged_by_the_flag(data):
    X, y, n_values = data
    masks = StratifiedRepeatedCV(n_folds=10, n_runs=2).test_masks(y, rng=2)
    plain = score_splits(X, y, masks, n_values=n_values)
    flagged = score_splits(X, y, masks, n_values=n_values, return_correctness=True)
    assert plain.correctness is None
    for name in ("correct", "n_test", "model_size"):
        a, b = getattr(plain, name), getattr(flagged, name)
        assert a.dtype == b.dtype == np.int64
        assert_array_equal(a, b)
    assert np.any(flagged.model_size[1] > 1)                     # real trees were grown


def test_default_path_regression_values():
    # Pinned from the kernel before per-instance correctness was added (commit c2ce09d).
    src = NullSource(n_instances=60)
    X, y = src.sample(rng=11)
    masks = StratifiedRepeatedCV(n_folds=5, n_runs=2).test_masks(y, rng=12)
    res = score_splits(X, y, masks, n_values=src.n_values, n_classes=src.n_classes)
    assert res.correct.tolist() == [[[6, 6, 4, 11, 7], [5, 5, 7, 8, 10]],
                                    [[4, 8, 6, 11, 8], [6, 10, 6, 8, 10]]]
    assert res.model_size[1].tolist() == [[9, 3, 3, 3, 3], [7, 3, 3, 3, 3]]


def test_correctness_matches_the_learner_classes(data):
    X, y, n_values = data
    masks = FiveByTwoCV().test_masks(y, rng=3)
    res = score_splits(X, y, masks, n_values=n_values, return_correctness=True)
    for run in range(5):
        for fold in range(2):
            test = masks[run, fold]
            for l, learner in enumerate((NaiveBayes(), C45())):
                pred = learner.fit(X[~test], y[~test], n_values=n_values).predict(X[test])
                expected = np.zeros(len(y), dtype=bool)
                expected[test] = pred == y[test]
                assert_array_equal(res.correctness[l, run, fold], expected)


def test_mcnemar_counts(data):
    X, y, n_values = data
    masks = Holdout(n_runs=4).test_masks(y, rng=4)
    res = score_splits(X, y, masks, n_values=n_values, return_correctness=True)
    n00, n01, n10, n11 = res.mcnemar_counts()
    for n in (n00, n01, n10, n11):
        assert n.shape == (4,) and n.dtype == np.int64
    assert_array_equal(n00 + n01 + n10 + n11, res.n_test)
    assert np.all(res.n_test == 40)
    ca, cb = res.correctness                                      # naive Bayes, C4.5
    # independent count with the masks: n00 = tested and both wrong, etc.
    assert_array_equal(n00, (masks & ~ca & ~cb).sum(-1))
    assert_array_equal(n01, (masks & ~ca & cb).sum(-1))
    assert_array_equal(n10, (masks & ca & ~cb).sum(-1))
    assert_array_equal(n11 + n10, res.correct[0])                 # A right
    assert_array_equal(n11 + n01, res.correct[1])                 # B right
    assert np.any(n01 + n10 > 0)
    # swapping A and B swaps the off-diagonal cells
    m00, m01, m10, m11 = res.mcnemar_counts(1, 0)
    assert_array_equal(m01, n10) and assert_array_equal(m10, n01)
    assert_array_equal(m00, n00) and assert_array_equal(m11, n11)
    # the counts feed the tests directly
    assert mcnemar_test(n01, n10).pvalue.shape == (4,)
    assert proportions_test(n00, n01, n10, n11).pvalue.shape == (4,)


def test_mcnemar_counts_errors(data):
    X, y, n_values = data
    masks = Holdout().test_masks(y, rng=5)
    plain = score_splits(X, y, masks, n_values=n_values)
    with pytest.raises(ValueError, match="return_correctness=True"):
        plain.mcnemar_counts()
    res = score_splits(X, y, masks, n_values=n_values, return_correctness=True)
    with pytest.raises(ValueError, match="`b` must be an integer <= 1; got 2"):
        res.mcnemar_counts(0, 2)
    with pytest.raises(ValueError, match="`a` must be an integer >= 0; got -1"):
        res.mcnemar_counts(-1, 1)
    with pytest.raises(TypeError, match="`return_correctness` must be a bool"):
        score_splits(X, y, masks, n_values=n_values, return_correctness=1)


def test_single_learner_and_flat_masks(data):
    X, y, n_values = data
    masks = Holdout(n_runs=3).test_masks(y, rng=6)[1]             # shape (n,): one split
    res = score_splits(X, y, masks, learners=("c45",), n_values=n_values,
                       return_correctness=True)
    assert isinstance(res, SplitScores)
    assert res.correctness.shape == (1, 120) and res.correct.shape == (1,)
    assert res.correctness.sum() == res.correct[0]


# --------------------------------------------------------------------------
# IB1, TAN and the voted perceptron in the engine
# --------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["ib1", "tan", "voted_perceptron"])
def test_new_learner_ids_match_the_estimators(data, name):
    from calibsim.learners import IB1, TAN, VotedPerceptron
    make = {"ib1": IB1, "tan": TAN, "voted_perceptron": VotedPerceptron}[name]
    X, y, n_values = data
    masks = StratifiedRepeatedCV(n_folds=5, n_runs=2).test_masks(y, rng=3)
    res = score_splits(X, y, masks, learners=("naive_bayes", name), n_values=n_values,
                       return_correctness=True)
    for r in range(2):
        for f in range(5):
            te = masks[r, f]
            est = make().fit(X[~te], y[~te], **({} if name == "ib1" else
                                                {"n_values": n_values}))
            right = est.predict(X[te]) == y[te]
            assert res.correct[1, r, f] == right.sum()
            assert_array_equal(res.correctness[1, r, f, te], right)
            size = est.n_perceptrons_ if name == "voted_perceptron" else 0
            assert res.model_size[1, r, f] == size


def test_new_learner_ids_leave_nb_and_c45_unchanged(data):
    X, y, n_values = data
    masks = StratifiedRepeatedCV(n_folds=10, n_runs=2).test_masks(y, rng=4)
    base = score_splits(X, y, masks, n_values=n_values)
    every = score_splits(X, y, masks, n_values=n_values,
                         learners=("tan", "naive_bayes", "ib1", "c45", "voted_perceptron"))
    assert_array_equal(every.correct[[1, 3]], base.correct)
    assert_array_equal(every.model_size[[1, 3]], base.model_size)


def test_all_pairs_on_table7_null_data():
    # Table 7 of Bouckaert (2003): 300 x 10 binary null data, 10 x 10 cv.
    from calibsim.evaluate import LEARNERS
    X, y = NullSource().sample(rng=5)
    masks = StratifiedRepeatedCV(n_folds=10, n_runs=10).test_masks(y, rng=6)
    res = score_splits(X, y, masks, learners=LEARNERS)
    assert res.correct.shape == (5, 10, 10)
    acc = res.accuracy.mean(axis=(1, 2))
    assert np.all((acc > 0.35) & (acc < 0.65))        # no learner beats chance by much


def test_voted_perceptron_needs_binary_class(data):
    X, y, n_values = data
    masks = Holdout().test_masks(y, rng=1)
    with pytest.raises(ValueError, match="'voted_perceptron', which needs a binary class"):
        score_splits(X, y, masks, learners=("voted_perceptron",), n_classes=3)


@pytest.mark.parametrize("name", ["credit-a", "labor"])
def test_general_data_scores_equal_the_estimators_fitted_per_split(name):
    """Numeric attributes and missing values: the one-call kernel (C4.5 on the data set's
    one presort, naive Bayes on copied rows) gives, split for split, the correct counts,
    tree sizes and per-instance correctness of C45 / NaiveBayes fitted on the training
    rows (null labels, so the trees grow and are pruned back)."""
    from calibsim.datasets import load_uci
    ds = load_uci(name)
    X, nv = np.asarray(ds.X, float)[:150], np.asarray(ds.n_values)
    y = np.random.default_rng(46).permutation(np.asarray(ds.y)[:150])
    masks = StratifiedRepeatedCV(n_folds=5, n_runs=2).test_masks(y, rng=3)
    res = score_splits(X, y, masks, n_values=nv, n_classes=ds.n_classes,
                       return_correctness=True)
    for r in range(2):
        for f in range(5):
            te = masks[r, f]
            for k, est in enumerate((NaiveBayes(), C45())):
                est.fit(X[~te], y[~te], n_values=nv, classes=np.arange(ds.n_classes))
                hit = est.predict(X[te]) == y[te]
                assert res.correct[k, r, f] == hit.sum()
                assert_array_equal(res.correctness[k, r, f, te], hit)
                if k == 1:
                    assert res.model_size[1, r, f] == est.tree_size_[0]


def test_general_data_takes_only_naive_bayes_and_c45():
    X = np.random.default_rng(0).normal(size=(20, 2))
    y = np.arange(20) % 2
    masks = StratifiedRepeatedCV(n_folds=2, n_runs=1).test_masks(y, rng=0)
    with pytest.raises(ValueError, match="numeric attributes or missing values"):
        score_splits(X, y, masks, learners=("ib1",), n_values=[0, 0])
