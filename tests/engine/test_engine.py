"""The engine end to end: one cell function, one store, one runner, every analysis kind."""

import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from calibsim.cli import main
from calibsim.engine import compute_scores, load_study, run_analyses
from calibsim.engine.pipeline import run_study_file
from calibsim.engine.run import store_key
from calibsim.engine.runner import cluster
from _studies import tiny_study

REPO = Path(__file__).resolve().parents[2]

SMALL = tiny_study('small', seed=7, block_size=4, n_datasets=10) + """[schemes.subsampling]
kind = "subsampling"
n_runs = 4
test_fraction = 0.2

[schemes.holdout]
kind = "holdout"
n_runs = 3
correctness = true

[schemes.cv5x2]
kind = "cv5x2"
repeats = 2

[[analysis]]
kind = "calibrate"
tests = ["use_all_data", "corrected_resampling", "kfold_cv"]
runs = [2, 4]
alphas = [0.05, 0.1]
df_max = 20
continuous = true

[[analysis]]
kind = "rejection_rate"
name = "classic"
tests = ["mcnemar", "proportions", "cv5x2_t", "resampling"]
alphas = [0.05]

[[analysis]]
kind = "rejection_rate"
name = "calibrated"
tests = ["use_all_data"]
runs = [4]
df = "calibrated"

[[analysis]]
kind = "replicability"
tests = ["use_all_data", "cv5x2_t"]
schemes = ["cv", "cv5x2"]
runs = [2]
repeats = 2
alphas = [0.05]

[[analysis]]
kind = "accuracy"

[outputs]
results = "results"
figures = "figures"
"""


