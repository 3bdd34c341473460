"""Ulaş, Yıldız & Alpaydın (2012): exact checks on the paper's published numbers, the
synthetic Figures 4-5, and the ``published`` / ``synthetic`` layouts.

Each exact check feeds our procedure the paper's input and compares with the paper's
output. The paper publishes no per-fold errors, so MultiTest's pairwise tests cannot be
rerun: the optdigits and Fig. 3 checks start from the published tables of significant
differences (Tables 1 and 3), and the Multi²Test checks from the published average ranks.
"""

import tomllib
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from calibsim.papers import PAPERS, get_paper, layouts
from calibsim.papers import ulas2012 as U
from calibsim.papers.ulas2012 import _first_pass, _multi2test_batch
from calibsim.plotting import cd_groups
from calibsim.stats import (
    multi2test,
    multi2test_from_ranks,
    multitest,
    multitest_order,
    posthoc_from_ranks,
)

STUDIES = Path(__file__).resolve().parents[1] / "studies"


def _pairs(table):
    res = posthoc_from_ranks(U.AVERAGE_RANKS[table], U.N_DATASETS, method="bergmann_hommel")
    return U.significant_pairs(res.reject), res


# ---------------------------------------------------------------------------
# MultiTest: Table 1 (optdigits), Fig. 2, Table 3 / Fig. 3
# ---------------------------------------------------------------------------

def test_table1_optdigits_gives_the_fig2_order():
    # Table 1 (pairwise tests on optdigits) + a training-time order consistent with the
    # Fig. 1 and Fig. 2 captions -> §3.1: 1: svr, 2: svl, 3: sv2, 4: 5nn, 5: mlp, 6: lnp,
    # 7: mdt, 8: c45.
    res = multitest_order(U.TABLE1, cost=U.PRIOR["optdigits"], learners=U.LEARNERS)
    assert res.order == ("svr", "svl", "sv2", "5nn", "mlp", "lnp", "mdt", "c45")
    assert U.PRIOR["optdigits"][0] == "5nn" and U.PRIOR["optdigits"][-1] == "mdt"  # Fig. 1


def test_fig2_caption_steps():
    # Fig. 2 caption: (a) no outgoing edges at svl, sv2, svr, mdt, svr taken; (b) svl;
    # (c) sv2; (d) 5nn, mlp, mdt without outgoing edges, 5nn taken; (e) mlp; (f) lnp ...
    res = multitest_order(U.TABLE1, cost=U.PRIOR["optdigits"], learners=U.LEARNERS)
    assert set(res.candidates[0]) == {"svl", "sv2", "svr", "mdt"}
    assert res.candidates[0][0] == "svr"
    assert set(res.candidates[3]) == {"5nn", "mlp", "mdt"} and res.candidates[3][0] == "5nn"
    assert set(res.candidates[5]) == {"lnp", "mdt"}           # (f) lnp is simpler than mdt
    assert res.candidates[-1] == ("c45",)                      # (h) c45 is taken last


def test_table1_order_depends_on_the_unpublished_cost_order():
    n, total = U.optdigits_prior_orders()
    assert total == 720 and 1 <= n < total                     # 120 of 720 (report)


def test_table3_fig3_example():
    # Table 3 + prior A < B < C < D -> §3.2: 1: B, 2: A, 3: D, 4: C; Fig. 3: (A->B) (C->D)
    res = multitest_order(U.TABLE3, cost=U.PRIOR["fig3"], learners=U.PRIOR["fig3"])
    assert res.order == ("B", "A", "D", "C")
    assert res.overrides == (("A", "B"), ("C", "D"))


# ---------------------------------------------------------------------------
# Sign tests: Tables 4 and 6
# ---------------------------------------------------------------------------

def test_table4_sign_test_verdicts():
    # Table 4 wins (average accuracies, S = 38) -> §4.2: svl and svr beat all others, mlp
    # beats mdt, nothing else.
    assert U.sign_test_pairs(U.TABLE4) == U.PUBLISHED["table4_sign"][0]


