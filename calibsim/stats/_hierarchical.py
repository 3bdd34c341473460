"""The hierarchical Bayesian test over data sets (Corani, Benavoli, Demšar, Mangili &
Zaffalon 2017), sampled with NumPyro's NUTS on JAX: no Stan, no C++ compiler.

The model (Corani et al. 2017, §3, "The hierarchical model"; the numbering below is
ours, the model is the paper's and its companion code's, ``hierarchical-t-test.stan``)
for the r·k cross-validation differences :math:`x_i` of data set i = 1..q:

.. math::

   (1)\\quad & x_i \\sim \\mathrm{MVN}(\\mathbf 1\\,\\delta_i,\\ \\Sigma_i),\\quad
            \\Sigma_i = \\sigma_i^2\\,[(1-\\rho) I + \\rho\\,\\mathbf 1 \\mathbf 1^\\top] \\\\
   (2)\\quad & \\delta_1, \\dots, \\delta_q \\sim t(\\nu, \\delta_0, \\sigma_0) \\\\
   (3)\\quad & \\sigma_1, \\dots, \\sigma_q \\sim \\mathrm{U}(0, \\bar\\sigma) \\\\
   (4)\\quad & \\nu - 1 \\sim \\mathrm{Gamma}(a, b)\\ \\text{(shape, rate)},\\quad
            a \\sim \\mathrm{U}(a_{lo}, a_{hi}),\\ b \\sim \\mathrm{U}(b_{lo}, b_{hi}) \\\\
   (5)\\quad & \\delta_0 \\sim \\mathrm{U}(-\\max|x|, \\max|x|),\\quad
            \\sigma_0 \\sim \\mathrm{U}(0, \\bar\\sigma_0)

on data scaled by the mean within-data-set standard deviation s̄ (so the priors are
scale-free), with :math:`\\bar\\sigma = 1000\\,\\bar s_{within}` and
:math:`\\bar\\sigma_0 = 1000\\, s_{among}` (the standard deviation of the data sets'
means). The paper's code sets :math:`(a_{lo}, a_{hi}) = (0.5, 5)`,
:math:`(b_{lo}, b_{hi}) = (0.05, 0.15)`; ``baycomp`` uses (1, 2) and (0.01, 0.1) (the
JMLR tutorial's); both are a parameter here (``nu_prior``).

(6) The three probabilities are those of the next data set's difference
:math:`\\delta_{q+1} \\sim t(\\nu, \\delta_0, \\sigma_0)`: for each posterior draw the
masses of (-inf, -rope), [-rope, rope] and (rope, inf), and P(left), P(rope), P(right)
are the shares of draws in which each mass is the largest (the paper's code and
``baycomp.HierarchicalTest``).

Two implementation choices leave the model unchanged. The likelihood (1) is computed
from each data set's mean m_i and sum of squares v_i, exactly (the inverse and the
determinant of the compound-symmetry matrix are closed forms):
:math:`-n\\log\\sigma_i - [v_i/(1-\\rho) + n(m_i-\\delta_i)^2/(1+(n-1)\\rho)]/(2\\sigma_i^2)`
plus a constant. And (2) is sampled non-centred, :math:`\\delta_i = \\delta_0 + \\sigma_0
z_i` with :math:`z_i \\sim t(\\nu, 0, 1)`, the same distribution: on null data (all
:math:`\\delta_i` near :math:`\\delta_0`, :math:`\\sigma_0` near 0) the centred form that
Stan's file uses puts NUTS in a funnel (hundreds of divergent transitions and an
effective sample size of σ0 under 100 on 50 data sets in our trials; none and over
6,000 non-centred). With a single data set (q = 1) σ0 has nothing to learn from and the
non-centred form is the one in a funnel, so q = 1 is sampled centred.
"""

from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass, field

import numpy as np
from scipy import stats

from .._validation import check_finite_array, check_int
from ._bayes import _decide, _iv_common
from ._hierarchical_batch import fit_batch
from ._hierarchical_jax import (BAYES_EXTRA_HINT, CACHE_ENV, INITIAL_METRICS,  # noqa: F401
                                METRIC_WORDS, _SITES, _hyperpriors, _import_jax, _initial_metric,
                                _initial_values, _nuts_program, _x64, compilation_cache_dir)

__all__ = ["HierarchicalResult", "hierarchical_bayesian_test", "hierarchical_bayesian_batch",
           "HierarchicalDiagnosticWarning", "BAYES_EXTRA_HINT", "compilation_cache_dir"]

#: R-hat above this, or a bulk effective sample size below ``_ESS_MIN``, or any
#: divergent transition, is reported (Vehtari, Gelman, Simpson, Carpenter & Bürkner 2021).
_RHAT_MAX = 1.01
_ESS_MIN = 400


class HierarchicalDiagnosticWarning(RuntimeWarning):
    """The sampler's diagnostics are poor (R-hat, effective sample size or divergences)."""


