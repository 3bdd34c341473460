"""Validation 5 of issue 42, small: the engine's ``plan`` analysis and the layout of
``studies/plan_validation.toml``.

The full study (``calibsim run studies/plan_validation.toml``; figures/plan_validation/)
puts plan's Type I errors and power beside the committed Dietterich and Bouckaert tables;
here a few repeats check that the analysis runs through the engine, keeps its repeats in
the store (a rerun fits nothing and writes the same bytes), that ``differences = "own"``
gives each design its learners' own difference with almost no damage, and that the
layout reads the committed values from the tracked CSVs and explains a |z| >= 3 by the df.
"""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from calibsim.engine import load_study
from calibsim.engine.pipeline import run_study_file
from calibsim.engine.spec import StudyFileError
from calibsim.papers import own_studies as pv

REPO = Path(__file__).resolve().parents[1]
FIG = REPO / "figures"


def _study(tmp_path, analysis, sources):
    text = (f'[study]\nname = "pv"\nseed = 5\n\n{sources}\n'
            '[learners]\nnames = ["ib1", "c45", "naive_bayes"]\n'
            'pairs = [["ib1", "c45"], ["naive_bayes", "c45"]]\n\n'
            f'{analysis}\n[outputs]\nresults = "results"\nfigures = "fig"\n')
    path = tmp_path / "pv.toml"
    path.write_text(text)
    return path


PIMA = '[sources.pima]\nkind = "dataset"\nname = "diabetes"\nn_datasets = 4\n'
PIMA_PLAN = ('[[analysis]]\nkind = "plan"\nname = "dietterich_pima"\nsources = ["pima"]\n'
             'pairs = [["ib1", "c45"]]\ndesigns = ["holdout", "1x10"]\n'
             'tests = ["mcnemar", "kfold_cv"]\ndf = "textbook"\nn_instances = 150\n')


def test_the_study_file_declares_the_three_validations():
    study = load_study(REPO / "studies" / "plan_validation.toml")
    kinds = {a.name: a for a in study.analyses}
    assert {a.kind for a in study.analyses} == {"plan"}
    assert study.schemes == () and all(s.schemes == () for s in study.sources)
    assert kinds["ban"].differences == ("own",) and len(kinds["ban"].sources) == 4
    assert kinds["fresh_seed"].repeats == 2
    assert kinds["dietterich_pima"].n_instances == 300
    reduced = load_study(REPO / "studies" / "plan_validation.toml", n_datasets=10)
    assert reduced.reduced and {s.n_datasets for s in reduced.sources} == {10}


def test_a_plan_analysis_runs_through_the_engine_and_a_rerun_fits_nothing(tmp_path,
                                                                          monkeypatch):
    path = _study(tmp_path, PIMA_PLAN, PIMA)
    paths = run_study_file(path, n_workers=0)
    csv = paths["dietterich_pima.csv"]
    t = pd.read_csv(csv)
    # the k-fold cv t fits 1x10 only here; McNemar's test the holdout split
    assert sorted(zip(t["design"], t["test"])) == [("1x10", "kfold_cv"),
                                                   ("holdout", "mcnemar")]
    assert (t["n_datasets"] == 4).all() and (t["n_instances"] == 150).all()
    assert set(t["damaged"]) <= {"ib1", "c45"} and (t["difference"] == 0).all()
    assert set(t["n_train"].round()) == {100.0, 135.0}       # 2/3 of 150, 9/10 of 150
    for r in t.itertuples():      # the damaged null: equal learners within MC error
        assert abs(r.null_difference) < 4 * r.null_difference_se + 1e-12
    first = csv.read_bytes()

    from calibsim.engine import scoring as _scoring
    calls = []
    original = _scoring.score_block
    monkeypatch.setattr(_scoring, "score_block",
                        lambda *a, **k: calls.append(1) or original(*a, **k))
    run_study_file(path, n_workers=0)
    assert calls == [] and csv.read_bytes() == first


def test_report_fits_nothing_and_names_the_missing_repeats(tmp_path):
    path = _study(tmp_path, PIMA_PLAN, PIMA)
    with pytest.raises(FileNotFoundError, match="4 of 4 repeats are not in the store"):
        run_study_file(path, compute=False)
    run_study_file(path, n_workers=0, n_datasets=2)          # the first two repeats only
    with pytest.raises(FileNotFoundError, match="2 of 4 repeats"):
        run_study_file(path, compute=False)
    assert run_study_file(path, compute=False, n_datasets=2)["dietterich_pima.csv"].is_file()


def test_own_differences_keep_the_damaged_learner_ahead_with_almost_no_damage(tmp_path):
    ban = ('[sources.ban]\nkind = "ban"\nnetwork = "net.bif"\nn_instances = 3000\n'
           'n_datasets = 3\n')
    (tmp_path / "net.bif").write_text((REPO / "studies" / "networks" / "set3.bif").read_text())
    plan = ('[[analysis]]\nkind = "plan"\nname = "ban"\nsources = ["ban"]\n'
            'pairs = [["naive_bayes", "c45"]]\ndesigns = ["2x5"]\ntests = ["use_all_data"]\n'
            'differences = "own"\ndf = "textbook"\nn_instances = 200\n')
    study = load_study(_study(tmp_path, plan, ban))
    from calibsim.engine._plan_analysis import plan_rows
    t = plan_rows(study, study.analyses[0])
    null, own = t[t["difference"] == 0], t[t["own_difference"]]
    assert len(null) == 1 and len(own) == 1
    gap = float(null["null_accuracy_undamaged"].iloc[0] - null["null_accuracy_other"].iloc[0])
    d = float(own["difference"].iloc[0])
    assert 0 < d <= gap and gap - d < 1e-4           # rounded down to 0.01 points
    assert bool(own["damaged_ahead"].iloc[0]) and own["damage_rate"].iloc[0] < 0.01


