"""Generic tables and figures of a study's analyses, drawn from the tidy tables.

Every analysis gets ``<study>_<analysis>.csv`` (tidy, all columns) and ``.md``;
analyses with something to plot get a PNG drawn to the figure checklist
(docs/guide/figures.md): the study's title in words, names from one naming map
(:func:`calibsim.plotting.display_name`), at most eight series a panel in Okabe & Ito's
colour-blind-safe palette with distinct colour + marker pairs (more series and more
categories go to further panels), lines only along a numeric x (runs, a grid value such
as the class prior or ε, settings tried, α), what the error bars are in the title,
y ranges fitted to the data, and a reduced run stamped ``reduced run: N data sets``.

- ``calibrate``: calibrated df against runs, one panel per α;
- ``rejection_rate``: the rate (%) with 95% Clopper–Pearson intervals against the
  numeric value that varies, else a dot plot over sources, pairs or tests; when every
  rate is a single verdict (one data set per source), a grid of the verdicts;
- ``replicability``: R ± 2 Monte Carlo SE (simulated sources), or R per data set (real
  data sets, averaged over them ± 2 SE when runs or α vary);
- ``accuracy``: accuracy (%) per learner and source ± 2 SE over data sets;
- ``bayes_datasets``: decision rate (%) against the data sets per comparison, a panel
  per threshold and source, ± 2 Monte Carlo SE.

A figure that would hold fewer than five points is not drawn: its table says it better.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from ..plotting._names import _DAMAGED, axis_label, display_name, source_words
from ..plotting._style import (PALETTE, chunks, dodge, finish_figure, legend_outside,
                               new_figure, reduced_size, reference_line, render_figure,
                               save_later, series_style, share_y, write_rendered)

__all__ = ["write_tables", "write_figures", "draw_figures", "study_figures", "study_title",
           "source_words", "MIN_POINTS", "PALETTE", "TIME_COLUMNS"]

#: Fewer points than this: no figure (the table says it better).
MIN_POINTS = 5
#: At most this many categories along a categorical x axis in one panel.
MAX_CATEGORIES = 12
#: Columns that hold this machine's timings: never written to tracked tables (see
#: :func:`calibsim.engine.pipeline` run log).
TIME_COLUMNS = ("fit_time", "predict_time")


def write_tables(study, tables: dict, folder: Path) -> dict:
    """Write every analysis table as CSV and Markdown; returns ``{label: path}``.

    Wall-time columns (:data:`TIME_COLUMNS`) are left out: they change from run to run,
    so they go to the untracked run log (:func:`calibsim.engine.pipeline.run_study_file`).
    """
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name, table in tables.items():
        table = table.drop(columns=[c for c in TIME_COLUMNS if c in table.columns])
        csv = folder / f"{study.name}_{name}.csv"
        table.to_csv(csv, index=False, float_format="%.6g")
        md = csv.with_suffix(".md")
        md.write_text(f"# {study.title}: {name}\n\n" + (
            table.to_markdown(index=False, floatfmt=".4g") if len(table) else "(empty)") + "\n",
            encoding="utf-8")
        paths[f"{name}.csv"], paths[f"{name}.md"] = csv, md
    return paths


def study_title(study) -> str:
    """The study's title in words (its ``title``; the name with spaces if it has none)."""
    title = getattr(study, "title", "") or ""
    if not title or title == study.name:
        return study.name.replace("_", " ")
    return title


# ---------------------------------------------------------------------------
# dimensions of a tidy table

_PARAMS = re.compile(r"^(?P<base>[^\[\]]+)\[(?P<params>[^\[\]]*)\]$")


def _params(label) -> dict:
    m = _PARAMS.match(str(label))
    if not m:
        return {}
    return {k.strip(): v.strip() for k, v in
            (p.split("=", 1) for p in m["params"].split(",") if "=" in p)}


def _without(label, *keys) -> str:
    """``label`` without its ``key=value`` parameters (``base`` when none is left)."""
    m = _PARAMS.match(str(label))
    if not m:
        return str(label)
    rest = [p.strip() for p in m["params"].split(",") if "=" in p and
            p.split("=", 1)[0].strip() not in keys]
    return m["base"] + (f"[{', '.join(rest)}]" if rest else "")


def _numeric(values) -> bool:
    try:
        np.asarray(list(values), dtype=float)
        return True
    except (TypeError, ValueError):
        return False


