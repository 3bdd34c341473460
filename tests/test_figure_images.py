"""Every figure against the checklist (docs/guide/figures.md), and image regression.

Each tracked PNG under ``figures/`` is redrawn from the tracked tables it comes from
(the generic figure of a study's analysis from its tidy CSV; a paper layout's figure
from the CSVs the layout wrote) and the matplotlib Figure is inspected before saving
with :func:`calibsim.plotting.check_figure`: a title in words, axis labels, names not
identifiers, at most 8 series a panel with distinct colour + marker pairs in the one
palette, no lines joining categories, error bars stated, at least 5 points, y ranges
fitted. A PNG that nothing here redraws fails the coverage test, so a new figure is
checked from the day it is committed. Two figures are also compared pixel for pixel
(matplotlib's compare_images) with the committed PNGs.
"""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

REPO = Path(__file__).resolve().parents[1]
FIG = REPO / "figures"

#: Kind of analysis -> the column its tidy table must have (a paper layout may have
#: written a table of its own shape under the same name).
_VALUE = {"calibrate": "calibrated_df", "rejection_rate": "rate", "replicability": "R",
          "accuracy": "accuracy", "bayes_datasets": "decision_rate"}

#: Tracked PNGs whose tidy table is not tracked (a paper layout writes its own table under
#: the same name), so they cannot be redrawn here: (file, why).
NOT_REDRAWN = {
    "bouckaert_frank2004/bouckaert_frank2004_tables234_table2.png":
        "the layout's Table 2 summary replaces the tidy CSV",
    "bouckaert_frank2004/bouckaert_frank2004_tables234_table3.png":
        "the layout's Table 3 summary replaces the tidy CSV",
    "bouckaert_frank2004/bouckaert_frank2004_tables234_table4.png":
        "the layout's Table 4 summary replaces the tidy CSV",
    "dietterich1998/dietterich1998_figure4_type1.png": "the layout's type1 table replaces it",
    "dietterich1998/dietterich1998_figure5_type1.png": "the layout's type1 table replaces it",
    "dietterich1998/dietterich1998_null_learners_type1.png":
        "the layout's type1 table replaces it",
    "bayes/hierarchical_sbc.png":
        "drawn by scripts/hierarchical_sbc.py from the simulations' ranks, which are not "
        "tracked (the table of their uniformity tests is)",
    "bayes/rank_example/posterior.png":
        "drawn by `calibsim rank --method bayes` from the hierarchical test's posterior "
        "samples (NumPyro, minutes), which are not tracked",
}


def _read(path) -> pd.DataFrame:
    # "null" is a source's name, not a missing value
    return pd.read_csv(path, keep_default_na=False, na_values=[""])


def _studies():
    from calibsim.engine import load_study
    out = []
    for f in sorted((REPO / "studies").glob("*.toml")):     # variants keep tables only
        study = load_study(f)
        if FIG in study.figures.parents or study.figures == FIG:
            out.append(study)
    return out


def _generic():
    """(PNG path relative to figures/, builder) of every generic figure redrawable from
    its tracked tidy table, and the set of analyses that draw none."""
    from calibsim.engine.outputs import study_figures
    found, none = {}, set()
    for study in _studies():
        folder = study.figures
        for a in study.analyses:
            csv = folder / f"{study.name}_{a.name}.csv"
            if not csv.is_file() or a.kind not in _VALUE:
                continue
            table = _read(csv)
            if _VALUE[a.kind] not in table.columns:
                continue
            png = (folder / f"{study.name}_{a.name}.png").relative_to(FIG).as_posix()

            def build(study=study, a=a, table=table):
                return study_figures(study, [a], {a.name: table}).get(a.name)
            found[png] = build
    return found


