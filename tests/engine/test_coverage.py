"""The ``coverage`` analysis and the ``logistic`` source (issue 43, validation against sources)."""

import textwrap

import numpy as np
import pytest

from calibsim.engine import compute_scores, load_study, run_analyses
from calibsim.engine.analyses import test_data as engine_test_data
from calibsim.engine.spec import StudyFileError
from calibsim.sources import LogisticSource
from calibsim.stats import cv_clt_test, nested_cv_test

TINY = """
[study]
name = "tiny_coverage"
seed = 3

[sources.lowd]
kind = "logistic"
n_instances = 40
n_attributes = 2
strength = 2.0
n_datasets = 5

[learners]
names = ["logistic", "majority"]
[learners.logistic]
estimator = "sklearn.linear_model.LogisticRegression"
C = 1e6
[learners.majority]
estimator = "sklearn.dummy.DummyClassifier"
strategy = "most_frequent"

[schemes.cv]
kind = "repeated_kfold"
n_folds = 4
n_runs = 1
stratified = false
correctness = true

[schemes.ncv]
kind = "nested"
n_folds = 3
n_runs = 2
correctness = true

[[analysis]]
kind = "coverage"
name = "error"
tests = ["bayle_cv_clt", "ncv", "kfold_cv"]
target = "error"
learner = "logistic"
alphas = [0.1]
truth = { lowd = 0.25 }

[[analysis]]
kind = "coverage"
name = "difference"
tests = ["bayle_cv_clt", "ncv"]
alphas = [0.1, 0.5]
truth = { lowd = 0.2 }

[outputs]
results = "results"
"""


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    path = tmp_path_factory.mktemp("cov") / "tiny.toml"
    path.write_text(textwrap.dedent(TINY), encoding="utf-8")
    study = load_study(path)
    scores = compute_scores(study)
    return study, scores, run_analyses(study, scores)


def _by_hand(study, scores, test, alpha, truth, target):
    """Coverage recomputed from the tests' own intervals, data set by data set."""
    sname = "ncv" if test == "ncv" else "cv"
    pair = ("logistic", "" if target == "error" else "majority")
    hits = []
    for i in range(5):
        x = engine_test_data(scores, "lowd", sname, test, pair, datasets=slice(i, i + 1),
                             target=target)
        if test == "ncv":
            res = nested_cv_test(x[0])
        else:
            res = cv_clt_test(x[0, 0])
        ci = res.confidence_interval(1 - alpha)
        hits.append(float(ci.low) <= truth <= float(ci.high))
    return np.mean(hits)


def test_coverage_equals_the_intervals_by_hand(tiny):
    study, scores, tables = tiny
    err, diff = tables["error"], tables["difference"]
    assert list(err["test"]) == ["bayle_cv_clt", "ncv", "kfold_cv"]
    assert set(err["pair_b"]) == {""} and set(err["target"]) == {"error"}
    for test in ("bayle_cv_clt", "ncv"):
        row = err[err["test"] == test].iloc[0]
        assert row["coverage"] == _by_hand(study, scores, test, 0.1, 0.25, "error")
        for alpha in (0.1, 0.5):
            row = diff[(diff["test"] == test) & (diff["alpha"] == alpha)].iloc[0]
            assert row["coverage"] == _by_hand(study, scores, test, alpha, 0.2, "difference")
    for t in (err, diff):
        np.testing.assert_allclose(t["coverage"] + t["miss_below"] + t["miss_above"], 1.0)
        np.testing.assert_allclose(t["mc_se"], np.sqrt(t["coverage"] * (1 - t["coverage"]) / 5))
        assert (t["ci_low"] <= t["coverage"]).all() and (t["coverage"] <= t["ci_high"]).all()
    # a wider interval (90% against 50%) never covers less
    for test in ("bayle_cv_clt", "ncv"):
        g = diff[diff["test"] == test].set_index("alpha")
        assert g.loc[0.1, "coverage"] >= g.loc[0.5, "coverage"]
        assert g.loc[0.1, "mean_width"] > g.loc[0.5, "mean_width"]


