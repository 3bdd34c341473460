"""The store: fingerprinted, atomic, checksummed, resumable blocks of score arrays."""

import json
import logging
import zipfile

import numpy as np
import pytest

from calibsim.engine.store import Store, code_version, fingerprint

IDENTITY = {"study": "test", "seed": 1, "results": "/tmp/x"}


def _arrays(start, stop):
    """Row i of every array is a function of data set start + i only."""
    idx = np.arange(start, stop)
    return {"score": idx[:, None] * np.array([[1.0, 10.0, 100.0]]),
            "count": (idx % 7).astype(np.int16)}


def _save(store, key, start, stop):
    return store.save(key, start, stop, _arrays(start, stop), identity=IDENTITY)


@pytest.fixture
def store(tmp_path):
    return Store(tmp_path / "store")


@pytest.fixture
def key():
    return fingerprint(IDENTITY)


def test_fingerprint_is_canonical_and_short(tmp_path):
    a = fingerprint({"b": 2, "a": tmp_path})
    assert a == fingerprint({"a": str(tmp_path), "b": 2})
    assert len(a) == 20 and int(a, 16) >= 0
    assert a != fingerprint({"b": 3, "a": tmp_path})


def test_round_trip_layout_and_identity(store, key):
    path = _save(store, key, 0, 5)
    _save(store, key, 5, 8)
    assert path == store.root / key / "00000000-00000005.npz"
    assert json.loads((store.root / key / "identity.json").read_text()) == IDENTITY
    got = store.available(key)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, np.arange(8))
    out = store.load(key, 8)
    for name, want in _arrays(0, 8).items():
        assert out[name].dtype == want.dtype
        np.testing.assert_array_equal(out[name], want)
    # a larger run serves a smaller one
    np.testing.assert_array_equal(store.load(key, 3)["count"], _arrays(0, 3)["count"])
    with np.load(path) as z:
        meta = json.loads(bytes(z["__meta__"]).decode())
    assert meta["start"] == 0 and meta["stop"] == 5
    assert meta["arrays"] == ["count", "score"]
    assert meta["shapes"] == {"count": [5], "score": [5, 3]}
    assert meta["code_version"] == code_version() and len(meta["checksum"]) == 64
    assert "calibsim" in meta


def test_save_is_atomic_and_ignores_leftover_temporary_files(store, key):
    _save(store, key, 0, 4)
    folder = store.root / key
    assert sorted(p.name for p in folder.iterdir()) == ["00000000-00000004.npz",
                                                        "identity.json"]
    (folder / ".00000004-00000008.npz.tmp-12345").write_bytes(b"half a block")
    (folder / "notes.npz").write_bytes(b"not named like a block")
    np.testing.assert_array_equal(store.available(key), np.arange(4))
    assert not (folder / "quarantine").exists()


def test_save_leaves_no_temporary_file_when_writing_fails(store, key, monkeypatch):
    def boom(*args, **kwargs):
        raise OSError("disk full")
    monkeypatch.setattr(np, "savez", boom)
    with pytest.raises(OSError, match="disk full"):
        _save(store, key, 0, 4)
    assert [p.name for p in (store.root / key).iterdir()] == ["identity.json"]


@pytest.mark.parametrize("bad, match", [
    (dict(arrays={"score": np.zeros((4, 2))}), "array `score` must have first dimension"
                                               " stop - start = 3; got shape \\(4, 2\\)"),
    (dict(arrays={"x": np.float64(1.0)}), "array `x` must have first dimension"),
    (dict(start=3, stop=3), "0 <= start < stop; got start=3, stop=3"),
    (dict(start=-1), "0 <= start < stop; got start=-1"),
    (dict(start=0.5), "`start` and `stop` must be integers"),
    (dict(arrays={}), "at least one array"),
    (dict(key="../up"), "`key` must be a non-empty string"),
])
def test_save_rejects_bad_arguments(store, bad, match):
    args = dict(key="k", start=0, stop=3, arrays=_arrays(0, 3)) | bad
    with pytest.raises(ValueError, match=match):
        store.save(args["key"], args["start"], args["stop"], args["arrays"], identity={})


def test_truncated_block_is_quarantined_then_recomputed(store, key, caplog):
    path = _save(store, key, 0, 4)
    _save(store, key, 4, 6)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with caplog.at_level(logging.WARNING, logger="calibsim.engine.store"):
        np.testing.assert_array_equal(Store(store.root).available(key), [4, 5])
    assert (store.root / key / "quarantine" / path.name).is_file()
    assert not path.exists()
    assert path.name in caplog.text and "will be recomputed" in caplog.text
    with pytest.raises(FileNotFoundError, match="4 of 6 data sets"):
        store.load(key, 6)
    _save(store, key, 0, 4)                          # the re-run's block is used
    np.testing.assert_array_equal(store.load(key, 6)["score"], _arrays(0, 6)["score"])


def test_overwritten_array_bytes_fail_the_checksum(store, key, caplog):
    path = _save(store, key, 0, 4)
    # rewrite one array inside a well-formed zip: it opens and reads, but the
    # checksum in __meta__ no longer matches
    with zipfile.ZipFile(path) as z:
        members = {name: z.read(name) for name in z.namelist()}
    raw = bytearray(members["score.npy"])
    raw[-1] ^= 0xFF
    members["score.npy"] = bytes(raw)
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    fresh = Store(store.root)
    with caplog.at_level(logging.WARNING, logger="calibsim.engine.store"):
        assert fresh.check(key) == [path]
    assert "checksum" in caplog.text
    assert (store.root / key / "quarantine" / path.name).is_file()
    assert fresh.available(key).size == 0


