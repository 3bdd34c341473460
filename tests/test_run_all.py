"""calibsim run FOLDER: every study in dependency order, then one table (issue 21)."""

import shutil

import pytest
from pathlib import Path

from calibsim.cli import main
from calibsim.cli._main import _outcomes, _study_order

REPO = Path(__file__).resolve().parents[1]


def test_studies_that_take_df_from_another_run_after_it():
    order = [p.name for p in _study_order(REPO / "studies")]
    assert len(order) == len(list((REPO / "studies").glob("*.toml")))
    for dependent in ("bouckaert2003_table2.toml", "bouckaert2003_figure4.toml",
                      "scheffer_herbrich1997_simulation.toml"):
        assert order.index("bouckaert2003_figure2.toml") < order.index(dependent)


def test_a_folder_runs_every_study_and_prints_one_table(tmp_path, capsys):
    for name in ("scheffer_herbrich1997_examples.toml", "ulas2012_published.toml"):
        text = (REPO / "studies" / name).read_text()
        out = tmp_path / "out" / name
        text = text.replace('figures = "../figures/', f'figures = "{out}/').replace(
            'results = "../results"', f'results = "{tmp_path / "results"}"')
        (tmp_path / "studies").mkdir(exist_ok=True)
        (tmp_path / "studies" / name).write_text(text)
    assert main(["run", str(tmp_path / "studies"), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "| study" in out and "2 studies in" in out and out.count("| ok") == 2


def test_verdicts_are_counted_from_the_reports(tmp_path):
    rep = tmp_path / "x_report.md"
    rep.write_text("| a | b | verdict |\n|---|---|---|\n| 1 | 2 | agrees |\n| 3 | 4 | differs |\n"
                   "| 5 | 6 | **partly** |\n")
    assert _outcomes({"report": rep}) == {"agrees": 1, "partly": 1, "differs": 1}
    published = {"report": REPO / "figures" / "bouckaert2003" / "bouckaert2003_figure2_report.md"}
    assert _outcomes(published)["agrees"] >= 1


def test_an_empty_folder_is_refused(tmp_path, capsys):
    assert main(["run", str(tmp_path)]) == 2
    assert "holds no study file" in capsys.readouterr().err


def test_every_flag_of_every_subcommand_has_help():
    import argparse

    from calibsim.cli._main import _parser
    sub = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    missing = [(name, a.option_strings or a.dest) for name, sp in sub.choices.items()
               for a in sp._actions if not a.help and not isinstance(a, argparse._HelpAction)]
    assert missing == []


def test_outputs_written_while_the_next_study_computes_equal_single_runs(tmp_path):
    # Figure 2, then the S&H simulation taking Figure 2's calibrated df: in the folder run
    # Figure 2's analyses and outputs run in the background while the simulation computes
    (tmp_path / "studies").mkdir()
    for name in ("bouckaert2003_figure2.toml", "scheffer_herbrich1997_simulation.toml"):
        shutil.copy(REPO / "studies" / name, tmp_path / "studies" / name)
    common = ["--n-datasets", "2", "--no-progress"]
    assert main(["run", str(tmp_path / "studies"), "--workers", "1",
                 "--results", str(tmp_path / "folder"), *common]) == 0
    for name in ("bouckaert2003_figure2.toml", "scheffer_herbrich1997_simulation.toml"):
        assert main(["run", str(tmp_path / "studies" / name), "--workers", "0",
                     "--results", str(tmp_path / "alone"), *common]) == 0
    folder = sorted((tmp_path / "folder" / "reduced").rglob("*.*"))
    alone = sorted((tmp_path / "alone" / "reduced").rglob("*.*"))
    names = [p.relative_to(tmp_path / "folder") for p in folder]
    assert names == [p.relative_to(tmp_path / "alone") for p in alone]
    assert any(str(n).endswith(".png") for n in names) and len(names) > 20
    for a, b in zip(folder, alone):
        if not a.name.endswith("_runlog.txt"):
            assert a.read_bytes() == b.read_bytes(), a.name


def test_an_interrupted_folder_run_drops_the_queued_outputs(tmp_path, monkeypatch):
    import threading

    from calibsim.engine import pipeline
    for name in ("a", "b", "c"):
        shutil.copy(REPO / "studies" / "dietterich1998_figure5.toml", tmp_path / f"{name}.toml")
    started, release, ran = threading.Event(), threading.Event(), []

    def slow():
        started.set()
        release.wait(10)
        ran.append("a")
        return {}

    def fake(path, *, finish, **kw):
        if path.stem == "a":
            return finish(slow)
        if path.stem == "b":
            return finish(lambda: ran.append("b") or {})
        started.wait(10)                      # a's outputs are running, b's are queued
        threading.Timer(0.2, release.set).start()
        raise KeyboardInterrupt
    monkeypatch.setattr(pipeline, "run_study_file", fake)
    assert main(["run", str(tmp_path), "--workers", "0", "--no-progress"]) == 130  # one line
    assert ran == ["a"]                       # the running one finished, b's never started
