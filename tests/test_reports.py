"""Reports (calibsim.reports): the renderer, labelled tables, effect sizes and --report.

docs/guide/results.md fixes what a report holds; these tests check that each format
renders every kind of part, that tables are labelled with learner names, that the
magnitude labels follow their sources' thresholds, and that the same input gives the
same bytes (in this process and in a fresh one).
"""

import base64
import hashlib
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure as MplFigure

from calibsim.cli import main
from calibsim.ranking import rank
from calibsim.reports import Code, Figure, Heading, Paragraph, Report, Table, format_of
from calibsim.stats import (cliffs_delta, cohens_d, effect_size_magnitude,
                            effect_sizes_vs_best)
from test_ranking import DEMSAR as _DEMSAR      # tests/ is on sys.path (no __init__.py)

ROOT = Path(__file__).resolve().parents[1]
PNG = b"\x89PNG\r\n\x1a\n"

# Demšar (2006), Table 6: AUC of four C4.5 variants on 14 data sets (as in test_ranking).
DEMSAR = _DEMSAR.rename_axis("dataset")


def _figure():
    fig = MplFigure(figsize=(3, 2))
    ax = fig.add_subplot()
    ax.plot([0, 1, 2], [0.2, 0.5, 0.4], marker="o")
    ax.set(xlabel="fold", ylabel="accuracy (%)", title="A figure")
    return fig


def _report():
    frame = pd.DataFrame({"learner": ["naive_bayes", "C4.5 & co"],
                          "accuracy (%)": [90.09, 96.62], "splits": [100, 100],
                          "reject": [True, False], "df": [np.inf, np.nan]})
    return Report("Naive Bayes vs C4.5 at α = 0.05", [
        Paragraph("Is 5% of `RepeatedStratifiedKFold(n_folds=10)` a_b? χ² ≥ 3, p < 0.001."),
        Heading("Results"),
        Table(frame, caption="Accuracy of each learner", formats={"accuracy (%)": ".2f"}),
        Figure(_figure(), "curve", caption="Accuracy per fold"),
        Heading("Reproducibility", level=3),
        Code("calibsim compare --data vote --a naive_bayes --b c45", "bash")])


# ---------------------------------------------------------------------------
# The renderer
# ---------------------------------------------------------------------------

def test_markdown_renders_every_part():
    text = _report().render("markdown", stem="cmp")
    assert text.startswith("# Naive Bayes vs C4.5 at α = 0.05\n")
    assert "## Results" in text and "### Reproducibility" in text
    assert "`RepeatedStratifiedKFold(n_folds=10)`" in text
    assert "| learner | accuracy (%) | splits | reject | df |" in text
    assert "| :-- | --: | --: | :-- | --: |" in text                # numbers right-aligned
    assert "| naive_bayes | 90.09 | 100 | yes | ∞ |" in text
    assert "| C4.5 & co | 96.62 | 100 | no | — |" in text             # NaN shown as a dash
    assert "![Accuracy per fold](cmp_curve.png)" in text
    assert "```bash\ncalibsim compare --data vote --a naive_bayes --b c45\n```" in text


def test_latex_is_booktabs_and_escaped():
    text = _report().render("latex", stem="cmp")
    assert "\\section*{Naive Bayes vs C4.5 at $\\alpha$ = 0.05}" in text
    for cmd in ("\\toprule", "\\midrule", "\\bottomrule", "\\begin{longtable}{@{}lrrlr@{}}",
                "\\documentclass[a4paper]{article}", "\\end{document}"):
        assert cmd in text
    assert "learner & accuracy (\\%) & splits & reject & df \\\\" in text
    assert "C4.5 \\& co & 96.62 & 100 & no & --- \\\\" in text
    assert ("\\texttt{RepeatedStratifiedKFold(\\allowbreak{}n\\_\\allowbreak{}folds=\\allowbreak{}10)}"
            in text)                                  # code may break at punctuation
    assert "a\\_\\allowbreak{}b" in text                   # and names after an underscore
    assert "5\\% of" in text and "$\\chi$$^2$ $\\ge$ 3" in text
    assert "p $<$ 0.001" in text
    assert "keepaspectratio]{cmp_curve.png}" in text
    assert "\\caption{Accuracy of each learner}" in text
    assert "\\begin{verbatim}\ncalibsim compare" in text
    # nothing pdflatex cannot set from its default fonts is left outside verbatim
    outside = re.sub(r"\\begin\{verbatim\}.*?\\end\{verbatim\}", "", text, flags=re.S)
    assert all(ord(ch) < 128 for ch in outside), sorted({c for c in outside if ord(c) >= 128})