class _Plan:
    """How one tidy table becomes panels: the x column, the series, the facets."""

    def __init__(self, frame, x, x_label, numeric_x, series, facets, categories=None):
        self.frame, self.x, self.x_label, self.numeric_x = frame, x, x_label, numeric_x
        self.series, self.facets, self.categories = series, facets, categories


def _dims(table: pd.DataFrame, who: str) -> pd.DataFrame:
    """The table with display columns: ``_test``, ``_source``, ``_who`` (the learner pair
    or learner), ``_alpha``, and ``_x:<key>`` for every numeric parameter that varies
    (runs, a source's grid value, a tuned learner's setting, α)."""
    t = table.copy()
    t["_test"] = t["label"].astype(str) if "label" in t.columns else ""
    src = t["source"].astype(str) if "source" in t.columns else pd.Series("", index=t.index)
    t["_src_raw"] = src
    if who == "pair":
        t["_who_raw"] = t["pair_a"].astype(str) + " vs " + t["pair_b"].astype(str)
    else:
        t["_who_raw"] = t["learner"].astype(str)
    t["_alpha"] = t["alpha"] if "alpha" in t.columns else np.nan
    return t


def _who_name(raw: str, drop=None) -> str:
    parts = raw.split(" vs ")
    return " vs ".join(display_name(_without(p, drop) if drop else p) for p in parts)


def _plan(table: pd.DataFrame, who: str = "pair") -> _Plan:
    """Choose x, series and facets for a rate, replicability or accuracy table."""
    t = _dims(table, who)
    key = ["_test", "_src_raw", "_who_raw", "_alpha"]
    numeric = []                                   # (column, label, drop from source/who)
    if "n_runs" in t.columns and t.groupby(key, dropna=False)["n_runs"].nunique().max() > 1:
        numeric.append(("n_runs", axis_label("n_runs"), None))
    src_params = pd.DataFrame([_params(s) for s in t["_src_raw"]], index=t.index)
    # numeric parameters that vary (where a source has them) are left out of the source's
    # name when one of them is x; x itself must be given by every source
    src_numeric = [c for c in src_params.columns if src_params[c].nunique() > 1
                   and _numeric(src_params[c].dropna())]
    for col in src_numeric:
        if src_params[col].notna().all():
            t[f"_x:{col}"] = src_params[col].astype(float)
            numeric.append((f"_x:{col}", axis_label(col), ("source", tuple(src_numeric))))
    who_params = pd.DataFrame([_params(w.split(" vs ")[0]) for w in t["_who_raw"]],
                              index=t.index)
    for col in who_params.columns:
        vals = who_params[col]
        if vals.nunique() > 1 and _numeric(vals.dropna()):
            t[f"_x:{col}"] = vals.astype(float)
            numeric.append((f"_x:{col}", axis_label(col), ("who", col)))
    damage = _damage_levels(t["_who_raw"])
    if damage is not None:
        t["_x:lambda"], damaged, pair = damage
        numeric.append(("_x:lambda", f"λ of damaged {damaged} (0: errors equal, the null; "
                        "1: undamaged)", ("pair", pair)))
    if t["_alpha"].nunique() > 2:
        numeric.append(("_alpha", axis_label("alpha"), ("alpha", None)))
    if numeric:
        x, x_label, drop = numeric[0]
        t["_source"] = [display_name(_without(s, *drop[1]) if drop and drop[0] == "source"
                                     else s) for s in t["_src_raw"]]
        t["_who"] = ([drop[1]] * len(t) if drop and drop[0] == "pair" else
                     [_who_name(w, drop[1] if drop and drop[0] == "who" else None)
                      for w in t["_who_raw"]])
        dims = ["_test", "_source", "_who"] + ([] if x == "_alpha" else ["_alpha"])
        varying = [d for d in dims if t[d].nunique(dropna=False) > 1]
        series = _pick_series(t, varying)
        facets = [d for d in varying if d != series]
        return _Plan(t, x, x_label, True, series, facets)
    t["_source"] = [display_name(s) for s in t["_src_raw"]]
    t["_who"] = [_who_name(w) for w in t["_who_raw"]]
    dims = ["_source", "_who", "_test", "_alpha"]
    varying = [d for d in dims if t[d].nunique(dropna=False) > 1]
    if not varying:
        return _Plan(t, "_source", "", False, None, [], categories=[])
    x = max(varying, key=lambda d: (t[d].nunique(), -dims.index(d)))
    rest = [d for d in varying if d != x]
    series = _pick_series(t, rest)
    facets = [d for d in rest if d != series]
    labels = {"_source": axis_label("source"), "_who": "learners compared" if who == "pair"
              else "learner", "_test": "test", "_alpha": axis_label("alpha")}
    if x == "_source" and "name" in table.columns:
        labels["_source"] = "data set"
    return _Plan(t, x, labels[x], False, series, facets,
                 categories=list(dict.fromkeys(t[x])))


