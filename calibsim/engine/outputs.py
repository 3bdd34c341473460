"""Generic tables and figures of a study's analyses, drawn from the tidy tables.

Every analysis gets ``<study>_<analysis>.csv`` (tidy, all columns) and ``.md``;
analyses with something to plot get a PNG: calibrated df against runs
(``calibrate``), the rate against runs or the sources' grid value with 95%
Clopper–Pearson bars (``rejection_rate``), consistency per test (``replicability``)
and accuracy per learner with ±2 SE (``accuracy``). Tests are faceted (one panel
per test), so error bars of different tests never stack.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

__all__ = ["write_tables", "write_figures"]


def write_tables(study, tables: dict, folder: Path) -> dict:
    """Write every analysis table as CSV and Markdown; returns ``{label: path}``."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name, table in tables.items():
        csv = folder / f"{study.name}_{name}.csv"
        table.to_csv(csv, index=False, float_format="%.6g")
        md = csv.with_suffix(".md")
        md.write_text(f"# {study.title}: {name}\n\n" + (
            table.to_markdown(index=False, floatfmt=".4g") if len(table) else "(empty)") + "\n",
            encoding="utf-8")
        paths[f"{name}.csv"], paths[f"{name}.md"] = csv, md
    return paths


def _facets(n, n_cols=3, sharey=False):
    import matplotlib.pyplot as plt
    n_cols = min(n_cols, n)
    n_rows = -(-n // n_cols)
    fig, axes = plt.subplots(n_rows, n_cols, figsize=(4.2 * n_cols, 3.3 * n_rows),
                             layout="constrained", squeeze=False, sharey=sharey)
    for ax in axes.ravel()[n:]:
        ax.set_visible(False)
    return fig, axes.ravel()[:n]


def _x_axis(table):
    """The column that varies: runs, else the first grid column that varies, else the source."""
    if table.groupby("label", sort=False)["n_runs"].nunique().max() > 1:
        return "n_runs", "runs r"           # runs vary within a test, not only between schemes
    shared = {"source", "group", "pair_a", "pair_b", "test", "label", "scheme", "n_runs",
              "n_folds", "alpha", "df", "df_rule", "rate", "mc_se", "ci_low", "ci_high", "n"}
    for col in table.columns:
        if col not in shared and table[col].nunique() > 1:
            return col, col.replace("_", " ")
    return "source", "source"


def _plot_calibrate(table, ax_list):
    import matplotlib
    cmap = matplotlib.colormaps["tab10"]
    for ax, (alpha, g) in zip(ax_list, table.groupby("alpha")):
        for i, (label, h) in enumerate(g.groupby("label", sort=False)):
            ax.plot(h["n_runs"], h["calibrated_df"], marker="o", ms=3,
                    color=cmap(i % 10), ls="-" if i < 10 else "--", label=label)
        ax.set(title=f"α = {alpha:g}", xlabel="runs r", ylabel="calibrated df")
    ax_list[0].legend(fontsize=7, frameon=False)


def _plot_rate(table, ax_list, xcol, xlabel, ylabel):
    """One panel per test; one line per source (or source group), pair and α."""
    import matplotlib
    cmap = matplotlib.colormaps["tab10"]
    who = "group" if xcol not in ("n_runs", "source") else "source"
    parts = [who] + [c for c in ("pair_a", "pair_b", "alpha") if table[c].nunique() > 1]
    series = table[parts].astype(str).agg(", ".join, axis=1)
    table = table.assign(_series=series)
    for ax, (label, g) in zip(ax_list, table.groupby("label", sort=False)):
        for i, (name, h) in enumerate(g.groupby("_series", sort=False)):
            x = h[xcol].to_numpy()
            xs = np.arange(len(x)) if x.dtype == object else x
            y = 100 * h["rate"].to_numpy()
            err = [y - 100 * h["ci_low"].to_numpy(), 100 * h["ci_high"].to_numpy() - y]
            ax.errorbar(xs, y, yerr=err, marker="o", ms=3, capsize=2, color=cmap(i % 10),
                        ls="-" if i < 10 else "--", label=name)
            if x.dtype == object:
                ax.set_xticks(xs, x, rotation=20, ha="right", fontsize=7)
        for alpha in g["alpha"].unique():
            ax.axhline(100 * alpha, ls=":", lw=1, color="0.3")
        ax.set(title=label, xlabel=xlabel, ylabel=ylabel)
        ax.grid(True, lw=0.3, color="0.85")
    ax_list[0].legend(fontsize=7, frameon=False)


def write_figures(study, analyses_specs, tables: dict, folder: Path) -> dict:
    """One PNG per analysis with something to plot; returns ``{label: path}``."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for a in analyses_specs:
        table = tables.get(a.name)
        if table is None or table.empty or a.kind == "calibrate_rho":
            continue
        if a.kind == "calibrate":
            if table["n_runs"].nunique() < 2:
                continue
            fig, axes = _facets(table["alpha"].nunique())
            _plot_calibrate(table, axes)
        elif a.kind == "rejection_rate":
            xcol, xlabel = _x_axis(table)
            fig, axes = _facets(table["label"].nunique(), sharey=True)
            _plot_rate(table.sort_values(xcol, kind="stable") if xcol != "source" else table,
                       axes, xcol, xlabel, "rejection rate (%), 95% Clopper–Pearson")
        elif a.kind == "replicability":
            g = table.groupby("label", sort=False)["consistent"].min()
            fig, ax = plt.subplots(figsize=(7, 3.5), layout="constrained")
            ax.barh(np.arange(len(g)), 100 * g.to_numpy(), color="0.5")
            ax.set_yticks(np.arange(len(g)), g.index, fontsize=8)
            ax.set(xlabel="consistent (%), minimum over sources, α and runs",
                   title=f"{study.name}: replicability")
        else:
            fig, ax = plt.subplots(figsize=(7, 3.5), layout="constrained")
            for i, (src, g) in enumerate(table.groupby("source", sort=False)):
                ax.errorbar(np.arange(len(g)) + 0.08 * i, 100 * g["accuracy"],
                            yerr=200 * g["accuracy_se"].fillna(0), fmt="o", capsize=3,
                            label=src)
                ax.set_xticks(np.arange(len(g)), g["learner"])
            ax.set(ylabel="accuracy (%) ± 2 SE", title=f"{study.name}: accuracy")
            ax.legend(fontsize=7, frameon=False)
        path = folder / f"{study.name}_{a.name}.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        paths[f"{a.name}.png"] = path
    return paths
