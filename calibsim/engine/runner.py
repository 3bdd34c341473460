"""The one runner: one cluster builder, one map over cells, one progress display.

Local workers are a process pool from loky (scikit-learn's ``n_jobs`` pool, through
joblib), so ``n_jobs``/``--workers`` work from a plain script without
``if __name__ == "__main__":``, from a notebook and from the command line; a running
Dask scheduler (``scheduler=``/``--scheduler``) serves clusters of other machines.
Either way the runner only maps the pure cell function over frozen cell specs
(conventions.md, item 14); each cell's randomness comes from its identity, so results do
not depend on the number of workers or the order in which cells finish. Dask's and
distributed's own log lines are hidden unless :func:`show_dask_logs` (``--verbose``).
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import time
import uuid

__all__ = ["cluster", "map_blocks", "warm_up", "Progress", "LocalPool", "ClusterLost",
           "show_dask_logs", "end_local_workers", "start_local_workers"]

logger = logging.getLogger(__name__)

#: Show Dask's and distributed's own log lines (``--verbose``); hidden by default.
_DASK_LOGS = {"show": False}


def show_dask_logs(show: bool = True) -> None:
    """Let Dask's and distributed's log lines through (the command line's ``--verbose``).

    By default calibsim hides them while it runs on a cluster: a lost scheduler or a
    failing task is reported in one line of calibsim's own instead.
    """
    _DASK_LOGS["show"] = bool(show)


class _DropDask(logging.Filter):
    def filter(self, record):
        return not record.name.startswith(("distributed", "dask", "tornado", "bokeh"))


@contextlib.contextmanager
def _quiet_dask():
    """Drop distributed's, Dask's and tornado's log records for the duration (unless
    :func:`show_dask_logs`): the handlers of the root and of those loggers get a filter."""
    if _DASK_LOGS["show"]:
        yield
        return
    import distributed  # noqa: F401 - its logging handlers exist from its import on
    flt = _DropDask()
    handlers = set()
    for name in ("", "distributed", "dask", "tornado", "bokeh"):
        handlers.update(logging.getLogger(name).handlers)
    handlers.add(logging.lastResort) if logging.lastResort is not None else None
    for h in handlers:
        h.addFilter(flt)
    try:
        yield
    finally:
        for h in handlers:
            h.removeFilter(flt)


#: Memory growth (bytes) after its first block at which loky replaces a local worker.
#: loky's own bound, 300 MB, is crossed by one-time work that is no leak: the hierarchical
#: Bayesian test's first block imports JAX and compiles its sampler (about 1 GB), so every
#: worker was replaced, with loky's warning "... memory leak", and the new ones imported
#: and compiled again (bayesian_hierarchical at --n-datasets 10: 65-66 s, 42-43 s with
#: this bound, same peak memory).
WORKER_MEMORY_GROWTH = 2 * 1024 ** 3


#: Seconds between a local worker's checks that the process that started it is alive.
PARENT_POLL = 0.05


def _end_with_parent(parent: int):
    """End this worker within :data:`PARENT_POLL` seconds of its parent's death (kill -9
    of ``calibsim run`` would otherwise leave the workers computing, orphaned).

    A daemon thread polls ``os.getppid()``: when the parent is gone the worker is
    re-parented and the thread ends the process with SIGKILL; ``parent`` is the pid the
    pool was made in, so a worker whose parent died while it was still starting ends as
    soon as it has started. (The kernel's parent-death
    signal, ``prctl(PR_SET_PDEATHSIG)``, fires when the *thread* that started the worker
    ends, and loky starts workers from its manager thread too, so it is not used.)
    """
    import signal
    import threading
    import time

    def watch():
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=watch, name="calibsim-parent-watch", daemon=True).start()


def _cap_memory():
    """Cap this process's address space at what it has now plus calibsim's memory limit
    (``CALIBSIM_MEMORY_LIMIT``, else half the machine's memory), so a fit that asks for
    more fails with ``MemoryError`` instead of exhausting the machine. Returns the
    previous (soft, hard) limits, or None where the cap cannot be set."""
    try:
        import resource

        from .._validation import memory_limit
        with open("/proc/self/statm") as fh:
            vm = int(fh.read().split()[0]) * resource.getpagesize()
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = vm + memory_limit()
        if hard != resource.RLIM_INFINITY:
            cap = min(cap, hard)
        if soft != resource.RLIM_INFINITY and soft <= cap:
            return None                  # a tighter cap is already set: keep it
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
        return soft, hard
    except (ImportError, OSError, ValueError):     # not Linux, or not allowed
        return None


def _worker_init(parent: int | None = None):
    """Each local worker ignores Ctrl-C (the main process handles it, once, and ends them),
    ends when its parent ``parent`` dies (:func:`_end_with_parent`), has its memory
    capped (:func:`_cap_memory`) and is replaced only when its memory grew by
    :data:`WORKER_MEMORY_GROWTH`."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _end_with_parent(os.getppid() if parent is None else parent)
    _cap_memory()
    from .learners import collect_warnings
    collect_warnings()
    from joblib.externals.loky import process_executor
    if hasattr(process_executor, "_MAX_MEMORY_LEAK_SIZE"):   # loky's bound, read per block
        process_executor._MAX_MEMORY_LEAK_SIZE = WORKER_MEMORY_GROWTH


def _collecting(func, spec):
    """``func(spec)`` on a local worker, with the learners' warnings it raised."""
    from . import learners
    if learners.WORKER_WARNINGS is not None:
        learners.WORKER_WARNINGS.clear()
    result = func(spec)
    return result, list(learners.WORKER_WARNINGS or ())


def _repeat_warnings(records) -> None:
    """The workers' warnings, warned again here (once each) so that this process's
    handler counts them by category and learner (``filename`` carries the learner)."""
    import warnings
    for category, label, text in records:
        warnings.warn_explicit(text, category, f"learner {label}", 0)


#: The variables that set the threads of BLAS, OpenMP and numba's parallel loops (joblib's
#: list). A local worker runs each at 1 unless this process's environment sets it.
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                    "BLIS_NUM_THREADS", "VECLIB_MAXIMUM_THREADS", "NUMBA_NUM_THREADS",
                    "NUMEXPR_NUM_THREADS")


