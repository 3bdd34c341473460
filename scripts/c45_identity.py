"""Bit-identity check of the C4.5 kernels across two versions of calibsim.

Records, for 482 data sets and their folds (Figure 2's null data, null data of other
sizes and options, BAN data, multi-valued attributes and classes, the shipped UCI sets on
the general path and, complete and nominal, on the nominal path): a SHA-256 of every array
of every fitted tree (nominal ``_c45_fit``, weighted ``_c45_fit_weighted``, general
``_c45_fit_general``), the test-fold predictions and probabilities, and the resampling
loop's correct counts, model sizes and per-instance correctness. A change to the kernels
that must not change a tree is checked by recording with the old version and checking
with the new one:

    git worktree add /tmp/calibsim_old <old commit>
    PYTHONPATH=/tmp/calibsim_old python scripts/c45_identity.py record /tmp/c45.npz
    python scripts/c45_identity.py check /tmp/c45.npz

(about 2 minutes each with a warm numba cache; 40,952 fold digests).
"""
import hashlib
import sys
import time

import numpy as np

from calibsim.evaluate import _kernels as E
from calibsim.learners import _c45 as K

from calibsim.datasets import load_uci
from calibsim.schemes import StratifiedRepeatedCV
from calibsim.sources import BANSource, NullSource, random_ban


def h(arrays):
    d = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(a)
        d.update(str((a.dtype.str, a.shape)).encode())
        d.update(a.tobytes())
    return d.hexdigest()[:32]


def masks_for(y, n_folds, n_runs, ss):
    return StratifiedRepeatedCV(n_folds=n_folds, n_runs=n_runs).test_masks(y, ss)


def eval_loop(X, y, nv, C, masks, cf=0.25, m=2, learners=(0, 1)):
    ids = np.array(learners, np.int64)
    flat = np.ascontiguousarray(masks.reshape(-1, len(y)))
    out = E._evaluate_splits_correctness(X, y, nv, np.int64(C), ids, flat, cf, np.int64(m))
    out2 = E._evaluate_splits(X, y, nv, np.int64(C), ids, flat, cf, np.int64(m))
    assert all(np.array_equal(a, b) for a, b in zip(out[:3], out2))
    correct, n_test, size, corr = out
    return h([correct, n_test, size, np.packbits(corr)]), correct[-1].sum()


def nominal_folds(X, y, nv, C, masks, cf=0.25, m=2, weighted_too=False):
    """Hash per fold of the nominal fit's tree + test predictions + probabilities."""
    out = []
    for mask in masks.reshape(-1, len(y)):
        tr, te = ~mask, mask
        Xtr, Xte = np.ascontiguousarray(X[tr]), np.ascontiguousarray(X[te])
        tree = K._c45_fit(Xtr, y[tr], nv, C, cf, m)
        arrs = list(tree) + [K._c45_predict(tree, Xte), K._c45_predict_proba(tree, Xte),
                             np.array(K._c45_size(tree))]
        if weighted_too:
            wt = K._c45_fit_weighted(Xtr, y[tr], np.ones(int(tr.sum())), nv, C, cf, m)
            arrs += list(wt)
        out.append(h(arrs))
    return out


def general_folds(X, y, nv, C, masks, cf=0.25, m=2):
    out = []
    for mask in masks.reshape(-1, len(y)):
        tr, te = ~mask, mask
        Xtr, Xte = np.ascontiguousarray(X[tr]), np.ascontiguousarray(X[te])
        tree = K._c45_fit_general(Xtr, y[tr], np.ones(int(tr.sum())), nv, C, cf, m)
        arrs = list(tree) + [K._c45_predict_general(tree, Xte),
                             K._c45_predict_proba_general(tree, Xte),
                             np.array(K._c45_size_general(tree))]
        out.append(h(arrs))
    return out


