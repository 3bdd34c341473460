"""Damage calibrated for any metric: the level reaches its target, refuses what it cannot."""

import numpy as np
import pytest

from calibsim.engine._metric_damage import StoredResponses, damaged_scores, solve_level
from calibsim.metrics import get_metric


def _classification(n_folds=50, per=40, seed=0):
    rng = np.random.default_rng(seed)
    fold = np.repeat(np.arange(n_folds), per)
    y = np.tile(np.arange(per) % 2, n_folds)
    p1 = np.clip(0.5 + 0.25 * (2 * y - 1) + rng.normal(scale=0.2, size=y.size), 0.01, 0.99)
    return StoredResponses(y, np.stack([1 - p1, p1], 1), fold, n_folds, 2)


@pytest.mark.parametrize("name", ["roc_auc", "neg_log_loss", "neg_brier_score",
                                  "average_precision", "roc_auc_ovr"])
def test_the_solved_noise_reaches_the_target_on_fresh_draws(name):
    m = get_metric(name)
    st = _classification()
    top = damaged_scores(m, st, 0.0, None).mean()
    target = top - 0.05 * abs(top) if m.sign < 0 else top - 0.05
    level = solve_level(m, st, target, np.random.SeedSequence(1))
    assert level > 0
    fresh = np.array([damaged_scores(m, st, level, np.random.default_rng(s)).mean()
                      for s in range(20)])
    se = fresh.std(ddof=1) / np.sqrt(fresh.size)
    assert abs(fresh.mean() - target) < 4 * se + 1e-3 * abs(target)


def test_random_errors_for_a_label_metric():
    m = get_metric("balanced_accuracy")
    st = _classification()
    labels = StoredResponses(st.y, st.response.argmax(1), st.fold, st.n_folds, 2)
    top = damaged_scores(m, labels, 0.0, None).mean()
    rate = solve_level(m, labels, top - 0.1, np.random.SeedSequence(2))
    assert 0 < rate < 0.5


def test_squared_error_in_closed_form():
    rng = np.random.default_rng(3)
    y = rng.normal(size=5000)
    st = StoredResponses(y, y + rng.normal(size=y.size), np.arange(y.size) % 10, 10, 0)
    m = get_metric("neg_mean_squared_error")
    top = damaged_scores(m, st, 0.0, None).mean()
    s = solve_level(m, st, top - 0.25, np.random.SeedSequence(0))
    assert s == pytest.approx(0.5)
    mae = get_metric("neg_mean_absolute_error")
    top = damaged_scores(mae, st, 0.0, None).mean()
    assert solve_level(mae, st, top - 0.1, np.random.SeedSequence(0)) > 0


def test_targets_out_of_reach_are_refused():
    m = get_metric("roc_auc")
    st = _classification()
    with pytest.raises(ValueError, match="cannot be reached: damage takes"):
        solve_level(m, st, 0.3, np.random.SeedSequence(0))
    top = damaged_scores(m, st, 0.0, None).mean()
    with pytest.raises(ValueError, match="damage only lowers"):
        solve_level(m, st, top + 0.01, np.random.SeedSequence(0))
    assert solve_level(m, st, top, np.random.SeedSequence(0)) == 0.0