def test_table6_sign_test_verdicts_need_ties_split():
    # Table 6 wins (5x2cv F, S = 38) -> §4.4: svr beats c45, mdt, sv2, 5nn only.
    assert U.sign_test_pairs(U.TABLE6) == U.PUBLISHED["table6_sign"][0]
    # With ties dropped, svr (10 wins, 0 losses) would beat lnp, against the text.
    assert ("svr", "lnp") in U.sign_test_pairs(U.TABLE6, ties="drop")


def test_tables_4_and_6_are_consistent():
    S = U.N_DATASETS
    assert ((U.TABLE4 + U.TABLE4.T)[~np.eye(8, dtype=bool)] >= S - 1).all()  # <= 1 tie
    assert ((U.TABLE6 + U.TABLE6.T) <= S).all()


# ---------------------------------------------------------------------------
# Bergmann-Hommel on published average ranks: Tables 5, 7, 8
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("table", ["table5", "table7", "table8"])
def test_bergmann_hommel_pairs(table):
    # Table 5(a)/7(a)/8(a) average ranks, S = 38, alpha = 0.05 -> Table 5(c)/7(c)/8(c).
    pairs, _ = _pairs(table)
    assert pairs == U.PUBLISHED[f"{table}_pairs"][0]


@pytest.mark.parametrize("table", ["table5", "table7", "table8"])
def test_groups_of_the_graphical_representation(table):
    # Table 5(b)/7(b)/8(b): the bold lines join the learners with no significant difference.
    _, res = _pairs(table)
    assert cd_groups(U.AVERAGE_RANKS[table], res.reject, U.LEARNERS) \
        == U.PUBLISHED[f"{table}_groups"][0]


@pytest.mark.parametrize("table", ["table5", "table7"])
def test_surviving_columns_agree_with_the_transcribed_pairs(table):
    pairs = U.PUBLISHED[f"{table}_pairs"][0]
    for col, values in U.SURVIVING_COLUMNS[table].items():
        got = tuple(int(frozenset((row, col)) in pairs) for row in U.LEARNERS[:7])
        assert got == values, col


def test_table8_tabular_representation_is_symmetric_as_printed():
    # Table 8(c), printed in full: 1 = significant difference.
    printed = np.array([[0, 0, 0, 0, 1, 1, 1, 1]] * 4
                       + [[1, 1, 1, 1, 0, 0, 0, 0]] * 2
                       + [[1, 1, 1, 1, 0, 0, 0, 1], [1, 1, 1, 1, 0, 0, 1, 0]])
    assert U.significant_pairs(printed) == U.PUBLISHED["table8_pairs"][0]


def test_rounding_of_the_published_ranks_cannot_change_a_verdict():
    for row in U.rounding_robustness():
        assert row["same_verdicts"], row


# ---------------------------------------------------------------------------
# Multi²Test second pass: Tables 7 and 8
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("table", ["table7", "table8"])
def test_multi2test_order(table):
    # Table 7(a) with the training-time order of §4.5.1, Table 8(a) with the space order of
    # §4.5.2 -> the rankings stated there; Table 7(d)/8(d): no edge overrides the prior.
    res = multi2test_from_ranks(U.AVERAGE_RANKS[table], n_datasets=U.N_DATASETS,
                                cost=U.PRIOR[table], learners=U.LEARNERS)
    assert res.friedman_rejects
    assert res.order == U.PUBLISHED[f"{table}_order"][0]
    assert res.overrides == () and res.graph.number_of_edges() == 0


def test_all_exact_checks_equal():
    rows = U.exact_checks()
    assert len(rows) == 14
    assert all(r["equal"] for r in rows), [r["check"] for r in rows if not r["equal"]]
    assert all(r["source"] for r in rows)


# ---------------------------------------------------------------------------
# Synthetic Figures 4 and 5
# ---------------------------------------------------------------------------

def test_vectorised_first_pass_equals_multitest():
    rng = np.random.default_rng(7)
    err = rng.binomial(100, [[[[0.6]]], [[[0.5]]], [[[0.4]]]], size=(3, 40, 5, 2)) / 100
    fast = _first_pass(err, 0.05, "bonferroni", "cv5x2_f")
    for r in range(40):
        slow = multitest(err[:, r], cost=[1.0, 2.0, 3.0], alpha=0.05)
        np.testing.assert_array_equal(fast[r], slow.ranks)


