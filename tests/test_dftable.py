"""The shipped calibrated-df table: provenance, consistency, look-up, and a fresh calibration."""

import math

import numpy as np
import pytest

from calibsim.cli import main
from calibsim.calibration import df_table, lookup_df, provenance


def test_provenance_names_study_seed_commit_and_size():
    text = provenance()
    assert "studies/df_table.toml" in text and "seed" in text and "commit" in text
    assert (df_table()["n_datasets"] >= 10_000).all()


def test_designs_and_levels_covered():
    t = df_table()
    cv = t[t["design"] == "cv"]
    assert {(k, r) for k, r in zip(cv["n_folds"], cv["n_runs"])} >= {
        (k, r) for k in (2, 5, 10) for r in (2, 3, 5, 10, 20)}
    assert set(cv[cv["test"] == "kfold_cv"]["n_runs"]) == {1}
    sub = t[t["design"] == "subsampling"]
    assert set(sub["n_runs"]) == {10, 20, 50, 100} and (sub["n_folds"] == 0).all()
    assert set(np.round(t["alpha"], 3)) == {0.01, 0.025, 0.05, 0.1}


def test_rows_are_consistent():
    t = df_table()
    assert (t["df_ci_low"] <= t["df_continuous"]).all()
    assert (t["df_continuous"] <= t["df_ci_high"]).all()
    assert (t["df_ci_coverage"] >= 0.95).all()
    inside = t["df_continuous"].between(2, 100, inclusive="neither")
    np.testing.assert_array_equal(np.ceil(t.loc[inside, "df_continuous"]) - 1,
                                  t.loc[inside, "calibrated_df"])


def test_lookup_and_its_errors():
    e = lookup_df("use_all_data", alpha=0.05, n_folds=10, n_runs=10)
    assert e.n_folds == 10 and e.n_runs == 10 and e.default_df == 99
    s = lookup_df("corrected_resampling", alpha=0.01, n_runs=20)
    assert s.n_folds == 0 and s.n_runs == 20
    with pytest.raises(ValueError, match="`test` must be one of"):
        lookup_df("mcnemar")
    with pytest.raises(ValueError, match="`alpha` must be one of"):
        lookup_df("use_all_data", alpha=0.2)
    with pytest.raises(ValueError, match=r"covers \(n_folds, n_runs\) in"):
        lookup_df("use_all_data", n_folds=3, n_runs=10)


def test_a_fresh_small_calibration_agrees_with_the_table():
    """400 new null data sets (another seed): its 95% interval overlaps the table's."""
    from calibsim.calibration import continuous_calibration
    from calibsim.engine import null_differences
    x = null_differences(400, n_runs=3, n_folds=5, seed=424242)
    for alpha in (0.05, 0.1):
        fresh = continuous_calibration("use_all_data", x, alpha)
        table = lookup_df("use_all_data", alpha=alpha, n_folds=5, n_runs=3)
        assert fresh.ci_low <= table.ci_high and table.ci_low <= fresh.ci_high, (fresh, table)


def test_cli_df(capsys):
    assert main(["df", "--test", "use_all_data", "--folds", "10", "--runs", "10"]) == 0
    out = capsys.readouterr().out
    assert "calibrated df" in out and "95% interval" in out
    assert main(["df", "--test", "use_all_data", "--folds", "3"]) == 2
    assert "covers" in capsys.readouterr().err
    assert main(["df", "--alpha", "0.05"]) == 0
    assert math.isfinite(len(capsys.readouterr().out))