@dataclass(frozen=True, eq=False)
class HierarchicalResult:
    """The hierarchical Bayesian test of learners A and B over q data sets.

    Attributes
    ----------
    p_left, p_rope, p_right : float
        Posterior probabilities that, on the next data set, B is better beyond the ROPE,
        the two are practically equivalent, A is better beyond the ROPE (the shares of
        posterior draws in which each is the most probable; model (6) of the module
        docstring). They sum to 1; ``p_rope`` is 0 when ``rope`` is 0.
    decision : str
        ``"right"`` (A better), ``"left"`` (B better), ``"rope"`` (equivalent) or
        ``"none"``, at ``threshold``.
    threshold, rope, rho : float
        The probability needed for a decision; the ROPE half-width and the correlation
        of the cross-validation differences used.
    mean : float
        Posterior mean of the mean difference δ0 (accuracy units, A minus B).
    mean_interval : tuple of float
        Its 95% equal-tailed credible interval.
    delta0, std0, nu : ndarray of shape (n_draws,)
        Posterior draws of δ0 and σ0 (accuracy units) and ν.
    samples : ndarray of shape (n_draws, 3)
        For each draw, the probabilities of left, ROPE and right for the next data set
        (the points of the simplex plot).
    dataset_means : ndarray of shape (q,)
        Each data set's observed mean difference.
    shrunk_means : ndarray of shape (q,)
        Each data set's posterior mean of δ_i: its mean shrunk towards δ0.
    dataset_p_left, dataset_p_rope, dataset_p_right : ndarray of shape (q,)
        Posterior probabilities of δ_i < -rope, ``|δ_i| <= rope``, δ_i > rope.
    rhat : float
        Largest split R-hat over δ0, σ0, ν, every δ_i and σ_i.
    ess : float
        Smallest bulk effective sample size over the same quantities.
    n_divergent : int
        Divergent transitions after warm-up.
    n_draws, n_chains : int
    datasets : tuple of str
        The data sets' names (``"1"``, ``"2"``, ... when none were given).
    names : tuple of str
        The learners' names (A, B).
    method : str
    sampler : str
        How the posterior was sampled: NumPyro's NUTS one comparison per program, or
        batched with others (then with q padded to a fixed size, see
        :func:`hierarchical_bayesian_batch`).
    """

    p_left: float
    p_rope: float
    p_right: float
    decision: str
    threshold: float
    rope: float
    rho: float
    mean: float
    mean_interval: tuple
    delta0: np.ndarray = field(repr=False)
    std0: np.ndarray = field(repr=False)
    nu: np.ndarray = field(repr=False)
    samples: np.ndarray = field(repr=False)
    dataset_means: np.ndarray = field(repr=False)
    shrunk_means: np.ndarray = field(repr=False)
    dataset_p_left: np.ndarray = field(repr=False)
    dataset_p_rope: np.ndarray = field(repr=False)
    dataset_p_right: np.ndarray = field(repr=False)
    rhat: float = np.nan
    ess: float = np.nan
    n_divergent: int = 0
    n_draws: int = 0
    n_chains: int = 0
    datasets: tuple = ()
    names: tuple = ("A", "B")
    method: str = "hierarchical Bayesian test (Corani et al. 2017)"
    sampler: str = "NumPyro's NUTS"

    @property
    def pvalue(self) -> float:
        """``1 - max(p_left, p_right)``, as for :class:`BayesianResult`: a difference
        beyond the ROPE is declared exactly when this is ``<= 1 - threshold``."""
        return 1.0 - max(self.p_left, self.p_right)

    def probabilities(self, rope=None):
        """(P(left), P(rope), P(right)) of the next data set at another ROPE half-width
        (accuracy units), from the same posterior draws: the posterior does not depend on
        the ROPE, only the regions do. ``rope=None``: this result's."""
        if rope is None:
            return self.p_left, self.p_rope, self.p_right
        rope, _ = _iv_common(rope, 0.95)
        return _winner_shares(_region_probs(self.delta0, self.std0, self.nu, rope), rope)

    @property
    def diagnostics_ok(self) -> bool:
        """R-hat <= 1.01, bulk ESS >= 400 and no divergent transition."""
        return bool(self.rhat <= _RHAT_MAX and self.ess >= _ESS_MIN and self.n_divergent == 0)

    def diagnostics_text(self) -> str:
        """The sampler's diagnostics in one line."""
        return (f"R-hat {self.rhat:.3f} (max), bulk ESS {self.ess:.0f} (min), "
                f"{self.n_divergent} divergent transition(s); {self.n_chains} chains, "
                f"{self.n_draws} draws")

    def __str__(self) -> str:
        a, b = self.names
        words = {"right": f"{a} is better beyond the ROPE",
                 "left": f"{b} is better beyond the ROPE",
                 "rope": "practically equivalent", "none": "no decision"}
        lo, hi = self.mean_interval
        q = len(self.datasets)
        lines = [
            f"{self.method}, {q} data set(s), rho = {self.rho:.4g}, ROPE ±{100 * self.rope:g} "
            "points",
            f"  on the next data set: P({a} better) = {self.p_right:.4f}, "
            f"P(equivalent) = {self.p_rope:.4f}, P({b} better) = {self.p_left:.4f}",
            f"  mean difference {a} - {b}: {100 * self.mean:+.2f} points, 95% credible "
            f"interval [{100 * lo:+.2f}, {100 * hi:+.2f}]",
            f"  decision at {self.threshold:g}: {words[self.decision]}",
            f"  sampler: {self.sampler}; {self.diagnostics_text()}"
            + ("" if self.diagnostics_ok else " -- POOR: treat the probabilities with care"),
        ]
        return "\n".join(lines)

    def to_frame(self):
        """One row per data set: observed and shrunk mean difference (accuracy units)
        and the posterior probabilities of its δ_i.

        Returns
        -------
        pandas.DataFrame
            Columns ``dataset, difference, shrunk_difference, p_a_better, p_rope,
            p_b_better``.
        """
        import pandas as pd
        return pd.DataFrame({"dataset": list(self.datasets),
                             "difference": self.dataset_means,
                             "shrunk_difference": self.shrunk_means,
                             "p_a_better": self.dataset_p_right,
                             "p_rope": self.dataset_p_rope,
                             "p_b_better": self.dataset_p_left})

    def plot_posterior(self, ax=None):
        """The posterior in the probability simplex (Corani et al. 2017, Figure 6).

        Returns
        -------
        matplotlib.figure.Figure
        """
        from ._simplex import plot_posterior_simplex
        return plot_posterior_simplex(self.samples, names=self.names, ax=ax,
                                      probabilities=(self.p_left, self.p_rope, self.p_right),
                                      title=f"Hierarchical test over {len(self.datasets)} "
                                            f"data sets, ROPE ±{100 * self.rope:g} points")


