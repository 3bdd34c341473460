"""The general scoring path passes the declared classes to every fit (Weka's header)."""

import numpy as np

from calibsim.datasets import load_uci
from calibsim.engine import learners as engine_learners
from calibsim.engine.learners import LearnerSpec, score_general
from calibsim.learners import NaiveBayes


def test_every_fit_gets_the_declared_classes(monkeypatch):
    """Through the estimators (forced: naive Bayes alone on numeric data otherwise runs in
    the one-call kernel, which takes ``n_classes``), and the kernel scores the same."""
    ds = load_uci("iris")
    seen = []
    fit = NaiveBayes.fit

    def spy(self, X, y, n_values=None, classes=None):
        seen.append((set(np.unique(y)), None if classes is None else list(classes)))
        return fit(self, X, y, n_values=n_values, classes=classes)

    masks = np.stack([ds.y == 2, ds.y == 0])          # each training part lacks a class
    learners = (LearnerSpec("nb", "naive_bayes"),)
    monkeypatch.setattr(NaiveBayes, "fit", spy)
    kernel = score_general(ds.X, ds.y, masks, learners, n_values=ds.n_values,
                           n_classes=ds.n_classes)
    assert seen == []                                 # no estimator fitted
    monkeypatch.setattr(engine_learners, "_general_kernel_runs", lambda *a: False)
    res = score_general(ds.X, ds.y, masks, learners, n_values=ds.n_values,
                        n_classes=ds.n_classes)
    assert [s[1] for s in seen] == [[0, 1, 2], [0, 1, 2]]
    assert seen[0][0] == {0, 1} and seen[1][0] == {1, 2}
    assert res["correct"].shape == (1, 2)
    for key in ("correct", "n_test", "model_size"):
        assert np.array_equal(kernel[key], res[key])
