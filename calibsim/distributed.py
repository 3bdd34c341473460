"""Run study cells on a Dask distributed cluster.

Dask only maps a pure function over frozen cell specs (conventions.md, item 14);
each cell's randomness comes from its identity, so results do not depend on
the number of workers or on the order in which cells finish.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable, Sequence

__all__ = ["map_cells", "dask_client"]

logger = logging.getLogger(__name__)


def map_cells(func: Callable, specs: Sequence, *, scheduler: str | None = None,
              n_workers: int | None = None, processes: bool = True,
              on_result: Callable | None = None, client=None) -> None:
    """Run ``func(spec)`` for every spec on Dask and hand each result over.

    Parameters
    ----------
    func : callable
        Pure function of one spec; it must be importable by the workers.
    specs : sequence
        Frozen cell specs, each with a unique string attribute ``key``.
    scheduler : str, optional
        Address of an existing Dask scheduler (``tcp://host:port``). By default
        a local cluster is started and stopped here.
    n_workers : int, optional
        Workers of the local cluster (one thread each); default: all cores.
        ``0`` runs every cell here, one after another, without Dask (for
        small jobs, debugging and the Python API).
    processes : bool, default True
        Local workers as processes (True) or as threads of this process.
    on_result : callable, optional
        Called in this process as ``on_result(spec, result)`` when a cell
        finishes, in completion order, e.g. to save it at once so an
        interrupted study resumes from what it saved.
    client : distributed.Client, optional
        An open client to reuse (a study with several collections starts its
        cluster once); ``scheduler`` and ``n_workers`` are then ignored.

    Raises
    ------
    ValueError
        If ``n_workers`` < 0 or two specs share a key.
    """
    from distributed import Client, LocalCluster

    keys = [spec.key for spec in specs]
    if len(set(keys)) != len(keys):
        raise ValueError("`specs` must have unique `key` attributes; got duplicates.")
    if not specs:
        return
    if client is not None:
        _run(client, func, specs, keys, on_result)
        return
    if scheduler is None and n_workers == 0:
        for spec in specs:
            result = func(spec)
            if on_result is not None:
                on_result(spec, result)
        return
    if scheduler is None:
        n_workers = os.cpu_count() if n_workers is None else n_workers
        if n_workers < 0:
            raise ValueError(f"`n_workers` must be an integer >= 0; got {n_workers!r}.")
        cluster = LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=processes,
                               dashboard_address=":0")  # any free port: never clash on 8787
    else:
        cluster = None
    client = Client(cluster if cluster is not None else scheduler)
    try:
        _run(client, func, specs, keys, on_result)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _run(client, func, specs, keys, on_result):
    from distributed import as_completed
    by_key = dict(zip(keys, specs))
    futures = client.map(func, list(specs), key=keys, pure=False)
    for future in as_completed(futures):
        result = future.result()
        if on_result is not None:
            on_result(by_key[future.key], result)
        future.release()


@contextlib.contextmanager
def dask_client(*, scheduler: str | None = None, n_workers: int | None = None):
    """A client for several :func:`map_cells` calls: yields None when ``n_workers == 0``.

    Starts (and finally stops) a local cluster of ``n_workers`` single-thread
    processes (default: all cores), or connects to ``scheduler``.
    """
    if scheduler is None and n_workers == 0:
        yield None
        return
    from distributed import Client, LocalCluster
    cluster = None if scheduler is not None else LocalCluster(
        n_workers=os.cpu_count() if n_workers is None else n_workers, threads_per_worker=1,
        processes=True, dashboard_address=":0")  # any free port: never clash on 8787
    client = Client(cluster if cluster is not None else scheduler)
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