def worker_threads_env() -> dict:
    """The thread variables of a local worker: 1 each, or the value set in this process's
    environment (a researcher who wants threaded BLAS in each worker sets them).

    Without them every worker's OpenBLAS and OpenMP start one thread per core, so W
    workers run W x cores threads on the cores. OpenBLAS threads wait by spinning, and
    scikit-learn learners slowed down up to 13x: example_uci_four_learners (logistic
    regression) at --n-datasets 10 took 220-302 s on 2 workers, against 46 s in one
    process and 17 s with these variables. The same value for any worker count keeps one
    pool (and its compiled kernels) when the count changes; a dot product is computed by
    one thread either way, and the outputs are identical to those of ``n_workers=0``.

    Returns
    -------
    dict of str to str
        One entry per name of :data:`THREAD_VARIABLES`: the thread count as a string.

    Examples
    --------
    >>> sorted(worker_threads_env()) == sorted(THREAD_VARIABLES)
    True
    """
    return {var: os.environ.get(var, "1") for var in THREAD_VARIABLES}


class LocalPool:
    """``n_workers`` local worker processes: loky's reusable process pool.

    What :func:`cluster` yields for local workers. Unlike a Dask ``LocalCluster``, whose
    processes start by re-running the calling script, loky's workers unpickle only the
    function and its arguments, so a plain script without ``if __name__ ==
    "__main__":`` works, as scikit-learn's ``n_jobs`` does. The pool is kept between
    calls (its workers keep their compiled kernels) and ends with the process.

    Parameters
    ----------
    n_workers : int
        Worker processes (>= 1), each single-threaded, BLAS and OpenMP included (a
        scikit-learn learner's; :func:`worker_threads_env`).
    """

    def __init__(self, n_workers: int):
        from joblib.externals.loky import get_reusable_executor
        self.n_workers = int(n_workers)
        self.executor = get_reusable_executor(max_workers=self.n_workers, timeout=300,
                                              initializer=_worker_init,
                                              initargs=(os.getpid(),),
                                              env=worker_threads_env())
        _LAST_POOL["pool"] = self

    def submit(self, func, *args):
        """``func(*args)`` on a worker: a ``concurrent.futures.Future``."""
        return self.executor.submit(func, *args)

    def run(self, func):
        """``func()`` once per worker slot, waiting for all (e.g. to compile the kernels)."""
        for f in self.run_soon(func):
            f.result()

    def run_soon(self, func) -> list:
        """``func()`` once per worker slot, without waiting: the futures (e.g. to import
        what the next phase needs while this process works on)."""
        return [self.submit(func) for _ in range(self.n_workers)]

    def kill(self):
        """End the workers now (after Ctrl-C or a failure): queued work is dropped."""
        # Empty loky's queue of submitted ids first. With kill_workers=True its manager
        # thread fails and forgets every pending work item, then looks up the ids still in
        # that queue and dies printing a KeyError traceback (joblib 1.6.0, loky 3.7.0;
        # CPython's own pool drains the queue there). Only this thread submits, so nothing
        # is queued again before the shutdown.
        work_ids = getattr(self.executor, "_work_ids", None)
        try:
            while work_ids is not None:
                work_ids.get_nowait()
        except Exception:                  # noqa: BLE001 - queue.Empty: drained
            pass
        try:
            self.executor.shutdown(wait=False, kill_workers=True)
        except Exception:                  # noqa: BLE001 - already broken or gone
            pass

    def __repr__(self):
        return f"LocalPool(n_workers={self.n_workers})"


