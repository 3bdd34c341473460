"""calibsim's NUTS in numba for the hierarchical Bayesian test
(calibsim.stats._hierarchical_nuts): its log density and gradient are NumPyro's, its
digamma scipy's, its warm-up windows NumPyro's; it is deterministic per seed. Its
agreement with NumPyro's draws is in tests/stats/test_hierarchical_batch.py."""

import functools

import numpy as np
import pytest
from scipy import special

from calibsim.stats._hierarchical import _summaries
from calibsim.stats._hierarchical_nuts import (_digamma, _log_density, adaptation_windows,
                                               fit_numba)


def test_digamma_equals_scipys():
    x = np.concatenate([np.linspace(1e-3, 60, 3000), [0.25, 1.0, 1.4616321449683622, 7.5]])
    ours = np.array([_digamma(v) for v in x])
    np.testing.assert_allclose(ours, special.digamma(x), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("q", [1, 2, 10])
def test_log_density_and_gradient_are_numpyros(rng, q):
    """Minus NumPyro's potential energy of the same model at random unconstrained
    points, and its gradient (JAX's), to rounding: no constant is dropped."""
    jax = pytest.importorskip("jax")
    pytest.importorskip("numpyro")
    import jax.numpy as jnp
    from numpyro.infer.util import initialize_model

    from calibsim.stats._hierarchical import _model
    from calibsim.stats._hierarchical_jax import _x64
    x = rng.normal(0.01, 0.03, (q, 10, 10)) + rng.normal(0, 0.01, (q, 1, 1))
    p = _summaries(x, (0.5, 5.0, 0.05, 0.15), 1000.0)
    last = "delta" if q == 1 else "z"
    with _x64(jax):
        args = (jnp.asarray(p.m), jnp.asarray(p.v), float(p.n), 0.1, *map(float, p.bounds))
        pot = initialize_model(jax.random.PRNGKey(0),
                               functools.partial(_model, centred=q == 1),
                               model_args=args).potential_fn
        for _ in range(5):
            u = rng.normal(0, 1.5, 2 * q + 5)
            point = {"delta0": u[0], "std0": u[1], "gamma_alpha": u[2], "gamma_beta": u[3],
                     "nu_minus_one": u[4], "sigma": u[5:5 + q], last: u[5 + q:]}
            point = {k: jnp.asarray(v) for k, v in point.items()}
            grad = np.empty(2 * q + 5)
            lp = _log_density(u, grad, p.m, p.v, float(p.n), 0.1,
                              np.asarray(p.bounds, dtype=float), q == 1)
            g = jax.grad(pot)(point)
            want = np.concatenate([np.atleast_1d(np.asarray(g[k])) for k in
                                   ("delta0", "std0", "gamma_alpha", "gamma_beta",
                                    "nu_minus_one", "sigma", last)])
            assert lp == pytest.approx(-float(pot(point)), rel=1e-12, abs=1e-10)
            np.testing.assert_allclose(grad, -want, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("n_warmup", [0, 10, 19, 20, 100, 150, 500, 1000])
def test_warm_up_windows_are_numpyros(n_warmup):
    hmc_util = pytest.importorskip("numpyro.infer.hmc_util")
    want = [(w.start, w.end) for w in hmc_util.build_adaptation_schedule(n_warmup)]
    assert [tuple(w) for w in adaptation_windows(n_warmup).tolist()] == want


def test_same_seed_same_draws_and_the_site_shapes(rng):
    x = rng.normal(0.01, 0.03, (6, 2, 10))
    p = _summaries(x, (0.5, 5.0, 0.05, 0.15), 1000.0)
    kw = dict(n_samples=200, n_chains=2, n_warmup=100, target_accept=0.9)
    seed = np.random.SeedSequence(5)
    (a, div_a), how = fit_numba([p], [0.1], [seed], **kw)[0]
    (b, div_b), _ = fit_numba([p], [0.1], [np.random.SeedSequence(5)], **kw)[0]
    (c, _), _ = fit_numba([p], [0.1], [6], **kw)[0]
    assert seed.n_children_spawned == 0                   # the caller's seed is untouched
    assert how.startswith("calibsim's NUTS in numba")
    assert {k: v.shape for k, v in a.items()} == {
        "delta0": (2, 100), "std0": (2, 100), "nu_minus_one": (2, 100),
        "delta": (2, 100, 6), "sigma": (2, 100, 6)}
    assert div_a.shape == (2, 100) and div_a.dtype == bool
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])
    assert not np.array_equal(a["delta0"], c["delta0"])
    assert np.all(a["std0"] > 0) and np.all(a["sigma"] > 0) and np.all(a["nu_minus_one"] > 0)


@pytest.mark.slow
@pytest.mark.parametrize("sampler", ["single", "batched"])
def test_one_data_set_hyperparameters_agree_with_numpyros_own_mcmc(rng, sampler):
    """q = 1 (sampled centred, no deterministic site): NumPyro's programs and calibsim's
    NUTS in numba give the same σ0 posterior (its median on the log scale within 4 MC
    SEs; a random-walk Metropolis and NumPyro's own ``MCMC`` agree with both). Before the fix NumPyro's programs constrained σ0 with
    their dummy's bounds, (0, 1) instead of (0, 1000 s̄): a median 1,000 times too
    small."""
    from numpyro.diagnostics import effective_sample_size

    from calibsim.stats import hierarchical_bayesian_test
    x = rng.normal(0.0, 0.03, (1, 10, 10))
    kw = dict(rope=0.01, n_samples=4000, n_chains=4, n_warmup=500, warn=False)
    ours = hierarchical_bayesian_test(x, random_state=1, sampler="numba", **kw)
    theirs = hierarchical_bayesian_test(x, random_state=1, sampler=sampler, **kw)
    logs = [np.log(r.std0).reshape(4, -1) for r in (ours, theirs)]
    # SE of a median ≈ 1.25 SE of a mean, from each run's ESS
    se = np.hypot(*(1.25 * v.std() / np.sqrt(effective_sample_size(v[..., None])[0])
                    for v in logs))
    assert abs(np.median(logs[0]) - np.median(logs[1])) <= 4 * se
    # σ0's posterior is its prior's 1/σ0 tail: a median of tens of s̄ (about 30)
    assert np.median(ours.std0) / np.median(theirs.std0) == pytest.approx(1, abs=0.5)
    assert np.median(theirs.std0) > 1e-2
