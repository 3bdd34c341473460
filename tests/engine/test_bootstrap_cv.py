"""The bootstrap of the cv estimate (Cai et al. 2023) as a design of the engine (issue 43).

Hand-worked cases of the splitter and the test, the learners fitted on the resampled rows
checked against fits by hand, and the scores bit-identical for any block size and worker
count.
"""

import textwrap
from dataclasses import replace

import numpy as np
import pytest

import calibsim
from calibsim.engine.scoring import accuracies, parse_design, parse_learner
from calibsim.datasets._loaders import from_arrays
from calibsim.engine import compute_scores, load_study, run_analyses
from calibsim.engine.runner import cluster
from calibsim.learners import NaiveBayes
from calibsim.schemes import BootstrapCV
from calibsim.stats import bootstrap_cv_train_size, get_test
from _studies import scored_study, tiny_study

TINY = tiny_study("tiny_boot", seed=3, block_size=2, n_instances=40, n_datasets=5) + """
[schemes.boot]
kind = "bootstrap_cv"
n_bootstrap = 4
n_splits = 3
train_fraction = 0.5

[[analysis]]
kind = "coverage"
tests = ["bootstrap_cv"]
alphas = [0.05]
truth = { null = 0.0 }

[outputs]
results = "results"
"""


def test_the_splitter_by_hand():
    scheme = BootstrapCV(n_bootstrap=3, n_splits=4, train_fraction=0.5)
    rows, test = scheme.resample(30, rng=1)
    m, m_adj = scheme.n_train(30), scheme.adjusted_train_size(30)
    assert (m, m_adj) == (15, bootstrap_cv_train_size(30, 15)) and m < m_adj < 30
    np.testing.assert_array_equal(rows[0], np.arange(30))              # the data as they are
    assert (np.diff(rows[1:], axis=1) >= 0).all()                       # sorted draws
    assert not np.array_equal(rows[1], rows[2])
    np.testing.assert_array_equal((~test[0]).sum(-1), [15] * 4)        # m train, n - m test
    np.testing.assert_array_equal((~test[1:]).sum(-1), np.full((3, 4), m_adj))
    # every copy of an instance is on its instance's side: the split's indices partition
    # the resampled rows, and no original index is on both sides
    for k, (train, tst) in enumerate(scheme.split(np.zeros((30, 1)), rng=1)):
        b, c = divmod(k, 4)
        assert len(train) + len(tst) == 30 and not np.intersect1d(train, tst).size
        np.testing.assert_array_equal(np.sort(np.r_[train, tst]), rows[b])
        np.testing.assert_array_equal(np.unique(tst), np.flatnonzero(test[b, c] & np.isin(
            np.arange(30), rows[b])))
    again = scheme.resample(30, rng=np.random.SeedSequence(1))
    assert all(np.array_equal(a, b) for a, b in zip((rows, test), again))


def test_a_split_without_copies_on_a_side_is_drawn_again():
    # m_adj = 19 of 20: a test side of one instance is undrawn in ~36% of the samples
    scheme = BootstrapCV(n_bootstrap=30, n_splits=5, train_fraction=0.9)
    rows, test = scheme.resample(20, rng=0)
    counts = np.stack([np.bincount(r, minlength=20) for r in rows])
    on_test = (test * counts[:, None]).sum(-1)
    assert (on_test > 0).all() and (on_test < 20).all()


@pytest.mark.parametrize("bad, match", [
    (dict(n_bootstrap=1), r"`n_bootstrap` must be"), (dict(n_splits=1), r"`n_splits` must be"),
    (dict(train_fraction=1.0), r"`train_fraction`")])
def test_the_splitter_refuses(bad, match):
    with pytest.raises(ValueError, match=match):
        BootstrapCV(**bad)


def test_the_registered_test_by_hand():
    # row 0: the estimate's splits (mean 3); rows 1..3 the bootstrap samples; ANOVA:
    # MS_B = 32/3, MS_W = 4/3, sigma_u = sqrt((MS_B - MS_W) / 2) = 2.1602; m_adj(90, 50) = 61
    x = [[2, 4], [1, 3], [2, 2], [5, 7]]
    res = get_test("bootstrap_cv")(x, n_instances=90, n_train=50)
    factor = np.sqrt((90 - 61 + 0.632 * 61) / 90)
    assert float(res._estimate) == 3.0
    assert abs(float(res._stderr) - np.sqrt((32 / 3 - 4 / 3) / 2) * factor) < 1e-12
    assert res.df == np.inf and 0 < float(res.pvalue) < 1
    raw = get_test("bootstrap_cv_unadjusted")(x, n_instances=90, n_train=50)  # adj = FALSE
    assert abs(float(raw._stderr) - np.sqrt((32 / 3 - 4 / 3) / 2)) < 1e-12
    with pytest.raises(ValueError, match=r"`df` must be None"):
        get_test("bootstrap_cv")(x, 3.0, n_instances=90, n_train=50)
    with pytest.raises(ValueError, match=r"1 \+ B"):
        get_test("bootstrap_cv")(x[:2], n_instances=90, n_train=50)


def _data(n=40):
    rng = np.random.default_rng(5)
    X = rng.integers(0, 3, size=(n, 4))
    y = (X[:, 0] + rng.integers(0, 2, size=n)) % 2
    return from_arrays(X, y, n_values=np.full(4, 3), name="tiny")