#: The last :class:`LocalPool` made here (they share loky's one reusable executor).
_LAST_POOL = {"pool": None}


def end_local_workers() -> None:
    """End this process's local worker processes (:class:`LocalPool`) at once.

    For a program about to exit whose results are all handed over (the command line,
    once a run's outputs are written). Python's exit would otherwise stop loky's pool
    gently, waiting for each worker's interpreter to shut down (numba, scikit-learn,
    ...): about a second after every run's last output, whatever the number of workers
    (issue 46). Queued work is dropped, as for :meth:`LocalPool.kill`; a later
    :class:`LocalPool` starts new workers. Does nothing when no pool was made.

    Examples
    --------
    >>> end_local_workers()
    """
    pool, _LAST_POOL["pool"] = _LAST_POOL["pool"], None
    if pool is not None:
        pool.kill()


def start_local_workers(n_workers: int | None = None) -> LocalPool:
    """Start the local worker processes of a run now, each loading the kernels, and
    return at once.

    A :func:`cluster` made later in this process with the same ``n_workers`` gets these
    workers (loky's reusable pool). The command line starts them before it imports the
    analyses and reads the study file, so the workers start and load their kernels
    meanwhile instead of after (issue 46).

    Parameters
    ----------
    n_workers : int, optional
        As for :func:`cluster` (default ``os.cpu_count()``); must not be 0.

    Returns
    -------
    LocalPool

    Raises
    ------
    ValueError
        If ``n_workers`` is not an integer in [1, 4 x cores].
    """
    check_n_workers(n_workers)
    if n_workers == 0:
        raise ValueError("`n_workers` must be >= 1 to start local workers; got 0.")
    pool = LocalPool(n_workers or os.cpu_count() or 1)
    pool.run_soon(_compile_kernels)
    return pool


def check_n_workers(n_workers, scheduler=None) -> None:
    """Refuse a local worker count that is not an integer in [0, 4 x cores].

    Raises
    ------
    ValueError
        Naming ``n_workers`` (``--workers``), the rule and the value.
    """
    if n_workers is None:
        return
    if isinstance(n_workers, bool) or not isinstance(n_workers, int) or n_workers < 0:
        raise ValueError(f"`n_workers` must be an integer >= 0; got {n_workers!r}.")
    most = 4 * (os.cpu_count() or 1)
    if n_workers > most and scheduler is None:
        raise ValueError(f"`n_workers` (--workers) must be at most 4 x this machine's "
                         f"{os.cpu_count()} cores = {most} (each local worker is a process "
                         "with its own copy of the data); got "
                         f"{n_workers}. For more, start workers on other machines and pass "
                         "their scheduler's address (--scheduler).")


