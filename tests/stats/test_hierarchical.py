"""The hierarchical Bayesian test (Corani et al. 2017) on NumPyro: its limits, symmetry,
determinism, diagnostics and errors. (Agreement with baycomp's PyStan sampler and
simulation-based calibration are in scripts/hierarchical_vs_baycomp.py and
scripts/hierarchical_sbc.py: each takes minutes.)"""

import sys

import numpy as np
import pytest
from scipy import stats

from calibsim.stats import (HierarchicalDiagnosticWarning, correlated_bayesian_ttest,
                            hierarchical_bayesian_test)

pytest.importorskip("numpyro")

# one sampler setting for every test, so the suite compiles one program per q (q = 1, 10);
# the diagnostics are asserted where they matter (a stray divergent transition warns, and
# the suite turns warnings into errors), and their warning is tested on its own
FAST = {"n_samples": 4000, "n_chains": 4, "n_warmup": 500, "warn": False}


def _data(rng, q, mean, spread=0.005, sd=0.03, r=2, k=10):
    return rng.normal(mean, spread, (q, 1, 1)) + rng.normal(0, sd, (q, r, k))


def test_clear_gain_is_declared_and_shrinks_toward_the_mean(rng):
    x = _data(rng, 10, 0.04)
    res = hierarchical_bayesian_test(x, rope=0.01, random_state=1, **FAST)
    assert res.decision == "right" and res.p_right >= 0.95
    assert 0.02 < res.mean < 0.06 and res.mean_interval[0] < res.mean < res.mean_interval[1]
    obs, shrunk = res.dataset_means, res.shrunk_means
    # shrinkage: every estimate moves toward the pooled mean, never past it
    assert np.all(np.abs(shrunk - res.mean) <= np.abs(obs - res.mean) + 1e-3)
    assert np.std(shrunk) < np.std(obs)
    assert res.diagnostics_ok, res.diagnostics_text()


def test_sign_flip_swaps_left_and_right(rng):
    x = _data(rng, 10, 0.012)
    a = hierarchical_bayesian_test(x, rope=0.01, random_state=3, **FAST)
    b = hierarchical_bayesian_test(-x, rope=0.01, random_state=3, **FAST)
    # different chains (the starting points mirror, the NUTS draws do not): Monte Carlo
    # error of two runs of 4000 draws with ESS >= 400 each, at most 4 * sqrt(2/1600) = 0.14
    for p, q in ((a.p_right, b.p_left), (a.p_rope, b.p_rope), (a.p_left, b.p_right)):
        assert abs(p - q) < 0.14
    assert a.mean == pytest.approx(-b.mean, abs=0.004)


def test_same_seed_same_draws(rng):
    x = _data(rng, 10, 0.0)
    a = hierarchical_bayesian_test(x, rope=0.01, random_state=7, **FAST)
    b = hierarchical_bayesian_test(x, rope=0.01, random_state=np.random.SeedSequence(7), **FAST)
    np.testing.assert_array_equal(a.delta0, b.delta0)
    assert (a.p_left, a.p_rope, a.p_right) == (b.p_left, b.p_rope, b.p_right)


def test_identical_learners_put_the_mass_in_the_rope(rng):
    res = hierarchical_bayesian_test(np.zeros((10, 2, 10)), rope=0.01, random_state=0, **FAST)
    assert res.p_rope == 1.0 and res.decision == "rope"
    # nearly identical: they disagree on a few test instances per fold (±1/100)
    x = rng.choice([-0.01, 0.0, 0.0, 0.0, 0.01], size=(10, 2, 10))
    res = hierarchical_bayesian_test(x, rope=0.01, random_state=0, **FAST)
    assert res.p_rope >= 0.95 and res.decision == "rope"
    # with no ROPE the two sides share the mass
    res = hierarchical_bayesian_test(np.zeros((10, 2, 10)), rope=0.0, random_state=0, **FAST)
    assert res.p_rope == 0 and 0.3 < res.p_right < 0.7