# ---------------------------------------------------------------------------
# input validation and data preparation

def _iv_hierarchical(x, rope, rho, threshold, n_samples, n_chains, n_warmup, nu_prior,
                     std_upper):
    rope, threshold = _iv_common(rope, threshold)
    x = check_finite_array("x", x)
    if x.ndim != 3 or x.shape[0] < 1 or x.shape[1] < 1 or x.shape[2] < 2:
        hint = (" (for one data set use correlated_bayesian_ttest on shape (r, k), or "
                "x[None])" if x.ndim == 2 else "")
        raise ValueError("`x` must be differences of shape (q, r, k): q >= 1 data sets, "
                         f"r >= 1 runs, k >= 2 folds; got shape {x.shape}{hint}.")
    q, r, k = x.shape
    if rho is None:
        rho = 1.0 / k
    if isinstance(rho, bool) or not isinstance(rho, (int, float, np.integer, np.floating)) \
            or not (0 <= rho < 1):
        raise ValueError(f"`rho` must be a number in [0, 1); got {rho!r}.")
    n_chains = check_int("n_chains", n_chains, min_value=1, max_value=64)
    n_samples = check_int("n_samples", n_samples, min_value=n_chains, max_value=10 ** 7)
    n_warmup = check_int("n_warmup", n_warmup, min_value=10, max_value=10 ** 6)
    try:
        (alo, ahi), (blo, bhi) = nu_prior
        alo, ahi, blo, bhi = (float(v) for v in (alo, ahi, blo, bhi))
    except (TypeError, ValueError):
        raise ValueError("`nu_prior` must be ((a_lo, a_hi), (b_lo, b_hi)), the bounds of the "
                         f"uniform priors on the Gamma's shape and rate; got {nu_prior!r}.") \
            from None
    if not (0 < alo < ahi and 0 < blo < bhi and np.isfinite([ahi, bhi]).all()):
        raise ValueError("`nu_prior` must have 0 < a_lo < a_hi and 0 < b_lo < b_hi (finite); "
                         f"got {nu_prior!r}.")
    if isinstance(std_upper, bool) or not isinstance(std_upper, (int, float)) \
            or not 1 <= std_upper < np.inf:
        raise ValueError(f"`std_upper` must be a finite number >= 1; got {std_upper!r}.")
    return (x, rope, float(rho), threshold, n_samples, n_chains, n_warmup,
            (alo, ahi, blo, bhi), float(std_upper))


def _prepare(x):
    """(flat (q, n) differences with zero-variance rows spread, their scale s̄).

    A data set whose n differences are all equal (identical predictions on every fold)
    has an unbounded likelihood as σ_i -> 0; as the paper's code does, its differences
    are spread symmetrically about their mean, here deterministically by ±h·u_j with u
    evenly spaced in (0, 1] and h = 1e-3 times the mean standard deviation of the other
    data sets (1e-6 if every data set is constant), so its mean is kept exactly and its
    spread is negligible beside the others'.
    """
    q, r, k = x.shape
    flat = x.reshape(q, r * k).astype(float, copy=True)
    sd = flat.std(axis=1)
    const = sd == 0
    if const.any():
        h = 1e-3 * float(sd[~const].mean()) if (~const).any() else 1e-6
        n = flat.shape[1]
        half = n // 2
        u = h * (np.arange(1, half + 1) / half)
        spread = np.zeros(n)
        spread[:half] = u
        spread[half:2 * half] = -u
        flat[const] += spread
        sd = flat.std(axis=1)
    return flat, float(sd.mean())


