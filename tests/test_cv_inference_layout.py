"""The rules of the cv_inference layout (studies/cv_inference_1998_2023.toml): which test it
recommends for a design and n, and the must-show table, on small hand-made summaries."""

import numpy as np
import pandas as pd
import pytest

from calibsim.papers import own_studies as cvi


def _rows(n, test, null_rate, powers, R=0.9, fits=20):
    """Summary rows of one test at one n: its Type I error on the null and its power on
    Sets 2-4 (the rate used: at the df calibrated at n where the test has one)."""
    out = []
    for source, rate in zip(("null", "Set 2", "Set 3", "Set 4"), (null_rate, *powers)):
        out.append({"source": source, "n": n, "learner_a": "naive Bayes", "learner_b": "C4.5",
                    "difference": 0.0 if source == "null" else -0.05,
                    "difference_se": 0.01, "test": test, "label": cvi.TESTS[test][1],
                    "design": cvi.TESTS[test][0], "fits": fits,
                    "df_textbook": 9.0 if test in cvi.DF_TESTS else np.nan,
                    "rate_textbook": rate, "se_textbook": 0.01,
                    "df_calibrated": 6.0 if test in cvi.DF_TESTS else np.nan,
                    "rate_calibrated": rate, "se_calibrated": 0.01,
                    "df_at_n": 6.0 if test in cvi.DF_TESTS else np.nan,
                    "rate_at_n": rate, "se_at_n": 0.01,
                    "rate_used": rate, "se_used": 0.01, "R": R, "R_se": 0.01,
                    "coverage_null": 1 - rate if source == "null" else np.nan,
                    "n_datasets": 300})
    return out


def test_the_most_powerful_valid_test_of_a_design_is_recommended():
    # 300 data sets: alpha + 2 SE = 5% + 2.52 points = 7.52%
    t = pd.DataFrame(_rows(300, "use_all_data", 0.08, (0.9, 0.9, 0.9))       # too many
                     + _rows(300, "corrected_repeated_cv", 0.05, (0.5, 0.6, 0.7))
                     + _rows(300, "kfold_cv", 0.07, (0.2, 0.3, 0.4)))
    rec = cvi.recommendations(t, 0.05).set_index("design")["n = 300"]
    assert rec["10 × 10 cv"].startswith("corrected repeated cv t")
    assert "power 60.0%" in rec["10 × 10 cv"] and "Type I 5.0%" in rec["10 × 10 cv"]
    assert rec["10-fold cv, one run"].startswith("10-fold cv t")
    assert rec["any design"].startswith("corrected repeated cv t (Bouckaert & Frank 2004) on "
                                        "10 × 10 cv")
    assert rec["5 × 2 cv"] == "—"                        # no test of that design ran


def test_a_design_whose_tests_all_exceed_alpha_says_so():
    t = pd.DataFrame(_rows(100, "resampling", 0.20, (0.9, 0.9, 0.9))
                     + _rows(100, "corrected_resampling", 0.10, (0.5, 0.5, 0.5)))
    rec = cvi.recommendations(t, 0.05).set_index("design")["n = 100"]
    assert rec["10 × 90/10 subsampling"] == ("none keeps α (least bad: corrected resampled t "
                                             "(Nadeau & Bengio 2003), Type I 10.0%)")


def test_within_one_point_of_power_the_more_replicable_then_cheaper_test_wins():
    t = pd.DataFrame(_rows(300, "cv5x2_t", 0.04, (0.500, 0.5, 0.5), R=0.80)
                     + _rows(300, "cv5x2_f", 0.04, (0.495, 0.5, 0.5), R=0.95))
    rec = cvi.recommendations(t, 0.05).set_index("design")["n = 300"]
    assert rec["5 × 2 cv"].startswith("5x2cv F")


@pytest.mark.parametrize("rate, ok", [(0.075, True), (0.076, False), (np.nan, False)])
def test_the_validity_rule_is_alpha_plus_two_monte_carlo_se(rate, ok):
    assert cvi._valid(rate, 300, 0.05) is ok


def test_the_table_at_n_shows_both_dfs_and_coverage_on_the_null():
    t = pd.DataFrame(_rows(300, "kfold_cv", 0.047, (0.2, 0.3, 0.96))
                     + _rows(300, "bayle_cv_clt", 0.08, (0.36, 0.49, 0.99)))
    tab = cvi.table_at(t, 300).set_index("test")
    k = tab.loc["10-fold cv t (Dietterich 1998)"]
    assert k["df: textbook, calibrated"] == "9, 6"
    assert k["Set 4 power %: textbook → calibrated"] == "96.0 → 96.0"
    assert k["coverage of 0 on the null %"] == "95.3"
    c = tab.loc["cv CLT test (Bayle et al. 2020)"]
    assert c["df: textbook, calibrated"] == "none" and c["Type I %, calibrated df"] == "—"


def test_the_ban_coverage_report_is_redrawn_from_its_tracked_tables(tmp_path):
    """The layout of studies/cv_inference_1998_2023_coverage.toml reads only the four coverage
    tables: redrawn from the tracked ones, the report is the tracked report byte for byte,
    and its pooled column is the cells' mean."""
    from pathlib import Path

    from calibsim.engine import load_study
    from calibsim.papers.own_studies import coverage_cells, coverage_summary_table, write_coverage
    repo = Path(__file__).resolve().parents[1]
    fig = repo / "figures" / "cv_inference"
    study = load_study(repo / "studies" / "cv_inference_1998_2023_coverage.toml")
    tables = {k: pd.read_csv(fig / f"{study.name}_{k}.csv", keep_default_na=False)
              for k in ("coverage", "coverage_ncv", "coverage_bootstrap",
                        "coverage_calibrated")}
    out = write_coverage(study=study, tables=tables, scores=None, folder=tmp_path)
    assert out["report.md"].read_bytes() == (fig / f"{study.name}.md").read_bytes()
    t = coverage_cells(tables)
    assert len(t) == 10 * 16 and set(t["verdict"]) <= {"nominal", "under", "over"}
    ncv = coverage_summary_table(t).set_index("test").loc["NCV (Bates, Hastie & Tibshirani 2023)"]
    want = 100 * t.loc[t["test"] == "ncv", "coverage"].mean()
    assert ncv["coverage %, pooled (SE)"].startswith(f"{want:.1f} (")
