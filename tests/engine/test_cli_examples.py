"""The CLI on a real local Dask scheduler, and the two example studies at reduced size."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from calibsim.engine.pipeline import run_study_file

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_cli_on_a_local_dask_scheduler_and_worker(tmp_path, capsys):
    """`--scheduler`: a real scheduler and worker on 127.0.0.1, as separate processes."""
    from test_engine import SMALL

    from calibsim.cli import main
    study = tmp_path / "small.toml"
    study.write_text(SMALL)
    sched_file = tmp_path / "scheduler.json"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler",
                               "--host", "127.0.0.1", "--port", "0", "--dashboard-address",
                               ":0", "--scheduler-file", str(sched_file)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        for _ in range(300):
            if sched_file.is_file() and sched_file.stat().st_size:
                break
            time.sleep(0.1)
        address = json.loads(sched_file.read_text())["address"]
        procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker",
                                       address, "--nthreads", "1", "--nworkers", "1",
                                       "--host", "127.0.0.1", "--dashboard-address", ":0"],
                                      env=env, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL))
        from distributed import Client
        with Client(address, timeout="30s") as client:
            client.wait_for_workers(1, timeout=60)
        assert main(["run", str(study), "--scheduler", address, "--out", str(tmp_path / "d"),
                     "--no-progress"]) == 0
        assert main(["run", str(study), "--workers", "0", "--results", str(tmp_path / "r0"),
                     "--out", str(tmp_path / "h"), "--no-progress"]) == 0
        for name in ("calibrate", "classic", "replicability", "accuracy"):
            a = pd.read_csv(tmp_path / "d" / f"small_{name}.csv")
            b = pd.read_csv(tmp_path / "h" / f"small_{name}.csv")
            cols = [c for c in a.columns if c not in ("fit_time", "predict_time")]
            pd.testing.assert_frame_equal(a[cols], b[cols])
    finally:
        for p in procs[::-1]:
            p.send_signal(signal.SIGINT)
        for p in procs[::-1]:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


def test_example_ban_study_at_reduced_size(tmp_path):
    paths = run_study_file(REPO / "studies" / "example_ban_tan_ib1_5x2cv.toml", n_datasets=30,
                           out=tmp_path / "out", results=tmp_path / "res", n_workers=0,
                           n_boot=10)
    cal = pd.read_csv(paths["calibration.csv"])
    assert list(cal["test"]) == ["cv5x2_t"] and cal["n_datasets"].iloc[0] == 30
    rate = pd.read_csv(paths["type1_calibrated.csv"])
    assert rate["df"].iloc[0] == cal["calibrated_df"].iloc[0]


def test_example_uci_study_at_reduced_size(tmp_path):
    text = (REPO / "studies" / "example_uci_four_learners.toml").read_text()
    text = (text.replace("n_runs = 100", "n_runs = 4").replace("runs = [10]", "runs = [2]")
            .replace("repeats = 10", "repeats = 2")
            .replace('name = ["credit-g", "diabetes", "glass", "ionosphere", "iris"]',
                     'name = ["iris", "glass"]'))
    study = tmp_path / "uci.toml"
    study.write_text(text)
    paths = run_study_file(study, out=tmp_path / "out", n_workers=0)
    acc = pd.read_csv(paths["accuracy.csv"])
    assert set(acc["learner"]) == {"naive_bayes", "c45", "ib1", "logistic"}
    assert len(acc) == 8 and (acc["accuracy"] > 0.4).all()
    # wall times change from run to run: the run log has them, the tracked table does not
    assert "fit_time" not in acc.columns
    log = (tmp_path / "out" / f"{study.stem}_runlog.txt")
    log = log if log.is_file() else next((tmp_path / "out").glob("*_runlog.txt"))
    assert "fit_time" in log.read_text(encoding="utf-8")
    rep = pd.read_csv(paths["replicability.csv"])
    assert len(rep) == 2 * 6 and set(rep["repeats"]) == {2}
