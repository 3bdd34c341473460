"""The layout of studies/cv_inference_validation.toml: claims checked from the tables (issue 43)."""

import re
from pathlib import Path

import numpy as np
import pandas as pd

from calibsim.engine import load_study
from calibsim.papers.own_studies import LAYOUTS

REPO = Path(__file__).resolve().parents[1]


def _coverage(rows, target):
    out = []
    for source, group, test, cov, n in rows:
        se = np.sqrt(cov * (1 - cov) / n)
        out.append({"source": source, "group": group, "test": test, "target": target,
                    "confidence": 0.9 if group.startswith("bates") else 0.95,
                    "truth": 0.3, "coverage": cov, "mc_se": se, "ci_low": 0.0, "ci_high": 1.0,
                    "miss_below": (1 - cov) / 2, "miss_above": (1 - cov) / 2,
                    "mean_width": 0.2 if test in ("bayle_cv_clt", "bootstrap_cv") else 0.25,
                    "mean_estimate": 0.3, "n": n})
    return pd.DataFrame(out)


def _tables():
    bates = [("bates_s1", "bates_s1", "bayle_cv_clt", 0.80, 200),
             ("bates_s1", "bates_s1", "ncv", 0.62, 200),      # far below 90%: "differs"
             ("bates_s2", "bates_s2", "bayle_cv_clt", 0.89, 200),  # not below: "differs"
             ("bates_s2", "bates_s2", "ncv", 0.91, 200)]
    rates = []
    for n in (200, 3200):
        for group, rate in (("bayle_null", {"bayle_cv_clt": 0.05, "kfold_cv": 0.04,
                                            "cv5x2_t": 0.01}),
                            ("bayle_alt", {"bayle_cv_clt": 0.5 if n == 200 else 0.2,
                                           "kfold_cv": 0.4, "cv5x2_t": 0.1})):
            for test, r in rate.items():
                rates.append({"source": f"{group}[n_instances={n}]", "group": group,
                              "test": test, "alpha": 0.05, "rate": r,
                              "mc_se": np.sqrt(r * (1 - r) / 300), "ci_low": 0.0,
                              "ci_high": 1.0, "n": 300})
    cover = _coverage([("bayle_alt[n_instances=200]", "bayle_alt", "bayle_cv_clt", 0.94, 300)],
                      "error")
    cai = [("cai_s1", "cai_s1", "bootstrap_cv", 0.94, 200),      # within 3 MC SE: "agrees"
           ("cai_s1", "cai_s1", "resampling", 0.70, 200),
           ("cai_s1", "cai_s1", "corrected_resampling", 0.93, 200)]
    cai_diff = [(s, g, t, 0.85 if t == "bootstrap_cv" else c, n)   # 85% < 95%: "differs"
                for s, g, t, c, n in cai]
    return {"bates_error": _coverage(bates, "error"),
            "bates_difference": _coverage(bates, "difference"),
            "bayle_rates": pd.DataFrame(rates), "bayle_error": cover,
            "cai_error": _coverage(cai, "error"),
            "cai_difference": _coverage(cai_diff, "difference")}


def test_the_verdicts_follow_the_numbers(tmp_path):
    study = load_study(REPO / "studies" / "cv_inference_validation.toml")
    out = LAYOUTS["cv_inference_validation"](study=study, tables=_tables(), scores=None,
                                             folder=tmp_path)
    text = out["comparison.md"].read_text(encoding="utf-8")
    claims = {line.split("|")[2].strip(): line.split("|")[3].strip()
              for line in text.splitlines() if line.startswith("| Ba")}
    assert claims["s = 1: the naive cv interval covers Err less often than nominal"] == "agrees"
    assert claims["s = 2: the naive cv interval covers Err less often than nominal"] == "differs"
    near = "the NCV interval covers Err at about the nominal level (within 3 MC SE)"
    assert claims[f"s = 1: {near}"] == "differs" and claims[f"s = 2: {near}"] == "agrees"
    size = "the cv CLT test's Type I error is near α (within 3 MC SE)"
    assert claims[f"n = 200: {size}"] == "agrees"
    power = "the cv CLT test is at least as powerful as the k-fold cv t and the 5x2cv t"
    assert claims[f"n = 200: {power} (within 2 MC SE)"] == "agrees"
    assert claims[f"n = 3200: {power} (within 2 MC SE)"] == "differs"
    cai = {line.split("|")[2].strip(): line.split("|")[3].strip()
           for line in text.splitlines() if line.startswith("| Cai")}
    near = "the bootstrap cv interval covers the truth at about the nominal level"
    assert cai[f"error of logistic regression: {near} (within 3 MC SE)"] == "agrees"
    assert cai[f"accuracy difference logistic − majority: {near} (within 3 MC SE)"] == \
        "differs"
    # every register row is there, and the width ratios are computed from the tables
    assert text.count("| Cai et al. 2023") == 7 + 2
    assert re.search(r"\|\s+1\.25 \|", text)
    assert re.search(r"bootstrap cv \(random effects, adjusted\) \|\s+0\.3 \|.*\|\s+0\.8 \|", text)
    reg = pd.read_csv(out["differences.csv"], keep_default_na=False)
    claims_rows = reg[reg["where"] == "abstract (claim)"]
    assert len(claims_rows) == 8 + 2
    assert sum(v in ("agrees", "differs") for v in claims.values()) == 8
    assert set(claims_rows.loc[claims_rows["verdict"] == "differs", "status"]) <= {
        "open", "explained by argument"}
    assert (reg.loc[reg["where"] == "setting", "status"] == "not comparable").all()