def test_the_committed_values_come_from_the_tracked_csvs():
    ref = pd.read_csv(FIG / "dietterich1998" / "dietterich1998_pima_type1.csv")
    rows = []
    for design, tests in (("holdout", ["mcnemar", "proportions"]),
                          ("subsampling:30@0.333", ["resampling"]),
                          ("1x10", ["kfold_cv"]), ("5x2cv", ["kfold_cv", "cv5x2_t"])):
        for test in tests:       # the k-fold cv t also fits 5x2cv: that row must be skipped
            rows.append({"source": "pima", "repeat": 0, "difference": 0.0, "design": design,
                         "test": test, "rejection_rate": 0.9 if design == "5x2cv" and
                         test == "kfold_cv" else 0.05, "rejection_se": 0.01,
                         "n_datasets": 300, "df": 9.0, "damaged": "c45", "damage_rate": 0.07,
                         "n_train": 200.0, "n_instances": 300})
    t = pv.dietterich_table({"dietterich_pima": pd.DataFrame(rows)})
    assert list(t["test"]) == list(ref["test"])
    assert np.allclose(t["committed"], ref["type1_error"])
    kfold = t[t["test"] == "kfold_cv"].iloc[0]
    assert kfold["design"] == "1x10" and kfold["plan"] == 0.05
    # committed 0.033 over 1000 against 0.05 over 300: z > 0, small
    assert 0 < t["z"].iloc[0] < 3


def test_the_sentences_count_the_z_and_name_a_df_difference():
    base = {"committed_se": 0.005, "committed_n": 1000, "plan_se": 0.02, "plan_n": 200}
    bt = pd.DataFrame([
        {"set": "set1", "test": "kfold_cv", "label": "k-fold cv", "committed": 0.03,
         "committed_df": 5.0, "plan": 0.03, "plan_df": 9.0, "plan_type1": 0.03,
         "plan_own": 0.04, "own_difference": 0.003, **base},
        {"set": "set2", "test": "kfold_cv", "label": "k-fold cv", "committed": 0.105,
         "committed_df": 5.0, "plan": 0.28, "plan_df": 9.0, "plan_type1": 0.05,
         "plan_own": 0.28, "own_difference": 0.024, **base}])
    bt["z"] = pv.z_two_proportions(bt["committed"], bt["committed_n"], bt["plan"],
                                   bt["plan_n"])
    dt = bt.iloc[:0].assign(task=[])
    ft = pd.DataFrame({"z": [0.0, 2.0, -3.0]})
    text = pv.plan_summary(dt.assign(z=[]), bt, ft, ft.iloc[:0])
    assert "1 of 2 rates within |z| < 3" in text
    assert "Set 2: k-fold cv (28.0% against 10.5%" in text
    assert "df 9 in plan against 5 in the study" in text
    assert "1 (33.3%) have |z| > 2.58" in text


def test_z_of_two_proportions():
    assert pv.z_two_proportions(0.0, 1000, 0.0, 100) == 0.0
    assert pv.z_two_proportions(1.0, 1000, 1.0, 100) == 0.0
    z = pv.z_two_proportions(0.5, 1000, 0.4, 1000)
    assert z == pytest.approx(-0.1 / np.sqrt(0.45 * 0.55 * 2 / 1000))


@pytest.mark.parametrize("extra, key", [('runs = [2]\n', "runs"),
                                        ('differences = [1.5]\n', "differences")])
def test_a_bad_plan_analysis_is_refused_naming_the_key(tmp_path, extra, key):
    with pytest.raises(StudyFileError, match=key):
        load_study(_study(tmp_path, PIMA_PLAN + extra, PIMA))


def test_the_committed_tables_are_found_beside_the_study_outputs(tmp_path, monkeypatch):
    # installed into site-packages, the package's own checkout has no figures/: the tables
    # are read beside the study's [outputs] figures folder (found by the reduced run of a
    # pip-installed calibsim, where the package-relative path failed)
    from types import SimpleNamespace

    from calibsim.papers import own_studies as pv
    for d in ("dietterich1998", "bouckaert2003"):
        (tmp_path / "figures" / d).mkdir(parents=True)
    monkeypatch.setattr(pv, "FIGURES", tmp_path / "site-packages" / "figures")
    study = SimpleNamespace(name="plan_validation",
                            figures=tmp_path / "figures" / "plan_validation")
    assert pv.committed_figures(study) == (tmp_path / "figures").resolve()
    study.figures = tmp_path / "elsewhere" / "plan_validation"
    with pytest.raises(FileNotFoundError, match="figures/dietterich1998/ and"):
        pv.committed_figures(study)
