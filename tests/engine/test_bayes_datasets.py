"""The bayes_datasets analysis: the hierarchical and signed-rank tests over groups of data
sets, computed block by block, the same for any block size."""

import textwrap

import numpy as np
import pytest

from calibsim.engine import compute_scores, load_study, run_analyses
from calibsim.engine.spec import StudyFileError
from _studies import tiny_study

pytest.importorskip("numpyro")

STUDY = tiny_study('bayes_datasets_small', seed=11, block_size='{block}', n_datasets=20) + """[[analysis]]
kind = "bayes_datasets"
name = "over"
datasets = [10]
runs = [2]
repeats = 2
ropes = [0.0, 0.01]
thresholds = [0.95, 0.99]
rhos = ["1/k", 0.3]

[outputs]
results = "{results}"
figures = "{results}/fig"
"""


def _study(tmp_path, block, name="s.toml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(STUDY.format(block=block, results=tmp_path / "res")))
    return load_study(path)


def test_decision_rates_and_replicability_do_not_depend_on_blocks(tmp_path):
    a = _study(tmp_path, 20)
    table = run_analyses(a, compute_scores(a))["over"]
    # 2 tests: hierarchical at 2 rho, signed-rank at 1; x 2 ropes x 2 thresholds
    assert len(table) == (2 + 1) * 2 * 2
    assert set(table.test) == {"hierarchical", "signed_rank"}
    assert (table.n_comparisons == 2).all() and (table.datasets_per_comparison == 10).all()
    rate = table.decision_rate.to_numpy()
    assert np.all((rate >= 0) & (rate <= 1))
    at_default = table[table.rho.astype(str) == "1/k"]
    assert at_default.R.notna().all() and (at_default.repeats == 2).all()
    assert table[table.rho_value == 0.3].R.isna().all()
    # a stricter threshold never decides more often
    for _, g in table.groupby(["test", "rho_value", "rope"]):
        g = g.sort_values("threshold")
        assert g.decision_rate.iloc[1] <= g.decision_rate.iloc[0]
    b = _study(tmp_path, 10, "t.toml")
    again = run_analyses(b, compute_scores(b))["over"]
    np.testing.assert_array_equal(table.decision_rate, again.decision_rate)


def test_block_size_must_hold_whole_comparisons(tmp_path):
    with pytest.raises(StudyFileError, match="block_size.*multiple of every number of data"):
        _study(tmp_path, 15)


def _calibrated_study(tmp_path, n_folds, n_runs, runs, rhos='["1/k", "calibrated"]'):
    text = (STUDY.replace("n_folds = 5", f"n_folds = {n_folds}")
            .replace("n_runs = 4", f"n_runs = {n_runs}").replace("runs = [2]", f"runs = [{runs}]")
            .replace('rhos = ["1/k", 0.3]', f"rhos = {rhos}"))
    path = tmp_path / "c.toml"
    path.write_text(textwrap.dedent(text.format(block=20, results=tmp_path / "res")))
    return load_study(path)


def test_calibrated_rho_is_the_shipped_tables(tmp_path):
    from calibsim import lookup_rho
    from calibsim.engine.analyses import _rho_value
    study = _calibrated_study(tmp_path, 5, 4, 2)
    a = study.analyses[0]
    assert a.rhos == ("1/k", "calibrated")
    # first threshold (0.95) and first ROPE (0) of the analysis, its r x k
    assert _rho_value("calibrated", 5, a, 2) == lookup_rho(threshold=0.95, rope=0.0,
                                                           n_folds=5, n_runs=2).rho
    assert _rho_value("1/k", 5, a, 2) == 0.2 and _rho_value(0.3, 5, a, 2) == 0.3


def test_calibrated_rho_outside_the_table_fails_before_any_score(tmp_path):
    with pytest.raises(StudyFileError, match=r"rhos.*'calibrated'.*n_folds=4, n_runs=2"):
        _calibrated_study(tmp_path, 4, 4, 2)
    with pytest.raises(StudyFileError, match=r"rhos\[1\].*'1/k', 'calibrated'"):
        _calibrated_study(tmp_path, 5, 4, 2, rhos='["1/k", "table"]')


def _tidy_table():
    """A bayes_datasets table as the analysis writes it (two sources, q = 10 and 20)."""
    import pandas as pd
    rows = []
    for src, group, net, rate in (("null", "null", np.nan, 0.04),
                                  ("ban[network=set2]", "ban", "set2", 0.6)):
        for test, label in (("hierarchical", "hierarchical test"),
                            ("signed_rank", "Bayesian signed-rank test")):
            for q, n in ((10, 50), (20, 25)):
                for rho in (("1/k", "calibrated") if test == "hierarchical" else ("",)):
                    for rope in (0.0, 0.01):
                        for th in (0.95, 0.99):
                            r = 0.0 if (group == "null" and rope) else rate
                            rows.append({
                                "source": src, "group": group, "network": net,
                                "pair_a": "naive_bayes", "pair_b": "c45", "test": test,
                                "label": label, "scheme": "cv", "n_runs": 10, "n_folds": 10,
                                "datasets_per_comparison": q, "rho": rho,
                                "rho_value": {"1/k": 0.1, "calibrated": 0.138}.get(rho, np.nan),
                                "rope": rope, "threshold": th, "n_comparisons": n,
                                "decision_rate": r, "mc_se": np.sqrt(r * (1 - r) / n),
                                "rate_a_better": 0.02 * (group != "null"),
                                "rate_b_better": r - 0.02 * (group != "null"),
                                "rate_rope": 0.0, "poor_diagnostics": 0.0,
                                "repeats": 5 if rho != "calibrated" else 1,
                                "consistent": 0.9 if rho != "calibrated" else np.nan,
                                "R": 0.93 if rho != "calibrated" else np.nan,
                                "R_se": 0.01 if rho != "calibrated" else np.nan})
    return pd.DataFrame(rows)


class _Scores:
    def difference(self, source, scheme, pair):
        shift = 0.0 if source == "null" else -0.02          # C4.5 (B) better on BAN
        return np.full((100, 10, 10), shift) + np.linspace(-0.01, 0.01, 100)[:, None, None]


def test_decision_rate_table_and_figure_are_in_words(tmp_path):
    from pathlib import Path

    from calibsim.engine.outputs import write_figures
    from calibsim.papers.own_studies import LAYOUTS
    repo = Path(__file__).resolve().parents[2]
    study = load_study(repo / "studies" / "bayesian_hierarchical.toml")
    table = _tidy_table()
    a = study.analyses[0]
    paths = write_figures(study, [a], {a.name: table}, tmp_path)
    assert paths[f"{a.name}.png"].stat().st_size > 10_000
    out = LAYOUTS["bayesian_hierarchical"](study=study, tables={a.name: table},
                                           scores=_Scores(), folder=tmp_path)
    text = out["decision_rate.md"].read_text(encoding="utf-8")
    assert "| BAN source Set 2 |" in text and "| null source " in text
    assert "ban[network" not in text and "naive_bayes" not in text
    # 4 % at n = 50 is 4.0 (SE 2.8); none of 25 deciding shows its one-sided 95% bound
    assert "| 4.0 (2.8)" in text and "0 (≤ 11)" in text
    assert "ρ = calibrated = 0.138" in text
    assert "| -2.00 (0.06) " in text and "| +0.00 (0.06) " in text
    # the wrong-direction decisions (A better where B is) are reported: 2%
    assert "at most 2.0% of the comparisons" in text


class _Fake:
    diagnostics_ok = True

    def probabilities(self, rope):
        return 0.0, 1.0, 0.0


@pytest.mark.parametrize("sampler", ["numba", "auto", "single"])
def test_the_study_samples_with_its_own_nuts_settings(tmp_path, monkeypatch, sampler):
    """Every sampler gets the analysis's settings: 4 chains x 1,000 draws after
    DATASETS_WARMUP = 500 warm-up iterations (the test's default is 1,000), the scaled
    starting metric and NUTS's target acceptance 0.9; nothing is sampled."""
    import calibsim.stats as st
    from calibsim.engine.analyses import (DATASETS_WARMUP, _datasets_summaries,
                                          SameDifferences)
    seen = []

    def single(x, **kw):
        seen.append(kw)
        return _Fake()

    def batch(xs, **kw):
        seen.append(kw)
        return [_Fake() for _ in xs]
    monkeypatch.setattr(st, "hierarchical_bayesian_test", single)
    monkeypatch.setattr(st, "hierarchical_bayesian_batch", batch)
    study = _study(tmp_path, 20)
    a = study.analyses[0]
    out = _datasets_summaries(study, a, SameDifferences(compute_scores(study)),
                              sampler=sampler)
    assert seen and all(kw["target_accept"] == 0.9 and kw["n_samples"] == 4000
                        and kw["n_warmup"] == DATASETS_WARMUP == 500
                        and kw["initial_metric"] == "scaled" for kw in seen)
    assert all(np.all(v["p"][..., 1] == 1) for k, v in out.items() if k[3] == "hierarchical")


@pytest.mark.slow
def test_batching_across_rho_leaves_each_comparisons_draws(tmp_path):
    """The batched comparisons of every ρ share one list (so only its last batch is
    part filled with copies); a comparison's draws do not depend on its batch, so the
    ρ = 1/k summaries are the same, bit for bit, as with 1/k alone."""
    import dataclasses

    from calibsim.engine.analyses import _datasets_summaries, SameDifferences
    study = _study(tmp_path, 20)
    a = study.analyses[0]
    assert a.rhos == ("1/k", 0.3)
    scores = SameDifferences(compute_scores(study))
    both = _datasets_summaries(study, a, scores)
    alone = _datasets_summaries(study, dataclasses.replace(a, rhos=("1/k",),
                                                           tests=("hierarchical",)), scores)
    key = (a.name, a.sources[0], tuple(a.pairs[0]), "hierarchical", 10, "1/k")
    assert alone.keys() == {key}
    np.testing.assert_array_equal(both[key]["p"], alone[key]["p"])
    np.testing.assert_array_equal(both[key]["diag"], alone[key]["diag"])


@pytest.mark.slow
@pytest.mark.parametrize("other", [{"sampler": "auto"},
                                   {"sampler": "single", "initial_metric": "unit"}])
def test_other_samplers_give_the_same_summaries_within_mc_error(tmp_path, other):
    """The engine's default (calibsim's NUTS in numba, from a metric scaled to the
    data) against NumPyro's: batched at q = 10 from the same metric (the study's draws
    in issue 46's third and fourth rounds), and one pair at a time from NUTS's identity
    (the study's draws before issue 46): same comparisons, same seeds, probabilities
    within 4 Monte Carlo SEs of a difference of two runs with ESS >= 400 each, 4 *
    sqrt(2 * 0.25 / 400) = 0.14, where both runs' diagnostics are good (the tolerance of
    tests/stats/test_hierarchical.py)."""
    from calibsim.engine.analyses import _datasets_summaries, SameDifferences
    study = _study(tmp_path, 20)
    a = study.analyses[0]
    scores = SameDifferences(compute_scores(study))
    one = _datasets_summaries(study, a, scores)
    alt = _datasets_summaries(study, a, scores, **other)
    assert one.keys() == alt.keys()
    for key, s in one.items():
        b = alt[key]
        assert s["p"].shape == b["p"].shape
        np.testing.assert_allclose(b["p"].sum(axis=-1), 1)
        if key[3] == "signed_rank":                    # not sampled by NUTS: unchanged
            np.testing.assert_array_equal(s["p"], b["p"])
            continue
        good = s["diag"] & b["diag"]
        assert good.mean() >= 0.5
        assert np.all(np.abs(s["p"] - b["p"])[good] <= 0.14)
