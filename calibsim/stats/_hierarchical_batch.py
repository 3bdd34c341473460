"""The hierarchical Bayesian test sampled in batches: many comparisons in one compiled
program (``jax.vmap`` over comparisons, each with its chains), with the number of data
sets q padded to a few fixed sizes, so that a handful of compiled shapes serve every call.

Padding leaves each comparison's posterior unchanged. A padded data set has no
likelihood, and its two parameters are independent of everything else: its z follows
N(0, 1) instead of t(ν, 0, 1) (so it does not touch ν) and its σ the prior U(0, σ̄). They
integrate out, so the joint posterior of δ0, σ0, ν and the real δ_i, σ_i is model
(1)-(5)'s. The padded coordinates do take part in NUTS's trajectories (the momentum, the
kinetic energy, the no-U-turn criterion and the step-size adaptation), so a padded run's
draws are not the unpadded program's: they agree within Monte Carlo error, which
``tests/stats/test_hierarchical_batch.py`` checks.

Every comparison carries its own key, made from its own seed as the one-at-a-time sampler
makes it, and ``vmap`` runs the comparisons side by side without mixing them: a
comparison's draws do not depend on the others in its batch, nor on its place there
(the same test checks that too, bit for bit). That needs one compiled batch size: XLA
compiles a program for 1 comparison and one for 8 differently, and their floating-point
results differ in the last bits, which NUTS's trajectories then amplify into other draws.
So every call runs ``batch_size(q_pad)`` comparisons, a number fixed by the padded q alone:
batches are cut in the order given and the last is filled with copies of its last member,
whose draws are discarded.
"""

from __future__ import annotations

import functools
import os

import numpy as np

from ._hierarchical_jax import (METRIC_WORDS, _children, _hyperpriors, _import_jax,
                                _initial_metric,
                                _initial_values, _nuts_program, _x64, compilation_cache_dir)

__all__ = ["batch_size", "fit_batch", "padded_size"]

#: Comparisons per compiled call, by padded q: side by side they share NUTS's
#: per-step overhead, which matters for few data sets (q = 10: 0.51 s of CPU per fit
#: against 0.88 s one at a time on a loaded machine, 0.65 against 0.67 on a quiet one),
#: but every lane pays for the longest trajectory of any, which costs more than it saves
#: once the gradient dominates (q = 50 was slower batched by 4);
#: ``benchmarks/bench_hierarchical.py --study``.
_BATCH_SMALL, _SMALL_Q = 4, 16


def batch_size(q_pad: int) -> int:
    """Comparisons per compiled call for a padded q: fixed by q_pad alone, so a
    comparison's program never depends on the others."""
    return _BATCH_SMALL if q_pad <= _SMALL_Q else 1


def padded_size(q: int) -> int:
    """The compiled number of data sets for q: q itself for q <= 4 (q = 1 is sampled
    centred), else the smallest of 5, 6, 7, 8, 10, 12, 14, 16, 20, ... (2^j times 1,
    1.25, 1.5 or 1.75) that holds q: at most 1.25 times the work of q."""
    if q <= 4:
        return q
    j = (q - 1).bit_length() - 1            # 2^j < q <= 2^(j+1)
    for step in (5, 6, 7, 8):
        if (step << j) >= 4 * q:
            return (step << j) // 4
    return 2 << j


def _batch_model(m, v, n, rho, dlo, dhi, s0hi, shi, alo, ahi, blo, bhi, mask, centred=False):
    """Model (1)-(5) of :mod:`calibsim.stats._hierarchical` on q_pad data sets of which
    those with ``mask`` False are padding (no likelihood; z ~ N(0, 1))."""
    import jax.numpy as jnp
    import numpyro
    import numpyro.distributions as dist
    q = m.shape[0]
    delta0, std0, nu = _hyperpriors(dlo, dhi, s0hi, alo, ahi, blo, bhi)       # (4)-(5)
    if centred:                                                                # (2), q = 1
        with numpyro.plate("datasets", q):
            delta = numpyro.sample("delta", dist.StudentT(nu, delta0, std0))
            sigma = numpyro.sample("sigma", dist.Uniform(0.0, shi))            # (3)
        keep = jnp.ones(q, dtype=bool)
    else:                                                                      # (2), non-centred
        z = numpyro.sample("z", dist.ImproperUniform(dist.constraints.real, (), (q,)))
        prior = jnp.where(mask, dist.StudentT(nu, 0.0, 1.0).log_prob(z),
                          dist.Normal(0.0, 1.0).log_prob(z))
        numpyro.factor("z_prior", jnp.sum(prior))
        delta = numpyro.deterministic("delta", delta0 + std0 * z)
        with numpyro.plate("datasets", q):
            sigma = numpyro.sample("sigma", dist.Uniform(0.0, shi))            # (3)
        keep = mask
    # (1) on the real data sets only
    quad = v / (1.0 - rho) + n * (m - delta) ** 2 / (1.0 + (n - 1.0) * rho)
    numpyro.factor("likelihood",
                   jnp.sum(jnp.where(keep, -n * jnp.log(sigma) - 0.5 * quad / sigma ** 2, 0.0)))


