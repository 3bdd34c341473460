"""The learners drop into scikit-learn: clone, get/set_params, pipelines, cross_val_score."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_iris
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer

from calibsim.learners import C45, IB1, NaiveBayes


@pytest.mark.parametrize("make", [NaiveBayes, C45, IB1])
def test_cross_val_score_on_iris(make):
    X, y = load_iris(return_X_y=True)               # float X: numeric attributes
    scores = cross_val_score(make(), X, y, cv=5)
    assert scores.shape == (5,) and np.all(scores > 0.8)


@pytest.mark.parametrize("make", [NaiveBayes, C45, IB1])
def test_pipeline_clone_and_params(make):
    X, y = load_iris(return_X_y=True)
    pipe = make_pipeline(FunctionTransformer(lambda a: np.round(a, 1)), make())
    acc = pipe.fit(X, y).score(X, y)
    assert 0.8 < acc <= 1.0
    est = clone(make())
    assert est.get_params() == make().get_params()


def test_c45_set_params():
    tree = C45().set_params(confidence=0.1, min_obj=5)
    assert tree.get_params() == {"confidence": 0.1, "min_obj": 5}
