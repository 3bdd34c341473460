"""Bit-identity check of the general naive Bayes and C4.5 kernels across two versions.

Fits naive Bayes (``_nb_fit_general``) and C4.5 (``_c45_fit_general``) on the training
folds of one 10-fold partition of every shipped UCI data set of at most 2,500 instances
(nominal, numeric and missing values; about 400 folds) and records a SHA-256 per data set
of every model array and of the test folds' predictions and probabilities. A change that
must not change a model (e.g. how the kernels are compiled) is checked by recording with
the old version and checking with the new one:

    git worktree add /tmp/calibsim_old <old commit>
    PYTHONPATH=/tmp/calibsim_old python scripts/general_identity.py record /tmp/general.npz
    python scripts/general_identity.py check /tmp/general.npz

``scripts/c45_identity.py`` covers the nominal C4.5 paths and the resampling loop.
"""
import hashlib
import sys

import numpy as np

from calibsim.datasets import UCI_DATASETS, load_uci
from calibsim.learners import _c45 as K
from calibsim.learners import _kernels_nb as NB
from calibsim.schemes import StratifiedRepeatedCV


def digests():
    out = {}
    for name in UCI_DATASETS:
        ds = load_uci(name)
        if ds.X.shape[0] > 2500:
            continue
        X = np.ascontiguousarray(np.asarray(ds.X, np.float64))
        y = np.asarray(ds.y, np.int64)
        nv = np.asarray(ds.n_values, np.int64)
        C = np.int64(ds.n_classes)
        masks = StratifiedRepeatedCV(n_folds=10, n_runs=1).test_masks(
            y, np.random.SeedSequence(5)).reshape(-1, len(y))
        dn, dc = hashlib.sha256(), hashlib.sha256()
        for te in masks:
            tr = ~te
            Xtr, Xte = np.ascontiguousarray(X[tr]), np.ascontiguousarray(X[te])
            model = NB._nb_fit_general(Xtr, y[tr], nv, C)
            for a in (*model, NB._nb_predict_general(model, Xte),
                      NB._nb_predict_proba_general(model, Xte)):
                dn.update(np.ascontiguousarray(a).tobytes())
            tree = K._c45_fit_general(Xtr, y[tr], np.ones(int(tr.sum())), nv, C, 0.25, 2)
            for a in (*tree, K._c45_predict_general(tree, Xte),
                      K._c45_predict_proba_general(tree, Xte)):
                dc.update(np.ascontiguousarray(a).tobytes())
        out[f"naive_bayes/{name}"] = dn.hexdigest()
        out[f"c45/{name}"] = dc.hexdigest()
    return out


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("record", "check"):
        sys.exit("usage: python scripts/general_identity.py record|check FILE.npz")
    got = digests()
    if sys.argv[1] == "record":
        np.savez(sys.argv[2], **{k.replace("/", "__"): np.array(v) for k, v in got.items()})
        print(f"recorded {len(got)} digests")
        return
    old = {k.replace("__", "/"): str(v) for k, v in np.load(sys.argv[2]).items()}
    differ = sorted(k for k in old if got.get(k) != old[k])
    print(f"{len(old) - len(differ)} of {len(old)} digests equal; differ: {differ or 'none'}")
    sys.exit(1 if differ or set(got) != set(old) else 0)


if __name__ == "__main__":
    main()
