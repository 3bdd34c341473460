"""Validation 5(a) of issue 42, small: scripts/validate_plan_dietterich1998.py on Pima.

The full run (300 data sets of 300 per design; docs/guide/plan.md gives its numbers) puts
plan's Type I errors beside the committed dietterich1998_pima study's; here a few data
sets check that the script runs, calibrates at the study's three training-set sizes
(150, 200, 270 of 300) and that the damaged null has equal learners within its Monte
Carlo error.
"""

import importlib.util
from pathlib import Path

import numpy as np

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "validate_plan_dietterich1998.py"


def _script():
    spec = importlib.util.spec_from_file_location("validate_plan_dietterich1998", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_validation_runs_on_pima_at_the_studys_training_sizes():
    out = _script().validate("pima", n_datasets=8)
    assert list(out["test"]) == ["McNemar", "difference of proportions", "resampled t",
                                 "10-fold cv t", "5x2cv t"]
    assert np.isfinite(out["z"]).all()
    null = out.attrs["null"]
    assert set(null["damaged"]) <= {"c45", "ib1"}
    assert set(null["n_train"].round()) == {150.0, 200.0, 270.0}
    for r in null.itertuples():
        assert abs(r.difference) < 4 * r.difference_se + 1e-12
