"""Class probabilities from the evaluation kernels (``score_splits(..., return_proba=True)``).

Metrics other than accuracy (ROC AUC, log loss, Brier score) need each test instance's
class probabilities. The one-call kernels of :mod:`calibsim.evaluate` return them for
every split, and they must be bit for bit what each estimator of
:mod:`calibsim.learners`, fitted on the split's training rows, gives from
``predict_proba`` on its test rows -- on the nominal-codes kernel (all five learners)
and on the general kernel (numeric attributes, missing values: naive Bayes and C4.5) --
while ``correct``, ``model_size`` and ``correctness`` stay what they are without them.
"""

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from calibsim.datasets import load_uci
from calibsim.evaluate import LEARNERS, score_splits
from calibsim.learners import C45, IB1, TAN, NaiveBayes, VotedPerceptron
from calibsim.schemes import StratifiedRepeatedCV
from calibsim.sources import BANSource, NullSource, random_ban

_ESTIMATORS = {"naive_bayes": NaiveBayes, "c45": C45, "ib1": IB1, "tan": TAN,
               "voted_perceptron": VotedPerceptron}


def _j48_class(p):
    """J48's ``classifyInstance`` from a probability row: the first class whose probability
    exceeds the best so far by more than 1e-6, starting from -1 (class 0 if none)."""
    best, mx = 0, -1.0
    for c, v in enumerate(p):
        if v - mx > 1e-6:
            best, mx = c, v
    return best


def _check_against_estimators(X, y, masks, n_values, n_classes, learners):
    """The kernel's probabilities equal the estimators' split for split; the counts, sizes
    and correctness equal those of the kernel without probabilities; training rows are NaN;
    each prediction is the learner's rule applied to its probabilities."""
    kw = dict(learners=learners, n_values=n_values, n_classes=n_classes)
    got = score_splits(X, y, masks, return_proba=True, return_correctness=True, **kw)
    plain = score_splits(X, y, masks, **kw)
    counted = score_splits(X, y, masks, return_correctness=True, **kw)
    only_proba = score_splits(X, y, masks, return_proba=True, **kw)
    split_shape = masks.shape[:-1]
    n = X.shape[0]
    assert got.proba.shape == (len(learners),) + split_shape + (n, n_classes)
    assert got.proba.dtype == np.float64
    assert plain.proba is None and counted.proba is None and only_proba.correctness is None
    for res in (plain, counted, only_proba):
        for name in ("correct", "n_test", "model_size"):
            assert_array_equal(getattr(got, name), getattr(res, name))
    assert_array_equal(got.correctness, counted.correctness)
    assert_array_equal(got.proba, only_proba.proba)
    flat = masks.reshape(-1, n)
    proba = got.proba.reshape((len(learners), -1, n, n_classes))
    correctness = got.correctness.reshape((len(learners), -1, n))
    for k, name in enumerate(learners):
        for s, te in enumerate(flat):
            est = _ESTIMATORS[name]().fit(X[~te], y[~te], n_values=n_values,
                                          classes=np.arange(n_classes))
            assert_array_equal(proba[k, s, te], est.predict_proba(X[te]))
            assert np.isnan(proba[k, s, ~te]).all()
            if name == "c45":
                pred = np.array([_j48_class(p) for p in proba[k, s, te]])
            else:                                # the first largest probability
                pred = np.argmax(proba[k, s, te], axis=1)
            assert_array_equal(pred, est.predict(X[te]))
            assert_array_equal(correctness[k, s, te], pred == y[te])
    return got


# --------------------------------------------------------------------------
# Nominal codes: all five learners
# --------------------------------------------------------------------------

def test_null_data_all_learners():
    src = NullSource(n_instances=120)
    X, y = src.sample(rng=31)
    masks = StratifiedRepeatedCV(n_folds=5, n_runs=2).test_masks(y, rng=32)
    got = _check_against_estimators(X, y, masks, src.n_values, src.n_classes, LEARNERS)
    # every test row of every learner but C4.5 (whose rows are leaf frequencies) sums to 1
    test = got.proba[:, masks]
    assert np.allclose(test.sum(-1), 1.0)
    # IB1's distribution is one-hot
    assert set(np.unique(test[2])) <= {0.0, 1.0}


def test_ban_data_all_learners():
    model = random_ban(9, n_attributes=8, n_arcs=8, max_parents=2, concentration=0.5)
    src = BANSource(model, n_instances=150)
    X, y = src.sample(rng=33)
    masks = StratifiedRepeatedCV(n_folds=5, n_runs=2).test_masks(y, rng=34)
    got = _check_against_estimators(X, y, masks, src.n_values, src.n_classes, LEARNERS)
    assert np.any(got.model_size[1] > 3)              # C4.5 grew real trees


def test_three_classes_multivalued_attributes(rng):
    """Three classes, ternary attributes, a class that depends on two of them (noisy)."""
    X = rng.integers(0, 3, size=(120, 6))
    y = (X[:, 0] + X[:, 1]) % 3
    flip = rng.random(120) < 0.15
    y[flip] = rng.integers(0, 3, size=flip.sum())
    masks = StratifiedRepeatedCV(n_folds=5, n_runs=2).test_masks(y, rng=35)
    learners = ("naive_bayes", "c45", "ib1", "tan")
    got = _check_against_estimators(X, y, masks, np.full(6, 3), 3, learners)
    assert np.any(got.model_size[1] > 3)


