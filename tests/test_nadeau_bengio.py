"""Nadeau & Bengio (2003)'s simulated problems as sources: the exact regression null
(closed form, checked by Monte Carlo), the two Gaussian populations, and the study-file
kinds."""

import math

import numpy as np
import pytest

from calibsim.sources import (NadeauBengioClassificationSource, NadeauBengioRegressionSource,
                              nadeau_bengio_classification_errors, nadeau_bengio_null_slope,
                              nadeau_bengio_regression_errors)


def _conditional_errors(src, n1, n_sets, rng):
    """Each of ``n_sets`` training sets of ``n1`` instances from ``src``: the exact expected
    squared error, given that training set, of the sample mean and of least squares on a
    new instance (the expectation over the new X and noise is in closed form)."""
    X = np.empty((n_sets, n1))
    Y = np.empty((n_sets, n1))
    for i in range(n_sets):
        x, y = src.sample(rng, n=n1)
        X[i], Y[i] = x[:, 0], y
    a, b, mx, vx, s2 = src.intercept, src.slope, src.x_mean, src.x_variance, src.noise_variance
    ybar, xbar = Y.mean(1), X.mean(1)
    mean_err = (b * b * vx + s2) + (a + b * mx - ybar) ** 2
    sxx = ((X - xbar[:, None]) ** 2).sum(1)
    bhat = ((X - xbar[:, None]) * (Y - ybar[:, None])).sum(1) / sxx
    ahat = ybar - bhat * xbar
    ols_err = s2 + (a - ahat + (b - bhat) * mx) ** 2 + (b - bhat) ** 2 * vx
    return mean_err, ols_err


def _within(values, truth, k=4.0):
    se = values.std(ddof=1) / math.sqrt(values.size)
    return abs(values.mean() - truth) < k * se, values.mean(), se


def test_the_closed_forms_and_the_null_slope():
    # sample mean: (b^2 sx2 + s2)(1 + 1/n1); least squares: s2 (1 + 1/n1)(1 + 1/(n1 - 3))
    m, o = nadeau_bengio_regression_errors(10, 0.5, x_variance=2.0, noise_variance=3.0)
    assert m == pytest.approx((0.25 * 2 + 3) * 1.1) and o == pytest.approx(3 * 1.1 * (1 + 1 / 7))
    for n1, vx, s2 in [(100, 1.0, 97.0), (1000, 1.0, 9.97), (7, 2.5, 0.3)]:
        b = nadeau_bengio_null_slope(n1, x_variance=vx, noise_variance=s2)
        assert b * b * vx == pytest.approx(s2 / (n1 - 3))
        m, o = nadeau_bengio_regression_errors(n1, b, x_variance=vx, noise_variance=s2)
        assert m == pytest.approx(o, rel=1e-12)
        m2, o2 = nadeau_bengio_regression_errors(n1, 2 * b, x_variance=vx, noise_variance=s2)
        assert m2 > o2 and o2 == o                      # a steeper slope favours least squares
    assert nadeau_bengio_null_slope(100) == 1.0          # 97 / (100 - 3) = 1
    assert nadeau_bengio_null_slope(1000, noise_variance=9.97) == 0.1


def test_the_regression_null_is_exact_by_monte_carlo():
    """At the slope of ``n_train`` the two learners' expected errors are equal: the mean of
    each learner's exact conditional error over 20000 training sets lies within 4 Monte
    Carlo standard errors of the closed form, and so does their paired difference of 0."""
    src = NadeauBengioRegressionSource(n_instances=200, n_train=100)
    mean_err, ols_err = _conditional_errors(src, 100, 20_000, np.random.default_rng(2003))
    truth_mean, truth_ols = src.expected_errors()
    assert truth_mean == pytest.approx(truth_ols)
    for values, truth in ((mean_err, truth_mean), (ols_err, truth_ols),
                          (mean_err - ols_err, 0.0)):
        ok, got, se = _within(values, truth)
        assert ok, (got, truth, se)
    # the check has power: a slope 20% steeper makes a difference the same MC finds
    steep = NadeauBengioRegressionSource(n_train=None, b=1.2 * src.slope)
    m2, o2 = _conditional_errors(steep, 100, 20_000, np.random.default_rng(2004))
    ok, got, se = _within(m2 - o2, 0.0)
    assert not ok and got > 0
    ok, got, se = _within(m2 - o2, np.subtract(*steep.expected_errors(100)))
    assert ok, (got, se)


