"""The hierarchical Bayesian test sampled in batches (calibsim.stats._hierarchical_batch):
padding leaves the model's density unchanged, a comparison's draws do not depend on its
batch, and the batched and one-at-a-time samplers agree within Monte Carlo error; the
compilation cache's folder. The sampling tests compile the batched program (tens of
seconds on a busy machine, once per process unless JAX's persistent cache holds it), so
they are marked slow; the others compile nothing."""

import functools
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("numpyro")

from calibsim.stats import (compilation_cache_dir, hierarchical_bayesian_batch,  # noqa: E402
                            hierarchical_bayesian_test)
from calibsim.stats._hierarchical_batch import (_batch_model, batch_size,  # noqa: E402
                                                 padded_size)

# the settings of tests/stats/test_hierarchical.py, so both samplers' programs are shared
FAST = {"n_samples": 4000, "n_chains": 4, "n_warmup": 500, "warn": False}


def _data(rng, q, mean, spread=0.005, sd=0.03, r=2, k=10):
    return rng.normal(mean, spread, (q, 1, 1)) + rng.normal(0, sd, (q, r, k))


def test_padded_sizes_are_few_and_hold_q():
    sizes = [padded_size(q) for q in range(1, 201)]
    assert sizes[:5] == [1, 2, 3, 4, 5]
    assert all(q <= s <= 1.25 * q for q, s in zip(range(1, 201), sizes))
    assert sorted(set(sizes)) == [1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40,
                                  48, 56, 64, 80, 96, 112, 128, 160, 192, 224]
    assert (padded_size(10), padded_size(11), padded_size(50)) == (10, 12, 56)
    assert (batch_size(12), batch_size(16), batch_size(20), batch_size(56)) == (4, 4, 1, 1)


def test_padding_leaves_the_log_density_unchanged(rng):
    """Padded model = unpadded model + N(0, 1) on each padded z + U(0, σ̄) on each padded σ
    (they integrate out): the difference of log densities is exactly those terms."""
    import jax
    from numpyro.infer.util import log_density
    from scipy import stats

    from calibsim.stats._hierarchical import _model, _x64
    q, pad = 5, 3
    m, v = rng.normal(0, 1, q), rng.uniform(50, 150, q)
    bounds = (-4.0, 4.0, 300.0, 1000.0, 0.5, 5.0, 0.05, 0.15)
    site = {"delta0": 0.3, "std0": 0.7, "gamma_alpha": 2.0, "gamma_beta": 0.1,
            "nu_minus_one": 4.0, "z": rng.normal(0, 1, q + pad),
            "sigma": rng.uniform(0.5, 2, q + pad)}
    with _x64(jax):
        args = (m, v, 100.0, 0.1, *bounds)
        ref, _ = log_density(functools.partial(_model, centred=False), args, {},
                             {**site, "z": site["z"][:q], "sigma": site["sigma"][:q]})
        mask = np.arange(q + pad) < q
        padded = (np.r_[m, np.zeros(pad)], np.r_[v, np.zeros(pad)], 100.0, 0.1, *bounds, mask)
        got, _ = log_density(_batch_model, padded, {}, site)
    extra = (stats.norm.logpdf(site["z"][q:]).sum()
             + stats.uniform(0, bounds[3]).logpdf(site["sigma"][q:]).sum())
    assert float(got) == pytest.approx(float(ref) + extra, rel=1e-12, abs=1e-9)


def test_cache_folder_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.delenv("CALIBSIM_JAX_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert compilation_cache_dir() == tmp_path / "calibsim" / "jax"
    monkeypatch.setenv("CALIBSIM_JAX_CACHE", str(tmp_path / "mine"))
    assert compilation_cache_dir() == tmp_path / "mine"
    for off in ("off", "0", "", "None"):
        monkeypatch.setenv("CALIBSIM_JAX_CACHE", off)
        assert compilation_cache_dir() is None


def test_importing_calibsim_sets_no_cache(tmp_path):
    """The cache is JAX's process-wide setting: calibsim sets it when the sampler is first
    used, never on import."""
    code = ("import calibsim, calibsim.stats, calibsim.ranking, jax; "
            "print(jax.config.jax_compilation_cache_dir)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={"PATH": "", "HOME": str(tmp_path),
                                          "PYTHONPATH": "."}).stdout
    assert out.strip() == "None"