@pytest.fixture
def small(tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(textwrap.dedent(SMALL), encoding="utf-8")
    return path


def _arrays(scores):
    return {k: {n: a.copy() for n, a in v.items()} for k, v in scores.arrays.items()}


def _equal(a, b):
    assert a.keys() == b.keys()
    for k in a:
        assert a[k].keys() == b[k].keys(), k
        for n in a[k]:
            if n in ("fit_time", "predict_time"):
                continue
            np.testing.assert_array_equal(a[k][n], b[k][n], err_msg=f"{k} {n}")


def test_scores_shapes_and_ranges(small):
    study = load_study(small)
    scores = compute_scores(study)
    cv = scores.arrays[("null", "cv")]
    assert cv["correct"].shape == (10, 2, 4, 5) and cv["n_test"].shape == (10, 4, 5)
    assert (cv["correct"] <= cv["n_test"][:, None]).all() and (cv["n_test"] == 12).all()
    assert scores.arrays[("null", "cv5x2")]["correct"].shape == (10, 2, 2, 5, 2)
    counts = scores.mcnemar_counts("null", "holdout", ("naive_bayes", "c45"))
    n_test = scores.arrays[("null", "holdout")]["n_test"][:, 0]
    np.testing.assert_array_equal(counts.sum(axis=1), n_test)
    acc = scores.accuracy("null", "holdout", "naive_bayes")[:, 0]
    np.testing.assert_allclose(acc, (counts[:, 2] + counts[:, 3]) / n_test)
    assert (scores.model_size("null", "cv", "c45") >= 1).all()


def test_results_do_not_depend_on_block_size_or_workers(small, tmp_path):
    from dataclasses import replace
    ref = _arrays(compute_scores(load_study(small)))
    for block_size, n_workers in ((3, 0), (10, 2)):
        study = replace(load_study(small), block_size=block_size,
                        results=tmp_path / f"r{block_size}")
        with cluster(n_workers=n_workers, processes=False) as client:
            _equal(ref, _arrays(compute_scores(study, client=client)))


def test_common_random_numbers_across_learner_sets(small, tmp_path):
    """Adding a learner changes nothing for the others: seeds are keyed by data set only."""
    from dataclasses import replace
    a = compute_scores(load_study(small))
    text = small.read_text().replace('names = ["naive_bayes", "c45"]',
                                     'names = ["ib1", "naive_bayes", "c45"]')
    other = tmp_path / "three.toml"
    other.write_text(text)
    b = compute_scores(replace(load_study(other), results=tmp_path / "three"))
    np.testing.assert_array_equal(a.difference("null", "cv", ("naive_bayes", "c45")),
                                  b.difference("null", "cv", ("naive_bayes", "c45")))


def test_interrupted_study_resumes_and_recomputes_only_what_is_missing(small, monkeypatch):
    study = load_study(small)
    ref = _arrays(compute_scores(study))
    key, _ = store_key(study, study.sources[0], study.scheme("cv"))
    blocks = sorted((study.results / "store" / key).glob("*.npz"))
    assert len(blocks) == 3                      # 10 data sets in blocks of 4
    blocks[1].unlink()
    import calibsim.engine.run as run_mod
    calls = []
    real = run_mod.run_cell
    monkeypatch.setattr(run_mod, "run_cell", lambda cell: calls.append(cell) or real(cell))
    _equal(ref, _arrays(compute_scores(study)))
    assert [(c.start, c.stop, [s.name for s in c.schemes]) for c in calls] == [(4, 8, ["cv"])]


@pytest.mark.parametrize("damage", ["truncate", "flip"])
def test_corrupted_block_is_detected_and_recomputed(small, damage):
    study = load_study(small)
    ref = _arrays(compute_scores(study))
    key, _ = store_key(study, study.sources[0], study.scheme("subsampling"))
    block = sorted((study.results / "store" / key).glob("*.npz"))[0]
    data = bytearray(block.read_bytes())
    if damage == "truncate":
        data = data[: len(data) // 2]
    else:
        data[len(data) // 3] ^= 0xFF
    block.write_bytes(bytes(data))
    _equal(ref, _arrays(compute_scores(study)))
    assert any((study.results / "store" / key / "quarantine").iterdir())


def test_code_version_change_recomputes(small, monkeypatch):
    from calibsim.engine import store
    study = load_study(small)
    ref = _arrays(compute_scores(study))
    monkeypatch.setenv("CALIBSIM_CODE_VERSION", "another-version")
    store.code_version.cache_clear()
    try:
        _equal(ref, _arrays(compute_scores(study)))
        key, _ = store_key(study, study.sources[0], study.scheme("cv"))
        assert any((study.results / "store" / key / "stale").iterdir())
    finally:
        monkeypatch.delenv("CALIBSIM_CODE_VERSION")
        store.code_version.cache_clear()


def test_every_analysis_kind_has_a_tidy_table(small):
    study = load_study(small)
    tables = run_analyses(study, compute_scores(study), n_boot=20)
    assert set(tables) == {"calibrate", "classic", "calibrated", "replicability", "accuracy"}
    cal = tables["calibrate"]
    assert len(cal) == 3 * 2 * 2 and set(cal["n_runs"]) == {2, 4}
    assert cal["calibrated_df"].between(0, 20).all()
    inside = cal["df_continuous"].between(2, 20)
    np.testing.assert_array_equal(np.ceil(cal.loc[inside, "df_continuous"]) - 1,
                                  cal.loc[inside, "calibrated_df"])
    assert (cal["df_ci_low"] <= cal["df_continuous"]).all()
    assert (cal["df_continuous"] <= cal["df_ci_high"]).all()
    classic = tables["classic"]
    assert set(classic["test"]) == {"mcnemar", "proportions", "cv5x2_t", "resampling"}
    assert classic["rate"].between(0, 1).all() and (classic["n"] == 10).all()
    calibrated = tables["calibrated"]
    expected = cal[(cal["test"] == "use_all_data") & (cal["n_runs"] == 4)
                   & np.isclose(cal["alpha"], 0.05)]["calibrated_df"].iloc[0]
    assert calibrated["df"].iloc[0] == expected
    rep = tables["replicability"]
    assert list(rep["repeats"]) == [2, 2]
    acc = tables["accuracy"]
    assert set(acc["learner"]) == {"naive_bayes", "c45"} and acc["accuracy"].between(0, 1).all()
    shared = {"source", "group", "pair_a", "pair_b", "test", "label", "scheme", "n_runs",
              "alpha"}
    for name in ("calibrate", "classic", "calibrated", "replicability"):
        assert shared <= set(tables[name].columns), name


@pytest.mark.parametrize("workers", ["0", "2"])
def test_cli_run_honours_n_datasets_workers_and_out(small, tmp_path, workers, capsys):
    out = tmp_path / f"out{workers}"
    assert main(["run", str(small), "--n-datasets", "6", "--workers", workers,
                 "--out", str(out), "--no-progress"]) == 0
    for name in ("calibrate", "classic", "calibrated", "replicability", "accuracy"):
        table = pd.read_csv(out / f"small_{name}.csv")
        if "n" in table:
            assert (table["n"] == 6).all(), name
        if "n_datasets" in table:
            assert (table["n_datasets"] == 6).all(), name
    assert main(["report", str(small), "--n-datasets", "6", "--out", str(out)]) == 0


def test_reduced_run_never_overwrites_published_outputs(small, capsys):
    assert main(["run", str(small), "--n-datasets", "3", "--workers", "0",
                 "--no-progress"]) == 0
    published = small.parent / "figures"
    assert not published.exists()
    assert (small.parent / "results" / "reduced" / "small_n3" / "small_accuracy.csv").is_file()


def test_a_quick_look_at_real_data_is_reduced_and_kept_apart():
    from calibsim.engine.pipeline import output_folder
    from calibsim.plotting._style import reduced_size
    full = load_study(REPO / "studies" / "ulas2012_real.toml")
    quick = load_study(REPO / "studies" / "ulas2012_real.toml", n_datasets=4)
    assert len(full.sources) == 32 and not full.reduced
    assert [s.label for s in quick.sources] == [s.label for s in full.sources[:4]]
    assert quick.reduced and reduced_size(quick) == 4
    assert all(len(a.sources) == 4 for a in quick.analyses)
    assert output_folder(quick) == full.results / "reduced" / "ulas2012_real_n4"
    # not reduced (5 data sets, asked for 10), still kept apart from the tracked outputs
    uci = load_study(REPO / "studies" / "example_uci_four_learners.toml", n_datasets=10)
    assert not uci.reduced and output_folder(uci).parent.name == "reduced"
    published = load_study(REPO / "studies" / "ulas2012_synthetic.toml", n_datasets=10)
    assert output_folder(published).parent == published.results / "reduced"
    assert output_folder(load_study(REPO / "studies" / "ulas2012_synthetic.toml")) == \
        published.figures


def test_wall_times_go_to_the_run_log_only(tmp_path):
    small = tmp_path / "small.toml"
    small.write_text(textwrap.dedent(SMALL).replace("seed = 7", "seed = 7\ncosts = true"),
                     encoding="utf-8")
    paths = run_study_file(small, n_workers=0, n_boot=0)
    acc = paths["accuracy.csv"].read_text()
    assert "accuracy" in acc and "fit_time" not in acc and "predict_time" not in acc
    log = (paths["accuracy.csv"].parent / "small_runlog.txt").read_text()
    assert "accuracy: mean seconds per split" in log and "fit_time" in log


def test_report_without_scores_is_a_clear_error(small, capsys):
    assert main(["report", str(small)]) == 2
    err = capsys.readouterr().err
    assert "calibsim report: error" in err and "missing" in err


def test_unreachable_scheduler_is_a_clear_error(small, capsys):
    assert main(["run", str(small), "--scheduler", "tcp://127.0.0.1:1",
                 "--no-progress"]) == 2
    assert "--scheduler" in capsys.readouterr().err


def test_cli_list_and_version(capsys):
    assert main(["list", "tests", "--studies-dir", str(REPO / "studies")]) == 0
    out = capsys.readouterr().out
    assert "use_all_data" in out and "mcnemar" in out
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert "calibsim" in capsys.readouterr().out


def test_cli_calibrate_prints_calibrated_df(tmp_path, capsys):
    assert main(["calibrate", "--test", "use_all_data", "--folds", "5", "--runs", "2",
                 "--n-datasets", "8", "--n-instances", "60", "--workers", "0",
                 "--results", str(tmp_path), "--no-progress"]) == 0
    assert "use all data" in capsys.readouterr().out


def test_run_study_file_with_paper_layout_and_calibration_from_another_file(tmp_path):
    """A table study of Bouckaert (2003) at reduced size, calibrated df from Figure 2's file."""
    paths = run_study_file(REPO / "studies" / "bouckaert2003_table7.toml", n_datasets=4,
                           out=tmp_path / "out", results=tmp_path / "results", n_workers=0)
    assert paths["report"].is_file()
    table = pd.read_csv(tmp_path / "out" / "bouckaert2003_table7_type1.csv")
    assert len(table) == 10 and (table["n"] == 4).all()
    # the Figure 2 study's scores were computed in the results override, not in the repo
    assert any((tmp_path / "results" / "store").iterdir())


def test_null_differences_pin_the_figure2_stream():
    """Regression: the first data sets of the Figure 2 stream (same values as the old driver)."""
    from calibsim.engine import null_differences
    x = null_differences(2, n_runs=1)
    np.testing.assert_array_equal(np.round(x[:, 0] * 30).astype(int),
                                  [[0, -4, 2, -3, 0, -7, 2, -2, -6, -3],
                                   [0, 0, 3, -9, -2, -2, 2, -9, 0, -5]])


def test_null_differences_are_the_studys_first_runs(small):
    from calibsim.engine import null_differences
    study = load_study(small)
    scores = compute_scores(study)
    x = null_differences(10, n_runs=2, n_folds=5, n_instances=60, seed=7)
    np.testing.assert_array_equal(x, scores.difference("null", "cv", ("naive_bayes", "c45"))[:, :2])


def test_fewer_datasets_reuse_a_larger_saved_run(small, monkeypatch):
    study = load_study(small)
    ref = compute_scores(study)
    import calibsim.engine.run as run_mod
    monkeypatch.setattr(run_mod, "run_cell", lambda cell: pytest.fail("recomputed"))
    fewer = compute_scores(load_study(small, n_datasets=6))
    np.testing.assert_array_equal(fewer.arrays[("null", "cv")]["correct"],
                                  ref.arrays[("null", "cv")]["correct"][:6])


def test_cv5x2_repeats_are_independent_experiments(small):
    scores = compute_scores(load_study(small))
    x = scores.difference("null", "cv5x2", ("naive_bayes", "c45"))
    assert x.shape == (10, 2, 5, 2) and not np.array_equal(x[:, 0], x[:, 1])


def test_store_keys_are_shared_between_studies_that_declare_the_same_collection():
    fig2 = load_study(REPO / "studies" / "bouckaert2003_figure2.toml")
    fig4 = load_study(REPO / "studies" / "bouckaert2003_figure4.toml")
    for name in ("cv", "subsampling"):
        assert (store_key(fig2, fig2.source("null"), fig2.scheme(name))[0]
                == store_key(fig4, fig4.source("calibration_data"), fig4.scheme(name))[0])


@pytest.mark.parametrize("block_size,n_workers", [(3, 0), (4, 2), (10, 0)])
def test_analyses_by_blocks_equal_all_scores_at_once(small, tmp_path, block_size, n_workers):
    """Issue 21: calibration, rejection rates and replicability computed block by block
    (on workers) from the store give the tables of all scores at once, bit for bit."""
    from dataclasses import replace

    from calibsim.engine.analyses import by_blocks
    from calibsim.engine.run import analyse_blocks
    study = replace(load_study(small), block_size=block_size,
                    results=tmp_path / f"r{block_size}")
    ref = run_analyses(study, compute_scores(study))
    blocky = [a for a in study.analyses if by_blocks(a)]
    assert {a.kind for a in blocky} == {"calibrate", "rejection_rate", "replicability"}
    with cluster(n_workers=n_workers, processes=False) as client:
        summaries = analyse_blocks(study, blocky, client=client)
        got = run_analyses(study, compute_scores(study), summaries=summaries, client=client)
    assert got.keys() == ref.keys()
    for name in ref:
        pd.testing.assert_frame_equal(got[name], ref[name], check_exact=True)


def test_calibration_summaries_of_a_test_not_monotone_in_df():
    """A test whose rejection is not a step in df keeps every verdict; blocks of steps and
    of verdicts concatenate to the summary of all data sets at once."""
    from calibsim.engine.analyses import _calibrate_summary, _type1_of, concat_summaries
    from calibsim.stats import TTestResult

    def wobbly(x, df=None):
        m = x.mean(axis=(1, 2))
        d = 10.0 if df is None else np.asarray(df, dtype=float)
        p = np.clip(np.abs(np.sin(m * 50 + d)) * (m > 0) + (m <= 0) * 0.5 / (d + 1), 0, 1)
        return TTestResult(np.zeros_like(p), p, d)

    x = -np.abs(np.random.default_rng(3).normal(0, 0.05, size=(40, 2, 5)))
    x[:3] *= -1                                      # only these wobble
    dfs = np.arange(2, 30)
    whole = _calibrate_summary(wobbly, x, dfs, [0.05, 0.2], True)
    assert "rej" in whole and "x" in whole
    parts = [{"k": _calibrate_summary(wobbly, x[i:i + 7], dfs, [0.05, 0.2], True)}
             for i in range(0, 40, 7)]
    assert any("rej" not in p["k"] for p in parts)   # some blocks are steps
    merged = concat_summaries(parts)["k"]
    for f in ("p_default", "cells", "rej", "x"):
        np.testing.assert_array_equal(merged[f], whole[f])
    np.testing.assert_array_equal(_type1_of(merged, dfs.size), _type1_of(whole, dfs.size))


def test_the_bootstrap_in_blocks_replays_the_draws_of_one_cell_after_the_other():
    """The calibrate analysis's bootstrap, cut into blocks for the workers (issue 46),
    gives each cell the resamples it drew when the cells ran one after the other in one
    process, for steps in df and for kept verdicts (``rej``) alike."""
    import pickle

    from calibsim.engine import analyses as A
    gen = np.random.default_rng(5)
    dfs, alphas = np.arange(2, 12), (0.05, 0.1)
    summaries = []
    for i in range(23):
        cells = gen.integers(0, dfs.size + 1, size=(2, 30 + i)).astype(np.uint8)
        summ = {"cells": cells, "p_default": gen.random(30 + i)}
        if i % 3 == 0:                               # verdicts kept, not a step
            summ["rej"] = gen.random((2, dfs.size, 30 + i)) < 0.3
        summaries.append(summ)
    one = np.random.default_rng(np.random.SeedSequence(7))
    ref = [A._bootstrap_df(s, dfs, alphas, 40, one) for s in summaries]
    got = A._bootstraps("calibrate", summaries, dfs, alphas, 40,
                        np.random.default_rng(np.random.SeedSequence(7)), None)
    np.testing.assert_array_equal(np.array(got), np.array(ref))
    block = A.BootstrapBlock("b", tuple(summaries[5:9]), tuple(
        np.random.default_rng(np.random.SeedSequence(k)).bit_generator.state
        for k in range(4)), dfs, alphas, 40)
    assert A.bootstrap_block(pickle.loads(pickle.dumps(block))) == A.bootstrap_block(block)


def test_cells_are_planned_largest_first(tmp_path):
    """Dask starts tasks in submission order: the big data set goes first (issue 21)."""
    from calibsim.engine.run import _plan, store_of
    path = tmp_path / "two.toml"
    path.write_text(textwrap.dedent("""
        [study]
        name = "two"
        seed = 1
        block_size = 1
        [sources.uci]
        kind = "dataset"
        name = ["iris", "credit-g", "labor"]
        [learners]
        names = ["naive_bayes", "c45"]
        [schemes.cv]
        kind = "repeated_kfold"
        n_folds = 2
        n_runs = 1
        [outputs]
        results = "results"
        figures = "figures"
        """), encoding="utf-8")
    study = load_study(path)
    cells, n_missing = _plan(study, store_of(study))
    assert n_missing == 3
    assert [c.source.build().n_instances for c in cells] == [1000, 150, 57]


def test_a_calibration_study_never_loads_every_score_at_once(tmp_path, monkeypatch):
    """Issue 21: with analyses by blocks, the main process holds a block at a time."""
    import calibsim.engine.pipeline as pipeline
    path = tmp_path / "cal.toml"
    text = SMALL.split("[[analysis]]")[0] + "[[analysis]]" + SMALL.split("[[analysis]]")[1]
    path.write_text(textwrap.dedent(text) + '\n[outputs]\nresults = "results"\n'
                    'figures = "figures"\n', encoding="utf-8")

    def refuse(study):
        raise AssertionError("every score was loaded at once")
    monkeypatch.setattr(pipeline, "load_scores", refuse)
    paths = run_study_file(path, n_workers=0)
    table = pd.read_csv(next(p for p in paths.values() if str(p).endswith(".csv")))
    assert len(table) == 3 * 2 * 2 and table["n_datasets"].eq(10).all()


def test_a_block_the_worker_cannot_read_is_summarised_here(small, tmp_path):
    from calibsim.engine.analyses import by_blocks
    from calibsim.engine.run import NO_STORE, AnalysisBlock, analyse_block
    study = load_study(small)
    blocky = tuple(a for a in study.analyses if by_blocks(a))
    spec = AnalysisBlock(study, blocky, {}, str(tmp_path / "elsewhere"), "null",
                         {"cv": "0" * 20}, 0, 4)
    assert analyse_block(spec) == NO_STORE
    with pytest.raises(FileNotFoundError, match="study 'small': scores of source 'null'"):
        analyse_block(spec, here=True)


@pytest.mark.parametrize("test", [
    "resampling", "corrected_resampling", "kfold_cv", "use_all_data", "folds",
    "folds_averaged_var", "folds_averaged_t", "runs", "runs_averaged_var", "runs_averaged_t",
    "sorted_runs", "sorted_runs_averaged_var", "sorted_runs_averaged_t",
    "corrected_repeated_cv"])
def test_first_rejecting_df_by_bisection_equals_the_grid_scan(test):
    """The calibrate summary bisects the df grid for t tests (p falls with df): the
    first rejecting df of every data set is the full scan's, on null-like differences
    with ties and zero variances."""
    from calibsim.engine.analyses import _first_rejecting
    from calibsim.stats import get_test
    rng = np.random.default_rng(11)
    x = rng.integers(-3, 4, size=(3000, 10, 10)) / 30.0       # accuracy-like steps
    x[:50] = 0.0                                               # 0/0: p = 1
    x[50:80] = 0.1                                             # zero variance, m != 0
    func = get_test(test).func
    kw = {"test_train_ratio": 1 / 9} if test == "corrected_resampling" else {}
    data = x[:, :, 0] if get_test(test).scheme == "subsampling" else x
    first = func(data, **kw)
    dfs = np.arange(2, 101)
    grid = first._at_df(dfs[:, None].astype(float))
    alphas = (0.01, 0.05, 0.1)
    cells = _first_rejecting(first._at_df, dfs, alphas)
    for i, alpha in enumerate(alphas):
        rej = grid <= alpha
        scan = np.where(rej.any(axis=0), rej.argmax(axis=0), dfs.size)
        assert np.array_equal(rej, np.arange(dfs.size)[:, None] >= scan)   # a step
        np.testing.assert_array_equal(cells[i], scan)


def test_model_size_does_not_count_round_off():
    from types import SimpleNamespace

    from calibsim.engine.learners import _model_size
    exact = SimpleNamespace(coef_=np.array([[0.5, 0.0, -2.0]]), intercept_=np.array([0.1]))
    noisy = SimpleNamespace(coef_=np.array([[0.5, 1.4e-17, -2.0]]), intercept_=np.array([0.1]))
    assert _model_size(exact) == _model_size(noisy) == 3
    assert _model_size(SimpleNamespace(coef_=np.zeros((1, 3)), intercept_=np.zeros(1))) == 1
