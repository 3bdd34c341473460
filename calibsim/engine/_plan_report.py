"""The figure and the report of :class:`calibsim.comparison.PlanResult` (docs/guide/plan.md)."""

from __future__ import annotations

import pandas as pd

__all__ = ["plot_power", "plan_report"]


def plot_power(res, ax=None):
    """Power (Type I error at Δ = 0) of each design's default test against Δ, with Monte
    Carlo error bars; returns the Figure."""
    from ..plotting._style import (finish_figure, legend_outside, new_figure, reference_line,
                                   series_style)
    from .scoring import parse_design
    if ax is None:
        fig, (ax,) = new_figure(1, panel_size=(6.0, 3.8))
    else:
        fig = ax.figure
    t = res.table
    for k, design in enumerate(dict.fromkeys(t["design"])):
        test = parse_design(design).default_test()
        g = t[(t["design"] == design) & (t["test"] == test)].sort_values("difference")
        if g.empty:
            continue
        ax.errorbar(100 * g["difference"], 100 * g["rejection_rate"],
                    yerr=100 * g["rejection_se"], capsize=2, ms=4,
                    label=f"{design} ({g['label'].iloc[0]})", **series_style(k))
    reference_line(ax, 100 * res.power, f"target power {100 * res.power:.0f}%")
    reference_line(ax, 100 * res.alpha, f"α = {res.alpha:g}", ls="--")
    ax.set_xlabel("true difference Δ (accuracy points)")
    ax.set_ylabel("rejection rate (%)")
    ax.set_ylim(-3, 103)
    legend_outside(fig, [ax], ncols=2)
    from ..plotting import display_name
    finish_figure(fig, f"Power to detect Δ by design, {display_name(res.learners[0])} vs "
                       f"{display_name(res.learners[1])}",
                  subtitle=f"{res.data.split(':')[0]}; {res.n_datasets} repeats per design; "
                           "Δ = 0: Type I error",
                  error_bars="±1 Monte Carlo SE")
    return fig


def plan_report(res):
    from ..reports import Figure, Heading, Paragraph, Report, Table
    a, b = res.learners
    null = pd.DataFrame({
        "design": res.null["design"], "training instances": res.null["n_train"],
        "damaged": res.null["damaged"], "damage rate": res.null["damage_rate"],
        "undamaged (%)": 100 * res.null["accuracy_other"],
        "damaged (%)": 100 * res.null["accuracy_damaged"],
        "difference (points)": 100 * res.null["difference"],
        "SE (points)": 100 * res.null["difference_se"]})
    parts = [
        Heading("Question"),
        Paragraph(f"Which design and test detect a difference of "
                  f"{', '.join(f'{100 * d:g}' for d in res.differences[1:])} accuracy points "
                  f"between {a} and {b} on {res.data.split(':')[0]}, with a Type I error "
                  f"that holds at α = {res.alpha:g}?"),
        Heading("Data, learners and the null"),
        Paragraph(f"{res.data}. {res.damaged} errs at random (each prediction replaced by "
                  "another class) at a rate calibrated at each design's training-set size so "
                  "that the two differ by Δ (Dietterich 1998, §5: ahead by Δ up to their own "
                  "gap, between the two learning curves; behind by Δ beyond it); Δ = 0 is a "
                  "null "
                  "on the real data at its class prior. Each design is repeated "
                  f"{res.n_datasets} times. " + res.scope()),
        Table(null, caption="The damaged real-data null (Δ = 0): mean accuracies over the "
              "repeats; the difference should be zero within its SE.",
              formats={"undamaged (%)": ".2f", "damaged (%)": ".2f",
                       "difference (points)": "+.2f", "SE (points)": ".2f",
                       "damage rate": ".4f", "training instances": ".0f"}),
        Heading("Results"),
        Table(res.summary(), caption="Type I error (Δ = 0) and power of each test at the df "
              "calibsim.compare uses, Bouckaert & Frank's replicability R and the fast shift "
              "estimate, in percent ± Monte Carlo SE."),
        Figure(res.plot_power(), "power", caption="Power against Δ by design."),
        Heading("In words"),
        *[Paragraph(s) for s in res.recommendation["statement"]],
        Paragraph("A non-significant result from a design without the power for Δ is not "
                  "evidence that the learners are equally good; the Bayesian test's ROPE "
                  "(calibsim compare --method bayes --rope) answers that question."),
    ]
    return Report(f"Plan: {a} vs {b}", parts)
