"""calibsim.preprocessing.NominalOneHot against scikit-learn's OneHotEncoder, and its errors."""

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from sklearn.base import clone
from sklearn.preprocessing import OneHotEncoder

from calibsim.datasets import load_uci
from calibsim.preprocessing import NominalOneHot


@pytest.mark.parametrize("name", ["credit-g", "car", "cmc", "flags", "iris"])
def test_equals_onehotencoder_on_complete_data(name):
    # an independent encoding: sklearn's OneHotEncoder with every declared value as a
    # category, applied column by column in place
    ds = load_uci(name)
    ours = NominalOneHot().fit_transform(ds.X, n_values=ds.n_values)
    parts = []
    for j, v in enumerate(ds.n_values.tolist()):
        col = ds.X[:, [j]]
        if v == 0:
            parts.append(col)
        else:
            enc = OneHotEncoder(categories=[np.arange(v, dtype=float)], sparse_output=False)
            parts.append(enc.fit_transform(col))
    assert_array_equal(ours, np.hstack(parts))
    assert ours.shape[1] == int(np.sum(np.where(ds.n_values > 0, ds.n_values, 1)))


def test_missing_values_stay_missing():
    ds = load_uci("colic")
    enc = NominalOneHot().fit(ds.X, n_values=ds.n_values)
    out = enc.transform(ds.X)
    k = 0
    for j, v in enumerate(ds.n_values.tolist()):
        width = max(v, 1)
        block = out[:, k:k + width]
        miss = np.isnan(ds.X[:, j])
        assert np.isnan(block[miss]).all()
        assert not np.isnan(block[~miss]).any()
        if v:                                   # exactly one indicator per known value
            assert_array_equal(block[~miss].sum(axis=1), 1.0)
        k += width
    assert k == out.shape[1] == enc.n_features_out_


def test_undeclared_values_get_columns_and_test_data_is_checked():
    X = np.array([[0.0], [0.0]])
    enc = NominalOneHot().fit(X, n_values=np.array([3]))
    assert_array_equal(enc.transform(np.array([[2.0], [1.0]])),
                       [[0.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
    with pytest.raises(ValueError, match=r"column 0 is nominal with n_values\[0\] = 3"):
        enc.transform(np.array([[3.0]]))
    with pytest.raises(ValueError, match="`X` must have 1 columns, as in `fit`; got 2"):
        enc.transform(np.zeros((1, 2)))


def test_in_a_pipeline_with_clone():
    from sklearn.impute import SimpleImputer
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    ds = load_uci("vote")
    model = clone(make_pipeline(NominalOneHot(), SimpleImputer(), KNeighborsClassifier()))
    model.fit(ds.X, ds.y, nominalonehot__n_values=ds.n_values)
    assert model[0].n_features_out_ == 32
    assert model.score(ds.X, ds.y) > 0.9


@pytest.mark.parametrize("n_values,match", [
    (None, "`n_values` is required"),
    ([2], "`n_values` must be 2 non-negative integers"),
    ([2, -1], "`n_values` must be 2 non-negative integers"),
    ([1.5, 0], "`n_values` must be 2 non-negative integers"),
    ([1, 0], r"column 0 is nominal with n_values\[0\] = 1"),
])
def test_bad_n_values(n_values, match):
    X = np.array([[0.0, 1.5], [1.0, 2.5]])
    with pytest.raises(ValueError, match=match):
        NominalOneHot().fit(X, n_values=n_values)


def test_not_fitted():
    with pytest.raises(ValueError, match="not fitted yet"):
        NominalOneHot().transform(np.zeros((1, 1)))