def _damage_levels(pairs):
    """(λ per row, the damaged learner's name, the pair's name without λ) when every pair
    sets one learner against damaged copies of another (``c45_lam020``: Dietterich 1998,
    §5) at several λ, else None: λ is then a number along x, not a name repeated on
    every tick."""
    lam, damaged, names = [], set(), set()
    for raw in pairs:
        sides = raw.split(" vs ")
        hits = [_DAMAGED.match(p) for p in sides]
        if sum(m is not None for m in hits) != 1:
            return None
        m = next(h for h in hits if h is not None)
        lam.append(int(m["lam"]) / 100)
        name = display_name(m.group(0)).rsplit(", λ = ", 1)[0]
        damaged.add(name)
        names.add(" vs ".join(name if h else display_name(p) for p, h in zip(sides, hits)))
    if len(damaged) != 1 or len(names) != 1 or len(set(lam)) < 2:
        return None
    return np.array(lam), damaged.pop(), names.pop()


def _pick_series(t, varying):
    """The tests when they vary, else the dimension with the fewest values."""
    if not varying:
        return None
    if "_test" in varying:
        return "_test"
    return min(varying, key=lambda d: t[d].nunique())


_DIM_WORDS = {"_alpha": lambda v: f"α = {v:g}", "_test": str, "_source": str, "_who": str}


def _facet_title(dims, values) -> str:
    return ", ".join(_DIM_WORDS[d](v) for d, v in zip(dims, values))


def _panels(plan: _Plan):
    """(title, rows, series names of the panel, categories of the panel) per panel."""
    t = plan.frame
    groups = [((), t)] if not plan.facets else [
        (k if isinstance(k, tuple) else (k,), g)
        for k, g in t.groupby(plan.facets, sort=False, dropna=False)]
    out = []
    for key, g in groups:
        title = _facet_title(plan.facets, key) if plan.facets else ""
        names = list(dict.fromkeys(g[plan.series])) if plan.series else [None]
        parts = chunks(names) if plan.series else [[None]]
        cats = [None]
        if not plan.numeric_x:
            cats = chunks([c for c in plan.categories if c in set(g[plan.x])], MAX_CATEGORIES)
        for i, part in enumerate(parts):
            for j, cat in enumerate(cats):
                note = []
                if len(parts) > 1:
                    first = sum(map(len, parts[:i])) + 1
                    what = "tests" if plan.series == "_test" else "series"
                    note.append(f"{what} {first}–{first + len(part) - 1} of {len(names)}")
                if len(cats) > 1:
                    note.append(f"part {j + 1} of {len(cats)}")
                sub = g if part == [None] else g[g[plan.series].isin(part)]
                if cat is not None:
                    sub = sub[sub[plan.x].isin(cat)]
                full = ", ".join(s for s in (title, "; ".join(note)) if s)
                out.append((full, sub, part, cat))
    return out


# ---------------------------------------------------------------------------
# drawing

