"""The one store: fingerprinted, atomic, checksummed, resumable blocks of score arrays.

Blocks of one fingerprint ``K`` (a hash of everything that determines the arrays:
seed, source, scheme, learners) live in ``<root>/K/`` as
``<start:08d>-<stop:08d>.npz`` beside ``identity.json`` (what the folder holds, for
a person to read). Each block carries a ``__meta__`` record: its index range, the
names, dtypes and shapes of its arrays, a SHA-256 checksum over their bytes, the
calibsim version and the **code version** (:func:`code_version`, a hash of the
sources of the learners, data sources, schemes and cell function).

Rules:

- a block is written to a temporary file and renamed (atomic), so a killed run never
  leaves half a block; a leftover temporary file is ignored, and removed by
  :meth:`Store.clean` (``calibsim clean``; every run removes those of finished
  processes);
- a block that cannot be read (whatever the error, MemoryError included: an array
  header that claims more bytes than the block holds is refused before numpy
  allocates them), whose range disagrees with its name or whose checksum does not
  match is moved to ``K/quarantine/`` with a one-line warning, and its data sets are
  recomputed: a damaged block is never used;
- a block records its own key; found in another key's folder (copied or moved
  there) it is moved to ``quarantine/`` and never used for that key;
- ``identity.json`` must hash to ``K`` (:func:`fingerprint`); one that does not
  (edited by hand, say seed 7 changed to 9, or copied from another folder) is moved to
  ``K/quarantine/`` with every block of ``K`` and a one-line warning, and the data
  sets are recomputed;
- a block computed by another code version is moved to ``K/stale/`` with a warning
  and recomputed: a kernel or learner change is never mixed silently with older
  blocks (set ``CALIBSIM_CODE_VERSION`` to pin the version, e.g. in tests);
- blocks may overlap (runs with other block sizes); each data set is taken from the
  first valid block that covers it (blocks ordered by start, then stop), and a larger
  earlier run serves a smaller one;
- validation results are cached per (path, modification time, size, inode) in
  the :class:`Store` instance, so :meth:`Store.available` then :meth:`Store.load`
  hash every block once; files in ``K/`` not named like a block are ignored.

Examples
--------
>>> import tempfile
>>> import numpy as np
>>> store = Store(tempfile.mkdtemp())
>>> key = fingerprint({"study": "demo"})
>>> _ = store.save(key, 0, 3, {"score": np.arange(3.0)}, identity={"study": "demo"})
>>> store.available(key)
array([0, 1, 2])
>>> store.load(key, 2)["score"]
array([0., 1.])
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import operator
import re
import zipfile
from pathlib import Path

import numpy as np

__all__ = ["Store", "fingerprint", "code_version"]

logger = logging.getLogger(__name__)

_BLOCK_NAME = re.compile(r"^(\d{8,})-(\d{8,})\.npz$")
_KEY = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9_.-]*$")

#: Folders whose every ``.py`` file determines the score arrays, and single files that do.
#: The package's folder (``calibsim/``), found from this file, not by importing the package
#: above the engine.
_PACKAGE = Path(__file__).parent.parent
_SCORE_DIRS = ("learners", "sources", "evaluate", "schemes", "datasets")
_SCORE_FILES = ("_rng.py", "engine/cells.py", "engine/learners.py", "engine/_tuned.py",
                "engine/_tuned_spec.py")


@functools.lru_cache(maxsize=1)
def code_version() -> str:
    """12 hex digits of SHA-256 over the sources that determine the score arrays.

    Hashed, in order of their path relative to the package, are the paths and bytes
    of every ``.py`` file in ``calibsim/learners/``, ``sources/``, ``evaluate/``,
    ``schemes/`` and ``datasets/`` (the ARFF and CSV readers included, so a change in
    how files are parsed never reuses old blocks) and of ``_rng.py``,
    ``engine/cells.py``, ``engine/learners.py``, ``engine/_tuned.py`` and
    ``engine/_tuned_spec.py`` (the protocols' defaults).

    The environment variable ``CALIBSIM_CODE_VERSION``, when set and non-empty,
    replaces the hash (e.g. in tests, or to keep using blocks after a change known
    not to alter any score). The result is cached: call ``code_version.cache_clear()``
    after changing the variable.

    Returns
    -------
    str
        The code version stored in, and required of, every block.
    """
    env = os.environ.get("CALIBSIM_CODE_VERSION")
    if env:
        return env
    root = _PACKAGE
    files = score_files()
    h = hashlib.sha256()
    for f in files:
        h.update(str(f.relative_to(root)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:12]


def score_files() -> list:
    """The source files :func:`code_version` hashes, sorted (paths in the installed package)."""
    root = _PACKAGE
    return sorted([f for d in _SCORE_DIRS for f in (root / d).glob("*.py")]
                  + [root / f for f in _SCORE_FILES if (root / f).is_file()])


def fingerprint(identity: dict) -> str:
    """20 hex digits of SHA-256 over the canonical JSON of ``identity``.

    Parameters
    ----------
    identity : dict
        Everything that determines a set of score arrays; JSON-serialisable, with
        other values (e.g. paths) serialised by ``str``. Key order does not matter.

    Returns
    -------
    str
        The store key of ``identity``.

    Examples
    --------
    >>> fingerprint({"a": 1, "b": 2}) == fingerprint({"b": 2, "a": 1})
    True
    """
    text = json.dumps(identity, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _checksum(arrays: dict) -> str:
    h = hashlib.sha256()
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(f"{name}|{a.dtype.str}|{a.shape}".encode())
        h.update(a.tobytes())
    return h.hexdigest()


class Store:
    """Blocks of score arrays under ``root`` (see the module docstring).

    Parameters
    ----------
    root : str or path-like
        The store's folder; made on the first save.
    """

    def __init__(self, root):
        self.root = Path(root)
        self._valid = {}                 # (path, mtime_ns, size, inode) -> meta
        self._identity_ok = {}           # key -> (mtime_ns, size) of a verified identity.json

    def folder(self, key: str) -> Path:
        """The folder of the blocks of ``key``: ``root / key``.

        Raises
        ------
        ValueError
            If ``key`` is not a non-empty string of letters, digits, ``_``, ``-``
            and ``.`` (not starting with ``.``), so it always names one sub-folder.
        """
        if not isinstance(key, str) or not _KEY.match(key):
            raise ValueError("`key` must be a non-empty string of letters, digits, '_', '-' "
                             f"and '.', not starting with '.'; got {key!r}.")
        return self.root / key

    def save(self, key: str, start: int, stop: int, arrays: dict, *, identity: dict) -> Path:
        """Write data sets ``start .. stop - 1`` of ``key`` atomically.

        Parameters
        ----------
        key : str
            The fingerprint of ``identity`` (:func:`fingerprint`), computed by the caller.
        start, stop : int
            The block's data sets, ``0 <= start < stop``.
        arrays : dict of str to array_like
            Each of shape ``(stop - start, ...)``: row ``i`` belongs to data set
            ``start + i``. Names must not be ``__meta__``.
        identity : dict
            Written (once per key) to ``root/key/identity.json`` for a person to read.

        Returns
        -------
        Path
            The block's file, ``root/key/<start:08d>-<stop:08d>.npz``.

        Raises
        ------
        ValueError
            If ``key`` is not a valid folder name, ``start``/``stop`` are not integers
            with ``0 <= start < stop``, ``arrays`` is empty or holds ``__meta__``, or an
            array's first dimension is not ``stop - start``.
        """
        try:
            start, stop = operator.index(start), operator.index(stop)
        except TypeError:
            raise ValueError(f"`start` and `stop` must be integers; got start={start!r}, "
                             f"stop={stop!r}.") from None
        if not 0 <= start < stop:
            raise ValueError("`start` and `stop` must satisfy 0 <= start < stop; got "
                             f"start={start}, stop={stop}.")
        if not arrays or "__meta__" in arrays:
            raise ValueError("`arrays` must hold at least one array and none named "
                             f"'__meta__'; got names {sorted(arrays)}.")
        arrays = {k: np.asarray(v) for k, v in arrays.items()}
        for name, a in arrays.items():
            if a.ndim == 0 or a.shape[0] != stop - start:
                raise ValueError(f"array `{name}` must have first dimension stop - start = "
                                 f"{stop - start}; got shape {a.shape}.")
        folder = self.folder(key)
        folder.mkdir(parents=True, exist_ok=True)
        ident = folder / "identity.json"
        if not ident.is_file():
            _atomic_write(ident, json.dumps(identity, indent=2, sort_keys=True,
                                            default=str).encode())
        from .._version import __version__
        meta = {"start": int(start), "stop": int(stop), "arrays": sorted(arrays),
                "dtypes": {k: a.dtype.str for k, a in arrays.items()},
                "shapes": {k: list(a.shape) for k, a in arrays.items()},
                "checksum": _checksum(arrays), "code_version": code_version(),
                "calibsim": __version__, "key": key}
        path = folder / f"{start:08d}-{stop:08d}.npz"
        tmp = folder / f".{path.name}.tmp-{os.getpid()}"
        try:
            with open(tmp, "wb") as fh:
                np.savez(fh, __meta__=np.frombuffer(json.dumps(meta).encode(), np.uint8),
                         **arrays)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
        _fsync_dir(folder)
        return path

    def _check_identity(self, key: str, folder: Path) -> None:
        """Quarantine the blocks of ``key`` when its ``identity.json`` does not hash to
        ``key`` (edited by hand, or copied from another key's folder): the folder no
        longer says truthfully what its blocks hold, so none of them is used."""
        ident = folder / "identity.json"
        try:
            st = ident.stat()
        except FileNotFoundError:
            return
        token = (st.st_mtime_ns, st.st_size, st.st_ino)
        if self._identity_ok.get(key) == token:
            return
        try:
            ok = fingerprint(json.loads(ident.read_text(encoding="utf-8"))) == key
        except (OSError, ValueError):
            ok = False
        if ok:
            self._identity_ok[key] = token
            return
        dest = folder / "quarantine"
        dest.mkdir(exist_ok=True)
        n = 0
        for p in folder.iterdir():
            if _BLOCK_NAME.match(p.name) and p.is_file():
                target, i = dest / p.name, 1
                while target.exists():
                    target, i = dest / f"{p.stem}.{i}.npz", i + 1
                try:
                    os.replace(p, target)
                    n += 1
                except FileNotFoundError:
                    pass
        target, i = dest / "identity.json", 1
        while target.exists():
            target, i = dest / f"identity.{i}.json", i + 1
        try:
            os.replace(ident, target)
        except FileNotFoundError:
            return
        logger.warning("store %s: identity.json does not match its key (edited or copied "
                       "there?); it and %d block(s) moved to %s, their data sets will be "
                       "recomputed", folder, n, dest)

    def _blocks(self, key):
        """The block files of ``key``, ordered by (start, stop)."""
        folder = self.folder(key)
        if not folder.is_dir():
            return []
        self._check_identity(key, folder)
        found = []
        for p in folder.iterdir():
            m = _BLOCK_NAME.match(p.name)
            if m and p.is_file():
                found.append(((int(m[1]), int(m[2])), p))
        return [p for _, p in sorted(found)]

    def _move(self, path: Path, sub: str, why: str):
        dest = path.parent / sub
        dest.mkdir(exist_ok=True)
        target = dest / path.name
        i = 1
        while target.exists():
            target = dest / f"{path.stem}.{i}.npz"
            i += 1
        try:
            os.replace(path, target)
        except FileNotFoundError:            # another process moved it aside first
            return
        logger.warning("block %s %s; moved to %s, its data sets will be recomputed",
                       path, why, target)

    def _meta(self, path: Path):
        """The block's meta if valid, else None (after moving it aside)."""
        try:
            st = path.stat()
        except FileNotFoundError:            # moved aside meanwhile by another process
            return None
        token = (str(path), st.st_mtime_ns, st.st_size, st.st_ino)
        if token in self._valid:
            return self._valid[token]
        try:
            _check_headers(path)             # before numpy allocates what a header claims
            with open(path, "rb") as fh, np.load(fh, allow_pickle=False) as z:
                meta = json.loads(bytes(z["__meta__"]).decode())
                arrays = {k: z[k] for k in meta["arrays"]}
        except Exception as exc:             # whatever a damaged block raises, MemoryError too
            why = (str(exc).splitlines() or [""])[0][:200]
            self._move(path, "quarantine", f"cannot be read ({type(exc).__name__}: {why})")
            return None
        start, stop = (int(x) for x in path.name[:-4].split("-"))
        if not isinstance(meta, dict) or (meta.get("start"), meta.get("stop")) != (start, stop):
            self._move(path, "quarantine", "holds another index range than its name says")
            return None
        if _checksum(arrays) != meta.get("checksum"):
            self._move(path, "quarantine", "fails its checksum (damaged or overwritten)")
            return None
        if meta.get("key") is None:
            self._move(path, "stale", "was written before blocks carried their key")
            return None
        if meta.get("key") != path.parent.name:
            self._move(path, "quarantine", f"belongs to key {meta.get('key')}, not to the "
                       f"folder {path.parent.name} it was found in (copied or moved there?)")
            return None
        if meta.get("code_version") != code_version():
            self._move(path, "stale", f"was computed by code version "
                       f"{meta.get('code_version')}, current {code_version()}")
            return None
        self._valid[token] = meta
        return meta

    def clean(self, *, leftovers_only: bool = False, dry_run: bool = False) -> dict:
        """Remove what no run will read again: leftover temporary files, stale and
        quarantined blocks.

        Temporary files (``.<block>.tmp-<pid>``) are removed only when the process
        that wrote them is gone; ``stale/`` and ``quarantine/`` folders (blocks of an
        older code version, damaged or misplaced blocks) are removed whole.

        Parameters
        ----------
        leftovers_only : bool, default False
            Remove only the temporary files of finished processes (what a run does
            at its start).
        dry_run : bool, default False
            Count, do not remove.

        Returns
        -------
        dict
            ``{"temporary": n, "stale": n, "quarantine": n, "bytes": n}``: files
            (blocks for stale and quarantine) removed, or that would be, and their size.
        """
        import shutil
        out = {"temporary": 0, "stale": 0, "quarantine": 0, "bytes": 0}
        if not self.root.is_dir():
            return out
        tmp = re.compile(r"^\..*\.tmp-(\d+)$")
        for folder in sorted(p for p in self.root.iterdir() if p.is_dir()):
            for f in folder.iterdir():
                m = tmp.match(f.name)
                if m and f.is_file() and not _pid_alive(int(m[1])):
                    out["temporary"] += 1
                    out["bytes"] += f.stat().st_size
                    if not dry_run:
                        f.unlink(missing_ok=True)
            if leftovers_only:
                continue
            for sub in ("stale", "quarantine"):
                d = folder / sub
                if d.is_dir():
                    files = [f for f in d.rglob("*") if f.is_file()]
                    out[sub] += len(files)
                    out["bytes"] += sum(f.stat().st_size for f in files)
                    if not dry_run:
                        shutil.rmtree(d, ignore_errors=True)
        return out

    def check(self, key: str) -> list:
        """Verify every block of ``key``, moving damaged and stale ones aside.

        Returns
        -------
        list of Path
            Where the blocks moved aside were (empty when all are valid).
        """
        bad = []
        for path in self._blocks(key):
            if self._meta(path) is None:
                bad.append(path)
        return bad

    def _valid_blocks(self, key, start=0, stop=None):
        """The valid blocks of ``key`` (those named as overlapping ``start .. stop - 1``)."""
        out = []
        for path in self._blocks(key):
            lo, hi = (int(v) for v in path.name[:-4].split("-"))
            if hi <= start or (stop is not None and lo >= stop):
                continue
            meta = self._meta(path)
            if meta is not None:
                out.append((path, meta))
        return out

    def available(self, key: str) -> np.ndarray:
        """Sorted int64 indices of the data sets covered by valid blocks of ``key``."""
        parts = [np.arange(m["start"], m["stop"], dtype=np.int64)
                 for _, m in self._valid_blocks(key)]
        return np.unique(np.concatenate(parts)) if parts else np.empty(0, np.int64)

    def load(self, key: str, n: int, *, start: int = 0) -> dict:
        """The arrays of data sets ``start .. n - 1`` of ``key``, in index order.

        Parameters
        ----------
        key : str
            The fingerprint the blocks were saved under.
        n : int
            Data sets ``>= n`` are ignored.
        start : int, default 0
            The first data set (``0 <= start <= n``): one block's worth of
            ``start .. n - 1`` is all a process holds when the analyses go block by block.

        Returns
        -------
        dict of str to ndarray
            Each array of shape ``(n - start, ...)``, row ``i`` from the first valid block
            (by start) covering data set ``start + i``.

        Raises
        ------
        ValueError
            If ``n`` is not an integer >= 0, or the blocks used disagree on the names,
            dtypes or trailing shapes of their arrays.
        FileNotFoundError
            If some of them have no valid block (the message names the key, how many
            data sets are missing and the folder).
        """
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
            raise ValueError(f"`n` must be an integer >= 0; got {n!r}.")
        n = int(n)
        if isinstance(start, bool) or not isinstance(start, (int, np.integer)) \
                or not 0 <= start <= n:
            raise ValueError(f"`start` must be an integer in [0, n = {n}]; got {start!r}.")
        start = int(start)
        chosen = np.full(n - start, -1)
        blocks = self._valid_blocks(key, start, n)
        for b, (_, m) in enumerate(blocks):
            lo, hi = max(m["start"], start), min(m["stop"], n)
            if lo < hi:
                seg = chosen[lo - start:hi - start]
                seg[seg < 0] = b
        missing = int(np.sum(chosen < 0))
        if missing:
            raise FileNotFoundError(f"key {key}: {missing} of {n - start} data sets have no saved "
                                    f"scores under {self.folder(key)}; run the study first "
                                    "(`calibsim run`).")
        out, first = {}, None
        for b in np.unique(chosen):
            path, m = blocks[b]
            idx = np.flatnonzero(chosen == b)
            with open(path, "rb") as fh, np.load(fh, allow_pickle=False) as z:
                arrays = {name: z[name] for name in m["arrays"]}
            layout = {k: (a.dtype, a.shape[1:]) for k, a in arrays.items()}
            if first is None:
                first = (path, layout)
                out = {k: np.empty((n - start,) + a.shape[1:], a.dtype)
                       for k, a in arrays.items()}
            elif layout != first[1]:
                raise ValueError(f"blocks {first[0].name} and {path.name} of key {key} disagree "
                                 f"on their arrays (name: (dtype, trailing shape)): "
                                 f"{first[1]} vs {layout}.")
            for k, a in arrays.items():
                out[k][idx] = a[idx + start - m["start"]]
        return out


def _check_headers(path: Path) -> None:
    """Refuse a block whose ``.npy`` headers claim more bytes than the block holds.

    Each member's header (shape, dtype) is read without reading the array; a header
    claiming, say, shape (2**40,) under a real block's name is refused here rather than
    making numpy allocate 8 TiB.

    Raises
    ------
    ValueError
        If a member is not a ``.npy`` array, holds Python objects, or its header's
        shape and dtype do not match the member's size.
    """
    from numpy.lib import format as npformat
    with zipfile.ZipFile(path) as zf:
        for info in zf.infolist():
            with zf.open(info) as f:
                version = npformat.read_magic(f)
                reader = (npformat.read_array_header_1_0 if version == (1, 0)
                          else npformat.read_array_header_2_0)
                shape, _, dtype = reader(f)
                data = info.file_size - f.tell()
            if dtype.hasobject:
                raise ValueError(f"array {info.filename} holds Python objects")
            need = dtype.itemsize
            for n in shape:
                need *= int(n)
            if need != data:
                raise ValueError(f"array {info.filename} claims shape {tuple(shape)} of "
                                 f"{dtype.str} ({need:,} bytes) but holds {data:,} bytes")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True                        # someone else's process: leave its file alone
    return True


def _atomic_write(path: Path, data: bytes):
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _fsync_dir(folder: Path):
    """Make a rename in ``folder`` durable (where the platform allows it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