def test_the_fits_are_those_on_the_resampled_rows():
    ds = _data()
    d = parse_design("bootcv:3x2@0.5")
    acc, masks, _ = accuracies([parse_learner("naive_bayes", "a"), parse_learner("c45", "b")],
                               ds, None, d, 4, 1, n_jobs=None, scheduler=None,
                               progress=False, return_masks=True)
    rows, test = d.splitter().resample(40, 4)
    np.testing.assert_array_equal(masks, test)
    X, y = ds.nominal_codes(), np.asarray(ds.y)
    for b in range(4):
        for c in range(2):
            r = rows[b]
            side = test[b, c][r]
            nb = NaiveBayes().fit(X[r][~side], y[r][~side])
            want = np.mean(nb.predict(X[r][side]) == y[r][side])
            assert acc[0, 0, b, c] == pytest.approx(want, abs=1e-12)


def test_compare_runs_it_and_names_it():
    ds = _data()
    res = calibsim.compare("naive_bayes", "c45", ds, design="bootcv:4x3", test="bootstrap_cv",
                           random_state=0, progress=False)
    assert res.test == "bootstrap_cv" and res.design == "bootcv:4x3" and np.isnan(res.df)
    assert len(res.scores) == 3 and res.test_masks.shape == (1, 3, 40)
    assert 0 <= res.pvalue <= 1 and "Cai et al. 2023" in res._report().render()
    with pytest.raises(ValueError, match=r"does not fit the design '10x10'.*bootcv"):
        calibsim.compare("naive_bayes", "c45", ds, test="bootstrap_cv")
    with pytest.raises(ValueError, match=r"`design` 'bootcv:BxC' needs B >= 2"):
        parse_design("bootcv:1x5")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return scored_study(tmp_path_factory, TINY, "boot")


def test_same_bytes_for_any_block_size_and_worker_count(tiny, tmp_path):
    study, scores = tiny
    a = scores.arrays[("null", "boot")]
    assert a["correct"].shape == (5, 2, 5, 3) and a["n_test"].shape == (5, 5, 3)
    assert (a["n_test"][:, 0] == 20).all()                 # row 0: n - m test instances
    other = compute_scores(replace(study, block_size=3, results=tmp_path / "r3"))
    with cluster(n_workers=2, processes=False) as client:
        two = compute_scores(replace(study, results=tmp_path / "w2"), client=client)
    for key, arrays in scores.arrays.items():
        for name in ("correct", "n_test", "model_size"):
            assert arrays[name].tobytes() == other.arrays[key][name].tobytes(), (key, name)
            assert arrays[name].tobytes() == two.arrays[key][name].tobytes(), (key, name)


def test_repeats_append_independent_draws_after_the_first(tiny, tmp_path):
    # repeats = 2: the first block is what the scheme drew without repeats, the second a
    # new draw; the replicability analysis reads one block per repeat
    study, scores = tiny
    path = tmp_path / "rep.toml"
    path.write_text(TINY.replace("train_fraction = 0.5", "train_fraction = 0.5\nrepeats = 2")
                    + textwrap.dedent("""
                    [[analysis]]
                    kind = "replicability"
                    name = "rep"
                    tests = ["bootstrap_cv"]
                    repeats = 2
                    alphas = [0.5]
                    """), encoding="utf-8")
    rep = load_study(path)
    rep = replace(rep, results=tmp_path / "results")
    two = compute_scores(rep)
    a, b = scores.arrays[("null", "boot")], two.arrays[("null", "boot")]
    assert b["correct"].shape == (5, 2, 10, 3)
    assert b["correct"][:, :, :5].tobytes() == a["correct"].tobytes()
    assert not np.array_equal(b["correct"][:, :, 5:], a["correct"])
    row = run_analyses(rep, two)["rep"].iloc[0]
    assert row["repeats"] == 2 and row["n"] == 5 and 0 <= row["R"] <= 1
    with pytest.raises(ValueError, match=r"`analysis\[1\]\.repeats` must not exceed"):
        load_study(path.write_text(path.read_text().replace("repeats = 2\nalphas",
                                                            "repeats = 3\nalphas")) and path)


def test_the_new_stream_leaves_the_earlier_ones():
    # "bootstrap" is spawned after the six streams before it, which stay as they were
    from calibsim._rng import STREAMS, dataset_seeds
    new = dataset_seeds(7, 123, 4)
    old = np.random.SeedSequence(7, spawn_key=(123, 4)).spawn(6)
    assert STREAMS[-1] == "bootstrap"
    for name, ss in zip(STREAMS[:6], old):
        np.testing.assert_array_equal(new[name].generate_state(4), ss.generate_state(4))


def test_the_coverage_analysis_runs_the_test(tiny):
    study, scores = tiny
    table = run_analyses(study, scores)["coverage"]
    row = table.iloc[0]
    assert row["test"] == "bootstrap_cv" and row["n"] == 5 and row["n_runs"] == 5
    assert 0 <= row["coverage"] <= 1


def test_a_bootstrap_cv_scheme_keeps_no_correctness(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(textwrap.dedent(TINY.replace("train_fraction = 0.5",
                                                 "train_fraction = 0.5\ncorrectness = true")),
                    encoding="utf-8")
    with pytest.raises(ValueError, match=r"`schemes.boot.correctness` must be false"):
        load_study(path)


def test_compare_all_runs_it_and_ranking_refuses_it():
    ds = _data()
    table = calibsim.compare_all(["naive_bayes", "c45", "ib1"], ds, design="bootcv:3x2",
                                 test="bootstrap_cv", progress=False)
    assert len(table) == 3 and set(table["test"]) == {"bootstrap_cv"}
    assert table._info["accuracies"].shape == (3, 2)         # the splits of the data
    with pytest.raises(ValueError, match=r"is the bootstrap cv design"):
        calibsim.compare_datasets(["naive_bayes", "c45"], [ds, _data(30)],
                                  design="bootcv:3x2")
    with pytest.raises(ValueError, match=r"`method` 'bayes' needs per-fold differences"):
        calibsim.compare("naive_bayes", "c45", ds, design="bootcv:3x2", method="bayes")