def test_error_target_reads_one_learners_losses(tiny):
    study, scores, tables = tiny
    loss = engine_test_data(scores, "lowd", "cv", "bayle_cv_clt", ("logistic", ""),
                            target="error")
    acc = scores.accuracy("lowd", "cv", "logistic")            # (N, 1, 4)
    present = ~np.isnan(loss)
    per_fold = np.where(present, loss, 0).sum(-1) / present.sum(-1)
    np.testing.assert_allclose(1 - per_fold, acc)
    row = tables["error"].set_index("test").loc["kfold_cv"]
    np.testing.assert_allclose(row["mean_estimate"], np.mean(1 - acc))


@pytest.mark.parametrize("edit, message", [
    ('learner = "logistic"', "`analysis[0].learner` is required for target = 'error'"),
    ('truth = { lowd = 0.25 }', "`analysis[0].truth` is required"),
    ('tests = ["bayle_cv_clt", "ncv", "kfold_cv"]', "must be one of"),
    ('truth = { lowd = 0.25 }', "`analysis[0].truth.elsewhere` names no declared source"),
])
def test_bad_coverage_keys_are_named(tmp_path, edit, message):
    text = textwrap.dedent(TINY)
    if "required" in message:
        text = text.replace(edit + "\n", "", 1)
    elif "must be one of" in message:
        text = text.replace(edit, 'tests = ["mcnemar"]', 1)
    else:
        text = text.replace(edit, "truth = { lowd = 0.25, elsewhere = 0.1 }", 1)
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(StudyFileError, match=message.replace("(", r"\(").replace(")", r"\)")
                       .replace("[", r"\[").replace("]", r"\]")):
        load_study(path)


def test_coverage_keys_only_on_coverage(tmp_path):
    text = textwrap.dedent(TINY).replace(
        '[outputs]', '[[analysis]]\nkind = "rejection_rate"\ntests = ["ncv"]\n'
        'truth = { lowd = 0.1 }\n\n[outputs]')
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(StudyFileError, match="applies only to a coverage analysis"):
        load_study(path)


@pytest.mark.parametrize("line, match", [
    ('null = "centred"', "does not apply to a coverage analysis"),
    # a df (given or calibrated: tests/engine/test_coverage_calibrated.py) needs tests
    # that take one
    ("df = 5", r"`analysis\[1\]\.df` is 5, but .* take\(s\) no df")])
def test_keys_a_coverage_analysis_would_ignore_are_refused(tmp_path, line, match):
    text = textwrap.dedent(TINY).replace('truth = { lowd = 0.2 }',
                                         'truth = { lowd = 0.2 }\n' + line)
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(StudyFileError, match=match):
        load_study(path)


def test_difference_needs_one_pair(tmp_path):
    text = textwrap.dedent(TINY).replace(
        'names = ["logistic", "majority"]', 'names = ["logistic", "majority", "naive_bayes"]')
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(StudyFileError, match="exactly one pair"):
        load_study(path)


def test_logistic_source_draws_its_model():
    src = LogisticSource(n_instances=20_000, n_attributes=2, strength=2.0)
    X, y = src.sample(np.random.SeedSequence(1))
    assert X.shape == (20_000, 2) and X.dtype == np.float64
    # P(y = 1 | x) = 1 / (1 + exp(-2 x_1)): the class mean is 1/2, and it follows x_1 only
    assert abs(y.mean() - 0.5) < 4 * 0.5 / np.sqrt(20_000)
    high = X[:, 0] > 1
    expected = src.probability(X[high]).mean()
    se = np.sqrt(expected * (1 - expected) / high.sum())
    assert abs(y[high].mean() - expected) < 4 * se
    assert abs(np.corrcoef(X[:, 1], y)[0, 1]) < 4 / np.sqrt(20_000)
    X2, y2 = src.sample(np.random.SeedSequence(1))
    np.testing.assert_array_equal(X, X2)
    assert src.identity == "logistic(n_instances=20000, n_attributes=2, strength=2.0)"


@pytest.mark.parametrize("kw, name", [({"n_instances": 1}, "n_instances"),
                                      ({"n_attributes": 0}, "n_attributes"),
                                      ({"strength": float("nan")}, "strength")])
def test_logistic_source_refuses_bad_input(kw, name):
    with pytest.raises(ValueError, match=f"`{name}`"):
        LogisticSource(**kw)
