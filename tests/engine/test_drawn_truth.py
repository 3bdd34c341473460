"""The coverage analysis's drawn truth (``truth = "drawn"``, calibsim/engine/_truth.py):
closed-form checks on tiny networks, and the coverage count against the intervals."""

import textwrap
from dataclasses import replace

import numpy as np
import pytest

from calibsim.engine import compute_scores, load_study, run_analyses
from calibsim.engine._truth import drawn_truth, train_size
from calibsim.engine.analyses import _covered_range
from calibsim.engine.analyses import test_data as engine_test_data
from calibsim.engine.spec import StudyFileError
from calibsim.papers.own_studies import coverage_verdict
from calibsim.sources import write_network
from calibsim.sources._ban import _build_model
from calibsim.stats import cv_clt_test

# class -> a0 with P(a0 = class) = 0.9, a1 independent noise: any model that predicts a0
# (what naive Bayes and C4.5 learn from 200 instances) has accuracy exactly 0.9, and the
# majority rule exactly 0.5 (P(class = 1) = 1/2)
RULE = [("class", [], [[0.5], [0.5]]), ("a0", ["class"], [[0.9, 0.1], [0.1, 0.9]]),
        ("a1", ["class"], [[0.5, 0.5], [0.5, 0.5]])]
# class alone matters for the majority rule: P(class = 1) = 0.35
PRIOR = [("class", [], [[0.65], [0.35]]), ("a0", ["class"], [[0.7, 0.2], [0.3, 0.8]])]

STUDY = """
[study]
name = "tiny_drawn"
seed = 11

[sources.rule]
kind = "ban"
network = "rule.bif"
n_instances = 40
n_datasets = 6

[sources.prior]
kind = "ban"
network = "prior.bif"
n_instances = 8
n_datasets = 1

[learners]
names = ["naive_bayes", "c45", "majority"]
majority = { estimator = "sklearn.dummy.DummyClassifier", strategy = "most_frequent" }

[schemes.cv]             # one 4-fold cv
kind = "repeated_kfold"
correctness = true
n_folds = 4
n_runs = 1

[[analysis]]
kind = "coverage"
name = "drawn"
tests = ["bayle_cv_clt", "kfold_cv"]
sources = ["rule"]
pairs = [["naive_bayes", "majority"]]
alphas = [0.1]
truth = "drawn"
truth_fits = 20

[outputs]
results = "results"
"""


def _study(tmp_path, text=STUDY):
    write_network(_build_model(RULE), tmp_path / "rule.bif")
    write_network(_build_model(PRIOR), tmp_path / "prior.bif")
    path = tmp_path / "tiny.toml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return load_study(path)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return _study(tmp_path_factory.mktemp("drawn"))


def _learners(study, *labels):
    by = {lrn.label: lrn for lrn in study.learners}
    return [by[x] for x in labels]


def test_truth_of_a_learned_rule_is_exact(tiny):
    rule = tiny.source("rule")
    for pair, want in ((("naive_bayes", "majority"), 0.4), (("c45", "naive_bayes"), 0.0)):
        t = drawn_truth(rule, _learners(tiny, *pair), n_train=200, fits=5, n_test=100,
                        seed=tiny.seed)
        assert t.method == "exact" and t.n_train == 200 and t.fits == 5
        assert abs(t.value - want) < 1e-12 and t.se < 1e-12
    t = drawn_truth(rule, _learners(tiny, "naive_bayes"), n_train=200, fits=5, n_test=100,
                    seed=tiny.seed, target="error")
    assert abs(t.value - 0.1) < 1e-12


def test_truth_of_the_majority_rule_against_its_closed_form(tiny):
    # m = 3 training classes, each 1 with p = 0.35: the majority is 1 with probability
    # q = 3 p^2 (1 - p) + p^3, and its accuracy is then p (else 1 - p)
    p, fits = 0.35, 600
    q = 3 * p**2 * (1 - p) + p**3
    want = 1 - (q * p + (1 - q) * (1 - p))
    sd = abs(1 - 2 * p) * np.sqrt(q * (1 - q))               # per-fit error's SD
    t = drawn_truth(tiny.source("prior"), _learners(tiny, "majority"), n_train=3, fits=fits,
                    n_test=10, seed=tiny.seed, target="error")
    assert abs(t.value - want) < 4 * sd / np.sqrt(fits)
    assert 0.8 < t.se / (sd / np.sqrt(fits)) < 1.2


def test_truth_is_keyed_by_identity_not_order(tiny):
    rule, lrn = tiny.source("rule"), _learners(tiny, "c45", "majority")
    a = drawn_truth(rule, lrn, n_train=10, fits=30, n_test=10, seed=tiny.seed)
    b = drawn_truth(rule, lrn, n_train=10, fits=30, n_test=10, seed=tiny.seed)
    c = drawn_truth(rule, lrn, n_train=10, fits=30, n_test=10, seed=tiny.seed + 1)
    assert a == b and a.value != c.value