def test_html_embeds_the_figures_as_png():
    rep = _report()
    text = rep.render("html")
    assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
    assert "<caption>Accuracy of each learner</caption>" in text
    assert '<th class="num">accuracy (%)</th>' in text
    assert "<td>C4.5 &amp; co</td>" in text
    data = re.search(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', text).group(1)
    png = base64.b64decode(data)
    assert png[:8] == PNG and png == rep.figures()[0].png()
    assert "cmp_curve.png" not in text


def test_save_writes_the_report_and_its_figures_beside_it(tmp_path):
    rep = _report()
    md = rep.save(tmp_path / "cmp.md")
    assert md == [tmp_path / "cmp.md", tmp_path / "cmp_curve.png"]
    assert (tmp_path / "cmp_curve.png").read_bytes()[:8] == PNG
    assert (tmp_path / "cmp.md").read_text(encoding="utf-8") == rep.render("markdown", stem="cmp")
    (tmp_path / "paper").mkdir()
    tex = rep.save(tmp_path / "paper" / "cmp.tex")
    assert [p.name for p in tex] == ["cmp.tex", "cmp_curve.png"]
    assert rep.save(tmp_path / "cmp.html") == [tmp_path / "cmp.html"]      # embedded
    with pytest.raises(ValueError, match=r"must end in \.md .*cmp\.pdf'"):
        rep.save(tmp_path / "cmp.pdf")
    assert format_of("a/b.TEX") == "latex"


def test_the_same_parts_give_the_same_bytes():
    a, b = _report(), _report()                  # two figures drawn apart
    for fmt in ("markdown", "latex", "html"):
        assert a.render(fmt) == b.render(fmt)
    assert a.figures()[0].png() == b.figures()[0].png()
    assert b"tEXt" not in a.figures()[0].png()   # no software or date stamp in the PNG


def test_bad_parts_fail_clearly():
    with pytest.raises(ValueError, match="`format` must be"):
        _report().render("pdf")
    with pytest.raises(ValueError, match="figure names must be unique"):
        Report("t", [Figure(_figure(), "a"), Figure(_figure(), "a")]).render("markdown")
    with pytest.raises(ValueError, match="`name` of a figure"):
        Figure(_figure(), "a figure.png")
    with pytest.raises(TypeError, match="must be a Heading"):
        Report("t", ["just a string"]).render("markdown")
    with pytest.raises(TypeError, match="matplotlib Figure or Axes"):
        Figure(lambda: 42, "x").png()


# ---------------------------------------------------------------------------
# Effect sizes and their magnitude
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("value, label", [
    (0.0, "negligible"), (0.199, "negligible"), (0.2, "small"), (-0.49, "small"),
    (0.5, "medium"), (0.799, "medium"), (-0.8, "large"), (np.inf, "large"), (np.nan, "")])
def test_cohen_thresholds(value, label):
    assert effect_size_magnitude(value) == label


@pytest.mark.parametrize("value, label", [
    (0.146, "negligible"), (0.147, "small"), (-0.329, "small"), (0.33, "medium"),
    (0.473, "medium"), (0.474, "large"), (-1.0, "large")])
def test_cliff_thresholds_of_romano_et_al(value, label):
    assert effect_size_magnitude(value, "cliff_delta") == label


def test_cohens_d_and_cliffs_delta_by_hand(rng):
    x, y = rng.normal(0.8, 0.05, 12), rng.normal(0.75, 0.05, 9)
    sp = np.sqrt((11 * x.var(ddof=1) + 8 * y.var(ddof=1)) / 19)
    assert cohens_d(x, y) == pytest.approx((x.mean() - y.mean()) / sp)
    brute = np.mean([np.sign(a - b) for a in x for b in y])
    assert cliffs_delta(x, y) == pytest.approx(brute)
    assert cohens_d([1, 1], [1, 1, 1]) == 0.0 and cohens_d([2, 2], [1, 1]) == np.inf


def test_effect_size_against_the_best_follows_autorank(rng):
    normal = rng.normal([0.85, 0.80, 0.70], 0.03, size=(30, 3))
    es = effect_sizes_vs_best(normal, best=0)
    assert es.measure == "cohen_d" and es.all_normal and es.source == "Cohen 1988"
    assert np.isnan(es.effect_size[0]) and es.magnitude[0] == ""
    assert es.effect_size[2] > es.effect_size[1] > 0
    assert es.effect_size[1] == pytest.approx(cohens_d(normal[:, 0], normal[:, 1]))
    skewed = normal.copy()
    skewed[:, 1] = 0.8 - rng.exponential(0.05, 30) ** 3          # far from normal
    es = effect_sizes_vs_best(skewed, best=0)
    assert es.measure == "cliff_delta" and not es.all_normal
    assert es.normality_pvalue[1] < es.alpha_normality == pytest.approx(0.05 / 3)
    assert es.effect_size[1] == pytest.approx(cliffs_delta(skewed[:, 0], skewed[:, 1]))
    # errors: lower is better, and a positive effect still favours the best
    assert effect_sizes_vs_best(1 - normal, best=0, higher_is_better=False).effect_size[2] > 0


# ---------------------------------------------------------------------------
# Labelled tables of the results
# ---------------------------------------------------------------------------

def test_ranking_tables_are_labelled_with_learner_names():
    res = rank(DEMSAR, cost=list(DEMSAR.columns), posthoc="nemenyi", alpha=0.10)
    p = res.adjusted_pvalues
    assert list(p.index) == list(p.columns) == list(DEMSAR.columns)
    np.testing.assert_array_equal(p.to_numpy(), res.posthoc.pvalue)
    assert p.loc["C4.5+m+cf", "C4.5"] == pytest.approx(0.0742, abs=5e-4)
    frame = res.to_frame()
    assert list(frame.columns) == ["learner", "average_rank", "mean", "sd", "median",
                                   "effect_size", "magnitude", "adjusted_pvalue",
                                   "multi2test_rank"]
    assert frame["learner"].tolist() == ["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]
    assert frame["average_rank"].is_monotonic_increasing
    assert np.isnan(frame["effect_size"][0]) and np.isnan(frame["adjusted_pvalue"][0])
    assert frame["adjusted_pvalue"][3] == pytest.approx(p.loc["C4.5+m+cf", "C4.5"])
    assert frame["multi2test_rank"].tolist() == [3, 1, 2, 4]     # order C4.5+m, +cf, +m+cf, C4.5
    es = res.effect_sizes
    assert es.attrs["measure"] in ("Cohen's d", "Cliff's δ")
    assert set(frame["magnitude"][1:]) <= {"negligible", "small", "medium", "large"}


def test_ranking_report_in_three_formats(tmp_path):
    res = rank(DEMSAR, cost=list(DEMSAR.columns), posthoc="nemenyi", alpha=0.10,
               tie_correction=False)
    md = res.report()
    for words in ("Friedman: χ²_F = 9.279 (df 3), p = 0.026",     # Demšar: 9.28
                  "C4.5+m+cf better than C4.5 (rank difference 1.18, adjusted p = 0.074)",
                  "| learner | C4.5+m+cf | C4.5+m | C4.5+cf | C4.5 |",  # p-value matrix
                  "Order, best first: 1. C4.5+m, 2. C4.5+cf, 3. C4.5+m+cf, 4. C4.5.",
                  "as autorank does (Herbold 2020)", "![", "report_cd.png",
                  "calibsim.rank(table, score='score'", "no random numbers are drawn"):
        assert words in md, words
    tex = res.report("latex")
    assert "\\toprule" in tex and "Nemenyi" in tex and "Garc\\'{\\i}a" not in md
    outside = re.sub(r"\\begin\{verbatim\}.*?\\end\{verbatim\}", "", tex, flags=re.S)
    assert all(ord(ch) < 128 for ch in outside)      # Demšar, Ulaş, α, χ², ≤ set as LaTeX
    assert "data:image/png;base64," in res.report("html")
    paths = res.save_report(tmp_path / "r.md")
    assert [p.name for p in paths] == ["r.md", "r_cd.png"]


# ---------------------------------------------------------------------------
# compare, compare_all
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def labor():
    from calibsim.datasets import load_uci
    return load_uci("labor")


def test_compare_result_frame_and_report(labor):
    from calibsim import compare
    res = compare("naive_bayes", "c45", labor, design="2x5", replicability=None)
    row = res.to_frame()
    assert row.shape[0] == 1 and row.loc[0, "learner_a"] == "naive_bayes"
    assert row.loc[0, "pvalue"] == res.pvalue and row.loc[0, "effect_size"] == res.effect_size
    assert row.loc[0, "magnitude"] == res.magnitude == effect_size_magnitude(res.effect_size)
    text = res.report()
    sig = "significant" if res.reject else "not significant"
    for words in ("Do naive_bayes and c45 differ in accuracy on labor?",
                  "| Instances | 57 |", "calibsim.schemes.StratifiedRepeatedCV(n_folds=5, "
                  "n_runs=2, random_state=0)", "corrected repeated cross-validation t test",
                  f"df = {res.df:.2f}", "How the df enters: t = m / sqrt(",
                  f"Paired d = m / s = {res.effect_size:.2f} ({res.magnitude}; thresholds "
                  "of Cohen 1988: 0.2, 0.5, 0.8)", "Nadeau & Bengio",
                  f"The difference is {sig} at α = 0.05", "calibsim 0.", "seed of the "
                  "partitions: 0", "calibsim.compare('naive_bayes', 'c45', data, "
                  "design='2x5'"):
        assert words in text, words
    lo, hi = res.confidence_interval
    assert f"[{100 * lo:+.2f}, {100 * hi:+.2f}]" in text
    assert "\\toprule" in res.report("latex")


def test_compare_all_table_reports_itself(labor):
    from calibsim import compare_all
    table = compare_all({"NB": "naive_bayes", "C4.5": "c45", "NN": "ib1"}, labor,
                        design="2x5")
    assert isinstance(table, pd.DataFrame)
    assert list(table.columns[-2:]) == ["effect_size", "magnitude"]
    m = table.pvalue_matrix()
    assert list(m.index) == list(m.columns) == ["NB", "C4.5", "NN"]
    assert m.loc["NB", "NN"] == m.loc["NN", "NB"] == table.pvalue_adjusted[1]
    assert type(table.head()) is pd.DataFrame and type(table.to_frame()) is pd.DataFrame
    text = table.report()
    assert "Which of NB, C4.5 and NN differ in accuracy on labor?" in text
    assert "| learner | NB | C4.5 | NN |" in text and "Holm's step-down method" in text
    assert "calibsim.compare_all({'NB': 'naive_bayes', 'C4.5': 'c45', 'NN': 'ib1'}" in text


# ---------------------------------------------------------------------------
# --report on the command line
# ---------------------------------------------------------------------------

def test_cli_rank_report_in_each_format_and_the_same_bytes(tmp_path, capsys):
    csv = tmp_path / "T.csv"
    DEMSAR.to_csv(csv)
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
        for suffix in (".md", ".tex", ".html"):
            assert main(["rank", "--scores", str(csv), "--report",
                         str(tmp_path / sub / f"r{suffix}")]) == 0
    out = capsys.readouterr().out
    assert "wrote " in out and "r_cd.png" in out
    md = (tmp_path / "a" / "r.md").read_text(encoding="utf-8")
    assert f"calibsim rank --scores {csv} --report {tmp_path / 'a' / 'r.md'}" in md
    tex = (tmp_path / "a" / "r.tex").read_text(encoding="utf-8")
    assert "\\toprule" in tex and "C4.5+m+cf" in tex
    for name in ("r.md", "r.tex", "r_cd.png", "r.html"):
        a, b = (tmp_path / s / name for s in ("a", "b"))
        text_a = a.read_bytes().replace(str(tmp_path / "a").encode(), b"DIR")
        assert text_a == b.read_bytes().replace(str(tmp_path / "b").encode(), b"DIR"), name


def test_cli_report_is_byte_identical_in_a_fresh_process(tmp_path):
    csv = tmp_path / "T.csv"
    DEMSAR.to_csv(csv)
    args = ["rank", "--scores", str(csv), "--report", str(tmp_path / "r.html")]
    assert main(args) == 0
    here = hashlib.sha256((tmp_path / "r.html").read_bytes()).hexdigest()
    subprocess.run([sys.executable, "-m", "calibsim", *args], cwd=ROOT, check=True,
                   capture_output=True)
    assert hashlib.sha256((tmp_path / "r.html").read_bytes()).hexdigest() == here


def test_cli_report_path_is_checked_before_the_work(tmp_path, capsys):
    csv = tmp_path / "T.csv"
    DEMSAR.to_csv(csv)
    with pytest.raises(SystemExit) as info:
        main(["rank", "--scores", str(csv), "--report", str(tmp_path / "r.pdf")])
    assert info.value.code == 2 and "must end in .md" in capsys.readouterr().err
    (tmp_path / "file").write_text("x")
    with pytest.raises(SystemExit):
        main(["compare", "--data", "labor", "--a", "naive_bayes", "--b", "c45",
              "--report", str(tmp_path / "file" / "c.md")])
    assert "is a file" in capsys.readouterr().err
    assert not list(tmp_path.glob("*.png"))


def test_cli_compare_report(tmp_path, capsys):
    path = tmp_path / "c.md"
    assert main(["compare", "--data", "labor", "--a", "naive_bayes", "--b", "c45",
                 "--design", "2x5", "--replicability", "none", "--no-progress",
                 "--report", str(path)]) == 0
    assert f"wrote {path}" in capsys.readouterr().out
    text = path.read_text(encoding="utf-8")
    assert ("calibsim compare --data labor --a naive_bayes --b c45 --design 2x5 "
            "--replicability none --no-progress --report") in text
    assert "# naive_bayes vs c45 on labor" in text and "## In words" in text


def test_bayesian_reports_embed_the_posterior(tmp_path, labor, capsys):
    from calibsim import compare
    res = compare("naive_bayes", "c45", labor, design="2x5", replicability=None,
                  method="bayes", rope=0.01)
    text = res.report()
    b = res.posterior
    assert (f"P(naive_bayes better) = {b.p_right:.3f}, P(practically equivalent) = "
            f"{b.p_rope:.3f}") in text and "ROPE ±1 point:" in text
    assert "![Posterior density" in text and "report_posterior.png" in text
    assert [p.name for p in res.save_report(tmp_path / "b.tex")] == ["b.tex", "b_posterior.png"]
    csv = tmp_path / "T.csv"
    DEMSAR.to_csv(csv)
    assert main(["rank", "--scores", str(csv), "--method", "bayes", "--rope", "0.01",
                 "--report", str(tmp_path / "r.md")]) == 0
    md = (tmp_path / "r.md").read_text(encoding="utf-8")
    assert "## Bayesian signed-rank tests" in md and "equivalence of ±0.01" in md
    assert (tmp_path / "r_posterior.png").read_bytes()[:8] == PNG