def _paper():
    """PNG path relative to figures/ -> a function drawing it from the tracked tables."""
    def t(p):
        return _read(FIG / p)

    def figure2(alpha):
        from calibsim.papers.bouckaert2003 import figure2
        return lambda: figure2(t("bouckaert2003/bouckaert2003_figure2_calibration.csv"),
                               alpha=alpha)

    def figure4():
        from calibsim.papers.bouckaert2003 import _old_shape, figure4
        return figure4(_old_shape(t("bouckaert2003/bouckaert2003_figure4_rate_vs_runs.csv")))

    def bf_table5():
        from calibsim.papers.bouckaert_frank2004 import _TABLE5_ROWS, _paper, table5_figure
        tables = {k: t(f"bouckaert_frank2004/bouckaert_frank2004_table5_{k}.csv")
                  for k, _ in _TABLE5_ROWS}
        return table5_figure(tables, ["set1", "set2", "set3", "set4"],
                             _paper("table5_simulation_consistency.csv").set_index("test"))

    def bf_runs():
        from calibsim.papers.bouckaert_frank2004 import runs_figure
        return runs_figure({k: t(f"bouckaert_frank2004/bouckaert_frank2004_tables234_{k}.csv")
                            for k in ("table2", "table3")})

    def epsilon(name):
        def build():          # as the study draws it, title included
            from calibsim.engine import load_study
            from calibsim.papers.dietterich1998 import epsilon_figure
            study = load_study(REPO / "studies" / f"dietterich1998_{name}.toml")
            return epsilon_figure(study, t(f"dietterich1998/dietterich1998_{name}_type1.csv"),
                                  name)
        return build

    def null_learners():
        from calibsim.papers.dietterich1998 import plot_null_learners
        from calibsim.plotting import finish_figure
        fig = plot_null_learners(t("dietterich1998/dietterich1998_null_learners_type1.csv"),
                                 t("dietterich1998/dietterich1998_null_learners_5x2cv_df.csv"))
        return finish_figure(fig, "Dietterich's tests on null data")

    def task(name):
        def build():
            from calibsim.papers.dietterich1998 import _plot_task
            return _plot_task(t(f"dietterich1998/dietterich1998_{name}_type1.csv"),
                              t(f"dietterich1998/dietterich1998_{name}_power.csv"),
                              alpha=0.05, title=f"Dietterich (1998) §5, {name}")
        return build

    def scheffer_examples():
        from calibsim.papers.scheffer_herbrich1997 import figure
        return figure()

    def scheffer_simulation():
        from calibsim.papers.scheffer_herbrich1997 import simulation_figure
        return simulation_figure(
            t("scheffer_herbrich1997/scheffer_herbrich1997_simulation_results.csv"), 0.05)

    def ulas_synthetic(name):
        def build():
            from matplotlib.figure import Figure

            from calibsim.papers.ulas2012 import NAMED
            from calibsim.plotting import finish_figure, plot_ordering_probabilities
            table = t(f"ulas2012/ulas2012_synthetic_{name}.csv")
            peak = table.groupby("ordering")["probability"].max()
            shown = sorted(set(peak[peak >= 0.05].index) | set(NAMED[name]))
            fig = Figure(figsize=(6.8, 7.4), layout="constrained")
            for ax, (v, r) in zip(fig.subplots(2, 1), table.groupby("variant", sort=False)):
                plot_ordering_probabilities(r, orderings=shown, ax=ax, title=v,
                                            keep=NAMED[name])
            return finish_figure(fig, "Ulaş et al. (2012) by simulation")
        return build

    def ulas_published(name):
        def build():
            import tempfile

            from matplotlib.figure import Figure

            from calibsim.papers import ulas2012
            from calibsim.plotting import finish_figure
            drawn = {}

            def keep(path, panels, size, title, **finish):
                fig = Figure(figsize=size, layout="constrained")
                for ax, draw in zip(fig.subplots(len(panels), 1, squeeze=False)[:, 0],
                                    panels):
                    draw(ax)
                drawn[Path(path).name] = finish_figure(fig, title, **finish)
                return path

            class Study:
                name, title = "ulas2012_published", "Ulaş et al. (2012), published numbers"
            original, ulas2012._figure = ulas2012._figure, keep
            try:
                with tempfile.TemporaryDirectory() as tmp:
                    ulas2012.write_published(study=Study, tables={}, scores=None, folder=tmp)
            finally:
                ulas2012._figure = original
            return drawn[name]
        return build

    def cv_inference(which):
        def build():
            from calibsim.papers import own_studies
            table = t("cv_inference/cv_inference_1998_2023_summary.csv")
            if which == "type1_vs_n":
                return own_studies.figure_type1_vs_n(table, 0.05)
            if which == "budget":
                return own_studies.figure_budget(t(
                    "cv_inference/cv_inference_1998_2023_bootstrap_budget.csv"), 0.05)
            return own_studies.figure_at(table, 300, 0.05)
        return build

    def null_construction(which):
        def build():
            from calibsim.papers import own_studies
            table = t("null_construction/null_construction.csv")
            n = int(_read(FIG / "null_construction" / "null_construction_permuted.csv")
                    ["n_datasets"].iloc[0])
            if which == "accuracy":
                return own_studies._figure_accuracy(table, n, False)
            return own_studies._figure_df(table, 0.05, n, False,
                                          list(dict.fromkeys(table["test"])))
        return build

    def null_real_vs_balanced():
        from calibsim.papers import own_studies
        table = t("null_real_vs_balanced/null_real_vs_balanced.csv")
        return own_studies._figure_real_vs_balanced(table, 0.05, int(table["n_datasets"].max()),
                                                    False, list(dict.fromkeys(table["test"])))

    def plan_validation():
        from calibsim.papers.own_studies import plan_figure
        return plan_figure(t("plan_validation/plan_validation_dietterich.csv"),
                           t("plan_validation/plan_validation_ban_sets.csv"))

    def ulas_real_cd():
        from calibsim.plotting import finish_figure
        from calibsim.ranking import rank
        acc = t("ulas2012/ulas2012_real_accuracy.csv")
        wide = acc.pivot_table(index="name", columns="learner", values="accuracy",
                               sort=False)[list(dict.fromkeys(acc["learner"]))]
        ax = rank(wide, cost=list(wide.columns)).plot_cd_diagram()
        return finish_figure(ax.figure, "Ulaş et al. (2012) §4, ours: average ranks")

    return {
        "bouckaert2003/bouckaert2003_figure2.png": figure2(0.05),
        "bouckaert2003/bouckaert2003_figure2_alpha0.01.png": figure2(0.01),
        "bouckaert2003/bouckaert2003_figure2_alpha0.1.png": figure2(0.1),
        "bouckaert2003/bouckaert2003_figure4.png": figure4,
        "bouckaert_frank2004/bouckaert_frank2004_table5.png": bf_table5,
        "bouckaert_frank2004/bouckaert_frank2004_tables234_replicability_vs_runs.png": bf_runs,
        "dietterich1998/dietterich1998_figure4.png": epsilon("figure4"),
        "dietterich1998/dietterich1998_figure5.png": epsilon("figure5"),
        "dietterich1998/dietterich1998_null_learners.png": null_learners,
        "dietterich1998/dietterich1998_exp6.png": task("exp6"),
        "dietterich1998/dietterich1998_letter.png": task("letter"),
        "dietterich1998/dietterich1998_pima.png": task("pima"),
        "scheffer_herbrich1997/scheffer_herbrich1997.png": scheffer_examples,
        "scheffer_herbrich1997/scheffer_herbrich1997_simulation.png": scheffer_simulation,
        "ulas2012/ulas2012_synthetic_figure4.png": ulas_synthetic("figure4"),
        "ulas2012/ulas2012_synthetic_figure5.png": ulas_synthetic("figure5"),
        "ulas2012/ulas2012_published_cd.png": ulas_published("ulas2012_published_cd.png"),
        "ulas2012/ulas2012_published_graphs.png":
            ulas_published("ulas2012_published_graphs.png"),
        "ulas2012/ulas2012_real_cd.png": ulas_real_cd,
        "null_construction/null_construction_accuracy.png": null_construction("accuracy"),
        "null_construction/null_construction_df.png": null_construction("df"),
        "null_real_vs_balanced/null_real_vs_balanced_df.png": null_real_vs_balanced,
        "plan_validation/plan_validation.png": plan_validation,
        "cv_inference/cv_inference_1998_2023_n300.png": cv_inference("n300"),
        "cv_inference/cv_inference_1998_2023_type1_vs_n.png": cv_inference("type1_vs_n"),
        "cv_inference/cv_inference_1998_2023_bootstrap_budget.png": cv_inference("budget"),
    }


