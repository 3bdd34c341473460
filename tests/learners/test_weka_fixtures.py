"""calibsim's NaiveBayes, IB1 and C4.5 against Weka 3.6's answers on fixed splits.

The fixtures ``data/weka_oracle_{null,mixed,uci}.npz`` hold Weka's predictions,
written by ``scripts/weka_oracle.py --write`` (format in that script's
docstring): 600 null data sets (300 x 10 binary attributes, class priors 0.1,
0.3, 0.5; one run of stratified 10-fold CV), 60 random data sets with nominal
and numeric attributes and 5% missing values (one run of 10-fold CV), and every
shipped UCI data set (10 x 10 CV). NaiveBayes and IB1 must agree on every test
instance, and so must C4.5 (J48): its integer kernel on all-nominal data without
missing values, its general kernel (numeric attributes, missing values) elsewhere.
The ``weka``-marked test reruns a few splits through a live Weka.
"""

import pathlib
import shutil
import subprocess

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from calibsim.datasets import UCI_DATASETS, load_uci
from calibsim.learners import IB1, NaiveBayes
from calibsim.learners._c45 import (_c45_fit, _c45_fit_general, _c45_predict,
                                            _c45_predict_general, _c45_size,
                                            _c45_size_general)
from calibsim.learners._kernels_ib1 import _ib1_predict
from calibsim.learners._kernels_nb import (_nb_fit, _nb_fit_general, _nb_predict,
                                           _nb_predict_general)

from _weka_folds import DATA, cv_splits  # tests/learners is on sys.path

REPO = pathlib.Path(__file__).resolve().parents[2]
WEKA_JAR = pathlib.Path("/usr/share/java/weka.jar")


def _replay(X, y, n_values, n_classes, fold, *, with_j48):
    """Our per-instance predictions shaped (R, n), and J48 (size, leaves) per split."""
    general = bool((n_values == 0).any() or np.isnan(X).any())
    numeric = n_values == 0
    Xf = np.ascontiguousarray(X, dtype=np.float64)
    Xi = None if general else np.ascontiguousarray(X, dtype=np.int64)
    out = {m: np.full(fold.shape, -2, np.int64) for m in ("nb", "ib1", "j48")}
    sizes = {}
    for r, f, tr, te in cv_splits(fold):
        if general:
            model = _nb_fit_general(Xf[tr], y[tr], n_values, n_classes)
            out["nb"][r, te] = _nb_predict_general(model, Xf[te])
            if with_j48:
                tree = _c45_fit_general(Xf[tr], y[tr], np.ones(tr.size), n_values, n_classes,
                                        0.25, 2)
                out["j48"][r, te] = _c45_predict_general(tree, Xf[te])
                sizes[r, f] = _c45_size_general(tree)
        else:
            out["nb"][r, te] = _nb_predict(_nb_fit(Xi[tr], y[tr], n_values, n_classes), Xi[te])
            if with_j48:
                tree = _c45_fit(Xi[tr], y[tr], n_values, n_classes, 0.25, 2)
                out["j48"][r, te] = _c45_predict(tree, Xi[te])
                sizes[r, f] = _c45_size(tree)
        out["ib1"][r, te] = _ib1_predict(Xf[tr], y[tr], numeric, Xf[te])
    return out, sizes


@pytest.fixture(scope="module")
def null_fixture():
    d = dict(np.load(DATA / "weka_oracle_null.npz"))
    S, n = d["y"].shape
    a = int(d["n_attributes"])
    d["X"] = np.unpackbits(d["X_bits"], axis=1, count=n * a).reshape(S, n, a).astype(np.int64)
    return d


def test_null_fixture_nb_ib1_j48(null_fixture):
    d = null_fixture
    n_values = np.full(d["X"].shape[2], 2, np.int64)
    for s in range(d["y"].shape[0]):
        y = d["y"][s].astype(np.int64)
        ours, sizes = _replay(d["X"][s], y, n_values, int(d["n_classes"][s]), d["fold"][s],
                              with_j48=True)
        for m in ("nb", "ib1", "j48"):
            assert_array_equal(ours[m], d[m][s], err_msg=f"{m}, null data set {s}")
        for (r, f), (size, leaves) in sizes.items():
            assert (size, leaves) == (d["j48_size"][s, r, f], d["j48_leaves"][s, r, f])


def test_mixed_fixture_nb_ib1_j48():
    d = np.load(DATA / "weka_oracle_mixed.npz")
    assert np.isnan(d["X"]).mean() == pytest.approx(0.05, abs=0.01)
    assert (d["n_values"] == 0).any() and (d["n_values"] > 2).any()
    for s in range(d["y"].shape[0]):
        ours, sizes = _replay(d["X"][s], d["y"][s].astype(np.int64), d["n_values"][s],
                              int(d["n_classes"][s]), d["fold"][s], with_j48=True)
        assert_array_equal(ours["nb"], d["nb"][s], err_msg=f"NaiveBayes, mixed data set {s}")
        assert_array_equal(ours["ib1"], d["ib1"][s], err_msg=f"IB1, mixed data set {s}")
        assert_array_equal(ours["j48"], d["j48"][s], err_msg=f"J48, mixed data set {s}")
        for (r, f), (size, leaves) in sizes.items():
            assert (size, leaves) == (d["j48_size"][s, r, f], d["j48_leaves"][s, r, f])


