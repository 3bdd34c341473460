"""Generic tables and figures of a study's analyses, drawn from the tidy tables.

Every analysis gets ``<study>_<analysis>.csv`` (tidy, all columns) and ``.md``;
analyses with something to plot get a PNG: calibrated df against runs
(``calibrate``), the rate against runs or the sources' grid value with 95%
Clopper–Pearson bars, or a dot plot of the series when nothing varies along x
(``rejection_rate``), replicability R ± 2 SE against runs (averaged over the data
sets of a real-data group, per source for simulated ones; ``replicability``) and
accuracy per learner with ±2 SE (``accuracy``). Tests are faceted (one panel per
test, at most eight series per panel, more panels otherwise), in Okabe & Ito's
colour-blind-safe palette with distinct markers and dashes, legends outside the
data. An analysis with nothing finite to draw gets no figure.
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
    fig, axes = plt.subplots(n_rows, n_cols, figsize=(max(4.2 * n_cols, 7.0), 3.4 * n_rows),
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
        if col not in shared and table[col].nunique() > 1 and table[col].notna().all():
            return col, col.replace("_", " ")
    return "source", "source"


#: Okabe & Ito's colour-blind-safe palette (black last), with distinct markers and dashes,
#: so that at most eight series per panel stay apart in colour and in grey.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
           "#000000")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
DASHES = ("-", "--", "-.", ":", "-", "--", "-.", ":")
MAX_SERIES = 8


def _style(i):
    return {"color": PALETTE[i % 8], "marker": MARKERS[i % 8], "ls": DASHES[i % 8]}


def _short(names):
    """The names without the prefix and suffix they all share (cut at ', ', '[' or '=')."""
    import os
    names = [str(n) for n in names]
    if len(names) < 2:
        return names
    pre = os.path.commonprefix(names)
    cut = max(pre.rfind(c) + len(c) for c in (", ", "[", "=")) if pre else 0
    suf = os.path.commonprefix([n[::-1] for n in names])[::-1]
    cut_end = (min([j for j in (suf.find(", "), suf.find("]")) if j >= 0], default=len(suf))
               if suf else 0)
    end = len(suf) - cut_end if suf else 0
    out = [n[max(cut, 0):len(n) - end if end else None] for n in names]
    return out if all(out) and len(set(out)) == len(out) else names


def _tidy_ylabels(ax_list):
    """The y label on the first column only (the panels share their y axis)."""
    for ax in ax_list:
        spec = ax.get_subplotspec()
        if spec is not None and not spec.is_first_col():
            ax.set_ylabel("")


def _legend_outside(fig, ax_list):
    handles, labels = [], []
    for ax in ax_list:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    if labels:
        fig.legend(handles, labels, loc="outside right upper", fontsize=7, frameon=False)


def _chunks(table, by, size=MAX_SERIES):
    """``table`` split so that no chunk holds more than ``size`` values of ``by``."""
    names = list(dict.fromkeys(table[by]))
    for i in range(0, len(names), size):
        keep = set(names[i:i + size])
        yield (i // size, len(names) > size), table[table[by].isin(keep)]


def _plot_calibrate(table, ax_list):
    for ax, (alpha, g) in zip(ax_list, table.groupby("alpha")):
        for i, (label, h) in enumerate(g.groupby("label", sort=False)):
            ax.plot(h["n_runs"], h["calibrated_df"], ms=3, label=label, **_style(i))
        ax.set(title=f"α = {alpha:g}", xlabel="runs r", ylabel="calibrated df")
        ax.grid(True, lw=0.3, color="0.85")


def _series(table, who):
    parts = [who] + [c for c in ("pair_a", "pair_b", "alpha") if table[c].nunique() > 1]
    return table.assign(_series=table[parts].astype(str).agg(", ".join, axis=1))


def _panels_rate(table, xcol):
    """(title, rows) per panel: one test each, at most eight series."""
    who = "group" if xcol not in ("n_runs", "source") else "source"
    table = _series(table, who)
    out = []
    for label, g in table.groupby("label", sort=False):
        for (k, split), h in _chunks(g, "_series"):
            out.append((f"{label} ({k + 1})" if split else label, h))
    return out


def _plot_rate(panels, ax_list, xcol, xlabel, ylabel):
    """Lines against ``xcol`` with 95% intervals; a dot plot of the series when x is one value."""
    for ax, (title, g) in zip(ax_list, panels):
        single = g.groupby("_series", sort=False)[xcol].nunique().max() <= 1
        if single:          # nothing varies along x: the series themselves are the categories
            names = list(dict.fromkeys(g["_series"]))
            for i, name in enumerate(names):
                h = g[g["_series"] == name]
                y = 100 * h["rate"].to_numpy()
                err = [y - 100 * h["ci_low"].to_numpy(), 100 * h["ci_high"].to_numpy() - y]
                st = _style(i)
                ax.errorbar([i], y[:1], yerr=[e[:1] for e in err], capsize=2, ms=4,
                            color=st["color"], marker=st["marker"], ls="none")
            ax.set_xticks(range(len(names)), _short(names), rotation=25, ha="right",
                          fontsize=7)
            ax.set_xlim(-0.6, len(names) - 0.4)
            ax.set(title=title, ylabel=ylabel)
        else:
            for i, (name, h) in enumerate(g.groupby("_series", sort=False)):
                x = h[xcol].to_numpy()
                cat = x.dtype == object
                xs = np.arange(len(x)) if cat else x
                y = 100 * h["rate"].to_numpy()
                err = [y - 100 * h["ci_low"].to_numpy(), 100 * h["ci_high"].to_numpy() - y]
                ax.errorbar(xs, y, yerr=err, ms=3, capsize=2, label=name, **_style(i))
                if cat:
                    ax.set_xticks(xs, x, rotation=20, ha="right", fontsize=7)
            ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
        for alpha in g["alpha"].unique():
            ax.axhline(100 * alpha, ls=":", lw=1, color="0.3")
        ax.grid(True, lw=0.3, color="0.85")


def _replicability_summary(table):
    """R and consistency per test, pair, α and runs: averaged over the data sets of a group
    when each source is one data set (real data), else per source."""
    keys = ["label", "pair_a", "pair_b", "alpha", "n_runs"]
    per_source = table["n"].max() > 1
    who = "source" if per_source else "group"
    rows = []
    for key, g in table.groupby(keys + [who], sort=False):
        if per_source:
            r, se = float(g["R"].iloc[0]), float(g["R_se"].iloc[0])
            c = float(g["consistent"].iloc[0])
        else:
            r = float(g["R"].mean())
            se = float(g["R"].std(ddof=1) / np.sqrt(len(g))) if len(g) > 1 else np.nan
            c = float(g["consistent"].mean())
        rows.append(dict(zip(keys + [who], key), R=r, R_se=se, consistent=c, n=len(g)))
    import pandas as pd
    out = pd.DataFrame(rows)
    return out.assign(group=out[who]) if who == "source" else out.assign(source=out["group"])


def _replicability_panels(summary):
    """(title, rows) per panel: one test each, one series per pair (and source or α), <= 8."""
    parts = ["pair_a", "pair_b"] + [c for c in ("source", "alpha") if summary[c].nunique() > 1]
    summary = summary.assign(_series=summary[parts].astype(str).agg(", ".join, axis=1))
    panels = []
    for label, g in summary.groupby("label", sort=False):
        for (k, split), h in _chunks(g, "_series"):
            panels.append((f"{label} ({k + 1})" if split else label, h))
    return panels


def _plot_replicability(summary, panels, ax_list):
    """R (± 2 SE) against runs per test (a dot per series when runs do not vary)."""
    many_runs = summary.groupby("label")["n_runs"].nunique().max() > 1
    for ax, (title, g) in zip(ax_list, panels):
        names = list(dict.fromkeys(g["_series"]))
        for i, name in enumerate(names):
            h = g[g["_series"] == name]
            x = h["n_runs"].to_numpy() if many_runs else np.array([i])
            y = h["R"].to_numpy()
            err = 2 * np.nan_to_num(h["R_se"].to_numpy())
            st = _style(i)
            if not many_runs:           # the series are the categories: no legend needed
                st["ls"] = "none"
                ax.errorbar(x, y, yerr=err, ms=4, capsize=2, **st)
            else:
                ax.errorbar(x, y, yerr=err, ms=4, capsize=2, label=name, **st)
        if many_runs:
            ax.set(xlabel="runs r")
        else:
            ax.set_xticks(range(len(names)), _short(names), rotation=25, ha="right",
                          fontsize=7)
            ax.set_xlim(-0.6, len(names) - 0.4)
        ax.set(title=title, ylabel="replicability R (± 2 SE)", ylim=(-0.02, 1.02))
        ax.grid(True, lw=0.3, color="0.85")


def source_words(row) -> str:
    """A source of a tidy table in words: "null source (learners equally good)",
    "BAN source set1", or the source's label for other kinds."""
    group = str(row.get("group", ""))
    if group == "null":
        return "null source (learners equally good)"
    if group == "ban" and str(row.get("network", "")) not in ("", "nan"):
        return f"BAN source {row['network']}"
    return str(row["source"])