#: Figures drawn from several tasks' tables at once (checked on the combined bars).
_COMBINED = {"dietterich1998/dietterich1998_real_type1.png"}


def _combined_dietterich():
    import shutil
    import tempfile

    from calibsim.papers import dietterich1998 as real
    drawn = {}
    original = real.save_figure

    def keep(fig, folder, stem, **kw):
        drawn[stem] = fig
        return {}
    real.save_figure = keep
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for task in real.TASK_NAMES:
                src = FIG / "dietterich1998" / f"dietterich1998_{task}_type1.csv"
                if src.is_file():
                    shutil.copy(src, tmp)
            real._combined(Path(tmp), 0.05)
    finally:
        real.save_figure = original
    return drawn["dietterich1998_real_type1"]


def _figure2_10000():
    from calibsim.engine import load_study
    from calibsim.engine.outputs import study_figures
    study = load_study(REPO / "studies" / "bouckaert2003_figure2_large.toml", n_datasets=10000)
    table = _read(FIG / "bouckaert2003" / "figure2_10000" /
                  "bouckaert2003_figure2_large_calibration.csv")
    return study_figures(study, study.analyses, {"calibration": table})["calibration"]


def _all_builders():
    out = dict(_generic())
    out["bouckaert2003/figure2_10000/bouckaert2003_figure2_large_calibration.png"] = \
        _figure2_10000
    out.update(_paper())
    out["dietterich1998/dietterich1998_real_type1.png"] = _combined_dietterich
    return out


