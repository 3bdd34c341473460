"""Every registered test through every door, on every design (issue 32).

compare, compare_all, compare_scores, compare_datasets, calibrate, calibrate_like and
rank: on a design a test fits, an answer with p-values (or Type I errors) in [0, 1]; on
one it does not, one ValueError naming the design and the designs the test fits. Never
anything else. Tiny data, few runs: quick.
"""

import warnings
from collections import Counter

import numpy as np
import pandas as pd
import pytest

import calibsim
from calibsim.datasets._loaders import from_arrays
from calibsim.stats import (BAYES_TESTS, INSTANCE_TESTS, TESTS, fits_design, needs_instances,
                            takes_df)

ALL_TESTS = list(TESTS) + list(BAYES_TESTS) + list(INSTANCE_TESTS)
#: design -> (kind, r, k): what the matrix runs every test on
DESIGNS = {"2x3": ("cv", 2, 3), "1x3": ("cv", 1, 3), "5x2cv": ("cv5x2", 5, 2),
           "subsampling:4": ("subsampling", 4, 0), "subsampling:4@0.2": ("subsampling", 4, 0),
           "holdout": ("holdout", 1, 0)}


def _data(seed, n=40):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, size=(n, 3))
    y = (X[:, 0] + rng.integers(0, 2, size=n)) % 2
    return from_arrays(X, y, n_values=np.full(3, 3), name=f"tiny{seed}")


@pytest.fixture(scope="module")
def counts():
    c = Counter()
    yield c
    print(f"\nmatrix: answered {c['answered']}, refused {c['refused']}, broken {c['broken']}"
          f" (by door: {dict(sorted((k, v) for k, v in c.items() if '/' in k))})")
    assert c["broken"] == 0


def _door(counts, door, test, design, fits, call, check):
    """Run one cell: an answer where the test fits, one clear ValueError where not."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # DesignWarning: textbook df off the table
        try:
            out = call()
        except ValueError as exc:
            text = str(exc)
            if fits:
                counts["broken"] += 1
                raise AssertionError(f"{door}: {test} on {design} fits but was refused: {text}")
            assert "it fits" in text or "takes no df" in text or "need each instance" in text \
                or "holdout" in text, (door, test, design, text)
            counts["refused"] += 1
            counts[f"{door}/refused"] += 1
            return
        except Exception as exc:                 # noqa: BLE001 - counted, then failed
            counts["broken"] += 1
            raise AssertionError(f"{door}: {test} on {design}: {type(exc).__name__}: {exc}")
    if not fits:
        counts["broken"] += 1
        raise AssertionError(f"{door}: {test} on {design} does not fit but answered")
    check(out)
    counts["answered"] += 1
    counts[f"{door}/answered"] += 1


def _p_ok(p):
    p = np.asarray(p, dtype=float)
    assert p.size and np.all((p >= 0) & (p <= 1)), p


@pytest.mark.parametrize("design", list(DESIGNS))
def test_compare_compare_all_and_compare_scores(design, counts):
    kind, r, k = DESIGNS[design]
    ds = _data(0)
    for test in ALL_TESTS:
        fits = fits_design(test, kind, r, k)

        def check(res):
            _p_ok(res.pvalue)
            assert res.test == test and res.design == design and res.splitter
            str(res)                                            # prints, never fails
        _door(counts, "compare", test, design, fits,
              lambda: calibsim.compare("naive_bayes", "c45", ds, design=design, test=test,
                                       replicability=None, progress=False), check)
        _door(counts, "compare_all", test, design, fits,
              lambda: calibsim.compare_all(["naive_bayes", "c45", "ib1"], ds, design=design,
                                           test=test, progress=False),
              lambda t: (_p_ok(t["pvalue"]), _p_ok(t["pvalue_adjusted"])))
        # given scores have no per-instance outcomes (McNemar's counts, INSTANCE_TESTS)
        scores_fit = fits and kind != "holdout" and not needs_instances(test)
        shape = (r, k) if kind in ("cv", "cv5x2") else (r,)
        rng = np.random.default_rng(1)
        a, b = rng.uniform(0.6, 0.9, shape), rng.uniform(0.6, 0.9, shape)
        _door(counts, "compare_scores", test, design, scores_fit,
              lambda: calibsim.compare_scores(a, b, design=design, test=test,
                                              replicability=None),
              lambda res: _p_ok(res.pvalue))


@pytest.mark.parametrize("design", list(DESIGNS))
def test_rank_and_compare_datasets(design, counts):
    kind, r, k = DESIGNS[design]
    n_folds = r * max(k, 1)
    rng = np.random.default_rng(2)
    rows = [{"dataset": f"d{s}", "learner": name, "fold": f,
             "accuracy": float(rng.uniform(0.6, 0.9))}
            for s in range(4) for name in ("nb", "c45", "ib1") for f in range(n_folds)]
    table = pd.DataFrame(rows)
    sets = [_data(3), _data(4)]
    for test in ALL_TESTS:
        # MultiTest needs per-fold scores of one design; McNemar's counts are not scores
        fits = fits_design(test, kind, r, k) and kind != "holdout" and not needs_instances(test)

        def check(res):
            _p_ok(res.friedman.pvalue)
            for m in res.multi2test.per_dataset:
                p = m.pvalue[np.isfinite(m.pvalue)]
                _p_ok(p)
        _door(counts, "rank", test, design, fits,
              lambda: calibsim.rank(table, pairwise_test=test,
                                    folds_per_run=k if kind in ("cv", "cv5x2") else None),
              check)
        _door(counts, "compare_datasets", test, design, fits,
              lambda: calibsim.compare_datasets(["naive_bayes", "c45"], sets, design=design,
                                                test=test, progress=False),
              check)


@pytest.mark.parametrize("design", [d for d in DESIGNS if DESIGNS[d][0] != "holdout"])
def test_calibrate(design, counts):
    kind, r, k = DESIGNS[design]
    rng = np.random.default_rng(3)
    x = rng.normal(0, 0.02, (30, r, k) if kind in ("cv", "cv5x2") else (30, r))
    for test in ALL_TESTS:
        fits = fits_design(test, kind, r, k) and takes_df(test)
        _door(counts, "calibrate", test, design, fits,
              lambda: calibsim.calibrate(test, x, alphas=[0.05], dfs=np.arange(2, 12)),
              lambda res: (_p_ok(res.type1), None))


@pytest.mark.parametrize("design", list(DESIGNS))
def test_calibrate_like(design, counts, tmp_path):
    kind, r, k = DESIGNS[design]
    ds = _data(5, n=30)
    csv = tmp_path / "tiny.csv"
    frame = pd.DataFrame(ds.X.astype(int), columns=["a", "b", "c"]).astype(str)
    frame["class"] = np.asarray(ds.y).astype(str)
    frame.to_csv(csv, index=False)
    for test in ALL_TESTS:
        fits = fits_design(test, kind, r, k) and takes_df(test) and kind != "holdout"

        def check(table):
            _p_ok(table["type1_textbook"])
            assert (table["n_datasets"] == 2).all()
        _door(counts, "calibrate_like", test, design, fits,
              lambda: calibsim.calibrate_like(str(csv), design=design, test=test,
                                               n_datasets=2, n_jobs=0,
                                               results=tmp_path / test),
              check)
