"""Every report through every door, by every method, in every format (issue 44).

Doors: ``compare`` (API and ``calibsim compare --scores-in``), ``compare_scores``,
``compare_all``, ``rank`` (API and ``calibsim rank``), ``compare_datasets`` and
``calibrate --like``; methods: every registered test, the Bayesian tests, every post-hoc
procedure, both forms of Friedman's statistic; formats: Markdown, LaTeX and HTML. Each
cell writes its file or refuses in one line; names the method that ran with its source
and parameters; carries the result's numbers (parsed back from the file); and, as LaTeX,
compiles with pdflatex on A4 with no overfull box (skipped, saying why, where pdflatex
is not installed). The module's teardown prints the counts (written / refused / broken).

To add a cell, add a :class:`Case` to ``CASES``: how to make the result, how to write the
report (default ``result.save_report``), the words it must hold and the numbers it must
carry (an anchor and the result's value). Tiny data, results made once per case: quick.
"""

from __future__ import annotations

import html as html_
import re
import shutil
import subprocess
import unicodedata
import warnings
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pandas as pd
import pytest

import calibsim
from calibsim.cli import main
from calibsim.datasets._loaders import from_arrays
from calibsim.ranking._report import POSTHOC_WORDS
from calibsim.reports._render import _LATEX_SPECIAL, _LATEX_UNICODE
from calibsim.reports._words import p_text
from calibsim.reports._words import test_words as _test_words
from calibsim.stats import BAYES_TESTS, TESTS, fits_design

FORMATS = ("md", "tex", "html")
PDFLATEX = shutil.which("pdflatex")


# --------------------------------------------------------------------------- data

def _data(seed, n=48):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, size=(n, 3))
    y = (X[:, 0] + rng.integers(0, 2, size=n)) % 2
    return from_arrays(X, y, n_values=np.full(3, 3), name=f"tiny{seed}")


def _fold_scores(shape, seed=0):
    rng = np.random.default_rng(seed)
    a = 0.80 + 0.03 * rng.standard_normal(shape)
    return a, a - 0.015 + 0.01 * rng.standard_normal(shape)


def _wide(seed=4):
    """8 data sets x 4 learners, accuracies to two decimals: learners tie on some rows."""
    rng = np.random.default_rng(seed)
    x = np.round(0.75 + 0.04 * rng.standard_normal((8, 4)) + [0.0, 0.02, 0.03, 0.05], 2)
    return pd.DataFrame(x, columns=["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"],
                        index=pd.Index([f"set{i}" for i in range(8)], name="dataset"))


def _many(seed=6):
    """25 data sets x 10 learners with long names: the learner x learner table is wide."""
    rng = np.random.default_rng(seed)
    names = [f"RandomForest_{k}" if k % 2 else f"GradientBoostingClassifier{k}"
             for k in range(10)]
    return pd.DataFrame(np.round(0.7 + 0.05 * rng.standard_normal((25, 10)), 2),
                        columns=names, index=pd.Index([f"a_rather_long_data_set_name_{i}"
                                                       for i in range(25)], name="dataset"))


def _long(seed=5, runs=2, folds=3):
    """Per-fold long table with separate run and fold columns (fold within its run)."""
    rng = np.random.default_rng(seed)
    rows = [{"dataset": f"d{s}", "learner": lrn, "run": r, "fold": f,
             "accuracy": round(0.78 + 0.02 * s + m + 0.03 * rng.standard_normal(), 4)}
            for s in range(6) for lrn, m in (("GNB", 0.0), ("LogReg", 0.03), ("Tree", -0.01))
            for r in range(runs) for f in range(folds)]
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- the cases

@dataclass
class Case:
    """One door and method: ``make(tmp)`` gives the result; ``write(result, path, tmp)``
    writes the report (default ``result.save_report(path)``); ``words(result)`` and
    ``numbers(result)`` (``(anchor, value)``: the first number after the anchor) are
    what the file must hold; ``refuses``: the words of the one-line error instead."""

    door: str
    method: str
    make: Callable
    words: Callable = lambda res: []
    numbers: Callable = lambda res: []
    write: Callable | None = None
    refuses: str | None = None
    marks: tuple = field(default_factory=tuple)

    @property
    def id(self):
        return f"{self.door}:{self.method}"


def _compare_words(res):
    name, cite = _test_words(res.test)
    words = [name, cite, f"at α = {res.alpha:g}", res.df_source.split(",")[0]]
    if res.df == np.inf or res.df_interval[1] == np.inf:
        words.append("An infinite df means")
    if "estimated at 0" in res.df_source:     # the bootstrap cv at its bound: said so
        words.append("bound sqrt(MS_W / C)")
    if res.posterior is not None:
        words += ["Correlated Bayesian t test (Corani & Benavoli 2015)",
                  f"ρ = {res.posterior.rho:.3g}", "ROPE ±"]
    return words


