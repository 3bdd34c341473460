#!/usr/bin/env python
"""Record Weka 3.6's TAN (BayesNet) and VotedPerceptron on splits fixed by calibsim.

Runs Weka's ``BayesNet`` with the ``TAN`` search and ``SimpleEstimator -A 0.5``
and ``VotedPerceptron`` (default options) through a small Java driver,
``scripts/java/WekaTable7.java`` (compiled with ``javac`` into a temporary
directory at run time; Weka's public API only), on stratified 10-fold splits
drawn by :class:`calibsim.schemes.StratifiedRepeatedCV`, compares them with
calibsim's kernels, prints the agreement, and with ``--write`` saves the
fixture ``tests/learners/data/weka_oracle_tan_vp.npz`` used by
``tests/learners/test_tan.py`` and ``tests/learners/test_voted_perceptron.py``.

Groups of data sets
-------------------
``null``
    ``--null-sets`` data sets per class prior 0.5 and 0.3 from
    :class:`calibsim.sources.NullSource` (300 instances x 10 binary
    attributes, Table 7 of Bouckaert 2003), one run of stratified 10-fold CV.
``uci``
    The all-nominal shipped UCI data sets (breast-cancer, contact-lenses,
    soybean, vote, weather.nominal; three have missing values), ``--uci-runs``
    runs of stratified 10-fold CV. VotedPerceptron only on binary classes.

Fixture format
--------------
``null__fold`` int8 (S, 1, n): fold of every instance (test set of fold f
is ``np.flatnonzero(fold[s, r] == f)``, training the rest, both in index
order); ``null__X_bits`` uint8 (``np.packbits`` of the (S, n*a) 0/1 values),
``null__y`` int8 (S, n), ``null__class_prior`` (S,), ``null__tan`` and
``null__vp`` int8 (S, 1, n): Weka's predicted class of every instance in the
run where it was tested; ``null__tan_parent`` int8 (S, 1, k, a): the tree
parent of every attribute in Weka's TAN network of each split (-1 none).
UCI: ``<name>__fold`` (R, n), ``<name>__tan``, ``<name>__vp`` (binary class
only) (R, n) and ``<name>__tan_parent`` (R, k, a); data from
:func:`calibsim.datasets.load_uci`.

Usage::

    python scripts/weka_table7_check.py            # compare and print
    python scripts/weka_table7_check.py --write    # also (re)write the fixture
"""

from __future__ import annotations

import argparse
import pathlib
import subprocess
import sys
import tempfile
import time

import numpy as np

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from calibsim.datasets import load_uci  # noqa: E402
from calibsim.learners._kernels_tan import _tan_fit, _tan_predict  # noqa: E402
from calibsim.learners._kernels_vp import _vp_fit, _vp_predict  # noqa: E402
from calibsim.learners.tan import _nominal_fit_codes, _fill_missing  # noqa: E402
from calibsim.schemes import StratifiedRepeatedCV  # noqa: E402
from calibsim.sources import NullSource  # noqa: E402
from weka_oracle import run_weka_program, write_missing_arffs  # noqa: E402

JAVA_SRC = REPO / "scripts" / "java" / "WekaTable7.java"
FIXTURE = REPO / "tests" / "learners" / "data" / "weka_oracle_tan_vp.npz"
ROOT_ENTROPY = 20240611
NULL_PRIORS = (0.5, 0.3)
UCI_NOMINAL = ("breast-cancer", "contact-lenses", "soybean", "vote", "weather.nominal")


def ours(X, y, n_values, n_classes, fold):
    """calibsim's TAN and VP predictions (R, n) and TAN parents (R, k, a) on every split."""
    R, n = fold.shape
    k = int(fold.max()) + 1
    tan = np.full((R, n), -2, np.int64)
    vp = np.full((R, n), -2, np.int64)
    parents = np.zeros((R, k, X.shape[1]), np.int64)
    for r in range(R):
        for f in range(k):
            te, tr = np.flatnonzero(fold[r] == f), np.flatnonzero(fold[r] != f)
            Xtr, ytr, Xte = train_test_codes(X, y, n_values, tr, te)
            model = _tan_fit(Xtr, ytr, n_values, n_classes)
            parents[r, f] = model[0]
            tan[r, te] = _tan_predict(model, n_values, Xte)
            if n_classes == 2:
                vp[r, te] = _vp_predict(_vp_fit(Xtr, ytr, n_values, 1, 10000, 1), Xte)
    return tan, vp, parents


def train_test_codes(X, y, n_values, tr, te):
    """Training and test codes with missing values replaced by the training modes (Weka)."""
    X = np.asarray(X, dtype=np.float64)
    _, _, _, _, modes = _nominal_fit_codes(X[tr], y[tr], n_values, "check")
    return (_fill_missing(X[tr], modes), np.ascontiguousarray(y[tr], dtype=np.int64),
            _fill_missing(X[te], modes))


def run_weka(jobs, tmp):
    """jobs: list of (arff, fold (R, n), n_attr).

    Returns per job (tan, vp (R, n), parents (R, k, a)).
    """
    outs = run_weka_program(JAVA_SRC, [(arff, fold) for arff, fold, _ in jobs], tmp,
                            stderr=subprocess.DEVNULL)
    results = []
    for (arff, fold, a), out in zip(jobs, outs):
        R, n = fold.shape
        k = int(fold.max()) + 1
        tan = np.full((R, n), -2, np.int64)
        vp = np.full((R, n), -2, np.int64)
        parents = np.zeros((R, k, a), np.int64)
        for r in range(R):
            for f in range(k):
                block = out[3 * (r * k + f): 3 * (r * k + f) + 3]
                te = np.flatnonzero(fold[r] == f)
                parents[r, f] = list(map(int, block[0].split()))
                tan[r, te] = list(map(int, block[1].split()))
                if block[2] != "-":
                    vp[r, te] = list(map(int, block[2].split()))
        results.append((tan, vp, parents))
    return results