BUILDERS = _all_builders()
TRACKED = sorted(p.relative_to(FIG).as_posix() for p in FIG.rglob("*.png"))


def test_every_tracked_png_is_redrawn_here():
    missing = [p for p in TRACKED if p not in BUILDERS and p not in NOT_REDRAWN]
    assert missing == [], f"figures nothing checks: {missing}"


@pytest.mark.parametrize("png", sorted(BUILDERS))
def test_figure_passes_the_checklist(png):
    import matplotlib
    matplotlib.use("Agg")
    from calibsim.plotting import check_figure
    fig = BUILDERS[png]()
    if fig is None:          # fewer than 5 points or nothing finite: a table, not a PNG
        assert png not in TRACKED, f"{png} is tracked but the code draws no figure"
        return
    assert png in TRACKED, f"the code draws {png} but it is not committed"
    assert check_figure(fig) == []


def test_the_checklist_catches_what_it_should():
    from matplotlib.figure import Figure

    from calibsim.plotting import PALETTE, check_figure, finish_figure, series_style
    fig = Figure()
    ax = fig.add_subplot()
    for i in range(9):                                   # 9 series, one colour off-palette
        ax.plot([0, 1, 2], [i, i + 1, i], color="tab:red" if i == 0 else PALETTE[i % 8],
                marker="o")
    ax.set_xticks([0, 1, 2], ["uci[name=zoo]", "b", "c"])   # identifier, categorical lines
    ax.errorbar([0], [1], yerr=[0.5], color=PALETTE[0], marker="s", ls="none")
    ax.set_ylim(-100, 100)                                   # not fitted
    ax.plot([0, 1, 2], [1, 2, 1], color=PALETTE[1], marker="o")       # same pair again
    fig.suptitle("bouckaert2003_figure2: calibration")
    problems = " | ".join(check_figure(fig, reduced=10))
    for words in ("file name or identifier", "identifier, not a name", "x-axis label",
                  "draws 11 series", "repeats a colour", "not the colour-blind-safe",
                  "joins categorical", "not fitted", "error bars are drawn",
                  "reduced run: 10 data sets"):
        assert words in problems, words
    few = Figure()
    ax = few.add_subplot()
    ax.plot([1, 2, 3], [1, 2, 3], **series_style(0))
    ax.set(xlabel="number of runs r", ylabel="calibrated df")
    finish_figure(few, "A title in words", reduced=10)
    assert check_figure(few) == ["3 data points: fewer than 5, make it a table"]
    assert check_figure(few, reduced=10, min_points=3) == []