# ---------------------------------------------------------------------------
# the sampler (NumPyro's NUTS, one jit-compiled program per q and sampler settings)

def _model(m, v, n, rho, dlo, dhi, s0hi, shi, alo, ahi, blo, bhi, centred=False):
    import jax.numpy as jnp
    import numpyro
    import numpyro.distributions as dist
    q = m.shape[0]
    delta0, std0, nu = _hyperpriors(dlo, dhi, s0hi, alo, ahi, blo, bhi)       # (4)-(5)
    with numpyro.plate("datasets", q):
        if centred:                                                            # (2)
            delta = numpyro.sample("delta", dist.StudentT(nu, delta0, std0))
        else:                                                                  # (2), non-centred
            z = numpyro.sample("z", dist.StudentT(nu, 0.0, 1.0))
            delta = numpyro.deterministic("delta", delta0 + std0 * z)
        sigma = numpyro.sample("sigma", dist.Uniform(0.0, shi))                # (3)
    # (1): log MVN density with the compound-symmetry correlation, from m_i and v_i
    quad = v / (1.0 - rho) + n * (m - delta) ** 2 / (1.0 + (n - 1.0) * rho)
    numpyro.factor("likelihood", jnp.sum(-n * jnp.log(sigma) - 0.5 * quad / sigma ** 2))


@functools.lru_cache(maxsize=32)
def _program(q, n_warmup, n_per_chain, n_chains, target_accept, count_steps=False):
    """A jit-compiled function (key, initial values, model arguments) -> draws, for q
    data sets; compiled on its first call and reused for any data of the same q
    (``count_steps``: also the leapfrog steps, see :func:`._hierarchical_jax._nuts_program`)."""
    jax = _import_jax()
    import jax.numpy as jnp
    with _x64(jax):
        dummy = (jnp.zeros(q), jnp.ones(q), 2.0, 0.1, -1.0, 1.0, 1.0, 1.0, 0.5, 5.0, 0.05, 0.15)
    return jax.jit(_nuts_program(functools.partial(_model, centred=q == 1), dummy,
                                 n_warmup, n_per_chain, n_chains, target_accept,
                                 count_steps))


def _diagnostics(draws, divergent):
    from numpyro.diagnostics import effective_sample_size, split_gelman_rubin
    rhat, ess = [], []
    for name in _SITES:
        a = np.asarray(draws[name], dtype=float)                     # (chains, draws, ...)
        a = a.reshape(a.shape[0], a.shape[1], -1)
        if a.shape[1] >= 4:
            ess.append(np.min(effective_sample_size(a)))
            if a.shape[0] >= 2 or a.shape[1] >= 4:
                rhat.append(np.max(split_gelman_rubin(a)))
    return (float(np.nanmax(rhat)) if rhat else np.nan,
            float(np.nanmin(ess)) if ess else np.nan, int(np.sum(divergent)))