def _draw(ax, plan, rows, names, cats, style_of, *, y, err, ylabel):
    """Draw one panel: lines along a numeric x, dodged points along a categorical x."""
    for i, name in enumerate(names):
        h = rows if name is None else rows[rows[plan.series] == name]
        if h.empty:
            continue
        st = style_of(name)
        label = "_nolegend_" if name is None else str(name)
        yv = y(h)
        e = err(h)
        if plan.numeric_x:
            h_x = h[plan.x].to_numpy(dtype=float)
            if np.isnan(h_x).all():                 # no x value: a level across the panel
                ax.axhline(float(np.nanmean(yv)), color=st["color"], ls="--", lw=1.1,
                           label=label)
                continue
            order = np.argsort(h_x, kind="stable")
            if e is not None:
                e = np.asarray(e, dtype=float)
                e = e[..., order]
            ax.errorbar(h_x[order], yv[order], yerr=e, ms=4, lw=1.2, capsize=2,
                        elinewidth=0.8, label=label, **st)
        else:
            pos = {c: k for k, c in enumerate(cats)}
            xs = np.array([pos[c] for c in h[plan.x]], dtype=float) + dodge(i, len(names))
            st["ls"] = "none"
            ax.errorbar(xs, yv, yerr=e, ms=5, capsize=2, elinewidth=0.8, label=label, **st)
    if plan.numeric_x:
        xs = np.unique(rows[plan.x].dropna().to_numpy(dtype=float))
        if xs.size > 2 and (xs > 0).all() and np.allclose(xs[1:] / xs[:-1], 2):
            ax.set_xscale("log", base=2)      # doubling values (settings tried): even steps
            ax.minorticks_off()
        elif xs.size > 2 and (xs > 0).all() and xs[-1] / xs[0] >= 20 and (
                xs[1:] / xs[:-1] >= 2.5).all() and np.ptp(np.log(xs[1:] / xs[:-1])) < 0.2:
            ax.set_xscale("log")              # about even ratios (n = 100, 300, 1000, ...)
            ax.minorticks_off()
        if 1 < xs.size <= 8:                  # few values: a tick at each (α, ε, p, ...)
            ax.set_xticks(xs, [f"{v:g}" for v in xs])
    else:
        ax.set_xticks(range(len(cats)), [str(c) for c in cats],
                      rotation=30 if max(len(str(c)) for c in cats) > 6 else 0,
                      ha="right" if max(len(str(c)) for c in cats) > 6 else "center",
                      fontsize=8)
        ax.set_xlim(-0.6, len(cats) - 0.4)
    ax.set(xlabel=plan.x_label, ylabel=ylabel)


def _styles(plan):
    names = list(dict.fromkeys(plan.frame[plan.series])) if plan.series else [None]
    return {name: series_style(i, n=len(names)) for i, name in enumerate(names)}


def _grid(panels, *, categorical):
    n = len(panels)
    if categorical:
        width = max(len(p[3] or []) for p in panels) * max(len(p[2]) for p in panels)
        n_cols = 1 if width > 24 else (2 if width > 12 else 3)
        size = (min(max(0.42 * width + 2.0, 4.3), 12.0), 3.4)
        return new_figure(n, n_cols=n_cols, panel_size=size)
    return new_figure(n, n_cols=3)


def _layout(table, who="pair", *, parts_in_rows=False):
    """(plan, panels, styles, figure, axes) of a tidy table, or None below MIN_POINTS.

    ``parts_in_rows``: the panels of one facet split by series ("tests 1–5 of 9",
    "tests 6–9 of 9") go side by side in one row and share one y range (declared with
    :func:`~calibsim.plotting._style.share_y`), so they read as one comparison."""
    plan = _plan(table, who)
    panels = _panels(plan)
    if sum(len(p[1]) for p in panels) < MIN_POINTS:
        return None
    parts = {}
    for i, p in enumerate(panels):
        parts.setdefault(_SPLIT.sub("", p[0]), []).append(i)
    split = max(len(v) for v in parts.values()) > 1
    if parts_in_rows and split and plan.numeric_x:
        fig, axes = new_figure(len(panels), n_cols=max(len(v) for v in parts.values()))
        from matplotlib.ticker import MaxNLocator
        for facet, idx in parts.items():
            if len(idx) > 1:
                share_y([axes[i] for i in idx], facet or "all panels")
                # ticks at steps of 1, 2 or 5 (0.05, 0.1): no 4-decimal 0.9825
                axes[idx[0]].yaxis.set_major_locator(MaxNLocator(nbins=6, steps=[1, 2, 5, 10]))
    elif plan.x == "_x:lambda":           # one panel a pair, wide enough for its title
        fig, axes = new_figure(len(panels), n_cols=2, panel_size=(7.2, 3.3))
    else:
        fig, axes = _grid(panels, categorical=not plan.numeric_x)
    return plan, panels, _styles(plan), fig, axes


#: The note of a panel split from one facet by series: ", tests 1–5 of 9".
_SPLIT = re.compile(r"(?:,\s*)?\b(?:tests|series) \d+–\d+ of \d+")


def _alpha_line(ax, rows, lo, hi):
    """The nominal level α as a labelled reference line, where it does not stretch the
    panel's y range (a power panel far above α has none)."""
    alphas = rows["alpha"].dropna().unique() if "alpha" in rows.columns else []
    if len(alphas) != 1:
        return
    a = 100 * float(alphas[0])
    span = max(hi - lo, 1.0)
    if lo - 0.1 * span <= a <= hi + 0.1 * span:
        reference_line(ax, a, f"α = {a:g}% (nominal level)")


