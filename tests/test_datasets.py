"""Tests of calibsim.datasets: ARFF reading, shipped UCI files, conversions."""

import io
import pathlib

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from calibsim.datasets import Dataset, UCI_DATASETS, from_arrays, from_sklearn, load_arff, load_uci

TOY = """% a comment
@relation toy
@attribute size numeric
@attribute colour {red, green, 'light blue'}
@attribute class {yes, no}
@data
1.5, red, yes
?, 'light blue', no
-2e-3, ?, yes
"""


def _arff(text):
    return io.StringIO(text)


def test_load_arff_toy():
    ds = load_arff(_arff(TOY))
    assert isinstance(ds, Dataset) and ds.name == "toy"
    assert_array_equal(ds.X, [[1.5, 0.0], [np.nan, 2.0], [-0.002, np.nan]])
    assert_array_equal(ds.y, [0, 1, 0])
    assert_array_equal(ds.n_values, [0, 3])
    assert ds.attribute_names == ("size", "colour")
    assert ds.value_labels == (None, ("red", "green", "light blue"))
    assert ds.class_name == "class" and ds.class_values == ("yes", "no")
    assert ds.X.dtype == np.float64 and ds.y.dtype == np.int64 and ds.X.flags.c_contiguous
    assert ds.has_missing and ds.is_numeric.tolist() == [True, False]


def test_load_arff_from_path_and_class_attribute(tmp_path):
    path = tmp_path / "toy.arff"
    path.write_text(TOY.replace("-2e-3, ?, yes", "-2e-3, green, yes"))
    by_name = load_arff(path, class_attribute="colour")
    by_index = load_arff(str(path), class_attribute=1)
    for ds in (by_name, by_index):
        assert ds.class_name == "colour" and ds.attribute_names == ("size", "class")
        assert_array_equal(ds.n_values, [0, 2])
    # a missing class value is rejected
    with pytest.raises(ValueError, match=r"the class value of instance 2 of .* is missing"):
        load_arff(_arff(TOY), class_attribute=-2)


@pytest.mark.parametrize("text, kwargs, match", [
    ("@relation r\n@attribute a numeric\n@data\n1,2\n", {}, r"could not parse '<stream>' as ARFF"),
    ("this is not arff", {}, r"could not parse .* as ARFF"),
    (TOY, {"class_attribute": "colour2"}, r"`class_attribute` 'colour2' is not an attribute"),
    (TOY, {"class_attribute": 5}, r"`class_attribute` index 5 is out of range"),
    (TOY, {"class_attribute": "size"}, r"the class attribute 'size' .* numeric \(regression\) "
                                       r"target and must not hold missing values; missing: 1 of 3"),
    ("@relation r\n@attribute s string\n@attribute c {a,b}\n@data\nx,a\n", {},
     r"attribute 's' .* has type 'STRING'; only nominal and numeric"),
    ("@relation empty\n@attribute a numeric\n@attribute c {a,b}\n@data\n", {},
     r"data set 'empty' in '<stream>' is empty"),
    ("@relation r\n@attribute c {a,b}\n@data\na\n", {}, r"has no attributes besides the class"),
])
def test_load_arff_errors(text, kwargs, match):
    with pytest.raises(ValueError, match=match):
        load_arff(_arff(text), **kwargs)