def _checked(fig):
    from calibsim.plotting import check_figure
    return " | ".join(check_figure(fig))


def _good_panel(ax, y=(3.0, 4.0, 5.0, 4.5, 4.0), **style):
    from calibsim.plotting import series_style
    ax.plot([1, 2, 3, 4, 5], list(y), label="resampled t", **{**series_style(0), **style})
    ax.set(xlabel="number of runs r", ylabel="Type I error (%)")


def test_the_checklist_catches_a_legend_over_data():
    from matplotlib.figure import Figure

    from calibsim.plotting import finish_figure
    fig = Figure(figsize=(5, 3.5), layout="constrained")
    ax = fig.add_subplot()
    _good_panel(ax, y=(1, 2, 3, 4, 5))
    finish_figure(fig, "Type I error against runs")
    ax.legend(loc="center")                       # on the line
    assert "the legend covers data" in _checked(fig)
    ax.legend(loc="upper left")                   # clear of it
    assert _checked(fig) == ""


def _two_panels(left_y, right_y, titles):
    """A figure of two good panels side by side, with their titles: (fig, left, right)."""
    from matplotlib.figure import Figure
    fig = Figure(figsize=(8, 3.5), layout="constrained")
    left, right = fig.subplots(1, 2)
    for ax, y, title in zip((left, right), (left_y, right_y), titles):
        _good_panel(ax, y=y)
        ax.set_title(title)
    return fig, left, right


def test_the_checklist_catches_panels_that_should_share_a_y_range():
    from calibsim.plotting import finish_figure, share_y
    fig, left, right = _two_panels((58, 66, 80, 90, 95), (98.2, 99.0, 99.5, 99.9, 100.0),
                                   ("Set 4, tests 1–5 of 9", "Set 4, tests 6–9 of 9"))
    finish_figure(fig, "Replicability on Set 4")
    for ax in (left, right):
        ax.set_gid("same-y:Set 4")                # declared, but two y ranges
    assert "declared to share one y range (Set 4) but have 2" in _checked(fig)
    share_y([left, right], "Set 4")
    assert _checked(fig) == ""


def test_the_checklist_catches_a_flat_panel_on_an_axis_of_its_own():
    from calibsim.plotting import finish_figure, share_y
    fig, left, right = _two_panels((60, 80, 95, 100, 100), (100, 100, 100, 100, 100),
                                   ("Set 2", "Set 4"))
    right.set_ylim(94, 101)
    finish_figure(fig, "Decision rate where the learners differ")
    assert "panel 'Set 4' is flat at 100" in _checked(fig)
    share_y([left, right], "sources where the learners differ")
    assert _checked(fig) == ""


def test_the_checklist_catches_a_title_that_miscounts():
    import numpy as np
    from matplotlib.figure import Figure

    from calibsim.plotting import finish_figure, series_style
    fig = Figure(figsize=(8, 4), layout="constrained")
    ax = fig.add_subplot()
    tests = ["McNemar", "proportions", "resampled t", "10-fold cv t", "5x2cv t", "5x2cv F",
             "McNemar exact"]
    for i, eps in enumerate((0.1, 0.2, 0.3, 0.4)):
        ax.bar(np.arange(7) + 0.2 * i, [3, 6, 30, 5, 2, 1, 3], width=0.2,
               color=series_style(i)["color"], label=f"ε = {eps:.2f}")
    ax.set_xticks(np.arange(7) + 0.3, tests, rotation=20, ha="right")
    ax.set(xlabel="test", ylabel="Type I error (%)")
    ax.legend(loc="upper right")
    finish_figure(fig, "Type I error of five tests on ε-point learners")
    assert "title counts 'five tests' but the figure draws 4 or 7" in _checked(fig)
    finish_figure(fig, "Type I error of seven tests on ε-point learners")
    assert _checked(fig) == ""