def _figure_rate(study, a, table, reduced):
    if not np.isfinite(table["rate"].to_numpy(dtype=float)).any():
        return None
    if "n" in table.columns and (table["n"] == 1).all():
        return _figure_verdicts(study, a, table, reduced)
    layout = _layout(table)
    if layout is None:
        return None
    plan, panels, styles, fig, axes = layout
    bayes = str(a.tests[0]).startswith("bayes")
    what = "decision rate (%)" if bayes else "rejection rate (%)"
    for ax, (title, rows, names, cats) in zip(axes, panels):
        _draw(ax, plan, rows, names, cats, styles.get,
              y=lambda h: 100 * h["rate"].to_numpy(dtype=float),
              err=lambda h: [100 * (h["rate"] - h["ci_low"]).to_numpy(dtype=float),
                             100 * (h["ci_high"] - h["rate"]).to_numpy(dtype=float)],
              ylabel=what)
        lo = 100 * float(rows["ci_low"].min())
        hi = 100 * float(rows["ci_high"].max())
        if plan.x == "_alpha":
            xs = np.sort(rows["_alpha"].unique())
            ax.plot(xs, 100 * xs, gid="reference", label="α (nominal level)",
                    color="0.35", lw=0.9, ls=":")
        else:
            _alpha_line(ax, rows, lo, hi)
        if title:
            ax.set_title(title, fontsize=9)
    legend_outside(fig, axes)
    n = int(table["n"].max()) if "n" in table.columns else None
    kind = ("decision rate of the Bayesian test" if bayes else
            "rejection rate: Type I error on null data, power otherwise")
    rules = sorted(set(table["df_rule"].dropna())) if "df_rule" in table.columns else []
    if rules and not bayes:
        kind += f"; {' and '.join(rules)} df"
    finish_figure(fig, study_title(study), subtitle=kind,
                  error_bars=f"95% Clopper–Pearson intervals over {n} data sets" if n else
                  "95% Clopper–Pearson intervals", reduced=reduced)
    return fig


def _figure_verdicts(study, a, table, reduced):
    """One verdict per data set and pair: a grid of verdicts, not rates."""
    t = _dims(table, "pair")
    t["_source"] = [display_name(s) for s in t["_src_raw"]]
    t["_who"] = [_who_name(w) for w in t["_who_raw"]]
    tests = list(dict.fromkeys(t["_test"]))
    cats = list(dict.fromkeys(t["_source"]))
    pairs = list(dict.fromkeys(t["_who"]))
    if len(cats) * len(pairs) * len(tests) < MIN_POINTS:
        return None
    fig, axes = new_figure(len(tests), n_cols=1,
                           panel_size=(max(0.8 * len(cats) + 3.0, 6.0),
                                       0.38 * len(pairs) + 1.6))
    for ax, test in zip(axes, tests):
        g = t[t["_test"] == test]
        xs = np.array([cats.index(c) for c in g["_source"]])
        ys = np.array([pairs.index(p) for p in g["_who"]])
        rej = g["rate"].to_numpy(dtype=float) > 0.5
        ax.plot(xs[rej], ys[rej], ls="none", marker="s", ms=9, color="#000000",
                label="rejects: the learners differ")
        ax.plot(xs[~rej], ys[~rej], ls="none", marker="o", ms=8, mfc="white",
                color="#000000", label="does not reject")
        ax.set_xticks(range(len(cats)), cats, rotation=30 if len(cats) > 6 else 0,
                      ha="right" if len(cats) > 6 else "center", fontsize=8)
        ax.set_yticks(range(len(pairs)), pairs, fontsize=8)
        ax.set_xlim(-0.6, len(cats) - 0.4)
        ax.set_ylim(len(pairs) - 0.5, -0.5)
        alphas = sorted(g["alpha"].unique())
        ax.set(xlabel="data set", ylabel="learners compared")
        ax.set_title(f"{test}, α = {', '.join(f'{x:g}' for x in alphas)}", fontsize=9)
        ax.grid(False)
    legend_outside(fig, axes)
    finish_figure(fig, study_title(study),
                  subtitle=f"{a.name.replace('_', ' ')}: one verdict per data set and pair "
                           "(a single test, not a rate)", reduced=reduced)
    return fig


