"""Bouckaert & Frank (2004) Table 1 on the engine, at reduced size."""

from pathlib import Path

import numpy as np
import pandas as pd

from calibsim.engine.pipeline import run_study_file
from calibsim.papers.bouckaert_frank2004 import PAPER_NAMES, _summary

REPO = Path(__file__).resolve().parents[1]


def test_table1_reduced(tmp_path):
    text = (REPO / "studies" / "bouckaert_frank2004_table1.toml").read_text()
    start = text.index("name = [")
    end = text.index("]", start) + 1
    text = text[:start] + 'name = ["iris", "labor"]' + text[end:]
    text = text.replace("repeats = 10", "repeats = 3")
    study = tmp_path / "t1.toml"
    study.write_text(text)
    paths = run_study_file(study, out=tmp_path / "out", n_workers=0)
    draws = pd.read_csv(paths["table1.csv"])
    assert len(draws) == 27                                # every paper row, ours where shipped
    ours = draws.dropna(subset=["nb_vs_c45 ours"])
    assert set(ours["shipped as"]) == {"iris", "labor"}
    assert ours[["nb_vs_c45 ours", "nb_vs_nn ours", "c45_vs_nn ours"]].isin([0, 1, 2, 3]).all().all()
    summary = pd.read_csv(paths["summary.csv"])
    assert list(summary["pair"]) == ["nb_vs_c45", "nb_vs_nn", "c45_vs_nn"]
    assert (summary["R ours SE"] >= 0).all() and (summary["R paper (same sets) SE"] >= 0).all()
    assert "Not shipped" in paths["report"].read_text()


def test_summary_counts():
    # 3 data sets, 10 repeats: 0 and 10 rejections agree fully, 1 is almost consistent
    consistent, almost, R = _summary(np.array([0, 10, 1]), 10)
    assert (consistent, almost) == (2, 3) and 0 < R < 1


def test_paper_names_are_shipped():
    from calibsim.datasets import UCI_DATASETS
    assert set(PAPER_NAMES.values()) <= set(UCI_DATASETS)


def test_table5_reduced(tmp_path):
    paths = run_study_file(REPO / "studies" / "bouckaert_frank2004_table5.toml", n_datasets=4,
                           out=tmp_path / "out", results=tmp_path / "res", n_workers=0)
    t = pd.read_csv(paths["table5.csv"])
    assert list(t["test"]) == ["delta_accuracy", "5x2 cv", "10 x resampling",
                               "100 x resampling", "10-fold cv", "corrected 10x10 fold cv"]
    ours = t[[f"source{i} ours" for i in range(1, 5)]].iloc[1:]
    assert ours.isin([0.0, 25.0, 50.0, 75.0, 100.0]).all().all()     # 4 training sets
    assert abs(t.loc[0, "source4 ours"] - 11) < 5                     # C4.5 far better on Set 4


def test_tables234_reduced(tmp_path):
    text = (REPO / "studies" / "bouckaert_frank2004_tables234.toml").read_text()
    start = text.index("name = [")
    end = text.index("]", start) + 1
    text = text[:start] + 'name = ["iris", "labor"]' + text[end:]
    for old, new in (("n_runs = 1000", "n_runs = 20"), ("n_runs = 100\n", "n_runs = 20\n"),
                     ("runs = [10, 20, 50, 100]", "runs = [2]"),
                     ("runs = [1, 2, 5, 10]", "runs = [1, 2]"), ("runs = [10]", "runs = [2]"),
                     ("repeats = 10", "repeats = 2")):
        assert old in text, old
        text = text.replace(old, new)
    study = tmp_path / "t234.toml"
    study.write_text(text)
    paths = run_study_file(study, out=tmp_path / "out", n_workers=0)
    t3 = pd.read_csv(paths["table3.csv"])
    assert set(t3["n_runs"]) == {1, 2} and (t3["data sets"] == 2).all()
    assert t3["R paper (27)"].notna().any()
    t4 = pd.read_csv(paths["table4.csv"])
    assert len(t4) == 12 and np.allclose(sorted(set(t4["alpha"])), [0.01, 0.025, 0.05, 0.1])


def test_independent_se_of_an_R_step_with_shared_runs():
    # issue 34: R at r runs uses runs g r .. g r + r - 1 of one scheme for repetition g, so
    # R at different r share partitions; the report's step SE takes them as independent.
    # Simulated with that structure (a run's value ~ N(mu, 1), the test rejects when the
    # mean of r runs is beyond 1.96 / sqrt(r)), the independent SE from each run's counts
    # stays within about 25% of the step's true spread.
    from calibsim.measures import replicability_R, replicability_R_se
    rng = np.random.default_rng(34)
    n = 10
    for mu in (0.5, 1.0):
        for lo, hi in ((1, 2), (2, 5), (1, 10)):
            runs = rng.normal(mu, 1.0, (4000, 100))
            k = {r: (np.abs(runs[:, :n * r].reshape(-1, n, r).mean(2)) > 1.96 / np.sqrt(r)
                     ).sum(1) for r in (lo, hi)}
            diff = replicability_R(k[hi], n) - replicability_R(k[lo], n)
            se = np.hypot(replicability_R_se(k[lo], n), replicability_R_se(k[hi], n))
            ratio = np.sqrt(np.mean(np.square(se))) / np.std(diff)
            assert 0.75 < ratio < 1.3, (mu, lo, hi, ratio)
