"""Null data shaped like the user's (class permuted) and ``calibsim calibrate --like``."""

import numpy as np
import pytest

from calibsim.comparison._calibrate_like import calibrate_like, data_source
from calibsim.cli import main
from calibsim.engine.spec import study_from_dict
from calibsim.sources import DatasetSource


def test_permuted_class_keeps_attributes_and_prior_and_depends_on_the_seed():
    src = DatasetSource("vote", permute_class=True)
    plain = DatasetSource("vote")
    X0, y0 = plain.sample()
    X1, y1 = src.sample(np.random.SeedSequence(5))
    X2, y2 = src.sample(np.random.SeedSequence(5))
    X3, y3 = src.sample(np.random.SeedSequence(6))
    np.testing.assert_array_equal(X1, X0)
    np.testing.assert_array_equal(np.bincount(y1), np.bincount(y0))
    np.testing.assert_array_equal(y1, y2)
    assert not np.array_equal(y1, y3) and not np.array_equal(y1, y0)
    assert src.identity == plain.identity[:-1] + ", permute_class=True)"
    with pytest.raises(ValueError, match="`rng` is required"):
        src.sample()


def _doc(permute):
    return {"study": {"name": "s", "seed": 1},
            "sources": {"d": {"kind": "dataset", "name": "iris", "permute_class": permute,
                              "n_datasets": 7}},
            "learners": {"names": ["naive_bayes", "c45"]},
            "schemes": {"cv": {"kind": "repeated_kfold", "n_folds": 2, "n_runs": 2}}}


def test_a_permuted_source_is_simulated_so_n_datasets_overrides_it(tmp_path):
    permuted = study_from_dict(_doc(True), tmp_path / "s.toml", n_datasets=3)
    real = study_from_dict(_doc(False), tmp_path / "s.toml", n_datasets=3)
    assert permuted.sources[0].n_datasets == 3 and real.sources[0].n_datasets == 7


def test_data_source_names():
    assert data_source("vote") == {"name": "vote"}
    assert data_source("sklearn:load_iris") == {"sklearn": "load_iris"}
    assert data_source("my.arff")["path"].endswith("my.arff")
    with pytest.raises(ValueError, match="shipped data set"):
        data_source("nonsense")


def test_calibrate_like_resumes_from_its_store_and_estimates_time(tmp_path):
    seen = []
    kw = dict(design="2x5", test="use_all_data", alphas=(0.05, 0.1), n_datasets=30, n_jobs=0,
              results=tmp_path, on_estimate=lambda per, total: seen.append((per, total)))
    first = calibrate_like("iris", ("naive_bayes", "sklearn.naive_bayes.GaussianNB"), **kw)
    again = calibrate_like("iris", ("naive_bayes", "sklearn.naive_bayes.GaussianNB"), **kw)
    assert list(first["alpha"]) == [0.05, 0.1] and (first["n_datasets"] == 30).all()
    assert first["df_continuous"].tolist() == again["df_continuous"].tolist()
    assert (first["df_ci_low"] <= first["df_continuous"]).all()
    assert seen[0][1] == pytest.approx(30 * seen[0][0])
    with pytest.raises(ValueError, match="two learners"):
        calibrate_like("iris", ("naive_bayes",), n_datasets=2, n_jobs=0, results=tmp_path)


def test_cli_calibrate_like_and_compare(tmp_path, capsys):
    assert main(["calibrate", "--test", "use_all_data", "--like", "iris", "--folds", "5",
                 "--runs", "2", "--n-datasets", "20", "--workers", "0", "--no-progress",
                 "--results", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "one null data set took" in out and "df_continuous" in out
    csv = tmp_path / "folds.csv"
    assert main(["compare", "--data", "iris", "--a", "naive_bayes", "--b",
                 "sklearn.naive_bayes.GaussianNB", "--design", "2x5", "--df", "textbook",
                 "--no-progress", "--scores", str(csv)]) == 0
    out = capsys.readouterr().out
    assert "verdict" in out and csv.is_file()
    assert main(["compare", "--data", "iris", "--a", "naive_bayes"]) == 2
    assert "at least two learners" in capsys.readouterr().err
    assert main(["calibrate", "--test", "use_all_data", "--learner", "c45"]) == 2