@contextlib.contextmanager
def cluster(*, scheduler: str | None = None, n_workers: int | None = None,
            processes: bool = True, timeout: float = 10.0):
    """Where a run computes: local worker processes, a Dask cluster, or this process.

    Parameters
    ----------
    scheduler : str, optional
        Address of an existing Dask scheduler (``tcp://host:port``); its workers are used.
    n_workers : int, optional
        Local single-thread workers (default: ``os.cpu_count()``): a loky process pool
        (:class:`LocalPool`); 0 runs every cell in this process. Ignored (with a
        warning) when ``scheduler`` is given.
    processes : bool, default True
        Local workers as processes (True) or as the threads of an in-process Dask
        cluster (False; for tests).
    timeout : float, default 10.0
        Seconds to wait for ``scheduler`` to answer.

    Yields
    ------
    LocalPool, distributed.Client or None

    Raises
    ------
    ValueError
        If ``n_workers`` is not an integer in [0, 4 x cores] or ``timeout`` is not > 0.
    OSError
        If ``scheduler`` cannot be reached within ``timeout``, or what answers there is
        not a Dask scheduler (the message names the address).

    Examples
    --------
    >>> with cluster(n_workers=0) as client:
    ...     print(client)
    None
    """
    check_n_workers(n_workers, scheduler)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
        raise ValueError(f"`timeout` must be a number of seconds > 0; got {timeout!r}.")
    if scheduler is None and n_workers == 0:
        logger.info("running every cell in this process (n_workers=0)")
        yield None
        return
    if scheduler is None and processes:
        pool = LocalPool(n_workers or os.cpu_count() or 1)
        logger.info("local process pool: %d single-thread workers", pool.n_workers)
        try:
            yield pool
        except BaseException:
            pool.kill()                      # Ctrl-C or a failure: no worker runs on
            raise
        return
    with _quiet_dask():
        from distributed import Client, LocalCluster
        local = None
        if scheduler is None:
            n = n_workers or os.cpu_count() or 1
            local = LocalCluster(n_workers=n, threads_per_worker=1, processes=False,
                                 dashboard_address=":0")  # any free port: never clash on 8787
            try:
                client = Client(local)
            except BaseException:
                local.close()
                raise
            logger.info("local Dask cluster: %d single-thread worker threads, dashboard %s",
                        n, client.dashboard_link)
        else:
            if n_workers is not None:
                logger.warning("`n_workers`=%r is ignored: the workers of the scheduler at %s "
                               "are used", n_workers, scheduler)
            client = _connect(Client, scheduler, timeout)
            logger.info("connected to the Dask scheduler at %s (%d workers)", scheduler,
                        len(client.scheduler_info().get("workers", {})))
        try:
            yield client
        finally:
            try:
                client.close()
            finally:
                if local is not None:
                    local.close()


