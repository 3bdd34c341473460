"""The runner: one cluster builder, one map over cells, one progress display."""

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from calibsim.engine.runner import Progress, cluster, map_blocks, warm_up

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]


class _Spec:
    def __init__(self, i):
        self.i, self.key = i, f"test-runner-spec-{i}"


def _square(spec):
    return spec.i ** 2


def _fail_on_three(spec):
    if spec.i == 3:
        raise RuntimeError("cell 3 failed")
    return spec.i


def _collect(client, func=_square, n=6):
    got, order = {}, []

    def on_result(spec, result):
        got[spec.i] = result
        order.append(spec.i)
    map_blocks(func, [_Spec(i) for i in range(n)], client=client, on_result=on_result)
    return got, order


def test_no_workers_runs_here_in_order():
    with cluster(n_workers=0) as client:
        assert client is None
        got, order = _collect(client)
    assert got == {i: i * i for i in range(6)} and order == list(range(6))
    map_blocks(_square, [])                          # nothing to do
    map_blocks(_square, [_Spec(1)])                  # no on_result


def test_threads_cluster_agrees_with_this_process():
    here, _ = _collect(None)
    with cluster(n_workers=2, processes=False) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        threads, order = _collect(client)
        assert sorted(order) == list(range(6))
        with pytest.raises(RuntimeError, match="cell 3 failed"):
            _collect(client, _fail_on_three)
        again, _ = _collect(client)                  # the same spec keys run again
    assert here == threads == again


@pytest.mark.parametrize("bad", [-1, 1.5, True, "2"])
def test_cluster_validates_n_workers(bad):
    with pytest.raises(ValueError, match=r"`n_workers` must be an integer >= 0; got "):
        with cluster(n_workers=bad):
            pass


def test_map_blocks_rejects_duplicate_keys():
    with pytest.raises(ValueError, match="unique `key`"):
        map_blocks(_square, [_Spec(1), _Spec(1)])


def test_unreachable_scheduler_fails_quickly_naming_it():
    t0 = time.perf_counter()
    with pytest.raises(OSError, match=r"tcp://127\.0\.0\.1:1"):
        with cluster(scheduler="tcp://127.0.0.1:1", timeout=1):
            pass
    assert time.perf_counter() - t0 < 10
    with pytest.raises(ValueError, match="`timeout` must be"):
        with cluster(scheduler="tcp://127.0.0.1:1", timeout=0):
            pass


def test_warm_up_here():
    assert warm_up(None) >= 0


def test_progress_disabled_is_silent_but_logs(capsys, caplog):
    with caplog.at_level("INFO", logger="calibsim.engine.runner"):
        with Progress(False, "quiet") as bar:
            bar.phase("data sets")
            bar.start(3)
            bar.advance(3)
            bar.close()
    captured = capsys.readouterr()
    assert captured.err == "" and captured.out == ""
    assert "quiet: data sets" in caplog.text


def test_progress_enabled_writes_to_stderr(capsys):
    with Progress(True, "loud") as bar:
        bar.phase("compiling kernels")
        bar.phase("data sets")
        bar.start(4, done=1)
        bar.advance(3)
        bar.phase("analyses")
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "compiling kernels" in captured.err and "4/4" in captured.err
    assert "loud: data sets" in captured.err and "analyses" in captured.err


def _dask_command(name):
    exe = shutil.which("dask")
    if exe is not None:
        return [exe, name]
    return [sys.executable, "-m", f"distributed.cli.dask_{name}"]


