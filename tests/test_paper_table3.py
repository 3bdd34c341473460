"""Bouckaert (2003) Table 3 on the engine (studies/bouckaert2003_table3.toml, the ``table3``
layout) and the search for its networks (scripts/search_ban_networks.py)."""

import importlib.util
import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from calibsim._rng import dataset_seeds, source_key
from calibsim.engine import cells, load_scores, load_study, run_analyses, run_study_file
from calibsim.engine.cells import CellSpec, run_cell
from calibsim.engine.spec import StudyFileError, study_from_dict
from calibsim.learners import C45, NaiveBayes
from calibsim.papers.bouckaert2003 import accuracy_table, paper_table3, write_table3
from calibsim.sources import BANSource, null_ban, random_ban, write_network

ROOT = Path(__file__).resolve().parents[1]
STUDY = ROOT / "studies" / "bouckaert2003_table3.toml"


def _script():
    name = "search_ban_networks"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module              # dataclasses look their module up here
        spec.loader.exec_module(module)
    return sys.modules[name]


@pytest.fixture(scope="module")
def reduced(tmp_path_factory):
    """The committed study at 20 training sets per network."""
    tmp = tmp_path_factory.mktemp("table3")
    paths = run_study_file(STUDY, n_datasets=20, out=tmp / "out", results=tmp / "results",
                           n_workers=0)
    return paths, tmp


def _doc(network, *, n_datasets=5, n_test=400, seed=7, n_instances=60, **extra):
    doc = {"study": {"name": "tiny_table3", "seed": seed, "paper": "bouckaert2003.table3"},
           "sources": {"set2": {"kind": "ban", "network": str(network),
                                "n_instances": n_instances, "n_datasets": n_datasets}},
           "learners": {"names": ["naive_bayes", "c45"]},
           "schemes": {"test": {"kind": "test_set", "n_test": n_test}},
           "analysis": [{"kind": "accuracy"}]}
    doc.update(extra)
    return doc


@pytest.fixture(scope="module")
def network(tmp_path_factory):
    return write_network(random_ban(2, n_arcs=8, concentration=0.5),
                         tmp_path_factory.mktemp("networks") / "set2.bif")


def test_committed_study_file_loads():
    study = load_study(STUDY)
    assert study.paper == "bouckaert2003.table3" and study.seed == 20030821
    assert [s.label for s in study.sources] == ["set1", "set2", "set3", "set4"]
    assert all(s.n_datasets == 1000 and dict(s.params)["n_instances"] == 300
               and Path(dict(s.params)["network"]).name == f"{s.label}.bif"
               for s in study.sources)
    assert [lrn.label for lrn in study.learners] == ["naive_bayes", "c45"]
    (scheme,) = study.schemes
    assert scheme.kind == "test_set" and scheme.p["n_test"] == 10_000
    assert [a.kind for a in study.analyses] == ["accuracy"]
    assert study.figures == ROOT / "figures" / "bouckaert2003"


def test_reduced_run_writes_the_table_beside_the_paper(reduced):
    paths, _ = reduced
    for key in ("table3.csv", "table3.md", "report"):
        assert paths[key].is_file()
    assert paths["table3.csv"].name == "bouckaert2003_table3_accuracies.csv"
    table = pd.read_csv(paths["table3.csv"])
    assert list(table["set"].unique()) == ["set1", "set2", "set3", "set4"]
    assert list(table["quantity"].unique()) == ["naive Bayes", "C4.5", "difference"]
    assert (table["n_datasets"] == 20).all() and (table["n_test"] == 10_000).all()
    paper = paper_table3()
    for _, r in table.iterrows():
        assert r["paper_pct"] == paper.loc[r["quantity"], r["set"]]
        assert r["minus_paper_pct"] == pytest.approx(r["accuracy_pct"] - r["paper_pct"])
    md = paths["table3.md"].read_text(encoding="utf-8")
    assert "± " in md and "(93.23)" in md
    report = paths["report"].read_text(encoding="utf-8")
    assert "Gap against the paper" in report and "Reduced run" in report
    assert "studies/networks/set4.bif" in report


def test_copied_study_file_writes_inside_its_own_folder(reduced, tmp_path):
    """A copy of the study file (absolute networks, [outputs] beside it) runs without
    ``out``/``results`` overrides, writes only inside its folder and gives the same table:
    the numbers depend on the networks' contents, not on where the files are."""
    text = STUDY.read_text(encoding="utf-8")
    nets = (ROOT / "studies" / "networks").as_posix()
    text = text.replace('network = "networks/', f'network = "{nets}/')
    text = text.replace('results = "../results"', 'results = "results"')
    text = text.replace('figures = "../figures/bouckaert2003"', 'figures = "figures"')
    assert text.count(f'"{nets}/') == 4 and '"../' not in text
    copy = tmp_path / "bouckaert2003_table3.toml"
    copy.write_text(text, encoding="utf-8")
    paths = run_study_file(copy, n_datasets=20, n_workers=0)
    # a reduced run without `out` writes to <results>/reduced/<name>_n<N>/, never to figures/
    assert paths["table3.csv"].parent == tmp_path / "results" / "reduced" / \
        "bouckaert2003_table3_n20"
    assert all(tmp_path in p.parents for p in paths.values())
    assert not (tmp_path / "figures").exists()
    ours = pd.read_csv(paths["table3.csv"])
    pd.testing.assert_frame_equal(ours, pd.read_csv(reduced[0]["table3.csv"]))
    assert (ours["paper_pct"].to_numpy()
            == [paper_table3().loc[q, s] for s, q in zip(ours["set"], ours["quantity"])]).all()


