"""The one store and the one runner, on their own; the example studies at reduced size."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from calibsim.engine.pipeline import run_study_file
from calibsim.engine.runner import Progress, cluster, map_blocks
from calibsim.engine.store import Store, code_version, fingerprint

REPO = Path(__file__).resolve().parents[2]


def _arrays(n, start=0):
    return {"a": np.arange(start, start + n, dtype=np.int16)[:, None] * np.ones((1, 3), np.int16),
            "b": np.linspace(0, 1, n)}


def test_store_round_trip_and_identity(tmp_path):
    store = Store(tmp_path)
    key = fingerprint({"x": 1})
    assert len(key) == 20 and key == fingerprint({"x": 1}) != fingerprint({"x": 2})
    store.save(key, 0, 4, _arrays(4), identity={"x": 1})
    store.save(key, 4, 6, _arrays(2, 4), identity={"x": 1})
    np.testing.assert_array_equal(store.available(key), np.arange(6))
    out = store.load(key, 5)                       # a larger run serves a smaller one
    np.testing.assert_array_equal(out["a"][:, 0], np.arange(5))
    assert json.loads((tmp_path / key / "identity.json").read_text()) == {"x": 1}
    assert not [p for p in (tmp_path / key).iterdir() if ".tmp" in p.name]


def test_store_overlapping_blocks_and_missing(tmp_path):
    store = Store(tmp_path)
    store.save("k", 0, 4, _arrays(4), identity={})
    store.save("k", 2, 8, _arrays(6, 2), identity={})
    np.testing.assert_array_equal(store.load("k", 8)["a"][:, 0], np.arange(8))
    with pytest.raises(FileNotFoundError, match="2 of 10 data sets"):
        store.load("k", 10)


def test_store_rejects_wrong_first_dimension(tmp_path):
    with pytest.raises(ValueError, match="array `a` must have first dimension"):
        Store(tmp_path).save("k", 0, 3, _arrays(4), identity={})


def test_store_ignores_a_leftover_temporary_file(tmp_path):
    store = Store(tmp_path)
    store.save("k", 0, 2, _arrays(2), identity={})
    (tmp_path / "k" / ".00000002-00000004.npz.tmp-1").write_bytes(b"half a block")
    np.testing.assert_array_equal(store.available("k"), [0, 1])


@pytest.mark.parametrize("damage", ["not a zip", "truncated", "flipped byte"])
def test_store_quarantines_damaged_blocks(tmp_path, damage, caplog):
    store = Store(tmp_path)
    path = store.save("k", 0, 4, _arrays(4), identity={})
    data = path.read_bytes()
    path.write_bytes({"not a zip": b"hello", "truncated": data[: len(data) // 2],
                      "flipped byte": data[:200] + bytes([data[200] ^ 1]) + data[201:]}[damage])
    assert Store(tmp_path).available("k").size == 0
    assert (tmp_path / "k" / "quarantine" / path.name).is_file()
    assert "will be recomputed" in caplog.text


def test_store_moves_blocks_of_another_code_version_aside(tmp_path, monkeypatch):
    store = Store(tmp_path)
    store.save("k", 0, 2, _arrays(2), identity={})
    monkeypatch.setenv("CALIBSIM_CODE_VERSION", "other")
    code_version.cache_clear()
    try:
        assert Store(tmp_path).available("k").size == 0
        assert any((tmp_path / "k" / "stale").iterdir())
    finally:
        monkeypatch.delenv("CALIBSIM_CODE_VERSION")
        code_version.cache_clear()


class _Spec:
    def __init__(self, i):
        self.i, self.key = i, f"spec-{i}"


def _square(spec):
    return spec.i ** 2


def test_map_blocks_here_and_on_threads_agree():
    here, threads = {}, {}
    with cluster(n_workers=0) as client:
        assert client is None
        map_blocks(_square, [_Spec(i) for i in range(5)], client=client,
                   on_result=lambda s, r: here.__setitem__(s.i, r))
    with cluster(n_workers=2, processes=False) as client:
        map_blocks(_square, [_Spec(i) for i in range(5)], client=client,
                   on_result=lambda s, r: threads.__setitem__(s.i, r))
    assert here == threads == {i: i * i for i in range(5)}


def test_cluster_rejects_bad_workers_and_duplicate_keys():
    with pytest.raises(ValueError, match="`n_workers` must be an integer >= 0; got -1"):
        with cluster(n_workers=-1):
            pass
    with pytest.raises(ValueError, match="unique `key`"):
        map_blocks(_square, [_Spec(1), _Spec(1)])


def test_progress(capsys):
    with Progress(False, "quiet") as bar:
        bar.phase("data sets")
        bar.start(3)
        bar.advance(3)
    assert capsys.readouterr().err == ""
    with Progress(True, "loud") as bar:
        bar.phase("compiling kernels")
        bar.start(3, done=1)
        bar.advance(2)
    err = capsys.readouterr().err
    assert "compiling kernels" in err and "3/3" in err


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
    assert len(acc) == 8 and (acc["accuracy"] > 0.4).all() and (acc["fit_time"] > 0).all()
    rep = pd.read_csv(paths["replicability.csv"])
    assert len(rep) == 2 * 6 and set(rep["repeats"]) == {2}
