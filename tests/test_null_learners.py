"""Dietterich's tests on null data with real learners (calibsim.null_learners)."""

from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from calibsim.cli import main
from calibsim.null_learners import load_study_file, run_block, run_study
from calibsim.study import load_study
from calibsim.study import run_block as figure2_block

ROOT = Path(__file__).resolve().parents[1]
STUDY = ROOT / "studies" / "dietterich1998_null_learners.toml"


@pytest.fixture
def small():
    study = load_study_file(STUDY)
    return replace(study, n_datasets=4, block_size=3)


def test_study_file_is_valid():
    study = load_study_file(STUDY)
    assert study.n_datasets == 1000 and study.n_resamples == 30 and study.n_folds == 10
    assert study.dfs[0] == 2 and study.dfs[-1] == 100


def test_block_shapes_and_consistency(small):
    out = run_block(small.blocks()[0])
    assert out["holdout_counts"].shape == (3, 4)
    assert np.all(out["holdout_counts"].sum(axis=1) == 100)      # 1/3 of 300 tested
    # McNemar's counts give the first resampled split's accuracy difference
    n00, n01, n10, n11 = out["holdout_counts"].T
    assert np.allclose((n10 - n01) / 100, out["resampling_diff"][:, 0])
    assert out["kfold_diff"].shape == (3, 10) and out["cv5x2_diff"].shape == (3, 5, 2)
    assert np.all(np.abs(out["resampling_diff"]) <= 1)


def test_kfold_differences_are_run_one_of_the_figure2_study(small):
    fig2 = load_study(ROOT / "studies" / "bouckaert2003_figure2.toml")
    block = figure2_block(replace(fig2.block(0, 2), cv=replace(fig2.cv, n_runs=1)))
    c = block["cv_correct"][:, :, 0].astype(float)
    expected = (c[:, 0] - c[:, 1]) / block["cv_n_test"][:, 0]
    assert np.array_equal(run_block(small.blocks()[0])["kfold_diff"][:2], expected)


def test_results_do_not_depend_on_blocks_or_workers(small):
    a = run_study(small, n_workers=0)
    b = run_study(replace(small, block_size=1), n_workers=2)
    for key in a:
        assert np.array_equal(a[key], b[key]), key


def test_cli_run_writes_outputs(tmp_path, capsys):
    code = main(["run", str(STUDY), "--n-datasets", "5", "--workers", "0", "--no-progress",
                 "--outputs", str(tmp_path)])
    assert code == 0
    table = pd.read_csv(tmp_path / "dietterich1998_null_learners_type1.csv")
    assert list(table["test"]) == ["mcnemar", "mcnemar_exact", "proportions", "resampled_t",
                                   "kfold_cv_t", "cv5x2_t", "cv5x2_f"]
    assert table["type1_error"].between(0, 1).all()
    report = (tmp_path / "dietterich1998_null_learners_report.md").read_text()
    assert "Can df calibrate the 5x2cv tests?" in report
    for name in ("dietterich1998_null_learners.png", "dietterich1998_null_learners_5x2cv_df.csv"):
        assert (tmp_path / name).is_file()


@pytest.mark.parametrize("edit, match", [
    (lambda s: s.replace('kind = "null_learners"', 'kind = "other"'),
     "`study.kind` must be 'null_learners'"),
    (lambda s: s.replace("n_resamples = 30", "n_resamples = 'x'"),
     "`schemes.n_resamples` must be of type int"),
    (lambda s: s.replace("n_resamples = 30", "n_resamples = 1"),
     "`n_resamples` must be an integer >= 2; got 1"),
    (lambda s: s.replace("[outputs]", "[extra]"), r"unknown section \[extra\]"),
    (lambda s: s.replace("alpha = 0.05", "alpha = 0.05\nbeta = 1"), "unknown key `tests.beta`"),
    (lambda s: s.replace('b = "c45"', 'b = "svm"'), "`learners` must be two names"),
    (lambda s: s.replace("seed = 20030821", ""), "missing required key `seed`"),
    (lambda s: s + "[[", "not valid TOML"),
])
def test_malformed_study_files(tmp_path, edit, match):
    path = tmp_path / "bad.toml"
    path.write_text(edit(STUDY.read_text()))
    with pytest.raises(ValueError, match=match):
        load_study_file(path)