def test_null_network_accuracy_near_half(reduced):
    """Set 1 has no arcs: both learners guess, within 4 Monte Carlo SE of 1/2."""
    table = pd.read_csv(reduced[0]["table3.csv"]).set_index(["set", "quantity"])
    for quantity in ("naive Bayes", "C4.5"):
        r = table.loc[("set1", quantity)]
        # SE over training sets, and the one test set's own sampling error
        se = np.hypot(r["mc_se_pct"], 100 * 0.5 / np.sqrt(r["n_test"]))
        assert abs(r["accuracy_pct"] - 50) < 4 * se, (quantity, r["accuracy_pct"], se)
    gap = table.loc[("set1", "difference")]
    assert abs(gap["accuracy_pct"]) < 4 * gap["mc_se_pct"]


def test_table_agrees_with_the_scores_and_the_accuracy_analysis(reduced):
    _, tmp = reduced
    study = replace(load_study(STUDY, n_datasets=20), results=(tmp / "results").resolve())
    scores = load_scores(study)
    tables = run_analyses(study, scores)
    table = accuracy_table(study, tables, scores).set_index(["set", "quantity"])
    for label in ("set2", "set4"):
        nb = 100 * scores.accuracy(label, "test", "naive_bayes")[:, 0]
        c45 = 100 * scores.accuracy(label, "test", "c45")[:, 0]
        d = c45 - nb
        assert table.loc[(label, "naive Bayes"), "accuracy_pct"] == pytest.approx(nb.mean())
        assert table.loc[(label, "C4.5"), "mc_se_pct"] == pytest.approx(
            c45.std(ddof=1) / np.sqrt(20))
        assert table.loc[(label, "difference"), "accuracy_pct"] == pytest.approx(d.mean())
        assert table.loc[(label, "difference"), "mc_se_pct"] == pytest.approx(
            d.std(ddof=1) / np.sqrt(20))
        assert table.loc[(label, "difference"), "sd_pct"] == pytest.approx(d.std(ddof=1))


def test_cells_match_learner_classes_and_seeds(network, tmp_path):
    """The engine's test_set cell = Weka's NaiveBayes and J48 on Table 3's streams."""
    study = study_from_dict(_doc(network), tmp_path / "tiny.toml")
    src_spec = study.sources[0]
    res = run_cell(CellSpec(src_spec, study.learners, study.schemes, 2, 5))["test"]
    src = BANSource(network, n_instances=60)
    X_test, y_test = cells.test_set(src, 7, 400)
    ss = np.random.SeedSequence(7, spawn_key=(source_key(src.identity),))
    np.testing.assert_array_equal(X_test, src._draw(ss, 400)[0])
    assert (res["n_test"] == 400).all()
    for row, i in enumerate(range(2, 5)):      # the public learners on the same streams
        X, y = src.sample(dataset_seeds(7, source_key(src.identity), i)["data"])
        nb = NaiveBayes().fit(X, y).predict(X_test)
        tree = C45().fit(X, y).predict(X_test)
        np.testing.assert_array_equal(res["correct"][row, :, 0],
                                      [np.sum(nb == y_test), np.sum(tree == y_test)])
    # the test set has its own stream: not any training set's
    X0, _ = src.sample(dataset_seeds(7, source_key(src.identity), 0)["data"])
    assert not np.array_equal(X_test[:60], X0)
    # blocks do not change the numbers
    parts = [run_cell(CellSpec(src_spec, study.learners, study.schemes, s, t))["test"]
             for s, t in ((0, 3), (3, 5))]
    whole = run_cell(CellSpec(src_spec, study.learners, study.schemes, 0, 5))["test"]
    np.testing.assert_array_equal(np.concatenate([p["correct"] for p in parts]),
                                  whole["correct"])


def test_layout_needs_an_accuracy_analysis_on_a_test_set(network, tmp_path):
    no_accuracy = study_from_dict(_doc(network, analysis=[]), tmp_path / "a.toml")
    with pytest.raises(ValueError, match=r"needs an `accuracy` analysis"):
        write_table3(study=no_accuracy, tables={}, scores=None, folder=tmp_path)
    doc = _doc(network, schemes={"cv": {"kind": "repeated_kfold", "n_folds": 2, "n_runs": 1}})
    on_cv = study_from_dict(doc, tmp_path / "b.toml")
    with pytest.raises(ValueError, match=r"on a `test_set` scheme; 'cv' is of kind"):
        write_table3(study=on_cv, tables={}, scores=None, folder=tmp_path)


