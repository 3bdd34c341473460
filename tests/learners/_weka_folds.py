"""The committed Weka fixtures (``data/*.npz``) as the learner tests read them, written once.

Each test module used to carry its own copy of the split loop and of the loaders; they
import these instead (tests/learners is on ``sys.path``: it has no ``__init__.py``).
"""

import pathlib

import numpy as np

DATA = pathlib.Path(__file__).parent / "data"


def cv_splits(fold):
    """(run r, fold f, train index, test index) of every split of a (R, n) fold array, in order."""
    for r in range(fold.shape[0]):
        for f in range(int(fold[r].max()) + 1):
            yield r, f, np.flatnonzero(fold[r] != f), np.flatnonzero(fold[r] == f)


def load_tan_vp_oracle():
    """``weka_oracle_tan_vp.npz`` as a dict, the null sets' bit-packed X unpacked to (S, n, a)."""
    d = dict(np.load(DATA / "weka_oracle_tan_vp.npz"))
    S, n = d["null__y"].shape
    a = int(d["null__n_attributes"])
    d["null__X"] = np.unpackbits(d["null__X_bits"], axis=1, count=n * a).reshape(S, n, a)
    return d


def tan_vp_null_sets(d):
    """Per null data set of the TAN/VP oracle ``d``: (s, X and y as int64 codes, its fold array)."""
    for s in range(d["null__y"].shape[0]):
        yield (s, np.ascontiguousarray(d["null__X"][s], dtype=np.int64),
               d["null__y"][s].astype(np.int64), d["null__fold"][s])


def null_fixture_folds():
    """``weka_null_fixture.npz`` (Weka 3.6 on 10-fold CV of 3 null data sets of 300 x 10 binary
    attributes, written by ``scripts/weka_j48_check.py --fixture``) split by split.

    Yields the fixture ``d``, the set s, the fold f, and C-contiguous training X, training y
    and test X of that split; Weka's answers for it are ``d[key][s, f]``.
    """
    d = np.load(DATA / "weka_null_fixture.npz")
    for s in range(d["X"].shape[0]):
        X, y = d["X"][s], d["y"][s]
        for f, test in enumerate(d["test_index"][s]):
            train = np.setdiff1d(np.arange(len(y)), test)
            yield d, s, f, np.ascontiguousarray(X[train]), y[train], np.ascontiguousarray(X[test])