def _replicability_frame(table):
    """Real data (one data set a source) with runs or α varying: R averaged over the data
    sets ± 2 Monte Carlo SE of that mean (the partitions' error, data sets fixed); otherwise
    the rows as they are, ± 2 Monte Carlo SE."""
    real = "n" in table.columns and (table["n"] == 1).all()
    t = table.copy()
    if not real:
        t["_y"], t["_e"] = t["R"], 2 * t["R_se"].astype(float)
        return t, False, "± 2 Monte Carlo SE of R"
    runs_vary = t.groupby(["label", "pair_a", "pair_b", "alpha"])["n_runs"].nunique().max() > 1
    if not (runs_vary or t["alpha"].nunique() > 2):
        t["_y"], t["_e"] = t["R"], np.nan
        return t, True, None
    keys = ["label", "pair_a", "pair_b", "alpha", "n_runs", "group"]
    rows = []
    for k, g in t.groupby(keys, sort=False):
        r = g["R"].to_numpy(dtype=float)
        # data sets fixed: the partitions' Monte Carlo error of the mean (issue 34)
        se = float(np.sqrt(np.sum(g["R_se"].to_numpy(dtype=float) ** 2)) / r.size)
        rows.append({**dict(zip(keys, k)), "source": g["group"].iloc[0], "R": r.mean(),
                     "_y": r.mean(), "_e": 2 * se, "n": r.size})
    return pd.DataFrame(rows), False, ("± 2 Monte Carlo SE of the mean over the data sets "
                                       "(new partitions, data sets fixed)")


def _figure_replicability(study, a, table, reduced):
    t, per_dataset, bars = _replicability_frame(table)
    if not np.isfinite(t["_y"].to_numpy(dtype=float)).any():
        return None
    layout = _layout(t, parts_in_rows=True)
    if layout is None:
        return None
    plan, panels, styles, fig, axes = layout
    for ax, (title, rows, names, cats) in zip(axes, panels):
        _draw(ax, plan, rows, names, cats, styles.get,
              y=lambda h: h["_y"].to_numpy(dtype=float),
              err=lambda h: None if not np.isfinite(h["_e"].to_numpy(dtype=float)).any()
              else np.nan_to_num(h["_e"].to_numpy(dtype=float)),
              ylabel="replicability R")
        if title:
            ax.set_title(title, fontsize=9)
    legend_outside(fig, axes)
    repeats = int(table["repeats"].max()) if "repeats" in table.columns else None
    tests = list(dict.fromkeys(table["label"]))
    sub = (f"replicability R over {repeats} repeats with new partitions" +
           (f"; {tests[0]}" if len(tests) == 1 else ""))
    rules = sorted(set(table["df_rule"].dropna())) if "df_rule" in table.columns else []
    if rules:
        sub += f", {' and '.join(rules)} df"
    if per_dataset:
        sub += "; one point per data set"
    finish_figure(fig, study_title(study), subtitle=sub, error_bars=bars, reduced=reduced)
    return fig


def _figure_accuracy(study, a, table, reduced):
    if not np.isfinite(table["accuracy"].to_numpy(dtype=float)).any():
        return None
    t = table.copy()
    if t["scheme"].nunique() > 1:
        t["source"] = t["source"].astype(str) + ", " + t["scheme"].astype(str)
    t["label"] = ""
    layout = _layout(t, who="learner")
    if layout is None:
        return None
    plan, panels, styles, fig, axes = layout
    has_se = np.isfinite(t["accuracy_se"].to_numpy(dtype=float)).any()
    for ax, (title, rows, names, cats) in zip(axes, panels):
        _draw(ax, plan, rows, names, cats, styles.get,
              y=lambda h: 100 * h["accuracy"].to_numpy(dtype=float),
              err=lambda h: 200 * np.nan_to_num(h["accuracy_se"].to_numpy(dtype=float))
              if has_se else None,
              ylabel="accuracy (%)")
        if title:
            ax.set_title(title, fontsize=9)
    legend_outside(fig, axes)
    n = int(table["n"].max())
    finish_figure(fig, study_title(study),
                  subtitle=f"mean accuracy per learner over {n} data sets" if n > 1 else
                  "accuracy per learner and data set, mean over the folds of the scheme",
                  error_bars="± 2 SE over data sets" if has_se else None, reduced=reduced)
    return fig


