"""calibsim.tuning: Scheffer & Herbrich's (1997) parameter channel, against brute force."""

import itertools
from collections import Counter

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy import stats

from calibsim.tuning import (
    channel_bits,
    channel_labels,
    class_entropy,
    labels_needed,
    poisson_binomial_pmf,
    reach_probability,
    search_experiments,
    sum_pmf,
    tuned_accuracy,
)


def _enumerate_bernoulli(p):
    """pmf of sum X_i by listing all 2^n outcomes of independent Bernoulli(p_i)."""
    out = np.zeros(len(p) + 1)
    for bits in itertools.product((0, 1), repeat=len(p)):
        out[sum(bits)] += np.prod([pi if b else 1 - pi for pi, b in zip(p, bits)])
    return out


def _enumerate_tuned(y, pred, c):
    """Reported hits of the tuned learner over every set of c leaked instances (§3).

    The leaked instances get their true labels, the rest keep h's prediction; every
    c-subset is equally likely (A2).
    """
    counts = Counter()
    for leaked in itertools.combinations(range(len(y)), c):
        tuned = pred.copy()
        tuned[list(leaked)] = y[list(leaked)]
        counts[int(np.sum(tuned == y))] += 1
    total = sum(counts.values())
    return {k: v / total for k, v in counts.items()}


@pytest.mark.parametrize("n", [1, 2, 5, 8])
def test_poisson_binomial_equals_enumeration(rng, n):
    p = rng.random(n)
    p[0] = 0.0 if n > 2 else p[0]          # degenerate counts are legal
    p[-1] = 1.0 if n > 3 else p[-1]
    assert_allclose(poisson_binomial_pmf(p), _enumerate_bernoulli(p), atol=1e-14)


def test_poisson_binomial_batches_and_matches_scipy(rng):
    p = rng.random((3, 4, 7))
    out = poisson_binomial_pmf(p)
    assert out.shape == (3, 4, 8)
    assert_allclose(out[1, 2], _enumerate_bernoulli(p[1, 2]), atol=1e-14)
    if hasattr(stats, "poisson_binom"):                    # scipy >= 1.15
        assert_allclose(out[2, 3], stats.poisson_binom(p[2, 3]).pmf(np.arange(8)), atol=1e-13)


def test_poisson_binomial_log_space_keeps_far_tails():
    # 2000 fair coins: P(S = 0) = 2^-2000 underflows a double; its log does not.
    logpmf = poisson_binomial_pmf(np.full(2000, 0.5), log=True)
    assert_allclose(logpmf[[0, 1000, 2000]], stats.binom(2000, 0.5).logpmf([0, 1000, 2000]),
                    rtol=1e-10)
    assert np.isfinite(logpmf).all()


def test_sum_pmf_equals_enumeration_of_pairs(rng):
    x, y, w = rng.dirichlet(np.ones(4)), rng.dirichlet(np.ones(6)), rng.dirichlet(np.ones(3))
    brute = np.zeros(4 + 6 + 3 - 2)
    for i, j, k in itertools.product(range(4), range(6), range(3)):
        brute[i + j + k] += x[i] * y[j] * w[k]
    assert_allclose(sum_pmf(x, y, w), brute, atol=1e-15)
    logs = sum_pmf(np.log(x), np.log(y), log=True)
    assert_allclose(np.exp(logs), np.convolve(x, y), atol=1e-15)


def test_sum_pmf_broadcasts_leading_axes(rng):
    x = rng.dirichlet(np.ones(3), size=5)            # (5, 3)
    y = rng.dirichlet(np.ones(4))                    # (4,)
    out = sum_pmf(x, y)
    assert out.shape == (5, 6)
    assert_allclose(out[3], np.convolve(x[3], y), atol=1e-15)