def test_vectorised_multi2test_equals_multi2test():
    rng = np.random.default_rng(8)
    p = 0.5 + 0.06 * np.array([3.0, 1.0, -1.0, -3.0])
    err = rng.binomial(100, p[:, None, None, None, None], size=(4, 6, 30, 5, 2)) / 100
    final, _ = _multi2test_batch(err, alpha=0.05, correction="bonferroni",
                                 pairwise_test="cv5x2_f", posthoc="bergmann_hommel")
    for r in range(6):
        slow = multi2test(np.moveaxis(err[:, r], 0, 1), cost=[1.0, 2.0, 3.0, 4.0])
        np.testing.assert_array_equal(final[r], slow.ranks)


def test_figure4_endpoints():
    # §4.6: at lambda = 0 MultiTest returns the prior 1-2-3 (family-wise level alpha);
    # at lambda = 0.1 it returns 3-2-1.
    n, alpha = 400, 0.05
    t = U.simulate_figure4(np.random.SeedSequence(4), lambdas=[0.0, 0.1], n_reps=n)
    p0 = t[(t["lambda"] == 0.0) & (t["ordering"] == "1-2-3")]["probability"].item()
    assert p0 >= 1 - alpha - 3 * np.sqrt(alpha * (1 - alpha) / n)
    end = t[t["lambda"] == 0.1].set_index("ordering")["probability"]
    assert end.idxmax() == "3-2-1"
    assert t.groupby("lambda")["probability"].sum().round(12).eq(1).all()


def test_figure5_starts_at_the_prior_order_and_is_deterministic():
    a = U.simulate_figure5(5, lambdas=[0.0, 0.06], n_reps=60)
    b = U.simulate_figure5(5, lambdas=[0.0, 0.06], n_reps=60)
    pd.testing.assert_frame_equal(a, b)
    start = a[a["lambda"] == 0.0]
    assert list(start["ordering"]) == ["1-2-3-4"] and start["count"].item() == 60
    assert (a["friedman_rejects"] >= 0).all()


def test_figure4_regression_counts():
    # Pins the random stream: the counts at lambda = 0.05 for this seed (change only on
    # purpose, e.g. a new way of drawing the error rates).
    t = U.simulate_figure4(2012, lambdas=[0.05], n_reps=200)
    counts = dict(zip(t["ordering"], t["count"]))
    assert counts == {"1-2-3": 65, "1-3-2": 5, "2-1-3": 3, "2-3-1": 111, "3-1-2": 13,
                      "3-2-1": 3}


def test_figure_claims_rules():
    t4 = U.simulate_figure4(1, lambdas=[0.0, 0.05, 0.1], n_reps=200)
    t5 = U.simulate_figure5(1, lambdas=[0.0, 0.05, 0.1], n_reps=40)
    claims = U.figure_claims(t4, t5)
    assert len(claims) == 6
    assert {c["verdict"] for c in claims} <= {"agrees", "differs"}
    assert claims[0]["verdict"] == "agrees" and claims[3]["verdict"] == "agrees"


# ---------------------------------------------------------------------------
# Layouts, registration, study files
# ---------------------------------------------------------------------------