def cases():
    """Yield (name, X, y, nv, C, masks, cf, m, kinds)."""
    root = np.random.SeedSequence(13_04)
    # 1. Figure 2 null data: 300 sets of 300 x 10 binary, 10 x 10 cv, default options.
    src = NullSource()
    for i, ss in enumerate(root.spawn(300)):
        d, f = ss.spawn(2)
        X, y = src.sample(d)
        yield f"null{i}", X, y, src.n_values, 2, masks_for(y, 10, 10, f), 0.25, 2, "nw" if i < 20 else "n"
    # 2. null data of other sizes / attribute counts / options.
    rng = np.random.default_rng(7)
    for i, (n, a) in enumerate([(20, 3), (40, 1), (64, 10), (65, 10), (128, 5), (129, 20),
                                (500, 40), (1000, 10), (3000, 10), (5000, 6)] * 3):
        src = NullSource(n_instances=n, n_attributes=a, class_prior=float(rng.uniform(0.1, 0.9)))
        X, y = src.sample(rng)
        cf, m = [(0.25, 2), (0.05, 1), (0.5, 5)][i // 10]
        runs = 2 if n >= 1000 else 5
        yield f"nullsize{i}", X, y, src.n_values, 2, masks_for(y, 10, runs, rng), cf, m, "nw"
    # 3. BAN data (class-dependent, correlated binary attributes).
    rng = np.random.default_rng(11)
    for i in range(60):
        net = random_ban(rng, n_attributes=int(rng.choice([5, 10, 15])),
                         n_arcs=int(rng.integers(0, 8)),
                         concentration=float(rng.choice([0.2, 0.5, 1.0, 2.0])),
                         class_prior=float(rng.uniform(0.2, 0.8)))
        src = BANSource(net, n_instances=int(rng.choice([100, 300, 1000])))
        X, y = src.sample(rng)
        if len(np.unique(y)) < 2:
            continue
        yield f"ban{i}", X, y, src.n_values, src.n_classes, masks_for(y, 10, 3, rng), 0.25, 2, "nw"
    # 4. Multi-valued attributes and classes, with structure.
    rng = np.random.default_rng(13)
    for i in range(60):
        n = int(rng.choice([30, 150, 400]))
        a = int(rng.integers(1, 12))
        nv = rng.integers(2, 6, a)
        C = int(rng.integers(2, 5))
        X = np.stack([rng.integers(0, k, n) for k in nv], axis=1).astype(np.int64)
        lab = (X[:, 0] + (X[:, 1] if a > 1 else 0)) % C
        noise = rng.random(n) < rng.uniform(0, 0.5)
        y = np.where(noise, rng.integers(0, C, n), lab).astype(np.int64)
        if i % 7 == 0:   # a class that never occurs
            C += 1
        cf, m = [(0.25, 2), (0.1, 3), (0.4, 1)][i % 3]
        yield f"multi{i}", X, y, nv.astype(np.int64), C, masks_for(y, 5, 3, rng), cf, m, "nw"
    # 5. UCI data sets: general path; nominal complete ones also on the nominal path.
    rng = np.random.default_rng(17)
    for name in ["anneal", "audiology", "autos", "balance-scale", "breast-cancer", "breast-w",
                 "colic", "contact-lenses", "credit-a", "credit-g", "diabetes", "ecoli",
                 "glass", "ionosphere", "iris", "labor", "lymph", "primary-tumor", "sonar",
                 "soybean", "vehicle", "vote", "vowel", "weather.nominal", "weather.numeric",
                 "zoo"]:
        ds = load_uci(name)
        X, y, nv = np.asarray(ds.X, float), np.asarray(ds.y, np.int64), np.asarray(ds.n_values)
        nf = min(10, int(np.bincount(y).max()))
        masks = masks_for(y, max(2, min(nf, 10)), 2, rng)
        yield f"uci-{name}", X, y, nv, ds.n_classes, masks, 0.25, 2, "g"
        if not (nv == 0).any():
            keep = ~np.isnan(X).any(axis=1)
            Xn, yn = X[keep].astype(np.int64), y[keep]
            if len(yn) >= 10:
                yield (f"ucinom-{name}", Xn, yn, nv, ds.n_classes,
                       masks_for(yn, 5, 2, rng), 0.25, 2, "nw")


def run():
    out = {}
    n_folds = {"eval": 0, "nominal": 0, "general": 0}
    n_sets = 0
    t0 = time.perf_counter()
    for name, X, y, nv, C, masks, cf, m, kinds in cases():
        n_sets += 1
        nv = np.ascontiguousarray(nv, np.int64)
        y = np.ascontiguousarray(y, np.int64)
        if "g" in kinds:
            out[name + "/general"] = np.array(general_folds(X, y, nv, C, masks, cf, m))
            n_folds["general"] += masks.reshape(-1, len(y)).shape[0]
            # nominal codes as floats through the general path too
            continue
        X = np.ascontiguousarray(X, np.int64)
        dig, _ = eval_loop(X, y, nv, C, masks, cf, m)
        out[name + "/eval"] = np.array([dig])
        n_folds["eval"] += masks.reshape(-1, len(y)).shape[0]
        out[name + "/nominal"] = np.array(nominal_folds(X, y, nv, C, masks, cf, m, "w" in kinds))
        n_folds["nominal"] += masks.reshape(-1, len(y)).shape[0]
        if "w" in kinds:
            # the general path on the same nominal data (as floats)
            out[name + "/general"] = np.array(general_folds(X.astype(float), y, nv, C, masks,
                                                            cf, m))
            n_folds["general"] += masks.reshape(-1, len(y)).shape[0]
    print(f"{n_sets} data sets; folds {n_folds}; {time.perf_counter() - t0:.1f} s")
    return out


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("record", "check"):
        sys.exit("usage: python scripts/c45_identity.py record|check FILE.npz")
    mode, path = sys.argv[1:]
    import calibsim
    print("calibsim from", calibsim.__file__)
    res = run()
    if mode == "record":
        np.savez(path, **res)
        print("recorded", len(res), "entries to", path)
    else:
        base = np.load(path)
        if set(base.files) != set(res):
            sys.exit(f"different cases: {sorted(set(base.files) ^ set(res))[:10]}")
        bad = [k for k in base.files if not np.array_equal(base[k], res[k])]
        total = sum(base[k].size for k in base.files)
        if bad:
            print("MISMATCH in", len(bad), "entries:", bad[:20])
            sys.exit(1)
        print(f"IDENTICAL: {len(res)} entries, {total} fold digests")