def test_the_checklist_catches_tick_labels_that_do_not_fit():
    from matplotlib.figure import Figure

    from calibsim.plotting import finish_figure
    fig = Figure(figsize=(7, 3.5), layout="constrained")
    ax = fig.add_subplot()
    _good_panel(ax)
    lam = [0, 0.2, 0.4, 0.6, 0.8]
    ax.set_xticks([1, 2, 3, 4, 5], [f"nearest neighbour (IB1) vs C4.5, λ = {v:g}" for v in lam])
    finish_figure(fig, "Rejection rate against λ")
    problems = _checked(fig)
    assert "x tick labels overlap" in problems
    assert "repeats 'nearest neighbour (IB1) vs C4.5, λ = '" in problems
    ax.set_xticks([1, 2, 3, 4, 5], [" ".join(["a tick label longer than its axis"] * 4),
                                    "b", "c", "d", "e"])
    assert "is longer than its axis" in _checked(fig)
    ax.set_xticks([1, 2, 3, 4, 5], [f"{v:g}" for v in lam])
    ax.set_xlabel("λ: C4.5's error moved from nearest neighbour's (0) to its own (1)")
    ax.set_yticks([3, 4, 5], ["3.0000", "4.0000", "5.0000"])
    assert "y tick labels with 4 decimals" in _checked(fig)
    ax.set_yticks([3, 4, 5], ["3", "4", "5"])
    assert _checked(fig) == ""
    ax.set_xlabel(" ".join(["an axis label wider than the figure"] * 4))
    assert "runs off the figure" in _checked(fig)


def test_the_five_figures_of_issue_44_as_fixed():
    import matplotlib
    matplotlib.use("Agg")
    fig = BUILDERS["bouckaert2003/bouckaert2003_figure2.png"]()
    assert all(ax.get_legend() is None or ax.get_legend().get_bbox_to_anchor().y1 <
               ax.get_window_extent().y0 for ax in fig.get_axes())     # legends below
    assert max(len(ax.get_lines()) for ax in fig.get_axes()) <= 5      # ≤ 4 tests a panel
    fig = BUILDERS["dietterich1998/dietterich1998_figure4.png"]()
    assert "seven tests" in fig._suptitle.get_text()
    fig = BUILDERS["dietterich1998/dietterich1998_pima_rejections.png"]()
    ax = fig.get_axes()[0]
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert ticks == ["0", "0.2", "0.4", "0.6", "0.8", "1"]
    assert "λ" in ax.get_xlabel()
    fig = BUILDERS["bayes/bayesian_hierarchical_over_datasets.png"]()
    ban = [ax for ax in fig.get_axes() if "BAN" in ax.get_title()]
    assert len(ban) == 8 and len({ax.get_ylim() for ax in ban}) == 1
    fig = BUILDERS["bouckaert2003/bouckaert2003_table56_calibrated.png"]()
    by_set = {}
    for ax in fig.get_axes():
        if ax.get_visible():
            by_set.setdefault(ax.get_title().split(",")[0], set()).add(ax.get_ylim())
    assert len(by_set) == 4 and all(len(v) == 1 for v in by_set.values())


def test_names_never_identifiers():
    from calibsim.plotting import display_name
    from calibsim.plotting._check import IDENTIFIER
    for raw in ("uci[name=credit-g]", "ban[network=set3]", "null[class_prior=0.05]",
                "balanced[epsilon=0.3, e1=0.5, e2=0.2]", "naive_bayes", "voted_perceptron",
                "c45_tuned[tuning=bootstrap632, n_settings=16]", "calibration_data",
                "corrected_repeated_cv", "nn_lam060", "sorted_runs_averaged_t"):
        assert not IDENTIFIER.search(display_name(raw)), (raw, display_name(raw))


