"""Numbers, calls and provenance in words, shared by the reports of every result."""

from __future__ import annotations

import numpy as np

__all__ = ["INFINITE_DF", "pct", "pts", "p_text", "p_eq", "df_text", "interval_text", "and_list",
           "call_text", "seed_text", "reproducibility", "points", "TEST_WORDS", "test_words",
           "CORRECTION_WORDS"]


def pct(x) -> str:
    return "—" if not np.isfinite(x) else f"{100 * x:.2f}"


def pts(x) -> str:
    return "—" if not np.isfinite(x) else f"{100 * x:+.2f}"


def p_text(p) -> str:
    """A p-value as printed in a paper: 3 decimals, "< 0.001" below."""
    if not np.isfinite(p):
        return "—"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def p_eq(p) -> str:
    t = p_text(p)
    return f"p {t}" if t.startswith("<") else f"p = {t}"


#: One sentence explaining an infinite df (and an interval "∞ to ∞"), for every report.
INFINITE_DF = ("An infinite df means that the test's Type I error stayed at or below α even "
               "at the largest df tried, so its statistic is compared with the standard "
               "normal distribution, the limit of Student's t as df grows; an interval from ∞ "
               "to ∞ says this held across the whole 95% interval.")


def df_text(df) -> str:
    if np.isnan(df):               # a test without df (McNemar's, the normal-reference tests)
        return "none"
    if df == np.inf:
        return "∞ (normal limit)"
    return f"{df:.0f}" if float(df).is_integer() else f"{df:.2f}"


def points(x) -> str:
    """A width in percentage points: "1 point", "0.5 points"."""
    return f"{x:g} point" + ("" if x == 1 else "s")


def interval_text(lo, hi, f=pts) -> str:
    return "—" if not (np.isfinite(lo) and np.isfinite(hi)) else f"[{f(lo)}, {f(hi)}]"


def seed_text(seed) -> str:
    if isinstance(seed, np.random.SeedSequence):
        return f"SeedSequence({seed.entropy}, spawn_key={tuple(seed.spawn_key)})"
    return repr(seed)


def call_text(func: str, args: list, kwargs: dict) -> str:
    """``calibsim.func(arg, ..., key=value, ...)`` with literal values, wrapped at 88."""
    parts = list(args) + [f"{k}={seed_text(v) if k == 'random_state' else repr(v)}"
                          for k, v in kwargs.items()]
    lines, line = [], f"calibsim.{func}("
    for i, p in enumerate(parts):
        piece = p + (", " if i < len(parts) - 1 else ")")
        if len(line) + len(piece) > 88 and line.strip():
            lines.append(line.rstrip())
            line = "    "
        line += piece
    return "\n".join(lines + [line])


def and_list(names) -> str:
    names = [str(n) for n in names]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def reproducibility(prov: dict | None, *, random: bool = True) -> list:
    """The reproducibility section: calibsim's version, the seed, and the command or call.

    ``random=False``: the result draws no random numbers unless ``prov`` records a seed
    (a ranking is a function of its table)."""
    from .._version import __version__
    from ._render import Code, Heading, Paragraph
    prov = prov or {}
    if "seed_words" in prov:                  # e.g. given scores: the bootstrap's seed only
        words = prov["seed_words"]
        same = "The same version, scores and seed give the same numbers."
    elif "seed" in prov:
        seed = prov["seed"]
        words = (f"seed of the partitions: {seed_text(seed)}" if seed is not None else
                 "seed of the partitions: None (fresh entropy: a rerun gives other partitions)")
        same = ("The same version, data, learners and seed give the same partitions, "
                "accuracies and numbers for any number of workers.")
    elif random:
        words, same = "seed: not recorded", ""
    else:
        words = "no random numbers are drawn"
        same = "The same version and table give the same numbers."
    parts = [Heading("Reproducibility"),
             Paragraph(f"calibsim {__version__}; {words}." + (f" {same}" if same else ""))]
    if prov.get("command"):
        parts += [Paragraph("Command:"), Code(prov["command"], "bash")]
    if prov.get("call"):
        parts += [Paragraph("Call (Python):"), Code(prov["call"], "python")]
    if not prov.get("command") and not prov.get("call"):
        parts.append(Paragraph("The command or call was not recorded."))
    return parts


#: Registry name -> (the test's name in the papers' words, its source).
TEST_WORDS = {
    "corrected_repeated_cv": ("corrected repeated cross-validation t test",
                              "Bouckaert & Frank 2004, after Nadeau & Bengio 2003"),
    "corrected_resampling": ("corrected resampled t test", "Nadeau & Bengio 2003"),
    "cv5x2_t": ("5x2cv paired t test", "Dietterich 1998"),
    "cv5x2_f": ("combined 5x2cv F test", "Alpaydın 1999"),
    "kfold_cv": ("k-fold cross-validated paired t test", "Dietterich 1998"),
    "resampling": ("resampled paired t test", "Dietterich 1998"),
    "paired_t": ("paired t test on the folds, taken as independent", "Dietterich 1998"),
    "bayle_cv_clt": ("k-fold cv central limit theorem test on per-instance differences, "
                     "with the all-pairs variance", "Bayle, Bayle, Janson & Mackey 2020"),
    "ncv": ("nested cross-validation (NCV) test", "Bates, Hastie & Tibshirani 2023"),
    "bootstrap_cv": ("bootstrap of the cross-validation estimate, random-effects standard "
                     "error with the adjustment for the bootstrap's training size",
                     "Cai et al. 2023"),
    "bootstrap_cv_unadjusted": ("bootstrap of the cross-validation estimate, random-effects "
                                "standard error without the adjustment for the bootstrap's "
                                "training size", "Cai et al. 2023"),
}


def test_words(test: str) -> tuple:
    """(name in words, source) of a registered test."""
    if test in TEST_WORDS:
        return TEST_WORDS[test]
    try:
        from ..stats import get_test
        label = get_test(test).label
    except ValueError:
        label = test
    return f"“{label}” t test", "Bouckaert 2003"


#: MultiTest's and statsmodels' corrections for multiple comparisons, in words.
CORRECTION_WORDS = {"holm": "Holm's step-down method", "bonferroni": "Bonferroni's correction",
                    "fdr_bh": "Benjamini & Hochberg's FDR control",
                    "sidak": "Šidák's correction", "holm-sidak": "the Holm–Šidák method",
                    "hommel": "Hommel's method", "none": "no correction"}
