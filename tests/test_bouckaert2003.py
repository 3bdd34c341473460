"""Bouckaert (2003) table studies on tiny collections (calibsim.bouckaert2003)."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from calibsim.bouckaert2003 import calibrated_df, load_study_file
from calibsim.cli import main

ROOT = Path(__file__).resolve().parents[1]
TABLE2 = ROOT / "studies" / "bouckaert2003_table2.toml"

SMALL_CAL = """
[study]
name = "cal"
seed = 7
n_datasets = 30
[source]
kind = "null"
n_instances = 60
n_attributes = 4
[learners]
a = "naive_bayes"
b = "c45"
[cv]
n_folds = 5
n_runs = 10
[subsampling]
n_runs = 10
test_fraction = 0.2
[calibration]
runs = [10]
alphas = [0.05]
df_max = 30
tests = ["use_all_data"]
[execution]
block_size = 10
"""


@pytest.fixture
def table2_file(tmp_path):
    cal = tmp_path / "cal.toml"
    cal.write_text(SMALL_CAL + f'[outputs]\nresults = "{tmp_path / "cal_results"}"\n')
    text = TABLE2.read_text().replace('study = "studies/bouckaert2003_figure2.toml"',
                                      f'study = "{cal}"')
    text = text.replace('results = "results/collections"', f'results = "{tmp_path / "col"}"')
    text = text.replace("priors = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5]", "priors = [0.2, 0.5]")
    path = tmp_path / "t2.toml"
    path.write_text(text)
    return path


def test_table2_end_to_end(table2_file, tmp_path):
    assert main(["run", str(table2_file), "--n-datasets", "8", "--workers", "0",
                 "--no-progress", "--outputs", str(tmp_path / "out")]) == 0
    table = pd.read_csv(tmp_path / "out" / "bouckaert2003_table2_type1_vs_class_prior.csv")
    assert set(table["class_prior"]) == {0.2, 0.5}
    assert table["rate"].between(0, 1).all() and (table["n"] == 8).all()
    report = (tmp_path / "out" / "bouckaert2003_table2_report.md").read_text()
    assert "paper" in report and "use all data" in report


def test_calibrated_df_comes_from_the_calibration_study(table2_file):
    from calibsim.calibration import calibrate
    from calibsim.study import load_scores, load_study, run_study
    study = load_study_file(table2_file)
    cal = load_study(study.calibration)
    scores = run_study(cal, n_workers=0)
    expected = calibrate("use_all_data", scores.cv_difference(10), alphas=[0.05],
                         dfs=cal.dfs).calibrated_df[0]
    assert calibrated_df(study, "use_all_data", 10, 0.05) == expected
    assert np.array_equal(load_scores(cal).cv_correct, scores.cv_correct)


@pytest.mark.parametrize("edit, match", [
    (lambda s: s.replace('table = "table2"', 'table = "table9"'), "`study.table` must be one of"),
    (lambda s: s.replace('table = "table2"', 'table = "figure4"'), "needs \\[sets\\] networks"),
    (lambda s: s.replace("n_runs = 10", "n_runs = '10'"), "`design.n_runs` must be of type int"),
    (lambda s: s.replace("[design]", "[desing]"), r"unknown section \[desing\]"),
    (lambda s: s.replace("seed = 20030822\n", ""), "missing required key `seed`"),
])
def test_malformed_table_study(tmp_path, edit, match):
    path = tmp_path / "bad.toml"
    path.write_text(edit(TABLE2.read_text()))
    with pytest.raises(ValueError, match=match):
        load_study_file(path)
