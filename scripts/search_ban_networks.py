"""Search random BANs for Bouckaert's (2003) Sets 2-4 and write studies/networks/set1..set4.bif.

Bouckaert (2003, Table 3) does not publish his networks, only naive Bayes and C4.5
accuracies on them (Set 2 87.84 / 90.61, Set 3 71.92 / 77.74, Set 4 81.96 / 93.23 %).
This script draws random BANs (:func:`calibsim.sources.random_ban`), screens each
on a few training sets and confirms the ones nearest each target C4.5 - naive
Bayes gap on 1000 training sets (:func:`search_networks`). Every candidate is
scored by the study engine's cell function (:func:`calibsim.engine.cells.run_cell`)
on the Table 3 study's design: a ``ban`` source (training sets of ``n_instances``,
data set i from ``SeedSequence(study_seed, spawn_key=(source_key, i))``), learners
naive Bayes and C4.5, and a ``test_set`` scheme of ``n_test`` instances, so
``calibsim run studies/bouckaert2003_table3.toml`` reproduces the confirmed numbers.

Re-runnable: the same ``--seed`` (and settings) gives the same networks, whatever the
number of workers. Writes, into ``--out`` (default ``studies/networks``):

- ``set1.bif`` .. ``set4.bif``: Set 1 (no arcs) and the chosen networks of Sets 2-4;
- ``search_screen.csv``: every screened candidate (parameters, identity, accuracies);
- ``search_confirmed.csv``: every confirmed candidate, per target;
- ``search_log.json`` and ``README.md``: settings, wall time and the chosen networks.

Usage::

    python scripts/search_ban_networks.py                 # the committed search
    python scripts/search_ban_networks.py --n-candidates 200 --out /tmp/nets   # a quick look
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from calibsim.engine import spec as engine_spec
from calibsim.engine.cells import CellSpec, run_cell
from calibsim.engine.runner import cluster, map_blocks
from calibsim.papers.bouckaert2003 import paper_table3
from calibsim.sources import BANSource, null_ban, random_ban, write_network

#: Bouckaert (2003) Table 3 (%), rows "naive Bayes", "C4.5", "difference"; columns set1..set4.
PAPER_TABLE3 = paper_table3()


@dataclass(frozen=True)
class SearchSettings:
    """Parameters of :func:`search_networks` (all recorded with its results).

    Attributes
    ----------
    seed : int
        Root entropy of the search: candidate c is drawn from
        ``SeedSequence(seed, spawn_key=(2, c))``, Set 1 from ``spawn_key=(1,)``.
    n_candidates : int
        Random networks screened.
    screen_datasets : int
        Training sets per candidate in the screening (the first of the study's).
    n_confirm : int
        Candidates per target confirmed with ``confirm_datasets`` training sets.
    confirm_datasets : int
        Training sets of the confirmation (Bouckaert: 1000).
    tolerance : float
        Accepted |gap - target| in percentage points after confirmation.
    screen_window : float
        Candidates with |screening gap - target| above this are not confirmed.
    accuracy_weight : float
        Weight of |naive Bayes accuracy - paper's| in the screening rank.
    selection_weight : float
        Weight of the distance to the paper's absolute accuracies in the final
        choice among confirmed candidates within tolerance.
    arcs : tuple of (int, int)
        Range (inclusive) of the number of attribute arcs.
    max_parents : tuple of int
        Values of ``max_parents`` drawn from.
    log_concentration : tuple of (float, float)
        ``log10`` range of the Beta concentration, drawn uniformly.
    study_seed, n_instances, n_test : int
        The Table 3 study's seed and sizes (screening and confirmation use its
        training and test sets, so the study reproduces the confirmed numbers).
    block_size : int
        Candidates per Dask task of the screening.
    """

    seed: int = 2003_5_2
    n_candidates: int = 4000
    screen_datasets: int = 50
    n_confirm: int = 12
    confirm_datasets: int = 1000
    tolerance: float = 0.5
    screen_window: float = 1.5
    accuracy_weight: float = 0.2
    selection_weight: float = 0.5
    arcs: tuple = (1, 17)
    max_parents: tuple = (1, 2, 3)
    log_concentration: tuple = (-1.3, 0.5)
    study_seed: int = 20030821
    n_instances: int = 300
    n_test: int = 10_000
    block_size: int = 50


def _candidate(settings: SearchSettings, c: int):
    """Parameters and network of candidate ``c`` (drawn from its own stream)."""
    rng = np.random.default_rng(np.random.SeedSequence(settings.seed, spawn_key=(2, c)))
    max_parents = int(rng.choice(settings.max_parents))
    hi = min(settings.arcs[1], sum(min(j, max_parents) for j in range(10)))
    n_arcs = int(rng.integers(settings.arcs[0], hi + 1))
    concentration = float(np.round(10 ** rng.uniform(*settings.log_concentration), 4))
    params = {"n_arcs": n_arcs, "max_parents": max_parents, "concentration": concentration}
    return params, random_ban(rng, **params)


# ----------------------------------------------------------------------------------------
# scoring a candidate with the engine


def study_doc(settings: SearchSettings, network: str, n_datasets: int) -> dict:
    """The study (as a parsed study file) that scores one network as Table 3 does."""
    return {"study": {"name": "ban_search_candidate", "seed": settings.study_seed},
            "sources": {"candidate": {"kind": "ban", "network": network,
                                      "n_instances": settings.n_instances,
                                      "n_datasets": n_datasets}},
            "learners": {"names": ["naive_bayes", "c45"]},
            "schemes": {"test": {"kind": "test_set", "n_test": settings.n_test}},
            "analysis": [{"kind": "accuracy"}]}


def network_accuracies(settings: SearchSettings, model, n_datasets: int, folder) -> np.ndarray:
    """Accuracies (%) of naive Bayes and C4.5 on training sets 0 .. n_datasets - 1 of ``model``.

    ``model`` is written as BIF into ``folder`` (named by its digest), loaded as the
    one source of :func:`study_doc` with :func:`calibsim.engine.spec.study_from_dict`
    and scored by :func:`calibsim.engine.cells.run_cell`. Returns an array of shape
    (n_datasets, 2): naive Bayes (column 0) and C4.5 (column 1).
    """
    src = BANSource(model, n_instances=settings.n_instances)
    path = (Path(folder) / f"candidate_{src.identity.split('=')[1][:16]}.bif").resolve()
    if not path.is_file():
        write_network(model, path)
    # Parsing a BIF file takes pgmpy ~0.7 s; the file holds this very network (same
    # digest, checked for the chosen ones after the round trip), so the engine's source
    # cache gets the in-memory source under the key the file would have. Without the
    # cache (if the engine drops it) the file is parsed: slower, same numbers.
    cache = getattr(engine_spec, "_SOURCE_CACHE", None)
    key = ("ban", (("n_instances", settings.n_instances), ("network", str(path))))
    if cache is not None:
        cache[key] = src
    try:
        study = engine_spec.study_from_dict(study_doc(settings, path.name, n_datasets),
                                            path.parent / "ban_search_candidate.toml")
        cell = CellSpec(study.sources[0], study.learners, study.schemes, 0, n_datasets)
        res = run_cell(cell)["test"]
    finally:
        if cache is not None:
            cache.pop(key, None)
    return 100 * (res["correct"][:, :, 0] / res["n_test"])


@dataclass(frozen=True)
class _ScreenBlock:
    settings: SearchSettings
    start: int
    stop: int

    @property
    def key(self) -> str:
        return f"ban_screen|{self.settings.seed}|{self.start}-{self.stop}"


def _screen_block(spec: _ScreenBlock) -> list:
    st = spec.settings
    rows = []
    with tempfile.TemporaryDirectory(prefix="ban_screen_") as tmp:
        for c in range(spec.start, spec.stop):
            params, model = _candidate(st, c)
            identity = BANSource(model, n_instances=st.n_instances).identity
            acc = network_accuracies(st, model, st.screen_datasets, tmp).mean(axis=0)
            rows.append({"candidate": c, **params, "identity": identity,
                         "nb_pct": acc[0], "c45_pct": acc[1], "gap_pct": acc[1] - acc[0]})
    return rows


def search_networks(settings: SearchSettings = SearchSettings(), *, targets=None,
                    n_workers=None, scheduler=None, progress=None):
    """Screen random BANs and confirm the ones nearest each target gap.

    1. Draw ``n_candidates`` networks with :func:`~calibsim.sources.random_ban`,
       each with its own ``n_arcs``, ``max_parents`` and ``concentration``
       (see :class:`SearchSettings`), and measure the C4.5 - naive Bayes gap on
       ``screen_datasets`` training sets.
    2. Per target, rank the candidates within ``screen_window`` of the target gap
       by ``|gap - target| + accuracy_weight * |NB - NB_paper|`` and confirm the
       best ``n_confirm`` with ``confirm_datasets`` training sets.
    3. Among confirmed candidates within ``tolerance``, choose the one with the
       smallest ``|gap - target| + selection_weight * (|NB - NB_paper| +
       |C4.5 - C4.5_paper|)``; if none is within tolerance, the one with the
       smallest |gap - target|.

    Parameters
    ----------
    settings : SearchSettings
    targets : dict, optional
        ``{label: (nb_pct, c45_pct, gap_pct)}``; default: Table 3's Sets 2-4 (the
        target gap is the paper's "difference" row: 2.77, 5.83, 11.27).
    n_workers, scheduler : optional
        Dask execution of the screening (``n_workers=0``: here), as for
        :func:`calibsim.engine.runner.cluster`.
    progress : callable, optional
        ``progress(done, total)`` during the screening.

    Returns
    -------
    screen : pandas.DataFrame
        One row per candidate: parameters, identity, screening accuracies.
    chosen : dict of str to dict
        Per target label: ``candidate``, parameters, ``model`` (pgmpy network),
        ``nb_pct``, ``c45_pct``, ``gap_pct`` and their ``*_se_pct`` after
        confirmation, ``within_tolerance``, and ``confirmed`` (a DataFrame of
        all confirmed candidates of that target).
    """
    if targets is None:
        targets = {s: tuple(float(PAPER_TABLE3.loc[q, s])
                            for q in ("naive Bayes", "C4.5", "difference"))
                   for s in ("set2", "set3", "set4")}
    st = settings
    blocks = [_ScreenBlock(st, s, min(s + st.block_size, st.n_candidates))
              for s in range(0, st.n_candidates, st.block_size)]
    rows, done = [], [0]

    def on_result(spec, result):
        rows.extend(result)
        done[0] += spec.stop - spec.start
        if progress is not None:
            progress(done[0], st.n_candidates)

    if __name__ != "__main__" and (n_workers != 0 or scheduler is not None):
        import cloudpickle            # workers cannot import this script: send it by value
        cloudpickle.register_pickle_by_value(sys.modules[__name__])
    with cluster(scheduler=scheduler, n_workers=n_workers) as client:
        map_blocks(_screen_block, blocks, client=client, on_result=on_result)
    screen = pd.DataFrame(rows).sort_values("candidate", ignore_index=True)
    chosen = {}
    with tempfile.TemporaryDirectory(prefix="ban_confirm_") as tmp:
        for label, (nb_ref, c45_ref, target) in targets.items():
            chosen[label] = _confirm(st, screen, label, nb_ref, c45_ref, target, tmp)
    return screen, chosen


def _confirm(st, screen, label, nb_ref, c45_ref, target, folder) -> dict:
    dist = (screen["gap_pct"] - target).abs()
    score = dist + st.accuracy_weight * (screen["nb_pct"] - nb_ref).abs()
    pool = screen.assign(score=score)[dist <= st.screen_window].sort_values(
        ["score", "candidate"]).head(st.n_confirm)
    confirmed = []
    for c in pool["candidate"]:
        params, model = _candidate(st, int(c))
        acc = network_accuracies(st, model, st.confirm_datasets, folder)
        d = acc[:, 1] - acc[:, 0]
        n = acc.shape[0]
        confirmed.append({"candidate": int(c), **params, "model": model,
                          "identity": BANSource(model, n_instances=st.n_instances).identity,
                          "nb_pct": acc[:, 0].mean(), "c45_pct": acc[:, 1].mean(),
                          "gap_pct": d.mean(),
                          "nb_se_pct": acc[:, 0].std(ddof=1) / np.sqrt(n),
                          "c45_se_pct": acc[:, 1].std(ddof=1) / np.sqrt(n),
                          "gap_se_pct": d.std(ddof=1) / np.sqrt(n),
                          "target_gap_pct": target,
                          "within_tolerance": abs(d.mean() - target) <= st.tolerance,
                          "abs_distance_pct": abs(acc[:, 0].mean() - nb_ref)
                          + abs(acc[:, 1].mean() - c45_ref)})
    if not confirmed:
        raise ValueError(f"no screened candidate lies within `screen_window` = "
                         f"{st.screen_window} of the {label} gap {target:.2f}; screen more "
                         f"candidates or widen the window.")
    conf = pd.DataFrame(confirmed)
    ok = conf[conf["within_tolerance"]]
    ok = ok.assign(select=(ok["gap_pct"] - target).abs()
                   + st.selection_weight * ok["abs_distance_pct"])
    best = (ok.sort_values(["select", "candidate"]).iloc[0] if len(ok)
            else conf.assign(e=(conf["gap_pct"] - target).abs()).sort_values("e").iloc[0])
    return {**best.drop(["select", "e"], errors="ignore").to_dict(),
            "confirmed": conf.drop(columns="model")}


def set1_network(settings: SearchSettings = SearchSettings()):
    """Set 1 (no arcs, attributes independent of the class), from the search seed."""
    return null_ban(np.random.SeedSequence(settings.seed, spawn_key=(1,)))


# ----------------------------------------------------------------------------------------
# the driver


def main(argv=None) -> int:
    default = SearchSettings()
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seed", type=int, default=default.seed)
    p.add_argument("--n-candidates", type=int, default=default.n_candidates)
    p.add_argument("--screen-datasets", type=int, default=default.screen_datasets)
    p.add_argument("--confirm-datasets", type=int, default=default.confirm_datasets)
    p.add_argument("--n-confirm", type=int, default=default.n_confirm,
                   help="candidates confirmed per target")
    p.add_argument("--n-test", type=int, default=default.n_test,
                   help="test-set size (the Table 3 study's: 10000)")
    p.add_argument("--screen-window", type=float, default=default.screen_window)
    p.add_argument("--tolerance", type=float, default=default.tolerance)
    p.add_argument("--workers", type=int, default=None,
                   help="local Dask workers (default: all cores; 0 = no Dask)")
    p.add_argument("--out", type=Path, default=Path("studies/networks"))
    args = p.parse_args(argv)
    settings = replace(default, seed=args.seed, n_candidates=args.n_candidates,
                       screen_datasets=args.screen_datasets,
                       confirm_datasets=args.confirm_datasets, n_confirm=args.n_confirm,
                       n_test=args.n_test, screen_window=args.screen_window,
                       tolerance=args.tolerance)
    t0 = time.perf_counter()
    screen, chosen = search_networks(settings, n_workers=args.workers)
    wall = time.perf_counter() - t0
    write_outputs(settings, screen, chosen, args.out, wall)
    return 0


def write_outputs(settings: SearchSettings, screen, chosen, out, wall) -> dict:
    """Write the networks, the search tables, the log and the README; returns the log."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    screen.to_csv(out / "search_screen.csv", index=False, float_format="%.6g")
    pd.concat([c["confirmed"].assign(target=label) for label, c in chosen.items()]).to_csv(
        out / "search_confirmed.csv", index=False, float_format="%.6g")

    nets = {"set1": {"model": set1_network(settings), "candidate": None}}
    nets.update(chosen)
    log = {"settings": asdict(settings), "wall_seconds": round(wall, 1),
           "python": platform.python_version(), "sets": {}}
    for label, info in nets.items():
        path = write_network(info["model"], out / f"{label}.bif")
        ident = BANSource(path, n_instances=settings.n_instances).identity
        expect = BANSource(info["model"], n_instances=settings.n_instances).identity
        if ident != expect:            # the file must be the network that was measured
            raise RuntimeError(f"{path}: identity changed on the BIF round trip.")
        entry = {"file": path.name, "identity": ident}
        if info["candidate"] is not None:
            entry.update({k: info[k] for k in (
                "candidate", "n_arcs", "max_parents", "concentration", "nb_pct", "c45_pct",
                "gap_pct", "nb_se_pct", "c45_se_pct", "gap_se_pct", "target_gap_pct")})
            entry = {k: (float(v) if hasattr(v, "dtype") and v.dtype.kind == "f" else
                         int(v) if hasattr(v, "dtype") else v) for k, v in entry.items()}
            entry["within_tolerance"] = bool(info["within_tolerance"])
        log["sets"][label] = entry
    (out / "search_log.json").write_text(json.dumps(log, indent=2) + "\n", encoding="utf-8")

    lines = ["# Bayesian networks of Bouckaert (2003) Sets 1-4\n\n",
             "Written by `python scripts/search_ban_networks.py` (seed "
             f"{settings.seed}; settings in `search_log.json`; search wall time "
             f"{wall:.0f} s). Binary class `class` (P = 0.5) and binary attributes "
             "`a0`..`a9`. Set 1: no arcs, attributes independent of the class, "
             "P(a_j = 1) ~ Uniform(0, 1). Sets 2-4: class -> every attribute plus random "
             "attribute arcs (see `calibsim.sources.random_ban`), chosen so that the C4.5 - "
             "naive Bayes accuracy gap (training sets of "
             f"{settings.n_instances}, one {settings.n_test:,}-instance test set, "
             f"{settings.confirm_datasets} training sets, seed {settings.study_seed}) "
             f"matches Table 3 within ±{settings.tolerance} points.\n\n",
             "| set | arcs | max parents | concentration | NB % | C4.5 % | gap % | paper NB / "
             "C4.5 / gap |\n|---|---|---|---|---|---|---|---|\n"]
    for label, e in log["sets"].items():
        if label == "set1":
            continue
        ref = PAPER_TABLE3[label] if label in PAPER_TABLE3.columns else None
        paper = ("" if ref is None else
                 f"{ref['naive Bayes']:.2f} / {ref['C4.5']:.2f} / {ref['difference']:.2f}")
        lines.append(f"| {label} | {e['n_arcs']} | {e['max_parents']} | {e['concentration']} | "
                     f"{e['nb_pct']:.2f} ± {e['nb_se_pct']:.2f} | "
                     f"{e['c45_pct']:.2f} ± {e['c45_se_pct']:.2f} | "
                     f"{e['gap_pct']:.2f} ± {e['gap_se_pct']:.2f} | {paper} |\n")
    (out / "README.md").write_text("".join(lines), encoding="utf-8")
    print("".join(lines))
    return log


if __name__ == "__main__":
    sys.exit(main())
