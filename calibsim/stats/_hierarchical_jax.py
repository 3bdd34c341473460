"""JAX for the hierarchical Bayesian test: importing it (with the extra's error), 64-bit
floats for the sampler only, JAX's persistent compilation cache, and the chains'
starting points; shared by the one-at-a-time sampler (:mod:`._hierarchical`) and the
batched one (:mod:`._hierarchical_batch`)."""

from __future__ import annotations

import os
import warnings

import numpy as np

#: How to install the sampler; named by the error raised when it is missing.
BAYES_EXTRA_HINT = 'pip install "calibsim[bayes]"'

#: The environment variable naming the folder of JAX's persistent compilation cache;
#: "off" (or "0", "none", "") turns the cache off.
CACHE_ENV = "CALIBSIM_JAX_CACHE"


def compilation_cache_dir():
    """The folder where the hierarchical test's compiled samplers are kept between
    processes (JAX's persistent compilation cache), or None when it is off.

    ``$CALIBSIM_JAX_CACHE`` if set ("off", "0", "none" or "" turn the cache off), else
    ``$XDG_CACHE_HOME/calibsim/jax``, else ``~/.cache/calibsim/jax``. The cache is set up
    when the sampler is first used, never when calibsim is imported, and only if JAX has
    no cache folder of its own yet (``JAX_COMPILATION_CACHE_DIR`` or
    ``jax.config.update("jax_compilation_cache_dir", ...)`` win). Its entries depend on
    the JAX version and the machine; deleting the folder is always safe.

    Returns
    -------
    pathlib.Path or None
    """
    from pathlib import Path
    env = os.environ.get(CACHE_ENV)
    if env is not None:
        if env.strip().lower() in ("", "0", "off", "none", "false"):
            return None
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base).expanduser() / "calibsim" / "jax"


def _use_compilation_cache(jax):
    """Point JAX's persistent compilation cache at :func:`compilation_cache_dir` (once per
    process; a folder JAX already has is kept). A second process then loads the compiled
    sampler instead of compiling it again (tens of seconds per program)."""
    if _use_compilation_cache.done:
        return
    _use_compilation_cache.done = True
    if jax.config.jax_compilation_cache_dir is not None:
        return
    folder = compilation_cache_dir()
    if folder is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        warnings.warn(f"hierarchical Bayesian test: cannot create the compilation cache "
                      f"folder {str(folder)!r}; the sampler is compiled in every process "
                      f"(set {CACHE_ENV} to another folder, or to 'off').", RuntimeWarning,
                      stacklevel=3)
        return
    jax.config.update("jax_compilation_cache_dir", str(folder))
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 1.0)


_use_compilation_cache.done = False


def _import_jax():
    try:
        import jax
        import numpyro  # noqa: F401
    except ImportError:
        raise ImportError("the hierarchical Bayesian test needs NumPyro and JAX, which are "
                          f"not installed; install them with: {BAYES_EXTRA_HINT}") from None
    _use_compilation_cache(jax)
    return jax


def _x64(jax):
    """A context enabling 64-bit floats in JAX for the sampler only (no global change)."""
    ctx = getattr(jax, "enable_x64", None)
    if ctx is not None:
        return ctx(True)
    from jax.experimental import enable_x64          # JAX < 0.6
    return enable_x64()


_SITES = ("delta0", "std0", "nu_minus_one", "delta", "sigma")



def _hyperpriors(dlo, dhi, s0hi, alo, ahi, blo, bhi):
    """The hyperpriors (4)-(5) of :mod:`._hierarchical`'s model, sampled under the site
    names ``_SITES`` gives them, for the single and the batched model alike:
    (delta0, std0, nu)."""
    import numpyro
    import numpyro.distributions as dist
    delta0 = numpyro.sample("delta0", dist.Uniform(dlo, dhi))                  # (5)
    std0 = numpyro.sample("std0", dist.Uniform(0.0, s0hi))                     # (5)
    a = numpyro.sample("gamma_alpha", dist.Uniform(alo, ahi))                  # (4)
    b = numpyro.sample("gamma_beta", dist.Uniform(blo, bhi))                   # (4)
    nu = numpyro.sample("nu_minus_one", dist.Gamma(a, b)) + 1.0                # (4)
    return delta0, std0, nu