@pytest.mark.parametrize("name,n_rows", [("car", 240), ("flare", None)])
def test_shipped_nominal_sets_with_several_classes(name, n_rows):
    """car: 4 classes; flare: 3 classes (both nominal, complete: the codes kernel)."""
    ds = load_uci(name)
    X = np.asarray(ds.X, np.int64)[:n_rows]
    y = np.asarray(ds.y)[:n_rows]
    masks = StratifiedRepeatedCV(n_folds=4, n_runs=1).test_masks(y, rng=36)
    _check_against_estimators(X, y, masks, np.asarray(ds.n_values), ds.n_classes,
                              ("naive_bayes", "c45", "ib1", "tan"))


def test_flat_masks_and_a_class_absent_from_training():
    """One flat split axis; a declared class without training instances (its column is
    the estimators' for such a class)."""
    src = NullSource(n_instances=60)
    X, y = src.sample(rng=37)
    masks = StratifiedRepeatedCV(n_folds=3, n_runs=1).test_masks(y, rng=38).reshape(-1, 60)
    got = _check_against_estimators(X, y, masks, src.n_values, 3,
                                    ("naive_bayes", "c45", "ib1", "tan"))
    assert got.proba.shape == (4, 3, 60, 3)


# --------------------------------------------------------------------------
# The general kernel: numeric attributes and missing values
# --------------------------------------------------------------------------

@pytest.mark.parametrize("name,n_rows", [("labor", None), ("credit-g", 200), ("vote", 200),
                                         ("iris", None), ("soybean", 200)])
def test_shipped_sets_on_the_general_kernel(name, n_rows):
    """labor: numeric and missing; credit-g: numeric, complete; vote: nominal with missing;
    iris: 3 classes, numeric; soybean: 19 classes, nominal with missing."""
    ds = load_uci(name)
    X = np.asarray(ds.X, float)[:n_rows]
    y = np.asarray(ds.y)[:n_rows]
    assert (np.asarray(ds.n_values) == 0).any() or np.isnan(X).any()   # the general kernel
    masks = StratifiedRepeatedCV(n_folds=3, n_runs=2).test_masks(y, rng=39)
    _check_against_estimators(X, y, masks, np.asarray(ds.n_values), ds.n_classes,
                              ("naive_bayes", "c45"))


def test_general_null_labels_grow_and_prune_trees():
    """Permuted labels on credit-a (numeric, missing): trees grow and are pruned back, and
    missing values spread instances over branches (C4.5 rows may sum to less than 1)."""
    ds = load_uci("credit-a")
    X, nv = np.asarray(ds.X, float)[:150], np.asarray(ds.n_values)
    y = np.random.default_rng(46).permutation(np.asarray(ds.y)[:150])
    masks = StratifiedRepeatedCV(n_folds=5, n_runs=2).test_masks(y, rng=3)
    got = _check_against_estimators(X, y, masks, nv, ds.n_classes, ("c45", "naive_bayes"))
    assert np.any(got.model_size[0] > 1)


# --------------------------------------------------------------------------
# Arguments and the engine
# --------------------------------------------------------------------------

def test_return_proba_must_be_a_bool():
    X, y = NullSource(n_instances=20).sample(rng=0)
    masks = StratifiedRepeatedCV(n_folds=2, n_runs=1).test_masks(y, rng=0)
    with pytest.raises(TypeError, match="`return_proba` must be a bool; got 1"):
        score_splits(X, y, masks, return_proba=1)


def test_score_fast_passes_the_probabilities_through():
    from calibsim.engine.learners import score_fast
    from calibsim.engine.learners import LearnerSpec
    src = NullSource(n_instances=80)
    X, y = src.sample(rng=40)
    masks = StratifiedRepeatedCV(n_folds=4, n_runs=2).test_masks(y, rng=41)
    learners = [LearnerSpec("nb", "naive_bayes"), LearnerSpec("j48", "c45"),
                LearnerSpec("tan", "tan")]
    kw = dict(n_values=src.n_values, n_classes=2)
    out = score_fast(X, y, masks, learners, return_proba=True, **kw)
    ref = score_splits(X, y, masks, learners=("naive_bayes", "c45", "tan"),
                       return_proba=True, **kw)
    assert out["proba"].shape == (3, 2, 4, 80, 2)
    assert_array_equal(out["proba"], ref.proba)
    assert_array_equal(out["correct"], ref.correct)
    assert "proba" not in score_fast(X, y, masks, learners, **kw)
    timed = score_fast(X, y, masks, learners, return_proba=True, costs=True, **kw)
    assert_array_equal(timed["proba"], ref.proba)
    assert_array_equal(timed["correct"], ref.correct)
    # C4.5 at two confidences: one kernel call per option set, put back in order
    two = [LearnerSpec("j48", "c45"), LearnerSpec("j48c", "c45", params=(("confidence", 0.1),))]
    both = score_fast(X, y, masks, two, return_proba=True, **kw)
    low = score_splits(X, y, masks, learners=("c45",), return_proba=True, c45_confidence=0.1,
                       **kw)
    assert_array_equal(both["proba"][0], ref.proba[1])
    assert_array_equal(both["proba"][1], low.proba[0])