def test_a_reduced_runs_figures_are_stamped(tmp_path):
    import matplotlib
    matplotlib.use("Agg")
    from calibsim.engine import load_study
    from calibsim.engine.outputs import study_figures
    from calibsim.plotting import check_figure
    study = load_study(REPO / "studies" / "bouckaert2003_table7.toml", n_datasets=40)
    table = _read(FIG / "bouckaert2003" / "bouckaert2003_table7_type1.csv").assign(n=40)
    fig = study_figures(study, study.analyses, {"type1": table})["type1"]
    assert check_figure(fig, reduced=40) == []
    assert "reduced run: 40 data sets" in fig._suptitle.get_text()


def test_bouckaert_frank_replicability_against_runs(tmp_path):
    from matplotlib.testing.compare import compare_images

    from calibsim.papers.bouckaert_frank2004 import _runs_figure
    frames = {k: pd.read_csv(FIG / "bouckaert_frank2004" / f"bouckaert_frank2004_tables234_{k}.csv")
              for k in ("table2", "table3")}
    out = _runs_figure(frames, tmp_path / "runs.png")
    baseline = (FIG / "bouckaert_frank2004" /
                "bouckaert_frank2004_tables234_replicability_vs_runs.png")
    assert compare_images(str(baseline), str(out), tol=2) is None


def test_generic_replicability_figure_from_its_table(tmp_path):
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.testing.compare import compare_images

    from calibsim.engine import load_study
    from calibsim.engine.outputs import write_figures
    study = load_study(REPO / "studies" / "bouckaert_frank2004_table1.toml")
    table = _read(FIG / "bouckaert_frank2004" / "bouckaert_frank2004_table1_replicability.csv")
    paths = write_figures(study, study.analyses, {"replicability": table}, tmp_path)
    out = paths["replicability.png"]
    assert compare_images(str(FIG / "bouckaert_frank2004" / out.name), str(out),
                          tol=2) is None


def test_time_columns_stay_out_of_tracked_tables(tmp_path):
    from calibsim.engine import load_study
    from calibsim.engine.outputs import write_tables
    study = load_study(REPO / "studies" / "example_uci_four_learners.toml")
    table = pd.DataFrame({"source": ["uci[name=iris]"], "learner": ["c45"],
                          "accuracy": [0.9], "fit_time": [0.01], "predict_time": [0.001]})
    paths = write_tables(study, {"accuracy": table}, tmp_path)
    assert "fit_time" not in paths["accuracy.csv"].read_text()
    tracked = [p for p in FIG.rglob("*.csv")]
    assert not [p for p in tracked if "fit_time" in p.read_text(encoding="utf-8")[:2000]]


def test_error_bars_stated_in_every_generic_figure():
    # the generic figures say what their bars are in the title (checked above); here the
    # sentence for simulated and real data differs as it should
    import matplotlib
    matplotlib.use("Agg")
    from calibsim.engine import load_study
    from calibsim.engine.outputs import study_figures
    study = load_study(REPO / "studies" / "bouckaert2003_table56.toml")
    table = _read(FIG / "bouckaert2003" / "bouckaert2003_table56_cv5x2.csv")
    fig = study_figures(study, [study.analysis("cv5x2")], {"cv5x2": table})["cv5x2"]
    assert "± 2 Monte Carlo SE of R" in fig._suptitle.get_text()
    assert np.isfinite(table["R_se"]).all()


def test_a_figure_that_became_a_table_leaves_no_stale_png(tmp_path):
    from calibsim.engine import load_study
    from calibsim.engine.outputs import write_figures
    study = load_study(REPO / "studies" / "bouckaert_frank2004_table5.toml")
    stale = tmp_path / "bouckaert_frank2004_table5_kfold.png"
    stale.write_bytes(b"an earlier run's figure")
    table = _read(FIG / "bouckaert_frank2004" / "bouckaert_frank2004_table5_kfold.csv")
    assert len(table) < 5
    assert write_figures(study, [study.analysis("kfold")], {"kfold": table}, tmp_path) == {}
    assert not stale.exists()