def test_the_named_scikit_learn_learners_have_those_errors():
    """DummyRegressor(strategy="mean") and LinearRegression(), trained on the source's data
    sets of n1 = 20 and scored on an independent test set, agree with the closed forms
    within 4 Monte Carlo standard errors (training sets and test noise both counted)."""
    from sklearn.dummy import DummyRegressor
    from sklearn.linear_model import LinearRegression
    src = NadeauBengioRegressionSource(n_instances=20, n_train=20, noise_variance=4.0)
    rng = np.random.default_rng(11)
    errs = []
    for _ in range(400):
        X, y = src.sample(rng)
        Xt, yt = src.sample(rng, n=500)
        errs.append([np.mean((est.fit(X, y).predict(Xt) - yt) ** 2) for est in
                     (DummyRegressor(strategy="mean"), LinearRegression())])
    errs = np.array(errs)
    for k, truth in enumerate(src.expected_errors()):
        ok, got, se = _within(errs[:, k], truth)
        assert ok, (k, got, truth, se)


def test_regression_source_protocol_and_stream_order():
    src = NadeauBengioRegressionSource(n_instances=50, n_train=25, x_variance=2.0)
    X, y = src.sample(np.random.SeedSequence(5))
    X2, y2 = src.sample(np.random.SeedSequence(5))
    assert X.shape == (50, 1) and y.shape == (50,) and X.flags.c_contiguous
    assert X.dtype == np.float64 and y.dtype == np.float64
    assert (X == X2).all() and (y == y2).all()
    g = np.random.default_rng(np.random.SeedSequence(5))     # X normals, then the noise
    x = 10.0 + math.sqrt(2.0) * g.standard_normal(50)
    assert np.array_equal(X[:, 0], x)
    assert np.allclose(y, 100.0 + src.slope * x + math.sqrt(97.0) * g.standard_normal(50))
    Xt, yt = src._draw(np.random.SeedSequence(6), 7)           # a test_set scheme's draw
    assert Xt.shape == (7, 1) and yt.shape == (7,)
    assert src.n_classes == 0 and src.is_regression and not src.is_nominal_codes
    assert src.n_values.tolist() == [0]
    by_b = NadeauBengioRegressionSource(n_instances=50, b=src.slope, x_variance=2.0)
    assert by_b.identity != src.identity and "b=" in by_b.identity
    assert "n_train=25" in src.identity
    with pytest.raises(ValueError, match="`n_train` is required"):
        by_b.expected_errors()
    assert by_b.expected_errors(25) == pytest.approx(src.expected_errors())


@pytest.mark.parametrize("kw, error, match", [
    ({}, ValueError, "give exactly one of `n_train`.*got n_train=None, b=None"),
    ({"n_train": 10, "b": 1.0}, ValueError, "give exactly one of `n_train`"),
    ({"n_train": 3}, ValueError, "`n_train` must be an integer >= 4; got 3"),
    ({"n_train": 10.0}, TypeError, "`n_train` must be an integer"),
    ({"b": float("nan")}, ValueError, "`b` must be a finite number; got nan"),
    ({"b": 1.0, "x_variance": 0.0}, ValueError, "`x_variance` must be a finite number > 0"),
    ({"b": 1.0, "noise_variance": -1}, ValueError, "`noise_variance` must be a finite number"),
    ({"b": 1.0, "n_instances": 1}, ValueError, "`n_instances` must be an integer >= 2"),
])
def test_regression_source_refuses_bad_parameters(kw, error, match):
    with pytest.raises(error, match=match):
        NadeauBengioRegressionSource(**kw)


