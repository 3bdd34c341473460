import numpy as np
import pytest
from scipy import stats

from calibsim.measures import rejection_rate, replicability, replicability_R, replicability_R_se


def test_rejection_rate_matches_binomtest(rng):
    p = rng.random(500)
    r = rejection_rate(p, 0.1)
    k = int(np.sum(p <= 0.1))
    ci = stats.binomtest(k, 500).proportion_ci(method="exact")
    assert r.n_rejected == k and r.rate == k / 500
    assert (r.ci_low, r.ci_high) == pytest.approx((ci.low, ci.high))
    assert r.mc_se == pytest.approx(np.sqrt(r.rate * (1 - r.rate) / 500))


def test_rejection_rate_type1_within_mc_error(rng):
    # uniform p-values under H0: the rejection rate is alpha within 4 MC standard errors
    n, alpha = 20_000, 0.05
    r = rejection_rate(rng.random(n), alpha)
    assert abs(r.rate - alpha) < 4 * np.sqrt(alpha * (1 - alpha) / n)


@pytest.mark.parametrize("k, expected", [(0, 1.0), (10, 1.0), (1, 72 / 90), (9, 72 / 90),
                                         (5, 40 / 90), (3, (6 + 42) / 90)])
def test_R_hand_worked(k, expected):
    # R(k, n) = [k(k-1) + (n-k)(n-k-1)] / [n(n-1)], n = 10 (Bouckaert & Frank 2004)
    assert replicability_R(k, 10) == pytest.approx(expected)


def test_R_is_pairwise_agreement_probability(rng):
    # R(k, n) is the chance that two distinct repetitions agree: check by enumeration
    for k in range(0, 7):
        outcomes = np.array([1] * k + [0] * (6 - k))
        agree = [outcomes[i] == outcomes[j] for i in range(6) for j in range(6) if i != j]
        assert replicability_R(k, 6) == pytest.approx(np.mean(agree))


def test_replicability_hand_worked_counts():
    rejected = np.array([[1] * 10, [0] * 10, [1] * 9 + [0], [0] * 9 + [1], [1] * 5 + [0] * 5],
                        dtype=bool)
    rep = replicability(rejected)
    assert rep.consistent == pytest.approx(2 / 5)
    assert rep.almost_consistent == pytest.approx(4 / 5)
    r = np.array([1, 1, 0.8, 0.8, 40 / 90])
    assert rep.R == pytest.approx(r.mean())
    assert rep.R_se == pytest.approx(r.std(ddof=1) / np.sqrt(5))
    assert rep.consistent_se == pytest.approx(np.sqrt(0.4 * 0.6 / 5))


@pytest.mark.parametrize("call, match", [
    (lambda: rejection_rate([], 0.05), "`pvalue` must be a non-empty 1-D array"),
    (lambda: rejection_rate([0.1, np.nan], 0.05), r"`pvalue` must hold p-values in \[0, 1\]"),
    (lambda: rejection_rate([0.1], 1.5), r"`alpha` must lie in \(0, 1\)"),
    (lambda: replicability_R(11, 10), "`k` must hold integers in 0..10"),
    (lambda: replicability_R(1, 1), "`n` must be an integer >= 2"),
    (lambda: replicability([[True]]), r"`rejected` must have shape"),
])
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_R_se_is_the_exact_binomial_sd_at_the_plug_in_p():
    # issue 34: SE of R(k, n) = sd of R(K, n), K ~ binomial(n, k / n), by enumeration
    from scipy import stats
    for k in range(11):
        ks = np.arange(11)
        w = stats.binom.pmf(ks, 10, k / 10)
        r = replicability_R(ks, 10)
        sd = np.sqrt(max(np.sum(w * r ** 2) - np.sum(w * r) ** 2, 0))
        assert replicability_R_se(k, 10) == pytest.approx(sd, abs=1e-12)
    assert replicability_R_se(0, 10) == replicability_R_se(10, 10) == 0
    np.testing.assert_allclose(replicability_R_se([1, 9], 10), [0.1541, 0.1541], atol=1e-4)


def test_R_partition_se_tracks_a_rerun_on_fixed_data_sets(rng):
    # 25 fixed data sets, each with its own rejection probability; rerun the 10 repetitions
    # many times: the SE of mean R from one run's counts averages close to the true spread
    p = np.r_[np.full(12, 0.02), np.full(6, 0.97), np.linspace(0.1, 0.9, 7)]
    runs = rng.random((3000, p.size, 10)) < p[None, :, None]
    means = np.array([replicability(x).R for x in runs])
    ses = np.array([replicability(x).R_partition_se for x in runs])
    assert 0.7 < ses.mean() / means.std() < 1.15          # plug-in: a little low near 0, 1
    rep = replicability(runs[0])
    assert rep.R_se > rep.R_partition_se        # the spread over data sets is not MC error
    one = replicability(runs[0][:1])
    assert one.R_se == one.R_partition_se == pytest.approx(
        replicability_R_se(int(runs[0][0].sum()), 10))


def test_exact_intervals_in_one_call_are_binomtests_bits():
    # issue 46: the calibrate analysis takes all its Clopper-Pearson intervals in one call;
    # they must be scipy's binomtest intervals to the last bit (tracked outputs stay put)
    from calibsim.measures import _clopper_pearson_many
    for n, ks in [(1, [0, 1]), (7, range(8)), (640, [0, 1, 2, 5, 6, 32, 64, 65, 639, 640, 6]),
                  (1000, [0, 9, 10, 11, 50, 100, 999, 1000, 10]), (10000, [0, 1, 500, 9999])]:
        ks = np.array(list(ks))
        for cl in (0.95, 0.99):
            low, high = _clopper_pearson_many(ks, n, cl)
            for k, lo, hi in zip(ks, low, high):
                ci = stats.binomtest(int(k), n).proportion_ci(confidence_level=cl, method="exact")
                assert (lo, hi) == (ci.low, ci.high), (k, n, cl)
    low, high = _clopper_pearson_many(np.array([[3, 0], [3, 640]]), 640, 0.95)
    assert low.shape == (2, 2) and low[0, 0] == low[1, 0] and low[0, 1] == 0 and high[1, 1] == 1