def _connect(Client, scheduler: str, timeout: float):
    """``Client(scheduler)`` within ``timeout`` seconds, however the far end behaves.

    Dask's own timeout covers opening the connection, not a peer that accepts it and
    then says nothing (a dashboard port) or answers in another protocol (an HTTP
    server, whose reply Dask would read as a frame length of exabytes): the client is
    made in a helper thread that is abandoned after ``2 * timeout + 5`` seconds.
    """
    import socket
    import threading
    from urllib.parse import urlsplit
    hint = ("; the scheduler's port is usually 8786 (8787 is its dashboard), and the "
            "address is tcp://host:port")
    try:
        parts = urlsplit(scheduler if "://" in str(scheduler) else f"tcp://{scheduler}")
        host, port = parts.hostname, parts.port
    except (TypeError, ValueError):
        host = port = None
    if host and port and parts.scheme in ("tcp", "tls"):
        try:              # a refused port answers at once: no need for Dask's retries
            socket.create_connection((host, port), timeout=timeout).close()
        except ConnectionRefusedError:
            raise OSError(f"`scheduler` (--scheduler) {scheduler!r}: the connection was "
                          f"refused (nothing listens at {host}:{port}){hint}") from None
        except OSError:
            pass          # unresolved or slow: Dask's own attempt below says so
    out = {}

    def connect():
        try:
            out["client"] = Client(scheduler, timeout=f"{timeout}s")
        except BaseException as exc:       # noqa: BLE001 - reported below, in this thread
            out["error"] = exc

    thread = threading.Thread(target=connect, name="calibsim-connect", daemon=True)
    thread.start()
    thread.join(2 * timeout + 5)
    if thread.is_alive():
        raise OSError(f"`--scheduler` {scheduler!r}: something listens there but did not "
                      f"answer as a Dask scheduler within {2 * timeout + 5:g} s{hint}")
    if "error" in out:
        exc = out["error"]
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise exc
        raise OSError(f"`--scheduler` {scheduler!r}: no Dask scheduler answered within "
                      f"{timeout:g} s ({type(exc).__name__}: {str(exc)[:200]}){hint}") from None
    return out["client"]


def map_blocks(func, specs, *, client=None, on_result=None, resumable: bool = True) -> None:
    """Run ``func(spec)`` for every spec and hand each result to ``on_result(spec, result)``.

    Specs need a unique string attribute ``key``. Without a client the specs run here,
    in order; with one (a :class:`LocalPool` or a Dask client), on its workers, and
    ``on_result`` is called in this process in completion order (e.g. to save each
    block at once, so an interrupted study resumes). Each result is released once
    handed over; the Dask task keys are ``<spec.key>-<token of this call>``.

    Parameters
    ----------
    func : callable
        ``func(spec) -> result``; with a client it must be picklable (module level).
    specs : iterable
        Objects with a unique ``str`` attribute ``key`` (also the Dask task key).
    client : LocalPool or distributed.Client, optional
        Where to run; None runs here.
    on_result : callable, optional
        ``on_result(spec, result)``, called in this process as each result arrives.
    resumable : bool, default True
        Whether the caller saves each result (a study's store): the :class:`ClusterLost`
        message then says that running the same command again resumes.

    Raises
    ------
    ValueError
        If two specs share a key.
    ClusterLost
        If the scheduler, or a local worker process, went away; one line says how many
        blocks were done and what to do.
    Exception
        Whatever ``func`` or ``on_result`` raises first; the tasks not yet finished
        are then cancelled.
    """
    specs = list(specs)
    keys = [spec.key for spec in specs]
    if len(set(keys)) != len(keys):
        raise ValueError("`specs` must have unique `key` attributes; got duplicates.")
    if not specs:
        return
    if client is None:
        previous = _cap_memory()
        done = 0
        try:
            for spec in specs:
                try:
                    result = func(spec)
                except MemoryError:
                    raise _out_of_memory(spec, done, len(specs), resumable, "this process") \
                        from None
                if on_result is not None:
                    on_result(spec, result)
                done += 1
        finally:
            if previous is not None:
                import resource
                resource.setrlimit(resource.RLIMIT_AS, previous)
        return
    if isinstance(client, LocalPool):
        return _map_local(func, specs, client, on_result, resumable)
    with _quiet_dask():
        return _map_dask(func, specs, keys, client, on_result, resumable)


def _first_line(exc) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0][:160].rstrip(". ") if lines else "no detail"


def _out_of_memory(spec, done, total, resumable, where):
    """The one line for a block whose fit passed the memory cap."""
    from .._validation import memory_limit, size_text
    return ClusterLost(
        f"block {spec.key} needed more memory in {where} than the cap of "
        f"{size_text(memory_limit())} (CALIBSIM_MEMORY_LIMIT) after {done} of {total} "
        f"blocks; a learner's fit asks for too much (smaller parameters, or raise "
        f"CALIBSIM_MEMORY_LIMIT); {_resume_text(resumable)}")