def _fit(m, v, sd, n, rho, bounds, random_state, *, n_samples, n_chains, n_warmup,
         target_accept, initial_metric="unit", count_steps=False):
    """Posterior draws of model (1)-(5) for scaled data summarised by each data set's
    mean ``m``, sum of squares about it ``v`` and standard deviation ``sd`` (for the
    starting points), with prior ``bounds`` = (δ0 low, δ0 high, σ0 high, σ high, a_lo,
    a_hi, b_lo, b_hi), NUTS's adaptation starting from ``initial_metric``
    (:func:`._hierarchical_jax._initial_metric`). Returns ({site: (chains, draws, ...)},
    divergent (chains, draws)), and with ``count_steps`` the leapfrog steps (chains,
    warm-up and kept iterations) third."""
    jax = _import_jax()
    q = m.size
    seed = random_state if isinstance(random_state, np.random.SeedSequence) else \
        np.random.SeedSequence(random_state)
    init_seed, key_seed = seed.spawn(2)
    z0 = _initial_values(m, sd, bounds, n_chains, np.random.default_rng(init_seed))
    per_chain = -(-n_samples // n_chains)
    program = _program(q, n_warmup, per_chain, n_chains, float(target_accept), count_steps)
    with _x64(jax):
        import jax.numpy as jnp
        key = jax.random.PRNGKey(int(key_seed.generate_state(1, np.uint32)[0]))
        args = tuple(jnp.asarray(a, dtype=jnp.float64) for a in
                     (m, v, float(n), rho, *bounds))
        metric = _initial_metric(m, n, rho, bounds, initial_metric)
        out = program(key, {k: jnp.asarray(a) for k, a in z0.items()}, args,
                      {k: jnp.asarray(a) for k, a in metric.items()})
        draws = {k: np.asarray(a, dtype=float) for k, a in out[0].items()}
        divergent = np.asarray(out[1])
    return (draws, divergent) + ((np.asarray(out[2]),) if count_steps else ())


def _winner_shares(samples, rope):
    """Shares of draws in which left, rope and right is the most probable, (6)."""
    if rope > 0:
        winner = np.argmax(samples, axis=1)
    else:
        winner = np.where(samples[:, 2] > samples[:, 0], 2, 0)
    return tuple(float(v) for v in np.bincount(winner, minlength=3) / winner.size)


def _region_probs(loc, scale, df, rope):
    """Masses of (-inf, -rope), [-rope, rope], (rope, inf) under t(df, loc, scale)."""
    left = stats.t.cdf((-rope - loc) / scale, df)
    right = stats.t.sf((rope - loc) / scale, df)
    return np.stack([left, np.clip(1.0 - left - right, 0.0, 1.0), right], axis=-1)

_SAMPLERS = {"single": "NumPyro's NUTS, one program per q (pairs one after another)",
             "batched": "NumPyro's NUTS, batched",
             "numba": "calibsim's NUTS in numba"}


def _iv_metric(initial_metric):
    if initial_metric not in INITIAL_METRICS:
        raise ValueError(f"`initial_metric` must be one of {list(INITIAL_METRICS)}; got "
                         f"{initial_metric!r}.")


def _iv_labels(datasets, names, q):
    datasets = tuple(str(d) for d in datasets) if datasets is not None else \
        tuple(str(i + 1) for i in range(q))
    if len(datasets) != q:
        raise ValueError(f"`datasets` must name the {q} data sets; got {len(datasets)} names.")
    names = tuple(str(v) for v in names)
    if len(names) != 2:
        raise ValueError(f"`names` must be two learner names; got {names!r}.")
    return datasets, names


@dataclass(frozen=True, eq=False)
class _Summaries:
    """What the sampler needs of one comparison's (q, r, k) differences: per data set the
    scaled mean ``m``, sum of squares about it ``v`` and standard deviation ``sd``; ``n``
    = r·k; the prior ``bounds`` (δ0 low, δ0 high, σ0 high, σ high, a_lo, a_hi, b_lo, b_hi);
    the scale s̄ and the raw (unscaled) means."""

    m: np.ndarray
    v: np.ndarray
    sd: np.ndarray
    n: int
    bounds: tuple
    scale: float
    raw_means: np.ndarray


def _summaries(x, nu_prior, std_upper) -> _Summaries:
    q = x.shape[0]
    flat, scale = _prepare(x)
    raw_means = x.reshape(q, -1).mean(axis=1)
    xs = flat / scale                                   # scaled: mean within sd = 1
    n = xs.shape[1]
    m = xs.mean(axis=1)
    v = ((xs - m[:, None]) ** 2).sum(axis=1)
    sd = xs.std(axis=1)
    std_within = float(sd.mean())
    std_among = float(m.std()) if q > 1 else std_within
    if std_among == 0:
        std_among = std_within
    big = float(np.abs(xs).max())
    bounds = (-big, big, std_upper * std_among, std_upper * std_within, *nu_prior)
    return _Summaries(m, v, sd, n, bounds, scale, raw_means)


def _result(prep, draws, divergent, *, rope, rho, threshold, n_chains, datasets, names,
            sampler) -> HierarchicalResult:
    """The result of one comparison from its posterior draws (scaled units) and (6)."""
    q = prep.m.size
    scale = prep.scale
    rhat, ess, n_div = _diagnostics(draws, divergent)
    d0 = draws["delta0"].reshape(-1)
    s0 = draws["std0"].reshape(-1)
    nu = draws["nu_minus_one"].reshape(-1) + 1.0
    delta = draws["delta"].reshape(-1, q)
    rope_s = rope / scale
    samples = _region_probs(d0, np.maximum(s0, 1e-300), nu, rope_s)          # (6)
    pl, pe, pr = _winner_shares(samples, rope)
    dl = (delta < -rope_s).mean(axis=0)
    dr = (delta > rope_s).mean(axis=0)
    mean0 = d0 * scale
    return HierarchicalResult(
        float(pl), float(pe), float(pr), _decide(pl, pr, pe, threshold), threshold, rope, rho,
        float(mean0.mean()), tuple(float(v) for v in np.percentile(mean0, [2.5, 97.5])),
        mean0, np.maximum(s0, 1e-300) * scale, nu, samples, prep.raw_means,
        delta.mean(axis=0) * scale, dl, 1.0 - dl - dr, dr, rhat, ess, n_div, int(d0.size),
        n_chains, datasets, names, sampler=sampler)


def hierarchical_bayesian_test(x, *, rope=0.0, rho=None, threshold=0.95, random_state=None,
                               n_samples=10_000, n_chains=4, n_warmup=1000,
                               nu_prior=((0.5, 5.0), (0.05, 0.15)), std_upper=1000.0,
                               target_accept=0.9, datasets=None, names=("A", "B"),
                               warn=True, sampler="single",
                               initial_metric="unit") -> HierarchicalResult:
    r"""Hierarchical Bayesian test of two learners over q data sets (Corani et al. 2017).

    Per-fold differences of every data set, with the cross-validation correlation ρ;
    data-set means drawn from a Student distribution whose location δ0, scale σ0 and
    degrees of freedom ν are learned; a ROPE. The model and its priors are equations
    (1)-(6) of :mod:`calibsim.stats._hierarchical` (the paper's §3); it is sampled by
    NumPyro's NUTS (``pip install "calibsim[bayes]"``), compiled once per q (tens of
    seconds) and then fast (about 1 s for 50 data sets of 10 x 10 cv on one core). The
    compiled program is kept in JAX's persistent compilation cache
    (:func:`compilation_cache_dir`), so later processes load it instead of compiling.
    Many comparisons are sampled together by :func:`hierarchical_bayesian_batch`.

    Parameters
    ----------
    x : array_like of shape (q, r, k)
        Differences in accuracy, A minus B (accuracies in [0, 1]), on fold i (last axis,
        k >= 2) of run j (r >= 1) of data set l (q >= 1).
    rope : float, default 0
        Half-width of the region of practical equivalence, in accuracy units.
    rho : float, optional
        Correlation of the differences within a data set, in [0, 1); default 1/k
        (Nadeau & Bengio's n_test/n_total, the paper's choice). A ρ calibrated on null
        data (:func:`calibsim.calibration.calibrate_rho`) may be given instead.
    threshold : float, default 0.95
        Posterior probability needed for a decision, in (0.5, 1).
    random_state : None, int or numpy.random.SeedSequence
        Seed of the sampler (chains' starting points and NUTS); a given seed gives the
        same draws on the same machine and JAX version.
    n_samples : int, default 10000
        Posterior draws kept in all, split evenly over the chains (baycomp keeps
        4 x 10,000; the probabilities' Monte Carlo error is about
        sqrt(p(1 - p)/ESS)).
    n_chains : int, default 4
        Chains, run vectorised in one process (R-hat needs >= 2).
    n_warmup : int, default 1000
        Warm-up iterations per chain (step size and mass matrix adaptation).
    nu_prior : ((a_lo, a_hi), (b_lo, b_hi)), default ((0.5, 5), (0.05, 0.15))
        Bounds of the uniform priors on the shape and rate of the Gamma prior on ν - 1,
        equation (4): the paper's code's values; baycomp's are ((1, 2), (0.01, 0.1)).
    std_upper : float, default 1000
        The upper bounds of σ_i and σ0 in multiples of the within- and among-data-set
        standard deviations, equations (3) and (5).
    target_accept : float, default 0.9
        NUTS's target acceptance probability during adaptation.
    datasets : sequence of str, optional
        The data sets' names, for :meth:`HierarchicalResult.to_frame`.
    names : (str, str), default ("A", "B")
        The learners' names, for printing and plots.
    warn : bool, default True
        Warn (:class:`HierarchicalDiagnosticWarning`) when R-hat > 1.01, the bulk
        effective sample size < 400 or a transition diverged; the numbers are in the
        result either way.
    sampler : {"single", "batched", "numba"}, default "single"
        One program per q, or the batched program of :func:`hierarchical_bayesian_batch`
        (with q padded), both NumPyro's NUTS on JAX; or "numba": the same model and
        NUTS (Hoffman & Gelman 2014, multinomial as in Betancourt 2017; NumPyro's
        warm-up: dual averaging, windowed diagonal metric) written in numba, each chain
        on its own
        (:mod:`calibsim.stats._hierarchical_nuts`): 5-10x less CPU per fit on 10 x 10
        cv at q = 10-50, other draws of the same posterior (within Monte Carlo error of
        NumPyro's, tested). The diagnostics still use NumPyro's, so every sampler needs
        the extra.
    initial_metric : {"unit", "scaled"}, default "unit"
        Where NUTS's windowed adaptation of its diagonal inverse metric (mass matrix)
        starts: the identity (Stan's and NumPyro's default), or rough variances of the
        unconstrained parameters from the data's summaries (σ_i about 1/(2(n - 1)) on
        the log scale, δ0 the variance of the data sets' mean; see ``_initial_metric``
        in :mod:`calibsim.stats._hierarchical_jax`). Same model, same NUTS and the same
        adaptation windows; "scaled" spares the first 100 or so warm-up iterations,
        which use the starting metric, their longest trajectories (about 28-40% fewer
        leapfrog steps per fit on 10 x 10 cv at q = 10-50,
        ``benchmarks/bench_hierarchical.py --study``); the draws differ, within Monte
        Carlo error.

    Returns
    -------
    HierarchicalResult

    Raises
    ------
    ImportError
        If NumPyro and JAX are not installed (naming ``pip install "calibsim[bayes]"``).
    ValueError
        If ``x`` is not finite of shape (q, r, k) with k >= 2, or a parameter is out of
        range.

    Notes
    -----
    Data sets whose differences are all equal are spread by a negligible symmetric
    amount first (see ``_prepare``); if every difference of every data set is 0
    (identical learners), the posterior puts the next data set's difference in a
    negligible interval about 0: P(rope) = 1 for any ``rope > 0``, and P(left) and
    P(right) near 1/2 for ``rope = 0``.

    With q = 1 the posterior of δ_1 is the correlated Bayesian t test's
    (:func:`correlated_bayesian_ttest`) up to the prior on σ_1 (uniform here, 1/σ there:
    n - 2 instead of n - 1 degrees of freedom), while the next data set's difference,
    with nothing to learn σ0 from, is spread over the prior: the probabilities of the
    next data set need several data sets.

    References
    ----------
    .. [1] Corani, G., Benavoli, A., Demšar, J., Mangili, F. & Zaffalon, M. (2017).
           Statistical comparison of classifiers through Bayesian hierarchical
           modelling. Machine Learning 106, 1817-1837. doi:10.1007/s10994-017-5641-9
    .. [2] Benavoli, A., Corani, G., Demšar, J. & Zaffalon, M. (2017). Time for a
           change: a tutorial for comparing multiple classifiers through Bayesian
           analysis. Journal of Machine Learning Research 18(77), 1-36.
    .. [3] Vehtari, A., Gelman, A., Simpson, D., Carpenter, B. & Bürkner, P.-C. (2021).
           Rank-normalization, folding, and localization: an improved R-hat for
           assessing convergence of MCMC. Bayesian Analysis 16(2), 667-718.

    Examples
    --------
    >>> import numpy as np
    >>> from calibsim.stats import hierarchical_bayesian_test
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(0.02, 0.01, size=(12, 1, 1)) + rng.normal(0, 0.03, size=(12, 10, 10))
    >>> res = hierarchical_bayesian_test(x, rope=0.01, random_state=0)  # doctest: +SKIP
    >>> res.decision                                                     # doctest: +SKIP
    'right'
    """
    (x, rope, rho, threshold, n_samples, n_chains, n_warmup, nu_prior,
     std_upper) = _iv_hierarchical(x, rope, rho, threshold, n_samples, n_chains, n_warmup,
                                   nu_prior, std_upper)
    if not (isinstance(target_accept, float) and 0.5 <= target_accept < 1):
        raise ValueError(f"`target_accept` must be a float in [0.5, 1); got {target_accept!r}.")
    if sampler not in _SAMPLERS:
        raise ValueError(f"`sampler` must be one of {list(_SAMPLERS)}; got {sampler!r}.")
    _iv_metric(initial_metric)
    datasets, names = _iv_labels(datasets, names, x.shape[0])
    _import_jax()                        # the extra's error before any work
    prep = _summaries(x, nu_prior, std_upper)
    settings = dict(n_samples=n_samples, n_chains=n_chains, n_warmup=n_warmup,
                    target_accept=target_accept, initial_metric=initial_metric)
    if sampler == "single":
        draws, divergent = _fit(prep.m, prep.v, prep.sd, prep.n, rho, prep.bounds,
                                random_state, **settings)
        how = _SAMPLERS["single"] + METRIC_WORDS[initial_metric]
    elif sampler == "numba":
        from ._hierarchical_nuts import fit_numba
        (draws, divergent), how = fit_numba([prep], [rho], [random_state], **settings)[0]
    else:
        (draws, divergent), how = fit_batch([prep], [rho], [random_state], **settings)[0]
    result = _result(prep, draws, divergent, rope=rope, rho=rho, threshold=threshold,
                     n_chains=n_chains, datasets=datasets, names=names, sampler=how)
    if warn and not result.diagnostics_ok:
        warnings.warn(f"hierarchical Bayesian test: poor sampler diagnostics "
                      f"({result.diagnostics_text()}); rerun with more n_warmup and "
                      "n_samples, or check the data.", HierarchicalDiagnosticWarning,
                      stacklevel=2)
    return result


def hierarchical_bayesian_batch(xs, *, rope=0.0, rho=None, threshold=0.95,
                                random_states=None, n_samples=10_000, n_chains=4,
                                n_warmup=1000, nu_prior=((0.5, 5.0), (0.05, 0.15)),
                                std_upper=1000.0, target_accept=0.9, datasets=None,
                                names=None, warn=True, initial_metric="unit",
                                sampler="batched") -> list:
    """The hierarchical Bayesian test (Corani et al. 2017) of many comparisons, sampled
    together: the comparisons with the same padded number of data sets share one compiled
    program and run side by side in it (``jax.vmap``), a fixed number at a time.

    Each comparison's draws come from its own seed alone: a comparison gets the same
    result inside any batch as alone through ``hierarchical_bayesian_test(...,
    sampler="batched")``, bit for bit. Against the one-at-a-time sampler
    (``sampler="single"``) the posterior is the same and the draws differ (padding, see
    :mod:`calibsim.stats._hierarchical_batch`): the probabilities agree within Monte
    Carlo error.

    Parameters
    ----------
    xs : sequence of array_like of shape (q, r, k)
        The comparisons' differences in accuracy, A minus B (accuracies in [0, 1]); q, r
        and k may differ between comparisons.
    rope, threshold, n_samples, n_chains, n_warmup, nu_prior, std_upper, target_accept, warn
        As for :func:`hierarchical_bayesian_test`, shared by all comparisons.
    initial_metric : {"unit", "scaled"}, default "unit"
        As for :func:`hierarchical_bayesian_test`, shared by all comparisons.
    sampler : {"batched", "numba"}, default "batched"
        NumPyro's batched program, or calibsim's NUTS in numba one comparison after
        another (as ``hierarchical_bayesian_test(..., sampler="numba")``, the same
        draws).
    rho : None, float or sequence of float/None
        One ρ for all, or one per comparison; None: 1/k.
    random_states : sequence of None, int or numpy.random.SeedSequence, optional
        One seed per comparison (default None for each: fresh entropy). Derive them from
        each comparison's identity (e.g. ``SeedSequence(root, spawn_key=...)``), not from
        its place in the list, so that the result does not depend on the others.
    datasets : sequence of sequence of str, optional
        Each comparison's data-set names.
    names : sequence of (str, str), optional
        Each comparison's learner names (default ("A", "B")).

    Returns
    -------
    list of HierarchicalResult
        In the order of ``xs``; ``sampler`` names the batched program and the padding.

    Raises
    ------
    ImportError
        If NumPyro and JAX are not installed.
    ValueError
        If a comparison's input is invalid (as for :func:`hierarchical_bayesian_test`),
        or ``rho``, ``random_states``, ``datasets`` or ``names`` does not give one entry
        per comparison.

    Examples
    --------
    >>> import numpy as np
    >>> from calibsim.stats import hierarchical_bayesian_batch
    >>> rng = np.random.default_rng(0)
    >>> xs = [rng.normal(0.02, 0.03, (12, 10, 10)), rng.normal(0.0, 0.03, (12, 10, 10))]
    >>> seeds = [np.random.SeedSequence(0, spawn_key=(i,)) for i in range(2)]
    >>> res = hierarchical_bayesian_batch(xs, rope=0.01, random_states=seeds)  # doctest: +SKIP
    >>> [r.decision for r in res]                                               # doctest: +SKIP
    ['right', 'rope']
    """
    xs = list(xs)
    c = len(xs)

    def each(value, name, default):
        if value is None:
            return [default] * c
        value = list(value)
        if len(value) != c:
            raise ValueError(f"`{name}` must have one entry per comparison ({c}); got "
                             f"{len(value)}.")
        return value
    rhos = [rho] * c if rho is None or np.ndim(rho) == 0 else each(rho, "rho", None)
    seeds = each(random_states, "random_states", None)
    datasets = each(datasets, "datasets", None)
    names = each(names, "names", ("A", "B"))
    if not (isinstance(target_accept, float) and 0.5 <= target_accept < 1):
        raise ValueError(f"`target_accept` must be a float in [0.5, 1); got {target_accept!r}.")
    _iv_metric(initial_metric)
    if sampler not in ("batched", "numba"):
        raise ValueError(f"`sampler` must be one of ['batched', 'numba']; got {sampler!r}.")
    checked = []
    for i in range(c):
        (x, rope_i, rho_i, threshold_i, n_samples, n_chains, n_warmup, nu_prior_i,
         std_upper_i) = _iv_hierarchical(xs[i], rope, rhos[i], threshold, n_samples, n_chains,
                                         n_warmup, nu_prior, std_upper)
        labels = _iv_labels(datasets[i], names[i], x.shape[0])
        checked.append((_summaries(x, nu_prior_i, std_upper_i), rho_i, labels))
    if not checked:
        return []
    _import_jax()
    fit = fit_batch
    if sampler == "numba":
        from ._hierarchical_nuts import fit_numba as fit
    fits = fit([p for p, _, _ in checked], [r for _, r, _ in checked], seeds,
               n_samples=n_samples, n_chains=n_chains, n_warmup=n_warmup,
               target_accept=target_accept, initial_metric=initial_metric)
    out = []
    for (prep, rho_i, (ds, nm)), ((draws, divergent), how) in zip(checked, fits):
        res = _result(prep, draws, divergent, rope=rope_i, rho=rho_i, threshold=threshold_i,
                      n_chains=n_chains, datasets=ds, names=nm, sampler=how)
        if warn and not res.diagnostics_ok:
            warnings.warn(f"hierarchical Bayesian test ({nm[0]} vs {nm[1]}): poor sampler "
                          f"diagnostics ({res.diagnostics_text()}); rerun with more n_warmup "
                          "and n_samples, or check the data.", HierarchicalDiagnosticWarning,
                          stacklevel=2)
        out.append(res)
    return out
