"""Fixtures shared by the learner tests."""

import pytest

from _weka_folds import load_tan_vp_oracle  # tests/learners is on sys.path


@pytest.fixture(scope="module")
def tan_vp_oracle():
    """Weka's TAN and voted-perceptron answers (``data/weka_oracle_tan_vp.npz``), read once."""
    return load_tan_vp_oracle()