def _resume_text(resumable: bool) -> str:
    return ("every block finished before that is saved, so the same command run again "
            "resumes from them" if resumable else
            "nothing of this call is kept: run it again")


def _map_local(func, specs, pool, on_result, resumable):
    """:func:`map_blocks` on a :class:`LocalPool`."""
    from concurrent.futures import as_completed
    from concurrent.futures.process import BrokenProcessPool
    futures = {pool.submit(_collecting, func, spec): spec for spec in specs}
    done = 0
    try:
        for future in as_completed(futures):
            result, records = future.result()
            _repeat_warnings(records)
            if on_result is not None:
                on_result(futures[future], result)
            done += 1
    except MemoryError:
        pool.kill()
        raise _out_of_memory(futures[future], done, len(specs), resumable,
                             "a local worker") from None
    except BrokenProcessPool as exc:
        pool.kill()
        raise ClusterLost(
            f"a local worker process died after {done} of {len(specs)} blocks "
            f"({type(exc).__name__}: {_first_line(exc)}; often out of memory); "
            f"{_resume_text(resumable)} (fewer workers use less "
            "memory)") from None
    except BaseException:
        # no cancelling here: the caller's cluster() ends the pool's workers on the way out
        # (loky then fails what was queued; a cancelled future would trip its manager)
        pool.kill()
        raise


def _map_dask(func, specs, keys, client, on_result, resumable):
    """:func:`map_blocks` on a Dask client."""
    from distributed import as_completed
    # the Dask keys: the spec's key and a token of this call, so that a key held on a
    # shared scheduler (another run, or an earlier call that failed) is never reused
    token = uuid.uuid4().hex[:8]
    task_keys = [f"{key}-{token}" for key in keys]
    by_key = dict(zip(task_keys, specs))
    from concurrent.futures import CancelledError

    from distributed import TimeoutError as DaskTimeout
    from distributed.comm.core import CommClosedError
    futures = client.map(func, specs, key=task_keys, pure=False)
    done = 0
    try:
        for future in as_completed(futures):
            result = future.result()
            if on_result is not None:
                on_result(by_key[future.key], result)
            future.release()
            done += 1
    except (CancelledError, CommClosedError, DaskTimeout) as exc:
        _cancel_quietly(client, futures)
        raise ClusterLost(
            f"the Dask cluster was lost after {done} of {len(specs)} blocks "
            f"({type(exc).__name__}: {_first_line(exc)}); "
            f"{_resume_text(resumable)} (check the scheduler and its workers, or run "
            "without --scheduler)") from None
    except BaseException:
        _cancel_quietly(client, futures)
        raise
    finally:
        for future in futures:
            future.release()


def _cancel_quietly(client, futures):
    try:
        client.cancel([f for f in futures if not f.done()])
    except Exception:                      # noqa: BLE001 - the scheduler may be gone
        pass


class ClusterLost(RuntimeError):
    """The Dask scheduler, all its workers, or a local worker process went away.

    Raised by :func:`map_blocks` instead of Dask's ``FutureCancelledError`` or
    ``CommClosedError`` or loky's ``TerminatedWorkerError``; the message says how many
    blocks were handed over (and so saved by the caller) and that rerunning resumes
    from them. The command line ends with this one line and exit status 3.
    """


def _compile_kernels():
    """Compile (or load from numba's cache) the evaluation kernels on a tiny data set."""
    from ..evaluate import score_splits
    from ..schemes import StratifiedRepeatedCV
    from ..sources import NullSource
    X, y = NullSource(n_instances=20, n_attributes=3).sample(0)
    score_splits(X, y, StratifiedRepeatedCV(n_folds=2, n_runs=1).test_masks(y, 0),
                 learners=("naive_bayes", "c45", "ib1", "tan", "voted_perceptron"))
    return True


def warm_up(client=None) -> float:
    """Compile the kernels once per worker (here without a client); returns seconds."""
    t0 = time.perf_counter()
    if client is None:
        _compile_kernels()
    elif isinstance(client, LocalPool):
        client.run(_compile_kernels)
    else:
        with _quiet_dask():
            client.run(_compile_kernels)
    return time.perf_counter() - t0