def make_groups(null_sets, uci_runs):
    groups = {"null": [], "uci": []}
    for p_i, prior in enumerate(NULL_PRIORS):
        for s in range(null_sets):
            ss = np.random.SeedSequence(ROOT_ENTROPY, spawn_key=(7, p_i, s))
            data_ss, split_ss = ss.spawn(2)
            X, y = NullSource(class_prior=prior).sample(rng=data_ss)
            fold = StratifiedRepeatedCV(n_runs=1).fold_of(y, rng=split_ss)
            groups["null"].append(dict(X=X.astype(np.float64), y=np.asarray(y, np.int64),
                                       n_values=np.full(X.shape[1], 2, np.int64), n_classes=2,
                                       fold=fold, prior=prior))
    for u, name in enumerate(UCI_NOMINAL):
        ds = load_uci(name)
        split_ss = np.random.SeedSequence(ROOT_ENTROPY, spawn_key=(8, u))
        fold = StratifiedRepeatedCV(n_runs=uci_runs).fold_of(ds.y, rng=split_ss)
        groups["uci"].append(dict(X=np.asarray(ds.X, np.float64), y=np.asarray(ds.y, np.int64),
                                  n_values=np.asarray(ds.n_values, np.int64),
                                  n_classes=ds.n_classes, fold=fold, name=name,
                                  arff=REPO / "calibsim" / "data" / "uci" / f"{name}.arff"))
    return groups


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--null-sets", type=int, default=50, help="null data sets per class prior")
    ap.add_argument("--uci-runs", type=int, default=10)
    ap.add_argument("--write", action="store_true", help="write the fixture")
    args = ap.parse_args(argv)
    groups = make_groups(args.null_sets, args.uci_runs)
    with tempfile.TemporaryDirectory() as tmpname:
        tmp = pathlib.Path(tmpname)
        write_missing_arffs(groups, tmp)
        jobs = [(d["arff"], d["fold"], d["X"].shape[1]) for sets in groups.values() for d in sets]
        t0 = time.perf_counter()
        results = iter(run_weka(jobs, tmp))
        print(f"Weka ran in {time.perf_counter() - t0:.1f} s")
        for g, sets in groups.items():
            for d in sets:
                d["weka_tan"], d["weka_vp"], d["weka_parent"] = next(results)
    status = 0
    for g, sets in groups.items():
        tot = dict(tan=0, n=0, vp=0, n_vp=0, par=0, n_par=0)
        for d in sets:
            tan, vp, parents = ours(d["X"], d["y"], d["n_values"], d["n_classes"], d["fold"])
            agree_t = int(np.sum(tan == d["weka_tan"]))
            agree_p = int(np.sum(np.all(parents == d["weka_parent"], axis=-1)))
            tot["tan"] += agree_t
            tot["n"] += tan.size
            tot["par"] += agree_p
            tot["n_par"] += parents.shape[0] * parents.shape[1]
            n_trees = parents.shape[0] * parents.shape[1]
            line = f"TAN {agree_t}/{tan.size}, trees {agree_p}/{n_trees}"
            if d["n_classes"] == 2:
                agree_v = int(np.sum(vp == d["weka_vp"]))
                tot["vp"] += agree_v
                tot["n_vp"] += vp.size
                line += f", VP {agree_v}/{vp.size}"
            if g == "uci":
                print(f"  {d['name']:16s} {line}")
        n, nv = tot["n"], max(tot["n_vp"], 1)
        print(f"{g}: {len(sets)} data sets; TAN agrees {tot['tan']}/{n} ({tot['tan'] / n:.4%}), "
              f"tree structures {tot['par']}/{tot['n_par']}; VotedPerceptron {tot['vp']}/"
              f"{tot['n_vp']} ({tot['vp'] / nv:.4%})")
        if tot["tan"] != n or tot["vp"] != tot["n_vp"] or tot["par"] != tot["n_par"]:
            status = 1
    if args.write:
        i8 = np.int8
        payload = {}
        sets = groups["null"]
        payload["null__fold"] = np.stack([d["fold"] for d in sets]).astype(i8)
        payload["null__y"] = np.stack([d["y"] for d in sets]).astype(i8)
        X = np.stack([d["X"] for d in sets]).astype(np.uint8)
        payload["null__X_bits"] = np.packbits(X.reshape(len(sets), -1), axis=1)
        payload["null__n_attributes"] = np.int64(X.shape[2])
        payload["null__class_prior"] = np.array([d["prior"] for d in sets])
        payload["null__tan"] = np.stack([d["weka_tan"] for d in sets]).astype(i8)
        payload["null__vp"] = np.stack([d["weka_vp"] for d in sets]).astype(i8)
        payload["null__tan_parent"] = np.stack([d["weka_parent"] for d in sets]).astype(i8)
        for d in groups["uci"]:
            p = d["name"] + "__"
            payload[p + "fold"] = d["fold"].astype(i8)
            payload[p + "tan"] = d["weka_tan"].astype(i8)
            payload[p + "tan_parent"] = d["weka_parent"].astype(i8)
            if d["n_classes"] == 2:
                payload[p + "vp"] = d["weka_vp"].astype(i8)
        np.savez_compressed(FIXTURE, **payload)
        print(f"wrote {FIXTURE.relative_to(REPO)} ({FIXTURE.stat().st_size / 1024:.0f} KiB)")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