def _plot_datasets(table):
    """Decision rate against the number of data sets per comparison q at ρ = 1/k: one
    panel per threshold (rows) and source (columns), one series per test and ROPE (4),
    with ±2 Monte Carlo SE and a dotted line at 1 − threshold. Returns (fig, axes, title)."""
    import matplotlib.pyplot as plt
    t = table[(table["rho"].astype(str) == "1/k") | (table["test"] != "hierarchical")]
    sources = list(dict.fromkeys(t["source"]))
    thresholds = sorted(set(t["threshold"]))
    words = {src: source_words(t[t["source"] == src].iloc[0]) for src in sources}
    ncol = len(sources)
    fig, axes = plt.subplots(len(thresholds), ncol, figsize=(max(2.9 * ncol, 7.0),
                             2.7 * len(thresholds) + 0.6), layout="constrained",
                             squeeze=False)
    series = list(dict.fromkeys(zip(t["label"], t["rope"])))
    for row, th in enumerate(thresholds):
        for col, src in enumerate(sources):
            ax = axes[row, col]
            g = t[(t["source"] == src) & (t["threshold"] == th)]
            for i, (label, rope) in enumerate(series):
                h = g[(g["label"] == label) & (g["rope"] == rope)]
                h = h.sort_values("datasets_per_comparison")
                y, e = 100 * h["decision_rate"].to_numpy(), 200 * h["mc_se"].to_numpy()
                shift = 1.04 ** (i - (len(series) - 1) / 2)     # apart on the log axis
                ax.errorbar(h["datasets_per_comparison"] * shift, y,
                            yerr=[np.minimum(e, y), np.minimum(e, 100 - y)],
                            capsize=2, ms=4, **_style(i),
                            label=f"{label}, ROPE {100 * rope:g} point{'s' if rope != 0.01 else ''}")
            if str(g["group"].iloc[0]) == "null":
                ax.axhline(100 * (1 - th), color="0.4", lw=0.8, ls=":",
                           label="1 − threshold")
            ax.set_title(f"{words[src]}\nthreshold {th:g}", fontsize=9)
            ax.set_xscale("log")
            ticks = sorted(set(g["datasets_per_comparison"]))
            ax.set_xticks(ticks, [str(v) for v in ticks])
            ax.minorticks_off()
            lo, hi = ax.get_ylim()
            ax.set_ylim(0, 105 if hi > 50 else max(hi, 200 * (1 - th), 1.0))
            if row == len(thresholds) - 1:
                ax.set_xlabel("data sets per comparison q")
            if col == 0:
                ax.set_ylabel("decision rate (%) ± 2 SE")
            ax.grid(True, lw=0.3, color="0.85")
    n = sorted(set(int(v) for v in t["n_comparisons"]))
    title = ("How often the hierarchical and Bayesian signed-rank tests declare a learner "
             "better, by the number of data sets compared (ρ = 1/k; "
             + (f"{n[0]}–{n[-1]}" if len(n) > 1 else f"{n[0]}") + " comparisons per point)")
    handles, labels = [], []
    for ax in axes.ravel():
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    fig.legend(handles, labels, loc="outside lower center", ncol=min(len(labels), 5),
               fontsize=8, frameon=False)
    return fig, list(axes.ravel()), title


