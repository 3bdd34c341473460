"""Every committed study runs on the one engine at reduced size, and `calibsim report` redoes it."""

from pathlib import Path

import pytest

from calibsim.cli import main

REPO = Path(__file__).resolve().parents[2]
# Real-data studies keep their data sets whatever --n-datasets says; the heavy ones run
# as reduced copies (fewer data sets, runs or learners) in test_cli_examples.py,
# test_paper_bouckaert_frank2004.py and test_paper_ulas2012.py. The df table study takes its 10,000 data sets down to 4
# here like the others.
HEAVY = {"example_uci_four_learners", "bouckaert_frank2004_tables234", "ulas2012_real"}
STUDIES = sorted(p for p in (REPO / "studies").glob("*.toml") if p.stem not in HEAVY)


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