def test_flipped_byte_in_the_file_is_quarantined(store, key):
    path = _save(store, key, 0, 4)
    data = bytearray(path.read_bytes())
    data[len(data) // 3] ^= 0x01
    path.write_bytes(bytes(data))
    assert Store(store.root).available(key).size == 0
    assert (store.root / key / "quarantine" / path.name).is_file()


def test_non_zip_file_named_like_a_block_is_quarantined(store, key):
    _save(store, key, 0, 2)
    fake = store.root / key / "00000002-00000004.npz"
    fake.write_text("hello")
    assert store.check(key) == [fake]
    np.testing.assert_array_equal(store.available(key), [0, 1])
    assert (store.root / key / "quarantine" / fake.name).read_text() == "hello"
    assert store.check(key) == []


def test_block_whose_range_disagrees_with_its_name_is_quarantined(store, key):
    path = _save(store, key, 0, 4)
    wrong = path.with_name("00000004-00000008.npz")
    path.rename(wrong)
    assert store.check(key) == [wrong]


def test_block_of_another_code_version_is_stale(store, key, monkeypatch, caplog):
    path = _save(store, key, 0, 4)
    old = code_version()
    monkeypatch.setenv("CALIBSIM_CODE_VERSION", "somethingelse")
    code_version.cache_clear()
    try:
        assert code_version() == "somethingelse"
        with caplog.at_level(logging.WARNING, logger="calibsim.engine.store"):
            assert store.available(key).size == 0
        assert (store.root / key / "stale" / path.name).is_file()
        assert f"code version {old}, current somethingelse" in caplog.text
        _save(store, key, 0, 4)
        np.testing.assert_array_equal(store.available(key), np.arange(4))
    finally:
        monkeypatch.delenv("CALIBSIM_CODE_VERSION")
        code_version.cache_clear()
    assert code_version() == old


def test_code_version_is_a_cached_hash():
    v = code_version()
    assert len(v) == 12 and int(v, 16) >= 0 and code_version() is v


def test_overlapping_blocks_of_different_sizes(store, key):
    for start in range(0, 12, 4):                    # a run with blocks of 4
        _save(store, key, start, start + 4)
    for start in range(0, 15, 5):                    # a run with blocks of 5
        _save(store, key, start, start + 5)
    np.testing.assert_array_equal(store.available(key), np.arange(15))
    out = store.load(key, 15)
    for name, want in _arrays(0, 15).items():
        np.testing.assert_array_equal(out[name], want)


def test_load_reports_missing_data_sets(store, key):
    _save(store, key, 0, 3)
    _save(store, key, 5, 8)
    with pytest.raises(FileNotFoundError) as info:
        store.load(key, 10)
    msg = str(info.value)
    assert "4 of 10 data sets" in msg and key in msg and str(store.root / key) in msg
    with pytest.raises(FileNotFoundError, match="2 of 2 data sets"):
        store.load("otherkey", 2)
    with pytest.raises(ValueError, match="`n` must be an integer >= 0; got -1"):
        store.load(key, -1)


def test_load_rejects_blocks_with_different_arrays(store):
    k = fingerprint({})                  # identity.json must hash to its folder's key
    store.save(k, 0, 2, {"a": np.zeros(2)}, identity={})
    store.save(k, 2, 4, {"a": np.zeros((2, 3))}, identity={})
    with pytest.raises(ValueError, match="disagree on their arrays"):
        store.load(k, 4)


def test_validation_is_cached_per_file_state(store, key, monkeypatch):
    _save(store, key, 0, 4)
    store.available(key)
    import calibsim.engine.store as mod
    calls = []
    real = mod._checksum
    monkeypatch.setattr(mod, "_checksum", lambda a: calls.append(1) or real(a))
    store.available(key)
    store.load(key, 4)
    assert calls == []
    _save(store, key, 0, 4)                          # rewritten: validated again
    store.available(key)
    assert calls


@pytest.mark.parametrize("edit", [lambda t: t.replace('"seed": 7', '"seed": 9'),
                                  lambda t: t[:-2], lambda t: "{}"])
def test_an_identity_that_does_not_hash_to_its_key_is_quarantined(store, edit, caplog):
    identity = {"seed": 7, "source": "null(n_instances=40)"}
    key = fingerprint(identity)
    store.save(key, 0, 4, _arrays(0, 4), identity=identity)
    store.save(key, 4, 6, _arrays(4, 6), identity=identity)
    assert store.available(key).tolist() == list(range(6))
    ident = store.folder(key) / "identity.json"
    ident.write_text(edit(ident.read_text()))
    fresh = type(store)(store.root)
    with caplog.at_level("WARNING"):
        assert fresh.available(key).size == 0
    assert [r.getMessage() for r in caplog.records if "identity.json" in r.getMessage()]
    moved = sorted(p.name for p in (store.folder(key) / "quarantine").iterdir())
    assert moved == ["00000000-00000004.npz", "00000004-00000006.npz", "identity.json"]
    fresh.save(key, 0, 4, _arrays(0, 4), identity=identity)     # recomputed: used again
    assert fresh.available(key).tolist() == [0, 1, 2, 3]
    assert json.loads(ident.read_text()) == identity