#: Shipped data sets the Weka oracle was run on (the fixture's; data sets shipped later are
#: checked once scripts/weka_oracle.py --write is rerun).
WEKA_CHECKED = sorted({k.split("__")[0] for k in np.load(DATA / "weka_oracle_uci.npz").files
                       if k.endswith("__fold")}, key=UCI_DATASETS.index)


def test_fixture_covers_the_bouckaert_frank_data_sets():
    assert set(UCI_DATASETS[:26]) <= set(WEKA_CHECKED)


@pytest.mark.parametrize("name", WEKA_CHECKED)
def test_uci_fixture(name):
    d = np.load(DATA / "weka_oracle_uci.npz")
    ds = load_uci(name)
    fold = d[f"{name}__fold"]
    assert fold.shape == (10, ds.X.shape[0])
    ours, sizes = _replay(ds.X, ds.y, ds.n_values, ds.n_classes, fold, with_j48=True)
    assert_array_equal(ours["nb"], d[f"{name}__nb"])
    assert_array_equal(ours["ib1"], d[f"{name}__ib1"])
    assert_array_equal(ours["j48"], d[f"{name}__j48"])
    for (r, f), (size, leaves) in sizes.items():
        assert (size, leaves) == (d[f"{name}__j48_size"][r, f], d[f"{name}__j48_leaves"][r, f])
    # the criterion: 10 x 10 cv accuracy within 0.5 percentage points of Weka's
    for m in ("nb", "ib1", "j48"):
        assert abs(np.mean(ours[m] == ds.y) - np.mean(d[f"{name}__{m}"] == ds.y)) <= 0.005


def test_estimators_match_kernels_on_uci_split():
    # The public estimators give the fixture's predictions on a split where
    # every declared class occurs in training (so classes_ covers them all).
    d = np.load(DATA / "weka_oracle_uci.npz")
    for name in ("labor", "credit-g", "vote"):
        ds = load_uci(name)
        fold = d[f"{name}__fold"]
        tr, te = np.flatnonzero(fold[0] != 0), np.flatnonzero(fold[0] == 0)
        nb = NaiveBayes().fit(ds.X[tr], ds.y[tr], n_values=ds.n_values)
        ib1 = IB1().fit(ds.X[tr], ds.y[tr], n_values=ds.n_values)
        assert_array_equal(nb.predict(ds.X[te]), d[f"{name}__nb"][0, te])
        assert_array_equal(ib1.predict(ds.X[te]), d[f"{name}__ib1"][0, te])


def test_uci_accuracy_matches_weka():
    # 10 x 10 CV accuracy on two data sets, from the fixture (Weka) and replayed.
    d = np.load(DATA / "weka_oracle_uci.npz")
    for name in ("iris", "diabetes"):
        ds = load_uci(name)
        ours, _ = _replay(ds.X, ds.y, ds.n_values, ds.n_classes, d[f"{name}__fold"],
                          with_j48=False)
        for m in ("nb", "ib1"):
            assert np.mean(ours[m] == ds.y) == np.mean(d[f"{name}__{m}"] == ds.y)


@pytest.mark.weka
@pytest.mark.skipif(shutil.which("java") is None or shutil.which("javac") is None
                    or not WEKA_JAR.exists(), reason="needs Java, javac and Weka 3.6's weka.jar")
def test_live_weka(tmp_path):
    # Run the oracle's Java driver on a few splits of three shipped data sets.
    import sys
    sys.path.insert(0, str(REPO / "scripts"))
    try:
        from weka_oracle import run_weka
    finally:
        sys.path.pop(0)
    from calibsim.schemes import StratifiedRepeatedCV
    jobs, sets = [], []
    for u, name in enumerate(("labor", "glass", "breast-cancer")):
        ds = load_uci(name)
        fold = StratifiedRepeatedCV(n_runs=1).fold_of(ds.y, rng=u)
        jobs.append((REPO / "calibsim" / "data" / "uci" / f"{name}.arff", fold))
        sets.append((ds, fold))
    for (ds, fold), (w_nb, _, w_ib1, _) in zip(sets, run_weka(jobs, tmp_path)):
        ours, _ = _replay(ds.X, ds.y, ds.n_values, ds.n_classes, fold, with_j48=False)
        assert_array_equal(ours["nb"], w_nb)
        assert_array_equal(ours["ib1"], w_ib1)