class Progress:
    """Progress of a run on stderr (tqdm; a notebook widget where one can show), or silent.

    Parameters
    ----------
    enabled : bool
        Show a bar; when False every method only logs.
    desc : str
        What runs (e.g. the study name).
    unit : str, default "data set"
        What the bar counts.
    delay : float, default 0
        Seconds before the bar appears (a call that ends sooner shows nothing).
    estimate : bool, default False
        Print one line with the time left, measured once the first blocks have
        finished on every worker (``start(..., workers=W)``): the time to the first
        results (numba compiling or loading kernels, workers starting) is not
        extrapolated. Only when more than ~10 s remain.
    notebook : bool, default False
        In a Jupyter notebook draw the bar as a widget (``tqdm.auto``).

    Examples
    --------
    >>> with Progress(False, "demo") as bar:
    ...     bar.phase("data sets"); bar.start(10); bar.advance(10)
    """

    def __init__(self, enabled: bool, desc: str, *, unit: str = "data set",
                 delay: float = 0.0, estimate: bool = False, notebook: bool = False):
        self.enabled, self.desc, self._bar, self._phase = bool(enabled), desc, None, ""
        self.unit, self.delay, self.notebook = unit, float(delay), bool(notebook)
        self._estimate = bool(estimate)
        self._times, self._workers, self._total, self._n = [], 1, 0, 0

    def phase(self, text: str):
        """Say what is being done now (compiling kernels, data sets, analyses, ...)."""
        logger.info("%s: %s", self.desc, text)
        self._phase = text
        if not self.enabled:
            return
        if self._bar is not None and self._bar.total and self._bar.n >= self._bar.total:
            self.close()                     # a finished bar keeps its own description
        if self._bar is None:
            if not self.delay:               # a delayed bar stays quiet until it shows
                print(f"{self.desc}: {text}", file=sys.stderr, flush=True)
        else:
            self._bar.set_description_str(f"{self.desc}: {text}")

    def start(self, total: int, done: int = 0, *, workers: int = 1):
        """A bar over ``total`` units, ``done`` of them already saved; ``workers`` run at
        once (for the estimate)."""
        self._times, self._workers, self._total, self._n = [], max(1, int(workers)), total, done
        self._t0 = time.perf_counter()
        if not self.enabled:
            return
        if self.notebook:
            from tqdm.auto import tqdm
        else:
            from tqdm import tqdm
        if self._bar is not None:
            self._bar.close()
        desc = f"{self.desc}: {self._phase}" if self._phase else self.desc
        self._bar = tqdm(total=total, initial=done, desc=desc, unit=self.unit,
                         file=sys.stderr, dynamic_ncols=True, delay=self.delay)

    def advance(self, n: int):
        """Count ``n`` more units done."""
        self._n += n
        if self._bar is not None:
            self._bar.update(n)
        if self._estimate and self.enabled and self._times is not None:
            self._times.append(time.perf_counter())
            self._maybe_estimate()

    def _maybe_estimate(self):
        """After W + 1 results (W workers) the rate since the first result is the rate
        of work without the first results' start-up; say once what it makes the rest."""
        times, w = self._times, self._workers
        left = self._total - self._n
        if len(times) < w + 1 or left <= 0:
            return
        rate = (len(times) - 1) / max(times[-1] - times[0], 1e-9)
        rest = left / rate
        self._times = None                   # said once
        if rest < 10:
            return
        first = times[0] - self._t0
        text = (f"{self.desc}: {self._n} of {self._total} {self.unit}s in "
                f"{times[-1] - self._t0:.0f} s (the first after {first:.0f} s, with compiling "
                f"and start-up); the other {left} take about {_duration(rest)} at this rate")
        if self._bar is not None:
            self._bar.write(text, file=sys.stderr)
        else:
            print(text, file=sys.stderr, flush=True)

    def close(self):
        """End the bar (a finished bar stays on screen); safe to call twice."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.1f} min"