def test_training_size_of_each_design(tiny):
    cv = tiny.scheme("cv")                                    # 4 folds
    assert train_size(cv, 40) == 30 and train_size(cv, 42) == 32


def test_coverage_counts_the_intervals_holding_the_drawn_truth(tiny):
    scores = compute_scores(tiny)
    row = run_analyses(tiny, scores)["drawn"].set_index("test").loc["bayle_cv_clt"]
    t = drawn_truth(tiny.source("rule"), _learners(tiny, "naive_bayes", "majority"),
                    n_train=30, fits=20, n_test=1, seed=tiny.seed)
    assert row["truth"] == t.value and row["truth_se"] == t.se and row["n_train"] == 30
    hits = []
    for i in range(6):
        x = engine_test_data(scores, "rule", "cv", "bayle_cv_clt",
                             ("naive_bayes", "majority"), datasets=slice(i, i + 1))
        ci = cv_clt_test(x[0, 0]).confidence_interval(0.9)
        hits.append(float(ci.low) <= t.value <= float(ci.high))
    assert row["coverage"] == np.mean(hits)
    assert row["coverage_truth_low"] <= row["coverage"] <= row["coverage_truth_high"]
    assert row["ci_low_both"] <= row["ci_low"] and row["ci_high"] <= row["ci_high_both"]


def test_covered_range_by_hand():
    low, high = np.array([0.0, 1.0, 2.0]), np.array([1.0, 2.0, 3.0])
    assert _covered_range(low, high, 0.5, 1.5) == (1, 2)      # two hold t = 1 exactly
    assert _covered_range(low, high, 1.2, 1.8) == (1, 1)
    assert _covered_range(low, high, -2.0, -1.0) == (0, 0)
    assert _covered_range(low, high, 0.0, 3.0) == (1, 2)


def test_verdict_against_nominal():
    row = {"confidence": 0.95, "ci_low_both": 0.80, "ci_high_both": 0.94}
    assert coverage_verdict(row) == "under"
    assert coverage_verdict({**row, "ci_high_both": 0.97}) == "nominal"
    assert coverage_verdict({**row, "ci_low_both": 0.96, "ci_high_both": 0.99}) == "over"


@pytest.mark.parametrize("edit, message", [
    ('truth = "drawn"', '`analysis[0].truth` must be one of'),
    ('truth_fits = 20', '`analysis[0].truth_fits` must be'),
])
def test_bad_drawn_truth_keys_are_named(tmp_path, edit, message):
    bad = {'truth = "drawn"': 'truth = "guessed"', 'truth_fits = 20': 'truth_fits = 1'}[edit]
    with pytest.raises(StudyFileError, match=message.replace("[", r"\[").replace("]", r"\]")):
        _study(tmp_path, STUDY.replace(edit, bad))


def test_truth_fits_needs_a_drawn_truth(tmp_path):
    with pytest.raises(StudyFileError, match=r"truth_fits` applies only to truth = \"drawn\""):
        _study(tmp_path, STUDY.replace('truth = "drawn"', "truth = { rule = 0.4 }"))


def test_a_reduced_run_draws_fewer_truth_fits(tiny):
    assert tiny.analysis("drawn").truth_fits == 20
    study = replace(tiny, analyses=(replace(tiny.analysis("drawn"), truth_fits=2000),))
    assert study.with_n_datasets(10).analysis("drawn").truth_fits == 100
    assert study.with_n_datasets(1).analysis("drawn").truth_fits == 20


def test_sampled_truth_on_the_logistic_source_agrees_with_the_scripts(tmp_path):
    """Where nothing is enumerable (Gaussian attributes), fresh test instances a fit: the
    expected error of logistic regression at m = 100 in Bates et al.'s s = 1 example is
    0.3635 ± 0.0004 by scripts/cv_inference_truth.py (2,000 fits, exact P(y | x))."""
    from test_coverage import TINY            # tests/engine is on the path (no __init__)
    text = TINY.replace("n_instances = 40\nn_attributes = 2\nstrength = 2.0",
                        "n_instances = 100\nn_attributes = 10\nstrength = 1.0")
    assert text != TINY
    path = tmp_path / "lowd.toml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    study = load_study(path)
    t = drawn_truth(study.source("lowd"), study.learners[:1], n_train=100, fits=60,
                    n_test=2000, seed=study.seed, target="error")
    assert t.method == "sampled" and t.n_test == 2000
    assert abs(t.value - 0.3635) < 4 * np.hypot(t.se, 0.0004), (t.value, t.se)
    assert t.se < 0.01
