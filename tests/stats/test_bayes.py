"""The Bayesian comparisons against baycomp (Benavoli et al.), and their calibration of rho."""

import numpy as np
import pytest

from calibsim.stats import (bayesian_signed_rank_test, correlated_bayesian_ttest,
                            correlated_t_rho_threshold, get_test)

baycomp = pytest.importorskip("baycomp")


@pytest.mark.parametrize("case", range(40))
def test_correlated_t_equals_baycomp(case):
    rng = np.random.default_rng(case)
    r, k = int(rng.integers(1, 6)), int(rng.integers(2, 11))
    a = rng.uniform(0.6, 0.9, size=r * k)
    b = a - rng.normal(rng.normal(0, 0.02), 0.03, size=r * k)
    rope = float(rng.choice([0.0, 0.005, 0.01, 0.03]))
    ours = correlated_bayesian_ttest((a - b).reshape(r, k), rope=rope)
    theirs = baycomp.CorrelatedTTest.probs(b, a, rope=rope, runs=r)   # baycomp: y - x
    if rope == 0:
        np.testing.assert_allclose([ours.p_left, ours.p_right], theirs, atol=1e-6)
        assert ours.p_rope == 0
    else:
        np.testing.assert_allclose([ours.p_left, ours.p_rope, ours.p_right], theirs,
                                   atol=1e-6)


@pytest.mark.parametrize("case", range(40))
def test_signed_rank_equals_baycomp_within_monte_carlo_error(case):
    rng = np.random.default_rng(1000 + case)
    n = int(rng.integers(5, 25))
    a = rng.uniform(0.6, 0.9, size=n)
    b = a - rng.normal(rng.normal(0, 0.01), 0.02, size=n)
    rope = float(rng.choice([0.0, 0.01]))
    ours = bayesian_signed_rank_test(a - b, rope=rope, n_samples=4000, random_state=case)
    theirs = baycomp.SignedRankTest.probs(b, a, rope=rope, nsamples=4000, random_state=case)
    theirs = theirs if rope > 0 else (theirs[0], 0.0, theirs[1])
    for p, q in zip((ours.p_left, ours.p_rope, ours.p_right), theirs):
        se = np.sqrt(max(p * (1 - p), q * (1 - q), 1e-4) * 2 / 4000)   # two independent runs
        assert abs(p - q) <= 4.5 * se


def test_decisions_and_threshold():
    x = np.full((2, 5), 0.05) + np.linspace(-0.001, 0.001, 10).reshape(2, 5)
    res = correlated_bayesian_ttest(x, rope=0.01)
    assert res.decision == "right" and res.pvalue < 0.05
    res = correlated_bayesian_ttest(np.zeros((3, 4)), rope=0.01)     # zero variance
    assert (res.p_left, res.p_rope, res.p_right, res.decision) == (0, 1, 0, "rope")
    with pytest.raises(ValueError, match="`threshold`"):
        correlated_bayesian_ttest(x, threshold=0.4)
    with pytest.raises(ValueError, match="`rho`"):
        correlated_bayesian_ttest(x, rho=1.0)
    with pytest.raises(ValueError, match="`rope`"):
        correlated_bayesian_ttest(x, rope=-0.1)


def test_rho_threshold_is_where_the_decision_flips():
    rng = np.random.default_rng(7)
    x = rng.normal(0.01, 0.03, size=(200, 10, 10))
    rs = correlated_t_rho_threshold(x, rope=0.005, threshold=0.95)
    decided = rs > 0
    below = correlated_bayesian_ttest(x[decided], rope=0.005, rho=None)   # any rho
    for i in np.flatnonzero(decided)[:20]:
        lo = correlated_bayesian_ttest(x[i], rope=0.005, rho=rs[i] * 0.999)
        hi = correlated_bayesian_ttest(x[i], rope=0.005, rho=min(rs[i] * 1.001, 0.999))
        assert lo.decision in ("left", "right") and hi.decision in ("none", "rope")
    assert below.p_left.shape == (decided.sum(),)


def test_registry_reads_decisions_as_pvalues():
    spec = get_test("bayes_correlated_t_rope1")
    x = np.random.default_rng(3).normal(0, 0.03, size=(50, 10, 10))
    p = spec(x).pvalue
    dec = correlated_bayesian_ttest(x, rope=0.01, threshold=0.95).decision
    np.testing.assert_array_equal(p <= 0.05, np.isin(dec, ["left", "right"]))


def test_compare_with_the_bayesian_method(capsys):
    from calibsim import compare
    from calibsim.cli import main
    from calibsim.datasets import load_uci
    vote = load_uci("vote")
    res = compare("naive_bayes", "c45", vote, design="3x10", method="bayes", rope=0.01,
                  replicability=None)
    direct = correlated_bayesian_ttest(res.scores["difference"].to_numpy().reshape(3, 10),
                                       rope=0.01, rho=res.posterior.rho)
    assert res.posterior.p_left == direct.p_left and res.posterior.rho != 0.1
    assert "calibrated" in res.rho_source          # the shipped rho table, not 1/k
    heuristic = compare("naive_bayes", "c45", vote, design="3x10", method="bayes", rope=0.01,
                        replicability=None, rho="heuristic")
    assert heuristic.posterior.rho == 0.1
    assert res.better == "c45" and res.posterior.decision == "left"
    assert main(["compare", "--data", "vote", "--a", "naive_bayes", "--b", "c45",
                 "--method", "bayes", "--rope", "0.01", "--design", "2x5",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "P(naive_bayes better)" in out and "P(equivalent)" in out
    with pytest.raises(ValueError, match="`method`"):
        compare("naive_bayes", "c45", vote, method="bayesian")


def test_rank_with_the_bayesian_signed_rank(tmp_path, capsys):
    import pandas as pd

    from calibsim.cli import main
    from calibsim.ranking import bayesian_pairs
    rng = np.random.default_rng(11)
    wide = pd.DataFrame({"a": rng.uniform(.7, .9, 15)})
    wide["b"] = wide["a"] - rng.normal(0.03, 0.01, 15)      # a clearly better
    wide["c"] = wide["a"] + rng.normal(0, 0.002, 15)        # a and c equivalent at ROPE 1 pt
    pairs = bayesian_pairs(wide, rope=0.01, n_samples=5000)
    got = {(r.learner_a, r.learner_b): r.decision for r in pairs.itertuples()}
    assert got[("a", "b")] == "a" and got[("a", "c")] == "rope"
    path = tmp_path / "wide.csv"
    wide.rename_axis("dataset").to_csv(path)
    assert main(["rank", "--scores", str(path), "--method", "bayes", "--rope", "0.01",
                 "--posterior-plot", str(tmp_path / "post.png")]) == 0
    assert "Bayesian signed-rank" in capsys.readouterr().out
    assert (tmp_path / "post.png").stat().st_size > 0