def _compare_numbers(res):
    out = [("Statistic (", res.statistic), ("p-value (two-sided) |", ("p", res.pvalue)),
           ("Difference A - B (points) |", 100 * res.difference),
           (f"| {res.learner_a} |", 100 * res.accuracy_a)]
    if np.isfinite(res.df):
        out.append(("| df |", res.df))
    if res.posterior is not None:
        out.append((f"P({res.learner_a} better) =", res.posterior.p_right))
    return out


def _compare_scores_case(test):
    """compare_scores with ``test`` on the first design it fits, else its refusal."""
    designs = {"3x4": ("cv", 3, 4), "1x6": ("cv", 1, 6), "5x2cv": ("cv5x2", 5, 2),
               "subsampling:6": ("subsampling", 6, 0)}
    shapes = {"3x4": (3, 4), "1x6": (1, 6), "5x2cv": (5, 2), "subsampling:6": (6,)}
    fit = [d for d, (kind, r, k) in designs.items() if fits_design(test, kind, r, k)]
    design = fit[0] if fit else "3x4"
    method = "bayes" if test in BAYES_TESTS else "frequentist"

    def make(tmp):
        a, b = _fold_scores(shapes[design])
        kw = {"method": "bayes", "rope": 0.01 if test.endswith("rope1") else 0.0} \
            if method == "bayes" else {"test": test}
        return calibsim.compare_scores(a, b, design=design, labels=("svm", "tree"), **kw)
    return Case("compare_scores", f"{test}@{design}", make, _compare_words, _compare_numbers,
                refuses=None if fit else "predictions")


def _rank_words(res):
    name, cite = POSTHOC_WORDS[res.posthoc_method]
    f = res.friedman
    words = [name, cite, "Friedman's test", "Iman & Davenport", "Multi²Test (Ulaş",
             f"at α = {res.alpha:g}",
             "tie-corrected" if f.tie_correction else "without the tie correction"]
    if res.cost_source.startswith("the table's learner order"):
        words.append("the first column wins a tie, not the cheaper learner")
    else:
        words.append("preferring the cheaper learner")
    if res.bayesian:
        first = next(iter(res.bayesian.values()))
        if hasattr(first, "shrunk_means"):
            words += ["hierarchical Bayesian test (Corani, Benavoli, Demšar", f"ρ = {first.rho:.4g}",
                      "R-hat", "divergent", "NumPyro's NUTS"]
        else:
            words += ["Bayesian signed-rank test (Benavoli", f"±{first.rope:g} in score units"]
    return words


def _rank_numbers(res):
    f = res.friedman
    order = np.argsort(res.average_ranks, kind="stable")
    out = [("Friedman: χ²_F =", f.statistic), ("Iman–Davenport F_F =", f.iman_davenport),
           ("(df", f.df)]
    out += [(f"| {res.learners[j]} |", res.average_ranks[j]) for j in order]
    if res.bayesian:
        for (a, b), r in res.bayesian.items():
            out.append((f"| {a} vs {b} |", r.p_right))
    return out


def _rank_case(label, table=_wide, **kw):
    return Case("rank", label, lambda tmp: calibsim.rank(table(), **kw), _rank_words,
                _rank_numbers)


def _cli_rank_write(args):
    def write(res, path, tmp):
        csv = tmp / "wide.csv"
        _wide().to_csv(csv)
        assert main(["rank", "--scores", str(csv), "--report", str(path), *args]) == 0
    return write


def _scores_in_frame():
    a, b = _fold_scores((3, 4), seed=2)
    rows = [{"run": r, "fold": f, "learner": n, "accuracy": round(float(x[r, f]), 4)}
            for r in range(3) for f in range(4) for n, x in (("nb", a), ("tree", b))]
    return pd.DataFrame(rows)


def _scores_in(method):
    args = ["--method", "bayes", "--rho", "heuristic"] if method == "bayes" else []

    def make(tmp):
        kw = {"method": "bayes", "rho": "heuristic"} if method == "bayes" else {}
        return calibsim.compare_scores(_scores_in_frame(), **kw)

    def write(res, path, tmp):
        csv = tmp / "scores.csv"
        _scores_in_frame().to_csv(csv, index=False)
        assert main(["compare", "--scores-in", str(csv), "--report", str(path), *args]) == 0
    return Case("compare --scores-in", method, make,
                lambda res: _compare_words(res) + ["per-fold scores read from"],
                _compare_numbers, write=write)


