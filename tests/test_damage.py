"""Damage calibrated for any data and learners (calibsim.engine.damage, issue 42)."""

import numpy as np
import pytest

from calibsim import calibrate_damage
from calibsim.engine.damage import damage_rate, thin_correctness, thin_counts


@pytest.fixture(scope="module")
def breast_cancer_null():
    return calibrate_damage("naive_bayes", "c45", "breast-cancer", difference=0.0,
                            design="1x10", n_runs=20)


def _within(res, k=3.0):
    sd = np.hypot(res.achieved_se, res.calibration_se)
    return abs(res.achieved - res.difference) < k * sd


def test_the_null_reaches_zero_difference_within_its_se(breast_cancer_null):
    res = breast_cancer_null
    assert res.damaged == "c45" and res.other == "naive_bayes"
    assert 0 < res.rate < 0.5 and res.n_classes == 2
    assert 250 <= res.n_train <= 260           # 9/10 of 286
    assert _within(res)
    assert "achieved on 20 fresh runs" in str(res)


def test_a_positive_difference_is_reached_within_its_se():
    res = calibrate_damage("naive_bayes", "c45", "breast-cancer", difference=0.05,
                           n_train=190, n_runs=40)
    assert 180 <= res.n_train <= 200
    assert _within(res)
    assert res.curve == [(int(round(res.n_train)), res.rate)]


def test_refuses_a_difference_beyond_the_margin_over_chance():
    with pytest.raises(ValueError, match=r"`difference` 0.3 .* larger than naive_bayes's "
                                         r"margin over chance"):
        calibrate_damage("naive_bayes", "c45", "breast-cancer", difference=0.3,
                         design="1x10", n_runs=5)


def test_refuses_to_damage_a_learner_that_is_not_better():
    with pytest.raises(ValueError, match=r"`damage` 'a': naive_bayes .* is not above the "
                                         r"target"):
        calibrate_damage("naive_bayes", "c45", "breast-cancer", damage="a",
                         design="1x10", n_runs=5)


@pytest.mark.parametrize("bad", [-0.01, 1.0, float("nan"), "0.02", True])
def test_refuses_a_bad_difference(bad):
    with pytest.raises(ValueError, match="`difference` must be a difference in accuracy units"):
        calibrate_damage("naive_bayes", "c45", "breast-cancer", difference=bad)


def test_points_get_a_hint():
    with pytest.raises(ValueError, match=r"0.02 for 2 points\)"):
        calibrate_damage("naive_bayes", "c45", "breast-cancer", difference=2)


def test_refuses_both_n_train_and_design():
    with pytest.raises(ValueError, match="give `n_train` or `design`, not both"):
        calibrate_damage("naive_bayes", "c45", "breast-cancer", n_train=100, design="1x10")


def test_damage_rate_closed_form():
    # a (1 - r) + (1 - a) r / (C - 1) = t
    for a, t, c in [(0.8, 0.75, 2), (0.9, 0.5, 3), (0.6, 0.6, 4)]:
        r = damage_rate(a, t, c)
        assert a * (1 - r) + (1 - a) * r / (c - 1) == pytest.approx(t)


def test_thinning_matches_random_errors_of_the_learner(rng):
    """The binomial thinning of counts and the per-instance thinning have the law of
    RandomErrors' predictions (Dietterich's damaged learner), on three classes."""
    from calibsim.learners._damaged import RandomErrors
    n, c, r = 3000, 3, 0.3
    X = rng.integers(0, 3, size=(n, 2))
    y = (X[:, 0] + (rng.random(n) < 0.2)) % 3
    base = RandomErrors(base="naive_bayes", curve=[(1, 0.0)]).fit(X, y)
    a = float(np.mean(base.predict(X) == y))
    damaged = RandomErrors(base="naive_bayes", curve=[(1, r)], random_state=1).fit(X, y)
    acc_learner = float(np.mean(damaged.predict(X) == y))
    expected = a * (1 - r) + (1 - a) * r / (c - 1)
    counts = thin_counts(np.full(2000, int(a * n)), np.full(2000, n), r, c, rng) / n
    correct = base.predict(X) == y
    inst = np.mean([thin_correctness(correct, np.ones(n, bool), r, c, rng).mean()
                    for _ in range(200)])
    se = np.sqrt(expected * (1 - expected) / n)
    assert abs(acc_learner - expected) < 4 * se
    assert abs(counts.mean() - expected) < 4 * se / np.sqrt(2000) + 1 / n
    assert abs(inst - expected) < 4 * se / np.sqrt(200)


def test_at_chance_the_null_is_taken_as_it_is(rng):
    """Δ = 0 with the other learner below chance (a class that depends on no attribute):
    no damage can bring the better learner there, and there is no signal to remove."""
    from calibsim.engine.damage import solve
    from calibsim.engine.scoring import Design
    cal = Design("cv", 4, 5)
    n_test = np.full((4, 5), 60)
    acc = np.stack([np.full((4, 5), 31 / 60), np.full((4, 5), 29 / 60)])   # 51.7%, 48.3%
    res = solve(acc, n_test, cal, ["a", "b"], 2, [0.0], "better", rng, 300)[0]
    assert res.damaged == "a" and res.rate == 0.0
    with pytest.raises(ValueError, match="margin over chance"):
        solve(acc, n_test, cal, ["a", "b"], 2, [0.01], "better", rng, 300)


def test_up_to_the_gap_the_damaged_learner_stays_ahead_beyond_it_falls_behind(rng):
    """Dietterich's λ: a Δ within the learners' own gap puts the damaged learner between
    the two curves (ahead by Δ); a larger Δ puts it Δ behind the other."""
    from calibsim.engine.damage import solve
    from calibsim.engine.scoring import Design
    cal = Design("cv", 6, 5)
    n_test = np.full((6, 5), 200)
    acc = np.stack([np.full((6, 5), 0.8), np.full((6, 5), 0.7)])
    within, beyond, whole = solve(acc, n_test, cal, ["a", "b"], 2, [0.05, 0.15, 0.1],
                                  "better", rng, 1000)
    assert within.ahead and within.rate == pytest.approx(0.05 / 0.6)   # 0.8 - 0.6 r = 0.75
    assert not beyond.ahead and beyond.rate == pytest.approx(0.25 / 0.6)
    assert whole.ahead and whole.rate == pytest.approx(0.0, abs=1e-12)  # Δ = the gap
    for res in (within, beyond, whole):
        assert abs(res.achieved - res.difference) <= 4 * res.achieved_se + 1e-12
