import numpy as np
import pytest


@pytest.fixture
def rng():
    """A fixed-seed generator; each test gets a fresh one."""
    return np.random.default_rng(20031)
