"""Tests of the BAN accuracy study (Table 3) and the network search (calibsim.ban_search)."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from calibsim._rng import dataset_seeds, source_key
from calibsim.ban_search import (PAPER_TABLE3, BANAccuracyBlock, BANAccuracyStudy,
                                 SearchSettings, run_block,
                                 accuracy_table, draw_test_set, load_study_file,
                                 network_accuracies, run_study_file,
                                 search_networks)
from calibsim.learners import C45, NaiveBayes
from calibsim.sources import BANSource, null_ban, random_ban, write_network

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def networks(tmp_path_factory):
    folder = tmp_path_factory.mktemp("networks")
    write_network(null_ban(1), folder / "set1.bif")
    write_network(random_ban(2, n_arcs=8, concentration=0.5), folder / "set2.bif")
    return folder


def _study_text(**over):
    doc = {"name": '"tiny_table3"', "kind": '"ban_accuracy"', "seed": "7", "n_datasets": "5"}
    doc.update(over)
    study = "\n".join(f"{k} = {v}" for k, v in doc.items())
    return (f"[study]\n{study}\n\n[networks]\nset1 = \"set1.bif\"\nset2 = \"set2.bif\"\n\n"
            "[data]\nn_instances = 60\nn_test = 400\n\n[execution]\nblock_size = 2\n")


def test_network_accuracies_match_learner_classes_and_seeds():
    src = BANSource(random_ban(4, n_attributes=5, n_arcs=3), n_instances=80)
    acc = network_accuracies(src, n_datasets=3, seed=11, n_test=300, start=2)
    X_test, y_test = draw_test_set(src, 11, 300)
    for row, i in enumerate(range(2, 5)):      # the public learners on the same streams
        X, y = src.sample(dataset_seeds(11, source_key(src.identity), i)["data"])
        nb = NaiveBayes().fit(X, y).predict(X_test)
        tree = C45().fit(X, y).predict(X_test)
        np.testing.assert_allclose(acc[row], [np.mean(nb == y_test), np.mean(tree == y_test)])
    # the test set has its own stream: not any training set's
    X0, _ = src.sample(dataset_seeds(11, source_key(src.identity), 0)["data"])
    assert not np.array_equal(X_test[:80], X0)


def test_null_network_accuracy_near_half():
    src = BANSource(null_ban(0), n_instances=300)
    acc = network_accuracies(src, n_datasets=20, seed=1, n_test=2000)
    # each accuracy ~ 1/2 with SE 0.5/sqrt(2000) per test set plus training variation
    assert np.all(np.abs(acc.mean(axis=0) - 0.5) < 0.03)


def test_run_study_end_to_end_and_block_independent(networks, tmp_path):
    study_path = networks / "tiny.toml"
    study_path.write_text(_study_text(), encoding="utf-8")
    paths = run_study_file(study_path, outputs=tmp_path / "out", n_workers=0)
    assert set(paths) == {"csv", "md", "report"} and all(p.is_file() for p in paths.values())
    table = pd.read_csv(paths["csv"])
    assert list(table["set"].unique()) == ["set1", "set2"]
    assert list(table["quantity"].unique()) == ["naive Bayes", "C4.5", "difference"]
    assert (table["n_datasets"] == 5).all() and (table["n_test"] == 400).all()
    row = table[(table["set"] == "set2") & (table["quantity"] == "C4.5")].iloc[0]
    assert row["paper_pct"] == PAPER_TABLE3.loc["C4.5", "set2"]
    assert "Gap against the paper" in paths["report"].read_text(encoding="utf-8")
    # results equal network_accuracies on the same seed, and do not depend on the blocks
    src = BANSource(networks / "set2.bif", n_instances=60)
    acc = network_accuracies(src, n_datasets=5, seed=7, n_test=400)
    got = table[table["set"] == "set2"].set_index("quantity")["accuracy_pct"]
    np.testing.assert_allclose(got[["naive Bayes", "C4.5"]], 100 * acc.mean(axis=0))
    parts = [run_block(BANAccuracyBlock(7, "set2", src, 400, s, t)) for s, t in ((0, 3), (3, 5))]
    np.testing.assert_array_equal(np.concatenate([p["correct"] for p in parts]) / 400, acc)
    assert "± " in paths["md"].read_text(encoding="utf-8")


def test_accuracy_table_standard_errors():
    study = BANAccuracyStudy(name="t", seed=0, n_datasets=4, networks=(("set3", Path("x")),),
                             n_test=100)
    acc = {"set3": np.array([[0.7, 0.8], [0.72, 0.75], [0.69, 0.79], [0.71, 0.78]])}
    table = accuracy_table(study, acc).set_index("quantity")
    d = 100 * (acc["set3"][:, 1] - acc["set3"][:, 0])
    assert table.loc["difference", "accuracy_pct"] == pytest.approx(d.mean())
    assert table.loc["difference", "mc_se_pct"] == pytest.approx(d.std(ddof=1) / 2)
    assert table.loc["naive Bayes", "paper_pct"] == 71.92


@pytest.mark.parametrize("change, match", [
    (lambda t: t.replace('"ban_accuracy"', '"calibration"'), r"`study.kind` must be 'ban_accuracy'"),
    (lambda t: t + "\n[extra]\nx = 1\n", r"unknown section \[extra\]"),
    (lambda t: t.replace("block_size = 2", "blocks = 2"), r"unknown key `execution.blocks`"),
    (lambda t: t.replace("n_datasets = 5", 'n_datasets = "5"'), r"`study.n_datasets` must be of type int"),
    (lambda t: t.replace("n_datasets = 5", "n_datasets = 0"), r"`n_datasets` must be an integer >= 1"),
    (lambda t: t.replace("seed = 7\n", ""), r"missing required key `seed`"),
    (lambda t: t.replace('"set2.bif"', '"nope.bif"'), r"`networks.set2` = 'nope.bif' does not exist"),
    (lambda t: t.replace("set2 = ", "set2 = 3 #"), r"`networks.set2` must be of type str"),
    (lambda t: t.replace("n_test = 400", "n_test = 0"), r"`n_test` must be an integer >= 1"),
    (lambda t: t + "[[", r"not valid TOML"),
])
def test_bad_study_files(networks, change, match):
    path = networks / "bad.toml"
    path.write_text(change(_study_text()), encoding="utf-8")
    with pytest.raises(ValueError, match=match):
        load_study_file(path)


def test_bad_study_parameters():
    with pytest.raises(ValueError, match=r"`networks` must name at least one network"):
        BANAccuracyStudy(name="t", seed=0, n_datasets=1, networks=())
    with pytest.raises(ValueError, match=r"labels must be unique"):
        BANAccuracyStudy(name="t", seed=0, n_datasets=1,
                         networks=(("a", Path("x")), ("a", Path("y"))))
    src = BANSource(null_ban(0, n_attributes=2), n_instances=10)
    with pytest.raises(ValueError, match=r"`n_datasets` must be an integer >= 1"):
        network_accuracies(src, n_datasets=0)
    with pytest.raises(ValueError, match=r"`n_test` must be an integer >= 1"):
        network_accuracies(src, n_datasets=1, n_test=0)
    with pytest.raises(FileNotFoundError):
        load_study_file(ROOT / "studies" / "no_such_study.toml")


def test_committed_study_file_loads():
    study = load_study_file(ROOT / "studies" / "bouckaert2003_table3.toml")
    assert study.n_datasets == 1000 and study.n_test == 10_000 and study.n_instances == 300
    assert [label for label, _ in study.networks] == ["set1", "set2", "set3", "set4"]


def test_search_tiny_is_deterministic():
    st = SearchSettings(seed=3, n_candidates=4, screen_datasets=2, n_confirm=2,
                        confirm_datasets=3, n_test=200, screen_window=100.0, tolerance=100.0,
                        block_size=2)
    targets = {"set3": (71.92, 77.74, 5.83)}
    screen, chosen = search_networks(st, targets=targets, n_workers=0)
    screen2, chosen2 = search_networks(st, targets=targets, n_workers=0)
    pd.testing.assert_frame_equal(screen, screen2)
    assert list(screen["candidate"]) == [0, 1, 2, 3]
    assert chosen["set3"]["identity"] == chosen2["set3"]["identity"]
    assert chosen["set3"]["within_tolerance"]
    assert len(chosen["set3"]["confirmed"]) == 2
    # the chosen network reproduces its confirmed accuracies
    src = BANSource(chosen["set3"]["model"])
    acc = 100 * network_accuracies(src, n_datasets=3, seed=st.study_seed, n_test=200)
    assert acc[:, 0].mean() == pytest.approx(chosen["set3"]["nb_pct"])
    with pytest.raises(ValueError, match=r"no screened candidate lies within `screen_window`"):
        search_networks(SearchSettings(seed=3, n_candidates=2, screen_datasets=2, n_test=100,
                                       screen_window=0.0), targets={"x": (50.0, 150.0, 100.0)},
                        n_workers=0)