def test_one_data_set_approaches_the_correlated_t(rng):
    """q = 1: δ_1's posterior is the correlated t's with a uniform instead of a 1/σ prior
    on σ (n - 2 df, scale times sqrt((n - 1)/(n - 2))); the flat prior on δ_1 is bounded
    by ±max|x|, far outside the posterior's mass."""
    for mean in (0.0, 0.01, 0.02):
        x = rng.normal(mean, 0.03, (1, 2, 10))
        res = hierarchical_bayesian_test(x, rope=0.01, random_state=0, **FAST)
        assert res.rhat <= 1.01 and res.ess >= 400 and res.n_divergent <= 0.01 * res.n_draws
        n, rho = 20, 0.1
        flat = x.reshape(-1)
        m, s2 = flat.mean(), flat.var(ddof=1)
        scale = np.sqrt(s2 * (1 / n + rho / (1 - rho)) * (n - 1) / (n - 2))
        right = stats.t.sf((0.01 - m) / scale, n - 2)
        left = stats.t.cdf((-0.01 - m) / scale, n - 2)
        ct = correlated_bayesian_ttest(x[0], rope=0.01)
        # Monte Carlo error of 4000 draws with ESS >= 400: 4 * 0.5 / sqrt(400) = 0.1
        assert res.dataset_p_right[0] == pytest.approx(right, abs=0.1)
        assert res.dataset_p_left[0] == pytest.approx(left, abs=0.1)
        assert abs(res.dataset_p_right[0] - ct.p_right) < 0.12     # plus the df difference
        assert res.shrunk_means[0] == pytest.approx(m, abs=0.01)


def test_result_prints_tabulates_and_plots(rng):
    x = _data(rng, 10, 0.01)
    names = [f"data{i}" for i in range(10)]
    res = hierarchical_bayesian_test(x, rope=0.01, random_state=0, datasets=names,
                                     names=("nb", "c45"), **FAST)
    text = str(res)
    assert "P(nb better)" in text and "P(c45 better)" in text and "R-hat" in text
    assert "sampler: NumPyro's NUTS, one program per q" in text      # what ran
    frame = res.to_frame()
    assert list(frame.columns) == ["dataset", "difference", "shrunk_difference",
                                   "p_a_better", "p_rope", "p_b_better"]
    assert frame.dataset.tolist() == names
    np.testing.assert_allclose(frame[["p_a_better", "p_rope", "p_b_better"]].sum(axis=1), 1)
    fig = res.plot_posterior()
    ax = fig.axes[0]
    assert ax.collections and ax.collections[0].get_array().sum() == res.samples.shape[0]
    assert "better" in " ".join(t.get_text() for t in ax.texts)
    assert res.samples.shape == (res.n_draws, 3)
    assert res.pvalue == pytest.approx(1 - max(res.p_left, res.p_right))


def test_poor_diagnostics_are_reported(rng):
    x = _data(rng, 10, 0.0)
    with pytest.warns(HierarchicalDiagnosticWarning, match="poor sampler diagnostics"):
        res = hierarchical_bayesian_test(x, rope=0.01, random_state=0, n_samples=40,
                                         n_chains=4, n_warmup=10, warn=True)
    assert not res.diagnostics_ok and "POOR" in str(res)


@pytest.mark.parametrize("kw, match", [
    ({"x": np.zeros((3, 10))}, "shape \\(q, r, k\\)"),
    ({"x": np.zeros((3, 2, 1))}, "k >= 2 folds"),
    ({"x": np.full((3, 2, 5), np.nan)}, "finite"),
    ({"rope": -0.1}, "`rope`"),
    ({"rho": 1.0}, "`rho` must be a number in \\[0, 1\\)"),
    ({"threshold": 0.4}, "`threshold`"),
    ({"nu_prior": ((2, 1), (0.05, 0.15))}, "`nu_prior`"),
    ({"std_upper": 0.5}, "`std_upper`"),
    ({"datasets": ["a"]}, "`datasets` must name the 3 data sets"),
])
def test_bad_input_names_the_parameter(kw, match):
    args = {"x": np.zeros((3, 2, 5))} | kw
    x = args.pop("x")
    with pytest.raises(ValueError, match=match):
        hierarchical_bayesian_test(x, **args)


def test_missing_sampler_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "numpyro", None)
    with pytest.raises(ImportError, match=r'pip install "calibsim\[bayes\]"'):
        hierarchical_bayesian_test(np.zeros((3, 2, 5)))
