"""Declared classes at ``fit``: a training set that misses a class, against Weka 3.6.

Weka's learners know every class that the ARFF header declares, also those a
training fold lacks: naive Bayes counts them in its Laplace corrections, J48's
minimum split size divides by their number, and every distribution has a
column per declared class. ``fit(..., classes=...)`` gives calibsim's
estimators the same knowledge. The fixture ``data/weka_missing_class.npz``
(``scripts/weka_oracle.py --missing-class --write``) holds Weka's predictions
and ``distributionForInstance`` on splits of shipped UCI sets whose training
set misses one or more declared classes (a class held out whole, or two
training instances of one class).
"""

import pathlib

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from calibsim.datasets import load_uci
from calibsim.learners import C45, IB1, TAN, NaiveBayes, VotedPerceptron

DATA = pathlib.Path(__file__).parent / "data"
MAKERS = dict(nb=NaiveBayes, j48=C45, ib1=IB1, tan=TAN, vp=VotedPerceptron)
SETS = ("glass", "iris", "labor", "contact-lenses", "vote", "weather.nominal", "weather.numeric")
CASES = [(name, m) for name in SETS for m in ("nb", "j48", "ib1", "tan")]
CASES += [(name, "vp") for name in ("labor", "vote", "weather.nominal", "weather.numeric")]


@pytest.fixture(scope="module")
def fixture():
    return dict(np.load(DATA / "weka_missing_class.npz"))


def _fits(fixture, name, make, **kw):
    """(estimator, test mask) per split of ``name``, fitted on the training rows."""
    ds = load_uci(name)
    for test in fixture[f"{name}__test"]:
        yield ds, make().fit(ds.X[~test], ds.y[~test], n_values=ds.n_values, **kw), test


@pytest.mark.parametrize("name, m", CASES)
def test_declared_classes_give_wekas_answers(fixture, name, m):
    n_missing = 0
    for s, (ds, est, test) in enumerate(_fits(fixture, name, MAKERS[m],
                                               classes=np.arange(load_uci(name).n_classes))):
        n_missing += int(np.sum(np.bincount(ds.y[~test], minlength=ds.n_classes) == 0))
        assert_array_equal(est.classes_, np.arange(ds.n_classes))
        assert_array_equal(est.predict(ds.X[test]), fixture[f"{name}__{m}"][s, test])
        proba = est.predict_proba(ds.X[test])
        assert proba.shape == (test.sum(), ds.n_classes)
        # NaiveBayes/TAN: Weka's sums in Weka's order; the last bit of exp/log may differ
        assert_allclose(proba, fixture[f"{name}__{m}_proba"][s, test], rtol=1e-12, atol=0)
    assert n_missing >= 1                     # every data set has a split that misses a class


def test_without_declared_classes_naive_bayes_departs_from_weka(fixture):
    # vote's split trains on democrats only: with np.unique(y) as the classes the
    # Laplace corrections count one class, not two, and most predictions change
    (ds, est, test), = _fits(fixture, "vote", NaiveBayes)
    assert est.classes_.tolist() == [0]
    assert np.sum(est.predict(ds.X[test]) != fixture["vote__nb"][0, test]) > 100


def test_declared_classes_make_j48_match_weka_on_anneal():
    # anneal declares 6 classes, one never occurs and one has 8 instances: J48's
    # minimum split size 0.1 * weight / n_classes depends on the declared count.
    d = np.load(DATA / "weka_oracle_uci.npz")
    ds = load_uci("anneal")
    fold = d["anneal__fold"]
    n_diff = {None: 0, "declared": 0}
    for r in range(3):
        for f in range(10):
            tr, te = fold[r] != f, fold[r] == f
            weka = d["anneal__j48"][r, te]
            plain = C45().fit(ds.X[tr], ds.y[tr], n_values=ds.n_values)
            declared = C45().fit(ds.X[tr], ds.y[tr], n_values=ds.n_values,
                                 classes=np.arange(ds.n_classes))
            n_diff[None] += int(np.sum(plain.predict(ds.X[te]) != weka))
            n_diff["declared"] += int(np.sum(declared.predict(ds.X[te]) != weka))
            assert declared.tree_size_ == (d["anneal__j48_size"][r, f],
                                           d["anneal__j48_leaves"][r, f])
    assert n_diff["declared"] == 0 and n_diff[None] > 0


def test_declared_order_and_string_labels():
    X = np.array([[0, 1], [0, 0], [1, 1], [1, 0], [1, 1]])
    y = np.array(["no", "no", "yes", "yes", "yes"])
    nb = NaiveBayes().fit(X, y, classes=["yes", "maybe", "no"])
    assert nb.classes_.tolist() == ["yes", "maybe", "no"]
    ref = NaiveBayes().fit(X, y, classes=["maybe", "no", "yes"])
    assert_allclose(nb.predict_proba(X), ref.predict_proba(X)[:, [2, 0, 1]], rtol=1e-14)
    assert_array_equal(nb.predict(X), ref.predict(X))
    # (N_c + 1) / (N + C): the declared, never seen class takes its share of the prior
    assert_allclose(nb.class_prior_, [4 / 8, 1 / 8, 3 / 8])


def test_two_declared_classes_one_seen_voted_perceptron():
    vp = VotedPerceptron().fit([[0], [1], [1]], [1, 1, 1], classes=[0, 1])
    assert vp.classes_.tolist() == [0, 1] and vp.predict_proba([[0]]).shape == (1, 2)
    with pytest.raises(ValueError, match="exactly two classes in `y`; got 1 class "):
        VotedPerceptron().fit([[0], [1]], [1, 1])


@pytest.mark.parametrize("make", list(MAKERS.values()))
@pytest.mark.parametrize("classes, match", [
    ([0, 1, 1], "`classes` must hold distinct labels"),
    ([[0, 1]], "`classes` must be a 1-D array"),
    ([], "`classes` must be a 1-D array"),
    ([0, 2], r"`y` must hold only labels declared in `classes`; got 1, not in \[0, 2\]"),
    (["a", "b"], "`y` must hold only labels declared in `classes`"),
])
def test_bad_classes(make, classes, match):
    with pytest.raises(ValueError, match=match):
        make().fit([[0], [1], [1]], [0, 1, 1], classes=classes)


def test_voted_perceptron_needs_two_declared_classes():
    with pytest.raises(ValueError, match=r"exactly two classes in `classes`; got 3"):
        VotedPerceptron().fit([[0], [1]], [0, 1], classes=[0, 1, 2])
