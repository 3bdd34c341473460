"""Tests of calibsim.ranking (rank), its table reader and ``calibsim rank``."""

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose

from calibsim.cli import main
from calibsim.engine.scores import Scores
from calibsim.ranking import rank, scores_from_study
from calibsim.stats import bergmann_hommel_test, friedman_test, holm_test

# Demšar (2006), Table 6: AUC of C4.5, C4.5+m, C4.5+cf, C4.5+m+cf on 14 data sets.
DEMSAR = pd.DataFrame(
    [[0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569], [0.954, 0.971, 0.968, 0.967],
     [0.628, 0.661, 0.654, 0.657], [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
     [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625], [0.775, 0.838, 0.866, 0.875],
     [1.000, 1.000, 1.000, 1.000], [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
     [0.972, 0.981, 0.97501, 0.975], [0.957, 0.978, 0.946, 0.970]],
    columns=["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"],
    index=[f"d{k}" for k in range(14)])
PRIOR = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]


def _long(wide, name="accuracy"):
    return wide.rename_axis("dataset").reset_index().melt(
        id_vars="dataset", var_name="learner", value_name=name)


def _folds(rng, S=12, p=(0.30, 0.30, 0.15), n=400):
    """Long per-fold table: 10 folds (5x2 cv) of accuracies for three learners."""
    rows = []
    for s in range(S):
        for name, q in zip("abc", p):
            acc = 1 - rng.binomial(n, q, size=10) / n
            rows += [{"dataset": f"d{s}", "learner": name, "fold": f, "accuracy": a,
                      "cost": {"a": 1.0, "b": 2.0, "c": 5.0}[name] * (1 + s)}
                     for f, a in enumerate(acc)]
    return pd.DataFrame(rows)


def test_wide_and_long_tables_agree():
    wide = rank(DEMSAR, cost=PRIOR)
    long = rank(_long(DEMSAR), cost=PRIOR)
    assert long.learners == wide.learners == tuple(PRIOR)
    assert_allclose(long.average_ranks, [3.143, 2.000, 2.893, 1.964], atol=5e-4)  # Demšar
    assert_allclose(long.average_ranks, wide.average_ranks)
    assert long.friedman.statistic == pytest.approx(friedman_test(DEMSAR.to_numpy()).statistic)
    assert_allclose(long.posthoc.pvalue, bergmann_hommel_test(DEMSAR.to_numpy()).pvalue)
    assert long.order == wide.order
    assert long.multi2test.per_dataset is None            # one score per data set


def test_errors_are_ranked_the_other_way():
    err = 1 - DEMSAR
    res = rank(err, higher_is_better=False, posthoc="holm", cost=PRIOR)
    assert_allclose(res.average_ranks, rank(DEMSAR, cost=PRIOR).average_ranks)
    assert_allclose(res.posthoc.pvalue, holm_test(DEMSAR.to_numpy()).pvalue)


def test_per_fold_scores_run_multitest_on_each_data_set(rng):
    table = _folds(rng)
    res = rank(table, cost="cost")
    assert res.n_folds == 10 and len(res.multi2test.per_dataset) == 12
    assert res.cost_source.startswith("column 'cost'")
    assert res.multi2test.prior_order == ("a", "b", "c")
    assert res.order == ("c", "a", "b")                # c is costly but much more accurate
    assert res.multi2test.overrides == (("a", "c"), ("b", "c"))
    assert_allclose(res.scores, table.groupby(["dataset", "learner"], sort=False)["accuracy"]
                    .mean().to_numpy().reshape(12, 3))
    text = str(res)
    assert "MultiTest on each data set (10 folds, cv5x2_f, bonferroni)" in text
    assert "order: 1: c, 2: a, 3: b" in text


def test_fold_count_must_suit_the_test(rng):
    table = _folds(rng)
    five = table[table["fold"] < 5]
    with pytest.raises(ValueError, match="needs 10 folds"):
        rank(five)
    res = rank(five, pairwise_test="paired_t")
    assert res.n_folds == 5


def test_cost_forms():
    by_map = rank(DEMSAR, cost={"C4.5": 1, "C4.5+m": 2, "C4.5+cf": 3,
                                                 "C4.5+m+cf": 4})
    by_list = rank(DEMSAR, cost=[1.0, 2.0, 3.0, 4.0])
    none = rank(DEMSAR)
    assert by_map.order == by_list.order == none.order
    assert none.cost_source == "the table's learner order (no cost given)"
    rev = rank(DEMSAR, cost=PRIOR[::-1])
    assert rev.multi2test.prior_order == tuple(PRIOR[::-1])
    with pytest.raises(ValueError, match="missing"):
        rank(DEMSAR, cost={"C4.5": 1})


@pytest.mark.parametrize("change, match", [
    (lambda t: t.drop(index=3), "no 'accuracy' for"),
    (lambda t: pd.concat([t, t.iloc[:1]]), "more than one row"),
    (lambda t: t.rename(columns={"accuracy": "auc"}), "must name the score column"),
    (lambda t: t.assign(accuracy="high"), "must hold numbers"),
])
def test_table_errors(change, match):
    with pytest.raises(ValueError, match=match):
        rank(change(_long(DEMSAR)))


def test_other_errors():
    with pytest.raises(ValueError, match="not a column"):
        rank(_long(DEMSAR), cost="seconds")
    with pytest.raises(ValueError, match="wide"):
        rank(DEMSAR, cost="cost")
    with pytest.raises(ValueError, match="at least 2 data sets"):
        rank(DEMSAR.iloc[:1])
    with pytest.raises(TypeError, match="DataFrame"):
        rank(DEMSAR.to_numpy())
    with pytest.raises(ValueError, match="posthoc"):
        rank(DEMSAR, posthoc="dunn")


def test_summary_markdown_and_figures():
    res = rank(DEMSAR, cost=PRIOR, posthoc="nemenyi", alpha=0.10)
    # Demšar §3.2.2: at alpha = 0.10 (CD = 1.12) C4.5+m and C4.5+m+cf differ from C4.5
    pairs = res.significant_pairs()
    assert set(zip(pairs["better"], pairs["worse"])) == {("C4.5+m", "C4.5"),
                                                         ("C4.5+m+cf", "C4.5")}
    assert res.groups() == [("C4.5+m+cf", "C4.5+m", "C4.5+cf"), ("C4.5+cf", "C4.5")]
    md = res.to_markdown()
    assert "| learner" in md and "**Nemenyi**" in md and "order: 1: C4.5+m" in md
    ax = res.plot_cd_diagram()
    assert "CD" in [t.get_text() for t in ax.texts]
    assert res.plot_graph().get_title().startswith("order: 1: C4.5+m")


def test_scores_from_a_study():
    rng = np.random.default_rng(0)
    N, L = 4, 3
    correct = rng.integers(60, 90, size=(N, L, 5, 2))
    arrays = {("src", "cv5x2"): {"correct": correct, "n_test": np.full((N, 5, 2), 100),
                                 "fit_time": rng.random((N, L)) + 1.0,
                                 "predict_time": rng.random((N, L)),
                                 "model_size": rng.integers(1, 9, size=(N, L, 5, 2))}}
    study = SimpleNamespace(learners=[SimpleNamespace(label=x) for x in ("nb", "c45", "ib1")])
    table = scores_from_study(Scores(study, arrays), cost="fit_time")
    assert list(table.columns) == ["dataset", "learner", "fold", "accuracy", "cost"]
    assert len(table) == N * L * 10
    first = table[(table["dataset"] == "src#0") & (table["learner"] == "c45")]
    assert_allclose(first["accuracy"], correct[0, 1].ravel() / 100)
    assert_allclose(first["cost"], arrays[("src", "cv5x2")]["fit_time"][0, 1])
    res = rank(table, cost="cost")
    assert res.n_folds == 10 and res.datasets == tuple(f"src#{i}" for i in range(N))
    with pytest.raises(ValueError, match="scheme"):
        scores_from_study(Scores(study, arrays), scheme="10x10")


# ---------------------------------------------------------------------------
# calibsim rank
# ---------------------------------------------------------------------------

def test_cli_rank_on_a_wide_csv(tmp_path, capsys):
    csv = tmp_path / "auc.csv"
    DEMSAR.rename_axis("dataset").to_csv(csv)
    png = tmp_path / "out" / "cd.png"
    rc = main(["rank", "--scores", str(csv), "--prior-order", ",".join(PRIOR),
               "--cd-diagram", str(png), "--graph", str(tmp_path / "g.png"),
               "--no-tie-correction"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "Friedman: chi2_F = 9.279 (df 3)" in out           # Demšar: 9.28
    assert "Bergmann–Hommel (alpha = 0.05): 0 significant pair(s)" in out
    assert "order: 1: C4.5, 2: C4.5+m, 3: C4.5+cf, 4: C4.5+m+cf" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "g.png").is_file()


def test_cli_rank_long_csv_with_folds_and_cost(tmp_path, capsys, rng):
    csv = tmp_path / "folds.csv"
    _folds(rng).to_csv(csv, index=False)
    assert main(["rank", "--scores", str(csv), "--markdown"]) == 0
    out = capsys.readouterr().out
    assert "prior order from column 'cost'" in out and "order: 1: c, 2: a, 3: b" in out
    err = _folds(rng).assign(accuracy=lambda t: 1 - t["accuracy"])
    err.to_csv(csv, index=False)
    assert main(["rank", "--scores", str(csv), "--lower-is-better", "--posthoc", "holm"]) == 0
    assert "order: 1: c, 2: a, 3: b" in capsys.readouterr().out


def test_cli_rank_errors(tmp_path, capsys):
    with pytest.raises(SystemExit) as info:          # refused while parsing the flags
        main(["rank", "--scores", str(tmp_path / "none.csv")])
    assert info.value.code == 2 and "does not exist" in capsys.readouterr().err
    csv = tmp_path / "auc.csv"
    DEMSAR.rename_axis("dataset").to_csv(csv)
    assert main(["rank", "--scores", str(csv), "--prior-order", "a,b"]) == 2
    assert "permutation" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["rank", "--scores", str(csv), "--alpha", "2"])


def test_a_long_table_with_run_and_fold_columns_is_read_run_major():
    # r runs of k-fold cv with the fold numbered within its run (issue 44): the same
    # ranking as the fold numbered across runs, k known (the corrected repeated cv t)
    rng = np.random.default_rng(3)
    rows = [{"dataset": f"d{s}", "learner": lrn, "run": r, "fold": f,
             "accuracy": float(0.7 + m + 0.03 * rng.standard_normal())}
            for s in range(5) for lrn, m in (("a", 0.0), ("b", 0.04)) for r in range(2)
            for f in range(3)]
    table = pd.DataFrame(rows)
    res = rank(table)
    across = table.assign(fold=table["run"] * 3 + table["fold"]).drop(columns="run")
    ref = rank(across, pairwise_test="corrected_repeated_cv", folds_per_run=3)
    assert res.n_folds == 6 and res.order == ref.order
    assert res.multi2test.per_dataset[0].pairwise_test == "corrected_repeated_cv"
    np.testing.assert_allclose(res.scores, ref.scores)
    bad = table[~((table["run"] == 1) & (table["fold"] == 2))]
    with pytest.raises(ValueError, match=r"got \{0: 3, 1: 2\} folds per run") as info:
        rank(bad)
    assert "np." not in str(info.value)
    with pytest.raises(ValueError, match="more than one row for dataset 'd0', learner 'a', "
                                         "fold 0") as info:
        rank(table.drop(columns="run"))
    assert "np." not in str(info.value)
