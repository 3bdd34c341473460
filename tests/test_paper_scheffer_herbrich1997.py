"""Scheffer & Herbrich (1997): worked examples, claim rules and the ``examples`` layout."""

import tomllib
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from calibsim.papers import PAPERS, get_paper, layouts
from calibsim.papers.scheffer_herbrich1997 import (
    PAPER,
    implied_error_rate,
    paper_comparison,
    worked_examples,
)

STUDY = Path(__file__).resolve().parents[1] / "studies" / "scheffer_herbrich1997_examples.toml"


@pytest.fixture(scope="module")
def frame():
    return worked_examples().set_index("quantity")


def test_fem_labels_needed_match_the_paper(frame):
    # §3.1: "To achieve 26% accuracy with a probability of 99%, FOIL needs c = 5 class
    # labels, while to achieve 31% with a probability of 93% FOIL would need c = 8".
    assert frame.loc["labels per problem for P(acc >= 26%) >= 0.99", "ours"] == 5
    assert frame.loc["labels per problem for P(acc >= 31%) >= 0.93", "ours"] == 8
    # Without A6 one channel can gain at most c hits; 26% needs 14, so c = 5 is impossible.
    assert frame.loc["labels for P(acc >= 26%) >= 0.99, one channel", "ours"] >= 14
    assert frame.loc["labels for P(acc >= 31%) >= 0.93, one channel", "ours"] >= 27


def test_fem_probabilities_are_at_least_the_papers(frame):
    for q in ("P(acc >= 26%) with c = 5 per problem", "P(acc >= 31%) with c = 8 per problem"):
        row = frame.loc[q]
        assert row["paper"] <= row["ours"] < 1
        assert row["difference"] == pytest.approx(row["ours"] - row["paper"])


def test_statlog_numbers(frame):
    assert round(frame.loc["P(over-ranked) with c = 16", "ours"], 2) == 0.02       # "2% chance"
    assert round(frame.loc["bits of the parameter channel for c = 16", "ours"]) == 40
    assert frame.loc["experiments for c = 16", "ours"] == 96
    assert frame.loc["extra hits to outperform Bay-tree (error .147)", "ours"] == 6
    assert frame.loc["extra hits to outperform INDCart (error .073)", "ours"] == 4
    h = frame.loc["class entropy H (bits per leaked label)"].set_index("dataset")["ours"]
    assert round(h["heart disease"], 3) == 0.991
    assert h["diabetes"] == pytest.approx(0.9331, abs=1e-4)       # 500 / 268 in diabetes.arff


def test_every_row_states_source_and_assumptions():
    t = worked_examples()
    assert t["assumptions"].str.len().gt(0).all()
    quoted = t[t["paper"].notna()]
    assert quoted["source"].str.contains("§3.1").all()
    assert t[t["paper"].isna()]["source"].str.startswith("model only").all()
    numbers = {k: v for k, (v, _) in PAPER.items() if not isinstance(v, str)}
    assert set(quoted["paper"]) <= set(map(float, numbers.values()))


def test_claim_verdicts():
    claims = paper_comparison(worked_examples())
    assert [c["verdict"] for c in claims] == ["agrees", "agrees", "partly", "partly", "agrees",
                                              "agrees", "agrees", "not checked"]
    assert all(c["rule"] for c in claims)


def test_implied_error_rate_reproduces_the_papers_probability():
    from scipy import stats
    q = implied_error_rate(8, 0.31, 0.93)
    assert q < 1 - 59 / 277                        # the paper's model gains less than ours
    assert stats.binom(40, q).sf(26) == pytest.approx(0.93, abs=1e-9)


def test_examples_layout_writes_its_files(tmp_path):
    study = SimpleNamespace(name="sh97", title="Scheffer & Herbrich (1997)", seed=1)
    paths = get_paper("scheffer_herbrich1997.examples").write(
        study=study, tables={}, scores=None, folder=tmp_path / "out", wall=None,
        calibrations={})
    assert {p.name for p in paths.values()} == {"sh97_examples.csv", "sh97_examples.md",
                                                "sh97_report.md", "sh97.png"}
    saved = pd.read_csv(paths["examples.csv"])
    want = worked_examples()
    assert list(saved["quantity"]) == list(want["quantity"])
    np.testing.assert_allclose(saved["ours"], want["ours"], rtol=1e-5)
    assert paths["figure.png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    report = paths["report"].read_text(encoding="utf-8")
    for part in ("## Assumptions", "A6", "| FEM mesh design", "## The paper's claims",
                 "sh97.png"):
        assert part in report


def test_registered_and_study_file():
    assert "scheffer_herbrich1997" in PAPERS
    assert layouts("scheffer_herbrich1997") == ("examples", "simulation")
    spec = tomllib.loads(STUDY.read_text(encoding="utf-8"))
    assert spec["study"]["paper"] == "scheffer_herbrich1997.examples"
    assert set(spec) == {"study", "outputs"}                     # published numbers only
    get_paper(spec["study"]["paper"])