@pytest.mark.parametrize("c", range(8))
def test_tuned_accuracy_equals_enumeration_of_leaked_sets(rng, c):
    m = 7
    y = rng.integers(0, 3, m)
    pred = y.copy()
    wrong = [0, 2, 3, 6]                                 # h misclassifies 4 of 7
    pred[wrong] = (y[wrong] + 1) % 3
    brute = _enumerate_tuned(y, pred, c)
    res = tuned_accuracy(m, m - len(wrong), c)
    ours = dict(zip((res.hits + res.extra_hits).tolist(), res.pmf))
    for hits in range(m + 1):
        assert ours.get(hits, 0.0) == pytest.approx(brute.get(hits, 0.0), abs=1e-14)
    for a in np.linspace(0, 1, 15):
        want = sum(v for k, v in brute.items() if k >= np.ceil(round(a * m, 9)))
        assert res.reach_probability(a) == pytest.approx(want, abs=1e-14)


def test_problems_convolve_like_enumeration(rng):
    # Two problems tuned separately (A6): c labels leak in each; brute force over pairs.
    y1, y2 = rng.integers(0, 2, 5), rng.integers(0, 2, 4)
    p1, p2 = y1.copy(), y2.copy()
    p1[[1, 4]] ^= 1                                      # 3 of 5 hits
    p2[[0, 1, 3]] ^= 1                                   # 1 of 4 hits
    d1, d2 = _enumerate_tuned(y1, p1, 2), _enumerate_tuned(y2, p2, 2)
    brute = Counter()
    for (a, pa), (b, pb) in itertools.product(d1.items(), d2.items()):
        brute[a + b] += pa * pb
    res = tuned_accuracy([5, 4], [3, 1], 2)
    assert res.m == 9 and res.hits == 4 and res.labels.tolist() == [2, 2]
    for z, p in zip(res.extra_hits, res.pmf):
        assert p == pytest.approx(brute.get(4 + int(z), 0.0), abs=1e-14)


def test_binomial_sampling_is_poisson_binomial_over_leaked_labels():
    res = tuned_accuracy([20, 10], [5, 8], [3, 2], sampling="binomial")
    want = _enumerate_bernoulli([0.75] * 3 + [0.2] * 2)
    assert_allclose(res.pmf, want, atol=1e-14)
    pooled = tuned_accuracy(277, 59, 5, n_problems=5, sampling="binomial")
    assert_allclose(pooled.pmf, stats.binom(25, 1 - 59 / 277).pmf(np.arange(26)), atol=1e-14)


def test_mean_and_bias_are_exact():
    res = tuned_accuracy(2000, 1700, 16)
    assert res.pmf.sum() == pytest.approx(1.0, abs=1e-14)
    assert res.bias == pytest.approx(16 * 0.15 / 2000, rel=1e-10)   # E Z = c (m - hits) / m
    assert res.mean == pytest.approx(0.85 + 16 * 0.15 / 2000, rel=1e-12)


def test_bits_and_entropy_give_labels():
    res = tuned_accuracy(2000, 1700, bits=40.05, entropy=2.503)
    assert res.labels.tolist() == [16]
    assert res.bits == pytest.approx(16 * 2.503)
    assert np.isnan(tuned_accuracy(100, 50, 3).bits)


def test_reach_probability_vectorised_equals_distribution():
    m, hits = 60, np.array([[10], [30], [55]])
    c = np.arange(0, 12)
    acc = 0.6
    out = reach_probability(m, hits, c, acc)
    assert out.shape == (3, 12)
    for i, h in enumerate(hits[:, 0]):
        for j in c:
            assert out[i, j] == pytest.approx(
                tuned_accuracy(m, int(h), int(j)).reach_probability(acc), abs=1e-12)
    assert np.all(np.diff(out, axis=1) >= -1e-15)      # more labels, more likely


def test_reach_probability_matches_monte_carlo_of_the_tuned_learner(rng):
    # Landsat (§3.1): simulate the leaked subsets; tolerance from the binomial MC error.
    m, hits, c, n_rep = 2000, 1700, 16, 5000
    wrong = np.zeros(m, dtype=bool)
    wrong[:m - hits] = True
    gain = np.array([wrong[rng.choice(m, c, replace=False)].sum() for _ in range(n_rep)])
    p = reach_probability(m, hits, c, 0.853)
    se = np.sqrt(p * (1 - p) / n_rep)
    assert abs(np.mean(gain >= 6) - p) < 4 * se