def _figure_calibrate(study, a, table, reduced):
    if table["n_runs"].nunique() < 2 or not np.isfinite(
            table["calibrated_df"].to_numpy(dtype=float)).any():
        return None
    tests = list(dict.fromkeys(table["label"]))
    styles = {name: series_style(i, n=len(tests)) for i, name in enumerate(tests)}
    parts = chunks(tests)
    alphas = sorted(table["alpha"].unique())
    fig, axes = new_figure(len(alphas) * len(parts), n_cols=len(alphas))
    k = 0
    for j, part in enumerate(parts):
        for alpha in alphas:
            ax = axes[k]
            k += 1
            g = table[np.isclose(table["alpha"], alpha) & table["label"].isin(part)]
            for name, h in g.groupby("label", sort=False):
                h = h.sort_values("n_runs")
                ax.plot(h["n_runs"], h["calibrated_df"], ms=4, lw=1.2, label=name,
                        **styles[name])
            note = f", tests {sum(map(len, parts[:j])) + 1}–{sum(map(len, parts[:j + 1]))}" \
                f" of {len(tests)}" if len(parts) > 1 else ""
            ax.set(title=f"α = {alpha:g}{note}", xlabel=axis_label("n_runs"),
                   ylabel="calibrated df")
            ax.title.set_fontsize(9)
        if len(parts) > 1:      # each row of panels lists its own tests
            ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=8, frameon=False)
    if len(parts) == 1:
        legend_outside(fig, axes)
    n = int(table["n_datasets"].max()) if "n_datasets" in table.columns else None
    finish_figure(fig, study_title(study),
                  subtitle="calibrated df against the number of runs" +
                  (f", {n} null data sets" if n else "") +
                  "; 0: no df of the grid keeps the Type I error at or below α",
                  reduced=reduced)
    return fig


