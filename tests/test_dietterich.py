"""Dietterich (1998) ε-point studies: study files, cells, tables, outputs."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from calibsim.cli import main
from calibsim.dietterich import (CellSpec, load_study_file, paper_comparison, run_cell,
                                 run_study, run_study_file, type1_table)
from calibsim.sources import EpsilonPointSource

STUDIES = Path(__file__).resolve().parents[1] / "studies"

SMALL = """
[study]
name = "tiny"
kind = "epsilon_point"
figure = "type1_by_epsilon"
seed = 3
n_trials = 12

[population]
epsilon = [0.1, 0.3]

[schemes]
n_resamples = 5

[tests]
names = ["mcnemar", "proportions", "resampled_t", "kfold_cv_t", "cv5x2_t", "cv5x2_f",
         "mcnemar_exact"]
"""


def _write(tmp_path, text, name="s.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_load_defaults(tmp_path):
    study = load_study_file(_write(tmp_path, SMALL))
    assert [(s.e1, s.e2) for s in study.sources] == [(0.2, 0.0), (0.6, 0.0)]
    assert study.alpha == 0.05 and study.n_resamples == (5,) and study.block_size == 250
    assert study.outputs == Path("figures")


@pytest.mark.parametrize("edit, match", [
    (("[schemes]", "[scheme]"), r"unknown section\(s\) \['scheme'\]"),
    (("seed = 3", "seed = 3\nbogus = 1"), "unknown key `study.bogus`"),
    (("seed = 3", 'seed = "3"'), "`study.seed` must be of type int; got '3'"),
    (("n_trials = 12", "n_trials = 0"), "`study.n_trials` must be an integer >= 1; got 0"),
    (('kind = "epsilon_point"', 'kind = "calibration"'), "`study.kind` must be 'epsilon_point'"),
    (('figure = "type1_by_epsilon"', 'figure = "bars"'), "`study.figure` must be one of"),
    (("epsilon = [0.1, 0.3]", "epsilon = [0.1, 1.3]"),
     r"entry 1 \(epsilon = 1.3\): `epsilon` must lie in \[0, 1\]"),
    (("epsilon = [0.1, 0.3]", "epsilon = [0.1, 0.1]"), "without duplicates"),
    (("epsilon = [0.1, 0.3]", "epsilon = []"), "`population.epsilon` must not be empty"),
    (("epsilon = [0.1, 0.3]", 'epsilon = [0.1, "x"]'),
     r"`population.epsilon\[1\]` must be of type int or float"),
    (("epsilon = [0.1, 0.3]", "epsilon = [0.1, 0.3]\ne1 = [0.2, 0.6]"),
     "`population.e1` and `population.e2` must be given together"),
    (("epsilon = [0.1, 0.3]", "epsilon = [0.1, 0.3]\ne1 = [0.2]\ne2 = [0.0]"),
     "`population.e1` must be a list of 2 numbers"),
    (("epsilon = [0.1, 0.3]", "epsilon = [0.1, 0.3]\ne1 = [0.2, 0.5]\ne2 = [0.0, 0.0]"),
     r"entry 1 \(epsilon = 0.3\): `epsilon` must equal"),
    (("epsilon = [0.1, 0.3]", "epsilon = [0.1, 0.3]\nn_points = 301"),
     "`n_points` must be divisible"),
    (("n_resamples = 5", "n_resamples = 1"), "`schemes.n_resamples` must be integers >= 2"),
    (('"mcnemar_exact"', '"wilcoxon"'), "`tests.names` must be names from"),
    (("[tests]", "[sensitivity]\ngaps = [\"wide\"]\n[tests]"), "`sensitivity.gaps`"),
    (("[tests]", "[tests]\nalpha = 1.5"), r"`tests.alpha` must be in the open interval"),
    (("n_trials = 12", "n_trials = 12\n[execution]\nblock_size = 0"),
     "`execution.block_size` must be an integer >= 1"),
    (("[study]", "[study\n"), "is not valid TOML"),
    (("seed = 3\n", ""), r"\[study\] is missing required key\(s\) \['seed'\]"),
])
def test_malformed_study_file(tmp_path, edit, match):
    old, new = edit
    assert old in SMALL
    path = _write(tmp_path, SMALL.replace(old, new, 1))
    with pytest.raises(ValueError, match=match) as info:
        load_study_file(path)
    assert str(path) in str(info.value)


def test_run_study_file_bad_n_trials(tmp_path):
    with pytest.raises(ValueError, match="`n_trials` must be an integer >= 1; got 0"):
        run_study_file(_write(tmp_path, SMALL), n_trials=0, outputs=tmp_path)


def test_results_do_not_depend_on_block_size(tmp_path):
    study = load_study_file(_write(tmp_path, SMALL))
    a = run_study(study)
    b = run_study(type(study)(**{**study.__dict__, "block_size": 5}))
    key = ["pairs", "epsilon", "test", "n_resamples", "trial"]
    a, b = (f.sort_values(key).reset_index(drop=True) for f in (a, b))
    pd.testing.assert_frame_equal(a, b)
    assert len(a) == 2 * 12 * 7


def test_run_cell_matches_tests_applied_by_hand():
    from calibsim.stats import kfold_cv_ttest, mcnemar_test, resampled_ttest
    src = EpsilonPointSource(epsilon=0.2)
    spec = CellSpec(source=src, seed=9, start=3, stop=8, n_resamples=(4, 10),
                    tests=("mcnemar", "resampled_t", "kfold_cv_t"))
    rows = run_cell(spec)
    res = src.simulate(9, range(3, 8), n_resamples=10)
    got = rows.set_index(["test", "n_resamples", "trial"])["pvalue"].sort_index()
    c = res.holdout_counts
    np.testing.assert_allclose(got.loc["mcnemar", 0].to_numpy(),
                               mcnemar_test(c[:, 1], c[:, 2]).pvalue)
    np.testing.assert_allclose(got.loc["resampled_t", 4].to_numpy(),
                               resampled_ttest(res.resampling_diff[:, :4]).pvalue)
    np.testing.assert_allclose(got.loc["kfold_cv_t", 0].to_numpy(),
                               kfold_cv_ttest(res.kfold_diff).pvalue)
    assert spec.key.startswith("study|epsilon_point(e1=0.4")


def test_type1_table_clopper_pearson():
    p = pd.DataFrame({"pairs": "study", "epsilon": 0.1, "e1": 0.2, "e2": 0.0,
                      "test": "x", "n_resamples": 0, "pvalue": np.r_[np.full(7, 0.05),
                                                                       np.full(93, 0.5)]})
    row = type1_table(p, alpha=0.05).iloc[0]
    ci = stats.binomtest(7, 100).proportion_ci(method="exact")   # p <= alpha rejects
    assert row.n_rejected == 7 and row.type1_error == 0.07
    assert (row.ci_low, row.ci_high) == pytest.approx((ci.low, ci.high))
    assert row.mc_se == pytest.approx(np.sqrt(0.07 * 0.93 / 100))


def test_paper_comparison_rules():
    def rows(test, rates):
        return [{"pairs": "study", "epsilon": e, "e1": 2 * e, "e2": 0.0, "test": test,
                 "n_resamples": 30 if test == "resampled_t" else 0, "pvalue": None,
                 "type1_error": r, "ci_low": r - 0.01, "ci_high": r + 0.01}
                for e, r in zip((0.1, 0.4), rates)]
    table = pd.DataFrame(rows("mcnemar", (0.03, 0.04)) + rows("proportions", (0.05, 0.12))
                         + rows("resampled_t", (0.2, 0.5)) + rows("kfold_cv_t", (0.05, 0.07))
                         + rows("cv5x2_t", (0.02, 0.02)))
    verdict = {c["claim"]: c["verdict"] for c in paper_comparison(table)}
    assert verdict["proportions: Type I error exceeds the target 0.05"] == "agrees"
    assert verdict["resampled_t: Type I error exceeds the target 0.05"] == "agrees"
    assert verdict["the resampled t has the highest Type I error of the five tests"] == "agrees"
    assert verdict["difference of proportions: worse as ε approaches 0.5"] == "agrees"
    # CI lower bound 0.06 > 0.05 at eps 0.4
    assert verdict["kfold_cv_t: acceptable Type I error (near or below 0.05)"] == "differs"
    assert verdict["mcnemar: acceptable Type I error (near or below 0.05)"] == "agrees"


@pytest.mark.parametrize("stem", ["dietterich1998_figure4", "dietterich1998_figure5"])
def test_study_files_end_to_end(tmp_path, stem):
    paths = run_study_file(STUDIES / f"{stem}.toml", outputs=tmp_path, n_trials=8)
    assert set(paths) == {"pvalues", "csv", "md", "report", "figure.png", "figure.pdf"}
    for path in paths.values():
        assert path.is_file() and path.parent == tmp_path and path.name.startswith(stem)
    table = pd.read_csv(paths["csv"])
    assert table["n_trials"].eq(8).all()
    assert table["ci_low"].le(table["type1_error"]).all()
    assert table["ci_high"].ge(table["type1_error"]).all()
    report = paths["report"].read_text(encoding="utf-8")
    assert "| finding (Dietterich 1998, §4) |" in report
    pv = pd.read_csv(paths["pvalues"])
    assert pv["pvalue"].between(0, 1).all()


def test_cli_dispatches_epsilon_point(tmp_path, capsys):
    path = _write(tmp_path, SMALL)
    assert main(["run", str(path), "--n-datasets", "4", "--outputs", str(tmp_path / "o"),
                 "--no-progress"]) == 0
    assert "tiny_report.md" in capsys.readouterr().out
    assert (tmp_path / "o" / "tiny.png").is_file()