EXPECTED = {  # name: (instances, attributes, numeric, classes, has missing)
    "breast-cancer": (286, 9, 0, 2, True), "contact-lenses": (24, 4, 0, 3, False),
    "credit-g": (1000, 20, 7, 2, False), "diabetes": (768, 8, 8, 2, False),
    "glass": (214, 9, 9, 7, False), "ionosphere": (351, 34, 34, 2, False),
    "iris": (150, 4, 4, 3, False), "labor": (57, 16, 8, 2, True),
    "soybean": (683, 35, 0, 19, True), "vote": (435, 16, 0, 2, True),
    "weather.nominal": (14, 4, 0, 2, False), "weather.numeric": (14, 4, 2, 2, False),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_load_uci(name):
    ds = load_uci(name)
    n, a, n_num, n_cls, missing = EXPECTED[name]
    assert ds.name == name
    assert ds.X.shape == (n, a) and ds.y.shape == (n,)
    assert int(ds.is_numeric.sum()) == n_num and ds.n_classes == n_cls
    assert ds.has_missing == missing


def test_shipped_files_are_small_and_attributed():
    root = pathlib.Path(__file__).resolve().parents[1] / "calibsim" / "data" / "uci"
    files = sorted([*root.glob("*.arff"), *root.glob("*.arff.gz")])
    assert sorted(f.name.split(".arff")[0] for f in files) == sorted(UCI_DATASETS)
    assert sum(f.stat().st_size for f in files) < 8_000_000   # shapes of all: test_uci_datasets.py
    assert "UCI Machine Learning Repository" in (root / "README.md").read_text()


def test_load_uci_unknown_name():
    with pytest.raises(ValueError, match=r"`name` must be one of .*; got 'nursery'"):
        load_uci("nursery")


def test_dataset_is_read_only_and_nominal_codes():
    ds = load_uci("weather.nominal")
    with pytest.raises(ValueError, match="read-only"):
        ds.X[0, 0] = 1.0
    codes = ds.nominal_codes()
    assert codes.dtype == np.int64 and np.array_equal(codes, ds.X)
    with pytest.raises(ValueError, match=r"'iris' has numeric attributes or missing values"):
        load_uci("iris").nominal_codes()
    assert "weather.nominal" in repr(ds) and "4 nominal" in repr(ds)


def test_from_sklearn():
    from sklearn.datasets import load_iris, load_wine
    ds = from_sklearn(load_iris(), name="iris")
    ref = load_uci("iris")
    assert ds.X.shape == ref.X.shape and (ds.n_values == 0).all()
    assert ds.class_values == ("setosa", "versicolor", "virginica")
    assert ds.attribute_names[0] == "sepal length (cm)"
    assert_array_equal(np.bincount(ds.y), [50, 50, 50])
    frame = from_sklearn(load_wine(as_frame=True))
    assert frame.name == "sklearn" and frame.X.shape == (178, 13) and frame.n_classes == 3


def test_from_sklearn_errors():
    from sklearn.utils import Bunch
    with pytest.raises(ValueError, match=r"one `bunch.target` value per row"):
        from_sklearn(Bunch(data=np.zeros((3, 2)), target=np.zeros(2)))
    with pytest.raises(ValueError, match=r"must not hold missing \(NaN\) class values"):
        from_sklearn(Bunch(data=np.zeros((2, 2)), target=np.array([0.0, np.nan])))


def test_from_arrays_defaults_and_missing():
    ds = from_arrays(np.array([[0, 2], [1, 0]]), ["b", "a"])
    assert_array_equal(ds.n_values, [2, 3]) and ds.class_values == ("a", "b")
    assert_array_equal(ds.y, [1, 0])
    num = from_arrays([[0.5, np.nan], [1.0, 2.0]], [0, 1], attribute_names=["u", "v"])
    assert_array_equal(num.n_values, [0, 0]) and num.attribute_names == ("u", "v")
    mixed = from_arrays([[1.0, np.nan], [0.0, 3.5]], [0, 1], n_values=[2, 0])
    assert mixed.value_labels == (("0", "1"), None) and mixed.has_missing


@pytest.mark.parametrize("X, y, kwargs, match", [
    ([0.0, 1.0], [0, 1], {}, r"`X` must be a 2-D array"),
    ([["a"]], [0], {}, r"`X` must be numeric"),
    ([[0.0]], [0, 1], {}, r"`y` must be 1-D with one label per row"),
    ([[0.0], [1.0]], [0.0, np.nan], {}, r"`y` must not hold missing \(NaN\)"),
    ([[0.0], [1.0]], np.array([0, None], dtype=object), {}, r"missing \(None\)"),
    ([[0.0], [np.inf]], [0, 1], {}, r"holds an infinite value in row 1"),
    ([[0.0], [3.0]], [0, 1], {"n_values": [3]}, r"must hold codes 0..2 or NaN; got 3.0"),
    ([[0.0], [1.0]], [0, 1], {"n_values": [-1]}, r"`n_values` must be 1 non-negative integers"),
    ([[-1], [1]], [0, 1], {}, r"integer `X` must hold non-negative codes"),
    (np.zeros((0, 2)), [], {}, r"data set 'arrays' is empty"),
    ([[0.0]], [0], {"attribute_names": ["a", "b"]}, r"`attribute_names` must have 1 names"),
])
def test_from_arrays_errors(X, y, kwargs, match):
    with pytest.raises(ValueError, match=match):
        from_arrays(X, y, **kwargs)


def test_from_arrays_nan_where_missing_not_declared():
    X = np.array([[0.5, 1.0], [np.nan, 2.0]])
    with pytest.raises(ValueError, match=r"holds NaN \(row 1, column 0\) but missing values are "
                                         r"not declared"):
        from_arrays(X, [0, 1], allow_missing=False)
    assert from_arrays(X, [0, 1]).has_missing          # the default declares NaN as missing


def test_from_sklearn_with_array_feature_names():
    # load_breast_cancer gives feature_names as a numpy array (not a list)
    from sklearn.datasets import load_breast_cancer
    ds = from_sklearn(load_breast_cancer())
    assert ds.X.shape == (569, 30) and ds.attribute_names[0] == "mean radius"
