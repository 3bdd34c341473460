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
  leaves half a block; a leftover temporary file is ignored;
- a block that cannot be read, whose range disagrees with its name or whose
  checksum does not match is moved to ``K/quarantine/`` with a warning, and its data
  sets are recomputed: a damaged block is never used;
- a block computed by another code version is moved to ``K/stale/`` with a warning
  and recomputed: a kernel or learner change is never mixed silently with older
  blocks (set ``CALIBSIM_CODE_VERSION`` to pin the version, e.g. in tests);
- blocks may overlap (runs with other block sizes); each data set is taken from the
  first valid block that covers it, and a larger earlier run serves a smaller one.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import shutil
import zipfile
from pathlib import Path

import numpy as np

__all__ = ["Store", "fingerprint", "code_version"]

logger = logging.getLogger(__name__)

_SCORE_FILES = ("_kernels_evaluate.py", "evaluate.py", "schemes.py", "_rng.py", "datasets.py",
                "engine/cells.py", "engine/learners.py")


@functools.lru_cache(maxsize=1)
def code_version() -> str:
    """12 hex digits of SHA-256 over the sources that determine the score arrays."""
    env = os.environ.get("CALIBSIM_CODE_VERSION")
    if env:
        return env
    import calibsim
    root = Path(calibsim.__file__).parent
    files = sorted(list((root / "learners").glob("*.py")) + list((root / "sources").glob("*.py"))
                   + [root / f for f in _SCORE_FILES if (root / f).is_file()])
    h = hashlib.sha256()
    for f in files:
        h.update(str(f.relative_to(root)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:12]


def fingerprint(identity: dict) -> str:
    """20 hex digits of SHA-256 over the canonical JSON of ``identity``."""
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
        self._valid = {}                 # (path, mtime_ns, size) -> meta

    def folder(self, key: str) -> Path:
        return self.root / key

    def save(self, key: str, start: int, stop: int, arrays: dict, *, identity: dict) -> Path:
        """Write data sets ``start .. stop - 1`` of ``key`` atomically; returns the block's path.

        Raises
        ------
        ValueError
            If ``stop <= start`` or an array's first dimension is not ``stop - start``.
        """
        if stop <= start:
            raise ValueError(f"`stop` must be > `start`; got start={start}, stop={stop}.")
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
        from .. import __version__
        meta = {"start": int(start), "stop": int(stop), "arrays": sorted(arrays),
                "dtypes": {k: a.dtype.str for k, a in arrays.items()},
                "shapes": {k: list(a.shape) for k, a in arrays.items()},
                "checksum": _checksum(arrays), "code_version": code_version(),
                "calibsim": __version__}
        path = folder / f"{start:08d}-{stop:08d}.npz"
        tmp = folder / f".{path.name}.tmp-{os.getpid()}"
        with open(tmp, "wb") as fh:
            np.savez(fh, __meta__=np.frombuffer(json.dumps(meta).encode(), np.uint8),
                     **arrays)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
        return path

    def _blocks(self, key):
        folder = self.folder(key)
        if not folder.is_dir():
            return []
        return sorted(p for p in folder.glob("*.npz") if not p.name.startswith("."))

    def _move(self, path: Path, sub: str, why: str):
        dest = path.parent / sub
        dest.mkdir(exist_ok=True)
        target = dest / path.name
        i = 1
        while target.exists():
            target = dest / f"{path.stem}.{i}.npz"
            i += 1
        shutil.move(str(path), str(target))
        logger.warning("block %s %s; moved to %s, its data sets will be recomputed",
                       path, why, target)

    def _meta(self, path: Path):
        """The block's meta if valid, else None (after moving it aside)."""
        st = path.stat()
        token = (str(path), st.st_mtime_ns, st.st_size)
        if token in self._valid:
            return self._valid[token]
        try:
            with open(path, "rb") as fh, np.load(fh, allow_pickle=False) as z:
                meta = json.loads(bytes(z["__meta__"]).decode())
                arrays = {k: z[k] for k in meta["arrays"]}
        except (zipfile.BadZipFile, EOFError, OSError, ValueError, KeyError, TypeError,
                UnicodeDecodeError, json.JSONDecodeError) as exc:
            self._move(path, "quarantine", f"cannot be read ({type(exc).__name__}: {exc})")
            return None
        start, stop = (int(x) for x in path.stem.split("-"))
        if (meta.get("start"), meta.get("stop")) != (start, stop):
            self._move(path, "quarantine", "holds another index range than its name says")
            return None
        if _checksum(arrays) != meta.get("checksum"):
            self._move(path, "quarantine", "fails its checksum (damaged or overwritten)")
            return None
        if meta.get("code_version") != code_version():
            self._move(path, "stale", f"was computed by code version "
                       f"{meta.get('code_version')}, current {code_version()}")
            return None
        self._valid[token] = meta
        return meta

    def check(self, key: str) -> list:
        """Verify every block of ``key``; returns the paths of those moved aside."""
        bad = []
        for path in self._blocks(key):
            if self._meta(path) is None:
                bad.append(path)
        return bad

    def _valid_blocks(self, key):
        out = []
        for path in self._blocks(key):
            meta = self._meta(path)
            if meta is not None:
                out.append((path, meta))
        return out

    def available(self, key: str) -> np.ndarray:
        """Sorted int64 indices of the data sets covered by valid blocks of ``key``."""
        parts = [np.arange(m["start"], m["stop"]) for _, m in self._valid_blocks(key)]
        return np.unique(np.concatenate(parts)) if parts else np.empty(0, np.int64)

    def load(self, key: str, n: int) -> dict:
        """The arrays of data sets ``0 .. n - 1`` of ``key``, in index order.

        Raises
        ------
        FileNotFoundError
            If some of them have no valid block (the message says how many and where).
        """
        chosen = np.full(n, -1)
        blocks = self._valid_blocks(key)
        for b, (_, m) in enumerate(blocks):
            lo, hi = m["start"], min(m["stop"], n)
            if lo < hi:
                seg = chosen[lo:hi]
                seg[seg < 0] = b
        missing = int(np.sum(chosen < 0))
        if missing:
            raise FileNotFoundError(f"{missing} of {n} data sets have no saved scores under "
                                    f"{self.folder(key)}; run the study first "
                                    "(`calibsim run`).")
        out = {}
        for b in np.unique(chosen):
            path, m = blocks[b]
            idx = np.flatnonzero(chosen == b)
            with open(path, "rb") as fh, np.load(fh, allow_pickle=False) as z:
                for name in m["arrays"]:
                    a = z[name]
                    if name not in out:
                        out[name] = np.empty((n,) + a.shape[1:], a.dtype)
                    out[name][idx] = a[idx - m["start"]]
        return out


def _atomic_write(path: Path, data: bytes):
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_bytes(data)
    os.replace(tmp, path)