def test_labels_needed_is_the_smallest_sufficient():
    res = labels_needed(277, 59, [0.26, 0.31], [0.99, 0.93], n_problems=5,
                        sampling="binomial")
    for lab, acc, prob in zip(res.labels, (0.26, 0.31), (0.99, 0.93)):
        kw = {"n_problems": 5, "sampling": "binomial"}
        assert reach_probability(277, 59, int(lab), acc, **kw) >= prob
        assert reach_probability(277, 59, int(lab) - 1, acc, **kw) < prob
    assert res.probability == pytest.approx(
        reach_probability(277, 59, [5, 8], [0.26, 0.31], n_problems=5, sampling="binomial"))


def test_labels_needed_degenerate_cases():
    already = labels_needed(100, 80, 0.7, 0.99)
    assert already.labels == 0 and already.extra_hits == 0 and already.probability == 1
    # 3 problems x at most 3 labels cannot gain the 10 hits accuracy 1.0 needs.
    never = labels_needed(10, 0, 1.0, 0.5, n_problems=3, sampling="binomial")
    assert np.isnan(never.labels) and np.isnan(never.probability)


def test_entropy_bits_and_experiments():
    assert class_entropy([5, 5, 5, 5]) == pytest.approx(2.0)
    assert class_entropy([[1, 1], [1, 0]]).tolist() == pytest.approx([1.0, 0.0])
    assert round(float(class_entropy([150, 120])), 3) == 0.991          # §3.1, heart
    assert channel_labels(40, 2.5) == 16 and channel_labels(39.9, 2.5) == 15
    assert channel_bits(16, 2.5) == pytest.approx(40.0)
    assert search_experiments(16, 6) == 96 and search_experiments(5, 13, n_problems=5) == 325


@pytest.mark.parametrize("call, exc, match", [
    (lambda: tuned_accuracy(10, 11, 2), ValueError, r"`hits` must be <= `m`"),
    (lambda: tuned_accuracy(10, 5, -1), ValueError, r"`labels` must be >= 0"),
    (lambda: tuned_accuracy(10.5, 5, 1), TypeError, r"`m` must be an integer"),
    (lambda: tuned_accuracy(10, 5, 11), ValueError, r"`labels` times `n_problems`"),
    (lambda: tuned_accuracy([5, 5], [2, 2], 6), ValueError, r"must not exceed a problem"),
    (lambda: tuned_accuracy(10, 5), ValueError, r"Give `labels`, or both"),
    (lambda: tuned_accuracy(10, 5, 2, bits=4), ValueError, r"not both"),
    (lambda: tuned_accuracy(10, 5, 2, sampling="exact"), ValueError, r"`sampling` must be"),
    (lambda: tuned_accuracy(10, 5, 2, n_problems=2), ValueError, r"needs each problem"),
    (lambda: tuned_accuracy([5, 5], [2, 2], 1, n_problems=3), ValueError, r"`n_problems`"),
    (lambda: reach_probability(10, 5, 2, 1.2), ValueError, r"`accuracy` must lie in \[0, 1\]"),
    (lambda: labels_needed(10, 5, 0.8, 0.0), ValueError, r"`probability` must lie in \(0, 1\]"),
    (lambda: labels_needed(10, 5, 0.8, 0.5, n_problems=2), ValueError, r"hypergeom"),
    (lambda: class_entropy([1, -1]), ValueError, r"`counts` must be non-negative"),
    (lambda: channel_labels(10, 0), ValueError, r"`entropy` must be > 0"),
    (lambda: poisson_binomial_pmf(0.5), ValueError, r"at least one axis"),
    (lambda: poisson_binomial_pmf([0.5, 1.5]), ValueError, r"`p` must lie in \[0, 1\]"),
    (lambda: sum_pmf(), ValueError, r"at least one pmf"),
])
def test_bad_input_is_named(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
