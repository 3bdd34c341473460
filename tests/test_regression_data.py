"""Regression data in calibsim's encoding: a numeric target from ARFF, CSV, scikit-learn and
the shipped sets, and DatasetSource on them."""

import io
import pathlib

import numpy as np
import pytest

from calibsim.datasets import (REGRESSION_DATASETS, UCI_DATASETS, from_sklearn, load_arff,
                               load_csv, load_uci)
from calibsim.sources import DatasetSource

ROOT = pathlib.Path(__file__).resolve().parents[1] / "calibsim" / "data"

#: name: (instances, attributes, nominal, target name, missing values, target min, max)
SHIPPED = {"cpu": (209, 6, 0, "class", 0, 6.0, 1150.0),
           "servo": (167, 4, 2, "class", 0, 0.13124992, 7.1001077),
           "auto-mpg": (398, 7, 1, "mpg", 6, 9.0, 46.6)}


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_shipped_regression_sets(name):
    n, a, nominal, target, missing, lo, hi = SHIPPED[name]
    ds = load_uci(name)
    assert ds.is_regression and ds.task == "regression" and ds.n_classes == 0
    assert ds.class_values == () and ds.class_name == target
    assert ds.X.shape == (n, a) and ds.y.shape == (n,) and ds.y.dtype == np.float64
    assert int((ds.n_values > 0).sum()) == nominal and int(np.isnan(ds.X).sum()) == missing
    assert np.isfinite(ds.y).all() and ds.y.min() == lo and ds.y.max() == hi
    assert repr(ds).endswith(f"target {target!r} (numeric), missing={missing})")
    head = (ROOT / "regression" / f"{name}.arff").read_text().splitlines()[:8]
    for field in ("% Source:", "% Licence:", "% Shape:", "% Difference:"):
        assert any(line.startswith(field) for line in head), (name, field)


def test_the_regression_sets_are_listed_apart_and_documented():
    files = sorted(p.stem for p in (ROOT / "regression").glob("*.arff"))
    assert files == sorted(REGRESSION_DATASETS)
    assert not set(REGRESSION_DATASETS) & set(UCI_DATASETS)
    readme = (ROOT / "uci" / "README.md").read_text()
    assert "## Regression data sets" in readme
    assert all(f"| {name} |" in readme for name in REGRESSION_DATASETS)


def test_servo_target_is_uci_rise_time_not_ranks():
    y = load_uci("servo").y
    assert y[:2].tolist() == [0.28125095, 0.5062525] and np.unique(y).size == 51


def test_classification_sets_are_unchanged():
    ds = load_uci("iris")
    assert not ds.is_regression and ds.task == "classification" and ds.y.dtype == np.int64
    assert repr(ds) == ("Dataset(name='iris', n_instances=150, n_attributes=4 (0 nominal, "
                        "4 numeric), n_classes=3, missing=0)")


ARFF = """@relation r
@attribute a numeric
@attribute c {x, y}
@attribute t {kind}
@data
1, x, 2.5
2, y, -1
3, ?, 0
"""


@pytest.mark.parametrize("kind", ["numeric", "real", "integer", "NUMERIC"])
def test_arff_numeric_class_is_a_regression_set(kind):
    ds = load_arff(io.StringIO(ARFF.replace("{kind}", kind)))
    # liac-arff reads an `integer` value as int(2.5) = 2 (attributes likewise)
    assert ds.is_regression and ds.y.tolist() == [2 if kind == "integer" else 2.5, -1.0, 0.0]
    assert ds.n_values.tolist() == [0, 2] and ds.has_missing
    nominal = load_arff(io.StringIO(ARFF.replace("{kind}", "{2.5, -1, 0}")))
    assert not nominal.is_regression and nominal.y.tolist() == [0, 1, 2]


def test_arff_numeric_class_with_missing_values_is_refused_with_the_count():
    text = ARFF.replace("{kind}", "numeric").replace("2, y, -1", "2, y, ?").replace(
        "3, ?, 0", "3, ?, ?")
    with pytest.raises(ValueError, match=r"class attribute 't' of '<stream>' is a numeric "
                                         r"\(regression\) target .* missing: 2 of 3 \(the "
                                         r"first in row 1\)"):
        load_arff(io.StringIO(text))