@pytest.mark.slow
def test_map_blocks_on_a_real_scheduler_and_worker(tmp_path):
    """A scheduler and a worker as separate processes on 127.0.0.1."""
    sched_file = tmp_path / "s.json"
    # the scheduler and the worker unpickle this module's functions and specs
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(HERE), str(REPO), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO, env=env)
    procs = []
    try:
        procs.append(subprocess.Popen(
            _dask_command("scheduler") + ["--host", "127.0.0.1", "--port", "0",
                                          "--dashboard-address", ":0",
                                          "--scheduler-file", str(sched_file)], **quiet))
        deadline = time.monotonic() + 60
        while not (sched_file.is_file() and sched_file.stat().st_size):
            assert procs[0].poll() is None, "the scheduler exited"
            assert time.monotonic() < deadline, "no scheduler file after 60 s"
            time.sleep(0.1)
        procs.append(subprocess.Popen(
            _dask_command("worker") + ["--scheduler-file", str(sched_file), "--nthreads", "1",
                                       "--nworkers", "1", "--host", "127.0.0.1",
                                       "--dashboard-address", ":0"], **quiet))
        address = json.loads(sched_file.read_text())["address"]
        with cluster(scheduler=address, timeout=30) as client:
            client.wait_for_workers(1, timeout=60)
            assert len(client.scheduler_info()["workers"]) >= 1
            got, _ = _collect(client)
        assert got == {i: i * i for i in range(6)}
    finally:
        for p in procs[::-1]:
            p.terminate()
        for p in procs[::-1]:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def _loky_memory_bound():
    from joblib.externals.loky import process_executor
    return process_executor._MAX_MEMORY_LEAK_SIZE


def test_local_workers_are_not_replaced_for_one_time_memory_growth():
    """loky's 300 MB bound replaced every worker after the hierarchical test's first block
    (JAX, about 1 GB), warning of a memory leak; the local pool's workers use 2 GB."""
    from calibsim.engine.runner import WORKER_MEMORY_GROWTH
    assert WORKER_MEMORY_GROWTH == 2 * 1024 ** 3
    with cluster(n_workers=1) as pool:
        assert pool.submit(_loky_memory_bound).result() == WORKER_MEMORY_GROWTH


def _thread_variables():
    from calibsim.engine.runner import THREAD_VARIABLES
    return {var: os.environ.get(var) for var in THREAD_VARIABLES}


def test_local_workers_run_blas_and_openmp_single_threaded(monkeypatch):
    """W workers each with one OpenBLAS thread per core spun W x cores threads on the cores
    (scikit-learn learners up to 13x slower); a variable set here is passed on."""
    from calibsim.engine.runner import THREAD_VARIABLES, worker_threads_env
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    monkeypatch.setenv("MKL_NUM_THREADS", "3")
    env = worker_threads_env()
    assert env["OMP_NUM_THREADS"] == "1" and env["MKL_NUM_THREADS"] == "3"
    monkeypatch.undo()
    with cluster(n_workers=1) as pool:
        seen = pool.submit(_thread_variables).result()
    assert seen == {var: os.environ.get(var, "1") for var in THREAD_VARIABLES}


def test_end_local_workers_ends_them_at_once_and_a_new_pool_starts_afresh():
    """The command line ends its workers once a run's outputs are written, instead of
    Python's exit waiting for each to shut its interpreter down (issue 46)."""
    from calibsim.engine.runner import end_local_workers
    with cluster(n_workers=1) as pool:
        old = pool.submit(os.getpid).result()
    workers = list(pool.executor._processes.values())
    t0 = time.perf_counter()
    end_local_workers()
    while any(w.is_alive() for w in workers) and time.perf_counter() - t0 < 10:
        time.sleep(0.01)
    assert not any(w.is_alive() for w in workers)
    end_local_workers()                              # nothing left: does nothing
    with cluster(n_workers=1) as pool:
        assert pool.submit(os.getpid).result() != old


def test_workers_started_early_are_the_runs_workers():
    """The command line starts its workers before it imports the analyses (issue 46); the
    run's cluster then gets those same processes, not new ones."""
    from calibsim.engine.runner import start_local_workers
    with pytest.raises(ValueError, match="`n_workers` must be >= 1"):
        start_local_workers(0)
    early = start_local_workers(1)
    pid = early.submit(os.getpid).result()
    with cluster(n_workers=1) as pool:
        assert pool.executor is early.executor and pool.submit(os.getpid).result() == pid
