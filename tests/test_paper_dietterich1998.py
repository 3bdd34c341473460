"""Dietterich (1998) on the engine: the three study files end to end, tables, rules, streams."""

from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from calibsim.cli import main
from calibsim.engine import compute_scores, load_study, run_analyses
from calibsim.engine.cells import CellSpec, run_cell
from calibsim.engine.pipeline import run_study_file
from calibsim.engine.run import null_differences
from calibsim.papers import get_paper, layouts
from calibsim.papers.dietterich1998 import label, paper_comparison, type1_table
from calibsim.stats import (
    cv5x2_ftest,
    cv5x2_ttest,
    kfold_cv_ttest,
    mcnemar_test,
    proportions_test,
    resampled_ttest,
)

STUDIES = Path(__file__).resolve().parents[1] / "studies"
N = 30
LABELS = {"mcnemar": "McNemar", "mcnemar_exact": "McNemar exact",
          "proportions": "difference of proportions", "resampling": "resampled t",
          "kfold_cv": "10-fold cv t", "cv5x2_t": "5x2cv t", "cv5x2_f": "5x2cv F (Alpaydin)"}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Each study file run once at N data sets per source: {stem: (study, out folder, paths)}."""
    tmp = tmp_path_factory.mktemp("d98")
    out = {}
    for stem in ("figure4", "figure5", "null_learners"):
        path = STUDIES / f"dietterich1998_{stem}.toml"
        paths = run_study_file(path, n_datasets=N, out=tmp / stem / "out",
                               results=tmp / "results", n_workers=0)
        study = load_study(path, n_datasets=N)
        out[stem] = (replace(study, results=tmp / "results"), tmp / stem / "out", paths)
    return out


def _type1(runs, stem):
    _, folder, _ = runs[stem]
    return pd.read_csv(folder / f"dietterich1998_{stem}_type1.csv")


def test_layouts_are_registered():
    assert set(layouts("dietterich1998")) == {"figure4", "figure5", "null_learners", "real"}
    with pytest.raises(ValueError, match="figure4"):
        get_paper("dietterich1998.figure6")


def test_study_files_declare_the_old_studies():
    fig4 = load_study(STUDIES / "dietterich1998_figure4.toml")
    assert fig4.seed == 19981001 and fig4.paper == "dietterich1998.figure4"
    assert [s.n_datasets for s in fig4.sources] == [1000] * 8
    assert [s.group for s in fig4.sources] == ["widest"] * 4 + ["balanced"] * 4
    assert [(s.build().e1, s.build().e2) for s in fig4.sources[:4]] == [
        (0.2, 0.0), (0.4, 0.0), (0.6, 0.0), (0.8, 0.0)]
    assert [round(s.build().e1, 3) for s in fig4.sources[4:]] == [0.2, 0.4, 0.565, 0.683]
    assert fig4.scheme("holdout").p["n_runs"] == 30
    assert fig4.scheme("kfold").split_shape == (1, 10)
    fig5 = load_study(STUDIES / "dietterich1998_figure5.toml")
    assert fig5.seed == 19981002 and fig5.scheme("holdout").p["n_runs"] == 100
    assert fig5.analysis("type1").runs == (2, 5, 10, 15, 20, 25, 30, 40, 50, 75, 100)
    null = load_study(STUDIES / "dietterich1998_null_learners.toml")
    assert null.seed == 20030821 and null.sources[0].n_datasets == 1000
    assert null.scheme("holdout").correctness and null.scheme("holdout").p["n_runs"] == 30
    cal = null.analysis("calibration")
    assert (cal.df_min, cal.df_max, cal.alphas, cal.tests) == (2, 100, (0.05,),
                                                               ("cv5x2_t", "cv5x2_f"))
    for study in (fig4, fig5, null):
        assert study.results.name == "results" and study.figures.name == "dietterich1998"


@pytest.mark.parametrize("stem", ["figure4", "figure5", "null_learners"])
def test_study_files_run_end_to_end(runs, stem):
    _, folder, paths = runs[stem]
    name = f"dietterich1998_{stem}"
    expected = {f"{name}_type1.csv", f"{name}_type1.md", f"{name}.png", f"{name}.pdf",
                f"{name}_report.md"}
    if stem == "null_learners":
        expected.add(f"{name}_5x2cv_df.csv")
    assert expected <= {p.name for p in paths.values()}
    for p in expected:
        assert (folder / p).is_file() and (folder / p).stat().st_size > 0
    assert b"CreationDate" not in (folder / f"{name}.pdf").read_bytes()
    report = (folder / f"{name}_report.md").read_text(encoding="utf-8")
    assert "Reduced run" in report
    assert "**agrees**" in report or "**differs**" in report
    if stem == "null_learners":
        assert "Can df calibrate the 5x2cv tests?" in report
    else:
        assert "| finding (Dietterich 1998, §4) |" in report


@pytest.mark.parametrize("stem", ["figure4", "figure5", "null_learners"])
def test_type1_table_counts_clopper_pearson_and_labels(runs, stem):
    t = _type1(runs, stem)
    assert t["n"].eq(N).all()
    assert np.array_equal(t["n_rejected"], np.rint(t["type1_error"] * N).astype(int))
    for r in t.itertuples():
        ci = stats.binomtest(int(r.n_rejected), N).proportion_ci(method="exact")
        assert (r.ci_low, r.ci_high) == pytest.approx((ci.low, ci.high), rel=1e-5)
        assert r.mc_se == pytest.approx(np.sqrt(r.type1_error * (1 - r.type1_error) / N),
                                        rel=1e-5, abs=1e-12)
    assert (t["label"] == t["test"].map(LABELS)).all()
    assert (t["n_resamples"] == np.where(t["test"] == "resampling", t["n_runs"], 0)).all()
    if stem == "null_learners":
        assert list(t["test"]) == ["mcnemar", "mcnemar_exact", "proportions", "resampling",
                                   "kfold_cv", "cv5x2_t", "cv5x2_f"]
    else:
        assert {"epsilon", "e1", "e2"} <= set(t.columns) and t["e1"].notna().all()
        assert np.allclose((t["e1"] + t["e2"]) / 2, t["epsilon"])


def _rates_by_hand(src, seed, n_resamples, alpha=0.05):
    """Rejections of the old driver's tests, applied by hand to the source's own simulation."""
    s = src.simulate(seed, range(N), n_resamples=n_resamples)
    c = s.holdout_counts
    p = {"mcnemar": mcnemar_test(c[:, 1], c[:, 2], correction=True).pvalue,
         "mcnemar_exact": mcnemar_test(c[:, 1], c[:, 2], exact=True).pvalue,
         "proportions": proportions_test(c[:, 0], c[:, 1], c[:, 2], c[:, 3]).pvalue,
         "kfold_cv": kfold_cv_ttest(s.kfold_diff).pvalue,
         "cv5x2_t": cv5x2_ttest(s.cv5x2_diff).pvalue,
         "cv5x2_f": cv5x2_ftest(s.cv5x2_diff).pvalue}
    rejected = {(t, 0): int(np.sum(np.asarray(v) <= alpha)) for t, v in p.items()}
    for r in range(2, n_resamples + 1):
        pr = resampled_ttest(s.resampling_diff[:, :r]).pvalue
        rejected[("resampling", r)] = int(np.sum(pr <= alpha))
    return rejected


@pytest.mark.parametrize("stem, n_resamples", [("figure4", 30), ("figure5", 100)])
def test_epsilon_point_rates_equal_tests_applied_by_hand(runs, stem, n_resamples):
    study, _, _ = runs[stem]
    t = _type1(runs, stem)
    for src in study.sources:
        want = _rates_by_hand(src.build(), src.seed, n_resamples)
        for r in t[t["source"] == src.label].itertuples():
            assert r.n_rejected == want[(r.test, r.n_resamples)], (src.label, r.test)


def test_epsilon_point_cells_are_the_source_simulation():
    study = load_study(STUDIES / "dietterich1998_figure4.toml", n_datasets=8)
    src = study.sources[1]
    out = run_cell(CellSpec(src, (), study.schemes, 3, 8))
    sim = src.build().simulate(study.seed, range(3, 8), n_resamples=30)
    assert np.array_equal(out["holdout"]["mcnemar"], sim.holdout_counts)
    assert np.array_equal(out["holdout"]["difference"], sim.resampling_diff)
    assert np.array_equal(out["kfold"]["difference"], sim.kfold_diff[:, None])
    assert np.array_equal(out["cv5x2"]["difference"], sim.cv5x2_diff[:, None])
    # the balanced rule gives the widest pair at eps <= 0.25: the same trials
    twin = study.sources[5]
    assert twin.build().identity == src.build().identity


def test_results_do_not_depend_on_block_size(tmp_path):
    study = load_study(STUDIES / "dietterich1998_figure5.toml", n_datasets=12)
    a = compute_scores(replace(study, results=tmp_path / "a"))
    b = compute_scores(replace(study, results=tmp_path / "b", block_size=5))
    for key in a.arrays:
        for name in a.arrays[key]:
            assert np.array_equal(a.arrays[key][name], b.arrays[key][name]), (key, name)


def test_balanced_group_repeats_the_widest_trials_where_the_pairs_agree(runs):
    t = _type1(runs, "figure4")
    key = ["epsilon", "test"]
    w = t[t["group"] == "widest"].set_index(key)["type1_error"]
    b = t[t["group"] == "balanced"].set_index(key)["type1_error"]
    low = w.index.get_level_values("epsilon") <= 0.25
    assert np.array_equal(w[low].to_numpy(), b.loc[w[low].index].to_numpy())


def test_null_learners_scores_match_the_old_blocks(runs):
    study, _, _ = runs["null_learners"]
    scores = compute_scores(study)
    src, pair = study.sources[0].label, study.pairs[0]
    counts = scores.mcnemar_counts(src, "holdout", pair)
    assert counts.shape == (N, 4) and np.all(counts.sum(axis=1) == 100)   # 1/3 of 300 tested
    # McNemar's counts give the first holdout split's accuracy difference (n01: A wrong)
    _, n01, n10, _ = counts.T
    diff = scores.difference(src, "holdout", pair)
    assert diff.shape == (N, 30) and np.allclose((n10 - n01) / 100, diff[:, 0])
    assert scores.difference(src, "kfold", pair).shape == (N, 1, 10)
    assert scores.difference(src, "cv5x2", pair).shape == (N, 1, 5, 2)
    # the 10-fold cv run is run 1 of the Bouckaert (2003) Figure 2 study
    fig2 = null_differences(4, n_runs=1, n_folds=10)
    assert np.array_equal(scores.difference(src, "kfold", pair)[:4], fig2)


def test_null_learners_df_curves(runs):
    _, folder, _ = runs["null_learners"]
    curves = pd.read_csv(folder / "dietterich1998_null_learners_5x2cv_df.csv")
    assert list(curves.columns) == ["test", "df", "type1_error", "calibrated_df"]
    assert list(curves["test"].unique()) == ["cv5x2_t", "cv5x2_f"]
    assert curves.groupby("test")["df"].agg(["min", "max", "size"]).values.tolist() == [
        [2, 100, 99]] * 2
    cal = pd.read_csv(folder / "dietterich1998_null_learners_calibration.csv")
    t1 = _type1(runs, "null_learners").set_index("test")
    for test, g in curves.groupby("test"):
        row = cal[cal["test"] == test].iloc[0]
        assert g["calibrated_df"].iloc[0] == row["calibrated_df"]
        at5 = g.loc[g["df"] == 5, "type1_error"].iloc[0]
        assert at5 == pytest.approx(t1.loc[test, "type1_error"])    # textbook df 5
        assert at5 == pytest.approx(row["type1_default"])


def _rows(test, rates, splits=0):
    return [{"group": "widest", "epsilon": e, "test": test,
             "n_resamples": 30 if test == "resampling" else splits,
             "type1_error": r, "ci_low": r - 0.01, "ci_high": r + 0.01}
            for e, r in zip((0.1, 0.4), rates)]


def test_paper_comparison_rules():
    table = pd.DataFrame(_rows("mcnemar", (0.03, 0.04)) + _rows("proportions", (0.05, 0.12))
                         + _rows("resampling", (0.2, 0.5)) + _rows("kfold_cv", (0.05, 0.07))
                         + _rows("cv5x2_t", (0.02, 0.02)))
    verdict = {c["claim"]: c["verdict"] for c in paper_comparison(table)}
    assert verdict["difference of proportions: Type I error exceeds the target 0.05"] == "agrees"
    assert verdict["resampled t: Type I error exceeds the target 0.05"] == "agrees"
    assert verdict["the resampled t has the highest Type I error of the five tests"] == "agrees"
    assert verdict["difference of proportions: worse as ε approaches 0.5"] == "agrees"
    # CI lower bound 0.06 > 0.05 at eps 0.4
    assert verdict["10-fold cv t: acceptable Type I error (near or below 0.05)"] == "differs"
    assert verdict["McNemar: acceptable Type I error (near or below 0.05)"] == "agrees"


def test_paper_comparison_against_splits():
    rows = [{"group": "widest", "epsilon": 0.1, "test": "resampling", "n_resamples": r,
             "type1_error": v, "ci_low": v - 0.01, "ci_high": v + 0.01}
            for r, v in ((2, 0.06), (10, 0.1), (30, 0.25), (100, 0.45))]
    rows.append({"group": "widest", "epsilon": 0.1, "test": "kfold_cv", "n_resamples": 0,
                 "type1_error": 0.04, "ci_low": 0.03, "ci_high": 0.05})
    verdict = {c["claim"]: c["verdict"] for c in paper_comparison(pd.DataFrame(rows))}
    assert verdict["resampled t: Type I error grows with the number of resampled splits "
                   "(ε = 0.10)"] == "agrees"
    assert verdict["the 10-fold cv t does not show this problem"] == "agrees"


def test_type1_table_renames_and_adds_counts(runs):
    study, _, _ = runs["figure5"]
    tables = run_analyses(study, compute_scores(study), n_boot=0)
    t = type1_table(study, tables)
    assert "rate" not in t and {"type1_error", "n_rejected", "n_resamples"} <= set(t.columns)
    assert list(t["n_resamples"]) == [2, 5, 10, 15, 20, 25, 30, 40, 50, 75, 100, 0]
    assert label("kfold_cv", 5) == "5-fold cv t" and label("use_all_data") == "use_all_data"


def test_cli_run_writes_the_paper_outputs(tmp_path, capsys):
    code = main(["run", str(STUDIES / "dietterich1998_figure5.toml"), "--n-datasets", "5",
                 "--workers", "0", "--no-progress", "--out", str(tmp_path / "o"),
                 "--results", str(tmp_path / "r")])
    assert code == 0
    assert "dietterich1998_figure5_report.md" in capsys.readouterr().out
    assert (tmp_path / "o" / "dietterich1998_figure5.png").is_file()