@pytest.mark.parametrize("kw, match", [
    ({"rho": [0.1]}, "`rho` must have one entry per comparison"),
    ({"random_states": [1, 2, 3]}, "`random_states` must have one entry"),
    ({"names": [("a", "b")]}, "`names` must have one entry"),
    ({"target_accept": 1}, "`target_accept` must be a float"),
    ({"initial_metric": "dense"}, "`initial_metric` must be one of"),
])
def test_bad_input_names_the_parameter(rng, kw, match):
    with pytest.raises(ValueError, match=match):
        hierarchical_bayesian_batch([_data(rng, 3, 0), _data(rng, 3, 0)], **kw)


def test_bad_sampler_names_the_parameter(rng):
    with pytest.raises(ValueError, match="`sampler` must be one of"):
        hierarchical_bayesian_test(_data(rng, 3, 0), sampler="fast")


def test_no_comparisons_give_no_results():
    assert hierarchical_bayesian_batch([]) == []


@pytest.mark.slow
def test_a_comparison_gets_the_same_draws_alone_and_in_any_batch(rng):
    """Keys and starting points come from each comparison's own seed and the compiled
    batch has one fixed size, so neither the other members nor the place matters: bit
    for bit (q = 11 and 12 share the padded size 12, run 4 at a time). The seeds are reused
    objects: a SeedSequence is read, never spawned from."""
    xs = [_data(rng, 11, 0.01), _data(rng, 12, 0.0), _data(rng, 11, -0.02),
          _data(rng, 12, 0.0), _data(rng, 11, 0.03)]
    seeds = [np.random.SeedSequence(5, spawn_key=(i,)) for i in range(5)]
    alone = hierarchical_bayesian_test(xs[0], rope=0.01, random_state=seeds[0],
                                       sampler="batched", **FAST)
    batch = hierarchical_bayesian_batch(xs, rope=0.01, random_states=seeds, **FAST)
    order = [4, 3, 2, 1, 0]
    backward = hierarchical_bayesian_batch([xs[i] for i in order], rope=0.01,
                                           random_states=[seeds[i] for i in order], **FAST)
    for got in (batch[0], backward[-1]):
        np.testing.assert_array_equal(got.delta0, alone.delta0)
        np.testing.assert_array_equal(got.shrunk_means, alone.shrunk_means)
        assert got.probabilities() == alone.probabilities()
        assert (got.rhat, got.ess, got.n_divergent) == (alone.rhat, alone.ess,
                                                        alone.n_divergent)
    for i, j in enumerate(order):
        np.testing.assert_array_equal(backward[i].delta0, batch[j].delta0)
    assert alone.sampler == "NumPyro's NUTS, batched (vmap over comparisons; q = 11 padded to 12)"
    assert batch[3].sampler == "NumPyro's NUTS, batched (vmap over comparisons)"
    assert all(len(r.shrunk_means) == len(x) for r, x in zip(batch, xs))


def _indicator_se(res):
    """Monte Carlo SE of P(left), P(rope), P(right): sqrt(p(1 - p)/ESS) with the ESS of
    each region's winner indicator over the result's chains."""
    from numpyro.diagnostics import effective_sample_size
    winner = np.argmax(res.samples, axis=1) if res.rope > 0 else \
        np.where(res.samples[:, 2] > res.samples[:, 0], 2, 0)
    se = []
    for j in range(3):
        ind = (winner == j).astype(float).reshape(res.n_chains, -1)
        p = ind.mean()
        ess = effective_sample_size(ind[..., None])[0] if 0 < p < 1 else np.inf
        se.append(np.sqrt(p * (1 - p) / ess))
    return np.array(se)


@pytest.mark.slow
def test_batched_agrees_with_the_single_sampler_within_mc_error(rng):
    """Same data and seeds, both samplers: the probabilities of the next data set agree
    within 4 Monte Carlo SEs of their difference (each SE from its own draws' ESS), on a
    clear gain, a gain near the ROPE's edge and a null (q = 11, padded to 12)."""
    xs = [_data(rng, 11, 0.03), _data(rng, 11, 0.012), _data(rng, 11, 0.0)]
    seeds = [11, 12, 13]
    batch = hierarchical_bayesian_batch(xs, rope=0.01, random_states=seeds, **FAST)
    for x, seed, b in zip(xs, seeds, batch):
        a = hierarchical_bayesian_test(x, rope=0.01, random_state=seed, **FAST)
        assert a.sampler.startswith("NumPyro's NUTS, one program")
        assert a.diagnostics_ok and b.diagnostics_ok, (a.diagnostics_text(),
                                                       b.diagnostics_text())
        se = np.hypot(_indicator_se(a), _indicator_se(b))
        diff = np.abs(np.subtract(a.probabilities(), b.probabilities()))
        assert np.all(diff <= 4 * se), (a.probabilities(), b.probabilities(), se)
        # and the draws are not the same (padding changes the trajectories)
        assert not np.array_equal(a.delta0, b.delta0)


