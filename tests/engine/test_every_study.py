"""Every committed study runs on the one engine at reduced size, and `calibsim report` redoes it."""

from pathlib import Path

import pytest

from calibsim.cli import main

REPO = Path(__file__).resolve().parents[2]
# the real-data example keeps its data sets whatever --n-datasets says; a reduced copy of it
# is run in test_runner_store.py
STUDIES = sorted(p for p in (REPO / "studies").glob("*.toml")
                 if p.stem != "example_uci_four_learners")


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    return tmp_path_factory.mktemp("shared_results")       # shared: Figure 2 is computed once


@pytest.mark.parametrize("study", STUDIES, ids=[p.stem for p in STUDIES])
def test_run_then_report(study, results, tmp_path, capsys):
    args = ["--n-datasets", "4", "--results", str(results), "--out", str(tmp_path)]
    assert main(["run", str(study), "--workers", "0", "--no-progress", *args]) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert any(n.endswith(".csv") for n in written), written
    for p in tmp_path.iterdir():
        p.unlink()
    assert main(["report", str(study), *args]) == 0, capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == written
