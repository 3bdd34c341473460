"""Benchmark: the hierarchical Bayesian test (Corani et al. 2017) on NumPyro, before and
after batching (issue 46), in one run on one machine.

Three parts, each printed with the load average (``os.getloadavg``) beside its times; on
a shared machine the CPU seconds are the steadier measure of the work done.

``--one`` (issue 35's benchmark): one test on 50 data sets x 10 runs x 10 folds, 4 chains
x 2,500 draws after 1,000 warm-up iterations: import, first call (compiles for q = 50),
then ``--rounds`` calls on new data; with ``--baycomp`` and PyStan installed, baycomp's
``HierarchicalTest`` on the same data.

``--rank``: ``python -m calibsim rank --method bayes`` on 4 learners x 12 data sets x
10 x 10 cv scores (6 pairs, 10,000 draws each; synthetic scores written to a temporary
CSV), each a new process timed from start to end:

- before: every pair sampled alone (``sampler="single"``), no compilation cache (what
  every process did before);
- after, first process: all pairs in one batched program, an empty compilation cache
  (compiles, then fills the cache);
- after, second process: the same, the cache filled (the target: at most 30 s warm).

``--study``: the decision-rate study (``studies/bayesian_hierarchical.toml``, 3,060
hierarchical fits at q = 10, 20, 50) on a fixed fraction: the engine's own analysis
(``_datasets_summaries``) on ``--study-groups`` comparisons per q of synthetic data sets
of its null source's shape (100 x 10 cv differences of two equally good learners), with
every ρ and repeat of the study, once with each sampler, starting metric, NUTS target
acceptance and warm-up of ``--study-configs`` (each program compiled or loaded first,
outside the timing): by default the one-pair sampler from the unit metric with 500 warm-up
iterations (the study's before issue 46), "auto" (batched at q = 10, one pair at a time
at q = 20 and 50) from the scaled metric with 500 (the study's in the third round) and
with the study's warm-up now (``DATASETS_WARMUP`` of ``calibsim.engine.analyses``, 300). A
block of the study holds 10
comparisons per repeat at q = 10, so its last batch of 4 is part filled with copies (64
lanes for 60 fits), which the fraction timed here (4 per repeat) is not. The CPU seconds
per fit at each q, times the study's number of fits at that q, give the whole study's
sampling time on one core (the study's runner spreads the comparisons over its workers);
an extrapolation, and printed as one.

``--steps``: the leapfrog steps per fit, which are deterministic (unlike CPU seconds on a
shared machine), at each NUTS target acceptance and number of warm-up iterations of
``--settings`` on the same comparisons and seeds (``--steps-groups`` null and as many
"gain" comparisons per q, the one-pair sampler or calibsim's NUTS in numba, with the
study's other settings): in all and in lockstep over the 4 vectorised chains (for the
numba sampler, whose chains run on their own, "in lockstep" is only a comparison), with
the shares of fits with a divergent transition and with poor diagnostics, and how far
the probabilities move from the first setting's, in Monte Carlo SEs.

    python benchmarks/bench_hierarchical.py --steps --steps-groups 6
    python benchmarks/bench_hierarchical.py --steps --steps-groups 10 --settings 0.9:500,0.9:500:numba
    python benchmarks/bench_hierarchical.py --rank --study
    python benchmarks/bench_hierarchical.py --one --rounds 5 --baycomp
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def _data(seed, q=50, r=10, k=10):
    rng = np.random.default_rng(seed)
    return rng.normal(0.01, 0.01, (q, 1, 1)) + rng.normal(0, 0.03, (q, r, k))


def _timed(fn):
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w, time.process_time() - c


def _load():
    return "load average " + ", ".join(f"{v:.1f}" for v in os.getloadavg()) + \
        f" on {os.cpu_count()} cores"


# ---------------------------------------------------------------------------
# --one: one test at q = 50 (issue 35)

def one(rounds, baycomp):
    _, w, c = _timed(lambda: __import__("numpyro") and __import__("jax"))
    print(f"import JAX + NumPyro: {w:.1f} s wall, {c:.1f} s CPU")
    from calibsim.stats import hierarchical_bayesian_test
    load = _load()
    res, w, c = _timed(lambda: hierarchical_bayesian_test(_data(0), rope=0.01, random_state=0))
    print(f"first call (compiles for q = 50, or loads it from the cache): {w:.1f} s wall, "
          f"{c:.1f} s CPU; {load}")
    rows = {"calibsim": [], "baycomp 4x10000": [], "baycomp 4x2500": []}
    if baycomp:
        from baycomp.multiple import HierarchicalTest
        tmp = tempfile.mkdtemp()
        os.chdir(tmp)                        # baycomp pickles its last sample here

        def stan(x, n):
            flat = x.reshape(50, 100)
            return HierarchicalTest.sample(np.zeros_like(flat), flat, 0.01, runs=10,
                                           chains=4, nsamples=n, random_state=1)
        _, w, c = _timed(lambda: stan(_data(99), 100))
        print(f"baycomp: Stan model built or loaded, first fit: {w:.1f} s wall")
    for i in range(1, rounds + 1):
        x = _data(i)
        res, w, c = _timed(lambda: hierarchical_bayesian_test(x, rope=0.01, random_state=i))
        rows["calibsim"].append((w, c))
        print(f"round {i}: calibsim {w:.2f} s wall, {c:.2f} s CPU (R-hat {res.rhat:.3f}, "
              f"ESS {res.ess:.0f}, {res.n_divergent} divergent)", flush=True)
        if baycomp:
            for n, key in ((10_000, "baycomp 4x10000"), (2_500, "baycomp 4x2500")):
                _, w, c = _timed(lambda: stan(x, n))
                rows[key].append((w, c))
                print(f"round {i}: {key} {w:.2f} s wall, {c:.2f} s CPU (Stan runs its chains "
                      "in child processes: their CPU is not counted)", flush=True)
    print("\n| sampler | median wall (s) | median CPU (s) | ratio of wall medians |")
    print("|---|---|---|---|")
    base = statistics.median(w for w, _ in rows["calibsim"])
    for key, vals in rows.items():
        if vals:
            mw = statistics.median(w for w, _ in vals)
            mc = statistics.median(c for _, c in vals)
            print(f"| {key} | {mw:.2f} | {mc:.2f} | {mw / base:.2f} |")
    print(f"\none test on 50 data sets x 10 x 10 cv: {base:.2f} s wall (target <= 10 s on 2 "
          f"cores); {_load()}")


# ---------------------------------------------------------------------------
# --rank: the command, before and after, each in a new process

_BEFORE = ("import functools, sys\n"
           "import calibsim.ranking._bayes as b\n"
           "b.bayesian_pair_results = functools.partial(b.bayesian_pair_results, "
           "sampler='single')\n"
           "sys.argv = ['calibsim'] + sys.argv[1:]\n"
           "from calibsim.cli import command\n"
           "command()\n")


def _rank_scores(path, n_learners=4, n_datasets=12, r=10, k=10, seed=46):
    import pandas as pd
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.7, 0.9, n_datasets)
    gain = np.array([0.0, 0.004, 0.01, 0.02])[:n_learners]
    rows = []
    for d in range(n_datasets):
        for j in range(n_learners):
            acc = np.clip(base[d] + gain[j] + rng.normal(0, 0.004) +
                          rng.normal(0, 0.03, r * k), 0, 1)
            rows += [(f"data{d + 1}", f"learner{j + 1}", f, a) for f, a in enumerate(acc)]
    pd.DataFrame(rows, columns=["dataset", "learner", "fold", "accuracy"]).to_csv(
        path, index=False)


def _process(args, env):
    """(wall seconds, CPU seconds (user + system, all threads), stdout) of a new process."""
    import resource
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    w = time.perf_counter()
    out = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True,
                         text=True)
    wall = time.perf_counter() - w
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if out.returncode:
        raise SystemExit(f"failed: {' '.join(args)}\n{out.stderr[-2000:]}")
    return wall, cpu, out.stdout


def rank():
    tmp = Path(tempfile.mkdtemp(prefix="bench_hier_"))
    scores = tmp / "scores.csv"
    _rank_scores(scores)
    cli = ["rank", "--scores", str(scores), "--method", "bayes", "--folds-per-run", "10",
           "--rope", "0.01"]
    env = {**os.environ, "CALIBSIM_JAX_CACHE": "off"}
    print("rank --method bayes, 4 learners x 12 data sets x 10 x 10 cv (6 pairs, 10,000 "
          "draws each), each run a new process:")
    runs = []
    load = _load()
    wall, cpu, text = _process(["-c", _BEFORE, *cli], env)
    runs.append(("before: pairs one after another, no compilation cache", wall, cpu, load))
    env = {**os.environ, "CALIBSIM_JAX_CACHE": str(tmp / "jax-cache")}
    for label in ("after: batched, first process (empty cache: compiles)",
                  "after: batched, second process (cache filled)"):
        load = _load()
        wall, cpu, text = _process(["-m", "calibsim", *cli], env)
        runs.append((label, wall, cpu, load))
    print("\n| run | wall (s) | CPU (s) | load before the run |\n|---|---|---|---|")
    for label, wall, cpu, load in runs:
        print(f"| {label} | {wall:.1f} | {cpu:.1f} | {load} |")
    print("\nlast run's Bayesian lines:")
    print("\n".join(line for line in text.splitlines() if "sampler" in line or " vs " in line))
    print(f"target: at most 30 s warm; {_load()}")


# ---------------------------------------------------------------------------
# --study: the decision-rate study's sampling on a fraction

class _Synthetic:
    """Scores stand-in: ``difference(source, scheme, pair)`` -> (N, R, k) differences of
    two equally good learners (per data set a mean N(0, 0.005), per fold N(0, 0.04))."""

    def __init__(self, n, big_r=100, k=10, seed=46):
        rng = np.random.default_rng(seed)
        self.x = rng.normal(0, 0.005, (n, 1, 1)) + rng.normal(0, 0.04, (n, big_r, k))

    def difference(self, source, scheme, pair):
        return self.x


def _config(text):
    """(sampler, initial metric, target acceptance, warm-up) of a ``--study-configs``
    entry ``sampler:metric[:target[:warm-up]]``; missing: the study's (0.9 and
    ``DATASETS_WARMUP``)."""
    from calibsim.engine.analyses import DATASETS_WARMUP
    sampler, metric, *rest = text.split(":")
    return (sampler, metric, float(rest[0]) if rest else 0.9,
            int(rest[1]) if len(rest) > 1 else DATASETS_WARMUP)


def study(n_groups, configs):
    from calibsim.engine import load_study
    from calibsim.engine.analyses import _datasets_summaries
    st = load_study(ROOT / "studies" / "bayesian_hierarchical.toml")
    a = next(x for x in st.analyses if x.kind == "bayes_datasets")
    per_group = a.repeats + len(a.rhos) - 1    # 5 repeats at rho = 1/k, 1 at "calibrated"
    fits_per_q = {q: sum(st.source(s).n_datasets // q for s in a.sources) * per_group
                  for q in a.datasets}
    print(f"decision-rate study: {sum(fits_per_q.values())} hierarchical fits "
          f"({', '.join(f'{n} at q = {q}' for q, n in fits_per_q.items())}); timed here: "
          f"{n_groups} comparisons of synthetic null data per q ({n_groups * per_group} fits "
          "per q: every rho and repeat of the study)")
    small = dataclasses.replace(a, sources=("null",), tests=("hierarchical",))
    per_q = {config: {} for config in configs}
    for q in a.datasets:             # the configurations side by side, under the same load
        for config in configs:
            sampler, metric, target, warm = _config(config)
            first = dataclasses.replace(small, datasets=(q,), rhos=("1/k",), repeats=1)
            _, w, _ = _timed(lambda: _datasets_summaries(st, first, _Synthetic(q, seed=q),
                                                         None, sampler, metric, warm, target))
            print(f"  {config}: q = {q}: compiled (or loaded from the cache) and one "
                  f"fit: {w:.1f} s wall", flush=True)
        for config in configs:
            sampler, metric, target, warm = _config(config)
            one_q = dataclasses.replace(small, datasets=(q,))
            n_fits = n_groups * per_group
            load = _load()
            _, w, c = _timed(lambda: _datasets_summaries(st, one_q, _Synthetic(n_groups * q),
                                                         None, sampler, metric, warm, target))
            per_q[config][q] = (w / n_fits, c / n_fits)
            print(f"  {config}: q = {q}: {n_fits} fits in {w:.1f} s wall, {c:.1f} s CPU "
                  f"({c / n_fits:.2f} s CPU per fit); {load}", flush=True)
    total = {config: tuple(sum(fits_per_q[q] * per_q[config][q][i] for q in a.datasets)
                           for i in (0, 1)) for config in configs}
    print("\n| sampler:starting metric:target acceptance:warm-up | whole study extrapolated: "
          "wall (min) | CPU (min) |"
          "\n|---|---|---|")
    for sampler, (w, c) in total.items():
        print(f"| {sampler} | {w / 60:.1f} | {c / 60:.1f} |")
    print("(sampling only, one process, compilation excluded: extrapolated from the fits "
          "timed here to the study's count at each q; the study's runner spreads the "
          "comparisons over its workers. Target: at most 15 min)")
    print(_load())


# ---------------------------------------------------------------------------
# --steps: leapfrog steps per fit (deterministic), divergences and diagnostics

def _comparisons(q, n_groups, r=10, k=10, sd=0.08, rho=0.1):
    """``n_groups`` comparisons of q data sets x r x k cv differences of each kind, drawn
    from the model's likelihood (1) with the correlation of cv (each data set's r·k
    differences share a component of variance ρ·sd², the rest independent; sd = 0.08
    and ρ = 0.1 give data-set means spread by about 2.6 points, as the study's sources'
    3): "null", every data set's true difference 0 (the study's null source), and
    "gain", one learner better by N(3, 1) points per data set (as the BAN sources)."""
    out = []
    for kind, (mean, spread) in (("null", (0.0, 0.0)), ("gain", (0.03, 0.01))):
        rng = np.random.default_rng([46, q, len(kind)])
        for g in range(n_groups):
            x = (rng.normal(mean, spread, (q, 1, 1))
                 + np.sqrt(rho) * sd * rng.normal(0, 1, (q, 1, 1))
                 + np.sqrt(1 - rho) * sd * rng.normal(0, 1, (q, r, k)))
            out.append((kind, g, x))
    return out


def steps(n_groups, settings, datasets=(10, 20, 50), rope=0.01):
    """Per q and sampler setting (NUTS's target acceptance, warm-up iterations), on the
    same comparisons and seeds: leapfrog steps per fit (4 chains x (warm-up + 1,000 kept
    iterations), one comparison per program from the scaled metric, as the study), in
    lockstep over the 4 vectorised chains (each iteration waits for the longest
    trajectory, which is what a fit's time follows), the share of fits with a divergent
    transition and with poor diagnostics (R-hat > 1.01, ESS < 400 or a divergence), CPU
    seconds per fit, and the largest move of P(left), P(rope), P(right) at ROPE ``rope``
    from the first setting's, in Monte Carlo SEs of the difference (each SE
    sqrt(p(1 - p)/ESS) with the fit's smallest ESS)."""
    from calibsim.stats._hierarchical import _fit, _result, _summaries
    from calibsim.stats._hierarchical_nuts import fit_numba
    fixed = dict(n_samples=4000, n_chains=4, initial_metric="scaled")
    print(f"leapfrog steps per fit: {n_groups} null and {n_groups} gain comparisons per q, "
          f"(target acceptance, warm-up) {settings}; {fixed}")
    rows = []
    for q in datasets:
        comps = _comparisons(q, n_groups)
        first = {}
        for ta, warm, sampler in settings:
            def fit(x, seed):
                prep = _summaries(x, (0.5, 5.0, 0.05, 0.15), 1000.0)
                if sampler == "numba":
                    return prep, _timed(lambda: fit_numba(
                        [prep], [0.1], [seed], target_accept=ta, n_warmup=warm,
                        count_steps=True, **fixed)[0][0])
                return prep, _timed(lambda: _fit(
                    prep.m, prep.v, prep.sd, prep.n, 0.1, prep.bounds, seed,
                    target_accept=ta, n_warmup=warm, count_steps=True, **fixed))
            fit(comps[0][2], 0)                              # compiles, outside the timing
            load = _load()
            tot, lock, div, poor, cpu, dev = [], [], [], [], [], []
            for kind, g, x in comps:
                prep, ((draws, divergent, n_steps), _, c) = fit(
                    x, np.random.SeedSequence([46, q, g, len(kind)]))
                res = _result(prep, draws, divergent, rope=rope, rho=0.1, threshold=0.95,
                              n_chains=4, datasets=tuple(map(str, range(q))),
                              names=("A", "B"), sampler="")
                tot.append(n_steps.sum())
                lock.append(n_steps.max(axis=0).sum())
                div.append(res.n_divergent > 0)
                poor.append(not res.diagnostics_ok)
                cpu.append(c)
                p = np.array(res.probabilities())
                se = np.sqrt(p * (1 - p) / max(res.ess, 1.0))
                if (ta, warm, sampler) == settings[0]:
                    first[(kind, g)] = (p, se)
                else:
                    p0, se0 = first[(kind, g)]
                    both = np.hypot(se, se0)
                    dev.append(float(np.max(np.abs(p - p0) / np.where(both > 0, both, np.inf))))
            row = dict(q=q, setting=f"{ta}, {warm}, {sampler}", steps=np.mean(tot), lockstep=np.mean(lock),
                       divergent=np.mean(div), poor=np.mean(poor), cpu=np.mean(cpu),
                       max_dev=max(dev) if dev else np.nan)
            rows.append(row)
            print(f"  q = {q}, target {ta}, {warm} warm-up, {sampler}: {row['steps']:,.0f} "
                  f"steps per fit "
                  f"({row['lockstep']:,.0f} in lockstep), divergent in "
                  f"{100 * row['divergent']:.0f}% of fits, poor diagnostics "
                  f"{100 * row['poor']:.0f}%, {row['cpu']:.2f} s CPU per fit"
                  + ("" if np.isnan(row["max_dev"]) else
                     f", probabilities within {row['max_dev']:.1f} MC SE of the first's")
                  + f"; {load}", flush=True)
    print("\n| q | target acceptance, warm-up, sampler | steps per fit | in lockstep | divergent fits | "
          "poor diagnostics | CPU per fit (s) | largest move of P (MC SE) |"
          "\n|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['q']} | {r['setting']} | {r['steps']:,.0f} | {r['lockstep']:,.0f} | "
              f"{100 * r['divergent']:.0f}% | {100 * r['poor']:.0f}% | {r['cpu']:.2f} | "
              f"{'' if np.isnan(r['max_dev']) else format(r['max_dev'], '.1f')} |")
    print(_load())


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--one", action="store_true", help="one test at q = 50 (issue 35)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--baycomp", action="store_true", help="with --one: also time baycomp")
    ap.add_argument("--rank", action="store_true",
                    help="rank --method bayes before and after, new processes")
    ap.add_argument("--study", action="store_true",
                    help="the decision-rate study on a fraction, each of --study-configs")
    ap.add_argument("--study-groups", type=int, default=4,
                    help="with --study: comparisons timed per q (default 4)")
    ap.add_argument("--study-configs",
                    default="auto:scaled:0.9:500,numba:scaled:0.9:500",
                    help="with --study: comma-separated sampler:initial_metric[:target"
                         "[:warm-up]] entries to time (samplers single, batched, auto, numba; "
                         "metrics unit, scaled; NUTS's target acceptance, default 0.9; "
                         "warm-up iterations, default the study's)")
    ap.add_argument("--steps", action="store_true",
                    help="leapfrog steps per fit, divergences and diagnostics per NUTS "
                         "target acceptance and warm-up (--settings), on the same comparisons")
    ap.add_argument("--steps-groups", type=int, default=4,
                    help="with --steps: null and gain comparisons per q (default 4 each)")
    ap.add_argument("--settings", default="0.9:500,0.8:500,0.85:500,0.9:300",
                    help="with --steps: comma-separated target_acceptance:warm-up[:sampler] "
                         "entries (sampler numpyro, the one-pair program, or numba; default "
                         "numpyro), the first the reference (default "
                         "0.9:500,0.8:500,0.85:500,0.9:300; the numba sampler against "
                         "NumPyro's: 0.9:500,0.9:500:numba)")
    ap.add_argument("--steps-datasets", default="10,20,50",
                    help="with --steps: comma-separated q (default 10,20,50)")
    args = ap.parse_args(argv)
    if not (args.one or args.rank or args.study or args.steps):
        args.one = True
    if args.one:
        one(args.rounds, args.baycomp)
    if args.rank:
        rank()
    if args.study:
        study(args.study_groups, args.study_configs.split(","))
    if args.steps:
        steps(args.steps_groups, [(float(t), int(w), (rest or ["numpyro"])[0])
                                  for t, w, *rest in
                                  (e.split(":") for e in args.settings.split(","))],
              tuple(int(q) for q in args.steps_datasets.split(",")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
