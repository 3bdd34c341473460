"""Seeds keyed by a study cell's identity (conventions.md, item 7).

A data set's randomness depends only on the study's root entropy, the identity
of its source and its index, never on the order of execution, the Dask worker
or the number of data sets per task.
"""

from __future__ import annotations

import zlib

import numpy as np

__all__ = ["source_key", "dataset_seeds"]

#: Names of the independent child streams of one data set, in spawn order. New names
#: go at the end: ``SeedSequence.spawn`` keys child i by its index, so appending a
#: stream leaves the earlier ones, and every saved result, unchanged.
STREAMS = ("data", "cv", "subsampling", "holdout", "cv5x2", "damage", "bootstrap")


def source_key(identity: str) -> int:
    """Return a stable 32-bit integer for a source's canonical identity string.

    CRC-32 is stable across Python processes and versions (unlike ``hash``),
    so the same source description always maps to the same seed key.

    Examples
    --------
    >>> source_key("null(n_instances=300, n_attributes=10, class_prior=0.5)")
    1488992040
    """
    return zlib.crc32(identity.encode("utf-8"))


def dataset_seeds(root_entropy: int, source: int, index: int) -> dict[str, np.random.SeedSequence]:
    """Return the child seed sequences of data set ``index`` of ``source``.

    Parameters
    ----------
    root_entropy : int
        The study's seed (non-negative).
    source : int
        Key of the data source, from :func:`source_key`.
    index : int
        Index of the data set within the study (0-based).

    Returns
    -------
    dict of str to numpy.random.SeedSequence
        One independent stream per name in ``STREAMS``: ``"data"`` draws the
        data set, ``"cv"`` the repeated cross-validation partitions,
        ``"subsampling"`` the random train/test splits, ``"holdout"`` the
        2/3 - 1/3 splits of Dietterich's tests, ``"cv5x2"`` the 5 x 2 cv
        partitions, ``"damage"`` the random errors of damaged learners
        (:class:`calibsim.learners._damaged.RandomErrors`) and ``"bootstrap"`` the
        samples and splits of the bootstrap of the cv estimate
        (:class:`calibsim.schemes.BootstrapCV`).
    """
    ss = np.random.SeedSequence(root_entropy, spawn_key=(source, index))
    return dict(zip(STREAMS, ss.spawn(len(STREAMS))))