def _rate_range(values, reference, min_span=6.0):
    """y limits (%) of a decision-rate panel: the data (and the reference line when it is
    near), at least ``min_span`` points tall, inside 0-100, with a small margin."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    lo, hi = (float(v.min()), float(v.max())) if v.size else (0.0, min_span)
    if lo <= reference + min_span:
        lo, hi = min(lo, reference), max(hi, reference)
    if hi - lo < min_span:
        lo, hi = ((100.0 - min_span, 100.0) if hi > 100.0 - min_span
                  else (lo, lo + min_span) if lo <= 0.0 else (hi - min_span, hi))
    pad = 0.04 * (hi - lo)
    return lo - pad, hi + pad


def _figure_datasets(study, a, table, reduced):
    """Decision rate against the number of data sets per comparison q at ρ = 1/k: one
    panel per threshold (rows) and source (columns), one series per test and ROPE, with
    ±2 Monte Carlo SE and, on the null source, a line at 1 − threshold."""
    if not np.isfinite(table["decision_rate"].to_numpy(dtype=float)).any():
        return None
    t = table[(table["rho"].astype(str) == "1/k") | (table["test"] != "hierarchical")]
    sources = list(dict.fromkeys(t["source"]))
    thresholds = sorted(set(t["threshold"]))
    if len(t) < MIN_POINTS:
        return None
    words = {src: source_words(t[t["source"] == src].iloc[0]) for src in sources}
    fig, axes = new_figure(len(thresholds) * len(sources), n_cols=len(sources),
                           panel_size=(3.6, 3.0), sharey=False)
    series = list(dict.fromkeys(zip(t["label"], t["rope"])))
    alternative = []                      # (panel, its values) of the sources with a difference
    k = 0
    for th in thresholds:
        for src in sources:
            ax = axes[k]
            k += 1
            g = t[(t["source"] == src) & (t["threshold"] == th)]
            ends = []
            for i, (label, rope) in enumerate(series):
                h = g[(g["label"] == label) & (g["rope"] == rope)]
                h = h.sort_values("datasets_per_comparison")
                y, e = 100 * h["decision_rate"].to_numpy(), 200 * h["mc_se"].to_numpy()
                ends += [np.maximum(y - e, 0), np.minimum(y + e, 100)]
                shift = 1.04 ** (i - (len(series) - 1) / 2)     # apart on the log axis
                ax.errorbar(h["datasets_per_comparison"] * shift, y,
                            yerr=[np.minimum(e, y), np.minimum(e, 100 - y)], capsize=2,
                            ms=4, lw=1.2, elinewidth=0.8,
                            label=f"{label}, ROPE {100 * rope:g} "
                                  f"point{'' if rope == 0.01 else 's'}",
                            **series_style(i, n=len(series)))
            if str(g["group"].iloc[0]) == "null":
                reference_line(ax, 100 * (1 - th), "1 − threshold")
            ax.set_title(f"{words[src]}, threshold {th:g}", fontsize=9)
            ax.set_ylim(*_rate_range(np.concatenate(ends), 100 * (1 - th)))
            if str(g["group"].iloc[0]) != "null":
                alternative.append((ax, np.concatenate(ends)))
            ax.set_xscale("log")
            ticks = sorted(set(g["datasets_per_comparison"]))
            ax.set_xticks(ticks, [str(v) for v in ticks])
            ax.minorticks_off()
            ax.set(xlabel="data sets per comparison q", ylabel="decision rate (%)")
    if len(alternative) > 1:
        # one y range for the sources where the learners differ: a panel where every test
        # decides every time (100%) or never reads against the others, not as 94–100
        share_y([ax for ax, _ in alternative], "sources where the learners differ")
        alternative[0][0].set_ylim(*_rate_range(np.concatenate([v for _, v in alternative]),
                                                100.0))
    legend_outside(fig, axes)
    n = sorted(set(int(v) for v in t["n_comparisons"]))
    finish_figure(fig, study_title(study),
                  subtitle="how often the test declares a learner better, by the number of "
                           "data sets compared (ρ = 1/k; " +
                           (f"{n[0]}–{n[-1]}" if len(n) > 1 else f"{n[0]}") +
                           " comparisons a point)",
                  error_bars="± 2 Monte Carlo SE", reduced=reduced)
    return fig


_DRAW = {"calibrate": _figure_calibrate, "rejection_rate": _figure_rate,
         "replicability": _figure_replicability, "accuracy": _figure_accuracy,
         "bayes_datasets": _figure_datasets}


def study_figures(study, analyses_specs, tables: dict) -> dict:
    """The generic figure of every analysis with something to plot (not yet saved).

    Returns
    -------
    dict of str to matplotlib.figure.Figure
        Analysis name -> figure; analyses with fewer than :data:`MIN_POINTS` points,
        nothing finite or no generic figure (``calibrate_rho``) have none.
    """
    reduced = reduced_size(study)
    out = {}
    for a in analyses_specs:
        table = tables.get(a.name)
        if table is None or table.empty or a.kind not in _DRAW:
            continue
        fig = _DRAW[a.kind](study, a, table, reduced)
        if fig is not None:
            out[a.name] = fig
    return out


def write_figures(study, analyses_specs, tables: dict, folder: Path) -> dict:
    """One PNG per analysis with something to plot; returns ``{label: path}``.

    An analysis that draws no figure (fewer than :data:`MIN_POINTS` points) has its
    PNG of an earlier run removed, so the folder holds what this code draws. Inside
    :func:`calibsim.plotting._style.figures_later` the figures are only collected (a
    study run draws them on its workers, :func:`draw_figures`): the paths are then
    those to be written.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    reduced = reduced_size(study)
    paths = {}
    for a in analyses_specs:
        table = tables.get(a.name)
        path = folder / f"{study.name}_{a.name}.png"
        if table is None or table.empty or a.kind not in _DRAW:
            if a.name in tables and path.is_file():
                path.unlink()
            continue
        path = save_later(path, _DRAW[a.kind], study, a, table, reduced)
        if path is not None:
            paths[f"{a.name}.png"] = path
    return paths


def draw_figures(jobs, *, client=None) -> set:
    """Draw the figures collected by :func:`~calibsim.plotting._style.figures_later`
    and write their files here; returns the paths left unwritten (nothing to draw).

    With ``client`` (a :class:`~calibsim.engine.runner.LocalPool` or a Dask client) the
    figures are drawn on its workers, in parallel, through the one runner
    (:func:`~calibsim.engine.runner.map_blocks`); only the files' bytes come back, so
    the workers need not see the output folder. A figure's bytes are the same in any
    process (tests/test_figure_images.py draws one both ways). Two jobs for the same
    files: the later one is drawn (as if saved one after the other).

    Parameters
    ----------
    jobs : sequence of FigureJob
    client : LocalPool or distributed.Client, optional
        None draws here, one after the other.

    Returns
    -------
    set of pathlib.Path
    """
    from .runner import map_blocks
    jobs = list({job.paths: job for job in jobs}.values())
    skipped = set()

    def on_result(job, data):
        if write_rendered(job, data) is None:
            skipped.update(job.paths)

    map_blocks(render_figure, jobs, client=client, on_result=on_result, resumable=False)
    return skipped
