"""Built-in learners with different options on the fast path (issue 34)."""

import numpy as np

from calibsim.engine.cells import CellSpec, run_cell
from calibsim.engine.spec import study_from_dict


def test_c45_learners_keep_their_own_options(tmp_path):
    # two C4.5 learners that differ only in their pruning confidence, beside naive Bayes:
    # each must be scored with its own options, and equal the same learner alone
    def cell(names, extra):
        doc = {"study": {"name": "opts", "seed": 3},
               "sources": {"null": {"kind": "null", "n_instances": 120, "n_attributes": 6,
                                    "class_prior": 0.5, "n_datasets": 4}},
               "learners": {"names": names, **extra},
               "schemes": {"cv": {"kind": "repeated_kfold", "n_folds": 5, "n_runs": 2}},
               "analysis": [{"kind": "accuracy"}]}
        study = study_from_dict(doc, tmp_path / "opts.toml")
        return run_cell(CellSpec(study.sources[0], tuple(study.learners),
                                 tuple(study.schemes), 0, 4))["cv"]
    pruned = {"c45_pruned": {"kind": "c45", "confidence": 0.01, "min_obj": 10}}
    both = cell(["c45", "naive_bayes", "c45_pruned"], pruned)
    alone = cell(["naive_bayes", "c45_pruned"], pruned)
    default = cell(["naive_bayes", "c45"], {})
    np.testing.assert_array_equal(both["correct"][:, 2], alone["correct"][:, 1])
    np.testing.assert_array_equal(both["correct"][:, 0], default["correct"][:, 1])
    np.testing.assert_array_equal(both["correct"][:, 1], default["correct"][:, 0])
    np.testing.assert_array_equal(both["model_size"][:, 2], alone["model_size"][:, 1])
    assert not np.array_equal(both["model_size"][:, 0], both["model_size"][:, 2])