def test_arff_string_class_is_still_refused():
    with pytest.raises(ValueError, match="must be nominal .* or numeric"):
        load_arff(io.StringIO(ARFF.replace("{kind}", "string")))


def _csv(path, text):
    path.write_text(text)
    return path


def test_csv_numeric_target_text_labels_and_class_nominal(tmp_path):
    rows = "".join(f"{i},{'ab'[i % 2]},{i * 0.5 + 0.1:.2f}\n" for i in range(40))
    p = _csv(tmp_path / "r.csv", "x,c,y\n" + rows)
    ds = load_csv(p)
    assert ds.is_regression and ds.class_name == "y" and ds.y[1] == pytest.approx(0.6)
    assert ds.n_values.tolist() == [0, 2] and ds.attribute_names == ("x", "c")
    labels = load_csv(p, class_nominal=True)
    assert not labels.is_regression and labels.n_classes == 40
    text = _csv(tmp_path / "t.csv", "x,y\n" + "".join(f"{i},v{i}\n" for i in range(40)))
    assert load_csv(text).n_classes == 40              # text is always labels
    few = _csv(tmp_path / "f.csv", "x,y\n" + "".join(f"{i},{i % 3}\n" for i in range(40)))
    assert load_csv(few).class_values == ("0", "1", "2")


def test_csv_numeric_target_with_missing_values_is_refused_with_column_and_count(tmp_path):
    rows = "".join(f"{i},{'' if i in (3, 9) else i * 1.5}\n" for i in range(40))
    p = _csv(tmp_path / "m.csv", "x,target\n" + rows)
    with pytest.raises(ValueError, match=r"class column 'target' .* must not hold missing "
                                         r"values; row 3 does \(2 of 40 rows are missing, in "
                                         r"a numeric \(regression\) target\)"):
        load_csv(p)


def test_sklearn_bunches():
    from sklearn.datasets import load_diabetes
    from sklearn.utils import Bunch
    ds = from_sklearn(load_diabetes(), name="diabetes")
    assert ds.is_regression and ds.X.shape == (442, 10) and ds.class_name == "target"
    with pytest.raises(ValueError, match=r"`bunch.target` is a numeric \(regression\) "
                                         r"target .* missing: 1 of 40"):
        from_sklearn(Bunch(data=np.zeros((40, 1)),
                           target=np.r_[np.linspace(0, 1, 39), np.nan]))


def test_dataset_source_on_regression_sets():
    src = DatasetSource(sklearn="load_diabetes")
    assert src.is_regression and src.n_classes == 0 and src.n_instances == 442
    X, y = src.sample()
    assert y.dtype == np.float64 and np.array_equal(y, src.dataset.y)
    null = DatasetSource(sklearn="load_diabetes", permute_class=True)
    X1, y1 = null.sample(np.random.SeedSequence(1))
    X2, y2 = null.sample(np.random.SeedSequence(1))
    _, y3 = null.sample(np.random.SeedSequence(2))
    assert np.array_equal(y1, y2) and not np.array_equal(y1, y3)
    assert np.array_equal(np.sort(y1), np.sort(src.dataset.y)) and (X1 == X).all()
    assert DatasetSource("servo").is_regression
    half = DatasetSource("auto-mpg", subsample=0.5)
    Xh, yh = half.sample(np.random.SeedSequence(4))
    assert Xh.shape == (199, 7) and yh.dtype == np.float64


def test_regression_identities_differ_from_classification_ones(tmp_path):
    rows = "".join(f"{i},{i * 0.5 + 0.1:.2f}\n" for i in range(40))
    p = _csv(tmp_path / "r.csv", "x,y\n" + rows)
    reg, cls = DatasetSource(path=p), DatasetSource(path=p, class_nominal=True)
    assert reg.is_regression and not cls.is_regression
    assert "task=regression" in reg.identity and "task=" not in cls.identity
    assert reg.identity != cls.identity
    assert DatasetSource("cpu").identity.startswith("dataset(name=cpu, sha256=")
    assert DatasetSource("iris").identity == "dataset(name=iris, sha256=ec791dccf153)"


