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


def _nuts_program(model, dummy, n_warmup, n_per_chain, n_chains, target_accept):
    """``run(key, z0, args) -> (draws, divergent)``: NUTS on ``model`` (arguments shaped
    like ``dummy``), ``n_chains`` chains of ``n_warmup`` warm-up and ``n_per_chain`` kept
    draws of the sites in :data:`_SITES`; not jitted (the caller jits it, or vmaps it
    over comparisons first). Written once for the one-comparison and batched samplers."""
    jax = _import_jax()
    from jax import lax
    from numpyro.infer.hmc import hmc
    from numpyro.infer.util import initialize_model
    with _x64(jax):
        info = initialize_model(jax.random.PRNGKey(0), model, model_args=dummy,
                                dynamic_args=True)
    potential_gen, post_gen = info.potential_fn, info.postprocess_fn

    def run(key, z0, args):
        init_kernel, sample_kernel = hmc(potential_fn_gen=potential_gen, algo="NUTS")
        post = post_gen(*args)

        def chain(key, z):
            state = init_kernel(z, num_warmup=n_warmup, model_args=args, rng_key=key,
                                target_accept_prob=target_accept)
            state = lax.fori_loop(0, n_warmup,
                                  lambda i, s: sample_kernel(s, model_args=args), state)

            def step(s, _):
                s = sample_kernel(s, model_args=args)
                values = post(s.z)
                return s, ({k: values[k] for k in _SITES}, s.diverging)
            return lax.scan(step, state, None, length=n_per_chain)[1]
        return jax.vmap(chain)(jax.random.split(key, n_chains), z0)

    return run