def test_published_layout(tmp_path):
    study = SimpleNamespace(name="u12", title="Ulaş et al. (2012)", seed=1)
    paths = get_paper("ulas2012.published").write(study=study, tables={}, scores={},
                                                   folder=tmp_path, wall=1.5, calibrations={})
    assert {p.name for p in paths.values()} == {
        "u12_checks.csv", "u12_checks.md", "u12_posthoc.csv", "u12_cd.png", "u12_graphs.png",
        "u12_report.md"}
    checks = pd.read_csv(paths["checks.csv"])
    assert checks["equal"].all() and len(checks) == 14
    report = paths["report"].read_text(encoding="utf-8")
    assert "**14 of 14 checks equal.**" in report and "Wall time" in report
    assert "120 give the published order" in report
    assert paths["cd.png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_synthetic_layout(tmp_path, monkeypatch):
    monkeypatch.setattr(U, "N_REPS", 20)
    study = SimpleNamespace(name="u12s", title="Figs. 4-5", seed=3)
    paths = get_paper("ulas2012.synthetic").write(study=study, tables={}, scores={},
                                                   folder=tmp_path, wall=None, calibrations={})
    f5 = pd.read_csv(paths["figure5.csv"])
    assert set(f5["variant"]) == {"Bonferroni (A2)", "no correction"}
    assert set(f5.columns) >= {"lambda", "ordering", "probability", "n_reps", "friedman_rejects"}
    assert (f5["n_reps"] == 20).all()
    report = paths["report"].read_text(encoding="utf-8")
    for part in ("## Assumptions the paper leaves open", "A2", "## What differs and why",
                 "u12s_figure5.png"):
        assert part in report
    assert paths["figure4.png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_registered_and_study_files():
    assert "ulas2012" in PAPERS
    assert layouts("ulas2012") == ("published", "synthetic", "real")
    for name, layout in (("ulas2012_published", "published"),
                         ("ulas2012_synthetic", "synthetic")):
        spec = tomllib.loads((STUDIES / f"{name}.toml").read_text(encoding="utf-8"))
        assert set(spec) == {"study", "outputs"}
        assert spec["study"]["name"] == name
        assert spec["study"]["paper"] == f"ulas2012.{layout}"
        assert isinstance(spec["study"]["seed"], int)
        get_paper(spec["study"]["paper"])


def test_real_data_study_reduced(tmp_path):
    """studies/ulas2012_real.toml with 4 data sets and 3 of its learners, layout 'real'."""
    import tomllib
    from pathlib import Path

    from calibsim.engine.pipeline import run_study_file
    repo = Path(__file__).resolve().parents[1]
    doc = tomllib.loads((repo / "studies" / "ulas2012_real.toml").read_text(encoding="utf-8"))
    doc["sources"]["uci"]["name"] = ["iris", "labor", "zoo", "breast-w"]
    keep = ["c45", "lnp", "5nn"]
    doc["learners"] = {"names": keep, **{k: doc["learners"][k] for k in keep}}
    text = _toml(doc)
    path = tmp_path / "ulas2012_real.toml"
    path.write_text(text, encoding="utf-8")
    times = pd.read_csv(repo / "studies" / "ulas2012_real_training_time.csv")
    times = times[times["dataset"].isin(["iris", "zoo", "breast-w"])]
    # labor is not in the measured table: the layout says which data set lacks a time
    times.to_csv(tmp_path / "ulas2012_real_training_time.csv", index=False)
    with pytest.raises(ValueError, match="labor"):
        run_study_file(path, out=tmp_path / "out", results=tmp_path / "store", n_workers=0)
    extra = times[times["dataset"] == "iris"].assign(dataset="labor")
    pd.concat([times, extra]).to_csv(tmp_path / "ulas2012_real_training_time.csv", index=False)
    paths = run_study_file(path, out=tmp_path / "out", results=tmp_path / "store",
                           n_workers=0, compute=False)
    orders = (tmp_path / "out" / "ulas2012_real_orders.csv").read_text(encoding="utf-8")
    assert "Multi2Test order (ours)" in orders and paths["report"].is_file()
    stability = pd.read_csv(paths["stability.csv"])
    assert stability["share of draws"].sum() == pytest.approx(1.0)
    assert "how stable the order is" in paths["report"].read_text(encoding="utf-8")


def _toml(doc) -> str:
    """A minimal TOML writer for the study's tables (strings, numbers, lists, booleans)."""
    def value(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, str):
            return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return repr(v)
    out = []
    def table(name, t):
        scalars = {k: v for k, v in t.items() if not isinstance(v, dict)}
        out.append(f"[{name}]")
        out.extend(f"{k} = {value(v)}" for k, v in scalars.items())
        for k, v in t.items():
            if isinstance(v, dict):
                table(f"{name}.{k}", v)
    for name, t in doc.items():
        if isinstance(t, list):
            for item in t:
                out.append(f"[[{name}]]")
                out.extend(f"{k} = {value(v)}" for k, v in item.items())
        else:
            table(name, t)
    return "\n".join(out) + "\n"