def _children(seed, n):
    """The n children that ``seed.spawn(n)`` would give a fresh SeedSequence, without
    spawning (which would change the caller's object, and the draws of its next use);
    ``seed`` may also be None (fresh entropy) or an int. The samplers use the first child
    for the chains' starting points and the second for NUTS's own randomness."""
    if not isinstance(seed, np.random.SeedSequence):
        seed = np.random.SeedSequence(seed)
    return [np.random.SeedSequence(seed.entropy, pool_size=seed.pool_size,
                                   spawn_key=(*seed.spawn_key, i)) for i in range(n)]


def _logit(p):
    return np.log(p) - np.log1p(-p)


def _initial_values(m, sd, bounds, n_chains, rng):
    """Unconstrained starting points near the data, jittered by U(-1, 1) per chain.

    NumPyro's bijections: an interval (lo, hi) is reached by lo + (hi - lo)·sigmoid(u),
    the positive half-line by exp(u)."""
    dlo, dhi, s0hi, shi, alo, ahi, blo, bhi = bounds
    q = m.size

    def interval(v, lo, hi):
        p = np.clip((np.asarray(v, dtype=float) - lo) / (hi - lo), 1e-6, 1 - 1e-6)
        return _logit(p)

    d0 = float(np.clip(m.mean(), dlo * 0.99, dhi * 0.99))
    s0 = float(np.clip(m.std() if q > 1 else sd.mean(), 1e-3 * s0hi, 0.5 * s0hi))
    a, b = 0.5 * (alo + ahi), 0.5 * (blo + bhi)
    base = {"delta0": interval(d0, dlo, dhi), "std0": interval(s0, 0.0, s0hi),
            "gamma_alpha": interval(a, alo, ahi), "gamma_beta": interval(b, blo, bhi),
            "nu_minus_one": np.log(a / b),
            "sigma": interval(np.maximum(sd, 1e-3 * shi / 1000), 0.0, shi)}
    if q == 1:                                   # centred: δ_1 itself (real line)
        base["delta"] = np.asarray(m, dtype=float)
    else:
        base["z"] = np.clip((m - d0) / s0, -5, 5)
    return {k: np.asarray(v, dtype=float) + rng.uniform(-1, 1, (n_chains,) + np.shape(v))
            for k, v in base.items()}


#: The starting diagonal inverse metric of NUTS (``initial_metric``): "unit" (the identity,
#: Stan's and NumPyro's default) or "scaled" (:func:`_initial_metric`).
INITIAL_METRICS = ("unit", "scaled")

#: What a result's ``sampler`` words add for each ``initial_metric``.
METRIC_WORDS = {"unit": "", "scaled": "; adaptation from a metric scaled to the data"}


def _initial_metric(m, n, rho, bounds, kind):
    """The diagonal of NUTS's starting inverse metric (mass matrix), per site of the
    unconstrained parameters (the sites and shapes of :func:`_initial_values` without
    the chain axis), from the data's summaries: the scaled means ``m`` (q,), n = r·k
    and ρ.

    ``kind="unit"``: all ones (the identity). ``kind="scaled"``: a rough prior-or-posterior
    variance of each coordinate, so that the first warm-up windows, which use the
    starting metric, do not need NUTS's longest trajectories (on 10 x 10 cv the
    identity's σ_i and δ0 coordinates are about 0.07 and 0.05 wide while a and b are
    about 1.8: some 100-200 leapfrog steps per iteration over the first 100 warm-up
    iterations, against about 17 scaled). The adaptation then proceeds as from the
    identity. With the bijections of :func:`_initial_values`:

    - σ_i: logit(σ_i/σ̄) ≈ log σ_i, whose posterior variance is about 1/(2(n - 1));
    - δ0: the variance of the data sets' mean, max(var(m), (1 + (n - 1)ρ)/n)/q (the
      observed spread of the means, or at least the cross-validation variance of one
      mean), through the logit's derivative at the mean;
    - a, b: π²/3, the variance of the logit of a uniform (their posterior is mostly
      their prior);
    - z_i, log(ν - 1), logit of σ0: 1.

    With q = 1 (sampled centred) δ0 and σ0 have nothing to learn from and keep 1; δ_1
    gets the variance of its mean.
    """
    q = m.size
    dlo, dhi = bounds[0], bounds[1]
    ones = {"delta0": 1.0, "std0": 1.0, "gamma_alpha": 1.0, "gamma_beta": 1.0,
            "nu_minus_one": 1.0, "sigma": np.ones(q)}
    ones["delta" if q == 1 else "z"] = np.ones(q)
    if kind == "unit":
        return {k: np.asarray(v, dtype=float) for k, v in ones.items()}
    var_mean = (1.0 + (n - 1.0) * rho) / n          # a data set's mean, σ_i = 1 (scaled)
    out = dict(ones, gamma_alpha=np.pi ** 2 / 3, gamma_beta=np.pi ** 2 / 3,
               sigma=np.full(q, 1.0 / (2.0 * max(n - 1.0, 1.0))))
    if q == 1:
        out["delta"] = np.full(1, var_mean)
    else:
        var0 = max(float(m.var()), var_mean) / q
        p = float(np.clip((m.mean() - dlo) / (dhi - dlo), 1e-3, 1 - 1e-3))
        out["delta0"] = var0 / ((dhi - dlo) * p * (1 - p)) ** 2
    return {k: np.asarray(v, dtype=float) for k, v in out.items()}