def write_figures(study, analyses_specs, tables: dict, folder: Path) -> dict:
    """One PNG per analysis with something to plot; returns ``{label: path}``."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for a in analyses_specs:
        title = None
        table = tables.get(a.name)
        if table is None or table.empty or a.kind == "calibrate_rho":
            continue
        if a.kind == "calibrate":
            if table["n_runs"].nunique() < 2 or not np.isfinite(
                    table["calibrated_df"].to_numpy(dtype=float)).any():
                continue
            fig, axes = _facets(table["alpha"].nunique())
            _plot_calibrate(table, axes)
            if table["label"].nunique() > MAX_SERIES:
                plt.close(fig)
                fig, axes = _facets(table["alpha"].nunique() * 2)
                half = list(dict.fromkeys(table["label"]))
                for k, part in enumerate((half[:len(half) // 2], half[len(half) // 2:])):
                    _plot_calibrate(table[table["label"].isin(part)],
                                    axes[k::2])
            _legend_outside(fig, axes)
        elif a.kind == "rejection_rate":
            if not np.isfinite(table["rate"].to_numpy(dtype=float)).any():
                continue
            xcol, xlabel = _x_axis(table)
            panels = _panels_rate(table.sort_values(xcol, kind="stable")
                                  if xcol != "source" else table, xcol)
            fig, axes = _facets(len(panels), sharey=True)
            what = "rejection rate" if not a.tests[0].startswith("bayes") else "decision rate"
            _plot_rate(panels, axes, xcol, xlabel, f"{what} (%), 95% Clopper–Pearson")
            _legend_outside(fig, axes)
        elif a.kind == "replicability":
            summary = _replicability_summary(table)
            if not np.isfinite(summary["R"].to_numpy(dtype=float)).any():
                continue
            panels = _replicability_panels(summary)
            fig, axes = _facets(len(panels), sharey=True)
            _plot_replicability(summary, panels, axes)
            _legend_outside(fig, axes)
        elif a.kind == "bayes_datasets":
            if not np.isfinite(table["decision_rate"].to_numpy(dtype=float)).any():
                continue
            fig, axes, title = _plot_datasets(table)
        else:
            if not np.isfinite(table["accuracy"].to_numpy(dtype=float)).any():
                continue
            several = table["scheme"].nunique() > 1
            table = table.assign(_series=table["source"].astype(str) + (
                ", " + table["scheme"].astype(str) if several else ""))
            sources = list(dict.fromkeys(table["_series"]))
            fig, axes = _facets(-(-len(sources) // MAX_SERIES))
            for ax, k in zip(axes, range(0, len(sources), MAX_SERIES)):
                part = sources[k:k + MAX_SERIES]
                learners = list(dict.fromkeys(table["learner"]))
                for i, src in enumerate(part):
                    g = table[table["_series"] == src].set_index("learner").reindex(learners)
                    st = _style(i)
                    ax.errorbar(np.arange(len(learners)) + 0.08 * (i - len(part) / 2),
                                100 * g["accuracy"], yerr=200 * g["accuracy_se"].fillna(0),
                                capsize=3, ms=4, color=st["color"], marker=st["marker"],
                                ls="none", label=src)
                ax.set_xticks(np.arange(len(learners)), learners)
                ax.set(ylabel="accuracy (%) ± 2 SE")
                ax.grid(True, lw=0.3, color="0.85")
            _legend_outside(fig, axes)
        _tidy_ylabels(axes if a.kind != "calibrate" else [])
        fig.suptitle(title or f"{study.name}: {a.name.replace('_', ' ')}", fontsize=9, x=0.02,
                     ha="left")
        path = folder / f"{study.name}_{a.name}.png"
        fig.savefig(path, dpi=110, metadata={"Software": None})
        plt.close(fig)
        paths[f"{a.name}.png"] = path
    return paths