def test_a_deferred_figure_with_nothing_to_draw_leaves_no_stale_png(tmp_path):
    from calibsim.engine import load_study
    from calibsim.engine.outputs import draw_figures, write_figures
    from calibsim.plotting._style import figures_later
    study = load_study(REPO / "studies" / "bouckaert_frank2004_table5.toml")
    stale = tmp_path / "bouckaert_frank2004_table5_kfold.png"
    stale.write_bytes(b"an earlier run's figure")
    table = _read(FIG / "bouckaert_frank2004" / "bouckaert_frank2004_table5_kfold.csv")
    with figures_later() as jobs:
        paths = write_figures(study, [study.analysis("kfold")], {"kfold": table}, tmp_path)
    assert paths == {"kfold.png": stale} and stale.exists()       # collected, not drawn
    assert draw_figures(jobs) == {stale}
    assert not stale.exists()


def test_a_figure_drawn_on_a_worker_is_byte_identical_to_one_drawn_here(tmp_path):
    """Issue 46: a run draws its figures on its worker processes. The tracked Figure 2
    of Bouckaert (2003), PNG then PDF of one figure as the layout saves them, drawn in a
    fresh worker process and here, gives the same bytes (same rcParams, fonts and
    metadata in both processes)."""
    from calibsim.engine.outputs import draw_figures
    from calibsim.engine.runner import LocalPool
    from calibsim.papers.bouckaert2003 import figure2
    from calibsim.plotting._style import figures_later, save_later
    table = _read(FIG / "bouckaert2003" / "bouckaert2003_figure2_calibration.csv")
    files = {}
    for where, client in (("here", None), ("worker", LocalPool(1))):
        with figures_later() as jobs:
            files[where] = save_later([tmp_path / where / "figure2.png",
                                       tmp_path / where / "figure2.pdf"], figure2, table,
                                      alpha=0.05, dpi=130)
        assert not any(p.exists() for p in files[where])
        assert draw_figures(jobs, client=client) == set()
    for here, worker in zip(files["here"], files["worker"]):
        assert here.read_bytes() == worker.read_bytes(), here.name
        assert len(here.read_bytes()) > 10_000


def test_bouckaert_figure4_drawn_on_a_worker_is_the_tracked_one(tmp_path):
    """Issue 46: the Figure 4 layout of Bouckaert (2003) hands its figure to the run's
    workers too; drawn in a fresh worker process from its tracked table, PNG then PDF,
    it has the tracked files' bytes."""
    from calibsim.engine import load_study
    from calibsim.engine.outputs import draw_figures
    from calibsim.engine.runner import LocalPool
    from calibsim.papers.bouckaert2003 import _figure4_plot, _old_shape
    from calibsim.plotting._style import figures_later
    study = load_study(REPO / "studies" / "bouckaert2003_figure4.toml")
    table = _old_shape(_read(FIG / "bouckaert2003" / "bouckaert2003_figure4_rate_vs_runs.csv"))
    with figures_later() as jobs:
        paths = _figure4_plot(study, table, tmp_path)
    assert len(jobs) == 1 and not any(p.exists() for p in paths.values())
    assert draw_figures(jobs, client=LocalPool(1)) == set()
    for ext, path in paths.items():
        assert path.read_bytes() == (FIG / "bouckaert2003" / f"{study.name}.{ext}").read_bytes()


def _blank(width):
    from matplotlib.figure import Figure
    return Figure(figsize=(width, 1))


def test_two_jobs_for_one_file_draw_the_later_once(tmp_path):
    from calibsim.engine.outputs import draw_figures
    from calibsim.plotting._style import figure_bytes, figures_later, save_later
    with figures_later() as jobs:
        save_later(tmp_path / "a.png", _blank, 2)
        save_later(tmp_path / "a.png", _blank, 3)        # as if saved after the first
    assert len(jobs) == 2
    assert draw_figures(jobs) == set()
    assert (tmp_path / "a.png").read_bytes() == figure_bytes(_blank(3), ".png")
