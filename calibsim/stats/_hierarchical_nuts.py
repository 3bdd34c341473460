"""The hierarchical Bayesian test's NUTS in numba (``sampler="numba"``): the model's log
density and its analytic gradient on NumPyro's unconstrained space, and the No-U-Turn
sampler with NumPyro's defaults, each chain on its own.

Why: in NumPyro a leapfrog step of this small model (2q + 5 parameters) costs 6-8 µs of
CPU, of which the log density and its gradient are about 1 µs; the rest is the tree
building run as XLA control flow, and vectorised chains move in lockstep (each pays for
the longest trajectory of any). Here a step costs the gradient and a few vector
operations, and each chain stops its trajectory when its own criterion says so.

What is the same as NumPyro's NUTS (``numpyro.infer.hmc_util``, read, not copied): the
model, its bijections and Jacobians (an interval (lo, hi) is reached by
lo + (hi - lo)·sigmoid(u), the positive half-line by exp(u)); the starting points and
the starting diagonal inverse metric (:mod:`._hierarchical_jax`); multinomial NUTS
(Betancourt 2017, "A Conceptual Introduction to Hamiltonian Monte Carlo", appendix A)
built iteratively: trees doubled in a random direction, the new subtree's leaves chosen
uniformly within it and the subtree accepted against the old tree with the biased
progressive probability min(1, w_new / w_old); the generalised no-U-turn criterion
checked on the whole tree and on every sub-tree of the new half; a divergence when the
energy error exceeds 1000; a maximum tree depth of 10; and the warm-up of Stan and
NumPyro: a "reasonable" starting step size (Hoffman & Gelman 2014, algorithm 4), dual
averaging of the log step size towards the target acceptance (t0 = 10, κ = 0.75,
γ = 0.05, centred on log(10 ε)), the diagonal metric estimated in doubling windows
(75-iteration start buffer, windows from 25, 50-iteration end buffer; Welford's variance
shrunk as n/(n + 5)·var + 10^-3·5/(n + 5)), the step size found again and the averaging
restarted at each window's end, and exp(averaged log step size) after the warm-up.

What differs: the random numbers (each chain draws from its own
``numpy.random.Generator``, PCG64, from the comparison's seed) and the floating-point
order of operations. So the draws are not NumPyro's; the posterior is the same, and the
probabilities agree within Monte Carlo error
(``tests/stats/test_hierarchical_nuts.py``). A comparison's draws depend only on its
seed.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from ._hierarchical_jax import _children, _initial_metric, _initial_values

__all__ = ["fit_numba", "SAMPLER_WORDS"]

#: The words a result's ``sampler`` gets (before the starting metric's).
SAMPLER_WORDS = "calibsim's NUTS in numba (multinomial, NumPyro's adaptation)"

_MAX_DEPTH = 10
_MAX_DELTA_ENERGY = 1000.0
_LOG_TARGET_FIND = math.log(0.8)        # find_reasonable_step_size's acceptance


# ---------------------------------------------------------------------------------------
# special functions

@numba.njit(cache=True)
def _digamma(x):
    """ψ(x) for x > 0: the recurrence ψ(x) = ψ(x + 1) - 1/x up to x >= 6, then the
    asymptotic series (error below 1e-15 relative there)."""
    acc = 0.0
    while x < 6.0:
        acc -= 1.0 / x
        x += 1.0
    f = 1.0 / (x * x)
    t = f * (-1.0 / 12 + f * (1.0 / 120 + f * (-1.0 / 252 + f * (1.0 / 240 + f * (
        -1.0 / 132 + f * (691.0 / 32760 + f * (-1.0 / 12)))))))
    return acc + math.log(x) - 0.5 / x + t


@numba.njit(cache=True, inline="always")
def _softplus(u):
    """log(1 + e^u) without overflow."""
    if u > 0:
        return u + math.log1p(math.exp(-u))
    return math.log1p(math.exp(u))


@numba.njit(cache=True, inline="always")
def _sigmoid(u):
    if u >= 0:
        return 1.0 / (1.0 + math.exp(-u))
    e = math.exp(u)
    return e / (1.0 + e)


# ---------------------------------------------------------------------------------------
# the model: parameters [δ0, σ0, a, b, log(ν - 1), σ_1..σ_q, z_1..z_q] (unconstrained),
# with δ_1 itself in place of z_1 when q = 1 (centred)

@numba.njit(cache=True)
def _log_density(u, grad, m, v, n, rho, bounds, centred):
    """The log posterior density (up to its normalising constant) at the unconstrained
    point ``u`` (2q + 5,), with its gradient written into ``grad``; equal to minus
    NumPyro's potential energy of the same model (no constant is dropped: a uniform
    prior's -log(hi - lo) cancels its bijection's log(hi - lo))."""
    q = m.size
    dlo, dhi, s0hi, shi = bounds[0], bounds[1], bounds[2], bounds[3]
    alo, ahi, blo, bhi = bounds[4], bounds[5], bounds[6], bounds[7]
    lp = 0.0
    # interval sites: x = lo + w·s(u); the prior's and the Jacobian's log w cancel,
    # log s + log(1 - s) is left, with derivative 1 - 2s
    s_d = _sigmoid(u[0])
    s_s = _sigmoid(u[1])
    s_a = _sigmoid(u[2])
    s_b = _sigmoid(u[3])
    d0 = dlo + (dhi - dlo) * s_d
    std0 = s0hi * s_s
    a = alo + (ahi - alo) * s_a
    b = blo + (bhi - blo) * s_b
    for j in range(4):
        lp -= _softplus(-u[j]) + _softplus(u[j])
    # ν - 1 = e^y ~ Gamma(a, b), with the Jacobian's y
    y = u[4]
    ey = math.exp(y)
    nu = ey + 1.0
    lp += a * math.log(b) - math.lgamma(a) + a * y - b * ey
    g_a = math.log(b) - _digamma(a) + y
    g_b = a / b - ey
    g_nu = 0.0
    # Student t terms: z_i ~ t(ν, 0, 1), or δ_1 ~ t(ν, δ0, σ0) centred
    half = 0.5 * (nu + 1.0)
    c_t = math.lgamma(half) - math.lgamma(0.5 * nu) - 0.5 * math.log(nu * math.pi)
    dc_t = 0.5 * _digamma(half) - 0.5 * _digamma(0.5 * nu) - 0.5 / nu
    g_d0 = 0.0
    g_s0 = 0.0
    kappa = 1.0 + (n - 1.0) * rho
    for i in range(q):
        us = u[5 + i]
        s_i = _sigmoid(us)
        sig = shi * s_i
        lp -= _softplus(-us) + _softplus(us)
        zi = u[5 + q + i]
        if centred:
            t = (zi - d0) / std0
            delta = zi
        else:
            t = zi
            delta = d0 + std0 * zi
        t2 = t * t
        l1 = math.log1p(t2 / nu)
        lp += c_t - half * l1
        g_nu += dc_t - 0.5 * l1 + half * t2 / (nu * (nu + t2))
        dt = -(nu + 1.0) * t / (nu + t2)         # d/dt of the t term
        # the likelihood (1) from the summaries
        diff = m[i] - delta
        quad = v[i] / (1.0 - rho) + n * diff * diff / kappa
        inv2 = 1.0 / (sig * sig)
        lp += -n * math.log(sig) - 0.5 * quad * inv2
        g_delta = n * diff / kappa * inv2
        g_sig = -n / sig + quad * inv2 / sig
        grad[5 + i] = g_sig * shi * s_i * (1.0 - s_i) + 1.0 - 2.0 * s_i
        if centred:
            lp -= math.log(std0)
            grad[5 + q + i] = g_delta + dt / std0
            g_d0 -= dt / std0
            g_s0 += -1.0 / std0 - dt * t / std0
        else:
            grad[5 + q + i] = g_delta * std0 + dt
            g_d0 += g_delta
            g_s0 += g_delta * zi
    grad[0] = g_d0 * (dhi - dlo) * s_d * (1.0 - s_d) + 1.0 - 2.0 * s_d
    grad[1] = g_s0 * s0hi * s_s * (1.0 - s_s) + 1.0 - 2.0 * s_s
    grad[2] = g_a * (ahi - alo) * s_a * (1.0 - s_a) + 1.0 - 2.0 * s_a
    grad[3] = g_b * (bhi - blo) * s_b * (1.0 - s_b) + 1.0 - 2.0 * s_b
    grad[4] = a - b * ey + ey * g_nu
    return lp


@numba.njit(cache=True)
def _constrained(u, out, bounds, centred):
    """δ0, σ0, ν - 1, δ_1..δ_q, σ_1..σ_q of the unconstrained point ``u``, into ``out``."""
    q = (u.size - 5) // 2
    d0 = bounds[0] + (bounds[1] - bounds[0]) * _sigmoid(u[0])
    std0 = bounds[2] * _sigmoid(u[1])
    out[0] = d0
    out[1] = std0
    out[2] = math.exp(u[4])
    for i in range(q):
        out[3 + i] = u[5 + q + i] if centred else d0 + std0 * u[5 + q + i]
        out[3 + q + i] = bounds[3] * _sigmoid(u[5 + i])


# ---------------------------------------------------------------------------------------
# NUTS

@numba.njit(cache=True)
def _potential(u, grad, m, v, n, rho, bounds, centred):
    """Potential energy (minus the log density) and its gradient, NaN as +inf."""
    lp = _log_density(u, grad, m, v, n, rho, bounds, centred)
    for j in range(grad.size):
        grad[j] = -grad[j]
    if lp != lp:
        return np.inf
    return -lp


@numba.njit(cache=True, inline="always")
def _kinetic(r, inv_metric):
    k = 0.0
    for j in range(r.size):
        k += inv_metric[j] * r[j] * r[j]
    return 0.5 * k


@numba.njit(cache=True)
def _leapfrog(z, r, g, eps, inv_metric, z_out, r_out, g_out, m, v, n, rho, bounds, centred):
    """One velocity-Verlet step from (z, r, ∇U = g) into the out arrays; returns U."""
    d = z.size
    for j in range(d):
        r_out[j] = r[j] - 0.5 * eps * g[j]
    for j in range(d):
        z_out[j] = z[j] + eps * inv_metric[j] * r_out[j]
    pe = _potential(z_out, g_out, m, v, n, rho, bounds, centred)
    for j in range(d):
        r_out[j] = r_out[j] - 0.5 * eps * g_out[j]
    return pe


@numba.njit(cache=True, inline="always")
def _turning(inv_metric, r_left, r_right, r_sum):
    """The generalised no-U-turn criterion on a (sub)tree with end momenta r_left,
    r_right and momentum sum r_sum (NumPyro's form: r_sum less the ends' mean)."""
    left = 0.0
    right = 0.0
    for j in range(r_sum.size):
        c = r_sum[j] - 0.5 * (r_left[j] + r_right[j])
        left += inv_metric[j] * r_left[j] * c
        right += inv_metric[j] * r_right[j] * c
    return left <= 0.0 or right <= 0.0


@numba.njit(cache=True, inline="always")
def _popcount(x):
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@numba.njit(cache=True)
def _logaddexp(a, b):
    if a == -np.inf:
        return b
    if b == -np.inf:
        return a
    hi = max(a, b)
    return hi + math.log1p(math.exp(-abs(a - b)))


@numba.njit(cache=True)
def _nuts_step(z, g, pe, eps, inv_metric, rng, ws, m, v, n, rho, bounds, centred):
    """One NUTS transition from (z, ∇U = g, U = pe), in place; returns (accept
    probability, leapfrog steps, diverged, U of the new point). ``ws`` (19 + 2 ·
    max depth, d) holds the work vectors and the momentum checkpoints."""
    d = z.size
    # work rows
    r0 = ws[0]
    zl, rl, gl = ws[1], ws[2], ws[3]           # the tree's left end
    zr, rr, gr = ws[4], ws[5], ws[6]           # its right end
    zp, gp = ws[7], ws[8]                      # its proposal
    rsum = ws[9]
    # the subtree being built
    s_zp, s_gp, s_rsum = ws[10], ws[11], ws[12]
    s_zl, s_rl, s_gl = ws[13], ws[14], ws[15]      # the subtree's far end (new leaf)
    nz, nr, ng = ws[16], ws[17], ws[18]
    r_ckpts = ws[19:19 + _MAX_DEPTH]
    rs_ckpts = ws[19 + _MAX_DEPTH:19 + 2 * _MAX_DEPTH]
    for j in range(d):
        r0[j] = rng.standard_normal() / math.sqrt(inv_metric[j])
    energy0 = pe + _kinetic(r0, inv_metric)
    for j in range(d):
        zl[j] = z[j]
        rl[j] = r0[j]
        gl[j] = g[j]
        zr[j] = z[j]
        rr[j] = r0[j]
        gr[j] = g[j]
        zp[j] = z[j]
        gp[j] = g[j]
        rsum[j] = r0[j]
    p_pe = pe
    weight = 0.0
    depth = 0
    turning = False
    diverging = False
    sum_accept = 0.0
    n_prop = 0
    while depth < _MAX_DEPTH and not turning and not diverging:
        going_right = rng.random() < 0.5
        # the new subtree of 2^depth leaves, from the end it extends
        start_z = zr if going_right else zl
        start_r = rr if going_right else rl
        start_g = gr if going_right else gl
        for j in range(d):
            s_zl[j] = start_z[j]
            s_rl[j] = start_r[j]
            s_gl[j] = start_g[j]
        step = eps if going_right else -eps
        s_weight = -np.inf
        s_pe = 0.0
        s_n = 0
        s_turning = False
        s_div = False
        s_accept = 0.0
        max_leaves = 1 << depth
        while s_n < max_leaves and not s_turning and not s_div:
            leaf_pe = _leapfrog(s_zl, s_rl, s_gl, step, inv_metric, nz, nr, ng,
                                m, v, n, rho, bounds, centred)
            delta = leaf_pe + _kinetic(nr, inv_metric) - energy0
            if delta != delta:
                delta = np.inf
            leaf_w = -delta
            s_div = delta > _MAX_DELTA_ENERGY
            s_accept += min(1.0, math.exp(-delta))
            if s_n == 0:
                take = True
                s_weight = leaf_w
                for j in range(d):
                    s_rsum[j] = nr[j]
            else:
                # uniform within the subtree: P(new leaf) = sigmoid(w_leaf - w_subtree)
                take = rng.random() < _sigmoid(leaf_w - s_weight)
                s_weight = _logaddexp(s_weight, leaf_w)
                for j in range(d):
                    s_rsum[j] += nr[j]
            if take:
                s_pe = leaf_pe
                for j in range(d):
                    s_zp[j] = nz[j]
                    s_gp[j] = ng[j]
            # the new leaf is the subtree's far end
            for j in range(d):
                s_zl[j] = nz[j]
                s_rl[j] = nr[j]
                s_gl[j] = ng[j]
            leaf_idx = s_n
            s_n += 1
            idx_max = _popcount(leaf_idx >> 1)
            idx_min = idx_max - _popcount((~leaf_idx & (leaf_idx + 1)) - 1) + 1
            if leaf_idx % 2 == 0:
                for j in range(d):
                    r_ckpts[idx_max, j] = nr[j]
                    rs_ckpts[idx_max, j] = s_rsum[j]
            # every sub-tree ending at this leaf
            i = idx_max
            while i >= idx_min and not s_turning:
                # the sub-tree's momentum sum: s_rsum - rs_ckpts[i] + r_ckpts[i]
                left = 0.0
                right = 0.0
                for j in range(d):
                    c = s_rsum[j] - rs_ckpts[i, j] + r_ckpts[i, j] \
                        - 0.5 * (r_ckpts[i, j] + nr[j])
                    left += inv_metric[j] * r_ckpts[i, j] * c
                    right += inv_metric[j] * nr[j] * c
                s_turning = left <= 0.0 or right <= 0.0
                i -= 1
        # combine with the tree (biased progressive sampling)
        if s_turning or s_div:
            p = 0.0
        else:
            p = min(1.0, math.exp(s_weight - weight))
        if rng.random() < p:
            p_pe = s_pe
            for j in range(d):
                zp[j] = s_zp[j]
                gp[j] = s_gp[j]
        if going_right:
            for j in range(d):
                zr[j] = s_zl[j]
                rr[j] = s_rl[j]
                gr[j] = s_gl[j]
        else:
            for j in range(d):
                zl[j] = s_zl[j]
                rl[j] = s_rl[j]
                gl[j] = s_gl[j]
        for j in range(d):
            rsum[j] += s_rsum[j]
        turning = s_turning or _turning(inv_metric, rl, rr, rsum)
        depth += 1
        weight = _logaddexp(weight, s_weight)
        diverging = s_div
        sum_accept += s_accept
        n_prop += s_n
    for j in range(d):
        z[j] = zp[j]
        g[j] = gp[j]
    return sum_accept / n_prop, n_prop, diverging, p_pe


@numba.njit(cache=True)
def _find_step_size(z, g, pe, eps, inv_metric, rng, ws, m, v, n, rho, bounds, centred):
    """Hoffman & Gelman's (2014) algorithm 4 as NumPyro runs it: double or halve the step
    size until the acceptance of one leapfrog step crosses 0.8."""
    d = z.size
    r = ws[0]
    nz, nr, ng = ws[16], ws[17], ws[18]
    tiny = np.finfo(np.float64).tiny
    big = np.finfo(np.float64).max
    last_dir = 0
    direction = 0
    while True:
        eps = (2.0 ** direction) * eps
        for j in range(d):
            r[j] = rng.standard_normal() / math.sqrt(inv_metric[j])
        e0 = pe + _kinetic(r, inv_metric)
        pe_new = _leapfrog(z, r, g, eps, inv_metric, nz, nr, ng, m, v, n, rho, bounds,
                           centred)
        delta = pe_new + _kinetic(nr, inv_metric) - e0
        new_dir = 1 if _LOG_TARGET_FIND < -delta else -1
        last_dir, direction = direction, new_dir
        not_small = eps > tiny or direction >= 0
        not_large = eps < big or direction <= 0
        if not (not_small and not_large and (last_dir == 0 or direction == last_dir)):
            return eps


@numba.njit(cache=True)
def _run_chain(z, inv_metric, m, v, n, rho, bounds, centred, windows, n_warmup, n_draws,
               target_accept, rng, draws, divergent, steps):
    """One chain: ``n_warmup`` adaptation iterations, then ``n_draws`` kept, written into
    ``draws`` (n_draws, 3 + 2q: δ0, σ0, ν - 1, δ, σ), ``divergent`` (n_draws,) and
    ``steps`` (n_warmup + n_draws,) leapfrog steps per iteration. ``z`` is the starting
    point (changed in place) and ``inv_metric`` the starting diagonal inverse metric
    (changed in place); ``windows`` (W, 2) the adaptation schedule (first and last
    iteration of each window)."""
    d = z.size
    ws = np.empty((19 + 2 * _MAX_DEPTH, d))
    g = np.empty(d)
    pe = _potential(z, g, m, v, n, rho, bounds, centred)
    eps = _find_step_size(z, g, pe, 1.0, inv_metric, rng, ws, m, v, n, rho, bounds,
                          centred)
    # dual averaging (t0 = 10, κ = 0.75, γ = 0.05)
    prox = math.log(10.0 * eps)
    x_avg = 0.0
    g_avg = 0.0
    t_da = 0
    # Welford
    w_mean = np.zeros(d)
    w_m2 = np.zeros(d)
    w_n = 0
    n_windows = windows.shape[0]
    window = 0
    tiny = np.finfo(np.float64).tiny
    big = np.finfo(np.float64).max
    for it in range(n_warmup + n_draws):
        accept, n_steps, div, pe = _nuts_step(z, g, pe, eps, inv_metric, rng, ws, m, v, n,
                                              rho, bounds, centred)
        steps[it] = n_steps
        if it < n_warmup:
            t_da += 1
            g_avg = (1.0 - 1.0 / (t_da + 10.0)) * g_avg \
                + (target_accept - accept) / (t_da + 10.0)
            x_t = prox - math.sqrt(t_da) / 0.05 * g_avg
            w_t = t_da ** -0.75
            x_avg = (1.0 - w_t) * x_avg + w_t * x_t
            eps = math.exp(x_avg) if it == n_warmup - 1 else math.exp(x_t)
            eps = min(max(eps, tiny), big)
            middle = 0 < window < n_windows - 1
            if middle:
                w_n += 1
                for j in range(d):
                    pre = z[j] - w_mean[j]
                    w_mean[j] += pre / w_n
                    w_m2[j] += pre * (z[j] - w_mean[j])
            at_end = it == windows[window, 1]
            if at_end:
                window += 1
            if at_end and middle:
                for j in range(d):
                    var = w_m2[j] / (w_n - 1)
                    inv_metric[j] = (w_n / (w_n + 5.0)) * var + 1e-3 * (5.0 / (w_n + 5.0))
                    w_mean[j] = 0.0
                    w_m2[j] = 0.0
                w_n = 0
                eps = _find_step_size(z, g, pe, eps, inv_metric, rng, ws, m, v, n, rho,
                                      bounds, centred)
                prox = math.log(10.0) + math.log(eps)
                x_avg = 0.0
                g_avg = 0.0
                t_da = 0
        else:
            k = it - n_warmup
            _constrained(z, draws[k], bounds, centred)
            divergent[k] = div


def adaptation_windows(n_warmup):
    """NumPyro's (Stan's) warm-up windows for ``n_warmup`` iterations: (W, 2) first and
    last iteration of each (start buffer, doubling metric windows, end buffer)."""
    if n_warmup < 20:
        return np.array([[0, n_warmup - 1]], dtype=np.int64)
    start, end, first = 75, 50, 25
    if start + end + first > n_warmup:
        start, end = int(0.15 * n_warmup), int(0.1 * n_warmup)
        first = n_warmup - start - end
    out = [(0, start - 1)]
    end_start = n_warmup - end
    size, begin = first, start
    while begin < end_start:
        cur, cur_size = begin, size
        if 3 * cur_size <= end_start - cur:
            size = 2 * cur_size
        else:
            cur_size = end_start - cur
        begin = cur + cur_size
        out.append((cur, begin - 1))
    out.append((end_start, n_warmup - 1))
    return np.array(out, dtype=np.int64)


def _flat(values, metric, q):
    """The starting points (chains, 2q + 5) and inverse metric (2q + 5,) in this module's
    order from :func:`_initial_values`' and :func:`_initial_metric`'s dicts."""
    last = "delta" if q == 1 else "z"
    names = ("delta0", "std0", "gamma_alpha", "gamma_beta", "nu_minus_one", "sigma", last)
    n_chains = values["delta0"].shape[0]
    z0 = np.concatenate([np.asarray(values[k], dtype=float).reshape(n_chains, -1)
                         for k in names], axis=1)
    inv = np.concatenate([np.asarray(metric[k], dtype=float).reshape(-1) for k in names])
    return z0, inv


def fit_numba(preps, rhos, seeds, *, n_samples, n_chains, n_warmup, target_accept,
              initial_metric="unit", count_steps=False):
    """Posterior draws of several comparisons with the numba NUTS; the arguments and the
    output as :func:`._hierarchical_batch.fit_batch`'s (with ``count_steps``: each
    item's first part gains the leapfrog steps (chains, warm-up and kept iterations)).
    Seeds are used as there: the starting points from the first child of a comparison's
    SeedSequence, chain c's generator from child c of its second. One numba call per
    chain: the Python around them costs about 0.3 ms per fit, against about 90 ms of
    sampling at q = 10 (study's settings)."""
    from ._hierarchical_jax import METRIC_WORDS
    per_chain = -(-n_samples // n_chains)
    windows = adaptation_windows(n_warmup)
    out = []
    for prep, rho, seed in zip(preps, rhos, seeds):
        q = prep.m.size
        init_seed, key_seed = _children(seed, 2)
        values = _initial_values(prep.m, prep.sd, prep.bounds, n_chains,
                                 np.random.default_rng(init_seed))
        metric = _initial_metric(prep.m, prep.n, float(rho), prep.bounds, initial_metric)
        z0, inv0 = _flat(values, metric, q)
        bounds = np.asarray(prep.bounds, dtype=float)
        m = np.ascontiguousarray(prep.m, dtype=float)
        v = np.ascontiguousarray(prep.v, dtype=float)
        draws = np.empty((n_chains, per_chain, 3 + 2 * q))
        divergent = np.zeros((n_chains, per_chain), dtype=np.bool_)
        steps = np.zeros((n_chains, n_warmup + per_chain), dtype=np.int64)
        for c, chain_seed in enumerate(_children(key_seed, n_chains)):
            rng = np.random.Generator(np.random.PCG64(chain_seed))
            _run_chain(np.ascontiguousarray(z0[c]), inv0.copy(), m, v, float(prep.n),
                       float(rho), bounds, q == 1, windows, n_warmup, per_chain,
                       float(target_accept), rng, draws[c], divergent[c], steps[c])
        sites = {"delta0": draws[:, :, 0], "std0": draws[:, :, 1],
                 "nu_minus_one": draws[:, :, 2], "delta": draws[:, :, 3:3 + q],
                 "sigma": draws[:, :, 3 + q:]}
        how = SAMPLER_WORDS + METRIC_WORDS[initial_metric]
        out.append(((sites, divergent) + ((steps,) if count_steps else ()), how))
    return out