@pytest.mark.parametrize("kw, key", [
    ({"name": "cpu", "permute_class": True, "balance_class": True}, "balance_class"),
    ({"name": "cpu", "positive_class": "high"}, "positive_class"),
    ({"sklearn": "load_diabetes", "balance_class": True}, "balance_class"),
])
def test_class_only_options_are_refused_for_a_regression_set(kw, key):
    with pytest.raises(ValueError) as err:
        DatasetSource(**kw)
    msg = str(err.value)
    assert len(msg.splitlines()) == 1 and f"`{key}` applies to class labels" in msg
    assert "numeric (regression) target" in msg and f"got {key}=" in msg


def test_the_cli_data_text_reaches_the_regression_loader():
    from calibsim.engine.user_data import data_source
    kw = data_source("sklearn:load_diabetes")
    assert kw == {"sklearn": "load_diabetes"} and DatasetSource(**kw).is_regression


def test_unknown_names_list_the_regression_sets_too():
    with pytest.raises(ValueError, match=r"\['cpu', 'servo', 'auto-mpg'\] \(regression\); got "
                                         r"'srvo' \(did you mean 'servo'\?\)"):
        DatasetSource("srvo")
    with pytest.raises(ValueError, match=r"\(regression\); got 'housing'"):
        load_uci("housing")
    with pytest.raises(ValueError, match=r"regression loaders \['load_diabetes'\]; got "
                                         r"'load_linnerud' \(it does not return"):
        DatasetSource(sklearn="load_linnerud")


def test_a_regression_file_may_name_a_nominal_class_instead():
    ds = load_uci("auto-mpg", class_attribute="origin")
    assert not ds.is_regression and ds.class_values == ("1", "2", "3")
    assert "mpg" in ds.attribute_names and ds.X.shape == (398, 7)
    src = DatasetSource("auto-mpg", class_attribute="origin")
    assert not src.is_regression and "task=" not in src.identity


def test_study_files_take_a_regression_dataset_source(tmp_path):
    from calibsim.engine import load_study
    path = tmp_path / "reg.toml"
    text = """
[study]
name = "reg"
seed = 3

[sources.cpu]
kind = "dataset"
name = "cpu"
permute_class = true
n_datasets = 2

[learners]
names = ["naive_bayes", "c45"]

[schemes.cv]
kind = "repeated_kfold"
n_folds = 2
n_runs = 1
"""
    path.write_text(text)
    src = load_study(path).sources[0].build()
    assert src.is_regression and "task=regression, permute_class=True" in src.identity
    path.write_text(text.replace("permute_class = true", "permute_class = true\n"
                                 "balance_class = true"))
    with pytest.raises(ValueError, match="`balance_class` applies to class labels"):
        load_study(path).sources[0].build()


def _convert_script():
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "convert_datasets", ROOT.parents[1] / "scripts" / "convert_datasets.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_converter_writes_a_regression_header_that_loads_back(tmp_path):
    conv = _convert_script()
    spec = dict(relation="toy", attributes=[("a", "NUMERIC"), ("c", ["x", "y"]),
                                            ("t", "NUMERIC")],
                data=[[1.0, "x", 2.5], [None, "y", -1.0], [3.0, "x", 0.25]],
                source="a test", licence="none", reference=("UCI documentation", (3, 2, 1)),
                differences=["none"])
    shape, n_cls, missing = conv.write_arff("toy", spec, tmp_path)
    assert shape == (3, 2, 3) and n_cls == 0 and missing == 1
    head = (tmp_path / "toy.arff").read_text().splitlines()[:5]
    assert head[0] == ("% toy: UCI regression data set (a numeric target), converted by "
                       "scripts/convert_datasets.py.")
    assert head[3] == ("% Shape: 3 instances, 2 attributes + numeric target 't' (3 distinct "
                       "values, -1 to 2.5), 1 missing values. UCI documentation: 3 instances, "
                       "2 attributes + target, 1 missing values.")
    ds = load_arff(tmp_path / "toy.arff")
    assert ds.is_regression and ds.y.tolist() == [2.5, -1.0, 0.25]
    with pytest.raises(SystemExit):
        conv.main(["--group", "regression"])           # --orange is required