@pytest.mark.slow
def test_scaled_metric_agrees_with_the_unit_one_within_mc_error(rng):
    """The decision-rate study's starting metric (``initial_metric="scaled"``) against
    the test's default (the identity): same data, seeds and program (the metric is an
    argument of the compiled program), probabilities within 4 Monte Carlo SEs of their
    difference, on a clear gain, a gain near the ROPE's edge and a null, on both
    samplers (q = 11; padded to 12 when batched)."""
    xs = [_data(rng, 11, 0.03), _data(rng, 11, 0.012), _data(rng, 11, 0.0)]
    seeds = [21, 22, 23]
    batch = hierarchical_bayesian_batch(xs, rope=0.01, random_states=seeds,
                                        initial_metric="scaled", **FAST)
    for x, seed, b in zip(xs, seeds, batch):
        unit = hierarchical_bayesian_test(x, rope=0.01, random_state=seed, **FAST)
        scaled = hierarchical_bayesian_test(x, rope=0.01, random_state=seed,
                                            initial_metric="scaled", **FAST)
        assert scaled.sampler.endswith("; adaptation from a metric scaled to the data")
        assert b.sampler.endswith("; adaptation from a metric scaled to the data")
        for other in (scaled, b):
            assert unit.diagnostics_ok and other.diagnostics_ok, (unit.diagnostics_text(),
                                                                  other.diagnostics_text())
            se = np.hypot(_indicator_se(unit), _indicator_se(other))
            diff = np.abs(np.subtract(unit.probabilities(), other.probabilities()))
            assert np.all(diff <= 4 * se), (unit.probabilities(), other.probabilities(), se)
        assert not np.array_equal(unit.delta0, scaled.delta0)    # other trajectories


@pytest.mark.slow
def test_numba_sampler_agrees_with_numpyro_within_mc_error(rng):
    """calibsim's NUTS in numba (``sampler="numba"``, the decision-rate study's) against
    NumPyro's batched program: same data and seeds, other random numbers; the
    probabilities of the next data set within 4 Monte Carlo SEs of their difference, and
    the posterior means of δ0 and σ0 within 4 SEs (from the draws' ESS), on a clear
    gain, a gain near the ROPE's edge and a null (q = 11), from both starting metrics.
    Divergence rates: ``benchmarks/bench_hierarchical.py --steps --settings
    0.9:500,0.9:500:numba``. Also: a comparison's numba draws are the same alone and in
    a list."""
    from numpyro.diagnostics import effective_sample_size
    xs = [_data(rng, 11, 0.03), _data(rng, 11, 0.012), _data(rng, 11, 0.0)]
    seeds = [31, 32, 33]
    for metric in ("unit", "scaled"):
        ours = hierarchical_bayesian_batch(xs, rope=0.01, random_states=seeds,
                                           initial_metric=metric, sampler="numba", **FAST)
        theirs = hierarchical_bayesian_batch(xs, rope=0.01, random_states=seeds,
                                             initial_metric=metric, **FAST)
        for a, b in zip(ours, theirs):
            assert a.sampler.startswith("calibsim's NUTS in numba")
            # R-hat and ESS as diagnostics_ok asks; a rare divergent transition is
            # allowed (both samplers give one in about 5-8% of such fits)
            for r in (a, b):
                assert r.rhat <= 1.01 and r.ess >= 400 and r.n_divergent <= 4, \
                    r.diagnostics_text()
            se = np.hypot(_indicator_se(a), _indicator_se(b))
            diff = np.abs(np.subtract(a.probabilities(), b.probabilities()))
            assert np.all(diff <= 4 * se), (a.probabilities(), b.probabilities(), se)
            for name in ("delta0", "std0"):
                u, v = (getattr(r, name).reshape(r.n_chains, -1) for r in (a, b))
                se_m = np.hypot(*(w.std() / np.sqrt(effective_sample_size(w[..., None])[0])
                                  for w in (u, v)))
                assert abs(u.mean() - v.mean()) <= 4 * se_m, (name, u.mean(), v.mean())
    alone = hierarchical_bayesian_test(xs[1], rope=0.01, random_state=seeds[1],
                                       initial_metric="scaled", sampler="numba", **FAST)
    np.testing.assert_array_equal(alone.delta0, ours[1].delta0)
