"""Write figures/<folder>/README.md: each folder's tables and figures against the paper's numbers.

Generated from the study files (their title, paper layout and analyses), so the index
follows the studies. Run after adding a study or changing its outputs:

    python scripts/figure_index.py
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from calibsim.engine.spec import load_study  # noqa: E402

PAPERS = {
    "bouckaert2003": "Bouckaert, R. R. (2003). Choosing between two learning algorithms based on "
                     "calibrated tests. ICML-2003, 51-58.",
    "bouckaert_frank2004": "Bouckaert, R. R. & Frank, E. (2004). Evaluating the replicability "
                           "of significance tests for comparing learning algorithms. PAKDD 2004.",
    "dietterich1998": "Dietterich, T. G. (1998). Approximate statistical tests for comparing "
                      "supervised classification learning algorithms. Neural Computation 10(7).",
    "ulas2012": "Ulaş, A., Yıldız, O. T. & Alpaydın, E. (2012). Cost-conscious comparison of "
                "supervised learning algorithms over multiple data sets. Pattern Recognition 45(4).",
    "scheffer_herbrich1997": "Scheffer, T. & Herbrich, R. (1997). Unbiased assessment of "
                             "learning algorithms. IJCAI-97.",
    "examples": "Example studies declared only in files (no paper).",
    "bayes": "Bayesian comparisons (Corani & Benavoli 2015; Benavoli et al. 2014, 2017), "
             "measured on calibsim's null and BAN sources.",
    "null_construction": "Null data like yours (`calibsim calibrate --like`): permuted, "
                         "centred and balanced labels compared (calibsim's own study; see "
                         "docs/guide/calibrate.md).",
    "null_real_vs_balanced": "Dietterich's (1998, §5) damaged real-data null beside the "
                             "balanced + centred null of `calibsim calibrate --like`: the "
                             "calibrated df per data set, test and α (calibsim's own study; "
                             "see docs/guide/calibrate.md).",
    "cv_inference": "Cross-validation inference 1998–2023: the tests of the five papers and "
                    "the per-instance tests of Bayle et al. (2020) and Bates, Hastie & "
                    "Tibshirani (2023) and the bootstrap cv of Cai et al. (2023) on the same "
                    "null, BAN and Dietterich data (calibsim's "
                    "own study; see docs/guide/cv_comparison.md); and the newer cv inference "
                    "against its sources (issue 43): Bates, Hastie & Tibshirani's (2023) "
                    "coverage and Bayle et al.'s (2020) Type I error and power, reduced, with "
                    "the register of differences in cv_inference_validation_comparison.md.",
}
#: Files a maintainer's script writes beside a study's outputs: name -> what it shows.
WRITTEN_BY_SCRIPT = {
    "null_real_vs_balanced_damage.csv": "table (CSV): the damage rates of the study file, "
                                        "as scripts/calibrate_null_damage.py calibrated them "
                                        "(undamaged accuracies ± SE, the rate, the difference "
                                        "achieved on fresh check runs ± SE)"}
KIND = {"calibrate": "calibrated df per test, α and runs, with the Type I error at it",
        "rejection_rate": "rejection rate (Type I error on null data, power otherwise; "
                          "decision rate for the Bayesian tests), %, with its 95% interval",
        "replicability": "replicability R and consistency over repeats with new partitions",
        "accuracy": "mean accuracy (%) per learner and source, ± standard error",
        "calibrate_rho": "calibrated ρ of the correlated Bayesian t with its interval, and "
                         "decision rates at the default and the calibrated ρ on fresh data",
        "bayes_datasets": "decision rate (%) of the hierarchical and signed-rank tests over "
                          "comparisons of q data sets, per ROPE, threshold and ρ, with "
                          "replicability",
        "coverage": "coverage (%) of a test's interval of an error or a difference, against "
                    "the study file's truth, with its Monte Carlo SE",
        "plan": "calibsim plan's Type I error, power and replicability per design, test and "
                "Δ on the damaged real-data null, with Monte Carlo SE"}
EXT = {".md": "table", ".csv": "table (CSV)", ".png": "figure", ".pdf": "figure (PDF)"}


def _number(name: str) -> str:
    m = re.search(r"(table|tables|figure)(\d+)", name)
    if not m:
        return "—"
    word = {"table": "Table", "tables": "Tables", "figure": "Figure"}[m.group(1)]
    digits = m.group(2)
    if word == "Tables" or (word == "Table" and len(digits) > 1 and name.count("table") == 1
                            and digits in ("56", "234")):
        return f"Tables {', '.join(digits)}"
    return f"{word} {digits}"


def main() -> None:
    folders: dict = {}
    for path in sorted((ROOT / "studies").glob("*.toml")):
        study = load_study(path)
        try:
            rel = study.figures.relative_to(ROOT / "figures")
        except ValueError:
            continue
        folders.setdefault(rel.parts[0], []).append(study)
    for folder, studies in sorted(folders.items()):
        out = ROOT / "figures" / folder
        files = sorted(p for p in out.rglob("*") if p.is_file() and p.name != "README.md"
                       and p.name not in ("differences.md", "differences.csv")
                       and "variants" not in p.relative_to(out).parts
                       and not p.name.endswith("_runlog.txt"))
        lines = [f"# {folder}: tables and figures", "",
                 PAPERS.get(folder, ""), "",
                 "Generated by `python scripts/figure_index.py` from the study files; each file "
                 "is written by `calibsim run studies/<study>.toml`.", ""]
        register = out / "differences.md"
        if register.is_file():           # the register of differences leads (issue 22)
            counts = next((ln for ln in register.read_text(encoding="utf-8").splitlines()
                           if ln.startswith("**") and "cells compared" in ln), "")
            lines += ["## Differences from the paper", "",
                      f"{counts} Every difference with its status, evidence and the variant "
                      "study that tested it: [differences.md](differences.md) (written by "
                      "`python -m calibsim differences`; variant outputs in `variants/`).", ""]
        for st in studies:
            stem = st.name
            mine = [p for p in files if p.name.startswith(stem + "_") or p.stem == stem
                    or (stem.endswith("_large") and "figure2_10000" in p.parts)
                    or (stem == "scheffer_herbrich1997_examples"
                        and p.name.startswith("scheffer_herbrich1997.")
                        or p.name.startswith("scheffer_herbrich1997_examples")
                        or p.name == "scheffer_herbrich1997_report.md")]
            if not mine:
                continue
            lines += [f"## {st.title}", "",
                      f"Study `studies/{stem}.toml`; paper number: {_number(stem)}.", "",
                      "| file | what it shows |", "| --- | --- |"]
            kinds = {a.name: a.kind for a in st.analyses}
            for p in mine:
                rest = p.stem[len(stem) + 1:] if p.stem.startswith(stem + "_") else ""
                if p.name in WRITTEN_BY_SCRIPT:
                    lines.append(f"| [{p.name}]({p.name}) | {WRITTEN_BY_SCRIPT[p.name]} |")
                    continue
                if p.name.endswith("_report.md"):
                    what = "our numbers beside the paper's, each claim with its rule and verdict"
                elif rest in kinds:
                    what = KIND[kinds[rest]]
                else:
                    what = f"the paper layout's {rest.replace('_', ' ') or 'output'}"
                kind = "report" if p.name.endswith("_report.md") else EXT.get(p.suffix, "file")
                lines.append(f"| [{p.relative_to(out)}]({p.relative_to(out)}) | "
                             f"{kind}: {what} |")
            lines.append("")
        (out / "README.md").write_text("\n".join(lines), encoding="utf-8")
        print(f"wrote {out / 'README.md'}")


if __name__ == "__main__":
    main()