def _traced(q_pad, n_warmup, n_per_chain, n_chains, target_accept):
    """The batched sampler as a jitted function (keys (B, 2), initial values, model
    arguments, starting inverse metrics, each with a leading batch axis B) -> draws
    (B, chains, draws, ...), for q_pad
    data sets (tracing it takes most of the first call's time)."""
    jax = _import_jax()
    import jax.numpy as jnp
    with _x64(jax):
        dummy = (jnp.zeros(q_pad), jnp.ones(q_pad), 2.0, 0.1, -1.0, 1.0, 1.0, 1.0, 0.5, 5.0,
                 0.05, 0.15, jnp.ones(q_pad, dtype=bool))
    return jax.jit(jax.vmap(_nuts_program(
        functools.partial(_batch_model, centred=q_pad == 1), dummy,
        n_warmup, n_per_chain, n_chains, target_accept)))


def _specs(jax, q_pad, n_chains):
    """The argument shapes of the batched program (``batch_size(q_pad)`` comparisons)."""
    import jax.numpy as jnp
    f8, b, c = jnp.float64, batch_size(q_pad), n_chains
    sites = (("delta0", "std0", "gamma_alpha", "gamma_beta", "nu_minus_one")
             + (("delta", "sigma") if q_pad == 1 else ("z", "sigma")))
    z0 = {k: jax.ShapeDtypeStruct((b, c) + ((q_pad,) if k in ("delta", "z", "sigma")
                                              else ()), f8) for k in sites}
    vec, one = jax.ShapeDtypeStruct((b, q_pad), f8), jax.ShapeDtypeStruct((b,), f8)
    args = (vec, vec) + (one,) * 10 + (jax.ShapeDtypeStruct((b, q_pad), jnp.bool_),)
    metric = {k: jax.ShapeDtypeStruct((b,) + s.shape[2:], f8) for k, s in z0.items()}
    return jax.ShapeDtypeStruct((b, 2), jnp.uint32), z0, args, metric


def _export_path(folder, settings):
    """The file of an exported program: named by a digest of the settings, the JAX and
    NumPyro versions and this module's and the model's source, so any change makes a new
    file."""
    import hashlib
    import inspect

    import jax
    import numpyro

    from . import _hierarchical_jax
    text = repr((settings, batch_size(settings[0]), jax.__version__, numpyro.__version__,
                 inspect.getsource(inspect.getmodule(_export_path)),
                 inspect.getsource(_hierarchical_jax)))
    return folder / f"hierarchical-{hashlib.sha256(text.encode()).hexdigest()[:32]}.jaxexport"


@functools.lru_cache(maxsize=32)
def _program(q_pad, n_warmup, n_per_chain, n_chains, target_accept):
    """The batched sampler for q_pad data sets as a JAX export (``jax.export``): traced
    once per machine and kept beside the compilation cache, so a later process neither
    traces nor (through JAX's persistent cache) compiles it again. Every call runs the
    exported program, whether it was just traced or read back, so the draws are the same
    either way."""
    jax = _import_jax()
    from jax import export
    settings = (q_pad, n_warmup, n_per_chain, n_chains, target_accept)
    folder = compilation_cache_dir()
    path = _export_path(folder, settings) if folder is not None else None
    exported = None
    if path is not None and path.is_file():
        try:
            exported = export.deserialize(bytearray(path.read_bytes()))
        except Exception:                 # damaged, from another JAX, or no flatbuffers
            exported = None
    if exported is None:
        with _x64(jax):
            exported = export.export(_traced(*settings))(*_specs(jax, q_pad, n_chains))
        if path is not None:
            try:
                tmp = path.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_bytes(exported.serialize())
                os.replace(tmp, path)     # atomic: parallel workers never read half a file
            except (OSError, ImportError):
                pass                      # not writable, or no flatbuffers: traced again
    return jax.jit(exported.call)


