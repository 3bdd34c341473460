"""The learners drop into scikit-learn: clone, get/set_params, pipelines, cross_val_score,
and scikit-learn's own estimator checks (``parametrize_with_checks``)."""

import numpy as np
import pytest
from scipy import sparse
from sklearn.base import clone
from sklearn.datasets import load_iris
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer
from sklearn.utils import get_tags
from sklearn.utils.estimator_checks import parametrize_with_checks

from calibsim.learners import C45, IB1, TAN, NaiveBayes, VotedPerceptron
from calibsim.learners._base import _expected_failed_checks

ALL = [NaiveBayes, C45, IB1, TAN, VotedPerceptron]


@parametrize_with_checks([make() for make in ALL],
                         expected_failed_checks=_expected_failed_checks)
def test_sklearn_estimator_checks(estimator, check):
    # every check passes except those listed, with a reason, by _expected_failed_checks
    # (run as strict xfails: a listed check that starts passing fails this test)
    check(estimator)


@pytest.mark.parametrize("make", ALL)
def test_tags_say_what_the_learners_take(make):
    tags = get_tags(make())
    assert tags.input_tags.allow_nan and tags.input_tags.categorical
    assert not tags.input_tags.sparse and not tags.input_tags.positive_only
    assert tags.classifier_tags.multi_class == (make is not VotedPerceptron)


@pytest.mark.parametrize("make", ALL)
def test_clear_errors(make):
    X, y = np.array([[0, 1], [1, 0], [1, 1], [0, 0]]), np.array([0, 1, 1, 0])
    est = make()
    with pytest.raises(NotFittedError):
        est.predict(X)
    with pytest.raises(NotFittedError):
        est.predict_proba(X)
    with pytest.raises(TypeError, match="`X` is a sparse matrix.*toarray"):
        est.fit(sparse.csr_array(X), y)
    with pytest.raises(ValueError, match="Complex data not supported"):
        est.fit(X + 1j, y)
    with pytest.raises(ValueError, match=r"`X` must have at least one column; got 0 feature"):
        est.fit(np.empty((4, 0)), y)
    with pytest.raises(ValueError, match="requires y to be passed, but the target y is None"):
        est.fit(X, None)
    with pytest.raises(ValueError, match="Unknown label type: 'continuous'"):
        est.fit(X, [0.5, 1.5, 2.5, 3.5])
    with pytest.raises(ValueError, match="Input y contains NaN"):
        est.fit(X, [0.0, np.nan, 1.0, 0.0])
    with pytest.raises(ValueError, match="must hold finite values or NaN"):
        est.fit([[0.0, np.inf], [1.0, 2.0]], [0, 1], n_values=[2, 0])
    est.fit(X, y)
    with pytest.raises(ValueError, match="Reshape your data"):
        est.predict(X[0])
    with pytest.raises(ValueError, match="X has 1 features, but .* is expecting 2 features"):
        est.predict_proba(X[:, :1])


@pytest.mark.parametrize("make", [NaiveBayes, C45, IB1, TAN])
def test_cross_val_score_on_iris(make):
    X, y = load_iris(return_X_y=True)               # float X: numeric attributes
    scores = cross_val_score(make(), X, y, cv=5)
    assert scores.shape == (5,) and np.all(scores > 0.8)


def test_voted_perceptron_cross_val_score_on_two_iris_classes():
    X, y = load_iris(return_X_y=True)
    setosa_vs_versicolor = y < 2                    # linearly separable on the raw values
    scores = cross_val_score(VotedPerceptron(), X[setosa_vs_versicolor],
                             y[setosa_vs_versicolor], cv=5)
    assert scores.shape == (5,) and np.all(scores == 1.0)


class _ContinuousData:
    """Tags without ``categorical``: the checks then keep X continuous (numeric attributes)."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = False
        return tags


class NaiveBayesOnContinuousData(_ContinuousData, NaiveBayes):
    pass


class C45OnContinuousData(_ContinuousData, C45):
    pass


class IB1OnContinuousData(_ContinuousData, IB1):
    pass


class TANOnContinuousData(_ContinuousData, TAN):
    pass


class VotedPerceptronOnContinuousData(_ContinuousData, VotedPerceptron):
    pass


@parametrize_with_checks([NaiveBayesOnContinuousData(), C45OnContinuousData(),
                          IB1OnContinuousData(), TANOnContinuousData(),
                          VotedPerceptronOnContinuousData()],
                         expected_failed_checks=_expected_failed_checks)
def test_sklearn_estimator_checks_on_continuous_data(estimator, check):
    # with the categorical tag the checks round X to small integers; without it
    # they use continuous values, which the learners take as numeric attributes
    check(estimator)


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
