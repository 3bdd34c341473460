"""The calibsim command on a tiny study: run, report and calibrate."""

import numpy as np
import pandas as pd
import pytest

from calibsim.cli import main
from test_study import SMALL


@pytest.fixture
def study_file(tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(SMALL.replace('tests = ["use_all_data", "kfold_cv", "corrected_resampling"]',
                                  'tests = ["use_all_data", "kfold_cv", "resampling", '
                                  '"corrected_resampling", "folds", "runs", '
                                  '"sorted_runs_averaged_t"]'))
    return path


def test_run_writes_tables_figure_and_report(tmp_path, study_file, capsys):
    out = tmp_path / "out"
    code = main(["run", str(study_file), "--workers", "0", "--no-progress",
                 "--results", str(tmp_path / "res"), "--outputs", str(out)])
    assert code == 0
    for name in ("small_calibration.csv", "small_calibration.md", "small_report.md",
                 "small.png", "small.pdf"):
        assert (out / name).is_file(), name
    table = pd.read_csv(out / "small_calibration.csv")
    assert len(table) == 7 * 2                      # tests x runs at one alpha
    assert table["calibrated_df"].between(0, 20).all()
    text = capsys.readouterr().out
    assert "calibrated df at alpha = 0.05" in text
    # the report can be redone from the saved scores alone
    (out / "small_report.md").unlink()
    assert main(["report", str(study_file), "--results", str(tmp_path / "res"),
                 "--outputs", str(out)]) == 0
    assert (out / "small_report.md").is_file()


def test_calibrate_prints_calibrated_df(tmp_path, capsys):
    code = main(["calibrate", "--test", "use_all_data", "--alpha", "0.05", "--alpha", "0.1",
                 "--folds", "3", "--runs", "2", "--n-datasets", "5", "--n-instances", "30",
                 "--workers", "0", "--no-progress", "--results", str(tmp_path)])
    assert code == 0
    out = capsys.readouterr().out
    assert "use all data" in out and "calibrated_df" in out


@pytest.mark.parametrize("argv, match", [
    (["calibrate", "--test", "nope"], "nope"),
    (["calibrate", "--test", "use_all_data", "--runs", "1", "--workers", "0"],
     "`--runs` and `--folds` must be integers >= 2"),
])
def test_calibrate_bad_arguments(argv, match, capsys, tmp_path):
    assert main(argv + ["--results", str(tmp_path), "--no-progress"]) == 2
    assert match in capsys.readouterr().err


@pytest.mark.parametrize("argv", [
    ["calibrate", "--test", "use_all_data", "--alpha", "1.5"],
    ["calibrate", "--test", "use_all_data", "--folds", "0"],
    ["run"],
])
def test_argument_parser_rejects(argv, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2


def test_run_missing_file(tmp_path, capsys):
    assert main(["run", str(tmp_path / "missing.toml"), "--no-progress"]) == 2
    assert "missing.toml" in capsys.readouterr().err


def test_unreachable_scheduler_is_a_clear_error(study_file, tmp_path, capsys):
    import dask
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        code = main(["run", str(study_file), "--scheduler", "tcp://127.0.0.1:9", "--no-progress",
                     "--results", str(tmp_path / "r"), "--outputs", str(tmp_path / "o")])
    assert code == 2
    assert "could not run on Dask" in capsys.readouterr().err