def _nuts_program(model, dummy, n_warmup, n_per_chain, n_chains, target_accept,
                  count_steps=False):
    """``run(key, z0, args, metric) -> (draws, divergent)``: NUTS on ``model`` (arguments
    shaped like ``dummy``), ``n_chains`` chains of ``n_warmup`` warm-up and
    ``n_per_chain`` kept draws of the sites in :data:`_SITES`, each chain starting its
    windowed adaptation from the diagonal inverse metric ``metric`` (a dict shaped like
    one chain's ``z0``, :func:`_initial_metric`); not jitted (the caller jits it, or
    vmaps it over comparisons first). Written once for the one-comparison and batched
    samplers. ``count_steps=True`` (for ``benchmarks/bench_hierarchical.py``; the
    samplers never set it, so their programs are unchanged) also returns each chain's
    leapfrog steps per iteration, warm-up included: (draws, divergent, steps (n_chains,
    n_warmup + n_per_chain))."""
    jax = _import_jax()
    from jax import lax
    from jax.flatten_util import ravel_pytree
    from numpyro.infer.hmc import hmc
    from numpyro.infer.util import initialize_model
    import jax.numpy as jnp
    with _x64(jax):
        # the dummy's numbers as arrays: NumPyro then takes the priors' bounds as dynamic
        # and constrains each draw with the call's own. With Python floats it used the
        # dummy's bounds for a model without a deterministic site (q = 1, centred), so
        # δ0, σ0 and σ_i came out scaled to (-1, 1) and (0, 1) (found against
        # calibsim's NUTS in numba and NumPyro's own MCMC, issue 46).
        dummy = tuple(jnp.asarray(a) for a in dummy)
        info = initialize_model(jax.random.PRNGKey(0), model, model_args=dummy,
                                dynamic_args=True)
    potential_gen, post_gen = info.potential_fn, info.postprocess_fn

    def run(key, z0, args, metric):
        init_kernel, sample_kernel = hmc(potential_fn_gen=potential_gen, algo="NUTS")
        post = post_gen(*args)
        inverse_metric = ravel_pytree(metric)[0]      # NumPyro's order: the sites sorted

        def chain(key, z):
            state = init_kernel(z, num_warmup=n_warmup, model_args=args, rng_key=key,
                                target_accept_prob=target_accept,
                                inverse_mass_matrix=inverse_metric)
            if count_steps:
                def warm(s, _):
                    s = sample_kernel(s, model_args=args)
                    return s, s.num_steps
                state, warm_steps = lax.scan(warm, state, None, length=n_warmup)
            else:
                state = lax.fori_loop(0, n_warmup,
                                      lambda i, s: sample_kernel(s, model_args=args), state)

            def step(s, _):
                s = sample_kernel(s, model_args=args)
                values = post(s.z)
                return s, ({k: values[k] for k in _SITES}, s.diverging) + (
                    (s.num_steps,) if count_steps else ())
            out = lax.scan(step, state, None, length=n_per_chain)[1]
            if count_steps:
                import jax.numpy as jnp
                out = out[:2] + (jnp.concatenate([warm_steps, out[2]]),)
            return out
        return jax.vmap(chain)(jax.random.split(key, n_chains), z0)

    return run
