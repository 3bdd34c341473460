"""Per-instance outcomes in the engine's store and the tests that read them (issue 43)."""

import textwrap
from dataclasses import replace

import numpy as np
import pytest

from calibsim.engine import compute_scores, load_study, run_analyses
from calibsim.engine.analyses import test_data as engine_test_data
from calibsim.stats import cv_clt_test, nested_cv_test
from _studies import scored_study, tiny_study

TINY = tiny_study('tiny_instances', seed=11, block_size=4, n_instances=30, n_datasets=6, n_folds=3, n_runs=2, cv_extra='correctness = true') + """[schemes.ncv]
kind = "nested"
n_folds = 3
n_runs = 2
correctness = true

[schemes.holdout]
kind = "holdout"
n_runs = 2
correctness = true

[[analysis]]
kind = "rejection_rate"
tests = ["bayle_cv_clt", "ncv", "mcnemar"]
alphas = [0.05, 0.1]

[[analysis]]
kind = "replicability"
tests = ["bayle_cv_clt", "ncv"]
repeats = 2
alphas = [0.1]

[outputs]
results = "results"
"""

PAIR = ("naive_bayes", "c45")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return scored_study(tmp_path_factory, TINY)


def test_bit_packed_outcomes_agree_with_the_counts(tiny):
    study, scores = tiny
    for scheme in ("cv", "ncv"):
        a = scores.arrays[("null", scheme)]
        split = study.scheme(scheme).split_shape
        assert a["test_mask"].shape == (6,) + split + (4,)       # ceil(30 / 8) bytes
        mask = np.unpackbits(a["test_mask"], axis=-1)[..., :30].astype(bool)
        np.testing.assert_array_equal(mask.sum(-1), a["n_test"])
        bits = np.unpackbits(a["correctness"], axis=-1)[..., :30].astype(bool)
        np.testing.assert_array_equal((bits & mask[:, None]).sum(-1), a["correct"])
        assert not (bits & ~mask[:, None]).any()                 # only test instances
        x = scores.instance_differences("null", scheme, PAIR)
        np.testing.assert_array_equal((~np.isnan(x)).sum(-1), a["n_test"])
    # the nested scheme's outer folds are the repeated_kfold scheme's (the same stream)
    np.testing.assert_array_equal(scores.arrays[("null", "ncv")]["test_mask"][:, :, :3],
                                  scores.arrays[("null", "cv")]["test_mask"])
    assert "test_mask" not in scores.arrays[("null", "holdout")]  # holdout: as before


def test_same_bytes_for_any_block_size(tiny, tmp_path):
    study, scores = tiny
    other = compute_scores(replace(study, block_size=5, results=tmp_path / "r"))
    for key, arrays in scores.arrays.items():
        for name in ("correct", "correctness", "test_mask", "n_test"):
            if name in arrays:
                assert arrays[name].tobytes() == other.arrays[key][name].tobytes(), (key, name)


def test_rejection_rates_run_the_tests_on_the_stored_outcomes(tiny):
    study, scores = tiny
    x = engine_test_data(scores, "null", "cv", "bayle_cv_clt", PAIR, 2)
    assert x.shape == (6, 1, 3, 32)                      # the first run is all it reads
    full = scores.instance_differences("null", "cv", PAIR)
    np.testing.assert_array_equal(x[:, 0], full[:, 0])
    p_bayle = cv_clt_test(full[:, 0]).pvalue
    xn = engine_test_data(scores, "null", "ncv", "ncv", PAIR, 2)
    assert xn.shape == (6, 2, 3, 3, 32)
    p_ncv = nested_cv_test(xn).pvalue
    import calibsim.engine.analyses as an
    table = run_analyses(study, scores)["rejection_rate"]
    an._INSTANCE_CHUNK_BYTES, old = 1, an._INSTANCE_CHUNK_BYTES    # one data set at a time
    try:
        assert run_analyses(study, scores)["rejection_rate"].equals(table)
    finally:
        an._INSTANCE_CHUNK_BYTES = old
    for test, p in (("bayle_cv_clt", p_bayle), ("ncv", p_ncv)):
        for alpha in (0.05, 0.1):
            row = table[(table["test"] == test) & (table["alpha"] == alpha)]
            assert row["rate"].item() == np.mean(p <= alpha)


def test_a_scheme_without_outcomes_is_refused(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(textwrap.dedent(TINY).replace("n_runs = 2\ncorrectness = true\n\n"
                                                  "[schemes.ncv]", "n_runs = 2\n\n"
                                                  "[schemes.ncv]"), encoding="utf-8")
    with pytest.raises(ValueError, match="correctness.*must be true for 'bayle_cv_clt'"):
        load_study(path)


def test_replicability_of_the_per_instance_tests(tiny):
    study, scores = tiny
    table = run_analyses(study, scores)["replicability"]
    assert set(table["test"]) == {"bayle_cv_clt", "ncv"} and (table["n_runs"] == 1).all()
    # each repeat is one run (one partition): the cv CLT test of run 0 and of run 1
    x = scores.instance_differences("null", "cv", PAIR)
    p = np.stack([cv_clt_test(x[:, g]).pvalue for g in (0, 1)], axis=1)
    rej = (p <= 0.1).sum(axis=1)
    row = table[table["test"] == "bayle_cv_clt"]
    assert row["consistent"].item() == pytest.approx(np.mean((rej == 0) | (rej == 2)))
