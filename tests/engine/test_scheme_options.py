"""cv5x2 scheme options (issue 34): a stratified hold-out share and unstratified folds."""

import numpy as np
import pytest

from calibsim.engine.cells import CellSpec, run_cell
from calibsim.engine.spec import study_from_dict
from calibsim.schemes import RepeatedCV, StratifiedRepeatedCV


def _study(tmp_path, **scheme):
    doc = {"study": {"name": "opts", "seed": 7},
           "sources": {"iris": {"kind": "dataset", "name": "iris"}},
           "learners": {"names": ["naive_bayes", "c45"]},
           "schemes": {"cv5x2": {"kind": "cv5x2", **scheme}},
           "analysis": [{"kind": "accuracy"}]}
    return study_from_dict(doc, tmp_path / "opts.toml")


def _cell(study):
    return run_cell(CellSpec(study.sources[0], tuple(study.learners), tuple(study.schemes),
                             0, 1))["cv5x2"]


def test_hold_out_sets_a_stratified_share_aside(tmp_path):
    plain, held = _study(tmp_path), _study(tmp_path, hold_out=1 / 3)
    assert plain.schemes[0].identity != held.schemes[0].identity   # its own store key
    a, b = _cell(plain), _cell(held)
    # iris: 150 instances; 5 x 2 cv tests every instance once per run
    assert (a["n_test"].sum(axis=-1) == 150).all()
    assert (b["n_test"].sum(axis=-1) == 100).all()           # a third (50, stratified) aside
    assert (b["correct"] <= b["n_test"][:, None]).all()
    again = _cell(_study(tmp_path, hold_out=1 / 3))
    np.testing.assert_array_equal(b["correct"], again["correct"])       # deterministic


def test_unstratified_folds_and_bad_values(tmp_path):
    assert isinstance(_study(tmp_path).schemes[0].splitter(), StratifiedRepeatedCV)
    split = _study(tmp_path, stratified=False).schemes[0].splitter()
    assert type(split) is RepeatedCV and split.n_runs == 5 and split.n_folds == 2
    with pytest.raises(ValueError, match="hold_out"):
        _study(tmp_path, hold_out=1.0)
