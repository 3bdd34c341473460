"""calibsim's hierarchical test against baycomp's HierarchicalTest (PyStan), on inputs
whose probabilities split between the three regions (issue 35, validation 2).

Each input is q data sets of r x k cross-validation differences, simulated with a
mean difference that moves the posterior from "B better" through the ROPE to "A
better". Both samplers get the same data, ROPE, ρ = 1/k and priors (baycomp's default
Gamma bounds, ((1, 2), (0.01, 0.1)), passed to calibsim). The agreement is judged by the
Monte Carlo error of both: each probability is a mean of winner indicators over the
draws, whose effective sample size (numpyro's estimator, per chain) gives its standard
error; a difference is within error when |Δ| <= 4·sqrt(SE_calibsim² + SE_baycomp²).

Needs PyStan 3 and httpstan (``pip install pystan``; the Stan model compiles once with
g++, about a minute on an idle machine, and is cached by httpstan). Not part of the test
suite. Tables are rewritten after every input.

    python scripts/hierarchical_vs_baycomp.py      # -> figures/bayes/hierarchical_vs_baycomp.csv/.md
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
BAYCOMP_PRIOR = ((1.0, 2.0), (0.01, 0.1))
MEANS = (-0.02, -0.012, -0.008, -0.004, 0.0, 0.003, 0.006, 0.009, 0.012, 0.016, 0.025)


def inputs(seed=20261135, q=10, r=10, k=10):
    """(label, x of shape (q, r, k)) for every mean difference of ``MEANS``."""
    out = []
    for i, mu in enumerate(MEANS):
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(i,)))
        x = rng.normal(mu, 0.008, (q, 1, 1)) + rng.normal(0, 0.03, (q, r, k))
        out.append((f"mean {100 * mu:+.1f} points", x))
    return out


def _ess(ind, n_chains):
    from numpyro.diagnostics import effective_sample_size
    a = np.asarray(ind, dtype=float).reshape(n_chains, -1)
    if a.std() == 0:
        return float(a.size)
    return float(effective_sample_size(a[..., None])[0])


def _shares(samples, rope):
    win = np.argmax(samples, axis=1) if rope > 0 else np.where(samples[:, 2] > samples[:, 0],
                                                                2, 0)
    return [(win == j) for j in range(3)]


def run(rope=0.01, chains=4, n_per_chain=2_500, seed=0, checkpoint=None):
    from baycomp.multiple import HierarchicalTest

    from calibsim.stats import hierarchical_bayesian_test
    rows = []
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)               # baycomp pickles its last sample in the working folder
        try:
            for label, x in inputs():
                q, r, k = x.shape
                flat = x.reshape(q, r * k)
                t0 = time.process_time()
                ours = hierarchical_bayesian_test(x, rope=rope, random_state=seed,
                                                  nu_prior=BAYCOMP_PRIOR, n_chains=chains,
                                                  n_samples=chains * n_per_chain)
                t_ours = time.process_time() - t0
                t0 = time.process_time()
                theirs = HierarchicalTest.sample(np.zeros_like(flat), flat, rope, runs=r,
                                                 lower_alpha=1, upper_alpha=2,
                                                 lower_beta=0.01, upper_beta=0.1,
                                                 chains=chains, nsamples=n_per_chain,
                                                 random_state=seed)
                t_theirs = time.process_time() - t0
                ind_o = _shares(ours.samples, rope)
                ind_t = _shares(theirs, rope)
                row = {"input": label, "q": q, "runs": r, "folds": k, "rope": rope}
                ok = True
                for j, name in enumerate(("p_b_better", "p_rope", "p_a_better")):
                    po, pt = ind_o[j].mean(), ind_t[j].mean()
                    se_o = np.sqrt(po * (1 - po) / _ess(ind_o[j], chains))
                    se_t = np.sqrt(pt * (1 - pt) / _ess(ind_t[j], chains))
                    tol = 4 * np.hypot(se_o, se_t)
                    row.update({f"{name}_calibsim": po, f"{name}_baycomp": pt,
                                f"{name}_diff": po - pt, f"{name}_tol": tol})
                    ok &= abs(po - pt) <= max(tol, 1e-12)
                row.update({"within_error": bool(ok), "rhat": ours.rhat, "ess": ours.ess,
                            "divergent": ours.n_divergent, "cpu_s_calibsim": t_ours,
                            "cpu_s_baycomp": t_theirs})
                rows.append(row)
                print(f"{label}: calibsim {ours.p_left:.4f}/{ours.p_rope:.4f}/"
                      f"{ours.p_right:.4f}, baycomp {ind_t[0].mean():.4f}/"
                      f"{ind_t[1].mean():.4f}/{ind_t[2].mean():.4f} -> "
                      f"{'ok' if ok else 'DIFFERS'} ({t_ours:.1f} s vs {t_theirs:.1f} s CPU)",
                      flush=True)
                if checkpoint is not None:
                    os.chdir(cwd)
                    checkpoint(pd.DataFrame(rows))
                    os.chdir(tmp)
        finally:
            os.chdir(cwd)
    return pd.DataFrame(rows)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "figures" / "bayes")
    ap.add_argument("--rope", type=float, default=0.01)
    ap.add_argument("--draws", type=int, default=2500, help="draws per chain (4 chains)")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    csv = args.out / "hierarchical_vs_baycomp.csv"
    cols = ["input", "p_b_better_calibsim", "p_b_better_baycomp", "p_rope_calibsim",
            "p_rope_baycomp", "p_a_better_calibsim", "p_a_better_baycomp", "within_error"]

    def write(table):
        table.to_csv(csv, index=False, float_format="%.6g")
        csv.with_suffix(".md").write_text(
            "# calibsim's hierarchical test vs baycomp's HierarchicalTest (PyStan)\n\n"
            f"{len(table)} inputs of 10 data sets x 10 x 10 cv, ROPE {args.rope:g}, "
            f"rho = 1/k, baycomp's priors; 4 chains x {args.draws:,} draws each after "
            "1,000 warm-up iterations. Within error: every |difference| <= 4 x the combined "
            "Monte Carlo SE (from the winner indicators' ESS). "
            f"{int(table.within_error.sum())} of {len(table)} within error.\n\n"
            + table[cols].to_markdown(index=False, floatfmt=".4f") + "\n", encoding="utf-8")

    table = run(rope=args.rope, n_per_chain=args.draws, checkpoint=write)
    write(table)
    print(f"wrote {csv}; {int(table.within_error.sum())}/{len(table)} within Monte Carlo error")
    return 0 if table.within_error.all() else 1


if __name__ == "__main__":
    raise SystemExit(main())
