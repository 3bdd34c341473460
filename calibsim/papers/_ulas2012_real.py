"""Ulaş et al. (2012) §4 on the data sets obtainable offline: Multi²Test orders of our run
beside the paper's (the ``real`` layout of :mod:`calibsim.papers.ulas2012`).

Training time as a cost (§4.5.1) is not timed during the run: a cost that moves with the
machine's load would move the published order. It comes from a tracked table measured
once over repeats (``studies/ulas2012_real_training_time.csv``, written by
``scripts/measure_ulas2012_training_time.py``), and the report says how stable the order
is under the spread of the repeats.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from ._ulas2012_tables import AVERAGE_RANKS, LEARNERS, PRIOR

__all__ = ["write_real", "cost_summary", "cost_table_path", "order_stability"]

#: Draws of the repeats in the stability analysis (Monte Carlo SE of a share <= 1.6 points).
N_DRAWS = 1000


def _name(label: str) -> str:
    m = re.search(r"name=([^\]#,]+)", label)
    return m.group(1) if m else label


def _restrict(order, learners):
    return tuple(x for x in order if x in learners)


def _kendall(a, b) -> float:
    pos = {x: i for i, x in enumerate(b)}
    return float(stats.kendalltau(range(len(a)), [pos[x] for x in a]).statistic)


def cost_table_path(study) -> Path:
    """The tracked training-time table of ``study``: ``<study file stem>_training_time.csv``
    beside the study file."""
    return Path(study.path).with_name(f"{Path(study.path).stem}_training_time.csv")


def _cost_matrix(times: pd.DataFrame, datasets, learners, column="fit_seconds"):
    """(repeats, data sets, learners) array of the measured seconds."""
    wide = times.pivot_table(index=["repeat", "dataset"], columns="learner", values=column)
    reps = sorted(times["repeat"].unique())
    out = np.empty((len(reps), len(datasets), len(learners)))
    for k, r in enumerate(reps):
        out[k] = wide.loc[r].reindex(index=list(datasets), columns=list(learners)).to_numpy()
    return out


def cost_summary(times: pd.DataFrame) -> pd.DataFrame:
    """Per learner: the normalised cost Multi²Test's second pass uses, mean and SD over
    the repeats, and the fit seconds summed over the data sets (mean and SD)."""
    from ..stats import normalised_cost
    learners = list(dict.fromkeys(times["learner"]))
    datasets = list(dict.fromkeys(times["dataset"]))
    cube = _cost_matrix(times, datasets, learners)
    norm = np.array([normalised_cost(c) for c in cube])
    total = cube.sum(axis=1)
    sd = (lambda a: a.std(axis=0, ddof=1)) if len(cube) > 1 else (
        lambda a: np.full(a.shape[1], np.nan))
    return pd.DataFrame({"learner": learners,
                         "normalised cost (mean)": norm.mean(axis=0),
                         "normalised cost (SD over repeats)": sd(norm),
                         "fit seconds, all data sets (mean)": total.mean(axis=0),
                         "fit seconds (SD over repeats)": sd(total)}).sort_values(
        "normalised cost (mean)", kind="stable")


def order_stability(accuracy: pd.DataFrame, times: pd.DataFrame, *, seed,
                    n_draws: int = N_DRAWS, paper_order=None):
    """How the Multi²Test order moves under the spread of the measured costs.

    Each draw takes, for every data set and learner, the time of one repeat chosen at
    random (``SeedSequence(seed)``), and reruns Multi²Test with those costs.

    Parameters
    ----------
    accuracy : pandas.DataFrame
        Long table ``dataset, learner, fold, accuracy``.
    times : pandas.DataFrame
        The measured table (``dataset, learner, repeat, fit_seconds``).
    seed : int
    n_draws : int, default :data:`N_DRAWS`
    paper_order : sequence of str, optional
        For the Kendall τ of each draw's order to the paper's.

    Returns
    -------
    (pandas.DataFrame, dict)
        One row per order found (its share of the draws, with its Kendall τ to the
        paper's), most frequent first; and the order with the repeats' mean cost with
        its share.
    """
    from ..ranking import rank
    learners = list(dict.fromkeys(accuracy["learner"]))
    datasets = list(dict.fromkeys(accuracy["dataset"]))
    cube = _cost_matrix(times, datasets, learners)
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(37,)))
    memo = {}

    def order_of(cost):
        # Multi²Test sees the costs only through each data set's order and the order of
        # the normalised mean: draws that agree on those give the same result
        norm = (cost / cost.sum(axis=1, keepdims=True)).mean(axis=0)
        key = (tuple(map(tuple, np.argsort(cost, axis=1, kind="stable"))),
               tuple(np.argsort(norm, kind="stable")))
        if key not in memo:
            c = pd.DataFrame(cost, index=datasets, columns=learners).stack()
            c.index.names = ["dataset", "learner"]
            t = accuracy.merge(c.rename("cost").reset_index(), on=["dataset", "learner"])
            memo[key] = tuple(rank(t, score="accuracy", cost="cost", tie_correction=False).order)
        return memo[key]

    mean_order = order_of(cube.mean(axis=0))
    counts = {}
    pick = np.arange(len(datasets))[:, None], np.arange(len(learners))[None, :]
    for _ in range(n_draws):
        k = rng.integers(0, cube.shape[0], size=(len(datasets), len(learners)))
        o = order_of(cube[k, pick[0], pick[1]])
        counts[o] = counts.get(o, 0) + 1
    rows = [{"Multi2Test order": ", ".join(o), "share of draws": n / n_draws,
             "Kendall tau to the paper": round(_kendall(o, paper_order), 3)
             if paper_order is not None else np.nan,
             "the order with the mean cost": o == mean_order}
            for o, n in sorted(counts.items(), key=lambda kv: -kv[1])]
    return pd.DataFrame(rows), {"order": mean_order,
                                "share": counts.get(mean_order, 0) / n_draws}


def write_real(*, study, tables, scores, folder, wall=None, calibrations=None):
    """Friedman, Bergmann–Hommel and Multi²Test on the study's 5x2 cv accuracies, with
    two prior cost orders: training time measured once over repeats (the tracked
    :func:`cost_table_path`, normalised per data set and averaged, as the paper's
    §4.5.1) and the paper's own space order (§4.5.2; our model sizes are not comparable
    across learner families: scikit-learn's SVMs, MLP and k-NN have no size we measure).
    Writes ``<name>_orders.csv``/``.md``, ``<name>_order_stability.csv``,
    ``<name>_cd.png`` and ``<name>_report.md``.

    Raises
    ------
    FileNotFoundError
        If the training-time table is missing (naming the script that measures it).
    """
    from ..plotting._style import finish_figure, reduced_size, save_figure
    from ..ranking import rank, scores_from_study
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    scheme = study.schemes[0].name
    acc = scores_from_study(scores, scheme=scheme)
    acc["dataset"] = acc["dataset"].map(_name)
    learners = tuple(lrn.label for lrn in study.learners)
    cost_path = cost_table_path(study)
    if not cost_path.is_file():
        raise FileNotFoundError(f"study {study.name!r}: the training-time table {cost_path} is "
                                "missing; measure it once with `python "
                                "scripts/measure_ulas2012_training_time.py`.")
    times = pd.read_csv(cost_path)
    times = times[times["dataset"].isin(set(acc["dataset"])) & times["learner"].isin(learners)]
    mean_cost = times.groupby(["dataset", "learner"], as_index=False)["fit_seconds"].mean()
    timed = acc.merge(mean_cost.rename(columns={"fit_seconds": "cost"}),
                      on=["dataset", "learner"], how="left")
    if timed["cost"].isna().any():
        missing = sorted(set(timed.loc[timed["cost"].isna(), "dataset"]))
        raise ValueError(f"the training-time table {cost_path} has no time for data sets "
                         f"{missing}; measure it again for this study.")
    time_key = "training time (measured once, mean of the repeats)"
    # Ulaş et al. (2012, §2.2) use Friedman's statistic without tie correction (Demšar 2006)
    runs = {time_key: rank(timed, score="accuracy", cost="cost", tie_correction=False),
            "space (the paper's §4.5.2 order)":
            rank(acc, score="accuracy", cost=list(_restrict(PRIOR["table8"], learners)),
                 tie_correction=False)}
    paper = {time_key: _restrict(PRIOR["table7"], learners),
             "space (the paper's §4.5.2 order)": _restrict(PRIOR["table8"], learners)}
    rows = []
    for what, res in runs.items():
        m2 = res.multi2test
        rows.append({"prior cost": what, "prior order (ours)": " < ".join(m2.prior_order),
                     "Multi2Test order (ours)": ", ".join(res.order),
                     "Multi2Test order (paper, without mdt)": ", ".join(paper[what]),
                     "Kendall tau": round(_kendall(res.order, paper[what]), 3),
                     "overrides (ours)": len(m2.second_pass.overrides)})
    frame = pd.DataFrame(rows)
    stability, mean = order_stability(acc, times, seed=study.seed,
                                      paper_order=paper[time_key])
    n_rep = int(times["repeat"].nunique())
    paths = {"orders.csv": folder / f"{study.name}_orders.csv",
             "orders.md": folder / f"{study.name}_orders.md",
             "stability.csv": folder / f"{study.name}_order_stability.csv",
             "cd": folder / f"{study.name}_cd.png",
             "report": folder / f"{study.name}_report.md"}
    frame.to_csv(paths["orders.csv"], index=False)
    paths["orders.md"].write_text(frame.to_markdown(index=False) + "\n", encoding="utf-8")
    stability.to_csv(paths["stability.csv"], index=False, float_format="%.6g")
    timed_res = runs[time_key]
    acc_means = acc.groupby(["dataset", "learner"])["accuracy"].mean().unstack()[list(learners)]
    plain = rank(acc_means, cost=list(learners), tie_correction=False)
    ax = plain.plot_cd_diagram()
    finish_figure(ax.figure, f"Ulaş, Yıldız & Alpaydın (2012) §4, ours: average accuracy "
                  f"ranks of {len(learners)} learners on {len(acc_means)} data sets",
                  subtitle="5 x 2 cv mean accuracies; a bar joins learners Bergmann–Hommel "
                           "cannot separate", reduced=reduced_size(study))
    save_figure(ax.figure, paths["cd"], dpi=150)
    theirs = dict(zip(LEARNERS, AVERAGE_RANKS["table5"]))
    ranks = pd.DataFrame({"learner": learners,
                          "average accuracy rank (ours)": np.round(plain.average_ranks, 2),
                          "paper Table 5(a) (8 learners)": [theirs[x] for x in learners]})
    summary = cost_summary(times)
    taus = stability["Kendall tau to the paper"].to_numpy(dtype=float)
    shares = stability["share of draws"].to_numpy(dtype=float)
    lines = [f"# {study.title}\n\n",
             f"{len(acc_means)} data sets x {len(learners)} learners, 5 x 2 cv. mdt "
             "(multivariate tree) is left out: no library has it. Differences from the "
             "paper's set-up are in the study file's header.\n\n",
             f"Wall time of this run: {wall:.1f} s.\n\n" if wall is not None else "",
             "## Average ranks of the mean accuracies (Table 5(a))\n\n",
             ranks.to_markdown(index=False), "\n\n",
             "Friedman and Bergmann–Hommel on the mean accuracies:\n\n```\n", str(plain),
             "\n```\n\n## Multi²Test orders beside the paper's (Tables 7 and 8)\n\n",
             frame.to_markdown(index=False), "\n\n",
             "## Training time as the cost: measured once, and how stable the order is\n\n",
             f"The training times are not timed during the run (they move with the "
             f"machine's load, and so would the order): they come from "
             f"`studies/{cost_path.name}`, fit seconds of every learner on every data set "
             f"measured in {n_rep} repeats by `scripts/measure_ulas2012_training_time.py`. "
             "The prior cost is each data set's mean over the repeats. Per learner, "
             "the normalised cost of Multi²Test's second pass with its spread over the "
             "repeats:\n\n", summary.to_markdown(index=False, floatfmt=".4g"), "\n\n",
             f"Stability: {N_DRAWS} draws, each taking for every data set and learner the "
             f"time of one of the {n_rep} repeats at random (SeedSequence({study.seed}, "
             f"spawn_key=(37,))), rerun Multi²Test. The order with the mean cost, "
             f"{', '.join(mean['order'])}, comes out in {100 * mean['share']:.1f}% of the "
             f"draws; {len(stability)} different orders in all, Kendall τ to the paper's "
             f"from {np.nanmin(taus):.3f} to {np.nanmax(taus):.3f} (share-weighted mean "
             f"{float(np.nansum(taus * shares)):.3f}). Every order found "
             f"(`{paths['stability.csv'].name}`):\n\n",
             stability.to_markdown(index=False, floatfmt=".3g"), "\n\n",
             "With training time as the cost:\n\n```\n", str(timed_res), "\n```\n"]
    paths["report"].write_text("".join(lines), encoding="utf-8")
    return paths
