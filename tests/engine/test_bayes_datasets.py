"""The bayes_datasets analysis: the hierarchical and signed-rank tests over groups of data
sets, computed block by block, the same for any block size."""

import textwrap

import numpy as np
import pytest

from calibsim.engine import compute_scores, load_study, run_analyses
from calibsim.engine.spec import StudyFileError

pytest.importorskip("numpyro")

STUDY = """
[study]
name = "bayes_datasets_small"
seed = 11
block_size = {block}

[sources.null]
kind = "null"
n_instances = 60
n_datasets = 20

[learners]
names = ["naive_bayes", "c45"]

[schemes.cv]
kind = "repeated_kfold"
n_folds = 5
n_runs = 4

[[analysis]]
kind = "bayes_datasets"
name = "over"
datasets = [10]
runs = [2]
repeats = 2
ropes = [0.0, 0.01]
thresholds = [0.95, 0.99]
rhos = ["1/k", 0.3]

[outputs]
results = "{results}"
figures = "{results}/fig"
"""


def _study(tmp_path, block, name="s.toml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(STUDY.format(block=block, results=tmp_path / "res")))
    return load_study(path)


def test_decision_rates_and_replicability_do_not_depend_on_blocks(tmp_path):
    a = _study(tmp_path, 20)
    table = run_analyses(a, compute_scores(a))["over"]
    # 2 tests: hierarchical at 2 rho, signed-rank at 1; x 2 ropes x 2 thresholds
    assert len(table) == (2 + 1) * 2 * 2
    assert set(table.test) == {"hierarchical", "signed_rank"}
    assert (table.n_comparisons == 2).all() and (table.datasets_per_comparison == 10).all()
    rate = table.decision_rate.to_numpy()
    assert np.all((rate >= 0) & (rate <= 1))
    at_default = table[table.rho.astype(str) == "1/k"]
    assert at_default.R.notna().all() and (at_default.repeats == 2).all()
    assert table[table.rho_value == 0.3].R.isna().all()
    # a stricter threshold never decides more often
    for _, g in table.groupby(["test", "rho_value", "rope"]):
        g = g.sort_values("threshold")
        assert g.decision_rate.iloc[1] <= g.decision_rate.iloc[0]
    b = _study(tmp_path, 10, "t.toml")
    again = run_analyses(b, compute_scores(b))["over"]
    np.testing.assert_array_equal(table.decision_rate, again.decision_rate)


def test_block_size_must_hold_whole_comparisons(tmp_path):
    with pytest.raises(StudyFileError, match="block_size.*multiple of every number of data"):
        _study(tmp_path, 15)


def _calibrated_study(tmp_path, n_folds, n_runs, runs, rhos='["1/k", "calibrated"]'):
    text = (STUDY.replace("n_folds = 5", f"n_folds = {n_folds}")
            .replace("n_runs = 4", f"n_runs = {n_runs}").replace("runs = [2]", f"runs = [{runs}]")
            .replace('rhos = ["1/k", 0.3]', f"rhos = {rhos}"))
    path = tmp_path / "c.toml"
    path.write_text(textwrap.dedent(text.format(block=20, results=tmp_path / "res")))
    return load_study(path)


def test_calibrated_rho_is_the_shipped_tables(tmp_path):
    from calibsim import lookup_rho
    from calibsim.engine.analyses import _rho_value
    study = _calibrated_study(tmp_path, 5, 4, 2)
    a = study.analyses[0]
    assert a.rhos == ("1/k", "calibrated")
    # first threshold (0.95) and first ROPE (0) of the analysis, its r x k
    assert _rho_value("calibrated", 5, a, 2) == lookup_rho(threshold=0.95, rope=0.0,
                                                           n_folds=5, n_runs=2).rho
    assert _rho_value("1/k", 5, a, 2) == 0.2 and _rho_value(0.3, 5, a, 2) == 0.3


def test_calibrated_rho_outside_the_table_fails_before_any_score(tmp_path):
    with pytest.raises(StudyFileError, match=r"rhos.*'calibrated'.*n_folds=4, n_runs=2"):
        _calibrated_study(tmp_path, 4, 4, 2)
    with pytest.raises(StudyFileError, match=r"rhos\[1\].*'1/k', 'calibrated'"):
        _calibrated_study(tmp_path, 5, 4, 2, rhos='["1/k", "table"]')