@pytest.mark.parametrize("change, error, match", [
    (lambda d: d["schemes"]["test"].update(n_test=0), StudyFileError,
     r"`schemes.test.n_test` must be >= 1"),
    (lambda d: d["sources"]["set2"].update(n_datasets=0), StudyFileError,
     r"`sources.set2.n_datasets` must be >= 1"),
    (lambda d: d["sources"]["set2"].update(network="nope.bif"), FileNotFoundError,
     r"`sources.set2.network` names 'nope.bif'"),
    (lambda d: d["study"].update(paper="bouckaert2003.table33"), StudyFileError,
     r"`study.paper` must be one of .*did you mean 'bouckaert2003.table3'"),
])
def test_bad_study_files(network, tmp_path, change, error, match):
    doc = _doc(network)
    change(doc)
    with pytest.raises(error, match=match):
        study_from_dict(doc, tmp_path / "bad.toml")


# ---------------------------------------------------------------------------------------
# the network search

TINY = dict(seed=3, n_candidates=4, screen_datasets=2, n_confirm=2, confirm_datasets=3,
            n_test=200, screen_window=100.0, tolerance=100.0, block_size=2)


def test_search_tiny_is_deterministic_and_reproducible_by_the_engine(tmp_path):
    m = _script()
    st = m.SearchSettings(**TINY)
    targets = {"set3": (71.92, 77.74, 5.83)}
    screen, chosen = m.search_networks(st, targets=targets, n_workers=0)
    screen2, chosen2 = m.search_networks(st, targets=targets, n_workers=0)
    pd.testing.assert_frame_equal(screen, screen2)
    assert list(screen["candidate"]) == [0, 1, 2, 3]
    assert chosen["set3"]["identity"] == chosen2["set3"]["identity"]
    assert chosen["set3"]["within_tolerance"]
    assert len(chosen["set3"]["confirmed"]) == 2
    # a Table 3 study of the chosen network's BIF file reproduces its confirmed accuracies
    path = write_network(chosen["set3"]["model"], tmp_path / "set3.bif")
    study = study_from_dict(_doc(path, n_datasets=3, n_test=200, seed=st.study_seed,
                                 n_instances=st.n_instances), tmp_path / "t.toml")
    res = run_cell(CellSpec(study.sources[0], study.learners, study.schemes, 0, 3))["test"]
    acc = 100 * res["correct"][:, :, 0] / res["n_test"]
    assert acc[:, 0].mean() == pytest.approx(chosen["set3"]["nb_pct"])
    assert acc[:, 1].mean() - acc[:, 0].mean() == pytest.approx(chosen["set3"]["gap_pct"])
    # the screening row of a candidate is its first screen_datasets training sets
    _, model = m._candidate(st, 1)
    first = m.network_accuracies(st, model, 2, tmp_path).mean(axis=0)
    np.testing.assert_array_equal(screen.loc[1, ["nb_pct", "c45_pct"]].to_numpy(float), first)
    with pytest.raises(ValueError, match=r"no screened candidate lies within `screen_window`"):
        m.search_networks(m.SearchSettings(seed=3, n_candidates=2, screen_datasets=2,
                                           n_test=100, screen_window=0.0),
                          targets={"x": (50.0, 150.0, 100.0)}, n_workers=0)


def test_search_main_writes_the_networks(tmp_path, capsys):
    m = _script()
    out = tmp_path / "nets"
    assert m.main(["--seed", "5", "--n-candidates", "4", "--screen-datasets", "2",
                   "--confirm-datasets", "3", "--n-confirm", "1", "--n-test", "200",
                   "--screen-window", "100", "--tolerance", "100", "--workers", "0",
                   "--out", str(out)]) == 0
    assert "Bayesian networks of Bouckaert (2003) Sets 1-4" in capsys.readouterr().out
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["README.md", "search_confirmed.csv", "search_log.json", "search_screen.csv",
         "set1.bif", "set2.bif", "set3.bif", "set4.bif"])
    log = json.loads((out / "search_log.json").read_text(encoding="utf-8"))
    assert log["settings"]["seed"] == 5 and log["settings"]["n_test"] == 200
    assert set(log["sets"]) == {"set1", "set2", "set3", "set4"}
    assert len(pd.read_csv(out / "search_screen.csv")) == 4
    assert len(pd.read_csv(out / "search_confirmed.csv")) == 3
    # (main itself checks that every BIF file reads back as the network measured)
    assert "class" in (out / "set2.bif").read_text(encoding="utf-8")
    # Set 1 is the null network drawn from the search seed
    expect = BANSource(null_ban(np.random.SeedSequence(5, spawn_key=(1,))), n_instances=300)
    assert log["sets"]["set1"]["identity"] == expect.identity
    assert log["sets"]["set2"]["within_tolerance"] is True
