"""Study files, pure block computation, Dask distribution and resuming."""

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from calibsim.study import load_scores, load_study, run_block, run_study

ROOT = Path(__file__).resolve().parents[1]
FIGURE2 = ROOT / "studies" / "bouckaert2003_figure2.toml"

SMALL = """
[study]
name = "small"
seed = 7
n_datasets = 6

[source]
kind = "null"
n_instances = 40
n_attributes = 4

[learners]
a = "naive_bayes"
b = "c45"

[cv]
n_folds = 4
n_runs = 3

[subsampling]
n_runs = 3
test_fraction = 0.25

[calibration]
runs = [2, 3]
alphas = [0.05]
df_max = 20
tests = ["use_all_data", "kfold_cv", "corrected_resampling"]

[execution]
block_size = 4
"""


@pytest.fixture
def small(tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(SMALL)
    study = load_study(path)
    return replace(study, results_dir=tmp_path / "results", figures_dir=tmp_path / "fig",
                   tables_dir=tmp_path / "fig")


def test_figure2_study_file_is_valid():
    study = load_study(FIGURE2)
    assert study.n_datasets == 1000 and study.cv.n_runs == 100 and study.cv.n_folds == 10
    assert study.runs[0] == 5 and study.runs[-1] == 100 and len(study.tests) == 13
    assert study.dfs[0] == 2 and study.dfs[-1] == 100


def _arrays(scores):
    return {k: v for k, v in vars(scores).items() if v is not None}


def test_results_do_not_depend_on_block_size_or_workers(small):
    reference = run_study(replace(small, block_size=6), n_workers=0)
    other = run_study(replace(small, block_size=1, results_dir=small.results_dir.parent / "b1"),
                      n_workers=1, processes=False)
    two = run_study(replace(small, block_size=4, results_dir=small.results_dir.parent / "b4"),
                    n_workers=2, processes=False)
    for scores in (other, two):
        for name, arr in _arrays(reference).items():
            assert np.array_equal(arr, getattr(scores, name)), name


def test_block_is_pure_and_keyed_by_dataset_index(small):
    whole = run_block(small.block(0, 6))
    part = run_block(small.block(2, 5))
    again = run_block(small.block(2, 5))
    for name in part:
        assert np.array_equal(part[name], again[name])
        assert np.array_equal(part[name], whole[name][2:5])


def test_scores_shapes_and_ranges(small):
    scores = run_study(small, n_workers=0)
    assert scores.cv_correct.shape == (6, 2, 3, 4)
    assert np.all(scores.cv_n_test.sum(axis=-1) == 40)       # every instance tested once a run
    assert np.all((scores.cv_correct >= 0) & (scores.cv_correct <= scores.cv_n_test[:, None]))
    assert np.all(scores.sub_n_test == 10)
    x = scores.cv_difference(2)
    assert x.shape == (6, 2, 4) and np.all(np.abs(x) <= 1)
    assert np.all(scores.c45_size >= 1)


def test_interrupted_study_resumes_from_saved_blocks(small):
    full = run_study(small, n_workers=0)
    blocks = sorted((small.results_dir / "blocks").glob("*.npz"))
    assert len(blocks) == 2
    blocks[1].unlink()                                           # as if killed mid-way
    with pytest.raises(FileNotFoundError, match="2 of 6 data sets of study 'small'"):
        load_scores(small)
    seen = []
    resumed = run_study(small, n_workers=0, progress=lambda d, t: seen.append(d))
    assert seen[0] == 4                                          # 4 data sets were kept
    for name, arr in _arrays(full).items():
        assert np.array_equal(arr, getattr(resumed, name))


def test_changed_study_does_not_reuse_other_scores(small):
    run_study(small, n_workers=0)
    other = replace(small, seed=8)
    with pytest.raises(FileNotFoundError):
        load_scores(other)


@pytest.mark.parametrize("edit, match", [
    (lambda s: s.replace("[cv]", "[cvv]"), r"unknown section\(s\) \['cvv'\]"),
    (lambda s: s.replace("n_folds = 4", "n_folds = 'four'"), "`cv.n_folds` must be of type int"),
    (lambda s: s.replace("n_folds = 4", "n_folds = 1"), "`n_folds` must be an integer >= 2; got 1"),
    (lambda s: s.replace("seed = 7\n", ""), r"\[study\] is missing required key\(s\) \['seed'\]"),
    (lambda s: s.replace("alphas = [0.05]", "alphas = [1.5]"), r"`alphas` must lie in the open"),
    (lambda s: s.replace('"kfold_cv"', '"kfold"'), "`tests` must name tests from"),
    (lambda s: s.replace('b = "c45"', 'b = "svm"'), "`learners` must be two names from"),
    (lambda s: s.replace("runs = [2, 3]", "runs = [2, 30]"), "`runs` must be an integer <= 3"),
    (lambda s: s.replace('kind = "null"', 'kind = "ban"'), "`source.kind` must be 'null'"),
    (lambda s: s.replace("n_runs = 3\n\n[sub", "n_runs = 3\nextra = 1\n\n[sub"),
     r"unknown key `cv.extra`"),
    (lambda s: s + "\n[[broken", "is not valid TOML"),
])
def test_malformed_study_files(tmp_path, edit, match):
    path = tmp_path / "bad.toml"
    path.write_text(edit(SMALL))
    with pytest.raises(ValueError, match=match):
        load_study(path)


def test_missing_study_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        load_study(tmp_path / "nope.toml")


def test_two_worker_processes_match_inline_run(small):
    """A real local cluster (2 worker processes, the default kind) gives the same bits."""
    inline = run_study(replace(small, block_size=6), n_workers=0)
    procs = run_study(replace(small, block_size=2, results_dir=small.results_dir.parent / "p2"),
                      n_workers=2, processes=True)
    for name, arr in _arrays(inline).items():
        assert np.array_equal(arr, getattr(procs, name)), name


def test_null_differences_are_the_figure2_data():
    """The Python API calibrates on the same null data sets as the Figure 2 study."""
    from calibsim.study import null_differences
    study = load_study(FIGURE2)
    x = null_differences(2, n_runs=3, n_folds=10)
    block = run_block(study.block(0, 2))
    c = block["cv_correct"][:, :, :3].astype(float)
    assert np.array_equal(x, (c[:, 0] - c[:, 1]) / block["cv_n_test"][:, :3])


def test_null_differences_bad_runs():
    from calibsim.study import null_differences
    with pytest.raises(ValueError, match="`n_runs` must be an integer >= 1; got 0"):
        null_differences(2, n_runs=0)


def test_fewer_datasets_reuse_a_larger_saved_run(small):
    full = run_study(small, n_workers=0)
    fewer = load_scores(replace(small, n_datasets=3))
    assert np.array_equal(fewer.cv_correct, full.cv_correct[:3])


def test_cv5x2_repeats_are_independent_5x2_experiments(small):
    study = replace(small, cv5x2_repeats=3, results_dir=small.results_dir.parent / "x52")
    scores = run_study(study, n_workers=0)
    assert scores.cv5x2_correct.shape == (6, 2, 3, 5, 2)
    assert np.all(scores.cv5x2_n_test.sum(axis=-1) == 40)          # each run tests all 40
    x = scores.cv5x2_difference()
    assert x.shape == (6, 3, 5, 2) and not np.array_equal(x[:, 0], x[:, 1])
    # the cv5x2 fingerprint differs, the others keep theirs
    assert study.fingerprint != small.fingerprint