def test_classification_source_draws_two_gaussian_populations():
    src = NadeauBengioClassificationSource(n_instances=40_000, mean1=1.0, variance1=0.25,
                                           class_prior=0.3)
    X, y = src.sample(rng=7)
    assert X.shape == (40_000, 2) and X.dtype == np.float64 and y.dtype == np.int64
    assert abs(y.mean() - 0.3) < 4 * math.sqrt(0.3 * 0.7 / y.size)
    for cls, mean, var in ((0, 0.0, 1.0), (1, 1.0, 0.25)):
        Z = X[y == cls]
        se_mean = math.sqrt(var / len(Z))
        assert np.all(np.abs(Z.mean(0) - mean) < 4 * se_mean)
        assert np.all(np.abs(Z.var(0) - var) < 4 * var * math.sqrt(2 / len(Z)))
        assert abs(np.corrcoef(Z.T)[0, 1]) < 4 / math.sqrt(len(Z))
    g = np.random.default_rng(7)                      # classes first, then the normals
    y_pin = (g.random(40_000) < 0.3).astype(np.int64)
    assert np.array_equal(y, y_pin)
    assert src.n_classes == 2 and not src.is_regression and src.n_values.tolist() == [0, 0]
    with pytest.raises(ValueError, match="`variance1` must be a finite number > 0"):
        NadeauBengioClassificationSource(variance1=0)
    with pytest.raises(ValueError, match=r"`class_prior` must lie in \(0, 1\)"):
        NadeauBengioClassificationSource(class_prior=1.0)


def test_classification_errors_are_estimated_with_their_error():
    src = NadeauBengioClassificationSource(variance1=0.5)
    out = nadeau_bengio_classification_errors(src, 100, n_datasets=20, n_test=5000, rng=3)
    again = nadeau_bengio_classification_errors(src, 100, n_datasets=20, n_test=5000, rng=3)
    assert out == again
    assert out["difference"] == pytest.approx(out["tree"] - out["linear"])
    # the Bayes error of this design is about 0.18: both rules are worse, neither absurd
    assert 0.18 < out["linear"] < 0.3 and 0.18 < out["tree"] < 0.35
    assert all(out[k] > 0 for k in ("se_tree", "se_linear", "se_difference"))


def test_study_files_take_both_kinds(tmp_path):
    from calibsim.engine import load_study
    from calibsim.engine._specs import SOURCE_KINDS
    assert {"nadeau_bengio_regression", "nadeau_bengio_classification"} <= set(SOURCE_KINDS)
    path = tmp_path / "nb.toml"
    path.write_text("""
[study]
name = "nb"
seed = 3

[sources.reg]
kind = "nadeau_bengio_regression"
n_instances = 200
n_train = [100, 1000]
n_datasets = 2

[sources.cls]
kind = "nadeau_bengio_classification"
variance1 = 0.173
n_datasets = 2

[learners]
names = ["naive_bayes", "c45"]

[schemes.cv]
kind = "repeated_kfold"
n_folds = 2
n_runs = 1
""")
    study = load_study(path)
    built = {s.label: s.build() for s in study.sources}
    assert set(built) == {"cls", "reg[n_train=100]", "reg[n_train=1000]"}
    assert built["reg[n_train=100]"].slope == 1.0
    assert isinstance(built["cls"], NadeauBengioClassificationSource)
    assert built["cls"].variance1 == 0.173
    bad = path.read_text().replace("n_train = [100, 1000]", "n_train = 100\nb = 1.0")
    path.write_text(bad)
    with pytest.raises(ValueError, match="give exactly one of `n_train`"):
        load_study(path)