def _pad_initial(z0, q, q_pad, n_chains, rng):
    """The starting points of a padded run: the real data sets' as the one-at-a-time
    sampler draws them, then z = 0 and σ at the middle of its prior, jittered by U(-1, 1)."""
    if q_pad == q:
        return z0
    out = dict(z0)
    for name in ("z", "sigma"):
        out[name] = np.concatenate([z0[name], rng.uniform(-1, 1, (n_chains, q_pad - q))],
                                   axis=1)
    return out


def _pad_metric(metric, q, q_pad):
    """The starting inverse metric of a padded run: the real data sets' as the
    one-at-a-time sampler's, then 1 for the padded z and σ."""
    if q_pad == q:
        return metric
    return {k: (np.concatenate([v, np.ones(q_pad - q)]) if k in ("z", "sigma") else v)
            for k, v in metric.items()}


def fit_batch(preps, rhos, seeds, *, n_samples, n_chains, n_warmup, target_accept,
              initial_metric="unit"):
    """Posterior draws of several comparisons, batched by padded q.

    Parameters
    ----------
    preps : list of _Summaries
        Each comparison's summaries (``calibsim.stats._hierarchical._summaries``).
    rhos : list of float
        Each comparison's ρ.
    seeds : list of None, int or numpy.random.SeedSequence
        Each comparison's seed, used as :func:`hierarchical_bayesian_test` uses it
        (starting points and the NUTS key), so a comparison's draws depend only on it.
    n_samples, n_chains, n_warmup, target_accept, initial_metric
        As for :func:`hierarchical_bayesian_test`, shared by all.

    Returns
    -------
    list of ((dict, ndarray), str)
        Per comparison, in order: ({site: (chains, draws, ...)}, divergent (chains,
        draws)) and the words naming how it was sampled.
    """
    jax = _import_jax()
    per_chain = -(-n_samples // n_chains)
    prepared = []
    for prep, rho, seed in zip(preps, rhos, seeds):
        q = prep.m.size
        q_pad = padded_size(q)
        init_seed, key_seed = _children(seed, 2)
        rng = np.random.default_rng(init_seed)
        z0 = _pad_initial(_initial_values(prep.m, prep.sd, prep.bounds, n_chains, rng),
                          q, q_pad, n_chains, rng)
        pad = q_pad - q
        args = (np.concatenate([prep.m, np.zeros(pad)]), np.concatenate([prep.v, np.zeros(pad)]),
                float(prep.n), float(rho), *(float(b) for b in prep.bounds),
                np.arange(q_pad) < q)
        key = int(key_seed.generate_state(1, np.uint32)[0])
        metric = _pad_metric(_initial_metric(prep.m, prep.n, float(rho), prep.bounds,
                                             initial_metric), q, q_pad)
        prepared.append((q, q_pad, key, z0, args, metric))
    out = [None] * len(prepared)
    by_size = {}
    for i, item in enumerate(prepared):
        by_size.setdefault(item[1], []).append(i)
    for q_pad, members in by_size.items():
        program = _program(q_pad, n_warmup, per_chain, n_chains, float(target_accept))
        size = batch_size(q_pad)
        for start in range(0, len(members), size):
            chunk = members[start:start + size]
            rows = chunk + [chunk[-1]] * (size - len(chunk))   # padding: copies, discarded
            with _x64(jax):
                import jax.numpy as jnp
                keys = jnp.stack([jax.random.PRNGKey(prepared[i][2]) for i in rows])
                z0 = {k: jnp.asarray(np.stack([prepared[i][3][k] for i in rows]),
                                     dtype=jnp.float64) for k in prepared[rows[0]][3]}
                args = tuple(jnp.asarray(np.stack([np.asarray(prepared[i][4][j]) for i in rows]))
                             for j in range(len(prepared[rows[0]][4])))
                metric = {k: jnp.asarray(np.stack([prepared[i][5][k] for i in rows]),
                                         dtype=jnp.float64) for k in prepared[rows[0]][5]}
                draws, divergent = program(keys, z0, args, metric)
                draws = {k: np.asarray(a, dtype=float) for k, a in draws.items()}
                divergent = np.asarray(divergent)
            for b, i in enumerate(chunk):
                q = prepared[i][0]
                mine = {k: (a[b][..., :q] if k in ("delta", "sigma") else a[b])
                        for k, a in draws.items()}
                how = ("NumPyro's NUTS, batched (vmap over comparisons"
                       + (f"; q = {q} padded to {q_pad})" if q_pad != q else ")")
                       + METRIC_WORDS[initial_metric])
                out[i] = ((mine, divergent[b]), how)
    return out

