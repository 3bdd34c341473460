"""TAN and the voted perceptron on numeric attributes, against Weka 3.6.

Weka's ``BayesNet`` discretises numeric attributes with the supervised
``Discretize`` filter (Fayyad & Irani's MDL criterion) before the TAN search,
and ``VotedPerceptron`` takes them as they are. The fixture
``data/weka_tan_vp_numeric.npz`` (``scripts/weka_oracle.py --tan-vp-numeric
--write``) holds Weka's predictions and TAN trees on every shipped UCI set with
numeric attributes (10 x 10 stratified CV, the folds of ``weka_oracle_uci.npz``;
the voted perceptron on the binary-class ones) and the distributions of the
first run. Every prediction and every tree must agree.
"""


import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from calibsim.datasets import UCI_DATASETS, load_uci
from calibsim.learners import TAN, VotedPerceptron
from calibsim.learners.tan import _cut_points, _discretize, _entropy, _mdl_accepts

from _weka_folds import DATA, cv_splits  # tests/learners is on sys.path

#: Shipped data sets with numeric attributes that the Weka oracle was run on (the fixture's).
_CHECKED = {k.split("__")[0] for k in np.load(DATA / "weka_tan_vp_numeric.npz").files
            if k.endswith("__fold")}
NUMERIC = [name for name in UCI_DATASETS
           if name in _CHECKED and (load_uci(name).n_values == 0).any()]
BINARY = [name for name in NUMERIC if load_uci(name).n_classes == 2]


@pytest.fixture(scope="module")
def fixture():
    return dict(np.load(DATA / "weka_tan_vp_numeric.npz"))


def _replay(fixture, name, make, check):
    ds = load_uci(name)
    fold = fixture[f"{name}__fold"]
    pred = np.full(fold.shape, -2)
    for r, f, tr, te in cv_splits(fold):
        est = make().fit(ds.X[tr], ds.y[tr], n_values=ds.n_values,
                         classes=np.arange(ds.n_classes))
        pred[r, te] = est.predict(ds.X[te])
        check(est, r, f, ds.X[te], te)
    return pred


def test_every_numeric_uci_set_is_in_the_fixture(fixture):
    assert len(NUMERIC) == 19 and len(BINARY) == 9
    assert all(fixture[f"{name}__fold"].shape[0] == 10 for name in NUMERIC)


@pytest.mark.parametrize("name", NUMERIC)
def test_tan_on_numeric_attributes_equals_weka(fixture, name):
    def check(est, r, f, Xte, te):
        assert_array_equal(est.parent_, fixture[f"{name}__tan_parent"][r, f])
        if r == 0:       # Weka's sums in Weka's order; the last bit of exp/log may differ
            assert_allclose(est.predict_proba(Xte), fixture[f"{name}__tan_proba"][te],
                            rtol=1e-9, atol=1e-15)
    assert_array_equal(_replay(fixture, name, TAN, check), fixture[f"{name}__tan"])


@pytest.mark.parametrize("name", BINARY)
def test_voted_perceptron_on_numeric_attributes_equals_weka(fixture, name):
    def check(est, r, f, Xte, te):
        if r == 0:       # the vote is an integer: the distribution is exact
            assert_array_equal(est.predict_proba(Xte), fixture[f"{name}__vp_proba"][te])
    assert_array_equal(_replay(fixture, name, VotedPerceptron, check), fixture[f"{name}__vp"])


# --------------------------------------------------------------------------
# The MDL discretisation, against hand-worked numbers
# --------------------------------------------------------------------------

def test_entropy_in_bits():
    assert _entropy(np.array([4.0, 4.0])) == pytest.approx(1.0, abs=1e-15)
    assert _entropy(np.array([3.0, 0.0])) == 0.0
    assert _entropy(np.array([0.0, 0.0])) == 0.0


def test_mdl_criterion_by_hand():
    # N = 8, perfectly separated halves: gain 1 bit; delta = log2(3**2 - 2) - 2;
    # accepted iff 1 > (log2(7) + log2(7) - 2) / 8 (= 0.45): yes. Sides 3:1 and 1:3
    # (both classes on each side, so delta = log2(7) - (2 - 2 E(3:1))) are not.
    prior, left, right = np.array([4.0, 4.0]), np.array([4.0, 0.0]), np.array([0.0, 4.0])
    assert _mdl_accepts(prior, left, right, 8.0, 7.0)
    assert not _mdl_accepts(prior, np.array([3.0, 1.0]), np.array([1.0, 3.0]), 8.0, 7.0)
    # gain of the 3:1 / 1:3 split: 1 - 0.811 = 0.189 < (2 log2 7 - 2) / 8 = 0.452
    assert 1 - _entropy(np.array([3.0, 1.0])) < (2 * np.log2(7) - 2) / 8


def test_cut_points_and_bins():
    x = np.array([1.0, 2.0, 3.0, 4.0, 10.0, 11.0, 12.0, 13.0, np.nan])
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1, 1])
    cuts = _cut_points(x, y, 2)
    assert_array_equal(cuts, [7.0])                       # half-way between 4 and 10
    assert_array_equal(_discretize(np.array([7.0, 7.5, np.nan, -3.0]), cuts), [0, 1, np.nan, 0])
    assert _cut_points(x, np.zeros(9, np.int64), 2).size == 0   # one class: no cut


def test_tan_numeric_with_missing_values_takes_the_mode_of_the_bins():
    x = np.r_[np.linspace(0, 1, 20), np.linspace(5, 6, 30), np.nan]
    y = np.r_[np.zeros(20, int), np.ones(30, int), 0]
    tan = TAN().fit(x[:, None], y)
    assert tan.discrete_n_values_.tolist() == [2] and tan.modes_.tolist() == [1]
    assert tan.predict([[np.nan], [0.5], [5.5]]).tolist() == [1, 0, 1]


def test_voted_perceptron_fills_missing_numeric_values_with_the_mean():
    X = np.array([[1.0, 0.0], [2.0, 1.0], [np.nan, 1.0], [6.0, 0.0]])
    vp = VotedPerceptron().fit(X, [0, 1, 1, 0], n_values=[0, 2])
    assert vp.means_[0] == 3.0 and vp.modes_.tolist() == [0, 0]
    filled = np.where(np.isnan(X), 3.0, X)
    ref = VotedPerceptron().fit(filled, [0, 1, 1, 0], n_values=[0, 2])
    assert_array_equal(vp.predict_proba(X), ref.predict_proba(filled))