def _compare_all_numbers(table):
    return [(f"| {r.learner_a} vs {r.learner_b} |", 100 * r.difference)
            for r in table.itertuples()]


def _calibrate_like_numbers(res):
    t = res.to_frame()
    r = t.iloc[0]
    out = []
    if np.isfinite(r["df"]):
        out.append((f"| {r['label']} | {r['alpha']:g} |", r["df"]))
    return out


def _plan_numbers(res):
    n, t = res.null.iloc[0], res.table.iloc[0]
    return [(f"| {n['design']} | {n['n_train']:.0f} | {n['damaged']} |", n["damage_rate"]),
            (f"| {t['design']} | {t['label']} | {t['fits']} |", t["df"])]


CASES = (
    [_compare_scores_case(t) for t in list(TESTS) + list(BAYES_TESTS)]
    + [Case("compare_scores", "corrected_repeated_cv@3x4,df=textbook",
            lambda tmp: calibsim.compare_scores(*_fold_scores((3, 4)), design="3x4",
                                                df="textbook"),
            _compare_words, _compare_numbers)]
    + [Case("compare_scores", "corrected_repeated_cv@5x5, df = ∞",
            lambda tmp: calibsim.compare_scores(
                *(0.8 + 0.02 * np.random.default_rng(1).standard_normal((2, 5, 5)))),
            lambda res: _compare_words(res) + ["df = ∞ (normal limit) (95% interval ∞ to ∞)",
                                               "An infinite df means"]
            if res.df == np.inf else ["the case needs df = ∞"], _compare_numbers)]
    + [_scores_in("frequentist"), _scores_in("bayes")]
    + [Case("compare", m, lambda tmp, m=m: calibsim.compare(
        "naive_bayes", "c45", _data(1), design="2x3", progress=False,
        **({"method": "bayes", "rho": "heuristic"} if m == "bayes" else {})),
        _compare_words, _compare_numbers) for m in ("frequentist", "bayes")]
    + [Case("compare_all", "corrected_repeated_cv+holm", lambda tmp: calibsim.compare_all(
        ["naive_bayes", "c45", "ib1"], _data(2), design="2x3", progress=False),
        lambda t: ["corrected repeated cross-validation t test", "Holm's step-down method",
                   "statsmodels' multipletests", "at α = 0.05"], _compare_all_numbers)]
    + [_rank_case(f"posthoc={p}", posthoc=p) for p in POSTHOC_WORDS]
    + [_rank_case("tie_correction=False", tie_correction=False,
                  cost=["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]),
       _rank_case("bayes(signed-rank)", method="bayes", rope=0.01),
       _rank_case("per-fold run+fold, corrected_repeated_cv", table=_long),
       _rank_case("10 learners with long names", table=_many, posthoc="holm"),
       Case("rank (CLI)", "nemenyi", lambda tmp: calibsim.rank(_wide(), posthoc="nemenyi"),
            _rank_words, _rank_numbers, write=_cli_rank_write(["--posthoc", "nemenyi"])),
       Case("rank (CLI)", "no-tie-correction",
            lambda tmp: calibsim.rank(_wide(), tie_correction=False), _rank_words,
            _rank_numbers, write=_cli_rank_write(["--no-tie-correction"]))]
    + [Case("compare_datasets", "5x2cv MultiTest", lambda tmp: calibsim.compare_datasets(
        ["naive_bayes", "c45"], {f"tiny{i}": _data(10 + i) for i in range(3)},
        design="5x2cv", progress=False), _rank_words, _rank_numbers)]
    + [Case("calibrate --like", "corrected_repeated_cv", lambda tmp: calibsim.calibrate_like(
        "iris", design="2x2", n_datasets=20, n_jobs=0, results=tmp / "results",
        progress=False), lambda res: ["corrected repeated cv", "Type I error", "2x2",
                                      "David & Nagaraja 2003", "20 null data sets"],
        _calibrate_like_numbers)]
    + [Case("calibrate --like", f"corrected_repeated_cv, null={null}",
            lambda tmp, null=null: calibsim.calibrate_like(
                "breast-cancer", design="2x3", n_datasets=10, n_jobs=0, null=null,
                results=tmp / "results", progress=False),
            lambda res: ["corrected repeated cv", "Type I error", "2x3",
                         "Dietterich 1998", res.null_sentence.split(",")[0]],
            _calibrate_like_numbers) for null in ("damaged", "both")]
    + [Case("compare", test, lambda tmp, test=test, design=design: calibsim.compare(
        "naive_bayes", "c45", _data(1), design=design, test=test, progress=False),
        _compare_words, _compare_numbers)
       for test, design in (("bayle_cv_clt", "2x3"), ("ncv", "ncv:2x3"),
                            ("bootstrap_cv", "bootcv:10x5"),
                            ("bootstrap_cv_unadjusted", "bootcv:10x5"),
                            # at the bound: its variance component is estimated at 0 here
                            ("bootstrap_cv", "bootcv:3x3"))]
    + [Case("plan", "damaged null, 2x3, Δ = 5", lambda tmp: calibsim.plan(
        "naive_bayes", "c45", "breast-cancer", differences=(0.05,), designs=("2x3",),
        n_datasets=10, progress=False),
        lambda res: ["Dietterich 1998, §5", "Bouckaert & Frank", "α = 0.05",
                     "Monte Carlo SE", "corrected repeated cv"], _plan_numbers)]
)

#: The hierarchical test compiles its sampler (NumPyro, ~20 s of CPU): a slow cell.
SLOW_CASES = [Case("rank", "bayes(hierarchical), run+fold", lambda tmp: calibsim.rank(
    _long(), method="bayes", rope=0.01), _rank_words, _rank_numbers)]


# --------------------------------------------------------------------------- reading back

_ACCENT_CMD = {"'": "\u0301", "`": "\u0300", '"': "\u0308", "v": "\u030c", "c": "\u0327",
               "~": "\u0303", "^": "\u0302", "u": "\u0306", "r": "\u030a", "=": "\u0304"}
_MATH_BACK = {r"\chi": "χ", r"\alpha": "α", r"\rho": "ρ", r"\delta": "δ", r"\sigma": "σ",
              r"\sum": "Σ", r"\infty": "∞", r"\le": "≤", r"\ge": "≥", r"\pm": "±",
              r"\times": "×", r"\cdot": "·", r"\surd": "√", r"\ne": "≠", r"\nu": "ν"}


def _from_latex(text: str) -> str:
    body = text.split("\n\\begin{document}\n", 1)[1]
    body = body.replace("\\allowbreak{}", "").replace("\\nobreak\\hspace{0pt}", "")
    body = body.replace("\\\\", "\n")
    body = re.sub(r"\\sqrt\{([^{}]*)\}", r"√(\1)", body)
    body = re.sub(r"\^\{?2\}?", "²", body)
    body = re.sub(r"\^\{?3\}?", "³", body)
    body = re.sub(r"_\{([^{}]*)\}", r"_\1", body)
    body = re.sub(r"\\([`'\"vc~^ur=])\{\\?([A-Za-z])\}",
                  lambda m: unicodedata.normalize("NFC", m.group(2) + _ACCENT_CMD[m.group(1)]),
                  body)
    for uni, tex in sorted(_LATEX_UNICODE.items(), key=lambda kv: -len(kv[1])):
        if "\\" in tex or "$" in tex or tex in ("--", "---", "``", "''"):
            body = body.replace(tex, uni)
    for tex, uni in sorted(_MATH_BACK.items(), key=lambda kv: -len(kv[0])):
        body = body.replace(tex + " ", uni).replace(tex, uni)
    body = body.replace(" & ", " | ")
    for ch, tex in _LATEX_SPECIAL.items():
        body = body.replace(tex, ch)
    body = re.sub(r"\\(texttt|caption|subsection\*|section\*|subsubsection\*)\{", "{", body)
    body = body.replace("$", "").replace("{", "").replace("}", "")
    return "\n".join("| " + line for line in body.splitlines())     # rows start as in md


def _plain(text: str, fmt: str) -> str:
    """The file's text as words: markup removed, table cells separated by ``|``."""
    if fmt == "html":
        text = re.sub(r"</t[dh]>\s*<t[dh][^>]*>", " | ", text)
        text = re.sub(r"<t[dh][^>]*>", "| ", text)
        text = html_.unescape(re.sub(r"<[^>]+>", " ", text))
    elif fmt == "tex":
        text = _from_latex(text)
    else:
        text = text.replace("\\*", "*").replace("\\|", "|")
    text = text.replace("−", "-").replace("ı́", "í")
    return re.sub(r"[ \t]+", " ", text)


_NUMBER = re.compile(r"(<\s*)?([-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?)")


def _check_number(text, anchor, value, where):
    anchor = anchor.replace("−", "-")
    i = text.find(anchor)
    assert i >= 0, f"{where}: {anchor!r} not in the report"
    m = _NUMBER.search(text, i + len(anchor))
    assert m and m.start() - (i + len(anchor)) < 40, f"{where}: no number after {anchor!r}"
    token = m.group(2)
    got = float(token)
    if isinstance(value, tuple):                                    # a p-value
        value = value[1]
        if m.group(1):
            assert value < got, f"{where}: {anchor} says < {got}, the result has {value}"
            return
        assert token == p_text(value), f"{where}: {anchor} {token}, the result {value}"
        return
    decimals = len(token.split(".")[1].split("e")[0]) if "." in token else 0
    tol = 0.5 * 10.0 ** -decimals if "e" not in token else abs(got) * 5e-3
    assert abs(got - float(value)) <= tol * (1 + 1e-9) + 1e-12, (
        f"{where}: {anchor} {token} in the report, {value!r} in the result")


def _compile(path, where):
    run = subprocess.run([PDFLATEX, "-interaction=nonstopmode", "-halt-on-error",
                          "-no-shell-escape", path.name], cwd=path.parent,
                         capture_output=True, text=True, timeout=120)
    log = path.with_suffix(".log").read_text(encoding="latin-1")
    assert run.returncode == 0, f"{where}: pdflatex failed: " + "\n".join(
        line for line in log.splitlines() if line.startswith("!"))
    over = [line for line in log.splitlines() if "Overfull \\hbox" in line]
    assert not over, f"{where}: {over}"


# --------------------------------------------------------------------------- the cells

@pytest.fixture(scope="module")
def counts():
    c = Counter()
    yield c
    print(f"\nreport matrix: {c['written']} cells written, {c['refused']} refused, "
          f"{c['broken']} broken; LaTeX compiled {c['compiled']} "
          f"({'pdflatex ' + PDFLATEX if PDFLATEX else 'no pdflatex: compile skipped'})")
    assert c["broken"] == 0


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """Each case's result, made once for its three formats."""
    cache = {}

    def get(case):
        if case.id not in cache:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")     # DesignWarning: df off the shipped table
                cache[case.id] = case.make(tmp_path_factory.mktemp("made"))
        return cache[case.id]
    return get


def _cell(case, fmt, made, counts, tmp_path):
    where = f"{case.id} [{fmt}]"
    if case.refuses:
        with pytest.raises(ValueError) as info:
            made(case)
        text = str(info.value)
        assert "\n" not in text and case.refuses in text, (where, text)
        counts["refused"] += 1
        return
    try:
        res = made(case)
        path = tmp_path / f"report.{fmt}"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if case.write is None:
                res.save_report(path)
            else:
                case.write(res, path, tmp_path)
        text = _plain(path.read_text(encoding="utf-8"), fmt)
        for w in case.words(res):
            assert w.replace("−", "-") in text, f"{where}: {w!r} not in the report"
        for anchor, value in case.numbers(res):
            _check_number(text, anchor, value, where)
        if fmt == "tex" and PDFLATEX:
            _compile(path, where)
            counts["compiled"] += 1
    except BaseException:
        counts["broken"] += 1
        raise
    counts["written"] += 1


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_cell(case, fmt, made, counts, tmp_path):
    _cell(case, fmt, made, counts, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", SLOW_CASES, ids=lambda c: c.id)
def test_slow_cell(case, fmt, made, counts, tmp_path):
    _cell(case, fmt, made, counts, tmp_path)


def test_an_unknown_format_is_refused_in_one_line(tmp_path):
    res = calibsim.compare_scores(*_fold_scores((10, 10)))
    with pytest.raises(ValueError) as info:
        res.save_report(tmp_path / "report.docx")
    assert "\n" not in str(info.value) and ".tex (LaTeX)" in str(info.value)


def test_latex_compiles_or_says_why_not():
    if PDFLATEX is None:
        pytest.skip("pdflatex is not installed: the LaTeX cells are checked for their words "
                    "and numbers but not compiled (apt-get install texlive-latex-base "
                    "texlive-latex-recommended)")
    assert PDFLATEX


def test_every_door_and_method_is_in_the_matrix():
    doors = {c.door for c in CASES}
    assert doors >= {"compare", "compare --scores-in", "compare_scores", "compare_all",
                     "rank", "rank (CLI)", "compare_datasets", "calibrate --like", "plan"}
    methods = {c.method.split("@")[0] for c in CASES if c.door == "compare_scores"}
    assert methods >= set(TESTS) | set(BAYES_TESTS)
    assert {c.method for c in CASES if c.door == "rank"} >= {
        f"posthoc={p}" for p in POSTHOC_WORDS}
